//! The non-zero four-byte chunks of a sparse layer's input, found by a
//! search over the bytes ([`nonzero_chunks`]): by the column kernel itself,
//! or by the transformer's kernels (in the same `#[target_feature]`
//! function: register by register as they store it, with a
//! [`ChunkSearch`], except where a stored register is not one register of
//! the search's chunks), so that the layer stack's forward pass starts from
//! the list, as Stockfish's does. Where the search compresses registers
//! (AVX-512) and the scalar search, the list also holds each chunk's four
//! bytes beside its index: the column kernel then broadcasts them from
//! consecutive addresses instead of from the input through each index.

use core::marker::PhantomData;
use core::mem::MaybeUninit;

use crate::simd::{Dot, U16x8};

/// Room for the list of an input of `CHUNKS` chunks: the indices and,
/// where the search lists them, the chunks' values, written by a search
/// ([`nonzero_chunks`], [`ChunkList::search`]). Uninitialised until then:
/// zeroing it would cost as much as a sparse layer's whole search.
pub struct ChunkSlots<const CHUNKS: usize> {
    indices: [MaybeUninit<u16>; CHUNKS],
    values: [MaybeUninit<u32>; CHUNKS],
}

impl<const CHUNKS: usize> ChunkSlots<CHUNKS> {
    /// Uninitialised slots.
    #[inline(always)]
    pub const fn new() -> Self {
        ChunkSlots {
            indices: [const { MaybeUninit::uninit() }; CHUNKS],
            values: [const { MaybeUninit::uninit() }; CHUNKS],
        }
    }

    /// The list of the first `count` slots, with their values if
    /// `with_values`.
    ///
    /// # Safety
    /// Slots `0..count` of the indices, and of the values if
    /// `with_values`, are initialised, every index below `CHUNKS` and every
    /// value the chunk of its index.
    #[inline(always)]
    unsafe fn list(&self, count: usize, with_values: bool) -> ChunkList<'_, CHUNKS> {
        // SAFETY: the caller guarantees the first `count` entries;
        // `MaybeUninit<T>` has the layout of `T`.
        unsafe {
            ChunkList {
                indices: core::slice::from_raw_parts(self.indices.as_ptr().cast::<u16>(), count),
                values: with_values.then(|| core::slice::from_raw_parts(self.values.as_ptr().cast::<u32>(), count)),
            }
        }
    }
}

impl<const CHUNKS: usize> Default for ChunkSlots<CHUNKS> {
    fn default() -> Self {
        Self::new()
    }
}

/// Indices of non-zero four-byte chunks of an input of `CHUNKS` chunks,
/// each below `CHUNKS`, ascending, and, where the search lists them,
/// beside each its chunk's four bytes (read as a native-endian u32). Made
/// only by the searches here, so a column kernel can use the indices
/// without checking them.
#[derive(Clone, Copy, Debug)]
pub struct ChunkList<'a, const CHUNKS: usize> {
    indices: &'a [u16],
    values: Option<&'a [u32]>,
}

impl<'a, const CHUNKS: usize> ChunkList<'a, CHUNKS> {
    /// A list whose indices are known to be below `CHUNKS` (copied from
    /// another `ChunkList`), with as many values if any.
    pub(crate) fn from_valid(indices: &'a [u16], values: Option<&'a [u32]>) -> Self {
        debug_assert!(indices.iter().all(|&i| (i as usize) < CHUNKS));
        assert!(values.is_none_or(|values| values.len() == indices.len()));
        ChunkList { indices, values }
    }

    /// The indices.
    #[inline(always)]
    pub fn indices(self) -> &'a [u16] {
        self.indices
    }

    /// The chunks' values, index by index, where the search listed them.
    #[inline(always)]
    pub fn values(self) -> Option<&'a [u32]> {
        self.values
    }

    /// The non-zero chunks of `input` (`4 * CHUNKS` bytes), in ascending
    /// order, with their values, written to `out`. Scalar; the column
    /// kernels' own search is [`nonzero_chunks`].
    pub fn search(input: &[u8], out: &'a mut ChunkSlots<CHUNKS>) -> Self {
        const { assert!(CHUNKS <= 1 << 16) };
        assert_eq!(input.len(), 4 * CHUNKS);
        let mut count = 0;
        for (i, chunk) in input.chunks_exact(4).enumerate() {
            if chunk != [0; 4] {
                out.indices[count].write(i as u16);
                out.values[count].write(u32::from_ne_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]));
                count += 1;
            }
        }
        // SAFETY: entries `0..count` of both arrays were written above,
        // each index below CHUNKS with its chunk.
        unsafe { out.list(count, true) }
    }
}

/// For every byte value `m`, the positions of its set bits, in order
/// (padded with zeros): the non-zero chunk indices of an 8-chunk block.
const BIT_POSITIONS: [[u16; 8]; 256] = {
    let mut table = [[0u16; 8]; 256];
    let mut m = 0;
    while m < 256 {
        let (mut bit, mut n) = (0, 0);
        while bit < 8 {
            if m & (1 << bit) != 0 {
                table[m][n] = bit as u16;
                n += 1;
            }
            bit += 1;
        }
        m += 1;
    }
    table
};

/// A search of non-zero chunks over consecutive registers of chunks, in
/// order, writing to a [`ChunkSlots`]. Where the ISA compresses
/// ([`Dot::COMPRESS`], AVX-512), one [`Dot::nonzero_entries`] per register,
/// which also lists the chunks' values (a second compress, of the data).
/// Otherwise by table, branch-free: for each block of eight chunks, the
/// row of `BIT_POSITIONS` its mask selects is written whole (plus the
/// block's first index, kept in a vector that advances by 8) with one
/// store, and the count advances by the mask's popcount; no values. Fed by
/// [`nonzero_chunks`] from an input in memory, or by a transformer's kernel
/// with each register of output it has just stored
/// ([`crate::kernels::transform_pairwise_mulhi_signed_listed`]).
pub struct ChunkSearch<'l, D: Dot, const CHUNKS: usize> {
    slots: &'l mut ChunkSlots<CHUNKS>,
    /// The first chunk index of the next block, in every lane (table).
    base: U16x8,
    /// Chunks searched so far.
    searched: usize,
    count: usize,
    dot: PhantomData<D>,
}

impl<'l, D: Dot, const CHUNKS: usize> ChunkSearch<'l, D, CHUNKS> {
    /// Whether the registers of `D` divide an input of `CHUNKS` chunks
    /// (and, for the table, hold whole blocks of eight): otherwise there is
    /// no search by register, only [`ChunkList::search`].
    pub const BY_REGISTER: bool =
        CHUNKS.is_multiple_of(D::LANES) && (D::COMPRESS || D::LANES.is_multiple_of(8)) && D::LANES <= 32;

    /// A search from chunk 0, writing to `slots`.
    #[inline(always)]
    pub fn new(slots: &'l mut ChunkSlots<CHUNKS>) -> Self {
        const { assert!(CHUNKS <= 1 << 16) };
        ChunkSearch { slots, base: U16x8::splat(0), searched: 0, count: 0, dot: PhantomData }
    }

    /// Searches the next register of chunks, the `4 * D::LANES` bytes at
    /// `p`.
    ///
    /// # Safety
    /// [`Self::BY_REGISTER`]; `p` is valid for `4 * D::LANES` reads of bytes
    /// of at most 127; the chunks searched in all stay within `CHUNKS`; the
    /// CPU supports `D`'s instructions.
    #[inline(always)]
    pub unsafe fn push_register(&mut self, p: *const u8) {
        if D::COMPRESS {
            debug_assert!(self.searched + D::LANES <= CHUNKS);
            let (indices, values) =
                (self.slots.indices.as_mut_ptr().cast::<u16>(), self.slots.values.as_mut_ptr().cast::<u32>());
            // SAFETY: `searched + LANES <= CHUNKS <= 2^16`, so the indices
            // fit u16; `count <= searched`, so the `LANES` entries written
            // end at or before `CHUNKS` (the caller's guarantees).
            self.count +=
                unsafe { D::nonzero_entries(p, self.searched as u16, indices.add(self.count), values.add(self.count)) };
            self.searched += D::LANES;
        } else {
            // SAFETY: as above.
            unsafe { self.push_mask(D::nonzero_mask(p), D::LANES) };
        }
    }

    /// Lists the next `chunks` chunks (a multiple of 8, at most 32) whose
    /// bits in `mask` are set: the table search.
    ///
    /// # Safety
    /// Not [`Dot::COMPRESS`]; bit `l` of `mask` is set exactly when chunk
    /// `l` of these is not zero; the chunks searched in all stay within
    /// `CHUNKS`.
    #[inline(always)]
    pub unsafe fn push_mask(&mut self, mask: u32, chunks: usize) {
        debug_assert!(!D::COMPRESS && chunks.is_multiple_of(8) && chunks <= 32 && self.searched + chunks <= CHUNKS);
        let indices = self.slots.indices.as_mut_ptr().cast::<u16>();
        for block in 0..chunks / 8 {
            let byte = ((mask >> (8 * block)) & 0xFF) as usize;
            // SAFETY: `count` is at most the number of chunks searched
            // before this block, so the eight entries end at or before
            // `searched + 8 <= CHUNKS` (the caller's guarantee).
            unsafe { self.base.wrapping_add(U16x8::load(&BIT_POSITIONS[byte])).store(indices.add(self.count)) };
            self.count += byte.count_ones() as usize;
            self.base = self.base.wrapping_add(U16x8::splat(8));
        }
        self.searched += chunks;
    }

    /// The list of the chunks searched that are not zero, with their values
    /// where the search compresses.
    #[inline(always)]
    pub fn finish(self) -> ChunkList<'l, CHUNKS> {
        let slots: &'l ChunkSlots<CHUNKS> = self.slots;
        // SAFETY: the first `count` indices (and values with `COMPRESS`)
        // were written by the pushes, each index below the chunks searched
        // (at most CHUNKS), ascending, of a non-zero chunk, each value that
        // chunk (their callers' guarantees).
        unsafe { slots.list(self.count, D::COMPRESS) }
    }
}

/// Writes the indices of the non-zero four-byte chunks of `input` to the
/// front of `out` and returns that list: a [`ChunkSearch`] by register
/// where they divide the input, else [`ChunkList::search`]. The table's
/// masks are taken four registers at a time where they divide the input
/// (every shipped architecture), so they are independent work. Listing the
/// values without compress (gathered by a permute per block) cost AVX2
/// more than they saved the layer: eval 1.03 on the 17.1 big net, 1.015 on
/// the stand-in. In interleaved A/B runs of `nnue bench` on an AVX-512 VNNI
/// Zen 5, the compress took the forward pass to 0.95 of the table's time on
/// Stockfish 19's net, 0.92 on 18's and 0.88 on 17.1's big net.
///
/// # Safety
/// The CPU supports `D`'s instructions.
#[inline(always)]
pub unsafe fn nonzero_chunks<'a, D: Dot, const CHUNKS: usize>(
    input: &[u8],
    out: &'a mut ChunkSlots<CHUNKS>,
) -> ChunkList<'a, CHUNKS> {
    assert_eq!(input.len(), 4 * CHUNKS);
    if !ChunkSearch::<D, CHUNKS>::BY_REGISTER {
        return ChunkList::search(input, out);
    }
    let mut search = ChunkSearch::<D, CHUNKS>::new(out);
    if D::COMPRESS {
        for first in (0..CHUNKS).step_by(D::LANES) {
            // SAFETY: `first + LANES <= CHUNKS`, so `4 * LANES` bytes are
            // readable there, the registers in order; affine inputs are at
            // most 127 (the `Dot` contract).
            unsafe { search.push_register(input.as_ptr().add(4 * first)) };
        }
        return search.finish();
    }
    let unroll = if CHUNKS.is_multiple_of(4 * D::LANES) { 4 } else { 1 };
    for step in (0..CHUNKS).step_by(unroll * D::LANES) {
        // A plain loop, not `array::from_fn`: a closure holding the
        // intrinsic may be compiled outside this `#[target_feature]`
        // function, which turns it into a call.
        let mut masks = [0u32; 4];
        for (u, mask) in masks.iter_mut().enumerate().take(unroll) {
            // SAFETY: `step + (u + 1) * LANES <= CHUNKS` for `u < unroll`, so
            // 4 * LANES bytes are readable there.
            *mask = unsafe { D::nonzero_mask(input.as_ptr().add(4 * (step + u * D::LANES))) };
        }
        for &mask in &masks[..unroll] {
            // SAFETY: the masks of the input's registers in order, the last
            // ending at CHUNKS; not `COMPRESS` (above).
            unsafe { search.push_mask(mask, D::LANES) };
        }
    }
    search.finish()
}

#[cfg(test)]
mod tests {
    /// `Dot::nonzero_entries` of every dot-product type this CPU runs, the
    /// default (from `nonzero_mask`) and AVX-512's compress, lists exactly
    /// the non-zero chunks in order, from any first index, with their
    /// values, on random masks (chunks zero or with a single non-zero
    /// byte).
    #[test]
    fn nonzero_entries_equal_scalar() {
        fn check<D: crate::simd::Dot>(rng: &mut crate::Rng) {
            let mut input = vec![0u8; 4 * D::LANES];
            for chunk in input.chunks_exact_mut(4) {
                match rng.range(0, 3) {
                    0 => chunk.fill(0),
                    1 => chunk[rng.range(0, 3) as usize] = rng.range(1, 127) as u8,
                    _ => chunk.iter_mut().for_each(|b| *b = rng.range(0, 127) as u8),
                }
            }
            let first = rng.range(0, 1000) as u16;
            let nonzero: Vec<usize> = (0..D::LANES).filter(|&l| input[4 * l..4 * l + 4] != [0; 4]).collect();
            let expected: Vec<u16> = nonzero.iter().map(|&l| first + l as u16).collect();
            let values: Vec<u32> =
                nonzero.iter().map(|&l| u32::from_ne_bytes(input[4 * l..4 * l + 4].try_into().unwrap())).collect();
            let (mut out, mut out_values) = (vec![u16::MAX; D::LANES], vec![u32::MAX; D::LANES]);
            // SAFETY: `input` holds 4 * LANES bytes and `out` and
            // `out_values` LANES entries; the caller checked the CPU.
            let count = unsafe { D::nonzero_entries(input.as_ptr(), first, out.as_mut_ptr(), out_values.as_mut_ptr()) };
            assert_eq!(out[..count], expected[..], "{input:?}, first {first}");
            assert_eq!(out_values[..count], values[..], "{input:?}");
        }
        let mut rng = crate::Rng::new(0x0002_B11D_1CE5);
        for _ in 0..2000 {
            crate::simd::for_each_dot!(check(&mut rng));
        }
    }

    /// The search of every dot-product type this CPU runs (the compress,
    /// the table and the scalar fallback) lists exactly the non-zero chunks,
    /// ascending, as [`ChunkList::search`] does, with their values where
    /// it compresses (the scalar search always), on inputs of every
    /// density.
    #[test]
    fn searches_equal_scalar() {
        use super::{ChunkList, ChunkSlots, nonzero_chunks};
        const CHUNKS: usize = 256;
        fn check<D: crate::simd::Dot>(input: &[u8; 4 * CHUNKS]) {
            let (mut a, mut b) = (ChunkSlots::new(), ChunkSlots::new());
            // SAFETY: the caller checked the CPU.
            let listed = unsafe { nonzero_chunks::<D, CHUNKS>(input, &mut a) };
            let expected = ChunkList::<CHUNKS>::search(input, &mut b);
            assert!(expected.indices().is_sorted());
            assert_eq!(listed.indices(), expected.indices());
            // The compress lists values; so does the scalar search, which
            // backs searches of other register widths (NEON's).
            assert!(listed.values().is_some() || !D::COMPRESS);
            for list in [listed, expected] {
                for (&i, &v) in list.indices().iter().zip(list.values().unwrap_or_default()) {
                    assert_eq!(v.to_ne_bytes(), input[4 * i as usize..4 * i as usize + 4]);
                }
            }
            assert_eq!(expected.values().map(<[u32]>::len), Some(expected.indices().len()));
        }
        let mut rng = crate::Rng::new(0x005E_A2C4);
        for case in 0..300 {
            // From all zero to all non-zero.
            let density = case % 11;
            let mut input = [0u8; 4 * CHUNKS];
            for chunk in input.chunks_exact_mut(4) {
                if rng.range(0, 9) < density {
                    chunk[rng.range(0, 3) as usize] = rng.range(1, 127) as u8;
                    chunk[rng.range(0, 3) as usize] = rng.range(0, 127) as u8;
                }
            }
            crate::simd::for_each_dot!(check(&input));
        }
    }
}
