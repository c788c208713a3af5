#!/bin/bash
# Cross-compiles the tests for aarch64-unknown-linux-gnu and runs them under
# qemu user emulation (this machine is x86-64). rustup cannot add the aarch64
# target here, so the cross build uses Debian's rustc-web toolchain and its
# aarch64 standard library (unpacked from the .deb into a sysroot, not
# installed: an arm64 libc6 would make qemu mix two glibc builds).
#
# Usage: tools/cross-test-aarch64.sh QEMU_CPU [cargo test arguments...]
#   QEMU_CPU: max (has the dot-product extension) or cortex-a72 (has not).
# Environment: SYSROOT (where the aarch64 std goes), NNUE_EXPECT_ISAS (the
# backends the tests must find, checked by tests/support).
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
CPU=${1:?usage: cross-test-aarch64.sh QEMU_CPU [cargo test args]}
shift
SYSROOT=${SYSROOT:-${TMPDIR:-/tmp}/aarch64-sysroot}
t0=$SECONDS
if ! command -v qemu-aarch64 >/dev/null || ! [ -x /usr/bin/rustc ] || ! command -v aarch64-linux-gnu-gcc >/dev/null \
    || ! dpkg -s libc6-dev-arm64-cross >/dev/null 2>&1; then
    dpkg --add-architecture arm64          # only so apt can see the arm64 package index
    apt-get update -qq
    apt-get install -y -q --no-install-recommends \
        rustc-web cargo-web gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user | grep -E 'Need to get|^After this|^Fetched' || true
fi
V=$(dpkg-query -W -f='${Version}' libstd-rust-web-dev:amd64)   # the arm64 std must be the exact same build
if ! [ -f "$SYSROOT/.version" ] || [ "$(cat "$SYSROOT/.version")" != "$V" ]; then
    rm -rf "$SYSROOT" && mkdir -p "$SYSROOT"
    (cd "$SYSROOT" && apt-get download -q "libstd-rust-web-dev:arm64=$V" 2>&1 | grep -v unsandboxed || true)
    dpkg-deb -x "$SYSROOT"/libstd-rust-web-dev_*_arm64.deb "$SYSROOT" && rm "$SYSROOT"/libstd-rust-web-dev_*_arm64.deb
    echo "$V" > "$SYSROOT/.version"
fi
echo "toolchain ready: $((SECONDS - t0))s"

# rustup's 1.95 comes first on PATH and cannot use the 1.96 std: name Debian's.
export RUSTC=/usr/bin/rustc RUSTDOC=/usr/bin/rustdoc
export RUSTUP_TOOLCHAIN=
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_LINKER=aarch64-linux-gnu-gcc
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUSTFLAGS="--sysroot=$SYSROOT/usr"   # target only; host proc-macros use /usr
export RUSTDOCFLAGS="--sysroot=$SYSROOT/usr"
export CARGO_TARGET_AARCH64_UNKNOWN_LINUX_GNU_RUNNER="qemu-aarch64 -cpu $CPU -L /usr/aarch64-linux-gnu"
# A separate target directory: Debian's rustc must not share artefacts with rustup's.
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-target/cross}
t1=$SECONDS
/usr/bin/cargo test --target aarch64-unknown-linux-gnu "$@"
echo "aarch64 tests under qemu -cpu $CPU: $((SECONDS - t1))s (total $((SECONDS - t0))s)"
