"""`git route query`: identifier splitting, whole tokens, stop words, entry points, demotion, filters, output."""
from __future__ import annotations

import json
import re

import pytest

from tests.conftest import RepoBuilder

BUNDLE_REF = "refs/marola/routing-bundle"

GEO_FILES = {
    "pyproject.toml": '[project]\nname = "geo"\n[project.scripts]\ngeo = "geo.cli:run"\n',
    "src/geo/__init__.py": '"""Geo."""\n',
    "src/geo/weather.py": (
        "import json\n\n\nclass OpenMeteoClient:\n    \"\"\"Fetches forecasts from the Open-Meteo service.\"\"\"\n\n"
        "    def forecast(self, lat, lon):\n        return parse_forecast(json.dumps([lat, lon]))\n\n\n"
        "def parse_forecast(text):\n    \"\"\"Turn the raw forecast text into hourly rows.\"\"\"\n    return text\n"
    ),
    "src/geo/meteorology.py": "class MeteorologyStation:\n    pass\n",
    "src/geo/http_server.py": "class HTTPServer:\n    def serve_forever(self):\n        pass\n",
    "src/geo/cli.py": 'def run():\n    """Start the command line."""\n    return 0\n',
    "src/geo/tool.py": 'def tool_helper():\n    pass\n\n\nif __name__ == "__main__":\n    tool_helper()\n',
    "src/geo/app.py": "def main():\n    pass\n",
    "src/geo/user-settings.js": "export function loadUserSettings() {\n  return {};\n}\n",
    "src/geo/odd.py": "def where_is_it():\n    pass\n",
    "tests/test_weather.py": (
        "from geo.weather import OpenMeteoClient\n\n\ndef test_open_meteo_client():\n    assert OpenMeteoClient()\n"
    ),
}


@pytest.fixture
def geo_repo(make_repo, route) -> RepoBuilder:
    """A small project (none of its folders reads as secondary but `tests/`), built."""
    repo = make_repo("geo")
    repo.commit(dict(GEO_FILES), "initial")
    built = route(["build", "-q"], repo.path)
    assert built.exit_code == 0, built.stderr
    return repo


@pytest.fixture
def built_sample(sample_repo, route) -> RepoBuilder:
    built = route(["build", "-q"], sample_repo.path)
    assert built.exit_code == 0, built.stderr
    return sample_repo


def ask(route, repo: RepoBuilder, text: str, *options: str) -> dict:
    result = route(["query", "--json", *options, text], repo.path)
    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    return json.loads(result.stdout)


def names(doc: dict) -> list[str]:
    return [row["name"] for row in doc["rows"]]


def top(doc: dict) -> tuple[str, str]:
    return doc["rows"][0]["name"], doc["rows"][0]["path"]


# --- identifier splitting -------------------------------------------------------------------


@pytest.mark.parametrize("text, expected", [
    ("open meteo client", ("OpenMeteoClient", "src/sample/weather.py")),
    ("OpenMeteoClient", ("OpenMeteoClient", "src/sample/weather.py")),
    ("open_meteo_client", ("OpenMeteoClient", "src/sample/weather.py")),
    ("open-meteo-client", ("OpenMeteoClient", "src/sample/weather.py")),
    ("http server", ("HTTPServer", "src/sample/http_server.py")),
    ("HTTPServer", ("HTTPServer", "src/sample/http_server.py")),
    ("parse forecast", ("parse_forecast", "src/sample/weather.py")),
    ("ParseForecast", ("parse_forecast", "src/sample/weather.py")),
])
def test_identifiers_are_split_alike_at_build_and_query(built_sample, route, text, expected):
    assert top(ask(route, built_sample, text)) == expected


def test_kebab_case_file_names_and_camel_case_functions_meet(geo_repo, route):
    assert top(ask(route, geo_repo, "user-settings")) == ("user-settings.js", "src/geo/user-settings.js")
    assert top(ask(route, geo_repo, "load_user_settings")) == ("loadUserSettings", "src/geo/user-settings.js")


def test_an_exact_identifier_outranks_a_longer_name_holding_it(geo_repo, route):
    doc = ask(route, geo_repo, "OpenMeteoClient", "--explain")
    assert names(doc)[:2] == ["OpenMeteoClient", "test_open_meteo_client"]
    assert "exact_name" in doc["rows"][0]["signals"]
    assert "exact_name" not in doc["rows"][1]["signals"]


def test_a_class_outranks_constructors_whose_docs_repeat_its_name(make_repo, route):
    """C# and Java constructors carry their class's name, and their docs name it again ("a new instance of
    JValue"): in a constructor's doc a word its name holds counts nothing, so the class comes first."""
    repo = make_repo("json")
    repo.commit({"src/JValue.cs": (
        "namespace Json.Linq\n{\n    /// <summary>Represents a value in JSON.</summary>\n"
        "    public class JValue\n    {\n"
        "        /// <summary>Initializes a new instance of the JValue class.</summary>\n"
        "        public JValue(long value) { }\n"
        "        /// <summary>Initializes a new JValue from another JValue.</summary>\n"
        "        public JValue(JValue other) { }\n    }\n}\n")}, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask(route, repo, "JValue", "--explain")
    assert [(r["kind"], r["name"]) for r in doc["rows"][:3]] == [
        ("class", "JValue"), ("file", "JValue.cs"), ("method", "JValue.JValue")]
    assert "doc_tokens" not in doc["rows"][2]["signals"]


def test_a_letter_split_off_an_identifier_in_a_sentence_still_names_it(make_repo, route):
    """`additionalKeysP` in a question of several words keeps its `p`, as the name does: it is no stray "a"."""
    repo = make_repo("keys")
    repo.commit({"xmonad/ez_config.py": (
        "def additionalKeys(conf, keys):\n    return conf\n\n\n"
        "def additionalKeysP(conf, keys):\n    return conf\n")}, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    assert names(ask(route, repo, "EZConfig additionalKeysP"))[0] == "additionalKeysP"
    from gitroute.rank import parse_question
    assert parse_question("what does A do in x and the I/O loop").tokens == ("loop",)


# --- whole tokens, never substrings ---------------------------------------------------------


def test_a_token_never_matches_inside_a_longer_word(geo_repo, route):
    assert "MeteorologyStation" not in names(ask(route, geo_repo, "meteo"))
    assert "OpenMeteoClient" in names(ask(route, geo_repo, "meteo"))
    assert "OpenMeteoClient" not in names(ask(route, geo_repo, "meteorology"))
    assert names(ask(route, geo_repo, "meteorology")) == ["meteorology.py", "MeteorologyStation"]


def test_a_prefix_of_every_token_is_no_match(geo_repo, route):
    doc = ask(route, geo_repo, "meteor")
    assert doc["status"] == "no_match"
    assert doc["rows"] == []


# --- stop words -----------------------------------------------------------------------------


def test_stop_words_are_dropped_from_a_question(geo_repo, route):
    plain = ask(route, geo_repo, "http server")
    wordy = ask(route, geo_repo, "where is the http server")
    assert names(wordy) == names(plain)
    assert "where_is_it" not in names(wordy)


def test_a_question_of_stop_words_only_is_no_match_with_a_reason(geo_repo, route):
    doc = ask(route, geo_repo, "where is it")
    assert doc["status"] == "no_match"
    assert doc["notes"] == ["the question has no word that can name something (all stop words)"]


# --- entry points ---------------------------------------------------------------------------


def test_entry_point_question_ranks_declared_scripts_main_and_main_guards_first(geo_repo, route):
    doc = ask(route, geo_repo, "where is the entry point", "--explain")
    first = {(row["name"], row["path"]) for row in doc["rows"][:3]}
    assert first == {("run", "src/geo/cli.py"), ("main", "src/geo/app.py"), ("tool.py", "src/geo/tool.py")}
    assert all(row["signals"].get("entry_point") for row in doc["rows"][:3])
    assert all("entry_point" not in row["signals"] for row in doc["rows"][3:])


def test_entry_point_of_the_sample_is_its_console_script(built_sample, route):
    doc = ask(route, built_sample, "where is the entry point")
    assert set(names(doc)[:2]) == {"run", "cli.py"}
    assert {row["path"] for row in doc["rows"][:2]} == {"src/sample/cli.py"}


def test_the_word_main_alone_asks_for_the_entry_point(geo_repo, route):
    assert top(ask(route, geo_repo, "main")) == ("main", "src/geo/app.py")


# --- test files -----------------------------------------------------------------------------


def test_test_files_are_demoted_unless_the_question_asks_for_tests(geo_repo, route):
    plain = ask(route, geo_repo, "open meteo client", "--explain")
    assert names(plain)[:2] == ["OpenMeteoClient", "test_open_meteo_client"]
    assert plain["rows"][1]["signals"]["secondary_path"] < 0

    asked = ask(route, geo_repo, "test open meteo client", "--explain")
    assert top(asked) == ("test_open_meteo_client", "tests/test_weather.py")
    assert all("secondary_path" not in row["signals"] for row in asked["rows"])


def test_a_dotnet_test_project_is_demoted_like_a_tests_folder(make_repo, route):
    # .NET names a test project after the project it tests: `Acme.Json.Tests/`, not `tests/`.
    repo = make_repo("dotnet")
    repo.commit({
        "Src/Acme.Json/JsonParser.cs": "namespace Acme.Json\n{\n    /// <summary>Reads JSON text.</summary>\n"
                                       "    public class JsonParser\n    {\n        public object Parse(string text)"
                                       " { return null; }\n    }\n}\n",
        "Src/Acme.Json.Tests/JsonParserTests.cs": "namespace Acme.Json.Tests\n{\n    public class JsonParserTests\n"
                                                  "    {\n        public void JsonParserParsesJsonText() { }\n"
                                                  "    }\n}\n",
    }, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0

    plain = ask(route, repo, "json parser", "--explain")
    assert top(plain) == ("JsonParser", "Src/Acme.Json/JsonParser.cs")
    tested = [row for row in plain["rows"] if row["path"].startswith("Src/Acme.Json.Tests/")]
    assert tested and all(row["signals"]["secondary_path"] < 0 for row in tested)


# --- filters --------------------------------------------------------------------------------


def test_kind_filter_keeps_only_that_kind(geo_repo, route):
    doc = ask(route, geo_repo, "user settings", "--kind", "function")
    assert [(row["name"], row["kind"]) for row in doc["rows"]] == [("loadUserSettings", "function")]
    doc = ask(route, geo_repo, "http server", "--kind", "class", "--kind", "method")
    assert {row["kind"] for row in doc["rows"]} <= {"class", "method"}
    assert top(doc) == ("HTTPServer", "src/geo/http_server.py")


def test_lang_filter_keeps_only_that_language(geo_repo, route):
    doc = ask(route, geo_repo, "user settings", "--lang", "javascript")
    assert {row["path"] for row in doc["rows"]} == {"src/geo/user-settings.js"}
    doc = ask(route, geo_repo, "open meteo client", "--lang", "python")
    assert top(doc) == ("OpenMeteoClient", "src/geo/weather.py")


def test_path_filter_keeps_only_matching_paths(geo_repo, route):
    doc = ask(route, geo_repo, "open meteo client", "--path", "tests/*")
    assert [(row["name"], row["path"]) for row in doc["rows"]] == [("test_open_meteo_client", "tests/test_weather.py")]


@pytest.mark.parametrize("options, named", [
    (["--kind", "struct"], "--kind struct"),
    (["--lang", "rust"], "--lang rust"),
    (["--path", "docs/*"], "--path docs/*"),
])
def test_a_filter_that_empties_the_answer_is_no_match_naming_the_filter(geo_repo, route, options, named):
    doc = ask(route, geo_repo, "open meteo client", *options)
    assert doc["status"] == "no_match"
    assert doc["rows"] == []
    assert len(doc["notes"]) == 1 and doc["notes"][0].endswith(f"none passes {named}")

    text = route(["query", *options, "open meteo client"], geo_repo.path)
    assert text.exit_code == 0
    assert text.stdout.splitlines()[1:] == [f"no_match: {doc['notes'][0]}"]


def test_limit_bounds_the_rows(geo_repo, route):
    unbounded = ask(route, geo_repo, "forecast")
    assert len(unbounded["rows"]) >= 3
    assert ask(route, geo_repo, "forecast", "--limit", "2")["rows"] == unbounded["rows"][:2]
    assert ask(route, geo_repo, "forecast", "-n", "1")["rows"] == unbounded["rows"][:1]


# --- explain --------------------------------------------------------------------------------


def test_explain_json_gives_signals_that_sum_to_the_score(geo_repo, route):
    doc = ask(route, geo_repo, "open meteo client", "--explain")
    for row in doc["rows"]:
        assert row["signals"], row
        assert sum(row["signals"].values()) == pytest.approx(row["score"], abs=0.01)
    assert set(doc["rows"][0]["signals"]) == {"phrase", "name_tokens", "doc_tokens", "kind_prior"}
    assert all("signals" not in row for row in ask(route, geo_repo, "open meteo client")["rows"])


def test_explain_text_prints_each_rows_signals_under_it(geo_repo, route):
    result = route(["query", "--explain", "open meteo client"], geo_repo.path)
    lines = result.stdout.splitlines()
    assert lines[1].startswith("src/geo/weather.py:4 ")
    assert re.fullmatch(r"    phrase=\+40\.00  name_tokens=\+20\.00  doc_tokens=\+\d+\.\d\d  kind_prior=\+1\.00", lines[2])
    plain = route(["query", "open meteo client"], geo_repo.path).stdout.splitlines()
    assert plain == [line for line in lines if not line.startswith("    ")]


# --- the output contract --------------------------------------------------------------------


def test_json_answer_has_the_contract_keys_in_order(geo_repo, route):
    doc = ask(route, geo_repo, "open meteo client")
    head = geo_repo.git("rev-parse", "HEAD").strip()
    assert list(doc) == ["schema", "status", "source", "rows", "notes"]
    assert doc["schema"] == 1 and doc["status"] == "routed" and doc["notes"] == []
    assert doc["source"] == {"ref": BUNDLE_REF, "commit": head, "branch": "main", "stale_by": 0, "behind_by": 0}
    assert doc["rows"][0] == {"path": "src/geo/weather.py", "line": 4, "name": "OpenMeteoClient", "kind": "class",
                              "score": doc["rows"][0]["score"]}
    for row in doc["rows"]:
        assert list(row) == ["path", "line", "name", "kind", "score"]
        assert isinstance(row["line"], int) and row["line"] >= 1
        assert isinstance(row["score"], float | int) and row["score"] > 0


def test_rows_are_sorted_by_score_then_path_then_name(make_repo, route):
    repo = make_repo()
    repo.commit({
        "b/render.py": "def render_page():\n    pass\n",
        "a/render.py": "def render_page():\n    pass\n\n\ndef render_page_fast():\n    pass\n",
        "c/page.py": "class Page:\n    def render(self):\n        pass\n",
    })
    assert route(["build", "-q"], repo.path).exit_code == 0

    rows = ask(route, repo, "render page")["rows"]

    assert rows == sorted(rows, key=lambda r: (-r["score"], r["path"], r["name"]))
    tied = [(r["path"], r["name"]) for r in rows if r["name"] == "render_page"]
    assert tied == [("a/render.py", "render_page"), ("b/render.py", "render_page")]
    assert rows[0]["score"] == rows[1]["score"]


def test_text_answer_starts_with_the_source_line(geo_repo, route):
    short = geo_repo.git("rev-parse", "--short=7", "HEAD").strip()
    result = route(["query", "open meteo client"], geo_repo.path)
    assert result.exit_code == 0
    assert result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == f"answers from main@{short} (bundle)"
    assert re.fullmatch(r"src/geo/weather\.py:4 +class +OpenMeteoClient +\d+\.\d\d", lines[1])


def test_answers_name_a_detached_head_without_a_branch(geo_repo, route):
    head = geo_repo.git("rev-parse", "HEAD").strip()
    geo_repo.git("checkout", "-q", "--detach")
    doc = ask(route, geo_repo, "http server")
    assert doc["source"]["branch"] is None and doc["source"]["stale_by"] == 0
    text = route(["query", "http server"], geo_repo.path).stdout
    assert text.splitlines()[0] == f"answers from {head[:7]} (bundle)"


# --- staleness ------------------------------------------------------------------------------


def test_a_commit_after_the_build_makes_the_answer_say_it_is_stale(geo_repo, route):
    built_from = geo_repo.git("rev-parse", "HEAD").strip()
    geo_repo.commit({**GEO_FILES, "src/geo/new.py": "class BrandNew:\n    pass\n"}, "second")

    doc = ask(route, geo_repo, "http server")
    assert doc["source"]["commit"] == built_from
    assert doc["source"]["stale_by"] == 1
    text = route(["query", "http server"], geo_repo.path)
    assert text.stdout.splitlines()[0] == (
        f"answers from main@{built_from[:7]} (bundle); HEAD is 1 commit ahead: run 'git route build'")
    assert "BrandNew" not in names(ask(route, geo_repo, "brand new"))

    geo_repo.commit({**GEO_FILES, "src/geo/new.py": "class BrandNewer:\n    pass\n"}, "third")
    assert ask(route, geo_repo, "http server")["source"]["stale_by"] == 2
    assert "HEAD is 2 commits ahead" in route(["query", "http server"], geo_repo.path).stdout.splitlines()[0]


def test_a_checkout_behind_the_bundle_says_so_without_asking_for_a_build(geo_repo, route):
    first = geo_repo.git("rev-parse", "HEAD").strip()
    second = geo_repo.commit({**GEO_FILES, "src/geo/new.py": "class BrandNew:\n    pass\n"}, "second")
    assert route(["build", "-q"], geo_repo.path).exit_code == 0
    geo_repo.git("checkout", "-q", "--detach", first)

    doc = ask(route, geo_repo, "http server")
    assert (doc["source"]["commit"], doc["source"]["stale_by"], doc["source"]["behind_by"]) == (second, 0, 1)
    line = route(["query", "http server"], geo_repo.path).stdout.splitlines()[0]
    assert line == f"answers from {second[:7]} (bundle); HEAD is 1 commit behind the bundle"


def test_a_checkout_that_diverged_from_the_bundle_says_both_ways(geo_repo, route):
    first = geo_repo.git("rev-parse", "HEAD").strip()
    second = geo_repo.commit({**GEO_FILES, "src/geo/new.py": "class BrandNew:\n    pass\n"}, "second")
    assert route(["build", "-q"], geo_repo.path).exit_code == 0
    geo_repo.commit({**GEO_FILES, "src/geo/other.py": "class Other:\n    pass\n"}, "elsewhere",
                    parents=[first], branch="side", checkout=False)
    geo_repo.git("checkout", "-q", "side")

    doc = ask(route, geo_repo, "http server")
    assert (doc["source"]["commit"], doc["source"]["stale_by"], doc["source"]["behind_by"]) == (second, 1, 1)
    line = route(["query", "http server"], geo_repo.path).stdout.splitlines()[0]
    assert line == (f"answers from side@{second[:7]} (bundle); HEAD has 1 commit the bundle lacks, "
                    "and lacks 1 commit it has: run 'git route build'")


def test_status_reports_the_same_staleness(geo_repo, route):
    geo_repo.commit({**GEO_FILES, "src/geo/new.py": "class BrandNew:\n    pass\n"}, "second")
    status = route(["status", "--json"], geo_repo.path)
    assert json.loads(status.stdout)["source"]["stale_by"] == 1
    assert "stale: 1 commit behind HEAD" in route(["status"], geo_repo.path).stdout.splitlines()


# --- no_match -------------------------------------------------------------------------------


def test_a_question_nothing_overlaps_is_no_match_and_exit_zero(built_sample, route):
    result = route(["query", "--json", "subaquatic origami choreography"], built_sample.path)
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert doc["status"] == "no_match"
    assert doc["rows"] == []
    # The meaning index says why: which of the question's words the repository does not hold.
    why = ("no word of the question occurs in the code or in the docs' sentences about it: subaquatic, origami, "
           "choreography")
    assert doc["notes"] == [why]

    text = route(["query", "subaquatic origami choreography"], built_sample.path)
    assert text.exit_code == 0
    assert text.stdout.splitlines()[1] == f"no_match: {why}"
    assert text.stderr == ""


def test_a_query_from_a_subfolder_answers_from_the_same_bundle(geo_repo, route):
    at_top = route(["query", "--json", "http server"], geo_repo.path)
    below = route(["query", "--json", "http server"], geo_repo.path / "src" / "geo")
    assert below.exit_code == 0, below.stderr
    assert below.stdout == at_top.stdout


def test_status_lists_the_build_warnings_the_build_points_to(make_repo, route):
    repo = make_repo()
    repo.commit({"ok.py": "def fine():\n    pass\n", "broken.go": "package main\n\nfunc main() {\n  if {{{\n}\n"})
    built = route(["build"], repo.path)
    assert "warnings: 1 (see 'git route status')" in built.stdout
    status = route(["status"], repo.path)
    assert "warnings: 1" in status.stdout.splitlines()
    assert "  broken.go: parse errors in 1 region" in status.stdout.splitlines()
    doc = json.loads(route(["status", "--json"], repo.path).stdout)
    assert doc["warnings"] == {"total": 1, "first": [["broken.go", "parse errors in 1 region"]]}


def _whole_question_parses(run, text: str) -> int:
    """How many times `run()` tokenises or parses the whole text `text` (gitroute.text's tokenize, the symbol tiers'
    parse), seen by a profile hook."""
    import sys

    seen = []

    def hook(frame, event, arg):
        if event == "call" and frame.f_code.co_name in ("tokenize", "_parse_question"):
            first = frame.f_code.co_varnames[:1]
            if first and frame.f_locals.get(first[0]) == text:
                seen.append(frame.f_code.co_name)

    sys.setprofile(hook)
    try:
        run()
    finally:
        sys.setprofile(None)
    return len(seen)


def test_a_question_is_parsed_once_on_its_way_to_an_answer(geo_repo, monkeypatch):
    from gitroute import api
    from gitroute.rank import parse_question
    from gitroute.text import Question, question_tokens

    asked = Question("where is the forecast fetched from the service")
    assert parse_question(asked) is parse_question(asked) and question_tokens(asked) is question_tokens(asked)
    assert parse_question(asked) == parse_question(str(asked))
    monkeypatch.chdir(geo_repo.path)
    text = "where is the forecast fetched from the service"
    # the symbol tiers' parse once, its tokens once, and the meaning index's spelling of its lowercase words (the
    # whole question was tokenised 9 times and parsed twice on this way before issue 22)
    assert _whole_question_parses(lambda: api.query(text), text) <= 3
    assert _whole_question_parses(lambda: api.ask(text), text) <= 3
    assert api.query(text) == api.query(Question(text))


@pytest.mark.parametrize("text", ["open meteo client", "parse forecast", "http server", "meteorology station",
                                  "user settings", "tool helper", "forecast rows", "serve forever http"])
def test_a_name_in_a_few_words_is_the_symbol_tiers_first_rows_at_any_limit(geo_repo, text):
    # A phrase of a few words and no stop word takes no share of meaning rows: `query` asks the symbol tiers for
    # the rows it shows only (not 20) and, when the best row names it outright, leaves the meaning index unread.
    # Both must give what the whole path gives: the first rows of a 20-row symbol answer, explained or not.
    from gitroute.bundle.store import BundleView
    from gitroute.query import ask_symbols, query, strip_signals

    with BundleView(str(geo_repo.path)) as view:
        twenty = ask_symbols(view, text, limit=20, explain=True)
        for limit in (1, 2, 3, 5):
            plain = query(text, limit=limit, bundle=view)
            explained = query(text, limit=limit, bundle=view, explain=True)
            assert plain.rows == tuple(strip_signals(list(twenty.rows[:limit]), False))
            assert explained.rows == twenty.rows[:limit]
            assert plain.status == explained.status == ("routed" if twenty.rows else "no_match")


def test_a_one_shot_answer_pauses_the_cycle_collector_and_a_warm_view_keeps_its_own(geo_repo, make_repo):
    # A cold answer's own view pauses the cyclic collector while it is open (its containers are freed by refcounts;
    # a collection walked them all) and resumes it whatever happens, even when no bundle opens; a given (warm) view
    # leaves the caller's policy alone, and a collector the caller had off stays off.
    import gc

    from gitroute import api
    from gitroute.bundle.store import BundleView
    from gitroute.errors import GitrouteError
    from gitroute.query import opened

    unbuilt = make_repo("unbuilt")
    unbuilt.commit({"a.py": "x = 1\n"}, "one")
    seen: list[bool] = []
    was = gc.isenabled()
    gc.enable()
    try:
        with opened(str(geo_repo.path), None) as view:
            seen.append(gc.isenabled())
            assert api.query("forecast rows", repo=str(geo_repo.path), bundle=view).rows
            seen.append(gc.isenabled())
        seen.append(gc.isenabled())
        with BundleView(str(geo_repo.path)) as warm, opened(str(geo_repo.path), warm):
            seen.append(gc.isenabled())
        with pytest.raises(RuntimeError), opened(str(geo_repo.path), None):
            raise RuntimeError("an answer that fails")
        seen.append(gc.isenabled())
        with pytest.raises(GitrouteError):  # no bundle: the view never opens
            api.query("forecast rows", repo=str(unbuilt.path))
        seen.append(gc.isenabled())
        gc.disable()
        with opened(str(geo_repo.path), None):
            pass
        seen.append(gc.isenabled())
    finally:
        (gc.enable if was else gc.disable)()
    assert seen == [False, False, True, True, True, True, False]
