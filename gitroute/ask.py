"""`git route ask`: the table of answering commands, and what kind of question a text is.

The table (`COMMANDS`) is the one place that says which command answers from which index, with
which options and which arguments: `ask` routes to its rows, and `git route mcp` makes one tool per
row whose index the registry holds. Adding an index's command to both is one row here.

The classifier reads evidence, never a list of known questions: the shape of the question's words
(a question word, an identifier, a path), phrases that ask for a kind of answer ("what breaks if",
"which doc explains", "why did we"), and facts the caller looks up in the bundle (whether a token is
a path of the pinned commit, whether a word is a symbol's name). A question can be of several
kinds at once; each kind says why it was chosen, for `--explain`.
"""
from __future__ import annotations

import glob
import re
from collections import namedtuple
from collections.abc import Callable, Mapping, Sequence

from gitroute.model import Answer, Row

# --- the table of answering commands -----------------------------------------------------------------


class Command(namedtuple("Command", "name index options what argument text_required schema")):
    """One answering command: its name (the CLI command and MCP tool), the index it asks, the
    options it passes that index's `answer`, what it returns (for tool descriptions), the name and
    description of its text argument, whether that text is required, and its own further arguments
    as JSON-schema properties, each `{name: (schema, answer option)}`."""

    __slots__ = ()


_LIMIT = {"type": "integer", "minimum": 1, "maximum": 200, "default": 10,
          "description": "rows at most (10 by default)"}
_EXPLAIN = {"type": "boolean", "default": False, "description": "each row's score signals"}

COMMANDS: tuple[Command, ...] = (
    Command("query", "symbols", {}, "the files, types and functions a name or a plain-words question is about",
            ("text", "an identifier (OpenMeteoClient, url_for) or a question in plain words"), True,
            {"kind": ({"type": "array", "items": {"type": "string"}, "description": "only nodes of these kinds"},
                      "kinds"),
             "lang": ({"type": "array", "items": {"type": "string"}, "description": "only nodes in these languages"},
                      "langs"),
             "path": ({"type": "string", "description": "only paths matching this glob"}, "path_glob"),
             "meaning": ({"type": "boolean", "default": False,
                          "description": "a question in plain words, answered by the candidate the bundle records"},
                         "meaning"),
             "candidate": ({"type": "string", "enum": ["bm25", "embedding", "hybrid"],
                            "description": "with meaning: ask this candidate instead"}, "candidate")}),
    Command("docs", "doc_links", {"direction": "docs"}, "the documents (and sections) that explain a file or symbol",
            ("name", "a symbol (Flask, Flask.route, flask.Flask) or a file path"), True, {}),
    Command("code", "doc_links", {"direction": "code"}, "the files and symbols a document names, by file",
            ("doc", "a document's path, base name or stem, or words of its title"), True, {}),
    Command("impact", "impact", {}, "what a change to a symbol or file would break, grouped by file",
            ("target", "a symbol or a file path"), True,
            {"depth": ({"type": "integer", "minimum": 1, "maximum": 5, "default": 2,
                        "description": "how many edges back to walk"}, "depth"),
             "ambiguous": ({"type": "boolean", "default": False,
                            "description": "also walk edges whose target was one of several candidates"},
                           "ambiguous")}),
    Command("why", "decisions", {}, "the decisions, alternatives and consequences in design records that answer",
            ("text", "a question about a decision, in plain words"), True, {}),
    Command("wiring", "wiring", {}, "contract copies, submodule pins, workflow calls and published artifacts",
            ("text", "what to narrow the wiring to (a path or a name); empty for all"), False,
            {"limit": ({**_LIMIT, "default": 200, "description": "rows at most (200 by default, as the command)"},
                       "limit")}),
)

# Question kind -> the command that answers it. A name and a plain-words question both go to
# `query`, which mixes the symbol tiers and BM25 by the question's shape.
KIND_COMMAND = {
    "symbol": "query", "meaning": "query", "code": "code", "docs": "docs",
    "impact": "impact", "decision": "why", "wiring": "wiring",
}

# Options a kind adds to its command's, when the indexes they need are there: a question in plain words
# is asked of the meaning index (BM25 over node text), as `git route query --meaning` does.
KIND_OPTIONS: dict[str, dict] = {}
KIND_NEEDS: dict[str, tuple[str, ...]] = {}


def available_commands(indexes: Sequence[str]) -> list[Command]:
    """The commands whose index the registry holds, in table order."""
    return [c for c in COMMANDS if c.index in indexes]


def command_named(name: str) -> Command | None:
    return next((c for c in COMMANDS if c.name == name), None)


def input_schema(command: Command) -> dict:
    """The JSON schema of a command's arguments (an MCP tool's `inputSchema`)."""
    argument, description = command.argument
    properties: dict = {argument: {"type": "string", "description": description}, "limit": _LIMIT,
                        "explain": _EXPLAIN}
    properties.update({name: schema for name, (schema, _) in command.schema.items()})  # may set its own limit
    schema = {"type": "object", "properties": properties, "additionalProperties": False}
    if command.text_required:
        schema["required"] = [argument]
    return schema


# --- what kind of question ---------------------------------------------------------------------------

DOC_EXTENSIONS = (".md", ".markdown", ".rst", ".txt", ".adoc", ".asciidoc", ".org", ".rdoc")
# A token shaped like a file name: a dot then 1-10 letters or digits, at the end.
_FILE_SHAPE = re.compile(r"[\w.-]+\.[A-Za-z][A-Za-z0-9]{0,9}$")
# Code shapes a plain word does not have: snake_case, a dotted or `::` path, camel humps after the first
# letter, a call's parentheses, a leading sigil.
_IDENTIFIER = re.compile(
    r"^[$@]?[A-Za-z_][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*(?:\(\))?$")
_CODE_SHAPE = re.compile(r"_|\.|::|#|\(\)|^[$@]|[a-z][A-Z]|^[A-Z]{2,}[a-z]|^[A-Z][a-z]+[A-Z]")
_QUOTED = re.compile(r"`([^`]+)`|'([^'\s][^']*)'|\"([^\"]+)\"")
_TRIM = ".,;:!?()[]{}<>\"'`"

# Phrases that ask for one kind of answer. Each is general English about code, not any bench's wording.
_DECISION = re.compile(
    r"^\s*why\b|\bwhy (?:did|do|does|was|were|is|are|not|would|should|have|has|switch|keep|use|only)\b"
    r"|\b(?:decision|decisions|rationale|adr|design records?|motivation|trade-?offs?)\b"
    r"|\b(?:instead of|rather than|in favou?r of)\b",
    re.I)
# Verbs of deciding count only in a question that does not ask where something is: "where are formats
# chosen" asks for code, "was X chosen over Y" for a decision.
_DECIDING = re.compile(r"\b(?:decided|decide|chose|chosen|choose|choice|rejected|reject|alternatives?)\b", re.I)
_LOCATION = re.compile(r"^\s*(?:where|which (?:file|files|function|functions|class|classes|method|methods|module"
                       r"|modules|code|line)|how (?:does|do|is|are))\b", re.I)
# Questions about intent and policy ("is X meant as", "will X still", "should we") read like decisions,
# never like a question of where something is.
_INTENT = re.compile(
    r"^\s*(?:is|are|will|should|shall|must|was|were)\b.*\b(?:meant|intended|supposed|still|ever|policy|allowed"
    r"|support(?:ed)?|deprecated|recommended)\b", re.I)
_IMPACT = re.compile(
    r"\bwhat (?:would |will |could |might )?(?:breaks?|fails?|changes?|is affected|gets affected)\b"
    r"|\b(?:break|breaks|affect|affects|affected|impact|impacts)\b.*\bif\b"
    r"|\bif (?:i|we|you|someone) (?:change|changed|rename|renamed|remove|removed|delete|deleted|modify"
    r"|modified|edit|edited|touch|touched|refactor)\b"
    r"|\b(?:impact|blast radius|ripple) of\b|\bwho (?:calls|uses|imports|depends on)\b"
    r"|\b(?:callers|dependents|users) of\b|\bwhat (?:calls|uses|imports|depends on)\b"
    r"|\bsafe to (?:change|rename|remove|delete)\b",
    re.I)
_WIRING = re.compile(
    r"\bwiring\b|\bwired\b|\bsubmodules?\b|\bpins?\b|\bpinned\b|\bcontracts?\b|\bcop(?:y|ies) of\b|\bcopied\b"
    r"|\b(?:identical|byte-?identical|vendored|duplicated?) (?:cop(?:y|ies)|files?)\b|\bworkflows?\b|\bci\b"
    r"|\bpipelines?\b|\bgithub actions?\b|\b(?:workflow|repository)[_ ]dispatch(?:es)?\b|\bdispatch events?\b"
    r"|\bpublish(?:es|ed|ing)?\b|\buploads? .* to\b"
    r"|\bwhich repos?(?:itor(?:y|ies))?\b|\b(?:package|packages|dependencies) (?:does|do|did) .* declare\b"
    r"|\bdeclares?\b.*\b(?:package|packages|dependenc(?:y|ies))\b"
    r"|\b(?:packages?|modules?)\b.*\bdepend(?:s|ed|ing)?\b|\bdepend(?:s|ed|ing)? on\b.*\b(?:packages?|modules?)\b",
    re.I)
# "which doc explains X", "where is X documented", "docs for X": the documents about a name.
_DOCS = re.compile(
    r"\b(?:which|what) (?:docs?|documents?|documentation|pages?|guides?|manuals?|readme|tutorials?|sections?)\b"
    r"(?: \w+)?\s+(?:explains?|explaining|describes?|describing|covers?|covering|mentions?|documents?|documenting"
    r"|talks? about|is about|are about)\b"
    r"|\bdocumented\b|\bexplained in\b|\bdescribed in\b|\bdocs? (?:for|on|about|of)\b"
    r"|\bdocumentation (?:for|on|of|about)\b|\b(?:read|find) (?:about|more about)\b",
    re.I)
# "which code does DOC talk about", "what does the X guide describe": the code a document names.
_CODE = re.compile(
    r"\b(?:which|what) (?:code|files?|symbols?|functions?|classes|modules?)\b.*\b(?:does|do|is|are)\b.*"
    r"\b(?:talk|talks|describe|describes|mention|mentions|cover|covers|refer|refers|name|names|document"
    r"|documents)\b|\bwhat does (?:the )?.+ (?:doc|document|guide|page|reference|readme|adr|rfc) (?:describe"
    r"|cover|talk about|mention|name)\b",
    re.I)
# Nouns that make a short phrase a document's title ("the templating docs", "the model field reference").
_DOC_NOUNS = frozenset("doc docs documentation guide guides reference tutorial tutorials howto how-to manual "
                       "chapter page readme faq overview introduction topic topics notes handbook".split())
# Words that start a question in plain words (as opposed to a name or a title).
_QUESTION_WORDS = frozenset("where what which who whom whose how when why is are does do can could should "
                            "will would was were find show list".split())


class Evidence:
    """Facts about the question's tokens, looked up by the caller in the bundle and its source commit.

    path_kind(token) -> "blob" | "tree" | None: whether the token is a path of the pinned commit.
    is_symbol(name) -> bool: whether a symbol of the repository has exactly that name.
    document_named(text) -> str | None: the document whose path, base name or stem the text is.
    symbol_named(words) -> str | None: the symbol the words spell, case and separators aside
    ('session interface' -> 'SessionInterface').
    """

    def __init__(self, path_kind: Callable[[str], str | None] = lambda _: None,
                 is_symbol: Callable[[str], bool] = lambda _: False,
                 document_named: Callable[[str], str | None] = lambda _: None,
                 symbol_named: Callable[[str], str | None] = lambda _: None) -> None:
        self.path_kind = path_kind
        self.is_symbol = is_symbol
        self.document_named = document_named
        self.symbol_named = symbol_named


# Words around the thing a change question is about: "if I change *the session interface*".
_NOT_THE_THING = frozenset(
    "the a an this that these those my our your its their to of in on at it if i we you someone would will could "
    "might change changed changes rename renamed remove removed delete deleted modify modified edit edited touch "
    "touched refactor break breaks".split())
MAX_SPELLED_WORDS = 4  # a name spelled in words: "the url map adapter" at most


def _spelled_subject(tail: str, evidence: Evidence) -> tuple[str, str] | None:
    """(words, name) of the symbol a change question spells in words after its verb, longest words first."""
    words = [w.strip(_TRIM) for w in tail.split()]
    words = [w for w in words if w and w.lower() not in _NOT_THE_THING and w.lower() not in _QUESTION_WORDS]
    for size in range(min(len(words), MAX_SPELLED_WORDS), 0, -1):
        spelled = " ".join(words[:size])  # the thing follows the verb: its words come first
        name = evidence.symbol_named(spelled)
        if name:
            return spelled, name
    return None


class Route(namedtuple("Route", "kind command text reason share options", defaults=(1, None))):
    """One index to ask: the question's kind, the command that answers it, the text it is asked (the whole
    question, or the name or path the question is about), why this kind was chosen, how many rows it
    gives per turn when answers are merged (2 when the evidence for it is strong), and the command's
    options it adds (a path filter for a name asked in one file), or None."""

    __slots__ = ()


class Classification(namedtuple("Classification", "routes subject facts")):
    """routes: tuple[Route, ...], first the kind the question most reads as; subject: the name or path the
    question is about, or None; facts: tuple[str, ...], the evidence looked up, for --explain."""

    __slots__ = ()


def _subjects(text: str, evidence: Evidence) -> tuple[list[str], list[tuple[str, str]], list[tuple[str, str]],
                                                       list[str]]:
    """(identifiers, (path, "blob"|"tree"), (path, name), facts): the names, repository paths and names in
    one file (`binding/binding.go:Default`, the form `impact` takes) the question holds."""
    quoted = [next(g for g in m.groups() if g) for m in _QUOTED.finditer(text)]
    words = [w.strip(_TRIM) for w in text.split()]
    identifiers: list[str] = []
    paths: list[tuple[str, str]] = []
    located: list[tuple[str, str]] = []
    facts: list[str] = []
    for word in dict.fromkeys(quoted + words):
        if not word:
            continue
        path, colon, name = word.rpartition(":")
        if colon and _IDENTIFIER.match(name) and ("/" in path or _FILE_SHAPE.match(path)) \
                and evidence.path_kind(path.strip("/")) == "blob":
            located.append((path.strip("/"), name))
            facts.append(f"'{word}' is '{name}' in the file '{path.strip('/')}' of the pinned commit")
            continue
        pathish = "/" in word or bool(_FILE_SHAPE.match(word))
        if pathish:
            kind = evidence.path_kind(word.strip("/") or word)
            if kind:
                paths.append((word.strip("/"), kind))
                facts.append(f"'{word}' is a {'file' if kind == 'blob' else 'folder'} of the pinned commit")
                continue
            if "/" in word:
                facts.append(f"'{word}' looks like a path but the pinned commit has no such path")
        if _IDENTIFIER.match(word) and (_CODE_SHAPE.search(word) or word in quoted):
            identifiers.append(word.removesuffix("()"))
    return identifiers, paths, located, facts


def classify(text: str, evidence: Evidence, available: Sequence[str] = tuple(KIND_COMMAND.values())) -> Classification:
    """The kinds of question `text` is, strongest first, each routed to a command in `available`."""
    text = " ".join(text.split())
    if not text:
        return Classification((), None, ("the question is empty",))
    identifiers, paths, located, facts = _subjects(text, evidence)
    words = text.split()
    lowered = [w.lower().strip(_TRIM) for w in words]
    subject = (f"{located[0][0]}:{located[0][1]}" if located else paths[0][0] if paths
               else identifiers[0] if identifiers else None)
    routes: list[Route] = []
    unanswered: list[str] = []

    def add(kind: str, reason: str, asked: str | None = None, share: int = 1, facet: bool = False,
            options: dict | None = None) -> None:
        command = KIND_COMMAND[kind]
        if command not in available:
            if kind not in unanswered and not facet:  # a facet of a bare name is not what was asked for
                unanswered.append(kind)
                facts.append(f"'{kind}' questions are answered by '{command}', which this gitroute does not have yet")
        elif all(r.kind != kind for r in routes):
            routes.append(Route(kind, command, asked or text, reason, share, options))

    def done() -> Classification:
        if not routes and unanswered and "query" in available:
            # The kind's own index is missing: the names and words of the question still place something.
            kind = "symbol" if subject else "meaning"
            routes.append(Route(kind, "query", subject or text,
                                f"no index answers '{unanswered[0]}' questions: the symbol index places "
                                f"{'the name' if subject else 'the words'}"))
        return Classification(tuple(routes), subject, tuple(facts))

    # Phrases that ask for one kind of answer, in the order the question says them.
    found: list[tuple[int, str, str, int]] = []  # (start, kind, why, end) of each phrase
    deciding = None if _LOCATION.search(text) else _DECIDING
    for kind, pattern, what in (("decision", _DECISION, "asks why something was decided"),
                                ("decision", deciding, "asks what was decided"),
                                ("decision", _INTENT, "asks about intent or policy, not a place"),
                                ("impact", _IMPACT, "asks what a change would break"),
                                ("wiring", _WIRING, "asks how repositories and copies are wired"),
                                ("code", _CODE, "asks which code a document talks about"),
                                ("docs", _DOCS, "asks which document explains something")):
        match = pattern.search(text) if pattern is not None else None
        if match:
            found.append((match.start(), kind, f"{what} ('{match.group(0).strip()}')", match.end()))
    found.sort()
    for _, kind, reason, end in found:
        if kind == "impact":
            spelled = None if subject else _spelled_subject(text[end:], evidence)
            if spelled:
                facts.append(f"'{spelled[0]}' spells the name '{spelled[1]}'")
                subject = spelled[1]
            add(kind, reason, subject)
        elif kind == "docs":
            if any(r.kind == "code" for r in routes) or any(
                    k == "blob" and p.lower().endswith(DOC_EXTENSIONS) for p, k in paths):
                continue  # "which code does DOC describe": the document is what is asked about
            add(kind, reason, subject)
        elif kind == "code":
            doc = next((p for p, k in paths if k == "blob" and p.lower().endswith(DOC_EXTENSIONS)), None)
            add(kind, reason, doc)
        else:
            add(kind, reason)
    if routes or unanswered:
        # A phrase chose the kind; a name it holds is still worth its own rows after the chosen ones.
        if subject and routes and routes[0].kind in ("decision", "wiring") and identifiers:
            add("symbol", f"names '{identifiers[0]}', a name the symbol index can place")
        return done()

    if located and len(words) <= 3:
        path, name = located[0]
        add("symbol", f"'{subject}' is '{name}' in '{path}': where it is defined there", name,
            options={"path_glob": glob.escape(path)})
        add("impact", f"'{subject}' is '{name}' in '{path}': what uses it", subject)
        add("docs", f"'{name}' is a name: which documents explain it", name)
        return done()
    docs_paths = [p for p, k in paths if k == "blob" and p.lower().endswith(DOC_EXTENSIONS)]
    if paths and len(words) <= 3:
        if docs_paths:
            add("code", f"'{docs_paths[0]}' is a document of the pinned commit: which code does it talk about",
                docs_paths[0])
        else:
            path = paths[0][0]
            add("docs", f"'{path}' is a path of the pinned commit: which documents explain it", path)
            # Only that path's rows: other files sharing its words are guesses about a path the user gave.
            add("symbol", f"'{path}' is a path of the pinned commit: its file and what it defines", path,
                options={"path_glob": glob.escape(path) + ("/*" if paths[0][1] == "tree" else "")})
            add("impact", f"'{path}' is a path of the pinned commit: what uses it", path, facet=True)
        return done()

    asks = bool(lowered) and (lowered[0] in _QUESTION_WORDS or text.endswith("?"))
    named = [w for w in words if w.strip(_TRIM) in identifiers]
    if not asks and len(words) <= 6:
        document = evidence.document_named(text)
        is_name = len(words) == 1 and (bool(named) or evidence.is_symbol(words[0]))
        if document:
            facts.append(f"'{text}' names the document '{document}'")
            if not is_name:  # a symbol's name too: where it is defined and its docs come first, below
                add("code", f"'{text}' names a document: which code it talks about", document, share=2)
        titled = [w for w in lowered if w in _DOC_NOUNS]
        if titled and not document:
            add("code", f"a short phrase with '{titled[0]}' in it: a document's title, which code it talks about",
                share=2)
        if len(words) <= 3 and (len(named) == len(words) or is_name):
            what = named[0] if named else words[0]
            if not named:
                facts.append(f"'{what}' is the name of a symbol of the repository")
            add("symbol", f"'{text}' is a name: where it is defined")
            add("docs", f"'{what}' is a name: which documents explain it", text)
            add("impact", f"'{what}' is a name: what uses it", text, facet=True)
            if document:
                add("code", f"'{text}' also names a document: which code it talks about", document)
            subject = subject or what
            return done()
        # A few words with no question word read as a title: a thing's name in words, or a document's.
        if named:
            add("symbol", f"names {', '.join(named)}: where they are defined")
        add("meaning", "a few words with no question word: a thing named in words")
        add("code", "a few words with no question word: perhaps a document's title")
        return done()
    if named and len(named) * 2 >= len(words):
        add("symbol", f"mostly names ({', '.join(named)}): where they are defined")
    add("meaning", "a question in plain words" if asks else "words that are not one name")
    return done()


# --- one answer from several -------------------------------------------------------------------------


CERTAIN_SIGNALS = frozenset({"exact_name"})  # a row signal that says the row is the very thing named


def merge_answers(answers: Sequence[tuple[Route, Answer]], limit: int, source, keep_signals: bool = True) -> Answer:
    """One answer from the routes' answers: rows taken in turn from each routed answer (the strongest kind
    first), each row tagged with its `type`; no_match only when every route is no_match."""
    routed = [(route, a) for route, a in answers if a.status == "routed" and a.rows]
    notes: list[str] = []
    for route, a in answers:
        notes.extend(f"{route.command}: {note}" for note in a.notes)
    if not routed:
        return Answer("no_match", source, (), tuple(notes) or ("no index has an answer",))
    rows: list[Row] = []
    seen: set[tuple] = set()
    queues = [(route, list(a.rows)) for route, a in routed]
    # A route whose first row is certain (the exact name asked) gives that row, then lets the others give
    # two before its next: its further rows are guesses, the others' second rows may not be.
    certain = [len(queues) > 1 and bool(q) and any(name in CERTAIN_SIGNALS for name, _ in q[0].signals)
               for _, q in queues]
    turn = 0
    while len(rows) < limit and any(q for _, q in queues):
        for (route, queue), sure in zip(queues, certain):
            if sure and turn == 1:
                continue
            given = 0
            while queue and given < route.share and len(rows) < limit:
                row = queue.pop(0)
                key = (row.path, row.line, row.name)
                if key in seen:
                    continue
                seen.add(key)
                rows.append(row._replace(extra=(("type", route.kind),) + tuple(row.extra)))
                given += 1
            if len(rows) >= limit:
                break
        turn += 1
    if not keep_signals:
        rows = [r._replace(signals=()) for r in rows]
    return Answer("routed", source, tuple(rows), tuple(notes))


def classification_json(classification: Classification) -> dict:
    """How the question was classified, for `--explain` and the MCP tool."""
    return {
        "kinds": [r.kind for r in classification.routes],
        "routes": [{"kind": r.kind, "command": r.command, "asked": r.text, "reason": r.reason}
                   for r in classification.routes],
        "subject": classification.subject,
        "facts": list(classification.facts),
    }


def options_for(command: Command, arguments: Mapping[str, object]) -> dict:
    """A command's answer options from tool arguments (`kind` -> `kinds`, ...), and its fixed options."""
    options = dict(command.options)
    for name, (_, option) in command.schema.items():
        if name not in ("limit", "explain") and arguments.get(name) is not None:
            value = arguments[name]
            options[option] = tuple(value) if isinstance(value, list) else value
    return options
