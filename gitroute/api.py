"""One typed function per command; returns records (model.py) and never prints.

Imports of the builder's dependencies (pygit2, tree-sitter) stay inside the functions that need
them: a query is a process start, and those imports cost more than the answer.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from gitroute.errors import GitrouteError
from gitroute.model import Answer, Row

# typing.TYPE_CHECKING without importing typing, which a cold query would pay for; type
# checkers treat any name TYPE_CHECKING as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from gitroute.ask import Classification
    from gitroute.bench import BenchReport
    from gitroute.build import BuildReport
    from gitroute.bundle.store import BundleView
    from gitroute.committed import CommittedResult, Rendering
    from gitroute.config import Config
    from gitroute.hooks import PointerSync
    from gitroute.indexes.embedding import LoadedVectors
    from gitroute.indexes.meaning import Evidence
    from gitroute.status import StatusReport


def answer(index: str, question: str, *, repo: str = ".", limit: int = 10, explain: bool = False,
           bundle: BundleView | None = None, **options: object) -> Answer:
    """Ask one index of the bundle: the generic path every index's command takes.

    `bundle`: an open view to answer from (the MCP server's warm one); by default one is opened and closed.
    """
    from gitroute.registry import load_index

    module = load_index(index)
    with _opened(repo, bundle) as view:
        return module.answer(view.index(module.NAME), question, limit=limit, explain=explain, **options)


class _opened:
    """The given open bundle view (left open), or a fresh one closed on exit."""

    def __init__(self, repo: str, bundle: BundleView | None) -> None:
        self.repo, self.given, self.view = repo, bundle, bundle

    def __enter__(self) -> BundleView:
        if self.view is None:
            from gitroute.bundle.store import BundleView

            self.view = BundleView(self.repo)
        return self.view

    def __exit__(self, *exc: object) -> None:
        if self.given is None and self.view is not None:
            self.view.close()


def warm(view: BundleView, repo: str | None = None) -> None:
    """Decode ahead what answers read, for a server that keeps `view` pinned: each index that can (its `warm`),
    and with `repo` the contextual model, loaded once (when the bundle has one)."""
    from gitroute.bundle.layout import INDEX_META
    from gitroute.registry import INDEXES, load_index

    for name in INDEXES:
        module = load_index(name)
        if hasattr(module, "warm") and view.read([f"{name}/{INDEX_META}"]):  # a bundle may lack an index
            module.warm(view.index(name))
    if repo is not None:
        _contextual_model(view, repo)


# Kinds that only a phrase of the question chose ("rather than", "copied", "who calls"): when they find nothing,
# the question is asked of the meaning index too.
PHRASE_ONLY_KINDS = frozenset(("decision", "wiring", "impact", "code"))


def ask(text: str, *, repo: str = ".", limit: int = 10, explain: bool = False,
        bundle: BundleView | None = None) -> tuple[Answer, Classification]:
    """Classify a question and answer it from the index (or indexes) its kind needs; rows carry their `type`."""
    from gitroute.ask import KIND_NEEDS, KIND_OPTIONS, Route, classify, command_named, merge_answers
    from gitroute.registry import INDEXES

    with _opened(repo, bundle) as view:
        available = [c.name for c in _commands(INDEXES)]
        classification = classify(text, _evidence(view), available)
        answers: list[tuple[Route, Answer]] = []

        def asked(route: Route) -> Answer:
            command = command_named(route.command)
            assert command is not None  # classify only routes to available commands
            # Signals always: the merge reads them to tell the very name asked from a guess.
            options = KIND_OPTIONS.get(route.kind, {}) if _has_indexes(KIND_NEEDS.get(route.kind, ())) else {}
            options = {**options, **(route.options or {})}
            return ask_command(command.name, route.text, repo=repo, limit=limit, explain=True, bundle=view, **options)

        for route in classification.routes:
            answers.append((route, asked(route)))
        merged = merge_answers(answers, limit, view.source, keep_signals=explain)
        if (merged.status == "no_match" and classification.routes and "query" in available
                and not classification.unknown
                and all(r.kind in PHRASE_ONLY_KINDS or r.text == " ".join(text.split()) and r.kind != "meaning"
                        for r in classification.routes)):
            # A phrase chose why, wiring, impact or code, or a kind it found nothing to ask about (the whole question
            # asked), which had nothing: the question's words still may place something, under the meaning index's
            # own no_match rule.
            kinds = "/".join(dict.fromkeys(r.kind for r in classification.routes))
            route = Route("meaning", "query", text, f"{kinds} found nothing: the question's words, in plain words")
            answers.append((route, asked(route)))
            classification = classification._replace(routes=(*classification.routes, route))
            merged = merge_answers(answers, limit, view.source, keep_signals=explain)
        if not classification.routes:
            note = (f"the repository defines no {', '.join(repr(n) for n in classification.undefined)}"
                    if classification.undefined else "no index of this bundle answers this kind of question")
            merged = Answer("no_match", view.source, (), (note,))
        elif merged.status == "no_match" and classification.unknown:
            note = f"the repository defines no {', '.join(repr(n) for n in classification.unknown)}"
            merged = merged._replace(notes=(note, *merged.notes))
        return merged, classification


def _evidence(view: BundleView):  # -> ask.Evidence
    """The facts `ask` looks up about a question's words, from `view`, each looked up once."""
    from functools import lru_cache

    from gitroute.ask import Evidence

    documents = lru_cache(maxsize=None)(lambda: _document_paths(view))
    return Evidence(path_kind=lambda token: _path_kind(view, token),
                    is_symbol=lambda name: _is_symbol(view, name),
                    document_named=lambda words: _document_named(view, words),
                    document_titled=lambda words: _document_titled(view, words),
                    symbol_named=lambda words: _symbol_named(view, words),
                    definitions=lru_cache(maxsize=None)(lambda name: _definitions(view, name)),
                    is_document=lambda path: path in documents() or path.lower().endswith(DOC_SUFFIXES),
                    files_in=lambda folder: _files_in(view, folder),
                    is_word=lambda name: _is_word(view, name),
                    design_heading=lambda words: _design_heading(view, words))


def _design_heading(view: BundleView, words: str) -> str | None:
    """The heading of a section of a design record or design document (not an ordinary page's) among the decision
    index's first rows for `words` whose words, numbers aside, are the words asked (`2.2.5 Immutable indexes`)."""
    from gitroute.indexes.decisions import PAGE_FORMAT, doc_tokens

    if not view.read(["decisions/meta.json"]):
        return None
    asked = {t for t in doc_tokens(words) if not t.isdigit()}
    found = answer("decisions", words, limit=3, bundle=view)
    for row in found.rows if asked else ():
        if row.name and dict(row.extra).get("record_format") != PAGE_FORMAT \
                and {t for t in doc_tokens(row.name) if not t.isdigit()} == asked:
            return row.name
    return None


def _is_word(view: BundleView, name: str) -> bool:
    """Whether a name, its parts joined as one lowercase word (`PostgreSQL` -> postgresql), is a word of the
    symbol index (a name's, a doc's or a folder's)."""
    from gitroute.text import normalize_name

    word = normalize_name(name)
    return bool(word) and bool(_ask_symbols(view, word, limit=1, explain=False).rows)


def _files_in(view: BundleView, folder: str) -> list[str]:
    """The paths of the files right inside a folder of the bundle's source commit (its tree, read raw)."""
    found = view.reader.read([f"{view.source.commit}:{folder}"])[0] if folder and "\n" not in folder else None
    if not found or found[1] != "tree":
        return []
    oid_bytes = len(found[0]) // 2  # 20 for SHA-1, 32 for SHA-256
    data, files, at = found[2], [], 0
    while at < len(data):
        space = data.find(b" ", at)
        nul = data.find(b"\0", space)
        if space < 0 or nul < 0:
            break
        if data[at:space] in (b"100644", b"100755"):
            files.append(f"{folder}/{data[space + 1:nul].decode('utf-8', 'surrogateescape')}")
        at = nul + 1 + oid_bytes
    return files


def ask_command(name: str, text: str, *, repo: str = ".", limit: int = 10, explain: bool = False,
                bundle: BundleView | None = None, **options: object) -> Answer:
    """Answer through one command of the `ask` table (query, docs, code, impact, why, wiring) by name."""
    from gitroute.ask import command_named

    command = command_named(name)
    if command is None:
        raise GitrouteError(f"no command named '{name}'")
    if command.name == "docs":
        return docs(text, repo=repo, limit=limit, explain=explain, bundle=bundle)
    if command.name == "code":
        return code(text, repo=repo, limit=limit, explain=explain, bundle=bundle)
    if command.name == "query":
        if options.get("meaning") or options.get("candidate"):  # as `git route query --meaning` answers
            with _opened(repo, bundle) as view:
                return _answer_meaning(view, repo, text, limit, explain, options.get("candidate"))  # type: ignore[arg-type]
        return query(text, repo=repo, limit=limit, explain=explain, bundle=bundle, **options)  # type: ignore[arg-type]
    return answer(command.index, text, repo=repo, limit=limit, explain=explain, bundle=bundle,
                  **{**command.options, **options})


MAX_FILE_NAMES = 12  # the names a file defines whose documents stand for the file's own


def docs(text: str, *, repo: str = ".", limit: int = 10, explain: bool = False,
         bundle: BundleView | None = None) -> Answer:
    """The documents that explain a symbol or a file; for a code file no document names itself, the documents
    that name what it defines (a page about `default_handler` is about `logging.py`), most names first."""
    with _opened(repo, bundle) as view:
        found = answer("doc_links", text, limit=limit, explain=explain, bundle=view, direction="docs")
        path = text.strip().strip("/")
        if "/" not in path or _path_kind(view, path) != "blob":
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
    with _opened(repo, bundle) as view:
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
    Tests are never beside anything."""
    folder, _, base = path.rpartition("/")
    if not folder:
        return []
    documents = _document_paths(view)

    def is_document(p: str) -> bool:
        return p in documents or _is_document_file(p) or _stem(p) in README_STEMS

    files = [f for f in _files_in(view, folder) if f != path and not _TEST_PATH.search(f.rpartition("/")[2])
             and is_document(f) == (want == "document")]
    if want == "code":
        files = [f for f in files if _is_code_file(view, f)]
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
    from gitroute.registry import INDEXES, load_index

    if "impact" not in INDEXES:
        return False
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
    MAX_FILE_NAMES; none when this gitroute has no impact index (its name table finds the file's node)."""
    from gitroute.registry import INDEXES, load_index

    if "impact" not in INDEXES:
        return []
    files = [r for r in load_index("impact").definitions(view.index("impact"), path) if r[3] == "file"]
    if not files:
        return []
    graph = view.graph
    out = graph.edges_out([files[0][0]])
    ids = sorted({e[1] for edges in out.values() for e in edges if e[0] in ("defines", "contains")})
    nodes = sorted(graph.nodes(ids).values(), key=lambda n: (n.line or 0, n.name))
    return list(dict.fromkeys(n.name for n in nodes if n.kind != "file"))[:MAX_FILE_NAMES]


def _has_indexes(names: Sequence[str]) -> bool:
    from gitroute.registry import INDEXES

    return all(name in INDEXES for name in names)


def _commands(indexes: Sequence[str]) -> list:
    from gitroute.ask import available_commands

    return available_commands(indexes)


def _path_kind(view: BundleView, token: str) -> str | None:
    """"blob" or "tree" when `token` is a path of the bundle's source commit (one cat-file round trip)."""
    if not token or "\n" in token or token.startswith("-") or ".." in token.split("/"):
        return None
    found = view.reader.read([f"{view.source.commit}:{token}"])[0]
    return found[1] if found and found[1] in ("blob", "tree") else None


DOC_SUFFIXES = (".md", ".markdown", ".rst", ".adoc", ".asciidoc")  # documents whatever the docs index holds


def _document_paths(view: BundleView) -> frozenset[str]:
    """The paths of the documents the doc↔code index read (none when this gitroute or bundle lacks it)."""
    from gitroute.registry import INDEXES

    if "doc_links" not in INDEXES:
        return frozenset()
    index = view.index("doc_links")
    found = index.memo.get("document_paths")  # a warm server's view keeps it for the pinned bundle
    if found is None:
        docs = index.read_json("docs.json")
        found = index.memo["document_paths"] = frozenset(
            entry[0] for entry in docs if isinstance(entry, list) and entry and isinstance(entry[0], str)
        ) if isinstance(docs, list) else frozenset()
    return found


def _document_titled(view: BundleView, text: str) -> str | None:
    """The document whose title is `text` (case, punctuation and spacing aside), when exactly one is."""
    from gitroute.registry import INDEXES

    if "doc_links" not in INDEXES:
        return None
    index = view.index("doc_links")
    titles = index.memo.get("document_titles")  # a warm server's view keeps it for the pinned bundle
    if titles is None:
        docs = index.read_json("docs.json")
        titles = index.memo["document_titles"] = {}
        for entry in docs if isinstance(docs, list) else ():
            if isinstance(entry, list) and len(entry) > 1 and isinstance(entry[1], str):
                titles.setdefault(_title_key(entry[1]), []).append(entry[0])
    found = titles.get(_title_key(text), [])
    return found[0] if len(found) == 1 else None


def _title_key(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.casefold()))


def _document_named(view: BundleView, text: str) -> str | None:
    """The document whose path, path ending, base name or stem `text` is (case folded), when the bundle has
    the doc↔code index; the shortest such path."""
    wanted = text.strip().strip("/").lower()
    if not wanted or len(wanted.split()) > 1:
        return None
    found = []
    for path in _document_paths(view):
        lower = path.lower()
        base = lower.rpartition("/")[2]
        if wanted in (lower, base, base.rpartition(".")[0] or base) or lower.endswith("/" + wanted):
            found.append(path)
    return min(found, key=lambda p: (len(p), p)) if found else None


def _definitions(view: BundleView, name: str) -> tuple[tuple[str, str], ...] | None:
    """(path, name) of each symbol `name` names exactly (case and separators aside), by the symbol index: a
    qualified name (`Owner.name`, `pkg::mod::name`, `module.name`) by its last part, kept to the rows whose
    owner or path holds one of its qualifiers when any does. () when the repository defines no such name."""
    from gitroute.text import name_parts, split_identifier

    parts = name_parts(name)
    if not parts:
        return None
    found = _ask_symbols(view, parts[-1], limit=20, explain=True)
    exact = [r for r in found.rows if any(signal == "exact_name" for signal, _ in r.signals)]
    qualifiers = {q.lower() for q in parts[:-1]}
    if qualifiers:
        def holds(row) -> bool:
            scope = {p.lower() for p in row.path.rsplit(".", 1)[0].split("/")}
            scope |= {p.lower() for p in (row.name or "").split(".")[:-1]}
            return bool(scope & qualifiers) or bool(
                {"".join(split_identifier(q)) for q in qualifiers} & {"".join(split_identifier(s)) for s in scope})
        exact = [r for r in exact if holds(r)] or exact
    return tuple((r.path, r.name or "") for r in exact)


def _ask_symbols(view: BundleView, text: str, *, limit: int, explain: bool) -> Answer:
    from gitroute.registry import load_index

    return load_index("symbols").answer(view.index("symbols"), text, limit=limit, explain=explain)


def _is_symbol(view: BundleView, name: str) -> bool:
    """Whether the symbol index's best row for `name` is a symbol of exactly that name."""
    return _symbol_named(view, name) is not None


def _symbol_named(view: BundleView, words: str) -> str | None:
    """The name of the symbol index's best row for `words` when it is exactly those words, case and
    separators aside ('session interface' and 'session_interface' name SessionInterface)."""
    from gitroute.text import normalize_name

    found = query(words, limit=3, bundle=view)
    for row in found.rows:  # a file of the same name (`cart.py` for "cart") may come first
        name = (row.name or "").rpartition(".")[2]
        if row.kind != "file" and normalize_name(name) == normalize_name(words):
            return name
    return None


def query(
    text: str,
    *,
    repo: str = ".",
    limit: int = 10,
    kinds: Sequence[str] = (),
    langs: Sequence[str] = (),
    path_glob: str | None = None,
    explain: bool = False,
    meaning: bool = False,
    bundle: BundleView | None = None,
) -> Answer:
    """Rank the bundle's files and symbols against `text`: names through the symbol tiers, prose through BM25
    over node text (the meaning index), mixed by how much of the question the best name holds
    (`rank.prose_share`); `meaning` asks the meaning index alone. `bundle`: an open view to answer from
    (the MCP server's warm one). The rule and its measurements: docs/decisions/0011."""
    from gitroute.rank import STRONG_NAME_SIGNALS, asks_entry_in_words, blend_rows, name_cover, prose_share
    from gitroute.registry import load_index

    filters = {"kinds": tuple(kinds), "langs": tuple(langs), "path_glob": path_glob}
    with _opened(repo, bundle) as view:
        if meaning:
            return _contextual_meaning(view, repo, text, limit, explain)
        symbols = load_index("symbols")
        if len(text.split()) <= 1 and not (kinds or langs or path_glob):
            return _query_name(view, text.strip(), limit, explain)
        if len(text.split()) <= 1 or kinds or langs or path_glob:
            return symbols.answer(view.index("symbols"), text, limit=limit, explain=explain, **filters)
        # Signals always: the blend reads them to tell a name match from a shared word; a few more rows
        # than asked, since the meaning index may lift a file the symbol tiers rank lower.
        by_name = symbols.answer(view.index("symbols"), text, limit=max(limit, 20), explain=True, **filters)
        symbol_rows = list(by_name.rows)
        meaning_rows, meaning_notes, evidence = _ask_meaning(view, text, max(limit, 20), explain)
        if evidence is None:  # no word for BM25 (or no meaning index): the symbol tiers answer alone
            return by_name._replace(rows=tuple(_strip(symbol_rows[:limit], explain)))
        best = symbol_rows[0] if symbol_rows else None
        top = dict(best.signals) if best else {}
        # A name the question spells out (an exact name, or a phrase of a name) outside tests and docs stands
        # even when the sentence's other words are scattered; so does the entry point asked for in so many
        # words, when every other word of the question occurs somewhere in the repository.
        named = any(name in top for name in STRONG_NAME_SIGNALS) and "secondary_path" not in top
        entry = asks_entry_in_words(text) and "entry_point" in top and not evidence.missing
        held, asked = name_cover(text, best)
        share = 0.0 if entry else prose_share(text, held / asked if asked else 0.0)
        if share > 0.0 and not named:  # plain words: the contextual model reranks them, when the bundle has it
            meaning_rows, meaning_notes = _contextual_rows(view, repo, text, meaning_rows, meaning_notes, explain)
        if not meaning_rows and not (named or entry):
            # The symbol tiers route on any shared word; a sentence whose words the repository does not
            # hold together is no_match, and the meaning index says why.
            return Answer("no_match", view.source, (), tuple(meaning_notes))
        if share == 0.0:  # a name in words, or the entry point: the symbol tiers answer
            why = "the question asks for the entry point" if entry else "a name written in words"
            notes = (*by_name.notes, f"the symbol tiers answer: {why}") if explain else by_name.notes
            return by_name._replace(rows=tuple(_strip(symbol_rows[:limit], explain)), notes=notes)
        rows = blend_rows(_strip(symbol_rows, explain), meaning_rows, share, limit)
        notes = [f"blended: the best name ({best.name if best else '-'}) holds {held} of the question's {asked} "
                 f"words, so meaning (BM25) has share {share:.2f} and the symbol tiers {1 - share:.2f}",
                 *meaning_notes]
        return Answer("routed" if rows else "no_match", view.source, tuple(rows), tuple(notes if explain else ()))


def _query_name(view: BundleView, text: str, limit: int, explain: bool) -> Answer:
    """One word asked of the symbol tiers; a name spelled as code (`url_for`, `Foo.bar`, `ns::f`) that the repository
    does not define is no_match, as `docs` and `impact` answer it: rows sharing a word of it would be guesses.
    The rule lives here, under `query`, `docs` and `impact` alike, so that `ask` and each command agree."""
    from gitroute.text import is_code_name, is_marked_code

    found = _ask_symbols(view, text, limit=limit, explain=True)
    if not is_code_name(text) or not found.rows or any(
            signal == "exact_name" for row in found.rows for signal, _ in row.signals):
        return found._replace(rows=tuple(_strip(list(found.rows), explain)))
    if _definitions(view, text) or not is_marked_code(text) and _is_word(view, text):
        # defined (by its last part, or below the rows asked: a test's class under names of the code); or a
        # camel-cased word the repository uses (`PostgreSQL`), not a name it lacks
        return found._replace(rows=tuple(_strip(list(found.rows), explain)))
    nearest = ", ".join(dict.fromkeys(r.name or r.path for r in found.rows[:3]))
    return Answer("no_match", view.source, (), (f"the repository defines no '{text}' (nearest names: {nearest})",))


def _strip(rows: list, explain: bool) -> list:
    return rows if explain else [r._replace(signals=()) for r in rows]


def _ask_meaning(view, text: str, limit: int, explain: bool) -> tuple[list, list[str], Evidence | None]:
    """The meaning index's rows, notes and evidence; a bundle built before it has none (the notes say so)."""
    from gitroute.bundle.layout import INDEX_META
    from gitroute.indexes.meaning import NAME, query_meaning

    index = view.index(NAME)
    if not index.read([INDEX_META]):
        return [], ["the bundle has no meaning index: run 'git route build'"], None
    rows, notes, evidence = query_meaning(text, index.section, index.read, limit=limit, explain=explain,
                                          corrupt=index.corrupt, records=index.graph.records, memo=index.memo)
    return rows, notes, evidence


def lint(rev: str = "HEAD", *, repo: str = ".") -> list[tuple[str, int, str]]:
    """(path, line, text) of each decision-record line at REV that records a decision without the marker."""
    import functools

    from gitroute.config import CONFIG_PATH, parse_config
    from gitroute.git import repository as git
    from gitroute.indexes.decisions import lint_snapshot

    repository = git.open_repository(repo)
    commit = git.resolve_commit(repository, rev)
    config = parse_config(git.read_commit_file(repository, commit, CONFIG_PATH))
    snap = git.snapshot_at(repository, commit, max_file_bytes=config.max_file_bytes, excluded=config.is_excluded)
    return lint_snapshot(((e.path, functools.partial(snap.read, e)) for e in snap.entries), config)


def build(
    rev: str = "HEAD",
    *,
    repo: str = ".",
    jobs: int | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    full: bool = False,
    meaning_model: str | None = None,
    meaning_dtype: str = "float16",
    meaning_answer: str = "bm25",
    fetch: bool = True,
    keep: list | None = None,
    max_file_bytes: int | None = None,
) -> BuildReport:
    """Build the bundle for REV and move the bundle ref to it in one compare-and-swap.

    `full` extracts every file again; otherwise results are reused from this repository's own
    earlier bundles (never from a fetched one). In a partial clone, the blobs the commit needs are
    fetched from the promisor remote first, unless `fetch` is False; blobs still missing are skipped
    as `missing`. `meaning_model`: a local static-model folder whose vectors go to
    refs/marola/routing-bundle-large, with `meaning_answer` the candidate for --meaning. `keep`: see
    `build.run_build` (a caller about to exit). `max_file_bytes`: the command line's size limit per file, which
    may go past the safety ceiling that a committed `.gitroute.toml` is held to.
    """
    from gitroute.build import run_build

    options = {"meaning_model": meaning_model, "meaning_dtype": meaning_dtype,
               "meaning_answer": meaning_answer} if meaning_model else None
    return run_build(rev, repo_path=repo, jobs=jobs, progress=progress, full=full, fetch=fetch, options=options,
                     keep=keep, max_file_bytes=max_file_bytes)


def status(*, repo: str = ".") -> StatusReport:
    from gitroute.status import read_status

    return read_status(repo)


def bench(path: str | None = None, *, repo: str = ".", through_ask: bool = False,
          through_query: bool = False, whole_files: bool = False) -> BenchReport:
    """Ask every question of a routing-bench.yaml through the index that owns its type, and score it.

    A `sentence` question is asked of its dedicated command (its `route`) with its `argument`.
    `through_ask`: ask every question, whatever its type, through `ask` (which must find the index itself);
    a sentence as it is written.
    `through_query`: ask the questions of the types plain `git route query` answers (symbol, meaning,
    negative) through it, which decides the mix of symbol tiers and BM25 itself.
    `whole_files`: ask the sentence questions of plain BM25 over the whole text of every file of the bundle's
    commit (`bench.WholeFiles`), the baseline `ask` is held to; the other types are not asked.
    """
    from gitroute.ask import KIND_COMMAND
    from gitroute.bench import SENTENCE, Question, WholeFiles, find_default_bench, read_bench, run_bench
    from gitroute.bundle.store import BundleView
    from gitroute.git.catfile import work_tree_top
    from gitroute.registry import load_index, question_types

    bench_file = read_bench(path or find_default_bench(work_tree_top(repo), _configured_bench_file(repo)))
    with BundleView(repo) as view:
        def asker(index: str, options: dict) -> Callable[[Question], Answer]:
            module = load_index(index)

            def ask(q: Question) -> Answer:
                # A question's own filters, where it has any (symbol questions narrow by kind, language, path).
                filters = {k: v for k, v in (("kinds", q.kind), ("langs", q.lang), ("path_glob", q.path)) if v}
                return module.answer(view.index(index), q.question, limit=10, explain=False, **options, **filters)

            return ask

        def dedicated(q: Question) -> Answer:
            # The command a reader would pick by hand, given what they would type into it.
            return ask_command(KIND_COMMAND[q.route or "meaning"], q.argument or q.question, limit=10, bundle=view)

        if whole_files:
            from gitroute.git import repository as git

            baseline = WholeFiles(git.regular_files(git.open_repository(repo), view.source.commit))
            return run_bench(bench_file, {SENTENCE: lambda q: baseline.answer(q.question, source=view.source)})
        if through_ask:
            return run_bench(bench_file, {qtype: lambda q: ask(q.question, bundle=view)[0]
                                          for qtype in (*question_types(), SENTENCE)})
        if through_query:
            def plain(q: Question) -> Answer:
                return query(q.question, limit=10, kinds=q.kind or (), langs=q.lang or (), path_glob=q.path,
                             bundle=view)

            return run_bench(bench_file, {qtype: plain for qtype, (index, _) in question_types().items()
                                          if index in ("symbols", "meaning")})
        return run_bench(bench_file, {**{qtype: asker(index, options)
                                         for qtype, (index, options) in question_types().items()},
                                      SENTENCE: dedicated})


# Generated files a repository commits: name -> (the Config field holding its default path, or None
# when the command line must name the file; the function that renders it from the bundle).
# The renderers belong to their indexes; the three functions below are where each is plugged in.
def _render_doc_code(view: BundleView, config: Config) -> Rendering:
    """DOC-CODE.md: the doc_links index's file-level map (branch w1/docs), its rows counted the index's way."""
    from gitroute.committed import Rendering
    from gitroute.errors import GitrouteError

    try:
        from gitroute.indexes.doc_links import NAME, map_rows, read_links, render_doc_code_map
    except ImportError as err:  # INTEGRATION: goes away once gitroute/indexes/doc_links.py is merged
        _reraise_unless_missing(err, "gitroute.indexes.doc_links")
        raise GitrouteError("this gitroute has no doc_links index to render 'DOC-CODE.md' from",
                            hint="the doc-code map arrives with the doc_links index (issue 7)") from err
    return Rendering(render_doc_code_map(read_links(view.index(NAME))), count_rows=map_rows)


def _render_decisions(view: BundleView, config: Config) -> Rendering:
    """DECISIONS.md: `render_decisions(rows)` of the decisions index (branch w1/decisions).

    INTEGRATION: it also needs `read_rows(view) -> list[DecisionRow]` beside it, the rows read back
    from the index's blobs (records.json and rows/*.json hold every field a DecisionRow has).
    """
    from gitroute.committed import Rendering
    from gitroute.errors import GitrouteError

    try:
        from gitroute.indexes.decisions import NAME, read_rows, render_decisions
    except ImportError as err:
        _reraise_unless_missing(err, "gitroute.indexes.decisions")
        raise GitrouteError("this gitroute has no decisions index to render 'DECISIONS.md' from",
                            hint="the decision table arrives with the decisions index (issue 9)") from err
    return Rendering(render_decisions(read_rows(view.index(NAME))))


def _render_wiring(view: BundleView, config: Config) -> Rendering:
    """The wiring block of a document (between <!-- gitroute:wiring:begin/end --> lines): `render_wiring(...)`
    of the wiring index (branch w1/impact-wiring).

    INTEGRATION: it also needs `read_wiring(view)` beside it, the value `render_wiring` takes, read back
    from the index's blobs.
    """
    from gitroute.committed import Rendering
    from gitroute.errors import GitrouteError

    try:
        from gitroute.indexes.wiring import NAME, read_wiring, render_wiring
    except ImportError as err:
        _reraise_unless_missing(err, "gitroute.indexes.wiring")
        raise GitrouteError("this gitroute has no wiring index to render the wiring block from",
                            hint="the wiring tables arrive with the wiring index (issue 8)") from err
    return Rendering(render_wiring(read_wiring(view.index(NAME))), block="wiring")


def _reraise_unless_missing(err: ImportError, module: str) -> None:
    """An index module or name that is not there yet is expected; an import failing inside it is a bug."""
    if err.name != module:
        raise err


COMMITTED_FILES: dict[str, tuple[str | None, Callable[[BundleView, Config], Rendering]]] = {
    "doc-code": ("doc_code_map", _render_doc_code),
    "decisions": ("decisions_map", _render_decisions),
    "wiring": (None, _render_wiring),
}


def committed_file(
    name: str,
    *,
    repo: str = ".",
    path: str | None = None,
    action: str = "check",
    force: bool = False,
) -> CommittedResult:
    """Render a committed generated file from the bundle, then show it, check it or write it.

    action "show" returns the rendering; "check" compares it with the file as the bundle's commit
    holds it; "write" writes it into the work tree behind the shrink guard (`force` overrides).
    `path` is relative to the top of the work tree; None takes the configured default.
    """
    from gitroute import committed
    from gitroute.bundle.store import BundleView
    from gitroute.config import CONFIG_PATH, parse_config
    from gitroute.errors import GitrouteError, ShrinkGuardRefused
    from gitroute.git.catfile import work_tree_top

    config_field, render = COMMITTED_FILES[name]
    top = work_tree_top(repo)
    with BundleView(repo) as view:
        source = view.source
        config = parse_config(committed.read_blob(top, source.commit, CONFIG_PATH))
        if path is None:
            if config_field is None:
                raise GitrouteError(f"'{name}' needs the file to write or check")
            path = getattr(config, config_field)
        path = committed.check_path(path)
        rendering = render(view, config)
        missing = tuple(sub["path"] for sub in view.manifest.get("submodules", []) if not sub["present"])
    report: committed.CheckReport | committed.WriteReport | None = None
    if action == "check":
        report = committed.check(top, source.commit, path, rendering)
    elif action == "write":
        try:
            report = committed.write(top, source.commit, path, rendering, force=force)
        except ShrinkGuardRefused as err:
            if missing:  # the likeliest reason, and not a generator bug
                err.hint = committed.missing_submodules_hint(missing)
            raise
    return committed.CommittedResult(name, path, source, rendering, report, missing)


def hook_post_merge(*, repo: str = ".") -> str:
    """After a merge or pull: rebuild the bundle for HEAD, detached when the last build was long.

    Returns what it did: "fresh" (the bundle already answers for HEAD), "built" or "background".
    """
    from gitroute import hooks

    head = hooks.resolve(repo, "HEAD")
    if head is None or _bundle_commit(repo) == head:
        return "fresh"
    if hooks.builds_in_background(repo):
        hooks.start_background_build(repo)
        return "background"
    build("HEAD", repo=repo)
    return "built"


def hook_pointer_sync(hook_args: Sequence[str] = (), *, repo: str = ".", force: bool = False) -> PointerSync:
    """When submodule pointers moved, rebuild for HEAD and regenerate DOC-CODE.md behind the shrink guard.

    `hook_args` are the git hook's own arguments (post-checkout's three, post-merge's one); none,
    as from CI, means there is no previous commit to compare: regenerate for HEAD.
    """
    from gitroute import hooks

    previous, look = hooks.previous_head(repo, tuple(hook_args))
    head = hooks.resolve(repo, "HEAD")
    if not look or head is None:
        return hooks.PointerSync((), None)
    if previous is not None:
        moved = tuple(hooks.moved_pointers(repo, previous, head))
        if not moved:
            return hooks.PointerSync((), None)
    else:
        moved = tuple(sorted(hooks.gitlinks(repo, head)))
    if _bundle_commit(repo) != head:
        build("HEAD", repo=repo)
    result = committed_file("doc-code", repo=repo, action="write", force=force)
    return hooks.PointerSync(moved, result)


def _bundle_commit(repo: str) -> str | None:
    """The commit the bundle answers for; None when there is none or it cannot be read (a build replaces it)."""
    from gitroute.bundle.store import BundleView
    from gitroute.errors import GitrouteError

    try:
        with BundleView(repo) as view:
            return view.source.commit
    except GitrouteError:
        return None


def _configured_bench_file(repo: str) -> str:
    """`[bench] file` of the `.gitroute.toml` at the commit the bundle answers from (the config's one source)."""
    from gitroute.bundle.store import BundleView
    from gitroute.config import CONFIG_PATH, parse_config

    with BundleView(repo) as view:
        found = view.reader.read([f"{view.source.commit}:{CONFIG_PATH}"])[0]
    return parse_config(found[2] if found is not None and found[1] == "blob" else None).bench


# (repo, vectors sha256) -> the loaded model and vectors, for warm answers in one process
_LARGE: dict[tuple[str, str], LoadedVectors] = {}


def meaning(text: str, *, repo: str = ".", limit: int = 10, explain: bool = False,
            candidate: str | None = None) -> Answer:
    """A question in plain words, answered by the candidate the bundle records (or `candidate`):
    `bm25` (the meaning index), `embedding` (cosine over the large bundle's vectors) or `hybrid` (both, fused)."""
    from gitroute.bundle.store import BundleView

    with BundleView(repo) as view:
        return _answer_meaning(view, repo, text, limit, explain, candidate)


def _answer_meaning(view, repo: str, text: str, limit: int, explain: bool, candidate: str | None) -> Answer:
    import json

    from gitroute.bundle.large import EMBEDDING_META
    from gitroute.indexes import embedding
    from gitroute.rank import fuse_reciprocal

    blob = view.read([EMBEDDING_META]).get(EMBEDDING_META)
    try:
        section = json.loads(blob) if blob is not None else embedding.empty_section()
    except ValueError:
        section = embedding.empty_section()
    section = section if isinstance(section, dict) else embedding.empty_section()
    chosen = candidate or section.get("candidate", "bm25")
    if chosen not in embedding.CANDIDATES:
        chosen = "bm25"
    notes: list[str] = []
    loaded = None
    if chosen != "bm25":
        loaded, problem = _load_large(repo, section)
        if loaded is None:
            notes.append(f"{problem}: BM25 answers (run 'git route fetch --meaning')")
            chosen = "bm25"
    if chosen == "bm25":
        # BM25, reranked by the contextual model when the bundle has one (unless BM25 alone was asked for)
        found = _ask_bm25(view, text, limit, explain) if candidate else _contextual_meaning(view, repo, text, limit,
                                                                                             explain)
        return found._replace(notes=tuple(notes) + found.notes)
    found = embedding.answer(view.index(embedding.NAME), text, limit=max(limit, 20), explain=explain, loaded=loaded)
    if chosen == "embedding":
        return found._replace(rows=found.rows[:limit])
    words = _ask_bm25(view, text, max(limit, 20), explain)
    rows = fuse_reciprocal([words.rows, found.rows], limit)
    return Answer("routed" if rows else "no_match", view.source, tuple(rows), words.notes if not rows else ())


def _ask_bm25(view, text: str, limit: int, explain: bool) -> Answer:
    """BM25 over node text: the meaning index, when this gitroute has it."""
    from gitroute.errors import GitrouteError
    from gitroute.registry import INDEXES, load_index

    if "meaning" not in INDEXES:
        raise GitrouteError("this gitroute has no meaning index (BM25)",
                            hint="the BM25 candidate arrives with issue 10")
    module = load_index("meaning")
    return module.answer(view.index(module.NAME), text, limit=limit, explain=explain)


def _load_large(repo: str, section: dict) -> tuple[LoadedVectors | None, str]:
    """The large bundle's model and vectors, checked against the bundle's hashes; (None, why) when unusable."""
    from gitroute.bundle.large import check_large_blobs, read_large_blobs
    from gitroute.errors import GitrouteError
    from gitroute.git.catfile import work_tree_top
    from gitroute.indexes import embedding

    hashes = section.get("files_sha256")
    if not isinstance(hashes, dict) or not hashes:
        return None, "the bundle has no embedding vectors"
    key = (work_tree_top(repo), str(hashes.get(embedding.VECTORS)))
    if key in _LARGE:
        return _LARGE[key], ""
    blobs = read_large_blobs(repo, sorted(hashes))
    if blobs is None:
        return None, "there is no large bundle at 'refs/marola/routing-bundle-large'"
    problem = check_large_blobs(blobs, hashes)
    if problem:
        return None, f"the large bundle does not match the bundle: {problem}"
    try:
        _LARGE[key] = embedding.load_vectors(blobs, section)
    except (ValueError, KeyError) as err:
        return None, f"the large bundle is unreadable: {err}"
    except GitrouteError as err:  # a model that does not load: BM25 still answers
        return None, f"the large bundle is unreadable: {err.message}"
    return _LARGE[key], ""


def fetch(remote: str = "origin", *, repo: str = ".", meaning: bool = False) -> list:
    """Fetch the bundle (and with `meaning` the large bundle) from REMOTE, checked before the refs move."""
    from gitroute.bundle.remote import fetch_bundle

    return fetch_bundle(repo, remote, meaning)


def push(remote: str = "origin", *, repo: str = ".", meaning: bool = False) -> list:
    """Push the bundle (and with `meaning` the large bundle) to REMOTE: what CI runs after a build."""
    from gitroute.bundle.remote import push_bundle

    return push_bundle(repo, remote, meaning)


def large_status(*, repo: str = ".") -> tuple[str, str]:
    """(state, detail) of refs/marola/routing-bundle-large against the bundle: absent, unrecorded, matches, mismatch."""
    from gitroute.bundle.large import verify_large

    return verify_large(repo)


def meaning_rule(path: str | None = None, *, repo: str = ".", cold_runs: int = 3) -> list:
    """Each --meaning candidate on the bench's meaning questions: right first, bytes added to the large ref,
    cold (one process per question) and warm (one process) milliseconds; `bench.meaning_verdict` decides."""
    import json
    import os
    import statistics

    from gitroute.bench import (
        RULE_CANDIDATES,
        CandidateScore,
        Question,
        find_default_bench,
        meaning_questions,
        read_bench,
        score_candidate,
    )
    from gitroute.bundle.large import EMBEDDING_META
    from gitroute.bundle.store import BundleView
    from gitroute.errors import BenchFileError
    from gitroute.git.catfile import work_tree_top

    top = work_tree_top(repo)
    bench_file = read_bench(path or find_default_bench(top))
    questions = meaning_questions(bench_file)
    if not questions:
        raise BenchFileError(f"'{bench_file.origin}' has no meaning questions", hint="the rule scores type: meaning")
    corpus = os.path.basename(top)
    scores = []
    with BundleView(repo) as view:
        blob = view.read([EMBEDDING_META]).get(EMBEDDING_META)
        section = json.loads(blob) if blob else {}
        for candidate in RULE_CANDIDATES:
            bytes_added = 0
            if candidate != "bm25":
                loaded, problem = _load_large(repo, section if isinstance(section, dict) else {})
                if loaded is None:
                    continue  # not measurable here: the verdict says which candidates were
                bytes_added = int(section.get("large_bytes", 0))
            def ask(q: Question, chosen: str = candidate) -> Answer:
                return _answer_meaning(view, repo, q.question, 10, False, chosen)

            right, times = score_candidate(questions, ask)
            cold = [_cold_query_seconds(top, q.question, candidate) for q in questions[:cold_runs]]
            scores.append(CandidateScore(corpus, candidate, right, len(questions), bytes_added,
                                         round(statistics.median(cold) * 1000, 1) if cold else None,
                                         round(statistics.median(times) * 1000, 1) if times else None))
    return scores


def _cold_query_seconds(cwd: str, question: str, candidate: str) -> float:
    """Wall time of one `git route query --candidate C` process, start to exit (what an agent's call costs)."""
    import subprocess
    import sys
    import time

    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "gitroute", "query", "--candidate", candidate, "-q", "--json",
                    question], cwd=cwd, capture_output=True)
    return time.perf_counter() - started


def meaning_candidate(*, repo: str = ".") -> str:
    """The candidate the bundle records for --meaning (bm25 when it records none)."""
    import json

    from gitroute.bundle.large import EMBEDDING_META
    from gitroute.bundle.store import BundleView

    with BundleView(repo) as view:
        blob = view.read([EMBEDDING_META]).get(EMBEDDING_META)
    try:
        section = json.loads(blob) if blob else {}
    except ValueError:
        section = {}
    candidate = section.get("candidate") if isinstance(section, dict) else None
    return candidate if candidate in ("bm25", "embedding", "hybrid") else "bm25"


# --- the contextual model (issue 24; docs/decisions/0019): reranks plain-words answers when the large bundle
# holds it. Loaded once per process (a warm MCP server or `ask` pays the load once); a name, path, docs,
# impact or why question never reaches it.

_CONTEXTUAL: dict[tuple[str, str], object] = {}


def _contextual_model(view, repo: str) -> tuple[object | None, str]:
    """(the loaded model and vectors, "") or (None, why not: "" when the bundle has no contextual model)."""
    from gitroute.indexes import contextual

    section = view.manifest.get("indexes", {}).get(contextual.NAME)
    if not isinstance(section, dict) or not (section.get("counts") or {}).get("vectors"):
        return None, ""
    hashes = section.get("files_sha256")
    key = (repo, str(section.get("model_sha256")) + str((hashes or {}).get(contextual.VECTORS)))
    if key in _CONTEXTUAL:
        return _CONTEXTUAL[key], ""
    from importlib.util import find_spec

    if find_spec("onnxruntime") is None or find_spec("tokenizers") is None or find_spec("numpy") is None:
        from gitroute import extra_install_command

        return None, ("the bundle has a contextual model, but its runtime is not installed: "
                      + extra_install_command("model"))
    from gitroute.bundle.large import read_checked

    blobs, problem = read_checked(repo, contextual.ANSWER_BLOBS, hashes if isinstance(hashes, dict) else {})
    if blobs is None and problem == "no large bundle":
        return None, "the bundle has a contextual model, but no large bundle: run 'git route fetch --meaning'"
    if blobs is None:
        return None, f"refusing the large bundle's contextual model: {problem}"
    try:
        _CONTEXTUAL[key] = contextual.Loaded(blobs, section)
    except (ValueError, KeyError) as err:
        return None, f"refusing the large bundle's contextual model: {err}"
    except GitrouteError as err:
        return None, f"refusing the large bundle's contextual model: {err.message}"
    return _CONTEXTUAL[key], ""


def _contextual_rows(view, repo: str, text: str, rows: list, notes: list[str], explain: bool,
                     limit: int = 20) -> tuple[list, list[str]]:
    """BM25's rows reranked by the contextual model; a question BM25 refused may be routed by it."""
    from gitroute.indexes import contextual

    loaded, why = _contextual_model(view, repo)
    if loaded is None:
        return rows, [*notes, why] if why and explain else notes
    assert isinstance(loaded, contextual.Loaded)
    refused = not rows
    if refused:
        from gitroute.indexes.meaning import NAME, query_meaning

        index = view.index(NAME)
        rows, _, _ = query_meaning(text, index.section, index.read, limit=contextual.CANDIDATES, explain=explain,
                                   corrupt=index.corrupt, records=index.graph.records, gate=False, memo=index.memo)
    ranked, note = contextual.rerank(loaded, text, rows, refused=refused, limit=max(limit, 20), explain=explain)
    if refused and not ranked:
        return [], [*notes, note] if explain else notes
    return ranked, [note, *notes] if explain else notes


def _contextual_meaning(view, repo: str, text: str, limit: int, explain: bool) -> Answer:
    """`query --meaning`: the meaning index's answer, reranked (or routed) by the contextual model when it is there."""
    from gitroute.registry import load_index

    meaning = load_index("meaning")
    loaded, why = _contextual_model(view, repo)
    if loaded is None:
        found = meaning.answer(view.index(meaning.NAME), text, limit=limit, explain=explain)
        return found._replace(notes=(*found.notes, why)) if why and explain else found
    found = meaning.answer(view.index(meaning.NAME), text, limit=max(limit, 20), explain=explain)
    rows, notes = _contextual_rows(view, repo, text, list(found.rows), list(found.notes), explain, limit)
    if not rows:
        return found._replace(rows=(), notes=tuple(notes))
    return Answer("routed", view.source, tuple(rows[:limit]), tuple(notes))


def make_model(folder: str, name: str) -> dict:
    """Make the contextual model's folder from its installed package (`git route model make`); its manifest."""
    from gitroute.make_model import make

    return make(folder, name)


def export_model(folder: str, *, repo: str = ".") -> dict:
    """Write the large bundle's contextual model to `folder` (`git route model export`); its manifest."""
    from gitroute.make_model import export

    return export(folder, repo)


def contextual_status(*, repo: str = ".") -> dict | None:
    """The bundle's contextual model: name, sha256, nodes with vectors; None when it has none."""
    from gitroute.bundle.store import BundleView

    with BundleView(repo) as view:
        section = view.manifest.get("indexes", {}).get("contextual")
    if not isinstance(section, dict) or not (section.get("counts") or {}).get("vectors"):
        return None
    return {"model": section.get("model"), "sha256": section.get("model_sha256"),
            "vectors": section["counts"]["vectors"], "large_bytes": section.get("large_bytes")}
