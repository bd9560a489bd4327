"""`git route build`: read one pinned commit, extract what changed, merge the indexes, swap the bundle in.

Per-file extraction results are stored in the bundle keyed by blob id (and language), so a rebuild
parses only blobs it has not seen; everything after extraction (graph, postings) is recomputed,
which keeps the bundle a pure function of the commit, the configuration and the gitroute version.
"""
from __future__ import annotations

import gc
import json
import os
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from gitroute import __version__, git
from gitroute.bundle.layout import (
    BUNDLE_REF,
    EXTRACTOR_VERSION,
    FORMAT_VERSION,
    MANIFEST,
    NODE_CHUNK,
    SYMBOLS_META,
    bundle_message,
    decode_extract,
    dump_json,
    edges_path,
    encode_extract,
    extract_path,
    load_json,
)
from gitroute.config import CONFIG_PATH, parse_config
from gitroute.errors import BuildRaceLost
from gitroute.graph import CALL_RESOLUTION, CodeGraph, SourceFile, build_graph
from gitroute.indexes.symbols import build_symbol_index
from gitroute.model import DeclaredEntry

Progress = Callable[[str, int, int], None]
MANIFEST_FILES = ("pyproject.toml", "setup.cfg", "package.json", "Cargo.toml")
PARALLEL_MIN_BYTES = 2 * 1024 * 1024  # below this, starting workers costs more than it saves
MAX_REPORTED_WARNINGS = 200


@dataclass
class BuildReport:
    source_commit: str
    source_tree: str
    bundle_commit: str
    bundle_tree: str
    ref: str
    updated: bool  # False when the bundle already was exactly this one
    files_read: int
    parsed: int
    reused: int
    skipped: Counter = field(default_factory=Counter)
    nodes: dict[str, int] = field(default_factory=dict)
    edges: dict[str, int] = field(default_factory=dict)
    warnings: int = 0
    seconds: float = 0.0
    phases: dict[str, float] = field(default_factory=dict)  # seconds per phase, in order


def _extract_key(oid: str, lang: str | None) -> str:
    return f"{oid}:{lang or '-'}"


def _key_lang(key: str) -> str | None:
    lang = key.rpartition(":")[2]
    return None if lang == "-" else lang


def _extract_one(item: tuple[str, bytes]) -> tuple[str, list]:
    """Worker: classify a blob, then parse it; returns the encoded result under its key."""
    from gitroute.parsing import extract

    key, data = item
    lang = _key_lang(key)
    reason = git.classify_content(data)
    if reason is not None:
        return key, ["skip", reason]
    if lang is None:
        return key, ["text"]
    return key, ["code", encode_extract(extract(data, lang))]


def _load_previous(repo, ref: str) -> tuple[str | None, dict | None]:
    """The bundle commit the ref holds now, and its manifest when its extractions can be reused."""
    old = git.ref_target(repo, ref)
    if old is None:
        return None, None
    try:
        manifest = load_json(git.read_tree_blobs(repo, old, [MANIFEST]).get(MANIFEST, b"null"))
    except ValueError:
        return old, None
    if not isinstance(manifest, dict) or manifest.get("format_version") != FORMAT_VERSION:
        return old, None
    if manifest.get("extractor_version") != EXTRACTOR_VERSION or manifest.get("gitroute_version") != __version__:
        return old, None
    return old, manifest


@dataclass
class _Reused:
    """The previous bundle's extraction results for the keys still wanted, and its shards as they were."""

    results: dict[str, list] = field(default_factory=dict)
    shards: dict[str, tuple[str, frozenset[str]]] = field(default_factory=dict)  # path -> (blob id, keys)


def _reuse(repo, old_commit: str | None, keys: set[str]) -> _Reused:
    """What the previous bundle already extracted; damaged shards are skipped, so re-extracted."""
    reused = _Reused()
    if old_commit is None:
        return reused
    previous: dict[str, list] = {}
    shard_paths = sorted({extract_path(k) for k in keys})
    for path, (blob_id, blob) in git.read_tree_entries(repo, old_commit, shard_paths).items():
        try:
            shard = load_json(blob)
            previous.update(shard)
        except (ValueError, TypeError):
            continue  # not trusted: its files are extracted again
        reused.shards[path] = (blob_id, frozenset(shard))
    reused.results = {k: previous[k] for k in keys if k in previous}
    return reused


@dataclass
class _Sources:
    """What the extraction results say about the snapshot's files."""

    files: list[SourceFile] = field(default_factory=list)
    declared: list[tuple[str, DeclaredEntry]] = field(default_factory=list)
    skipped: list[list[str]] = field(default_factory=list)  # [path, reason], sorted
    warnings: list[list[str]] = field(default_factory=list)  # [path, warning]
    reparsed: int = 0  # files whose reused result was damaged, so were extracted again
    reparsed_keys: set[str] = field(default_factory=set)


def _collect_sources(snap: git.Snapshot, keys: dict[str, str], results: dict[str, list]) -> _Sources:
    from gitroute.parsing import declared_entry_points

    sources = _Sources(skipped=[[s.path, s.reason] for s in snap.skipped])
    for entry in snap.entries:
        key = keys[entry.path]
        result = results[key]
        try:
            extract = decode_extract(result[1]) if result[0] == "code" else None
        except (ValueError, TypeError, IndexError):  # a damaged reused result: extract it again
            result = results[key] = _extract_one((key, snap.read(entry)))[1]
            sources.reparsed += 1
            sources.reparsed_keys.add(key)
            extract = decode_extract(result[1]) if result[0] == "code" else None
        if result[0] == "skip":
            sources.skipped.append([entry.path, result[1]])
            continue
        sources.files.append(SourceFile(entry.path, entry.oid, extract.lang if extract else None, extract))
        if extract:
            sources.warnings.extend([entry.path, w] for w in extract.warnings)
        if entry.path.rsplit("/", 1)[-1] in MANIFEST_FILES:
            sources.declared.extend((entry.path, d) for d in declared_entry_points(entry.path, snap.read(entry)))
    sources.skipped.sort()
    return sources


class _Laps:
    """Seconds per build phase, for the report."""

    def __init__(self) -> None:
        self.started = self.last = time.monotonic()
        self.phases: dict[str, float] = {}

    def lap(self, phase: str) -> None:
        now = time.monotonic()
        self.phases[phase] = round(now - self.last, 3)
        self.last = now

    def total(self) -> float:
        return time.monotonic() - self.started


def run_build(rev: str = "HEAD", *, repo_path: str = ".", jobs: int | None = None,
              progress: Progress | None = None, ref: str = BUNDLE_REF) -> BuildReport:
    # A build makes millions of small objects that all live to the end: the cyclic collector would
    # rescan them again and again (a third of an incremental build's time) and free nothing.
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _run_build(rev, repo_path, jobs, progress or _no_progress, ref)
    finally:
        if collecting:
            gc.enable()


def _no_progress(phase: str, done: int, total: int) -> None:
    pass


def _run_build(rev: str, repo_path: str, jobs: int | None, progress: Progress, ref: str) -> BuildReport:
    from gitroute.parsing import language_for_path

    laps = _Laps()
    repo = git.open_repository(repo_path)
    commit = git.resolve_commit(repo, rev)
    config = parse_config(git.read_commit_file(repo, commit, CONFIG_PATH))
    snap = git.snapshot_at(repo, commit, max_file_bytes=config.max_file_bytes, excluded=config.is_excluded)
    old_commit, old_manifest = _load_previous(repo, ref)
    laps.lap("snapshot")

    # Each file's extraction key; the previous bundle answers for every key it already holds.
    keys = {e.path: _extract_key(e.oid, language_for_path(e.path)) for e in snap.entries}
    reused = _reuse(repo, old_commit if old_manifest else None, set(keys.values()))
    results = reused.results
    todo: dict[str, tuple[str, bytes]] = {}
    for entry in snap.entries:
        key = keys[entry.path]
        if key not in results and key not in todo:
            todo[key] = (key, snap.read(entry))
    laps.lap("reuse")
    _extract_all(list(todo.values()), results, jobs, progress)
    laps.lap("extract")
    sources = _collect_sources(snap, keys, results)
    # Read = parsed + reused + skipped for their content (binary, LFS pointer).
    fresh = [e for e in snap.entries if keys[e.path] in todo and results[keys[e.path]][0] != "skip"]
    parsed_paths = len(fresh) + sources.reparsed
    reused_paths = len(sources.files) - parsed_paths
    laps.lap("decode")

    progress("merge", 0, 1)
    side_job = _SideJob(jobs, repo.path)
    graph = build_graph(sources.files, sources.declared, on_nodes=side_job.start)
    laps.lap("graph")
    blobs = _graph_blobs(graph)
    fresh = set(todo) | sources.reparsed_keys
    shard_blobs, kept_shard_ids = _extract_blobs(keys, results, reused.shards, fresh)
    blobs.update(shard_blobs)
    laps.lap("edges")
    side_ids, symbol_section = side_job.result()
    laps.lap("index")

    counts = graph.counts()
    skipped = Counter(reason for _, reason in sources.skipped)
    blobs[SYMBOLS_META] = dump_json(symbol_section)
    blobs[MANIFEST] = dump_json({
        "format_version": FORMAT_VERSION,
        "extractor_version": EXTRACTOR_VERSION,
        "gitroute_version": __version__,
        "source": {"commit": commit, "tree": snap.tree},
        "submodules": [{"path": s.path, "commit": s.commit, "present": s.present} for s in snap.submodules],
        "config_fingerprint": config.fingerprint(),
        "counts": {"files": len(sources.files), **counts},
        "calls": CALL_RESOLUTION,
        "symbols": symbol_section,
        "skipped": sources.skipped,
        "skipped_by_reason": dict(sorted(skipped.items())),
        "warnings": sources.warnings[:MAX_REPORTED_WARNINGS],
        "warnings_total": len(sources.warnings),
    })
    progress("merge", 1, 1)

    blob_ids = git.write_blobs(repo, blobs)
    blob_ids.update(side_ids)
    blob_ids.update(kept_shard_ids)
    tree = git.write_tree(repo, blob_ids)
    bundle_commit = git.write_commit(repo, tree, bundle_message(commit, __version__), snap.commit_time)
    updated = _swap(repo, ref, bundle_commit, old_commit)
    laps.lap("write")
    seconds = laps.total()
    _record_timing(repo, bundle_commit, seconds)
    return BuildReport(
        source_commit=commit, source_tree=snap.tree, bundle_commit=bundle_commit, bundle_tree=tree, ref=ref,
        updated=updated, files_read=len(snap.entries), parsed=parsed_paths, reused=reused_paths,
        skipped=skipped, nodes=counts["nodes"], edges=counts["edges"], warnings=len(sources.warnings),
        seconds=seconds, phases=laps.phases,
    )


def _extract_blobs(
    keys: dict[str, str],
    results: dict[str, list],
    previous: dict[str, tuple[str, frozenset[str]]],
    fresh: set[str],
) -> tuple[dict[str, bytes], dict[str, str]]:
    """This build's extraction results, sharded by blob id: what the next build reuses.

    Returns the shards to write, and path -> blob id for the shards the previous bundle already
    holds byte for byte (the same keys, none extracted anew): a one-file change rewrites one shard.
    """
    shards: dict[str, dict[str, list]] = defaultdict(dict)
    for key in set(keys.values()):
        shards[extract_path(key)][key] = results[key]
    to_write: dict[str, bytes] = {}
    kept: dict[str, str] = {}
    for path, shard in shards.items():
        old = previous.get(path)
        if old is not None and old[1] == shard.keys() and fresh.isdisjoint(shard):
            kept[path] = old[0]
        else:
            to_write[path] = dump_json(shard)
    return to_write, kept


def _swap(repo, ref: str, bundle_commit: str, old_commit: str | None) -> bool:
    """Move the ref to the new bundle; False when it already was that bundle."""
    if bundle_commit == old_commit:
        return False
    try:
        git.swap_ref(repo, ref, bundle_commit, old_commit)
    except BuildRaceLost:
        # Another build got there first; if it wrote this very bundle, there is nothing lost.
        if git.ref_target(repo, ref) != bundle_commit:
            raise
        return False
    return True


def _extract_all(items: list, results: dict[str, list], jobs: int | None, progress: Progress) -> None:
    total = len(items)
    progress("parse", 0, total)
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    size = sum(len(item[1]) for item in items)
    if workers > 1 and size >= PARALLEL_MIN_BYTES and total > 1:
        import multiprocessing

        # Largest first, so that no worker is left with one big file at the end.
        items = sorted(items, key=lambda item: -len(item[1]))
        with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork")) as pool:
            for done, (key, value) in enumerate(pool.map(_extract_one, items, chunksize=8), 1):
                results[key] = value
                if done % 50 == 0:
                    progress("parse", done, total)
    else:
        for done, item in enumerate(items, 1):
            key, value = _extract_one(item)
            results[key] = value
            if done % 50 == 0:
                progress("parse", done, total)
    progress("parse", total, total)


PARALLEL_MIN_NODES = 20_000
# What a forked side worker inherits, instead of a pickled copy: (nodes, git dir).
_FORKED: tuple[list, str] = ([], "")


def _write_side_blobs(nodes: list, git_dir: str) -> tuple[dict[str, str], dict]:
    """Build and write the symbol index, which needs only the final nodes.

    Returns path -> blob id and the index's manifest section. Writing here, not in the caller,
    lets a forked worker hash and pack its part of the bundle while the edges resolve.
    """
    blobs, section = build_symbol_index(nodes)
    return git.write_blobs(git.open_repository(git_dir), blobs), section


def _write_side_blobs_of_forked() -> tuple[dict[str, str], dict]:
    return _write_side_blobs(*_FORKED)


class _SideJob:
    """Writes the symbol index once the nodes are final: in a forked worker, while edges resolve, when it pays."""

    def __init__(self, jobs: int | None, git_dir: str) -> None:
        self.workers = jobs if jobs is not None else (os.cpu_count() or 1)
        self.git_dir = git_dir
        self.nodes: list | None = None
        self.pool: ProcessPoolExecutor | None = None
        self.future = None

    def start(self, nodes: list) -> None:
        self.nodes = nodes
        if self.workers < 2 or len(nodes) < PARALLEL_MIN_NODES:
            return
        import multiprocessing

        global _FORKED
        _FORKED = (nodes, self.git_dir)
        self.pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("fork"))
        self.future = self.pool.submit(_write_side_blobs_of_forked)

    def result(self) -> tuple[dict[str, str], dict]:
        global _FORKED
        assert self.nodes is not None
        if self.future is None:
            return _write_side_blobs(self.nodes, self.git_dir)
        try:
            return self.future.result()
        finally:
            _FORKED = ([], "")
            assert self.pool is not None
            self.pool.shutdown()


def _graph_blobs(graph: CodeGraph) -> dict[str, bytes]:
    """Edges by target (`graph/in`), chunked like the node records: impact walks them in reverse."""
    into: dict[int, dict[str, list]] = defaultdict(dict)
    for source, kind, target, line, how in graph.edges:
        into[target // NODE_CHUNK].setdefault(str(target), []).append([kind, source, line, how])
    return {edges_path("in", chunk * NODE_CHUNK): dump_json(value) for chunk, value in into.items()}


def _record_timing(repo, bundle_commit: str, seconds: float) -> None:
    """How long the last build took lives beside the bundle, not in it: the bundle stays deterministic."""
    path = os.path.join(git.common_dir(repo), "gitroute", "last-build.json")
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump({"bundle_commit": bundle_commit, "seconds": round(seconds, 3)}, f)
        os.replace(tmp, path)
    except OSError:
        pass  # a missing timing is not worth failing a build for
