"""Adding an index is one module, one registry line and its command's spec (README, "Adding an index"): a toy index
stores through the storage floor, answers (through the API, its own command and an MCP tool), and rebuilds
incrementally to exactly what `--full` writes."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

import gitroute.build
from gitroute import api, registry, specs
from gitroute.build import run_build
from tests import toy_index
from tests.conftest import RepoBuilder

FILES = {
    "widgets/gear.py": "# gear widget sprocket\n\ndef turn():\n    return 1\n",
    "widgets/lever.py": "# lever widget\n\ndef pull():\n    return 2\n",
    "docs/README.md": "# The widget book\n\nAll about widgets.\n",
    "tools/clean.sh": "# sweep floor\necho clean\n",
}


@pytest.fixture
def toy(monkeypatch):
    """The toy index, registered as `gitroute.indexes.toy` and named in the registry (the build reads its own
    import of the registry's names)."""
    monkeypatch.setitem(sys.modules, "gitroute.indexes.toy", toy_index)
    names = (*registry.INDEXES, toy_index.NAME)
    monkeypatch.setattr(registry, "INDEXES", names)
    monkeypatch.setattr(gitroute.build, "INDEXES", names)
    monkeypatch.setattr(specs, "COMMANDS", (*specs.COMMANDS, toy_index.SPEC))
    return toy_index


def _built(tmp_path: Path, name: str, steps: list[dict[str, str]], full: bool) -> list[str]:
    repo = RepoBuilder(tmp_path / name)
    trees = []
    for number, files in enumerate(steps):
        repo.commit(files, f"step {number}")
        trees.append(run_build("HEAD", repo_path=str(repo.path), jobs=1, full=full).bundle_tree)
    return trees


def test_a_registered_toy_index_stores_through_the_floor_and_answers(tmp_path, toy):
    repo = RepoBuilder(tmp_path / "repo")
    repo.commit(FILES, "widgets")
    run_build("HEAD", repo_path=str(repo.path), jobs=1)
    listing = repo.git("ls-tree", "-r", "--name-only", "refs/marola/routing-bundle", "toy/")
    assert "toy/meta.json" in listing and listing.count("toy/words/") > 2
    answer = api.answer("toy", "widget", repo=str(repo.path))
    assert answer.status == "routed"
    assert {row.path for row in answer.rows} == {"widgets/gear.py", "widgets/lever.py", "docs/README.md"}
    assert {row.path for row in api.answer("toy", "sprocket", repo=str(repo.path)).rows} == {"widgets/gear.py"}
    assert api.answer("toy", "turbine", repo=str(repo.path)).status == "no_match"


def test_the_toy_index_rebuilds_incrementally_to_what_full_writes_and_keeps_shards(tmp_path, toy, monkeypatch):
    kept: list[dict[str, str]] = []
    build_table = toy.WORDS.build

    def recording(*args, **kwargs):
        built = build_table(*args, **kwargs)
        kept.append(built.kept)
        return built

    monkeypatch.setattr(toy.WORDS, "build", recording)
    edited = {**FILES, "widgets/lever.py": "# lever crank\n\ndef pull():\n    return 2\n"}
    added = {**edited, "widgets/cog.py": "# cog sprocket\n"}
    removed = {path: text for path, text in added.items() if path != "tools/clean.sh"}
    steps = [FILES, edited, added, removed]
    assert _built(tmp_path, "incremental", steps, full=False) == _built(tmp_path, "full", steps, full=True)
    assert kept[1] and kept[2], "an edit or an added file kept no shard of the toy index"
    assert not any(kept[4:]), "--full kept a shard"


def test_the_toy_indexs_spec_makes_its_command_and_its_mcp_tool(tmp_path, toy, route):
    from gitroute.cli.mcp import ServerTools

    repo = RepoBuilder(tmp_path / "repo")
    repo.commit(FILES, "widgets")
    run_build("HEAD", repo_path=str(repo.path), jobs=1)
    listed = route(["-h"], repo.path)
    assert "toy" in listed.stdout
    found = route(["toy", "sprocket", "--json", "-n", "5"], repo.path)
    assert found.exit_code == 0, found.stderr
    assert [row["path"] for row in json.loads(found.stdout)["rows"]] == ["widgets/gear.py"]
    assert "widgets/gear.py" in route(["toy", "sprocket"], repo.path).stdout
    assert route(["toy", "turbine"], repo.path).stdout.count("no_match") == 1
    assert route(["toy", "--limit", "0", "x"], repo.path).exit_code == 129  # the spec's bounds, as click says
    tools = ServerTools(str(repo.path))
    try:
        schema = next(t["inputSchema"] for t in tools.tools() if t["name"] == "toy")
        assert schema["required"] == ["words"] and schema["properties"]["limit"]["maximum"] == 200
        document, is_error = tools.call("toy", {"words": "widget", "limit": 2})
        assert not is_error and [row["path"] for row in document["rows"]] == ["docs/README.md", "widgets/gear.py"]
    finally:
        tools.close()
