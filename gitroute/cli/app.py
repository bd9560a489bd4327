"""The click app: the `git route` group, its lazily loaded commands, and click's own errors."""
from __future__ import annotations

import importlib

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
    "docs": "docs",
    "code": "code",
    "why": "why",
    "lint": "lint",
    "doc-code": "doc_code",
    "decisions": "decisions",
    "hooks": "hooks",
    "hook": "hook",
    "fetch": "fetch",
    "push": "push",
    "impact": "impact",
    "wiring": "wiring",
    "ask": "ask",
    "mcp": "mcp",
    "model": "model",
}


class LazyGroup(click.Group):
    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*COMMANDS, *(c.name for c in _spec_commands())})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        module_name = COMMANDS.get(name)
        if module_name is None:
            # An index's command with a spec and no module of its own: made from the spec.
            spec = next((c for c in _spec_commands() if c.name == name), None)
            if spec is None:
                return None
            from gitroute.cli.answering import spec_command

            return spec_command(spec)
        module = importlib.import_module(f"gitroute.cli.{module_name}")
        return module.command


def _spec_commands() -> list:
    """The answering commands whose index the registry holds (`gitroute.specs`)."""
    from gitroute.registry import INDEXES
    from gitroute.specs import available_commands

    return available_commands(INDEXES)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="git-route")
def cli() -> None:
    """Route questions about a repository to the files, symbols and docs that answer them.

    The index (the "bundle") is a git tree under refs/marola/routing-bundle, built from one
    pinned commit by 'git route build' and read straight from git's object storage.

    Use 'git route -h' for this help; 'git route --help' opens the man page.
    """


class CommandLineError(GitrouteError):
    """A command line click cannot parse: one git-style `error:` line, the usage as its hint, exit 129."""

    exit_code = ExitCode.USAGE


def run(args: list[str]) -> int:
    """Run the click app on `args`; returns the exit code. Errors pass up to `cli.main`, click's as GitrouteErrors."""
    try:
        rv = cli.main(args=args, prog_name="git route", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.exceptions.Abort:
        click.echo("fatal: interrupted", err=True)
        return int(ExitCode.INTERRUPTED)
    except click.UsageError as exc:
        raise CommandLineError(_one_line(exc.format_message()), hint=_usage_hint(exc.ctx or _context_of(args))) from exc
    except click.ClickException as exc:
        raise GitrouteError(_one_line(exc.format_message())) from exc
    return int(rv) if isinstance(rv, int) else 0


def _one_line(message: str) -> str:
    """click's sentence as git words it: one line, lowercase first word (not an acronym), no full stop."""
    line = " ".join(message.split()).rstrip(".")
    if line[:1].isupper() and not line[1:2].isupper():
        line = line[0].lower() + line[1:]
    return line


def _context_of(args: list[str]) -> click.Context:
    """The context of the command `args` name, for its usage line (click's parser errors carry none)."""
    top = click.Context(cli, info_name="git route")
    name = args[0] if args else ""
    command = cli.get_command(top, name)
    return click.Context(command, info_name=name, parent=top) if command is not None else top


def _usage_hint(ctx: click.Context) -> str:
    usage = " ".join(ctx.get_usage().split())
    usage = usage[0].lower() + usage[1:] if usage else usage
    return f"{usage}; see '{ctx.command_path} -h'"
