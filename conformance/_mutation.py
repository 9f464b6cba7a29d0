"""The suite's mutation score: run the corpus against every semantic mutant of the reference
engine (gostop_conformance.mutants) and report which scenarios kill each one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gostop_conformance.harness._engine import ReferenceEngine
from gostop_conformance.harness._runner import PASS, run_scenario
from gostop_conformance.harness._scenarios import Scenario
from gostop_conformance.mutants import MUTANTS, Mutant, applied
from gostop_conformance.spec import counted


@dataclass(frozen=True, slots=True)
class MutantResult:
    mutant: Mutant
    killers: tuple[str, ...]

    @property
    def killed(self) -> bool:
        return bool(self.killers)


def run_mutants(
    corpus: Sequence[Scenario], names: Sequence[str] = (), progress: Callable[[str], None] | None = None, all_killers: bool = False
) -> list[MutantResult]:
    """Each mutant against the corpus; stops at the first killer unless `all_killers`."""
    out = []
    for mutant in MUTANTS:
        if names and mutant.name not in names:
            continue
        if progress:
            progress(mutant.name)
        killers: list[str] = []
        with applied(mutant.name):
            engine = ReferenceEngine()
            for sc in corpus:
                try:
                    outcome = run_scenario(engine, sc).outcome
                except Exception:  # a mutant that makes the engine raise is killed by that scenario
                    outcome = "CRASH"
                if outcome != PASS:
                    killers.append(sc.id)
                    if not all_killers:
                        break
        out.append(MutantResult(mutant, tuple(killers)))
    return out


def kill_rate(results: Sequence[MutantResult]) -> float:
    return sum(r.killed for r in results) / len(results) if results else 0.0


def report_lines(results: Sequence[MutantResult]) -> list[str]:
    lines = []
    for r in results:
        status = "killed " if r.killed else "SURVIVED"
        by = f" by {', '.join(r.killers[:3])}" + (f" (+{len(r.killers) - 3} more)" if len(r.killers) > 3 else "") if r.killed else ""
        lines.append(f"{status} {r.mutant.name:30} [{r.mutant.clause}] {r.mutant.description}{by}")
    lines.append(f"kill rate: {sum(r.killed for r in results)} of {counted(len(results), 'mutant')} ({kill_rate(results):.1%})")
    return lines


def report_markdown(results: Sequence[MutantResult]) -> list[str]:
    lines = [
        f"**Kill rate: {sum(r.killed for r in results)} of {counted(len(results), 'semantic mutant')} ({kill_rate(results):.1%}).**",
        "",
        "| mutant | clause | what it breaks | killed by |",
        "| --- | --- | --- | --- |",
    ]
    for r in results:
        by = ", ".join(f"`{k}`" for k in r.killers[:3]) if r.killed else "**survived**"
        lines.append(f"| `{r.mutant.name}` | {r.mutant.clause} | {r.mutant.description} | {by} |")
    return lines
