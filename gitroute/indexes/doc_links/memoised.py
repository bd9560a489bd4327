"""Each document of the doc<->code index linked (`linking`), or taken from the build memo while every key its linking
read reads the same: the memo's entries for documents, the keys they read and what each read then."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import islice

from gitroute.indexes.doc_links.linking import DocLink, Linker

# The memo entry holding every key memoised documents read, what each read then, and the lookups they made (each the
# positions of the keys it read).
FACTS = "\0facts"


def link_all(documents: Sequence, graph, memo=None, blobs: Mapping[str, str] | None = None,
             relinked: set[str] | None = None) -> list[DocLink]:
    """The links of every document, documents in path order.

    With a build memo (`bundle.memo.MemoTable`) and each document's blob id, a document whose blob and
    every table entry its linking read are unchanged takes its earlier links (their targets' records
    are read again: a centrality moves with any edge); the others are linked, recording what they read.
    The keys read are kept once for all documents (the memo's FACTS entry: keys and what each read,
    node ids as (path, offset)), and so are the lookups the documents made (each the positions of the keys it
    read: the pages of a project make the same lookups), each document holding the numbers of its own: the keys
    are read again once, and a document is linked again only when a position one of its lookups read moved.
    `relinked`, when given, gets the path of every document linked here rather than taken from the memo.
    """
    from array import array

    linker = Linker(graph.nodes, graph.edges, (d.path for d in documents), lazy=True)
    if memo is None or blobs is None:
        linker.build_tables()  # (lazy: only `record` built them, and without a memo nothing records)
        if relinked is not None:
            relinked.update(d.path for d in documents)
        return [link for document in documents for link in linker.link_document(document)]
    previous = memo.get(FACTS)
    keys, values, lookups = previous if _valid_facts(previous) else ([], [], [])
    now = _read_again(linker, graph.nodes, memo, blobs, keys, values, previous is not None)
    moved = {i for i, (old, new) in enumerate(zip(values, now)) if old != new}
    stale = {n for n, read in enumerate(lookups) if not moved.isdisjoint(array("I", read))} if moved else set()
    numbered: _Lookups | None = None  # a lookup of this build -> its number in `lookups`, once a document is linked
    links: list[DocLink] = []
    kept: list[tuple[str, array, list]] = []  # each document's memo key, lookups' numbers and rows
    linked_again = False
    for document in documents:
        key = f"{document.path}\0{blobs.get(document.path, '')}"
        entry = memo.get(key)
        if entry is not None:
            looked = array("I", entry[0])
            rows = entry[1]
            ids = linker.node_ids([ref for row in rows for ref in row[5]])  # every row's, in one call
            if (not looked or max(looked) < len(lookups)) and stale.isdisjoint(looked) and -1 not in ids:
                memo.put(key, entry)
                kept.append((key, looked, rows))
                targets = iter(map(linker._target, ids))
                links.extend(DocLink(document.path, section, number, line, token, status,
                                     tuple(islice(targets, len(refs))), total, heading, section_line, directive)
                             for (section, number, line, token, status, refs, total, heading, section_line,
                                  directive) in rows)
                continue
        linked_again = True
        if relinked is not None:
            relinked.add(document.path)
        if numbered is None:
            numbered = _Lookups(linker, _Places(linker, {k: i for i, k in enumerate(keys)}, keys, now), lookups)
            linker.record()
        assert linker.looked is not None
        linker.looked.clear()
        found = linker.link_document(document)
        looked = array("I", map(numbered.__getitem__, linker.looked))  # in one pass in C, but for new lookups
        rows = [(x.section, x.number, x.line, x.token, x.status, [linker.canon(t.node) for t in x.targets],
                 x.total, x.heading, x.section_line, x.directive) for x in found]
        memo.put(key, (looked.tobytes(), rows))
        kept.append((key, looked, rows))
        links.extend(found)
    if not linked_again and not moved:
        memo.put(FACTS, previous)  # the same object: an unchanged memo is not written again
    else:
        memo.put(FACTS, _compact(memo, kept, keys, now, lookups))
    return links


class _Places(dict):
    """A key as a lookup read it -> its position in the memo's keys (`link_all`). Most keys a lookup reads, an earlier
    lookup read: those are found in C (`map(places.__getitem__, ...)`), and a new one is placed as it is asked for, in
    the order the lookup read them: at its canon's position, added when no document read it before (the name tables'
    keys are their own canon)."""

    def __init__(self, linker: Linker, position: dict, keys: list, now: list) -> None:
        super().__init__()
        self.linker, self.position, self.memo_keys, self.now = linker, position, keys, now

    def __missing__(self, read: tuple[str, object]) -> int:
        tag, k = read
        canon = self.linker.canon_key(tag, k) if tag == "N" or tag == "i" else read
        at = self.position.get(canon)
        if at is None:
            at = self.position[canon] = len(self.memo_keys)
            self.memo_keys.append(canon)
            self.now.append(self.linker.fact(*canon))
        self[read] = at
        return at


class _Lookups(dict):
    """A lookup of this build's Linker (its number in `Linker.lookups`) -> its number in the memo's lookups, placed
    when first asked for: the positions of the keys it read (`_Places`), as bytes, one number for the same bytes."""

    def __init__(self, linker: Linker, places: _Places, lookups: list[bytes]) -> None:
        super().__init__()
        self.linker, self.places, self.memo_lookups = linker, places, lookups
        self.numbers = {read: n for n, read in reversed(list(enumerate(lookups)))}

    def __missing__(self, lookup: int) -> int:
        from array import array

        read = array("I", map(self.places.__getitem__, self.linker.lookups[lookup])).tobytes()
        at = self.numbers.get(read)
        if at is None:
            at = self.numbers[read] = len(self.memo_lookups)
            self.memo_lookups.append(read)
        self[lookup] = at
        return at


FILES = "\0files"  # the memo entry: (node buckets, path -> (blob, node count, a document)) of the last build


def _read_again(linker: Linker, nodes: Sequence, memo, blobs: Mapping[str, str], keys: list, values: list,
                known: bool) -> list:
    """What each memo key reads now. The name tables are built only when a document is linked again: the kept
    keys are read again from the files that changed since the last build (FILES), the others' entries being
    what they were (`known`: the keys and values are the last build's)."""
    from gitroute.graph import node_buckets

    files = (node_buckets(len(nodes)), _file_records(nodes, linker.documents, blobs))
    old_files = memo.get(FILES)
    if isinstance(old_files, tuple) and len(old_files) == 2 and old_files[0] == files[0] and known:
        now = _facts_now(linker, keys, values, old_files[1], files[1])
    else:
        now = [linker.fact(*key) for key in keys]
    memo.put(FILES, old_files if old_files == files else files)
    return now


def _file_records(nodes: Sequence, documents: frozenset[str], blobs: Mapping[str, str]) -> dict[str, tuple]:
    """What each file's entries in the name tables are made of: its blob (its nodes), and whether it is a
    document (a document's path is no file name to link to)."""
    counts = nodes.path_counts() if hasattr(nodes, "path_counts") else Counter(node.path for node in nodes)
    return {path: (blobs.get(path, ""), count, path in documents) for path, count in counts.items()}


def _facts_now(linker: Linker, keys: list, values: list, old: Mapping[str, tuple], now: Mapping[str, tuple]) -> list:
    """What each memo key reads now, without the name tables: a table entry is the ids of the nodes of every
    file that puts one there, in id order; the files unchanged since the last build (with as many node
    buckets, so in the same order) put the same, and the changed ones are read from tables of their own."""
    changed = {path for path in old.keys() | now.keys() if old.get(path) != now.get(path)}
    nodes = linker.node_list
    changed_nodes = nodes.nodes_in(changed) if hasattr(nodes, "nodes_in") else [n for n in nodes if n.path in changed]
    scratch = Linker(changed_nodes, (), linker.documents)
    first = linker.first
    found = []
    for (tag, key), value in zip(keys, values):
        if tag in ("N", "i"):  # from nodes and edges, at hand
            found.append(linker.fact(tag, key))
        elif tag == "p":  # a path: its own file's entry
            found.append(scratch.fact(tag, key) if key in changed else value)
        else:
            added = scratch.tables[tag].get(key)
            if not added and (not value or changed.isdisjoint([path for path, _offset in value])):
                found.append(value)  # no changed file puts an entry there, or took one away
                continue
            kept = [first[path] + offset for path, offset in value or () if path not in changed]
            found.append([linker.canon(i) for i in sorted([*kept, *(added or ())])] or None)
    return found


def _valid_facts(value: object) -> bool:
    """Whether a memo's FACTS entry is (keys, values, lookups), each lookup positions of its keys."""
    from array import array

    if not (isinstance(value, tuple) and len(value) == 3 and isinstance(value[0], list)
            and isinstance(value[1], list) and len(value[0]) == len(value[1]) and isinstance(value[2], list)):
        return False
    keys = len(value[0])
    return all(isinstance(read, bytes) and len(read) % 4 == 0 and (not read or max(array("I", read)) < keys)
               for read in value[2])


def _compact(memo, kept: list, keys: list, values: list, lookups: list[bytes]) -> tuple[list, list, list]:
    """FACTS with only the lookups a kept document made and the keys they read (documents gone or linked again leave
    some unused), each lookup's positions and each document's lookups renumbered to match."""
    from array import array

    used = sorted(set().union(*(looked for _key, looked, _rows in kept)))
    reads = [array("I", lookups[n]) for n in used]
    places = sorted(set().union(*reads))
    if len(places) < len(keys):
        renumber = dict(zip(places, range(len(places))))
        lookups = [array("I", map(renumber.__getitem__, read)).tobytes() for read in reads]
        keys, values = [keys[i] for i in places], [values[i] for i in places]
    elif len(used) < len(lookups):
        lookups = [lookups[n] for n in used]
    if used != list(range(len(used))):
        renumbered = dict(zip(used, range(len(used))))
        for key, looked, rows in kept:
            memo.put(key, (array("I", map(renumbered.__getitem__, looked)).tobytes(), rows))
    return keys, values, lookups
