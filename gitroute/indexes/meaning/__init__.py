"""The meaning index: BM25 over node text (names, signatures, docs, messages, paths), by file, with no_match.

A node's text is its name and owner split into words, its signature, its docstring or leading comment,
the message-like string literals inside it, what the documents say where they name it (anchor text, from
the doc↔code links) and, for a file, its path words, its language's name and its header comment. Each
field counts a whole number of times (its weight) in the node's term frequency, so one BM25 over one
bag of words ranks them. The comments inside a node's body are a field apart (postings under `~word`, their
own lengths and idf, a share of their BM25): they reorder what the other fields reach, and are partial
evidence for no_match (a word the best file holds only there covers a share of its weight; a word that only
comments hold is still unknown). Postings (`POSTINGS`, stored through `bundle.tables`) are sharded by token
hash; a question reads the shards of its own words, scores nodes from postings alone (each posting carries the
node's file, term frequency, length and fields), sums each file's best nodes into the file's score, and reads
node records only for the rows it returns.

This module is the seam (build, prepare, answer, warm) and what the index stores; `vocabulary` says how a text
becomes words, `postings` what a file's postings are, `ranking` how files rank and when nothing answers.
"""
from __future__ import annotations

import sys
from bisect import bisect_right
from collections import namedtuple
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial
from operator import itemgetter

from gitroute.bundle.tables import PostingsTable
from gitroute.indexes.meaning.arrays import decode_key, numpy_for, stored_count
from gitroute.indexes.meaning.postings import (
    BODY_BIT,
    BODY_PREFIX,
    FIELDS,
    PACKED_MIN_NODES,
    Entries,
    code_layout,
    decode_posting,
    encode_posting,
    file_head,
    files_postings,
    kept_files,
    packed_entries,
    unpacked_entries,
    with_anchors,
)
from gitroute.indexes.meaning.ranking import (
    BODY_EVIDENCE,
    BODY_WEIGHT,
    EXPANDED,
    SECONDARY,
    Evidence,
    Postings,
    explain_signals,
    matched_words,
    no_match_reason,
    prepare_body,
    prepare_postings,
    rank_files,
)
from gitroute.indexes.meaning.storage import (
    FileTable,
    MeaningPairs,
    dump_file_table,
    load_file_starts,
    load_file_table,
    split_file_table,
)
from gitroute.indexes.meaning.vocabulary import (
    NEIGHBOUR_SHARE,
    NEIGHBOURS_FILE,
    absent_terms,
    alternatives,
    anchor_texts,
    derived_forms,
    fused_words,
    generic_absent,
    joined_pairs,
    neighbour_alternatives,
    neighbours,
    node_fields,
    path_text,
    question_words,
    with_fused_words,
    with_joined_pairs,
    word_stem,
    words,
)
from gitroute.model import Answer, Row
from gitroute.rank import ASKS_SECONDARY, bm25_idf, is_secondary
from gitroute.text import asks_for_entry, question_tokens, tokenize, without_request

# What callers name the index by (api, bench scripts, tests): its parts live in `vocabulary` (words), `postings`
# (what a posting holds, each file's) and `ranking` (files by BM25, the no_match rule).
__all__ = [
    "BODY_BIT", "BODY_EVIDENCE", "BODY_PREFIX", "BODY_WEIGHT", "EXPANDED", "FIELDS", "NEIGHBOURS_FILE",
    "NEIGHBOUR_SHARE", "POSTINGS", "Evidence", "alternatives", "answer", "build", "build_meaning_index",
    "decode_posting", "encode_posting", "files_postings", "neighbour_alternatives", "neighbours", "no_match_reason",
    "node_fields", "path_text", "prepare", "query_meaning", "question_words", "rank_files", "read_postings", "warm",
    "word_stem", "words",
]

NAME = "meaning"
NEEDS: tuple[str, ...] = ("doc_links",)  # its links: what the documents say about a node (anchor text)
EDGES = False
# Bench types this index answers: plain-English questions, and off-topic ones that must be no_match.
QUESTION_TYPES: dict[str, dict] = {"meaning": {}, "negative": {}}

META = "meta.json"
FILES = "files.bin"  # the node ids of files, ascending, and their spans (`storage.split_file_table`)
LENGTHS = "lengths.bin"  # each node's length: the rest of the file table (`storage.FileTable`)
# Token -> its (node id, packed posting) pairs, about 4096 a shard: small blobs to read and rewrite. A posting's
# node length is not stored there (a node's is the same in each of its postings): the file table holds it.
POSTINGS = PostingsTable(NAME, "postings", per_shard=4096, codec=MeaningPairs())


Read = Callable[[Sequence[str]], dict[str, bytes]]
Records = Callable[[Iterable[int]], dict[int, list]]


# --- build -----------------------------------------------------------------------------------


def build_meaning_index(nodes: Sequence, read: Callable[[str], bytes | None], memo=None,
                        file_blobs: dict[str, str] | None = None, anchors: Mapping[int, list[str]] | None = None,
                        prepared: Mapping[str, Entries | bytes] | None = None, stored=None,
                        shards_memo=None, last: object = None,
                        files_kept: tuple[Sequence[Sequence], int] | None = None,
                        ) -> tuple[dict[str, bytes], dict, dict[str, str]]:
    """Blobs of the meaning index (paths relative to its folder), its section, and the shards kept by id.

    Each file's postings come from `prepared` (`files_postings` run earlier, as `prepare` does), else are
    computed here, taken from `memo` as `files_postings` says; then its nodes' anchor texts are added.
    With `shards_memo` (another memo table: each file's postings with their anchor texts, and the postings
    table's state) and `stored` (the bundle the ref holds, `bundle.writer.StoredBlobs`), the table patches
    the shards of the tokens whose postings changed (`bundle.tables.PostingsTable`; `last`: the state to patch from,
    when not the memo's). `files_kept`: `kept_files(nodes)`, when the caller has it."""
    from gitroute.bundle.layout import dump_json

    groups, built = files_kept if files_kept is not None else kept_files(nodes)
    pack = len(nodes) >= PACKED_MIN_NODES
    secondary, file_blobs = layout = code_layout(groups, file_blobs)
    entries_of = prepared if prepared is not None else files_postings(groups, read, memo, file_blobs, pack, layout)
    anchors = anchors or {}
    words_memo: dict[str, list[str]] = {}
    files: dict[str, tuple[int, Entries | bytes]] = {}  # path -> (file node id, postings)
    rows: list[tuple[int, list[tuple[int, int]]]] = []  # the file table's (`file_row`)
    states: dict[str, tuple] = {}  # path -> what its postings are made of: blob, first id, node count, anchors
    total_length = body_total = docs = body_docs = 0
    for group in groups:  # files in id order, so postings come out sorted by node
        path, first = file_head(group)
        said = _anchors_digest(first, len(group), anchors)
        state = (file_blobs.get(path, "") if file_blobs is not None else "", first, len(group), said)
        # The last build's postings, when the file and its anchor texts are the same (the very object the
        # memo holds: its bucket is not written again); else this build's, with the anchor texts' words.
        entries = shards_memo.get(_state_key(path, state)) if shards_memo is not None else None
        if entries is None:
            entries = entries_of[path]
            if said:
                entries = with_anchors(unpacked_entries(entries), group, anchors, words_memo, secondary)
                entries = packed_entries(entries) if pack else entries
        for _offset, length, _tokens, _packed, body_length in (unpacked := unpacked_entries(entries)):
            total_length += length
            docs += 1
            if body_length:
                body_total += body_length
                body_docs += 1
        rows.append(file_row(first, unpacked))  # from the entries unpacked once (a kernel: 76,000 files)
        files[path] = (first, entries)
        states[path] = state
        if shards_memo is not None:
            shards_memo.put(_state_key(path, state), entries)

    def fill(path: str, postings: dict) -> None:
        first, entries = files[path]
        _add_postings(postings, first, unpacked_entries(entries))

    def fill_old(path: str, state: object, postings: dict) -> bool:
        """A file's postings as the last build made them (the memo's, under the key of its state then)."""
        if not (isinstance(state, tuple) and len(state) == 4) or shards_memo is None:
            return False
        entries = shards_memo.peek(_state_key(path, state))
        if entries is None:
            return False
        _add_postings(postings, state[1], unpacked_entries(entries))
        return True

    table = POSTINGS.build(states, fill, memo=shards_memo, stored=stored, old=fill_old, last=last)
    blobs_out = dict(table.blobs)
    section = {
        "counts": {"documents": docs, "tokens": table.keys, "postings": table.size, "built_copies": built},
        "documents": docs,
        "nodes": len(nodes),
        "avgdl": round(total_length / docs, 4) if docs else 0.0,
        "body_documents": body_docs,
        "body_avgdl": round(body_total / body_docs, 4) if body_docs else 0.0,
        "postings_shards": table.shards,
        "fields": {name: [bit, weight] for name, (bit, weight) in FIELDS.items()},
    }
    # A file's nodes are numbered from its own id up to the next file's: the file of any node is a bisection.
    blobs_out[FILES], blobs_out[LENGTHS] = split_file_table(dump_file_table(sorted(rows, key=itemgetter(0))))
    blobs_out[META] = dump_json(section)
    return blobs_out, section, table.kept


def _anchors_digest(first: int, count: int, anchors: Mapping[int, list[str]]) -> str:
    """A digest of the anchor texts of a file's nodes, ids `first` and the `count` after ("" when none): what its
    postings depend on besides its blob."""
    if not anchors:
        return ""
    said = [(node_id - first, anchors[node_id]) for node_id in range(first, first + count) if node_id in anchors]
    if not said:
        return ""
    import hashlib

    return hashlib.blake2b(repr(said).encode(), digest_size=16).hexdigest()


def _state_key(path: str, state: Sequence) -> str:
    blob, _first, count, said = state
    return f"{path}\0{blob}\0{count}\0{said}"


def _add_postings(postings: dict[str, list[int]], first: int, entries: list) -> None:
    """A file's postings into the table's: flat, node then payload (`storage.MeaningPairs`), no tuple a posting."""
    for offset, _length, tokens, packed, _body in entries:
        node_id = first + offset
        for token, value in zip(tokens, packed):
            held = postings[token]
            held.append(node_id)
            held.append(value)


CLAIMS = "\0claims"  # the shards memo's entry: the doc_links claims the last build's anchor texts came from
BEFORE = "\0shards before"  # the shards memo's entry: the postings table's state before `prepare` built ahead


class PreparedBuild(namedtuple("PreparedBuild", "entries claims_digest built", defaults=(None, None))):
    """What `prepare` hands `build`. Without the last build's claims: every file's postings without anchor
    texts (`entries`). With them: the whole index built from them (`built`) and their digest, and no
    entries (5 MB of lists a worker would pickle for nothing, most times): the build takes it when
    doc_links' claims are the same (a commit that changes no document nor what one names), and else
    reads each file's postings back from the memo `prepare` saved.

    entries: dict[str, Entries] | None; claims_digest: str | None, of the claims `built` comes from;
    built: tuple[dict[str, bytes], dict, dict[str, str]] | None. A collections namedtuple: `typing` costs a cold
    query that imports this module more than the module itself."""

    __slots__ = ()


def _digest(claims: list) -> str:
    """Of doc_links' claims (plain tuples): `repr` spells equal values alike, however they were made."""
    import hashlib

    return hashlib.blake2b(repr(claims).encode(), digest_size=16).hexdigest()


def build(inputs) -> object:
    """The seam's build step (inputs: indexes.BuildInputs)."""
    from gitroute.indexes import PREPARED, IndexBuild

    claims = inputs.outputs.get("doc_links") or []
    prepared = inputs.outputs.get(PREPARED)
    ahead = prepared.built is not None if isinstance(prepared, PreparedBuild) else False
    if ahead and prepared.claims_digest == _digest(claims):
        blobs, section, kept = prepared.built  # `prepare` saved the shards memo as this build would have
    else:
        entries = prepared.entries if isinstance(prepared, PreparedBuild) else None
        memo = inputs.memo.table(NAME) if inputs.memo is not None and entries is None else None
        # What the shards were made of is a table of its own: `prepare` keeps NAME's, in another process.
        shards_memo = inputs.memo.table(f"{NAME} shards") if inputs.memo is not None else None
        last = None
        if shards_memo is not None:
            last = shards_memo.get(BEFORE) if ahead else None
            if isinstance(prepared, PreparedBuild):  # (a lean build has no prepare step to predict them)
                shards_memo.put(CLAIMS, _relocatable(claims, _file_spans(inputs.graph.nodes)))
        anchors = anchor_texts(claims, inputs.documents or {})
        blobs, section, kept = build_meaning_index(inputs.graph.nodes, _reader(inputs), memo, _blobs(inputs),
                                                   anchors, entries, inputs.previous, shards_memo, last)
    blobs.pop(META, None)  # the writer stores the section as meta.json
    return IndexBuild(blobs=blobs, section=section, warnings=(), output=None, kept=kept)


def prepare(inputs) -> PreparedBuild:
    """The seam's prepare step, run while doc_links links the documents: every file's postings without
    anchor texts and, with a memo, the whole index built ahead from the last build's doc_links claims
    (most commits leave them as they were: `build` then only compares them). What the shards were made
    of before is kept (BEFORE, and each changed file's earlier entries) for a build whose claims moved."""
    memo = inputs.memo.table(NAME) if inputs.memo is not None else None
    kept = kept_files(inputs.graph.nodes)
    entries = files_postings(kept[0], _reader(inputs), memo, _blobs(inputs))
    if inputs.memo is None:
        return PreparedBuild(entries)
    shards_memo = inputs.memo.table(f"{NAME} shards")
    claims = anchors = None
    try:  # the last build's claims (`_relocatable`), in this build's node ids
        claims = _located(shards_memo.get(CLAIMS), _file_spans(inputs.graph.nodes))
        anchors = anchor_texts(claims, inputs.documents or {}) if claims is not None else None
    except (TypeError, ValueError, IndexError):  # not what this code's build stored: nothing built ahead
        anchors = None
    if claims is None or anchors is None:
        return PreparedBuild(entries)
    before = POSTINGS.state(shards_memo)
    shards_memo.put(BEFORE, before)
    for path, state in (before[1] if before is not None else {}).items():
        if isinstance(state, tuple) and len(state) == 4:
            shards_memo.get(_state_key(path, state))  # kept: the entries a build whose claims moved patches from
    built = build_meaning_index(inputs.graph.nodes, _reader(inputs), None, _blobs(inputs), anchors, entries,
                                inputs.previous, shards_memo, files_kept=kept)
    return PreparedBuild(None, _digest(claims), built)


def _file_spans(nodes: Sequence) -> list[tuple[int, str, int]]:
    """(first node id, path, node count) of each file, in id order: a file's nodes are numbered from its own id."""
    from gitroute.graph import file_spans  # a large graph's compact table: no node made

    return [(first, path, end - start) for path, start, end, first in file_spans(nodes)]


def _relocatable(claims: list, spans: list[tuple[int, str, int]]) -> list | None:
    """doc_links' claims with each node id spelled (its file's path, its place in the file): what `prepare` predicts
    the next build's claims from. A commit that adds a symbol renumbers the nodes after it in its bucket, and a claim
    on one of them would differ by id alone: built ahead from ids, the index was built again (a third of a
    one-file rebuild on django). None when a node lies in no file."""
    firsts = [first for first, _path, _count in spans]
    relocated = []
    for *head, nodes in claims:
        spelled: list = []
        for node in nodes:
            at = bisect_right(firsts, node) - 1
            if at < 0 or node - firsts[at] >= spans[at][2]:
                return None
            spelled += (spans[at][1], node - firsts[at])
        relocated.append((*head, tuple(spelled)))
    return relocated


def _located(relocatable: object, spans: list[tuple[int, str, int]]) -> list | None:
    """The claims `_relocatable` spelled, in this build's node ids; None when a file they name is gone or now
    holds fewer nodes (the prediction would be wrong: `build` makes the index from the claims themselves)."""
    if not isinstance(relocatable, list):
        return None
    files = {path: (first, count) for first, path, count in spans}
    claims = []
    for *head, spelled in relocatable:
        nodes = []
        for path, offset in zip(spelled[::2], spelled[1::2]):
            first, count = files.get(path, (0, 0))
            if not 0 <= offset < count:
                return None
            nodes.append(first + offset)
        claims.append((*head, tuple(nodes)))
    return claims


def _blobs(inputs) -> dict[str, str]:
    return {f.path: f.blob for f in inputs.files}


def _reader(inputs) -> Callable[[str], bytes | None]:
    def read(path: str) -> bytes | None:
        try:
            return inputs.read(path)
        except Exception:  # a blob the build could not read (missing in a partial clone): no prose, no failure
            return None

    return read


# --- query -----------------------------------------------------------------------------------


def file_row(first: int, entries: Entries) -> tuple[int, list[tuple[int, int]]]:
    """A file's row of the file table (`storage.dump_file_table`): its first node id, and the length each of its
    nodes' postings held (a body word's posting keeps its own)."""
    return first, [(offset, decode_posting(packed[0])[1] if len(tokens) > body_length else 0)
                   for offset, _length, tokens, packed, body_length in entries]


def _load(blobs: dict[str, bytes], path: str, corrupt: Callable[[str], Exception]):
    """A blob's JSON, parsed by the floor (`validate.load_blob`); a missing or unreadable one is `corrupt`."""
    from gitroute.bundle.validate import BadValue, load_blob

    if path not in blobs:
        raise corrupt(path)
    try:
        return load_blob(blobs[path])
    except BadValue as err:
        raise corrupt(path) from err


def read_postings(tokens: Sequence[str], section: dict, read: Read,
                  corrupt: Callable[[str], Exception], memo: dict | None = None) -> dict[str, Postings]:
    """The postings of these tokens only: one read of the shards that hold them (none when `warm` read all)."""
    decoded = memo.get("postings") if memo is not None else None
    if decoded is not None:
        return {t: decoded[t] for t in tokens if t in decoded}
    try:
        shards = int(section["postings_shards"])
    except (KeyError, TypeError, ValueError) as err:
        raise corrupt(META) from err
    # Many postings are decoded into arrays (`arrays.decode_pairs`), which the ranking then walks as arrays; the
    # count is each value's first varint, read before anything is decoded.
    stored = POSTINGS.read_shards(read, {POSTINGS.key_path(token, shards) for token in tokens}, corrupt,
                                  memo.pop("stored_ahead", None) if memo is not None else None)
    np = numpy_for(_stored_postings(stored, tokens, shards))
    decode = None if np is None else partial(decode_key, np, POSTINGS.codec)
    found = POSTINGS.read(read, tokens, shards, corrupt, stored, decode=decode)
    return {token: values for token, values in found.items() if values}


def _asked_words(text: str) -> tuple[list[str], set[str]]:
    """The question's words (`question_words`), and those of them that ask for the entry point ("where is the entry
    point of the cli": the symbol tiers' to answer, from manifests and main guards; no evidence of an off-topic
    question)."""
    asked = without_request(text)  # "explain how", "the code that", "which function": `query` takes them out too
    return question_words(asked), {word_stem(t) for t in _ENTRY_PHRASE} if asks_for_entry(text) else set()


def numpy_ahead(text: str, section: dict, read: Read, corrupt: Callable[[str], Exception], memo: dict) -> None:
    """Before the symbol tiers answer a plain-words question: when its own words hold enough postings that
    `read_postings` will import numpy for them (`arrays.numpy_for`), import it now, so that the symbol tiers decode
    their long postings over arrays too (a kernel's sentence: about 30 ms). The shards read wait in `memo` for
    `read_postings`, which takes them (one question's, never kept longer). No question takes numpy that did not."""
    if "numpy" in sys.modules or memo.get("postings") is not None:
        return
    tokens, asking = _asked_words(text)
    if not [t for t in tokens if t not in asking]:
        return
    try:
        shards = int(section["postings_shards"])
    except (KeyError, TypeError, ValueError) as err:
        raise corrupt(META) from err
    stored = memo["stored_ahead"] = POSTINGS.read_shards(read, {POSTINGS.key_path(t, shards) for t in tokens},
                                                          corrupt)
    numpy_for(_stored_postings(stored, tokens, shards))


def _stored_postings(stored: dict[str, dict], tokens: Sequence[str], shards: int) -> int:
    """How many postings these tokens hold in the shards read (`stored`), before any is decoded."""
    return sum(map(stored_count, POSTINGS.stored_values(stored, tokens, shards)))


def _files(read: Read, corrupt: Callable[[str], Exception], memo: dict | None = None) -> FileTable:
    """The node ids of files, ascending, with their nodes' lengths (kept in `memo` when there is one): the table's
    two blobs (`storage.split_file_table`), the first neither read nor parsed again when `file_starts` read it."""
    from gitroute.bundle.validate import BadValue

    files = memo.get("files") if memo is not None else None
    if files is None:
        head = memo.get("files_head") if memo is not None else None
        blobs = read([LENGTHS] if head is not None else [FILES, LENGTHS])
        for path in (FILES, LENGTHS) if head is None else (LENGTHS,):
            if path not in blobs:
                raise corrupt(path)
        try:
            files = (load_file_table(blobs[FILES], blobs[LENGTHS]) if head is None else
                     load_file_table(head, blobs[LENGTHS], memo.get("file_starts") if memo is not None else None))
        except BadValue as err:
            raise corrupt(FILES) from err
        if memo is not None:
            memo["files"] = files
    return files


def file_starts(view) -> list[int] | None:
    """The node ids of files, ascending, the file of any node is a bisection (kept in the view's memo, which the
    meaning query reads them from too); None when the bundle has no meaning index. The symbol query bounds a
    candidate's path words by its file's (`symbols.FilePlaces`): it reads the table's first blob alone, not the
    nodes' lengths (`storage.load_file_starts`)."""
    memo = view.memo
    files = memo.get("files")
    if files is not None:
        return files.starts
    starts = memo.get("file_starts")
    if starts is None:
        from gitroute.bundle.validate import BadValue

        blobs = view.read([FILES])
        if FILES not in blobs:
            return None
        try:
            starts = load_file_starts(blobs[FILES])
        except BadValue as err:
            raise view.corrupt(FILES) from err
        memo["file_starts"], memo["files_head"] = starts, blobs[FILES]
    return starts


def warm(view) -> None:
    """Decode every postings shard and the files now, into the view's memo (a warm server, when it pins),
    with each word's BM25 terms: a question is then a few sums over lists made ready."""
    memo = view.memo
    if "postings" in memo:
        return
    section = view.section
    try:
        shards = int(section["postings_shards"])
    except (KeyError, TypeError, ValueError) as err:
        raise view.corrupt(META) from err
    files = _files(view.read, view.corrupt, memo)
    decoded = {token: values for token, values in POSTINGS.read_every(view.read, shards, view.corrupt).items()
               if values}
    try:  # the section's numbers too: a bundle from elsewhere may hold anything there
        n = int(section.get("documents") or 1)
        avgdl = float(section.get("avgdl") or 1.0)
        memo["prepared"] = {(token, False): prepare_body(values, section, files) if token.startswith(BODY_PREFIX)
                            else prepare_postings(values, bm25_idf(len(values), n), avgdl, files)
                            for token, values in decoded.items()}
    except (TypeError, ValueError) as err:
        raise view.corrupt("postings") from err
    memo["postings"] = decoded


def query_meaning(
    text: str,
    section: dict,
    read: Read,
    *,
    limit: int,
    explain: bool,
    corrupt: Callable[[str], Exception],
    records: Records,
    gate: bool = True,
    memo: dict | None = None,
) -> tuple[list[Row], list[str], Evidence | None]:
    """Rank files for a question in plain words; empty rows mean no_match, and the notes say why.

    `records` gives the graph's node records by id (path, name, owner, kind, line, ...): the rows name
    what the graph stores, and only the files ranked near the top are looked up. `memo` (the index
    view's, kept per pinned bundle; see `warm`) keeps decoded postings for the next question.
    """
    tokens, asking = _asked_words(text)
    if not [t for t in tokens if t not in asking]:
        return [], [no_match_reason(Evidence({}, [], 0.0, 0.0), []) or ""], None
    alternates = alternatives(tokens) if EXPANDED else {}
    body = [BODY_PREFIX + t for t in tokens] if BODY_WEIGHT and section.get("body_documents") else []
    fused = fused_words(text, tokens)
    joined = joined_pairs(text, tokens, fused)
    postings = read_postings([*tokens, *alternates, *body, *fused, *joined], section, read, corrupt, memo)
    tokens = with_fused_words(tokens, fused, postings)
    for word in fused.keys() - set(tokens):  # read in case: the question keeps the humps
        postings.pop(word, None)
    for hump in {h for humps in fused.values() for h in humps} - set(tokens):  # "GnuTLS" is one word: no hump's
        postings.pop(BODY_PREFIX + hump, None)  # comments, which no question word would weigh (libjwt)
    with_joined_pairs(joined, postings, alternates)
    numbers = [t for t in tokens if t.isdigit() and t not in postings]
    if numbers and len(numbers) < len(tokens):  # an example's value ("an offset like +05:30"), not a word to find
        tokens = [t for t in tokens if t not in numbers]
        for number in numbers:
            postings.pop(BODY_PREFIX + number, None)
    held = set(postings) | {word for alt, word in alternates.items() if alt in postings}
    absent = [t for t in tokens if t not in held and t not in asking]
    forms = {form: word for word in absent if BODY_PREFIX + word not in postings
             for form in derived_forms(word) if form not in tokens}
    near, shares = neighbour_alternatives(absent, tokens, {**alternates, **forms})
    if near or forms:  # a second read, only for words the repository lacks
        bodies = [BODY_PREFIX + form for form in forms] if body else []
        postings.update(read_postings([*forms, *bodies, *near], section, read, corrupt, memo))
        tokens, alternates, near = _derived(tokens, forms, postings, alternates, near)
        alternates = {**alternates, **near}
    wants_secondary = bool(set(question_tokens(text)) & ASKS_SECONDARY)
    files: FileTable | list[int] = _files(read, corrupt, memo) if postings else []
    head_size = max(limit * 4, 40)
    try:
        # the files read further (their nodes best first): the head that demotion re-ranks, which holds the rows
        ranked, per_file, matched, evidence = rank_files(tokens, postings, section, files, alternates, memo, shares,
                                                         keep=head_size)
    except (TypeError, ValueError) as err:  # postings that are not ascending numbers
        raise corrupt("postings") from err
    evidence.missing = [t for t in evidence.missing if t not in asking]
    if generic := generic_absent(tokens, evidence.missing):  # "throws away": no word the best file must hold
        evidence.weigh_nothing(generic, per_file[ranked[0][1]] if ranked else (), matched)
    # A term a comment inside some node writes is no term the repository lacks ("Number of ASCII chars"): the
    # body's words are no evidence for the ranking's coverage, but they are for what the repository mentions.
    evidence.absent_terms = absent_terms(text, [t for t in evidence.missing if BODY_PREFIX + t not in postings])
    evidence.spelled = {word_stem(t): t for t in reversed(tokenize(text.lower()))}
    known: dict[int, list] = {}
    if not wants_secondary and ranked:
        # Demotion needs paths: look up the leading files only.
        head = ranked[:head_size]
        known.update(records(fid for _, fid in head))
        demoted = {fid for fid, record in known.items() if is_secondary(record[0])}
        ranked = sorted(((score * (SECONDARY if fid in demoted else 1.0), fid) for score, fid in head),
                        key=lambda p: (-p[0], p[1]))
        if ranked:
            evidence.cover(per_file[ranked[0][1]], matched)
    evidence.asked(text, ranked)
    reason = no_match_reason(evidence, tokens) if ranked else (
        no_match_reason(evidence, tokens) or "nothing in the bundle shares a word with the question")
    if reason is not None and (gate or not ranked):
        return [], [reason], evidence
    rows = _rows(ranked[:limit], per_file, matched, evidence, known, records, explain)
    return rows, _notes(evidence, near, postings), evidence


def _derived(tokens: list[str], forms: Mapping[str, str], postings: dict, alternates: dict[str, str],
             near: dict[str, str]) -> tuple[list[str], dict[str, str], dict[str, str]]:
    """A question word the repository lacks, asked as its derived form the repository holds most (`derived_forms`):
    the same word to the ranking and the evidence, no alternative at a share of it. The postings of forms not
    taken are dropped; an alternative or neighbour of a word so asked stands for the form, or goes."""
    chosen: dict[str, str] = {}
    for form, word in forms.items():
        if form in postings and (word not in chosen or len(postings[form]) > len(postings[chosen[word]])):
            chosen[word] = form
    for form in forms.keys() - chosen.values():
        postings.pop(form, None)
        postings.pop(BODY_PREFIX + form, None)
    if not chosen:
        return tokens, alternates, near
    tokens = [chosen.get(t, t) for t in tokens]
    alternates = {alt: chosen.get(word, word) for alt, word in alternates.items()}
    for other in [other for other, word in near.items() if word in chosen]:
        del near[other]
        postings.pop(other, None)
    return tokens, alternates, near


def _rows(top: list[tuple[float, int]], per_file: Mapping[int, list[tuple[float, int]]], matched: dict,
          evidence: Evidence, known: dict[int, list], records: Records, explain: bool) -> list[Row]:
    """A row per file, named by its best node (the file's own when it is the best), as the graph's records say."""
    best_nodes = {fid: per_file[fid][0][1] for _, fid in top}
    known.update(records(n for n in best_nodes.values() if n not in known))
    rows: list[Row] = []
    for score, fid in top:
        node = best_nodes[fid]
        record = known.get(node)
        if record is None:
            continue  # the graph does not hold it: a bundle whose indexes disagree would be damaged
        path, name, owner, kind, line = record[:5]
        signals: tuple[tuple[str, float], ...] = ()
        extra: tuple[tuple[str, object], ...] = ()
        if explain:
            signals = explain_signals(fid, per_file[fid], matched, evidence.weights)
            extra = (("matched", matched_words(per_file[fid], matched)),)
        rows.append(Row(path=path, line=line if kind != "file" else None,
                        name=(f"{owner}.{name}" if owner else name) if kind != "file" else None,
                        kind=kind, score=round(score, 3), signals=signals, extra=extra))
    return rows


def _notes(evidence: Evidence, near: Mapping[str, str], postings: Mapping[str, Postings]) -> list[str]:
    """The words no node holds, and those read as their nearest neighbours."""
    notes = []
    if evidence.missing:
        notes.append("no node holds: " + evidence.named(evidence.missing))
    read_as: dict[str, list[str]] = {}
    for other, word in near.items():
        if other in postings:
            read_as.setdefault(word, []).append(other)
    if read_as:
        notes.append("words the repository lacks, read as their nearest: " + "; ".join(
            f"{evidence.named([word])} as {', '.join(others)}" for word, others in read_as.items()))
    return notes


_ENTRY_PHRASE = ("entry", "entrypoint", "point", "main")  # not "launch" or "start": ordinary verbs elsewhere


def answer(view, question: str, *, limit: int = 10, explain: bool = False, **options) -> Answer:
    """The seam's answer: files for a question in plain words, or no_match with the reason."""
    section = view.section
    if not isinstance(section, dict):
        raise view.corrupt(META)
    rows, notes, _ = query_meaning(question, section, view.read, limit=limit, explain=explain, corrupt=view.corrupt,
                                   records=view.graph.records, memo=view.memo)
    return Answer("routed" if rows else "no_match", view.source, tuple(rows), tuple(notes))
