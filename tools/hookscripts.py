"""Write hooks/post-merge and hooks/post-checkout: the scripts `git route hooks install` writes, for copying by hand.

Run `python tools/hookscripts.py` after changing gitroute/hooks.py; tests/test_hooks.py fails when
the committed scripts are out of date. These copies find `git-route` on PATH; the installed ones
also remember the interpreter gitroute was installed in.
"""
from __future__ import annotations

from pathlib import Path

from gitroute.hooks import HOOKS, render_hook

FOLDER = Path(__file__).resolve().parent.parent / "hooks"


def main() -> None:
    FOLDER.mkdir(exist_ok=True)
    for hook in HOOKS:
        path = FOLDER / hook
        path.write_text(render_hook(hook), encoding="utf-8")
        path.chmod(0o755)


if __name__ == "__main__":
    main()
