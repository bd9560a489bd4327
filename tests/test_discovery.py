"""Every command finds the repository exactly as git does: GIT_DIR, GIT_WORK_TREE, --git-dir, -C, subfolders,
linked worktrees and bare repositories."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SAMPLE_FILES, RepoBuilder

BUNDLE_REF = "refs/marola/routing-bundle"
ROUTE_BIN = os.path.dirname(sys.executable)  # the installed `git-route` sits beside the interpreter


@pytest.fixture
def two_repos(make_repo) -> tuple[RepoBuilder, RepoBuilder]:
    """`target`, the sample project, and `other`, a different repository the commands are started from."""
    target = make_repo("target")
    target.commit(dict(SAMPLE_FILES), "initial")
    other = make_repo("other")
    other.commit({"elsewhere.py": "def unrelated_function():\n    pass\n"}, "other")
    return target, other


def git_route(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`git ARGS` as a user types it, with the installed `git-route` on PATH: git itself dispatches to it."""
    if shutil.which("git-route", path=ROUTE_BIN) is None:
        pytest.skip("git-route is not installed beside the interpreter")
    full_env = dict(os.environ if env is None else env)
    full_env["PATH"] = ROUTE_BIN + os.pathsep + full_env.get("PATH", "")
    return subprocess.run(["git", *args], cwd=cwd, env=full_env, capture_output=True, text=True)


def assert_built_for(repo: RepoBuilder, untouched: RepoBuilder | None = None) -> None:
    assert repo.ref(BUNDLE_REF) is not None, "no bundle in the target repository"
    built = json.loads(repo.git("cat-file", "-p", f"{BUNDLE_REF}:build.json"))
    assert built["source"]["commit"] == repo.git("rev-parse", "HEAD").strip()
    if untouched is not None:
        assert untouched.ref(BUNDLE_REF) is None, "the bundle was written into the wrong repository"


def assert_answers(route, cwd: Path, env_note: str = "") -> None:
    """query and status answer from the target's bundle (OpenMeteoClient lives only there)."""
    answer = route(["query", "--json", "OpenMeteoClient"], cwd)
    assert answer.exit_code == 0, answer.stderr + env_note
    assert json.loads(answer.stdout)["rows"][0]["path"] == "src/sample/weather.py"
    status = route(["status", "--json"], cwd)
    assert status.exit_code == 0, status.stderr + env_note


def test_git_dir_environment_builds_that_repository(two_repos, route, monkeypatch):
    target, other = two_repos
    monkeypatch.setenv("GIT_DIR", str(target.path / ".git"))

    result = route(["build", "-q"], other.path)

    assert result.exit_code == 0, result.stderr
    assert_built_for(target, untouched=other)
    assert_answers(route, other.path)


def test_git_dir_and_work_tree_environment_from_outside_any_repository(two_repos, route, monkeypatch, tmp_path):
    target, _ = two_repos
    outside = tmp_path / "outside"
    outside.mkdir()
    monkeypatch.setenv("GIT_DIR", str(target.path / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(target.path))

    result = route(["build", "-q"], outside)

    assert result.exit_code == 0, result.stderr
    assert_built_for(target)
    assert_answers(route, outside)
    assert list(outside.iterdir()) == []


def test_relative_git_dir_is_relative_to_the_current_folder(two_repos, route, monkeypatch):
    target, other = two_repos
    monkeypatch.setenv("GIT_DIR", os.path.relpath(target.path / ".git", other.path))

    result = route(["build", "-q"], other.path)

    assert result.exit_code == 0, result.stderr
    assert_built_for(target, untouched=other)


def test_git_dash_dash_git_dir_builds_that_repository(two_repos):
    target, other = two_repos

    built = git_route(["--git-dir", str(target.path / ".git"), "route", "build", "-q"], other.path)

    assert built.returncode == 0, built.stderr
    assert_built_for(target, untouched=other)
    answer = git_route(["--git-dir", str(target.path / ".git"), "route", "query", "--json", "OpenMeteoClient"],
                       other.path)
    assert answer.returncode == 0, answer.stderr
    assert json.loads(answer.stdout)["rows"][0]["path"] == "src/sample/weather.py"
    status = git_route([f"--git-dir={target.path / '.git'}", "route", "status", "--json"], other.path)
    assert status.returncode == 0, status.stderr
    assert json.loads(status.stdout)["source"]["commit"] == target.git("rev-parse", "HEAD").strip()


def test_git_dash_c_builds_that_repository(two_repos):
    target, other = two_repos

    built = git_route(["-C", str(target.path), "route", "build", "-q"], other.path)

    assert built.returncode == 0, built.stderr
    assert_built_for(target, untouched=other)
    status = git_route(["-C", str(target.path), "route", "status", "--json"], other.path)
    assert status.returncode == 0, status.stderr


def test_subfolder_builds_the_enclosing_repository(two_repos, route):
    target, _ = two_repos
    sub = target.path / "src" / "sample"

    result = route(["build", "-q"], sub)

    assert result.exit_code == 0, result.stderr
    assert_built_for(target)
    assert_answers(route, sub)


def test_linked_worktree_builds_its_own_head_into_the_shared_refs(two_repos, route, tmp_path):
    target, _ = two_repos
    worktree = tmp_path / "linked"
    target.git("worktree", "add", "-q", "-b", "feature", str(worktree))
    (worktree / "feature_only.py").write_text("def linked_worktree_feature():\n    pass\n")
    subprocess.run(["git", "add", "."], cwd=worktree, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "feature"], cwd=worktree, check=True)
    feature_head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=worktree, capture_output=True, text=True,
                                  check=True).stdout.strip()

    result = route(["build", "-q"], worktree)

    assert result.exit_code == 0, result.stderr
    built = json.loads(target.git("cat-file", "-p", f"{BUNDLE_REF}:build.json"))
    assert built["source"]["commit"] == feature_head  # the worktree's HEAD, not the main checkout's
    answer = route(["query", "--json", "linked_worktree_feature"], worktree)
    assert answer.exit_code == 0, answer.stderr
    assert json.loads(answer.stdout)["rows"][0]["path"] == "feature_only.py"


def test_bare_repository_builds_and_answers(two_repos, route, tmp_path):
    target, _ = two_repos
    bare = tmp_path / "bare.git"
    subprocess.run(["git", "clone", "-q", "--bare", str(target.path), str(bare)], check=True)

    result = route(["build", "-q"], bare)

    assert result.exit_code == 0, result.stderr
    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=bare, capture_output=True, text=True).stdout.strip()
    built = subprocess.run(["git", "cat-file", "-p", f"{BUNDLE_REF}:build.json"], cwd=bare, capture_output=True,
                           text=True, check=True).stdout
    assert json.loads(built)["source"]["commit"] == head
    assert target.ref(BUNDLE_REF) is None
    assert_answers(route, bare)


def test_git_dir_that_is_not_a_repository_is_fatal(two_repos, route, monkeypatch, tmp_path):
    _, other = two_repos
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "nowhere"))

    result = route(["build"], other.path)

    assert result.exit_code == 128
    assert result.stderr.startswith("fatal: not a git repository")
    assert other.ref(BUNDLE_REF) is None


BENCH = """\
schema: 1
questions:
  - id: weather
    type: symbol
    question: "the Open-Meteo forecast client"
    expect: ["src/sample/weather.py"]
"""


def test_bench_runs_against_the_repository_git_names(two_repos, route, monkeypatch, tmp_path):
    target, other = two_repos
    files = dict(SAMPLE_FILES, **{"routing-bench.yaml": BENCH})
    target.commit(files, "bench")
    assert route(["build", "-q"], target.path).exit_code == 0

    through_c = git_route(["-C", str(target.path), "route", "bench", "--json"], other.path)
    assert through_c.returncode == 0, through_c.stderr
    assert json.loads(through_c.stdout)["questions"][0]["id"] == "weather"

    outside = tmp_path / "outside"
    outside.mkdir()
    monkeypatch.setenv("GIT_DIR", str(target.path / ".git"))
    monkeypatch.setenv("GIT_WORK_TREE", str(target.path))
    from_env = route(["bench", "--json"], outside)
    assert from_env.exit_code == 0, from_env.stderr
    assert json.loads(from_env.stdout) == json.loads(through_c.stdout)


def test_a_build_process_that_exits_without_freeing_its_memory_still_reports_whole(two_repos) -> None:
    """`git route build` leaves its memory to the OS at exit (os._exit): its report must still be written
    whole and its exit code kept, on success and on failure."""
    target, _other = two_repos
    built = git_route(["route", "build", "--json"], target.path)
    assert built.returncode == 0, built.stderr
    report = json.loads(built.stdout)
    assert report["status"] == "built" and report["source"]["commit"] == target.git("rev-parse", "HEAD").strip()
    assert_built_for(target)
    again = git_route(["route", "build", "-q"], target.path)  # nothing to build: no output, still exit 0
    assert again.returncode == 0 and again.stdout == "", again.stderr
    failed = git_route(["route", "build", "--json", "no-such-revision"], target.path)
    assert failed.returncode not in (0, 1) and json.loads(failed.stdout)["status"] == "error"
