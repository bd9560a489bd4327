"""`git route docs NAME|PATH`: which documents explain a file or symbol."""
from __future__ import annotations

import click

from gitroute.cli.options import spec_options
from gitroute.cli.output import answer_json, emit_json, emit_rows, plain_text, row_where
from gitroute.model import Answer, Row


def _section(extra: dict) -> str:
    section = str(extra.get("section") or "")
    return section if section else "(top)"


def _docs_lines(rows: list[Row]) -> list[str]:
    """Where, the section, the token as written, how many links and how sure."""
    width = max(len(row_where(r)) for r in rows)
    lines = []
    for r in rows:
        extra = dict(r.extra)
        links = int(extra.get("links", 0))
        if extra.get("status") == "beside":  # by the repository's layout (query.beside), not by a link
            lines.append(f"{row_where(r):<{width}}  §{plain_text(_section(extra))}  (beside it)")
            continue
        detail = f"{links} link{'s' if links != 1 else ''}, {extra.get('status')}"
        token = plain_text(str(extra.get("token")))
        lines.append(f"{row_where(r):<{width}}  §{plain_text(_section(extra))}  `{token}`  ({detail})  {r.score:.2f}")
    return lines


def emit_docs(answer: Answer, *, explain: bool, quiet: bool) -> None:
    """One line per document."""
    emit_rows(answer, _docs_lines, explain=explain, quiet=quiet, no_match="no document names it")


@click.command("docs")
@click.argument("name", nargs=-1, required=True)
@spec_options("docs")
def command(name: tuple[str, ...], limit: int, as_json: bool, explain: bool, quiet: bool) -> None:
    """The documents that explain NAME, a symbol (Flask, Flask.route, flask.Flask) or a file path.

    A document links a file or symbol when its inline code, reStructuredText literal or role,
    autodoc directive or link names it exactly; for a code file no document names, the documents
    that name what it defines. Documents about the thing (many links, a heading
    that names it, a design record) come before one that mentions it once. Links to a name that
    several files define, and that the paragraph does not narrow to one, are shown as ambiguous.
    """
    from gitroute import api

    answer = api.docs(" ".join(name), limit=limit, explain=explain)
    if as_json:
        emit_json(answer_json(answer, explain))
    else:
        emit_docs(answer, explain=explain, quiet=quiet)
