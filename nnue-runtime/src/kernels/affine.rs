//! Affine layers: u8 inputs, i8 weights, i32 sums.

use super::nonzero::{ChunkList, ChunkSlots, nonzero_chunks};
use crate::overflow::layers::PairedSums;
use crate::simd::Dot;

/// Column kernel: for every (non-zero, when `SPARSE`) four-byte input chunk
/// `i`, broadcast it and add its products with the chunk's weight column to
/// all `OUT` sums at once. Weights in [`super::layout::to_columns`] order.
/// `SPARSE` first collects the non-zero chunks (the transformer's output is
/// mostly zeros), so only their columns are read; where the search lists
/// the chunks' values ([`Dot::COMPRESS`]), each is broadcast from the list.
/// Where the ISA gains by it ([`Dot::PAIRS`]) and `paired` allows it for
/// the kernel's pairs of chunks, chunks go two at a time through
/// [`Dot::dot4_pair`].
///
/// # Safety
/// The CPU supports `D`'s instructions.
#[inline(always)]
pub unsafe fn affine_columns<
    D: Dot,
    const PADDED: usize,
    const CHUNKS: usize,
    const OUT: usize,
    const REGS: usize,
    const SPARSE: bool,
>(
    biases: &[i32; OUT],
    weights: &[i8],
    paired: PairedSums,
    input: &[u8; PADDED],
    out: &mut [i32; OUT],
) {
    // SAFETY: the caller guarantees the instructions.
    unsafe { affine_columns_listed::<D, PADDED, CHUNKS, OUT, REGS, SPARSE>(biases, weights, paired, input, None, out) }
}

/// [`affine_columns`] given, when `SPARSE`, the list of the input's
/// non-zero chunks if its producer made one (the transformer kernels' `_listed`
/// forms do, with [`super::nonzero_chunks`]); `None` searches the input as
/// [`affine_columns`] does. The list must be of this very input: the
/// indices are in bounds by [`ChunkList`]'s construction, but a list of
/// other bytes gives other sums (with [`Dot::COMPRESS`], the sparse loops
/// read the chunks' values from the list, not from `input`; a list without
/// values is searched again).
///
/// # Safety
/// The CPU supports `D`'s instructions.
#[inline(always)]
pub unsafe fn affine_columns_listed<
    D: Dot,
    const PADDED: usize,
    const CHUNKS: usize,
    const OUT: usize,
    const REGS: usize,
    const SPARSE: bool,
>(
    biases: &[i32; OUT],
    weights: &[i8],
    paired: PairedSums,
    input: &[u8; PADDED],
    listed: Option<ChunkList<'_, CHUNKS>>,
    out: &mut [i32; OUT],
) {
    const { assert!(PADDED == 4 * CHUNKS && OUT == REGS * D::LANES) };
    assert_eq!(weights.len(), CHUNKS * OUT * 4);
    let (x, w) = (input.as_ptr(), weights.as_ptr());
    // Chunk indices are below CHUNKS, so input reads stay below PADDED and
    // weight reads below CHUNKS * OUT * 4.
    // `D::SETS` independent sets of output registers, chunk `j` of the work
    // list going to set `j % SETS` (see [`Dot::SETS`]).
    let mut sets: [[D::S; REGS]; 4] = core::array::from_fn(|set| {
        // SAFETY: `(r + 1) * LANES <= OUT`; the caller guarantees the instructions.
        core::array::from_fn(|r| unsafe {
            if set == 0 { D::load(biases.as_ptr().add(r * D::LANES)) } else { D::zero() }
        })
    });
    // SAFETY (every call): `i < CHUNKS`, so column `i` lies within the
    // weights; the caller guarantees the instructions.
    let column =
        |regs: &mut [D::S; REGS], (i, value): (usize, u32)| unsafe { column::<D, OUT, REGS>(regs, w, i, value) };
    // SAFETY (every call): as `column`, for both chunks; their products
    // sum within i16 when `pair` holds (below).
    let columns = |regs: &mut [D::S; REGS], a: (usize, u32), b: (usize, u32)| unsafe {
        column_pair::<D, OUT, REGS>(regs, w, a, b)
    };
    // Chunk `i` of the input, with its value.
    // SAFETY: every index is below CHUNKS (the dense loops' and the
    // list's), so `4 * i + 4 <= PADDED`.
    let chunk = |i: usize| (i, unsafe { x.add(4 * i).cast::<u32>().read_unaligned() });
    let pair = D::PAIRS && if SPARSE { paired.any } else { paired.consecutive };
    let mut slots = ChunkSlots::<CHUNKS>::new();
    let list = match listed {
        _ if !SPARSE => ChunkList::from_valid(&[], None),
        // A list made by a search without values (another backend's),
        // where this kernel reads them: searched again.
        Some(list) if !D::COMPRESS || list.values().is_some() => list,
        // SAFETY: the caller guarantees the instructions.
        _ => unsafe { nonzero_chunks::<D, CHUNKS>(input, &mut slots) },
    };
    // With `D::COMPRESS` the list has values (the search above lists them).
    let values = if D::COMPRESS && SPARSE { list.values().expect("compressing searches list values") } else { &[] };
    // The list is iterated, not indexed: indexing it costs a bounds check
    // per chunk (callgrind: +326 instructions per 17.1 big-net forward
    // pass). Four entries at a time: their indices read with one load
    // ([`split_quad`]), their values from the list where it has them
    // (consecutive, so the broadcasts need not wait for the indices;
    // AVX-512 VNNI, Stockfish 19's first layer: forward 0.92, eval 0.93),
    // else from the input.
    //
    // With `D::LANE_BLOCKS`, values listed and two or more output
    // registers, the list's entries go sixteen at a time first
    // ([`lane_block`]), the quads and the rest taking those after: a
    // permute per entry in place of a broadcast load pays where each entry
    // loads at least two registers of weights (Stockfish 19's first layer,
    // 32 outputs, AVX-512 VNNI: forward 0.933 and eval 0.928, 9/9 rounds
    // faster), not where it loads one (18's, 16 outputs: forward 1.045).
    // Those were measured on a Zen 5; on an Intel Xeon the blocks are
    // slower (eval 1/0.85), so the CPU chooses ([`Dot::lane_blocks`]).
    let blocked = if SPARSE && D::COMPRESS && D::LANE_BLOCKS && REGS >= 2 && D::lane_blocks() {
        list.indices().len() / 16 * 16
    } else {
        0
    };
    let (blocks, _) = list.indices()[..blocked].as_chunks::<16>();
    let (quads, rest) = list.indices()[blocked..].as_chunks::<4>();
    // Value `e` of the list (with `D::COMPRESS`), else chunk `i` of the
    // input.
    let value = |e: usize, i: usize| {
        if D::COMPRESS {
            // SAFETY: with `D::COMPRESS` the list has a value per index,
            // and `e` is an index's position in it.
            unsafe { *values.get_unchecked(e) }
        } else {
            chunk(i).1
        }
    };
    let entries = quads.iter().enumerate().map(|(q, quad)| {
        let [i, j, k, l] = split_quad(quad);
        let e = blocked + 4 * q;
        [(i, value(e, i)), (j, value(e + 1, j)), (k, value(e + 2, k)), (l, value(e + 3, l))]
    });
    let rest = rest.iter().enumerate().map(|(e, &i)| (i as usize, value(blocked + 4 * quads.len() + e, i as usize)));
    // `D::SETS` sets, halved while they hold more than `D::MAX_SUMS`
    // registers.
    let n = const {
        assert!(D::SETS == 1 || D::SETS == 2 || D::SETS == 4);
        let mut n = D::SETS;
        while n > 1 && n * REGS > D::MAX_SUMS {
            n /= 2;
        }
        n
    };
    for (b, indices) in blocks.iter().enumerate() {
        // SAFETY: the list's indices are below CHUNKS, and with blocks it
        // has a value per index (`D::COMPRESS`), so the block's sixteen
        // values from `16 * b` are in it; the caller guarantees the
        // instructions.
        unsafe { lane_block::<D, OUT, REGS>(&mut sets, n, w, indices, values.as_ptr().add(16 * b)) };
    }
    let regs = if D::SETS == 1 {
        let [mut regs, ..] = sets;
        if SPARSE && pair {
            for [a, b, c, d] in entries {
                columns(&mut regs, a, b);
                columns(&mut regs, c, d);
            }
            let mut rest = rest;
            while let Some(a) = rest.next() {
                match rest.next() {
                    Some(b) => columns(&mut regs, a, b),
                    None => column(&mut regs, a),
                }
            }
        } else if SPARSE {
            for quad in entries {
                for entry in quad {
                    column(&mut regs, entry);
                }
            }
            for entry in rest {
                column(&mut regs, entry);
            }
        } else if pair {
            for k in 0..core::hint::black_box(CHUNKS / 2) {
                columns(&mut regs, chunk(2 * k), chunk(2 * k + 1));
            }
            if CHUNKS % 2 == 1 {
                column(&mut regs, chunk(CHUNKS - 1));
            }
        } else {
            // The trip count is hidden so that the loop stays a loop:
            // unrolled, LLVM hoisted all CHUNKS * REGS weight loads to the
            // top and spilled them to the stack (the small net's fc_1: 32
            // registers' worth), where Stockfish's loop reads each weight
            // once as a memory operand. (AVX2, small net: eval -5 %.)
            for i in 0..core::hint::black_box(CHUNKS) {
                column(&mut regs, chunk(i));
            }
        }
        regs
    } else {
        if SPARSE {
            // Entry `e` of a quad goes to set `e % n`.
            for quad in entries {
                for (e, entry) in quad.into_iter().enumerate() {
                    column(&mut sets[e % n], entry);
                }
            }
            // Entry by entry with constant positions, so that the sets
            // stay registers (a loop over the rest put them on the stack:
            // forward 1.09).
            let mut rest = rest;
            for e in 0..3 {
                if let Some(entry) = rest.next() {
                    column(&mut sets[e % n], entry);
                }
            }
        } else {
            let full = CHUNKS - CHUNKS % n;
            // The trip count hidden, as for one set (above), so that the
            // weights stay memory operands of the loop.
            for j in (0..core::hint::black_box(full / n)).map(|k| n * k) {
                for (s, set) in sets[..n].iter_mut().enumerate() {
                    column(set, chunk(j + s));
                }
            }
            for (set, j) in sets.iter_mut().zip(full..CHUNKS) {
                column(set, chunk(j));
            }
        }
        let [first, rest @ ..] = sets;
        // SAFETY: the caller guarantees the instructions.
        rest[..n - 1].iter().fold(first, |acc, set| core::array::from_fn(|r| unsafe { D::add(acc[r], set[r]) }))
    };
    for (r, reg) in regs.into_iter().enumerate() {
        // SAFETY: `(r + 1) * LANES <= OUT`; the caller guarantees the instructions.
        unsafe { D::store(out.as_mut_ptr().add(r * D::LANES), reg) };
    }
}

/// Four chunk indices of a sparse kernel's list read with one eight-byte
/// load and split with shifts. The column loop is bound by its loads (a
/// broadcast of the input chunk and the weight registers per chunk); four
/// two-byte index loads added one more per chunk. Stockfish 19's first
/// layer with AVX-512 VNNI: forward 0.97 (9/9 rounds faster).
#[inline(always)]
fn split_quad(quad: &[u16; 4]) -> [usize; 4] {
    // SAFETY: `quad` is eight readable bytes; `read_unaligned` needs no
    // alignment.
    let bits = u64::from_le(unsafe { core::ptr::from_ref(quad).cast::<u64>().read_unaligned() });
    [bits as u16 as usize, (bits >> 16) as u16 as usize, (bits >> 32) as u16 as usize, (bits >> 48) as usize]
}

/// Sixteen entries of a sparse kernel's list, with their values at
/// `values`, added to the `n` sets of output registers, entry `e` to set
/// `e % n`: the indices read with one vector load, the values as one
/// register broadcast lane by lane ([`Dot::LANE_BLOCKS`]).
///
/// # Safety
/// Every index is below the weights' columns (`w` is readable for
/// `(i + 1) * OUT * 4` bytes for each); `values` is valid for sixteen
/// reads; `D::LANES == 16`; the CPU supports `D`'s instructions.
#[inline(always)]
unsafe fn lane_block<D: Dot, const OUT: usize, const REGS: usize>(
    sets: &mut [[D::S; REGS]; 4],
    n: usize,
    w: *const i8,
    indices: &[u16; 16],
    values: *const u32,
) {
    const { assert!(!D::LANE_BLOCKS || D::LANES == 16) };
    // SAFETY: the caller's guarantees.
    let (words, values) = unsafe { (D::index_words(indices.as_ptr()), D::load(values.cast::<i32>())) };
    // The sixteen entries written out: as a loop LLVM kept a loop, the
    // sets on the stack; as calls of a closure, calls.
    macro_rules! entries {
        ($($e:literal)*) => {$(
            // SAFETY: the caller's guarantees; `e < 16 == LANES`.
            unsafe { lane_entry::<D, OUT, REGS>(&mut sets[$e % n], w, &words, values, $e) };
        )*};
    }
    entries!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
}

/// Entry `e` of a [`lane_block`]: its index from `words`, its value lane
/// `e` of `values`.
///
/// # Safety
/// As [`lane_block`]'s; `e < 16`.
#[inline(always)]
unsafe fn lane_entry<D: Dot, const OUT: usize, const REGS: usize>(
    set: &mut [D::S; REGS],
    w: *const i8,
    words: &[u64; 4],
    values: D::S,
    e: usize,
) {
    let i = (words[e / 4] >> (16 * (e % 4))) as u16 as usize;
    for (r, reg) in set.iter_mut().enumerate() {
        // SAFETY: the caller's guarantees.
        *reg = unsafe { D::dot4_lane(*reg, values, e, w.add((i * OUT + r * D::LANES) * 4)) };
    }
}

/// Adds the products of input chunk `i`, whose four bytes are `value`,
/// with weight column `i` to the `REGS` output registers. A function
/// marked `inline(always)` rather than a closure: inlined by the first
/// inlining pass, its intrinsics are then inlined with the rest of a
/// forward pass into the `#[target_feature]` function it runs in (a
/// closure was left out of line there, its intrinsics calls).
///
/// # Safety
/// `w` is readable for `(i + 1) * OUT * 4` bytes; the CPU supports `D`'s
/// instructions.
#[inline(always)]
unsafe fn column<D: Dot, const OUT: usize, const REGS: usize>(
    regs: &mut [D::S; REGS],
    w: *const i8,
    i: usize,
    value: u32,
) {
    // SAFETY: the caller guarantees the reads and the instructions.
    unsafe {
        for (r, reg) in regs.iter_mut().enumerate() {
            *reg = D::dot4(*reg, value, w.add((i * OUT + r * D::LANES) * 4));
        }
    }
}

/// [`column`] of chunks `a` and `b` (index, value) at once, through
/// [`Dot::dot4_pair`].
///
/// # Safety
/// As [`column`] for both chunks; and where [`Dot::PAIRS`] holds, the
/// products of each output lane of the two chunks sum within i16.
#[inline(always)]
unsafe fn column_pair<D: Dot, const OUT: usize, const REGS: usize>(
    regs: &mut [D::S; REGS],
    w: *const i8,
    (i, a): (usize, u32),
    (j, b): (usize, u32),
) {
    // SAFETY: the caller guarantees the reads, the sums and the instructions.
    unsafe {
        for (r, reg) in regs.iter_mut().enumerate() {
            let offset = r * D::LANES * 4;
            *reg = D::dot4_pair(*reg, a, w.add(i * OUT * 4 + offset), b, w.add(j * OUT * 4 + offset));
        }
    }
}

/// Row kernel, for layers with few outputs: each output is a dot product of
/// the whole input with its (row-major, padded) weight row.
///
/// # Safety
/// The CPU supports `D`'s instructions.
#[inline(always)]
pub unsafe fn affine_rows<D: Dot, const PADDED: usize, const OUT: usize>(
    biases: &[i32; OUT],
    weights: &[i8],
    input: &[u8; PADDED],
    out: &mut [i32; OUT],
) {
    const { assert!(PADDED.is_multiple_of(4 * D::LANES)) };
    assert_eq!(weights.len(), OUT * PADDED);
    for (o, sum) in out.iter_mut().enumerate() {
        // SAFETY: reads stay within row `o` and the input (both PADDED
        // long); the caller guarantees the instructions.
        unsafe {
            let row = weights.as_ptr().add(o * PADDED);
            let mut acc = D::zero();
            for c in (0..PADDED).step_by(4 * D::LANES) {
                acc = D::dot(acc, input.as_ptr().add(c), row.add(c));
            }
            *sum = biases[o].wrapping_add(D::hsum(acc));
        }
    }
}

#[cfg(test)]
mod tests {
    /// The column kernel of every backend this CPU has, dense and sparse,
    /// equals the scalar sums on random inputs (from none to nearly all of
    /// the chunks zero) and weights: within ±64 every other case, so that
    /// two chunks' products share an i16 lane (`4 * 127 * 64 <= 32767`) and
    /// the paired path runs; up to ±127 otherwise, where it must not. Also
    /// given lists made beforehand, with values and without. Two shapes:
    /// 64 inputs to 16 outputs, and 256 inputs to 32 outputs, whose lists
    /// reach the sixteen-entry blocks ([`crate::simd::Dot::LANE_BLOCKS`])
    /// of kernels with two registers of outputs.
    ///
    /// `R4`, `R8` and `R16`: `OUT` over 4, 8 and 16, the output registers
    /// of 128-, 256- and 512-bit kernels.
    fn column_kernels_equal_scalar<
        const PADDED: usize,
        const CHUNKS: usize,
        const OUT: usize,
        const R4: usize,
        const R8: usize,
        const R16: usize,
    >(
        seed: u64,
    ) {
        use crate::overflow::layers::PairedSums;
        assert!(CHUNKS * 4 == PADDED && R4 * 4 == OUT && R8 * 8 == OUT && R16 * 16 == OUT);
        let mut rng = crate::Rng::new(seed);
        // The kernels this CPU lacks, named once on stderr.
        let mut missing = std::collections::BTreeSet::new();
        for case in 0..200 {
            let bound = if case % 2 == 0 { 64 } else { 127 };
            let rows: Vec<i8> = (0..OUT * PADDED).map(|_| rng.range(-bound, bound) as i8).collect();
            let biases: [i32; OUT] = core::array::from_fn(|_| rng.range(-100_000, 100_000) as i32);
            // Each chunk zero with a probability of 0 to 15 sixteenths
            // (varying with the case), so the lists take every length
            // modulo the kernels' groups.
            let zeros = case as i64 % 16;
            // The sixteen-entry blocks taken in half the cases (pairs of
            // cases, both weight bounds), whichever form this CPU takes.
            #[cfg(target_arch = "x86_64")]
            crate::simd::x86::set_lane_blocks(case % 4 < 2);
            let zero: [bool; CHUNKS] = core::array::from_fn(|_| rng.range(0, 15) < zeros);
            let input: [u8; PADDED] = core::array::from_fn(|i| if zero[i / 4] { 0 } else { rng.range(0, 127) as u8 });
            let paired = PairedSums::of(&rows, PADDED);
            if bound == 64 {
                assert_eq!(paired, PairedSums { consecutive: true, any: true });
            }
            let expected: Vec<i32> = rows
                .chunks_exact(PADDED)
                .zip(&biases)
                .map(|(row, &b)| row.iter().zip(&input).fold(b, |sum, (&w, &x)| sum + i32::from(w) * i32::from(x)))
                .collect();
            let columns = super::super::layout::to_columns(&rows, OUT, PADDED);
            let mut out = [0i32; OUT];
            // Lists made beforehand: by the scalar search (with values) and
            // by the table search (without: a kernel that reads values
            // searches again).
            let mut slots = [super::ChunkSlots::new(), super::ChunkSlots::new()];
            let [scalar_slots, table_slots] = &mut slots;
            let scalar_list = super::ChunkList::search(&input, scalar_slots);
            let table_list = {
                #[cfg(target_arch = "x86_64")]
                // SAFETY: the table search runs only where the CPU has AVX2.
                let list = crate::simd::x86::Avx2::new().map(|_| unsafe {
                    super::nonzero_chunks::<crate::simd::x86::Avx2Dot, CHUNKS>(&input, table_slots)
                });
                #[cfg(not(target_arch = "x86_64"))]
                let list = Some(super::ChunkList::search(&input, table_slots));
                list
            };
            macro_rules! check {
                ($cpu:expr, $method:ident, $listed:ident, $regs:expr, $name:literal) => {
                    if let Some(cpu) = $cpu {
                        cpu.inside()
                            .$method::<PADDED, CHUNKS, OUT, $regs, false>(&biases, &columns, paired, &input, &mut out);
                        assert_eq!(out.to_vec(), expected, "{}, dense, case {case}", $name);
                        cpu.inside()
                            .$method::<PADDED, CHUNKS, OUT, $regs, true>(&biases, &columns, paired, &input, &mut out);
                        assert_eq!(out.to_vec(), expected, "{}, sparse, case {case}", $name);
                        for list in core::iter::once(scalar_list).chain(table_list) {
                            cpu.inside().$listed::<PADDED, CHUNKS, OUT, $regs>(
                                &biases,
                                &columns,
                                paired,
                                &input,
                                Some(list),
                                &mut out,
                            );
                            assert_eq!(
                                out.to_vec(),
                                expected,
                                "{}, listed (values: {}), case {case}",
                                $name,
                                list.values().is_some()
                            );
                        }
                    } else {
                        missing.insert($name);
                    }
                };
            }
            #[cfg(target_arch = "x86_64")]
            {
                use crate::simd::x86::{Avx2, Avx512, Avx512Vnni, AvxVnni};
                check!(Avx2::new(), affine_columns, affine_columns_listed, R8, "avx2");
                check!(AvxVnni::new(), affine_columns, affine_columns_listed, R8, "avx-vnni");
                check!(Avx512::new(), affine_columns, affine_columns_listed, R16, "avx512");
                check!(Avx512::new(), affine_columns_256, affine_columns_256_listed, R8, "avx512, 256-bit");
                check!(Avx512Vnni::new(), affine_columns, affine_columns_listed, R16, "avx512-vnni");
                check!(Avx512Vnni::new(), affine_columns_256, affine_columns_256_listed, R8, "avx512-vnni, 256-bit");
            }
            #[cfg(target_arch = "aarch64")]
            {
                use crate::simd::aarch64::{Neon, NeonDotprod};
                check!(Neon::new(), affine_columns, affine_columns_listed, R4, "neon");
                check!(NeonDotprod::new(), affine_columns, affine_columns_listed, R4, "neon-dotprod");
            }
        }
        if !missing.is_empty() {
            eprintln!(
                "NOT TESTED on this CPU (it lacks their instructions): {}",
                missing.into_iter().collect::<Vec<_>>().join(", ")
            );
        }
    }

    /// The primitives of the sixteen-entry blocks, every dot-product type
    /// this CPU runs, overridden or not: `index_words` splits sixteen
    /// indices into four little-endian words, and `dot4_lane` equals
    /// `dot4` of the lane's value (inputs at most 127, the `Dot` contract).
    #[test]
    fn lane_primitives_equal_their_definitions() {
        use crate::simd::Dot;
        fn check<D: Dot>(rng: &mut crate::Rng) {
            let indices: [u16; 16] = core::array::from_fn(|_| rng.next_u64() as u16);
            // SAFETY: sixteen readable indices; the caller checked the CPU.
            let words = unsafe { D::index_words(indices.as_ptr()) };
            for (k, word) in words.into_iter().enumerate() {
                let expected = (0..4).fold(0u64, |word, e| word | u64::from(indices[4 * k + e]) << (16 * e));
                assert_eq!(word, expected, "{indices:?}");
            }
            let lanes: [i32; 16] =
                core::array::from_fn(|_| i32::from_ne_bytes(core::array::from_fn(|_| rng.range(0, 127) as u8)));
            let sums: [i32; 16] = core::array::from_fn(|_| rng.next_u64() as i32);
            let weights: [i8; 64] = core::array::from_fn(|_| rng.next_u64() as i8);
            for k in 0..D::LANES {
                let (mut got, mut expected) = ([0i32; 16], [0i32; 16]);
                // SAFETY: `LANES <= 16` lanes read from and written to
                // 16-lane arrays, `4 * LANES <= 64` weights, `k < LANES`;
                // the caller checked the CPU.
                unsafe {
                    let (acc, values) = (D::load(sums.as_ptr()), D::load(lanes.as_ptr()));
                    D::store(got.as_mut_ptr(), D::dot4_lane(acc, values, k, weights.as_ptr()));
                    D::store(expected.as_mut_ptr(), D::dot4(acc, lanes[k] as u32, weights.as_ptr()));
                }
                assert_eq!(got, expected, "lane {k}");
            }
        }
        let mut rng = crate::Rng::new(0x1A4E_B10C);
        for _ in 0..200 {
            crate::simd::for_each_dot!(check(&mut rng));
        }
    }

    #[test]
    fn column_kernels_equal_scalar_16_outputs() {
        column_kernels_equal_scalar::<64, 16, 16, 4, 2, 1>(0xC0_1A2B);
    }

    #[test]
    fn column_kernels_equal_scalar_32_outputs() {
        column_kernels_equal_scalar::<256, 64, 32, 8, 4, 2>(0xC0_1A2C);
    }
}
