#!/usr/bin/env bash
# Fails if an optimised binary holds SIMD intrinsics as functions of their
# own. Every kernel must be inlined into a function compiled for its
# instruction set (`#[target_feature]`); where one is not, each intrinsic
# becomes a call (correct, but a forward pass then runs many times slower).
# Only CPU-detection intrinsics may stay out of line.
#
# Usage: tools/check-inlined-kernels.sh BINARY   (a release build, e.g.
# target/release/nnue; a dev build is not inlined and would fail)
set -euo pipefail
bin=${1:?usage: check-inlined-kernels.sh BINARY}
outlined=$(nm -C "$bin" | awk '$3 ~ /^core::core_arch::/ && $3 !~ /::(_xgetbv|__cpuid|__cpuid_count|has_cpuid)$/ { print $1, $3 }')
if [[ -z $outlined ]]; then
    echo "inlined kernels: no SIMD intrinsic out of line in $bin"
    exit 0
fi
echo "SIMD intrinsics out of line in $bin, and the functions calling them:" >&2
dis=$(objdump -d --no-show-raw-insn -C "$bin")
while read -r address name; do
    callers=$(awk -v a="${address##+(0)}" 'BEGIN { sub(/^0+/, "", a) }
        /^[0-9a-f]+ <.*>:$/ { fn = substr($0, index($0, "<") + 1); sub(/>:$/, "", fn) }
        $0 ~ ("(call|jmp)[a-z]* +" a " ") { print fn }' <<<"$dis" | sort -u | tr '\n' ' ')
    echo "  $name <- $callers" >&2
done <<<"$outlined"
exit 1
