"""The code graph in the bundle: node records and edges, one blob per node bucket each.

Node records live in `graph/nodes/`, a definition's place (contains, defines, method) by its source in
`graph/out/`, every other edge by its target in `graph/in/` (impact walks them in reverse): each edge once.
A node id names its bucket (`layout.node_chunk`), so a question reads one blob per bucket it touches, and a
one-file change rewrites the buckets that file touches.
"""
from __future__ import annotations

import sys
from array import array
from collections import defaultdict, namedtuple
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from itertools import accumulate, chain, compress, islice, repeat
from operator import add, gt, mul

from gitroute.bundle.layout import (
    GRAPH_NODES,
    GRAPH_PAGES,
    MAX_RECORD_DOC,
    MAX_RECORD_NAME,
    NODE_PAGE,
    edges_path,
    node_chunk_path,
    node_page_first,
)
from gitroute.bundle.validate import BadValue
from gitroute.bundle.varints import (
    decode_varints,
    encode_varints,
    node_gaps,
    node_ids,
    read_varint,
)
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
_NODE_KIND = {kind: k for k, kind in enumerate(NODE_KINDS)}
# Each edge is stored once: a definition's place (what a file or a type holds) by its source, in `graph/out`; every
# other edge (calls, imports, references, inheritance) by its target, in `graph/in`. The answers read those two
# ways only (impact walks callers back from what a target holds; a file's definitions are its edges out), and
# both ways were half of the graph's edges twice (docs/decisions/0025, its second amendment).
OUT_KINDS = frozenset(("contains", "defines", "method"))


EDGES_MAGIC = b"GRe2"


def edge_shard(edges: Mapping[int, Sequence[Sequence]]) -> bytes:
    """A bucket's edges blob: node id -> its edges `[kind, other end, line, how]` (in the order given), as varints:

        b"GRe2", the head's byte length, the head: the node count, the nodes' ids (`node_gaps`), each node's value
        length; then each node's value: a column each over its edges of kind and how in one int, the other end's
        bucket less the node's (zigzagged), the other end's ordinal (less the node's, zigzagged, when in the
        node's bucket; whole when not), its line less the edge before's (zigzagged; the first less 0).

    Columns of small alike numbers: a definition's members sit beside it in its bucket, an edge's lines ascend,
    and an edge into another bucket costs its bucket and ordinal, not a difference of ids spread over 2 ** 30
    (docs/decisions/0025, its second amendment). A reader decodes the head and the values of the nodes it asks
    for: a bucket that holds the callers of a much-called function is thousands of edges."""
    ids = sorted(edges)
    return _edges_blob(ids, ((node_id, _KIND_HOW[kind, how], other, line)
                             for node_id in ids for kind, other, line, how in edges[node_id]))


def _edges_blob(ids: list[int] | None, rows: Iterable[tuple[int, int, int, int]]) -> bytes:
    """`edge_shard`'s blob from its edges as (node, kind and how in one int, other end, line), a node's one after the
    other in their order: of nodes `ids` (ascending; a node without edges has an empty value), or, when None, of
    the nodes the rows name (in ascending order). One Python loop an edge, its zigzags spelled in line: a call a
    zigzag, and a list made of each edge to be unpacked again, were most of a build's graph blobs."""
    shift, mask = NODE_ORDINAL_BITS, ORDINAL_MASK
    values: dict[int, bytes] = {}
    codes: list[int] = []
    buckets: list[int] = []
    ordinals: list[int] = []
    steps: list[int] = []
    node = None
    bucket = ordinal = line_before = 0
    for key, code, other, line in rows:
        if key != node:
            if node is not None:
                values[node] = encode_varints(codes + buckets + ordinals + steps)
                codes, buckets, ordinals, steps = [], [], [], []
            node, bucket, ordinal, line_before = key, key >> shift, key & mask, 0
        codes.append(code)
        moved = (other >> shift) - bucket
        if moved:
            buckets.append(moved << 1 if moved > 0 else (-moved << 1) - 1)
            ordinals.append(other & mask)
        else:
            buckets.append(0)
            near = (other & mask) - ordinal
            ordinals.append(near << 1 if near >= 0 else (-near << 1) - 1)
        step = line - line_before
        steps.append(step << 1 if step >= 0 else (-step << 1) - 1)
        line_before = line
    if node is not None:
        values[node] = encode_varints(codes + buckets + ordinals + steps)
    if ids is None:
        ids = list(values)
    encoded = [values.get(node_id, b"") for node_id in ids]
    head = encode_varints([len(ids), *node_gaps(ids), *map(len, encoded)])
    return EDGES_MAGIC + encode_varints([len(head)]) + head + b"".join(encoded)


def load_edge_shard(data: bytes) -> dict[int, bytes]:
    """`edge_shard` split: node id -> its value's bytes (`decode_edges` reads them); raises BadValue when `data` is
    not what it writes (a head or a length past the end, a node twice, bytes left over)."""
    if not isinstance(data, bytes) or data[:4] != EDGES_MAGIC:
        raise BadValue("an edges blob is not a binary edges shard")
    size, at = read_varint(data, 4)
    if size > len(data) - at:
        raise BadValue("an edges blob's head runs past its end")
    head = decode_varints(data[at:at + size])
    at += size
    n = head[0] if head else -1
    if n < 0 or len(head) != 1 + 3 * n:
        raise BadValue("an edges blob's head is not what its count says")
    ids = node_ids(head[1:1 + 2 * n])
    sizes = head[1 + 2 * n:]
    if sum(sizes) != len(data) - at or any(a >= b for a, b in zip(ids, ids[1:])):
        raise BadValue("an edges blob's values are not what its head says")
    ends = list(accumulate(sizes, initial=at))
    return {node_id: data[ends[k]:ends[k + 1]] for k, node_id in enumerate(ids)}


def decode_edges(node_id: int, value: bytes) -> list[list]:
    """A node's edges from its value in an edges blob; raises BadValue when it is not what `edge_shard` writes (not
    four columns, an unknown kind, an end or a line out of range)."""
    ints = decode_varints(value)
    total, odd = divmod(len(ints), 4)
    if odd:
        raise BadValue("a node's edges are not four columns")
    codes, buckets, ordinals, lines = (ints[k * total:(k + 1) * total] for k in range(4))
    if codes and max(codes) >= len(_KINDS_HOWS):
        raise BadValue("an edge has an unknown kind")
    bucket, ordinal = node_id >> NODE_ORDINAL_BITS, node_id & ORDINAL_MASK
    held: list[list] = []
    line = 0
    for code, moved, other, step in zip(codes, map(_unzigzag, buckets), ordinals, lines):
        if not moved:
            other = ordinal + _unzigzag(other)
        line += _unzigzag(step)
        if bucket + moved < 0 or not 0 <= other <= ORDINAL_MASK or line < 0:
            raise BadValue("an edge's other end or line is out of range")
        kind, how = _KINDS_HOWS[code]
        held.append([kind, (bucket + moved) << NODE_ORDINAL_BITS | other, line, how])
    return held


def _unzigzag(n: int) -> int:
    return n >> 1 if not n & 1 else -((n + 1) >> 1)


def node_record(node: Node) -> list:
    """What a node keeps in the bundle: [path, name, owner, kind, line, end_line, lang, entry, doc]."""
    return [node.path, node.name[:MAX_RECORD_NAME], node.owner[:MAX_RECORD_NAME], node.kind, node.line,
            node.end_line, node.lang, int(node.entry), node.doc[:MAX_RECORD_DOC]]


NODES_MAGIC = b"GRn1"
_WIDTHS = {1: "B", 2: "H", 4: "I", 8: "Q"}  # a column's bytes an int -> its `array` type code (CPython's sizes)
_NODE_COLUMNS = 8
_BIG_ENDIAN = sys.byteorder == "big"  # columns are little-endian; `array` writes the machine's order


def node_shard(records: Sequence[Sequence]) -> bytes:
    """A bucket's node records (`node_record`, in ordinal order), laid out so that a reader decodes only the records
    it asks for (docs/decisions/0025, its session-24 amendment):

        b"GRn1", the record count and the string count (varints), the byte length of the strings' lengths, the
        strings' UTF-8 byte lengths (varints), the strings one after the other (UTF-8, `surrogatepass`), a byte
        each for the eight columns' widths (1, 2, 4 or 8 bytes an int), then the columns, fixed width, each in byte
        planes (its ints' low bytes, then their next bytes, ...):
        path (a string's index), name (0 when it is the path's last part, else a string's index plus one), owner
        (a string's index), kind and entry (kind * 2 + entry), line, end line less line (zigzagged), language and
        doc (each a string's index).

    Fixed widths: a record is one index into each column, and its strings are decoded when it is read, not the
    bucket's every int and string; zlib (git's packing) takes back what varints saved, as the high bytes of a
    column of lines are a plane of a few alike values. A file's name is its path's last part, spelled again in
    each bucket before this layout."""
    index: dict[str, int] = {}  # a string -> its place, in the order first met, record by record
    at = index.setdefault  # a C call a string: a closure a string was a third of a build's node_shard
    columns: list[list[int]] = [[] for _ in range(_NODE_COLUMNS)]
    paths, names, owners, kinds, lines, ends, langs, docs = columns
    for path, name, owner, kind, line, end_line, lang, entry, doc in records:
        paths.append(at(path, len(index)))
        names.append(0 if name == path.rpartition("/")[2] else at(name, len(index)) + 1)
        owners.append(at(owner, len(index)))
        kinds.append(_NODE_KIND[kind] * 2 + bool(entry))
        lines.append(line)
        ends.append((end_line - line) << 1 if end_line >= line else ((line - end_line) << 1) - 1)
        langs.append(at(lang, len(index)))
        docs.append(at(doc, len(index)))
    spelled = list(index)
    raw = [text.encode("utf-8", "surrogatepass") for text in spelled]
    lengths = encode_varints(map(len, raw))
    widths = bytearray()
    packed: list[bytes] = []
    for column in columns:
        top = max(column, default=0)
        if top >> 64 or min(column, default=0) < 0:
            raise BadValue("a node record's line is out of range")
        width = 1 if top < 1 << 8 else 2 if top < 1 << 16 else 4 if top < 1 << 32 else 8
        ints = array(_WIDTHS[width], column)
        if _BIG_ENDIAN:
            ints.byteswap()
        widths.append(width)
        raw_ints = ints.tobytes()
        packed += (raw_ints[plane::width] for plane in range(width))
    head = NODES_MAGIC + encode_varints([len(records), len(spelled), len(lengths)]) + lengths
    return head + b"".join(raw) + bytes(widths) + b"".join(packed)


def load_node_shard(data: bytes) -> NodeBucket:
    """`node_shard` undone, as far as a question needs: the bucket's head and columns are checked (a count, a
    length, a width, bytes missing or left over are BadValue) and each record is made, and its string indexes and
    kind checked, when it is read (`NodeBucket`); a forged count allocates nothing (every count is checked against
    the bytes there are before a list is made of it)."""
    if not isinstance(data, bytes) or data[:4] != NODES_MAGIC:
        raise BadValue("a node bucket is not a binary node shard")
    n, at = read_varint(data, 4)
    s, at = read_varint(data, at)
    size, at = read_varint(data, at)
    if n > NODE_PAGE or s > size or size > len(data) - at:
        raise BadValue("a node bucket's counts are past its bytes")
    lengths = decode_varints(data[at:at + size])
    at += size
    if len(lengths) != s:
        raise BadValue("a node bucket's strings are not what its count says")
    offsets = list(accumulate(lengths, initial=at))
    at = offsets[-1]
    widths = data[at:at + _NODE_COLUMNS]
    at += _NODE_COLUMNS
    if len(widths) != _NODE_COLUMNS or any(w not in _WIDTHS for w in widths) or len(data) - at != sum(widths) * n:
        raise BadValue("a node bucket's columns are not what its count says")
    columns = []
    for width in widths:
        ints = array(_WIDTHS[width])
        if width == 1:
            ints.frombytes(data[at:at + n])
        else:  # its byte planes interleaved again, by slice assignments (C loops)
            joined = bytearray(width * n)
            for plane in range(width):
                joined[plane::width] = data[at + plane * n:at + (plane + 1) * n]
            ints.frombytes(joined)
        if _BIG_ENDIAN:
            ints.byteswap()
        columns.append(ints)
        at += width * n
    return NodeBucket(data, offsets, columns)


_KIND_CODES = 2 * len(NODE_KINDS)  # a node kind and its entry bit: `kind << 1 | entry`


class NodeBucket:
    """A bucket's node records (`node_record`), read from its columns by ordinal: a question reads a few records of
    each bucket it touches (the symbol index's candidates), so none is made, and none of its strings decoded, before
    it is asked for."""

    __slots__ = ("data", "offsets", "columns", "strings")

    def __init__(self, data: bytes, offsets: list[int], columns: list) -> None:
        self.data = data
        self.offsets = offsets
        self.columns = columns
        self.strings: dict[int, str] = {}

    def __len__(self) -> int:
        return len(self.columns[0])

    def _string(self, k: int) -> str:
        text = self.strings.get(k)
        if text is None:
            try:
                text = self.strings[k] = self.data[self.offsets[k]:self.offsets[k + 1]].decode("utf-8", "surrogatepass")
            except UnicodeDecodeError as err:
                raise BadValue("a node bucket's string is not UTF-8") from err
        return text

    def __getitem__(self, ordinal: int) -> list:
        """Record `ordinal`; BadValue when it names a string or a kind its bucket does not hold, or a string it names
        is not UTF-8. Checked here, a record at a time: a question reads a few records of buckets of thousands (a
        kernel's sentence read 13 MB of buckets for 764 records, and checking every column took a tenth of it)."""
        paths, names, owners, kinds, lines, ends, langs, docs = self.columns
        string, kind, line, name = self._string, kinds[ordinal], lines[ordinal], names[ordinal]
        count = len(self.offsets) - 1
        if max(paths[ordinal], owners[ordinal], langs[ordinal], docs[ordinal]) >= count or name > count \
                or kind >= _KIND_CODES:
            raise BadValue("a node record names a string or a kind its bucket does not hold")
        path = string(paths[ordinal])
        return [path, string(name - 1) if name else path.rpartition("/")[2], string(owners[ordinal]),
                NODE_KINDS[kind >> 1], line, line + _unzigzag(ends[ordinal]), string(langs[ordinal]), kind & 1,
                string(docs[ordinal])]

    def __iter__(self) -> Iterator[list]:
        return (self[k] for k in range(len(self)))


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
    pages = _node_pages(graph.nodes, node_buckets)
    for bucket, (_first, count) in zip(node_buckets, pages):
        digest = graph.node_digests.get(bucket, b"")
        for page in range(0, count, NODE_PAGE):  # a page's digest: its bucket's and its place (and so its count)
            digests[node_chunk_path(bucket << shift | page)] = digest and _digest([digest, page.to_bytes(4, "big")])
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
    for b, (first, count) in zip(node_buckets, pages):
        for page in range(0, count, NODE_PAGE):
            if node_chunk_path(b << shift | page) not in kept:
                emit(node_chunk_path(b << shift | page),
                     node_shard(list(map(node_record, graph.nodes[first + page:first + min(count, page + NODE_PAGE)]))))
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


def _node_pages(nodes: list[Node], buckets: Sequence[int]) -> list[tuple[int, int]]:
    """For each bucket, the place of its first node in `nodes` (in id order) and its node count: its pages are
    `NODE_PAGE` of them at a time (a bucket's ordinals are 0, 1, ... with no gap: `graph._place_nodes`). Every
    bucket's, the kept ones too (a page's digest is its bucket's and its place), so the ids are bisected, not the
    nodes: a `graph.NodeTable` makes a node each item read (a kernel's 48,000 buckets: seconds)."""
    from bisect import bisect_left

    ids = getattr(nodes, "ids", None)  # a `NodeTable`'s ids, as they are held
    if ids is None:
        ids = [node.id for node in nodes]
    places = []
    for bucket in buckets:
        first = bisect_left(ids, bucket << NODE_ORDINAL_BITS)
        places.append((first, bisect_left(ids, (bucket + 1) << NODE_ORDINAL_BITS, first) - first))
    return places


def _edge_blobs(graph: CodeGraph, out: set[int], into: set[int], sources: dict[int, list[FileEdges]],
                targets: dict[int, list[FileEdges]], emit: Callable[[str, bytes], object]) -> None:
    """The edge blobs of the buckets named, in and out, read from the files whose edges they hold,
    in the graph's order of edges (every structure part, then every named part), one bucket at a time.

    Edges out of a bucket are its own files' (an edge starts in the file that makes it); edges into one are the
    positions of the files' edges in the graph's order sorted by their target, a stable sort by the packed
    table's own `__getitem__` (C loops, not a tuple made of each edge to ask its bucket): each target's edges
    stay in the graph's order, and a bucket's targets are one run of them (docs/decisions/0023, session 24)."""
    from bisect import bisect_left
    from itertools import starmap

    shift = NODE_ORDINAL_BITS
    table = _edge_table(graph.edges)
    kinds, kind_in = table.kinds, bytes(kind not in OUT_KINDS for kind in EDGE_KINDS)
    wanted = {part.path: part for bucket in into for part in targets[bucket]}
    # In the graph's order: a file without structure edges starts where the next one does, never its uses.
    parts = sorted(wanted.values(), key=lambda part: (part.structure[0], part.named[0]))
    order = list(chain.from_iterable(starmap(range, (getattr(part, span) for span in ("structure", "named")
                                                     for part in parts))))
    order = list(compress(order, map(kind_in.__getitem__, map(kinds.__getitem__, order))))
    order.sort(key=table.targets.__getitem__)
    ends = list(map(table.targets.__getitem__, order))
    for bucket in sorted(into):
        lo, hi = bisect_left(ends, bucket << shift), bisect_left(ends, (bucket + 1) << shift)
        # Written even when every edge into the bucket is a structure edge (stored out only): its digest names it.
        emit(edges_path("in", bucket << shift), _bucket_edges(table, order[lo:hi], ends[lo:hi], table.sources))
    for bucket in sorted(out):
        # In the graph's order too: the bucket's files by where their structure edges start. A definition's place
        # (`OUT_KINDS`) is a structure edge: a file's named part holds none.
        own = sorted(sources[bucket], key=lambda part: (part.structure[0], part.named[0]))
        at_out = [at for at in chain.from_iterable(starmap(range, (part.structure for part in own)))
                  if not kind_in[kinds[at]]]
        emit(edges_path("out", bucket << shift),
             _bucket_edges(table, at_out, list(map(table.sources.__getitem__, at_out)), table.targets))


def _bucket_edges(table, ats: list[int], keys: list[int], others) -> bytes:
    """The edges blob of edges `ats` of a packed table by their key (target or source; `others`, the other end's
    column): `edge_shard` of them, each node's edges in the order given, read from the table's columns."""
    if any(map(gt, keys, keys[1:])):  # by node, each node's edges kept in their order (a stable sort)
        by_key = sorted(range(len(keys)), key=keys.__getitem__)
        ats, keys = list(map(ats.__getitem__, by_key)), list(map(keys.__getitem__, by_key))
    codes = map(add, map(mul, map(table.kinds.__getitem__, ats), repeat(len(RESOLUTIONS))),
                map(table.hows.__getitem__, ats))  # `_KIND_HOW`: a kind's place times the resolutions, and how's
    return _edges_blob(None, zip(keys, codes, map(others.__getitem__, ats), map(table.lines.__getitem__, ats)))


def _edge_table(edges: Sequence):
    """A graph's edges as a packed table (`edges.EdgeTable`): as they are when the graph made one."""
    from gitroute.edges import EdgeTable, pack

    if isinstance(edges, EdgeTable):
        return edges
    table = EdgeTable()
    table.add(pack([tuple(edge) for edge in edges]))
    return table


class GraphView:
    """Reads node records and edges of one pinned bundle; every value is checked before use."""

    def __init__(self, read: ReadBlobs, corrupt: Callable[[str], Exception], most_chunks: int | None = None) -> None:
        self._read = read
        self._corrupt = corrupt
        self._chunks: dict[str, object] = {}
        # A server's view keeps at most this many decoded shards, the least recently read going first (a kernel's
        # graph is ~130,000 shards, ~30 KB each decoded); None: a one-shot answer keeps what it read.
        self._most_chunks = most_chunks

    def _load(self, paths: Iterable[str]) -> dict[str, object]:
        asked = set(paths)
        if self._most_chunks is not None:
            self._forget_beyond(self._most_chunks, asked)
        wanted = sorted(asked - self._chunks.keys())
        if wanted:
            blobs = self._read(wanted)
            for path in wanted:
                try:
                    if path not in blobs:
                        self._chunks[path] = None
                    elif path.startswith((GRAPH_NODES, GRAPH_PAGES)):
                        self._chunks[path] = load_node_shard(blobs[path])
                    else:
                        self._chunks[path] = load_edge_shard(blobs[path])
                except ValueError as err:  # BadValue too
                    raise self._corrupt(path) from err
        return self._chunks

    def _forget_beyond(self, most: int, asked: set[str]) -> None:
        """Make room for the shards `asked` for, keeping at most `most` in all (all those asked for, if more): the
        others go, the least recently read first."""
        chunks = self._chunks
        held = asked & chunks.keys()
        for path in held:  # the most recently read now: last in the dict's order
            chunks[path] = chunks.pop(path)
        over = len(chunks) + len(asked) - len(held) - most
        for path in list(islice(chunks, min(max(over, 0), len(chunks) - len(held)))):
            del chunks[path]

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
            place = (node_id & ORDINAL_MASK) % NODE_PAGE  # in its page
            if place < len(chunk):  # type: ignore[arg-type]  # a NodeBucket, as load_node_shard gives
                try:
                    found[node_id] = chunk[place]  # type: ignore[index]
                except ValueError as err:  # BadValue: a string that is not UTF-8
                    raise self._corrupt(path) from err
        return found

    def bucket_records(self, paths: Iterable[str]) -> dict[int, list]:
        """Every node record of the pages at `paths` (`graph/nodes/00042.bin`, `graph/pages/00042.0001.bin`), by id."""
        firsts = []
        for path in paths:
            first = node_page_first(path)
            if first is None:
                raise self._corrupt(path)
            firsts.append(first)
        chunks = self._load(node_chunk_path(first) for first in firsts)
        ids: list[int] = []
        for first in firsts:
            chunk = chunks.get(node_chunk_path(first))
            if not isinstance(chunk, NodeBucket):
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
        """Edges into each node: `[kind, source, line, ...]`, of every kind but a definition's place (`OUT_KINDS`)."""
        return self._edges("in", ids)

    def edges_out(self, ids: Iterable[int]) -> dict[int, list[list]]:
        """The definitions each node holds, its edges of `OUT_KINDS` (contains, defines, method) out:
        `[kind, target, line, ...]`."""
        return self._edges("out", ids)

    def _edges(self, direction: str, ids: Iterable[int]) -> dict[int, list[list]]:
        ids = list(ids)
        chunks = self._load(edges_path(direction, i) for i in ids)
        found: dict[int, list[list]] = {}
        for node_id in ids:
            path = edges_path(direction, node_id)
            chunk = chunks.get(path)
            held = None if chunk is None else chunk.get(node_id)  # type: ignore[attr-defined]  # load_edge_shard's
            if held is None:
                continue
            try:
                found[node_id] = decode_edges(node_id, held)
            except ValueError as err:  # BadValue too
                raise self._corrupt(path) from err
        return found
