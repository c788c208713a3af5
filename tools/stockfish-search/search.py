#!/usr/bin/env python3
"""Stockfish 18 searching with nnue's evaluation (through the C API, nnue-capi): the same
`bench` node count as the unchanged engine, and both engines' nodes per second.

For each ARCH (x86-64-avx2, and x86-64-vnni512 where the CPU has avx512_vnni), this script
  1. builds sf_18 from a Stockfish git repository (bare or not) as `make -j2 profile-build
     ARCH=<arch> COMP=gcc`, twice: unchanged, and patched (glue/ copied in, small checked edits
     of five files, see README.md) so that Eval::evaluate's network calls are answered by the
     library on the backend that goes with the ARCH, its stacks pushed and popped where
     Search::Worker pushes and pops Stockfish's, and nothing of Stockfish's NNUE run in a
     search (its accumulator stack not pushed, its threat changes not computed). The default
     nets are copied from the net cache into src/ (no download) and embedded; the patched
     build's library loads the same embedded bytes. Builds are cached under --build-dir
     (search-<tag>-<arch>-<variant>), keyed by everything that goes into them;
  2. runs `bench 16 1 13` (Stockfish's default bench; with --deep also `bench 16 1 16`) on both
     and compares `Nodes searched`. --check adds a checking build (`make build`,
     -DNNUE_CAPI_CHECK): Stockfish's stack kept as in the unchanged engine, every evaluation
     computed by both and Stockfish's value used; a difference is judged against Stockfish's
     evaluation of the position from scratch: the library equal to it means Stockfish's
     accumulators differed from its own definition (counted, the first ones listed), anything
     else aborts with the position. --upstream-fix adds the same checking build with
     Stockfish's later fix ead7e650d applied (from the repository given);
  3. times both builds' `bench` in --rounds interleaved rounds (the first build of a round
     alternates), pinned with taskset, and reports the medians of nodes per second and the
     median of the per-round ratios patched / unchanged;
  4. writes the report as a record benchmarks/record/<cpu>/<UTC date>-<commit>[-modified][-<n>].md
     (tools/records.py; --record-dir, --no-record).

Exit status 1 when the patched build's node counts differ from the unchanged build's and the
run does not show them equal to those of the fixed Stockfish (--upstream-fix).

Example:
  python3 tools/stockfish-search/search.py --stockfish /path/to/Stockfish --deep --check --upstream-fix
"""

import argparse
import datetime
import difflib
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
sys.path.insert(0, str(REPO / "tools" / "stockfish-compare"))
from records import cpu_info, cpu_lines, cpu_slug, write_record  # noqa: E402
from compare import (  # noqa: E402
    ARCHS, cpu_flags, cpu_model, extract, find_net, first_line, run_make, stockfish_version)

GLUE = HERE / "glue"
CAPI = REPO / "nnue-capi"
HEADER = CAPI / "include" / "nnue.h"

# The tags this script knows: the nets they embed (big, small), as their evaluate.h names them.
TAGS = {"sf_18": dict(nets=["nn-c288c895ea92", "nn-37f18f62d772"])}

# What a Rust static library needs from the C side on Linux (rustc --print native-static-libs).
RUST_LIBS = ["-lgcc_s", "-lutil", "-lrt", "-lpthread", "-lm", "-ldl", "-lc"]

# What the C API library is built from (a record names the commit with -modified when a file
# under these, or in this directory, other than documentation (.md), differs from it).
LIBRARY_PATHS = ["nnue-capi", "nnue-runtime", "nnue-codegen", "nnue-macros", "nnue-spec", "nnue-isa", "archs", "src",
                 "Cargo.toml", "Cargo.lock"]

# Bump when patch_sources(), the make commands or the copied files change meaning.
PATCH_VERSION = "search-1"

# Stockfish's fix, after sf_18, of a difference between its incremental threat accumulator and
# its own evaluation from scratch after promotions ("Fix weird indexing bug", PR 6701): applied,
# from the Stockfish repository given, to the `fixed-check` variant (--upstream-fix).
UPSTREAM_FIX = "ead7e650da1dd07a2614ba4d8207470fe921a87b"


def die(message):
    print(f"search.py: {message}", file=sys.stderr)
    sys.exit(1)


def log(message):
    print(message, file=sys.stderr, flush=True)


def git(stockfish, *args, **kw):
    return subprocess.run(["git", "-C", str(Path(stockfish).resolve()), *args], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, **kw)


# ---------------------------------------------------------------------------------------------
# The patch: small edits of Stockfish's files, each checked to apply exactly where expected.

def edit(path, old, new, count=1, within=None):
    """Replaces `old` by `new` in `path`, `count` times exactly (within the text between the two
    markers of `within`, if given)."""
    text = path.read_text()
    lo, hi = 0, len(text)
    if within:
        lo = text.find(within[0])
        hi = text.find(within[1], lo + 1) if lo >= 0 else -1
        if lo < 0 or hi < 0:
            die(f"{path.name}: no `{within[0]}` ... `{within[1]}` to edit in")
    part = text[lo:hi]
    if part.count(old) != count:
        die(f"{path.name}: `{old}` found {part.count(old)} times, expected {count}")
    path.write_text(text[:lo] + part.replace(old, new) + text[hi:])


def insert_after_includes(path, line):
    text = path.read_text()
    includes = list(re.finditer(r'^#include ".*$', text, flags=re.M))
    if not includes:
        die(f"{path.name}: no #include line")
    at = includes[-1].end()
    path.write_text(text[:at] + "\n" + line + text[at:])


EDITED = ["Makefile", "nnue/nnue_accumulator.h", "search.cpp", "evaluate.cpp", "position.cpp"]


def patch_sources(src, check):
    """Makes a Stockfish 18 tree evaluate through the library (README.md lists each edit), and
    writes the edits as a unified diff next to src/ (nnue-capi.patch); returns the number of
    lines it adds and removes."""
    before = {name: (src / name).read_text().splitlines(keepends=True) for name in EDITED}
    shutil.copy(HEADER, src / "nnue.h")
    for name in ["nnue_capi_glue.h", "nnue_capi_glue.cpp"]:
        shutil.copy(GLUE / name, src / name)
    edit(src / "Makefile", "SRCS = ", "SRCS = nnue_capi_glue.cpp ")

    # Stockfish's AccumulatorStack carries the library's stack over both nets (one per search worker).
    acc = src / "nnue" / "nnue_accumulator.h"
    insert_after_includes(acc, '#include "../nnue_capi_glue.h"  // nnue-capi')
    edit(acc, "static constexpr std::size_t MaxSize = MAX_PLY + 1;",
         "static constexpr std::size_t MaxSize = MAX_PLY + 1;\n\n"
         "    nnue_capi::Stacks lib;  // nnue-capi: the library's stack")

    # The search: reset from the root, push after do_move, pop where Stockfish pops.
    search = src / "search.cpp"
    insert_after_includes(search, '#include "nnue_capi_glue.h"  // nnue-capi')
    edit(search, "    accumulatorStack.reset();\n",
         "    accumulatorStack.reset();\n    nnue_capi::reset(accumulatorStack, rootPos, options);\n")
    edit(search, "auto [dirtyPiece, dirtyThreats] = accumulatorStack.push();",
         "auto [dirtyPiece, dirtyThreats] = nnue_capi::dirty(accumulatorStack);")
    edit(search, "pos.do_move(move, st, givesCheck, dirtyPiece, dirtyThreats, &tt, &sharedHistory);\n",
         "pos.do_move(move, st, givesCheck, dirtyPiece, dirtyThreats, &tt, &sharedHistory);\n"
         "    nnue_capi::push(accumulatorStack, dirtyPiece);\n")
    edit(search, "accumulatorStack.pop();", "nnue_capi::pop(accumulatorStack);",
         within=("void Search::Worker::undo_move(", "\n}\n"))

    # Eval::evaluate's three network calls (Eval::trace's own NNUE line stays Stockfish's).
    ev = src / "evaluate.cpp"
    insert_after_includes(ev, '#include "nnue_capi_glue.h"  // nnue-capi')
    span = ("Value Eval::evaluate(", "std::string Eval::trace(")
    edit(ev, "networks.small.evaluate(pos, accumulators, caches.small)",
         "nnue_capi::evaluate_small(networks, pos, accumulators, caches)", within=span)
    edit(ev, "networks.big.evaluate(pos, accumulators, caches.big)",
         "nnue_capi::evaluate_big(networks, pos, accumulators, caches)", count=2, within=span)

    # Position::do_move: the threat changes (DirtyThreats) serve Stockfish's NNUE only; not
    # computed unless Stockfish's stack is kept (the check builds).
    if not check:
        pos = src / "position.cpp"
        body = ("void Position::do_move(Move  ", "void Position::undo_move(")
        edit(pos, "&dts", "dtsp", count=6, within=body)
        edit(pos, "    assert(&newSt != st);\n",
             "    assert(&newSt != st);\n    DirtyThreats* const dtsp = nullptr;  // nnue-capi\n", within=body)

    diff = []
    for name in EDITED:
        diff += difflib.unified_diff(before[name], (src / name).read_text().splitlines(keepends=True),
                                     f"a/src/{name}", f"b/src/{name}")
    (src.parent / "nnue-capi.patch").write_text("".join(diff))
    added = sum(1 for l in diff if l.startswith("+") and not l.startswith("+++"))
    removed = sum(1 for l in diff if l.startswith("-") and not l.startswith("---"))
    return added, removed


# ---------------------------------------------------------------------------------------------
# Builds

BUILDS = {}


def make_command(arch, variant):
    target = "build" if "check" in variant else "profile-build"
    return ["make", "-j2", target, f"ARCH={arch}", "COMP=gcc"]


def make_env(variant, lib):
    """The environment of make: the Makefile takes CXXFLAGS/LDFLAGS from it (as ENV_CXXFLAGS,
    ENV_LDFLAGS, which its profile-build steps keep, unlike EXTRACXXFLAGS/EXTRALDFLAGS)."""
    env = {k: v for k, v in os.environ.items() if k not in ("CXXFLAGS", "LDFLAGS", "CPPFLAGS", "NNUE_ISA")}
    extra = {}
    if variant != "unchanged":
        extra["LDFLAGS"] = " ".join([str(lib)] + RUST_LIBS)
    if "check" in variant:
        extra["CXXFLAGS"] = "-DNNUE_CAPI_CHECK"
    env.update(extra)
    return env, extra


def sha(path, h=None):
    h = h or hashlib.sha256()
    h.update(Path(path).read_bytes())
    return h


def build(args, tag, arch, variant, nets, lib):
    """Builds (or reuses) one variant of `tag` for `arch`; returns the binary."""
    root = Path(args.build_dir) / f"search-{tag}-{arch}-{variant}"
    exe = root / "src" / "stockfish"
    stamp = root / "nnue_search.stamp"
    source = git(args.stockfish, "rev-parse", "--verify", "--quiet", tag + "^{commit}", text=True).stdout.strip()
    if not source:
        die(f"{args.stockfish} has no tag {tag}")
    cmd = make_command(arch, variant)
    env, extra = make_env(variant, root / "libnnue_capi.a")
    h = hashlib.sha256(f"{PATCH_VERSION} {source} {cmd} {sorted(extra.items())}".encode())
    fix = None
    if variant == "fixed-check":
        fix = git(args.stockfish, "diff", UPSTREAM_FIX + "^", UPSTREAM_FIX, "--", "src/position.cpp").stdout
        if not fix:
            die(f"{args.stockfish} has no commit {UPSTREAM_FIX} (Stockfish's fix, after sf_18) for --upstream-fix")
        h.update(fix)
    for net in nets:
        h.update(net.name.encode())
    if variant != "unchanged":
        for p in [HERE / "search.py", GLUE / "nnue_capi_glue.h", GLUE / "nnue_capi_glue.cpp", HEADER, lib]:
            sha(p, h)
    key = h.hexdigest()[:16]
    shown = " ".join([f"{k}={shlex.quote(v)}" for k, v in extra.items()] + cmd)
    if fix:
        shown = f"git diff {UPSTREAM_FIX[:9]}^ {UPSTREAM_FIX[:9]} -- src/position.cpp | patch -p1; " + shown
    BUILDS[(arch, variant)] = dict(exe=exe, key=key, source=source, cmd=shown)
    if exe.is_file() and stamp.is_file() and stamp.read_text().strip() == key:
        log(f"[build] {tag} {arch} {variant}: cached ({exe})")
        BUILDS[(arch, variant)]["cached"] = True
        return exe
    log(f"[build] {tag} {arch} {variant}: extracting sources into {root}")
    extract(args.stockfish, tag, root, ["src", "scripts"])
    src = root / "src"
    for net in nets:  # the Makefile's `net` step finds them valid and downloads nothing
        shutil.copy(net, src / net.name)
    if fix:
        out = subprocess.run(["patch", "-p1", "--no-backup-if-mismatch"], cwd=root, input=fix,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if out.returncode != 0:
            die(f"Stockfish's commit {UPSTREAM_FIX[:9]} does not apply to {tag}: {out.stdout.decode()}")
    if variant != "unchanged":
        shutil.copy(lib, root / "libnnue_capi.a")
        patch_sources(src, "check" in variant)
    log(f"[build] {tag} {arch} {variant}: {shown} (in {src}; several minutes)")
    run_make(cmd, root, exe, f"{tag} {arch} {variant}", env)
    stamp.write_text(key + "\n")
    BUILDS[(arch, variant)]["cached"] = False
    return exe


def build_capi(args):
    """The C API's static library (cargo build --release -p nnue-capi, the library's default
    build: it picks its backend at run time)."""
    lib = Path(args.capi_lib)
    if not args.no_cargo:
        log("[build] cargo build --release -p nnue-capi")
        out = subprocess.run(["cargo", "build", "--release", "-p", "nnue-capi"], cwd=REPO,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if out.returncode != 0:
            sys.stderr.write(out.stdout[-4000:])
            die("cargo build --release -p nnue-capi failed")
    if not lib.is_file():
        die(f"no C API library at {lib}")
    return lib


# ---------------------------------------------------------------------------------------------
# Running bench

def run_bench(exe, cores, bench_args, timeout=7200):
    """Runs `stockfish bench <args>` pinned to `cores`; returns nodes, nps, time and the
    library's lines (net, backend, check summary)."""
    cmd = ["taskset", "-c", cores, str(exe), "bench", *bench_args.split()]
    env = {k: v for k, v in os.environ.items() if k != "NNUE_ISA"}
    try:
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=timeout,
                             cwd=exe.parent, env=env)
    except subprocess.TimeoutExpired:
        die(f"{' '.join(cmd)}: timed out")
    text = out.stderr
    found = {k: re.search(rf"^{k}\s*:\s*(\d+)", text, flags=re.M)
             for k in ("Nodes searched", "Nodes/second", "Total time \\(ms\\)")}
    lib_lines = [l for l in text.splitlines() if l.startswith("nnue-capi")]
    if out.returncode != 0 or not all(found.values()):
        sys.stderr.write("\n".join(text.splitlines()[-15:]) + "\n")
        die(f"{' '.join(cmd)} failed (exit status {out.returncode})")
    nodes, nps, ms = (int(m.group(1)) for m in found.values())
    return dict(nodes=nodes, nps=nps, ms=ms, lib=lib_lines)


def bench_signature(stockfish, tag):
    m = re.search(r"^Bench: (\d+)", git(stockfish, "log", "-1", "--format=%B", tag + "^{commit}",
                                          text=True).stdout, flags=re.M)
    return int(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stockfish", required=True, help="a Stockfish git repository (bare or checkout) holding the tag")
    ap.add_argument("--tag", default="sf_18", choices=sorted(TAGS))
    ap.add_argument("--isa", default="all",
                    help="avx2 (ARCH=x86-64-avx2), avx512-vnni (ARCH=x86-64-vnni512) or all (default: "
                         "avx512-vnni only where the CPU has avx512_vnni); the library runs the same backend")
    ap.add_argument("--rounds", type=int, default=7, help="interleaved nps rounds (default 7; 0: none)")
    ap.add_argument("--core", default="1", help="taskset core list for the nps rounds (default 1)")
    ap.add_argument("--threads", type=int, default=1,
                    help="threads of the timed bench (default 1: Stockfish's default `bench`; N > 1 times "
                         "`bench 16 N 13`, whose node count varies from run to run, so only its nps is compared; "
                         "give --core a list of N cores)")
    ap.add_argument("--deep", action="store_true", help="also compare the node counts of `bench 16 1 16`")
    ap.add_argument("--check", action="store_true",
                    help="also build the checking variant and run the same benches through it: every "
                         "evaluation computed by Stockfish and the library, the first difference aborts")
    ap.add_argument("--upstream-fix", action="store_true",
                    help=f"also build the checking variant with Stockfish's later fix {UPSTREAM_FIX[:9]} applied "
                         "(needs that commit in --stockfish) and run the same benches through it")
    ap.add_argument("--same-search-only", action="store_true", help="compare node counts only (no nps rounds)")
    ap.add_argument("--build-dir", default=str(Path.home() / ".cache" / "nnue" / "stockfish-builds"))
    ap.add_argument("--capi-lib", default=str(REPO / "target" / "release" / "libnnue_capi.a"))
    ap.add_argument("--no-cargo", action="store_true", help="do not run cargo build -p nnue-capi first")
    ap.add_argument("--record-dir", help="directory for the record (default benchmarks/record/<cpu>)")
    ap.add_argument("--no-record", action="store_true", help="print the report only")
    args = ap.parse_args()

    flags = cpu_flags()
    if args.isa == "all":
        isas = ["avx2"] + (["avx512-vnni"] if "avx512_vnni" in flags else [])
    elif args.isa in ARCHS:
        isas = [args.isa]
        if args.isa == "avx512-vnni" and "avx512_vnni" not in flags:
            die("this CPU has no avx512_vnni")
    else:
        die(f"--isa must be one of {', '.join(ARCHS)} or all")
    tag = args.tag
    nets = [find_net(n) for n in TAGS[tag]["nets"]]
    for net in nets:  # Stockfish's net.sh checks the same: the name is the SHA-256's first 12 digits
        if not net.name.startswith("nn-" + sha(net).hexdigest()[:12]):
            die(f"{net}: its SHA-256 does not match its name (tools/fetch-nets.py fetches it)")
    rounds = 0 if args.same_search_only else args.rounds
    variants = ["unchanged", "patched"] + (["check"] if args.check else []) + (
        ["fixed-check"] if args.upstream_fix else [])

    lib = build_capi(args)
    commit = subprocess.run(["git", "-C", str(REPO), "rev-parse", "--short=7", "HEAD"], stdout=subprocess.PIPE,
                            text=True).stdout.strip() or "unknown"
    dirty_capi = "\n".join(  # documentation aside
        l for l in subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "--", *LIBRARY_PATHS,
                                   str(HERE.relative_to(REPO))], stdout=subprocess.PIPE, text=True).stdout.splitlines()
        if not l.endswith(".md"))
    exes = {}
    for isa in isas:
        for variant in variants:
            exes[(isa, variant)] = build(args, tag, ARCHS[isa], variant, nets, lib)

    signature = bench_signature(args.stockfish, tag)
    benches = ["16 1 13"] + (["16 1 16"] if args.deep else [])
    report = [f"## Stockfish {tag} searching with nnue (C API)", "",
              f"- command: `{' '.join(shlex.quote(a) for a in sys.argv)}`",
              f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
              f"- CPU: {cpu_model()}",
              f"- nnue commit (HEAD): {commit}" + ("; the library's or this script's files differ from it (listed "
                                                   "in the record)" if dirty_capi else ""),
              f"- nets (embedded by both builds): {', '.join(n.name for n in nets)}",
              f"- {tag}'s commit message says `Bench: {signature}`" if signature else f"- {tag}: no bench signature",
              "- load average at start: %.2f %.2f %.2f" % os.getloadavg(), ""]

    # Same search.
    names = {"unchanged": "unchanged", "patched": "patched (library)", "check": "check build",
             "fixed-check": f"check build + {UPSTREAM_FIX[:9]}"}
    report += ["### Same search: `Nodes searched`", "",
               "| ARCH | bench | " + " | ".join(names[v] for v in variants) + " | patched = unchanged |",
               "|---|---|" + "---:|" * len(variants) + "---|"]
    differ, explained, notes, checks = False, True, [], []
    for isa in isas:
        for b in benches:
            got = {}
            for variant in variants:
                log(f"[same search] {ARCHS[isa]} {variant}: bench {b}")
                got[variant] = run_bench(exes[(isa, variant)], args.core, b)
                log(f"    nodes {got[variant]['nodes']}, nps {got[variant]['nps']}")
            same = got["patched"]["nodes"] == got["unchanged"]["nodes"]
            differ |= not same
            if not same and got.get("fixed-check", {}).get("nodes") != got["patched"]["nodes"]:
                explained = False
            report.append(f"| {ARCHS[isa]} | `bench {b}` | " + " | ".join(str(got[v]["nodes"]) for v in variants)
                          + f" | {'yes' if same else '**no**'} |")
            if b == benches[0]:
                notes += [f"- {ARCHS[isa]} {v}: `{l}`" for v in variants[1:] for l in got[v]["lib"]
                          if "check" not in l]
            for v in variants:
                if "check" in v:
                    summary = [l for l in got[v]["lib"] if l.startswith("nnue-capi check: big net")]
                    listed = [l for l in got[v]["lib"] if "differs from itself" in l]
                    checks.append(f"- {ARCHS[isa]}, {names[v]}, `bench {b}`: "
                                  + (summary[0][len("nnue-capi check: "):] if summary else "no summary printed"))
                    checks += [f"  - {l[len('nnue-capi check: '):]}" for l in listed]
    report += [""] + notes
    for isa in isas:
        patch = BUILDS[(ARCHS[isa], "patched")]["exe"].parent.parent / "nnue-capi.patch"
        if patch.is_file():
            lines = patch.read_text().splitlines()
            plus = sum(1 for l in lines if l.startswith("+") and not l.startswith("+++"))
            minus = sum(1 for l in lines if l.startswith("-") and not l.startswith("---"))
            glue = sum(len((GLUE / n).read_text().splitlines()) for n in ["nnue_capi_glue.h", "nnue_capi_glue.cpp"])
            report.append(f"- the patch ({ARCHS[isa]} patched): {plus} lines added and {minus} changed or removed in "
                          f"Stockfish's files (`{patch}`), and the glue: {glue} lines (tools/stockfish-search/glue/)")
            break
    if checks:
        report += ["", "#### Every evaluation compared (check builds)", "",
                   "The check builds keep Stockfish's accumulator stack as the unchanged engine does, "
                   "compute every evaluation both ways and search with Stockfish's values. Where the "
                   "two differ, Stockfish's evaluation of the position from scratch (a new stack and "
                   "caches) decides: equal to the library's means Stockfish's incrementally updated "
                   "accumulators differed from its own definition (the first 10 such evaluations of a "
                   "run are listed with the moves that reached them); anything else aborts the run.",
                   ""] + checks
    failed = differ and not explained
    if differ:
        report += ["", "**The node counts of the patched build differ from the unchanged build's.** " + (
            f"They equal, on every bench run, those of sf_18 with Stockfish's later fix {UPSTREAM_FIX[:9]} "
            "applied, whose evaluations (check build) all equal the library's." if explained else
            "Not explained by this run (--check --upstream-fix compare every evaluation).")]

    # Nodes per second.
    timed = "16 1 13" if args.threads == 1 else f"16 {args.threads} 13"
    if rounds:
        report += ["", f"### Nodes per second: `bench {timed}`, {rounds} interleaved rounds, "
                   f"`taskset -c {args.core}`", "",
                   "| ARCH | unchanged, median nps | patched, median nps | median of per-round ratios "
                   "(patched / unchanged) | rounds patched faster | per-round ratios |",
                   "|---|---:|---:|---:|---:|---|"]
        for isa in isas:
            nps = {"unchanged": [], "patched": []}
            for r in range(rounds):
                order = ["unchanged", "patched"] if r % 2 == 0 else ["patched", "unchanged"]
                for variant in order:
                    res = run_bench(exes[(isa, variant)], args.core, timed)
                    nps[variant].append(res["nps"])
                log(f"[round {r + 1}/{rounds}] {ARCHS[isa]}: unchanged {nps['unchanged'][-1]}, "
                    f"patched {nps['patched'][-1]} nps")
            ratios = [p / u for p, u in zip(nps["patched"], nps["unchanged"])]
            faster = sum(1 for x in ratios if x > 1)
            report.append(f"| {ARCHS[isa]} | {statistics.median(nps['unchanged']):.0f} | "
                          f"{statistics.median(nps['patched']):.0f} | {statistics.median(ratios):.3f} | "
                          f"{faster} of {rounds} | {', '.join(f'{x:.3f}' for x in ratios)} |")
    report += ["", "load average at end: %.2f %.2f %.2f" % os.getloadavg()]
    print("\n".join(report))

    if not args.no_record and (rounds or args.deep or args.check or args.upstream_fix):
        info = cpu_info()
        header = ["## Run", "",
                  f"- command: `{' '.join(shlex.quote(a) for a in sys.argv)}` (in `{os.getcwd()}`)",
                  f"- finished: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M:%S UTC')}",
                  f"- repository HEAD: {commit}", "", "## CPU", ""] + cpu_lines(info)
        header += ["", "## nnue", "", f"- C API library: `{lib}` (cargo build --release -p nnue-capi), "
                   f"SHA-256 {sha(lib).hexdigest()[:16]}",
                   f"- rustc on PATH: {first_line(['rustc', '--version'])}"]
        if dirty_capi:
            header.append("- uncommitted changes of the library's or this script's files at run time:\n  - "
                          + "\n  - ".join(dirty_capi.splitlines()))
        header += ["", "## Stockfish", "", f"- tag {tag}; g++ on PATH: {first_line(['g++', '--version'])}"]
        for isa in isas:
            for variant in variants:
                b = BUILDS[(ARCHS[isa], variant)]
                header += [f"- ARCH={ARCHS[isa]} {variant}: source commit {b['source']}, built with `{b['cmd']}` "
                           f"(key {b['key']}{', cached build' if b.get('cached') else ''}), binary `{b['exe']}`",
                           "  - " + "\n  - ".join(stockfish_version(b["exe"]))]
        record_dir = Path(args.record_dir) if args.record_dir else REPO / "benchmarks" / "record" / cpu_slug(info)
        title = f"Stockfish {tag} searching with nnue: {', '.join(ARCHS[i] for i in isas)}"
        try:
            path = write_record(record_dir, commit + ("-modified" if dirty_capi else ""), title, header, report,
                                __file__)
        except OSError as e:
            die(str(e))
        log(f"record: {path}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
