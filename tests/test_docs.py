"""Documentation: every command and option has help, the man page is current, README names CI's test command."""
from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from gitroute.cli.app import COMMANDS, cli
from tests.conftest import load_script

ROOT = Path(__file__).resolve().parent.parent


def load_manpage_tool():
    return load_script("tools/manpage.py")


def forget_cached_help_options() -> None:
    """Make every command build its help option afresh, from the `git route` group's settings.

    click (8.1.8+) caches a command's help option the first time it builds one. A test that invokes
    a command outside the group (tests/test_bench.py's CliRunner on the bench command) caches
    `--help` alone, and `git route bench -h` then fails for the rest of the process.
    """
    ctx = click.Context(cli, info_name="git route")
    for command in [cli, *(cli.get_command(ctx, name) for name in COMMANDS)]:
        if command is not None and hasattr(command, "_help_option"):
            command._help_option = None


@pytest.fixture(autouse=True)
def fresh_help_options():
    forget_cached_help_options()


def get_command(name: str) -> click.Command:
    command = cli.get_command(click.Context(cli, info_name="git route"), name)
    assert command is not None, f"COMMANDS names {name!r} but it does not load"
    return command


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_has_help(name):
    assert (get_command(name).help or "").strip()


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_every_command_answers_dash_h(route, tmp_path, name):
    result = route([name, "-h"], tmp_path)  # not a repository: help needs none
    assert result.exit_code == 0, result.stderr
    assert result.stdout.startswith(f"Usage: git route {name} ")
    assert result.stderr == ""


def test_git_route_dash_h_lists_every_command(route, tmp_path):
    result = route(["-h"], tmp_path)
    assert result.exit_code == 0, result.stderr
    listed = re.search(r"^Commands:\n((?:  .*\n?)+)", result.stdout, re.MULTILINE)
    assert listed is not None, result.stdout
    assert [line.split()[0] for line in listed.group(1).splitlines()] == sorted(COMMANDS)


@pytest.mark.parametrize("name", ["(group)", *sorted(COMMANDS)])
def test_every_option_has_help(name):
    command = cli if name == "(group)" else get_command(name)
    missing = [p.opts for p in command.params if isinstance(p, click.Option) and not (p.help or "").strip()]
    assert missing == []


def test_man_page_is_generated_from_the_current_help():
    manpage = load_manpage_tool()
    assert manpage.PAGE.read_text(encoding="utf-8") == manpage.render(), "run 'python tools/manpage.py'"


def test_man_page_does_not_depend_on_the_terminal_width(monkeypatch):
    manpage = load_manpage_tool()
    monkeypatch.setenv("COLUMNS", "40")
    narrow = manpage.render()
    monkeypatch.setenv("COLUMNS", "300")
    assert manpage.render() == narrow


def ci_test_command() -> str:
    """The line of .ci/run that runs pytest, whole (it may install first: `pip install ... && pytest`)."""
    commands = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()
                if re.search(r"\bpython3? -m pytest\b", line) and not line.lstrip().startswith("#")]
    assert len(commands) == 1, f".ci/run should run pytest once, found {commands}"
    return commands[0]


def test_readme_names_the_test_command_ci_runs():
    readme = ROOT / "README.md"
    if not readme.exists():
        pytest.skip("README.md does not exist yet")
    command = ci_test_command()
    assert command in readme.read_text(encoding="utf-8"), f"README.md should show CI's test command: {command}"


@pytest.mark.parametrize("name", ["build", "query"])
def test_quiet_says_it_hides_the_summary(name):
    quiet = next(p for p in get_command(name).params if p.name == "quiet")
    assert "summary" in (quiet.help or "")


def test_readme_example_runs_inside_its_corpus_and_defines_right_first():
    readme = (ROOT / "README.md").read_text()
    example = readme.split("## A worked example", 1)[1].split("```console", 1)[1]
    first, second = example.lstrip().splitlines()[:2]
    assert first == "$ python bench/corpora.py --dest /tmp/readme flask && cd /tmp/readme/flask"
    assert second == "$ git route build"
    assert "among the first three rows (the top 3)" in readme


def load_readme_example():
    return load_script("bench/readme_example.py")


# The flask archive, where bench/corpora.py keeps it (read before the test session points HOME elsewhere).
FLASK_ARCHIVE = Path("~/.cache/gitroute-bench").expanduser() / "flask-3.1.2.tar.gz"


def test_readme_example_is_stamped_with_the_bundle_ids_of_this_code():
    """Offline: the stamp names the sample repository's golden bundle id and EXTRACTOR_VERSION as they were when
    the example was made. A change that moves bundle ids moves the golden one too, and then this fails until
    `python bench/readme_example.py --write` makes the example again (its bundle id with it)."""
    example = load_readme_example()
    stamps = example.STAMP.findall((ROOT / "README.md").read_text())
    assert len(stamps) == 1
    assert example.current_stamp() in (ROOT / "README.md").read_text(), "run 'python bench/readme_example.py --write'"


def test_readme_example_states_what_the_code_prints():
    """Offline: each command parses as the CLI takes it; the build's lines have the build summary's shape; every
    answer comes from the commit the build names."""
    from tests.test_ci_files import assert_command_parses, route_commands

    example = load_readme_example()
    readme = (ROOT / "README.md").read_text()
    start, end = example.example_block(readme)
    pairs = example.commands(readme[start:end])
    assert example.render(pairs) == readme[start:end]  # the block is exactly commands and their output
    for command, _ in pairs[1:]:
        for args in route_commands(command.split(";")[0]):
            assert_command_parses(args)
    build = dict(pairs)["git route build"].splitlines()
    built = re.fullmatch(r"built refs/marola/routing-bundle at ([0-9a-f]{7}) for ([0-9a-f]{7}) in \d+\.\d\d s", build[0])
    assert built, build[0]
    assert re.fullmatch(r"files: \d+ read, \d+ parsed, 0 reused; skipped: \d+ binary", build[1])
    build_source = (ROOT / "gitroute" / "cli" / "building.py").read_text()
    suffix = re.search(r'" \((calls resolved by [^)]*)\)"', build_source)
    assert suffix and build[3].endswith(f" ({suffix.group(1)})"), build[3]
    sources = {line.split()[2] for _, output in pairs for line in output.splitlines() if line.startswith("answers from")}
    assert sources == {f"main@{built.group(2)}"}


@pytest.mark.skipif(not FLASK_ARCHIVE.is_file(), reason="the flask archive is not in bench/corpora.py's cache")
def test_readme_example_is_what_the_commands_print_now():
    """Where the flask archive is at hand: the whole example, run again, is what README shows (seconds aside)."""
    difference = load_readme_example().check(FLASK_ARCHIVE.parent)
    assert difference == [], "\n".join(difference) + "\nrun 'python bench/readme_example.py --write'"
