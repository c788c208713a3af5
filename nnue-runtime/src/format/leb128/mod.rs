//! Signed LEB128, the encoding of Stockfish's compressed blocks: the
//! branch-free decoding of one value, shared by the reader
//! ([`crate::format::reader`]) and the SSSE3 block decoder (`x86`).

/// One signed LEB128 value from the first bytes of `word` (four bytes of
/// the block), without a branch on its length: the value and its length
/// in bytes, or `None` if it is longer than three bytes or than
/// `max_bytes` (then the reader's slow path reads it, or says what is wrong).
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

#[cfg(target_arch = "x86_64")]
pub mod x86;
