"""``@cairn.calcfunction``: Python functions run here and recorded on a real server, with the cache."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from cairn_client import Client, Conflict, ExitCode, InvalidInput, Node


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


def test_a_call_asks_the_cache_only_while_it_may_be_served_from_it(cairn: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[str] = []
    post = cairn._http.post

    def counting(path: str, *args: Any, **kwargs: Any) -> Any:
        asked.append(path)
        return post(path, *args, **kwargs)

    monkeypatch.setattr(cairn._http, "post", counting)

    @cairn.calcfunction
    def by_default(x: int) -> int:  # the server of these tests runs with cairn.caching off
        return x + 1

    @cairn.calcfunction(use_cache=False)
    def never(x: int) -> int:
        return x + 2

    @cairn.calcfunction(use_cache=True)
    def always(x: int) -> int:
        return x + 3

    reuse, record = "/api/v1/function-runs/reuse", "/api/v1/function-runs"
    assert [by_default(1).value, by_default(2).value] == [2, 3]
    assert asked == [reuse, record, record], "the server said its caching is off for it: asked once"
    asked.clear()
    assert [never(1).value, never(2).value] == [3, 4]
    assert asked == [record, record]
    asked.clear()
    assert [always(1).value, always(1).value] == [4, 4]
    assert asked == [reuse, record, reuse], "the second call came from the cache"


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


def test_files_and_folders_go_in_and_come_out(cairn: Client, tmp_path: Path) -> None:
    scan = tmp_path / "scan.csv"
    scan.write_text("1,2\n3,4\n")
    seen: list[Path] = []

    @cairn.calcfunction(use_cache=True)
    def plot(scan: Path, title: str) -> dict[str, object]:
        seen.append(scan)
        rows = [[int(v) for v in line.split(",")] for line in scan.read_text().splitlines()]
        out = tmp_path / f"out-{len(seen)}"
        (out / "frames" / "sub").mkdir(parents=True)
        for i, row in enumerate(rows):
            (out / "frames" / ("sub" if i else "") / f"{i}.txt").write_text(str(row))
        figure = out / "figure.svg"
        figure.write_text(f"<svg>{title} {rows}</svg>", encoding="utf-8")
        (out / "empty").mkdir()
        return {"figure": figure, "frames": out / "frames", "empty": out / "empty", "total": sum(map(sum, rows))}

    run = plot.run(scan, "µ scan")
    assert seen == [scan], "the body gets the path as it was given"
    figure = run.outputs["figure"]
    assert figure.node_type == "data.core.singlefile.SinglefileData."
    assert figure.read_text() == "<svg>µ scan [[1, 2], [3, 4]]</svg>"
    frames = run.outputs["frames"]
    assert frames.node_type == "data.core.folder.FolderData."
    assert frames.read_text("0.txt") == "[1, 2]" and frames.read_text("sub/1.txt") == "[3, 4]"
    assert run.outputs["empty"].files() == []
    assert run.outputs["total"].value == 10
    uploaded = run.process.inputs()["scan"]
    assert uploaded.read_text() == "1,2\n3,4\n" and uploaded.attributes["filename"] == "scan.csv"
    assert uploaded in figure.ancestors()

    again = plot.run(scan, "µ scan")
    assert len(seen) == 1, "the same file's content again: served from the cache"
    assert again.cached_from == run.process.uuid
    assert again.outputs["figure"].read_text() == figure.read_text()
    scan.write_text("5,6\n")
    assert plot.run(scan, "µ scan").outputs["total"].value == 11 and len(seen) == 2

    copies: list[Path] = []

    @cairn.calcfunction
    def describe(frames: Path, figure: Path) -> str:
        copies.extend([frames, figure])
        found = sorted(p.relative_to(frames).as_posix() for p in frames.rglob("*") if p.is_file())
        return f"{found} {figure.name} {len(figure.read_bytes())}"

    # file and folder nodes reach the body as local copies: outputs chain into calls written for paths
    summary = describe(frames, figure)
    assert isinstance(summary, Node) and summary.value == "['0.txt', 'sub/1.txt'] figure.svg 35"
    assert copies and not any(copy.exists() for copy in copies), "the copies are removed after the call"


def test_arrays_go_in_and_come_out_as_arrays(cairn: Client) -> None:
    import numpy as np

    seen: list[object] = []

    @cairn.calcfunction(use_cache=True)
    def smooth(signal: np.ndarray, width: int) -> np.ndarray:
        seen.append(signal)
        return np.convolve(signal, np.ones(width) / width, mode="valid")

    signal = np.linspace(0.0, 1.0, 11) ** 2
    expected = np.convolve(signal, np.ones(3) / 3, mode="valid")
    smoothed = smooth(signal, 3)
    assert isinstance(smoothed, Node) and smoothed.node_type == "data.core.array.ArrayData."
    assert seen[0] is signal, "the body gets the array as it was given"
    assert smoothed.attributes["array|default"] == [9]
    np.testing.assert_array_equal(smoothed.value, expected)
    creator = smoothed.incoming(link_types="create")[0].node
    stored = {link.label: link.node for link in creator.incoming(link_types="input_calc")}["signal"]
    np.testing.assert_array_equal(stored.array(), signal)
    assert smooth.run(signal, 3).cached_from == creator.uuid and len(seen) == 1

    @cairn.calcfunction
    def peak(values: object) -> float:
        assert isinstance(values, np.ndarray), "a stored ArrayData reaches the body as its array"
        return float(values.max())

    assert peak(smoothed).value == pytest.approx(float(expected.max()))

    counts = cairn.upload(np.array([[1, 2], [3, 4]], dtype=np.int32))
    assert counts.value.dtype == np.int64 and counts.value.tolist() == [[1, 2], [3, 4]]
    several = cairn.upload_arrays({"x": np.arange(4, dtype=np.float32).reshape(2, 2), "flags": np.array([True, False])})
    assert sorted(several.arrays()) == ["flags", "x"]
    assert several.array("flags").tolist() == [1, 0] and several.array("x").dtype == np.float64
    with pytest.raises(ValueError, match="holds the arrays"):
        several.array()
    grid = np.arange(24.0).reshape(2, 3, 4)[:, ::2, :]  # not contiguous: sent as a C-ordered copy
    back = cairn.upload(grid).value
    np.testing.assert_array_equal(back, grid)
    back[0, 0, 0] = -1.0  # an array of its own, writable
    assert cairn.upload(np.array([])).value.shape == (0,)
    with pytest.raises(TypeError, match="complex128"):
        cairn.upload(np.array([1j]))


def test_a_refused_call_leaves_no_uploaded_file(cairn: Client, tmp_path: Path) -> None:
    scan = tmp_path / "refused.csv"
    scan.write_text("1\n")

    @cairn.calcfunction
    def refused(_scan: Path) -> Path:
        return _scan

    files = "SinglefileData"
    before = {node.uuid for node in cairn.nodes(type=files)}
    with pytest.raises(InvalidInput, match="input '_scan': a name is letters"):
        refused(scan)
    assert {node.uuid for node in cairn.nodes(type=files)} == before

    @cairn.calcfunction
    def lost() -> Path:
        return tmp_path / "missing.txt"

    with pytest.raises(FileNotFoundError, match="output 'result': .*missing.txt does not exist"):
        lost()


def test_a_workflow_function_links_what_it_calls_and_returns(cairn: Client) -> None:
    @cairn.calcfunction
    def double(x: int) -> int:
        return x * 2

    @cairn.workfunction
    def quadruple(x: Node) -> Node:
        assert isinstance(x, Node), "a workflow's body gets nodes"
        return double(double(x))

    @cairn.workfunction(label="both")
    def both(a: Node, b: Node) -> dict[str, Node]:
        return {"first": quadruple(a), "second": double(b), "given": a}

    run = both.run(1, 5)
    assert run.process.state == "finished" and run.process.entry_point.endswith(".both")
    assert {k: v.value for k, v in run.outputs.items()} == {"first": 4, "second": 10, "given": 1}
    flow = run.process.node()
    assert flow.node_type == "process.workflow.workfunction.WorkFunctionNode." and flow.label == "both"
    called = sorted((link.type, link.node.process_type.rsplit(".", 1)[-1]) for link in flow.outgoing()
                    if link.type.startswith("call"))
    assert called == [("call_calc", "double"), ("call_work", "quadruple")]
    assert sorted(link.label for link in flow.outgoing(link_types="return")) == ["first", "given", "second"]
    given = run.process.inputs()["a"]
    assert given.uuid == run.outputs["given"].uuid, "the body passed on the very node it was given"
    inner = next(link.node for link in flow.outgoing() if link.type == "call_work")
    doubles = [link.node for link in inner.outgoing() if link.type == "call_calc"]
    assert len(doubles) == 2 and given in run.outputs["first"].ancestors()


def test_a_workflow_function_that_fails_or_is_killed_ends_so(cairn: Client) -> None:
    @cairn.calcfunction
    def double(x: int) -> int:
        return x * 2

    @cairn.workfunction
    def fails(x: Node) -> Node:
        double(x)
        raise RuntimeError("no convergence")

    with pytest.raises(RuntimeError, match="no convergence"):
        fails(2)
    failed = cairn.processes(entry_point="python:test_functions." + fails.__qualname__)[0]
    assert failed.state == "excepted" and "no convergence" in failed.node().attributes["exception"]

    @cairn.workfunction
    def makes_a_value(x: Node) -> int:
        return 3

    with pytest.raises(TypeError, match="a workflow returns nodes that the functions it called made"):
        makes_a_value(1)

    @cairn.workfunction
    def killed_midway(x: Node) -> Node:
        mine = cairn.processes(state=["waiting"], entry_point="python:test_functions." + killed_midway.__qualname__)
        mine[0].kill()
        return double(x)

    with pytest.raises(Conflict, match="has ended already: it is killed"), pytest.warns(UserWarning, match="could not be ended"):
        killed_midway(1)
    assert cairn.processes(entry_point="python:test_functions." + killed_midway.__qualname__)[0].state == "killed"


def test_a_workflow_function_links_the_shell_jobs_and_processes_it_launches(cairn: Client) -> None:
    @cairn.calcfunction
    def count(lines: Path) -> int:
        return len(lines.read_text().splitlines())

    @cairn.workfunction
    def survey(n: Node) -> dict[str, Node]:
        job = cairn.shell("seq {n}", {"n": n}, timeout=300)
        assert job.ok, job.exit_message
        chain = cairn.submit("arithmetic.add_multiply", {"x": n, "y": 1, "z": 2}).wait(300)
        return {"lines": count(job.outputs()["stdout"]), "listing": job.outputs()["stdout"], "result": chain.outputs()["result"]}

    run = survey.run(4)
    assert run.process.state == "finished", run.process
    assert run.outputs["lines"].value == 4 and run.outputs["result"].value == 10
    flow = run.process.node()
    called = sorted((link.type, link.node.process_type) for link in flow.outgoing() if link.type.startswith("call"))
    assert called == [
        ("call_calc", "core.shell"),
        ("call_calc", "python:test_functions." + count.__qualname__),
        ("call_work", "arithmetic.add_multiply"),
    ]
    assert [p["caller"] for p in run.process.detail()["called"]] == [run.process.uuid] * 3
    assert run.process.inputs()["n"] in run.outputs["lines"].ancestors(), "the job's output feeds the count"


def _returns_stored(cairn: Client, stored: Node) -> object:
    @cairn.calcfunction
    def give() -> Node:
        return stored

    return give()
