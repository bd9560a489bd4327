"""Errors: one `fatal:` line (and a `hint:`) on stderr, nothing on stdout, the documented exit code, nothing written."""
from __future__ import annotations

import json
from pathlib import Path

import pygit2
import pytest
from pygit2.enums import FileMode

from gitroute.bundle.layout import FORMAT_VERSION
from tests.conftest import SAMPLE_FILES, RepoBuilder, forget_extraction_cache

BUNDLE_REF = "refs/marola/routing-bundle"
FATAL = 128
USAGE = 129
NO_BUNDLE = [f"fatal: no routing bundle at '{BUNDLE_REF}'", "hint: run 'git route build'"]
DAMAGED = f"fatal: the bundle at '{BUNDLE_REF}' is damaged: "
REPLACE = "run 'git route build' to replace it"


def assert_fatal(result, first_line: str, *, hint: str | None = None, exit_code: int = FATAL) -> None:
    """Exactly `fatal: ...` (compared in full) and at most one `hint:` line; on stdout nothing, or under
    --json the same error as JSON (tests/test_error_contract.py checks that document in full)."""
    lines = result.stderr.splitlines()
    assert result.exit_code == exit_code, result.stderr
    if result.stdout:
        assert json.loads(result.stdout)["error"]["message"] == first_line.removeprefix("fatal: ")
    assert lines[0] == first_line
    assert len(lines) <= 2
    if hint is not None:
        assert lines[1:] == [f"hint: {hint}"]
    else:
        assert all(line.startswith("hint: ") for line in lines[1:])


def write_bundle(repo: RepoBuilder, blobs: dict[str, bytes], base_tree: str | None = None,
                 format_version: int | None = FORMAT_VERSION) -> str:
    """Point the bundle ref at a parentless commit whose tree is `base_tree` with `blobs` written over it.

    The commit message carries the format trailers a real bundle has (none when format_version is None).
    """
    index = pygit2.Index()
    if base_tree is not None:
        index.read_tree(repo.repo[pygit2.Oid(hex=base_tree)])
    for path, data in blobs.items():
        index.add(pygit2.IndexEntry(path, repo.repo.create_blob(data), FileMode.BLOB))
    tree = index.write_tree(repo.repo)
    sig = pygit2.Signature("gitroute", "gitroute@invalid", 1_700_000_000, 0)
    head = repo.git("rev-parse", "HEAD").strip()
    message = "bundle\n" if format_version is None else (
        f"bundle\n\nGitroute-Format: {format_version}\nGitroute-Source: {head}\n")
    repo.repo.references.create(BUNDLE_REF, repo.repo.create_commit(None, sig, sig, message, tree, []), force=True)
    return str(repo.repo.references[BUNDLE_REF].target)


@pytest.fixture
def built_repo(sample_repo, route) -> RepoBuilder:
    result = route(["build", "-q"], sample_repo.path)
    assert result.exit_code == 0, result.stderr
    return sample_repo


# --- not a repository ----------------------------------------------------------------------


@pytest.mark.parametrize("args", [["query", "OpenMeteoClient"], ["build"], ["status"], ["build", "--json"],
                                  ["query", "--json", "x"], ["status", "--json"]])
def test_outside_a_repository_is_fatal(tmp_path: Path, route, args):
    empty = tmp_path / "not-a-repo"
    empty.mkdir()

    result = route(args, empty)

    assert_fatal(result, f"fatal: not a git repository: '{empty}'")
    assert list(empty.iterdir()) == []


# --- unknown revision ----------------------------------------------------------------------


@pytest.mark.parametrize("rev, hint", [
    ("nosuchrev", "name a commit, branch or tag"),
    ("HEAD~5", "that commit has no parent"),
    ("HEAD^2", "that commit has 0 parents"),
])
def test_unknown_revision_is_fatal_and_writes_nothing(sample_repo, route, rev, hint):
    result = route(["build", rev], sample_repo.path)
    assert_fatal(result, f"fatal: unknown revision '{rev}'", hint=hint)
    assert sample_repo.ref(BUNDLE_REF) is None


def test_unknown_revision_keeps_an_existing_bundle(built_repo, route):
    before = built_repo.ref(BUNDLE_REF)
    assert_fatal(route(["build", "nosuchrev"], built_repo.path), "fatal: unknown revision 'nosuchrev'")
    assert built_repo.ref(BUNDLE_REF) == before


def test_building_a_repository_without_commits_is_fatal(make_repo, route):
    repo = make_repo()
    assert_fatal(route(["build"], repo.path), "fatal: HEAD has no commits yet",
                 hint="commit something, then run 'git route build'")
    assert repo.ref(BUNDLE_REF) is None


# --- no bundle -----------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["query", "OpenMeteoClient"], ["query", "--json", "x"], ["status"],
                                  ["status", "--json"]])
def test_no_bundle_is_fatal_with_a_hint_to_build(sample_repo, route, args):
    result = route(args, sample_repo.path)
    assert_fatal(result, NO_BUNDLE[0])
    assert result.stderr.splitlines() == NO_BUNDLE
    assert sample_repo.ref(BUNDLE_REF) is None


def test_a_bundle_ref_that_is_not_a_commit_is_a_damaged_bundle(sample_repo, route):
    sample_repo.git("update-ref", BUNDLE_REF, sample_repo.git("rev-parse", "HEAD^{tree}").strip())
    assert_fatal(route(["query", "x"], sample_repo.path), f"{DAMAGED}it points at a tree, not a commit",
                 hint=REPLACE)


# --- unreadable bundles --------------------------------------------------------------------


@pytest.mark.parametrize("args", [["query", "OpenMeteoClient"], ["status", "--json"]])
def test_bundle_of_a_newer_format_is_refused_with_a_hint(sample_repo, route, args):
    commit = write_bundle(sample_repo, {"build.json": json.dumps({"format_version": 999}).encode()},
                          format_version=999)

    result = route(args, sample_repo.path)

    assert_fatal(result, f"fatal: the bundle at '{BUNDLE_REF}' has format 999; this gitroute reads format {FORMAT_VERSION}",
                 hint="upgrade gitroute, or run 'git route build' to write a bundle this version reads")
    assert sample_repo.ref(BUNDLE_REF) == commit


def test_bundle_of_the_format_before_is_refused_with_the_rebuild_hint(sample_repo, route):
    # Format 8 split meaning's file table in two blobs: a format 7 bundle holds it whole, which this gitroute would not
    # find where it looks; the version says so before any index is read.
    older = FORMAT_VERSION - 1
    write_bundle(sample_repo, {"build.json": json.dumps({"format_version": older}).encode()}, format_version=older)

    result = route(["query", "OpenMeteoClient"], sample_repo.path)

    assert_fatal(result, f"fatal: the bundle at '{BUNDLE_REF}' has the old format {older}",
                 hint="run 'git route build' to rebuild it")


def _bundle_paths(repo: RepoBuilder, folder: str) -> list[str]:
    return repo.git("ls-tree", "-r", "--name-only", BUNDLE_REF, folder).split()


@pytest.mark.parametrize("folder", ["symbols/postings/", "graph/nodes/"])
def test_a_bundle_blob_that_is_not_json_is_fatal(built_repo, route, folder):
    base = built_repo.bundle_tree()
    damaged = _bundle_paths(built_repo, folder)
    commit = write_bundle(built_repo, {path: b"\x00 not json" for path in damaged}, base)

    result = route(["query", "OpenMeteoClient"], built_repo.path)

    assert result.exit_code == FATAL and result.stdout == ""
    assert result.stderr.splitlines() in ([f"{DAMAGED}'{path}' is unreadable", f"hint: {REPLACE}"] for path in damaged)
    assert built_repo.ref(BUNDLE_REF) == commit


@pytest.mark.parametrize("args, blob, content, why", [
    (["status"], "build.json", b"{not json", "'build.json' is unreadable"),
    (["status"], "build.json", b"[1, 2]", "its 'build.json' is not an object"),
    (["query", "OpenMeteoClient"], "symbols/meta.json", b"{not json", "'symbols/meta.json' is unreadable"),
    (["query", "OpenMeteoClient"], "symbols/meta.json", b"[1, 2]", "'symbols/meta.json' is unreadable"),
])
def test_a_manifest_that_cannot_be_read_is_fatal(built_repo, route, args, blob, content, why):
    write_bundle(built_repo, {blob: content}, built_repo.bundle_tree())
    assert_fatal(route(args, built_repo.path), DAMAGED + why, hint=REPLACE)


def test_a_query_never_reads_the_manifest(built_repo, route):
    write_bundle(built_repo, {"build.json": b"{not json"}, built_repo.bundle_tree())
    result = route(["query", "--json", "OpenMeteoClient"], built_repo.path)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["rows"][0]["name"] == "OpenMeteoClient"


@pytest.mark.parametrize("args, blob", [(["status"], "build.json"), (["query", "OpenMeteoClient"], "symbols/meta.json")])
def test_a_bundle_without_its_manifest_is_fatal(built_repo, route, args, blob):
    index = pygit2.Index()
    index.read_tree(built_repo.repo[pygit2.Oid(hex=built_repo.bundle_tree())])
    index.remove(blob)
    write_bundle(built_repo, {}, str(index.write_tree(built_repo.repo)))

    if blob == "build.json":
        assert_fatal(route(args, built_repo.path), f"{DAMAGED}'{blob}' is missing", hint=REPLACE)
    else:  # an index's meta.json: the bundle holds no such index
        assert_fatal(route(args, built_repo.path), f"fatal: the bundle at '{BUNDLE_REF}' has no 'symbols' index",
                     hint="run 'git route build' to rebuild it with this gitroute")


def test_a_commit_without_format_trailers_is_not_a_bundle(built_repo, route):
    commit = write_bundle(built_repo, {}, built_repo.bundle_tree(), format_version=None)
    assert_fatal(route(["query", "OpenMeteoClient"], built_repo.path),
                 f"{DAMAGED}its commit has no 'Gitroute-Format' trailer", hint=REPLACE)
    assert built_repo.ref(BUNDLE_REF) == commit


def test_a_bundle_blob_of_the_wrong_shape_is_fatal(built_repo, route):
    damaged = _bundle_paths(built_repo, "graph/nodes/")
    write_bundle(built_repo, {path: b"{}" for path in damaged}, built_repo.bundle_tree())

    result = route(["query", "OpenMeteoClient"], built_repo.path)
    assert result.exit_code == FATAL
    assert result.stderr.splitlines()[0] in (f"{DAMAGED}'{path}' is unreadable" for path in damaged)


def test_a_damaged_or_overfull_node_page_is_fatal_and_names_its_blob(make_repo, route):
    """A file of 200 definitions: its records past the first 128 are a page of `graph/pages/`. A page that is not a
    node shard, or that holds more records than a page may (a bundle from elsewhere), is damage, in one line."""
    from gitroute.bundle.graph import node_shard

    repo = make_repo()
    repo.commit({"big.py": "".join(f"def step_{k}():\n    return {k}\n\n\n" for k in range(200))})
    assert route(["build", "-q"], repo.path).exit_code == 0
    assert json.loads(route(["query", "--json", "step_190"], repo.path).stdout)["rows"][0]["name"] == "step_190"
    pages = _bundle_paths(repo, "graph/pages/")
    assert len(pages) == 1 and pages[0].endswith(".0001.bin")
    base = repo.bundle_tree()
    record = ["big.py", "step_190", "", "function", 1, 2, "python", 0, ""]
    for forged in (b"\x00 not a shard", node_shard([record] * 129)):
        write_bundle(repo, {pages[0]: forged}, base)
        assert_fatal(route(["query", "step_190"], repo.path), f"{DAMAGED}'{pages[0]}' is unreadable", hint=REPLACE)


def test_build_over_a_damaged_bundle_rebuilds_it(built_repo, route):
    good_tree = built_repo.bundle_tree()
    damaged = _bundle_paths(built_repo, "graph/nodes/") + _bundle_paths(built_repo, "symbols/postings/")
    write_bundle(built_repo, {path: b"not json" for path in damaged}, good_tree)
    forget_extraction_cache(built_repo.path)

    result = route(["build", "--json"], built_repo.path)

    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["files"]["parsed"] == len(SAMPLE_FILES)
    assert built_repo.bundle_tree() == good_tree


# --- configuration -------------------------------------------------------------------------


@pytest.mark.parametrize("config, message", [
    ("[build\nmax_file_bytes = 1\n", "fatal: cannot read '.gitroute.toml' at the pinned commit: "),
    ("[build]\nmax_file_bytes = 'big'\n", "fatal: '.gitroute.toml': 'build.max_file_bytes' must be an integer"),
    ("[build]\nmax_file_byte = 10\n", "fatal: '.gitroute.toml': unknown key 'build.max_file_byte'"),
    ("build = 1\n", "fatal: '.gitroute.toml': 'build' must be a table"),
])
def test_unreadable_committed_config_is_fatal_and_writes_nothing(make_repo, route, config, message):
    repo = make_repo()
    repo.commit({".gitroute.toml": config, "app.py": "class App:\n    pass\n"})

    result = route(["build"], repo.path)

    assert result.exit_code == FATAL, result.stderr
    assert result.stdout == ""
    assert result.stderr.splitlines()[0].startswith(message)
    assert len(result.stderr.splitlines()) <= 2
    assert repo.ref(BUNDLE_REF) is None


def test_invalid_committed_config_is_fatal_even_when_the_work_tree_copy_is_valid(make_repo, route):
    repo = make_repo()
    repo.commit({".gitroute.toml": "[build\n", "app.py": "class App:\n    pass\n"})
    (repo.path / ".gitroute.toml").write_text("[build]\nmax_file_bytes = 100\n")

    result = route(["build"], repo.path)

    assert result.exit_code == FATAL
    assert result.stderr.startswith("fatal: cannot read '.gitroute.toml' at the pinned commit: ")
    assert result.stderr.splitlines()[1] == "hint: fix the file and commit it; gitroute reads it from the commit"


# --- usage ---------------------------------------------------------------------------------


@pytest.mark.parametrize("args, mentions", [
    (["query"], "missing argument"),
    (["query", "--limit", "0", "x"], "--limit"),
    (["query", "--kind", "banana", "x"], "--kind"),
    (["build", "--no-such-option"], "--no-such-option"),
    (["build", "HEAD", "extra"], "extra"),
    (["no-such-command"], "no-such-command"),
])
def test_usage_errors_exit_129_with_nothing_on_stdout(built_repo, route, args, mentions):
    before = built_repo.ref(BUNDLE_REF)

    result = route(args, built_repo.path)

    assert result.exit_code == USAGE, result.stderr
    assert result.stdout == ""
    assert mentions in result.stderr
    assert built_repo.ref(BUNDLE_REF) == before


def test_help_is_not_an_error(sample_repo, route):
    result = route(["-h"], sample_repo.path)
    assert result.exit_code == 0
    assert "Usage: git route" in result.stdout
    assert result.stderr == ""


# --- no process left behind ----------------------------------------------------------------


def _git_children() -> list[int]:
    """This process's children that are (or were) git, zombies included."""
    found = []
    for children in Path("/proc/self/task").glob("*/children"):
        for pid in children.read_text().split():
            try:
                if Path(f"/proc/{pid}/comm").read_text().strip() == "git":
                    found.append(int(pid))
            except OSError:
                continue
    return found


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="lists child processes through /proc")
@pytest.mark.parametrize("format_version", [None, 999])
def test_a_refused_bundle_leaves_no_git_process_running(built_repo, format_version):
    from gitroute.bundle.store import BundleView
    from gitroute.errors import BundleFormatError

    write_bundle(built_repo, {}, built_repo.bundle_tree(), format_version=format_version)
    before = _git_children()

    with pytest.raises(BundleFormatError) as refused:
        BundleView(str(built_repo.path))

    assert refused.value.exit_code == FATAL
    assert _git_children() == before  # checked while the traceback still holds the half-made view


@pytest.mark.parametrize("field, value", [("documents", "x"), ("avgdl", [1]), ("documents", {"n": 1})])
def test_a_meaning_section_of_the_wrong_shape_is_a_damaged_bundle_when_a_server_decodes_it(built_repo, field, value):
    """A warm server decodes every index when it pins a bundle: a number of the meaning index's section that is
    no number is the bundle's damage, as on the CLI, never an internal error."""
    from gitroute import api
    from gitroute.bundle.store import BundleView
    from gitroute.errors import BundleDamaged

    meta = json.loads(built_repo.git("show", f"{BUNDLE_REF}:meaning/meta.json"))
    meta[field] = value
    write_bundle(built_repo, {"meaning/meta.json": json.dumps(meta).encode()}, built_repo.bundle_tree())
    with BundleView(str(built_repo.path)) as view, pytest.raises(BundleDamaged):
        api.warm(view)
