"""The meaning index: BM25 over node text (names, signatures, docs, messages, paths), by file, with no_match.

A node's text is its name and owner split into words, its signature, its docstring or leading comment,
the message-like string literals inside it, what the documents say where they name it (anchor text, from
the doc↔code links) and, for a file, its path words, its language's name and its header comment. Each
field counts a whole number of times (its weight) in the node's term frequency, so one BM25 over one
bag of words ranks them. The comments inside a node's body are a field apart (postings under `~word`, their
own lengths and idf, a share of their BM25): they reorder what the other fields reach, and are partial
evidence for no_match (a word the best file holds only there covers a share of its weight; a word that only
comments hold is still unknown). Postings are sharded by token hash; a question reads the shards of its own
words, scores nodes from postings alone (each posting carries the node's file, term frequency, length
and fields), sums each file's best nodes into the file's score, and reads node records only for the
rows it returns.
"""
from __future__ import annotations

import json
import re
from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import itemgetter
from pathlib import Path
from typing import NamedTuple

from gitroute.bundle.tables import GapPairs, PostingsTable
from gitroute.model import Answer, Row
from gitroute.rank import bm25_idf, bm25_term, built_copies, is_secondary
from gitroute.text import STOP_WORDS, asks_for_entry, stem, tokenize

NAME = "meaning"
NEEDS: tuple[str, ...] = ("doc_links",)  # its links: what the documents say about a node (anchor text)
EDGES = False
# Bench types this index answers: plain-English questions, and off-topic ones that must be no_match.
QUESTION_TYPES: dict[str, dict] = {"meaning": {}, "negative": {}}

META = "meta.json"
FILES = "files.json"  # the node ids of files, ascending
# Token -> its (node id, packed posting) pairs, about 4096 a shard: small blobs to read and rewrite.
POSTINGS = PostingsTable(NAME, "postings", per_shard=4096, codec=GapPairs())

# Fields: (bit, weight). The weight is how many times a word of the field counts in the node's tf.
FIELDS = {"name": (1, 5), "owner": (2, 1), "signature": (4, 1), "doc": (8, 3), "message": (16, 1),
          "path": (32, 2), "header": (64, 2), "anchor": (256, 1)}  # weights measured: docs/decisions/0011
FIELD_NAMES = tuple(FIELDS)
# Words that frame a question about code rather than say what it is about.
FRAME_WORDS = frozenset(
    """code codebase logic implement implemented implementation implements handle handled handles handling
    happen happens located location place part piece thing things way done work works file files project
    repository library module defined define defines responsible somewhere actually
    whether came come comes another instead every each also just like so than too very such only other same some
    many much still yet while upon via per onto tell tells kept keep get gets go goes not no
    against over inside outside within without through throughout between among across along around behind beyond
    toward towards until since above below near together everything something anything nothing everyone someone
    anyone already always never often again ever here now own ones one more most less fewer few""".split()
)  # the second half: prepositions, pronouns, adverbs and quantifiers a question uses but code rarely names (0011)
# Language names -> locale codes: a question's "german" reaches `de`, and a file named by a locale code in a
# locale folder (`locales/de.ts`, `locale/de/formats.py`) holds its language's name as a path word.
LOCALES = {
    "english": "en", "german": "de", "french": "fr", "spanish": "es", "portuguese": "pt", "russian": "ru",
    "chinese": "zh", "japanese": "ja", "korean": "ko", "dutch": "nl", "polish": "pl", "turkish": "tr",
    "arabic": "ar", "swedish": "sv", "greek": "el", "hebrew": "he", "czech": "cs", "ukrainian": "uk",
}
# A small curated thesaurus: a word a user says -> the words code spells it with. An alternative counts
# EXPANDED of its own BM25 and stands for the question's word in coverage (never adds weight of its own).
# Kept general on purpose (docs/decisions/0011): programming synonyms and language names -> locale codes.
EXPANSIONS = {
    "encrypted": "secure https tls ssl", "encryption": "secure https tls ssl", "secure": "https tls ssl",
    "folder": "directory dir", "directory": "folder", "delete": "remove unlink", "remove": "delete unlink",
    "erase": "remove delete", "cut": "truncate", "shorten": "truncate", "piece": "chunk slice part",
    "chunk": "slice part", "save": "store write persist", "store": "save", "display": "render show",
    "show": "render display", "stop": "close shutdown", "finish": "close end", "copy": "clone",
    "check": "validate verify", "verify": "check validate", "validate": "check verify", "fail": "error",
    "failure": "error", "restart": "reload", "reload": "restart", "change": "modify update",
    "count": "len size", "size": "len length", "length": "size", "maximum": "max", "minimum": "min",
    "password": "credential", "login": "auth", "link": "url href", "address": "addr url ip",
    "join": "concat merge", "merge": "join combine", "search": "lookup query", "lookup": "search",
    "order": "sort", "sort": "order", "escape": "quote sanitize", "encode": "serialize marshal",
    "decode": "parse unmarshal deserialize", "serialize": "encode marshal dump", "parse": "decode",
    "hash": "digest", "compress": "gzip deflate zip", "proxy": "forward", "schedule": "timer cron",
    "wait": "timeout sleep", "retry": "attempt", "attribute": "field property", "property": "attr field",
    **LOCALES,
}
LOCALE_NAMES = {code: name for name, code in LOCALES.items()}
LOCALE_FOLDERS = frozenset(("locale", "locales", "i18n", "l10n", "lang", "langs", "languages", "translations"))
# A file's language as a user names it ("the javascript side"); a language not listed is named by its grammar.
LANGUAGE_WORDS = {"javascript": "javascript js", "typescript": "typescript ts", "tsx": "typescript tsx",
                  "objc": "objective objc", "csharp": "csharp", "go": "golang", "bash": "shell bash"}
EXPANDED = 0.3  # measured 0.3, 0.5, 0.8: docs/decisions/0011
# A question word that occurs nowhere in the repository is read as its nearest words by an embedding model
# (package data written by bench/neighbours.py), each an alternative at EXPANDED. A neighbour at least
# NEIGHBOUR_EVIDENCE close stands in for the word in the no_match evidence, for NEIGHBOUR_SHARE of its weight;
# a farther one only ranks. Measured: docs/decisions/0011, session 18.
NEIGHBOURS_FILE = Path(__file__).with_name("neighbours.tsv")
NEIGHBOUR_EVIDENCE = 0.7
NEIGHBOUR_SHARE = 0.5
MAX_DOC = 600
NODE_TOP = 3  # a file's score sums its best few nodes, each half the one before
NODE_DECAY = 0.5
SECONDARY = 0.5  # tests, examples, docs, built output: unless the question asks for them
# no_match when a share of the question's words occur nowhere in the repository (first) and the best file
# covers less than a share of the question's idf weight (second): the more words are unknown, the more the
# rest must hold together. Calibrated on the benches' meaning and negative questions: docs/decisions/0010.
NO_MATCH_FLOORS = ((0.5, 0.5), (0.0, 0.26))
MIN_IDF = 1.0  # a best file that matches only words this common (idf below) routes nothing
# A word the best file holds only in the comments inside its nodes covers this share of its weight in the
# coverage above (it stays unknown when no field of any node holds it). Measured: docs/decisions/0010, session 17.
BODY_EVIDENCE = 0.5

# A node's body: the words of the comments inside it, a field of its own (postings under BODY_PREFIX + word,
# with their own lengths and idf) that adds BODY_WEIGHT of its BM25 to the node's score and is partial evidence
# for the no_match rule (BODY_EVIDENCE). Measured against identifiers too, whole files and other weights:
# docs/decisions/0011.
BODY_WEIGHT = 0.3
BODY_CAP = 64  # distinct words per node, in order: a long function's comments say no more after that
BODY_PREFIX = "~"  # no index word holds it (words are letters and digits)
BODY_BIT = 128

Read = Callable[[Sequence[str]], dict[str, bytes]]
Postings = list[tuple[int, int]]  # a token's (node id, packed posting) pairs, ascending by node
Records = Callable[[Iterable[int]], dict[int, list]]


# --- text ------------------------------------------------------------------------------------


_stem_memo: dict[str, str] = {}


def word_stem(token: str) -> str:
    """One word's index form: text.stem, the symbol query's stemmer (Snowball measured no better: 0011)."""
    found = _stem_memo.get(token)
    if found is None:
        found = stem(token)
        if len(_stem_memo) < 1 << 18:
            _stem_memo[token] = found
    return found


def words(text: str) -> list[str]:
    """Index words of a text: identifier parts, stop and one-letter words dropped, stemmed.

    Questions are asked in English: letters outside ASCII are dropped rather than sent through the
    tokenizer's slow Unicode path (translations and vendored data are most of them).
    """
    if not text.isascii():
        text = text.encode("ascii", "ignore").decode("ascii")
    memo = _stem_memo
    return [memo.get(t) or word_stem(t) for t in tokenize(text) if len(t) > 1 and t not in STOP_WORDS]


def question_words(text: str) -> list[str]:
    """A question's words: as `words`, less the words that frame a question; deduplicated, in order."""
    return list(dict.fromkeys(word_stem(t) for t in tokenize(text)
                              if len(t) > 1 and t not in STOP_WORDS and t not in FRAME_WORDS))


_EXPANDED_STEMS: dict[str, tuple[str, ...]] = {}


def alternatives(tokens: Sequence[str]) -> dict[str, str]:
    """alternative stem -> the question word it stands for, from EXPANSIONS (words the question has left out)."""
    if not _EXPANDED_STEMS:
        for word, alts in EXPANSIONS.items():
            _EXPANDED_STEMS[word_stem(word)] = tuple(word_stem(a) for a in alts.split())
    found: dict[str, str] = {}
    for token in tokens:
        for alt in _EXPANDED_STEMS.get(token, ()):
            if alt not in tokens and alt not in found:
                found[alt] = token
    return found


_neighbours_text: list[str] = []


def neighbours(word: str) -> list[tuple[str, float]]:
    """The nearest words of one stem, closest first, from the neighbours table (empty when it holds none)."""
    if not _neighbours_text:
        try:
            _neighbours_text.append("\n" + NEIGHBOURS_FILE.read_text(encoding="ascii"))
        except (OSError, ValueError):  # an install without the table answers as before it existed
            _neighbours_text.append("")
    text = _neighbours_text[0]
    at = text.find("\n" + word + "\t")
    if at < 0:
        return []
    start = at + len(word) + 2
    found = []
    for pair in text[start:text.find("\n", start)].split():
        other, _, cosine = pair.partition(":")
        found.append((other, float(cosine)))
    return found


def neighbour_alternatives(absent: Sequence[str], tokens: Sequence[str],
                           alternates: Mapping[str, str]) -> tuple[dict[str, str], dict[str, float]]:
    """For question words the repository lacks: neighbour stem -> the word it stands for, and each neighbour's
    share of that word's weight in the no_match evidence (NEIGHBOUR_SHARE when near, else nothing)."""
    found: dict[str, str] = {}
    shares: dict[str, float] = {}
    for word in absent:
        for other, cosine in neighbours(word):
            if other not in tokens and other not in alternates and other not in found:
                found[other] = word
                shares[other] = NEIGHBOUR_SHARE if cosine >= NEIGHBOUR_EVIDENCE else 0.0
    return found, shares


def _signature_words(signature: str, name: str) -> str:
    # The name is its own field: keep the parameters and types, what follows the name.
    at = signature.find(name) if name else -1
    return signature[at + len(name):] if at >= 0 else signature


def path_text(path: str, lang: str) -> str:
    """A file's path text: its folders and name without the extension, its language's name, and the
    language a locale file is in."""
    parts = path.split("/")
    if "." in parts[-1]:
        parts[-1] = parts[-1].rsplit(".", 1)[0]
    said = [LANGUAGE_WORDS.get(lang, lang)] if lang else []
    if any(part.lower() in LOCALE_FOLDERS for part in parts[:-1]):
        for part in reversed(parts[-2:]):  # `de.ts`, or `de/formats.py`; `pt_BR` and `zh-Hans` are their language
            name = LOCALE_NAMES.get(part.lower().replace("_", "-").split("-", 1)[0])
            if name:
                said.append(name)
                break
    return " ".join(("/".join(parts), *said))


def node_fields(node, messages: Sequence[str] = (), header: str = "") -> dict[str, str]:
    """The text of each field of a node (model.Node) but its anchor text (`_with_anchors`): what the index
    counts and `--explain` names."""
    if node.kind == "file":
        return {"path": path_text(node.path, node.lang), "header": header, "message": " ".join(messages)}
    return {
        "name": node.name,
        "owner": node.owner,
        "signature": _signature_words(node.signature, node.name),
        "doc": node.doc[:MAX_DOC],
        "message": " ".join(messages),
    }


# --- anchor text -----------------------------------------------------------------------------
# What the documents say where they name a node, as search engines read the text of links to a page: the
# description after a heading or directive that names it (`.. function:: slugify`, a `timesince` section),
# else the sentence that names it. Measured against whole paragraphs and section headings: docs/decisions/0011.

_SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+")
SHORT_BLOCK = 160  # a block this short whose sentences do not spell the name is all of it


def anchor_texts(claims: Iterable[tuple], documents: Mapping) -> dict[int, list[str]]:
    """node id -> the distinct texts the documents say about it, in link order, from doc_links' output
    (`doc_links.claims`: the links that are no guess; an ambiguous one's text would land on every candidate)
    and the parsed documents (model.Document)."""
    starts: dict[str, list[int]] = {}
    split: dict[tuple[str, int], list[str]] = {}  # a block's sentences: a paragraph often names several nodes
    found: dict[int, dict[str, None]] = defaultdict(dict)
    for path, line, token, heading, directive, nodes in claims:
        document = documents.get(path)
        if document is None:
            continue
        lines = starts.get(path)
        if lines is None:
            lines = starts[path] = [block.line for block in document.blocks]
        at = bisect_right(lines, line) - 1
        if at < 0 or document.blocks[at].end_line < line or document.blocks[at].kind == "code":
            continue
        sentences = split.get((path, at))
        if sentences is None:
            sentences = split[path, at] = _SENTENCE_END.split(document.blocks[at].text)
        for text in _anchors(document.blocks, at, token, heading or directive, sentences):
            for node in nodes:
                found[node][text] = None
    return {node: list(texts) for node, texts in found.items()}


def _anchors(blocks: Sequence, at: int, token: str, names_it: bool, sentences: Sequence[str]) -> list[str]:
    """What block `at` (which spells `token`, and splits into `sentences`) says: the block after it when it is
    a heading or directive that names the node (`names_it`), and its sentences that spell the name."""
    block = blocks[at]
    said = []
    if names_it or block.kind in ("heading", "directive"):
        following = next((b for b in blocks[at + 1:at + 6] if b.kind != "code"), None)
        if following is not None and following.kind not in ("heading", "directive"):
            said.append(following.text)  # what the section or the directive says the object does
    name = token.rsplit(".", 1)[-1].strip("()`~!:")
    sentences = [s for s in sentences if name and name in s]
    if sentences:
        said.append(" ".join(sentences))
    elif len(block.text) < SHORT_BLOCK:
        said.append(block.text)
    return [text for text in said if text]


# --- build -----------------------------------------------------------------------------------


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
_NO_PROSE = frozenset(("markdown", "rst", "json", "yaml", "toml", "text", "csv", "xml", "html", "css"))


def _by_file(nodes: Sequence) -> list[list]:
    """Nodes grouped by file, each group its file node first (nodes come in id order, a file's own run)."""
    by_path: dict[str, list] = defaultdict(list)
    for node in nodes:
        by_path[node.path].append(node)
    return list(by_path.values())


def _one_file_prose(group: Sequence, read: Callable[[str], bytes | None],
                    ) -> tuple[dict[int, tuple[str, list[str]]], dict[int, str]]:
    """node id -> (header, messages): the file's header, and each message literal on its innermost node;
    and node id -> the comments inside it (`_body_comments`)."""
    from gitroute.parsing.prose import header_text, scan_prose

    file_node = group[0]
    path = file_node.path
    prose: dict[int, tuple[str, list[str]]] = {}
    if not file_node.lang or file_node.lang in _NO_PROSE or is_secondary(path):
        return prose, {}  # tests, docs and examples keep their names and docs: they rank below code anyway
    data = read(path)
    if not data:
        return prose, {}
    text = data.decode("utf-8", "replace")
    header = header_text(text, file_node.lang)
    if header:
        prose[file_node.id] = (header, [])
    symbols = sorted(group[1:], key=lambda n: (n.line, -n.end_line))
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


def _file_postings(group: Sequence, read: Callable[[str], bytes | None],
                   words_memo: dict[str, list[str]]) -> list[tuple[int, int, list[str], list[int], int]]:
    """One file's postings: (node offset from the file node, node length, tokens, packed postings, body
    length) per node; the body's words come last, under BODY_PREFIX. No anchor text (`_with_anchors`).

    A function of the file's path, its blob and its node count (extraction is by blob): what the build
    memo keys it by."""
    secondary = is_secondary(group[0].path)
    if secondary and SECONDARY_FILES_ONLY:
        group = group[:1]
    prose, bodies = _one_file_prose(group, read)
    fields_of = FIELDS
    first = group[0].id
    holders = _constant_holders(group) if FOLD_CONSTANTS else {}
    texts: dict[int, tuple[dict[str, int], dict[str, int], list[str]]] = {}
    for node in group:
        header, messages = prose.get(node.id, ("", ()))
        counts, bits, body_texts = texts.setdefault(holders.get(node.id, node.id), ({}, {}, []))
        for field, text in node_fields(node, messages, header).items():
            if not text or (secondary and field in _PRIMARY_ONLY):
                continue
            bit, weight = fields_of[field]
            found = words_memo.get(text)
            if found is None:
                found = words(text)
                if len(text) < 200:
                    words_memo[text] = found
            for token in found:
                counts[token] = counts.get(token, 0) + weight
                bits[token] = bits.get(token, 0) | bit
        if node.id in bodies:
            body_texts.append(bodies[node.id])
    out = []
    for node_id, (counts, bits, body_texts) in texts.items():
        body = _body_words(" ".join(body_texts), counts)
        if not counts and not body:
            continue
        length = sum(counts.values())
        out.append((node_id - first, length, [*counts, *(BODY_PREFIX + t for t in body)],
                    [*(encode_posting(tf, length, bits[token]) for token, tf in counts.items()),
                     *(encode_posting(1, len(body), BODY_BIT) for _ in body)], len(body)))
    return out


def _constant_holders(group: Sequence) -> dict[int, int]:
    """constant node id -> the symbol whose text it joins: the innermost other symbol spanning its line (a
    Java `static final` field's class, a Rust associated const's impl). A class's constants are a word or two
    and a value; as nodes of their own that short text outranks the methods that use them on one shared
    word. A module-level constant has no holder: it stands alone, as the module's functions do."""
    holders: dict[int, int] = {}
    open_nodes: list = []  # the non-constant symbols spanning the current line, outermost first
    for node in sorted(group[1:], key=lambda n: (n.line, -n.end_line)):
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


def _kept_files(nodes: Sequence) -> tuple[list[list], int]:
    """The files the index holds, each its nodes, file node first, in id order; and how many built copies
    it leaves out."""
    built = built_copies(sorted({n.path for n in nodes}))
    return _by_file([n for n in nodes if n.path not in built]), len(built)


def _with_anchors(entries: Entries, group: Sequence, anchors: Mapping[int, list[str]],
                  words_memo: dict[str, list[str]]) -> Entries:
    """A file's postings with its nodes' anchor texts added, as the `anchor` field: a node's words and length
    change, its body words do not (they are the comments its other fields lack)."""
    first = group[0].id
    if is_secondary(group[0].path) and SECONDARY_FILES_ONLY:
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
                   file_blobs: dict[str, str] | None = None) -> dict[str, Entries]:
    """Each file's postings without anchor texts (`_file_postings`), by path (groups: `_kept_files`).

    With a build memo (`bundle.memo.MemoTable`) and each file's blob id, a file's postings are taken
    from an earlier build when its path, blob and node count are the same."""
    words_memo: dict[str, list[str]] = {}
    out: dict[str, Entries] = {}
    for group in groups:
        path = group[0].path
        key = f"{path}\0{file_blobs.get(path, '')}\0{len(group)}" if file_blobs is not None else None
        entries = memo.get(key) if memo is not None else None
        if entries is None:
            entries = _file_postings(group, read, words_memo)
        if memo is not None:
            memo.put(key, entries)
        out[path] = entries
    return out


def build_meaning_index(nodes: Sequence, read: Callable[[str], bytes | None], memo=None,
                        file_blobs: dict[str, str] | None = None, anchors: Mapping[int, list[str]] | None = None,
                        prepared: Mapping[str, Entries] | None = None, stored=None,
                        shards_memo=None, last: object = None,
                        files_kept: tuple[list[list], int] | None = None,
                        ) -> tuple[dict[str, bytes], dict, dict[str, str]]:
    """Blobs of the meaning index (paths relative to its folder), its section, and the shards kept by id.

    Each file's postings come from `prepared` (`files_postings` run earlier, as `prepare` does), else are
    computed here, taken from `memo` as `files_postings` says; then its nodes' anchor texts are added.
    With `shards_memo` (another memo table: each file's postings with their anchor texts, and the postings
    table's state) and `stored` (the bundle the ref holds, `bundle.writer.StoredBlobs`), the table patches
    the shards of the tokens whose postings changed (`bundle.tables.PostingsTable`; `last`: the state to patch
    from, when not the memo's). `files_kept`: `_kept_files(nodes)`, when the caller has it."""
    from gitroute.bundle.layout import dump_json

    groups, built = files_kept if files_kept is not None else _kept_files(nodes)
    entries_of = prepared if prepared is not None else files_postings(groups, read, memo, file_blobs)
    anchors = anchors or {}
    words_memo: dict[str, list[str]] = {}
    files: dict[str, tuple[int, list]] = {}  # path -> (file node id, postings)
    states: dict[str, tuple] = {}  # path -> what its postings are made of: blob, first id, node count, anchors
    total_length = body_total = 0
    docs = body_docs = 0
    for group in groups:  # files in id order, so postings come out sorted by node
        first, path = group[0].id, group[0].path
        said = _anchors_digest(group, anchors)
        state = (file_blobs.get(path, "") if file_blobs is not None else "", first, len(group), said)
        # The last build's postings, when the file and its anchor texts are the same (the very object the
        # memo holds: its bucket is not written again); else this build's, with the anchor texts' words.
        entries = shards_memo.get(_state_key(path, state)) if shards_memo is not None else None
        if entries is None:
            entries = _with_anchors(entries_of[path], group, anchors, words_memo) if said else entries_of[path]
        for _offset, length, _tokens, _packed, body_length in entries:
            total_length += length
            docs += 1
            if body_length:
                body_total += body_length
                body_docs += 1
        files[path] = (first, entries)
        states[path] = state
        if shards_memo is not None:
            shards_memo.put(_state_key(path, state), entries)

    def fill(path: str, postings: dict) -> None:
        _add_postings(postings, *files[path])

    def fill_old(path: str, state: object, postings: dict) -> bool:
        """A file's postings as the last build made them (the memo's, under the key of its state then)."""
        if not (isinstance(state, tuple) and len(state) == 4) or shards_memo is None:
            return False
        entries = shards_memo.peek(_state_key(path, state))
        if entries is None:
            return False
        _add_postings(postings, state[1], entries)
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
    blobs_out[FILES] = dump_json(sorted(first for first, _entries in files.values()))
    blobs_out[META] = dump_json(section)
    return blobs_out, section, table.kept


def _anchors_digest(group: Sequence, anchors: Mapping[int, list[str]]) -> str:
    """A digest of the anchor texts of a file's nodes ("" when none): what its postings depend on besides its blob."""
    if not anchors:
        return ""
    first = group[0].id
    said = [(node.id - first, anchors[node.id]) for node in group if node.id in anchors]
    if not said:
        return ""
    import hashlib

    return hashlib.blake2b(repr(said).encode(), digest_size=16).hexdigest()


def _state_key(path: str, state: Sequence) -> str:
    blob, _first, count, said = state
    return f"{path}\0{blob}\0{count}\0{said}"


def _add_postings(postings: dict[str, list[tuple[int, int]]], first: int, entries: list) -> None:
    for offset, _length, tokens, packed, _body in entries:
        node_id = first + offset
        for token, value in zip(tokens, packed):
            postings[token].append((node_id, value))


CLAIMS = "\0claims"  # the shards memo's entry: the doc_links claims the last build's anchor texts came from
BEFORE = "\0shards before"  # the shards memo's entry: the postings table's state before `prepare` built ahead


class PreparedBuild(NamedTuple):
    """What `prepare` hands `build`. Without the last build's claims: every file's postings without anchor
    texts (`entries`). With them: the whole index built from them (`built`) and their digest, and no
    entries (5 MB of lists a worker would pickle for nothing, most times): the build takes it when
    doc_links' claims are the same (a commit that changes no document nor what one names), and else
    reads each file's postings back from the memo `prepare` saved."""

    entries: dict[str, Entries] | None
    claims_digest: str | None = None  # of the claims `built` comes from
    built: tuple[dict[str, bytes], dict, dict[str, str]] | None = None


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
            shards_memo.put(CLAIMS, claims)
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
    kept = _kept_files(inputs.graph.nodes)
    entries = files_postings(kept[0], _reader(inputs), memo, _blobs(inputs))
    if inputs.memo is None:
        return PreparedBuild(entries)
    shards_memo = inputs.memo.table(f"{NAME} shards")
    claims = shards_memo.get(CLAIMS)
    if not isinstance(claims, list):
        return PreparedBuild(entries)
    try:
        anchors = anchor_texts(claims, inputs.documents or {})
    except (TypeError, ValueError, IndexError):  # not what this code's build stored: nothing built ahead
        return PreparedBuild(entries)
    before = POSTINGS.state(shards_memo)
    shards_memo.put(BEFORE, before)
    for path, state in (before[1] if before is not None else {}).items():
        if isinstance(state, tuple) and len(state) == 4:
            shards_memo.get(_state_key(path, state))  # kept: the entries a build whose claims moved patches from
    built = build_meaning_index(inputs.graph.nodes, _reader(inputs), None, _blobs(inputs), anchors, entries,
                                inputs.previous, shards_memo, files_kept=kept)
    return PreparedBuild(None, _digest(claims), built)


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


class Evidence:
    """What a ranking found, for the no_match rule and the notes: per word its idf and whether anything holds it."""

    __slots__ = ("weights", "missing", "coverage", "best_idf", "node_coverage", "spelled", "alternates", "shares")

    def __init__(self, weights: dict[str, float], missing: list[str], coverage: float, best_idf: float) -> None:
        self.weights = weights  # question word -> idf (words no node holds get the idf of a one-node word)
        self.missing = missing  # question words no node holds
        self.coverage = coverage  # share of the question's idf weight that the best file's words cover
        self.best_idf = best_idf  # the highest idf among the best file's matched words
        self.node_coverage = 0.0  # the largest share of the question's idf weight that one node holds
        self.spelled: dict[str, str] = {}  # stem -> the word as the question wrote it, for notes
        self.alternates: dict[str, str] = {}  # an expansion's stem -> the question word it stands for
        self.shares: Mapping[str, float] = {}  # an expansion's share of its word's weight, when not all of it

    def cover(self, scored: Sequence[tuple[float, int]], matched: dict[int, dict[str, int]]) -> None:
        """Coverage and best idf of one file, from its scored nodes: an alternative covers its question word (a
        neighbour its share), a word its nodes hold only in comments covers BODY_EVIDENCE of its weight (and is
        never the rarest)."""
        alternates, weights, shares = self.alternates, self.weights, self.shares
        tokens = {t for _, node in scored for t in matched[node]}
        covered = {alternates.get(t, t) for t in tokens
                   if not t.startswith(BODY_PREFIX) and t not in shares} & weights.keys()
        commented = {t[len(BODY_PREFIX):] for t in tokens if t.startswith(BODY_PREFIX)} & (weights.keys() - covered)
        partly: dict[str, float] = {}
        for t in tokens & shares.keys():
            word = alternates[t]
            if word not in covered and word not in commented:
                partly[word] = max(partly.get(word, 0.0), shares[t])
        total = sum(weights.values()) or 1.0
        self.coverage = (sum(weights[t] for t in covered) + BODY_EVIDENCE * sum(weights[t] for t in commented)
                         + sum(weights[t] * share for t, share in partly.items())) / total
        self.best_idf = max((weights[t] for t in covered), default=0.0)

    def named(self, stems: Sequence[str]) -> str:
        return ", ".join(self.spelled.get(t, t) for t in stems)


def _load(blobs: dict[str, bytes], path: str, corrupt: Callable[[str], Exception]):
    try:
        return json.loads(blobs[path])
    except (KeyError, ValueError) as err:
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
    found = POSTINGS.read(read, tokens, shards, corrupt)
    return {token: values for token, values in found.items() if values}


# One token's postings made ready to sum: node ids, BM25 terms (at one weight), field bits, file ids.
Prepared = tuple[list[int], list[float], list[int], list[int]]


def prepare_postings(pairs: Sequence[tuple[int, int]], w: float, avgdl: float, files: Sequence[int]) -> Prepared:
    """A token's postings (node id, packed posting) decoded, each with its `bm25_term` at idf `w`."""
    nodes: list[int] = []
    terms: list[float] = []
    bits: list[int] = []
    owners: list[int] = []
    previous = 0
    for node, packed in pairs:
        if node < previous:  # node ids ascend (`_Matched` bisects them): a bundle that says otherwise is damaged
            raise ValueError("postings out of order")
        previous = node
        tf, dl, fields = decode_posting(packed)
        nodes.append(node)
        terms.append(bm25_term(tf, dl, avgdl, w))
        bits.append(fields)
        owners.append(files[bisect_right(files, node) - 1] if files else node)
    return nodes, terms, bits, owners


def _prepare_body(pairs: Sequence[tuple[int, int]], section: dict, files: Sequence[int]) -> Prepared:
    """A body word's postings made ready: BM25 over bodies alone (their own lengths and idf), at BODY_WEIGHT."""
    n = int(section.get("body_documents") or 1)
    avgdl = float(section.get("body_avgdl") or 1.0)
    return prepare_postings(pairs, bm25_idf(len(pairs), n) * BODY_WEIGHT, avgdl, files)


class _Matched(dict):
    """node -> {token: fields} for the question's words, filled on first use from the prepared postings:
    a question reads it for a few nodes (the leading files'), and walks tens of thousands."""

    def __init__(self, prepared: list[tuple[str, Prepared]]) -> None:
        super().__init__()
        self._prepared = prepared

    def __missing__(self, node: int) -> dict[str, int]:
        held: dict[str, int] = {}
        for token, (nodes, _terms, bits, _owners) in self._prepared:
            at = bisect_right(nodes, node) - 1
            if at >= 0 and nodes[at] == node:
                held[token] = bits[at]
        self[node] = held
        return held


def _holds(nodes: list[int], node: int) -> bool:
    """Whether ascending `nodes` holds `node`: a word's postings asked about one node, not all words' (`_Matched`)."""
    at = bisect_right(nodes, node) - 1
    return at >= 0 and nodes[at] == node


_DECAYS = tuple(NODE_DECAY ** i for i in range(NODE_TOP))  # a file's i-th best node counts NODE_DECAY ** i
_FIRST, _SECOND = itemgetter(0), itemgetter(1)


def _best_first(pairs: list[tuple[float, int]]) -> None:
    """Sort (score, id) pairs in place, the best first, then the lower id: two stable sorts on C keys, not a
    Python key per pair (a question sorts a thousand files and their nodes)."""
    pairs.sort(key=_SECOND)
    pairs.sort(key=_FIRST, reverse=True)


def rank_files(
    tokens: Sequence[str], postings: dict[str, Postings], section: dict, files: Sequence[int] = (),
    alternates: dict[str, str] | None = None, memo: dict | None = None, shares: Mapping[str, float] | None = None,
) -> tuple[list[tuple[float, int]], dict[int, list[tuple[float, int]]], dict[int, dict[str, int]], Evidence]:
    """Files by score: [(score, file id)], each file's scored nodes [(score, node id)], matched fields per node.

    `files` holds the node ids of files, ascending (a node belongs to the last file at or before it).
    `alternates` maps an expansion's stem to the question word it stands for (`alternatives`): in a node,
    a question word scores its best form, an alternative at EXPANDED of its own BM25. `memo` (a pinned
    bundle's) keeps each token's prepared postings for the next question. `shares` gives the alternatives
    that are less than evidence of their word (neighbours): one whose share is 0 only ranks.

    A file's score is its own text's BM25 plus its best nodes', each counting half the one before.
    """
    n = int(section.get("documents") or 1)
    avgdl = float(section.get("avgdl") or 1.0)
    alternates = alternates or {}
    shares = shares or {}
    evident = {alt: word for alt, word in alternates.items() if shares.get(alt, 1.0) and alt in postings}
    idf = {t: bm25_idf(len(postings[t]) if t in postings else 0, n) for t in (*tokens, *alternates)}
    bodies = {BODY_PREFIX + t: t for t in tokens if BODY_PREFIX + t in postings}
    # A question word the repository lacks but an alternative holds weighs as that alternative.
    stand_in: dict[str, float] = {}
    for alt, word in evident.items():
        if word not in postings:
            stand_in[word] = max(stand_in.get(word, 0.0), idf[alt])
    weights = {t: stand_in.get(t, idf[t]) for t in tokens}
    ready: dict[tuple[str, bool], Prepared] = memo.setdefault("prepared", {}) if memo is not None else {}
    prepared: list[tuple[str, Prepared]] = []
    for token, values in postings.items():
        key = (token, token in alternates)
        found = ready.get(key)
        if found is None:
            if token in bodies:
                found = ready[key] = _prepare_body(values, section, files)
            else:
                w = idf[token] * EXPANDED if key[1] else idf[token]
                found = ready[key] = prepare_postings(values, w, avgdl, files)
        prepared.append((token, found))
    node_score: dict[int, float] = defaultdict(float)
    node_file: dict[int, int] = {}
    held_by: dict[int, int] = defaultdict(int)  # node -> its question words (alternatives as their word), bits
    bit_of = {word: 1 << i for i, word in enumerate(tokens)}
    best_alt: dict[tuple[int, str], float] = {}
    for token, (nodes, terms, _bits, owners) in prepared:
        stands_for = alternates.get(token)
        # a word held in a body only is no evidence of what the node is about (bit 0: not in node_coverage)
        bit = 0 if token in bodies else bit_of.get(stands_for or token, 0)
        if stands_for is None and not bit:  # a body word: its nodes hold no question word by it
            for node, term in zip(nodes, terms):
                node_score[node] += term
        elif stands_for is None:
            for node, term in zip(nodes, terms):
                node_score[node] += term
                held_by[node] |= bit
        else:  # the best alternative of a word, only where the word itself is absent (fixed below)
            for node, term in zip(nodes, terms):
                at = (node, stands_for)
                before = best_alt.get(at, 0.0)
                if term > before:
                    node_score[node] += term - before
                    best_alt[at] = term
                held_by[node] |= bit
        node_file.update(zip(nodes, owners))
    matched = _Matched(prepared)
    nodes_of = {token: nodes for token, (nodes, _terms, _bits, _owners) in prepared}
    for (node, word), term in best_alt.items():
        of_word = nodes_of.get(word)
        if of_word and _holds(of_word, node):  # the word itself is there: its alternatives add nothing
            node_score[node] -= term
    per_file: dict[int, list[tuple[float, int]]] = defaultdict(list)
    for node, score in node_score.items():
        per_file[node_file[node]].append((score, node))
    ranked: list[tuple[float, int]] = []
    for file_id, scored in per_file.items():
        if len(scored) == 1:  # most files: one node, whose score is the file's (own or best, as below)
            ranked.append((scored[0][0], file_id))
            continue
        _best_first(scored)
        own = next((s for s, node in scored if node == file_id), 0.0)
        best = [s for s, node in scored if node != file_id][:NODE_TOP]
        score = own + sum([s * decay for s, decay in zip(best, _DECAYS)])
        ranked.append((score, file_id))
    _best_first(ranked)
    found_words = set(postings) | set(evident.values())
    missing = [t for t in tokens if t not in found_words]  # a word held in a body only counts as missing
    evidence = Evidence(weights, missing, 0.0, 0.0)
    evidence.alternates = alternates
    evidence.shares = shares
    if ranked:
        evidence.cover(per_file[ranked[0][1]], matched)
    total = sum(weights.values()) or 1.0
    evidence.node_coverage = max((sum(weights[w] for w in tokens if bit_of[w] & held) / total
                                  for held in set(held_by.values())), default=0.0)
    return ranked, per_file, matched, evidence


def _files(read: Read, corrupt: Callable[[str], Exception], memo: dict | None = None) -> list[int]:
    """The node ids of files, ascending (kept in `memo` when there is one)."""
    files = memo.get("files") if memo is not None else None
    if files is None:
        files = _load(read([FILES]), FILES, corrupt)
        if not isinstance(files, list) or not all(isinstance(f, int) for f in files) or files != sorted(files):
            raise corrupt(FILES)
        if memo is not None:
            memo["files"] = files
    return files


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
        memo["prepared"] = {(token, False): _prepare_body(values, section, files) if token.startswith(BODY_PREFIX)
                            else prepare_postings(values, bm25_idf(len(values), n), avgdl, files)
                            for token, values in decoded.items()}
    except (TypeError, ValueError) as err:
        raise view.corrupt("postings") from err
    memo["postings"] = decoded


def no_match_reason(evidence: Evidence, tokens: Sequence[str]) -> str | None:
    """Why the best file is no answer, or None when it is one (the rule of docs/decisions/0010)."""
    if not tokens:
        return "the question has no word that can name something (all stop words)"
    if len(evidence.missing) == len(tokens):
        return "no word of the question occurs in the repository: " + evidence.named(evidence.missing)
    if evidence.best_idf < MIN_IDF:
        return "the best file matches only words that are common in this repository"
    missing_share = len(evidence.missing) / len(tokens)
    for share, floor in NO_MATCH_FLOORS:
        if missing_share >= share and evidence.coverage < floor:
            covers = f"the best file covers {evidence.coverage:.0%} of the question's weight (below {floor:.0%})"
            if not evidence.missing:
                return covers
            return (f"{len(evidence.missing)} of the question's {len(tokens)} words occur nowhere in the repository"
                    f" ({evidence.named(evidence.missing)}), and {covers}")
    return None


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
    tokens = question_words(text)
    # In a question for the entry point ("where is the entry point of the cli") the words that ask for it
    # are the symbol tiers' to answer (from manifests and main guards): no evidence of an off-topic question.
    asking = {word_stem(t) for t in _ENTRY_PHRASE} if asks_for_entry(text) else set()
    if not [t for t in tokens if t not in asking]:
        return [], [no_match_reason(Evidence({}, [], 0.0, 0.0), []) or ""], None
    alternates = alternatives(tokens) if EXPANDED else {}
    body = [BODY_PREFIX + t for t in tokens] if BODY_WEIGHT and section.get("body_documents") else []
    postings = read_postings([*tokens, *alternates, *body], section, read, corrupt, memo)
    held = set(postings) | {word for alt, word in alternates.items() if alt in postings}
    near, shares = neighbour_alternatives([t for t in tokens if t not in held and t not in asking], tokens, alternates)
    if near:  # a second read, only for words the repository lacks
        postings.update(read_postings(list(near), section, read, corrupt, memo))
        alternates = {**alternates, **near}
    wants_secondary = bool(set(tokenize(text)) & _ASKS_SECONDARY)
    files = _files(read, corrupt, memo) if postings else []
    try:
        ranked, per_file, matched, evidence = rank_files(tokens, postings, section, files, alternates, memo, shares)
    except (TypeError, ValueError) as err:  # postings that are not ascending numbers
        raise corrupt("postings") from err
    evidence.missing = [t for t in evidence.missing if t not in asking]
    evidence.spelled = {word_stem(t): t for t in reversed(tokenize(text.lower()))}
    known: dict[int, list] = {}
    if not wants_secondary and ranked:
        # Demotion needs paths: look up the leading files only.
        head = ranked[: max(limit * 4, 40)]
        known.update(records(fid for _, fid in head))
        demoted = {fid for fid, record in known.items() if is_secondary(record[0])}
        ranked = sorted(((score * (SECONDARY if fid in demoted else 1.0), fid) for score, fid in head),
                        key=lambda p: (-p[0], p[1]))
        if ranked:
            evidence.cover(per_file[ranked[0][1]], matched)
    reason = no_match_reason(evidence, tokens) if ranked else (
        no_match_reason(evidence, tokens) or "nothing in the bundle shares a word with the question")
    if reason is not None and (gate or not ranked):
        return [], [reason], evidence
    top = ranked[:limit]
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
            signals = _explain(fid, per_file[fid], matched, evidence.weights)
            extra = (("matched", _matched_words(per_file[fid], matched)),)
        rows.append(Row(path=path, line=line if kind != "file" else None,
                        name=(f"{owner}.{name}" if owner else name) if kind != "file" else None,
                        kind=kind, score=round(score, 3), signals=signals, extra=extra))
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
    return rows, notes, evidence


_ENTRY_PHRASE = ("entry", "entrypoint", "point", "main")  # not "launch" or "start": ordinary verbs elsewhere
_ASKS_SECONDARY = frozenset({"test", "tests", "testing", "spec", "fixture", "fixtures", "example", "examples",
                             "sample", "demo", "vendor", "vendored", "doc", "docs", "documentation", "benchmark"})


def _explain(file_id: int, scored: list[tuple[float, int]], matched: dict[int, dict[str, int]],
             weights: dict[str, float]) -> tuple[tuple[str, float], ...]:
    signals: list[tuple[str, float]] = []
    own = next((s for s, node in scored if node == file_id), 0.0)
    if own:
        signals.append(("file_text", round(own, 3)))
    best = [s for s, node in scored if node != file_id][:NODE_TOP]
    for i, s in enumerate(best):
        signals.append((f"node_{i + 1}", round(s * NODE_DECAY ** i, 3)))
    return tuple(signals)


def _matched_words(scored: list[tuple[float, int]], matched: dict[int, dict[str, int]]) -> dict[str, list[str]]:
    """word -> the fields that hold it, over the file's own text and its best nodes."""
    found: dict[str, int] = defaultdict(int)
    for _, node in scored[: NODE_TOP + 1]:
        for token, bits in matched[node].items():
            found[token.removeprefix(BODY_PREFIX)] |= bits
    return {t: [name for name in (*FIELD_NAMES, "body") if bits & (FIELDS[name][0] if name in FIELDS else BODY_BIT)]
            for t, bits in sorted(found.items())}


def answer(view, question: str, *, limit: int = 10, explain: bool = False, **options) -> Answer:
    """The seam's answer: files for a question in plain words, or no_match with the reason."""
    section = view.section
    if not isinstance(section, dict):
        raise view.corrupt(META)
    rows, notes, _ = query_meaning(question, section, view.read, limit=limit, explain=explain, corrupt=view.corrupt,
                                   records=view.graph.records, memo=view.memo)
    return Answer("routed" if rows else "no_match", view.source, tuple(rows), tuple(notes))
