"""The core's draws (core/include/pelab/draws.h), written again from their definitions.

Prints, one per line, what the C++ test compares with:
  tokens S V N       N uniform tokens in [0, V) from std::mt19937_64 seeded S
  normal S N         N standard normals (Box–Muller, cosine branch) from std::mt19937_64(S)
  splitmix S N       N standard normals from SplitMix64(S)
The generators follow their published definitions (mt19937_64: Matsumoto & Nishimura's
64-bit Mersenne Twister as the C++ standard fixes it, checked here against the standard's
10 000th output; SplitMix64: Steele, Lea & Flood), with nothing shared with the C++ code.
"""
import math
import sys

MASK = (1 << 64) - 1


class MersenneTwister64:
    def __init__(self, seed):
        self.state = [seed & MASK]
        for i in range(1, 312):
            previous = self.state[-1]
            self.state.append((6364136223846793005 * (previous ^ (previous >> 62)) + i) & MASK)
        self.index = 312

    def _twist(self):
        s = self.state
        for i in range(312):
            x = (s[i] & 0xFFFFFFFF80000000) | (s[(i + 1) % 312] & 0x7FFFFFFF)
            shifted = x >> 1
            if x & 1:
                shifted ^= 0xB5026F5AA96619E9
            s[i] = s[(i + 156) % 312] ^ shifted
        self.index = 0

    def __call__(self):
        if self.index >= 312:
            self._twist()
        y = self.state[self.index]
        self.index += 1
        y ^= (y >> 29) & 0x5555555555555555
        y ^= (y << 17) & 0x71D67FFFEDA60000
        y ^= (y << 37) & 0xFFF7EEE000000000
        y ^= y >> 43
        return y & MASK


class SplitMix64:
    def __init__(self, seed):
        self.state = seed & MASK

    def __call__(self):
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        return z ^ (z >> 31)


def below(engine, count):
    """Uniform in [0, count) by rejection: outputs under 2^64 mod count are drawn again."""
    limit = (1 << 64) % count
    while True:
        bits = engine()
        if bits >= limit:
            return bits % count


def unit(engine):
    return ((engine() >> 11) + 0.5) / 2.0**53


def normal(engine):
    u1 = unit(engine)
    u2 = unit(engine)
    return math.sqrt(-2.0 * math.log(u1)) * math.cos(2.0 * math.pi * u2)


def main():
    check = MersenneTwister64(5489)
    for _ in range(9999):
        check()
    assert check() == 9981545732273789042, "mt19937_64 does not follow the standard"
    for line in sys.stdin.read().split("\n"):
        words = line.split()
        if not words:
            continue
        if words[0] == "tokens":
            seed, vocab, count = map(int, words[1:])
            engine = MersenneTwister64(seed)
            print(" ".join(str(below(engine, vocab)) for _ in range(count)))
        elif words[0] in ("normal", "splitmix"):
            seed, count = map(int, words[1:])
            engine = (MersenneTwister64 if words[0] == "normal" else SplitMix64)(seed)
            print(" ".join(repr(normal(engine)) for _ in range(count)))


if __name__ == "__main__":
    main()
