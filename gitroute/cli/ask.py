"""`git route ask TEXT`: any question, routed to the index (or indexes) that answer its kind."""
from __future__ import annotations

import click

from gitroute.cli.options import explain_option, json_option, limit_option, quiet_option
from gitroute.cli.output import answer_json, emit_json, emit_notes, emit_signals, out, quote_path, source_line


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
    out(source_line(answer.source))
    if explain:
        for route in classification.routes:
            out(f"asked: {route.kind} -> git route {route.command} '{route.text}': {route.reason}")
        for fact in classification.facts:
            out(f"fact: {fact}")
    if answer.status == "no_match":
        out("no_match: " + (answer.notes[0] if answer.notes else "no index has an answer"))
        return
    wheres = [f"{quote_path(r.path)}:{r.line}" if r.line is not None else quote_path(r.path) for r in answer.rows]
    width = max(map(len, wheres))
    for r, where in zip(answer.rows, wheres, strict=True):
        extra = dict(r.extra)
        label = quote_path(str(r.name or extra.get("section") or extra.get("token") or ""))
        out(f"{extra.get('type', ''):<9} {where:<{width}}  {r.kind or '':<9} {label}  {r.score:.2f}".rstrip())
        emit_signals(r, explain)
    emit_notes(answer.notes, quiet)
