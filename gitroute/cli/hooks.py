"""`git route hooks install|uninstall`: put gitroute's post-merge and post-checkout hooks in place, or take them out."""
from __future__ import annotations

import click

from gitroute.cli.output import out

hooks_path_option = click.option(
    "--hooks-path", is_flag=True,
    help="Write into the folder core.hooksPath names, which is refused by default.")

ACTIONS = {
    "installed": "installed {path}",
    "updated": "updated {path}",
    "chained": "installed {path}; the hook that was there runs first, as {path}.legacy",
    "removed": "removed {path}",
    "restored": "removed gitroute's {path}; the hook that was there before is back",
    "not ours": "left {path} alone: gitroute did not write it",
    "absent": "no {hook} hook to remove",
}


@click.group("hooks")
def command() -> None:
    """Install or uninstall the hooks that keep the bundle and DOC-CODE.md fresh.

    post-merge rebuilds the bundle after a pull or merge (detached when the last build was long);
    post-checkout and post-merge run pointer-sync, which regenerates DOC-CODE.md when submodule
    pointers move. A hook that was already there is kept as <hook>.legacy and still runs first.
    """


@command.command("install")
@hooks_path_option
def install(hooks_path: bool) -> None:
    """Write the post-merge and post-checkout hooks into the repository's hooks folder."""
    from gitroute import hooks

    for step in hooks.install(".", hooks_path=hooks_path):
        out(ACTIONS[step.action].format(path=step.path, hook=step.hook))


@command.command("uninstall")
@hooks_path_option
def uninstall(hooks_path: bool) -> None:
    """Remove gitroute's hooks and restore the hooks they chained."""
    from gitroute import hooks

    for step in hooks.uninstall(".", hooks_path=hooks_path):
        out(ACTIONS[step.action].format(path=step.path, hook=step.hook))
