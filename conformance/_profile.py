"""`gostop-conformance profile`: which house rules an engine plays, learnt from its behaviour.

For every option but the deck and the deal's shape (STRUCTURAL, which an engine declares), the
scenarios whose outcome depends on it most sharply (scenarios/dependencies.yaml) are run on the
engine as written, once each. The same requests are then played by the reference engine under
every probed value of the option, everything else as the scenario has it. The values under which
the reference engine gives exactly the engine's observable replies (states compared as scenarios
compare them, legal actions, scores, settlements and what a round hands to the next; not the
event log) are the values the engine behaves like in that scenario:

- some values fit: the scenario is conclusive and votes for them;
- every value fits: what depends on the option is not in the engine's replies (inconclusive);
- no value fits, and the engine's first difference from the reference is at a reply where the
  option's values differ too: the engine plays something the option does not model there, or has
  a bug in it (unexplained);
- no value fits, but the engine differs first where the option plays no part: another of its
  rules is at work (elsewhere), which says nothing of this option.

The engine's value is the one the conclusive scenarios agree on (several values when the corpus
cannot tell them apart), per player count where the counts part (go_threshold 7 with two players, 3
with three); "inconsistent" with the majority's value and the counts when conclusive plays
disagree, or an unexplained play contradicts them (never declared, nor confident); "no modelled
value fits" when only unexplained scenarios (never random rounds alone) are left: a lead to a rule
no option models or a bug, which may be another option's (a forced bomb shows in every option a
bomb decides); "the value it is sent" when every conclusive scenario fits its own value and, with
one player count, two values sent were told apart (a play sent each fits it and not the other): the
engine is configured by the options, as a declaration of "all" says. Plays that fit the value they
were sent and others too do not show it (an engine that fixes pi_bak_max_units at 7 fits every play
sent 7 that no value from 7 to 9 changes); the finding is then the values that fit. A play no value
fits makes any finding inconsistent, this one too. Outcomes are compared by name as well as by
amount: which rule events a reply names, each loser's baks. A deal the engine refuses is no
evidence.

An engine with several house rules may fail an option's scenarios through another of them: a
second pass replays every scenario with the values found clearly (every conclusive play agreeing,
two at least) for the other options. An option still undecided (the engine declines its scenarios,
or they differ elsewhere first) is played in targeted random rounds of the base ruleset, judged the
same way. `declaration()` turns the result into a hello declaration: a named ruleset with the
values found as its exceptions.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from gostop_conformance.harness import _jobs
from gostop_conformance.harness._declaration import DeclarationError, Verdicts, parse
from gostop_conformance.harness._dependencies import Dependencies
from gostop_conformance.harness._differ import normal_legal, normal_state, pile_key
from gostop_conformance.harness._engine import Engine, EngineError, ReferenceEngine, restart
from gostop_conformance.harness._fuzz import NOT_FUZZED
from gostop_conformance.harness._probes import probe_values
from gostop_conformance.harness._runner import run_scenario
from gostop_conformance.harness._scenarios import Scenario
from gostop_conformance.reference import SplitMix64, seeded_deal
from gostop_conformance.spec import InputError, Options, counted, load_ruleset, option_registry, show_value

Json = dict[str, Any]

#: conclusive plays sought per option, from the scenarios that separate its values best (the fewest
#: passing values first), tried PER_OPTION at a time and at most MAX_TRIED of them
PER_OPTION: Final = 8
MAX_TRIED: Final = 32
#: random rounds played for an option no scenario decides (targeted fuzzing)
TARGETED_ROUNDS: Final = 30
#: the deck and the deal's shape: an engine declares them (its deals are refused otherwise); they are
#: not house rules to find by playing
STRUCTURAL: Final = NOT_FUZZED
#: the match's length: the harness counts the rounds of a match (conformance._runner,
#: R-MATCH-ROUNDS); no reply of an engine depends on them, so no play can tell their values apart
HARNESS_ONLY: Final = frozenset({"match_rounds", "match_target_points"})
#: conclusive plays below which a value found is only a lead to check, left out of the declaration
WEAK: Final = 2
#: the verdict where no modelled value reproduces the engine's plays: a lead, never a declared value
NO_FIT: Final = "no modelled value fits: a rule no option models, or a bug (see the unexplained plays)"


@dataclass
class OptionProfile:
    """What the engine's behaviour says of one option."""

    option: str
    values: tuple[Any, ...] | None  # the values it behaves like; () none of the modelled ones; None undecided
    scenarios: list[str] = field(default_factory=list)  # the conclusive scenarios
    inconclusive: list[str] = field(default_factory=list)  # every value fits, or the engine could not play it
    unexplained: list[str] = field(default_factory=list)  # no value fits where the values differ: a rule or bug of the engine
    #: no value fits, but the engine differs first where the option plays no part: another of its rules
    elsewhere: list[str] = field(default_factory=list)
    #: the engine played, in every conclusive scenario, the value that scenario sent, and plays
    #: sending two values of one player count told them apart (`followed`)
    follows: bool = False
    #: per player count, the values sent that plays told apart and the engine played each as sent:
    #: the evidence of `follows` (and what a declaration is checked against)
    followed: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    #: how many conclusive scenarios agree with the values found (the confidence)
    votes: int = 0
    #: conclusive plays the value they sent does not explain: the engine plays its own value
    overruled: int = 0
    #: what the plays were: the corpus's scenarios, or targeted random rounds when none decided
    plays: str = "scenarios"
    #: the values found per player count, where the counts disagree (go_threshold 7 with two
    #: players, 3 with three); `values` then holds them all
    by_players: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    #: conclusive plays disagree beyond what the player count explains: `values` is the
    #: majority's, reported with its evidence and not declared
    inconsistent: bool = False
    #: the player counts of the conclusive plays: a value found only with two players says nothing
    #: of three (go_threshold is 7 with two, 3 with three)
    players: tuple[int, ...] = ()
    #: per player count, the values most of its conclusive plays fit (what an inconsistent finding
    #: is checked against a declaration by)
    majority: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    #: per player count, the values each conclusive play fits (what an engine's own declaration is
    #: weighed by where the evidence is inconsistent)
    fits: dict[int, tuple[tuple[Any, ...], ...]] = field(default_factory=dict)

    @property
    def verdict(self) -> str:
        if self.follows:
            # a play where the engine fit no value contradicts following as much as a fixed value
            return "inconsistent: mostly the value it is sent" if self.inconsistent else "the value it is sent"
        if self.values is None:
            return "undecided (no play tells its values apart for this engine)"
        if not self.values:
            return NO_FIT
        if self.by_players:
            return "; ".join(f"{n} players: {' or '.join(_shown(v) for v in values)}" for n, values in sorted(self.by_players.items()))
        found = " or ".join(_shown(v) for v in self.values)
        return f"inconsistent: mostly {found}" if self.inconsistent else found

    @property
    def weak(self) -> bool:
        """A finding from fewer than WEAK plays (conclusive or unexplained): not declared, only reported."""
        return self.values is not None and not self.follows and len(self.scenarios) + len(self.unexplained) < WEAK

    @property
    def declarable(self) -> bool:
        """Whether the finding may go into a declaration: a value found, or the values sent
        followed, consistently, by more than one play."""
        return (self.follows or (bool(self.values) and not self.weak)) and not self.inconsistent

    @property
    def confidence(self) -> str:
        text = f"{self.votes} of {len(self.scenarios)} {self.plays}" if self.scenarios else f"no conclusive {self.plays}"
        if self.follows:
            told = "; ".join(f"{n} players: {', '.join(_shown(v) for v in values)}" for n, values in sorted(self.followed.items()))
            text += f" (values told apart and played as sent: {told})"
        text += " (weak: a lead to check)" if self.weak else ""
        text += f", {len(self.unexplained)} unexplained" if self.unexplained else ""
        return text + (f", {len(self.elsewhere)} differ elsewhere first" if self.elsewhere else "")


#: the events that name a rule's outcome (what was made, who pays and why), compared by kind: an
#: engine that doubles a loser as pi-bak where the rules say meong-bak pays the same amount for
#: another reason, and must not be taken for playing the other rule
NAMED_EVENTS: Final = frozenset(
    {"jjok", "ttadak", "sweep", "ppeok", "stack_capture", "three_ppeok", "shake", "bomb", "chongtong", "table_four", "redeal", "award"}
)


def _shown(value: Any) -> str:
    """A value as the spec writes it; a value that reads as "nothing" (`none`, `off`, an empty set)
    quoted, so that it is never taken for "no modelled value fits"."""
    text = show_value(value)
    return f'"{text}"' if text in ("none", "off", "[]") else text


def _observed(transcript: Sequence[tuple[str, Json, Json]], rules: Options, handed: bool = True, named: bool = True) -> list[Any]:
    """The observable part of each reply, in order: what a player would notice (and what a round
    hands to the next, when `handed`: only for an engine that reports it), outcomes by name as
    well as by amount: each loser's baks, and the kinds of the rule events of a reply (when
    `named`: only for an engine that reports rule events at all)."""
    out: list[Any] = []
    for kind, _, reply in transcript:
        if "error" in reply:
            err = reply.get("error")
            out.append(("error", err.get("code") if isinstance(err, dict) else None))
        elif kind in ("new_game", "act"):
            # which rule outcomes the reply names, not how many events it spends on one (an engine
            # may report only the chongtong holder who wins)
            kinds = sorted({str(e.get("kind")) for e in reply.get("events") or [] if isinstance(e, dict) and e.get("kind") in NAMED_EVENTS})
            out.append((normal_state(reply.get("state", {}), rules), kinds if named else []))
        elif kind == "legal":
            out.append(("legal", normal_legal(reply), reply.get("player")))
        elif kind == "score":
            settlement = reply.get("settlement") or {}
            nxt = (reply.get("next") or {}) if handed else {}
            baks = sorted(
                (loser.get("seat"), tuple(sorted(map(str, loser.get("baks") or []))))
                for loser in settlement.get("losers") or []
                if isinstance(loser, dict)
            )
            out.append(
                (
                    "score",
                    [s.get("base") for s in reply.get("scores") or []],
                    {k: settlement.get(k) for k in ("kind", "winner", "net")},
                    baks,
                    {k: nxt.get(k) for k in ("dealer", "nagari_streak", "carried_multiplier", "counts_as_round")},
                )
            )
    return out


def _replayed(requests: Sequence[tuple[str, Json]]) -> list[tuple[str, Json, Json]]:
    """The reference engine's replies to the very requests the engine was sent."""
    engine = ReferenceEngine()
    out: list[tuple[str, Json, Json]] = []
    for kind, request in requests:
        if kind == "new_game":
            reply = engine.new_game(request["ruleset"], request["deal"])
        elif kind == "act":
            reply = engine.act(request)  # the runner records an act by its action
        elif kind == "legal":
            reply = engine.legal()
        else:
            reply = engine.score()
        out.append((kind, request, reply))
    return out


@dataclass(frozen=True)
class _Evidence:
    """One play of the engine (a scenario, or a targeted random round) and how to play the same
    requests under another value of the option: `variant(value)` gives the options it then runs
    under, as Options for comparing and as the ruleset a new_game sends (None: no valid ruleset)."""

    label: str
    transcript: list[tuple[str, Json, Json]]
    own: Any
    variant: Callable[[Any], tuple[Options, Json] | None]
    players: int = 2


def profile(
    engine: Engine,
    corpus: Sequence[Scenario],
    dependencies: Mapping[str, Dependencies],
    options: Sequence[str] = (),
    progress: Callable[[str], None] | None = None,
    base: str | None = None,
    rounds: int = TARGETED_ROUNDS,
    jobs: int = 1,
    spawn: Callable[[], Engine] | None = None,
    undeclared: Mapping[str, frozenset[str]] | None = None,
) -> list[OptionProfile]:
    """The profile of every option (or of `options`): from the scenarios that depend on it, and,
    for an option they leave undecided, from `rounds` targeted random rounds of `base`.

    `undeclared` gives, per scenario, the options the engine's own hello leaves unsupported or
    unknown for it: a scenario that depends on one of them besides the option profiled is no
    evidence for that option (the engine may play the other one anyhow), only inconclusive.

    With `jobs` > 1 the options are profiled by that many worker processes, each with an engine
    started by `spawn` (each plays the scenarios its options need; an engine plays a scenario the
    same whichever process sends it): the profiles come back in the options' order, the same as
    one job's."""
    registry = option_registry()
    names = list(options) or [o for o in registry if o not in STRUCTURAL and o not in HARNESS_ONLY]
    with contextlib.ExitStack() as stack:
        if jobs > 1 and spawn is not None:
            shared = {
                "corpus": list(corpus),
                "dependencies": dict(dependencies),
                "base": base,
                "rounds": rounds,
                "undeclared": dict(undeclared or {}),
            }
            workers = stack.enter_context(_jobs.Workers(jobs, spawn, shared))

            def each(decided: Mapping[str, Any]) -> Iterator[OptionProfile]:
                return workers.ordered(_option_task, ((name, dict(decided)) for name in names))

        else:
            engine_runs: dict[str, list[tuple[str, Json, Json]] | None] = {}
            by_id = {sc.id: sc for sc in corpus}

            def each(decided: Mapping[str, Any]) -> Iterator[OptionProfile]:
                return (_option(engine, name, by_id, dependencies, base, rounds, decided, engine_runs, undeclared or {}) for name in names)

        first = _pass(each({}), progress)
        # an engine with several house rules: a scenario another of them changes fits no value of this
        # option alone; played again with the values already found clearly for the others, it may
        decided = {p.option: _found_value(p) for p in first if p.values is not None and _clear(p)}
        if not decided:
            return first
        return _pass(each(decided), None)


#: a value found per player count, as the second pass gives it to the other options' replays
ByPlayers = dict[int, Any]


def _found_value(p: OptionProfile) -> Any:
    """The value a clear finding gives the second pass: one value, or one per player count."""
    assert p.values is not None
    return ByPlayers({n: values[0] for n, values in p.by_players.items()}) if p.by_players else p.values[0]


def _in_context(context: Mapping[str, Any], players: int) -> dict[str, Any]:
    """The values found for the other options, those found per player count taken for `players`
    (left out where that count has none)."""
    out: dict[str, Any] = {}
    for name, value in context.items():
        if isinstance(value, dict):
            if players in value:
                out[name] = value[players]
        else:
            out[name] = value
    return out


def _clear(p: OptionProfile) -> bool:
    """A value found by every conclusive play (two at least), and played where another was sent:
    a house value, not the value every play happened to send (an engine configured by the
    options plays what it is sent, and a second pass must not override that)."""
    if p.values is None or p.follows or p.inconsistent or not p.values:
        return False
    # several values fitting every play cannot be told apart by the corpus: any of them is the engine's there
    return p.votes == len(p.scenarios) >= 2 and (p.overruled > 0 or bool(p.by_players))


def _pass(found: Iterator[OptionProfile], progress: Callable[[str], None] | None) -> list[OptionProfile]:
    out: list[OptionProfile] = []
    for p in found:
        if progress:
            progress(p.option)
        out.append(p)
    return out


def _option_task(worker: dict[str, Any], item: tuple[str, dict[str, Any]]) -> OptionProfile:
    """One option in a worker process (conformance._jobs): its engine's runs of the scenarios are
    kept for the next options it is given."""
    name, decided = item
    by_id = worker.setdefault("by_id", {sc.id: sc for sc in worker["corpus"]})
    runs = worker.setdefault("engine_runs", {})
    return _option(
        worker["engine"], name, by_id, worker["dependencies"], worker["base"], worker["rounds"], decided, runs, worker["undeclared"]
    )


def _option(
    engine: Engine,
    name: str,
    by_id: Mapping[str, Scenario],
    dependencies: Mapping[str, Dependencies],
    base: str | None,
    rounds: int,
    decided: Mapping[str, Any],
    engine_runs: dict[str, list[tuple[str, Json, Json]] | None],
    undeclared: Mapping[str, frozenset[str]] | None = None,
) -> OptionProfile:
    """The profile of one option, the values in `decided` taken for the others."""
    context = {k: v for k, v in decided.items() if k != name}
    candidates = [sid for sid, dep in dependencies.items() if sid in by_id and dep.depends_on(name)]
    # a scenario that also depends on an option the engine does not declare is no evidence for this one
    doubtful = [sid for sid in candidates if any(o != name and dependencies[sid].depends_on(o) for o in (undeclared or {}).get(sid, ()))]
    candidates = [sid for sid in candidates if sid not in doubtful]
    candidates.sort(key=lambda sid: (len(dependencies[sid].passes[name]), len(dependencies[sid].passes), sid))
    candidates = _spread(candidates, lambda sid: show_value(by_id[sid].resolved_options[name]))
    items: list[_Evidence] = []

    def play(sids: Sequence[str]) -> None:
        for sid in sids:
            sc = by_id[sid]
            if sid not in engine_runs:
                engine_runs[sid] = _engine_run(engine, sc)
            transcript = engine_runs[sid]
            if transcript:
                items.append(_Evidence(sid, transcript, sc.resolved_options[name], _scenario_variant(sc, name, context), sc.rules.players))

    tried = 0
    while True:
        play(candidates[tried : tried + PER_OPTION])
        tried = min(len(candidates), tried + PER_OPTION)
        found = _weigh(name, items, [sid for sid in candidates[:tried] if not engine_runs.get(sid)] + doubtful[:PER_OPTION])
        # most of the best-separating scenarios may say nothing of this engine (it cannot play them,
        # or every value fits): a value found from the few that do is checked against more, so that a
        # rule the options do not model shows as disagreeing plays rather than as a confident value
        if len(found.scenarios) + len(found.unexplained) >= PER_OPTION or tried >= min(len(candidates), MAX_TRIED):
            break
    telling = _telling(found, candidates[tried:], by_id, name)
    if telling:
        play(telling)
        found = _weigh(name, items, [sid for sid in candidates[:tried] + telling if not engine_runs.get(sid)] + doubtful[:PER_OPTION])
    if found.values is None and base is not None and rounds:
        found = _weigh(name, _targeted(engine, name, base, rounds, context, engine_runs), [], plays="random rounds")
    return found


def _telling(found: OptionProfile, rest: Sequence[str], by_id: Mapping[str, Scenario], name: str) -> list[str]:
    """The scenarios not yet tried that could tell following the value sent from a fixed value
    (_followed), when every conclusive play fit the value it was sent and none told two apart:
    those sending another value with a player count already played (PER_OPTION at most). The
    sharpest scenarios of pi_bak_max_units send 7 with two players and 5 with three, which fit
    the reference engine and gostop-ts's 7 and 5 hard-coded by count alike; three send 5 with two."""
    if not found.scenarios or found.follows or found.overruled:
        return []
    played = {(by_id[sid].rules.players, _key(by_id[sid].resolved_options[name])) for sid in found.scenarios if sid in by_id}
    counts = {n for n, _ in played}

    def sent(sid: str) -> tuple[int, str]:
        return by_id[sid].rules.players, _key(by_id[sid].resolved_options[name])

    return [sid for sid in rest if sent(sid)[0] in counts and sent(sid) not in played][:PER_OPTION]


def _spread(ranked: Sequence[str], sent: Callable[[str], str]) -> list[str]:
    """The scenarios in turns across the values they send, each value's sharpest first: when the
    sharpest scenarios all send one value, an engine that follows whatever it is sent could not be
    told from one that always plays that value (a corpus growing in one value must not change
    what the profile concludes)."""
    groups: dict[str, list[str]] = {}
    for sid in ranked:
        groups.setdefault(sent(sid), []).append(sid)
    out: list[str] = []
    for turn in range(max((len(g) for g in groups.values()), default=0)):
        out += [g[turn] for g in groups.values() if turn < len(g)]
    return out


def _weigh(name: str, items: Sequence[_Evidence], unplayable: Sequence[str], plays: str = "scenarios") -> OptionProfile:
    """What the evidence says of the option (module docstring)."""
    spec = option_registry()[name]
    found = OptionProfile(name, None, inconclusive=list(unplayable), plays=plays)
    values_of: dict[str, Any] = {}
    always_own = True
    conclusive: list[tuple[int, set[str]]] = []  # per conclusive play: its player count, the values that fit it
    sent_by: list[tuple[int, str, set[str]]] = []  # per conclusive play: its player count, the value sent, the values that fit
    for item in items:
        values = probe_values(spec, item.own)
        values_of.update((_key(value), value) for value in values)
        seen, replies, matching = _fits(item, values)
        if not matching:
            # no value reproduces what the engine did; it says something of this option only if
            # the engine's first difference is where the option's values differ too
            if _implicated(seen or [], replies, _key(item.own)):
                found.unexplained.append(item.label)
            else:
                found.elsewhere.append(item.label)
            continue
        if matching == set(replies):  # every value does: what depends on the option is not in the engine's replies
            found.inconclusive.append(item.label)
            continue
        found.scenarios.append(item.label)
        own = _key(item.own)
        always_own = always_own and own in matching
        found.overruled += own not in matching
        conclusive.append((item.players, matching))
        sent_by.append((item.players, own, matching))
    if found.unexplained and not found.scenarios:
        # no play fits a modelled value; random rounds, where many rules meet, never conclude that alone
        found.values = () if plays == "scenarios" else None
    elif found.scenarios:
        _decide(found, conclusive, values_of)
        # an engine that is configured by what it is sent plays each play's own value: it has no
        # house value of the option to find, but only plays that tell the values sent apart show it
        # (every play fitting the value it was sent proves nothing where it fits the others too)
        followed = _followed(sent_by) if always_own else {}
        found.follows = bool(followed)
        if found.follows:
            found.followed = {n: tuple(values_of[k] for k in values_of if k in keys) for n, keys in sorted(followed.items())}
            # plays fitting the different values they were sent are what following is, not a
            # disagreement (_decide's majority): every conclusive play agrees with it
            found.votes, found.inconsistent = len(conclusive), False
        # a play that fits no value where this option's values differ contradicts the value found as
        # much as a play that fits another value does: the engine plays a rule the option does not
        # model (go-stop-python's hand_chongtong, asked once before the first turn, fits
        # instant_win_or_continue where the holder declares at once and no value where it waits);
        # it contradicts following what the engine is sent as much (it did not, there)
        found.inconsistent = found.inconsistent or bool(found.unexplained)
    return found


def _followed(plays: Sequence[tuple[int, str, set[str]]]) -> dict[int, set[str]]:
    """Per player count, the values sent that the plays show the engine following: two values a
    and b are told apart when a play sent a fits a and not b, and a play sent b fits b and not a
    (each play's outcome differs between the two, and each matched the value it was sent). Only
    within a player count: an engine that fixes a value per count (gostop-ts's pi_bak_max_units,
    7 with two players and 5 with three, which no play of two players told from 8 or 9) fits the
    value each count sends without following any."""
    out: dict[int, set[str]] = {}
    for n in sorted({m for m, _, _ in plays}):
        at = [(own, fits) for m, own, fits in plays if m == n]
        sent = sorted({own for own, _ in at})

        def apart(a: str, b: str, at: list[tuple[str, set[str]]] = at) -> bool:
            return any(own == a and a in fits and b not in fits for own, fits in at)

        for i, a in enumerate(sent):
            for b in sent[i + 1 :]:
                if apart(a, b) and apart(b, a):
                    out.setdefault(n, set()).update((a, b))
    return out


def _fits(item: _Evidence, values: Sequence[Any]) -> tuple[list[Any] | None, dict[str, list[Any]], set[str]]:
    """A play against each value: what the engine showed (under its own value's rules), what the
    reference shows under each value, by value, and the values whose replays show the same."""
    seen = None
    handed = any(kind == "score" and "next" in reply for kind, _, reply in item.transcript)
    named = _reports_rule_events(item.transcript)
    replies: dict[str, list[Any]] = {}
    matching: set[str] = set()
    seen_as: dict[tuple[Any, ...], list[Any]] = {}  # the engine's replies, by how the rules see cards
    for value in values:
        key = _key(value)
        variant = item.variant(value)
        if variant is None:
            continue
        rules, ruleset = variant
        # the engine's replies seen as this value's rules see cards (a value may make two
        # cards equivalent, R-DEC-RIBBON's junk): compared under the same rules as the replay
        view = pile_key(rules)
        if view not in seen_as:
            seen_as[view] = _observed(item.transcript, rules, handed, named)
        engine_seen = seen_as[view]
        if seen is None or key == _key(item.own):
            seen = engine_seen
        requests = [(kind, _sent_as(request, ruleset)) for kind, request, _ in item.transcript]
        replies[key] = _observed(_replayed(requests), rules, handed, named)
        if replies[key] == engine_seen:
            matching.add(key)
    return seen, replies, matching


def _majority(plays: Sequence[set[str]], order: Sequence[str]) -> tuple[list[str], int]:
    """The values the most plays fit, and how many plays that is."""
    votes = {k: sum(k in fits for fits in plays) for k in order}
    best = max(votes.values(), default=0)
    return [k for k in order if votes[k] == best and best], best


def _decide(found: OptionProfile, conclusive: Sequence[tuple[int, set[str]]], values_of: Mapping[str, Any]) -> None:
    """The values the conclusive plays agree on: per player count where the counts part (a value
    that only one count's plays fit, and each count's plays agree); "inconsistent" where plays of
    one count disagree (their majority reported, nothing declared); no modelled value fits where
    no value has a majority."""
    order = list(values_of)
    counts = sorted({n for n, _ in conclusive})
    found.players = tuple(counts)
    per_count = {n: _majority([fits for m, fits in conclusive if m == n], order) for n in counts}
    found.majority = {n: tuple(values_of[k] for k in winners) for n, (winners, _) in per_count.items()}
    for n in counts:
        found.fits[n] = tuple(tuple(values_of[k] for k in order if k in fits) for m, fits in conclusive if m == n)
    if len(counts) > 1 and all(per_count[n][1] == sum(m == n for m, _ in conclusive) for n in counts):
        winners = {n: set(per_count[n][0]) for n in counts}
        if not set.intersection(*winners.values()):
            found.by_players = {n: tuple(values_of[k] for k in per_count[n][0]) for n in counts}
            found.values = tuple(values_of[k] for k in order if any(k in w for w in winners.values()))
            found.votes = len(conclusive)
            return
    winners_all, best = _majority([fits for _, fits in conclusive], order)
    found.votes = best
    if 2 * best <= len(conclusive):
        found.values = ()  # no value has a majority: the engine plays something the options do not model
        return
    found.values = tuple(values_of[k] for k in winners_all)
    # one play may disagree where another of the engine's house rules, or a bug, happens to look
    # like another value of this option: say so rather than a confident value
    found.inconsistent = best < len(conclusive)


def _reports_rule_events(transcript: Sequence[tuple[str, Json, Json]]) -> bool:
    return any(isinstance(e, dict) and e.get("kind") in NAMED_EVENTS for _, _, reply in transcript for e in reply.get("events") or [])


def _implicated(seen: Sequence[Any], replies: Mapping[str, Sequence[Any]], own: str) -> bool:
    """Whether the engine departs from the reference (under the play's own value) exactly where
    the option's values first part (or the own value could not be replayed). Where the values
    part earlier, the engine went the own value's way there, and its later difference is another
    rule's; where they part only later, nothing of this option was at stake yet."""
    reference = replies.get(own)
    if reference is None:
        return True

    def first_difference(a: Sequence[Any], b: Sequence[Any]) -> int:
        return next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))

    engine_departs = first_difference(seen, reference)
    values_part = min((first_difference(observed, reference) for key, observed in replies.items() if key != own), default=-1)
    return values_part == engine_departs


def _sent_as(request: Json, ruleset: Json) -> Json:
    """A new_game request with another ruleset; any other request as it was."""
    return {**request, "ruleset": ruleset} if "ruleset" in request else request


def _scenario_variant(sc: Scenario, name: str, context: Mapping[str, Any]) -> Callable[[Any], tuple[Options, Json] | None]:
    own = _in_context(context, sc.rules.players)

    def variant(value: Any) -> tuple[Options, Json] | None:
        for changes in ({**own, name: value}, {name: value}):  # the engine's other values if they go together
            try:
                other = sc.reconfigured(sc.ruleset, changes)
            except InputError:
                continue
            return other.rules, other.ruleset_json()
        return None

    return variant


def _targeted(
    engine: Engine, name: str, base: str, rounds: int, context: Mapping[str, Any], played: dict[str, list[tuple[str, Json, Json]] | None]
) -> list[_Evidence]:
    """Random rounds of `base` played by the engine (its own legal actions chosen by the seed),
    as evidence for `name`: the reference then replays each under every value of the option. The
    rounds are the same for every option: each is played once (`played` keeps it, as it keeps
    the scenarios the engine ran)."""
    rs = load_ruleset(base)
    items: list[_Evidence] = []
    for seed in range(1, rounds + 1):
        label = f"random round {seed} of {base}"
        if label not in played:
            played[label] = _random_round(engine, rs, seed)
        transcript = played[label]
        if transcript is None:
            continue

        def variant(value: Any, rs: Any = rs) -> tuple[Options, Json] | None:
            for changes in ({**_in_context(context, rs.options.players), name: value}, {name: value}):
                try:
                    other = rs.with_overrides(changes, "profile")
                except InputError:
                    continue
                return other.options, {"id": other.id, "options": other.options.as_json()}
            return None

        items.append(_Evidence(label, transcript, rs.options.as_json()[name], variant, rs.options.players))
    return items


def _random_round(engine: Engine, rs: Any, seed: int) -> list[tuple[str, Json, Json]] | None:
    """One random round of the ruleset `rs` as the engine plays it, its actions chosen among its
    own legal ones by the seed; None when the engine failed (it is started again)."""
    rng = SplitMix64(seed * 7919 + 17)
    deal = seeded_deal(rs.options, rng, dealer=rng.below(rs.options.players)).to_json()
    ruleset = {"id": rs.id, "options": rs.options.as_json()}
    transcript: list[tuple[str, Json, Json]] = []
    try:
        transcript.append(("new_game", {"ruleset": ruleset, "deal": deal}, engine.new_game(ruleset, deal)))
        for _ in range(60):
            legal = engine.legal()
            transcript.append(("legal", {}, legal))
            actions = legal.get("actions") or []
            if legal.get("decision") == "none" or not actions:
                break
            action = actions[rng.below(len(actions))]
            transcript.append(("act", action, engine.act(action)))
        transcript.append(("score", {}, engine.score()))
    except EngineError:
        restart(engine)
        return None
    return transcript


def _key(value: Any) -> str:
    return repr(value)


def _engine_run(engine: Engine, sc: Scenario) -> list[tuple[str, Json, Json]] | None:
    try:
        result = run_scenario(engine, sc)
    except EngineError:
        return None
    if result.outcome in ("CRASH", "TIMEOUT", "PROTOCOL"):
        restart(engine)  # a dead engine shows in the next scenario
        return None
    if result.outcome == "UNSUPPORTED":  # the engine refused the deal: it played nothing to learn from
        return None
    return list(result.transcript)


def declaration(found: Sequence[OptionProfile], bases: Sequence[str] | str, hello: Json | None = None) -> Json:
    """A hello declaration for what was found: each of `bases` (the rulesets the engine claims, one
    per player count it plays) except for every option decided to other values than that base's,
    per player count where the counts part. An option the evidence leaves inconsistent keeps the
    engine's own declaration where most plays agree with it, and is declared unsupported where they
    do not (or there is no hello). What playing cannot find is kept from the engine's own `hello`: its declaration of
    the deck and the deal's shape, of a match's length, of the options the profile leaves
    undecided, finds only weakly, or that no modelled value fits (a lead to read, which may be
    another option's bug); its features and positions."""
    decided = {p.option: p for p in found if p.follows or (p.values and not p.weak)}
    claims: list[Any] = []
    for base in [bases] if isinstance(bases, str) else bases:
        own = load_ruleset(base).options.as_json()
        exceptions: Json = {name: v for name, v in _claimed(hello, base).items() if name not in decided}
        for p in decided.values():
            if p.follows and not p.inconsistent:
                exceptions[p.option] = "all"
            elif p.inconsistent and (own["players"] in p.players):
                # the evidence cannot confirm a value: the engine's own declaration stands where most
                # plays agree with it, and is doubted (unsupported) where they do not
                mine = _claimed(hello, base)
                claimed = mine.get(p.option, [own[p.option]])
                # "most plays": more than half of this player count's conclusive plays fit one of the
                # values the engine claims, even where another value fits more (a value that fits every
                # play, as an empty set often does, would otherwise outvote a claim most plays confirm)
                plays = p.fits.get(own["players"], ())
                confirmed = sum(any(_same(v, c) for v in fits for c in claimed) for fits in plays) if isinstance(claimed, list) else 0
                agrees = claimed == "all" or 2 * confirmed > len(plays)
                if hello and agrees:
                    if p.option in mine:
                        exceptions[p.option] = mine[p.option]
                else:
                    exceptions[p.option] = "unsupported"
            elif p.by_players or own["players"] in p.players:
                values = p.by_players.get(own["players"]) if p.by_players else p.values
                if values is not None and own[p.option] not in values:
                    exceptions[p.option] = list(values)
            elif p.option in _claimed(hello, base):
                exceptions[p.option] = _claimed(hello, base)[p.option]  # found with another player count only
        claims.append({"id": base, "options": dict(sorted(exceptions.items()))} if exceptions else base)
    out: Json = {"rulesets": claims}
    for key in ("options", "features", "positions"):
        if hello and key in hello and (key != "options" or hello[key]):
            out[key] = {k: v for k, v in hello[key].items() if k not in decided} if key == "options" else hello[key]
    return out


def _same(a: Any, b: Any) -> bool:
    """Two option values alike, a set-valued option's members in any order."""
    if isinstance(a, list | tuple) and isinstance(b, list | tuple):
        return sorted(map(str, a)) == sorted(map(str, b))
    return bool(a == b)


def _claimed(hello: Json | None, base: str) -> Json:
    """The exceptions the engine's hello declares for `base` (empty when it claims it whole, or not)."""
    for claim in (hello or {}).get("rulesets") or []:
        if isinstance(claim, dict) and claim.get("id") == base and isinstance(claim.get("options"), dict):
            return dict(claim["options"])
    return {}


def findings(found: Sequence[OptionProfile]) -> list[Json]:
    """The profile as data (`profile` writes it as findings.json): per option the verdict, the
    values found (per player count where the counts part), whether it may be declared, and the
    plays behind it."""
    out: list[Json] = []
    for p in found:
        out.append(
            {
                "option": p.option,
                "verdict": p.verdict,
                "values": None if p.values is None else list(p.values),
                "by_players": {str(n): list(v) for n, v in sorted(p.by_players.items())},
                "players": list(p.players),
                "follows": p.follows,
                "followed": {str(n): list(v) for n, v in sorted(p.followed.items())},
                "declarable": p.declarable,
                "inconsistent": p.inconsistent,
                "weak": p.weak,
                "plays": p.plays,
                "conclusive": list(p.scenarios),
                "unexplained": list(p.unexplained),
                "elsewhere": list(p.elsewhere),
                "inconclusive": list(p.inconclusive),
            }
        )
    return out


def table(found: Sequence[OptionProfile], base: str) -> list[str]:
    """The profile as terminal lines: every option whose engine value differs from `base`'s or is
    not decided, then a count of the options that agree."""
    own = load_ruleset(base).options.as_json()
    lines = [f"{'option':32} {'the engine plays':40} {base + ' has':24} evidence"]
    agree = 0
    for p in found:
        if not p.inconsistent and (p.follows or (p.values and own[p.option] in p.values and not p.by_players)):
            agree += 1
            continue
        evidence = p.confidence
        lines.append(f"{p.option:32} {p.verdict[:40]:40} {show_value(own[p.option])[:24]:24} {evidence}")
    lines.append(
        f"{counted(agree, 'more option')} {'behaves' if agree == 1 else 'behave'} as {base} has them, "
        f"or {'follows' if agree == 1 else 'follow'} the value the engine is sent"
    )
    if not {p.option for p in found} & HARNESS_ONLY:
        lines.append(f"not profiled: {', '.join(sorted(HARNESS_ONLY))} (the harness counts a match's rounds, not the engine)")
    return lines


def undeclared(hello: Json, corpus: Sequence[Scenario], stored: Mapping[str, Dependencies]) -> dict[str, frozenset[str]]:
    """Per scenario, the options whose value there the engine's hello does not declare: unsupported,
    unknown, or declared with other values only (the engine plays another value of them, so the
    scenario says nothing of a third option); nothing for a hello whose declaration is not valid:
    the profile is how to find one."""
    try:
        verdicts = Verdicts(parse(hello), stored)
    except DeclarationError:
        return {}
    out: dict[str, frozenset[str]] = {}
    for sc in corpus:
        v = verdicts.of(sc)
        out[sc.id] = v.scenario.unjudged if v.scenario is not None else frozenset(n.option for n in v.needs)
    return out


def markdown(found: Sequence[OptionProfile], base: str, lines: Sequence[str]) -> str:
    """The profile as markdown (`profile` writes it as profile.md): the terminal lines of `table`,
    then every option's evidence by scenario."""
    detail = [
        "| option | the engine plays | evidence | conclusive | unexplained | differ elsewhere first | inconclusive |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for p in found:
        cells = [", ".join(p.scenarios) or "-", ", ".join(p.unexplained) or "-", str(len(p.elsewhere)), str(len(p.inconclusive))]
        detail.append(f"| `{p.option}` | {p.verdict} | {p.confidence} | " + " | ".join(cells) + " |")
    return "\n".join([f"## Profile against {base}", "", "```text", *lines, "```", "", *detail]) + "\n"
