"""The click app: the `git route` group, its lazily loaded commands, and click's own errors."""
from __future__ import annotations

import importlib

import click

from gitroute import __version__
from gitroute.errors import ExitCode

# Command name -> module under gitroute.cli. Modules load lazily so that a query does not pay
# for importing the builder (pygit2, tree-sitter).
COMMANDS = {
    "build": "build",
    "query": "query",
    "status": "status",
    "bench": "bench",
    "why": "why",
    "lint": "lint",
    "doc-code": "doc_code",
    "decisions": "decisions",
    "hooks": "hooks",
    "hook": "hook",
    "impact": "impact",
    "wiring": "wiring",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        module_name = COMMANDS.get(name)
        if module_name is None:
            return None
        module = importlib.import_module(f"gitroute.cli.{module_name}")
        return module.command


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="git-route")
def cli() -> None:
    """Route questions about a repository to the files, symbols and docs that answer them.

    The index (the "bundle") is a git tree under refs/marola/routing-bundle, built from one
    pinned commit by 'git route build' and read straight from git's object storage.

    Use 'git route -h' for this help; 'git route --help' opens the man page.
    """


def run(args: list[str]) -> int:
    """Run the click app on `args`; returns the exit code. Library errors pass up to `cli.main`."""
    try:
        rv = cli.main(args=args, prog_name="git route", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("fatal: interrupted", err=True)
        return int(ExitCode.INTERRUPTED)
    except click.ClickException as exc:
        exc.show()
        return int(ExitCode.USAGE) if isinstance(exc, click.UsageError) else 1
    return int(rv) if isinstance(rv, int) else 0
