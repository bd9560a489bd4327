"""The meaning index's postings: what a posting holds (a field's bit and weight, term frequency, node length),
and each file's postings, made from its nodes' text, the prose inside it and what the documents say of them."""
from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from itertools import repeat
from operator import lshift, or_
from sys import intern

from gitroute.indexes.meaning.vocabulary import joined_words, node_fields, words
from gitroute.rank import built_copies, is_secondary, secondary_but_dist

# Fields: (bit, weight). The weight is how many times a word of the field counts in the node's tf.
FIELDS = {"name": (1, 5), "owner": (2, 1), "signature": (4, 1), "doc": (8, 3), "message": (16, 1),
          "path": (32, 2), "header": (64, 2), "anchor": (256, 1)}  # weights measured: docs/decisions/0011
FIELD_NAMES = tuple(FIELDS)
# A node's body: the words of the comments inside it, a field of its own: postings under BODY_PREFIX + word,
# with their own lengths (`ranking`: BODY_WEIGHT of their BM25). Measured: docs/decisions/0011.
BODY_CAP = 64  # distinct words per node, in order: a long function's comments say no more after that
BODY_PREFIX = "~"  # no index word holds it (words are letters and digits)
BODY_BIT = 128


# Field texts whose words are memoised, at most: names and paths repeat, but most signatures are each their own, and
# a memo of the Linux kernel's every text was a good part of this index's worker (django's fit below it).
WORDS_MEMO_MAX = 1 << 19
POSTING_BITS = (10, 14)  # a packed posting's bit fields, low first: tf, length (then fields): stored a column each


def encode_posting(tf: int, length: int, fields: int) -> int:
    """One int for a posting's term frequency (10 bits), node length (14 bits) and fields (7 bits)."""
    return min(tf, 1023) | min(length, 16383) << 10 | fields << 24


def decode_posting(value: int) -> tuple[int, int, int]:
    return value & 1023, value >> 10 & 16383, value >> 24


# Tests, docs and examples are indexed by name, owner and path only: they rank below code anyway, and in a
# large repository they are half the text (django: a quarter of the meaning build's time).
_PRIMARY_ONLY = frozenset(("signature", "doc", "message"))
# A constant's text joins the node that holds it rather than ranking as a node of its own (measured: 0011).
FOLD_CONSTANTS = True
SECONDARY_FILES_ONLY = True  # index a secondary file's own node only, not its functions (measured: 0011)
# Files of data, not code: their strings are no message of the program. A gettext catalog (`.po`) repeats the
# program's messages and their translations (django: 1,272 catalogs, 60% of the meaning index's preparing).
_NO_PROSE = frozenset(("markdown", "rst", "json", "yaml", "toml", "text", "csv", "xml", "html", "css", "po", "tsv",
                       "psv", "pem", "pgn", "gosum"))


def _by_file(nodes: Sequence) -> list[list]:
    """Nodes grouped by file, each group its file node first (nodes come in id order, a file's own run)."""
    by_path: dict[str, list] = defaultdict(list)
    for node in nodes:
        by_path[node.path].append(node)
    return list(by_path.values())


def _one_file_prose(group: Sequence, symbols: Sequence, read: Callable[[str], bytes | None],
                    secondary: Callable[[str], bool] = is_secondary,
                    ) -> tuple[dict[int, tuple[str, list[str]]], dict[int, str]]:
    """node id -> (header, messages): the file's header, and each message literal on its innermost node;
    and node id -> the comments inside it (`_body_comments`). `symbols`: the file's other nodes in start order,
    outer first (`_in_start_order`)."""
    from gitroute.prose import header_text, scan_prose

    file_node = group[0]
    path = file_node.path
    prose: dict[int, tuple[str, list[str]]] = {}
    if not file_node.lang or file_node.lang in _NO_PROSE or secondary(path):
        return prose, {}  # tests, docs and examples keep their names and docs: they rank below code anyway
    data = read(path)
    if not data:
        return prose, {}
    text = data.decode("utf-8", "replace")
    header = header_text(text, file_node.lang)
    if header:
        prose[file_node.id] = (header, [])
    messages, found = scan_prose(text, file_node.lang)
    for line, literal in messages:
        owner = file_node.id
        for node in symbols:  # innermost: the last one in start order that spans the line
            if node.line > line:
                break
            if node.end_line >= line:
                owner = node.id
        prose.setdefault(owner, ("", []))[1].append(literal)
    return prose, _body_comments(found, file_node, symbols)


def _body_comments(found: list[tuple[int, str]], file_node, symbols: Sequence) -> dict[int, str]:
    """node id -> the text of the comments `found` (line, text) on the lines it owns (the innermost node that
    spans a line; the file owns the lines outside every symbol). Symbols come outer first, as
    `_one_file_prose` sorts them."""
    if not found:
        return {}
    last = found[-1][0]
    owner = [file_node.id] * (last + 1)
    for node in symbols:  # outer first: an inner node's lines end up its own
        start, end = max(node.line, 1), min(node.end_line, last)
        if end >= start:
            owner[start:end + 1] = [node.id] * (end - start + 1)
    bodies: dict[int, list[str]] = defaultdict(list)
    for line, comment in found:
        bodies[owner[line]].append(comment)
    return {node: " ".join(parts) for node, parts in bodies.items()}


def _file_postings(group: Sequence, read: Callable[[str], bytes | None], words_memo: dict[str, tuple],
                   payloads: dict[int, int] | None = None, secondary_test: Callable[[str], bool] = is_secondary,
                   ) -> list[tuple[int, int, list[str], list[int], int]]:
    """One file's postings: (node offset from the file node, node length, tokens, packed postings, body
    length) per node; the body's words come last, under BODY_PREFIX. No anchor text (`with_anchors`).

    A function of the file's path, its blob and its node count (extraction is by blob): what the build
    memo keys it by. `payloads`: each packed posting's one int object, shared by every posting of that value (a
    kernel's millions of postings take a few hundred thousand values: an int object each was a third of them)."""
    secondary = secondary_test(group[0].path)
    if secondary and SECONDARY_FILES_ONLY:
        group = group[:1]
    symbols = _in_start_order(group)  # sorted once, for the prose's owners and the constants' holders
    prose, bodies = _one_file_prose(group, symbols, read, secondary_test)
    fields_of = FIELDS
    first = group[0].id
    holders = _constant_holders(symbols) if FOLD_CONSTANTS else {}
    texts: dict[int, tuple[dict[str, int], dict[str, int], list[str]]] = {}
    for node in group:
        header, messages = prose.get(node.id, ("", ()))
        counts, bits, body_texts = texts.setdefault(holders.get(node.id, node.id), ({}, {}, []))
        for field, text in node_fields(node, messages, header).items():
            if not text or (secondary and field in _PRIMARY_ONLY):
                continue
            bit, weight = fields_of[field]
            found = words_memo.get(text)
            if found is None:  # each word once, with its count: a field's words repeat (a name in its path)
                # One string a word, whatever text it is in: a kernel's millions of postings each hold a token
                counted = Counter(joined_words(messages) if field == "message" else words(text))
                found = tuple(zip(map(intern, counted), counted.values()))
                if len(text) < 200 and len(words_memo) < WORDS_MEMO_MAX:
                    words_memo[text] = found
            for token, times in found:
                counts[token] = counts.get(token, 0) + weight * times
                bits[token] = bits.get(token, 0) | bit
        if node.id in bodies:
            body_texts.append(bodies[node.id])
    out = []
    for node_id, (counts, bits, body_texts) in texts.items():
        body = _body_words(" ".join(body_texts), counts)
        if not counts and not body:
            continue
        length = sum(counts.values())
        # encode_posting, inlined and by `map` over `operator`s (in C): a call, or a loop, a posting was a tenth of
        # the index's prepare step. `bits` holds the tokens of `counts` in its order: both took each at once.
        n = len(counts)
        held = min(length, 16383) << 10
        packed = [*map(or_, map(min, counts.values(), repeat(1023, n)),
                       map(or_, repeat(held, n), map(lshift, bits.values(), repeat(24, n)))),
                  *[encode_posting(1, len(body), BODY_BIT)] * len(body)]
        if payloads is not None:
            packed = list(map(payloads.setdefault, packed, packed))
        out.append((node_id - first, length, [*counts, *(intern(BODY_PREFIX + t) for t in body)], packed, len(body)))
    # In node order: a constant joins its holder's text, and a holder extracted after its constants (the Linux
    # kernel has such C files) would otherwise come out before the nodes between them, and postings must ascend.
    out.sort(key=lambda entry: entry[0])
    return out


def _in_start_order(group: Sequence) -> list:
    """A file's nodes after its own, by first line, the outer first where two start on one line."""
    return sorted(group[1:], key=lambda n: (n.line, -n.end_line))


def _constant_holders(symbols: Sequence) -> dict[int, int]:
    """constant node id -> the symbol whose text it joins: the innermost other symbol spanning its line (a
    Java `static final` field's class, a Rust associated const's impl). A class's constants are a word or two
    and a value; as nodes of their own that short text outranks the methods that use them on one shared
    word. A module-level constant has no holder: it stands alone, as the module's functions do. `symbols`: the
    file's nodes after its own, in start order (`_in_start_order`)."""
    holders: dict[int, int] = {}
    open_nodes: list = []  # the non-constant symbols spanning the current line, outermost first
    for node in symbols:
        while open_nodes and open_nodes[-1].end_line < node.line:
            open_nodes.pop()
        if node.kind != "constant":
            open_nodes.append(node)
        elif open_nodes:
            holders[node.id] = open_nodes[-1].id
    return holders


def _body_words(text: str, counts: dict[str, int]) -> list[str]:
    """A node's body words: the index words of its comments that its own fields lack, distinct, the first
    BODY_CAP of them."""
    found = dict.fromkeys(w for w in words(text) if w not in counts) if text else {}
    return list(found)[:BODY_CAP]


Entries = list  # of _file_postings' tuples: one file's postings
# From this many nodes on, a build holds each file's entries as marshal's bytes (what the memo writes), read back
# where they are used: as lists of tokens and ints they were most of what the Linux kernel's meaning worker held
# (3.77 million nodes). Below it (django: 50,000 nodes) the bytes would cost CPU and save little.
PACKED_MIN_NODES = 250_000


def packed_entries(entries: Entries) -> bytes:
    import marshal

    return marshal.dumps(entries)


def unpacked_entries(entries: Entries | bytes) -> Entries:
    """A file's entries, as `packed_entries` wrote them or as they were."""
    if isinstance(entries, bytes):
        import marshal

        return marshal.loads(entries)
    return entries


def _copies(paths: Sequence[str]) -> frozenset[str]:
    """The files a plain-words question should not be answered by: built copies of sources, and Python stubs beside
    the module they declare (cachetools' `__init__.pyi` holds every class and method of `__init__.py` again, with
    no body: the stub's `_AbstractCondition.wait` came first for "a second thread … waits until the first call
    finishes"). A stub stays a file of the symbol index: a protocol may be declared there alone."""
    every = frozenset(paths)
    return built_copies(paths) | {p for p in paths if p.endswith(".pyi") and p[:-1] in every}


def kept_files(nodes: Sequence) -> tuple[Sequence[Sequence], int]:
    """The files the index holds, each its nodes, file node first, in id order; and how many built copies
    it leaves out. Of a large graph's nodes held compactly (`graph.NodeTable`), each file's nodes are made when
    its group is read, and let go after: held, every node of the Linux kernel was made whole again in this
    index's worker (docs/decisions/0023, session 26)."""
    if hasattr(nodes, "file_runs"):
        from gitroute.graph import file_spans

        spans = file_spans(nodes)
        built = _copies(sorted({path for path, *_rest in spans}))
        return _Groups(nodes, [(start, end, path, first) for path, start, end, first in spans if path not in built]), \
            len(built)
    built = _copies(sorted({n.path for n in nodes}))
    return _by_file([n for n in nodes if n.path not in built]), len(built)


class _Groups(Sequence):
    """Files' nodes, each group made from a compact node table when it is read (see `kept_files`)."""

    def __init__(self, nodes: Sequence, spans: list[tuple[int, int, str, int]]) -> None:
        self.nodes, self.spans = nodes, spans

    def __len__(self) -> int:
        return len(self.spans)

    def __getitem__(self, at):
        if isinstance(at, slice):
            return [_Group(self.nodes, *span) for span in self.spans[at]]
        return _Group(self.nodes, *self.spans[at])

    def __iter__(self):
        nodes = self.nodes
        return (_Group(nodes, *span) for span in self.spans)


class _Group(Sequence):
    """One file's nodes in a compact node table, made when first read: its path and first id (`file_head`) are
    known without them, which is all a file whose postings the memo holds needs (the kernel's one-file rebuild
    made every one of 3.8 million nodes here)."""

    __slots__ = ("nodes", "start", "end", "path", "first", "_made")

    def __init__(self, nodes: Sequence, start: int, end: int, path: str, first: int) -> None:
        self.nodes, self.start, self.end, self.path, self.first = nodes, start, end, path, first
        self._made: Sequence | None = None

    def _nodes(self) -> Sequence:
        if self._made is None:
            self._made = self.nodes[self.start:self.end]
        return self._made

    def __len__(self) -> int:
        return self.end - self.start

    def __getitem__(self, at):
        return self._nodes()[at]

    def __iter__(self):
        return iter(self._nodes())


def file_head(group: Sequence) -> tuple[str, int]:
    """(path, first node id) of one file's nodes, without making them when they are a table's (`_Group`)."""
    if isinstance(group, _Group):
        return group.path, group.first
    return group[0].path, group[0].id


def with_anchors(entries: Entries, group: Sequence, anchors: Mapping[int, list[str]],
                  words_memo: dict[str, list[str]], secondary: Callable[[str], bool] = is_secondary) -> Entries:
    """A file's postings with its nodes' anchor texts added, as the `anchor` field: a node's words and length
    change, its body words do not (they are the comments its other fields lack)."""
    first = group[0].id
    if secondary(group[0].path) and SECONDARY_FILES_ONLY:
        group = group[:1]
    said: dict[int, Counter[str]] = {}
    for node in group:
        if node.id in anchors:
            found: Counter[str] = Counter()
            for text in anchors[node.id]:  # one sentence often names several nodes: its words are found once
                text_words = words_memo.get(text)
                if text_words is None:
                    text_words = words_memo[text] = words(text)
                found.update(text_words)
            if found:
                said[node.id - first] = found
    if not said:
        return entries
    bit, weight = FIELDS["anchor"]
    by_offset = {entry[0]: entry for entry in entries}
    out = []
    for offset in sorted(by_offset.keys() | said.keys()):
        entry: tuple = by_offset.get(offset) or (offset, 0, [], [], 0)
        if offset not in said:
            out.append(entry)
            continue
        _, _, tokens, packed, body_length = entry
        own = len(tokens) - body_length  # the body's postings come last and keep their own length
        counts: dict[str, int] = {}
        bits: dict[str, int] = {}
        for token, value in zip(tokens[:own], packed[:own]):
            counts[token], _, bits[token] = decode_posting(value)
        for token, times in said[offset].items():
            counts[token] = counts.get(token, 0) + times * weight
            bits[token] = bits.get(token, 0) | bit
        length = sum(counts.values())
        out.append((offset, length, [*counts, *tokens[own:]],
                    [*(encode_posting(tf, length, bits[token]) for token, tf in counts.items()), *packed[own:]],
                    body_length))
    return out


def files_postings(groups: Sequence[Sequence], read: Callable[[str], bytes | None], memo=None,
                   file_blobs: dict[str, str] | None = None, pack: bool = False,
                   layout: tuple[Callable[[str], bool], dict[str, str] | None] | None = None,
                   ) -> dict[str, Entries | bytes]:
    """Each file's postings without anchor texts (`_file_postings`), by path (groups: `kept_files`); with `pack`,
    as `packed_entries`' bytes.

    With a build memo (`bundle.memo.MemoTable`) and each file's blob id, a file's postings are taken
    from an earlier build when its path, blob and node count are the same. `layout`: `code_layout(groups,
    file_blobs)`, when the caller has worked it out."""
    words_memo: dict[str, tuple] = {}  # a field's text -> (word, times) in first-occurrence order
    payloads: dict[int, int] = {}
    out: dict[str, Entries | bytes] = {}
    secondary, file_blobs = layout or code_layout(groups, file_blobs)
    for group in groups:
        path = file_head(group)[0]
        key = f"{path}\0{file_blobs.get(path, '')}\0{len(group)}" if file_blobs is not None else None
        entries: Entries | bytes | None = memo.get(key) if memo is not None else None
        if entries is None:
            made = _file_postings(group, read, words_memo, payloads, secondary)
            entries = packed_entries(made) if pack else made
        if memo is not None:
            memo.put(key, entries)
        out[path] = entries
    return out


def repository_secondary(groups: Sequence[Sequence]) -> Callable[[str], bool]:
    """`rank.is_secondary` for this repository: where none of its code files is primary and some are secondary only
    for being under `dist/` (a package published as its build alone: minimatch's dist/commonjs and dist/esm, with no
    source beside), `dist/` is the code, not a copy of it (`rank.secondary_but_dist`). Code by the file node's
    language; most repositories answer at their first file of code."""
    dist_code = False
    for group in groups:
        path = file_head(group)[0]
        if secondary_but_dist(path):
            continue
        lang = (group.nodes[group.start] if isinstance(group, _Group) else group[0]).lang
        if lang and lang not in _NO_PROSE:
            if not is_secondary(path):
                return is_secondary
            dist_code = True
    return secondary_but_dist if dist_code else is_secondary


def code_layout(groups: Sequence[Sequence], file_blobs: dict[str, str] | None,
                ) -> tuple[Callable[[str], bool], dict[str, str] | None]:
    """`repository_secondary(groups)`, and `file_blobs` `as_code_marked` by it: `files_postings`' `layout`."""
    secondary = repository_secondary(groups)
    return secondary, as_code_marked(file_blobs, secondary)


def as_code_marked(file_blobs: dict[str, str] | None, secondary: Callable[[str], bool]) -> dict[str, str] | None:
    """`file_blobs` with a mark on the blob id of each file indexed as code where `is_secondary` would not: what a
    file's postings are made of is its blob and that (a memo keyed by blob alone would keep them as they were)."""
    if file_blobs is None or secondary is is_secondary:
        return file_blobs
    return {path: f"{blob}+code" if is_secondary(path) and not secondary(path) else blob
            for path, blob in file_blobs.items()}

