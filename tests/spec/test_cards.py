"""R-DECK, R-CARD-IDS: the deck composition is what every source agrees on (rules-matrix §2.1)."""

from collections import Counter

from gostop_conformance.spec import deck


def test_forty_eight_cards_four_per_month() -> None:
    cards = deck().cards[:48]
    assert Counter(c.month for c in cards) == {m: 4 for m in range(1, 13)}


def test_composition() -> None:
    kinds = Counter(c.kind for c in deck().cards[:48])
    assert kinds == {"bright": 5, "animal": 9, "ribbon": 10, "junk": 22, "double-junk": 2}
    assert sum(c.units for c in deck().cards[:48]) == 26


def test_canonical_index_is_month_major() -> None:
    cards = deck().cards
    assert [c.index for c in cards] == list(range(len(cards)))
    assert cards[0].id == "m01-bright" and cards[47].id == "m12-double-junk"
    assert deck().card("m11-double-junk").index == 41
    assert all(cards[i].month <= cards[i + 1].month for i in range(47))


def test_roles() -> None:
    godori = sorted(c.id for c in deck().cards if "godori" in c.roles)
    assert godori == ["m02-animal", "m04-animal", "m08-animal"]
    assert "rain" in deck().card("m12-bright").roles
    assert deck().card("m12-ribbon").ribbon_class == "none"


def test_extra_cards_have_no_month() -> None:
    extras = deck().cards[48:]
    assert {c.id for c in extras} == {"bonus-2a", "bonus-2b", "bonus-2c", "bonus-3"}
    assert all(c.month == 0 and c.is_bonus and c.is_junk for c in extras)
