"""`git route docs NAME|PATH`: which documents explain a file or symbol."""
from __future__ import annotations

import click

from gitroute.cli.options import spec_options
from gitroute.cli.output import answer_json, emit_docs, emit_json

__all__ = ["command", "emit_docs"]


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
