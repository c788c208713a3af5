//! AVX-512 VNNI: `vpdpbusd` on 512-bit registers, and on 256-bit registers
//! (with AVX-512VL) for layers too narrow for 512.

use crate::simd::Dot;
use core::arch::x86_64::*;
use core::sync::atomic::{AtomicU8, Ordering};

/// 512-bit dot products with AVX-512 VNNI.
#[derive(Clone, Copy)]
pub struct Avx512VnniDot;

// SAFETY: every method uses AVX-512 F/BW/VNNI only; callers guarantee them.
unsafe impl Dot for Avx512VnniDot {
    dot_registers!(512);
    const SETS: usize = 4;

    #[inline(always)]
    unsafe fn dot4(acc: __m512i, x: u32, w: *const i8) -> __m512i {
        // SAFETY: the caller guarantees 64 readable weight bytes and AVX-512 VNNI.
        unsafe { _mm512_dpbusd_epi32(acc, _mm512_set1_epi32(x as i32), _mm512_loadu_si512(w.cast())) }
    }
    const LANE_BLOCKS: bool = true;
    #[inline(always)]
    fn lane_blocks() -> bool {
        lane_blocks_pay()
    }
    #[inline(always)]
    unsafe fn dot4_lane(acc: __m512i, values: __m512i, k: usize, w: *const i8) -> __m512i {
        // The lane number hidden from LLVM (an empty `asm!`), or it turns
        // the permute of a loaded register back into a broadcast load.
        let mut k = k as u32;
        // SAFETY: the statement is empty.
        unsafe { core::arch::asm!("/* {0:e} */", inout(reg) k, options(pure, nomem, nostack, preserves_flags)) };
        // SAFETY: the caller guarantees 64 readable weight bytes and AVX-512 VNNI.
        unsafe {
            let x = _mm512_permutexvar_epi32(_mm512_set1_epi32(k as i32), values);
            _mm512_dpbusd_epi32(acc, x, _mm512_loadu_si512(w.cast()))
        }
    }
    #[inline(always)]
    unsafe fn dot(acc: __m512i, x: *const u8, w: *const i8) -> __m512i {
        // SAFETY: the caller guarantees 64 readable bytes at `x` and `w`, and AVX-512 VNNI.
        unsafe { _mm512_dpbusd_epi32(acc, _mm512_loadu_si512(x.cast()), _mm512_loadu_si512(w.cast())) }
    }
}

/// The CPU's vendor for [`lane_blocks_pay`]: 0 not read yet, 1 AMD, 2
/// another.
static VENDOR: AtomicU8 = AtomicU8::new(0);

/// Makes the sparse column kernel take its sixteen-entry blocks, or not,
/// whatever the CPU: for tests of both forms on any CPU (the sums are the
/// same either way, so tests running meanwhile are not disturbed).
#[cfg(test)]
pub(crate) fn set_lane_blocks(on: bool) {
    VENDOR.store(if on { 1 } else { 2 }, Ordering::Relaxed);
}

/// Whether the sparse column kernel's sixteen-entry blocks
/// ([`Dot::LANE_BLOCKS`]) pay on this CPU: on AMD's, not on Intel's. A
/// block broadcasts each value from a loaded register by a permute and
/// splits the indices in general registers, where otherwise each value is
/// a broadcast load. In interleaved A/B runs of `nnue bench`, Stockfish
/// 19's first layer (32 outputs): on a Zen 5 the blocks took forward to
/// 0.933 and eval to 0.928 (commit cbf4f04); on an Intel Xeon (family 6
/// model 167), three runs of 11 rounds, going without them took forward
/// (`forward_listed`) to 0.88-0.91 and eval (accumulators ready) to
/// 0.84-0.86, 10 or 11 of 11 rounds faster; 18's net (one register)
/// unchanged. There the permutes and index extracts cost more than the
/// loads; eval gains more than forward, likely because its block loads
/// (64 bytes of values, 16 of indices) span several of the overlapping
/// compressed stores the transformer has just made, which cannot forward
/// to them, where a 4-byte broadcast lies in one store. CPUID's vendor, read
/// once: the test inlined into the kernel (a load and a compare), the
/// CPUID outside it (a call there spilled the kernel's registers: eval
/// 1.06).
#[inline(always)]
fn lane_blocks_pay() -> bool {
    #[cold]
    #[inline(never)]
    fn read() -> bool {
        let id = __cpuid(0);
        // "AuthenticAMD" in EBX, EDX, ECX.
        let amd = (id.ebx, id.edx, id.ecx) == (0x6874_7541, 0x6974_6E65, 0x444D_4163);
        VENDOR.store(if amd { 1 } else { 2 }, Ordering::Relaxed);
        amd
    }
    match VENDOR.load(Ordering::Relaxed) {
        0 => read(),
        vendor => vendor == 1,
    }
}

/// 256-bit dot products with AVX-512 VNNI and VL.
#[derive(Clone, Copy)]
pub struct Avx512VnniDot256;

// SAFETY: every method uses AVX2 and AVX-512 VNNI/VL only; callers guarantee them.
unsafe impl Dot for Avx512VnniDot256 {
    dot_registers!(256);
    const SETS: usize = 4;

    #[inline(always)]
    unsafe fn dot4(acc: __m256i, x: u32, w: *const i8) -> __m256i {
        // SAFETY: the caller guarantees 32 readable weight bytes, AVX-512 VNNI and VL.
        unsafe { _mm256_dpbusd_epi32(acc, _mm256_set1_epi32(x as i32), _mm256_loadu_si256(w.cast())) }
    }
    #[inline(always)]
    unsafe fn dot(acc: __m256i, x: *const u8, w: *const i8) -> __m256i {
        // SAFETY: the caller guarantees 32 readable bytes at `x` and `w`, AVX-512 VNNI and VL.
        unsafe { _mm256_dpbusd_epi32(acc, _mm256_loadu_si256(x.cast()), _mm256_loadu_si256(w.cast())) }
    }
}
