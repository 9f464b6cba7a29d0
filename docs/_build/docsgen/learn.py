"""The first page for players, "Learn to play in five minutes", generated from corpus scenarios.

Each lesson names a scenario by id and a step of it, and says in `Shows` what that step shows (the
events, the cards captured, the cards left on the table, the decision, the settlement). The page
pictures the step from the reference engine's run of the scenario (model.Run), and the build fails
(`LessonError`) when the scenario is gone, no longer passes on the reference engine, or no longer
shows what the lesson says: every claim is checked both against the scenario's own expectations
(so that the suite checks it on every engine) and against the reference engine's run. The numbers
the prose quotes (cards dealt, points, payments) are the claims themselves, or the ruleset's option
values (the scoring table); none is typed twice.

Text placeholders: `{t:ID}` a glossary term (spec/glossary.yaml), `{c:R-ID}` a clause, `{o:NAME}` a
value of the lesson's ruleset, `{deal:hand}`/`{deal:table}`/`{deal:stock}` the claimed deal sizes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from docsgen.cards import MONTH_NAMES
from docsgen.examples import by_index, seat, sort_cards
from docsgen.links import Ctx, esc, md_escape
from docsgen.model import Frame, Model, Run
from gostop_conformance.spec import counted

SRC = "learn.md"
Json = dict[str, Any]


class LessonError(ValueError):
    """The page says something a scenario no longer shows (or the scenario is gone)."""


@dataclass(frozen=True)
class Shows:
    """What a lesson says its scenario step shows; every field left empty claims nothing."""

    events: tuple[str, ...] = ()  # event kinds the step produces (the scenario expects them)
    absent: tuple[str, ...] = ()  # event kinds the scenario expects not to happen
    actor: int = 0  # the player whose captures `captures` are
    captures: tuple[str, ...] = ()  # cards that join the actor's pile in this step
    stays: tuple[str, ...] = ()  # cards on the table after the step
    table_empty: bool = False
    decision: str | None = None  # the decision kind after the step (go_stop, turn, none)
    deal: tuple[int, int, int] | None = None  # (hand, table, stock) sizes after a seeded deal
    scores: Json = field(default_factory=dict)  # the actor's score fields after the step
    settlement: Json = field(default_factory=dict)  # fields of the settlement the step ends with
    baks: tuple[tuple[int, str], ...] = ()  # (loser seat, bak) pairs of that settlement


@dataclass(frozen=True)
class Lesson:
    anchor: str
    title: str
    text: str
    scenario: str
    step: int  # 0: the deal; k: after the k-th step
    shows: Shows
    caption: str = ""
    view: str = "step"  # step: the play and its captures; pile: the actor's pile and score; settle: every pile and the settlement


RULESET = "standard-3p"  # the scoring table and the thresholds quoted are this ruleset's

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "deal",
        "The deal",
        "With three players, each player is dealt {deal:hand} cards, {deal:table} are laid face up on the table, and "
        "the other {deal:stock} form the stock, face down. The dealer ({t:seon}) plays first; play then passes "
        "to the right ({c:R-DEAL-SIZE}, {c:R-TURN-ORDER}). Two players (Matgo, {t:matgo}) are dealt more cards each.",
        "shuffle-three-players-wp",
        0,
        Shows(events=("deal",), deal=(7, 6, 21)),
        "A seeded deal of the standard three-player ruleset: every engine must deal exactly these cards from seed 7.",
    ),
    Lesson(
        "match",
        "Your turn: play a card and take its match",
        "On your turn, play one card from your hand. If a table card has the same month, your card takes it: "
        "both go to your captured pile, face up in front of you. Then turn up the top card of the stock: it "
        "too takes a table card of its month if there is one, or stays on the table ({c:R-MATCH}, {c:R-FLIP}).",
        "capture-match-t1-f-other",
        1,
        Shows(absent=("ppeok", "jjok", "steal"), captures=("m01-ribbon", "m01-junk-1"), stays=("m05-junk-1",)),
    ),
    Lesson(
        "flip",
        "No match? The card stays, and the flip may still score",
        "A card that matches nothing is laid on the table, where a later card of its month can take it. "
        "The card you turn up from the stock is played on its own: here it finds its month on the table "
        "and takes it, while your card stays ({c:R-FLIP}).",
        "capture-match-t0-f-pairs-other-month",
        1,
        Shows(absent=("jjok",), captures=("m03-ribbon", "m03-junk-1"), stays=("m04-junk-1",)),
    ),
    Lesson(
        "jjok",
        "Jjok: the flip takes the card you just laid",
        "Your card found nothing, and the card you turn up is of the same month: you take both. That is a "
        "{t:jjok} (kiss), and each opponent pays you one junk card from their pile: a steal ({c:R-JJOK}, {c:R-STEAL}).",
        "capture-match-t0-jjok-3p",
        1,
        Shows(events=("jjok", "steal"), captures=("m09-junk-1", "m09-junk-2", "m04-junk-1", "m05-junk-1")),
    ),
    Lesson(
        "ppeok",
        "Ppeok: three of a month stay stuck",
        "Your card takes its match, but the card you turn up is of that month too: you take nothing. The three "
        "cards stay on the table as a locked stack, a {t:ppeok}, until the fourth card of the month takes all "
        "four, with a steal ({c:R-PPEOK}, {c:R-STACK-CAPTURE}).",
        "capture-match-t1-f-same-ppeok",
        1,
        Shows(events=("ppeok",), absent=("capture", "steal"), stays=("m01-ribbon", "m01-junk-1", "m01-junk-2")),
    ),
    Lesson(
        "ttadak",
        "Ttadak: all four at once",
        "Two cards of your card's month lie on the table and the card you turn up is the fourth: you take all "
        "four, a {t:ttadak}, and each opponent pays you a junk card ({c:R-TTADAK}).",
        "events-ttadak-basic",
        1,
        Shows(events=("ttadak", "steal"), captures=("m06-ribbon", "m06-junk-1", "m06-junk-2", "m06-animal")),
    ),
    Lesson(
        "sweep",
        "Sweep: clear the table",
        "If your turn leaves the table empty, that is a sweep, {t:sseul}: each opponent pays you a junk card ({c:R-SWEEP}).",
        "events-sweep-table-emptied",
        1,
        Shows(events=("sweep", "steal"), captures=("m05-junk-2", "m05-junk-1", "m08-junk-2", "m08-junk-1"), table_empty=True),
    ),
    Lesson(
        "scoring",
        "Scoring: what your pile is worth",
        "Points come from the kinds of cards you captured, by the table above. Here three brights including the "
        "rain bright ({t:bigwang}) make {score:bright_points}, and ten junk units make {score:junk_points}: "
        "a score of {score:base} ({c:R-SCORE-SUM}).",
        "go-stop-threshold-3p-reached-by-capture",
        1,
        Shows(captures=("m05-junk-1", "m05-junk-2"), scores={"bright_points": 2, "junk_points": 1, "base": 3}),
    ),
    Lesson(
        "go-stop",
        "Go or Stop",
        "When your turn ends with a score of at least {o:go_threshold} (three players; 7 with two), you must "
        "choose. {t:seutop}: the round ends and you are paid. {t:go}: play goes on for a bigger win (each Go adds a "
        "point, and from the third one the payment doubles), but if someone else then stops, you pay for "
        "everyone: {t:gobak} ({c:R-GO-WHEN}, {c:R-GO-BONUS}, {c:R-GO-BAK}). The turn above ends with the choice:",
        "go-stop-threshold-3p-reached-by-capture",
        1,
        Shows(decision="go_stop"),
        view="pile",
    ),
    Lesson(
        "settlement",
        "Settlement: who pays whom",
        "After a Stop, each loser pays the winner the winner's points: here {settlement:points} from each of the "
        "two losers ({c:R-SETTLE}).",
        "settlement-formula-plain-stop-zero-sum",
        2,
        Shows(settlement={"kind": "stop", "points": 3, "net": [6, -3, -3]}),
        view="settle",
    ),
    Lesson(
        "bak",
        "Penalties: a loser may pay double",
        "A loser pays double when the winner scored with brights and the loser holds none ({t:gwangbak}), with "
        "junk and the loser holds too little ({t:pibak}), or, in some rulesets, with animals and the loser holds "
        "none ({t:meongbak}). Here the loser without a bright pays twice the points ({c:R-GWANG-BAK}):",
        "settlement-gwang-bak-loser-without-bright",
        2,
        Shows(settlement={"kind": "stop", "points": 3, "net": [9, -6, -3]}, baks=((1, "gwang_bak"),)),
        view="settle",
    ),
    Lesson(
        "nagari",
        "Nobody stopped? A void round",
        "If the cards run out and nobody called Stop, the round is void, {t:nagari}: nobody pays, the same "
        "dealer deals again, and the next decided round pays more ({c:R-NAGARI}, {c:R-NAGARI-CARRY}).",
        "round-end-hands-exhausted-nagari",
        3,
        Shows(settlement={"kind": "nagari", "net": [0, 0, 0]}),
        view="settle",
    ),
)


# ------------------------------------------------------------------------------ the checks


def _kinds(expect_events: Any) -> tuple[set[str], set[str]]:
    """(kinds the expectation says happen, kinds it says do not) from an `events` expectation."""
    if not isinstance(expect_events, dict):
        return set(), set()
    happen = {str(e.get("kind")) for key in ("contains", "in_order", "exact") for e in expect_events.get(key, []) or []}
    return happen, {str(k) for k in expect_events.get("absent", []) or []}


def _frames(run: Run) -> list[Frame]:
    return list(run.rounds[0].frames) if run.rounds else []


def check(m: Model, lesson: Lesson) -> list[str]:
    """What the lesson says and the scenario no longer shows (empty: the lesson holds)."""
    sc = next((s for s in m.corpus if s.id == lesson.scenario), None)
    if sc is None:
        return [f"scenario {lesson.scenario!r} is not in the corpus"]
    run = m.runs[sc.id]
    problems = []
    if run.result.outcome != "PASS":
        problems.append(f"the reference engine does not pass it ({run.result.outcome})")
    frames = _frames(run)
    spec_round = sc.rounds[0]
    if lesson.step > len(spec_round.steps) or lesson.step >= len(frames):
        return [*problems, f"it has no step {lesson.step}"]
    expect: Json = (spec_round.after_deal if lesson.step == 0 else spec_round.steps[lesson.step - 1].expect) or {}
    frame, before = frames[lesson.step], frames[lesson.step - 1] if lesson.step else None
    s = lesson.shows
    happen, absent = _kinds(expect.get("events"))
    got = {str(e.get("kind")) for e in frame.events}
    for kind in s.events:
        if kind not in happen:
            problems.append(f"its expectation does not list a {kind} event")
        if kind not in got:
            problems.append(f"the reference engine reports no {kind} event")
    for kind in s.absent:
        if kind not in absent:
            problems.append(f"its expectation does not exclude a {kind} event")
        if kind in got:
            problems.append(f"the reference engine reports a {kind} event")
    state = frame.state or {}
    if s.captures:
        piles = expect.get("captured") or []
        pile = piles[s.actor] if s.actor < len(piles) and piles[s.actor] is not None else None
        old = set(((before.state or {}).get("captured") or [[]] * (s.actor + 1))[s.actor]) if before else set()
        new = set((state.get("captured") or [[]] * (s.actor + 1))[s.actor]) - old
        for card in s.captures:
            if pile is None or card not in pile:
                problems.append(f"its expectation does not put {card} in {seat(s.actor)}'s pile")
            if card not in new:
                problems.append(f"{card} does not join {seat(s.actor)}'s pile in this step")
    if s.stays or s.table_empty:
        table = expect.get("table")
        if table is None:
            problems.append("its expectation does not check the table")
        for card in s.stays:
            if table is not None and card not in table:
                problems.append(f"its expectation does not leave {card} on the table")
            if card not in (state.get("table") or []):
                problems.append(f"{card} is not on the table after the step")
        if s.table_empty and (table != [] or state.get("table")):
            problems.append("the table is not empty after the step")
    if s.decision is not None:
        kind = (expect.get("decision") or {}).get("kind")
        if kind != s.decision:
            problems.append(f"its expectation's decision is {kind!r}, not {s.decision!r}")
        if state.get("decision") != s.decision:
            problems.append(f"the reference engine's decision is {state.get('decision')!r}, not {s.decision!r}")
    if s.deal is not None:
        hands, table, stock = expect.get("hands") or [], expect.get("table") or [], expect.get("stock_count")
        if {len(h) for h in hands} != {s.deal[0]} or len(table) != s.deal[1] or stock != s.deal[2]:
            problems.append(f"its deal is not {s.deal[0]} cards a hand, {s.deal[1]} on the table and {s.deal[2]} in the stock")
        if [len(h) for h in state.get("hands") or []] != [len(h) for h in hands] or len(state.get("stock") or []) != s.deal[2]:
            problems.append("the reference engine deals other sizes")
    if s.scores:
        mine = ((expect.get("scores") or [{}]) + [{}] * s.actor)[s.actor] or {}
        engine = (frame.scores or [{}] * (s.actor + 1))[s.actor]
        for key, value in s.scores.items():
            if mine.get(key) != value:
                problems.append(f"its expectation does not give {seat(s.actor)} {key} {value}")
            if engine.get(key) != value:
                problems.append(f"the reference engine gives {seat(s.actor)} {key} {engine.get(key)}, not {value}")
    if s.settlement or s.baks:
        st = expect.get("settlement") or {}
        final = (run.rounds[0].final or {}).get("settlement") or {}
        for key, value in s.settlement.items():
            if st.get(key) != value:
                problems.append(f"its expected settlement has {key} {st.get(key)!r}, not {value!r}")
            if final.get(key) != value:
                problems.append(f"the reference engine settles {key} {final.get(key)!r}, not {value!r}")
        for loser, bak in s.baks:
            for name, settled in (("its expected settlement", st), ("the reference engine's settlement", final)):
                baks = [x.get("baks", []) for x in settled.get("losers", []) if x.get("seat") == loser]
                if not baks or bak not in baks[0]:
                    problems.append(f"{name} does not make {seat(loser)} {bak}")
    return problems


def check_all(m: Model) -> None:
    problems = [f"{SRC} lesson {lesson.anchor!r}, scenario {lesson.scenario!r}: {p}" for lesson in LESSONS for p in check(m, lesson)]
    if problems:
        raise LessonError("the learn-to-play page no longer matches the corpus:\n  " + "\n  ".join(problems))


# ------------------------------------------------------------------------------ the page

PLACEHOLDER = re.compile(r"\{(t|c|o|deal|score|settlement):([A-Za-z0-9_-]+)\}")


def fill(ctx: Ctx, lesson: Lesson | None, text: str) -> str:
    values = ctx.m.rulesets[RULESET].options.as_json()

    def repl(match: re.Match[str]) -> str:
        kind, key = match.group(1), match.group(2)
        if kind == "t":
            term = next((t for t in ctx.m.glossary.terms if t.id == key), None)
            if term is None:
                raise LessonError(f"{SRC}: unknown glossary term {key!r}")
            return f"[{term.hangul} *{term.romanisation}*]({ctx.md('glossary.md', term.id)})"
        if kind == "c":
            if key not in ctx.m.clauses:
                raise LessonError(f"{SRC}: unknown clause {key!r}")
            return ctx.clause_md(key)
        if kind == "o":
            return str(values[key])
        shows = lesson.shows if lesson else Shows()
        if kind == "deal" and shows.deal is not None:
            return str(shows.deal[("hand", "table", "stock").index(key)])
        if kind == "score" and key in shows.scores:
            return str(shows.scores[key])
        if kind == "settlement" and key in shows.settlement:
            return str(shows.settlement[key])
        raise LessonError(f"{SRC}: {match.group(0)} names nothing its lesson claims")

    return PLACEHOLDER.sub(repl, text)


def _cards(ctx: Ctx, ids: Any, size: str = "l", new: frozenset[str] = frozenset()) -> str:
    if not ids:
        return '<span class="gs-none">none</span>'
    out = []
    for cid in ids:
        img = ctx.card(cid, size)
        out.append(img.replace('class="gs-card ', 'class="gs-card gs-new ', 1) if cid in new else img)
    return '<span class="gs-cards">' + "".join(out) + "</span>"


def _back(ctx: Ctx, count: int) -> str:
    return (
        f'<span class="gs-stock"><img class="gs-card gs-card-l" src="{ctx.href("cards/back.svg")}" width="64" height="102" '
        f'alt="the stock, face down" title="the stock: {counted(count, "card")} face down">'
        f'<span class="gs-mini">{counted(count, "card")}</span></span>'
    )


def _row(label: str, body: str, cls: str = "") -> str:
    return f'<div class="gs-lrow{(" " + cls) if cls else ""}"><span class="gs-lab">{label}</span>{body}</div>'


def _table(ctx: Ctx, state: Json, new: frozenset[str] = frozenset()) -> str:
    table = by_index(ctx, state.get("table") or [])
    stacks = {int(s["month"]) for s in state.get("stacks") or []}
    singles = [c for c in table if ctx.m.deck.by_id[c].month not in stacks]
    parts = [_cards(ctx, singles, "l", new)] if singles or not stacks else []
    for month in sorted(stacks):
        stack = [c for c in table if ctx.m.deck.by_id[c].month == month]
        parts.append(f'<span class="gs-stack" title="a locked stack of {MONTH_NAMES[month]}">{_cards(ctx, stack, "l", new)}</span>')
    return "".join(parts)


def deal_scene(ctx: Ctx, run: Run) -> str:
    state = _frames(run)[0].state or {}
    rows = []
    for i, hand in enumerate(state.get("hands") or []):
        dealer = " (dealer)" if state.get("dealer") == i else ""
        rows.append(_row(f"{seat(i)}{dealer}", _cards(ctx, by_index(ctx, hand), "m")))
    rows.append(_row("Table", _table(ctx, state)))
    rows.append(_row("Stock", _back(ctx, len(state.get("stock") or []))))
    return "".join(rows)


SCORE_PARTS = (
    ("bright_points", "brights"),
    ("animal_points", "animals"),
    ("godori_points", "godori"),
    ("ribbon_points", "ribbons"),
    ("dan_points", "ribbon trios"),
    ("junk_points", "junk"),
)


def _score(scores: Json) -> str:
    parts = " + ".join(f"{label} {scores[key]}" for key, label in SCORE_PARTS if scores.get(key))
    return f"<b>{esc(scores.get('base'))}</b> points" + (f' <span class="gs-mini">({esc(parts)})</span>' if parts else "")


def _pile(ctx: Ctx, state: Json, who: int) -> str:
    return _cards(ctx, sort_cards(ctx, (state.get("captured") or [[]] * (who + 1))[who]), "m")


def step_scene(ctx: Ctx, run: Run, lesson: Lesson) -> str:
    frames = _frames(run)
    frame = frames[lesson.step]
    before, after = frames[lesson.step - 1].state or {}, frame.state or {}
    act = frame.act or {}
    who = int(act.get("player", lesson.shows.actor))
    rows = []
    if lesson.view == "step":
        hand = by_index(ctx, (before.get("hands") or [[]] * (who + 1))[who])
        rows += [_row("Table", _table(ctx, before)), _row(f"{seat(who)}'s hand", _cards(ctx, hand, "l" if len(hand) <= 4 else "m"))]
        flips = [c for e in frame.events if e.get("kind") == "flip" for c in e.get("cards", [])]
        body = _cards(ctx, [act["card"]])
        if flips:
            body += '<span class="gs-then">then turns up</span>' + _cards(ctx, flips)
        rows.append(_row(f"{seat(who)} plays", body, "gs-lact"))
        stolen = {c for e in frame.events if e.get("kind") == "steal" for c in e.get("cards") or []}
        old = set((before.get("captured") or [[]] * (who + 1))[who])
        taken = [c for c in (after.get("captured") or [[]] * (who + 1))[who] if c not in old and c not in stolen]
        if taken:
            rows.append(_row(f"{seat(who)} takes", _cards(ctx, sort_cards(ctx, taken), "l", frozenset(taken))))
        for e in frame.events:
            if e.get("kind") == "steal" and e.get("cards"):
                rows.append(
                    _row(
                        f"{seat(e.get('player'))} pays",
                        _cards(ctx, e["cards"], "m") + f'<span class="gs-then">to {seat(e.get("to"))}</span>',
                    )
                )
        kinds = [str(e.get("kind")) for e in frame.events if e.get("kind") in ("jjok", "ppeok", "ttadak", "sweep", "stack_capture")]
        if kinds:
            rows.append(_row("Event", " ".join(f'<span class="gs-ev gs-ev-{esc(k)}">{esc(k.replace("_", " "))}</span>' for k in kinds)))
        rows.append(_row("Table after", _table(ctx, after) if after.get("table") else '<span class="gs-none">empty</span>'))
    if lesson.view in ("step", "pile") and (lesson.shows.scores or lesson.view == "pile"):
        rows.append(_row(f"{seat(who)}'s pile", _pile(ctx, after, who)))
        rows.append(_row("Score", _score((frame.scores or [{}] * (who + 1))[who])))
    if lesson.shows.decision == "go_stop":
        rows.append(_row("Decision", f"{seat(who)} must call <b>Go</b> or <b>Stop</b>", "gs-lact"))
    if lesson.view == "settle":
        for i in range(len(before.get("captured") or [])):
            score = (frames[lesson.step - 1].scores or [{}] * (i + 1))[i] if lesson.step > 0 else {}
            rows.append(_row(f"{seat(i)}'s pile", _pile(ctx, before, i) + f'<span class="gs-then">{_score(score)}</span>'))
        if act.get("type") in ("go", "stop"):
            rows.append(_row(f"{seat(who)} calls", f'<b class="gs-call">{esc(str(act["type"]).capitalize())}</b>', "gs-lact"))
        elif act.get("type") == "play":
            rows.append(
                _row(
                    f"{seat(who)} plays",
                    _cards(ctx, [act["card"]], "m") + '<span class="gs-then">the last card: the round is over</span>',
                    "gs-lact",
                )
            )
        st = (run.rounds[0].final or {}).get("settlement") or {}
        lines = []
        for loser in st.get("losers") or []:
            baks = ", ".join(str(b).replace("_", "-") for b in loser.get("baks") or [])
            lines.append(
                f"{seat(loser.get('seat'))} pays {seat(st.get('winner'))} <b>{esc(loser.get('pays'))}</b>"
                + (f" ({esc(baks)})" if baks else "")
            )
        if st.get("kind") == "nagari":
            lines.append("void round: nobody pays")
        net = ", ".join(f"{seat(i)} {v:+d}" for i, v in enumerate(st.get("net") or []))
        rows.append(_row("Settlement", "; ".join(lines) + f' <span class="gs-mini">(net {esc(net)})</span>', "gs-lact"))
    return "".join(rows)


def scene(ctx: Ctx, lesson: Lesson) -> str:
    run = ctx.m.runs[lesson.scenario]
    sc = run.scenario
    body = deal_scene(ctx, run) if lesson.step == 0 else step_scene(ctx, run, lesson)
    where = "the deal" if lesson.step == 0 else f"step {lesson.step}"
    caption = (
        (esc(lesson.caption) + " " if lesson.caption else "")
        + f"Scenario {ctx.scenario_a(sc.id, sc.id)} (ruleset {ctx.ruleset_a(sc.ruleset)}), {where}, as the reference engine "
        "plays it when this site is built; the conformance suite checks every engine on it."
    )
    return f'<figure class="gs-lesson" id="scene-{esc(lesson.anchor)}">{body}<figcaption>{caption}</figcaption></figure>'


def scoring_table(ctx: Ctx) -> str:
    o = ctx.m.rulesets[RULESET].options.as_json()
    rows = [
        (
            "brights",
            "m01-bright",
            f"3 brights: {o['bright_3']} (with the rain bright: {o['bright_3_rain']}); 4: {o['bright_4_dry']}; 5: {o['bright_5']}",
        ),
        ("animals", "m02-animal", f"{counted(o['animal_threshold'], 'animal')}: 1, and 1 more for each further animal"),
        ("godori", "m08-animal", f"the three birds: {o['godori_points']}"),
        ("ribbons", "m01-ribbon", f"{counted(o['ribbon_threshold'], 'ribbon')}: 1, and 1 more for each further ribbon"),
        ("ribbon trio", "m06-ribbon", f"three red, three blue or three plain ribbons: {o['dan_points']} each"),
        (
            "junk",
            "m11-double-junk",
            f"{counted(o['junk_threshold'], 'junk unit')}: 1, and 1 more for each further unit (a double junk is 2)",
        ),
    ]
    body = "".join(f"<tr><td>{ctx.card(card, 'm')}</td><td><b>{esc(kind)}</b></td><td>{esc(text)}</td></tr>" for kind, card, text in rows)
    head = f"<thead><tr><th></th><th>cards</th><th>points ({esc(RULESET)})</th></tr></thead>"
    return f'<table class="gs-score-table">{head}<tbody>{body}</tbody></table>'


def kinds_scene(ctx: Ctx) -> str:
    rows = []
    for label, kinds in (("Brights", ("bright",)), ("Animals", ("animal",)), ("Ribbons", ("ribbon",)), ("Double junk", ("double-junk",))):
        cards = [c.id for c in ctx.m.cards if c.kind in kinds]
        rows.append(_row(f"{label} ({len(cards)})", _cards(ctx, cards, "m")))
    junk = [c for c in ctx.m.cards if c.kind == "junk"]
    firsts = [c.id for c in junk if c.id.endswith("-1")]
    rows.append(
        _row(
            f"Junk ({len(junk)})",
            _cards(ctx, firsts, "m") + f'<span class="gs-then">one of each month shown ({len(firsts)} of {len(junk)})</span>',
        )
    )
    months = "".join(
        f'<div class="gs-month"><span class="gs-mini">{m}. {esc(MONTH_NAMES[m])}</span>'
        f"{_cards(ctx, [c.id for c in ctx.m.cards if c.month == m], 'm')}</div>"
        for m in (1, 8, 12)
    )
    return '<figure class="gs-lesson">' + _row("Months", f'<span class="gs-months">{months}</span>') + "".join(rows) + "</figure>"


def learn_page(m: Model) -> str:
    check_all(m)
    ctx = Ctx(SRC, m)
    deck_terms = "{t:gwang}, {t:yeolkkeut}, {t:tti}, {t:pi}"
    out = [
        "<!-- Generated at build time by docs/_build/docsgen/learn.py from corpus scenarios, played by the reference engine. -->\n",
        "# Learn to play in five minutes\n",
        fill(
            ctx,
            None,
            "Go-Stop ({t:gostop}) is a Korean fishing game for two or three players with the 48 flower cards "
            "({t:hwatu}). You capture cards by matching months, score combinations, and when you reach the "
            "threshold you decide: play on (Go) or stop and collect (Stop). Every picture on this page is a real "
            "scenario of the conformance suite, played by the reference engine when the site was built; the build "
            "fails if a scenario stops showing what this page says. The Korean words are in the "
            f"[glossary]({ctx.md('glossary.md')}).",
        )
        + "\n",
        "## 1. The cards {#cards}\n",
        fill(
            ctx,
            None,
            "Twelve months, four cards each; the month is the plant on the card. Cards of the same month match. "
            f"Each card is also of a kind that scores: bright, animal, ribbon or junk ({deck_terms}). "
            f"The whole deck is in the [card gallery]({ctx.md('cards.md')}).",
        )
        + "\n",
        ctx.slot(kinds_scene(ctx)) + "\n",
    ]
    number = 2
    for lesson in LESSONS:
        if lesson.anchor in ("jjok", "ppeok", "ttadak", "sweep"):
            if lesson.anchor == "jjok":
                out.append(f"## {number}. Special captures {{#captures}}\n")
                out.append("Some turns take more, or take nothing. The three-card events also make your opponents pay you junk.\n")
                number += 1
            out.append(f"### {md_escape(lesson.title)} {{#{lesson.anchor}}}\n")
        else:
            out.append(f"## {number}. {md_escape(lesson.title)} {{#{lesson.anchor}}}\n")
            number += 1
        if lesson.anchor == "scoring":
            out.append(ctx.slot(scoring_table(ctx)) + "\n")
        out.append(fill(ctx, lesson, lesson.text) + "\n")
        out.append(ctx.slot(scene(ctx, lesson)) + "\n")
    out.append(f"## {number}. Where next {{#next}}\n")
    out.append(
        f"- The [glossary]({ctx.md('glossary.md')}) of the Korean terms.\n"
        f"- [The rules]({ctx.md('rules/index.md')}), clause by clause, each with the scenarios that show it.\n"
        f"- The [house rules]({ctx.md('options.md')}) and the [named rulesets]({ctx.md('rulesets/index.md')}): "
        "the details vary from table to table; the suite knows them all.\n"
    )
    return "\n".join(out)
