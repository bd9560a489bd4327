"""`git route ask TEXT`: any question, routed to the index (or indexes) that answer its kind."""
from __future__ import annotations

import click

from gitroute.cli.options import explain_option, json_option, limit_option, quiet_option
from gitroute.cli.output import emit_ask


@click.command("ask")
@click.argument("text", nargs=-1, required=True)
@limit_option()
@json_option
@explain_option
@quiet_option
def command(text: tuple[str, ...], limit: int, as_json: bool, explain: bool, quiet: bool) -> None:
    """Answer TEXT from the index its kind of question needs.

    A name (QuerySet, url_for) asks where it is defined and which docs explain it; a question in plain
    words asks the code's names and text; a document's path asks which code it talks about; "which doc
    explains X", "what breaks if I change X", "why did we choose ..." and wiring questions ask the
    index made for them. A mixed question asks several, rows in turn; each row says its `type`.
    --explain says how the question was classified and why. no_match when no index has an answer.
    """
    from gitroute import api

    question = " ".join(" ".join(text).split())
    if not question:
        raise click.UsageError("TEXT is empty: ask a name, a path or a question")
    answer, classification = api.ask(question, limit=limit, explain=explain)
    emit_ask(answer, classification, as_json=as_json, explain=explain, quiet=quiet)
