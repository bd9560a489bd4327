"""The YAML files other tools run: .pre-commit-hooks.yaml and the GitHub workflows parse and call real commands."""
from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
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
    assert {"gitroute-repository", "gitroute-commit", "push", "check-doc-code"} <= set(on["workflow_call"]["inputs"])
    runs = [step["run"] for step in workflow_steps(doc) if "run" in step]
    commands = [args for run in runs for args in route_commands(run)]
    assert ["build"] in commands
    assert ["doc-code", "--check"] in commands
    assert ["push", "origin"] in commands  # pushed by gitroute, which checks what it sends
    for args in commands:
        assert_command_parses(args)
    assert not any(re.search(r"\bgit (push|fetch)\b", run) for run in runs)  # no raw push, no unused fetch


def test_reusable_workflow_installs_gitroute_from_a_pinned_commit_only():
    """gitroute is on no registry: `pip install gitroute` would install whoever registers the name. The caller
    names gitroute's repository and full commit id, with no default, and the install refuses anything else."""
    doc = load(WORKFLOWS / "routing-bundle.yml")
    inputs = triggers(doc)["workflow_call"]["inputs"]
    for name in ("gitroute-repository", "gitroute-commit"):
        assert inputs[name]["required"] is True and "default" not in inputs[name]
    assert "gitroute" not in inputs
    installs = [step for step in workflow_steps(doc) if "pip install" in step.get("run", "")
                and not step.get("if") == "inputs.meaning"]  # the model extra's runtime: its own test pins it
    assert len(installs) == len(doc["jobs"])  # each job installs its own, the same way
    for step in installs:
        assert step["env"] == {"REPOSITORY": "${{ inputs.gitroute-repository }}",
                               "COMMIT": "${{ inputs.gitroute-commit }}"}
        script = step["run"]
        assert "${{" not in script  # inputs reach the shell as variables, never spliced into it
        assert '"gitroute @ git+https://github.com/$REPOSITORY@$COMMIT"' in script
        assert "^[0-9a-f]{40}$" in script
        for commit, ok in (("a" * 40, True), ("v1", False), ("main", False), ("a" * 39, False), ("A" * 40, False)):
            check = script.splitlines()[0]
            result = subprocess.run(["bash", "-c", check], env={"COMMIT": commit, "PATH": os.environ["PATH"]},
                                    capture_output=True, text=True)
            assert (result.returncode == 0) == ok, (commit, result.stdout)


def test_each_job_of_the_reusable_workflow_has_the_least_permissions_it_needs():
    doc = load(WORKFLOWS / "routing-bundle.yml")
    assert doc["permissions"] == {}  # nothing unless a job asks
    jobs = doc["jobs"]
    assert jobs["build"]["permissions"] == {"contents": "read"}
    assert jobs["push"]["permissions"] == {"contents": "write"}
    assert jobs["push"]["needs"] == "build"
    checkout = next(step for step in jobs["build"]["steps"] if step.get("uses", "").startswith("actions/checkout@"))
    assert checkout["with"]["persist-credentials"] is False  # the build runs the repository's content: no token
    push_runs = [step["run"] for step in jobs["push"]["steps"] if "run" in step]
    assert not any(args[:1] == ["build"] for run in push_runs for args in route_commands(run))  # write job builds nothing


@pytest.mark.parametrize("path", sorted(WORKFLOWS.glob("*.yml")), ids=lambda p: p.name)
def test_every_action_is_pinned_to_a_full_commit(path):
    for step in workflow_steps(load(path)):
        if "uses" in step:
            assert re.fullmatch(r"[\w.-]+/[\w.-]+@[0-9a-f]{40}", step["uses"]), step["uses"]


@pytest.mark.parametrize("schema", ["vendor.github-workflows", "custom.github-workflows-require-timeout"])
def test_workflows_validate_against_github_s_schema(schema):
    """check-jsonschema ships GitHub's workflow schema (SchemaStore's) inside its wheel: no network."""
    files = [str(path) for path in sorted(WORKFLOWS.glob("*.yml"))]
    result = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema, *files],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_schema_check_finds_a_broken_workflow(tmp_path):
    """The check is real: a permission GitHub does not know is refused."""
    broken = tmp_path / "broken.yml"
    broken.write_text((WORKFLOWS / "routing-bundle.yml").read_text().replace("contents: read", "contents: reed"))
    result = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
                             str(broken)], capture_output=True, text=True)
    assert result.returncode == 1 and "reed" in result.stdout


@pytest.mark.parametrize("path", sorted(WORKFLOWS.glob("*.yml")), ids=lambda p: p.name)
def test_every_workflow_step_uses_or_runs_something(path):
    doc = load(path)
    assert doc["name"] and doc["jobs"]
    for step in workflow_steps(doc):
        assert ("uses" in step) != ("run" in step), step


@pytest.mark.parametrize("origin, command", [
    ({"url": "https://github.com/o/gitroute", "vcs_info": {"vcs": "git", "commit_id": "a" * 40}},
     f"pip install 'gitroute[mcp] @ git+https://github.com/o/gitroute@{'a' * 40}'"),
    ({"url": "file:///home/me/gitroute", "dir_info": {}}, "pip install '/home/me/gitroute[mcp]'"),
    ({"url": "file:///home/me/git%20route", "dir_info": {"editable": True}}, "pip install -e '/home/me/git route[mcp]'"),
    ({}, "pip install '/path/to/gitroute-checkout[mcp]'"),
    ({"url": "https://example.invalid/gitroute-0.1.0.tar.gz", "archive_info": {}},
     "pip install '/path/to/gitroute-checkout[mcp]'"),
])
def test_an_extra_is_installed_from_gitroute_s_own_source_never_by_name(origin, command):
    from gitroute import install_command

    assert install_command(origin, "mcp") == command


def test_no_install_line_installs_gitroute_by_name():
    """gitroute is on no registry: a line that installs it by name installs whoever registers the name."""
    by_name = re.compile(r"pip install[^\n`]*?(?<![/.\w@-])'?gitroute(\[[\w,]+\])?'?(?=[\s`]|$)(?!\s*@)")
    for line, installs_by_name in (("pip install gitroute", True), ("pip install 'gitroute[mcp]'", True),
                                   ("`pip install -U gitroute`", True), ("pip install '.[mcp]'", False),
                                   ("pip install '/path/to/gitroute[mcp]'", False),
                                   ("pip install 'gitroute[mcp] @ git+https://x/gitroute@abc'", False)):
        assert bool(by_name.search(line)) == installs_by_name, line
    for path in [ROOT / "README.md", *ROOT.glob(".github/workflows/*.yml"), *ROOT.glob("gitroute/**/*.py")]:
        text = path.read_text(encoding="utf-8")
        assert not by_name.search(text), (path, by_name.search(text))


def test_reusable_workflow_rebuilds_the_large_bundle_when_asked_with_the_model_extra():
    import tomllib

    doc = load(WORKFLOWS / "routing-bundle.yml")
    assert triggers(doc)["workflow_call"]["inputs"]["meaning"]["default"] is False
    steps = [step for step in workflow_steps(doc) if step.get("if") == "inputs.meaning" and "model export" in step["run"]]
    assert len(steps) == 1
    commands = list(route_commands(steps[0]["run"]))
    assert [args[:2] for args in commands] == [["model", "export"], ["build", "--meaning-model"]]
    for args in commands:
        assert_command_parses(args)
    extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["model"]
    install = next(line for line in steps[0]["run"].splitlines() if "pip install" in line)
    assert sorted(part.strip('"') for part in install.split()[4:]) == sorted(extra)
