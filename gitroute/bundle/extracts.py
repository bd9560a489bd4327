"""The extraction cache beside the bundle: every blob's extraction, decoded, by shard of blob ids in as many files as
the commit's size asks.

The bundle holds no extraction results (they were a third of its packed size: docs/decisions/0025): a rebuild
takes them from here. The cache keeps the decoded results as plain tuples (`marshal`, which reads them about twice
as fast as JSON) and makes the model's tuples from them without a Python call per object. Its files are under the
build memo's folder (where a fetch cannot write: the build's own, as the memo), salted like the memo; a file whose
shards' keys are unchanged, none extracted anew, is not written again (`ExtractCache`).

A result is kept as the bytes `packed_result` makes, which extraction's workers hand the build too: a file's
calls and references stay marshal's bytes inside it (`PackedRefs`) until the graph resolves that file. They are
most of a result's objects, and a build holds every result at once (the kernel's: millions of calls).
"""
from __future__ import annotations

import contextlib
import marshal
import os
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping, Set
from functools import partial

from gitroute.bundle.memo import MEMO_DIR, code_salt
from gitroute.model import Binding, Block, Document, FileExtract, NameRef, Symbol, Token
from gitroute.shards import shard_count

TYPE_CHECKING = False
if TYPE_CHECKING:
    from gitroute.bundle.spill import Spill, Spot

CACHE_DIR = os.path.join(MEMO_DIR, "extract")

# A decoded result: ("code", FileExtract), ("doc", Document), ("text",) or ("skip", reason).
_new = tuple.__new__
_symbol, _ref, _binding, _token = (partial(_new, cls) for cls in (Symbol, NameRef, Binding, Token))


class PackedRefs:
    """A file's calls or references as marshal's bytes of their plain tuples, unpacked each time they are read
    (once per build: when the graph resolves the file, or a shard is encoded): as calls, plain (source, name,
    line, receiver) tuples; as references, `NameRef`s."""

    __slots__ = ("data", "named")

    def __init__(self, data: bytes, named: bool) -> None:
        self.data = data
        self.named = named

    def rows(self) -> tuple[tuple, ...]:
        return marshal.loads(self.data)

    def __iter__(self) -> Iterator[tuple]:
        rows = self.rows()
        return map(_ref, rows) if self.named else iter(rows)

    def __len__(self) -> int:
        return len(self.rows())

    def __bool__(self) -> bool:
        return bool(self.rows())

    def __getitem__(self, index: int) -> tuple:
        return tuple(self)[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (PackedRefs, tuple, list)):
            return tuple(self) == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"PackedRefs({tuple(self)!r})"


class SpilledRefs(PackedRefs):
    """`PackedRefs` whose bytes are set aside on disk (a `spill.Spill`), read back each time they are read: a large
    graph's worker holds every file's extraction until the last file is resolved, and reads each file's calls and
    references once (docs/decisions/0023, session 26)."""

    __slots__ = ("spill", "spot")

    def __init__(self, spill: Spill, spot: Spot, named: bool) -> None:
        self.spill, self.spot, self.named = spill, spot, named

    @property
    def data(self) -> bytes:  # type: ignore[override]
        return self.spill.get(self.spot)


class SpilledSymbols:
    """A file's symbols set aside on disk (a `spill.Spill`), read back as a tuple of `Symbol` each time they are
    read: a large graph's worker reads them about four times a file (placing its nodes, its name tables, its
    structure edges, its memo entry), and held between those reads, every symbol was a tuple of nine beside the
    node made from it (the kernel's 3.7 million)."""

    __slots__ = ("spill", "spot", "count")

    def __init__(self, spill: Spill, spot: Spot, count: int) -> None:
        self.spill, self.spot, self.count = spill, spot, count

    def rows(self) -> tuple[Symbol, ...]:
        return tuple(map(_symbol, marshal.loads(self.spill.get(self.spot))))  # type: ignore[arg-type]

    def __iter__(self) -> Iterator[Symbol]:
        return iter(self.rows())

    def __len__(self) -> int:
        return self.count

    def __bool__(self) -> bool:
        return self.count > 0

    def __getitem__(self, index):
        return self.rows()[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, (SpilledSymbols, tuple, list)):
            return tuple(self) == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]


def set_aside_packed(data: bytes, spill: Spill) -> FileExtract:
    """A code file's packed result (`packed_result`) as `load_result` makes it, with its packed calls and references
    (`SpilledRefs`) and its symbols (`SpilledSymbols`) set aside in `spill`: the symbols as marshal read them, no
    `Symbol` made only to be taken apart again (a large graph's worker reads every file so)."""
    kind, (lang, symbols, *rest) = marshal.loads(data)
    extract = model_result((kind, (lang, (), *rest)))[1]
    calls, references = extract.calls, extract.references
    return extract._replace(
        symbols=SpilledSymbols(spill, spill.put(marshal.dumps(symbols)), len(symbols)) if symbols else (),
        calls=SpilledRefs(spill, spill.put(calls.data), named=False) if isinstance(calls, PackedRefs) else calls,
        references=(SpilledRefs(spill, spill.put(references.data), named=True) if isinstance(references, PackedRefs)
                    else references))


def _plain_refs(refs: Iterable[tuple]) -> tuple[tuple, ...]:
    return refs.rows() if isinstance(refs, PackedRefs) else tuple(map(tuple, refs))


def plain_result(result: tuple) -> tuple:
    """A decoded result as tuples of strings, ints and bools only: what marshal writes."""
    kind = result[0]
    if kind == "code":
        x = result[1]
        return ("code", (x.lang, tuple(map(tuple, x.symbols)), _plain_refs(x.calls),
                         tuple(map(tuple, x.imports)), _plain_refs(x.references), x.entry, tuple(x.warnings),
                         tuple(map(tuple, x.bindings)), tuple(map(tuple, x.bases))))
    if kind == "doc":
        d = result[1]
        return ("doc", (d.path, d.format, d.title,
                        tuple((*b[:7], tuple(map(tuple, b.tokens))) for b in d.blocks), tuple(d.warnings)))
    return tuple(result)


def packed_result(result: tuple) -> bytes:
    """A decoded result as marshal's bytes of `plain_result`, its calls and references marshalled apart (see
    `PackedRefs`): what the cache keeps, and what `load_result` reads back."""
    plain = plain_result(result)
    if plain[0] == "code":
        fields = list(plain[1])
        fields[2], fields[4] = marshal.dumps(fields[2]), marshal.dumps(fields[4])
        plain = ("code", tuple(fields))
    return marshal.dumps(plain)


def load_result(data: bytes, code: Callable[[bytes], tuple] | None = None) -> tuple:
    """`packed_result` undone; a code file's, when `code` is given, is what `code` makes of its bytes instead."""
    value = marshal.loads(data)
    return code(data) if code is not None and value[0] == "code" else model_result(value)


def model_result(value: tuple) -> tuple:
    """`plain_result` (or `packed_result`'s) undone: the model's tuples, made by `tuple.__new__` (no Python call per
    object)."""
    kind = value[0]
    if kind == "code":
        lang, symbols, calls, imports, references, entry, warnings, bindings, bases = value[1]
        # Calls stay plain (source, name, line, receiver) tuples: two thirds of the objects, and what reads
        # them (the graph's resolution, `encode_extract`) unpacks them; most builds take a file's edges from
        # the graph memo and never read them at all. Packed, they stay bytes until then.
        if isinstance(calls, bytes):
            calls = PackedRefs(calls, named=False)
        references = PackedRefs(references, named=True) if isinstance(references, bytes) else tuple(
            map(_ref, references))
        return ("code", _new(FileExtract, (
            lang, tuple(map(_symbol, symbols)), calls, tuple(map(_ref, imports)),
            references, entry, warnings, tuple(map(_binding, bindings)), tuple(map(_ref, bases)))))
    if kind == "doc":
        path, fmt, title, blocks, warnings = value[1]
        return ("doc", _new(Document, (path, fmt, title,
                                       tuple(_new(Block, (*b[:7], tuple(map(_token, b[7])))) for b in blocks),
                                       warnings)))
    return value


LEVELS = 8  # the most files a cache is kept in is 2 ** LEVELS: one for each two hex digits a blob id starts with
# Bytes of source (every file of the commit) a cache file stands for, about: the cache is kept in as few files as
# that makes (a power of two). jansson's 1.4 MB are 16 files instead of the 200 shards it had, each written and
# renamed; from 16 MiB of source on (django's 43 MB, the kernel), one file a shard, as before, and a shard's file is
# written as soon as its last result is in (a build of that size holds none of them back).
SOURCE_BYTES_PER_FILE = 128 * 1024


def level_for(source_bytes: int) -> int:
    """How many leading bits of a shard's two hex digits name its file, for a commit of `source_bytes`."""
    return shard_count(source_bytes, SOURCE_BYTES_PER_FILE, 1 << LEVELS).bit_length() - 1


def _file_name(level: int, group: int) -> str:
    return f"{level}-{group:02x}.marshal"


def _group(shard: str, level: int) -> int:
    return int(shard, 16) >> (LEVELS - level)


class ExtractCache:
    """The results of earlier builds, kept by shard of blob ids (the two hex digits a blob id starts with, as the
    build's `extract_path` names them) in as many files as the commit's size asks (`level_for`): each file
    `<level>-<group>.marshal` holds (salt, level, shard -> key -> `packed_result` bytes) for the shards whose first
    `level` bits are `group`.

    A file is written once every shard of this build it holds is settled: written anew (`write`), or found to hold
    the same keys as before (`unchanged`), whose entries it then writes again as they were read. A file none of
    whose shards changed is not written: a one-file change rewrites one file. A build keeps the level the files
    already have while it is within one of what its size asks; else it reads the files as they are and writes every
    shard at its own level, and removes the others' files (and those of the one-file-a-shard layout before) once
    all of its own are written."""

    def __init__(self, common_dir: str, *, fresh: bool = False, salt: str | None = None) -> None:
        self.folder = os.path.join(common_dir, CACHE_DIR)
        self.fresh = fresh  # --full: read nothing, write every shard
        self.salt = salt if salt is not None else code_salt()
        self.planned: int | None = None  # the level the commit's size asks (`plan`)
        self.level = LEVELS
        # shard -> (its keys, its entries when its file may be written again with other shards' changes)
        self.loaded: dict[str, tuple[frozenset[str], dict[str, bytes] | None]] = {}
        self._members: dict[int, frozenset[str]] = {}  # group -> this build's shards in its file
        self._waiting: dict[int, set[str]] = {}  # group -> its shards not settled yet
        self._written: dict[int, dict[str, dict[str, bytes]]] = {}  # group -> its shards written anew
        self._stale: list[str] = []  # files of other layouts, removed once every file of this build's is written

    def stored_bytes(self) -> int:
        """The bytes of the cache's files: about what a rebuild's reused results pack to (the cache holds the last
        build's)."""
        try:
            with os.scandir(self.folder) as entries:
                return sum(entry.stat().st_size for entry in entries if entry.name.endswith(".marshal"))
        except OSError:
            return 0

    def plan(self, source_bytes: int) -> None:
        """The bytes of source this build reads: how many files the cache is kept in (before `load`)."""
        self.planned = level_for(source_bytes)

    def load(self, shard_paths: Iterable[str], keep: Callable[[str, Set[str]], bool] = lambda path, keys: False,
             code: Callable[[bytes], tuple] | None = None) -> tuple[dict[str, tuple], dict[str, bytes]]:
        """Key -> decoded result (a code file's, `code` of its bytes when given: `load_result`), for every key the
        cache holds in these bundle shards; and key -> its bytes as stored, for the shards where `keep(path, the
        keys it holds)` (those a build is to write again), and for those read from another layout's file (written
        again at this build's).

        `shard_paths` are every shard of this build: its files are written as these are settled."""
        paths = {_shard(path): path for path in shard_paths}
        present = self._present()
        self.level = level = self._choose(present)
        members: dict[int, set[str]] = defaultdict(set)
        for shard in paths:
            members[_group(shard, level)].add(shard)
        self._members = {group: frozenset(shards) for group, shards in members.items()}
        self._waiting = {group: set(shards) for group, shards in members.items()}
        results: dict[str, tuple] = {}
        stored: dict[str, bytes] = {}
        if self.fresh:
            return results, stored
        files: dict[int, tuple[str, dict | None]] = {}  # level -> its file read last (shards go in order)
        levels = [level, *sorted(present.keys() - {level})]
        for shard, path in sorted(paths.items()):
            for at in levels:
                name = _file_name(at, _group(shard, at))
                if name not in present.get(at, ()):
                    continue
                if files.get(at, ("",))[0] != name:
                    files[at] = (name, self._read(name, at))
                entries = (files[at][1] or {}).get(shard)
                try:
                    if not isinstance(entries, dict):
                        continue
                    decoded = {key: load_result(value, code) for key, value in entries.items()}
                except (EOFError, ValueError, TypeError):
                    continue  # no cache for this shard: the parser answers for it
                results.update(decoded)
                if at != level:
                    stored.update(entries)  # written again, at this build's level
                    break
                if keep(path, entries.keys()):
                    stored.update(entries)
                self.loaded[shard] = (frozenset(entries), entries if len(self._members[_group(shard, level)]) > 1
                                      else None)
                break
        return results, stored

    def unchanged(self, path: str, keys: Iterable[str]) -> bool:
        """Whether the cache file of this shard holds exactly these keys (the caller knows none is extracted anew):
        then the shard is settled, and `write` is not called for it."""
        shard = _shard(path)
        loaded = self.loaded.get(shard)
        same = loaded is not None and loaded[0] == frozenset(keys)
        if same:
            self._settle(shard, None)
        return same

    def write(self, path: str, entries: Mapping[str, bytes]) -> None:
        """One shard's entries, as they are now: its file is written once every shard of it is settled (whole, then
        renamed); a failure costs a parse."""
        self._settle(_shard(path), dict(entries))

    def _settle(self, shard: str, entries: dict[str, bytes] | None) -> None:
        group = _group(shard, self.level)
        waiting = self._waiting.get(group)
        if waiting is None or shard not in waiting:  # a shard no `load` named: a file of its own
            if entries is not None:
                self._write_file(_file_name(self.level, group), {shard: entries})
            return
        if entries is not None:
            self._written.setdefault(group, {})[shard] = entries
        waiting.discard(shard)
        if waiting:
            return
        del self._waiting[group]
        written = self._written.pop(group, None)
        if written is not None:  # a shard changed: the file again, with the others as they were read
            for other in self._members[group] - written.keys():
                kept = self.loaded[other][1]
                if kept is not None:
                    written[other] = kept
            self._write_file(_file_name(self.level, group), dict(sorted(written.items())))
        if not self._waiting:
            self._finish()

    def _finish(self) -> None:
        """Every file of this build's is written: the other layouts' go, and so do the entries kept to write."""
        for name in self._stale:
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(self.folder, name))
        self._stale = []
        self.loaded = {shard: (keys, None) for shard, (keys, _entries) in self.loaded.items()}

    def _write_file(self, name: str, shards: dict[str, dict[str, bytes]]) -> None:
        with contextlib.suppress(OSError):
            os.makedirs(self.folder, exist_ok=True)
        target = os.path.join(self.folder, name)
        tmp = f"{target}.{os.getpid()}.tmp"
        try:
            with open(tmp, "wb") as f:
                f.write(marshal.dumps((self.salt, self.level, shards)))
            os.replace(tmp, target)
        except (OSError, ValueError):
            with contextlib.suppress(OSError):
                os.unlink(tmp)

    def _present(self) -> dict[int, set[str]]:
        """Level -> the names of its files in the folder; the files of any other layout are stale."""
        present: dict[int, set[str]] = defaultdict(set)
        self._stale = []
        try:
            names = os.listdir(self.folder)
        except OSError:
            return present
        for name in names:
            stem, dot, ext = name.partition(".")
            level, dash, group = stem.partition("-")
            if ext != "marshal":
                continue  # another process's file being written, or none of the cache's
            if dash and level.isdigit() and int(level) <= LEVELS and len(group) == 2 and name == _file_name(
                    int(level), int(group, 16) if _is_hex(group) else -1):
                present[int(level)].add(name)
            else:
                self._stale.append(name)  # the layout before: one file a shard, `ab.marshal`
        return present

    def _choose(self, present: dict[int, set[str]]) -> int:
        """This build's level: the files' own while one level is there and it is within one of what the commit's
        size asks, else that."""
        levels = sorted(present)
        wanted = self.planned if self.planned is not None else levels[0] if len(levels) == 1 else LEVELS
        level = levels[0] if len(levels) == 1 and abs(levels[0] - wanted) <= 1 else wanted
        self._stale += [name for at in levels if at != level for name in present[at]]
        return level

    def _read(self, name: str, level: int) -> dict | None:
        """A file's shards, or None for an unreadable one, one other code wrote, or one of another level."""
        try:
            with open(os.path.join(self.folder, name), "rb") as f:
                salt, stored, shards = marshal.loads(f.read())
        except (OSError, EOFError, ValueError, TypeError):
            return None
        if salt != self.salt or stored != level or not isinstance(shards, dict):
            return None
        return shards


def _shard(path: str) -> str:
    """The two hex digits a bundle shard path (`extract/ab.json`) names."""
    shard = os.path.basename(path).rsplit(".", 1)[0]
    return shard if len(shard) == 2 and _is_hex(shard) else "00"


def _is_hex(text: str) -> bool:
    return all(c in "0123456789abcdef" for c in text)
