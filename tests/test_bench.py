"""Tests for the routing bench: the bench file loader, scoring, miss classes, gates and the bench command."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitroute.bench import (
    Bench,
    BenchReport,
    Gate,
    Question,
    find_default_bench,
    load_bench,
    read_bench,
    row_matches,
    run_bench,
    score_answer,
)
from gitroute.errors import BenchFileError, ExitCode
from gitroute.model import Answer, Row, Source

ROOT = Path(__file__).resolve().parents[1]
SOURCE = Source(ref="refs/marola/routing-bundle", commit="0" * 40, branch="main", stale_by=0)

VALID = """\
schema: 1
questions:
  - id: s1
    type: symbol
    question: "SessionInterface"
    expect: ["src/flask/sessions.py"]
"""


def _bench(body: str) -> str:
    """A bench document with `body` as its only question's extra lines."""
    return VALID + "".join(f"    {line}\n" for line in body.splitlines())


def _answer(*paths: str, status: str = "routed") -> Answer:
    rows = tuple(Row(path=p.partition("#")[0], name=p.partition("#")[2] or None) for p in paths)
    return Answer(status=status, source=SOURCE, rows=rows)


def _question(qid: str = "q", text: str = "SessionInterface", expect: str | tuple[str, ...] = "src/flask/sessions.py",
              qtype: str = "symbol") -> Question:
    return Question(id=qid, type=qtype, question=text, expect=expect if isinstance(expect, tuple) else (expect,))


# -- loader --------------------------------------------------------------------------------------


def test_load_bench_reads_questions_and_defaults() -> None:
    bench = load_bench(_bench("kind: class\nlang: [python]\npath: 'src/*'"), "b.yaml")
    assert bench.origin == "b.yaml"
    assert bench.gate == Gate(min_right_first=0.8, min_questions=5)
    (q,) = bench.questions
    assert q == Question(
        id="s1", type="symbol", question="SessionInterface", expect=("src/flask/sessions.py",),
        kind=("class",), lang=("python",), path="src/*",
    )


def test_load_bench_reads_gate_and_single_string_expect() -> None:
    text = "schema: 1\ngate: {min_right_first: 0.9, min_questions: 3}\nquestions:\n" \
           "  - {id: a, type: impact, question: q, expect: 'x.py#f'}\n"
    bench = load_bench(text, "b.yaml")
    assert bench.gate == Gate(min_right_first=0.9, min_questions=3)
    assert bench.questions[0].expect == ("x.py#f",)


BAD_FILES = [
    ("not: [valid", "not valid YAML at line"),
    ("- a list", "expected a mapping with 'schema' and 'questions'"),
    ("questions: []", "'schema' is missing"),
    ("schema: 2\nquestions: []", "'schema' is 2, this gitroute reads schema 1"),
    ("schema: true\nquestions: []", "'schema' is True"),
    ("schema: 1\nextra: 1\nquestions: []", "unknown key 'extra'"),
    ("schema: 1\nquestions: []", "'questions' must be a non-empty list"),
    ("schema: 1", "'questions' must be a non-empty list"),
    ("schema: 1\ngate: 0.8\nquestions: [x]", "'gate' must be a mapping"),
    ("schema: 1\ngate: {min_right_first: 1.5}\nquestions: [x]", "'min_right_first' must be a number in (0, 1]"),
    ("schema: 1\ngate: {min_right_first: 0}\nquestions: [x]", "'min_right_first' must be a number in (0, 1]"),
    ("schema: 1\ngate: {min_questions: 0}\nquestions: [x]", "'min_questions' must be a whole number >= 1"),
    ("schema: 1\ngate: {min_questions: true}\nquestions: [x]", "'min_questions' must be a whole number >= 1"),
    ("schema: 1\ngate: {ratio: 1}\nquestions: [x]", "'gate': unknown key 'ratio'"),
    ("schema: 1\nquestions: [just text]", "question 1: expected a mapping"),
    ("schema: 1\nquestions:\n  - {type: symbol, question: q, expect: [a]}", "question 1: 'id' is missing"),
    ("schema: 1\nquestions:\n  - {id: 7, type: symbol, question: q, expect: [a]}",
     "question 1: 'id' must be a one-line string"),
    ("schema: 1\nschema: 1\nquestions: [x]", "duplicate key 'schema' at line 2"),
]


@pytest.mark.parametrize(("text", "message"), BAD_FILES)
def test_load_bench_rejects_bad_files(text: str, message: str) -> None:
    with pytest.raises(BenchFileError) as info:
        load_bench(text, "b.yaml")
    assert info.value.message.startswith("b.yaml: ")
    assert message in info.value.message
    assert "\n" not in info.value.message


BAD_QUESTIONS = [
    ("type: symbo", "unknown type 'symbo'; known: symbol, code"),
    ("expects: [a.py]", "unknown key 'expects'"),
    ("question: ''", "'question' must be a non-empty string"),
    ("question: 404", "'question' must be a non-empty string, not 404"),
    ("expect: []", "'expect' is empty"),
    ("expect: [1]", "'expect' must be a string or a list of non-empty strings"),
    ("expect: ['']", "'expect' must be a string or a list of non-empty strings"),
    ("expect: ['/abs/path.py']", "must be a repo-relative POSIX path"),
    ("expect: ['a\\\\b.py']", "must be a repo-relative POSIX path"),
    ("expect: ['src/../x.py']", "must be a normalised path"),
    ("expect: ['x.py#']", "has an empty section after '#'"),
    ("expect: ['#main']", "has no path"),
    ("kind: [klass]", "unknown kind 'klass'; known: file, class"),
    ("lang: {python: 1}", "'lang' must be a string or a list"),
    ("path: ['src/*']", "'path' must be a glob string"),
    ("expect: [a.py]\nexpect: [b.py]", "duplicate key 'expect' at line"),
]


@pytest.mark.parametrize(("override", "message"), BAD_QUESTIONS)
def test_load_bench_names_the_question_and_the_problem(override: str, message: str) -> None:
    # Replace the valid question's field with the bad one (a second key would be a duplicate).
    key = override.split(":", 1)[0]
    lines = [line for line in VALID.splitlines() if not line.strip().startswith(f"{key}:")]
    text = "\n".join(lines) + "\n" + "".join(f"    {line}\n" for line in override.splitlines())
    with pytest.raises(BenchFileError) as info:
        load_bench(text, "b.yaml")
    assert message in info.value.message
    if "duplicate key" not in message:
        assert info.value.message.startswith("b.yaml: question 's1': ")
    assert "\n" not in info.value.message


def test_load_bench_rejects_a_missing_type() -> None:
    text = "schema: 1\nquestions:\n  - {id: s1, question: q, expect: [a.py]}\n"
    with pytest.raises(BenchFileError, match=r"question 's1': 'type' is missing"):
        load_bench(text, "b.yaml")


def test_load_bench_rejects_duplicate_ids() -> None:
    text = VALID + "  - {id: s1, type: symbol, question: other, expect: [a.py]}\n"
    with pytest.raises(BenchFileError) as info:
        load_bench(text, "b.yaml")
    assert info.value.message == "b.yaml: question 's1': duplicate id (also question 1)"


def test_load_bench_keeps_a_multiline_value_to_one_message_line() -> None:
    text = "schema: 1\nquestions:\n  - {id: s1, type: \"sym\\nbol\", question: q, expect: [a.py]}\n"
    with pytest.raises(BenchFileError) as info:
        load_bench(text, "b.yaml")
    assert "'sym\\nbol'" in info.value.message
    assert "\n" not in info.value.message


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=200))
def test_load_bench_raises_only_bench_file_errors(text: str) -> None:
    try:
        load_bench(text, "b.yaml")
    except BenchFileError as err:
        assert "\n" not in err.message


def test_read_bench_reports_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(BenchFileError, match=r"cannot read bench file '.*nope.yaml'"):
        read_bench(str(tmp_path / "nope.yaml"))


def test_read_bench_reports_bytes_that_are_not_utf8(tmp_path: Path) -> None:
    path = tmp_path / "b.yaml"
    path.write_bytes(b"schema: 1\n# \xff\n")
    with pytest.raises(BenchFileError, match="not UTF-8"):
        read_bench(str(path))


def test_find_default_bench_is_routing_bench_yaml_at_the_top(tmp_path: Path) -> None:
    (tmp_path / "routing-bench.yaml").write_text(VALID)
    assert find_default_bench(str(tmp_path)) == str(tmp_path / "routing-bench.yaml")


def test_find_default_bench_hints_when_there_is_none(tmp_path: Path) -> None:
    with pytest.raises(BenchFileError) as info:
        find_default_bench(str(tmp_path))
    assert info.value.message == f"no bench file at '{tmp_path / 'routing-bench.yaml'}'"
    assert info.value.hint and "pass FILE" in info.value.hint


@pytest.mark.parametrize(("name", "minimum"), [("flask", 12), ("django", 10)])
def test_shipped_benches_load(name: str, minimum: int) -> None:
    bench = read_bench(str(ROOT / "bench" / f"{name}.routing-bench.yaml"))
    symbol = [q for q in bench.questions if q.type == "symbol"]
    assert len(symbol) >= minimum
    assert any(q.question.startswith("test ") for q in symbol)


def test_flask_bench_asks_for_session_interface() -> None:
    bench = read_bench(str(ROOT / "bench" / "flask.routing-bench.yaml"))
    assert any(q.question == "SessionInterface" and q.expect == ("src/flask/sessions.py",) for q in bench.questions)


# -- scoring -------------------------------------------------------------------------------------


def test_gate_required_scales_four_of_five() -> None:
    gate = Gate()
    assert [gate.required(n) for n in (4, 5, 10, 12)] == [None, 4, 8, 10]


def test_gate_required_is_exact_where_floats_are_not() -> None:
    # 0.8 * 15 == 12.000000000000002 as floats; ceil would demand 13.
    assert Gate().required(15) == 12
    assert Gate(min_right_first=0.7, min_questions=1).required(10) == 7
    assert Gate(min_right_first=1, min_questions=1).required(3) == 3


def test_score_answer_ranks_the_first_matching_row() -> None:
    result = score_answer(_question(), _answer("src/flask/app.py", "src/flask/sessions.py", "src/flask/sessions.py"))
    assert (result.rank, result.right_first, result.miss, result.matched) == (2, True, None, "src/flask/sessions.py")


def test_score_answer_counts_any_expectation() -> None:
    q = _question(expect=("a.py", "b.py"))
    assert score_answer(q, _answer("c.py", "b.py")).rank == 2


def test_score_answer_classes_rank_4_to_10() -> None:
    result = score_answer(_question(), _answer("a.py", "b.py", "c.py", "src/flask/sessions.py"))
    assert (result.rank, result.right_first, result.miss) == (4, False, "ranked_4_10")


def test_score_answer_ignores_rows_past_the_tenth() -> None:
    rows = [f"f{i}.py" for i in range(10)] + ["src/flask/sessions.py"]
    result = score_answer(_question(text="where is the sessions interface"), _answer(*rows))
    assert (result.rank, result.miss) == (None, "not_in_answer")


def test_score_answer_classes_no_shared_token() -> None:
    # "SessionInterface" -> session, interface; the path says sessions, py, src, flask.
    result = score_answer(_question(), _answer("src/flask/app.py"))
    assert result.miss == "no_shared_token"


def test_score_answer_counts_the_section_as_a_shared_token() -> None:
    q = _question(text="where is main", expect=("src/flask/cli.py#main",))
    assert score_answer(q, _answer("src/flask/app.py")).miss == "not_in_answer"


def test_score_answer_classes_no_match_as_not_in_answer() -> None:
    q = _question(text="the sessions module")
    result = score_answer(q, _answer(status="no_match"))
    assert (result.status, result.rank, result.miss) == ("no_match", None, "not_in_answer")


def test_score_answer_ignores_rows_of_a_no_match() -> None:
    q = _question(text="the sessions module")
    assert score_answer(q, _answer("src/flask/sessions.py", status="no_match")).rank is None


@pytest.mark.parametrize(
    ("row", "expectation", "matches"),
    [
        (Row(path="cli.py"), "cli.py", True),
        (Row(path="cli.py", name="main"), "cli.py", True),
        (Row(path="cli.py"), "cli.py#main", True),
        (Row(path="cli.py", name="main", kind="function"), "cli.py#main", True),
        (Row(path="cli.py", name="FlaskGroup", kind="class"), "cli.py#main", False),
        (Row(path="cli.py", name="cli.py", kind="file"), "cli.py#main", True),
        (Row(path="x.py", name="Config.from_prefixed_env", kind="method"), "x.py#from_prefixed_env", True),
        (Row(path="x.py", name="from_prefixed_env_x", kind="method"), "x.py#from_prefixed_env", False),
        (Row(path="src/cli.py", name="main"), "cli.py#main", False),
        # a document's row names the link's text; the section it is in is kept apart
        (Row("README.md", 12, "SetTrustedProxies()", "document", extra=(("section", "Don't trust all proxies"),)),
         "README.md#Don't trust all proxies", True),
        (Row("README.md", 12, "SetTrustedProxies()", "document", extra=(("section", "Quick start"),)),
         "README.md#Don't trust all proxies", False),
    ],
)
def test_row_matches(row: Row, expectation: str, matches: bool) -> None:
    assert row_matches(row, expectation) is matches


def _bench_of(*questions: Question) -> Bench:
    return Bench(origin="b.yaml", questions=questions)


def _ask_from(answers: dict[str, Answer]):  # type: ignore[no-untyped-def]
    return lambda q: answers[q.id]


def test_run_bench_passes_at_the_gate() -> None:
    questions = [_question(qid=f"q{i}") for i in range(5)]
    answers = {q.id: _answer("src/flask/sessions.py") for q in questions[:4]}
    answers["q4"] = _answer("src/flask/app.py")
    report = run_bench(_bench_of(*questions), {"symbol": _ask_from(answers)})
    (symbol,) = report.types
    assert (symbol.type, symbol.n, symbol.right_first, symbol.gate, symbol.passed) == ("symbol", 5, 4, 4, True)
    assert symbol.score == pytest.approx(0.8)
    assert report.passed


def test_run_bench_fails_below_the_gate() -> None:
    questions = [_question(qid=f"q{i}") for i in range(5)]
    answers = {q.id: _answer("src/flask/app.py") for q in questions}
    answers["q0"] = _answer("src/flask/sessions.py")
    report = run_bench(_bench_of(*questions), {"symbol": _ask_from(answers)})
    assert report.types[0].right_first == 1
    assert not report.passed


def test_run_bench_does_not_gate_a_type_with_few_questions() -> None:
    questions = [_question(qid=f"q{i}") for i in range(4)]
    report = run_bench(_bench_of(*questions), {"symbol": lambda q: _answer()})
    assert report.types[0].gate is None
    assert report.passed


def test_run_bench_reports_unsupported_types_without_scoring_them() -> None:
    questions = [_question(qid="s"), *(_question(qid=f"w{i}", qtype="wiring") for i in range(6))]
    asked: list[str] = []

    def ask(q: Question) -> Answer:
        asked.append(q.id)
        return _answer("src/flask/sessions.py")

    report = run_bench(_bench_of(*questions), {"symbol": ask})
    assert asked == ["s"]
    assert [r.status for r in report.questions] == ["routed"] + ["unsupported"] * 6
    assert all(r.miss is None and r.rank is None for r in report.questions[1:])
    wiring = report.types[1]
    assert (wiring.type, wiring.supported, wiring.n, wiring.gate, wiring.passed) == ("wiring", False, 6, None, True)
    assert report.passed


def test_run_bench_keeps_scores_per_type() -> None:
    # A perfect symbol score cannot carry an impact type that is below its gate.
    symbols = [_question(qid=f"s{i}") for i in range(5)]
    impacts = [_question(qid=f"i{i}", qtype="impact") for i in range(5)]
    report = run_bench(
        _bench_of(*impacts, *symbols),
        {"symbol": lambda q: _answer("src/flask/sessions.py"), "impact": lambda q: _answer("nope.py")},
    )
    assert [(t.type, t.right_first, t.passed) for t in report.types] == [("symbol", 5, True), ("impact", 0, False)]
    assert not report.passed


def test_run_bench_passes_the_question_to_its_type() -> None:
    q = Question(id="s", type="symbol", question="x", expect=("a.py",), kind=("class",), lang=("python",), path="src/*")
    seen: list[Question] = []

    def ask(asked: Question) -> Answer:
        seen.append(asked)
        return _answer()

    run_bench(_bench_of(q), {"symbol": ask})
    assert seen == [q]


# -- command -------------------------------------------------------------------------------------


def _report(right: int, n: int = 5) -> BenchReport:
    questions = [_question(qid=f"s{i}") for i in range(n)] + [_question(qid="w1", qtype="wiring", text="wire it")]
    answers = {q.id: _answer("src/flask/sessions.py" if i < right else "src/flask/app.py")
               for i, q in enumerate(questions)}
    return run_bench(_bench_of(*questions), {"symbol": _ask_from(answers)})


# --- the command, end to end: a real repository, a real build, a real bench file ----------------

PASSING_BENCH = """\
schema: 1
questions:
  - {id: s1, type: symbol, question: OpenMeteoClient, expect: [src/sample/weather.py]}
  - {id: s2, type: symbol, question: parse_forecast, expect: ["src/sample/weather.py#parse_forecast"]}
  - {id: s3, type: symbol, question: HTTPServer, expect: [src/sample/http_server.py]}
  - {id: s4, type: symbol, question: "where is the entry point", expect: ["src/sample/cli.py#run"]}
  - {id: s5, type: symbol, question: serve forever, expect: ["src/sample/http_server.py#serve_forever"]}
  - {id: w1, type: wiring, question: what package does the project declare, expect: [pyproject.toml]}
"""


@pytest.fixture
def bench_repo(sample_repo, route):
    """The sample project, built, with a routing-bench.yaml beside it in the work tree."""
    assert route(["build", "-q"], sample_repo.path).exit_code == 0
    (sample_repo.path / "routing-bench.yaml").write_text(PASSING_BENCH, encoding="utf-8")
    return sample_repo


def test_bench_command_prints_questions_and_types(bench_repo, route) -> None:
    result = route(["bench"], bench_repo.path)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split()[:4] for line in lines[:5]] == [
        ["s1", "symbol", "1", "ok"], ["s2", "symbol", "1", "ok"], ["s3", "symbol", "1", "ok"],
        ["s4", "symbol", "1", "ok"], ["s5", "symbol", "1", "ok"],
    ]
    # Every question type has its index now; the unsupported path is covered by run_bench's own test above.
    assert lines[5].split()[:4] == ["w1", "wiring", "1", "ok"]
    assert lines[6] == "symbol: 5/5 right first (gate 4) pass"
    assert lines[7].startswith("wiring: 1/1 right first")


def test_bench_command_exits_1_when_a_gate_fails(bench_repo, route) -> None:
    failing = PASSING_BENCH.replace("expect: [src/sample/http_server.py]", "expect: [tests/test_weather.py]")
    failing = failing.replace("src/sample/weather.py#parse_forecast", "README.md")
    (bench_repo.path / "failing.yaml").write_text(failing, encoding="utf-8")
    result = route(["bench", "failing.yaml"], bench_repo.path)
    assert result.exit_code == ExitCode.CHECK_FAILED
    assert "symbol: 3/5 right first (gate 4) fail" in result.stdout
    assert "error: symbol: 3/5 right first, gate needs 4" in result.stderr


def test_bench_command_quiet_silences_notes_not_errors(bench_repo, route) -> None:
    failing = PASSING_BENCH.replace("expect: [src/sample/http_server.py]", "expect: [README.md]")
    failing = failing.replace("src/sample/weather.py#parse_forecast", "README.md")
    (bench_repo.path / "failing.yaml").write_text(failing, encoding="utf-8")
    result = route(["bench", "-q", "failing.yaml"], bench_repo.path)
    assert "note:" not in result.stderr
    assert "error: symbol" in result.stderr


def test_bench_command_json(bench_repo, route) -> None:
    result = route(["bench", "--json"], bench_repo.path)
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert list(doc) == ["schema", "status", "bench", "gate", "types", "questions"]
    assert (doc["schema"], doc["status"]) == (1, "passed")
    assert doc["types"] == {
        "symbol": {"questions": 5, "right_first": 5, "score": 1.0, "gate": 4, "status": "passed"},
        "wiring": {"questions": 1, "right_first": 1, "score": 1.0, "gate": None, "status": "ungated"},
    }
    assert doc["questions"][0] == {
        "id": "s1", "type": "symbol", "question": "OpenMeteoClient", "expect": ["src/sample/weather.py"],
        "status": "routed", "rank": 1, "right_first": True, "miss": None, "matched": "src/sample/weather.py",
    }


def test_bench_command_without_a_bench_file_is_fatal(sample_repo, route) -> None:
    assert route(["build", "-q"], sample_repo.path).exit_code == 0
    result = route(["bench"], sample_repo.path)
    assert result.exit_code == ExitCode.FATAL
    assert result.stdout == ""
    assert result.stderr.startswith("fatal: ")


# -- sentence questions (issue 21) -----------------------------------------------------------------

SENTENCE = """\
schema: 1
questions:
  - id: t1
    type: sentence
    route: docs
    argument: "url_for"
    question: "Which page of the docs explains how url_for builds a URL?"
    expect: ["docs/quickstart.rst"]
"""


def test_load_bench_reads_a_sentence_with_its_route_and_argument() -> None:
    (q,) = load_bench(SENTENCE, "s.yaml").questions
    assert (q.type, q.route, q.argument, q.expect) == ("sentence", "docs", "url_for", ("docs/quickstart.rst",))
    assert q.scored_as == "sentence:docs" and not q.expects_no_match
    negative = load_bench(SENTENCE.replace('["docs/quickstart.rst"]', "[no_match]"), "s.yaml").questions[0]
    assert negative.expects_no_match and negative.scored_as == "sentence:negative"


@pytest.mark.parametrize(("old", "new", "message"), [
    ("    route: docs\n", "", "'route' is missing; known: symbol, meaning, code, docs, impact, decision, wiring"),
    ("route: docs", "route: search", "unknown route 'search'; known: symbol"),
    ('argument: "url_for"', 'argument: ""', "'argument' must be a non-empty one-line string"),
    ('    argument: "url_for"\n', "", "'argument' must be a non-empty one-line string, not None"),
    ('argument: "url_for"', 'argument: "two\\nlines"', "'argument' must be a non-empty one-line string"),
    ('argument: "url_for"', "argument: [url_for]", "'argument' must be a non-empty one-line string"),
    ('["docs/quickstart.rst"]', '[no_match, docs/quickstart.rst]', "'no_match' is the whole expectation or none"),
    ('["docs/quickstart.rst"]', '["/docs/quickstart.rst"]', "must be a repo-relative POSIX path"),
    ("type: sentence", "type: docs", "'route' belongs to a 'sentence' question, not a 'docs' one"),
])
def test_load_bench_validates_a_sentence_like_the_rest(old: str, new: str, message: str) -> None:
    assert old in SENTENCE
    with pytest.raises(BenchFileError) as info:
        load_bench(SENTENCE.replace(old, new), "s.yaml")
    assert message in info.value.message
    assert info.value.message.startswith("s.yaml: question 't1': ")


def test_sentences_are_scored_per_route_and_a_no_match_answer_is_right_for_a_negative() -> None:
    def sentence(qid: str, route: str, expect: tuple[str, ...]) -> Question:
        return Question(id=qid, type="sentence", question="a sentence", expect=expect, route=route, argument="x")

    questions = [sentence("d1", "docs", ("a.md",)), sentence("d2", "docs", ("a.md",)),
                 sentence("i1", "impact", ("b.py",)), sentence("n1", "docs", ("no_match",)),
                 _question(qid="s1")]
    answers = {"d1": _answer("a.md"), "d2": _answer("c.md"), "i1": _answer("b.py"),
               "n1": _answer(status="no_match"), "s1": _answer("src/flask/sessions.py")}
    report = run_bench(_bench_of(*questions), {"sentence": _ask_from(answers), "symbol": _ask_from(answers)})
    assert [(t.type, t.n, t.right_first) for t in report.types] == [
        ("symbol", 1, 1), ("sentence:docs", 2, 1), ("sentence:impact", 1, 1), ("sentence:negative", 1, 1)]
    routed = run_bench(_bench_of(questions[3]), {"sentence": lambda q: _answer("a.md")})
    assert routed.types[0].right_first == 0 and routed.questions[0].miss == "forced_guess"


def test_a_sentence_is_scored_at_its_file_as_whole_file_bm25_is_and_at_its_section() -> None:
    # the right record with the wrong section: right at the file (record) level only; a file row, as whole-file
    # BM25 gives, is right at both levels by row_matches, so the three-way table compares files
    why = Question(id="w", type="sentence", question="why tabs?", expect=("docs/adr/0001-tabs.md#Decision",),
                   route="decision", argument="tabs")
    wrong_section = Row(path="docs/adr/0001-tabs.md", name="Context", kind="decision")
    other = Row(path="docs/adr/0002-spaces.md", name="Decision", kind="decision")
    report = run_bench(_bench_of(why), {"sentence": lambda q: Answer("routed", SOURCE, (other, wrong_section))})
    result = report.questions[0]
    assert (result.rank, result.file_rank, result.right_first, result.right_first_file) == (None, 2, False, True)
    assert (report.types[0].right_first, report.types[0].right_first_file) == (0, 1)
    file_row = Row(path="docs/adr/0001-tabs.md", kind="file")
    baseline = run_bench(_bench_of(why), {"sentence": lambda q: Answer("routed", SOURCE, (file_row,))})
    assert (baseline.questions[0].rank, baseline.questions[0].file_rank) == (1, 1)


def test_whole_file_bm25_ranks_files_by_the_sentence_and_skips_binaries() -> None:
    from gitroute.bench import WholeFiles

    baseline = WholeFiles([("docs/cache.md", b"How the cache expires entries.\nThe cache cache cache."),
                           ("src/cache.py", b"def expire(entries):\n    return entries\n"),
                           ("logo.png", b"\x89PNG\0\0cache")])
    answer = baseline.answer("where does the cache expire entries?")
    assert {r.path for r in answer.rows} == {"docs/cache.md", "src/cache.py"}  # never the binary
    assert [r.path for r in baseline.answer("how is the cache explained").rows] == ["docs/cache.md", "src/cache.py"]
    assert baseline.answer("zeppelin").status == "no_match"


SENTENCE_BENCH = """\
schema: 1
questions:
  - {id: t1, type: sentence, route: symbol, argument: OpenMeteoClient,
     question: "Where is the OpenMeteoClient class defined?", expect: [src/sample/weather.py]}
  - {id: t2, type: sentence, route: docs, argument: FooBarBaz,
     question: "Which doc explains the `FooBarBaz` class?", expect: [no_match]}
"""


def test_bench_through_ask_puts_ask_beside_the_dedicated_command_and_whole_file_bm25(bench_repo, route) -> None:
    (bench_repo.path / "sentences.yaml").write_text(SENTENCE_BENCH, encoding="utf-8")
    plain = route(["bench", "--json", "sentences.yaml"], bench_repo.path)
    assert plain.exit_code == 0, plain.stderr
    assert set(json.loads(plain.stdout)["types"]) == {"sentence:symbol", "sentence:negative"}
    result = route(["bench", "--through-ask", "--json", "sentences.yaml"], bench_repo.path)
    doc = json.loads(result.stdout)
    assert doc["types"] == {
        "sentence:symbol": {"questions": 1, "dedicated": 1, "ask": 1, "whole_files": 1, "level": "file",
                            "own_level": {"dedicated": 1, "ask": 1}},
        # whole-file BM25 always answers, so it never gets a negative right
        "sentence:negative": {"questions": 1, "dedicated": 1, "ask": 1, "whole_files": 0, "level": "file",
                              "own_level": {"dedicated": 1, "ask": 1}},
    }
    assert result.exit_code == 0, result.stderr
    text = route(["bench", "--through-ask", "sentences.yaml"], bench_repo.path)
    assert "whole-file bm25" in text.stdout.splitlines()[0]
