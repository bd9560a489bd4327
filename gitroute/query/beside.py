"""The files the repository's layout keeps beside a document or a file for it, put first in `docs` and `code`
answers: a folder's README is about that folder's code, `examples/pacman.md` about `examples/pacman.rs`; and for a
code file no document names, the documents that name what it defines.
"""
from __future__ import annotations

import re
from collections.abc import Sequence

from gitroute.model import Answer, Row
from gitroute.query import answer, opened
from gitroute.query.evidence import DOC_SUFFIXES, document_paths, files_in, path_kind

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from gitroute.bundle.store import BundleView

MAX_FILE_NAMES = 12  # the names a file defines whose documents stand for the file's own


def docs(text: str, *, repo: str = ".", limit: int = 10, explain: bool = False,
         bundle: BundleView | None = None) -> Answer:
    """The documents that explain a symbol or a file; for a code file no document names itself, the documents
    that name what it defines (a page about `default_handler` is about `logging.py`), most names first."""
    with opened(repo, bundle) as view:
        found = answer("doc_links", text, limit=limit, explain=explain, bundle=view, direction="docs")
        path = text.strip().strip("/")
        if "/" not in path or path_kind(view, path) != "blob":
            return found
        beside = _beside(view, path, "document")
        if found.status != "no_match":
            return _beside_first(found, beside, "document", limit, explain)
        found = _beside_first(found, beside, "document", limit, explain)
        from gitroute.indexes.impact import one_symbol

        names = _names_in_file(view, path)
        best: dict[str, Row] = {}
        named: dict[str, list[str]] = {}
        for name in names:
            for row in answer("doc_links", name, limit=limit, explain=explain, bundle=view, direction="docs").rows:
                extra = dict(row.extra)
                where, _, named_as = str(extra.get("target", "")).rpartition(":")
                same = named_as.rpartition(".")[2] == name
                if where != path and not (same and (extra.get("status") == "ambiguous" or one_symbol(
                        [[0, path, name, "", 0], [0, where, name, "", 0]]))):
                    continue  # a same-named symbol of another file (not an ambiguous link, nor its C declaration)
                named.setdefault(row.path, []).append(name)
                if row.path not in best or row.score > best[row.path].score:
                    best[row.path] = row
        if not best:
            return found
        rows = sorted(best.values(), key=lambda r: (-len(named[r.path]), -r.score, r.path))
        rows = [*found.rows, *(r for r in rows if r.path not in beside)][:limit]
        shown = ", ".join(dict.fromkeys(n for r in rows for n in named.get(r.path, ())))
        return Answer("routed", view.source, tuple(rows),
                      (*(found.notes if beside else ()),
                       f"no document names '{path}' itself; these name what it defines: {shown}"))


def code(text: str, *, repo: str = ".", limit: int = 10, explain: bool = False,
         bundle: BundleView | None = None) -> Answer:
    """The files and symbols a document names (the doc_links index); first, the code the repository keeps beside
    it for it (`_beside`): a folder's README is about that folder's code, `examples/pacman.md` about
    `examples/pacman.rs`."""
    with opened(repo, bundle) as view:
        found = answer("doc_links", text, limit=limit, explain=explain, bundle=view, direction="code")
        document = (found.extra or {}).get("document")
        if not document:
            return found
        beside = _beside(view, document, "code", [r.path for r in found.rows])
        return _beside_first(found, beside, "code", limit, explain)


README_STEMS = frozenset({"readme", "index"})  # a folder's own document
MAX_BESIDE = 6  # files of a folder that its README stands for; a folder of more is about more than them


def _stem(path: str) -> str:
    return path.rpartition("/")[2].partition(".")[0].lower()


def _beside(view: BundleView, path: str, want: str, linked: Sequence[str] = ()) -> list[str]:
    """The files of `want` kind ("document" or "code") the repository's layout puts beside `path` for it, by their
    names, in a folder other than the top: the files of its folder with its stem (`examples/pacman.md` and
    `examples/pacman.rs`); for a code file, its folder's README (or index); for a folder's README, the folder's code
    files, when it has at most MAX_BESIDE and the README links none of them itself (`linked`: it says which then).
    Tests are never beside anything, nor build and CI files beside a document."""
    folder, _, base = path.rpartition("/")
    if not folder:
        return []
    documents = document_paths(view)

    def is_document(p: str) -> bool:
        return p in documents or _is_document_file(p) or _stem(p) in README_STEMS

    files = [f for f in files_in(view, folder) if f != path and not _TEST_PATH.search(f.rpartition("/")[2])
             and is_document(f) == (want == "document")]
    if want == "code":  # a build or CI file beside a README is how the folder is built, not what the README tells
        from gitroute.indexes.wiring import config_kind

        files = [f for f in files if config_kind(f) is None and _is_code_file(view, f)]
    same = [f for f in files if _stem(f) == _stem(path)]
    if want == "document":
        return same + [f for f in files if f not in same and _stem(f) in README_STEMS]
    rest = [f for f in files if f not in same]
    folder_code = _stem(path) in README_STEMS and len(rest) <= MAX_BESIDE and not set(rest) & set(linked)
    return same + (rest if folder_code else [])


_TEST_PATH = re.compile(r"(?:^|[_.-])(?:tests?|spec)(?:[_.-]|$)", re.I)


def _is_document_file(path: str) -> bool:
    return path.lower().endswith(DOC_SUFFIXES)


def _is_code_file(view: BundleView, path: str) -> bool:
    """Whether the code graph has a file node for `path` (the impact index's name table finds it)."""
    from gitroute.registry import load_index

    return any(r[3] == "file" for r in load_index("impact").definitions(view.index("impact"), path))


def _beside_first(found: Answer, beside: Sequence[str], what: str, limit: int, explain: bool) -> Answer:
    """`found` with the files beside its subject first (each once), and a note that says why."""
    if not beside:
        return found
    rows = [Row(p, None, None, "file", 0.0, (("beside", 0.0),) if explain else (), (("status", "beside"),))
            for p in beside]
    rows += [r for r in found.rows if r.path not in beside]
    note = f"first the {what} the repository keeps beside it: {', '.join(beside)}"
    return Answer("routed", found.source, tuple(rows[:limit]), (note, *found.notes), found.extra)


def _names_in_file(view: BundleView, path: str) -> list[str]:
    """The names a file defines at its top (types, functions, constants), in the file's order, at most
    MAX_FILE_NAMES (the impact index's name table finds the file's node)."""
    from gitroute.registry import load_index

    files = [r for r in load_index("impact").definitions(view.index("impact"), path) if r[3] == "file"]
    if not files:
        return []
    graph = view.graph
    out = graph.edges_out([files[0][0]])
    ids = sorted({e[1] for edges in out.values() for e in edges if e[0] in ("defines", "contains")})
    nodes = sorted(graph.nodes(ids).values(), key=lambda n: (n.line or 0, n.name))
    return list(dict.fromkeys(n.name for n in nodes if n.kind != "file"))[:MAX_FILE_NAMES]
