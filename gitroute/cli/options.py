"""Click options shared by several commands, and an answering command's options made from its spec."""
from __future__ import annotations

import click

from gitroute.specs import CLI_FLAGS, DEFAULT_LIMIT, LIMIT_RANGE, Option, cli_options, command_named

json_option, explain_option, quiet_option = (
    click.option(*(f for f in (o.short, f"--{o.name}") if f), o.param, is_flag=True, help=o.help) for o in CLI_FLAGS)


def limit_option(help_text: str = "Rows at most."):  # -> a click decorator
    """-n/--limit, bounded alike for every command that ranks rows (the fast query path parses the same range)."""
    return click.option("--limit", "-n", type=click.IntRange(*LIMIT_RANGE), default=DEFAULT_LIMIT, show_default=True,
                        help=help_text)


def spec_options(name: str):  # -> a click decorator
    """The command line's options of the answering command `name`, as its spec (`gitroute.specs`) says: its own in
    the spec's order, then --json, --explain and -q/--quiet."""
    command = command_named(name)
    assert command is not None, name
    decorators = [_click_option(o) for o in cli_options(command)]

    def apply(function):
        for decorator in reversed(decorators):
            function = decorator(function)
        return function

    return apply


def _click_option(option: Option):  # -> a click decorator
    schema = option.schema
    kind = schema.get("type")
    if option.name == "limit":
        return limit_option(option.help)
    if option in CLI_FLAGS:
        return {"json": json_option, "explain": explain_option, "quiet": quiet_option}[option.name]
    spelled = (f"--{option.name}", *((option.short,) if option.short else ()))
    if kind == "boolean":
        return click.option(*spelled, option.param, is_flag=True, help=option.help)
    if kind == "integer":
        return click.option(*spelled, option.param, type=click.IntRange(schema["minimum"], schema["maximum"]),
                            default=schema["default"], show_default=True, help=option.help)
    choices = option.cli_choices()
    return click.option(*spelled, option.param, multiple=kind == "array",
                        type=click.Choice(choices) if choices else None, help=option.help)
