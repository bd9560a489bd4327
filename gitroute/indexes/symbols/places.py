"""A cold query's places: each candidate's file, and the question words that file's path may hold (`FilePlaces`), read
off the symbol index's own postings and the meaning index's file ids, for the bounds of a question's candidates."""
from __future__ import annotations

import sys
from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence

from gitroute.indexes.symbols.bounds import FACT_BITS
from gitroute.rank import KIND_PRIOR


class FilePlaces:
    """node id -> (the question words its path may hold, the highest kind prior), for a cold query: a node's path
    words are its file's folder words and (a symbol's) its file's name words, which the file node's context and
    name postings hold; a file's nodes are numbered from its own id up to the next file's (`file_starts`)."""

    def __init__(self, starts: Sequence[int], lists: dict[str, list[list[int]]], tokens: Sequence[str]) -> None:
        self.starts, self.lists, self.tokens = starts, lists, tokens
        self.holders: dict[str, set[int]] = {}
        self.by_file: dict[int, tuple[frozenset[str], float]] = {}
        self.prior = max(KIND_PRIOR.values())
        self._starts_array = None

    def get(self, node_id: int) -> tuple[frozenset[str], float] | None:
        found = self.by_file.get(node_id)  # a file's own node (`files_of`'s keys): its file is itself
        if found is not None:
            return found
        at = bisect_right(self.starts, node_id) - 1
        if at < 0:
            return None
        first = self.starts[at]
        found = self.by_file.get(first)
        if found is None:  # one file: a membership test a word (1.3 µs; `of_files`' set steps for one file, 3.8)
            found = self.by_file[first] = (frozenset(t for t in self.tokens if first in self._holders(t)), self.prior)
        return found

    def of_files(self, firsts: Iterable[int]) -> dict[int, tuple[frozenset[str], float]]:
        """`get` of many files' own ids at once, as a dict that holds them all (and -1, before every file, not): the
        files not seen yet are looked up a question word at a time (a set intersection each), not a file at a time
        (a long sentence's groups span tens of thousands of files, most holding no question word in their path)."""
        by_file = self.by_file
        missing = set(firsts).difference(by_file)  # a step per file asked: `-= by_file.keys()` was one per file held
        missing.discard(-1)
        if missing:
            words: dict[int, list[str]] = {}
            for token in self.tokens:
                for first in self._holders(token) & missing:
                    words.setdefault(first, []).append(token)
            by_file.update(dict.fromkeys(missing, (frozenset(), self.prior)))
            by_file.update((first, (frozenset(held), self.prior)) for first, held in words.items())
        return by_file

    def files_of(self, values: Iterable[int]) -> dict[int, list[int]]:
        """Posting values (node id << FACT_BITS | facts) by the first node id of their file (-1: before every file):
        sorted, a file's values follow one another up to the next file's first id, so a bisection a file (not a node)
        splits them (a long sentence's large groups are split by path a file at a time)."""
        values = sorted(values)
        starts, count = self.starts, len(self.starts)
        found: dict[int, list[int]] = {}
        at, end = 0, len(values)
        while at < end:
            k = bisect_right(starts, values[at] >> FACT_BITS) - 1
            after = bisect_left(values, starts[k + 1] << FACT_BITS, at) if k + 1 < count else end
            found[starts[k] if k >= 0 else -1] = values[at:after]
            at = after
        return found

    def by_path_weight(self, values: Iterable[int], weight_of: Callable[[tuple[frozenset[str], float] | None], float],
                       ) -> dict[float, set[int]]:
        """Posting values by the path weight of their file (`weight_of` its place, None before every file), the
        weights in the order of their first file: `files_of` and `of_files`, a step a file. Over arrays when numpy
        is in the process already (a long sentence on a kernel: its groups span tens of thousands of files, and
        a bisection and a list a file were a tenth of the question); never imported for this."""
        np = sys.modules.get("numpy")
        if np is None or not self.starts:
            files = self.files_of(values)
            place_of = self.of_files(files).get
            by_weight: dict[float, list[int]] = defaultdict(list)
            for first, held in files.items():
                by_weight[weight_of(place_of(first))] += held
            return {weight: set(held) for weight, held in by_weight.items()}
        ordered = np.fromiter(values, dtype=np.int64)
        ordered.sort()
        starts = self._starts_of(np)
        # each value's file (-1: before every file)
        at = np.searchsorted(starts, ordered >> FACT_BITS, side="right") - 1
        cuts = np.flatnonzero(at[1:] != at[:-1]) + 1
        heads = at[np.concatenate(([0], cuts))] if len(at) else at
        firsts = np.where(heads >= 0, starts[heads], -1).tolist()
        place_of = self.of_files(firsts).get
        file_weights = [weight_of(place_of(first)) for first in firsts]
        if len(set(file_weights)) == 1:
            return {file_weights[0]: set(ordered.tolist())}
        weighed = np.repeat(np.array(file_weights), np.diff(np.concatenate(([0], cuts, [len(ordered)]))))
        found: dict[float, set[int]] = {}
        for weight in dict.fromkeys(file_weights):  # in the order of their first file, as `files_of` gives them
            found[weight] = set(ordered[weighed == weight].tolist())
        return found

    def _starts_of(self, np):  # -> the files' first ids as an array, made once
        if self._starts_array is None:
            self._starts_array = np.asarray(self.starts, dtype=np.int64)
        return self._starts_array

    def _holders(self, token: str) -> set[int]:
        found = self.holders.get(token)
        if found is None:
            in_name, _in_doc, in_context = self.lists[token]
            found = self.holders[token] = {v >> FACT_BITS for v in in_name} | {v >> FACT_BITS for v in in_context}
        return found
