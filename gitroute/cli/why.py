"""`git route why TEXT`: the decision records, sections and alternatives that answer a "why" question."""
from __future__ import annotations

import click

from gitroute.cli.fast import WHY_INDEX
from gitroute.cli.options import spec_options
from gitroute.cli.output import emit_why


@click.command("why")
@click.argument("text", nargs=-1, required=True)
@spec_options("why")
def command(text: tuple[str, ...], limit: int, as_json: bool, explain: bool, quiet: bool) -> None:
    """Rank the sections of the design records that answer TEXT, one row per record section.

    Records of any shape: ADRs (docs/adr/, docs/decisions/, architecture/ ...), numbered proposals with
    or without a status (ADR-*, PEP-*, KEP-*, RFC-*, proposals/, rfcs/, design/ ...), design pages and
    "why" pages (design.rst, why.md, "Design Decisions in ...", "Proposal: ..."), and documents whose
    sections are a proposal's (Motivation, Rationale, Alternatives ...); [decisions] paths, extra_paths
    and exclude in .gitroute.toml say otherwise. "Why not ..." questions get the alternatives first,
    "why did we choose ..." the decision and its rationale. Rows print as
    `RECORD §SECTION  status  [title]  text`; when no record discusses the question, the answer is
    no_match. A repository with no record is answered from its design documents, and a note says so.
    """
    from gitroute import api

    answer = api.answer(WHY_INDEX, " ".join(text), limit=limit, explain=explain)
    emit_why(answer, as_json=as_json, explain=explain, quiet=quiet)
