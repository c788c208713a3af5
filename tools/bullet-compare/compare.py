#!/usr/bin/env python3
"""Side-by-side speed comparison of `nnue bench` with the bullet engines' own NNUE code.

Two nets of tests/nets/bullet/, each with the engine it was trained for, and generated nets
in Reckless's, Stormphrax's and Viridithas's formats (tools/fetch-nets.py <name>):

  obsidian-net512_buckets                 Obsidian (gab8192/Obsidian, C++), commit 3d93509
  akimbo-morelayers-8-crelu-16-crelu-epoch17   akimbo (jw1912/akimbo, Rust), commit d516497
  reckless-v60-generated                  Reckless (codedeliveryservice/Reckless, Rust), commit 789de89
  stormphrax-generated                    Stormphrax (Ciekce/Stormphrax, C++), commit 2402cae
  viridithas-generated                    Viridithas (cosmobobak/viridithas, Rust), commit 8bc0706

For each net this script
  1. extracts the engine's commit with `git archive` from the given git
     directory (bare or not) into --build-dir/<engine>-<commit>/, replaces the
     net the engine embeds by the repository's copy (they are the same file:
     the sha256 is checked and printed), adds the harness of harness/ and
     builds it with the engine's own optimisation flags (cached, keyed by the
     commit, the flags, the harness and the net);
  2. checks the harness: the engine's output for every FEN of
     tests/reference/bullet/<net>.tsv must equal the file's second column
     (any difference: exit status 1, nothing is timed);
  3. runs --rounds interleaved rounds, each program pinned to --core with
     `taskset -c`: the engine's harness and `nnue bench --ops refresh,eval`
     (Reckless, Stormphrax, Viridithas: `--ops eval,move`) on the same positions
     (by default the reference file's 1237 FENs, given to `nnue bench` as a
     --moves file with no moves; for Reckless, Stormphrax and Viridithas
     tests/reference/timing_moves.tsv, positions and moves; --positions to
     change); odd rounds run the engine first, even rounds ours first; both
     must time as many positions per operation;
  4. prints a markdown table per net: per operation and round, ours (ns per
     position), the engine's, ours / engine, then the medians of the rounds;
  5. writes the same report, with both programs' versions and builds, as a
     record file benchmarks/record/<cpu>/<UTC date>-<nnue commit>[-<n>].md
     (one per run, never edited by hand; --record-dir, --no-record; none for
     --check-only). See benchmarks/record/README.md.

For Obsidian, each round also times `eval` in one harness: Obsidian's
timing code built again with -DNNUE_FFI and linked with ffi/ (a static
library of C entry points into our Obsidian network), which times both
evaluations by the same code, one pass of each in turn, after checking that
they agree on every position. Rows "eval, acc. ready, one harness".

Reckless is built as tools/bullet-compare/reckless-v60-reference.sh builds it (the same tree,
in the same directory: the net embedded with EVALFILE, harness/reckless_v60_reference.rs as
src/nnue_reference.rs); its harness checks every timed move + eval against a full refresh
before timing.

Stormphrax (Ciekce/Stormphrax 2402cae, C++) and Viridithas (cosmobobak/viridithas 8bc0706,
Rust) are timed as Reckless is, on generated nets in their formats (tools/fetch-nets.py
stormphrax-generated / viridithas-generated) and on tests/reference/timing_moves.tsv: `nnue bench
--ops eval,move` against harness/stormphrax_compare.cpp (copied in as src/nnue_compare.cpp and
built by the engine's Makefile, `make <type>`, with SOURCES and EXE overridden on make's command
line so that it replaces src/main.cpp: no engine file is edited) and harness/viridithas_compare.rs
(copied in as src/nnue_compare.rs; src/main.rs gets `mod nnue_compare;` and a branch calling it
for the argument `nnuecompare`; built with `RUSTFLAGS="-C target-cpu=<cpu>" cargo build
--release`). Each harness checks every timed move + eval against a full refresh before timing;
besides the reference file's check, the harness's output on every position of the timing file
must equal `nnue eval`'s (ours, the --isa given).

Example:
  python3 tools/bullet-compare/compare.py --obsidian /path/to/Obsidian.git \\
      --akimbo /path/to/akimbo.git --rounds 5
  python3 tools/bullet-compare/compare.py --reckless /path/to/Reckless.git --isa avx512-vnni --rounds 7
  python3 tools/bullet-compare/compare.py --stormphrax /path/to/Stormphrax.git --isa avx512-vnni --rounds 7
  python3 tools/bullet-compare/compare.py --viridithas /path/to/viridithas.git --isa avx512-vnni --rounds 7
"""

import argparse
import datetime
import hashlib
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "tools"))
from records import cpu_info, cpu_lines, cpu_slug, write_record  # noqa: E402
HARNESS = HERE / "harness"
FFI = HERE / "ffi"
NETS_DIR = REPO / "tests" / "nets" / "bullet"
REFERENCE = REPO / "tests" / "reference" / "bullet"

# Bump when the patching or the build commands below change.
PATCH_VERSION = "bullet-compare-2"

ENGINES = {
    "obsidian": dict(
        title="Obsidian",
        net="obsidian-net512_buckets",
        arch="archs/bullet/obsidian.ron",
        commit="3d93509",
        embedded="net512_buckets.bin",  # the engine's copy of the net (INCBIN)
        harness="obsidian_compare.cpp",
    ),
    "akimbo": dict(
        title="akimbo",
        net="akimbo-morelayers-8-crelu-16-crelu-epoch17",
        arch="archs/bullet/akimbo.ron",
        commit="d516497",
        embedded="resources/morelayers-8-crelu-16-crelu-epoch17.bin",  # include_bytes!
        harness="akimbo_compare.rs",
    ),
    "reckless": dict(
        title="Reckless",
        net="reckless-v60-generated",
        arch="archs/bullet/reckless-v60.ron",
        commit="789de89",
        harness="reckless_v60_reference.rs",
        ops=["eval", "move"],
        # Timed by the harness alone (not an operation of ours): make_move without the network.
        extra=["board"],
        moves=REPO / "tests" / "reference" / "timing_moves.tsv",
    ),
    "stormphrax": dict(
        title="Stormphrax",
        net="stormphrax-generated",
        arch="archs/bullet/stormphrax.ron",
        commit="2402cae",
        harness="stormphrax_compare.cpp",
        ops=["eval", "move"],
        # Timed by the harness alone: Position::applyMove with the engine's NullObserver.
        extra=["board"],
        extra_text={"board": "applyMove alone (NullObserver), no network"},
        moves=REPO / "tests" / "reference" / "timing_moves.tsv",
        generated=True,
        cross=True,
        notes=[
            "eval, acc. ready: equal work. Stormphrax: `NnueState::evaluate(pos, stm)` after `reset` and two "
            "untimed evaluations (its `ensureUpToDate` finds nothing dirty, then the network); ours "
            "`stack.evaluate` on computed accumulators",
            "move + eval: both copy-make. Stormphrax: `pos.applyMove(mv, state.push())`, `evaluate(moved, "
            "moved.stm())`, `pop()`, as its search (ThreadData::applyMove, minus that function's search-stack and "
            "key-history bookkeeping); ours: the move's piece changes, a shakmaty copy with the move played, push, "
            "evaluate, pop. NOT quite equal: Stormphrax's applyMove is its whole move (keys, checkers, pins, "
            "threat bitboards, check zones: `applyMove alone` below) and its observer finds the threat feature "
            "changes during the move, where ours finds them inside evaluate; all of it is timed on both sides",
        ],
    ),
    "viridithas": dict(
        title="Viridithas",
        net="viridithas-generated",
        arch="archs/bullet/viridithas.ron",
        commit="8bc0706",
        harness="viridithas_compare.rs",
        ops=["eval", "move"],
        # Timed by the harness alone: make_move + unmake_move, without force or evaluate; and
        # unmake_move alone (the undo inside its move + eval).
        extra=["board", "undo"],
        extra_text={"board": "make_move + unmake_move alone (board and feature deltas; no accumulator "
                             "or layer work)",
                    "undo": "unmake_move alone (the undo its move + eval times; ours has none)"},
        moves=REPO / "tests" / "reference" / "timing_moves.tsv",
        generated=True,
        cross=True,
        zstd=True,  # the engine and our --arch read the net zstd-compressed
        notes=[
            "eval, acc. ready: equal work. Viridithas: `force` (finds both perspectives computed) + `evaluate`, "
            "as its evaluation calls them, after `reïnit_from` and two untimed evaluations; ours `stack.evaluate` "
            "on computed accumulators",
            "move + eval: NOT quite equal. Viridithas is make/unmake: `board.make_move(mv, &mut nnue)` (a copy of "
            "its state pushed on the board's history, keys, threats, pins, and the piece and threat feature "
            "deltas recorded for the network), `force` (both perspectives updated from the root), `evaluate`, "
            "`board.unmake_move(&mut nnue)` (the state popped back and the NNUE stack popped: one call, timed "
            "because our pop is); ours is copy-make: the move's piece changes, a shakmaty copy with the move "
            "played, push, evaluate (finding the threat changes there), pop, and no undo. `make_move + "
            "unmake_move alone` below is Viridithas's board part plus its recording of the deltas; `unmake_move "
            "alone` is what the undo adds to its cell",
        ],
    ),
}

# Obsidian's Makefile: `make nopgo build=avx2` is its AVX2 build without PGO
# (-march=haswell); FILES and EXE are overridden on the command line to
# compile the harness instead of Obsidian/main.cpp (no file is edited).
OBSIDIAN_BUILD = "avx2"
# akimbo's Makefile: its default rule is
# `cargo rustc --release -- -C target-cpu=native`; its `release` rule builds
# the AVX2 binary it ships with `-C target-cpu=x86-64-v2 -C target-feature=+avx2`
# (give that with --akimbo-rustflags; it is much slower on AMD Zen 3, see the
# README).
AKIMBO_RUSTFLAGS = "-C target-cpu=native"
# Reckless's Makefile: its default rule builds with RUSTFLAGS=-Ctarget-cpu=native, no PGO (its
# `pgo` rule, not used here, adds it); the target CPU selects its SIMD code at compile time
# (x86-64-v3: AVX2).
RECKLESS_TARGET_CPU = "native"
# Where tools/fetch-nets.py puts the generated Reckless net (not in this repository: 63 MB).
RECKLESS_NET = Path.home() / ".cache" / "nnue" / "nets" / "reckless-v60-generated.nnue"
# Stormphrax's Makefile: `make native` (its default goal: clang, -O3 -flto -march=native, plus
# -DSP_FAST_PEXT where BMI2 is fast); `avx2-bmi2` is its AVX2 release build (-march=haswell
# -mtune=znver3), `avx512` its AVX-512 one (-march=icelake-client). No PGO in its Makefile.
STORMPHRAX_TYPE = "native"
# Viridithas's README and Makefile: RUSTFLAGS="-C target-cpu=native" cargo build --release (its
# release profile: fat LTO, one codegen unit, panic = abort); x86-64-v3 for its AVX2 code. On
# x86-64 the target CPU must enable AVX2 (docs/bullet-engines/viridithas.md section 7).
VIRIDITHAS_TARGET_CPU = "native"
# Where tools/fetch-nets.py puts the generated Stormphrax and Viridithas nets (89 MB each).
NETS_CACHE = Path.home() / ".cache" / "nnue" / "nets"

OPS = ["refresh", "eval"]
OUR_COLUMNS = {"refresh": "refresh", "eval": "eval, acc. ready", "move": "move + eval"}
OP_TEXT = {
    "refresh": "refresh (both accumulators from scratch + eval)",
    "eval": "eval, acc. ready",
    "move": "move + eval",
    "one": "eval, acc. ready, one harness",
    "board": "make_move alone, no network",
    "undo": "unmake alone",
}


def die(message):
    print(f"compare.py: {message}", file=sys.stderr)
    sys.exit(1)


def log(message):
    print(message, file=sys.stderr, flush=True)


def cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def cpu_flags():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def sha256(path):
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)


def tool_version(cmd, cwd=None):
    try:
        return run(cmd, cwd=cwd).stdout.splitlines()[0].strip()
    except (OSError, IndexError):
        return "unknown"


def resolve_commit(gitdir, commit):
    """The full hash of `commit` in `gitdir` (die if absent)."""
    out = subprocess.run(["git", "--git-dir", str(gitdir), "rev-parse", "--verify", "--quiet", commit + "^{commit}"],
                         stdout=subprocess.PIPE, text=True)
    if out.returncode != 0:
        die(f"commit {commit} is not in {gitdir} (give --obsidian-commit / --akimbo-commit)")
    return out.stdout.strip()


def git_dir(path):
    p = Path(path).resolve()
    if (p / ".git").exists():
        return p / ".git"
    if not (p / "HEAD").exists():
        die(f"{path}: not a git directory")
    return p


def extract(gitdir, commit, root):
    archive = subprocess.run(["git", "--git-dir", str(gitdir), "archive", "--format=tar", commit],
                             stdout=subprocess.PIPE)
    if archive.returncode != 0:
        die(f"git archive {commit} failed in {gitdir}")
    root.mkdir(parents=True)
    subprocess.run(["tar", "-x", "-C", str(root)], input=archive.stdout, check=True)


def build_key(engine, commit, flags, net):
    h = hashlib.sha256()
    h.update(PATCH_VERSION.encode())
    h.update(commit.encode())
    h.update(flags.encode())
    h.update((HARNESS / ENGINES[engine]["harness"]).read_bytes())
    h.update(sha256(net).encode())
    return h.hexdigest()[:16]


def prepare(engine, gitdir, commit, flags, net, build_dir):
    """Extracts the commit (unless cached); returns (root, cached, embedded net's original sha256)."""
    cfg = ENGINES[engine]
    full = resolve_commit(gitdir, commit)
    key = build_key(engine, full, flags, net)
    root = Path(build_dir) / f"{engine}-{full[:7]}"
    stamp = root / "nnue_compare.stamp"
    exe = root / ("nnue_compare.elf" if engine == "obsidian" else "akimbo_nnue_compare")
    if exe.is_file() and stamp.is_file() and stamp.read_text().split()[0] == key:
        return root, exe, full, stamp.read_text().split()[1], True
    if root.exists():
        shutil.rmtree(root)
    log(f"[build] {engine} {full[:7]}: extracting into {root}")
    extract(gitdir, full, root)
    embedded = root / cfg["embedded"]
    original = sha256(embedded) if embedded.is_file() else "absent"
    shutil.copy(net, embedded)
    return root, exe, full, original, False


def finish_build(engine, root, exe, out, full, flags, net, original):
    """Keeps the build's log; dies if it failed, else stamps the build as cached."""
    (root / "build.log").write_text(out.stdout)
    if out.returncode != 0 or not exe.is_file():
        sys.stderr.write(out.stdout[-6000:])
        die(f"build of {engine} failed (log: {root / 'build.log'})")
    (root / "nnue_compare.stamp").write_text(f"{build_key(engine, full, flags, net)} {original}\n")


def build_obsidian(gitdir, commit, net, build_dir, target):
    root, exe, full, original, cached = prepare("obsidian", gitdir, commit, target, net, build_dir)
    cmd = ["make", "nopgo", f"build={target}", "EXE=nnue_compare.elf"]
    if not cached:
        shutil.copy(HARNESS / "obsidian_compare.cpp", root / "Obsidian" / "nnue_compare.cpp")
        sources = sorted(p.relative_to(root).as_posix() for p in (root / "Obsidian").glob("*.cpp")
                         if p.name != "main.cpp")
        files = " ".join(sources + ["Obsidian/fathom/tbprobe.c"])
        cmd.append(f"FILES={files}")
        log(f"[build] obsidian: {' '.join(shlex.quote(c) for c in cmd)} (in {root})")
        finish_build("obsidian", root, exe, run(cmd, cwd=root), full, target, net, original)
    else:
        log(f"[build] obsidian {full[:7]}: cached ({exe})")
    log_text = (root / "build.log").read_text() if (root / "build.log").is_file() else ""
    command = next((l for l in log_text.splitlines() if l.startswith("g++ ")), "(see build.log)")
    return exe, full, original, f"`make nopgo build={target}` with FILES/EXE overridden, i.e. `{command}`"


def build_obsidian_one(exe, build_dir):
    """The Obsidian harness again, with -DNNUE_FFI and linked with our library
    (ffi/, built here with the default release profile, as our binary is):
    the one-harness timing. Rebuilt every run (cargo and the link are quick
    when nothing changed)."""
    root = exe.parent
    lib_dir = Path(build_dir) / "ffi-target"
    env = dict(os.environ, CARGO_TARGET_DIR=str(lib_dir))
    env.pop("RUSTFLAGS", None)
    out = run(["cargo", "build", "--release", "--locked", "--manifest-path", str(FFI / "Cargo.toml")], env=env)
    if out.returncode != 0:
        sys.stderr.write(out.stdout[-6000:])
        die("cargo build of tools/bullet-compare/ffi failed")
    lib = lib_dir / "release" / "libnnue_bullet_ffi.a"
    log_text = (root / "build.log").read_text()
    command = next((l for l in log_text.splitlines() if l.startswith("g++ ")), None)
    if command is None:
        die(f"no g++ command in {root / 'build.log'}")
    words = shlex.split(command)
    if "-o" not in words:
        die(f"no `-o` in the Obsidian build command: {command}")
    one = root / "nnue_compare_one.elf"
    words[words.index("-o") + 1] = one.name
    words = words[:1] + ["-DNNUE_FFI"] + words[1:] + [str(lib), "-ldl", "-lm"]
    log(f"[build] obsidian, one harness: g++ -DNNUE_FFI ... {lib.name} (in {root})")
    out = run(words, cwd=root)
    if out.returncode != 0 or not one.is_file():
        sys.stderr.write(out.stdout[-6000:])
        die("link of the one-harness Obsidian build failed")
    return one


def run_one(exe, core, positions, runs, net, isa):
    """Obsidian's and our evaluation timed by Obsidian's harness: (ours, theirs) in ns."""
    cmd = ["taskset", "-c", str(core), str(exe), "one", str(positions), str(runs), str(net), isa]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if out.returncode != 0:
        die(f"{' '.join(cmd)} failed: {out.stderr.strip()}")
    for l in out.stdout.splitlines():
        f = l.split("\t")
        if f[0] == "one" and len(f) >= 4:
            return float(f[2]), float(f[1])
    die(f"one-harness run printed {out.stdout!r}")


def build_akimbo(gitdir, commit, net, build_dir, rustflags):
    root, exe, full, original, cached = prepare("akimbo", gitdir, commit, rustflags, net, build_dir)
    if not cached:
        shutil.copy(HARNESS / "akimbo_compare.rs", root / "src" / "nnue_compare.rs")
        main = root / "src" / "main.rs"
        text = main.read_text()
        text, n1 = re.subn(r"^(mod util;)$", r"\1\nmod nnue_compare; // tools/bullet-compare (nnue)", text,
                           count=1, flags=re.M)
        text, n2 = re.subn(r"^fn main\(\) \{$",
                           "fn main() {\n    // tools/bullet-compare (nnue): the harness's entry point\n"
                           "    if std::env::args().nth(1).as_deref() == Some(\"nnuecompare\") {\n"
                           "        return nnue_compare::run();\n    }\n",
                           text, count=1, flags=re.M)
        if n1 != 1 or n2 != 1:
            die(f"{main}: no `mod util;` or `fn main() {{` line to patch")
        main.write_text(text)
        cmd = ["cargo", "rustc", "--release", "-j", "2", "--"] + shlex.split(rustflags) + \
              ["--emit", f"link={exe.name}"]
        log(f"[build] akimbo: {' '.join(shlex.quote(c) for c in cmd)} (in {root})")
        env = dict(os.environ, CARGO_TARGET_DIR=str(root / "target"))
        env.pop("RUSTFLAGS", None)
        finish_build("akimbo", root, exe, run(cmd, cwd=root, env=env), full, rustflags, net, original)
    else:
        log(f"[build] akimbo {full[:7]}: cached ({exe})")
    rustc = tool_version(["rustc", "--version"], cwd=root)
    if "native" in rustflags:
        host = re.search(r"currently (\S+?)\)", run(["rustc", "--print", "target-cpus"], cwd=root).stdout)
        rustc += f"; native = {host.group(1) if host else 'unknown'} here"
    return exe, full, original, (f"`cargo rustc --release -- {rustflags}` ({rustc}; akimbo's Cargo.toml "
                                 "release profile: opt-level 3, panic = abort, no LTO)")


def build_reckless(gitdir, commit, net, build_dir, target_cpu):
    """As reckless-v60-reference.sh does, in its directory (target/ kept, cargo rebuilds what
    changed), without its bench and walk: cached by a stamp."""
    full = resolve_commit(gitdir, commit)
    root = Path(build_dir) / f"reckless-{full[:7]}-{target_cpu}"
    exe = root / "target" / "release" / "reckless"
    # The default feature `syzygy` needs clang and libclang (Fathom, bindgen); no part of the network.
    libclang = os.environ.get("LIBCLANG_PATH") or re.search(r"libclang(-[0-9.]+)?\.so",
                                                            run(["ldconfig", "-p"]).stdout)
    features = [] if shutil.which("clang") and libclang else ["--no-default-features"]
    flags = f"-Ctarget-cpu={target_cpu} {' '.join(features)}"
    stamp = root / "nnue_compare.stamp"
    key = build_key("reckless", full, flags, net)
    command = " ".join([f"EVALFILE=<net> RUSTFLAGS=-Ctarget-cpu={target_cpu} cargo build --release --locked"]
                       + features)
    if exe.is_file() and stamp.is_file() and stamp.read_text().split()[0] == key:
        log(f"[build] reckless {full[:7]}: cached ({exe})")
    else:
        root.mkdir(parents=True, exist_ok=True)
        for child in root.iterdir():
            if child.name != "target":
                shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()
        log(f"[build] reckless {full[:7]}: extracting into {root}")
        archive = subprocess.run(["git", "--git-dir", str(gitdir), "archive", "--format=tar", full],
                                 stdout=subprocess.PIPE)
        if archive.returncode != 0:
            die(f"git archive {full} failed in {gitdir}")
        subprocess.run(["tar", "-x", "-C", str(root)], input=archive.stdout, check=True)
        shutil.copy(HARNESS / ENGINES["reckless"]["harness"], root / "src" / "nnue_reference.rs")
        lib, main = root / "src" / "lib.rs", root / "src" / "main.rs"
        lib_text, n1 = re.subn(r"^mod nnue;$", "mod nnue;\npub mod nnue_reference;", lib.read_text(), count=1,
                               flags=re.M)
        main_text, n2 = re.subn(r"^( *)let buffer = std::env::args\(\)\.skip\(1\)\.collect\(\);$",
                                r'\1if std::env::args().nth(1).as_deref() == Some("nnuereference") {\n'
                                r"\1    return reckless::nnue_reference::run();\n\1}\n\g<0>",
                                main.read_text(), count=1, flags=re.M)
        if n1 != 1 or n2 != 1:
            die(f"{lib} or {main}: no line to patch (the commit's files are not as expected)")
        lib.write_text(lib_text)
        main.write_text(main_text)
        log(f"[build] reckless: {command} (in {root})")
        env = dict(os.environ, EVALFILE=str(net), RUSTFLAGS=f"-Ctarget-cpu={target_cpu}")
        env.pop("CARGO_TARGET_DIR", None)
        out = run(["cargo", "build", "--release", "--locked"] + features, cwd=root, env=env)
        finish_build("reckless", root, exe, out, full, flags, net, "-")
    rustc = tool_version(["rustc", "--version"], cwd=root)
    if target_cpu == "native":
        host = re.search(r"currently (\S+?)\)", run(["rustc", "--print", "target-cpus"], cwd=root).stdout)
        rustc += f"; native = {host.group(1) if host else 'unknown'} here"
    return exe, full, (f"`{command}` ({rustc}; Reckless's release profile: fat LTO, one codegen unit, "
                       "panic = abort; no PGO), the tree `reckless-v60-reference.sh` builds")


def fresh_tree(gitdir, full, root, keep=()):
    """`git archive` of `full` into `root`, emptied first except for the names in `keep`."""
    root.mkdir(parents=True, exist_ok=True)
    for child in root.iterdir():
        if child.name not in keep:
            shutil.rmtree(child) if child.is_dir() and not child.is_symlink() else child.unlink()
    archive = subprocess.run(["git", "--git-dir", str(gitdir), "archive", "--format=tar", full],
                             stdout=subprocess.PIPE)
    if archive.returncode != 0:
        die(f"git archive {full} failed in {gitdir}")
    subprocess.run(["tar", "-x", "-C", str(root)], input=archive.stdout, check=True)


def build_stormphrax(gitdir, commit, net, build_dir, make_type):
    """The engine's Makefile target `make_type` (default native) in
    <build-dir>/stormphrax-<commit>-compare-<type>/ (a tree of its own: the reference script's
    stormphrax-<commit>-<type>/ is left alone), with the harness copied in as
    src/nnue_compare.cpp and SOURCES/EXE overridden on the command line so that it replaces
    src/main.cpp. Rebuilt from a fresh tree when the stamp's key differs."""
    full = resolve_commit(gitdir, commit)
    root = Path(build_dir) / f"stormphrax-{full[:7]}-compare-{make_type}"
    exe = root / "nnue_compare"
    flags = f"make {make_type}"
    stamp = root / "nnue_compare.stamp"
    key = build_key("stormphrax", full, flags, net)
    if exe.is_file() and stamp.is_file() and stamp.read_text().split()[0] == key:
        log(f"[build] stormphrax {full[:7]}: cached ({exe})")
    else:
        for tool in ["clang", "clang++", "ld.lld", "make"]:
            if not shutil.which(tool):
                die(f"{tool} not found: Stormphrax's Makefile needs clang, clang++ and lld "
                    "(Debian: apt-get install clang lld)")
        log(f"[build] stormphrax {full[:7]}: extracting into {root}")
        fresh_tree(gitdir, full, root)
        shutil.copy(HARNESS / ENGINES["stormphrax"]["harness"], root / "src" / "nnue_compare.cpp")
        sources = sorted(p.relative_to(root).as_posix() for p in (root / "src").rglob("*.cpp")
                         if p.relative_to(root).as_posix() != "src/main.cpp")
        if "src/nnue_compare.cpp" not in sources or not (root / "src" / "main.cpp").is_file():
            die(f"{root}/src: not the expected tree")
        cmd = ["make", "-j2", make_type, f"EVALFILE={net}", "EXE=nnue_compare", "SOURCES=" + " ".join(sources)]
        log(f"[build] stormphrax: make -j2 {make_type} EVALFILE={net} EXE=nnue_compare SOURCES=<{len(sources)} "
            f"files: src/**/*.cpp but src/main.cpp> (in {root})")
        finish_build("stormphrax", root, exe, run(cmd, cwd=root), full, flags, net, "-")
    log_text = (root / "build.log").read_text() if (root / "build.log").is_file() else ""
    link = next((l for l in log_text.splitlines() if l.startswith("clang++ ") and "-o nnue_compare " in l), None)
    if link:
        # The link line without its object list: the flags every object was compiled with.
        words = shlex.split(link)
        link = " ".join(w for w in words if not w.endswith(".o"))
    return exe, full, (f"`make -j2 {make_type} EVALFILE=<net> EXE=nnue_compare SOURCES=<src/**/*.cpp but "
                       f"src/main.cpp>` (its Makefile and build.mk unedited; no PGO there), i.e. "
                       f"`{link or '(see build.log)'} <objects>` "
                       f"({tool_version(['clang++', '--version'])}); the net permuted for the target by "
                       f"the build's own tmp/permute-{make_type} and embedded (INCBIN)")


def zstd_net(net, build_dir):
    """`zstd -q -3` of the raw net into the build directory (Viridithas and our --arch read the
    net compressed), redone when the raw net is newer."""
    out = Path(build_dir) / f"{net.name}.zst"
    if not out.is_file() or out.stat().st_mtime < net.stat().st_mtime:
        if not shutil.which("zstd"):
            die("zstd not found (Debian: apt-get install zstd)")
        out.parent.mkdir(parents=True, exist_ok=True)
        result = run(["zstd", "-q", "-3", "-f", str(net), "-o", str(out)])
        if result.returncode != 0:
            die(f"zstd failed: {result.stdout}")
    return out


def build_viridithas(gitdir, commit, net_zst, build_dir, target_cpu):
    """`RUSTFLAGS="-C target-cpu=<cpu>" cargo build --release` in
    <build-dir>/viridithas-<commit>-compare-<cpu>/ (target/ kept, cargo rebuilds what changed),
    the net copied in as viridithas.nnue.zst (the file the engine embeds), the harness as
    src/nnue_compare.rs, src/main.rs patched (`mod nnue_compare;`, the `nnuecompare` branch)."""
    full = resolve_commit(gitdir, commit)
    root = Path(build_dir) / f"viridithas-{full[:7]}-compare-{target_cpu}"
    exe = root / "target" / "release" / "viridithas"
    flags = f"-C target-cpu={target_cpu}"
    stamp = root / "nnue_compare.stamp"
    key = build_key("viridithas", full, flags, net_zst)
    command = f'RUSTFLAGS="-C target-cpu={target_cpu}" cargo build --release'
    if exe.is_file() and stamp.is_file() and stamp.read_text().split()[0] == key:
        log(f"[build] viridithas {full[:7]}: cached ({exe})")
    else:
        if os.uname().machine == "x86_64":
            cfg = run(["rustc", "--print", "cfg", "-C", f"target-cpu={target_cpu}"]).stdout.split()
            if 'target_feature="avx2"' not in cfg:
                die(f"target-cpu={target_cpu} does not enable AVX2: Viridithas's x86 code needs it "
                    "(docs/bullet-engines/viridithas.md section 7)")
        log(f"[build] viridithas {full[:7]}: extracting into {root}")
        fresh_tree(gitdir, full, root, keep=("target",))
        shutil.copy(net_zst, root / "viridithas.nnue.zst")
        shutil.copy(HARNESS / ENGINES["viridithas"]["harness"], root / "src" / "nnue_compare.rs")
        main = root / "src" / "main.rs"
        text = main.read_text()
        text, n1 = re.subn(r"^mod nnue;$", "mod nnue;\nmod nnue_compare; // tools/bullet-compare (nnue)", text,
                           count=1, flags=re.M)
        text, n2 = re.subn(r"^fn main\(\) -> anyhow::Result<\(\)> \{$",
                           "\\g<0>\n    // tools/bullet-compare (nnue): the harness's entry point\n"
                           "    if std::env::args().nth(1).as_deref() == Some(\"nnuecompare\") {\n"
                           "        nnue_compare::run();\n        return Ok(());\n    }",
                           text, count=1, flags=re.M)
        if n1 != 1 or n2 != 1:
            die(f"{main}: no `mod nnue;` or `fn main() -> anyhow::Result<()> {{` line to patch")
        main.write_text(text)
        log(f"[build] viridithas: {command} (in {root})")
        env = dict(os.environ, RUSTFLAGS=f"-C target-cpu={target_cpu}")
        env.pop("CARGO_TARGET_DIR", None)
        out = run(["cargo", "build", "--release"], cwd=root, env=env)
        finish_build("viridithas", root, exe, out, full, flags, net_zst, "-")
    rustc = tool_version(["rustc", "--version"], cwd=root)
    if target_cpu == "native":
        host = re.search(r"currently (\S+?)\)", run(["rustc", "--print", "target-cpus"], cwd=root).stdout)
        rustc += f"; native = {host.group(1) if host else 'unknown'} here"
    return exe, full, (f"`{command}` ({rustc}; Viridithas's release profile: fat LTO, one codegen unit, "
                       "panic = abort; default features: ruzstd decodes the net; no PGO)")


def engine_cmd(engine, exe):
    word = {"akimbo": "nnuecompare", "reckless": "nnuereference", "viridithas": "nnuecompare"}.get(engine)
    return [str(exe), word] if word else [str(exe)]


def engine_run(engine, exe, core, args):
    """Runs the engine harness pinned to `core`: the CompletedProcess. Viridithas gets a fresh
    empty TMPDIR each time, so that it decompresses and permutes its embedded net itself
    instead of mapping a `viridithas-shared-network-weights-*.bin` left by another build."""
    cmd = ["taskset", "-c", str(core)] + engine_cmd(engine, exe) + [str(a) for a in args]
    env, tmp = None, None
    if engine == "viridithas":
        tmp = Path(exe).parents[2] / "tmpdir"
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir()
        env = dict(os.environ, TMPDIR=str(tmp))
    try:
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    if out.returncode != 0:
        die(f"{' '.join(cmd)} failed: {out.stderr.strip()[-2000:]}")
    return out


def dump_rows(out):
    """The rows a harness's `dump` printed, split at tabs (Viridithas's own `info string ...` line
    about decompressing its net left out)."""
    return [l.split("\t") for l in out.stdout.splitlines() if l.strip() and not l.startswith("info string ")]


def check(engine, exe, core):
    """The engine's outputs over the reference file's FENs must equal its second column."""
    ref = REFERENCE / f"{ENGINES[engine]['net']}.tsv"
    rows = [l.split("\t") for l in ref.read_text().splitlines() if l.strip()]
    got = dump_rows(engine_run(engine, exe, core, ["dump", ref]))
    if len(got) != len(rows):
        die(f"check: {len(got)} rows from {engine}, {len(rows)} in {ref}")
    bad = [(i + 1, r[0], g[1], r[1]) for i, (g, r) in enumerate(zip(got, rows)) if g[0] != r[0] or g[1] != r[1]]
    rel = ref.relative_to(REPO)
    if bad:
        for row, fen, a, b in bad[:10]:
            log(f"  row {row} {fen}: {engine} {a}, reference {b}")
        die(f"check FAILED: {len(bad)} of {len(rows)} rows of {rel} differ from {engine}'s output; not timing")
    summary = f"{len(rows)}/{len(rows)} rows of `{rel}` equal the engine harness's output"
    log(f"[check] {engine}: {summary}")
    return summary


def cross_check(engine, exe, core, nnue, net, arch, isa, positions, build_dir):
    """The engine harness's output (`dump`) on every position of the timing file must equal
    `nnue eval`'s with our --isa: both evaluate the same thing on the positions timed."""
    if not Path(nnue).is_file():
        return f"not run (no nnue binary at {nnue})"
    rows = [l.split("\t")[0] for l in positions.read_text().splitlines() if l.strip() and not l.startswith("#")]
    fens = Path(build_dir) / f"fens-{positions.stem}.txt"
    fens.write_text("".join(f"{fen}\n" for fen in rows))
    theirs = dump_rows(engine_run(engine, exe, core, ["dump", positions]))
    cmd = [str(nnue), "eval", "--net", str(net), "--arch", str(REPO / arch), "--isa", isa, "--fens", str(fens)]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if out.returncode != 0:
        die(f"{' '.join(cmd)} failed: {out.stderr.strip()[-2000:]}")
    lines = [l.split("\t") for l in out.stdout.splitlines() if l.strip()]
    if not lines or "eval" not in lines[0] or "fen" not in lines[0]:
        die(f"nnue eval printed no `fen` and `eval` columns: {out.stdout[:200]!r}")
    col, fen_col = lines[0].index("eval"), lines[0].index("fen")
    ours = [(l[fen_col], l[col]) for l in lines[1:]]
    if not (len(theirs) == len(ours) == len(rows)):
        die(f"cross-check: {len(theirs)} rows from {engine}, {len(ours)} from nnue eval, {len(rows)} positions")
    bad = [(i + 1, fen, t[1], o[1]) for i, (fen, t, o) in enumerate(zip(rows, theirs, ours))
           if t[0] != fen or o[0] != fen or t[1] != o[1]]
    rel = positions.relative_to(REPO) if positions.is_relative_to(REPO) else positions
    if bad:
        for row, fen, a, b in bad[:10]:
            log(f"  row {row} {fen}: {engine} {a}, nnue eval {b}")
        die(f"cross-check FAILED: {len(bad)} of {len(rows)} positions of {rel}: {engine}'s output differs "
            f"from `nnue eval --isa {isa}`; not timing")
    summary = (f"{len(rows)}/{len(rows)} positions of `{rel}` (the timed ones): the engine harness's output "
               f"equals `nnue eval --isa {isa}`")
    log(f"[check] {engine}: {summary}")
    return summary


def positions_file(args, engine, build_dir):
    """The --moves file both programs time on: given, the engine's moves file (Reckless:
    timing_moves.tsv), or the reference FENs with no moves."""
    if args.positions:
        return Path(args.positions).resolve()
    if "moves" in ENGINES[engine]:
        return ENGINES[engine]["moves"]
    ref = REFERENCE / f"{ENGINES[engine]['net']}.tsv"
    path = Path(build_dir) / f"positions-{ENGINES[engine]['net']}.tsv"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(f"{l.split(chr(9))[0]}\t-\t-\n" for l in ref.read_text().splitlines() if l.strip()))
    return path


def run_engine(engine, exe, core, positions, runs, ops):
    """The engine harness's bench: ({op: ns per position}, {op: positions timed per pass})."""
    out = engine_run(engine, exe, core, ["bench", positions, runs, ",".join(ops)])
    result, counts = {}, {}
    for l in out.stdout.splitlines():
        f = l.split("\t")
        if f[0] == "bench" and len(f) >= 4:
            result[f[1]], counts[f[1]] = float(f[2]), int(f[3])
    if set(result) != set(ops):
        die(f"{engine} harness printed {out.stdout!r}")
    return result, counts


def run_ours(nnue, core, net, arch, isa, positions, runs, ops):
    """`nnue bench --positions`: ({op: ns per position}, {op: positions timed per pass})."""
    cmd = ["taskset", "-c", str(core), str(nnue), "bench", "--net", str(net), "--arch", str(REPO / arch),
           "--isa", isa, "--moves", str(positions), "--runs", str(runs), "--ops", ",".join(ops), "--positions"]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if out.returncode != 0:
        die(f"{' '.join(cmd)} failed: {out.stderr.strip()}")
    lines = [l for l in out.stdout.splitlines() if l.strip()]
    by_name = dict(zip(lines[0].split("\t"), lines[1].split("\t")))
    result, counts = {}, {}
    for op in ops:
        ns, count = f"{OUR_COLUMNS[op]} (ns)", f"{OUR_COLUMNS[op]} (positions)"
        if ns not in by_name or count not in by_name:
            die(f"nnue bench printed no `{ns}` or `{count}` column: {lines[0]}")
        result[op], counts[op] = float(by_name[ns]), int(by_name[count])
    return result, counts


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--obsidian", help="a git directory (bare or a checkout) of gab8192/Obsidian")
    ap.add_argument("--akimbo", help="a git directory (bare or a checkout) of jw1912/akimbo")
    ap.add_argument("--reckless", help="a git directory (bare or a checkout) of codedeliveryservice/Reckless")
    ap.add_argument("--obsidian-commit", default=ENGINES["obsidian"]["commit"])
    ap.add_argument("--akimbo-commit", default=ENGINES["akimbo"]["commit"])
    ap.add_argument("--reckless-commit", default=ENGINES["reckless"]["commit"],
                    help="(the harness is written for 789de89)")
    ap.add_argument("--obsidian-build", default=OBSIDIAN_BUILD,
                    help=f"the `build=` of Obsidian's Makefile (default {OBSIDIAN_BUILD}: -march=haswell; "
                         "native, avx2-pext, avx512 also exist)")
    ap.add_argument("--akimbo-rustflags", default=AKIMBO_RUSTFLAGS,
                    help=f"flags after `cargo rustc --release --` (default `{AKIMBO_RUSTFLAGS}`, akimbo's own "
                         "`make`; its AVX2 release binary uses `-C target-cpu=x86-64-v2 -C target-feature=+avx2`)")
    ap.add_argument("--reckless-target-cpu", default=RECKLESS_TARGET_CPU,
                    help=f"RUSTFLAGS=-Ctarget-cpu=... of Reckless's build (default {RECKLESS_TARGET_CPU}, as its "
                         "Makefile; x86-64-v3 for its AVX2 code)")
    ap.add_argument("--reckless-net", default=str(RECKLESS_NET),
                    help="the generated net (default: where `tools/fetch-nets.py reckless-v60-generated` puts "
                         "it; its sha256 is checked against tools/nets.tsv)")
    ap.add_argument("--stormphrax", help="a git directory (bare or a checkout) of Ciekce/Stormphrax")
    ap.add_argument("--stormphrax-commit", default=ENGINES["stormphrax"]["commit"],
                    help="(the harness is written for 2402cae)")
    ap.add_argument("--stormphrax-type", default=STORMPHRAX_TYPE,
                    help=f"the target of Stormphrax's Makefile (default {STORMPHRAX_TYPE}, its default goal: "
                         "-march=native; avx2-bmi2 is its AVX2 release build, avx512 its AVX-512 one)")
    ap.add_argument("--stormphrax-net", default=str(NETS_CACHE / "stormphrax-generated.nnue"),
                    help="the generated net, uncompressed behind its CBNF header (default: where "
                         "`tools/fetch-nets.py stormphrax-generated` puts it; sha256 checked against tools/nets.tsv)")
    ap.add_argument("--viridithas", help="a git directory (bare or a checkout) of cosmobobak/viridithas")
    ap.add_argument("--viridithas-commit", default=ENGINES["viridithas"]["commit"],
                    help="(the harness is written for 8bc0706)")
    ap.add_argument("--viridithas-target-cpu", default=VIRIDITHAS_TARGET_CPU,
                    help=f'RUSTFLAGS="-C target-cpu=..." of Viridithas\'s build (default {VIRIDITHAS_TARGET_CPU}, '
                         "as its README; x86-64-v3 for its AVX2 code; must enable AVX2)")
    ap.add_argument("--viridithas-net", default=str(NETS_CACHE / "viridithas-generated.nnue"),
                    help="the generated net, decoded (default: where `tools/fetch-nets.py viridithas-generated` "
                         "puts it; sha256 checked against tools/nets.tsv); compressed here with `zstd -q -3` "
                         "into the build directory for the engine and for ours")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    ap.add_argument("--runs", type=int, default=21, help="timed passes per round and program (median; default 21)")
    ap.add_argument("--core", type=int, default=1, help="the core both programs are pinned to (default 1)")
    ap.add_argument("--isa", default="avx2", help="our backend (default avx2)")
    ap.add_argument("--nnue", default=str(REPO / "target" / "release" / "nnue"),
                    help="our binary (default target/release/nnue)")
    ap.add_argument("--positions", help="a timing_moves.tsv-format file to time on (default: the reference "
                                        "file's FENs with no moves; for Reckless tests/reference/timing_moves.tsv)")
    ap.add_argument("--build-dir", default=str(Path.home() / ".cache" / "nnue" / "bullet-builds"))
    ap.add_argument("--check-only", action="store_true", help="build and check, do not time")
    ap.add_argument("--record-dir",
                    help="directory for this run's record file (default benchmarks/record/<cpu>, <cpu> from "
                         "/proc/cpuinfo's model name, family and model)")
    ap.add_argument("--no-record", action="store_true", help="print the report only, write no record file")
    args = ap.parse_args()

    engines = [e for e in ENGINES if getattr(args, e)]
    if not engines:
        die("give --obsidian, --akimbo, --reckless, --stormphrax and/or --viridithas")
    nnue = Path(args.nnue)
    if not args.check_only and not nnue.is_file():
        die(f"no nnue binary at {nnue} (cargo build --release -p nnue-cli)")

    commit = run(["git", "-C", str(REPO), "rev-parse", "--short=7", "HEAD"]).stdout.strip() or "unknown"
    dirty = run(["git", "-C", str(REPO), "status", "--porcelain", "--untracked-files=no"]).stdout.strip()
    # What `nnue --version` says the binary was built from (build.rs).
    built_from = "unknown"
    if not args.check_only:
        version = run([str(nnue), "--version"]).stdout
        built_from = m.group(1) if (m := re.search(r"\(commit ([^)]+)\)", version)) else "unknown"
        if built_from != commit:
            log(f"warning: {nnue} was built from {built_from}, not from HEAD ({commit})")
    header = [
        f"- command: `{' '.join(shlex.quote(a) for a in sys.argv)}`",
        f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- CPU: {cpu_model()}; both programs pinned to core {args.core} (`taskset -c {args.core}`)",
        f"- nnue commit (HEAD): {commit}{' (tracked files modified)' if dirty else ''}; binary {nnue}"
        + ("" if args.check_only else " built " + datetime.datetime.fromtimestamp(
            nnue.stat().st_mtime, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC") + f" from {built_from}"
           + ("" if built_from == commit else " (NOT the HEAD commit: rebuild with cargo build --release -p nnue-cli)")),
        f"- ours: `nnue bench --isa {args.isa} --runs {args.runs} --positions` (`--ops` per net below); "
        f"{args.rounds} interleaved rounds (odd rounds: engine first), each program {args.runs} timed passes "
        "per round (median of passes, ns per position)",
        "- load average at start: %.2f %.2f %.2f (a shared machine: other work inflates and scatters the numbers; "
        "compare the two programs within a round)" % os.getloadavg(),
    ]
    report = ["# bullet nets: nnue bench vs the engines' own NNUE code", ""] + header

    for engine in engines:
        cfg = ENGINES[engine]
        ops, extra = cfg.get("ops", OPS), cfg.get("extra", [])
        if engine == "reckless" or cfg.get("generated"):
            net = Path(getattr(args, f"{engine}_net")).resolve()
            want = next((l.split("\t")[2] for l in (REPO / "tools" / "nets.tsv").read_text().splitlines()
                         if l.startswith(f"{cfg['net']}.nnue\t")), None)
            if not net.is_file() or sha256(net) != want:
                die(f"{net}: absent or not sha256 {want} (python3 tools/fetch-nets.py --dest DIR {cfg['net']})")
        else:
            net = NETS_DIR / f"{cfg['net']}.bin"
        raw_net = net
        if cfg.get("zstd"):
            net = zstd_net(net, args.build_dir)
        gitdir = git_dir(getattr(args, engine))
        one = None
        if engine == "stormphrax":
            exe, full, how = build_stormphrax(gitdir, args.stormphrax_commit, net, args.build_dir,
                                              args.stormphrax_type)
        elif engine == "viridithas":
            exe, full, how = build_viridithas(gitdir, args.viridithas_commit, net, args.build_dir,
                                              args.viridithas_target_cpu)
        elif engine == "obsidian":
            exe, full, original, how = build_obsidian(gitdir, args.obsidian_commit, net, args.build_dir,
                                                      args.obsidian_build)
            one = build_obsidian_one(exe, args.build_dir)
        elif engine == "akimbo":
            exe, full, original, how = build_akimbo(gitdir, args.akimbo_commit, net, args.build_dir,
                                                    args.akimbo_rustflags)
        else:
            exe, full, how = build_reckless(gitdir, args.reckless_commit, net, args.build_dir,
                                            args.reckless_target_cpu)
        ours_sha = sha256(net)
        flags = cpu_flags()
        target = {"obsidian": args.obsidian_build, "akimbo": args.akimbo_rustflags,
                  "reckless": args.reckless_target_cpu, "stormphrax": args.stormphrax_type,
                  "viridithas": args.viridithas_target_cpu}[engine]
        wide = "avx512f" in flags and ("native" in target or "avx512" in target or "v4" in target)
        if wide and "avx512" not in args.isa:
            log(f"warning: {engine} is built for this CPU's AVX-512, ours runs --isa {args.isa}")
        summary = check(engine, exe, args.core)
        positions = positions_file(args, engine, args.build_dir)
        count = sum(1 for l in positions.read_text().splitlines() if l.strip())
        cross = None
        if cfg.get("cross"):
            cross = cross_check(engine, exe, args.core, nnue, net, cfg["arch"], args.isa, positions, args.build_dir)
        if engine == "reckless":
            embedded = "embedded in the engine build with `EVALFILE` (its build script's `include_bytes!`)"
        elif engine == "stormphrax":
            embedded = ("given to the engine's build as `EVALFILE` (permuted by its `tmp/permute-<type>` and "
                        "embedded with INCBIN); ours reads the same file")
        elif engine == "viridithas":
            embedded = (f"`zstd -q -3` of `{raw_net}` (sha256 {sha256(raw_net)[:12]}...), copied into the engine's "
                        "tree as `viridithas.nnue.zst` (its `include_bytes!`); ours reads the same .zst")
        else:
            same = "identical to" if original == ours_sha else f"DIFFERENT from (sha256 {original[:12]}...)"
            embedded = f"embedded in the engine build in place of its `{cfg['embedded']}`, which is {same} it"
        shown = net.relative_to(REPO) if net.is_relative_to(REPO) else net
        report += [
            "",
            f"## {cfg['net']} ({cfg['title']} {full[:7]})",
            "",
            f"- engine: {cfg['title']} commit {full}; build: {how}",
            f"- net: `{shown}` (sha256 {ours_sha[:12]}...), {embedded}",
            f"- check: {summary}",
            f"- positions: {count} (`{positions}`; both programs, `--ops {','.join(ops)}`)",
        ]
        if one:
            report.append(f"- one harness: `{one.name}` (the harness with -DNNUE_FFI, linked with "
                          f"`tools/bullet-compare/ffi`, our `--isa {args.isa}`): both outputs equal on every "
                          "position, checked before timing")
        if cross:
            report.append(f"- cross-check: {cross}")
        if engine in ("reckless", "stormphrax", "viridithas"):
            report.append("- the harness checks every timed move + eval against a full refresh of the board after "
                          "the move before timing (each round)")
        report += [f"- {line}" for line in cfg.get("notes", [])]
        if wide and "avx512" not in args.isa:
            report.append(f"- NOTE: this CPU has AVX-512 and the engine build may use it; ours is `--isa {args.isa}`")
        if args.check_only:
            continue
        rounds, counted, loads = [], None, []
        for r in range(args.rounds):
            log(f"[round {r + 1}/{args.rounds}] {engine}")
            loads.append(os.getloadavg()[0])
            engine_first = r % 2 == 0
            if engine_first:
                theirs, their_counts = run_engine(engine, exe, args.core, positions, args.runs, ops + extra)
            ours, our_counts = run_ours(nnue, args.core, net, cfg["arch"], args.isa, positions, args.runs, ops)
            if not engine_first:
                theirs, their_counts = run_engine(engine, exe, args.core, positions, args.runs, ops + extra)
            if any(our_counts[op] != their_counts[op] for op in ops):
                die(f"positions timed per pass differ: ours {our_counts}, {engine} {their_counts}")
            counted = our_counts
            if one:
                ours["one"], theirs["one"] = run_one(one, args.core, positions, args.runs, net, args.isa)
            log("    " + ", ".join(f"{op}: ours {ours[op]:.0f}, {engine} {theirs[op]:.0f}" for op in ours))
            rounds.append((ours, theirs))
        report += ["", "- positions timed per pass (both programs): "
                   + ", ".join(f"{OP_TEXT[op]} {n}" for op, n in counted.items()),
                   "- load average (1 min) at each round's start: " + ", ".join(f"{l:.2f}" for l in loads)]
        report += ["", f"| operation | round | nnue (ns) | {cfg['title']} (ns) | nnue / {cfg['title']} |",
                   "|---|---:|---:|---:|---:|"]
        for op in ops + (["one"] if one else []):
            ratios = []
            for i, (ours, theirs) in enumerate(rounds):
                ratio = ours[op] / theirs[op] if theirs[op] > 0 else float("nan")
                ratios.append(ratio)
                report.append(f"| {OP_TEXT[op]} | {i + 1} | {ours[op]:.0f} | {theirs[op]:.0f} | {ratio:.2f} |")
            report.append(f"| **{OP_TEXT[op]}** | **median** | {statistics.median(o[op] for o, _ in rounds):.0f} "
                          f"| {statistics.median(t[op] for _, t in rounds):.0f} | **{statistics.median(ratios):.2f}** "
                          f"({min(ratios):.2f}-{max(ratios):.2f}) |")
        for op in extra:
            text = cfg.get("extra_text", {}).get(op) or OP_TEXT[op]
            report += ["", f"- {cfg['title']} only, {text} (not an operation of ours): median of the rounds "
                       f"{statistics.median(t[op] for _, t in rounds):.0f} ns (rounds: "
                       f"{', '.join(f'{t[op]:.0f}' for _, t in rounds)})"]
    report += ["", "load average at end: %.2f %.2f %.2f" % os.getloadavg()]
    print("\n".join(report))
    if args.no_record or args.check_only:
        return
    info = cpu_info()
    record_dir = Path(args.record_dir) if args.record_dir else REPO / "benchmarks" / "record" / cpu_slug(info)
    record = ["## Run", "",
              f"- command: `{' '.join(shlex.quote(a) for a in sys.argv)}` (in `{os.getcwd()}`)",
              f"- finished: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M:%S UTC')}",
              f"- repository HEAD: {commit}{' (tracked files modified)' if dirty else ''}",
              "", "## CPU", ""] + cpu_lines(info) + [
              "", "## Programs", "",
              f"- `{nnue} --version`: {tool_version([str(nnue), '--version'])}",
              "- rustc on PATH (our binary and akimbo's, Reckless's and Viridithas's builds; ours may have been "
              f"built by another): {tool_version(['rustc', '--version'])}",
              f"- g++ on PATH (Obsidian's build): {tool_version(['g++', '--version'])}",
              f"- clang++ on PATH (Stormphrax's build): {tool_version(['clang++', '--version'])}",
              "- each engine's commit and build command: in its section of the report below"]
    title = f"bullet-engine comparison: {', '.join(engines)}; ours --isa {args.isa}"
    try:
        path = write_record(record_dir, built_from if built_from != "unknown" else commit, title, record, report, __file__)
    except OSError as e:
        die(str(e))
    log(f"record: {path}")


if __name__ == "__main__":
    main()
