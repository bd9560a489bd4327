"""One typed function per command; returns records (model.py) and never prints.

A thin facade: answer policy across indexes lives in `gitroute.query` (docs/decisions/0024), building in
`gitroute.build`, the bench in `gitroute.bench`. Imports of the builder's dependencies (pygit2, tree-sitter)
stay inside the functions that need them: a query is a process start, and those imports cost more than the answer.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from gitroute.model import Answer

# typing.TYPE_CHECKING without importing typing, which a cold query would pay for; type
# checkers treat any name TYPE_CHECKING as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from gitroute.ask import Classification
    from gitroute.bench import BenchReport
    from gitroute.build import BuildReport
    from gitroute.bundle.store import BundleView
    from gitroute.committed import CommittedResult
    from gitroute.hooks import PointerSync
    from gitroute.status import StatusReport


def answer(index: str, question: str, *, repo: str = ".", limit: int = 10, explain: bool = False,
           bundle: BundleView | None = None, **options: object) -> Answer:
    """Ask one index of the bundle: the generic path every index's command takes.

    `bundle`: an open view to answer from (the MCP server's warm one); by default one is opened and closed.
    """
    from gitroute import query as policy

    return policy.answer(index, question, repo=repo, limit=limit, explain=explain, bundle=bundle, **options)


def warm(view: BundleView, repo: str | None = None) -> bool:
    """Decode ahead what answers read, for a server that keeps `view` pinned (and with `repo` the contextual model);
    False when the bundle is too large to decode whole (`query.WARM_MAX_NODES`)."""
    from gitroute import query as policy

    return policy.warm(view, repo)


def ask(text: str, *, repo: str = ".", limit: int = 10, explain: bool = False,
        bundle: BundleView | None = None) -> tuple[Answer, Classification]:
    """Classify a question and answer it from the index (or indexes) its kind needs; rows carry their `type`."""
    from gitroute import query as policy

    return policy.ask(text, repo=repo, limit=limit, explain=explain, bundle=bundle)


def ask_command(name: str, text: str, *, repo: str = ".", limit: int = 10, explain: bool = False,
                bundle: BundleView | None = None, **options: object) -> Answer:
    """Answer through one command of the `ask` table (query, docs, code, impact, why, wiring) by name."""
    from gitroute import query as policy

    return policy.ask_command(name, text, repo=repo, limit=limit, explain=explain, bundle=bundle, **options)


def docs(text: str, *, repo: str = ".", limit: int = 10, explain: bool = False,
         bundle: BundleView | None = None) -> Answer:
    """The documents that explain a symbol or a file (`query.beside.docs`)."""
    from gitroute.query.beside import docs as answer_docs

    return answer_docs(text, repo=repo, limit=limit, explain=explain, bundle=bundle)


def code(text: str, *, repo: str = ".", limit: int = 10, explain: bool = False,
         bundle: BundleView | None = None) -> Answer:
    """The files and symbols a document names, the code kept beside it first (`query.beside.code`)."""
    from gitroute.query.beside import code as answer_code

    return answer_code(text, repo=repo, limit=limit, explain=explain, bundle=bundle)


def query(text: str, *, repo: str = ".", limit: int = 10, kinds: Sequence[str] = (), langs: Sequence[str] = (),
          path_glob: str | None = None, explain: bool = False, meaning: bool = False,
          bundle: BundleView | None = None) -> Answer:
    """Rank the bundle's files and symbols against `text`: names and plain words mixed (`query.query`)."""
    from gitroute import query as policy

    return policy.query(text, repo=repo, limit=limit, kinds=kinds, langs=langs, path_glob=path_glob,
                        explain=explain, meaning=meaning, bundle=bundle)


def meaning(text: str, *, repo: str = ".", limit: int = 10, explain: bool = False,
            candidate: str | None = None) -> Answer:
    """A question in plain words, answered by the candidate the bundle records (or `candidate`):
    `bm25` (the meaning index), `embedding` (cosine over the large bundle's vectors) or `hybrid` (both, fused)."""
    from gitroute.query import opened
    from gitroute.query.meaning import answer_meaning

    with opened(repo, None) as view:
        return answer_meaning(view, repo, text, limit, explain, candidate)


def meaning_candidate(*, repo: str = ".") -> str:
    """The candidate the bundle records for --meaning (bm25 when it records none)."""
    from gitroute.query.meaning import meaning_candidate as recorded

    return recorded(repo=repo)


def meaning_rule(path: str | None = None, *, repo: str = ".", cold_runs: int = 3) -> list:
    """Each --meaning candidate on the bench's meaning questions (`query.meaning.meaning_rule`)."""
    from gitroute.query.meaning import meaning_rule as contest

    return contest(path, repo=repo, cold_runs=cold_runs)


def lint(rev: str = "HEAD", *, repo: str = ".") -> list[tuple[str, int, str]]:
    """(path, line, text) of each decision-record line at REV that records a decision without the marker."""
    import functools

    from gitroute.config import CONFIG_PATH, parse_config
    from gitroute.git import repository as git
    from gitroute.indexes.decisions.lint import lint_documents
    from gitroute.parsing.documents import parse_documents

    repository = git.open_repository(repo)
    commit = git.resolve_commit(repository, rev)
    config = parse_config(git.read_commit_file(repository, commit, CONFIG_PATH))
    snap = git.snapshot_at(repository, commit, max_file_bytes=config.max_file_bytes, excluded=config.excluded())
    return lint_documents(parse_documents((e.path, functools.partial(snap.read, e)) for e in snap.entries), config)


def build(rev: str = "HEAD", *, repo: str = ".", jobs: int | None = None,
          progress: Callable[[str, int, int], None] | None = None, full: bool = False,
          meaning_model: str | None = None, meaning_dtype: str = "float16", meaning_answer: str = "bm25",
          fetch: bool = True, keep: list | None = None, max_file_bytes: int | None = None) -> BuildReport:
    """Build the bundle for REV and move the bundle ref to it in one compare-and-swap.

    `full` extracts every file again; otherwise results are reused from this repository's own
    earlier bundles (never from a fetched one). In a partial clone, the blobs the commit needs are
    fetched from the promisor remote first, unless `fetch` is False; blobs still missing are skipped
    as `missing`. `meaning_model`: a local static-model folder whose vectors go to
    refs/marola/routing-bundle-large, with `meaning_answer` the candidate for --meaning. `keep`: see
    `build.run_build` (a caller about to exit). `max_file_bytes`: the command line's size limit per file, which
    may go past the safety ceiling that a committed `.gitroute.toml` is held to.
    """
    from gitroute.build import run_build

    options = {"meaning_model": meaning_model, "meaning_dtype": meaning_dtype,
               "meaning_answer": meaning_answer} if meaning_model else None
    return run_build(rev, repo_path=repo, jobs=jobs, progress=progress, full=full, fetch=fetch, options=options,
                     keep=keep, max_file_bytes=max_file_bytes)


def status(*, repo: str = ".") -> StatusReport:
    from gitroute.status import read_status

    return read_status(repo)


def bench(path: str | None = None, *, repo: str = ".", through_ask: bool = False,
          through_query: bool = False, whole_files: bool = False) -> BenchReport:
    """Ask every question of a routing-bench.yaml through the index that owns its type, and score it.

    A `sentence` question is asked of its dedicated command (its `route`) with its `argument`.
    `through_ask`: ask every question, whatever its type, through `ask` (which must find the index itself);
    a sentence as it is written.
    `through_query`: ask the questions of the types plain `git route query` answers (symbol, meaning,
    negative) through it, which decides the mix of symbol tiers and BM25 itself.
    `whole_files`: ask the sentence questions of plain BM25 over the whole text of every file of the bundle's
    commit (`bench.WholeFiles`), the baseline `ask` is held to; the other types are not asked.
    """
    from gitroute.bench import find_default_bench, read_bench, run_bench
    from gitroute.bundle.store import BundleView
    from gitroute.git.catfile import work_tree_top
    from gitroute.query import bench_askers

    bench_file = read_bench(path or find_default_bench(work_tree_top(repo), _configured_bench_file(repo)))
    with BundleView(repo) as view:
        return run_bench(bench_file, bench_askers(view, repo, through_ask=through_ask, through_query=through_query,
                                                  whole_files=whole_files))


def committed_file(name: str, *, repo: str = ".", path: str | None = None, action: str = "check",
                   force: bool = False) -> CommittedResult:
    """Render a committed generated file from the bundle, then show it, check it or write it (`generated`)."""
    from gitroute.generated import render_committed

    return render_committed(name, repo=repo, path=path, action=action, force=force)


def hook_post_merge(*, repo: str = ".") -> str:
    """After a merge or pull: rebuild the bundle for HEAD, detached when the last build was long.

    Returns what it did: "fresh" (the bundle already answers for HEAD), "built" or "background".
    """
    from gitroute import hooks

    head = hooks.resolve(repo, "HEAD")
    if head is None or _bundle_commit(repo) == head:
        return "fresh"
    if hooks.builds_in_background(repo):
        hooks.start_background_build(repo)
        return "background"
    build("HEAD", repo=repo)
    return "built"


def hook_pointer_sync(hook_args: Sequence[str] = (), *, repo: str = ".", force: bool = False) -> PointerSync:
    """When submodule pointers moved, rebuild for HEAD and regenerate DOC-CODE.md behind the shrink guard.

    `hook_args` are the git hook's own arguments (post-checkout's three, post-merge's one); none,
    as from CI, means there is no previous commit to compare: regenerate for HEAD.
    """
    from gitroute import hooks

    previous, look = hooks.previous_head(repo, tuple(hook_args))
    head = hooks.resolve(repo, "HEAD")
    if not look or head is None:
        return hooks.PointerSync((), None)
    if previous is not None:
        moved = tuple(hooks.moved_pointers(repo, previous, head))
        if not moved:
            return hooks.PointerSync((), None)
    else:
        moved = tuple(sorted(hooks.gitlinks(repo, head)))
    if _bundle_commit(repo) != head:
        build("HEAD", repo=repo)
    result = committed_file("doc-code", repo=repo, action="write", force=force)
    return hooks.PointerSync(moved, result)


def _bundle_commit(repo: str) -> str | None:
    """The commit the bundle answers for; None when there is none or it cannot be read (a build replaces it)."""
    from gitroute.bundle.store import BundleView
    from gitroute.errors import GitrouteError

    try:
        with BundleView(repo) as view:
            return view.source.commit
    except GitrouteError:
        return None


def _configured_bench_file(repo: str) -> str:
    """`[bench] file` of the `.gitroute.toml` at the commit the bundle answers from (the config's one source)."""
    from gitroute.bundle.store import BundleView
    from gitroute.config import CONFIG_PATH, parse_config

    with BundleView(repo) as view:
        found = view.reader.read([f"{view.source.commit}:{CONFIG_PATH}"])[0]
    return parse_config(found[2] if found is not None and found[1] == "blob" else None).bench


def fetch(remote: str = "origin", *, repo: str = ".", meaning: bool = False) -> list:
    """Fetch the bundle (and with `meaning` the large bundle) from REMOTE, checked before the refs move."""
    from gitroute.bundle.remote import fetch_bundle

    return fetch_bundle(repo, remote, meaning)


def push(remote: str = "origin", *, repo: str = ".", meaning: bool = False) -> list:
    """Push the bundle (and with `meaning` the large bundle) to REMOTE: what CI runs after a build."""
    from gitroute.bundle.remote import push_bundle

    return push_bundle(repo, remote, meaning)


def large_status(*, repo: str = ".") -> tuple[str, str]:
    """(state, detail) of refs/marola/routing-bundle-large against the bundle: absent, unrecorded, matches, mismatch."""
    from gitroute.bundle.large import verify_large

    return verify_large(repo)


def make_model(folder: str, name: str) -> dict:
    """Make the contextual model's folder from its installed package (`git route model make`); its manifest."""
    from gitroute.make_model import make

    return make(folder, name)


def export_model(folder: str, *, repo: str = ".") -> dict:
    """Write the large bundle's contextual model to `folder` (`git route model export`); its manifest."""
    from gitroute.make_model import export

    return export(folder, repo)


def contextual_status(*, repo: str = ".") -> dict | None:
    """The bundle's contextual model: name, sha256, nodes with vectors; None when it has none."""
    from gitroute.bundle.store import BundleView

    with BundleView(repo) as view:
        section = view.manifest.get("indexes", {}).get("contextual")
    if not isinstance(section, dict) or not (section.get("counts") or {}).get("vectors"):
        return None
    return {"model": section.get("model"), "sha256": section.get("model_sha256"),
            "vectors": section["counts"]["vectors"], "large_bytes": section.get("large_bytes")}
