"""What the contextual model costs on a corpus (issue 24's targets, measured on django).

    python bench/contextual_cost.py --model DIR [--corpus django] [--runs 5] [--questions 100]

Works on a local clone of bench/corpora/<corpus> in a temporary folder (the corpus's own bundle is left alone).
In order, each figure with wall and CPU seconds (this process's and its children's; the machine is shared,
so CPU seconds are the steadier figure):

1. `git route build --full` without the model, then cold queries (one process each): plain words and names.
2. A one-file commit, `git route build` without the model (the incremental build's own cost).
3. The node vectors alone, in this process: every node's text embedded (`contextual.build_large`, no reuse).
4. `git route build --full --meaning-model DIR`: the full build with the vectors; the large ref's packed size.
5. A one-file commit, `git route build --meaning-model DIR`: vectors reused by text digest, the changed re-embedded.
6. Cold queries again (plain words use the model; names must not load it), and the warm MCP server
   (`ServerTools.call`, as bench/mcp_latency.py): plain words through `query` and `ask`, first asking.
Targets: vectors ≤ 120 s (2 cores) for a full build, ≤ 5 s for a one-file rebuild; warm plain words ≤ 15 ms
median; cold plain words with the model ≤ 450 ms; cold name query unchanged; large ref ≤ 30 MB.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))


def cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def timed(label: str, args: list[str], cwd: Path) -> tuple[float, float]:
    wall, used = time.perf_counter(), cpu()
    subprocess.run(args, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    wall, used = time.perf_counter() - wall, cpu() - used
    print(f"- {label}: {wall:.2f} s wall, {used:.2f} s CPU", flush=True)
    return wall, used


def cold(label: str, repo: Path, questions: list[str], runs: int) -> float:
    times, cpus = [], []
    for _ in range(runs):
        for q in questions:
            started, used = time.perf_counter(), cpu()
            subprocess.run(["git-route", "query", q], cwd=repo, check=True, stdout=subprocess.DEVNULL)
            times.append((time.perf_counter() - started) * 1000)
            cpus.append((cpu() - used) * 1000)
    median = statistics.median(cpus)
    print(f"- cold {label}: median {statistics.median(times):.0f} ms wall (min {min(times):.0f}), "
          f"{median:.0f} ms CPU (min {min(cpus):.0f}) over {len(times)} processes", flush=True)
    return median


def one_file_commit(repo: Path, n: int) -> None:
    """Append a documented function to one Python file and commit it."""
    path = next(p for p in sorted(repo.rglob("*.py")) if ".git" not in p.parts and "tests" not in p.parts)
    with path.open("a") as f:
        f.write(f'\n\ndef cost_probe_{n}(value):\n    """Return the value unchanged, probe {n}."""\n    return value\n')
    subprocess.run(["git", "commit", "-qam", f"probe {n}"], cwd=repo, check=True)


def large_ref_bytes(repo: Path) -> int:
    objects = subprocess.run(["git", "rev-list", "--objects", "refs/marola/routing-bundle-large"], cwd=repo,
                             check=True, capture_output=True).stdout
    pack = subprocess.run(["git", "pack-objects", "--stdout", "-q"], cwd=repo, input=objects, check=True,
                          capture_output=True).stdout
    return len(pack)


def vectors_alone(repo: Path, model: str) -> None:
    from gitroute.bundle.store import BundleView
    from gitroute.indexes import contextual
    from gitroute.sentence_model import read_folder

    with BundleView(str(repo)) as bundle:
        records = sorted(bundle.node_records().items(),
                         key=lambda r: (r[1][0], r[0]))
    texts = [contextual.node_text(r[0], r[1], r[2], r[3], r[-1] or "") for _, r in records]
    files = read_folder(model)
    wall, used = time.perf_counter(), time.process_time()
    large, section = contextual.build_large(files, [i for i, _ in records], [r[0] for _, r in records], texts)
    wall, used = time.perf_counter() - wall, time.process_time() - used
    print(f"- every node's vector in this process (2 threads): {len(texts)} nodes in {wall:.1f} s wall, "
          f"{used:.1f} s CPU ({len(texts) / used:.0f} nodes per CPU second); "
          f"blobs {section['large_bytes'] / 1e6:.1f} MB (vectors {len(large[contextual.VECTORS]) / 1e6:.1f} MB)",
          flush=True)


def warm(repo: Path, questions: list[str]) -> None:
    from mcp_latency import describe, time_calls

    from gitroute.cli.mcp import ServerTools

    tools = ServerTools(str(repo))
    try:
        started = time.perf_counter()
        tools.call("status", {})
        print(f"- warm server ready (bundle pinned, model loaded) in {(time.perf_counter() - started) * 1000:.0f} ms")
        for tool in ("query", "ask"):
            used = time.process_time()
            first, routed = time_calls(tools, tool, questions)
            used = time.process_time() - used
            print(f"- warm plain words ({tool}), n={len(questions)}, routed {routed}: first {describe(first)}; "
                  f"{used * 1000 / len(questions):.1f} ms CPU a question on average", flush=True)
    finally:
        tools.close()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--corpus", default="django")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--questions", type=int, default=100)
    args = parser.parse_args(argv)
    from mcp_latency import corpus_questions

    from gitroute.bench import read_bench

    source = HERE / "corpora" / args.corpus
    bench = read_bench(str(HERE / f"{args.corpus}.routing-bench.yaml"))
    plain = [q.question for q in bench.questions if q.type == "meaning"][:10]
    names = [q.question for q in bench.questions if q.type == "symbol"][:10]
    print(f"load average {os.getloadavg()}; {args.corpus}; model {args.model}")
    with tempfile.TemporaryDirectory() as tmp:
        repo = Path(tmp) / args.corpus
        subprocess.run(["git", "clone", "-q", str(source), str(repo)], check=True)
        print("## without the model")
        timed("full build", ["git-route", "build", "-q", "--full"], repo)
        cold("plain-words query", repo, plain, args.runs)
        cold_names = cold("name query", repo, names, args.runs)
        one_file_commit(repo, 1)
        timed("one-file rebuild", ["git-route", "build", "-q"], repo)
        print("## with the model")
        vectors_alone(repo, args.model)
        timed("full build with the model", ["git-route", "build", "-q", "--full", "--meaning-model", args.model], repo)
        print(f"- large ref packed: {large_ref_bytes(repo) / 1e6:.1f} MB")
        one_file_commit(repo, 2)
        timed("one-file rebuild with the model", ["git-route", "build", "-q", "--meaning-model", args.model], repo)
        one_file_commit(repo, 3)
        timed("one-file rebuild with the model (again)", ["git-route", "build", "-q", "--meaning-model", args.model],
              repo)
        cold("plain-words query with the model", repo, plain, args.runs)
        with_model = cold("name query, the large bundle there", repo, names, args.runs)
        print(f"- name query: {with_model - cold_names:+.0f} ms against the bundle without the model")
        _, sentences = corpus_questions(repo, args.questions)
        warm(repo, sentences)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
