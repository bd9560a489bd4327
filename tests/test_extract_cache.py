"""The extraction cache beside the bundle: decoded results that a rebuild takes instead of the bundle's JSON."""
from __future__ import annotations

import marshal
from pathlib import Path

from gitroute.build import run_build
from gitroute.bundle.extracts import CACHE_DIR, load_result, packed_result
from gitroute.bundle.layout import decode_result, dump_json, encode_result, load_json
from gitroute.model import Document, FileExtract, NameRef, Symbol, Token
from tests.conftest import RepoBuilder
from tests.test_incremental import BASE, STEPS


def _cache_files(repo: RepoBuilder) -> list[Path]:
    return sorted((repo.path / ".git" / CACHE_DIR).glob("*.marshal"))


def test_a_cached_result_is_the_decoded_one_and_round_trips_through_the_json_encoding(tmp_path: Path) -> None:
    repo = RepoBuilder(tmp_path / "r")
    repo.commit(BASE)
    run_build("HEAD", repo_path=str(repo.path), jobs=1)
    kinds = set()
    for cache_file in _cache_files(repo):
        _salt, entries, _ = marshal.loads(cache_file.read_bytes())
        for key, value in entries.items():
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
    repo = RepoBuilder(tmp_path / "r")
    repo.commit(BASE)
    run_build("HEAD", repo_path=str(repo.path), jobs=1)
    files = _cache_files(repo)
    files[0].write_bytes(b"\xffnot marshal")
    salt, entries, blob = marshal.loads(files[1].read_bytes())
    files[1].write_bytes(marshal.dumps(("other code", entries, blob)))
    repo.git("update-ref", "-d", "refs/marola/routing-bundle")
    repo.commit(STEPS["add_function"](BASE))
    rebuilt = run_build("HEAD", repo_path=str(repo.path), jobs=1)
    assert rebuilt.parsed > 1, "a damaged or foreign cache file was read"
    assert rebuilt.bundle_tree == run_build("HEAD", repo_path=str(repo.path), jobs=1, full=True).bundle_tree


def test_full_reads_no_cache(tmp_path: Path) -> None:
    """The cache is trusted as this repository's own (like the memo); `--full` does not read it."""
    repo = RepoBuilder(tmp_path / "r")
    repo.commit(BASE)
    sound = run_build("HEAD", repo_path=str(repo.path), jobs=1, full=True).bundle_tree
    for path in _cache_files(repo):
        salt, entries, blob = marshal.loads(path.read_bytes())
        planted = {key: packed_result(("skip", "planted")) for key in entries}
        path.write_bytes(marshal.dumps((salt, planted, blob)))
    assert run_build("HEAD", repo_path=str(repo.path), jobs=1, full=True).bundle_tree == sound
