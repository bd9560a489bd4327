"""The code graph's edges packed: node ids and lines in arrays, kind and resolution as one byte each.

A kernel-sized graph has millions of edges. As `Edge` tuples each one costs about 170 bytes of a build's memory
(the tuple, its ids and its line as objects); packed, 22. `EdgeTable` holds every edge of a graph packed and
reads as a sequence of `Edge`, made as they are read; `pack` packs one file's edges, which the graph's memo keeps
as they are.
"""
from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Iterator, Sequence
from itertools import compress, repeat
from typing import NoReturn

from gitroute.model import EDGE_KINDS, RESOLUTIONS, Edge

KIND_CODES = {kind: code for code, kind in enumerate(EDGE_KINDS)}
HOW_CODES = {how: code for code, how in enumerate(RESOLUTIONS)}
EDGE_BYTES = 22  # a source and a target id (8 bytes each), a line (4), a kind and a resolution (1 each)


def pack(edges: Sequence[tuple]) -> bytes:
    """(source, kind, target, line, how) tuples packed: every source, then every target, line, kind and how."""
    if not edges:
        return b""
    sources, kinds, targets, lines, hows = zip(*edges)
    return b"".join((array("q", sources).tobytes(), array("q", targets).tobytes(), array("i", lines).tobytes(),
                     bytes(map(KIND_CODES.__getitem__, kinds)), bytes(map(HOW_CODES.__getitem__, hows))))


def packed_count(data: bytes) -> int:
    return len(data) // EDGE_BYTES


def packed_ids(data: bytes) -> tuple[array, array]:
    """The source and the target ids of packed edges."""
    n = packed_count(data)
    view = memoryview(data)
    sources, targets = array("q"), array("q")
    sources.frombytes(view[:8 * n])
    targets.frombytes(view[8 * n:16 * n])
    return sources, targets


def with_ids(data: bytes, sources: Iterable[int], targets: Iterable[int]) -> bytes:
    """Packed edges with other source and target ids, lines, kinds and resolutions kept."""
    n = packed_count(data)
    return array("q", sources).tobytes() + array("q", targets).tobytes() + data[16 * n:]


class EdgeTable(list):
    """Every edge of a graph, packed, read as a list of `Edge` (made as they are read).

    A list only in name (its own storage stays empty): what reads a graph's edges may ask `isinstance(edges,
    list)` before iterating them, and must not copy millions of edges into one. Edges are added by `add`, never
    by a list method."""

    def __init__(self) -> None:
        super().__init__()
        self.sources = array("q")
        self.targets = array("q")
        self.lines = array("i")
        self.kinds = bytearray()
        self.hows = bytearray()

    def add(self, data: bytes, start: int = 0, end: int | None = None) -> None:
        """Append edges [start:end) of packed edges (`pack`)."""
        n = packed_count(data)
        end = n if end is None else end
        if end <= start:
            return
        view = memoryview(data)
        self.sources.frombytes(view[8 * start:8 * end])
        self.targets.frombytes(view[8 * (n + start):8 * (n + end)])
        self.lines.frombytes(view[16 * n + 4 * start:16 * n + 4 * end])
        self.kinds += view[20 * n + start:20 * n + end]
        self.hows += view[21 * n + start:21 * n + end]

    def pack(self, spans: Iterable[tuple[int, int]]) -> bytes:
        """Edges [start:end) of each span, packed as one part (`pack` of those edges, in that order)."""
        parts: tuple[list, list, list, list, list] = ([], [], [], [], [])
        for start, end in spans:
            for column, values in zip(parts, (self.sources, self.targets, self.lines, self.kinds, self.hows)):
                column.append(values[start:end])
        sources, targets, lines, kinds, hows = parts
        return b"".join([*(a.tobytes() for a in sources), *(a.tobytes() for a in targets),
                         *(a.tobytes() for a in lines), *map(bytes, kinds), *map(bytes, hows)])

    def rows(self, start: int = 0, end: int | None = None) -> Iterator[tuple]:
        """Edges [start:end) as plain (source, kind, target, line, how) tuples."""
        end = len(self.sources) if end is None else end
        return zip(self.sources[start:end], map(EDGE_KINDS.__getitem__, self.kinds[start:end]),
                   self.targets[start:end], self.lines[start:end], map(RESOLUTIONS.__getitem__, self.hows[start:end]))

    def row(self, at: int) -> tuple:
        """Edge `at` as a plain (source, kind, target, line, how) tuple."""
        return (self.sources[at], EDGE_KINDS[self.kinds[at]], self.targets[at], self.lines[at],
                RESOLUTIONS[self.hows[at]])

    def targets_of(self, kinds: Iterable[str]) -> Iterator[int]:
        """The target id of every edge of one of `kinds`, in edge order: read from the columns, no `Edge` made."""
        codes = frozenset(KIND_CODES[kind] for kind in kinds if kind in KIND_CODES)
        return compress(self.targets, map(codes.__contains__, self.kinds))

    def pairs_of(self, kind: str) -> Iterator[tuple[int, int]]:
        """(source, target) of every edge of `kind`, in edge order: read from the columns, no `Edge` made."""
        code = KIND_CODES.get(kind, -1)
        return compress(zip(self.sources, self.targets), map(code.__eq__, self.kinds))

    def kind_counts(self, how: int | None = None) -> dict[str, int]:
        """Edges by kind; of one resolution (its code) when given."""
        if how is None:
            kinds = self.kinds
        else:  # positions of that code (a few: the resolutions other than structure, by the bytes' own search)
            kinds = bytearray(self.kinds[m.start()] for m in re.finditer(re.escape(bytes((how,))), self.hows))
        return {EDGE_KINDS[code]: count for code, count in enumerate(map(kinds.count, range(len(EDGE_KINDS))))
                if count}

    def __len__(self) -> int:
        return len(self.sources)

    def __bool__(self) -> bool:
        return bool(self.sources)

    def __iter__(self) -> Iterator[Edge]:
        return map(tuple.__new__, repeat(Edge), self.rows())

    def __reversed__(self) -> Iterator[Edge]:
        return reversed(list(self))

    def __getitem__(self, index):
        if isinstance(index, slice):
            start, stop, step = index.indices(len(self))
            edges = list(map(tuple.__new__, repeat(Edge), self.rows(start, max(start, stop))))
            return edges if step == 1 else edges[::step]
        if index < 0:
            index += len(self)
        if not 0 <= index < len(self):
            raise IndexError("edge index out of range")
        return Edge(self.sources[index], EDGE_KINDS[self.kinds[index]], self.targets[index], self.lines[index],
                    RESOLUTIONS[self.hows[index]])

    def __contains__(self, edge: object) -> bool:
        return any(e == edge for e in self)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, EdgeTable):
            return (self.sources, self.targets, self.lines, self.kinds, self.hows) == (
                other.sources, other.targets, other.lines, other.kinds, other.hows)
        return isinstance(other, (list, tuple)) and len(other) == len(self) and list(self) == list(other)

    __hash__ = None

    def __repr__(self) -> str:
        return f"EdgeTable({len(self)} edges)"

    def __reduce__(self) -> tuple:
        # As a list subclass, pickle and copy would hand its edges back through `extend`, which it refuses.
        return _edge_table, (self.sources, self.targets, self.lines, self.kinds, self.hows)

    def _unsupported(self, *args: object) -> NoReturn:
        raise TypeError("an EdgeTable grows by add(), from packed edges")

    append = extend = insert = remove = pop = clear = sort = reverse = _unsupported  # type: ignore[assignment]
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _unsupported


def _edge_table(sources: array, targets: array, lines: array, kinds: bytearray, hows: bytearray) -> EdgeTable:
    """`EdgeTable.__reduce__` undone."""
    table = EdgeTable()
    table.sources, table.targets, table.lines, table.kinds, table.hows = sources, targets, lines, kinds, hows
    return table
