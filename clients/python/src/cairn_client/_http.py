"""The HTTP layer: one ``httpx.Client`` per Cairn client, problems raised as :mod:`errors`.

httpx is imported when the first client is made, not with the package: it brings ssl, certifi and
h11 with it, which a notebook that only imports the package should not wait for.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Iterator, Mapping, Sequence, Union

from . import _json, errors

if TYPE_CHECKING:
    import httpx

__all__ = ["Http"]

Params = Mapping[str, Union[str, int, float, bool, Sequence[str], None]]


class Http:
    """Requests to one server with one token; every error answer is raised as a :class:`errors.CairnError`."""

    def __init__(self, url: str, token: str | None, timeout: float = 60.0, transport: httpx.BaseTransport | None = None):
        import httpx

        headers = {"Accept": "application/json", "User-Agent": "cairn-client"}
        if token:
            headers["Authorization"] = "Bearer " + token
        self.url = url.rstrip("/")
        self._client = httpx.Client(base_url=self.url, headers=headers, timeout=timeout, transport=transport)

    def close(self) -> None:
        self._client.close()

    def get(self, path: str, params: Params | None = None) -> Any:
        return self.request("GET", path, params=params)

    def post(self, path: str, body: Any = None, params: Params | None = None) -> Any:
        return self.request("POST", path, body=body, params=params)

    def patch(self, path: str, body: Any) -> Any:
        return self.request("PATCH", path, body=body)

    def delete(self, path: str, params: Params | None = None) -> Any:
        return self.request("DELETE", path, params=params)

    def request(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        params: Params | None = None,
        content: bytes | Iterator[bytes] | None = None,
        files: Any = None,
        headers: Mapping[str, str] | None = None,
    ) -> Any:
        """The answer's JSON (None for an empty one); an error answer is raised."""
        response = self._client.request(
            method,
            path,
            json=body if body is not None and content is None and files is None else None,
            params=_params(params),
            content=content,
            files=files,
            headers=headers,
        )
        raise_for_problem(response)
        if not response.content:
            return None
        return _json.loads(response.content)

    @contextmanager
    def stream(
        self,
        method: str,
        path: str,
        *,
        body: Any = None,
        params: Params | None = None,
        accept: str = "application/json",
        timeout: float | None = None,
    ) -> Iterator[httpx.Response]:
        """A response whose body is read as it comes (files, JSON lines, server-sent events)."""
        import httpx

        kwargs: dict[str, Any] = {}
        if timeout is not None or accept == "text/event-stream":
            kwargs["timeout"] = httpx.Timeout(60.0, read=timeout)
        with self._client.stream(
            method, path, json=body, params=_params(params), headers={"Accept": accept}, **kwargs
        ) as response:
            if response.status_code >= 400:
                response.read()
                raise_for_problem(response)
            yield response


def raise_for_problem(response: httpx.Response) -> None:
    """Raises the problem an error answer holds."""
    if response.status_code < 400:
        return
    body: Mapping[str, Any] | None
    try:
        parsed = _json.loads(response.content) if response.content else None
        body = parsed if isinstance(parsed, dict) else None
    except ValueError:
        body = {"detail": response.text[:500]} if response.text else None
    raise errors.from_problem(response.status_code, body, response.headers.get("Retry-After"))


def _params(params: Params | None) -> list[tuple[str, str | int | float | bool | None]] | None:
    """Query parameters, lists repeated and None left out, booleans as the server spells them."""
    if params is None:
        return None
    out: list[tuple[str, str | int | float | bool | None]] = []
    for key, value in params.items():
        if value is None:
            continue
        values = value if isinstance(value, (list, tuple)) else [value]
        for v in values:
            out.append((key, ("true" if v else "false") if isinstance(v, bool) else str(v)))
    return out
