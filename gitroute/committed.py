"""Generated files a repository commits (DOC-CODE.md, DECISIONS.md, a wiring block): write, check, shrink guard.

The content comes from a renderer (a string and a way to count its rows); this module decides
what "stale" means, refuses a write that loses more than half of the rows, and writes atomically.

Both sides of a check come from one commit, the bundle's pinned commit: the expected content is
rendered from the bundle built at that commit, and the committed file is read from that commit's
tree (never the work tree). A check is then a pure function of one commit, which is what CI needs,
and a stale bundle cannot make a fresh file look stale or the reverse.
"""
from __future__ import annotations

import difflib
import os
import posixpath
import tempfile
from collections.abc import Callable
from dataclasses import dataclass

from gitroute.errors import GitrouteError, ShrinkGuardRefused, cannot_write
from gitroute.git.catfile import run_git
from gitroute.model import Source

MAX_DIFF_LINES = 40  # a check says what changed; the whole diff is one `--write` and `git diff` away
DIFF_CONTEXT = 1


def count_markdown_rows(text: str) -> int:
    """Rows of a Markdown rendering: table body rows (not headers or `|---|` rules) and list items."""
    lines = [line.strip() for line in text.splitlines()]
    rows = 0
    for i, line in enumerate(lines):
        if line.startswith("|"):
            if _is_rule(line) or (i + 1 < len(lines) and _is_rule(lines[i + 1])):
                continue
            rows += 1
        elif line.startswith(("- ", "* ")):
            rows += 1
    return rows


def _is_rule(line: str) -> bool:
    return line.startswith("|") and "-" in line and set(line) <= set("|:- ")


@dataclass(frozen=True)
class Rendering:
    """What the pinned commit produces: content, how to count its rows, the block it fills (None: whole file)."""

    content: str
    count_rows: Callable[[str], int] = count_markdown_rows
    block: str | None = None  # "wiring": the text between <!-- gitroute:wiring:begin --> and ...:end -->


def marker_lines(block: str) -> tuple[str, str]:
    return f"<!-- gitroute:{block}:begin -->", f"<!-- gitroute:{block}:end -->"


def _block_span(text: str, block: str, path: str) -> tuple[int, int] | None:
    """Offsets of the text between the begin and end marker lines; None when neither marker is there."""
    begin, end = marker_lines(block)
    lines = text.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line.strip() == begin]
    ends = [i for i, line in enumerate(lines) if line.strip() == end]
    if not starts and not ends:
        return None
    if len(starts) != 1 or len(ends) != 1 or ends[0] < starts[0]:
        raise GitrouteError(f"'{path}' must hold one '{begin}' line followed by one '{end}' line",
                            hint="fix the marker lines by hand; gitroute rewrites only what lies between them")
    offset = [0]
    for line in lines:
        offset.append(offset[-1] + len(line))
    return offset[starts[0] + 1], offset[ends[0]]


def extract_block(text: str, block: str, path: str) -> str | None:
    span = _block_span(text, block, path)
    return None if span is None else text[span[0]:span[1]]


def replace_block(text: str, block: str, content: str, path: str) -> str:
    span = _block_span(text, block, path)
    if span is None:
        begin, end = marker_lines(block)
        raise GitrouteError(f"no '{begin}' line in '{path}'",
                            hint=f"add the lines '{begin}' and '{end}' where the block belongs, then rerun")
    if span[0] == len(text) or text[span[0] - 1] != "\n":
        content = "\n" + content  # a begin marker on the file's last line without a newline
    return text[:span[0]] + content + text[span[1]:]


def _normalised(content: str) -> str:
    return content if content.endswith("\n") or not content else content + "\n"


def check_path(path: str) -> str:
    """A repository-relative POSIX path inside the work tree, or a clear error."""
    clean = posixpath.normpath(path.replace(os.sep, "/")) if path else ""
    if not clean or clean == "." or posixpath.isabs(clean) or clean.split("/")[0] in ("..", ".git"):
        raise GitrouteError(f"'{path}' is not a file inside the work tree",
                            hint="give a path relative to the top of the repository, such as 'docs/DOC-CODE.md'")
    return clean


def read_blob(top: str, commit: str, path: str) -> bytes | None:
    """A file's bytes as the commit holds it; None when the commit has no such file."""
    if "\n" in path:
        return None
    result = run_git(["cat-file", "blob", f"{commit}:{path}"], top)
    return result.stdout if result.returncode == 0 else None


def read_committed(top: str, commit: str, path: str) -> str | None:
    data = read_blob(top, commit, path)
    return None if data is None else data.decode("utf-8", "replace")


def _read_work_tree(target: str) -> str | None:
    try:
        with open(target, encoding="utf-8", errors="replace", newline="") as f:
            return f.read()
    except FileNotFoundError:
        return None
    except IsADirectoryError as err:
        raise GitrouteError(f"'{target}' is a folder, not a file") from err


@dataclass(frozen=True)
class CheckReport:
    path: str
    commit: str
    stale: bool
    reason: str  # "up to date", "differs", "missing", "no block"
    rows_committed: int
    rows_expected: int
    lines_added: int
    lines_removed: int
    diff: tuple[str, ...]  # a unified diff, cut at MAX_DIFF_LINES
    diff_cut: int  # lines of the diff left out
    work_tree_current: bool  # the work tree already holds the expected content (commit it)


def check(top: str, commit: str, path: str, rendering: Rendering) -> CheckReport:
    """Compare the file as `commit` holds it with what `commit` produces."""
    path = check_path(path)
    expected = _normalised(rendering.content)
    committed_text = read_committed(top, commit, path)
    committed_part: str | None = committed_text
    reason = "differs"
    if committed_text is None:
        reason = "missing"
    elif rendering.block is not None:
        committed_part = extract_block(committed_text, rendering.block, path)
        if committed_part is None:
            reason = "no block"
    if committed_part == expected:
        reason = "up to date"
    old = committed_part or ""
    diff = list(difflib.unified_diff(
        old.splitlines(), expected.splitlines(), f"a/{path} (committed at {commit[:7]})", f"b/{path} (generated)",
        n=DIFF_CONTEXT, lineterm=""))
    body = [line for line in diff[2:] if not line.startswith("@@")]
    work = _read_work_tree(os.path.join(top, path))
    if work is not None and rendering.block is not None:
        work = extract_block(work, rendering.block, path)
    return CheckReport(
        path=path, commit=commit, stale=reason != "up to date", reason=reason,
        rows_committed=rendering.count_rows(old), rows_expected=rendering.count_rows(expected),
        lines_added=sum(line.startswith("+") for line in body),
        lines_removed=sum(line.startswith("-") for line in body),
        diff=tuple(diff[:MAX_DIFF_LINES]), diff_cut=max(0, len(diff) - MAX_DIFF_LINES),
        work_tree_current=work == expected,
    )


@dataclass(frozen=True)
class WriteReport:
    path: str
    written: bool  # False when the file already held exactly this
    rows_before: int  # the guard's baseline: the committed file's rows (or the work tree's when not committed)
    rows_after: int
    forced: bool  # the shrink guard would have refused, and --force overrode it


def shrinks_too_much(before: int, after: int) -> bool:
    """The 50 % guard: fewer than half the rows is a generator bug until a person says otherwise."""
    return after * 2 < before


def write(top: str, commit: str, path: str, rendering: Rendering, *, force: bool = False) -> WriteReport:
    """Write the rendering into the work tree, unless it loses more than half of the committed rows.

    The guard's baseline is the file as `commit` holds it, so that several small writes cannot walk a
    map down to nothing; a file that is not committed yet is measured in the work tree instead.
    """
    path = check_path(path)
    target = os.path.join(top, *path.split("/"))
    expected = _normalised(rendering.content)
    current = _read_work_tree(target)
    baseline_text = read_committed(top, commit, path)
    if baseline_text is None:
        baseline_text = current
    if rendering.block is not None:
        begin, end = marker_lines(rendering.block)
        new_text = (replace_block(current, rendering.block, expected, path) if current is not None
                    else f"{begin}\n{expected}{end}\n")
        if baseline_text is not None:
            baseline_text = extract_block(baseline_text, rendering.block, path)
    else:
        new_text = expected
    before = rendering.count_rows(baseline_text or "")
    after = rendering.count_rows(expected)
    refused = shrinks_too_much(before, after)
    if refused and not force:
        raise ShrinkGuardRefused(
            f"refusing to write '{path}': {after} rows where the committed file has {before} (fewer than half)",
            hint="a generator bug looks like this; read the change, then rerun with --force if it is right")
    if new_text == current:
        return WriteReport(path, False, before, after, refused)
    _write_atomically(target, new_text)
    return WriteReport(path, True, before, after, refused)


def _write_atomically(target: str, text: str) -> None:
    """Temp file in the same folder, then one rename: a reader sees the old file or the new, never half of one.

    A read-only work tree or a full disk is a fatal naming the file, not an internal error.
    """
    try:
        _replace_file(target, text)
    except OSError as err:
        raise cannot_write(target, err.strerror or str(err)) from err


def _replace_file(target: str, text: str) -> None:
    folder = os.path.dirname(target)
    os.makedirs(folder, exist_ok=True)
    try:
        mode = os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        mode = 0o666 & ~umask
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(target) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def missing_submodules_hint(paths: tuple[str, ...]) -> str:
    """Which submodules this clone has not initialised, and how to bring them: a check or a write without them
    compares a file rendered without what they hold."""
    names = ", ".join(f"'{p}'" for p in paths)
    one = len(paths) == 1
    which, holds = (f"submodule {names} is", "it holds") if one else (f"submodules {names} are", "they hold")
    return (f"{which} not initialised in this clone, so the bundle lacks what {holds}: "
            "run 'git submodule update --init' and 'git route build'")


@dataclass(frozen=True)
class CommittedResult:
    """One `doc-code` / `decisions` / `wiring --write|--check` run: what was rendered, and what came of it."""

    name: str  # "doc-code", "decisions", "wiring"
    path: str
    source: Source  # the bundle's pinned commit, and how far HEAD is from it
    rendering: Rendering
    report: CheckReport | WriteReport | None  # None when the rendering was only shown
    # Submodules the bundle's commit pins whose commits this clone lacks (not initialised): what they hold is
    # missing from the rendering, which is why a check here may fail where it passes elsewhere.
    missing_submodules: tuple[str, ...] = ()
