//! Stormphrax's 64-byte `CBNF` header before a bullet file's tensors:
//! magic `CBNF`, u16 version 1, u16 flags (0x1 the rest of the file is one
//! zstd frame, 0x2 mirrored, 0x4 merged king planes, 0x8 pairwise), a pad
//! byte, the engine's architecture and activation ids (u8 each), the hidden
//! size (u16, unaligned), the king buckets (u8; bit 7: threat inputs), the
//! output buckets (u8), the name's length (u8) and 48 bytes of name, all
//! little-endian. Every field the architecture fixes is checked; the name
//! is free text.

use crate::LoadError;

/// The header's size.
pub const BYTES: usize = 64;

const MAGIC: &[u8; 4] = b"CBNF";
const VERSION: u16 = 1;
const ZSTD: u16 = 0x1;
const MIRRORED: u16 = 0x2;
const MERGED_KINGS: u16 = 0x4;
const PAIRWISE: u16 = 0x8;
const THREATS: u8 = 0x80;

/// What an architecture's header says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cbnf {
    /// The engine's architecture id.
    pub arch: u8,
    /// The engine's activation id.
    pub activation: u8,
    /// The transformer's width per perspective.
    pub hidden: u16,
    /// King buckets of the piece-square inputs.
    pub king_buckets: u8,
    /// Whether there are threat inputs.
    pub threats: bool,
    pub output_buckets: u8,
    pub mirrored: bool,
    pub merged_kings: bool,
    pub pairwise: bool,
}

impl Cbnf {
    /// The flags word but for the zstd bit.
    fn flags(&self) -> u16 {
        [(self.mirrored, MIRRORED), (self.merged_kings, MERGED_KINGS), (self.pairwise, PAIRWISE)]
            .iter()
            .filter(|(on, _)| *on)
            .fold(0, |flags, (_, bit)| flags | bit)
    }

    fn input_buckets(&self) -> u8 {
        self.king_buckets | if self.threats { THREATS } else { 0 }
    }

    /// The header of a file of this architecture named `name` (at most 48
    /// bytes are kept), its body zstd-compressed or not.
    pub fn write(&self, zstd: bool, name: &str) -> [u8; BYTES] {
        let mut h = [0u8; BYTES];
        h[..4].copy_from_slice(MAGIC);
        h[4..6].copy_from_slice(&VERSION.to_le_bytes());
        h[6..8].copy_from_slice(&(self.flags() | if zstd { ZSTD } else { 0 }).to_le_bytes());
        h[9] = self.arch;
        h[10] = self.activation;
        h[11..13].copy_from_slice(&self.hidden.to_le_bytes());
        h[13] = self.input_buckets();
        h[14] = self.output_buckets;
        let name = &name.as_bytes()[..name.len().min(48)];
        h[15] = name.len() as u8;
        h[16..16 + name.len()].copy_from_slice(name);
        h
    }

    /// Checks the header at the start of `file` against this architecture
    /// (`arch` names it in errors): whether the rest of the file is
    /// zstd-compressed, and the rest.
    pub fn read<'a>(&self, file: &'a [u8], arch: &'static str) -> Result<(bool, &'a [u8]), LoadError> {
        let Some(h) = file.first_chunk::<BYTES>() else {
            return Err(LoadError::Truncated {
                what: "the CBNF header".to_owned(),
                offset: 0,
                needed: BYTES,
                len: file.len(),
            });
        };
        let field = |what: &'static str, offset: usize, found: String, expected: String| {
            Err(LoadError::Header { arch, what, offset, found, expected })
        };
        if &h[..4] != MAGIC {
            return field("magic", 0, format!("{:?}", String::from_utf8_lossy(&h[..4])), "\"CBNF\"".to_owned());
        }
        let version = u16::from_le_bytes([h[4], h[5]]);
        if version != VERSION {
            return field("version", 4, version.to_string(), VERSION.to_string());
        }
        let flags = u16::from_le_bytes([h[6], h[7]]);
        if flags & !ZSTD != self.flags() {
            return field(
                "flags (mirrored 0x2, merged kings 0x4, pairwise 0x8)",
                6,
                format!("0x{:04X}", flags & !ZSTD),
                format!("0x{:04X}", self.flags()),
            );
        }
        let bytes = [
            ("architecture id", 9, h[9], self.arch),
            ("activation id", 10, h[10], self.activation),
            ("input buckets (bit 7: threat inputs)", 13, h[13], self.input_buckets()),
            ("output buckets", 14, h[14], self.output_buckets),
        ];
        for (what, offset, found, expected) in bytes {
            if found != expected {
                return field(what, offset, format!("0x{found:02X}"), format!("0x{expected:02X}"));
            }
        }
        let hidden = u16::from_le_bytes([h[11], h[12]]);
        if hidden != self.hidden {
            return field("hidden size", 11, hidden.to_string(), self.hidden.to_string());
        }
        Ok((flags & ZSTD != 0, &file[BYTES..]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const STORMPHRAX: Cbnf = Cbnf {
        arch: 5,
        activation: 0,
        hidden: 1024,
        king_buckets: 16,
        threats: true,
        output_buckets: 8,
        mirrored: true,
        merged_kings: true,
        pairwise: true,
    };

    #[test]
    fn written_headers_read_back() {
        let h = STORMPHRAX.write(false, "nnue-generated");
        assert_eq!(&h[..16], b"CBNF\x01\x00\x0E\x00\x00\x05\x00\x00\x04\x90\x08\x0E");
        let mut file = h.to_vec();
        file.extend([1, 2, 3]);
        assert_eq!(STORMPHRAX.read(&file, "net").unwrap(), (false, &[1u8, 2, 3][..]));
        let h = STORMPHRAX.write(true, "");
        assert_eq!(STORMPHRAX.read(&h, "net").unwrap(), (true, &[][..]));
    }

    #[test]
    fn every_checked_field_is_named() {
        let good = STORMPHRAX.write(false, "n");
        for (offset, what) in [
            (0, "magic"),
            (4, "version"),
            (7, "flags"),
            (9, "architecture"),
            (10, "activation"),
            (11, "hidden"),
            (13, "input buckets"),
            (14, "output buckets"),
        ] {
            let mut h = good;
            h[offset] ^= 0x40;
            match STORMPHRAX.read(&h, "net") {
                Err(LoadError::Header { what: found, .. }) => assert!(found.starts_with(what), "{found}"),
                other => panic!("offset {offset}: {other:?}"),
            }
        }
        let mut named = good;
        named[20] = b'x';
        assert!(STORMPHRAX.read(&named, "net").is_ok(), "the name is free text");
        assert!(matches!(STORMPHRAX.read(&good[..63], "net"), Err(LoadError::Truncated { needed: 64, len: 63, .. })));
    }
}
