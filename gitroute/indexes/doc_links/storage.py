"""What the doc<->code index stores: its two tables (`BY_DOC`, `BY_TARGET`) and their codecs, on the storage floor
(`bundle.tables`): records in binary shards that spell each string and each node they name once
(docs/decisions/0025-compact-encodings.md, its amendment)."""
from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import chain
from operator import itemgetter

from gitroute.bundle.tables import Ints, RecordTable, StringRecords, Strings, StringShard, shifts
from gitroute.bundle.validate import BadValue

NAME = "doc_links"



class _NodeTable(StringRecords):
    """A doc_links codec whose records name nodes ([node, path, name, kind, line, owner, centrality] each): a shard
    spells each node once, in a table after its keys (in the order its records first name them, keys ascending;
    a column for each field the codec keeps), and a record names a node by its place in that table.

    No answer reads a node's graph id, so none is stored: a node is what its kept fields spell (`spelled`), and
    reads back with id 0 (and 0 for a field not kept). Two nodes spelled alike are one entry, which reads back as
    each of them did, but for their ids (docs/decisions/0025, its session-24 amendment)."""

    spelled: Callable[[Sequence], tuple]  # a target as stored: path, name, kind[, line], owner[, centrality]
    lines = True  # whether the table keeps each node's line and centrality

    def prepare(self, values: Mapping[str, list], strings: Strings) -> None:
        # Keys in order, as they are spelled: a shard patched or made whole places them alike. Each node's place is
        # where it is first named (dict.fromkeys keeps the first), found in C rather than a Python call per target.
        lists = (targets for key in sorted(values) for record in values[key] for targets in self.targets_of(record))
        order = dict.fromkeys(map(self.spelled, chain.from_iterable(lists)))
        strings.shared = dict(zip(order, range(len(order))))

    def targets_of(self, record: list) -> Iterable[list]:
        """The target lists a record holds."""
        raise NotImplementedError

    def shared_to_ints(self, strings: Strings) -> list[int]:
        rows = list(strings.shared)
        ints = [len(rows)]
        for column in (0, 1, 2):  # path, name, kind
            ints += [strings(row[column]) for row in rows]
        if self.lines:
            ints += shifts([row[3] for row in rows])
            ints += [strings(row[4]) for row in rows]
            ints += [row[5] for row in rows]
        else:
            ints += [strings(row[3]) for row in rows]
        return ints

    def shared_from_ints(self, ints: Ints, shard: StringShard) -> list[tuple]:
        n = ints.one()
        paths, names, kinds = ints.strings(n, shard), ints.strings(n, shard), ints.strings(n, shard)
        if self.lines:
            lines = ints.shifted(n)
            owners = ints.strings(n, shard)
            centralities = ints.take(n)
        else:
            lines = centralities = [0] * n
            owners = ints.strings(n, shard)
        ints.done()
        return list(zip([0] * n, paths, names, kinds, lines, owners, centralities))

    def targets_to_ints(self, lists: Sequence[list], strings: Strings) -> list[int]:
        """Each list's length, then the places of every list's nodes."""
        return [*map(len, lists), *map(strings.shared.__getitem__, map(self.spelled, chain.from_iterable(lists)))]

    def targets_from_ints(self, n: int, ints: Ints, shard: StringShard) -> list[list[list]]:
        nodes = shard.shared
        counts = ints.take(n)
        column = ints.take(sum(counts))
        if column and max(column) >= len(nodes):
            raise BadValue("a link names a node its shard does not hold")
        targets = [list(nodes[place]) for place in column]
        out, at = [], 0
        for count in counts:
            out.append(targets[at:at + count])
            at += count
        return out


class _DocEntries(_NodeTable):
    """`BY_DOC`'s codec: a document's path -> [[path, title, kind, links, sections]], each link [line, section
    index, token, status, total, flags, targets], each section [text, number, line]; stored as columns.

    Kept is what `code` reads (and DOC-CODE.md): the path, the sections, and each link's line, section, status,
    total and targets with their lines and centralities. A document's title and kind
    (docs.json holds them), a link's token and flags (`docs` reads them from `BY_TARGET`) read back as "", "",
    "" and 0."""

    spelled = itemgetter(1, 2, 3, 4, 5, 6)

    def __init__(self) -> None:
        super().__init__(owner=itemgetter(0), order=itemgetter(0), weigh=lambda held: sum(len(e[3]) for e in held))

    def targets_of(self, record: list) -> Iterable[list]:
        return (link[6] for link in record[3])

    def to_ints(self, key: str, records: list, strings: Strings) -> list[int]:
        ints = [len(records)]
        for path, _title, _kind, links, sections in records:
            ints += [strings(path), len(sections)]
            ints += [strings(s[0]) for s in sections] + [strings(s[1]) for s in sections]
            ints += shifts([s[2] for s in sections])
            ints.append(len(links))
            ints += shifts([x[0] for x in links])
            ints += [x[1] for x in links]
            ints += [strings(x[3]) for x in links]  # status
            ints += [x[4] for x in links]
            ints += self.targets_to_ints([x[6] for x in links], strings)
        return ints

    def from_ints(self, key: str, ints: Ints, shard: StringShard) -> list:
        records = []
        for _ in range(ints.one()):
            path = ints.strings(1, shard)[0]
            n = ints.one()
            sections = [list(s) for s in zip(ints.strings(n, shard), ints.strings(n, shard), ints.shifted(n))]
            n = ints.one()
            lines, numbers = ints.shifted(n), ints.take(n)
            if numbers and max(numbers) >= len(sections):
                raise BadValue("a link names a section its document does not have")
            statuses = ints.strings(n, shard)
            totals = ints.take(n)
            targets = self.targets_from_ints(n, ints, shard)
            links = [[line, number, "", status, total, 0, held]
                     for line, number, status, total, held in zip(lines, numbers, statuses, totals, targets)]
            records.append([path, "", "", links, sections])
        return records


class _LinkRecords(_NodeTable):
    """`BY_TARGET`'s codec: a key -> [[document, kind, line, section, number, token, status, total, flags,
    targets]]; stored as columns. A document is its place in the index's documents (`docs.json`, in path order),
    not its path: a build's codec has that list (`by_target`) and reads a place back as the path; the query's
    (`documents` None) reads back the place, which the reader looks up in `docs.json`. A document's kind is a
    function of its path (the reader's `doc_kind`) and reads back as ""; a target keeps what `docs` matches and
    shows (path, name, kind, owner), not its line and centrality."""

    spelled = itemgetter(1, 2, 3, 5)
    lines = False

    def __init__(self, documents: Sequence[str] | None = None) -> None:
        super().__init__(owner=itemgetter(0), order=itemgetter(0))
        self.documents = documents
        self.places = {path: place for place, path in enumerate(documents or ())}

    def targets_of(self, record: list) -> Iterable[list]:
        return (record[9],)

    def to_ints(self, key: str, records: list, strings: Strings) -> list[int]:
        places = self.places
        ints = [len(records)]
        ints += [places[r[0]] for r in records]  # document
        ints += shifts([r[2] for r in records])
        for column in (3, 4, 5, 6):  # section, number, token, status
            ints += [strings(r[column]) for r in records]
        ints += [r[7] for r in records] + [r[8] for r in records]
        ints += self.targets_to_ints([r[9] for r in records], strings)
        return ints

    def from_ints(self, key: str, ints: Ints, shard: StringShard) -> list:
        n = ints.one()
        documents: list = ints.take(n)
        if self.documents is not None:
            if documents and max(documents) >= len(self.documents):
                raise BadValue("a link names a document the index does not hold")
            documents = [self.documents[place] for place in documents]
        lines = ints.shifted(n)
        sections, numbers, tokens, statuses = (ints.strings(n, shard) for _ in range(4))
        totals, flags = ints.take(n), ints.take(n)
        targets = self.targets_from_ints(n, ints, shard)
        return [[document, "", *rest] for document, *rest in
                zip(documents, lines, sections, numbers, tokens, statuses, totals, flags, targets)]


# About 50 KB of binary shard (100 KB of JSON before), so that an answer reads little whatever the project's size:
# `by_doc` weighs a document's links (`git route code DOC` reads one shard), `by_target` its records (`git route docs
# NAME`, a few). Twice 0018's counts: the strings a shard spells once are shared by twice the records (four times
# packed smaller still, but a one-file rebuild then rewrites over 1 MB: docs/decisions/0025, its amendment).
BY_DOC = RecordTable(NAME, "by_doc", per_shard=1600, codec=_DocEntries(), digits=4, most=4096)
BY_TARGET = RecordTable(NAME, "by_target", per_shard=2048, codec=_LinkRecords(), digits=4, most=4096)


def by_target(documents: Sequence[str]) -> RecordTable:
    """`BY_TARGET` as a build writes it: its records' documents by their places in `documents` (docs.json's)."""
    return RecordTable(NAME, "by_target", per_shard=BY_TARGET.per_shard, codec=_LinkRecords(documents),
                       digits=BY_TARGET.digits, most=BY_TARGET.most)

