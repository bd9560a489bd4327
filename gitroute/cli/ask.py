"""`git route ask TEXT`: any question, routed to the index (or indexes) that answer its kind."""
from __future__ import annotations

import click

from gitroute.cli.options import explain_option, json_option, limit_option, quiet_option
from gitroute.cli.output import answer_json, emit_json, emit_rows, quote_path, row_where
from gitroute.model import Row


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
    from gitroute.ask import classification_json

    question = " ".join(" ".join(text).split())
    if not question:
        raise click.UsageError("TEXT is empty: ask a name, a path or a question")
    answer, classification = api.ask(question, limit=limit, explain=explain)
    if as_json:
        document = answer_json(answer, explain)
        if explain:
            document["classification"] = classification_json(classification)
        emit_json(document)
        return
    preamble = []
    if explain:
        preamble += [f"asked: {route.kind} -> git route {route.command} '{route.text}': {route.reason}"
                     for route in classification.routes]
        preamble += [f"fact: {fact}" for fact in classification.facts]
    emit_rows(answer, _ask_lines, explain=explain, quiet=quiet, no_match="no index has an answer", preamble=preamble)


def _ask_lines(rows: list[Row]) -> list[str]:
    """Each row's type first: a mixed answer holds rows of several indexes."""
    wheres = [row_where(r) for r in rows]
    width = max(map(len, wheres))
    lines = []
    for r, where in zip(rows, wheres, strict=True):
        extra = dict(r.extra)
        label = quote_path(str(r.name or extra.get("section") or extra.get("token") or ""))
        lines.append(f"{extra.get('type', ''):<9} {where:<{width}}  {r.kind or '':<9} {label}  {r.score:.2f}".rstrip())
    return lines
