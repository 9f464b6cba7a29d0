"""The package's lazily imported names (PEP 562, reference_impl/__init__.py)."""

from __future__ import annotations

import pytest

from gostop_conformance import reference


@pytest.mark.parametrize("name", reference.__all__)
def test_every_public_name_resolves_to_its_home(name: str) -> None:
    """The package imports its names on first use (PEP 562, reference_impl/__init__.py): each name of
    __all__ is the object of the private module that defines it, and is kept once resolved."""
    value = reference.__getattr__(name)
    assert vars(reference)[name] is value
    assert value is not None


def test_deal_and_round_resolve_to_their_modules() -> None:
    """Spot checks of the lazy import: the names the harness uses most come from their modules."""
    from gostop_conformance.reference import _deal, _round

    assert reference.__getattr__("Deal") is _deal.Deal
    assert reference.__getattr__("complete_deal_json") is _deal.complete_deal_json
    assert reference.__getattr__("Round") is _round.Round


def test_an_unknown_name_is_the_usual_attribute_error() -> None:
    """A name the package does not have raises AttributeError with Python's usual message, so
    hasattr() and `from gostop_conformance.reference import x` behave as for any module."""
    with pytest.raises(AttributeError, match=r"^module 'gostop_conformance\.reference' has no attribute 'no_such_name'$"):
        reference.__getattr__("no_such_name")
    assert not hasattr(reference, "no_such_name")


def test_dir_lists_the_public_api() -> None:
    """PEP 562: the lazily imported names are listed by dir() like any others."""
    assert set(reference.__all__) <= set(dir(reference))


def test_the_engine_version_is_the_installed_distribution_version() -> None:
    """What `hello` reports as the engine's version (the installed gostop-conformance)."""
    from importlib.metadata import version

    assert reference.engine_version() == version("gostop-conformance")


def test_a_source_tree_without_installation_reports_an_unknown_version(monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib.metadata import PackageNotFoundError

    from gostop_conformance.reference import _build

    def not_installed(name: str) -> str:
        raise PackageNotFoundError(name)

    monkeypatch.setattr(_build, "version", not_installed)
    assert _build.engine_version() == "0+unknown"


def test_the_build_is_compiled_when_the_round_module_is_a_c_extension(monkeypatch: pytest.MonkeyPatch) -> None:
    """engine_build() reads the file the round module was loaded from: an extension module
    (mypyc's output) is the compiled build, a .py file the interpreted one. Checked on both
    builds by pretending the module's file (the compiled build itself runs under make test-compiled)."""
    from importlib.machinery import EXTENSION_SUFFIXES

    import gostop_conformance.reference._round as round_module
    from gostop_conformance.reference import _build

    monkeypatch.setattr(round_module, "__file__", "/site/reference_impl/_round" + EXTENSION_SUFFIXES[0])
    assert _build.engine_build() == "compiled"
    monkeypatch.setattr(round_module, "__file__", "/src/reference_impl/_round.py")
    assert _build.engine_build() == "interpreted"
