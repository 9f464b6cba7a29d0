"""The engine's value objects are built by keyword, so that mypy checks each field (issue 36): a
construction that gives a field the value meant for another is a type error, not a wrong score.

The value objects are found in the engine's source (named tuples, frozen dataclasses, and the
`Event` class); every construction of one in the engine names its fields. The mypy test swaps two
fields of different types in every such construction, all at once in a copy of the engine, and
expects a mypy error at each of them.
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINE = ROOT / "reference_impl"
PACKAGE = ROOT / "src" / "gostop_conformance"
#: a class of the engine's own that is a value but neither a named tuple nor a frozen dataclass
#: (compiled, it is built by a direct call: reference_impl/_events.py)
OWN_VALUE_CLASSES = frozenset({"Event"})


def _modules() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text(encoding="utf-8")) for path in sorted(ENGINE.glob("*.py"))}


def _is_frozen_dataclass(decorator: ast.expr) -> bool:
    return (
        isinstance(decorator, ast.Call)
        and isinstance(decorator.func, ast.Name)
        and decorator.func.id == "dataclass"
        and any(k.arg == "frozen" and isinstance(k.value, ast.Constant) and k.value.value is True for k in decorator.keywords)
    )


def value_fields(modules: dict[Path, ast.Module]) -> dict[str, dict[str, str]]:
    """Per value class of the engine: its fields and their annotations, as written."""
    out: dict[str, dict[str, str]] = {}
    for tree in modules.values():
        for node in tree.body:
            if not isinstance(node, ast.ClassDef):
                continue
            named_tuple = any(isinstance(b, ast.Name) and b.id == "NamedTuple" for b in node.bases)
            if named_tuple or any(_is_frozen_dataclass(d) for d in node.decorator_list):
                out[node.name] = {
                    s.target.id: ast.unparse(s.annotation)
                    for s in node.body
                    if isinstance(s, ast.AnnAssign) and isinstance(s.target, ast.Name)
                }
            elif node.name in OWN_VALUE_CLASSES:
                init = next(s for s in node.body if isinstance(s, ast.FunctionDef) and s.name == "__init__")
                out[node.name] = {a.arg: ast.unparse(a.annotation) for a in init.args.args[1:] if a.annotation is not None}
    return out


@dataclass(frozen=True)
class Construction:
    path: Path
    call: ast.Call
    name: str


def constructions(modules: dict[Path, ast.Module], classes: dict[str, dict[str, str]]) -> list[Construction]:
    found = []
    for path, tree in modules.items():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in classes:
                found.append(Construction(path, node, node.func.id))
    return sorted(found, key=lambda c: (c.path, c.call.lineno, c.call.col_offset))


def test_the_engine_has_value_classes_and_builds_them() -> None:
    classes = value_fields(_modules())
    assert {"Action", "Event", "Breakdown", "Seat", "LoserLine", "Settlement", "DealtCards", "Deal"} <= set(classes)
    built = {c.name for c in constructions(_modules(), classes)}
    assert {"Action", "Event", "Breakdown", "Seat", "LoserLine", "Settlement", "DealtCards"} <= built


def test_every_value_object_is_built_by_keyword() -> None:
    """No field given by position, and no tuple.__new__ (a positional construction mypy cannot see)."""
    modules = _modules()
    classes = value_fields(modules)
    positional = [
        f"{c.path.name}:{c.call.lineno}: {c.name}(...) with {len(c.call.args)} positional argument(s)"
        for c in constructions(modules, classes)
        if c.call.args
    ]
    assert positional == []
    bypass = [
        f"{path.name}:{node.lineno}"
        for path, tree in modules.items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr == "__new__"
    ]
    assert bypass == []


def _swap(c: Construction, fields: dict[str, str]) -> tuple[ast.expr, ast.expr] | None:
    """The values of the first two keywords of `c` whose fields are declared with different types."""
    named = [k for k in c.call.keywords if k.arg is not None and k.arg in fields]
    for i, a in enumerate(named):
        for b in named[i + 1 :]:
            assert a.arg is not None and b.arg is not None
            if fields[a.arg] != fields[b.arg]:
                return a.value, b.value
    return None


def _offset(lines: list[bytes], line: int, col: int) -> int:
    return sum(len(x) for x in lines[: line - 1]) + col


def _mutated(source: bytes, pairs: list[tuple[ast.expr, ast.expr]]) -> bytes:
    """`source` with the two values of each pair exchanged (ast offsets are UTF-8 byte offsets)."""
    lines = source.splitlines(keepends=True)
    spans: list[tuple[int, int, bytes]] = []
    for a, b in pairs:
        sa = (_offset(lines, a.lineno, a.col_offset), _offset(lines, a.end_lineno or a.lineno, a.end_col_offset or 0))
        sb = (_offset(lines, b.lineno, b.col_offset), _offset(lines, b.end_lineno or b.lineno, b.end_col_offset or 0))
        spans += [(*sa, source[sb[0] : sb[1]]), (*sb, source[sa[0] : sa[1]])]
    out = source
    for start, end, text in sorted(spans, reverse=True):
        out = out[:start] + text + out[end:]
    return out


def test_mypy_catches_a_swapped_field_in_every_value_object_construction(tmp_path: Path) -> None:
    """In a copy of the engine, two fields of different types swap values in every construction of
    a value object that names two fields or more; strict mypy must report an error within each of
    those calls, and none elsewhere."""
    pytest.importorskip("mypy")
    modules = _modules()
    classes = value_fields(modules)
    sites = constructions(modules, classes)
    package = tmp_path / "gostop_conformance"
    package.mkdir()
    shutil.copy(PACKAGE / "__init__.py", package / "__init__.py")
    (package / "py.typed").touch()
    for part in ("spec", "harness", "kit", "mutants", "scenarios"):
        (package / part).symlink_to((PACKAGE / part).resolve(), target_is_directory=True)
    copy = package / "reference"
    shutil.copytree(ENGINE, copy, ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    expected: list[tuple[str, int, int]] = []
    untouched = []
    for path in modules:
        here = [c for c in sites if c.path == path]
        pairs = [_swap(c, classes[c.name]) for c in here]
        # a construction naming one field or none (PlayerState(), a fresh seat) has nothing to swap
        untouched += [
            f"{path.name}:{c.call.lineno} {c.name}" for c, p in zip(here, pairs, strict=True) if p is None and len(c.call.keywords) > 1
        ]
        chosen = [p for p in pairs if p is not None]
        if not chosen:
            continue
        text = _mutated(path.read_bytes(), chosen)
        (copy / path.name).write_bytes(text)
        # the same constructions in the mutated file: the line ranges the errors must fall in
        again = [c for c in constructions({path: ast.parse(text)}, classes)]
        assert len(again) == len(here)
        expected += [
            (path.name, c.call.lineno, c.call.end_lineno or c.call.lineno) for c, p in zip(again, pairs, strict=True) if p is not None
        ]
    assert untouched == []  # every construction has two fields of different types to swap
    mypy = [sys.executable, "-m", "mypy", "--strict", "--python-version", "3.11", "--no-error-summary", "--show-absolute-path"]
    result = subprocess.run(
        [*mypy, "--cache-dir", str(tmp_path / "cache"), str(copy)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    errors: list[tuple[str, int]] = []
    for line in result.stdout.splitlines():
        where, _, rest = line.partition(": error: ")
        if rest:
            file, _, number = where.rpartition(":")
            errors.append((Path(file).name if Path(file).parent == copy else file, int(number)))
    missed = [f"{name}:{start}" for name, start, end in expected if not any(f == name and start <= n <= end for f, n in errors)]
    stray = [f"{f}:{n}" for f, n in errors if not any(f == name and start <= n <= end for name, start, end in expected)]
    assert len(expected) > 20
    assert missed == [], result.stdout[-3000:]
    assert stray == [], result.stdout[-3000:]
