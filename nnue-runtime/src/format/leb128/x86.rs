//! Decoding a block of signed LEB128 values into i16, eight bytes at a time
//! (SSSE3): the transformer weights of Stockfish's nets, most of a net file.
//!
//! The high bits of eight bytes (one `pmovmskb`) say where the values in
//! them end. A table indexed by those eight bits gives, for the values of
//! one or two bytes that end within them, a byte shuffle putting each value's
//! bytes in a 16-bit lane, the sign bit of each lane's width, and how many
//! values and bytes that is. A lane's value is then its two 7-bit groups
//! side by side, sign-extended by `(v ^ sign) - sign`. A value of three bytes
//! (rare: beyond ±8191) is read alone by the word decoder.

use crate::format::leb128::leb128_of_word;
use core::arch::x86_64::{
    __m128i, _mm_and_si128, _mm_load_si128, _mm_loadl_epi64, _mm_max_epi16, _mm_min_epi16, _mm_movemask_epi8,
    _mm_mullo_epi16, _mm_or_si128, _mm_set1_epi16, _mm_setzero_si128, _mm_shuffle_epi8, _mm_srli_epi16,
    _mm_storeu_si128, _mm_sub_epi16, _mm_xor_si128,
};

/// What eight bytes whose high bits are a given mask hold: the values of
/// one or two bytes that end in them, from the first byte on, up to the
/// first longer or unfinished one.
#[repr(C, align(16))]
struct Window {
    /// Per 16-bit lane, the indices of its value's bytes (0x80: none).
    shuffle: [u8; 16],
    /// Per lane, the sign bit of its value: bit 6 or bit 13 (0: no value).
    sign: [i16; 8],
    /// Values decoded.
    values: u8,
    /// Bytes they take.
    bytes: u8,
}

/// The window of the high-bit mask `mask` (bit `j`: byte `j` continues).
const fn window(mask: u8) -> Window {
    let mut w = Window { shuffle: [0x80; 16], sign: [0; 8], values: 0, bytes: 0 };
    let mut j = 0u8;
    while j < 8 {
        let lane = w.values as usize;
        if mask >> j & 1 == 0 {
            w.shuffle[2 * lane] = j;
            w.sign[lane] = 1 << 6;
            j += 1;
        } else if j + 1 < 8 && mask >> (j + 1) & 1 == 0 {
            w.shuffle[2 * lane] = j;
            w.shuffle[2 * lane + 1] = j + 1;
            w.sign[lane] = 1 << 13;
            j += 2;
        } else {
            break;
        }
        w.values += 1;
        w.bytes = j;
    }
    w
}

/// [`window`] of every mask.
static WINDOWS: [Window; 256] = {
    let mut windows = [const { Window { shuffle: [0; 16], sign: [0; 8], values: 0, bytes: 0 } }; 256];
    let mut mask = 0;
    while mask < 256 {
        windows[mask] = window(mask as u8);
        mask += 1;
    }
    windows
};

/// Decodes the values at the start of `block` into `out`, each times
/// `scale`, while eight bytes of the block and eight lanes of `out` remain:
/// the bytes read and values written, or `None` if a value is longer than
/// three bytes, beyond i16, or has a product with `scale` beyond i16 (the
/// caller then reads the block value by value, to report it). `None` also
/// for a scale outside `1..=64` (a net's load scale is within) and where
/// the CPU lacks SSSE3.
pub fn decode_i16(block: &[u8], scale: i32, out: &mut [i16]) -> Option<(usize, usize)> {
    if !(1..=64).contains(&scale) || !std::arch::is_x86_feature_detected!("ssse3") {
        return None;
    }
    // SAFETY: the CPU has SSSE3 (just checked).
    unsafe { decode_ssse3(block, scale as i16, out) }
}

/// [`decode_i16`] once SSSE3 is known.
///
/// # Safety
/// The CPU supports SSSE3.
#[target_feature(enable = "ssse3")]
unsafe fn decode_ssse3(block: &[u8], scale: i16, out: &mut [i16]) -> Option<(usize, usize)> {
    let (mut pos, mut i) = (0, 0);
    // The smallest and largest values decoded, before scaling, per lane
    // (lanes past a window's values hold 0).
    let (mut low, mut high) = (_mm_setzero_si128(), _mm_setzero_si128());
    let scale_v = _mm_set1_epi16(scale);
    let (fits, limit) = (i16::MIN / scale..=i16::MAX / scale, i16::MAX / scale);
    while pos + 8 <= block.len() && i + 8 <= out.len() {
        // SAFETY: `pos + 8 <= block.len()`: eight readable bytes.
        let bytes = unsafe { _mm_loadl_epi64(block.as_ptr().add(pos).cast::<__m128i>()) };
        let w = &WINDOWS[(_mm_movemask_epi8(bytes) & 0xFF) as usize];
        if w.values == 0 {
            // A value of three bytes (or more: then not ours to judge).
            let (value, len) = leb128_of_word(&block[pos..pos + 4], 3)?;
            let value = i16::try_from(value).ok().filter(|v| fits.contains(v))?;
            out[i] = value * scale;
            (i, pos) = (i + 1, pos + len);
            continue;
        }
        // SAFETY: `Window` is 16-byte aligned and starts with the 16
        // shuffle bytes, then the 8 signs (16 bytes, `repr(C)`).
        let (shuffle, sign) =
            unsafe { (_mm_load_si128(w.shuffle.as_ptr().cast()), _mm_load_si128(w.sign.as_ptr().cast())) };
        let lanes = _mm_shuffle_epi8(bytes, shuffle);
        // The low byte's 7 bits, the high byte's 7 bits just above them.
        let joined = _mm_or_si128(
            _mm_and_si128(lanes, _mm_set1_epi16(0x7F)),
            _mm_srli_epi16::<1>(_mm_and_si128(lanes, _mm_set1_epi16(0x7F00))),
        );
        let values = _mm_sub_epi16(_mm_xor_si128(joined, sign), sign);
        (low, high) = (_mm_min_epi16(low, values), _mm_max_epi16(high, values));
        // SAFETY: `i + 8 <= out.len()`: eight writable lanes (those past
        // the window's values are written again by the next ones).
        unsafe { _mm_storeu_si128(out.as_mut_ptr().add(i).cast::<__m128i>(), _mm_mullo_epi16(values, scale_v)) };
        (i, pos) = (i + usize::from(w.values), pos + usize::from(w.bytes));
    }
    let (mut lows, mut highs) = ([0i16; 8], [0i16; 8]);
    // SAFETY: two arrays of eight i16, 16 writable bytes each.
    unsafe {
        _mm_storeu_si128(lows.as_mut_ptr().cast::<__m128i>(), low);
        _mm_storeu_si128(highs.as_mut_ptr().cast::<__m128i>(), high);
    }
    let (low, high) = (lows.into_iter().min().unwrap_or(0), highs.into_iter().max().unwrap_or(0));
    (fits.contains(&low) && high <= limit).then_some((pos, i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_hold_the_values_ending_in_them() {
        // No high bit: eight one-byte values.
        assert_eq!((WINDOWS[0].values, WINDOWS[0].bytes), (8, 8));
        // 0b0000_0101: two-byte, two-byte, then four one-byte values.
        let w = &WINDOWS[0b0000_0101];
        assert_eq!((w.values, w.bytes), (6, 8));
        assert_eq!(w.shuffle[..6], [0, 1, 2, 3, 4, 0x80]);
        assert_eq!(w.sign[..3], [1 << 13, 1 << 13, 1 << 6]);
        // A three-byte value first: nothing; after a one-byte value: one.
        assert_eq!(WINDOWS[0b0000_0011].values, 0);
        assert_eq!((WINDOWS[0b0000_0110].values, WINDOWS[0b0000_0110].bytes), (1, 1));
        // The last byte continues: the value is left for the next window.
        assert_eq!((WINDOWS[0b1000_0000].values, WINDOWS[0b1000_0000].bytes), (7, 7));
    }
}
