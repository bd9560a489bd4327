"""`git route hook NAME [ARGS]`: what the installed git hooks run. Quiet, never interactive (stdin is not read).

post-merge never fails the git command: any problem is one `warning:` line and exit 0. So does
pointer-sync run as a hook (with git's arguments, or pre-commit's in its environment); run with none, as
CI runs it, it is a command: `error:`/`fatal:` and a hint, and exit 1 when the shrink guard refuses.
"""
from __future__ import annotations

import os
from collections.abc import Callable

import click

from gitroute.cli.output import err
from gitroute.errors import ExitCode, GitrouteError


@click.command("hook", context_settings={"ignore_unknown_options": True})
@click.argument("name", type=click.Choice(["post-merge", "pointer-sync"]))
@click.argument("hook_args", nargs=-1, type=click.UNPROCESSED)
@click.option("--force", is_flag=True, help="pointer-sync: write DOC-CODE.md even when more than half its rows go.")
@click.pass_context
def command(ctx: click.Context, name: str, hook_args: tuple[str, ...], force: bool) -> None:
    """Run a hook's work: NAME is post-merge or pointer-sync; ARGS are the git hook's own arguments.

    post-merge rebuilds the bundle for HEAD after a merge or pull, in the background (log under
    <git dir>/gitroute/post-merge.log) when the last build took long. pointer-sync, when submodule
    pointers moved (or always, run with no ARGS as CI does), rebuilds and regenerates DOC-CODE.md
    behind the shrink guard, leaving the change to commit.
    """
    if name == "post-merge":
        ctx.exit(post_merge())
    args = hook_args or args_from_pre_commit()
    ctx.exit(pointer_sync(args, force) if not args else as_hook("pointer-sync", lambda: pointer_sync(args, force)))


def args_from_pre_commit() -> tuple[str, ...]:
    """pre-commit runs post-* hooks with git's arguments in its environment, not on the command line."""
    env = os.environ
    if "PRE_COMMIT_CHECKOUT_TYPE" in env:
        return env.get("PRE_COMMIT_FROM_REF", ""), env.get("PRE_COMMIT_TO_REF", ""), env["PRE_COMMIT_CHECKOUT_TYPE"]
    if "PRE_COMMIT_IS_SQUASH_MERGE" in env:
        return (env["PRE_COMMIT_IS_SQUASH_MERGE"],)
    return ()


def post_merge() -> int:
    from gitroute import api

    return as_hook("post-merge", api.hook_post_merge)


def as_hook(name: str, run: Callable[[], object]) -> int:
    """Run a hook's work so that it never fails the git command: any problem is one `warning:` line, exit 0."""
    try:
        run()
    except GitrouteError as error:
        err(f"warning: gitroute {name}: {error.message}")
    except Exception as error:  # a bug must not fail the merge either
        err(f"warning: gitroute {name}: internal error: {type(error).__name__}: {error}")
    return 0


def pointer_sync(hook_args: tuple[str, ...], force: bool) -> int:
    from gitroute import api
    from gitroute.committed import WriteReport

    try:
        sync = api.hook_pointer_sync(hook_args, force=force)
    except GitrouteError as error:
        if hook_args:  # as a hook: `as_hook` makes it one warning line
            raise
        # named as the hook's, so that it reads well among git's own output
        err(f"{'fatal' if error.exit_code >= ExitCode.FATAL else 'error'}: gitroute pointer-sync: {error.message}")
        if error.hint:
            err(f"hint: {error.hint}")
        return int(error.exit_code)
    report = sync.result.report if sync.result else None
    if isinstance(report, WriteReport) and report.written:
        moved = ", ".join(sync.moved) or "none"
        err(f"gitroute pointer-sync: submodule pointers moved ({moved}); regenerated '{report.path}' "
            f"({report.rows_after} rows, {report.rows_before} before): commit it")
    return 0
