"""Groups of nodes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Mapping
from urllib.parse import quote

from .nodes import Node, NodeRef

if TYPE_CHECKING:
    from .client import Client

__all__ = ["Group"]


class Group:
    """A group: a label and the nodes in it."""

    def __init__(self, client: Client, data: Mapping[str, Any]):
        self._client = client
        self._data = dict(data)

    @property
    def label(self) -> str:
        return str(self._data["label"])

    @property
    def uuid(self) -> str:
        return str(self._data.get("uuid", ""))

    @property
    def description(self) -> str:
        return str(self._data.get("description") or "")

    def nodes(self) -> list[Node]:
        """Every node in the group."""
        return [Node(self._client, n) for n in self._client._paged(self._path() + "/nodes", {"limit": 1000})]

    def add(self, *nodes: NodeRef) -> dict[str, Any]:
        """Adds nodes (Node objects, PKs, uuids); returns how many were added."""
        return self._change(add=nodes)

    def remove(self, *nodes: NodeRef) -> dict[str, Any]:
        return self._change(remove=nodes)

    def delete(self) -> None:
        """Deletes the group (not its nodes)."""
        self._client._http.delete(self._path())

    def _change(self, add: Iterable[NodeRef] = (), remove: Iterable[NodeRef] = ()) -> dict[str, Any]:
        body = {"add": [self._client._uuid_of(n) for n in add], "remove": [self._client._uuid_of(n) for n in remove]}
        return dict(self._client._http.post(self._path() + "/nodes", body))

    def _path(self) -> str:
        return "/api/v1/groups/" + quote(self.label, safe="")

    def __repr__(self) -> str:
        return f"<Group {self.label!r}>"
