"""What the net generators of tools/netgen share: blocks of pseudo-random little-endian values
drawn from a random.Random, and the command line that writes a net and checks its SHA-256.
Python standard library only; the generators' digests depend on every draw, so a change here
must leave every block's bytes as they are."""

import hashlib
import struct
import sys


def symmetric(r, lo, hi):
    """The value in [lo, hi] (an odd count of values) of the random byte r: the 256 bytes split
    into hi - lo + 1 runs whose lengths differ by at most one, laid out symmetrically, so that
    the values are uniform within 1/256 and their mean is exactly (lo + hi) / 2."""
    n = hi - lo + 1
    assert n % 2 == 1
    return lo + (2 * r + 1) * n // 512


def modulo(r, lo, hi):
    """The value lo + r % (hi - lo + 1) of the random byte r."""
    return lo + r % (hi - lo + 1)


def i8_block(rng, count, lo, hi, value=symmetric):
    """count i8 values in [lo, hi], one random byte each mapped by value."""
    return rng.randbytes(count).translate(bytes(value(r, lo, hi) & 0xFF for r in range(256)))


def i16_block(rng, count, lo, hi, value=symmetric):
    """count little-endian i16 values in [lo, hi] (-128 <= lo, hi <= 127), one random byte each
    mapped by value: its low byte, then its sign byte."""
    assert -128 <= lo <= hi <= 127
    raw = rng.randbytes(count)
    out = bytearray(2 * count)
    out[0::2] = raw.translate(bytes(value(r, lo, hi) & 0xFF for r in range(256)))
    out[1::2] = raw.translate(bytes(0xFF if value(r, lo, hi) < 0 else 0 for r in range(256)))
    return out


def i32_block(rng, count, lo, hi):
    """count little-endian i32 values uniform in [lo, hi]."""
    return struct.pack(f"<{count}i", *(rng.randint(lo, hi) for _ in range(count)))


def f32_block(rng, count, lo, hi, frac):
    """count f32 values k / frac with k uniform in [lo * frac, hi * frac]."""
    a, b = round(lo * frac), round(hi * frac)
    return struct.pack(f"<{count}f", *(rng.randint(a, b) / frac for _ in range(count)))


def main(argv, generate, sha256, usage):
    """`<generator>.py OUT`: writes generate()'s net to OUT if its SHA-256 is sha256 and prints
    the digest."""
    if len(argv) != 2:
        sys.exit(usage)
    net = generate()
    digest = hashlib.sha256(net).hexdigest()
    if sha256 is not None and digest != sha256:
        sys.exit(f"generated net has sha256 {digest}, not {sha256} (a different Python?)")
    with open(argv[1], "wb") as f:
        f.write(net)
    print(digest)
