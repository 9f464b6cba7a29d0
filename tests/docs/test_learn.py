"""The learn-to-play page and the glossary page (docs/_build/docsgen/learn.py, glossary.py).

- Every lesson holds: its scenario exists, passes on the reference engine, and shows what the lesson
  says, by the scenario's own expectations and by the engine's run.
- The checks can fail: a lesson that names a missing scenario, claims an event, a capture, a table
  card, a decision, a score or a settlement the scenario does not show, is reported, and the page
  is not generated (the build fails).
- The glossary page has a section per term whose heading carries its hangul, romanisation and
  English, and every clause section of the rules pages lists the terms that cite it.
"""

from __future__ import annotations

import dataclasses
import sys
from pathlib import Path

import pytest

from gostop_conformance.spec import glossary

BUILD = Path(__file__).resolve().parents[2] / "docs" / "_build"
if str(BUILD) not in sys.path:
    sys.path.insert(0, str(BUILD))

from docsgen import glossary as glossary_page  # noqa: E402
from docsgen import learn  # noqa: E402
from docsgen.model import Model  # noqa: E402


@pytest.fixture(scope="module")
def model() -> Model:
    return Model()


def lesson(anchor: str) -> learn.Lesson:
    return next(x for x in learn.LESSONS if x.anchor == anchor)


def test_every_lesson_holds(model: Model) -> None:
    assert {x.anchor for x in learn.LESSONS} >= {"deal", "match", "flip", "jjok", "scoring", "go-stop", "settlement"}
    for x in learn.LESSONS:
        assert learn.check(model, x) == [], x.anchor


def claim(anchor: str, **changes: object) -> learn.Lesson:
    x = lesson(anchor)
    return dataclasses.replace(x, shows=dataclasses.replace(x.shows, **changes))


@pytest.mark.parametrize(
    ("changed", "problem"),
    [
        (dataclasses.replace(lesson("jjok"), scenario="no-such-scenario"), "is not in the corpus"),
        (dataclasses.replace(lesson("jjok"), step=5), "has no step 5"),
        (claim("jjok", events=("ttadak",)), "does not list a ttadak event"),
        (claim("ppeok", absent=("ppeok",)), "does not exclude a ppeok event"),
        (claim("match", captures=("m02-junk-1",)), "does not put m02-junk-1 in P0's pile"),
        (claim("flip", stays=("m03-junk-1",)), "does not leave m03-junk-1 on the table"),
        (claim("match", decision="go_stop"), "decision is 'turn', not 'go_stop'"),
        (claim("deal", deal=(10, 8, 20)), "its deal is not 10 cards a hand"),
        (claim("scoring", scores={"base": 4}), "does not give P0 base 4"),
        (claim("settlement", settlement={"points": 4}), "expected settlement has points 3, not 4"),
        (claim("bak", baks=((2, "pi_bak"),)), "does not make P2 pi_bak"),
    ],
)
def test_a_lesson_the_corpus_no_longer_shows_is_reported(model: Model, changed: learn.Lesson, problem: str) -> None:
    problems = learn.check(model, changed)
    assert any(problem in p for p in problems), problems


def test_the_page_is_not_made_when_a_lesson_fails(model: Model, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(learn, "LESSONS", (*learn.LESSONS, claim("sweep", table_empty=False, stays=("m05-junk-1",))))
    with pytest.raises(learn.LessonError, match=r"lesson 'sweep', scenario 'events-sweep-table-emptied': its expectation does not leave"):
        learn.learn_page(model)


def test_an_unknown_term_or_claim_in_the_text_fails(model: Model, monkeypatch: pytest.MonkeyPatch) -> None:
    deal, jjok = lesson("deal"), lesson("jjok")
    monkeypatch.setattr(learn, "LESSONS", (dataclasses.replace(deal, text="{t:nosuchterm}"),))
    with pytest.raises(learn.LessonError, match="unknown glossary term 'nosuchterm'"):
        learn.learn_page(model)
    monkeypatch.setattr(learn, "LESSONS", (dataclasses.replace(jjok, text="{score:base}"),))
    with pytest.raises(learn.LessonError, match="names nothing its lesson claims"):
        learn.learn_page(model)


def test_the_glossary_page_has_every_term_in_three_forms(model: Model) -> None:
    page = glossary_page.glossary_page(model)
    for t in glossary().terms:
        assert f"### {glossary_page.heading_text(model, t)} {{#{t.id}}}" in page
        heading = glossary_page.heading_text(model, t)
        assert t.hangul in heading and t.romanisation in heading and t.english.split(" (")[0] in heading


def test_the_rules_pages_list_the_terms_of_each_clause(model: Model) -> None:
    from docsgen.links import Ctx

    ctx = Ctx("rules/events.md", model)
    line = glossary_page.terms_of_clause(model, ctx, "R-JJOK")
    assert "쪽 jjok" in line and "../glossary.md#jjok" in line
