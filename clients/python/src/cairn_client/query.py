"""A fluent builder of the server's queries (the query builder's JSON form), and their rows.

Each :meth:`Query.append` adds a vertex to the query's path, as aiida's ``QueryBuilder.append`` does:
its tag, what it is (a node, group, computer, user, comment or log), filters, what to project, and
how it joins an earlier vertex (``with_incoming="s"``: the nodes whose incoming links come from
``s``, that is the outputs of ``s``; ``with_ancestors``, ``with_descendants``, ``with_group``, …).
The query goes to the server whole and runs there as one SQL statement; rows come back as dicts
keyed by tag, or as columns (blocks of values by column, names sent once) for a pandas DataFrame.
"""

from __future__ import annotations

import copy
import json
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping, Sequence

from . import _json, errors
from ._columns import _COLUMNS_ACCEPT, RAW_COLUMNS, _arrow_strings, _frame, _named, _raw_blocks, _Utf8, _values

if TYPE_CHECKING:
    import pandas

    from .client import Client

__all__ = ["Query", "field", "count", "RELATIONSHIPS"]

#: The ways a vertex joins an earlier one, as the server names them.
RELATIONSHIPS = (
    "with_incoming",
    "with_outgoing",
    "with_ancestors",
    "with_descendants",
    "with_group",
    "with_computer",
    "with_user",
    "with_comment",
    "with_log",
    "with_node",
)


def field(name: str, cast: str | None = None, func: str | None = None) -> dict[str, Any]:
    """A projection with a cast (``f`` float, ``i`` integer, ``t`` text, ``b`` bool, ``d`` date, ``j`` JSON)
    or an aggregate (``count``, ``min``, ``max``, ``sum``, ``avg``)."""
    out: dict[str, Any] = {"field": name}
    if cast is not None:
        out["cast"] = cast
    if func is not None:
        out["func"] = func
    return out


def count(name: str = "id") -> dict[str, Any]:
    """``count(name)``: with other projections, those become the groups counted."""
    return field(name, func="count")


class Query:
    """A query under construction; every method returns a new query, so a query can be reused."""

    def __init__(self, client: Client, spec: Mapping[str, Any] | None = None):
        self._client = client
        self._spec: dict[str, Any] = copy.deepcopy(dict(spec)) if spec else {"path": []}

    # --- building

    def append(
        self,
        tag: str,
        entity: str = "node",
        *,
        node_type: str | None = None,
        subclassing: bool | None = None,
        filters: Mapping[str, Any] | None = None,
        project: str | Sequence[Any] | None = None,
        edge_filters: Mapping[str, Any] | None = None,
        edge_project: str | Sequence[Any] | None = None,
        max_depth: int | None = None,
        link_types: Sequence[str] | None = None,
        **relationship: str,
    ) -> Query:
        """Adds a vertex; ``relationship`` is one of :data:`RELATIONSHIPS` naming an earlier tag."""
        vertex: dict[str, Any] = {"tag": tag, "entity": entity}
        if len(relationship) > 1:
            raise ValueError(f"a vertex joins one earlier vertex, not {sorted(relationship)}")
        for name, other in relationship.items():
            if name not in RELATIONSHIPS:
                raise ValueError(f"unknown relationship '{name}'; the relationships are {', '.join(RELATIONSHIPS)}")
            vertex[name] = other
        optional = {
            "node_type": node_type,
            "subclassing": subclassing,
            "filters": dict(filters) if filters else None,
            "project": _projections(project),
            "edge_filters": dict(edge_filters) if edge_filters else None,
            "edge_project": _projections(edge_project),
            "max_depth": max_depth,
            "link_types": list(link_types) if link_types else None,
        }
        vertex.update({k: v for k, v in optional.items() if v is not None})
        q = self._copy()
        q._spec["path"].append(vertex)
        return q

    def nodes(self, tag: str, type: str | None = None, **kwargs: Any) -> Query:
        """Adds a vertex of nodes; ``type`` is a node type such as ``data.core.int.Int.``."""
        return self.append(tag, "node", node_type=type, **kwargs)

    def filter(self, tag: str, filters: Mapping[str, Any]) -> Query:
        """Adds filters to a vertex (all must hold): ``{"attributes.energy": {"<": -10}}``."""
        q = self._copy()
        vertex = q._vertex(tag)
        current = vertex.get("filters")
        vertex["filters"] = {"and": [current, dict(filters)]} if current else dict(filters)
        return q

    def project(self, tag: str, *fields: str | Mapping[str, Any]) -> Query:
        """Adds projections to a vertex: columns (``id``, ``uuid``, ``label``, …), ``attributes.a.b``, …"""
        q = self._copy()
        vertex = q._vertex(tag)
        vertex["project"] = list(vertex.get("project") or []) + [f if isinstance(f, str) else dict(f) for f in fields]
        return q

    def order_by(self, tag: str, field_: str, order: str = "asc", cast: str | None = None) -> Query:
        q = self._copy()
        entry: dict[str, Any] = {"tag": tag, "field": field_, "order": order}
        if cast:
            entry["cast"] = cast
        q._spec.setdefault("order_by", []).append(entry)
        return q

    def limit(self, n: int) -> Query:
        q = self._copy()
        q._spec["limit"] = n
        return q

    def offset(self, n: int) -> Query:
        q = self._copy()
        q._spec["offset"] = n
        return q

    def distinct(self, yes: bool = True) -> Query:
        q = self._copy()
        q._spec["distinct"] = yes
        return q

    def as_json(self) -> dict[str, Any]:
        """The query in the server's JSON form."""
        return copy.deepcopy(self._spec)

    # --- running

    def iterrows(self) -> Iterator[dict[str, Any]]:
        """The rows one at a time as they stream from the server, each ``{tag: {field: value}}``."""
        with self._client._http.stream("POST", "/api/v1/query/stream", body=self._spec, accept="application/x-ndjson") as r:
            for line in _lines(r.iter_bytes()):
                yield _row_or_raise(_json.loads(line))

    def rows(self) -> list[dict[str, Any]]:
        """Every row, each ``{tag: {field: value}}``, read in one request."""
        with _json.gc_paused():
            with self._client._http.stream(
                "POST", "/api/v1/query/stream", body=self._spec, accept="application/x-ndjson"
            ) as r:
                body = r.read()
            lines = [line for line in body.split(b"\n") if line.strip()]
            # one parse of a JSON array is several times faster than a parse per line
            parsed: list[dict[str, Any]] = _json.loads(b"[" + b",".join(lines) + b"]") if lines else []
        if parsed:
            _row_or_raise(parsed[-1])  # a stream that failed part way ends with the problem
        return parsed

    def all(self) -> list[list[Any]]:
        """Every row as a list of its projected values, in the order of the path and projections."""
        return [[value for tag in row.values() for value in tag.values()] for row in self.rows()]

    def first(self) -> dict[str, Any] | None:
        rows = self.limit(1).rows()
        return rows[0] if rows else None

    def count(self) -> int:
        """How many rows the query has (counted on the server)."""
        page = self._client._http.post("/api/v1/query", self._spec, {"limit": 1, "count": True})
        return int(page.get("total") or 0)

    def columns(self) -> dict[str, list[Any]]:
        """Every row, as lists of values by column (``field``, or ``tag.field`` when several tags project),
        read in one request as blocks of columns; a whole row (``*``) is spread into a column per field."""
        return _named(*self._decoded_columns())

    def dataframe(self) -> pandas.DataFrame:
        """The rows as a DataFrame, a column per projection: ``field`` when one tag projects, else ``tag.field``
        (an edge's tag is ``source--target``).

        Where pandas keeps strings in Arrow (pandas 3 with pyarrow installed), a column of strings goes from the
        server's UTF-8 into Arrow's buffers without becoming Python strings on the way. A column of integers or
        of booleans with nulls among them is of pandas' nullable ``Int64`` or ``boolean``, where pandas would make
        the integers floats (``3.0``, and beyond 2**53 not the same number) and the booleans objects; integers
        among floats stay integers (a column of objects) where a float would not hold them exactly. The moments
        (``ctime``, ``mtime``, a log's or a group's ``time``) are datetimes in UTC. Otherwise the frame is the one
        ``pandas.DataFrame(query.columns())`` gives.

        Needs pandas (``pip install cairn-client[pandas]``)."""
        try:
            import pandas
        except ImportError as e:
            raise ImportError("Query.dataframe needs pandas: pip install 'cairn-client[pandas]'") from e
        arrow = pandas.Series(["a"]).dtype
        if getattr(arrow, "storage", None) != "pyarrow":
            return _frame(*self._decoded_columns())
        import pyarrow  # type: ignore[import-untyped]  # no types shipped; pandas has imported it already

        names, parts = self._column_parts(_arrow_strings)
        columns: list[Any] = []
        for column in parts:
            if column and all(isinstance(part, pyarrow.Array) for part in column):
                columns.append(pandas.array(pyarrow.chunked_array(column, type=pyarrow.large_string()), dtype=arrow))
            else:  # a column of strings in some blocks only
                columns.append(_values([p.to_pylist() if isinstance(p, pyarrow.Array) else p for p in column]))
        return _frame(names, columns)

    def _decoded_columns(self) -> tuple[list[tuple[str, str]], list[list[Any]]]:
        """The (tag, key) of each column, and each column's values, strings decoded from the server's UTF-8."""
        names, parts = self._column_parts(_Utf8.decode)
        return names, [_values(column) for column in parts]

    def _column_parts(self, strings: Callable[[_Utf8], Any]) -> tuple[list[tuple[str, str]], list[list[Any]]]:
        """The (tag, key) of each column, and each column's parts, a part a block: a list of values, or what
        ``strings`` made of the block's strings as the server sent them. A block is made so as soon as it has
        come, while the server reads and sends the next."""
        names: list[tuple[str, str]] | None = None
        parts: list[list[Any]] = []
        # strings as raw UTF-8 where the server writes them so (a server that does not answers JSON lines)
        with _json.gc_paused(), self._client._http.stream(
            "POST", "/api/v1/query/columns", body=self._spec, accept=_COLUMNS_ACCEPT
        ) as r:
            raw = r.headers.get("content-type", "").split(";")[0].strip() == RAW_COLUMNS
            for block in _raw_blocks(r.iter_bytes()) if raw else (_json.loads(line) for line in _lines(r.iter_bytes())):
                if names is None:
                    names = [(c["tag"], c["key"]) for c in block["columns"]]
                    parts = [[] for _ in names]
                    continue
                if isinstance(block, dict):  # the server's problem, where a block would come
                    raise errors.from_problem(int(block.get("status") or 500), block)
                for column, part in zip(parts, block):
                    column.append(strings(part) if isinstance(part, _Utf8) else part)
        if names is None:
            raise ValueError("the server's answer to /api/v1/query/columns was empty, without its line of column names")
        return names, parts

    # ---

    def _copy(self) -> Query:
        return Query(self._client, self._spec)

    def _vertex(self, tag: str) -> dict[str, Any]:
        for vertex in self._spec["path"]:
            if vertex["tag"] == tag:
                return vertex  # type: ignore[no-any-return]
        raise ValueError(f"no vertex tagged '{tag}'; the tags are {[v['tag'] for v in self._spec['path']]}")

    def __repr__(self) -> str:
        return f"Query({json.dumps(self._spec)})"


def _lines(chunks: Iterator[bytes]) -> Iterator[bytes]:
    """The non-empty lines of a body that comes in chunks, each line as soon as its end has come."""
    pending: list[bytes] = []
    for chunk in chunks:
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            pending.append(chunk[start:end])
            line = b"".join(pending)
            pending.clear()
            if line:
                yield line
            start = end + 1
        if start < len(chunk):
            pending.append(chunk[start:])
    line = b"".join(pending)
    if line:
        yield line


def _row_or_raise(row: dict[str, Any]) -> dict[str, Any]:
    """The row; or, where the server ended a failed stream with its problem (a string ``type``, where a row's
    members are objects), the problem raised."""
    if isinstance(row.get("type"), str):
        raise errors.from_problem(int(row.get("status") or 500), row)
    return row


def _projections(project: str | Sequence[Any] | None) -> list[Any] | None:
    if project is None:
        return None
    if isinstance(project, str):
        return [project]
    return [p if isinstance(p, str) else dict(p) for p in project]
