"""The extraction cache beside the bundle: every blob's extraction, decoded, one file per shard of blob ids.

The bundle holds no extraction results (they were a third of its packed size: docs/decisions/0025): a rebuild
takes them from here. The cache keeps the decoded results as plain tuples (`marshal`, which reads them about twice
as fast as JSON) and makes the model's tuples from them without a Python call per object. One file per shard,
under the build memo's folder (where a fetch cannot write: the build's own, as the memo), salted like the memo;
a shard whose keys are unchanged, none extracted anew, is not written again.

A result is kept as the bytes `packed_result` makes, which extraction's workers hand the build too: a file's
calls and references stay marshal's bytes inside it (`PackedRefs`) until the graph resolves that file. They are
most of a result's objects, and a build holds every result at once (the kernel's: millions of calls).
"""
from __future__ import annotations

import contextlib
import marshal
import os
from collections.abc import Callable, Iterable, Iterator, Mapping, Set
from functools import partial

from gitroute.bundle.memo import MEMO_DIR, code_salt
from gitroute.model import Binding, Block, Document, FileExtract, NameRef, Symbol, Token

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


def set_aside_refs(extract: FileExtract, spill: Spill) -> FileExtract:
    """The extract with its packed calls and references set aside in `spill` (`SpilledRefs`)."""
    calls, references = extract.calls, extract.references
    if isinstance(calls, PackedRefs):
        calls = SpilledRefs(spill, spill.put(calls.data), named=False)
    if isinstance(references, PackedRefs):
        references = SpilledRefs(spill, spill.put(references.data), named=True)
    return extract._replace(calls=calls, references=references)


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


def load_result(data: bytes) -> tuple:
    """`packed_result` undone."""
    return model_result(marshal.loads(data))


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


class ExtractCache:
    """The results of earlier builds, one file per shard of blob ids: (salt, key -> `packed_result` bytes, "")."""

    def __init__(self, common_dir: str, *, fresh: bool = False, salt: str | None = None) -> None:
        self.folder = os.path.join(common_dir, CACHE_DIR)
        self.fresh = fresh  # --full: read nothing, write every shard
        self.salt = salt if salt is not None else code_salt()
        self.loaded: dict[str, tuple[frozenset[str], str]] = {}  # shard path -> (its keys, "")

    def load(self, shard_paths: Iterable[str], keep: Callable[[str, Set[str]], bool] = lambda path, keys: False,
             ) -> tuple[dict[str, tuple], dict[str, bytes]]:
        """Key -> decoded result, for every key the cache holds in these bundle shards; and key -> its bytes as
        stored, for the shards where `keep(path, the keys it holds)` (those a build is to write again)."""
        results: dict[str, tuple] = {}
        stored: dict[str, bytes] = {}
        if self.fresh:
            return results, stored
        for path in shard_paths:
            try:
                with open(self._file(path), "rb") as f:
                    salt, entries, blob = marshal.loads(f.read())
                if salt != self.salt or not isinstance(entries, dict) or not isinstance(blob, str):
                    continue
                decoded = {key: load_result(value) for key, value in entries.items()}
            except (OSError, EOFError, ValueError, TypeError):
                continue  # no cache for this shard: the bundle or the parser answers for it
            results.update(decoded)
            if keep(path, entries.keys()):
                stored.update(entries)
            self.loaded[path] = (frozenset(entries), blob)
        return results, stored

    def unchanged(self, path: str, keys: Iterable[str]) -> bool:
        """Whether the cache file of this shard holds exactly these keys (the caller knows none is extracted anew)."""
        loaded = self.loaded.get(path)
        return loaded is not None and loaded[0] == frozenset(keys)

    def write(self, path: str, entries: Mapping[str, bytes]) -> None:
        """The cache file of one shard (whole, then renamed); a failure costs a parse."""
        with contextlib.suppress(OSError):
            os.makedirs(self.folder, exist_ok=True)
        target = self._file(path)
        tmp = f"{target}.{os.getpid()}.tmp"
        try:
            with open(tmp, "wb") as f:
                f.write(marshal.dumps((self.salt, dict(entries), "")))
            os.replace(tmp, target)
        except (OSError, ValueError):
            with contextlib.suppress(OSError):
                os.unlink(tmp)

    def _file(self, shard_path: str) -> str:
        return os.path.join(self.folder, os.path.basename(shard_path).rsplit(".", 1)[0] + ".marshal")
