"""The decision index: one row per section of each design record, BM25 postings and `why` (lint, DECISIONS.md: `lint`).

Records of any shape (ADRs, MADR, numbered proposals with or without a status, design pages, "why" pages, architecture
documents: `gitroute.records` says which documents are records and reads them) give one row per section: its heading,
role (decision, rationale, alternatives, consequences…), line and items (the title with its summary's first sentence,
each decision paragraph, each alternative with its verdict, each consequence, each `**Decided YYYY-MM-DD:**` line;
the first paragraphs of a section without any).
The design sections of other documents ("Why …?", Alternatives, Rationale, Motivation) are rows too, and when a
snapshot has no record at all, its design documents are read whole.

A question is ranked by BM25 (`rank.bm25_idf`, `rank.bm25_term`) over each section (its record's title, its heading
and its text), with the symbol query's tokens; the sections the kind of question asks for ("why not", "what else was
considered": alternatives; "why did we choose": the decision, its rationale and motivation) weigh more. A question
that names a code symbol also reaches the sections that name it.

Parsing happens on the build side only: the answer path imports nothing heavier than `json` and `re`.
"""
from __future__ import annotations

import math
import re
from collections import Counter, namedtuple
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial

from gitroute.bundle.tables import ChunkTable, IdRows, PostingsTable
from gitroute.indexes.decisions.words import (
    doc_tokens,
    heading_holds,
    joined_words,
    normalize_name_all,
    split_compounds,
    titled_by,
    words_spelled_apart,
)
from gitroute.model import Answer, Row
from gitroute.rank import bm25_idf, bm25_term, is_fixture, newest_copies_first
from gitroute.text import normalize_name, spelled_apart, stem

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on the query path
if TYPE_CHECKING:
    from gitroute.records import Record, Section

NAME = "decisions"
NEEDS: tuple[str, ...] = ()
EDGES = False  # builds from the graph's nodes only: may start while edges are resolved
QUESTION_TYPES: dict[str, dict] = {"decision": {}}  # bench question type -> answer options

# The index's own format, in its meta.json: 2 is one row per section, with its items (1 was a row per item).
# A bundle an older gitroute wrote is refused with a hint to rebuild, not misread.
INDEX_FORMAT = 2
# Section rows by id, ROW_CHUNK a blob: an answer reads the chunks of its best rows only. Token -> postings,
# [row id, tf, paragraph mask] (a symbol's `=name`: [row id, 1]), about 2048 a shard.
ROW_CHUNK = 256
ROWS = ChunkTable(NAME, "rows", per_chunk=ROW_CHUNK)
POSTINGS = PostingsTable(NAME, "postings", per_shard=2048, codec=IdRows())
SYMBOL_PREFIX = "="  # no real token starts with it: a whole identifier a record names in code markup
SYMBOL_BONUS = 4.0  # a section of a record that names the symbol the question names
# A posting says in which of up to WINDOWS runs of a section's paragraphs its token occurs (a bit each): the no_match
# rule asks for the question's words together in one paragraph, as a record that discusses it has them (decision 0017).
WINDOWS = 16
CANDIDATES = 60
DOCUMENT_FORMAT = "document"  # a document that is no record, read for its design sections
PAGE_FORMAT = "page"  # the other sections of every other document (and of design documents): see PAGE_WEIGHT

# Ranking (measured on the decision questions of tuf, networkx, flask, xarray, golang-x-tools: decision 0017): a
# section's BM25, times 1 + KIND_BONUS when its role is one the question asks for.
KIND_BONUS = 0.3
# A section whose heading holds every word of the question scores twice: one whose paragraphs repeat a common word
# of it ("configuration" under "Configuration Handling") is no better answer than "Builtin Configuration Values".
HEADING_BONUS = 1.0
# A section of an ordinary page (no record, no design section: attrs' `init.md`, an FAQ's answer, a README's
# "Type Correspondence") is ranked at this share of its BM25, below records and design sections that match as
# well, and answers only with one more of the question's words in one paragraph (`_no_match_reason`).
PAGE_WEIGHT = 0.5
FIXTURE_WEIGHT = 0.5  # a page in a test folder (`rank.is_fixture`), at this share again

# Words a "why" question uses to ask, not to name what it asks about: how it asks (decide, choose, change, switch;
# "was that deliberate?", "was it meant to?"), and quantifiers that name nothing (every, each). Not "explained" or
# "documented": the documents' sections are asked through this index too ("where can I learn about documenting it?").
WHY_WORDS = frozenset(
    stem(w) for w in """
    did decide decided decides decision decisions chose choose chosen choosing pick picked reason reasons
    instead rather over not go went made make way done behind approach change changed changes switch
    switched every each doesn don isn aren wasn weren didn won shouldn wouldn couldn hasn haven hadn
    deliberate deliberately intentional intentionally intended meant happen happens come comes away either itself
    whole several later whenever""".split()
)
# no_match: the best row must cover this share of the question's information (idf-weighted tokens)...
MIN_COVERAGE = 0.2
# ...and match at least this many distinct question tokens when the question has that many.
MIN_MATCHED = 3
# A short question (at most SHORT_QUESTION tokens) is answered by a record whose title holds one of its
# words, when at most TITLE_DF records' titles hold that word ("tabs or spaces" and a record titled
# "Use tabs"): the words a title shares with few others name what the record decides.
SHORT_QUESTION = 3
TITLE_DF = 2

# The kind of "why" a question asks, and the section roles that answer it.
ALTERNATIVES = "alternatives"
CHOICE = "choice"  # "why X instead of Y": the decision, or the alternative and why it lost
DECISION = "decision"
KIND_ROLES = {ALTERNATIVES: frozenset({"alternative", "pros_cons"}),
              CHOICE: frozenset({"decision", "rationale", "alternative", "pros_cons"}),
              DECISION: frozenset({"decision", "rationale", "motivation"})}
_ASKS_ALTERNATIVES = re.compile(
    r"\bwhy\s+(?:not|no)\b|\bwhy\s+(?:don'?t|doesn'?t|didn'?t|wasn'?t|weren'?t|isn'?t|aren'?t)\b"
    r"|\b(?:reject\w*|dropp?(?:ed|ing)?|turn(?:ed)?\s+down|rul(?:ed?|ing)\s+out|abandon\w*|discard\w*"
    r"|alternatives?|other\s+(?:options?|approaches|choices|ideas|designs?)|considered|weighed|what\s+else"
    r"|on\s+the\s+table|non-?goals?|instead\s+of\s+what)\b",
    re.IGNORECASE,
)
_ASKS_CHOICE = re.compile(r"\b(?:instead\s+of|rather\s+than|in\s+favou?r\s+of|versus|vs)\b", re.IGNORECASE)
_ASKS_DECISION = re.compile(
    r"\bwhy\b|\b(?:decid\w*|decision|chose|choose|chosen|choice|reason\w*|rationale|motivat\w*|justif\w*"
    r"|prefer\w*|go\s+with|went\s+with|opt(?:ed)?\s+for)\b",
    re.IGNORECASE,
)


# ---------------------------------------------------------------------------------------------- build


def section_rows(record: Record) -> list[tuple[Section, list[list]]]:
    """(section, items) per section of a record that gives a row: its items as [line, kind, verdict, text], else its
    first prose blocks as "text" items, else (a heading over code alone: xml2js's "Promise usage") its first block."""
    from gitroute.records import bounded

    by_label: dict[str, list[list]] = {}
    for item in record.rows:
        by_label.setdefault(item.section, []).append([item.line, item.kind, item.verdict, item.text])
    rows = []
    for section in record.sections:
        items = by_label.get(section.label) or [[line, "text", "", text] for line, text in section.texts]
        if not items and section.heading and section.paragraphs:
            items = [[section.line, "text", "", bounded(" ".join(section.paragraphs[0].split()))]]
        if items:
            rows.append((section, items))
    return rows


def build_blobs(records: Sequence[Record], symbols: Mapping[str, Sequence[str]] | None = None,
                fallback: bool = False, memo=None, stored=None) -> tuple[dict[str, bytes], dict, dict[str, str]]:
    """The index's blobs by path, its section, and the postings shards kept by id (path -> blob id).

    `symbols`: per record path, the normalised code-symbol names the record mentions; the sections that
    name one get a `=name` posting (the first section when the mention is in no section's text).
    `fallback`: the records are design documents read because the snapshot has no record (a note says so).
    With the index's memo table and the blobs of the bundle the ref holds (`stored`), the postings table patches
    the shards of the records whose postings moved (`bundle.tables.PostingsTable`).
    """
    from gitroute.bundle.layout import dump_json
    from gitroute.bundle.memo import digest_values

    chunks: list[list] = []
    parts: dict[str, list[list]] = {}  # record unit -> its postings, row ids from its first row
    states: dict[str, tuple[int, str]] = {}  # record unit -> what its postings are made of: first row, digest
    for record_id, record in enumerate(records):
        rows, postings, key = _record_part_memoised(record_id, record, (symbols or {}).get(record.path, ()), memo)
        # A design document is two records of one path: its design sections, and its other sections as a page.
        unit = f"{record.path}\0page" if record.format == PAGE_FORMAT else record.path
        if key is None:
            key = digest_values(postings).hex()
            if memo is not None:  # no part entry holds them (`_record_part_memoised`): `fill_old` finds them here
                memo.put(f"{unit}\0{key}", postings)
        states[unit] = (len(chunks), key)
        parts[unit] = postings
        chunks.extend(rows)

    def fill(path: str, into: dict) -> None:
        _add_postings(into, states[path][0], parts[path])

    def fill_old(path: str, state: object, into: dict) -> bool:
        """A record's postings as the last build made them (`state`: its first row then, and the key of its part)."""
        if not (isinstance(state, tuple) and len(state) == 2 and isinstance(state[1], str)) or memo is None:
            return False
        postings = _old_postings(memo, path, state[1])
        if postings is None:
            return False
        _add_postings(into, state[0], postings)
        return True

    table = POSTINGS.build(states, fill, memo=memo, stored=stored, old=fill_old)
    blobs = {**table.blobs, **ROWS.build(chunks).blobs}
    blobs["records.json"] = dump_json([[r.path, r.title, r.status, r.superseded_by, r.format] for r in records])
    section = {"format": INDEX_FORMAT, "counts": _counts(records, chunks),
               **_page_tier(chunks, sum(1 for r in records if r.format != PAGE_FORMAT)),
               "shards": table.shards, "row_chunk": ROWS.per_chunk, "fallback": fallback}
    return blobs, section, table.kept


def record_part(record_id: int, record: Record, symbols: Iterable[str]) -> tuple[list[list], list[list]]:
    """A record's rows ([record id, section label, line, role, length, items] per section) and its postings:
    [token, row, tf, paragraph mask] per token of a row, [`=name`, row, 1] per section naming a symbol it
    mentions, rows counted from its first."""
    title_tokens = doc_tokens(record.title)
    rows: list[list] = []
    postings: list[list] = []
    for part, items in section_rows(record):
        heading = doc_tokens(part.heading)
        paragraphs = [doc_tokens(p) for p in part.paragraphs]
        tokens = title_tokens + heading + [t for p in paragraphs for t in p]
        windows = _windows(paragraphs, set(title_tokens) | set(heading))
        postings.extend([token, len(rows), tf, windows[token]] for token, tf in sorted(Counter(tokens).items()))
        rows.append([record_id, part.label, part.line, part.role, len(tokens), items])
    mentioned = sorted(set(symbols))
    if mentioned:
        sections: dict[str, Section] = {}
        for section in record.sections:
            sections.setdefault(section.label, section)  # the first of a label, as a search in order finds it
        named = [_names_in(sections.get(row[1]), row) for row in rows]
    for name in mentioned:
        ids = [i for i in range(len(rows)) if name in named[i]] or ([0] if rows else [])
        postings.extend([SYMBOL_PREFIX + name, i, 1] for i in ids)
    return rows, postings


PART = "\0part\0"  # a memo key's prefix: a record's rows and postings, by the digest of what they are made of


def _record_part_memoised(record_id: int, record: Record, symbols: Iterable[str],
                          memo) -> tuple[list[list], list[list], str | None]:
    """`record_part`, taken from the build memo when the record and the symbols it mentions are what an earlier
    build made them from (a one-file commit changes no record: on django, two thirds of the index's time); and the
    digest of what it is made from (None without a memo), which names its postings as well as a digest of them
    would: they are a function of it (a digest of every record's postings was a tenth of the index's time)."""
    from gitroute.bundle.memo import digest_values

    mentioned = sorted(set(symbols))
    key = None
    if memo is not None:
        try:  # a record's own fields and those of its rows and sections are plain values
            key = PART + digest_values((record.path, record.title, record.format, [tuple(r) for r in record.rows],
                                        [tuple(s) for s in record.sections], mentioned)).hex()
        except ValueError:  # something marshal cannot write: not memoised
            key = None
    found = memo.get(key) if key is not None else None
    if isinstance(found, tuple) and len(found) == 2 and isinstance(found[0], list) and isinstance(found[1], list):
        rows, postings = found
        # the rows name their record by its place
        return [[record_id, *row[1:]] for row in rows], postings, key[len(PART):]  # type: ignore[index]
    rows, postings = record_part(record_id, record, mentioned)
    if key is not None:
        memo.put(key, (rows, postings))
    return rows, postings, key[len(PART):] if key is not None else None


def _old_postings(memo, unit: str, key: str) -> list | None:
    """The postings an earlier build stored for a record unit under `key`: in its part entry (`PART` + key), which
    holds its rows too (the postings once stored a second time, by unit, were half of the index's memo: 5.4 MB on
    django), else by unit (a record whose part could not be memoised)."""
    found = memo.peek(PART + key)
    if isinstance(found, tuple) and len(found) == 2 and isinstance(found[1], list):
        return found[1]
    found = memo.peek(f"{unit}\0{key}")
    return found if isinstance(found, list) else None


def _add_postings(into: dict, first: int, postings: Sequence[list]) -> None:
    for posting in postings:  # [key, row, *payload]: indexed, not unpacked (a starred target is a list made)
        into[posting[0]].append([first + posting[1], *posting[2:]])


def _counts(records: Sequence[Record], chunks: Sequence[list]) -> dict[str, int]:
    """The section's counts: records, rows, items, design documents, and per format and item kind, those present."""
    from gitroute.records import FORMATS, ITEM_KINDS

    item_kinds = Counter(item[1] for row in chunks for item in row[5])
    counts: dict[str, int] = {"records": sum(1 for r in records if r.format not in (DOCUMENT_FORMAT, PAGE_FORMAT)),
                              "rows": len(chunks), "items": sum(n for kind, n in item_kinds.items() if kind != "text")}
    if n := sum(1 for r in records if r.format == DOCUMENT_FORMAT):
        counts["design_documents"] = n
    for fmt in FORMATS:
        if n := sum(1 for r in records if r.format == fmt):
            counts[f"format_{fmt}"] = n
    for kind in ITEM_KINDS:
        if kind != "text" and item_kinds[kind]:
            counts[f"rows_{kind}"] = item_kinds[kind]
    return counts


def _windows(paragraphs: Sequence[Sequence[str]], everywhere: set[str]) -> dict[str, int]:
    """Per token, the bits of the runs of paragraphs it occurs in (paragraph k of n is in run k * WINDOWS // n
    when n > WINDOWS); the title's and heading's tokens are in every run, as they head every paragraph."""
    n = len(paragraphs)
    masks: dict[str, int] = dict.fromkeys(everywhere, (1 << WINDOWS) - 1)
    for k, tokens in enumerate(paragraphs):
        bit = 1 << (k if n <= WINDOWS else k * WINDOWS // n)
        for token in set(tokens):  # each once: a paragraph repeats its words, and a bit is set once
            masks[token] = masks.get(token, 0) | bit
    return masks


def _names_in(section: Section | None, chunk: list) -> set[str]:
    text = " ".join(item[3] for item in chunk[5]) + (" " + " ".join(section.paragraphs) if section else "")
    return normalize_name_all(text)


def _code_words(doc: object) -> list[str]:
    """The normalised last parts (4 characters or more) of a document's code tokens, sorted: what may name a
    symbol (`build` keeps those some node is named)."""
    found = set()
    for block in doc.blocks:  # type: ignore[attr-defined]
        for token in block.tokens:
            if token.kind in ("code", "literal", "role", "directive_arg"):
                last = re.split(r"[.:/]", token.text.strip("`~!.()"))[-1]
                key = normalize_name(last)
                if len(key) >= 4:
                    found.add(key)
    return sorted(found)


def select_records(documents: Mapping[str, object], head: Callable[[str], bytes], config: object,
                   ) -> dict[str, str]:
    """{path: why it is a record} over a snapshot's parsed documents (`records.REASONS`); `head(path)`
    gives a Markdown file's first bytes (its front matter), read only for a document that may have one."""
    from gitroute.records import record_reason

    globs = tuple(getattr(config, "decisions", ()) or ())
    extra = tuple(getattr(config, "decisions_extra", ()) or ())
    exclude = tuple(getattr(config, "decisions_exclude", ()) or ())
    reasons: dict[str, str] = {}
    for path in sorted(documents):
        doc = documents[path]
        blocks = doc.blocks  # type: ignore[attr-defined]
        # Front matter is the only thing the grammar skips: a document whose first block is not on line 1.
        skipped = doc.format == "markdown" and (not blocks or blocks[0].line > 1)  # type: ignore[attr-defined]
        reason = record_reason(path, doc, head(path) if skipped else b"", globs, extra, exclude)  # type: ignore[arg-type]
        if reason is not None:
            reasons[path] = reason
    return reasons


def design_documents(documents: Mapping[str, object], records: Iterable[str], config: object) -> list[str]:
    """Documents that are no record but have a design section (motivation, rationale, alternatives, "why")."""
    from gitroute.records import is_design_document, is_document_path, is_template, matches_globs

    exclude = tuple(getattr(config, "decisions_exclude", ()) or ())
    taken = set(records)
    return [p for p in sorted(documents) if p not in taken and is_document_path(p) and not is_template(p)
            and not (exclude and matches_globs(p, exclude)) and is_design_document(documents[p])]  # type: ignore[arg-type]


PAGE_TEXTS = 1  # a page section's prose blocks kept to show (its words are all in the postings)


def _as_page(record: Record) -> Record:
    """A document's sections as page rows: no items of its own, the first prose block of each section to show."""
    return record._replace(format=PAGE_FORMAT, rows=(),
                           sections=tuple(s._replace(texts=s.texts[:PAGE_TEXTS]) for s in record.sections))


def _page_tier(chunks: Sequence[list], first_page_record: int) -> dict:
    """The section's keys for the two tiers of rows: `avgdl` over the rows of records and design sections alone,
    and `pages`, the first page row and the pages' own average length."""
    lengths: tuple[list[int], list[int]] = ([], [])
    for row in chunks:
        lengths[row[0] >= first_page_record].append(int(row[4]))
    records, pages = lengths
    return {"avgdl": round(sum(records) / len(records), 6) if records else 0.0,
            "pages": {"first_row": len(records), "avgdl": round(sum(pages) / len(pages), 6) if pages else 0.0}}


def _design_sections(record: Record, labels: frozenset[str]) -> Record:
    """A document that is no record, kept to its design sections (and their subsections)."""
    kept = tuple(s for s in record.sections if s.label in labels)
    rows = tuple(r for r in record.rows if r.section in labels and r.kind != "title")
    return record._replace(sections=kept, rows=rows)


def build(inputs: object) -> object:
    """Build the decision index from the snapshot's records and design documents (the seam's `build`)."""
    from gitroute.indexes import IndexBuild

    config = inputs.config  # type: ignore[attr-defined]
    documents = getattr(inputs, "documents", {})
    memo = inputs.memo.table(NAME) if getattr(inputs, "memo", None) is not None else None  # type: ignore[attr-defined]
    source = _records_source(inputs, documents) if memo is not None else None
    entry = memo.get(RECORDS) if memo is not None else None
    held = _records_held(entry, source)
    if held is not None:
        records, fallback, words, warnings = held
    else:
        records, fallback, warnings = _read_records(inputs, documents, config)
        words = {r.path: _code_words(documents[r.path]) for r in records if r.path in documents}
        entry = (source, [_plain_record(r) for r in records], fallback, words, warnings)
    if memo is not None and source is not None and not warnings:  # a blob that could not be read is read again
        memo.put(RECORDS, entry)  # the same object when taken: an unchanged table is not written again
    graph = getattr(inputs, "graph", None)
    # Every symbol's name, normalised (each name once: most repeat): only when there are records to find them in.
    nodes = getattr(graph, "nodes", ())  # a large graph's table gives its names without making a node of each
    spelled = (nodes.names_not_of("file") if hasattr(nodes, "names_not_of")
               else {n.name for n in nodes if n.kind != "file"}) if records else ()
    names = frozenset(normalize_name(name) for name in spelled if len(name) >= 4)
    symbols = {path: [key for key in found if key in names] for path, found in words.items()} if names else {}
    blobs, section, shards_kept = build_blobs(records, symbols, fallback, memo, getattr(inputs, "previous", None))
    from gitroute.records import rows_of

    return IndexBuild(blobs=blobs, section=section, warnings=tuple(warnings), output=tuple(rows_of(records)),
                      kept=shards_kept)


# The memo entry of the records a snapshot's documents make: (what they were read from, the records as plain
# tuples, fallback, each record's code words, warnings). A commit that changes no document (or the
# configuration) reads none of them again: on django a one-file commit's rebuild spent half the index there.
RECORDS = "\0records"


def _records_source(inputs: object, documents: Mapping[str, object]) -> str | None:
    """A digest of everything the records are read from: each document's path and blob, the configuration;
    None (no memo) when a document has no blob id to name it."""
    from gitroute.bundle.memo import digest_values

    blobs = {f.path: f.blob for f in getattr(inputs, "files", ())}
    named = [(path, blobs.get(path)) for path in sorted(documents)]
    if any(blob is None for _path, blob in named):
        return None
    return digest_values((named, repr(inputs.config))).hex()  # type: ignore[attr-defined]


def _records_held(entry: object, source: str | None) -> tuple | None:
    """The memo's records when they were read from `source`: (records, fallback, code words, warnings)."""
    if source is None or not (isinstance(entry, tuple) and len(entry) == 5 and entry[0] == source):
        return None
    from gitroute.records import DecisionRow, Record, Section

    _source, plain, fallback, words, warnings = entry
    try:
        records = [Record(path, title, status, superseded_by, format_, tuple(DecisionRow(*r) for r in rows),
                          supersedes, tuple(Section(*s) for s in secs))
                   for path, title, status, superseded_by, format_, rows, supersedes, secs in plain]
    except (TypeError, ValueError):
        return None
    return records, fallback, words, [tuple(w) for w in warnings]


def _plain_record(record: Record) -> tuple:
    """A record as plain tuples, which the memo stores (`_records_held` makes it a Record again)."""
    return (*record[:5], tuple(tuple(r) for r in record.rows), tuple(record.supersedes),
            tuple(tuple(s) for s in record.sections))


def _read_records(inputs: object, documents: Mapping, config: object,
                  ) -> tuple[list[Record], bool, list[tuple[str, str]]]:
    """The snapshot's records, design sections and pages, in the order the index stores them; whether they are
    design documents read for want of any record; the warnings of what could not be read."""
    from gitroute.records import collect_records

    warnings: list[tuple[str, str]] = []

    heads: dict[str, bytes] = {}

    def head(path: str) -> bytes:
        if path not in heads:
            try:
                heads[path] = inputs.read(path)[:4096]  # type: ignore[attr-defined]
            except Exception as err:  # a missing blob is named, not fatal
                warnings.append((path, f"decision record not read: {err}"))
                heads[path] = b""
        return heads[path]

    reasons = select_records(documents, head, config)
    # The text itself is parsed already: only front matter, which the grammar skips, is read (by `head`).
    records = collect_records(((p, heads.get(p, b"")) for p in reasons), documents, reasons)
    others = design_documents(documents, reasons, config)
    fallback = not records and bool(others)
    found = collect_records(((p, b"") for p in others), documents, dict.fromkeys(others, "design document"))
    from gitroute.records import design_sections

    for record in found:
        labels = design_sections(documents[record.path])
        kept = record if fallback else _design_sections(record, labels)
        if kept.sections:
            records.append(kept._replace(format=DOCUMENT_FORMAT))
        rest = () if fallback else tuple(s for s in record.sections if s.label not in labels)
        if rest:
            records.append(_as_page(record._replace(sections=rest)))
    from gitroute.records import pages_of, parse_page

    for path in pages_of(documents, set(reasons) | set(others), config):
        page = parse_page(path, documents[path])
        if page.sections:
            records.append(_as_page(page))
    # Pages last: their rows come after every record's and design section's, so that each tier keeps its own BM25
    # statistics (`_page_tier`): pages never change how records rank among themselves.
    records.sort(key=lambda r: (r.format == PAGE_FORMAT, r.path))
    return records, fallback, warnings


# ---------------------------------------------------------------------------------------------- answer

LoadBlobs = Callable[[Sequence[str]], dict[str, object]]  # paths -> decoded JSON of the blobs found


class blob_loader:  # noqa: N801 - a function to its callers, which also names what to raise on a bad blob
    """The index's blobs by path, decoded by the floor (`IndexView.load`), kept in the view's memo: a warm
    server decodes each blob once for as long as its bundle stays pinned. `corrupt(path)`: the error of a blob
    that is not what the index writes."""

    def __init__(self, view: object) -> None:
        memo = getattr(view, "memo", None)
        self.kept: dict[str, object] = memo.setdefault("blobs", {}) if isinstance(memo, dict) else {}
        self.view = view
        self.corrupt: Callable[[str], Exception] = view.corrupt  # type: ignore[attr-defined]

    def __call__(self, paths: Sequence[str]) -> dict[str, object]:
        kept = self.kept
        missing = [p for p in paths if p not in kept]
        if missing:
            postings = [p for p in missing if p.startswith(POSTINGS.folder + "/")]
            for path, blob in self.view.read(postings).items():  # type: ignore[attr-defined]
                try:
                    kept[path] = POSTINGS.load_shard(blob)
                except ValueError as err:  # BadValue too: a damaged bundle, not a traceback
                    raise self.corrupt(path) from err
            kept.update(self.view.load([p for p in missing if p not in postings]))  # type: ignore[attr-defined]
        return {p: kept[p] for p in paths if p in kept}


class WhyQuestion(namedtuple("WhyQuestion", "text tokens symbols kind asked")):
    """A why question: tokens: tuple[str, ...], stemmed content tokens, deduplicated, in order;
    symbols: tuple[str, ...], normalised names of the identifiers it spells (`MethodView`, `url_for`);
    kind: str, ALTERNATIVES, DECISION or "" (what sections it asks for); asked: str, the words that said so."""

    __slots__ = ()


def question_kind(text: str) -> tuple[str, str]:
    """(kind, the phrase that says so): "why not …", "was X rejected", "what else was considered" ask for the
    alternatives; "why X instead of Y" for the choice (the decision, or the alternative and why it lost);
    "why did we choose", "why X", "the reason for" for the decision, its rationale and motivation."""
    for kind, pattern in ((ALTERNATIVES, _ASKS_ALTERNATIVES), (CHOICE, _ASKS_CHOICE), (DECISION, _ASKS_DECISION)):
        found = pattern.search(text)
        if found:
            return kind, found.group(0)
    return "", ""


def parse_why(text: str) -> WhyQuestion:
    tokens = [t for t in dict.fromkeys(doc_tokens(text)) if t not in WHY_WORDS]
    symbols = []
    for word in re.findall(r"`?([A-Za-z_$][\w$.]*)(?:\(\))?`?", text):
        if re.search(r"[a-z][A-Z]|_|\.|^[A-Z][a-z]+[A-Z]", word) or f"`{word}" in text or f"{word}()" in text:
            key = normalize_name(word.rsplit(".", 1)[-1])
            if len(key) >= 4:
                symbols.append(key)
    kind, asked = question_kind(text)
    return WhyQuestion(text, tuple(tokens), tuple(dict.fromkeys(symbols)), kind, asked)


class Ranked(namedtuple("Ranked", "score row_id signals matched own")):
    """A scored section row: score: float; row_id: int; signals: tuple[(name, value), ...]; matched:
    dict[str, int], the question tokens its section (with its record's title) holds, each with the bits of
    the runs of paragraphs it occurs in (see WINDOWS); own: float, its score before the kind of question
    weighs in (what the no_match rule looks at)."""

    __slots__ = ()


def _postings(keys: Sequence[str], load: LoadBlobs, shards: int) -> dict[str, list]:
    """Each key's postings."""
    found = POSTINGS.lookup(load, keys, shards, getattr(load, "corrupt", None))
    return {key: found.get(key, []) for key in keys}


def check_format(section: Mapping) -> None:
    """Refuse a decision index of another format (a bundle an older or newer gitroute wrote)."""
    found = section.get("format", 1)
    if found != INDEX_FORMAT:
        from gitroute.bundle.validate import BadValue
        from gitroute.errors import BundleFormatError

        if type(found) is not int or found < 1:  # no format any gitroute wrote: a value of the wrong shape
            raise BadValue("its decision index's 'meta.json' names no format")
        raise BundleFormatError(f"the bundle's decision index has format {section.get('format', 1)}; "
                                f"this gitroute reads format {INDEX_FORMAT}",
                                hint="run 'git route build' to rebuild it")


def rank_rows(question: WhyQuestion, load: LoadBlobs, section: Mapping, records: Sequence[list], *,
              limit: int = 10) -> tuple[list[Ranked], dict[int, list], dict[str, float], str]:
    """Score section rows for a question; returns (ranked rows, {row_id: stored row}, idf per question token,
    no_match reason)."""
    counts = section.get("counts", {})
    n = int(counts.get("rows", 0))
    if n == 0:
        return [], {}, {}, "the snapshot has no decision records"
    if not question.tokens and not question.symbols:
        return [], {}, {}, "the question has no word that could name a decision"
    shards = int(section.get("shards", 1))
    avgdl = float(section.get("avgdl", 0.0)) or 1.0
    pages = section.get("pages") or {}
    first_page = int(pages.get("first_row", n))  # rows from here on are pages', ranked by the pages' statistics
    page_avgdl = float(pages.get("avgdl", 0.0)) or 1.0
    chunk = int(section.get("row_chunk", ROW_CHUNK))
    apart = spelled_apart(question.text)  # the words it may hold as one, read with the question's own
    keys = [*question.tokens, *(SYMBOL_PREFIX + s for s in question.symbols), *joined_words(apart, question.tokens)]
    postings = _postings(keys, load, shards)
    read = partial(_postings, load=load, shards=shards)
    question = question._replace(tokens=tuple(split_compounds(question.tokens, postings, read)))
    joined = words_spelled_apart(apart, question.tokens, postings, read)
    in_pages = {t: sum(1 for p in postings[t] if p[0] >= first_page) for t in question.tokens}
    idfs = {t: bm25_idf(len(postings[t]) - in_pages[t], first_page) for t in question.tokens}
    page_idfs = {t: bm25_idf(in_pages[t], n - first_page) for t in question.tokens}
    matched: dict[int, dict[str, int]] = {}
    windows: dict[int, dict[str, int]] = {}
    for token in question.tokens:
        for row_id, tf, mask in postings[token]:
            matched.setdefault(row_id, {})[token] = tf
            windows.setdefault(row_id, {})[token] = mask
    _hold_parts(joined, postings, matched, windows)
    symbol_rows: dict[int, list[str]] = {}
    for name in question.symbols:
        for row_id, _ in postings[SYMBOL_PREFIX + name]:
            symbol_rows.setdefault(row_id, []).append(name)
            matched.setdefault(row_id, {})
    if not matched:
        return [], {}, idfs, "no decision record shares a word with the question"
    # Read the chunks of the candidates with the highest idf mass, then score them exactly.
    def rough_score(r: int) -> float:  # the idf mass of a row's words, in its own tier
        page = r >= first_page
        mass = sum((page_idfs if page else idfs)[t] for t in matched[r]) * (PAGE_WEIGHT if page else 1.0)
        return mass + SYMBOL_BONUS * len(symbol_rows.get(r, ()))

    rough = sorted(matched, key=lambda r: (-rough_score(r), r))[: max(CANDIDATES, limit * 3)]
    found = ROWS.lookup(load, rough, chunk, getattr(load, "corrupt", None))
    wanted = KIND_ROLES.get(question.kind, frozenset())
    asked = set(question.tokens) if len(question.tokens) >= 2 else None  # what a row's heading may hold whole
    stored: dict[int, list] = {}
    scored: list[Ranked] = []
    for row_id in rough:
        row = found.get(row_id)
        if row is None:
            continue
        stored[row_id] = row
        record_id, label, _line, role, dl = row[0], row[1], row[2], row[3], int(row[4])
        page = row_id >= first_page
        tier_idfs, tier_avgdl = (page_idfs, page_avgdl) if page else (idfs, avgdl)
        signals = [(f"bm25:{t}", round(bm25_term(tf, dl, tier_avgdl, tier_idfs[t]), 4))
                   for t, tf in matched[row_id].items()]
        if symbol_rows.get(row_id):
            signals.append(("names_symbol", SYMBOL_BONUS))
        if page:  # an ordinary page; a test's fixture at a share again
            weight = PAGE_WEIGHT * (FIXTURE_WEIGHT if is_fixture(str(records[record_id][0])) else 1.0)
            signals = [(name, round(value * weight, 4)) for name, value in signals]
        if asked and asked <= set(doc_tokens(label)):  # its heading says it all
            signals.append(("heading", round(sum(v for _, v in signals) * HEADING_BONUS, 4)))
        own = sum(v for _, v in signals)
        if role in wanted or (question.kind == ALTERNATIVES and _rejected(records, record_id)):
            signals.append((f"asks_for:{question.kind}", round(own * KIND_BONUS, 4)))
        score = round(sum(v for _, v in signals), 4)
        scored.append(Ranked(score, row_id, tuple(signals), windows.get(row_id, {}), own))
    scored.sort(key=lambda s: (-s.score, s.row_id))
    if not scored:
        return [], {}, idfs, "no decision record shares a word with the question"
    reason = _no_match_reason(question, scored, symbol_rows, (idfs, page_idfs, first_page), stored, records)
    return scored, stored, idfs, reason


def _hold_parts(joined: Mapping[str, list[str]], postings: Mapping[str, list], matched: dict[int, dict[str, int]],
                windows: dict[int, dict[str, int]]) -> None:
    """A row that holds a word the question spells apart as one holds its parts ("startup": start and up), once."""
    for word, parts in joined.items():
        for row_id, tf, mask in postings[word]:
            for part in parts:
                if part not in matched.setdefault(row_id, {}):
                    matched[row_id][part] = tf
                    windows.setdefault(row_id, {})[part] = mask


def _is_page(records: Sequence[list], record_id: int) -> bool:
    return record_id < len(records) and len(records[record_id]) > 4 and records[record_id][4] == PAGE_FORMAT


def _rejected(records: Sequence[list], record_id: int) -> bool:
    # A question about a rejected idea is answered by a record whose status says it was.
    return record_id < len(records) and records[record_id][2] in ("rejected", "withdrawn", "superseded")


def _no_match_reason(question: WhyQuestion, scored: Sequence[Ranked], symbol_rows: Mapping[int, Sequence[str]],
                     tiers: tuple[Mapping[str, float], Mapping[str, float], int], stored: Mapping[int, list],
                     records: Sequence[list]) -> str:
    """Why the best rows do not answer the question, or "" when they do (the rule: docs/decisions/0003, 0017).
    `tiers`: the idf of each question word among records (and design sections), among pages, and the first page
    row: a row's coverage is read with its own tier's idf."""
    # The rows BM25 puts first, before the kind of question reorders them: whether to answer is not
    # a matter of which section answers.
    scored = sorted(scored, key=lambda r: (-r.own, r.row_id))
    if any(symbol_rows.get(r.row_id) for r in scored[:3]):
        return ""
    record_idfs, page_idfs, first_page = tiers
    need = min(MIN_MATCHED, len(question.tokens))
    best = 0.0
    for r in scored[:3]:
        # An ordinary page holds far more prose than a record: three words meet in one of its paragraphs by chance
        # ("release notes … format" in a how-to-release page), so it needs one more.
        # Not when the section's own heading holds one of them: it is about them (cJSON's "Thread Safety", "…
        # thread safe under the following conditions", for "under what conditions it's safe to call the library
        # from several threads at once").
        page = r.row_id >= first_page
        heading = set(doc_tokens(str(stored[r.row_id][1]))) if page and r.row_id in stored else set()
        idfs = page_idfs if page else record_idfs
        total = sum(idfs.values()) or 1.0
        for together in _together(r.matched):
            coverage = math.fsum(idfs[t] for t in together) / total  # a set's order: fsum, as in best_item
            extra = page and not heading_holds(heading, together)
            if coverage >= MIN_COVERAGE and len(together) >= min(need + extra, len(question.tokens)):
                return ""
            best = max(best, coverage)
    # A short question with a word of a record's title that few titles hold ("tabs or spaces", "Use tabs").
    if len(question.tokens) <= SHORT_QUESTION:
        titles = [set(doc_tokens(str(record[1]))) if not _is_page(records, k) else set()
                  for k, record in enumerate(records)]
        for r in scored[:3]:
            for token in set(r.matched) & titles[stored[r.row_id][0]]:
                if sum(token in title for title in titles) <= TITLE_DF:
                    return ""
    return (f"no decision record discusses this: the best paragraphs cover {best:.0%} of the question's "
            f"distinctive words (at least {MIN_COVERAGE:.0%} and {need} words needed)")


def _together(matched: Mapping[str, int]) -> list[set[str]]:
    """The question words each run of a section's paragraphs holds (with the title's and heading's)."""
    return [{t for t, mask in matched.items() if mask >> bit & 1} for bit in range(WINDOWS)
            if any(mask >> bit & 1 for mask in matched.values())]


def best_item(items: Sequence[list], question: WhyQuestion, idfs: Mapping[str, float],
              tokens_of: Callable[[str], frozenset[str]] | None = None) -> list:
    """The item of a section that answers best: the most of the question's idf in its text, then the kind of
    item the question asks for (a rejected alternative for "why not", a decision for "why"), then the first.
    `tokens_of` gives a text's tokens (a warm server keeps them)."""
    wanted = {ALTERNATIVES: ("alternative",), CHOICE: ("decision", "decided", "alternative"),
              DECISION: ("decision", "decided", "rationale")}.get(question.kind, ())
    tokens_of = tokens_of or (lambda text: frozenset(doc_tokens(text)))

    def weight(item: list) -> tuple[float, bool]:
        # fsum: exactly rounded, so the same whatever order a set of tokens iterates in (a plain sum's last bit
        # followed the hash seed, and with it which of two items that tie won: networkx's numpy question)
        return math.fsum(idfs.get(t, 0.0) for t in tokens_of(str(item[3]))), item[1] in wanted

    best = items[0]
    best_weight = weight(best)
    for item in items[1:]:
        w = weight(item)
        if w > best_weight:
            best, best_weight = item, w
    return best


def answer(view: object, question: str, *, limit: int = 10, explain: bool = False, **options: object) -> Answer:
    """`git route why`: one row per record section, ranked, or no_match when no record discusses the question."""
    section = view.section  # type: ignore[attr-defined]
    source = view.source  # type: ignore[attr-defined]
    check_format(section)
    why = parse_why(question)
    has_rows = int(section.get("counts", {}).get("rows", 0)) > 0
    load = blob_loader(view)
    records = load(["records.json"]).get("records.json", []) if has_rows else []
    if not isinstance(records, list):
        raise view.corrupt("records.json")  # type: ignore[attr-defined]
    scored, stored, idfs, reason = rank_rows(why, load, section, records, limit=limit)
    if reason and options.get("sections") and titled_by(why.tokens, [stored[r.row_id][1] for r in scored[:3]]):
        reason = ""  # a docs question that says a section's whole heading: "what license …" and § License
    scored = newest_copies_first(scored, lambda r: (str(records[i][0]) if 0 <= (i := stored[r.row_id][0]) < len(
        records) else "", str(stored[r.row_id][1])))  # docs/2.7's page before docs/2.0's
    memo = getattr(view, "memo", None)
    kept: dict[str, frozenset[str]] = memo.setdefault("item_tokens", {}) if isinstance(memo, dict) else {}

    def tokens_of(text: str) -> frozenset[str]:
        if text not in kept:
            kept[text] = frozenset(doc_tokens(text))
        return kept[text]

    asked = [f"the question asks for the {why.kind} ('{why.asked}')"] if explain and why.kind else []
    if reason and not (options.get("ungated") and scored):  # ungated: the sections that hold its words (`ask`)
        return Answer("no_match", source, (), (reason, *asked))
    rows = []
    for ranked in scored[:limit]:
        record_id, sec, line, role, _length, items = stored[ranked.row_id]
        path, title, status, superseded_by, fmt = records[record_id][:5]
        item_line, kind, verdict, text = best_item(items, why, idfs, tokens_of)
        extra: list[tuple[str, object]] = [("section", sec), ("status", status), ("text", text),
                                           ("record", title), ("row_kind", kind), ("section_kind", role or "other")]
        extra += [(key, value) for key, value in (("verdict", verdict), ("superseded_by", superseded_by)) if value]
        if fmt in (DOCUMENT_FORMAT, PAGE_FORMAT):
            extra.append(("record_format", fmt))
        rows.append(Row(path, item_line or line, sec, "decision", ranked.score,
                        ranked.signals if explain else (), tuple(extra)))
    notes = []
    if section.get("fallback"):
        notes.append("this repository has no decision records: the answer comes from its design documents "
                     "(documents whose sections discuss motivation, rationale or alternatives)")
    elif rows and all(dict(r.extra).get("record_format") == DOCUMENT_FORMAT for r in rows[:3]):
        notes.append("no decision record answers: these are design sections of other documents")
    elif rows and all(dict(r.extra).get("record_format") in (DOCUMENT_FORMAT, PAGE_FORMAT) for r in rows[:3]):
        notes.append("no decision record answers: these are sections of other documents")
    if any(dict(r.extra).get("superseded_by") for r in rows[:3]):
        notes.append("a superseded record answers: read its successor too")
    return Answer("routed", source, tuple(rows), (*notes, *asked))
