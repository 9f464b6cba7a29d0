"""The suite's pseudo-random generator, SplitMix64 (R-SHUFFLE): what a seeded deal and the random
player draw from."""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from mypy_extensions import i64  # native 64-bit integers when compiled; int when interpreted

MASK64: Final = (1 << 64) - 1


#: whether this module runs compiled (make compiled): SplitMix64 then computes on native integers
_NATIVE: Final = __file__.endswith(tuple(EXTENSION_SUFFIXES))
_M32: Final = 0xFFFFFFFF


class SplitMix64:
    """The suite's PRNG (R-SHUFFLE): tiny, portable, and identical in every language.

    The interpreted engine computes R-SHUFFLE's definition as written, on Python integers. The
    compiled one keeps the state in two 32-bit halves (`hi`, `lo`) and mixes them in native 64-bit
    integers, every product under 2^49, so that it never touches Python's arbitrary-precision
    arithmetic (a draw costs ~45 ns there instead of ~380 ns; the shuffle and the random player draw
    about 66 times a round). tests/reference_impl/test_deal.py checks both against the
    definition over many seeds, in both builds."""

    __slots__ = ("hi", "lo", "state")

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64
        self.hi: i64 = (seed >> 32) & _M32
        self.lo: i64 = seed & _M32

    def next(self) -> int:
        if _NATIVE:
            hi, lo = self._step()
            high: int = hi  # leaves i64: the value needs all 64 bits
            low: int = lo
            return (high << 32) | low
        # the mask is spelled out: a constant costs nothing, a global lookup does (fuzzing draws millions)
        z = self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """next() mod bound, as R-SHUFFLE specifies (the bias is part of the definition)."""
        if _NATIVE:
            hi, lo = self._step()
            if bound < 0x80000000:  # every draw of a deal or a player (bounds under 60)
                b: i64 = bound
                # (hi * 2^32 + lo) mod b, as ((hi mod b) * 2^32 + lo) mod b: under 2^63 for b under 2^31
                return (((hi % b) << 32) + lo) % b
            high: int = hi  # a larger bound: on Python integers, which never overflow
            low: int = lo
            return ((high << 32) | low) % bound
        # next(), inlined: a method call costs as much as the mixing
        z = self.state = (self.state + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
        return (z ^ (z >> 31)) % bound

    def _step(self) -> tuple[i64, i64]:
        """next() of the compiled build, as its two 32-bit halves (see the class docstring)."""
        lo: i64 = self.lo + 0x7F4A7C15  # state += 0x9E3779B97F4A7C15 (mod 2^64)
        hi: i64 = (self.hi + 0x9E3779B9 + (lo >> 32)) & 0xFFFFFFFF
        lo &= 0xFFFFFFFF
        self.hi = hi
        self.lo = lo
        lo ^= ((hi << 2) & 0xFFFFFFFF) | (lo >> 30)  # z ^= z >> 30
        hi ^= hi >> 30
        hi, lo = _times(hi, lo, 0xBF58476D, 0x1CE4E5B9)
        lo ^= ((hi << 5) & 0xFFFFFFFF) | (lo >> 27)  # z ^= z >> 27
        hi ^= hi >> 27
        hi, lo = _times(hi, lo, 0x94D049BB, 0x133111EB)
        lo ^= ((hi << 1) & 0xFFFFFFFF) | (lo >> 31)  # z ^= z >> 31
        hi ^= hi >> 31
        return hi, lo

    def shuffle(self, items: list[int]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def _times(hi: i64, lo: i64, k_hi: i64, k_lo: i64) -> tuple[i64, i64]:
    """(hi * 2^32 + lo) * (k_hi * 2^32 + k_lo) mod 2^64, as halves. `lo` is split in 16-bit
    pieces (and `hi` for the terms that only reach the high half), so no product exceeds 2^49."""
    l1 = lo >> 16
    l0 = lo & 0xFFFF
    a = l0 * k_lo
    b = l1 * k_lo
    low = a + ((b & 0xFFFF) << 16)  # lo * k_lo = low + (b >> 16) * 2^32
    cross = l0 * k_hi + (((l1 * k_hi) & 0xFFFF) << 16) + (hi & 0xFFFF) * k_lo + ((((hi >> 16) * k_lo) & 0xFFFF) << 16)
    return ((low >> 32) + (b >> 16) + cross) & 0xFFFFFFFF, low & 0xFFFFFFFF
