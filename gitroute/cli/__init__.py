"""The `git route` command line: the only place that writes output, reads the environment and picks exit codes.

This entry module imports no click: a plain `git route query` is answered by `cli.fast` in a
process that never loads click (a sixth of a cold query's time); every other command line, and
any query the fast path does not recognise to the letter, goes to the click app in `cli.app`.
"""
from __future__ import annotations

import os
import sys

from gitroute.errors import ExitCode, GitrouteError


def report_error(err: GitrouteError) -> int:
    """git-style `fatal:`/`error:` then `hint:` on stderr; returns the exit code."""
    prefix = "fatal" if err.exit_code >= ExitCode.FATAL else "error"
    sys.stderr.write(f"{prefix}: {err.message}\n")
    if err.hint:
        sys.stderr.write(f"hint: {err.hint}\n")
    return int(err.exit_code)


def main(argv: list[str] | None = None) -> None:
    """Entry point of `git-route`: one error boundary for both paths."""
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        from gitroute.cli.fast import answer_fast

        code = answer_fast(args)
        if code is None:
            from gitroute.cli.app import run

            code = run(args)
    except GitrouteError as err:
        code = report_error(err)
    except KeyboardInterrupt:
        import signal

        signal.signal(signal.SIGINT, signal.SIG_IGN)  # a second Ctrl-C (git forwards one) must not cut this short
        sys.stderr.write("fatal: interrupted\n")
        code = int(ExitCode.INTERRUPTED)
    except BrokenPipeError:
        code = 0
    except Exception as exc:  # a bug: one line, and the traceback on request
        if os.environ.get("GITROUTE_DEBUG") == "1":
            raise
        sys.stderr.write(f"fatal: internal error: {type(exc).__name__}: {exc}\n")
        sys.stderr.write("hint: rerun with GITROUTE_DEBUG=1 for the traceback, and report it\n")
        code = int(ExitCode.INTERNAL)
    sys.exit(code)
