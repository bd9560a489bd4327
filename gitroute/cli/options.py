"""Click options shared by several commands."""
from __future__ import annotations

import click

json_option = click.option("--json", "as_json", is_flag=True, help="One JSON document on stdout (for agents).")
explain_option = click.option("--explain", is_flag=True, help="Show each signal's contribution to a row's score.")
quiet_option = click.option("-q", "--quiet", is_flag=True,
                            help="Hide the summary, progress and notes; results and errors still show.")
