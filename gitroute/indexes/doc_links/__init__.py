"""The doc↔code index: which documents name which files and symbols, kept both ways, and its two answers.

Build: every Markdown and reStructuredText document of the snapshot (`[docs] folders` narrows them) is
parsed by `parsing.documents`; each inline token (Markdown inline code, rst literals, roles, the objects
autodoc/domain directives document, link targets) links when it names a graph node exactly: its path or
base name, a dotted module path (`django.db.models.Q`), an `Owner.name`, or a last segment of at least
four characters. A name defined in several files links to one only when the same paragraph names a path
segment of exactly one candidate; otherwise the link stays ambiguous with every candidate listed.

Blobs: `docs.json` (every document with its title, kind and link count), and two tables stored through the
floor (`bundle.tables`, declared in `storage`): `BY_DOC`, `by_doc/NNNN.bin` (a document's links, sharded by its
path's hash: `git route code DOC` reads one), and `BY_TARGET`, `by_target/NNNN.bin` (links under each key a
question may use: a path, a base name, a name, `Owner.name`, each naming its document by its place in docs.json;
`git route docs NAME` reads a few). Each keeps only what its answers read (`storage`). Linking is `linking`'s.
"""
from __future__ import annotations

import math
import posixpath
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence

from gitroute.bundle.validate import check_listed
from gitroute.indexes.doc_links.linking import (
    AMBIGUOUS,
    DISAMBIGUATED,
    EXACT,
    MAX_CANDIDATES,
    MIN_NAME,
    DocLink,
    Linker,
    Target,
    in_doc_scope,
    qualname,
    scan_documents,
)
from gitroute.indexes.doc_links.memoised import link_all
from gitroute.indexes.doc_links.storage import BY_DOC, BY_TARGET
from gitroute.indexes.doc_links.storage import by_target as by_target_table
from gitroute.model import Answer, Row

# What callers name the index by (api, build, tests); linking lives in `linking`.
__all__ = ["AMBIGUOUS", "BY_DOC", "BY_TARGET", "DISAMBIGUATED", "EXACT", "DocLink", "Linker", "Target", "answer",
           "build", "claims", "doc_kind", "in_doc_scope", "link_all", "map_rows", "read_links", "render_doc_code_map",
           "scan_documents"]

NAME = "doc_links"
NEEDS: tuple[str, ...] = ()
QUESTION_TYPES = {"code": {"direction": "code"}, "docs": {"direction": "docs"}}  # bench type -> answer options

DOCS_LIST = "docs.json"
MAX_ANSWER_RECORDS = 5000  # records one answer ranks; a key like `save` has thousands in a big project

WHOLE_DOCUMENT = "what the whole document names"  # a note's end: the section asked names no code
READ_AS_NAME = "read the question as the name"  # a note's start: a word of a sentence taken for a name
STATUS_WEIGHT = {EXACT: 1.0, DISAMBIGUATED: 0.9}
AMBIGUOUS_WEIGHT = 0.5  # shared among an ambiguous link's candidates: a guess must not outweigh a claim
STATUS_ORDER = {EXACT: 0, DISAMBIGUATED: 1, AMBIGUOUS: 2}

_RECORD_DOC = re.compile(
    r"(^|/)(adrs?|decisions?|decision-records?|mips?|peps?|neps?|nxeps?|rfcs?|keps?|deps?|proposals?|design|"
    r"designs|architecture|enhancements?)(/|$)|(^|/)(adr|mip|pep|nep|nxep|rfc|kep|dep)[-_ ]?\d+[^/]*$",
    re.IGNORECASE,
)
_CHANGELOG_DOC = re.compile(
    r"(^|/)(releases?|changelogs?|news|changes)(/|$)|(^|/)(changes|changelog|history|news|release[-_ ]?notes|"
    r"whatsnew|whats[-_]new|deprecations?)[^/]*$",
    re.IGNORECASE,
)
# Words a person adds when naming a document that name no document: "the logging docs page".
_GENERIC_DOC_WORDS = frozenset(("doc", "docs", "document", "documentation", "page", "guide", "chapter",
                                "article", "section", "about", "explain", "explains", "describe", "describes"))


def doc_kind(path: str) -> str:
    """"record" (a design or decision record), "changelog" (release notes) or "guide"."""
    if _RECORD_DOC.search(path):
        return "record"
    if _CHANGELOG_DOC.search(path):
        return "changelog"
    return "guide"


# ---------------------------------------------------------------------------------------------- build


TARGETS = "\0targets"  # the memo entry: node id -> the record of every node a link names, as the last build's
DOCUMENTS = "\0documents"  # the memo entry: the paths of the documents, in docs.json's order, as the last build's


def build(inputs):
    """Scan the snapshot's documents, link their tokens, and store the links both ways (`BY_DOC`, `BY_TARGET`).

    The output, for later indexes, is `claims(links)`: the links that name their nodes, as plain tuples (a
    list of DocLink with their Targets would cost a later index a third of a second to receive, on django).
    With a build memo, the tables patch the shards of the documents linked again, and make again those of the
    keys of the nodes whose record moved (`_moved`); the others are kept by id."""
    from gitroute.bundle.layout import dump_json
    from gitroute.indexes import IndexBuild

    documents = scan_documents(inputs.documents, inputs.config)
    memo = inputs.memo.table(NAME) if inputs.memo is not None else None
    doc_blobs = {f.path: f.blob for f in inputs.files}
    relinked: set[str] = set()
    links = link_all(documents, inputs.graph, memo, doc_blobs, relinked)
    per_doc: dict[str, list[DocLink]] = defaultdict(list)
    for link in links:
        per_doc[link.document].append(link)
    moved, moved_keys = _moved(memo, per_doc)
    kinds = {d.path: doc_kind(d.path) for d in documents}
    records = {d.path: doc_blobs.get(d.path, "") for d in documents}  # what a document's links come from
    rows = _Rows({d.path: d.title[:200] for d in documents}, per_doc, kinds)
    # A document linked again may have any links; one naming a moved node changes its entry, and the records
    # under that node's keys: those shards are made again from the documents whose records are there.
    by_doc = BY_DOC.build(records, rows.by_doc, memo=memo, stored=inputs.previous, changed=relinked, remake=moved,
                          also=moved)
    # A record names its document by its place in docs.json: when the documents are not the last build's, the
    # places move, and the table is built whole.
    paths = [d.path for d in documents]
    earlier = memo.get(DOCUMENTS) if memo is not None else None
    same_documents = earlier == paths
    if memo is not None:
        memo.put(DOCUMENTS, earlier if same_documents else paths)  # the same object: not written again
    by_target = by_target_table(paths).build(records, rows.by_target, memo=memo,
                                             stored=inputs.previous if same_documents else None, changed=relinked,
                                             remake=moved_keys, also=moved)
    from gitroute.text import stems

    # Each entry: path, title, kind, link count, and the word stems of its path and title (what a
    # question in words is matched against, computed once here rather than at every answer).
    docs_list = [[d.path, d.title[:200], kinds[d.path], len(per_doc.get(d.path, ())),
                  sorted(set(stems(f"{d.path} {d.title[:200]}")))] for d in documents]
    statuses = Counter(x.status for x in links)
    section = {
        "counts": {
            "documents": len(documents),
            "documents_linked": len(per_doc),
            "links": len(links),
            EXACT: statuses.get(EXACT, 0),
            DISAMBIGUATED: statuses.get(DISAMBIGUATED, 0),
            AMBIGUOUS: statuses.get(AMBIGUOUS, 0),
        },
        "shards": {"by_doc": by_doc.shards, "by_target": by_target.shards},
        "rules": "tokens name a path, base name, dotted module path, Owner.name, or a last segment of "
                 f"{MIN_NAME}+ characters; ambiguous links keep every candidate (at most {MAX_CANDIDATES})",
    }
    blobs = {**by_doc.blobs, **by_target.blobs, DOCS_LIST: dump_json(docs_list)}
    return IndexBuild(blobs, section, (), claims(links), {**by_doc.kept, **by_target.kept})


def _moved(memo, per_doc: Mapping[str, list[DocLink]]) -> tuple[set[str], set[str]]:
    """The documents with a link to a node whose record (path, name, kind, line, owner, centrality) is not the one
    the last build's links named by that id, and the `BY_TARGET` keys of every such node (its record then and
    now) and of every node no link names any more: the rows that may be spelled anew though no document was
    linked again."""
    if memo is None:
        return set(), set()
    old = memo.get(TARGETS)
    old = old if isinstance(old, dict) else {}
    now: dict[int, tuple] = {}
    same: dict[int, bool] = {}
    moved: set[str] = set()
    for path, links in per_doc.items():
        for x in links:
            for t in x.targets:
                ok = same.get(t.node)
                if ok is None:
                    record = now[t.node] = tuple(t[1:])
                    ok = same[t.node] = old.get(t.node) == record
                if not ok:
                    moved.add(path)
    memo.put(TARGETS, old if old == now else now)  # the same object: an unchanged entry is not written again
    keys: set[str] = set()
    for node in {i for i, ok in same.items() if not ok} | (old.keys() - now.keys()):
        for spelled in (old.get(node), now.get(node)):
            if isinstance(spelled, tuple) and len(spelled) == 6:
                target = Target(node, *spelled)
                keys.update(key for ambiguous in (False, True) for key in _target_keys(target, ambiguous))
    return moved, keys


class _Rows:
    """What each document puts in the two tables (`RecordTable.build`'s `fill`): its entry under its path, and
    a record of each link under each key it is stored under."""

    def __init__(self, titles: Mapping[str, str], per_doc: Mapping[str, list[DocLink]], kinds: Mapping[str, str],
                 ) -> None:
        self.titles, self.per_doc, self.kinds = titles, per_doc, kinds
        self.keys: dict[tuple[int, bool], tuple[list[str], str | None]] = {}  # as `_keys_of` caches them
        # `_link_keys` of a link by its targets and whether it is ambiguous: a popular target's links name the
        # same targets again and again (a third of django's 31,000 links repeat another's).
        self.link_keys: dict[tuple[tuple, bool], list[tuple[str, list[Target]]]] = {}
        self.wanted: object = None
        self.touched: dict[tuple[int, bool], bool] = {}  # whether a target has a key `wanted` takes

    def by_doc(self, path: str, into: dict) -> None:
        links = self.per_doc.get(path)
        if not links:
            return
        sections: dict[tuple[str, str, int], int] = {}
        rows = []
        for x in links:
            section_id = sections.setdefault((x.section[:200], x.number, x.section_line), len(sections))
            rows.append([x.line, section_id, x.token, x.status, x.total, _flags(x), list(x.targets)])
        into[path] = [[path, self.titles[path], self.kinds[path], rows, [list(key) for key in sections]]]

    def by_target(self, path: str, into: dict) -> None:
        kind = self.kinds[path]
        wanted = getattr(into, "wanted", None)  # a part for a few shards only (`bundle.tables.Part`)
        for x in self.per_doc.get(path, ()):
            if wanted is not None and not self._touches(x, wanted):
                continue
            flags = _flags(x)
            held = (x.targets, x.status == AMBIGUOUS)
            keys = self.link_keys.get(held)
            if keys is None:
                keys = self.link_keys[held] = list(_link_keys(x, self.keys).items())
            for key, targets in keys:
                if wanted is None or wanted(key):
                    into.setdefault(key, []).append([path, kind, x.line, x.section[:200], x.number, x.token,
                                                     x.status, x.total, flags, list(targets)])

    def _touches(self, x: DocLink, wanted: Callable[[str], bool]) -> bool:
        """Whether one of the link's targets has a key `wanted` takes (each target's answer kept)."""
        if self.wanted is not wanted:
            self.wanted, self.touched = wanted, {}
        ambiguous = x.status == AMBIGUOUS
        for t in x.targets:
            hit = self.touched.get((t.node, ambiguous))
            if hit is None:
                keys, _only = _keys_of(t, ambiguous, self.keys)
                hit = self.touched[t.node, ambiguous] = any(map(wanted, keys))
            if hit:
                return True
        return False


def claims(links: Iterable[DocLink]) -> list[tuple[str, int, str, bool, bool, tuple[int, ...]]]:
    """(document, line, token, in a heading, a directive's argument, node ids) of each link that is no guess
    (exact or disambiguated), in link order: what a later index may take a document's words about a node from."""
    return [(link.document, link.line, link.token, link.heading, link.directive, tuple(t.node for t in link.targets))
            for link in links if link.status != AMBIGUOUS and link.targets]


def _target_keys(t: Target, ambiguous: bool) -> list[str]:
    """The keys a link to `t` is stored under; an ambiguous link names no one file, so no path key."""
    if t.kind == "file":
        return [] if ambiguous else [t.path.lower(), t.name.lower()]
    keys = [t.name.lower()] if ambiguous else [t.name.lower(), t.path.lower()]
    if t.owner:
        keys.append(owner_key(t.owner, t.name))
    return keys


def owner_key(owner: str, name: str) -> str:
    """The key of a member under its owner's last part: `Model.save` -> `model.save`."""
    return f"{owner.rsplit('.', 1)[-1]}.{name}".lower()


def _keys_of(t: Target, ambiguous: bool, cache: dict[tuple[int, bool], tuple[list[str], str | None]],
             ) -> tuple[list[str], str | None]:
    """A target's keys (`_target_keys`), and its owner key when that is only its owner key (not its name's, not
    its path's, no path in it): cached by (node id, ambiguous), thousands of links name the same few targets."""
    held = cache.get((t.node, ambiguous))
    if held is None:
        spelled = _target_keys(t, ambiguous)
        only = spelled[-1] if t.kind != "file" and t.owner else None  # the owner key comes last
        if only is not None and ("/" in only or only in spelled[:-1]):
            only = None
        held = cache[t.node, ambiguous] = (list(dict.fromkeys(spelled)), only)
    return held


def _link_keys(x: DocLink, cache: dict[tuple[int, bool], tuple[list[str], str | None]]) -> dict[str, list[Target]]:
    """Each key a link is stored under in `by_target`, with the targets it names there.

    A key that only owner keys give (`model.save`: every target there is a member named under its owner) is left
    out: its records are the name key's (`save`) with the targets of that owner, which `_records_for` reads
    instead (docs/decisions/0025, its second amendment: the owner copies were two fifths of django's table)."""
    matching: dict[str, list[Target]] = {}
    owner_only: dict[str, bool] = {}
    ambiguous = x.status == AMBIGUOUS
    for t in x.targets:
        keys, only = _keys_of(t, ambiguous, cache)
        for key in keys:
            owner_only[key] = owner_only.get(key, True) and key == only
            found = matching.get(key)
            if found is None:
                matching[key] = [t]
            else:
                found.append(t)
    return {key: targets for key, targets in matching.items() if not owner_only[key]}


def _owner_copies(key: str, stored: Mapping[str, list[list]]) -> list[list]:
    """The records of `key` that `_link_keys` left out: the links under its name key whose targets include a
    member of that owner (`model.save`: `save`'s links to a `save` of a `Model`), each with those targets only, in
    the name key's order; none when `key` is not `owner.name`, or when the link is stored under `key` itself."""
    if "." not in key or "/" in key:
        return []
    name_key = key.split(".", 1)[1]
    kept = Counter(tuple(record[:9]) for record in stored.get(key, ()))
    copies = []
    for record in stored.get(name_key, ()):
        targets = [t for t in record[9] if t[5] and t[3] != "file" and owner_key(t[5], t[2]) == key]
        if targets and not kept[tuple(record[:9])]:
            copies.append([*record[:9], targets])
    return copies


def _merged(stored: list[list], copies: list[list]) -> list[list]:
    """Two lists of one key's records, each in the table's order (by document, then line), as one."""
    if not copies:
        return stored
    out: list[list] = []
    at = 0
    for record in stored:
        while at < len(copies) and (copies[at][0], copies[at][2]) < (record[0], record[2]):
            out.append(copies[at])
            at += 1
        out.append(record)
    return out + copies[at:]


def _flags(link: DocLink) -> int:
    return int(link.heading) | int(link.directive) << 1


def _valid_docs_list(value: object) -> bool:
    return isinstance(value, list) and all(
        isinstance(e, list) and len(e) == 5 and isinstance(e[0], str) and isinstance(e[1], str)
        and isinstance(e[2], str) and isinstance(e[3], int) and isinstance(e[4], list)
        for e in value
    )


def entry_links(record: Sequence) -> list[list]:
    """A `BY_DOC` record's links as [line, section, number, token, status, total, flags, targets, section_line]."""
    _path, _title, _kind, rows, sections = record
    out = []
    for line, section, token, status, total, flags, targets in rows:
        text, number, section_line = sections[section]
        out.append([line, text, number, token, status, total, flags, targets, section_line])
    return out


def decode_doc_links(record: Sequence) -> list[DocLink]:
    """One document's links back from its `BY_DOC` record."""
    return [
        DocLink(record[0], section, number, line, token, status, tuple(Target(*t) for t in targets), total,
                bool(flags & 1), section_line, bool(flags & 2))
        for line, section, number, token, status, total, flags, targets, section_line in entry_links(record)
    ]


def read_links(view) -> list[DocLink]:
    """Every link in a bundle, documents by path (what DOC-CODE.md is made from): reads each `by_doc` shard."""
    shards = int(view.section.get("shards", {}).get("by_doc", 1))
    links: list[DocLink] = []
    for path, held in BY_DOC.read_every(view.read, shards, view.corrupt).items():
        try:
            for record in held:
                links.extend(decode_doc_links(record))
        except (ValueError, TypeError, KeyError, IndexError) as err:
            raise view.corrupt(BY_DOC.key_path(path, shards)) from err
    links.sort(key=lambda x: (x.document, x.line))
    return links


# --------------------------------------------------------------------------------------------- the map


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


def render_doc_code_map(links: Iterable[DocLink]) -> str:
    """DOC-CODE.md: the file-level map, document → section → the files it names.

    One Markdown table row per (document, section, file): documents by path, sections in document order,
    files by path, with how many links name the file there. Ambiguous links are left out (they name no
    one file). Deterministic byte for byte: the same links give the same text, in any input order.
    """
    counts: Counter = Counter()
    for link in links:
        if link.status == AMBIGUOUS:
            continue
        label = link.section or "(before the first heading)"
        for path in sorted({t.path for t in link.targets}):
            counts[(link.document, link.section_line, label, path)] += 1
    lines = [
        "# Doc ↔ code map",
        "",
        "Generated by `git route doc-code --write` from the pinned commit; do not edit by hand.",
        "Each row is a section of a document and a file it names, with how many links name that file there;",
        "ambiguous links (a name defined in several files) are not listed.",
        "",
        "| document | section | file | links |",
        "|---|---|---|---|",
    ]
    for (document, _line, label, path), count in sorted(counts.items()):
        lines.append(f"| {_cell(document)} | {_cell(label)} | {_cell(path)} | {count} |")
    return "\n".join(lines) + "\n"


def map_rows(text: str) -> int:
    """How many (document, section, file) rows a DOC-CODE.md text holds (for the shrink guard)."""
    count = 0
    for line in text.splitlines():
        if line.startswith("| ") and not line.startswith("| document | section | file |"):
            count += 1
    return count


# -------------------------------------------------------------------------------------------- answers


def normalize_question(text: str) -> str:
    text = text.strip().strip("`").strip()
    while text[:1] in ("~", "!", "@"):
        text = text[1:]
    if text.startswith(".") and not text.startswith(("./", "../")):
        text = text.lstrip(".")
    if text.endswith("()"):
        text = text[:-2]
    return text.replace("::", ".").replace("#", ".").strip()


def question_keys(question: str) -> list[str]:
    """The `by_target` keys a question may be stored under, most specific first."""
    q = question.lower()
    keys = [q]
    if "/" not in q and "." in q:
        parts = [p for p in q.split(".") if p]
        if len(parts) >= 2:
            keys.append(".".join(parts[-2:]))
        keys.append(parts[-1] if parts else q)
    return list(dict.fromkeys(k for k in keys if k))


def _target_matches(question: str, t: list) -> bool:
    """Whether a stored target is what the question names (the key only narrowed by hash and case)."""
    _node, path, name, kind, _line, owner, _c = t
    q = question
    if "/" in q:
        return path == q or path.endswith("/" + q)
    if kind == "file" and (path == q or name == q):
        return True
    if name == q or qualname(owner.rsplit(".", 1)[-1] if owner else "", name) == q:
        return True
    parts = [p for p in q.split(".") if p]
    if not parts or parts[-1] != name:
        if kind == "file" and q.lower() in (path.lower(), name.lower()):
            return True
        return False
    scope = set(posixpath.splitext(path)[0].split("/")) | set(owner.split("."))
    return all(p in scope for p in parts[:-1])


def _case_insensitive_match(question: str, t: list) -> bool:
    """The question's words in any case: `flask.Flask.route` finds `route` of `src/flask/...:Scaffold`."""
    _node, path, name, kind, _line, owner, _c = t
    q = question.lower()
    if q in (name.lower(), path.lower(), qualname(owner, name).lower()):
        return True
    parts = [p for p in q.split(".") if p]
    if "/" in q or len(parts) < 2 or parts[-1] != name.lower():
        return False
    scope = {p.lower() for p in posixpath.splitext(path)[0].split("/")} | {p.lower() for p in owner.split(".")}
    return all(p in scope for p in parts[:-1])


def _last_segment_match(question: str, t: list) -> bool:
    """Only the last segment: `Flask.route` finds `route` wherever it is defined (an inherited method)."""
    parts = [p for p in question.split(".") if p]
    return "/" not in question and len(parts) >= 2 and t[2] == parts[-1]


def _matching(question: str, records: list[list]) -> tuple[list[tuple[list, list]], str | None]:
    """Records whose targets the question names: as written, then in any case, then by last segment."""
    for tier, test in enumerate((_target_matches, _case_insensitive_match, _last_segment_match)):
        matched = []
        for record in records:
            targets = [t for t in record[9] if test(question, t)]
            if targets:
                matched.append((record, targets))
        if matched:
            note = None
            if tier == 2:
                last = question.rsplit(".", 1)[-1]
                note = f"no document names '{question}' as written; these name '{last}'"
            return matched, note
    return [], None


def rank_documents(question: str, records: Iterable[list], limit: int, explain: bool) -> list[Row]:
    """`docs`: one row per document that names the thing, best explainer first."""
    matched, _note = _matching(question, list(records))
    per_doc: dict[str, list[tuple[list, list]]] = defaultdict(list)
    for record, targets in matched[:MAX_ANSWER_RECORDS]:
        per_doc[record[0]].append((record, targets))
    if "/" in question or any(t[3] == "file" for _, targets in matched[:1] for t in targets):
        name = posixpath.splitext(posixpath.basename(question))[0].lower()  # a file: its stem
    else:
        name = question.rsplit(".", 1)[-1].lower()
    rows: list[Row] = []
    for document, hits in per_doc.items():
        kind = hits[0][0][1]
        weight = 0.0
        heading_hit = None
        reference_hit = None  # a directive that documents the thing: its reference entry
        for record, _targets in hits:
            status, total = record[6], record[7]
            weight += STATUS_WEIGHT.get(status, AMBIGUOUS_WEIGHT / max(total, 1))
            if heading_hit is None and (record[8] & 1 or (name and name in record[3].lower())):
                heading_hit = record
            if reference_hit is None and record[8] & 2:
                reference_hit = record
        signals = [("links", round(2.0 * math.log1p(weight), 3))]
        if heading_hit is not None:
            signals.append(("heading", 1.5))
        if reference_hit is not None:
            signals.append(("reference", 1.5))
        if kind == "record":
            signals.append(("design_record", 1.0))
        elif kind == "changelog":
            signals.append(("changelog", -1.5))
        best = reference_hit or heading_hit or min(hits, key=lambda h: (STATUS_ORDER[h[0][6]], h[0][2]))[0]
        statuses = sorted({r[6] for r, _ in hits}, key=STATUS_ORDER.__getitem__)
        score = round(sum(v for _, v in signals), 3)
        first_target = hits[0][1][0]
        extra = (
            ("section", best[3]), ("section_number", best[4]), ("token", best[5]), ("links", len(hits)),
            ("status", statuses[0]), ("document_kind", kind),
            ("target", first_target[1] if first_target[3] == "file" else
             f"{first_target[1]}:{qualname(first_target[5], first_target[2])}"),
        )
        rows.append(Row(document, best[2], best[5], "document", score, tuple(signals) if explain else (), extra))
    rows.sort(key=lambda r: (-r.score, r.path, r.line or 0))
    return rows[:limit]


def match_document(question: str, docs_list: Sequence[list]) -> tuple[list | None, list[str]]:
    """The document a `code` question names, and other documents it matches as well."""
    q = question.strip().strip("/")
    low = q.lower()
    tiers: list[list[list]] = [[], [], [], [], []]
    for entry in docs_list:
        path = entry[0]
        lower = path.lower()
        base = posixpath.basename(lower)
        stem = posixpath.splitext(base)[0]
        if path == q:
            tiers[0].append(entry)
        elif lower.endswith("/" + low) or lower == low:
            tiers[1].append(entry)
        elif low in (base, stem) or posixpath.splitext(lower)[0].endswith("/" + low):
            tiers[2].append(entry)
        elif low in lower:
            tiers[3].append(entry)
        elif low and low in str(entry[1]).lower():
            tiers[4].append(entry)
    for tier in tiers:
        if tier:
            # Most links first, then the shortest path: `ref/models/querysets` over a release note.
            tier.sort(key=lambda e: (-int(e[3] > 0), len(e[0]), e[0]))
            return tier[0], [e[0] for e in tier[1:4]]
    return _match_by_words(q, docs_list)


def _match_by_words(question: str, docs_list: Sequence[list]) -> tuple[list | None, list[str]]:
    """A document named in a person's words ("the file uploads pattern"): most of the question's word
    stems stand in its path or title."""
    from gitroute.text import content_tokens, stem

    asked = {stem(t) for t in content_tokens(question)} - {stem(w) for w in _GENERIC_DOC_WORDS}
    if not asked:
        return None, []
    scored = []
    for entry in docs_list:
        covered = len(asked.intersection(entry[4])) / len(asked)
        if covered >= 0.66:
            scored.append((-covered, -int(entry[3] > 0), len(entry[0]), entry[0], entry))
    if not scored:
        return None, []
    scored.sort()
    best = [s for s in scored if s[0] == scored[0][0]]
    return best[0][4], [s[3] for s in best[1:4]]


def rank_code(links: Sequence[list], limit: int, explain: bool) -> list[Row]:
    """`code`: the files a document names, one row per file, with the symbols it names in that file."""
    per_file: dict[str, dict] = {}
    for line, section, number, _token, status, total, _heading, targets, _section_line in links:
        weight = STATUS_WEIGHT.get(status, AMBIGUOUS_WEIGHT / max(total, 1))
        for t in targets:
            _node, path, name, kind, node_line, owner, centrality = t
            entry = per_file.setdefault(path, {"weight": 0.0, "links": 0, "symbols": Counter(), "status": status,
                                               "section": section, "number": number, "doc_line": line,
                                               "centrality": 0, "lines": {}, "kinds": {}, "candidates": 0,
                                               "best": {}})
            entry["weight"] += weight
            entry["links"] += 1
            entry["centrality"] = max(entry["centrality"], int(centrality))
            if STATUS_ORDER[status] < STATUS_ORDER[entry["status"]]:
                entry["status"] = status
            if status == AMBIGUOUS:
                entry["candidates"] = max(entry["candidates"], int(total))
            if kind != "file":
                qual = qualname(owner, name)
                entry["symbols"][qual] += 1
                entry["lines"].setdefault(qual, node_line)
                entry["kinds"].setdefault(qual, kind)
                best = entry["best"].get(qual, AMBIGUOUS)
                entry["best"][qual] = status if STATUS_ORDER[status] < STATUS_ORDER[best] else best
    rows: list[Row] = []
    from gitroute.rank import is_secondary

    for path, entry in per_file.items():
        signals = [("links", round(2.0 * math.log1p(entry["weight"]), 3)),
                   ("centrality", round(0.3 * math.log1p(entry["centrality"]), 3))]
        if is_secondary(path):
            signals.append(("secondary", -1.5))
        score = round(sum(v for _, v in signals), 3)
        symbols = [s for s, _ in sorted(entry["symbols"].items(), key=lambda kv: (-kv[1], kv[0]))]
        top = symbols[0] if symbols else None
        extra: tuple = (("section", entry["section"]), ("section_number", entry["number"]),
                        ("doc_line", entry["doc_line"]), ("links", entry["links"]), ("status", entry["status"]),
                        ("symbols", symbols[:20]),
                        # Symbols only ever named ambiguously: candidates, not claims.
                        ("ambiguous", [s for s in symbols[:20] if entry["best"].get(s) == AMBIGUOUS]))
        if entry["status"] == AMBIGUOUS:
            extra += (("candidates", entry["candidates"]),)
        rows.append(Row(path, entry["lines"].get(top) if top else None, top,
                        entry["kinds"].get(top, "file") if top else "file", score,
                        tuple(signals) if explain else (), extra))
    rows.sort(key=lambda r: (-r.score, r.path))
    return rows[:limit]


def name_candidates(question: str) -> list[str]:
    """The names a `docs` question may mean, most likely first: the question itself when it is one word;
    in a sentence ("where is the session interface documented"), its code-like words, then adjacent
    words joined as code would spell them (`session_interface`, `SessionInterface`), then its longer words."""
    q = normalize_question(question)
    if not any(c.isspace() for c in q):
        return [q] if q else []
    from gitroute.text import STOP_WORDS

    words = [normalize_question(w.strip("`'\".,?!:;()")) for w in q.split()]
    codeish = [w for w in words if w and (any(c in w for c in "._/") or any(c.isupper() for c in w[1:]))]
    content = [w for w in words if w and w.lower() not in STOP_WORDS and w.lower() not in _GENERIC_DOC_WORDS
               and w not in codeish]
    joined = []
    for a, b in zip(content, content[1:]):
        joined += [f"{a.lower()}_{b.lower()}", a[:1].upper() + a[1:] + b[:1].upper() + b[1:]]
    singles = sorted((w for w in content if len(w) >= MIN_NAME), key=len, reverse=True)
    return list(dict.fromkeys(codeish + joined + singles))[:12]


def _records_for(view, q: str, shards: int, cache: dict[str, dict]) -> list[list]:
    """The `BY_TARGET` records under the keys of `q`, each link once: [document, kind, line, section, number,
    token, status, total, flags, targets]."""
    keys = question_keys(q)
    name_keys = [key.split(".", 1)[1] for key in keys if "." in key and "/" not in key]  # `_owner_copies`
    found = BY_TARGET.read(view.read, list(dict.fromkeys(keys + name_keys)), shards, view.corrupt, cache)
    if any(found.values()):
        found = _with_paths(view, found, shards)
    records: list[list] = []
    seen: set[tuple[str, int, str]] = set()
    for key in keys:
        for record in _merged(found.get(key, []), _owner_copies(key, found)):
            identity = (record[0], record[2], record[5])
            if identity not in seen:
                seen.add(identity)
                records.append(record)
    return records


def _with_paths(view, found: Mapping[str, list[list]], shards: int) -> dict[str, list[list]]:
    """`BY_TARGET`'s records as stored name their document by its place in docs.json: each with its path, and its
    kind (a function of the path, not stored)."""
    paths = _document_paths(view)
    kinds: dict[int, str] = {}
    out: dict[str, list[list]] = {}
    for key, records in found.items():
        if any(record[0] >= len(paths) for record in records):
            raise view.corrupt(BY_TARGET.key_path(key, shards))
        for record in records:
            kind = kinds.get(record[0])
            if kind is None:
                kind = kinds[record[0]] = doc_kind(paths[record[0]])
            record[0], record[1] = paths[record[0]], kind
        out[key] = records
    return out


def answer_docs(view, question: str, limit: int, explain: bool) -> Answer:
    candidates = name_candidates(question)
    if not candidates:
        return Answer("no_match", view.source, (), ("an empty name names nothing",))
    shards = int(view.section.get("shards", {}).get("by_target", 1))
    cache: dict[str, dict] = {}
    for q in candidates:
        records = _records_for(view, q, shards, cache)
        rows = rank_documents(q, records, limit, explain)
        if not rows:
            continue
        check_listed(rows, _documents(view), f"'{NAME}/{DOCS_LIST}'")
        _matched, note = _matching(q, records)
        notes = [note] if note else []
        if q != normalize_question(question):
            notes.insert(0, f"{READ_AS_NAME} '{q}'")
        return Answer("routed", view.source, tuple(rows), tuple(notes))
    shown = normalize_question(question)
    return Answer("no_match", view.source, (),
                  (f"no document names '{shown}' (inline code, literals, roles, directives or links)",))


def _documents(view) -> frozenset[str]:
    """The paths of the documents the index holds (its docs.json), read once per pinned bundle."""
    memo = view.memo
    if "documents" not in memo:
        memo["documents"] = frozenset(_document_paths(view))
    return memo["documents"]


def _document_paths(view) -> list[str]:
    """The paths of the documents in docs.json's order (where `BY_TARGET`'s records name them), read once per
    pinned bundle."""
    memo = view.memo
    if "documents_in_order" not in memo:
        docs_list = view.read_json(DOCS_LIST)
        if not _valid_docs_list(docs_list):
            raise view.corrupt(DOCS_LIST)
        memo["documents_in_order"] = [entry[0] for entry in docs_list]
    return memo["documents_in_order"]


def answer(view, question: str, *, limit: int = 10, explain: bool = False, direction: str = "docs",
           **options: object) -> Answer:
    """direction "docs": the documents that explain a file or symbol; "code": what a document names."""
    if direction == "code":
        from gitroute.indexes.doc_links.to_code import answer_code

        return answer_code(view, question, limit, explain)
    return answer_docs(view, question, limit, explain)
