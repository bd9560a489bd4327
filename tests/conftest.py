"""Fixtures: a scrubbed git environment, throwaway repositories built with pygit2, and a CLI runner."""
from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pygit2
import pytest
from hypothesis import settings
from pygit2.enums import FileMode

from gitroute.cli import main

# Shared, noisy machines: no per-example deadline; in CI the same examples every run.
settings.register_profile("gitroute", deadline=None, derandomize=os.environ.get("CI") == "true")
settings.load_profile("gitroute")

AUTHOR = pygit2.Signature("Test Author", "author@example.invalid", 1_700_000_000, 0)


@pytest.fixture(autouse=True, scope="session")
def scrubbed_git_env(tmp_path_factory: pytest.TempPathFactory):
    """No user or system git config, a private HOME, fixed identities and dates: stable object ids."""
    saved = dict(os.environ)
    for key in list(os.environ):
        if key.startswith("GIT_") or key == "GITROUTE_DEBUG":
            del os.environ[key]
    home = tmp_path_factory.mktemp("home")
    os.environ.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / ".config"),
        GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="Test Author",
        GIT_AUTHOR_EMAIL="author@example.invalid",
        GIT_AUTHOR_DATE="1700000000 +0000",
        GIT_COMMITTER_NAME="Test Author",
        GIT_COMMITTER_EMAIL="author@example.invalid",
        GIT_COMMITTER_DATE="1700000000 +0000",
    )
    yield
    os.environ.clear()
    os.environ.update(saved)


@dataclass(frozen=True)
class Link:
    """A symlink entry in a spec."""

    target: str


@dataclass(frozen=True)
class Gitlink:
    """A submodule entry in a spec: a commit id pinned at that path."""

    commit: str


@dataclass(frozen=True)
class Exe:
    """An executable file in a spec."""

    content: str | bytes


class RepoBuilder:
    """A real repository whose commits are written from `{path: content}` specs."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.repo = pygit2.init_repository(str(path), initial_head="main")
        self._tick = 0

    def git(self, *args: str, check: bool = True) -> str:
        result = subprocess.run(["git", *args], cwd=self.path, capture_output=True, text=True)
        if check and result.returncode != 0:
            raise AssertionError(f"git {' '.join(args)} failed: {result.stderr}")
        return result.stdout

    def commit(self, files: dict[str, object], message: str = "commit", *, parents: list[str] | None = None,
               branch: str = "main", checkout: bool = True) -> str:
        """Commit exactly `files` (the whole tree) on `branch`; returns the commit id."""
        tree = self._write_tree(files)
        if parents is None:
            ref = f"refs/heads/{branch}"
            parents = [str(self.repo.references[ref].target)] if ref in self.repo.references else []
        self._tick += 1
        sig = pygit2.Signature(AUTHOR.name, AUTHOR.email, AUTHOR.time + self._tick, 0)
        oid = self.repo.create_commit(f"refs/heads/{branch}", sig, sig, message, tree,
                                      [pygit2.Oid(hex=p) for p in parents])
        if checkout and branch == "main":
            self.git("reset", "-q", "--hard", "main")
        return str(oid)

    def _write_tree(self, files: dict[str, object]) -> pygit2.Oid:
        nested: dict = {}
        for path, content in files.items():
            if isinstance(path, bytes):  # a raw (possibly non-UTF-8) path
                path = path.decode("utf-8", "surrogateescape")
            node = nested
            *folders, name = path.split("/")
            for folder in folders:
                node = node.setdefault(folder, {})
            node[name] = content
        return self._build(nested)

    def _build(self, node: dict) -> pygit2.Oid:
        if not all(_is_utf8(name) for name in node):
            return self._build_raw(node)
        builder = self.repo.TreeBuilder()
        for name, value in node.items():
            raw = name.encode("utf-8", "surrogateescape")
            if isinstance(value, dict):
                builder.insert(raw.decode("utf-8", "surrogateescape"), self._build(value), FileMode.TREE)
            elif isinstance(value, Link):
                builder.insert(name, self.repo.create_blob(value.target.encode()), FileMode.LINK)
            elif isinstance(value, Gitlink):
                builder.insert(name, pygit2.Oid(hex=value.commit), FileMode.COMMIT)
            elif isinstance(value, Exe):
                data = value.content.encode() if isinstance(value.content, str) else value.content
                builder.insert(name, self.repo.create_blob(data), FileMode.BLOB_EXECUTABLE)
            else:
                data = value.encode() if isinstance(value, str) else value
                builder.insert(name, self.repo.create_blob(data), FileMode.BLOB)
        return builder.write()

    def _build_raw(self, node: dict) -> pygit2.Oid:
        """A tree with non-UTF-8 names, which pygit2's TreeBuilder refuses: written as a raw object."""
        entries: list[tuple[bytes, int, pygit2.Oid]] = []
        for name, value in node.items():
            raw = name.encode("utf-8", "surrogateescape")
            if isinstance(value, dict):
                entries.append((raw, 0o40000, self._build(value)))
            elif isinstance(value, Link):
                entries.append((raw, 0o120000, self.repo.create_blob(value.target.encode())))
            elif isinstance(value, Gitlink):
                entries.append((raw, 0o160000, pygit2.Oid(hex=value.commit)))
            elif isinstance(value, Exe):
                data = value.content.encode() if isinstance(value.content, str) else value.content
                entries.append((raw, 0o100755, self.repo.create_blob(data)))
            else:
                data = value.encode() if isinstance(value, str) else value
                entries.append((raw, 0o100644, self.repo.create_blob(data)))
        # git's order: by name bytes, a folder compared as if its name ended with '/'
        entries.sort(key=lambda e: e[0] + b"/" if e[1] == 0o40000 else e[0])
        body = b"".join(b"%o %s\0" % (mode, raw) + oid.raw for raw, mode, oid in entries)
        return self.repo.odb.write(pygit2.enums.ObjectType.TREE, body)

    def ref(self, name: str) -> str | None:
        try:
            return str(self.repo.references[name].resolve().target)
        except KeyError:
            return None

    def bundle_tree(self) -> str:
        commit = self.ref("refs/marola/routing-bundle")
        assert commit is not None, "no bundle"
        return str(self.repo[pygit2.Oid(hex=commit)].tree_id)


def _is_utf8(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


@pytest.fixture
def make_repo(tmp_path: Path):
    """Factory of RepoBuilders in fresh folders under tmp_path."""
    count = 0

    def factory(name: str | None = None) -> RepoBuilder:
        nonlocal count
        count += 1
        return RepoBuilder(tmp_path / (name or f"repo{count}"))

    return factory


@dataclass(frozen=True)
class Result:
    exit_code: int
    stdout: str
    stderr: str


def run_route(args: list[str], cwd: Path | str) -> Result:
    """Run `git route ARGS` in-process in `cwd`, through the real error boundary and exit codes."""
    out, err = io.StringIO(), io.StringIO()
    old = os.getcwd()
    code = 0
    os.chdir(cwd)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                main(list(args))
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        os.chdir(old)
    return Result(code, out.getvalue(), err.getvalue())


@pytest.fixture
def route():
    return run_route


SAMPLE_FILES = {
    "README.md": "# Sample\n\nA sample project.\n",
    "pyproject.toml": '[project]\nname = "sample"\n[project.scripts]\nsample = "sample.cli:run"\n',
    "src/sample/__init__.py": '"""The sample package."""\n',
    "src/sample/weather.py": (
        '"""Weather lookups."""\nimport json\n\n\n'
        'class OpenMeteoClient:\n    """Fetches forecasts from the Open-Meteo service."""\n\n'
        '    def forecast(self, lat, lon):\n        return parse_forecast(json.dumps([lat, lon]))\n\n\n'
        'def parse_forecast(text):\n    """Turn the raw forecast text into hourly rows."""\n    return text\n'
    ),
    "src/sample/cli.py": (
        'from sample.weather import OpenMeteoClient\n\n\n'
        'def run():\n    """Start the command line."""\n    OpenMeteoClient().forecast(1, 2)\n\n\n'
        'if __name__ == "__main__":\n    run()\n'
    ),
    "src/sample/http_server.py": 'class HTTPServer:\n    def serve_forever(self):\n        pass\n',
    "tests/test_weather.py": (
        'from sample.weather import OpenMeteoClient\n\n\n'
        'def test_open_meteo_client():\n    assert OpenMeteoClient()\n'
    ),
}


@pytest.fixture
def sample_repo(make_repo) -> RepoBuilder:
    """A small Python project with one commit on main."""
    builder = make_repo("sample")
    builder.commit(dict(SAMPLE_FILES), "initial")
    return builder


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", help="rewrite tests/golden/ from the current output")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


def forget_extraction_cache(repo_path: Path) -> None:
    """Remove the extraction cache beside the bundle: a rebuild then reuses what the bundle holds."""
    import shutil

    from gitroute.bundle.extracts import CACHE_DIR

    shutil.rmtree(repo_path / ".git" / CACHE_DIR, ignore_errors=True)


def load_script(path: str):
    """A script of the project that is no module of the package (`bench/adversarial.py`), loaded as one."""
    file = Path(__file__).resolve().parent.parent / path
    spec = importlib.util.spec_from_file_location(file.stem, file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
