//! The overflow proof on crafted nets: a net that can overflow is rejected
//! with the value, lane or output, and bound named; the accumulator bound is
//! attained by a real position, so it is as tight as it can be.

use nnue::runtime::overflow::Interval;
use nnue::runtime::{Color, Isa, LoadError, LoadOptions};

use crate::support;

use crate::archs::sfnnv1;

use sfnnv1::Network;

const LANE: usize = 17;

/// A random SFNNv1 net (raw i16 transformer, HalfKP, 256 lanes) whose lane
/// `LANE` has weight `weight` for every feature.
fn net_with_lane_weight(weight: i16) -> Vec<u8> {
    let mut b = sfnnv1::random_net_file(7);
    let weights = weights_at(&b);
    for f in 0..sfnnv1::FEATURES {
        let at = weights + 2 * (f * sfnnv1::L1 + LANE);
        b[at..at + 2].copy_from_slice(&weight.to_le_bytes());
    }
    b
}

/// Offset of the transformer's weights: header (version, hash, description
/// length, description), transformer hash, biases.
fn weights_at(b: &[u8]) -> usize {
    12 + u32::from_le_bytes(b[8..12].try_into().unwrap()) as usize + 4 + 2 * sfnnv1::L1
}

fn bias(b: &[u8], lane: usize) -> i64 {
    let at = weights_at(b) - 2 * sfnnv1::L1 + 2 * lane;
    i64::from(i16::from_le_bytes(b[at..at + 2].try_into().unwrap()))
}

fn load(b: &[u8], allow_overflow: bool) -> Result<Network, LoadError> {
    Network::from_bytes_with(b, LoadOptions { isa: Some(Isa::Scalar), allow_overflow })
}

#[test]
fn random_nets_are_proven() {
    let net = load(&sfnnv1::random_net_file(7), false).unwrap();
    assert!(net.overflow_proof().holds());
    let names: Vec<&str> = net.overflow_proof().bounds().iter().map(|b| b.value.as_str()).collect();
    assert_eq!(
        names,
        [
            "transformer accumulator",
            "fc_0 pair sums",
            "fc_0 sums",
            "fc_1 pair sums",
            "fc_1 sums",
            "fc_2 pair sums",
            "fc_2 sums",
            "stack output",
            "evaluation"
        ]
    );
}

#[test]
fn the_accumulator_bound_is_attained_by_a_full_board() {
    // 30 pieces besides the kings, each adding 1000 to the lane: the bound is
    // bias + 30 000, and the starting position reaches it.
    let b = net_with_lane_weight(1000);
    let net = load(&b, false).unwrap();
    let accumulator = &net.overflow_proof().bounds()[0];
    assert_eq!(accumulator.value, "transformer accumulator");
    assert!(accumulator.tightest.starts_with(&format!("lane {LANE},")), "{}", accumulator.tightest);
    assert_eq!(accumulator.tightest_range, Interval::new(bias(&b, LANE), bias(&b, LANE) + 30_000));

    let start = support::board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    let mut acc = sfnnv1::Accumulator::default();
    net.refresh(&start, &mut acc);
    for perspective in [Color::White, Color::Black] {
        assert_eq!(i64::from(net.accumulator_values(&acc, perspective)[LANE]), accumulator.tightest_range.max);
    }
}

#[test]
fn a_lane_that_can_overflow_is_rejected_and_named() {
    let b = net_with_lane_weight(1100);
    let expected_max = bias(&b, LANE) + 33_000;
    match load(&b, false) {
        Err(LoadError::Overflow { value, at, range, ty }) => {
            assert_eq!((value.as_str(), range.max, ty.name()), ("transformer accumulator", expected_max, "i16"));
            assert!(at.starts_with(&format!("lane {LANE},")), "{at}");
        }
        other => panic!("expected an overflow error, got {:?}", other.err()),
    }
    let message = load(&b, false).err().unwrap().to_string();
    assert!(message.contains(&format!("lane {LANE}")) && message.contains(&expected_max.to_string()), "{message}");

    // Allowed explicitly, it loads, and the proof still says where.
    let net = load(&b, true).unwrap();
    assert!(!net.overflow_proof().holds());
    assert!(net.overflow_proof().to_string().contains("CAN OVERFLOW"));
}

#[test]
fn an_affine_sum_that_can_overflow_is_rejected_and_named() {
    // fc_2 (32 -> 1) ends the file: its i32 bias, then 32 i8 weights.
    let mut b = sfnnv1::random_net_file(7);
    let at = b.len() - 32 - 4;
    b[at..at + 4].copy_from_slice(&(i32::MAX - 100).to_le_bytes());
    match load(&b, false) {
        Err(LoadError::Overflow { value, at, range, .. }) => {
            assert_eq!((value.as_str(), at.as_str()), ("fc_2 sums", "layer stack 0, output 0"));
            assert!(range.max > i64::from(i32::MAX));
        }
        other => panic!("expected an overflow error, got {:?}", other.err()),
    }
}
