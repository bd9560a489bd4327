"""The code graph in the bundle: node records and edges both ways, one blob per node bucket each.

Node records live in `graph/nodes/`, edges by target in `graph/in/` and by source in `graph/out/`
(impact walks them in reverse). A node id names its bucket (`layout.node_chunk`), so a question
reads one blob per bucket it touches, and a one-file change rewrites the buckets that file touches.
"""
from __future__ import annotations

from collections import defaultdict, namedtuple
from collections.abc import Callable, Iterable, Mapping, Sequence

from gitroute.bundle.layout import (
    GRAPH_NODES,
    MAX_RECORD_DOC,
    MAX_RECORD_NAME,
    dump_json,
    edges_path,
    node_chunk_path,
)
from gitroute.bundle.validate import BadValue, load_blob
from gitroute.bundle.varints import decode_varints, dump_varint_shard, encode_varints, load_varint_shard
from gitroute.model import EDGE_KINDS, NODE_KINDS, NODE_ORDINAL_BITS, RESOLUTIONS, Node

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on the query path
if TYPE_CHECKING:
    from gitroute.graph import CodeGraph, FileEdges

ORDINAL_MASK = (1 << NODE_ORDINAL_BITS) - 1
ReadBlobs = Callable[[Sequence[str]], dict[str, bytes]]
# An edge's kind and how it was resolved, one small int: kind * len(RESOLUTIONS) + how.
_KIND_HOW = {(kind, how): k * len(RESOLUTIONS) + h for k, kind in enumerate(EDGE_KINDS)
             for h, how in enumerate(RESOLUTIONS)}
_KINDS_HOWS = sorted(_KIND_HOW, key=_KIND_HOW.__getitem__)


def encode_edges(node_id: int, edges: Sequence[Sequence]) -> bytes:
    """A node's edges `[kind, other end, line, how]` as varints: per edge its kind and how in one int, the other
    end's distance from the node and the line's from the edge before, each zigzagged (most are small: a
    definition's members sit beside it, an edge's lines ascend)."""
    ints: list[int] = []
    line_before = 0
    for kind, other, line, how in edges:
        ints += (_KIND_HOW[kind, how], _zigzag(other - node_id), _zigzag(line - line_before))
        line_before = line
    return encode_varints(ints)


def decode_edges(node_id: int, data: bytes) -> list[list]:
    """`encode_edges` undone; raises BadValue when `data` is not what it writes."""
    ints = decode_varints(data)
    if len(ints) % 3:
        raise BadValue("edges are not (kind, other end, line) triples")
    edges: list[list] = []
    line = 0
    for code, other, dline in zip(ints[0::3], ints[1::3], ints[2::3]):
        if code >= len(_KINDS_HOWS):
            raise BadValue("an edge has an unknown kind")
        kind, how = _KINDS_HOWS[code]
        line += _unzigzag(dline)
        edges.append([kind, node_id + _unzigzag(other), line, how])
    return edges


def _zigzag(n: int) -> int:
    return n << 1 if n >= 0 else (-n << 1) - 1


def _unzigzag(n: int) -> int:
    return n >> 1 if not n & 1 else -((n + 1) >> 1)


def node_record(node: Node) -> list:
    """What a node keeps in the bundle: [path, name, owner, kind, line, end_line, lang, entry, doc]."""
    return [node.path, node.name[:MAX_RECORD_NAME], node.owner[:MAX_RECORD_NAME], node.kind, node.line,
            node.end_line, node.lang, int(node.entry), node.doc[:MAX_RECORD_DOC]]


def graph_blobs(graph: CodeGraph) -> dict[str, bytes]:
    """The graph's blobs: node records by bucket (in ordinal order), edges by target and by source.

    An edge is stored as `[kind, other end, line, ...]`, whatever further fields the graph gives it.
    """
    return graph_blobs_since(graph, {}).blobs


class GraphBlobs(namedtuple("GraphBlobs", "blobs kept digests files")):  # typing's would load typing
    """blobs: bundle path -> content, the blobs to write; kept: bundle path -> blob id, blobs an earlier
    build wrote from the same digest; digests: bundle path -> a digest of what the blob is made of, for every
    blob; files: path -> (digest of its edges, the buckets they point into, a digest of those into each)."""

    __slots__ = ()


def graph_blobs_since(graph: CodeGraph, earlier: Mapping[str, tuple[bytes, str]],
                      files: Mapping[str, tuple] | None = None,
                      emit: Callable[[str, bytes], object] | None = None) -> GraphBlobs:
    """The graph's blobs, encoding only those whose digest differs from `earlier` (path -> digest, blob id).

    A blob's digest names what it is made of: a node bucket's (`CodeGraph.node_digests`); edges out of a
    bucket, the digests of its files' edges; edges into it, a digest of each file's edges into it, which
    `files` (as `GraphBlobs.files` gave them) holds for a file whose edges have the same digest.
    `emit(path, blob)`, when given, takes each blob as soon as it is encoded, and `GraphBlobs.blobs` stays empty:
    a large graph's blobs are hundreds of megabytes of JSON, none of which need be held at once.
    """
    shift = NODE_ORDINAL_BITS
    files = files or {}
    digests: dict[str, bytes] = {}
    node_buckets = sorted(graph.node_digests) or sorted({node.id >> shift for node in graph.nodes})
    for bucket in node_buckets:
        digests[node_chunk_path(bucket << shift)] = graph.node_digests.get(bucket, b"")
    sources: dict[int, list[FileEdges]] = defaultdict(list)
    targets: dict[int, list[FileEdges]] = defaultdict(list)
    into: dict[int, list[bytes]] = defaultdict(list)
    now: dict[str, tuple] = {}
    for part in graph.files:
        if part.structure[0] == part.structure[1] and part.named[0] == part.named[1]:
            continue
        sources[part.bucket].append(part)
        hit = files.get(part.path)
        if not (isinstance(hit, tuple) and len(hit) == 3 and hit[0] == part.digest and hit[1] == part.buckets
                and len(hit[2]) == len(part.buckets)):
            hit = (part.digest, part.buckets, _into_digests(graph.edges, part))
        now[part.path] = hit
        for bucket, digest in zip(part.buckets, hit[2]):
            targets[bucket].append(part)
            into[bucket].append(digest)
    for bucket, parts in sources.items():
        digests[edges_path("out", bucket << shift)] = _digest([p.digest for p in parts])
    for bucket, parts_into in into.items():
        digests[edges_path("in", bucket << shift)] = _digest(parts_into)

    kept: dict[str, str] = {}
    for path, digest in digests.items():
        hit = earlier.get(path)
        if hit is not None and digest and hit[0] == digest:
            kept[path] = hit[1]
    blobs: dict[str, bytes] = {}
    if emit is None:
        emit = blobs.__setitem__
    for b in node_buckets:
        if node_chunk_path(b << shift) not in kept:
            emit(node_chunk_path(b << shift), dump_json(_records(graph.nodes, b)))
    dirty_out = {b for b in sources if edges_path("out", b << shift) not in kept}
    dirty_in = {b for b in targets if edges_path("in", b << shift) not in kept}
    if dirty_out or dirty_in:
        _edge_blobs(graph, dirty_out, dirty_in, sources, targets, emit)
    return GraphBlobs(blobs, kept, digests, now)


def _digest(digests: list[bytes]) -> bytes:
    import hashlib  # a build's import: the query path loads this module, never hashlib

    return hashlib.blake2b(b"".join(digests), digest_size=16).digest()


def _into_digests(edges: Sequence, part: FileEdges) -> tuple[bytes, ...]:
    """For each bucket a file's edges point into (ascending), a digest of those edges, structure then named."""
    import marshal

    shift = NODE_ORDINAL_BITS
    groups: dict[int, tuple[list, list]] = {bucket: ([], []) for bucket in part.buckets}
    for which, (start, end) in enumerate((part.structure, part.named)):
        for edge in _span(edges, start, end):
            groups[edge[2] >> shift][which].append(tuple(edge))
    # marshal's version 2 keeps no references: equal edges, equal bytes
    return tuple(_digest([marshal.dumps(groups[bucket], 2)]) for bucket in part.buckets)


def _span(edges: Sequence, start: int, end: int) -> Iterable[tuple]:
    """Edges [start:end) of a graph's; from a packed table (`edges.EdgeTable`), plain tuples, not an `Edge` each."""
    rows = getattr(edges, "rows", None)
    return rows(start, end) if rows is not None else edges[start:end]


def _records(nodes: list[Node], bucket: int) -> list[list]:
    """Node records of one bucket, in ordinal order (nodes are in id order)."""
    from bisect import bisect_left
    from operator import attrgetter

    first = bisect_left(nodes, bucket << NODE_ORDINAL_BITS, key=attrgetter("id"))
    end = bisect_left(nodes, (bucket + 1) << NODE_ORDINAL_BITS, key=attrgetter("id"))
    return [node_record(node) for node in nodes[first:end]]


def _edge_blobs(graph: CodeGraph, out: set[int], into: set[int], sources: dict[int, list[FileEdges]],
                targets: dict[int, list[FileEdges]], emit: Callable[[str, bytes], object]) -> None:
    """The edge blobs of the buckets named, in and out, read from the files whose edges they hold,
    in the graph's order of edges (every structure part, then every named part), one bucket at a time.

    Edges out of a bucket are its own files' (an edge starts in the file that makes it); edges into one are
    found by one pass that notes where each sits in the graph's order."""
    shift = NODE_ORDINAL_BITS
    edges = graph.edges
    wanted = {part.path: part for bucket in into for part in targets[bucket]}
    # In the graph's order: a file without structure edges starts where the next one does, never its uses.
    parts = sorted(wanted.values(), key=lambda part: (part.structure[0], part.named[0]))
    positions: dict[int, list[int]] = defaultdict(list)  # bucket -> where its edges in sit in the graph's order
    for span in ("structure", "named"):
        for part in parts:
            start, end = getattr(part, span)
            for at, edge in enumerate(_span(edges, start, end), start):
                if edge[2] >> shift in into:
                    positions[edge[2] >> shift].append(at)
    for bucket in sorted(into):
        by_target: dict[str, list] = {}
        for at in positions.pop(bucket, ()):
            source, kind, target, line, *rest = _edge(edges, at)
            by_target.setdefault(str(target), []).append([kind, source, line, *rest])
        if by_target:
            emit(edges_path("in", bucket << shift), edge_shard(by_target))
    for bucket in sorted(out):
        # In the graph's order too: the bucket's files by where their structure edges start, then their uses.
        own = sorted(sources[bucket], key=lambda part: (part.structure[0], part.named[0]))
        by_source: dict[str, list] = {}
        for span in ("structure", "named"):
            for part in own:
                for source, kind, target, line, *rest in _span(edges, *getattr(part, span)):
                    by_source.setdefault(str(source), []).append([kind, target, line, *rest])
        if by_source:
            emit(edges_path("out", bucket << shift), edge_shard(by_source))


def _edge(edges: Sequence, at: int) -> tuple:
    """Edge `at` of a graph's, as a plain tuple."""
    row = getattr(edges, "row", None)
    return row(at) if row is not None else tuple(edges[at])


def edge_shard(edges: Mapping[str, Sequence[Sequence]]) -> bytes:
    """A bucket's edges blob: node id (decimal) -> its edges, in the floor's binary shard (`bundle.tables`)."""
    return dump_varint_shard({key: encode_edges(int(key), held) for key, held in edges.items()})


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
                    if path not in blobs:
                        self._chunks[path] = None
                    elif path.endswith(".bin"):
                        self._chunks[path] = load_varint_shard(blobs[path])
                    else:
                        self._chunks[path] = load_blob(blobs[path])
                except ValueError as err:  # BadValue too
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
            held = chunk.get(str(node_id))
            if held is None:
                continue
            try:
                found[node_id] = decode_edges(node_id, held)
            except (TypeError, ValueError) as err:  # BadValue too
                raise self._corrupt(path) from err
        return found
