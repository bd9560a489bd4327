"""One typed function per command; returns records (model.py) and never prints.

Imports of the builder's dependencies (pygit2, tree-sitter) stay inside the functions that need
them: a query is a process start, and those imports cost more than the answer.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence

from gitroute.model import Answer

# typing.TYPE_CHECKING without importing typing, which a cold query would pay for; type
# checkers treat any name TYPE_CHECKING as true.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from gitroute.bench import BenchReport
    from gitroute.build import BuildReport
    from gitroute.bundle.store import BundleView
    from gitroute.committed import CommittedResult, Rendering
    from gitroute.config import Config
    from gitroute.hooks import PointerSync
    from gitroute.status import StatusReport


def answer(index: str, question: str, *, repo: str = ".", limit: int = 10, explain: bool = False,
           **options: object) -> Answer:
    """Ask one index of the bundle: the generic path every index's command takes."""
    from gitroute.bundle.store import BundleView
    from gitroute.registry import load_index

    module = load_index(index)
    with BundleView(repo) as view:
        return module.answer(view.index(module.NAME), question, limit=limit, explain=explain, **options)


def query(
    text: str,
    *,
    repo: str = ".",
    limit: int = 10,
    kinds: Sequence[str] = (),
    langs: Sequence[str] = (),
    path_glob: str | None = None,
    explain: bool = False,
    meaning: bool = False,
) -> Answer:
    """Rank the bundle's files and symbols against `text`: names through the symbol tiers, prose through BM25
    over node text (the meaning index), mixed by the question's shape (`rank.prose_share`); `meaning` asks
    the meaning index alone."""
    from gitroute.bundle.store import BundleView
    from gitroute.rank import STRONG_NAME_SIGNALS, blend_rows, prose_share
    from gitroute.registry import load_index

    filters = {"kinds": tuple(kinds), "langs": tuple(langs), "path_glob": path_glob}
    share = 1.0 if meaning else prose_share(text)
    with BundleView(repo) as view:
        if meaning:
            return load_index("meaning").answer(view.index("meaning"), text, limit=limit, explain=explain)
        symbols = load_index("symbols")
        if (share == 0.0 and len(text.split()) == 1) or kinds or langs or path_glob:
            return symbols.answer(view.index("symbols"), text, limit=limit, explain=explain, **filters)
        # Signals always: the blend reads them to tell a name match from a shared word; a few more rows
        # than asked, since the meaning index may lift a file the symbol tiers rank lower.
        by_name = symbols.answer(view.index("symbols"), text, limit=max(limit, 20), explain=True, **filters)
        symbol_rows = list(by_name.rows)
        meaning_rows, meaning_notes, evidence = _ask_meaning(view, text, max(limit, 20), explain)
        if evidence is None:  # no word for BM25 (or no meaning index): the symbol tiers answer alone
            return by_name._replace(rows=tuple(_strip(symbol_rows[:limit], explain)))
        # A name the question spells out (an exact name, or a phrase of a name) outside tests and docs
        # stands even when the sentence's other words are scattered.
        top = symbol_rows[0].signals if symbol_rows else ()
        named = any(name in STRONG_NAME_SIGNALS for name, _ in top) and not any(n == "secondary_path" for n, _ in top)
        if not meaning_rows and not named:
            # The symbol tiers route on any shared word; a sentence whose words the repository does not
            # hold together is no_match, and the meaning index says why.
            return Answer("no_match", view.source, (), tuple(meaning_notes))
        if share == 0.0:  # a name in words, or a question for the entry point: the symbol tiers rank it
            return by_name._replace(rows=tuple(_strip(symbol_rows[:limit], explain)))
        rows = blend_rows(_strip(symbol_rows, explain), meaning_rows, share, limit)
        notes = [f"blended: symbol tiers plus meaning (BM25) at share {share:.2f}", *meaning_notes]
        return Answer("routed" if rows else "no_match", view.source, tuple(rows), tuple(notes if explain else ()))


def _strip(rows: list, explain: bool) -> list:
    return rows if explain else [r._replace(signals=()) for r in rows]


def _ask_meaning(view, text: str, limit: int, explain: bool) -> tuple[list, list[str], object]:
    """The meaning index's rows, notes and evidence; a bundle built before it has none (the notes say so)."""
    from gitroute.bundle.layout import INDEX_META
    from gitroute.indexes.meaning import NAME, query_meaning

    index = view.index(NAME)
    if not index.read([INDEX_META]):
        return [], ["the bundle has no meaning index: run 'git route build'"], None
    rows, notes, evidence = query_meaning(text, index.section, index.read, limit=limit, explain=explain,
                                          corrupt=index.corrupt, records=index.graph.records)
    return rows, notes, evidence


def lint(rev: str = "HEAD", *, repo: str = ".") -> list[tuple[str, int, str]]:
    """(path, line, text) of each decision-record line at REV that records a decision without the marker."""
    from gitroute.config import CONFIG_PATH, parse_config
    from gitroute.git import repository as git
    from gitroute.indexes.decisions import is_record_path, lint_records

    repository = git.open_repository(repo)
    commit = git.resolve_commit(repository, rev)
    config = parse_config(git.read_commit_file(repository, commit, CONFIG_PATH))
    snap = git.snapshot_at(repository, commit, max_file_bytes=config.max_file_bytes, excluded=config.is_excluded)
    return lint_records((e.path, snap.read(e)) for e in snap.entries if is_record_path(e.path, config.decisions))


def build(
    rev: str = "HEAD",
    *,
    repo: str = ".",
    jobs: int | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    full: bool = False,
    fetch: bool = True,
) -> BuildReport:
    """Build the bundle for REV and move the bundle ref to it in one compare-and-swap.

    `full` extracts every file again; otherwise results are reused from this repository's own
    earlier bundles (never from a fetched one). In a partial clone, the blobs the commit needs are
    fetched from the promisor remote first, unless `fetch` is False; blobs still missing are skipped
    as `missing`.
    """
    from gitroute.build import run_build

    return run_build(rev, repo_path=repo, jobs=jobs, progress=progress, full=full, fetch=fetch)


def status(*, repo: str = ".") -> StatusReport:
    from gitroute.status import read_status

    return read_status(repo)


def bench(path: str | None = None, *, repo: str = ".") -> BenchReport:
    """Ask every question of a routing-bench.yaml through the index that owns its type, and score it."""
    from gitroute.bench import Question, find_default_bench, read_bench, run_bench
    from gitroute.bundle.store import BundleView
    from gitroute.git.catfile import work_tree_top
    from gitroute.registry import load_index, question_types

    bench_file = read_bench(path or find_default_bench(work_tree_top(repo), _configured_bench_file(repo)))
    with BundleView(repo) as view:
        def asker(index: str, options: dict) -> Callable[[Question], Answer]:
            module = load_index(index)

            def ask(q: Question) -> Answer:
                # A question's own filters, where it has any (symbol questions narrow by kind, language, path).
                filters = {k: v for k, v in (("kinds", q.kind), ("langs", q.lang), ("path_glob", q.path)) if v}
                return module.answer(view.index(index), q.question, limit=10, explain=False, **options, **filters)

            return ask

        return run_bench(bench_file, {qtype: asker(index, options)
                                      for qtype, (index, options) in question_types().items()})


# Generated files a repository commits: name -> (the Config field holding its default path, or None
# when the command line must name the file; the function that renders it from the bundle).
# The renderers belong to their indexes; the three functions below are where each is plugged in.
def _render_doc_code(view: BundleView, config: Config) -> Rendering:
    """DOC-CODE.md: the doc_links index's file-level map (branch w1/docs), its rows counted the index's way."""
    from gitroute.committed import Rendering
    from gitroute.errors import GitrouteError

    try:
        from gitroute.indexes.doc_links import NAME, map_rows, read_links, render_doc_code_map
    except ImportError as err:  # INTEGRATION: goes away once gitroute/indexes/doc_links.py is merged
        _reraise_unless_missing(err, "gitroute.indexes.doc_links")
        raise GitrouteError("this gitroute has no doc_links index to render 'DOC-CODE.md' from",
                            hint="the doc-code map arrives with the doc_links index (issue 7)") from err
    return Rendering(render_doc_code_map(read_links(view.index(NAME))), count_rows=map_rows)


def _render_decisions(view: BundleView, config: Config) -> Rendering:
    """DECISIONS.md: `render_decisions(rows)` of the decisions index (branch w1/decisions).

    INTEGRATION: it also needs `read_rows(view) -> list[DecisionRow]` beside it, the rows read back
    from the index's blobs (records.json and rows/*.json hold every field a DecisionRow has).
    """
    from gitroute.committed import Rendering
    from gitroute.errors import GitrouteError

    try:
        from gitroute.indexes.decisions import NAME, read_rows, render_decisions
    except ImportError as err:
        _reraise_unless_missing(err, "gitroute.indexes.decisions")
        raise GitrouteError("this gitroute has no decisions index to render 'DECISIONS.md' from",
                            hint="the decision table arrives with the decisions index (issue 9)") from err
    return Rendering(render_decisions(read_rows(view.index(NAME))))


def _render_wiring(view: BundleView, config: Config) -> Rendering:
    """The wiring block of a document (between <!-- gitroute:wiring:begin/end --> lines): `render_wiring(...)`
    of the wiring index (branch w1/impact-wiring).

    INTEGRATION: it also needs `read_wiring(view)` beside it, the value `render_wiring` takes, read back
    from the index's blobs.
    """
    from gitroute.committed import Rendering
    from gitroute.errors import GitrouteError

    try:
        from gitroute.indexes.wiring import NAME, read_wiring, render_wiring
    except ImportError as err:
        _reraise_unless_missing(err, "gitroute.indexes.wiring")
        raise GitrouteError("this gitroute has no wiring index to render the wiring block from",
                            hint="the wiring tables arrive with the wiring index (issue 8)") from err
    return Rendering(render_wiring(read_wiring(view.index(NAME))), block="wiring")


def _reraise_unless_missing(err: ImportError, module: str) -> None:
    """An index module or name that is not there yet is expected; an import failing inside it is a bug."""
    if err.name != module:
        raise err


COMMITTED_FILES: dict[str, tuple[str | None, Callable[[BundleView, Config], Rendering]]] = {
    "doc-code": ("doc_code_map", _render_doc_code),
    "decisions": ("decisions_map", _render_decisions),
    "wiring": (None, _render_wiring),
}


def committed_file(
    name: str,
    *,
    repo: str = ".",
    path: str | None = None,
    action: str = "check",
    force: bool = False,
) -> CommittedResult:
    """Render a committed generated file from the bundle, then show it, check it or write it.

    action "show" returns the rendering; "check" compares it with the file as the bundle's commit
    holds it; "write" writes it into the work tree behind the shrink guard (`force` overrides).
    `path` is relative to the top of the work tree; None takes the configured default.
    """
    from gitroute import committed
    from gitroute.bundle.store import BundleView
    from gitroute.config import CONFIG_PATH, parse_config
    from gitroute.errors import GitrouteError
    from gitroute.git.catfile import work_tree_top

    config_field, render = COMMITTED_FILES[name]
    top = work_tree_top(repo)
    with BundleView(repo) as view:
        source = view.source
        config = parse_config(committed.read_blob(top, source.commit, CONFIG_PATH))
        if path is None:
            if config_field is None:
                raise GitrouteError(f"'{name}' needs the file to write or check")
            path = getattr(config, config_field)
        path = committed.check_path(path)
        rendering = render(view, config)
    report: committed.CheckReport | committed.WriteReport | None = None
    if action == "check":
        report = committed.check(top, source.commit, path, rendering)
    elif action == "write":
        report = committed.write(top, source.commit, path, rendering, force=force)
    return committed.CommittedResult(name, path, source, rendering, report)


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
