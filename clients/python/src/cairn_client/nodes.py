"""Nodes of the provenance graph: their attributes, extras, files, links and neighbourhood."""

from __future__ import annotations

import uuid as _uuid
from pathlib import Path
from io import BufferedReader
from typing import TYPE_CHECKING, Any, Iterator, Mapping
from urllib.parse import quote

if TYPE_CHECKING:
    from .client import Client

__all__ = ["Node", "Link", "NodeRef", "ref_segment"]

#: A node as the client takes it: its PK (an int), its uuid (a UUID or a str), a unique prefix of the uuid
#: (a str of at least 4 hex digits), or a :class:`Node`.
NodeRef = Any

CHUNK = 1 << 20


#: The node type of arrays: each a NumPy ``.npy`` file, its shape in the attribute ``array|<name>``.
ARRAY_TYPE = "data.core.array.ArrayData."


def ref_segment(ref: NodeRef) -> str:
    """The path segment that names a node on the server: ``pk:42``, a uuid or a uuid's prefix."""
    if isinstance(ref, Node):
        return ref.uuid
    if isinstance(ref, bool):
        raise TypeError("a node is named by its PK, uuid or uuid prefix, not a bool")
    if isinstance(ref, int):
        if ref <= 0:
            raise ValueError(f"a PK is a positive integer, not {ref}")
        return f"pk:{ref}"
    if isinstance(ref, _uuid.UUID):
        return str(ref)
    if isinstance(ref, str) and ref:
        return quote(ref.strip().lower(), safe=":-")
    raise TypeError(f"a node is named by its PK (int), uuid or uuid prefix (str), not {ref!r}")


class Node:
    """A stored node. Its fields are those the server sent; :meth:`refresh` reads them again."""

    def __init__(self, client: Client, data: Mapping[str, Any]):
        self._client = client
        self._data = dict(data)

    # --- what the node is

    @property
    def uuid(self) -> str:
        return str(self._data["uuid"])

    @property
    def pk(self) -> int:
        return int(self._data["pk"])

    @property
    def node_type(self) -> str:
        return str(self._data.get("node_type", ""))

    @property
    def process_type(self) -> str | None:
        value = self._data.get("process_type")
        return None if value is None else str(value)

    @property
    def label(self) -> str:
        return str(self._data.get("label") or "")

    @property
    def description(self) -> str:
        return str(self._data.get("description") or "")

    @property
    def ctime(self) -> str:
        return str(self._data.get("ctime", ""))

    @property
    def attributes(self) -> dict[str, Any]:
        """The node's attributes (read on first use when the node came from a list)."""
        if "attributes" not in self._data:
            self.refresh()
        return dict(self._data.get("attributes") or {})

    @property
    def extras(self) -> dict[str, Any]:
        if "extras" not in self._data:
            self.refresh()
        return dict(self._data.get("extras") or {})

    @property
    def value(self) -> Any:
        """The value of an Int, Float, Str or Bool (its attribute ``value``), a Dict (its attributes), a
        List (its items) or an ArrayData (its one array, or its arrays by name)."""
        attributes = self.attributes
        if self.node_type == "data.core.dict.Dict.":
            return attributes
        if self.node_type == "data.core.list.List.":
            return attributes.get("list", [])
        if self.node_type == ARRAY_TYPE:
            arrays = self.arrays()
            return next(iter(arrays.values())) if len(arrays) == 1 else arrays
        if "value" not in attributes:
            raise AttributeError(f"{self.node_type} {self.uuid} has no value attribute")
        return attributes["value"]

    def arrays(self) -> dict[str, Any]:
        """The arrays of an ArrayData by name, as NumPy arrays (each read from its ``.npy`` file)."""
        return {name: self.array(name) for name in self._array_names()}

    def array(self, name: str | None = None) -> Any:
        """One array of an ArrayData as a NumPy array; its only one when no name is given."""
        from ._arrays import receive

        if name is None:
            names = self._array_names()
            if len(names) != 1:
                raise ValueError(f"{self.uuid} holds the arrays {names}: name the one to read")
            name = names[0]
        with self._client._http.stream(
            "GET", self._file_path(name + ".npy"), accept="application/octet-stream"
        ) as response:
            return receive(response)

    def _array_names(self) -> list[str]:
        if self.node_type != ARRAY_TYPE:
            raise ValueError(f"{self.node_type} {self.uuid} is not an ArrayData")
        return sorted(key[len("array|") :] for key in self.attributes if key.startswith("array|"))

    def get(self, key: str, default: Any = None) -> Any:
        """One attribute; a dotted key (``cell.0``) reads into nested values."""
        value: Any = self.attributes
        for part in key.split("."):
            if isinstance(value, Mapping) and part in value:
                value = value[part]
            elif isinstance(value, list) and part.isdigit() and int(part) < len(value):
                value = value[int(part)]
            else:
                return default
        return value

    def as_dict(self) -> dict[str, Any]:
        """The node as the server sent it."""
        return dict(self._data)

    def refresh(self) -> Node:
        self._data = self._client._http.get(self._path())
        return self

    # --- extras, label, description

    def set_extras(self, extras: Mapping[str, Any]) -> Node:
        """Sets extras (the keys given; others stay)."""
        self._data = self._client._http.patch(self._path(), {"extras": dict(extras)})
        return self

    def set_label(self, label: str) -> Node:
        self._data = self._client._http.patch(self._path(), {"label": label})
        return self

    # --- files

    def files(self, path: str = "", recursive: bool = False) -> list[dict[str, Any]]:
        """The entries of a folder of the node's files: each with ``name``, ``type`` (file or dir), ``size``."""
        listing = self._client._http.get(self._path() + "/files", {"path": path or None, "recursive": recursive or None})
        return list(listing.get("entries") or [])

    def read(self, path: str | None = None) -> bytes:
        """One file's content; a SinglefileData's own file when no path is given."""
        with self._client._http.stream("GET", self._file_path(path), accept="application/octet-stream") as r:
            return r.read()

    def read_text(self, path: str | None = None, encoding: str = "utf-8") -> str:
        return self.read(path).decode(encoding)

    def iter_bytes(self, path: str | None = None, chunk_size: int = CHUNK) -> Iterator[bytes]:
        """A file's content as it comes, in bounded memory: for files larger than memory."""
        with self._client._http.stream("GET", self._file_path(path), accept="application/octet-stream") as r:
            yield from r.iter_bytes(chunk_size)

    def download(self, to: str | Path, path: str | None = None) -> Path:
        """Writes one file to ``to`` (a file, or a folder to put it in), streaming; returns where."""
        name = path or self._single_name()
        target = Path(to)
        if target.is_dir():
            target = target / Path(name).name
        with open(target, "wb") as out:
            for chunk in self.iter_bytes(name):
                out.write(chunk)
        return target

    def open(self, path: str | None = None) -> BufferedReader:
        """A file object reading the file as it streams (``with node.open() as f: …``)."""
        from ._streams import IterStream

        return BufferedReader(IterStream(self.iter_bytes(path)), CHUNK)

    # --- links and neighbourhood

    def incoming(self, link_types: str | None = None, label: str | None = None) -> list[Link]:
        """The links into this node: its inputs (for a process) or creator (for data)."""
        return [Link(self._client, item) for item in self._pages("/links/incoming", link_types, label)]

    def outgoing(self, link_types: str | None = None, label: str | None = None) -> list[Link]:
        """The links out of this node: its outputs (for a process) or the processes that used it."""
        return [Link(self._client, item) for item in self._pages("/links/outgoing", link_types, label)]

    def ancestors(self, depth: int | None = None, type: str | None = None) -> list[Node]:
        """Every node this one derives from, through provenance links (``depth`` links at most)."""
        return [Node(self._client, n) for n in self._walk("/ancestors", depth, type)]

    def descendants(self, depth: int | None = None, type: str | None = None) -> list[Node]:
        """Every node derived from this one."""
        return [Node(self._client, n) for n in self._walk("/descendants", depth, type)]

    # ---

    def _path(self) -> str:
        return "/api/v1/nodes/" + self.uuid

    def _single_name(self) -> str:
        filename = self.attributes.get("filename")
        if not isinstance(filename, str):
            raise ValueError(f"{self.node_type} {self.uuid} is not one file: name the file to read")
        return filename

    def _file_path(self, path: str | None) -> str:
        name = path if path is not None else self._single_name()
        return self._path() + "/files/" + quote(name.lstrip("/"))

    def _pages(self, suffix: str, link_types: str | None, label: str | None) -> Iterator[dict[str, Any]]:
        params: dict[str, Any] = {"link_types": link_types, "link_label": label, "limit": 1000}
        return self._client._paged(self._path() + suffix, params)

    def _walk(self, suffix: str, depth: int | None, type: str | None) -> Iterator[dict[str, Any]]:
        return self._client._paged(self._path() + suffix, {"depth": depth, "type": type, "limit": 1000})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Node) and other.uuid == self.uuid

    def __hash__(self) -> int:
        return hash(self.uuid)

    def __repr__(self) -> str:
        kind = self.node_type.rstrip(".").rsplit(".", 1)[-1] or "Node"
        value = self._data.get("attributes", {}).get("value") if isinstance(self._data.get("attributes"), dict) else None
        shown = f" value={value!r}" if value is not None else ""
        return f"<{kind} pk={self._data.get('pk')} uuid={self.uuid}{shown}>"


class Link:
    """A link between two nodes: its type, its label and the node at its other end."""

    def __init__(self, client: Client, data: Mapping[str, Any]):
        self.type = str(data.get("type", ""))
        self.label = str(data.get("label", ""))
        self.node = Node(client, data.get("node") or {})

    def __repr__(self) -> str:
        return f"<Link {self.type} {self.label!r} {self.node!r}>"
