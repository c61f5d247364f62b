"""NumPy arrays as the server stores them: ArrayData, each array a ``.npy`` file of float64 or int64.

numpy is imported only where an array is met (a notebook that has one has numpy), never with the package.
"""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

__all__ = ["is_array", "save", "load"]

#: The name AiiDA gives the one array of an ArrayData made from an array.
DEFAULT = "default"


def is_array(value: Any) -> bool:
    """Whether ``value`` is a NumPy array (checked without importing numpy)."""
    return type(value).__module__ == "numpy" and type(value).__name__ == "ndarray"


def save(array: Any, to: Path) -> Path:
    """Writes ``array`` as the server stores arrays: float64 for floats, int64 for integers and booleans, in C
    order. Any other kind (complex, strings, objects) is refused, as is an unsigned value beyond int64."""
    import numpy as np

    kind = array.dtype.kind
    if kind == "f":
        stored = array.astype("<f8")
    elif kind in "iub":
        if kind == "u" and array.size and int(array.max()) > np.iinfo(np.int64).max:
            raise ValueError("an array of unsigned integers beyond int64 cannot be stored: Cairn keeps int64")
        stored = array.astype("<i8")
    else:
        raise TypeError(f"cannot store an array of {array.dtype}: Cairn stores arrays of floats and integers")
    np.save(to, np.ascontiguousarray(stored), allow_pickle=False)
    return to


def load(content: bytes) -> Any:
    """The array of a ``.npy`` file's content."""
    import numpy as np

    return np.load(io.BytesIO(content), allow_pickle=False)
