"""`git route code DOC`: which files and symbols a document names."""
from __future__ import annotations

import click

from gitroute.cli.options import explain_option, json_option, limit_option, quiet_option
from gitroute.cli.output import (
    answer_json,
    emit_json,
    emit_notes,
    emit_signals,
    out,
    quote_path,
    row_where,
    source_line,
)
from gitroute.model import Answer

MAX_SYMBOLS_SHOWN = 4


def emit_code(answer: Answer, *, explain: bool, quiet: bool) -> None:
    """One line per file: the symbols the document names in it, how many links, ambiguous ones marked."""
    out(source_line(answer.source))
    document = (answer.extra or {}).get("document")
    if answer.status == "no_match":
        out("no_match: " + (answer.notes[0] if answer.notes else "the document names no code"))
        return
    if document:
        out(f"document: {quote_path(document)}")
    width = max(len(row_where(r)) for r in answer.rows)
    for r in answer.rows:
        extra = dict(r.extra)
        where = row_where(r)
        ambiguous = set(extra.get("ambiguous") or ())
        symbols = [f"{s}?" if s in ambiguous else s for s in extra.get("symbols") or ()]
        named = ", ".join(symbols[:MAX_SYMBOLS_SHOWN]) + (f" (+{len(symbols) - MAX_SYMBOLS_SHOWN})"
                                                          if len(symbols) > MAX_SYMBOLS_SHOWN else "")
        links = int(extra.get("links", 0))
        status = str(extra.get("status"))
        if status == "ambiguous":
            status += f", one of {extra.get('candidates')} candidates"
        line = f"{where:<{width}}  {named or '(the file)'}  ({links} link{'s' if links != 1 else ''}, {status})"
        out(f"{line}  {r.score:.2f}")
        emit_signals(r, explain)
    emit_notes(answer.notes, quiet)


@click.command("code")
@click.argument("doc", nargs=-1, required=True)
@limit_option("Files at most.")
@json_option
@explain_option
@quiet_option
def command(doc: tuple[str, ...], limit: int, as_json: bool, explain: bool, quiet: bool) -> None:
    """The files and symbols that DOC names, grouped by file.

    DOC is a document's path, its base name or stem (querysets, MIP-0083), or words of its title.
    Files come first when the document names them often and when the code graph leans on them.
    A name several files define, which the paragraph does not narrow to one, is a candidate in each:
    such symbols are marked with '?', and a file named only that way is marked ambiguous.
    """
    from gitroute import api

    answer = api.answer("doc_links", " ".join(doc), limit=limit, explain=explain, direction="code")
    if as_json:
        emit_json(answer_json(answer, explain))
    else:
        emit_code(answer, explain=explain, quiet=quiet)
