"""The server's answer to a query as blocks of columns (``/api/v1/query/columns``), and the DataFrames made of it:
strings as raw UTF-8 after their block's line, a whole row (``*``) spread into a column per field, and the
values kept as the server sent them where pandas would change them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from . import _json

if TYPE_CHECKING:
    import pandas

RAW_COLUMNS = "application/x-cairn-columns"
_COLUMNS_ACCEPT = f"{RAW_COLUMNS}, application/x-ndjson;q=0.5"


class _Chunks:
    """A body that comes in chunks, read a line or a number of bytes at a time."""

    def __init__(self, chunks: Iterator[bytes]):
        self._chunks = chunks
        self._buffer = b""
        self._at = 0

    def line(self) -> bytes | None:
        """The next line without its end, or None at the end of the body."""
        parts: list[bytes] = []
        while True:
            end = self._buffer.find(b"\n", self._at)
            if end >= 0:
                parts.append(self._buffer[self._at : end])
                self._at = end + 1
                return b"".join(parts)
            parts.append(self._buffer[self._at :])
            if not self._fill():
                rest = b"".join(parts)
                return rest if rest else None

    def take(self, n: int) -> bytes:
        """The next ``n`` bytes."""
        parts: list[bytes] = []
        while n > 0:
            if self._at == len(self._buffer) and not self._fill():
                raise ValueError(f"the server's answer ended {n} bytes short of a block's strings")
            part = self._buffer[self._at : self._at + n]
            parts.append(part)
            self._at += len(part)
            n -= len(part)
        return parts[0] if len(parts) == 1 else b"".join(parts)

    def _fill(self) -> bool:
        for chunk in self._chunks:
            if chunk:
                self._buffer, self._at = chunk, 0
                return True
        self._buffer, self._at = b"", 0
        return False


class _Utf8:
    """A block's column of strings as the server sent it: each string's length in bytes (None for a null), and
    the strings' UTF-8, one after another."""

    __slots__ = ("lengths", "data")

    def __init__(self, lengths: list[int | None], data: memoryview):
        self.lengths = lengths
        self.data = data

    def decode(self) -> list[str | None]:
        decoded: list[str | None] = []
        data, at = self.data, 0
        for n in self.lengths:
            if n is None:
                decoded.append(None)
            else:
                decoded.append(str(data[at : at + n], "utf-8"))
                at += n
        return decoded


def _raw_blocks(chunks: Iterator[bytes]) -> Iterator[Any]:
    """The lines of an answer of /query/columns in its raw-strings form, each block's string columns
    (``{"utf8": [length, null, …]}``) with the bytes after its line as a ``_Utf8``."""
    body = _Chunks(chunks)
    while (line := body.line()) is not None:
        if not line:
            continue
        block = _json.loads(line)
        if isinstance(block, list):
            strings = [column["utf8"] for column in block if isinstance(column, dict)]
            if strings:
                sizes = [sum(n for n in lengths if n is not None) for lengths in strings]
                data = memoryview(body.take(sum(sizes)))
                at, size_of = 0, iter(sizes)
                for k, column in enumerate(block):
                    if isinstance(column, dict):
                        size = next(size_of)
                        block[k] = _Utf8(column["utf8"], data[at : at + size])
                        at += size
        yield block


def _values(parts: list[Any]) -> list[Any]:
    """A column's values from its parts, lists of values."""
    values: list[Any] = []
    for part in parts:
        values.extend(part)
    return values


def _arrow_strings(strings: _Utf8) -> Any:
    """A block's column of strings as an Arrow array made from the server's bytes: the lengths become
    offsets, the bytes its data, checked to be UTF-8 as decoding them would."""
    import numpy
    import pyarrow  # type: ignore[import-untyped]  # no types shipped

    lengths = strings.lengths
    offsets = numpy.zeros(len(lengths) + 1, dtype=numpy.int64)
    validity, nulls = None, lengths.count(None)
    if nulls:
        numpy.cumsum(numpy.array([n or 0 for n in lengths], dtype=numpy.int64), out=offsets[1:])
        valid = numpy.array([n is not None for n in lengths])
        validity = pyarrow.py_buffer(numpy.packbits(valid, bitorder="little"))
    else:
        numpy.cumsum(numpy.array(lengths, dtype=numpy.int64), out=offsets[1:])
    array = pyarrow.LargeStringArray.from_buffers(
        len(lengths), pyarrow.py_buffer(offsets), pyarrow.py_buffer(strings.data), validity, nulls
    )
    try:
        array.validate(full=True)
    except pyarrow.ArrowInvalid as e:
        raise ValueError(f"the server sent a column of strings that is not UTF-8: {e}") from e
    return array


def _named(names: list[tuple[str, str]], columns: list[Any]) -> dict[str, Any]:
    """The columns by name: ``key``, or ``tag.key`` when several tags project; a whole row (``*``, a column
    of dicts) spread into a column per field."""
    return {name: column for name, _, column in _spread(names, columns)}


def _spread(names: list[tuple[str, str]], columns: list[Any]) -> Iterator[tuple[str, str, Any]]:
    """Each column's name (as ``_named`` names it), its field, and its values."""
    prefix = len({tag for tag, _ in names}) != 1
    for (tag, key), column in zip(names, columns):
        if key == "*":
            first: dict[str, Any] = next((v for v in column if v is not None), {})
            for name in first:
                yield f"{tag}.{name}" if prefix else name, name, [None if v is None else v.get(name) for v in column]
        else:
            yield f"{tag}.{key}" if prefix else key, key, column


#: The fields that hold a moment (the query model's timestamps, which the server sends in ISO 8601).
_MOMENTS = frozenset({"ctime", "mtime", "time"})
_EXACT_IN_FLOAT = 2**53


def _frame(names: list[tuple[str, str]], columns: list[Any]) -> pandas.DataFrame:
    """A DataFrame of the columns: moments as datetimes in UTC, and lists of values as pandas holds them but
    where it would change them (``_unchanged``)."""
    import pandas

    data = {
        name: pandas.to_datetime(column, utc=True, format="ISO8601") if field in _MOMENTS else column
        for name, field, column in _spread(names, columns)
    }
    frame = pandas.DataFrame(data)
    for name, values in data.items():
        unchanged = _unchanged(frame[name], values) if isinstance(values, list) else None
        if unchanged is not None:
            frame[name] = unchanged
    return frame


def _unchanged(column: Any, values: list[Any]) -> Any:
    """The values again where pandas changed them making ``column``, else None: integers with nulls (made
    floats: 3.0, and beyond 2**53 another number) as ``Int64``, booleans with nulls (made objects) as
    ``boolean``, integers among floats that a float does not hold exactly as objects. Decided from the column
    pandas made, so that a column of numbers without nulls costs no scan of its values."""
    import numpy
    import pandas

    if column.dtype == "float64":
        floats = column.to_numpy()
        if numpy.isnan(floats).any() and pandas.api.types.infer_dtype(values, skipna=True) == "integer":
            return pandas.array(values, dtype="Int64")  # the server keeps integers of 64 bits at most
        # a float holds every integer below 2**53 exactly; Python compares an int with a float exactly
        if (numpy.abs(floats) >= _EXACT_IN_FLOAT).any() and any(type(v) is int and float(v) != v for v in values):
            return pandas.array(values, dtype=object)
    elif column.dtype == "object" and pandas.api.types.infer_dtype(values, skipna=True) == "boolean":
        return pandas.array(values, dtype="boolean")
    return None
