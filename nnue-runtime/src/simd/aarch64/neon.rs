//! NEON: 8 i16 accumulator lanes per register; u8 x i8 dot products by
//! widening multiplies (`smull`) and pairwise additions (`saddlp`, `addp`).

use crate::simd::{Dot, Lanes};
use core::arch::aarch64::*;

/// 128-bit accumulator registers.
#[derive(Clone, Copy)]
pub struct NeonLanes;

/// Two registers of four i32: the eight PSQT buckets.
#[derive(Clone, Copy)]
pub struct Psqt(int32x4_t, int32x4_t);

// SAFETY: every method uses NEON instructions only; callers guarantee NEON.
unsafe impl Lanes for NeonLanes {
    type V = int16x8_t;
    type P = Psqt;
    const LANES: usize = 8;

    #[inline(always)]
    unsafe fn load(p: *const i16) -> int16x8_t {
        // SAFETY: the caller guarantees 8 readable lanes and NEON.
        unsafe { vld1q_s16(p) }
    }
    #[inline(always)]
    unsafe fn load_i8(p: *const i8) -> int16x8_t {
        // SAFETY: the caller guarantees 8 readable bytes and NEON.
        unsafe { vmovl_s8(vld1_s8(p)) }
    }
    #[inline(always)]
    unsafe fn store(p: *mut i16, v: int16x8_t) {
        // SAFETY: the caller guarantees 8 writable lanes and NEON.
        unsafe { vst1q_s16(p, v) }
    }
    #[inline(always)]
    unsafe fn add(a: int16x8_t, b: int16x8_t) -> int16x8_t {
        // SAFETY: the caller guarantees NEON.
        unsafe { vaddq_s16(a, b) }
    }
    #[inline(always)]
    unsafe fn sub(a: int16x8_t, b: int16x8_t) -> int16x8_t {
        // SAFETY: the caller guarantees NEON.
        unsafe { vsubq_s16(a, b) }
    }
    #[inline(always)]
    unsafe fn clamp(v: int16x8_t, max: i16) -> int16x8_t {
        // SAFETY: the caller guarantees NEON.
        unsafe { vmaxq_s16(vminq_s16(v, vdupq_n_s16(max)), vdupq_n_s16(0)) }
    }
    #[inline(always)]
    unsafe fn min(v: int16x8_t, max: i16) -> int16x8_t {
        // SAFETY: the caller guarantees NEON.
        unsafe { vminq_s16(v, vdupq_n_s16(max)) }
    }
    #[inline(always)]
    unsafe fn mulhi_signed_shifted<const SHL: i32>(a: int16x8_t, b: int16x8_t) -> int16x8_t {
        // SAFETY: the caller guarantees NEON. The full 32-bit products,
        // shifted right by 16 and narrowed: the high halves.
        unsafe {
            let a = vshlq_n_s16::<SHL>(a);
            let low = vmull_s16(vget_low_s16(a), vget_low_s16(b));
            let high = vmull_high_s16(a, b);
            vcombine_s16(vshrn_n_s32::<16>(low), vshrn_n_s32::<16>(high))
        }
    }
    #[inline(always)]
    unsafe fn mulhi_shifted<const SHL: i32>(a: int16x8_t, b: int16x8_t) -> int16x8_t {
        // SAFETY: the caller guarantees NEON. As above, on unsigned lanes.
        unsafe {
            let a = vreinterpretq_u16_s16(vshlq_n_s16::<SHL>(a));
            let b = vreinterpretq_u16_s16(b);
            let low = vmull_u16(vget_low_u16(a), vget_low_u16(b));
            let high = vmull_high_u16(a, b);
            vreinterpretq_s16_u16(vcombine_u16(vshrn_n_u32::<16>(low), vshrn_n_u32::<16>(high)))
        }
    }
    #[inline(always)]
    unsafe fn mullo_shifted<const SHR: i32>(a: int16x8_t, b: int16x8_t) -> int16x8_t {
        // SAFETY: the caller guarantees NEON.
        unsafe { vreinterpretq_s16_u16(vshrq_n_u16::<SHR>(vreinterpretq_u16_s16(vmulq_s16(a, b)))) }
    }
    #[inline(always)]
    unsafe fn pack_store(p: *mut u8, a: int16x8_t, b: int16x8_t) {
        // SAFETY: the caller guarantees 16 writable bytes and NEON. `sqxtun`
        // saturates like x86's `packus`, in plain lane order.
        unsafe { vst1q_u8(p, vcombine_u8(vqmovun_s16(a), vqmovun_s16(b))) }
    }
    #[inline(always)]
    unsafe fn load_p(p: *const i32) -> Psqt {
        // SAFETY: the caller guarantees 8 readable lanes and NEON.
        unsafe { Psqt(vld1q_s32(p), vld1q_s32(p.add(4))) }
    }
    #[inline(always)]
    unsafe fn store_p(p: *mut i32, v: Psqt) {
        // SAFETY: the caller guarantees 8 writable lanes and NEON.
        unsafe {
            vst1q_s32(p, v.0);
            vst1q_s32(p.add(4), v.1);
        }
    }
    #[inline(always)]
    unsafe fn add_p(a: Psqt, b: Psqt) -> Psqt {
        // SAFETY: the caller guarantees NEON.
        unsafe { Psqt(vaddq_s32(a.0, b.0), vaddq_s32(a.1, b.1)) }
    }
    #[inline(always)]
    unsafe fn sub_p(a: Psqt, b: Psqt) -> Psqt {
        // SAFETY: the caller guarantees NEON.
        unsafe { Psqt(vsubq_s32(a.0, b.0), vsubq_s32(a.1, b.1)) }
    }
}

/// The methods of a [`Dot`] implementation on 128-bit NEON registers that
/// do not depend on how products are summed.
macro_rules! neon_dot_registers {
    () => {
        type S = int32x4_t;
        const LANES: usize = 4;
        #[inline(always)]
        unsafe fn zero() -> int32x4_t {
            // SAFETY: the caller guarantees NEON.
            unsafe { vdupq_n_s32(0) }
        }
        #[inline(always)]
        unsafe fn load(p: *const i32) -> int32x4_t {
            // SAFETY: the caller guarantees 4 readable lanes and NEON.
            unsafe { vld1q_s32(p) }
        }
        #[inline(always)]
        unsafe fn store(p: *mut i32, v: int32x4_t) {
            // SAFETY: the caller guarantees 4 writable lanes and NEON.
            unsafe { vst1q_s32(p, v) }
        }
        #[inline(always)]
        unsafe fn add(a: int32x4_t, b: int32x4_t) -> int32x4_t {
            // SAFETY: the caller guarantees NEON.
            unsafe { vaddq_s32(a, b) }
        }
        #[inline(always)]
        unsafe fn screlu_dot(acc: int32x4_t, x: *const u8, w: *const i16, max: i16) -> int32x4_t {
            // SAFETY: the caller guarantees 8 readable bytes at `x`, 8
            // readable weights at `w`, and NEON.
            unsafe {
                let m = vminq_s16(vreinterpretq_s16_u16(vmovl_u8(vld1_u8(x))), vdupq_n_s16(max));
                let products = vmulq_s16(m, vld1q_s16(w));
                let low = vmull_s16(vget_low_s16(products), vget_low_s16(m));
                let high = vmull_high_s16(products, m);
                vaddq_s32(acc, vpaddq_s32(low, high))
            }
        }
        #[inline(always)]
        unsafe fn screlu_dot_i16(acc: int32x4_t, x: *const i16, w: *const i16, max: i16) -> int32x4_t {
            // SAFETY: the caller guarantees 8 readable lanes at `x` and at
            // `w`, and NEON.
            unsafe {
                let m = vminq_s16(vmaxq_s16(vld1q_s16(x), vdupq_n_s16(0)), vdupq_n_s16(max));
                let products = vmulq_s16(m, vld1q_s16(w));
                let low = vmull_s16(vget_low_s16(products), vget_low_s16(m));
                let high = vmull_high_s16(products, m);
                vaddq_s32(acc, vpaddq_s32(low, high))
            }
        }
        #[inline(always)]
        unsafe fn dot2_i16(acc: int32x4_t, pair: u32, w: *const i16) -> int32x4_t {
            // SAFETY: the caller guarantees 8 readable weights and NEON.
            unsafe {
                let x = vreinterpretq_s16_u32(vdupq_n_u32(pair));
                let w = vld1q_s16(w);
                let low = vmull_s16(vget_low_s16(w), vget_low_s16(x));
                let high = vmull_high_s16(w, x);
                vaddq_s32(acc, vpaddq_s32(low, high))
            }
        }
        #[inline(always)]
        unsafe fn hsum(v: int32x4_t) -> i32 {
            // SAFETY: the caller guarantees NEON.
            unsafe { vaddvq_s32(v) }
        }
        #[inline(always)]
        unsafe fn nonzero_mask(p: *const u8) -> u32 {
            // SAFETY: the caller guarantees 16 readable bytes and NEON.
            unsafe {
                let v = vld1q_u32(p.cast());
                let bits: [u32; 4] = [1, 2, 4, 8];
                vaddvq_u32(vandq_u32(vtstq_u32(v, v), vld1q_u32(bits.as_ptr())))
            }
        }
    };
}
pub(super) use neon_dot_registers;

/// Dot products without the dot-product extension.
#[derive(Clone, Copy)]
pub struct NeonDot;

/// `acc[l] + sum_k x[4l + k] * w[4l + k]` for 16 bytes of inputs (at most
/// 127, so they are exact as signed bytes) and weights.
///
/// # Safety
/// The CPU supports NEON.
#[inline(always)]
unsafe fn dot16(acc: int32x4_t, x: int8x16_t, w: int8x16_t) -> int32x4_t {
    // SAFETY: the caller guarantees NEON. Each i16 product is at most
    // 127 * 128 in magnitude; pairwise sums of them stay well within i32.
    unsafe {
        let low = vmull_s8(vget_low_s8(x), vget_low_s8(w));
        let high = vmull_high_s8(x, w);
        vaddq_s32(acc, vpaddq_s32(vpaddlq_s16(low), vpaddlq_s16(high)))
    }
}

// SAFETY: every method uses NEON instructions only; callers guarantee NEON.
unsafe impl Dot for NeonDot {
    neon_dot_registers!();
    const SETS: usize = 1;

    #[inline(always)]
    unsafe fn dot4(acc: int32x4_t, x: u32, w: *const i8) -> int32x4_t {
        // SAFETY: the caller guarantees 16 readable weight bytes and NEON.
        unsafe { dot16(acc, vreinterpretq_s8_u32(vdupq_n_u32(x)), vld1q_s8(w)) }
    }
    #[inline(always)]
    unsafe fn dot(acc: int32x4_t, x: *const u8, w: *const i8) -> int32x4_t {
        // SAFETY: the caller guarantees 16 readable bytes at `x` and `w`, and NEON.
        unsafe { dot16(acc, vld1q_s8(x.cast()), vld1q_s8(w)) }
    }
}
