"""Turning one file's bytes into a FileExtract: the stages in order, each in its own module.

grammars (load the grammar and tag query) -> captures (run the query, or the generic walk) -> symbols (with
docs and entries) and references; each language family's special cases live in families/.

Conventions (they hold for every language):
- `Symbol.line` is the line of the definition's name (so a Java method's annotations or a C return type on
  the line above do not move it), `end_line` the last line of the definition node, both 1-based.
- `signature` is that name line from the definition's start (for a JS/TS function value, from the line's
  start: `res.send = function send(body) {`), stripped, at most 200 characters.
- `kind` "method" means: a function whose innermost enclosing symbol is a type, or one bound to a type by
  a receiver (Go `func (t *T) M()`, C++ `void T::m()`, Rust `impl T { fn m() }`, Swift `extension T`).
  A receiver-bound method's `parent` is the type's symbol when the file defines it (which may come later in
  the file), otherwise its lexical parent.
- JavaScript/TypeScript functions assigned to a member are named by the property (`res.type = function
  contentType() {}` is `type`, the name callers use). One assigned onto an object the file defines as a
  symbol visible there (`Layer.prototype.match = function`, `proto.handle = function` after `var proto =
  module.exports = function () {}`) is a "method" parented to that symbol; onto anything else (`res`, `app`,
  `exports`) it stays a function at its lexical place, and the object is only in its signature.
- A JSDoc block (`/** ... */`) documents the definition below it even across one blank line (the Express
  style); every other comment must be adjacent.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from gitroute.model import FileExtract
from gitroute.parsing.captures import count_error_regions, merge_clauses, run_query, walk_generic
from gitroute.parsing.families import family
from gitroute.parsing.grammars import is_supported, parse_bounded, parse_pieces, parser, tag_query
from gitroute.parsing.languages import DATA_LANGUAGES, language_for_content
from gitroute.parsing.limits import ExtractLimit, check_minified
from gitroute.parsing.references import build_refs
from gitroute.parsing.symbols import build_symbols

if TYPE_CHECKING:
    from gitroute.parsing.nodes import Ref, Scope

__all__ = ["extract", "is_supported"]


def extract(data: bytes, lang: str) -> FileExtract:
    """Definitions, calls, imports and type references of one file; degrades into warnings, and raises only
    ExtractLimit: a file past a per-file ceiling (minified, or a parse past its memory ceiling) is skipped."""
    try:
        return _extract(data, lang)
    except ExtractLimit:
        raise
    except Exception as exc:  # a last line of defence: one bad file must never stop a build
        return FileExtract(lang=lang, warnings=(f"extraction failed: {type(exc).__name__}: {exc}"[:300],))


def _extract(data: bytes, lang: str) -> FileExtract:
    lang = language_for_content(lang, data) or lang
    if lang in DATA_LANGUAGES:
        return FileExtract(lang=lang)
    loaded = parser(lang)
    if loaded is None:
        return FileExtract(lang=lang, warnings=(f"unsupported language '{lang}'",))
    if not data:
        return FileExtract(lang=lang)
    check_minified(data)
    warnings: list[str] = []
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        warnings.append("not valid UTF-8: names decoded with replacement characters")
    special = family(lang)
    data = special.parsed_text(data)
    roots = [parse_bounded(loaded, data).root_node]
    if roots[0].has_error:
        starts = special.piece_starts(data)
        if starts:
            roots = parse_pieces(lang, data, starts) or roots
        regions = sum(count_error_regions(root) for root in roots if root.has_error)
        if regions:
            warnings.append(f"parse errors in {regions} region{'s' if regions != 1 else ''}")
    query = tag_query(lang)
    scopes: list[Scope] = []
    refs: list[Ref] = []
    for root in roots:
        found, found_refs = run_query(lang, special, query, root) if query is not None else walk_generic(
            lang, root, warnings)
        scopes += found
        refs += found_refs
    if special.clauses:
        scopes = merge_clauses(scopes)
    symbols = build_symbols(special, scopes, data, warnings)
    refs_by = build_refs(scopes, refs, warnings)
    return FileExtract(
        lang=lang,
        symbols=symbols,
        calls=refs_by["call"],
        imports=refs_by["import"],
        references=refs_by["type"],
        entry=special.file_entry(roots[0], data),
        warnings=tuple(warnings),
        bindings=refs_by["bind"],
        bases=refs_by["base"],
    )
