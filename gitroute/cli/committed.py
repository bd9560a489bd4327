"""The shared half of the commands that keep a generated file committed (`doc-code`, `decisions`, `wiring`)."""
from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import click

from gitroute.cli.output import err, out, source_line
from gitroute.errors import ExitCode

# name -> how a hint tells the user to regenerate it
WRITE_COMMANDS = {"doc-code": "git route doc-code --write", "decisions": "git route decisions --write",
                  "wiring": "git route wiring --write FILE"}


def write_check_options(default_path: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """--write / --check / --force / --path / -q, as `doc-code` and `decisions` take them."""
    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed([
            click.option("--write", is_flag=True,
                         help="Write the file into the work tree (refuses to lose more than half its rows)."),
            click.option("--check", is_flag=True,
                         help="Exit 1 when the file committed at the bundle's commit is not what it produces."),
            click.option("--force", is_flag=True, help="With --write: write even when more than half the rows go."),
            click.option("--path", "path", metavar="P", type=click.Path(dir_okay=False),
                         help=f"The file (default: from .gitroute.toml, else {default_path})."),
            click.option("-q", "--quiet", is_flag=True, help="Print nothing when all is well."),
        ]):
            f = option(f)
        return f
    return decorate


def write_check_file_options(block: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """--write FILE / --check FILE / --force, for a command that keeps a block of a document (`wiring`).

    The command receives `write_file`, `check_file` and `force`, and runs
    `run_committed(NAME, path=write_file or check_file, write=bool(write_file), check=bool(check_file), ...)`.
    """
    begin = f"<!-- gitroute:{block}:begin -->"

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        for option in reversed([
            click.option("--write", "write_file", metavar="FILE", type=click.Path(dir_okay=False),
                         help=f"Write the Markdown tables between the {begin} and :end --> lines of FILE."),
            click.option("--check", "check_file", metavar="FILE", type=click.Path(dir_okay=False),
                         help="Exit 1 when FILE's block, as committed at the bundle's commit, is not current."),
            click.option("--force", is_flag=True, help="With --write: write even when more than half the rows go."),
        ]):
            f = option(f)
        return f
    return decorate


def repo_relative(path: str | None) -> str | None:
    """A path given on the command line is relative to the current folder, as in git; the library wants the top's."""
    if path is None:
        return None
    from gitroute.git.catfile import work_tree_top

    top = work_tree_top(".")
    return os.path.relpath(os.path.abspath(path), top).replace(os.sep, "/")


def run_committed(name: str, *, path: str | None, write: bool, check: bool, force: bool, quiet: bool) -> int:
    """Show, check or write the generated file `name`; returns the exit code.

    `path` is as the user typed it (relative to the current folder); None takes the configured default.
    The wiring command calls this as `run_committed("wiring", path=FILE, write=..., check=..., ...)`
    for its `--write FILE` / `--check FILE` options.
    """
    from gitroute import api
    from gitroute.committed import CheckReport, missing_submodules_hint

    if write and check:
        raise click.UsageError("--write and --check cannot go together")
    if force and not write:
        raise click.UsageError("--force goes with --write")
    action = "write" if write else "check" if check else "show"
    result = api.committed_file(name, path=repo_relative(path), action=action, force=force)
    source, report = result.source, result.report
    if source.stale_by or source.behind_by or (source.head and source.head != source.commit):
        err(f"warning: {source_line(source)}")
    if report is None:
        click.echo(result.rendering.content, nl=not result.rendering.content.endswith("\n"))
        return 0
    at = f"{source.branch}@{source.commit[:7]}" if source.branch else source.commit[:7]
    if isinstance(report, CheckReport):
        if not report.stale:
            if not quiet:
                out(f"{report.path} is up to date at {at} ({report.rows_expected} rows)")
            return 0
        what = {"missing": "is not committed", "no block": "has no gitroute block",
                "differs": "is stale"}[report.reason]
        out(f"{report.path} {what} at {at}: {report.rows_expected} rows expected, {report.rows_committed} committed "
            f"(+{report.lines_added} -{report.lines_removed} lines)")
        for line in report.diff:
            out(line)
        if report.diff_cut:
            out(f"... {report.diff_cut} more diff lines")
        if result.missing_submodules:
            err(f"hint: {missing_submodules_hint(result.missing_submodules)}")
        elif report.work_tree_current:
            err(f"hint: the work tree's '{report.path}' is already current: commit it")
        else:
            err(f"hint: run '{WRITE_COMMANDS[name]}' and commit the result")
        return int(ExitCode.CHECK_FAILED)
    if result.missing_submodules and report.written:
        err(f"warning: {missing_submodules_hint(result.missing_submodules)}")
    if report.forced:
        err(f"warning: --force: wrote {report.rows_after} rows where the committed file has {report.rows_before}")
    if not quiet:
        verb = "wrote" if report.written else "unchanged:"
        out(f"{verb} {report.path} ({report.rows_after} rows, {report.rows_before} before) for {at}")
    return 0
