"""`git route code DOC`: which files and symbols a document names."""
from __future__ import annotations

import click

from gitroute.cli.options import spec_options
from gitroute.cli.output import answer_json, emit_code, emit_json


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
