"""What `git route build` does once its command line is read, and the click-free reading of a plain one.

A build is the command a hook runs after every commit, checkout and merge: the click app (click, and the inspect,
typing and other modules it imports) costs each one about 0.02 s of CPU, a tenth of a small repository's
one-file rebuild. `parse_build_args` accepts only the command lines a hook or a person types (`build [-q] [--json]
[--full] [--no-fetch] [-j N] [REV]`); anything else (help, a size, a model, a bad value, `--`) returns None, and
the click command in `cli/build.py` parses it and says what is wrong. Both paths run `run_build_command`.
"""
from __future__ import annotations

import os
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from gitroute.cli.output import emit_json, err, out, progress_printer
from gitroute.errors import ExitCode

# The last build's large structures, never freed: `cli.main` exits without freeing them object by object.
HELD: list = []

JOBS_RANGE = (1, 64)  # -j/--jobs, as the click option bounds it
_FLAGS = {"--full": "full", "--no-fetch": "no_fetch", "--json": "as_json", "-q": "quiet", "--quiet": "quiet"}


def parse_build_args(args: list[str]) -> dict | None:
    """The build's parameters from the words after `build`, or None when click should read this command line."""
    found: dict = {"rev": "HEAD", "jobs": None, "full": False, "no_fetch": False, "as_json": False, "quiet": False}
    revs = 0
    words = iter(args)
    for word in words:
        if word in _FLAGS:
            found[_FLAGS[word]] = True
            continue
        if word in ("-j", "--jobs"):
            value = next(words, None)
        elif word.startswith("--jobs="):
            value = word[len("--jobs="):]
        elif word.startswith("-j") and word[2:].isdigit():
            value = word[2:]
        elif not word.startswith("-") and revs == 0:
            found["rev"], revs = word, 1
            continue
        else:
            return None
        if value is None or not value.isascii() or not value.isdigit() or not (
                JOBS_RANGE[0] <= int(value) <= JOBS_RANGE[1]):
            return None
        found["jobs"] = int(value)
    return found


def build_fast(args: list[str]) -> int | None:
    """`git route build` from the words after `build`, without click; None when click should read them."""
    found = parse_build_args(args)
    if found is None:
        return None
    run_build_command(**found)
    return 0


def run_build_command(rev: str = "HEAD", jobs: int | None = None, full: bool = False, no_fetch: bool = False,
                      max_file_bytes: int | None = None, meaning_model: str | None = None,
                      meaning_dtype: str = "float16", meaning_answer: str = "bm25", as_json: bool = False,
                      quiet: bool = False) -> None:
    """Build, then print the report (text, or the JSON document); errors pass up as GitrouteErrors."""
    from gitroute import api
    from gitroute import build as build_module

    build_module.MEMORY_LOG = os.environ.get("GITROUTE_MEMLOG") or None
    with _interrupted_once():
        report = api.build(rev, jobs=jobs, full=full, progress=None if quiet or as_json else progress_printer(),
                           fetch=not no_fetch, meaning_model=meaning_model, meaning_dtype=meaning_dtype,
                           meaning_answer=meaning_answer, keep=HELD, max_file_bytes=max_file_bytes)
    for note in report.notes:  # even with -q: a replaced bundle is worth a line
        err(f"warning: {note}")
    if as_json:
        emit_json({
            "schema": 1,
            "status": "built" if report.updated else "unchanged",
            "ref": report.ref,
            "source": {"commit": report.source_commit, "tree": report.source_tree},
            "bundle": {"commit": report.bundle_commit, "tree": report.bundle_tree},
            "files": {"read": report.files_read, "parsed": report.parsed, "reused": report.reused,
                      "skipped": dict(sorted(report.skipped.items()))},
            "nodes": report.nodes,
            "edges": report.edges,
            "warnings": report.warnings,
            "seconds": round(report.seconds, 3),
            "phases": report.phases,
            "limits": report.limits,
            "notes": report.notes,
        })
        return
    if quiet:
        return
    verb = "built" if report.updated else "unchanged"
    skipped = ", ".join(f"{n} {reason}" for reason, n in sorted(report.skipped.items())) or "none"
    out(f"{verb} {report.ref} at {report.bundle_commit[:7]} for {report.source_commit[:7]} in {report.seconds:.2f} s")
    out(f"files: {report.files_read} read, {report.parsed} parsed, {report.reused} reused; skipped: {skipped}")
    out("nodes: " + ", ".join(f"{n} {k}" for k, n in report.nodes.items()))
    out("edges: " + (", ".join(f"{n} {k}" for k, n in report.edges.items()) or "none")
        + " (calls resolved by scope, imports, package, unique name; a lower bound)")
    if report.warnings:
        out(f"warnings: {report.warnings} (see 'git route status')")


def _take_interrupt(signum: int, frame: object) -> None:
    # Ctrl-C arrives twice (the terminal signals the group and git's wrapper forwards it): the
    # first stops the build, the second must not interrupt the cleanup that the first started.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


@contextmanager
def _interrupted_once() -> Iterator[None]:
    """SIGINT stops the build once; after that it is ignored until the process exits."""
    try:
        previous = signal.signal(signal.SIGINT, _take_interrupt)
    except ValueError:  # not the main thread: signals are not ours to handle
        yield
        return
    try:
        yield
    except KeyboardInterrupt:
        # run_build has terminated the workers. What is left are ProcessPoolExecutor's own threads,
        # which can wait forever on the queue of workers that are gone and would hold the exit up
        # (interpreter shutdown joins them): leave now, as git does on a signal.
        sys.stdout.flush()
        sys.stderr.write("fatal: interrupted\n")
        sys.stderr.flush()
        os._exit(int(ExitCode.INTERRUPTED))
    finally:
        signal.signal(signal.SIGINT, previous)
