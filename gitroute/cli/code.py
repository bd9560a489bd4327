"""`git route code DOC`: which files and symbols a document names."""
from __future__ import annotations

import click

from gitroute.cli.options import spec_options
from gitroute.cli.output import answer_json, emit_json, emit_rows, plain_text, quote_path, row_where
from gitroute.model import Answer, Row

MAX_SYMBOLS_SHOWN = 4


def _code_lines(rows: list[Row]) -> list[str]:
    """The symbols the document names in each file (ambiguous ones marked), how many links, how sure."""
    width = max(len(row_where(r)) for r in rows)
    lines = []
    for r in rows:
        extra = dict(r.extra)
        ambiguous = set(extra.get("ambiguous") or ())
        symbols = [plain_text(f"{s}?" if s in ambiguous else s) for s in extra.get("symbols") or ()]
        named = ", ".join(symbols[:MAX_SYMBOLS_SHOWN]) + (f" (+{len(symbols) - MAX_SYMBOLS_SHOWN})"
                                                          if len(symbols) > MAX_SYMBOLS_SHOWN else "")
        if extra.get("status") == "beside":  # by the repository's layout (query.beside), not by a link
            lines.append(f"{row_where(r):<{width}}  (the file)  (beside it)")
            continue
        links = int(extra.get("links", 0))
        status = str(extra.get("status"))
        if status == "ambiguous":
            status += f", one of {extra.get('candidates')} candidates"
        line = f"{row_where(r):<{width}}  {named or '(the file)'}  ({links} link{'s' if links != 1 else ''}, {status})"
        lines.append(f"{line}  {r.score:.2f}")
    return lines


def emit_code(answer: Answer, *, explain: bool, quiet: bool) -> None:
    """One line per file, under the document's path."""
    document = (answer.extra or {}).get("document")
    emit_rows(answer, _code_lines, explain=explain, quiet=quiet, no_match="the document names no code",
              header=[f"document: {quote_path(document)}"] if document else [])


@click.command("code")
@click.argument("doc", nargs=-1, required=True)
@spec_options("code")
def command(doc: tuple[str, ...], limit: int, as_json: bool, explain: bool, quiet: bool) -> None:
    """The files and symbols that DOC names, grouped by file.

    DOC is a document's path, its base name or stem (querysets, MIP-0083), or words of its title.
    Files come first when the document names them often and when the code graph leans on them.
    A name several files define, which the paragraph does not narrow to one, is a candidate in each:
    such symbols are marked with '?', and a file named only that way is marked ambiguous.
    """
    from gitroute import api

    answer = api.code(" ".join(doc), limit=limit, explain=explain)
    if as_json:
        emit_json(answer_json(answer, explain))
    else:
        emit_code(answer, explain=explain, quiet=quiet)
