//! `king_buckets: None`, the shorthand for a `PieceSquare` set without king
//! buckets, is the same architecture as its bucket table of zeros.

fn arch(features: &str) -> Result<nnue_spec::Arch, Vec<nnue_spec::Diagnostic>> {
    let text = format!(
        r#"Network(
    name: "a",
    file: (version: 0x7AF32F20),
    features: [{features}],
    transformer: (dimensions: 128, psqt_buckets: 8, output: Pairwise(max: 127, divisor: 128)),
    layer_stacks: (count: 8, select: PieceCount(divisor: 4)),
    layers: [Affine(name: "fc_0", input: "transformer", outputs: 1)],
    output: (value: "fc_0", eval: DivideThenSum),
)"#
    );
    nnue_spec::parse(&text)
}

fn zeros(n: usize) -> String {
    vec!["0"; n].join(", ")
}

#[test]
fn none_is_one_bucket_of_every_square() {
    let none = arch("(set: PieceSquare, hash: 0x6F234CB8, layout: (king_buckets: None))").unwrap();
    let zeros =
        arch(&format!("(set: PieceSquare, hash: 0x6F234CB8, layout: (king_buckets: [{}]))", zeros(64))).unwrap();
    assert_eq!(none, zeros);
    assert_eq!(none.features[0].dimensions, 768);
    assert_eq!(none.features[0].layout.as_ref().unwrap().buckets, 1);
}

#[test]
fn none_with_mirroring_is_32_zeros() {
    for mirror in ["KingOnAToD", "KingOnEToH"] {
        let none =
            arch(&format!("(set: PieceSquare, layout: (king_buckets: None, mirror: {mirror}, merged_kings: true))"))
                .unwrap();
        let zeros = arch(&format!(
            "(set: PieceSquare, layout: (king_buckets: [{}], mirror: {mirror}, merged_kings: true))",
            zeros(32)
        ))
        .unwrap();
        assert_eq!(none, zeros, "{mirror}");
        assert_eq!(none.features[0].dimensions, 704);
    }
}

#[test]
fn anything_else_is_an_error_at_the_value() {
    for (value, message) in [
        ("Nnoe", "Expected a list of king buckets, or `None` for one bucket but found a unit value instead"),
        ("Some([0])", "Expected a list of king buckets, or `None` for one bucket but found an optional value instead"),
        ("[0, 300]", "Integer is out of bounds"),
    ] {
        let errors = arch(&format!("(set: PieceSquare, layout: (king_buckets: {value}))")).unwrap_err();
        assert_eq!(errors.len(), 1, "{value}: {errors:?}");
        assert_eq!((errors[0].at.line, errors[0].message.as_str()), (4, message), "{value}");
    }
}

/// akimbo's file writes `None`; its IR is the one of 64 zeros.
#[test]
fn akimbo_is_unchanged() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../archs/bullet/akimbo.ron");
    let text = std::fs::read_to_string(path).unwrap();
    assert!(text.contains("king_buckets: None"));
    let explicit = text.replace("king_buckets: None", &format!("king_buckets: [{}]", zeros(64)));
    assert_eq!(nnue_spec::parse(&text).unwrap(), nnue_spec::parse(&explicit).unwrap());
}
