"""The `git route` command line: the only place that imports click, writes output and picks exit codes."""
from __future__ import annotations

import importlib
import os
import sys

import click

from gitroute import __version__
from gitroute.errors import ExitCode, GitrouteError

# Command name -> module under gitroute.cli. Modules load lazily so that a query does not pay
# for importing the builder (pygit2, tree-sitter).
COMMANDS = {
    "build": "build",
    "query": "query",
    "status": "status",
    "bench": "bench",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        module_name = COMMANDS.get(name)
        if module_name is None:
            return None
        module = importlib.import_module(f"gitroute.cli.{module_name}")
        return getattr(module, "command")


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="git-route")
def cli() -> None:
    """Route questions about a repository to the files, symbols and docs that answer them.

    The index (the "bundle") is a git tree under refs/marola/routing-bundle, built from one
    pinned commit by 'git route build' and read straight from git's object storage.

    Use 'git route -h' for this help; 'git route --help' opens the man page.
    """


def main(argv: list[str] | None = None) -> None:
    """Entry point: one error boundary that turns library errors into git-style messages."""
    try:
        rv = cli.main(args=argv, prog_name="git route", standalone_mode=False)
    except GitrouteError as err:
        click.echo(f"fatal: {err.message}" if err.exit_code >= ExitCode.FATAL else f"error: {err.message}", err=True)
        if err.hint:
            click.echo(f"hint: {err.hint}", err=True)
        sys.exit(int(err.exit_code))
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("fatal: interrupted", err=True)
        sys.exit(int(ExitCode.INTERRUPTED))
    except KeyboardInterrupt:
        click.echo("fatal: interrupted", err=True)
        sys.exit(int(ExitCode.INTERRUPTED))
    except click.ClickException as exc:
        exc.show()
        sys.exit(int(ExitCode.USAGE) if isinstance(exc, click.UsageError) else 1)
    except BrokenPipeError:
        sys.exit(0)
    except Exception as exc:  # a bug: say so in one line, the traceback on request
        if os.environ.get("GITROUTE_DEBUG") == "1":
            raise
        click.echo(f"fatal: internal error: {type(exc).__name__}: {exc}", err=True)
        click.echo("hint: rerun with GITROUTE_DEBUG=1 for the traceback, and report it", err=True)
        sys.exit(int(ExitCode.INTERNAL))
    sys.exit(int(rv) if isinstance(rv, int) else 0)
