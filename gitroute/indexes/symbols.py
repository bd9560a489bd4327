"""The symbol index: node records chunked by id and token postings sharded by hash, and the query over them.

Postings hold three lists per token (nodes whose name, doc or folder path has the token); a query
reads only the shards of its own tokens, scores candidates cheaply from postings, then reads the
records of the best few hundred and ranks those with `rank.score_node`.
"""
from __future__ import annotations

import fnmatch
import heapq
import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from gitroute.bundle.layout import NODE_CHUNK, POSTINGS_TARGET, SYMBOLS_META, dump_json, node_chunk_path, postings_path, postings_shard
from gitroute.model import Row
from gitroute.rank import Question, idf, parse_question, score_node
from gitroute.text import STOP_WORDS, stem, tokenize

ENTRY_TOKEN = " entry"  # no real token has a space: the postings of entry-point nodes
FIELD_WEIGHT = (3.0, 1.0, 1.5)  # name, doc, path: how much a posting counts before full scoring
CANDIDATES = 200  # records read and fully scored per query
FILTERED_CANDIDATES = 2000  # more when filters will drop some
MAX_DOC = 240
MAX_SIGNATURE = 160

ReadBlobs = Callable[[Sequence[str]], dict[str, bytes]]


@dataclass(frozen=True, slots=True)
class Filters:
    kinds: tuple[str, ...] = ()
    langs: tuple[str, ...] = ()
    path_glob: str | None = None

    def active(self) -> bool:
        return bool(self.kinds or self.langs or self.path_glob)

    def admit(self, path: str, kind: str, lang: str) -> bool:
        return (
            (not self.kinds or kind in self.kinds)
            and (not self.langs or lang in self.langs)
            and (self.path_glob is None or fnmatch.fnmatchcase(path, self.path_glob))
        )

    def describe(self) -> str:
        parts = [f"--kind {','.join(self.kinds)}"] if self.kinds else []
        parts += [f"--lang {','.join(self.langs)}"] if self.langs else []
        parts += [f"--path {self.path_glob}"] if self.path_glob else []
        return " ".join(parts)


# --- build -----------------------------------------------------------------------------------


def _node_tokens(node) -> tuple[set[str], set[str], set[str]]:
    base = node.name.rsplit(".", 1)[0] if node.kind == "file" else node.name
    name = {stem(t) for t in tokenize(base)}
    doc = {stem(t) for t in tokenize(node.doc + " " + node.signature) if t not in STOP_WORDS and len(t) > 1} - name
    path = {stem(t) for t in tokenize(node.path.rsplit("/", 1)[0])} if node.kind == "file" and "/" in node.path else set()
    return name, doc, path


def build_symbol_index(nodes: Sequence) -> tuple[dict[str, bytes], dict]:
    """Blobs of the symbol index (path -> bytes) and its manifest section."""
    postings: dict[str, tuple[list[int], list[int], list[int]]] = defaultdict(lambda: ([], [], []))
    for node in nodes:
        for field, tokens in enumerate(_node_tokens(node)):
            for token in tokens:
                postings[token][field].append(node.id)
        if node.entry:
            postings[ENTRY_TOKEN][0].append(node.id)
    total = sum(len(a) + len(b) + len(c) for a, b, c in postings.values())
    shards = 1
    while shards * POSTINGS_TARGET < total:
        shards *= 2
    sharded: dict[int, dict[str, list[list[int]]]] = defaultdict(dict)
    for token, lists in postings.items():
        sharded[postings_shard(token, shards)][token] = [sorted(lst) for lst in lists]
    blobs = {postings_path(shard): dump_json(value) for shard, value in sharded.items()}
    for start in range(0, len(nodes), NODE_CHUNK):
        chunk = [
            [n.path, n.name, n.kind, n.line, n.end_line, n.lang, int(n.entry),
             n.signature[:MAX_SIGNATURE], n.doc[:MAX_DOC]]
            for n in nodes[start:start + NODE_CHUNK]
        ]
        blobs[node_chunk_path(start)] = dump_json(chunk)
    manifest = {"nodes": len(nodes), "tokens": len(postings), "postings": total, "postings_shards": shards}
    return blobs, manifest


# --- query -----------------------------------------------------------------------------------


def _load(blobs: dict[str, bytes], path: str, corrupt: Callable[[str], Exception]):
    try:
        return json.loads(blobs[path])
    except (KeyError, ValueError) as err:
        raise corrupt(path) from err


def query_symbols(
    text: str,
    section: dict,
    read: ReadBlobs,
    *,
    limit: int,
    filters: Filters,
    explain: bool,
    corrupt: Callable[[str], Exception],
) -> tuple[list[Row], list[str]]:
    """Rank nodes for a question; returns rows and notes (empty rows: no_match, and the notes say why)."""
    question = parse_question(text)
    tokens = list(question.tokens) + ([ENTRY_TOKEN] if question.wants_entry else [])
    if not tokens:
        return [], ["the question has no word that can name something (all stop words)"]
    try:
        shards = int(section["postings_shards"])
        total = int(section["nodes"])
    except (KeyError, TypeError, ValueError) as err:
        raise corrupt(SYMBOLS_META) from err
    paths = sorted({postings_path(postings_shard(t, shards)) for t in tokens})
    blobs = read(paths)
    parsed = {path: _load(blobs, path, corrupt) for path in blobs}
    lists: dict[str, list[list[int]]] = {}
    for token in tokens:
        lists[token] = parsed.get(postings_path(postings_shard(token, shards)), {}).get(token, [[], [], []])

    weights = {t: idf(len(set().union(*lists[t])), total) for t in question.tokens}
    prelim: dict[int, float] = defaultdict(float)
    for token, (name_ids, doc_ids, path_ids) in lists.items():
        w = weights.get(token, 3.0)
        for field, ids in zip(FIELD_WEIGHT, (name_ids, doc_ids, path_ids)):
            for node_id in ids:
                prelim[node_id] += w * field
    if not prelim:
        return [], ["nothing in the bundle shares a word with the question"]

    keep = FILTERED_CANDIDATES if filters.active() else CANDIDATES
    best = heapq.nsmallest(keep, prelim, key=lambda i: (-prelim[i], i))
    chunk_paths = sorted({node_chunk_path(i) for i in best})
    blobs = read(chunk_paths)
    chunks = {path: _load(blobs, path, corrupt) for path in chunk_paths}
    rows: list[Row] = []
    filtered_out = 0
    for node_id in best:
        try:
            record = chunks[node_chunk_path(node_id)][node_id % NODE_CHUNK]
            path, name, kind, line, _end, lang, entry, _signature, doc = record
        except (IndexError, KeyError, TypeError, ValueError) as err:
            raise corrupt(node_chunk_path(node_id)) from err
        if not filters.admit(path, kind, lang):
            filtered_out += 1
            continue
        score, signals = score_node(question, weights, path=path, name=name, kind=kind, doc=doc, entry=bool(entry))
        if score > 0:
            rows.append(Row(path=path, line=line, name=name, kind=kind, score=score,
                            signals=signals if explain else ()))
    rows.sort(key=lambda r: (-r.score, r.path, r.name or "", r.line or 0))
    notes: list[str] = []
    if not rows:
        if filtered_out:
            notes.append(f"{filtered_out} candidates matched, but none passes {filters.describe()}")
        else:
            notes.append("no candidate scored above zero")
    return rows[:limit], notes
