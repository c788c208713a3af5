//! The vector primitives the kernels are written against: a small trait per
//! concern, implemented once per instruction set (one file per ISA).
//!
//! - [`Lanes`]: registers of i16 accumulator lanes (and the i32 PSQT lanes),
//!   and packing them into the transformer's u8 output;
//! - [`Dot`]: registers of i32 sums of u8 x i8 products, for affine layers.
//!
//! Every method of these traits is `#[inline(always)]` and `unsafe`: it may
//! only run on a CPU with the instruction set, which the safe backend tokens
//! (in `x86` and `aarch64`) guarantee. [`U16x8`], eight u16 chunk indices for
//! the sparse layer's search, uses only the base instruction set of each
//! architecture, so its methods are safe but for its store through a pointer.

#[macro_use]
mod tokens;
mod indices;

pub use indices::U16x8;

/// Runs `check::<D>(args)` for every dot-product type `D` whose instructions
/// this CPU has (tests of [`Dot`] implementations and of the kernels over
/// them): each row's of the instruction-set table ([`nnue_isa::simd_isas!`])
/// for this architecture, its wide and its 256-bit one.
#[cfg(test)]
macro_rules! for_each_dot {
    ($check:ident $args:tt) => {
        nnue_isa::simd_isas!(crate::simd::each_dot, $check $args)
    };
}
#[cfg(test)]
pub(crate) use for_each_dot;

/// [`for_each_dot!`]'s expansion over the table's rows.
#[cfg(test)]
macro_rules! each_dot {
    (($check:ident $args:tt) $({
        name: $name:literal, variant: $variant:ident, module: $module:ident, title: $title:literal, arch: $arch:literal, simd: $simd:ident,
        features: $features:literal, detect: [$($detect:literal),*],
        lanes: $lanes:literal, permutes_lanes: $permutes:literal, max_tile: $max_tile:literal, dot_lanes: $dot_lanes:literal, packs_activations: $packs:literal,
        types: ($lanes_ty:ident, $dot:ident, $dot256:ident, $activations:ident),
        doc: $doc:literal,
    })*) => {{
        $(
            #[cfg(target_arch = $arch)]
            if crate::simd::$simd::$variant::new().is_some() {
                $check::<crate::simd::$simd::$dot> $args;
                if core::any::TypeId::of::<crate::simd::$simd::$dot256>() != core::any::TypeId::of::<crate::simd::$simd::$dot>() {
                    $check::<crate::simd::$simd::$dot256> $args;
                }
            }
        )*
    }};
}
#[cfg(test)]
pub(crate) use each_dot;

/// Tests an ISA's `join_16` (named by its path) against byte copies with
/// [`check_join`], over Stockfish's 15 + 15 and the edge cases (a macro: each
/// case needs const arguments).
#[cfg(test)]
macro_rules! check_join_16 {
    ($($join:ident)::+) => {
        $crate::simd::check_join(
            |a, b, la, lb| match (la, lb) {
                (15, 15) => $($join)::+::<15, 1, 15>(a, b),
                (16, 16) => $($join)::+::<16, 0, 16>(a, b),
                (16, 3) => $($join)::+::<16, 0, 3>(a, b),
                (1, 16) => $($join)::+::<1, 15, 16>(a, b),
                (8, 0) => $($join)::+::<8, 8, 0>(a, b),
                (12, 9) => $($join)::+::<12, 4, 9>(a, b),
                _ => unreachable!("not a listed case"),
            },
            &[(15, 15), (16, 16), (16, 3), (1, 16), (8, 0), (12, 9)],
        )
    };
}

/// A backend token, for use inside a function compiled for its ISA
/// (`#[target_feature(enable = Token::FEATURES)]`): the kernels a forward
/// pass runs (the affine layers) are methods of this type,
/// `#[inline(always)]`, so they become part of that function instead of
/// calls to functions of their own. Only a token's `inside` makes one.
#[derive(Debug, Clone, Copy)]
pub struct Inside<T>(T);

/// Asks the CPU to bring the cache line holding `p` into its caches: a hint
/// (it never faults, whatever `p` is), so safe.
#[inline(always)]
pub fn prefetch<T>(p: *const T) {
    CacheLevel::First.request(p);
}

/// The cache a row request fills: the first level ([`prefetch`]), or the
/// second only, for requests made far ahead of their use in numbers the
/// first would not hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CacheLevel {
    First,
    Second,
}

impl CacheLevel {
    /// Asks for the cache line holding `p` into this cache: a hint (it
    /// never faults, whatever `p` is), so safe.
    #[inline(always)]
    pub fn request<T>(self, p: *const T) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: `prefetcht0` and `prefetcht1` (SSE, part of x86-64) only
        // hint; they read no memory architecturally and never fault.
        unsafe {
            use core::arch::x86_64::{_MM_HINT_T0, _MM_HINT_T1, _mm_prefetch};
            match self {
                CacheLevel::First => _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>()),
                CacheLevel::Second => _mm_prefetch::<_MM_HINT_T1>(p.cast::<i8>()),
            }
        };
        #[cfg(target_arch = "aarch64")]
        // SAFETY: `prfm` (base AArch64) only hints; it never faults.
        unsafe {
            match self {
                CacheLevel::First => {
                    core::arch::asm!("prfm pldl1keep, [{0}]", in(reg) p, options(nostack, preserves_flags, readonly))
                }
                CacheLevel::Second => {
                    core::arch::asm!("prfm pldl2keep, [{0}]", in(reg) p, options(nostack, preserves_flags, readonly))
                }
            }
        };
        #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
        let _ = (self, p);
    }
}

#[cfg(target_arch = "aarch64")]
pub mod aarch64;
#[cfg(target_arch = "x86_64")]
pub mod x86;

/// Registers of i16 lanes.
///
/// # Safety
/// Implementations must only be used on CPUs supporting their instructions.
pub unsafe trait Lanes: Copy {
    /// A register of `LANES` i16.
    type V: Copy;
    /// A register of 8 i32 (the PSQT buckets).
    type P: Copy;
    const LANES: usize;

    /// # Safety
    /// `p` is valid for `LANES` reads; the CPU supports the ISA.
    unsafe fn load(p: *const i16) -> Self::V;
    /// `LANES` i8 sign-extended to i16 lanes.
    /// # Safety
    /// `p` is valid for `LANES` reads; the CPU supports the ISA.
    unsafe fn load_i8(p: *const i8) -> Self::V;
    /// # Safety
    /// `p` is valid for `LANES` writes; the CPU supports the ISA.
    unsafe fn store(p: *mut i16, v: Self::V);
    /// Wrapping lane-wise addition.
    /// # Safety
    /// The CPU supports the ISA.
    unsafe fn add(a: Self::V, b: Self::V) -> Self::V;
    /// Wrapping lane-wise subtraction.
    /// # Safety
    /// The CPU supports the ISA.
    unsafe fn sub(a: Self::V, b: Self::V) -> Self::V;
    /// `clamp(v, 0, max)` lane-wise.
    /// # Safety
    /// The CPU supports the ISA.
    unsafe fn clamp(v: Self::V, max: i16) -> Self::V;
    /// `min(v, max)` lane-wise.
    /// # Safety
    /// The CPU supports the ISA.
    unsafe fn min(v: Self::V, max: i16) -> Self::V;
    /// `(a << SHL) * b >> 16` as signed 16-bit lanes.
    /// # Safety
    /// The CPU supports the ISA.
    unsafe fn mulhi_signed_shifted<const SHL: i32>(a: Self::V, b: Self::V) -> Self::V;
    /// `(a << SHL) * b >> 16` as unsigned 16-bit lanes.
    /// # Safety
    /// The CPU supports the ISA.
    unsafe fn mulhi_shifted<const SHL: i32>(a: Self::V, b: Self::V) -> Self::V;
    /// `(a * b) >> SHR` as unsigned 16-bit lanes (low half of the product).
    /// # Safety
    /// The CPU supports the ISA.
    unsafe fn mullo_shifted<const SHR: i32>(a: Self::V, b: Self::V) -> Self::V;
    /// Packs lanes holding 0..=255 into bytes, `a`'s then `b`'s in the ISA's
    /// 128-bit-lane order, and stores `2 * LANES` bytes at `p`.
    /// # Safety
    /// `p` is valid for `2 * LANES` writes; the CPU supports the ISA.
    unsafe fn pack_store(p: *mut u8, a: Self::V, b: Self::V);

    /// # Safety
    /// `p` is valid for 8 reads; the CPU supports the ISA.
    unsafe fn load_p(p: *const i32) -> Self::P;
    /// # Safety
    /// `p` is valid for 8 writes; the CPU supports the ISA.
    unsafe fn store_p(p: *mut i32, v: Self::P);
    /// # Safety
    /// The CPU supports the ISA.
    unsafe fn add_p(a: Self::P, b: Self::P) -> Self::P;
    /// # Safety
    /// The CPU supports the ISA.
    unsafe fn sub_p(a: Self::P, b: Self::P) -> Self::P;
}

/// Weight types whose rows are added into i16 accumulator lanes: i16, and
/// i8 sign-extended on loading.
pub trait Widen:
    crate::aligned::Plain + Default + Into<i16> + Into<i64> + crate::format::reader::Int + Send + Sync
{
    /// `L::LANES` weights as one register of i16 lanes.
    /// # Safety
    /// `p` is valid for `L::LANES` reads; the CPU supports `L`'s ISA.
    unsafe fn load<L: Lanes>(p: *const Self) -> L::V;
}

impl Widen for i16 {
    #[inline(always)]
    unsafe fn load<L: Lanes>(p: *const i16) -> L::V {
        // SAFETY: the caller's guarantees are `L::load`'s.
        unsafe { L::load(p) }
    }
}

impl Widen for i8 {
    #[inline(always)]
    unsafe fn load<L: Lanes>(p: *const i8) -> L::V {
        // SAFETY: the caller's guarantees are `L::load_i8`'s.
        unsafe { L::load_i8(p) }
    }
}

/// Registers of i32 sums of u8 x i8 products.
///
/// # Safety
/// Implementations must only be used on CPUs supporting their instructions.
pub unsafe trait Dot: Copy {
    /// A register of `LANES` i32.
    type S: Copy;
    const LANES: usize;
    /// Independent sets of sum registers a column kernel should keep so that
    /// consecutive dot products do not wait on each other: more than one when
    /// the dot product accumulates in place with a multi-cycle latency (VNNI
    /// `vpdpbusd`), one when the accumulation is a separate one-cycle add.
    const SETS: usize;
    /// The most sum registers a column kernel should keep: its sets are
    /// halved while `SETS` times a layer's output registers exceed it (the
    /// rest of the register file holds the broadcast input and weights).
    const MAX_SUMS: usize = usize::MAX;

    /// # Safety
    /// The CPU supports the ISA.
    unsafe fn zero() -> Self::S;
    /// # Safety
    /// `p` is valid for `LANES` reads; the CPU supports the ISA.
    unsafe fn load(p: *const i32) -> Self::S;
    /// # Safety
    /// `p` is valid for `LANES` writes; the CPU supports the ISA.
    unsafe fn store(p: *mut i32, v: Self::S);
    /// Lane-wise wrapping addition.
    /// # Safety
    /// The CPU supports the ISA.
    unsafe fn add(a: Self::S, b: Self::S) -> Self::S;
    /// `acc[l] + sum_k x[k] * w[4l + k]`: four input bytes against one
    /// four-byte group of weights per lane. Inputs must be at most 127 (so
    /// that the non-VNNI sequence cannot saturate).
    /// # Safety
    /// `w` is valid for `4 * LANES` reads; the CPU supports the ISA.
    unsafe fn dot4(acc: Self::S, x: u32, w: *const i8) -> Self::S;
    /// Whether [`Self::dot4_pair`] costs less than two [`Self::dot4`]: true
    /// where a dot product is two multiply steps (pairs of `u8 x i8`
    /// products into i16 lanes, then pairs of those into i32), whose first
    /// step two chunks can share.
    const PAIRS: bool = false;
    /// `dot4(dot4(acc, xa, wa), xb, wb)`. Where [`Self::PAIRS`] holds, the
    /// two chunks' i16 pair sums are added in i16 before they are widened:
    /// exact when every lane's four products sum within i16 (an affine
    /// layer's [`crate::overflow::layers::PairedSums`]).
    /// # Safety
    /// As [`Self::dot4`], for both weight groups.
    #[inline(always)]
    unsafe fn dot4_pair(acc: Self::S, xa: u32, wa: *const i8, xb: u32, wb: *const i8) -> Self::S {
        // SAFETY: the caller's guarantees are dot4's, for each chunk.
        unsafe { Self::dot4(Self::dot4(acc, xa, wa), xb, wb) }
    }
    /// `acc[l] + sum_k x[4l + k] * w[4l + k]`.
    /// # Safety
    /// `x` and `w` are valid for `4 * LANES` reads; the CPU supports the ISA.
    unsafe fn dot(acc: Self::S, x: *const u8, w: *const i8) -> Self::S;
    /// `acc[l] + sum_k (m[k] * w[k]) * m[k]` over inputs `k = 2l, 2l + 1`,
    /// where `m[k] = min(x[k], max)`: `2 * LANES` u8 inputs against as many
    /// i16 weights, the first product in an i16 lane and the second summed
    /// in pairs into i32 lanes (bullet's SCReLU dot product). Exact when
    /// every `|m[k] * w[k]|` is at most 32767.
    /// # Safety
    /// `x` and `w` are valid for `2 * LANES` reads; the CPU supports the ISA.
    unsafe fn screlu_dot(acc: Self::S, x: *const u8, w: *const i16, max: i16) -> Self::S;
    /// [`Self::screlu_dot`] of i16 inputs (accumulator lanes), with `m[k] =
    /// clamp(x[k], 0, max)`.
    /// # Safety
    /// `x` and `w` are valid for `2 * LANES` reads; the CPU supports the ISA.
    unsafe fn screlu_dot_i16(acc: Self::S, x: *const i16, w: *const i16, max: i16) -> Self::S;
    /// [`Self::screlu_dot_i16`] of two inputs side by side (the two
    /// accumulators' lanes at the same offset): `(screlu_dot_i16(a, xa, wa,
    /// max), screlu_dot_i16(b, xb, wb, max))`. A backend may clamp both
    /// inputs in fewer steps than two clamps (with `max` 255, a saturating
    /// pack to u8 clamps both at once).
    /// # Safety
    /// As [`Self::screlu_dot_i16`], for both inputs.
    #[inline(always)]
    unsafe fn screlu_dot_i16_pair(
        (a, b): (Self::S, Self::S),
        (xa, wa): (*const i16, *const i16),
        (xb, wb): (*const i16, *const i16),
        max: i16,
    ) -> (Self::S, Self::S) {
        // SAFETY: the caller's guarantees are screlu_dot_i16's, for each input.
        unsafe { (Self::screlu_dot_i16(a, xa, wa, max), Self::screlu_dot_i16(b, xb, wb, max)) }
    }
    /// `acc[l] + x0 * w[2l] + x1 * w[2l + 1]`, wrapping, for the two i16
    /// inputs of `pair` (`x0` in its low half): `2 * LANES` i16 weights,
    /// two inputs' weights to each of `LANES` outputs side by side.
    /// # Safety
    /// `w` is valid for `2 * LANES` reads; the CPU supports the ISA.
    unsafe fn dot2_i16(acc: Self::S, pair: u32, w: *const i16) -> Self::S;
    /// The sum of all lanes (wrapping).
    /// # Safety
    /// The CPU supports the ISA.
    unsafe fn hsum(v: Self::S) -> i32;
    /// Bit `l` set when bytes `4l..4l + 4` at `p` are not all zero, for bytes
    /// of at most 127 (the affine inputs' contract above).
    /// # Safety
    /// `p` is valid for `4 * LANES` reads; the CPU supports the ISA.
    unsafe fn nonzero_mask(p: *const u8) -> u32;
    /// Whether a sparse column kernel takes a list with values
    /// ([`Self::COMPRESS`]) sixteen entries at a time (`LANES == 16`): the
    /// indices read with one vector load and split in general registers
    /// ([`Self::index_words`]), the values loaded as one register and each
    /// broadcast from it ([`Self::dot4_lane`]), where otherwise each index
    /// and each value is a load of its own. Only for layers of two or more
    /// output registers (see [`crate::kernels::affine_columns_listed`]).
    const LANE_BLOCKS: bool = false;
    /// Whether this CPU takes [`Self::LANE_BLOCKS`]'s form, where the ISA
    /// has it: a choice at run time, read once, for a form that is faster
    /// on some cores and slower on others.
    #[inline(always)]
    fn lane_blocks() -> bool {
        Self::LANE_BLOCKS
    }
    /// The sixteen u16 at `p` as four little-endian words, entry `4k + e`
    /// in bits `16e..16e + 16` of word `k`.
    /// # Safety
    /// `p` is valid for sixteen reads; the CPU supports the ISA.
    #[inline(always)]
    unsafe fn index_words(p: *const u16) -> [u64; 4] {
        // SAFETY: the caller guarantees 32 readable bytes; `read_unaligned`
        // needs no alignment.
        core::array::from_fn(|k| u64::from_le(unsafe { p.add(4 * k).cast::<u64>().read_unaligned() }))
    }
    /// `dot4(acc, x, w)` with `x` lane `k` of `values`.
    /// # Safety
    /// `k < LANES <= 16`; `w` is valid for `4 * LANES` reads; the CPU
    /// supports the ISA.
    #[inline(always)]
    unsafe fn dot4_lane(acc: Self::S, values: Self::S, k: usize, w: *const i8) -> Self::S {
        let mut lanes = [0i32; 16];
        // SAFETY: `LANES <= 16` lanes written, lane `k < LANES` read (the
        // caller's guarantees); `dot4`'s are the caller's.
        unsafe {
            Self::store(lanes.as_mut_ptr(), values);
            Self::dot4(acc, *lanes.get_unchecked(k) as u32, w)
        }
    }
    /// Whether [`Self::nonzero_entries`] compresses the indices in a
    /// register (AVX-512's `vpcompressd`): a sparse layer's search then
    /// calls it once per register; otherwise the search looks
    /// [`Self::nonzero_mask`] up in a table of bit positions, eight chunks
    /// at a time.
    const COMPRESS: bool = false;
    /// Writes to `out`, in order, the indices `first + l` of the lanes `l`
    /// whose four bytes at `p + 4l` are not all zero, and to `values` those
    /// four bytes (a native-endian u32), and returns how many there are.
    /// May write all `LANES` entries of each (those past the count hold
    /// anything).
    /// # Safety
    /// `p` is valid for `4 * LANES` reads, `out` and `values` for `LANES`
    /// writes; `first + LANES` fits u16; the CPU supports the ISA.
    #[inline(always)]
    unsafe fn nonzero_entries(p: *const u8, first: u16, out: *mut u16, values: *mut u32) -> usize {
        // SAFETY: the caller's guarantees cover `nonzero_mask`'s reads, the
        // reads of the lanes' chunks, and at most `LANES` entries written.
        unsafe {
            let mask = Self::nonzero_mask(p);
            let mut count = 0;
            for l in 0..Self::LANES {
                if mask >> l & 1 != 0 {
                    out.add(count).write(first + l as u16);
                    values.add(count).write(p.add(4 * l).cast::<u32>().read_unaligned());
                    count += 1;
                }
            }
            count
        }
    }
}

/// An instruction set's ClippedReLU and SqrClippedReLU of a layer's i32
/// sums to bytes, in order (the forward passes call them through their
/// backend token's [`Inside`]).
///
/// # Safety
/// Implementations must only be used on CPUs supporting their instructions.
pub unsafe trait Activations {
    /// `out[i] = clamp(input[i] >> SHIFT, 0, max)`, equal to
    /// [`crate::scalar::clipped_relu`]. `N` must be a multiple of 8 and
    /// `max` at most 127.
    /// # Safety
    /// The CPU supports the ISA.
    unsafe fn clipped_relu<const N: usize, const SHIFT: i32>(input: &[i32; N], max: i16, out: &mut [u8; N]);
    /// `out[i] = min((input[i]^2) >> (16 + SHIFT_AFTER_16), max)`, equal
    /// to [`crate::scalar::sqr_clipped_relu`] when `32767^2 >> (16 +
    /// SHIFT_AFTER_16)` is at least `max`. `N` must be a multiple of 8 and
    /// `max` at most 127.
    /// # Safety
    /// The CPU supports the ISA.
    unsafe fn sqr_clipped_relu<const N: usize, const SHIFT_AFTER_16: i32>(
        input: &[i32; N],
        max: i16,
        out: &mut [u8; N],
    );
}

/// One activation of i32 sums to bytes, for the kernels that take it as a
/// value rather than as their name and const parameters (the packed
/// activations of AVX2, [`x86::Avx2Activations::packed`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activation {
    /// `clamp(x >> shift, 0, max)`, as [`crate::scalar::clipped_relu`].
    Clipped { shift: i32, max: i16 },
    /// `min((x^2) >> (16 + shift_after_16), max)`, as
    /// [`crate::scalar::sqr_clipped_relu`] when `32767^2 >> (16 +
    /// shift_after_16)` is at least `max`.
    Square { shift_after_16: i32, max: i16 },
}

// Only the tests of AVX2's packed activations use it.
#[cfg(all(test, target_arch = "x86_64"))]
impl Activation {
    /// `input` activated into `out` by the scalar reference.
    pub(crate) fn scalar(self, input: &[i32], out: &mut [u8]) {
        for (o, &x) in out.iter_mut().zip(input) {
            let (mut one, single) = ([0u8; 1], [x]);
            match self {
                Activation::Clipped { shift, max } => {
                    crate::scalar::clipped_relu(&single, shift as u32, i32::from(max), &mut one)
                }
                Activation::Square { shift_after_16, max } => {
                    crate::scalar::sqr_clipped_relu(&single, 16 + shift_after_16 as u32, i32::from(max), &mut one)
                }
            }
            *o = one[0];
        }
    }
}

/// Checks an ISA's activations against [`crate::scalar`]'s on random inputs
/// of every magnitude: `clipped` must shift by 6 and `sqr` by 16 + 3, both
/// with a maximum of 127 (as Stockfish's layers do).
#[cfg(test)]
pub(crate) fn check_activations(clipped: fn(&[i32; 32], i16, &mut [u8; 32]), sqr: fn(&[i32; 32], i16, &mut [u8; 32])) {
    let mut rng = crate::Rng::new(0x0123_4567_89AB_CDEF);
    for _ in 0..2000 {
        let input: [i32; 32] = core::array::from_fn(|_| {
            let v = rng.next_u64();
            match v % 4 {
                0 => v as i32,
                1 => (v as i32) >> 12,
                2 => (v as i32) >> 20,
                _ => (v as i32) >> 26,
            }
        });
        let (mut simd, mut scalar) = ([0u8; 32], [0u8; 32]);
        clipped(&input, 127, &mut simd);
        crate::scalar::clipped_relu(&input, 6, 127, &mut scalar);
        assert_eq!(simd, scalar, "{input:?}");
        sqr(&input, 127, &mut simd);
        crate::scalar::sqr_clipped_relu(&input, 19, 127, &mut scalar);
        assert_eq!(simd, scalar, "{input:?}");
    }
}

/// The byte masks of `join_16` (each ISA's): the first `la` bytes of `a`
/// and the first `lb` of `b`. Evaluated in a `const` block, its checks of
/// the lengths (`1 <= la <= 16`, `lb <= 16`, `shr == 16 - la`) fail the
/// build.
#[allow(dead_code)] // only the ISA modules use it, and not every target has one
pub(crate) const fn join_masks(la: i32, shr: i32, lb: usize) -> [[u8; 16]; 2] {
    assert!(1 <= la && la <= 16 && shr == 16 - la && lb <= 16);
    let mut masks = [[0u8; 16]; 2];
    let mut i = 0;
    while i < 16 {
        masks[0][i] = if (i as i32) < la { 0xFF } else { 0 };
        masks[1][i] = if i < lb { 0xFF } else { 0 };
        i += 1;
    }
    masks
}

/// Checks an ISA's `join_16` against byte copies, for inputs whose bytes
/// past the joined lengths are not zero: `join(a, b, la, lb)` calls it with
/// those lengths (see `check_join_16!`).
#[cfg(test)]
pub(crate) fn check_join(join: impl Fn(&[u8; 16], &[u8; 16], usize, usize) -> [u8; 32], cases: &[(usize, usize)]) {
    let a: [u8; 16] = core::array::from_fn(|i| 100 + i as u8);
    let b: [u8; 16] = core::array::from_fn(|i| 200 + i as u8);
    for &(la, lb) in cases {
        let mut expected = [0u8; 32];
        expected[..la].copy_from_slice(&a[..la]);
        expected[la..la + lb].copy_from_slice(&b[..lb]);
        assert_eq!(join(&a, &b, la, lb), expected, "la={la} lb={lb}");
    }
}
