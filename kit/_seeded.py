"""A seeded deal spelled out (R-SHUFFLE, R-DEAL-ORDER, R-FIRST-DEALER), so that an engine that
takes explicit deals only can still declare the feature seeded_deal, and so that the kit can derive
a seeded deal's events. Written from the clauses' text: SplitMix64, its draws taken modulo the
bound, a Fisher-Yates shuffle from the last card down, packets dealt as spec/deal.yaml orders them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from gostop_conformance import spec
from gostop_conformance.kit._cards import card, deck_ids

_MASK: Final = (1 << 64) - 1
#: R-FIRST-DEALER's order of kinds when two drawn cards share a month
_KIND_RANK: Final = {"bright": 5, "animal": 4, "ribbon": 3, "double-junk": 2, "junk": 1}


class SplitMix64:
    """R-SHUFFLE's generator: identical in every language."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """next() mod bound: the bias is part of the definition."""
        return self.next() % bound

    def shuffle(self, items: list[Any]) -> None:
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]


def _first_dealer(options: Mapping[str, Any], rng: SplitMix64) -> int:
    """R-FIRST-DEALER: drawn from the same generator before the shuffle of the deal."""
    n = int(options["players"])
    if options["first_dealer"] == "seeded_random":
        return rng.below(n)
    month_cards = list(deck_ids())
    sign = 1 if options["first_dealer"] == "draw_day_high" else -1
    seats = list(range(n))
    while True:  # a full tie: the tied players draw again from a fresh shuffle
        order = list(month_cards)
        rng.shuffle(order)
        keys = {seat: (sign * card(order[k]).month, sign * _KIND_RANK[card(order[k]).kind]) for k, seat in enumerate(seats)}
        best = max(keys.values())
        seats = [seat for seat in seats if keys[seat] == best]
        if len(seats) == 1:
            return seats[0]


def seeded_deal(raw: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """The explicit deal (explicit_deal of spec/protocol) of a seeded one ({seed, dealer?, ...}):
    hands in deck order, the table in dealing order, the stock top first."""
    rng = SplitMix64(int(raw["seed"]))
    n = int(options["players"])
    dealer = raw.get("dealer")
    if dealer is None:
        dealer = _first_dealer(options, rng)
    cards = list(deck_ids(tuple(options.get("bonus_cards") or ())))
    rng.shuffle(cards)
    packets = spec.deal_layouts()[options["deal_layout"]]["orders"][options["deal_packet_order"]]
    hands: list[list[str]] = [[] for _ in range(n)]
    table: list[str] = []
    pos = 0
    for packet in packets:
        if "table" in packet:
            table += cards[pos : pos + int(packet["table"])]
            pos += int(packet["table"])
            continue
        for k in range(1, n + 1):  # from the seat after the dealer, the dealer last
            hands[(dealer + k) % n] += cards[pos : pos + int(packet["hands"])]
            pos += int(packet["hands"])
    deal: dict[str, Any] = {
        "dealer": dealer,
        "hands": [sorted(h, key=lambda c: card(c).index) for h in hands],
        "table": table,
        "stock": cards[pos:],
    }
    for name in ("nagari_streak", "carried_multiplier"):
        if name in raw:
            deal[name] = raw[name]
    return deal
