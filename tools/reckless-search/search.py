#!/usr/bin/env python3
"""Reckless (codedeliveryservice/Reckless, commit e8bbd18) searching with this library.

Builds Reckless twice from a git directory holding the commit: unchanged, and with its `nnue`
module replaced by tools/reckless-search/nnue.rs (a network from `nnue!`, this library's
accumulator stack, `nnue::Position` for Reckless's `Board`). Both must print the same `bench`
node count (the unchanged build 1919539, the count in the commit's message); then both are timed
in interleaved rounds pinned to one core, and the report is written as a record
(benchmarks/record/<cpu>/<UTC date>-<commit>.md).

    python3 tools/reckless-search/search.py --reckless PATH/TO/Reckless [--rounds 7]

--check also builds the check build (Reckless's own module kept as `nnue_reckless`, every
evaluation compared with it, a panic naming the position at the first difference) and runs its
bench on each backend of --check-isas. See tools/reckless-search/README.md.
"""

import argparse
import datetime
import hashlib
import os
import re
import resource
import shlex
import shutil
import statistics
import subprocess
import sys
import tarfile
import io
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path.insert(0, str(REPO / "tools"))
from records import cpu_info, cpu_lines, cpu_slug, write_record  # noqa: E402

COMMIT = "e8bbd1817dd24f53dc832aa192ef34332a52f188"
NET_NAME = "reckless-v30-863f1172.nnue"
NET_SHA256 = "863f117249cdb0d0a70a71a385643d7bfea3725a78571950d4e8b4f1a17cd221"
BENCH_NODES = 1919539
MODULE = HERE / "nnue.rs"


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def die(msg):
    log(f"error: {msg}")
    sys.exit(1)


def run(cmd, **kw):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)


def first_line(cmd, **kw):
    try:
        out = run(cmd, **kw)
        return (out.stdout or out.stderr).strip().splitlines()[0]
    except (OSError, IndexError):
        return "unavailable"


def toolchain():
    """The channel of this repository's rust-toolchain.toml, which the builds use."""
    text = (REPO / "rust-toolchain.toml").read_text()
    m = re.search(r'channel\s*=\s*"([^"]+)"', text)
    return m.group(1) if m else die("no channel in rust-toolchain.toml")


def default_net():
    d = os.environ.get("NNUE_NETS_DIR")
    return Path(d) / NET_NAME if d else Path.home() / ".cache/nnue/nets" / NET_NAME


def fresh_tree(gitdir, root):
    """`git archive` of the commit into `root`. Kept: `target/` (cargo rebuilds what changed) and
    `src/bindings.rs`, which Reckless's build script writes into its source tree (from Fathom's
    header, fixed at the commit) and does not write again unless it reruns."""
    root.mkdir(parents=True, exist_ok=True)
    keep = {root / "target", root / "src", root / "src" / "bindings.rs"}
    for p in list(root.iterdir()) + (list((root / "src").iterdir()) if (root / "src").is_dir() else []):
        if p not in keep:
            shutil.rmtree(p) if p.is_dir() and not p.is_symlink() else p.unlink()
    archive = subprocess.run(["git", "-C", str(gitdir), "archive", "--format=tar", COMMIT], stdout=subprocess.PIPE)
    if archive.returncode != 0:
        die(f"git archive {COMMIT} failed in {gitdir}")
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(root, filter="data")
    if not (root / "src" / "bindings.rs").exists():
        # Without it, the build script must run again.
        for p in (root / "target" / "release" / "build").glob("reckless-*"):
            shutil.rmtree(p)


def replace_once(path, old, new):
    text = path.read_text()
    if text.count(old) != 1:
        die(f"patching {path}: `{old.strip()}` is not there exactly once (the commit is not as expected)")
    path.write_text(text.replace(old, new))


def prepare(kind, gitdir, net, root, repo):
    """The tree of one build: `unchanged`, `patched` or `check`. Returns the lines the patch
    adds to Reckless's files other than the module (for the report)."""
    fresh_tree(gitdir, root)
    (root / "networks").mkdir(exist_ok=True)
    # Where Reckless's build script takes the net from (it downloads it only when missing).
    # copy2 keeps the net's time stamp, so a rerun does not rebuild (its build script reruns
    # when this file changes).
    shutil.copy2(net, root / "networks" / "v30-863f1172.nnue")
    if kind == "unchanged":
        return []
    src = root / "src"
    if kind == "check":
        # Reckless's own module stays, as `nnue_reckless`, for the comparison.
        (src / "nnue.rs").rename(src / "nnue_reckless.rs")
        (src / "nnue").rename(src / "nnue_reckless")
        replace_once(src / "main.rs", "\nmod nnue;\n", "\nmod nnue;\nmod nnue_reckless;\n")
    else:
        shutil.rmtree(src / "nnue")
    shutil.copyfile(MODULE, src / "nnue.rs")
    added = ["nnue-check = []", "", "[dependencies]", f'nnue = {{ path = "{repo}" }}']
    cargo = root / "Cargo.toml"
    replace_once(cargo, "\nspsa = []\n", f"\nspsa = []\n{added[0]}\n")
    cargo.write_text(cargo.read_text() + "\n" + "\n".join(added[2:]) + "\n")
    # The edited files get the module's time stamp (the archive's files have the commit's), so
    # that cargo rebuilds on a rerun only when the module changed.
    stamp = MODULE.stat().st_mtime
    for path in [src / "nnue.rs", src / "main.rs", cargo]:
        os.utime(path, (stamp, stamp))
    return added


def build(kind, root, target_cpu, tc):
    """Reckless's Makefile flags without PGO; --locked for the unchanged build (the patched
    builds add the nnue crates to Cargo.lock). Returns the binary and the command."""
    args = ["cargo", "build", "--release"] + (["--locked"] if kind == "unchanged" else []) + \
        (["--features", "nnue-check"] if kind == "check" else [])
    cmd = f"RUSTUP_TOOLCHAIN={tc} RUSTFLAGS=-Ctarget-cpu={target_cpu} {' '.join(args)}"
    log(f"[build {kind}] {cmd} (in {root})")
    env = dict(os.environ, RUSTUP_TOOLCHAIN=tc, RUSTFLAGS=f"-Ctarget-cpu={target_cpu}")
    env.pop("EVALFILE", None)
    out = subprocess.run(args, cwd=root, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if out.returncode != 0:
        log(out.stdout[-6000:])
        die(f"the {kind} build failed")
    return root / "target" / "release" / "reckless", cmd


def run_timed(exe, core, isa, args, timeout, stdin=None):
    """`exe args` pinned to `core`, with NNUE_ISA=`isa` if given: (the completed process, its CPU
    time in seconds: user + system, what the other work on a shared core does not add to)."""
    env = dict(os.environ)
    env.pop("NNUE_ISA", None)
    if isa:
        env["NNUE_ISA"] = isa
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = run(["taskset", "-c", str(core), str(exe)] + args, env=env, timeout=timeout, input=stdin)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return out, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def bench(exe, core, isa=None, timeout=3600):
    """`reckless bench` (see `run_timed`): (nodes, `bench`'s own nps over wall time, the whole
    process's CPU seconds, stderr)."""
    out, cpu = run_timed(exe, core, isa, ["bench"], timeout)
    m = re.search(r"^Bench: (\d+) nodes (\d+) nps$", out.stdout, re.M)
    if out.returncode != 0 or not m:
        die(f"{exe} bench{f' (NNUE_ISA={isa})' if isa else ''} failed (exit {out.returncode}):\n"
            f"{out.stdout[-2000:]}{out.stderr[-4000:]}")
    return int(m.group(1)), int(m.group(2)), cpu, out.stderr


def startup_cpu(exe, core, isa=None):
    """The CPU seconds of `exe` started (see `run_timed`) and told `quit` at once: its start-up
    (for the patched build, with its net's load before `main`), which `bench`'s process pays too
    and which is not search."""
    out, cpu = run_timed(exe, core, isa, [], 600, stdin="quit\n")
    if out.returncode != 0:
        die(f"{exe} (quit at once{f', NNUE_ISA={isa}' if isa else ''}) failed (exit {out.returncode}):\n"
            f"{out.stderr[-4000:]}")
    return cpu


def repo_state(repo):
    commit = run(["git", "-C", str(repo), "rev-parse", "--short=7", "HEAD"]).stdout.strip() or "unknown"
    paths = ["Cargo.toml", "src", "archs", "nnue-isa", "nnue-spec", "nnue-codegen", "nnue-macros", "nnue-runtime",
             "tools/reckless-search"]
    dirty = run(["git", "-C", str(repo), "status", "--porcelain", "--"] + paths).stdout.split("\n")
    dirty = [line for line in dirty if line.strip()]
    return commit, dirty


def module_lines():
    return sum(1 for _ in MODULE.open())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reckless", required=True,
                    help="a git directory (bare or a checkout) of codedeliveryservice/Reckless holding e8bbd18")
    ap.add_argument("--net", default=str(default_net()),
                    help=f"Reckless's v30 net (default $NNUE_NETS_DIR/{NET_NAME}, else ~/.cache/nnue/nets/)")
    ap.add_argument("--build-dir", default=str(Path.home() / ".cache/nnue/reckless-builds"),
                    help="where the trees and their target/ go (default ~/.cache/nnue/reckless-builds)")
    ap.add_argument("--target-cpu", default="native", help="RUSTFLAGS=-Ctarget-cpu=... of both builds")
    ap.add_argument("--rounds", type=int, default=7, help="interleaved timing rounds (default 7)")
    ap.add_argument("--core", type=int, default=1, help="the core both builds are pinned to (default 1)")
    ap.add_argument("--isas", default="best,avx2",
                    help="the patched build's backends timed (NNUE_ISA; `best`: unset), comma-separated "
                         "(default best,avx2)")
    ap.add_argument("--check", action="store_true",
                    help="also build the check build and run its bench on each of --check-isas")
    ap.add_argument("--check-isas", default="best,avx2,scalar", help="default best,avx2,scalar")
    ap.add_argument("--check-only", action="store_true", help="build, check the node counts, time nothing")
    ap.add_argument("--no-record", action="store_true", help="print the report only")
    ap.add_argument("--record-dir", help="write the record here instead of benchmarks/record/<cpu>/")
    args = ap.parse_args()

    gitdir, net = Path(args.reckless).resolve(), Path(args.net).resolve()
    if not net.is_file():
        die(f"no net at {net}")
    if hashlib.sha256(net.read_bytes()).hexdigest() != NET_SHA256:
        die(f"{net}: sha256 is not {NET_SHA256}")
    if run(["git", "-C", str(gitdir), "cat-file", "-e", f"{COMMIT}^{{commit}}"]).returncode != 0:
        die(f"commit {COMMIT} is not in {gitdir}")
    tc = toolchain()
    build_dir = Path(args.build_dir).resolve()
    kinds = ["unchanged", "patched"] + (["check"] if args.check else [])
    exes, cmds, added = {}, {}, []
    for kind in kinds:
        root = build_dir / f"reckless-{COMMIT[:7]}-{kind}-{args.target_cpu}"
        lines = prepare(kind, gitdir, net, root, REPO)
        added = added or lines
        exes[kind], cmds[kind] = build(kind, root, args.target_cpu, tc)

    commit, dirty = repo_state(REPO)
    isas = [i.strip() for i in args.isas.split(",") if i.strip()]
    label = {isa: ("patched" if isa == "best" else f"patched {isa}") for isa in isas}
    report = [
        "## Reckless e8bbd18 searching with nnue (`bench`)",
        "",
        f"- command: `{' '.join(shlex.quote(a) for a in sys.argv)}`",
        f"- date: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M UTC')}",
        f"- nnue: HEAD {commit}" + (f", work tree modified in: {'; '.join(d.strip() for d in dirty)}" if dirty else
                                     ", work tree clean in the paths built"),
        f"- patch: the module {MODULE.relative_to(REPO)} ({module_lines()} lines) replaces `src/nnue.rs` and "
        f"`src/nnue/`; Cargo.toml gains {sum(1 for l in added if l)} lines: "
        + ", ".join(f"`{l}`" for l in added if l),
        f"- builds ({tc}): unchanged `{cmds['unchanged']}`; patched `{cmds['patched']}`"
        + (f"; check `{cmds['check']}`" if args.check else ""),
        f"- CPU: {cpu_info().get('model name', 'unknown')}; every bench pinned to core {args.core} "
        f"(`taskset -c {args.core}`)",
        "- load average at start: %.2f %.2f %.2f (a shared machine: other work slows and scatters the "
        "numbers; compare builds within a round)" % os.getloadavg(),
        "",
        "### Same search",
        "",
        "| build | backend | bench nodes |",
        "|---|---|---:|",
    ]
    nodes = {}
    n, _, _, _ = bench(exes["unchanged"], args.core)
    nodes["unchanged"] = n
    report.append(f"| unchanged | Reckless's AVX2 code (target-cpu={args.target_cpu}) | {n} |")
    for isa in isas:
        n, _, _, _ = bench(exes["patched"], args.core, None if isa == "best" else isa)
        nodes[label[isa]] = n
        report.append(f"| patched | {isa} | {n} |")
    if args.check:
        for isa in [i.strip() for i in args.check_isas.split(",") if i.strip()]:
            log(f"[check] bench, NNUE_ISA={isa}")
            n, _, _, err = bench(exes["check"], args.core, None if isa == "best" else isa, timeout=7200)
            checked = re.findall(r"nnue-check: (\d+) evaluations equal", err)
            nodes[f"check {isa}"] = n
            report.append(f"| check (every evaluation compared with Reckless's) | {isa} | {n} "
                          f"({checked[-1] if checked else '?'} evaluations equal) |")
    same = len(set(nodes.values())) == 1 and nodes["unchanged"] == BENCH_NODES
    report += ["", f"Node counts {'all equal' if same else 'DIFFER'} (the commit's message: {BENCH_NODES})."]
    log("\n".join(report))
    if not same:
        die("the node counts differ: run with --check to find the first evaluation that differs")
    if args.check_only:
        return

    programs = [("unchanged", exes["unchanged"], None)] + \
        [(label[isa], exes["patched"], None if isa == "best" else isa) for isa in isas]
    wall = {name: [] for name, _, _ in programs}
    cpu = {name: [] for name, _, _ in programs}
    startup = {name: [] for name, _, _ in programs}
    orders = []
    for r in range(args.rounds):
        # Rotate the order, so that each program runs first, second, ... equally often.
        k = r % len(programs)
        order = programs[k:] + programs[:k]
        if r // len(programs) % 2:
            order = order[::-1]
        orders.append(" > ".join(name for name, _, _ in order))
        for name, exe, isa in order:
            start = startup_cpu(exe, args.core, isa)
            n, w, c, _ = bench(exe, args.core, isa)
            if n != nodes["unchanged"]:
                die(f"{name}: {n} nodes in round {r + 1}")
            wall[name].append(w)
            # The search's CPU time: the bench process's minus this build's start-up.
            cpu[name].append(round(n / (c - start)))
            startup[name].append(start)
        log(f"[round {r + 1}/{args.rounds}] " + ", ".join(f"{name} {wall[name][-1]} ({cpu[name][-1]} by CPU time)"
                                                          for name, _, _ in programs))

    names = [name for name, _, _ in programs]

    def table(title, nps):
        rows = ["", f"### {title}, {args.rounds} interleaved rounds", "",
                "| round | order | " + " | ".join(names) + " | "
                + " | ".join(f"{n} / unchanged" for n in names[1:]) + " |",
                "|---:|---|" + "---:|" * (2 * len(names) - 1)]
        for r in range(args.rounds):
            base = nps["unchanged"][r]
            rows.append(f"| {r + 1} | {orders[r]} | " + " | ".join(str(nps[n][r]) for n in names) + " | "
                        + " | ".join(f"{nps[n][r] / base:.3f}" for n in names[1:]) + " |")
        rows.append("| median | | " + " | ".join(f"{statistics.median(nps[n]):.0f}" for n in names) + " | "
                    + " | ".join(f"{statistics.median(a / b for a, b in zip(nps[n], nps['unchanged'])):.3f}"
                                 for n in names[1:]) + " |")
        return rows

    report += table("Nodes per second of CPU time, start-up excluded", cpu)
    report += table("Nodes per second of wall time (`bench`'s own nps)", wall)
    report += ["", "Start-up (a process of the build told `quit` at once), median CPU time: "
               + ", ".join(f"{name} {statistics.median(startup[name]) * 1000:.0f} ms" for name in names) + ".",
               "", "Each round runs every build's `bench` once, as a whole process (50 searches to depth 12), "
               "each after a process of the same build that starts and quits at once. CPU time: the `bench` "
               "process's user + system time minus that start-up's, so that neither build's start-up counts "
               "(the patched build loads and checks its net before `main`, Reckless's net is a static in its "
               "binary; `bench`'s own clock starts after both). Last row: the median of each "
               "column and the median of the per-round ratios (above 1: the patched build is faster). "
               "`bench` has no thread count: only one thread is measured.",
               "", "load average at end: %.2f %.2f %.2f" % os.getloadavg()]
    print("\n".join(report))
    if args.no_record:
        return
    info = cpu_info()
    record_dir = Path(args.record_dir) if args.record_dir else REPO / "benchmarks" / "record" / cpu_slug(info)
    header = ["## Run", "",
              f"- command: `{' '.join(shlex.quote(a) for a in sys.argv)}` (in `{os.getcwd()}`)",
              f"- finished: {datetime.datetime.now(datetime.timezone.utc).strftime('%Y-%m-%d %H:%M:%S UTC')}",
              f"- repository HEAD: {commit}", "", "## CPU", ""] + cpu_lines(info) + [
              "", "## Builds", "",
              f"- Reckless {COMMIT} from `{gitdir}`, net {net} (sha256 {NET_SHA256[:12]}...)",
              f"- rustc: {first_line(['rustc', '--version'], env=dict(os.environ, RUSTUP_TOOLCHAIN=tc))}",
              f"- clang (Fathom, bindgen): {first_line(['clang', '--version'])}"] + \
        [f"- {kind}: `{exes[kind]}`, built with `{cmds[kind]}`" for kind in kinds]
    record_commit = commit + ("-modified" if dirty else "")
    try:
        path = write_record(record_dir, record_commit, "Reckless searching with nnue", header, report, __file__)
    except OSError as e:
        die(str(e))
    log(f"record: {path}")


if __name__ == "__main__":
    main()
