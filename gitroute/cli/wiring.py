"""`git route wiring`: contracts, submodules, workflows and internal dependencies, as tables."""
from __future__ import annotations

import click

from gitroute.cli.committed import run_committed, write_check_file_options
from gitroute.cli.options import json_option, quiet_option
from gitroute.cli.output import (
    answer_json,
    checked,
    emit_json,
    emit_notes,
    one_line,
    out,
    plain_text,
    quote_path,
    source_line,
)


@click.command("wiring")
@click.argument("question", nargs=-1)
@click.option("--markdown", is_flag=True, help="The tables as Markdown, between marker comments.")
@write_check_file_options("wiring")
@json_option
@quiet_option
def command(question: tuple[str, ...], markdown: bool, write_file: str | None, check_file: str | None, force: bool,
            as_json: bool, quiet: bool) -> None:
    """Show how the pinned commit's parts and neighbours connect.

    Without QUESTION, every table: contracts and their copies, submodules and their pinned commits,
    workflow calls (`uses:` and the ref they pin), dispatches sent and listened for, images and
    release assets published, packages and which internal packages depend on which. With QUESTION,
    the rows that share its words.
    """
    from gitroute import api

    if write_file or check_file:
        code = run_committed("wiring", path=write_file or check_file, write=bool(write_file), check=bool(check_file),
                             force=force, quiet=quiet)
        raise SystemExit(code)
    answer = checked(api.answer("wiring", " ".join(question), limit=200))
    if as_json:
        emit_json(answer_json(answer, False))
        return
    if markdown:
        from gitroute.indexes.wiring import MARKER_BEGIN, MARKER_END, render_wiring

        out(MARKER_BEGIN + render_wiring(answer.extra["wiring"] if answer.extra else {}) + MARKER_END)
        return
    out(source_line(answer.source))
    if answer.status == "no_match":
        out("no_match: " + one_line(answer.notes[0] if answer.notes else "nothing in the wiring"))
        return
    # Ranked rows of several tables interleave: each table once, where its best row ranks, its rows in rank order.
    tables: dict[object, list] = {}
    for r in answer.rows:
        tables.setdefault(dict(r.extra).get("table"), []).append(r)
    for table, rows in tables.items():
        out(f"[{table}]")
        for r in rows:
            rest = "  ".join(f"{k}={v}" for k, v in r.extra if k != "table")
            out(plain_text(f"  {quote_path(r.path)}  {r.kind}  {r.name}  {rest}".rstrip()))
    emit_notes(answer.notes, quiet)
