"""The git hooks: install chaining an existing hook, uninstall restoring it, core.hooksPath, real merges, pointer-sync."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from gitroute import api, generated, hooks
from gitroute.hooks import HOOKS, MARKER, render_hook
from tests.committed_support import render_markdown_table

ROOT = Path(__file__).resolve().parent.parent
CODE = {"src/app.py": "def main():\n    return 1\n", "README.md": "# App\n"}
LEGACY = "#!/bin/sh\necho \"legacy $*\" >> \"$(git rev-parse --git-dir)/legacy-ran\"\nexit 0\n"


def git(cwd: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True)
    if check and result.returncode != 0:
        raise AssertionError(f"git {' '.join(args)}: {result.stderr}")
    return result


def hooks_folder(repo) -> Path:
    return repo.path / ".git" / "hooks"


def record_last_build(repo, seconds: float) -> None:
    """What the build writes beside the bundle: the hook decides foreground or background from it."""
    folder = repo.path / ".git" / "gitroute"
    folder.mkdir(exist_ok=True)
    (folder / "last-build.json").write_text(json.dumps({"bundle_commit": "0" * 40, "seconds": seconds}))


def test_committed_hook_scripts_are_current():
    for hook in HOOKS:
        assert (ROOT / "hooks" / hook).read_text() == render_hook(hook), "run 'python tools/hookscripts.py'"
        assert os.access(ROOT / "hooks" / hook, os.X_OK)
        syntax = subprocess.run(["sh", "-n", str(ROOT / "hooks" / hook)], capture_output=True, text=True)
        assert syntax.returncode == 0, syntax.stderr


def test_install_writes_executable_hooks_that_say_they_are_ours(sample_repo, route):
    result = route(["hooks", "install"], sample_repo.path)
    assert result.exit_code == 0, result.stderr
    for hook in HOOKS:
        path = hooks_folder(sample_repo) / hook
        assert os.access(path, os.X_OK)
        assert MARKER in path.read_text()
        assert f"installed {path}" in result.stdout
    again = route(["hooks", "install"], sample_repo.path)
    assert f"updated {hooks_folder(sample_repo) / 'post-merge'}" in again.stdout
    assert not (hooks_folder(sample_repo) / "post-merge.legacy").exists()  # our own script is never chained


def test_install_chains_an_existing_hook_and_uninstall_restores_it(sample_repo, route):
    existing = hooks_folder(sample_repo) / "post-merge"
    existing.write_text(LEGACY)
    existing.chmod(0o755)
    result = route(["hooks", "install"], sample_repo.path)
    assert result.exit_code == 0
    assert f"installed {existing}; the hook that was there runs first, as {existing}.legacy" in result.stdout
    assert (hooks_folder(sample_repo) / "post-merge.legacy").read_text() == LEGACY

    # A real merge runs the chained hook, with git's own argument.
    sample_repo.commit({**CODE, "NEW.md": "# new\n"}, "on a branch", branch="topic",
                       parents=[sample_repo.ref("refs/heads/main")])
    record_last_build(sample_repo, 0.1)
    merge = git(sample_repo.path, "merge", "-q", "topic")
    assert merge.returncode == 0
    assert (sample_repo.path / ".git" / "legacy-ran").read_text() == "legacy 0\n"

    result = route(["hooks", "uninstall"], sample_repo.path)
    assert result.exit_code == 0
    assert f"removed gitroute's {existing}; the hook that was there before is back" in result.stdout
    assert existing.read_text() == LEGACY
    assert os.access(existing, os.X_OK)
    assert not (hooks_folder(sample_repo) / "post-merge.legacy").exists()
    assert not (hooks_folder(sample_repo) / "post-checkout").exists()


def test_uninstall_leaves_a_hook_it_did_not_write_alone(sample_repo, route):
    foreign = hooks_folder(sample_repo) / "post-checkout"
    foreign.write_text(LEGACY)
    result = route(["hooks", "uninstall"], sample_repo.path)
    assert result.exit_code == 0
    assert f"left {foreign} alone: gitroute did not write it" in result.stdout
    assert foreign.read_text() == LEGACY


def test_install_refuses_when_a_hook_and_a_legacy_hook_both_exist(sample_repo, route):
    for name in ("post-merge", "post-merge.legacy"):
        (hooks_folder(sample_repo) / name).write_text(LEGACY)
    result = route(["hooks", "install"], sample_repo.path)
    assert result.exit_code == 128
    assert result.stdout == ""
    assert "neither is gitroute's" in result.stderr
    assert not (hooks_folder(sample_repo) / "post-checkout").exists()  # nothing written at all
    assert (hooks_folder(sample_repo) / "post-merge").read_text() == LEGACY


def test_core_hooks_path_elsewhere_is_refused_unless_asked(sample_repo, route):
    git(sample_repo.path, "config", "core.hooksPath", ".githooks")
    result = route(["hooks", "install"], sample_repo.path)
    assert result.exit_code == 128
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0] == ("fatal: core.hooksPath is set to '.githooks': hooks there may be shared or managed "
                        "by another tool")
    assert lines[1].startswith("hint: rerun with --hooks-path to write into '")
    assert not (sample_repo.path / ".githooks").exists()
    assert not (hooks_folder(sample_repo) / "post-merge").exists()

    result = route(["hooks", "install", "--hooks-path"], sample_repo.path)
    assert result.exit_code == 0, result.stderr
    assert MARKER in (sample_repo.path / ".githooks" / "post-merge").read_text()
    assert route(["hooks", "uninstall"], sample_repo.path).exit_code == 128
    assert route(["hooks", "uninstall", "--hooks-path"], sample_repo.path).exit_code == 0
    assert not (sample_repo.path / ".githooks" / "post-merge").exists()


def test_core_hooks_path_naming_the_default_folder_is_not_elsewhere(sample_repo, route):
    git(sample_repo.path, "config", "core.hooksPath", ".git/hooks")
    assert route(["hooks", "install"], sample_repo.path).exit_code == 0


def test_install_from_a_subfolder_and_a_linked_worktree_uses_the_common_hooks(sample_repo, route, tmp_path):
    git(sample_repo.path, "worktree", "add", "-q", str(tmp_path / "wt"), "-b", "side")
    assert route(["hooks", "install"], tmp_path / "wt" / "src").exit_code == 0
    assert MARKER in (hooks_folder(sample_repo) / "post-merge").read_text()


def test_hooks_outside_a_repository_are_fatal(route, tmp_path):
    result = route(["hooks", "install"], tmp_path)
    assert result.exit_code == 128
    assert result.stderr.startswith("fatal: not a git repository")


# --- post-merge ------------------------------------------------------------------------------

def merge_branch(repo, files: dict, hook_env: dict | None = None) -> subprocess.CompletedProcess:
    repo.commit(files, "topic work", branch="topic", parents=[repo.ref("refs/heads/main")])
    env = {**os.environ, **(hook_env or {})}
    return subprocess.run(["git", "merge", "-q", "topic"], cwd=repo.path, capture_output=True, text=True, env=env)


def bundle_source(repo) -> str | None:
    return api._bundle_commit(str(repo.path))


def test_post_merge_rebuilds_the_bundle_in_the_foreground_when_builds_are_quick(sample_repo, route):
    assert route(["build", "-q"], sample_repo.path).exit_code == 0
    record_last_build(sample_repo, 0.1)
    assert route(["hooks", "install"], sample_repo.path).exit_code == 0
    merge = merge_branch(sample_repo, {**CODE, "src/extra.py": "def extra():\n    pass\n"})
    assert merge.returncode == 0, merge.stderr
    assert merge.stderr == ""  # quiet
    assert bundle_source(sample_repo) == sample_repo.git("rev-parse", "HEAD").strip()


def test_post_merge_builds_in_the_background_after_a_long_build(sample_repo, route):
    assert route(["hooks", "install"], sample_repo.path).exit_code == 0
    record_last_build(sample_repo, 600.0)
    started = time.monotonic()
    merge = merge_branch(sample_repo, {**CODE, "src/extra.py": "def extra():\n    pass\n"})
    assert merge.returncode == 0, merge.stderr
    assert merge.stderr == ""
    head = sample_repo.git("rev-parse", "HEAD").strip()
    while bundle_source(sample_repo) != head and time.monotonic() - started < 120:
        time.sleep(0.2)
    assert bundle_source(sample_repo) == head
    assert (sample_repo.path / ".git" / "gitroute" / "post-merge.log").exists()


def test_a_hook_never_fails_a_merge_even_when_the_build_cannot_run(sample_repo, route):
    assert route(["hooks", "install"], sample_repo.path).exit_code == 0
    record_last_build(sample_repo, 0.1)
    merge = merge_branch(sample_repo, {**CODE, ".gitroute.toml": "[build\nbroken = "})
    assert merge.returncode == 0
    lines = merge.stderr.splitlines()
    assert len(lines) == 1, merge.stderr
    assert lines[0].startswith("warning: gitroute post-merge: cannot read '.gitroute.toml' at the pinned commit")
    assert (sample_repo.path / ".gitroute.toml").exists()  # the merge happened


def test_a_hook_without_gitroute_installed_warns_and_the_merge_succeeds(sample_repo):
    hooks.install(str(sample_repo.path), python="/nonexistent/python")
    merge = merge_branch(sample_repo, {**CODE}, hook_env={"PATH": "/usr/bin:/bin"})
    assert merge.returncode == 0
    assert "warning: gitroute is not installed; the post-merge hook did nothing" in merge.stderr


def test_the_hook_runner_turns_any_failure_into_one_warning(make_repo, route):
    repo = make_repo()
    repo.commit({".gitroute.toml": "[nope]\nx = 1\n"})
    record_last_build(repo, 0.1)
    result = route(["hook", "post-merge", "0"], repo.path)
    assert result.exit_code == 0
    assert result.stdout == ""
    assert result.stderr == "warning: gitroute post-merge: '.gitroute.toml': unknown key 'nope.x'\n"


def test_the_hook_runner_is_quiet_when_the_bundle_is_fresh(sample_repo, route):
    route(["build", "-q"], sample_repo.path)
    result = route(["hook", "post-merge", "0"], sample_repo.path)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")


# --- pointer-sync ----------------------------------------------------------------------------

SUB_DOCS = {f"{name}.md": f"# {name}\n" for name in ("intro", "api", "cli", "faq")}


@pytest.fixture
def superproject(make_repo, route, monkeypatch):
    """A repository with a submodule of four documents, a bundle, and DOC-CODE.md committed from it."""
    monkeypatch.setitem(generated.COMMITTED_FILES, "doc-code", ("doc_code_map", render_markdown_table))
    lib = make_repo("lib")
    lib.commit(dict(SUB_DOCS), "four documents")
    top = make_repo("top")
    top.commit(dict(CODE), "code")
    git(top.path, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib.path), "lib")
    git(top.path, "commit", "-q", "-m", "add lib")
    assert route(["build", "-q"], top.path).exit_code == 0
    assert route(["doc-code", "--write", "-q"], top.path).exit_code == 0
    git(top.path, "add", "docs/DOC-CODE.md")
    git(top.path, "commit", "-q", "-m", "the doc-code map")
    return top, lib


def move_pointer(top, lib, files: dict) -> None:
    """Commit `files` in the submodule's origin, then merge a branch of the superproject that pins it."""
    new = lib.commit(files, "lib moves")
    git(top.path / "lib", "-c", "protocol.file.allow=always", "fetch", "-q", "origin")
    git(top.path, "checkout", "-q", "-b", "bump")
    git(top.path / "lib", "checkout", "-q", new)
    git(top.path, "commit", "-q", "-am", "bump lib")
    git(top.path, "checkout", "-q", "main")
    git(top.path, "merge", "-q", "bump")  # sets ORIG_HEAD, as a pull does


def map_text(top) -> str:
    return (top.path / "docs" / "DOC-CODE.md").read_text()


def test_pointer_sync_regenerates_the_map_when_a_pointer_moves(superproject, route):
    top, lib = superproject
    assert map_text(top).count("| lib/") == 4
    move_pointer(top, lib, {**SUB_DOCS, "deploy.md": "# deploy\n"})
    result = route(["hook", "pointer-sync", "0"], top.path)
    assert result.exit_code == 0, result.stderr
    assert result.stdout == ""
    assert result.stderr == ("gitroute pointer-sync: submodule pointers moved (lib); regenerated 'docs/DOC-CODE.md' "
                             "(6 rows, 5 before): commit it\n")
    assert "| lib/deploy.md |" in map_text(top)
    assert git(top.path, "status", "--porcelain", "--", "docs").stdout == " M docs/DOC-CODE.md\n"  # left to commit
    assert bundle_source(top) == top.git("rev-parse", "HEAD").strip()


def test_pointer_sync_refuses_a_map_that_loses_most_rows(superproject, route):
    top, lib = superproject
    before = map_text(top)
    move_pointer(top, lib, {"intro.md": "# intro\n"})
    result = route(["hook", "pointer-sync", "0"], top.path)
    assert result.exit_code == 0  # as a hook it never fails the git command: one warning line
    assert result.stderr == ("warning: gitroute pointer-sync: refusing to write 'docs/DOC-CODE.md': "
                             "2 rows where the committed file has 5 (fewer than half)\n")
    assert map_text(top) == before
    as_ci = route(["hook", "pointer-sync"], top.path)  # no git arguments: a command, and the guard fails it
    assert as_ci.exit_code == 1
    assert as_ci.stderr.splitlines()[0] == ("error: gitroute pointer-sync: refusing to write 'docs/DOC-CODE.md': "
                                            "2 rows where the committed file has 5 (fewer than half)")
    assert as_ci.stderr.splitlines()[1].startswith("hint: ")
    assert map_text(top) == before
    forced = route(["hook", "pointer-sync", "--force", "0"], top.path)
    assert forced.exit_code == 0, forced.stderr
    assert map_text(top).count("| lib/") == 1


def test_pointer_sync_does_nothing_when_no_pointer_moved(superproject, route):
    top, lib = superproject
    top.git("checkout", "-q", "-b", "docs-only")
    (top.path / "NOTES.md").write_text("# notes\n")
    top.git("add", "NOTES.md")
    top.git("commit", "-q", "-m", "notes")
    top.git("checkout", "-q", "main")
    top.git("merge", "-q", "docs-only")
    bundle_before = bundle_source(top)
    result = route(["hook", "pointer-sync", "0"], top.path)
    assert (result.exit_code, result.stdout, result.stderr) == (0, "", "")
    assert bundle_source(top) == bundle_before  # no build either


def test_pointer_sync_from_post_checkout_compares_the_two_heads(superproject, route):
    top, lib = superproject
    old_head = top.git("rev-parse", "HEAD").strip()
    move_pointer(top, lib, {**SUB_DOCS, "deploy.md": "# deploy\n"})
    new_head = top.git("rev-parse", "HEAD").strip()
    assert route(["hook", "pointer-sync", old_head, new_head, "0"], top.path).stderr == ""  # a file checkout
    assert route(["hook", "pointer-sync", "0" * 40, new_head, "1"], top.path).stderr == ""  # a clone
    result = route(["hook", "pointer-sync", old_head, new_head, "1"], top.path)
    assert result.exit_code == 0
    assert "regenerated 'docs/DOC-CODE.md'" in result.stderr


def test_pointer_sync_with_no_previous_commit_regenerates_as_ci_does(superproject, route):
    top, lib = superproject
    result = route(["hook", "pointer-sync"], top.path)
    assert (result.exit_code, result.stderr) == (0, "")  # the committed map is current: nothing to write
    assert git(top.path, "status", "--porcelain").stdout == ""


def test_installed_hooks_run_pointer_sync_after_a_real_merge(superproject, route):
    """Through git itself: the installed post-merge runs pointer-sync in a fresh process, where the
    doc-code renderer of this gitroute is what it is; either way the merge succeeds."""
    top, lib = superproject
    record_last_build(top, 0.1)
    hooks.install(str(top.path), python=sys.executable)
    new = lib.commit({**SUB_DOCS, "deploy.md": "# deploy\n"}, "lib moves")
    git(top.path / "lib", "-c", "protocol.file.allow=always", "fetch", "-q", "origin")
    git(top.path, "checkout", "-q", "-b", "bump")
    git(top.path / "lib", "checkout", "-q", new)
    git(top.path, "commit", "-q", "-am", "bump lib")
    git(top.path, "checkout", "-q", "main")
    merge = git(top.path, "merge", "-q", "bump", check=False)
    assert merge.returncode == 0
    assert "gitroute pointer-sync" in merge.stderr  # it ran: regenerated, or said why it could not


def test_pointer_sync_reads_git_s_arguments_from_pre_commit_s_environment(superproject, route, monkeypatch):
    top, lib = superproject
    old_head = top.git("rev-parse", "HEAD").strip()
    move_pointer(top, lib, {**SUB_DOCS, "deploy.md": "# deploy\n"})
    monkeypatch.setenv("PRE_COMMIT_FROM_REF", old_head)
    monkeypatch.setenv("PRE_COMMIT_TO_REF", top.git("rev-parse", "HEAD").strip())
    monkeypatch.setenv("PRE_COMMIT_CHECKOUT_TYPE", "0")  # a file checkout: nothing to do
    assert route(["hook", "pointer-sync"], top.path).stderr == ""
    monkeypatch.setenv("PRE_COMMIT_CHECKOUT_TYPE", "1")
    result = route(["hook", "pointer-sync"], top.path)
    assert result.exit_code == 0
    assert "regenerated 'docs/DOC-CODE.md' (6 rows, 5 before)" in result.stderr


def test_a_check_in_a_clone_without_the_submodule_names_it(superproject, route, tmp_path):
    top, lib = superproject
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(top.path), str(clone))  # no --recurse-submodules: 'lib' is not initialised
    assert route(["build", "-q"], clone).exit_code == 0
    result = route(["doc-code", "--check"], clone)
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == (
        "hint: submodule 'lib' is not initialised in this clone, so the bundle lacks what it holds: "
        "run 'git submodule update --init' and 'git route build'")
    refused = route(["doc-code", "--write"], clone)  # four of five rows go: the guard refuses, and says why
    assert refused.exit_code == 1
    assert refused.stderr.splitlines()[1].startswith("hint: submodule 'lib' is not initialised in this clone")
    git(clone, "-c", "protocol.file.allow=always", "submodule", "update", "-q", "--init")
    assert route(["build", "-q"], clone).exit_code == 0
    assert route(["doc-code", "--check", "-q"], clone).exit_code == 0
