"""`git route push [REMOTE] [--meaning]`: publish the routing bundle (and the large one) to a remote, for CI."""
from __future__ import annotations

import click

from gitroute.cli.options import json_option, quiet_option
from gitroute.cli.output import emit_json


@click.command("push")
@click.argument("remote", default="origin")
@click.option("--meaning", is_flag=True,
              help="Also push refs/marola/routing-bundle-large, once checked against the bundle.")
@json_option
@quiet_option
def command(remote: str, meaning: bool, as_json: bool, quiet: bool) -> None:
    """Push refs/marola/routing-bundle to REMOTE (default origin), and with --meaning the large bundle.

    Forced: each bundle is a parentless commit. The large bundle is pushed only when it matches
    what the bundle records.
    """
    from gitroute import api

    moved = api.push(remote, meaning=meaning)
    if as_json:
        emit_json({"schema": 1, "remote": remote, "pushed": [{"ref": m.ref, "commit": m.commit} for m in moved]})
        return
    if not quiet:
        for m in moved:
            click.echo(f"pushed {m.ref} at {m.commit[:7]} to {remote}")
