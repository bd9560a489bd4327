"""`git route build [REV]`: index one pinned commit into the routing bundle."""
from __future__ import annotations

import click

from gitroute.cli.options import json_option, quiet_option
from gitroute.cli.output import emit_json, progress_printer


@click.command("build")
@click.argument("rev", default="HEAD")
@click.option("-j", "--jobs", type=click.IntRange(1, 64), help="Parser processes (default: every core).")
@click.option("--full", is_flag=True, help="Extract every file again; reuse nothing from earlier bundles.")
@json_option
@quiet_option
def command(rev: str, jobs: int | None, full: bool, as_json: bool, quiet: bool) -> None:
    """Build the routing bundle for REV (default HEAD) under refs/marola/routing-bundle.

    Reads the commit's blobs from the object database only (never the work tree), reuses every
    extraction whose blob did not change (only from bundles this repository's own builds wrote,
    never from a fetched one), and moves the ref in one compare-and-swap.
    """
    from gitroute import api

    report = api.build(rev, jobs=jobs, full=full, progress=None if quiet or as_json else progress_printer())
    for note in report.notes:  # even with -q: a replaced bundle is worth a line
        click.echo(f"warning: {note}", err=True)
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
               + " (calls resolved by name: a lower bound)")
    if report.warnings:
        click.echo(f"warnings: {report.warnings} (see 'git route status')")
