"""Which open workflow run the current code runs in, so that what it launches is linked as that run's call."""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

#: The open run (its uuid) of the workflow function whose body runs now; None outside one.
current_run: ContextVar[str | None] = ContextVar("cairn_current_run", default=None)


def called(body: dict[str, Any]) -> dict[str, Any]:
    """``body`` naming the open run as its ``caller`` when code runs in one; the server links the call to it."""
    run = current_run.get()
    if run is not None:
        body["caller"] = run
    return body
