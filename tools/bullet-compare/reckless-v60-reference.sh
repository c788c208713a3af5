#!/usr/bin/env bash
# Reckless's own network outputs for tests/reference/bullet/reckless-v60-generated.tsv.
#
#   tools/bullet-compare/reckless-v60-reference.sh RECKLESS_GIT [NET [FENS]] > out.tsv
#
# RECKLESS_GIT: a git directory (bare or a checkout) of codedeliveryservice/Reckless holding
# commit 789de89 (`git clone https://github.com/codedeliveryservice/Reckless`). NET: the net
# made by tools/netgen/reckless_v60.py (checked by its sha256); without it, or with `-`, the
# script makes it. FENS: default tests/reference/fens.txt. Prints `fen<TAB>output` per FEN on
# stdout; the log goes to stderr.
#
# Steps: the net generated (or checked) into $BUILD_DIR (outside this repository; default
# ~/.cache/nnue/bullet-builds); `git archive` of the commit into
# $BUILD_DIR/reckless-789de89-$TARGET_CPU/; harness/reckless_v60_reference.rs copied in as
# src/nnue_reference.rs, src/lib.rs patched (`pub mod nnue_reference;`) and src/main.rs
# patched (the first argument `nnuereference` runs it); then
# `EVALFILE=<net> RUSTFLAGS=-Ctarget-cpu=$TARGET_CPU cargo build --release --locked` (Reckless
# embeds the net named by EVALFILE with include_bytes!; its release profile: fat LTO, one
# codegen unit, panic=abort, no overflow checks, so i16 sums wrap as in the engine). The
# default feature `syzygy` needs clang and libclang (Fathom's C code and bindgen); without them
# the build uses --no-default-features (SYZYGY=yes or SYZYGY=no forces the choice). Tablebases
# play no part in the network or in `bench`.
#
# TARGET_CPU defaults to native. On x86-64 it selects Reckless's code paths at compile time:
# x86-64-v4 or native with AVX-512 VNNI: the exact i32 L1 sums (vpdpbusd); x86-64-v3: AVX2
# (i16 partial sums of four products); x86-64: the scalar code. With this net all three give
# the same file (the net keeps every four-product sum within i16).
#
# Checks before the dump: `reckless bench` run twice must print the same node count, and that
# count must be BENCH_NODES (measured with this net on the three builds above; with a random
# net the search is far larger than with the release net: about 3 minutes per bench on a
# Zen 4 core with SIMD, 12 with the scalar build); `reckless nnuereference walk FENS
# $WALK_PLIES` (default 6) must find every incremental evaluation equal to a full refresh (its
# output, the FENs reached and their values, is left in the build directory as walk.tsv).
#
# Needs: cargo, python3, sha256sum; clang and libclang for the syzygy feature only.
set -euo pipefail

COMMIT=789de8912672360030d2dae2263292fd37575ae3
NET_SHA256=b31139955a82d5da4786edc259884e2a3d322700fd2c33c3a336cf0eea234c3c
BENCH_NODES=109749604
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

(($# >= 1 && $# <= 3)) || { sed -n '2,10p' "$0" >&2; exit 2; }
gitdir=$1
net=${2:--}
fens=$(realpath "${3:-$repo/tests/reference/fens.txt}")
target_cpu=${TARGET_CPU:-native}
build_dir=${BUILD_DIR:-$HOME/.cache/nnue/bullet-builds}
mkdir -p "$build_dir"
build_dir=$(cd "$build_dir" && pwd)
root="$build_dir/reckless-${COMMIT:0:7}-$target_cpu"

git -C "$gitdir" cat-file -e "$COMMIT^{commit}" 2>/dev/null || { echo "commit $COMMIT is not in $gitdir" >&2; exit 1; }

if [[ $net == - ]]; then
    net="$build_dir/reckless-v60-generated.nnue"
    start=$SECONDS
    python3 "$repo/tools/netgen/reckless_v60.py" "$net.tmp" >/dev/null
    mv "$net.tmp" "$net"
    echo "[net] generated $net in $((SECONDS - start)) s" >&2
fi
net=$(realpath "$net")
[[ $(sha256sum "$net" | cut -d' ' -f1) == "$NET_SHA256" ]] || { echo "$net: sha256 is not $NET_SHA256" >&2; exit 1; }

features=()
case ${SYZYGY:-auto} in
    yes) ;;
    no) features=(--no-default-features) ;;
    auto)
        if ! command -v clang >/dev/null || ! { [[ -n ${LIBCLANG_PATH:-} ]] || ldconfig -p | grep -qE 'libclang(-[0-9.]+)?\.so'; }; then
            echo "[build] clang or libclang not found: building without the syzygy feature" >&2
            features=(--no-default-features)
        fi ;;
    *) echo "SYZYGY must be yes, no or auto" >&2; exit 2 ;;
esac

# A fresh tree of the commit every run; target/ is kept (cargo rebuilds what changed).
mkdir -p "$root"
find "$root" -mindepth 1 -maxdepth 1 ! -name target -exec rm -rf {} +
git -C "$gitdir" archive "$COMMIT" | tar -x -C "$root"
cp "$here/harness/reckless_v60_reference.rs" "$root/src/nnue_reference.rs"
lib="$root/src/lib.rs"
main="$root/src/main.rs"
sed -i 's/^mod nnue;$/mod nnue;\npub mod nnue_reference;/' "$lib"
sed -i 's/^\( *\)let buffer = std::env::args().skip(1).collect();$/\1if std::env::args().nth(1).as_deref() == Some("nnuereference") {\n\1    return reckless::nnue_reference::run();\n\1}\n&/' "$main"
grep -q '^pub mod nnue_reference;$' "$lib" && grep -q 'return reckless::nnue_reference::run();' "$main" \
    || { echo "patching $lib or $main failed (the commit's files are not as expected)" >&2; exit 1; }

echo "[build] EVALFILE=$net RUSTFLAGS=-Ctarget-cpu=$target_cpu cargo build --release --locked ${features[*]} (in $root)" >&2
start=$SECONDS
(cd "$root" && EVALFILE="$net" RUSTFLAGS="-Ctarget-cpu=$target_cpu" cargo build --release --locked "${features[@]}" >&2)
echo "[build] $((SECONDS - start)) s" >&2
exe="$root/target/release/reckless"

nodes=()
for run in 1 2; do
    line=$("$exe" bench | grep '^Bench: ')
    echo "[bench $run] $line" >&2
    nodes+=("$(echo "$line" | cut -d' ' -f2)")
done
[[ ${nodes[0]} == "${nodes[1]}" ]] || { echo "the two benches differ" >&2; exit 1; }
[[ ${nodes[0]} == "$BENCH_NODES" ]] || { echo "bench: ${nodes[0]} nodes, want $BENCH_NODES" >&2; exit 1; }

"$exe" nnuereference walk "$fens" "${WALK_PLIES:-6}" > "$root/walk.tsv"
"$exe" nnuereference dump "$fens"
