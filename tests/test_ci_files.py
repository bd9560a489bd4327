"""The YAML files other tools run: .pre-commit-hooks.yaml and the GitHub workflows parse and call real commands."""
from __future__ import annotations

import shlex
from pathlib import Path

import click
import pytest
import yaml

from gitroute.cli.app import COMMANDS, cli
from tests.test_docs import ci_test_command

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"
PRE_COMMIT_STAGES = {"pre-commit", "pre-merge-commit", "pre-push", "prepare-commit-msg", "commit-msg",
                     "post-checkout", "post-commit", "post-merge", "post-rewrite", "pre-rebase", "manual"}


def load(path: Path):
    with open(path, encoding="utf-8") as f:
        return yaml.safe_load(f)


def route_commands(text: str) -> list[list[str]]:
    """Every `git route ...` / `git-route ...` command line in a shell snippet, as argument lists."""
    found = []
    for part in text.replace("&&", "\n").replace("||", "\n").replace("'", " ").splitlines():
        words = shlex.split(part)
        for i, word in enumerate(words):
            if word == "git-route":
                found.append(words[i + 1:])
            elif word == "git" and words[i + 1:i + 2] == ["route"]:
                found.append(words[i + 2:])
    return found


def assert_command_parses(args: list[str]) -> None:
    """The command exists and click accepts its options (parsing only: nothing runs)."""
    name, rest = args[0], args[1:]
    assert name in COMMANDS, f"no command '{name}'"
    command = cli.get_command(click.Context(cli, info_name="git route"), name)
    assert command is not None
    command.make_context(name, list(rest), resilient_parsing=False)


def test_pre_commit_hooks_are_valid_and_call_real_commands():
    hooks = load(ROOT / ".pre-commit-hooks.yaml")
    assert isinstance(hooks, list) and hooks
    ids = [hook["id"] for hook in hooks]
    assert len(ids) == len(set(ids))
    assert {"gitroute-doc-code-check", "gitroute-decisions-check", "gitroute-build", "gitroute-pointer-sync"} <= set(ids)
    for hook in hooks:
        assert {"id", "name", "entry", "language"} <= hook.keys()
        assert set(hook.get("stages", [])) <= PRE_COMMIT_STAGES
        assert hook["pass_filenames"] is False  # gitroute reads commits, not the staged files
        commands = route_commands(hook["entry"])
        assert commands, hook["entry"]
        for args in commands:
            assert_command_parses(args)
    by_id = {hook["id"]: hook for hook in hooks}
    assert ["doc-code", "--check", "-q"] in route_commands(by_id["gitroute-doc-code-check"]["entry"])
    assert "post-merge" in by_id["gitroute-build"]["stages"]


def workflow_steps(doc) -> list[dict]:
    return [step for job in doc["jobs"].values() for step in job["steps"]]


def triggers(doc) -> dict:
    # YAML 1.1 reads a bare `on` key as true; GitHub reads it as the key "on".
    return doc.get("on", doc.get(True))


def test_ci_runs_the_readme_test_command_on_python_3_11():
    doc = load(WORKFLOWS / "ci.yml")
    assert {"push", "pull_request"} <= set(triggers(doc))
    steps = workflow_steps(doc)
    assert any(step.get("with", {}).get("python-version") == "3.11" for step in steps)
    runs = [step["run"].strip() for step in steps if "run" in step]
    assert ci_test_command() in runs
    assert ci_test_command() in (ROOT / "README.md").read_text()


def test_reusable_workflow_builds_pushes_and_checks_doc_code():
    doc = load(WORKFLOWS / "routing-bundle.yml")
    on = triggers(doc)
    assert list(on) == ["workflow_call"]
    assert {"gitroute", "push", "check-doc-code"} <= set(on["workflow_call"]["inputs"])
    runs = [step["run"] for step in workflow_steps(doc) if "run" in step]
    commands = [args for run in runs for args in route_commands(run)]
    assert ["build"] in commands
    assert ["doc-code", "--check"] in commands
    for args in commands:
        assert_command_parses(args)
    pushes = [run for run in runs if run.startswith("git push")]
    assert pushes == ["git push origin '+refs/marola/*:refs/marola/*'"]
    assert doc["permissions"]["contents"] == "write"


@pytest.mark.parametrize("path", sorted(WORKFLOWS.glob("*.yml")), ids=lambda p: p.name)
def test_every_workflow_step_uses_or_runs_something(path):
    doc = load(path)
    assert doc["name"] and doc["jobs"]
    for step in workflow_steps(doc):
        assert ("uses" in step) != ("run" in step), step


def test_reusable_workflow_rebuilds_the_large_bundle_when_asked_with_the_model_extra():
    import tomllib

    doc = load(WORKFLOWS / "routing-bundle.yml")
    assert triggers(doc)["workflow_call"]["inputs"]["meaning"]["default"] is False
    steps = [step for step in workflow_steps(doc) if step.get("if") == "inputs.meaning"]
    assert len(steps) == 1
    commands = list(route_commands(steps[0]["run"]))
    assert [args[:2] for args in commands] == [["model", "export"], ["build", "--meaning-model"]]
    for args in commands:
        assert_command_parses(args)
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["model"]
    install = next(line for line in steps[0]["run"].splitlines() if "pip install" in line)
    assert sorted(part.strip('"') for part in install.split()[4:]) == sorted(extra)
