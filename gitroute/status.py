"""`git route status`: what the bundle answers from, how stale it is, what it holds and what it skipped."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field

from gitroute.bundle.store import BLOB_MODES, BundleView, mode_name
from gitroute.config import FROM_COMMAND_LINE, FROM_COMMITTED, FROM_DEFAULT
from gitroute.errors import BundleDamaged
from gitroute.git.catfile import run_git
from gitroute.model import Source

# Skip reasons of a per-file limit: what `status` lists by path.
LIMIT_REASONS = ("too-large", "minified", "parse-limit")


@dataclass(frozen=True)
class StatusReport:
    source: Source
    bundle_commit: str
    gitroute_version: str
    counts: dict
    bundle_bytes: int
    bundle_blobs: int
    skipped_by_reason: dict[str, int]
    missing: list = field(default_factory=list)  # paths whose blobs the object store lacks (a partial clone)
    submodules: list = field(default_factory=list)
    last_build_seconds: float | None = None
    calls: str = ""
    warnings: list = field(default_factory=list)  # [path, warning], the first MAX_REPORTED_WARNINGS
    warnings_total: int = 0
    indexes: dict = field(default_factory=dict)  # index name -> its counts, in build order
    limits: dict = field(default_factory=dict)  # the per-file limits the build applied (config.Config.limits)
    over_limits: list = field(default_factory=list)  # [path, reason] of the files a per-file limit skipped


def read_status(cwd: str) -> StatusReport:
    with BundleView(cwd) as view:
        manifest = view.manifest
        sizes = _blob_sizes(view, cwd)
        return StatusReport(
            source=view.source,
            bundle_commit=view.commit,
            gitroute_version=manifest.get("gitroute_version", "?"),
            counts=manifest.get("counts", {}),
            bundle_bytes=sum(sizes),
            bundle_blobs=len(sizes),
            skipped_by_reason=manifest.get("skipped_by_reason", {}),
            missing=[entry[0] for entry in manifest.get("skipped", [])
                     if isinstance(entry, list) and len(entry) == 2 and entry[1] == "missing"],
            submodules=manifest.get("submodules", []),
            last_build_seconds=_last_build_seconds(cwd, view.commit),
            calls=manifest.get("calls", ""),
            warnings=manifest.get("warnings", []),
            warnings_total=manifest.get("warnings_total", 0),
            indexes={name: section.get("counts", {}) for name, section in manifest.get("indexes", {}).items()
                     if isinstance(section, dict)},
            limits=_limits(manifest.get("limits")),
            over_limits=[entry for entry in manifest.get("skipped", [])
                         if isinstance(entry, list) and len(entry) == 2 and entry[1] in LIMIT_REASONS],
        )


def _blob_sizes(view: BundleView, cwd: str) -> list[int]:
    """The size of every blob of the bundle's tree; an entry that is no blob or folder (a gitlink, a symbolic
    link), or a tree git cannot list (an object missing), is a damaged bundle."""
    listing = run_git(["ls-tree", "-r", "-l", "-z", "--full-tree", "--end-of-options", view.commit], cwd)
    if listing.returncode != 0:
        raise BundleDamaged(view.ref, "one of its trees is missing")
    sizes = []
    for line in listing.stdout.split(b"\0"):
        if not line.strip():
            continue
        mode, kind, _oid, size = line.split(b"\t", 1)[0].split()
        if kind != b"blob" or mode not in BLOB_MODES:
            name = line.split(b"\t", 1)[1].decode("utf-8", "replace")
            raise BundleDamaged(view.ref, f"'{name}' is a {mode_name(mode)}, not a blob")
        sizes.append(int(size))
    return sizes


def _limits(value: object) -> dict:
    """The manifest's limits, kept only where each value has its type (a fetched bundle is untrusted)."""
    limit = value.get("max_file_bytes") if isinstance(value, dict) else None
    if not isinstance(limit, dict):
        return {}
    kept = {key: limit[key] for key in ("value", "ceiling", "asked")
            if isinstance(limit.get(key), int) and not isinstance(limit.get(key), bool)}
    if limit.get("from") in (FROM_DEFAULT, FROM_COMMITTED, FROM_COMMAND_LINE) and "value" in kept:
        return {"max_file_bytes": {**kept, "from": limit["from"]}}
    return {}


def _last_build_seconds(cwd: str, bundle_commit: str) -> float | None:
    result = run_git(["rev-parse", "--git-common-dir"], cwd)
    if result.returncode != 0:
        return None
    common = os.path.join(cwd, result.stdout.decode().strip())
    try:
        with open(os.path.join(common, "gitroute", "last-build.json"), encoding="utf-8") as f:
            record = json.load(f)
    except (OSError, ValueError):
        return None
    return record.get("seconds") if record.get("bundle_commit") == bundle_commit else None
