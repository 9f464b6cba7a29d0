"""Option-read tracing (reference_impl/_tracing.py): the evidence behind a scenario's option
dependencies. The traced options read like the originals and record every option read."""

from __future__ import annotations

import pytest

from gostop_conformance.reference import _tracing
from gostop_conformance.spec import InputError, load_ruleset, reset_caches


@pytest.mark.skipif(not _tracing.can_trace(), reason="option reads are traced on the interpreted engine only (a compiled engine refuses)")
def test_traced_options_equal_the_originals_and_record_each_option_read() -> None:
    reset_caches()  # the traced class is built on first use, from an empty cache
    rs = load_ruleset("matgo-2p")
    reads: set[str] = set()
    traced = _tracing.traced(rs, reads)
    assert reads == set()
    assert traced.options.go_threshold == rs.options.go_threshold
    assert traced.options.players == 2
    assert reads == {"go_threshold", "players"}
    # the class is built once and reused
    assert type(_tracing.traced_options(rs.options, set())) is type(traced.options)


def test_a_compiled_engine_refuses_to_trace_naming_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_tracing, "can_trace", lambda: False)
    with pytest.raises(InputError) as refused:
        _tracing.traced_options(load_ruleset("matgo-2p").options, set())
    assert refused.value.where == "option tracing"
    assert refused.value.detail.startswith("the engine is compiled with mypyc")
