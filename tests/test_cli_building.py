"""The click-free build path: the command lines it reads, the click command's options, the same reports."""
from __future__ import annotations

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import click
import pytest

from gitroute.cli import main, report_error
from gitroute.cli.app import run
from gitroute.cli.build import command as click_build
from gitroute.cli.building import JOBS_RANGE, parse_build_args
from gitroute.errors import GitrouteError
from tests.conftest import SAMPLE_FILES, RepoBuilder

PLAIN = {"rev": "HEAD", "jobs": None, "full": False, "no_fetch": False, "as_json": False, "quiet": False}


@pytest.mark.parametrize(("args", "expected"), [
    ([], {}),
    (["-q"], {"quiet": True}),
    (["--quiet", "--json", "--full", "--no-fetch"], {"quiet": True, "as_json": True, "full": True, "no_fetch": True}),
    (["-j", "2", "main~1"], {"jobs": 2, "rev": "main~1"}),
    (["main", "--jobs=64"], {"jobs": 64, "rev": "main"}),
    (["-j1", "--full"], {"jobs": 1, "full": True}),
    (["--jobs", "07"], {"jobs": 7}),
])
def test_a_plain_build_command_line_is_read_without_click(args: list[str], expected: dict) -> None:
    assert parse_build_args(args) == {**PLAIN, **expected}


@pytest.mark.parametrize("args", [
    ["-h"], ["--help"], ["-j", "0"], ["-j", "65"], ["-j"], ["-j", "x"], ["-j", "-1"], ["--jobs=", "2"], ["-j", "٣"],
    ["--max-file-bytes", "8m"], ["--meaning-model", "m"], ["--bogus"], ["--"], ["a", "b"], ["-qj2"], ["--json=1"],
])
def test_anything_else_is_left_to_click(args: list[str]) -> None:
    assert parse_build_args(args) is None


def test_the_fast_options_are_the_click_commands_options() -> None:
    spelled = {s: p.name for p in click_build.params if isinstance(p, click.Option) for s in p.opts}
    for spelling, name in {"--full": "full", "--no-fetch": "no_fetch", "--json": "as_json", "-q": "quiet",
                           "--quiet": "quiet", "-j": "jobs", "--jobs": "jobs"}.items():
        assert spelled[spelling] == name
    jobs = next(p for p in click_build.params if p.name == "jobs")
    assert isinstance(jobs.type, click.IntRange)
    assert (jobs.type.min, jobs.type.max) == JOBS_RANGE
    assert [(p.name, p.default) for p in click_build.params if isinstance(p, click.Argument)] == [("rev", "HEAD")]


def _captured(entry: Callable[[list[str]], object], args: list[str], cwd: Path) -> tuple[object, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = entry(list(args))
            except SystemExit as exc:
                code = exc.code
    finally:
        os.chdir(old)
    return code, out.getvalue(), err.getvalue()


def _by_click(args: list[str]) -> int:
    """The click app, behind the error boundary `cli.main` puts around it."""
    try:
        return run(args)
    except GitrouteError as error:
        return report_error(error)


def _timeless(text: str) -> str:
    """A report without its seconds, which differ from build to build."""
    text = re.sub(r" in \d+\.\d\d s$", " in S s", text, flags=re.MULTILINE)
    if text.startswith("{"):
        document = json.loads(text)
        document.pop("seconds")
        document.pop("phases")
        return json.dumps(document)
    return text


@pytest.mark.parametrize("args", [["build"], ["build", "--json"], ["build", "-q", "--full", "-j", "1"],
                                  ["build", "no-such-revision"]])
def test_both_paths_build_and_report_alike(tmp_path: Path, args: list[str]) -> None:
    builder = RepoBuilder(tmp_path / "sample")
    builder.commit(dict(SAMPLE_FILES), "initial")
    assert _captured(main, ["build", "-q"], builder.path) == (0, "", "")
    fast = _captured(main, args, builder.path)
    by_click = _captured(_by_click, args, builder.path)
    assert (fast[0], _timeless(fast[1]), fast[2]) == (by_click[0], _timeless(by_click[1]), by_click[2])
    if args[-1] == "no-such-revision":
        assert fast[0] == 128 and fast[1] == "" and fast[2].startswith("fatal: ")
    elif "-q" not in args:
        assert fast[1].strip()


def test_a_plain_build_imports_no_click(tmp_path: Path) -> None:
    builder = RepoBuilder(tmp_path / "sample")
    builder.commit(dict(SAMPLE_FILES), "initial")
    script = ("import sys\nfrom gitroute.cli import main\ntry:\n    main(['build', '-q'])\nexcept SystemExit as e:\n"
              "    code = e.code\nprint(code, 'click' in sys.modules, 'gitroute.cli.app' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=builder.path, capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["0", "False", "False"]
