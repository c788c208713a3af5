#!/usr/bin/env python3
"""Times two builds of the C API library inside Stockfish 18's search without a PGO rebuild:
the patched build that search.py made (and cached) is relinked with each library, and both
binaries run `bench` in interleaved rounds on one core.

The patched build's directory keeps Stockfish's LTO objects, compiled with its profile. The
last `g++ -o stockfish ...` line of its build.log, run again with another libnnue_capi.a in
place of the one it was built with (and without -fprofile-use, whose data `profile-build`
deleted; the objects were compiled with it), links a binary in about ten seconds. Both
libraries are linked the same way, so the two binaries differ only in the library: they are
compared with each other, never with the unchanged build (search.py does that). The binaries
go to a scratch directory; the cached build is not touched.

A change to the library is decided here (the median of per-round ratios B / A over about 21
rounds; this VM's single rounds scatter by 10-20 %) and recorded by search.py at the commit
that lands it (search.py rebuilds the patched builds with PGO).

Example (A: the library at HEAD, B: a working tree's):
  python3 tools/stockfish-search/relink_ab.py --a /tmp/a/libnnue_capi.a --b target/release/libnnue_capi.a \\
      --arch x86-64-avx2 --rounds 21
"""
import argparse
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

NODES = re.compile(r"Nodes searched\s*:\s*(\d+)")
NPS = re.compile(r"Nodes/second\s*:\s*(\d+)")


def die(message):
    print(f"relink_ab.py: {message}", file=sys.stderr)
    sys.exit(2)


def link_command(build, lib, out):
    """The build's final link line with `lib` for its library and `out` for its output."""
    lines = [l for l in (build / "build.log").read_text().splitlines() if l.startswith("g++ -o stockfish ")]
    if not lines:
        die(f"no link line in {build / 'build.log'}")
    words = shlex.split(lines[-1])
    libs = [i for i, w in enumerate(words) if w.endswith("libnnue_capi.a")]
    if len(libs) != 1:
        die(f"the link line of {build} names libnnue_capi.a {len(libs)} times")
    words[libs[0]] = str(lib)
    words[2] = str(out)
    words = [w for w in words if not w.startswith("-fprofile-use")]
    return ["-flto=2" if w == "-flto=jobserver" else w for w in words]


def bench(exe, core, args):
    out = subprocess.run(["taskset", "-c", core, str(exe), "bench", *args], capture_output=True, text=True)
    text = out.stdout + out.stderr
    nodes, nps = NODES.search(text), NPS.search(text)
    if out.returncode != 0 or not nodes or not nps:
        die(f"{exe} bench failed:\n{text[-2000:]}")
    return int(nodes.group(1)), int(nps.group(1))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--a", required=True, type=Path, help="library A (libnnue_capi.a), the base")
    ap.add_argument("--b", required=True, type=Path, help="library B (libnnue_capi.a), the change")
    ap.add_argument("--arch", default="x86-64-avx2", help="the patched build's ARCH (default x86-64-avx2)")
    ap.add_argument("--build-dir", type=Path, default=Path.home() / ".cache/nnue/stockfish-builds",
                    help="where search.py keeps its builds (default ~/.cache/nnue/stockfish-builds)")
    ap.add_argument("--rounds", type=int, default=21, help="interleaved rounds (default 21)")
    ap.add_argument("--core", default="1", help="taskset core (default 1)")
    ap.add_argument("--bench", default="16 1 13", help="bench arguments (default: Stockfish's, 16 1 13)")
    args = ap.parse_args()
    build = args.build_dir / f"search-sf_18-{args.arch}-patched"
    if not (build / "src").is_dir():
        die(f"no patched build at {build}: run search.py --isa ... first")
    for lib in (args.a, args.b):
        if not lib.is_file():
            die(f"no library {lib}")
    scratch = Path(tempfile.mkdtemp(prefix="relink-ab-"))
    try:
        exes = {}
        for name, lib in (("A", args.a), ("B", args.b)):
            exe = scratch / f"stockfish-{name}"
            cmd = link_command(build, lib.resolve(), exe)
            out = subprocess.run(cmd, cwd=build / "src", capture_output=True, text=True)
            if out.returncode != 0:
                die(f"relinking with {lib} failed:\n{out.stderr[-2000:]}")
            exes[name] = exe
        bench_args = args.bench.split()
        counts = {name: bench(exe, args.core, bench_args)[0] for name, exe in exes.items()}
        if counts["A"] != counts["B"]:
            die(f"node counts differ: A {counts['A']}, B {counts['B']}")
        print(f"{build.name}, bench {args.bench}: {counts['A']} nodes in both", flush=True)
        ratios = []
        for r in range(args.rounds):
            order = ["A", "B"] if r % 2 == 0 else ["B", "A"]
            nps = {name: bench(exes[name], args.core, bench_args)[1] for name in order}
            ratios.append(nps["B"] / nps["A"])
            print(f"round {r + 1}: A {nps['A']} B {nps['B']} nps, B / A {ratios[-1]:.3f}", flush=True)
        faster = sum(x > 1 for x in ratios)
        print(f"median B / A {statistics.median(ratios):.3f} (B faster in {faster} of {args.rounds}; "
              f"rounds {min(ratios):.3f}-{max(ratios):.3f})")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
