"""The `code` direction of the doc↔code index: the files and symbols a document (or one of its sections) names."""
from __future__ import annotations

from gitroute.indexes.doc_links import (
    DOCS_LIST,
    WHOLE_DOCUMENT,
    _valid_docs_list,
    entry_links,
    match_document,
    rank_code,
)
from gitroute.indexes.doc_links.storage import BY_DOC
from gitroute.model import Answer
from gitroute.rank import newest_copies_first

MAX_SECTION_DOCUMENTS = 5  # documents whose links are read for the one that has the section asked


def answer_code(view, question: str, limit: int, explain: bool) -> Answer:
    """The code a document names (`path`, its stem or its title's words), or one of its sections (`DOC#Heading`)."""
    docs_list = view.read_json(DOCS_LIST)
    if not _valid_docs_list(docs_list):
        raise view.corrupt(DOCS_LIST)
    # "README.md#Log file open/close event handlers": one section's code, when the document has that section
    named, _, heading = question.partition("#")
    entry, others = match_document(named, docs_list) if heading.strip() and named.strip() else (None, [])
    if entry is None:
        heading = ""
        entry, others = match_document(question, docs_list)
    if entry is None:
        return Answer("no_match", view.source, (), (f"no document matches '{question}'",))
    newest = newest_copies_first([entry[0], *others], lambda path: (path, ""))  # docs/2.7's page, not docs/1.6's
    if newest[0] != entry[0]:
        entry, others = next(e for e in docs_list if e[0] == newest[0]), newest[1:]
    links: list[list] | None = None
    if heading and others:
        # "The Fallback Signers section of the serialization docs": of the documents the words match, the one
        # that has that section (itsdangerous's serializer.rst, not url_safe.rst, "URL Safe Serialization")
        held = {e[0]: e for e in docs_list}
        for candidate in [entry[0], *others][:MAX_SECTION_DOCUMENTS]:
            found = _links_of(view, candidate) if held[candidate][3] else []
            if _section_links(found, heading)[0] is not None:
                if candidate != entry[0]:
                    others = [entry[0], *(p for p in others if p != candidate)]
                    entry = held[candidate]
                links = found
                break
    path = entry[0]
    notes = (f"'{question}' also matches: {', '.join(others)}",) if others else ()
    if not entry[3]:
        return Answer("no_match", view.source, (), (f"document '{path}' names no file or symbol of the code graph",)
                      + notes, {"document": path})
    if links is None:
        links = _links_of(view, path)
    if heading:
        inside, said = _section_links(links, heading)
        links = links if inside is None else inside
        notes = (*notes, said)
    rows = rank_code(links, limit, explain)
    return Answer("routed", view.source, tuple(rows), notes, {"document": path})


def _links_of(view, path: str) -> list[list]:
    """The links a document holds (`BY_DOC`), validated."""
    shards = int(view.section.get("shards", {}).get("by_doc", 1))
    found = BY_DOC.read(view.read, [path], shards, view.corrupt).get(path)
    try:
        return entry_links(found[0])  # type: ignore[index]
    except (ValueError, TypeError, KeyError, IndexError) as err:
        raise view.corrupt(BY_DOC.key_path(path, shards)) from err


def _section_links(links: list[list], heading: str) -> tuple[list[list] | None, str]:
    """The links of the section titled `heading` (case and punctuation aside), else of the sections whose titles
    hold its words in order ("working with multiple loggers": §Working with multiple Loggers in winston), with a
    note; None, said so, when no such section names code."""
    from gitroute.text import title_key

    key = title_key(heading)
    inside = [link for link in links if title_key(str(link[1])) == key]
    if not inside and key:
        inside = [link for link in links if _in_order(key.split(), title_key(str(link[1])).split())]
    if inside:
        return inside, f"the code its section '{heading.strip()}' names"
    return None, f"no section '{heading.strip()}' names code: {WHOLE_DOCUMENT}"


def _in_order(words: list[str], title: list[str]) -> bool:
    """Whether `title` holds every one of `words`, in their order (others may stand between)."""
    rest = iter(title)
    return all(word in rest for word in words)
