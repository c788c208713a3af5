#!/usr/bin/env python3
"""Fill the local NNUE net cache from the table in tools/nets.tsv.

usage: python3 tools/fetch-nets.py [--dest DIR] [--list] [NAME ...]

No NAME: every net in the table. DIR: $NNUE_NETS_DIR, else <repo>/.cache/nets.
Nets come from the `stockfish` npm package (`npm pack`): old releases ship the
.nnue file itself, newer ones only inside a WebAssembly build, whose data
segments are laid out as linear memory to find the net. `derived` rows are made
from another net of the table by a recipe of this folder (the SFNNv8 stand-in:
standin.py), fetching that net first. `generated` rows are made from nothing by
a deterministic generator, tools/netgen/<member>.py (nets in an engine's format
with pseudo-random weights, whose reference outputs the engine itself made). Each net's full SHA-256 is checked before
it is written (atomically); nets already cached and intact are kept.
"""
import argparse, csv, hashlib, importlib, json, os, subprocess, sys, tarfile, tempfile, time
from pathlib import Path

import standin

REPO = Path(__file__).resolve().parent.parent
TABLE = REPO / "tools" / "nets.tsv"


class FetchError(Exception):
    """A failure worth a one-line message rather than a traceback."""


# What can go wrong while fetching one source (npm missing, bad tarball, odd wasm, ...).
FAILURES = (FetchError, OSError, ValueError, LookupError, tarfile.TarError)


def load_table():
    with open(TABLE, newline="") as f:
        lines = [line for line in f if not line.startswith("#")]
    return {row["name"]: row for row in csv.DictReader(lines, delimiter="\t")}


def digest(data):
    return hashlib.sha256(data).hexdigest()


def cached_ok(path, row):
    """True when `path` already holds exactly this net (size checked first: cheap)."""
    return (path.is_file() and path.stat().st_size == int(row["size"])
            and digest(path.read_bytes()) == row["sha256"])


# ---- just enough WebAssembly to rebuild the initial linear memory ----------

def uleb(buf, pos, signed=False):
    """LEB128 number at buf[pos]; returns (value, position after it)."""
    value = shift = 0
    while True:
        byte, pos, shift = buf[pos], pos + 1, shift + 7
        value |= (byte & 0x7F) << (shift - 7)
        if byte < 0x80:
            return (value - (1 << shift) if signed and byte & 0x40 else value), pos


def sections(wasm):
    """Map section id -> (start, end) of its payload (ids 10 = code, 11 = data)."""
    if wasm[:4] != b"\0asm":
        raise FetchError("member is not a WebAssembly module")
    found, pos = {}, 8
    while pos < len(wasm):
        size, start = uleb(wasm, pos + 1)
        found.setdefault(wasm[pos], (start, start + size))
        pos = start + size
    return found


def data_segments(wasm, start, end):
    """List of (memory offset or None if passive, payload start, payload length)."""
    count, pos = uleb(wasm, start)
    segments = []
    for _ in range(count):
        mode, pos = uleb(wasm, pos)
        offset = None
        if mode != 1:                          # 0: active, 2: active with memory index
            if mode == 2:
                _, pos = uleb(wasm, pos)
            if wasm[pos] not in (0x41, 0x42):  # i32.const / i64.const
                raise FetchError("data segment offset is not a constant")
            offset, pos = uleb(wasm, pos + 1, signed=True)
            pos += 1                           # the `end` opcode closing the expression
        length, pos = uleb(wasm, pos)
        segments.append((offset, pos, length))
        pos += length
    if pos != end:
        raise FetchError("malformed data section")
    return segments


def memory_inits(wasm, start, end):
    """Yield (segment, dest, src, n) for each `i32.const dest; i32.const src;
    i32.const n; memory.init segment 0` in the code section. Instead of decoding
    every function, take each memory.init opcode (0xFC 0x08) and pick the shortest
    run of bytes before it that parses as exactly three i32.const instructions."""
    op = wasm.find(b"\xfc\x08", start, end)
    while op != -1:
        for back in range(6, 19):              # three i32.const take 6..18 bytes
            pos, args = op - back, []
            while len(args) < 3 and pos < op and wasm[pos] == 0x41:
                value, pos = uleb(wasm, pos + 1, signed=True)
                args.append(value)
            if len(args) == 3 and pos == op:
                segment, after = uleb(wasm, op + 2)
                if wasm[after] == 0:           # memory index 0
                    yield segment, args[0] & 0xFFFFFFFF, args[1], args[2]
                break
        op = wasm.find(b"\xfc\x08", op + 2, end)


def linear_memory(wasm):
    """Initial memory image: active segments at their offsets, passive ones where
    constant memory.init calls put them (unreachable bytes simply stay zero)."""
    secs = sections(wasm)
    segments = data_segments(wasm, *secs[11])
    pieces = [(off, at, n) for off, at, n in segments if off is not None]
    if len(pieces) < len(segments) and 10 in secs:     # some segments are passive
        for seg, dest, src, n in memory_inits(wasm, *secs[10]):
            if seg < len(segments) and segments[seg][0] is None:
                _, at, length = segments[seg]
                if 0 <= src <= src + n <= length:      # ignore implausible matches
                    pieces.append((dest, at + src, n))
    memory = bytearray(max((off + n for off, _, n in pieces), default=0))
    for off, at, n in pieces:
        memory[off:off + n] = wasm[at:at + n]
    return memory


def extract(row, files):
    """The net for one npm row from its package's members: a plain .nnue member,
    or else a block of the wasm memory image found by version magic, size, digest."""
    parts = row["member"].split("+")
    missing = [m for m in parts if m not in files]
    if missing:
        raise FetchError(f"{row['npm']} has no {', '.join(missing)}")
    blob = b"".join(files[m] for m in parts)
    if row["kind"] != "wasm":
        return blob
    memory = linear_memory(blob)
    size, magic = int(row["size"]), int(row["version"], 16).to_bytes(4, "little")
    pos = memory.find(magic)
    while pos != -1 and pos + size <= len(memory):
        candidate = bytes(memory[pos:pos + size])
        if digest(candidate) == row["sha256"]:
            return candidate
        pos = memory.find(magic, pos + 1)
    raise FetchError("no block with the right size and SHA-256 in the wasm memory")


# ---- sources ------------------------------------------------------------------

def npm_members(spec, wanted, workdir):
    """`npm pack` the package into workdir; return {member path: bytes} for those
    of `wanted` (paths relative to the package root) it has, in one tarball pass."""
    print(f"npm pack {spec} ...", flush=True)
    try:
        proc = subprocess.run(["npm", "pack", spec, "--json", "--loglevel=error",
                               "--pack-destination", workdir], capture_output=True, text=True)
    except FileNotFoundError:
        raise FetchError("`npm` is not on PATH") from None
    if proc.returncode != 0:
        raise FetchError(f"npm pack failed: {proc.stderr.strip()[-500:]}")
    tarball = Path(workdir) / json.loads(proc.stdout)[0]["filename"]
    found = {}
    with tarfile.open(tarball, "r|gz") as tar:
        for member in tar:
            path = member.name.split("/", 1)[-1]   # drop the `package/` root
            if path in wanted and member.isfile():
                found[path] = tar.extractfile(member).read()
    tarball.unlink()
    return found


# Recipes for `derived` rows, by net name: (source net, bytes -> bytes).
RECIPES = {"sfnnv8-standin-l2560.nnue": (standin.SOURCE, standin.derive)}


def derive(row, dest):
    """A derived net from its source in `dest` (fetched before, in main)."""
    source, recipe = RECIPES[row["name"]]
    if source != row["member"]:
        raise FetchError(f"nets.tsv derives it from {row['member']}, the recipe from {source}")
    path = dest / source
    if not path.is_file():
        raise FetchError(f"its source {source} is not in {dest}")
    try:
        return recipe(path.read_bytes())
    except standin.DeriveError as err:
        raise FetchError(f"cannot derive it from {source}: {err}") from None


def generate(row):
    """A generated net: generate() of the module tools/netgen/<member>.py."""
    try:
        module = importlib.import_module(f"netgen.{row['member']}")
    except ImportError as err:
        raise FetchError(f"no generator netgen/{row['member']}.py: {err}") from None
    return module.generate()


def make(row, dest):
    """A net made here rather than fetched: derived or generated."""
    return generate(row) if row["kind"] == "generated" else derive(row, dest)


def install(row, data, dest):
    """Verify, then write via a temp file in `dest` and an atomic rename."""
    if len(data) != int(row["size"]) or digest(data) != row["sha256"]:
        raise FetchError("SHA-256 or size mismatch, not written")
    fd, tmp = tempfile.mkstemp(prefix=f".{row['name']}.", suffix=".part", dir=dest)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)                       # mkstemp creates it 0600
        os.replace(tmp, dest / row["name"])
    finally:
        if os.path.exists(tmp):                    # only if the rename did not happen
            os.unlink(tmp)
    print(f"fetched {row['name']} ({len(data)} bytes)", flush=True)


def main():
    ap = argparse.ArgumentParser(description="Fetch and verify NNUE nets into the cache.")
    ap.add_argument("--dest", type=Path,
                    help="cache directory (default: $NNUE_NETS_DIR, else <repo>/.cache/nets)")
    ap.add_argument("--list", action="store_true", help="list the known nets and exit")
    ap.add_argument("names", nargs="*", metavar="NAME", help="nets to fetch (default: all)")
    args = ap.parse_args()
    table = load_table()
    if args.list:
        for row in table.values():
            print(f"{row['name']:<27} {int(row['size']):>10}  {row['architecture']}")
        return
    unknown = [n for n in args.names if n not in table and n + ".nnue" not in table]
    if unknown:
        sys.exit(f"fetch-nets: unknown net(s): {' '.join(unknown)} (try --list)")
    names = [n if n in table else n + ".nnue" for n in args.names] or list(table)
    dest = args.dest or Path(os.environ.get("NNUE_NETS_DIR") or REPO / ".cache" / "nets")
    dest.mkdir(parents=True, exist_ok=True)

    # A derived net needs its source: fetch that too (first, in table order).
    wanted = []
    for name in names:
        if table[name]["kind"] == "derived":
            wanted.append(table[name]["member"])
        wanted.append(name)

    groups = {}                   # npm spec -> rows still to fetch, in request order
    for name in dict.fromkeys(wanted):
        row = table[name]
        if cached_ok(dest / name, row):
            print(f"ok {name}")
        else:                     # nets made here go last (key None), after their sources
            made = row["kind"] in ("derived", "generated")
            groups.setdefault(None if made else row["npm"], []).append(row)
    if None in groups:
        groups[None] = groups.pop(None)

    started, failed = time.monotonic(), []
    with tempfile.TemporaryDirectory(prefix="fetch-nets-") as work:
        for spec, rows in groups.items():          # spec None: the nets made here
            try:
                needed = {m for row in rows for m in row["member"].split("+")}
                files = spec and npm_members(spec, needed, work)
            except FAILURES as err:                # report, then go on with the other sources
                print(f"error: {spec}: {err}", file=sys.stderr)
                failed += [row["name"] for row in rows]
                continue
            for row in rows:
                try:
                    install(row, extract(row, files) if spec else make(row, dest), dest)
                except FAILURES as err:
                    print(f"error: {row['name']}: {err}", file=sys.stderr)
                    failed.append(row["name"])
    if groups:
        print(f"done in {time.monotonic() - started:.1f}s")
    if failed:
        sys.exit(f"fetch-nets: FAILED: {' '.join(failed)}")


if __name__ == "__main__":
    main()
