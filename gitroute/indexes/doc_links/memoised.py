"""Each document of the doc<->code index linked (`linking`), or taken from the build memo while every key its linking
read reads the same: the memo's entries for documents, the keys they read and what each read then."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from itertools import islice

from gitroute.indexes.doc_links.linking import DocLink, Linker

FACTS = "\0facts"  # the memo entry holding every key memoised documents read, and what each read then


def link_all(documents: Sequence, graph, memo=None, blobs: Mapping[str, str] | None = None,
             relinked: set[str] | None = None) -> list[DocLink]:
    """The links of every document, documents in path order.

    With a build memo (`bundle.memo.MemoTable`) and each document's blob id, a document whose blob and
    every table entry its linking read are unchanged takes its earlier links (their targets' records
    are read again: a centrality moves with any edge); the others are linked, recording what they read.
    The keys read are kept once for all documents (the memo's FACTS entry: keys and what each read,
    node ids as (path, offset)), each document holding the positions of its own: the keys are read
    again once, and a document is linked again only when one of its positions moved.
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
    keys, values = previous if _valid_facts(previous) else ([], [])
    now = _read_again(linker, graph.nodes, memo, blobs, keys, values, previous is not None)
    moved = {i for i, (old, new) in enumerate(zip(values, now)) if old != new}
    position: dict | None = None  # key -> its position in `keys`, once a document is linked again
    links: list[DocLink] = []
    kept: list[tuple[str, array, list]] = []  # each document's memo key, positions and rows
    linked_again = False
    for document in documents:
        key = f"{document.path}\0{blobs.get(document.path, '')}"
        entry = memo.get(key)
        if entry is not None:
            looked = array("I", entry[0])
            rows = entry[1]
            ids = linker.node_ids([ref for row in rows for ref in row[5]])  # every row's, in one call
            if (not looked or max(looked) < len(keys)) and moved.isdisjoint(looked) and -1 not in ids:
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
        if position is None:
            position = {k: i for i, k in enumerate(keys)}
            placed = _Places(linker, position, keys, now)
            linker.record()
        assert linker.looked is not None
        linker.looked.clear()
        found = linker.link_document(document)
        looked = array("I", map(placed.__getitem__, linker.looked))  # in one pass in C, but for new keys
        rows = [(x.section, x.number, x.line, x.token, x.status, [linker.canon(t.node) for t in x.targets],
                 x.total, x.heading, x.section_line, x.directive) for x in found]
        memo.put(key, (looked.tobytes(), rows))
        kept.append((key, looked, rows))
        links.extend(found)
    if not linked_again and not moved:
        memo.put(FACTS, previous)  # the same object: an unchanged memo is not written again
    else:
        memo.put(FACTS, _compact(memo, kept, keys, now))
    return links


class _Places(dict):
    """A key as a page read it -> its position in the memo's keys (`link_all`). Most keys a page reads, an earlier
    page read: those are found in C (`map(places.__getitem__, ...)`), and a new one is placed as it is asked for, in
    the order the page read them: at its canon's position, added when no document read it before (the name tables'
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
    return (isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], list)
            and isinstance(value[1], list) and len(value[0]) == len(value[1]))


def _compact(memo, kept: list, keys: list, values: list) -> tuple[list, list]:
    """FACTS with only the keys a kept document reads (documents gone or linked again leave some unread),
    each document's positions renumbered to match."""
    from array import array

    used = sorted(set().union(*(looked for _key, looked, _rows in kept)))
    if len(used) == len(keys):
        return keys, values
    renumber = {old: new for new, old in enumerate(used)}
    for key, looked, rows in kept:
        memo.put(key, (array("I", [renumber[i] for i in looked]).tobytes(), rows))
    return [keys[i] for i in used], [values[i] for i in used]


