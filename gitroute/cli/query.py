"""`git route query TEXT`: which files and symbols a question names."""
from __future__ import annotations

import click

from gitroute.cli.options import spec_options
from gitroute.cli.output import emit_answer


@click.command("query")
@click.argument("text", nargs=-1, required=True)
@spec_options("query")
def command(text: tuple[str, ...], limit: int, kinds: tuple[str, ...], langs: tuple[str, ...],
            path_glob: str | None, meaning: bool, candidate: str | None, as_json: bool, explain: bool,
            quiet: bool) -> None:
    """Rank the files, types and functions that TEXT names.

    TEXT is an identifier (OpenMeteoClient, url_for) or a question in plain words ("where is the
    session cookie signed"). Identifiers are matched as split tokens, never substrings; a sentence is
    also ranked by BM25 over node text (names, signatures, docs, messages, paths), and the two are
    mixed by the question's shape. When the repository holds nothing the question is about, the
    answer is no_match and the notes say why.
    """
    from gitroute import api

    if meaning or candidate:
        answer = api.meaning(" ".join(text), limit=limit, explain=explain, candidate=candidate)
        emit_answer(answer, as_json=as_json, explain=explain, quiet=quiet)
        return
    answer = api.query(" ".join(text), limit=limit, kinds=kinds, langs=langs, path_glob=path_glob, explain=explain)
    emit_answer(answer, as_json=as_json, explain=explain, quiet=quiet)
