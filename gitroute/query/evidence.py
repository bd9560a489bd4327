"""The facts `ask` looks up in the bundle about a question's words (`ask.Evidence`): whether a token is a path of
the pinned commit, a document's name or title, a symbol's name, where a name is defined, a design section's heading.
"""
from __future__ import annotations

import re

from gitroute.query import answer, ask_symbols, query

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from gitroute.bundle.store import BundleView

DOC_SUFFIXES = (".md", ".markdown", ".rst", ".adoc", ".asciidoc")  # documents whatever the docs index holds


def bundle_evidence(view: BundleView):  # -> ask.Evidence
    """The facts `ask` looks up about a question's words, from `view`, each looked up once."""
    from functools import lru_cache

    from gitroute.ask import Evidence

    documents = lru_cache(maxsize=None)(lambda: document_paths(view))
    # a name a question spells is looked up as a clause's and again as the whole question's (`ask._subject_for`), and
    # as a request's one word and then asked (`ask._asked_for`), and whether a document writes a name, asked of the
    # docs route's subject and again of its unknown names: each query once
    named = lru_cache(maxsize=None)(lambda words: symbol_named(view, words))
    return Evidence(path_kind=lambda token: path_kind(view, token),
                    is_symbol=lambda name: named(name) is not None,
                    document_named=lambda words: document_named(view, words),
                    document_titled=lambda words: document_titled(view, words),
                    symbol_named=named,
                    definitions=lru_cache(maxsize=None)(lambda name: definitions(view, name)),
                    is_document=lambda path: path in documents() or path.lower().endswith(DOC_SUFFIXES),
                    files_in=lambda folder: files_in(view, folder),
                    is_word=lambda name: is_word(view, name),
                    is_document_word=lambda name: is_document_word(view, name),
                    design_heading=lambda words: design_heading(view, words),
                    document_writes=lru_cache(maxsize=None)(lambda name: document_writes(view, name)))


# A document read whole to tell whether it writes a name (its sections' words are the index's, split at humps)
MAX_WRITTEN_BYTES = 1 << 20


def document_writes(view: BundleView, name: str) -> bool:
    """Whether one of the decision index's first sections for `name` writes it as it is spelled (the index reads
    every document's sections): in the text a row shows, else in its document (an example's code: markdown-it's
    README lists the `xhtmlOut` option in a code block, which the index holds as "xhtml" and "out")."""
    if not view.read(["decisions/meta.json"]):
        return False
    rows = answer("decisions", name, limit=3, bundle=view, ungated=True).rows
    if any(name in str(dict(row.extra).get("text") or "") or name in (row.name or "") for row in rows):
        return True
    spelled = name.encode("utf-8", "replace")
    return any(spelled in (view.source_blob(path, MAX_WRITTEN_BYTES) or b"")
               for path in dict.fromkeys(row.path for row in rows))


def design_heading(view: BundleView, words: str) -> str | None:
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


def is_word(view: BundleView, name: str) -> bool:
    """Whether a name, its parts joined as one lowercase word (`PostgreSQL` -> postgresql), is a word of the
    symbol index (a name's, a doc's or a folder's); a qualified name also by its last part (fmt's docs and code write
    the standard library's `std::tm`, which no index holds as `stdtm`)."""
    from gitroute.text import name_parts, normalize_name

    parts = name_parts(name)
    words = dict.fromkeys(filter(None, (normalize_name(name), normalize_name(parts[-1]) if len(parts) > 1 else "")))
    return any(ask_symbols(view, word, limit=1, explain=False).rows for word in words)


def is_document_word(view: BundleView, name: str) -> bool:
    """Whether a document's section holds a name, its parts joined as one lowercase word, as one of its words (uuid's
    README writes "Typescript"; the decision index would also find "asyncblueprint" spelled apart, as async and
    blueprint: no such word is written)."""
    from gitroute.indexes.decisions import doc_tokens
    from gitroute.text import normalize_name

    tokens = doc_tokens(normalize_name(name))
    if len(tokens) != 1 or not view.read(["decisions/meta.json"]):
        return False
    signal = f"bm25:{tokens[0]}"
    found = answer("decisions", tokens[0], limit=3, bundle=view, explain=True)
    return any(signal in dict(row.signals) for row in found.rows)


def files_in(view: BundleView, folder: str) -> list[str]:
    """The paths of the files right inside a folder of the bundle's source commit (its tree, read raw)."""
    return view.source_files(folder) if folder else []


def path_kind(view: BundleView, token: str) -> str | None:
    """"blob" or "tree" when `token` is a path of the bundle's source commit (one cat-file round trip)."""
    if not token or "\n" in token or token.startswith("-") or ".." in token.split("/"):
        return None
    found = view.reader.read([f"{view.source.commit}:{token}"])[0]
    return found[1] if found and found[1] in ("blob", "tree") else None


def document_paths(view: BundleView) -> frozenset[str]:
    """The paths of the documents the doc↔code index read (none when the bundle lacks it)."""
    index = view.index("doc_links")
    found = index.memo.get("document_paths")  # a warm server's view keeps it for the pinned bundle
    if found is None:
        docs = index.read_json("docs.json")
        found = index.memo["document_paths"] = frozenset(
            entry[0] for entry in docs if isinstance(entry, list) and entry and isinstance(entry[0], str)
        ) if isinstance(docs, list) else frozenset()
    return found


def document_titled(view: BundleView, text: str) -> str | None:
    """The document whose title is `text` (case, punctuation and spacing aside), when exactly one is."""
    from gitroute.text import title_key

    index = view.index("doc_links")
    titles = index.memo.get("document_titles")  # a warm server's view keeps it for the pinned bundle
    if titles is None:
        docs = index.read_json("docs.json")
        titles = index.memo["document_titles"] = {}
        for entry in docs if isinstance(docs, list) else ():
            if isinstance(entry, list) and len(entry) > 1 and isinstance(entry[1], str):
                titles.setdefault(title_key(entry[1]), []).append(entry[0])
    found = titles.get(title_key(text), [])
    return found[0] if len(found) == 1 else None


def document_named(view: BundleView, text: str) -> str | None:
    """The document whose path, path ending, base name or stem `text` is (case folded), a path ending less its
    extension too (`ginS/README`), when the bundle has the doc↔code index; the shortest such path."""
    wanted = text.strip().strip("/").lower()
    if not wanted or len(wanted.split()) > 1:
        return None
    found = []
    for path in document_paths(view):
        lower = path.lower()
        base = lower.rpartition("/")[2]
        stem = lower[:len(lower) - len(base)] + base.rpartition(".")[0] if "." in base else lower
        if wanted in (lower, base, base.rpartition(".")[0] or base, stem) or lower.endswith("/" + wanted) \
                or stem.endswith("/" + wanted):
            found.append(path)
    if not found and "/" in wanted:
        return _in_named_folder(view, wanted)
    return min(found, key=lambda p: (len(p), p)) if found else None


def _in_named_folder(view: BundleView, wanted: str) -> str | None:
    """"codegen/readme": the one document of that stem in a folder that name is a part of (`picocli-codegen/
    README.adoc`: "the codegen README"), its parts split at hyphens, underscores and dots; None unless one."""
    folder, _, stem = wanted.rpartition("/")
    found = set()
    for path in document_paths(view):
        parent, _, base = path.lower().rpartition("/")
        if (base.rpartition(".")[0] or base) == stem and folder in re.split(r"[-_.]", parent.rpartition("/")[2]):
            found.add(path)
    return found.pop() if len(found) == 1 else None


def definitions(view: BundleView, name: str) -> tuple[tuple[str, str], ...] | None:
    """(path, name) of each symbol `name` names exactly (case and separators aside), by the symbol index: a
    qualified name (`Owner.name`, `pkg::mod::name`, `module.name`) by its last part, kept to the rows whose
    owner or path holds one of its qualifiers when any does. () when the repository defines no such name."""
    from gitroute.rank import DEMOTE, TIERS
    from gitroute.text import name_parts, split_identifier

    parts = name_parts(name)
    if not parts:
        return None
    if not may_name_exactly(view, parts[-1]):
        return ()
    # An exact name scores EXACT at least, DEMOTE of it on a test's path: rows below that are never definitions, and
    # the top 20 rows at or above it are the top 20 rows' that are (an undefined name reads a few records, not 20).
    found = ask_symbols(view, parts[-1], limit=20, explain=True, floor=TIERS["exact_name"] * DEMOTE)
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


def may_name_exactly(view: BundleView, name: str) -> bool:
    """Whether some symbol's postings could make it a row of `name` that scores `exact_name`."""
    from gitroute.registry import load_index

    return load_index("symbols").may_name_exactly(view.index("symbols"), name)


def symbol_named(view: BundleView, words: str) -> str | None:
    """The name of the symbol index's best row for `words` when it is exactly those words, case and
    separators aside ('session interface' and 'session_interface' name SessionInterface)."""
    from gitroute.text import normalize_name

    if not may_name_symbol(view, words):
        return None
    found = query(words, limit=3, bundle=view)
    # a file of the same name (`cart.py` for "cart") may come first; of a type and a member both spelled so (django's
    # class Paginator and a sitemap's `paginator`), words in a sentence ("the paginator") name the type
    names = [(row.kind not in _TYPE_KINDS, (row.name or "").rpartition(".")[2]) for row in found.rows
             if row.kind != "file" and normalize_name((row.name or "").rpartition(".")[2]) == normalize_name(words)]
    return min(names, key=lambda n: n[0])[1] if names else None


_TYPE_KINDS = frozenset(("class", "struct", "interface", "trait", "enum", "type"))
MAX_SPELLED_TOKENS = 8  # the words' tokens whose joinings are looked up (2 ** 7 spellings at most)


def may_name_symbol(view: BundleView, words: str) -> bool:
    """False when `symbol_named` is sure to find no symbol that `words` spell, read off the symbol index's name postings
    alone: the full query of every word a sentence spells costs more than the rest of its `ask` (the kernel's "page
    cache written back to disk": five misses, 200 ms of CPU).

    A name that spells the words holds every one of them, its stop words too (a name's postings keep them: `get or
    create` is `get_or_create`), whether the query ranks it among its names or its prose. A name that spells `words`
    (case and separators aside) whose word breaks are breaks between the words' tokens is one of the ways of joining
    neighbouring tokens ('page cache': page + cache, or pagecache), and its postings are that joining's words, no
    more: so a joining whose words no name holds, all of them and no other, is a spelling no symbol has. A name that
    breaks a token of the words in two (`FileSystem` for "filesystem") is left to the query when no name holds that
    token as a word of its own, and is not looked for when one does (a repository that spells it both ways); nor one
    whose name holds words
    before a dot (its postings count them: no bench corpus has one but fastify's `./wrap-thenable`, with none); one
    word, other scripts and long spellings are left to the query (True). Measured over every two- to four-word run
    of the bench questions of 20 corpora and the kernel: the same names as the full query found; and again over the
    runs with a stop word, once left to the query ("there page" of "Is there a page in the docs about reset?", a
    kernel's 30,001 nodes scored for it): 12,733 of 49,254 bench runs and 706 of 764 kernel runs skip the query, and
    the query finds a name for none of them."""
    from gitroute.indexes.symbols import are_name_words, named_by_words
    from gitroute.text import normalize_name, tokenize, without_request

    asked = without_request(words)
    if len(asked.split()) < 2 or not words.isascii():
        return True
    tokens = tokenize(words)
    wanted = normalize_name(words)
    if "".join(tokens) != wanted or not 2 <= len(tokens) <= MAX_SPELLED_TOKENS:
        return True
    index = view.index("symbols")
    ids = named_by_words(index, _joinings(tokens))
    for record in index.graph.records(ids).values():
        name, kind = record[1], record[3]
        if kind != "file" and isinstance(name, str) and normalize_name(name.rpartition(".")[2]) == wanted:
            return True
    # A word that is no name's own may be a name's words run together ("metadata store": MetaDataStore, found by
    # the query through "store"): that is the query's to say.
    return not are_name_words(index, tokens)


def _joinings(tokens: list[str]) -> list[list[str]]:
    """Every way of joining neighbouring tokens (`a b c`: a b c, ab c, a bc, abc), each a list of tokens."""
    found = []
    for breaks in range(1 << (len(tokens) - 1)):
        joined = [tokens[0]]
        for at, token in enumerate(tokens[1:]):
            if breaks >> at & 1:
                joined.append(token)
            else:
                joined[-1] += token
        found.append(joined)
    return found
