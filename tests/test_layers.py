"""The layers import one way: `spec` (the spec data and its model), then `reference_impl` (the
engine), then `conformance` (the harness), then the docs generator, the benchmarks and the peer
adapters. No module imports a private module (`_name`) of another package, only its public API
(the names its `__init__` exports); tests of a package may use its private modules. Within a
package the modules import each other without a cycle (function-level imports count too: a cycle
hidden in a function is still a cycle).

The checker reads the sources with `ast`, so it sees every import, however it is written; the
last tests show that it fails on each kind of breach."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

#: the project's packages by layer: a module may import its own layer and those below it
LAYERS = {"spec": 0, "reference_impl": 1, "conformance": 2, "docsgen": 3}
#: folders of code outside the packages, and the layer they sit at (they use the public APIs)
CONSUMERS = {"docs/_build": 3, "benchmarks": 3, "peers": 3}


@dataclass(frozen=True)
class Import:
    file: str
    line: int
    module: str  # the module imported from (a package or a module of it)
    names: tuple[str, ...]  # for `from module import names`; empty for `import module`


def _imports(path: Path, rel: str) -> Iterator[Import]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)

    def visit(node: ast.AST) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and isinstance(child.test, ast.Name) and child.test.id == "TYPE_CHECKING":
                continue  # for the type checker only: no import at run time
            if isinstance(child, ast.ImportFrom) and child.module and not child.level:
                yield Import(rel, child.lineno, child.module, tuple(a.name for a in child.names))
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    yield Import(rel, child.lineno, alias.name, ())
            yield from visit(child)

    yield from visit(tree)


def _owner(rel: str) -> tuple[str | None, int | None]:
    """The package a file belongs to (None outside the packages) and the layer it sits at."""
    parts = Path(rel).parts
    if parts[0] in LAYERS:
        return parts[0], LAYERS[parts[0]]
    if parts[:2] == ("docs", "_build"):
        return ("docsgen" if "docsgen" in parts else None), 3
    if parts[0] == "tests":
        # tests/<package>/... may use that package's private modules; tests are above every layer
        return (parts[1] if len(parts) > 2 and parts[1] in LAYERS else None), 4
    for folder, layer in CONSUMERS.items():
        if rel.startswith(folder + "/"):
            return None, layer
    return None, None


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _modules(root: Path) -> list[tuple[Path, str]]:
    folders = [*LAYERS, *CONSUMERS, "tests"]
    out = []
    for folder in folders:
        base = root / ("docs/_build/docsgen" if folder == "docsgen" else folder)
        out += [(p, p.relative_to(root).as_posix()) for p in sorted(base.rglob("*.py")) if "__pycache__" not in p.parts]
    return sorted(set(out), key=lambda t: t[1])


def _package_of(module: str) -> str | None:
    top = module.split(".", maxsplit=1)[0]
    return top if top in LAYERS else None


def breaches(root: Path) -> list[str]:
    """Every import against the layer order, every private import across packages, every cycle."""
    problems: list[str] = []
    edges: dict[str, set[str]] = {}  # module -> modules of the same package it imports
    for path, rel in _modules(root):
        owner, layer = _owner(rel)
        me = rel[: -len(".py")].replace("/", ".").removesuffix(".__init__")
        if owner == "docsgen":
            me = me.split("docs._build.", 1)[1]
        for imp in _imports(path, rel):
            target = _package_of(imp.module)
            if target is None:
                continue
            where = f"{imp.file}:{imp.line}"
            if layer is not None and LAYERS[target] > layer:
                problems.append(f"{where}: {owner or rel} (layer {layer}) imports {imp.module}, a layer above it ({LAYERS[target]})")
            parts = imp.module.split(".")
            private = [p for p in parts[1:] if _is_private(p)] + [n for n in imp.names if _is_private(n)]
            if target != owner and private:
                shown = imp.module + (f" import {', '.join(imp.names)}" if imp.names else "")
                problems.append(f"{where}: {shown} is private to {target}; use its public API")
            if target == owner and not rel.startswith("tests/"):
                # a cycle counts modules, so `from package import _module` is an edge to that module
                subs = [f"{imp.module}.{n}" for n in imp.names if (root / f"{imp.module.replace('.', '/')}/{n}.py").exists()]
                for dep in subs or [imp.module]:
                    if dep != me:
                        edges.setdefault(me, set()).add(dep)
    problems += [f"import cycle: {' -> '.join(cycle)}" for cycle in _cycles(edges)]
    return problems


def _cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    found: list[list[str]] = []
    state: dict[str, int] = {}  # 1: on the path, 2: done

    def walk(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                found.append([*path[path.index(nxt) :], nxt])
            elif nxt not in state:
                walk(nxt, [*path, nxt])
        state[node] = 2

    for start in sorted(edges):
        if start not in state:
            walk(start, [start])
    return found


def test_the_project_imports_one_way() -> None:
    problems = breaches(ROOT)
    assert problems == [], "\n".join(problems)


def test_the_checker_reads_every_package() -> None:
    files = [rel for _, rel in _modules(ROOT)]
    for must in ("spec/_yamlio.py", "reference_impl/_round.py", "conformance/_harness.py", "docs/_build/docsgen/pages.py"):
        assert must in files


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"spec/_cards.py": "from reference_impl import Round\n"}, "spec (layer 0) imports reference_impl, a layer above it (1)"),
        ({"reference_impl/_round.py": "def f():\n    from conformance import run_suite\n"}, "imports conformance, a layer above it"),
        ({"conformance/_runner.py": "from reference_impl._round import Round\n"}, "reference_impl._round import Round is private"),
        ({"conformance/_runner.py": "from spec import _yamlio\n"}, "spec import _yamlio is private to spec"),
        ({"benchmarks/x.py": "import reference_impl._deal\n"}, "reference_impl._deal is private to reference_impl"),
        ({"tests/conformance/test_x.py": "from reference_impl._round import Round\n"}, "private to reference_impl"),
        (
            {
                "reference_impl/_a.py": "from reference_impl._b import x\n",
                "reference_impl/_b.py": "def g():\n    from reference_impl._a import y\n",
            },
            "import cycle: reference_impl._a -> reference_impl._b -> reference_impl._a",
        ),
    ],
)
def test_the_checker_fails_on_each_kind_of_breach(tmp_path: Path, files: dict[str, str], expected: str) -> None:
    problems = breaches(_tree(tmp_path, files))
    assert any(expected in p for p in problems), problems


def test_the_checker_allows_what_the_layers_allow(tmp_path: Path) -> None:
    files = {
        "reference_impl/_round.py": "from spec import Options\nfrom reference_impl._deal import Deal\n",
        "reference_impl/_deal.py": "from spec import deck\n",
        "conformance/_runner.py": "from reference_impl import Round\nfrom spec import InputError\n",
        "tests/reference_impl/test_round.py": "from reference_impl._round import Round\n",
        "spec/_rulesets.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from reference_impl import Round\n",
    }
    assert breaches(_tree(tmp_path, files)) == []


def graph(root: Path) -> list[str]:
    """The import graph the checker reads: per importing layer, the packages it imports and how
    many import statements do; then each package's modules with the same-package modules each
    imports. `python tests/test_layers.py` prints it."""
    between: dict[tuple[str, str], int] = {}
    within: dict[str, set[str]] = {}
    for path, rel in _modules(root):
        if rel.startswith("tests/"):
            continue
        owner, _ = _owner(rel)
        me = rel[: -len(".py")].replace("/", ".").removesuffix(".__init__")
        source = owner or rel.split("/")[0]
        for imp in _imports(path, rel):
            target = _package_of(imp.module)
            if target is None:
                continue
            if target != owner:
                between[(source, target)] = between.get((source, target), 0) + 1
            elif owner != "docsgen":
                subs = [f"{imp.module}.{n}" for n in imp.names if (root / f"{imp.module.replace('.', '/')}/{n}.py").exists()]
                within.setdefault(me, set()).update(d for d in (subs or [imp.module]) if d != me)
    lines = [f"{a} -> {b}: {n} imports" for (a, b), n in sorted(between.items())]
    lines += [f"{m} -> {', '.join(sorted(deps))}" for m, deps in sorted(within.items())]
    return lines


if __name__ == "__main__":
    print("\n".join(graph(ROOT)))
    problems = breaches(ROOT)
    print("\n".join(problems) if problems else "no breach: one-way layers, no private import across packages, no cycle")
