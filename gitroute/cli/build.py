"""`git route build [REV]`: index one pinned commit into the routing bundle."""
from __future__ import annotations

import os
import re
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager

import click

from gitroute.cli.options import json_option, quiet_option
from gitroute.cli.output import emit_json, err, progress_printer
from gitroute.errors import ExitCode

# The last build's large structures, never freed: `cli.main` exits without freeing them object by object.
HELD: list = []


class _Size(click.ParamType):
    """A size in bytes, as git's config writes one: 1048576, 512k, 8m, 1g (also 8MiB, 8MB: powers of 1024)."""

    name = "SIZE"
    _UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    _FORM = re.compile(r"(\d{1,15})\s*(?:([kmg])(?:i?b)?|b)?", re.IGNORECASE)

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        match = self._FORM.fullmatch(str(value).strip())
        if match is None or int(match.group(1)) < 1:
            self.fail(f"'{value}' is not a size of at least 1 byte (1048576, 512k, 8m, 1g)", param, ctx)
        return int(match.group(1)) * self._UNITS[(match.group(2) or "").lower()]


@click.command("build")
@click.argument("rev", default="HEAD")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), help="Parser processes (default: every core).")
@click.option("--full", is_flag=True, help="Extract every file again; reuse nothing from earlier bundles.")
@click.option("--no-fetch", "no_fetch", is_flag=True,
              help="In a partial clone, do not fetch missing blobs; skip them as 'missing'.")
@click.option("--max-file-bytes", type=_Size(),
              help="Skip files larger than SIZE (1048576, 512k, 8m). Unlike '.gitroute.toml', which is held to "
                   "2m, any size.")
@click.option("--meaning-model", metavar="DIR", type=click.Path(file_okay=False),
              help="A local static embedding model (model.safetensors, tokenizer.json, config.json): its vectors "
                   "go to refs/marola/routing-bundle-large.")
@click.option("--meaning-dtype", type=click.Choice(["float16", "int8"]), default="float16", show_default=True,
              help="How the node vectors are stored.")
@click.option("--meaning-answer", type=click.Choice(["bm25", "embedding", "hybrid"]), default="bm25",
              show_default=True, help="Which candidate answers --meaning ('git route bench --meaning-rule' decides).")
@json_option
@quiet_option
def command(rev: str, jobs: int | None, full: bool, no_fetch: bool, max_file_bytes: int | None,
            meaning_model: str | None, meaning_dtype: str, meaning_answer: str, as_json: bool, quiet: bool) -> None:
    """Build the routing bundle for REV (default HEAD) under refs/marola/routing-bundle.

    Reads the commit's blobs from the object database only (never the work tree), reuses every
    extraction whose blob did not change (only from bundles this repository's own builds wrote,
    never from a fetched one), and moves the ref in one compare-and-swap.
    """
    from gitroute import api

    if meaning_model is None and (meaning_answer != "bm25" or meaning_dtype != "float16"):
        raise click.UsageError("--meaning-answer and --meaning-dtype need --meaning-model DIR")
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
    click.echo(f"{verb} {report.ref} at {report.bundle_commit[:7]} for {report.source_commit[:7]} "
               f"in {report.seconds:.2f} s")
    click.echo(f"files: {report.files_read} read, {report.parsed} parsed, {report.reused} reused; skipped: {skipped}")
    click.echo("nodes: " + ", ".join(f"{n} {k}" for k, n in report.nodes.items()))
    click.echo("edges: " + (", ".join(f"{n} {k}" for k, n in report.edges.items()) or "none")
               + " (calls resolved by scope, imports, package, unique name; a lower bound)")
    if report.warnings:
        click.echo(f"warnings: {report.warnings} (see 'git route status')")


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
