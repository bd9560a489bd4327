"""One spec per answering command: the index it asks, its text argument and its options, from which the click
options (`cli/options.spec_options`), the MCP tool's input schema (`input_schema`) and the fast path's parser
(`parse_command_line`, no click) are all made. Adding an index's command is one row of `COMMANDS` here.

Light on purpose: the fast path of `git route query` reads it before anything else is imported.
"""
from __future__ import annotations

from collections import namedtuple
from collections.abc import Mapping, Sequence

from gitroute.model import SYMBOL_KINDS

KIND_CHOICES = ("file",) + SYMBOL_KINDS
MEANING_CANDIDATES = ("bm25", "embedding", "hybrid")
LIMIT_RANGE = (1, 200)
DEFAULT_LIMIT = 10


class Option(namedtuple("Option", "name param schema help short choices cli mcp",
                        defaults=("", "", (), True, True))):
    """One option of an answering command, in every surface that takes it: `--NAME` (and `short`) on the command
    line, `NAME` as an MCP tool argument, `param` as the click parameter and the answer option it sets; `schema`
    its JSON schema (the MCP argument's, whose type also says the CLI's: a flag, a repeatable value, an integer in
    its bounds); `help` the CLI's help; `choices` the values the CLI takes (the schema's `enum` when it has one);
    `cli`, `mcp`: whether that surface has it."""

    __slots__ = ()

    def cli_choices(self) -> tuple[str, ...]:
        return tuple(self.choices) or tuple(self.schema.get("enum", ()))


class Command(namedtuple("Command", "name index options what argument text_required flags")):
    """One answering command: its name (the CLI command and MCP tool), the index it asks, the fixed options it
    passes that index's `answer`, what it returns (for tool descriptions), the name and description of its text
    argument, whether that text is required, and its further options (`Option`s, in the CLI's order)."""

    __slots__ = ()


_LIMIT = {"type": "integer", "minimum": LIMIT_RANGE[0], "maximum": LIMIT_RANGE[1], "default": DEFAULT_LIMIT,
          "description": "rows at most (10 by default)"}
_EXPLAIN = {"type": "boolean", "default": False, "description": "each row's score signals"}


def limit(help_text: str = "Rows at most.") -> Option:
    """-n/--limit, bounded alike for every command that ranks rows."""
    return Option("limit", "limit", _LIMIT, help_text, "-n")


# Options of every answering command's CLI, after its own.
CLI_FLAGS = (
    Option("json", "as_json", {"type": "boolean"}, "One JSON document on stdout (for agents).", mcp=False),
    Option("explain", "explain", _EXPLAIN, "Show each signal's contribution to a row's score."),
    Option("quiet", "quiet", {"type": "boolean"}, "Hide the summary, progress and notes; results and errors still "
           "show.", "-q", mcp=False),
)

QUERY_FILTERS = (
    Option("kind", "kinds", {"type": "array", "items": {"type": "string"}, "description": "only nodes of these kinds"},
           "Only nodes of this kind (repeatable).", choices=KIND_CHOICES),
    Option("lang", "langs", {"type": "array", "items": {"type": "string"},
                             "description": "only nodes in these languages"},
           "Only nodes in this language, e.g. python (repeatable)."),
    Option("path", "path_glob", {"type": "string", "description": "only paths matching this glob"},
           "Only paths matching this glob, e.g. 'src/*'."),
    Option("meaning", "meaning", {"type": "boolean", "default": False,
                                  "description": "a question in plain words, answered by the candidate the bundle "
                                                 "records"},
           "A question in plain words, answered by the candidate the bundle records."),
    Option("candidate", "candidate", {"type": "string", "enum": list(MEANING_CANDIDATES),
                                      "description": "with meaning: ask this candidate instead"},
           "With --meaning: ask this candidate instead of the one the bundle records."),
)

COMMANDS: tuple[Command, ...] = (
    Command("query", "symbols", {}, "the files, types and functions a name or a plain-words question is about",
            ("text", "an identifier (OpenMeteoClient, url_for) or a question in plain words"), True,
            (limit(), *QUERY_FILTERS)),
    Command("docs", "doc_links", {"direction": "docs"}, "the documents (and sections) that explain a file or symbol",
            ("name", "a symbol (Flask, Flask.route, flask.Flask) or a file path"), True,
            (limit("Documents at most."),)),
    Command("code", "doc_links", {"direction": "code"}, "the files and symbols a document names, by file",
            ("doc", "a document's path, base name or stem, or words of its title"), True, (limit("Files at most."),)),
    Command("impact", "impact", {}, "what a change to a symbol or file would break, grouped by file",
            ("target", "a symbol or a file path"), True,
            (Option("depth", "depth", {"type": "integer", "minimum": 1, "maximum": 5, "default": 2,
                                       "description": "how many edges back to walk"},
                    "How many edges back to walk."),
             Option("ambiguous", "ambiguous", {"type": "boolean", "default": False,
                                               "description": "also walk edges whose target was one of several "
                                                              "candidates"},
                    "Also walk edges whose target was one of several candidates."),
             limit("Rows at most per section (code, tests, examples, docs)."))),
    Command("why", "decisions", {}, "the decisions, alternatives and consequences in design records that answer",
            ("text", "a question about a decision, in plain words"), True, (limit(),)),
    # The wiring command's CLI prints tables and writes committed blocks (cli/wiring.py); its tool ranks rows.
    Command("wiring", "wiring", {}, "contract copies, submodule pins, workflow calls and published artifacts",
            ("text", "what to narrow the wiring to (a path or a name); empty for all"), False,
            (Option("limit", "limit", {**_LIMIT, "default": 200,
                                       "description": "rows at most (200 by default, as the command)"}, cli=False),)),
)


# `git route ask`: no index of its own (it routes to the commands above), and the options of its command line, which
# the fast path (`cli.fast`) parses without click, as the click command (`cli/ask.py`) defines them.
ASK = Command("ask", "", {}, "any question, routed to the index (or indexes) that answer its kind",
              ("text", "a name, a path or a question in plain words"), True, (limit(),))


def available_commands(indexes: Sequence[str]) -> list[Command]:
    """The commands whose index the registry holds, in table order."""
    return [c for c in COMMANDS if c.index in indexes]


def command_named(name: str) -> Command | None:
    return next((c for c in COMMANDS if c.name == name), None)


def input_schema(command: Command) -> dict:
    """The JSON schema of a command's arguments (an MCP tool's `inputSchema`)."""
    argument, description = command.argument
    properties: dict = {argument: {"type": "string", "description": description}, "limit": _LIMIT,
                        "explain": _EXPLAIN}
    # a command's own limit takes the common one's place
    properties.update({o.name: o.schema for o in command.flags if o.mcp and o.name not in ("explain",)})
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if command.text_required:
        schema["required"] = [argument]
    return schema


def options_for(command: Command, arguments: Mapping[str, object]) -> dict:
    """A command's answer options from tool arguments (`kind` -> `kinds`, ...), and its fixed options."""
    options = dict(command.options)
    for option in command.flags:
        if option.mcp and option.name not in ("limit", "explain") and arguments.get(option.name) is not None:
            value = arguments[option.name]
            options[option.param] = tuple(value) if isinstance(value, list) else value
    return options


def cli_options(command: Command) -> tuple[Option, ...]:
    """The command line's options of a command, in order: its own, then --json, --explain and -q."""
    return (*(o for o in command.flags if o.cli), *CLI_FLAGS)


def fast_options(command: Command) -> dict[str, tuple[str, bool, bool]]:
    """Option spelling -> (parameter, takes a value, may repeat), for `parse_command_line`."""
    spelled: dict[str, tuple[str, bool, bool]] = {}
    for option in cli_options(command):
        kind = option.schema.get("type")
        for flag in (f"--{option.name}", option.short):
            if flag:
                spelled[flag] = (option.param, kind != "boolean", kind == "array")
    return spelled


def parse_command_line(command: Command, args: Sequence[str]) -> dict | None:
    """The parameters of `COMMAND WORDS... OPTIONS...` as click would give them, or None for any line it does not
    understand to the letter (help, a bad value, an unknown option, `--`, an option given twice): click then
    parses it and says what is wrong."""
    options = {o.param: o for o in cli_options(command)}
    spelled = fast_options(command)
    params: dict = {o.param: [] if o.schema.get("type") == "array" else False if o.schema.get("type") == "boolean"
                    else o.schema.get("default") for o in options.values()}
    words: list[str] = []
    seen: set[str] = set()
    rest = list(args)
    i = 0
    while i < len(rest):
        arg = rest[i]
        i += 1
        if not arg.startswith("-") or arg == "-":
            words.append(arg)
            continue
        name, eq, inline = arg.partition("=")
        spec = spelled.get(name)
        if spec is None or (eq and not spec[1]) or (eq and not name.startswith("--")):
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
        parsed = _value(options[param], value)
        if parsed is None:
            return None
        if repeats:
            params[param].append(parsed)
        else:
            params[param] = parsed
    if not words:
        return None
    params["text"] = " ".join(words)
    return params


def _value(option: Option, value: str) -> str | int | None:
    """`value` as the option takes it, or None when click would refuse it."""
    schema = option.schema
    if schema.get("type") == "integer":
        if not (value.isascii() and value.isdigit()) or not schema["minimum"] <= int(value) <= schema["maximum"]:
            return None
        return int(value)
    choices = option.cli_choices()
    return None if choices and value not in choices else value
