"""Writing a bundle: the previous bundle and its extraction cache, blobs, the tree, the commit, the swap.

A build hands the writer blobs by bundle path; the writer stores them (one pack through
`git fast-import`), builds the tree, commits it with a fixed identity and time, and moves the ref
in one compare-and-swap. Extraction results are sharded by blob id so that the next build reuses
them and a one-file change rewrites one shard.
"""
from __future__ import annotations

import json
import os
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

from gitroute import __version__, git
from gitroute.bundle.layout import (
    BUNDLE_REF,
    EXTRACTOR_VERSION,
    FORMAT_VERSION,
    INDEX_META,
    MANIFEST,
    bundle_message,
    dump_json,
    extract_path,
    load_json,
)
from gitroute.errors import BuildRaceLost


@dataclass
class Reused:
    """The previous bundle's extraction results for the keys still wanted, and its shards as they were."""

    results: dict[str, list] = field(default_factory=dict)
    shards: dict[str, tuple[str, frozenset[str]]] = field(default_factory=dict)  # path -> (blob id, keys)


@dataclass(frozen=True)
class Written:
    bundle_commit: str
    bundle_tree: str
    updated: bool  # False when the ref already held exactly this bundle


class BundleWriter:
    """One build's bundle, from the previous one to the ref swap."""

    def __init__(self, repo: git.Repository, ref: str = BUNDLE_REF) -> None:
        self.repo = repo
        self.ref = ref
        self.previous, self.previous_manifest = _load_previous(repo, ref)
        self.blobs: dict[str, bytes] = {}
        self.blob_ids: dict[str, str] = {}  # blobs already stored (by a worker, or kept from the previous bundle)

    def reuse_extractions(self, keys: set[str]) -> Reused:
        """What the previous bundle already extracted; damaged shards are skipped, so extracted again."""
        reused = Reused()
        if self.previous is None or self.previous_manifest is None:
            return reused
        previous: dict[str, list] = {}
        shard_paths = sorted({extract_path(k) for k in keys})
        for path, (blob_id, blob) in git.read_tree_entries(self.repo, self.previous, shard_paths).items():
            try:
                shard = load_json(blob)
                if not isinstance(shard, dict):
                    continue
                previous.update(shard)
            except (ValueError, TypeError):
                continue  # not trusted: its files are extracted again
            reused.shards[path] = (blob_id, frozenset(shard))
        reused.results = {k: previous[k] for k in keys if k in previous}
        return reused

    def add_extractions(self, keys: set[str], results: Mapping[str, list], reused: Reused, fresh: set[str]) -> None:
        """This build's extraction results, sharded by blob id: what the next build reuses.

        A shard the previous bundle holds byte for byte (the same keys, none extracted anew) is kept
        by id: a one-file change rewrites one shard.
        """
        shards: dict[str, dict[str, list]] = defaultdict(dict)
        for key in keys:
            shards[extract_path(key)][key] = results[key]
        for path, shard in shards.items():
            old = reused.shards.get(path)
            if old is not None and old[1] == shard.keys() and fresh.isdisjoint(shard):
                self.blob_ids[path] = old[0]
            else:
                self.blobs[path] = dump_json(shard)

    def add(self, blobs: Mapping[str, bytes], folder: str = "") -> None:
        prefix = folder + "/" if folder else ""
        self.blobs.update((prefix + path, data) for path, data in blobs.items())

    def add_stored(self, blob_ids: Mapping[str, str], folder: str = "") -> None:
        """Blobs another process already wrote to the object database, by path -> blob id."""
        prefix = folder + "/" if folder else ""
        self.blob_ids.update((prefix + path, oid) for path, oid in blob_ids.items())

    def add_index(self, name: str, section: dict) -> None:
        self.blobs[f"{name}/{INDEX_META}"] = dump_json(section)

    def finish(self, manifest: dict, source_commit: str, when: int) -> Written:
        """Store the blobs, write the tree and the commit, and swap the ref to it."""
        self.blobs[MANIFEST] = dump_json(manifest)
        ids = git.write_blobs(self.repo, self.blobs)
        ids.update(self.blob_ids)
        tree = git.write_tree(self.repo, ids)
        commit = git.write_commit(self.repo, tree, bundle_message(source_commit, __version__), when)
        return Written(commit, tree, _swap(self.repo, self.ref, commit, self.previous))

    def record_timing(self, bundle_commit: str, seconds: float) -> None:
        """How long the last build took lives beside the bundle, not in it: the bundle stays deterministic."""
        path = os.path.join(git.common_dir(self.repo), "gitroute", "last-build.json")
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            tmp = path + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump({"bundle_commit": bundle_commit, "seconds": round(seconds, 3)}, f)
            os.replace(tmp, path)
        except OSError:
            pass  # a missing timing is not worth failing a build for


def _load_previous(repo: git.Repository, ref: str) -> tuple[str | None, dict | None]:
    """The bundle commit the ref holds now, and its manifest when its extractions can be reused."""
    old = git.ref_target(repo, ref)
    if old is None:
        return None, None
    try:
        manifest = load_json(git.read_tree_blobs(repo, old, [MANIFEST]).get(MANIFEST, b"null"))
    except ValueError:
        return old, None
    if not isinstance(manifest, dict) or manifest.get("format_version") != FORMAT_VERSION:
        return old, None
    if manifest.get("extractor_version") != EXTRACTOR_VERSION or manifest.get("gitroute_version") != __version__:
        return old, None
    return old, manifest


def _swap(repo: git.Repository, ref: str, bundle_commit: str, old_commit: str | None) -> bool:
    """Move the ref to the new bundle; False when it already was that bundle."""
    if bundle_commit == old_commit:
        return False
    try:
        git.swap_ref(repo, ref, bundle_commit, old_commit)
    except BuildRaceLost:
        # Another build got there first; if it wrote this very bundle, there is nothing lost.
        if git.ref_target(repo, ref) != bundle_commit:
            raise
        return False
    return True
