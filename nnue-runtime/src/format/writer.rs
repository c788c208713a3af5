//! Writing net files: the inverse of [`crate::format::reader`], for tests, tools and
//! benchmarks (random nets of any architecture).

use crate::format::reader::{Encoding, Int, LEB128_MAGIC};

/// Builds a net file in memory.
#[derive(Debug, Default)]
pub struct NetWriter {
    bytes: Vec<u8>,
}

impl NetWriter {
    pub fn new() -> Self {
        NetWriter::default()
    }

    /// A little-endian u32.
    pub fn u32(&mut self, v: u32) {
        self.bytes.extend_from_slice(&v.to_le_bytes());
    }

    /// Version, hash, and the description with its length.
    pub fn header(&mut self, version: u32, hash: u32, description: &str) {
        self.u32(version);
        self.u32(hash);
        self.u32(description.len() as u32);
        self.bytes.extend_from_slice(description.as_bytes());
    }

    /// Integers with `encoding`.
    pub fn ints<T: Int>(&mut self, encoding: Encoding, values: &[T]) {
        match encoding {
            Encoding::Raw => values.iter().for_each(|v| v.write_le(&mut self.bytes)),
            Encoding::Leb128 => {
                let mut block = Vec::with_capacity(values.len() * 2);
                for v in values {
                    leb128(v.to_i64(), &mut block);
                }
                self.bytes.extend_from_slice(LEB128_MAGIC);
                self.u32(block.len() as u32);
                self.bytes.extend_from_slice(&block);
            }
        }
    }

    /// Little-endian f32 values.
    pub fn f32s(&mut self, values: &[f32]) {
        values.iter().for_each(|v| self.bytes.extend_from_slice(&v.to_le_bytes()));
    }

    /// Zeros up to a multiple of `n` bytes (bullet's padding).
    pub fn pad_to(&mut self, n: usize) {
        self.bytes.resize(self.bytes.len().div_ceil(n) * n, 0);
    }

    /// The file.
    pub fn finish(self) -> Vec<u8> {
        self.bytes
    }
}

/// Signed LEB128: seven bits a byte, least significant first, the last
/// byte's bit 6 carrying the sign.
fn leb128(mut v: i64, out: &mut Vec<u8>) {
    loop {
        let byte = (v & 0x7F) as u8;
        v >>= 7;
        let done = (v == 0 && byte & 0x40 == 0) || (v == -1 && byte & 0x40 != 0);
        out.push(if done { byte } else { byte | 0x80 });
        if done {
            return;
        }
    }
}

/// A small deterministic generator (xorshift64*) for random nets.
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }

    /// `n` values in `lo..=hi`, small ones (within an eighth of the range
    /// around zero) half of the time, so that sums land both inside and
    /// outside the clamps.
    pub fn values<T: Int>(&mut self, n: usize, lo: i64, hi: i64) -> Vec<T> {
        (0..n)
            .map(|_| {
                let v = if self.next_u64().is_multiple_of(2) { self.range(lo / 8, hi / 8) } else { self.range(lo, hi) };
                T::from_i64(v)
            })
            .collect()
    }

    /// `n` f32 values in `-bound..=bound` (multiples of 2^-20 of it).
    pub fn floats(&mut self, n: usize, bound: f32) -> Vec<f32> {
        (0..n).map(|_| self.range(-(1 << 20), 1 << 20) as f32 / (1 << 20) as f32 * bound).collect()
    }

    /// An affine layer's weights: `out` rows of `padded`, random in the
    /// first `inputs` columns and zero in the padding. Half of the layers
    /// (at random) keep them within ±64, as trained nets' first layers do:
    /// two input chunks' products then share an i16 lane, and the SIMD
    /// column kernels take their paired path ([`crate::overflow::layers::PairedSums`]).
    pub fn affine_weights(&mut self, out: usize, inputs: usize, padded: usize) -> Vec<i8> {
        let (lo, hi) = if self.next_u64().is_multiple_of(2) { (-64, 64) } else { (-128, 127) };
        let mut w = self.values::<i8>(out * padded, lo, hi);
        for row in w.chunks_exact_mut(padded) {
            row[inputs..].fill(0);
        }
        w
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::reader::NetReader;

    #[test]
    fn leb128_round_trips() {
        let values: Vec<i32> = vec![0, 1, -1, 63, 64, -64, -65, 8191, -8192, i32::MAX, i32::MIN, 12345, -54321];
        let mut w = NetWriter::new();
        w.ints(Encoding::Leb128, &values);
        let bytes = w.finish();
        let mut back = vec![0i32; values.len()];
        let mut r = NetReader::new(&bytes, "test");
        r.ints("values", Encoding::Leb128, 1, &mut back).unwrap();
        r.finish().unwrap();
        assert_eq!(back, values);
    }

    #[test]
    fn one_leb128_block_fills_several_arrays() {
        let values: Vec<i32> = vec![5, -6, 70_000, -70_000, 0];
        let mut w = NetWriter::new();
        w.ints(Encoding::Leb128, &values);
        let bytes = w.finish();
        let (mut first, mut second) = ([0i32; 2], [0i32; 3]);
        let mut r = NetReader::new(&bytes, "test");
        r.leb128_parts("values", &mut [&mut first, &mut second]).unwrap();
        r.finish().unwrap();
        assert_eq!((&first[..], &second[..]), (&values[..2], &values[2..]));
        // Parts that ask for more values than the block holds are an error.
        let mut third = [0i32; 1];
        let mut r = NetReader::new(&bytes, "test");
        assert!(r.leb128_parts("values", &mut [&mut first, &mut second, &mut third]).is_err());
    }
}
