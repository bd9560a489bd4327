"""The click-free query path: the same options as the click command, the same answers, and no click at all."""
from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import click
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitroute.cli.app import cli, run
from gitroute.cli.ask import command as click_ask
from gitroute.cli.code import command as click_code
from gitroute.cli.docs import command as click_docs
from gitroute.cli.fast import (
    ASK_OPTIONS,
    DEFAULT_LIMIT,
    KIND_CHOICES,
    LIMIT_RANGE,
    QUERY_OPTIONS,
    answer_fast,
    parse_args,
    parse_ask_args,
    parse_query_args,
)
from gitroute.cli.impact import command as click_impact
from gitroute.cli.query import command as click_query
from gitroute.specs import command_named, fast_options
from tests.conftest import SAMPLE_FILES, RepoBuilder, run_route
from tests.test_docs import forget_cached_help_options

# Modules a plain cold query must not import: each costs a sizeable share of its time.
HEAVY_MODULES = ("click", "pygit2", "tree_sitter", "tree_sitter_language_pack", "dataclasses", "subprocess", "threading")


@pytest.fixture(scope="module")
def built_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample project with a bundle; read-only for every test of this module."""
    builder = RepoBuilder(tmp_path_factory.mktemp("fast") / "sample")
    builder.commit(dict(SAMPLE_FILES), "initial")
    built = run_route(["build", "-q"], builder.path)
    assert built.exit_code == 0, built.stderr
    return builder.path


def run_captured(entry: Callable[[list[str]], int | None], args: list[str], cwd: Path) -> tuple[int | None, str, str]:
    """Call one CLI path in `cwd`; its exit code, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = entry(list(args))
    finally:
        os.chdir(old)
    return code, out.getvalue(), err.getvalue()


def click_params(args: list[str]) -> dict:
    """What the click command parses from `query ARGS`, shaped like `parse_query_args`'s result."""
    parent = click.Context(cli, info_name="git route", **cli.context_settings)
    with click_query.make_context("query", list(args[1:]), parent=parent) as ctx:
        params = {name: list(value) if isinstance(value, tuple) else value for name, value in ctx.params.items()}
    params["text"] = " ".join(params["text"])
    return params


# --- (a) one set of options ------------------------------------------------------------------


def click_options(command: click.Command) -> dict[str, tuple[str, bool, bool]]:
    """Option spelling -> (parameter, takes a value, may repeat), as the click command defines them."""
    from_click: dict[str, tuple[str, bool, bool]] = {}
    for param in command.params:
        if isinstance(param, click.Option):
            for spelling in param.opts + param.secondary_opts:
                from_click[spelling] = (param.name, not param.is_flag, param.multiple)
    return from_click


def test_fast_options_are_the_click_commands_options():
    assert QUERY_OPTIONS == click_options(click_query)


def test_fast_words_are_the_click_commands_only_argument():
    arguments = [p for p in click_query.params if isinstance(p, click.Argument)]
    assert [(a.name, a.nargs, a.required) for a in arguments] == [("text", -1, True)]


def test_fast_limit_range_default_and_kinds_are_the_click_commands():
    by_name = {p.name: p for p in click_query.params}
    limit, kinds = by_name["limit"], by_name["kinds"]
    assert isinstance(limit.type, click.IntRange)
    assert (limit.type.min, limit.type.max) == LIMIT_RANGE
    assert not (limit.type.min_open or limit.type.max_open or limit.type.clamp)
    assert limit.default == DEFAULT_LIMIT
    assert isinstance(kinds.type, click.Choice)
    assert tuple(kinds.type.choices) == KIND_CHOICES
    assert kinds.type.case_sensitive


def test_fast_defaults_are_the_click_commands_defaults():
    assert parse_query_args(["query", "weather"]) == click_params(["query", "weather"])


ARG_TOKENS = st.sampled_from([
    "--limit", "-n", "--limit=3", "--limit=200", "--limit=201", "3", "0", "07", "x", "-1",
    "--kind", "--kind=class", "class", "function", "nope", "--lang", "--lang=python", "python",
    "--path", "--path=src/*", "src/*", "--json", "--json=1", "--explain", "-q", "--quiet", "-n=3", "-n5",
    "--", "-", "", "-h", "--help", "--bogus", "weather", "OpenMeteoClient", "Überprüfung", "天气",
])


@settings(max_examples=400, deadline=None)
@given(st.lists(ARG_TOKENS, max_size=7))
def test_whatever_the_fast_path_accepts_click_parses_alike(rest):
    args = ["query", *rest]
    params = parse_query_args(args)
    if params is not None:
        assert params == click_params(args)


# --- (b) the same answers ----------------------------------------------------------------------

SAME_ANSWER_ARGS = [
    ["query", "open meteo client"],
    ["query", "open", "meteo", "client"],
    ["query", "--json", "OpenMeteoClient"],
    ["query", "--explain", "parse forecast"],
    ["query", "--json", "--explain", "forecast"],
    ["query", "-n", "3", "forecast"],
    ["query", "--limit=3", "forecast"],
    ["query", "--limit", "1", "--json", "weather"],
    ["query", "--kind", "class", "--kind", "function", "forecast"],
    ["query", "--kind=method", "serve forever"],
    ["query", "--lang", "python", "http server"],
    ["query", "--lang=rust", "http server"],
    ["query", "--path", "src/*", "open meteo"],
    ["query", "--path=tests/*", "--json", "open meteo"],
    ["query", "-q", "where is the entry point"],
    ["query", "--quiet", "--json", "entry point"],
    ["query", "where", "is", "the", "entry", "point"],
    ["query", "open", "--json", "meteo", "-n", "2", "client"],
    ["query", "Überprüfung", "café", "forecast"],
    ["query", "天气", "预报"],
    ["query", "the", "of", "and"],
    ["query", "--json", "xyzzy"],
    ["query", "weather", "--lang", "--json"],
    ["query", "-", "forecast"],
    ["query", "", "forecast"],
    ["query", "--kind", "file", "--explain", "-q", "sample"],
]


# `ask`, what agents call, takes the fast path too.
SAME_ASK_ARGS = [
    ["ask", "OpenMeteoClient"],
    ["ask", "--json", "OpenMeteoClient"],
    ["ask", "--explain", "where", "is", "the", "forecast", "parsed"],
    ["ask", "--json", "--explain", "which doc explains OpenMeteoClient"],
    ["ask", "-n", "2", "what breaks if I change parse_forecast"],
    ["ask", "-q", "  open   meteo\tclient "],
    ["ask", "--limit=3", "xyzzy"],
    ["ask", "-", "forecast"],
]


def assert_same_answer(args, repo) -> None:
    """The fast path and click's answer one command line alike, byte for byte, exit code and streams."""
    fast = run_captured(answer_fast, args, repo)
    slow = run_captured(run, args, repo)
    assert fast[0] is not None, "the fast path refused a command line it should answer"
    assert fast[0] == slow[0] == 0
    assert fast[1].encode("utf-8") == slow[1].encode("utf-8")
    assert fast[2] == slow[2]


@pytest.mark.parametrize("args", SAME_ANSWER_ARGS + SAME_ASK_ARGS, ids=" ".join)
def test_fast_and_click_paths_answer_byte_for_byte_alike(built_repo, args):
    assert_same_answer(args, built_repo)


def test_fast_and_click_paths_are_compared_on_a_real_answer(built_repo):
    """Guards the table above against comparing two empty outputs."""
    _, stdout, _ = run_captured(answer_fast, ["query", "open meteo client"], built_repo)
    assert "src/sample/weather.py:5" in stdout and "OpenMeteoClient" in stdout


# --- (c) what the fast path leaves to click ---------------------------------------------------

USAGE, HELP, ANSWERED = 129, 0, 0
REFUSED_ARGS = [
    pytest.param(["query", "-h"], HELP, id="-h"),
    pytest.param(["query", "--help"], HELP, id="--help"),
    pytest.param(["query", "weather", "-h"], HELP, id="words then -h"),
    pytest.param(["query", "--limit", "0", "weather"], USAGE, id="--limit 0"),
    pytest.param(["query", "--limit", "201", "weather"], USAGE, id="--limit 201"),
    pytest.param(["query", "--limit", "x", "weather"], USAGE, id="--limit x"),
    pytest.param(["query", "--limit", "-1", "weather"], USAGE, id="--limit -1"),
    pytest.param(["query", "weather", "--limit"], USAGE, id="--limit without a value"),
    pytest.param(["query", "--kind", "nope", "weather"], USAGE, id="--kind nope"),
    pytest.param(["query", "--kind", "Class", "weather"], USAGE, id="--kind Class"),
    pytest.param(["query", "--bogus", "weather"], USAGE, id="--bogus"),
    pytest.param(["query", "--json=yes", "weather"], USAGE, id="--json=yes"),
    pytest.param(["query", "-n=3", "weather"], USAGE, id="-n=3"),
    pytest.param(["query"], USAGE, id="no words"),
    pytest.param(["query", "--json", "-q"], USAGE, id="options but no words"),
    pytest.param(["weather"], USAGE, id="query missing"),
    pytest.param(["query", "--", "weather"], ANSWERED, id="--"),
    pytest.param(["query", "-n5", "weather"], ANSWERED, id="-n5"),
    pytest.param(["query", "--limit", "2", "-n", "3", "weather"], ANSWERED, id="repeated --limit"),
    pytest.param(["query", "--json", "--json", "weather"], ANSWERED, id="repeated --json"),
    pytest.param(["query", "--limit", "²", "weather"], USAGE, id="--limit superscript two"),
]


@pytest.mark.parametrize("args, exit_code", REFUSED_ARGS)
def test_fast_path_refuses_and_click_answers_or_explains(built_repo, args, exit_code):
    assert parse_query_args(args) is None
    assert answer_fast(args) is None
    forget_cached_help_options()
    result = run_route(args, built_repo)
    assert result.exit_code == exit_code, result.stderr
    if exit_code == USAGE:
        assert (result.stdout == "") == ("--json" not in args)  # under --json, the error as JSON too
        assert result.stderr.startswith("error: ")
        assert result.stderr.splitlines()[1].startswith("hint: usage: git route")
    elif any(arg in ("-h", "--help") for arg in args):
        assert result.stdout.startswith("Usage: git route query")
        assert result.stderr == ""
    else:
        assert "weather.py" in result.stdout


# --- (d) a cold query imports no click -----------------------------------------------------------


def imported_modules(args: list[str], cwd: Path) -> tuple[subprocess.CompletedProcess, set[str]]:
    """Run `python -X importtime -m gitroute ARGS` cold; its result and every module it imported."""
    result = subprocess.run([sys.executable, "-X", "importtime", "-m", "gitroute", *args], cwd=cwd,
                            capture_output=True, text=True, timeout=60)
    modules = {line.rsplit("|", 1)[1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")}
    return result, modules


def heavy(modules: set[str]) -> set[str]:
    return {name for name in modules if name.split(".")[0] in HEAVY_MODULES}


def test_cold_query_imports_no_click_pygit2_tree_sitter_or_dataclasses(built_repo):
    result, modules = imported_modules(["query", "open", "meteo", "client"], built_repo)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "gitroute.cli.fast" in modules
    assert heavy(modules) == set()
    rows = result.stdout.splitlines()
    assert rows[0].startswith("answers from main@")
    assert rows[1].split()[:3] == ["src/sample/weather.py:5", "class", "OpenMeteoClient"]


def test_cold_query_the_fast_path_refuses_does_import_click(built_repo):
    """Shows that the import check above can see click when it is imported."""
    result, modules = imported_modules(["query", "--limit", "0", "weather"], built_repo)
    assert result.returncode == USAGE
    assert "click" in heavy(modules)


# --- (e) `ask`, what agents call, takes the fast path too ----------------------------------------


def test_fast_ask_options_are_the_click_ask_commands_options():
    assert ASK_OPTIONS == click_options(click_ask)
    limit = next(p for p in click_ask.params if p.name == "limit")
    assert (limit.type.min, limit.type.max, limit.default) == (*LIMIT_RANGE, DEFAULT_LIMIT)
    assert [(a.name, a.nargs, a.required) for a in click_ask.params if isinstance(a, click.Argument)] == [
        ("text", -1, True)]




@pytest.mark.parametrize("args", [["ask"], ["ask", " "], ["ask", "-h"], ["ask", "--bogus", "x"], ["ask", "--", "x"],
                                  ["ask", "-n", "0", "x"], ["ask", "--json=1", "x"]], ids=" ".join)
def test_fast_ask_leaves_what_it_does_not_understand_to_click(args):
    assert parse_ask_args(args) is None


def test_cold_ask_imports_no_click(built_repo):
    result, modules = imported_modules(["ask", "--json", "OpenMeteoClient"], built_repo)
    assert result.returncode == 0, result.stderr[-2000:]
    assert heavy(modules) == set()
    assert json.loads(result.stdout)["rows"][0]["path"] == "src/sample/weather.py"


# --- (f) `docs`, `code` and `impact` take the fast path too ---------------------------------------

DOCUMENT_COMMANDS = {"docs": click_docs, "code": click_code, "impact": click_impact}
WEATHER_GUIDE = ("# The weather guide\n\n## Forecasts\n\n`OpenMeteoClient` fetches them; `parse_forecast` turns the text "
                 "into rows (see `src/sample/weather.py`).\n")


@pytest.fixture(scope="module")
def documented_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample project and a guide that names its code; read-only for every test of this module."""
    builder = RepoBuilder(tmp_path_factory.mktemp("fast") / "documented")
    builder.commit({**SAMPLE_FILES, "docs/weather.md": WEATHER_GUIDE}, "initial")
    built = run_route(["build", "-q"], builder.path)
    assert built.exit_code == 0, built.stderr
    return builder.path


@pytest.mark.parametrize("name", sorted(DOCUMENT_COMMANDS))
def test_fast_document_commands_take_the_click_commands_options_and_argument(name):
    command = DOCUMENT_COMMANDS[name]
    spec = command_named(name)
    assert fast_options(spec) == click_options(command)
    arguments = [(a.name, a.nargs, a.required) for a in command.params if isinstance(a, click.Argument)]
    assert arguments == [(spec.argument[0], 1 if name == "impact" else -1, True)]
    parent = click.Context(cli, info_name="git route", **cli.context_settings)
    for rest in (["x"], ["--json", "-n", "3", "--explain", "-q", "x"]):
        with command.make_context(name, list(rest), parent=parent) as ctx:
            by_click = dict(ctx.params)
        text = by_click.pop(spec.argument[0])
        assert parse_args(spec, [name, *rest]) == {**by_click, "text": text if name == "impact" else " ".join(text)}


SAME_DOCUMENT_ARGS = [
    ["docs", "OpenMeteoClient"],
    ["docs", "--json", "OpenMeteoClient"],
    ["docs", "-n", "1", "--explain", "parse_forecast"],
    ["docs", "src/sample/weather.py"],
    ["docs", "xyzzy"],
    ["code", "docs/weather.md"],
    ["code", "--json", "--explain", "docs/weather.md"],
    ["code", "-q", "weather"],
    ["code", "the", "weather", "guide"],
    ["code", "nothing", "of", "that", "name"],
    ["impact", "parse_forecast"],
    ["impact", "--json", "parse_forecast"],
    ["impact", "--depth", "1", "-n", "1", "--explain", "OpenMeteoClient"],
    ["impact", "--ambiguous", "-q", "src/sample/weather.py"],
    ["impact", "xyzzy"],
]


@pytest.mark.parametrize("args", SAME_DOCUMENT_ARGS, ids=" ".join)
def test_fast_and_click_document_commands_answer_byte_for_byte_alike(documented_repo, args):
    assert_same_answer(args, documented_repo)


def test_fast_document_commands_are_compared_on_real_answers(documented_repo):
    """Guards the table above against comparing two empty outputs."""
    _, docs, _ = run_captured(answer_fast, ["docs", "OpenMeteoClient"], documented_repo)
    _, code, _ = run_captured(answer_fast, ["code", "docs/weather.md"], documented_repo)
    _, impact, _ = run_captured(answer_fast, ["impact", "parse_forecast"], documented_repo)
    assert "docs/weather.md" in docs and "no_match" not in docs
    assert "src/sample/weather.py" in code and "parse_forecast" in code
    assert "src/sample/cli.py:6  depth 2" in impact


@pytest.mark.parametrize("args", [["docs"], ["docs", "-h"], ["code", "--bogus", "x"], ["impact", "a", "b"],
                                  ["impact", "a b"], ["impact", "--depth", "9", "x"], ["docs", "--", "x"]],
                         ids=" ".join)
def test_fast_document_commands_leave_what_they_do_not_understand_to_click(args):
    assert answer_fast(args) is None


def test_cold_impact_and_docs_import_no_click(built_repo):
    for args in (["impact", "--json", "parse_forecast"], ["docs", "OpenMeteoClient"]):
        result, modules = imported_modules(args, built_repo)
        assert result.returncode == 0, result.stderr[-2000:]
        assert "gitroute.cli.fast" in modules
        assert heavy(modules) == set()


# --- (g) a cold answer leaves its memory to the OS --------------------------------------------------------------

# Command lines whose answer, run as its own process (which pauses the collector and ends with os._exit), must be
# what `main` writes in process, byte for byte: a long JSON answer (past a pipe's 64 KiB), a no_match, an error.
PROCESS_ARGS = [
    ["query", "--json", "--explain", "-n", "200", "read", "hourly", "forecast"],
    ["ask", "--explain", "where is the forecast parsed"],
    ["ask", "--json", "xyzzy"],
    ["why", "forecast"],
    ["docs", "OpenMeteoClient"],
    ["query", "--json", "weather", "--rev-is-not-an-option"],
]


def buffered_env() -> dict[str, str]:
    """The environment without PYTHONUNBUFFERED: stdout a pipe is block-buffered, as a user's is, so that an exit
    that skips the flush loses the answer's tail."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


@pytest.fixture(scope="module")
def many_forecasts(built_repo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample project and 300 documented forecast readers, built: an answer of 200 rows."""
    builder = RepoBuilder(tmp_path_factory.mktemp("fast") / "many")
    readers = "".join(f'def read_hourly_forecast_of_station_{n}(station):\n    """Read hourly forecast {n} of a '
                      f'station."""\n    return {n}\n\n\n' for n in range(300))
    builder.commit({**SAMPLE_FILES, "src/sample/station_forecasts/hourly/readers_of_hourly_forecasts.py": readers},
                   "initial")
    built = run_route(["build", "-q"], builder.path)
    assert built.exit_code == 0, built.stderr
    return builder.path


@pytest.mark.parametrize("args", PROCESS_ARGS, ids=" ".join)
def test_a_cold_answer_process_writes_what_main_writes_in_process(many_forecasts, args):
    in_process = run_route(args, many_forecasts)
    alone = subprocess.run([sys.executable, "-m", "gitroute", *args], cwd=many_forecasts, capture_output=True,
                           timeout=120, env=buffered_env())
    assert alone.returncode == in_process.exit_code
    assert alone.stdout == in_process.stdout.encode("utf-8")
    assert alone.stderr.decode("utf-8") == in_process.stderr


def test_the_long_answer_above_is_longer_than_a_pipe_holds(many_forecasts):
    """Guards the table above: its first answer must not fit in a pipe's buffer, or a lost tail could pass."""
    result = run_route(PROCESS_ARGS[0], many_forecasts)
    assert result.exit_code == 0 and len(result.stdout.encode("utf-8")) > 64 * 1024


def test_a_cold_answer_process_outside_a_repository_fails_whole(tmp_path):
    alone = subprocess.run([sys.executable, "-m", "gitroute", "query", "weather"], cwd=tmp_path, capture_output=True,
                           timeout=60, env={**buffered_env(), "GIT_CEILING_DIRECTORIES": str(tmp_path.parent)})
    assert alone.returncode not in (0, 1)
    assert alone.stderr.decode().startswith("fatal: ") and alone.stdout == b""


def test_a_cold_answer_process_whose_reader_stops_early_exits_quietly(many_forecasts):
    """`git route query ... | head -1`: the rest of the answer meets a closed pipe; no traceback, no error."""
    proc = subprocess.Popen([sys.executable, "-m", "gitroute", *PROCESS_ARGS[0]], cwd=many_forecasts,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=buffered_env())
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(10)
    proc.stdout.close()
    stderr = proc.stderr.read()
    assert proc.wait(timeout=60) in (0, 1) and b"Traceback" not in stderr


def test_main_in_process_leaves_the_collector_as_it_found_it(built_repo):
    """Only the real process pauses the collector: a caller of `main` (a test, a host) keeps its own."""
    import gc

    assert gc.isenabled()
    assert run_route(["query", "weather"], built_repo).exit_code == 0
    assert gc.isenabled()
    gc.disable()
    try:
        assert run_route(["query", "weather"], built_repo).exit_code == 0
        assert not gc.isenabled()
    finally:
        gc.enable()
