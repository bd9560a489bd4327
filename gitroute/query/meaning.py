"""The --meaning candidates (BM25, the static embedding, their hybrid) and the contextual model that reranks
plain-words answers when the large bundle holds it (docs/decisions/0019), each loaded once per process; and the
rule's contest among the candidates on a bench's meaning questions.
"""
from __future__ import annotations

from gitroute.errors import GitrouteError
from gitroute.model import Answer

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from gitroute.indexes.embedding import LoadedVectors


# (repo, vectors sha256) -> the loaded model and vectors, for warm answers in one process
_LARGE: dict[tuple[str, str], LoadedVectors] = {}


def answer_meaning(view, repo: str, text: str, limit: int, explain: bool, candidate: str | None) -> Answer:
    import json

    from gitroute.bundle.large import EMBEDDING_META
    from gitroute.indexes import embedding
    from gitroute.rank import fuse_reciprocal

    blob = view.read([EMBEDDING_META]).get(EMBEDDING_META)
    try:
        section = json.loads(blob) if blob is not None else embedding.empty_section()
    except ValueError:
        section = embedding.empty_section()
    section = section if isinstance(section, dict) else embedding.empty_section()
    chosen = candidate or section.get("candidate", "bm25")
    if chosen not in embedding.CANDIDATES:
        chosen = "bm25"
    notes: list[str] = []
    loaded = None
    if chosen != "bm25":
        loaded, problem = load_large(repo, section)
        if loaded is None:
            notes.append(f"{problem}: BM25 answers (run 'git route fetch --meaning')")
            chosen = "bm25"
    if chosen == "bm25":
        # BM25, reranked by the contextual model when the bundle has one (unless BM25 alone was asked for)
        found = _ask_bm25(view, text, limit, explain) if candidate else contextual_meaning(view, repo, text, limit,
                                                                                             explain)
        return found._replace(notes=tuple(notes) + found.notes)
    found = embedding.answer(view.index(embedding.NAME), text, limit=max(limit, 20), explain=explain, loaded=loaded)
    if chosen == "embedding":
        return found._replace(rows=found.rows[:limit])
    words = _ask_bm25(view, text, max(limit, 20), explain)
    rows = fuse_reciprocal([words.rows, found.rows], limit)
    return Answer("routed" if rows else "no_match", view.source, tuple(rows), words.notes if not rows else ())


def _ask_bm25(view, text: str, limit: int, explain: bool) -> Answer:
    """BM25 over node text: the meaning index."""
    from gitroute.registry import load_index

    module = load_index("meaning")
    return module.answer(view.index(module.NAME), text, limit=limit, explain=explain)


def load_large(repo: str, section: dict) -> tuple[LoadedVectors | None, str]:
    """The large bundle's model and vectors, checked against the bundle's hashes; (None, why) when unusable."""
    from gitroute.bundle.large import check_large_blobs, read_large_blobs
    from gitroute.errors import GitrouteError
    from gitroute.git.catfile import work_tree_top
    from gitroute.indexes import embedding

    hashes = section.get("files_sha256")
    if not isinstance(hashes, dict) or not hashes:
        return None, "the bundle has no embedding vectors"
    key = (work_tree_top(repo), str(hashes.get(embedding.VECTORS)))
    if key in _LARGE:
        return _LARGE[key], ""
    blobs = read_large_blobs(repo, sorted(hashes))
    if blobs is None:
        return None, "there is no large bundle at 'refs/marola/routing-bundle-large'"
    problem = check_large_blobs(blobs, hashes)
    if problem:
        return None, f"the large bundle does not match the bundle: {problem}"
    try:
        _LARGE[key] = embedding.load_vectors(blobs, section)
    except (ValueError, KeyError) as err:
        return None, f"the large bundle is unreadable: {err}"
    except GitrouteError as err:  # a model that does not load: BM25 still answers
        return None, f"the large bundle is unreadable: {err.message}"
    return _LARGE[key], ""


def meaning_candidate(*, repo: str = ".") -> str:
    """The candidate the bundle records for --meaning (bm25 when it records none)."""
    import json

    from gitroute.bundle.large import EMBEDDING_META
    from gitroute.bundle.store import BundleView

    with BundleView(repo) as view:
        blob = view.read([EMBEDDING_META]).get(EMBEDDING_META)
    try:
        section = json.loads(blob) if blob else {}
    except ValueError:
        section = {}
    candidate = section.get("candidate") if isinstance(section, dict) else None
    return candidate if candidate in ("bm25", "embedding", "hybrid") else "bm25"


# --- the contextual model (issue 24; docs/decisions/0019): reranks plain-words answers when the large bundle
# holds it. Loaded once per process (a warm MCP server or `ask` pays the load once); a name, path, docs,
# impact or why question never reaches it.

_CONTEXTUAL: dict[tuple[str, str], object] = {}


def contextual_model(view, repo: str) -> tuple[object | None, str]:
    """(the loaded model and vectors, "") or (None, why not: "" when the bundle has no contextual model)."""
    from gitroute.indexes import contextual

    section = view.manifest.get("indexes", {}).get(contextual.NAME)
    if not isinstance(section, dict) or not (section.get("counts") or {}).get("vectors"):
        return None, ""
    hashes = section.get("files_sha256")
    key = (repo, str(section.get("model_sha256")) + str((hashes or {}).get(contextual.VECTORS)))
    if key in _CONTEXTUAL:
        return _CONTEXTUAL[key], ""
    from importlib.util import find_spec

    if find_spec("onnxruntime") is None or find_spec("tokenizers") is None or find_spec("numpy") is None:
        from gitroute import extra_install_command

        return None, ("the bundle has a contextual model, but its runtime is not installed: "
                      + extra_install_command("model"))
    from gitroute.bundle.large import read_checked

    blobs, problem = read_checked(repo, contextual.ANSWER_BLOBS, hashes if isinstance(hashes, dict) else {})
    if blobs is None and problem == "no large bundle":
        return None, "the bundle has a contextual model, but no large bundle: run 'git route fetch --meaning'"
    if blobs is None:
        return None, f"refusing the large bundle's contextual model: {problem}"
    try:
        _CONTEXTUAL[key] = contextual.Loaded(blobs, section)
    except (ValueError, KeyError) as err:
        return None, f"refusing the large bundle's contextual model: {err}"
    except GitrouteError as err:
        return None, f"refusing the large bundle's contextual model: {err.message}"
    return _CONTEXTUAL[key], ""


def contextual_rows(view, repo: str, text: str, rows: list, notes: list[str], explain: bool,
                     limit: int = 20) -> tuple[list, list[str]]:
    """BM25's rows reranked by the contextual model; a question BM25 refused may be routed by it."""
    from gitroute.indexes import contextual

    loaded, why = contextual_model(view, repo)
    if loaded is None:
        return rows, [*notes, why] if why and explain else notes
    assert isinstance(loaded, contextual.Loaded)
    refused = not rows
    if refused:
        from gitroute.indexes.meaning import NAME, query_meaning

        index = view.index(NAME)
        rows, _, _ = query_meaning(text, index.section, index.read, limit=contextual.CANDIDATES, explain=explain,
                                   corrupt=index.corrupt, records=index.graph.records, gate=False, memo=index.memo)
    ranked, note = contextual.rerank(loaded, text, rows, refused=refused, limit=max(limit, 20), explain=explain)
    if refused and not ranked:
        return [], [*notes, note] if explain else notes
    return ranked, [note, *notes] if explain else notes


def contextual_meaning(view, repo: str, text: str, limit: int, explain: bool) -> Answer:
    """`query --meaning`: the meaning index's answer, reranked (or routed) by the contextual model when it is there."""
    from gitroute.registry import load_index

    meaning = load_index("meaning")
    loaded, why = contextual_model(view, repo)
    if loaded is None:
        found = meaning.answer(view.index(meaning.NAME), text, limit=limit, explain=explain)
        return found._replace(notes=(*found.notes, why)) if why and explain else found
    found = meaning.answer(view.index(meaning.NAME), text, limit=max(limit, 20), explain=explain)
    rows, notes = contextual_rows(view, repo, text, list(found.rows), list(found.notes), explain, limit)
    if not rows:
        return found._replace(rows=(), notes=tuple(notes))
    return Answer("routed", view.source, tuple(rows[:limit]), tuple(notes))


def meaning_rule(path: str | None = None, *, repo: str = ".", cold_runs: int = 3) -> list:
    """Each --meaning candidate on the bench's meaning questions: right first, bytes added to the large ref,
    cold (one process per question) and warm (one process) milliseconds; `bench.meaning_verdict` decides."""
    import json
    import os
    import statistics

    from gitroute.bench import (
        RULE_CANDIDATES,
        CandidateScore,
        Question,
        find_default_bench,
        meaning_questions,
        read_bench,
        score_candidate,
    )
    from gitroute.bundle.large import EMBEDDING_META
    from gitroute.bundle.store import BundleView
    from gitroute.errors import BenchFileError
    from gitroute.git.catfile import work_tree_top

    top = work_tree_top(repo)
    bench_file = read_bench(path or find_default_bench(top))
    questions = meaning_questions(bench_file)
    if not questions:
        raise BenchFileError(f"'{bench_file.origin}' has no meaning questions", hint="the rule scores type: meaning")
    corpus = os.path.basename(top)
    scores = []
    with BundleView(repo) as view:
        blob = view.read([EMBEDDING_META]).get(EMBEDDING_META)
        section = json.loads(blob) if blob else {}
        for candidate in RULE_CANDIDATES:
            bytes_added = 0
            if candidate != "bm25":
                loaded, problem = load_large(repo, section if isinstance(section, dict) else {})
                if loaded is None:
                    continue  # not measurable here: the verdict says which candidates were
                bytes_added = int(section.get("large_bytes", 0))
            def ask(q: Question, chosen: str = candidate) -> Answer:
                return answer_meaning(view, repo, q.question, 10, False, chosen)

            right, times = score_candidate(questions, ask)
            cold = [_cold_query_seconds(top, q.question, candidate) for q in questions[:cold_runs]]
            scores.append(CandidateScore(corpus, candidate, right, len(questions), bytes_added,
                                         round(statistics.median(cold) * 1000, 1) if cold else None,
                                         round(statistics.median(times) * 1000, 1) if times else None))
    return scores


def _cold_query_seconds(cwd: str, question: str, candidate: str) -> float:
    """Wall time of one `git route query --candidate C` process, start to exit (what an agent's call costs)."""
    import subprocess
    import sys
    import time

    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "gitroute", "query", "--candidate", candidate, "-q", "--json",
                    question], cwd=cwd, capture_output=True)
    return time.perf_counter() - started
