"""The only pygit2 importer: pinned snapshots, blob reads, bundle writes and compare-and-swap ref updates.

Everything is read by object id from one resolved commit, so replace refs (which pygit2 ignores)
and grafts (which only ever affect parent lookups, and are bypassed here by reading parents from
the raw commit object) cannot change what is indexed.
"""
from __future__ import annotations

import contextlib
import os
import re
import subprocess
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import IO, cast

import pygit2
from pygit2.enums import FileMode

from gitroute.errors import (
    WRITE_FAULTS,
    BuildRaceLost,
    BundleDamaged,
    CannotWrite,
    GitrouteError,
    LockFileInTheWay,
    NotARepository,
    UnknownRevision,
    cannot_write,
    write_fault,
)
from gitroute.git.env import git_env, stop_if_interrupted

Repository = pygit2.Repository  # the one repository type every layer above names
LFS_PREFIX = b"version https://git-lfs.github.com/spec/"
BINARY_PROBE = 8000  # git's own rule: a NUL byte in the first 8,000 bytes means binary
_REV_SUFFIX = re.compile(r"^(?P<base>.*?)(?P<ops>(?:[~^][0-9]*)*)$")
_LOCK_IN_THE_WAY = re.compile(r"Unable to create '(.+?\.lock)': File exists")
# A build of the same commit beside this one writes the same pack, and this fast-import fails on its `.keep` file:
# its objects arrive when that one finishes, waited for up to 0.05 s x (1 + ... + 12) = 3.9 s (4 tries, 0.5 s, lost
# the race on a loaded CI runner: tests/test_bundle.py's concurrent builds)
FAST_IMPORT_TRIES = 12


@dataclass(frozen=True, slots=True)
class Entry:
    """A regular file of the snapshot, not yet read."""

    path: str
    oid: str
    size: int
    source: int  # index into Snapshot.stores: 0 is the repository, others are submodules


@dataclass(frozen=True, slots=True)
class Skipped:
    path: str
    reason: str  # symlink, lfs-pointer, binary, too-large, submodule-missing, excluded, unreadable


@dataclass(frozen=True, slots=True)
class Submodule:
    path: str
    commit: str
    present: bool


@dataclass
class Snapshot:
    """The regular files of one commit (and of the submodules it pins), read by id only."""

    commit: str
    tree: str
    commit_time: int
    entries: list[Entry] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    submodules: list[Submodule] = field(default_factory=list)
    stores: list[pygit2.Repository] = field(default_factory=list)
    _pid: int = field(default_factory=os.getpid, repr=False)  # the process `stores` were opened in

    def read(self, entry: Entry) -> bytes:
        if self._pid != os.getpid():
            # A forked worker opens the stores again: a handle's packs and their file offsets are its parent's.
            self.stores = [pygit2.Repository(store.path) for store in self.stores]
            self._pid = os.getpid()
        return self.stores[entry.source].odb.read(pygit2.Oid(hex=entry.oid))[1]

def open_repository(path: str = ".") -> pygit2.Repository:
    """The repository git itself would use in `path`: GIT_DIR, GIT_WORK_TREE, worktrees and bare ones included.

    pygit2's discovery reads neither GIT_DIR nor GIT_WORK_TREE, so git is asked once, with the
    environment as given (`git --git-dir` reaches us as GIT_DIR, `git -C` as the current folder).
    """
    where = os.path.abspath(path)
    try:
        found = subprocess.run(["git", "rev-parse", "--absolute-git-dir"], cwd=where, capture_output=True,
                               env=git_env())
    except FileNotFoundError as err:
        raise GitrouteError("git is not on PATH") from err
    except NotADirectoryError as err:
        raise NotARepository(f"not a git repository: '{where}'") from err
    stop_if_interrupted(found.returncode)
    if found.returncode != 0:
        raise NotARepository(f"not a git repository: '{where}'", hint=_git_hint(found.stderr))
    return open_git_dir(found.stdout.decode("utf-8", "surrogateescape").rstrip("\n"))


def _git_hint(stderr: bytes) -> str | None:
    """git's own complaint, when it says more than "not a git repository" (safe.directory, a bad GIT_DIR)."""
    lines = stderr.decode("utf-8", "replace").strip().splitlines()
    last = lines[-1].removeprefix("fatal: ") if lines else ""
    return None if not last or last.startswith("not a git repository") else f"git says: {last}"


def open_git_dir(git_dir: str) -> pygit2.Repository:
    """A repository by its git dir, as `open_repository` found it."""
    try:
        return pygit2.Repository(git_dir)
    except pygit2.GitError as err:
        raise NotARepository(f"cannot open repository at '{git_dir}': {err}") from err


def common_dir(repo: pygit2.Repository) -> str:
    """The git dir shared by all worktrees (where `modules/` and refs live)."""
    git_dir = repo.path
    pointer = os.path.join(git_dir, "commondir")
    if os.path.isfile(pointer):
        with open(pointer, encoding="utf-8") as f:
            return os.path.normpath(os.path.join(git_dir, f.read().strip()))
    return os.path.normpath(git_dir)


def raw_parents(repo: pygit2.Repository, commit_id: str) -> list[str]:
    """Parents as written in the commit object itself: grafts and `.git/shallow` do not apply."""
    _, data = repo.odb.read(pygit2.Oid(hex=commit_id))
    parents = []
    for line in data.split(b"\n"):
        if not line:
            break
        if line.startswith(b"parent "):
            parents.append(line[7:].decode("ascii"))
    return parents


def resolve_commit(repo: pygit2.Repository, rev: str) -> str:
    """Resolve REV once to a commit id; `~N` and `^N` follow the raw parents, not grafts."""
    match = _REV_SUFFIX.match(rev)
    base, ops = (match.group("base"), match.group("ops")) if match and match.group("base") else (rev, "")
    if base == "HEAD" and repo.head_is_unborn:
        raise UnknownRevision("HEAD has no commits yet", hint="commit something, then run 'git route build'")
    try:
        obj = repo.revparse_single(base)
    except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError) as err:
        raise UnknownRevision(f"unknown revision '{rev}'", hint="name a commit, branch or tag") from err
    commit_id = _peel_to_commit(repo, obj, rev)
    for op in re.findall(r"[~^][0-9]*", ops):
        count = int(op[1:]) if len(op) > 1 else 1
        if op[0] == "~":
            for _ in range(count):
                parents = raw_parents(repo, commit_id)
                if not parents:
                    raise UnknownRevision(f"unknown revision '{rev}'", hint="that commit has no parent")
                commit_id = _present(repo, parents[0], rev)
        elif count:
            parents = raw_parents(repo, commit_id)
            if count > len(parents):
                raise UnknownRevision(f"unknown revision '{rev}'", hint=f"that commit has {len(parents)} parents")
            commit_id = _present(repo, parents[count - 1], rev)
    return commit_id


def _peel_to_commit(repo: pygit2.Repository, obj: pygit2.Object, rev: str) -> str:
    """The commit an object names, through tags; a tree or a blob (or a tag of one) is not a commit."""
    target = obj
    while isinstance(target, pygit2.Tag):
        try:
            target = repo[target.target]
        except KeyError as err:
            raise UnknownRevision(f"unknown revision '{rev}'", hint="the tag's object is missing") from err
    if not isinstance(target, pygit2.Commit):
        raise UnknownRevision(f"'{rev}' names a {target.type_str}, not a commit",
                              hint="name a commit, a branch, or a tag of a commit")
    return str(target.id)


def _present(repo: pygit2.Repository, commit_id: str, rev: str) -> str:
    """A parent that the object store holds; past a shallow clone's boundary, git too says unknown revision."""
    if pygit2.Oid(hex=commit_id) in repo.odb:
        return commit_id
    if os.path.isfile(os.path.join(common_dir(repo), "shallow")):
        hint = "this is a shallow clone without that commit; 'git fetch --unshallow' fetches the whole history"
    else:
        hint = f"commit {commit_id} is missing from the object store"
    raise UnknownRevision(f"unknown revision '{rev}'", hint=hint)


def _decode_name(raw: bytes) -> str:
    # Non-UTF-8 names stay printable and JSON-safe; `\xe9` reads as the byte it stands for.
    return raw.decode("utf-8", errors="backslashreplace")


def _parse_gitmodules(data: bytes) -> dict[str, str]:
    """path -> submodule name, from a .gitmodules blob (git-config syntax, read as data)."""
    names: dict[str, str] = {}
    current: str | None = None
    for raw_line in data.decode("utf-8", errors="replace").splitlines():
        line = raw_line.strip()
        header = re.match(r'^\[submodule\s+"(.+)"\]$', line)
        if header:
            current = header.group(1)
            continue
        if line.startswith("["):
            current = None
            continue
        key, sep, value = line.partition("=")
        if current and sep and key.strip().lower() == "path":
            names[value.strip().strip('"')] = current
    return names


def snapshot_at(
    repo: pygit2.Repository,
    commit_id: str,
    *,
    max_file_bytes: int,
    excluded: Callable[[str], object] = lambda path: False,
    fetch: bool = True,
) -> Snapshot:
    """List the regular files of a commit and of the submodules it pins, classifying what is skipped.

    Blobs the object store lacks (a partial clone) are fetched from its promisor remote in one
    batch first, unless `fetch` is False; those still missing are skipped as `missing`.
    """
    commit = repo[pygit2.Oid(hex=commit_id)].peel(pygit2.Commit)
    snap = Snapshot(commit=commit_id, tree=str(commit.tree_id), commit_time=commit.commit_time, stores=[repo])
    _walk(snap, repo, 0, commit.tree_id, "", max_file_bytes, excluded, fetch)
    snap.entries.sort(key=lambda e: e.path)
    snap.skipped.sort(key=lambda s: (s.path, s.reason))
    snap.submodules.sort(key=lambda s: s.path)
    return snap


def _walk(
    snap: Snapshot,
    repo: pygit2.Repository,
    source: int,
    tree_id: pygit2.Oid,
    prefix: str,
    max_file_bytes: int,
    excluded: Callable[[str], object],
    fetch: bool,
) -> None:
    stack: list[tuple[pygit2.Oid, str]] = [(tree_id, prefix)]
    gitlinks: list[tuple[str, str]] = []
    blobs: list[tuple[str, pygit2.Oid]] = []
    gitmodules_id: pygit2.Oid | None = None
    while stack:
        oid, base = stack.pop()
        if fetch and oid not in repo.odb:  # a tree-filtered clone: the tree and those below it, no blobs
            fetch_missing(repo, [str(oid)])
        try:
            tree = repo[oid].peel(pygit2.Tree)
        except KeyError:
            snap.skipped.append(Skipped(base.rstrip("/") or ".", "missing"))
            continue
        for item in tree:
            path = base + _decode_name(item.raw_name or b"")
            mode = item.filemode
            if mode == FileMode.TREE:
                stack.append((item.id, path + "/"))
            elif mode == FileMode.COMMIT:
                gitlinks.append((path, str(item.id)))
            elif mode == FileMode.LINK:
                snap.skipped.append(Skipped(path, "symlink"))
            elif mode in (FileMode.BLOB, FileMode.BLOB_EXECUTABLE):
                if excluded(path):
                    snap.skipped.append(Skipped(path, "excluded"))
                    continue
                blobs.append((path, item.id))
                if base == prefix and item.raw_name == b".gitmodules":
                    gitmodules_id = item.id
            else:
                snap.skipped.append(Skipped(path, "unreadable"))
    if fetch:
        fetch_missing(repo, [str(oid) for _, oid in blobs if oid not in repo.odb])
    gitmodules: bytes | None = None
    for path, oid in blobs:
        try:
            _, size = repo.odb.read_header(oid)
        except (KeyError, pygit2.GitError):  # not in the store, even after the fetch
            snap.skipped.append(Skipped(path, "missing"))
            continue
        if size > max_file_bytes:
            snap.skipped.append(Skipped(path, "too-large"))
            continue
        snap.entries.append(Entry(path, str(oid), size, source))
        if oid == gitmodules_id:
            gitmodules = repo.odb.read(oid)[1]
    names = _parse_gitmodules(gitmodules) if gitmodules else {}
    for path, sub_commit in sorted(gitlinks):
        relative = path[len(prefix):]
        store = _open_submodule_store(repo, names.get(relative, relative), sub_commit)
        snap.submodules.append(Submodule(path, sub_commit, store is not None))
        if store is None:
            snap.skipped.append(Skipped(path, "submodule-missing"))
            continue
        snap.stores.append(store)
        sub_tree = store[pygit2.Oid(hex=sub_commit)].peel(pygit2.Commit).tree_id
        _walk(snap, store, len(snap.stores) - 1, sub_tree, path + "/", max_file_bytes, excluded, fetch)


# --- partial clones ------------------------------------------------------------------------


def promisor_remotes(repo: pygit2.Repository) -> list[str]:
    """The remotes that promise the objects a partial clone lacks, in git's order of asking."""
    config = repo.config
    names: list[str] = []
    try:
        first = config["extensions.partialClone"]
    except KeyError:
        first = None
    if first:
        names.append(first)
    for entry in config:
        key = entry.name
        if key.startswith("remote.") and key.lower().endswith(".promisor"):
            name = key[len("remote."):-len(".promisor")]
            if name not in names and _is_true(entry.value):
                names.append(name)
    return names


def _is_true(value: str | None) -> bool:
    return value is None or value.strip().lower() in ("true", "yes", "on", "1")


def fetch_missing(repo: pygit2.Repository, object_ids: list[str]) -> None:
    """Fetch objects the store lacks from its promisor remotes in one batch, as git's own lazy fetch does.

    Does nothing outside a partial clone; a fetch that fails leaves the objects missing, and the
    caller says which ones.
    """
    if not object_ids:
        return
    pending = sorted(set(object_ids))
    for remote in promisor_remotes(repo):
        # promisor-remote.c's command: no negotiation, no tags, no FETCH_HEAD, and the ids on stdin.
        subprocess.run(
            ["git", "-c", "fetch.negotiationAlgorithm=noop", "fetch", "--quiet", "--no-tags",
             "--no-write-fetch-head", "--recurse-submodules=no", "--filter=blob:none", "--stdin",
             "--end-of-options", remote],
            input="".join(f"{oid}\n" for oid in pending).encode("ascii"),
            capture_output=True,
            env=git_env(repo.path),
        )
        pending = [oid for oid in pending if pygit2.Oid(hex=oid) not in repo.odb]
        if not pending:
            return


def _open_submodule_store(repo: pygit2.Repository, name: str, commit_id: str) -> pygit2.Repository | None:
    """The submodule's own object store (`<common git dir>/modules/<name>`) if it holds the pinned commit."""
    candidate = os.path.join(common_dir(repo), "modules", name)
    if not os.path.isdir(candidate):
        return None
    try:
        store = pygit2.Repository(candidate)
        obj = store.get(pygit2.Oid(hex=commit_id))
    except (pygit2.GitError, ValueError, KeyError):
        return None
    return store if isinstance(obj, pygit2.Commit) else None


def classify_content(data: bytes) -> str | None:
    """Why a blob is not source (lfs-pointer, binary), or None when it is text to index."""
    if data.startswith(LFS_PREFIX):
        return "lfs-pointer"
    if b"\0" in data[:BINARY_PROBE]:
        return "binary"
    return None


# --- the bundle: reads ---------------------------------------------------------------------


def ref_target(repo: pygit2.Repository, ref: str) -> str | None:
    try:
        return str(repo.references[ref].resolve().target)
    except (KeyError, pygit2.GitError):
        return None


_TYPE_NAMES = {1: "commit", 2: "tree", 3: "blob", 4: "tag"}


def read_object(repo: pygit2.Repository, oid: str) -> tuple[str, bytes] | None:
    """(type, content) of an object by id; None when the object database lacks it or cannot read it."""
    try:
        kind, data = repo.odb.read(pygit2.Oid(hex=oid))
    except (KeyError, ValueError, pygit2.GitError):
        return None
    return _TYPE_NAMES.get(int(kind), "unknown object"), data


def read_tree_entries(repo: pygit2.Repository, commit_id: str, paths: list[str]) -> dict[str, tuple[str, bytes]]:
    """(blob id, content) by path from a commit's tree; paths that are absent or unreadable are left out."""
    tree = repo[pygit2.Oid(hex=commit_id)].peel(pygit2.Tree)
    found: dict[str, tuple[str, bytes]] = {}
    for path in paths:
        try:
            item = tree[path]
            if not isinstance(item, pygit2.Blob):
                continue
            found[path] = (str(item.id), item.data)
        except (KeyError, pygit2.GitError):  # a blob the object database lacks: a damaged bundle
            continue
    return found


def list_tree_blobs(repo: pygit2.Repository, commit_id: str) -> dict[str, str]:
    """Path -> blob id of every blob under a commit's tree, without reading one; {} when it is unreadable."""
    found: dict[str, str] = {}
    try:
        stack: list[tuple[pygit2.Tree, str]] = [(repo[pygit2.Oid(hex=commit_id)].peel(pygit2.Tree), "")]
        while stack:
            tree, base = stack.pop()
            for entry in tree:
                if isinstance(entry, pygit2.Tree):
                    stack.append((entry, f"{base}{entry.name}/"))
                elif entry.type_str == "blob":
                    found[f"{base}{entry.name}"] = str(entry.id)
    except (KeyError, ValueError, pygit2.GitError):  # a damaged bundle proves nothing is stored
        return {}
    return found


def regular_files(repo: pygit2.Repository, commit_id: str) -> Iterator[tuple[str, bytes]]:
    """(path, content) of every regular file of a commit's tree (no links, no submodules), by path; blobs the
    object database lacks are left out. For baselines that read every file as it is (the bench's whole-file BM25)."""
    stack: list[tuple[pygit2.Tree, str]] = [(repo[pygit2.Oid(hex=commit_id)].peel(pygit2.Tree), "")]
    found: list[tuple[str, pygit2.Oid]] = []
    while stack:
        tree, base = stack.pop()
        for entry in tree:
            path = base + _decode_name(entry.raw_name or b"")
            if entry.filemode == FileMode.TREE:
                stack.append((repo[entry.id].peel(pygit2.Tree), path + "/"))
            elif entry.filemode in (FileMode.BLOB, FileMode.BLOB_EXECUTABLE):
                found.append((path, entry.id))
    for path, oid in sorted(found):
        try:
            yield path, repo.odb.read(oid)[1]
        except (KeyError, pygit2.GitError):
            continue


# --- the bundle: writes --------------------------------------------------------------------


def write_blobs(repo: pygit2.Repository, blobs: Mapping[str, bytes]) -> dict[str, str]:
    """Store blobs as one pack through `git fast-import`; returns path -> blob id.

    pygit2 would write one loose object per blob; a build writes hundreds, so they go in a pack.
    Blobs already in the object database are not written again.
    """
    ids = {path: str(pygit2.hash(data)) for path, data in blobs.items()}
    missing: dict[str, bytes] = {}
    for path, data in blobs.items():
        if ids[path] not in missing and pygit2.Oid(hex=ids[path]) not in repo.odb:
            missing[ids[path]] = data
    if missing:
        chunks: list[bytes] = [b"feature done\n"]
        for oid in sorted(missing):
            data = missing[oid]
            chunks.append(b"blob\ndata %d\n" % len(data))
            chunks.append(data)
            chunks.append(b"\n")
        chunks.append(b"done\n")
        stream = b"".join(chunks)
        for attempt in range(FAST_IMPORT_TRIES):
            result = _fast_import(repo, stream)
            stop_if_interrupted(result.returncode)
            # Two builds of one commit write byte-identical packs; the second fast-import then
            # fails to create the same `.keep` file. The objects arrive when the first finishes.
            if result.returncode == 0 or _all_stored(repo, missing):
                break
            reason = _fast_import_reason(result.stderr)
            fault = write_fault(reason)
            if fault is not None:  # a full disk or a read-only store: trying again changes nothing
                raise _cannot_write_objects(repo, fault)
            time.sleep(0.05 * (attempt + 1))
        else:
            raise GitrouteError(f"cannot write the bundle's objects: {reason}")
    return ids


class BlobStream:
    """Blobs written as they come, into one pack through one `git fast-import`: a build hands over each
    extraction shard as soon as it is complete, and keeps none of them. `add` returns the blob's id;
    `close` waits for the pack (a context manager: a failure on the way kills fast-import, nothing stays)."""

    def __init__(self, repo: pygit2.Repository) -> None:
        self.repo = repo
        self.ids: dict[str, str] = {}  # path -> blob id
        self.sent: set[str] = set()
        self._proc: subprocess.Popen | None = None
        self._before: set[str] = set()  # the pack temporaries there were when fast-import started

    def add(self, path: str, data: bytes) -> str:
        oid = str(pygit2.hash(data))
        self.ids[path] = oid
        if oid not in self.sent and pygit2.Oid(hex=oid) not in self.repo.odb:
            self.sent.add(oid)
            stdin = self._stdin()
            try:
                stdin.write(b"blob\ndata %d\n" % len(data))
                stdin.write(data)
                stdin.write(b"\n")
            except BrokenPipeError:
                self.close()  # fast-import died: raises what it died of
                raise
        return oid

    def _stdin(self) -> IO[bytes]:
        if self._proc is None:
            self._before = _pack_temporaries(self.repo)
            self._proc = subprocess.Popen(_FAST_IMPORT_ARGS, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                          stderr=subprocess.PIPE, env=git_env(self.repo.path))
            assert self._proc.stdin is not None
            self._proc.stdin.write(b"feature done\n")
        assert self._proc.stdin is not None
        return self._proc.stdin

    def close(self) -> dict[str, str]:
        """Wait for the pack; returns path -> blob id of every blob added."""
        proc, self._proc = self._proc, None
        if proc is None:
            return self.ids
        assert proc.stdin is not None and proc.stderr is not None
        try:
            proc.stdin.write(b"done\n")
            proc.stdin.close()
        except BrokenPipeError:
            pass  # fast-import stopped early: its stderr says why
        stderr = proc.stderr.read()
        proc.wait()
        stop_if_interrupted(proc.returncode)
        if proc.returncode != 0:
            _remove_fast_import_leftovers(self.repo, proc.pid, stderr, self._before)
            reason = _fast_import_reason(stderr)
            fault = write_fault(reason)
            if fault is not None:  # a full disk or a read-only store: no other build brings the objects
                raise _cannot_write_objects(self.repo, fault)
            # A build of the same commit beside this one writes the same pack (see `write_blobs`): its objects
            # arrive when it finishes.
            for attempt in range(FAST_IMPORT_TRIES):
                if _all_stored(self.repo, dict.fromkeys(self.sent, b"")):
                    return self.ids
                time.sleep(0.05 * (attempt + 1))
            raise GitrouteError(f"cannot write the bundle's objects: {reason}")
        return self.ids

    def __enter__(self) -> BlobStream:
        return self

    def __exit__(self, kind: object, *rest: object) -> None:
        if kind is not None and self._proc is not None:  # as `_fast_import` does: no pack comes of a failed build
            self._proc.kill()  # killed, it names none of what it leaves: the pack temporaries that appeared go
            self._proc.wait()
            _remove_fast_import_leftovers(self.repo, self._proc.pid, b"", self._before)
            self._proc = None


def stored_objects(repo: pygit2.Repository, object_ids: Iterable[str]) -> set[str]:
    """The ids among these that the object database holds (an unreadable id is not held)."""
    odb = repo.odb
    held = set()
    for object_id in object_ids:
        try:
            if pygit2.Oid(hex=object_id) in odb:
                held.add(object_id)
        except ValueError:
            continue
    return held


# git's own zlib level and no delta search: a fetch sends the objects as they are stored (pack-objects reuses
# them), so the level written here is what every clone downloads; level 1 left the bundle 8 % larger for a
# saving of 0.3 s of CPU on django's 24 MB (docs/decisions/0025, its second amendment). Delta search costs
# more time than it saves space on blobs a build writes fresh.
# Always a pack, however few the blobs: a build should never scatter loose objects. (git 2.39 still
# unpacks a single object with unpackLimit=1, as when an index adds one new blob; 0 never unpacks.)
_FAST_IMPORT_ARGS = ["git", "-c", "pack.compression=6", "-c", "fastimport.unpackLimit=0", "fast-import", "--quiet",
                     "--done", "--big-file-threshold=1k"]


def _fast_import(repo: pygit2.Repository, stream: bytes) -> subprocess.CompletedProcess:
    """Run `git fast-import` on `stream`; whatever it leaves when it dies (a crash report, a partial pack) is removed.

    fast-import writes `<git dir>/fast_import_crash_<pid>` whenever it dies, and no option turns that off; a
    full disk also leaves the pack it was writing, which holds the space the next build needs.
    """
    args = _FAST_IMPORT_ARGS
    before = _pack_temporaries(repo)
    with subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env=git_env(repo.path)) as proc:
        try:
            stdout, stderr = proc.communicate(stream)
        except BaseException:  # as subprocess.run does: no fast-import outlives an interrupt (killed: no report)
            proc.kill()
            raise
    if proc.returncode != 0:
        _remove_fast_import_leftovers(repo, proc.pid, stderr, before)
    return subprocess.CompletedProcess(args, proc.returncode, stdout, stderr)


_PARTIAL_PACK = re.compile(r"'([^'\n]*/objects/pack/tmp_(?:pack|idx)_[^'/\n]+)'")


def _pack_temporaries(repo: pygit2.Repository) -> set[str]:
    """The temporary files of packs being written (`tmp_pack_*`, `tmp_idx_*`) in the object store, by path."""
    folder = os.path.join(common_dir(repo), "objects", "pack")
    try:
        return {os.path.join(folder, name) for name in os.listdir(folder) if name.startswith(("tmp_pack_", "tmp_idx_"))}
    except OSError:
        return set()


def _remove_fast_import_leftovers(repo: pygit2.Repository, pid: int, stderr: bytes, before: set[str]) -> None:
    """The crash report of the fast-import `pid`, the partial pack or index its message names, and the pack
    temporaries that appeared while it ran (a full disk while it writes the index leaves the finished pack's
    `tmp_pack_*` unnamed beside the `tmp_idx_*` it names)."""
    leftovers = [os.path.join(repo.path, f"fast_import_crash_{pid}")]
    leftovers += _PARTIAL_PACK.findall(stderr.decode("utf-8", "surrogateescape"))
    leftovers += sorted(_pack_temporaries(repo) - before)
    for path in leftovers:
        with contextlib.suppress(OSError):
            os.unlink(path)


def _fast_import_reason(stderr: bytes) -> str:
    """What fast-import died of: its first `fatal:` line, not the crash report it announces last."""
    lines = stderr.decode("utf-8", "replace").strip().splitlines()
    fatal = next((line.removeprefix("fatal: ") for line in lines if line.startswith("fatal: ")), None)
    return fatal or (lines[-1] if lines else "git fast-import failed")


def _cannot_write_objects(repo: pygit2.Repository, fault: str) -> CannotWrite:
    return cannot_write(os.path.join(common_dir(repo), "objects"), fault,
                        hint=f"{WRITE_FAULTS[fault]}; the bundle ref was not moved")


def _all_stored(repo: pygit2.Repository, blobs: Mapping[str, bytes]) -> bool:
    """True when every blob id of `blobs` (id -> data) is readable from the object database."""
    fresh = pygit2.Repository(repo.path)  # a new handle sees packs written since ours opened
    return all(pygit2.Oid(hex=oid) in fresh.odb for oid in blobs)


def write_tree(repo: pygit2.Repository, blob_ids: Mapping[str, str]) -> str:
    """Build the (few) trees over already-stored blobs; path -> blob id, `/`-separated."""
    nested: dict = {}
    for path, oid in blob_ids.items():
        node = nested
        *folders, name = path.split("/")
        for folder in folders:
            node = node.setdefault(folder, {})
        node[name] = oid

    def build(node: dict) -> pygit2.Oid:
        builder = repo.TreeBuilder()
        for name in sorted(node):
            value = node[name]
            if isinstance(value, dict):
                builder.insert(name, build(value), FileMode.TREE)
            else:
                builder.insert(name, pygit2.Oid(hex=value), FileMode.BLOB)
        return builder.write()

    with _writing_objects(repo):
        return str(build(nested))


def write_commit(repo: pygit2.Repository, tree_id: str, message: str, when: int) -> str:
    """A parentless commit with a fixed identity and time: the same tree gives the same commit id."""
    signature = pygit2.Signature("gitroute", "gitroute@invalid", when, 0)
    # pygit2's stub says Oid; it returns the commit's text
    raw = cast(str, repo.create_commit_string(signature, signature, message, pygit2.Oid(hex=tree_id), []))
    # Written through the object database, not `create_commit`: on a full disk pygit2 1.21's create_commit
    # returns the id of a commit it never stored, where odb.write raises.
    with _writing_objects(repo):
        return str(repo.odb.write(pygit2.enums.ObjectType.COMMIT, raw))


@contextlib.contextmanager
def _writing_objects(repo: pygit2.Repository) -> Iterator[None]:
    """libgit2's failure to write an object, when a full disk or a read-only store caused it, as that fatal."""
    try:
        yield
    except (OSError, pygit2.GitError) as err:
        fault = write_fault(str(err))
        if fault is None:
            raise
        raise _cannot_write_objects(repo, fault) from err


def swap_ref(repo: pygit2.Repository, ref: str, new: str, old: str | None) -> None:
    """Move `ref` from `old` (None: must not exist) to `new` in one compare-and-swap, or fail.

    `old` is whatever the ref held, perhaps a fetched or damaged value: both ids are checked to be
    full object ids, and `--end-of-options` keeps any of the three from being read as an option.
    """
    length = 64 if len(new) == 64 else 40  # sha256 or sha1 repositories
    zero = "0" * length  # "the ref must not exist yet"
    for value in (new, old or zero):
        if len(value) != length or value.strip("0123456789abcdef"):
            raise GitrouteError(f"cannot move '{ref}': {value!r} is not a full object id")
    if not ref.startswith("refs/"):
        raise GitrouteError(f"cannot move '{ref}': not a ref under refs/")
    result = subprocess.run(
        ["git", "update-ref", "-m", "gitroute build", "--end-of-options", ref, new, old or zero],
        capture_output=True,
        env=git_env(repo.path),
    )
    stop_if_interrupted(result.returncode)
    if result.returncode != 0:
        stderr = result.stderr.decode("utf-8", "replace")
        unwritten = _UNWRITTEN.search(stderr)
        path = os.path.normpath(unwritten.group(1)) if unwritten else os.path.join(common_dir(repo), *ref.split("/"))
        fault = write_fault(stderr) or (_disk_full(path) if unwritten else None)
        if fault is not None:
            raise cannot_write(path, fault, hint=f"{WRITE_FAULTS[fault]}; '{ref}' was not moved")
        lock = _LOCK_IN_THE_WAY.search(stderr)
        if lock:
            raise LockFileInTheWay(
                f"a lock file is in the way: '{os.path.normpath(lock.group(1))}'",
                hint="if no other git process is running in this repository, remove it and run 'git route build'"
                     " again",
            )
        if "reference broken" in stderr:
            # git can neither read nor delete a ref file holding garbage; only a person can.
            path = os.path.join(common_dir(repo), *ref.split("/"))
            raise BundleDamaged(ref, "git cannot read the ref itself",
                                hint=f"git refuses to delete a broken ref: remove '{path}', then run 'git route build'")
        raise BuildRaceLost(
            f"another build moved '{ref}' while this one ran; its bundle is kept",
            hint="run 'git route build' again to rebuild on top of it",
        )


# git 2.39 says that it could not write a ref's lock file or log, but not why.
_UNWRITTEN = re.compile(r"(?:couldn't write|unable to append to) '(.+?)'")


def _disk_full(path: str) -> str | None:
    """"No space left on device" when the file system holding `path` has (next to) no block left for us."""
    try:
        stat = os.statvfs(os.path.dirname(path) or ".")
    except OSError:
        return None
    return "No space left on device" if stat.f_bavail * stat.f_frsize < 8192 else None


def read_commit_file(repo: pygit2.Repository, commit_id: str, path: str, *, fetch: bool = True) -> bytes | None:
    """A regular file of a commit by path (symlinks and folders count as absent).

    A blob the store lacks is fetched from a promisor remote (unless `fetch` is False); one that
    is still missing is an error, since guessing its content would change what is built.
    """
    tree_id = repo[pygit2.Oid(hex=commit_id)].peel(pygit2.Commit).tree_id
    if fetch and tree_id not in repo.odb:  # a tree-filtered clone: its trees come first
        fetch_missing(repo, [str(tree_id)])
    try:
        item = repo[tree_id].peel(pygit2.Tree)[path]
    except KeyError as err:
        if tree_id in repo.odb:
            return None
        raise GitrouteError(f"cannot read the tree of commit {commit_id[:12]}: tree {tree_id} is missing",
                            hint="fetch it ('git fetch'), or build in a clone that has it") from err
    if item.filemode not in (FileMode.BLOB, FileMode.BLOB_EXECUTABLE):
        return None
    if fetch and item.id not in repo.odb:
        fetch_missing(repo, [str(item.id)])
    try:
        return repo.odb.read(item.id)[1]
    except (KeyError, pygit2.GitError) as err:
        raise GitrouteError(
            f"cannot read '{path}' of commit {commit_id[:12]}: its blob {item.id} is missing",
            hint="fetch it ('git fetch'), or build in a clone that has it" if not fetch or not promisor_remotes(repo)
            else "the promisor remote did not send it; check 'git fetch' works",
        ) from err
