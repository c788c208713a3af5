//! The transformer's output of a network whose first layer has a sparse
//! input, together with the list of the output's non-zero four-byte chunks
//! that the transformer's kernel made right after writing it (see
//! [`crate::kernels::nonzero_chunks`]): what [`crate::Network::transform`]
//! hands to [`crate::Network::forward`] for such networks.

use crate::aligned::Aligned;
use crate::kernels::ChunkList;

/// `BYTES` output bytes and the list of their non-zero chunks of four
/// (`CHUNKS = BYTES / 4`): indices, and values where the search listed
/// them. Filled only through [`Self::set`] from a transformer kernel's
/// output and list.
#[derive(Clone)]
pub struct SparseTransformed<const BYTES: usize, const CHUNKS: usize> {
    bytes: Aligned<[u8; BYTES]>,
    nonzero: [u16; CHUNKS],
    values: [u32; CHUNKS],
    count: usize,
    has_values: bool,
}

impl<const BYTES: usize, const CHUNKS: usize> SparseTransformed<BYTES, CHUNKS> {
    /// All zeros: no chunk listed.
    pub fn new() -> Self {
        const { assert!(BYTES == 4 * CHUNKS) };
        SparseTransformed {
            bytes: Aligned([0; BYTES]),
            nonzero: [0; CHUNKS],
            values: [0; CHUNKS],
            count: 0,
            has_values: false,
        }
    }

    /// Holds `bytes` and `nonzero`, the list of their non-zero chunks (as
    /// a backend's `transform_listed` returns them). A list of other bytes
    /// gives other layer outputs, never a read out of bounds: its indices
    /// are below `CHUNKS` by construction.
    pub fn set(&mut self, bytes: &[u8; BYTES], nonzero: ChunkList<'_, CHUNKS>) {
        let indices = nonzero.indices();
        self.bytes.0 = *bytes;
        self.nonzero[..indices.len()].copy_from_slice(indices);
        self.count = indices.len();
        self.has_values = nonzero.values().is_some();
        if let Some(values) = nonzero.values() {
            self.values[..values.len()].copy_from_slice(values);
        }
    }

    /// The output bytes.
    pub fn bytes(&self) -> &[u8; BYTES] {
        &self.bytes
    }

    /// The list of their non-zero chunks.
    pub fn nonzero(&self) -> ChunkList<'_, CHUNKS> {
        // Copied from a `ChunkList` (or empty): every index below CHUNKS,
        // as many values if it had them.
        ChunkList::from_valid(&self.nonzero[..self.count], self.has_values.then(|| &self.values[..self.count]))
    }
}

impl<const BYTES: usize, const CHUNKS: usize> Default for SparseTransformed<BYTES, CHUNKS> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const BYTES: usize, const CHUNKS: usize> AsRef<[u8]> for SparseTransformed<BYTES, CHUNKS> {
    fn as_ref(&self) -> &[u8] {
        &self.bytes.0
    }
}
