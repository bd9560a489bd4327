"""Click options shared by several commands."""
from __future__ import annotations

import click

from gitroute.cli.fast import DEFAULT_LIMIT, LIMIT_RANGE

json_option = click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout (for agents).")
explain_option = click.option("--explain", is_flag=True, help="Show each signal's contribution to a row's score.")
quiet_option = click.option("-q", "--quiet", is_flag=True,
                            help="Hide the summary, progress and notes; results and errors still show.")


def limit_option(help_text: str = "Rows at most."):  # -> a click decorator
    """-n/--limit, bounded alike for every command that ranks rows (the fast query path parses the same range)."""
    return click.option("--limit", "-n", type=click.IntRange(*LIMIT_RANGE), default=DEFAULT_LIMIT, show_default=True,
                        help=help_text)
