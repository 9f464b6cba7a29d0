"""Differential fuzzing within the engine's declaration: random rounds played in lock-step on an
engine and on the reference engine, compared after every action as a scenario would compare them.

A case is drawn from the engine's declaration (conformance._declaration): one of its configurations
(a claimed ruleset with its exceptions, or its declared options), option values among the declared
ones, the deal (R-SHUFFLE, sent as an explicit deal) and every decision, all from the seed. With
`guided`, each decision prefers the actions whose consequences cite rule clauses the run has not
yet seen (the reference engine's rule-hit trace), so that rare interactions come up in thousands
of rounds rather than millions. A case is a list of choice indices, and shrinking works on that
list: cut after the divergence, options back to the configuration's own values, each choice
toward the first legal one, the stock cards never turned up in canonical order.

Every divergence is compared the way scenarios compare (equivalent cards as one, captured single
and double junk by units, events apart from outcomes) and filed in a class by what differs
(`signature`: the field path with the clauses the reference cites there; for legal actions, the
kinds of actions missing and extra). The first divergence of each class is shrunk (within its
class) and written as a scenario that is re-run before it is kept: under the engine's
declaration (a class whose scenario the declaration does not run, shrunk or as found, is a
difference in what the engine does not declare, counted apart), it must pass the reference and
fail the engine. The rest of the class is counted.
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import json
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final

import yaml

from gostop_conformance.harness import _jobs
from gostop_conformance.harness._compare import Mismatch
from gostop_conformance.harness._declaration import ANY, Declaration, Verdicts
from gostop_conformance.harness._differ import PLAYER_FIELDS, first_difference, normal_legal, player_states, same_legal
from gostop_conformance.harness._engine import Engine, EngineError, ReferenceEngine, planned, restart
from gostop_conformance.harness._probes import probe_values
from gostop_conformance.harness._runner import PASS, run_scenario
from gostop_conformance.harness._scenarios import load_corpus
from gostop_conformance.harness._trace import NEVER_TRACED, cited
from gostop_conformance.reference import Action, JsonEngine, SplitMix64, engine_version, seeded_deal
from gostop_conformance.spec import InputError, Options, counted, load_ruleset, option_registry, ruleset_from_json

Json = dict[str, Any]

#: options a case may vary when the engine plays every value: those whose values are a small closed set
FLIPPABLE: Final = ("bool", "enum")
#: options that change the deck or the deal's shape: a case takes them from the configuration only
NOT_FUZZED: Final = frozenset({"scoring_system", "players", "deal_layout", "deal_packet_order", "first_dealer", "bonus_cards"})
#: divergences of a class whose first rests on an undeclared value that are tried as well: one of
#: them may be within the declaration, and then the class is a divergence after all
OUTSIDE_RETRIES: Final = 3
#: a guided decision is random this often anyway, so that common paths are not starved
EXPLORE: Final = 0.25
#: whether the run compares the event log too (`fuzz --event-log`); scenarios hold it against an
#: engine only when it is their subject, so by default the fuzzer does not either
EVENT_LOG: Final[contextvars.ContextVar[bool]] = contextvars.ContextVar("event_log", default=False)


@dataclass(frozen=True)
class FuzzConfig:
    """One configuration of the engine to fuzz: the ruleset sent, the values each option may take
    (the first is the configuration's own), and what the engine leaves undecided."""

    label: str
    base: str
    values: Mapping[str, tuple[Any, ...]]
    undecided: tuple[str, ...] = ()


def fuzz_configurations(declaration: Declaration, rulesets: Sequence[str] = ()) -> list[FuzzConfig]:
    """The configurations a fuzz run plays: each claimed ruleset (narrowed to `rulesets` if given);
    for an engine that claims none, its declared options alone on the first named ruleset they fit
    (every option it leaves undeclared is then the ruleset's, and divergences say so)."""
    registry = option_registry()
    out: list[FuzzConfig] = []
    chosen = [c for c in declaration.configurations if c.base is not None] or list(declaration.configurations)
    for cfg in chosen:
        candidates = [cfg.base] if cfg.base is not None else list(rulesets or _ruleset_ids())
        for base in candidates:
            if rulesets and base not in rulesets:
                continue
            own = load_ruleset(base).options.as_json()
            values: dict[str, tuple[Any, ...]] = {}
            undecided: list[str] = []
            fits = True
            for name, spec in registry.items():
                support = cfg.of(name)
                if support is None:
                    undecided.append(name)
                    values[name] = (own[name],)
                elif support == ANY:
                    # every value the dependency probes try (the whole of a small domain, a spread
                    # of a wide one): an engine declaring "all" is played under all of them
                    others = [] if name in NOT_FUZZED else [v for v in probe_values(spec, own[name]) if v != own[name]]
                    values[name] = (own[name], *others)
                else:
                    assert isinstance(support, tuple)
                    allowed = ([own[name]] if own[name] in support else []) + [v for v in support if v != own[name]]
                    values[name] = tuple(allowed)
                    fits = fits and (name not in NOT_FUZZED or own[name] in support)
            if cfg.base is None and not fits:
                continue  # the declared options do not fit this named ruleset's deal: try the next
            label = cfg.label.split(" (except", 1)[0] + (
                f" (except {counted(cfg.label.count(',') + 1, 'option')})" if "(except" in cfg.label else ""
            )
            out.append(FuzzConfig(f"declared options on {base}" if cfg.base is None else label, base, values, tuple(undecided)))
            if cfg.base is None:
                break
    return out


def _ruleset_ids() -> list[str]:
    from gostop_conformance.spec import ruleset_ids

    return ruleset_ids()


@dataclass
class Case:
    ruleset: str
    deal: Json
    choices: list[int]
    options: Json = field(default_factory=dict)  # overrides of the ruleset's option values
    config: str = ""
    #: cards a guided run keeps in hand while it has another choice (a shaped deal's card for the
    #: round's last turn); the case itself is its choices, so the scenario written needs none of it
    reserve: tuple[str, ...] = ()

    def ruleset_json(self) -> Json:
        return _overridden(self.ruleset, json.dumps(self.options, sort_keys=True))[1]

    def rules(self) -> Options:
        return _overridden(self.ruleset, json.dumps(self.options, sort_keys=True))[0]


@functools.lru_cache(maxsize=1024)
def _overridden(ruleset: str, overrides: str) -> tuple[Options, Json]:
    """A ruleset with overrides (given as sorted JSON text), its options and the protocol's ruleset
    object: a run draws the same few combinations again and again, and writing one's options as
    JSON costs as much as the reference's playing a round. Resolved as a new_game's ruleset is
    (spec.ruleset_from_json, which keeps the resolutions it made)."""
    rs = ruleset_from_json({"id": ruleset, "options": json.loads(overrides)})
    return rs.options, {"id": rs.id, "options": rs.options.as_json()}


@dataclass
class Divergence:
    case: Case
    step: int  # index of the action after which the engines differ (-1: right after the deal; for legal actions: before it)
    what: str
    expected: Any
    actual: Any
    clauses: list[str]
    #: legal, state.<key>, players.<field>, events, rejection, settlement.<fields>, scores, engine error: <kind>
    category: str = ""
    caveat: str = ""

    @property
    def signature(self) -> tuple[str, ...]:
        """The divergence's class: what differs, never the cited clauses alone (a legal-action
        divergence cites none, and every legal-action bug of a ruleset once landed in one class):
        the field path with the clauses the reference cites there; for legal actions, the kinds
        of actions missing and extra; for a rejection, the two codes."""
        if self.category == "legal":
            return ("legal", *legal_difference(self.expected, self.actual))
        if self.category == "rejection":
            return ("rejection", _code(self.expected), _code(self.actual))
        if self.category.startswith("engine error"):
            return (self.category,)
        if self.category in ("state.decision", "state.to_act"):
            # who decides what: the decision each engine asks for, not every clause the action cited
            return (self.category, f"{self.expected} -> {self.actual}")
        if self.category == "scores" or self.category.startswith("settlement"):
            return (self.category,)  # a settlement cites all its rules: the amounts that differ say more
        return (self.category, *sorted(self.clauses))


def _action_kind(action: Any) -> str:
    """An action's kind for the class of a legal-action divergence: its type, and a shake, which
    makes it another declaration. A named table card does not: a card missing from the plays is
    one bug whether its month meets one table card or two."""
    if not isinstance(action, dict):
        return "not an action"
    return str(action.get("type")) + ("+shake" if action.get("shake") else "")


def legal_difference(expected: Any, actual: Any) -> tuple[str, ...]:
    """The kinds of actions the engine does not offer and those it offers besides the reference's
    (`missing play`, `extra skip`); `who acts` when the actions agree but not the player."""
    want = {key: a for a in (expected or []) if isinstance(a, dict) for key in [normal_legal({"actions": [a]}).pop()]}
    got = {key: a for a in (actual or []) if isinstance(a, dict) for key in [normal_legal({"actions": [a]}).pop()]}
    missing = sorted({_action_kind(a) for k, a in want.items() if k not in got})
    extra = sorted({_action_kind(a) for k, a in got.items() if k not in want})
    out = ([f"missing {', '.join(missing)}"] if missing else []) + ([f"extra {', '.join(extra)}"] if extra else [])
    return tuple(out) or ("who acts",)


def _code(reply_error: Any) -> str:
    return str(reply_error.get("code")) if isinstance(reply_error, dict) else "accepted"


@dataclass(frozen=True)
class Verification:
    """What re-running a written scenario showed: it passes the reference and fails the engine
    (`reproduces`); or the engine's declaration does not run it (`outside`, why), so that the
    divergence is in what the engine does not declare."""

    reproduces: bool
    outside: str | None = None


def random_case(seed: int, configs: Sequence[FuzzConfig], unseen: set[str] | None = None) -> Case:
    """A whole random round: a configuration, option values within it (those the configuration's own
    value is not declared for are always changed), the deal, and the choices, all from `seed`.
    Given the clauses a guided run has `unseen`, half the options changed are chosen among those
    whose clauses it has not seen, and half the deals are shaped (shaped_deal)."""
    rng = SplitMix64(seed)
    cfg = configs[rng.below(len(configs))]
    rs = load_ruleset(cfg.base)
    overrides: Json = {}
    own = rs.options.as_json()
    for name, values in cfg.values.items():  # the configuration's forced values first (its exceptions)
        if values and values[0] != own[name]:
            overrides[name] = values[rng.below(len(values))]
    variable = [name for name, values in cfg.values.items() if len(values) > 1]
    registry = option_registry()
    novel = [name for name in variable if unseen and set(registry[name].clauses) & unseen]
    for _ in range(rng.below(3)):
        if not variable:
            break
        pool = novel if novel and rng.below(2) else variable
        name = pool[rng.below(len(pool))]
        values = cfg.values[name]
        overrides[name] = values[rng.below(len(values))]
    try:
        options = _overridden(cfg.base, json.dumps(overrides, sort_keys=True))[0]
    except InputError:  # values that do not go together: the forced ones alone
        overrides = {k: v for k, v in overrides.items() if cfg.values[k][0] != own[k]}
        options = _overridden(cfg.base, json.dumps(overrides, sort_keys=True))[0]
    dealer = rng.below(options.players)
    deal = seeded_deal(options, rng, dealer=dealer).to_json()
    reserve: tuple[str, ...] = ()
    if unseen is not None and rng.below(2):
        first = dealer if options.first_player == "dealer" else (dealer + 1) % options.players
        deal, reserve = shaped_deal(deal, rng, last=(first + options.players - 1) % options.players)
    return Case(cfg.base, deal, [rng.below(1 << 16) for _ in range(200)], overrides, cfg.label, reserve)


#: deal shapes a guided run tries, one or two at once, each for one month: where its cards go
#: (a hand, the table, the last cards of the stock) and how many; the last puts one card in the hand
#: of the seat that takes the round's last turn (kept there by the guide), one on the table and one
#: last in the stock, for a ppeok on that turn (R-FINAL-PPEOK)
FINAL_TURN: Final = (("hand", 1), ("table", 1), ("stock_end", 1))
SHAPES: Final = (
    (("hand", 4),),
    (("hand", 3),),
    (("table", 4),),
    (("table", 3),),
    (("stock_end", 2),),
    FINAL_TURN,
)


def shaped_deal(deal: Json, rng: SplitMix64, last: int = 0) -> tuple[Json, tuple[str, ...]]:
    """The same cards in another arrangement (every arrangement is a shuffle, so the deal stays
    reachable): three or four cards of a month gathered in a hand or on the table, the last stock
    cards of one month, or a month spread for a last-turn ppeok; once or twice. Chongtong, two
    chongtong hands, shakes, bombs, table fours and last-turn ppeoks then come up in thousands of
    rounds, not millions. Also returns the cards to keep for the last turn (`last`: its seat)."""
    hands = [list(h) for h in deal["hands"]]
    table, stock = list(deal["table"]), list(deal["stock"])
    places: list[list[str]] = [*hands, table, stock]
    fixed: set[tuple[int, int]] = set()  # positions a shape has filled: the next one leaves them
    months = list(range(1, 13))
    reserve: list[str] = []
    for _ in range(1 + rng.below(2)):
        month = months.pop(rng.below(len(months)))
        cards = [c for place in places for c in place if c.startswith(f"m{month:02d}-")]
        hand = rng.below(len(hands))
        shape = SHAPES[rng.below(len(SHAPES))]
        if shape == FINAL_TURN:
            hand = last
        for where, count in shape:
            target = hand if where == "hand" else len(hands) if where == "table" else len(hands) + 1
            size = len(places[target])
            start = rng.below(size)
            order = list(range(size - 1, -1, -1)) if where == "stock_end" else [(start + k) % size for k in range(size)]
            slots = [k for k in order if (target, k) not in fixed][:count]
            for slot in slots:
                if not cards:
                    break
                card = cards.pop(0)
                i, j = next((i, place.index(card)) for i, place in enumerate(places) if card in place)
                places[i][j], places[target][slot] = places[target][slot], card
                fixed.add((target, slot))
                if shape == FINAL_TURN and where == "hand":
                    reserve.append(card)
    return {**deal, "hands": [sorted(h) for h in hands], "table": table, "stock": stock}, tuple(reserve)


def guide(case: Case, reference: JsonEngine, seen: set[str], seed: int) -> Case:
    """The same case, its choices made by the reference engine preferring actions whose events
    cite clauses not in `seen` (which grows): coverage-guided generation."""
    rng = SplitMix64(seed ^ 0x9E3779B97F4A7C15)
    reply = reference.new_game(case.ruleset_json(), case.deal)
    seen.update(_trace(reply))
    choices: list[int] = []
    for _ in range(200):
        legal = reference.legal()
        actions = legal.get("actions") or []
        if legal.get("decision") == "none" or not actions:
            break
        # a card kept for the round's last turn is played only when nothing else may be
        keep = [i for i, a in enumerate(actions) if a.get("card") not in case.reserve] or list(range(len(actions)))
        pick = keep[rng.below(len(keep))]
        rnd = reference.round
        if rnd is not None and len(keep) > 1 and rng.below(1000) >= EXPLORE * 1000:
            best = -1
            for i in keep:
                a = actions[i]
                trial = rnd.copy()
                novel = len({c for e in trial.apply(Action.from_json(a)) for c in e.clauses} - seen)
                if novel > best:
                    best, pick = novel, i
        choices.append(pick)
        seen.update(_trace(reference.act(actions[pick])))
    return Case(case.ruleset, case.deal, choices, case.options, case.config, case.reserve)


@dataclass(frozen=True)
class Script:
    """The reference engine's side of one case: its reply to each request the engine will get, in
    order, with the requests themselves and the clauses those replies cite. It is all the
    reference's: the engine's replies are only compared with it, so the requests of a round can go
    out before the engine has answered any of them, and those of the next round before this one
    is judged."""

    case: Case
    ruleset: Json
    deal: Json
    steps: list[tuple[Json, Json | None, Json]]  # (legal, the action chosen, its reply)
    score: Json | None
    requests: list[tuple[str, Json]]
    clauses: frozenset[str]


def script_of(case: Case, reference: JsonEngine) -> Script:
    """`case` played by the reference engine. Choices beyond the legal list wrap around (so that
    shrinking can change earlier choices freely)."""
    ruleset = case.ruleset_json()
    deal_ref = reference.new_game(ruleset, case.deal)
    steps: list[tuple[Json, Json | None, Json]] = []
    for choice in case.choices:
        legal_ref = reference.legal()
        actions = legal_ref.get("actions") or []
        if legal_ref.get("decision") == "none" or not actions:
            steps.append((legal_ref, None, {}))
            break
        action = actions[choice % len(actions)]
        steps.append((legal_ref, action, reference.act(action)))
    score_ref = reference.score() if reference.legal().get("decision") == "none" else None
    clauses: set[str] = set()
    for reply in (deal_ref, *(ref for _, _, ref in steps), score_ref or {}):
        clauses.update(cited(reply))
    requests: list[tuple[str, Json]] = [("new_game", {"ruleset": ruleset, "deal": case.deal})]
    for _, action, _ in steps:
        requests += [("legal", {})] + ([("act", {"action": action})] if action is not None else [])
    if score_ref is not None:
        requests.append(("score", {}))
    return Script(case, ruleset, deal_ref, steps, score_ref, requests, frozenset(clauses))


def play_case(case: Case, engine: Engine, reference: JsonEngine, clauses: set[str] | None = None) -> Divergence | None:
    """Replay `case` on both engines; the first difference, or None. The clauses the reference
    cites (events, scores, settlement) are added to `clauses`."""
    script = script_of(case, reference)
    if clauses is not None:
        clauses.update(script.clauses)
    return judge(script, engine)


def judge(script: Script, engine: Engine) -> Divergence | None:
    """The engine's replies to a script's requests against the reference's: the first difference.
    An engine that takes requests early (the stdio client) gets each while the harness still
    compares the reply before it."""
    with planned(engine, script.requests):
        return _against(script.case, engine, script.ruleset, script.deal, script.steps, script.score)


def _against(
    case: Case, engine: Engine, ruleset: Json, deal_ref: Json, script: list[tuple[Json, Json | None, Json]], score_ref: Json | None
) -> Divergence | None:
    """The engine's replies against the reference's, request by request: the first difference."""
    rules = case.rules()
    got = engine.new_game(ruleset, case.deal)
    diff = first_difference(deal_ref, got, "after the deal", rules, EVENT_LOG.get())
    if diff:
        return Divergence(Case(case.ruleset, case.deal, [], case.options, case.config), -1, *diff[1:], _trace(deal_ref), diff[0])
    played = 0
    for i, (legal_ref, action, ref) in enumerate(script):
        legal_got = engine.legal()
        if action is None:
            break
        if not same_legal(legal_ref, legal_got):
            # the case keeps the choice at i: the legal actions are compared before it is played
            kept = Case(case.ruleset, case.deal, case.choices[: i + 1], case.options, case.config)
            return Divergence(
                kept, i, f"legal actions before action {i + 1}", legal_ref.get("actions"), legal_got.get("actions"), [], "legal"
            )
        got = engine.act(action)
        played += 1
        diff = first_difference(ref, got, f"after action {i + 1}", rules, EVENT_LOG.get())
        if diff:
            kept = Case(case.ruleset, case.deal, case.choices[: i + 1], case.options, case.config)
            return Divergence(kept, i, *diff[1:], _trace(ref), diff[0])
    if score_ref is not None:
        kept = Case(case.ruleset, case.deal, case.choices[:played], case.options, case.config)
        sg = engine.score()
        settle_r = {k: (score_ref.get("settlement") or {}).get(k) for k in ("kind", "winner", "net")}
        settle_g = {k: (sg.get("settlement") or {}).get(k) for k in ("kind", "winner", "net")}
        clauses = list((score_ref.get("settlement") or {}).get("clauses", []))
        if settle_r != settle_g:
            differ = ",".join(k for k in settle_r if settle_r[k] != settle_g[k])
            return Divergence(kept, len(kept.choices) - 1, "settlement", settle_r, settle_g, clauses, f"settlement.{differ}")
        base_r = [s.get("base") for s in score_ref.get("scores") or []]
        base_g = [s.get("base") if isinstance(s, dict) else None for s in sg.get("scores") or []]
        if base_r != base_g and all(b is not None for b in base_g):
            return Divergence(kept, len(kept.choices) - 1, "scores (base)", base_r, base_g, clauses, "scores")
    return None


def _trace(reply: Json) -> list[str]:
    seen: list[str] = []
    for e in reply.get("events", []):
        for c in e.get("clauses", []):
            if c not in seen:
                seen.append(c)
    return seen


def shrink(div: Divergence, engine: Engine, reference: JsonEngine, forced: Mapping[str, Any]) -> Divergence:
    """Greedy shrinking: options back to the configuration's own values (except those it must
    change), each choice toward the first legal one, then canonical order for the stock cards
    never turned up; a change is kept when the engines still diverge in the same class
    (Divergence.signature), never merely in the same category: another choice can lead the round
    to another of the engine's bugs, and the class would then be written with that bug's scenario
    (go-stop-python's `legal / extra dual_to_junk` once shrank to its forced bomb, R-BOMB)."""
    best = div
    wanted = div.signature

    def keep(trial: Case) -> None:
        nonlocal best
        found = play_case(trial, engine, reference)
        if found is not None and found.signature == wanted:
            best = found

    for key in list(best.case.options):
        if key in forced:
            continue
        keep(
            Case(
                best.case.ruleset,
                best.case.deal,
                best.case.choices,
                {k: v for k, v in best.case.options.items() if k != key},
                best.case.config,
            )
        )
    i = 0
    while i < len(best.case.choices):
        if best.case.choices[i] != 0:
            keep(
                Case(
                    best.case.ruleset,
                    best.case.deal,
                    [*best.case.choices[:i], 0, *best.case.choices[i + 1 :]],
                    best.case.options,
                    best.case.config,
                )
            )
        i += 1
    reached = _stock_reached(best, reference)
    stock = list(best.case.deal["stock"])
    tail = sorted(stock[reached:], key=_card_index)
    if tail != stock[reached:]:
        keep(
            Case(
                best.case.ruleset,
                {**best.case.deal, "stock": stock[:reached] + tail},
                best.case.choices,
                best.case.options,
                best.case.config,
            )
        )
    return best


def _card_index(card: str) -> int:
    from gostop_conformance.spec import deck

    return deck().by_id[card].index


def _stock_reached(div: Divergence, reference: JsonEngine) -> int:
    """How many stock cards the case turns up (the rest can be in any order; all of them when
    the reference does not take the deal)."""
    reply = reference.new_game(div.case.ruleset_json(), div.case.deal)
    if not isinstance(reply.get("state"), dict):
        return len(div.case.deal["stock"])
    start = len(reply["state"]["stock"])
    left = start
    for choice in div.case.choices:
        legal = reference.legal()
        actions = legal.get("actions") or []
        if legal.get("decision") == "none" or not actions:
            break
        step = reference.act(actions[choice % len(actions)])
        left = len(step.get("state", {}).get("stock", []))
    taken_at_deal = len(div.case.deal["stock"]) - start
    return taken_at_deal + (start - left)


# ---------------------------------------------------------------- the scenario a divergence becomes


def scenario_yaml(div: Divergence, seed: int, engine_label: str, reference: JsonEngine) -> str:
    """A ready-to-review scenario: the case's actions and, where the engines diverge, the reference
    engine's values of everything that differs (a reviewer checks them against the rules)."""
    reply = reference.new_game(div.case.ruleset_json(), div.case.deal)
    steps: list[Json] = []
    after_deal: Json | None = None
    if div.step == -1 or (div.category == "legal" and div.step == 0):
        after_deal = _expectation(reply, reference, div)
    for i, choice in enumerate(div.case.choices):
        legal = reference.legal()
        actions = legal.get("actions") or []
        if legal.get("decision") == "none" or not actions:
            break
        action = actions[choice % len(actions)]
        if div.category == "legal" and i == div.step:
            break  # the divergence is in the legal actions before this action: stop there
        reply = reference.act(action)
        step: Json = {"act": action}
        if i == div.step or (div.category == "legal" and i == div.step - 1):
            step["expect"] = _expectation(reply, reference, div)
        steps.append(step)
    sid = f"fuzz-{div.case.ruleset}-seed-{seed}"
    raw: Json = {
        "id": sid,
        "title": f"Found by fuzzing {engine_label}: {div.what}",
        "description": (
            f"Provenance: gostop-conformance fuzz --seed {seed} (suite {engine_version()}), engine {engine_label}, "
            f"configuration {div.case.config or div.case.ruleset}. The engines diverged ({div.what}). The expectations "
            "are the reference engine's values: review them against the rules before committing, then drop the "
            "needs-review tag." + (f" {div.caveat}" if div.caveat else "")
        ),
        "clauses": div.clauses or ["R-TURN"],
        "tags": ["fuzz", "needs-review"],
        "ruleset": div.case.ruleset,
        **({"options": div.case.options} if div.case.options else {}),
        "deal": {**div.case.deal, "complete": False},
    }
    if after_deal is not None:
        raw["after_deal"] = after_deal
    if steps:
        raw["steps"] = steps
    if div.category.startswith("settlement") or div.category == "scores":
        final = reference.score()
        raw["final"] = {
            "settlement": {k: (final.get("settlement") or {}).get(k) for k in ("kind", "winner", "net")},
            "scores": [{"base": s.get("base")} for s in final.get("scores") or []],
        }
    return yaml.safe_dump({"schema_version": 1, "scenarios": [raw]}, sort_keys=False, allow_unicode=True, width=140)


def _expectation(reply: Json, reference: JsonEngine, div: Divergence) -> Json:
    """Everything a scenario compares about the state after `reply`, and the legal actions when
    they are where the engines differ."""
    state = reply.get("state", {})
    expect: Json = {
        "hands": state.get("hands"),
        "captured": state.get("captured"),
        "table": state.get("table"),
        "stock_count": len(state.get("stock", [])),
    }
    # stacks and the round's end are said even when there are none, so that an engine that
    # reports a stack or plays on where the reference does not fails the scenario
    expect["stacks"] = [{"month": s["month"], "owner": s.get("owner")} for s in state.get("stacks") or []]
    if state.get("decision") == "none":
        expect["over"] = True
    players = player_states(state)
    if players:
        expect["players"] = [{k: p[k] for k in PLAYER_FIELDS if k in p} for p in players]
    if div.category == "legal" or state.get("decision") != "none":
        legal = reference.legal()
        expect["decision"] = {"kind": legal.get("decision"), "player": legal.get("player")}
        if div.category == "legal":
            expect["legal"] = {"exact": legal.get("actions") or []}
    if div.category == "events":
        expect["events"] = {"exact": [{k: v for k, v in e.items() if k in ("kind", "player", "cards")} for e in reply.get("events", [])]}
    return expect


# ---------------------------------------------------------------- a run


@dataclass
class Found:
    """One divergence class: its first divergence (shrunk, unless the class came after the cap),
    its case seed, how often it came up."""

    seed: int
    divergence: Divergence
    count: int = 1
    scenario: str | None = None  # the scenario text, once it has been checked to reproduce the divergence
    reproduced: bool = False
    #: why the engine's declaration does not run the class's scenario (the divergence is then in
    #: what the engine does not declare, not a bug), or None
    outside: str | None = None
    #: shrunk and written (False for a class found after `max_divergences` classes: counted only)
    established: bool = True
    #: later divergences of a class outside the declaration tried again (OUTSIDE_RETRIES at most)
    retries: int = 0
    #: the divergence as the round found it, before shrinking (what is re-run when the shrunk one
    #: is outside the declaration); not saved: a loaded class is already established
    first: Divergence = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        self.first = self.divergence


@dataclass
class FuzzReport:
    rounds: int = 0
    #: the divergence classes within the declaration, by signature
    found: dict[tuple[str, ...], Found] = field(default_factory=dict)
    #: the classes whose scenario the engine's declaration does not run, by signature
    outside: dict[tuple[str, ...], Found] = field(default_factory=dict)
    clauses_seen: set[str] = field(default_factory=set)
    configurations: list[str] = field(default_factory=list)
    #: the round (1-based) in which each clause was first cited: how fast the run covers the rules
    first_seen: dict[str, int] = field(default_factory=dict)
    #: the round at which `max_divergences` classes had been found: later classes are counted only
    cap_reached: int | None = None

    def covered_by(self, rounds: int) -> int:
        return sum(1 for r in self.first_seen.values() if r <= rounds)

    @property
    def divergences(self) -> list[tuple[int, Divergence]]:
        return [(f.seed, f.divergence) for f in self.found.values()]


def fuzz(
    engine: Engine,
    games: int | range,
    seed: int,
    configs: Sequence[FuzzConfig],
    max_divergences: int = 20,
    progress: Callable[[int, int, FuzzReport], None] | None = None,
    do_shrink: bool = True,
    guided: bool = False,
    check: Callable[[str], Verification] | None = None,
    event_log: bool = False,
    jobs: int = 1,
    spawn: Callable[[], Engine] | None = None,
    label: str = "the engine",
) -> FuzzReport:
    """Play `games` random rounds within `configs` (a range: those rounds of the run, a shard of it:
    conformance._fuzzsave); every divergence class once (with its count),
    its first divergence shrunk and written as a scenario (`label` names the engine in it). After
    `max_divergences` classes within the declaration, new classes are counted, not shrunk: the run
    always plays every round. `check`, given a scenario's text, re-runs it (module docstring).

    With `jobs` > 1 the rounds are played by that many worker processes, each with an engine
    started by `spawn` (`engine` then only checks the scenarios): every round is a function of
    its seed, and the rounds are merged in order, so the report is the one job's. A guided run
    picks each round from what the rounds before it reached: it runs in one job."""
    if jobs > 1 and (guided or spawn is None):
        raise ValueError("fuzz with jobs > 1 needs a spawn and no guidance")
    token = EVENT_LOG.set(event_log)
    try:
        rounds = games if isinstance(games, range) else range(games)
        return _fuzz(engine, rounds, seed, configs, max_divergences, progress, do_shrink, guided, check, jobs, spawn, label)
    finally:
        EVENT_LOG.reset(token)


#: one round as a worker plays it: its index, case seed, divergence (as found) and the clauses cited
_Played = tuple[int, int, "Divergence | None", set[str]]


def _forced(configs: Sequence[FuzzConfig]) -> dict[str, dict[str, Any]]:
    return {c.label: {k: v for k, v in c.values.items() if v and v[0] != load_ruleset(c.base).options.as_json()[k]} for c in configs}


def _rounds(
    games: Iterable[int], seed: int, configs: Sequence[FuzzConfig], engine: Engine, reference: JsonEngine, seen: set[str] | None
) -> Iterator[_Played]:
    """The rounds `games` of the run, played in order, each judged while the engine already has
    the next one's requests (`expect`): the reference plays round g+1 while the engine answers
    round g, and the engine never waits for the harness between rounds. With `seen` (guidance),
    each round is chosen from the clauses the rounds before it cited."""
    expect = getattr(engine, "expect", None)
    upcoming: tuple[int, int, Script] | None = None
    for g in games:
        prepared = _prepare(g, seed, configs, reference, seen)
        if expect is not None:
            expect([prepared[2].requests])
        if upcoming is not None:
            yield _judged(*upcoming, engine)
        upcoming = prepared
    if upcoming is not None:
        yield _judged(*upcoming, engine)


def case_of(seed: int, g: int, configs: Sequence[FuzzConfig]) -> Case:
    """Round `g` of an unguided run with `seed`: its configuration, options, deal and choices."""
    return random_case(case_seed_of(seed, g), configs)


def case_seed_of(seed: int, g: int) -> int:
    """The seed of round `g` of a run with `seed` (every round is a function of it)."""
    return seed * 1_000_003 + g


def _prepare(g: int, seed: int, configs: Sequence[FuzzConfig], reference: JsonEngine, seen: set[str] | None) -> tuple[int, int, Script]:
    """Round `g`'s case, and the reference's script of it."""
    case_seed = case_seed_of(seed, g)
    case = random_case(case_seed, configs, _unseen(seen) if seen is not None else None)
    if seen is not None:
        case = guide(case, reference, seen, case_seed)
    script = script_of(case, reference)
    if seen is not None:
        seen.update(script.clauses)
    return g, case_seed, script


def _judged(g: int, case_seed: int, script: Script, engine: Engine) -> _Played:
    """Round `g` judged. A reply the comparison cannot read is a divergence of its own, never the
    end of the run."""
    case = script.case
    try:
        div = judge(script, engine)
    except EngineError as exc:
        div = Divergence(case, -1, f"engine error: {exc.kind}: {exc.message}", None, exc.message, [], f"engine error: {exc.kind}")
        restart(engine)
    except (KeyError, IndexError, TypeError, AttributeError, ValueError) as exc:
        # the replies passed the protocol's schema, and still the comparison could not read them
        what = f"engine error: unreadable reply: {type(exc).__name__}: {exc}"
        div = Divergence(case, -1, what, None, None, [], "engine error: unreadable reply")
    return g, case_seed, div, set(script.clauses)


def _play_chunk(worker: dict[str, Any], games: range) -> list[_Played]:
    """A worker's share (conformance._jobs): consecutive rounds, played with its own engine."""
    reference = worker.setdefault("reference", JsonEngine())
    token = EVENT_LOG.set(worker["event_log"])
    try:
        return list(_rounds(games, worker["seed"], worker["configs"], worker["engine"], reference, None))
    finally:
        EVENT_LOG.reset(token)


def _fuzz(
    engine: Engine,
    games: range,
    seed: int,
    configs: Sequence[FuzzConfig],
    max_divergences: int,
    progress: Callable[[int, int, FuzzReport], None] | None,
    do_shrink: bool,
    guided: bool,
    check: Callable[[str], Verification] | None,
    jobs: int,
    spawn: Callable[[], Engine] | None,
    label: str,
) -> FuzzReport:
    reference = JsonEngine()
    report = FuzzReport(configurations=[c.label for c in configs])
    if not configs:
        return report
    with contextlib.ExitStack() as stack:
        played: Iterator[_Played]
        if jobs > 1 and spawn is not None:
            shared = {"seed": seed, "configs": list(configs), "event_log": EVENT_LOG.get()}
            workers = stack.enter_context(_jobs.Workers(jobs, spawn, shared))
            chunks = [range(games.start + r.start, games.start + r.stop) for r in _jobs.chunks(len(games), jobs)]
            played = (one for chunk in workers.ordered(_play_chunk, chunks) for one in chunk)
        else:
            # lazily, one round ahead: a guided round is chosen from the clauses of the rounds before it
            played = _rounds(games, seed, configs, engine, reference, report.clauses_seen if guided else None)
        classes = _Classes(report, engine, reference, configs, max_divergences, do_shrink, check, label)
        for _, case_seed, div, cited_now in played:
            report.rounds += 1
            for clause in cited_now - report.first_seen.keys():
                report.first_seen[clause] = report.rounds
            report.clauses_seen.update(cited_now)
            if div is not None:
                classes.add(case_seed, div)
            if progress:
                progress(report.rounds, len(games), report)
    return report


@dataclass
class _Classes:
    """Files each divergence in its class, as the rounds come in order (so that the report does
    not depend on the number of jobs): the first of a class is shrunk on the run's own engine,
    written and re-run; the others are counted."""

    report: FuzzReport
    engine: Engine
    reference: JsonEngine
    configs: Sequence[FuzzConfig]
    max_divergences: int
    do_shrink: bool
    check: Callable[[str], Verification] | None
    label: str

    def add(self, case_seed: int, div: Divergence) -> None:
        report = self.report
        key = div.signature
        outside = report.outside.get(key)
        if outside is not None and outside.retries < OUTSIDE_RETRIES and len(report.found) < self.max_divergences:
            # a class is what differs, and one divergence of it may rest on what the engine does not
            # declare while another does not: a few more are tried before the class is set aside
            outside.retries += 1
            trial = Found(case_seed, div)
            self._establish(trial)
            if trial.outside is None:  # the class is a divergence; its earlier rounds count with it
                trial.count += outside.count
                report.found[key] = trial
                del report.outside[key]
                return
        known = report.found.get(key) or outside
        if known is not None:
            known.count += 1
            return
        found = Found(case_seed, div)
        if len(report.found) >= self.max_divergences:
            found.established = False
            report.found[key] = found
            return
        if not div.category.startswith("engine error"):
            self._establish(found)
        (report.outside if found.outside else report.found)[key] = found
        if len(report.found) == self.max_divergences and report.cap_reached is None:
            report.cap_reached = report.rounds

    def _establish(self, found: Found) -> None:
        """The class's first divergence shrunk, written and re-run (module docstring). A shrunk
        divergence keeps its class, not every way the round went: a choice moved toward the first
        legal one can take the round through an option value the engine does not declare, and
        shrinking must not move a class the declaration runs outside it. When the shrunk scenario
        is outside the declaration (or does not reproduce), the divergence as found is re-run too,
        and kept if it reproduces within the declaration."""
        div = found.divergence
        if self.do_shrink:
            try:
                div = found.divergence = shrink(div, self.engine, self.reference, _forced(self.configs).get(div.case.config, {}))
            except EngineError:
                restart(self.engine)
            except (KeyError, IndexError, TypeError, AttributeError, ValueError):
                pass  # a reply the comparison cannot read while shrinking: the divergence as found
        undecided = next((c.undecided for c in self.configs if c.label == div.case.config), ())
        if self.check is None:
            if undecided:
                div.caveat = f"The configuration leaves {counted(len(undecided), 'option')} undeclared; the divergence may be one of them."
            return
        text = scenario_yaml(div, found.seed, self.label, self.reference)
        verified = self.check(text)
        if div is not found.first and (verified.outside is not None or not verified.reproduces):
            as_found = scenario_yaml(found.first, found.seed, self.label, self.reference)
            again = self.check(as_found)
            if again.outside is None and again.reproduces:
                found.divergence, text, verified = found.first, as_found, again
        found.reproduced, found.outside = verified.reproduces, verified.outside
        found.scenario = text


def _unseen(seen: set[str]) -> set[str]:
    from gostop_conformance.spec import clauses

    return set(clauses()) - seen


def write_scenarios(report: FuzzReport, out: Path) -> dict[tuple[str, ...], Path]:
    """Each class's scenario written under `out` (the classes within the declaration that were
    shrunk and checked); the path of each, by signature."""
    paths: dict[tuple[str, ...], Path] = {}
    for key, found in report.found.items():
        if found.scenario is not None:
            out.mkdir(parents=True, exist_ok=True)
            path = out / f"fuzz-{found.divergence.case.ruleset}-seed-{found.seed}.yaml"
            path.write_text(found.scenario, encoding="utf-8")
            paths[key] = path
    return paths


def fuzz_report_lines(report: FuzzReport, paths: Mapping[tuple[str, ...], Path], max_divergences: int) -> list[str]:
    """What the run found, class by class: the first divergence (shrunk), how often the class came
    up, the scenario written and whether it reproduces; then the classes counted after the cap,
    and the divergences outside the declaration."""
    lines: list[str] = []
    for key, found in report.found.items():
        if not found.established:
            continue
        div = found.divergence
        times = f" x{found.count}" if found.count > 1 else ""
        lines.append(
            f"DIVERGENCE{times} seed {found.seed} ({div.case.config or div.case.ruleset}, "
            f"{counted(len(div.case.choices), 'action')}): {div.what}"
        )
        lines.append(f"  class: {' / '.join(key)}")
        lines.append("  " + Mismatch(div.what, div.category, div.expected, div.actual).text().split("\n", 1)[-1].replace("\n", "\n  "))
        lines.append(f"  clauses: {', '.join(div.clauses) or 'none cited'}")
        if div.caveat:
            lines.append(f"  {div.caveat}")
        path = paths.get(key)
        if path is not None:
            verdict = (
                "it fails the engine and passes the reference" if found.reproduced else "it does NOT reproduce the divergence: review it"
            )
            lines.append(f"  scenario written to {path}: {verdict}")
    late = [(key, f) for key, f in report.found.items() if not f.established]
    if report.cap_reached is not None:
        lines.append(
            f"the cap of {counted(max_divergences, 'class', 'classes')} (--max-divergences) was reached in round {report.cap_reached}: "
            f"{counted(len(late), 'more class', 'more classes')} came up after it, counted, not shrunk or written"
            + ("" if late else " (none)")
        )
        lines += [f"  x{f.count} seed {f.seed}: {' / '.join(key)}" for key, f in late]
    if report.outside:
        rounds = sum(f.count for f in report.outside.values())
        lines.append(
            f"outside the declaration: {counted(rounds, 'round')} in {counted(len(report.outside), 'class', 'classes')} "
            f"{'differs' if rounds == 1 else 'differ'} only where the engine's "
            "declaration does not run the scenario (values it does not declare): not counted as divergences"
        )
        lines += [f"  x{f.count} seed {f.seed}: {' / '.join(key)}: {f.outside}" for key, f in report.outside.items()]
    return lines


#: rounds at which the coverage reached so far is reported (those the run got to)
MILESTONES: Final = (100, 1_000, 10_000, 100_000)


def fuzz_coverage_lines(report: FuzzReport, guided: bool = False) -> list[str]:
    """The clause coverage the run reached: of the clauses the reference engine's trace can cite
    (the others are seen in legal actions and rejections, not in the trace), how many by each
    milestone, and which were never reached."""
    from gostop_conformance.spec import clauses

    traceable = [c for c in clauses() if c not in NEVER_TRACED]
    reached = [c for c in traceable if c in report.first_seen]
    steps = [f"{report.covered_by(m)} by round {m}" for m in MILESTONES if m < report.rounds]
    lines = [
        f"clause coverage{' (guided)' if guided else ''}: {len(reached)} of {counted(len(traceable), 'clause')} "
        "the reference engine's trace "
        f"can cite, in {counted(report.rounds, 'round')}" + (f" ({', '.join(steps)})" if steps else "")
    ]
    missed = [c for c in traceable if c not in report.first_seen]
    if missed:
        lines.append(f"never reached: {', '.join(missed)}")
    return lines


def reproduces(text: str, engine: Engine, verdicts: Verdicts) -> Verification:
    """A written scenario run as `gostop-conformance run` would run it for this engine: under its
    declaration (substituted values, undeclared options unjudged), it must pass the reference and
    fail the engine; a scenario the declaration does not run is a divergence outside it."""
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "scenarios" / "fuzz"
        folder.mkdir(parents=True)
        (folder / "case.yaml").write_text(text, encoding="utf-8")
        try:
            [scenario] = load_corpus(Path(tmp) / "scenarios")
            verdict = verdicts.of(scenario)
        except InputError:
            return Verification(False)
    if verdict.scenario is None:
        return Verification(False, outside=verdict.reason())
    sent = verdict.scenario
    if run_scenario(ReferenceEngine(), sent).outcome != PASS:
        return Verification(False)
    try:
        return Verification(run_scenario(engine, sent).outcome != PASS)
    except EngineError:
        return Verification(True)
