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
    from gitroute.status import StatusReport


def query(
    text: str,
    *,
    repo: str = ".",
    limit: int = 10,
    kinds: Sequence[str] = (),
    langs: Sequence[str] = (),
    path_glob: str | None = None,
    explain: bool = False,
) -> Answer:
    """Symbol question: rank the bundle's files and symbols against `text`."""
    from gitroute.bundle.layout import SYMBOLS_META
    from gitroute.bundle.store import BundleView, corrupt_blob
    from gitroute.indexes.symbols import Filters, query_symbols

    with BundleView(repo) as view:
        section = view.read_json(SYMBOLS_META)
        if not isinstance(section, dict):
            raise corrupt_blob(SYMBOLS_META)
        rows, notes = query_symbols(
            text, section, view.read, limit=limit, explain=explain, corrupt=corrupt_blob,
            filters=Filters(tuple(kinds), tuple(langs), path_glob),
        )
        return Answer("routed" if rows else "no_match", view.source, tuple(rows), tuple(notes))


def build(
    rev: str = "HEAD",
    *,
    repo: str = ".",
    jobs: int | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    fetch: bool = True,
) -> BuildReport:
    """Build the bundle for REV and move the bundle ref to it in one compare-and-swap.

    In a partial clone, the blobs the commit needs are fetched from the promisor remote first,
    unless `fetch` is False; blobs still missing are skipped as `missing`.
    """
    from gitroute.build import run_build

    return run_build(rev, repo_path=repo, jobs=jobs, progress=progress, fetch=fetch)


def status(*, repo: str = ".") -> StatusReport:
    from gitroute.status import read_status

    return read_status(repo)


def bench(path: str | None = None, *, repo: str = ".") -> BenchReport:
    """Ask every question of a routing-bench.yaml through the command its type names, and score it."""
    from gitroute.bench import find_default_bench, read_bench, run_bench
    from gitroute.catfile import work_tree_top

    bench_file = read_bench(path or find_default_bench(work_tree_top(repo)))
    ask = {
        "symbol": lambda q: query(q.question, repo=repo, kinds=q.kind, langs=q.lang, path_glob=q.path, limit=10),
    }
    return run_bench(bench_file, ask)
