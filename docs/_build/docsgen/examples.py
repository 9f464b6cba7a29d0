"""Worked examples: a scenario as the reference engine plays it (from `run_scenario`'s transcript).

`full()` renders the whole example for the scenario catalogue: the deal as card pictures, then a
step-through of frames (after the deal, after each step: the action, the events with their
rule-hit trace, the board with the cards just captured outlined, the scores), the end of each round
with its settlement, and what the scenario checks. `compact()` renders the short form shown under
each clause of the rules pages.
"""

from __future__ import annotations

import json
import re
from typing import Any

from docsgen.links import Ctx, esc
from docsgen.model import Frame, RoundRun, Run
from gostop_conformance.spec import counted

Json = dict[str, Any]

KIND_ORDER = {"bright": 0, "animal": 1, "ribbon": 2, "double-junk": 3, "junk": 3, "bonus": 3}
SKIP_FIELDS = {"kind", "player", "cards", "clauses"}
SCORE_COLUMNS = (
    ("brights", "bright_points", "brights"),
    ("animals", "animal_points", "animals"),
    ("ribbons", "ribbon_points", "ribbons"),
    ("junk_units", "junk_points", "junk units"),
)


def seat(p: Any) -> str:
    return "—" if p is None else f"P{p}"


def sort_cards(ctx: Ctx, ids: Any) -> list[str]:
    def key(cid: str) -> tuple[int, int]:
        card = ctx.m.deck.by_id.get(cid)
        return (KIND_ORDER.get(card.kind, 4), card.index) if card else (9, 0)

    return sorted(ids or [], key=key)


def by_index(ctx: Ctx, ids: Any) -> list[str]:
    return sorted(ids or [], key=lambda c: ctx.m.deck.by_id[c].index if c in ctx.m.deck.by_id else 999)


def action_html(ctx: Ctx, act: Json, size: str = "m") -> str:
    p = f'<span class="gs-seat-tag">{seat(act.get("player"))}</span>'
    t = act.get("type")
    card = ctx.card(act["card"], size) + f"<code>{esc(act['card'])}</code>" if "card" in act else ""
    if t == "play":
        text = f"{p} plays {card}"
        if "take" in act:
            text += f" taking {ctx.card(act['take'], size)}<code>{esc(act['take'])}</code>"
        if act.get("shake"):
            text += " and shakes"
        return text
    month = f"month {act.get('month')}"
    return {
        "bomb": f"{p} bombs {month}",
        "skip": f"{p} skips (spends a skip credit)",
        "shake": f"{p} shakes {month}",
        "bonus": f"{p} plays the bonus card {card}",
        "dual_to_junk": f"{p} moves {card} to junk",
        "take": f"{p} takes {card}",
        "go": f"{p} calls <b>Go</b>",
        "stop": f"{p} calls <b>Stop</b>",
        "chongtong": f"{p} declares chongtong with {month}",
    }.get(str(t), f"{p} {esc(t)}")


def field_html(ctx: Ctx, key: str, value: Any, size: str) -> str:
    if key == "to":
        return f"→ {seat(value)}"
    if key == "owner":
        return "no owner" if value is None else f"owner {seat(value)}"
    if ctx.is_card(value):
        return f"{esc(key)} {ctx.card(value, size)}"
    if isinstance(value, list) and value and all(ctx.is_card(v) for v in value):
        return f"{esc(key)} {ctx.cards(value, size)}"
    if key == "net" and isinstance(value, list):
        return "net " + ", ".join(f"{seat(i)} {v:+d}" if isinstance(v, int) else esc(v) for i, v in enumerate(value))
    if key in ("dealer", "first_player"):
        return f"{key.replace('_', ' ')} {seat(value)}"
    if isinstance(value, list | dict):
        return f"{esc(key)} <code>{esc(yaml_flow(value))}</code>"
    return f"{esc(key.replace('_', ' '))} <b>{esc(value)}</b>"


PLAIN = re.compile(r"^[A-Za-z_][\w.\-/ ]*$")


def yaml_flow(value: Any) -> str:
    """A value in YAML flow style, as the scenario files write it (fast; display only)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return str(value)
    if isinstance(value, str):
        plain = PLAIN.match(value) and value not in ("true", "false", "null", "yes", "no", "on", "off") and value == value.strip()
        return value if plain else json.dumps(value, ensure_ascii=False)
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k}: {yaml_flow(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(yaml_flow(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False, default=str)


def yaml_block(value: Any, indent: int = 0) -> list[str]:
    """A mapping in YAML block style, short values in flow style."""
    pad = " " * indent
    lines = []
    if isinstance(value, dict):
        for k, v in value.items():
            flow = yaml_flow(v)
            if not isinstance(v, dict | list) or len(flow) + indent + len(str(k)) <= 96:
                lines.append(f"{pad}{k}: {flow}")
            elif isinstance(v, dict):
                lines += [f"{pad}{k}:", *yaml_block(v, indent + 2)]
            else:
                lines += [f"{pad}{k}:", *(f"{pad}  - {yaml_flow(item)}" for item in v)]
    else:
        lines.append(pad + yaml_flow(value))
    return lines


def event_html(ctx: Ctx, e: Json, size: str = "s", trace: bool = True) -> str:
    kind = str(e.get("kind"))
    parts = [f'<span class="gs-ev gs-ev-{esc(kind)}">{esc(kind.replace("_", " "))}</span>']
    if "player" in e:
        parts.append(f'<span class="gs-seat-tag">{seat(e["player"])}</span>')
    if e.get("cards"):
        parts.append(ctx.cards(e["cards"], size))
    for key in e:
        if key not in SKIP_FIELDS and (e[key] not in ([], None) or key == "owner"):
            parts.append(f'<span class="gs-field">{field_html(ctx, key, e[key], size)}</span>')
    if trace and e.get("clauses"):
        parts.append('<span class="gs-trace">' + " ".join(ctx.clause_a(c) for c in e["clauses"]) + "</span>")
    return " ".join(parts)


def events_html(ctx: Ctx, events: list[Json]) -> str:
    if not events:
        return ""
    items = "".join(f"<li>{event_html(ctx, e)}</li>" for e in events)
    return f'<div class="gs-sub">Events (with the clauses the engine reports)</div><ul class="gs-events">{items}</ul>'


def board_html(ctx: Ctx, state: Json | None, previous: Json | None) -> str:
    if not state:
        return ""
    rows = []
    stacks = {int(s["month"]): s for s in state.get("stacks", []) or []}
    table = by_index(ctx, state.get("table", []))
    singles = [c for c in table if ctx.m.deck.by_id.get(c) is None or ctx.m.deck.by_id[c].month not in stacks]
    cells = [ctx.cards(singles, "m", "empty")] if singles or not stacks else []
    for month in sorted(stacks):
        s = stacks[month]
        cards = [c for c in table if c in ctx.m.deck.by_id and ctx.m.deck.by_id[c].month == month]
        owner = "dealt triple, no owner" if s.get("owner") is None else f"ppeok of {seat(s.get('owner'))}"
        bonus = s.get("bonus") or []
        cells.append(
            f'<span class="gs-stack" title="stack of month {month}: {owner}">{ctx.cards(cards + list(bonus), "m")}'
            f'<span class="gs-stack-tag">stack · {esc(owner)}</span></span>'
        )
    rows.append(f'<div class="gs-row"><span class="gs-lab">Table</span>{"".join(cells)}</div>')
    hands = state.get("hands", []) or []
    captured = state.get("captured", []) or []
    before = (previous or {}).get("captured", []) or []
    players = state.get("players", []) or []
    for i in range(max(len(hands), len(captured))):
        old = list(before[i]) if i < len(before) else []
        new = []
        for c in captured[i] if i < len(captured) else []:
            if c in old:
                old.remove(c)
            else:
                new.append(c)
        pile = sort_cards(ctx, captured[i] if i < len(captured) else [])
        pile_html = (
            '<span class="gs-cards">'
            + "".join(
                ctx.card(c, "s").replace('class="gs-card ', 'class="gs-card gs-new ', 1)
                if c in new and previous is not None
                else ctx.card(c, "s")
                for c in pile
            )
            + "</span>"
            if pile
            else '<span class="gs-none">—</span>'
        )
        flags = []
        if i < len(players):
            for key, value in players[i].items():
                if value not in (0, [], None, False):
                    flags.append(f"{esc(key.replace('_', ' '))} {esc(yaml_flow(value) if isinstance(value, list) else value)}")
        hand = hands[i] if i < len(hands) else []
        to_act = " gs-to-act" if state.get("to_act") == i else ""
        dealer = " (dealer)" if state.get("dealer") == i else ""
        rows.append(
            f'<div class="gs-row gs-seat{to_act}"><span class="gs-lab">{seat(i)}{dealer}</span>'
            f'<span class="gs-part"><span class="gs-mini">hand</span>{ctx.cards(by_index(ctx, hand), "m")}</span>'
            f'<span class="gs-part"><span class="gs-mini">captured</span>{pile_html}</span>'
            + (f'<span class="gs-flags">{"; ".join(flags)}</span>' if flags else "")
            + "</div>"
        )
    stock = state.get("stock", []) or []
    top = f" · next card {ctx.card(stock[0], 's')}" if stock else ""
    decision = state.get("decision")
    who = f", {seat(state.get('to_act'))} to act" if state.get("to_act") is not None else ""
    pending = f" · in play {ctx.cards(state.get('in_play'), 's')}" if state.get("in_play") else ""
    rows.append(
        f'<div class="gs-row gs-status"><span class="gs-lab">Stock</span>{counted(len(stock), "card")}{top}{pending}'
        f" · decision <b>{esc(decision)}</b>{who}</div>"
    )
    return '<div class="gs-board">' + "".join(rows) + "</div>"


def scores_html(scores: list[Json] | None) -> str:
    if not scores:
        return ""
    head = "<tr><th>seat</th><th>base</th>" + "".join(f"<th>{label}</th>" for _, _, label in SCORE_COLUMNS) + "<th>other</th></tr>"
    rows = []
    for i, s in enumerate(scores):
        cells = [f"<td>{seat(i)}</td>", f"<td><b>{esc(s.get('base', ''))}</b></td>"]
        for count, points, _ in SCORE_COLUMNS:
            c, p = s.get(count, 0), s.get(points, 0)
            cells.append(f"<td>{esc(c)}" + (f" → {esc(p)} pt" if p else "") + "</td>")
        other = []
        for key in ("godori_points", "dan_points", "extra_points", "winner_bonus", "card_points"):
            if s.get(key):
                other.append(f"{key.replace('_', ' ')} {s[key]}")
        if s.get("dans"):
            other.append("dans " + ", ".join(map(str, s["dans"])))
        if s.get("dual_as_junk"):
            other.append("as junk " + ", ".join(map(str, s["dual_as_junk"])))
        cells.append(f"<td>{esc('; '.join(other))}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    return f'<div class="gs-sub">Scores</div><table class="gs-scores">{head}{"".join(rows)}</table>'


def settlement_html(ctx: Ctx, st: Json | None, nxt: Json | None = None) -> str:
    if st is None:
        return '<div class="gs-settlement"><b>Round not over</b>: no settlement yet.</div>'
    parts = [f'<span class="gs-ev gs-ev-settle">{esc(st.get("kind"))}</span>']
    if st.get("winner") is not None:
        parts.append(f"winner <b>{seat(st['winner'])}</b>")
    order = (
        "base",
        "go_count",
        "go_points",
        "go_multiplier",
        "shake_bomb_factor",
        "meongtta",
        "carry",
        "void_multiplier",
        "points",
        "breakeven",
    )
    for key in order:
        if key in st:
            parts.append(f"{key.replace('_', ' ')} <b>{esc(st[key])}</b>")
    lines = [" · ".join(parts)]
    for loser in st.get("losers", []) or []:
        baks = ", ".join(loser.get("baks", [])) or "no bak"
        ex = " (exempt)" if loser.get("exempt") else ""
        lines.append(f"{seat(loser.get('seat'))} owes {esc(loser.get('amount'))}, pays <b>{esc(loser.get('pays'))}</b> ({esc(baks)}){ex}")
    pays = st.get("payments") or []
    if pays:
        lines.append("payments " + ", ".join(f"{seat(p.get('from'))} → {seat(p.get('to'))} {esc(p.get('amount'))}" for p in pays))
    for key in ("awards", "sets", "card_points"):
        if st.get(key):
            lines.append(f"{key.replace('_', ' ')} <code>{esc(yaml_flow(st[key]))}</code>")
    if "net" in st:
        lines.append("net " + ", ".join(f"{seat(i)} <b>{v:+d}</b>" for i, v in enumerate(st["net"])))
    if st.get("clauses"):
        lines.append('<span class="gs-trace">' + " ".join(ctx.clause_a(c) for c in st["clauses"]) + "</span>")
    if nxt:
        lines.append(
            f"next round: dealer {seat(nxt.get('dealer'))}, nagari streak {esc(nxt.get('nagari_streak'))}, "
            f"carried ×{esc(nxt.get('carried_multiplier', 1))}, counts as a round: {'yes' if nxt.get('counts_as_round') else 'no'}"
        )
    return '<div class="gs-settlement"><div class="gs-sub">Settlement</div>' + "<br>".join(lines) + "</div>"


def expect_html(title: str, expect: Json | None) -> str:
    if not expect:
        return ""
    text = "\n".join(yaml_block(expect))
    return f'<details class="gs-expect"><summary>{esc(title)}</summary><pre><code>{esc(text)}</code></pre></details>'


def listed_deal_html(ctx: Ctx, rnd: RoundRun) -> str:
    listed = rnd.listed
    if "seed" in listed:
        drawn = f", first dealer drawn from the seed ({ctx.clause_a('R-FIRST-DEALER')})"
        dealer = f", dealer {seat(listed['dealer'])}" if "dealer" in listed else drawn
        return (
            f'<div class="gs-deal"><span class="gs-lab">Deal</span>seeded: seed <b>{esc(listed["seed"])}</b>{dealer}; '
            f"the engine shuffles and deals as {ctx.clause_a('R-SHUFFLE')} specifies (the dealt cards are shown below)</div>"
        )
    rows = [f'<div class="gs-row"><span class="gs-lab">Dealer</span>{seat(listed.get("dealer", 0))}</div>']
    for i, hand in enumerate(listed.get("hands", [])):
        rows.append(f'<div class="gs-row"><span class="gs-lab">{seat(i)} hand</span>{ctx.cards(hand, "m")}</div>')
    rows.append(f'<div class="gs-row"><span class="gs-lab">Table</span>{ctx.cards(listed.get("table", []), "m")}</div>')
    stock = list(listed.get("stock", []))
    total = len(rnd.deal.get("stock", []))
    rest = total - len(stock)
    more = f' <span class="gs-mini">+ {rest} more below, in canonical order (the completion rule)</span>' if rest > 0 else ""
    rows.append(f'<div class="gs-row"><span class="gs-lab">Stock, top first</span>{ctx.cards(stock, "m")}{more}</div>')
    for i, pile in enumerate(listed.get("captured", []) or []):
        if pile:
            rows.append(f'<div class="gs-row"><span class="gs-lab">{seat(i)} captured</span>{ctx.cards(sort_cards(ctx, pile), "s")}</div>')
    for key in listed:
        if key not in ("dealer", "hands", "table", "stock", "captured", "complete"):
            rows.append(f'<div class="gs-row"><span class="gs-lab">{esc(key)}</span><code>{esc(yaml_flow(listed[key]))}</code></div>')
    return '<div class="gs-deal"><div class="gs-sub">The deal, as the scenario lists it</div>' + "".join(rows) + "</div>"


def frame_html(ctx: Ctx, frame: Frame, previous: Json | None, index: int, total: int) -> str:
    head = f'<div class="gs-frame-head"><span class="gs-step-no">{esc(frame.label)}</span>'
    if frame.act is not None:
        head += " " + action_html(ctx, frame.act)
    head += "</div>"
    body = []
    if frame.note:
        body.append(f'<div class="gs-note">{esc(frame.note)}</div>')
    if frame.expected_reject is not None:
        got = frame.error.get("code") if isinstance(frame.error, dict) else None
        body.append(
            f'<div class="gs-reject">Refused with <code>{esc(got or "nothing: accepted")}</code>; the scenario expects '
            f"<code>{esc(frame.expected_reject)}</code>, and the state must not change.</div>"
        )
    elif frame.error is not None and frame.act is not None:
        body.append(f'<div class="gs-reject">The engine refused the action: <code>{esc(yaml_flow(frame.error))}</code></div>')
    body.append(events_html(ctx, frame.events))
    if frame.expected_reject is None:
        body.append(board_html(ctx, frame.state, previous if frame.act is not None else None))
        body.append(scores_html(frame.scores))
    body.append(
        expect_html("What the scenario checks after this step" if frame.act else "What the scenario checks after the deal", frame.expect)
    )
    return (
        f'<section class="gs-frame" data-frame="{index}" aria-label="{esc(frame.label)}, {index + 1} of {total}">'
        + head
        + "".join(body)
        + "</section>"
    )


def full(ctx: Ctx, run: Run) -> str:
    sc = run.scenario
    out = [f'<div class="gs-example" data-scenario="{esc(sc.id)}">']
    for r, rnd in enumerate(run.rounds):
        if len(run.rounds) > 1:
            out.append(f'<div class="gs-round-title">Round {r + 1} of {len(run.rounds)}</div>')
        out.append(listed_deal_html(ctx, rnd))
        frames = list(rnd.frames)
        if rnd.after_deal_expect:
            frames[0].expect = rnd.after_deal_expect
        out.append(f'<div class="gs-stepper" data-frames="{len(frames)}">')
        previous: Json | None = None
        for i, frame in enumerate(frames):
            out.append(frame_html(ctx, frame, previous, i, len(frames)))
            if frame.state is not None and frame.expected_reject is None:
                previous = frame.state
        out.append("</div>")
        if rnd.final is not None:
            out.append('<div class="gs-end">')
            out.append(scores_html(rnd.final.get("scores")))
            out.append(settlement_html(ctx, rnd.final.get("settlement"), rnd.final.get("next")))
            out.append(expect_html("What the scenario checks at the end of the round", rnd.final_expect))
            out.append("</div>")
    if sc.match:
        out.append(expect_html("What the scenario checks for the match", sc.match))
    out.append(verdict_html(run))
    out.append("</div>")
    return "\n".join(x for x in out if x)


def verdict_html(run: Run) -> str:
    res = run.result
    cls = "gs-pass" if res.outcome == "PASS" else "gs-fail"
    text = f'<div class="gs-verdict {cls}">Reference engine: <b>{esc(res.outcome)}</b>'
    if res.outcome != "PASS":
        text += "<pre>" + esc(res.text()) + "</pre>"
    return text + "</div>"


def compact(ctx: Ctx, run: Run, open_: bool = False) -> str:
    sc = run.scenario
    tags = f'<span class="gs-tag">{esc(sc.ruleset)}</span>'
    if sc.polarity != "positive":
        tags += f' <span class="gs-tag gs-tag-neg">{esc(sc.polarity)}</span>'
    if sc.options:
        tags += " " + " ".join(f'<span class="gs-tag gs-tag-opt">{esc(k)} = {esc(yaml_flow(v))}</span>' for k, v in sc.options.items())
    lines = []
    for r, rnd in enumerate(run.rounds):
        prefix = f"<b>Round {r + 1}</b> " if len(run.rounds) > 1 else ""
        lines.append(f'<div class="gs-c-line">{prefix}{compact_deal(ctx, rnd)}</div>')
        steps = []
        for frame in rnd.frames[1:]:
            text = action_html(ctx, frame.act or {}, "s")
            if frame.expected_reject is not None:
                text += f" → refused <code>{esc(frame.expected_reject)}</code>"
            else:
                evs = [e for e in frame.events if e.get("kind") not in ("play",)]
                if evs:
                    text += " → " + " · ".join(event_html(ctx, e, "s", trace=False) for e in evs)
            steps.append(f"<li>{text}</li>")
        deal_events = [e for e in rnd.frames[0].events if e.get("kind") != "deal"]
        if deal_events:
            lines.append(
                '<div class="gs-c-line">at the deal: ' + " · ".join(event_html(ctx, e, "s", trace=False) for e in deal_events) + "</div>"
            )
        if steps:
            lines.append('<ol class="gs-c-steps">' + "".join(steps) + "</ol>")
        if rnd.final is not None and rnd.final.get("settlement") is not None:
            st = rnd.final["settlement"]
            bits = [f"<b>{esc(st.get('kind'))}</b>"]
            if st.get("winner") is not None:
                bits.append(f"winner {seat(st['winner'])}")
            if "points" in st:
                bits.append(f"points {esc(st['points'])}")
            if "net" in st:
                bits.append("net " + ", ".join(f"{seat(i)} {v:+d}" for i, v in enumerate(st["net"])))
            lines.append('<div class="gs-c-line"><span class="gs-lab">Settlement</span>' + " · ".join(bits) + "</div>")
    link = ctx.scenario_a(sc.id, "the worked example, step by step")
    return (
        f'<details class="example gs-compact"{" open" if open_ else ""}><summary>{esc(sc.title)} {tags}</summary>'
        + "".join(lines)
        + f'<div class="gs-c-line gs-mini"><code>{esc(sc.id)}</code> · {link} · reference engine {esc(run.result.outcome)}</div>'
        + "</details>"
    )


def compact_deal(ctx: Ctx, rnd: RoundRun) -> str:
    listed = rnd.listed
    if "seed" in listed:
        return f"seeded deal, seed {esc(listed['seed'])}"
    bits = [f"{seat(i)} {ctx.cards(hand, 's')}" for i, hand in enumerate(listed.get("hands", []))]
    bits.append("table " + ctx.cards(listed.get("table", []), "s"))
    if listed.get("stock"):
        bits.append("stock " + ctx.cards(listed["stock"], "s") + " …")
    for i, pile in enumerate(listed.get("captured", []) or []):
        if pile:
            bits.append(f"{seat(i)} captured {ctx.cards(sort_cards(ctx, pile), 's')}")
    return '<span class="gs-lab">Deal</span>' + " · ".join(bits)
