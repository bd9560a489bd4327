"""The only pygit2 importer: pinned snapshots, blob reads, bundle writes and compare-and-swap ref updates.

Everything is read by object id from one resolved commit, so replace refs (which pygit2 ignores)
and grafts (which only ever affect parent lookups, and are bypassed here by reading parents from
the raw commit object) cannot change what is indexed.
"""
from __future__ import annotations

import os
import re
import subprocess
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

import pygit2
from pygit2.enums import FileMode

from gitroute.errors import (
    BuildRaceLost,
    BundleDamaged,
    GitrouteError,
    LockFileInTheWay,
    NotARepository,
    UnknownRevision,
)

Repository = pygit2.Repository  # the one repository type every layer above names
LFS_PREFIX = b"version https://git-lfs.github.com/spec/"
BINARY_PROBE = 8000  # git's own rule: a NUL byte in the first 8,000 bytes means binary
_REV_SUFFIX = re.compile(r"^(?P<base>.*?)(?P<ops>(?:[~^][0-9]*)*)$")
_LOCK_IN_THE_WAY = re.compile(r"Unable to create '(.+?\.lock)': File exists")
FAST_IMPORT_TRIES = 4


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

    def read(self, entry: Entry) -> bytes:
        return self.stores[entry.source].odb.read(pygit2.Oid(hex=entry.oid))[1]

def open_repository(path: str = ".") -> pygit2.Repository:
    found = pygit2.discover_repository(os.path.abspath(path))
    if found is None:
        raise NotARepository(f"not a git repository: '{os.path.abspath(path)}'")
    try:
        return pygit2.Repository(found)
    except pygit2.GitError as err:
        raise NotARepository(f"cannot open repository at '{found}': {err}") from err


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
        commit = obj.peel(pygit2.Commit)
    except (KeyError, ValueError, pygit2.GitError, pygit2.InvalidSpecError) as err:
        raise UnknownRevision(f"unknown revision '{rev}'", hint="name a commit, branch or tag") from err
    commit_id = str(commit.id)
    for op in re.findall(r"[~^][0-9]*", ops):
        count = int(op[1:]) if len(op) > 1 else 1
        if op[0] == "~":
            for _ in range(count):
                parents = raw_parents(repo, commit_id)
                if not parents:
                    raise UnknownRevision(f"unknown revision '{rev}'", hint="that commit has no parent")
                commit_id = parents[0]
        elif count:
            parents = raw_parents(repo, commit_id)
            if count > len(parents):
                raise UnknownRevision(f"unknown revision '{rev}'", hint=f"that commit has {len(parents)} parents")
            commit_id = parents[count - 1]
    return commit_id


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
    excluded: Callable[[str], bool] = lambda path: False,
) -> Snapshot:
    """List the regular files of a commit and of the submodules it pins, classifying what is skipped."""
    commit = repo[pygit2.Oid(hex=commit_id)]
    snap = Snapshot(commit=commit_id, tree=str(commit.tree_id), commit_time=commit.commit_time, stores=[repo])
    _walk(snap, repo, 0, commit.tree_id, "", max_file_bytes, excluded)
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
    excluded: Callable[[str], bool],
) -> None:
    stack: list[tuple[pygit2.Oid, str]] = [(tree_id, prefix)]
    gitlinks: list[tuple[str, str]] = []
    gitmodules: bytes | None = None
    while stack:
        oid, base = stack.pop()
        for item in repo[oid]:
            path = base + _decode_name(item.raw_name)
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
                _, size = repo.odb.read_header(item.id)
                if size > max_file_bytes:
                    snap.skipped.append(Skipped(path, "too-large"))
                    continue
                snap.entries.append(Entry(path, str(item.id), size, source))
                if base == prefix and item.raw_name == b".gitmodules":
                    gitmodules = repo.odb.read(item.id)[1]
            else:
                snap.skipped.append(Skipped(path, "unreadable"))
    names = _parse_gitmodules(gitmodules) if gitmodules else {}
    for path, sub_commit in sorted(gitlinks):
        relative = path[len(prefix):]
        store = _open_submodule_store(repo, names.get(relative, relative), sub_commit)
        snap.submodules.append(Submodule(path, sub_commit, store is not None))
        if store is None:
            snap.skipped.append(Skipped(path, "submodule-missing"))
            continue
        snap.stores.append(store)
        sub_tree = store[pygit2.Oid(hex=sub_commit)].tree_id
        _walk(snap, store, len(snap.stores) - 1, sub_tree, path + "/", max_file_bytes, excluded)


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


def read_tree_blobs(repo: pygit2.Repository, commit_id: str, paths: list[str]) -> dict[str, bytes]:
    """Blobs by path from a commit's tree; paths that are absent are left out."""
    return {path: data for path, (_, data) in read_tree_entries(repo, commit_id, paths).items()}


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


# --- the bundle: writes --------------------------------------------------------------------


def _git_env(repo: pygit2.Repository) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_DIR=repo.path, GIT_NO_REPLACE_OBJECTS="1")
    return env


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
            # Two builds of one commit write byte-identical packs; the second fast-import then
            # fails to create the same `.keep` file. The objects arrive when the first finishes.
            if result.returncode == 0 or _all_stored(repo, missing):
                break
            time.sleep(0.05 * (attempt + 1))
        else:
            message = result.stderr.decode("utf-8", "replace").strip().splitlines()
            reason = message[-1] if message else "git fast-import failed"
            raise GitrouteError(f"cannot write the bundle's objects: {reason}")
    return ids


def _fast_import(repo: pygit2.Repository, stream: bytes) -> subprocess.CompletedProcess:
    # Fast zlib and no delta search: a bundle is rewritten often and mostly of fresh JSON,
    # where both cost more time than they save space (the pack git sends is recomputed anyway).
    # Always a pack, however few the blobs: a build should never scatter loose objects. With a limit of 1,
    # git 2.39 still unpacks a one-object import (an index that writes only its meta.json); 0 never does.
    return subprocess.run(
        ["git", "-c", "pack.compression=1", "-c", "fastimport.unpackLimit=0", "fast-import", "--quiet", "--done",
         "--big-file-threshold=1k"],
        input=stream,
        capture_output=True,
        env=_git_env(repo),
    )


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

    return str(build(nested))


def write_commit(repo: pygit2.Repository, tree_id: str, message: str, when: int) -> str:
    """A parentless commit with a fixed identity and time: the same tree gives the same commit id."""
    signature = pygit2.Signature("gitroute", "gitroute@invalid", when, 0)
    return str(repo.create_commit(None, signature, signature, message, pygit2.Oid(hex=tree_id), []))


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
        env=_git_env(repo),
    )
    if result.returncode != 0:
        stderr = result.stderr.decode("utf-8", "replace")
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


def read_commit_file(repo: pygit2.Repository, commit_id: str, path: str) -> bytes | None:
    """A regular file of a commit by path (symlinks and folders count as absent)."""
    tree = repo[pygit2.Oid(hex=commit_id)].peel(pygit2.Tree)
    try:
        item = tree[path]
    except KeyError:
        return None
    if item.filemode not in (FileMode.BLOB, FileMode.BLOB_EXECUTABLE):
        return None
    return repo.odb.read(item.id)[1]
