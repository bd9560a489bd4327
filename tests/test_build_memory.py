"""What a build holds at once: packed edges, calls kept packed, file bytes set aside on disk, blobs streamed."""
from __future__ import annotations

import copy
import gc
import json
import os
import pickle
import re
import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import gitroute.build as build_module
from gitroute.build import run_build
from gitroute.bundle.extracts import PackedRefs, load_result, packed_result
from gitroute.bundle.spill import SPILL_DIR, Spill, Spilled
from gitroute.edges import EdgeTable, pack
from gitroute.git import repository as git
from gitroute.model import EDGE_KINDS, RESOLUTIONS, Edge, NameRef
from tests.conftest import SAMPLE_FILES, RepoBuilder

EDGES = st.lists(st.tuples(st.integers(0, 2**40), st.sampled_from(EDGE_KINDS), st.integers(0, 2**40),
                           st.integers(-5, 2**31 - 1), st.sampled_from(RESOLUTIONS)), max_size=30)


@given(st.lists(EDGES, max_size=5))
def test_an_edge_table_reads_back_the_edges_packed_into_it_in_order(parts: list[list[tuple]]) -> None:
    table = EdgeTable()
    spans = []
    for part in parts:
        start = len(table)
        table.add(pack(part))
        spans.append((start, len(table)))
    every = [edge for part in parts for edge in part]
    assert isinstance(table, list) and len(table) == len(every) and bool(table) == bool(every)
    assert list(table) == every and all(type(e) is Edge for e in table)
    assert table == every and list(table.rows()) == every
    assert [table[i] for i in range(len(every))] == every and table[1:-1] == every[1:-1]
    assert table.pack(spans) == pack(every)  # the memo's bytes are the resolver's
    assert pickle.loads(pickle.dumps(table)) == table and list(copy.deepcopy(table)) == every
    assert table.pack(reversed(spans)) == pack([e for part in reversed(parts) for e in part])
    kinds = {kind: sum(e[1] == kind for e in every) for kind in EDGE_KINDS}
    assert table.kind_counts() == {k: n for k, n in kinds.items() if n}
    ambiguous = {kind: sum(e[1] == kind and e[4] == "ambiguous" for e in every) for kind in EDGE_KINDS}
    assert table.kind_counts(RESOLUTIONS.index("ambiguous")) == {k: n for k, n in ambiguous.items() if n}


def test_an_edge_table_takes_a_slice_of_packed_edges_and_refuses_list_methods() -> None:
    edges = [(1, "calls", 2, 3, "scope"), (4, "defines", 5, 6, "structure"), (7, "imports", 8, 9, "import")]
    table = EdgeTable()
    table.add(pack(edges), 1, 3)
    table.add(pack(edges), 0, 1)
    assert list(table) == [*edges[1:], edges[0]]
    with pytest.raises(TypeError):
        table.append(edges[0])


def test_calls_and_references_stay_packed_until_read() -> None:
    from gitroute.model import FileExtract, Symbol

    extract = FileExtract("python", (Symbol("f", "function", 1, 2),), ((0, "g", 2, ""), (0, "h", 2, "self")), (),
                          (NameRef(0, "T", 1, ""),))
    again = load_result(packed_result(("code", extract)))[1]
    assert isinstance(again.calls, PackedRefs) and isinstance(again.references, PackedRefs)
    assert again == extract and list(again.calls) == [(0, "g", 2, ""), (0, "h", 2, "self")]
    assert all(type(r) is NameRef for r in again.references)
    assert load_result(packed_result(("code", again)))[1] == extract  # packed again as they were


def test_calls_and_references_set_aside_on_disk_read_back_as_they_were(tmp_path: Path) -> None:
    """A large graph's worker sets each file's packed calls and references aside until it resolves the file."""
    from gitroute.bundle.extracts import SpilledRefs, set_aside_packed
    from gitroute.model import FileExtract, Symbol

    extract = FileExtract("python", (Symbol("f", "function", 1, 2),), ((0, "g", 2, ""), (0, "h", 2, "self")), (),
                          (NameRef(0, "T", 1, ""),))
    with Spill(str(tmp_path)) as spill:
        aside = set_aside_packed(packed_result(("code", extract)), spill)
        assert isinstance(aside.calls, SpilledRefs) and isinstance(aside.references, SpilledRefs)
        assert not any(isinstance(x, bytes) for x in (aside.calls.spot, aside.references.spot)), "kept in memory"
        assert aside == extract and list(aside.calls) == [(0, "g", 2, ""), (0, "h", 2, "self")]
        assert all(type(r) is NameRef for r in aside.references) and len(aside.references) == 1
        assert load_result(packed_result(("code", aside)))[1] == extract


SYMBOLS = st.lists(st.tuples(st.text(max_size=12), st.sampled_from(("function", "class", "method", "constant")),
                             st.integers(0, 2**31 - 1), st.integers(0, 2**31 - 1), st.text(max_size=20),
                             st.text(max_size=20), st.integers(-1, 30), st.booleans(), st.text(max_size=8)),
                   max_size=30)


@given(SYMBOLS)
def test_symbols_set_aside_on_disk_read_back_as_the_symbols_they_were(rows: list[tuple]) -> None:
    """A large graph's worker sets each file's symbols aside (`SpilledSymbols`): read back, every way the graph
    reads them (length, truth, iteration, index, slice), they are the symbols, and they pack as they did."""
    import tempfile

    from gitroute.bundle.extracts import SpilledSymbols, set_aside_packed
    from gitroute.model import Binding, FileExtract, Symbol

    symbols = tuple(Symbol(*row) for row in rows)
    extract = FileExtract("c", symbols, ((0, "g", 2, ""),), (NameRef(0, "stdio", 1, ""),), (NameRef(0, "T", 1, ""),),
                          True, ("w",), (Binding("g", "m", "g", 1),), (NameRef(1, "Base", 3, ""),))
    with tempfile.TemporaryDirectory() as folder, Spill(folder) as spill:
        aside = set_aside_packed(packed_result(("code", extract)), spill)
        assert aside == load_result(packed_result(("code", extract)))[1]
        assert [type(x) for x in (*aside.imports, *aside.bindings, *aside.bases)] == [NameRef, Binding, NameRef]
        held = aside.symbols
        assert isinstance(held, SpilledSymbols) == bool(symbols) and len(held) == len(symbols)
        assert bool(held) == bool(symbols) and tuple(held) == symbols and held == symbols
        assert all(type(s) is Symbol for s in held) and held[:3] == symbols[:3]
        if symbols:
            assert held[-1] == symbols[-1] and not isinstance(held.spot, bytes), "kept in memory"
        assert aside == extract and load_result(packed_result(("code", aside)))[1] == extract


def test_set_aside_bytes_are_read_back_from_any_process_and_removed_at_the_end(tmp_path: Path) -> None:
    spill = Spill(str(tmp_path))
    here = spill.put(b"parent")
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # a forked worker writes a file of its own
        where = spill.put(b"child " * 1000)
        os.write(write, json.dumps(list(where)).encode())
        os._exit(0)
    os.close(write)
    os.waitpid(pid, 0)
    child = Spilled(*json.loads(os.read(read, 1000)))
    assert child.pid == pid and spill.get(child) == b"child " * 1000 and spill.get(here) == b"parent"
    assert len(os.listdir(spill.folder)) == 2
    spill.close()
    assert not os.path.exists(spill.folder)


def test_a_folder_left_by_a_build_that_died_is_removed_and_one_that_cannot_be_made_keeps_bytes_in_memory(
        tmp_path: Path) -> None:
    stale = tmp_path / SPILL_DIR / str(_dead_pid())
    stale.mkdir(parents=True)
    (stale / "1").write_bytes(b"x")
    spill = Spill(str(tmp_path))
    assert not stale.exists()
    spill.close()
    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the folder would go")
    memory = Spill(str(blocked))
    assert not memory.on_disk and memory.put(b"abc") == b"abc" and memory.get(b"abc") == b"abc"


def _dead_pid() -> int:
    process = subprocess.Popen(["true"])
    process.wait()
    return process.pid


def test_blobs_streamed_into_one_pack_have_git_s_ids(tmp_path: Path) -> None:
    repo = RepoBuilder(tmp_path / "r")
    repo.commit({"a.txt": "a\n"})
    packs = set((repo.path / ".git" / "objects" / "pack").glob("*.pack"))
    with git.BlobStream(git.open_repository(str(repo.path))) as stream:
        first = stream.add("x", b"one\n")
        stream.add("y", b"two\n")
        stream.add("z", b"one\n")  # the same blob again: written once
        ids = stream.close()
    assert ids == {"x": first, "y": ids["y"], "z": first}
    assert first == subprocess.run(["git", "hash-object", "--stdin"], input=b"one\n", capture_output=True,
                                   check=True).stdout.decode().strip()
    assert repo.git("cat-file", "-p", ids["y"]) == "two\n"
    assert len(set((repo.path / ".git" / "objects" / "pack").glob("*.pack")) - packs) == 1


def test_the_build_holds_no_file_s_bytes_and_keeps_edges_and_calls_packed(tmp_path: Path, monkeypatch) -> None:
    """After extraction, nothing the build keeps is a file's content (each is read back from where extraction set
    it aside); the graph's edges are packed, and once the graph is whole each file's extraction keeps only its
    language and its imports (what an index reads of it)."""
    files = {**SAMPLE_FILES, **{f"src/pkg/mod{i}.py": f"def f{i}(x):\n    return g{i}(x) + {i}\n\n\ndef g{i}(y):\n"
                                                      f"    '''Unique text {i} of a file.'''\n    return y\n"
                                for i in range(40)}}
    repo = RepoBuilder(tmp_path / "r")
    repo.commit(files)
    monkeypatch.setattr(build_module, "PARALLEL_MIN_BYTES", 0)  # forked extraction workers, even for a few files
    keep: list = []
    run_build("HEAD", repo_path=str(repo.path), jobs=2, full=True, keep=keep)
    contents = {data.encode() if isinstance(data, str) else data for data in files.values()}
    reachable = _reachable(keep)
    held = [obj for obj in reachable if type(obj) is bytes and obj in contents]
    assert not held, f"the build holds {len(held)} files' bytes"
    _decoded, sources, graph, _inputs = keep[0][:4]
    assert isinstance(graph.edges, EdgeTable) and len(graph.edges) > 0
    code = [f for f in sources.files if f.extract is not None and f.path.endswith(".py")]
    assert code and all(f.extract.calls == f.extract.references == f.extract.symbols == () for f in code)
    assert any(f.extract.imports for f in code)
    assert all(type(where) is Spilled for where in keep[0][5].values())  # the files' bytes: where they were set
    assert not os.listdir(repo.path / ".git" / SPILL_DIR), "what the build set aside is still on disk"


def _reachable(roots: object) -> list:
    seen: set[int] = set()
    found = []
    stack = [roots]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        found.append(obj)
        if isinstance(obj, (bytes, str, int, float)):
            continue
        stack.extend(gc.get_referents(obj))
    return found


def _spill_root(repo: RepoBuilder) -> Path:
    return repo.path / ".git" / SPILL_DIR


def test_a_build_removes_what_it_set_aside_however_it_ends_and_a_dead_build_s_folder(tmp_path: Path,
                                                                                     monkeypatch) -> None:
    """The spill folder of a build is gone when it ends, finished or failed (workers' files too); a folder left by a
    build that was killed is removed by the next one."""
    repo = RepoBuilder(tmp_path / "r")
    # Enough files that both workers take some (a handful of chunks, one worker sometimes took them all).
    repo.commit({**SAMPLE_FILES, **{f"src/more/m{i}.py": f"def f{i}(x):\n    return x + {i}\n" for i in range(48)}})
    monkeypatch.setattr(build_module, "PARALLEL_MIN_BYTES", 0)  # workers write spill files of their own
    stale = _spill_root(repo) / str(_dead_pid())
    stale.mkdir(parents=True)
    (stale / "12345").write_bytes(b"left by a build that was killed")
    seen: list[list[str]] = []

    def failing(phase: str, done: int, total: int) -> None:
        if phase == "merge":  # extraction is over: the folder holds every file's set-aside bytes
            seen.append([name for folder in _spill_root(repo).iterdir() for name in os.listdir(folder)])
            raise RuntimeError("stopped after extraction")

    with pytest.raises(RuntimeError, match="stopped after extraction"):
        run_build("HEAD", repo_path=str(repo.path), jobs=2, full=True, progress=failing)
    assert not stale.exists(), "the dead build's folder is still there"
    assert seen and len(seen[0]) >= 2, "the workers set nothing aside: the test tests nothing"
    assert not os.listdir(_spill_root(repo)), "a failed build left what it set aside"
    run_build("HEAD", repo_path=str(repo.path), jobs=2, full=True)
    assert not os.listdir(_spill_root(repo)), "a finished build left what it set aside"


@pytest.mark.parametrize(("lean", "lazy"), [(False, False), (True, False), (True, True), (False, True)])
def test_builds_with_one_two_or_three_workers_write_the_same_bundle(tmp_path: Path, monkeypatch, lean: bool,
                                                                   lazy: bool) -> None:
    """Extraction in workers that read their own blobs, results decoded as they arrive, shards streamed as they
    complete, and index jobs bounded by the workers: the bundle is the one a single process writes, full and
    incremental. `lean` (a large graph's way): each index job in a worker forked for it alone, the meaning
    index's prepare step inside its build. `lazy` (many code results): the build's process decodes no code file's
    result, fresh or reused from the extraction cache (with `lean`, only the graph's worker does), and reads its
    language, imports and symbol count."""
    from gitroute.bundle import extracts
    from tests.test_incremental import BASE, STEPS

    monkeypatch.setattr(build_module, "PARALLEL_MIN_BYTES", 0)
    monkeypatch.setattr(build_module, "PARALLEL_MIN_NODES", 0)
    if lean:
        monkeypatch.setattr(build_module, "LEAN_MIN_NODES", 0)
    decoded_in: list[tuple[int, str]] = []
    if lazy:
        monkeypatch.setattr(build_module, "LAZY_MIN_BYTES", 0)
        load_result = build_module.load_result

        def tracked(data: bytes) -> tuple:
            result = load_result(data)
            decoded_in.append((os.getpid(), result[0]))
            return result

        monkeypatch.setattr(build_module, "load_result", tracked)
        model_result = extracts.model_result

        def tracked_cached(value: tuple) -> tuple:
            decoded_in.append((os.getpid(), value[0]))
            return model_result(value)

        monkeypatch.setattr(extracts, "model_result", tracked_cached)
    repos = {jobs: RepoBuilder(tmp_path / f"jobs{jobs}") for jobs in (1, 2, 3)}
    tree = STEPS["describe_in_doc"](dict(BASE))
    for step in ("base", "add_function", "edit_doc", "contract"):
        tree = tree if step == "base" else STEPS[step](tree)
        trees = {}
        for jobs, repo in repos.items():
            repo.commit(tree, step)
            decoded_in.clear()
            build = run_build("HEAD", repo_path=str(repo.path), jobs=jobs)
            trees[jobs] = build.bundle_tree
            if lean and lazy and jobs > 1 and step != "base":
                assert build.reused and (os.getpid(), "code") not in decoded_in, f"after {step!r}: decoded code"
        assert len(set(trees.values())) == 1, f"after {step!r}: {trees}"
        decoded_in.clear()
        full = run_build("HEAD", repo_path=str(repos[3].path), jobs=3, full=True).bundle_tree
        assert full == trees[1], f"after {step!r}: --full with workers differs"
        if lean and lazy:  # with workers: only the graph's worker decodes code (its list is not this process's)
            assert decoded_in and (os.getpid(), "code") not in decoded_in, "the build's process decoded code"


def test_results_decoded_as_they_arrive_make_the_bundle_cached_results_make(tmp_path: Path, monkeypatch) -> None:
    """A fresh build decodes each worker's packed result as it arrives and writes each cache file as its shard
    completes; a rebuild takes the same results from that cache. The two make one bundle, and a change mixes them."""
    from gitroute.bundle.extracts import CACHE_DIR
    from tests.test_incremental import BASE, STEPS

    monkeypatch.setattr(build_module, "PARALLEL_MIN_BYTES", 0)
    repo = RepoBuilder(tmp_path / "r")
    tree = STEPS["describe_in_doc"](dict(BASE))
    repo.commit(tree)
    fresh = run_build("HEAD", repo_path=str(repo.path), jobs=2, full=True)
    assert fresh.parsed > 0 and fresh.reused == 0
    cache = repo.path / ".git" / CACHE_DIR
    assert list(cache.glob("*.marshal")), "the build wrote no extraction cache"
    repo.git("update-ref", "-d", "refs/marola/routing-bundle")
    cached = run_build("HEAD", repo_path=str(repo.path), jobs=2)
    assert cached.parsed == 0 and cached.bundle_tree == fresh.bundle_tree
    # One file changed: its shard's cache file is written again from one fresh result and the others cached.
    repo.commit(STEPS["add_function"](tree))
    mixed = run_build("HEAD", repo_path=str(repo.path), jobs=2)
    assert mixed.parsed == 1
    again = run_build("HEAD", repo_path=str(repo.path), jobs=1)
    assert again.parsed == 0, "the changed shard's cache file was not written"
    assert mixed.bundle_tree == again.bundle_tree == run_build("HEAD", repo_path=str(repo.path), jobs=2,
                                                               full=True).bundle_tree


def test_a_blob_stream_that_fails_on_the_way_leaves_no_pack(tmp_path: Path) -> None:
    repo = RepoBuilder(tmp_path / "r")
    repo.commit({"a.txt": "a\n"})
    objects = repo.path / ".git" / "objects"
    before = sorted(p.name for p in (objects / "pack").iterdir())
    with pytest.raises(RuntimeError), git.BlobStream(git.open_repository(str(repo.path))) as stream:
        stream.add("x", b"a blob of a build that fails\n" * 100)
        raise RuntimeError("the build failed")
    assert sorted(p.name for p in (objects / "pack").iterdir()) == before
    assert not list((repo.path / ".git").glob("fast_import_crash_*"))


def test_gitroute_memlog_names_each_phase_and_job_of_a_build(tmp_path: Path, monkeypatch) -> None:
    """With GITROUTE_MEMLOG, each process of a build appends its memory after each phase and each index job."""
    from tests.conftest import run_route

    repo = RepoBuilder(tmp_path / "r")
    repo.commit(SAMPLE_FILES)
    log = tmp_path / "memory.log"
    monkeypatch.setenv("GITROUTE_MEMLOG", str(log))
    monkeypatch.setattr(build_module, "MEMORY_LOG", None)  # what the command sets from the variable
    assert run_route(["build", "-q"], repo.path).exit_code == 0
    labels = [line.split("'")[1] for line in log.read_text().splitlines()]
    assert {"graph", "index", "write", "job symbols", "job graph blobs"} <= set(labels)
    assert all(re.search(r" rss=\d+ hwm=\d+$", line) for line in log.read_text().splitlines())


@pytest.mark.parametrize("jobs", [2, 1])
def test_a_large_graph_is_built_in_a_worker_that_saves_its_memo_and_hands_it_back(tmp_path: Path, monkeypatch,
                                                                                   jobs: int) -> None:
    """The lean way (forced): the parent never resolves the edges (`build_graph` runs in a worker only), the graph it
    gets back is the one a single process builds, and the graph's memo that worker saved is read by the next build.
    With one job too: a large graph's memory is not a choice of speed."""
    from gitroute.bundle.memo import BuildMemo
    from gitroute.graph import build_graph

    monkeypatch.setattr(build_module, "PARALLEL_MIN_NODES", 0)
    monkeypatch.setattr(build_module, "LEAN_MIN_NODES", 0)
    parent = os.getpid()
    built_in: list[int] = []

    def tracked(*args: object, **kwargs: object):
        built_in.append(os.getpid())
        return build_graph(*args, **kwargs)

    monkeypatch.setattr(build_module, "build_graph", tracked)
    repo = RepoBuilder(tmp_path / "r")
    repo.commit(dict(SAMPLE_FILES))
    lean = run_build("HEAD", repo_path=str(repo.path), jobs=jobs, full=True)
    assert built_in == [], "the parent built the graph itself"  # the worker's own list is not the parent's
    memo = BuildMemo(git.common_dir(git.open_repository(str(repo.path)))).table("graph")
    assert memo.previous, "the worker saved no graph memo"
    monkeypatch.setattr(build_module, "LEAN_MIN_NODES", 10**9)
    one = run_build("HEAD", repo_path=str(repo.path), jobs=1, full=True)
    assert built_in == [parent] and one.bundle_tree == lean.bundle_tree and one.nodes == lean.nodes


@pytest.mark.parametrize(("bound", "jobs"), [("EXTRACT_WORKER_FILES", 2), ("EXTRACT_WORKER_BYTES", 2),
                                             ("EXTRACT_WORKER_FILES", 1)])
def test_extraction_workers_forked_anew_each_round_write_the_bundle_one_process_writes(tmp_path: Path, monkeypatch,
                                                                                        bound: str, jobs: int) -> None:
    """Extraction workers are forked anew after EXTRACT_WORKER_FILES files or EXTRACT_WORKER_BYTES each (what a
    parse leaks stays in its worker): a build by rounds of one file a worker writes the bundle a build in one
    process writes, and with GITROUTE_MEMLOG each extraction worker logs its memory as it exits. With one job, a
    repository of ALONE_MIN_BYTES or more is extracted so too, a worker at a time."""
    repo = RepoBuilder(tmp_path / "r")
    repo.commit(SAMPLE_FILES)
    alone = run_build("HEAD", repo_path=str(repo.path), jobs=1, full=True)
    log = tmp_path / "memory.log"
    monkeypatch.setattr(build_module, "MEMORY_LOG", str(log))
    monkeypatch.setattr(build_module, "PARALLEL_MIN_BYTES" if jobs > 1 else "ALONE_MIN_BYTES", 0)
    monkeypatch.setattr(build_module, bound, 1)
    rounds = run_build("HEAD", repo_path=str(repo.path), jobs=jobs, full=True)
    assert rounds.parsed == alone.parsed > 4
    assert rounds.bundle_tree == alone.bundle_tree
    workers = {line.split()[1] for line in log.read_text().splitlines() if "'extract worker'" in line}
    assert len(workers) > 2, "the extraction workers were not forked anew"


def test_meaning_entries_held_as_bytes_write_the_same_bundle_full_and_after_a_commit(tmp_path: Path,
                                                                                      monkeypatch) -> None:
    """From PACKED_MIN_NODES nodes on, the meaning index holds each file's entries as marshal's bytes (and its memo
    stores them so): the bundle is the one a build holding lists writes, built whole and after a one-file commit
    that reads the memo back (anchor texts from a document that names a function included)."""
    import gitroute.indexes.meaning as meaning

    files = {**SAMPLE_FILES, "docs/guide.md": "# Guide\n\nCall `parse_forecast` to read the hourly rows.\n"}
    changed = {**files, "src/sample/weather.py": files["src/sample/weather.py"] + "\n\ndef more():\n    return 1\n"}
    trees: dict[int, list[str]] = {}
    for threshold in (10**9, 0):
        monkeypatch.setattr(meaning, "PACKED_MIN_NODES", threshold)
        repo = RepoBuilder(tmp_path / f"r{threshold}")
        repo.commit(files)
        first = run_build("HEAD", repo_path=str(repo.path), jobs=1, full=True)
        repo.commit(changed)
        again = run_build("HEAD", repo_path=str(repo.path), jobs=1)
        whole = run_build("HEAD", repo_path=str(repo.path), jobs=1, full=True)
        assert again.bundle_tree == whole.bundle_tree
        trees[threshold] = [first.bundle_tree, again.bundle_tree]
    assert trees[0] == trees[10**9]
