"""The answering path's git processes (`env.spawn_git`, `env.read_git`): started without `subprocess`, they answer
and fail as `run_git`'s do."""
from __future__ import annotations

import pytest

from gitroute.errors import GitrouteError, NotARepository
from gitroute.git.env import read_git, run_git, spawn_git


@pytest.mark.parametrize("args", [["symbolic-ref", "-q", "--short", "HEAD"],
                                  ["rev-parse", "-q", "--verify", "--end-of-options", "refs/heads/none"],
                                  ["rev-list", "--left-right", "--count", "--end-of-options", "main...main"],
                                  ["cat-file", "-t", "no-such-object"]], ids=" ".join)
def test_read_git_gives_what_run_git_gives(make_repo, args):
    repo = make_repo()
    repo.commit({"a.txt": "a\n"})
    (repo.path / "sub").mkdir()
    for cwd in (str(repo.path), str(repo.path / "sub")):
        light, full = read_git(args, cwd), run_git(args, cwd)
        assert (light.returncode, light.stdout, light.stderr) == (full.returncode, full.stdout, full.stderr)
    assert read_git(["symbolic-ref", "-q", "--short", "HEAD"], str(repo.path)).stdout == b"main\n"


def test_read_git_fails_where_run_git_fails(make_repo, tmp_path, monkeypatch):
    """No folder, a file for a folder, no git on PATH: the same error, worded the same."""
    repo = make_repo()
    repo.commit({"a.txt": "a\n"})
    file = repo.path / "a.txt"
    for cwd in (str(tmp_path / "missing"), str(file)):
        with pytest.raises(GitrouteError) as light:
            read_git(["status"], cwd)
        with pytest.raises(GitrouteError) as full:
            run_git(["status"], cwd)
        assert (type(light.value), str(light.value)) == (type(full.value), str(full.value))
    with pytest.raises(NotARepository):
        read_git(["status"], str(file))
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(GitrouteError, match="git is not on PATH"):
        read_git(["status"], str(repo.path))


def test_a_spawned_git_reads_its_stdin_and_is_waited_for_or_killed(make_repo):
    repo = make_repo()
    repo.commit({"a.txt": "a\n"})
    proc = spawn_git(["cat-file", "--batch"], str(repo.path))
    proc.stdin.write(b"HEAD:a.txt\n")
    proc.stdin.flush()
    assert proc.stdout.readline().split()[1:] == [b"blob", b"2"]
    assert proc.stdout.read(3) == b"a\n\n"
    with pytest.raises(TimeoutError):
        proc.wait(timeout=0.05)  # still reading its stdin
    proc.kill()
    assert proc.wait(timeout=10) == -9
    proc.kill()  # ended: nothing to do
    for stream in (proc.stdin, proc.stdout, proc.stderr):
        stream.close()
    done = spawn_git(["cat-file", "--batch"], str(repo.path))
    done.stdin.close()
    assert done.wait(timeout=10) == 0 and done.stdout.read() == b"" and done.stderr.read() == b""
    done.stdout.close()
    done.stderr.close()
