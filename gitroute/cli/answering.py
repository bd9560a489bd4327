"""The command of an index that has a spec (`gitroute.specs.COMMANDS`) and no module of its own here: its
arguments and options as the spec says, its rows printed as `query` prints them (or as `--json`)."""
from __future__ import annotations

import click

from gitroute.cli.options import spec_options
from gitroute.cli.output import emit_answer
from gitroute.specs import CLI_FLAGS, Command


def spec_command(spec: Command) -> click.Command:
    """A click command made from `spec` alone: `git route NAME TEXT [OPTIONS]` answers from its index."""
    argument = spec.argument[0]
    shown = {o.param for o in CLI_FLAGS} | {"limit"}

    @click.command(spec.name, help=f"{spec.what[:1].upper()}{spec.what[1:]} (from the {spec.index} index).")
    @click.argument(argument, nargs=-1, required=spec.text_required)
    @spec_options(spec.name)
    def command(**params: object) -> None:
        from gitroute import api

        words = params.pop(argument)
        options: dict = {k: tuple(v) if isinstance(v, (list, tuple)) else v for k, v in params.items()
                         if k not in shown}
        explain = bool(params["explain"])
        answer = api.ask_command(spec.name, " ".join(words), limit=params["limit"], explain=explain,  # type: ignore[arg-type]
                                 **options)
        emit_answer(answer, as_json=bool(params["as_json"]), explain=explain, quiet=bool(params["quiet"]))

    return command
