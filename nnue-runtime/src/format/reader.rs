//! A bounds-checked cursor over a net file, with Stockfish's encodings.
//!
//! Every read states what it reads, so that errors name it and its offset.

use crate::error::LoadError;
use crate::format::leb128::leb128_of_word;

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

/// When a net's header hash `found` is not the architecture's `expected`,
/// and its transformer hash word is `transformer`: `(L1, the feature set's
/// word)` if the difference is a feature-set hash word missing from the
/// architecture.
///
/// The header word is the transformer's XOR the layer stack's. If the
/// stacks' words agree, the architecture's transformer word is `expected ^
/// found ^ transformer`; when that is `2 * L1` for an L1 the validator
/// accepts (a positive multiple of 64, here below 32768), the architecture's
/// feature set has no hash word (its word is 0), and the net's is
/// `transformer ^ 2 * L1`. Any other difference (another layer stack, another
/// L1, a feature set with another word) is almost never of this form.
fn missing_set_hash(expected: u32, found: u32, transformer: u32) -> Option<(usize, u32)> {
    let width = expected ^ found ^ transformer;
    let plausible = width != 0 && width.is_multiple_of(128) && width < 1 << 16;
    (plausible && found != expected).then_some(((width / 2) as usize, transformer ^ width))
}

/// Bytes read from a file at a time: its arrays (most of it is one LEB128
/// block of transformer weights) are decoded piece by piece, so a net loaded
/// from a file is never held whole in memory.
const CHUNK: usize = 1 << 20;

/// Where a reader's bytes come from.
enum Source<'a> {
    /// A net in memory (`include_bytes!`, or read by the caller).
    Bytes(&'a [u8]),
    /// A net read whole from something other than a regular file (a pipe:
    /// its length is known only at its end).
    Owned(Vec<u8>),
    /// A regular file, read in order; `buffer` holds the bytes last read.
    File { file: std::io::BufReader<std::fs::File>, path: std::path::PathBuf, buffer: Vec<u8> },
    /// Bytes decoded as they are read (a compressed net), whose length is
    /// known only at their end; `buffer` holds the bytes last read.
    Stream { stream: Box<dyn std::io::Read + 'a>, buffer: Vec<u8> },
}

impl Source<'_> {
    /// The whole net, when it is in memory.
    fn in_memory(&self) -> Option<&[u8]> {
        match self {
            Source::Bytes(bytes) => Some(bytes),
            Source::Owned(bytes) => Some(bytes),
            Source::File { .. } | Source::Stream { .. } => None,
        }
    }
}

/// A cursor over a net file, in memory or read from disk as it goes.
pub struct NetReader<'a> {
    source: Source<'a>,
    /// The file's length.
    len: usize,
    offset: usize,
    arch: &'static str,
}

impl<'a> NetReader<'a> {
    /// A reader for a net of architecture `arch` (named in hash errors).
    pub fn new(bytes: &'a [u8], arch: &'static str) -> Self {
        NetReader { source: Source::Bytes(bytes), len: bytes.len(), offset: 0, arch }
    }

    /// A reader of the net file at `path`, read in order as the net is
    /// decoded, at most a megabyte at a time (read whole first if it is not
    /// a regular file, whose length is known before it is read).
    pub fn open(path: &std::path::Path, arch: &'static str) -> Result<NetReader<'static>, LoadError> {
        let io = |source| LoadError::Io { path: path.to_owned(), source };
        let mut file = std::fs::File::open(path).map_err(io)?;
        let metadata = file.metadata().map_err(io)?;
        if !metadata.is_file() {
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut file, &mut bytes).map_err(io)?;
            return Ok(NetReader { len: bytes.len(), source: Source::Owned(bytes), offset: 0, arch });
        }
        let len = usize::try_from(metadata.len())
            .map_err(|_| io(std::io::Error::other("the file does not fit in memory")))?;
        let file = std::io::BufReader::with_capacity(1 << 16, file);
        Ok(NetReader { source: Source::File { file, path: path.to_owned(), buffer: Vec::new() }, len, offset: 0, arch })
    }

    /// A reader of the bytes `stream` decodes (a compressed net), which
    /// must be exactly `len` bytes: fewer, or more (found by
    /// [`Self::finish`]), is [`LoadError::DecompressedSize`].
    pub fn stream(stream: Box<dyn std::io::Read + 'a>, len: usize, arch: &'static str) -> Self {
        NetReader { source: Source::Stream { stream, buffer: Vec::new() }, len, offset: 0, arch }
    }

    /// The current offset.
    pub fn offset(&self) -> usize {
        self.offset
    }

    /// The bytes left after the current offset.
    pub fn remaining(&self) -> usize {
        self.len - self.offset
    }

    /// Checks that `n` bytes follow the current offset: else the error says
    /// what they are.
    fn check(&self, what: &dyn Fn() -> String, n: usize) -> Result<(), LoadError> {
        match self.offset.checked_add(n) {
            Some(end) if end <= self.len => Ok(()),
            _ => Err(LoadError::Truncated { what: what(), offset: self.offset, needed: n, len: self.len }),
        }
    }

    /// The next `n` bytes.
    fn take(&mut self, what: &dyn Fn() -> String, n: usize) -> Result<&[u8], LoadError> {
        self.check(what, n)?;
        let start = self.offset;
        self.offset += n;
        match &mut self.source {
            Source::Bytes(bytes) => Ok(&bytes[start..start + n]),
            Source::Owned(bytes) => Ok(&bytes[start..start + n]),
            Source::File { file, path, buffer } => {
                buffer.clear();
                buffer.resize(n, 0);
                std::io::Read::read_exact(file, buffer)
                    .map_err(|source| LoadError::Io { path: path.clone(), source })?;
                Ok(buffer)
            }
            Source::Stream { stream, buffer } => {
                buffer.clear();
                buffer.resize(n, 0);
                let got = read_stream(stream.as_mut(), buffer, start)?;
                if got < n {
                    return Err(LoadError::DecompressedSize {
                        arch: self.arch,
                        expected: self.len,
                        actual: start + got,
                    });
                }
                Ok(buffer)
            }
        }
    }

    /// Reads past the next `n` bytes (padding).
    pub fn skip(&mut self, what: &str, n: usize) -> Result<(), LoadError> {
        self.check(&|| what.to_owned(), n)?;
        let mut left = n;
        while left > 0 {
            let step = left.min(CHUNK);
            self.take(&|| what.to_owned(), step)?;
            left -= step;
        }
        Ok(())
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
            // The transformer's word follows the header: it may show that
            // only the feature set's hash word differs.
            let transformer_offset = self.offset;
            if let Ok(word) = self.u32("the transformer hash")
                && let Some((dimensions, set_hash)) = missing_set_hash(hash, header.hash, word)
            {
                return Err(LoadError::FeatureSetHash {
                    offset: at + 4,
                    found: header.hash,
                    expected: hash,
                    arch: self.arch,
                    transformer_offset,
                    transformer_found: word,
                    dimensions,
                    set_hash,
                });
            }
            return Err(LoadError::Hash {
                what: "the header hash".into(),
                offset: at + 4,
                found: header.hash,
                expected: hash,
                arch: self.arch,
            });
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
                self.check(&|| what.to_owned(), out.len() * T::BYTES)?;
                for part in out.chunks_mut(CHUNK / T::BYTES) {
                    let start = self.offset;
                    let bytes = self.take(&|| what.to_owned(), part.len() * T::BYTES)?;
                    for (i, (v, b)) in part.iter_mut().zip(bytes.chunks_exact(T::BYTES)).enumerate() {
                        *v = scaled(T::from_le(b), scale, what, start + i * T::BYTES)?;
                    }
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
    pub fn int_parts<T: Int>(
        &mut self,
        what: &str,
        encoding: Encoding,
        parts: &mut [&mut [T]],
    ) -> Result<(), LoadError> {
        match encoding {
            Encoding::Raw => parts.iter_mut().try_for_each(|part| self.ints(what, Encoding::Raw, 1, part)),
            Encoding::Leb128 => self.leb128(what, 1, parts),
        }
    }

    fn leb128<T: Int>(&mut self, what: &str, scale: i32, parts: &mut [&mut [T]]) -> Result<(), LoadError> {
        let magic_at = self.offset;
        if self.take(&|| format!("{what} (LEB128 magic)"), LEB128_MAGIC.len())? != LEB128_MAGIC {
            return Err(LoadError::Leb128Magic { what: what.to_owned(), offset: magic_at });
        }
        let size = self.u32(&format!("{what} (LEB128 byte count)"))? as usize;
        self.check(&|| format!("{what} (LEB128 block of {size} bytes)"), size)?;
        let start = self.offset;
        let mut values = Leb128Values::new(what, scale, parts);
        // The bytes the values took: the block from memory, or read from
        // a file chunk by chunk (stopping once every value is decoded).
        let consumed = match &mut self.source {
            Source::File { file, path, buffer } => {
                // Bytes of the block read so far; `buffer` holds those from
                // `at` on.
                let (mut read, mut at) = (0, start);
                buffer.clear();
                loop {
                    let n = CHUNK.min(size - read);
                    let kept = buffer.len();
                    buffer.resize(kept + n, 0);
                    std::io::Read::read_exact(file, &mut buffer[kept..])
                        .map_err(|source| LoadError::Io { path: path.clone(), source })?;
                    read += n;
                    let last = read == size;
                    let used = values.feed(buffer, at, last)?;
                    if last || values.done() {
                        break at + used - start;
                    }
                    buffer.drain(..used);
                    at += used;
                }
            }
            memory => {
                let bytes = memory.in_memory().expect("a source other than a file is in memory");
                values.feed(&bytes[start..start + size], start, true)?
            }
        };
        self.offset = start + size;
        if consumed != size {
            let count = values.count;
            let problem = format!("{} bytes left over after {count} values", size - consumed);
            return Err(LoadError::Leb128 { what: what.to_owned(), offset: start + consumed, problem });
        }
        Ok(())
    }

    /// Checks that the whole file has been read (and, for a stream, that
    /// it ends there).
    pub fn finish(mut self) -> Result<(), LoadError> {
        if let Source::Stream { stream, .. } = &mut self.source
            && self.offset == self.len
        {
            let mut rest = [0u8; 4096];
            let mut extra = 0;
            loop {
                match read_stream(stream.as_mut(), &mut rest, self.len + extra)? {
                    0 => break,
                    got => extra += got,
                }
            }
            if extra > 0 {
                return Err(LoadError::DecompressedSize {
                    arch: self.arch,
                    expected: self.len,
                    actual: self.len + extra,
                });
            }
        }
        match self.len - self.offset {
            0 => Ok(()),
            extra => Err(LoadError::TrailingBytes { offset: self.offset, extra }),
        }
    }
}

/// Fills `buffer` from `stream` as far as it goes: the bytes read, fewer
/// than asked only at the stream's end. `offset` is where the buffer starts
/// in the decoded bytes (for the error).
fn read_stream(stream: &mut dyn std::io::Read, buffer: &mut [u8], offset: usize) -> Result<usize, LoadError> {
    let mut got = 0;
    while got < buffer.len() {
        match stream.read(&mut buffer[got..]) {
            Ok(0) => break,
            Ok(k) => got += k,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(LoadError::Decompress { offset: offset + got, message: e.to_string() }),
        }
    }
    Ok(got)
}

/// The arrays a LEB128 block fills, as its bytes arrive.
struct Leb128Values<'p, 'o, T> {
    what: &'p str,
    scale: i32,
    max_bytes: usize,
    parts: &'p mut [&'o mut [T]],
    /// The part being filled, and how far.
    part: usize,
    filled: usize,
    /// Values decoded, of `count`.
    decoded: usize,
    count: usize,
}

impl<'p, 'o, T: Int> Leb128Values<'p, 'o, T> {
    fn new(what: &'p str, scale: i32, parts: &'p mut [&'o mut [T]]) -> Self {
        let count = parts.iter().map(|part| part.len()).sum();
        Leb128Values {
            what,
            scale,
            max_bytes: (T::BYTES * 8).div_ceil(7),
            parts,
            part: 0,
            filled: 0,
            decoded: 0,
            count,
        }
    }

    /// Whether every value has been decoded.
    fn done(&self) -> bool {
        self.decoded == self.count
    }

    /// Decodes values from `bytes`, which start at offset `at` of the file:
    /// until every part is full or, unless `last` (the block ends with
    /// them), until fewer than eight bytes are left (a value may continue
    /// in the next bytes). Returns the bytes used.
    fn feed(&mut self, bytes: &[u8], at: usize, last: bool) -> Result<usize, LoadError> {
        let mut pos = 0;
        while self.part < self.parts.len() {
            let (used, n) = self.decode(&bytes[pos..], at + pos, last)?;
            (pos, self.filled, self.decoded) = (pos + used, self.filled + n, self.decoded + n);
            if self.filled == self.parts[self.part].len() {
                (self.part, self.filled) = (self.part + 1, 0);
            } else {
                break;
            }
        }
        Ok(pos)
    }

    /// Decodes values from `bytes` (at offset `at` of the file) into the
    /// current part: as many as it holds or, unless `last` (no bytes
    /// follow), as many as start eight bytes or more before the end. The
    /// bytes used and values written, or the first problem and where it is.
    fn decode(&mut self, bytes: &[u8], at: usize, last: bool) -> Result<(usize, usize), LoadError> {
        let (what, count, max_bytes, scale) = (self.what, self.count, self.max_bytes, self.scale);
        let problem = |offset: usize, problem: String| LoadError::Leb128 { what: what.to_owned(), offset, problem };
        let out = &mut self.parts[self.part][self.filled..];
        let (mut pos, done) = simd_prefix(bytes, scale, out);
        for (n, v) in out.iter_mut().enumerate().skip(done) {
            if !last && bytes.len() - pos < 8 {
                return Ok((pos, n));
            }
            let i = self.decoded + n;
            let value_at = at + pos;
            let (value, len) = match bytes.get(pos..pos + 4).and_then(|word| leb128_of_word(word, max_bytes)) {
                Some(decoded) => decoded,
                None => leb128_slow(&bytes[pos..], max_bytes)
                    .map_err(|e| problem(value_at, e.describe(i, count, max_bytes)))?,
            };
            pos += len;
            if !(T::MIN..=T::MAX).contains(&value) {
                return Err(problem(value_at, format!("value {i} = {value} does not fit in {} bytes", T::BYTES)));
            }
            *v = scaled(T::from_i64(value), scale, what, value_at)?;
        }
        Ok((pos, out.len()))
    }
}

/// The values at the start of `bytes` that decode eight bytes at a time
/// into `out` (each times `scale`): on x86-64, values into i16
/// ([`crate::format::leb128::x86`]). The bytes used and values written;
/// `(0, 0)` elsewhere, or where that decoder declines (a value it cannot
/// take; [`Leb128Values::decode`] then reads the bytes again value by value
/// and names the problem).
#[inline]
fn simd_prefix<T: Int>(bytes: &[u8], scale: i32, out: &mut [T]) -> (usize, usize) {
    #[cfg(target_arch = "x86_64")]
    if core::any::TypeId::of::<T>() == core::any::TypeId::of::<i16>() {
        // SAFETY: `T` is `i16` (the same type id), so `out` is a slice of i16.
        let values = unsafe { &mut *(out as *mut [T] as *mut [i16]) };
        return crate::format::leb128::x86::decode_i16(bytes, scale, values).unwrap_or((0, 0));
    }
    let _ = (bytes, scale, out);
    (0, 0)
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
        let mut rng = crate::format::writer::Rng::new(0x1EB128);
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

    /// Decodes `block` byte by byte, as [`leb128_slow`] does, with the range
    /// and scale checks: the values, or `None` for a bad block.
    fn sequential(block: &[u8], scale: i32, n: usize) -> Option<Vec<i16>> {
        let (mut pos, mut out) = (0, Vec::with_capacity(n));
        for _ in 0..n {
            let (value, len) = leb128_slow(&block[pos..], 3).ok()?;
            out.push(i16::try_from(value * i64::from(scale)).ok()?);
            pos += len;
        }
        (pos == block.len()).then_some(out)
    }

    /// The block of `values`.
    fn block_of(values: &[i16]) -> Vec<u8> {
        let mut writer = crate::format::writer::NetWriter::new();
        writer.ints(Encoding::Leb128, values);
        writer.finish()[LEB128_MAGIC.len() + 4..].to_vec()
    }

    /// `block` decoded by the reader into `n` values (each times `scale`):
    /// the values, or `None` if it names a problem or leaves bytes over.
    fn decoded(block: &[u8], scale: i32, n: usize) -> Option<Vec<i16>> {
        let mut out = vec![0i16; n];
        let ok = {
            let mut parts = [&mut out[..]];
            let mut values = Leb128Values::new("block", scale, &mut parts);
            values.feed(block, 0, true).is_ok_and(|used| used == block.len() && values.done())
        };
        ok.then_some(out)
    }

    /// The reader's decoder (eight bytes at a time on x86-64, then value by
    /// value) gives what the sequential one gives, on blocks of every length
    /// modulo 8 with values of one to three bytes, with every scale, with a
    /// byte changed and cut short: the same values, or a problem for both.
    #[test]
    fn blocks_decode_as_the_sequential_decoder_does() {
        let mut rng = crate::format::writer::Rng::new(0x5742);
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
            assert_eq!(decoded(&block, 1, n), Some(values.clone()), "{n} values");
            for scale in [2, 100] {
                assert_eq!(decoded(&block, scale, n), sequential(&block, scale, n), "{n} values, scale {scale}");
            }
            assert_eq!(decoded(&block, 1, n + 1), None, "one value too many");
            for _ in 0..40 {
                let mut bad = block.clone();
                let at = rng.next_u64() as usize % bad.len();
                bad[at] = rng.next_u64() as u8;
                assert_eq!(decoded(&bad, 1, n), sequential(&bad, 1, n), "byte {at} changed");
            }
            for cut in [1, 2, block.len() / 2] {
                assert_eq!(decoded(&block[..block.len() - cut], 1, n), None, "{cut} bytes cut");
            }
        }
    }

    /// The test file's arrays: i16, i8, and two of i32.
    type Arrays = (Vec<i16>, Vec<i8>, Vec<i32>, Vec<i32>);

    /// What a reader of `bytes` gives: the arrays of the test file (or the
    /// first error, as text).
    fn read_all(mut r: NetReader<'_>) -> Result<Arrays, String> {
        let mut weights = vec![0i16; 1_500_000];
        let mut raw = vec![0i8; 2_500_000];
        let (mut first, mut second) = (vec![0i32; 40_000], vec![0i32; 300_000]);
        let mut read = || -> Result<(), LoadError> {
            r.expect_hash("the hash", 0xC0DE)?;
            r.ints("weights", Encoding::Leb128, 2, &mut weights)?;
            r.ints("raw", Encoding::Raw, 1, &mut raw)?;
            r.leb128_parts("parts", &mut [&mut first, &mut second])?;
            Ok(())
        };
        read().and_then(|()| r.finish()).map_err(|e| e.to_string())?;
        Ok((weights, raw, first, second))
    }

    /// A file read from disk a chunk at a time gives what the same bytes
    /// in memory give, values or errors: whole, with bytes changed around
    /// the chunk boundaries and elsewhere, and cut short.
    #[test]
    fn files_read_in_chunks_give_what_memory_gives() {
        let mut rng = crate::format::writer::Rng::new(0xF11E);
        let mut w = crate::format::writer::NetWriter::new();
        w.u32(0xC0DE);
        let weights: Vec<i16> = (0..1_500_000).map(|_| if rng.next_u64().is_multiple_of(16) { rng.range(-16384, 16383) } else { rng.range(-200, 200) } as i16).collect();
        w.ints(Encoding::Leb128, &weights);
        w.ints(Encoding::Raw, &(0..2_500_000).map(|_| rng.next_u64() as i8).collect::<Vec<_>>());
        w.ints(Encoding::Leb128, &(0..340_000).map(|_| rng.range(-1 << 22, 1 << 22) as i32).collect::<Vec<_>>());
        let bytes = w.finish();
        let path = std::env::temp_dir().join(format!("nnue-reader-test-{}.nnue", std::process::id()));
        let from_file = |bytes: &[u8]| {
            std::fs::write(&path, bytes).unwrap();
            read_all(NetReader::open(&path, "test").unwrap())
        };
        let whole = read_all(NetReader::new(&bytes, "test"));
        assert_eq!(whole.as_ref().map(|(w, ..)| w.iter().zip(&weights).all(|(&a, &b)| a == 2 * b)), Ok(true));
        assert_eq!(from_file(&bytes), whole);
        let block = 4 + LEB128_MAGIC.len() + 4;
        let mut changed = vec![block + 3, bytes.len() - 1, bytes.len() / 2];
        changed.extend((0..16).map(|d| block + CHUNK - 8 + d));
        changed.extend((0..6).map(|_| rng.next_u64() as usize % bytes.len()));
        for at in changed {
            for value in [0x80, 0xFF, 0x7F, 0x40] {
                let mut bad = bytes.clone();
                bad[at] = value;
                assert_eq!(from_file(&bad), read_all(NetReader::new(&bad, "test")), "byte {at} set to {value:#X}");
            }
        }
        for cut in [1, 3, bytes.len() / 3, bytes.len() - 5] {
            let short = &bytes[..bytes.len() - cut];
            let expected = read_all(NetReader::new(short, "test"));
            assert!(expected.is_err());
            assert_eq!(from_file(short), expected, "{cut} bytes cut");
        }
        std::fs::remove_file(&path).unwrap();
    }

    /// A header hash that differs by a feature-set word the architecture
    /// lacks names that word, computed from the transformer's hash word;
    /// any other mismatch stays a plain hash error.
    #[test]
    fn a_missing_feature_set_hash_is_named() {
        // Stockfish 19's lite net (sf19-lite, L1 1024, P_hm's word
        // 0x6F234CB8) read by an architecture without the set's word.
        let (set, width, stack) = (0x6F23_4CB8u32, 2048u32, 0x6333_7116u32);
        let net = |set_word: u32| {
            let mut w = crate::format::writer::NetWriter::new();
            w.header(0x6A44_8AFA, set_word ^ width ^ stack, "lite");
            w.u32(set_word ^ width);
            w.finish()
        };
        let bytes = net(set);
        let error = NetReader::new(&bytes, "sf19lite").expect_header(0x6A44_8AFA, width ^ stack).unwrap_err();
        assert!(
            matches!(
                error,
                LoadError::FeatureSetHash { set_hash: 0x6F23_4CB8, dimensions: 1024, transformer_offset: 16, .. }
            ),
            "{error:?}"
        );
        assert_eq!(
            error.to_string(),
            "the header hash at offset 4 is 0x0C1035AE, but architecture `sf19lite` expects 0x63337916: the net's feature set has hash word 0x6F234CB8 (its transformer hash word at offset 16, 0x6F2344B8, is 0x6F234CB8 ^ 2 * 1024, L1 being 1024), but the architecture's feature set has none: add `hash: 0x6F234CB8` to the feature set"
        );
        // The right word loads; a wrong word or another stack is a plain
        // hash error.
        NetReader::new(&bytes, "sf19lite").expect_header(0x6A44_8AFA, set ^ width ^ stack).unwrap();
        let error =
            NetReader::new(&bytes, "sf19lite").expect_header(0x6A44_8AFA, 0x7F23_4CB8 ^ width ^ stack).unwrap_err();
        assert!(matches!(error, LoadError::Hash { offset: 4, .. }), "{error:?}");
        let error = NetReader::new(&bytes, "sf19lite").expect_header(0x6A44_8AFA, width ^ 0x6333_6A4A).unwrap_err();
        assert!(matches!(error, LoadError::Hash { offset: 4, .. }), "{error:?}");
        // A file that ends after its header: the plain error.
        let short = &bytes[..bytes.len() - 4];
        let error = NetReader::new(short, "sf19lite").expect_header(0x6A44_8AFA, width ^ stack).unwrap_err();
        assert!(matches!(error, LoadError::Hash { offset: 4, .. }), "{error:?}");
    }

    /// Every i16, written by the writer, reads back, also at the block's end
    /// (where fewer than four bytes remain).
    #[test]
    fn every_i16_round_trips() {
        let values: Vec<i16> = (i16::MIN..=i16::MAX).collect();
        let mut writer = crate::format::writer::NetWriter::new();
        writer.ints(Encoding::Leb128, &values);
        let bytes = writer.finish();
        let mut read = vec![0i16; values.len()];
        NetReader::new(&bytes, "test").ints("values", Encoding::Leb128, 1, &mut read).unwrap();
        assert_eq!(read, values);
    }
}
