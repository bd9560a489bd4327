"""Committed generated files: --write, --check against the pinned commit, the 50 % shrink guard, marker blocks, atomic writes."""
from __future__ import annotations

import os

import pytest

from gitroute import generated
from gitroute.committed import (
    Rendering,
    check,
    count_markdown_rows,
    extract_block,
    replace_block,
    shrinks_too_much,
    write,
)
from gitroute.errors import GitrouteError, ShrinkGuardRefused
from tests.committed_support import render_markdown_table, render_wiring_block

DOCS = {f"guide/{name}.md": f"# {name}\n\nAbout {name}.\n" for name in ("install", "usage", "config", "faq")}
CODE = {"src/app.py": "def main():\n    return 1\n"}


@pytest.fixture
def renderers(monkeypatch):
    """The doc-code, decisions and wiring files rendered by the tests' real Markdown-table renderer."""
    monkeypatch.setitem(generated.COMMITTED_FILES, "doc-code", ("doc_code_map", render_markdown_table))
    monkeypatch.setitem(generated.COMMITTED_FILES, "decisions", ("decisions_map", render_markdown_table))
    monkeypatch.setitem(generated.COMMITTED_FILES, "wiring", (None, render_wiring_block))


def commit_work_tree(repo, message: str) -> None:
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", message)


@pytest.fixture
def docs_repo(make_repo, route, renderers):
    """Four documents, a built bundle, and DOC-CODE.md written from it and committed."""
    repo = make_repo("docs")
    repo.commit({**DOCS, **CODE}, "four documents")
    assert route(["build", "-q"], repo.path).exit_code == 0
    result = route(["doc-code", "--write"], repo.path)
    assert result.exit_code == 0, result.stderr
    commit_work_tree(repo, "add the doc-code map")
    assert route(["build", "-q"], repo.path).exit_code == 0
    return repo


def map_text(repo) -> str:
    return (repo.path / "docs" / "DOC-CODE.md").read_text()


def test_count_markdown_rows_counts_table_bodies_and_list_items():
    text = "# T\n\n| a | b |\n|---|:-:|\n| 1 | 2 |\n| 3 | 4 |\n\n- one\n* two\n\nprose | with a bar\n"
    assert count_markdown_rows(text) == 4
    assert count_markdown_rows("") == 0


@pytest.mark.parametrize("before, after, refused", [(10, 5, False), (10, 4, True), (1, 0, True), (0, 0, False),
                                                     (3, 1, True), (3, 2, False)])
def test_the_guard_refuses_fewer_than_half_the_rows(before, after, refused):
    assert shrinks_too_much(before, after) is refused


def test_write_creates_the_map_and_check_finds_it_up_to_date(docs_repo, route):
    assert map_text(docs_repo).count("| guide/") == 4
    result = route(["doc-code", "--check"], docs_repo.path)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert result.stdout.startswith("docs/DOC-CODE.md is up to date at main@")
    assert "(4 rows)" in result.stdout
    assert route(["doc-code", "--check", "-q"], docs_repo.path).stdout == ""


def test_show_prints_what_the_pinned_commit_produces(docs_repo, route):
    result = route(["doc-code"], docs_repo.path)
    assert result.exit_code == 0
    assert result.stdout == map_text(docs_repo)


def test_write_is_deterministic_byte_for_byte(docs_repo, route):
    before = map_text(docs_repo)
    result = route(["doc-code", "--write"], docs_repo.path)
    assert result.exit_code == 0
    assert result.stdout.startswith("unchanged: docs/DOC-CODE.md (4 rows, 4 before)")
    assert map_text(docs_repo) == before


def test_check_fails_on_a_stale_file_and_says_what_changed(docs_repo, route):
    (docs_repo.path / "guide" / "deploy.md").write_text("# deploy\n")
    commit_work_tree(docs_repo, "a fifth document")
    assert route(["build", "-q"], docs_repo.path).exit_code == 0
    result = route(["doc-code", "--check"], docs_repo.path)
    assert result.exit_code == 1
    assert "docs/DOC-CODE.md is stale at main@" in result.stdout
    assert "5 rows expected, 4 committed (+1 -0 lines)" in result.stdout
    assert "+| guide/deploy.md |" in result.stdout.splitlines()
    assert result.stderr == "hint: run 'git route doc-code --write' and commit the result\n"


def test_check_reads_the_pinned_commit_not_the_work_tree(docs_repo, route):
    (docs_repo.path / "guide" / "deploy.md").write_text("# deploy\n")
    commit_work_tree(docs_repo, "a fifth document")
    assert route(["build", "-q"], docs_repo.path).exit_code == 0
    assert route(["doc-code", "--write", "-q"], docs_repo.path).exit_code == 0  # written, not committed
    result = route(["doc-code", "--check"], docs_repo.path)
    assert result.exit_code == 1
    assert "hint: the work tree's 'docs/DOC-CODE.md' is already current: commit it" in result.stderr


def test_check_of_a_file_never_committed_fails(make_repo, route, renderers):
    repo = make_repo()
    repo.commit({**DOCS, **CODE})
    route(["build", "-q"], repo.path)
    result = route(["doc-code", "--check"], repo.path)
    assert result.exit_code == 1
    assert "docs/DOC-CODE.md is not committed at main@" in result.stdout


def test_shrink_guard_refuses_when_documents_are_deleted_and_force_passes(docs_repo, route):
    for name in ("usage", "config", "faq"):
        (docs_repo.path / "guide" / f"{name}.md").unlink()
    commit_work_tree(docs_repo, "drop three of four documents")
    assert route(["build", "-q"], docs_repo.path).exit_code == 0
    before = map_text(docs_repo)
    stat = os.stat(docs_repo.path / "docs" / "DOC-CODE.md")

    refused = route(["doc-code", "--write"], docs_repo.path)
    assert refused.exit_code == 1
    assert refused.stdout == ""
    assert refused.stderr.splitlines() == [
        "error: refusing to write 'docs/DOC-CODE.md': 1 rows where the committed file has 4 (fewer than half)",
        "hint: a generator bug looks like this; read the change, then rerun with --force if it is right",
    ]
    assert map_text(docs_repo) == before
    assert os.stat(docs_repo.path / "docs" / "DOC-CODE.md").st_ino == stat.st_ino  # not even replaced

    forced = route(["doc-code", "--write", "--force"], docs_repo.path)
    assert forced.exit_code == 0, forced.stderr
    assert "warning: --force: wrote 1 rows where the committed file has 4" in forced.stderr
    assert map_text(docs_repo).count("| guide/") == 1


def test_guard_measures_against_the_commit_so_small_writes_cannot_walk_the_map_down(docs_repo, route):
    for name in ("faq", "config", "usage"):
        (docs_repo.path / "guide" / f"{name}.md").unlink()
        docs_repo.git("add", "-A", "guide")
        docs_repo.git("commit", "-q", "-m", f"drop {name}; the map stays as committed")
        route(["build", "-q"], docs_repo.path)
        result = route(["doc-code", "--write"], docs_repo.path)
        if name != "usage":
            assert result.exit_code == 0, result.stderr  # 3, then 2 of the 4 committed rows: allowed
    # Against the work tree's 2 rows, 1 row would pass; against the committed 4 it does not.
    assert result.exit_code == 1
    assert "1 rows where the committed file has 4" in result.stderr
    assert map_text(docs_repo).count("| guide/") == 2


def test_write_leaves_no_temporary_file_and_keeps_the_file_mode(docs_repo, route):
    target = docs_repo.path / "docs" / "DOC-CODE.md"
    target.chmod(0o640)
    (docs_repo.path / "guide" / "deploy.md").write_text("# deploy\n")
    commit_work_tree(docs_repo, "a fifth document")
    route(["build", "-q"], docs_repo.path)
    assert route(["doc-code", "--write"], docs_repo.path).exit_code == 0
    assert os.stat(target).st_mode & 0o777 == 0o640
    assert sorted(os.listdir(target.parent)) == ["DOC-CODE.md"]


def test_configured_paths_are_honoured(make_repo, route, renderers):
    repo = make_repo()
    repo.commit({**DOCS, ".gitroute.toml": '[docs]\nmap = "MAP.md"\n[decisions]\nmap = "notes/DECIDED.md"\n'})
    route(["build", "-q"], repo.path)
    assert route(["doc-code", "--write", "-q"], repo.path).exit_code == 0
    assert route(["decisions", "--write", "-q"], repo.path).exit_code == 0
    assert (repo.path / "MAP.md").is_file()
    assert (repo.path / "notes" / "DECIDED.md").is_file()
    assert not (repo.path / "docs").exists()


def test_path_option_is_relative_to_the_current_folder(docs_repo, route):
    result = route(["doc-code", "--write", "--path", "OTHER.md"], docs_repo.path / "guide")
    assert result.exit_code == 0, result.stderr
    assert (docs_repo.path / "guide" / "OTHER.md").read_text() == map_text(docs_repo)


@pytest.mark.parametrize("path", ["../outside.md", "/tmp/abs.md", ".git/config"])
def test_a_path_outside_the_work_tree_is_refused(docs_repo, route, path):
    result = route(["doc-code", "--write", "--path", path], docs_repo.path)
    assert result.exit_code == 128
    assert result.stdout == ""
    assert result.stderr.startswith("fatal: '")
    assert "is not a file inside the work tree" in result.stderr
    assert not (docs_repo.path.parent / "outside.md").exists()


@pytest.mark.parametrize("args", [["--write", "--check"], ["--check", "--force"], ["--force"]])
def test_conflicting_options_are_usage_errors(docs_repo, route, args):
    result = route(["doc-code", *args], docs_repo.path)
    assert result.exit_code == 129
    assert result.stdout == ""


def test_without_a_bundle_it_is_fatal_with_a_hint(make_repo, route, renderers):
    repo = make_repo()
    repo.commit(DOCS)
    result = route(["doc-code", "--check"], repo.path)
    assert result.exit_code == 128
    assert result.stderr == "fatal: no routing bundle at 'refs/marola/routing-bundle'\nhint: run 'git route build'\n"


def test_a_stale_bundle_is_named(docs_repo, route):
    (docs_repo.path / "guide" / "deploy.md").write_text("# deploy\n")
    commit_work_tree(docs_repo, "a fifth document, not built")
    result = route(["doc-code", "--check"], docs_repo.path)
    assert result.exit_code == 0  # the bundle's commit is consistent with itself
    assert result.stderr.startswith("warning: answers from main@")
    assert "HEAD is 1 commit ahead" in result.stderr


# --- marker blocks ---------------------------------------------------------------------------

README = "# Project\n\nIntro.\n\n<!-- gitroute:wiring:begin -->\nold table\n<!-- gitroute:wiring:end -->\n\nOutro.\n"


def test_block_replace_keeps_everything_around_the_markers():
    new = replace_block(README, "wiring", "| x |\n", "README.md")
    assert new == README.replace("old table\n", "| x |\n")
    assert extract_block(new, "wiring", "README.md") == "| x |\n"
    assert extract_block("no markers\n", "wiring", "README.md") is None


@pytest.mark.parametrize("text", [
    "<!-- gitroute:wiring:begin -->\n",
    "<!-- gitroute:wiring:end -->\n<!-- gitroute:wiring:begin -->\n",
    "<!-- gitroute:wiring:begin -->\n<!-- gitroute:wiring:begin -->\n<!-- gitroute:wiring:end -->\n",
])
def test_malformed_markers_are_refused(text):
    with pytest.raises(GitrouteError, match="must hold one"):
        extract_block(text, "wiring", "README.md")


def test_block_write_and_check_through_the_library(docs_repo, route):
    top, commit = str(docs_repo.path), docs_repo.git("rev-parse", "HEAD").strip()
    (docs_repo.path / "WIRING.md").write_text(README)
    commit_work_tree(docs_repo, "a document with a wiring block")
    commit = docs_repo.git("rev-parse", "HEAD").strip()
    rendering = Rendering("| a |\n| b |\n|---|\n| c |\n", block="wiring")
    assert check(top, commit, "WIRING.md", rendering).reason == "differs"
    report = write(top, commit, "WIRING.md", rendering)
    assert report.written
    text = (docs_repo.path / "WIRING.md").read_text()
    assert text.startswith("# Project\n\nIntro.\n\n<!-- gitroute:wiring:begin -->\n| a |\n")
    assert text.endswith("<!-- gitroute:wiring:end -->\n\nOutro.\n")
    commit_work_tree(docs_repo, "wiring written")
    commit = docs_repo.git("rev-parse", "HEAD").strip()
    assert not check(top, commit, "WIRING.md", rendering).stale
    with pytest.raises(ShrinkGuardRefused):
        write(top, commit, "WIRING.md", Rendering("nothing\n", block="wiring"))
    assert (docs_repo.path / "WIRING.md").read_text() == text


def test_wiring_block_through_run_committed(docs_repo, route, capsys):
    from gitroute.cli.committed import run_committed

    (docs_repo.path / "docs" / "WIRING.md").write_text(README)
    os.chdir(docs_repo.path)
    try:
        assert run_committed("wiring", path="docs/WIRING.md", write=True, check=False, force=False, quiet=True) == 0
        text = (docs_repo.path / "docs" / "WIRING.md").read_text()
        assert "| guide/usage.md |" in text and text.endswith("Outro.\n") and "old table" not in text
        commit_work_tree(docs_repo, "wiring block")
        route(["build", "-q"], docs_repo.path)
        assert run_committed("wiring", path="docs/WIRING.md", write=False, check=True, force=False, quiet=True) == 0
    finally:
        os.chdir(docs_repo.path.parent)


def test_a_document_without_markers_is_refused_and_untouched(docs_repo):
    top, commit = str(docs_repo.path), docs_repo.git("rev-parse", "HEAD").strip()
    (docs_repo.path / "NOTES.md").write_text("# Notes\n")
    with pytest.raises(GitrouteError, match="no '<!-- gitroute:wiring:begin -->' line in 'NOTES.md'") as info:
        write(top, commit, "NOTES.md", Rendering("| a |\n", block="wiring"))
    assert "add the lines" in (info.value.hint or "")
    assert (docs_repo.path / "NOTES.md").read_text() == "# Notes\n"


def test_a_missing_document_gets_just_the_block(docs_repo):
    top, commit = str(docs_repo.path), docs_repo.git("rev-parse", "HEAD").strip()
    write(top, commit, "docs/WIRING.md", Rendering("| a |\n", block="wiring"))
    assert (docs_repo.path / "docs" / "WIRING.md").read_text() == (
        "<!-- gitroute:wiring:begin -->\n| a |\n<!-- gitroute:wiring:end -->\n")


def test_a_map_path_of_the_wrong_type_is_a_config_error(make_repo, route, renderers):
    repo = make_repo()
    repo.commit({**DOCS, ".gitroute.toml": "[docs]\nmap = 3\n"})
    result = route(["build", "-q"], repo.path)
    assert result.exit_code == 128
    assert result.stderr.splitlines()[0] == "fatal: '.gitroute.toml': 'docs.map' must be a string"


# --- through the real build and the doc_links index (skipped until that index is merged) -----

LINKED_CODE = {f"src/app/{name}.py": f"def {name}_handler():\n    return '{name}'\n"
               for name in ("install", "usage", "config", "faqs")}
LINKED_DOCS = {f"guide/{name}.md": f"# {name}\n\n## Handler\n\nSee `{name}_handler` in `src/app/{name}.py`.\n"
               for name in ("install", "usage", "config", "faqs")}


def test_the_real_doc_code_map_is_guarded_when_documents_are_deleted(make_repo, route):
    pytest.importorskip("gitroute.indexes.doc_links")
    repo = make_repo()
    repo.commit({**LINKED_CODE, **LINKED_DOCS}, "code and four documents")
    assert route(["build", "-q"], repo.path).exit_code == 0
    assert route(["doc-code", "--write"], repo.path).exit_code == 0
    written = map_text(repo)
    assert all(f"| src/app/{name}.py |" in written for name in ("install", "usage", "config", "faqs"))
    commit_work_tree(repo, "the map")
    assert route(["build", "-q"], repo.path).exit_code == 0
    assert route(["doc-code", "--check"], repo.path).exit_code == 0

    for name in ("usage", "config", "faqs"):
        (repo.path / "guide" / f"{name}.md").unlink()
    commit_work_tree(repo, "three documents deleted, the map not regenerated")
    assert route(["build", "-q"], repo.path).exit_code == 0
    stale = route(["doc-code", "--check"], repo.path)
    assert stale.exit_code == 1
    assert "-| guide/usage.md |" in stale.stdout
    refused = route(["doc-code", "--write"], repo.path)
    assert refused.exit_code == 1
    assert refused.stderr.startswith("error: refusing to write 'docs/DOC-CODE.md'")
    assert map_text(repo) == written
    assert route(["doc-code", "--write", "--force"], repo.path).exit_code == 0
    assert "guide/usage.md" not in map_text(repo)


def test_file_options_for_a_block_command_write_and_check(docs_repo, route):
    """The options `git route wiring` takes (`--write FILE`, `--check FILE`), on a command built the same way."""
    import click
    from click.testing import CliRunner

    from gitroute.cli.committed import run_committed, write_check_file_options

    @click.command("blocky")
    @write_check_file_options("wiring")
    @click.pass_context
    def blocky(ctx, write_file, check_file, force):
        ctx.exit(run_committed("wiring", path=write_file or check_file, write=bool(write_file),
                               check=bool(check_file), force=force, quiet=False))

    (docs_repo.path / "docs" / "WIRING.md").write_text(README)
    old = os.getcwd()
    os.chdir(docs_repo.path / "docs")
    try:
        runner = CliRunner()
        wrote = runner.invoke(blocky, ["--write", "WIRING.md"])
        assert wrote.exit_code == 0, wrote.output
        assert "| guide/faq.md |" in (docs_repo.path / "docs" / "WIRING.md").read_text()
        stale = runner.invoke(blocky, ["--check", "WIRING.md"])  # written, not committed
        assert stale.exit_code == 1
        assert "docs/WIRING.md is not committed at main@" in stale.output
        assert "hint: the work tree's 'docs/WIRING.md' is already current: commit it" in stale.output
    finally:
        os.chdir(old)
