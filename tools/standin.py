"""The SFNNv8 stand-in net, derived from Stockfish 17.1's big net.

No official SFNNv8 net (Stockfish 16.1's big net, L1 = 2560) can be fetched
from the registries this project uses, so tests/reference/sf_16.1/standin-l2560.tsv
was made with a net cut from nn-1c0000000000 (SFNNv9, L1 = 3072): the feature
transformer keeps neurons 0..1279 and 1536..2815 (the first 1280 of each half
that the pairwise product multiplies together), fc_0 keeps the matching input
columns of both perspectives, the PSQT weights and every later layer are
unchanged, and the hash words are those of the 16.1 big-net architecture
(`nnue info --arch archs/sfnnv8.ron` prints the same three). It is a valid
SFNNv8 file that Stockfish 16.1 loads, not a trained net.

Stockfish's LEB128 blocks encode each value on its own, minimally, so cutting
a block is cutting its byte stream at value boundaries: nothing is decoded and
re-encoded. tools/fetch-nets.py runs this and checks the result's SHA-256
(nets.tsv) like any other net's.
"""
import re
import struct

SOURCE = "nn-1c0000000000.nnue"

VERSION = 0x7AF32F20
HEADER_HASH = 0x1C103072        # SFNNv8 network hash (transformer ^ layer stack)
TRANSFORMER_HASH = 0x7F2358B8   # HalfKAv2_hm ^ (2 * 2560)
LAYER_HASH = 0x633368CA         # SFNNv8 layer stack, 2560 inputs per perspective
DESCRIPTION = (b"SFREF SYNTHETIC stand-in for the sf_16.1 big-net architecture (L1=2560): "
               b"nn-1c0000000000.nnue (sf_17.1 big, L1=3072) truncated to the first 1280 "
               b"neurons of each L1 half. NOT a trained net.")

SOURCE_L1, KEEP = 3072, 1280    # per perspective: keep [0, 1280) and [1536, 2816)
HALF = SOURCE_L1 // 2
STACKS, FC0_OUTPUTS = 8, 16
LEB_MAGIC = b"COMPRESSED_LEB128"

# One LEB128 value: continuation bytes (high bit set), then a last byte.
_VALUE = rb"(?:[\x80-\xff]*[\x00-\x7f])"
# One transformer row of 3072 values: the kept runs captured, the rest skipped.
_ROW = re.compile(rb"(%s{%d})%s{%d}(%s{%d})%s{%d}" % (
    _VALUE, KEEP, _VALUE, HALF - KEEP, _VALUE, KEEP, _VALUE, HALF - KEEP))


class DeriveError(ValueError):
    """The source is not the net this recipe expects."""


def _u32(data, pos):
    return struct.unpack_from("<I", data, pos)[0]


def _leb_block(data, pos):
    """(payload, position after the block) of a COMPRESSED_LEB128 block."""
    if data[pos:pos + len(LEB_MAGIC)] != LEB_MAGIC:
        raise DeriveError(f"no LEB128 block at offset {pos}")
    size = _u32(data, pos + len(LEB_MAGIC))
    start = pos + len(LEB_MAGIC) + 4
    if start + size > len(data):
        raise DeriveError(f"LEB128 block at offset {pos} runs past the end")
    return data[start:start + size], start + size


def _leb_bytes(payload):
    return LEB_MAGIC + struct.pack("<I", len(payload)) + payload


def _cut_rows(payload, rows):
    """The kept values of `rows` transformer rows of 3072 values each."""
    kept, pos = [], 0
    for _ in range(rows):
        match = _ROW.match(payload, pos)
        if not match:
            raise DeriveError(f"LEB128 payload ends inside a row (byte {pos})")
        kept += [match.group(1), match.group(2)]
        pos = match.end()
    if pos != len(payload):
        raise DeriveError(f"LEB128 payload has {len(payload) - pos} bytes past {rows} rows")
    return b"".join(kept)


def derive(source):
    """The stand-in's bytes from nn-1c0000000000's."""
    if _u32(source, 0) != VERSION:
        raise DeriveError("source version is not 0x7AF32F20")
    description_length = _u32(source, 8)
    pos = 12 + description_length + 4                   # header, then the transformer hash
    biases, pos = _leb_block(source, pos)
    weights, pos = _leb_block(source, pos)
    psqt, pos = _leb_block(source, pos)
    features = 22528                                    # HalfKAv2_hm
    out = [struct.pack("<III", VERSION, HEADER_HASH, len(DESCRIPTION)), DESCRIPTION,
           struct.pack("<I", TRANSFORMER_HASH),
           _leb_bytes(_cut_rows(biases, 1)),
           _leb_bytes(_cut_rows(weights, features)),
           _leb_bytes(psqt)]
    # Each layer stack: hash, fc_0 (i32 biases, then i8 rows over both
    # perspectives' 3072 inputs), then fc_1 and fc_2 unchanged.
    fc0_biases = 4 * FC0_OUTPUTS
    fc0_weights = FC0_OUTPUTS * SOURCE_L1              # i8 rows of both perspectives' inputs
    rest = 32 * 4 + 32 * 32 + 4 + 32                    # fc_1 (30 -> 32, padded), fc_2 (32 -> 1)
    stack = 4 + fc0_biases + fc0_weights + rest
    if len(source) - pos != STACKS * stack:
        raise DeriveError(f"{len(source) - pos} bytes of layer stacks, expected {STACKS * stack}")
    for _ in range(STACKS):
        out.append(struct.pack("<I", LAYER_HASH))
        out.append(source[pos + 4:pos + 4 + fc0_biases])
        row = pos + 4 + fc0_biases
        for _ in range(FC0_OUTPUTS):
            for perspective in range(2):
                start = row + perspective * HALF
                out.append(source[start:start + KEEP])
            row += 2 * HALF
        out.append(source[row:row + rest])
        pos += stack
    return b"".join(out)
