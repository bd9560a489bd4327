"""`git route why TEXT`: the decision records, sections and alternatives that answer a "why" question."""
from __future__ import annotations

import click

from gitroute.cli.fast import DEFAULT_LIMIT, LIMIT_RANGE
from gitroute.cli.options import explain_option, json_option, quiet_option
from gitroute.cli.output import answer_json, emit_json, err, out, source_line


@click.command("why")
@click.argument("text", nargs=-1, required=True)
@click.option("--limit", "-n", type=click.IntRange(*LIMIT_RANGE), default=DEFAULT_LIMIT, show_default=True,
              help="Rows at most.")
@json_option
@explain_option
@quiet_option
def command(text: tuple[str, ...], limit: int, as_json: bool, explain: bool, quiet: bool) -> None:
    """Rank the decisions, alternatives and consequences in the design records that answer TEXT.

    Records are found in docs/adr/, docs/decisions/, doc/adr/, architecture/ folders and numbered
    proposals (ADR-*, PEP-*, NEP-*, MIP-* ...). Rows print as `RECORD §SECTION  status  text`; when
    no record discusses the question, the answer is no_match.
    """
    from gitroute import api
    from gitroute.indexes.decisions import NAME, format_row

    answer = api.answer(NAME, " ".join(text), limit=limit, explain=explain)
    if as_json:
        emit_json(answer_json(answer, explain))
        return
    out(source_line(answer.source))
    if answer.status == "no_match":
        out("no_match: " + (answer.notes[0] if answer.notes else "no decision record discusses the question"))
        return
    for row in answer.rows:
        out(format_row(row))
        if explain and row.signals:
            out("    " + "  ".join(f"{name}={value:+.2f}" for name, value in row.signals))
    if not quiet:
        for note in answer.notes:
            err(f"note: {note}")
