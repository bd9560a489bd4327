"""The index seam: what every index module provides, and what a build hands it.

An index is one module of this package with, at module level (in the spirit of pre-commit's
`lang_base.py`):

    NAME: str                  its folder in the bundle tree and its key in build.json's "indexes"
    NEEDS: tuple[str, ...]     earlier indexes whose `output` it is handed (never imported)
    EDGES: bool                optional, True when absent; False: its build reads the graph's nodes and
                               no edge, so it may start while the edges are still being resolved
    QUESTION_TYPES: dict       bench question type -> answer options (`{"symbol": {}}`)
    def build(inputs: BuildInputs) -> IndexBuild
    def prepare(inputs) -> object  optional: the part of the build that needs no index of NEEDS, run as
                               soon as the index could start without them; `build` finds its result in
                               `inputs.outputs[PREPARED]` (absent when it was not run: `build` must cope)
    def answer(view, question: str, *, limit: int, explain: bool, **options) -> Answer
    def warm(view) -> None     optional: decode ahead, into `view.memo`, what answers read (a warm server)

`gitroute.registry` lists them in build order. No index imports a sibling: the build passes data
between them through `BuildInputs.outputs`. `answer` gets a `bundle.store.IndexView`: its own folder
(`read`, `read_json`, `section`, `corrupt`), the code graph (`graph.records/nodes/edges_in/edges_out`)
and the answer's `source`. docs/decisions/0002-index-protocol.md says why.
"""
from __future__ import annotations

from collections import namedtuple

PREPARED = "(prepared)"  # the key of `prepare`'s result in `BuildInputs.outputs` (no index has this name)


class BuildInputs(namedtuple("BuildInputs",
                             "commit files read graph config submodules outputs documents options memo previous",
                             defaults=({}, None, None, {}))):
    """What a build hands every index.

    commit: str, the pinned source commit; files: Sequence[graph.SourceFile], every text file of the
    snapshot and its submodules, sorted by path; read: Callable[[str], bytes], a file's content by path,
    from the pinned commit; graph: graph.CodeGraph; config: config.Config; submodules:
    Sequence[git.Submodule]; outputs: Mapping[str, object], the `output` of each index named in NEEDS;
    documents: Mapping[str, model.Document], every Markdown and reStructuredText file parsed (the build
    caches them by blob id, as it does code extractions), by path.
    options: Mapping[str, object] | None, build options an index may read (`meaning_model`).
    memo: bundle.memo.BuildMemo | None, per-item results of this repository's earlier builds: an index
    may take one only under a key naming everything it depended on, so that the bundle is byte for byte
    what a build without the memo writes (`memo.table(NAME)`: `get(key)`, `put(key, value)`, plain data).
    previous: bundle.writer.StoredBlobs, bundle path -> blob id of every blob in the bundle the ref holds
    (none for `--full`): untrusted, so only a proof that a blob the memo names is still stored (see
    `IndexBuild.kept`), and `read(path, blob_id)` its content, when it is the blob that id names.
    """

    __slots__ = ()


class IndexBuild(namedtuple("IndexBuild", "blobs section warnings output kept", defaults=((), None, {}))):
    """What an index's build returns.

    blobs: dict[str, bytes], paths relative to the index's folder, canonical JSON (`layout.dump_json`);
    section: dict, JSON-able, with "counts": {str: int} (status prints them), stored as the index's
    `meta.json` and in build.json; warnings: Sequence[tuple[str, str]], (path, warning); output: object,
    handed to later indexes that name this one in NEEDS; an output dict with a "large" key holds blobs
    for `refs/marola/routing-bundle-large` (bundle paths -> bytes), which the writer commits there.
    kept: dict[str, str], paths relative to the index's folder -> the id of a blob already stored that is
    byte for byte what `blobs` would hold there (a shard whose inputs the memo shows unchanged, whose id the
    memo recorded and `BuildInputs.previous` shows stored): written by id, not encoded again.
    """

    __slots__ = ()
