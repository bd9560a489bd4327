"""A large graph's node table kept beside the build memo: a one-file build takes each unchanged file's rows from it.

The graph's worker hands its nodes to the parent as a `graph.NodeTable` written to a file; encoding them (every
node's seven strings looked up among their column's) and reading every file's signatures and docs again took a fifth
of a one-file build of the Linux kernel (3.7 million nodes). That file is kept here, under the memo's folder (a fetch
cannot write there), and salted as the memo's tables are: a table other code wrote is never read. The next build takes
a file's rows (their string codes) from it when the file's facts are the ones they were made from (its blob, its
language, how many nodes it placed) and encodes only the others'. A column read by value (paths, kinds, languages:
`NodeTable.path_counts`, `ids_of`) is kept free of repeats; in the others a replaced file's strings are appended, and
the old ones' chunks are copied as bytes, never read: once a quarter of the rows have been replaced since the table
was made whole, it is made whole again (and what replaced files left behind goes). Ids, lines and entry flags are
always the nodes' own (ids move when a file before in its bucket changed; manifests declare entry points).

Layout: the trailer's offset (8 bytes), the table as `NodeTable.dump` writes it, then the trailer (marshal): format,
salt, each string column's byte span, each file's run (path -> ((blob, language, rows), first row)), and the rows
replaced since the table was made whole.
"""
from __future__ import annotations

import contextlib
import marshal
import os
import struct
from array import array
from collections.abc import Sequence
from itertools import compress
from operator import itemgetter
from typing import IO, NamedTuple

from gitroute.errors import GitrouteError
from gitroute.graph import NODE_STRINGS, NodeTable, dump_columns, dump_strings, load_chunk, node_details
from gitroute.model import Node

NODES_FILE = "nodes.table"
_FORMAT = 1
_OFFSET = struct.Struct("<Q")
_BY_VALUE = (0, 2, 3)  # positions in `NODE_STRINGS` of the columns read by value: path, kind, language
_REMADE_AFTER = 4  # the table is made whole again once more than 1/4 of its rows were replaced
_COPY = 1 << 24  # bytes copied at a time from the earlier table


class Earlier(NamedTuple):
    """What a build takes from the table an earlier build kept: open on its file, validated."""

    source: IO[bytes]
    rows: int  # how many nodes
    sizes: list[int]
    codes: list[array]
    by_value: dict[int, list[str]]  # the strings of the columns read by value
    spans: list[tuple[int, int]]  # each string column's chunks, where they are in `source`
    runs: dict[str, tuple[tuple[str, str, int], int]]
    replaced: int


def read_earlier(folder: str, salt: str) -> Earlier | None:
    """The table an earlier build kept in `folder` with this salt, or None (none, other code's, or damaged)."""
    try:
        source = open(os.path.join(folder, NODES_FILE), "rb")  # noqa: SIM115 (held by the result)
    except OSError:
        return None
    try:
        return _validated(source, salt)
    except (OSError, EOFError, ValueError, TypeError, IndexError, OverflowError, struct.error):
        source.close()
        return None


def _validated(source: IO[bytes], salt: str) -> Earlier | None:
    (trailer_at,) = _OFFSET.unpack(source.read(_OFFSET.size))
    if not _OFFSET.size < trailer_at <= os.fstat(source.fileno()).st_size:
        raise ValueError("trailer")
    source.seek(trailer_at)
    form, stored_salt, spans, runs, replaced = marshal.loads(source.read())
    if form != _FORMAT or stored_salt != salt:
        source.close()
        return None
    count, sizes = _head(source)
    if not (isinstance(spans, list) and len(spans) == len(NODE_STRINGS) and isinstance(runs, dict)
            and type(replaced) is int and all(_OFFSET.size <= a <= b <= trailer_at for a, b in spans)):
        raise ValueError("trailer")
    source.seek(3 * 8 * count, os.SEEK_CUR)  # ids, lines, ends: every build's own
    codes = []
    for size in sizes:
        column = array("I")
        column.fromfile(source, count)
        if count and max(column) >= size:
            raise ValueError("codes")
        codes.append(column)
    by_value = {}
    for at in _BY_VALUE:
        source.seek(spans[at][0])
        strings: list[str] = []
        while len(strings) < sizes[at]:
            strings += load_chunk(source)
        if len(strings) != sizes[at] or source.tell() != spans[at][1]:  # `load_chunk` checked they are strings
            raise ValueError("strings")
        by_value[at] = strings
    return Earlier(source, count, sizes, codes, by_value, spans, runs, replaced)


def _head(source: IO[bytes]) -> tuple[int, list[int]]:
    source.seek(_OFFSET.size)
    count, sizes = marshal.load(source)
    if not (type(count) is int and count >= 0 and isinstance(sizes, list) and len(sizes) == len(NODE_STRINGS)
            and all(type(n) is int and n >= 0 for n in sizes)):
        raise ValueError("head")
    return count, sizes


def write_nodes(out: IO[bytes], nodes: Sequence[Node], facts: dict[str, tuple[str, str]],
                symbols_of: dict[str, Sequence], salt: str, earlier: Earlier | None) -> None:
    """Write the table of `nodes` (placed without signatures and docs, which `symbols_of` gives) to `out`, taking
    unchanged files' rows from `earlier` when there is one worth taking from (its file is closed after);
    `facts`: path -> (blob, language)."""
    with contextlib.closing(earlier.source) if earlier is not None else contextlib.nullcontext():
        _write_nodes(out, nodes, facts, symbols_of, salt, earlier)


def _write_nodes(out: IO[bytes], nodes: Sequence[Node], facts: dict[str, tuple[str, str]],
                 symbols_of: dict[str, Sequence], salt: str, earlier: Earlier | None) -> None:
    if earlier is not None and earlier.replaced * _REMADE_AFTER > len(nodes):
        earlier = None
    out.write(_OFFSET.pack(0))
    if earlier is None:
        table = NodeTable.from_nodes(nodes, node_details(nodes, symbols_of))
        spans = table.dump(out)
        runs = {path: ((*facts[path], end - start), start) for path, start, end in table.file_runs()}
        replaced = 0
    else:
        spans, runs, replaced = _write_reusing(out, nodes, facts, symbols_of, earlier)
    trailer_at = out.tell()
    marshal.dump((_FORMAT, salt, spans, runs, replaced), out)
    out.seek(0)
    out.write(_OFFSET.pack(trailer_at))
    out.flush()


def _write_reusing(out: IO[bytes], nodes: Sequence[Node], facts: dict[str, tuple[str, str]],
                   symbols_of: dict[str, Sequence], earlier: Earlier) -> tuple[list, dict, int]:
    count = len(nodes)
    codes = [array("I") for _ in NODE_STRINGS]
    sizes = list(earlier.sizes)
    added: list[list[str]] = [[] for _ in NODE_STRINGS]
    seen = [{s: n for n, s in enumerate(earlier.by_value[at])} if at in _BY_VALUE else {}
            for at in range(len(NODE_STRINGS))]
    runs: dict[str, tuple[tuple[str, str, int], int]] = {}
    replaced = earlier.replaced
    starts = list(compress(range(count), map("file".__eq__, map(itemgetter(3), nodes))))  # a file's run begins
    for start, end in zip(starts, [*starts[1:], count]):
        path = nodes[start][1]
        runs[path] = facts_now = ((*facts[path], end - start), start)
        taken = _taken_rows(earlier, path, facts_now[0], seen[0].get(path))
        if taken is not None:
            for column, old_column in zip(codes, earlier.codes):
                column += old_column[taken:taken + end - start]
            continue
        replaced += end - start
        rows = nodes[start:end]
        for node, (signature, doc) in zip(rows, node_details(rows, symbols_of)):
            for at, value in enumerate((node[1], node[2], node[3], node[6], signature, doc, node[10])):
                code = seen[at].get(value)
                if code is None:
                    code = seen[at][value] = sizes[at]
                    sizes[at] += 1
                    added[at].append(value)
                codes[at].append(code)
    dump_columns(out, sizes, array("q", map(itemgetter(0), nodes)), array("q", map(itemgetter(4), nodes)),
                 array("q", map(itemgetter(5), nodes)), codes, bytes(map(bool, map(itemgetter(9), nodes))))
    spans = []
    for at in range(len(NODE_STRINGS)):
        start = out.tell()
        if at in _BY_VALUE:
            dump_strings(earlier.by_value[at] + added[at], out)
        else:
            _copy(earlier.source, *earlier.spans[at], out)
            dump_strings(added[at], out)
        spans.append((start, out.tell()))
    return spans, runs, replaced


def _taken_rows(earlier: Earlier, path: str, facts: tuple[str, str, int], path_code: int | None) -> int | None:
    """Where the kept table holds this file's rows, made from these facts; None when it holds none. Rows whose path
    is another file's (a run's place misread) are none: the rows copied are always this path's."""
    old = earlier.runs.get(path)
    if not (isinstance(old, tuple) and len(old) == 2 and old[0] == facts and type(old[1]) is int
            and path_code is not None):
        return None
    at, rows = old[1], facts[2]
    if not 0 <= at <= earlier.rows - rows or earlier.codes[0][at:at + rows].count(path_code) != rows:
        return None
    return at


def _copy(source: IO[bytes], start: int, end: int, out: IO[bytes]) -> None:
    source.seek(start)
    while start < end:
        data = source.read(min(_COPY, end - start))
        if not data:
            raise EOFError("the earlier node table ends early")
        out.write(data)
        start += len(data)


def load_nodes(source: IO[bytes], folder: str) -> NodeTable:
    """The table `write_nodes` wrote to `source`. What it could not have written (strings copied from a kept table
    that was damaged on disk) removes the kept table, and the build stops: the next one encodes every row."""
    source.seek(_OFFSET.size)
    try:
        return NodeTable.load(source)
    except (EOFError, ValueError, TypeError) as err:
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(folder, NODES_FILE))
        raise GitrouteError("the node table the last build kept was damaged, and is removed: build again",
                            hint="a `--full` build reads nothing an earlier build kept") from err


def keep_nodes(written: str, folder: str) -> None:
    """The table just written (and loaded) is the one the next build takes rows from."""
    os.replace(written, os.path.join(folder, NODES_FILE))


def nodes_target(folder: str) -> tuple[IO[bytes], str | None]:
    """A file for the worker to write the table to: in `folder` (kept afterwards, `keep_nodes`) where it can be
    written, else an anonymous one (the next build encodes every row again)."""
    import tempfile

    try:
        os.makedirs(folder, exist_ok=True)
        path = os.path.join(folder, f"{NODES_FILE}.{os.getpid()}.tmp")
        return open(path, "w+b"), path  # noqa: SIM115 (the caller closes it)
    except OSError:
        return tempfile.TemporaryFile(), None

