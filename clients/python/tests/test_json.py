"""The client's JSON parse gives the values of the standard library's json, with orjson and without it."""

from __future__ import annotations

import gc
import json
import math
import random
import struct
import subprocess
import sys
from typing import Any, Iterator

import pytest

from cairn_client import _json

DOCUMENTS = [
    b"18446744073709551615",
    b"18446744073709551616",
    b"[-9223372036854775808, -9223372036854775809, 9223372036854775807, 9223372036854775808]",
    b'{"big": 123456789012345678901234567890, "neg": -99999999999999999999}',
    b"[12345678901234567890.5, 1234567890123456789012e5, 0.0012345678901234567]",
    b"[NaN, Infinity, -Infinity, 1e400, -1e400, 5e-324, -0.0, 1E5, 0.1, 1.7976931348623157e308]",
    '["é \\\\ \\"quoted\\" 🙂\\n", "\\u00e9\\ud83d\\ude42", "\\u0000", "日本語"]'.encode(),
    b'["\\ud800", "lone \\udfff surrogate"]',
    b'{"nested": {"a": [1, 2.5, true, null, {"b": [[], {}]}]}, "n": null, "a": 1, "a": 2}',
    b"  [1, 2, 3]  \n",
]


def same(a: Any, b: Any) -> bool:
    """Equal values of equal types all the way down, NaN equal to NaN and -0.0 told from 0.0."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    return bool(a == b)


@pytest.fixture
def orjson_parses() -> Iterator[None]:
    _json.reset()
    assert _json.backend() == "orjson", "orjson is not installed: pip install 'cairn-client[fast]' (or [test])"
    yield
    _json.reset()


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda d: d[:40].decode("utf-8", "replace"))
def test_orjson_gives_the_values_json_gives(orjson_parses: None, document: bytes) -> None:
    assert same(_json.loads(document), json.loads(document))
    assert same(_json.loads(document.decode()), json.loads(document))


def test_random_floats_and_integers_read_the_same(orjson_parses: None) -> None:
    r = random.Random(27)
    floats = [struct.unpack("<d", r.getrandbits(64).to_bytes(8, "little"))[0] for _ in range(20_000)]
    numbers = [f for f in floats if math.isfinite(f)] + [r.random() / 10 ** r.randint(0, 5) for _ in range(20_000)]
    integers = [r.randint(-(2**70), 2**70) for _ in range(5_000)] + [r.randint(-(2**63), 2**64 - 1) for _ in range(5_000)]
    for values in (numbers, integers, [{"x": v, "s": str(v)} for v in numbers[:1000] + integers[:1000]]):
        document = json.dumps(values).encode()
        assert same(_json.loads(document), values)


def test_what_is_not_json_raises_a_value_error_either_way(orjson_parses: None) -> None:
    for broken in (b"", b"[1, 2", b"{'a': 1}", b'{"a": }', b"\xff\xfe"):
        with pytest.raises(ValueError):
            _json.loads(broken)


def test_json_parses_where_orjson_is_hidden_or_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "orjson", None)  # the import fails as if orjson were not installed
    _json.reset()
    assert _json.backend() == "json"
    for document in DOCUMENTS:
        assert same(_json.loads(document), json.loads(document))
    monkeypatch.delitem(sys.modules, "orjson")
    monkeypatch.setenv("CAIRN_CLIENT_JSON", "json")
    _json.reset()
    assert _json.backend() == "json"
    monkeypatch.delenv("CAIRN_CLIENT_JSON")
    _json.reset()
    assert _json.backend() == "orjson"


def test_importing_the_client_imports_neither_orjson_nor_httpx() -> None:
    code = "import sys, cairn_client; print(sorted(m for m in ('orjson', 'httpx', 'pandas') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"


@pytest.fixture
def collector_enabled() -> Iterator[None]:
    was = gc.isenabled()
    gc.enable()
    yield
    (gc.enable if was else gc.disable)()


def test_the_collector_is_paused_until_the_last_overlapping_parse_ends(collector_enabled: None) -> None:
    first, second = _json.gc_paused(), _json.gc_paused()
    first.__enter__()
    assert not gc.isenabled()
    second.__enter__()
    first.__exit__(None, None, None)
    assert not gc.isenabled(), "another parse still runs"
    second.__exit__(None, None, None)
    assert gc.isenabled()
    with pytest.raises(ValueError):
        with _json.gc_paused():
            _json.loads(b"[1, 2")
    assert gc.isenabled(), "a parse that failed enables it again"


def test_a_collector_disabled_before_stays_disabled(collector_enabled: None) -> None:
    gc.disable()
    with _json.gc_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()
