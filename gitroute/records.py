"""Design records: which documents are records (of any shape), and their sections, items, status and successor.

A record is a document that keeps a design decision: an ADR (Nygard, MADR), a numbered enhancement proposal
(PEP-, KEP-, RFC-style, with or without a status field), a design page ("Design Decisions in Flask"), a
"why" page or an architecture document. `record_reason` says whether a parsed document is one and why;
`parse_record` gives its sections (each heading's text: what `why` ranks, one row per section) and its
items (the title with its summary's first sentence, each decision paragraph, each alternative with its
verdict, each consequence, each `**Decided YYYY-MM-DD:**` line: what `DECISIONS.md` lists).

Build side only (the answer path never imports it): it works on documents `gitroute.parsing.documents`
parsed, and parses none itself (pure text over `model.Document`: no tree-sitter).
"""
from __future__ import annotations

import fnmatch
import posixpath
import re
from collections import namedtuple
from collections.abc import Iterable, Mapping, Sequence

from gitroute.model import Block, Document
from gitroute.text import tokenize

STATUSES = ("proposed", "accepted", "rejected", "superseded", "deprecated", "withdrawn", "final")
UNKNOWN_STATUS = "unknown"
ITEM_KINDS = ("title", "decision", "rationale", "alternative", "consequence", "decided", "text")
FORMATS = ("nygard", "madr", "proposal", "design", "other")
# What a section is for, from its heading: the kind of "why" question it answers.
SECTION_ROLES = ("summary", "motivation", "decision", "rationale", "alternative", "pros_cons", "consequence",
                 "status", "discussion", "")
# Why a document is a record (`record_reason`), most explicit first.
REASONS = ("configured", "folder", "numbered", "name", "title", "fields", "sections")

# Folders whose documents are decision records, at any depth (names lowercased, `_` read as `-`).
RECORD_FOLDERS = frozenset({
    "adr", "adrs", "decisions", "decision-records", "architecture", "architecture-decisions",
    "proposals", "rfcs", "peps", "neps", "nxeps", "jeps", "keps", "enhancements",
    "design", "designs", "design-docs", "design-documents", "design-notes", "design-decisions",
    "enhancement-proposals", "design-proposals",
})
NUMBERED = re.compile(
    r"^(?:adr|pep|nep|nxep|jep|kep|slep|skip|zep|ape|cep|hep|tap|tip|rfc|mip|sep|glep|bep|oep)[-_ ]?\d+",
    re.IGNORECASE,
)
# Indexes, templates and READMEs sit beside the records without being one: a file named for one
# (`index.md`, `README.md`, `0000-template.md`, `adr-template-bare.md`), not one that mentions an index
# in its title (`0002-index-protocol.md`).
_NOT_A_RECORD_LAST = frozenset({"index", "readme", "toc", "contents", "changelog", "changes", "license"})
# A file named for a design page: `design.rst`, `DESIGN.md`, `why.md`, `why-not-orm.md`, `rationale.md`,
# `ARCHITECTURE.md`, `named_array_design_doc.md`, `design-decisions.md`.
_DESIGN_NEXT = frozenset({"doc", "docs", "document", "notes", "note", "decisions", "decision", "rationale",
                          "proposal", "philosophy", "philosophies", "principles"})
_NAMED_STEMS = frozenset({"rationale", "architecture", "design", "design-rationale", "roadmap"})
# A title that says it is a record: a numbered proposal ("PEP 8 -- Style Guide", "KEP-1234: …"), a
# proposal or design document ("Proposal: …", "Design doc: …"), a design page ("Design Decisions in
# Flask", "Design philosophies"), a "why" page ("Why not an ORM?") or an architecture document.
_RECORD_TITLE = re.compile(
    r"^(?:(?:pep|nep|nxep|kep|xep|jep|slep|rfc|mip|tip|tap|adr|sep|glep|bip|eip|zep|cep|hep)[-\s]?\d+\b"
    r"|(?:design\s+|enhancement\s+)?proposal\s*[:—–-]|rfc\s*[:—–-]|design\s+doc(?:ument)?\b|design\s+notes?\b"
    r"|design\s+(?:decisions?|philosoph\w*|principles|rationale)\b|why\b|rationale\b"
    r"|architecture(?:\s+(?:decision|overview|of\b|and\b)|\s*$)|architectural\s+decision)"
    r"|\bdesign\s+decisions?\b|\barchitecture\s+decision\s+record",
    re.IGNORECASE,
)
# Header fields (front matter, a PEP-style header block, a field list) that only proposals carry.
_PROPOSAL_FIELDS = frozenset({"pep", "nep", "kep", "kep-number", "rfc", "rfc pr", "rfc-pr", "feature name",
                              "feature-name", "start date", "start-date", "proposal", "discussions-to",
                              "deciders", "decision-makers"})
# ... or a status beside one of these.
_AUTHOR_FIELDS = frozenset({"author", "authors", "created", "date", "owner", "owners", "reviewers", "champion",
                            "sponsor", "approvers", "creation-date", "last-updated"})
# A document with sections of at least two of these roles, by these very headings, one of them a decision,
# rationale or alternatives, is a record (Motivation and Alternatives, Rationale and Drawbacks, Decision and
# Consequences). Headings an ordinary page also has ("Options", "Limitations", "Why might …?") do not count.
_SHAPE_HEADINGS = {
    **dict.fromkeys(("motivation", "motivation and scope"), "motivation"),
    **dict.fromkeys(("rationale", "design rationale", "rationale and alternatives", "justification"), "rationale"),
    **dict.fromkeys(("considered options", "options considered", "alternatives", "alternatives considered",
                     "alternative approaches", "alternative designs", "alternative solutions",
                     "alternative proposals", "rejected ideas", "rejected alternatives", "other approaches"),
                    "alternative"),
    **dict.fromkeys(("pros and cons of the options", "pros and cons"), "pros_cons"),
    **dict.fromkeys(("decision", "decision outcome", "decisions", "resolution", "chosen option", "the decision",
                     "design decisions", "proposed change", "proposed solution"), "decision"),
    **dict.fromkeys(("consequences", "positive consequences", "negative consequences", "drawbacks",
                     "trade-offs", "tradeoffs", "downsides", "implications"), "consequence"),
}
_SHAPE_NEEDS = frozenset({"decision", "rationale", "alternative", "pros_cons"})
# With no record in the snapshot, a document with one of these sections is a design document `why` reads.
_DESIGN_DOC_ROLES = frozenset({"motivation", "rationale", "alternative", "pros_cons"})

MAX_TEXT = 320  # characters of an item's text shown and stored
MAX_SECTION_WORDS = 12_000  # characters of a section's text that BM25 counts
MAX_SECTION_TEXTS = 4  # prose blocks kept to show for a section without items

STATUS_WORDS = (
    ("superseded", "superseded"), ("replaced", "superseded"), ("obsoleted", "superseded"),
    ("deprecated", "deprecated"), ("obsolete", "deprecated"),
    ("withdrawn", "withdrawn"), ("abandoned", "withdrawn"), ("retracted", "withdrawn"),
    ("rejected", "rejected"), ("declined", "rejected"), ("refused", "rejected"),
    ("final", "final"), ("implemented", "final"), ("completed", "final"), ("done", "final"),
    ("accepted", "accepted"), ("approved", "accepted"), ("adopted", "accepted"), ("active", "accepted"),
    ("agreed", "accepted"), ("decided", "accepted"), ("implementable", "accepted"),
    ("proposed", "proposed"), ("proposal", "proposed"), ("draft", "proposed"), ("provisional", "proposed"),
    ("open", "proposed"), ("pending", "proposed"), ("review", "proposed"), ("deferred", "proposed"),
    ("wip", "proposed"), ("discussion", "proposed"),
)
_STATUS_MAP = dict(STATUS_WORDS)

# Section roles by heading text (lowercase, number stripped).
_SUMMARY_HEADINGS = ("summary", "abstract", "context and problem statement", "context", "problem statement",
                     "problem", "introduction", "overview", "background", "goals", "tl;dr")
_MOTIVATION_HEADINGS = ("motivation", "motivation and scope", "problem and motivation")
_DECISION_HEADINGS = ("decision outcome", "decision", "decisions", "resolution", "outcome", "chosen option",
                      "detailed description", "specification", "proposal", "proposed change",
                      "proposed solution", "the decision", "design decisions", "basic design decisions",
                      "detailed design", "guide-level explanation", "reference-level explanation",
                      "design details", "solution")
_RATIONALE_HEADINGS = ("why", "rationale", "justification", "reasoning", "design rationale",
                       "rationale and alternatives")
_ALTERNATIVE_HEADINGS = ("considered options", "options considered", "options", "alternatives",
                         "alternatives considered", "alternative approaches", "rejected ideas",
                         "rejected alternatives", "alternative designs", "other options",
                         "alternative solutions", "alternative proposals", "other approaches",
                         "existing solutions", "prior art", "rejection notice", "rejected")
_PROS_CONS_HEADINGS = ("pros and cons of the options", "pros and cons")
_CONSEQUENCE_HEADINGS = ("consequences", "positive consequences", "negative consequences", "implications",
                         "trade-offs", "tradeoffs", "accepted limits", "consequences and risks", "drawbacks",
                         "downsides", "risks", "limitations", "backward compatibility",
                         "backwards compatibility", "costs")
_DISCUSSION_HEADINGS = ("discussion", "open questions", "unresolved questions", "faq",
                        "frequently asked questions", "q&a")

_DECIDED = re.compile(r"^Decided (\d{4}-\d{2}-\d{2})\b")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(\[])")
_CHOSEN = re.compile(r"chosen option:?\s*[\"'“`]?(.+?)[\"'”`]?(?:,|\.\s|$)", re.IGNORECASE)
_LABEL = re.compile(r"^\(?([A-Za-z]|\d{1,2})[).]\s*")
_FRONT_MATTER_KEY = re.compile(r"^-?\s*([A-Za-z][\w -]*):\s*(.*)$")
_FIELD_NAMES = frozenset({"status", "superseded by", "superseded-by", "replaced by", "replaced-by",
                          "supersedes", "replaces", "date", "state"})


class DecisionRow(namedtuple("DecisionRow", "path section line status kind verdict text title words",
                             defaults=("",))):
    """One item of a decision record (what DECISIONS.md lists, and what a `why` row shows).

    path: str, the record; section: str, its heading's text, number included ("" before any heading); line:
    int, 1-based; status: str, the record's normalised status (STATUSES or "unknown"); kind: str (ITEM_KINDS);
    verdict: str, "chosen" | "rejected" | "considered" for alternatives, "" otherwise; text: str, bounded;
    title: str, the record's title; words: str, the item's whole text when `text` is cut ("").
    """

    __slots__ = ()


class Section(namedtuple("Section", "label line role heading paragraphs texts")):
    """One section of a record: what `why` ranks, one row each.

    label: str, as DecisionRow.section (sections sharing a label are one); line: int, its heading's line (the
    first block's before any heading); role: str (SECTION_ROLES), its own heading's, else its nearest
    ancestor's; heading: str, its heading's text; paragraphs: tuple[str, ...], the text of each of its blocks
    but code (bounded together by MAX_SECTION_WORDS); texts: tuple[tuple[int, str], ...], its first prose
    blocks (line, bounded text), shown when it has no item.
    """

    __slots__ = ()


class Record(namedtuple("Record", "path title status superseded_by format rows supersedes sections",
                        defaults=((), ()))):
    """A decision record: path, title, status (normalised), superseded_by (a record path or the words the
    record gives, "" when not superseded), format (FORMATS), its items (rows: tuple[DecisionRow, ...]),
    supersedes (tuple[str, ...], the records it says it replaces, as written) and its sections
    (tuple[Section, ...], in document order, one per label)."""

    __slots__ = ()


# ---------------------------------------------------------------------------------------------- which documents


def _words_of(name: str) -> list[str]:
    return [w for w in re.split(r"[-_.\s]+", name.lower()) if w]


def _is_side_file(stem_name: str) -> bool:
    words = _words_of(stem_name)
    return bool(words) and ("template" in words or words[-1] in _NOT_A_RECORD_LAST
                            or words[0] in _NOT_A_RECORD_LAST)


def is_template(path: str) -> bool:
    """A record template (`template.md`, `nxep-template.rst`, `0000-template.md`): the shape of a record, no record."""
    return "template" in _words_of(posixpath.basename(path).rsplit(".", 1)[0])


# The plain-text documents a repository keeps under names every project uses, often with no extension (`CHANGES`,
# `NEWS`, `HACKING`, GNU's `ChangeLog`, CPAN's `Changes`): read as markdown, whose paragraphs plain text is. Without
# an extension only capitalised (`README` in any case, as before): a lower-case `install` or `changes` is more often a
# script.
PLAIN_DOCUMENT_STEMS = frozenset(("readme", "changes", "changelog", "history", "news", "contributing", "hacking",
                                  "install", "upgrading", "faq", "notes"))


def plain_document(basename: str) -> bool:
    """An extensionless name of a plain-text document (`CHANGES`, `ChangeLog`, `README`, `readme`)."""
    stem = basename.lower()
    return stem == "readme" or (stem in PLAIN_DOCUMENT_STEMS and basename[:1].isupper())


def is_xdoc_path(path: str) -> bool:
    """A Maven site page: an `.xml` file in an `xdoc` folder (`src/site/xdoc/userguide.xml`; `parsing.xdoc`)."""
    *folders, name = path.lower().split("/")
    return name.endswith(".xml") and "xdoc" in folders


def is_document_path(path: str) -> bool:
    """A document by its name: markdown, reStructuredText, text, or a plain document without an extension (`CHANGES`,
    `ChangeLog`: a changelog is often the only place that says why something changed)."""
    name = posixpath.basename(path)
    return name.lower().endswith((".md", ".markdown", ".rst", ".txt", ".texi", ".texinfo", ".adoc", ".asciidoc",
                                  ".html", ".htm")) \
        or ("." not in name and plain_document(name)) or is_xdoc_path(path)


def _in_record_folder(path: str) -> bool:
    return any(f.replace("_", "-") in RECORD_FOLDERS for f in path.lower().split("/")[:-1])


def path_reason(path: str) -> str | None:
    """Why a path alone makes a document a record ("folder", "numbered", "name"), or None."""
    lower = path.lower()
    if not is_document_path(path):
        return None
    stem_name = posixpath.basename(path).rsplit(".", 1)[0]
    if _is_side_file(stem_name):
        return None
    if NUMBERED.match(stem_name):
        return "numbered"
    if _in_record_folder(path) and not lower.endswith(".txt"):
        return "folder"
    words = _words_of(stem_name)
    if words and (words[0] == "why" or "-".join(words) in _NAMED_STEMS or _design_named(words)):
        return "name"
    return None


def _design_named(words: list[str]) -> bool:
    # `named_array_design_doc`, `design-decisions`, `scheduler-design`: "design" last, or before a doc word.
    for i, word in enumerate(words):
        if word != "design":
            continue
        if i == len(words) - 1 and i > 0 or i < len(words) - 1 and words[i + 1] in _DESIGN_NEXT:
            return True
    return False


def is_record_path(path: str, globs: Sequence[str] = ()) -> bool:
    """True when `path` is a decision record by its path alone: configured globs when given, else the
    default layouts (folders, numbered names, design-page names). Content can make more documents records
    (`record_reason`)."""
    if not is_document_path(path):
        return False
    if globs:
        return matches_globs(path, globs)
    return path_reason(path) is not None


def matches_globs(path: str, globs: Sequence[str]) -> bool:
    """A configured entry is a glob (`design/*.md`) or a folder (`design`, `docs/notes/`): every document under it."""
    for glob in globs:
        folder = glob.rstrip("/")
        if not any(c in folder for c in "*?[") and posixpath.splitext(folder)[1] == "":
            if path.startswith(folder + "/"):
                return True
        elif fnmatch.fnmatchcase(path, glob):
            return True
    return False


def header_fields(doc: Document, head: bytes = b"") -> dict[str, str]:
    """The fields a document opens with, lowercased names: YAML front matter (read from `head`, the file's
    first bytes, which the Markdown grammar skips), a PEP-style `Key: value` header, a field list, or the
    `- Key: value` items of a Rust RFC."""
    fields = front_matter(head)
    blocks = doc.blocks
    first_heading = next((i for i, b in enumerate(blocks) if b.kind == "heading"), len(blocks))
    # The header: what comes before the first heading, and right under the title heading.
    span = [b for b in blocks[:first_heading + 12] if b.kind in ("field", "paragraph", "list_item", "table_row")
            and b.section <= first_heading]
    for block in span[:12]:
        if block.kind == "field" and block.name:
            fields.setdefault(block.name.strip().lower(), block.text.strip())
            continue
        lines = block.text.splitlines() if block.kind == "paragraph" else [block.text]
        for line in lines:
            m = _FRONT_MATTER_KEY.match(line.strip())
            if m and len(m.group(1)) <= 24:
                fields.setdefault(m.group(1).strip().lower(), m.group(2).strip())
    return fields


def front_matter(data: bytes) -> dict[str, str]:
    # MADR 3+ and KEPs keep fields in YAML front matter, which the Markdown grammar skips: its keys are plain lines.
    if not data.startswith(b"---\n"):
        return {}
    end = data.find(b"\n---", 4)
    if end < 0:
        return {}
    fields: dict[str, str] = {}
    for line in data[4:end].decode("utf-8", "replace").splitlines():
        m = _FRONT_MATTER_KEY.match(line)
        if m and not line.startswith((" ", "-")):
            fields[m.group(1).strip().lower()] = m.group(2).strip().strip("\"'")
    return fields


def _title_of(doc: Document, fields: Mapping[str, str]) -> str:
    return doc.title or fields.get("title", "")


def record_reason(path: str, doc: Document | None, head: bytes = b"", globs: Sequence[str] = (),
                  extra: Sequence[str] = (), exclude: Sequence[str] = ()) -> str | None:
    """Why a document is a decision record (REASONS), or None.

    `globs` ([decisions] paths) replace the default rules; `extra` ([decisions] extra_paths) adds to them;
    `exclude` ([decisions] exclude) removes from either. `head`: the file's first bytes (front matter).
    """
    if not is_document_path(path) or exclude and matches_globs(path, exclude):
        return None
    if globs:
        return "configured" if matches_globs(path, globs) else None
    if extra and matches_globs(path, extra):
        return "configured"
    reason = path_reason(path)
    if reason is not None or doc is None:
        return reason
    if _is_side_file(posixpath.basename(path).rsplit(".", 1)[0]):
        return None
    fields = header_fields(doc, head)
    if _RECORD_TITLE.search(_title_of(doc, fields)):
        return "title"
    names = set(fields)
    if names & _PROPOSAL_FIELDS or ("status" in names and names & _AUTHOR_FIELDS):
        return "fields"
    roles = {_shape_role(_heading_words(b.text, b.name)) for b in doc.blocks if b.kind == "heading"}
    roles.discard("")
    if len(roles) >= 2 and roles & _SHAPE_NEEDS:
        return "sections"
    return None


def _shape_role(words: str) -> str:
    # "Proposed Suggested Fix API", "Proposal: …": a proposal's own section is its decision.
    if words.startswith(("proposed ", "proposal")):
        return "decision"
    return _SHAPE_HEADINGS.get(words, "")


def design_sections(doc: Document) -> frozenset[str]:
    """The labels of a document's design sections, and of their subsections: a section headed by a design
    heading a page of any kind may hold ("Motivation", "Rationale", "Alternatives", "Rejected ideas",
    "Why …?", "Why not …"), not one an ordinary page has for something else ("Options", "Limitations")."""
    blocks = doc.blocks
    design: set[int] = set()
    for i, b in enumerate(blocks):
        if b.kind != "heading":
            continue
        words = _heading_words(b.text, b.name)
        if b.section in design or _shape_role(words) in _DESIGN_DOC_ROLES or words.startswith("why "):
            design.add(i)
    return frozenset(_section_label(blocks[i].text) for i in design)


def is_design_document(doc: Document) -> bool:
    """A document with a design section (`design_sections`): what `why` reads beside the records, and whole
    when a snapshot has no record at all."""
    return bool(design_sections(doc))


# ---------------------------------------------------------------------------------------------- parsing


def heading_role(text: str, number: str = "") -> str:
    """The role (SECTION_ROLES) a heading gives its section by its words alone."""
    words = _heading_words(text, number)
    for role, names in (("pros_cons", _PROS_CONS_HEADINGS), ("consequence", _CONSEQUENCE_HEADINGS),
                        ("alternative", _ALTERNATIVE_HEADINGS), ("rationale", _RATIONALE_HEADINGS),
                        ("motivation", _MOTIVATION_HEADINGS), ("decision", _DECISION_HEADINGS),
                        ("summary", _SUMMARY_HEADINGS), ("discussion", _DISCUSSION_HEADINGS)):
        if words in names:
            return role
    if words == "status":
        return "status"
    if words.startswith(("decision driver", "decision making", "decision-making")):
        return ""  # what a decision weighs, or how decisions are made: context, not a decision
    if words.startswith(("why not", "why no ", "why don't", "why doesn't", "why isn't", "why aren't")):
        return "alternative"
    if words.startswith("why"):
        return "rationale"
    if "consequence" in words or words.startswith(("drawback", "downside")):
        return "consequence"
    if words.startswith(("alternative", "rejected", "considered option", "rejection")):
        return "alternative"
    if words.startswith("pros and cons"):
        return "pros_cons"
    if words.startswith(("decision", "design decision")):
        return "decision"
    if words.startswith(("rationale", "motivation")):
        return "rationale" if words.startswith("rationale") else "motivation"
    return ""


def _heading_words(text: str, number: str = "") -> str:
    """A heading's words, lowercased, without its number, an HTML comment or end punctuation."""
    words = text
    if number and words.startswith(number):
        words = words[len(number):]
    words = re.sub(r"<!--.*?-->", "", words)
    words = words.strip(" .:-—–\t¶?").lower()
    return re.sub(r"\s+", " ", words)


def _section_label(block_text: str) -> str:
    # The heading as written, its number included ("2.2.3 Implicit default indexes"): how a reader names it.
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


def bounded(text: str, limit: int = MAX_TEXT) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1].rstrip() + "…"


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


def _field_of(block: Block) -> tuple[str, str] | None:
    """(name, value) when a block states a field: an rst/Markdown field, `Status: x` item or table row."""
    kind, text, name = block.kind, block.text, block.name
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


# Fields that describe a record rather than say what it decides (`Chosen option: …` is a decision).
_METADATA_NAMES = _FIELD_NAMES | _AUTHOR_FIELDS | _PROPOSAL_FIELDS | frozenset({
    "type", "title", "version", "revision", "technical story", "python-version", "post-history", "content-type",
    "requires", "resolution", "tags", "category", "consulted", "informed", "copyright", "pep-delegate",
    "bdfl-delegate", "topic", "issue", "issues", "pr", "tracking issue", "rust issue", "status date"})


def _is_metadata(block: Block) -> bool:
    field = _field_of(block) or _header_status(block)
    if field is None and block.kind == "field":
        field = (block.name.strip().lower(), block.text)
    return field is not None and field[0] in _METADATA_NAMES


def _header_status(block: Block) -> tuple[str, str] | None:
    # A PEP-style header block is one paragraph of `Key: value` lines: its Status line.
    if block.kind != "paragraph" or "\n" not in block.text:
        return None
    for line in block.text.splitlines():
        head, sep, rest = line.partition(":")
        if sep and head.strip().lower() in ("status", "state"):
            return "status", rest.strip()
    return None


def resolve_reference(record_path: str, text: str, link: str, known: Sequence[str]) -> str:
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


class _Outline:
    """A document's headings: each one's role and label, and each block's role and section label."""

    def __init__(self, blocks: Sequence[Block]) -> None:
        self.blocks = blocks
        self.role_of: dict[int, str] = {}
        self.label_of: dict[int, str] = {}
        for i, b in enumerate(blocks):
            if b.kind == "heading":
                self.role_of[i] = heading_role(b.text, b.name)
                self.label_of[i] = _section_label(b.text)

    def role(self, i: int) -> str:
        s = self.blocks[i].section if self.blocks[i].kind != "heading" else i
        while s >= 0:
            if self.role_of.get(s):
                return self.role_of[s]
            s = self.blocks[s].section
        return ""

    def label(self, i: int) -> str:
        s = self.blocks[i].section
        return self.label_of.get(s, "") if s >= 0 else ""


def _status_of(path: str, blocks: Sequence[Block], outline: _Outline, front: Mapping[str, str],
               known: Sequence[str]) -> tuple[str, str, list[str], str]:
    """(status, superseded_by, supersedes, the status as written) from front matter, fields, a header block
    or a Status heading."""
    status_text = front.get("status", "")
    superseded_text = front.get("superseded-by", "") or front.get("superseded by", "")
    superseded_link = ""
    supersedes: list[str] = []
    for b in blocks:
        field = _field_of(b) or (_header_status(b) if b.section < 0 else None)
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
        for h, role in outline.role_of.items():
            if role == "status":
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
        superseded_by = resolve_reference(path, words, superseded_link, known)
    return status, superseded_by, supersedes, status_text


def _chosen(blocks: Sequence[Block], outline: _Outline) -> tuple[str, str, str]:
    """(chosen text, chosen label, reason): MADR's `Chosen option: "…", because …` or a labelled option `(D).`."""
    for i, b in enumerate(blocks):
        if b.kind in ("paragraph", "list_item", "field") and outline.role(i) == "decision":
            text = " ".join(b.text.split()) if b.kind != "field" else f"{b.name}: {b.text}"
            m = _CHOSEN.search(text)
            if m:
                rest = text[m.end():].strip()
                reason = rest[len("because"):].strip() if rest.lower().startswith("because") else rest
                return m.group(1).strip().strip("\"'“”"), "", reason
            lm = _LABEL.match(text)
            return "", (lm.group(1).lower() if lm else ""), ""
    return "", "", ""


def _pros_and_cons(blocks: Sequence[Block], outline: _Outline) -> dict[str, tuple[list[str], list[str]]]:
    """Per option (MADR): the reasons given for and against it."""
    pros_cons: dict[str, tuple[list[str], list[str]]] = {}
    for i, b in enumerate(blocks):
        if b.kind == "list_item" and outline.role(i) == "pros_cons" and b.section >= 0:
            option = _norm(re.sub(r"^option\s+\w+\s*[:.)-]\s*", "", blocks[b.section].text, flags=re.I))
            good, bad = pros_cons.setdefault(option, ([], []))
            flat = " ".join(b.text.split())
            low = flat.lower()
            if low.startswith(("good", "pro")):
                good.append(_after_because(flat))
            elif low.startswith(("bad", "con")):
                bad.append(_after_because(flat))
    return pros_cons


def _continued(blocks: Sequence[Block]) -> tuple[dict[int, str], set[int]]:
    # A hard-wrapped item whose next line is not indented reads as an item and a paragraph right
    # under it (rst's `#) one\ntwo`): they are one item.
    continued: dict[int, str] = {}
    skip: set[int] = set()
    for i in range(len(blocks) - 1, 0, -1):
        b, prev = blocks[i], blocks[i - 1]
        if b.kind == "paragraph" and prev.kind == "list_item" and b.line == prev.end_line + 1:
            continued[i - 1] = prev.text + " " + continued.pop(i, b.text)
            skip.add(i)
    return continued, skip


def _sections(blocks: Sequence[Block], outline: _Outline, continued: Mapping[int, str], skip: set[int],
              ) -> tuple[Section, ...]:
    """One Section per label, in document order: its heading, role, text and first prose blocks."""
    order: list[str] = []
    line_of: dict[str, int] = {}
    role_of: dict[str, str] = {}
    heading_of: dict[str, str] = {}
    words: dict[str, list[str]] = {}
    texts: dict[str, list[tuple[int, str]]] = {}

    def open_section(label: str, line: int, role: str, heading: str) -> None:
        if label not in line_of:
            order.append(label)
            line_of[label], role_of[label], heading_of[label] = line, role, heading
            words[label], texts[label] = [], []

    # A heading right under its parent's, with no text between ("## Core Architecture" / "### Main Components"), holds
    # the parent's words too: the parent gives no row of its own (it has no text), and its words were in none.
    headings: dict[int, str] = {}
    for i, b in enumerate(blocks):
        if b.kind == "heading":
            parent = b.section
            under = headings.get(parent) if parent == i - 1 else None
            headings[i] = f"{under} {b.text}" if under else b.text
            open_section(outline.label_of[i], b.line, outline.role(i), headings[i])
            continue
        if i in skip:
            continue
        label = outline.label(i)
        open_section(label, b.line, outline.role(i), "")
        text = continued.get(i, b.text) if b.kind != "field" else f"{b.name}: {b.text}"
        if b.kind == "code":
            text = text[:500]
        if sum(map(len, words[label])) < MAX_SECTION_WORDS:
            words[label].append(text)
        if b.kind in ("paragraph", "list_item", "quote", "field") and len(texts[label]) < MAX_SECTION_TEXTS \
                and not _is_metadata(b):
            texts[label].append((b.line, bounded(text)))
    return tuple(
        Section(label, line_of[label], role_of[label], heading_of[label], tuple(words[label]), tuple(texts[label]))
        for label in order if texts[label] or heading_of[label]  # a header of fields alone is no section
    )


def parse_record(path: str, data: bytes, doc: Document, known: Sequence[str] = ()) -> Record:
    """Items and sections of one decision record: `doc` is what `data` parses to (a build hands every document
    parsed once; this module parses nothing)."""
    blocks = doc.blocks
    front = front_matter(data)
    outline = _Outline(blocks)
    title = doc.title or front.get("title", "") or _header_title(blocks) or posixpath.basename(path).rsplit(".", 1)[0]
    status, superseded_by, supersedes, status_text = _status_of(path, blocks, outline, front, known)
    rows: list[DecisionRow] = []

    def add(i: int, kind: str, text: str, verdict: str = "") -> None:
        flat = " ".join(text.split())
        shown = bounded(flat)
        rows.append(DecisionRow(path, outline.label(i), blocks[i].line, status, kind, verdict, shown, title,
                                flat if shown != flat else ""))

    # The title row: the title and the first sentence of the summary.
    summary_at = next((i for i, b in enumerate(blocks) if b.kind == "paragraph"
                       and outline.role(i) in ("summary", "motivation")), None)
    if summary_at is None:
        summary_at = next((i for i, b in enumerate(blocks) if b.kind == "paragraph" and _field_of(b) is None
                           and _header_status(b) is None and not _DECIDED.match(b.text)), None)
    title_line = next((b.line for b in blocks if b.kind == "heading"), 1)
    if summary_at is not None:
        sentence = first_sentence(blocks[summary_at].text)
        rows.append(DecisionRow(path, outline.label(summary_at), title_line, status, "title", "",
                                bounded(f"{title}: {sentence}"), title))
    else:
        rows.append(DecisionRow(path, "", title_line, status, "title", "", bounded(title), title))

    chosen_text, chosen_label, chosen_reason = _chosen(blocks, outline)
    pros_cons = _pros_and_cons(blocks, outline)
    continued, skip = _continued(blocks)
    for i, b in enumerate(blocks):
        if b.kind == "heading" or b.kind == "code" or i in skip:
            continue
        text = continued.get(i, b.text) if b.kind != "field" else f"{b.name}: {b.text}"
        if _DECIDED.match(" ".join(text.split())):
            add(i, "decided", text)
            continue
        r = outline.role(i)
        if r in ("decision", "rationale") and b.kind in ("paragraph", "list_item", "quote", "field"):
            if not _is_metadata(b):
                add(i, r, text)
        elif r == "consequence" and b.kind in ("paragraph", "list_item", "quote"):
            add(i, "consequence", text)
        elif r == "alternative" and b.kind in ("paragraph", "list_item") and (b.level <= 1):
            flat = " ".join(text.split())
            if flat.endswith(":") and b.kind == "paragraph":
                continue  # "We considered the following:" introduces the items
            named = _named_alternative(b.section, outline)
            if named and i > 0 and blocks[i - 1].kind != "heading":
                continue  # an alternative under its own heading is told by its first paragraph
            lead, reason = (named, flat) if named else _split_lead(flat)
            verdict = _verdict(flat, lead, _heading_chain(b.section, outline), chosen_text, chosen_label)
            # "X: rejected, because Y" already says its verdict, which the row states once.
            reason = re.sub(r"^(?:rejected|chosen|accepted)\b[,:;.]?\s*", "", reason, flags=re.IGNORECASE)
            good, bad = pros_cons.get(_norm(lead), ([], []))
            if verdict == "chosen" and not reason:
                reason = chosen_reason or (good[0] if good else "")
            elif verdict != "chosen" and not reason and bad:
                reason = bad[0]
            shown = re.sub(r"^\(?[A-Za-z0-9]{1,2}\)\s*", "", lead) if _LABEL.match(lead) else lead
            add(i, "alternative", f"{shown}: {verdict}" + (f", {reason}" if reason else ""), verdict)
    headings = [i for i, b in enumerate(blocks) if b.kind == "heading"]
    fmt = _format_of([outline.role_of[h] for h in headings], [blocks[h].text.lower() for h in headings],
                     status_text, path)
    sections = _sections(blocks, outline, continued, skip)
    return Record(path, title, status, superseded_by, fmt, tuple(rows), tuple(supersedes), sections)


def parse_page(path: str, doc: Document) -> Record:
    """The sections of a document that is no record (its title, headings, text and first prose blocks), without
    the status, items and successor a record's parse looks for: an ordinary page `why` also reads."""
    blocks = doc.blocks
    continued, skip = _continued(blocks)
    title = doc.title or posixpath.basename(path).rsplit(".", 1)[0]
    sections = _sections(blocks, _Outline(blocks), continued, skip)
    return Record(path, title, UNKNOWN_STATUS, "", "other", (), (), sections)


def _header_title(blocks: Sequence[Block]) -> str:
    # A PEP-style header block names the title: `Title: Style Guide for Python Code`.
    for b in blocks[:3]:
        if b.kind == "paragraph" and b.section < 0:
            for line in b.text.splitlines():
                head, sep, rest = line.partition(":")
                if sep and head.strip().lower() == "title":
                    return rest.strip()
    return ""


def _named_alternative(heading: int, outline: _Outline) -> str:
    """The heading's text when it names one alternative under an alternatives heading ("Rejected ideas" >
    "Preloading in a background thread"), else ""."""
    if heading < 0 or outline.role_of.get(heading):
        return ""
    parent = outline.blocks[heading].section
    return outline.blocks[heading].text if parent >= 0 and outline.role(parent) == "alternative" else ""


def _heading_chain(heading: int, outline: _Outline) -> str:
    # The headings above an item, nearest first, up to the one that gives its role: what a verdict reads.
    texts = []
    while heading >= 0:
        texts.append(outline.blocks[heading].text)
        if outline.role_of.get(heading):
            break
        heading = outline.blocks[heading].section
    return " ".join(texts)


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
    if NUMBERED.match(base) and not base.lower().startswith("adr") or "abstract" in text or "motivation" in text:
        return "proposal"
    if "decision" in roles and ("consequence" in roles or "status" in roles or status_text):
        return "nygard"
    return "other"


def collect_records(files: Iterable[tuple[str, bytes]], parsed: Mapping[str, Document],
                    reasons: Mapping[str, str] | None = None) -> list[Record]:
    """Every decision record among (path, content) pairs, sorted by path; `parsed`: their documents (a path
    without one is no record).

    `reasons`: why each path is a record (REASONS, or "design document"): a page found by its name, title
    or sections that no record shape describes is a design page (format "design"). A record that a
    later one says it supersedes ("Supersedes: ADR-0003") is marked superseded by that one even when its
    own status was never updated.
    """
    items = sorted(files)
    known = [p for p, _ in items]
    records: dict[str, Record] = {}
    for path, data in items:
        doc = parsed.get(path)
        if doc is None:
            continue
        record = parse_record(path, data, doc, known)
        if record.rows or record.sections:
            records[path] = record._replace(format=design_format((reasons or {}).get(path), record.format))
    for record in list(records.values()):
        for words in record.supersedes:
            target = resolve_reference(record.path, words, "", known)
            old = records.get(target)
            if old is not None and old.path != record.path and not old.superseded_by:
                records[target] = old._replace(
                    status="superseded", superseded_by=record.path,
                    rows=tuple(r._replace(status="superseded") for r in old.rows),
                )
    return [records[p] for p in sorted(records)]


def rows_of(records: Iterable[Record]) -> list[DecisionRow]:
    return [row for record in records for row in record.rows]


def design_format(reason: str | None, record_format: str) -> str:
    """A record's format given why it is one: a page found by its name or title that no record shape
    describes is a design page."""
    if reason in ("name", "title", "sections", "configured", "design document") and record_format == "other":
        return "design"
    return record_format


# Documents that say who did what and under which terms, and folders of release notes (in a long-lived project most
# of its prose: django's 400): no page `why` reads. A changelog file is one (CHANGES.md, History.md, NEWS): its entry
# is often the only place that says why something changed ("why did the project start warning when verify is a
# string?"; decision 0047). So are a security policy, a support page and maintainers' rules: what users ask ("how do
# I report a vulnerability?", Slim's "why don't the maintainers merge their own pull requests?"), and by their name
# django's "Security in Django" guide (docs/topics/security.txt) was no page either.
_NOT_A_PAGE_STEMS = frozenset({"authors", "contributors", "license", "licence", "copying", "notice",
                               "code-of-conduct", "thanks", "credits", "funding"})
_NOT_A_PAGE_FOLDERS = frozenset({"releases", "release-notes", "changelog", "changelogs", "changes", "news",
                                 "whatsnew", "changelog.d", "newsfragments", "licenses"})


def pages_of(documents, taken, config) -> list[str]:
    """The documents `why` reads as pages: every document but the records and design documents `taken`, a template,
    a licence and the like, release notes in a folder of their own, and what the configuration's `decisions_exclude`
    leaves out."""
    exclude = tuple(getattr(config, "decisions_exclude", ()) or ())

    def listing(path: str) -> bool:
        *folders, name = path.lower().replace("_", "-").split("/")
        return name.rsplit(".", 1)[0] in _NOT_A_PAGE_STEMS or any(f in _NOT_A_PAGE_FOLDERS for f in folders)

    return [p for p in sorted(documents) if p not in taken and is_document_path(p) and not is_template(p)
            and not listing(p) and not (exclude and matches_globs(p, exclude))]
