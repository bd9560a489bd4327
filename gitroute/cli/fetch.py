"""`git route fetch [REMOTE] [--meaning]`: bring the routing bundle (and the large one) from a remote, checked."""
from __future__ import annotations

import click

from gitroute.cli.options import json_option, quiet_option
from gitroute.cli.output import emit_json


@click.command("fetch")
@click.argument("remote", default="origin")
@click.option("--meaning", is_flag=True,
              help="Also fetch refs/marola/routing-bundle-large (the embedding model and vectors).")
@json_option
@quiet_option
def command(remote: str, meaning: bool, as_json: bool, quiet: bool) -> None:
    """Fetch refs/marola/routing-bundle from REMOTE (default origin), and with --meaning the large bundle.

    The fetched bundle is checked before any ref moves (its format and manifest; the large bundle's
    tree and every blob's sha256 against what the bundle records); a mismatch is refused and the
    previous refs are kept.
    """
    from gitroute import api

    moved = api.fetch(remote, meaning=meaning)
    if as_json:
        emit_json({"schema": 1, "remote": remote,
                   "fetched": [{"ref": m.ref, "commit": m.commit, "previous": m.previous} for m in moved]})
        return
    if quiet:
        return
    for m in moved:
        change = "unchanged" if m.previous == m.commit else f"was {m.previous[:7]}" if m.previous else "new"
        click.echo(f"fetched {m.ref} at {m.commit[:7]} from {remote} ({change})")
