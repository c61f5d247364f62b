"""cairn-client against a real server: every feature of the "From Python" page, and its errors."""

from __future__ import annotations

import gc
import json
import time
import warnings
from pathlib import Path

import pandas
import pytest

from cairn_client import Client, InvalidInput, NotFound, Process, Unauthenticated, count, field
from cairn_client.config import resolve
from cairn_client._columns import RAW_COLUMNS, _arrow_strings, _raw_blocks, _Utf8


def test_connecting_with_a_profile_the_cli_wrote(server: tuple[str, str, Path], tmp_path: Path) -> None:
    url, token, _ = server
    (tmp_path / "tokens").mkdir()
    (tmp_path / "profiles.json").write_text(json.dumps({"current": "lab", "profiles": {"lab": {"url": url}}}))
    (tmp_path / "tokens" / "lab").write_text(token + "\n")
    with Client(env={"CAIRN_CONFIG_DIR": str(tmp_path)}) as client:
        assert client.target.source == "profile 'lab'"
        assert repr(client) == f"<Client {url} (profile 'lab')>"
        assert "version" in client.server()
    with pytest.raises(ValueError, match="no profile named 'nope'"):
        resolve(profile="nope", env={"CAIRN_CONFIG_DIR": str(tmp_path)})
    with pytest.raises(Unauthenticated):
        Client(url, token="cairn_wrong", env={}).node(1)


def test_nodes_by_pk_uuid_and_prefix_with_attributes_extras_and_links(cairn: Client) -> None:
    x = cairn.upload(3, label="x", extras={"project": "demo"})
    assert x.value == 3 and x.label == "x"
    assert cairn.node(x.pk) == x == cairn.node(x.uuid) == cairn.node(x.uuid[:12])
    # what the repr shows names the node: the uuid's first digits are its moment, shared by a run's nodes
    assert repr(x) == f"<Int pk={x.pk} uuid={x.uuid} value=3>"
    assert x.extras == {"project": "demo"}
    x.set_extras({"checked": True})
    assert cairn.node(x.pk).extras == {"project": "demo", "checked": True}
    process = cairn.submit("arithmetic.add_multiply", {"x": x, "y": 4, "z": 5}).wait(300)
    assert process.ok, process.exit_message
    result = process.outputs()["result"]
    assert result.value == 35
    creator = result.incoming()
    assert [link.type for link in creator] and any(link.label == "result" for link in creator)
    assert x in result.ancestors()
    assert result in x.descendants()
    assert any(link.node == result for link in process.node().outgoing())


def test_errors_are_named_after_the_problem_families(cairn: Client) -> None:
    with pytest.raises(NotFound) as missing:
        cairn.node("0190c1a2-0000-7000-8000-000000000000")
    assert missing.value.status == 404 and "0190c1a2" in missing.value.detail
    with pytest.raises(InvalidInput) as refused:
        cairn.submit("arithmetic.add_multiply", {"x": 1})
    assert any("'y'" in p for p in refused.value.problems), refused.value.problems
    with pytest.raises(InvalidInput, match="unknown entry point 'nope.nope'"):
        cairn.submit("nope.nope")


def test_attribute_indexes_are_built_listed_and_dropped(cairn: Client) -> None:
    index = cairn.add_attribute_index("py_energy", "number")
    assert (index["key"], index["type"], index["state"]) == ("py_energy", "number", "ready")
    assert index in cairn.attribute_indexes()
    with pytest.raises(InvalidInput, match="type 'boolean'"):
        cairn.add_attribute_index("py_energy", "boolean")
    cairn.drop_attribute_index("py_energy", "number")
    assert all(i["key"] != "py_energy" for i in cairn.attribute_indexes())
    with pytest.raises(NotFound, match="no index on attribute 'py_energy' of type number"):
        cairn.drop_attribute_index("py_energy", "number")


def test_uploads_of_values_files_folders_and_structures(cairn: Client, tmp_path: Path) -> None:
    assert cairn.upload({"a": 1, "b": [1, 2]}).attributes == {"a": 1, "b": [1, 2]}
    assert cairn.upload([1.5, 2.5]).node_type == "data.core.list.List."
    assert cairn.upload(2.5).value == 2.5 and cairn.upload("s").value == "s" and cairn.upload(True).value is True
    big = tmp_path / "big.bin"
    big.write_bytes(bytes(range(256)) * 20_000)
    node = cairn.upload(big)
    assert node.attributes["filename"] == "big.bin"
    streamed = b"".join(node.iter_bytes(chunk_size=65536))
    assert streamed == big.read_bytes()
    with node.open() as f:
        assert f.read(3) == b"\x00\x01\x02"
    folder = tmp_path / "run"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.txt").write_text("a")
    (folder / "sub" / "b.txt").write_text("b")
    tree = cairn.upload(folder)
    assert tree.read("sub/b.txt") == b"b"
    assert sorted(e["name"] for e in tree.files()) == ["a.txt", "sub"]
    structure = cairn.upload_structure(
        cell=[[4.0, 0, 0], [0, 4.0, 0], [0, 0, 4.0]], symbols=["Si", "Si"], positions=[[0, 0, 0], [1, 1, 1]]
    )
    assert len(structure.attributes["sites"]) == 2


def test_queries_give_rows_and_dataframes(cairn: Client, json_backend: str) -> None:
    for i in range(5):
        cairn.upload({"energy": -1.0 * i, "step": i}, label="scan " + json_backend)
    q = (
        cairn.query()
        .nodes("d", type="data.core.dict.Dict.", filters={"label": {"==": "scan " + json_backend}}, project=["id", "attributes.energy"])
        .order_by("d", "id")
    )
    rows = q.rows()
    assert [r["d"]["attributes.energy"] for r in rows] == [0.0, -1.0, -2.0, -3.0, -4.0]
    assert q.count() == 5
    assert q.first() == rows[0]
    frame = q.filter("d", {"attributes.step": {">": 1}}).dataframe()
    assert list(frame.columns) == ["id", "attributes.energy"]
    assert frame["attributes.energy"].tolist() == [-2.0, -3.0, -4.0]
    counted = cairn.query().nodes("d", type="data.core.dict.Dict.", project=["label", count()]).rows()
    assert {"label": "scan " + json_backend, "count": 5} in [r["d"] for r in counted] or any(
        r["d"].get("label") == "scan " + json_backend and 5 in r["d"].values() for r in counted
    )
    with pytest.raises(InvalidInput, match="unknown operator"):
        cairn.query().nodes("n", filters={"id": {"~=": 1}}).rows()
    with pytest.raises(InvalidInput, match="unknown operator"):
        cairn.query().nodes("n", filters={"id": {"~=": 1}}).dataframe()
    assert field("attributes.x", cast="f") == {"field": "attributes.x", "cast": "f"}


def test_dataframes_name_columns_by_tag_when_several_tags_project(cairn: Client) -> None:
    source = cairn.upload({"when": "not a date", "size": 3}, label="frames")
    empty = cairn.query().nodes("d", filters={"label": {"==": "no such label"}}, project=["id", "label"]).dataframe()
    assert list(empty.columns) == ["id", "label"] and len(empty) == 0
    whole = cairn.query().nodes("d", filters={"label": {"==": "frames"}}, project=["*"]).dataframe()
    assert whole["uuid"].tolist() == [source.uuid]
    assert whole["attributes"].tolist() == [{"when": "not a date", "size": 3}]
    two = (
        cairn.query()
        .nodes("d", filters={"label": {"==": "frames"}}, project=["attributes.size"])
        .append("u", "user", with_node="d", project=["email"])
    )
    assert list(two.dataframe().columns) == ["d.attributes.size", "u.email"]
    # the moments are datetimes in UTC, whole rows' and projections' alike; a string attribute stays a string
    assert isinstance(whole["ctime"].dtype, pandas.DatetimeTZDtype) and str(whole["ctime"].dt.tz) == "UTC"
    stored = cairn.query().nodes("d", filters={"label": {"==": "frames"}}, project=["ctime", "mtime"]).rows()[0]["d"]
    assert whole["ctime"].iloc[0] == pandas.Timestamp(stored["ctime"]) and whole["mtime"].iloc[0] == pandas.Timestamp(stored["mtime"])
    moments = (
        cairn.query()
        .nodes("d", filters={"label": {"==": "frames"}}, project=["ctime", "attributes.when"])
        .append("u", "user", with_node="d", project=["email"])
        .dataframe()
    )
    assert moments["d.ctime"].tolist() == [pandas.Timestamp(stored["ctime"])]
    assert moments["d.attributes.when"].tolist() == ["not a date"]
    with pytest.raises(InvalidInput, match="not a date"):
        cairn.query().nodes("d", filters={"label": {"==": "frames"}}, project=[field("attributes.when", cast="d")]).dataframe()


def test_dataframes_hold_the_values_rows_hold_nulls_mixed_types_and_nested_ones_included(
    cairn: Client, json_backend: str
) -> None:
    # floats of 14 significant digits at most: the server keeps that many (AttributeValues)
    stored = [
        {"v": 1.5, "s": "é \\ \"quoted\" 🙂\n", "n": None, "nested": {"a": [1, 2.5, True, None]}, "big": 2**62, "long": 2**63 - 1},
        {"v": "text", "s": 7, "nested": [], "big": -(2**62), "long": -(2**63), "flag": True},
        {"v": None, "s": False, "n": {"x": {}}, "long": 2**53 + 1, "flag": False, "near": 2**53 + 1},
        {"v": 0.1, "s": "日本語 \t", "n": {"ключ": [2.2250738585072e-308, 1.7976931348623e308]}, "near": 0.5},
        {"v": -0.0012345678901235, "s": "", "nested": [[{"deep": [None]}]], "long": -(2**53 + 1), "near": 3},
    ]
    label = "mixed frame " + json_backend
    for attributes in stored:
        cairn.upload(attributes, label=label)
    keys = ["v", "s", "n", "nested", "big", "long", "flag", "near", "missing"]
    q = (
        cairn.query()
        .nodes("d", filters={"label": {"==": label}}, project=["attributes." + k for k in keys] + ["attributes"])
        .order_by("d", "id")
    )
    frame = q.dataframe()
    assert len(frame) == len(stored)
    for key in keys:
        expected = [a.get(key) for a in stored]
        assert [r["d"]["attributes." + key] for r in q.rows()] == expected
        assert [_plain(v) for v in frame["attributes." + key].tolist()] == expected, key
    assert frame["attributes"].tolist() == stored
    # integers and booleans with nulls keep their type (pandas would make the integers floats, 2**53 + 1
    # another number), as do integers among floats that no float holds
    assert {key: str(frame["attributes." + key].dtype) for key in ["long", "flag", "near"]} == {
        "long": "Int64", "flag": "boolean", "near": "object"
    }
    assert frame["attributes.long"].iloc[0] == 2**63 - 1 and frame["attributes.long"].sum() == -1


def _plain(value: object) -> object:
    """A DataFrame's value as rows give it: None for a null (pandas' NA, a float's NaN)."""
    return None if value is None or value is pandas.NA or (isinstance(value, float) and value != value) else value


def test_large_answers_are_parsed_with_the_collector_paused(cairn: Client) -> None:
    # 6,000 lists: unpaused, the parse would start a collection every 700 containers it makes; paused, the
    # collector walks them once, when the read is over and it is enabled again
    label = "many containers"
    cairn.upload({"lists": [[i, [i]] for i in range(3_000)]}, label=label)
    q = cairn.query().nodes("d", filters={"label": {"==": label}}, project=["attributes.lists"])
    collections: list[str] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(phase)

    assert gc.isenabled()
    gc.callbacks.append(count)
    try:
        gc.collect()  # none due when a read starts
        collections.clear()
        rows = q.rows()
        by_rows = len(collections)
        gc.collect()
        collections.clear()
        columns = q.columns()
        by_columns = len(collections)
    finally:
        gc.callbacks.remove(count)
    assert (by_rows, by_columns) == (1, 1)
    assert gc.isenabled()
    assert rows[0]["d"]["attributes.lists"][2999] == [2999, [2999]]
    assert columns["attributes.lists"][0][2999] == [2999, [2999]]


def test_dataframes_read_columns_of_strings_as_raw_utf8_with_the_values_rows_hold(cairn: Client, json_backend: str) -> None:
    tricky = ["quote \" backslash \\ new\nline \t \x01 \x1f \u2028 \x7f", "", "{}", "null", "日本語 🙂 é", "\\u0041"]
    label = "raw strings " + json_backend
    for i, text in enumerate(tricky):
        cairn.upload({"text": text, "maybe": None if i % 2 else text, "i": i}, label=label)
    cairn.upload({"i": len(tricky)}, label=label)  # no text at all: a missing key
    q = (
        cairn.query()
        .nodes("d", filters={"label": {"==": label}}, project=["attributes.text", "attributes.maybe", "attributes.i", "label"])
        .order_by("d", "id")
    )
    with cairn._http.stream("POST", "/api/v1/query/columns", body=q.as_json(), accept=RAW_COLUMNS) as r:
        assert r.headers["content-type"] == RAW_COLUMNS
        line = r.read().split(b"\n")[1]
    assert b'{"utf8":' in line  # the columns of strings came as raw UTF-8
    frame = q.dataframe()
    columns = {key: [_plain(v) for v in frame[key].tolist()] for key in frame.columns}
    assert columns["attributes.text"] == tricky + [None]
    assert columns["attributes.maybe"] == [t if i % 2 == 0 else None for i, t in enumerate(tricky)] + [None]
    assert columns["label"] == [label] * (len(tricky) + 1)
    rows = q.rows()
    for key in ["attributes.text", "attributes.maybe", "attributes.i", "label"]:
        assert [r["d"][key] for r in rows] == columns[key], key
    # pandas 3 with pyarrow keeps strings in Arrow: the columns of strings went there from the bytes, and the
    # frame is the one pandas makes of the same values as Python strings
    assert frame["attributes.text"].dtype.storage == "pyarrow"
    pandas.testing.assert_frame_equal(frame, pandas.DataFrame(q.columns()))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the option is deprecated: it is how pandas 2 keeps strings
        with pandas.option_context("future.infer_string", False):
            objects = q.dataframe()
            assert objects["attributes.text"].dtype == object
            pandas.testing.assert_frame_equal(objects, pandas.DataFrame(q.columns()))


def test_a_column_of_strings_that_is_not_utf8_is_refused_naming_it() -> None:
    with pytest.raises(ValueError, match="not UTF-8"):
        _arrow_strings(_Utf8([1, None, 2], memoryview(b"a\xc3(")))
    assert _arrow_strings(_Utf8([1, None, 2], memoryview("aé".encode()))).to_pylist() == ["a", None, "é"]


def test_raw_string_blocks_are_read_however_the_body_is_cut() -> None:
    body = (
        b'{"columns": [{"tag": "d", "key": "a"}, {"tag": "d", "key": "b"}]}\n'
        + b'[{"utf8": [3, null, 0]}, [1, 2, 3]]\n'
        + "é\n".encode()
        + b'[{"utf8": [5]}, [{"x": "y"}]]\n'
        + "🙂\n".encode()
        + b'{"type": "about:blank", "status": 500, "detail": "failed"}\n'
    )
    expected = [
        {"columns": [{"tag": "d", "key": "a"}, {"tag": "d", "key": "b"}]},
        [["é\n", None, ""], [1, 2, 3]],
        [["🙂\n"], [{"x": "y"}]],
        {"type": "about:blank", "status": 500, "detail": "failed"},
    ]
    for size in (1, 2, 7, len(body)):
        chunks = [body[i : i + size] for i in range(0, len(body), size)]
        blocks = [
            [p.decode() if isinstance(p, _Utf8) else p for p in block] if isinstance(block, list) else block
            for block in _raw_blocks(iter(chunks))
        ]
        assert blocks == expected, size
    with pytest.raises(ValueError, match="3 bytes short"):
        list(_raw_blocks(iter([body[: body.index(b"\xc3")]])))


def test_a_shell_job_runs_with_a_local_file_and_its_outputs_come_back(cairn: Client, tmp_path: Path) -> None:
    data = tmp_path / "data.csv"
    data.write_text("3\n1\n2\n")
    p = cairn.shell(
        "bash -c 'sort -n {data} > sorted.txt; echo total 6'",
        {"data": data},
        outputs=["sorted.txt"],
        parsers={"total": {"regex": r"total (\d+)"}},
        timeout=300,
    )
    assert p.ok, p.exit_message
    outputs = p.outputs()
    assert outputs["sorted_txt"].read_text() == "1\n2\n3\n"
    assert outputs["total"].value == 6
    assert outputs["stdout"].read_text() == "total 6\n"
    # what the scheduler said of its job, as the events and the detail tell it
    moves = [e.scheduler for e in p.events() if e.scheduler is not None]
    assert moves and moves[-1][1] == "done", moves
    assert p.detail()["job"]["last_job_info"]["job_state"] == "done"
    # its working folder, once cleaned, is gone and marked on its remote_folder
    folder = Path(p.node().attributes["remote_workdir"])
    assert folder.is_dir()
    assert [j["outcome"] for j in p.clean_workdir(dry_run=True)] == ["would clean"]
    assert folder.is_dir()
    cleaned = p.clean_workdir()
    assert [(j["outcome"], j["path"]) for j in cleaned] == [("cleaned", str(folder))]
    assert not folder.exists()
    assert cairn.node(outputs["remote_folder"].uuid).extras["cleaned"] is True
    failed = cairn.shell("bash -c 'echo broken >&2; exit 2'", timeout=300)
    assert failed.exit_status == 400 and "broken" in failed.exit_message
    with pytest.raises(InvalidInput, match="no input nodes.missing"):
        cairn.shell("cat {missing}")


def test_a_refused_shell_job_leaves_none_of_its_uploaded_files_behind(cairn: Client, tmp_path: Path) -> None:
    data = tmp_path / "data.csv"
    data.write_text("1\n")
    folder = tmp_path / "inputs"
    (folder / "sub").mkdir(parents=True)
    (folder / "sub" / "a.txt").write_text("a")

    def stored() -> int:
        return len(cairn.nodes("SinglefileData")) + len(cairn.nodes("FolderData"))

    before = stored()
    with pytest.raises(InvalidInput, match="'no-such-program-cairn' was not found on computer"):
        cairn.shell("no-such-program-cairn {data} {inputs}", {"data": data, "inputs": folder})
    with pytest.raises(InvalidInput, match=r"jobs\[1\].*no input nodes.other"):
        cairn.shell_many(
            [
                {"command": "cat {data}", "nodes": {"data": data}},
                {"command": "cat {data} {other}", "nodes": {"data": data}},
            ]
        )
    with pytest.raises(FileNotFoundError, match=r"nodes\['gone'\]: no file or folder"):
        cairn.shell("cat {data} {gone}", {"data": data, "gone": tmp_path / "gone.csv"})
    assert stored() == before
    # a job that is taken keeps its uploads as its inputs
    kept = cairn.shell("cat {data}", {"data": data}, timeout=300)
    assert kept.ok, kept.exit_message
    assert stored() == before + 3  # its input, and its outputs stdout and retrieved


def test_batches_events_and_control(cairn: Client) -> None:
    jobs = cairn.shell_many([{"command": "echo {i}", "nodes": {"i": i}} for i in range(3)])
    assert [j.wait(300).ok for j in jobs] == [True, True, True]
    launched = cairn.submit_many([("arithmetic.add_function", {"x": i, "y": 1}) for i in range(3)])
    assert [p.wait(300).outputs()["result"].value for p in launched] == [1, 2, 3]
    slow = cairn.submit("examples.sum_series", {"n": 1000, "batch": 1})
    slow.pause()
    assert slow.paused
    slow.play()
    states = []
    for event in slow.events():
        states.append(event.to_state)
        if len(states) == 2:
            slow.kill()
    assert slow.wait(300).state == "killed", states


def test_groups_and_archives(cairn: Client, tmp_path: Path) -> None:
    group = cairn.create_group("client-tests", "made by the tests")
    a, b = cairn.upload(1), cairn.upload(2)
    assert group.add(a, b)["added"] == 2
    assert {n.uuid for n in cairn.group("client-tests").nodes()} == {a.uuid, b.uuid}
    group.remove(b)
    assert [n.uuid for n in group.nodes()] == [a.uuid]
    archive = cairn.export_archive(tmp_path / "g.cairn", groups=["client-tests"])
    assert archive.stat().st_size > 0
    imported = cairn.import_archive(archive)
    assert imported["existing"] >= 1


def test_wait_sees_an_end_that_came_before_it_followed_the_events(
    cairn: Client, monkeypatch: pytest.MonkeyPatch
) -> None:
    done = cairn.submit("arithmetic.add_function", {"x": 1, "y": 2}).wait(300)
    assert done.ok
    # as if it ended between wait's first look at it and its subscription to the event stream
    stale = Process(cairn, {**done._summary, "state": "running", "exit_status": None})
    looks = []
    original = Process.refresh

    def first_look_is_stale(self: Process) -> Process:
        looks.append(self.uuid)
        return self if len(looks) == 1 else original(self)

    monkeypatch.setattr(Process, "refresh", first_look_is_stale)
    started = time.monotonic()
    assert stale.wait(60).ok
    assert time.monotonic() - started < 30, "wait missed the end the event stream replays"


def test_wait_gives_up_at_its_timeout(cairn: Client) -> None:
    slow = cairn.submit("examples.sum_series", {"n": 1000, "batch": 1}).pause()
    try:
        started = time.monotonic()
        with pytest.raises(TimeoutError, match="has not ended after 2"):
            slow.wait(2)
        assert 2 <= time.monotonic() - started < 60
    finally:
        slow.kill()
    assert slow.wait(300).state == "killed"
