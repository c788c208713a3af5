//! Wrapping i32 sums load by default and agree everywhere: a net shaped as
//! Reckless's v30 (`tests/wrapping/screlu_384.ron`) whose output sums leave
//! i32 in every position gives, on every backend, the bits of a scalar model
//! of the engine's own arithmetic written here from the facts (clamp, the
//! 16-bit product `c * w`, `madd` pairs `(c * w) * c`, wrapping i32 adds,
//! the division, the i32 product by 400).

use crate::support;

use nnue::runtime::Isa;
use shakmaty::{Chess, Color, Position, Role, Square};

nnue::nnue!(include "tests/wrapping/screlu_384.ron");

use screlu_384::{L1, Network};

const QA: i32 = 384;

/// A small deterministic generator (SplitMix64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn range(&mut self, low: i16, high: i16) -> i16 {
        low + (self.next() % (high - low + 1) as u64) as i16
    }
}

/// The net's parameters: lanes below `L1 / 2` always clamp at QA (bias 700,
/// feature weights within ±9: 32 pieces move a lane by at most 288), the
/// others vary around the clamp's range; output weights within ±85 (so
/// every `c * w` fits i16, as the engine's 16-bit products need), mostly
/// large and positive so that the saturated lanes alone sum past i32.
struct Params {
    weights: Vec<i16>,
    biases: Vec<i16>,
    out: Vec<i16>,
    out_bias: i16,
}

fn params() -> Params {
    let mut rng = Rng(0x5C4E_1D38_4000);
    let saturated = |lane: usize| lane < L1 / 2;
    let weights =
        (0..768 * L1).map(|i| if saturated(i % L1) { rng.range(-9, 9) } else { rng.range(-40, 40) }).collect();
    let biases = (0..L1).map(|lane| if saturated(lane) { 700 } else { rng.range(0, 380) }).collect();
    let out = (0..2 * L1).map(|i| if saturated(i % L1) { rng.range(70, 85) } else { rng.range(-85, 85) }).collect();
    Params { weights, biases, out, out_bias: rng.range(-2000, 2000) }
}

/// The file: bullet's tensors back to back, padded to 64 bytes.
fn file(p: &Params) -> Vec<u8> {
    let mut bytes: Vec<u8> =
        p.weights.iter().chain(&p.biases).chain(&p.out).chain([&p.out_bias]).flat_map(|w| w.to_le_bytes()).collect();
    bytes.resize(bytes.len().next_multiple_of(64), 0);
    bytes
}

/// The engine's feature of a piece for one perspective: own pieces first,
/// pawn..king, the square rank-flipped for black and file-mirrored when
/// that perspective's king stands on files e-h.
fn feature(perspective: Color, king: Square, piece_color: Color, role: Role, square: Square) -> usize {
    let flip = if perspective == Color::Black { 56 } else { 0 };
    let mirror = if (u32::from(king) ^ flip) % 8 >= 4 { 7 } else { 0 };
    let side = usize::from(piece_color != perspective);
    let role = usize::from(role) - 1;
    384 * side + 64 * role + (u32::from(square) ^ flip ^ mirror) as usize
}

/// The model: the accumulators in i16, then Reckless's arithmetic with
/// wrapping i32 where the engine's is. Returns the output and the exact
/// (unwrapped) sum.
fn model(p: &Params, position: &Chess) -> (i32, i64) {
    let board = position.board();
    let stm = position.turn();
    let mut sum = 0i32;
    let mut exact = 0i64;
    for (half, perspective) in [stm, !stm].into_iter().enumerate() {
        let king = board.king_of(perspective).expect("a king");
        let mut lanes = p.biases.clone();
        for (square, piece) in board.iter() {
            let f = feature(perspective, king, piece.color, piece.role, square);
            for (lane, w) in lanes.iter_mut().zip(&p.weights[f * L1..][..L1]) {
                *lane = lane.wrapping_add(*w);
            }
        }
        let weights = &p.out[half * L1..][..L1];
        let clamped: Vec<i16> = lanes.iter().map(|&x| x.clamp(0, QA as i16)).collect();
        for pair in 0..L1 / 2 {
            let (i, j) = (2 * pair, 2 * pair + 1);
            // `c * w` in 16 bits, then `madd` of the products and the
            // clamped values: two exact i32 products, summed.
            let (vi, vj) = (clamped[i].wrapping_mul(weights[i]), clamped[j].wrapping_mul(weights[j]));
            let madd = i32::from(vi) * i32::from(clamped[i]) + i32::from(vj) * i32::from(clamped[j]);
            sum = sum.wrapping_add(madd);
            exact += i64::from(madd);
        }
    }
    let output = (sum / QA + i32::from(p.out_bias)).wrapping_mul(400) / (QA * 64);
    (output, exact)
}

#[test]
fn wrapping_sums_load_and_equal_the_engines_arithmetic_on_every_backend() {
    let p = params();
    let bytes = file(&p);
    let fens = std::fs::read_to_string(support::reference_dir().join("fens.txt")).unwrap();
    let positions: Vec<(&str, Chess)> = fens
        .lines()
        .filter(|l| !l.is_empty())
        .map(|fen| (fen, nnue::runtime::shakmaty::chess_from_fen(fen).unwrap()))
        .collect();
    assert_eq!(positions.len(), 1237);
    let expected: Vec<i32> = positions
        .iter()
        .map(|(_, position)| {
            let (output, exact) = model(&p, position);
            assert!(exact > i64::from(i32::MAX), "the sum wraps in every position: {exact}");
            output
        })
        .collect();
    let isas = support::isas();
    for &isa in &isas {
        // Loaded by default: no `allow_overflow`.
        let network = Network::from_bytes_with_isa(&bytes, isa).unwrap_or_else(|e| panic!("{isa}: {e}"));
        let proof = network.overflow_proof();
        assert!(proof.holds(), "{proof}");
        let wrapping: Vec<&str> = proof.wrapping().map(|b| b.value.as_str()).collect();
        // The sums, and the product by 400 of an output that may reach past 2^31 / 400.
        assert_eq!(wrapping, ["out sums", "rescale product"], "{proof}");
        assert!(proof.to_string().contains("WRAPS"), "{proof}");
        for ((fen, position), &want) in positions.iter().zip(&expected) {
            assert_eq!(network.evaluate(position).value, want, "{isa}: {fen}");
        }
    }
    assert!(isas.contains(&Isa::Scalar));
}
