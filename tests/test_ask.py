"""`git route ask`: what kind of question a text is, the answer from the index its kind needs, the byte bound."""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gitroute.ask import KIND_COMMAND, Evidence, classify
from gitroute.cli.output import MAX_ANSWER_BYTES, _fits, bound_document, render_json
from gitroute.specs import COMMANDS, available_commands, input_schema
from tests.conftest import SAMPLE_FILES

PATHS = {"src/sample/weather.py": "blob", "src/sample": "tree", "docs/weather.md": "blob"}
SYMBOLS = {"OpenMeteoClient", "parse_forecast", "forecast"}
EVIDENCE = Evidence(path_kind=PATHS.get, is_symbol=SYMBOLS.__contains__)
EVERY_COMMAND = tuple(KIND_COMMAND.values())


def kinds(text: str, available=EVERY_COMMAND) -> list[str]:
    return [r.kind for r in classify(text, EVIDENCE, available).routes]


@pytest.mark.parametrize("text, expected", [
    # a name: where it is defined, which docs explain it, what uses it
    ("OpenMeteoClient", ["symbol", "docs", "impact"]),
    ("parse_forecast", ["symbol", "docs", "impact"]),
    ("flask.Flask.route", ["symbol", "docs", "impact"]),
    ("forecast", ["symbol", "docs", "impact"]),  # a plain word that is a symbol's name (evidence)
    # plain words
    ("where are forecasts parsed into hourly rows", ["meaning"]),
    ("how does the client fetch a forecast?", ["meaning"]),
    # a document path: which code it talks about; a code path: which docs explain it, and its file
    ("docs/weather.md", ["code"]),
    ("src/sample/weather.py", ["docs", "symbol", "impact"]),
    ("which code does docs/weather.md talk about", ["code"]),
    # which doc explains X
    ("which docs explain OpenMeteoClient", ["docs"]),
    ("where is parse_forecast documented", ["docs"]),
    # go-chi/cors: the docs doing something, somewhere in them (its README's "Credits"); not where code does it
    ("where do the docs give credit to the original author of the middleware this package was forked from",
     ["docs"]),
    ("where does the parser give credit to the original author of each document", ["meaning"]),
    # what breaks
    ("what breaks if I change parse_forecast", ["impact"]),
    ("who calls OpenMeteoClient.forecast", ["impact"]),
    # uuid: a change described with "instead of", then what else uses it: what uses it, not why
    ("I'm about to make parse_forecast return rows instead of mirroring its input; what else in the package uses it "
     "and could break?", ["impact"]),
    # why
    ("why did we choose open-meteo over the paid services", ["decision"]),
    ("was the rewrite meant to stay supported for old releases", ["decision"]),
    # wiring
    ("which repositories pin this submodule", ["wiring"]),
    ("which commit is the vendored copy of the api contract pinned to", ["wiring"]),
    # joda-time: a pin of a value is no pin of a copy
    ("where is the code that lets you pin or swap out the current time source", ["meaning"]),
    ("where are the copies of the api contract", ["wiring"]),
    ("which workflow publishes the package", ["wiring"]),
    ("which repository_dispatch events are listened for", ["wiring", "symbol"]),  # and the name itself
    ("what does the store package depend on", ["wiring"]),
    ("which modules depend on the logging module", ["wiring"]),
    # a name in one file, as `impact` takes it: its definition there, what uses it, its docs
    ("src/sample/weather.py:parse_forecast", ["symbol", "impact", "docs"]),
    # words of deciding and of documents in a question about a place are not decision or docs questions
    ("where does the router dispatch a request to its handlers", ["meaning"]),
    ("where are date formats chosen for the active language", ["meaning"]),
    ("where are whole pages cached for later requests", ["meaning"]),
])
def test_classification_of_every_kind(text, expected):
    assert kinds(text) == expected


def test_each_route_says_why_and_asks_the_subject_not_the_sentence():
    c = classify("what breaks if I change parse_forecast", EVIDENCE, EVERY_COMMAND)
    (route,) = c.routes
    assert route.command == "impact" and route.text == "parse_forecast"
    assert "break" in route.reason
    assert c.subject == "parse_forecast"
    doc = classify("docs/weather.md", EVIDENCE, EVERY_COMMAND)
    assert doc.routes[0].text == "docs/weather.md"
    assert "'docs/weather.md' is a document of the pinned commit" in doc.facts


def test_a_name_in_one_file_asks_the_symbol_index_within_that_file_and_impact_of_the_whole_target():
    c = classify("src/sample/weather.py:parse_forecast", EVIDENCE, EVERY_COMMAND)
    symbol, impact, docs = c.routes
    assert (symbol.text, symbol.options) == ("parse_forecast", {"path_glob": "src/sample/weather.py"})
    assert impact.text == "src/sample/weather.py:parse_forecast" and docs.text == "parse_forecast"
    assert c.subject == "src/sample/weather.py:parse_forecast"
    assert "'src/sample/weather.py:parse_forecast' is 'parse_forecast' in the file 'src/sample/weather.py' " \
           "of the pinned commit" in c.facts
    # a change question about it asks impact of the same target
    (route,) = classify("what breaks if I change src/sample/weather.py:parse_forecast", EVIDENCE,
                        EVERY_COMMAND).routes
    assert (route.kind, route.text) == ("impact", "src/sample/weather.py:parse_forecast")
    # the file part must be a file of the commit: otherwise it is not a located name
    assert not any(r.options for r in classify("src/missing.py:parse_forecast", EVIDENCE, EVERY_COMMAND).routes)


def test_a_path_asks_the_symbol_index_only_for_that_path_whatever_characters_it_holds():
    evidence = Evidence(path_kind={"src/[odd]*.py": "blob", "src/sample": "tree"}.get)
    (_, symbol, _) = classify("src/[odd]*.py", evidence, EVERY_COMMAND).routes
    assert symbol.options == {"path_glob": "src/[[]odd][*].py"}
    from fnmatch import fnmatchcase

    assert fnmatchcase("src/[odd]*.py", symbol.options["path_glob"])
    assert not fnmatchcase("src/oddity.py", symbol.options["path_glob"])
    (_, folder, _) = classify("src/sample", evidence, EVERY_COMMAND).routes
    assert folder.options == {"path_glob": "src/sample/*"}


def test_a_path_the_commit_does_not_hold_is_named_and_not_taken_as_a_document():
    c = classify("docs/missing.md", EVIDENCE, EVERY_COMMAND)
    assert not any("of the pinned commit" in r.reason for r in c.routes)
    assert any("no such path" in f for f in c.facts)


def test_mixed_questions_ask_several_indexes_in_the_order_the_question_says_them():
    assert kinds("why did we pick OpenMeteoClient, and which docs explain it") == ["decision", "docs", "symbol"]
    assert kinds("what breaks if I change parse_forecast and why was it decided") == ["impact", "decision"]
    # a few words: a thing named in words, or a document's title; a document's noun puts the title first
    assert kinds("hourly forecast rows") == ["meaning", "code"]
    assert kinds("the forecast guide") == ["code", "meaning"]


def test_a_word_that_names_a_document_asks_for_the_code_it_talks_about_first():
    evidence = Evidence(path_kind=PATHS.get, is_symbol=SYMBOLS.__contains__,
                        document_named={"weather": "docs/weather.md", "forecast": "docs/forecast.md"}.get)
    c = classify("weather", evidence, EVERY_COMMAND)
    assert [(r.kind, r.text) for r in c.routes] == [("code", "docs/weather.md"), ("meaning", "weather")]
    assert "'weather' names the document 'docs/weather.md'" in c.facts
    # a symbol's name that is also a document's stem: both
    assert [r.kind for r in classify("forecast", evidence, EVERY_COMMAND).routes] == ["symbol", "docs", "impact", "code"]


def test_a_kind_whose_index_is_missing_falls_back_to_the_symbol_index_and_says_so():
    c = classify("what breaks if I change parse_forecast", EVIDENCE, ("query", "why"))
    (route,) = c.routes
    assert (route.kind, route.command, route.text) == ("symbol", "query", "parse_forecast")
    assert any("'impact' questions are answered by 'impact'" in f for f in c.facts)
    assert kinds("OpenMeteoClient", ("query", "why")) == ["symbol"]
    # what uses a bare name is one of its facets, not what was asked: no fact says impact is missing
    bare = classify("OpenMeteoClient", EVIDENCE, ("query", "why", "docs"))
    assert [r.kind for r in bare.routes] == ["symbol", "docs"] and bare.facts == ()


def test_the_table_makes_a_schema_per_command():
    for command in COMMANDS:
        schema = input_schema(command)
        assert schema["type"] == "object" and schema["additionalProperties"] is False
        assert command.argument[0] in schema["properties"]
        assert schema["properties"]["limit"]["maximum"] == 200
        assert ("required" in schema) == command.text_required
    assert [c.name for c in available_commands(("symbols", "decisions"))] == ["query", "why"]


# --- end to end, in a real repository ---------------------------------------------------------------

ADR = """# 1. Use Open-Meteo for forecasts

Status: Accepted

## Context

We need weather forecasts without an API key.

## Decision

We decided to use Open-Meteo because it needs no key, instead of the paid forecast services.

## Alternatives

- OpenWeatherMap: rejected, it needs an API key.
"""


@pytest.fixture
def built(make_repo, route):
    repo = make_repo("asked")
    repo.commit({**SAMPLE_FILES, "docs/adr/0001-use-open-meteo.md": ADR}, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    return repo


def ask_json(route, repo, *args: str) -> dict:
    result = route(["ask", "--json", *args], repo.path)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_ask_a_name_gives_symbol_rows_with_their_type(built, route):
    doc = ask_json(route, built, "OpenMeteoClient")
    assert doc["status"] == "routed"
    first = doc["rows"][0]
    assert (first["path"], first["name"], first["kind"], first["type"]) == (
        "src/sample/weather.py", "OpenMeteoClient", "class", "symbol")
    assert all("type" in row for row in doc["rows"])


def test_ask_why_answers_from_the_decision_records_and_explain_says_how_it_was_classified(built, route):
    doc = ask_json(route, built, "--explain", "why did we choose open-meteo")
    assert {row["type"] for row in doc["rows"]} == {"decision"}
    assert doc["rows"][0]["path"] == "docs/adr/0001-use-open-meteo.md"
    routes = doc["classification"]["routes"]
    assert [r["command"] for r in routes] == ["why"] and "decided" in routes[0]["reason"]
    text = route(["ask", "--explain", "why did we choose open-meteo"], built.path)
    assert "asked: decision -> git route why" in text.stdout


def test_ask_a_mixed_question_merges_rows_of_each_kind(built, route):
    doc = ask_json(route, built, "why did we choose OpenMeteoClient rather than a paid service")
    types = [row["type"] for row in doc["rows"]]
    # the record's sections first (up to three: the question asks why), then the name's rows
    first_symbol = types.index("symbol")
    assert first_symbol == min(3, types.count("decision")) and set(types[:first_symbol]) == {"decision"}
    assert any(r["name"] == "OpenMeteoClient" and r["type"] == "symbol" for r in doc["rows"])


def test_ask_a_path_of_the_commit(built, route):
    doc = ask_json(route, built, "--explain", "src/sample/weather.py")
    assert doc["rows"][0]["path"] == "src/sample/weather.py"
    assert "'src/sample/weather.py' is a file of the pinned commit" in doc["classification"]["facts"]


def test_ask_a_path_gives_rows_of_that_path_and_what_uses_it_never_files_sharing_its_words(built, route):
    doc = ask_json(route, built, "src/sample/weather.py")
    symbols = [r for r in doc["rows"] if r["type"] == "symbol"]
    assert symbols and {r["path"] for r in symbols} == {"src/sample/weather.py"}
    located = ask_json(route, built, "src/sample/weather.py:OpenMeteoClient")
    first = located["rows"][0]
    assert (first["path"], first["name"], first["type"]) == ("src/sample/weather.py", "OpenMeteoClient", "symbol")
    assert any(r["type"] == "impact" for r in located["rows"])


def test_ask_no_match_when_no_index_has_an_answer(built, route):
    result = route(["ask", "--json", "where is the spaceship refuelled on the moon"], built.path)
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert doc["status"] == "no_match" and doc["rows"] == [] and doc["notes"]
    text = route(["ask", "zeppelin"], built.path)
    assert text.exit_code == 0 and "no_match:" in text.stdout


def test_a_docs_question_in_a_repository_with_no_document_is_asked_of_the_code_s_words(make_repo, route):
    # a gem's or a crate's sources alone: the comments are the documentation
    question = "which doc explains parse_forecast, how raw forecast text becomes hourly rows?"
    bare = make_repo("bare")
    bare.commit({k: v for k, v in SAMPLE_FILES.items() if not k.endswith(".md")}, "initial")
    assert route(["build", "-q"], bare.path).exit_code == 0
    doc = ask_json(route, bare, "--explain", question)
    assert [r["kind"] for r in doc["classification"]["routes"]][-1] == "meaning"
    assert doc["status"] == "routed" and doc["rows"][0]["name"] == "parse_forecast"
    assert ask_json(route, bare, "Where is `RobotArm` documented?")["status"] == "no_match"
    # with a document, a docs question wants documents: none says it, so no_match
    documented = make_repo("documented")
    documented.commit(dict(SAMPLE_FILES), "initial")
    assert route(["build", "-q"], documented.path).exit_code == 0
    assert ask_json(route, documented, question)["status"] == "no_match"


def test_a_phrase_that_chose_why_or_wiring_and_found_nothing_asks_the_meaning_index_too(make_repo, route):
    """"rather than" reads as a why question and "pipeline" as a wiring one; a repository with no decision
    record, or a question no wiring shares a word with, still gets rows from the question's words, under
    the meaning index's own no_match rule (an off-topic question stays no_match)."""
    repo = make_repo("plain")
    repo.commit(dict(SAMPLE_FILES), "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask_json(route, repo, "--explain", "why is raw forecast text turned into hourly rows rather than kept whole")
    assert [r["kind"] for r in doc["classification"]["routes"]] == ["decision", "meaning"]
    assert doc["status"] == "routed" and doc["rows"][0]["name"] == "parse_forecast"
    assert {row["type"] for row in doc["rows"]} == {"meaning"}
    off_topic = ask_json(route, repo, "why is the robot arm gripping an object rather than dropping it")
    assert off_topic["status"] == "no_match"
    # "rather than" in a question of where something is done asks for the code, not a decision
    where = ask_json(route, repo, "--explain", "where is raw forecast text turned into hourly rows rather than kept whole")
    assert [r["kind"] for r in where["classification"]["routes"]] == ["meaning"]
    assert where["rows"][0]["name"] == "parse_forecast"
    pipeline = ask_json(route, repo, "--explain", "which CI pipeline turns the raw forecast text into hourly rows")
    assert pipeline["classification"]["routes"][0]["kind"] == "wiring"
    assert pipeline["status"] == "routed" and pipeline["rows"][0]["name"] == "parse_forecast"
    # a pipeline in the code is no CI's: the question's words from the start
    in_code = ask_json(route, repo, "--explain", "which pipeline turns the raw forecast text into hourly rows")
    assert [r["kind"] for r in in_code["classification"]["routes"]] == ["meaning"]
    assert in_code["rows"][0]["name"] == "parse_forecast"
    # "copied" alone is what the code does, not how copies are kept: the question's words from the start
    copied = ask_json(route, repo, "--explain", "how is the raw forecast text copied into hourly rows")
    assert [r["kind"] for r in copied["classification"]["routes"]] == ["meaning"]
    assert copied["status"] == "routed" and copied["rows"][0]["name"] == "parse_forecast"


def test_ask_an_empty_question_is_a_usage_error(built, route):
    result = route(["ask", "  "], built.path)
    assert result.exit_code == 129 and result.stdout == ""
    assert "TEXT is empty" in result.stderr


def test_ask_without_a_bundle_is_fatal(make_repo, route):
    repo = make_repo()
    repo.commit(dict(SAMPLE_FILES))
    result = route(["ask", "OpenMeteoClient"], repo.path)
    assert result.exit_code == 128 and result.stdout == ""
    assert result.stderr.startswith("fatal: no routing bundle")


THROUGH_BENCH = (
    "schema: 1\nquestions:\n"
    "  - {id: s1, type: symbol, question: OpenMeteoClient, expect: [src/sample/weather.py]}\n"
    "  - {id: s2, type: symbol, question: where are forecasts parsed, expect: [src/sample/weather.py]}\n"
    "  - {id: d1, type: decision, question: why use open-meteo and not a paid service,"
    " expect: [docs/adr/0001-use-open-meteo.md]}\n")
NEGATIVE = "  - {id: n1, type: negative, question: where is the greenhouse irrigation scheduled, expect: [no_match]}\n"


@pytest.mark.parametrize("option, extra, expected", [
    # ask answers every type, finding the index itself
    ("--through-ask", "", {"symbol": {"questions": 2, "dedicated": 2, "ask": 2},
                           "decision": {"questions": 1, "dedicated": 1, "ask": 1}}),
    # plain query answers the symbol, meaning and negative types: decision questions are left out
    ("--through-query", NEGATIVE, {"symbol": {"questions": 2, "dedicated": 2, "query": 2},
                                   "negative": {"questions": 1, "dedicated": 1, "query": 1}}),
])
def test_bench_through_a_command_compares_each_type_with_its_dedicated_index(built, route, tmp_path, option,
                                                                             extra, expected):
    bench = tmp_path / "bench.yaml"
    bench.write_text(THROUGH_BENCH + extra)
    result = route(["bench", option, "--json", str(bench)], built.path)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["types"] == expected


# --- the 100,000-byte bound ---------------------------------------------------------------------------


def test_bound_cuts_rows_never_the_envelope_and_says_how_many():
    rows = [{"path": f"src/{i:04d}/" + "x" * 900, "score": 1.0} for i in range(200)]
    document = {"schema": 1, "status": "routed", "source": {"commit": "c" * 40}, "rows": rows, "notes": ["kept"]}
    bounded = bound_document(document)
    size = len(render_json(bounded).encode("utf-8"))
    assert size <= MAX_ANSWER_BYTES
    kept = len(bounded["rows"])
    assert 0 < kept < 200 and bounded["rows"] == rows[:kept]
    assert bounded["notes"][0] == "kept" and bounded["notes"][1].startswith(f"{200 - kept} of 200 rows left out")
    # one more row would not have fitted
    assert len(render_json({**bounded, "rows": rows[:kept + 1]}).encode("utf-8")) > MAX_ANSWER_BYTES
    small = {**document, "rows": rows[:3]}
    assert bound_document(small) is small


def test_bound_leaves_out_a_section_beside_the_rows_before_any_row():
    # django's wiring tables alone passed the bound: every row of a narrowed wiring answer was cut
    rows = [{"path": f"src/{i}.yml", "score": 1.0} for i in range(5)]
    tables = {"contracts": [{"canonical": f"c/{i:05d}/" + "x" * 200} for i in range(600)]}
    document = {"schema": 1, "status": "routed", "source": {"commit": "c" * 40}, "rows": rows, "notes": ["kept"],
                "wiring": tables, "classification": {"routes": []}}
    bounded = bound_document(document)
    assert len(render_json(bounded).encode("utf-8")) <= MAX_ANSWER_BYTES
    assert bounded["rows"] == rows and "wiring" not in bounded and bounded["classification"] == {"routes": []}
    assert bounded["notes"][0] == "kept" and bounded["notes"][1].startswith("the 'wiring' section left out")


_json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=6),
    max_leaves=60)


@given(document=st.dictionaries(st.text(max_size=8), _json_values, max_size=6), slack=st.integers(-40, 40))
def test_whether_a_document_fits_is_what_its_rendering_says(document, slack):
    # `_fits` mostly decides from the compact JSON and the nesting depth; it must agree with the rendering.
    size = len(render_json(document).encode("utf-8"))
    for max_bytes in (size + slack, size * 3 + slack, size * 20 + slack):
        assert _fits(document, max_bytes) == (size <= max_bytes)


def test_a_cli_answer_that_would_exceed_the_bound_is_cut(make_repo, route):
    # Symbols that share a word, in a folder whose path is 3,200 bytes (git's paths may be that long): their
    # rows come to well over 100 KB.
    folder = "/".join([f"{'deeply_nested_package_folder_' * 7}{i}" for i in range(16)])
    files = {f"{folder}/module_{i:03d}.py": "".join(
        f"def shipment_tracking_{i}_{j}(order):\n    \"\"\"Track the shipment of an order.\"\"\"\n"
        f"    return order\n\n\n" for j in range(5)) for i in range(10)}
    repo = make_repo()
    repo.commit(files)
    assert route(["build", "-q"], repo.path).exit_code == 0
    result = route(["query", "--json", "--explain", "-n", "200", "shipment tracking"], repo.path)
    assert result.exit_code == 0, result.stderr
    assert len(result.stdout.encode("utf-8")) <= MAX_ANSWER_BYTES + 1  # the document, then a newline
    doc = json.loads(result.stdout)
    assert doc["status"] == "routed" and doc["source"]["commit"] == repo.ref("refs/heads/main")
    full = route(["query", "--json", "-n", "200", "shipment tracking"], repo.path)  # the same rows, less signals
    assert 0 < len(doc["rows"]) < len(json.loads(full.stdout)["rows"]) + 1
    left = int(doc["notes"][-1].split()[0])
    assert left > 0 and doc["notes"][-1].startswith(f"{left} of {left + len(doc['rows'])} rows left out")


# --- the warm server's answers, in process ------------------------------------------------------------


def test_the_warm_server_pins_once_and_again_only_when_the_ref_or_head_moves(built, route):
    from gitroute.cli.mcp import ServerTools

    tools = ServerTools(str(built.path))
    try:
        first, _ = tools.call("query", {"text": "OpenMeteoClient"})
        tools.call("why", {"text": "why open-meteo"})
        tools.call("ask", {"text": "parse_forecast"})
        assert tools.warm.pins == 1
        built.commit({**SAMPLE_FILES, "docs/adr/0001-use-open-meteo.md": ADR, "src/sample/ship.py": "def ship():\n"
                      "    pass\n"}, "ship")
        behind, _ = tools.call("query", {"text": "OpenMeteoClient"})
        assert tools.warm.pins == 2 and behind["source"]["stale_by"] == 1  # HEAD moved: staleness is told
        assert route(["build", "-q"], built.path).exit_code == 0
        after, _ = tools.call("query", {"text": "ship"})
        assert tools.warm.pins == 3 and after["rows"][0]["path"] == "src/sample/ship.py"
        assert after["source"]["commit"] != first["source"]["commit"]
        tools.call("query", {"text": "ship"})
        assert tools.warm.pins == 3
    finally:
        tools.close()




@given(st.text(max_size=200), st.sets(st.sampled_from(sorted(set(EVERY_COMMAND)))))
def test_classify_never_raises_and_routes_only_to_available_commands(text, available):
    c = classify(text, EVIDENCE, tuple(available))
    assert all(r.command in available for r in c.routes)
    assert len({r.kind for r in c.routes}) == len(c.routes)
    assert all(r.reason for r in c.routes)


# --- a change question that spells its subject in words ---------------------------------------------------


def test_a_change_question_spelling_a_name_in_words_asks_impact_of_that_name():
    spelled = {"open meteo client": "OpenMeteoClient", "parse forecast": "parse_forecast"}
    evidence = Evidence(path_kind=PATHS.get, is_symbol=SYMBOLS.__contains__, symbol_named=spelled.get)
    for text, name in [("what breaks if I change the open meteo client", "OpenMeteoClient"),
                       ("who calls parse forecast?", "parse_forecast")]:
        classification = classify(text, evidence)
        assert [(r.kind, r.text) for r in classification.routes] == [("impact", name)], text
        assert any(f"spells the name '{name}'" in fact for fact in classification.facts)
    # words that spell no name: the whole question goes to impact, which says no_match
    assert classify("what breaks if I change the weather", evidence).routes[0].text == \
        "what breaks if I change the weather"


def test_ask_finds_the_name_a_change_question_spells_in_words(built, route):
    doc = ask_json(route, built, "what breaks if I change the open meteo client")
    assert doc["status"] == "routed", doc
    assert {row["path"] for row in doc["rows"]} >= {"src/sample/cli.py"}
    assert all(row["type"] == "impact" for row in doc["rows"])


@pytest.fixture
def qualified(make_repo, route):
    """Ruby owners, a C++ namespace, a PHP namespace: names a question writes with `::` or `\\`."""
    repo = make_repo("qualified")
    repo.commit({
        "lib/rack/lint.rb": "module Rack\n  class Lint\n    def check\n    end\n  end\nend\n",
        "lib/rack/app.rb": "module Rack\n  class App\n    def run\n      Lint.new.check\n    end\n  end\nend\n",
        "src/store.hpp": "namespace app {\nclass Store {\n public:\n  int size();\n};\n}\n",
        "src/store_size.cpp": '#include "store.hpp"\nnamespace app {\nint Store::size() { return 0; }\n}\n',
        "src/use.cpp": '#include "store.hpp"\nint count(app::Store &s) { return s.size(); }\n',
        "php/Handler/StreamHandler.php": "<?php\nnamespace Monolog\\Handler;\n\nclass StreamHandler\n{\n"
                                         "    public function write(): void\n    {\n    }\n}\n",
        "php/Logger.php": "<?php\nnamespace Monolog;\n\nuse Monolog\\Handler\\StreamHandler;\n\nclass Logger\n{\n"
                          "    public function log(): void\n    {\n        (new StreamHandler())->write();\n    }\n}\n",
    })
    assert route(["build", "-q"], repo.path).exit_code == 0
    return repo


@pytest.mark.parametrize("question, path, name", [
    ("where is Rack::Lint defined?", "lib/rack/lint.rb", "Rack.Lint"),
    ("where is app::Store defined?", "src/store.hpp", "Store"),
    ("where is lib/rack/lint.rb:Lint defined?", "lib/rack/lint.rb", "Rack.Lint"),  # path:symbol still filters
    ("where is Monolog\\Handler\\StreamHandler defined?", "php/Handler/StreamHandler.php", "StreamHandler"),
    ("where is \\Monolog\\Handler\\StreamHandler defined?", "php/Handler/StreamHandler.php", "StreamHandler"),
])
def test_ask_where_a_name_qualified_with_double_colons_is_defined(qualified, route, question, path, name):
    """The `::` of `Rack::Lint` is no `path:symbol` colon: the question was no_match, filtered to a path 'Rack:'.
    PHP's `Monolog\\Handler\\StreamHandler` was no name at all: the question went to plain words."""
    doc = ask_json(route, qualified, question)
    assert doc["status"] == "routed", doc
    assert (doc["rows"][0]["path"], doc["rows"][0]["name"]) == (path, name)


def test_ask_who_calls_a_php_method_named_with_its_namespace(qualified, route):
    doc = ask_json(route, qualified, "what calls Monolog\\Handler\\StreamHandler::write?")
    assert doc["status"] == "routed", doc
    assert (doc["rows"][0]["type"], doc["rows"][0]["path"]) == ("impact", "php/Logger.php")


def test_query_a_namespace_qualified_name_reads_it_without_the_namespace_and_says_so(qualified, route):
    result = route(["query", "--json", "app::Store"], qualified.path)
    doc = json.loads(result.stdout)
    assert (doc["rows"][0]["path"], doc["rows"][0]["name"]) == ("src/store.hpp", "Store")
    assert any("read 'app::Store' as 'Store'" in note for note in doc["notes"])
    missing = json.loads(route(["query", "--json", "app::Nothing"], qualified.path).stdout)
    assert missing["status"] == "no_match"



@pytest.mark.parametrize("name, places, asked", [
    ("app::Store::size", (("include/store.h", "Store.size"), ("include/store-inl.h", "Store.size")), "app::Store::size"),
    ("app::Store::size", (("include/store.h", "Store.size"),), "include/store.h:size"),
    ("Json.Linq.JToken.Parse", (("Linq/JToken.cs", "JToken.Parse"), ("Linq/JArray.cs", "JArray.Parse")),
     "Json.Linq.JToken.Parse"),
])
def test_impact_of_a_namespaced_name_keeps_its_owner_when_several_files_define_it(name, places, asked):
    """`app::Store::size` declared in a header and defined in another: impact is asked the name as written (it
    drops the namespace and keeps the owner, `Store.size`), not `size`, which any other `size` would answer."""
    evidence = Evidence(definitions=lambda n: places if n == name else ())
    routes = classify(f"who calls {name}?", evidence, EVERY_COMMAND).routes
    assert [(r.kind, r.text) for r in routes][:1] == [("impact", asked)]


@pytest.mark.parametrize("question, kind", [("who calls Context.JSON?", "impact"),
                                            ("where is Context.JSON defined?", "symbol")])
def test_a_name_whose_last_part_reads_as_an_extension_is_a_name_when_the_repository_defines_it(question, kind):
    """gin's `Context.JSON` is shaped like a file name (`.json`); no such file exists, the repository defines the
    name: the question was asked in plain words (impact was given the whole sentence)."""
    places = (("context.go", "Context.JSON"),)
    evidence = Evidence(definitions=lambda n: places if n == "Context.JSON" else ())
    routes = classify(question, evidence, EVERY_COMMAND).routes
    assert [(r.kind, r.text) for r in routes][:1] == [(kind, "Context.JSON")]
    # a file's base name no definition spells is still a file the question names
    assert classify("who calls config.json?", evidence, EVERY_COMMAND).routes[0].text != "config.json"


@pytest.mark.parametrize("question", ["which tests cover compute_total?", "where is compute_total tested?",
                                      "Are there any tests for compute_total?",
                                      "Is compute_total covered by any tests?"])
def test_which_tests_cover_a_name_asks_impact_with_its_tests_first(make_repo, route, question):
    repo = make_repo("tested")
    repo.commit({
        "app/core.py": "def compute_total(x):\n    return x\n",
        "app/service.py": "from app.core import compute_total\n\n\ndef serve():\n    return compute_total(1)\n",
        "tests/test_core.py": "from app.core import compute_total\n\n\ndef test_compute():\n    assert compute_total(2) == 2\n",
    })
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask_json(route, repo, "--explain", question)
    assert [r["command"] for r in doc["classification"]["routes"]][:1] == ["impact"]
    assert doc["rows"][0]["path"] == "tests/test_core.py" and "app/service.py" in [r["path"] for r in doc["rows"]]
    callers = ask_json(route, repo, "who calls compute_total?")  # what uses it: code first, as before
    assert [r["path"] for r in callers["rows"]][:2] == ["app/service.py", "tests/test_core.py"]


def test_who_calls_a_method_only_ambiguous_calls_reach_gets_those_callers_marked(make_repo, route):
    """`x.render()` on a receiver of unknown type could be either class's method: impact leaves such edges out,
    and ask answered "who calls Page.render?" with Page.render's own words; it now asks again with them included."""
    repo = make_repo("ambiguous")
    repo.commit({
        "app/page.py": "class Page:\n    def render(self):\n        return 'page'\n",
        "app/card.py": "class Card:\n    def render(self):\n        return 'card'\n",
        "app/show.py": "def show_all(items):\n    for item in items:\n        item.render()\n",
    })
    assert route(["build", "-q"], repo.path).exit_code == 0
    certain = json.loads(route(["impact", "--json", "Page.render"], repo.path).stdout)
    assert certain["rows"] == [] and certain["ambiguous_edges"]["left_out"] > 0, certain
    doc = ask_json(route, repo, "who calls Page.render?")
    assert doc["status"] == "routed", doc
    assert (doc["rows"][0]["type"], doc["rows"][0]["path"]) == ("impact", "app/show.py")
    assert "ambiguous" in doc["rows"][0]["resolution"]


@pytest.fixture
def paginated(make_repo, route):
    """A class and another class's member spelled alike: `Paginator` and `Sitemap.paginator` (django's shape)."""
    repo = make_repo("paginated")
    repo.commit({
        "core/paginator.py": "class Paginator:\n    def page(self, number):\n        return number\n",
        "core/sitemaps.py": "from core.paginator import Paginator\n\n\nclass Sitemap:\n    @property\n"
                            "    def paginator(self):\n        return Paginator()\n",
        "core/views.py": "def listing(sitemap):\n    return sitemap.paginator\n",
        "tests/test_pagination.py": "from core.paginator import Paginator\n\n\ndef test_first_page():\n"
                                    "    assert Paginator().page(1) == 1\n",
        "tests/test_sessions.py": "def test_session_cookie():\n    assert True\n",
        "core/sessions.py": "class SessionStore:\n    def load_session(self):\n        return {}\n",
    })
    assert route(["build", "-q"], repo.path).exit_code == 0
    return repo


def test_words_that_spell_a_class_and_a_member_name_the_class(paginated, route):
    """"the paginator" spells django's class Paginator and a sitemap's `paginator` property: ask walked the property."""
    doc = ask_json(route, paginated, "where is the paginator tested?")
    assert doc["status"] == "routed", doc
    assert (doc["rows"][0]["type"], doc["rows"][0]["path"]) == ("impact", "tests/test_pagination.py")


def test_a_question_that_says_tested_lifts_the_demotion_of_tests():
    from gitroute.rank import parse_question

    assert parse_question("where are sessions tested?").wants_secondary
    assert not parse_question("where are sessions stored?").wants_secondary


@pytest.mark.parametrize("question, kind, asked", [
    ("what happens if I change the router's handle method?", "impact", "proto.handle"),  # the owner is its folder
    ("who calls the Router's handle?", "impact", "proto.handle"),
    ("where is the application's handle function defined?", "symbol", "app.handle"),  # its file
    ("who calls the session's handle method?", "impact", "who calls the session's handle method?"),  # no owner fits
])
def test_a_member_named_after_its_owner_is_that_owners_member(question, kind, asked):
    """express defines `handle` twice: "the router's handle method" is lib/router/index.js's, and ask walked the
    name 'router' (a spelled word) and then asked in plain words."""
    places = (("lib/application.js", "app.handle"), ("lib/router/index.js", "proto.handle"))
    evidence = Evidence(definitions=lambda n: places if n == "handle" else ())
    routes = classify(question, evidence, EVERY_COMMAND).routes
    assert [(r.kind, r.text) for r in routes][:1] == [(kind, asked)]


@pytest.mark.parametrize("question, asked", [
    ("where is QuerySet.filter?", "QuerySet.filter"),
    ("Where's the QuerySet class?", "QuerySet"),
    ("where can I find QuerySet.filter", "QuerySet.filter"),
])
def test_where_is_a_name_alone_asks_where_it_is_defined(question, asked):
    """"where is QuerySet.filter?" went to plain words, which ranked QuerySet._has_filters first on django."""
    places = {"QuerySet": (("db/query.py", "QuerySet"),), "QuerySet.filter": (("db/query.py", "QuerySet.filter"),)}
    evidence = Evidence(definitions=lambda n: places.get(n, ()), is_symbol=lambda n: n in places)
    routes = classify(question, evidence, EVERY_COMMAND).routes
    assert [(r.kind, r.text) for r in routes][:1] == [("symbol", asked)]
    # a plain word there names no definition: the question stays in plain words
    assert classify("where is routing?", evidence, EVERY_COMMAND).routes[0].kind == "meaning"


@pytest.mark.parametrize("question", [
    "The public header only forward-declares QuerySet; where is its full definition with the actual fields?",
    "where's the declaration of QuerySet", "QuerySet: where is its definition?",
])
def test_where_a_names_definition_is_asks_where_it_is_defined(question):
    """lz4's "… forward-declares struct LZ4_writeFile_s; where is its full definition …" went to plain words, which
    ranked the header first and the struct's definition eighth."""
    places = {"QuerySet": (("db/query.py", "QuerySet"),)}
    evidence = Evidence(definitions=lambda n: places.get(n, ()), is_symbol=lambda n: n in places)
    assert [(r.kind, r.text) for r in classify(question, evidence, EVERY_COMMAND).routes][:1] == [("symbol", "QuerySet")]


@pytest.mark.parametrize("question", [
    "Which file declares the supported Node.js engine versions and the test command?",
    "which Python versions are supported?", "What Go releases does this module support?",
    "where is the minimum Rust version set?",
])
def test_the_runtime_versions_a_package_supports_ask_wiring(question):
    """The runtimes a package supports are its manifest's (package.json's engines, pyproject's requires-python, go.mod):
    yargs' "which file declares the supported Node.js engine versions, …" went to plain words, and no_match."""
    assert classify(question, EVIDENCE, EVERY_COMMAND).routes[0].kind == "wiring"
    # a version the code handles is no runtime the package supports
    assert classify("which function parses the supported protocol versions?", EVIDENCE,
                    EVERY_COMMAND).routes[0].kind != "wiring"


@pytest.mark.parametrize("question", [
    "Which file declares which bundle gets loaded for browser and Node consumers, including the require versus import "
    "entry points and the type definitions?",
    "which file specifies the package's conditional exports?", "which file declares the typings?",
])
def test_what_a_manifest_declares_for_the_package_users_asks_wiring(question):
    """axios: "which file declares which bundle gets loaded for browser … consumers, including the require versus import
    entry points …?" went to plain words, and no_match; package.json's exports map says it."""
    assert classify(question, EVIDENCE, EVERY_COMMAND).routes[0].kind == "wiring"
    # an entry point found in the code is no manifest's
    assert classify("where is the entry point of the cli?", EVIDENCE, EVERY_COMMAND).routes[0].kind != "wiring"


def test_a_verb_of_deciding_before_a_clause_asking_which_kind_of_file_asks_where():
    """bleach: "The clean docs have a section on using functions to decide which attributes survive, per tag or
    globally; which source file actually calls those callables while sanitizing?" asked why ('decide'): "which file"
    asked where, "which source file" did not."""
    question = ("The docs have a section on using functions to decide which attributes survive; which source file "
                "actually calls those callables?")
    assert classify(question, EVIDENCE, EVERY_COMMAND).routes[0].kind != "decision"
    assert classify("Why did the maintainers decide to drop the callable attributes?", EVIDENCE,
                    EVERY_COMMAND).routes[0].kind == "decision"


@pytest.mark.parametrize("question", [
    "Which file sets the minimum test coverage percentage that makes the pytest run fail?",  # arrow: tox.ini
    "Which file makes the test command rerun the timezone tests with TZ set before the full suite?",  # Day.js
    "Which build file sets the shared library's libtool version info?",  # libconfig: lib/Makefile.am
    "Which file defines the build script that wipes dist and compiles the sources?",  # Ajv: package.json
])
def test_a_file_named_by_the_project_command_or_tool_setting_it_holds_asks_wiring(question):
    assert classify(question, EVIDENCE, EVERY_COMMAND).routes[0].kind == "wiring"
    assert classify("Which file sets the timezone of a parsed date?", EVIDENCE, EVERY_COMMAND).routes[0].kind \
        != "wiring"


def test_a_page_that_gives_an_overview_is_asked_of_the_documents():
    # Day.js: "Can you point me to the part of the documentation that gives a quick overview of parsing, displaying,
    # … dates?" went to plain words, and no_match
    question = "Can you point me to the part of the documentation that gives a quick overview of parsing dates?"
    assert classify(question, EVIDENCE, EVERY_COMMAND).routes[0].kind == "docs"
    # node-postgres: "… which part of the documentation points me to the causes and fixes for common errors …?"
    pointing = "which part of the documentation points me to the causes of common connection errors?"
    assert classify(pointing, EVIDENCE, EVERY_COMMAND).routes[0].kind == "docs"


def test_a_change_question_is_about_the_name_the_code_defines_not_one_only_benchmarks_define():
    """jsonschema: "I'm planning to make validator_for raise instead of warning on an unknown $schema; which callers
    outside its own module would be affected?" asked impact about `$schema`, a key only its benchmarks define."""
    places = {"validator_for": (("pkg/validators.py", "validator_for"),),
              "$schema": (("pkg/benchmarks/contains.py", "$schema"),)}
    evidence = Evidence(definitions=lambda n: places.get(n, ()), is_symbol=lambda n: n in places)
    question = ("I'm planning to make validator_for raise instead of warning on an unknown $schema; which callers "
                "outside its own module would be affected?")
    assert [(r.kind, r.text) for r in classify(question, evidence, EVERY_COMMAND).routes][:1] == [
        ("impact", "validator_for")]


def test_which_thing_to_use_is_a_choice_not_what_uses_something():
    """urfave/cli: "How does the program decide which process exit status to use when …?" read "status to use" as a
    plural and its verb (what uses something) and asked impact with the whole sentence."""
    question = ("How does the program decide which process exit status to use when an action returns several errors "
                "bundled together, and where is that logic written?")
    assert classify(question, EVIDENCE, EVERY_COMMAND).routes[0].kind != "impact"
    assert classify("which handlers use the session?", EVIDENCE, EVERY_COMMAND).routes[0].kind == "impact"


@pytest.mark.parametrize("question", [
    "how do I run the test suite?", "How can we run the integration tests", "how to build the docs",
    "how do I compile the library from source?", "how are the tests run?", "which command runs the tests?",
    "what build tool bundles the package?", "what runs the phpunit tests?", "how do I run the browser tests",
])
def test_how_to_run_the_projects_own_tasks_asks_wiring(question):
    """Running the repository's tests, build or release is its wiring (workflows, manifests, build files); these
    went to plain words, which found code sharing the words 'run' or 'build', or nothing."""
    routes = classify(question, EVIDENCE, EVERY_COMMAND).routes
    assert routes[0].kind == "wiring", routes
    # running or building something the code does is no task of the repository's
    assert classify("how does the app run a request handler?", EVIDENCE, EVERY_COMMAND).routes[0].kind != "wiring"


@pytest.mark.parametrize("question", ["does anything still use OpenMeteoClient?", "is OpenMeteoClient used anywhere?",
                                      "Is anyone calling OpenMeteoClient", "do any modules import OpenMeteoClient?"])
def test_whether_anything_uses_a_name_asks_impact(question):
    """These went to plain words, which answered with the name's own definition."""
    routes = classify(question, EVIDENCE, EVERY_COMMAND).routes
    assert [(r.kind, r.text) for r in routes][:1] == [("impact", "OpenMeteoClient")]


def test_where_is_the_code_of_a_document_named_in_words_asks_code():
    evidence = Evidence(path_kind=PATHS.get, document_titled=lambda words: "docs/weather.md" if words == "weather"
                        else None, document_named=lambda text: "docs/weather.md" if text == "weather" else None)
    routes = classify("I'm reading the weather page in the docs; where's the code?", evidence, EVERY_COMMAND).routes
    assert routes[0].kind == "code", routes


@pytest.mark.parametrize("question, missing", [
    ("is it safe to delete src/sample/six.py?", "src/sample/six.py"),
    ("who calls src/sample/six.py:iteritems?", "src/sample/six.py"),
    ("where is src/sample/six.py documented?", "src/sample/six.py"),
])
def test_a_file_the_commit_lacks_is_missing_not_a_word_spelled_as_a_name(question, missing):
    """"is it safe to delete django/utils/six.py?" (six is gone from django) walked the word 'safe', a template
    filter, spelled as a name; the file is what is asked about, and the pinned commit has none."""
    evidence = Evidence(path_kind=PATHS.get, is_symbol=SYMBOLS.__contains__, symbol_named=lambda w: "safe"
                        if w == "safe" else None)
    classification = classify(question, evidence, EVERY_COMMAND)
    assert not classification.routes and list(classification.undefined) == [missing], classification


def test_ask_about_a_file_the_commit_lacks_says_so(built, route):
    doc = ask_json(route, built, "is it safe to delete src/sample/six.py?")
    assert doc["status"] == "no_match"
    assert "the pinned commit has no file 'src/sample/six.py'" in doc["notes"]


@pytest.mark.parametrize("question, name", [
    ("which tests cover the session interface?", "SessionInterface"),  # 'interface' was dropped as a kind word
    ("which tests cover the HTML tokeniser?", "Tokeniser"),  # one word alone: the head of the phrase, not 'HTML'
    ("what breaks if I change the Blueprint class?", "Blueprint"),  # a kind word is never the name alone
])
def test_a_name_spelled_in_words_keeps_its_kind_word_and_reads_the_head_word_first(question, name):
    spelled = {"session interface": "SessionInterface", "session": "session", "html": "html",
               "tokeniser": "Tokeniser", "blueprint": "Blueprint", "class": "ClassRegistry"}
    evidence = Evidence(symbol_named=lambda words: spelled.get(words.lower()))
    routes = classify(question, evidence, EVERY_COMMAND).routes
    assert [(r.kind, r.text) for r in routes][:1] == [("impact", name)]


@pytest.mark.parametrize("question", [
    "When a forecast points back to itself, where does the client notice the cycle and decide to throw or skip it?",
    "when I parse raw bytes without a charset, where does it sniff a byte order mark to decide the encoding?",
])
def test_where_after_a_setting_asks_a_place_though_it_says_decide(question):
    """A verb of deciding reads as a decision only when the question does not ask where: the "where" of a clause
    after a setting counts as one at the start does."""
    routes = classify(question, EVIDENCE, EVERY_COMMAND).routes
    assert routes[0].kind != "decision", routes
    assert classify("why did we decide to throw on a cycle?", EVIDENCE, EVERY_COMMAND).routes[0].kind == "decision"


def test_plainly_quoted_values_are_no_missing_names():
    """"like 'extended', 'simple' and false": values in plain quotes, which the repository defines no symbol of, made
    the docs question no_match ("the repository defines no 'extended', 'simple'"); backticks still mark a name."""
    evidence = Evidence(path_kind=PATHS.get, is_symbol=SYMBOLS.__contains__, definitions=lambda n: ())
    question = "Which doc lists the values the parser setting accepts, like 'extended', 'simple' and false?"
    classification = classify(question, evidence, EVERY_COMMAND)
    assert classification.routes and not classification.undefined, classification
    assert classification.routes[0].kind == "docs"
    marked = classify("Which doc lists the values `extended_parser` accepts?", evidence, EVERY_COMMAND)
    assert list(marked.undefined) == ["extended_parser"]


@pytest.mark.parametrize("question", ["explain how rows are evaluated lazily", "Can you explain how rows are evaluated "
                                      "lazily?", "please describe how rows are evaluated lazily"])
def test_a_leading_request_verb_is_not_a_word_of_the_question(make_repo, route, question):
    # `QuerySet.explain` and `Table.describe` share the request's verb, not what it asks about
    repo = make_repo("request")
    repo.commit({
        "query.py": "class QuerySet:\n    def explain(self):\n        '''Explain the plan.'''\n        return 1\n\n"
                    "class Table:\n    def describe(self):\n        return 2\n",
        "lazy.py": "def fetch_rows(source):\n    '''Rows are evaluated lazily: nothing is read until iterated.'''\n"
                   "    yield from source\n",
    }, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = json.loads(route(["ask", "--json", question], repo.path).stdout)
    assert doc["rows"] and doc["rows"][0]["path"] == "lazy.py", doc["rows"][:3]
    assert all(row.get("name") not in ("QuerySet.explain", "Table.describe") for row in doc["rows"]), doc["rows"]


_MAPS = {  # "code" there asks for code: `read_code_file` shares the word, not what is asked about, and ranks below the
    # `read_file` that holds as many of the question's words without it (above it when "code" counted)
    "maps.py": "def load_map_file(path):\n    \"\"\"Reads the map file at path.\"\"\"\n    return open(path).read()\n",
    "codes.py": "def read_code_file(code):\n    return code\n",
    "readers.py": "def read_file(path):\n    return path\n",
}
_DUMPS = {  # "function" there is the kind of what is asked for: `get_func` and `FunctionOutput` share the word only
    "dump.py": "def dump_file(value, path):\n    \"\"\"Writes a JSON value to a file.\"\"\"\n    return path\n",
    "funcs.py": "def get_func():\n    return 1\n\n\nclass FunctionOutput:\n    pass\n\n\ndef function_file_out():\n"
                "    return 2\n",
}


@pytest.mark.parametrize("files, question, first", [
    (_MAPS, "where is the code that reads the map file", ["load_map_file", "read_file", "read_code_file", "maps.py"]),
    (_MAPS, "Take me to the code that reads the map file", ["load_map_file", "read_file", "read_code_file", "maps.py"]),
    (_MAPS, "find the code for reading the map file", ["load_map_file", "read_file", "read_code_file", "maps.py"]),
    (_DUMPS, "which function writes a json value out to a file", ["dump_file", "function_file_out"]),
    (_DUMPS, "What function writes a JSON value out to a file?", ["dump_file", "function_file_out"]),
])
def test_the_code_or_the_kind_asked_for_is_not_a_word_of_the_question(make_repo, route, files, question, first):
    repo = make_repo("asked-for")
    repo.commit(files, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = json.loads(route(["ask", "--json", question], repo.path).stdout)
    assert [row["name"] for row in doc["rows"]] == first, doc["rows"]


@pytest.mark.parametrize("text, rest", [
    ("explain how rows are evaluated", "how rows are evaluated"), ("Can you show me where it is", "where it is"),
    ("please describe the cache framework", "the cache framework"), ("explain", "explain"),
    ("explain QuerySet", "explain QuerySet"), ("where is explain defined", "where is explain defined"),
    # the code asked for is named "code"; a code the question is about (a status code, code points) is a word
    ("where is the code that reads the mapfile", "where is the that reads the mapfile"),
    ("Take me to the code behind docs/x.md", "Take me to the behind docs/x.md"),
    ("find the code for them", "the for them"), ("Where's the code doing that?", "Where's the doing that?"),
    ("which function sets the status code for a response", "which sets the status code for a response"),
    ("where are code points decoded", "where are code points decoded"), ("the code", "the code"),
    ("where is the code in charge", "where is the code in charge"),
    # the kind a "which" or "what" asks for, before its verb; a kind word that is part of a name stays
    ("which function writes a json value", "which writes a json value"), ("Which file is it in?", "Which is it in?"),
    ("what module draws the bar", "what draws the bar"), ("which file writer flushes", "which file writer flushes"),
    ("which files use it", "which files use it"), ("which class handles x", "which handles x"),
    ("the function that writes", "the function that writes"),
    ("which type hints are supported", "which type hints are supported"),
    ("what function pointers does it keep", "what function pointers does it keep"),
])
def test_without_request_drops_only_a_leading_request_verb_with_words_after_it(text, rest):
    from gitroute.text import without_request

    assert without_request(text) == rest


@pytest.mark.parametrize("question, kind, asked", [
    # a folder beside a name says where the name is: the name is what is asked about
    ("I'm changing fuzzy.NewSymbolMatcher in internal/fuzzy; who calls it and which tests cover it?", "impact",
     "NewSymbolMatcher"),
    # words between the name and "used anywhere", and "outside" for where
    ("is _AnnotationExtractor from attr/_compat.py used anywhere outside that module?", "impact",
     "_AnnotationExtractor"),
    ("which page argues why you'd pick attrs over Pydantic or plain data classes?", "docs", None),
    # a folder the question is about, a name after it: the folder is asked
    ("What depends on the internal/json package if I drop the go_json build option?", "impact", "internal/json"),
])
def test_sentences_from_round_25s_blind_set_ask_the_kind_they_ask_for(question, kind, asked):
    places = {"fuzzy.NewSymbolMatcher": (("internal/fuzzy/symbol.go", "NewSymbolMatcher"),),
              "_AnnotationExtractor": (("src/attr/_compat.py", "_AnnotationExtractor"),),
              "go_json": (("internal/json/go_json.go", "go_json"),)}
    evidence = Evidence(path_kind={"internal/fuzzy": "tree", "src/attr/_compat.py": "blob", "internal/json": "tree"}.get,
                        definitions=lambda n: places.get(n, ()), is_symbol=lambda n: n in places)
    routes = classify(question, evidence, EVERY_COMMAND).routes
    assert routes[0].kind == kind, routes
    if asked:
        assert asked in routes[0].text, routes


@pytest.mark.parametrize("question, wiring", [
    ("Which handler publishes log records to a Kafka topic?", False),
    ("how does a blog author publish a new entry", False),
    ("Where is the console script declared for the published package?", True),
    ("what runs before the package gets published to npm?", True),
    ("which workflow publishes the docs site", True),
    # Addressable: the Gemfile adds `idn-ruby` unless IDNA_MODE is pure
    ("Which file adds the native idn-ruby gem to the bundle and skips it in pure-Ruby mode?", True),
    ("What file lists the dev dependencies used for linting?", True),
    ("Which file adds the crate's optional serde dependency?", True),
    ("Which file adds a header to every response?", False),
    ("Which function adds the package name to the log line?", False),
    # koa: package.json's exports map and the build script that generates the ES module wrapper
    ("Which file declares how the ES module wrapper gets generated and which entry point is served to import "
     "versus require consumers?", True),
    ("Which file declares the entry points for browser and Node consumers?", True),
    # pkg/errors: its Makefile runs misspell with the British locale over *.md and *.go; code runs checks too
    ("Which file sets up the spelling check over the markdown and Go sources that fails the build?", True),
    ("Which config file configures the linter for the tests folder?", True),
    ("Which file runs the bounds check on the input buffer?", False),
    # session 53's strangers: a tool told by a file, named after a word or two; a project command of two words; a
    # coverage gate; an exports map
    ("Which config file tells the JSDoc API documentation generator to enable the markdown plugin?", True),
    ("Which file tells browser bundlers like webpack to replace the Node stream module with nothing?", True),
    ("Which config file tells the automated dependency-update bot to group all non-major bumps together?", True),
    ("Which file defines the npm test command that generates a TLS certificate first?", True),
    ("Which file sets the minimum line, branch and function coverage percentages that nyc enforces?", True),
    ("Which file maps the sync and stream subpath entry points to their ESM sources and CommonJS builds?", True),
    ("Which file tells the user how the parser recovers from an error?", False),
    ("Which function maps the entry points of a route table to their handlers?", False),
    # session 54's strangers: a test command of a kind, the tools a check installs, deep imports mapped to builds
    ("Which file configures the unit test command so that jest always runs with the timezone forced to UTC?", True),
    ("Which file pins the linting tools, flake8 and its docstring plugin, that the code-quality check installs?",
     True),
    ("Which file maps the old deep imports like nodemailer/lib/smtp-transport onto the compiled ES module builds?",
     True),
    ("Which file declares the rollup build script that produces the CommonJS bundles in dist?", True),
    ("SpotBugs complains about a field in the card validator; which file in the build setup suppresses that warning?",
     True),
    ("Which file in the request pipeline sets the header?", False),
    ("Which file configures the unit conversion table for sizes?", False),
    ("Which function maps deep imports of a module to their resolved paths?", False),
])
def test_publishing_adding_a_dependency_declaring_an_entry_or_setting_up_a_check_is_wiring(question, wiring):
    """Wiring only for a package or a release, a manifest or a build's check: not for what code does."""
    assert (classify(question, EVIDENCE, EVERY_COMMAND).routes[0].kind == "wiring") is wiring


def test_a_language_prose_writes_camel_cased_is_a_word_not_a_missing_name():
    # eventemitter3: "How does the library let TypeScript users describe a map from event names …, and where is that
    # declared?" said "the repository defines no 'TypeScript'"
    found = classify("How does the library let TypeScript users describe a map from event names to handler "
                     "parameters, and where is that declared?", EVIDENCE, EVERY_COMMAND)
    assert found.routes and found.routes[0].kind == "meaning" and not found.undefined, found
    # written as code it is still a name: `TypeScript` quoted
    quoted = classify("where is `TypeScript` declared?", EVIDENCE, EVERY_COMMAND)
    assert (quoted.routes[0].kind, quoted.routes[0].text) == ("symbol", "TypeScript"), quoted


@pytest.mark.parametrize("question, impact", [
    # pyee: what lets you wrap another emitter is a place, not who wraps something
    ("Which part lets me wrap an existing third-party emitter so that emitting on either one runs both handlers?",
     False),
    ("Which handlers wrap parse_forecast?", True),
])
def test_which_x_lets_me_verb_asks_for_a_place_not_its_users(question, impact):
    assert (classify(question, EVIDENCE, EVERY_COMMAND).routes[0].kind == "impact") is impact


def test_copied_alone_is_what_a_tool_does_not_how_copies_are_kept():
    question = "I need to squash a Go package into one file so it can be copied into another package; which tool?"
    assert classify(question, EVIDENCE, EVERY_COMMAND).routes[0].kind != "wiring"
    assert classify("is the widget template copied anywhere?", EVIDENCE, EVERY_COMMAND).routes[0].kind == "wiring"
    # yajl: output "byte-for-byte reproducible between runs" is what the generator does; a copy byte for byte is kept
    question = "How do I get the generator to sort map keys so that the emitted JSON is byte-for-byte reproducible?"
    assert classify(question, EVIDENCE, EVERY_COMMAND).routes[0].kind != "wiring"
    assert classify("Is this file the same byte for byte as the vendored one?", EVIDENCE, EVERY_COMMAND).routes[0].kind \
        == "wiring"


def test_a_docs_question_whose_docs_route_finds_nothing_shows_document_sections_before_other_kinds(make_repo, route):
    # "published" also asks the wiring, which answers with pyproject.toml; the question asks for a document
    repo = make_repo("release-doc")
    repo.commit({
        "pyproject.toml": '[project]\nname = "shop"\nversion = "1.0"\n# each new release is published to PyPI\n',
        "docs/RELEASE.md": ("# Release process\n\nEach release is published to PyPI by the release workflow with trusted"
                            " publishing: tag the commit, then approve the release environment.\n"),
        "docs/usage.md": "# Usage\n\nImport the shop and call checkout.\n",
        "shop/__init__.py": "def checkout():\n    return 1\n",
    }, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask_json(route, repo, "--explain", "Is there a doc on how a new release gets published to PyPI?")
    kinds = [(r["kind"], r["command"]) for r in doc["classification"]["routes"]]
    assert kinds[:2] == [("docs", "docs"), ("docs", "why")] and ("wiring", "wiring") in kinds, kinds
    assert doc["rows"][0]["path"] == "docs/RELEASE.md", doc["rows"][:3]


def test_a_docs_question_that_says_a_sections_whole_heading_is_answered_by_it(make_repo, route):
    # gorilla/handlers: "Where in the documentation does it say what license this middleware package is distributed
    # under?" was no_match: § License holds one word of the question, and the sections' rule wants more
    repo = make_repo("headings")
    repo.commit({
        "README.md": "# handlers\n\nMiddleware for net/http servers.\n\n## Installation and Docs\n\n"
                     "Install it with go get; full documentation is on pkg.go.dev.\n\n## Example\n\n"
                     "Wrap the router.\n\n## License\n\nBSD licensed. See the LICENSE file for details.\n",
        "handlers.go": "package handlers\n\n// Logging logs each request.\nfunc Logging() {}\n",
    }, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask_json(route, repo, "Where in the documentation does it say what license this middleware package is "
                                "distributed under?")
    assert (doc["rows"][0]["path"], doc["rows"][0]["name"]) == ("README.md", "License"), doc
    doc = ask_json(route, repo, "Which part of the documentation tells me how to install this package and where "
                                "the full API documentation is hosted?")
    assert (doc["rows"][0]["path"], doc["rows"][0]["name"]) == ("README.md", "Installation and Docs"), doc
    # `why` asked alone (a decision question) still wants the section's words: a heading it says is no reason
    why = json.loads(route(["why", "--json", "what license is this middleware package distributed under?"],
                          repo.path).stdout)
    assert why["status"] == "no_match", why


def test_a_name_far_after_a_docs_phrase_does_not_stop_the_docs_route_a_name_right_after_it_does():
    nothing = Evidence(definitions=lambda name: ())  # the repository defines neither name
    far = classify("Is there a doc on how a new release of the library gets published to PyPI?", nothing,
                   EVERY_COMMAND)
    assert far.routes[0].kind == "docs" and "PyPI" in far.routes[0].text, far
    near = classify("Where is `RequestThrottler` documented? I need its options.", nothing, EVERY_COMMAND)
    assert not near.routes and list(near.undefined) == ["RequestThrottler"], near
    # a name spelled as code is what a docs question asks about however far after its phrase
    coded = classify("Which section of the API reference covers json_object_merge_deep?", nothing, EVERY_COMMAND)
    assert not coded.routes and list(coded.undefined) == ["json_object_merge_deep"], coded
    # ... unless the repository's words hold it (scipy's `curve_fit`, named beside the project's own `curvefit`):
    # the docs index then says whether a document names it
    worded = Evidence(definitions=lambda name: (), is_word=lambda name: name == "curve_fit")
    named = classify("which doc explains curvefit for fitting a function with scipy's curve_fit?", worded,
                     EVERY_COMMAND)
    assert named.routes[0].kind == "docs" and named.routes[0].text == "curve_fit", named


def test_a_code_name_said_in_passing_that_a_document_writes_leaves_the_sections_to_answer(make_repo, route):
    # Redis: "Which section of the docs explains how to build so that the CPU's own instruction clock is used as the
    # monotonic time source instead of clock_gettime?" said no_match: libc's `clock_gettime` is called, not defined,
    # yet the README writes it in the very section asked for
    repo = make_repo("clock")
    repo.commit({
        "src/monotonic.c": "#include <time.h>\n\nlong now(void) {\n    struct timespec ts;\n"
                           "    clock_gettime(CLOCK_MONOTONIC, &ts);\n    return ts.tv_sec;\n}\n",
        "README.md": "# Clocks\n\n## Monotonic clock\n\nBy default the build uses the POSIX clock_gettime function as "
                     "the monotonic clock source; the processor's own instruction clock is faster.\n\n## Usage\n\n"
                     "Run the server.\n",
    }, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask_json(route, repo, "Which section of the docs explains how to build so that the processor's own "
                                "instruction clock is the monotonic time source instead of clock_gettime?")
    assert doc["status"] == "routed" and (doc["rows"][0]["path"], doc["rows"][0]["name"]) == ("README.md",
                                                                                             "Monotonic clock")
    # a name no document writes is still no_match
    assert ask_json(route, repo, "Which section of the docs covers json_object_merge_deep?")["status"] == "no_match"


def test_option_names_a_document_writes_in_an_example_leave_the_sections_to_answer(make_repo, route):
    # markdown-it: "Where in the docs is the full list of constructor options with their defaults, like breaks,
    # xhtmlOut, langPrefix and quotes …?" said no_match: the options are keys of an object, no name the code defines,
    # and the README writes them in a code block, whose words the sections hold split at their humps
    repo = make_repo("options")
    repo.commit({
        "lib/presets/default.mjs": "export default {\n  options: {\n    xhtmlOut: false,\n    breaks: false,\n"
                                   "    langPrefix: 'language-'\n  }\n}\n",
        "lib/index.mjs": "export default function markup (presetName, options) {\n  return options\n}\n",
        "README.md": "# markup\n\n## Install\n\nnpm install markup\n\n## Init with presets and options\n\n"
                     "Presets define combinations of active rules and options.\n\n```js\n"
                     "// full options list (defaults)\nconst md = markup({\n  xhtmlOut: false,\n  breaks: false,\n"
                     "  langPrefix: 'language-'\n})\n```\n\n## License\n\nMIT\n",
    }, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask_json(route, repo, "Where in the docs is the full list of constructor options with their defaults, "
                                "like breaks, xhtmlOut, langPrefix and quotes?")
    assert doc["status"] == "routed" and (doc["rows"][0]["path"], doc["rows"][0]["name"]) == (
        "README.md", "Init with presets and options")
    # a name spelled as code that no document writes is still no_match
    assert ask_json(route, repo, "Where in the docs is the full list of options, like breaks and "
                                 "maxNestingDepth?")["status"] == "no_match"


def test_a_build_question_gets_the_build_files_before_the_copies_its_words_also_name(make_repo, route):
    # Ajv: "Which file defines the build script that wipes dist, compiles the TypeScript sources and copies the JSON
    # meta-schemas into the output folder?" listed twenty copies of lib/refs/*.json in dist/ (their paths hold "dist",
    # "json", "meta", "schema") before package.json; a copies question still gets the copies
    schema = ('{"$id": "meta", "type": "object", "properties": {"name": {"type": "string"}, '
              '"size": {"type": "number"}}}\n')
    repo = make_repo("copies")
    repo.commit({
        "package.json": '{"name": "v", "version": "1.0.0", "scripts": {"build": "rm -rf dist && tsc && cp -r lib/refs '
                        'dist"}}\n',
        "lib/index.ts": "export function validate(x: unknown): boolean {\n  return x !== null\n}\n",
        **{f"{top}/refs/meta/{name}.json": schema.replace("meta", name) for top in ("lib", "dist")
           for name in ("core", "format", "content")},
    }, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask_json(route, repo, "Which file defines the build script that wipes dist, compiles the TypeScript "
                                "sources and copies the JSON meta-schemas into the output folder?")
    assert doc["rows"][0]["path"] == "package.json", [r["path"] for r in doc["rows"][:4]]
    copies = ask_json(route, repo, "where are the identical copies of the meta json files?")
    assert copies["rows"][0]["kind"] == "contract", [(r["path"], r["kind"]) for r in copies["rows"][:4]]


def test_a_build_question_gets_each_file_once(make_repo, route):
    # arrow: "Which file sets the minimum test coverage percentage that makes the pytest run fail …?" listed its
    # workflow four times (an action row each, all in its `test` job) before tox.ini, sixth
    repo = make_repo("coverage")
    steps = "".join(f"      - uses: actions/{a}@v4\n" for a in ("checkout", "cache", "setup-python", "upload-artifact"))
    repo.commit({
        ".github/workflows/ci.yml": f"name: ci\non: push\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n{steps}"
                                    "      - run: tox\n",
        "tox.ini": "[tox]\nenv_list = py\n\n[pytest]\naddopts = -v --cov=app --cov-fail-under=99\n",
        "app/__init__.py": "def run():\n    return 1\n",
    }, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask_json(route, repo, "Which file sets the minimum test coverage that makes the pytest run fail?")
    wiring = [r["path"] for r in doc["rows"] if r["type"] == "wiring"]
    assert len(wiring) == len(set(wiring)) and "tox.ini" in wiring[:2], wiring


def test_merged_answers_show_one_definition_once_however_each_route_names_it():
    from gitroute.ask import Route, merge_answers
    from gitroute.model import Answer, Row

    symbol = Answer("routed", None, (Row("src/schemas.ts", 51, "ZodType.toJSONSchema", "method", 130.4),
                                     Row("src/processors.ts", 882, "toJSONSchema", "function", 125.6)))
    impact = Answer("routed", None, (Row("src/schemas.ts", 51, "toJSONSchema", "method", 0.0),
                                     Row("src/processors.ts", 878, "toJSONSchema", "function", 0.0)))
    merged = merge_answers([(Route("symbol", "query", "toJSONSchema", ""), symbol),
                            (Route("impact", "impact", "toJSONSchema", ""), impact)], 10, None)
    assert [(r.path, r.line) for r in merged.rows] == [("src/schemas.ts", 51), ("src/processors.ts", 878),
                                                      ("src/processors.ts", 882)]


@pytest.mark.parametrize("question", ["I want to change what parse_forecast(0) does; who calls it?",
                                      "who calls parse_forecast(data, strict=True)?"])
def test_a_call_s_arguments_do_not_hide_the_name_called(question):
    """"json_object_seed(0)" was no name: the impact route was asked the whole sentence and found nothing."""
    assert [(r.kind, r.text) for r in classify(question, EVIDENCE, EVERY_COMMAND).routes][:1] == [
        ("impact", "parse_forecast")]


def test_the_tutorial_in_lower_case_names_the_document_whose_path_ends_in_it():
    named = {"tutorial": "doc/tutorial.rst"}
    evidence = Evidence(path_kind=PATHS.get, is_symbol=SYMBOLS.__contains__, document_named=named.get)
    question = "The tutorial builds a little program that lists commits; which source file is that program?"
    assert [(r.kind, r.text) for r in classify(question, evidence, EVERY_COMMAND).routes][:1] == [
        ("code", "doc/tutorial.rst")]
    # a tutorial the repository has no document of is only a word
    assert "doc/tutorial.rst" not in [r.text for r in classify(question, EVIDENCE, EVERY_COMMAND).routes]


def test_a_where_phrase_that_describes_its_subject_is_not_about_a_name_said_before_it():
    """"With JSON_ENSURE_ASCII set, where are non-ASCII characters written?" asked where the flag is defined."""
    described = classify("With OpenMeteoClient set up, where are the forecasts written to disk?", EVIDENCE,
                         EVERY_COMMAND).routes
    assert described[0].kind == "meaning", described
    for question in ("OpenMeteoClient: where is it defined?", "OpenMeteoClient - where does that live?"):
        routes = classify(question, EVIDENCE, EVERY_COMMAND).routes
        assert [(r.kind, r.text) for r in routes][:1] == [("symbol", "OpenMeteoClient")], question


@pytest.mark.parametrize("question, kind", [
    ("Where is the weather module's OpenMeteoClient class defined, the one the CLI builds?", "symbol"),
    ("is there a page listing the keys every forecast carries?", "docs"),
    ("Which Cloud Build config builds the server and runs the integration tests against it?", "wiring"),
    ("Which script packs the NuGet package?", "wiring"),
])
def test_round_28_phrasings_ask_their_kind(question, kind):
    assert classify(question, EVIDENCE, EVERY_COMMAND).routes[0].kind == kind


def test_a_word_that_names_something_elsewhere_is_not_a_name_in_the_file_after_it():
    """"the Paginator constructor's signature in django/core/paginator.py" asked impact of
    `paginator.py:signature` (`Signer.signature` is a method elsewhere): nothing; the file is what it is about."""
    places = {"signature": (("src/sample/signing.py", "Signer.signature"),), "forecast": (("src/sample/weather.py",
                                                                                         "forecast"),)}
    evidence = Evidence(path_kind=PATHS.get, is_symbol=lambda n: n in places, definitions=lambda n: places.get(n, ()))
    routes = classify("If I change the constructor's signature in src/sample/weather.py, what breaks?", evidence,
                      EVERY_COMMAND).routes
    assert [(r.kind, r.text) for r in routes][:1] == [("impact", "src/sample/weather.py")]
    routes = classify("If I change forecast in src/sample/weather.py, what breaks?", evidence, EVERY_COMMAND).routes
    assert [(r.kind, r.text) for r in routes][:1] == [("impact", "src/sample/weather.py:forecast")]


@pytest.fixture
def spelled(make_repo, route):
    """Names a question may spell in words, joined in every way: snake_case, one word, CamelCase, a joined token."""
    repo = make_repo("spelled")
    repo.commit({
        "src/cache.py": "def page_cache():\n    return 1\n\n\ndef pagecache_size():\n    return 2\n\n\n"
                        "class WriteBack:\n    def flush(self):\n        return page_cache()\n\n\n"
                        "def filesystem_watcher():\n    return WriteBack()\n",
        "src/disk.c": "int writeback(int pages) { return pages; }\n"
                      "int page_cache_written(int n) { return n; }\n",
        "src/sessions.py": "class SessionInterface:\n    def open_session(self):\n        return {}\n",
        # "metadata" is a word of the repository, but no name's: the full query finds MetaDataStore by "store"
        "src/meta.py": "class MetaDataStore:\n    \"\"\"Keeps the metadata of each page.\"\"\"\n",
        # names whose words are stop words too: a spelling with one is looked up as one without
        "src/store.py": "def get_or_create():\n    return 1\n\n\ndef page_in_use():\n    return 2\n",
    })
    assert route(["build", "-q"], repo.path).exit_code == 0
    return repo


SPELLED_WORDS = ("page cache", "pagecache size", "page cache size", "write back", "filesystem watcher",
                 "session interface", "open session", "cache written back", "written back disk", "page written",
                 "session cache", "writeback", "sessions", "metadata store", "get or create", "page in use",
                 "there page", "the page cache", "page in session", "get or page")


def test_a_spelled_name_is_looked_up_in_the_name_postings_as_the_full_query_finds_it(spelled, monkeypatch):
    """`symbol_named` asks its full query only when the symbol index's name postings hold a name spelling the words:
    what it finds is what the full query of every probe finds, and the misses cost no query."""
    from gitroute.bundle.store import BundleView
    from gitroute.query import evidence

    with BundleView(str(spelled.path)) as view:
        cheap = {words: evidence.symbol_named(view, words) for words in SPELLED_WORDS}
        maybe = {words: evidence.may_name_symbol(view, words) for words in SPELLED_WORDS}
    monkeypatch.setattr(evidence, "may_name_symbol", lambda view, words: True)
    with BundleView(str(spelled.path)) as view:
        full = {words: evidence.symbol_named(view, words) for words in SPELLED_WORDS}
    assert cheap == full
    assert (cheap["page cache"], cheap["pagecache size"], cheap["page cache size"], cheap["session interface"],
            cheap["filesystem watcher"]) == (
        "page_cache", "pagecache_size", "pagecache_size", "SessionInterface", "filesystem_watcher")
    assert cheap["write back"] in ("WriteBack", "writeback")
    assert cheap["metadata store"] == "MetaDataStore"  # a name that breaks a word of the question in two
    assert (cheap["get or create"], cheap["page in use"]) == ("get_or_create", "page_in_use")
    assert not any(maybe[words] for words in ("cache written back", "written back disk", "page written",
                                              "session cache", "page in session", "get or page"))
    assert all(maybe[words] for words in ("writeback", "sessions"))  # one word: the query


@pytest.mark.parametrize("question", [
    "what breaks if I change the page cache", "where is the page cache written back to disk",
    "who calls the session interface", "what uses the file system watcher", "which tests cover the write back",
])
def test_a_sentence_is_classified_alike_with_the_name_postings_looked_up_first(spelled, monkeypatch, question):
    from gitroute.bundle.store import BundleView
    from gitroute.query import ask, evidence

    with BundleView(str(spelled.path)) as view:
        cheap = ask(question, bundle=view)
    monkeypatch.setattr(evidence, "may_name_symbol", lambda view, words: True)
    with BundleView(str(spelled.path)) as view:
        full = ask(question, bundle=view)
    assert cheap == full


@pytest.mark.parametrize(("text", "rest"), [
    ("who calls subdomain?", "subdomain?"), ("What would break if I changed int2?", "int2?"),
    ("callers of get_object_or_404", "get_object_or_404"), ("what uses the session interface", "the session interface"),
    # what a question says about its subject stays ("which tests cover" asks for tests: its words find them)
    ("I'm rewriting regexes.email; what uses it and which tests cover it?",
     "I'm rewriting regexes.email; it and which tests cover it?"),
    ("who calls", ""), ("where is the session cookie signed", "where is the session cookie signed"),
])
def test_without_use_phrases_leaves_the_subject_of_a_who_calls_question(text, rest):
    from gitroute.phrases import without_use_phrases

    assert without_use_phrases(text) == rest
