"""The fast path of `git route query`: an answer without importing click.

It accepts only command lines it understands to the letter: the options of `cli/query.py`, each
as `--opt value` or `--opt=value`, and words. Anything else (help, a bad value, an option it does
not know, `--`) returns None so that the click app parses it and says what is wrong.
`tests/test_cli_fast.py` checks that both paths define the same options and answer alike.
"""
from __future__ import annotations

from gitroute.model import SYMBOL_KINDS

KIND_CHOICES = ("file",) + SYMBOL_KINDS
# option spelling -> (parameter, takes a value, may repeat)
QUERY_OPTIONS: dict[str, tuple[str, bool, bool]] = {
    "--limit": ("limit", True, False),
    "-n": ("limit", True, False),
    "--kind": ("kinds", True, True),
    "--lang": ("langs", True, True),
    "--path": ("path_glob", True, False),
    "--json": ("as_json", False, False),
    "--explain": ("explain", False, False),
    "--meaning": ("meaning", False, False),
    "-q": ("quiet", False, False),
    "--quiet": ("quiet", False, False),
}
LIMIT_RANGE = (1, 200)
DEFAULT_LIMIT = 10
# `git route why` takes the query's options less its filters, and asks the decision index.
WHY_INDEX = "decisions"
WHY_OPTIONS = frozenset(k for k, (param, _, _) in QUERY_OPTIONS.items() if param not in ("kinds", "langs", "path_glob"))


def parse_query_args(args: list[str]) -> dict | None:
    """The query's parameters, or None when click should parse this command line."""
    if not args or args[0] != "query":
        return None
    params: dict = {"limit": DEFAULT_LIMIT, "kinds": [], "langs": [], "path_glob": None,
                    "as_json": False, "explain": False, "meaning": False, "quiet": False}
    words: list[str] = []
    seen: set[str] = set()
    rest = args[1:]
    i = 0
    while i < len(rest):
        arg = rest[i]
        i += 1
        if not arg.startswith("-") or arg == "-":
            words.append(arg)
            continue
        name, eq, inline = arg.partition("=")
        spec = QUERY_OPTIONS.get(name)
        if spec is None or (eq and not spec[1]) or (eq and name.startswith("-") and not name.startswith("--")):
            return None
        param, takes_value, repeats = spec
        if param in seen and not repeats:
            return None  # click keeps the last; leave such lines to it
        seen.add(param)
        if not takes_value:
            params[param] = True
            continue
        if eq:
            value = inline
        elif i < len(rest):
            value = rest[i]
            i += 1
        else:
            return None
        if param == "limit":
            if not (value.isascii() and value.isdigit()) or not LIMIT_RANGE[0] <= int(value) <= LIMIT_RANGE[1]:
                return None
            params["limit"] = int(value)
        elif param == "kinds":
            if value not in KIND_CHOICES:
                return None
            params["kinds"].append(value)
        elif param == "langs":
            params["langs"].append(value)
        else:
            params[param] = value
    if not words:
        return None
    params["text"] = " ".join(words)
    return params


def parse_why_args(args: list[str]) -> dict | None:
    """`why`'s parameters, or None when click should parse this command line."""
    if not args or args[0] != "why":
        return None
    if any(arg.partition("=")[0] in QUERY_OPTIONS and arg.partition("=")[0] not in WHY_OPTIONS for arg in args[1:]):
        return None  # a filter `why` does not take: click says so
    params = parse_query_args(["query", *args[1:]])
    if params is None:
        return None
    for name in ("kinds", "langs", "path_glob"):
        params.pop(name)
    return params


def answer_fast(args: list[str]) -> int | None:
    """Answer a plain query or why and return its exit code; None when the click app must take it."""
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

    answer = api.query(params["text"], limit=params["limit"], kinds=params["kinds"], langs=params["langs"],
                       path_glob=params["path_glob"], explain=params["explain"], meaning=params["meaning"])
    emit_answer(answer, as_json=params["as_json"], explain=params["explain"], quiet=params["quiet"])
    return 0
