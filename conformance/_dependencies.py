"""Which options each scenario's outcome depends on: derived mechanically, stored beside the corpus.

A scenario *depends on* an option when another value of that option, everything else equal,
changes something the scenario compares, so that the reference engine fails the scenario. The
derivation (docs: "How the suite decides what an engine can run"):

1. The scenario is played once on the interpreted reference engine, recording every option the
   engine reads (reference_impl._tracing), and every option the harness's own checks read (the
   score invariants, a match's rounds and target). An option that is never read cannot change the
   run: the engine and the harness are deterministic and consult the rules only through options.
2. Each option that was read is tried under every value of its probe domain (`probe_values`: all
   values of booleans, enums, small ranges and small sets; for wide ranges and large sets the
   extremes, the neighbours of the scenario's value and one change at a time). The option is a
   dependency when some probe fails the scenario (or makes an invalid ruleset); the probes that pass
   are stored with it.

The result is `scenarios/dependencies.yaml`, written by `gostop-conformance dependencies --write`
and checked by `gostop-conformance lint` (a stale file is a lint problem). Each entry carries the
scenario's digest, so an edited scenario, or one of another corpus, is derived again when needed.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Final

from gostop_conformance.harness import _derivecache as derivecache
from gostop_conformance.harness._engine import ReferenceEngine
from gostop_conformance.harness._probes import probe_values
from gostop_conformance.harness._runner import PASS, run_scenario
from gostop_conformance.harness._scenarios import DEPENDENCIES_FILE, Scenario, load_corpus
from gostop_conformance.reference import can_trace, traced_options
from gostop_conformance.spec import InputError, Located, counted, load_yaml, option_registry

Json = dict[str, Any]

#: the generated file, at the root of a corpus
FILE_NAME: Final = DEPENDENCIES_FILE


@dataclass(frozen=True, slots=True)
class Dependencies:
    """The options one scenario depends on, each with the probed values under which it still passes."""

    digest: str
    passes: Mapping[str, tuple[Any, ...]]
    #: the scenario reaches a position no real deal reaches (R-ROUND-END: the stock empty while a
    #: player still holds a card or a skip credit)
    constructed: bool = False

    def depends_on(self, option: str) -> bool:
        return option in self.passes

    def admits(self, option: str, value: Any, current: Any) -> bool | None:
        """True if the scenario (whose value is `current`) passes with `value` for `option`, all
        else equal; False if it fails; None if that value was not probed."""
        if option not in self.passes or value in self.passes[option]:
            return True
        return False if value in probe_values(option_registry()[option], current) else None


def scenario_digest(sc: Scenario) -> str:
    """What the scenario asks and checks, hashed: a stored entry with another digest is stale."""
    content = {
        "ruleset": sc.ruleset,
        "options": sc.resolved_options,
        "requires": list(sc.requires),
        "rounds": [
            {
                "deal": rnd.deal,
                "after_deal": rnd.after_deal,
                "steps": [{"act": s.act, "expect": s.expect, "reject": s.reject} for s in rnd.steps],
                "final": rnd.final,
            }
            for rnd in sc.rounds
        ],
        "match": sc.match,
        "exact_cards": sc.exact_cards,
        "event_log": sc.event_log,
    }
    text = json.dumps(content, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def derive(sc: Scenario, trace: bool | None = None) -> Dependencies:
    """The options `sc` depends on (module docstring); InputError if it fails on the reference engine.

    Without the read trace (the compiled engine cannot be traced; `trace=False`), every option is
    probed: the result is conservative, a superset of the traced one, since an option the engine
    never reads but whose other values make no valid ruleset with the scenario's (deal_layout for
    an explicit deal) then counts as a dependency."""
    reads: set[str] = set()
    traced = can_trace() if trace is None else trace and can_trace()
    # the harness reads options too (the invariants of scores, a match's rounds and target): traced alike
    watched = replace(sc, rules=traced_options(sc.rules, reads)) if traced else sc
    first = run_scenario(ReferenceEngine(option_reads=reads if traced else None), watched)
    constructed = is_constructed(first.transcript)
    if first.outcome != PASS:
        raise InputError(
            f"{sc.file}:{sc.line}",
            f"scenario {sc.id} fails on the reference engine ({first.outcome}): its dependencies cannot be derived",
        )
    passes: dict[str, tuple[Any, ...]] = {}
    for name, spec in option_registry().items():
        if traced and name not in reads:
            continue
        current = sc.resolved_options[name]
        kept: list[Any] = []
        changed = False
        for value in probe_values(spec, current):
            if value == current or _passes_with(sc, {name: value}):
                kept.append(value)
            else:
                changed = True
        if changed:
            passes[name] = tuple(kept)
    return Dependencies(scenario_digest(sc), passes, constructed)


def stored_or_derived(sc: Scenario, stored: Mapping[str, Dependencies]) -> Dependencies:
    """The dependencies of `sc`: its stored entry when that is of this very scenario (its digest),
    else derived on the spot."""
    found = stored.get(sc.id)
    return found if found is not None and found.digest == scenario_digest(sc) else derive(sc)


def is_constructed(transcript: Iterable[tuple[str, Json, Json]]) -> bool:
    """Whether a run passed through a constructed position (R-ROUND-END): a state whose stock is
    empty while a hand holds a card or a player a skip credit.

    Bonus cards do not make such a state reachable: in a real deal the stock always holds, beside
    one card per ordinary hand card and per skip credit, one per bonus card still in the stock and
    two per bonus card in a hand (each is replaced from the stock, and the replacement is played),
    since every bonus card dealt to the table, played or flipped takes one stock card more than a
    plain turn (R-DEAL-BONUS, R-BONUS-HAND, R-BONUS-FLIP). The stock is therefore empty only with
    every hand empty and every skip credit spent (tests/conformance/test_dependencies.py plays
    random rounds of every ruleset with bonus cards to show it)."""
    for _, _, reply in transcript:
        state = reply.get("state")
        if not isinstance(state, dict) or state.get("stock"):
            continue
        if any(state.get("hands") or []):
            return True
        if any(isinstance(p, dict) and p.get("skip_credits") for p in state.get("players") or []):
            return True
    return False


def _passes_with(sc: Scenario, changes: Json) -> bool:
    try:
        other = sc.reconfigured(sc.ruleset, changes)
    except InputError:  # not a valid ruleset: no engine plays it, and the scenario cannot run under it
        return False
    return run_scenario(ReferenceEngine(), other).outcome == PASS


# ---------------------------------------------------------------- the whole corpus, in parallel

_WORKER_CORPUS: dict[str, Scenario] = {}


def _init_worker(root: str) -> None:
    _WORKER_CORPUS.update({sc.id: sc for sc in load_corpus(Path(root))})


def _derive_id(scenario_id: str) -> tuple[str, Dependencies]:
    return scenario_id, derive(_WORKER_CORPUS[scenario_id])


def derive_all(corpus: Sequence[Scenario], root: Path, jobs: int | None = None, cache: Path | None = None) -> dict[str, Dependencies]:
    """Every scenario's dependencies, in corpus order, on `jobs` processes (default: every core);
    the result does not depend on the number of processes. With a `cache` folder
    (conformance._derivecache), a scenario whose digest is there for the same spec and code is
    not derived again, and what was derived is stored there."""
    known = _cached(derivecache.path_in(cache)) if cache is not None else {}
    hits = {
        sc.id: known[sc.id] for sc in corpus if isinstance(known.get(sc.id), Dependencies) and known[sc.id].digest == scenario_digest(sc)
    }
    todo = [sc for sc in corpus if sc.id not in hits]
    jobs = jobs or os.cpu_count() or 1
    if jobs == 1 or len(todo) < 8:
        found = {sc.id: derive(sc) for sc in todo}
    else:
        with ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=(str(root),)) as pool:
            found = dict(pool.map(_derive_id, [sc.id for sc in todo], chunksize=8))
    out = {sc.id: hits[sc.id] if sc.id in hits else found[sc.id] for sc in corpus}
    if cache is not None and todo:
        kept = {sid: dep for sid, dep in known.items() if sid not in out}
        derivecache.write(cache, dump({**kept, **out}))
    return out


# ---------------------------------------------------------------- the stored file

_HEADER: Final = """\
# Generated by `gostop-conformance dependencies --write`: do not edit (`gostop-conformance lint`
# fails when it is stale). For each scenario, the options its outcome depends on, each with the
# values (of those probed) under which the reference engine still passes it; an option that is not
# listed changes nothing the scenario compares. How it is derived: conformance/_dependencies.py.
"""


def dump(deps: Mapping[str, Dependencies]) -> str:
    """The file's text: deterministic, one line per dependency, integer runs written as `a..b`."""
    lines = [_HEADER.rstrip("\n"), "schema_version: 1", "scenarios:"]
    for sid, dep in deps.items():
        lines.append(f"  {sid}:")
        lines.append(f'    digest: "{dep.digest}"')  # quoted: an all-digit digest would read as a number
        if dep.constructed:
            lines.append("    constructed: true")
        if not dep.passes:
            lines.append("    depends: {}")
            continue
        lines.append("    depends:")
        for name, values in dep.passes.items():
            lines.append(f"      {name}: {json.dumps(compress(values), separators=(', ', ': '))}")
    return "\n".join(lines) + "\n"


def compress(values: Iterable[Any]) -> list[Any]:
    """Runs of three or more consecutive integers as `a..b` strings (the file's form, and messages')."""
    out: list[Any] = []
    run: list[int] = []

    def flush() -> None:
        if len(run) >= 3:
            out.append(f"{run[0]}..{run[-1]}")
        else:
            out.extend(run)
        run.clear()

    for v in values:
        if isinstance(v, int) and not isinstance(v, bool) and run and v == run[-1] + 1:
            run.append(v)
            continue
        flush()
        if isinstance(v, int) and not isinstance(v, bool):
            run.append(v)
        else:
            out.append(v)
    flush()
    return out


def _expand(values: list[Any]) -> tuple[Any, ...]:
    out: list[Any] = []
    for v in values:
        if isinstance(v, str) and ".." in v and v.replace("..", "", 1).lstrip("-").isdigit():
            low, high = (int(x) for x in v.split(".."))
            out.extend(range(low, high + 1))
        else:
            out.append(v)
    return tuple(out)


def _check_values(located: Located, at: list[str | int], option: str, values: tuple[Any, ...]) -> None:
    """Each stored value is one the option can take (a typo would otherwise be read as a value no
    engine declares, and turn a runnable scenario UNSUPPORTED without a word)."""
    registry = option_registry()
    if option not in registry:
        raise InputError(located.where(at), f"unknown option {option!r}; expected an option id of spec/options.yaml")
    spec = registry[option]
    for k, value in enumerate(values):
        if spec.coerce(value) is None:
            raise InputError(located.where([*at, k]), f"{value!r} is not a value of {option}: expected {spec.expected()}")


def _cached(path: Path) -> dict[str, Dependencies]:
    """The derivations a cache file holds; none when it cannot be read (derived again, never trusted)."""
    try:
        return load_file(path, str(path)) if path.is_file() else {}
    except (InputError, OSError, ValueError):
        return {}


def load(root: Path) -> dict[str, Dependencies]:
    """The stored dependencies of the corpus at `root` (empty when it has no file)."""
    path = root / FILE_NAME
    if not path.exists():
        return {}
    return load_file(path, f"{root.name}/{FILE_NAME}")


def load_file(path: Path, display: str) -> dict[str, Dependencies]:
    """Dependencies in the format of the stored file (also the cache's, conformance._derivecache)."""
    located = load_yaml(path, display)
    data = located.data
    entries = data.get("scenarios") if isinstance(data, dict) else None
    if not isinstance(entries, dict):
        raise InputError(located.where(), "expected `scenarios:` mapping scenario ids to {digest, depends}")
    out: dict[str, Dependencies] = {}
    for sid, entry in entries.items():
        where = located.where(["scenarios", sid])
        if not isinstance(entry, dict) or not isinstance(entry.get("digest"), str) or not isinstance(entry.get("depends"), dict):
            raise InputError(where, "expected {digest: <hex>, depends: {<option>: [values...]}}")
        depends = entry["depends"]
        if not all(isinstance(k, str) and isinstance(v, list) for k, v in depends.items()):
            raise InputError(where, "expected each dependency as <option>: [values...]")
        if not isinstance(entry.get("constructed", False), bool):
            raise InputError(located.where(["scenarios", sid, "constructed"]), "expected true or false")
        passes = {k: _expand(v) for k, v in depends.items()}
        for option, values in passes.items():
            _check_values(located, ["scenarios", sid, "depends", option], option, values)
        out[str(sid)] = Dependencies(entry["digest"], passes, bool(entry.get("constructed", False)))
    return out


def stale(
    corpus: Sequence[Scenario], stored: Mapping[str, Dependencies], root: Path, jobs: int | None = None, cache: Path | None = None
) -> list[str]:
    """Why the stored file is out of date, derived again (from scratch, or what `cache` does not
    hold): one line per scenario."""
    fresh = derive_all(corpus, root, jobs, cache)
    problems = [f"{sid}: not in {FILE_NAME}" for sid in fresh if sid not in stored]
    problems += [f"{sid}: in {FILE_NAME} but not in the corpus" for sid in stored if sid not in fresh]
    for sid, dep in fresh.items():
        old = stored.get(sid)
        if old is None:
            continue
        if old.digest != dep.digest:
            problems.append(f"{sid}: the scenario changed since {FILE_NAME} was written")
        elif dict(old.passes) != dict(dep.passes):
            problems.append(f"{sid}: depends on {_summary(dep)}, {FILE_NAME} says {_summary(old)}")
        elif old.constructed != dep.constructed:
            problems.append(f"{sid}: constructed is {str(dep.constructed).lower()}, {FILE_NAME} says {str(old.constructed).lower()}")
    return problems


def _summary(dep: Dependencies) -> str:
    return ", ".join(sorted(dep.passes)) or "nothing"


def write(path: Path, deps: Mapping[str, Dependencies]) -> None:
    path.write_text(dump(deps), encoding="utf-8")


def summary_lines(found: Mapping[str, Dependencies], ids: Sequence[str]) -> list[str]:
    """What `dependencies` prints: the dependencies of each scenario of `ids`, then the average
    per scenario and the options most depended on."""
    lines: list[str] = []
    for sid in ids:
        lines.append(f"{sid}:")
        lines += [
            f"  {option}: passes with {', '.join(map(str, values)) or 'no other value probed'}"
            for option, values in found[sid].passes.items()
        ]
        if not found[sid].passes:
            lines.append("  depends on no option")
    counts = Counter(option for dep in found.values() for option in dep.passes)
    lines.append(
        f"{counted(len(found), 'scenario')}; dependencies per scenario: {sum(counts.values()) / max(1, len(found)):.1f} on average"
    )
    lines.append("options most depended on: " + ", ".join(f"{option} ({n})" for option, n in counts.most_common(12)))
    return lines
