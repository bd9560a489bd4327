"""Writing a bundle: the previous bundle and its extraction cache, blobs, the tree, the commit, the swap.

A build hands the writer blobs by bundle path; the writer stores them (one pack through
`git fast-import`), builds the tree, commits it with a fixed identity and time, and moves the ref
in one compare-and-swap. Extraction results are not in the bundle: the extraction cache beside the build memo
keeps them, sharded by blob id, so that the next build reuses them and a one-file change rewrites one file.
"""
from __future__ import annotations

import json
import os
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from gitroute import __version__
from gitroute.bundle.extracts import ExtractCache, packed_result
from gitroute.bundle.layout import (
    BUNDLE_LARGE_REF,
    BUNDLE_REF,
    FORMAT_VERSION,
    MANIFEST,
    bundle_message,
    dump_json,
    extract_path,
    load_json,
)
from gitroute.bundle.provenance import is_own_bundle, remember_own_bundle
from gitroute.bundle.spill import Spill, Spot
from gitroute.bundle.store import BLOB_MODES, parse_tree
from gitroute.bundle.validate import BadValue, check_bundle_commit, check_id_length, check_manifest
from gitroute.errors import BuildRaceLost
from gitroute.git import repository as git


@dataclass
class Reused:
    """Earlier extraction results for the keys still wanted, decoded from the extraction cache (`decoded`);
    `results` and `shards` stay empty since the bundle holds no extraction results (docs/decisions/0025)."""

    results: dict[str, list] = field(default_factory=dict)
    shards: dict[str, tuple[str, frozenset[str]]] = field(default_factory=dict)  # path -> (blob id, keys)
    decoded: dict[str, tuple] = field(default_factory=dict)  # key -> decoded result (bundle/extracts.py)
    # key -> its bytes in the cache, for the shards whose keys changed: what their cache files are written from
    packed: dict[str, bytes] = field(default_factory=dict)


class StoredBlobs(dict):
    """Path -> blob id of every blob of the bundle the ref holds. Untrusted as to what a build should
    write; a proof that a blob is stored, and a way to read one by the id a memo recorded (its content
    is then what that id names, whoever wrote the bundle)."""

    def __init__(self, ids: Mapping[str, str], git_dir: str) -> None:
        super().__init__(ids)
        self.git_dir = git_dir
        self._opened: tuple[int, git.Repository] | None = None  # (pid, handle): a forked worker opens its own

    def read(self, path: str, blob_id: str) -> bytes | None:
        """The blob at `path` when it is `blob_id`, else None."""
        if self.get(path) != blob_id:
            return None
        if self._opened is None or self._opened[0] != os.getpid():
            self._opened = (os.getpid(), git.open_git_dir(self.git_dir))
        found = git.read_object(self._opened[1], blob_id)
        return found[1] if found is not None and found[0] == "blob" else None


@dataclass(frozen=True)
class Written:
    bundle_commit: str
    bundle_tree: str
    updated: bool  # False when the ref already held exactly this bundle


class BundleWriter:
    """One build's bundle, from the previous one to the ref swap."""

    def __init__(self, repo: git.Repository, ref: str = BUNDLE_REF, *, full: bool = False,
                 extractor_version: int | None = None) -> None:
        """`extractor_version`: what extraction produces now (`gitroute.parsing.EXTRACTOR_VERSION`); the previous
        bundle's extractions are reused only when they were made by the same (never, when None)."""
        self.repo = repo
        self.ref = ref
        self.full = full
        previous = _load_previous(repo, ref, full, extractor_version)
        self.previous, self.previous_manifest = previous.commit, previous.manifest
        self.notes = previous.notes(ref)  # about the build itself: a damaged bundle replaced
        self.blobs: dict[str, bytes] = {}
        self.blob_ids: dict[str, str] = {}  # blobs already stored (by a worker, or kept from the previous bundle)
        self.large: dict[str, bytes] | None = None  # blobs for the large ref, when an index made any
        self.cache = ExtractCache(git.common_dir(repo), fresh=full)
        self._stored: StoredBlobs | None = None

    def reuse_extractions(self, keys: set[str], code: Callable[[bytes], tuple] | None = None) -> Reused:
        """What earlier builds of this repository already extracted: the extraction cache's decoded results
        (`bundle/extracts.py`, beside the build memo; a code file's, `code` of its bytes when given). The bundle
        holds no extraction results: they were a third of its packed size, and a build may reuse only its own (a
        fetched bundle's could be planted)."""
        reused = Reused()
        wanted: dict[str, set[str]] = defaultdict(set)
        for key in keys:
            wanted[extract_path(key)].add(key)
        cached, reused.packed = self.cache.load(sorted(wanted), keep=lambda path, held: held != wanted[path],
                                              code=code)
        reused.decoded = {k: cached[k] for k in keys if k in cached}
        return reused

    def previous_blobs(self) -> StoredBlobs:
        """Path -> blob id of every blob of the bundle the ref holds (none for `--full`): which blobs are stored."""
        if self._stored is None:
            ids = {} if self.previous is None or self.full else git.list_tree_blobs(self.repo, self.previous)
            self._stored = StoredBlobs(ids, self.repo.path)
        return self._stored

    def extract_shards(self, keys: set[str], reused: Reused, decoded: Mapping[str, tuple], fresh: set[str],
                       spill: Spill) -> ExtractShards:
        """This build's extraction results, sharded by blob id, for the extraction cache (what the next build
        reuses; nothing goes into the bundle): each shard's cache file written as soon as every key of it is at
        hand (`ExtractShards.add`)."""
        return ExtractShards(self, keys, reused, decoded, fresh, spill)

    def add(self, blobs: Mapping[str, bytes], folder: str = "") -> None:
        prefix = folder + "/" if folder else ""
        self.blobs.update((prefix + path, data) for path, data in blobs.items())

    def add_stored(self, blob_ids: Mapping[str, str], folder: str = "") -> None:
        """Blobs another process already wrote to the object database, by path -> blob id."""
        prefix = folder + "/" if folder else ""
        self.blob_ids.update((prefix + path, oid) for path, oid in blob_ids.items())

    def stage_large(self, blobs: Mapping[str, bytes]) -> None:
        """Blobs for `refs/marola/routing-bundle-large` (a model and its vectors): written by `finish`."""
        self.large = {**(self.large or {}), **blobs}  # the static and the contextual model each add theirs

    def finish(self, manifest: dict, source_commit: str, when: int) -> Written:
        """Store the blobs, write the tree and the commit, and swap the ref to it.

        With large blobs staged, they become a parentless commit of their own first, the manifest
        records its tree and commit, and the large ref moves after the main one.
        """
        large = None
        if self.large is not None:
            large = write_large_commit(self.repo, self.large, source_commit, when)
            manifest = {**manifest, "large": {"ref": BUNDLE_LARGE_REF, "commit": large[0], "tree": large[1]}}
        self.blobs[MANIFEST] = dump_json(manifest)
        ids = git.write_blobs(self.repo, self.blobs)
        ids.update(self.blob_ids)
        tree = git.write_tree(self.repo, ids)
        commit = git.write_commit(self.repo, tree, bundle_message(source_commit, __version__), when)
        written = Written(commit, tree, _swap(self.repo, self.ref, commit, self.previous))
        if large is not None:
            old = git.ref_target(self.repo, BUNDLE_LARGE_REF)
            if old != large[0]:
                git.swap_ref(self.repo, BUNDLE_LARGE_REF, large[0], old)
        return written

    def record_timing(self, bundle_commit: str, seconds: float, phases: Mapping[str, float] | None = None) -> None:
        """How long the last build took lives beside the bundle, not in it: the bundle stays deterministic.

        The phases (each index's own seconds among them) let the next build start its longest jobs first.
        """
        try:
            os.makedirs(os.path.dirname(self._timing_path()), exist_ok=True)
            tmp = self._timing_path() + ".tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                json.dump({"bundle_commit": bundle_commit, "seconds": round(seconds, 3),
                           "phases": dict(phases or {})}, f)
            os.replace(tmp, self._timing_path())
        except OSError:
            pass  # a missing timing is not worth failing a build for

    def previous_phases(self) -> dict[str, float]:
        """The last build's seconds per phase, {} when unknown: a scheduling hint, never part of the bundle."""
        try:
            with open(self._timing_path(), encoding="utf-8") as f:
                phases = json.load(f).get("phases", {})
        except (OSError, ValueError, AttributeError):
            return {}
        if not isinstance(phases, dict):
            return {}
        return {k: float(v) for k, v in phases.items() if isinstance(k, str) and isinstance(v, (int, float))}

    def _timing_path(self) -> str:
        return os.path.join(git.common_dir(self.repo), "gitroute", "last-build.json")


class ExtractShards:
    """One build's extraction shards, for the extraction cache. A shard holding the same keys as the cache's file,
    none extracted anew, is left as it is: a one-file change rewrites one file. Any other is written once every key
    of it is at hand: results extracted anew arrive as where their `packed_result` is set aside (`add`)."""

    def __init__(self, writer: BundleWriter, keys: set[str], reused: Reused, decoded: Mapping[str, tuple],
                 fresh: set[str], spill: Spill) -> None:
        self.cache, self.reused, self.decoded, self.spill = writer.cache, reused, decoded, spill
        self.shards: dict[str, list[str]] = defaultdict(list)
        for key in sorted(keys):
            self.shards[extract_path(key)].append(key)
        self.waiting = {path: sum(key in fresh for key in shard) for path, shard in self.shards.items()}
        self.packed: dict[str, Spot] = {}  # key extracted anew -> where its `packed_result` is

    def start(self) -> None:
        """Write every shard none of whose keys is to be extracted, unless the cache holds it as it is."""
        for path, waiting in self.waiting.items():
            if not waiting and not self.cache.unchanged(path, self.shards[path]):
                self._write(path)

    def add(self, key: str, packed: Spot) -> None:
        """A result extracted anew: where its `packed_result` is."""
        path = extract_path(key)
        self.packed[key] = packed
        self.waiting[path] -= 1
        if not self.waiting[path]:
            self._write(path)

    def _write(self, path: str) -> None:
        keys = self.shards[path]
        self.cache.write(path, {key: self._packed(key) for key in keys})
        for key in keys:
            self.packed.pop(key, None)

    def _packed(self, key: str) -> bytes:
        fresh = self.packed.get(key)
        if fresh is not None:
            return self.spill.get(fresh)
        stored = self.reused.packed.get(key)
        return stored if stored is not None else packed_result(self.decoded[key])


def write_large_commit(repo: git.Repository, blobs: Mapping[str, bytes], source_commit: str,
                       when: int) -> tuple[str, str]:
    """(commit, tree) of the large bundle: parentless, fixed identity and time, the main bundle's trailers.

    The same blobs give the same tree id, and the same source commit the same commit id.
    """
    ids = git.write_blobs(repo, blobs)
    tree = git.write_tree(repo, ids)
    return git.write_commit(repo, tree, bundle_message(source_commit, __version__), when), tree


@dataclass
class _Previous:
    """The bundle the ref holds before this build: what the swap expects to replace, and what may be reused."""

    commit: str | None = None  # whatever the ref holds, damaged or not: the compare-and-swap's old value
    manifest: dict | None = None  # set only when its extractions may be reused
    damage: str | None = None  # why the bundle is damaged, when it is

    def notes(self, ref: str) -> list[str]:
        if self.damage is None:
            return []
        return [f"the bundle at '{ref}' is damaged ({self.damage}); building a fresh one"]


def _load_previous(repo: git.Repository, ref: str, full: bool = False,
                   extractor_version: int | None = None) -> _Previous:
    """The bundle commit the ref holds now, and its manifest when its extractions can be reused.

    A bundle is untrusted input: its extractions are reused only when this repository's own
    builds wrote it (a fetched one may hold planted results), and a damaged one counts as absent.
    """
    old = git.ref_target(repo, ref)
    if old is None:
        return _Previous()
    try:
        manifest = _read_previous_manifest(repo, old)
    except BadValue as err:
        return _Previous(old, damage=str(err))
    if full or manifest is None or not is_own_bundle(git.common_dir(repo), old):
        return _Previous(old)
    if manifest.get("format_version") != FORMAT_VERSION:
        return _Previous(old)
    if extractor_version is None or manifest.get("extractor_version") != extractor_version \
            or manifest.get("gitroute_version") != __version__:
        return _Previous(old)
    return _Previous(old, manifest)


def _read_previous_manifest(repo: git.Repository, old: str) -> dict | None:
    """The manifest of the bundle commit `old`; None for a bundle of another format; BadValue when damaged."""
    obj = git.read_object(repo, old)
    if obj is None:
        raise BadValue("it points at a missing object")
    if obj[0] != "commit":
        raise BadValue(f"it points at a {obj[0]}, not a commit")
    version, _, tree_id = check_bundle_commit(obj[1], check_id_length(old))
    if version != FORMAT_VERSION:
        return None  # not damaged: written by another gitroute, and replaced like any other
    tree = git.read_object(repo, tree_id)
    if tree is None or tree[0] != "tree":
        raise BadValue("its tree is missing")
    entry = parse_tree(tree[1], len(old)).get(MANIFEST)
    manifest_id = entry[1] if entry is not None and entry[0] in BLOB_MODES else None
    blob = git.read_object(repo, manifest_id) if manifest_id else None
    if blob is None or blob[0] != "blob":
        raise BadValue(f"'{MANIFEST}' is missing")
    try:
        return check_manifest(load_json(blob[1]))
    except ValueError as err:  # BadValue is a ValueError too, and says more
        raise BadValue(str(err) if isinstance(err, BadValue) else f"'{MANIFEST}' is unreadable") from err


def _swap(repo: git.Repository, ref: str, bundle_commit: str, old_commit: str | None) -> bool:
    """Move the ref to the new bundle, and record it as this repository's own; False when it already was it.

    Recorded even when unchanged: a bundle byte-identical to what this build made is this build's.
    """
    moved = bundle_commit != old_commit
    if moved:
        try:
            git.swap_ref(repo, ref, bundle_commit, old_commit)
        except BuildRaceLost:
            # Another build got there first; if it wrote this very bundle, there is nothing lost.
            if git.ref_target(repo, ref) != bundle_commit:
                raise
            moved = False
    remember_own_bundle(git.common_dir(repo), bundle_commit)
    return moved
