"""A bundle is untrusted input: fetched values are validated, never options, never trusted by a later build."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pygit2
import pytest

from gitroute.bundle.layout import FORMAT_VERSION
from gitroute.bundle.memo import code_salt
from tests.conftest import SAMPLE_FILES, RepoBuilder

BUNDLE_REF = "refs/marola/routing-bundle"
FATAL = 128
DAMAGED = f"fatal: the bundle at '{BUNDLE_REF}' is damaged: "
REPLACE_HINT = "hint: run 'git route build' to replace it"


def git(cwd: Path, *args: str, stdin: str | None = None) -> str:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, input=stdin)
    assert result.returncode == 0, f"git {' '.join(args)}: {result.stderr}"
    return result.stdout


def forge_bundle(repo: RepoBuilder, message: str, tree: str | None = None) -> str:
    """Point the bundle ref at a commit with `message` over `tree` (default: the real bundle's tree)."""
    commit = git(repo.path, "commit-tree", tree or repo.bundle_tree(), stdin=message).strip()
    git(repo.path, "update-ref", BUNDLE_REF, commit)
    return commit


def fetch_bundles(user: Path) -> None:
    """What the README tells a user to do to get the team's bundle."""
    git(user, "config", "--add", "remote.origin.fetch", "+refs/marola/*:refs/marola/*")
    git(user, "fetch", "-q")


@pytest.fixture
def upstream(sample_repo: RepoBuilder, route) -> RepoBuilder:
    """Someone else's repository with a real bundle built, to be forged and fetched from."""
    assert route(["build", "-q"], sample_repo.path).exit_code == 0
    return sample_repo


@pytest.fixture
def user(upstream: RepoBuilder, tmp_path: Path) -> Path:
    """A clone of upstream, as a user has it."""
    git(tmp_path, "clone", "-q", str(upstream.path), "user")
    return tmp_path / "user"


def assert_damaged(result, why: str | None = None) -> None:
    lines = result.stderr.splitlines()
    assert result.exit_code == FATAL, result.stderr
    assert result.stdout == ""
    assert lines[0].startswith(DAMAGED), result.stderr
    if why is not None:
        assert lines[0] == DAMAGED + why
    assert lines[1:] == [REPLACE_HINT]


# --- 1. values from a bundle never become options -----------------------------------------------


def trailers(source: str, version: str = str(FORMAT_VERSION)) -> str:
    return f"routing bundle\n\nGitroute-Format: {version}\nGitroute-Source: {source}\n"


@pytest.mark.parametrize("hostile", [
    "--output={pwned}",
    "--output={pwned} ",
    "HEAD",  # a ref name: the bundle must name the commit it answers from, not let git resolve one
    "main",
    "deadbeef",  # short hex
    "z" * 40,  # not hex
    "A" * 40,  # upper case
    "{head}...{head}",
    "-" + "0" * 39,
])
@pytest.mark.parametrize("command", [["query", "x"], ["status"]])
def test_a_fetched_bundle_with_a_hostile_source_trailer_is_damaged_and_runs_nothing(
        upstream, user, route, tmp_path, hostile, command):
    pwned = tmp_path / "pwned"
    head = git(user, "rev-parse", "HEAD").strip()
    forge_bundle(upstream, trailers(hostile.format(pwned=pwned, head=head)))
    fetch_bundles(user)

    result = route(command, user)

    assert list(tmp_path.glob("pwned*")) == []  # rev-list would write `pwned...<head>`
    assert_damaged(result, "its 'Gitroute-Source' trailer is not a full object id")


@pytest.mark.parametrize("version", ["one", "+1", "1_0", "", "--output=x"])
def test_a_bundle_whose_format_trailer_is_not_a_number_is_damaged(upstream, route, version):
    forge_bundle(upstream, trailers(upstream.git("rev-parse", "HEAD").strip(), version))
    assert_damaged(route(["query", "x"], upstream.path))


def test_a_bundle_with_a_valid_source_trailer_still_answers(upstream, user, route):
    fetch_bundles(user)
    result = route(["query", "--json", "OpenMeteoClient"], user)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["rows"][0]["name"] == "OpenMeteoClient"


def test_status_refuses_a_manifest_of_the_wrong_shape(upstream, route):
    from tests.test_errors import write_bundle

    head = upstream.git("rev-parse", "HEAD").strip()
    for manifest in (
        {"counts": {"files": "--output=x"}},
        {"counts": {"nodes": {"function": -1}}},
        {"submodules": [{"path": "../outside", "commit": head, "present": True}]},
        {"submodules": [{"path": "sub", "commit": "--output=x", "present": True}]},
        {"warnings": "not a list"},
        {"warnings": [["/etc/passwd", "a warning"]]},
    ):
        write_bundle(upstream, {"build.json": json.dumps(manifest).encode()}, upstream.bundle_tree())
        assert_damaged(route(["status"], upstream.path))


def test_validation_of_values(tmp_path):
    from gitroute.bundle.validate import BadValue, check_relative_path, is_object_id

    assert is_object_id("a" * 40, 40) and is_object_id("0" * 64, 64)
    assert not is_object_id("a" * 64, 40) and not is_object_id("a" * 39, 40) and not is_object_id(None, 40)
    for ok in ("a", "src/a.py", "a..b/c", "caf\\xe9.py", "a\\b"):
        assert check_relative_path(ok, "p") == ok
    for bad in ("", "/etc/passwd", "../x", "a/../b", "a//b", "./a", "a/", "a\0b", 3):
        with pytest.raises(BadValue):
            check_relative_path(bad, "p")


def test_swap_ref_refuses_ids_that_are_not_object_ids(sample_repo, route):
    from gitroute.errors import GitrouteError
    from gitroute.git import repository as gitmod

    assert route(["build", "-q"], sample_repo.path).exit_code == 0
    current = sample_repo.ref(BUNDLE_REF)
    for new, old in (("--stdin", current), (current, "--no-deref"), ("HEAD", current)):
        with pytest.raises(GitrouteError):
            gitmod.swap_ref(sample_repo.repo, BUNDLE_REF, new, old)
    assert sample_repo.ref(BUNDLE_REF) == current


# --- 2. a fetched bundle never decides what a later build believes --------------------------------


def test_a_bundle_holds_no_extraction_results(upstream):
    """Extraction results live in the build's own cache beside the memo (where a fetch cannot write), never in
    the bundle: a fetched bundle has none to plant, and none to weigh (docs/decisions/0025)."""
    paths = upstream.git("ls-tree", "-r", "--name-only", BUNDLE_REF).split()
    assert paths and not any(p.startswith("extract/") for p in paths)


def test_a_fetched_bundles_extractions_are_not_reused(upstream, user, route, tmp_path):
    fetch_bundles(user)

    result = route(["build", "--json"], user)

    assert result.exit_code == 0, result.stderr
    files = json.loads(result.stdout)["files"]
    assert files["reused"] == 0
    assert files["parsed"] == len(SAMPLE_FILES)
    # The same bundle as a build that never saw the forgery.
    fresh = tmp_path / "fresh"
    git(tmp_path, "clone", "-q", str(upstream.path), "fresh")
    assert route(["build", "-q"], fresh).exit_code == 0
    assert git(user, "rev-parse", f"{BUNDLE_REF}^{{tree}}") == git(fresh, "rev-parse", f"{BUNDLE_REF}^{{tree}}")


def test_a_builds_own_bundle_is_reused(upstream, route):
    upstream.commit({**SAMPLE_FILES, "extra.py": "def extra():\n    pass\n"}, "one more file")
    result = route(["build", "--json"], upstream.path)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["files"]["reused"] == len(SAMPLE_FILES)


def test_the_own_bundles_record_is_bounded(make_repo, route):
    from gitroute.bundle.provenance import MAX_OWN_BUNDLES

    repo = make_repo()
    for i in range(MAX_OWN_BUNDLES + 3):
        repo.commit({"a.py": f"def f{i}():\n    pass\n"}, f"c{i}")
        assert route(["build", "-q"], repo.path).exit_code == 0
    recorded = (repo.path / ".git" / "gitroute" / "own-bundles").read_text().splitlines()
    assert len(recorded) == MAX_OWN_BUNDLES
    assert recorded[-1] == f"{repo.ref(BUNDLE_REF)} {code_salt()}"


# --- 6. a damaged bundle ref is reported as damaged, and build replaces it ------------------------


def damage(repo: RepoBuilder, how: str) -> str:
    """Make the bundle ref damaged in one way; returns what the ref holds now."""
    if how == "missing object":
        made_up = "1234567890abcdef" * 2 + "12345678"
        (repo.path / ".git" / "refs" / "marola" / "routing-bundle").write_text(made_up + "\n")
        return made_up
    if how == "blob":
        blob = git(repo.path, "hash-object", "-w", "--stdin", stdin="not a bundle").strip()
        git(repo.path, "update-ref", BUNDLE_REF, blob)
        return blob
    if how == "tag":
        current = repo.ref(BUNDLE_REF)
        git(repo.path, "tag", "-a", "-m", "a tag", "bundle-tag", current)
        tag = git(repo.path, "rev-parse", "bundle-tag").strip()
        git(repo.path, "update-ref", BUNDLE_REF, tag)
        return tag
    if how == "missing tree":
        made_up_tree = "abcdef1234567890" * 2 + "abcdef12"
        head = repo.git("rev-parse", "HEAD").strip()
        raw = (f"tree {made_up_tree}\nauthor a <a@b> 1700000000 +0000\ncommitter a <a@b> 1700000000 +0000\n\n"
               + trailers(head))
        commit = git(repo.path, "hash-object", "-t", "commit", "-w", "--literally", "--stdin", stdin=raw).strip()
        git(repo.path, "update-ref", BUNDLE_REF, commit)
        return commit
    if how == "no manifest":
        index = pygit2.Index()
        index.read_tree(repo.repo[pygit2.Oid(hex=repo.bundle_tree())])
        index.remove("build.json")
        return forge_bundle(repo, trailers(repo.git("rev-parse", "HEAD").strip()),
                            str(index.write_tree(repo.repo)))
    if how == "unreadable manifest":
        from tests.test_errors import write_bundle

        return write_bundle(repo, {"build.json": b"{not json"}, repo.bundle_tree())
    if how == "bad trailer":
        return forge_bundle(repo, trailers("--output=/dev/null"))
    raise AssertionError(how)


CASES = {
    "missing object": "it points at a missing object",
    "blob": "it points at a blob, not a commit",
    "tag": "it points at a tag, not a commit",
    "missing tree": "its tree is missing",
    "no manifest": "'build.json' is missing",
    "unreadable manifest": "'build.json' is unreadable",
    "bad trailer": "its 'Gitroute-Source' trailer is not a full object id",
}


@pytest.mark.parametrize("how", list(CASES))
def test_status_names_a_damaged_bundle(upstream, route, how):
    damage(upstream, how)
    assert_damaged(route(["status"], upstream.path), CASES[how])


@pytest.mark.parametrize("how", ["missing object", "blob", "tag", "missing tree", "bad trailer"])
def test_query_names_a_damaged_bundle(upstream, route, how):
    damage(upstream, how)
    assert_damaged(route(["query", "OpenMeteoClient"], upstream.path), CASES[how])


def test_a_missing_ref_is_still_no_bundle(sample_repo, route):
    result = route(["query", "x"], sample_repo.path)
    assert result.exit_code == FATAL
    assert result.stderr.splitlines()[0] == f"fatal: no routing bundle at '{BUNDLE_REF}'"


@pytest.mark.parametrize("how", list(CASES))
def test_build_replaces_a_damaged_bundle_with_a_warning(upstream, route, tmp_path, how):
    good_tree = upstream.bundle_tree()
    damage(upstream, how)

    result = route(["build"], upstream.path)

    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines() == [
        f"warning: the bundle at '{BUNDLE_REF}' is damaged ({CASES[how]}); building a fresh one"]
    assert upstream.bundle_tree() == good_tree
    answer = route(["query", "--json", "OpenMeteoClient"], upstream.path)
    assert answer.exit_code == 0, answer.stderr
    assert json.loads(answer.stdout)["rows"][0]["name"] == "OpenMeteoClient"


def test_build_json_reports_the_damage_warning(upstream, route):
    damage(upstream, "blob")
    result = route(["build", "--json"], upstream.path)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["notes"] == [
        f"the bundle at '{BUNDLE_REF}' is damaged (it points at a blob, not a commit); building a fresh one"]


# --- 11. a stale lock file is named ----------------------------------------------------------------


def test_a_stale_ref_lock_is_named_not_called_a_race(upstream, route):
    previous = upstream.ref(BUNDLE_REF)
    upstream.commit({**SAMPLE_FILES, "extra.py": "def extra():\n    pass\n"}, "one more file")
    lock = upstream.path / ".git" / "refs" / "marola" / "routing-bundle.lock"
    lock.write_text("")

    result = route(["build", "-q"], upstream.path)

    assert result.exit_code == FATAL
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"fatal: a lock file is in the way: '{lock}'",
        "hint: if no other git process is running in this repository, remove it and run 'git route build' again",
    ]
    assert upstream.ref(BUNDLE_REF) == previous
    lock.unlink()
    assert route(["build", "-q"], upstream.path).exit_code == 0


def test_a_ref_file_git_cannot_read_is_named_with_what_to_remove(upstream, route):
    ref_file = upstream.path / ".git" / "refs" / "marola" / "routing-bundle"
    ref_file.write_text("garbage\n")

    result = route(["build", "-q"], upstream.path)

    assert result.exit_code == FATAL
    assert result.stderr.splitlines() == [
        f"{DAMAGED}git cannot read the ref itself",
        f"hint: git refuses to delete a broken ref: remove '{ref_file}', then run 'git route build'",
    ]
    ref_file.unlink()
    assert route(["build", "-q"], upstream.path).exit_code == 0
