"""``@cairn.calcfunction``: Python functions run here and recorded on a real server, with the cache."""

from __future__ import annotations

import pytest

from cairn_client import Client, ExitCode, InvalidInput, Node


def test_a_call_is_recorded_with_its_inputs_outputs_and_source(cairn: Client) -> None:
    calls: list[tuple[float, int]] = []

    @cairn.calcfunction
    def scale(x: float, factor: int = 3) -> float:
        calls.append((x, factor))
        return x * factor

    stored = cairn.upload(2.5)
    result = scale(stored)
    assert isinstance(result, Node) and result.value == 7.5
    assert calls == [(2.5, 3)], "the body receives the values of the nodes"
    creator = result.incoming(link_types="create")[0].node
    name = "test_a_call_is_recorded_with_its_inputs_outputs_and_source.<locals>.scale"
    assert creator.process_type == "python:test_functions." + name
    assert creator.attributes["function_name"] == name
    assert "return x * factor" in creator.read_text("source_file")
    inputs = {link.label: link.node for link in creator.incoming(link_types="input_calc")}
    assert inputs["x"].uuid == stored.uuid and inputs["factor"].value == 3

    # the output feeds the next call: the provenance chains
    twice = scale(result, 2)
    assert isinstance(twice, Node) and twice.value == 15.0
    assert stored in twice.ancestors()


def test_a_dict_returns_named_outputs_and_the_cache_spares_a_second_run(cairn: Client) -> None:
    runs = []

    @cairn.calcfunction(use_cache=True)
    def stats(values: list[float]) -> dict[str, object]:
        runs.append(values)
        return {"mean": sum(values) / len(values), "summary": {"n": len(values)}}

    first = stats.run([1.0, 2.0, 6.0])
    assert first.outputs["mean"].value == 3.0 and first.outputs["summary"].value == {"n": 3}
    assert first.cached_from is None
    again = stats.run([1.0, 2.0, 6.0])
    assert len(runs) == 1, "served from the cache, not run again"
    assert again.cached_from == first.process.uuid
    assert again.outputs["mean"].value == 3.0 and again.outputs["mean"].uuid != first.outputs["mean"].uuid
    other = stats.run([1.0])
    assert len(runs) == 2 and other.cached_from is None


def test_a_failure_and_an_exception_are_recorded(cairn: Client) -> None:
    @cairn.calcfunction
    def check(n: int) -> object:
        if n < 0:
            return ExitCode(3, "negative")
        return 1 // n

    assert check(-1) == ExitCode(3)
    failed = cairn.processes(entry_point="python:test_functions.test_a_failure_and_an_exception_are_recorded.<locals>.check", limit=5)
    assert [p.exit_status for p in failed][:1] == [3]
    with pytest.raises(ZeroDivisionError):
        check(0)
    excepted = cairn.processes(state=["excepted"], limit=5)
    assert any("ZeroDivisionError" in (p.detail().get("exception") or "") for p in excepted)


def test_bad_calls_are_refused_and_store_nothing(cairn: Client) -> None:
    @cairn.calcfunction
    def echo(value: object) -> object:
        return value

    stored = cairn.upload(1)
    with pytest.raises(ValueError, match="a calcfunction creates its outputs"):
        _returns_stored(cairn, stored)
    with pytest.raises(TypeError, match="input 'value'"):
        echo(object())
    with pytest.raises(InvalidInput, match="a name is letters, digits and single underscores"):
        cairn.calcfunction(lambda _x: 1)(1)


def _returns_stored(cairn: Client, stored: Node) -> object:
    @cairn.calcfunction
    def give() -> Node:
        return stored

    return give()
