"""The extraction cache beside the bundle: every blob's extraction, decoded, one file per shard of blob ids.

The bundle holds no extraction results (they were a third of its packed size: docs/decisions/0025): a rebuild
takes them from here. The cache keeps the decoded results as plain tuples (`marshal`, which reads them about twice
as fast as JSON) and makes the model's tuples from them without a Python call per object. One file per shard,
under the build memo's folder (where a fetch cannot write: the build's own, as the memo), salted like the memo;
a shard whose keys are unchanged, none extracted anew, is not written again.
"""
from __future__ import annotations

import contextlib
import marshal
import os
from collections.abc import Iterable, Mapping
from functools import partial

from gitroute.bundle.memo import MEMO_DIR, code_salt
from gitroute.model import Binding, Block, Document, FileExtract, NameRef, Symbol, Token

CACHE_DIR = os.path.join(MEMO_DIR, "extract")

# A decoded result: ("code", FileExtract), ("doc", Document), ("text",) or ("skip", reason).
_new = tuple.__new__
_symbol, _ref, _binding, _token = (partial(_new, cls) for cls in (Symbol, NameRef, Binding, Token))


def plain_result(result: tuple) -> tuple:
    """A decoded result as tuples of strings, ints and bools only: what marshal writes."""
    kind = result[0]
    if kind == "code":
        x = result[1]
        return ("code", (x.lang, tuple(map(tuple, x.symbols)), tuple(map(tuple, x.calls)),
                         tuple(map(tuple, x.imports)), tuple(map(tuple, x.references)), x.entry, tuple(x.warnings),
                         tuple(map(tuple, x.bindings)), tuple(map(tuple, x.bases))))
    if kind == "doc":
        d = result[1]
        return ("doc", (d.path, d.format, d.title,
                        tuple((*b[:7], tuple(map(tuple, b.tokens))) for b in d.blocks), tuple(d.warnings)))
    return tuple(result)


def model_result(value: tuple) -> tuple:
    """`plain_result` undone: the model's tuples, made by `tuple.__new__` (no Python call per object)."""
    kind = value[0]
    if kind == "code":
        lang, symbols, calls, imports, references, entry, warnings, bindings, bases = value[1]
        # Calls stay plain (source, name, line, receiver) tuples: two thirds of the objects, and what reads
        # them (the graph's resolution, `encode_extract`) unpacks them; most builds take a file's edges from
        # the graph memo and never read them at all.
        return ("code", _new(FileExtract, (
            lang, tuple(map(_symbol, symbols)), calls, tuple(map(_ref, imports)),
            tuple(map(_ref, references)), entry, warnings, tuple(map(_binding, bindings)), tuple(map(_ref, bases)))))
    if kind == "doc":
        path, fmt, title, blocks, warnings = value[1]
        return ("doc", _new(Document, (path, fmt, title,
                                       tuple(_new(Block, (*b[:7], tuple(map(_token, b[7])))) for b in blocks),
                                       warnings)))
    return value


class ExtractCache:
    """The decoded results of earlier builds, one file per shard of blob ids: (salt, key -> plain result, "")."""

    def __init__(self, common_dir: str, *, fresh: bool = False, salt: str | None = None) -> None:
        self.folder = os.path.join(common_dir, CACHE_DIR)
        self.fresh = fresh  # --full: read nothing, write every shard
        self.salt = salt if salt is not None else code_salt()
        self.loaded: dict[str, tuple[frozenset[str], str]] = {}  # shard path -> (its keys, "")

    def load(self, shard_paths: Iterable[str]) -> dict[str, tuple]:
        """Key -> decoded result, for every key the cache holds in these bundle shards."""
        results: dict[str, tuple] = {}
        if self.fresh:
            return results
        for path in shard_paths:
            try:
                with open(self._file(path), "rb") as f:
                    salt, entries, blob = marshal.loads(f.read())
                if salt != self.salt or not isinstance(entries, dict) or not isinstance(blob, str):
                    continue
                decoded = {key: model_result(value) for key, value in entries.items()}
            except (OSError, EOFError, ValueError, TypeError):
                continue  # no cache for this shard: the bundle or the parser answers for it
            results.update(decoded)
            self.loaded[path] = (frozenset(entries), blob)
        return results

    def save(self, shards: Mapping[str, Mapping[str, tuple]], fresh: Iterable[str]) -> None:
        """Write the shards whose keys changed or hold a key extracted anew (each whole, then renamed); a failure
        costs a parse."""
        with contextlib.suppress(OSError):
            os.makedirs(self.folder, exist_ok=True)
        fresh = set(fresh)
        for path, shard in shards.items():
            loaded = self.loaded.get(path)
            if loaded is not None and loaded[0] == frozenset(shard) and fresh.isdisjoint(shard):
                continue
            target = self._file(path)
            tmp = f"{target}.{os.getpid()}.tmp"
            try:
                with open(tmp, "wb") as f:
                    f.write(marshal.dumps((self.salt, {k: plain_result(v) for k, v in shard.items()}, "")))
                os.replace(tmp, target)
            except (OSError, ValueError):
                with contextlib.suppress(OSError):
                    os.unlink(tmp)

    def _file(self, shard_path: str) -> str:
        return os.path.join(self.folder, os.path.basename(shard_path).rsplit(".", 1)[0] + ".marshal")
