"""The code graph in the bundle: node records and edges both ways, one blob per node bucket each.

Node records live in `graph/nodes/`, edges by target in `graph/in/` and by source in `graph/out/`
(impact walks them in reverse). A node id names its bucket (`layout.node_chunk`), so a question
reads one blob per bucket it touches, and a one-file change rewrites the buckets that file touches.
"""
from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence

from gitroute.bundle.layout import (
    GRAPH_NODES,
    MAX_RECORD_DOC,
    MAX_RECORD_NAME,
    dump_json,
    edges_path,
    node_chunk_path,
)
from gitroute.model import NODE_KINDS, NODE_ORDINAL_BITS, Node

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on the query path
if TYPE_CHECKING:
    from gitroute.graph import CodeGraph

ORDINAL_MASK = (1 << NODE_ORDINAL_BITS) - 1
ReadBlobs = Callable[[Sequence[str]], dict[str, bytes]]


def node_record(node: Node) -> list:
    """What a node keeps in the bundle: [path, name, owner, kind, line, end_line, lang, entry, doc]."""
    return [node.path, node.name[:MAX_RECORD_NAME], node.owner[:MAX_RECORD_NAME], node.kind, node.line,
            node.end_line, node.lang, int(node.entry), node.doc[:MAX_RECORD_DOC]]


def graph_blobs(graph: CodeGraph) -> dict[str, bytes]:
    """The graph's blobs: node records by bucket (in ordinal order), edges by target and by source.

    An edge is stored as `[kind, other end, line, ...]`, whatever further fields the graph gives it.
    """
    shift = NODE_ORDINAL_BITS
    chunks: dict[int, list[list]] = defaultdict(list)
    for node in graph.nodes:  # in id order, so a record's position in its chunk is its ordinal
        chunks[node.id >> shift].append(node_record(node))
    # Grouped by bucket number first and named once per bucket: a large graph has hundreds of
    # thousands of edges, and a path per edge was a third of the time.
    into: dict[int, dict[str, list]] = defaultdict(dict)
    out: dict[int, dict[str, list]] = defaultdict(dict)
    for edge in graph.edges:
        source, kind, target, line = edge[:4]
        rest = edge[4:]
        into[target >> shift].setdefault(str(target), []).append([kind, source, line, *rest])
        out[source >> shift].setdefault(str(source), []).append([kind, target, line, *rest])
    blobs = {node_chunk_path(chunk << shift): dump_json(records) for chunk, records in chunks.items()}
    blobs.update((edges_path("in", chunk << shift), dump_json(value)) for chunk, value in into.items())
    blobs.update((edges_path("out", chunk << shift), dump_json(value)) for chunk, value in out.items())
    return blobs


class GraphView:
    """Reads node records and edges of one pinned bundle; every value is checked before use."""

    def __init__(self, read: ReadBlobs, corrupt: Callable[[str], Exception]) -> None:
        self._read = read
        self._corrupt = corrupt
        self._chunks: dict[str, object] = {}

    def _load(self, paths: Iterable[str]) -> dict[str, object]:
        wanted = sorted(set(paths) - self._chunks.keys())
        if wanted:
            blobs = self._read(wanted)
            for path in wanted:
                try:
                    self._chunks[path] = json.loads(blobs[path]) if path in blobs else None
                except ValueError as err:
                    raise self._corrupt(path) from err
        return self._chunks

    def records(self, ids: Iterable[int]) -> dict[int, list]:
        """Raw node records by id (see `node_record`); ids the bundle does not hold are left out."""
        ids = list(ids)
        chunks = self._load(node_chunk_path(i) for i in ids)
        found: dict[int, list] = {}
        for node_id in ids:
            path = node_chunk_path(node_id)
            chunk = chunks.get(path)
            if chunk is None:
                continue
            try:
                record = chunk[node_id & ORDINAL_MASK]  # type: ignore[index]
            except (IndexError, KeyError, TypeError) as err:
                raise self._corrupt(path) from err
            if not (isinstance(record, list) and len(record) == 9):
                raise self._corrupt(path)
            found[node_id] = record
        return found

    def bucket_records(self, names: Iterable[str]) -> dict[int, list]:
        """Every node record of the buckets named (`00042.json`, as `graph/nodes/` lists them), by id."""
        firsts = []
        for name in names:
            number = name.removesuffix(".json")
            if not (len(number) == 5 and number.isdigit() and name.endswith(".json")):
                raise self._corrupt(f"{GRAPH_NODES}/{name}")
            firsts.append(int(number) << NODE_ORDINAL_BITS)
        chunks = self._load(node_chunk_path(first) for first in firsts)
        ids: list[int] = []
        for first in firsts:
            chunk = chunks.get(node_chunk_path(first))
            if not isinstance(chunk, list):
                raise self._corrupt(node_chunk_path(first))
            ids += range(first, first + len(chunk))
        return self.records(ids)

    def nodes(self, ids: Iterable[int]) -> dict[int, Node]:
        """Nodes by id (their signature is not stored: it is ""); ids the bundle does not hold are left out."""
        nodes: dict[int, Node] = {}
        for node_id, record in self.records(ids).items():
            path, name, owner, kind, line, end_line, lang, entry, doc = record
            if not (isinstance(path, str) and isinstance(name, str) and isinstance(owner, str) and kind in NODE_KINDS
                    and type(line) is int and type(end_line) is int and isinstance(lang, str)
                    and isinstance(doc, str)):
                raise self._corrupt(node_chunk_path(node_id))
            nodes[node_id] = Node(node_id, path, name, kind, line, end_line, lang, "", doc, bool(entry), owner)
        return nodes

    def edges_in(self, ids: Iterable[int]) -> dict[int, list[list]]:
        """Edges into each node: `[kind, source, line, ...]`."""
        return self._edges("in", ids)

    def edges_out(self, ids: Iterable[int]) -> dict[int, list[list]]:
        """Edges out of each node: `[kind, target, line, ...]`."""
        return self._edges("out", ids)

    def _edges(self, direction: str, ids: Iterable[int]) -> dict[int, list[list]]:
        ids = list(ids)
        chunks = self._load(edges_path(direction, i) for i in ids)
        found: dict[int, list[list]] = {}
        for node_id in ids:
            path = edges_path(direction, node_id)
            chunk = chunks.get(path)
            if chunk is None:
                continue
            if not isinstance(chunk, dict):
                raise self._corrupt(path)
            edges = chunk.get(str(node_id))
            if edges is None:
                continue
            if not isinstance(edges, list) or not all(
                isinstance(e, list) and len(e) >= 3 and isinstance(e[0], str) and type(e[1]) is int for e in edges
            ):
                raise self._corrupt(path)
            found[node_id] = edges
        return found
