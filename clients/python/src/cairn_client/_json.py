"""The parse of the server's JSON: orjson where it is installed (``pip install cairn-client[fast]``), else
the standard library's ``json``, with the same values either way.

orjson is imported at the first parse, not with the client, and parses bytes (the bodies of rows and
columns; text, such as an event's data, goes to ``json``). Where orjson and ``json`` would not give the
same values, ``json`` parses: orjson reads an integer beyond 64 bits as a float, so a body with an integer
of 19 digits or more (or a number whose integer part is that long) goes to ``json`` unparsed by orjson;
what orjson refuses and ``json`` reads (``NaN``, ``Infinity``, ``1e400``, lone surrogates) is parsed
again by ``json``, which also raises the ``ValueError`` of what is not JSON.
``CAIRN_CLIENT_JSON=json`` in the environment keeps to ``json``.

A large answer is parsed with the cyclic garbage collector paused (``gc_paused``): the parse makes a container
for every JSON object and array, and each 700 of them start a collection that walks the young ones, and now and
then all that the read has made so far, though a parse makes no cycles. Paused, they are walked once, after.
"""

from __future__ import annotations

import gc
import json
import os
import threading
from contextlib import contextmanager
from typing import Any, Callable, Iterator

__all__ = ["loads", "backend", "reset", "gc_paused"]

_parse: Callable[[bytes | str], Any] | None = None

# Digits to "0", the characters of a fraction or exponent to ".", the rest to " ": an integer part of 19
# digits or more is then " " followed by nineteen "0"s, or nineteen "0"s at the start of the body.
_SHAPES = bytes(ord("0") if b in b"0123456789" else ord(".") if b in b".eE" else ord(" ") for b in range(256))
_LONG = b"0" * 19
_LONG_AFTER_DELIMITER = b" " + _LONG


def loads(text: bytes | str) -> Any:
    """The value of one JSON document."""
    return (_parse or _choose())(text)


_pauses = 0
_pauses_lock = threading.Lock()
_collector_was_enabled = False


@contextmanager
def gc_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while the block runs (in any thread: it is the process's), and
    enabled again after the last of the blocks that overlap, unless it was disabled before the first."""
    global _pauses, _collector_was_enabled
    with _pauses_lock:
        if _pauses == 0:
            _collector_was_enabled = gc.isenabled()
            gc.disable()
        _pauses += 1
    try:
        yield
    finally:
        with _pauses_lock:
            _pauses -= 1
            if _pauses == 0 and _collector_was_enabled:
                gc.enable()


def backend() -> str:
    """``orjson`` or ``json``: which parses bytes (chosen at the first call)."""
    return "json" if (_parse or _choose()) is json.loads else "orjson"


def reset() -> None:
    """Chooses again at the next parse (for tests that hide orjson or set ``CAIRN_CLIENT_JSON``)."""
    global _parse
    _parse = None


def _choose() -> Callable[[bytes | str], Any]:
    global _parse
    _parse = json.loads
    if os.environ.get("CAIRN_CLIENT_JSON", "").strip().lower() != "json":
        try:
            import orjson
        except ImportError:
            pass
        else:
            fast = orjson.loads
            refused = orjson.JSONDecodeError

            def parse(text: bytes | str) -> Any:
                if isinstance(text, str):
                    return json.loads(text)
                shapes = text.translate(_SHAPES)
                if _LONG_AFTER_DELIMITER in shapes or shapes.startswith(_LONG):
                    return json.loads(text)
                try:
                    return fast(text)
                except refused:
                    return json.loads(text)

            _parse = parse
    return _parse
