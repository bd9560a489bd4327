"""The code graph, the foundation every index shares: file and symbol nodes, and the edges between them.

Calls, type references and class bases are resolved through what each file declares (its scope, the
names it imports, its package) before falling back to a globally unique name; what stays ambiguous
keeps an edge to every candidate, marked. There are no types: a call on an unknown object resolves by
its name, so the edges are still a lower bound of the real ones, and the manifest says so.
"""
from __future__ import annotations

import hashlib
import marshal
import os
import posixpath
import struct
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import compress, filterfalse
from operator import ne
from typing import IO, Any, NamedTuple, Protocol

from gitroute.edges import HOW_CODES, EdgeTable, pack, packed_count, packed_ids, with_ids
from gitroute.model import NODE_ORDINAL_BITS, TYPE_KINDS, Binding, DeclaredEntry, Edge, FileExtract, Node
from gitroute.modules import MAX_NAME_TARGETS, STEM_EXTENSIONS, ModuleIndex, module_index, resolve_module
from gitroute.shards import shard_count, shard_of
from gitroute.traits import Traits, module_style, traits

NODES_PER_BUCKET = 64  # a bucket's nodes are one blob of node records: a query reads one per candidate
# An ambiguous use keeps an edge to each candidate up to this many; past it, it is left unresolved.
MAX_AMBIGUOUS = 5
CALL_RESOLUTION = ("resolved by scope, then imports, then package, then a unique name; ambiguous uses "
                   "keep every candidate (marked); no types: a lower bound")


@dataclass(frozen=True, slots=True)
class SourceFile:
    path: str
    blob: str
    lang: str | None  # None: not parsed (unknown language); still a file node
    extract: FileExtract | None


class FileEdges(NamedTuple):
    """One file's part of `CodeGraph.edges` (every edge starts at a node of that file): what the graph's
    blobs need to rewrite only the buckets whose edges changed."""

    path: str
    bucket: int  # the file's node bucket: where its edges out are stored
    structure: tuple[int, int]  # edges[start:end]: contains, defines, method, then imports
    named: tuple[int, int]  # edges[start:end]: calls, references, inherits
    digest: bytes  # of the file's edges: equal edges, equal digests
    buckets: tuple[int, ...]  # the node buckets its edges point into, ascending


NODE_STRINGS = (1, 2, 3, 6, 7, 8, 10)  # a Node's string fields: path, name, kind, lang, signature, doc, owner
_DETAILS = (7, 8)  # signature, doc: what resolving never reads (`build_graph`'s `details`)
_BOOLS = (False, True)
_NODE_CHUNK = 65_536  # strings marshalled at a time by `dump_strings`: no column is ever one bytes object
_CHUNK_LENGTH = struct.Struct("<Q")  # a chunk's length, before it


def file_spans(nodes: Sequence[Node]) -> list[tuple[str, int, int, int]]:
    """(path, start, end, first id) of each run of one path's nodes, in order: a `NodeTable`'s read from its
    columns, no node made (what an index that memoises per file needs of the files it does not read again)."""
    if isinstance(nodes, NodeTable):
        ids = nodes.ids
        return [(path, start, end, ids[start]) for path, start, end in nodes.file_runs()]
    spans = []
    start = 0
    for at in range(1, len(nodes) + 1):
        if at == len(nodes) or nodes[at].path != nodes[start].path:
            spans.append((nodes[start].path, start, at, nodes[start].id))
            start = at
    return spans


class NodeTable(list):
    """A graph's nodes held compactly, read as a list of `Node` (made as they are read): what a large build's
    parent holds once the graph is built, and every index worker it forks inherits (docs/decisions/0023,
    session 26).

    A list only in name, as `EdgeTable` (its own storage stays empty). Ids and lines are arrays, the entry flags
    bytes, and each string field an index into that field's distinct strings: names, owners, paths, kinds and
    languages repeat across the nodes, and none of them is a tuple of eleven objects with three ints of its own.
    Made from the node list (`from_nodes`) or read back from what `dump` wrote (`load`)."""

    def __init__(self) -> None:
        super().__init__()
        self.ids = array("q")
        self.lines = array("q")
        self.ends = array("q")
        self.entries = bytearray()
        self.strings: list[list[str]] = [[] for _ in NODE_STRINGS]  # per string field, its distinct strings
        self.codes = [array("I") for _ in NODE_STRINGS]  # per string field, each node's index into them

    @classmethod
    def from_nodes(cls, nodes: Sequence[Node], details: Iterable[tuple[str, str]] | None = None) -> NodeTable:
        """`details`: each node's signature and doc, in order, in place of the nodes' own (`node_details`)."""
        table = cls()
        table.ids.extend(n[0] for n in nodes)
        table.lines.extend(n[4] for n in nodes)
        table.ends.extend(n[5] for n in nodes)
        table.entries.extend(1 if n[9] else 0 for n in nodes)
        for field_at, strings, codes in zip(NODE_STRINGS, table.strings, table.codes):
            if details is not None and field_at in _DETAILS:
                continue
            seen: dict[str, int] = {}
            for node in nodes:
                value = node[field_at]
                code = seen.get(value)
                if code is None:
                    code = seen[value] = len(strings)
                    strings.append(value)
                codes.append(code)
        if details is not None:  # both columns in one pass: each file's symbols are read once
            columns: list[tuple[list[str], array, dict[str, int]]] = [
                (table.strings[at], table.codes[at], {}) for at in map(NODE_STRINGS.index, _DETAILS)]
            for pair in details:
                for value, (strings, codes, seen) in zip(pair, columns):
                    code = seen.get(value)
                    if code is None:
                        code = seen[value] = len(strings)
                        strings.append(value)
                    codes.append(code)
        return table

    def dump(self, out: IO[bytes]) -> list[tuple[int, int]]:
        """Write the table to `out`, a column at a time and its strings a chunk at a time (what `load` reads).
        Returns where in `out` each string column's chunks are (what `bundle.node_memo` copies of them)."""
        dump_columns(out, [len(s) for s in self.strings], self.ids, self.lines, self.ends, self.codes, self.entries)
        spans = []
        for strings in self.strings:
            start = out.tell()
            dump_strings(strings, out)
            spans.append((start, out.tell()))
        return spans

    @classmethod
    def load(cls, source: IO[bytes]) -> NodeTable:
        """The table `dump` wrote to `source` (a file this build wrote: not a bundle's bytes)."""
        count, sizes = marshal.load(source)
        table = cls()
        for column in (table.ids, table.lines, table.ends, *table.codes):
            column.fromfile(source, count)
        table.entries = bytearray(source.read(count))
        for strings, size in zip(table.strings, sizes):
            while len(strings) < size:
                strings += load_chunk(source)
            if len(strings) != size:  # chunks another table's (`bundle.node_memo` copies them) would overshoot
                raise ValueError("a node table's strings are not as many as its head says")
        return table

    def __len__(self) -> int:
        return len(self.ids)

    def __bool__(self) -> bool:
        return len(self.ids) > 0

    def __iter__(self) -> Iterator[Node]:
        return self._rows(0, len(self.ids))

    def _rows(self, start: int, end: int) -> Iterator[Node]:
        path, name, kind, lang, signature, doc, owner = (
            map(strings.__getitem__, codes[start:end]) for strings, codes in zip(self.strings, self.codes))
        return map(_make_node, zip(self.ids[start:end], path, name, kind, self.lines[start:end],
                                   self.ends[start:end], lang, signature, doc,
                                   map(_BOOLS.__getitem__, self.entries[start:end]), owner))

    def __getitem__(self, at):
        if isinstance(at, slice):
            start, end, step = at.indices(len(self.ids))
            return list(self._rows(start, end)) if step == 1 else list(self)[at]
        if at < 0:
            at += len(self.ids)
        if not 0 <= at < len(self.ids):
            raise IndexError("node index out of range")
        (paths, names, kinds, langs, signatures, docs, owners), codes = self.strings, self.codes
        return _make_node((self.ids[at], paths[codes[0][at]], names[codes[1][at]], kinds[codes[2][at]],
                           self.lines[at], self.ends[at], langs[codes[3][at]], signatures[codes[4][at]],
                           docs[codes[5][at]], _BOOLS[self.entries[at]], owners[codes[6][at]]))

    def path_counts(self) -> dict[str, int]:
        """Each path's node count, in the order the paths first come, without making the nodes."""
        paths = self.strings[0]
        return {paths[code]: count for code, count in Counter(self.codes[0]).items()}

    def kind_counts(self) -> dict[str, int]:
        """Each kind's node count, without making the nodes."""
        kinds = self.strings[2]
        return {kinds[code]: count for code, count in Counter(self.codes[2]).items()}

    def ids_of(self, kind: str) -> list[tuple[str, int]]:
        """(path, id) of each node of this kind, in order, without making the nodes."""
        kinds = self.strings[2]
        if kind not in kinds:
            return []
        wanted = kinds.index(kind)
        ats = list(compress(range(len(self.ids)), map(wanted.__eq__, self.codes[2])))
        paths, path_codes, ids = self.strings[0], self.codes[0], self.ids
        return [(paths[path_codes[at]], ids[at]) for at in ats]

    def nodes_in(self, paths: set[str]) -> list[Node]:
        """The nodes of these paths, in order: only theirs made."""
        return [node for path, start, end in self.file_runs() if path in paths for node in self[start:end]]

    def names_not_of(self, kind: str) -> set[str]:
        """The distinct names of the nodes of any other kind than `kind`, without making the nodes."""
        names, kinds = self.strings[1], self.strings[2]
        if kind not in kinds:
            return set(names)
        skipped = kinds.index(kind)
        return set(map(names.__getitem__, set(compress(self.codes[1], map(skipped.__ne__, self.codes[2])))))

    def file_runs(self) -> list[tuple[str, int, int]]:
        """(path, start, end) of each run of nodes of one path, in order: a file's nodes, without making them."""
        paths, codes = self.strings[0], self.codes[0]
        if not codes:
            return []
        # Where the path's code changes, found by C loops (a kernel's 3.7 million nodes, every build of it).
        starts = [0, *compress(range(1, len(codes)), map(ne, codes[1:], codes))]
        return [(paths[codes[start]], start, end) for start, end in zip(starts, [*starts[1:], len(codes)])]

    def __eq__(self, other: object) -> bool:
        return list(self) == list(other) if isinstance(other, list) else NotImplemented

    __hash__ = None

    def __reduce__(self) -> tuple:
        return _nodes_from_list, (list(self),)

    def by_id(self) -> NodesById:
        """The nodes by id, none of them held: `{n.id: n for n in table}` made the table's millions of nodes whole
        again in each index worker that looked nodes up by id (doc_links)."""
        return NodesById(self)


class NodesById:
    """A `NodeTable`'s nodes by id, as a read-only dict of them: found by bisection (ids ascend, as the nodes are
    placed), each made as it is read."""

    __slots__ = ("table",)

    def __init__(self, table: NodeTable) -> None:
        self.table = table

    def get(self, node_id: int, default: Node | None = None) -> Node | None:
        ids = self.table.ids
        at = bisect_left(ids, node_id)
        return self.table[at] if at < len(ids) and ids[at] == node_id else default

    def __getitem__(self, node_id: int) -> Node:
        node = self.get(node_id)
        if node is None:
            raise KeyError(node_id)
        return node

    def __contains__(self, node_id: object) -> bool:
        return type(node_id) is int and self.get(node_id) is not None

    def __len__(self) -> int:
        return len(self.table)

    def __iter__(self) -> Iterator[int]:
        return iter(self.table.ids)


def dump_columns(out: IO[bytes], sizes: list[int], ids: array, lines: array, ends: array, codes: list[array],
                 entries: bytes | bytearray) -> None:
    """A node table's head (its node count, each string column's count) and its columns, as `NodeTable.load` reads
    them; the string columns follow (`dump_strings`)."""
    marshal.dump((len(ids), sizes), out)
    for column in (ids, lines, ends, *codes):
        out.write(column.tobytes())
    out.write(entries)


def dump_strings(strings: list[str], out: IO[bytes]) -> None:
    """Strings as `NodeTable.load` reads them: a list of at most `_NODE_CHUNK` at a time, each after its length
    (read whole, then loaded: `marshal.load` on a file reads a few bytes at a time, 3.5 s instead of 0.6 for the
    kernel's 6 million strings)."""
    for start in range(0, len(strings), _NODE_CHUNK):
        data = marshal.dumps(strings[start:start + _NODE_CHUNK])
        out.write(_CHUNK_LENGTH.pack(len(data)))
        out.write(data)


def load_chunk(source: IO[bytes]) -> list[str]:
    """The next chunk `dump_strings` wrote to `source` (a file); raises EOFError or ValueError when it is not one."""
    head = source.read(_CHUNK_LENGTH.size)
    if len(head) != _CHUNK_LENGTH.size:
        raise EOFError("a node table's strings end early")
    (length,) = _CHUNK_LENGTH.unpack(head)
    if length > os.fstat(source.fileno()).st_size - source.tell():  # a damaged length allocates nothing
        raise EOFError("a node table's strings end early")
    data = source.read(length)
    chunk = marshal.loads(data)
    if type(chunk) is not list or not set(map(type, chunk)) <= {str}:
        raise ValueError("a node table's strings are not a list of strings")
    return chunk


def _nodes_from_list(nodes: list[Node]) -> NodeTable:
    return NodeTable.from_nodes(nodes)


def _make_node(values: tuple) -> Node:
    return tuple.__new__(Node, values)


@dataclass
class CodeGraph:
    nodes: list[Node]
    edges: list[Edge]  # an `EdgeTable` (read as a list of `Edge`, held packed), deduplicated, in a deterministic order
    unresolved: Counter  # by edge kind: names that resolved to nothing, or to too many
    # by edge kind, then resolution: how many uses (not edges) each route resolved
    routes: dict[str, Counter] = field(default_factory=dict)
    files: list[FileEdges] = field(default_factory=list)  # in path order; files with edges to resolve
    # node bucket -> a digest of what its nodes are made of (its files' paths, blobs, languages and placed
    # symbols, and the entry points manifests declare in it): equal digests, equal node records
    node_digests: dict[int, bytes] = field(default_factory=dict)
    # What resolving the edges cost, in steps (see `_Resolution.work`): not stored, for tests and benches.
    work: Counter = field(default_factory=Counter)

    def counts(self) -> dict[str, dict]:
        nodes = self.nodes.kind_counts() if isinstance(self.nodes, NodeTable) else Counter(n.kind for n in self.nodes)
        if isinstance(self.edges, EdgeTable):
            edges = Counter(self.edges.kind_counts())
            ambiguous = Counter(self.edges.kind_counts(HOW_CODES["ambiguous"]))
        else:
            edges = Counter(e[1] for e in self.edges)
            ambiguous = Counter(e[1] for e in self.edges if e[4] == "ambiguous")
        return {
            "nodes": dict(sorted(nodes.items())),
            "edges": dict(sorted(edges.items())),
            "unresolved": dict(sorted(self.unresolved.items())),
            # Two levels, as every count in build.json: `calls_by_route` = {"scope": n, "import": n, ...}.
            **{f"{kind}_by_route": dict(sorted(c.items())) for kind, c in sorted(self.routes.items())},
            "ambiguous_edges": dict(sorted(ambiguous.items())),
        }


def build_graph(
    files: Sequence[SourceFile],
    declared: Sequence[tuple[str, DeclaredEntry]] = (),
    on_nodes: Callable[[list[Node]], None] | None = None,
    memo: MemoTable | None = None,
    released: Callable[[], None] | None = None,
    details: bool = True,
) -> CodeGraph:
    """Merge per-file extracts into one graph with stable node ids (see `_place_nodes`).

    `on_nodes` sees the final node list before edges are resolved, so that a caller can start
    work that needs only the nodes (the symbol index) in parallel. `memo`: a build memo's table, where
    each file's resolved edges are kept, and taken back while what they were resolved from is unchanged.
    `released`: see `resolve_edges`. Without `details`, the nodes' signatures and docs are empty: resolving reads
    neither, and on the Linux kernel they are hundreds of megabytes of strings (`node_details` reads them again).
    """
    files = sorted(files, key=lambda f: f.path)
    nodes, file_node, symbol_ids = _place_nodes(files, details)

    modules = module_index(file_node)
    declared_nodes = nodes
    nodes = _apply_declared_entries(nodes, file_node, symbol_ids, declared, modules)
    if on_nodes is not None:
        on_nodes(nodes)
    # go.mod's module path is the root its packages are imported under: `example.com/m/sub` is folder sub;
    # package.json's name, what `require(name)` names from anywhere (the first manifest by path of a name).
    named: dict[str, dict[str, str]] = {"go.mod": {}, "package.json": {}}
    for path, entry in declared:
        if entry.module is None and entry.path is None and posixpath.basename(path) in named:
            named[posixpath.basename(path)].setdefault(entry.name, posixpath.dirname(path))
    work: Counter = Counter()
    mains = _package_mains(declared, named["package.json"])
    modules_index = ModuleIndex(file_node, modules, named["go.mod"], named["package.json"], mains)
    edges, unresolved, routes, parts = resolve_edges(files, nodes, file_node, symbol_ids, modules_index, memo, work,
                                                     released)
    return CodeGraph(nodes, edges, unresolved, routes, parts,
                     _node_digests(files, file_node, symbol_ids, declared_nodes, nodes), work)


def _node_digests(files: Sequence[SourceFile], file_node: dict[str, int], symbol_ids: dict[str, list[int]],
                  before: list[Node], after: list[Node]) -> dict[int, bytes]:
    """Each node bucket's digest of what its node records are made of (see `CodeGraph.node_digests`)."""
    made_of: dict[int, list] = defaultdict(list)
    for f in files:  # by path: a bucket's files in the order their nodes are placed
        first = file_node.get(f.path)
        if first is not None:
            made_of[first >> NODE_ORDINAL_BITS].append((f.path, f.blob, f.lang, len(symbol_ids[f.path])))
    if after is not before:  # manifests declared entry points: the nodes they made entries
        for old, new in zip(before, after):
            if new is not old:
                made_of[new.id >> NODE_ORDINAL_BITS].append(new.id)
    return {bucket: _digest(what) for bucket, what in made_of.items()}


def node_buckets(total_nodes: int) -> int:
    """How many buckets files are hashed into: a power of two, about NODES_PER_BUCKET nodes each."""
    return shard_count(total_nodes, NODES_PER_BUCKET)


def _bucket_count(files: Sequence[SourceFile]) -> int:
    """The buckets `_place_nodes` hashes these files into (counting symbols it may leave unplaced)."""
    return node_buckets(sum(1 + (len(f.extract.symbols) if f.extract else 0) for f in files))


def file_bucket(path: str, buckets: int) -> int:
    """The bucket a file's nodes are placed in: its path's shard (`shards.shard_of`, as the storage floor's)."""
    return shard_of(path, buckets)


def _place_nodes(files: Sequence[SourceFile], details: bool = True,
                 ) -> tuple[list[Node], dict[str, int], dict[str, list[int]]]:
    """Nodes with stable ids: `bucket << NODE_ORDINAL_BITS | ordinal`, files hashed into buckets by path.

    A file's nodes keep their ids when another file changes (only files after it in its own bucket
    move), so a one-file commit rewrites the few bundle blobs that file touches instead of renumbering
    every node after it. Returns the nodes in id order, path -> file node id, path -> symbol ids.
    Without `details`, symbols' signatures and docs are left empty (see `build_graph`).
    """
    buckets = _bucket_count(files)
    nodes: list[Node] = []
    file_node: dict[str, int] = {}
    symbol_ids: dict[str, list[int]] = {}  # path -> node id of each symbol, in extract order
    next_ordinal: dict[int, int] = defaultdict(int)
    capacity = 1 << NODE_ORDINAL_BITS
    make = tuple.__new__  # as Node._make, without a Python call per node: there are tens of thousands
    for bucket, _path, f in sorted((file_bucket(f.path, buckets), f.path, f) for f in files):
        extract = f.extract
        symbols = extract.symbols if extract else ()
        # A bucket holds about NODES_PER_BUCKET nodes, and a file at most MAX_SYMBOLS: overflowing the
        # ordinal space would take dozens of the largest files hashed into one bucket. Keep the file node.
        room = capacity - next_ordinal[bucket] - 1
        if room < 0:
            continue
        symbols = symbols[:room]
        first = bucket << NODE_ORDINAL_BITS | next_ordinal[bucket]
        next_ordinal[bucket] += 1 + len(symbols)
        file_node[f.path] = first
        nodes.append(Node(first, f.path, posixpath.basename(f.path), "file", 1, 1, f.lang or "",
                          "", "", bool(extract and extract.entry)))
        ids = list(range(first + 1, first + 1 + len(symbols)))
        path, lang = f.path, f.lang or ""
        nodes += [make(Node, (node_id, path, s.name, s.kind, s.line, s.end_line, lang,
                              s.signature if details else "", s.doc if details else "", s.entry, owner))
                  for node_id, s, owner in zip(ids, symbols, _owners(symbols))]
        symbol_ids[f.path] = ids
    return nodes, file_node, symbol_ids


def node_details(nodes: Sequence[Node], symbols_of: dict[str, Sequence]) -> Iterator[tuple[str, str]]:
    """Each node's signature and doc, in order, read again from its file's symbols (path -> the symbols of its
    extract): what `build_graph` leaves out without `details` (a file node's are empty)."""
    symbols: Sequence = ()
    at = 0
    for node in nodes:
        if node.kind == "file":  # its symbols' nodes follow it, in their order (`_place_nodes`)
            symbols, at = symbols_of.get(node.path, ())[:], 0  # set aside on disk: read once here
            yield "", ""
        else:
            s = symbols[at]
            at += 1
            yield s.signature, s.doc


def _owners(symbols: Sequence) -> list[str]:
    """Each symbol's chain of enclosing symbols, dotted (`Outer.Inner`), else the object the parser
    saw it assigned onto (`res` for `res.send = function send() {}`), else ""."""
    owners: list[str] = []
    dotted: list[str] = []  # each symbol's chain of enclosing symbols, when it is shorter than the bound
    count = len(symbols)
    for index, s in enumerate(symbols):
        parent = s.parent
        if not 0 <= parent < count:
            dotted.append("")
            owners.append(s.owner)
            continue
        if parent < index and dotted[parent] is not None:  # the parent's chain, already known, plus its name
            chain = f"{dotted[parent]}.{symbols[parent].name}" if dotted[parent] else symbols[parent].name
            if chain and chain.count(".") < 8:
                dotted.append(chain)
                owners.append(chain)
                continue
        links: list[str] = []
        while 0 <= parent < count and len(links) < 8:  # bounded: a bad parent cannot loop
            links.append(symbols[parent].name)
            parent = symbols[parent].parent
        dotted.append(None)  # type: ignore[arg-type]
        owners.append(".".join(reversed(links)) or s.owner)
    return owners


_REQUIRED_FIRST = (".js", ".cjs", ".mjs")  # what `require` loads of the files a package.json names


def _package_mains(declared: Sequence[tuple[str, DeclaredEntry]], packages: Mapping[str, str]) -> dict[str, str]:
    """A package.json's folder -> the file `require('..')` loads from under it: of the files the manifest names
    under the package's own name (its `main`, its `exports`, a bin named after it), a CommonJS one first, not a
    bin's (mustache's `bin/mustache` requires '..', its `main` mustache.js)."""
    named: dict[str, list[str]] = defaultdict(list)
    for path, entry in declared:
        folder = posixpath.dirname(path)
        if posixpath.basename(path) == "package.json" and entry.path and packages.get(entry.name) == folder \
                and entry.path.endswith(_REQUIRED_FIRST) and "bin" not in entry.path.split("/")[:-1]:
            named[folder].append(entry.path)
    return {folder: min(paths, key=lambda p: (_REQUIRED_FIRST.index(posixpath.splitext(p)[1]), len(p), p))
            for folder, paths in named.items()}


def _apply_declared_entries(
    nodes: list[Node],
    file_node: dict[str, int],
    symbol_ids: dict[str, list[int]],
    declared: Sequence[tuple[str, DeclaredEntry]],
    modules: dict[str, list[int]],
) -> list[Node]:
    """Tag what manifests declare (console scripts, package.json bin) as entry points."""
    if not declared:
        return nodes
    entries: set[int] = set()
    by_id = {n.id: n for n in nodes}
    for manifest_path, entry in declared:
        if entry.path is not None and entry.path in file_node:
            entries.add(file_node[entry.path])
        if entry.module is None:
            continue
        for file_id in resolve_module(entry.module, manifest_path, modules):
            path = by_id[file_id].path
            if entry.function is None:
                entries.add(file_id)
                continue
            head = entry.function.split(".")[-1]
            entries.update(i for i in symbol_ids[path] if by_id[i].name == head)
    return [
        n._replace(entry=True)
        if n.id in entries and not n.entry else n
        for n in nodes
    ]


# ------------------------------------------------------------------------------------------ resolution

# Receivers that mean "this object": the call resolves in the enclosing class and its bases.
_SELF_NAMES = frozenset(("self", "this", "cls", "Self", "@", "super", "__MODULE__"))
# What each language means by its imports and calls is a row of `gitroute.traits.LANGUAGES`.
_MAX_REEXPORT_DEPTH = 4  # `from .query import QuerySet` in a package's __init__, re-exported again above
# What one lookup gives back at most: the same name at the top of more files than this is no one symbol.
MAX_LOOKUP_TARGETS = 32
# What one lookup may cost: the files it scans and those the re-exports it follows scan, as often as they are
# reached (a memoised lookup counts what it cost when it was made). Past it, no more re-exports are followed:
# a name that many files away is not found through them (a package that star-imports every module of a
# package that star-imports it back looks each name up through a bounded few, not all of them).
MAX_LOOKUP_COST = 512
_MAX_BASE_DEPTH = 8
_TYPE_KINDS = frozenset(TYPE_KINDS)
_NOT_RESOLVED = frozenset(("external", "unresolved", "too_ambiguous"))


class _SetIndex(NamedTuple):
    """A set of files a lookup searches (a package's files), indexed once for every name looked up in it."""

    names: dict[str, list[int]]  # name -> positions of the files that define it at the top, or bind it
    # position -> the star-imported modules to follow there: each module once, where a file first imports it
    stars: dict[int, list[list[int]]]


# A lookup in more files than this reads them through their `_SetIndex`, not one by one.
_SCANNED_SET = 8


class _IncludePlan(NamedTuple):
    """What a file's includes name, for `_Resolution._included`: per include, its files' top-level tables (a set of
    more than `_SCANNED_SET` files: the files, which `lookup` scans), what reading them reads, and the cost and work
    `_top_names` notes for them."""
    reads: frozenset
    tables: list[tuple[dict[str, list[int]], ...] | list[int]]
    cost: int
    lookups: int
    cost_max: int


class _ReadGroup:
    """What one memoised value read (past `_GROUP_PAST` reads), kept once and shared by every use of it: the keys it
    read itself, and what the memoised values it used read (their keys, or their groups), or a package's paths read
    at once. A use adds the group to the reads under way, not its keys: in an import cycle each file's resolution
    reaches every module, and copying what each module's lookups read into each file's reads, then keeping it, was
    quadratic in the cycle (py-star-cycle). Hashed by identity, as made once; `_EdgeMemo.settle` numbers a group as
    a key listing its members' numbers."""

    __slots__ = ("members",)

    def __init__(self, members: tuple) -> None:
        self.members = members


_NOT_KEPT = object()  # `_fold`: a value read while a class's bases were being resolved (a cycle) is not memoised
# What a memoised value read is kept as one group past this many reads; fewer are copied at each use, which costs
# less than numbering a group (django's 34,000 memo entries read a few keys each).
_GROUP_PAST = 8


def _kept_reads(reads: set | tuple) -> tuple:
    """What a memo entry keeps of `reads`, which each use adds to the reads under way: them, or one group of them."""
    return (_ReadGroup(tuple(reads)),) if len(reads) > _GROUP_PAST else tuple(reads)


def _fold(outer: set, inner: set, outer_cycles: set, inner_cycles: set) -> tuple:
    """Fold what a computation read (`inner`) into the reads around it (`outer`) as its memo entry keeps it
    (`_kept_reads`, returned); or read by read, and `_NOT_KEPT`, when it read the bases of a class still being
    resolved (it depends on where the cycle was entered: a memo must give every file the same answer in any order)."""
    if inner_cycles:
        outer |= inner
        outer_cycles |= inner_cycles
        return _NOT_KEPT  # type: ignore[return-value]
    kept = _kept_reads(inner)
    outer.update(kept)
    return kept


class _Resolution:
    """The indexes that every use in the snapshot is resolved against, and memos shared across files."""

    def __init__(
        self,
        files: Sequence[SourceFile],
        nodes: list[Node],
        file_node: dict[str, int],
        symbol_ids: dict[str, list[int]],
        modules: ModuleIndex,
    ) -> None:
        self.nodes = {n.id: n for n in nodes}  # ids are stable, not list positions
        self.node_list = nodes
        self.file_node = file_node
        self.symbol_ids = symbol_ids
        self.modules = modules
        self.extracts: dict[str, FileExtract] = {f.path: f.extract for f in files if f.extract}
        # Built on demand: a build that takes most files' edges from its memo resolves a few files,
        # and reads the tables of the few files those name.
        self._everywhere: dict[str, int | list[int]] | None = None  # name -> id(s) of every symbol so called
        self._everywhere_kind: dict[tuple[str, bool], list[int]] = {}  # (name, methods) -> methods, or types
        self.local: dict[str, dict[str, list[int]]] = {}  # path -> name -> ids
        self.top: dict[str, dict[str, list[int]]] = {}  # path -> name -> ids of top-level symbols
        self.members: dict[int, dict[str, list[int]]] = {}  # type id -> name -> ids of its members
        self.parent: dict[int, int] = {}  # symbol id -> enclosing symbol id
        self.class_bases: dict[int, list[tuple[str, str, int]]] = {}  # class id -> (path, base, symbol index)
        self._in_folder: dict[str, dict[str, list[int]]] = {}  # name -> folder -> ids, built on demand
        # What the use being resolved has read so far: a file's path for anything read from that file, the keys
        # of `module_files` and `_by_name`, which read tables of every file, and `_ReadGroup`s: what a memoised
        # value read (all of a package's files read at once by `_set_index` are one group of paths).
        self.reads: set = set()
        self.cycles: set[int] = set()  # classes whose bases were read while still being resolved
        # Memos shared across files keep, beside each value, what computing it read (`_kept_reads`).
        self.lookup_memo: dict[tuple[int | tuple[int, ...], str, int], tuple[list[int], tuple, int]] = {}
        self.file_sets: dict[int, int] = {}  # id of a list `module_files` gave -> its number (`_files_key`)
        self.set_numbers: dict[tuple[int, ...], int] = {}  # the files of such a list -> its number
        self.binding_memo: dict[tuple, tuple[list[int] | None, tuple, int]] = {}
        self.cost = 0  # what the lookup or binding being computed has cost so far (see `_costed`)
        self.set_memo: dict[int | tuple[int, ...], tuple[_SetIndex, tuple]] = {}
        self.stars_memo: dict[str, tuple[list[list[int]], tuple]] = {}
        # id of a file's star modules -> (them, the read of their files, their top-level symbols by name)
        self.star_tops_memo: dict[int, tuple[list[list[int]], tuple, dict[str, list[int]], list[list[int]]]] = {}
        self.members_memo: dict[tuple[tuple[int, ...], str], tuple[list[int], tuple]] = {}
        self.by_name_memo: dict[tuple[str, str, str, bool, bool, bool], tuple[list[int], str]] = {}
        self.bindings: dict[str, dict[str, list[Binding]]] = {}
        self.module_memo: dict[tuple[str, str, str, str], list[int] | None] = {}
        self.base_memo: dict[int, tuple[list[int], tuple] | None] = {}  # None: being resolved
        self.module_name_memo: dict[tuple[str, str], list[int]] = {}
        self.relative: dict[str, bool] = {}  # module spec -> whether it is relative (`binding_targets`)
        # What resolving cost, in steps that do not depend on the machine: lookups (of a name in a set of files,
        # at one re-export level) and the files they scanned, and bindings followed (each once per build).
        self.work: Counter = Counter()
        self.include_plan: tuple[str, _IncludePlan] | None = None  # the file being resolved's (`_included`)

    def tables(self, path: str) -> tuple[dict[str, list[int]], dict[str, list[int]]]:
        """A file's names -> ids, of all its symbols and of its top-level ones; its members and parents
        and its classes' bases are filed at the same time."""
        local = self.local.get(path)
        if local is not None:
            return local, self.top[path]
        local = self.local[path] = {}
        self.top[path] = local
        extract = self.extracts.get(path)
        if extract is None or path not in self.symbol_ids:
            return local, local
        ids = self.symbol_ids[path]
        # A node's kind is its symbol's: read here, not through self.nodes. Read once (they may be set aside on
        # disk: `SpilledSymbols`); the names are the nodes' own strings, not copies held as this table's keys.
        symbols = tuple(extract.symbols)
        names = [node.name for node in map(self.nodes.__getitem__, ids)]
        placed = len(ids)
        parents, members = self.parent, self.members
        nested = False
        # Unpacked, not read by field name: every file's symbols pass here once (django: 45,000).
        for node_id, name, (_, kind, _line, _end, _signature, _doc, parent, _entry, _owner) in zip(ids, names,
                                                                                                  symbols):
            here = local.get(name)
            if here is None:
                local[name] = [node_id]
            else:
                here.append(node_id)
            if 0 <= parent < placed:
                nested = True
                parents[node_id] = ids[parent]
                held_by = parent
                if kind == "method" and symbols[parent].kind == "constant":
                    held_by = symbols[parent].parent  # a Java enum constant's body: its enum's members
                if 0 <= held_by < placed and symbols[held_by].kind in _TYPE_KINDS:
                    members.setdefault(ids[held_by], {}).setdefault(name, []).append(node_id)
        # A file whose symbols are all top-level (most C files) has one table for both: the kernel's are millions
        # of lists, held until the last file is resolved.
        top = self.top[path] = _top_level(ids, names, symbols, placed) if nested else local
        for ref in extract.bases:
            if 0 <= ref.source < placed:
                self.class_bases.setdefault(ids[ref.source], []).append((path, ref.name, ref.source))
        return local, top

    def everywhere(self, name: str, kind: str = "") -> list[int]:
        """Every symbol called `name`, in id order; `kind`: "method" for methods only, "type" for types."""
        if self._everywhere is None:
            self._index_names()
        assert self._everywhere is not None
        held = self._everywhere.get(name, [])
        found = [held] if isinstance(held, int) else held
        if not kind or not found:
            return found
        key = (name, kind == "method")
        narrowed = self._everywhere_kind.get(key)
        if narrowed is None:
            nodes = self.nodes
            if kind == "method":
                narrowed = [i for i in found if nodes[i].kind == "method"]
            else:
                narrowed = [i for i in found if nodes[i].kind in _TYPE_KINDS]
            self._everywhere_kind[key] = narrowed
        return narrowed

    def in_folder(self, folder: str, name: str) -> list[int]:
        """The symbols called `name` in the files of one folder, in id order."""
        folders = self._in_folder.get(name)
        if folders is None:  # every folder's, at once: a common name is looked up from many folders
            folders = self._in_folder[name] = {}
            nodes = self.nodes
            for i in self.everywhere(name):
                folders.setdefault(nodes[i].path.rpartition("/")[0], []).append(i)
        return folders.get(folder, [])

    def _index_names(self) -> None:
        """`_everywhere`: a name's one symbol as its id, not a list of one (most of a C repository's names: millions
        of lists on the kernel), its symbols' ids in a list otherwise."""
        everywhere: dict[str, int | list[int]] = {}
        for node in self.node_list:  # in id order: each list is too
            if node.kind != "file":
                here = everywhere.get(node.name)
                if here is None:
                    everywhere[node.name] = node.id
                elif isinstance(here, int):
                    everywhere[node.name] = [here, node.id]
                else:
                    here.append(node.id)
        self._everywhere = everywhere

    # ---------------------------------------------------------------- what a file binds

    def _memoised(self, memo: dict, key: object, compute: Callable[[], object]) -> object:
        """`compute()`, memoised with what it read (`_kept_reads`), which a later hit adds to the reads under way.
        A value that read the bases of a class still being resolved (a cycle) is not kept (see `_fold`)."""
        hit = memo.get(key)
        if hit is not None:
            self.reads.update(hit[1])
            return hit[0]
        outer, outer_cycles = self.reads, self.cycles
        self.reads, self.cycles = set(), set()
        try:
            value = compute()
        finally:
            inner, inner_cycles = self.reads, self.cycles
            self.reads, self.cycles = outer, outer_cycles
        kept = _fold(outer, inner, outer_cycles, inner_cycles)
        if kept is not _NOT_KEPT:
            memo[key] = (value, kept)
        return value

    def _costed(self, memo: dict, key: object, compute: Callable[[], object]) -> object:
        """`_memoised` for lookups and bindings, which also keeps what computing the value cost (`self.cost`):
        the files it scanned, and what the lookups and bindings it followed cost, whether or not they were
        memoised. So a lookup's cost, and where `MAX_LOOKUP_COST` stops it, are the same in any order."""
        hit = memo.get(key)
        if hit is not None:
            self.reads.update(hit[1])
            self.cost += hit[2]
            return hit[0]
        outer, outer_cycles, outer_cost = self.reads, self.cycles, self.cost
        self.reads, self.cycles, self.cost = set(), set(), 0
        try:
            value = compute()
        finally:
            inner, inner_cycles, inner_cost = self.reads, self.cycles, self.cost
            self.reads, self.cycles, self.cost = outer, outer_cycles, outer_cost + inner_cost
        kept = _fold(outer, inner, outer_cycles, inner_cycles)
        if kept is not _NOT_KEPT:
            memo[key] = (value, kept, inner_cost)
        if inner_cost > self.work["cost_max"]:
            self.work["cost_max"] = inner_cost
        return value

    def file_bindings(self, path: str) -> dict[str, list[Binding]]:
        self.reads.add(path)
        found = self.bindings.get(path)
        if found is None:
            found = defaultdict(list)
            extract = self.extracts.get(path)
            if extract is not None:
                bindings = extract.bindings
                if traits(extract.lang).imports == "implied":
                    bindings = _implied_bindings(extract)
                for b in bindings:
                    found[b.local].append(b)
            self.bindings[path] = found
        return found

    def module_files(self, spec: str, importer: str, lang: str) -> list[int] | None:
        """Files a module spec names in this snapshot; None when it names none (it is outside the repository)."""
        style = module_style(lang)
        found = self._module_files(spec, importer, style)
        if found is None and style == "python" and not spec.startswith("."):
            # No source root holds it: the folders the importer is in may.
            found = self._module_files(spec, importer, "python-path")
        return found

    def _module_files(self, spec: str, importer: str, style: str) -> list[int] | None:
        # Keyed by what the answer depends on (`ModuleIndex.scope`): most specs mean the same from every file.
        key = ("module", spec, *self.modules.scope(spec, importer, style))
        self.reads.add(key)
        if key in self.module_memo:
            return self.module_memo[key]
        found = self.module_memo[key] = self.module_files_at(key)
        if found is not None:
            # A package of a thousand files is a key of lookups made for every name in it: named by a number,
            # its tuple is not hashed again each time. (The memo keeps the list alive: its id stays its own.)
            self.file_sets[id(found)] = self.set_numbers.setdefault(tuple(found), len(self.set_numbers))
        return found

    def _files_key(self, file_ids: list[int]) -> int | tuple[int, ...]:
        """A memo key for a set of files: its number when `module_files` gave it, else its ids."""
        number = self.file_sets.get(id(file_ids))
        return number if number is not None else tuple(file_ids)

    def module_files_at(self, key: tuple[str, str, str, str]) -> list[int] | None:
        """`module_files` by its memo key: what a spec names from any file of a folder, by a module style."""
        _, spec, folder, style = key
        return self.modules.files(spec, folder, style)

    # ---------------------------------------------------------------- lookups

    def lookup(self, file_ids: list[int], name: str, depth: int = 0) -> list[int]:
        """Top-level symbols called `name` in these files, following re-exports (`from .x import name`) down to
        `_MAX_REEXPORT_DEPTH` levels. Memoised at every level, as `binding_targets` is: each (files, name, level)
        is looked up once in a build, so re-exports that fan out again at each level cost what they hold, not
        the product of their fan-outs."""
        if depth >= _MAX_REEXPORT_DEPTH and len(file_ids) <= _SCANNED_SET:
            return self._top_names(file_ids, name)
        return self._costed(self.lookup_memo, (self._files_key(file_ids), name, depth),  # type: ignore[return-value]
                            lambda: self._lookup(file_ids, name, depth))

    def _top_names(self, file_ids: list[int], name: str) -> list[int]:
        """`_lookup` where it follows no re-export (past the last level; C includes always are) in a few files: the
        top-level symbols called `name` in each, with the reads and the cost `_costed` would note, unmemoised.
        A memo entry costs more than the dictionary reads it saves, and C's (header, name) pairs are millions,
        nearly all of them misses. Counted apart (`shallow_lookups`): each reads at most `_SCANNED_SET` tables, once
        per use that makes it, so their number follows the uses, never the re-exports'."""
        self.work["shallow_lookups"] += 1
        self.work["shallow_files"] += len(file_ids)
        found: list[int] = []
        reads, nodes, tables = self.reads, self.nodes, self.tables
        for file_id in file_ids:
            path = nodes[file_id].path
            reads.add(path)
            here = tables(path)[1].get(name)
            if here:
                found.extend(here)
        self.cost += len(file_ids)
        if len(file_ids) > self.work["cost_max"]:
            self.work["cost_max"] = len(file_ids)
        return self._bounded(found)

    def _bounded(self, found: list[int]) -> list[int]:
        """Each symbol once (files that import a name from one module all lead to it), and a bounded few: a name
        that many files define at the top is no one symbol (a cut is counted)."""
        found = list(dict.fromkeys(found)) if len(found) > 1 else found
        if len(found) > MAX_LOOKUP_TARGETS:
            self.work["lookups_cut"] += 1
            del found[MAX_LOOKUP_TARGETS:]
        return found

    def _lookup(self, file_ids: list[int], name: str, depth: int) -> list[int]:
        self.work["lookups"] += 1
        found: list[int] = []
        cut = False
        stars: dict[int, list[list[int]]] | None = None  # position -> the star modules to follow there
        followed: set[int | tuple[int, ...]] = set()  # star modules followed (by `_files_key`): none twice
        if len(file_ids) > _SCANNED_SET:
            # A package of many files: only those that define or bind the name, or star-import a module no file
            # before them did (following it again would find what it found then: nothing), can add anything.
            index = self.set_index(file_ids)
            stars = index.stars
            relevant = sorted(set(index.names.get(name, ())).union(stars))
            file_ids = [file_ids[at] for at in relevant]
        self.work["lookup_files"] += len(file_ids)
        for at, file_id in enumerate(file_ids):
            self.cost += 1
            path = self.nodes[file_id].path
            self.reads.add(path)
            here = self.tables(path)[1].get(name)
            if here:
                found.extend(here)
                continue
            if depth >= _MAX_REEXPORT_DEPTH or path not in self.extracts:
                continue
            if self.cost > MAX_LOOKUP_COST:  # the files this lookup reached are enough: no more re-exports
                cut = True
                continue
            bindings = self.file_bindings(path)
            for b in bindings.get(name, ()):
                targets = self.binding_targets(path, b, "", depth + 1)
                if targets:
                    found.extend(targets)
            if not found and "*" in bindings:
                modules = stars.get(relevant[at], []) if stars is not None else self.star_modules(path)
                cut = self._through_stars(modules, name, depth, followed, found) or cut
        if cut:
            self.work["lookups_cut"] += 1
        return self._bounded(found)

    def _through_stars(self, modules: list[list[int]], name: str, depth: int, followed: set[int | tuple[int, ...]],
                       found: list[int]) -> bool:
        """Look `name` up in the modules a file star-imports, adding to `found`; whether the cost bound cut it.

        The modules that define it at their top come first: when a few-file module does, that is what the star
        import brings, and the re-exports of the others are not followed (a package that star-imports every
        module of a ring would look each name up through all of them, each costing a lookup, for a name
        one of them defines). The index's files are one read, so a module that gains the name is seen."""
        tops, large = self.star_tops(modules)
        direct = tops.get(name)
        if direct:  # then only the many-file modules are followed further
            self.cost += 1
            found.extend(direct)
            modules = large
        # By `_files_key`: a tuple of a package's files, hashed per module per lookup, was quadratic (go-packages).
        pending = [(files, key) for files in modules if files and (key := self._files_key(files)) not in followed]
        for files, key in pending:
            if self.cost > MAX_LOOKUP_COST:
                return True
            followed.add(key)
            found.extend(self.lookup(files, name, depth + 1))
        return False

    def star_tops(self, modules: list[list[int]]) -> tuple[dict[str, list[int]], list[list[int]]]:
        """The symbols at the top of the few-file modules of one file's star imports, by name, indexed once for
        every name looked up through them; and the many-file modules, which their own `_SetIndex` reads.
        `modules` comes from a memo (`star_modules`, a `_SetIndex`), so its id names it; this memo keeps it
        alive, so the id is never another list's."""
        hit = self.star_tops_memo.get(id(modules))
        if hit is None:
            paths = tuple(dict.fromkeys(self.nodes[file_id].path for files in modules
                                        if len(files) <= _SCANNED_SET for file_id in files))
            tops: dict[str, list[int]] = defaultdict(list)
            for path in paths:
                for name, ids in self.tables(path)[1].items():
                    tops[name].extend(ids)
            large = [files for files in modules if len(files) > _SCANNED_SET]
            hit = self.star_tops_memo[id(modules)] = (modules, _kept_reads(paths), tops, large)
        self.reads.update(hit[1])
        return hit[2], hit[3]

    def star_modules(self, path: str) -> list[list[int]]:
        """The files each star import of a file names (a package's __init__ may star-import a hundred)."""
        return self._memoised(self.stars_memo, path, lambda: [  # type: ignore[return-value]
            self.module_files(b.module, path, self.extracts[path].lang) or []
            for b in self.file_bindings(path).get("*", ())])

    def set_index(self, file_ids: list[int]) -> _SetIndex:
        """What a lookup in a set of files needs of them, by name: see `_SetIndex`."""
        return self._memoised(self.set_memo, self._files_key(file_ids),  # type: ignore[return-value]
                              lambda: self._set_index(file_ids))

    def _set_index(self, file_ids: list[int]) -> _SetIndex:
        names: dict[str, list[int]] = defaultdict(list)
        stars: dict[int, list[list[int]]] = {}
        followed: set[int | tuple[int, ...]] = set()  # by `_files_key`, as `_lookup`'s
        # What the index reads of its files is one group of their paths, made once: not a path each.
        paths = tuple(self.nodes[file_id].path for file_id in file_ids)
        outer, self.reads = self.reads, set()
        for at, path in enumerate(paths):
            for name in self.tables(path)[1]:
                names[name].append(at)
            if path not in self.extracts:
                continue
            bindings = self.file_bindings(path)
            lang = self.extracts[path].lang
            for name, bound in bindings.items():
                if name == "*":
                    for b in bound:
                        files = self.module_files(b.module, path, lang)
                        if files and (key := self._files_key(files)) not in followed:
                            followed.add(key)
                            stars.setdefault(at, []).append(files)
                elif bound:
                    names[name].append(at)
        outer.update(key for key in self.reads if type(key) is not str)  # the module keys its stars read
        outer.update(_kept_reads(paths))
        self.reads = outer
        return _SetIndex(names, stars)

    def binding_targets(self, path: str, b: Binding, member: str, depth: int = 0) -> list[int] | None:
        """What a binding names (`member` of it, when the use is `local.member`); None: outside the repository."""
        self.reads.add(path)
        lang = self.extracts[path].lang
        # An absolute module means the same from every file, a relative one from every file of a folder.
        relative = self.relative.get(b.module)
        if relative is None:
            relative = self.relative[b.module] = b.module.strip().strip("\"'<>").startswith(".")
        key = (lang, posixpath.dirname(path) if relative else "", b.module, b.name,
               b.local if b.name == "default" else "", member, depth)
        return self._costed(self.binding_memo, key,  # type: ignore[return-value]
                            lambda: self._binding_targets(path, lang, b, member, depth))

    def _binding_targets(self, path: str, lang: str, b: Binding, member: str, depth: int) -> list[int] | None:
        self.work["bindings"] += 1
        sep = traits(lang).module_separator
        if not b.name or b.name == "default":
            files = self.module_files(b.module, path, lang)
            if files is None:
                return None
            if b.name == "default" and not member:
                return self.lookup(files, b.local, depth) or []
            return self.lookup(files, member, depth) if member else []
        submodule = None
        if not b.module.endswith(sep) and b.module not in (".", ".."):
            submodule = self.module_files(b.module + sep + b.name, path, lang)
        elif b.module in (".", ".."):
            submodule = self.module_files(b.module + b.name, path, lang)
        files = self.module_files(b.module, path, lang)
        if files is None and submodule is None:
            return None
        if member:
            if submodule:
                found = self.lookup(submodule, member, depth)
                if found:
                    return found
            owners = self.lookup(files, b.name, depth) if files else []
            if not owners and submodule:
                owners = self.lookup(submodule, b.name, depth)
            cost = self.cost  # what reading a class's members costs is no lookup's (see `_costed`)
            found = self.class_members(owners, member)
            self.cost = cost
            return found
        found = self.lookup(files, b.name, depth) if files else []
        if not found and submodule:
            found = self.lookup(submodule, b.name, depth)
        return found

    def class_members(self, classes: list[int], name: str) -> list[int]:
        """Members called `name` of these classes, or of their bases (nearest first), bounded."""
        return self._memoised(self.members_memo, (tuple(classes), name),  # type: ignore[return-value]
                              lambda: self._class_members(classes, name))

    def _class_members(self, classes: list[int], name: str) -> list[int]:
        seen: set[int] = set()
        level = [c for c in classes if self.nodes[c].kind in _TYPE_KINDS]
        for _ in range(_MAX_BASE_DEPTH):
            for c in level:
                path = self.nodes[c].path
                self.reads.add(path)
                if path not in self.local:
                    self.tables(path)  # its members
            found = [m for c in level for m in self.members.get(c, {}).get(name, ())] if level else []
            if found:
                return found
            seen.update(level)
            level = [b for c in level for b in self.bases_of(c) if b not in seen]
            if not level:
                break
        return []

    def bases_of(self, class_id: int) -> list[int]:
        if class_id in self.base_memo:
            hit = self.base_memo[class_id]
            if hit is None:  # a cycle (`class A(B)`, `class B(A)`) stops here
                self.cycles.add(class_id)
                return []
            self.reads.update(hit[1])
            return hit[0]
        self.base_memo[class_id] = None
        outer, outer_cycles = self.reads, self.cycles
        self.reads, self.cycles = {self.nodes[class_id].path}, set()
        self.tables(self.nodes[class_id].path)
        found: list[int] = []
        try:
            for path, name, source in self.class_bases.get(class_id, ()):
                receiver, _, last = name.replace("::", ".").rpartition(".")
                targets, _how = self.resolve(path, source, last, receiver, types_only=True)
                found.extend(t for t in targets if self.nodes[t].kind in _TYPE_KINDS and t != class_id)
        finally:
            inner, inner_cycles = self.reads, self.cycles
            self.reads, self.cycles = outer, outer_cycles
            del self.base_memo[class_id]
        inner_cycles.discard(class_id)  # the cycle closed here: what it read is this class's own answer
        kept = _fold(outer, inner, outer_cycles, inner_cycles)
        if kept is not _NOT_KEPT:
            self.base_memo[class_id] = (found, kept)
        return found

    def modules_named(self, full: str, lang: str) -> list[int]:
        """The modules of `lang` whose full name is `full`, in id order: `Plug.Conn.Unfetched` is a module so
        named, or a nested `Unfetched` (or `Conn.Unfetched`) whose enclosing modules are named the rest."""
        parts = full.split(".")
        suffixes = [".".join(parts[start:]) for start in range(len(parts))]
        self.reads.update(("module_named", full, suffix, lang) for suffix in suffixes)  # key[2]: a symbol name
        found = self.module_name_memo.get((full, lang))
        if found is None:
            nodes = self.nodes
            found = self.module_name_memo[(full, lang)] = sorted(
                i for suffix in suffixes for i in self.everywhere(suffix, "type")
                if nodes[i].lang == lang and (f"{nodes[i].owner}.{nodes[i].name}" if nodes[i].owner else nodes[i].name)
                == full)
        return found

    def _module_member(self, path: str, lang: str, receiver: str, name: str, types_only: bool,
                       ) -> tuple[list[int], str]:
        """A use of `receiver.name` where the receiver names a module (`Traits.modules_by_name`): the module's function,
        or with `types_only` the module `receiver.name` itself. A module is named by its first part when that
        is an alias of the file (`alias Plug.Conn` then `Conn.Unfetched`) or a module the file defines (a
        nested `defmodule Unfetched` is `Unfetched` in the module around it), else in full."""
        full = f"{receiver}.{name}" if types_only else receiver
        nodes = self.nodes
        local = self.tables(path)[0]
        here = [i for i in local.get(full, ()) if nodes[i].kind in _TYPE_KINDS]
        if here:
            found = here if types_only else self.class_members(here, name)
            return (found, "scope") if found else ([], "unresolved")
        head, _, rest = full.partition(".")
        names = [b.module if not b.name else f"{b.module}.{b.name}" for b in self.file_bindings(path).get(head, ())]
        names += [f"{n.owner}.{n.name}" if n.owner else n.name
                  for n in (nodes[i] for i in local.get(head, ())) if n.kind in _TYPE_KINDS]
        modules: list[int] = []
        for prefix in names:  # an alias stands for its module: the name it shadows is not looked up
            modules = self.modules_named(f"{prefix}.{rest}" if rest else prefix, lang)
            if modules:
                break
        if not names:
            modules = self.modules_named(full, lang)
        if not modules:
            return [], "external"
        found = modules if types_only else self.class_members(modules, name)
        if not found:
            return [], "unresolved"
        if len(modules) == 1:
            return found, "import"
        return (found, "ambiguous") if len(found) <= MAX_AMBIGUOUS else ([], "too_ambiguous")

    def enclosing_class(self, symbol_id: int) -> int:
        """The nearest type around a symbol of a file whose tables are filed (which files its parents)."""
        node_id = symbol_id
        for _ in range(16):
            if node_id < 0:
                return -1
            if self.nodes[node_id].kind in _TYPE_KINDS:
                return node_id
            node_id = self.parent.get(node_id, -1)
        return -1

    # ---------------------------------------------------------------- one use

    def resolve(self, path: str, source: int, name: str, receiver: str, types_only: bool = False,
                ) -> tuple[list[int], str]:
        """(targets, how) for one use of `name` (on `receiver`) by symbol index `source` of `path`."""
        self.reads.add(path)
        local = self.local.get(path)
        if local is None:
            local = self.tables(path)[0]
        ids = self.symbol_ids[path]
        lang = self.extracts[path].lang
        language = traits(lang)
        source_id = ids[source] if 0 <= source < len(ids) else -1
        keep = _is_type if types_only else _any
        if receiver == "super" and source_id >= 0:
            cls = self.enclosing_class(source_id)
            if cls >= 0:
                found = self.class_members(self.bases_of(cls), name)
                if found:
                    return found, "scope"
            return self._by_name(path, name, lang, methods_only=True)
        if receiver in _SELF_NAMES or (not receiver and language.implicit_receiver and not types_only):
            cls = self.enclosing_class(source_id) if source_id >= 0 else -1
            if cls >= 0:
                found = self.class_members([cls], name)
                if found:
                    return found, "scope"
            if receiver:
                return self._by_name(path, name, lang, methods_only=True)
        if not receiver:
            return self._resolve_bare(path, name, lang, language, local, keep, types_only)
        return self._resolve_on_receiver(path, name, receiver, lang, language, local, keep, types_only)

    def _resolve_bare(self, path: str, name: str, lang: str, language: Traits, local: dict,
                      keep: Callable[[Node], bool], types_only: bool) -> tuple[list[int], str]:
        """`resolve` of a name used bare (no receiver): in scope, imported, included, or by name."""
        nodes = self.nodes
        if name in language.runtime_names and name not in local:
            if name not in self.file_bindings(path):
                return [], "external"  # `super()`, `len()`: not the repository's `super` method
        here = [i for i in local.get(name, ()) if keep(nodes[i]) and nodes[i].kind != "method"]
        if here:
            return here, "scope"
        bindings = self.file_bindings(path)
        if name in bindings:
            found, external = self._through_bindings(path, bindings[name], "", keep)
            if found:
                return found, "import"
            if external:
                return [], "external"
        for b in bindings.get("*", ()):
            files = self.module_files(b.module, path, lang)
            if files:
                found = [t for t in self.lookup(files, name) if keep(nodes[t])]
                if found:
                    return found, "import"
        if language.imports != "parsed":
            found = self._included(path, name, keep)
            if found:
                return found, "import"
        return self._by_name(path, name, lang, types_only=types_only)

    def _through_bindings(self, path: str, bindings: Sequence[Binding], member: str,
                          keep: Callable[[Node], bool]) -> tuple[list[int], bool]:
        """The nodes `bindings` (of one local name) lead to, `member` of each when given, those `keep` admits; and
        whether every binding leads outside the repository."""
        nodes = self.nodes
        found: list[int] = []
        external = True
        for b in bindings:
            targets = self.binding_targets(path, b, member)
            if targets is not None:
                external = False
                found.extend(targets if keep is _any else [t for t in targets if keep(nodes[t])])
        return found, external

    def definitions_bound(self, path: str, b: Binding) -> list[int]:
        """The definitions of the repository an import binding names, not files (none when it leads outside it)."""
        nodes = self.nodes
        return [t for t in self.binding_targets(path, b, "") or () if nodes[t].kind != "file"][:MAX_NAME_TARGETS]

    def _resolve_on_receiver(self, path: str, name: str, receiver: str, lang: str, language: Traits, local: dict,
                             keep: Callable[[Node], bool], types_only: bool) -> tuple[list[int], str]:
        """`resolve` of `receiver.name`: a module's member, an imported module's, or a local type's."""
        nodes = self.nodes
        if language.modules_by_name and receiver[:1].isupper():
            return self._module_member(path, lang, receiver, name, types_only)
        head, _, rest = receiver.partition(".")
        bindings = self.file_bindings(path)
        if head in bindings:
            through = []
            for b in bindings[head]:
                if rest and not b.name:
                    # `import a.b` binds `a`: `a.b.c.f()` is f of module a.b.c; `import x as y`: y.c.f() is x.c's
                    module = receiver if b.module.startswith(head + ".") or b.module == head else f"{b.module}.{rest}"
                    b = Binding(b.local, module, "", b.line)
                through.append(b)
            found, external = self._through_bindings(path, through, name, keep)
            if found:
                return found, "import"
            if external:
                return [], "external"
        if not rest:
            owners = [i for i in local.get(head, ()) if nodes[i].kind in _TYPE_KINDS]
            if owners:
                found = self.class_members(owners, name)
                if found:
                    return found, "scope"
        return self._by_name(path, name, lang, methods_only=not types_only, types_only=types_only)

    def _included(self, path: str, name: str, keep: Callable[[Node], bool]) -> list[int]:
        """C-family includes and namespace imports: every top-level name of each imported file.

        What each include names is the same for every name a file uses bare (a kernel file: hundreds of names,
        dozens of includes), so it is worked out once per file (`_include_plan`) and each name reads the included
        files' top-level tables straight away: `lookup` at its last level (`_top_names`) would make the same reads,
        note the same cost and give the same ids, at a few times the price."""
        plan = self._include_plan(path)
        self.reads.update(plan.reads)
        self.cost += plan.cost
        work = self.work
        work["shallow_lookups"] += plan.lookups
        work["shallow_files"] += plan.cost
        if plan.cost_max > work["cost_max"]:
            work["cost_max"] = plan.cost_max
        nodes = self.nodes
        found: list[int] = []
        for tops in plan.tables:
            if isinstance(tops, list):  # a set of files `lookup` scans on its own (`_SCANNED_SET`)
                found.extend(t for t in self.lookup(tops, name, _MAX_REEXPORT_DEPTH) if keep(nodes[t]))
                continue
            here: list[int] = []
            for table in tops:
                named = table.get(name)
                if named:
                    here.extend(named)
            if here:
                found.extend(t for t in self._bounded(here) if keep(nodes[t]))
        return found

    def _include_plan(self, path: str) -> _IncludePlan:
        """What `_included` reads for every name of one file: kept for the file being resolved (one at a time)."""
        held = self.include_plan
        if held is not None and held[0] == path:
            return held[1]
        outer = self.reads
        self.reads = reads = {path}
        extract = self.extracts[path]
        tables: list[tuple[dict[str, list[int]], ...] | list[int]] = []
        cost = lookups = cost_max = 0
        try:
            for ref in extract.imports:
                files = self.module_files(ref.name, path, extract.lang)
                if not files:
                    continue
                if len(files) > _SCANNED_SET:
                    tables.append(files)
                    continue
                paths = [self.nodes[file_id].path for file_id in files]
                reads.update(paths)
                tables.append(tuple(self.tables(file_path)[1] for file_path in paths))
                lookups += 1
                cost += len(files)
                cost_max = max(cost_max, len(files))
        finally:
            self.reads = outer
        plan = _IncludePlan(frozenset(reads), tables, cost, lookups, cost_max)
        self.include_plan = (path, plan)
        return plan

    def _by_name(self, path: str, name: str, lang: str, methods_only: bool = False,
                 types_only: bool = False) -> tuple[list[int], str]:
        """The fallbacks: the same folder (package), a unique name, or every candidate (ambiguous)."""
        # The same for every file of a folder: memoised by folder.
        key = ("name", path.rpartition("/")[0], name, traits(lang).object_calls_are_methods, methods_only, types_only)
        self.reads.add(key)
        found = self.by_name_memo.get(key)
        if found is None:
            found = self.by_name_memo[key] = self._by_name_in_folder(*key[1:])
        return found

    def _by_name_in_folder(self, folder: str, name: str, object_calls_are_methods: bool, methods_only: bool,
                           types_only: bool) -> tuple[list[int], str]:
        candidates = self.everywhere(name)
        if types_only:
            candidates = self.everywhere(name, "type")
        elif methods_only:
            # A call on an object: methods (and JS functions, which objects carry as well).
            methods = self.everywhere(name, "method")
            if methods:
                candidates = methods
            elif object_calls_are_methods:  # (Python's) modules are bindings, known above
                return [], "unresolved"
        if not candidates:
            return [], "unresolved"
        if candidates:
            same = self.in_folder(folder, name)
            if same:
                allowed = set(candidates)
                found = [i for i in same if i in allowed]
                if found and (len(found) == 1 or not methods_only):
                    return found, "package"
                if found:  # `obj.render()` with two `render` methods beside it: which one is not known
                    return (sorted(found), "ambiguous") if len(found) <= MAX_AMBIGUOUS else ([], "too_ambiguous")
        if len(candidates) == 1:
            return list(candidates), "unique"
        if len(candidates) <= MAX_AMBIGUOUS:
            return sorted(candidates), "ambiguous"
        return [], "too_ambiguous"


def _top_level(ids: list[int], names: list[str], symbols: Sequence, placed: int) -> dict[str, list[int]]:
    """A file's top-level symbols' ids by name (`_Resolution.tables`), in id order."""
    top: dict[str, list[int]] = {}
    for node_id, name, s in zip(ids, names, symbols):
        if not 0 <= s.parent < placed:
            here = top.get(name)
            if here is None:
                top[name] = [node_id]
            else:
                here.append(node_id)
    return top


def _is_type(node: Node) -> bool:
    return node.kind in _TYPE_KINDS


def _any(node: Node) -> bool:
    return True


def _implied_bindings(extract: FileExtract) -> tuple[Binding, ...]:
    """Kotlin, Scala and C# imports as bindings: `import a.b.C` binds C; a lower-case tail, or C#'s
    `using A.B`, imports every name of a package or namespace. An alias the parser saw (`import a.b.C as D`,
    `import a.b.{C => D}`, `using D = A.B.C;`) binds D to C of a.b instead."""
    out = []
    aliased = set()
    for b in extract.bindings:
        module = b.module.replace("`", "")
        if module.endswith("." + b.name):  # the alias names the imported type itself: `a.b.C` -> C of a.b
            aliased.add(module)
            module = module[: -len(b.name) - 1]
        out.append(Binding(b.local, module, b.name, b.line))
    for ref in extract.imports:
        spec = ref.name.replace("`", "")
        if spec in aliased:
            continue  # `import a.b.C as D` does not bind C
        head, _, last = spec.rpartition(".")
        if not traits(extract.lang).namespace_imports and head and last[:1].isupper():
            out.append(Binding(last, head, last, ref.line))
        else:
            out.append(Binding("*", spec, "", ref.line))
    return tuple(out)


def resolve_edges(
    files: Sequence[SourceFile],
    nodes: list[Node],
    file_node: dict[str, int],
    symbol_ids: dict[str, list[int]],
    modules: ModuleIndex,
    memo: MemoTable | None = None,
    work: Counter | None = None,
    released: Callable[[], None] | None = None,
) -> tuple[EdgeTable, Counter, dict[str, Counter], list[FileEdges]]:
    """Every edge of the graph, each with how it was resolved, the uses left unresolved, the uses each
    route resolved, by edge kind, and each file's part of the edges. `modules`: what module specs name.
    With a build memo, a file whose resolution would read the same is not resolved again. `work`: what
    resolving cost is counted into it (see `_Resolution.work`). Edges are packed as each file is resolved,
    and what resolving read is let go of before the edges are gathered: a large graph's peak is its edges.
    `released` is called then, before they are: a caller may hand the freed memory back."""
    resolution = _Resolution(files, nodes, file_node, symbol_ids, modules)
    if work is not None:
        resolution.work = work
    earlier = _EdgeMemo(memo, files, resolution) if memo is not None else None
    done: list[tuple[str, _FilePart]] = []
    for f in files:
        if not f.extract:
            continue
        part = earlier.take(f) if earlier is not None else None
        if part is None:
            part = _with_digest(_resolve_file(f, resolution))
            if earlier is not None:
                earlier.keep(f, part)
        done.append((f.path, part))
    if earlier is not None:
        earlier.settle()  # numbers what the files resolved now read: the resolution's memos may go
    del resolution
    if released is not None:
        released()

    # Every file's structure and imports, then every file's uses: the order edges always had.
    edges = EdgeTable()
    spans: list[tuple[int, int]] = []
    for _path, part in done:
        start = len(edges)
        edges.add(part.stored, 0, part.structure)
        spans.append((start, len(edges)))
    parts: list[FileEdges] = []
    for at, ((path, part), structure) in enumerate(zip(done, spans)):
        bucket = file_node[path] >> NODE_ORDINAL_BITS
        start = len(edges)
        edges.add(part.stored, part.structure)
        parts.append(FileEdges(path, bucket, structure, (start, len(edges)), part.digest, part.buckets))
        done[at] = (path, part._replace(stored=b""))  # in the table now: not held twice as it fills
    if earlier is not None:
        earlier.edges = (edges, {p.path: p for p in parts})  # what its entries' edges are packed from, when saved
    unresolved: Counter = Counter()
    routes: dict[str, Counter] = {"calls": Counter(), "references": Counter(), "inherits": Counter()}
    for _path, part in done:
        if part.unresolved_imports:
            unresolved["imports"] += part.unresolved_imports
        for kind, how, uses in part.routes:
            routes[kind][how] += uses
    for kind, counts in routes.items():
        missed = sum(n for how, n in counts.items() if how in _NOT_RESOLVED)
        if missed:
            unresolved[kind] += missed
    return edges, unresolved, routes, parts


class _FilePart(NamedTuple):
    """One file's resolved edges, packed (what the memo keeps), and what resolving them read."""

    structure: int  # how many: contains, defines, method, then imports; deduplicated
    named: int  # how many: calls, references, inherits: one per (source, kind, target), at its first line
    routes: tuple[tuple[str, str, int], ...]  # (edge kind, how, uses)
    unresolved_imports: int
    reads: tuple  # see `_Resolution.reads`
    digest: bytes = b""
    buckets: tuple[int, ...] = ()
    stored: bytes = b""  # the structure edges then the named ones, packed (`edges.pack`)


def _imported_uses(path: str, fid: int, resolution: _Resolution, named: dict) -> None:
    """A definition a file imports by name is used there though no call or type of the file names it: a constant
    (`from attr._compat import PY_3_10_PLUS`; django's DEFAULT_DB_ALIAS), a function passed on as a value
    (`caller = _multicall`). Without these edges "what uses X" found nobody; one per name, from the file."""
    reached = {target for _, _, target in named}
    for bound in resolution.file_bindings(path).values():
        for b in bound:
            if b.name and b.local != "*":
                for target in resolution.definitions_bound(path, b):
                    if target not in reached:
                        named.setdefault((fid, "references", target), (b.line, "import"))


def _resolve_file(f: SourceFile, resolution: _Resolution) -> _FilePart:
    """One file's edges, each with how it was resolved, and every key its resolution read."""
    extract = f.extract
    assert extract is not None
    resolution.reads, resolution.cycles = set(), set()
    resolution.tables(f.path)  # its symbols' parents, for `enclosing_class`
    ids = resolution.symbol_ids[f.path]
    fid = resolution.file_node[f.path]
    owners = ids + [fid]  # owners[i] is symbol i's node; owners[-1], the file's
    classes: dict[int, int] = {}  # symbol index -> its enclosing class's id (-1: none)
    placed = len(ids)
    memos: dict[bool, dict[tuple[str, str, int], tuple[list[int], str]]] = {False: {}, True: {}}
    edges: list[tuple] = []
    # One edge per (source, kind, target), at its first line: repeats add nothing to impact.
    named: dict[tuple[int, str, int], tuple[int, str]] = {}
    routes: list[tuple[str, str, int]] = []

    for index, s in enumerate(extract.symbols):
        kind = "method" if s.kind == "method" else ("contains" if s.kind in TYPE_KINDS else "defines")
        edges.append((owners[s.parent] if -1 <= s.parent < len(ids) else fid, kind, ids[index], s.line,
                      "structure"))

    unresolved_imports = 0
    for ref in extract.imports:
        targets = resolution.module_files(ref.name, f.path, extract.lang) or []
        if not targets:
            unresolved_imports += 1
        for target in targets[:MAX_NAME_TARGETS]:
            if target != fid:
                edges.append((fid, "imports", target, ref.line, "import"))

    for kind, refs, types_only in (
        ("calls", extract.calls, False),
        ("references", extract.references, True),
        ("inherits", extract.bases, True),
    ):
        memo = memos[types_only]  # references and bases: the same type names, resolved once
        hows: list[str] = []  # how each use resolved, counted once at the end (in C)
        resolve = resolution.resolve
        implicit_this = not types_only and traits(extract.lang).implicit_receiver
        for source_index, name, line, receiver in refs:  # tuple unpacking: the fastest read of a NameRef
            if "." in name or ":" in name or ">" in name:  # a qualified name: `a.B`, `a::B`
                receiver, _, name = name.replace("::", ".").replace("->", ".").rpartition(".")
            # A use means the same from anywhere in the file, except `self.x()` and implicit-this calls,
            # which mean the same from anywhere in one class: key those by the enclosing class.
            scope = -2
            if receiver in _SELF_NAMES or (implicit_this and not receiver):
                scope = classes.get(source_index, -3)
                if scope == -3:
                    in_file = 0 <= source_index < placed
                    scope = classes[source_index] = resolution.enclosing_class(ids[source_index]) if in_file else -1
            key = (name, receiver, scope)
            found = memo.get(key)
            if found is None:
                found = memo[key] = resolve(f.path, source_index, name, receiver, types_only)
            targets, how = found
            hows.append(how)
            if not targets:
                continue
            source = owners[source_index] if -1 <= source_index < placed else fid
            for target in targets:
                if target != source:
                    named.setdefault((source, kind, target), (line, how))
        routes += ((kind, how, uses) for how, uses in Counter(hows).items())
    _imported_uses(f.path, fid, resolution, named)

    reads = tuple(resolution.reads)
    resolution.reads = set()
    # Deduplicated in first-seen order, which is deterministic (source order): a file's edges all
    # start in the file, so no two files' edges are ever equal.
    structure = list(dict.fromkeys(edges))
    structure += [(source, kind, target, line, how) for (source, kind, target), (line, how) in named.items()]
    return _FilePart(len(structure) - len(named), len(named), tuple(routes), unresolved_imports, reads,
                     stored=pack(structure))


def _with_digest(part: _FilePart) -> _FilePart:
    """The part with a digest of its edges and the node buckets they point into: equal edges, equal digests."""
    digest = hashlib.blake2b(part.stored, digest_size=16)
    digest.update(part.structure.to_bytes(8, "little"))
    buckets = {target >> NODE_ORDINAL_BITS for target in packed_ids(part.stored)[1]}
    return part._replace(digest=digest.digest(), buckets=tuple(sorted(buckets)))


class MemoTable(Protocol):
    """What the graph needs of a build memo's table (`bundle.memo.MemoTable`)."""

    before_save: list[Callable[[], None]]

    def get(self, key: object) -> object | None: ...

    def put(self, key: object, value: object) -> None: ...


GRAPH_FACTS = "\0facts"  # the memo entry saying what every memoised file's resolution read, when it was made


class _EdgeMemo:
    """Each file's edges as an earlier build resolved them, taken when nothing its resolution read has moved.

    A file's entry (by path) keeps its facts (blob, language, placed symbols), its edges with the ids
    of the build that resolved them, and the keys its resolution read (`_Resolution.reads`), numbered.
    The `GRAPH_FACTS` entry keeps every file's facts then (with its symbols' names), every key, and a
    digest of what each `module_files` or `_by_name` key read then (ids as paths and offsets from a
    file's node). A group of reads (`_ReadGroup`) is a key too, ("reads", its members' numbers), numbered
    after them. A key moved when its file changed; a group, when one of its members did; a module
    key, when a file was added or removed (modules are paths) and it reads another value now; a name
    key, when a changed file had or has a symbol of that name and it reads another value now. Ids move
    when a file before in its bucket changed: the old ids are known from the old facts, so the edges are
    renumbered without resolving.
    A new bucket count renumbers everything: nothing is taken.
    """

    def __init__(self, table: MemoTable, files: Sequence[SourceFile], resolution: _Resolution) -> None:
        self.table = table
        self.resolution = resolution
        file_node, symbol_ids = resolution.file_node, resolution.symbol_ids
        self.buckets = _bucket_count(files)
        # The paths module specs are resolved against (a few more, such as a file named `.py`: a
        # superset only makes a change seen more often).
        stems = sorted(p for p in file_node if p.endswith(STEM_EXTENSIONS))
        self.modules = _digest((stems, resolution.modules.fingerprint()))
        self.old_files: dict[str, tuple] = {}
        self.keys: list = []  # every key a kept file read, numbered (the numbers entries keep)
        self.values: list[bytes] = []  # what each key reads: a digest (b"" for a file's path)
        old_modules = b""
        # Entries name keys by number in one list of keys: a new list is a new generation.
        self.generation = os.urandom(8)
        previous = table.get(GRAPH_FACTS)
        if isinstance(previous, tuple) and len(previous) == 6 and previous[0] == self.buckets:
            _, self.generation, old_modules, self.old_files, self.keys, self.values = previous
        self.files: dict[str, tuple] = {}  # path -> (blob, lang, placed, names): this build's file facts
        changed: set[str] = set()
        for f in files:
            placed = len(symbol_ids[f.path]) if f.path in file_node else -1
            old = self.old_files.get(f.path)
            if old is not None and old[0] == f.blob and old[1] == f.lang and old[2] == placed:
                self.files[f.path] = old
                continue
            names = tuple(s.name for s in f.extract.symbols[:placed]) if f.extract and placed > 0 else ()
            self.files[f.path] = (f.blob, f.lang, placed, marshal.dumps(names))
            changed.add(f.path)
        changed.update(self.old_files.keys() - self.files.keys())
        names_moved: set[str] = set()
        for path in changed:
            for facts in (self.old_files.get(path), self.files.get(path)):
                if facts is not None:
                    names_moved.update(marshal.loads(facts[3]))
        self.number = {key: n for n, key in enumerate(self.keys)}
        self.moved = self._moved(changed, names_moved, old_modules != self.modules)
        self.changed_buckets = {file_bucket(path, self.buckets) for path in changed}
        self.renumbered: dict[int, tuple[list[int], list[str]]] = {}  # bucket -> old firsts, their files
        self.fresh: list[tuple[str, _FilePart]] = []  # files resolved in this build, to memoise
        self.settled: list[tuple[str, bytes, _FilePart]] = []  # the same, with their reads numbered (`settle`)
        self.edges: tuple[EdgeTable, dict[str, FileEdges]] | None = None  # the graph's, packed when saved
        self.group_numbers = 0  # the member numbers of the groups `settle` numbered
        table.before_save.append(self.save)

    def _moved(self, changed: set[str], names_moved: set[str], modules_moved: bool) -> set[int]:
        """The numbers of the keys that moved (see the class), their values updated to what they read now. A
        group comes after its members, so one pass in order knows whether they moved."""
        moved: set[int] = set()
        for n, key in enumerate(self.keys):
            if type(key) is str:
                if key in changed:
                    moved.add(n)
            elif key[0] == "reads":
                if moved and not moved.isdisjoint(array("I", key[1])):
                    moved.add(n)
            elif modules_moved if key[0] == "module" else key[2] in names_moved:
                value = self._read(key)
                if value != self.values[n]:
                    self.values[n] = value
                    moved.add(n)
        return moved

    def _read(self, key: tuple) -> bytes:
        """A digest of what a `module_files`, `modules_named` or `_by_name` key reads now, ids as paths and
        offsets."""
        r = self.resolution
        if key[0] == "module":
            found = r.module_memo[key] if key in r.module_memo else r.module_files_at(key)
            return _digest(None if found is None else [r.nodes[i].path for i in found])
        if key[0] == "module_named":
            reads, r.reads = r.reads, set()  # what a resolution under way reads is no concern of this key
            ids = r.modules_named(key[1], key[3])
            r.reads = reads
            return _digest([(r.nodes[i].path, i - r.file_node[r.nodes[i].path]) for i in ids])
        hit = r.by_name_memo.get(key)
        if hit is None:
            hit = r.by_name_memo[key] = r._by_name_in_folder(*key[1:])
        ids, how = hit
        paths = [r.nodes[i].path for i in ids]
        return _digest(([(p, i - r.file_node[p]) for p, i in zip(paths, ids)], how))

    def take(self, f: SourceFile) -> _FilePart | None:
        """The file's part as memoised, renumbered to this build's ids; None when it must be resolved again."""
        facts = self.files[f.path]
        entry = self.table.get(f.path)
        if not (isinstance(entry, tuple) and len(entry) == 5 and entry[0] == facts[:3]
                and entry[1] == self.generation):
            return None
        _facts, _generation, reads, stored, kept = entry
        if not (isinstance(kept, tuple) and len(kept) == 5):
            return None
        routes, unresolved_imports, digest, buckets, structure = kept
        if self.moved and not self.moved.isdisjoint(array("I", reads)):
            return None
        part = _FilePart(structure, packed_count(stored) - structure, routes, unresolved_imports, (), digest, buckets,
                         stored)
        moved = self.changed_buckets
        if moved and (file_bucket(f.path, self.buckets) in moved or not moved.isdisjoint(buckets)):
            renumbered = self._renumber(part)
            if renumbered is None:
                return None
            part = renumbered
            entry = (entry[0], entry[1], reads, part.stored,
                     (routes, unresolved_imports, part.digest, part.buckets, structure))
        self.table.put(f.path, entry)
        return part

    def _renumber(self, part: _FilePart) -> _FilePart | None:
        """The part with this build's ids: a node keeps its offset from its file's node."""
        bits = NODE_ORDINAL_BITS
        file_node = self.resolution.file_node

        def renumber(node_id: int) -> int:
            bucket = node_id >> bits
            if bucket not in self.changed_buckets:
                return node_id
            firsts, paths = self._old_layout(bucket)
            at = bisect_right(firsts, node_id) - 1
            return file_node[paths[at]] + node_id - firsts[at]  # KeyError: that file is gone

        sources, targets = packed_ids(part.stored)
        try:
            stored = with_ids(part.stored, map(renumber, sources), map(renumber, targets))
        except (KeyError, IndexError):
            return None
        return _with_digest(part._replace(stored=stored))

    def _old_layout(self, bucket: int) -> tuple[list[int], list[str]]:
        """The first node id each file of a bucket had in the build the memo is from (as `_place_nodes`)."""
        layout = self.renumbered.get(bucket)
        if layout is None:
            paths = sorted(p for p, facts in self.old_files.items()
                           if facts[2] >= 0 and file_bucket(p, self.buckets) == bucket)
            firsts: list[int] = []
            ordinal = 0
            for p in paths:
                firsts.append(bucket << NODE_ORDINAL_BITS | ordinal)
                ordinal += 1 + self.old_files[p][2]
            layout = self.renumbered[bucket] = (firsts, paths)
        return layout

    def keep(self, f: SourceFile, part: _FilePart) -> None:
        """Memoise a file just resolved (its entry is made when the table is saved: see `save`)."""
        self.fresh.append((f.path, part))

    def settle(self) -> None:
        """Number the keys and groups each file resolved in this build read, and note what each new key reads
        now (a full build reads 20,000 keys on django): what needs the resolution's tables, which may then go.
        Counts the numbers kept (files' and groups') as the resolution's work (`read_numbers`)."""
        number = self.number
        grouped: list[_ReadGroup] = []  # the groups numbered: keys of `number` (by identity) while settling
        kept = 0
        for path, part in self.fresh:
            # Python only for what is first read here: a file's reads are numbered in C
            for read in filterfalse(number.__contains__, part.reads):
                if type(read) is _ReadGroup:
                    self._number_group(read, grouped)
                else:
                    self._number_key(read)
            numbers = array("I", map(number.__getitem__, part.reads))
            kept += len(numbers)
            self.settled.append((path, numbers.tobytes(), part._replace(reads=(), stored=b"")))
        for group in grouped:
            del number[group]
        self.fresh.clear()
        self.resolution.work["read_numbers"] += kept + self.group_numbers
        self.group_numbers = 0
        self.resolution = None  # type: ignore[assignment]

    def _number_key(self, key: Any) -> int:
        """A key's number, made (with what the key reads now) when it is first read."""
        found = self.number.get(key)
        if found is None:
            found = self.number[key] = len(self.keys)
            self.keys.append(key)
            self.values.append(b"" if type(key) is str or key[0] == "reads" else self._read(key))
        return found

    def _number_group(self, group: _ReadGroup, grouped: list[_ReadGroup]) -> None:
        """Number a group as the key ("reads", its members' numbers, ascending): equal groups, one number. Its member
        groups are numbered first, depth first without recursion (groups nest as lookups do)."""
        number = self.number
        stack = [group]
        while stack:
            top = stack[-1]
            if top in number:
                stack.pop()
                continue
            inner = [m for m in top.members if type(m) is _ReadGroup and m not in number]
            if inner:
                stack += inner
                continue
            stack.pop()
            for key in filterfalse(number.__contains__, top.members):
                self._number_key(key)
            members = array("I", sorted(set(map(number.__getitem__, top.members))))
            self.group_numbers += len(members)
            number[top] = self._number_key(("reads", members.tobytes()))
            grouped.append(top)

    def save(self) -> None:
        """Each file resolved in this build, its edges packed again from the graph's (they are the bytes
        resolving it packed), and the facts of every key a kept file read: what each reads now, as it did
        when it was read. Called as the table is saved, off the build's longest path."""
        if self.fresh:
            self.settle()
        if self.edges is None:  # no graph was made of them
            self.settled.clear()
        edges, parts = self.edges or (EdgeTable(), {})
        for path, numbers, part in self.settled:
            spans = parts[path]
            stored = edges.pack((spans.structure, spans.named))
            self.table.put(path, (self.files[path][:3], self.generation, numbers, stored,
                                  (part.routes, part.unresolved_imports, part.digest, part.buckets, part.structure)))
        self.settled.clear()
        self.table.put(GRAPH_FACTS, (self.buckets, self.generation, self.modules, self.files, self.keys, self.values))


def _digest(value: Any) -> bytes:
    """A digest of plain values: marshal's version 2 keeps no references, so equal values give equal bytes."""
    return hashlib.blake2b(marshal.dumps(value, 2), digest_size=16).digest()
