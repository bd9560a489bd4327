"""`git route lint [REV]`: decision-record lines that record a decision without the Decided marker."""
from __future__ import annotations

import sys

import click

from gitroute.cli.output import out


@click.command("lint")
@click.argument("rev", default="HEAD")
def command(rev: str) -> None:
    """Flag lines of the decision records at REV (default HEAD) that say something was decided
    without the `**Decided YYYY-MM-DD:**` marker: one `path:line: text` per line, exit 1 when any.

    Records are read from the commit, as a build reads them; commit a fix, then lint again.
    """
    from gitroute import api

    problems = api.lint(rev)
    for path, line, text in problems:
        out(f"{path}:{line}: decided without '**Decided YYYY-MM-DD:**': {text}")
    if problems:
        sys.exit(1)
