"""Write man/git-route.1 from the click help, so that `git route --help` (git's `git help route`) has a page.

Run `python tools/manpage.py` after changing a command's help; tests/test_docs.py fails when the
committed page is out of date.
"""
from __future__ import annotations

import inspect
import sys
from pathlib import Path

import click

from gitroute import __version__
from gitroute.cli.app import COMMANDS, cli

PAGE = Path(__file__).resolve().parent.parent / "man" / "git-route.1"
# The width click wraps help to on any terminal of 80 columns or more; fixed so that the page
# does not depend on the terminal that generates it.
HELP_WIDTH = 78


def _escape(text: str) -> str:
    lines = []
    for line in text.replace("\\", "\\\\").splitlines():
        lines.append("\\&" + line if line.startswith((".", "'")) else line)
    return "\n".join(lines)


def render() -> str:
    # The group's context settings give every command its `-h, --help` (click caches a command's help
    # option, so without them the page would depend on what ran earlier in the process).
    ctx = click.Context(cli, info_name="git route", terminal_width=HELP_WIDTH, max_content_width=HELP_WIDTH,
                        **cli.context_settings)
    out = [
        f'.TH GIT-ROUTE 1 "" "gitroute {__version__}" "Git Manual"',
        ".SH NAME",
        "git-route \\- route questions about a repository to the files, symbols and docs that answer them",
        ".SH SYNOPSIS",
        ".B git route",
        "[\\fB\\-h\\fR] \\fICOMMAND\\fR [\\fIARGS\\fR]...",
        ".SH DESCRIPTION",
        _escape(inspect.cleandoc(cli.help or "")),
        ".SH COMMANDS",
    ]
    for name in sorted(COMMANDS):
        command = cli.get_command(ctx, name)
        assert command is not None
        sub = click.Context(command, info_name=name, parent=ctx, terminal_width=HELP_WIDTH,
                            max_content_width=HELP_WIDTH)
        out += [".SS " + f"git route {name}", ".nf", _escape(command.get_help(sub)), ".fi"]
    out += [
        ".SH EXIT STATUS",
        "0 answered (routed or no_match); 1 a check that found a problem (bench gate); "
        "3 internal error (GITROUTE_DEBUG=1 shows the traceback); 128 fatal (no repository, no bundle, "
        "unreadable bundle, unknown revision); 129 usage; 130 interrupted.",
        ".SH SEE ALSO",
        "\\fBgit-cat-file\\fR(1), \\fBgit-update-ref\\fR(1)",
    ]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    PAGE.parent.mkdir(exist_ok=True)
    PAGE.write_text(render(), encoding="utf-8")
    sys.stdout.write(f"wrote {PAGE}\n")
