"""README's worked example, run again: every `$ git route ...` command of its console block, in the flask corpus.

    python bench/readme_example.py [--write] [--cache DIR]

Materialises flask (bench/corpora.py) in a temporary folder, runs each command of the block after the first
(which only materialises and enters the corpus) through a shell there, and compares what a terminal would show
(stdout and stderr in order) with the README's block; a build's seconds are not compared. Exits 1 and prints the
difference when the block is stale; `--write` rewrites the block (keeping its seconds) and the stamp line above it.

The stamp (`<!-- example: ... -->`) names the bundle id of the test suite's sample repository
(tests/golden/status.json) and EXTRACTOR_VERSION when the block was made: tests/test_docs.py checks both
without the corpus, so a change that moves bundle ids fails the suite until the example is made again. With
the flask archive in the cache, the test also runs this script's check.
"""
from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
README = ROOT / "README.md"
GOLDEN_STATUS = ROOT / "tests" / "golden" / "status.json"
HEADING = "## A worked example"
SECONDS = re.compile(r"(?<= in )\d+\.\d+(?= s$)", re.MULTILINE)  # the build line's timing
STAMP = re.compile(r"^<!-- example: sample bundle (?P<bundle>[0-9a-f]{40}), extractor (?P<extractor>\d+); "
                   r"made by bench/readme_example\.py -->$", re.MULTILINE)


def example_block(readme: str) -> tuple[int, int]:
    """Where the worked example's console block's text starts and ends in the README."""
    section = readme.index(HEADING)
    start = readme.index("```console\n", section) + len("```console\n")
    return start, readme.index("```\n", start)


def commands(block: str) -> list[tuple[str, str]]:
    """(command, output) per `$ ` line of a console block, in order; output is the lines up to the next one."""
    found: list[tuple[str, str]] = []
    for chunk in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
        command, _, output = chunk.partition("\n")
        found.append((command, output.rstrip("\n")))
    return found


def render(pairs: list[tuple[str, str]]) -> str:
    """A console block: each command after a `$ `, its output under it, a blank line after any output."""
    lines: list[str] = []
    for number, (command, output) in enumerate(pairs):
        if number and pairs[number - 1][1]:
            lines.append("")
        lines.append(f"$ {command}")
        lines += output.split("\n") if output else []
    return "\n".join(lines) + "\n"


def current_stamp() -> str:
    from gitroute.parsing.version import EXTRACTOR_VERSION

    bundle = json.loads(GOLDEN_STATUS.read_text())["bundle"]["commit"]
    return (f"<!-- example: sample bundle {bundle}, extractor {EXTRACTOR_VERSION}; "
            "made by bench/readme_example.py -->")


def run_example(cache: Path) -> list[tuple[str, str]]:
    """The block's commands as they run now, with what they print."""
    sys.path.insert(0, str(HERE))
    from corpora import materialise

    readme = README.read_text(encoding="utf-8")
    start, end = example_block(readme)
    pairs = commands(readme[start:end])
    home = Path(tempfile.mkdtemp(prefix="readme-example."))
    try:
        corpus = materialise("flask", home / "corpora", cache)
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        env.update(HOME=str(home), GIT_CONFIG_NOSYSTEM="1", PYTHONUNBUFFERED="1", LC_ALL="C.UTF-8",
                   PATH=os.pathsep.join([os.path.dirname(sys.executable), env.get("PATH", "")]))
        env.pop("GITROUTE_DEBUG", None)
        ran = [pairs[0]]
        for command, _ in pairs[1:]:
            result = subprocess.run(["bash", "-c", command], cwd=corpus, env=env, stdin=subprocess.DEVNULL,
                                    stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            ran.append((command, result.stdout.rstrip("\n")))
        return ran
    finally:
        shutil.rmtree(home, ignore_errors=True)


def check(cache: Path) -> list[str]:
    """The difference between the README's block and the block run now (seconds aside); [] when current."""
    readme = README.read_text(encoding="utf-8")
    start, end = example_block(readme)
    stated = SECONDS.sub("X", readme[start:end])
    now = SECONDS.sub("X", render(run_example(cache)))
    return list(difflib.unified_diff(stated.splitlines(), now.splitlines(), "README.md", "now", lineterm=""))


def write(cache: Path) -> bool:
    """Rewrite the block (keeping the README's build seconds) and its stamp; True when anything changed."""
    readme = README.read_text(encoding="utf-8")
    start, end = example_block(readme)
    seconds = SECONDS.findall(readme[start:end])
    block = render(run_example(cache))
    if seconds:
        block = SECONDS.sub(seconds[0], block)
    updated = readme[:start] + block + readme[end:]
    stamp = current_stamp()
    updated = STAMP.sub(stamp, updated) if STAMP.search(updated) else updated.replace(
        HEADING + "\n", f"{HEADING}\n\n{stamp}\n", 1)
    if updated != readme:
        README.write_text(updated, encoding="utf-8")
    return updated != readme


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite README's block and stamp")
    parser.add_argument("--cache", type=Path, default=Path("~/.cache/gitroute-bench").expanduser(),
                        help="folder of downloaded archives")
    args = parser.parse_args(argv)
    if args.write:
        print("README.md: worked example " + ("rewritten" if write(args.cache) else "already current"))
        return 0
    difference = check(args.cache)
    print("\n".join(difference) or "README.md: worked example current")
    return 1 if difference else 0


if __name__ == "__main__":
    sys.exit(main())
