#!/usr/bin/env python3
"""Side-by-side speed comparison of `nnue bench` with Stockfish's own NNUE code.

For one net, this script
  1. builds the Stockfish release that goes with the net (see NETS below) from a
     Stockfish git repository (bare or not), with the harness of harness/
     compiled in (two added UCI commands: `nnuebench` and `nnuedump`); builds
     are cached under --build-dir, keyed by tag, ARCH and the harness's hash;
  2. makes that Stockfish load the net through its own UCI option (EvalFile, or
     EvalFileSmall for the small net of the two-net releases), dumps its raw
     outputs over tests/reference/fens.txt and checks them against
     tests/reference/<tag>/<file>.tsv (any difference: exit status 1);
  3. runs --rounds interleaved rounds: in each round Stockfish's harness and
     `nnue bench` time the same operations on the same positions and moves
     (tests/reference/timing_moves.tsv), one after the other, both pinned to
     the same core with `taskset -c`;
  4. prints a markdown table per backend: for each operation the fastest round
     of each program (ns per position), the fastest-round ratio ours/Stockfish
     and the median of the per-round ratios, with the CPU, the date, the nnue
     commit and the command line; plus a Stockfish-only row "do+undo only"
     (its move making alone, the non-NNUE part of its `move + eval`);
  5. writes the same report, with both programs' versions and builds, as a
     record file benchmarks/record/<cpu>/<UTC date>-<nnue commit>[-<n>].md
     (one per run, never edited by hand; --record-dir, --no-record; none for
     --dump-only). See benchmarks/record/README.md.

Which Stockfish code goes with which net (the default tag is the first one):

  nn-82215d0fd0df        sf_12     (EvalFile; HalfKP 256, SFNNv1)
  nn-37f18f62d772        sf_17.1, sf_16.1 or sf_18   (EvalFileSmall; L1=128 small net)
  sfnnv8-standin-l2560   sf_16.1   (EvalFile; SFNNv8-shaped stand-in, L1=2560)
  nn-1c0000000000        sf_17.1   (EvalFile; SFNNv9, L1=3072)
  nn-c288c895ea92        sf_18     (EvalFile; SFNNv10, threat inputs)
  nn-1a298aa575a0        stockfish-dev-20260803-762dd1da (EvalFile; SFNNv16, threat inputs)

A net marked `allow_overflow` in NETS (none today) is loaded by `nnue` with
--allow-overflow.

Example:
  python3 tools/stockfish-compare/compare.py --stockfish /path/to/Stockfish \\
      --net nn-1c0000000000 --rounds 3
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
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "tools"))
from records import cpu_info, cpu_lines, cpu_slug, write_record  # noqa: E402
HARNESS = HERE / "harness"
REFERENCE = REPO / "tests" / "reference"

# Per tag: the harness file for its NNUE API, whether it has a refresh cache
# (refresh_hot exists), and the two UCI options naming its big and small nets
# (None: one net only).
TAGS = {
    "sf_12": dict(harness="harness_sf12.cpp", hook="sf12", refresh_cache=False, small_option=None),
    "sf_16.1": dict(harness="harness_sf16.cpp", hook="sf16", refresh_cache=False, small_option="EvalFileSmall"),
    "sf_17.1": dict(harness="harness_sf17.cpp", hook="sf17", refresh_cache=True, small_option="EvalFileSmall"),
    "sf_18": dict(harness="harness_sf18.cpp", hook="sf17", refresh_cache=True, small_option="EvalFileSmall"),
    "stockfish-dev-20260803-762dd1da": dict(
        harness="harness_dev.cpp", hook="sf17", refresh_cache=True, small_option=None,
        # Its transformer lists the non-zero chunks and its layers take the
        # list: set our `forward_listed` (the same) against its `forward`.
        our_forward="forward_listed",
    ),
}

# Per net: its tags (first = default), which slot it takes in them
# ("big" = EvalFile, "small" = EvalFileSmall), the reference file name under
# tests/reference/<dir>/, and whether `nnue bench` supports it.
NETS = {
    "nn-82215d0fd0df": dict(tags=["sf_12"], slot="big", ref="nn-82215d0fd0df.tsv", ours=True),
    "nn-37f18f62d772": dict(tags=["sf_17.1", "sf_16.1", "sf_18"], slot="small", ref="nn-37f18f62d772.tsv", ours=True),
    "sfnnv8-standin-l2560": dict(tags=["sf_16.1"], slot="big", ref="standin-l2560.tsv", ours=True),
    "nn-1c0000000000": dict(tags=["sf_17.1"], slot="big", ref="nn-1c0000000000.tsv", ours=True),
    "nn-c288c895ea92": dict(tags=["sf_18"], slot="big", ref="nn-c288c895ea92.tsv", ours=True),
    "nn-1a298aa575a0": dict(tags=["stockfish-dev-20260803-762dd1da"], slot="big", ref="nn-1a298aa575a0.tsv", ours=True),
}

# The reference directory of a tag (tests/reference/<dir>).
REF_DIR = {"stockfish-dev-20260803-762dd1da": "sf_head"}

# Our backend name -> Stockfish's ARCH (plain builds, `make all`, the same ISA
# on both sides).
ARCHS = {"avx2": "x86-64-avx2", "avx512-vnni": "x86-64-vnni512"}
# `--isa best`: our best backend on this CPU (what `nnue` picks without
# --isa) against Stockfish's best build: `make profile-build` (PGO) at the
# ARCH Stockfish's own scripts/get_native_properties.sh picks for this CPU.
BEST = "best"
ISAS = list(ARCHS) + [BEST]

OP_NAMES = {
    "refresh": "refresh",
    "refresh_hot": "refresh, cache hot",
    "eval": "eval, acc. ready",
    "forward": "forward",
    "move": "move + eval",
    "kingmove": "king move + eval",
}
# Our operations that stand in for one of Stockfish's on some tags (TAGS'
# our_forward), with their column names in `nnue bench`.
OUR_NAMES = {"forward_listed": "forward, listed by the transformer"}
# How the report names them where the column name alone would mislead.
OP_LABELS = {
    "refresh_hot": "refresh, cache hot (the cache entry is this very position; before a48a293 a best case on the threat nets, see docs/performance.md)",
    "forward": "forward (layers; sparse nets: each program searching the input for non-zero chunks)",
    "kingmove": "king move + eval (the mover refreshed through the cache)",
}
# Timed on the Stockfish side only, next to `move`: Stockfish's own move making
# (do_move + undo_move, and its accumulator stack's push/pop from 17.1 on),
# the part of its `move + eval` that is not NNUE work.
DOMOVE_NAME = "do+undo only (Stockfish's move making, inside its move + eval)"

# The columns of the reference files the dump is compared on.
DUMP_COLUMNS_SF12 = ["output_raw"]
DUMP_COLUMNS = (
    ["bucket"]
    + [f"psqt_{b}" for b in range(8)]
    + [f"positional_{b}" for b in range(8)]
    + [f"psqtacc_stm_{b}" for b in range(8)]
    + [f"psqtacc_nstm_{b}" for b in range(8)]
)


def die(message):
    print(f"compare.py: {message}", file=sys.stderr)
    sys.exit(1)


def log(message):
    print(message, file=sys.stderr, flush=True)


def cpu_flags():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("flags"):
                return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def cpu_model():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return "unknown CPU"


def first_line(cmd, cwd=None):
    """The first line a command prints, or "unknown"."""
    try:
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=cwd)
        return out.stdout.splitlines()[0].strip()
    except (OSError, IndexError):
        return "unknown"


def binary_commit(nnue):
    """The commit `nnue --version` says the binary was built from (with
    `-modified` for a work tree that differed from it), or "unknown"."""
    out = subprocess.run([str(nnue), "--version"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    m = re.search(r"\(commit ([^)]+)\)", out.stdout)
    return m.group(1) if m else "unknown"


def find_net(name):
    """The .nnue file for --net (a path, or a name looked up in the net caches)."""
    p = Path(name)
    if p.is_file():
        return p.resolve()
    stem = name[:-5] if name.endswith(".nnue") else name
    dirs = []
    if os.environ.get("NNUE_NETS_DIR"):
        dirs.append(Path(os.environ["NNUE_NETS_DIR"]))
    dirs += [REPO / ".cache" / "nets", Path.home() / ".cache" / "nnue" / "nets"]
    for d in dirs:
        if (d / f"{stem}.nnue").is_file():
            return (d / f"{stem}.nnue").resolve()
    die(f"net {name} not found (looked in {', '.join(map(str, dirs))}; set NNUE_NETS_DIR)")


def net_key(path):
    stem = path.name[:-5] if path.name.endswith(".nnue") else path.name
    if stem not in NETS:
        die(f"{path.name}: unknown net (known: {', '.join(NETS)})")
    return stem


# Bump when patch_sources() or the make command changes (cached builds are
# keyed by this and the harness files).
PATCH_VERSION = "patch-2"


def harness_hash(tag):
    h = hashlib.sha256()
    for name in ["nnue_compare_common.h", TAGS[tag]["harness"]]:
        h.update((HARNESS / name).read_bytes())
    h.update(PATCH_VERSION.encode())
    return h.hexdigest()[:12]


def git_dir_args(stockfish):
    p = Path(stockfish).resolve()
    if not p.exists():
        die(f"--stockfish {stockfish}: no such path")
    return ["git", "-C", str(p)]


def patch_sources(src, tag):
    """Adds the harness to the Makefile and its two commands to the UCI loop."""
    cfg = TAGS[tag]
    shutil.copy(HARNESS / "nnue_compare_common.h", src / "nnue_compare_common.h")
    shutil.copy(HARNESS / cfg["harness"], src / "nnue_compare.cpp")

    makefile = src / "Makefile"
    text = makefile.read_text()
    if "nnue_compare.cpp" not in text:
        text, n = re.subn(r"^SRCS = ", "SRCS = nnue_compare.cpp ", text, count=1, flags=re.M)
        if n != 1:
            die(f"{makefile}: no `SRCS = ` line to add the harness to")
        makefile.write_text(text)

    uci = src / "uci.cpp"
    text = uci.read_text()
    if "nnue_compare_command" in text:
        return
    if cfg["hook"] == "sf12":
        decl = "void nnue_compare_command(const std::string&, std::istream&);"
        call = "::nnue_compare_command(token, is);"
    elif cfg["hook"] == "sf16":
        decl = ("namespace Stockfish { class UCI; }\n"
                "void nnue_compare_command(const Stockfish::UCI&, const std::string&, std::istream&);")
        call = "::nnue_compare_command(*this, token, is);"
    else:
        decl = ("namespace Stockfish { class Engine; }\n"
                "void nnue_compare_command(Stockfish::Engine&, const std::string&, std::istream&);")
        call = "::nnue_compare_command(engine, token, is);"
    includes = list(re.finditer(r"^#include .*$", text, flags=re.M))
    if not includes:
        die(f"{uci}: no #include line")
    at = includes[-1].end()
    text = text[:at] + "\n\n// tools/stockfish-compare (nnue): the harness's entry point\n" + decl + "\n" + text[at:]
    m = re.search(r'^([ \t]*)else if \(token == "d"\)', text, flags=re.M)
    if not m:
        die(f'{uci}: no `else if (token == "d")` line in the UCI loop')
    line = f'{m.group(1)}else if (token == "nnuebench" || token == "nnuedump")\n{m.group(1)}    {call}\n'
    text = text[: m.start()] + line + text[m.start():]
    uci.write_text(text)


# Per (tag, ARCH, pgo): how the binary was built, for the record.
BUILDS = {}

# The profiling run of a PGO build (its Makefile's PGOBENCH): written next to
# the binary by build(); Stockfish's own `bench` with the nets under test
# loaded, then one pass of every harness operation on each (so that the
# harness's timing loops, into which Stockfish's NNUE code is inlined, are not
# compiled as cold code).
PGO_SCRIPT = "nnue_pgo_bench.sh"


def make_command(arch, pgo=False):
    # `make build` is `net config-sanity` + `all` (and in later releases
    # config-sanity needs `net` too); `net` would download the release's default
    # nets, which are not needed: the net under test is loaded through EvalFile,
    # so the build embeds no net. `all` compiles with the same flags as `build`.
    # `profile-build` is Stockfish's release build (PGO); patch_makefile_net()
    # drops its `net` prerequisite, the environment's CXXFLAGS (which its
    # profiling steps keep) turn embedding off, and PGOBENCH runs PGO_SCRIPT.
    if pgo:
        return ["make", "-j2", "profile-build", f"ARCH={arch}", "COMP=gcc", f"PGOBENCH=./{PGO_SCRIPT}"]
    return ["make", "-j2", "all", f"ARCH={arch}", "COMP=gcc", "EXTRACXXFLAGS=-DNNUE_EMBEDDING_OFF"]


def patch_makefile_net(src):
    """Drops `net` from the prerequisites of `profile-build` and
    `config-sanity` (it would download the release's default nets)."""
    makefile = src / "Makefile"
    text = makefile.read_text()
    text, n = re.subn(r"^(profile-build|config-sanity):(.*)$",
                      lambda m: f"{m.group(1)}:" + re.sub(r"(?<!\S)net(?!\S)", "", m.group(2)),
                      text, flags=re.M)
    if n == 0:
        die(f"{makefile}: no `profile-build:` line")
    makefile.write_text(text)


def tag_nets(tag):
    """The nets the comparison runs with `tag`, as (slot, path): what its
    PGO profiling run loads."""
    nets = []
    for name, info in NETS.items():
        if tag in info["tags"]:
            nets.append((info["slot"], find_net(name)))
    return sorted(nets, key=lambda n: n[0])


def write_pgo_script(src, tag, moves):
    lines = []
    for slot, path in tag_nets(tag):
        option = "EvalFile" if slot == "big" else TAGS[tag]["small_option"]
        lines.append(f"setoption name {option} value {path}")
    lines += ["isready", "bench"]
    for slot, _ in tag_nets(tag):
        lines.append(f"nnuebench {slot} {moves} 1 all")
    lines.append("quit")
    script = src / PGO_SCRIPT
    script.write_text("#!/bin/sh\n# Written by tools/stockfish-compare/compare.py: the profiling run of a PGO build.\n"
                      "./stockfish <<'EOF'\n" + "\n".join(lines) + "\nEOF\n")
    script.chmod(0o755)


def native_arch(stockfish, tag):
    """The ARCH Stockfish picks for this CPU: the tag's own
    scripts/get_native_properties.sh, or (sf_12 has none) the oldest later
    tag's script, if the tag's Makefile knows that ARCH; else the nearest
    older x86-64 ARCH it knows. Returns (ARCH, how it was chosen)."""
    order = [t for t in TAGS]
    candidates = [tag] + order[order.index(tag) + 1:]
    for t in candidates:
        script = subprocess.run(git_dir_args(stockfish) + ["show", f"{t}:scripts/get_native_properties.sh"],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        if script.returncode == 0:
            break
    else:
        die(f"no scripts/get_native_properties.sh in {tag} or later tags")
    with tempfile.TemporaryDirectory() as d:
        (Path(d) / "get_native_properties.sh").write_bytes(script.stdout)
        out = subprocess.run(["sh", "get_native_properties.sh"], cwd=d, stdout=subprocess.PIPE, text=True)
    picked = out.stdout.split()[0] if out.stdout.split() else ""
    makefile = subprocess.run(git_dir_args(stockfish) + ["show", f"{tag}:src/Makefile"],
                              stdout=subprocess.PIPE, text=True).stdout
    known = set(re.findall(r"x86-64-[a-z0-9-]+", makefile))
    how = f"scripts/get_native_properties.sh of {t}" + ("" if t == tag else f" ({tag} has none)")
    fallback = ["x86-64-avx512icl", "x86-64-vnni512", "x86-64-avx512", "x86-64-vnni256", "x86-64-avxvnni",
                "x86-64-bmi2", "x86-64-avx2"]
    if picked in known:
        return picked, f"{how}: {picked}"
    for arch in fallback[fallback.index(picked) + 1 if picked in fallback else 0:]:
        if arch in known:
            return arch, f"{how} picks {picked or 'nothing'}, which {tag}'s Makefile lacks: the next one it has"
    die(f"{how} picks {picked!r}; no fallback ARCH in {tag}'s Makefile")


def build(stockfish, tag, arch, build_dir, pgo=False, moves=None):
    """Builds (or reuses) Stockfish at `tag` with the harness (with `pgo`, its
    profile-build, profiled on the nets the comparison runs with `tag`);
    returns the binary."""
    if tag not in TAGS:
        die(f"unknown tag {tag}")
    if not (HARNESS / TAGS[tag]["harness"]).is_file():
        die(f"no harness for {tag} yet ({TAGS[tag]['harness']} is missing)")
    key = harness_hash(tag)
    if pgo:
        h = hashlib.sha256(key.encode())
        for slot, path in tag_nets(tag):
            h.update(f"{slot} {path.name} {path.stat().st_size}".encode())
        key = "pgo-" + h.hexdigest()[:12]
    root = Path(build_dir) / (f"{tag}-{arch}-pgo" if pgo else f"{tag}-{arch}")
    exe = root / "src" / "stockfish"
    stamp = root / "nnue_compare.stamp"
    source = subprocess.run(["git", "-C", str(Path(stockfish).resolve()), "rev-parse", "--verify", "--quiet",
                             tag + "^{commit}"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                            text=True).stdout.strip() or "unknown"
    cmd = make_command(arch, pgo)
    env = None
    shown = " ".join(cmd)
    if pgo:
        env = {k: v for k, v in os.environ.items() if k not in ("CXXFLAGS", "LDFLAGS", "CPPFLAGS")}
        env["CXXFLAGS"] = "-DNNUE_EMBEDDING_OFF"
        shown = ("CXXFLAGS=-DNNUE_EMBEDDING_OFF " + shown + f" (Makefile: `net` dropped from profile-build's and "
                 f"config-sanity's prerequisites; {PGO_SCRIPT}: bench, then nnuebench 1 pass of every operation, "
                 f"with {', '.join(p.name for _, p in tag_nets(tag))})")
    BUILDS[(tag, arch, pgo)] = dict(exe=exe, key=key, source=source, cmd=shown)
    if exe.is_file() and stamp.is_file() and stamp.read_text().strip() == key:
        log(f"[build] {tag} {arch}{' pgo' if pgo else ''}: cached ({exe})")
        BUILDS[(tag, arch, pgo)]["cached"] = True
        return exe
    log(f"[build] {tag} {arch}{' pgo' if pgo else ''}: extracting sources into {root}")
    extract(stockfish, tag, root, ["src"])
    src = root / "src"
    patch_sources(src, tag)
    if pgo:
        patch_makefile_net(src)
        write_pgo_script(src, tag, Path(moves).resolve())
    log(f"[build] {tag} {arch}{' pgo' if pgo else ''}: {shown} (in {src})")
    run_make(cmd, root, exe, f"{tag} {arch}", env)
    stamp.write_text(key + "\n")
    BUILDS[(tag, arch, pgo)]["cached"] = False
    return exe


def extract(stockfish, tag, root, paths):
    """`paths` of Stockfish at `tag`, by `git archive`, into a new directory `root`."""
    if root.exists():
        shutil.rmtree(root)
    root.mkdir(parents=True)
    archive = subprocess.run(git_dir_args(stockfish) + ["archive", "--format=tar", tag, *paths],
                             stdout=subprocess.PIPE)
    if archive.returncode != 0:
        die(f"git archive {tag} failed in {stockfish}")
    subprocess.run(["tar", "-x", "-C", str(root)], input=archive.stdout, check=True)


def run_make(cmd, root, exe, what, env=None):
    """Runs `cmd` in `root`/src, its output kept in `root`/build.log; stops
    with the log's tail unless it built `exe`."""
    out = subprocess.run(cmd, cwd=root / "src", env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                         text=True)
    (root / "build.log").write_text(out.stdout)
    if out.returncode != 0 or not exe.is_file():
        sys.stderr.write(out.stdout[-6000:])
        die(f"build of {what} failed (log: {root / 'build.log'})")


def stockfish_version(exe):
    """Stockfish's banner and, where it has the UCI command `compiler`, its
    compiler lines (compiler, ARCH, settings)."""
    try:
        out = subprocess.run([str(exe)], input="compiler\nquit\n", stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True, timeout=60, cwd=exe.parent).stdout
    except (OSError, subprocess.TimeoutExpired):
        return ["unknown"]
    lines = [l.strip() for l in out.splitlines() if l.strip() and not l.startswith("Unknown command")]
    return lines[:8] or ["unknown"]


def record_header(info, tag, isas, commit, nnue, ours):
    """The record's lines before the report: the command, the CPU, both
    programs' versions and builds."""
    lines = ["## Run", "",
             f"- command: `{' '.join(shlex.quote(a) for a in sys.argv)}` (in `{os.getcwd()}`)",
             f"- finished: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M:%S UTC')}",
             f"- repository HEAD: {commit}", "", "## CPU", ""] + cpu_lines(info) + ["", "## nnue", ""]
    if ours:
        lines += [f"- `{nnue} --version`: {first_line([str(nnue), '--version'])}",
                  f"- rustc on PATH (the binary may have been built by another): {first_line(['rustc', '--version'])}"]
    else:
        lines.append("- not run (--stockfish-only)")
    lines += ["", "## Stockfish", "",
              f"- tag {tag}; g++ on PATH: {first_line(['g++', '--version'])}"]
    for isa in isas:
        arch, pgo = sf_build_of(isa)
        b = BUILDS.get((tag, arch, pgo))
        if not b:
            continue
        lines += [f"- ARCH={arch}{' (PGO)' if pgo else ''} (against our `{isa}`): source commit {b['source']}, "
                  f"built with `{b['cmd']}` plus the harness (key {b['key']}"
                  f"{', cached build' if b.get('cached') else ''}), binary `{b['exe']}`",
                  "  - " + "\n  - ".join(stockfish_version(b["exe"]))]
        if pgo:
            lines.append(f"  - ARCH chosen by {NATIVE_HOW.get(tag, '?')}")
    return lines


# Per tag: how native_arch() chose the PGO build's ARCH (for the report).
NATIVE_HOW = {}
# Per --isa value: the Stockfish build it is compared with, (ARCH, pgo); set in main().
SF_BUILD = {}


def sf_build_of(isa):
    return SF_BUILD.get(isa, (ARCHS.get(isa), False))


def run_stockfish(exe, core, net, slot, tag, commands, timeout=7200):
    """Starts Stockfish pinned to `core`, loads `net`, runs `commands`; returns stdout lines."""
    option = "EvalFile" if slot == "big" else TAGS[tag]["small_option"]
    lines = [f"setoption name {option} value {net}", "isready"] + commands + ["quit"]
    cmd = ["taskset", "-c", str(core), str(exe)]
    out = subprocess.run(cmd, input="\n".join(lines) + "\n", stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, timeout=timeout, cwd=exe.parent)
    result = out.stdout.splitlines()
    for line in result:
        if line.startswith("nnue_compare_error"):
            die(f"Stockfish harness: {line.split(chr(9), 1)[1]}")
    loaded = [l.split("\t", 1)[1] for l in result if l.startswith("nnue_compare_net\t")]
    if loaded and loaded[0] != str(net):
        die(f"Stockfish did not load {net} (its {option} net is `{loaded[0]}`)")
    return result


def run_measured(cmd, stdin_text=""):
    """Runs `cmd` to its end: (wall-clock seconds, peak resident size in MB)."""
    # stderr goes to a file, not a pipe nobody reads while the program runs.
    with tempfile.TemporaryFile(mode="w+") as err:
        start = time.monotonic()
        proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=err, text=True)
        proc.stdin.write(stdin_text)
        proc.stdin.close()
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.monotonic() - start
        code = proc.returncode = os.waitstatus_to_exitcode(status)
        if code != 0:
            err.seek(0)
            die(f"{' '.join(map(str, cmd))} failed ({code}): {err.read()[-2000:]}")
    return seconds, usage.ru_maxrss / 1024


def load_rounds(exe, nnue, core, net, slot, tag, isa, rounds, allow_overflow):
    """Interleaved load timings, as each program's process with the net minus
    the same program's process without it (so the net's load alone, on both
    sides). Ours: `nnue eval` of the start position (read, re-layout,
    overflow proof, one evaluation) minus `nnue --version` (the binary's
    start-up and exit). Stockfish: its process told to load the net through
    its option, `isready` (which waits for the load) and `quit`, minus the
    same process told only `quit` (start-up: thread pool, hash table,
    tables). Peak resident sizes the same way."""
    option = "EvalFile" if slot == "big" else TAGS[tag]["small_option"]
    pin = ["taskset", "-c", str(core)]
    ours_cmd = pin + [str(nnue), "eval", "--net", str(net)] + ([] if isa == BEST else ["--isa", isa]) + [
        "--fen", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"]
    if allow_overflow:
        ours_cmd.append("--allow-overflow")
    rows = []
    for r in range(rounds):
        log(f"[load {r + 1}/{rounds}]")
        ours = run_measured(ours_cmd)
        ours_up = run_measured(pin + [str(nnue), "--version"])
        sf = run_measured(pin + [str(exe)], f"setoption name {option} value {net}\nisready\nquit\n")
        sf_up = run_measured(pin + [str(exe)], "quit\n")
        rows.append((ours, ours_up, sf, sf_up))
        log(f"    nnue {ours[0]:.3f} s {ours[1]:.0f} MB (start-up alone {ours_up[0]:.3f} s {ours_up[1]:.0f} MB); "
            f"Stockfish {sf[0]:.3f} s {sf[1]:.0f} MB (start-up alone {sf_up[0]:.3f} s {sf_up[1]:.0f} MB)")
    med = statistics.median
    s_ = [med([row[i][0] for row in rows]) for i in range(4)]
    mb = [med([row[i][1] for row in rows]) for i in range(4)]
    ratios = [(row[0][0] - row[1][0]) / (row[2][0] - row[3][0]) for row in rows if row[2][0] > row[3][0]]
    ratio = f"{med(ratios):.2f}" if ratios else "-"
    return ["| program | wall clock, median (s) | peak resident, median (MB) |", "|---|---:|---:|",
            f"| nnue eval, start position (load, overflow proof, one evaluation) | {s_[0]:.3f} | {mb[0]:.0f} |",
            f"| nnue --version (start-up alone) | {s_[1]:.3f} | {mb[1]:.0f} |",
            f"| **nnue: the net's load alone** (difference) | {s_[0] - s_[1]:.3f} | {mb[0] - mb[1]:.0f} |",
            f"| Stockfish: setoption {option}, isready, quit | {s_[2]:.3f} | {mb[2]:.0f} |",
            f"| Stockfish: quit (start-up alone) | {s_[3]:.3f} | {mb[3]:.0f} |",
            f"| **Stockfish: the net's load alone** (difference) | {s_[2] - s_[3]:.3f} | {mb[2] - mb[3]:.0f} |",
            "", f"Median of per-round ratios of the loads alone, nnue / Stockfish: {ratio} "
            f"(wall clock; each program's process with the net minus without it, in the same round)."]


def read_tsv(path):
    rows = []
    with open(path) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            line = line.rstrip("\n")
            if line:
                rows.append(dict(zip(header, line.split("\t"))))
    return header, rows


def dump_check(exe, core, net, slot, tag):
    """Dumps Stockfish's raw outputs over fens.txt and compares them with the reference file."""
    ref_path = REFERENCE / REF_DIR.get(tag, tag) / NETS[net_key(net)]["ref"]
    if not ref_path.is_file():
        die(f"no reference file {ref_path}")
    fens = REFERENCE / "fens.txt"
    out = run_stockfish(exe, core, net, slot, tag, [f"nnuedump {slot} {fens}"])
    start = next((i for i, l in enumerate(out) if l.startswith("fen\t")), None)
    if start is None or "nnuedump\tdone" not in out:
        sys.stderr.write("\n".join(out[-20:]) + "\n")
        die("nnuedump gave no table")
    header = out[start].split("\t")
    got = [dict(zip(header, l.split("\t"))) for l in out[start + 1: out.index("nnuedump\tdone")]]
    _, ref = read_tsv(ref_path)
    columns = DUMP_COLUMNS_SF12 if tag == "sf_12" else DUMP_COLUMNS
    if len(got) != len(ref):
        die(f"dump check: {len(got)} rows from Stockfish, {len(ref)} in {ref_path}")
    mismatches = []
    for i, (g, r) in enumerate(zip(got, ref)):
        if g["fen"] != r["fen"]:
            die(f"dump check: row {i + 1}: FEN `{g['fen']}` but reference has `{r['fen']}`")
        bad = [c for c in columns if g.get(c) != r.get(c)]
        if bad:
            mismatches.append((i + 1, g["fen"], [(c, g.get(c), r.get(c)) for c in bad[:4]]))
    rel = ref_path.relative_to(REPO)
    if mismatches:
        for row, fen, diffs in mismatches[:10]:
            log(f"  row {row} {fen}: " + ", ".join(f"{c}: Stockfish {a}, reference {b}" for c, a, b in diffs))
        die(f"dump check FAILED: {len(mismatches)} of {len(ref)} rows differ from {rel}")
    summary = f"dump check: {len(ref)}/{len(ref)} rows equal {rel} (columns: {', '.join(columns) if len(columns) < 3 else 'bucket, psqt_0..7, positional_0..7, psqtacc_stm_0..7, psqtacc_nstm_0..7'})"
    log(summary)
    return summary


def parse_stockfish_bench(lines, counts):
    """{op: median ns}; `counts` gets {op: positions timed per pass}."""
    result = {}
    for l in lines:
        f = l.split("\t")
        if f[0] == "nnuebench" and len(f) >= 4 and f[1] != "done":
            result[f[1]] = float(f[2])
            counts[f[1]] = int(f[3])
    if not result:
        sys.stderr.write("\n".join(lines[-20:]) + "\n")
        die("Stockfish's nnuebench printed nothing")
    return result


def check_counts(ours, sf, ops, where):
    """Both programs timed the same number of positions per operation."""
    for op in ops:
        if ours.get(op) != sf.get(op):
            die(f"{where}: {OP_NAMES[op]}: nnue timed {ours.get(op)} positions per pass, Stockfish {sf.get(op)}")


# Per --isa value: the backend `nnue bench` ran (its `isa` column).
OUR_BACKEND = {}


def run_ours(nnue, core, net, isa, moves, runs, ops, counts, allow_overflow=False, forward="forward"):
    """{op: median ns}; `counts` gets {op: positions timed per pass}. `best`
    runs without --isa (and without NNUE_ISA): the backend nnue picks.
    `forward`: our operation timed for Stockfish's `forward`."""
    ours = {op: (forward if op == "forward" else op) for op in ops}
    cmd = ["taskset", "-c", str(core), str(nnue), "bench", "--net", str(net)]
    if isa != BEST:
        cmd += ["--isa", isa]
    cmd += ["--moves", str(moves), "--ops", ",".join(ours[op] for op in ops), "--runs", str(runs), "--positions"]
    if allow_overflow:
        cmd.append("--allow-overflow")
    env = {k: v for k, v in os.environ.items() if k != "NNUE_ISA"}
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if out.returncode != 0:
        die(f"{' '.join(cmd)} failed: {out.stderr.strip()}")
    lines = [l for l in out.stdout.splitlines() if l.strip()]
    header, row = lines[0].split("\t"), lines[1].split("\t")
    by_name = dict(zip(header, row))
    OUR_BACKEND[isa] = by_name.get("isa", "?")
    result = {}
    for op in ops:
        name = OUR_NAMES.get(ours[op], OP_NAMES.get(ours[op]))
        cell = by_name.get(f"{name} (ns)")
        count = by_name.get(f"{name} (positions)")
        if cell is None or count is None:
            die(f"nnue bench printed no column for {op}: {lines[0]}")
        result[op] = float(cell)
        counts[op] = int(count)
    return result


def fmt(x):
    return "-" if x is None else f"{x:.0f}"


def ratio_table(ops, ours_rounds, sf_rounds):
    """Markdown rows: per operation the fastest round of each program, the
    ratio of the fastest rounds and the median of the per-round ratios."""
    rows = ["| operation | nnue fastest (ns) | Stockfish fastest (ns) | ratio of fastest (nnue/SF) "
            "| median of per-round ratios |", "|---|---:|---:|---:|---:|"]
    for op in ops:
        ours = [r[op] for r in ours_rounds]
        sf = [r[op] for r in sf_rounds]
        ratios = [o / s if s > 0 else float("nan") for o, s in zip(ours, sf)]
        best = min(ours) / min(sf) if min(sf) > 0 else float("nan")
        rows.append(f"| {OP_LABELS.get(op, OP_NAMES[op])} | {fmt(min(ours))} | {fmt(min(sf))} | {best:.2f} "
                    f"| {statistics.median(ratios):.2f} |")
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stockfish", required=True, help="a Stockfish git repository (bare or checkout) holding the tags")
    ap.add_argument("--net", required=True, help="net name (e.g. nn-1c0000000000) or path to the .nnue file")
    ap.add_argument("--tag", help="Stockfish tag (default: the net's first tag, see above)")
    ap.add_argument("--isa", default="avx2",
                    help="backend: avx2, avx512-vnni (against Stockfish's plain build for that ISA), best (our "
                         "best backend against Stockfish's profile-build at its native ARCH), or all "
                         "(avx512-vnni only where the CPU has avx512_vnni)")
    ap.add_argument("--rounds", type=int, default=3, help="interleaved rounds (default 3)")
    ap.add_argument("--runs", type=int, default=21, help="timed passes per round and program (median; default 21)")
    ap.add_argument("--ops", help="comma-separated operations (default: all the tag has)")
    ap.add_argument("--nnue", default=str(REPO / "target" / "release" / "nnue"), help="our binary (default target/release/nnue)")
    ap.add_argument("--moves", default=str(REFERENCE / "timing_moves.tsv"))
    ap.add_argument("--core", type=int, default=1, help="the core both programs are pinned to (default 1)")
    ap.add_argument("--build-dir", default=str(Path.home() / ".cache" / "nnue" / "stockfish-builds"))
    ap.add_argument("--stockfish-only", action="store_true", help="time Stockfish only (nets nnue cannot load)")
    ap.add_argument("--dump-only", action="store_true", help="build and run the dump check only")
    ap.add_argument("--load", action="store_true",
                    help="time loading instead of the operations: --rounds interleaved runs of each program as a "
                         "process that loads the net (wall-clock seconds and peak resident size)")
    ap.add_argument("--skip-dump-check", action="store_true")
    ap.add_argument("--no-domove", action="store_true",
                    help="do not time Stockfish's move making alone (the extra do+undo row)")
    ap.add_argument("--record-dir",
                    help="directory for this run's record file (default benchmarks/record/<cpu>, <cpu> from "
                         "/proc/cpuinfo's model name, family and model)")
    ap.add_argument("--no-record", action="store_true", help="print the report only, write no record file")
    args = ap.parse_args()

    net = find_net(args.net)
    key = net_key(net)
    info = NETS[key]
    tag = args.tag or info["tags"][0]
    if tag not in info["tags"]:
        die(f"{key} goes with {', '.join(info['tags'])}, not {tag}")
    cfg = TAGS[tag]
    flags = cpu_flags()
    if args.isa == "all":
        isas = ["avx2"] + (["avx512-vnni"] if "avx512_vnni" in flags else []) + [BEST]
    elif args.isa in ISAS:
        isas = [args.isa]
        if args.isa == "avx512-vnni" and "avx512_vnni" not in flags:
            die("this CPU has no avx512_vnni")
    else:
        die(f"--isa must be one of {', '.join(ISAS)} or all")
    if cfg.get("our_forward") == "forward_listed":
        OP_LABELS["forward"] = "forward (layers, each taking its transformer's list of non-zero chunks)"
    if BEST in isas:
        arch, NATIVE_HOW[tag] = native_arch(args.stockfish, tag)
        SF_BUILD[BEST] = (arch, True)
    ops = args.ops.split(",") if args.ops else [o for o in OP_NAMES if o != "refresh_hot" or cfg["refresh_cache"]]
    for op in ops:
        if op not in OP_NAMES or (op == "refresh_hot" and not cfg["refresh_cache"]):
            die(f"operation {op} is not available for {tag}")
    sf_ops = ops + (["domove"] if "move" in ops and not args.no_domove else [])
    stockfish_only = args.stockfish_only
    if not info["ours"] and not stockfish_only and not args.dump_only:
        die(f"nnue bench cannot load {key} yet (threat inputs): rerun with --stockfish-only")
    nnue = Path(args.nnue)
    if not stockfish_only and not args.dump_only and not nnue.is_file():
        die(f"no nnue binary at {nnue} (cargo build --release -p nnue-cli)")

    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short=7", "HEAD"], stdout=subprocess.PIPE,
                            text=True).stdout.strip() or "unknown"
    commit_time = subprocess.run(["git", "-C", str(REPO), "log", "-1", "--format=%ct", "HEAD"], stdout=subprocess.PIPE,
                                 text=True).stdout.strip()
    binary_note = ""
    if not stockfish_only and not args.dump_only:
        built = nnue.stat().st_mtime
        built_from = binary_commit(nnue)
        binary_note = "; binary %s built %s from %s" % (
            nnue, datetime.datetime.fromtimestamp(built, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            built_from)
        if built_from != commit:
            binary_note += " (NOT the HEAD commit: rebuild with cargo build --release -p nnue-cli)"
            log(f"warning: {nnue} was built from {built_from}, not from HEAD ({commit})")
        elif commit_time and built < int(commit_time):
            binary_note += " (OLDER than the HEAD commit: rebuild with cargo build --release -p nnue-cli)"
            log(f"warning: {nnue} is older than HEAD ({commit})")
    report = [
        f"## {key} (Stockfish {tag})",
        "",
        f"- command: `{' '.join(shlex.quote(a) for a in sys.argv)}`",
        f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- CPU: {cpu_model()}; both programs pinned to core {args.core} (`taskset -c {args.core}`)",
        f"- nnue commit (HEAD): {commit}{binary_note}",
        f"- net: {net}",
        (f"- dump check only" if args.dump_only else
         f"- {args.rounds} interleaved rounds, each program run once per round as a whole process" if args.load else
         f"- {args.rounds} interleaved rounds, each program {args.runs} timed passes per round (median of passes)"),
        "- load average at start: %.2f %.2f %.2f (this is a shared machine: other work inflates and scatters the "
        "numbers; compare the two programs only within this table)" % os.getloadavg(),
    ]
    isas_run = list(isas)
    exes = {}
    for isa in isas:
        arch, pgo = sf_build_of(isa)
        exes[isa] = build(args.stockfish, tag, arch, args.build_dir, pgo, args.moves)
        if not args.skip_dump_check:
            report.append(f"- {arch}{' (PGO)' if pgo else ''}: "
                          + dump_check(exes[isa], args.core, net, info["slot"], tag))
    if args.dump_only:
        isas = []
    if args.load:
        for isa in isas:
            arch, pgo = sf_build_of(isa)
            report += ["", f"### loading, backend {isa} (Stockfish ARCH={arch}{', PGO' if pgo else ''})", ""]
            report += load_rounds(exes[isa], nnue, args.core, net, info["slot"], tag, isa, args.rounds,
                                  info.get("allow_overflow", False))
        isas = []
    # Rounds outermost, so that every backend's and build's measurement of a
    # round is taken in the same minute: the last table compares across them.
    sf_rounds = {isa: [] for isa in isas}
    our_rounds = {isa: [] for isa in isas}
    counts_checked = {}
    for r in range(args.rounds if isas else 0):
        for isa in isas:
            log(f"[round {r + 1}/{args.rounds}] {isa}: Stockfish {tag}")
            out = run_stockfish(exes[isa], args.core, net, info["slot"], tag,
                                [f"nnuebench {info['slot']} {Path(args.moves).resolve()} {args.runs} {','.join(sf_ops)}"])
            sf_counts = {}
            sf_rounds[isa].append(parse_stockfish_bench(out, sf_counts))
            log(f"    Stockfish: " + ", ".join(f"{o} {sf_rounds[isa][-1][o]:.0f}" for o in sf_ops))
            if not stockfish_only:
                log(f"[round {r + 1}/{args.rounds}] {isa}: nnue bench")
                our_counts = {}
                our_rounds[isa].append(run_ours(nnue, args.core, net, isa, args.moves, args.runs, ops, our_counts,
                                                 info.get("allow_overflow", False),
                                                 cfg.get("our_forward", "forward")))
                check_counts(our_counts, sf_counts, ops, f"round {r + 1}, {isa}")
                counts_checked = {op: our_counts[op] for op in ops}
                log(f"    nnue: " + ", ".join(f"{o} {our_rounds[isa][-1][o]:.0f}" for o in ops))
    if isas and not stockfish_only:
        report.append("- positions timed per pass, equal on both sides in every round (checked): "
                      + ", ".join(f"{OP_NAMES[op]} {n}" for op, n in counts_checked.items()))
    for isa in isas:
        arch, pgo = sf_build_of(isa)
        if isa == BEST:
            report += ["", f"### our best backend ({OUR_BACKEND.get(isa, '?')}) against Stockfish's best build "
                           f"(profile-build, ARCH={arch}: {NATIVE_HOW.get(tag, '?')})", ""]
        else:
            report += ["", f"### backend {isa} (Stockfish ARCH={arch})", ""]
        if stockfish_only:
            report += ["Our side: unsupported (nnue bench cannot load this net yet); Stockfish only.", "",
                       "| operation | Stockfish fastest (ns) | Stockfish median of rounds (ns) |", "|---|---:|---:|"]
            for op in sf_ops:
                vals = [r[op] for r in sf_rounds[isa]]
                name = DOMOVE_NAME if op == "domove" else OP_LABELS.get(op, OP_NAMES[op])
                report.append(f"| {name} | {fmt(min(vals))} | {fmt(statistics.median(vals))} |")
        else:
            report += ratio_table(ops, our_rounds[isa], sf_rounds[isa])
            if "domove" in sf_ops:
                sf = [r["domove"] for r in sf_rounds[isa]]
                report.append(f"| {DOMOVE_NAME} | - | {fmt(min(sf))} | - | - |")
    plain = [isa for isa in isas if isa != BEST]
    if len(plain) > 1 and not stockfish_only:
        # Per round and operation: our faster backend against Stockfish's faster build.
        best_ours = [{op: min(our_rounds[isa][r][op] for isa in plain) for op in ops} for r in range(args.rounds)]
        best_sf = [{op: min(sf_rounds[isa][r][op] for isa in plain) for op in ops} for r in range(args.rounds)]
        report += ["", f"### our faster backend against Stockfish's faster build ({', '.join(plain)}; per round)", ""]
        report += ratio_table(ops, best_ours, best_sf)
        for label, rounds in (("nnue", our_rounds), ("Stockfish", sf_rounds)):
            faster = ", ".join(
                f"{OP_NAMES[op]}: {min(plain, key=lambda isa: statistics.median(r[op] for r in rounds[isa]))}"
                for op in ops)
            report.append(f"- {label}'s faster by the median of rounds: {faster}")
    if BEST in isas and plain:
        # Stockfish's best build against its plain builds, per round (same minute).
        arch, _ = sf_build_of(BEST)
        report += ["", f"### Stockfish's profile-build ({arch}) against its plain builds: median of per-round "
                       "ratios (below 1 = the PGO build is faster)", "",
                   "| operation | " + " | ".join(f"PGO / {ARCHS[i]}" for i in plain) + " |",
                   "|---|" + "---:|" * len(plain)]
        for op in sf_ops:
            cells = [statistics.median(b[op] / a[op] for a, b in zip(sf_rounds[i], sf_rounds[BEST]) if a[op] > 0)
                     for i in plain]
            name = DOMOVE_NAME if op == "domove" else OP_NAMES[op]
            report.append(f"| {name} | " + " | ".join(f"{c:.2f}" for c in cells) + " |")
    report.append("")
    report.append("load average at end: %.2f %.2f %.2f" % os.getloadavg())
    print("\n".join(report))
    if args.no_record or args.dump_only:
        return
    ours = not stockfish_only
    record_commit = binary_commit(nnue) if ours else commit
    if record_commit == "unknown":
        record_commit = commit
    info_cpu = cpu_info()
    record_dir = Path(args.record_dir) if args.record_dir else REPO / "benchmarks" / "record" / cpu_slug(info_cpu)
    title = f"Stockfish comparison: {key}, Stockfish {tag}, {'loading' if args.load else ', '.join(isas_run)}"
    try:
        path = write_record(record_dir, record_commit, title,
                            record_header(info_cpu, tag, isas_run, commit, nnue, ours), report, __file__)
    except OSError as e:
        die(str(e))
    log(f"record: {path}")


if __name__ == "__main__":
    main()
