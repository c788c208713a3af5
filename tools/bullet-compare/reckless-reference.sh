#!/usr/bin/env bash
# Reckless's own network outputs for tests/reference/bullet/reckless-v30-863f1172.tsv.
#
#   tools/bullet-compare/reckless-reference.sh RECKLESS_GIT NET [FENS] > out.tsv
#
# RECKLESS_GIT: a git directory (bare or a checkout) of codedeliveryservice/Reckless
# holding commit e8bbd18 (`git clone https://github.com/codedeliveryservice/Reckless`).
# NET: v30-863f1172.nnue (checked by its sha256). FENS: default tests/reference/fens.txt.
# Prints `fen<TAB>output` per FEN on stdout; the log goes to stderr.
#
# Steps: `git archive` of the commit into $BUILD_DIR/reckless-<commit>/ (outside this
# repository; default ~/.cache/nnue/bullet-builds), the net copied in as
# networks/v30-863f1172.nnue (where Reckless's build script looks; it downloads the net
# only when that file is missing), harness/reckless_reference.rs copied in as
# src/nnue_reference.rs, src/main.rs patched (`mod nnue_reference;` and a branch running
# it when the first argument is `nnuereference`), then Reckless's Makefile flags without
# PGO: `RUSTFLAGS=-Ctarget-cpu=$TARGET_CPU cargo build --release --locked` (its release
# profile: fat LTO, one codegen unit, panic=abort; so i16/i32 adds wrap as in the engine).
# TARGET_CPU defaults to native (AVX2 code where the CPU has it); x86-64-v2 selects the
# engine's SSSE3 code. Before dumping, `reckless bench` must print `Bench: 1919539 nodes`
# (the bench of the commit's message).
#
# Needs: cargo, clang and libclang (Fathom's C code and bindgen; on Debian
# `apt-get install clang libclang-dev`), sha256sum.
set -euo pipefail

COMMIT=e8bbd1817dd24f53dc832aa192ef34332a52f188
NET_SHA256=863f117249cdb0d0a70a71a385643d7bfea3725a78571950d4e8b4f1a17cd221
BENCH="Bench: 1919539 nodes"
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)

(($# >= 2 && $# <= 3)) || { sed -n '2,9p' "$0" >&2; exit 2; }
gitdir=$1
net=$2
fens=$(realpath "${3:-$repo/tests/reference/fens.txt}")
target_cpu=${TARGET_CPU:-native}
build_dir=${BUILD_DIR:-$HOME/.cache/nnue/bullet-builds}
root="$build_dir/reckless-${COMMIT:0:7}-$target_cpu"

[[ $(sha256sum "$net" | cut -d' ' -f1) == "$NET_SHA256" ]] || { echo "$net: sha256 is not $NET_SHA256" >&2; exit 1; }
git -C "$gitdir" cat-file -e "$COMMIT^{commit}" 2>/dev/null || { echo "commit $COMMIT is not in $gitdir" >&2; exit 1; }

# A fresh tree of the commit every run; target/ is kept (cargo rebuilds what changed).
mkdir -p "$root"
find "$root" -mindepth 1 -maxdepth 1 ! -name target -exec rm -rf {} +
git -C "$gitdir" archive "$COMMIT" | tar -x -C "$root"
mkdir -p "$root/networks"
cp "$net" "$root/networks/v30-863f1172.nnue"
cp "$here/harness/reckless_reference.rs" "$root/src/nnue_reference.rs"
main="$root/src/main.rs"
sed -i 's/^mod nnue;$/mod nnue;\nmod nnue_reference;/' "$main"
sed -i 's/^\( *\)Some("bench") => /\1Some("nnuereference") => nnue_reference::run(),\n&/' "$main"
grep -q '^mod nnue_reference;$' "$main" && grep -q 'Some("nnuereference") => nnue_reference::run(),' "$main" \
    || { echo "patching $main failed (the commit's main.rs is not as expected)" >&2; exit 1; }

echo "[build] RUSTFLAGS=-Ctarget-cpu=$target_cpu cargo build --release --locked (in $root)" >&2
(cd "$root" && RUSTFLAGS="-Ctarget-cpu=$target_cpu" cargo build --release --locked >&2)
exe="$root/target/release/reckless"

bench=$("$exe" bench | grep '^Bench: ')
echo "[bench] $bench" >&2
[[ $bench == "$BENCH "* ]] || { echo "bench differs: want \`$BENCH\`" >&2; exit 1; }

"$exe" nnuereference dump "$fens"
