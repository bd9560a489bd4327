"""A real renderer for the committed-file tests: the Markdown documents of the bundle's commit and its submodules.

The doc-code, decisions and wiring renderers belong to their indexes; until a branch brings them,
the machinery is tested through this one, which renders a true function of the pinned commit (so
deleting documents really drops rows).
"""
from __future__ import annotations

import subprocess

from gitroute.committed import Rendering


def _markdown_files(cwd: str, commit: str) -> list[str]:
    listing = subprocess.run(["git", "ls-tree", "-r", "--full-tree", "--name-only", "-z", commit], cwd=cwd,
                             capture_output=True, check=True).stdout.decode()
    return [path for path in listing.split("\0") if path.endswith(".md") and not path.startswith("docs/")]


def render_markdown_table(view, config) -> Rendering:
    """One table row per Markdown file (outside docs/) of the pinned commit and of each present submodule's pin."""
    cwd = view.reader.cwd
    top = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=cwd, capture_output=True, text=True,
                         check=True).stdout.strip()
    paths = _markdown_files(cwd, view.source.commit)
    for sub in view.manifest.get("submodules", []):
        if sub["present"]:
            paths += [f"{sub['path']}/{p}" for p in _markdown_files(f"{top}/{sub['path']}", sub["commit"])]
    lines = ["# Documents", "", "| document |", "|---|", *(f"| {p} |" for p in sorted(paths))]
    return Rendering("\n".join(lines) + "\n")


def render_wiring_block(view, config) -> Rendering:
    table = render_markdown_table(view, config)
    return Rendering(table.content, block="wiring")
