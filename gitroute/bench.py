"""The routing bench: reading routing-bench.yaml, asking its questions and scoring the answers per type.

A question is answered by a callable for its type (api supplies them; a type without one is
"unsupported" and not scored). The bench judges the first ten rows of an answer: the rank of the
first row that matches any expected answer, "right first" when that rank is at most three, and for
a miss one of three classes that says where to look:

- ``ranked_4_10``: an expected answer is in rows 4-10;
- ``no_shared_token``: not in the first ten rows, and the question shares no content token with
  any expected path (or section), so only an index that reads inside files can route it;
- ``not_in_answer``: not in the first ten rows (or the answer was ``no_match``) although the
  question shares a token with an expected path;
- ``forced_guess``: a ``negative`` question (off-topic for the repository, expecting ``no_match``) was routed.

A ``sentence`` question (issue 21) is a whole sentence as a developer or an agent types it, labelled with the
``route`` a reader would send it to (the dedicated command: symbol, meaning, code, docs, impact, decision,
wiring) and the ``argument`` that command takes by hand. The plain bench asks the dedicated command with the
argument; ``--through-ask`` asks `ask` with the sentence, and plain whole-file BM25 (``WholeFiles``) with it too.
Sentence results are kept per route (``sentence:docs``), and the sentences that expect ``no_match`` apart
(``sentence:negative``).

An expectation is ``path`` or ``path#section``. Rows carry no section yet, so ``path#section``
matches a row with that path whose ``name`` is the section (``Class.method`` also matches
``method``), or a row with that path and no name, or a file row.

Each answer is also scored at the level of the file (``QuestionResult.file_rank``): the first row of an
expected path, whatever its section or name. Whole-file BM25's rows are files, so a file row meets
``path#section`` and the baseline is in effect scored at that level; the three-way comparison of sentence
questions (dedicated, ``ask``, whole-file BM25) therefore scores all three at the file level (for a decision:
the right record, as issue 21 measured the baseline), and reports the finer level (the section, or the symbol)
of the dedicated command and ``ask`` beside it (``TypeResult.right_first``).

Scores are kept per type so that one index cannot buy its score with another's: a type with at
least ``gate.min_questions`` scored questions must get ``ceil(gate.min_right_first * n)`` right
first, or the bench fails.
"""
from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from gitroute.errors import BenchFileError
from gitroute.model import NODE_KINDS, Answer, Row
from gitroute.text import STOP_WORDS, content_tokens, tokenize

SCHEMA = 1
DEFAULT_BENCH_FILE = "routing-bench.yaml"
# Every type the format knows, in the order reports list them; later indexes answer the others.
QUESTION_TYPES = ("symbol", "code", "docs", "impact", "decision", "meaning", "negative", "wiring", "sentence")
# The dedicated commands a `sentence` question names as its `route` (FORMAT.md of the sentence bench).
SENTENCE_ROUTES = ("symbol", "meaning", "code", "docs", "impact", "decision", "wiring")
SENTENCE = "sentence"
MISS_CLASSES = ("ranked_4_10", "no_shared_token", "not_in_answer", "forced_guess")
# A `negative` question is off-topic for its repository: right when the answer is no_match.
NO_MATCH = "no_match"
RIGHT_FIRST_RANK = 3  # "right first": the expected answer is among the rows a reader looks at
JUDGED_ROWS = 10  # rows past these are not part of the answer the bench judges

_TOP_KEYS = ("schema", "gate", "questions")
_GATE_KEYS = ("min_right_first", "min_questions")
_QUESTION_KEYS = ("id", "type", "question", "expect", "kind", "lang", "path", "route", "argument")


@dataclass(frozen=True, slots=True)
class Gate:
    """The share of questions a type must get right first, for types with enough questions to say."""

    min_right_first: float = 0.8
    min_questions: int = 5

    def required(self, n: int) -> int | None:
        """Right-first answers needed out of `n` scored questions; None when `n` is too few to gate."""
        if n < self.min_questions:
            return None
        # Fraction of the decimal text: 0.8 * 15 is 12.000000000000002 in floats, and ceil makes it 13.
        needed = Fraction(str(self.min_right_first)) * n
        return -(-needed.numerator // needed.denominator)


@dataclass(frozen=True, slots=True)
class Question:
    id: str
    type: str
    question: str
    expect: tuple[str, ...]  # "path" or "path#section"; any one counts
    kind: tuple[str, ...] = ()  # filters passed to the answering index, as written
    lang: tuple[str, ...] = ()
    path: str | None = None
    route: str | None = None  # a sentence's dedicated command (SENTENCE_ROUTES)
    argument: str | None = None  # what a sentence's dedicated command is given by hand

    @property
    def expects_no_match(self) -> bool:
        return self.expect == (NO_MATCH,)

    @property
    def scored_as(self) -> str:
        """The type its score is kept under: its own, or for a sentence its route (`sentence:docs`), or
        `sentence:negative` when nothing is the right answer."""
        if self.type != SENTENCE:
            return self.type
        return f"{SENTENCE}:{'negative' if self.expects_no_match else self.route}"


@dataclass(frozen=True, slots=True)
class Bench:
    origin: str  # where the bench was read from, for messages
    questions: tuple[Question, ...]
    gate: Gate = field(default_factory=Gate)
    schema: int = SCHEMA


@dataclass(frozen=True, slots=True)
class QuestionResult:
    question: Question
    status: str  # the answer's status ("routed", "no_match") or "unsupported"
    rank: int | None = None  # 1-based, among the judged rows; None when no row matches
    matched: str | None = None  # the expectation the ranked row matched
    miss: str | None = None  # one of MISS_CLASSES; None when right first or unsupported
    file_rank: int | None = None  # the first row of an expected file, whatever its section or name (see above)

    @property
    def right_first(self) -> bool:
        return self.rank is not None and self.rank <= RIGHT_FIRST_RANK

    @property
    def right_first_file(self) -> bool:
        return self.file_rank is not None and self.file_rank <= RIGHT_FIRST_RANK


@dataclass(frozen=True, slots=True)
class TypeResult:
    type: str
    n: int  # questions of this type (scored ones when supported)
    right_first: int
    gate: int | None  # right-first answers required; None when ungated or unsupported
    supported: bool = True
    right_first_file: int = 0  # right first at the file level (for a decision, the record): see above

    @property
    def score(self) -> float:
        return self.right_first / self.n if self.supported and self.n else 0.0

    @property
    def passed(self) -> bool:
        return self.gate is None or self.right_first >= self.gate


@dataclass(frozen=True, slots=True)
class BenchReport:
    origin: str
    questions: tuple[QuestionResult, ...]
    types: tuple[TypeResult, ...]
    gate: Gate = field(default_factory=Gate)

    @property
    def passed(self) -> bool:
        """False when any gated type is below its gate; ungated and unsupported types never fail."""
        return all(t.passed for t in self.types)


Ask = Callable[[Question], Answer]


def find_default_bench(repo_toplevel: str, name: str = DEFAULT_BENCH_FILE) -> str:
    """The bench file `git route bench` reads without FILE: `name` (`[bench] file`) under the work tree's top."""
    path = os.path.join(repo_toplevel, name)
    if not os.path.isfile(path):
        raise BenchFileError(
            f"no bench file at '{path}'",
            hint=f"write '{name}' at the top of the work tree, or pass FILE",
        )
    return path


def read_bench(path: str) -> Bench:
    """Read and validate the bench file at `path`."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as err:
        raise BenchFileError(f"cannot read bench file '{path}': {err.strerror or err}") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise BenchFileError(f"{path}: not UTF-8 (byte {err.start})") from None
    return load_bench(text, path)


def load_bench(text: str, origin: str) -> Bench:
    """Parse and validate a routing-bench document; each problem is a one-line BenchFileError."""
    doc = _parse_yaml(text, origin)
    if not isinstance(doc, dict):
        raise BenchFileError(f"{origin}: expected a mapping with 'schema' and 'questions'")
    _reject_unknown(doc, _TOP_KEYS, origin, "")
    if "schema" not in doc:
        raise BenchFileError(f"{origin}: 'schema' is missing", hint=f"start the file with 'schema: {SCHEMA}'")
    schema = doc["schema"]
    if schema != SCHEMA or isinstance(schema, bool):
        raise BenchFileError(
            f"{origin}: 'schema' is {_show(schema)}, this gitroute reads schema {SCHEMA}",
            hint="a newer gitroute may read it" if isinstance(schema, int) and schema > SCHEMA else None,
        )
    gate = _load_gate(doc.get("gate"), origin)
    raw_questions = doc.get("questions")
    if not isinstance(raw_questions, list) or not raw_questions:
        raise BenchFileError(f"{origin}: 'questions' must be a non-empty list")
    questions: list[Question] = []
    first_seen: dict[str, int] = {}
    for number, raw in enumerate(raw_questions, 1):
        question = _load_question(raw, number, origin)
        if question.id in first_seen:
            raise BenchFileError(
                f"{origin}: question '{question.id}': duplicate id (also question {first_seen[question.id]})"
            )
        first_seen[question.id] = number
        questions.append(question)
    return Bench(origin=origin, questions=tuple(questions), gate=gate, schema=SCHEMA)


def _parse_yaml(text: str, origin: str) -> Any:
    # PyYAML stays out of the query path: only the bench reads YAML.
    import yaml

    class _StrictLoader(yaml.SafeLoader):
        """safe_load that refuses a key given twice, which PyYAML otherwise resolves silently."""

    def construct_mapping(loader: yaml.SafeLoader, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: set[Any] = set()
        for key_node, _ in node.value:
            key = loader.construct_object(key_node, deep=True)
            if isinstance(key, (str, int, float, bool)) and key in seen:
                raise BenchFileError(
                    f"{origin}: duplicate key {_show(key)} at line {key_node.start_mark.line + 1}"
                )
            if isinstance(key, (str, int, float, bool)):
                seen.add(key)
        mapping: dict[Any, Any] = yaml.SafeLoader.construct_mapping(loader, node, deep=deep)
        return mapping

    _StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    try:
        return yaml.load(text, Loader=_StrictLoader)  # noqa: S506 - a SafeLoader subclass
    except yaml.MarkedYAMLError as err:
        mark = err.problem_mark or err.context_mark
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        raise BenchFileError(f"{origin}: not valid YAML{where}: {err.problem or err.context}") from None
    except yaml.YAMLError as err:
        raise BenchFileError(f"{origin}: not valid YAML: {_one_line(str(err))}") from None


def _load_gate(raw: Any, origin: str) -> Gate:
    if raw is None:
        return Gate()
    if not isinstance(raw, dict):
        raise BenchFileError(f"{origin}: 'gate' must be a mapping of {', '.join(_GATE_KEYS)}")
    _reject_unknown(raw, _GATE_KEYS, origin, "'gate': ")
    default = Gate()
    ratio = raw.get("min_right_first", default.min_right_first)
    if isinstance(ratio, bool) or not isinstance(ratio, (int, float)) or not 0 < ratio <= 1:
        raise BenchFileError(f"{origin}: 'gate': 'min_right_first' must be a number in (0, 1], not {_show(ratio)}")
    minimum = raw.get("min_questions", default.min_questions)
    if isinstance(minimum, bool) or not isinstance(minimum, int) or minimum < 1:
        raise BenchFileError(f"{origin}: 'gate': 'min_questions' must be a whole number >= 1, not {_show(minimum)}")
    return Gate(min_right_first=float(ratio), min_questions=minimum)


def _load_question(raw: Any, number: int, origin: str) -> Question:
    if not isinstance(raw, dict):
        raise BenchFileError(f"{origin}: question {number}: expected a mapping with 'id', 'type', 'question', 'expect'")
    qid = raw.get("id")
    if qid is None:
        raise BenchFileError(f"{origin}: question {number}: 'id' is missing")
    if not isinstance(qid, str) or not qid.strip() or _one_line(qid) != qid:
        raise BenchFileError(f"{origin}: question {number}: 'id' must be a one-line string, not {_show(qid)}")
    where = f"{origin}: question '{qid}': "
    _reject_unknown(raw, _QUESTION_KEYS, origin, f"question '{qid}': ")
    qtype = raw.get("type")
    if qtype is None:
        raise BenchFileError(f"{where}'type' is missing; known: {', '.join(QUESTION_TYPES)}")
    if qtype not in QUESTION_TYPES:
        raise BenchFileError(f"{where}unknown type {_show(qtype)}; known: {', '.join(QUESTION_TYPES)}")
    text = raw.get("question")
    if not isinstance(text, str) or not text.strip():
        raise BenchFileError(f"{where}'question' must be a non-empty string, not {_show(text)}")
    expect = _string_list(raw.get("expect"), "expect", where)
    route, argument = _load_route(raw, qtype, where)
    if qtype == SENTENCE and NO_MATCH in expect:
        if expect != (NO_MATCH,):
            raise BenchFileError(f"{where}'{NO_MATCH}' is the whole expectation or none of it, "
                                 f"not {_show(list(expect))}")
    elif qtype == "negative":
        if expect not in ((), (NO_MATCH,)):
            raise BenchFileError(f"{where}a negative question expects '{NO_MATCH}', not {_show(list(expect))}")
        expect = (NO_MATCH,)
    elif not expect:
        raise BenchFileError(f"{where}'expect' is empty; give at least one path or 'path#section'")
    for expectation in expect:
        if expect == (NO_MATCH,) and qtype == SENTENCE:
            break
        problem = _expectation_problem(expectation)
        if problem:
            raise BenchFileError(f"{where}'expect' {_show(expectation)}: {problem}")
    kinds = _string_list(raw.get("kind"), "kind", where)
    for kind in kinds:
        if kind not in NODE_KINDS:
            raise BenchFileError(f"{where}unknown kind {_show(kind)}; known: {', '.join(NODE_KINDS)}")
    langs = _string_list(raw.get("lang"), "lang", where)
    path_glob = raw.get("path")
    if path_glob is not None and (not isinstance(path_glob, str) or not path_glob.strip()):
        raise BenchFileError(f"{where}'path' must be a glob string, not {_show(path_glob)}")
    return Question(
        id=qid, type=qtype, question=text.strip(), expect=expect, kind=kinds, lang=langs, path=path_glob,
        route=route, argument=argument,
    )


def _load_route(raw: dict[Any, Any], qtype: str, where: str) -> tuple[str | None, str | None]:
    """(route, argument) of a sentence question; other types take neither."""
    route, argument = raw.get("route"), raw.get("argument")
    if qtype != SENTENCE:
        for key, value in (("route", route), ("argument", argument)):
            if value is not None:
                raise BenchFileError(f"{where}'{key}' belongs to a '{SENTENCE}' question, not a {_show(qtype)} one")
        return None, None
    if route is None:
        raise BenchFileError(f"{where}'route' is missing; known: {', '.join(SENTENCE_ROUTES)}")
    if route not in SENTENCE_ROUTES:
        raise BenchFileError(f"{where}unknown route {_show(route)}; known: {', '.join(SENTENCE_ROUTES)}")
    if not isinstance(argument, str) or not argument.strip() or _one_line(argument) != argument.strip():
        raise BenchFileError(f"{where}'argument' must be a non-empty one-line string, not {_show(argument)}")
    return route, argument.strip()


def _string_list(raw: Any, key: str, where: str) -> tuple[str, ...]:
    """A string or a list of strings as a tuple; missing is empty."""
    if raw is None:
        return ()
    items = [raw] if isinstance(raw, str) else raw
    if not isinstance(items, list) or not all(isinstance(item, str) and item.strip() for item in items):
        raise BenchFileError(f"{where}'{key}' must be a string or a list of non-empty strings, not {_show(raw)}")
    return tuple(item.strip() for item in items)


def _expectation_problem(expectation: str) -> str | None:
    path, hash_, section = expectation.partition("#")
    if not path:
        return "has no path"
    if hash_ and not section:
        return "has an empty section after '#'"
    if path.startswith("/") or "\\" in path:
        return "must be a repo-relative POSIX path"
    if any(part in ("", ".", "..") for part in path.split("/")):
        return "must be a normalised path (no '.', '..' or empty parts)"
    return None


def _reject_unknown(raw: dict[Any, Any], known: tuple[str, ...], origin: str, where: str) -> None:
    for key in raw:
        if key not in known:
            raise BenchFileError(f"{origin}: {where}unknown key {_show(key)}; known: {', '.join(known)}")


def _show(value: Any) -> str:
    """A value for a one-line message: quoted, newlines escaped, bounded."""
    text = repr(value) if not isinstance(value, str) else "'" + value.replace("\n", "\\n") + "'"
    return text if len(text) <= 60 else text[:57] + "..."


def _one_line(text: str) -> str:
    return " ".join(text.split())


def run_bench(bench: Bench, ask: Mapping[str, Ask]) -> BenchReport:
    """Ask every question whose type has a callable in `ask` and score the answers per type (a sentence per
    its route, `Question.scored_as`)."""
    results = tuple(
        score_answer(q, ask[q.type](q)) if q.type in ask else QuestionResult(question=q, status="unsupported")
        for q in bench.questions
    )
    types: list[TypeResult] = []
    for qtype in scored_types(q.scored_as for q in bench.questions):
        of_type = [r for r in results if r.question.scored_as == qtype]
        if qtype.partition(":")[0] not in ask:
            types.append(TypeResult(type=qtype, n=len(of_type), right_first=0, gate=None, supported=False))
            continue
        right = sum(r.right_first for r in of_type)
        types.append(TypeResult(type=qtype, n=len(of_type), right_first=right, gate=bench.gate.required(len(of_type)),
                                right_first_file=sum(r.right_first_file for r in of_type)))
    return BenchReport(origin=bench.origin, questions=results, types=tuple(types), gate=bench.gate)


def scored_types(names: Iterable[str]) -> list[str]:
    """The types a bench scores, in report order: QUESTION_TYPES, a sentence's routes in SENTENCE_ROUTES' order."""
    order = [t for t in QUESTION_TYPES if t != SENTENCE]
    order += [f"{SENTENCE}:{r}" for r in (*SENTENCE_ROUTES, "negative")]
    present = set(names)
    return [t for t in order if t in present]


def score_answer(question: Question, answer: Answer) -> QuestionResult:
    """Rank of the first judged row matching an expectation, and the miss class when not right first."""
    rank: int | None = None
    matched: str | None = None
    if question.type == "negative" or question.expects_no_match:
        if answer.status == NO_MATCH:
            return QuestionResult(question=question, status=answer.status, rank=1, matched=NO_MATCH, file_rank=1)
        return QuestionResult(question=question, status=answer.status, miss="forced_guess")
    file_rank: int | None = None
    if answer.status != "no_match":
        files = {e.partition("#")[0] for e in question.expect}
        for position, row in enumerate(answer.rows[:JUDGED_ROWS], 1):
            if file_rank is None and row.path in files:
                file_rank = position
            matched = next((e for e in question.expect if row_matches(row, e)), None)
            if matched is not None:
                rank = position
                break
    miss: str | None = None
    if rank is None or rank > RIGHT_FIRST_RANK:
        miss = classify_miss(question, rank)
    return QuestionResult(question=question, status=answer.status, rank=rank, matched=matched, miss=miss,
                          file_rank=file_rank)


def row_matches(row: Row, expectation: str) -> bool:
    """True when `row` is the answer `expectation` ("path" or "path#section") names."""
    path, _, section = expectation.partition("#")
    if row.path != path:
        return False
    if not section or row.name is None or row.kind == "file":
        return True
    if row.kind == "decision":  # a heading as its source spells it (`*managed by the editor*`) or as shown
        return _heading_key(row.name) == _heading_key(section)
    held = dict(row.extra).get("section")  # a document's row: its name is the link's text, its section apart
    if isinstance(held, str) and _heading_key(held) == _heading_key(section):
        return True
    return row.name == section or row.name.endswith("." + section)


def _heading_key(heading: str) -> str:
    return " ".join(heading.replace("*", "").replace("`", "").split()).casefold()


def classify_miss(question: Question, rank: int | None) -> str:
    """Why a question was not right first; `rank` is the matching row's rank, if any."""
    if rank is not None:
        return "ranked_4_10"
    asked = set(content_tokens(question.question))
    if all(asked.isdisjoint(tokenize(expectation)) for expectation in question.expect):
        return "no_shared_token"
    return "not_in_answer"


# --- the baseline: plain BM25 over whole files ---------------------------------------------------

_PLAIN_WORD = re.compile(r"[a-z0-9]+")
WHOLE_FILE_MAX_BYTES = 1_000_000  # larger blobs are skipped, as the build skips them


def plain_words(text: str) -> list[str]:
    """Lowercase runs of letters and digits, stop words and single characters left out: no identifier
    splitting, no stemming (the baseline is what a search box does, not what gitroute does)."""
    return [w for w in _PLAIN_WORD.findall(text.lower()) if len(w) > 1 and w not in STOP_WORDS]


class WholeFiles:
    """Plain BM25 (k1 1.2, b 0.75) over the whole text of every file of a commit, each file one document of
    its path and content: the baseline issue 10 measured and issue 21 holds `ask` to. It always answers."""

    def __init__(self, files: Iterable[tuple[str, bytes]]) -> None:
        from collections import Counter, defaultdict

        self.postings: dict[str, list[tuple[str, int]]] = defaultdict(list)
        self.length: dict[str, int] = {}
        for path, data in files:
            if b"\0" in data[:8000] or len(data) > WHOLE_FILE_MAX_BYTES:  # binary or huge
                continue
            words = plain_words(f"{path} {data.decode('utf-8', 'replace')}")
            self.length[path] = len(words)
            for word, tf in Counter(words).items():
                self.postings[word].append((path, tf))
        self.avgdl = sum(self.length.values()) / max(1, len(self.length))

    def answer(self, text: str, limit: int = JUDGED_ROWS, source: Any = None) -> Answer:
        from collections import defaultdict

        from gitroute.rank import bm25_idf, bm25_term

        scores: dict[str, float] = defaultdict(float)
        for word in set(plain_words(text)):
            postings = self.postings.get(word, ())
            idf = bm25_idf(len(postings), len(self.length))
            for path, tf in postings:
                scores[path] += bm25_term(tf, self.length[path], self.avgdl, idf)
        best = sorted(scores, key=lambda path: (-scores[path], path))[:limit]
        return Answer("routed" if best else "no_match", source,
                      tuple(Row(path, kind="file", score=round(scores[path], 3)) for path in best))


# --- the meaning rule: which candidate answers `--meaning` ----------------------------------------

RULE_CANDIDATES = ("bm25", "embedding", "hybrid")
RULE_MARGIN = 3  # right-first answers an embedding candidate must gain over BM25 on the meaning questions
RULE_MAX_BYTES = 30_000_000  # what it may add to the large ref


@dataclass(frozen=True, slots=True)
class CandidateScore:
    """One candidate on one corpus's meaning questions."""

    corpus: str
    candidate: str
    right_first: int
    questions: int
    bytes_added: int  # to the large ref: the model and vectors (0 for BM25, which lives in the main bundle)
    cold_ms: float | None  # median of one-question processes, start to exit
    warm_ms: float | None  # median per question in one process, model already loaded


def meaning_questions(bench: Bench) -> tuple[Question, ...]:
    return tuple(q for q in bench.questions if q.type == "meaning")


def score_candidate(questions: tuple[Question, ...], ask: Ask) -> tuple[int, list[float]]:
    """(right first, seconds per question) of one candidate; the first answer's time is the load, not counted."""
    import time

    right = 0
    times: list[float] = []
    for q in questions:
        started = time.perf_counter()
        result = score_answer(q, ask(q))
        times.append(time.perf_counter() - started)
        right += result.right_first
    return right, times[1:] or times


def meaning_verdict(scores: list[CandidateScore]) -> tuple[str, str]:
    """(candidate, why) by the rule: an embedding candidate answers --meaning only when, over every corpus,
    it gets at least RULE_MARGIN more right first than BM25 and adds at most RULE_MAX_BYTES to the large
    ref on each; the best such candidate wins (embedding before hybrid on a tie: one index, not two).
    Otherwise BM25 answers."""
    totals = {c: sum(s.right_first for s in scores if s.candidate == c) for c in RULE_CANDIDATES}
    largest = {c: max((s.bytes_added for s in scores if s.candidate == c), default=0) for c in RULE_CANDIDATES}
    if not any(s.candidate == "bm25" for s in scores):
        return "bm25", "BM25 was not measured: nothing to beat, so nothing replaces it"
    qualified = [c for c in ("embedding", "hybrid") if any(s.candidate == c for s in scores)
                 and totals[c] >= totals["bm25"] + RULE_MARGIN and largest[c] <= RULE_MAX_BYTES]
    if qualified:
        best = max(qualified, key=lambda c: (totals[c], c == "embedding"))
        return best, (f"{best} gets {totals[best]} right first against BM25's {totals['bm25']} (needs +{RULE_MARGIN})"
                      f" and adds {largest[best] / 1e6:.1f} MB (at most {RULE_MAX_BYTES / 1e6:.0f} MB)")
    reasons = []
    for c in ("embedding", "hybrid"):
        if not any(s.candidate == c for s in scores):
            continue
        if largest[c] > RULE_MAX_BYTES:
            reasons.append(f"{c} adds {largest[c] / 1e6:.1f} MB (over {RULE_MAX_BYTES / 1e6:.0f} MB)")
        else:
            reasons.append(f"{c} gets {totals[c]} right first against BM25's {totals['bm25']}"
                           f" (needs +{RULE_MARGIN})")
    return "bm25", "; ".join(reasons) or "no embedding candidate was measured"
