"""`gostop-reference`: the reference engine's command line (thin: parses arguments, calls the library)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from gostop_conformance.reference._check import check_ruleset
from gostop_conformance.reference._match import Match, RandomPlayer
from gostop_conformance.reference._text import action_text, event_text, settlement_text, state_text
from gostop_conformance.spec import (
    EXIT_FAIL,
    EXIT_OK,
    EXIT_USAGE,
    InputError,
    Ruleset,
    counted,
    load_ruleset,
    load_ruleset_file,
    ruleset_ids,
    run_guarded,
)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="gostop-reference", description="The Go-Stop reference engine.")
    p.add_argument("--stdio", action="store_true", help="serve the engine protocol (spec/protocol/) on stdin/stdout")
    sub = p.add_subparsers(dest="command")
    play = sub.add_parser("play", help="play a seeded match with random players and print every turn")
    rules = play.add_mutually_exclusive_group()
    rules.add_argument("--ruleset", default="standard-3p", help="ruleset id (see `gostop-reference rulesets`)")
    rules.add_argument(
        "--ruleset-file",
        type=Path,
        default=None,
        help="a ruleset file of your own (house rules, docs/house-rules.md) instead of a named ruleset",
    )
    play.add_argument("--seed", type=int, default=1, help="match seed (deals and the random players)")
    play.add_argument("--rounds", type=int, default=None, help="stop after this many rounds (default: the whole match)")
    check = sub.add_parser("check", help="play random rounds of every ruleset, checking every invariant after every action")
    check.add_argument("--rounds", type=int, default=200, help="rounds per ruleset")
    check.add_argument("--seed", type=int, default=1, help="seed of the first round (the rounds of a ruleset follow from it)")
    check.add_argument("--ruleset", action="append", help="only these rulesets (repeatable)")
    sub.add_parser("rulesets", help="list the named rulesets")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    return run_guarded(_main, argv)


def _main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.stdio:
        from gostop_conformance.reference._server import serve

        return serve()
    if args.command is None:
        parser.error("a command (play, check, rulesets) or --stdio is required")
    try:
        if args.command == "rulesets":
            for rid in ruleset_ids():
                rs = load_ruleset(rid)
                print(f"{rid:18} {rs.title}")
            return EXIT_OK
        if args.command == "play":
            rs = load_ruleset(args.ruleset) if args.ruleset_file is None else load_ruleset_file(args.ruleset_file).ruleset
            return _play(rs, args.seed, args.rounds)
        return _check(args.ruleset or ruleset_ids(), args.rounds, args.seed)
    except InputError as exc:
        print(f"gostop-reference: error: {exc}", file=sys.stderr)
        return EXIT_USAGE


def _play(rs: Ruleset, seed: int, max_rounds: int | None) -> int:
    match = Match(rs, seed)
    player = RandomPlayer(seed)
    shown = rs.id if rs.file.startswith("spec/") else f"{rs.id} from {rs.file}"
    print(f"ruleset {shown} ({rs.title}, {rs.hash}), seed {seed}, first dealer P{match.dealer}")
    played = 0
    while not match.over and (max_rounds is None or played < max_rounds):
        rnd = match.new_round()
        played += 1
        print(f"\n=== round {played}: dealer P{rnd.dealer}, nagari streak {rnd.nagari_streak}")
        for e in rnd.deal_events:
            print("  " + event_text(e))
        print("\n".join(state_text(rnd)))
        while not rnd.over:
            action = player.choose(rnd)
            print(f"P{action.player}: {action_text(action)}")
            for e in rnd.apply(action):
                print("  " + event_text(e))
            if rnd.decision == "turn" and not rnd.over:
                print("\n".join(state_text(rnd)))
        assert rnd.settlement is not None
        match.record(rnd)
        print("\n".join(settlement_text(rnd.settlement)))
        print("totals: " + ", ".join(f"P{s} {t:+d}" for s, t in enumerate(match.totals)))
    if match.over:
        print(f"\nmatch over after {counted(played, 'round')}; winner(s): {', '.join(f'P{s}' for s in match.winners())}")
    return EXIT_OK


def _check(ids: Sequence[str], rounds: int, seed: int) -> int:
    failed = False
    print(f"{'ruleset':18} {'rounds':>7} {'actions':>8} {'checked/s':>9}  outcomes")
    for rid in ids:
        load_ruleset(rid)
        result = check_ruleset(rid, rounds, seed)
        outcomes = ", ".join(f"{k} {v}" for k, v in sorted(result.outcomes.items()))
        rate = result.rounds * 2 / result.seconds if result.seconds else 0.0
        print(f"{rid:18} {result.rounds:>7} {result.actions:>8} {rate:>9.0f}  {outcomes}")
        for problem in result.problems[:20]:
            print(f"  FAIL {problem}")
        failed = failed or bool(result.problems)
    print("all invariants held" if not failed else "invariant violations found")
    return EXIT_FAIL if failed else EXIT_OK
