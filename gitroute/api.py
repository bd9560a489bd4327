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
) -> Answer:
    """Symbol question: rank the bundle's files and symbols against `text`."""
    return answer("symbols", text, repo=repo, limit=limit, explain=explain, kinds=tuple(kinds), langs=tuple(langs),
                  path_glob=path_glob)


def build(
    rev: str = "HEAD",
    *,
    repo: str = ".",
    jobs: int | None = None,
    progress: Callable[[str, int, int], None] | None = None,
) -> BuildReport:
    """Build the bundle for REV and move the bundle ref to it in one compare-and-swap."""
    from gitroute.build import run_build

    return run_build(rev, repo_path=repo, jobs=jobs, progress=progress)


def status(*, repo: str = ".") -> StatusReport:
    from gitroute.status import read_status

    return read_status(repo)


def bench(path: str | None = None, *, repo: str = ".") -> BenchReport:
    """Ask every question of a routing-bench.yaml through the index that owns its type, and score it."""
    from gitroute.bench import Question, find_default_bench, read_bench, run_bench
    from gitroute.bundle.store import BundleView
    from gitroute.catfile import work_tree_top
    from gitroute.registry import load_index, question_types

    bench_file = read_bench(path or find_default_bench(work_tree_top(repo)))
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
