"""The bundle as a git tree: deterministic, side-effect free, packed, incremental, atomic, self-describing."""
from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import gitroute
from gitroute.bundle.layout import FORMAT_VERSION
from gitroute.config import parse_config
from gitroute.errors import BuildRaceLost
from tests.conftest import SAMPLE_FILES, RepoBuilder
from tests.helpers import build_json

BUNDLE_REF = "refs/marola/routing-bundle"
PROJECT_ROOT = Path(__file__).resolve().parents[1]
RACE_MESSAGE = f"fatal: another build moved '{BUNDLE_REF}' while this one ran; its bundle is kept"


def build(route, repo: RepoBuilder, *args: str) -> dict:
    return build_json(route, repo, *args, quiet=True)


def manifest(repo: RepoBuilder, ref: str = BUNDLE_REF) -> dict:
    return json.loads(repo.git("cat-file", "-p", f"{ref}:build.json"))


def skipped(repo: RepoBuilder) -> list[list[str]]:
    """The build report's [path, reason] list, from the manifest."""
    return manifest(repo)["skipped"]


def many_files(count: int, flavour: str = "") -> dict[str, str]:
    """`count` small Python modules spread over folders; `flavour` changes every blob."""
    return {
        f"pkg{i % 16}/mod{i}.py": (
            f"class Widget{i}:\n    def render_{i}(self):\n        return helper_{i}()  # {flavour}\n\n\n"
            f"def helper_{i}():\n    return {i}\n"
        )
        for i in range(count)
    }


def loose_objects(repo: RepoBuilder) -> set[str]:
    objects = repo.path / ".git" / "objects"
    return {f"{d.name}{f.name}" for d in objects.glob("??") for f in d.iterdir()}


def fsck(repo: RepoBuilder) -> subprocess.CompletedProcess:
    return subprocess.run(["git", "fsck", "--strict", "--no-dangling"], cwd=repo.path, capture_output=True, text=True, check=False)


def route_process(repo: RepoBuilder, *args: str, **popen) -> subprocess.Popen:
    """`python -m gitroute ARGS` as a real process (the CLI module needs no installation)."""
    env = dict(os.environ, PYTHONPATH=str(PROJECT_ROOT))
    return subprocess.Popen([sys.executable, "-m", "gitroute", *args], cwd=repo.path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **popen)


# --- deterministic --------------------------------------------------------------------------


def test_same_commit_built_twice_gives_the_same_bundle_tree(sample_repo, route):
    first = build(route, sample_repo)
    sample_repo.git("update-ref", "-d", BUNDLE_REF)

    second = build(route, sample_repo, "-j", "1")

    assert second["status"] == "built"
    assert second["bundle"]["tree"] == first["bundle"]["tree"]
    assert second["bundle"]["commit"] == first["bundle"]["commit"]


def test_same_content_in_two_repositories_gives_the_same_bundle_tree(make_repo, route):
    one, other = make_repo("one"), make_repo("other")
    one.commit(dict(SAMPLE_FILES), "initial")
    other.commit(dict(reversed(list(SAMPLE_FILES.items()))), "initial")

    assert build(route, one)["bundle"]["tree"] == build(route, other)["bundle"]["tree"]
    assert one.bundle_tree() == other.bundle_tree()


def test_rebuilding_an_unchanged_commit_moves_nothing(sample_repo, route):
    first = build(route, sample_repo)
    second = build(route, sample_repo)
    assert second["status"] == "unchanged"
    assert second["files"]["parsed"] == 0
    assert sample_repo.ref(BUNDLE_REF) == first["bundle"]["commit"]


def test_bundle_commit_is_parentless(sample_repo, route):
    build(route, sample_repo)
    sample_repo.commit({**SAMPLE_FILES, "src/sample/extra.py": "def extra():\n    pass\n"}, "second")
    build(route, sample_repo)

    header = sample_repo.git("cat-file", "-p", BUNDLE_REF).split("\n\n")[0]
    assert [line.split()[0] for line in header.splitlines()] == ["tree", "author", "committer"]


# --- no side effects ------------------------------------------------------------------------


def test_build_leaves_work_tree_head_and_index_untouched(sample_repo, route):
    (sample_repo.path / "src" / "sample" / "weather.py").write_text("class Edited:\n    pass\n")
    (sample_repo.path / "untracked.py").write_text("x = 1\n")
    (sample_repo.path / "staged.py").write_text("y = 2\n")
    sample_repo.git("add", "staged.py")
    index = sample_repo.path / ".git" / "index"
    before = (sample_repo.git("status", "--porcelain=v1", "-uall"), sample_repo.git("rev-parse", "HEAD"),
              sample_repo.git("symbolic-ref", "HEAD"), index.read_bytes())
    assert before[0] != ""

    build(route, sample_repo)

    after = (sample_repo.git("status", "--porcelain=v1", "-uall"), sample_repo.git("rev-parse", "HEAD"),
             sample_repo.git("symbolic-ref", "HEAD"), index.read_bytes())
    assert after == before
    assert sample_repo.git("for-each-ref", "--format=%(refname)") == f"refs/heads/main\n{BUNDLE_REF}\n"


def test_fsck_strict_passes_after_builds(sample_repo, route):
    build(route, sample_repo)
    sample_repo.commit({**SAMPLE_FILES, "src/sample/extra.py": "def extra():\n    pass\n"}, "second")
    build(route, sample_repo)

    checked = fsck(sample_repo)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout == "" and checked.stderr == ""


def test_bundle_blobs_are_written_as_a_pack_not_loose_objects(make_repo, route):
    repo = make_repo()
    repo.commit(many_files(600))  # enough for over 100 bundle blobs (git's unpack limit)
    before = loose_objects(repo)

    build(route, repo)

    bundle_blobs = repo.git("ls-tree", "-r", BUNDLE_REF).count(" blob ")
    new_loose = loose_objects(repo) - before
    bundle_trees = repo.git("ls-tree", "-r", "-t", BUNDLE_REF).count(" tree ")
    assert bundle_blobs >= 100
    # Only the trees (one per folder of the bundle, the root too) and the commit may be loose.
    assert len(new_loose) <= bundle_trees + 2, f"{len(new_loose)} loose objects for {bundle_blobs} blobs"
    loose_types = {repo.git("cat-file", "-t", oid).strip() for oid in new_loose}
    assert loose_types <= {"tree", "commit"}


# --- incremental ----------------------------------------------------------------------------


def test_one_file_commit_parses_one_file_and_reuses_the_rest(sample_repo, route):
    first = build(route, sample_repo)
    files = len(SAMPLE_FILES)
    assert first["files"] == {"read": files, "parsed": files, "reused": 0, "skipped": {}}

    sample_repo.commit({**SAMPLE_FILES, "src/sample/http_server.py": "class HTTPServer:\n    pass\n"}, "one file")
    second = build(route, sample_repo)

    assert second["files"] == {"read": files, "parsed": 1, "reused": files - 1, "skipped": {}}


def test_incremental_bundle_equals_a_fresh_one(sample_repo, route):
    build(route, sample_repo)
    sample_repo.commit({**SAMPLE_FILES, "src/sample/http_server.py": "class HTTPServer:\n    pass\n"}, "one file")
    incremental = build(route, sample_repo)["bundle"]["tree"]
    sample_repo.git("update-ref", "-d", BUNDLE_REF)

    assert build(route, sample_repo)["bundle"]["tree"] == incremental


# --- the manifest ---------------------------------------------------------------------------


def test_manifest_describes_source_versions_config_counts_and_skips(make_repo, route):
    repo = make_repo()
    config = b"[build]\nmax_file_bytes = 4096\n"
    commit = repo.commit({
        ".gitroute.toml": config,
        "src/app.py": "class Application:\n    def start(self):\n        pass\n",
        "data.bin": b"\x00\x01",
    })

    built = build(route, repo)
    doc = manifest(repo)

    assert doc["format_version"] == FORMAT_VERSION
    assert doc["gitroute_version"] == gitroute.__version__
    assert doc["source"] == {"commit": commit, "tree": repo.git("rev-parse", "HEAD^{tree}").strip()}
    assert doc["config_fingerprint"] == parse_config(config).fingerprint()
    assert doc["config_fingerprint"] != parse_config(None).fingerprint()
    assert doc["counts"]["files"] == 2
    assert doc["counts"]["nodes"] == {"class": 1, "file": 2, "method": 1}
    assert skipped(repo) == [["data.bin", "binary"]]
    assert doc["skipped_by_reason"] == {"binary": 1}
    assert built["source"]["commit"] == commit
    assert built["bundle"]["tree"] == repo.bundle_tree()


# --- atomic ---------------------------------------------------------------------------------


def test_swap_refuses_a_ref_that_moved_and_keeps_it(sample_repo, route):
    from gitroute.git import repository as git

    build(route, sample_repo)
    current = sample_repo.ref(BUNDLE_REF)
    head = sample_repo.git("rev-parse", "HEAD").strip()
    stale_expectation = sample_repo.git("rev-parse", "HEAD^{tree}").strip()  # any id that is not `current`

    with pytest.raises(BuildRaceLost):
        git.swap_ref(sample_repo.repo, BUNDLE_REF, head, stale_expectation)
    with pytest.raises(BuildRaceLost):
        git.swap_ref(sample_repo.repo, BUNDLE_REF, head, None)  # "must not exist"
    assert sample_repo.ref(BUNDLE_REF) == current


def test_concurrent_builds_leave_a_readable_bundle(make_repo, route):
    repo = make_repo()
    outcomes: set[str] = set()
    for round_ in range(3):
        repo.commit(many_files(60, flavour=f"round {round_}"), f"round {round_}")
        procs = [route_process(repo, "build", "-q"), route_process(repo, "build", "-q", "HEAD")]
        for proc in procs:
            out, err = proc.communicate(timeout=60)
            assert out == ""
            if proc.returncode == 0:
                assert err == ""
                outcomes.add("built")
            else:
                lines = err.splitlines()
                assert proc.returncode == 128, err
                assert lines[0] == RACE_MESSAGE
                assert all(line.startswith("hint: ") for line in lines[1:])
                outcomes.add("lost")
        head = repo.git("rev-parse", "HEAD").strip()
        assert manifest(repo)["source"]["commit"] == head
        answer = route(["query", "--json", f"Widget{round_}"], repo.path)
        assert answer.exit_code == 0, answer.stderr
        assert json.loads(answer.stdout)["rows"][0]["name"] == f"Widget{round_}"
        checked = fsck(repo)
        assert checked.returncode == 0, checked.stderr
    assert "built" in outcomes


def _children_commands(pid: int) -> list[str]:
    try:
        with open(f"/proc/{pid}/task/{pid}/children", encoding="ascii") as f:
            kids = f.read().split()
    except OSError:
        return []
    commands = []
    for kid in kids:
        try:
            with open(f"/proc/{kid}/cmdline", "rb") as f:
                commands.append(f.read().replace(b"\0", b" ").decode("utf-8", "replace"))
        except OSError:
            continue
    return commands


def _wait_for_child(proc: subprocess.Popen, needle: str, timeout: float = 30.0) -> bool:
    """Poll until the build runs a git child whose command line holds `needle`; False if it ended first."""
    deadline = time.monotonic() + timeout
    while proc.poll() is None and time.monotonic() < deadline:
        if any(needle in command for command in _children_commands(proc.pid)):
            return True
        time.sleep(0.0005)
    return False


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="watches the build's children through /proc")
def test_killed_build_leaves_the_previous_bundle_readable(make_repo, route):
    repo = make_repo()
    repo.commit(many_files(400), "old")
    started = time.monotonic()
    _, err = route_process(repo, "build", "-q", "-j", "1").communicate(timeout=60)
    assert err == ""
    full_build = time.monotonic() - started
    previous = repo.ref(BUNDLE_REF)
    assert previous is not None
    repo.commit(many_files(400, flavour="new"), "new")  # every blob changes: a full rebuild
    previous_answer = route(["query", "--json", "Widget7"], repo.path).stdout
    assert json.loads(previous_answer)["source"]["stale_by"] == 1

    # Kill points: a share of a full build's time, and the moment each git writer starts.
    kill_points: list[float | str] = [0.1, 0.25, 0.4, 0.6, "fast-import", "update-ref"]
    interrupted: list[float | str] = []
    for point in kill_points:
        # A writer can start and end between two polls on a loaded machine: try a few builds.
        for _ in range(5):
            repo.git("update-ref", BUNDLE_REF, previous)
            proc = route_process(repo, "build", "-q", "-j", "1", start_new_session=True)
            seen = _wait_for_child(proc, point) if isinstance(point, str) else time.sleep(full_build * point)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)  # the build and any git process it started
            proc.communicate()
            if seen or not isinstance(point, str) or point == "update-ref":
                break
        # (A writer that is never caught, on a loaded machine, leaves this point a plain kill.)

        if repo.ref(BUNDLE_REF) == previous:
            interrupted.append(point)
            assert route(["query", "--json", "Widget7"], repo.path).stdout == previous_answer
        else:  # the swap happened before the kill: then the new bundle is the complete one
            assert manifest(repo)["source"]["commit"] == repo.git("rev-parse", "HEAD").strip()
            assert route(["query", "--json", "Widget7"], repo.path).exit_code == 0
        status = route(["status", "--json"], repo.path)
        assert status.exit_code == 0, status.stderr
        checked = subprocess.run(["git", "fsck", "--no-dangling"], cwd=repo.path, capture_output=True, text=True, check=False)
        assert checked.returncode == 0, checked.stderr
    assert len(interrupted) >= 3, interrupted


def test_build_report_counts_add_up(make_repo, route):
    repo = make_repo()
    repo.commit({"a.py": "def alpha():\n    pass\n", "b.py": "def beta():\n    pass\n", "logo.png": b"\x89PNG\0\0data"})
    first = json.loads(route(["build", "--json"], repo.path).stdout)["files"]
    assert first == {"read": 3, "parsed": 2, "reused": 0, "skipped": {"binary": 1}}
    repo.commit({"a.py": "def alpha():\n    pass\n", "b.py": "def beta_two():\n    pass\n", "logo.png": b"\x89PNG\0\0data"})
    second = json.loads(route(["build", "--json"], repo.path).stdout)["files"]
    assert second == {"read": 3, "parsed": 1, "reused": 1, "skipped": {"binary": 1}}
