"""`git route why TEXT`: the decision records, sections and alternatives that answer a "why" question."""
from __future__ import annotations

import click

from gitroute.cli.fast import WHY_INDEX
from gitroute.cli.options import explain_option, json_option, limit_option, quiet_option
from gitroute.cli.output import emit_why


@click.command("why")
@click.argument("text", nargs=-1, required=True)
@limit_option()
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

    answer = api.answer(WHY_INDEX, " ".join(text), limit=limit, explain=explain)
    emit_why(answer, as_json=as_json, explain=explain, quiet=quiet)
