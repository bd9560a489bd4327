"""The error contract for agents: under `--json` an error is also one JSON document on stdout; usage errors exit 129."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import run_route

FATAL, USAGE, INTERNAL = 128, 129, 3


def assert_json_error(result, exit_code: int) -> dict:
    """The fatal:/error: line on stderr, and the same message and hint as JSON on stdout."""
    assert result.exit_code == exit_code, result.stderr
    lines = result.stderr.splitlines()
    document = json.loads(result.stdout)
    assert list(document) == ["schema", "status", "error"]
    assert document["schema"] == 1
    assert document["status"] == "error"
    error = document["error"]
    assert list(error) == ["exit", "message", "hint"]
    assert error["exit"] == exit_code
    prefix, _, message = lines[0].partition(": ")
    assert prefix == ("error" if exit_code == USAGE else "fatal")
    assert error["message"] == message
    hints = [line.removeprefix("hint: ") for line in lines[1:] if line.startswith("hint: ")]
    assert error["hint"] == (hints[0] if hints else None)
    return error


@pytest.mark.parametrize("args", [
    ["query", "--json", "OpenMeteoClient"],  # the fast path
    ["query", "--json", "-n5", "OpenMeteoClient"],  # the click path (the fast path does not know -n5)
    ["status", "--json"],
    ["bench", "--json"],
])
def test_no_bundle_under_json_is_a_json_error_too(sample_repo, args):
    if args[0] == "bench":
        (sample_repo.path / "routing-bench.yaml").write_text(
            "schema: 1\nquestions:\n  - id: q1\n    type: symbol\n    question: open meteo client\n"
            "    expect: [src/sample/weather.py]\n")
    error = assert_json_error(run_route(args, sample_repo.path), FATAL)
    assert error["message"] == "no routing bundle at 'refs/marola/routing-bundle'"
    assert error["hint"] == "run 'git route build'"


def test_build_of_an_unknown_revision_under_json_is_a_json_error(sample_repo):
    error = assert_json_error(run_route(["build", "--json", "no-such-rev"], sample_repo.path), FATAL)
    assert error["message"] == "unknown revision 'no-such-rev'"


def test_bench_without_a_bench_file_under_json_is_a_json_error(sample_repo):
    assert run_route(["build", "-q"], sample_repo.path).exit_code == 0
    error = assert_json_error(run_route(["bench", "--json"], sample_repo.path), FATAL)
    assert error["message"].startswith("no bench file at ")


def test_outside_a_repository_under_json_is_a_json_error(tmp_path: Path):
    assert_json_error(run_route(["status", "--json"], tmp_path), FATAL)


@pytest.mark.parametrize("args, message, usage", [
    (["query"], "missing argument 'TEXT...'", "git route query [OPTIONS] TEXT..."),
    (["query", "--limit", "0", "x"], "invalid value for '--limit' / '-n': 0 is not in the range 1<=x<=200",
     "git route query [OPTIONS] TEXT..."),
    (["build", "--no-such-option"], "no such option '--no-such-option'", "git route build [OPTIONS] [REV]"),
    (["no-such-command"], "no such command 'no-such-command'", "git route [OPTIONS] COMMAND [ARGS]..."),
])
def test_a_usage_error_is_one_git_style_line_with_the_usage_as_hint(sample_repo, args, message, usage):
    result = run_route(args, sample_repo.path)

    assert result.exit_code == USAGE
    assert result.stdout == ""
    command = " ".join(["git route"] + [a for a in args[:1] if a in ("query", "build")])
    assert result.stderr.splitlines() == [f"error: {message}", f"hint: usage: {usage}; see '{command} -h'"]


@pytest.mark.parametrize("args", [["query", "--json", "--kind", "banana", "x"], ["status", "--json", "--nope"],
                                  ["build", "--json", "HEAD", "extra"], ["bench", "--json", "--nope"]])
def test_a_usage_error_under_json_is_a_json_error_too(sample_repo, args):
    error = assert_json_error(run_route(args, sample_repo.path), USAGE)
    assert error["hint"].startswith("usage: git route ")


def test_json_after_the_end_of_options_is_a_word_not_a_request_for_json(sample_repo):
    result = run_route(["query", "--", "--json"], sample_repo.path)
    assert result.exit_code == FATAL
    assert result.stdout == ""


SCRIPT = """
import sys
from gitroute import api
from gitroute.cli import main

def broken(**kwargs):
    raise RuntimeError("a bug")

api.status = broken  # a bug planted in the library, to see the boundary treat it as one
main(sys.argv[1:])
"""


@pytest.mark.parametrize("debug", ["0", "1"])
@pytest.mark.parametrize("as_json", [False, True])
def test_an_internal_error_exits_3_with_or_without_the_traceback(sample_repo, debug, as_json):
    env = {"GITROUTE_DEBUG": debug, "PATH": "/usr/bin:/bin", "HOME": str(sample_repo.path)}
    args = ["status", "--json"] if as_json else ["status"]
    result = subprocess.run([sys.executable, "-c", SCRIPT, *args], cwd=sample_repo.path, env=env,
                            capture_output=True, text=True)

    assert result.returncode == INTERNAL, result.stderr
    assert "fatal: internal error: RuntimeError: a bug" in result.stderr.splitlines()
    assert ("Traceback (most recent call last)" in result.stderr) == (debug == "1")
    if as_json:
        assert json.loads(result.stdout)["error"] == {
            "exit": INTERNAL, "message": "internal error: RuntimeError: a bug",
            "hint": "rerun with GITROUTE_DEBUG=1 for the traceback, and report it"}
    else:
        assert result.stdout == ""
