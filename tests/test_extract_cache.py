"""The extraction cache beside the bundle: decoded results that a rebuild takes instead of the bundle's JSON."""
from __future__ import annotations

import marshal
import os
from pathlib import Path

from gitroute.build import run_build
from gitroute.bundle import extracts
from gitroute.bundle.extracts import CACHE_DIR, load_result, packed_result
from gitroute.bundle.layout import decode_result, dump_json, encode_result, load_json
from gitroute.model import Document, FileExtract, NameRef, Symbol, Token
from tests.conftest import RepoBuilder
from tests.test_incremental import BASE, STEPS


def _cache_files(repo: RepoBuilder) -> list[Path]:
    return sorted((repo.path / ".git" / CACHE_DIR).glob("*.marshal"))


def _cached_entries(repo: RepoBuilder) -> dict[str, bytes]:
    entries: dict[str, bytes] = {}
    for cache_file in _cache_files(repo):
        _salt, _level, shards = marshal.loads(cache_file.read_bytes())
        for shard in shards.values():
            entries.update(shard)
    return entries


def test_a_cached_result_is_the_decoded_one_and_round_trips_through_the_json_encoding(tmp_path: Path) -> None:
    repo = RepoBuilder(tmp_path / "r")
    repo.commit(BASE)
    run_build("HEAD", repo_path=str(repo.path), jobs=1)
    kinds = set()
    for key, value in _cached_entries(repo).items():
        again = load_result(value)  # kept as `packed_result`'s bytes
        result = load_json(dump_json(encode_result(again)))
        decoded = decode_result(again[1].path if again[0] == "doc" else "docs/api.rst", result)
        assert again == decoded and load_result(packed_result(decoded)) == again, key
        kinds.add(again[0])
        if again[0] == "code":
            x = again[1]
            assert type(x) is FileExtract and all(type(s) is Symbol for s in x.symbols)
            assert all(type(r) is NameRef for r in (*x.imports, *x.references, *x.bases))
            # Calls stay plain tuples of a NameRef's four fields: equal to the decoded NameRefs (above).
            assert all(type(r) is tuple and len(r) == len(NameRef._fields) for r in x.calls)
        elif again[0] == "doc":
            d = again[1]
            assert type(d) is Document and all(type(t) is Token for b in d.blocks for t in b.tokens)
    assert {"code", "doc"} <= kinds


def test_a_rebuild_takes_its_extractions_from_the_cache_without_the_bundle(tmp_path: Path) -> None:
    repo = RepoBuilder(tmp_path / "r")
    repo.commit(BASE)
    first = run_build("HEAD", repo_path=str(repo.path), jobs=1)
    assert _cache_files(repo), "the build wrote no extraction cache"
    repo.git("update-ref", "-d", "refs/marola/routing-bundle")  # no previous bundle to reuse from
    repo.commit(STEPS["add_function"](BASE))
    second = run_build("HEAD", repo_path=str(repo.path), jobs=1)
    assert second.parsed == 1, "the unchanged files were parsed again"
    full = run_build("HEAD", repo_path=str(repo.path), jobs=1, full=True)
    assert second.bundle_tree == full.bundle_tree != first.bundle_tree


def test_a_damaged_or_foreign_cache_file_is_no_cache(tmp_path: Path) -> None:
    for damage in ("bytes", "salt", "level"):
        repo = RepoBuilder(tmp_path / damage)
        repo.commit(BASE)
        run_build("HEAD", repo_path=str(repo.path), jobs=1)
        for path in _cache_files(repo):
            salt, level, shards = marshal.loads(path.read_bytes())
            path.write_bytes(b"\xffnot marshal" if damage == "bytes" else marshal.dumps(
                ("other code", level, shards) if damage == "salt" else (salt, level + 1, shards)))
        repo.git("update-ref", "-d", "refs/marola/routing-bundle")
        repo.commit(STEPS["add_function"](BASE))
        rebuilt = run_build("HEAD", repo_path=str(repo.path), jobs=1)
        assert rebuilt.parsed > 1, f"a cache file with other {damage} was read"
        assert rebuilt.bundle_tree == run_build("HEAD", repo_path=str(repo.path), jobs=1, full=True).bundle_tree


def test_full_reads_no_cache(tmp_path: Path) -> None:
    """The cache is trusted as this repository's own (like the memo); `--full` does not read it."""
    repo = RepoBuilder(tmp_path / "r")
    repo.commit(BASE)
    sound = run_build("HEAD", repo_path=str(repo.path), jobs=1, full=True).bundle_tree
    for path in _cache_files(repo):
        salt, level, shards = marshal.loads(path.read_bytes())
        planted = {shard: {key: packed_result(("skip", "planted")) for key in entries}
                   for shard, entries in shards.items()}
        path.write_bytes(marshal.dumps((salt, level, planted)))
    assert run_build("HEAD", repo_path=str(repo.path), jobs=1, full=True).bundle_tree == sound


def _names(repo: RepoBuilder) -> list[str]:
    return [path.name for path in _cache_files(repo)]


def test_a_small_commit_is_cached_in_few_files_and_a_large_one_a_file_a_shard(tmp_path: Path, monkeypatch) -> None:
    repo = RepoBuilder(tmp_path / "r")
    repo.commit(BASE)
    run_build("HEAD", repo_path=str(repo.path), jobs=1)
    assert _names(repo) == ["0-00.marshal"]  # a few KB of source: one file
    monkeypatch.setattr(extracts, "SOURCE_BYTES_PER_FILE", 1)  # every commit is large
    run_build("HEAD", repo_path=str(repo.path), jobs=1, full=True)
    shards = {key[:2] for key in _cached_entries(repo)}
    assert _names(repo) == sorted(f"8-{shard}.marshal" for shard in shards)  # and the small layout's file is gone
    assert extracts.level_for(0) == 0 and extracts.level_for(10**12) == extracts.LEVELS


def test_a_one_file_commit_rewrites_one_cache_file(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(extracts, "SOURCE_BYTES_PER_FILE", 64)  # BASE's files in a few groups
    repo = RepoBuilder(tmp_path / "r")
    repo.commit(BASE)
    run_build("HEAD", repo_path=str(repo.path), jobs=1)
    files = _cache_files(repo)
    assert len(files) > 1 and len({p.name.split("-")[0] for p in files}) == 1
    for path in files:
        os.utime(path, ns=(0, 0))
    repo.commit(STEPS["add_function"](BASE))
    rebuilt = run_build("HEAD", repo_path=str(repo.path), jobs=1)
    assert rebuilt.parsed == 1
    touched = [p.name for p in _cache_files(repo) if p.stat().st_mtime_ns != 0]
    assert len(touched) == 1, touched
    entries = _cached_entries(repo)
    assert rebuilt.bundle_tree == run_build("HEAD", repo_path=str(repo.path), jobs=1, full=True).bundle_tree
    assert _cached_entries(repo) == entries  # what --full wrote is what the rebuild kept


def test_a_cache_of_another_layout_is_read_and_written_again_at_this_builds(tmp_path: Path, monkeypatch) -> None:
    """A commit that grew past its files' level reads them as they are (a one-file commit parses one file), then
    writes every shard at its own level and removes the others' files, those of the layout before levels too."""
    repo = RepoBuilder(tmp_path / "r")
    repo.commit(BASE)
    run_build("HEAD", repo_path=str(repo.path), jobs=1)
    entries = _cached_entries(repo)
    folder = repo.path / ".git" / CACHE_DIR
    salt = marshal.loads((folder / "0-00.marshal").read_bytes())[0]
    old = folder / "ab.marshal"  # one file a shard, as session 25 wrote them
    old.write_bytes(marshal.dumps((salt, {}, "")))
    monkeypatch.setattr(extracts, "SOURCE_BYTES_PER_FILE", 1)
    repo.commit(STEPS["add_function"](BASE))
    rebuilt = run_build("HEAD", repo_path=str(repo.path), jobs=1)
    assert rebuilt.parsed == 1, "the files of the other level were not read"
    names = _names(repo)
    assert names and all(name.startswith("8-") for name in names), names
    now = _cached_entries(repo)
    assert len(now.keys() - entries.keys()) == 1 and all(now[k] == entries[k] for k in now.keys() & entries.keys())
    assert rebuilt.bundle_tree == run_build("HEAD", repo_path=str(repo.path), jobs=1, full=True).bundle_tree


def test_a_cache_within_one_level_of_its_size_keeps_its_files(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setattr(extracts, "SOURCE_BYTES_PER_FILE", 64)
    repo = RepoBuilder(tmp_path / "r")
    repo.commit(BASE)
    run_build("HEAD", repo_path=str(repo.path), jobs=1)
    level = {p.name.split("-")[0] for p in _cache_files(repo)}
    monkeypatch.setattr(extracts, "SOURCE_BYTES_PER_FILE", 128)  # the commit asks one level fewer
    repo.commit(STEPS["add_function"](BASE))
    assert run_build("HEAD", repo_path=str(repo.path), jobs=1).parsed == 1
    assert {p.name.split("-")[0] for p in _cache_files(repo)} == level
