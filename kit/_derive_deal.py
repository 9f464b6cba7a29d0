"""The events of a `new_game` reply derived from the deal and the state after it (event_order
new_game: R-DEAL-BONUS, R-TABLE-FOUR, R-TABLE-TRIPLE, R-CHONGTONG, R-REDEAL, R-ROUND-END), and
the pieces `_derive` shares with it: the event builder, the round_end event and the multiset
arithmetic on card lists.

A deal fixes every card's place, so the deal-time events follow from it and the options alone;
the settlement (the score reply's) says how a round that ends at the deal ends."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final

from gostop_conformance.kit._cards import card, is_bonus, month, sort_ids

Json = Mapping[str, Any]

#: the table_four_of_month values that end the round at the first four (R-TABLE-FOUR); the other
#: one, dealer_captures_four, lets the dealer take each four and the deal go on
_FOUR_ENDS: Final = frozenset({"redeal", "nagari", "dealer_wins_fixed"})
#: hand_chongtong values under which no chongtong is looked for at the deal: `ignore`, and
#: `instant_win_or_continue`, where the holder shows it with an action instead (R-CHONGTONG)
_NO_DEALT_CHONGTONG: Final = frozenset({"ignore", "instant_win_or_continue"})


def make_event(kind: str, player: int | None = None, cards: Iterable[str] = (), **data: Any) -> dict[str, Any]:
    """An event as the reference engine writes it: `player` left out when no player is concerned,
    `cards` when there are none (spec/vocabulary.yaml, events), never `clauses`."""
    out: dict[str, Any] = {"kind": kind}
    if player is not None:
        out["player"] = player
    listed = list(cards)
    if listed:
        out["cards"] = listed
    out.update(data)
    return out


def round_end(settlement: Json | None) -> dict[str, Any]:
    """R-ROUND-END: the winner, the outcome and the nets are the settlement's, which only the
    score reply after the action carries."""
    if settlement is None:
        raise ValueError("the round is over: round_end needs the settlement of the score reply after it (settlement=...)")
    return make_event("round_end", settlement.get("winner"), outcome=settlement["kind"], net=list(settlement["net"]))


def minus(cards: Iterable[str], taken: Iterable[str]) -> list[str]:
    """`cards` without `taken`, as multisets (a card list's order carries no meaning)."""
    left = Counter(cards)
    left.subtract(taken)
    return sort_ids(left.elements())


def by_month(cards: Iterable[str]) -> dict[int, list[str]]:
    """The month cards among `cards` grouped by month, each group in the deck's order."""
    out: dict[int, list[str]] = {}
    for c in sort_ids(cards):
        m = month(c)
        if m:
            out.setdefault(m, []).append(c)
    return out


def first_player(deal: Json, options: Json, players: int) -> int:
    """R-TURN-ORDER: the deal's `first_player`, else the dealer or the seat after it (option first_player)."""
    named = deal.get("first_player")
    if isinstance(named, int):
        return named
    dealer = int(deal["dealer"])
    return dealer if options["first_player"] == "dealer" else (dealer + 1) % players


def derive_deal_events(
    deal: Mapping[str, Any], after: Mapping[str, Any], *, options: Mapping[str, Any], settlement: Mapping[str, Any] | None = None
) -> list[dict[str, Any]]:
    """The events of a `new_game` reply (event_order new_game) from the deal and the state after it.

    `deal` must be explicit (every card's place, the table in dealing order and the stock top
    first): a `{"seed": N}` deal does not say which card was dealt where, so an adapter of an
    engine declaring seeded_deal passes the deal its engine made, written out (ValueError
    otherwise). `options` is the request's `ruleset.options`; `settlement` the score reply's,
    needed only when the round ends at the deal (a redeal, a void round, a fixed win), since its
    round_end carries the settlement's winner, outcome and nets.

    In order: each bonus card dealt to the table goes to the dealer and is replaced in place by
    the top stock card, which may be one again (table_bonus, R-DEAL-BONUS); the deal; each month
    with four table cards (table_four, R-TABLE-FOUR), the dealer's capture of it under
    dealer_captures_four, the first one ending the round under any other handling; the dealt
    triples with no owner in `deal.stacks` (table_triple, R-TABLE-TRIPLE); on a fresh round (no
    captured piles, turn 0) each chongtong holder in turn order from the first player, month by
    month (chongtong, R-CHONGTONG); a redeal and the round_end when the round is over (R-REDEAL,
    R-ROUND-END)."""
    if "hands" not in deal:
        raise ValueError("derive_deal_events needs an explicit deal (hands, table, stock): expand a seeded deal first")
    hands: Sequence[Sequence[str]] = deal["hands"]
    players = len(hands)
    dealer = int(deal["dealer"])
    out: list[dict[str, Any]] = []
    layout, stock = list(deal.get("table", ())), list(deal.get("stock", ()))
    pos = 0
    while pos < len(layout):  # a replacement may be a bonus card itself: the same place is looked at again
        if not is_bonus(layout[pos]):
            pos += 1
            continue
        bonus = layout[pos]
        if stock:
            layout[pos] = stock.pop(0)
            out.append(make_event("table_bonus", dealer, [bonus, layout[pos]]))
        else:
            del layout[pos]
            out.append(make_event("table_bonus", dealer, [bonus]))
    first = first_player(deal, options, players)
    out.append(make_event("deal", dealer=dealer, first_player=first))
    table = by_month(layout)
    ended = False
    handling = options["table_four_of_month"]
    for m in range(1, 13):
        four = table.get(m, [])
        if len(four) != 4:
            continue
        out.append(make_event("table_four", dealer, four, month=m, handling=handling))
        if handling in _FOUR_ENDS:
            ended = True
            break
        del table[m]
        out.append(make_event("capture", dealer, four))
    if not ended:
        owners = {int(s["month"]): s.get("owner") for s in deal.get("stacks", ())}
        out += [make_event("table_triple", None, cs, month=m) for m, cs in sorted(table.items()) if len(cs) == 3 and owners.get(m) is None]
        fresh = deal.get("captured") is None and not deal.get("turn")
        if fresh and options["hand_chongtong"] not in _NO_DEALT_CHONGTONG:
            for k in range(players):
                seat = (first + k) % players
                out += [make_event("chongtong", seat, cs, month=m) for m, cs in sorted(by_month(hands[seat]).items()) if len(cs) == 4]
    if after.get("decision") == "none":  # the round ended at the deal
        if settlement is not None and settlement.get("kind") == "redeal":
            out.append(make_event("redeal", dealer, dealer=dealer))
        out.append(round_end(settlement))
    return out


def junk_units_of(card_id: str) -> int:
    """A card's own junk units (R-SCORE-JUNK): those of junk, double junk and bonus cards, 0 otherwise."""
    c = card(card_id)
    return c.units if c.is_junk else 0
