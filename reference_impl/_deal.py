"""Deals: the seeded shuffle (R-SHUFFLE, with `_rng`), packet dealing (R-DEAL-SIZE, R-DEAL-ORDER) and the
validation of explicit deals (every card of the ruleset's deck exactly once)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Final, NamedTuple

from gostop_conformance.reference._rng import SplitMix64
from gostop_conformance.spec import InputError, Options, deal_layouts, deck, memo


def deck_indices(options: Options) -> list[int]:
    """The ruleset's deck in canonical order: the 48 cards, then its bonus cards (R-BONUS-DECK)."""
    return list(_deck_of(options.bonus_cards))


def deck_mask(options: Options) -> int:
    """deck_indices() as a bit set over the canonical index (a round checks every card named
    against it: a shift and a mask, where a set lookup hashes a boxed integer)."""
    found = _DECK_MASKS.get(options.bonus_cards)
    if found is None:
        found = 0
        for c in _deck_of(options.bonus_cards):
            found |= 1 << c
        _DECK_MASKS[options.bonus_cards] = found
    return found


# per bonus_cards: the deck, and the deck as a bit set. Dicts rather than functools.cache: compiled code
# looks a dict up directly, and every seeded deal and every round asks
_DECKS: Final[dict[tuple[int, ...], tuple[int, ...]]] = memo({})
_DECK_MASKS: Final[dict[tuple[int, ...], int]] = memo({})


def _deck_of(bonus_cards: tuple[int, ...]) -> tuple[int, ...]:
    found = _DECKS.get(bonus_cards)
    if found is not None:
        return found
    cards = deck().cards
    used: set[int] = set()
    for units in bonus_cards:
        extra = next(c.index for c in cards[48:] if c.units == units and c.index not in used)
        used.add(extra)
    found = _DECKS[bonus_cards] = (*range(48), *sorted(used))
    return found


#: per (deal_layout, deal_packet_order) of spec/deal.yaml: its packets in dealing order, each
#: (to the table, how many cards) - to each hand when not to the table (R-DEAL-ORDER)
_PLANS: Final[dict[tuple[str, str], tuple[tuple[bool, int], ...]]] = memo({})


def _plan(layout: str, order: str) -> tuple[tuple[bool, int], ...]:
    found = _PLANS.get((layout, order))
    if found is None:
        packets = deal_layouts()[layout]["orders"][order]
        found = _PLANS[layout, order] = tuple((True, int(p["table"])) if "table" in p else (False, int(p["hands"])) for p in packets)
    return found


@dataclass(frozen=True, slots=True)
class PlayerState:
    """Round state of one player for a mid-game start (all fields default to a fresh round)."""

    gos: int = 0
    go_base: int = 0
    first_go_turn: int | None = None
    shaken_months: tuple[int, ...] = ()
    bombs: tuple[int, ...] = ()
    skip_credits: int = 0
    ppeoks: int = 0
    dual_junk: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Deal:
    """Who holds what at the start of a round; stock is top first. Card ids, validated."""

    players: int
    dealer: int
    hands: tuple[tuple[str, ...], ...]
    table: tuple[str, ...]
    stock: tuple[str, ...]
    captured: tuple[tuple[str, ...], ...] | None = None
    stacks: Mapping[int, int | None] = field(default_factory=dict)
    player_state: tuple[PlayerState, ...] | None = None
    nagari_streak: int = 0
    carried_multiplier: int = 1
    turn: int = 0
    first_player: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "dealer": self.dealer,
            "hands": [list(h) for h in self.hands],
            "table": list(self.table),
            "stock": list(self.stock),
        }
        if self.captured is not None:
            out["captured"] = [list(c) for c in self.captured]
        if self.stacks:
            out["stacks"] = [{"month": m, "owner": owner} for m, owner in sorted(self.stacks.items())]
        if self.player_state is not None:
            out["players"] = [
                {
                    "gos": p.gos,
                    "go_base": p.go_base,
                    "shaken_months": list(p.shaken_months),
                    "bombs": list(p.bombs),
                    "skip_credits": p.skip_credits,
                    "ppeoks": p.ppeoks,
                    "dual_junk": list(p.dual_junk),
                }
                | ({"first_go_turn": p.first_go_turn} if p.first_go_turn is not None else {})
                for p in self.player_state
            ]
        if self.nagari_streak:
            out["nagari_streak"] = self.nagari_streak
        if self.carried_multiplier != 1:
            out["carried_multiplier"] = self.carried_multiplier
        if self.turn:
            out["turn"] = self.turn
        if self.first_player is not None:
            out["first_player"] = self.first_player
        return out


class DealtCards(NamedTuple):
    """A seeded deal as canonical indices (`deal_cards`): what `seeded_deal` spells with card ids.
    A round starts from it without the ids' round trip (`seeded_round`)."""

    players: int
    dealer: int
    hands: tuple[tuple[int, ...], ...]  # each sorted by index
    table: tuple[int, ...]  # in dealing order
    stock: tuple[int, ...]  # top first


def deal_cards(options: Options, rng: SplitMix64, dealer: int) -> DealtCards:
    """Shuffle the ruleset's deck with `rng` and deal it in packets (R-SHUFFLE, R-DEAL-ORDER)."""
    cards = deck_indices(options)
    rng.shuffle(cards)
    n = options.players
    order = [(dealer + k) % n for k in range(1, n + 1)]
    hands: list[list[int]] = [[] for _ in range(n)]
    table: list[int] = []
    pos = 0
    for to_table, size in _plan(options.deal_layout, options.deal_packet_order):
        if to_table:
            table.extend(cards[pos : pos + size])
            pos += size
        else:
            for seat in order:
                hands[seat].extend(cards[pos : pos + size])
                pos += size
    for h in hands:
        h.sort()
    return DealtCards(players=n, dealer=dealer, hands=tuple([tuple(h) for h in hands]), table=tuple(table), stock=tuple(cards[pos:]))


def seeded_deal(options: Options, rng: SplitMix64, dealer: int) -> Deal:
    """`deal_cards` with card ids (R-SHUFFLE, R-DEAL-ORDER)."""
    dealt = deal_cards(options, rng, dealer)
    ids = _card_ids()
    return Deal(
        players=dealt.players,
        dealer=dealer,
        hands=tuple([tuple([ids[c] for c in h]) for h in dealt.hands]),
        table=tuple([ids[c] for c in dealt.table]),
        stock=tuple([ids[c] for c in dealt.stock]),
    )


_CARD_IDS: Final[list[tuple[str, ...]]] = memo([])


def _card_ids() -> tuple[str, ...]:
    """Every card id by canonical index (read once from the deck)."""
    if not _CARD_IDS:
        _CARD_IDS.append(tuple(c.id for c in deck().cards))
    return _CARD_IDS[0]


def check_deal(d: Deal, options: Options, where: str = "deal") -> None:
    """Every card of the ruleset's deck exactly once across hands, table, stock and captures."""
    if d.players != options.players:
        raise InputError(f"{where}.players", f"the ruleset is for {options.players} players, got {d.players}")
    if not 0 <= d.dealer < d.players:
        raise InputError(f"{where}.dealer", f"expected a seat from 0 to {d.players - 1}, got {d.dealer}")
    if len(d.hands) != d.players:
        raise InputError(f"{where}.hands", f"expected {d.players} hands, got {len(d.hands)}")
    if d.captured is not None and len(d.captured) != d.players:
        raise InputError(f"{where}.captured", f"expected {d.players} captured piles, got {len(d.captured)}")
    if d.player_state is not None and len(d.player_state) != d.players:
        raise InputError(f"{where}.players", f"expected {d.players} player states (one per hand), got {len(d.player_state)}")
    by_id = deck().by_id
    wanted = {deck().cards[i].id for i in deck_indices(options)}
    seen: dict[str, str] = {}
    places: list[tuple[str, Sequence[str]]] = [(f"{where}.hands[{i}]", h) for i, h in enumerate(d.hands)]
    places += [(f"{where}.table", d.table), (f"{where}.stock", d.stock)]
    if d.captured is not None:
        places += [(f"{where}.captured[{i}]", c) for i, c in enumerate(d.captured)]
    for place, cards in places:
        for k, cid in enumerate(cards):
            if cid not in by_id:
                raise InputError(
                    f"{place}[{k}]", f"unknown card {cid!r}; expected a card id of spec/deck.yaml such as 'm01-bright' or 'm03-junk-1'"
                )
            if cid not in wanted:
                raise InputError(f"{place}[{k}]", f"card {cid!r} is not in this ruleset's deck (bonus_cards = {list(options.bonus_cards)})")
            if cid in seen:
                raise InputError(f"{place}[{k}]", f"card {cid!r} appears twice (also in {seen[cid]})")
            seen[cid] = place
    missing = sorted(wanted - seen.keys(), key=lambda c: by_id[c].index)
    if missing:
        raise InputError(where, f"missing cards: {', '.join(missing)}; every card of the deck must be placed exactly once")
    months: dict[int, int] = {}
    for cid in d.table:
        m = by_id[cid].month
        if m:
            months[m] = months.get(m, 0) + 1
    for month, owner in d.stacks.items():
        if months.get(month) != 3:
            raise InputError(f"{where}.stacks.{month}", f"a stack needs exactly three cards of month {month} on the table")
        if owner is not None and not 0 <= owner < d.players:
            raise InputError(f"{where}.stacks.{month}", f"expected an owner seat from 0 to {d.players - 1} or null, got {owner}")
    # R-DUAL-ROLE (owner_one_way_to_junk): only a dual-role card its owner has captured can have
    # been moved to junk; scores count a moved card only while it is held
    for seat, state in enumerate(d.player_state or ()):
        pile = d.captured[seat] if d.captured is not None else ()
        for k, cid in enumerate(state.dual_junk):
            if cid not in options.dual_role_cards or cid not in pile:
                raise InputError(
                    f"{where}.players[{seat}].dual_junk[{k}]",
                    f"card {cid!r} must be a dual-role card (dual_role_cards = {sorted(options.dual_role_cards)}) "
                    f"in seat {seat}'s captured pile",
                )


def complete_deal(
    options: Options,
    hands: Sequence[Sequence[str]],
    table: Sequence[str],
    stock: Sequence[str],
    dealer: int = 0,
    captured: Sequence[Sequence[str]] | None = None,
    **extra: Any,
) -> Deal:
    """An explicit deal listing only the cards that matter (R-DEAL-SIZE does not apply to it):
    every card of the ruleset's deck not listed anywhere is appended to the bottom of the stock,
    in canonical index order."""
    listed = {c for group in (*hands, table, stock, *(captured or ())) for c in group}
    cards = deck().cards
    rest = [cards[i].id for i in deck_indices(options) if cards[i].id not in listed]
    return Deal(
        players=options.players,
        dealer=dealer,
        hands=tuple(tuple(h) for h in hands),
        table=tuple(table),
        stock=(*stock, *rest),
        captured=tuple(tuple(c) for c in captured) if captured is not None else None,
        **extra,
    )


def deal_from_json(raw: Mapping[str, Any], options: Options, where: str = "deal") -> Deal:
    """A Deal from its JSON form (protocol `new_game`, scenario files after completion); the
    shape is schema-checked by the caller, the cards here (R-DEAL-SIZE does not apply).

    `{"seed": N}` (optionally with `dealer`) asks for a seeded deal instead (R-SHUFFLE): without a
    dealer the first dealer is drawn first from the same generator (R-FIRST-DEALER)."""
    if "seed" in raw:
        return _seeded_from_json(raw, options, where)
    players_raw = raw.get("players")
    n = len(raw["hands"])
    states = None
    if isinstance(players_raw, list):
        states = tuple(
            # each value given its type (the schema has checked it): a JSON value is Any, which
            # mypy would let into any field
            PlayerState(
                gos=int(p.get("gos", 0)),
                go_base=int(p.get("go_base", 0)),
                first_go_turn=None if p.get("first_go_turn") is None else int(p["first_go_turn"]),
                shaken_months=tuple([int(m) for m in p.get("shaken_months", ())]),
                bombs=tuple([int(m) for m in p.get("bombs", ())]),
                skip_credits=int(p.get("skip_credits", 0)),
                ppeoks=int(p.get("ppeoks", 0)),
                dual_junk=tuple([str(c) for c in p.get("dual_junk", ())]),
            )
            for p in players_raw
        )
    captured = raw.get("captured")
    d = Deal(
        players=n,
        dealer=int(raw.get("dealer", 0)),
        hands=tuple(tuple(h) for h in raw["hands"]),
        table=tuple(raw.get("table", ())),
        stock=tuple(raw.get("stock", ())),
        captured=tuple(tuple(c) for c in captured) if captured is not None else None,
        stacks={int(s["month"]): s["owner"] for s in raw.get("stacks", ())},
        player_state=states,
        nagari_streak=int(raw.get("nagari_streak", 0)),
        carried_multiplier=int(raw.get("carried_multiplier", 1)),
        turn=int(raw.get("turn", 0)),
        first_player=raw.get("first_player"),
    )
    check_deal(d, options, where)
    return d


def complete_deal_json(raw: Mapping[str, Any], options: Options) -> dict[str, Any]:
    """The scenario completion rule: unlisted cards go to the bottom of the stock in canonical order."""
    listed = {c for group in (*raw["hands"], raw.get("table", ()), raw.get("stock", ()), *(raw.get("captured") or ())) for c in group}
    cards = deck().cards
    rest = [cards[i].id for i in deck_indices(options) if cards[i].id not in listed]
    out = normalized_deal_json(raw)
    out["stock"] = [*out["stock"], *rest]
    return out


def normalized_deal_json(raw: Mapping[str, Any]) -> dict[str, Any]:
    """The deal as sent to engines: `dealer`, `table` and `stock` always present, no `complete`."""
    out = {k: v for k, v in raw.items() if k != "complete"}
    out.setdefault("dealer", 0)
    out.setdefault("table", [])
    out.setdefault("stock", [])
    return out


#: the card ranks of the first-dealer draw when months tie (R-FIRST-DEALER)
KIND_RANK: Final = {"bright": 5, "animal": 4, "ribbon": 3, "double-junk": 2, "junk": 1}


def draw_first_dealer(o: Options, rng: SplitMix64) -> int:
    """R-FIRST-DEALER."""
    n = o.players
    if o.first_dealer == "seeded_random":
        return rng.below(n)
    cards = deck().cards
    seats = list(range(n))
    while True:  # after a full tie only the tied players draw again, from a fresh shuffle
        order = list(range(48))
        rng.shuffle(order)
        drawn = {seat: cards[order[k]] for k, seat in enumerate(seats)}
        sign = 1 if o.first_dealer == "draw_day_high" else -1
        keys = {seat: (sign * c.month, sign * KIND_RANK[c.kind]) for seat, c in drawn.items()}
        best = max(keys.values())
        seats = [seat for seat in seats if keys[seat] == best]
        if len(seats) == 1:
            return seats[0]


def _seeded_from_json(raw: Mapping[str, Any], options: Options, where: str) -> Deal:
    seed = raw["seed"]
    if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 1 << 64:
        raise InputError(f"{where}.seed", f"expected an integer from 0 to 2^64 - 1, got {seed!r}")
    rng = SplitMix64(seed)
    dealer = raw.get("dealer")
    if dealer is None:
        dealer = draw_first_dealer(options, rng)
    elif not isinstance(dealer, int) or not 0 <= dealer < options.players:
        raise InputError(f"{where}.dealer", f"expected a seat from 0 to {options.players - 1}, got {dealer!r}")
    d = seeded_deal(options, rng, dealer)
    return replace(
        d,
        nagari_streak=int(raw.get("nagari_streak", 0)),
        carried_multiplier=int(raw.get("carried_multiplier", 1)),
    )
