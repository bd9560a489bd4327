"""Helpers several test modules share: building a bundle through the command line and reading its tree."""
from __future__ import annotations

import json
from pathlib import Path


def build_json(route, repo, *args: str, quiet: bool = False) -> dict:
    """`git route build --json ARGS` in `repo`, which must succeed (with `quiet`, saying nothing on stderr); its report."""
    result = route(["build", "--json", *args], repo.path)
    assert result.exit_code == 0, result.stderr
    if quiet:
        assert result.stderr == ""
    return json.loads(result.stdout)


def build_with_model(route, repo, model: Path, *extra: str):
    """`git route build -q --meaning-model MODEL EXTRA` in `repo`, which must succeed."""
    result = route(["build", "-q", "--meaning-model", str(model), *extra], repo.path)
    assert result.exit_code == 0, result.stderr
    return result


def tree_of(repo, ref: str) -> str:
    """The tree id of `ref` in `repo`."""
    return repo.git("rev-parse", f"{ref}^{{tree}}").strip()
