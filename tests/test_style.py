"""The code passes the project's ruff configuration (pyproject.toml), so style stays a check, not a review."""
from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_finds_nothing():
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent)) or shutil.which("ruff")
    assert ruff is not None, "ruff is a test dependency: pip install -e '.[test]'"
    result = subprocess.run([ruff, "check", "--no-cache", "gitroute", "tests", "bench", "tools"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


MAX_FUNCTION_LINES = 80  # STYLE.md: a function past ~80 lines is doing a second thing
MAX_INDEX_MODULE_LINES = 800  # a module under gitroute/indexes/ past this holds a second room


def test_no_function_in_gitroute_is_longer_than_80_lines():
    import ast

    long = []
    for path in sorted((ROOT / "gitroute").rglob("*.py")):
        where = path.relative_to(ROOT).as_posix()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{where}:{node.lineno} {node.name} ({lines} lines)")
    assert long == []


def test_no_module_under_indexes_is_longer_than_800_lines():
    long = [f"{p.relative_to(ROOT).as_posix()} ({n} lines)"
            for p in sorted((ROOT / "gitroute" / "indexes").rglob("*.py"))
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_INDEX_MODULE_LINES]
    assert long == []


def test_api_is_a_thin_facade():
    assert len((ROOT / "gitroute" / "api.py").read_text(encoding="utf-8").splitlines()) <= 300
