#!/usr/bin/env python3
"""A generated net in the decompressed format of Viridithas 8bc0706.

usage: python3 tools/netgen/viridithas.py OUT

Writes the net to OUT and prints its SHA-256. `generate()` returns the same bytes; importing
this module does nothing else. Pure standard library; about one second on one core.

The file is the bytes of Viridithas's `QuantisedNetwork` struct (src/nnue/network.rs:165-178 at
8bc0706; see docs/bullet-engines/viridithas.md section 5): nine little-endian blocks with no
header and no padding, 89,315,360 bytes in all. The engine embeds it zstd-compressed
(`viridithas.nnue.zst`); this script writes it uncompressed.

| block | type, shape | offset |
|---|---|---|
| l0_aux | i8 [64368][1024]: pawn-pair rows 0..4559, then threat rows | 0 |
| l0_weights | i16 [16 king bucket][704][1024] | 65,912,832 |
| l0_biases | i16 [1024] | 88,981,504 |
| l1_weights | i8 [1024 in][8 bucket][32 out] | 88,983,552 |
| l1_biases | f32 [8][32] | 89,245,696 |
| l2_weights | f32 [32 in][8 bucket][64 out] | 89,246,720 |
| l2_biases | f32 [8][64] | 89,312,256 |
| l3_weights | f32 [32 in][8 bucket] | 89,314,304 |
| l3_biases | f32 [8] | 89,315,328 |

Values. It is not a trained net: every value is drawn from one `random.Random(SEED)`, block by
block in file order, so a given Python (3.9 or later: `randbytes`) always gives the same file;
NET_SHA256 below is the digest the CLI checks. Rows need no special treatment: the merged king
plane (rows 320..383 of each king bucket) and the threat slots no position reaches are drawn
like every other row. The ranges keep Viridithas's arithmetic where a trained net keeps it:

- i8 auxiliary weights uniform in [-AUX, AUX], i16 piece-square weights uniform in [-PSQ, PSQ],
  i16 transformer biases uniform in [BIAS_LO, BIAS_HI] (a random byte picks one of an odd
  number of values, each from a run of bytes, the runs' lengths differing by at most one and
  laid out symmetrically: see `_value`; so the mean is exactly the middle of the range). An
  accumulator (bias, up to 32 piece-square rows and up to about 100 pawn-pair and threat rows,
  summed in wrapping i16) then stays within a few hundred of zero, far from the i16 limits
  (-352 to 438 on tests/reference/fens.txt); its upper clamp at 255 is reached now and then,
  and 30 to 50 % of the pairwise products clamp(a,0,255)*clamp(b,0,255)>>9 are nonzero.
- i8 L1 weights uniform in [-L1, L1] with L1 <= 64: four products of a byte (at most 127) and
  a weight then sum to at most 4*127*64 = 32512, so the engine's x86 L1 without VNNI, whose
  pairs of `maddubs` results are added in wrapping i16, equals its exact VNNI sum.
- f32 values are multiples of 2^-10 (exact in f32): L1 biases in [L1B_LO, L1B_HI], L2 weights
  in [-L2W, L2W], L2 biases in [L2B_LO, L2B_HI], L3 weights in [-L3W, L3W], L3 biases in
  [-L3B, L3B]. The dequantised L1 values fma(f32(sum), L1_MUL, bias) then spread over the
  HardSwish's bend (-3..3; 98 % of them within -3.6..3.7 on those positions), and the final
  (out * 240) as i32 spreads over hundreds to a few thousand, both signs (-4,301 to 1,823).
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blocks  # noqa: E402

SEED = 80706

AUX = 6                     # i8 pawn-pair and threat weights in [-AUX, AUX]
PSQ = 24                    # i16 piece-square weights in [-PSQ, PSQ]
BIAS_LO, BIAS_HI = -32, 96  # i16 transformer biases
L1 = 64                     # i8 L1 weights in [-L1, L1]
FRAC = 1024                 # f32 values are integers / FRAC
L1B_LO, L1B_HI = -0.75, 0.75
L2W = 0.375
L2B_LO, L2B_HI = -0.5, 0.5
L3W = 0.5
L3B = 1.0

AUX_FEATURES = 4560 + 59808  # pawn pairs, threats
PSQT_FEATURES, KING_BUCKETS = 704, 16
L0_OUT, L1_OUT, L2_OUT, L3_IN, OUTPUT_BUCKETS = 1024, 32, 64, 32, 8
SIZE = 89_315_360
NET_SHA256 = "b41aa07897c67f3e7a39ce295f970a850447a0a74ddb691f433ffc19829238cb"












def generate() -> bytes:
    """The whole decompressed net (SIZE bytes)."""
    rng = random.Random(SEED)
    parts = [
        blocks.i8_block(rng, AUX_FEATURES * L0_OUT, -AUX, AUX),
        blocks.i16_block(rng, KING_BUCKETS * PSQT_FEATURES * L0_OUT, -PSQ, PSQ),
        blocks.i16_block(rng, L0_OUT, BIAS_LO, BIAS_HI),
        blocks.i8_block(rng, L0_OUT * OUTPUT_BUCKETS * L1_OUT, -L1, L1),
        blocks.f32_block(rng, OUTPUT_BUCKETS * L1_OUT, L1B_LO, L1B_HI, FRAC),
        blocks.f32_block(rng, L1_OUT * OUTPUT_BUCKETS * L2_OUT, -L2W, L2W, FRAC),
        blocks.f32_block(rng, OUTPUT_BUCKETS * L2_OUT, L2B_LO, L2B_HI, FRAC),
        blocks.f32_block(rng, L3_IN * OUTPUT_BUCKETS, -L3W, L3W, FRAC),
        blocks.f32_block(rng, OUTPUT_BUCKETS, -L3B, L3B, FRAC),
    ]
    out = b"".join(parts)
    assert len(out) == SIZE, len(out)
    return out




if __name__ == "__main__":
    blocks.main(sys.argv, generate, NET_SHA256, __doc__.split("\n\n")[1])
