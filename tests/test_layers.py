"""The layers import one way: `gostop_conformance.spec` (the spec data and its model), then `.kit`
(the adapter kit: the protocol and the cards, no rule), then `.reference` (the engine), then
`.mutants` (deliberately broken engines), then `.harness`, then the docs generator, the benchmarks
and the peer adapters. Every import goes through the one installed
namespace: the repository's folders are never imported by their own names (`spec`,
`reference_impl`, ...), which would load a second copy of a module. No module imports a private
module (`_name`) of another package, or reads a private attribute of one, only its public API (the
names its `__init__` exports); the one exception is the mutants, whose whole point is to reach into
the engine. Tests of a package may use its private modules. Within a package the modules import
each other without a cycle (function-level imports count too: a cycle hidden in a function is
still a cycle).

The checker reads the sources with `ast`, so it sees every import, however it is written; the
last tests show that it fails on each kind of breach."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
NAMESPACE = "gostop_conformance"

#: the namespace's packages by layer: a module may import its own layer and those below it
LAYERS = {"spec": 0, "kit": 1, "reference": 2, "mutants": 3, "harness": 4, "docsgen": 5}
#: the repository folder of each package (src/gostop_conformance/<package> links to it)
FOLDERS = {"spec": "spec", "kit": "kit", "reference": "reference_impl", "mutants": "reference_mutants", "harness": "conformance"}
#: who may read a package's private modules and attributes besides the package itself and its tests
PRIVATE_READERS = {"reference": {"mutants"}}
#: folders of code outside the packages, and the layer they sit at (they use the public APIs)
CONSUMERS = {"docs/_build": 5, "benchmarks": 5, "peers": 5, "build_backend": 5}
#: names of the repository's folders, which no code may import as top-level packages
FOLDER_NAMES = {*FOLDERS.values(), "scenarios"}


@dataclass(frozen=True)
class Import:
    file: str
    line: int
    module: str  # the module imported from (a package or a module of it)
    names: tuple[str, ...]  # for `from module import names`; empty for `import module`
    bound: tuple[str, ...] = ()  # the local names the import binds to modules (for attribute reads)


def _imports(tree: ast.AST, rel: str) -> Iterator[Import]:
    def visit(node: ast.AST) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and isinstance(child.test, ast.Name) and child.test.id == "TYPE_CHECKING":
                continue  # for the type checker only: no import at run time
            if isinstance(child, ast.ImportFrom) and child.module and not child.level:
                bound = tuple(a.asname or a.name for a in child.names)
                yield Import(rel, child.lineno, child.module, tuple(a.name for a in child.names), bound)
            elif isinstance(child, ast.Import):
                for alias in child.names:
                    yield Import(rel, child.lineno, alias.name, (), (alias.asname,) if alias.asname else ())
            yield from visit(child)

    yield from visit(tree)


def _owner(rel: str) -> tuple[str | None, int | None]:
    """The package a file belongs to (None outside the packages) and the layer it sits at."""
    parts = Path(rel).parts
    for package, folder in FOLDERS.items():
        if parts[0] == folder:
            return package, LAYERS[package]
    if parts[:2] == ("docs", "_build"):
        return ("docsgen" if "docsgen" in parts else None), LAYERS["docsgen"]
    if parts[0] == "tests":
        # tests/<folder>/... may use that package's private modules; tests are above every layer
        tested = next((p for p, f in FOLDERS.items() if len(parts) > 2 and parts[1] == f), None)
        return tested, len(LAYERS)
    for folder, layer in CONSUMERS.items():
        if rel.startswith(folder + "/"):
            return None, layer
    return None, None


def _is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _modules(root: Path) -> list[tuple[Path, str]]:
    folders = [*FOLDERS.values(), "docs/_build", *CONSUMERS, "tests"]
    out = []
    for folder in folders:
        out += [(p, p.relative_to(root).as_posix()) for p in sorted((root / folder).rglob("*.py")) if "__pycache__" not in p.parts]
    return sorted(set(out), key=lambda t: t[1])


def _package_of(module: str) -> str | None:
    """The namespace's package a module belongs to (`gostop_conformance.reference._round` ->
    `reference`), or `docsgen`; None for anything else."""
    parts = module.split(".")
    if parts[0] == NAMESPACE and len(parts) > 1 and parts[1] in LAYERS:
        return parts[1]
    return "docsgen" if parts[0] == "docsgen" else None


def _module_name(rel: str, owner: str | None) -> str:
    """The dotted name a file is imported as (`reference_impl/_round.py` ->
    `gostop_conformance.reference._round`)."""
    dotted = rel[: -len(".py")].replace("/", ".").removesuffix(".__init__")
    if owner == "docsgen":
        return dotted.split("docs._build.", 1)[1]
    if owner is not None and not rel.startswith("tests/"):
        return f"{NAMESPACE}.{owner}" + dotted[len(FOLDERS[owner]) :]
    return dotted


def _module_file(root: Path, module: str) -> Path | None:
    """The repository file of a namespace module, if it is one of ours."""
    package = _package_of(module)
    if package is None or package == "docsgen":
        return None
    rest = module.split(".")[2:]
    return root / FOLDERS[package] / Path(*rest, "placeholder").parent


def _same_package_modules(root: Path, imp: Import) -> list[str]:
    """`from package import _module` imports a module: an edge to it, not to the package."""
    base = _module_file(root, imp.module)
    if base is None:
        return [imp.module]
    subs = [f"{imp.module}.{n}" for n in imp.names if (base / f"{n}.py").exists()]
    return subs or [imp.module]


def _may_read_privates(reader: str | None, target: str) -> bool:
    return reader == target or reader in PRIVATE_READERS.get(target, set())


def breaches(root: Path) -> list[str]:
    """Every import of a folder by its own name, every import against the layer order, every
    private import or attribute read across packages, every cycle."""
    problems: list[str] = []
    edges: dict[str, set[str]] = {}  # module -> modules of the same package it imports
    for path, rel in _modules(root):
        owner, layer = _owner(rel)
        me = _module_name(rel, owner)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
        foreign: dict[str, str] = {}  # a local name bound to another package's module -> that package
        for imp in _imports(tree, rel):
            where = f"{imp.file}:{imp.line}"
            top = imp.module.split(".", 1)[0]
            if top in FOLDER_NAMES:
                problems.append(f"{where}: imports {imp.module}, a folder of the repository: import it as {NAMESPACE}.<package>")
                continue
            if imp.module == NAMESPACE:  # `from gostop_conformance import spec`: the names are the packages
                for name, bound in zip(imp.names, imp.bound, strict=True):
                    if name in LAYERS and name != owner:
                        foreign[bound] = name
                        if layer is not None and LAYERS[name] > layer:
                            problems.append(f"{where}: {owner or rel} (layer {layer}) imports {name}, a layer above it ({LAYERS[name]})")
                continue
            target = _package_of(imp.module)
            if target is None:
                continue
            if layer is not None and LAYERS[target] > layer:
                problems.append(f"{where}: {owner or rel} (layer {layer}) imports {imp.module}, a layer above it ({LAYERS[target]})")
            parts = imp.module.split(".")[2:] if target != "docsgen" else imp.module.split(".")[1:]
            private = [p for p in parts if _is_private(p)] + [n for n in imp.names if _is_private(n)]
            if private and not _may_read_privates(owner, target):
                shown = imp.module + (f" import {', '.join(imp.names)}" if imp.names else "")
                problems.append(f"{where}: {shown} is private to {target}; use its public API")
            if target != owner:
                for bound in imp.bound:
                    foreign[bound] = target
            elif not rel.startswith("tests/"):
                for dep in _same_package_modules(root, imp):
                    if dep != me:
                        edges.setdefault(me, set()).add(dep)
        for node in ast.walk(tree):  # `reference._round`, `engine_module._CARDS`: a private read all the same
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and _is_private(node.attr):
                target = foreign.get(node.value.id)
                if target is not None and not _may_read_privates(owner, target):
                    problems.append(f"{rel}:{node.lineno}: {node.value.id}.{node.attr} is private to {target}; use its public API")
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
    for must in (
        "spec/_yamlio.py",
        "reference_impl/_round.py",
        "reference_mutants/_set.py",
        "conformance/_harness.py",
        "conformance/_cli/_run.py",  # a package within a package
        "docs/_build/docsgen/pages.py",
        "build_backend/pgo_train.py",
    ):
        assert must in files


def test_the_namespace_links_every_package_to_its_folder() -> None:
    """src/gostop_conformance/<package> is the folder the checker reads as that package."""
    home = ROOT / "src" / NAMESPACE
    for package, folder in FOLDERS.items():
        assert (home / package).resolve() == (ROOT / folder).resolve(), package
    assert (home / "scenarios").resolve() == (ROOT / "scenarios").resolve()


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("files", "expected"),
    [
        ({"spec/_cards.py": "from gostop_conformance.reference import Round\n"}, "spec (layer 0) imports gostop_conformance.reference"),
        ({"reference_impl/_round.py": "def f():\n    from gostop_conformance.harness import run_suite\n"}, "a layer above it"),
        ({"reference_impl/_round.py": "from gostop_conformance.mutants import MUTANTS\n"}, "(layer 2) imports gostop_conformance.mutants"),
        ({"kit/_server.py": "from gostop_conformance.reference import JsonEngine\n"}, "kit (layer 1) imports gostop_conformance.reference"),
        ({"reference_impl/_round.py": "from gostop_conformance import harness\n"}, "reference (layer 2) imports harness, a layer above it"),
        ({"conformance/_runner.py": "from gostop_conformance.reference._round import Round\n"}, "import Round is private to reference"),
        ({"conformance/_runner.py": "from gostop_conformance.spec import _yamlio\n"}, "spec import _yamlio is private to spec"),
        ({"benchmarks/x.py": "import gostop_conformance.reference._deal\n"}, "reference._deal is private to reference"),
        ({"tests/conformance/test_x.py": "from gostop_conformance.reference._round import Round\n"}, "private to reference"),
        ({"conformance/_runner.py": "from gostop_conformance import reference\nx = reference._round\n"}, "reference._round is private to"),
        (
            {"conformance/_runner.py": "import gostop_conformance.reference as engine\nx = engine._CARDS\n"},
            "engine._CARDS is private to reference",
        ),
        ({"reference_mutants/_x.py": "from gostop_conformance.harness._runner import run\n"}, "layer above it"),
        ({"conformance/_runner.py": "from gostop_conformance.mutants._base import Mutant\n"}, "_base import Mutant is private to mutants"),
        ({"conformance/_runner.py": "from spec import InputError\n"}, "imports spec, a folder of the repository"),
        ({"benchmarks/x.py": "import reference_impl\n"}, "imports reference_impl, a folder of the repository"),
        ({"tests/test_x.py": "from conformance._cli import main\n"}, "imports conformance._cli, a folder of the repository"),
        (
            {
                "reference_impl/_a.py": "from gostop_conformance.reference._b import x\n",
                "reference_impl/_b.py": "def g():\n    from gostop_conformance.reference._a import y\n",
            },
            "import cycle: gostop_conformance.reference._a -> gostop_conformance.reference._b -> gostop_conformance.reference._a",
        ),
        (
            {
                "reference_impl/_a.py": "from gostop_conformance.reference import _b\n",
                "reference_impl/_b.py": "from gostop_conformance.reference import _a\n",
            },
            "import cycle: gostop_conformance.reference._a -> gostop_conformance.reference._b -> gostop_conformance.reference._a",
        ),
    ],
)
def test_the_checker_fails_on_each_kind_of_breach(tmp_path: Path, files: dict[str, str], expected: str) -> None:
    problems = breaches(_tree(tmp_path, files))
    assert any(expected in p for p in problems), problems


def test_the_checker_allows_what_the_layers_allow(tmp_path: Path) -> None:
    files = {
        "reference_impl/_round.py": "from gostop_conformance.spec import Options\nfrom gostop_conformance.reference._deal import Deal\n",
        "reference_impl/_deal.py": "from gostop_conformance.spec import deck\n",
        "reference_mutants/_base.py": (
            "import gostop_conformance.reference._round as round_mod\nfrom gostop_conformance.reference._state import _CARDS\n"
            "x = round_mod._request\n"
        ),
        "conformance/_runner.py": "from gostop_conformance.reference import Round\nfrom gostop_conformance.spec import InputError\n"
        "from gostop_conformance.mutants import applied\nfrom gostop_conformance import reference\nx = reference.Round\n",
        "tests/reference_impl/test_round.py": "from gostop_conformance.reference._round import Round\n",
        "spec/_rulesets.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from gostop_conformance.reference import Round\n",
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
        me = _module_name(rel, owner)
        source = owner or rel.split("/")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=rel)
        for imp in _imports(tree, rel):
            targets = [n for n in imp.names if n in LAYERS] if imp.module == NAMESPACE else [_package_of(imp.module)]
            for target in targets:
                if target is None:
                    continue
                if target != owner:
                    between[(source, target)] = between.get((source, target), 0) + 1
                elif owner != "docsgen":
                    within.setdefault(me, set()).update(d for d in _same_package_modules(root, imp) if d != me)
    lines = [f"{a} -> {b}: {n} imports" for (a, b), n in sorted(between.items())]
    lines += [f"{m} -> {', '.join(sorted(deps))}" for m, deps in sorted(within.items())]
    return lines


if __name__ == "__main__":
    print("\n".join(graph(ROOT)))
    problems = breaches(ROOT)
    print("\n".join(problems) if problems else "no breach: one-way layers, no private import across packages, no cycle")
