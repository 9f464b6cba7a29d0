"""spec/glossary.yaml (spec/_glossary.py): the Korean terms, checked against the spec.

- Every term the issue tracker asked for is there, each in hangul, romanisation and English, with
  clauses that exist; every Korean word the rules and options prose uses is a term or another
  name of one (the glossary cannot fall behind the prose).
- A month's name is the one of spec/deck.yaml.
- A bad file is refused with its file, line and what is wrong.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gostop_conformance.spec import InputError, clauses, deck, glossary, load_spec_file, load_yaml_text, spec_dir, validate
from gostop_conformance.spec._glossary import from_located

HANGUL = re.compile(r"[\uac00-\ud7a3]+")


def test_the_terms_a_player_meets_are_there() -> None:
    by_hangul = {t.hangul: t for t in glossary().terms}
    wanted = {
        "피": "pi", "광": "gwang", "쪽": "jjok", "뻑": "ppeok", "따닥": "ttadak", "쓸": "sseul",
        "흔들기": "heundeulgi", "폭탄": "poktan", "총통": "chongtong", "나가리": "nagari", "고박": "go-bak",
        "피박": "pi-bak", "광박": "gwang-bak", "멍박": "meong-bak", "고": "go", "스톱": "seutop",
        "열끗": "yeolkkeut", "띠": "tti", "홍단": "hongdan", "청단": "cheongdan", "초단": "chodan", "고도리": "godori",
    }  # fmt: skip
    for hangul, roman in wanted.items():
        assert hangul in by_hangul, f"{hangul} is missing"
        assert by_hangul[hangul].romanisation == roman
        assert by_hangul[hangul].english
    assert by_hangul["피"].english == "junk" and by_hangul["광"].english == "bright" and by_hangul["쓸"].english == "sweep"


def test_every_term_cites_existing_clauses_and_cards() -> None:
    known = clauses()
    for t in glossary().terms:
        assert t.clauses and all(c in known for c in t.clauses), t.id
        assert all(c in deck().by_id for c in t.cards), t.id


def test_every_korean_word_of_the_prose_is_in_the_glossary() -> None:
    g = glossary()
    named = {t.hangul for t in g.terms} | {w for t in g.terms for text in (*t.also, t.meaning) for w in HANGUL.findall(text)}
    files = [*sorted((spec_dir() / "rules").glob("*.yaml")), spec_dir() / "options.yaml"]
    missing = sorted({(w, p.name) for p in files for w in HANGUL.findall(p.read_text(encoding="utf-8")) if w not in named})
    assert not missing, f"Korean words of the spec prose that the glossary does not name: {missing}"


def test_month_names_come_from_the_deck() -> None:
    months = {int(m["month"]): m for m in load_spec_file("deck.yaml", "deck").data["months"]}
    terms = [t for t in glossary().terms if t.month is not None]
    assert sorted(t.month for t in terms if t.month) == list(range(1, 13))
    for t in terms:
        assert t.month is not None
        assert (t.hangul, t.english) == (months[t.month]["korean"], months[t.month]["name"])


GOOD = """\
schema_version: 1
groups: {cards: "Kinds of cards"}
terms:
  - {id: pi, group: cards, hangul: 피, romanisation: pi, english: junk, meaning: "Junk.", clauses: [R-SCORE-JUNK]}
"""


def load(text: str) -> object:
    located = load_yaml_text(text, "g.yaml")
    validate(located, "glossary")
    return from_located(located)


def test_a_small_good_file_loads() -> None:
    g = load(GOOD)
    assert [t.id for t in g.terms] == ["pi"]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("R-SCORE-JUNK]", "R-NO-SUCH]"), r"g.yaml:4 at terms\[0\]\.clauses\[0\]: unknown clause id 'R-NO-SUCH'"),
        (("[R-SCORE-JUNK]}", "[R-SCORE-JUNK], cards: [m13-junk]}"), r"g.yaml:4 at terms\[0\]\.cards\[0\]: unknown card id 'm13-junk'"),
        (("group: cards, hangul", "group: other, hangul"), r"g.yaml:4 at terms\[0\]\.group: unknown group 'other'"),
        (("english: junk,", "english: junk, month: 3,"), r"g.yaml:4 at terms\[0\]\.hangul: a month's term takes its hangul from spec/deck"),
        (("hangul: 피, ", ""), r"g.yaml:4 at terms\[0\]: the term 'pi' needs 'hangul' \(or 'month'"),
        (("romanisation: pi,", "romanisation: Pi!,"), r"g.yaml:4 at terms\[0\]\.romanisation: 'Pi!' does not match"),
    ],
)
def test_a_bad_file_is_refused_with_its_line(change: tuple[str, str], message: str) -> None:
    with pytest.raises(InputError, match=message):
        load(GOOD.replace(*change))


def test_a_duplicate_hangul_is_refused() -> None:
    twice = GOOD + '  - {id: pi2, group: cards, hangul: 피, romanisation: ppi, english: junk, meaning: "Again.", clauses: [R-STEAL]}\n'
    with pytest.raises(InputError, match=r"g.yaml:5 at terms\[1\]\.hangul: 피 is already the term 'pi'"):
        load(twice)


def test_the_shipped_file_is_valid() -> None:
    assert Path(spec_dir() / "glossary.yaml").is_file()
    assert len(glossary().terms) >= 40
