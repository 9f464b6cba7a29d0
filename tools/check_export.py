#!/usr/bin/env python3
"""A reference checker of the corpus export (docs/export.md), on the standard library alone: what a
test runner in any language does with the file `gostop-conformance export --out corpus.json` writes.

    python tools/check_export.py corpus.json ENGINE [ARGS...]    # e.g. corpus.json gostop-reference --stdio

It sends each scenario's requests to the engine over stdio and checks the replies by the matching
rules of docs/export.md: PASS, FAIL (the first difference) or SKIP (unsupported) per scenario, then
a total; exit 1 on any failure, 2 on a bad command line or export. It leaves to the harness the
reply shapes (the protocol schema), timeouts, the score invariant and substituted option values."""

from __future__ import annotations

import contextlib
import json
import subprocess
import sys
from collections import Counter
from collections.abc import Callable
from typing import Any

Json = dict[str, Any]
CARD_LISTS = {"cards", "bonus", "table", "hands", "captured", "dual_junk", "replacement", "dual_as_junk"}
MULTISETS, CARD_FIELDS = {"dans", "baks", "shaken_months", "bombs"}, {"card", "take", "replacement"}
HANDED_OVER = (("dealer", 0), ("nagari_streak", 0), ("carried_multiplier", 1))  # from one round to the next, each with its default
MISSING = object()  # a field the reply lacks: equal to nothing


class Failed(Exception):
    """The scenario fails; the message is the first difference (the checker stops there)."""


class Skipped(Exception):
    """The engine refused a deal with the code `unsupported`."""


def canon(value: Any) -> Any:
    return json.dumps(value, sort_keys=True) if isinstance(value, dict | list) else value


class Engine:
    def __init__(self, argv: list[str], hello: Json) -> None:
        self.argv, self.hello_request, self.seq = argv, hello, 0
        self.proc: subprocess.Popen[str] | None = None
        self.hello = self.start()

    def start(self) -> Json:
        self.close()
        self.proc, self.seq = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, encoding="utf-8"), 0
        return self.send(self.hello_request)

    def send(self, request: Json) -> Json:
        assert self.proc is not None and self.proc.stdin is not None and self.proc.stdout is not None
        self.seq, line = self.seq + 1, ""
        try:
            self.proc.stdin.write(json.dumps({"seq": self.seq, **request}) + "\n")
            self.proc.stdin.flush()
            reply = json.loads(line := self.proc.stdout.readline())
        except (OSError, ValueError) as exc:
            raise Failed(f"no reply to {request['cmd']}: {exc if line else 'the engine exited'}") from None
        if not isinstance(reply, dict) or reply.pop("seq", None) != self.seq:
            raise Failed(f"no reply to {request['cmd']}: not an object with seq {self.seq}")
        if "error" in reply and reply["error"] is None:
            del reply["error"]  # no error, as some serializers write it
        return reply

    def close(self) -> None:
        if self.proc is not None and self.proc.stdin is not None:
            try:
                self.proc.stdin.write(json.dumps({"seq": self.seq + 1, "cmd": "bye"}) + "\n")
                self.proc.stdin.close()
                self.proc.wait(timeout=2)
            except (OSError, subprocess.TimeoutExpired):
                self.proc.kill()
                self.proc.wait()


class Judge:
    """One scenario's checks, against one engine."""

    def __init__(self, export: Json, sc: Json, engine: Engine) -> None:
        self.sc, self.engine, self.deck = sc, engine, sorted(export["decks"][sc["deck"]])
        classes, piles = ({}, {}) if sc["exact_cards"] else (export["card_classes"], export["pile_classes"][sc["pile_classes"]])
        self.cls: Callable[[Any], Any] = lambda c: classes.get(c, c) if isinstance(c, str) else c
        self.pile: Callable[[Any], Any] = lambda c: piles.get(c, c) if isinstance(c, str) else c

    def cards(self, expected: list[Any], actual: Any, key: Callable[[Any], Any]) -> bool:
        """The same cards as a multiset, each card as `key` sees it."""
        if not isinstance(actual, list) or len(actual) != len(expected):
            return False
        return Counter(canon(key(c)) for c in expected) == Counter(canon(key(c)) for c in actual)

    def diff(self, e: Any, a: Any, key: str = "", path: str = "") -> str | None:
        """The first path where the partial description `e` and the reply's `a` differ, or None."""
        if isinstance(e, dict):
            if not isinstance(a, dict):
                return path or "(the object)"
            return next((d for k, v in e.items() if (d := self.diff(v, a.get(k, MISSING), k, f"{path}.{k}"))), None)
        if isinstance(e, list):
            if key in CARD_LISTS and all(isinstance(v, str) for v in e):
                return None if self.cards(e, a, self.cls) else path
            if e and all(isinstance(v, dict) and "seat" in v for v in e) and isinstance(a, list):
                seats = {x.get("seat"): x for x in a if isinstance(x, dict)}
                return next((d for v in e if (d := self.diff(v, seats.get(v["seat"], MISSING), "", f"{path}[seat {v['seat']}]"))), None)
            if not isinstance(a, list) or len(a) != len(e):
                return path
            if key in MULTISETS:
                return None if Counter(map(canon, e)) == Counter(map(canon, a)) else path
            return next((d for i, (x, y) in enumerate(zip(e, a, strict=True)) if (d := self.diff(x, y, key, f"{path}[{i}]"))), None)
        if key in CARD_FIELDS and isinstance(e, str) and self.cls(e) == self.cls(a):
            return None
        return None if type(e) is type(a) and e == a else path

    def seats(self, expected: list[Any], actual: Any, name: str, same: Callable[[Any, Any], bool]) -> str | None:
        """The first seat whose entry (null: not compared) differs."""
        got = actual if isinstance(actual, list) else []
        return next(
            (f"{name}[{s}]" for s, e in enumerate(expected) if e is not None and not same(e, got[s] if s < len(got) else MISSING)), None
        )

    def state(self, spec: Json, events: list[Any], state: Json) -> str | None:
        found = self.events(spec["events"], events) if "events" in spec and self.sc["event_log"] else None  # elsewhere: notes
        found = found or self.seats(spec.get("hands", []), state.get("hands"), "hands", lambda e, a: self.cards(e, a, self.cls))
        found = found or self.seats(spec.get("captured", []), state.get("captured"), "captured", lambda e, a: self.cards(e, a, self.pile))
        found = found or self.seats(spec.get("players", []), state.get("players"), "players", lambda e, a: self.diff(e, a) is None)
        if found or ("table" in spec and not self.cards(spec["table"], state.get("table"), self.cls)):
            return found or "table"
        if "stacks" in spec:
            stacks = state.get("stacks")
            months = {s.get("month"): s for s in stacks if isinstance(s, dict)} if isinstance(stacks, list) else {}
            if not isinstance(stacks, list) or {s["month"] for s in spec["stacks"]} != set(months):
                return "stacks (months)"
            if found := next((d for s in spec["stacks"] if (d := self.diff(s, months[s["month"]], "", f"stacks[{s['month']}]"))), None):
                return found
        if "stock_count" in spec and spec["stock_count"] != len(state.get("stock", [])):
            return "stock_count"
        return "over" if "over" in spec and spec["over"] != (state.get("decision") == "none") else None

    def events(self, spec: Json, events: list[Any]) -> str | None:
        def match(e: Json, a: Any) -> bool:
            return self.diff(e, a) is None

        if "exact" in spec and not (len(spec["exact"]) == len(events) and all(map(match, spec["exact"], events))):
            return "events.exact"
        if not all(any(match(e, a) for a in events) for e in spec.get("contains", ())):
            return "events.contains"
        rest = iter(events)  # a subsequence: each expected event after the one matched before it
        if not all(any(match(e, a) for a in rest) for e in spec.get("in_order", ())):
            return "events.in_order"
        kinds = [a.get("kind") for a in events if isinstance(a, dict)]
        return "events.absent" if any(k in kinds for k in spec.get("absent", ())) else None

    def action(self, a: Json) -> str:
        return json.dumps(
            [a.get("type"), a.get("player"), self.cls(a.get("card")), self.cls(a.get("take")), a.get("month"), bool(a.get("shake"))]
        )

    def legal(self, spec: Json, reply: Json) -> str | None:
        if "decision" in spec and (found := self.diff(spec["decision"], {"kind": reply.get("decision"), "player": reply.get("player")})):
            return "decision" + found
        want, offered = spec.get("legal", {}), {self.action(a) for a in reply.get("actions", []) if isinstance(a, dict)}
        if "exact" in want and {self.action(a) for a in want["exact"]} != offered:
            return "legal.exact"
        if not all(self.action(a) in offered for a in want.get("contains", ())):
            return "legal.contains"
        return "legal.absent" if any(self.action(a) in offered for a in want.get("absent", ())) else None

    def score(self, spec: Json, reply: Json) -> str | None:
        found = self.seats(spec.get("scores", []), reply.get("scores"), "scores", lambda e, a: self.diff(e, a) is None)
        return found or (self.diff(spec["settlement"], reply.get("settlement"), "", "settlement") if "settlement" in spec else None)

    def placed(self, state: Json) -> list[Any]:
        """Every card the state shows, wherever it is: the deck's cards, each once, if all is well."""
        try:
            piles = [*state.get("hands", []), state.get("table", []), state.get("in_play", []), state.get("stock", [])]
            return sorted(
                c for pile in [*piles, *state.get("captured", []), *(s.get("bonus", []) for s in state.get("stacks", []))] for c in pile
            )
        except (TypeError, AttributeError):
            return []

    def round(self, items: list[Json], where: str) -> Json | None:
        """Play one round: its final score reply when that carries a settlement."""
        state: Json = {}
        events: list[Any] = []
        before, settled = None, None
        for item in items:
            check, request = item["check"], item.get("request")
            reply = self.engine.send(request) if request else {}
            error, at, found = reply.get("error"), f"{where} group {item['group']} {check}", None
            code = error.get("code") if isinstance(error, dict) else None
            if check == "dealt" and isinstance(error, dict) and code == "unsupported":
                raise Skipped(f"the engine refused the deal as unsupported: {error.get('message')}")
            if "error" in reply and check != "rejected":  # a refused deal, action or query fails the scenario
                raise Failed(f"{at}: refused: {json.dumps(error)}")
            if check in ("dealt", "accepted"):
                state, events = reply.get("state", {}), reply.get("events", [])
                found = None if self.placed(state) == self.deck else "invariant: every card of the deck in exactly one place"
            elif check == "rejected" and code != item["code"]:
                found = f"expected the rejection {item['code']}, got {code if error else 'none (accepted)'}"
            elif check in ("remember", "unchanged"):
                found, before = ("a rejected action changed the legal actions" if check == "unchanged" and reply != before else None), reply
            elif check == "state":
                found = self.state(item["expect"], events if item["events"] else [], state)
            elif check in ("legal", "score"):
                found = (self.legal if check == "legal" else self.score)(item["expect"], reply)
            elif check == "end":
                settled = reply if reply.get("settlement") is not None else None
            if found:
                raise Failed(f"{at}: {found}")
        return settled

    def run(self) -> None:
        """Every round, each starting as the previous one hands over; then the match's totals."""
        options, match = self.sc["ruleset"]["options"], self.sc["match"] or {}
        previous: Json | None = None
        totals, counted, target = [0] * options["players"], 0, options["match_target_points"]

        def over() -> bool:
            return counted >= options["match_rounds"] or (isinstance(target, int) and max(totals) >= target)

        for k, items in enumerate(self.sc["rounds"], 1):
            deal = items[0]["request"]["deal"]
            if previous is not None:
                handed = [key for key, was in HANDED_OVER if key in previous and deal.get(key, was) != previous[key]]
                if handed or (match and over()):
                    raise Failed(
                        f"round {k}: " + (f"its {handed[0]} is not what the last round handed over" if handed else "the match is over")
                    )
            settled = self.round(items, f"round {k}")
            if settled is None:
                break
            previous = settled.get("next") or {}
            for seat, amount in enumerate((settled.get("settlement") or {}).get("net", [])[: len(totals)]):
                totals[seat] += amount
            counted += 1 if previous.get("counts_as_round") else 0
        actual = {"totals": totals, "counted_rounds": counted, "over": over()}
        if wrong := [key for key in ("totals", "counted_rounds", "over") if key in match and match[key] != actual[key]]:
            raise Failed(f"match.{wrong[0]}: expected {match[wrong[0]]}, got {actual[wrong[0]]}")


def unsupported(sc: Json, hello: Json) -> str | None:
    """Why the hello does not let the scenario run (the simplest rule: each option the outcome
    depends on supported at the value sent), or None."""
    needs, options, declared = sc["requires"], sc["ruleset"]["options"], hello.get("options") or {}
    if missing := [f for f in needs["features"] if f not in (hello.get("features") or [])]:
        return f"requires the feature {', '.join(missing)}"
    if (needs["events"] and hello.get("events") == "none") or (needs["constructed"] and hello.get("positions") == "reachable"):
        return "is about the event log or reaches a constructed position, which the engine declines"
    for name in needs["options"]:
        support = declared.get(name)
        support = support.get("by_players", {}).get(str(options["players"])) if isinstance(support, dict) else support
        whole = sc["ruleset"]["id"] in (hello.get("rulesets") or []) and name not in sc["overrides"]  # its claim, without exceptions
        if not (whole or support == "all" or (isinstance(support, list) and options[name] in support)):
            return f"needs {name} = {json.dumps(options[name])}"
    return None


def main(argv: list[str]) -> int:
    if len(argv) < 2:
        print("usage: check_export.py EXPORT.json ENGINE [ARGS...]", file=sys.stderr)
        return 2
    try:
        with open(argv[0], encoding="utf-8") as f:
            export = json.load(f)
        if export["header"]["format_version"] != 1:
            raise ValueError(f"format_version {export['header']['format_version']}, this checker reads 1")
        engine = Engine(argv[1:], export["header"]["hello"])
    except (OSError, ValueError, KeyError, TypeError, Failed) as exc:
        print(f"check_export.py: {argv[0]}: not an export this checker reads, or its engine failed the handshake: {exc!r}", file=sys.stderr)
        return 2
    counts: Counter[str] = Counter()
    for sc in export["scenarios"]:
        try:
            why = unsupported(sc, engine.hello)
            if why is None:
                Judge(export, sc, engine).run()
            outcome = "SKIP" if why else "PASS"
        except Skipped as exc:
            outcome, why = "SKIP", str(exc)
        except Failed as exc:
            outcome, why = "FAIL", str(exc)
            if str(exc).startswith("no reply"):  # out of step with the engine, or it died: a fresh one
                with contextlib.suppress(Failed, OSError):
                    engine.start()
        counts[outcome] += 1
        print(f"{outcome} {sc['id']}" + (f": {why}" if why else ""))
    engine.close()
    n = len(export["scenarios"])
    print(f"{n} scenario{'' if n == 1 else 's'}: {counts['PASS']} passed, {counts['FAIL']} failed, {counts['SKIP']} unsupported")
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
