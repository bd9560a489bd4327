"""The build memo: per-item results an earlier build of this repository computed, kept beside the bundle.

A one-file commit changes a few items (a file, a document) of indexes that are otherwise rebuilt
whole. Each index may keep, per item, its result under a key that names everything the result
depends on (a blob id, a path, and the digest of every lookup it made into tables built from other
files), so that a later build takes the result only when recomputing it would give the same one:
the bundle stays a pure function of the commit, byte for byte what `--full` writes.

The memo lives under `<common git dir>/gitroute/memo/`, where a fetch cannot write (as the record
of own bundles), never in the bundle. Its files are salted with the gitroute version and a digest of
gitroute's own source, so results made by other code are never taken. Each table is loaded and
saved by the one process that uses it (an index runs in a forked worker), keeping only the entries
this build used: the memo stays the size of one snapshot.
"""
from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import sys
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from gitroute.shards import shard_of

MEMO_DIR = os.path.join("gitroute", "memo")


# Packages whose version shapes what a build extracts (the grammars), beside gitroute's own source.
SALT_PACKAGES = ("tree_sitter", "tree_sitter_language_pack")


@lru_cache(maxsize=1)
def code_salt() -> str:
    """What the memo's results were computed by: gitroute's version and source, the grammars, Python."""
    from gitroute import __version__

    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    digest = hashlib.blake2b(digest_size=16)
    digest.update(f"{__version__} {sys.version_info[:3]} {marshal.version}".encode())
    for name in SALT_PACKAGES:
        digest.update(f" {_installed(name)}".encode())
    for folder, dirs, files in sorted(os.walk(package)):
        dirs.sort()
        for name in sorted(files):
            if name.endswith((".py", ".scm")):
                path = os.path.join(folder, name)
                digest.update(os.path.relpath(path, package).encode() + b"\0")
                with open(path, "rb") as f:
                    digest.update(f.read())
    return digest.hexdigest()


def _installed(package: str) -> str:
    """The `.dist-info` folder names of an installed package: its version, without importing it
    (importlib.metadata scans every distribution: tens of milliseconds)."""
    from importlib.util import find_spec

    try:
        spec = find_spec(package)
    except (ImportError, ValueError):
        spec = None
    if spec is None or not spec.origin:
        return f"{package} -"
    site = os.path.dirname(os.path.dirname(spec.origin))
    try:
        names = os.listdir(site)
    except OSError:
        names = []
    return " ".join(sorted(n for n in names if n.lower().startswith(package + "-") and n.endswith(".dist-info")))


def digest_values(values: list | tuple) -> bytes:
    """A digest of plain values (str, int, None, and tuples or lists of them): what a result looked up.

    marshal's format 2: from 3 on, a string's bytes say whether it was interned and an object's whether another
    reference to it was alive (a back-reference flag), so equal values made by two builds digested differently
    (decisions: 158 of django's 279 records looked changed to the rebuild after a full build)."""
    return hashlib.blake2b(marshal.dumps(values, 2), digest_size=16).digest()


def blob_id(data: bytes) -> str:
    """The id git stores a blob of this content under (SHA-1, as the writer's): what a memo records of a
    blob it may keep next time, and `IndexBuild.kept` hands back."""
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


BUCKETS = 64  # files per table: a one-file commit changes a few entries, and rewrites the buckets that hold them


def bucket_of(key: Any) -> int:
    return shard_of(key if isinstance(key, str) else marshal.dumps(key), BUCKETS)


class MemoTable:
    """One index's memo: key -> value, plain data only (what `marshal` writes).

    Stored as BUCKETS files by key hash and a head naming the generation of each (`<name>.table/head.marshal`,
    `<name>.table/NN.marshal`): a save rewrites the buckets whose entries changed, then the head; a bucket
    whose generation is not the head's (a save cut short) makes the whole table no memo at all, since
    entries may refer to each other (doc_links' documents to its facts)."""

    def __init__(self, path: str, salt: str, entries: dict, generations: dict[int, str] | None = None) -> None:
        self.path = path  # the table's folder
        self.salt = salt
        self.previous = entries
        self.generations = generations or {}  # bucket -> the generation the head names
        self.kept: dict = {}
        self.hits = 0
        self.changed = False  # a value put that the file does not already hold
        # Called first by `save`: a user may put what it prepared lazily (work left off a build's longest path).
        self.before_save: list[Callable[[], None]] = []

    def get(self, key: object) -> object | None:
        """The value an earlier build stored under `key`, or None."""
        value = self.previous.get(key)
        if value is not None:
            self.kept[key] = value
            self.hits += 1
        return value

    def peek(self, key: object) -> object | None:
        """The value an earlier build stored under `key`, without keeping it for the next build."""
        return self.previous.get(key)

    def put(self, key: object, value: object) -> None:
        if self.previous.get(key) is not value:
            self.changed = True
        self.kept[key] = value

    def save(self) -> None:
        """Write the buckets whose entries changed (each whole, then renamed), then the head: a reader sees
        the old table, the new one, or (cut short) none. A table this build took whole, adding nothing,
        is left as it is."""
        while self.before_save:
            self.before_save.pop(0)()
        previous, kept = self.previous, self.kept
        if not self.changed and len(kept) == len(previous):
            return
        dirty = {bucket_of(key) for key, value in kept.items() if previous.get(key) is not value}
        dirty.update(bucket_of(key) for key in previous.keys() - kept.keys())
        buckets: dict[int, dict] = {bucket: {} for bucket in dirty}
        for key, value in kept.items():
            entries = buckets.get(bucket_of(key))
            if entries is not None:
                entries[key] = value
        generation = os.urandom(8).hex()
        generations = dict(self.generations)
        try:
            os.makedirs(self.path, exist_ok=True)
            for bucket, entries in sorted(buckets.items()):
                if entries:
                    _write(os.path.join(self.path, f"{bucket:02d}.marshal"), (self.salt, generation, entries))
                    generations[bucket] = generation
                else:
                    generations.pop(bucket, None)
            _write(os.path.join(self.path, HEAD), (self.salt, generations))
            with contextlib.suppress(OSError):
                os.unlink(self.path.removesuffix(".table") + ".marshal")  # where a table was kept whole before
        except (OSError, ValueError):  # ValueError: a value marshal cannot write; the next build recomputes
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(self.path, HEAD))  # the buckets written may not match the head
        self.generations = generations


HEAD = "head.marshal"


def _write(path: str, value: Any) -> None:
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as f:
            marshal.dump(value, f)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def _read(path: str) -> Any:
    # One read, then loads: marshal.load on a file reads it a few bytes at a time (3 to 5 times slower).
    with open(path, "rb") as f:
        return marshal.loads(f.read())


class BuildMemo:
    """The memo tables of one build; `fresh` (a `--full` build) reads none, but writes them for the next."""

    def __init__(self, common_dir: str, *, fresh: bool = False, salt: str | None = None) -> None:
        self.folder = os.path.join(common_dir, MEMO_DIR)
        self.fresh = fresh
        self.salt = salt if salt is not None else code_salt()
        self.tables: dict[str, MemoTable] = {}

    def table(self, name: str) -> MemoTable:
        table = self.tables.get(name)
        if table is None:
            path = os.path.join(self.folder, f"{name}.table")
            entries, generations = ({}, {}) if self.fresh else self._load(path)
            table = self.tables[name] = MemoTable(path, self.salt, entries, generations)
        return table

    def _load(self, path: str) -> tuple[dict, dict[int, str]]:
        """A table's entries and its buckets' generations; an unreadable file, one other code wrote, or a
        bucket of another generation than the head's, is no memo at all."""
        entries: dict = {}
        try:
            salt, generations = _read(os.path.join(path, HEAD))
            if salt != self.salt or not isinstance(generations, dict):
                return {}, {}
            for bucket, generation in generations.items():
                salt, stored, part = _read(os.path.join(path, f"{bucket:02d}.marshal"))
                if salt != self.salt or stored != generation or not isinstance(part, dict):
                    return {}, {}
                entries.update(part)
        except (OSError, EOFError, ValueError, TypeError):
            return {}, {}
        return entries, generations

    def save(self) -> None:
        """Save every table this process used since the last save, and let go of them.

        Forked workers inherit the tables their parent had open: saved before the fork, none is left to
        be saved twice."""
        while self.tables:
            self.tables.popitem()[1].save()
