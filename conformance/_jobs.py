"""Work spread over worker processes (`--jobs N` of fuzz and profile), each with an engine process
of its own, the results handed back in the order the work was listed: a run with N jobs merges
them exactly as one job computes them, so its report is the same byte for byte.

A task is a module-level function `task(worker, item)`; `worker` is a dict holding the worker's
`engine` and the run's shared data (sent once to each worker, not with every item), where a task
may also keep what it builds once per process (a reference engine). Workers are started with the
`spawn` method: a forked worker would inherit the parent's pipes to its own engine.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from multiprocessing import util
from typing import Any, TypeVar

from gostop_conformance.harness._engine import Engine

T = TypeVar("T")
R = TypeVar("R")

#: what the process's worker holds (one worker per process)
_WORKER: dict[str, Any] = {}


@dataclass(frozen=True)
class StdioSpawn:
    """Starts an engine process as the command line said (a picklable factory for the workers)."""

    argv: Sequence[str]
    options: Mapping[str, Any] = field(default_factory=dict)

    def __call__(self) -> Engine:
        from gostop_conformance.harness._stdio import StdioEngine

        engine = StdioEngine(self.argv, **self.options)
        engine.start()
        return engine


def _start(spawn: Callable[[], Engine], shared: Mapping[str, Any]) -> None:
    engine = spawn()
    _WORKER.clear()
    _WORKER.update(shared)
    _WORKER["engine"] = engine
    close = getattr(engine, "close", None)
    if close is not None:  # when the pool lets the worker go, its engine goes too
        util.Finalize(None, close, exitpriority=10)


def _run(job: tuple[Callable[[dict[str, Any], Any], Any], Any]) -> Any:
    task, item = job
    return task(_WORKER, item)


class Workers:
    """`jobs` worker processes, each with an engine started by `spawn` and the run's `shared`
    data; a context manager (leaving it stops the workers and their engines)."""

    def __init__(self, jobs: int, spawn: Callable[[], Engine], shared: Mapping[str, Any]) -> None:
        self._pool = multiprocessing.get_context("spawn").Pool(jobs, initializer=_start, initargs=(spawn, dict(shared)))

    def __enter__(self) -> Workers:
        return self

    def __exit__(self, *exc: object) -> None:
        self._pool.terminate()
        self._pool.join()

    def ordered(self, task: Callable[[dict[str, Any], T], R], items: Iterable[T]) -> Iterator[R]:
        """task(worker, item) for every item, yielded in the items' order."""
        return self._pool.imap(_run, ((task, item) for item in items))


def chunks(total: int, jobs: int, most: int = 50) -> list[range]:
    """0..total-1 in consecutive chunks, small enough that every worker gets several (the
    last ones finish together) and large enough that a chunk is worth a message."""
    size = max(1, min(most, total // (jobs * 4)))
    return [range(start, min(start + size, total)) for start in range(0, total, size)]
