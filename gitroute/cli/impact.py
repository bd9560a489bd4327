"""`git route impact X`: what a change to a file or symbol may break."""
from __future__ import annotations

import click

from gitroute.cli.options import spec_options
from gitroute.cli.output import (
    answer_json,
    emit_json,
    err,
    one_line,
    out,
    plain_text,
    quote_path,
    row_where,
    source_line,
)


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
    if as_json:
        emit_json(answer_json(answer, explain))
        return
    out(source_line(answer.source))
    if answer.status == "no_match":
        out("no_match: " + one_line(answer.notes[0] if answer.notes else f"nothing named '{target}'"))
    section = None
    for r in answer.rows:
        extra = dict(r.extra)
        current = extra.get("section", "")
        if current != section:
            section = current
            out(f"[{section}]")
        if extra.get("status") == "candidate":
            out(f"  {row_where(r)}  {r.kind}  {plain_text(r.name or '')}")
        elif section == "contract":
            out(f"  {quote_path(r.path)}  {r.kind}  ({extra.get('status')})")
        else:
            kinds = ",".join(extra.get("edges", ()))
            hows = ",".join(extra.get("resolution", ()))
            out(f"  {row_where(r)}  depth {extra.get('depth')}  {kinds} ({hows})  x{extra.get('count')}  "
                f"{plain_text(r.name or '')}")
            if explain and r.signals:
                out("      " + "  ".join(f"{name}={value:+.2f}" for name, value in r.signals))
    notes = answer.notes if not quiet else answer.notes[-1:]  # the footer is part of the answer: never silenced
    for note in notes:
        err(f"note: {note}")
