"""A read-only binary file over an iterator of chunks, for streamed downloads."""

from __future__ import annotations

import io
from typing import Iterator


class IterStream(io.RawIOBase):
    """Reads the chunks of an iterator as one stream; closing it stops reading."""

    def __init__(self, chunks: Iterator[bytes]):
        super().__init__()
        self._chunks = chunks
        self._pending = b""

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: "bytearray | memoryview") -> int:  # type: ignore[override]
        while not self._pending:
            try:
                self._pending = next(self._chunks)
            except StopIteration:
                return 0
        n = min(len(buffer), len(self._pending))
        buffer[:n] = self._pending[:n]
        self._pending = self._pending[n:]
        return n

    def close(self) -> None:
        close = getattr(self._chunks, "close", None)
        if close is not None:
            close()
        super().close()
