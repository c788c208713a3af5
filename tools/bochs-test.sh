#!/bin/bash
# Runs test binaries on an emulated x86-64 CPU with AVX-VNNI, or with AVX-512
# and AVX-512 VNNI: Bochs 3.0 (built here from Debian's source package)
# booting Debian's Linux 6.12 with the tests, the nets and the reference
# files in an initramfs. For a machine whose CPU lacks these instructions:
# qemu's TCG has none of them, Bochs has. It checks results, never speed.
#
# Usage: tools/bochs-test.sh ISAS [cargo test arguments...]
#   ISAS: the backends to test, comma-separated: `avx-vnni` (CPU model
#   `arrow_lake`: AVX-VNNI, no AVX-512), or `avx512`, `avx512-vnni` or both
#   (`tigerlake`: AVX-512 F/BW/VL/DQ and VNNI, no AVX-VNNI). The tests see
#   them as NNUE_ONLY_ISAS (tests/support), so they test exactly those, each
#   of which the emulated CPU must have. Bochs 3.0's one model with all
#   three, `sapphire_rapids`, stops at boot ("SMM restore: CR4 consistency
#   check failed"), so AVX-VNNI and AVX-512 take one run each.
#   cargo test arguments: which tests to build, e.g. `-p nnue --test all`
#   (`--no-run`, the target and the release profile are added; the tests to
#   run of a binary go in BOCHS_TEST_ARGS, e.g. `reference::`).
# Environment: NNUE_NETS_DIR (where the nets are; default ~/.cache/nnue/nets,
#   every net there whose SHA-256 tools/nets.tsv lists goes into the guest),
#   BOCHS_DIR (work directory, Bochs's build included; default
#   ${TMPDIR:-/tmp}/nnue-bochs),
#   BOCHS_CPU (the emulated CPU model, instead of the one ISAS implies),
#   BOCHS_BIN (a Bochs to use instead, built without its debugger and with
#   no display library),
#   BOCHS_MEGS (guest memory in MB; default and most 2048),
#   BOCHS_TIMEOUT (seconds; default 5400),
#   BOCHS_NETS (space-separated names of the nets the guest gets; default
#   every net of tools/nets.tsv found in NNUE_NETS_DIR; a test asking for
#   one left out fails in the guest),
#   BOCHS_TEST_ARGS (arguments for every test binary in the guest, e.g. test
#   name filters), NNUE_INCREMENTAL_STEPS (passed on to the guest).
# Exit status: 0 when every test binary in the guest exited 0.
#
# Notes on the setup (found while making it work):
# - Debian 12 packages Bochs 2.7, whose CPU models lack AVX-VNNI; Debian 13
#   has Bochs 3.0, whose source (checked against the SHA-256 of Debian's
#   Sources index) builds here in about 3 minutes: x86-64, AVX, EVEX, no
#   debugger, no display (`nogui`: a terminal display stopped Bochs after
#   some minutes, once its output was no longer read). Bochs 2.7's BIOS
#   (Debian 12's bochsbios) boots it.
# - Bochs 2.7's tigerlake model misreported the XSAVES (compacted) area size
#   and the PKRU state's size; the kernel then disabled XSAVE altogether
#   (no AVX at all). `clearcpuid=xsaves,xsavec,pku,ospke` makes it use the
#   standard format, whose sizes are right: AVX-512 state is enabled.
# - Debian 12's kernel 6.1 hangs under Bochs 2.7 after "LSM: Security
#   Framework initializing"; Debian 12's linux-image-6.12 package boots.
# - The guest's console is the serial port, written to a file.
# - The tests are linked statically (glibc, `+crt-static`): the guest has
#   only busybox.
# - Inside the guest, tests/support's net fetcher (`python3
#   tools/fetch-nets.py`) is a busybox script checking the net's SHA-256
#   against tools/nets.tsv: nothing is fetched, nothing unverified is used.
set -euo pipefail
export DEBIAN_FRONTEND=noninteractive
ISAS=${1:?usage: bochs-test.sh ISAS [cargo test args]}
shift
case ",$ISAS," in
    *,avx-vnni,*) model=arrow_lake; [ "$ISAS" = avx-vnni ] || { echo "avx-vnni takes a run of its own" >&2; exit 2; } ;;
    *) model=tigerlake ;;
esac
REPO=$(cd "$(dirname "$0")/.." && pwd)
NETS=${NNUE_NETS_DIR:-$HOME/.cache/nnue/nets}
WORK=${BOCHS_DIR:-${TMPDIR:-/tmp}/nnue-bochs}
MEGS=${BOCHS_MEGS:-2048}
t0=$SECONDS

need=()
for p in bochsbios vgabios isolinux syslinux-common xorriso busybox-static cpio; do
    dpkg -s "$p" >/dev/null 2>&1 || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
    apt-get update -qq
    apt-get install -y -q --no-install-recommends "${need[@]}" | grep -E '^After this|^Fetched' || true
fi
mkdir -p "$WORK"
# Bochs 3.0 from Debian 13's source package.
BOCHS_VERSION=3.0
BOCHS_SHA256=78f6c73d4a6472d5130a87ab9dc306d02c7c71ed8e25b3a8ef642e2a7acd282b
if [ -z "${BOCHS_BIN:-}" ]; then
    BOCHS_BIN=$WORK/bochs-$BOCHS_VERSION/bochs
    if ! [ -x "$BOCHS_BIN" ]; then
        tarball=bochs_$BOCHS_VERSION+dfsg.orig.tar.xz
        curl -s -f -S -m 300 -o "$WORK/$tarball" "http://deb.debian.org/debian/pool/main/b/bochs/$tarball"
        echo "$BOCHS_SHA256  $WORK/$tarball" | sha256sum -c --quiet
        rm -rf "$WORK/bochs-$BOCHS_VERSION" && tar -x -C "$WORK" -f "$WORK/$tarball"
        (cd "$WORK/bochs-$BOCHS_VERSION" \
            && ./configure -q --enable-x86-64 --enable-avx --enable-evex --enable-all-optimizations \
                --with-nogui --disable-docbook > configure.log \
            && make -s -j"$(nproc)" > make.log 2>&1) || { echo "building Bochs failed (see $WORK/bochs-$BOCHS_VERSION)" >&2; exit 1; }
    fi
fi
# The newest Linux 6.12 image in the package index, unpacked (not installed).
if ! [ -f "$WORK/vmlinuz" ]; then
    newest() { apt-cache search --names-only '^linux-image-6\.12\.[0-9.]+\+deb12-amd64$' | awk '{print $1}' | sort -V | tail -1; }
    pkg=$(newest)
    [ -n "$pkg" ] || { apt-get update -qq; pkg=$(newest); }
    [ -n "$pkg" ] || { echo "no linux-image-6.12 package in the index" >&2; exit 1; }
    rm -rf "$WORK/kernel" && mkdir -p "$WORK/kernel"
    (cd "$WORK/kernel" && apt-get download -q "$pkg" 2>&1 | grep -v unsandboxed || true)
    dpkg-deb --fsys-tarfile "$WORK"/kernel/*.deb | tar -x -C "$WORK/kernel" --wildcards './boot/vmlinuz-*'
    cp "$WORK"/kernel/boot/vmlinuz-* "$WORK/vmlinuz"
    rm -rf "$WORK/kernel"
fi
echo "tools ready: $((SECONDS - t0))s"

# The test binaries, statically linked (the target is named so that the
# flags reach only the tests, not build scripts and proc macros).
export CARGO_TARGET_DIR=${CARGO_TARGET_DIR:-$REPO/target/bochs}
export CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUSTFLAGS="-C target-feature=+crt-static"
mapfile -t tests < <(cd "$REPO" && cargo test --release --no-run --target x86_64-unknown-linux-gnu --message-format=json "$@" \
    | python3 -c 'import json,sys
for line in sys.stdin:
    m = json.loads(line)
    if m.get("reason") == "compiler-artifact" and m.get("executable") and m["profile"]["test"]:
        print(m["executable"])')
[ ${#tests[@]} -gt 0 ] || { echo "no test binary built" >&2; exit 1; }
echo "built ${#tests[@]} test binaries: $((SECONDS - t0))s"

# The guest's root: busybox, the tests, the nets, and the repository files the
# tests read, at the same absolute paths as here (the tests find the
# repository by the path they were compiled in).
ROOT=$WORK/root
rm -rf "$ROOT" && mkdir -p "$ROOT"/{bin,proc,sys,dev,tmp,tests,nets}
cp /bin/busybox "$ROOT/bin/"
for c in sh mount poweroff echo cat grep tr sha256sum; do ln -s busybox "$ROOT/bin/$c"; done
mkdir -p "$ROOT$REPO/tools" "$ROOT$REPO/tests/nets"
cp "$REPO/tools/fetch-nets.py" "$REPO/tools/nets.tsv" "$ROOT$REPO/tools/"
cp -r "$REPO/tests/reference" "$ROOT$REPO/tests/"
cp -r "$REPO/tests/nets/bullet" "$ROOT$REPO/tests/nets/"
# BOCHS_NETS, when set, names the nets the guest gets (possibly none): every
# net makes the image larger and the emulated boot slower (about 700 MB with
# all of them).
grep -v '^#' "$REPO/tools/nets.tsv" | awk -F'\t' 'NR > 1 {print $1, $3}' | while read -r name sha; do
    if [ -n "${BOCHS_NETS+set}" ] && [[ " $BOCHS_NETS " != *" $name "* ]]; then continue; fi
    if [ -f "$NETS/$name" ]; then cp "$NETS/$name" "$ROOT/nets/"; echo "$sha  /nets/$name" >> "$ROOT/nets/SHA256SUMS"; fi
done
for t in "${tests[@]}"; do cp "$t" "$ROOT/tests/"; done
# The net fetcher of tests/support, in the guest: verify, never fetch.
cat > "$ROOT/bin/python3" <<'EOF'
#!/bin/sh
# python3 tools/fetch-nets.py --dest DIR NAME: checks /nets/NAME's SHA-256.
name=$4
grep "  /nets/$name\$" /nets/SHA256SUMS | sha256sum -c -s || { echo "net $name missing or not verified" >&2; exit 1; }
EOF
chmod +x "$ROOT/bin/python3"
cat > "$ROOT/init" <<EOF
#!/bin/sh
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
export PATH=/bin NNUE_NETS_DIR=/nets NNUE_ONLY_ISAS=$ISAS RUST_TEST_THREADS=1 RUST_BACKTRACE=1
${NNUE_INCREMENTAL_STEPS:+export NNUE_INCREMENTAL_STEPS=$NNUE_INCREMENTAL_STEPS}
echo "=== guest: \$(grep -m1 'model name' /proc/cpuinfo)"
echo "=== guest flags: \$(grep -m1 '^flags' /proc/cpuinfo | grep -o -w -E 'avx2|avx512f|avx512bw|avx512vl|avx512_vnni|avx_vnni' | tr '\n' ' ')"
for t in /tests/*; do
    echo "=== run \$t"
    \$t --test-threads=1 --nocapture ${BOCHS_TEST_ARGS:-}
    echo "=== exit \$? \$t"
done
echo "=== guest done"
poweroff -f
EOF
chmod +x "$ROOT/init"

ISO=$WORK/iso
rm -rf "$ISO" && mkdir -p "$ISO/isolinux"
(cd "$ROOT" && find . | cpio -o -H newc --quiet) > "$ISO/initrd"
cp "$WORK/vmlinuz" "$ISO/vmlinuz"
cp /usr/lib/ISOLINUX/isolinux.bin /usr/lib/syslinux/modules/bios/ldlinux.c32 "$ISO/isolinux/"
cat > "$ISO/isolinux/isolinux.cfg" <<'EOF'
DEFAULT linux
PROMPT 0
TIMEOUT 0
LABEL linux
  KERNEL /vmlinuz
  INITRD /initrd
  APPEND console=ttyS0,115200 loglevel=3 nokaslr mitigations=off nosmp lpj=4000000 tsc=reliable clearcpuid=xsaves,xsavec,pku,ospke
EOF
xorriso -as mkisofs -quiet -o "$WORK/boot.iso" -b isolinux/isolinux.bin -c isolinux/boot.cat \
    -no-emul-boot -boot-load-size 4 -boot-info-table "$ISO" 2>&1 | grep -v RockRidge || true
rm -rf "$ISO" "$ROOT"
echo "guest image $(du -h "$WORK/boot.iso" | cut -f1): $((SECONDS - t0))s"

# The LGPL VGA BIOS: Debian's bochs package links it as
# VGABIOS-lgpl-latest, which bochsbios does not ship; the vgabios package
# (installed above) has it as vgabios.bin.
vgabios=/usr/share/bochs/VGABIOS-lgpl-latest
[ -e "$vgabios" ] || vgabios=/usr/share/vgabios/vgabios.bin
cat > "$WORK/bochsrc" <<EOF
memory: guest=$MEGS, host=$MEGS
cpu: model=${BOCHS_CPU:-$model}, count=1, ips=50000000
romimage: file=/usr/share/bochs/BIOS-bochs-latest
vgaromimage: file=$vgabios
ata0-master: type=cdrom, path=$WORK/boot.iso, status=inserted
boot: cdrom
display_library: nogui
com1: enabled=1, mode=file, dev=$WORK/serial.out
log: $WORK/bochs.log
panic: action=fatal
error: action=ignore
info: action=ignore
clock: sync=none
EOF
rm -f "$WORK/serial.out"
t1=$SECONDS
timeout "${BOCHS_TIMEOUT:-5400}" "$BOCHS_BIN" -q -f "$WORK/bochsrc" > "$WORK/bochs.out" 2>&1 < /dev/null || true
echo "bochs: $((SECONDS - t1))s"
if [ -f "$WORK/serial.out" ]; then
    grep -v '^\[' "$WORK/serial.out" | grep -v -E '^(Probing EDD|KASLR|Poking KASLR|$)' || true
fi
grep -q '^=== guest done' "$WORK/serial.out" 2>/dev/null || {
    echo "the guest did not finish (its console: $WORK/serial.out, if Bochs wrote it); the end of Bochs's own output:" >&2
    tail -n 5 "$WORK/bochs.out" >&2
    exit 1
}
runs=$(grep -c '^=== exit ' "$WORK/serial.out")
failed=$(grep '^=== exit ' "$WORK/serial.out" | grep -v -c '^=== exit 0 ' || true)
[ "$runs" -eq ${#tests[@]} ] || { echo "$runs of ${#tests[@]} test binaries ran" >&2; exit 1; }
[ "$failed" -eq 0 ] || { echo "$failed test binaries failed" >&2; exit 1; }
echo "all ${#tests[@]} test binaries passed on the emulated CPU ($ISAS): $((SECONDS - t0))s"
