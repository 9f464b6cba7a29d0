"""Counts in words, for every message, report and page that prints one: "1 scenario", "2 scenarios"."""

from __future__ import annotations


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`n` and its noun, singular for exactly one: counted(1, "scenario") is "1 scenario",
    counted(0, "scenario") "0 scenarios"; `plural` for a noun whose plural adds more than an s
    (counted(2, "divergence class", "divergence classes"))."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
