"""The fast path of `git route query`, `why`, `ask`, `docs`, `code` and `impact`: an answer without importing click
(click, and the inspect, typing, uuid and datetime modules it imports, cost a cold answer ~25 ms of CPU).

It accepts only command lines it understands to the letter: the options of the command's spec
(`gitroute.specs`, which also makes the click options), each as `--opt value` or `--opt=value`, and words.
Anything else (help, a bad value, an option it does not know, `--`) returns None so that the click app parses
it and says what is wrong. `tests/test_cli_fast.py` checks that both paths define the same options and answer alike.
"""
from __future__ import annotations

from gitroute.specs import (
    ASK,
    DEFAULT_LIMIT,
    KIND_CHOICES,
    LIMIT_RANGE,
    MEANING_CANDIDATES,
    Command,
    command_named,
    fast_options,
    parse_command_line,
)

__all__ = ["ASK_OPTIONS", "DEFAULT_LIMIT", "KIND_CHOICES", "LIMIT_RANGE", "MEANING_CANDIDATES", "QUERY_OPTIONS",
           "WHY_OPTIONS", "answer_fast", "parse_ask_args", "parse_query_args", "parse_why_args"]


def _spec(name: str) -> Command:
    found = command_named(name)
    assert found is not None, name
    return found


QUERY = _spec("query")
WHY = _spec("why")
DOCS = _spec("docs")
CODE = _spec("code")
IMPACT = _spec("impact")
# option spelling -> (parameter, takes a value, may repeat)
QUERY_OPTIONS = fast_options(QUERY)
# `git route why` takes the query's options less its filters, and asks the decision index.
WHY_INDEX = WHY.index
WHY_OPTIONS = frozenset(fast_options(WHY))
ASK_OPTIONS = fast_options(ASK)


def parse_query_args(args: list[str]) -> dict | None:
    """The query's parameters, or None when click should parse this command line."""
    if not args or args[0] != "query":
        return None
    return parse_command_line(QUERY, args[1:])


def parse_why_args(args: list[str]) -> dict | None:
    """`why`'s parameters, or None when click should parse this command line."""
    if not args or args[0] != "why":
        return None
    return parse_command_line(WHY, args[1:])


def parse_ask_args(args: list[str]) -> dict | None:
    """`ask`'s parameters (its text with runs of blanks made one space, as the click command makes it), or None
    when click should parse this command line (an empty text too: click says it is)."""
    if not args or args[0] != "ask":
        return None
    params = parse_command_line(ASK, args[1:])
    if params is None or not params["text"].split():
        return None
    params["text"] = " ".join(params["text"].split())
    return params


def parse_args(command: Command, args: list[str]) -> dict | None:
    """The parameters of `command`'s line (`args` starts with its name), or None when click should parse it."""
    if not args or args[0] != command.name:
        return None
    params = parse_command_line(command, args[1:])
    if params is not None and command is IMPACT and " " in params["text"]:
        return None  # impact takes one TARGET: click says what is wrong with two (or takes a target with a space)
    return params


def answer_documents(args: list[str]) -> int | None:
    """`docs`, `code` and `impact` as their click commands answer them; None when click must take the line."""
    from gitroute.cli import output

    for command in (DOCS, CODE, IMPACT):
        params = parse_args(command, args)
        if params is None:
            continue
        from gitroute import api

        text, limit, explain = params["text"], params["limit"], params["explain"]
        if command is IMPACT:
            answer = api.answer(IMPACT.index, text, limit=limit, explain=explain, depth=params["depth"],
                                ambiguous=params["ambiguous"])
            output.emit_impact(answer, text, as_json=params["as_json"], explain=explain, quiet=params["quiet"])
            return 0
        answer = (api.docs if command is DOCS else api.code)(text, limit=limit, explain=explain)
        if params["as_json"]:
            output.emit_json(output.answer_json(answer, explain))
        else:
            (output.emit_docs if command is DOCS else output.emit_code)(answer, explain=explain, quiet=params["quiet"])
        return 0
    return None


def answer_fast(args: list[str]) -> int | None:
    """Answer a plain query, why, ask, docs, code or impact and return its exit code; None when the click app must
    take it."""
    if args and args[0] in (DOCS.name, CODE.name, IMPACT.name):
        return answer_documents(args)
    asked = parse_ask_args(args)
    if asked is not None:
        from gitroute import api
        from gitroute.cli.output import emit_ask

        answer, classification = api.ask(asked["text"], limit=asked["limit"], explain=asked["explain"])
        emit_ask(answer, classification, as_json=asked["as_json"], explain=asked["explain"], quiet=asked["quiet"])
        return 0
    why = parse_why_args(args)
    if why is not None:
        from gitroute import api
        from gitroute.cli.output import emit_why

        answer = api.answer(WHY_INDEX, why["text"], limit=why["limit"], explain=why["explain"])
        emit_why(answer, as_json=why["as_json"], explain=why["explain"], quiet=why["quiet"])
        return 0
    params = parse_query_args(args)
    if params is None:
        return None
    from gitroute import api
    from gitroute.cli.output import emit_answer

    if params["meaning"] or params["candidate"]:
        answer = api.meaning(params["text"], limit=params["limit"], explain=params["explain"],
                             candidate=params["candidate"])
        emit_answer(answer, as_json=params["as_json"], explain=params["explain"], quiet=params["quiet"])
        return 0
    answer = api.query(params["text"], limit=params["limit"], kinds=params["kinds"], langs=params["langs"],
                       path_glob=params["path_glob"], explain=params["explain"])
    emit_answer(answer, as_json=params["as_json"], explain=params["explain"], quiet=params["quiet"])
    return 0
