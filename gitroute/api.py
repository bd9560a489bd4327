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
    meaning: bool = False,
) -> Answer:
    """Rank the bundle's files and symbols against `text`: names through the symbol tiers, prose through BM25
    over node text, mixed by the question's shape (`rank.prose_share`); `meaning` asks BM25 alone."""
    from gitroute.bundle.layout import SYMBOLS_META
    from gitroute.bundle.store import BundleView, corrupt_blob
    from gitroute.indexes.symbols import Filters, query_symbols
    from gitroute.rank import STRONG_NAME_SIGNALS, blend_rows, prose_share

    share = 1.0 if meaning else prose_share(text)
    filters = Filters(tuple(kinds), tuple(langs), path_glob)
    with BundleView(repo) as view:
        symbol_rows: list = []
        notes: list[str] = []
        if share < 1.0:
            section = view.read_json(SYMBOLS_META)
            if not isinstance(section, dict):
                raise corrupt_blob(SYMBOLS_META)
            # Signals always: the blend reads them to tell a name match from a shared word.
            symbol_rows, notes = query_symbols(text, section, view.read, limit=max(limit, 20), explain=True,
                                               corrupt=corrupt_blob, filters=filters)
        if (share == 0.0 and len(text.split()) == 1) or (filters.active() and not meaning):
            rows = symbol_rows[:limit]
            return Answer("routed" if rows else "no_match", view.source, tuple(_strip(rows, explain)), tuple(notes))
        meaning_rows, meaning_notes, evidence = _ask_meaning(view, text, max(limit, 20), explain)
        if meaning:
            rows = meaning_rows[:limit]
            return Answer("routed" if rows else "no_match", view.source, tuple(rows), tuple(meaning_notes))
        # A name the question spells out (an exact name, or a phrase of a name) outside tests and docs
        # stands even when the sentence's other words are scattered.
        named = bool(symbol_rows) and any(name in STRONG_NAME_SIGNALS for name, _ in symbol_rows[0].signals) \
            and not any(name == "secondary_path" for name, _ in symbol_rows[0].signals)
        if evidence is None:  # no word for BM25 (or no meaning index): the symbol tiers answer alone
            rows = symbol_rows[:limit]
            return Answer("routed" if rows else "no_match", view.source, tuple(_strip(rows, explain)), tuple(notes))
        if not meaning_rows and not named:
            # The symbol tiers route on any shared word; a sentence whose words the repository does not
            # hold together is no_match, and the meaning index says why.
            return Answer("no_match", view.source, (), tuple(meaning_notes))
        if share == 0.0:  # a name in words, or a question for the entry point: the symbol tiers rank it
            rows = symbol_rows[:limit]
            return Answer("routed" if rows else "no_match", view.source, tuple(_strip(rows, explain)), tuple(notes))
        rows = blend_rows(_strip(symbol_rows, explain), meaning_rows, share, limit)
        notes = [f"blended: symbol tiers plus meaning (BM25) at share {share:.2f}", *meaning_notes]
        return Answer("routed" if rows else "no_match", view.source, tuple(rows), tuple(notes if explain else ()))


def _strip(rows: list, explain: bool) -> list:
    return rows if explain else [r._replace(signals=()) for r in rows]


def _ask_meaning(view, text: str, limit: int, explain: bool) -> tuple[list, list[str], object]:
    """The meaning index's rows and notes; a bundle built before it has none (the notes say so)."""
    from gitroute.bundle.store import corrupt_blob
    from gitroute.indexes.meaning import META, NAME, query_meaning

    def read(paths):
        got = view.read([f"{NAME}/{p}" for p in paths])
        return {p[len(NAME) + 1:]: data for p, data in got.items()}

    if f"{NAME}/{META}" not in view.read([f"{NAME}/{META}"]):
        return [], ["the bundle has no meaning index: run 'git route build'"]
    section = view.read_json(f"{NAME}/{META}")
    if not isinstance(section, dict):
        raise corrupt_blob(f"{NAME}/{META}")
    rows, notes, evidence = query_meaning(text, section, read, limit=limit, explain=explain,
                                          corrupt=lambda p: corrupt_blob(f"{NAME}/{p}"))
    return rows, notes, evidence


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
    """Ask every question of a routing-bench.yaml through the command its type names, and score it."""
    from gitroute.bench import find_default_bench, read_bench, run_bench
    from gitroute.catfile import work_tree_top

    bench_file = read_bench(path or find_default_bench(work_tree_top(repo)))
    ask = {
        "symbol": lambda q: query(q.question, repo=repo, kinds=q.kind, langs=q.lang, path_glob=q.path, limit=10),
        # Plain words go through the one query a user runs; it decides how much comes from BM25.
        "meaning": lambda q: query(q.question, repo=repo, limit=10),
        "negative": lambda q: query(q.question, repo=repo, limit=10),
    }
    return run_bench(bench_file, ask)
