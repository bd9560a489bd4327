"""Faults of the machine, not of gitroute: a read-only repository, a full disk. Each is one `fatal:` naming the
path, exit 128, and leaves nothing behind; never an internal error (exit 3)."""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import SAMPLE_FILES, run_route

ROOT = Path(__file__).resolve().parent.parent
# Root ignores permission bits; without these capabilities (dropped from the bounding set, so that no
# program it starts has them) root meets them as anyone does.
DROP_OVERRIDES = "--bounding-set=-dac_override,-dac_read_search,-fowner,-linux_immutable"


def route_without_write_rights(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    """`git route ARGS` in a process that the permission bits bind, even when the tests run as root."""
    command = [sys.executable, "-m", "gitroute", *args]
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("running as root, and no setpriv (util-linux) to drop root's right to ignore permissions")
        command = [setpriv, DROP_OVERRIDES, *command]
    return subprocess.run(command, cwd=cwd, capture_output=True, text=True)


def make_read_only(path: Path) -> None:
    for folder, dirs, files in os.walk(path):
        for name in [*dirs, *files]:
            target = os.path.join(folder, name)
            if not os.path.islink(target):
                os.chmod(target, os.stat(target).st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
    os.chmod(path, os.stat(path).st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def make_writable(path: Path) -> None:
    for folder, dirs, _ in os.walk(path):
        for name in dirs:
            os.chmod(os.path.join(folder, name), 0o755)
    os.chmod(path, 0o755)


@pytest.fixture
def read_only_repo(make_repo):
    repo = make_repo("readonly")
    repo.commit({**SAMPLE_FILES, "docs/guide.md": "# Guide\n\nStart at `src/sample/cli.py`.\n"}, "initial")
    assert run_route(["build", "-q"], repo.path).exit_code == 0
    repo.commit({**SAMPLE_FILES, "docs/guide.md": "# Guide\n\nStart at `src/sample/weather.py`.\n"}, "second")
    make_read_only(repo.path)
    yield repo
    make_writable(repo.path)


@pytest.mark.parametrize("args, path", [
    (["doc-code", "--write"], "docs/DOC-CODE.md"),
    (["decisions", "--write"], "docs/DECISIONS.md"),
    (["hooks", "install"], ".git/hooks/post-merge"),
    (["build"], ".git/objects"),
])
def test_a_read_only_repository_is_a_fatal_naming_the_path(read_only_repo, args, path):
    result = route_without_write_rights(args, read_only_repo.path)
    assert result.returncode == 128, result.stderr
    lines = result.stderr.splitlines()
    assert lines[0] == f"fatal: cannot write '{read_only_repo.path / path}': Permission denied", lines
    assert lines[1].startswith("hint: ") and len(lines) == 2
    assert "internal error" not in result.stderr and "Traceback" not in result.stderr


def test_a_write_fault_outside_the_named_places_is_a_fatal_too(read_only_repo):
    """The error boundary's own net: an OSError of a full disk or a read-only folder is the machine's, not a bug."""
    from gitroute.cli import report_exception

    error = PermissionError(13, "Permission denied", "/somewhere/file")
    assert report_exception(error, as_json=False) == 128
    assert report_exception(OSError(28, "No space left on device", "/x/y"), as_json=False) == 128
    assert report_exception(ValueError("a bug"), as_json=False) == 3


def namespace_prefix() -> list[str]:
    """A command prefix that runs a program as root of a private mount namespace (so it can mount a tmpfs)."""
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("no unshare (util-linux): a full disk is tested on a private tmpfs")
    for prefix in ([unshare, "--mount"], [unshare, "--mount", "--map-root-user"]):
        probe = subprocess.run([*prefix, "sh", "-c", "mount -t tmpfs -o size=64k tmpfs /mnt"], capture_output=True)
        if probe.returncode == 0:
            return prefix
    pytest.skip("cannot mount a tmpfs in a private mount namespace here (no privilege, no user namespaces)")


def test_a_full_disk_is_named_and_leaves_no_crash_report_nor_partial_pack(make_repo, tmp_path):
    """A real full disk: a small tmpfs in a private mount namespace, filled to leave a little free, at sizes that
    stop the build while fast-import writes the pack, while trees and the commit are written, and at the ref."""
    prefix = namespace_prefix()
    files = {f"src/pkg/mod{i}.py": "".join(f"def func_{i}_{j}(a, b):\n    '''Doc {j}.'''\n    return a + b\n\n"
                                           for j in range(30)) for i in range(30)}
    repo = make_repo("full")
    repo.commit({**SAMPLE_FILES, **files}, "initial")
    mount = tmp_path / "mnt"
    mount.mkdir()
    result = subprocess.run([*prefix, sys.executable, str(ROOT / "tests" / "disk_full.py"), str(mount), str(repo.path),
                             "8"], capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert result.returncode == 0, result.stderr
    reports = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(reports) == 11 and reports[0]["exit"] == 0, reports  # with room to spare it builds
    assert reports[1]["exit"] == reports[2]["exit"] == 128, reports  # with none, or half of it, it cannot
    for report in reports:
        assert report["leftovers"] == [], report
        assert report["fsck"] == 0, report
        assert "Traceback" not in report["stderr"] and "internal error" not in report["stderr"], report
        if report["exit"] == 0:
            assert report["bundle"], report
            continue
        lines = report["stderr"].splitlines()
        assert report["exit"] == 128 and len(lines) == 2, report
        assert lines[0].startswith("fatal: cannot write '") and lines[0].endswith("': No space left on device"), report
        assert "crash" not in report["stderr"], report
        assert lines[1].startswith("hint: free some space"), report
        assert report["bundle"] == "", report  # the ref did not move to a bundle that is not all there
