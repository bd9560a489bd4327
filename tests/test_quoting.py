"""Unusual paths in text output are quoted as git quotes them (core.quotePath); `--json` keeps them raw."""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gitroute.cli.output import quote_path
from tests.conftest import run_route

ODD_FILES = {
    "src/evil\nforged.py": "def evil_forged():\n    pass\n",
    "src/\x1b[31mred.py": "def red_alert():\n    pass\n",
    "src/caf\u00e9.py": "def cafe_latte():\n    pass\n",
    'src/quote"back\\slash.py': "def quote_back_slash():\n    pass\n",
    "src/tab\there.py": "def tab_here():\n    pass\n",
    "src/plain.py": "def plain_one():\n    pass\n",
    "src/broken\n.go": "package main\n\nfunc main() {\n  if {{{\n}\n",
}


@pytest.fixture
def odd_repo(make_repo):
    repo = make_repo()
    repo.commit(dict(ODD_FILES))
    result = run_route(["build", "-q"], repo.path)
    assert result.exit_code == 0, result.stderr
    return repo


def git_quoted(repo) -> set[str]:
    """Every path of HEAD as git itself prints it."""
    return set(repo.git("-c", "core.quotePath=true", "ls-tree", "-r", "--name-only", "HEAD").splitlines())


@pytest.mark.parametrize("question", ["evil forged", "red alert", "cafe latte", "quote back slash", "tab here"])
def test_query_rows_quote_paths_as_git_does_and_json_keeps_them_raw(odd_repo, question):
    raw = json.loads(run_route(["query", "--json", *question.split()], odd_repo.path).stdout)["rows"]
    text = run_route(["query", *question.split()], odd_repo.path)
    assert text.exit_code == 0, text.stderr

    lines = text.stdout.splitlines()[1:]  # below the `answers from` line
    assert len(lines) == len(raw)  # a newline in a path forges no row
    assert "\x1b" not in text.stdout
    quoted = git_quoted(odd_repo)
    for line, row in zip(lines, raw, strict=True):
        assert row["path"] in ODD_FILES  # raw in JSON
        where = f"{quote_path(row['path'])}:{row['line']}"
        assert line.startswith(where + " ")
        assert quote_path(row["path"]) in quoted  # the very spelling git prints


def test_plain_paths_are_not_quoted():
    assert quote_path("src/plain.py") == "src/plain.py"
    assert quote_path("a b/c-d_e.py") == "a b/c-d_e.py"


def test_status_quotes_the_paths_of_its_warnings(odd_repo):
    result = run_route(["status"], odd_repo.path)
    assert result.exit_code == 0, result.stderr
    assert '  "src/broken\\n.go": parse errors in 1 region' in result.stdout.splitlines()
    assert all(not line.startswith(".go") for line in result.stdout.splitlines())
    document = json.loads(run_route(["status", "--json"], odd_repo.path).stdout)
    assert ["src/broken\n.go"] == [path for path, _ in document["warnings"]["first"]]


@given(st.text(min_size=1, max_size=20))
def test_a_quoted_path_is_one_printable_ascii_line(path):
    quoted = quote_path(path)
    assert quoted.isascii() and quoted.isprintable()
    assert quoted == path or (quoted.startswith('"') and quoted.endswith('"'))


def test_every_command_quotes_the_paths_it_prints(make_repo):
    """why, docs, code and impact rows name files too: a path with a newline cannot forge a row there either."""
    repo = make_repo()
    repo.commit({
        "docs/adr/0001-use\nforged.md": "# Use the widget cache\n\n## Status\n\nAccepted\n\n## Decision\n\n"
                                         "We cache widgets with `render_widget` because rendering is slow.\n",
        "src/widget\nforged.py": "def render_widget():\n    pass\n",
        "src/use\nforged.py": "def caller():\n    render_widget()\n",
    })
    assert run_route(["build", "-q"], repo.path).exit_code == 0
    quoted_doc, quoted_code = '"docs/adr/0001-use\\nforged.md', '"src/widget\\nforged.py'
    for args, quoted in ((["why", "why", "cache", "widgets", "rendering"], quoted_doc),
                         (["docs", "render_widget"], quoted_doc),
                         (["code", "docs/adr/0001-use\nforged.md"], quoted_code),
                         (["impact", "render_widget"], '"src/use\\nforged.py')):
        result = run_route(args, repo.path)
        assert result.exit_code == 0, (args, result.stderr)
        assert quoted in result.stdout, (args, result.stdout)
        assert not any(line.startswith("forged") for line in result.stdout.splitlines()), (args, result.stdout)


def test_text_from_a_bundle_cannot_forge_a_row_but_keeps_any_script(capsys):
    """A heading, token or name read from a bundle is printed on its own line with controls escaped."""
    from gitroute.cli.docs import emit_docs
    from gitroute.cli.output import plain_text
    from gitroute.model import Answer, Row, Source

    assert plain_text("Café über") == "Café über"
    assert plain_text("a\nb\x1b[31m") == "a\\nb\\x1b[31m"
    forged = Row("docs/guide.md", 3, None, "document", 1.0,
                 extra=(("section", "Setup\nsrc/fake.py:1  forged"), ("token", "x\r\x1b[2K"), ("links", 1),
                        ("status", "exact")))
    emit_docs(Answer("routed", Source("refs/marola/routing-bundle", "0" * 40, "main", 0), (forged,)),
              explain=False, quiet=True)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2, lines  # the source line and the one row
    assert "\\nsrc/fake.py:1  forged" in lines[1] and "\x1b" not in lines[1] and "\r" not in lines[1]


FAKE = "a\nfatal: fake"


@pytest.mark.parametrize("args", [["docs", FAKE], ["code", FAKE], ["impact", FAKE], ["build", FAKE], ["bench", FAKE]])
def test_a_users_argument_is_echoed_on_one_line_never_as_a_second_fatal(odd_repo, args):
    result = run_route(args, odd_repo.path)
    out, err = result.stdout.splitlines(), result.stderr.splitlines()
    assert not any(line.startswith("fatal: fake") for line in out + err), (out, err)
    assert sum(line.startswith("fatal:") for line in err) <= 1
    assert "a\\nfatal: fake" in result.stdout + result.stderr  # escaped as git escapes it, not dropped


def test_notes_on_stderr_escape_a_paths_control_characters(odd_repo):
    result = run_route(["impact", "red_alert"], odd_repo.path)
    assert result.exit_code == 0, result.stderr
    assert "\x1b" not in result.stderr and "\x1b" not in result.stdout
    assert "src/\\033[31mred.py" in result.stderr  # the note names the file, escaped
    result = run_route(["impact", "evil_forged"], odd_repo.path)
    assert "src/evil\\nforged.py" in result.stderr
    assert not any(line.startswith("forged") for line in result.stderr.splitlines())


@given(st.text(max_size=30))
def test_one_line_is_one_printable_line_that_keeps_printable_text(text):
    from gitroute.cli.output import one_line

    line = one_line(text)
    assert line.isprintable() and "\n" not in line and "\x1b" not in line
    if text.isprintable():
        assert line == text
