#!/usr/bin/env python3
"""A generated net in the uncompressed CBNF format of Stormphrax 2402cae.

usage: python3 tools/netgen/stormphrax.py OUT

Writes the net to OUT and prints its SHA-256, after checking it against NET_SHA256.
`generate()` returns the same bytes; importing this module does nothing else. Pure standard
library; about one second on one core.

The file is what Stormphrax's build takes as EVALFILE (see docs/bullet-engines/stormphrax.md
sections 1 and 5): the 64-byte CBNF header, then the body of `Network::loadFrom`, nine
little-endian blocks with no padding, 89,381,920 bytes, 89,381,984 in all. The header
(src/eval/header.h:38-52 at 2402cae): magic "CBNF", version 1, flags 0x000E (horizontally
mirrored, merged king planes, pairwise transformer; not zstd), padding 0, arch 5, activation 0
(clipped ReLU), hidden size 1024 (u16 at offset 11), input buckets 0x90 (threat inputs, 16 king
buckets), output buckets 8, the length of NAME and NAME padded with zeros to 48 bytes. The body
is in the logical column order: the engine's build permutes the transformer for its SIMD width
itself (tmp/permute-<type>).

| block | type, shape | body offset |
|---|---|---|
| FT piece-square weights | i16 [16 king bucket][704][1024] | 0 |
| FT threat weights | i8 [64368][1024]: pawn-pair rows 0..4559, then threats | 23,068,672 |
| FT biases | i16 [1024] | 88,981,504 |
| L1 weights | i8 [8][256][32][4]: input i to output o at (i/4)*128 + o*4 + i%4 | 88,983,552 |
| L1 biases | i32 [8][32] | 89,245,696 |
| L2 weights | i32 [8][64 in][64 out] | 89,246,720 |
| L2 biases | i32 [8][64] | 89,377,792 |
| L3 weights | i32 [8][64] | 89,379,840 |
| L3 biases | i32 [8] | 89,381,888 |

Values. It is not a trained net: every value is drawn from one `random.Random(SEED)`, block by
block in file order, so a given Python (3.9 or later: `randbytes`) always gives the same file.
Every row is drawn alike, including the threat rows no position reaches. The engine's
arithmetic after the transformer is all integer (i32, wrapping; Q = 64): L1 pre-activations
pre = (sum >> 2) + bias at scale Q^2, a clipped half clamp(pre, 0, 4096) << 6 and a squared
half min(pre * pre, 2^24) >> 6, L2 on those values >> 6, L3 on clamp(L2, 0, Q^3) plus the
unshifted L1 values, and the output (i64(out) * 400) / 2^24. The ranges keep it where a
trained net keeps it:

- i16 piece-square weights uniform in [-PSQ, PSQ], i8 pawn-pair and threat weights uniform in
  [-AUX, AUX], i16 transformer biases uniform in [BIAS_LO, BIAS_HI] (a random byte picks one
  of an odd number of values, each from a run of bytes, the runs' lengths differing by at most
  one and laid out symmetrically: see `_value`; so the mean is exactly the middle of the
  range). An accumulator (bias, up to 32 piece-square rows and the pawn-pair and threat rows,
  summed in wrapping i16) then stays within a few hundred of zero, far from the i16 limits,
  and a good share of the pairwise products (clamp(a, 0, 255) * min(b, 255)) >> 9 are nonzero.
- i8 L1 weights uniform in [-L1, L1] and i32 L1 biases uniform in [L1B_LO, L1B_HI]: the
  pre-activations spread around 0..4096, so that the clamp at 0, the clamp at 4096 and the
  clip of the square at 2^24 are all reached, while |pre| stays far below 46341 (pre * pre
  does not wrap). (No L1 weight can make the engine's AVX2 `maddubs` saturate: the
  transformer's outputs are at most 127.)
- i32 L2 weights uniform in [-L2W, L2W], L2 biases in [L2B_LO, L2B_HI]: the L2 values spread
  around the clamp's range 0..Q^3. |L2| <= 262144 + 64 * 4096 * L2W cannot wrap.
- i32 L3 weights in [-L3W, L3W], drawn in pairs v, -v (outputs 2m and 2m + 1, v uniform), and
  L3 biases uniform in [-L3B, L3B]: |out| <= L3B + 64 * 2 * Q^3 * L3W < 2^31 cannot wrap, and
  the output spreads over hundreds to a few thousand, both signs. The L3 inputs are never
  negative, so independent L3 weights give every bucket a large constant part for the side to
  move; the pairs cancel most of it. (With independent L3 weights and biases up to 2^24, the
  bucket means reached -1,306 and 1,204, and the engine's `bench` did not finish: its fifth
  position, a pawn ending, searched for minutes at depth 13.)

Measured on the 1237 positions of tests/reference/fens.txt with Stormphrax 2402cae (its own
accumulators and layers, read by a throwaway diagnostic build; the activation and the layers
recomputed from its accumulators agreed on every position): summed accumulators between -392
and 439 (0.2 % of them above 255); 39 % of the 1024 pairwise outputs nonzero on average (33 %
to 47 %); L1 pre-activations from -6,905 to 11,236, 19 % below 0 and 9 % above 4096; L2 values
from -624,413 to 865,102, 23 % below 0 and 23 % above Q^3; L3 sums from -76,567,271 to
108,480,685; outputs from -1,825 to 2,586 (mean 121, 652 negative, none clamped), each of the
8 output buckets with a different mean (from -672 to 1,184).
"""
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blocks  # noqa: E402

SEED = 2402

PSQ = 24                    # i16 piece-square weights in [-PSQ, PSQ]
AUX = 6                     # i8 pawn-pair and threat weights in [-AUX, AUX]
BIAS_LO, BIAS_HI = -32, 96  # i16 transformer biases
L1 = 40                     # i8 L1 weights in [-L1, L1]
L1B_LO, L1B_HI = 512, 2560  # i32 L1 biases (scale 64^2)
L2W = 16                    # i32 L2 weights in [-L2W, L2W] (scale 64)
L2B_LO, L2B_HI = 0, 262144  # i32 L2 biases (scale 64^3)
L3W = 48                    # i32 L3 weights in [-L3W, L3W], in pairs v, -v (scale 64)
L3B = 1 << 22               # i32 L3 biases in [-L3B, L3B] (scale 64^4)

NAME = b"nnue-generated"
MAGIC, VERSION = b"CBNF", 1
FLAGS = 0x0002 | 0x0004 | 0x0008  # mirrored, merged kings, pairwise; not zstd
ARCH, ACTIVATION = 5, 0           # perspective_multilayer_dual_act_skip_l2, crelu
THREAT_BIT = 0x80

KING_BUCKETS, PSQ_FEATURES = 16, 704
AUX_FEATURES = 4560 + 59808  # pawn pairs, threats
L1_SIZE, L2_SIZE, L3_SIZE, OUTPUT_BUCKETS = 1024, 32, 64, 8
HEADER_SIZE, BODY_SIZE = 64, 89_381_920
NET_SHA256 = "9efcb675a6d2a79cd84eeca96098010a7e345df4605e512174923c428a953388"












def _i32_pairs_block(rng, count, lo, hi):
    """count little-endian i32 values: count / 2 pairs v, -v with v uniform in [lo, hi]."""
    vals = []
    for _ in range(count // 2):
        v = rng.randint(lo, hi)
        vals += [v, -v]
    return struct.pack(f"<{count}i", *vals)


def header() -> bytes:
    """The 64-byte CBNF header (src/eval/header.h:38-52 at 2402cae)."""
    assert len(NAME) <= 48
    out = struct.pack(
        "<4sHHBBBHBBB48s",
        MAGIC,
        VERSION,
        FLAGS,
        0,  # padding
        ARCH,
        ACTIVATION,
        L1_SIZE,
        THREAT_BIT | KING_BUCKETS,
        OUTPUT_BUCKETS,
        len(NAME),
        NAME,
    )
    assert len(out) == HEADER_SIZE
    return out


def generate() -> bytes:
    """The whole uncompressed net: header and body (HEADER_SIZE + BODY_SIZE bytes)."""
    rng = random.Random(SEED)
    parts = [
        blocks.i16_block(rng, KING_BUCKETS * PSQ_FEATURES * L1_SIZE, -PSQ, PSQ),
        blocks.i8_block(rng, AUX_FEATURES * L1_SIZE, -AUX, AUX),
        blocks.i16_block(rng, L1_SIZE, BIAS_LO, BIAS_HI),
        blocks.i8_block(rng, OUTPUT_BUCKETS * L1_SIZE * L2_SIZE, -L1, L1),
        blocks.i32_block(rng, OUTPUT_BUCKETS * L2_SIZE, L1B_LO, L1B_HI),
        blocks.i32_block(rng, OUTPUT_BUCKETS * 2 * L2_SIZE * L3_SIZE, -L2W, L2W),
        blocks.i32_block(rng, OUTPUT_BUCKETS * L3_SIZE, L2B_LO, L2B_HI),
        _i32_pairs_block(rng, OUTPUT_BUCKETS * L3_SIZE, -L3W, L3W),
        blocks.i32_block(rng, OUTPUT_BUCKETS, -L3B, L3B),
    ]
    out = header() + b"".join(parts)
    assert len(out) == HEADER_SIZE + BODY_SIZE, len(out)
    return out




if __name__ == "__main__":
    blocks.main(sys.argv, generate, NET_SHA256, __doc__.split("\n\n")[1])
