"""NumPy arrays as the server stores them: ArrayData, each array a ``.npy`` file of float64 or int64.

numpy is imported only where an array is met (a notebook that has one has numpy), never with the package. An
array goes to the server and comes back without a file between: sent as its ``.npy`` header followed by the
array's own memory, read into one buffer that the array returned is made on.
"""

from __future__ import annotations

import io
import math
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

if TYPE_CHECKING:
    import httpx

__all__ = ["DEFAULT", "is_array", "save", "npy_body", "receive", "load"]

#: The name AiiDA gives the one array of an ArrayData made from an array.
DEFAULT = "default"

_CHUNK = 1 << 20


def is_array(value: Any) -> bool:
    """Whether ``value`` is a NumPy array (checked without importing numpy)."""
    return type(value).__module__ == "numpy" and type(value).__name__ == "ndarray"


def _stored(array: Any) -> Any:
    """``array`` as the server stores arrays: float64 for floats, int64 for integers and booleans, C order. Any
    other kind (complex, strings, objects) is refused, as is an unsigned value beyond int64."""
    import numpy as np

    kind = array.dtype.kind
    if kind == "f":
        stored = array.astype("<f8", copy=False)
    elif kind in "iub":
        if kind == "u" and array.size and int(array.max()) > np.iinfo(np.int64).max:
            raise ValueError("an array of unsigned integers beyond int64 cannot be stored: Cairn keeps int64")
        stored = array.astype("<i8", copy=False)
    else:
        raise TypeError(f"cannot store an array of {array.dtype}: Cairn stores arrays of floats and integers")
    return np.ascontiguousarray(stored)


def save(array: Any, to: Path) -> Path:
    """Writes ``array`` as an ``.npy`` file as the server stores it."""
    import numpy as np

    np.save(to, _stored(array), allow_pickle=False)
    return to


def npy_body(array: Any) -> tuple[int, Iterator[bytes]]:
    """``array``'s ``.npy`` file as a request body: its length, and its bytes (the header, then the array's
    memory a slice at a time), without a copy of the whole."""
    import numpy as np

    stored = _stored(array)
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(header, np.lib.format.header_data_from_array_1_0(stored))
    head = header.getvalue()
    data = memoryview(stored).cast("B") if stored.size else memoryview(b"")

    def chunks() -> Iterator[bytes]:
        yield head
        for start in range(0, len(data), _CHUNK):
            yield data[start : start + _CHUNK]  # type: ignore[misc]  # a buffer: what the transport writes

    return len(head) + len(data), chunks()


def receive(response: httpx.Response) -> Any:
    """The array of a streamed ``.npy`` response, read into memory that becomes the array's: allocated at the
    declared length and not cleared first, since the file fills it."""
    import numpy as np

    length = response.headers.get("Content-Length")
    if length is None or response.headers.get("Content-Encoding"):
        return load(bytearray(response.read()))
    buffer = np.empty(int(length), dtype=np.uint8)
    view, at = buffer.data, 0
    for chunk in response.iter_raw():
        view[at : at + len(chunk)] = chunk
        at += len(chunk)
    if at != len(buffer):
        raise ValueError(f"{response.url.path}: {at} bytes came of the {len(buffer)} declared")
    return load(buffer)


def load(content: Any) -> Any:
    """The array of an ``.npy`` file's content (a writable buffer), made on ``content`` itself (no copy) when
    the file is of a version and kind NumPy reads so; otherwise by ``numpy.load``."""
    import numpy as np

    fp = io.BytesIO(bytes(memoryview(content)[: 12 + 0xFFFF]))
    version = np.lib.format.read_magic(fp)
    readers = {(1, 0): np.lib.format.read_array_header_1_0, (2, 0): np.lib.format.read_array_header_2_0}
    if version not in readers:
        return np.load(io.BytesIO(bytes(content)), allow_pickle=False)
    shape, fortran, dtype = readers[version](fp)
    if dtype.hasobject:
        return np.load(io.BytesIO(bytes(content)), allow_pickle=False)  # refuses the pickle
    count = math.prod(shape)
    array = np.frombuffer(content, dtype=dtype, count=count, offset=fp.tell())
    return array.reshape(shape, order="F" if fortran else "C")
