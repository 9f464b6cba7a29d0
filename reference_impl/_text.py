"""Human-readable rendering of cards, events, states and settlements for the play command."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from gostop_conformance.reference._events import Action, Event
from gostop_conformance.reference._pointcount import pc_card_points
from gostop_conformance.reference._round import Round
from gostop_conformance.reference._settlement import Settlement
from gostop_conformance.spec import counted


def cards(ids: Iterable[str]) -> str:
    listed = list(ids)
    return " ".join(listed) if listed else "-"


def action_text(a: Action) -> str:
    parts: list[str] = [a.type]
    if a.card:
        parts.append(a.card)
    if a.take:
        parts.append(f"taking {a.take}")
    if a.month:
        parts.append(f"month {a.month}")
    if a.shake:
        parts.append("(with shake)")
    return " ".join(parts)


def event_text(e: Event) -> str:
    who = f"P{e.player} " if e.player is not None else ""
    data = {k: v for k, v in e.data.items() if v not in (None, [], "")}
    extra = " ".join(f"{k}={v}" for k, v in data.items())
    body = f"{who}{e.kind}"
    if e.cards:
        body += f" [{cards(e.cards)}]"
    if extra:
        body += f" {extra}"
    return f"{body}  <{', '.join(e.clauses)}>"


def state_text(rnd: Round) -> list[str]:
    snap = rnd.snapshot()
    lines = [f"  table: {cards(snap['table'])}"]
    for stack in snap["stacks"]:
        owner = "dealt" if stack["owner"] is None else f"P{stack['owner']}"
        lines.append(f"  stack m{stack['month']:02d} ({owner}): {cards(stack['cards'] + stack['bonus'])}")
    lines.append(f"  stock: {counted(len(snap['stock']), 'card')}")
    point_count = rnd.o.scoring_system == "point_count"
    for seat, hand in enumerate(snap["hands"]):
        # the point-count variant counts card values (R-PC-CARD-POINTS), not Go-Stop points
        value = counted(pc_card_points(rnd.seats[seat].captured), "card point") if point_count else f"{rnd.score(seat).base} pts"
        lines.append(f"  P{seat} hand: {cards(hand)}")
        lines.append(f"  P{seat} captured ({value}): {cards(snap['captured'][seat])}")
    return lines


def settlement_text(s: Settlement, names: Sequence[str] | None = None) -> list[str]:
    label = (lambda seat: names[seat]) if names else (lambda seat: f"P{seat}")
    lines = [f"outcome: {s.kind}" + (f", winner {label(s.winner)}" if s.winner is not None else "")]
    if s.kind in ("stop", "last_go_caller_wins"):
        b = s.winner_breakdown
        assert b is not None
        lines.append(
            f"  base {s.base} (brights {b.bright_points}, godori {b.godori_points}, animals {b.animal_points}, "
            f"ribbons {b.ribbon_points}, dan {b.dan_points} {list(b.dans)}, junk {b.junk_points} from {counted(b.junk_units, 'unit')})"
        )
        lines.append(
            f"  gos {s.go_count}: +{s.go_points}, x{s.go_multiplier}; shake/bomb x{s.shake_bomb_factor}; "
            f"meongtta x{s.meongtta}; carry x{s.carry} => {counted(s.points, 'point')}"
        )
        for line in s.losers:
            baks = ", ".join(line.baks) or "no bak"
            lines.append(f"  {label(line.seat)}: {baks}; owes {line.amount}, pays {line.pays}" + (" (exempt)" if line.exempt else ""))
    elif s.kind in ("chongtong", "three_ppeok", "dealer_wins_fixed"):
        lines.append(f"  {counted(s.points, 'point')} from each opponent, carry x{s.carry}")
    for key, value in s.detail():
        lines.append(f"  {key}: {value}")
    lines.append("  net: " + ", ".join(f"{label(seat)} {amount:+d}" for seat, amount in enumerate(s.net)))
    return lines
