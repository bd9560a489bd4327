"""`git route decisions`: the committed table of decisions and alternatives (DECISIONS.md)."""
from __future__ import annotations

import click

from gitroute.cli.committed import run_committed, write_check_options


@click.command("decisions")
@write_check_options("docs/DECISIONS.md")
@click.pass_context
def command(ctx: click.Context, write: bool, check: bool, force: bool, path: str | None, quiet: bool) -> None:
    """Print, --write or --check the decision table (DECISIONS.md) of the bundle's commit.

    --check compares with the file as that commit holds it (not the work tree) and exits 1 when it
    differs, saying what changed. --write refuses, exit 1 and nothing written, when the table would
    have fewer than half the rows of the committed one; --force is for a person who has looked.
    """
    ctx.exit(run_committed("decisions", path=path, write=write, check=check, force=force, quiet=quiet))
