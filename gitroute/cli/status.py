"""`git route status`: the bundle's source, staleness, contents and skips."""
from __future__ import annotations

import click

from gitroute.cli.options import json_option
from gitroute.cli.output import emit_json, quote_path, source_json, source_line

MAX_MISSING_SHOWN = 20  # text shows the first few; --json lists them all


@click.command("status")
@json_option
def command(as_json: bool) -> None:
    """Show what the bundle answers from, how far behind HEAD it is, and what it holds."""
    from gitroute import api

    s = api.status()
    large, large_detail = api.large_status()
    contextual = api.contextual_status()
    if as_json:
        emit_json({
            "schema": 1,
            "source": source_json(s.source),
            "bundle": {"commit": s.bundle_commit, "bytes": s.bundle_bytes, "blobs": s.bundle_blobs},
            "gitroute_version": s.gitroute_version,
            "counts": s.counts,
            "skipped": s.skipped_by_reason,
            "missing": s.missing,
            "submodules": s.submodules,
            "last_build_seconds": s.last_build_seconds,
            "warnings": {"total": s.warnings_total, "first": s.warnings},
            "indexes": s.indexes,
            "limits": s.limits,
            "over_limits": s.over_limits,
            "large": {"state": large, "detail": large_detail},
            "contextual_model": contextual,
        })
        return
    click.echo(source_line(s.source))
    size = f"{s.bundle_blobs} blobs, {s.bundle_bytes / 1e6:.1f} MB"
    click.echo(f"bundle: {s.source.ref} at {s.bundle_commit[:7]} ({size}), "
               f"gitroute {s.gitroute_version}")
    click.echo(f"stale: {stale_text(s.source.stale_by, s.source.behind_by)}")
    counts = s.counts
    click.echo(f"files: {counts.get('files', 0)}")
    click.echo("nodes: " + ", ".join(f"{n} {k}" for k, n in counts.get("nodes", {}).items()))
    click.echo("edges: " + ", ".join(f"{n} {k}" for k, n in counts.get("edges", {}).items()) + f" ({s.calls})")
    for name, index_counts in s.indexes.items():
        click.echo(f"index {name}: " + (", ".join(f"{n} {k}" for k, n in index_counts.items()) or "empty"))
    click.echo(f"large bundle: {large} ({large_detail})")
    if contextual:
        click.echo(f"contextual model: {contextual['model']}, sha256 {contextual['sha256']}, "
                   f"{contextual['vectors']} nodes with vectors")
    click.echo("skipped: " + (", ".join(f"{n} {k}" for k, n in s.skipped_by_reason.items()) or "none"))
    if s.limits:
        click.echo(f"limits: {limits_text(s.limits)}")
    for path, reason in s.over_limits[:MAX_MISSING_SHOWN]:  # what a per-file limit kept out of the indexes
        click.echo(f"  {reason}: {quote_path(path)}")
    if len(s.over_limits) > MAX_MISSING_SHOWN:
        click.echo(f"  ... and {len(s.over_limits) - MAX_MISSING_SHOWN} more over a limit (all in --json)")
    for path in s.missing[:MAX_MISSING_SHOWN]:  # a partial clone: what the build could not read
        click.echo(f"  missing: {quote_path(path)}")
    if len(s.missing) > MAX_MISSING_SHOWN:
        click.echo(f"  ... and {len(s.missing) - MAX_MISSING_SHOWN} more missing (all in --json)")
    for sub in s.submodules:
        missing = "" if sub["present"] else " (not present: skipped)"
        click.echo(f"submodule: {quote_path(sub['path'])} at {sub['commit'][:7]}{missing}")
    if s.warnings_total:
        shown = f" (the first {len(s.warnings)})" if len(s.warnings) < s.warnings_total else ""
        click.echo(f"warnings: {s.warnings_total}{shown}")
        for path, warning in s.warnings:
            click.echo(f"  {quote_path(path)}: {warning}")
    if s.last_build_seconds is not None:
        click.echo(f"last build: {s.last_build_seconds:.2f} s")


def limits_text(limits: dict) -> str:
    """The per-file size limit and where it came from: `2097152 bytes per file (.gitroute.toml sets 67108864: …)`."""
    limit = limits["max_file_bytes"]
    where = limit["from"]
    if "asked" in limit:
        where = (f"{where} sets {limit['asked']}: clamped to the safety ceiling; "
                 f"'git route build --max-file-bytes N' goes past it")
    elif where == "default" and "ceiling" in limit:
        where = f"default; a committed .gitroute.toml may set up to {limit['ceiling']}"
    return f"max_file_bytes {limit['value']} ({where})"


def stale_text(stale_by: int | None, behind_by: int | None) -> str:
    """How the bundle's commit and HEAD differ, both ways (as the answer header says it)."""
    if stale_by is None:
        return "unknown (git cannot compare HEAD with the bundle's commit)"
    parts = []
    if stale_by:
        parts.append(f"{_commits(stale_by)} behind HEAD")
    if behind_by:
        parts.append(f"HEAD lacks {_commits(behind_by)} the bundle has")
    return "; ".join(parts) or "no"


def _commits(n: int) -> str:
    return f"{n} commit{'s' if n != 1 else ''}"
