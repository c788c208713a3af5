#!/usr/bin/env python3
"""Interleaved A/B of two `nnue` binaries: `nnue bench` on the same nets,
old and new alternating in each round (which goes first alternates too),
pinned to one core. Prints, per net and operation, the median ns of each
binary over the rounds, the median of the per-round ratios new / old, and
in how many rounds the new binary was faster.

    python3 tools/ab-bench.py --old OLD/nnue --new target/release/nnue \\
        --net .cache/nets/nn-1c0000000000.nnue --net .cache/nets/nn-37f18f62d772.nnue \\
        --isa avx512-vnni --rounds 7
"""

import argparse
import statistics
import subprocess

OPS = "refresh,refresh_hot,eval,forward,move,update"


def bench(binary, net, args):
    cmd = ["taskset", "-c", str(args.core), binary, "bench", "--net", net, "--isa", args.isa,
           "--runs", str(args.runs), "--ops", args.ops]
    if args.arch:
        cmd += ["--arch", args.arch]
    lines = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.strip().splitlines()
    header, row = lines[0].split("\t"), lines[1].split("\t")
    return {name: float(value) for name, value in zip(header[3:], row[3:])}


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--old", required=True)
    p.add_argument("--new", required=True)
    p.add_argument("--net", action="append", required=True)
    p.add_argument("--isa", default="avx2")
    p.add_argument("--rounds", type=int, default=7)
    p.add_argument("--runs", type=int, default=9, help="timed passes per bench call (its median is taken)")
    p.add_argument("--ops", default=OPS)
    p.add_argument("--core", type=int, default=1)
    p.add_argument("--arch", help="the nets' architecture file (`nnue bench --arch`: bullet nets, which have no header)")
    args = p.parse_args()
    versions = [subprocess.run([b, "--version"], capture_output=True, text=True).stdout.strip() for b in (args.old, args.new)]
    print(f"old: {versions[0]}; new: {versions[1]}; isa {args.isa}; {args.rounds} rounds of --runs {args.runs}, core {args.core}\n")
    for net in args.net:
        rounds = []
        for r in range(args.rounds):
            order = [("old", args.old), ("new", args.new)]
            if r % 2:
                order.reverse()
            rounds.append({side: bench(binary, net, args) for side, binary in order})
        print(f"### {net.rsplit('/', 1)[-1]}\n")
        print("| operation | old (ns) | new (ns) | new / old | rounds new faster |")
        print("|---|---|---|---|---|")
        for op in rounds[0]["old"]:
            old = [x["old"][op] for x in rounds]
            new = [x["new"][op] for x in rounds]
            ratios = [n / o for n, o in zip(new, old)]
            faster = sum(n < o for n, o in zip(new, old))
            print(f"| {op} | {statistics.median(old):.1f} | {statistics.median(new):.1f} | "
                  f"{statistics.median(ratios):.3f} | {faster}/{len(ratios)} |")
        print()


if __name__ == "__main__":
    main()
