"""The decision index: rows from design records (ADRs, MADR, numbered proposals), their BM25 postings, `why` and lint.

A record gives one row per item: its title with the first summary sentence, each paragraph or item of
its decision (and of its rationale), each considered alternative with whether it was chosen or rejected
and the reason given, each consequence, and every `**Decided YYYY-MM-DD:**` line. Rows are ranked by BM25
(`rank.bm25_idf`, `rank.bm25_term`) over the row's text, its record's title and its section, with the
symbol query's tokens; a question that names a code symbol also reaches the rows of records that name it.

Parsing (tree-sitter, through `gitroute.parsing.documents`) happens on the build side only: the answer
path imports nothing heavier than `json`.
"""
from __future__ import annotations

import json
import posixpath
import re
import zlib
from collections import Counter, namedtuple
from collections.abc import Callable, Iterable, Mapping, Sequence

from gitroute.model import Answer, Document, Row
from gitroute.rank import bm25_idf, bm25_term
from gitroute.text import STOP_WORDS, normalize_name, stem, tokenize

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on the query path
if TYPE_CHECKING:
    from gitroute.bundle.store import IndexView

NAME = "decisions"
NEEDS: tuple[str, ...] = ()
EDGES = False  # builds from the graph's nodes only: may start while edges are resolved
QUESTION_TYPES: dict[str, dict] = {"decision": {}}  # bench question type -> answer options

STATUSES = ("proposed", "accepted", "rejected", "superseded", "deprecated", "withdrawn", "final")
UNKNOWN_STATUS = "unknown"
ROW_KINDS = ("title", "decision", "rationale", "alternative", "consequence", "decided")
FORMATS = ("nygard", "madr", "proposal", "other")

# Folders whose documents are decision records, at any depth, and the file names of numbered records.
RECORD_FOLDERS = frozenset({
    "adr", "adrs", "decisions", "decision-records", "architecture", "architecture-decisions",
    "proposals", "rfcs", "peps", "neps", "nxeps", "jeps", "keps", "enhancements",
})
_NUMBERED = re.compile(
    r"^(?:adr|pep|nep|nxep|jep|kep|slep|skip|zep|ape|cep|hep|tap|tip|rfc|mip|sep|glep|bep|oep)[-_ ]?\d+",
    re.IGNORECASE,
)
# Indexes, templates and READMEs sit beside the records without being one: a file named for one
# (`index.md`, `README.md`, `0000-template.md`, `adr-template-bare.md`), not one that mentions an index
# in its title (`0002-index-protocol.md`).
_NOT_A_RECORD_LAST = frozenset({"index", "readme", "toc", "contents"})

MAX_TEXT = 320  # characters of a row's text shown and stored; its tokens come from the whole item
MAX_TOKENS_TEXT = 4000
ROW_CHUNK = 256  # rows per blob: an answer reads the chunks of its best rows only
POSTINGS_TARGET = 2048  # postings per shard on average; the shard count is a power of two
SYMBOL_PREFIX = "="  # no real token starts with it: a whole identifier a record names in code markup
SYMBOL_BONUS = 4.0  # a row of a record that names the symbol the question names
CANDIDATES = 60

# Words a "why" question uses to ask, not to name what it asks about.
WHY_WORDS = frozenset(
    stem(w) for w in """
    did decide decided decides decision decisions chose choose chosen choosing pick picked reason reasons
    instead rather over not go went made make way done behind approach
    """.split()
)
# no_match: the best row must cover this share of the question's information (idf-weighted tokens)...
MIN_COVERAGE = 0.2
# ...and match at least this many distinct question tokens when the question has that many.
MIN_MATCHED = 3

STATUS_WORDS = (
    ("superseded", "superseded"), ("replaced", "superseded"), ("obsoleted", "superseded"),
    ("deprecated", "deprecated"), ("obsolete", "deprecated"),
    ("withdrawn", "withdrawn"), ("abandoned", "withdrawn"), ("retracted", "withdrawn"),
    ("rejected", "rejected"), ("declined", "rejected"), ("refused", "rejected"),
    ("final", "final"), ("implemented", "final"), ("completed", "final"), ("done", "final"),
    ("accepted", "accepted"), ("approved", "accepted"), ("adopted", "accepted"), ("active", "accepted"),
    ("agreed", "accepted"), ("decided", "accepted"),
    ("proposed", "proposed"), ("proposal", "proposed"), ("draft", "proposed"), ("provisional", "proposed"),
    ("open", "proposed"), ("pending", "proposed"), ("review", "proposed"), ("deferred", "proposed"),
    ("wip", "proposed"), ("discussion", "proposed"),
)
_STATUS_MAP = dict(STATUS_WORDS)

# Section roles by heading text (lowercase, number stripped).
_SUMMARY_HEADINGS = ("summary", "abstract", "context and problem statement", "context", "problem statement",
                     "problem", "introduction", "overview", "motivation", "background")
_DECISION_HEADINGS = ("decision outcome", "decision", "decisions", "resolution", "outcome", "chosen option",
                      "detailed description", "specification", "proposal", "proposed change",
                      "proposed solution", "the decision")
_RATIONALE_HEADINGS = ("why", "rationale", "justification", "reasoning")
_ALTERNATIVE_HEADINGS = ("considered options", "options considered", "options", "alternatives",
                         "alternatives considered", "alternative approaches", "rejected ideas",
                         "rejected alternatives", "alternative designs", "other options",
                         "alternative solutions", "alternative proposals")
_PROS_CONS_HEADINGS = ("pros and cons of the options", "pros and cons")
_CONSEQUENCE_HEADINGS = ("consequences", "positive consequences", "negative consequences", "implications",
                         "trade-offs", "tradeoffs", "accepted limits", "consequences and risks")

_DECIDED = re.compile(r"^Decided (\d{4}-\d{2}-\d{2})\b")
_DECIDED_MARKER = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?\*\*Decided \d{4}-\d{2}-\d{2}:\*\*")
_DECIDED_WORD = re.compile(r"\bdecided\b", re.IGNORECASE)
# A line that records a decision: "we decided to", "it was decided that", "decided on", or a line that
# opens with "Decided" (a marker written without its bold or its date). A mention ("why something was
# decided", "the Decided convention") records nothing and is not flagged.
_RECORDS_DECISION = re.compile(
    r"\bdecided\s+(?:to|not\s+to|that|on|upon|against|in\s+favou?r\s+of)\b"
    r"|\b(?:we|it\s+was|it\s+has\s+been|it\s+is|we\s+have|we've|team|maintainers?)\s+(?:\w+\s+)?decided\b"
    r"|^\s*(?:[-*+]\s+|\d+[.)]\s+|#\)\s+)?(?:\*\*|__)?decided\b",
    re.IGNORECASE,
)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")
_CHOSEN = re.compile(r"chosen option:?\s*[\"'“`]?(.+?)[\"'”`]?(?:,|\.\s|$)", re.IGNORECASE)
_LABEL = re.compile(r"^\(?([A-Za-z]|\d{1,2})[).]\s*")
_FRONT_MATTER_KEY = re.compile(r"^([A-Za-z][\w -]*):\s*(.*)$")


class DecisionRow(namedtuple("DecisionRow", "path section line status kind verdict text title words",
                             defaults=("",))):
    """One row of the decision index.

    path: str, the record; section: str, its heading's number where the record numbers it, else the
    heading's text ("" before any heading); line: int, 1-based; status: str, the record's normalised status
    (STATUSES or "unknown"); kind: str (ROW_KINDS); verdict: str, "chosen" | "rejected" | "considered" for
    alternatives, "" otherwise; text: str, bounded; title: str, the record's title; words: str, the item's
    whole text (bounded by MAX_TOKENS_TEXT), which BM25 counts ("" when it is `text`).
    """

    __slots__ = ()


class Record(namedtuple("Record", "path title status superseded_by format rows supersedes", defaults=((),))):
    """A decision record: path, title, status (normalised), superseded_by (a record path or the words the
    record gives, "" when not superseded), format (FORMATS), its rows (tuple[DecisionRow, ...]) and
    supersedes (tuple[str, ...], the records it says it replaces, as written)."""

    __slots__ = ()


# ---------------------------------------------------------------------------------------------- sources


def is_record_path(path: str, globs: Sequence[str] = ()) -> bool:
    """True when `path` is a decision record: configured globs when given, else the default layouts."""
    lower = path.lower()
    if not lower.endswith((".md", ".markdown", ".rst", ".txt")):
        return False
    if globs:
        import fnmatch

        return any(fnmatch.fnmatchcase(path, g) for g in globs)
    base = posixpath.basename(path)
    stem_name = base.rsplit(".", 1)[0]
    words = [w for w in re.split(r"[-_.\s]+", stem_name.lower()) if w]
    if words and ("template" in words or words[-1] in _NOT_A_RECORD_LAST or words[0] in _NOT_A_RECORD_LAST):
        return False
    if _NUMBERED.match(stem_name):
        return True
    folders = lower.split("/")[:-1]
    return any(f in RECORD_FOLDERS for f in folders) and not lower.endswith(".txt")


# ---------------------------------------------------------------------------------------------- parsing


def _heading_role(text: str, number: str) -> str:
    words = text
    if number and words.startswith(number):
        words = words[len(number):]
    words = words.strip(" .:-—–\t¶").lower()
    words = re.sub(r"\s+", " ", words)
    for role, names in (("pros_cons", _PROS_CONS_HEADINGS), ("consequence", _CONSEQUENCE_HEADINGS),
                        ("alternative", _ALTERNATIVE_HEADINGS), ("rationale", _RATIONALE_HEADINGS),
                        ("decision", _DECISION_HEADINGS), ("summary", _SUMMARY_HEADINGS)):
        if words in names:
            return role
    if words == "status":
        return "status"
    if words.startswith(("decision driver", "decision making", "decision-making")):
        return ""  # what a decision weighs, or how decisions are made: context, not a decision
    if "consequence" in words:
        return "consequence"
    if words.startswith(("alternative", "rejected", "considered option")):
        return "alternative"
    if words.startswith("pros and cons"):
        return "pros_cons"
    if words.startswith("decision"):
        return "decision"
    return ""


def _section_label(block_text: str, number: str) -> str:
    if number:
        return number
    return " ".join(block_text.split())[:80]


def normalise_status(text: str) -> str:
    """The normalised status a free-form status text gives (STATUSES), or "unknown"."""
    for word in re.findall(r"[a-z]+", text.lower()):
        if word in _STATUS_MAP:
            return _STATUS_MAP[word]
    return UNKNOWN_STATUS


def first_sentence(text: str) -> str:
    flat = " ".join(text.split())
    return _SENTENCE_END.split(flat, 1)[0]


def _bounded(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= MAX_TEXT else flat[: MAX_TEXT - 1].rstrip() + "…"


def _split_lead(text: str) -> tuple[str, str]:
    """An alternative's lead (its name) and the reason or description after it."""
    flat = " ".join(text.split())
    for sep in (": ", " — ", " – ", " - "):
        head, found, rest = flat.partition(sep)
        if found and 0 < len(head) <= 120:
            return head.strip(), rest.strip()
    sentence = first_sentence(flat)
    if sentence != flat:
        return sentence.rstrip("."), flat[len(sentence):].strip()
    return flat, ""


def _front_matter(data: bytes) -> dict[str, str]:
    # MADR 3+ keeps status in YAML front matter, which the Markdown grammar skips: its keys are plain lines.
    if not data.startswith(b"---\n"):
        return {}
    end = data.find(b"\n---", 4)
    if end < 0:
        return {}
    fields: dict[str, str] = {}
    for line in data[4:end].decode("utf-8", "replace").splitlines():
        m = _FRONT_MATTER_KEY.match(line)
        if m:
            fields[m.group(1).strip().lower()] = m.group(2).strip().strip("\"'")
    return fields


def _field_of(block: object) -> tuple[str, str] | None:
    """(name, value) when a block states a field: an rst/Markdown field, `Status: x` item or table row."""
    kind, text, name = block.kind, block.text, block.name  # type: ignore[attr-defined]
    if kind == "field" and name:
        return name.strip().lower(), text.strip()
    if kind in ("list_item", "paragraph"):
        head, sep, rest = " ".join(text.split()).partition(":")
        if sep and 0 < len(head) <= 24 and head.lower().strip() in _FIELD_NAMES:
            return head.strip().lower(), rest.strip()
    if kind == "table_row":
        cells = [c.strip() for c in text.split("|")]
        if len(cells) >= 2 and cells[0].lower() in _FIELD_NAMES:
            return cells[0].lower(), cells[1]
    return None


_FIELD_NAMES = frozenset({"status", "superseded by", "superseded-by", "replaced by", "replaced-by",
                          "supersedes", "replaces", "date", "state"})


def _resolve_reference(record_path: str, text: str, link: str, known: Sequence[str]) -> str:
    """The record a "superseded by" names: a relative link, else a record whose file carries its number."""
    if link and "://" not in link and not link.startswith("#"):
        target = link.split("#", 1)[0]
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(record_path), target))
        if resolved in known or not known:
            return resolved
    numbers = re.findall(r"\d+", text)
    if numbers:
        wanted = int(numbers[-1])
        folder = posixpath.dirname(record_path)
        candidates = [p for p in known if p != record_path and posixpath.dirname(p) == folder]
        for p in candidates:
            digits = re.findall(r"\d+", posixpath.basename(p))
            if digits and int(digits[0]) == wanted:
                return p
    return " ".join(text.split())


def parse_record(path: str, data: bytes, known: Sequence[str] = (), doc: Document | None = None) -> Record | None:
    """Rows of one decision record, or None when it is no document the parser reads.

    `doc` is the record already parsed (a build hands every document parsed once); else it is parsed here.
    """
    if doc is None:
        from gitroute.parsing.documents import parse_document

        doc = parse_document(path, data)
    if doc is None:
        return None
    blocks = doc.blocks
    front = _front_matter(data)
    title = doc.title or posixpath.basename(path).rsplit(".", 1)[0]

    # Each heading's role and label; a block's role is its nearest heading's with a role.
    role_of: dict[int, str] = {}
    label_of: dict[int, str] = {}
    for i, b in enumerate(blocks):
        if b.kind == "heading":
            role_of[i] = _heading_role(b.text, b.name)
            label_of[i] = _section_label(b.text, b.name)

    def role(i: int) -> str:
        s = blocks[i].section if blocks[i].kind != "heading" else i
        while s >= 0:
            if role_of.get(s):
                return role_of[s]
            s = blocks[s].section
        return ""

    def label(i: int) -> str:
        s = blocks[i].section
        return label_of.get(s, "") if s >= 0 else ""

    # Status and supersession.
    status_text = front.get("status", "")
    superseded_text = front.get("superseded-by", "") or front.get("superseded by", "")
    superseded_link = ""
    supersedes: list[str] = []
    headings = [i for i, b in enumerate(blocks) if b.kind == "heading"]
    for b in blocks:
        field = _field_of(b)
        if field is None:
            continue
        name, value = field
        links = [t.text for t in b.tokens if t.kind == "link"]
        if name in ("status", "state") and not status_text:
            status_text = value
            if "superseded" in value.lower() or "replaced" in value.lower():
                superseded_text = superseded_text or value
                superseded_link = superseded_link or (links[0] if links else "")
        elif name in ("superseded by", "superseded-by", "replaced by", "replaced-by"):
            superseded_text, superseded_link = value, (links[0] if links else "")
        elif name in ("supersedes", "replaces"):
            supersedes.append(value)
    if not status_text:
        # Nygard: a "Status" heading and the paragraph under it.
        for h in headings:
            if role_of.get(h) == "status":
                body = next((b for b in blocks[h + 1:] if b.kind != "heading"), None)
                if body is not None and body.section == h:
                    status_text = body.text
                    if "superseded" in body.text.lower() or "replaced" in body.text.lower():
                        superseded_text = body.text
                        links = [t.text for t in body.tokens if t.kind == "link"]
                        superseded_link = links[0] if links else ""
                break
    status = normalise_status(status_text) if status_text else UNKNOWN_STATUS
    superseded_by = ""
    if superseded_text or superseded_link:
        status = "superseded"
        words = re.sub(r"^(superseded|replaced)(\s+by)?[:\s]*", "", superseded_text.strip(), flags=re.I)
        superseded_by = _resolve_reference(path, words, superseded_link, known)

    rows: list[DecisionRow] = []

    def add(i: int, kind: str, text: str, verdict: str = "", section: str | None = None) -> None:
        flat = " ".join(text.split())
        shown = _bounded(flat)
        rows.append(DecisionRow(path, label(i) if section is None else section, blocks[i].line, status, kind,
                                verdict, shown, title, flat[:MAX_TOKENS_TEXT] if shown != flat else ""))

    # The title row: the title and the first sentence of the summary.
    summary_at = next((i for i, b in enumerate(blocks) if b.kind == "paragraph" and role(i) == "summary"), None)
    if summary_at is None:
        summary_at = next((i for i, b in enumerate(blocks) if b.kind == "paragraph" and _field_of(b) is None
                           and not _DECIDED.match(b.text)), None)
    title_line = next((b.line for b in blocks if b.kind == "heading"), 1)
    if summary_at is not None:
        sentence = first_sentence(blocks[summary_at].text)
        rows.append(DecisionRow(path, label(summary_at), title_line, status, "title", "",
                                _bounded(f"{title}: {sentence}"), title))
    else:
        rows.append(DecisionRow(path, "", title_line, status, "title", "", _bounded(title), title))

    # The chosen option, as MADR ("Chosen option: ...") or a labelled option ("(D). ...") names it.
    chosen_text = ""
    chosen_label = ""
    chosen_reason = ""
    for i, b in enumerate(blocks):
        if b.kind in ("paragraph", "list_item", "field") and role(i) == "decision":
            text = " ".join(b.text.split()) if b.kind != "field" else f"{b.name}: {b.text}"
            m = _CHOSEN.search(text)
            if m:
                chosen_text = m.group(1).strip().strip("\"'“”")
                rest = text[m.end():].strip()
                chosen_reason = rest[len("because"):].strip() if rest.lower().startswith("because") else rest
                break
            lm = _LABEL.match(text)
            if lm:
                chosen_label = lm.group(1).lower()
                break
            break

    # Pros and cons per option (MADR): the reasons given for and against each.
    pros_cons: dict[str, tuple[list[str], list[str]]] = {}
    for i, b in enumerate(blocks):
        if b.kind == "list_item" and role(i) == "pros_cons" and b.section >= 0:
            option = _norm(re.sub(r"^option\s+\w+\s*[:.)-]\s*", "", blocks[b.section].text, flags=re.I))
            good, bad = pros_cons.setdefault(option, ([], []))
            flat = " ".join(b.text.split())
            low = flat.lower()
            if low.startswith(("good", "pro")):
                good.append(_after_because(flat))
            elif low.startswith(("bad", "con")):
                bad.append(_after_because(flat))

    # A hard-wrapped item whose next line is not indented reads as an item and a paragraph right
    # under it (rst's `#) one\ntwo`): they are one item.
    continued: dict[int, str] = {}
    skip: set[int] = set()
    for i in range(len(blocks) - 1, 0, -1):
        b, prev = blocks[i], blocks[i - 1]
        if b.kind == "paragraph" and prev.kind == "list_item" and b.line == prev.end_line + 1:
            continued[i - 1] = prev.text + " " + continued.pop(i, b.text)
            skip.add(i)
    for i, b in enumerate(blocks):
        if b.kind == "heading" or b.kind == "code" or i in skip:
            continue
        text = continued.get(i, b.text) if b.kind != "field" else f"{b.name}: {b.text}"
        decided = _DECIDED.match(" ".join(text.split()))
        if decided:
            add(i, "decided", text)
            continue
        r = role(i)
        if r in ("decision", "rationale") and b.kind in ("paragraph", "list_item", "quote", "field"):
            if _field_of(b) is None:
                add(i, r, text)
        elif r == "consequence" and b.kind in ("paragraph", "list_item", "quote"):
            add(i, "consequence", text)
        elif r == "alternative" and b.kind in ("paragraph", "list_item") and (b.level <= 1):
            flat = " ".join(text.split())
            if flat.endswith(":") and b.kind == "paragraph":
                continue  # "We considered the following:" introduces the items
            lead, reason = _split_lead(flat)
            verdict = _verdict(flat, lead, blocks[b.section].text if b.section >= 0 else "", chosen_text,
                               chosen_label)
            # "X: rejected, because Y" already says its verdict, which the row states once.
            reason = re.sub(r"^(?:rejected|chosen|accepted)\b[,:;.]?\s*", "", reason, flags=re.IGNORECASE)
            good, bad = pros_cons.get(_norm(lead), ([], []))
            if verdict == "chosen" and not reason:
                reason = chosen_reason or (good[0] if good else "")
            elif verdict != "chosen" and not reason and bad:
                reason = bad[0]
            shown = re.sub(r"^\(?[A-Za-z0-9]{1,2}\)\s*", "", lead) if _LABEL.match(lead) else lead
            add(i, "alternative", f"{shown}: {verdict}" + (f", {reason}" if reason else ""), verdict)
    fmt = _format_of([role_of[h] for h in headings], [blocks[h].text.lower() for h in headings], status_text,
                     path)
    return Record(path, title, status, superseded_by, fmt, tuple(rows), tuple(supersedes))


def _after_because(text: str) -> str:
    _, sep, rest = text.partition("because")
    return (rest if sep else text.split(",", 1)[-1]).strip(" ,")


def _norm(text: str) -> str:
    return " ".join(tokenize(text))


def _verdict(item: str, lead: str, heading: str, chosen_text: str, chosen_label: str) -> str:
    low = item.lower()
    if chosen_text:
        if _norm(lead).startswith(_norm(chosen_text)[:60]) or _norm(chosen_text).startswith(_norm(lead)[:60]):
            return "chosen"
        return "rejected"
    if chosen_label:
        m = _LABEL.match(item)
        if m:
            return "chosen" if m.group(1).lower() == chosen_label else "rejected"
    if "chosen" in low.split(":")[0] or low.startswith("chosen"):
        return "chosen"
    h = heading.lower()
    if "rejected" in h or "alternative" in h:
        return "rejected"
    if re.search(r"\b(rejected|not chosen|dropped|ruled out)\b", low):
        return "rejected"
    return "considered"


def _format_of(roles: Sequence[str], headings: Sequence[str], status_text: str, path: str) -> str:
    text = " ".join(headings)
    if "considered options" in text or "decision outcome" in text or "pros and cons" in text:
        return "madr"
    base = posixpath.basename(path)
    if _NUMBERED.match(base) and not base.lower().startswith("adr") or "abstract" in text or "motivation" in text:
        return "proposal"
    if "decision" in roles and ("consequence" in roles or "status" in roles or status_text):
        return "nygard"
    return "other"


def collect_records(files: Iterable[tuple[str, bytes]], parsed: Mapping[str, Document] | None = None) -> list[Record]:
    """Every decision record among (path, content) pairs, parsed, sorted by path.

    A record that a later one says it supersedes ("Supersedes: ADR-0003") is marked superseded by that
    one even when its own status was never updated.
    """
    items = sorted(files)
    known = [p for p, _ in items]
    records: dict[str, Record] = {}
    for path, data in items:
        record = parse_record(path, data, known, (parsed or {}).get(path))
        if record is not None and record.rows:
            records[path] = record
    for record in list(records.values()):
        for words in record.supersedes:
            target = _resolve_reference(record.path, words, "", known)
            old = records.get(target)
            if old is not None and old.path != record.path and not old.superseded_by:
                records[target] = old._replace(
                    status="superseded", superseded_by=record.path,
                    rows=tuple(r._replace(status="superseded") for r in old.rows),
                )
    return [records[p] for p in sorted(records)]


def rows_of(records: Iterable[Record]) -> list[DecisionRow]:
    return [row for record in records for row in record.rows]


def decision_rows(files: Iterable[tuple[str, bytes]], globs: Sequence[str] = ()) -> list[DecisionRow]:
    """The rows of every decision record among (path, content) pairs of a snapshot: what DECISIONS.md renders.

    `globs` is `Config.decisions` (empty: the default layouts). Build-side: it parses with tree-sitter.
    """
    return rows_of(collect_records((p, d) for p, d in files if is_record_path(p, globs)))


# ---------------------------------------------------------------------------------------------- DECISIONS.md


def render_decisions(rows: Sequence[DecisionRow]) -> str:
    """DECISIONS.md: one table row per decision (decided lines included) and per alternative, deterministic.

    Rows are ordered by record path, then line, then text; a `|` in a cell is escaped and cells are one line.
    """
    wanted = sorted((r for r in rows if r.kind in ("decision", "decided", "alternative")),
                    key=lambda r: (r.path, r.line, r.kind, r.text))
    lines = [
        "# Decisions",
        "",
        "<!-- generated by `git route decisions --write` from the decision records; do not edit -->",
        "",
        "| record | section | status | kind | decision |",
        "|---|---|---|---|---|",
    ]
    for r in wanted:
        kind = f"alternative, {r.verdict}" if r.kind == "alternative" and r.verdict else r.kind
        cells = (f"[{_cell(r.title)}]({r.path}#L{r.line})", _cell(r.section), r.status, kind, _cell(r.text))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def read_rows(view: IndexView) -> list[DecisionRow]:
    """The rows a built index holds, read back from its blobs: what `render_decisions` takes for DECISIONS.md."""
    records = view.read_json("records.json")
    try:
        total = int(view.section["counts"]["rows"])
        chunk = int(view.section["row_chunk"])
        rows: list[DecisionRow] = []
        for start in range(0, total, chunk):
            path = f"rows/{start // chunk:05d}.json"
            for record_id, section_text, line, kind, verdict, text, _length in view.read_json(path):  # type: ignore[attr-defined]
                record_path, title, status, _superseded_by, _format = records[record_id]  # type: ignore[index]
                rows.append(DecisionRow(record_path, section_text, line, status, kind, verdict, text, title))
    except (IndexError, KeyError, TypeError, ValueError) as err:
        raise view.corrupt("records.json") from err
    return rows


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("\\", "\\\\").replace("|", "\\|")


# ---------------------------------------------------------------------------------------------- lint


def lint_record(path: str, data: bytes) -> list[tuple[int, str]]:
    """Lines of a decision record that say something was decided without the `**Decided YYYY-MM-DD:**` marker.

    Returns (line, text) per flagged line: a line that records a decision ("we decided to", "it was decided
    that", a line opening with "Decided"). A line inside code, in a heading, one that only mentions a
    decision ("why something was decided") or spells the convention itself (`Decided YYYY-MM-DD`) is not.
    """
    from gitroute.parsing.documents import parse_document

    doc = parse_document(path, data)
    if doc is None:
        return []
    raw = data.decode("utf-8", "replace").splitlines()
    flagged: list[tuple[int, str]] = []
    for block in doc.blocks:
        said = f"{block.name} {block.text}" if block.kind == "field" else block.text
        if block.kind in ("code", "heading", "directive") or not _DECIDED_WORD.search(said):
            continue
        code_words = " ".join(t.text for t in block.tokens if t.kind in ("code", "literal"))
        for number in range(block.line, min(block.end_line, len(raw)) + 1):
            line = raw[number - 1]
            if not _DECIDED_WORD.search(line) or "Decided YYYY-MM-DD" in line:
                continue
            if _DECIDED_MARKER.match(line):
                continue
            prose = _strip_quoted(_strip_code(line) if code_words else line)
            if not _RECORDS_DECISION.search(prose):
                continue
            flagged.append((number, line.strip()))
    return flagged


def lint_records(files: Iterable[tuple[str, bytes]]) -> list[tuple[str, int, str]]:
    """(path, line, text) of every flagged line of the given records, by path and line."""
    return [(path, line, text) for path, data in sorted(files) for line, text in lint_record(path, data)]


def _strip_quoted(line: str) -> str:
    # A quoted phrase ("we decided to…") is an example or a citation, not the record deciding.
    return re.sub(r'"[^"]*"|“[^”]*”', "", line)


def _strip_code(line: str) -> str:
    return re.sub(r"`[^`]*`", "", line)


# ---------------------------------------------------------------------------------------------- build


def doc_tokens(text: str) -> list[str]:
    """The tokens BM25 counts: the symbol query's tokens, stemmed, stop words and single letters dropped."""
    return [stem(t) for t in tokenize(text) if t not in STOP_WORDS and not (len(t) == 1 and t.isalpha())]


def _shards_for(n_postings: int) -> int:
    shards = 1
    while shards * POSTINGS_TARGET < n_postings:
        shards *= 2
    return shards


def shard_of(token: str, shards: int) -> int:
    return zlib.crc32(token.encode("utf-8")) % shards


def build_blobs(records: Sequence[Record], symbols: Mapping[str, Sequence[str]] | None = None,
                ) -> tuple[dict[str, object], dict]:
    """The index's JSON values by path, and its section.

    `symbols`: per record path, the normalised code-symbol names the record mentions; their rows get a
    `=name` posting (the title row when the mention is in no row's text).
    """
    rows = rows_of(records)
    record_ids = {r.path: i for i, r in enumerate(records)}
    postings: dict[str, list[list[int]]] = {}
    lengths: list[int] = []
    for row_id, row in enumerate(rows):
        tokens = doc_tokens(f"{row.title} {row.section} {row.words or row.text}")
        lengths.append(len(tokens))
        for token, tf in sorted(Counter(tokens).items()):
            postings.setdefault(token, []).append([row_id, tf])
    first_row: dict[str, int] = {}
    for row_id, row in enumerate(rows):
        first_row.setdefault(row.path, row_id)
    for path, names in sorted((symbols or {}).items()):
        if path not in first_row:
            continue
        for name in sorted(set(names)):
            hits = [i for i, row in enumerate(rows) if row.path == path and name in normalize_name_all(row.text)]
            ids = hits or [first_row[path]]
            postings.setdefault(SYMBOL_PREFIX + name, []).extend([i, 1] for i in ids)
    n_postings = sum(len(v) for v in postings.values())
    shards = _shards_for(n_postings)
    blobs: dict[str, object] = {}
    for token in sorted(postings):
        blobs.setdefault(f"postings/{shard_of(token, shards):05d}.json", {})[token] = postings[token]  # type: ignore[index]
    for start in range(0, len(rows), ROW_CHUNK):
        blobs[f"rows/{start // ROW_CHUNK:05d}.json"] = [
            [record_ids[r.path], r.section, r.line, r.kind, r.verdict, r.text, lengths[start + k]]
            for k, r in enumerate(rows[start:start + ROW_CHUNK])
        ]
    blobs["records.json"] = [[r.path, r.title, r.status, r.superseded_by, r.format] for r in records]
    counts: dict[str, int] = {"records": len(records), "rows": len(rows)}
    # Per format and per row kind, the ones present: status lists every count.
    for fmt in FORMATS:
        if n := sum(1 for r in records if r.format == fmt):
            counts[f"format_{fmt}"] = n
    for kind in ROW_KINDS:
        if n := sum(1 for r in rows if r.kind == kind):
            counts[f"rows_{kind}"] = n
    avgdl = round(sum(lengths) / len(lengths), 6) if lengths else 0.0
    section = {"counts": counts, "avgdl": avgdl, "shards": shards, "row_chunk": ROW_CHUNK,
               "rows_by_format": {fmt: sum(len(r.rows) for r in records if r.format == fmt) for fmt in FORMATS}}
    return blobs, section


def normalize_name_all(text: str) -> set[str]:
    """Normalised names of every identifier-looking word of a text (`url_for()` -> `urlfor`)."""
    return {normalize_name(w) for w in re.findall(r"[A-Za-z_$][\w$.]*", text)}


def _mentioned_symbols(path: str, data: bytes, names: frozenset[str], doc: Document | None = None) -> list[str]:
    if doc is None:
        from gitroute.parsing.documents import parse_document

        doc = parse_document(path, data)
    if doc is None:
        return []
    found = set()
    for block in doc.blocks:
        for token in block.tokens:
            if token.kind in ("code", "literal", "role", "directive_arg"):
                last = re.split(r"[.:/]", token.text.strip("`~!.()"))[-1]
                key = normalize_name(last)
                if len(key) >= 4 and key in names:
                    found.add(key)
    return sorted(found)


def build(inputs: object) -> object:
    """Build the decision index from the snapshot's records (the seam's `build`)."""
    from gitroute.bundle.layout import dump_json
    from gitroute.indexes import IndexBuild

    config = inputs.config  # type: ignore[attr-defined]
    globs = tuple(getattr(config, "decisions", ()) or ())
    paths = [f.path for f in inputs.files if is_record_path(f.path, globs)]  # type: ignore[attr-defined]
    warnings: list[tuple[str, str]] = []
    contents: list[tuple[str, bytes]] = []
    for path in paths:
        try:
            contents.append((path, inputs.read(path)))  # type: ignore[attr-defined]
        except Exception as err:  # a missing blob is named, not fatal
            warnings.append((path, f"decision record not read: {err}"))
    documents = getattr(inputs, "documents", {})
    records = collect_records(contents, documents)
    graph = getattr(inputs, "graph", None)
    # Every symbol's name, normalised: only when there are records to find them in (django has none).
    names = frozenset(
        normalize_name(n.name) for n in getattr(graph, "nodes", ()) if n.kind != "file" and len(n.name) >= 4
    ) if records else frozenset()
    data_by_path = dict(contents)
    symbols = ({r.path: _mentioned_symbols(r.path, data_by_path[r.path], names, documents.get(r.path))
                for r in records} if names else {})
    values, section = build_blobs(records, symbols)
    blobs = {path: dump_json(value) for path, value in values.items()}
    return IndexBuild(blobs=blobs, section=section, warnings=tuple(warnings), output=tuple(rows_of(records)))


# ---------------------------------------------------------------------------------------------- answer

ReadBlobs = Callable[[Sequence[str]], dict[str, bytes]]


class WhyQuestion(namedtuple("WhyQuestion", "text tokens symbols")):
    """A why question: tokens: tuple[str, ...], stemmed content tokens, deduplicated, in order;
    symbols: tuple[str, ...], normalised names of the identifiers it spells (`MethodView`, `url_for`)."""

    __slots__ = ()


def parse_why(text: str) -> WhyQuestion:
    tokens = [t for t in dict.fromkeys(doc_tokens(text)) if t not in WHY_WORDS]
    symbols = []
    for word in re.findall(r"`?([A-Za-z_$][\w$.]*)(?:\(\))?`?", text):
        if re.search(r"[a-z][A-Z]|_|\.|^[A-Z][a-z]+[A-Z]", word) or f"`{word}" in text or f"{word}()" in text:
            key = normalize_name(word.rsplit(".", 1)[-1])
            if len(key) >= 4:
                symbols.append(key)
    return WhyQuestion(text, tuple(tokens), tuple(dict.fromkeys(symbols)))


def rank_rows(question: WhyQuestion, read: ReadBlobs, section: Mapping, *, limit: int = 10,
              ) -> tuple[list[tuple[float, int, tuple[tuple[str, float], ...]]], dict[int, list], str]:
    """Score rows for a question; returns ([(score, row_id, signals)], {row_id: stored row}, no_match reason)."""
    counts = section.get("counts", {})
    n = int(counts.get("rows", 0))
    if n == 0:
        return [], {}, "the snapshot has no decision records"
    if not question.tokens and not question.symbols:
        return [], {}, "the question has no word that could name a decision"
    shards = int(section.get("shards", 1))
    avgdl = float(section.get("avgdl", 0.0)) or 1.0
    chunk = int(section.get("row_chunk", ROW_CHUNK))
    keys = list(question.tokens) + [SYMBOL_PREFIX + s for s in question.symbols]
    paths = sorted({f"postings/{shard_of(k, shards):05d}.json" for k in keys})
    loaded = {p: json.loads(b) for p, b in read(paths).items()}
    postings: dict[str, list] = {}
    for key in keys:
        postings[key] = loaded.get(f"postings/{shard_of(key, shards):05d}.json", {}).get(key, [])
    idfs = {t: bm25_idf(len(postings[t]), n) for t in question.tokens}
    # First pass: which rows match and how much, from postings alone; lengths come with the rows.
    matched: dict[int, dict[str, int]] = {}
    for token in question.tokens:
        for row_id, tf in postings[token]:
            matched.setdefault(row_id, {})[token] = tf
    symbol_rows: dict[int, list[str]] = {}
    for name in question.symbols:
        for row_id, _ in postings[SYMBOL_PREFIX + name]:
            symbol_rows.setdefault(row_id, []).append(name)
            matched.setdefault(row_id, {})
    if not matched:
        return [], {}, "no decision record shares a word with the question"
    # Read the chunks of the candidates with the highest idf mass, then score them exactly.
    rough = sorted(matched, key=lambda r: (-sum(idfs[t] for t in matched[r]) - SYMBOL_BONUS * len(
        symbol_rows.get(r, ())), r))[: max(CANDIDATES, limit * 3)]
    chunk_paths = sorted({f"rows/{r // chunk:05d}.json" for r in rough})
    chunks = {p: json.loads(b) for p, b in read(chunk_paths).items()}
    stored: dict[int, list] = {}
    scored = []
    total_idf = sum(idfs.values()) or 1.0
    for row_id in rough:
        rows = chunks.get(f"rows/{row_id // chunk:05d}.json")
        if rows is None or row_id % chunk >= len(rows):
            continue
        row = rows[row_id % chunk]
        stored[row_id] = row
        dl = int(row[6])
        signals = [(f"bm25:{t}", round(bm25_term(tf, dl, avgdl, idfs[t]), 4)) for t, tf in matched[row_id].items()]
        coverage = sum(idfs[t] for t in matched[row_id]) / total_idf
        if symbol_rows.get(row_id):
            signals.append(("names_symbol", SYMBOL_BONUS))
        score = round(sum(v for _, v in signals), 4)
        signals.append(("coverage", round(coverage, 4)))
        scored.append((score, row_id, tuple(signals)))
    scored.sort(key=lambda s: (-s[0], s[1]))
    best = scored[0] if scored else None
    if best is None:
        return [], {}, "no decision record shares a word with the question"
    reason = _no_match_reason(question, matched, symbol_rows, idfs, scored)
    return scored, stored, reason


def _no_match_reason(question: WhyQuestion, matched: Mapping[int, Mapping[str, int]],
                     symbol_rows: Mapping[int, Sequence[str]], idfs: Mapping[str, float],
                     scored: Sequence[tuple[float, int, tuple]]) -> str:
    """Why the best rows do not answer the question, or "" when they do (the rule: docs/decisions/0003)."""
    if any(symbol_rows.get(row_id) for _, row_id, _ in scored[:3]):
        return ""
    total = sum(idfs.values()) or 1.0
    need = min(MIN_MATCHED, len(question.tokens))
    for _, row_id, _ in scored[:3]:
        tokens = matched[row_id]
        if sum(idfs[t] for t in tokens) / total >= MIN_COVERAGE and len(tokens) >= need:
            return ""
    best = max((sum(idfs[t] for t in matched[r]) / total for _, r, _ in scored[:3]), default=0.0)
    return (f"no decision record discusses this: the best rows cover {best:.0%} of the question's "
            f"distinctive words (at least {MIN_COVERAGE:.0%} and {need} words needed)")


def answer(view: object, question: str, *, limit: int = 10, explain: bool = False, **options: object) -> Answer:
    """`git route why`: rows ranked by BM25, or no_match when no record discusses the question."""
    section = view.section  # type: ignore[attr-defined]
    source = view.source  # type: ignore[attr-defined]
    why = parse_why(question)
    scored, stored, reason = rank_rows(why, view.read, section, limit=limit)  # type: ignore[attr-defined]
    if reason:
        return Answer("no_match", source, (), (reason,))
    records = view.read_json("records.json")  # type: ignore[attr-defined]
    rows = []
    for score, row_id, signals in scored[:limit]:
        record_id, sec, line, kind, verdict, text, _ = stored[row_id]
        path, title, status, superseded_by, _fmt = records[record_id]
        extra: list[tuple[str, object]] = [("section", sec), ("status", status), ("text", text),
                                           ("record", title), ("row_kind", kind)]
        if verdict:
            extra.append(("verdict", verdict))
        if superseded_by:
            extra.append(("superseded_by", superseded_by))
        rows.append(Row(path, line, sec, "decision", score, signals if explain else (), tuple(extra)))
    notes = []
    if any(dict(r.extra).get("superseded_by") for r in rows[:3]):
        notes.append("a superseded record answers: read its successor too")
    return Answer("routed", source, tuple(rows), tuple(notes))
