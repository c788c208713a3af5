//! Bullet's raw net format: little-endian tensors back to back in an order
//! the architecture gives, no header, then zeros up to a multiple of a
//! padding size. Nothing identifies such a file but its size, so a file
//! whose size is not the architecture's is rejected before anything is read.
//! Some engines ship it zstd-compressed: it is then decoded as it is read,
//! and its decoded size checked as it ends.

use crate::error::LoadError;
use crate::format::reader::{Encoding, Int, NetReader};

/// The element type of a tensor in the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TensorType {
    I8,
    I16,
    I32,
    F32,
}

impl TensorType {
    /// Bytes per element.
    pub const fn bytes(self) -> usize {
        match self {
            TensorType::I8 => 1,
            TensorType::I16 => 2,
            TensorType::I32 | TensorType::F32 => 4,
        }
    }
}

/// The order of a layer's weights; the outputs of all layer stacks count as
/// one output axis, `stack * outputs + output`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// `input * (stacks * outputs) + stack * outputs + output` (bullet's raw
    /// layout, output buckets interleaved).
    InputMajor,
    /// `(stack * outputs + output) * inputs + input` (transposed).
    OutputMajor,
    /// Stack by stack: `stack * (outputs * inputs)` plus the weight's place
    /// within its stack in the order given.
    Stacked(StackOrder),
}

/// The order of one stack's weights within a [`Layout::Stacked`] tensor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum StackOrder {
    /// `input * outputs + output`.
    InputMajor,
    /// `output * inputs + input`.
    OutputMajor,
    /// Inputs in blocks of `n`: `(input / n) * outputs * n + output * n +
    /// input % n`.
    InputBlocks(usize),
}

/// The position in a weight tensor of stack `stack`'s weight from input `i`
/// to output `o`.
#[inline]
pub fn weight_index(
    layout: Layout,
    stacks: usize,
    outputs: usize,
    inputs: usize,
    stack: usize,
    o: usize,
    i: usize,
) -> usize {
    match layout {
        Layout::InputMajor => i * (stacks * outputs) + stack * outputs + o,
        Layout::OutputMajor => (stack * outputs + o) * inputs + i,
        Layout::Stacked(order) => {
            stack * (outputs * inputs)
                + match order {
                    StackOrder::InputMajor => i * outputs + o,
                    StackOrder::OutputMajor => o * inputs + i,
                    StackOrder::InputBlocks(n) => (i / n) * outputs * n + o * n + i % n,
                }
        }
    }
}

/// The size of a file holding tensors of these byte sizes, padded to a
/// multiple of `pad_to`.
pub const fn file_bytes(tensor_bytes: &[usize], pad_to: usize) -> usize {
    let mut total = 0;
    let mut i = 0;
    while i < tensor_bytes.len() {
        total += tensor_bytes[i];
        i += 1;
    }
    total.div_ceil(pad_to) * pad_to
}

/// `bytes` zstd-compressed, in one frame (random nets of architectures
/// whose files are compressed, for tests and benchmarks).
pub fn zstd_compress(bytes: &[u8]) -> Vec<u8> {
    ruzstd::encoding::compress_to_vec(bytes, ruzstd::encoding::CompressionLevel::Fastest)
}

/// A cursor over a bullet file whose size has been checked.
pub struct BulletReader<'a> {
    reader: NetReader<'a>,
}

impl<'a> BulletReader<'a> {
    /// A reader for a file of architecture `arch`, which must be exactly
    /// `expected` bytes long.
    pub fn new(bytes: &'a [u8], arch: &'static str, expected: usize) -> Result<Self, LoadError> {
        if bytes.len() != expected {
            return Err(LoadError::Size { arch, expected, actual: bytes.len() });
        }
        Ok(BulletReader { reader: NetReader::new(bytes, arch) })
    }

    /// A reader of a zstd-compressed file of architecture `arch`, which
    /// must decode to exactly `expected` bytes, decoded as it is read (the
    /// decoded file is never in memory whole).
    pub fn zstd(compressed: impl std::io::Read + 'a, arch: &'static str, expected: usize) -> Result<Self, LoadError> {
        let decoder = ruzstd::decoding::StreamingDecoder::new(compressed)
            .map_err(|e| LoadError::Decompress { offset: 0, message: e.to_string() })?;
        Ok(BulletReader { reader: NetReader::stream(Box::new(decoder), expected, arch) })
    }

    /// Reads past the padding after the last tensor and checks that the
    /// file ends there.
    pub fn finish(mut self) -> Result<(), LoadError> {
        self.reader.skip("the padding", self.reader.remaining())?;
        self.reader.finish()
    }

    /// Reads `out.len()` values stored as `ty`, each widened to `T` and
    /// multiplied by `scale` (an error if the product does not fit).
    pub fn tensor<T: Int>(&mut self, what: &str, ty: TensorType, scale: i32, out: &mut [T]) -> Result<(), LoadError> {
        match ty {
            TensorType::I8 => self.widened::<i8, T>(what, scale, out),
            TensorType::I16 => self.widened::<i16, T>(what, scale, out),
            TensorType::I32 => self.widened::<i32, T>(what, scale, out),
            TensorType::F32 => panic!("{what}: an f32 tensor is read with `floats`"),
        }
    }

    /// Reads `out.len()` little-endian f32 values.
    pub fn floats(&mut self, what: &str, out: &mut [f32]) -> Result<(), LoadError> {
        let mut bits = vec![0i32; out.len()];
        self.reader.ints(what, Encoding::Raw, 1, &mut bits)?;
        for (o, b) in out.iter_mut().zip(bits) {
            *o = f32::from_bits(b as u32);
        }
        Ok(())
    }

    fn widened<S: Int, T: Int>(&mut self, what: &str, scale: i32, out: &mut [T]) -> Result<(), LoadError> {
        if S::BYTES == T::BYTES {
            return self.reader.ints(what, Encoding::Raw, scale, out);
        }
        assert!(S::MIN >= T::MIN && S::MAX <= T::MAX, "a tensor is widened, never narrowed");
        const CHUNK: usize = 4096;
        let mut stored = [S::default(); CHUNK];
        for part in out.chunks_mut(CHUNK) {
            let stored = &mut stored[..part.len()];
            self.reader.ints(what, Encoding::Raw, scale, stored)?;
            for (o, v) in part.iter_mut().zip(stored.iter()) {
                *o = T::from_i64(v.to_i64());
            }
        }
        Ok(())
    }

    /// The offset after the last tensor read.
    pub fn offset(&self) -> usize {
        self.reader.offset()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_padded() {
        assert_eq!(file_bytes(&[3_145_728, 1024, 16_384, 16], 64), 3_163_200);
        assert_eq!(file_bytes(&[10, 2], 1), 12);
    }

    #[test]
    fn a_wrong_size_is_named() {
        let err = BulletReader::new(&[0; 10], "net", 12).err().expect("an error");
        assert!(matches!(err, LoadError::Size { expected: 12, actual: 10, .. }), "{err}");
    }

    #[test]
    fn narrow_tensors_are_widened() {
        let bytes = [0xFFu8, 0x02, 0x01, 0x80];
        let mut r = BulletReader::new(&bytes, "net", 4).unwrap();
        let mut a = [0i16; 2];
        r.tensor("a", TensorType::I8, 1, &mut a).unwrap();
        assert_eq!(a, [-1, 2]);
        let mut b = [0i32; 1];
        r.tensor("b", TensorType::I16, 1, &mut b).unwrap();
        assert_eq!(b, [-32767]);
        assert_eq!(r.offset(), 4);
        let bytes = 0.5f32.to_le_bytes();
        let mut r = BulletReader::new(&bytes, "net", 4).unwrap();
        let mut c = [0.0f32; 1];
        r.floats("c", &mut c).unwrap();
        assert_eq!(c, [0.5]);
    }

    #[test]
    fn zstd_files_are_decoded_as_read_and_their_size_checked() {
        let raw: Vec<u8> = (0..1000u32).map(|i| (i * 7 % 251) as u8).collect();
        let compress =
            |bytes: &[u8]| ruzstd::encoding::compress_to_vec(bytes, ruzstd::encoding::CompressionLevel::Fastest);
        let file = compress(&raw);
        // 996 bytes of tensors, then 4 of padding.
        let mut r = BulletReader::zstd(&file[..], "net", 1000).unwrap();
        let mut values = vec![0i16; 498];
        r.tensor("values", TensorType::I16, 1, &mut values).unwrap();
        assert_eq!(values[1], i16::from_le_bytes([raw[2], raw[3]]));
        r.finish().unwrap();
        // A file that decodes to fewer or more bytes.
        let mut r = BulletReader::zstd(&file[..], "net", 1200).unwrap();
        let err = r.tensor("values", TensorType::I16, 1, &mut vec![0i16; 600]).unwrap_err();
        assert!(matches!(err, LoadError::DecompressedSize { expected: 1200, actual: 1000, .. }), "{err}");
        let r = BulletReader::zstd(&file[..], "net", 900).unwrap();
        let err = r.finish().unwrap_err();
        assert!(matches!(err, LoadError::DecompressedSize { expected: 900, actual: 1000, .. }), "{err}");
        // Not zstd at all, or cut short.
        assert!(matches!(BulletReader::zstd(&raw[..], "net", 1000), Err(LoadError::Decompress { .. })));
        let mut r = BulletReader::zstd(&file[..file.len() / 2], "net", 1000).unwrap();
        let err = r.tensor("values", TensorType::I16, 1, &mut values).unwrap_err();
        assert!(matches!(err, LoadError::Decompress { .. } | LoadError::DecompressedSize { .. }), "{err}");
    }

    #[test]
    fn weight_orders() {
        // 2 stacks x 3 outputs x 4 inputs.
        assert_eq!(weight_index(Layout::InputMajor, 2, 3, 4, 1, 2, 3), 3 * 6 + 3 + 2);
        assert_eq!(weight_index(Layout::OutputMajor, 2, 3, 4, 1, 2, 3), (3 + 2) * 4 + 3);
        let stacked = |order| weight_index(Layout::Stacked(order), 2, 3, 4, 1, 2, 3);
        assert_eq!(stacked(StackOrder::InputMajor), 12 + 3 * 3 + 2);
        assert_eq!(stacked(StackOrder::OutputMajor), 12 + 2 * 4 + 3);
        // Blocks of 2 inputs: input 3 is in block 1, at place 1 of output 2's pair.
        assert_eq!(stacked(StackOrder::InputBlocks(2)), 12 + 3 * 2 + 2 * 2 + 1);
        // Every weight of a stack has a place of its own.
        let mut seen = [false; 12];
        for o in 0..3 {
            for i in 0..4 {
                seen[weight_index(Layout::Stacked(StackOrder::InputBlocks(4)), 2, 3, 4, 0, o, i)] = true;
            }
        }
        assert!(seen.iter().all(|&s| s));
    }
}
