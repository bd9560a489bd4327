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
from array import array
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from gitroute.shards import shard_count, shard_of

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


BUCKETS = 64  # the most files a table is kept in: a one-file commit rewrites the buckets that hold its entries
# Bytes a bucket file holds, about: a table is kept in as many buckets (a power of two, at most BUCKETS) as this many
# bytes each take. A small repository's tables are one file each (jansson's 8 tables were 328 files, each written and
# renamed, ~8 % of its build); django's largest keep 64, as before.
BUCKET_BYTES = 128 * 1024


def bucket_of(key: Any, buckets: int = BUCKETS) -> int:
    """The bucket of `key` among `buckets` (a power of two up to BUCKETS: bucket b of n holds the BUCKETS-buckets
    congruent to b modulo n, so a table's keys regroup without hashing again)."""
    return shard_of(key if isinstance(key, str) else marshal.dumps(key), BUCKETS) % buckets


def bucket_count(size: int) -> int:
    """How many buckets a table of `size` bytes is kept in."""
    return shard_count(size, BUCKET_BYTES, BUCKETS)


def fits(buckets: int, size: int) -> bool:
    """Whether a table kept in `buckets` may stay so at `size` bytes: between a quarter of BUCKET_BYTES and twice
    it a bucket (a table near a bound does not change its layout back and forth from one commit to the next)."""
    each = size / buckets
    return (buckets == BUCKETS or each <= 2 * BUCKET_BYTES) and (buckets == 1 or each >= BUCKET_BYTES / 4)


class MemoTable:
    """One index's memo: key -> value, plain data only (what `marshal` writes).

    Stored as buckets by key hash, as many as its size asks (`bucket_count`), and a head naming the bucket count and
    the generation of each (`<name>.table/head.marshal`, `<name>.table/NN.marshal`): a save rewrites the buckets
    whose entries changed, then the head; a bucket whose generation is not the head's (a save cut short) makes the
    whole table no memo at all, since entries may refer to each other (doc_links' documents to its facts)."""

    def __init__(self, path: str, salt: str, entries: dict, generations: dict[int, str] | None = None,
                 buckets: int | None = None, sizes: dict[int, int] | None = None) -> None:
        self.path = path  # the table's folder
        self.salt = salt
        self.previous = entries
        self.generations = generations or {}  # bucket -> the generation the head names
        self.buckets = buckets  # how many buckets the files hold the table in; None: no table read
        self.sizes = sizes or {}  # bucket -> its file's bytes, as read
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
        is left as it is. A table that outgrew its bucket count, or shrank below it, is written again whole in
        the count its size asks (`fits`)."""
        while self.before_save:
            self.before_save.pop(0)()
        previous, kept = self.previous, self.kept
        if not self.changed and len(kept) == len(previous):
            return
        generation = os.urandom(8).hex()
        # Each key's bucket among BUCKETS, hashed once: a table's bucket among fewer is that modulo their count (a byte
        # a key: the kernel's tables hold millions of keys, and a save is where a build's memory peaks).
        codes = array("B", map(bucket_of, kept))
        buckets = self.buckets if self.buckets is not None else _guess_buckets(self.path, self.salt)
        if buckets is None:
            buckets = self._estimated_buckets(codes)
        if self.buckets is None:
            dirty = set(range(buckets))  # no table read: every bucket is this build's (no key hashed to say so)
        else:
            dirty = {code % buckets for (key, value), code in zip(kept.items(), codes)
                     if previous.get(key) is not value}
            dirty.update(bucket_of(key, buckets) for key in previous.keys() - kept.keys())
        written: dict[int, int] = {}
        try:
            os.makedirs(self.path, exist_ok=True)
            written = self._written(buckets, dirty, generation, codes)
            size = sum(size for bucket, size in self.sizes.items() if bucket not in dirty and bucket < buckets)
            size += sum(written.values())
            if not fits(buckets, size):  # written whole again, in the count its size asks
                self._discard(written)
                buckets = bucket_count(size)
                written = self._written(buckets, set(range(buckets)), generation, codes)
            generations = {} if buckets != self.buckets else dict(self.generations)
            sizes = {} if buckets != self.buckets else dict(self.sizes)
            for bucket, length in sorted(written.items()):
                if length:
                    os.replace(self._pending(bucket), os.path.join(self.path, f"{bucket:02d}.marshal"))
                    generations[bucket], sizes[bucket] = generation, length
                else:
                    generations.pop(bucket, None)
                    sizes.pop(bucket, None)
            written = {}
            _write(os.path.join(self.path, HEAD), (self.salt, generations, buckets))
            if buckets != self.buckets:
                _remove_other_buckets(self.path, generations)
            with contextlib.suppress(OSError):
                os.unlink(self.path.removesuffix(".table") + ".marshal")  # where a table was kept whole before
        except (OSError, ValueError):  # ValueError: a value marshal cannot write; the next build recomputes
            self._discard(written)
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(self.path, HEAD))  # the buckets written may not match the head
            return
        self.generations, self.sizes, self.buckets = generations, sizes, buckets

    def _estimated_buckets(self, codes: Sequence[int]) -> int:
        """The bucket count of a table no build wrote before, from the size of the eighth of its entries that bucket 0
        of 8 holds: its entries are then encoded once, not in one bucket and again in as many as their size asks
        (a first build's tables: 50 MB of marshal on django). A table whose few large entries the eighth misses is
        written again whole in the count its size asks (`save`)."""
        sample = {key: value for (key, value), code in zip(self.kept.items(), codes) if code % 8 == 0}
        return bucket_count(8 * len(marshal.dumps(sample))) if sample else 1

    def _written(self, buckets: int, dirty: set[int], generation: str, codes: Sequence[int]) -> dict[int, int]:
        """Bucket -> its file's bytes (0 for a bucket left empty), for each bucket of `dirty` among `buckets`, each
        encoded and written to its pending file (`_pending`) in turn: one bucket's bytes held at a time, not the
        table's (the Linux kernel's graph table is hundreds of megabytes)."""
        parts: dict[int, dict] = {bucket: {} for bucket in dirty}
        for (key, value), code in zip(self.kept.items(), codes):
            entries = parts.get(code % buckets)
            if entries is not None:
                entries[key] = value
        written: dict[int, int] = {}
        try:
            for bucket in sorted(parts):
                written[bucket] = 0  # a pending file to remove, should writing it fail
                written[bucket] = self._write_pending(bucket, parts.pop(bucket), generation)
        except BaseException:
            self._discard(written)
            raise
        return written

    def _write_pending(self, bucket: int, entries: dict, generation: str) -> int:
        """Write a bucket's file where the save renames it from (none for a bucket left empty); its bytes."""
        if not entries:
            return 0
        encoded = marshal.dumps((self.salt, generation, entries))
        with open(self._pending(bucket), "wb") as f:
            f.write(encoded)
        return len(encoded)

    def _pending(self, bucket: int) -> str:
        """Where a bucket's file is written before the save renames it into place."""
        return os.path.join(self.path, f"{bucket:02d}.marshal.{os.getpid()}.tmp")

    def _discard(self, written: dict[int, int]) -> None:
        """Remove the pending files of `written` (`_written`), not renamed into place."""
        for bucket in written:
            with contextlib.suppress(OSError):
                os.unlink(self._pending(bucket))


def _guess_buckets(path: str, salt: str) -> int | None:
    """The bucket count of the table an earlier build wrote at `path` (a `--full` build reads no entries, and is
    likely the same size), else None."""
    with contextlib.suppress(OSError, EOFError, ValueError, TypeError):
        head = _read(os.path.join(path, HEAD))
        if isinstance(head, tuple) and len(head) == 3 and head[0] == salt and head[2] in _COUNTS:
            return head[2]
    return None


_COUNTS = frozenset(1 << n for n in range(BUCKETS.bit_length()))  # the bucket counts a head may name


def _remove_other_buckets(path: str, generations: dict[int, str]) -> None:
    """Remove the bucket files of `path` that the head does not name (an earlier layout's; a save cut short may
    leave some: a reader goes by the head)."""
    with contextlib.suppress(OSError):
        for name in os.listdir(path):
            stem, dot, ext = name.partition(".")
            if ext == "marshal" and stem.isdigit() and int(stem) not in generations:
                with contextlib.suppress(OSError):
                    os.unlink(os.path.join(path, name))


HEAD = "head.marshal"


def _write(path: str, value: Any) -> None:
    _write_bytes(path, marshal.dumps(value))


def _write_bytes(path: str, data: bytes) -> None:
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "wb") as f:
            f.write(data)
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
            table = self.tables[name] = MemoTable(path, self.salt, {}) if self.fresh else self._load(path)
        return table

    def _load(self, path: str) -> MemoTable:
        """A table as its files hold it; an unreadable file, one other code wrote, or a bucket of another generation
        than the head's, is no memo at all."""
        entries: dict = {}
        sizes: dict[int, int] = {}
        try:
            salt, generations, buckets = _read(os.path.join(path, HEAD))
            if salt != self.salt or not isinstance(generations, dict) or buckets not in _COUNTS:
                return MemoTable(path, self.salt, {})
            for bucket, generation in generations.items():
                if not isinstance(bucket, int) or not 0 <= bucket < buckets:
                    return MemoTable(path, self.salt, {})
                with open(os.path.join(path, f"{bucket:02d}.marshal"), "rb") as f:
                    data = f.read()
                salt, stored, part = marshal.loads(data)
                if salt != self.salt or stored != generation or not isinstance(part, dict):
                    return MemoTable(path, self.salt, {})
                entries.update(part)
                sizes[bucket] = len(data)
        except (OSError, EOFError, ValueError, TypeError):
            return MemoTable(path, self.salt, {})
        return MemoTable(path, self.salt, entries, generations, buckets, sizes)

    def save(self) -> None:
        """Save every table this process used since the last save, and let go of them.

        Forked workers inherit the tables their parent had open: saved before the fork, none is left to
        be saved twice."""
        while self.tables:
            self.tables.popitem()[1].save()
