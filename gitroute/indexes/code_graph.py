"""The code graph: file and symbol nodes, and structural and by-name edges between them.

Calls, imports and type references are resolved by name only (no types, no scopes), so the edges
are a lower bound of the real ones; the bundle's manifest says so.
"""
from __future__ import annotations

import posixpath
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from gitroute.model import TYPE_KINDS, DeclaredEntry, FileExtract

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


@dataclass(frozen=True, slots=True)
class GraphNode:
    id: int
    path: str
    name: str
    kind: str
    line: int
    end_line: int
    lang: str
    signature: str
    doc: str
    entry: bool


@dataclass(frozen=True, slots=True)
class Edge:
    kind: str
    source: int
    target: int
    line: int


@dataclass
class CodeGraph:
    nodes: list[GraphNode]
    edges: list[Edge]
    unresolved: Counter  # by edge kind: names that resolved to nothing, or to too many

    def counts(self) -> dict[str, dict[str, int]]:
        nodes = Counter(n.kind for n in self.nodes)
        edges = Counter(e.kind for e in self.edges)
        return {
            "nodes": dict(sorted(nodes.items())),
            "edges": dict(sorted(edges.items())),
            "unresolved": dict(sorted(self.unresolved.items())),
        }


def build_graph(files: Sequence[SourceFile], declared: Sequence[tuple[str, DeclaredEntry]] = ()) -> CodeGraph:
    """Merge per-file extracts (sorted by path) into one graph with stable node ids."""
    files = sorted(files, key=lambda f: f.path)
    nodes: list[GraphNode] = []
    file_node: dict[str, int] = {}
    symbol_ids: dict[str, list[int]] = {}  # path -> node id of each symbol, in extract order
    for f in files:
        extract = f.extract
        file_id = len(nodes)
        file_node[f.path] = file_id
        nodes.append(GraphNode(file_id, f.path, posixpath.basename(f.path), "file", 1, 1, f.lang or "",
                               "", "", bool(extract and extract.entry)))
        ids = []
        for s in extract.symbols if extract else ():
            ids.append(len(nodes))
            nodes.append(GraphNode(len(nodes), f.path, s.name, s.kind, s.line, s.end_line, f.lang or "",
                                   s.signature, s.doc, s.entry))
        symbol_ids[f.path] = ids

    nodes = _apply_declared_entries(nodes, file_node, symbol_ids, declared)
    modules = _module_index(file_node)
    by_name: dict[str, list[int]] = defaultdict(list)
    for node in nodes:
        if node.kind != "file":
            by_name[node.name].append(node.id)

    edges: list[Edge] = []
    unresolved: Counter = Counter()
    for f in files:
        if not f.extract:
            continue
        ids = symbol_ids[f.path]
        fid = file_node[f.path]

        def owner(index: int) -> int:
            return ids[index] if 0 <= index < len(ids) else fid

        for index, s in enumerate(f.extract.symbols):
            kind = "method" if s.kind == "method" else ("contains" if s.kind in TYPE_KINDS else "defines")
            edges.append(Edge(kind, owner(s.parent), ids[index], s.line))

        imported: set[int] = set()
        for ref in f.extract.imports:
            targets = _resolve_module(ref.name, f.path, modules)
            if not targets:
                unresolved["imports"] += 1
            for target in targets:
                if target != fid:
                    edges.append(Edge("imports", fid, target, ref.line))
                    imported.add(target)
        imported_paths = {nodes[t].path for t in imported}

        for kind, refs, wanted in (("calls", f.extract.calls, None), ("references", f.extract.references, TYPE_KINDS)):
            for ref in refs:
                targets = _resolve_name(ref.name, f.path, imported_paths, by_name, nodes, wanted)
                if not targets:
                    unresolved[kind] += 1
                source = owner(ref.source)
                for target in targets:
                    if target != source:
                        edges.append(Edge(kind, source, target, ref.line))

    edges = sorted(set(edges), key=lambda e: (e.source, e.kind, e.target, e.line))
    return CodeGraph(nodes, edges, unresolved)


def _apply_declared_entries(
    nodes: list[GraphNode],
    file_node: dict[str, int],
    symbol_ids: dict[str, list[int]],
    declared: Sequence[tuple[str, DeclaredEntry]],
) -> list[GraphNode]:
    """Tag what manifests declare (console scripts, package.json bin) as entry points."""
    if not declared:
        return nodes
    modules = _module_index(file_node)
    entries: set[int] = set()
    for manifest_path, entry in declared:
        if entry.path is not None and entry.path in file_node:
            entries.add(file_node[entry.path])
        if entry.module is None:
            continue
        for file_id in _resolve_module(entry.module, manifest_path, modules):
            path = nodes[file_id].path
            if entry.function is None:
                entries.add(file_id)
                continue
            head = entry.function.split(".")[-1]
            entries.update(i for i in symbol_ids[path] if nodes[i].name == head)
    return [
        GraphNode(n.id, n.path, n.name, n.kind, n.line, n.end_line, n.lang, n.signature, n.doc, True)
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


def _resolve_name(
    name: str,
    importer: str,
    imported_paths: set[str],
    by_name: dict[str, list[int]],
    nodes: list[GraphNode],
    wanted: tuple[str, ...] | None,
) -> list[int]:
    """Symbols a by-name use may mean: the same file's, then imported files', then few enough globals."""
    name = name.rsplit(".", 1)[-1].rsplit("::", 1)[-1].rsplit("->", 1)[-1]
    candidates = [i for i in by_name.get(name, ()) if wanted is None or nodes[i].kind in wanted]
    if not candidates:
        return []
    local = [i for i in candidates if nodes[i].path == importer]
    if local:
        return local
    imported = [i for i in candidates if nodes[i].path in imported_paths]
    if imported:
        return imported[:MAX_NAME_TARGETS]
    return candidates if len(candidates) <= MAX_NAME_TARGETS else []
