"""A mutational fuzz of the harness against engine replies: `gostop-conformance run` against an
engine whose replies are the reference engine's, mutated at random (fakes/mutating_engine.py),
run after run until at least N mutated replies have been served.

    python -m tests.conformance.reply_fuzz --replies N --seed S [--jobs J] [--rate R] [--area A]...

Whatever an engine replies, the harness must not crash: each run must exit 0 or 1 (never 2, a
traceback or a hang past its bound), write a report.jsonl that `gostop-conformance summary` reads
back (conformance/_saved.py), with an outcome for every selected scenario, and a junit.xml that
parses. Run K of seed S mutates with the engine seed "S.K", so a run is reproduced by its seed
alone; a run that breaks a rule is minimised by replaying its mutations one at a time (the
engine's --only) to the one that does it. `make fuzz-harness` runs 10,000 mutated replies; the
test suite a thousand (tests/conformance/test_reply_fuzz.py).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path

from gostop_conformance.harness._saved import read
from gostop_conformance.harness._scenarios import default_root, load_corpus, select
from gostop_conformance.spec import InputError
from tests.conformance.test_faults import RUNNER  # the harness in a process of its own, reporting its peak memory

FAKES = Path(__file__).parent / "fakes"
ENGINE = FAKES / "mutating_engine.py"
LAUNCHER = FAKES / "zygote_launcher.py"
#: the harness's bounds in each run: seconds for each reply, for the hello
TIMEOUT = 2.0
STARTUP_TIMEOUT = 5.0
#: seconds a whole run may take before it counts as a hang (a run is a few seconds to a minute)
RUN_LIMIT = 300.0
#: the share of runs whose engine declares something else in its hello (mutating_engine.py: a hello
#: is mutated in a run or in none of its engines)
HELLO_RATE = 0.2
#: the harness's options and environment, run K taking the (K mod 5)-th: each way of sending
#: requests and of judging, every console line or only the problems', and a console that cannot
#: print every character an engine may send
VARIANTS: tuple[tuple[tuple[str, ...], dict[str, str]], ...] = (
    (("-q",), {}),
    (("-q", "--pipeline", "0"), {}),
    (("-q", "--check-determinism"), {}),
    (("--jobs", "2"), {}),
    ((), {"PYTHONIOENCODING": "ascii"}),
)
#: runs spent at most on minimising a run that broke a rule to its mutation
MINIMISE_TRIES = 24
_KEY = re.compile(r" key=(\S+) ")


@dataclass
class Run:
    """One `gostop-conformance run` against the mutating engine, and what was wrong with it."""

    index: int
    seed: str
    code: int | None = None
    seconds: float = 0.0
    peak_mb: float = 0.0
    #: the mutating engine's log lines: one per mutated reply
    mutations: list[str] = field(default_factory=list)
    outcomes: Counter[str] = field(default_factory=Counter)
    #: what broke the harness's promises (empty: the run was sound)
    problems: list[str] = field(default_factory=list)
    stderr: str = ""
    #: the key and log line of the one mutation that reproduces the problems alone, once minimised
    culprit: str | None = None

    def signature(self) -> str:
        """What tells one cause of a crash from another: the exception and where it was raised,
        or the first problem when there is no traceback."""
        lines = self.stderr.splitlines()
        if "Traceback" in self.stderr:
            frames = [line.strip() for line in lines if line.strip().startswith('File "')]
            last = next((line for line in reversed(lines) if line and not line.startswith((" ", "peak-kb"))), "")
            where = re.sub(r", line \d+", "", frames[-1]) if frames else ""
            return f"{last.split(':', 1)[0]} at {where}"
        return re.sub(r"\d+", "N", self.problems[0]) if self.problems else ""


@dataclass
class Summary:
    runs: list[Run]
    seconds: float
    #: where the runs that broke a rule are kept (their reports, the engine's log of mutations)
    folder: Path

    @property
    def mutated(self) -> int:
        return sum(len(r.mutations) for r in self.runs)

    @property
    def distinct(self) -> int:
        """Mutations told apart by run and position (a mutated hello is served again at each restart)."""
        return len({(r.index, m.group(1)) for r in self.runs for line in r.mutations if (m := _KEY.search(line))})

    @property
    def crashes(self) -> list[Run]:
        return [r for r in self.runs if r.problems]

    def lines(self) -> list[str]:
        outcomes: Counter[str] = Counter()
        kinds: Counter[str] = Counter()
        for r in self.runs:
            outcomes += r.outcomes
            kinds.update(_mutation_kind(m) for m in r.mutations)
        slowest = max(self.runs, key=lambda r: r.seconds, default=None)
        out = [
            f"reply fuzz: {self.mutated} mutated replies ({self.distinct} distinct) in {len(self.runs)} runs, {self.seconds:.0f} s"
            + (f" (slowest run {slowest.seconds:.1f} s, peak {max(r.peak_mb for r in self.runs):.0f} MB)" if slowest else ""),
            "outcomes: " + ", ".join(f"{k} {n}" for k, n in sorted(outcomes.items())),
            "mutations: " + ", ".join(f"{k} {n}" for k, n in kinds.most_common()),
        ]
        causes: dict[str, list[Run]] = {}
        for r in self.crashes:
            causes.setdefault(r.signature(), []).append(r)
        out.append(f"harness crashes: {len(self.crashes)} runs, {len(causes)} distinct causes" if causes else "harness crashes: none")
        for cause, runs in causes.items():
            first = runs[0]
            options, env = VARIANTS[first.index % len(VARIANTS)]
            variant = " ".join([*options, *(f"{k}={v}" for k, v in env.items())]) or "no option"
            out.append(f"  {cause} ({len(runs)} runs; first: run {first.index}, engine seed {first.seed}, {variant}, exit {first.code})")
            out += [f"    {p}" for p in first.problems[:3]]
            if first.culprit:
                out.append(f"    minimised: {first.culprit}")
            elif first.mutations:
                out.append(f"    (not minimised) last mutation: {first.mutations[-1]}")
        return out


def _mutation_kind(line: str) -> str:
    after = line.split(" seq=", 1)[-1].split(" ", 1)
    return after[1].split(":", 1)[0] if len(after) > 1 else "?"


@contextlib.contextmanager
def fork_server(folder: Path) -> Iterator[Path]:
    """The mutating engine as a fork server (its socket): engines start in milliseconds."""
    socket_path = folder / "engine.sock"
    server = subprocess.Popen(
        [sys.executable, str(ENGINE), "serve-zygote", str(socket_path)],
        stdin=subprocess.PIPE,  # it ends when this closes: a driver killed outright leaves no server behind
        stdout=subprocess.PIPE,
        stderr=open(folder / "fork-server.log", "wb"),  # noqa: SIM115 - the process holds it
        start_new_session=True,
    )
    try:
        assert server.stdout is not None
        if server.stdout.readline().strip() != b"ready":
            raise RuntimeError(f"the fork server did not start: {(folder / 'fork-server.log').read_text(errors='replace')[-2000:]}")
        yield socket_path
    finally:
        server.terminate()
        try:
            server.wait(timeout=5)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def selected_ids(selection: Sequence[str]) -> list[str]:
    """The ids of the scenarios `run` selects with these arguments (--area, --ruleset, --id, --tag)."""
    wanted: dict[str, list[str]] = {"--area": [], "--ruleset": [], "--id": [], "--tag": [], "--clause": []}
    for flag, value in zip(selection[::2], selection[1::2], strict=True):
        wanted[flag].append(value)
    chosen = select(
        load_corpus(default_root()),
        ids=wanted["--id"],
        rulesets=wanted["--ruleset"],
        areas=wanted["--area"],
        clauses=wanted["--clause"],
        tags=wanted["--tag"],
    )
    return [sc.id for sc in chosen]


def run_once(
    index: int,
    seed: str,
    rate: float,
    folder: Path,
    socket_path: Path,
    selection: Sequence[str],
    ids: Sequence[str],
    only: str | None = None,
    tag: str = "",
) -> Run:
    """One harness run against the mutating engine, checked: exit code, stderr, every report."""
    run = Run(index, seed)
    out = folder / (f"run-{index}-{tag}" if tag else f"run-{index}")
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    log = out / "mutations.log"
    engine = [sys.executable, "-S", str(LAUNCHER), str(socket_path), seed, repr(rate), "--hello-rate", repr(HELLO_RATE), "--log", str(log)]
    engine += ["--only", only] if only is not None else []
    args = ["run", "--engine", " ".join(engine), "--report-dir", str(out / "reports"), "--timeout", str(TIMEOUT)]
    options, env = VARIANTS[index % len(VARIANTS)]
    args += ["--startup-timeout", str(STARTUP_TIMEOUT), *options, *selection]
    start = time.monotonic()
    try:
        proc = subprocess.run(
            [sys.executable, "-c", RUNNER, *args],
            capture_output=True,
            text=True,
            errors="replace",
            timeout=RUN_LIMIT,
            check=False,
            env={**os.environ, **env},
        )
        run.code, run.stderr = proc.returncode, proc.stderr
    except subprocess.TimeoutExpired as exc:
        run.stderr = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else (exc.stderr or "")
        run.problems.append(f"the run did not end within {RUN_LIMIT:g} s")
    run.seconds = time.monotonic() - start
    if "peak-kb" in run.stderr:
        run.peak_mb = float(run.stderr.rsplit("peak-kb", 1)[-1].split()[0]) / 1024
    if log.exists():
        run.mutations = log.read_text(encoding="utf-8", errors="replace").splitlines()
    if run.code is not None and run.code not in (0, 1):
        run.problems.append(f"exit code {run.code} (expected 0 or 1)")
    if "Traceback" in run.stderr:
        tail = [line for line in run.stderr.splitlines() if line.strip() and not line.startswith("peak-kb")][-1:]
        run.problems.append("a traceback on stderr: " + (tail[0] if tail else ""))
    run.problems += check_reports(out / "reports", ids, run.outcomes)
    if run.problems:
        (out / "stderr.txt").write_text(run.stderr, encoding="utf-8", errors="replace")
    else:
        shutil.rmtree(out, ignore_errors=True)  # a sound run's reports are not kept
    return run


def check_reports(folder: Path, ids: Sequence[str], outcomes: Counter[str]) -> list[str]:
    """What is wrong with a run's reports: report.jsonl readable by the harness (its schema) with
    an outcome for every selected scenario, junit.xml parsing, summary.md there."""
    problems: list[str] = []
    try:
        saved = read(folder / "report.jsonl")
    except InputError as exc:
        problems.append(f"report.jsonl: {str(exc).replace(str(folder / 'report.jsonl'), 'line')}")
    else:
        got = {str(r["id"]): str(r["outcome"]) for r in saved.records}
        outcomes.update(got.values())
        missing = [sid for sid in ids if sid not in got]
        if missing or len(got) != len(ids):
            problems.append(f"report.jsonl: {len(got)} scenario records for {len(ids)} selected (missing: {missing[:3]})")
        not_run = [sid for sid, outcome in got.items() if outcome == "NOT_RUN"]
        if not_run:
            problems.append(f"report.jsonl: {len(not_run)} scenarios NOT_RUN ({not_run[:3]})")
    try:
        suite = ET.parse(folder / "junit.xml").getroot()
        names = {case.get("name") for case in suite.iter("testcase")}
        if not set(ids) <= names:
            problems.append(f"junit.xml: {len(set(ids) - names)} selected scenarios have no test case")
    except (OSError, ET.ParseError) as exc:
        problems.append(f"junit.xml: {exc}")
    if not (folder / "summary.md").is_file():
        problems.append("summary.md was not written")
    return problems


def minimise(run: Run, rate: float, folder: Path, socket_path: Path, selection: Sequence[str], ids: Sequence[str]) -> None:
    """The mutation of `run` that breaks the same rule alone, into run.culprit: its mutations
    bisected (the engine's --only applies a set of them, each at its own position, so the whole
    set is the run again), keeping a half that still breaks it, to one mutation or to a pair of
    halves that only break it together."""
    order = [m.group(1) for line in run.mutations if (m := _KEY.search(line))]
    keys = list(dict.fromkeys(order))
    signature = run.signature()
    tries = 0

    def breaks(subset: list[str]) -> bool:
        nonlocal tries
        tries += 1
        again = run_once(run.index, run.seed, rate, folder, socket_path, selection, ids, only=",".join(subset), tag=f"min{tries}")
        return bool(again.problems) and again.signature() == signature

    if not keys or not breaks(keys):
        run.culprit = "not reproduced by its own mutations alone (a timing fault?)"
        return
    while len(keys) > 1 and tries < MINIMISE_TRIES:
        half = len(keys) // 2
        if breaks(keys[:half]):
            keys = keys[:half]
        elif breaks(keys[half:]):
            keys = keys[half:]
        else:
            break
    lines = {m.group(1): line.split(" seq=", 1)[-1] for line in run.mutations if (m := _KEY.search(line))}
    if len(keys) == 1:
        run.culprit = f"--only {keys[0]}: {lines[keys[0]]}"
    else:
        run.culprit = f"{len(keys)} mutations together (--only {','.join(keys[:6])}{',...' if len(keys) > 6 else ''})"


def fuzz(
    replies: int,
    seed: int,
    *,
    jobs: int = 2,
    rate: float = 0.03,
    selection: Sequence[str] = (),
    folder: Path | None = None,
    shrink: bool = True,
    progress: Callable[[str], None] | None = None,
) -> Summary:
    """Harness runs (at most `jobs` at once) until the runs done hold at least `replies` mutated
    replies. Run K's mutations depend only on `seed` and K; the runs in flight when the count is
    reached are finished and counted too."""
    start = time.monotonic()
    ids = selected_ids(selection)
    own = folder is None
    work = Path(tempfile.mkdtemp(prefix="reply-fuzz-")) if folder is None else folder
    work.mkdir(parents=True, exist_ok=True)
    runs: list[Run] = []
    try:
        with fork_server(work) as socket_path, ThreadPoolExecutor(max_workers=jobs) as pool:
            pending: set[Future[Run]] = set()
            index = 0
            while True:
                while len(pending) < jobs and sum(len(r.mutations) for r in runs) < replies:
                    pending.add(pool.submit(run_once, index, f"{seed}.{index}", rate, work, socket_path, selection, ids))
                    index += 1
                if not pending:
                    break
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    run = future.result()
                    runs.append(run)
                    if progress is not None:
                        mark = f" PROBLEM: {run.problems[0]}" if run.problems else ""
                        total = sum(len(r.mutations) for r in runs)
                        progress(f"run {run.index}: {len(run.mutations)} mutations, exit {run.code}, {run.seconds:.1f} s ({total}){mark}")
            runs.sort(key=lambda r: r.index)
            if shrink:
                seen: set[str] = set()
                for run in runs:
                    if run.problems and run.signature() not in seen:
                        seen.add(run.signature())
                        minimise(run, rate, work, socket_path, selection, ids)
    finally:
        if own and not any(r.problems for r in runs):
            shutil.rmtree(work, ignore_errors=True)
    return Summary(runs, time.monotonic() - start, work)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m tests.conformance.reply_fuzz", description=__doc__.split("\n\n")[0])
    p.add_argument("--replies", type=int, default=10_000, help="mutated replies to serve, at least (default 10000)")
    p.add_argument("--seed", type=int, default=1, help="the fuzz seed: run K mutates with the engine seed SEED.K")
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="harness runs at once (default: every core)")
    p.add_argument("--rate", type=float, default=0.03, help="the share of replies mutated (default 0.03)")
    p.add_argument("--area", action="append", default=[], help="only this area of the corpus (repeatable)")
    p.add_argument("--ruleset", action="append", default=[], help="only this ruleset (repeatable)")
    p.add_argument("--out", type=Path, default=None, help="where runs that break a rule are kept (default: a temporary folder)")
    p.add_argument("--no-shrink", action="store_true", help="do not minimise a failing run to its one mutation")
    args = p.parse_args(argv)
    selection = [x for area in args.area for x in ("--area", area)] + [x for rid in args.ruleset for x in ("--ruleset", rid)]
    summary = fuzz(
        args.replies,
        args.seed,
        jobs=max(1, args.jobs),
        rate=args.rate,
        selection=selection,
        folder=args.out,
        shrink=not args.no_shrink,
        progress=lambda line: print(line, flush=True),
    )
    for line in summary.lines():
        print(line)
    if summary.crashes:
        print(f"the failing runs are kept in {summary.folder}/run-K/ (reports, stderr, mutations.log)")
    return 1 if summary.crashes else 0


if __name__ == "__main__":
    sys.exit(main())
