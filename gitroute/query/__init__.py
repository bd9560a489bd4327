"""Answer policy across indexes: which index (or indexes) a question goes to, how their answers mix, and when the
answer is no_match (docs/decisions/0024).

`api` is the typed facade over it. What lives here: the generic answer of one index (`answer`), the name and
plain-words blend of `query` (the symbol tiers and BM25, mixed by `rank.prose_share`: docs/decisions/0011),
the name rule (a name spelled as code that the repository does not define is no_match), `ask`'s orchestration
over its classifier (`gitroute.ask`) and the meaning fallback; `evidence` the bundle facts the classifier looks
up, `beside` the files the repository's layout keeps beside a document or a file, `meaning` the --meaning
candidates and the contextual model.

Imports of the indexes stay inside the functions: a query is a process start.
"""
from __future__ import annotations

import gc
from collections.abc import Callable, Sequence

from gitroute.errors import GitrouteError
from gitroute.model import Answer

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing, which a cold query would pay for
if TYPE_CHECKING:
    from gitroute.ask import Classification, Route
    from gitroute.bundle.store import BundleView
    from gitroute.indexes.meaning import Evidence


def answer(index: str, question: str, *, repo: str = ".", limit: int = 10, explain: bool = False,
           bundle: BundleView | None = None, **options: object) -> Answer:
    """Ask one index of the bundle: the generic path every index's command takes.

    `bundle`: an open view to answer from (the MCP server's warm one); by default one is opened and closed.
    """
    from gitroute.registry import load_index
    from gitroute.text import Question

    module = load_index(index)
    with opened(repo, bundle) as view:
        return module.answer(view.index(module.NAME), Question.of(question), limit=limit, explain=explain, **options)


class opened:
    """The given open bundle view (left open), or a fresh one closed on exit.

    A fresh view is a one-shot answer (a cold process): the cyclic collector is paused while it is open. A question
    makes hundreds of thousands of containers (decoded postings, node records) that refcounting frees and no cycle
    holds, and each collection walks them all: a quarter of a cold sentence's CPU on linux-core (1,887 -> 1,369 ms
    over ten `ask`s, in process). A given (warm) view's caller keeps its own collector policy (the MCP server
    freezes)."""

    def __init__(self, repo: str, bundle: BundleView | None) -> None:
        self.repo, self.given, self.view = repo, bundle, bundle
        self.collecting = False  # the collector was on, and this view paused it

    def __enter__(self) -> BundleView:
        if self.view is None:
            from gitroute.bundle.store import BundleView

            self.collecting = gc.isenabled()
            gc.disable()
            try:
                self.view = BundleView(self.repo)
            except BaseException:
                self._resume()
                raise
        return self.view

    def _resume(self) -> None:
        if self.collecting:
            self.collecting = False
            gc.enable()

    def __exit__(self, kind: object, err: BaseException | None, trace: object) -> None:
        try:
            # The backstop behind the floor's checks (`BundleView.shape_damage`): a value of the wrong shape that
            # an index met while answering from a fetched bundle is that bundle's damage, not a bug of gitroute.
            damage = self.view.shape_damage(err) if err is not None and self.view is not None else None
            if damage is not None:
                raise damage from err
        finally:
            try:
                if self.given is None and self.view is not None:
                    self.view.close()
            finally:
                self._resume()


# Decoding a whole bundle ahead holds about 3 KB and takes about 50 µs per node (django's 50,426 nodes: 2 s, 247 MiB;
# the kernel's 3,765,885: 200 s and 12.3 GiB before the first answer). A larger bundle is answered as a cold query
# answers, reading only what each question needs, from the blobs the server keeps (`warm.CachedBundleView`).
WARM_MAX_NODES = 250_000


def warm(view: BundleView, repo: str | None = None) -> bool:
    """Decode ahead what answers read, for a server that keeps `view` pinned: each index that can (its `warm`),
    when the bundle has at most WARM_MAX_NODES nodes, and with `repo` the contextual model, loaded once (when the
    bundle has one). Whether the indexes were decoded ahead."""
    from gitroute.bundle.layout import INDEX_META
    from gitroute.registry import INDEXES, load_index

    with opened(repo or ".", view):  # left open; a value of the wrong shape is the bundle's damage, as in answers
        ahead = node_count(view) <= WARM_MAX_NODES
        if ahead:
            for name in INDEXES:
                module = load_index(name)
                if hasattr(module, "warm") and view.read([f"{name}/{INDEX_META}"]):  # a bundle may lack an index
                    module.warm(view.index(name))
        if repo is not None:
            from gitroute.query.meaning import contextual_model

            contextual_model(view, repo)
    return ahead


def node_count(view: BundleView) -> int:
    """The graph's nodes: the most of what the bundle says (its manifest's counts by kind, checked by
    `validate.check_manifest`; its symbol index's count) and of what its tree holds (its node shards, about
    NODES_PER_BUCKET nodes each), so that a bundle from elsewhere cannot claim to be small enough to decode."""
    from gitroute.bundle.layout import GRAPH_NODES
    from gitroute.graph import NODES_PER_BUCKET

    counts = view.manifest.get("counts", {}).get("nodes", {})
    claimed = sum(counts.values()) if isinstance(counts, dict) else int(counts)
    indexed = (view.section("symbols") or {}).get("nodes")
    indexed = indexed if type(indexed) is int else 0
    return max(claimed, indexed, len(view.listing(GRAPH_NODES)) * NODES_PER_BUCKET)


# Kinds that only a phrase of the question chose ("rather than", "copied", "who calls"): when they find nothing,
# the question is asked of the meaning index too.
PHRASE_ONLY_KINDS = frozenset(("decision", "wiring", "impact", "code"))


def ask(text: str, *, repo: str = ".", limit: int = 10, explain: bool = False,
        bundle: BundleView | None = None) -> tuple[Answer, Classification]:
    """Classify a question and answer it from the index (or indexes) its kind needs; rows carry their `type`."""
    from gitroute.ask import MAX_CERTAIN_ROWS, classify, merge_answers
    from gitroute.query.evidence import bundle_evidence
    from gitroute.registry import INDEXES
    from gitroute.specs import available_commands, command_named
    from gitroute.text import Question

    questions: dict[str, Question] = {}  # each text asked, parsed once however many routes ask it

    with opened(repo, bundle) as view:
        available = [c.name for c in available_commands(INDEXES)]
        classification = classify(text, bundle_evidence(view), available)
        answers: list[tuple[Route, Answer]] = []

        def asked(route: Route) -> Answer:
            command = command_named(route.command)
            assert command is not None  # classify only routes to available commands
            # Signals always: the merge reads them to tell the very name asked from a guess.
            options = dict(route.options or {})
            if command.name == "impact":
                # The merge reads no more of a route's rows than it keeps in all (a row it skips is one it has,
                # from another route), but for rows that repeat one of the route's own (the impact answer counts
                # them), nor fewer than it looks at for certain ones: the walk reads the records of those rows' files.
                options.update(rows=max(limit, MAX_CERTAIN_ROWS), file_starts=lambda: _whole_file_starts(view))
            question = questions.get(route.text) or questions.setdefault(route.text, Question(route.text))
            return ask_command(command.name, question, repo=repo, limit=limit, explain=True, bundle=view, **options)

        def insert(route: Route, at: int, found: Answer | None = None) -> None:
            nonlocal classification
            answers.insert(at, (route, found or asked(route)))
            routes = classification.routes
            classification = classification._replace(routes=(*routes[:at], route, *routes[at:]))

        for route in classification.routes:
            answers.append((route, asked(route)))
        described = _described_first(text, answers, available)
        if described is not None:
            found = asked(described)
            insert(described, _described_place(answers[0][1], described, found), found)
        sections = _sections_first(text, answers, available)
        if sections is not None:
            # a docs question first of all ("is there a doc on how a release gets published"): the documents'
            # sections come before the other kinds' rows when no document names what it asks about, and before the
            # documents that link a name one of its words was read as
            insert(sections, 1 if answers[0][1].status == "no_match" else 0)
        merged = merge_answers(answers, limit, view.source, keep_signals=explain)
        fallbacks = _ambiguous_retries(answers) if merged.status == "no_match" else []
        for fallback in fallbacks + _fallbacks(text, classification, available, lambda: _without_documents(view)):
            if merged.status != "no_match":
                break
            answers.append((fallback, asked(fallback)))
            classification = classification._replace(routes=(*classification.routes, fallback))
            merged = merge_answers(answers, limit, view.source, keep_signals=explain)
        if not classification.routes:
            note = (_undefined_note(classification.undefined) if classification.undefined
                    else "no index of this bundle answers this kind of question")
            merged = Answer("no_match", view.source, (), (note,))
        elif merged.status == "no_match" and classification.unknown:
            note = f"the repository defines no {', '.join(repr(n) for n in classification.unknown)}"
            merged = merged._replace(notes=(note, *merged.notes))
        return merged, classification


def _undefined_note(undefined: Sequence[str]) -> str:
    """What the question asks about that the pinned commit lacks: names it defines no definition of, paths it has
    no file at."""
    paths = [n for n in undefined if "/" in n and "::" not in n]
    names = [n for n in undefined if n not in paths]
    parts = [f"the repository defines no {', '.join(repr(n) for n in names)}"] if names else []
    parts += [f"the pinned commit has no file {', '.join(repr(p) for p in paths)}"] if paths else []
    return "; ".join(parts)


def _ambiguous_retries(answers: list[tuple[Route, Answer]]) -> list[Route]:
    """An impact route that found no caller it can be sure of, but left ambiguous ones out (gin's `c.JSON(...)`, a
    method called on a receiver of unknown type), is asked again with them included and marked, at depth 1: likely
    callers answer "who calls X" better than X's own words do, but the callers of a guess are guesses twice over
    (jsoup's `chompBalanced`: depth 2 reached every test that calls `select`)."""
    retries = []
    for route, found in answers:
        left_out = ((found.extra or {}).get("ambiguous_edges") or {}).get("left_out", 0)
        if route.command == "impact" and not found.rows and left_out and not (route.options or {}).get("ambiguous"):
            retries.append(route._replace(
                options={**(route.options or {}), "ambiguous": True, "depth": 1},
                reason=f"impact found no certain caller; {left_out} ambiguous edges included, marked"))
    return retries


def _sections_first(text: str, answers: list[tuple[Route, Answer]], available: list[str]) -> Route | None:
    """The route through every document's sections (`why`) for a question whose first route, docs, found nothing
    while a wiring or plain-words route answered: what it asks for is a document, before the other kinds' rows.
    Likewise when docs answered by reading one of the sentence's words as a name ("I want to read about child
    process i/o" read as `read`, "where is defining a custom cache store documented?" as `CacheStore`): a guess,
    after the sections that hold the words; so is a name `ask` guessed from them (`Route.guessed`: "where is command
    aliases documented?" asked docs about `command`)."""
    from gitroute.indexes.doc_links import READ_AS_NAME

    if "why" in available and answers and not any(r.command == "why" for r, _ in answers):
        first, answer = answers[0]
        if first.kind == "code" and first.guessed:  # a docs question that named its document: whatever its code
            return _sections_route(text, ", before the code its document names", first.text)
        if first.kind == "docs" and answer.status == "routed" and (
                first.guessed or answer.notes[:1] and answer.notes[0].startswith(READ_AS_NAME)):
            return _sections_route(text, ", before the documents that link a name its words were read as")
    if len(answers) < 2 or "why" not in available or answers[0][0].kind != "docs" \
            or answers[0][1].status != "no_match" or all(a.status == "no_match" for _, a in answers[1:]) \
            or any(r.command == "why" or r.kind in ("code", "impact", "symbol") for r, _ in answers):
        return None  # (a question that also asks for code, or what uses a name, is asked that first)
    return _sections_route(text, ", before the other kinds' rows")


MIN_DESCRIBED_WORDS = 3  # a code question says what its document describes in at least this many words
MAX_CANDIDATES = 2  # a link that may be any of more definitions than this (a declaration and its body) is a guess
SECTION_SAYS = "the question says what its section says: those words, before the section's links unless they agree"
AGREEING_ROWS = 3  # a section's first link agrees with what it says when the meaning index's first rows hold its file


def _described_place(code: Answer, route: Route, found: Answer) -> int:
    """Where the meaning index's answer for what a code question says its document says goes: after a code route with
    no row to give; after a section's links whose first file the meaning answer's first rows hold (both agree: the
    section names the code that does what it says); else first."""
    if not code.rows or not found.rows:
        return 1
    if route.reason == SECTION_SAYS and code.rows[0].path in {r.path for r in found.rows[:AGREEING_ROWS]}:
        return 1
    return 0


def _described_first(text: str, answers: list[tuple[Route, Answer]], available: list[str]) -> Route | None:
    """A code question that says what its document describes ("the Features section of the README says you can make
    requests to WSGI apps; which code does that?") is asked those words of the meaning index first, when the document
    does not name that code: no section of the title asked names any (the whole document's links answered), or
    its first link is a guess among several definitions, or it names none (or is no document the bundle reads)."""
    from gitroute.ask import Route
    from gitroute.indexes.doc_links import WHOLE_DOCUMENT

    if not answers or answers[0][0].kind != "code" or answers[0][0].guessed or "query" not in available:
        return None  # (a docs question that named its document asks its sections first: `_sections_first`)
    answer = answers[0][1]
    first = dict(answer.rows[0].extra) if answer.rows else {}
    guessed = first.get("status") == "ambiguous" and int(first.get("candidates") or 0) > MAX_CANDIDATES
    asked = answers[0][0].text or ""
    described = _described(text, "" if " " in asked.partition("#")[0] else asked)  # the document, when one is named
    if described is None:
        return None
    if answer.rows and not guessed and not any(note.endswith(WHOLE_DOCUMENT) for note in answer.notes):
        # the section names code, yet what the question says it says is the better guide: a section's links are
        # often its examples' calls (earmark's "Pure links": `as_ast`), not the code that does what it says
        from gitroute.phrases import says_what_it_says

        if not says_what_it_says(text):
            return None
        return Route("meaning", "query", described, SECTION_SAYS)
    return Route("meaning", "query", described, "the document names no code for what the question says it "
                 "describes: those words, before the document's links")


def _described(text: str, document: str = "") -> str | None:
    """What a code question says its document describes (`phrases.described_words`), less the words of the
    document's name ("the README section on interceptors says …": not README), when that is enough words to ask the
    meaning index; a statement (no question mark), which the meaning index's floors judge as a phrase, not its gate
    for sentences."""
    from gitroute.indexes.meaning.vocabulary import question_words
    from gitroute.phrases import described_words

    described = _without_document_name(described_words(text), document).rstrip(" ?")
    return described if len(question_words(described)) >= MIN_DESCRIBED_WORDS else None


def _without_document_name(asked: str, document: str) -> str:
    """`asked` without the words that only spell the name of `document` ("which part of the README explains the
    options for dump?": the options and dump, not the README)."""
    import re
    from pathlib import PurePosixPath

    from gitroute.text import tokenize

    if not document:
        return asked
    named = set(tokenize(PurePosixPath(document.partition("#")[0]).stem.lower()))  # lower: ReadMe is one word
    words = asked.split()
    kept = [word for word in words
            if not (parts := tokenize(re.sub(r"['’]s$", "", word.lower()))) or not named.issuperset(parts)]
    return " ".join(kept) if len(kept) < len(words) else asked


def _sections_route(text: str, when: str = "", document: str = "") -> Route:
    """A docs question asked of every document's sections through `why`, in its own words less those that only ask
    for a document: a section about "collecting results" holds neither "documented" nor "page"; nor, when the
    question named its `document`, the words of the document's name ("which part of the README explains the options
    for dump?": the section is about options and dump, not about the README)."""
    from gitroute.ask import Route
    from gitroute.phrases import without_doc_phrases

    asked = _without_document_name(without_doc_phrases(text), document)
    return Route("docs", "why", asked, f"docs found no document naming it: the question's words, "
                 f"over every document's sections{when}", options={"sections": True})


def _without_documents(view: BundleView) -> bool:
    from gitroute.query.evidence import document_paths

    return view.section("doc_links") is not None and not document_paths(view)


def _fallbacks(text: str, classification: Classification, available: list[str],
               without_documents: Callable[[], bool] = lambda: False) -> list[Route]:
    """The routes a question whose routes all found nothing is asked next, in its own words, in turn.

    A docs question whose subject no document links (no page names it, or says it in other words, or the subject
    is a file no page spells) is asked of every document's sections through `why` (records, design documents and
    ordinary pages, under that index's own no_match rule): its rows are still documents. Then, as when a phrase
    chose why, wiring, impact or code, or a kind it found nothing to ask about (the whole question asked), the
    question is asked of the meaning index, under its own no_match rule (a code question: what it says its document
    describes); so is a docs question in a repository with no document at all (a gem's or a crate's sources: its
    comments are its documentation)."""
    from gitroute.ask import Route
    from gitroute.phrases import without_doc_phrases, without_use_phrases

    routes = classification.routes
    if not routes or classification.unknown:
        return []
    fallbacks = []
    if "why" in available and any(r.kind == "docs" for r in routes) and not any(r.command == "why" for r in routes):
        fallbacks.append(_sections_route(text))
    if "query" in available and (all(r.kind in PHRASE_ONLY_KINDS or r.text == " ".join(text.split())
                                     and r.kind != "meaning" for r in routes)
                                 or all(r.kind == "docs" for r in routes) and without_documents()):
        kinds = "/".join(dict.fromkeys(r.kind for r in routes))
        # What asks for users ("who calls X") is no word of what X is: "calls" would find `__call__`; nor is the
        # question mark left after it (`X?` is no name the symbol tiers match exactly). When the phrase held the whole
        # question ("how is X used?"), X is what is asked of the symbol tiers.
        impact = next((r for r in routes if r.kind == "impact"), None)
        words = without_use_phrases(text).strip(" ?!.,;:") if impact is not None else text
        if impact is not None and not words:
            words = impact.text
        elif impact is None and any(r.kind == "code" for r in routes):
            words = _described(text) or text  # what the document says, not the words asking for its code
        elif all(r.kind == "docs" for r in routes):
            words = without_doc_phrases(text) or text  # "page" and "explains" are no words of the code that does it
        fallbacks.append(Route("meaning", "query", words,
                               f"{kinds} found nothing: the question's words, in plain words"))
    return fallbacks


def ask_command(name: str, text: str, *, repo: str = ".", limit: int = 10, explain: bool = False,
                bundle: BundleView | None = None, **options: object) -> Answer:
    """Answer through one command of the `ask` table (query, docs, code, impact, why, wiring) by name."""
    from gitroute.query.beside import code, docs
    from gitroute.query.meaning import answer_meaning
    from gitroute.specs import command_named

    command = command_named(name)
    if command is None:
        raise GitrouteError(f"no command named '{name}'")
    if command.name == "docs":
        return docs(text, repo=repo, limit=limit, explain=explain, bundle=bundle)
    if command.name == "code":
        return code(text, repo=repo, limit=limit, explain=explain, bundle=bundle)
    if command.name == "query":
        if options.get("meaning") or options.get("candidate"):  # as `git route query --meaning` answers
            with opened(repo, bundle) as view:
                return answer_meaning(view, repo, text, limit, explain, options.get("candidate"))  # type: ignore[arg-type]
        return query(text, repo=repo, limit=limit, explain=explain, bundle=bundle, **options)  # type: ignore[arg-type]
    return answer(command.index, text, repo=repo, limit=limit, explain=explain, bundle=bundle,
                  **{**command.options, **options})


def ask_symbols(view: BundleView, text: str, *, limit: int, explain: bool, **filters: object) -> Answer:
    """The symbol tiers' answer, bounded with the file of each candidate where the meaning index has them."""
    from gitroute.registry import load_index

    return load_index("symbols").answer(view.index("symbols"), text, limit=limit, explain=explain,
                                        file_starts=lambda: _file_starts(view), **filters)


def _whole_file_starts(view: BundleView) -> list[int] | None:
    """The node ids of files when they are every file's (the meaning index leaves built copies out; None then, or
    without a meaning index): the file of any node is a bisection."""
    from gitroute.indexes.meaning import NAME

    section = view.section(NAME)
    counts = section.get("counts") if isinstance(section, dict) else None
    if not isinstance(counts, dict) or counts.get("built_copies") != 0:
        return None
    return _file_starts(view)


def _file_starts(view: BundleView) -> list[int] | None:
    """The node ids of files (the meaning index keeps them; None without one): the symbol query bounds a candidate
    by the words of its file's path, and reads the records of fewer candidates."""
    from gitroute.indexes.meaning import NAME, file_starts

    return file_starts(view.index(NAME)) if view.section(NAME) is not None else None


def query(
    text: str,
    *,
    repo: str = ".",
    limit: int = 10,
    kinds: Sequence[str] = (),
    langs: Sequence[str] = (),
    path_glob: str | None = None,
    explain: bool = False,
    meaning: bool = False,
    bundle: BundleView | None = None,
) -> Answer:
    """Rank the bundle's files and symbols against `text`: names through the symbol tiers, prose through BM25
    over node text (the meaning index), mixed by how much of the question the best name holds
    (`rank.prose_share`); `meaning` asks the meaning index alone. `bundle`: an open view to answer from
    (the MCP server's warm one). The rule and its measurements: docs/decisions/0011."""
    from gitroute.rank import STRONG_NAME_SIGNALS, asks_entry_in_words, blend_rows, name_cover, prose_share
    from gitroute.text import Question, without_request

    # parsed once, for the symbol tiers, the blend and the meaning index; "explain how ..." asks about the rest
    text = Question.of(stripped) if (stripped := without_request(text)) is not text else Question.of(text)
    filters = {"kinds": tuple(kinds), "langs": tuple(langs), "path_glob": path_glob}
    with opened(repo, bundle) as view:
        if meaning:
            from gitroute.query.meaning import contextual_meaning

            return contextual_meaning(view, repo, text, limit, explain)
        if len(text.split()) <= 1 and not (kinds or langs or path_glob):
            return _query_name(view, text if text == text.strip() else Question(text.strip()), limit, explain)
        if len(text.split()) <= 1 or kinds or langs or path_glob:
            return ask_symbols(view, text, limit=limit, explain=explain, **filters)
        # Signals always: the blend reads them to tell a name match from a shared word; a few more rows
        # than asked, since the meaning index may lift a file the symbol tiers rank lower. A question that
        # is a name whatever the best name holds (a few words and no stop word: `ask` looks such phrases up
        # by the dozen) takes no share of meaning rows: its rows are the symbol tiers' first `limit`, which a
        # query at that limit finds reading far fewer records (the threshold is the limit-th score).
        names_only = prose_share(text) == 0.0
        if not names_only:  # the meaning index is asked next: numpy now if it will import it (`numpy_ahead`)
            _read_ahead(view)
            _numpy_ahead(view, text)
        by_name = ask_symbols(view, text, limit=limit if names_only else max(limit, 20), explain=True, **filters)
        symbol_rows = list(by_name.rows)
        best = symbol_rows[0] if symbol_rows else None
        top = dict(best.signals) if best else {}
        # A name the question spells out (an exact name, or a phrase of a name) outside tests and docs stands
        # even when the sentence's other words are scattered; so does the entry point asked for in so many
        # words, when every other word of the question occurs somewhere in the repository.
        named = any(name in top for name in STRONG_NAME_SIGNALS) and "secondary_path" not in top
        wants_entry = asks_entry_in_words(text)
        if names_only and named and not wants_entry and not explain:
            # The rows and notes below whatever the meaning index says (its rows, its evidence or none): not read.
            return by_name._replace(rows=tuple(strip_signals(symbol_rows[:limit], explain)))
        meaning_rows, meaning_notes, evidence = _ask_meaning(view, text, max(limit, 20), explain)
        if evidence is None:  # no word for BM25 (or no meaning index): the symbol tiers answer alone
            return by_name._replace(rows=tuple(strip_signals(symbol_rows[:limit], explain)))
        entry = wants_entry and "entry_point" in top and not evidence.missing
        held, asked = name_cover(text, best)
        share = 0.0 if entry else prose_share(text, held / asked if asked else 0.0)
        if share > 0.0 and not named:  # plain words: the contextual model reranks them, when the bundle has it
            from gitroute.query.meaning import contextual_rows

            meaning_rows, meaning_notes = contextual_rows(view, repo, text, meaning_rows, meaning_notes, explain)
        # A name holding every word the question asks with (`what does rrmdir do?`) is what it asks about, in a test
        # too: the meaning index holds a test file's own text only (docs/decisions/0011), so finding none of its
        # words there is no sign that the repository lacks them.
        named = named or bool(asked) and held == asked and not meaning_rows
        if not meaning_rows and (not (named or entry) or evidence.absent_terms and not names_only):
            # The symbol tiers route on any shared word; a sentence whose words the repository does not
            # hold together, or that names a term it never mentions, is no_match, and the meaning index says why.
            return Answer("no_match", view.source, (), tuple(meaning_notes))
        if share == 0.0:  # a name in words, or the entry point: the symbol tiers answer
            why = "the question asks for the entry point" if entry else "a name written in words"
            notes = (*by_name.notes, f"the symbol tiers answer: {why}") if explain else by_name.notes
            return by_name._replace(rows=tuple(strip_signals(symbol_rows[:limit], explain)), notes=notes)
        rows = blend_rows(strip_signals(symbol_rows, explain), meaning_rows, share, limit)
        notes = [f"blended: the best name ({best.name if best else '-'}) holds {held} of the question's {asked} "
                 f"words, so meaning (BM25) has share {share:.2f} and the symbol tiers {1 - share:.2f}",
                 *meaning_notes]
        return Answer("routed" if rows else "no_match", view.source, tuple(rows), tuple(notes if explain else ()))


def _query_name(view: BundleView, text: str, limit: int, explain: bool) -> Answer:
    """One word asked of the symbol tiers; a name spelled as code (`url_for`, `Foo.bar`, `ns::f`) that the repository
    does not define is no_match, as `docs` and `impact` answer it: rows sharing a word of it would be guesses.
    The rule lives here, under `query`, `docs` and `impact` alike, so that `ask` and each command agree."""
    from gitroute.text import is_code_name, is_marked_code

    found = ask_symbols(view, text, limit=limit, explain=True)
    if "::" in text and not _has_exact(found):
        found = _namespace_dropped(view, text, limit) or found
    if not is_code_name(text) or not found.rows or _has_exact(found):
        return found._replace(rows=tuple(strip_signals(list(found.rows), explain)))
    from gitroute.query.evidence import definitions, is_word

    if definitions(view, text) or not is_marked_code(text) and is_word(view, text):
        # defined (by its last part, or below the rows asked: a test's class under names of the code); or a
        # camel-cased word the repository uses (`PostgreSQL`), not a name it lacks
        return found._replace(rows=tuple(strip_signals(list(found.rows), explain)))
    nearest = ", ".join(dict.fromkeys(r.name or r.path for r in found.rows[:3]))
    return Answer("no_match", view.source, (), (f"the repository defines no '{text}' (nearest names: {nearest})",))


def _has_exact(found: Answer) -> bool:
    return any(signal == "exact_name" for row in found.rows for signal, _ in row.signals)


def _namespace_dropped(view: BundleView, text: str, limit: int) -> Answer | None:
    """`spdlog::logger` answered as `logger` when only that names a definition exactly: a C++ namespace or a Rust
    module qualifies a name without being its owner in the index (a Ruby `Rack::Lint` is, and matches as it is)."""
    from gitroute.text import name_parts

    parts = name_parts(text)
    for start in range(1, len(parts)):
        tail = ".".join(parts[start:])
        found = ask_symbols(view, tail, limit=limit, explain=True)
        if _has_exact(found):
            qualifier = "::".join(parts[:start])
            return found._replace(notes=(*found.notes, f"read '{text}' as '{tail}': '{qualifier}' owns no definition "
                                                        "in the index (a namespace or module)"))
    return None


def strip_signals(rows: list, explain: bool) -> list:
    return rows if explain else [r._replace(signals=()) for r in rows]


# From this many graph nodes on (the kernel's 3.8 million; django's 50,000 stay below), a sentence asks git ahead for
# what its answer will read whatever its words: the meaning index's file table (a byte a node) and the graph's
# folder trees, inflated on the other core while the symbol tiers work (`BundleView.read_ahead`).
AHEAD_MIN_NODES = 500_000


def _read_ahead(view: BundleView) -> None:
    from gitroute.bundle.layout import GRAPH_NODES, GRAPH_PAGES
    from gitroute.indexes.meaning import FILES, LENGTHS, NAME

    section = view.section(NAME)
    nodes = section.get("nodes") if section is not None else None
    if isinstance(nodes, int) and nodes >= AHEAD_MIN_NODES and "files" not in view.index(NAME).memo:
        view.read_ahead([f"{NAME}/{LENGTHS}", f"{NAME}/{FILES}"], [GRAPH_NODES, GRAPH_PAGES])


def _numpy_ahead(view: BundleView, text: str) -> None:
    from gitroute.indexes.meaning import NAME, numpy_ahead

    if view.section(NAME) is not None:
        index = view.index(NAME)
        numpy_ahead(text, index.section, index.read, index.corrupt, index.memo)


def _ask_meaning(view, text: str, limit: int, explain: bool) -> tuple[list, list[str], Evidence | None]:
    """The meaning index's rows, notes and evidence; a bundle built before it has none (the notes say so)."""
    from gitroute.bundle.layout import INDEX_META
    from gitroute.indexes.meaning import NAME, query_meaning

    index = view.index(NAME)
    if not index.read([INDEX_META]):
        return [], ["the bundle has no meaning index: run 'git route build'"], None
    rows, notes, evidence = query_meaning(text, index.section, index.read, limit=limit, explain=explain,
                                          corrupt=index.corrupt, records=index.graph.records, memo=index.memo)
    return rows, notes, evidence


def bench_askers(view: BundleView, repo: str, *, through_ask: bool = False, through_query: bool = False,
                 whole_files: bool = False) -> dict:
    """Bench question type -> the callable that answers it from `view` (see `api.bench` for the modes)."""
    from gitroute.ask import KIND_COMMAND
    from gitroute.bench import SENTENCE, Question, WholeFiles
    from gitroute.registry import load_index, question_types

    def asker(index: str, options: dict) -> Callable[[Question], Answer]:
        module = load_index(index)

        def ask(q: Question) -> Answer:
            # A question's own filters, where it has any (symbol questions narrow by kind, language, path).
            filters = {k: v for k, v in (("kinds", q.kind), ("langs", q.lang), ("path_glob", q.path)) if v}
            return module.answer(view.index(index), q.question, limit=10, explain=False, **options, **filters)

        return ask

    def dedicated(q: Question) -> Answer:
        # The command a reader would pick by hand, given what they would type into it.
        return ask_command(KIND_COMMAND[q.route or "meaning"], q.argument or q.question, limit=10, bundle=view)

    if whole_files:
        from gitroute.git import repository as git

        baseline = WholeFiles(git.regular_files(git.open_repository(repo), view.source.commit))
        return {SENTENCE: lambda q: baseline.answer(q.question, source=view.source)}
    if through_ask:
        return {qtype: lambda q: ask(q.question, bundle=view)[0]
                for qtype in (*question_types(), SENTENCE)}
    if through_query:
        def plain(q: Question) -> Answer:
            return query(q.question, limit=10, kinds=q.kind or (), langs=q.lang or (), path_glob=q.path, bundle=view)

        return {qtype: plain for qtype, (index, _) in question_types().items() if index in ("symbols", "meaning")}
    return {**{qtype: asker(index, options) for qtype, (index, options) in question_types().items()},
            SENTENCE: dedicated}
