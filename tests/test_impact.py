"""`git route impact` and `git route wiring` end to end: real repositories, real builds, real answers."""
from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitroute.indexes.wiring import MARKER_BEGIN, MARKER_END, render_wiring

FOOTER_START = "lower bound: static edges only"

PROJECT = {
    "app/core.py": "def compute(x):\n    return x\n",
    "app/service.py": "from app.core import compute\n\n\ndef serve():\n    return compute(1)\n",
    "app/api.py": "from app.service import serve\n\n\ndef handle():\n    return serve()\n",
    "app/cycle_a.py": "from app import cycle_b\n\n\ndef ping():\n    return cycle_b.pong()\n",
    "app/cycle_b.py": "from app import cycle_a\n\n\ndef pong():\n    return cycle_a.ping()\n",
    "app/models.py": "class Base:\n    def save(self):\n        pass\n",
    "app/users.py": "from app.models import Base\n\n\nclass User(Base):\n    pass\n",
    "app/one.py": "class One:\n    def render(self):\n        pass\n",
    "app/two.py": "class Two:\n    def render(self):\n        pass\n",
    "app/view.py": "def show(widget):\n    return widget.render()\n",
    "tests/test_core.py": "from app.core import compute\n\n\ndef test_compute():\n    assert compute(2) == 2\n",
    "docs/guide.md": "# Guide\n",
}


def impact(route, repo, *args: str) -> dict:
    result = route(["impact", "--json", *args], repo.path)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def paths(doc: dict, section: str | None = None) -> list[str]:
    return [r["path"] for r in doc["rows"] if section is None or r.get("section") == section]


@pytest.fixture
def project(make_repo, route):
    repo = make_repo("project")
    repo.commit(dict(PROJECT))
    assert route(["build", "-q"], repo.path).exit_code == 0
    return repo


def test_depth_one_lists_direct_callers_and_depth_two_their_callers(project, route) -> None:
    one = impact(route, project, "compute", "--depth", "1")
    assert paths(one, "code") == ["app/service.py"]
    assert paths(one, "tests") == ["tests/test_core.py"]
    row = one["rows"][0]
    assert (row["depth"], row["edges"], row["resolution"]) == (1, ["calls"], ["import"])

    two = impact(route, project, "app/core.py:compute")
    assert paths(two, "code") == ["app/service.py", "app/api.py"]
    assert [r["depth"] for r in two["rows"] if r["section"] == "code"] == [1, 2]


def test_a_file_target_walks_what_it_defines(project, route) -> None:
    doc = impact(route, project, "app/models.py")
    assert "app/users.py" in paths(doc, "code")
    assert "inherits" in next(r for r in doc["rows"] if r["path"] == "app/users.py")["edges"]


def test_cycles_end(project, route) -> None:
    doc = impact(route, project, "ping", "--depth", "5")
    assert paths(doc, "code") == ["app/cycle_b.py"]


def test_ambiguous_target_lists_candidates_instead_of_guessing(project, route) -> None:
    doc = impact(route, project, "render")
    assert doc["ambiguous_target"] is True
    assert sorted(paths(doc)) == ["app/one.py", "app/two.py"]
    assert all(r["status"] == "candidate" for r in doc["rows"])
    assert doc["notes"][-1].startswith(FOOTER_START)


def test_ambiguous_edges_are_left_out_unless_asked_and_counted(project, route) -> None:
    left_out = impact(route, project, "app/one.py:render")
    assert "app/view.py" not in paths(left_out)
    assert left_out["ambiguous_edges"] == {"left_out": 1, "included": 0}
    included = impact(route, project, "app/one.py:render", "--ambiguous")
    assert paths(included, "code") == ["app/view.py"]
    assert included["rows"][0]["resolution"] == ["ambiguous"]
    assert included["ambiguous_edges"] == {"left_out": 0, "included": 1}


def test_a_use_resolved_to_two_definitions_of_one_symbol_is_no_guess(make_repo, route) -> None:
    """fmt's `format_error_code`, declared in format.h and defined in format-inl.h: its callers reached both, and
    each such edge was left out as ambiguous ("what calls format_error_code?" answered only the files including
    the header). Every definition of the name is walked, so such a use is certain of its symbol."""
    repo = make_repo("declared")
    repo.commit({
        "include/fmt/format.h": "namespace fmt {\nvoid format_error_code(int code);\n}\n",
        "include/fmt/format-inl.h": '#include "format.h"\nnamespace fmt {\nvoid format_error_code(int code) {}\n}\n',
        "include/fmt/os.h": '#include "format.h"\n#include "format-inl.h"\n',
        "src/os.cc": '#include "fmt/os.h"\nnamespace fmt {\nvoid report(int code) {\n  format_error_code(code);\n'
                     '}\n}\n',
    })
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = impact(route, repo, "format_error_code")
    assert paths(doc, "code")[:1] == ["src/os.cc"]
    assert doc["rows"][0]["resolution"] == ["definitions"]
    assert doc["ambiguous_edges"]["left_out"] == 0


def test_unknown_target_is_no_match_with_the_footer(project, route) -> None:
    doc = impact(route, project, "no_such_thing")
    assert doc["status"] == "no_match"
    assert doc["rows"] == []
    assert doc["notes"][-1].startswith(FOOTER_START)
    assert doc["footer"].startswith(FOOTER_START)


def test_text_output_ends_with_the_footer_even_quiet(project, route) -> None:
    result = route(["impact", "-q", "compute"], project.path)
    assert result.exit_code == 0, result.stderr
    assert "[code]" in result.stdout and "app/service.py" in result.stdout
    assert result.stderr.strip().splitlines()[-1].startswith(f"note: {FOOTER_START}")


@pytest.mark.parametrize("files, name", [
    ({"pkg/__init__.py": "", "pkg/compat.py": "import sys\nPY_3_10_PLUS = sys.version_info >= (3, 10)\nUNUSED = 1\n",
      "pkg/make.py": "from pkg.compat import PY_3_10_PLUS\n\n\ndef build():\n    return 1 if PY_3_10_PLUS else 0\n",
      "tests/test_make.py": "from pkg.compat import PY_3_10_PLUS as modern\n\n\ndef test_flag():\n    assert modern\n",
      "pkg/other.py": "from pkg.make import build\n"}, "PY_3_10_PLUS"),
    ({"src/limits.js": "export const MAX_ROWS = 500\nexport const UNUSED = 1\n",
      "src/table.js": "import { MAX_ROWS } from './limits.js'\nexport function rows(all) { return all.slice(0, MAX_ROWS) }\n",
      "tests/table.test.js": "import { MAX_ROWS as limit } from '../src/limits.js'\ntest('limit', () => limit)\n",
      "src/other.js": "import { rows } from './table.js'\n"}, "MAX_ROWS"),
    # a function passed on as a value, never called where it is imported (pluggy's `caller = _multicall`)
    ({"pkg/__init__.py": "", "pkg/execution.py": "def multicall(hooks):\n    return hooks\n\n\ndef UNUSED():\n    pass\n",
      "pkg/manager.py": "from pkg.execution import multicall\n\n\nclass Manager:\n    hookexec = multicall\n",
      "pkg/other.py": "from pkg.manager import Manager\n"}, "multicall"),
])
def test_a_definition_imported_by_name_is_used_by_the_files_that_import_it(make_repo, route, files, name) -> None:
    """A constant or a function no call or type names: "what uses PY_3_10_PLUS" (attrs), django's DEFAULT_DB_ALIAS
    and pluggy's `_multicall` had no user."""
    repo = make_repo("constants")
    repo.commit(files)
    assert route(["build", "-q"], repo.path).exit_code == 0
    found = impact(route, repo, name, "--depth", "1")
    used_in = sorted(r["path"] for r in found["rows"])
    assert used_in == sorted(p for p, text in files.items() if f"import {{ {name}" in text or f"import {name}" in text
                             ), found["rows"]
    assert all(r["edges"] == ["references"] for r in found["rows"])
    assert impact(route, repo, "UNUSED", "--depth", "1")["rows"] == []


def test_a_symbol_used_only_in_its_own_file_is_answered_with_its_users_there(make_repo, route) -> None:
    """X's own file changes with X, so it is no row of what a change to X breaks; but when every use of a symbol is
    there (a script's helper), its users there are the answer, cold and bounded alike, and `ask`'s "who calls X"
    gets them rather than the plain words of its question ("calls" in some other name). For a symbol nothing
    uses, those plain words leave out what asks for users."""
    from gitroute.bundle.store import BundleView
    from gitroute.indexes import impact as impact_index
    from gitroute.query import _whole_file_starts

    repo = make_repo("script")
    repo.commit({**PROJECT, "tools/gen.py": "def render_rows(rows):\n    return rows\n\n\ndef main():\n"
                                             "    return render_rows([]) + render_rows([1])\n\n\ndef unused():\n"
                                             "    return 0\n",
                 "app/calls.py": "def calls_render_rows():\n    return 1\n\n\ndef break_change_unused():\n"
                                 "    return 2\n"})
    assert route(["build", "-q"], repo.path).exit_code == 0
    own = impact(route, repo, "render_rows")
    assert paths(own) == ["tools/gen.py"] and "main" in own["rows"][0]["names"]
    assert any("every use of 'render_rows' is in its own file" in note for note in own["notes"])
    assert paths(impact(route, repo, "compute")) == ["app/service.py", "app/api.py", "tests/test_core.py"]
    assert paths(impact(route, repo, "unused")) == []
    assert paths(impact(route, repo, "tools/gen.py")) == []  # a file is not its own user
    view = BundleView(str(repo.path))
    starts = _whole_file_starts(view)
    whole = impact_index.answer(view.index("impact"), "render_rows", limit=10)
    assert impact_index.answer(view.index("impact"), "render_rows", limit=10, rows=3,
                               file_starts=lambda: starts).rows == whole.rows
    asked = json.loads(route(["ask", "--json", "who calls render_rows?"], repo.path).stdout)
    assert (asked["rows"][0]["type"], asked["rows"][0]["path"]) == ("impact", "tools/gen.py")
    # Nothing uses `unused`: the plain words `ask` falls back to are the question's without what asks for users
    # ("what would break if I changed"), which would find a name holding "break" and "change".
    unused = json.loads(route(["ask", "--json", "what would break if I changed unused?"], repo.path).stdout)
    assert (unused["rows"][0]["type"], unused["rows"][0]["name"]) == ("meaning", "unused")


def test_impact_without_a_bundle_is_fatal(make_repo, route) -> None:
    repo = make_repo()
    repo.commit({"a.py": "x = 1\n"})
    result = route(["impact", "x"], repo.path)
    assert result.exit_code == 128
    assert result.stdout == ""
    assert result.stderr.startswith("fatal: ")


def test_impact_rejects_a_bad_depth(project, route) -> None:
    result = route(["impact", "compute", "--depth", "0"], project.path)
    assert result.exit_code == 129
    assert result.stdout == ""


# --- contracts ----------------------------------------------------------------------------------

SCHEMA = '{"type": "object", "properties": {"id": {"type": "string"}, "size": {"type": "integer"}}}\n'


def _git(cwd: Path, *args: str) -> None:
    result = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    assert result.returncode == 0, f"git {' '.join(args)}: {result.stderr}"


@pytest.fixture
def umbrella(make_repo, route):
    """A superproject with a schema, an identical copy in a submodule, and a copy that drifted."""
    lib = make_repo("lib")
    lib.commit({"schema/board.schema.json": SCHEMA, "reader.py": "PATH = 'schema/board.schema.json'\n"})
    repo = make_repo("umbrella")
    repo.commit({
        "schema/board.schema.json": SCHEMA,
        "tools/check.py": "import json\n\nSCHEMA = 'board.schema.json'\n",
        "vendor/schema/board.schema.json": SCHEMA.replace("integer", "number"),
        ".github/workflows/ci.yml": (
            "on:\n  push:\n  repository_dispatch:\n    types: [board-updated]\n"
            "jobs:\n  test:\n    uses: acme/shared/.github/workflows/test.yml@v2\n"
            "  notify:\n    runs-on: ubuntu-latest\n    steps:\n"
            "      - uses: actions/checkout@v4\n"
            "      - run: python -m jsonschema schema/board.schema.json\n"
            "      - uses: peter-evans/repository-dispatch@v3\n        with:\n"
            "          repository: acme/site\n          event-type: schema-changed\n"
            "      - uses: docker/build-push-action@v6\n        with:\n          push: true\n"
            "          tags: ghcr.io/acme/board:latest\n"
        ),
        ".github/workflows/reusable.yml": "on:\n  workflow_call:\njobs:\n  x:\n    runs-on: ubuntu-latest\n",
        "pyproject.toml": '[project]\nname = "board"\ndependencies = ["board-core>=1", "requests"]\n',
        "core/pyproject.toml": '[project]\nname = "board-core"\n',
    })
    _git(repo.path, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib.path), "libs/lib")
    _git(repo.path, "commit", "-q", "-m", "add the lib submodule")
    assert route(["build", "-q"], repo.path).exit_code == 0
    return repo


def test_contract_copied_in_a_submodule_and_a_drifted_copy(umbrella, route) -> None:
    doc = impact(route, umbrella, "schema/board.schema.json")
    contract = {r["path"]: r["status"] for r in doc["rows"] if r.get("section") == "contract"}
    assert contract["libs/lib/schema/board.schema.json"] == "identical"
    assert contract["vendor/schema/board.schema.json"] == "drifted"
    assert contract["tools/check.py"] == "reads"
    assert contract["libs/lib/reader.py"] == "reads"
    assert contract[".github/workflows/ci.yml"] == "reads"
    assert any("drifted from the canonical copy" in n for n in doc["notes"])


def test_configured_drift_is_on_purpose(umbrella, route) -> None:
    (umbrella.path / ".gitroute.toml").write_text('[contracts]\ndrift = ["vendor/schema/board.schema.json"]\n')
    _git(umbrella.path, "add", ".gitroute.toml")
    _git(umbrella.path, "commit", "-q", "-m", "config")
    assert route(["build", "-q"], umbrella.path).exit_code == 0
    doc = impact(route, umbrella, "schema/board.schema.json")
    contract = {r["path"]: r["status"] for r in doc["rows"] if r.get("section") == "contract"}
    assert contract["vendor/schema/board.schema.json"] == "drifts on purpose"


def test_wiring_tables(umbrella, route) -> None:
    result = route(["wiring", "--json"], umbrella.path)
    assert result.exit_code == 0, result.stderr
    wiring = json.loads(result.stdout)["wiring"]
    assert wiring["contracts"][0]["copies"] == ["libs/lib/schema/board.schema.json", "schema/board.schema.json"]
    assert wiring["submodules"][0]["path"] == "libs/lib" and wiring["submodules"][0]["present"] is True
    assert {"workflow": ".github/workflows/ci.yml", "job": "test", "kind": "workflow",
            "uses": "acme/shared/.github/workflows/test.yml", "ref": "v2"} in wiring["workflow_calls"]
    dispatches = {(d["direction"], d["type"]) for d in wiring["dispatches"]}
    assert dispatches == {("listens", "board-updated"), ("sends", "schema-changed"),
                          ("callable", "reusable.yml")}
    assert wiring["published"] == [{"workflow": ".github/workflows/ci.yml", "kind": "image",
                                    "name": "ghcr.io/acme/board:latest"}]
    assert wiring["dependencies"] == [{"package": "board", "path": "pyproject.toml", "depends_on": "board-core",
                                       "depends_on_path": "core/pyproject.toml"}]


def test_wiring_question_ranks_rows_sharing_its_words(umbrella, route) -> None:
    result = route(["wiring", "--json", "which", "workflow", "sends", "the", "schema-changed", "dispatch"],
                   umbrella.path)
    doc = json.loads(result.stdout)
    assert doc["rows"][0]["kind"] == "dispatch" and doc["rows"][0]["name"] == "schema-changed"


def test_wiring_question_in_text_names_each_table_once(umbrella, route) -> None:
    """Ranked rows of several tables interleave; the text groups them, each table where its best row ranks."""
    question = ["package", "schema", "workflow"]
    ranked = json.loads(route(["wiring", "--json", *question], umbrella.path).stdout)["rows"]
    tables = [row["table"] for row in ranked]
    assert len(tables) > len(set(tables))  # the ranking interleaves tables
    lines = route(["wiring", *question], umbrella.path).stdout.splitlines()[1:]
    headings = [line[1:-1] for line in lines if line.startswith("[")]
    assert headings == list(dict.fromkeys(tables))  # once each, in the order of their best rows
    assert len(lines) == len(headings) + len(ranked)  # every row still shown


def test_wiring_question_matches_words_by_stem_and_ignores_stop_words(umbrella, route) -> None:
    stemmed = json.loads(route(["wiring", "--json", "dispatched", "changes"], umbrella.path).stdout)
    assert stemmed["rows"][0]["kind"] == "dispatch" and stemmed["rows"][0]["name"] == "schema-changed"
    # a question of stop words alone narrows to nothing, rather than to every row holding "the"
    only_stop_words = json.loads(route(["wiring", "--json", "what", "is", "the"], umbrella.path).stdout)
    assert only_stop_words["status"] == "no_match" and "no word" in only_stop_words["notes"][0]


def test_render_wiring_is_markdown_between_markers(umbrella, route) -> None:
    wiring = json.loads(route(["wiring", "--json"], umbrella.path).stdout)["wiring"]
    text = render_wiring(wiring)
    assert MARKER_BEGIN not in text and "## Contracts" in text  # the block between the markers, not them
    assert "| `schema/board.schema.json` | `libs/lib/schema/board.schema.json` |" in text
    assert render_wiring(wiring) == text  # deterministic
    markdown = route(["wiring", "--markdown"], umbrella.path)
    assert markdown.stdout.strip() == (MARKER_BEGIN + text + MARKER_END).strip()


def test_wiring_write_then_check_a_document_block(umbrella, route) -> None:
    doc = umbrella.path / "REPOS.md"
    doc.write_text(f"# Repos\n\n{MARKER_BEGIN}\n{MARKER_END}\n\nafter\n")
    written = route(["wiring", "--write", "REPOS.md"], umbrella.path)
    assert written.exit_code == 0, written.stderr
    text = doc.read_text()
    assert text.startswith("# Repos\n") and text.endswith(f"{MARKER_END}\n\nafter\n")
    assert "ghcr.io/acme/board:latest" in text
    stale = route(["wiring", "--check", "REPOS.md"], umbrella.path)  # not committed yet: the commit lacks it
    assert stale.exit_code == 1
    _git(umbrella.path, "add", "REPOS.md")
    _git(umbrella.path, "commit", "-q", "-m", "wiring block")
    assert route(["build", "-q"], umbrella.path).exit_code == 0
    current = route(["wiring", "--check", "REPOS.md"], umbrella.path)
    assert current.exit_code == 0, current.stdout + current.stderr


def test_a_workflow_that_does_not_parse_is_a_warning_not_a_failure(make_repo, route) -> None:
    repo = make_repo()
    repo.commit({".github/workflows/bad.yml": "on: [push\njobs: {\n", "a.py": "x = 1\n"})
    assert route(["build", "-q"], repo.path).exit_code == 0
    status = route(["status"], repo.path)
    assert "workflow does not parse" in status.stdout


def test_wiring_lists_a_go_module_s_internal_packages_and_which_imports_which(make_repo, route) -> None:
    repo = make_repo()
    repo.commit({
        "go.mod": "module example.com/shop\n\ngo 1.21\n\nrequire github.com/acme/log v1.0.0\n",
        "shop.go": 'package shop\n\nimport (\n\t"errors"\n\t"example.com/shop/store"\n)\n\nfunc A() { store.B(); errors.New("") }\n',
        "store/store.go": 'package store\n\nimport "github.com/acme/log"\n\nfunc B() { log.Print() }\n',
        # A test's imports, and what sits under testdata, are not the package's dependencies.
        "store/store_test.go": 'package store\n\nimport "example.com/shop/testdata/fake"\n',
        "testdata/fake/fake.go": "package fake\n",
        "cmd/shop/main.go": 'package main\n\nimport "example.com/shop"\n\nfunc main() { shop.A() }\n',
    })
    assert route(["build", "-q"], repo.path).exit_code == 0
    wiring = json.loads(route(["wiring", "--json"], repo.path).stdout)["wiring"]
    assert {(p["path"], p["name"]) for p in wiring["packages"] if p["ecosystem"] == "go"} == {
        ("go.mod", "example.com/shop"), (".", "example.com/shop"), ("store", "example.com/shop/store"),
        ("cmd/shop", "example.com/shop/cmd/shop")}
    assert sorted((d["path"], d["depends_on_path"]) for d in wiring["dependencies"]) == [
        (".", "store"), ("cmd/shop", ".")]


CONFIGS = {
    "appveyor.yml": ("image: Visual Studio 2017\nenvironment:\n  matrix:\n    - GENERATOR: '\"Visual Studio 15 2017 Win64\"'\n"
                     "build_script:\n  - cmake -G %GENERATOR% ..\n"),
    ".github/workflows/ci.yml": ("name: ci\non: [push, pull_request]\njobs:\n  test:\n    runs-on: ubuntu-latest\n"
                                 "    steps:\n      - uses: actions/checkout@v4\n      - run: make test\n"),
    ".github/workflows/release.yml": ("name: release\non:\n  push:\n    tags: ['v*']\njobs:\n  publish:\n"
                                      "    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n"
                                      "      - run: make dist\n"),
    # a workflow whose comments say "workflow file": words every CI file is, which rank none above another
    ".github/workflows/codeql.yml": ("# For most projects this workflow file will not need changing; commit this\n"
                                     "# file to your repository.\nname: CodeQL\non:\n  push:\n    branches: [main]\n"
                                     "jobs:\n  analyze:\n    runs-on: ubuntu-latest\n    steps:\n"
                                     "      - uses: github/codeql-action/init@v3\n"),
    "pyproject.toml": '[project]\nname = "shop"\n\n[project.scripts]\nshop-admin = "shop.cli:main"\n',
    "shop/cli.py": "def main():\n    return 0\n",
    "Makefile": "lint:\n\truff check shop\n\nschemas:\n\tpython tools/regenerate_schemas.py\n",
    "plugin.xml": ('<plugin id="shop-plugin">\n  <js-module src="www/checkout.js" name="checkout">\n'
                   '    <clobbers target="window.shopCheckout" />\n  </js-module>\n</plugin>\n'),
    # CI and build files by the names their tools give them, anywhere in the tree (not a module named build.py)
    "integration/kiosk/cloudbuild.yaml": ("steps:\n  - name: golang\n    args: [go, build, ./kiosk]\n"
                                          "  - name: gcr.io/cloud-builders/docker\n"
                                          "    args: [run, kiosk-harness, --acceptance]\n"),
    "Build/build.ps1": "Task Package { exec { nuget pack Shop.nuspec -Symbols } }\n",
    "shop/build.py": "def nuget_acceptance_kiosk():\n    return 'not a build file'\n",
    # the lowest versions a test environment pins
    "tox.ini": "[testenv:lowest]\ndeps =\n    flask==1.1.3\n    django==2.2.0\ncommands = pytest\n",
    # what a Python sdist ships
    "MANIFEST.in": "include README.md\nrecursive-include tests/fixtures *.json\nprune docs/_build\n",
}


@pytest.mark.parametrize("question, first", [
    ("Which CI config runs the Windows builds with the Visual Studio generators?", "appveyor.yml"),
    ("Pushing a tag kicks off a release job; which workflow file is that?", ".github/workflows/release.yml"),
    ("Where is the shop-admin console script declared?", "pyproject.toml"),
    ("Which make target regenerates the schemas?", "Makefile"),
    ("Where is it configured that the checkout module clobbers window.shopCheckout?", "plugin.xml"),
    ("Which Cloud Build config builds the kiosk and runs its acceptance tests?", "integration/kiosk/cloudbuild.yaml"),
    ("Which script packs the nuget package?", "Build/build.ps1"),
    ("Which packaging file decides that the test fixtures get shipped while the built docs are pruned?",
     "MANIFEST.in"),
    ("Which file pins the oldest supported Flask and Django versions for the lowest test environment?", "tox.ini"),
])
def test_a_wiring_question_in_words_finds_the_ci_or_manifest_file_that_says_it(make_repo, route, question,
                                                                                 first) -> None:
    repo = make_repo("configs")
    repo.commit(dict(CONFIGS), "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = json.loads(route(["wiring", "--json", question], repo.path).stdout)
    assert doc["status"] == "routed" and doc["rows"][0]["path"] == first, doc["rows"][:3]
    assert "configs" not in doc["wiring"]  # the words kept of each file are not shown
    assert json.loads(route(["ask", "--json", question], repo.path).stdout)["rows"][0]["path"] == first
    off_topic = json.loads(route(["wiring", "--json", "which workflow bakes sourdough bread"], repo.path).stdout)
    assert all(row["path"] != "appveyor.yml" for row in off_topic["rows"])


@pytest.mark.parametrize("question", ["how do I run the test suite", "How are the tests run?",
                                      "what command runs the tests"])
def test_a_task_question_finds_the_manifest_that_names_the_task_without_its_framing_words(make_repo, route,
                                                                                          question) -> None:
    # package.json's "test" script says neither "run", "suite" nor "command": the task's own word is enough
    repo = make_repo("task")
    repo.commit({"package.json": '{"name": "shop", "scripts": {"test": "mocha --bail test/", "lint": "eslint ."}}\n',
                 "index.js": "module.exports = function shop() { return 1 }\n"}, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = json.loads(route(["ask", "--json", question], repo.path).stdout)
    assert doc["status"] == "routed" and doc["rows"][0]["path"] == "package.json", doc["rows"][:3]
    unrelated = json.loads(route(["wiring", "--json", "how do I run the benchmarks"], repo.path).stdout)
    assert unrelated["status"] == "no_match"


def test_a_question_that_says_ci_finds_the_ci_file_that_runs_it_not_every_step_of_ci_yml(make_repo, route) -> None:
    # ci.yml's steps share only its own name with the question; pyproject shares the benchmark words, not CI
    repo = make_repo("bench-ci")
    steps = "".join(f"      - uses: actions/step-{i}@v1\n" for i in range(12))
    repo.commit({
        ".github/workflows/ci.yml": f"name: CI\non: [push]\njobs:\n  tests:\n    runs-on: ubuntu-latest\n    steps:\n{steps}",
        ".github/workflows/speed.yml": ("name: Benchmarks\non: [push]\njobs:\n  bench:\n    runs-on: ubuntu-latest\n"
                                        "    steps:\n      - uses: actions/checkout@v4\n"
                                        "      - run: pytest bench/test_benchmarks.py\n"),
        "pyproject.toml": '[project]\nname = "shop"\n\n[dependency-groups]\nbenchmark = ["pytest-benchmark"]\n'
                          '# run: pytest bench\n',
        "bench/test_benchmarks.py": "def test_speed():\n    assert True\n",
    }, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = json.loads(route(["wiring", "--json", "how do the benchmarks in bench/ get run on CI?"], repo.path).stdout)
    assert doc["rows"][0]["path"] == ".github/workflows/speed.yml", doc["rows"][:3]


def test_forged_config_words_in_the_wiring_are_damage(make_repo, route) -> None:
    import pygit2

    repo = make_repo("forged-configs")
    repo.commit(dict(CONFIGS), "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    git = pygit2.Repository(str(repo.path))
    ref = git.references["refs/marola/routing-bundle"]
    commit = git[ref.target]
    wiring_tree = commit.tree["wiring"]
    data = json.loads(git[wiring_tree["wiring.json"].id].data)
    data["configs"][0]["words"] = ["a", 1, None]
    inner = git.TreeBuilder(git[wiring_tree.id])
    inner.insert("wiring.json", git.create_blob(json.dumps(data).encode()), pygit2.GIT_FILEMODE_BLOB)
    outer = git.TreeBuilder(commit.tree)
    outer.insert("wiring", inner.write(), pygit2.GIT_FILEMODE_TREE)
    forged = git.create_commit(None, commit.author, commit.committer, "forged", outer.write(), [])
    ref.set_target(forged)
    result = route(["wiring", "which CI config runs the Windows builds"], repo.path)
    assert result.exit_code == 128 and "damaged" in result.stderr, result.stderr


names = st.text(min_size=1, max_size=10)


@given(st.dictionaries(names, st.lists(st.integers(0, 2**40), min_size=1, max_size=5, unique=True), max_size=6))
def test_the_name_tables_codec_round_trips_its_records(values):
    from gitroute.indexes.impact import NAMES

    codec = NAMES.codec
    values = {key: [[node] for node in sorted(ids)] for key, ids in values.items()}  # [node id] records
    shard = codec.load_shard(codec.dump_shard(codec.encode_shard(values)))
    assert codec.decode_shard(shard) == values


@given(st.lists(st.tuples(st.integers(0, 300), st.integers(1, 40)), max_size=6),
       st.lists(st.integers(0, 2000), max_size=20))
def test_a_name_record_is_a_files_when_its_node_is_in_the_files_span(gaps, nodes):
    from gitroute.indexes.impact import NAMES

    spans, end = [], 0
    for gap, count in gaps:  # files' spans never overlap: a file's nodes have ids of their own
        spans.append((end + gap, count))
        end += gap + count
    gone = {f"f{k}.py": ("blob", first, count) for k, (first, count) in enumerate(reversed(spans))}
    belongs = NAMES.codec.belongs({**gone, "new.py": None})  # a file new in this build had no records
    for node in nodes:
        assert belongs([node]) == any(first <= node < first + count for first, count in spans)


def test_a_name_defined_in_the_source_and_in_its_built_bundle_is_the_sources(make_repo, route) -> None:
    """qs: `maybeMap` is defined in lib/utils.js and again in dist/qs.js (the browser bundle); impact listed both as
    candidates and walked neither. A definition in code whose others are built or vendored copies is the one meant."""
    repo = make_repo("bundled")
    repo.commit({"lib/utils.js": "var maybeMap = function maybeMap(val, fn) { return fn(val); };\n"
                                 "module.exports = { maybeMap: maybeMap };\n",
                 "lib/parse.js": "var utils = require('./utils');\nfunction parse(v) { return utils.maybeMap(v, String); }\n"
                                 "module.exports = parse;\n",
                 "dist/bundle.js": "function maybeMap(val, fn) { return fn(val); }\nfunction parse(v) { return maybeMap(v); }\n"},
                "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = json.loads(route(["impact", "--json", "maybeMap"], repo.path).stdout)
    assert "lib/parse.js" in [row["path"] for row in doc["rows"]]
    assert any("built or vendored copies" in note for note in doc["notes"])


def test_a_name_the_source_defines_twice_lists_the_source_before_its_built_copies(make_repo, route) -> None:
    """joi: `clone` is defined in several lib/ files and in dist/joi-browser.min.mjs; the candidates of the ambiguous
    name began with the built copy, its path first in order. The source's definitions come first."""
    repo = make_repo("candidates")
    repo.commit({"lib/base.js": "function clone(value) { return Object.assign({}, value); }\nmodule.exports = clone;\n",
                 "lib/ref.js": "function clone(ref) { return { ...ref }; }\nmodule.exports = clone;\n",
                 "dist/bundle.js": "function clone(value) { return value; }\nfunction other(ref) { return ref; }\n"},
                "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = json.loads(route(["impact", "--json", "clone"], repo.path).stdout)
    assert [row["path"] for row in doc["rows"]] == ["lib/base.js", "lib/ref.js", "dist/bundle.js"]


def test_a_name_built_into_several_bundles_beside_its_source_is_the_sources(make_repo, route) -> None:
    """Luxon ships src/ and the same modules bundled into build/amd/luxon.js, build/es6/luxon.mjs, …: "which callers of
    signedOffset must I re-check?" listed the bundles' definitions as candidates, and no caller. The source is walked;
    one file in a built folder (yargs as published: build/lib/ is all its code) is no copy of anything."""
    util = "function signedOffset(h, m) { return h * 60 + m; }\nmodule.exports = { signedOffset };\n"
    caller = "const { signedOffset } = require('./util');\nfunction parseOffset(s) { return signedOffset(+s, 0); }\n"
    bundle = ("function signedOffset(h, m) { return h * 60 + m; }\n"
              "function parseOffset(s) { return signedOffset(+s, 0); }\n")
    repo = make_repo("bundles")
    repo.commit({"src/util.js": util, "src/parser.js": caller, "build/amd/lib.js": bundle, "build/es6/lib.mjs": bundle},
                "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = json.loads(route(["impact", "--json", "signedOffset"], repo.path).stdout)
    assert [row["path"] for row in doc["rows"]][:1] == ["src/parser.js"]
    # one bundle only: it may be the code itself, and the name stays ambiguous (its candidates listed, the source first)
    single = make_repo("one-bundle")
    single.commit({"src/util.js": util, "src/parser.js": caller, "build/lib/index.js": bundle}, "initial")
    assert route(["build", "-q"], single.path).exit_code == 0
    listed = json.loads(route(["impact", "--json", "signedOffset"], single.path).stdout)
    assert "build/lib/index.js" in [row["path"] for row in listed["rows"]]


def test_a_name_in_src_and_in_the_bundle_at_the_top_is_the_sources(make_repo, route) -> None:
    """Moment.js publishes src/ and the same modules bundled into moment.js at the top (and min/, dist/): "which
    callers of cloneWithOffset must I re-check?" listed the bundles' definitions as candidates, and no caller."""
    util = "export function cloneWithOffset(m) { return m; }\n"
    caller = "import { cloneWithOffset } from './util';\nexport function diff(a) { return cloneWithOffset(a); }\n"
    bundle = "function cloneWithOffset(m) { return m; }\nfunction diff(a) { return cloneWithOffset(a); }\n"
    repo = make_repo("top-bundle")
    repo.commit({"src/lib/util.js": util, "src/lib/diff.js": caller, "moment.js": bundle}, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = json.loads(route(["impact", "--json", "cloneWithOffset"], repo.path).stdout)
    assert [row["path"] for row in doc["rows"]][:1] == ["src/lib/diff.js"], doc["rows"]


def test_a_javascript_module_and_its_typescript_declaration_are_walked_as_one_symbol(make_repo, route):
    """dotenv: lib/main.js defines `config` and lib/main.d.ts declares it; config.js calls it through `require`. The
    call resolved to two definitions was left out as ambiguous and the declaration not walked: "0 edges"."""
    main = ("function config(options) { return options; }\nfunction populate(target, parsed) { return target; }\n"
            "module.exports.config = config;\nmodule.exports.populate = populate;\n")
    types = ("export interface Options { path?: string }\nexport declare function config(options?: Options): object;\n"
             "export declare function populate(target: object, parsed: object): void;\n")
    repo = make_repo("declared")
    repo.commit({"lib/main.js": main, "lib/main.d.ts": types,
                 "config.js": "(function () {\n  require('./lib/main').config({})\n})()\n"}, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = json.loads(route(["impact", "--json", "config"], repo.path).stdout)
    assert [row["path"] for row in doc["rows"]][:1] == ["config.js"], doc["rows"]
    assert "walked together" in " ".join(doc["notes"])


def test_one_go_function_defined_under_two_build_constraints_is_walked_as_one(make_repo, route):
    """cespare/xxhash: `Sum64String` is in xxhash_safe.go (`//go:build appengine`) and xxhash_unsafe.go (`!appengine`):
    Go allows one definition a package, so the two are one function, not candidates to choose from."""
    repo = make_repo("constraints")
    repo.commit({
        "go.mod": "module example.com/hash\n\ngo 1.21\n",
        "hash_safe.go": "//go:build appengine\n\npackage hash\n\nfunc Sum64String(s string) uint64 { return 1 }\n",
        "hash_unsafe.go": "//go:build !appengine\n\npackage hash\n\nfunc Sum64String(s string) uint64 { return 2 }\n",
        "cmd/sum/main.go": 'package main\n\nimport "example.com/hash"\n\nfunc main() { hash.Sum64String("a") }\n',
        "other/hash.go": "package other\n\nfunc Sum64String(s string) uint64 { return 3 }\n",
    }, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    from gitroute.indexes.impact.targets import one_symbol

    same = [[1, "hash_safe.go", "Sum64String", "function", 5], [2, "hash_unsafe.go", "Sum64String", "function", 5]]
    assert one_symbol(same) and not one_symbol([same[0], [3, "other/hash.go", "Sum64String", "function", 3]])
    doc = json.loads(route(["impact", "--json", "hash_safe.go:Sum64String"], repo.path).stdout)
    assert [row["path"] for row in doc["rows"]][:1] == ["cmd/sum/main.go"], doc


def test_a_minified_copys_callers_come_after_the_sources(make_repo, route):
    """mustache: "which callers of Mustache.render …?" listed mustache.min.js alone, whose minified copy calls it;
    bin/mustache (which requires '..', the package's main) is the caller, the copy's callers after it."""
    repo = make_repo("minified")
    repo.commit({"package.json": '{"name": "tmpl", "main": "tmpl.js"}',
                 "tmpl.js": "function render(t) { return t }\nfunction page(t) { return render(t) }\n"
                            "module.exports = { render, page }\n",
                 "a.min.js": 'var T=require("./tmpl");function p(t){return T.render(t)}\n',
                 "bin/tmpl.js": "const Tmpl = require('..')\nfunction run(t) { return Tmpl.render(t) }\n"}, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    rows = json.loads(route(["impact", "--json", "tmpl.js:render"], repo.path).stdout)["rows"]
    assert [row["path"] for row in rows] == ["bin/tmpl.js", "a.min.js"]


def test_one_source_built_as_es_modules_and_commonjs_beside_a_bundle_at_the_top_is_walked_as_one(make_repo, route):
    """EJS 7 publishes lib/esm/ and lib/cjs/ (one source built twice) and ejs.js at the top bundling them: "which code
    calls escapeRegExpChars?" walked the bundle alone (no caller), and `Parser` listed its twins as candidates. Both
    twins are walked as one symbol; a file holding a copy of the name (the bundle) comes after the twins' callers."""
    esm_util = "export function escapeChars(s) { return s; }\n"
    esm_caller = "import { escapeChars } from './utils.js';\nexport function compile(t) { return escapeChars(t); }\n"
    cjs_util = "function escapeChars(s) { return s; }\nexports.escapeChars = escapeChars;\n"
    cjs_caller = ("const utils = require('./utils.js');\n"
                  "function compile(t) { return utils.escapeChars(t); }\nexports.compile = compile;\n")
    bundle = "function escapeChars(s) { return s; }\nfunction compile(t) { return escapeChars(t); }\n"
    repo = make_repo("dual")
    repo.commit({"lib/esm/utils.js": esm_util, "lib/esm/ejs.js": esm_caller, "lib/cjs/utils.js": cjs_util,
                 "lib/cjs/ejs.js": cjs_caller, "ejs.js": bundle}, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = json.loads(route(["impact", "--json", "escapeChars"], repo.path).stdout)
    assert sorted(row["path"] for row in doc["rows"][:2]) == ["lib/cjs/ejs.js", "lib/esm/ejs.js"], doc["rows"]
    assert "walked together" in " ".join(doc["notes"])
    # twins of another kind of folder are no dual build: still candidates
    from gitroute.rank import esm_cjs_twins

    assert esm_cjs_twins(["lib/esm/a.js", "lib/cjs/a.cjs", "lib/esm/b.js"]) == {"lib/esm/a.js", "lib/cjs/a.cjs"}
    assert esm_cjs_twins(["lib/esm/a.js", "lib/umd/a.js"]) == set()
    assert esm_cjs_twins(["dist/esm/i.d.ts", "dist/commonjs/i.d.ts"]) == {"dist/esm/i.d.ts", "dist/commonjs/i.d.ts"}
    # minimatch: a package published as dist/commonjs and dist/esm alone, its option type declared in .d.ts twins
    published = make_repo("published")
    types = "export interface MatchOptions {\n  dot?: boolean\n}\n"
    published.commit({"dist/esm/index.d.ts": types, "dist/commonjs/index.d.ts": types,
                      "dist/esm/walk.d.ts": "import { MatchOptions } from './index.js'\n"
                                            "export declare function walk(o: MatchOptions): void\n",
                      "dist/esm/assert.js": "export const assertPattern = (p) => { if (!p) throw new Error('p') }\n",
                      "dist/commonjs/assert.js": "const assertPattern = (p) => { if (!p) throw new Error('p') }\n"
                                                 "exports.assertPattern = assertPattern\n",
                      "dist/esm/index.js": "import { assertPattern } from './assert.js'\n"
                                           "export const match = (p) => { assertPattern(p); return p }\n"}, "initial")
    assert route(["build", "-q"], published.path).exit_code == 0
    doc = json.loads(route(["impact", "--json", "assertPattern"], published.path).stdout)
    assert [row["path"] for row in doc["rows"]][:1] == ["dist/esm/index.js"], doc["rows"]
    doc = json.loads(route(["impact", "--json", "MatchOptions"], published.path).stdout)
    assert not doc.get("ambiguous_target") and "dist/esm/walk.d.ts" in [row["path"] for row in doc["rows"]], doc


def test_a_header_macro_that_renames_a_c_function_is_no_definition_of_it(make_repo, route) -> None:
    """zlib: "If I change the signature of inflate_table, which callers … must I re-check?" listed inftrees.c,
    inftrees.h and zconf.h's `#define inflate_table z_inflate_table` (and zconf.h.in's) as candidates."""
    rename = "#ifdef Z_PREFIX\n#  define inflate_table z_inflate_table\n#endif\n"
    repo = make_repo("renamed")
    repo.commit({"zconf.h": rename, "zconf.h.in": rename,
                 "inftrees.h": "int inflate_table(int type, unsigned *lens);\n",
                 "inftrees.c": '#include "inftrees.h"\nint inflate_table(int type, unsigned *lens) { return type; }\n',
                 "inflate.c": '#include "inftrees.h"\nint fixedtables(void) { return inflate_table(1, 0); }\n'},
                "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = json.loads(route(["impact", "--json", "inflate_table"], repo.path).stdout)
    assert [row["path"] for row in doc["rows"]][:1] == ["inflate.c"], doc["rows"]


def test_the_owner_a_question_names_a_member_of_is_the_name_asked(make_repo, route) -> None:
    """EJS: "If I change the constructor or the parse method of Parser in the argument-parsing module, which callers
    do I need to re-check …?" asked impact the whole sentence: a plain capitalised word after "method of" is the name
    when the repository defines it."""
    repo = make_repo("owner")
    repo.commit({"lib/parseargs.js": "class Parser {\n  parse(args) { return args; }\n}\nmodule.exports = { Parser };\n",
                 "bin/cli.js": "const { Parser } = require('../lib/parseargs');\n"
                               "function main(argv) { return new Parser().parse(argv); }\nmain(process.argv);\n"},
                "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = json.loads(route(["ask", "--json", "--explain", "If I change the constructor or the parse method of Parser in the "
                                            "argument module, which callers do I need to re-check?"], repo.path).stdout)
    assert doc["classification"]["routes"][0]["asked"] == "Parser"
    assert [row["path"] for row in doc["rows"]][:1] == ["bin/cli.js"]
    # tuf: "why not keep plain dicts for the nested attributes of metadata objects" names no `Metadata`
    plain = json.loads(route(["ask", "--json", "--explain", "why not keep plain dicts for the nested attributes of "
                                                            "parser objects"], repo.path).stdout)
    assert all(r["asked"].lower() != "parser" for r in plain["classification"]["routes"]), plain["classification"]


def test_a_class_and_its_stub_beside_a_test_s_class_of_the_name_is_the_code_s(make_repo, route) -> None:
    """Found as a new user on cachetools 8.0.2 (PyPI, never a corpus): "If I change the Cache class, which callers would
    break?" listed `__init__.py`, its `__init__.pyi` stub and a test's own `Cache` as candidates, and no caller."""
    repo = make_repo("stubbed")
    repo.commit({"src/kit/__init__.py": "class Cache:\n    def get(self, key):\n        return None\n",
                 "src/kit/__init__.pyi": "class Cache:\n    def get(self, key: str) -> object: ...\n",
                 "src/kit/func.py": "from kit import Cache\n\n\ndef lru_cache():\n    return Cache()\n",
                 "tests/__init__.py": "class Cache(dict):\n    pass\n"}, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = json.loads(route(["impact", "--json", "Cache"], repo.path).stdout)
    assert [row["path"] for row in doc["rows"]][:1] == ["src/kit/func.py"], doc["rows"]


def test_the_repository_s_automation_files_are_ci_files() -> None:
    """GitHub reads .github/release.yml (how release notes sort merged pull requests) and dependabot.yml from
    .github/ by their names; renovate's and goreleaser's files from the top. A release.yml elsewhere is no CI file."""
    from gitroute.indexes.wiring import config_kind

    for path in (".github/release.yml", ".github/dependabot.yml", "renovate.json", ".goreleaser.yaml"):
        assert config_kind(path) == "ci", path
    for path in ("docs/release.yml", ".github/ISSUE_TEMPLATE/release.yml", "src/renovate.py"):
        assert config_kind(path) is None, path


def test_a_build_variant_s_bundler_config_is_a_manifest_and_an_analyser_s_filter_a_ci_file() -> None:
    """bottleneck's rollup.config.light.js builds its light bundle; commons-validator's
    src/conf/spotbugs-exclude-filter.xml tells SpotBugs what to leave alone: files of the build, whatever their middle
    name."""
    from gitroute.indexes.wiring import config_kind

    for path in ("rollup.config.light.js", "webpack.config.prod.js", "tsconfig.build.json"):
        assert config_kind(path) == "manifest", path
    for path in ("src/conf/spotbugs-exclude-filter.xml", "pmd-ruleset.xml", "findbugs-exclude.xml"):
        assert config_kind(path) == "ci", path
    for path in ("src/rollup.config.helpers.py", "src/pmd.py", "docs/spotbugs.md"):
        assert config_kind(path) is None, path


def test_pip_requirements_files_are_manifests() -> None:
    """humanfriendly's "which file pins the linting tools … that the code-quality check installs" has
    requirements-checks.txt for its answer: pip's requirements and constraints files declare dependencies, as a
    manifest does; a module or a note named like one does not."""
    from gitroute.indexes.wiring import config_kind

    for path in ("requirements.txt", "requirements-checks.txt", "dev-requirements.in", "requirements/test.txt",
                 "docs/requirements.txt", "constraints.txt"):
        assert config_kind(path) == "manifest", path
    for path in ("src/requirements.py", "docs/requirements.md", "notes.txt"):
        assert config_kind(path) is None, path


def test_a_documentation_generator_s_configuration_is_a_ci_file() -> None:
    """passport's "which config file tells the JSDoc API documentation generator to enable the markdown plugin" has
    etc/jsdoc.json for its answer: the tools' own configurations, wherever they are; a module named like one is not."""
    from gitroute.indexes.wiring import config_kind

    for path in ("etc/jsdoc.json", "docs/typedoc.json", ".commitlintrc.json"):
        assert config_kind(path) == "ci", path
    for path in ("src/jsdoc.js", "lib/webpack.js", "docs/doxygen.md"):
        assert config_kind(path) is None, path


def test_task_runners_and_javascript_build_configs_are_manifests() -> None:
    """EJS: "Which file runs the release-tarball smoke tests …?" is its jakefile.js, which was no file of the wiring;
    a bundler's or the TypeScript compiler's configuration says how the package is built as much as a Makefile."""
    from gitroute.indexes.wiring import config_kind

    for path in ("jakefile.js", "Gruntfile.js", "gulpfile.mjs", "Taskfile.yml", "magefile.go", "tsconfig.json",
                 "rollup.config.mjs", "packages/web/vite.config.ts", "webpack.config.js", ".babelrc"):
        assert config_kind(path) == "manifest", path
    for path in ("src/jake.js", "lib/tasks.js", "rollup.js"):
        assert config_kind(path) is None, path


def test_a_question_that_says_pkg_config_gets_the_pkg_config_template_first(make_repo, route) -> None:
    """xxhash: "Which file declares the pkg-config metadata, like the library name, version, link flags and include
    directory, that gets installed …?" came eighth: libxxhash.pc.in writes `Name:`/`Libs:`, never "pkg-config", and
    the Makefile that installs it writes every other word of the question."""
    repo = make_repo("pkgconf")
    repo.commit({
        "libhash.pc.in": "prefix=@PREFIX@\nlibdir=@LIBDIR@\nincludedir=@INCLUDEDIR@\n\nName: hash\n"
                         "Description: a fast hash\nVersion: @VERSION@\nLibs: -L${libdir} -lhash\nCflags: -I${includedir}\n",
        "Makefile": "# install the library, its headers and the pkg-config metadata\nLIBRARY_NAME = libhash\n"
                    "VERSION = 1.0\nLINK_FLAGS = -shared\nINCLUDE_DIRECTORY = include\n"
                    "install: libhash.a\n\tinstall -m 644 libhash.pc $(PKGCONFIGDIR)/libhash.pc\n",
        "hash.c": "int hash(const char *s) { return 0; }\n",
    }, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    found = json.loads(route(["ask", "--json", "Which file declares the pkg-config metadata, like the library name, "
                                               "version, link flags and include directory?"], repo.path).stdout)
    assert [r["path"] for r in found["rows"][:2]] == ["libhash.pc.in", "Makefile"]
    # without pkg-config in the question, the Makefile's words answer
    found = json.loads(route(["ask", "--json", "Which build file sets the library name, version, link flags and "
                                               "include directory?"], repo.path).stdout)
    assert found["rows"][0]["path"] == "Makefile"


def test_a_tools_own_configuration_is_a_ci_file_and_asked_by_the_tool(make_repo, route) -> None:
    """logrus: "Which config file sets up the Go linter …, with the 100-character line length limit?" answered no_match
    (a plain-words question, and .golangci.yml was no file of the wiring); CLI11's warning flags are set in a CMake
    module. A file that configures a linter, a formatter or the compiler is asked of the wiring by that."""
    from gitroute.indexes.wiring import config_kind

    for path in (".golangci.yml", "sub/.eslintrc.json", "phpstan.neon.dist", ".rubocop.yml", "mypy.ini", ".nycrc",
                 "phpcs.xml", "phpcs.xml.dist", ".jshintrc"):
        assert config_kind(path) == "ci", path
    assert config_kind("cmake/Warnings.cmake") == config_kind("yaml-0.1.pc.in") == "manifest"
    # automake's input (libconfig's lib/Makefile.am sets the library's libtool version info)
    assert config_kind("lib/Makefile.am") == config_kind("configure.in") == "manifest"
    assert config_kind("MANIFEST.in") == "manifest"  # what a Python sdist ships
    # LuaRocks' package spec; Maven's assembly descriptors (what goes into the release archives)
    assert config_kind("lua-cjson-2.1.0-1.rockspec") == config_kind("src/assembly/bin.xml") == "manifest"
    assert config_kind("src/main/resources/bin.xml") is None
    assert config_kind("tox.toml") == "ci"  # tox 4's TOML configuration, as tox.ini (pathspec)
    assert config_kind("src/golangci.go") is None
    repo = make_repo("linted")
    repo.commit({".golangci.yml": "linters-settings:\n  lll:\n    line-length: 100\nlinters:\n  presets:\n    - bugs\n",
                 "cmake/Warnings.cmake": ("# the compiler's warning flags\nset(WARNINGS -Wshadow -Wconversion)\n"
                                          "if(WARNINGS_AS_ERRORS)\n  list(APPEND WARNINGS -Werror)\nendif()\n"),
                 "CMakeLists.txt": "project(app)\ninclude(cmake/Warnings.cmake)\n",
                 "examples/makefile": "gen:\n\tgo build -tags cbor -o gen-cbor gen.go\n\tgo build -o gen-json gen.go\n",
                 "phpcs.xml": ('<?xml version="1.0"?>\n<ruleset name="app">\n  <rule ref="PSR2"/>\n'
                               '  <file>src</file>\n  <file>tests</file>\n</ruleset>\n'),
                 "main.go": "package main\n\n// main prints lines.\nfunc main() {}\n"}, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    lint = json.loads(route(["ask", "--json", "Which config file sets up the Go linter with the line length limit?"],
                            repo.path).stdout)
    assert lint["rows"][0]["path"] == ".golangci.yml"
    flags = json.loads(route(["ask", "--json", "Which build file sets the compiler warning flags such as -Wshadow?"],
                             repo.path).stdout)
    assert flags["rows"][0]["path"] == "cmake/Warnings.cmake"
    # Slim: "Which config file sets up the code sniffer to enforce PSR-2 …?": PHP_CodeSniffer's phpcs.xml
    sniffer = json.loads(route(["ask", "--json", "Which config file sets up the code sniffer to enforce PSR-2 across "
                                                 "both the library and the tests folders?"], repo.path).stdout)
    assert sniffer["rows"][0]["path"] == "phpcs.xml"
    # zerolog: "Which build file compiles the example log generator twice, … with the binary encoding build tag"
    twice = json.loads(route(["ask", "--json", "Which build file compiles the example generator twice, once with "
                                               "the cbor build tag?"], repo.path).stdout)
    assert twice["rows"][0]["path"] == "examples/makefile"


def test_a_ci_or_manifest_file_past_the_ceiling_is_not_read_for_its_words(make_repo, route) -> None:
    from gitroute.indexes.wiring import MAX_WORKFLOW_BYTES

    repo = make_repo("large-manifest")
    huge = '{"name": "huge", "description": "' + "zebra " * (MAX_WORKFLOW_BYTES // 6 + 10) + '"}\n'
    repo.commit({"package.json": huge, "appveyor.yml": "image: Visual Studio 2017\n", "a.js": "module.exports = 1\n"},
                "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    zebra = json.loads(route(["wiring", "--json", "which manifest mentions zebra"], repo.path).stdout)
    assert all(row["path"] != "package.json" or row.get("table") != "configs" for row in zebra["rows"])
    studio = json.loads(route(["wiring", "--json", "which CI config uses Visual Studio"], repo.path).stdout)
    assert studio["rows"][0]["path"] == "appveyor.yml"


def test_a_name_qualified_with_double_colons_or_backslashes_is_found(make_repo, route) -> None:
    """`Rack::Lint`, `app::Store`, `App\\Mail\\Mailer` and `Json.Linq.JToken.Parse` name what `Rack.Lint`, `Store`,
    `Mailer` and `JToken.Parse` name: Ruby owners, a C++, a PHP and a C# namespace, as their languages write them;
    `Rack::Lint#check`, a method as Ruby's and Java's docs write it."""
    repo = make_repo("qualified")
    repo.commit({
        "lib/rack/lint.rb": "module Rack\n  class Lint\n    def check\n    end\n  end\nend\n",
        "lib/rack/app.rb": "module Rack\n  class App\n    def run\n      Lint.new.check\n    end\n  end\nend\n",
        "src/store.hpp": "namespace app {\nclass Store {\n public:\n  int size();\n};\n}\n",
        "src/use.cpp": '#include "store.hpp"\nint count(app::Store &s) { return s.size(); }\n',
        "src/Mail/Mailer.php": "<?php\nnamespace App\\Mail;\n\nclass Mailer\n{\n    public function send() {}\n}\n",
        "src/Notify.php": "<?php\nnamespace App;\n\nuse App\\Mail\\Mailer;\n\nclass Notify\n{\n"
                          "    public function ping(Mailer $m) { $m->send(); }\n}\n",
        "src/Json/JToken.cs": "namespace Json.Linq\n{\n    public class JToken\n    {\n"
                              "        public static JToken Parse(string s) { return null; }\n    }\n}\n",
    })
    assert route(["build", "-q"], repo.path).exit_code == 0
    for dotted, qualified in (("Rack.Lint", "Rack::Lint"), ("Store", "app::Store"),
                              ("Mailer", "App\\Mail\\Mailer"), ("JToken.Parse", "Json.Linq.JToken.Parse"),
                              ("Rack.Lint.check", "Rack::Lint#check"), ("Mailer.send", "App\\Mail\\Mailer#send")):
        expected = impact(route, repo, dotted)
        assert expected["status"] == "routed", dotted
        assert impact(route, repo, qualified)["rows"] == expected["rows"], qualified
    assert "lib/rack/app.rb" in paths(impact(route, repo, "Rack::Lint"))
    assert impact(route, repo, "lib/rack/lint.rb:Rack::Lint")["rows"] == impact(route, repo, "Rack::Lint")["rows"]
    assert any("impact of method 'Parse' (src/Json/JToken.cs)" in note
               for note in impact(route, repo, "Json.Linq.JToken.Parse")["notes"])
    assert impact(route, repo, "Rack::Nothing")["status"] == "no_match"


def _hub_project() -> dict[str, str]:
    """A function called from many files, in code, tests and examples, some through a caller of it (depth 2), with
    many files of equal score (one call each): what `rank_kept_rows` reads a score at a time."""
    files = {"lib/hub.py": "def hub(x):\n    return x\n\n\ndef other():\n    return 1\n"}
    for i in range(14):
        calls = "\n".join(f"    hub({j})" for j in range(1 + i % 3))
        files[f"lib/use_{i:02d}.py"] = f"from lib.hub import hub\n\n\ndef use_{i}():\n{calls}\n"
        files[f"app/top_{i:02d}.py"] = f"from lib.use_{i:02d} import use_{i}\n\n\ndef top_{i}():\n    use_{i}()\n"
    for i in range(4):
        files[f"tests/test_hub_{i}.py"] = "from lib.hub import hub\n\n\ndef test_hub():\n    assert hub(1)\n"
        files[f"examples/ex_{i}.py"] = f"from lib.use_{i:02d} import use_{i}\n\n\ndef run():\n    use_{i}()\n"
    return files


def test_an_answer_bounded_by_the_rows_kept_is_the_whole_answer_cut(make_repo, route) -> None:
    """`rows` with the files' first ids (what `ask` passes): the walk counts by file id and reads the records of the
    files its first rows need, and gives the whole answer's first rows and its very notes."""
    from gitroute.bundle.store import BundleView
    from gitroute.indexes import impact as impact_index
    from gitroute.query import _whole_file_starts

    repo = make_repo("hub")
    repo.commit(_hub_project())
    assert route(["build", "-q"], repo.path).exit_code == 0
    view = BundleView(str(repo.path))
    starts = _whole_file_starts(view)
    assert starts, "the meaning index holds every file's first id here"
    index = view.index("impact")
    for target in ("hub", "lib/hub.py", "use_3", "lib/hub.py:other"):
        for limit in (1, 2, 3, 10):
            whole = impact_index.answer(index, target, limit=limit, explain=True)
            for rows in (1, 3, 5, 12, 40):
                cut = impact_index.answer(index, target, limit=limit, explain=True, rows=rows,
                                          file_starts=lambda: starts)
                assert cut.rows == whole.rows[:rows], (target, limit, rows)
                assert cut.notes == whole.notes and cut.extra == whole.extra
    assert len(impact_index.answer(index, "hub", limit=10).rows) > 12  # the cut left rows out


def test_ask_answers_alike_whether_the_impact_walk_is_bounded_or_not(make_repo, route, monkeypatch) -> None:
    from gitroute import query

    repo = make_repo("hub")
    repo.commit(_hub_project())
    assert route(["build", "-q"], repo.path).exit_code == 0
    asked = {}
    for bounded in (True, False):
        if not bounded:
            monkeypatch.setattr(query, "_whole_file_starts", lambda view: None)
        asked[bounded] = [route(["ask", "--json", *explain, question], repo.path).stdout
                          for question in ("hub", "use_3", "what breaks if I change hub") for explain in ((), ("--explain",))]
    assert asked[True] == asked[False]
    assert '"impact' in asked[True][0]


_GROUPS = st.sets(st.sampled_from([b".py", b".pyi", b".p", b".json", b".po", b"PKG-INFO", b".gitignore", b"Makefile",
                                   b".c", b".h", b".", b".x+y"]), max_size=8)
_TEXT = st.lists(st.sampled_from([b"a", b".", b"py", b"pyi", b"i", b"json", b"PKG-INFO", b"gitignore", b" ", b"\n",
                                  b"c", b"h", b"x+y", b"Makefile", b"po", b"\xff"]), max_size=40).map(b"".join)


@settings(max_examples=300)
@given(_GROUPS, _TEXT)
def test_contract_name_groups_found_in_one_search_are_those_each_found_alone(groups, text) -> None:
    # Readers of a contract are looked for where its name's group (an extension, or a whole name) occurs; one regular
    # expression finds every extension: the same groups as a substring test of each.
    from gitroute.indexes.impact import _GroupSearch

    assert _GroupSearch(groups).present(text) == {group for group in groups if group in text}


VALUES = {
    "go.mod": "module example.com/shop\n\ngo 1.21\n",
    "shop/mode.go": 'package shop\n\nconst DebugMode = "debug"\n\nvar mode = DebugMode\n\n'
                    'func SetMode(m string) {\n\tif m == DebugMode {\n\t\tmode = m\n\t}\n}\n',
    "shop/debug.go": 'package shop\n\nfunc IsDebugging() bool {\n\treturn mode == DebugMode\n}\n\n'
                     'func DebugModeName() string {\n\treturn "DebugModeX"\n}\n',
    "shop/mode_test.go": 'package shop\n\nimport "testing"\n\nfunc TestSetMode(t *testing.T) {\n'
                         '\tSetMode(DebugMode)\n}\n',
    "other/other.go": 'package other\n\nconst DebugMode = 1\n',
    "src/limits.h": "#ifndef LIMITS_H\n#define LIMITS_H\n#define MAX_DEPTH_LIMIT 32\n#endif\n",
    "src/walk.c": '#include "limits.h"\n\nint walk(int depth) {\n    return depth < MAX_DEPTH_LIMIT;\n}\n',
    "src/other.c": "int other(void) {\n    return 1;\n}\n",
    "app/settings.py": "RETRIES = 3\n\n\ndef backoff(n):\n    return min(n, RETRIES) * 2\n",
    "app/limits.py": "TIMEOUT = 5\n",
    "app/client.py": "from app import limits\n\n\ndef fetch():\n    return limits.TIMEOUT\n",
    "app/noise.py": "from app import limits\n\nTIMEOUT = 9  # its own, not limits'\n\n\ndef wait():\n    return TIMEOUT\n",
}


def test_a_constant_no_edge_reaches_is_answered_by_the_files_that_write_its_name(make_repo, route) -> None:
    """The graph has no edge for reading a value: a Go package's constant, a header's macro, a module's constant
    used in its own functions were "0 edges". Their users are the files that can see them (the package's folder,
    the header's includers, the module itself), read from the pinned commit: a whole-word match, marked `text`."""
    repo = make_repo("values")
    repo.commit(dict(VALUES))
    assert route(["build", "-q"], repo.path).exit_code == 0
    go = impact(route, repo, "shop/mode.go:DebugMode")
    assert paths(go) == ["shop/debug.go", "shop/mode_test.go"]  # not its own file, not `DebugModeName`'s string
    assert go["rows"][0]["resolution"] == ["text"] and "IsDebugging" in go["rows"][0]["names"]
    assert go["rows"][1]["section"] == "tests" and go["rows"][1]["names"] == ["TestSetMode"]
    assert any("no edge reaches 'DebugMode'" in note for note in go["notes"])
    c = impact(route, repo, "MAX_DEPTH_LIMIT")
    assert paths(c) == ["src/walk.c"] and c["rows"][0]["names"] == ["walk"]
    own = impact(route, repo, "RETRIES")
    assert paths(own) == ["app/settings.py"] and own["rows"][0]["names"] == ["backoff"]  # only its own module uses it
    assert paths(impact(route, repo, "other/other.go:DebugMode")) == []  # another package's constant of that name
    # from another module of a language that imports by module: what it writes as `limits.TIMEOUT`, not its own
    qualified = impact(route, repo, "app/limits.py:TIMEOUT")
    assert paths(qualified) == ["app/client.py"] and qualified["rows"][0]["names"] == ["fetch"]


def test_a_class_no_edge_reaches_is_answered_by_the_files_that_write_its_name(make_repo, route) -> None:
    """schedule: a job returns `schedule.CancelJob` to cancel itself, and the scheduler tests `ret is CancelJob`: a
    class returned, raised or compared is read as a value, no call or type edge. "Which other files use CancelJob?"
    was "0 edges into 0 files"; the files that write its name answer, as for a constant."""
    repo = make_repo("marker")
    repo.commit({"jobs/__init__.py": "class CancelJob:\n    pass\n\n\ndef run(job):\n    ret = job()\n"
                                     "    return ret is CancelJob\n",
                 "tests/test_jobs.py": "import jobs\n\n\ndef test_cancel():\n    def stop():\n"
                                       "        return jobs.CancelJob\n    assert jobs.run(stop)\n"})
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = impact(route, repo, "CancelJob")
    assert paths(doc) == ["tests/test_jobs.py"] and doc["rows"][0]["resolution"] == ["text"]
    assert any("no edge reaches 'CancelJob'" in note for note in doc["notes"])


def test_the_files_read_for_a_value_are_bounded(tmp_path) -> None:
    from gitroute.indexes.impact import value_uses

    folder = [f"pkg/f{n:04d}.go" for n in range(value_uses.MAX_FILES + 50)]
    files, every = value_uses.files_that_see("pkg/f0007.go", ["cmd/main.go"], lambda _folder: folder + ["pkg/x.c"])
    assert len(files) == value_uses.MAX_FILES and files[0] == "pkg/f0007.go" and every == len(folder) + 1
    big = b"X = 1\n" + b"y = X\n" * (value_uses.MAX_BYTES // 6)
    reached, read = value_uses.text_uses("X", "a.h", 1, ["a.h", "b.c"], {"a.h": big, "b.c": b"z = X;\n"}.get,
                                         lambda _path: [])
    assert read == 1 and list(reached) == ["b.c"]  # past the answer's budget, a file is not read


@given(st.lists(st.sampled_from(["X", "XY", "aX", "X_", "$X", "X.y", "y.X", " ", "\n", "(", ")"]), max_size=30))
@settings(max_examples=200, deadline=None)
def test_a_values_name_is_found_as_a_whole_word(parts) -> None:
    import re

    from gitroute.indexes.impact.value_uses import named_lines

    text = "".join(parts)
    expected = sorted({text.count("\n", 0, m.start()) + 1
                       for m in re.finditer(r"(?<![A-Za-z0-9_$])X(?![A-Za-z0-9_$])", text)})
    assert named_lines("X", text.encode()) == expected


@pytest.mark.parametrize(("files", "target"), [
    ({"app/stream.py": "class Wrapper:\n    def __init__(self, stream, strip=None):\n        self.stream = stream\n",
      "app/setup.py": "from app.stream import Wrapper\n\n\ndef wrap(s):\n    return Wrapper(s, strip=True)\n"},
     "Wrapper.__init__"),
    ({"src/stream.js": "class Wrapper {\n  constructor(stream) { this.stream = stream }\n}\nmodule.exports = { Wrapper }\n",
      "src/setup.js": "const { Wrapper } = require('./stream')\nfunction wrap(s) { return new Wrapper(s) }\n"},
     "Wrapper.constructor"),
])
def test_a_constructors_users_are_its_types(make_repo, route, files, target) -> None:
    # colorama: "if I change the signature of AnsiToWin32.__init__" found no edge into `__init__`: callers call the type
    repo = make_repo("constructor")
    repo.commit(files)
    assert route(["build", "-q"], repo.path).exit_code == 0
    caller = next(path for path in files if "setup" in path)
    assert paths(impact(route, repo, target), "code") == [caller]


def test_a_constructor_of_a_constructor_is_no_recursion(make_repo, route) -> None:
    # a target that names `__init__` thousands of times over was read as a constructor's type, again and again, until
    # Python's recursion limit, which the command then called a damaged bundle; and each of its thousands of
    # qualifiers was looked up in turn: its last few parts are the name
    repo = make_repo("constructors")
    repo.commit({"app/stream.py": "class Wrapper:\n    def __init__(self, stream):\n        self.stream = stream\n"})
    assert route(["build", "-q"], repo.path).exit_code == 0
    result = route(["impact", "--json", "Wrapper" + ".__init__" * 3000], repo.path)
    assert result.exit_code == 0, result.stderr
    assert [row["path"] for row in json.loads(result.stdout)["rows"]] == []  # nothing calls it
