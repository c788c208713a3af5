//! The x86-64 tokens' kernels: those of every row of the instruction-set
//! table (expanded here, where the rows' types are in scope), and AVX2's
//! packed activations.

use crate::simd::x86::*;

// The kernels of the instruction-set table's x86-64 rows.
nnue_isa::simd_isas!(token_kernels);

/// The packed activations of AVX2 ([`Avx2Activations::packed`] and
/// [`Avx2Activations::joined_16`]) on the backends whose activations are
/// AVX2's, inlined into the `#[target_feature]` function calling them.
macro_rules! packed_activations {
    ($($token:ty),*) => {$(
        impl crate::simd::Inside<$token> {
            /// [`Avx2Activations::packed`].
            #[inline(always)]
            pub fn activation_packed<const N: usize>(self, f: crate::simd::Activation, input: &[i32; N], out: &mut [u8; N]) {
                // SAFETY: an `Inside` exists only if the CPU supports the
                // ISA, AVX2 included.
                unsafe { Avx2Activations::packed::<N>(f, input, out) }
            }

            /// [`Avx2Activations::joined_16`].
            #[inline(always)]
            pub fn activations_joined_16(self, fa: crate::simd::Activation, a: &[i32; 16], fb: crate::simd::Activation, b: &[i32; 16]) -> [u8; 32] {
                // SAFETY: as above.
                unsafe { Avx2Activations::joined_16(fa, a, fb, b) }
            }
        }
    )*};
}
packed_activations!(Avx2, AvxVnni);
