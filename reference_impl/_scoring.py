"""Scoring of a captured pile (R-SCORE-SUM, R-SCORE-BRIGHT, R-SCORE-ANIMAL, R-SCORE-GODORI,
R-SCORE-RIBBON, R-SCORE-DAN, R-SCORE-JUNK, R-DEC-RIBBON, R-DUAL-ROLE); the pile as `_tally` keeps
it, the point-count variant's in `_pointcount`."""

from __future__ import annotations

from collections.abc import Collection, Iterable
from itertools import combinations
from typing import Any, Final, NamedTuple

from gostop_conformance.reference._tally import ANIMAL_KIND, BIT, KIND, Tally
from gostop_conformance.spec import Card, Options, deck, memo


def _deck_cards() -> tuple[Card, ...]:
    # through a function: mypyc cannot type a module-level call into the spec's lazy API
    return deck().cards


_CARDS: Final = _deck_cards()


def _one_with_role(role: str) -> int:
    """The canonical index of the one card spec/deck.yaml gives `role`."""
    (index,) = [c.index for c in _CARDS if role in c.roles]
    return index


# The cards that scoring names, read from the deck's roles and ribbon classes (spec/deck.yaml),
# never written here as indices: the deck is the one source of card identity (R-CARD-IDS).
RAIN_BRIGHT: Final = _one_with_role("rain")  # R-SCORE-BRIGHT, R-GWANG-BAK
DEC_RIBBON: Final = _one_with_role("december-ribbon")  # R-DEC-RIBBON
GODORI: Final = frozenset(c.index for c in _CARDS if "godori" in c.roles)  # R-SCORE-GODORI
#: R-SCORE-DAN: the three ribbon sets, in the order the trace and the breakdown list them
DAN_SETS: Final = {name: frozenset(c.index for c in _CARDS if c.ribbon_class == name) for name in ("hong", "cheong", "cho")}
CHO_WITH_DEC: Final = DAN_SETS["cho"] | {DEC_RIBBON}  # R-DEC-RIBBON in_cho_set, four_red_bonus


class Breakdown(NamedTuple):
    """A player's base score by category (R-SCORE-SUM); `dual_as_junk` is the allocation used.
    An immutable value, built by keyword (mypy checks every field). `held` is the scored pile as a
    bit set over the canonical index."""

    brights: int
    bright_points: int
    animals: int
    animal_points: int
    godori_points: int
    ribbons: int
    ribbon_points: int
    dans: tuple[str, ...]
    dan_points: int
    junk_units: int
    junk_cards: int
    junk_points: int
    extra_points: int
    base: int
    winner_bonus: int
    dual_as_junk: tuple[str, ...]
    held: int = 0
    options: Options | None = None

    @property
    def clauses(self) -> tuple[str, ...]:
        """The rule-hit trace of this score (computed on demand: it is off the hot path)."""
        if self.options is None:
            return ()
        return _trace(
            self.held,
            self.brights,
            self.animals,
            self.ribbons,
            self.junk_units,
            self.options,
            self.dans,
            self.extra_points + self.winner_bonus,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "brights": self.brights,
            "bright_points": self.bright_points,
            "animals": self.animals,
            "animal_points": self.animal_points,
            "godori_points": self.godori_points,
            "ribbons": self.ribbons,
            "ribbon_points": self.ribbon_points,
            "dans": list(self.dans),
            "dan_points": self.dan_points,
            "junk_units": self.junk_units,
            "junk_cards": self.junk_cards,
            "junk_points": self.junk_points,
            "extra_points": self.extra_points,
            "base": self.base,
            "winner_bonus": self.winner_bonus,
            "dual_as_junk": list(self.dual_as_junk),
            "clauses": list(self.clauses),
        }


def _mask(indices: Iterable[int]) -> int:
    return sum(1 << i for i in set(indices))


_RAIN: Final = 1 << RAIN_BRIGHT
_DEC: Final = 1 << DEC_RIBBON
#: the dec_ribbon values under which the December ribbon is not a ribbon (R-DEC-RIBBON)
_DEC_NOT_RIBBON: Final = frozenset({"not_counted", "junk"})
_GODORI: Final = _mask(GODORI)
_DANS: Final = tuple((name, _mask(members)) for name, members in DAN_SETS.items())
_CHO: Final = _mask(DAN_SETS["cho"])
_CHO_WITH_DEC: Final = _mask(CHO_WITH_DEC)


def card_mask(cards: Iterable[int]) -> int:
    mask = 0
    for i in cards:
        mask |= BIT[i]
    return mask


def breakdown(pile: Collection[int], o: Options, as_junk: Collection[int] = ()) -> Breakdown:
    """Score `pile` with the dual-role cards in `as_junk` counted as double junk."""
    return tally_breakdown(Tally(pile), o, as_junk)


def tally_breakdown(t: Tally, o: Options, as_junk: Collection[int] = ()) -> Breakdown:
    """breakdown() of a tallied pile: `as_junk` are dual-role cards (animals) that count as double junk."""
    held = t.held
    # lists and loops rather than generators: compiled, a generator is an object of its own
    junk = [c for c in as_junk if held & BIT[c]]
    junk.sort()
    for c in junk:
        if KIND[c] != ANIMAL_KIND:
            raise ValueError(f"only dual-role animals can count as junk, got {[CARD_IDS[c] for c in junk]}")
    moved = len(junk)
    brights = t.brights
    animals = t.animals - moved
    ribbons = t.ribbons
    units = t.units + 2 * moved
    junk_cards = t.junk_cards + moved
    if held & _DEC and o.dec_ribbon in _DEC_NOT_RIBBON:  # R-DEC-RIBBON
        ribbons -= 1
        if o.dec_ribbon == "junk":
            units += 1
            junk_cards += 1
    bright_points = _bright_points(brights, bool(held & _RAIN), o)
    # R-SCORE-ANIMAL, R-SCORE-GODORI: the godori birds count only while they count as animals.
    animal_points = max(0, animals - o.animal_threshold + 1)
    godori_points = o.godori_points if held & _GODORI == _GODORI else 0
    extra_points = winner_bonus = 0
    if o.extra_yaku:  # R-EXTRA-YAKU
        godori_points, extra_points, winner_bonus = _extra_yaku(held, card_mask(junk), o, godori_points)
    # R-SCORE-RIBBON, R-SCORE-DAN, R-DEC-RIBBON
    ribbon_points = max(0, ribbons - o.ribbon_threshold + 1)
    dans = tuple([name for name, members in _DANS if held & members == members])
    if o.dec_ribbon == "in_cho_set" and "cho" not in dans and (held & _CHO_WITH_DEC).bit_count() >= 3:
        dans = (*dans, "cho")
    dan_points = o.dan_points * len(dans)
    if o.dec_ribbon == "four_red_bonus" and held & _CHO_WITH_DEC == _CHO_WITH_DEC:  # R-DEC-RIBBON, seed 003
        dan_points += 1
    # R-SCORE-JUNK
    junk_points = max(0, units - o.junk_threshold + 1)
    base = bright_points + animal_points + godori_points + ribbon_points + dan_points + junk_points + extra_points
    return Breakdown(
        brights=brights,
        bright_points=bright_points,
        animals=animals,
        animal_points=animal_points,
        godori_points=godori_points,
        ribbons=ribbons,
        ribbon_points=ribbon_points,
        dans=dans,
        dan_points=dan_points,
        junk_units=units,
        junk_cards=junk_cards,
        junk_points=junk_points,
        extra_points=extra_points,
        base=base,
        winner_bonus=winner_bonus,
        dual_as_junk=tuple([CARD_IDS[c] for c in junk]) if junk else (),
        held=held,
        options=o,
    )


def _indices(mask: int) -> list[int]:
    """The card indices of a bit set, in canonical order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


CARD_IDS: Final = tuple(c.id for c in _CARDS)


def _bright_points(brights: int, rain: bool, o: Options) -> int:
    """R-SCORE-BRIGHT: 3 (2 with the rain bright), 4 (wet or dry), 5 brights."""
    if brights == 5:
        return o.bright_5
    if brights == 4:
        return o.bright_4_wet if rain else o.bright_4_dry
    if brights == 3:
        return o.bright_3_rain if rain else o.bright_3
    return 0


def _trace(
    held: int, brights: int, animals: int, ribbons: int, units: int, o: Options, dans: tuple[str, ...], extra: int
) -> tuple[str, ...]:
    """The rule-hit trace of a score: the clauses whose categories the pile (a bit set) touches."""
    out = ["R-SCORE-SUM"]
    if brights:
        out.append("R-SCORE-BRIGHT")
    if animals:
        out.append("R-SCORE-ANIMAL")
    if held & _GODORI:
        out.append("R-SCORE-GODORI")
    if ribbons or held & _DEC:
        out.append("R-SCORE-RIBBON")
    if dans or any((members & held).bit_count() >= 2 for _, members in _DANS):
        out.append("R-SCORE-DAN")
    if held & _DEC:
        out.append("R-DEC-RIBBON")
    if units:
        out.append("R-SCORE-JUNK")
    if extra or (o.extra_yaku and held & (_GODORI | BIT[SWALLOW] | BIT[PHOENIX])):
        out.append("R-EXTRA-YAKU")
    if any(held & BIT[c] for c in dual_indices(o)):
        out.append("R-DUAL-ROLE")
    return tuple(out)


SWALLOW: Final = 45
PHOENIX: Final = 40
CUP: Final = 32
ALL_RIBBONS: Final = frozenset({1, 5, 9, 13, 17, 21, 25, 33, 37, 46})
THREE_SSANGPI_DOUBLES: Final = frozenset({41, 47})
PALSSARI: Final = frozenset({12, 13, 14, 15, 24, 25, 26, 27})
_YUKDORI: Final = _GODORI | BIT[SWALLOW]
_SIX_BIRDS: Final = _GODORI | BIT[PHOENIX]
_THREE_BIRDS_PHOENIX: Final = _mask((4, 12, PHOENIX))
_ALL_RIBBONS: Final = _mask(ALL_RIBBONS)
_THREE_SSANGPI_DOUBLES: Final = _mask(THREE_SSANGPI_DOUBLES)
_PALSSARI: Final = _mask(PALSSARI)


def _extra_yaku(held: int, as_junk: int, o: Options, birds: int) -> tuple[int, int, int]:
    """R-EXTRA-YAKU: (bird category points, extra base points, winner-only points); the pile and
    the dual cards counted as junk are bit sets."""
    extras = o.extra_yaku
    if "yukdori" in extras and held & _YUKDORI == _YUKDORI:
        birds = max(birds, 6)
    if "six_birds" in extras and held & _SIX_BIRDS == _SIX_BIRDS:
        birds = max(birds, 6)
    if "three_birds_phoenix" in extras and held & _THREE_BIRDS_PHOENIX == _THREE_BIRDS_PHOENIX:
        birds = max(birds, 4)
    extra = 15 if "all_ten_ribbons" in extras and held & _ALL_RIBBONS == _ALL_RIBBONS else 0
    bonus = 0
    if "three_ssangpi" in extras and as_junk & BIT[CUP] and held & _THREE_SSANGPI_DOUBLES == _THREE_SSANGPI_DOUBLES:
        bonus += 3
    if "palssari" in extras and held & _PALSSARI == _PALSSARI:
        bonus += 8
    return birds, extra, bonus


def tally_base(t: Tally, as_junk: int, o: Options) -> int:
    """The base score of a tallied pile with `as_junk` of its dual-role cards counted as double
    junk, from the counts alone: the hot path of Go/Stop eligibility (R-GO-THRESHOLD, R-GO-RISE).
    Not for rulesets with extra yaku (their scores need the full breakdown)."""
    held = t.held
    base = _bright_points(t.brights, bool(held & _RAIN), o)
    animals = t.animals - as_junk
    ribbons = t.ribbons
    units = t.units + 2 * as_junk
    if held & _DEC and o.dec_ribbon in _DEC_NOT_RIBBON:  # R-DEC-RIBBON
        ribbons -= 1
        if o.dec_ribbon == "junk":
            units += 1
    if animals >= o.animal_threshold:
        base += animals - o.animal_threshold + 1
    if ribbons >= o.ribbon_threshold:
        base += ribbons - o.ribbon_threshold + 1
    if units >= o.junk_threshold:
        base += units - o.junk_threshold + 1
    if animals >= 3 or ribbons >= 3:  # godori needs its three animals, a dan its three ribbons
        if held & _GODORI == _GODORI:
            base += o.godori_points
        dans = 0
        for _, members in _DANS:
            if held & members == members:
                dans += 1
        if o.dec_ribbon == "in_cho_set" and held & _CHO != _CHO and (held & _CHO_WITH_DEC).bit_count() >= 3:
            dans += 1
        base += o.dan_points * dans
        if o.dec_ribbon == "four_red_bonus" and held & _CHO_WITH_DEC == _CHO_WITH_DEC:
            base += 1
    return base


def best_base(pile: Collection[int], o: Options, moved: Collection[int] = ()) -> int:
    """The owner's base score under R-DUAL-ROLE (1), as `best_breakdown(...).base`."""
    return tally_best_base(Tally(pile), o, moved)


def tally_best_base(t: Tally, o: Options, moved: Collection[int] = ()) -> int:
    """best_base() of a tallied pile. Every dual-role card is an animal, so an allocation matters
    only by how many of them count as junk."""
    if o.extra_yaku:
        return best_breakdown(_indices(t.held), o, moved).base
    mode = o.dual_role_mode
    if mode == "fixed_animal":
        return tally_base(t, 0, o)
    held = t.held
    duals = 0
    for c in dual_indices(o):
        if held & BIT[c]:
            duals += 1
    if mode == "fixed_double_junk":
        return tally_base(t, duals, o)
    if mode == "owner_one_way_to_junk":
        return tally_base(t, sum(1 for c in dual_indices(o) if held & BIT[c] and c in moved), o)
    best = tally_base(t, 0, o)  # auto_best: the best of every allocation (ties do not matter for the base)
    for as_junk in range(1, duals + 1):
        best = max(best, tally_base(t, as_junk, o))
    return best


_DUAL_INDICES: Final[dict[frozenset[str], tuple[int, ...]]] = memo({})


def dual_indices(o: Options) -> tuple[int, ...]:
    """The ruleset's dual-role cards (R-DUAL-ROLE) by canonical index (a dict, not functools.cache:
    compiled code looks a dict up directly)."""
    found = _DUAL_INDICES.get(o.dual_role_cards)
    if found is None:
        by_id = deck().by_id
        found = _DUAL_INDICES[o.dual_role_cards] = tuple(sorted(by_id[c].index for c in o.dual_role_cards))
    return found


def dual_cards_in(pile: Collection[int], o: Options) -> list[int]:
    """The ruleset's dual-role cards in `pile`, by index (the ruleset has one or two: they are
    looked for in the pile, not the pile's cards among them)."""
    return [c for c in dual_indices(o) if c in pile]


def duals_held(held: int, o: Options) -> list[int]:
    """dual_cards_in() of a pile given as a bit set (a tally's `held`)."""
    return [c for c in dual_indices(o) if held & BIT[c]]


_ALLOCATIONS: Final[dict[tuple[int, ...], list[frozenset[int]]]] = memo({})


def allocations(dual: list[int]) -> list[frozenset[int]]:
    """Every dual-role allocation in tie-break order (R-DUAL-ROLE): more animals first, then the
    lower-index card kept as the animal. Built once per set of dual cards (a ruleset has one or
    two); the caller gets a list of its own."""
    key = tuple(dual)
    found = _ALLOCATIONS.get(key)
    if found is None:
        found = _ALLOCATIONS[key] = [frozenset(combo) for size in range(len(dual) + 1) for combo in combinations(dual[::-1], size)]
    return found[:]


def fixed_allocation(pile: Collection[int], o: Options, moved: Collection[int]) -> frozenset[int] | None:
    """The allocation when the mode fixes it; None under auto_best (R-DUAL-ROLE)."""
    mode = o.dual_role_mode
    if mode == "auto_best":
        return None
    if mode == "fixed_animal":
        return frozenset()
    duals = dual_cards_in(pile, o)
    if mode == "fixed_double_junk":
        return frozenset(duals)
    return frozenset(i for i in duals if i in moved)


def best_breakdown(pile: Collection[int], o: Options, moved: Collection[int] = ()) -> Breakdown:
    """The owner's score for Go/Stop eligibility and display: the best allocation (R-DUAL-ROLE (1))."""
    fixed = fixed_allocation(pile, o, moved)
    if fixed is not None:
        return breakdown(pile, o, fixed)
    best: Breakdown | None = None
    for alloc in allocations(dual_cards_in(pile, o)):
        b = breakdown(pile, o, alloc)
        if best is None or b.base > best.base:
            best = b
    assert best is not None
    return best
