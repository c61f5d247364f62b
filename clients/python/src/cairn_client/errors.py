"""Errors as the server reports them: one exception per RFC 9457 problem family.

The server answers every error with a problem (``application/problem+json``) whose ``type`` is
``urn:cairn:problem:<family>``; :func:`from_problem` turns it into the matching exception, which
carries the problem's ``detail`` (its message), ``status``, ``title`` and, for a refused launch,
the list of ``problems`` by port.
"""

from __future__ import annotations

from typing import Any, Mapping

__all__ = [
    "CairnError",
    "NotFound",
    "InvalidInput",
    "Conflict",
    "Unavailable",
    "ObjectStoreFailure",
    "Unauthenticated",
    "Forbidden",
    "ReadOnly",
    "TooLarge",
    "Internal",
    "from_problem",
]


class CairnError(Exception):
    """A problem the server reported; its message is the problem's ``detail``."""

    family = "error"

    def __init__(
        self,
        detail: str,
        *,
        status: int = 0,
        title: str = "",
        type: str = "",
        instance: str | None = None,
        problems: list[str] | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(detail)
        self.detail = detail
        self.status = status
        self.title = title
        self.type = type
        self.instance = instance
        self.problems: list[str] = list(problems or [])
        self.retry_after = retry_after

    @property
    def refused(self) -> bool:
        """Whether the server refused the request and so changed nothing: a 4xx but a timeout (408) or too many
        requests (429). Not so for a failure on the way, whose request may have been done."""
        return 400 <= self.status < 500 and self.status not in (408, 429)

    def __str__(self) -> str:
        if self.problems:
            return self.detail + "".join("\n  - " + p for p in self.problems)
        return self.detail


class NotFound(CairnError):
    """``not-found`` (404): no node, process, group, … of that name."""

    family = "not-found"


class InvalidInput(CairnError):
    """``invalid-input`` (400): the request was refused, and ``detail``/``problems`` say why."""

    family = "invalid-input"


class Conflict(CairnError):
    """``conflict`` (409): the request does not fit what is stored (a label taken, a sealed node)."""

    family = "conflict"


class Unavailable(CairnError):
    """``unavailable`` (503): the database, broker or a computer is away; worth trying again."""

    family = "unavailable"


class ObjectStoreFailure(CairnError):
    """``object-store`` (500): a file of the object store could not be read or written."""

    family = "object-store"


class Unauthenticated(CairnError):
    """``unauthenticated`` (401): no token, or one the server does not accept."""

    family = "unauthenticated"


class Forbidden(CairnError):
    """``forbidden`` (403): the token's roles do not allow this."""

    family = "forbidden"


class ReadOnly(CairnError):
    """``read-only`` (403): the server is read-only."""

    family = "read-only"


class TooLarge(CairnError):
    """``too-large`` (413): the upload is larger than the server takes."""

    family = "too-large"


class Internal(CairnError):
    """``internal`` (500): the server failed; its log says why."""

    family = "internal"


_FAMILIES: dict[str, type[CairnError]] = {
    cls.family: cls
    for cls in (
        NotFound,
        InvalidInput,
        Conflict,
        Unavailable,
        ObjectStoreFailure,
        Unauthenticated,
        Forbidden,
        ReadOnly,
        TooLarge,
        Internal,
    )
}

_BY_STATUS: dict[int, type[CairnError]] = {
    400: InvalidInput,
    401: Unauthenticated,
    403: Forbidden,
    404: NotFound,
    409: Conflict,
    413: TooLarge,
    503: Unavailable,
}


def from_problem(status: int, body: Mapping[str, Any] | None, retry_after: str | None = None) -> CairnError:
    """The exception for a problem answer: by its ``type``, else by its HTTP status."""
    problem = dict(body or {})
    type_ = str(problem.get("type") or "")
    family = type_.rsplit(":", 1)[-1] if type_.startswith("urn:cairn:problem:") else ""
    cls = _FAMILIES.get(family) or _BY_STATUS.get(status) or (Internal if status >= 500 else CairnError)
    detail = str(problem.get("detail") or problem.get("title") or f"HTTP {status}")
    raw_problems = problem.get("problems")
    problems = [str(p) for p in raw_problems] if isinstance(raw_problems, list) else None
    wait: float | None = None
    if retry_after:
        try:
            wait = float(retry_after)
        except ValueError:
            wait = None
    return cls(
        detail,
        status=status,
        title=str(problem.get("title") or ""),
        type=type_,
        instance=str(problem["instance"]) if problem.get("instance") else None,
        problems=problems,
        retry_after=wait,
    )
