//! Affine (fully connected) layers: u8 inputs, i8 weights, i32 biases and sums.

use crate::aligned::AlignedSlice;
use crate::error::LoadError;
use crate::format::reader::{Encoding, NetReader};
use crate::overflow::layers::PairedSums;

/// An affine layer with `IN` inputs and `OUT` outputs. In the file (and here)
/// the weights are row-major, each row padded with zeros to `PADDED` inputs.
pub struct Affine<const IN: usize, const PADDED: usize, const OUT: usize> {
    /// On the heap, like the weights: a layer stack is built and moved by
    /// value while loading, and inline biases of a wide layer would make
    /// every copy that much stack.
    pub biases: Box<[i32; OUT]>,
    /// `OUT` rows of `PADDED` weights, or the column layout of
    /// [`crate::kernels::layout::to_columns`] after [`Self::to_columns`].
    pub weights: AlignedSlice<i8>,
    /// Which chunks the column kernels may pair (found on loading).
    pub paired: PairedSums,
    nonzero_padding: usize,
}

impl<const IN: usize, const PADDED: usize, const OUT: usize> Affine<IN, PADDED, OUT> {
    const SHAPE_OK: () = assert!(IN <= PADDED && OUT > 0);

    /// Reads the biases, then the weights; `what` names the layer in errors.
    pub fn read(r: &mut NetReader<'_>, what: &str) -> Result<Self, LoadError> {
        let () = Self::SHAPE_OK;
        let mut biases: Box<[i32; OUT]> = vec![0; OUT].into_boxed_slice().try_into().expect("OUT values");
        r.ints(&format!("{what} biases"), Encoding::Raw, 1, &mut biases[..])?;
        let mut weights = AlignedSlice::zeroed(OUT * PADDED);
        r.ints(&format!("{what} weights"), Encoding::Raw, 1, &mut weights)?;
        let nonzero_padding =
            weights.chunks_exact(PADDED).map(|row| row[IN..].iter().filter(|&&w| w != 0).count()).sum();
        let paired = PairedSums::of(&weights, PADDED);
        Ok(Affine { biases, weights, paired, nonzero_padding })
    }

    /// The layer of stack `stack` out of bullet tensors holding every stack:
    /// `biases[stack * OUT + o]`, and the weights as `layout` orders them
    /// (see [`crate::format::bullet::weight_index`]); rows padded with zeros.
    pub fn from_tensors(
        biases: &[i32],
        weights: &[i8],
        layout: crate::format::bullet::Layout,
        stacks: usize,
        stack: usize,
    ) -> Self {
        let () = Self::SHAPE_OK;
        let biases: Box<[i32; OUT]> = super::stack_values(biases, stack);
        let mut rows = AlignedSlice::zeroed(OUT * PADDED);
        for o in 0..OUT {
            for i in 0..IN {
                rows[o * PADDED + i] =
                    weights[crate::format::bullet::weight_index(layout, stacks, OUT, IN, stack, o, i)];
            }
        }
        let paired = PairedSums::of(&rows, PADDED);
        Affine { biases, weights: rows, paired, nonzero_padding: 0 }
    }

    /// Rearranges the weights into four-byte columns for the SIMD column
    /// kernels; [`Self::propagate`] must not be used afterwards.
    pub fn to_columns(&mut self) {
        self.weights = AlignedSlice::from_slice(&crate::kernels::layout::to_columns(&self.weights, OUT, PADDED));
    }

    /// Lays each row's inputs out in `order` (`PADDED` entries, see
    /// [`crate::kernels::layout::ordered_inputs`]), for an input whose
    /// producer leaves its values in that order (AVX2's packed
    /// activations), and decides the pairs of chunks again on the new
    /// rows. Before [`Self::to_columns`]; [`Self::propagate`] must not be
    /// used afterwards.
    pub fn order_inputs(&mut self, order: &[Option<usize>]) {
        self.weights = AlignedSlice::from_slice(&crate::kernels::layout::ordered_inputs(&self.weights, PADDED, order));
        self.paired = PairedSums::of(&self.weights, PADDED);
    }

    /// How many weights in the padding columns (`IN..PADDED`) are not zero.
    /// They never meet a non-zero input, so they do not change results; but
    /// trainers usually write zeros there, which tells apart architectures
    /// whose hash words are equal (Stockfish's hash ignores input widths).
    pub fn nonzero_padding(&self) -> usize {
        self.nonzero_padding
    }
}
