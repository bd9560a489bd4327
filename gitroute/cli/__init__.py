"""The `git route` command line: the only place that writes output, reads the environment and picks exit codes.

This entry module imports no click: a plain `git route query` is answered by `cli.fast` in a
process that never loads click (a sixth of a cold query's time), and a plain `git route build` (what hooks run)
by `cli.building`; every other command line, and any the fast paths do not recognise to the letter, goes to the
click app in `cli.app`.
"""
from __future__ import annotations

import gc
import os
import sys

from gitroute.errors import ExitCode, GitrouteError

SCHEMA = 1


def wants_json(args: list[str]) -> bool:
    """True when the command line asks for JSON: `--json` before any `--` (after it, it is a word)."""
    for arg in args:
        if arg == "--":
            return False
        if arg == "--json":
            return True
    return False


def report_error(err: GitrouteError, *, as_json: bool = False) -> int:
    """git-style `fatal:`/`error:` then `hint:` on stderr (and the JSON error document on stdout); the exit code."""
    code = int(err.exit_code)
    # git's words: `error:` for a usage error (129) and a failed check, `fatal:` for the rest and for a bug
    prefix = "error" if code == ExitCode.USAGE or code < ExitCode.INTERNAL else "fatal"
    from gitroute.cli.output import one_line  # a user's argument or a path may hold a newline or an escape

    sys.stderr.write(f"{prefix}: {one_line(err.message)}\n")
    if err.hint:
        sys.stderr.write(f"hint: {one_line(err.hint)}\n")
    if as_json:
        emit_error_json(code, err.message, err.hint)
    return code


def emit_error_json(code: int, message: str, hint: str | None) -> None:
    """An error as the one JSON document on stdout, so that an agent never has to parse stderr."""
    import json

    document = {"schema": SCHEMA, "status": "error", "error": {"exit": code, "message": message, "hint": hint}}
    sys.stdout.write(json.dumps(document, ensure_ascii=False, indent=2) + "\n")


# What the OS says when the machine, not gitroute, stops a write: never an internal error.
_WRITE_ERRNOS = {"EACCES", "EPERM", "EROFS", "ENOSPC", "EDQUOT"}


def report_exception(exc: Exception, *, as_json: bool) -> int:
    """An exception no layer turned into a GitrouteError: a read-only folder or a full disk met by a write
    outside the places that name their file is a fatal naming it; anything else is a bug (exit 3)."""
    import errno

    name = errno.errorcode.get(exc.errno or 0) if isinstance(exc, OSError) else None
    if isinstance(exc, OSError) and exc.filename and name in _WRITE_ERRNOS:
        from gitroute.errors import cannot_write

        verb = "access" if name in ("EACCES", "EPERM") else "write"  # a permission may stop a read too
        return report_error(cannot_write(str(exc.filename), exc.strerror or str(exc), verb=verb), as_json=as_json)
    if os.environ.get("GITROUTE_DEBUG") == "1":
        import traceback

        traceback.print_exc()  # and still the exit code of a bug, not 1 ("a check failed")
    bug = GitrouteError(f"internal error: {type(exc).__name__}: {exc}",
                        hint="rerun with GITROUTE_DEBUG=1 for the traceback, and report it")
    bug.exit_code = ExitCode.INTERNAL
    return report_error(bug, as_json=as_json)


def main(argv: list[str] | None = None) -> None:
    """Entry point of `git-route`: one error boundary for both paths."""
    args = sys.argv[1:] if argv is None else list(argv)
    as_json = wants_json(args)
    # As the real process, a one-shot answer is the process's last act: the cyclic collector is paused from the
    # start (the imports and the answer make containers that refcounting frees and no cycle holds; each
    # collection walks them all) and the process leaves its memory to the OS below, rather than free it object
    # by object and collect once more at exit. Anything else (a build, the click app, the MCP server) gets the
    # collector back before it starts.
    one_shot = argv is None and gc.isenabled()
    if one_shot:
        gc.disable()
    try:
        from gitroute.cli.fast import answer_fast

        code = answer_fast(args)
        if code is None and one_shot:
            one_shot = False
            gc.enable()
        if code is None and args[:1] == ["build"]:  # a plain build (what hooks run) without click, too
            from gitroute.cli.building import build_fast

            code = build_fast(args[1:])
        if code is None:
            from gitroute.cli.app import run

            code = run(args)
    except GitrouteError as err:
        code = report_error(err, as_json=as_json)
    except KeyboardInterrupt:
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C (git forwards one) must not cut this short
        sys.stderr.write("fatal: interrupted\n")
        code = int(ExitCode.INTERRUPTED)
    except BrokenPipeError:
        code = 0
    except Exception as exc:  # a bug: one line, and the traceback on request
        code = report_exception(exc, as_json=as_json)
    build = sys.modules.get("gitroute.cli.building")
    if one_shot or (argv is None and build is not None and build.HELD):
        # This process answered or ran a build and exits now: leave its memory to the OS rather than free
        # millions of objects one by one (a build: a tenth of a second and more; a cold answer: 3-9 ms of django's
        # 55-70). Only as the real process: a test calls main().
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        finally:
            os._exit(code)
    sys.exit(code)
