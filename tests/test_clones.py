"""Partial and shallow clones, missing objects and revisions that name no commit: clear answers, never exit 3."""
from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pygit2
import pytest

from tests.conftest import SAMPLE_FILES, RepoBuilder

BUNDLE_REF = "refs/marola/routing-bundle"


def git(cwd: Path, *args: str) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    assert result.returncode == 0, f"git {' '.join(args)}: {result.stderr}"
    return result.stdout


@pytest.fixture
def served(make_repo) -> RepoBuilder:
    """The sample project, served over file:// with filters allowed, with one blob over 4 KB."""
    source = make_repo("served")
    files = dict(SAMPLE_FILES)
    files["src/sample/big_table.py"] = "def lookup_table_row():\n    pass\n" + "# padding\n" * 600
    source.commit(files, "initial")
    source.git("config", "uploadpack.allowFilter", "true")
    source.git("config", "uploadpack.allowAnySHA1InWant", "true")
    return source


def partial_clone(source: RepoBuilder, dest: Path, spec: str = "blob:none") -> Path:
    git(dest.parent, "clone", "-q", f"--filter={spec}", "--no-checkout", f"file://{source.path}", str(dest))
    return dest


def missing_blobs(repo: Path, commit: str = "HEAD") -> set[str]:
    """Blob ids of the commit's tree that the object store lacks, asked without git's lazy fetch."""
    handle = pygit2.Repository(str(repo))
    tree = handle.revparse_single(commit).peel(pygit2.Tree)
    ids: set[str] = set()
    stack = [tree]
    while stack:
        for item in stack.pop():
            if item.type_str == "tree":
                stack.append(handle[item.id])
            elif item.type_str == "blob" and item.id not in handle.odb:
                ids.add(str(item.id))
    return ids


def bundle_manifest(repo: Path) -> dict:
    return json.loads(git(repo, "cat-file", "-p", f"{BUNDLE_REF}:build.json"))


# --- partial clones and missing blobs -----------------------------------------------------------------


def test_partial_clone_fetches_the_missing_blobs_in_one_batch_and_builds(served, route, tmp_path):
    clone = partial_clone(served, tmp_path / "partial")
    assert missing_blobs(clone), "the clone should lack its blobs"

    result = route(["build"], clone)

    assert result.exit_code == 0, result.stderr
    assert missing_blobs(clone) == set()
    assert all(reason != "missing" for _, reason in bundle_manifest(clone)["skipped"])
    answer = route(["query", "--json", "OpenMeteoClient"], clone)
    assert json.loads(answer.stdout)["rows"][0]["path"] == "src/sample/weather.py"


def test_blob_limit_clone_fetches_the_large_blobs_it_lacks(served, route, tmp_path):
    clone = partial_clone(served, tmp_path / "limited", "blob:limit=4k")
    assert len(missing_blobs(clone)) == 1

    result = route(["build", "--json"], clone)

    assert result.exit_code == 0, result.stderr
    answer = route(["query", "--json", "lookup_table_row"], clone)
    assert json.loads(answer.stdout)["rows"][0]["path"] == "src/sample/big_table.py"


def test_tree_filtered_clone_fetches_its_trees_then_its_blobs(served, route, tmp_path):
    clone = partial_clone(served, tmp_path / "treeless", "tree:0")

    result = route(["build", "--json"], clone)

    assert result.exit_code == 0, result.stderr
    assert "missing" not in json.loads(result.stdout)["files"]["skipped"]
    answer = route(["query", "--json", "OpenMeteoClient"], clone)
    assert json.loads(answer.stdout)["rows"][0]["path"] == "src/sample/weather.py"


def test_no_fetch_names_every_missing_blob_and_builds_the_rest(served, route, tmp_path):
    clone = partial_clone(served, tmp_path / "limited", "blob:limit=4k")
    before = missing_blobs(clone)

    result = route(["build", "--no-fetch", "--json"], clone)

    assert result.exit_code == 0, result.stderr
    assert missing_blobs(clone) == before  # nothing fetched
    assert json.loads(result.stdout)["files"]["skipped"] == {"missing": 1}
    assert ["src/sample/big_table.py", "missing"] in bundle_manifest(clone)["skipped"]
    status = route(["status"], clone)
    assert status.exit_code == 0, status.stderr
    assert "1 missing" in status.stdout
    assert "  missing: src/sample/big_table.py" in status.stdout.splitlines()  # status names it
    assert json.loads(route(["status", "--json"], clone).stdout)["missing"] == ["src/sample/big_table.py"]
    answer = route(["query", "--json", "OpenMeteoClient"], clone)
    assert json.loads(answer.stdout)["rows"][0]["path"] == "src/sample/weather.py"


def test_no_fetch_in_a_clone_without_any_blob_still_builds(served, route, tmp_path):
    clone = partial_clone(served, tmp_path / "partial")

    result = route(["build", "--no-fetch", "--json"], clone)

    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["files"]["skipped"] == {"missing": len(SAMPLE_FILES) + 1}


def test_a_promisor_that_cannot_serve_leaves_blobs_missing_not_fatal(served, route, tmp_path):
    clone = partial_clone(served, tmp_path / "limited", "blob:limit=4k")
    served.git("config", "uploadpack.allowAnySHA1InWant", "false")
    served.git("config", "uploadpack.allowFilter", "false")
    (served.path / ".git" / "objects").rename(served.path / ".git" / "objects-gone")

    result = route(["build", "--json"], clone)

    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["files"]["skipped"] == {"missing": 1}


def test_a_deleted_loose_object_is_named_missing_and_the_rest_builds(make_repo, route):
    repo = make_repo()
    repo.commit({"alpha.py": "def alpha_function():\n    pass\n", "beta.py": "def beta_function():\n    pass\n"})
    blob = repo.git("rev-parse", "HEAD:beta.py").strip()
    os.remove(repo.path / ".git" / "objects" / blob[:2] / blob[2:])

    result = route(["build", "--json"], repo.path)

    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["files"]["skipped"] == {"missing": 1}
    assert ["beta.py", "missing"] in bundle_manifest(repo.path)["skipped"]
    answer = route(["query", "--json", "alpha_function"], repo.path)
    assert json.loads(answer.stdout)["rows"][0]["path"] == "alpha.py"
    assert "1 missing" in route(["status"], repo.path).stdout


def test_a_missing_committed_config_is_fatal_not_internal(make_repo, route):
    repo = make_repo()
    repo.commit({".gitroute.toml": "[build]\nmax_file_bytes = 100\n", "alpha.py": "def alpha():\n    pass\n"})
    blob = repo.git("rev-parse", "HEAD:.gitroute.toml").strip()
    os.remove(repo.path / ".git" / "objects" / blob[:2] / blob[2:])

    result = route(["build"], repo.path)

    assert result.exit_code == 128, result.stderr
    assert result.stderr.startswith("fatal: cannot read '.gitroute.toml'")
    assert repo.ref(BUNDLE_REF) is None


# --- shallow clones -----------------------------------------------------------------------------------


@pytest.fixture
def shallow_merge(make_repo, tmp_path) -> Path:
    """A depth-1 clone whose HEAD is a merge of two branches."""
    source = make_repo("history")
    base = source.commit({"a.py": "def one():\n    pass\n"}, "one")
    side = source.commit({"a.py": "def one():\n    pass\n", "b.py": "def side():\n    pass\n"}, "side",
                         parents=[base], branch="side", checkout=False)
    main = source.commit({"a.py": "def one_two():\n    pass\n"}, "two")
    source.commit({"a.py": "def one_two():\n    pass\n", "b.py": "def side():\n    pass\n"}, "merge",
                  parents=[main, side])
    clone = tmp_path / "shallow"
    git(tmp_path, "clone", "-q", "--depth", "1", f"file://{source.path}", str(clone))
    return clone


@pytest.mark.parametrize("rev", ["HEAD~1", "HEAD^2", "HEAD^1", "HEAD~2"])
def test_a_revision_past_the_shallow_boundary_is_unknown_with_a_hint(shallow_merge, route, rev):
    result = route(["build", rev], shallow_merge)

    assert result.exit_code == 128, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == f"fatal: unknown revision '{rev}'"
    assert lines[1].startswith("hint: ") and "shallow" in lines[1] and "git fetch --unshallow" in lines[1]
    assert "internal error" not in result.stderr


def test_the_shallow_tip_itself_builds(shallow_merge, route):
    result = route(["build", "-q"], shallow_merge)

    assert result.exit_code == 0, result.stderr


# --- revisions that name no commit --------------------------------------------------------------------


@pytest.mark.parametrize("rev, kind", [("HEAD^{tree}", "tree"), ("HEAD:README.md", "blob"),
                                       ("tree-tag", "tree"), ("annotated-tree-tag", "tree"), ("blob-id", "blob")])
def test_a_revision_that_names_no_commit_says_so(sample_repo, route, rev, kind):
    sample_repo.git("tag", "tree-tag", "HEAD^{tree}")
    sample_repo.git("tag", "-a", "-m", "a tree", "annotated-tree-tag", "HEAD^{tree}")
    if rev == "blob-id":
        rev = sample_repo.git("rev-parse", "HEAD:README.md").strip()

    result = route(["build", rev], sample_repo.path)

    assert result.exit_code == 128, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == f"fatal: '{rev}' names a {kind}, not a commit"
    assert lines[1].startswith("hint: ")
    assert sample_repo.ref(BUNDLE_REF) is None
