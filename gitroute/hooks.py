"""The git hooks: install, recognise, chain and remove gitroute's scripts; what post-merge and pointer-sync decide.

Installing follows pre-commit (`commands/install_uninstall.py`, `resources/hook-tmpl`): a marker
line recognises our own scripts, a hook that was already there is kept as `<hook>.legacy` and run
first, and `core.hooksPath` pointing elsewhere (hooks shared or managed by another tool) is refused
unless the user says to write there.
"""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass

from gitroute.committed import CommittedResult
from gitroute.errors import GitrouteError, HookConflict, NotARepository, cannot_write
from gitroute.git.catfile import run_git

MARKER = "# gitroute-hook: written by 'git route hooks install'; 'git route hooks uninstall' restores what was here"
# git hook -> the `git route hook ...` runners it calls, in order. pointer-sync goes first after a
# merge: when pointers moved it builds the bundle itself, and post-merge then finds it fresh.
HOOKS: dict[str, tuple[str, ...]] = {
    "post-merge": ("pointer-sync", "post-merge"),
    "post-checkout": ("pointer-sync",),
}
LEGACY_SUFFIX = ".legacy"
# A build that took longer than this last time runs detached after a merge, so the merge returns at once.
FOREGROUND_MAX_SECONDS = 2.0
LAST_BUILD = "last-build.json"  # written by the build beside the bundle, under <common git dir>/gitroute/
BACKGROUND_LOG = "post-merge.log"
NULL_OID = "0" * 40

_TEMPLATE = """\
#!/bin/sh
{marker}
# The {hook} hook: runs the hook that was here before (kept as {hook}.legacy), then gitroute's
# {runners}. gitroute never fails the git command: a problem is a 'warning:' line.
INSTALL_PYTHON={python}
# -P keeps the current folder (the repository) off the module path: nothing from it is imported.
HERE=$(dirname "$0")
status=0
if [ -x "$HERE/{hook}.legacy" ]; then
    "$HERE/{hook}.legacy" "$@" || status=$?
fi
route() {{
    if [ -n "$INSTALL_PYTHON" ] && [ -x "$INSTALL_PYTHON" ]; then
        "$INSTALL_PYTHON" -P -m gitroute "$@"
    elif command -v git-route >/dev/null 2>&1; then
        git-route "$@"
    else
        echo "warning: gitroute is not installed; the {hook} hook did nothing" >&2
    fi
}}
{calls}
exit $status
"""


def render_hook(hook: str, python: str = "") -> str:
    """The script installed as `hook`; `python` is gitroute's interpreter ("": find git-route on PATH)."""
    runners = HOOKS[hook]
    calls = "\n".join(f'route hook {runner} "$@" </dev/null || true' for runner in runners)
    return _TEMPLATE.format(marker=MARKER, hook=hook, runners=" and ".join(runners), python=shlex.quote(python),
                            calls=calls)


def is_ours(path: str) -> bool:
    try:
        with open(path, "rb") as f:
            return MARKER.encode() in f.read(4096)
    except OSError:
        return False


def _git_path(cwd: str, *args: str) -> str:
    result = run_git(["rev-parse", *args], cwd)
    if result.returncode != 0:
        raise NotARepository(f"not a git repository: '{os.path.abspath(cwd)}'")
    return os.path.abspath(os.path.join(cwd, result.stdout.decode("utf-8", "surrogateescape").strip()))


def common_dir(cwd: str) -> str:
    """The git dir shared by every worktree: where hooks, `modules/` and gitroute's own files live."""
    return _git_path(cwd, "--git-common-dir")


def hooks_dir(cwd: str, *, hooks_path: bool = False) -> str:
    """The folder git runs hooks from; refuses a `core.hooksPath` that points elsewhere unless `hooks_path`."""
    folder = _git_path(cwd, "--git-path", "hooks")
    configured = run_git(["config", "--get", "core.hooksPath"], cwd).stdout.decode("utf-8", "replace").strip()
    default = os.path.join(common_dir(cwd), "hooks")
    if configured and os.path.realpath(folder) != os.path.realpath(default) and not hooks_path:
        raise HookConflict(
            f"core.hooksPath is set to '{configured}': hooks there may be shared or managed by another tool",
            hint=f"rerun with --hooks-path to write into '{folder}' anyway, or 'git config --unset core.hooksPath'")
    return folder


@dataclass(frozen=True)
class HookStep:
    hook: str
    path: str
    action: str  # installed, updated, chained (an existing hook kept as .legacy), removed, restored, not ours, absent


def install(cwd: str, *, python: str = sys.executable, hooks_path: bool = False) -> list[HookStep]:
    """Write gitroute's hooks; a hook that was there is renamed `<hook>.legacy` and run first."""
    folder = hooks_dir(cwd, hooks_path=hooks_path)
    plan: list[tuple[str, str, str]] = []
    for hook in HOOKS:
        path = os.path.join(folder, hook)
        legacy = path + LEGACY_SUFFIX
        if not os.path.lexists(path):
            plan.append((hook, path, "installed"))
        elif is_ours(path):
            plan.append((hook, path, "updated"))
        elif os.path.lexists(legacy):
            # Renaming would destroy the older legacy hook; nothing is written until this is settled.
            raise HookConflict(f"both '{path}' and '{legacy}' exist, and neither is gitroute's",
                               hint="move one of them away, then rerun 'git route hooks install'")
        else:
            plan.append((hook, path, "chained"))
    with _writing(folder):
        os.makedirs(folder, exist_ok=True)
    steps = []
    for hook, path, action in plan:
        with _writing(path):
            if action == "chained":
                os.rename(path, path + LEGACY_SUFFIX)
            _write_script(path, render_hook(hook, python))
        steps.append(HookStep(hook, path, action))
    return steps


def uninstall(cwd: str, *, hooks_path: bool = False) -> list[HookStep]:
    """Remove gitroute's hooks and put back what was there; a hook that is not ours is left alone."""
    folder = hooks_dir(cwd, hooks_path=hooks_path)
    steps = []
    for hook in HOOKS:
        path = os.path.join(folder, hook)
        legacy = path + LEGACY_SUFFIX
        if not os.path.lexists(path):
            steps.append(HookStep(hook, path, "absent"))
        elif not is_ours(path):
            steps.append(HookStep(hook, path, "not ours"))
        elif os.path.lexists(legacy):
            with _writing(path):
                os.replace(legacy, path)
            steps.append(HookStep(hook, path, "restored"))
        else:
            with _writing(path):
                os.unlink(path)
            steps.append(HookStep(hook, path, "removed"))
    return steps


@contextmanager
def _writing(path: str) -> Iterator[None]:
    """A hooks folder that cannot be written (read-only, full) as a fatal naming the hook, not an internal error."""
    try:
        yield
    except OSError as err:
        raise cannot_write(path, err.strerror or str(err)) from err


def _write_script(path: str, text: str) -> None:
    tmp = path + ".gitroute-tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o755)
        os.replace(tmp, path)
    except BaseException:
        with suppress(OSError):
            os.unlink(tmp)
        raise


@dataclass(frozen=True)
class PointerSync:
    moved: tuple[str, ...]  # submodule paths whose pointer moved (every submodule when there was nothing to compare)
    result: CommittedResult | None  # the DOC-CODE.md write; None when no pointer moved


def last_build_seconds(cwd: str) -> float | None:
    """How long the last build took, as the build recorded it; None when unknown."""
    try:
        with open(os.path.join(common_dir(cwd), "gitroute", LAST_BUILD), encoding="utf-8") as f:
            seconds = json.load(f).get("seconds")
    except (OSError, ValueError, AttributeError):
        return None
    return float(seconds) if isinstance(seconds, int | float) and not isinstance(seconds, bool) else None


def builds_in_background(cwd: str) -> bool:
    """A build whose last run was long (or never timed) runs detached, so the merge is not held up."""
    seconds = last_build_seconds(cwd)
    return seconds is None or seconds > FOREGROUND_MAX_SECONDS


def start_background_build(cwd: str, python: str = sys.executable) -> str:
    """Start `git route build -q` detached from the hook (own session, no stdin); returns its log's path."""
    folder = os.path.join(common_dir(cwd), "gitroute")
    os.makedirs(folder, exist_ok=True)
    log_path = os.path.join(folder, BACKGROUND_LOG)
    with open(log_path, "wb") as log:
        # -P: the repository's top is the current folder, and nothing from it may be imported and run.
        subprocess.Popen([python, "-P", "-m", "gitroute", "build", "-q"], cwd=cwd, stdin=subprocess.DEVNULL,
                         stdout=log, stderr=subprocess.STDOUT, start_new_session=True, close_fds=True)
    return log_path


def resolve(cwd: str, rev: str) -> str | None:
    result = run_git(["rev-parse", "--verify", "--quiet", "--end-of-options", f"{rev}^{{commit}}"], cwd)
    return result.stdout.decode().strip() if result.returncode == 0 else None


def gitlinks(cwd: str, commit: str) -> dict[str, str]:
    """Submodule path -> pinned commit, from the commit's tree."""
    result = run_git(["ls-tree", "-r", "-z", "--full-tree", commit], cwd)
    if result.returncode != 0:
        raise GitrouteError(f"cannot list the tree of '{commit}'")
    pins = {}
    for entry in result.stdout.split(b"\0"):
        meta, _, path = entry.partition(b"\t")
        fields = meta.split()
        if len(fields) == 3 and fields[0] == b"160000":
            pins[path.decode("utf-8", "surrogateescape")] = fields[2].decode()
    return pins


def moved_pointers(cwd: str, previous: str, current: str) -> list[str]:
    """Submodule paths whose pinned commit differs between two commits (added and removed ones included)."""
    old, new = gitlinks(cwd, previous), gitlinks(cwd, current)
    return sorted(path for path in old.keys() | new.keys() if old.get(path) != new.get(path))


def previous_head(cwd: str, hook_args: tuple[str, ...]) -> tuple[str | None, bool]:
    """Where HEAD was before the git command that ran the hook, and whether the hook should look at all.

    post-checkout passes (previous, new, branch flag): a file checkout (flag 0) and a clone (previous
    all zeros) move no pointers. post-merge passes one flag and leaves ORIG_HEAD. With no previous
    commit (CI calling the runner by hand), the answer is None: regenerate for HEAD.
    """
    if len(hook_args) == 3:
        previous, _, flag = hook_args
        if flag == "0" or previous == NULL_OID:
            return None, False
        return resolve(cwd, previous), True
    return resolve(cwd, "ORIG_HEAD") if hook_args else None, True
