"""The code graph, the foundation every index shares: file and symbol nodes, and the edges between them.

Calls, imports and type references are resolved by name only (no types, no scopes), so the edges
are a lower bound of the real ones; the bundle's manifest says so.
"""
from __future__ import annotations

import posixpath
import zlib
from collections import Counter, defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gitroute.model import NODE_ORDINAL_BITS, TYPE_KINDS, DeclaredEntry, FileExtract, Node

NODES_PER_BUCKET = 64  # a bucket's nodes are one blob of node records: a query reads one per candidate
# A name defined in more places than this is too ambiguous to link by name alone.
MAX_NAME_TARGETS = 3
CALL_RESOLUTION = "by name: same file, then imported files, then unique-ish global names; a lower bound"

_STEM_EXTENSIONS = (".py", ".pyi", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".mts", ".go", ".rs",
                    ".java", ".kt", ".scala", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".rb", ".php", ".swift")
_PACKAGE_FILES = ("__init__", "index", "mod", "lib", "main")


@dataclass(frozen=True, slots=True)
class SourceFile:
    path: str
    blob: str
    lang: str | None  # None: not parsed (unknown language); still a file node
    extract: FileExtract | None


# An edge is a plain tuple, (source, kind, target, line): a big repository has hundreds of
# thousands, and tuples sort, hash and build several times faster than dataclass instances.
Edge = tuple[int, str, int, int]


@dataclass
class CodeGraph:
    nodes: list[Node]
    edges: list[Edge]  # deduplicated, in a deterministic order
    unresolved: Counter  # by edge kind: names that resolved to nothing, or to too many

    def counts(self) -> dict[str, dict[str, int]]:
        nodes = Counter(n.kind for n in self.nodes)
        edges = Counter(e[1] for e in self.edges)
        return {
            "nodes": dict(sorted(nodes.items())),
            "edges": dict(sorted(edges.items())),
            "unresolved": dict(sorted(self.unresolved.items())),
        }


def build_graph(
    files: Sequence[SourceFile],
    declared: Sequence[tuple[str, DeclaredEntry]] = (),
    on_nodes: Callable[[list[Node]], None] | None = None,
) -> CodeGraph:
    """Merge per-file extracts into one graph with stable node ids (see `_place_nodes`).

    `on_nodes` sees the final node list before edges are resolved, so that a caller can start
    work that needs only the nodes (the symbol index) in parallel.
    """
    files = sorted(files, key=lambda f: f.path)
    nodes, file_node, symbol_ids = _place_nodes(files)
    by_id = {node.id: node for node in nodes}

    modules = _module_index(file_node)
    nodes = _apply_declared_entries(nodes, file_node, symbol_ids, declared, modules)
    if on_nodes is not None:
        on_nodes(nodes)
    # name -> ids, globally and per file, for everything and for types only (references want types).
    names_all: dict[str, list[int]] = defaultdict(list)
    names_types: dict[str, list[int]] = defaultdict(list)
    local_all: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    local_types: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for node in nodes:
        if node.kind == "file":
            continue
        names_all[node.name].append(node.id)
        local_all[node.path][node.name].append(node.id)
        if node.kind in TYPE_KINDS:
            names_types[node.name].append(node.id)
            local_types[node.path][node.name].append(node.id)

    edges: list[Edge] = []
    # One by-name edge per (source, kind, target), at its first line: repeats add nothing to impact.
    named: dict[tuple[int, str, int], int] = {}
    resolved_modules: dict[tuple[str, str], list[int]] = {}
    unresolved: Counter = Counter()
    for f in files:
        if not f.extract:
            continue
        ids = symbol_ids[f.path]
        fid = file_node[f.path]
        owners = ids + [fid]  # owners[i] is symbol i's node; owners[-1], the file's

        for index, s in enumerate(f.extract.symbols):
            kind = "method" if s.kind == "method" else ("contains" if s.kind in TYPE_KINDS else "defines")
            edges.append((owners[s.parent] if -1 <= s.parent < len(ids) else fid, kind, ids[index], s.line))

        imported_paths: list[str] = []
        folder = posixpath.dirname(f.path)
        for ref in f.extract.imports:
            # Only relative specs depend on the importer's folder: cache the rest by spec alone.
            key = (ref.name, folder if ref.name.startswith(".") else "")
            targets = resolved_modules.get(key)
            if targets is None:
                targets = resolved_modules[key] = _resolve_module(ref.name, f.path, modules)
            if not targets:
                unresolved["imports"] += 1
            for target in targets:
                if target != fid:
                    edges.append((fid, "imports", target, ref.line))
                    imported_paths.append(by_id[target].path)
        imported_paths = sorted(set(imported_paths))

        for kind, refs, everywhere, local in (
            ("calls", f.extract.calls, names_all, local_all),
            ("references", f.extract.references, names_types, local_types),
        ):
            memo: dict[str, list[int]] = {}
            for source_index, name, line in refs:
                if "." in name or ":" in name or ">" in name:
                    name = _last_segment(name)
                targets = memo.get(name)
                if targets is None:
                    targets = memo[name] = _resolve_name(name, f.path, imported_paths, everywhere, local)
                if not targets:
                    unresolved[kind] += 1
                    continue
                source = owners[source_index] if -1 <= source_index < len(ids) else fid
                for target in targets:
                    if target != source:
                        named.setdefault((source, kind, target), line)

    edges.extend((source, kind, target, line) for (source, kind, target), line in named.items())
    # Deduplicated in first-seen order, which is already deterministic (files by path, then source
    # order): sorting two hundred thousand tuples would buy nothing.
    edges = list(dict.fromkeys(edges))
    return CodeGraph(nodes, edges, unresolved)


def node_buckets(total_nodes: int) -> int:
    """How many buckets files are hashed into: a power of two, about NODES_PER_BUCKET nodes each."""
    buckets = 1
    while buckets * NODES_PER_BUCKET < total_nodes:
        buckets *= 2
    return buckets


def file_bucket(path: str, buckets: int) -> int:
    return zlib.crc32(path.encode("utf-8", "surrogateescape")) % buckets


def _place_nodes(files: Sequence[SourceFile]) -> tuple[list[Node], dict[str, int], dict[str, list[int]]]:
    """Nodes with stable ids: `bucket << NODE_ORDINAL_BITS | ordinal`, files hashed into buckets by path.

    A file's nodes keep their ids when another file changes (only files after it in its own bucket
    move), so a one-file commit rewrites the few bundle blobs that file touches instead of renumbering
    every node after it. Returns the nodes in id order, path -> file node id, path -> symbol ids.
    """
    total = sum(1 + (len(f.extract.symbols) if f.extract else 0) for f in files)
    buckets = node_buckets(total)
    nodes: list[Node] = []
    file_node: dict[str, int] = {}
    symbol_ids: dict[str, list[int]] = {}  # path -> node id of each symbol, in extract order
    next_ordinal: dict[int, int] = defaultdict(int)
    capacity = 1 << NODE_ORDINAL_BITS
    for f in sorted(files, key=lambda f: (file_bucket(f.path, buckets), f.path)):
        extract = f.extract
        bucket = file_bucket(f.path, buckets)
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
        for node_id, s, owner in zip(ids, symbols, _owners(symbols)):
            nodes.append(Node(node_id, f.path, s.name, s.kind, s.line, s.end_line, f.lang or "",
                              s.signature, s.doc, s.entry, owner))
        symbol_ids[f.path] = ids
    return nodes, file_node, symbol_ids


def _owners(symbols: Sequence) -> list[str]:
    """Each symbol's chain of enclosing symbols, dotted (`Outer.Inner`), else the object the parser
    saw it assigned onto (`res` for `res.send = function send() {}`), else ""."""
    owners: list[str] = []
    for s in symbols:
        chain: list[str] = []
        parent = s.parent
        while 0 <= parent < len(symbols) and len(chain) < 8:  # bounded: a bad parent cannot loop
            chain.append(symbols[parent].name)
            parent = symbols[parent].parent
        owners.append(".".join(reversed(chain)) or s.owner)
    return owners


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
        for file_id in _resolve_module(entry.module, manifest_path, modules):
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


def _module_index(file_node: dict[str, int]) -> dict[str, list[int]]:
    """Every trailing part of a file's path without extension (`flask/sessions`, `sessions`) -> file ids.

    Package files (`__init__.py`, `index.js`, `mod.rs`) also answer for their folder.
    """
    index: dict[str, list[int]] = defaultdict(list)
    for path, file_id in file_node.items():
        stem, ext = posixpath.splitext(path)
        if ext not in _STEM_EXTENSIONS:
            continue
        keys = [stem]
        folder, base = posixpath.split(stem)
        if base in _PACKAGE_FILES and folder:
            keys.append(folder)
        for key in keys:
            parts = key.split("/")
            for start in range(len(parts)):
                index["/".join(parts[start:])].append(file_id)
    return index


def _resolve_module(spec: str, importer: str, modules: dict[str, list[int]]) -> list[int]:
    """Files an import names: relative paths against the importer, dotted and `::` names by suffix."""
    spec = spec.strip().strip("\"'<>")
    if not spec:
        return []
    folder = posixpath.dirname(importer)
    if spec.startswith("./") or spec.startswith("../"):
        key = posixpath.normpath(posixpath.join(folder, spec))
    elif spec.startswith("."):  # Python: `.mod`, `..pkg.mod`
        dots = len(spec) - len(spec.lstrip("."))
        base = folder
        for _ in range(dots - 1):
            base = posixpath.dirname(base)
        rest = spec[dots:].replace(".", "/")
        key = posixpath.join(base, rest) if rest else base
    else:
        key = spec.replace("::", "/")
        if "/" not in key:
            key = key.replace(".", "/")
        key = key.removeprefix("crate/").removeprefix("@/")
    key = posixpath.splitext(key)[0] if posixpath.splitext(key)[1] in _STEM_EXTENSIONS else key
    for candidate in (key, key.rsplit("/", 1)[0] if "/" in key else ""):
        # `from pkg.mod import name` may be written as `pkg.mod.name`: try the parent module too.
        hits = modules.get(candidate.strip("/"))
        if hits:
            return sorted(hits)[:MAX_NAME_TARGETS] if len(hits) <= MAX_NAME_TARGETS else []
    return []


def _last_segment(name: str) -> str:
    return name.rsplit(".", 1)[-1].rsplit("::", 1)[-1].rsplit("->", 1)[-1]


def _resolve_name(
    name: str,
    importer: str,
    imported_paths: list[str],
    everywhere: dict[str, list[int]],
    local: dict[str, dict[str, list[int]]],
) -> list[int]:
    """Symbols a by-name use may mean: the same file's, then imported files', then few enough globals."""
    candidates = everywhere.get(name)
    if not candidates:
        return []
    same_file = local[importer].get(name) if importer in local else None
    if same_file:
        return same_file
    imported = [i for path in imported_paths if path in local for i in local[path].get(name, ())]
    if imported:
        return imported[:MAX_NAME_TARGETS]
    return candidates if len(candidates) <= MAX_NAME_TARGETS else []
