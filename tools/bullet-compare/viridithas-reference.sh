#!/usr/bin/env bash
# Viridithas's own network outputs for tests/reference/bullet/viridithas-generated.tsv.
#
#   tools/bullet-compare/viridithas-reference.sh VIRIDITHAS_GIT [NET [FENS]] > out.tsv
#
# VIRIDITHAS_GIT: a git directory (bare or a checkout) of cosmobobak/viridithas holding commit
# 8bc0706 (`git clone https://github.com/cosmobobak/viridithas`). NET: the decompressed net made
# by tools/netgen/viridithas.py (checked by its sha256); without it, or with `-`, the script
# makes it. FENS: default tests/reference/fens.txt. Prints `fen<TAB>value` per FEN on stdout;
# the log goes to stderr.
#
# Steps: the net generated (or checked) into $BUILD_DIR (outside this repository; default
# ~/.cache/nnue/bullet-builds); `git archive` of the commit into
# $BUILD_DIR/viridithas-8bc0706-$TARGET_CPU/; the net compressed with the zstd CLI into
# viridithas.nnue.zst at that tree's root (the file the engine embeds with include_bytes!; an
# EVALFILE would only be copied there by build.rs); src/uci.rs patched (below); then
# `RUSTFLAGS="-C target-cpu=$TARGET_CPU" cargo build --release` (default features: ruzstd
# decodes the net, no C code; the release profile has no overflow checks, so i16 sums wrap as
# in the engine). The commit has no Cargo.lock (it is gitignored), so cargo resolves the
# dependencies from crates.io.
#
# The patch: the UCI command `raweval` prints 0 when the side to move is in check, and the
# network's value otherwise. One sed turns its `if t.board.in_check() {` into `if false {`, so
# that it prints the network's value in every position. The network code is not touched, and
# search and `bench` do not use `raweval`.
#
# TARGET_CPU defaults to native. On x86-64 it must enable AVX2 (native on an AVX2 machine,
# x86-64-v3, x86-64-v4): without it the engine builds but does not undo the lane interleave of
# its packus (docs/bullet-engines/viridithas.md section 7; an x86-64-v2 build printed other
# values on every position of tests/reference/fens.txt), so the script refuses. The L1
# code follows it at compile time: AVX-512 VNNI sums exactly (vpdpbusd), AVX2 adds pairs of
# maddubs results in i16; with this net both give the same file.
#
# Checks: `viridithas bench` run twice must print the same node count, and that count must be
# BENCH_NODES (measured with this net on the native Zen 4 and x86-64-v3 builds; the random net
# makes the search large, about four minutes per bench on a Zen 4); every FEN
# must be accepted (the engine prints nothing on stderr). Each engine process gets a fresh
# empty TMPDIR, so that it decompresses and permutes the embedded net itself instead of
# mapping a cached `viridithas-shared-network-weights-*.bin`. All FENs go to one engine
# process: `position fen <FEN>`, then `raweval`, one line read back before the next FEN
# (the engine drops queued commands once stdin is closed, so stdin stays open until `quit`).
#
# Needs: cargo (and network access to crates.io), python3, zstd, sha256sum.
set -euo pipefail

COMMIT=8bc07064c888ad9ff7641e65188cc3e230916090
NET_SHA256=b41aa07897c67f3e7a39ce295f970a850447a0a74ddb691f433ffc19829238cb
BENCH_NODES=121949426
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

(($# >= 1 && $# <= 3)) || { sed -n '2,10p' "$0" >&2; exit 2; }
gitdir=$1
net=${2:--}
fens=$(realpath "${3:-$repo/tests/reference/fens.txt}")
target_cpu=${TARGET_CPU:-native}
build_dir=$(mkdir -p "${BUILD_DIR:-$HOME/.cache/nnue/bullet-builds}" && cd "${BUILD_DIR:-$HOME/.cache/nnue/bullet-builds}" && pwd)
root="$build_dir/viridithas-${COMMIT:0:7}-$target_cpu"

git -C "$gitdir" cat-file -e "$COMMIT^{commit}" 2>/dev/null || { echo "commit $COMMIT is not in $gitdir" >&2; exit 1; }
if [[ $(uname -m) == x86_64 ]] && ! rustc --print cfg -C target-cpu="$target_cpu" | grep -qx 'target_feature="avx2"'; then
    echo "TARGET_CPU=$target_cpu does not enable AVX2: the engine's x86 code needs it" >&2
    exit 2
fi

if [[ $net == - ]]; then
    net="$build_dir/viridithas-generated.nnue"
    start=$SECONDS
    python3 "$repo/tools/netgen/viridithas.py" "$net.tmp" >/dev/null
    mv "$net.tmp" "$net"
    echo "[net] generated $net in $((SECONDS - start)) s" >&2
fi
net=$(realpath "$net")
[[ $(sha256sum "$net" | cut -d' ' -f1) == "$NET_SHA256" ]] || { echo "$net: sha256 is not $NET_SHA256" >&2; exit 1; }

# A fresh tree of the commit every run; target/ is kept (cargo rebuilds what changed).
mkdir -p "$root"
find "$root" -mindepth 1 -maxdepth 1 ! -name target -exec rm -rf {} +
git -C "$gitdir" archive "$COMMIT" | tar -x -C "$root"
zstd -q -f "$net" -o "$root/viridithas.nnue.zst"
uci="$root/src/uci.rs"
sed -i '/^ *"raweval" => {$/,/println!/ s/^\( *let eval = \)if t\.board\.in_check() {$/\1if false {/' "$uci"
patched=$(grep -A2 '^ *"raweval" => {$' "$uci" | grep -c '^ *let eval = if false {$' || true)
[[ $patched == 1 && $(grep -c 'if false {' "$uci") == 1 ]] \
    || { echo "patching $uci failed (the commit's file is not as expected)" >&2; exit 1; }

echo "[build] RUSTFLAGS=\"-C target-cpu=$target_cpu\" cargo build --release (in $root)" >&2
start=$SECONDS
(cd "$root" && RUSTFLAGS="-C target-cpu=$target_cpu" cargo build --release >&2)
echo "[build] $((SECONDS - start)) s" >&2
exe="$root/target/release/viridithas"

# Runs the engine with a fresh empty TMPDIR (removed afterwards).
run() {
    local tmp status=0
    tmp=$(mktemp -d "$root/tmpdir.XXXXXX")
    TMPDIR="$tmp" "$@" || status=$?
    rm -rf "$tmp"
    return $status
}

nodes=()
for n in 1 2; do
    line=$(run "$exe" bench | grep -E '^[0-9]+ nodes [0-9]+ nps$')
    echo "[bench $n] $line" >&2
    nodes+=("${line%% *}")
done
[[ ${nodes[0]} == "${nodes[1]}" ]] || { echo "the two benches differ" >&2; exit 1; }
[[ ${nodes[0]} == "$BENCH_NODES" ]] || { echo "bench: ${nodes[0]} nodes, want $BENCH_NODES" >&2; exit 1; }

# The UCI driver: one engine process for all FENs, the answer to each `raweval` read before
# the next FEN is sent. The engine's FEN parser rejects a halfmove clock above 100 (two FENs of
# tests/reference/fens.txt have 105 and 106); the network does not read it, so such a FEN is
# sent with 100 there and printed as given. Anything the engine writes on stderr stops the run.
run python3 - "$exe" "$fens" "$root/engine.stderr" <<'EOF'
import re
import subprocess
import sys

exe, fens, errpath = sys.argv[1:]
with open(fens) as f:
    positions = [line.strip() for line in f if line.strip()]
err = open(errpath, "w+")
eng = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=err, text=True)


def value(fen):
    while True:
        line = eng.stdout.readline()
        if not line:
            sys.exit("the engine closed its output")
        line = line.strip()
        if re.fullmatch(r"-?[0-9]+", line):
            break
        if not line.startswith(("Viridithas ", "info string ")):
            sys.exit(f"unexpected engine output: {line}")
    err.seek(0)
    if err.read():
        err.seek(0)
        sys.exit(f"the engine reported, at {fen}: {err.read().strip()}")
    return line


lowered = 0
for fen in positions:
    fields = fen.split()
    if len(fields) >= 5 and fields[4].isdigit() and int(fields[4]) > 100:
        fields[4] = "100"
        lowered += 1
    eng.stdin.write(f"position fen {' '.join(fields)}\nraweval\n")
    eng.stdin.flush()
    print(f"{fen}\t{value(fen)}")
eng.stdin.write("quit\n")
eng.stdin.close()
if eng.wait() != 0:
    sys.exit(f"the engine exited with status {eng.returncode}")
print(f"[raweval] {len(positions)} FENs, {lowered} sent with the halfmove clock lowered to 100",
      file=sys.stderr)
EOF
