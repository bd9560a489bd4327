"""`git route build`: read one pinned commit, extract what changed, merge the indexes, swap the bundle in.

Per-file extraction results are stored in the bundle keyed by blob id (and language), so a rebuild
parses only blobs it has not seen; everything after extraction (graph, postings) is recomputed,
which keeps the bundle a pure function of the commit, the configuration and the gitroute version.
"""
from __future__ import annotations

import gc
import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from typing import IO, TYPE_CHECKING, NamedTuple, NoReturn

from gitroute import __version__
from gitroute.bundle.extracts import load_result, packed_result
from gitroute.bundle.graph import graph_blobs_since
from gitroute.bundle.layout import (
    BUNDLE_REF,
    FORMAT_VERSION,
    INDEX_META,
    dump_json,
)
from gitroute.bundle.memo import BuildMemo
from gitroute.bundle.node_memo import keep_nodes, load_nodes, nodes_target, read_earlier, write_nodes
from gitroute.bundle.spill import Spill, Spot
from gitroute.bundle.writer import BundleWriter, ExtractShards, Reused
from gitroute.config import CONFIG_PATH, Config, limit_notes, parse_config
from gitroute.git import repository as git
from gitroute.graph import CALL_RESOLUTION, CodeGraph, SourceFile, build_graph
from gitroute.indexes import PREPARED, BuildInputs
from gitroute.model import DeclaredEntry, Document, FileExtract
from gitroute.parsing.version import EXTRACTOR_VERSION
from gitroute.registry import INDEXES, load_index

if TYPE_CHECKING:  # the pool's modules are imported where a build starts one: a small build never does (0.03 s)
    from concurrent.futures import Future, ProcessPoolExecutor

Progress = Callable[[str, int, int], None]
MANIFEST_FILES = ("pyproject.toml", "setup.cfg", "package.json", "Cargo.toml", "go.mod")
PARALLEL_MIN_BYTES = 2 * 1024 * 1024  # below this, starting workers costs more than it saves
LARGE_FIRST_BYTES = 128 * 1024  # files this large are extracted first, the rest in the snapshot's order
# Extraction workers are forked anew after each has extracted about this many files or bytes: each keeps what its
# parses leaked (tree-sitter 0.26.1's `QueryCursor.matches` with a predicate leaks each match's captures and, through
# their nodes, the tree: 4.7 MiB a run on kernel/sched/core.c, 286 KiB), about 16 times the bytes it parsed.
EXTRACT_WORKER_FILES = 2048
EXTRACT_WORKER_BYTES = 16 * 1024 * 1024
# From this many bytes of code files' packed results on (linux-core: ~100 MiB; django's fit below it), the build's
# process does not decode them: it reads from each what the build keeps of it (language, imports, warnings, symbol
# count) as `_collect_sources` goes, and the graph's worker decodes them from where the extraction workers set them
# aside (a `LAZY` result). Decoded in the process every index worker is forked from, they left it gigabytes of
# Python's arenas that no later object filled (docs/decisions/0023, session 26). The extraction cache's results a
# rebuild reuses go the same way (`_reuse`): decoded, a one-file rebuild of the kernel's held 2.3 GB of them, which
# its graph's worker, forked from it, counted again (its peak 4,041 MiB).
LAZY_MIN_BYTES = 48 * 1024 * 1024
# From this many bytes of files to extract on (the Linux kernel's 1.4 GB; django's 43 MiB stay below), a build with one
# job (`-j1`, or a machine with one core) extracts in forked workers too, one at a time: what the parses leak stays
# in them, not in the process every later worker is forked from (the kernel at `-j1`, extracted in process: a peak of
# 6.1 GB, session 40). A large graph's jobs are each forked alone whatever the jobs (`LEAN_MIN_NODES`).
ALONE_MIN_BYTES = 128 * 1024 * 1024
LAZY = "lazy"  # a code file's result not decoded: ("lazy", where its packed result is)
PR_SET_PDEATHSIG = 1  # linux/prctl.h
PARENT_POLL_SECONDS = 0.5
MAX_REPORTED_WARNINGS = 200
# A file each process of a build appends its resident memory to (MiB, now and at its peak) after each phase and index
# job, when set (the CLI sets it from GITROUTE_MEMLOG): how docs/decisions/0023 found what grows on the Linux kernel.
MEMORY_LOG: str | None = None


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
    notes: list[str] = field(default_factory=list)  # about the build itself (a damaged bundle replaced)
    limits: dict = field(default_factory=dict)  # the per-file limits it applied (Config.limits)


DOCUMENT = "doc."  # the "language" of a key whose blob is parsed as a document: doc.markdown, doc.rst, doc.txt


def _extract_key(oid: str, path: str) -> str:
    """What a blob is extracted as, by its path: code in a language, a document, or plain text.

    The key holds no path: a blob that moves, or is copied, is extracted once.
    """
    from gitroute.parsing import language_for_path
    from gitroute.parsing.documents import document_kind

    kind = document_kind(path)
    if kind is not None:
        return f"{oid}:{DOCUMENT}{kind}"
    return f"{oid}:{language_for_path(path) or '-'}"


def _key_lang(key: str) -> str | None:
    lang = key.rpartition(":")[2]
    return None if lang == "-" else lang


def _extract_blob(key: str, data: bytes) -> tuple:
    """Classify a blob, then parse it: its decoded result (`layout.decode_result`'s shapes)."""
    from gitroute.parsing import extract, language_for_content
    from gitroute.parsing.limits import ExtractLimit

    lang = _key_lang(key)
    reason = git.classify_content(data)
    if reason is not None:
        return ("skip", reason)
    if lang is not None and lang.startswith(DOCUMENT):
        from gitroute.parsing.documents import KIND_PATHS, parse_document

        document = parse_document(KIND_PATHS[lang.removeprefix(DOCUMENT)], data)
        return ("doc", document) if document is not None else ("text",)
    # The content settles what the path could not: a `#!` script with no extension here, a C++ `.h` in `extract`.
    # The key stays the path's, which is right for reuse: the same blob always sniffs the same.
    if lang is None:
        lang = language_for_content(None, data)
        if lang is None:
            return ("text",)
    try:
        return ("code", extract(data, lang))
    except ExtractLimit as limit:  # minified, or a parse past its memory ceiling: named in the report
        return ("skip", limit.reason)


# What extraction workers read their blobs from and set their encodings aside in: forked with them, a worker reads
# each blob itself, so that no file's bytes cross between processes, nor stay in the build's.
_EXTRACTING: tuple[git.Snapshot, Spill] | None = None


def _extract_entry(item: tuple[str, git.Entry]) -> tuple[str, bytes, Spot, Spot | None]:
    """Worker: read a blob and extract it. Returns its key and its `extracts.packed_result` (what the build decodes),
    and where it set aside that (for the extraction cache) and, for code, the blob itself (`_Texts`)."""
    key, entry = item
    assert _EXTRACTING is not None
    snap, spill = _EXTRACTING
    if MEMORY_LOG and _MEMLOGGED.get("extract worker") != os.getpid():
        _memlog_at_exit("extract worker")
    data = snap.read(entry)
    result = _extract_blob(key, data)
    packed = packed_result(result)
    text = spill.put(data) if result[0] == "code" else None
    return key, packed, spill.put(packed), text


class _Texts(dict):
    """Key -> where the bytes of a code file extraction parsed are set aside: indexes that scan file text (the
    meaning index's message literals and comments, the impact index's contract readers) read it again. Reading a
    blob back from git in their order costs about twice what reading it did, and holding every file's bytes from
    extraction to the end held the whole repository in the build's memory."""

    def __init__(self, spill: Spill) -> None:
        super().__init__()
        self.spill = spill

    def read(self, key: str) -> bytes | None:
        where = self.get(key)
        return self.spill.get(where) if where is not None else None


@dataclass
class _Sources:
    """What the extraction results say about the snapshot's files."""

    files: list[SourceFile] = field(default_factory=list)
    declared: list[tuple[str, DeclaredEntry]] = field(default_factory=list)
    skipped: list[list[str]] = field(default_factory=list)  # [path, reason], sorted
    warnings: list[list[str]] = field(default_factory=list)  # [path, warning]
    documents: dict[str, Document] = field(default_factory=dict)  # path -> parsed Markdown or reStructuredText
    nodes: int = 0  # the graph's nodes, before any is left out: a file's and its symbols'
    # path -> where the packed result of a code file `files` holds only the language and imports of is (LAZY)
    lazy: dict[str, Spot] = field(default_factory=dict)


def _collect_sources(snap: git.Snapshot, keys: dict[str, str], decoded: dict[str, tuple],
                     spill: Spill | None = None) -> _Sources:
    """What every file's result (`decoded`, by key) says of the snapshot; of a LAZY one (read from `spill`), what the
    build keeps of it after the graph (`_release_extracts`)."""
    from gitroute.parsing import declared_entry_points

    sources = _Sources(skipped=[[s.path, s.reason] for s in snap.skipped])
    for entry in snap.entries:
        value = decoded[keys[entry.path]]
        if value[0] == "skip":
            sources.skipped.append([entry.path, value[1]])
            continue
        extract: FileExtract | None
        if value[0] == LAZY:
            assert spill is not None
            extract, symbols = _kept_of(spill.get(value[1]))
            sources.lazy[entry.path] = value[1]
            sources.nodes += 1 + symbols
        else:
            extract = value[1] if value[0] == "code" else None
            sources.nodes += 1 + (len(extract.symbols) if extract else 0)
        document = value[1] if value[0] == "doc" else None
        if document is not None:
            if document.path != entry.path:  # one blob at two paths: extracted once
                document = document._replace(path=entry.path)
            sources.documents[entry.path] = document
            sources.warnings.extend([entry.path, w] for w in document.warnings)
        lang = extract.lang if extract else (document.format if document else None)
        sources.files.append(SourceFile(entry.path, entry.oid, lang, extract))
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
        _memlog(phase)

    def total(self) -> float:
        return time.monotonic() - self.started


def _memlog(label: str) -> None:
    """This process's resident memory now and at its peak, after a phase or a job, appended to MEMORY_LOG."""
    if not MEMORY_LOG:
        return
    try:
        with open("/proc/self/status") as f:
            status = dict(line.split(":", 1) for line in f)
        with open(MEMORY_LOG, "a") as out:
            out.write(f"{time.time():.1f} {os.getpid()} {label!r} rss={int(status['VmRSS'].split()[0]) >> 10} "
                      f"hwm={int(status['VmHWM'].split()[0]) >> 10}\n")
    except (OSError, KeyError, ValueError):  # not Linux, or nowhere to write: nothing logged
        pass


def run_build(rev: str = "HEAD", *, repo_path: str = ".", jobs: int | None = None,
              progress: Progress | None = None, ref: str = BUNDLE_REF, full: bool = False,
              fetch: bool = True, options: dict | None = None, keep: list | None = None,
              max_file_bytes: int | None = None) -> BuildReport:
    """Build the bundle for `rev`; `full` extracts every file again instead of reusing own earlier results.
    `max_file_bytes`: the command line's size limit, which goes past the ceiling a committed setting is held to.

    `keep`: a caller that exits right after the build passes a list, and the build's large structures
    are left in it instead of being freed object by object on return (a fifth of a second on django):
    the process's exit hands their memory back at once."""
    # A build makes millions of small objects that all live to the end: the cyclic collector would
    # rescan them again and again (a third of an incremental build's time) and free nothing.
    collecting = gc.isenabled()
    gc.disable()
    cleanup = ExitStack()  # what the build set aside on disk, removed however it ends (after its workers)
    try:
        return _run_build(rev, repo_path, jobs, progress or _no_progress, ref, full, fetch, options, keep,
                          max_file_bytes, cleanup)
    except BaseException:
        _stop_pools()  # Ctrl-C or a failure: no worker may go on parsing, or hold the exit up
        raise
    finally:
        cleanup.close()
        if collecting:
            gc.enable()


def _no_progress(phase: str, done: int, total: int) -> None:
    pass


_MEMLOGGED: dict[str, int] = {}  # label -> the process that logs it when it exits


def _memlog_at_exit(label: str) -> None:
    """`_memlog(label)` when this worker process exits (a pool's worker runs multiprocessing's finalizers)."""
    from multiprocessing.util import Finalize

    _MEMLOGGED[label] = os.getpid()
    Finalize(None, _memlog, args=(label,), exitpriority=0)


def _run_build(rev: str, repo_path: str, jobs: int | None, progress: Progress, ref: str, full: bool,
               fetch: bool, options: dict | None = None, keep: list | None = None,
               max_file_bytes: int | None = None, cleanup: ExitStack | None = None) -> BuildReport:

    laps = _Laps()
    repo, commit, config, snap = _snapshot(repo_path, rev, fetch, max_file_bytes)
    writer = BundleWriter(repo, ref, full=full, extractor_version=EXTRACTOR_VERSION)
    laps.lap("snapshot")

    # Each file's extraction key; the extraction cache, then the previous bundle, answer for every key they hold.
    keys = {e.path: _extract_key(e.oid, e.path) for e in snap.entries}
    writer.cache.plan(sum(e.size for e in snap.entries))  # how many files the cache is kept in
    spill = Spill(git.common_dir(repo))  # what this build sets aside, removed as `cleanup` closes
    if cleanup is not None:
        cleanup.callback(spill.close)
    reused = _reuse(writer, set(keys.values()), spill)
    decoded = reused.decoded
    todo = _to_extract(snap, keys, reused)
    laps.lap("reuse")
    texts = _extract(writer, snap, keys, reused, todo, jobs, progress, spill)
    laps.lap("extract")
    sources = _collect_sources(snap, keys, decoded, texts.spill)
    # Read = parsed + reused + skipped for their content (binary, LFS pointer).
    parsed_paths = sum(1 for e in snap.entries if keys[e.path] in todo and decoded[keys[e.path]][0] != "skip")
    reused_paths = len(sources.files) - parsed_paths
    laps.lap("decode")

    progress("merge", 0, 1)
    # Per-item results of earlier builds, beside the bundle (see bundle/memo.py); --full reads none.
    memo = BuildMemo(git.common_dir(repo), fresh=full)
    inputs = BuildInputs(commit=commit, files=sources.files, read=_reader(snap, keys, texts),
                         graph=None, config=config, submodules=snap.submodules, outputs={},
                         documents=sources.documents, options=options, memo=memo,
                         previous=writer.previous_blobs())
    index_jobs = _IndexJobs(writer, inputs, jobs, sources.nodes)
    # The indexes that read no edges start as soon as the nodes are placed, beside edge resolution.
    # The graph's memo is its own, saved here: forked workers save the tables of `memo` they inherit.
    graph_memo = BuildMemo(git.common_dir(repo), fresh=full)
    unsaved: BuildMemo | None = graph_memo  # what the graph's blobs job saves, unless the graph's own worker did
    if index_jobs.lean:
        graph = _build_graph_apart(sources, graph_memo, lambda: _release_extracts(sources, reused), texts.spill)
        unsaved = None
    else:
        graph = build_graph(_whole_files(sources, texts.spill), sources.declared, on_nodes=index_jobs.start,
                            memo=graph_memo.table("graph"))
        _release_extracts(sources, reused)
    laps.lap("graph")
    job_seconds: dict[str, float] = {}
    sections = index_jobs.finish(graph, sources.warnings, job_seconds, unsaved)
    laps.lap("index")
    laps.phases.update(job_seconds)

    counts = graph.counts()
    limits = config.limits()
    progress("merge", 1, 1)
    written = writer.finish(_manifest(commit, snap, config, sources, counts, sections, limits), commit,
                            snap.commit_time)
    laps.lap("write")
    seconds = laps.total()
    writer.record_timing(written.bundle_commit, seconds, laps.phases)
    if keep is not None:
        keep.append((decoded, sources, graph, inputs, snap, texts, writer))
        gc.freeze()  # and no collection, once `run_build` enables it again, walks them all (a fifth of a second)
    return BuildReport(
        source_commit=commit, source_tree=snap.tree, bundle_commit=written.bundle_commit,
        bundle_tree=written.bundle_tree, ref=ref, updated=written.updated, files_read=len(snap.entries),
        parsed=parsed_paths, reused=reused_paths, skipped=Counter(reason for _, reason in sources.skipped),
        nodes=counts["nodes"], edges=counts["edges"], warnings=len(sources.warnings), seconds=seconds,
        phases=laps.phases, notes=[*writer.notes, *limit_notes(limits)], limits=limits,
    )


def _kept_of(packed: bytes) -> tuple[FileExtract, int]:
    """Of a code file's packed result, what a build keeps once the graph is built (its language and imports) and its
    warnings; and its symbol count. No symbol is made."""
    import marshal

    from gitroute.model import NameRef

    lang, symbols, _calls, imports, _references, _entry, warnings, _bindings, _bases = marshal.loads(packed)[1]
    return FileExtract(lang, imports=tuple(tuple.__new__(NameRef, i) for i in imports), warnings=warnings), len(symbols)


def _whole_files(sources: _Sources, spill: Spill | None) -> list[SourceFile]:
    """The files with every LAZY result decoded (from `spill`): what the graph is built from."""
    if not sources.lazy:
        return sources.files
    assert spill is not None
    from gitroute.bundle.extracts import set_aside_packed

    # Each file's calls and references (most of its bytes) go back to disk until the graph resolves that file.
    return [SourceFile(f.path, f.blob, f.lang, set_aside_packed(spill.get(sources.lazy[f.path]), spill))
            if f.path in sources.lazy else f for f in sources.files]


def _release_extracts(sources: _Sources, reused: Reused) -> None:
    """The graph is built: of each file's extraction, keep what an index reads (its language and its imports: the
    wiring index's Go packages) and let go of the rest (symbols, calls, references, bindings), then hand the
    freed memory back. On the Linux kernel that is gigabytes, which every index worker forked afterwards would
    count again (a forked process's resident memory is its parent's pages as well as its own)."""
    sources.files[:] = [f if f.extract is None else SourceFile(f.path, f.blob, f.lang, FileExtract(
        f.extract.lang, imports=f.extract.imports)) for f in sources.files]
    reused.decoded.clear()
    reused.packed.clear()
    sources.lazy.clear()
    trim_heap()


# What the worker that builds a large graph inherits: the files, the manifests' entry points, the graph's memo, the
# anonymous file it hands the graph back in and the file it writes the nodes to.
_GRAPH_INPUTS: tuple[_Sources, BuildMemo, IO[bytes], IO[bytes], Spill | None] | None = None


def _build_graph_apart(sources: _Sources, graph_memo: BuildMemo, release: Callable[[], None],
                       spill: Spill | None = None) -> CodeGraph:
    """The graph, built in a worker of its own and handed back pickled (a large graph: `_IndexJobs.lean`); the
    parent runs `release` meanwhile.

    Resolving the edges makes and frees gigabytes on the Linux kernel, and a process keeps most of what it freed
    (Python's arenas stay as long as one object in them lives; `trim_heap` hands back only the C heap's free
    pages). Every index worker is forked from the parent, and counts each of the parent's pages as its own: built
    here, the graph arrives in the parent as fresh, compact objects, and the resolution's debris leaves with its
    worker. The pickle goes through an anonymous file, a frame at a time, never whole in either process's memory
    (on linux-core, whole, it was 170 MiB of the worker's peak); the nodes, as a `NodeTable`, through a file of the
    memo's folder, kept for the next build to take unchanged files' rows from (`bundle.node_memo`). The graph's memo
    is saved by that worker, which holds its tables."""
    global _GRAPH_INPUTS
    import pickle
    import tempfile

    nodes_file, kept = nodes_target(graph_memo.folder)
    try:
        with tempfile.TemporaryFile() as handed, nodes_file:
            _GRAPH_INPUTS = (sources, graph_memo, handed, nodes_file, spill)
            try:
                with _signals_held():  # the worker is forked at the first submit
                    pool = _start_pool(1)
                    future = pool.submit(_graph_job)
            finally:
                _GRAPH_INPUTS = None
            release()
            future.result()
            _end_pool(pool)
            handed.seek(0)
            graph = pickle.load(handed)
            graph.nodes = load_nodes(nodes_file, graph_memo.folder)
        if kept is not None:
            keep_nodes(kept, graph_memo.folder)
            kept = None
        return graph
    finally:
        if kept is not None:
            with suppress(OSError):
                os.unlink(kept)


def _graph_job() -> None:
    """Worker: the graph of the files the parent forked it with, pickled into the file it forked it with; its
    memo saved."""
    import pickle

    assert _GRAPH_INPUTS is not None
    sources, graph_memo, handed, nodes_file, spill = _GRAPH_INPUTS
    facts = {f.path: (f.blob, f.lang or "") for f in sources.files}
    whole = _whole_files(sources, spill)
    symbols = {f.path: f.extract.symbols for f in whole if f.extract}  # what `node_details` reads again
    # What resolving read is handed back to the system once freed: the edges and the memo's entries then fill pages it
    # gives again, not pages beside the resolution's debris (linux-core: 82 MiB back; the worker's peak 703 -> 661).
    # The nodes are placed without signatures and docs, which resolving never reads, and are given them again as
    # they are handed back (linux-core: 66 MiB less from placing the nodes on; the peak 661 -> 588).
    graph = build_graph(whole, sources.declared, memo=graph_memo.table("graph"), released=trim_heap, details=False)
    del whole  # of the extracts, only the symbols are read again
    graph_memo.save()
    _memlog("job graph")
    # The nodes cross as a `NodeTable` (the parent, and every index worker it forks, holds them so), written column
    # by column: pickled, millions of tuples of strings each took a place in the pickler's memo. The file is kept
    # for the next build, which takes unchanged files' rows from it (`bundle.node_memo`).
    nodes, graph.nodes = graph.nodes, []
    pickle.dump(graph, handed, protocol=pickle.HIGHEST_PROTOCOL)
    handed.flush()
    earlier = None if graph_memo.fresh else read_earlier(graph_memo.folder, graph_memo.salt)
    write_nodes(nodes_file, nodes, facts, symbols, graph_memo.salt, earlier)


def trim_heap() -> None:
    """Hand the C heap's free pages back to the system (glibc's `malloc_trim`; elsewhere nothing): large tables a
    phase freed stay in the process's resident memory otherwise, and in that of every worker it forks."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def _snapshot(repo_path: str, rev: str, fetch: bool,
              max_file_bytes: int | None) -> tuple[git.Repository, str, Config, git.Snapshot]:
    """The repository, the commit to build, its settings (`max_file_bytes` from the command line over them) and
    the files it holds."""
    repo = git.open_repository(repo_path)
    commit = git.resolve_commit(repo, rev)
    config = parse_config(git.read_commit_file(repo, commit, CONFIG_PATH, fetch=fetch))
    if max_file_bytes is not None:
        config = config.with_max_file_bytes(max_file_bytes)
    snap = git.snapshot_at(repo, commit, max_file_bytes=config.max_file_bytes, excluded=config.excluded(),
                           fetch=fetch)
    return repo, commit, config, snap


def _reuse(writer: BundleWriter, keys: set[str], spill: Spill) -> Reused:
    """The extraction cache's results for `keys` (`BundleWriter.reuse_extractions`); when the cache's files come to
    `LAZY_MIN_BYTES`, its code files' LAZY as fresh ones are (set aside in `spill`, undecoded)."""
    if writer.cache.stored_bytes() < LAZY_MIN_BYTES:
        return writer.reuse_extractions(keys)
    return writer.reuse_extractions(keys, code=lambda packed: (LAZY, spill.put(packed)))


def _to_extract(snap: git.Snapshot, keys: dict[str, str], reused: Reused) -> dict[str, git.Entry]:
    """Key -> a file to extract, for each key the extraction cache does not answer for (`reused.decoded`)."""
    todo: dict[str, git.Entry] = {}
    for entry in snap.entries:
        key = keys[entry.path]
        if key not in reused.decoded and key not in todo:
            todo[key] = entry
    return todo


def _extract(writer: BundleWriter, snap: git.Snapshot, keys: dict[str, str], reused: Reused,
             todo: dict[str, git.Entry], jobs: int | None, progress: Progress, spill: Spill) -> _Texts:
    """Extract `todo` into `reused.decoded`, writing the extraction cache's shards as they complete; returns where
    the code files' bytes are set aside (in `spill`)."""
    texts = _Texts(spill)
    shards = writer.extract_shards(set(keys.values()), reused, reused.decoded, set(todo), spill)
    shards.start()
    _extract_all(todo, reused.decoded, shards, texts, snap, jobs, progress)
    return texts


def _reader(snap: git.Snapshot, keys: dict[str, str], texts: _Texts) -> Callable[[str], bytes]:
    """A file's bytes by path, for an index that scans file text (contract readers, message literals): what
    extraction set aside of a file it parsed (`_Texts`); any other is read again."""
    entries = {e.path: e for e in snap.entries}

    def read(path: str) -> bytes:
        text = texts.read(keys[path])
        return text if text is not None else snap.read(entries[path])

    return read


def _manifest(commit: str, snap: git.Snapshot, config: Config, sources: _Sources, counts: dict, sections: dict,
              limits: dict) -> dict:
    skipped = Counter(reason for _, reason in sources.skipped)
    return {
        "format_version": FORMAT_VERSION,
        "extractor_version": EXTRACTOR_VERSION,
        "gitroute_version": __version__,
        "source": {"commit": commit, "tree": snap.tree},
        "submodules": [{"path": s.path, "commit": s.commit, "present": s.present} for s in snap.submodules],
        "config_fingerprint": config.fingerprint(),
        "limits": limits,
        "counts": {"files": len(sources.files), **counts},
        "calls": CALL_RESOLUTION,
        "indexes": sections,
        "skipped": sources.skipped,
        "skipped_by_reason": dict(sorted(skipped.items())),
        "warnings": sources.warnings[:MAX_REPORTED_WARNINGS],
        "warnings_total": len(sources.warnings),
    }


PARALLEL_MIN_NODES = 20_000  # below this, forking index workers costs more than it saves
# From this many nodes on (the Linux kernel's core has 600,000; django 90,000), a build keeps its memory rather
# than save a little time: once the graph is whole, each index job runs in a worker forked for it alone (a worker
# that runs several keeps what each left behind, and a forked process counts its parent's pages as its own), the
# parent runs none, and an index's prepare step is not a job of its own (its output, a whole index's postings,
# would cross to the parent to be handed on). The graph itself is built in a worker (`_build_graph_apart`), and no
# early pool is forked while it is: the parent every job is forked from holds the graph and little else.
LEAN_MIN_NODES = 250_000
# What forked index workers inherit instead of a pickled copy: the build's inputs and git dir, and the
# graph's memo, which the graph's blobs job saves wherever it runs (the parent has other work).
_FORKED: tuple[BuildInputs | None, str] = (None, "")
_GRAPH_MEMO: BuildMemo | None = None


class _Done(NamedTuple):
    """What a build job hands back: blob ids by bundle path, and for an index its section, warnings, output."""

    ids: dict[str, str]
    section: dict
    warnings: list
    output: object
    seconds: float


def _write_graph() -> _Done:
    """Job: the graph's blobs, written to the object database (in a worker, or inline).

    A blob whose digest is the one the memo holds for its path is the blob written then, when it is
    still in the object database: a one-file commit encodes and writes the few buckets it touched."""
    started = time.monotonic()
    inputs, git_dir = _FORKED
    assert inputs is not None
    repo = git.open_git_dir(git_dir)
    memo = inputs.memo.table("graph_blobs") if inputs.memo is not None else None
    earlier = memo.get("blobs") if memo is not None else None
    files = memo.get("files") if memo is not None else None
    if isinstance(earlier, dict):
        earlier = {path: hit for path, hit in earlier.items() if isinstance(hit, tuple) and len(hit) == 2
                   and isinstance(hit[0], bytes) and isinstance(hit[1], str)}
        present = git.stored_objects(repo, [blob_id for _digest, blob_id in earlier.values()])
        earlier = {path: hit for path, hit in earlier.items() if hit[1] in present}
    with git.BlobStream(repo) as stream:  # each blob written as it is encoded, none held
        made = graph_blobs_since(inputs.graph, earlier if isinstance(earlier, dict) else {},
                                 files if isinstance(files, dict) else {}, stream.add)
        ids = stream.close()
    ids.update(made.kept)
    if memo is not None and inputs.memo is not None:
        memo.put("blobs", {path: (digest, ids[path]) for path, digest in made.digests.items() if digest})
        memo.put("files", made.files)
        inputs.memo.save()
    if _GRAPH_MEMO is not None:
        _GRAPH_MEMO.save()  # the graph's own memo, as the parent built it (a worker forked after it has a copy)
    _memlog("job graph blobs")
    return _Done(ids, {}, [], None, time.monotonic() - started)


def _prepare_index(name: str) -> _Done:
    """Job: the part of an index's build that needs no other index (its `prepare`), handed to its build."""
    started = time.monotonic()
    inputs, _git_dir = _FORKED
    assert inputs is not None
    prepared = load_index(name).prepare(inputs)
    if inputs.memo is not None:
        inputs.memo.save()
    _memlog(f"job {name} prepare")
    return _Done({}, {}, [], prepared, time.monotonic() - started)


def _write_index(name: str, outputs: dict[str, object]) -> _Done:
    """Job: one index built and its blobs written."""
    started = time.monotonic()
    inputs, git_dir = _FORKED
    assert inputs is not None
    index = load_index(name)
    if not getattr(index, "EDGES", True) and not isinstance(inputs.graph.edges, _PendingEdges):
        inputs = inputs._replace(graph=_nodes_only(inputs.graph.nodes))  # run late: still no edge read
    built = index.build(inputs._replace(outputs=outputs))
    if inputs.memo is not None:
        inputs.memo.save()  # this index's tables, from the process that used them
    blobs = {f"{index.NAME}/{path}": data for path, data in built.blobs.items()}
    blobs[f"{index.NAME}/{INDEX_META}"] = dump_json(built.section)
    ids = git.write_blobs(git.open_git_dir(git_dir), blobs)
    ids.update((f"{index.NAME}/{path}", oid) for path, oid in built.kept.items())
    # An output no index needs stays here: doc_links's links would cross from a worker for nothing.
    output = built.output
    if not (isinstance(output, dict) and "large" in output) and not any(
            name in load_index(other).NEEDS for other in INDEXES):
        output = None
    _memlog(f"job {name}")
    return _Done(ids, built.section, [list(w) for w in built.warnings], output, time.monotonic() - started)


GRAPH_JOB = "graph blobs"
LONGEST = "(longest)"  # `_IndexJobs._submit`'s hold: whichever ready job the last build timed longest
PREPARE_SUFFIX = " prepare"  # an index's prepare job: "meaning prepare"


class _PendingEdges(list):
    """The edges of a graph an index gets when it declared it reads none (EDGES = False): it may be
    built while they are still being resolved, so any read of them is a bug, and fails loudly."""

    def _pending(self, *args: object) -> NoReturn:
        raise RuntimeError("this index declared EDGES = False, but reads the graph's edges")

    __iter__ = __len__ = __getitem__ = __bool__ = _pending


def _nodes_only(nodes: list) -> CodeGraph:
    return CodeGraph(nodes, _PendingEdges(), Counter())


class _IndexJobs:
    """The graph's blobs and every registered index, as jobs, each handed the outputs of the indexes it needs.

    On a large graph, in forked workers: `start` (called once the nodes are placed) forks workers for the
    indexes that read no edges (EDGES = False), one core fewer than the build's, while the parent
    resolves the edges; `finish` forks more for the graph's blobs and the indexes that read edges.
    Longest first, by the last build's own seconds of each job, so that no worker is left with one long
    job at the end while another idles.
    """

    def __init__(self, writer: BundleWriter, inputs: BuildInputs, jobs: int | None, nodes: int | None = None) -> None:
        self.writer, self.inputs = writer, inputs
        self.workers = jobs if jobs is not None else (os.cpu_count() or 1)
        modules = {name: load_index(name) for name in INDEXES}
        self.needs = {name: tuple(modules[name].NEEDS) for name in INDEXES}
        self.needs[GRAPH_JOB] = ()
        self.edges = {name: bool(getattr(modules[name], "EDGES", True)) for name in INDEXES}
        self.edges[GRAPH_JOB] = True
        # An index with a `prepare` step gets a job of its own for it, which needs nothing: what the index
        # can do before the indexes it needs are built is not left waiting for them.
        self.prepares: dict[str, str] = {}  # prepare job -> its index
        self.names = []
        if nodes is None:
            nodes = sum(1 + (len(f.extract.symbols) if f.extract else 0) for f in inputs.files)
        self.lean = nodes >= LEAN_MIN_NODES  # with one job too: the memory a build keeps is not a choice of speed
        for name in INDEXES:
            if hasattr(modules[name], "prepare") and not self.lean:
                job = f"{name}{PREPARE_SUFFIX}"
                self.prepares[job] = name
                self.needs[job], self.edges[job] = (), self.edges[name]
                self.needs[name] = (*self.needs[name], job)
                self.names.append(job)
            self.names.append(name)
        self.names.append(GRAPH_JOB)
        self.cost = writer.previous_phases()
        self.done: dict[str, _Done] = {}
        self.running: dict[Future, str] = {}
        self.early: ProcessPoolExecutor | None = None  # forked with the nodes only
        self.late: ProcessPoolExecutor | None = None  # forked with the whole graph
        self.early_jobs: set[Future] = set()  # those running in the early pool
        self.alone: dict[Future, ProcessPoolExecutor] = {}  # lean: each late job in a worker of its own

    def start(self, nodes: list) -> None:
        """The nodes are placed: on a large graph, start the indexes that read no edges in workers."""
        global _FORKED
        if self.workers < 2 or len(nodes) < PARALLEL_MIN_NODES:
            return
        if self.inputs.memo is not None:
            self.inputs.memo.save()  # no table open in the parent is inherited by a worker
        _FORKED = (self.inputs._replace(graph=_nodes_only(nodes)), self.writer.repo.path)
        try:
            with _signals_held():  # the workers are forked at the first submit
                # One core is the parent's: it resolves the edges, which what waits for the whole graph
                # (doc_links, the graph's blobs) waits for in turn: the build's longest path.
                self.early = _start_pool(self.workers - 1)
                self._submit(edges=False)
        finally:
            _FORKED = (None, "")

    def finish(self, graph: CodeGraph, warnings: list[list[str]], phases: dict[str, float],
               graph_memo: BuildMemo | None = None) -> dict[str, dict]:
        """Run every job not yet done (the graph's blobs job saves `graph_memo` too); returns each index's
        manifest section, in registry order."""
        global _FORKED, _GRAPH_MEMO
        whole = self.inputs._replace(graph=graph)
        _FORKED = (whole, self.writer.repo.path)
        _GRAPH_MEMO = graph_memo
        try:
            if self.early is None and not self.lean:  # lean: no early pool, the graph built apart
                nodes_only = self.inputs._replace(graph=_nodes_only(graph.nodes))
                for name in self.names:
                    _FORKED = (whole if self.edges[name] else nodes_only, self.writer.repo.path)
                    self.done[name] = self._job(name)
            else:
                # The parent runs a job too, rather than only wait. On a rebuild, the longest ready one: jobs
                # are short, and a worker's fork and its pickled output are a good part of one. On a first or
                # --full build, the graph's blobs first (the parent's own data), then as a worker would.
                # Jobs ready from now on go to the late pool; the early one ends when its last job does (a
                # worker holds what its jobs built until it exits). No more jobs run at once than the build has
                # workers, the parent's among them: each holds its index's whole structures (a kernel's, gigabytes).
                hold: str | None = LONGEST if not self.writer.full and self.writer.previous is not None else GRAPH_JOB
                if self.lean:  # the parent runs none: what a job leaves in a process would stay in every later fork
                    hold = None
                with _signals_held():
                    if not self.lean:
                        self.late = _start_pool(max(1, self.workers - 1))
                    held = self._submit(edges=True, hold=hold)
                while True:
                    if held is None and self.running:
                        held = self._steal()
                    if held is not None:
                        self.done[held] = self._inline(held)
                        hold = LONGEST
                    elif not self.running:
                        break
                    else:
                        from concurrent.futures import FIRST_COMPLETED, wait

                        finished, _ = wait(self.running, return_when=FIRST_COMPLETED)
                        for future in finished:
                            self.done[self.running.pop(future)] = future.result()
                            self.early_jobs.discard(future)
                            if future in self.alone:
                                _end_pool(self.alone.pop(future))
                    if self.early is not None and not self.early_jobs:
                        _end_pool(self.early)  # only on success: run_build ends a failed build's pools
                        self.early = None
                    held = self._submit(edges=True, hold=hold)
                if self.early is not None:
                    _end_pool(self.early)
                if self.late is not None:
                    _end_pool(self.late)
        finally:
            _FORKED, _GRAPH_MEMO = (None, ""), None
        graph_done = self.done.pop(GRAPH_JOB)
        self.writer.add_stored(graph_done.ids)
        phases[GRAPH_JOB] = round(graph_done.seconds, 3)
        for job in self.prepares:
            phases[f"index {job}"] = round(self.done.pop(job).seconds, 3)
        sections: dict[str, dict] = {}
        for name in INDEXES:  # each index's own time, for the report: they overlap in workers
            done = self.done[name]
            self.writer.add_stored(done.ids)
            warnings.extend(done.warnings)
            sections[name] = done.section
            phases[f"index {name}"] = round(done.seconds, 3)
            output = done.output
            if isinstance(output, dict) and "large" in output:  # a model and its vectors: their own ref
                self.writer.stage_large(output["large"])
        return sections

    def _steal(self) -> str | None:
        """The longest early job no worker has started yet (still queued in its pool), taken back for the parent to
        run: it would otherwise wait for the early worker while that one works through a queue of jobs (a one-file
        rebuild's indexes that read no edges, django: the parent was done first)."""
        queued = [future for future in self.early_jobs if not future.running() and not future.done()]
        queued.sort(key=lambda future: -self.cost.get(f"index {self.running[future]}", 0.0))
        for future in queued:
            if future.cancel():  # False once the pool has handed it to its worker
                self.early_jobs.discard(future)
                return self.running.pop(future)
        return None

    def _job(self, name: str) -> _Done:
        function, args = self._call(name)
        return function(*args)

    def _inline(self, name: str) -> _Done:
        """Job `name` run by the parent, once the graph is whole (an index that reads no edges gets none)."""
        global _FORKED
        whole, git_dir = _FORKED
        assert whole is not None
        _FORKED = (whole if self.edges[name] else whole._replace(graph=_nodes_only(whole.graph.nodes)), git_dir)
        try:
            return self._job(name)
        finally:
            _FORKED = (whole, git_dir)

    def _call(self, name: str) -> tuple[Callable[..., _Done], tuple]:
        """The module-level function that runs job `name`, and its arguments (what a worker is sent)."""
        if name == GRAPH_JOB:
            return _write_graph, ()
        if name in self.prepares:
            return _prepare_index, (self.prepares[name],)
        return _write_index, (name, {(PREPARED if n in self.prepares else n): self.done[n].output
                                     for n in self.needs[name]})

    def _submit(self, *, edges: bool, hold: str | None = None) -> str | None:
        """Submit every job whose needs are met, longest first: while the edges are resolved, those that read
        none to the early pool; once `edges` (the graph is whole), any to the late one. A job that becomes ready alone
        while no other runs (the meaning index, once doc_links is done) is run by the parent: there is
        nothing to overlap it with, and its inputs need not cross to a worker. `hold` (a job's name, or
        LONGEST: the longest ready job), when ready, is not submitted but returned, for the parent to run:
        the parent would only wait for the workers, and a worker would start it later (forked, or behind
        another job) and hand its output back pickled. Once the graph is whole, no more are submitted than leave
        the build's workers (the parent's held job counting as one) each one job: the others wait for a job to end."""
        while True:
            busy = set(self.running.values())
            ready = [n for n in self.names if n not in self.done and n not in busy
                     and all(n2 in self.done for n2 in self.needs[n]) and (edges or not self.edges[n])]
            if not (edges and self.late is not None and not self.running and len(ready) == 1):
                break
            self.done[ready[0]] = self._inline(ready[0])
        ready.sort(key=lambda n: -self.cost.get(n if n == GRAPH_JOB else f"index {n}", 0.0))
        held = None
        if hold == LONGEST and ready:
            held = ready[0]
        elif hold in ready:
            held = hold
        room = self.workers - len(self.running) - (held is not None)
        for name in ready:
            if name == held:
                continue
            if edges and room <= 0:
                break  # submitted when a running job ends
            room -= 1
            early = not edges
            pool = self.early if early else self.late
            function, args = self._call(name)
            if pool is None:  # lean: a worker forked for this job alone, from the parent as it is now
                with _signals_held():
                    pool = _start_pool(1)
                    future = pool.submit(function, *args)
                self.alone[future] = pool
            else:
                future = pool.submit(function, *args)
            self.running[future] = name
            if early:
                self.early_jobs.add(future)
        return held


def _extract_all(todo: dict[str, git.Entry], decoded: dict[str, tuple], shards: ExtractShards, texts: _Texts,
                 snap: git.Snapshot, jobs: int | None, progress: Progress) -> None:
    """Extract every key of `todo` into `decoded`, handing where each result's packed bytes are to `shards` as it
    arrives, and where code files' bytes are to `texts`.

    In forked workers that read their blobs themselves, in the snapshot's order (blobs read in path order inflate
    about twice as fast as in any other: git's packs keep deltas of neighbours), but the largest files first, so
    that no worker is left with one at the end; what they set aside is in `texts.spill`."""
    global _EXTRACTING
    items = sorted(todo.items(), key=lambda item: -item[1].size if item[1].size >= LARGE_FIRST_BYTES else 0)
    total = len(items)
    progress("parse", 0, total)
    workers = jobs if jobs is not None else (os.cpu_count() or 1)
    size = sum(entry.size for _key, entry in items)
    _EXTRACTING = (snap, texts.spill)
    try:
        if total > 1 and (workers > 1 and size >= PARALLEL_MIN_BYTES or size >= ALONE_MIN_BYTES):
            _load_languages(todo)
            done = _extracted_in_rounds(items, workers)
        else:
            done = map(_extract_entry, items)
        # Code files' packed results, decoded at the end unless they come to be many (None: they did)
        held: dict[str, bytes] | None = {}
        held_bytes = 0
        for count, (key, packed, packed_at, text_at) in enumerate(done, 1):
            if text_at is None:  # no code: decoded now
                decoded[key] = load_result(packed)
            else:
                decoded[key] = (LAZY, packed_at)
                if held is not None:
                    held[key] = packed
                    held_bytes += len(packed)
                    if held_bytes >= LAZY_MIN_BYTES:
                        held = None
            shards.add(key, packed_at)
            if text_at is not None:
                texts[key] = text_at
            if count % 50 == 0:
                progress("parse", count, total)
        if held is not None:  # few: decoded here, as they always were
            for key, packed in held.items():
                decoded[key] = load_result(packed)
    finally:
        _EXTRACTING = None
    progress("parse", total, total)


def _extracted_in_rounds(items: list[tuple[str, git.Entry]], workers: int) -> Iterator[tuple]:
    """`_extract_entry` of each item, in order, by pools of forked workers that each extract about
    `EXTRACT_WORKER_FILES` items or `EXTRACT_WORKER_BYTES`, whichever comes first: a worker's memory grows with the
    files it has parsed (see those constants)."""
    start = 0
    while start < len(items):
        end, held = start, 0
        while end < len(items) and end - start < EXTRACT_WORKER_FILES * workers and (
                held < EXTRACT_WORKER_BYTES * workers or end == start):
            held += items[end][1].size
            end += 1
        with _signals_held():  # the workers are forked here
            pool = _start_pool(workers)
            done = pool.map(_extract_entry, items[start:end], chunksize=4)
        yield from done
        _end_pool(pool)
        start = end


def _load_languages(todo: dict[str, git.Entry]) -> None:
    """Compile the tag queries of the languages `todo`'s paths name, once, for the workers about to be forked."""
    from gitroute.parsing.grammars import load_languages
    from gitroute.parsing.languages import DATA_LANGUAGES

    langs = {_key_lang(key) for key in todo}
    load_languages(sorted(lang for lang in langs if lang and not lang.startswith(DOCUMENT)
                          and lang not in DATA_LANGUAGES))


# --- worker processes ----------------------------------------------------------------------
# A `with ProcessPoolExecutor` that is interrupted waits for every queued task before it exits,
# and workers that take Ctrl-C themselves deadlock it; git's wrapper forwards SIGINT, so a
# build gets two. Workers therefore ignore SIGINT and die with their parent, and the pools of a
# build that fails or is interrupted are ended by `run_build`, not waited for.

_POOLS: list[ProcessPoolExecutor] = []  # the pools this process has running


@contextmanager
def _signals_held() -> Iterator[None]:
    """Hold SIGINT back while workers are forked: a handler that runs inside fork's own callbacks is lost.

    Threads started meanwhile (the pool's) keep SIGINT blocked for good, so it always reaches the
    main thread, which is the one that acts on it.
    """
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _start_pool(workers: int) -> ProcessPoolExecutor:
    """Forked workers (at the first submit)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"),
                               initializer=_worker_init, initargs=(os.getpid(),))
    _POOLS.append(pool)
    return pool


def _end_pool(pool: ProcessPoolExecutor) -> None:
    """A pool whose work is done: let its workers exit."""
    _POOLS.remove(pool)
    pool.shutdown()


def _stop_pools() -> None:
    """End every running pool now: cancel what is queued and terminate the workers (SIGINT they ignore)."""
    while _POOLS:
        pool = _POOLS.pop()
        # ProcessPoolExecutor has no terminate(): its process table is the only handle on the workers.
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(1.0)
            if process.is_alive():
                process.kill()


def _worker_init(parent: int) -> None:
    """A pool worker: Ctrl-C is the parent's to handle, and the worker must not outlive its parent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # forked with SIGINT held back (see _signals_held); now ignored
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    armed = False
    try:
        import ctypes

        # Linux: the kernel kills this worker when the parent dies, even by SIGKILL.
        libc = ctypes.CDLL(None, use_errno=True)
        armed = libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
    except (OSError, AttributeError):  # not Linux: no prctl
        armed = False
    if os.getppid() != parent:  # the parent died before the signal was armed
        os._exit(1)
    if not armed:
        threading.Thread(target=_exit_with_parent, args=(parent,), daemon=True).start()


def _exit_with_parent(parent: int) -> None:
    """Where prctl is missing: poll for the parent, since a worker blocked on its queue never notices."""
    while os.getppid() == parent:
        time.sleep(PARENT_POLL_SECONDS)
    os._exit(1)
