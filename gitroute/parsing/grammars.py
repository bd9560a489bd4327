"""Loading grammars, parsers and compiled tag queries: the one place that touches tree-sitter's loading API.

tree-sitter is imported lazily (inside the cached loaders) so that importing gitroute.parsing costs nothing
until a file is actually parsed. Pinned to tree-sitter 0.26 / language-pack 0.13.
"""
from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from gitroute.parsing import limits
from gitroute.parsing.families import QUERY_FILES
from gitroute.parsing.limits import PARSE_LIMIT, ExtractLimit, ParseWatch

if TYPE_CHECKING:
    from tree_sitter import Language, Node, Parser, Query, Tree

_READ_CHUNK = 64 * 1024  # bytes handed to tree-sitter per read callback
ROLE_ONLY_CAPTURES = "reference."  # captures whose nodes no one reads (tag_query)


@cache
def language(lang: str) -> Language | None:
    try:
        from tree_sitter_language_pack import get_language

        return get_language(lang)  # type: ignore[arg-type]
    except Exception:  # an unknown name raises LookupError; a broken binding anything else
        return None


@cache
def parser(lang: str) -> Parser | None:
    loaded = language(lang)
    if loaded is None:
        return None
    from tree_sitter import Parser

    return Parser(loaded)


def parse_bounded(loaded: Parser, data: bytes) -> Tree:
    """`loaded.parse(data)`, cancelled when it passes a per-file ceiling (parsing/limits.py): then the parser is reset
    and ExtractLimit("parse-limit") raised. A file under `GUARDED_MIN_BYTES` is parsed plainly.

    tree-sitter calls the progress callback only when it reads its input through a callback, and py-tree-sitter 0.26
    keeps every bytes object such a read returns until the parse ends (tree-sitter reads again at most tokens: 64 KiB
    chunks took 8 GB for a 1 MiB file), so the guarded parse reads views of `data`. A tree parsed from views cannot
    give its nodes' text, so the tree returned is `data` parsed again on top of it: nothing changed, every node is
    reused (about a tenth of a parse)."""
    if len(data) < limits.GUARDED_MIN_BYTES:
        return loaded.parse(data)
    watch = ParseWatch(len(data))
    view = memoryview(data)
    try:
        guarded = loaded.parse(lambda offset, _point: view[offset:offset + _READ_CHUNK], progress_callback=watch)
    except ValueError:  # what a cancelled parse raises
        loaded.reset()
        if watch.exceeded:
            raise ExtractLimit(PARSE_LIMIT, watch.exceeded) from None
        raise
    finally:
        watch.close()
    return loaded.parse(data, guarded)


def query_source(lang: str) -> str:
    """The concatenated .scm text of a language's tag queries ("" when it has none)."""
    parts = []
    for name in QUERY_FILES.get(lang, ()):
        parts.append(resources.files("gitroute.parsing").joinpath(f"queries/{name}.scm").read_text("utf-8"))
    return "\n".join(parts)


@cache
def tag_query(lang: str) -> Query | None:
    """The compiled tag query, once per process; raises if a shipped .scm does not compile (a bug, tested)."""
    source = query_source(lang)
    loaded = language(lang)
    if not source or loaded is None:
        return None
    from tree_sitter import Query

    query = Query(loaded, source)
    # A `@reference.*` capture marks what its pattern is, which `captures.run_query` reads from the pattern's text;
    # its node is never read, and a match without it makes a node and a list fewer (most matches are calls).
    for index in range(query.capture_count):
        if query.capture_name(index).startswith(ROLE_ONLY_CAPTURES):
            query.disable_capture(query.capture_name(index))
    return query


def load_languages(langs: Iterable[str]) -> None:
    """Load the grammars and compile the tag queries of `langs` in this process now. A build calls it before it
    forks its extraction workers, which then inherit them instead of each compiling its own (a query's compile
    is most of what a small file costs: C++'s is 0.35 s of CPU). A query that does not compile is left for
    `extract` to report, as it would be without this."""
    for lang in langs:
        try:
            if parser(lang) is not None:
                tag_query(lang)
        except Exception:  # reported by `extract`, file by file
            continue


def parse_pieces(lang: str, data: bytes, starts: list[int]) -> list[Node]:
    """The roots of `data` parsed in the pieces that `starts` (ascending line-start offsets) cut it into, each on its
    own but with the whole file's byte offsets and lines, so that nodes from every piece read `data` alike."""
    loaded = parser(lang)
    if loaded is None:
        return []
    from tree_sitter import Point, Range

    bounds = [0, *(s for s in starts if 0 < s < len(data)), len(data)]
    roots = []
    row = 0
    try:
        for start, end in zip(bounds, bounds[1:]):
            if end <= start:
                continue
            end_row = row + data.count(b"\n", start, end)
            loaded.included_ranges = [Range(Point(row, 0), Point(end_row, 0), start, end)]
            roots.append(parse_bounded(loaded, data).root_node)
            row = end_row
    finally:
        loaded.included_ranges = []  # the parser is shared: the next file is parsed whole
    return roots


def is_supported(lang: str) -> bool:
    """Whether the pack has a grammar for `lang`."""
    return language(lang) is not None
