#!/usr/bin/env bash
# Stormphrax's own network outputs for tests/reference/bullet/stormphrax-generated.tsv.
#
#   tools/bullet-compare/stormphrax-reference.sh STORMPHRAX_GIT [NET [FENS]] > out.tsv
#
# STORMPHRAX_GIT: a git directory (bare or a checkout) of Ciekce/Stormphrax holding commit
# 2402cae (`git clone https://github.com/Ciekce/Stormphrax`). NET: the uncompressed CBNF net made
# by tools/netgen/stormphrax.py (checked by its sha256); without it, or with `-`, the script
# makes it. FENS: default tests/reference/fens.txt. Prints `fen<TAB>value` per FEN on stdout;
# the log goes to stderr.
#
# Steps: the net generated (or checked) into $BUILD_DIR (outside this repository; default
# ~/.cache/nnue/bullet-builds); `git archive` of the commit into a fresh
# $BUILD_DIR/stormphrax-2402cae-$TYPE/; there `make -j2 $TYPE EVALFILE=<net>` (clang, clang++
# and lld: the build refuses any other compiler and links with -fuse-ld=lld). The build itself
# compiles the engine's tmp/permute-$TYPE, which writes the net with its transformer columns in
# the target's SIMD order, and embeds that copy in the binary (INCBIN): the net is fixed at
# build time. Nothing in the engine is patched.
#
# TYPE is the Makefile's target, default native (-march=native: the SIMD code follows the
# host); avx2-bmi2 is the engine's AVX2 release build (-march=haswell). On an AVX-512 VNNI host
# such as a Zen 4 the two differ in the transformer permutation (groups of 8 in the order
# 0,2,4,6,1,3,5,7 against 0,2,1,3) and in the L1 sums (vpdpbusd against maddubs and madd, which
# cannot saturate since the transformer's outputs are at most 127); with this net both give
# the same file.
#
# Checks: `stormphrax bench` run twice must print the same node count, and that count must be
# BENCH_NODES (measured with this net on both builds on a Zen 4: about 5.5 minutes per bench
# there, the build about 1.5 minutes); every FEN must be accepted (a rejected FEN is reported
# on stderr and leaves the previous position, so the engine must print nothing on stderr), and
# every answer must be one integer. All FENs go to one engine process on stdin: `position fen
# <FEN>`, then `raweval`, then `quit`. `raweval` prints the network's value for the side to
# move (also in check: the engine has no special case), after adding contempt (0 here) and
# clamping to [-24999, 24999]; no value of this net comes near the clamp.
#
# Needs: make, clang, clang++, lld (Debian: `apt-get install clang lld`; clang 14 works),
# python3, sha256sum.
set -euo pipefail

COMMIT=2402cae156a11eb5433e07dd8ec8ed7a9d67b750
NET_SHA256=9efcb675a6d2a79cd84eeca96098010a7e345df4605e512174923c428a953388
BENCH_NODES=158856602
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

(($# >= 1 && $# <= 3)) || { sed -n '2,10p' "$0" >&2; exit 2; }
gitdir=$1
net=${2:--}
fens=$(realpath "${3:-$repo/tests/reference/fens.txt}")
type=${TYPE:-native}
build_dir=$(mkdir -p "${BUILD_DIR:-$HOME/.cache/nnue/bullet-builds}" && cd "${BUILD_DIR:-$HOME/.cache/nnue/bullet-builds}" && pwd)
root="$build_dir/stormphrax-${COMMIT:0:7}-$type"

git -C "$gitdir" cat-file -e "$COMMIT^{commit}" 2>/dev/null || { echo "commit $COMMIT is not in $gitdir" >&2; exit 1; }
for tool in clang clang++ ld.lld make; do
    command -v "$tool" >/dev/null || { echo "$tool not found (Debian: apt-get install clang lld)" >&2; exit 1; }
done
if [[ $type == native && $(uname -m) == x86_64 && $(clang++ -march=native -E -dM - </dev/null) != *__AVX2__* ]]; then
    echo "this CPU has no AVX2: the engine's x86 code needs it" >&2
    exit 2
fi

if [[ $net == - ]]; then
    net="$build_dir/stormphrax-generated.nnue"
    start=$SECONDS
    python3 "$repo/tools/netgen/stormphrax.py" "$net.tmp" >/dev/null
    mv "$net.tmp" "$net"
    echo "[net] generated $net in $((SECONDS - start)) s" >&2
fi
net=$(realpath "$net")
[[ $(sha256sum "$net" | cut -d' ' -f1) == "$NET_SHA256" ]] || { echo "$net: sha256 is not $NET_SHA256" >&2; exit 1; }

# A fresh tree of the commit every run (the build's objects depend on the permuted net).
rm -rf "$root"
mkdir -p "$root"
git -C "$gitdir" archive "$COMMIT" | tar -x -C "$root"

echo "[build] make -j2 $type EVALFILE=$net (in $root; $(clang++ --version | head -n1))" >&2
start=$SECONDS
make -C "$root" -j2 "$type" EVALFILE="$net" >&2
echo "[build] $((SECONDS - start)) s" >&2
exe="$root/stormphrax-$(cat "$root/version.txt")-$type"

nodes=()
for n in 1 2; do
    line=$("$exe" bench quit </dev/null | grep -E '^[0-9]+ nodes [0-9]+ nps$')
    echo "[bench $n] $line" >&2
    nodes+=("${line%% *}")
done
[[ ${nodes[0]} == "${nodes[1]}" ]] || { echo "the two benches differ" >&2; exit 1; }
[[ ${nodes[0]} == "$BENCH_NODES" ]] || { echo "bench: ${nodes[0]} nodes, want $BENCH_NODES" >&2; exit 1; }

# One engine process for all FENs; trailing blanks and empty lines of FENS are dropped.
sed -e 's/[[:space:]]*$//' -e '/^$/d' "$fens" > "$root/fens.txt"
while IFS= read -r fen; do
    printf 'position fen %s\nraweval\n' "$fen"
done < "$root/fens.txt" > "$root/commands.txt"
echo quit >> "$root/commands.txt"
"$exe" < "$root/commands.txt" > "$root/raweval.txt" 2> "$root/engine.stderr"
if [[ -s $root/engine.stderr ]]; then
    echo "the engine reported on stderr ($root/engine.stderr):" >&2
    head -n 5 "$root/engine.stderr" >&2
    exit 1
fi
count=$(wc -l < "$root/fens.txt")
[[ $(wc -l < "$root/raweval.txt") == "$count" ]] && ! grep -qvE '^-?[0-9]+$' "$root/raweval.txt" \
    || { echo "the engine did not print one integer per FEN ($root/raweval.txt)" >&2; exit 1; }
paste "$root/fens.txt" "$root/raweval.txt"
echo "[raweval] $count FENs" >&2
