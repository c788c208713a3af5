#!/usr/bin/env python3
"""Instructions per `move + eval`, ours against Stockfish's, counted by valgrind.

Times on a shared VM move by a third from one run to the next; instruction
counts do not. This script counts the instructions of the work inside the
timed region of `move + eval` (the stack pushed, the move made, both
accumulators updated, the position evaluated, the move taken back) in both
programs, on the same positions and moves, with AVX2 on both sides
(valgrind runs no AVX-512):

  1. builds Stockfish at the net's tag with the harness (the plain
     x86-64-avx2 build of compare.py, from its build cache);
  2. takes the first --positions positions with a quiet move from
     tests/reference/timing_moves.tsv;
  3. runs each program under `valgrind --tool=cachegrind --cache-sim=no`
     twice: once with the operation made once per timing, once with it made
     --repeat times (`nnue bench --repeat`, the harness's `nnuebench ...
     <repeat>`); the difference, divided by the extra operations, is the
     instructions of one operation, without loading, setup and clock;
  4. prints instructions per operation (ours `move`; Stockfish's `move` and
     its `domove`, the move making alone) and, for each `move`, the functions
     with the most instructions per operation (cg_diff + cg_annotate), and
     writes the same as a record, benchmarks/record/<cpu>/<date>-<commit>.md
     (--no-record: none).

Instructions are not time (a register-to-register move costs less than a
load that misses), and the rows' memory traffic, which a cold move waits
for, is not counted at all: this measures the compute of a warm move.

    python3 tools/stockfish-compare/instructions.py \\
        --stockfish /path/to/Stockfish --net nn-1a298aa575a0
"""

import argparse
import datetime
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import compare  # noqa: E402

ARCH = "x86-64-avx2"
ISA = "avx2"


def cachegrind(cmd, out_file, stdin_text=None, cwd=None):
    """Runs cmd under cachegrind (instruction counts only); returns (total
    instructions, stdout)."""
    full = ["valgrind", "--tool=cachegrind", "--cache-sim=no", f"--cachegrind-out-file={out_file}"] + cmd
    res = subprocess.run(full, input=stdin_text, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd)
    if res.returncode != 0:
        compare.die(f"{' '.join(cmd)} under valgrind failed:\n{res.stderr[-2000:]}")
    m = re.search(r"I\s+refs:\s+([\d,]+)", res.stderr)
    if not m:
        compare.die(f"no instruction count from valgrind for {' '.join(cmd)}")
    return int(m.group(1).replace(",", "")), res.stdout


def top_functions(once, repeated, per_op, top):
    """The functions with the most instructions per operation: cg_diff of the
    two runs, as (instructions per operation, name)."""
    diff = Path(repeated).with_suffix(".diff")
    with open(diff, "w") as f:
        subprocess.run(["cg_diff", str(once), str(repeated)], stdout=f, stderr=subprocess.DEVNULL, check=True)
    text = subprocess.run(["cg_annotate", "--auto=no", str(diff)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          text=True).stdout
    rows = []
    for line in text.splitlines():
        m = re.match(r"\s*(-?[\d,]+)\s+\([\s\d.%-]+\)\s+(\S.*)", line)
        if m and "PROGRAM TOTALS" not in line:
            name = m.group(2).split(":", 1)[-1]
            rows.append((int(m.group(1).replace(",", "")) / per_op, name))
    rows.sort(key=lambda r: -r[0])
    return rows[:top]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--stockfish", required=True, help="a Stockfish git repository holding the tags")
    ap.add_argument("--net", required=True, help="net name (see compare.py's NETS) or path")
    ap.add_argument("--tag", help="Stockfish tag (default: the net's first)")
    ap.add_argument("--nnue", default=str(compare.REPO / "target" / "release" / "nnue"))
    ap.add_argument("--positions", type=int, default=60, help="positions with a quiet move (default 60)")
    ap.add_argument("--repeat", type=int, default=51, help="operations per timing in the second run (default 51)")
    ap.add_argument("--top", type=int, default=15, help="functions listed per program (default 15)")
    ap.add_argument("--build-dir", default=str(Path.home() / ".cache" / "nnue" / "stockfish-builds"))
    ap.add_argument("--no-record", action="store_true", help="print only; write no record file")
    args = ap.parse_args()
    for tool in ("valgrind", "cg_diff", "cg_annotate"):
        if not shutil.which(tool):
            compare.die(f"{tool} is not on PATH (Debian: apt-get install valgrind)")
    if args.repeat < 2:
        compare.die("--repeat must be 2 or more")
    net = compare.find_net(args.net)
    info = compare.NETS.get(net.stem)
    if info is None:
        compare.die(f"{net.stem} is not one of compare.py's nets: {', '.join(compare.NETS)}")
    tag = args.tag or info["tags"][0]
    nnue = Path(args.nnue)
    if not nnue.is_file():
        compare.die(f"{nnue} not found (cargo build --release -p nnue-cli)")

    rows = [l for l in (compare.REFERENCE / "timing_moves.tsv").read_text().splitlines()
            if l.strip() and l.split("\t")[1] != "-"][: args.positions]
    exe = compare.build(args.stockfish, tag, ARCH, args.build_dir)
    option = "EvalFile" if info["slot"] == "big" else compare.TAGS[tag]["small_option"]
    passes = 2  # `--runs 1` and the harness's `1`: one warm-up pass and one timed pass

    with tempfile.TemporaryDirectory(prefix="nnue-instructions-") as tmp:
        tmp = Path(tmp)
        moves = tmp / "moves.tsv"
        moves.write_text("\n".join(rows) + "\n")

        def ours(repeat):
            out = tmp / f"ours.{repeat}"
            total, stdout = cachegrind([str(nnue), "bench", "--net", str(net), "--isa", ISA, "--moves", str(moves),
                                        "--ops", "move", "--runs", "1", "--repeat", str(repeat), "--positions"], out)
            timed = int(stdout.strip().splitlines()[-1].split("\t")[-1])
            return total, timed, out

        def stockfish(op, repeat):
            out = tmp / f"sf.{op}.{repeat}"
            lines = [f"setoption name {option} value {net}", "isready",
                     f"nnuebench {info['slot']} {moves} 1 {op} {repeat}", "quit"]
            total, stdout = cachegrind([str(exe)], out, "\n".join(lines) + "\n", cwd=exe.parent)
            found = [l.split("\t") for l in stdout.splitlines() if l.startswith(f"nnuebench\t{op}\t")]
            if not found:
                compare.die(f"Stockfish's nnuebench printed no {op} line")
            return total, int(found[0][3]), out

        results = {}
        for name, run in (("nnue move", lambda r: ours(r)), ("Stockfish move", lambda r: stockfish("move", r)),
                          ("Stockfish domove", lambda r: stockfish("domove", r))):
            compare.log(f"[valgrind] {name}: once, then {args.repeat} times per timing")
            once, timed, once_file = run(1)
            many, timed_many, many_file = run(args.repeat)
            if timed != timed_many:
                compare.die(f"{name}: {timed} then {timed_many} positions timed")
            per_op = (args.repeat - 1) * timed * passes
            results[name] = ((many - once) / per_op, timed, once_file, many_file, per_op)

        ours_move = results["nnue move"][0]
        sf_move = results["Stockfish move"][0]
        sf_domove = results["Stockfish domove"][0]
        report = [
            f"## Instructions per operation: {net.name} ({tag}), {ISA} against Stockfish {ARCH}", "",
            f"- command: `{' '.join(sys.argv)}`",
            f"- nnue: `{nnue}` ({compare.first_line([str(nnue), '--version'])}); Stockfish: `{exe}` "
            f"({compare.BUILDS[(tag, ARCH, False)]['cmd']})",
            f"- {results['nnue move'][1]} positions (the first with a quiet move in "
            f"tests/reference/timing_moves.tsv), each operation made once and {args.repeat} times per timing, "
            f"{passes} passes; valgrind's instruction counts, the difference per extra operation", "",
            "| operation | nnue | Stockfish | nnue / Stockfish |",
            "|---|---:|---:|---:|",
            f"| move + eval | {ours_move:.0f} | {sf_move:.0f} | {ours_move / sf_move:.2f} |",
            f"| do+undo only (Stockfish's move making, inside its move + eval) | - | {sf_domove:.0f} | - |",
        ]
        for name in ("nnue move", "Stockfish move"):
            _, _, once_file, many_file, per_op = results[name]
            report += ["", f"### {name}: instructions per operation by function", "",
                       "| instructions | function |", "|---:|---|"]
            report += [f"| {count:.0f} | `{fn[:140]}` |"
                       for count, fn in top_functions(once_file, many_file, per_op, args.top)]
    print("\n".join(report))
    if args.no_record:
        return
    info_cpu = compare.cpu_info()
    record_dir = compare.REPO / "benchmarks" / "record" / compare.cpu_slug(info_cpu)
    header = ["## Run", "", f"- command: `{' '.join(sys.argv)}` (in `{Path.cwd()}`)",
              f"- finished: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M:%S')} UTC", "",
              "## CPU", ""] + compare.cpu_lines(info_cpu)
    path = compare.write_record(record_dir, compare.binary_commit(nnue),
                                f"Instruction counts: {net.stem}, Stockfish {tag}, {ISA}", header, report, __file__)
    compare.log(f"record: {path}")


if __name__ == "__main__":
    main()
