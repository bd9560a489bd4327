"""`git route impact X`: what a change to a file or symbol may break."""
from __future__ import annotations

import click

from gitroute.cli.options import spec_options
from gitroute.cli.output import emit_impact


@click.command("impact")
@click.argument("target")
@spec_options("impact")
def command(target: str, depth: int, ambiguous: bool, limit: int, as_json: bool, explain: bool, quiet: bool) -> None:
    """List the files that call, import, reference or inherit TARGET, to --depth edges back.

    TARGET is a file path, a symbol name, or 'path:symbol'. A name that several definitions share
    lists them instead of guessing. Rows are grouped by file, code first, then tests, examples and
    docs; the last note always says what a static walk cannot see.
    """
    from gitroute import api

    answer = api.answer("impact", target, limit=limit, explain=explain, depth=depth, ambiguous=ambiguous)
    emit_impact(answer, target, as_json=as_json, explain=explain, quiet=quiet)
