#!/usr/bin/env python3
"""A generated net in the raw format of Reckless 789de89 (the "v60" architecture).

usage: python3 tools/netgen/reckless_v60.py OUT

Writes the net to OUT and prints its SHA-256, after checking it against NET_SHA256.
`generate()` returns the same bytes; importing this module does nothing else. Pure standard
library; `generate()` takes about 0.4 s on a Zen 4 core.

The file is the bytes of Reckless's `Parameters` struct (src/nnue.rs:356-367 at 789de89; see
docs/bullet-engines/reckless.md section 5): nine little-endian blocks with no header, each block
padded to a multiple of 64 bytes (only the last needs padding), 63,266,880 bytes in all:

| block | type, shape | offset |
|---|---|---|
| ft_threat_weights | i8 [66864][768] | 0 |
| ft_piece_weights | i16 [7680][768] | 51,351,552 |
| ft_biases | i16 [768] | 63,148,032 |
| l1_weights | i8 [8][16*768], 4-interleaved: input n to output j at (n/4)*64 + j*4 + n%4 | 63,149,568 |
| l1_biases | f32 [8][16] | 63,247,872 |
| l2_weights | f32 [8][16][32] (input-major) | 63,248,384 |
| l2_biases | f32 [8][32] | 63,264,768 |
| l3_weights | f32 [8][32] | 63,265,792 |
| l3_biases | f32 [8], then 32 zero bytes | 63,266,816 |

Values. It is not a trained net: every value is drawn from one `random.Random(SEED)`, block by
block in file order, so Python always gives the same file (NET_SHA256; the same digest from
CPython 3.9, 3.10, 3.11, 3.12 and 3.13). The ranges keep Reckless's arithmetic where a trained
net keeps it:

- i8 threat weights uniform in [-THREAT, THREAT] and i16 piece-square weights uniform in
  [-PIECE, PIECE] (a random byte r gives lo + r % (hi - lo + 1): the low values are very
  slightly more frequent), i16 transformer biases uniform in [BIAS_LO, BIAS_HI]. An accumulator
  (bias + about 32 piece rows + up to about 100 threat rows) then stays within a few hundred of
  zero, far from the i16 limits, and centred inside the pairwise clamp [0, 255], so that a good
  share of the products clamp(a,0,255)*clamp(b,0,255)>>9 are nonzero.
- i8 L1 weights uniform in [-L1, L1] with L1 <= 64: four products of a byte (at most 127) and a
  weight then sum to at most 4*127*64 = 32512, so Reckless's i16-wrapping L1 sums (AVX2,
  AVX-512 without VNNI, scalar) equal its exact i32 sum (VNNI).
- f32 values are multiples of 2^-10 (exact in f32): L1 biases in [L1B_LO, L1B_HI], L2 weights
  in [-L2W, L2W], L2 biases in [L2B_LO, L2B_HI], L3 weights in [-L3W, L3W], L3 biases in
  [-L3B, L3B]. The dequantised L1 outputs then mostly fall inside the CReLU's (0, 1), and the
  final (out * 380) as i32 spreads over hundreds to a few thousand, both signs.

Measured on the 1237 positions of tests/reference/fens.txt with Reckless 789de89 (its own
accumulators and layers, read by a throwaway diagnostic build): summed accumulators between
-181 and 255; 44 % of the 768 pairwise outputs nonzero on average (34 % to 55 %); the largest
four-product sum of L1 in magnitude 1,488; of the 16 dequantised L1 values, on average 2.7
at or below 0 and 0.07 at or above 1; outputs from -1,312 to 1,825 (mean 351), each of the 8
output buckets with a different mean (from -802 to 1,272).
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blocks  # noqa: E402

SEED = 789060

THREAT = 5                 # i8 threat weights in [-THREAT, THREAT]
PIECE = 12                 # i16 piece-square weights in [-PIECE, PIECE]
BIAS_LO, BIAS_HI = -8, 88  # i16 transformer biases
L1 = 24                    # i8 L1 weights in [-L1, L1]
FRAC = 1024                # f32 values are integers / FRAC
L1B_LO, L1B_HI = 0.125, 0.75
L2W = 0.375
L2B_LO, L2B_HI = 0.0, 0.5
L3W = 2.0
L3B = 2.0

THREAT_FEATURES, PIECE_FEATURES = 66864, 7680
L1_SIZE, L2_SIZE, L3_SIZE, OUTPUT_BUCKETS = 768, 16, 32, 8
SIZE = 63_266_880
NET_SHA256 = "b31139955a82d5da4786edc259884e2a3d322700fd2c33c3a336cf0eea234c3c"










def generate() -> bytes:
    """The whole net file (SIZE bytes)."""
    rng = random.Random(SEED)
    parts = [
        blocks.i8_block(rng, THREAT_FEATURES * L1_SIZE, -THREAT, THREAT, blocks.modulo),
        blocks.i16_block(rng, PIECE_FEATURES * L1_SIZE, -PIECE, PIECE, blocks.modulo),
        blocks.i16_block(rng, L1_SIZE, BIAS_LO, BIAS_HI, blocks.modulo),
        blocks.i8_block(rng, OUTPUT_BUCKETS * L2_SIZE * L1_SIZE, -L1, L1, blocks.modulo),
        blocks.f32_block(rng, OUTPUT_BUCKETS * L2_SIZE, L1B_LO, L1B_HI, FRAC),
        blocks.f32_block(rng, OUTPUT_BUCKETS * L2_SIZE * L3_SIZE, -L2W, L2W, FRAC),
        blocks.f32_block(rng, OUTPUT_BUCKETS * L3_SIZE, L2B_LO, L2B_HI, FRAC),
        blocks.f32_block(rng, OUTPUT_BUCKETS * L3_SIZE, -L3W, L3W, FRAC),
        blocks.f32_block(rng, OUTPUT_BUCKETS, -L3B, L3B, FRAC),
    ]
    out = bytearray()
    for block in parts:
        out += block
        out += bytes(-len(out) % 64)
    assert len(out) == SIZE, len(out)
    return bytes(out)




if __name__ == "__main__":
    blocks.main(sys.argv, generate, NET_SHA256, __doc__.split("\n\n")[1])
