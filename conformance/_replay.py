"""The replay.html of a reproducer folder (issue 43): the engine's own play drawn as the site draws
a scenario's play, step by step with card pictures, and at each step the comparison found wrong,
the reference engine's state beside it with the cards missing and extra outlined.

The page is one self-contained file (opened from file://, no network): the site's stepper script
and stylesheet and the card pictures come from conformance/_stepper_assets.json, which
docs/_build/generate.py builds from the sources the site is built from (docs/assets/, the card
art), so that the two never drift apart. The frames are the engine's replies as transcript.jsonl
holds them; the reference's are those of the bundled reference engine run on the same scenario.
The same inputs give the same bytes.
"""

from __future__ import annotations

import base64
import html
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any, Final

from gostop_conformance.harness._compare import Mismatch, differing_cards, show
from gostop_conformance.harness._engine import ReferenceEngine
from gostop_conformance.harness._runner import run_scenario
from gostop_conformance.harness._safetext import terminal_safe
from gostop_conformance.harness._scenarios import Scenario
from gostop_conformance.spec import counted, deck

Json = dict[str, Any]

#: the generated bundle of the site's stepper (css, js) and card pictures (cards: id -> SVG)
ASSETS: Final = "_stepper_assets.json"
#: card sizes as the site's stylesheet sets them (class gs-card-s, gs-card-m)
_SIZES: Final = ("s", "m")
#: what the site's theme (mkdocs-material) defines and the site's stylesheet uses, for a page without the theme
_THEME: Final = (
    ":root{--md-default-fg-color:#212121;--md-default-fg-color--light:#616161;--md-default-fg-color--lighter:#9e9e9e;"
    "--md-default-fg-color--lightest:#e0e0e0;--md-default-bg-color:#fff;--md-primary-fg-color:#3f51b5;"
    "--md-accent-fg-color:#e91e63;--md-code-bg-color:#f5f5f5}"
    "body{font:15px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:var(--md-default-fg-color);"
    "margin:1rem auto;max-width:1400px;padding:0 1rem}"
    "h1{font-size:1.3rem;margin:.2rem 0}pre{white-space:pre-wrap;overflow-wrap:anywhere}"
    "code{font-size:.85em;background:var(--md-code-bg-color);padding:0 .2em;border-radius:.2em}"
    "ul.gs-events{margin:.1em 0 .3em;padding-left:0;list-style:none}ul.gs-events li{margin:.1em 0;display:flex;flex-wrap:wrap;"
    "align-items:center;gap:.3em}"
    ".gs-card{background-size:100% 100%;background-repeat:no-repeat}"
)
#: the replay's own marks: the two states side by side, the failing step, missing and extra cards
_MARKS: Final = (
    ".gs-sides{display:flex;flex-wrap:wrap;gap:1rem}"
    ".gs-side{flex:1 1 30rem;min-width:0;border:1px solid var(--md-default-fg-color--lightest);"
    "border-radius:.3rem;padding:.3rem .6rem}.gs-side-ref{background:#f1f8e9}"
    ".gs-frame.gs-failing{border-left-color:#c62828}.gs-failing-tag{background:#c62828;color:#fff;font-weight:700;font-size:.8em;"
    "padding:0 .5em;border-radius:.3em}"
    ".gs-card.gs-missing{outline:3px dashed #2e7d32;outline-offset:1px}.gs-card.gs-extra{outline:3px solid #c62828;outline-offset:1px}"
    ".gs-diffs{margin:.3em 0;padding:.3em .6em;background:#fff3e0;border-radius:.3em;font-size:.9em}"
    ".gs-diffs ul{margin:.2em 0;padding-left:1.2em}.gs-legend{font-size:.85em;color:var(--md-default-fg-color--light)}"
    ".gs-head{border-bottom:1px solid var(--md-default-fg-color--lightest);padding-bottom:.5rem;margin-bottom:.5rem}"
)


@dataclass(frozen=True, slots=True)
class Frame:
    """One step of a play: the deal, an action (accepted or refused), or the scores at a round's end."""

    label: str
    #: what the harness's mismatches name this step by (Mismatch.where)
    where: str
    action: Json | None
    state: Json
    events: tuple[Json, ...] = ()
    error: Any = None
    scores: tuple[Any, ...] | None = None


@cache
def _assets() -> Json:
    text = (resources.files("gostop_conformance.harness") / ASSETS).read_text(encoding="utf-8")
    loaded: Json = json.loads(text)
    return loaded


def exchanges_of_lines(lines: Sequence[Json]) -> list[tuple[str, Json, Json]]:
    """(cmd, request, reply) from the lines of transcript.jsonl, each request paired with the reply
    that follows it; an act's request as its action (a stdio act carries it under `action`, the
    in-process transcript holds it flat). Lines that are not JSON objects pair with nothing."""
    out: list[tuple[str, Json, Json]] = []
    pending: Json | None = None
    for line in lines:
        message = line.get("message")
        if not isinstance(message, dict):
            continue
        if line.get("to") == "engine":
            pending = message
        elif pending is not None:
            cmd = str(pending.get("cmd"))
            request = {k: v for k, v in pending.items() if k not in ("cmd", "seq")}
            if cmd == "act" and isinstance(request.get("action"), dict):
                request = request["action"]
            out.append((cmd, request, message))
            pending = None
    return out


def own_exchanges(sc: Scenario, exchanges: Sequence[tuple[str, Json, Json]]) -> list[tuple[str, Json, Json]]:
    """The exchanges from the scenario's first deal on: an engine's transcript may begin with lines
    of the scenario before it (requests sent ahead of their replies), which are not this play."""
    first = _canonical(sc.rounds[0].deal) if sc.rounds else None
    start = next((i for i, (cmd, request, _) in enumerate(exchanges) if cmd == "new_game" and _canonical(request.get("deal")) == first), 0)
    return list(exchanges[start:])


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)


def frames_of(sc: Scenario, exchanges: Sequence[tuple[str, Json, Json]]) -> list[list[Frame]]:
    """The frames of each round played, named as the harness names its steps (conformance._steps):
    a round's k-th action is the scenario's k-th step of that round."""
    rounds: list[list[Frame]] = []
    names = [sc.id] if len(sc.rounds) == 1 else [f"{sc.id} round {k}" for k in range(1, len(sc.rounds) + 1)]
    state: Json = {}
    acts = 0
    for cmd, request, reply in exchanges:
        if cmd == "new_game":
            number = len(rounds)
            name = names[number] if number < len(names) else f"{sc.id} new_game {number + 1}"
            state = _dict(reply.get("state"))
            acts = 0
            refused = reply.get("error")
            label = "after the deal" if refused is None else "the deal, refused"
            rounds.append([Frame(label, f"{name} after the deal", None, state, _events(reply), refused)])
        elif not rounds:
            continue
        elif cmd == "act":
            number = len(rounds) - 1
            steps = sc.rounds[number].steps if number < len(sc.rounds) else ()
            acts += 1
            title = steps[acts - 1].title if acts <= len(steps) else f"action {acts}"
            where = f"{names[number] if number < len(names) else sc.id} {title}"
            if "error" not in reply:
                state = _dict(reply.get("state"))
            rounds[-1].append(Frame(title, where, request, state, _events(reply), reply.get("error")))
        elif cmd == "score":
            number = len(rounds) - 1
            where = f"{names[number] if number < len(names) else sc.id} at the end"
            scores = reply.get("scores")
            end = Frame("at the end", where, None, state, (), reply.get("error"), tuple(scores) if isinstance(scores, list) else None)
            if rounds[-1][-1].where == where:  # a round's expectation and its end each ask for the scores: one frame
                rounds[-1][-1] = end
            else:
                rounds[-1].append(end)
    return rounds


def _dict(value: Any) -> Json:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _events(reply: Json) -> tuple[Json, ...]:
    return tuple(e for e in _list(reply.get("events")) if isinstance(e, dict))


def _esc(value: Any) -> str:
    """Text on the page: an engine's lone surrogates (no file can encode them) and controls shown as \\xNN."""
    return html.escape(terminal_safe(str(value)), quote=True)


def _seat(value: Any) -> str:
    return "—" if value is None else f"P{_esc(value)}"


class _Pictures:
    """Card pictures of one page: each card's SVG once, in the stylesheet, and every use a class."""

    def __init__(self) -> None:
        self.used: set[str] = set()

    def card(self, cid: Any, size: str, mark: str = "") -> str:
        found = deck().by_id.get(cid) if isinstance(cid, str) else None
        if found is None or cid not in _assets()["cards"]:
            return f"<code>{_esc(json.dumps(cid, ensure_ascii=False))}</code>"
        self.used.add(found.id)
        cls = f"gs-card gs-card-{size} gs-pic-{found.index}" + (f" gs-{mark}" if mark else "")
        return f'<span class="{cls}" role="img" aria-label="{_esc(cid)}" title="{_esc(cid)}" data-card="{_esc(cid)}"></span>'

    def cards(self, ids: Any, size: str, marked: Counter[str] | None = None, mark: str = "") -> str:
        ids = _list(ids)
        if not ids:
            return '<span class="gs-none">—</span>'
        out = []
        for cid in sorted(ids, key=_order):
            if marked is not None and isinstance(cid, str) and marked[cid] > 0:
                marked[cid] -= 1
                out.append(self.card(cid, size, mark))
            else:
                out.append(self.card(cid, size))
        return '<span class="gs-cards">' + "".join(out) + "</span>"

    def stylesheet(self) -> str:
        rules = []
        for card in sorted((deck().by_id[c] for c in self.used), key=lambda c: c.index):
            data = base64.b64encode(_assets()["cards"][card.id].encode("utf-8")).decode("ascii")
            rules.append(f'.gs-pic-{card.index}{{background-image:url("data:image/svg+xml;base64,{data}")}}')
        return "\n".join(rules)


def _order(cid: Any) -> tuple[int, str]:
    found = deck().by_id.get(cid) if isinstance(cid, str) else None
    return (found.index, "") if found is not None else (1 << 30, json.dumps(cid, sort_keys=True, default=str))


def _action(pics: _Pictures, act: Json | None) -> str:
    if act is None:
        return ""
    who = f'<span class="gs-seat-tag">{_seat(act.get("player"))}</span>'
    parts = [who, f"<b>{_esc(act.get('type'))}</b>"]
    for key in sorted(act):
        if key in ("player", "type"):
            continue
        value = act[key]
        shown = pics.card(value, "s") if isinstance(value, str) and value in deck().by_id else f"<code>{_esc(show(value))}</code>"
        parts.append(f"{_esc(key)} {shown}")
    return " ".join(parts)


def _event(pics: _Pictures, e: Json) -> str:
    kind = str(e.get("kind"))
    parts = [f'<span class="gs-ev gs-ev-{_esc(kind)}">{_esc(kind.replace("_", " "))}</span>']
    if "player" in e:
        parts.append(f'<span class="gs-seat-tag">{_seat(e["player"])}</span>')
    if e.get("cards"):
        parts.append(pics.cards(e["cards"], "s"))
    for key in sorted(e):
        if key not in ("kind", "player", "cards", "clauses"):
            parts.append(f'<span class="gs-field">{_esc(key)} <code>{_esc(show(e[key]))}</code></span>')
    if e.get("clauses"):
        parts.append(f'<span class="gs-trace">{_esc(" ".join(str(c) for c in _list(e["clauses"])))}</span>')
    return "<li>" + " ".join(parts) + "</li>"


def _board(pics: _Pictures, state: Json, marked: dict[str, Counter[str]], mark: str) -> str:
    """The state as the site's board draws it: the table, each seat's hand and captured pile, the
    stock; the cards of `marked` (zone -> cards: `table`, `hands[1]`, `captured[0]`) outlined as `mark`."""
    rows = [f'<div class="gs-row"><span class="gs-lab">Table</span>{pics.cards(state.get("table"), "m", marked.get("table"), mark)}</div>']
    hands, captured, players = _list(state.get("hands")), _list(state.get("captured")), _list(state.get("players"))
    for seat in range(max(len(hands), len(captured))):
        hand = hands[seat] if seat < len(hands) else []
        pile = captured[seat] if seat < len(captured) else []
        flags = []
        if seat < len(players) and isinstance(players[seat], dict):
            for key, value in sorted(players[seat].items()):
                if value not in (0, [], None, False):
                    flags.append(f"{_esc(key.replace('_', ' '))} {_esc(show(value))}")
        to_act = " gs-to-act" if state.get("to_act") == seat else ""
        pile_zone = f"captured[{seat}]"
        dealer = " (dealer)" if state.get("dealer") == seat else ""
        rows.append(
            f'<div class="gs-row gs-seat{to_act}"><span class="gs-lab">P{seat}{dealer}</span>'
            f'<span class="gs-part"><span class="gs-mini">hand</span>{pics.cards(hand, "m", marked.get(f"hands[{seat}]"), mark)}</span>'
            f'<span class="gs-part"><span class="gs-mini">captured</span>{pics.cards(pile, "s", marked.get(pile_zone), mark)}</span>'
            + (f'<span class="gs-flags">{"; ".join(flags)}</span>' if flags else "")
            + "</div>"
        )
    stock = _list(state.get("stock"))
    top = f" · next card {pics.card(stock[0], 's')}" if stock else ""
    who = f", {_seat(state.get('to_act'))} to act" if state.get("to_act") is not None else ""
    pending = f" · in play {pics.cards(state.get('in_play'), 's')}" if state.get("in_play") else ""
    stacks = _list(state.get("stacks"))
    heaps = f" · stacks <code>{_esc(show(stacks))}</code>" if stacks else ""
    rows.append(
        f'<div class="gs-row gs-status"><span class="gs-lab">Stock</span>{counted(len(stock), "card")}{top}{pending}{heaps}'
        f" · decision <b>{_esc(state.get('decision'))}</b>{who}</div>"
    )
    return '<div class="gs-board">' + "".join(rows) + "</div>"


def _scores(scores: tuple[Any, ...] | None) -> str:
    if not scores:
        return ""
    columns = ("base", "brights", "animals", "ribbons", "junk_units", "godori_points", "dan_points", "extra_points")
    head = "<tr><th>seat</th>" + "".join(f"<th>{_esc(c.replace('_', ' '))}</th>" for c in columns) + "</tr>"
    rows = []
    for seat, s in enumerate(scores):
        row = _dict(s)
        rows.append(f"<tr><td>P{seat}</td>" + "".join(f"<td>{_esc(show(row.get(c, '')))}</td>" for c in columns) + "</tr>")
    return f'<div class="gs-sub">Scores</div><table class="gs-scores">{head}{"".join(rows)}</table>'


@dataclass(frozen=True, slots=True)
class _Difference:
    mismatch: Mismatch
    #: (missing from the engine's list, extra in it) for a card list, as the comparison counted them
    cards: tuple[list[str], list[str]] | None


def _differences(pics: _Pictures, found: Sequence[_Difference]) -> str:
    items = []
    for d in found:
        m = d.mismatch
        text = f"<code>{_esc(m.path)}</code> {_esc(m.brief())}"
        if not m.binding:
            text = "note, not a failure: " + text
        if d.cards is not None:
            missing, extra = d.cards
            if missing:
                text += f"<br>missing (the reference holds them): {pics.cards(missing, 's', Counter(missing), 'missing')}"
            if extra:
                text += f"<br>extra (your engine holds them): {pics.cards(extra, 's', Counter(extra), 'extra')}"
        items.append(f"<li>{text}</li>")
    return '<div class="gs-diffs"><div class="gs-sub">What the comparison found here</div><ul>' + "".join(items) + "</ul></div>"


def _zones(found: Sequence[_Difference], which: int) -> dict[str, Counter[str]]:
    out: dict[str, Counter[str]] = {}
    for d in found:
        if d.cards is not None and d.mismatch.binding:
            out.setdefault(d.mismatch.path, Counter()).update(d.cards[which])
    return out


def _frame(
    pics: _Pictures, frame: Frame, reference: Frame | None, found: Sequence[_Difference], index: int, total: int, failing: bool
) -> str:
    cls = "gs-frame gs-failing" if failing else "gs-frame"
    tag = ' <span class="gs-failing-tag">the first failing step</span>' if failing else ""
    head = f'<div class="gs-frame-head"><span class="gs-step-no">{_esc(frame.label)}</span> {_action(pics, frame.action)}{tag}</div>'
    body = []
    if frame.error is not None:
        body.append(f'<div class="gs-reject">Your engine refused: <code>{_esc(show(frame.error))}</code></div>')
    if frame.events:
        body.append(
            '<div class="gs-sub">Events your engine reported</div><ul class="gs-events">'
            + "".join(_event(pics, e) for e in frame.events)
            + "</ul>"
        )
    if found:
        body.append(_differences(pics, found))
    engine_side = _board(pics, frame.state, _zones(found, 1), "extra") + _scores(frame.scores)
    if any(d.mismatch.binding for d in found):
        if reference is not None:
            ref_side = _board(pics, reference.state, _zones(found, 0), "missing") + _scores(reference.scores)
        else:
            ref_side = '<div class="gs-note">The reference engine played no such step.</div>'
        body.append(
            '<div class="gs-sides">'
            f'<div class="gs-side gs-side-engine"><div class="gs-sub">Your engine</div>{engine_side}</div>'
            f'<div class="gs-side gs-side-ref"><div class="gs-sub">The reference engine</div>{ref_side}</div>'
            "</div>"
        )
    else:
        body.append(engine_side)
    return (
        f'<section class="{cls}" data-frame="{index}" data-where="{_esc(frame.where)}" '
        f'aria-label="{_esc(frame.label)}, {index + 1} of {total}">' + head + "".join(body) + "</section>"
    )


def replay_html(sc: Scenario, lines: Sequence[Json], mismatches: Sequence[Mismatch], headline: str, engine_label: str) -> str:
    """The page: the engine's play (`lines`, as transcript.jsonl holds them) step by step, each
    step the `mismatches` name showing what differed, and the reference engine's state beside the
    engine's where a mismatch fails the scenario; `headline` is the run's line for the scenario."""
    pics = _Pictures()
    exchanges = exchanges_of_lines(lines)
    own = own_exchanges(sc, exchanges)
    played = frames_of(sc, own)
    reference = {f.where: f for rnd in frames_of(sc, run_scenario(ReferenceEngine(), sc).transcript) for f in rnd}
    by_where: dict[str, list[_Difference]] = {}
    rules = sc.rules
    for m in mismatches:
        by_where.setdefault(m.where, []).append(_Difference(m, differing_cards(m, rules, sc.exact_cards)))
    placed = {f.where for rnd in played for f in rnd}
    # a round's chain check names the round alone, the match's checks the scenario's match: drawn at the step they follow
    for rnd in played:
        name = rnd[0].where.removesuffix(" after the deal")
        by_where.setdefault(rnd[0].where, []).extend(by_where.pop(name, []) if name not in placed else [])
    if played:
        last = played[-1][-1].where
        by_where.setdefault(last, []).extend(by_where.pop(f"{sc.id} match", []))
    failing = next((f.where for rnd in played for f in rnd if any(d.mismatch.binding for d in by_where.get(f.where, ()))), None)
    if failing is None:
        failing = next((f.where for rnd in played for f in rnd if f.error is not None), played[-1][-1].where if played else None)
    body = []
    where_failing = ""
    for r, rnd in enumerate(played):
        if len(played) > 1:
            body.append(f'<div class="gs-round-title">Round {r + 1} of {len(played)}</div>')
        body.append(f'<div class="gs-stepper" data-frames="{len(rnd)}">')
        for i, frame in enumerate(rnd):
            is_failing = frame.where == failing
            if is_failing:
                where_failing = (
                    f"frame {i + 1} of {len(rnd)}" + (f" of round {r + 1}" if len(played) > 1 else "") + f" ({_esc(frame.label)})"
                )
            body.append(_frame(pics, frame, reference.get(frame.where), by_where.get(frame.where, ()), i, len(rnd), is_failing))
        body.append("</div>")
    unplaced = [d for where, ds in sorted(by_where.items()) if where not in placed for d in ds]
    if unplaced:
        body.append(_differences(pics, unplaced))
    if not played:
        body.append('<p class="gs-note">Your engine\'s transcript holds no deal to draw.</p>')
    if len(own) < len(exchanges):
        skipped = len(exchanges) - len(own)
        body.insert(
            0,
            f'<p class="gs-note">The first {counted(skipped, "exchange")} of transcript.jsonl {"comes" if skipped == 1 else "come"} '
            "before this scenario's deal: not drawn.</p>",
        )
    assets = _assets()
    script = str(assets["js"]).replace("</", "<\\/")  # nothing in the script may end the element early
    head = (
        f'<div class="gs-head"><h1>{_esc(sc.id)}</h1><div>{_esc(sc.title)}</div>'
        f"<div>engine: <code>{_esc(engine_label)}</code></div>"
        f"<pre>{_esc(headline)}</pre>"
        + (f"<div>The first failing step is {where_failing}: step to it with <b>next ▶</b> (or the → key).</div>" if where_failing else "")
        + '<div class="gs-legend">Drawn from transcript.jsonl (your engine\'s replies) and the bundled reference engine run on '
        "scenario.yaml. Where the comparison failed, your engine's state and the reference's are side by side: cards "
        '<span class="gs-card gs-card-s gs-missing" style="background:#eee"></span> outlined dashed green are missing from '
        'yours, cards <span class="gs-card gs-card-s gs-extra" style="background:#eee"></span> outlined red are extra in yours.</div>'
        "</div>"
    )
    main = head + '<div class="gs-example">' + "\n".join(body) + "</div>"
    return (
        '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{_esc(sc.id)}: replay</title>\n<style>\n{_THEME}\n{assets['css']}\n{_MARKS}\n{pics.stylesheet()}\n</style></head>\n"
        f"<body>\n{main}\n<script>\n{script}\n</script>\n</body></html>\n"
    )
