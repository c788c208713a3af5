#!/bin/bash
# Runs the unsafe-heavy tests (SIMD kernels, loader, accumulators) under
# AddressSanitizer (the installed nightly's -Zsanitizer=address) and a subset
# under valgrind memcheck. Miri cannot be installed here.
#
# valgrind hides AVX-512 from the program (its CPUID has none), so under
# memcheck the backends are scalar and AVX2; ASan runs every backend.
#
# Usage: tools/sanitize.sh [asan|valgrind|all]   (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
host=x86_64-unknown-linux-gnu
# Fewer incremental steps: the instrumented code is several times slower.
export NNUE_INCREMENTAL_STEPS=${NNUE_INCREMENTAL_STEPS:-5000}

if [[ $what == asan || $what == all ]]; then
    # --target keeps the sanitizer off the host proc-macros; a separate target
    # directory keeps the instrumented build apart.
    RUSTFLAGS="-Zsanitizer=address" RUSTDOCFLAGS="-Zsanitizer=address" ASAN_OPTIONS=detect_leaks=1 \
        CARGO_TARGET_DIR=target/asan cargo +nightly test --target $host -p nnue-runtime -p nnue --lib
    # The modules of the `all` test binary (tests/all/) that exercise them.
    RUSTFLAGS="-Zsanitizer=address" RUSTDOCFLAGS="-Zsanitizer=address" ASAN_OPTIONS=detect_leaks=1 \
        CARGO_TARGET_DIR=target/asan cargo +nightly test --target $host -p nnue --test all \
        -- backends:: net_errors:: incremental:: reference::
fi

if [[ $what == valgrind || $what == all ]]; then
    # Release-like test binaries (the dev profile optimises the runtime) under
    # memcheck: the runtime's unit tests, and of the `all` test binary the
    # malformed-net tests and the stack on random nets with a short walk.
    CARGO_TARGET_DIR=target/valgrind cargo test --no-run -p nnue-runtime -p nnue --lib --test all 2>&1 |
        grep -o 'target/valgrind/debug/deps/[^ )]*' | sort -u | while read -r bin; do
            filter=()
            [[ $(basename "$bin") == all-* ]] && filter=(net_errors:: incremental::)
            echo "valgrind $bin ${filter[*]}"
            NNUE_INCREMENTAL_STEPS=300 valgrind --quiet --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite \
                "$bin" --test-threads=1 -q "${filter[@]}"
        done
fi
