//! A bounds-checked cursor over a net file, with Stockfish's encodings.
//!
//! Every read states what it reads, so that errors name it and its offset.

use crate::error::LoadError;

/// The magic string in front of every LEB128-compressed array.
pub const LEB128_MAGIC: &[u8] = b"COMPRESSED_LEB128";

/// How an integer array is stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// Little-endian, fixed width.
    Raw,
    /// `COMPRESSED_LEB128`, a little-endian u32 byte count, signed LEB128 values.
    Leb128,
}

/// Integers a net file holds.
pub trait Int: Copy + Default + 'static {
    const BYTES: usize;
    const MIN: i64;
    const MAX: i64;
    fn from_le(bytes: &[u8]) -> Self;
    fn from_i64(v: i64) -> Self;
    fn to_i64(self) -> i64;
    fn write_le(self, out: &mut Vec<u8>);
}

macro_rules! int {
    ($($t:ty),*) => {$(
        impl Int for $t {
            const BYTES: usize = std::mem::size_of::<$t>();
            const MIN: i64 = <$t>::MIN as i64;
            const MAX: i64 = <$t>::MAX as i64;
            #[inline]
            fn from_le(bytes: &[u8]) -> Self {
                <$t>::from_le_bytes(bytes.try_into().expect("caller passes exactly BYTES bytes"))
            }
            #[inline]
            fn from_i64(v: i64) -> Self {
                v as $t
            }
            #[inline]
            fn to_i64(self) -> i64 {
                self as i64
            }
            #[inline]
            fn write_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
        }
    )*};
}
int!(i8, i16, i32, u32);

/// The header of a net file: version, hash, description.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Header {
    pub version: u32,
    pub hash: u32,
    pub description: String,
}

/// A cursor over the bytes of a net file.
pub struct NetReader<'a> {
    bytes: &'a [u8],
    offset: usize,
    arch: &'static str,
}

impl<'a> NetReader<'a> {
    /// A reader for a net of architecture `arch` (named in hash errors).
    pub fn new(bytes: &'a [u8], arch: &'static str) -> Self {
        NetReader { bytes, offset: 0, arch }
    }

    /// The current offset.
    pub fn offset(&self) -> usize {
        self.offset
    }

    fn take(&mut self, what: &dyn Fn() -> String, n: usize) -> Result<&'a [u8], LoadError> {
        match self.offset.checked_add(n).filter(|&end| end <= self.bytes.len()) {
            Some(end) => {
                let out = &self.bytes[self.offset..end];
                self.offset = end;
                Ok(out)
            }
            None => Err(LoadError::Truncated { what: what(), offset: self.offset, needed: n, len: self.bytes.len() }),
        }
    }

    /// Reads a little-endian u32.
    pub fn u32(&mut self, what: &str) -> Result<u32, LoadError> {
        self.take(&|| what.to_owned(), 4).map(<u32 as Int>::from_le)
    }

    /// Reads the header without checking its hash (for identifying a file).
    pub fn header(&mut self) -> Result<Header, LoadError> {
        let version = self.u32("the version")?;
        let hash = self.u32("the header hash")?;
        let len = self.u32("the description length")? as usize;
        let text = self.take(&|| "the description".to_owned(), len)?;
        let description = String::from_utf8(text.to_vec()).map_err(|_| LoadError::Description { len })?;
        Ok(Header { version, hash, description })
    }

    /// Reads the header and checks its version and hash.
    pub fn expect_header(&mut self, version: u32, hash: u32) -> Result<Header, LoadError> {
        let at = self.offset;
        let header = self.header()?;
        if header.version != version {
            return Err(LoadError::Version { found: header.version, expected: version });
        }
        if header.hash != hash {
            return Err(LoadError::Hash { what: "the header hash".into(), offset: at + 4, found: header.hash, expected: hash, arch: self.arch });
        }
        Ok(header)
    }

    /// Reads a section's hash word and checks it.
    pub fn expect_hash(&mut self, what: &str, expected: u32) -> Result<(), LoadError> {
        let offset = self.offset;
        let found = self.u32(what)?;
        if found != expected {
            return Err(LoadError::Hash { what: what.to_owned(), offset, found, expected, arch: self.arch });
        }
        Ok(())
    }

    /// Reads `out.len()` integers stored with `encoding`, multiplying each by
    /// `scale` (an error if the product does not fit).
    pub fn ints<T: Int>(&mut self, what: &str, encoding: Encoding, scale: i32, out: &mut [T]) -> Result<(), LoadError> {
        match encoding {
            Encoding::Raw => {
                let start = self.offset;
                let bytes = self.take(&|| what.to_owned(), out.len() * T::BYTES)?;
                for (i, (v, b)) in out.iter_mut().zip(bytes.chunks_exact(T::BYTES)).enumerate() {
                    *v = scaled(T::from_le(b), scale, what, start + i * T::BYTES)?;
                }
                Ok(())
            }
            Encoding::Leb128 => self.leb128(what, scale, &mut [out]),
        }
    }

    /// Reads one LEB128 block holding several arrays one after the other
    /// (Stockfish 18 stores the threat and piece-square PSQT weights so),
    /// filling `parts` in order.
    pub fn leb128_parts<T: Int>(&mut self, what: &str, parts: &mut [&mut [T]]) -> Result<(), LoadError> {
        self.leb128(what, 1, parts)
    }

    /// Reads several arrays stored one after the other with `encoding`, as
    /// one block when LEB128 (the PSQT weights of several feature sets),
    /// filling `parts` in order; nothing is scaled.
    pub fn int_parts<T: Int>(&mut self, what: &str, encoding: Encoding, parts: &mut [&mut [T]]) -> Result<(), LoadError> {
        match encoding {
            Encoding::Raw => parts.iter_mut().try_for_each(|part| self.ints(what, Encoding::Raw, 1, part)),
            Encoding::Leb128 => self.leb128(what, 1, parts),
        }
    }

    fn leb128<T: Int>(&mut self, what: &str, scale: i32, parts: &mut [&mut [T]]) -> Result<(), LoadError> {
        let count: usize = parts.iter().map(|part| part.len()).sum();
        let magic_at = self.offset;
        let magic = self.take(&|| format!("{what} (LEB128 magic)"), LEB128_MAGIC.len())?;
        if magic != LEB128_MAGIC {
            return Err(LoadError::Leb128Magic { what: what.to_owned(), offset: magic_at });
        }
        let size = self.u32(&format!("{what} (LEB128 byte count)"))? as usize;
        let start = self.offset;
        let block = self.take(&|| format!("{what} (LEB128 block of {size} bytes)"), size)?;
        let max_bytes = (T::BYTES * 8).div_ceil(7);
        if let [out] = parts
            && leb128_whole(block, max_bytes, scale, out)
        {
            return Ok(());
        }
        // Sequentially: every problem is found at its value.
        let problem = |offset: usize, problem: String| LoadError::Leb128 { what: what.to_owned(), offset, problem };
        let (mut pos, mut i) = (0, 0);
        for part in parts.iter_mut() {
            for v in part.iter_mut() {
                let value_at = start + pos;
                let (value, len) = match block.get(pos..pos + 4).and_then(|word| leb128_of_word(word, max_bytes)) {
                    Some(decoded) => decoded,
                    None => leb128_slow(&block[pos..], max_bytes)
                        .map_err(|e| problem(value_at, e.describe(i, count, max_bytes)))?,
                };
                pos += len;
                if !(T::MIN..=T::MAX).contains(&value) {
                    return Err(problem(value_at, format!("value {i} = {value} does not fit in {} bytes", T::BYTES)));
                }
                *v = scaled(T::from_i64(value), scale, what, value_at)?;
                i += 1;
            }
        }
        if pos != block.len() {
            return Err(problem(start + pos, format!("{} bytes left over after {count} values", block.len() - pos)));
        }
        Ok(())
    }

    /// Checks that the whole file has been read.
    pub fn finish(self) -> Result<(), LoadError> {
        match self.bytes.len() - self.offset {
            0 => Ok(()),
            extra => Err(LoadError::TrailingBytes { offset: self.offset, extra }),
        }
    }
}

/// One signed LEB128 value from the first bytes of `word` (four bytes of
/// the block), without a branch on its length: the value and its length
/// in bytes, or `None` if it is longer than three bytes or than
/// `max_bytes` (then [`leb128_slow`] reads it, or says what is wrong).
#[inline]
pub(crate) fn leb128_of_word(word: &[u8], max_bytes: usize) -> Option<(i64, usize)> {
    let w = u32::from_le_bytes(word.try_into().ok()?);
    let (more0, more1, more2) = (w >> 7 & 1, w >> 15 & 1, w >> 23 & 1);
    let len = 1 + more0 + (more0 & more1);
    if more0 & more1 & more2 != 0 || len as usize > max_bytes {
        return None;
    }
    // The 7-bit groups of the three bytes side by side, then the value's
    // `7 * len` low bits sign-extended from its last group's bit 6 (shifted
    // up past the `unused` high bits, then arithmetically back down).
    let groups = (w & 0x7F) | (w >> 1 & 0x3F80) | (w >> 2 & 0x1F_C000);
    let unused = 32 - 7 * len;
    Some((i64::from(((groups << unused) as i32) >> unused), len as usize))
}

/// Decodes `block`, `out.len()` LEB128 values, into `out` (each times
/// `scale`): on x86-64, values into i16 by eight bytes at a time
/// ([`crate::simd::x86::leb128`]), the rest one by one. Returns `false`,
/// with `out` partly written, when the block is anything but well-formed
/// (a count of values other than `out.len()`, a value longer than the
/// type allows, outside `T` or whose product with `scale` is): then the
/// caller decodes it value by value and reports the problem.
fn leb128_whole<T: Int>(block: &[u8], max_bytes: usize, scale: i32, out: &mut [T]) -> bool {
    let (mut pos, mut done) = (0, 0);
    #[cfg(target_arch = "x86_64")]
    if core::any::TypeId::of::<T>() == core::any::TypeId::of::<i16>() {
        // SAFETY: `T` is `i16` (the same type id), so `out` is a slice of i16.
        let values = unsafe { &mut *(out as *mut [T] as *mut [i16]) };
        match crate::simd::x86::leb128::decode_i16(block, scale, values) {
            Some(decoded) => (pos, done) = decoded,
            None => return false,
        }
    }
    for v in &mut out[done..] {
        let decoded = match block.get(pos..pos + 4) {
            Some(word) => leb128_of_word(word, max_bytes),
            None => leb128_slow(&block[pos..], max_bytes).ok(),
        };
        let Some((value, len)) = decoded else { return false };
        let value = value * i64::from(scale);
        if !(T::MIN..=T::MAX).contains(&value) {
            return false;
        }
        *v = T::from_i64(value);
        pos += len;
    }
    pos == block.len()
}

/// Why a LEB128 value cannot be read.
enum Leb128Problem {
    /// The block ends inside it.
    Ends,
    /// It has more than the type's bytes.
    TooLong,
}

impl Leb128Problem {
    /// The message for value `i` of `count`.
    fn describe(&self, i: usize, count: usize, max_bytes: usize) -> String {
        match self {
            Leb128Problem::Ends => format!("block ends after {i} of {count} values"),
            Leb128Problem::TooLong => format!("value {i} is longer than {max_bytes} bytes"),
        }
    }
}

/// One signed LEB128 value at the start of `bytes`, byte by byte: the value
/// and its length.
fn leb128_slow(bytes: &[u8], max_bytes: usize) -> Result<(i64, usize), Leb128Problem> {
    let (mut value, mut shift) = (0i64, 0);
    for (n, &byte) in bytes.iter().enumerate() {
        value |= i64::from(byte & 0x7F) << shift;
        shift += 7;
        if byte & 0x80 == 0 {
            if byte & 0x40 != 0 {
                value -= 1 << shift;
            }
            return Ok((value, n + 1));
        }
        if n + 1 >= max_bytes {
            return Err(Leb128Problem::TooLong);
        }
    }
    Err(Leb128Problem::Ends)
}

#[inline]
fn scaled<T: Int>(v: T, scale: i32, what: &str, offset: usize) -> Result<T, LoadError> {
    if scale == 1 {
        return Ok(v);
    }
    let product = v.to_i64() * i64::from(scale);
    if (T::MIN..=T::MAX).contains(&product) {
        Ok(T::from_i64(product))
    } else {
        Err(LoadError::Scale { what: what.to_owned(), offset, value: v.to_i64(), scale })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every 4-byte word the branch-free decoder accepts decodes as the
    /// byte-by-byte one does (value and length), for i8's and i16's limits;
    /// it declines only words the slow path must see (longer values).
    #[test]
    fn word_decoder_agrees_with_the_byte_decoder() {
        let mut rng = crate::writer::Rng::new(0x1EB128);
        let interesting = [0x00u8, 0x01, 0x3F, 0x40, 0x41, 0x7F, 0x80, 0x81, 0xBF, 0xC0, 0xFF];
        let mut words: Vec<[u8; 4]> = Vec::new();
        for a in interesting {
            for b in interesting {
                for c in interesting {
                    words.push([a, b, c, rng.next_u64() as u8]);
                }
            }
        }
        words.extend((0..200_000).map(|_| (rng.next_u64() as u32).to_le_bytes()));
        for max_bytes in [2, 3] {
            let mut fast = 0;
            for word in &words {
                match leb128_of_word(word, max_bytes) {
                    Some(decoded) => {
                        fast += 1;
                        assert_eq!(Ok(decoded), leb128_slow(word, max_bytes).map_err(|_| ()), "{word:02X?}");
                    }
                    None => assert!(word[..max_bytes].iter().all(|b| b & 0x80 != 0), "{word:02X?} declined"),
                }
            }
            assert!(fast > words.len() / 2, "the fast path serves most words");
        }
    }

    /// Decodes `block` value by value (the reader's sequential path).
    fn sequential<T: Int>(block: &[u8], scale: i32, n: usize) -> Result<Vec<T>, LoadError> {
        let mut bytes = LEB128_MAGIC.to_vec();
        bytes.extend_from_slice(&(block.len() as u32).to_le_bytes());
        bytes.extend_from_slice(block);
        let mut out = vec![T::default(); n];
        // Two parts: the sequential path.
        let (first, second) = out.split_at_mut(n / 2);
        NetReader::new(&bytes, "test").leb128("values", scale, &mut [first, second])?;
        Ok(out)
    }

    /// The block of `values`.
    fn block_of(values: &[i16]) -> Vec<u8> {
        let mut writer = crate::writer::NetWriter::new();
        writer.ints(Encoding::Leb128, values);
        writer.finish()[LEB128_MAGIC.len() + 4..].to_vec()
    }

    /// The whole-block decoder (SIMD on x86-64) gives what the sequential
    /// one gives, on blocks of every length modulo 8 with values of one to
    /// three bytes, and on the same blocks with a byte changed: it either
    /// declines or agrees with the sequential decoder, which then succeeds.
    #[test]
    fn whole_blocks_agree_with_the_sequential_decoder() {
        let mut rng = crate::writer::Rng::new(0x5742);
        for extra in 0..8 {
            let n = 1000 + extra;
            let values: Vec<i16> = (0..n)
                .map(|_| match rng.next_u64() % 8 {
                    0 => rng.next_u64() as i16,
                    1..=3 => rng.range(-8192, 8191) as i16,
                    _ => rng.range(-64, 63) as i16,
                })
                .collect();
            let block = block_of(&values);
            for scale in [1, 2] {
                let mut out = vec![0i16; n];
                let streamed = leb128_whole(&block, 3, scale, &mut out);
                match sequential::<i16>(&block, scale, n) {
                    Ok(expected) => assert!(streamed && out == expected, "{n} values, scale {scale}"),
                    Err(_) => assert!(!streamed, "{n} values, scale {scale}: a bad block accepted"),
                }
            }
            assert!(leb128_whole(&block, 3, 1, &mut vec![0i16; n]), "{n} values");
            assert!(!leb128_whole(&block, 3, 1, &mut vec![0i16; n + 1]), "one value too many");
            for _ in 0..40 {
                let mut bad = block.clone();
                let at = rng.next_u64() as usize % bad.len();
                bad[at] = rng.next_u64() as u8;
                let mut out = vec![0i16; n];
                if leb128_whole(&bad, 3, 1, &mut out) {
                    assert_eq!(sequential::<i16>(&bad, 1, n).ok(), Some(out), "byte {at} changed");
                }
            }
            for cut in [1, 2, block.len() / 2] {
                assert!(!leb128_whole(&block[..block.len() - cut], 3, 1, &mut vec![0i16; n]), "{cut} bytes cut");
            }
        }
    }

    /// Every i16, written by the writer, reads back, also at the block's end
    /// (where fewer than four bytes remain).
    #[test]
    fn every_i16_round_trips() {
        let values: Vec<i16> = (i16::MIN..=i16::MAX).collect();
        let mut writer = crate::writer::NetWriter::new();
        writer.ints(Encoding::Leb128, &values);
        let bytes = writer.finish();
        let mut read = vec![0i16; values.len()];
        NetReader::new(&bytes, "test").ints("values", Encoding::Leb128, 1, &mut read).unwrap();
        assert_eq!(read, values);
    }
}
