//! `nnue eval` and `nnue info` end to end: output format, architecture lookup
//! by header hash, and one clear error line for bad input.

#[path = "../../tests/support/mod.rs"]
mod support;

use std::process::{Command, Output};
use support::{Reference, net};

fn nnue(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nnue")).args(args).output().expect("nnue runs")
}

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "nnue failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout.clone()).unwrap()
}

/// The one line a failing command prints.
fn error_line(out: &Output) -> String {
    assert!(!out.status.success(), "expected a failure, got: {}", String::from_utf8_lossy(&out.stdout));
    let err = String::from_utf8(out.stderr.clone()).unwrap();
    assert_eq!(err.lines().count(), 1, "one line on stderr, got: {err}");
    assert!(out.stdout.is_empty() || String::from_utf8_lossy(&out.stdout).lines().count() <= 1);
    err
}

fn temp(name: &str, bytes: &[u8]) -> std::path::PathBuf {
    let path = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Every row of a reference file, through the command line: the TSV header,
/// and every column of every row.
#[test]
fn eval_fens_matches_stockfish_17_1_small_net() {
    let reference = Reference::read("sf_17.1/nn-37f18f62d772.tsv");
    let fens = support::reference_dir().join("fens.txt");
    let net = net("nn-37f18f62d772.nnue");
    for isa in support::isas() {
        check_eval_output(
            &reference,
            &stdout(&nnue(&[
                "eval",
                "--isa",
                isa.name(),
                "--net",
                net.to_str().unwrap(),
                "--fens",
                fens.to_str().unwrap(),
            ])),
        );
    }
}

fn check_eval_output(reference: &Reference, out: &str) {
    let mut lines = out.lines();
    let header: Vec<&str> = lines.next().unwrap().split('\t').collect();
    let mut expected_header = vec!["fen".to_owned(), "stm".into(), "bucket".into()];
    expected_header.extend((0..8).map(|b| format!("psqt_{b}")));
    expected_header.extend((0..8).map(|b| format!("positional_{b}")));
    expected_header.push("eval".into());
    assert_eq!(header, expected_header);
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows.len(), reference.rows.len());
    for (row, want) in rows.iter().zip(&reference.rows) {
        for (column, value) in header.iter().zip(row) {
            let expected = match *column {
                "eval" => {
                    let p: i32 = want["nnue_psqt_div16"].parse().unwrap();
                    let q: i32 = want["nnue_positional_div16"].parse().unwrap();
                    (p + q).to_string()
                }
                c => want[c].clone(),
            };
            assert_eq!(*value, expected, "{column} of {}", want["fen"]);
        }
    }
}

/// Stockfish 12's single stack: psqt_0 = 0 and positional_0 = the raw output.
#[test]
fn eval_fen_halfkp() {
    let net = net("nn-82215d0fd0df.nnue");
    let out = stdout(&nnue(&[
        "eval",
        "--net",
        net.to_str().unwrap(),
        "--fen",
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ]));
    assert_eq!(
        out,
        "fen\tstm\tbucket\tpsqt_0\tpositional_0\teval\n\
         rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\tw\t0\t0\t-123\t-7\n"
    );
}

#[test]
fn info_names_the_architecture() {
    let net = net("nn-37f18f62d772.nnue");
    let out = stdout(&nnue(&["info", "--net", net.to_str().unwrap()]));
    assert!(out.contains("architecture       sfnnv9-small"), "{out}");
    assert!(out.contains("header hash        0x1C103C92"), "{out}");
    assert!(out.contains("overflow proof     no integer can overflow in any legal position"), "{out}");
    assert!(out.contains("transformer accumulator  i16  "), "{out}");
}

/// A net whose last layer can overflow is refused with one line naming
/// where; `--allow-overflow` loads it and `info` marks the value.
#[test]
fn an_overflowing_net_needs_allow_overflow() {
    let mut b = support::bytes(&net("nn-37f18f62d772.nnue"));
    // The last layer stack ends with fc_2's i32 bias and 32 i8 weights.
    let at = b.len() - 32 - 4;
    b[at..at + 4].copy_from_slice(&(i32::MAX - 100).to_le_bytes());
    let path = temp("overflowing.nnue", &b);
    let path = path.to_str().unwrap();
    let fen = "8/8/8/8/8/8/8/K6k w - - 0 1";
    let err = error_line(&nnue(&["eval", "--net", path, "--fen", fen]));
    assert!(
        err.contains("overflow proof: fc_2 sums (i32) can reach") && err.contains("at layer stack 7, output 0"),
        "{err}"
    );
    stdout(&nnue(&["eval", "--net", path, "--fen", fen, "--allow-overflow"]));
    let out = stdout(&nnue(&["info", "--net", path, "--allow-overflow"]));
    assert!(out.contains("SOME VALUES CAN OVERFLOW") && out.contains("CAN OVERFLOW"), "{out}");
}

#[test]
fn bad_fen_is_one_error_line() {
    let net = net("nn-37f18f62d772.nnue");
    let err = error_line(&nnue(&["eval", "--net", net.to_str().unwrap(), "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"]));
    assert!(err.starts_with("nnue: --fen: bad FEN"), "{err}");
    let err = error_line(&nnue(&["eval", "--net", net.to_str().unwrap(), "--fen", "not a fen"]));
    assert!(err.contains("bad FEN `not a fen`"), "{err}");
}

#[test]
fn bad_nets_are_one_error_line() {
    let small = support::bytes(&net("nn-37f18f62d772.nnue"));
    let truncated = temp("truncated.nnue", &small[..small.len() - 100]);
    let err =
        error_line(&nnue(&["eval", "--net", truncated.to_str().unwrap(), "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1"]));
    assert!(err.contains("file ends at offset"), "{err}");

    let mut other = small.clone();
    other[4] ^= 1;
    let other = temp("other-arch.nnue", &other);
    let err = error_line(&nnue(&["info", "--net", other.to_str().unwrap()]));
    assert!(err.contains("no compiled architecture has header hash 0x1C103C93"), "{err}");

    let err = error_line(&nnue(&["info", "--net", "/nonexistent.nnue"]));
    assert!(err.contains("cannot read /nonexistent.nnue"), "{err}");
}

#[test]
fn unavailable_isa_is_an_error() {
    let net = net("nn-37f18f62d772.nnue");
    let err = error_line(&nnue(&[
        "eval",
        "--net",
        net.to_str().unwrap(),
        "--fen",
        "8/8/8/8/8/8/8/K6k w - - 0 1",
        "--isa",
        "avx9",
    ]));
    assert!(err.contains("--isa: unknown instruction set `avx9`"), "{err}");

    // Every backend this CPU lacks (on x86-64 at least the two NEON ones;
    // on a CPU without AVX-512 also those) is a one-line error, through
    // `--isa` and through `NNUE_ISA`, never an illegal instruction.
    let available = nnue::runtime::Isa::available();
    let lacking: Vec<_> = nnue::runtime::Isa::ALL.into_iter().filter(|i| !available.contains(i)).collect();
    assert!(!lacking.is_empty());
    for isa in lacking {
        let args = ["eval", "--net", net.to_str().unwrap(), "--fen", "8/8/8/8/8/8/8/K6k w - - 0 1"];
        let err = error_line(&nnue(&[&args[..], &["--isa", isa.name()]].concat()));
        assert!(err.contains(&format!("--isa: this CPU lacks {isa}")), "{err}");
        let out = Command::new(env!("CARGO_BIN_EXE_nnue")).args(args).env("NNUE_ISA", isa.name()).output().unwrap();
        let err = error_line(&out);
        assert!(err.contains(&format!("this CPU lacks {isa}")), "{err}");
    }
}

/// `nnue walk`: perft node counts (known values), no mismatches under
/// `--verify` on every backend, the same checksums everywhere, and the
/// summary as the last line.
#[test]
fn walk_counts_perft_nodes_and_verifies_every_node() {
    let fens = temp(
        "walk.fens",
        b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\n# a comment\n\nr3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\tignored\n",
    );
    let net = net("nn-37f18f62d772.nnue");
    let mut checksums = None;
    for isa in support::isas() {
        let out = stdout(&nnue(&[
            "walk",
            "--isa",
            isa.name(),
            "--net",
            net.to_str().unwrap(),
            "--fens",
            fens.to_str().unwrap(),
            "--depth",
            "2",
            "--verify",
        ]));
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "fen\tnodes\tmismatches\tchecksum");
        // Nodes of depth 0..=2: 1 + 20 + 400 and 1 + 48 + 2039 (Kiwipete).
        let rows: Vec<Vec<&str>> = lines[1..3].iter().map(|l| l.split('\t').collect()).collect();
        assert_eq!((rows[0][1], rows[0][2]), ("421", "0"));
        assert_eq!((rows[1][1], rows[1][2]), ("2088", "0"));
        let sums: Vec<String> = rows.iter().map(|r| r[3].to_owned()).collect();
        assert_eq!(checksums.get_or_insert_with(|| sums.clone()), &sums, "{isa}");
        let last = lines.last().unwrap();
        assert_eq!(lines.len(), 4);
        assert!(last.starts_with("nodes=2509 mismatches=0 nodes_per_sec="), "{last}");
        assert!(last.rsplit('=').next().unwrap().parse::<f64>().unwrap() > 0.0);
    }
}

/// `nnue bench --positions`: after the ns columns, how many positions each
/// operation timed (positions without a non-king move skipped by `move`
/// and `update`, without a king move by `kingmove`; `walk` starts from
/// every 100th).
#[test]
fn bench_prints_the_positions_each_operation_timed() {
    let moves = temp(
        "bench-positions.tsv",
        concat!(
            // No king move (castling is not one), a non-king move.
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\te2e4\tg1f3\n",
            // A king move (a1a2), no non-king move.
            "8/8/8/8/8/8/8/K1k5 w - - 0 1\ta1a2\t-\n",
            // Both (the king move e1d1; castling e1c1 is not one).
            "4k3/8/8/8/8/8/8/R3K3 w Q - 0 1\te1c1\ta1a2\n",
        )
        .as_bytes(),
    );
    let net = net("nn-37f18f62d772.nnue");
    let out = stdout(&nnue(&[
        "bench",
        "--net",
        net.to_str().unwrap(),
        "--moves",
        moves.to_str().unwrap(),
        "--runs",
        "1",
        "--ops",
        "refresh,move,kingmove,update,walk",
        // `move` made twice per timing: the same positions are timed.
        "--repeat",
        "2",
        "--positions",
    ]));
    let rows: Vec<Vec<&str>> = out.lines().map(|l| l.split('\t').collect()).collect();
    let names = ["refresh", "move + eval", "king move + eval", "update + eval", "walk depth 3, per node"];
    let mut header = vec!["net".to_owned(), "arch".into(), "isa".into()];
    header.extend(names.iter().map(|n| format!("{n} (ns)")));
    header.extend(names.iter().map(|n| format!("{n} (positions)")));
    assert_eq!(rows[0], header, "{out}");
    assert_eq!(rows.len(), 2, "{out}");
    assert_eq!(rows[1][..2], ["nn-37f18f62d772.nnue", "sfnnv9-small"], "{out}");
    assert!(rows[1][3..8].iter().all(|ns| ns.parse::<f64>().is_ok()), "{out}");
    assert_eq!(rows[1][8..], ["3", "2", "2", "2", "1"], "{out}");
}

/// `nnue expand` prints exactly the reviewed snapshot of every shipped
/// architecture (which `tests/snapshots_compile.rs` compiles), and one
/// backend's module with `--isa`.
#[test]
fn expand_equals_the_snapshots() {
    let archs = support::repo().join("archs");
    let mut count = 0;
    let files = std::fs::read_dir(&archs).unwrap().map(|e| ("", e.unwrap().path()));
    let bullet = std::fs::read_dir(archs.join("bullet")).unwrap().map(|e| ("bullet-", e.unwrap().path()));
    for (prefix, path) in files.chain(bullet) {
        if path.extension().is_none_or(|e| e != "ron") {
            continue;
        }
        let name = format!("{prefix}{}", path.file_stem().unwrap().to_str().unwrap());
        let snapshot = std::fs::read_to_string(support::repo().join(format!("tests/snapshots/{name}.snap"))).unwrap();
        let body = snapshot.splitn(3, "---\n").nth(2).expect("an insta header");
        assert_eq!(stdout(&nnue(&["expand", path.to_str().unwrap()])), body, "{name}");
        let neon = stdout(&nnue(&["expand", path.to_str().unwrap(), "--isa", "neon-dotprod"]));
        assert!(
            neon.contains("mod neon_dotprod {")
                && body.contains(&neon[neon.find("mod neon_dotprod").unwrap()..neon.find('{').unwrap()])
        );
        count += 1;
    }
    assert_eq!(count, 19);
    let err = error_line(&nnue(&["expand", archs.join("sfnnv9.ron").to_str().unwrap(), "--isa", "sse9"]));
    assert!(err.contains("no backend `sse9`"), "{err}");
    let bad = temp("bad.ron", b"(\n  name: \"x\",\n  bogus: 1,\n)\n");
    let err = error_line(&nnue(&["expand", bad.to_str().unwrap()]));
    assert!(err.starts_with(&format!("nnue: {}:3:3: ", bad.display())), "{err}");
}

/// `nnue info --arch`: layers with shapes and sizes, every backend's plan,
/// a text diagram; `--dot` and `--svg` draw the same graph.
#[test]
fn info_describes_an_architecture() {
    let arch = support::repo().join("archs/sfnnv9.ron");
    let arch = arch.to_str().unwrap();
    let text = stdout(&nnue(&["info", "--arch", arch]));
    for needle in [
        "header 0x1C1020F2",
        "fc_0         3072 -> 16 i32           49216  <- transformer",
        "fc_1_in      30 -> 30 u8                  0  <- ac_sqr_0[0..15] ++ ac_0[0..15]",
        "parameters         139542304 bytes",
        "avx2          Accumulator tile: 16 registers of 16 lanes (256 lanes), 12 tiles per perspective.",
        "neon-dotprod  Accumulator tile: 16 registers of 8 lanes (128 lanes), 24 tiles per perspective.",
        "fc_0: sparse-input column kernel, 1 x 512-bit output registers",
        "[output] fc_2[0] + fc_0[15] * 9600 / 8128",
        "stack              26052 bytes (25.4 KiB) per evaluation; budget 64 KiB (65536 bytes)",
        "        12288  accumulator lanes, 2 x 3072 i16",
    ] {
        assert!(text.contains(needle), "missing `{needle}` in:\n{text}");
    }
    let dot = stdout(&nnue(&["info", "--arch", arch, "--dot"]));
    assert!(dot.starts_with("digraph \"sfnnv9\" {") && dot.ends_with("}\n"));
    assert_eq!(dot.matches(" -> n").count(), 8, "{dot}");
    let svg = stdout(&nnue(&["info", "--arch", arch, "--svg"]));
    assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>\n"));
    assert_eq!(svg.matches("<rect").count(), 9, "transformer, 7 layers and the output");
    let err = error_line(&nnue(&["info", "--arch", "/nonexistent.ron"]));
    assert!(err.contains("cannot read /nonexistent.ron"), "{err}");
    // Over the stack budget: the error at the field, naming both.
    let small = std::fs::read_to_string(support::repo().join("archs/sfnnv9-small.ron")).unwrap();
    // Where the error must point: fc_1's `outputs` field.
    let (line, text) = small.lines().enumerate().find(|(_, l)| l.contains("outputs: 32")).unwrap();
    let column = text.find("outputs: 32").unwrap() + 1;
    let wide = temp("wide.ron", small.replace("outputs: 32", "outputs: 1000000").as_bytes());
    let err = error_line(&nnue(&["info", "--arch", wide.to_str().unwrap()]));
    let at = format!("nnue: {}:{}:{column}: fc_1 outputs 1000000: an evaluation would keep ", wide.display(), line + 1);
    assert!(err.starts_with(&at), "expected `{at}...`, got: {err}");
    assert!(err.contains("over the 65536-byte (64 KiB) budget"), "{err}");
}

/// Stockfish 18's big net through the command line: found by its header
/// hash, every column of every sf_18 reference row; `nnue walk --verify`
/// (threat features updated incrementally through the accumulator stack)
/// finds no node whose evaluation differs from a fresh one, on every backend.
#[test]
fn eval_fens_matches_stockfish_18_big_net_and_walk_verifies_it() {
    let reference = Reference::read("sf_18/nn-c288c895ea92.tsv");
    let fens = support::reference_dir().join("fens.txt");
    let net = net("nn-c288c895ea92.nnue");
    let net = net.to_str().unwrap();
    check_eval_output(&reference, &stdout(&nnue(&["eval", "--net", net, "--fens", fens.to_str().unwrap()])));
    let kiwipete = temp("kiwipete.fens", b"r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1\n");
    for isa in support::isas() {
        let out = stdout(&nnue(&[
            "walk",
            "--isa",
            isa.name(),
            "--net",
            net,
            "--fens",
            kiwipete.to_str().unwrap(),
            "--depth",
            "2",
            "--verify",
        ]));
        let last = out.lines().last().unwrap();
        assert!(last.starts_with("nodes=2088 mismatches=0 "), "{isa}: {last}");
    }
}

/// A bullet net through the command line: without `--arch` an error that
/// says to name it; with the shipped file, every reference row as `fen stm
/// bucket eval` equal to the engine's output; `info` and `walk --verify`.
#[test]
fn bullet_net_with_its_architecture_named() {
    let net = support::repo().join("tests/nets/bullet/obsidian-net512_buckets.bin");
    let arch = support::repo().join("archs/bullet/obsidian.ron");
    let (net, arch) = (net.to_str().unwrap(), arch.to_str().unwrap());
    let err = error_line(&nnue(&["eval", "--net", net, "--fen", "8/8/8/8/8/8/8/K1k5 w - - 0 1"]));
    assert!(err.contains("name its architecture with --arch"), "{err}");
    let reference = support::reference_dir().join("bullet/obsidian-net512_buckets.tsv");
    let text = std::fs::read_to_string(&reference).unwrap();
    let fens: String = text.lines().map(|l| format!("{}\n", l.split('\t').next().unwrap())).collect();
    let fens = temp("obsidian-fens.txt", fens.as_bytes());
    let out = stdout(&nnue(&["eval", "--net", net, "--arch", arch, "--fens", fens.to_str().unwrap()]));
    let mut lines = out.lines();
    assert_eq!(lines.next(), Some("fen\tstm\tbucket\teval"));
    let mut rows = 0;
    for (ours, theirs) in lines.zip(text.lines()) {
        let fields: Vec<&str> = ours.split('\t').collect();
        let (fen, output) = theirs.split_once('\t').unwrap();
        assert_eq!((fields[0], fields[3]), (fen, output), "{ours}");
        assert_eq!(fields[1], fen.split(' ').nth(1).unwrap());
        rows += 1;
    }
    assert_eq!(rows, 1237);
    let info = stdout(&nnue(&["info", "--net", net, "--arch", arch]));
    assert!(info.contains("format             bullet") && info.contains("no integer can overflow"), "{info}");
    let described = stdout(&nnue(&["info", "--arch", arch]));
    assert!(
        described
            .contains("format             bullet: 4 tensors, 3163152 bytes, padded to a multiple of 64: 3163200 bytes"),
        "{described}"
    );
    let positions = support::repo().join("tests/reference/fens.txt");
    let walk = stdout(&nnue(&[
        "walk",
        "--net",
        net,
        "--arch",
        arch,
        "--fens",
        positions.to_str().unwrap(),
        "--depth",
        "1",
        "--verify",
    ]));
    assert!(walk.lines().last().unwrap().contains("mismatches=0"), "{walk}");
    // akimbo's float tail through the command line.
    let net = support::repo().join("tests/nets/bullet/akimbo-morelayers-8-crelu-16-crelu-epoch17.bin");
    let arch = support::repo().join("archs/bullet/akimbo.ron");
    let (net, arch) = (net.to_str().unwrap(), arch.to_str().unwrap());
    let reference =
        std::fs::read_to_string(support::reference_dir().join("bullet/akimbo-morelayers-8-crelu-16-crelu-epoch17.tsv"))
            .unwrap();
    let (fen, output) = reference.lines().nth(1).unwrap().split_once('\t').unwrap();
    let out = stdout(&nnue(&["eval", "--net", net, "--arch", arch, "--fen", fen]));
    assert_eq!(out.lines().nth(1).unwrap().split('\t').nth(3), Some(output), "{out}");
}

/// A bullet net behind a CBNF header (Stormphrax's) names its architecture
/// itself: `eval` without `--arch` gives the engine's output, `info` says
/// how it was recognised, and a header that matches no architecture is one
/// error line naming the field.
#[test]
fn a_cbnf_header_names_its_architecture() {
    let path = net("stormphrax-generated.nnue");
    let net = path.to_str().unwrap();
    let reference = std::fs::read_to_string(support::reference_dir().join("bullet/stormphrax-generated.tsv")).unwrap();
    for row in reference.lines().take(3) {
        let (fen, output) = row.split_once('\t').unwrap();
        let out = stdout(&nnue(&["eval", "--net", net, "--fen", fen]));
        assert_eq!(out.lines().nth(1).unwrap().split('\t').nth(3), Some(output), "{out}");
    }
    let info = stdout(&nnue(&["info", "--net", net]));
    assert!(info.contains("after a CBNF header"), "{info}");
    let mut head = std::fs::read(&path).unwrap()[..64].to_vec();
    head[14] = 16;
    let bad = temp("cbnf-16-buckets.nnue", &head);
    let err = error_line(&nnue(&["eval", "--net", bad.to_str().unwrap(), "--fen", "8/8/8/8/8/8/8/K1k5 w - - 0 1"]));
    assert!(err.contains("output buckets at offset 14 is 0x10"), "{err}");
}

/// An architecture file the binary was not built with, written in a
/// temporary folder (Obsidian's, renamed): every command that loads a net
/// with it runs in the binary built once for it, with the shipped file's
/// outputs bit for bit, on every backend; a mistake in such a file is an
/// error at its line and column, before anything is built.
#[test]
fn any_architecture_file_on_the_command_line() {
    let tmp = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"));
    // The cache stays in the target directory: later runs reuse the build.
    let cache = tmp.join("nnue-cache");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_nnue")).args(args).env("NNUE_CACHE_DIR", &cache).output().expect("nnue runs")
    };
    let shipped = support::repo().join("archs/bullet/obsidian.ron");
    let text = std::fs::read_to_string(&shipped).unwrap();
    let dir = tmp.join("own-arch");
    std::fs::create_dir_all(&dir).unwrap();
    let mine = dir.join("my-net.ron");
    std::fs::write(&mine, text.replace("name: \"obsidian\"", "name: \"my_net\"")).unwrap();
    let net = support::repo().join("tests/nets/bullet/obsidian-net512_buckets.bin");
    let (net, mine, shipped) = (net.to_str().unwrap(), mine.to_str().unwrap(), shipped.to_str().unwrap());
    let fens = support::reference_dir().join("fens.txt");
    let fens = fens.to_str().unwrap();
    for isa in support::isas() {
        let eval =
            |arch: &str| stdout(&run(&["eval", "--isa", isa.name(), "--net", net, "--arch", arch, "--fens", fens]));
        let ours = eval(mine);
        assert_eq!(ours.lines().count(), 1238);
        assert_eq!(ours, eval(shipped), "{isa}");
    }
    let info = |arch: &str| stdout(&run(&["info", "--net", net, "--arch", arch]));
    assert_eq!(info(mine).replace("my_net", "obsidian"), info(shipped));
    let walk = |arch: &str| {
        let out = stdout(&run(&["walk", "--net", net, "--arch", arch, "--fens", fens, "--depth", "1", "--verify"]));
        // The rows, without the rate of the last line.
        out.lines().map(|l| l.split(" nodes_per_sec=").next().unwrap().to_owned()).collect::<Vec<_>>()
    };
    let ours = walk(mine);
    assert!(ours.last().unwrap().ends_with("mismatches=0"), "{ours:?}");
    assert_eq!(ours, walk(shipped));
    let moves = temp(
        "own-arch-moves.tsv",
        std::fs::read_to_string(support::reference_dir().join("timing_moves.tsv"))
            .unwrap()
            .lines()
            .take(20)
            .collect::<Vec<_>>()
            .join("\n")
            .as_bytes(),
    );
    let bench = stdout(&run(&[
        "bench",
        "--net",
        net,
        "--arch",
        mine,
        "--moves",
        moves.to_str().unwrap(),
        "--runs",
        "1",
        "--ops",
        "eval,move",
    ]));
    let rows: Vec<Vec<&str>> = bench.lines().map(|l| l.split('\t').collect()).collect();
    assert_eq!(rows[0], ["net", "arch", "isa", "eval, acc. ready (ns)", "move + eval (ns)"], "{bench}");
    assert_eq!(&rows[1][..2], ["obsidian-net512_buckets.bin", "my_net"], "{bench}");
    // A mistake: an error at the file's line and column, and nothing built.
    let broken = dir.join("broken.ron");
    std::fs::write(&broken, text.replace("outputs: 1,", "outputs: 1, colour: 3,")).unwrap();
    let err = String::from_utf8(
        run(&["eval", "--net", net, "--arch", broken.to_str().unwrap(), "--fen", "8/8/8/8/8/8/8/K1k5 w - - 0 1"])
            .stderr,
    )
    .unwrap();
    let line = text.lines().position(|l| l.contains("outputs: 1,")).unwrap() + 1;
    assert!(err.starts_with(&format!("nnue: {}:{line}:", broken.display())) && !err.contains("building"), "{err}");
}

/// `nnue --version` names the commit the binary was built from (what the
/// comparison tools put in their tables): this checkout's HEAD, and in a
/// clean checkout (CI's) without `-modified`. (A tracked file that no build
/// input depends on, such as the README, may be edited without a rebuild,
/// so a modified tree may still show the bare hash.)
#[test]
fn version_names_the_commit_built_from() {
    let version = stdout(&nnue(&["--version"]));
    let git = |args: &[&str]| {
        let out = Command::new("git").args(args).current_dir(env!("CARGO_MANIFEST_DIR")).output().ok()?;
        out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
    };
    let prefix = format!("nnue {} (commit ", env!("CARGO_PKG_VERSION"));
    let commit = version.trim().strip_prefix(&prefix).and_then(|rest| rest.strip_suffix(')'));
    let Some(commit) = commit else { panic!("unexpected --version output: {version}") };
    let Some(head) = git(&["rev-parse", "--short=7", "HEAD"]) else {
        assert_eq!(commit, "unknown", "outside a git checkout");
        return;
    };
    let modified = git(&["status", "--porcelain", "--untracked-files=no"]).is_none_or(|s| !s.is_empty());
    if modified {
        assert!(commit == head || commit == format!("{head}-modified"), "{commit} against HEAD {head}, modified");
    } else {
        assert_eq!(commit, head, "a clean checkout of {head}");
    }
}
