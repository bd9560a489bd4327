"""The import contracts of pyproject.toml ([tool.importlinter]): layers, independent indexes, one pygit2 and one tree-sitter importer."""
from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import grimp
import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "gitroute"

# grimp (import-linter's graph) sees only regular packages: without this file every module in
# gitroute/indexes is invisible, and the contracts that name gitroute.indexes cannot be checked.
INDEXES_INIT = PACKAGE / "indexes" / "__init__.py"
until_indexes_is_a_regular_package = pytest.mark.xfail(
    not INDEXES_INIT.exists(), strict=True,
    reason="gitroute/indexes/__init__.py is missing, so import-linter cannot see gitroute.indexes")


def configured_contracts() -> list[dict]:
    with open(ROOT / "pyproject.toml", "rb") as f:
        return tomllib.load(f)["tool"]["importlinter"]["contracts"]


def module_files() -> set[str]:
    """Every module of the package, named from its file."""
    names = set()
    for path in PACKAGE.rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        names.add(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


@until_indexes_is_a_regular_package
def test_import_linter_sees_every_module_of_the_package():
    graph = grimp.build_graph("gitroute", cache_dir=None)
    assert module_files() - set(graph.modules) == set()


@until_indexes_is_a_regular_package
def test_imports_keep_every_contract():
    result = subprocess.run(
        [sys.executable, "-c", "from importlinter.cli import lint_imports_command; lint_imports_command()",
         "--no-cache", "--no-logo"],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )
    report = result.stdout + result.stderr
    assert result.returncode == 0, report
    assert f"Contracts: {len(configured_contracts())} kept, 0 broken." in report, report


def test_every_package_named_by_a_contract_exists():
    """A layer or forbidden source that names a renamed or deleted module would check nothing."""
    files = module_files()
    named: set[str] = set()
    for contract in configured_contracts():
        for layer in contract.get("layers", []):
            named.update(name.strip() for name in layer.split("|"))
        named.update(contract.get("source_modules", []))
        named.update(m.removesuffix(".*") for m in contract.get("modules", []))
    assert {name for name in named if name not in files and not (PACKAGE.parent / name.replace(".", "/")).is_dir()} == set()


@pytest.mark.parametrize("allowed_importer, forbidden", [("gitroute.git", "pygit2"), ("gitroute.parsing", "tree_sitter")])
def test_every_top_level_module_but_the_allowed_importer_is_a_forbidden_source(allowed_importer, forbidden):
    """A new module or package (say gitroute/hooks.py) must join the forbidden contracts' sources."""
    (contract,) = [c for c in configured_contracts() if c["type"] == "forbidden" and forbidden in c["forbidden_modules"]
                   and c.get("allow_indirect_imports")]
    top_level = {".".join(name.split(".")[:2]) for name in module_files()} - {"gitroute"}
    assert set(contract["source_modules"]) == top_level - {allowed_importer}
