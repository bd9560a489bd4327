"""Performance of `git route` on the django corpus, beside baselines measured in the same run.

    python bench/perf.py [--corpus django] [--runs 7] [--json]

Prints one table: full build, incremental rebuild after a one-file commit (the median of up to three,
each after a commit of its own), the rebuild after a one-document commit, cold query process
(median of --runs), bundle size raw and packed, peak memory; and the baselines: `git grep -n` for
the same words, `python3 -c "import click"`, and a floor that reads every blob and parses it with
tree-sitter and nothing else (with as many worker processes as the build uses). Not a test:
machines here are shared and noisy, so compare ratios within one run.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from corpora import materialise  # noqa: E402

QUERIES = ["QuerySet", "where is the csrf middleware", "ModelAdmin", "get_object_or_404"]
GREP_WORDS = {"QuerySet": ["QuerySet"], "where is the csrf middleware": ["csrf", "middleware"],
              "ModelAdmin": ["ModelAdmin"], "get_object_or_404": ["get_object_or_404"]}
TARGETS = {
    "full build": "<= 12 s",
    "incremental build": "<= 0.15x full build",
    "incremental objects": "<= 1 MB packed",
    "cold query (median)": "<= import click + 50 ms, <= git grep",
    "bundle packed": "<= 10 MB",
    "peak RSS": "<= 1 GiB",
}


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="perf", GIT_AUTHOR_EMAIL="perf@gitroute.invalid",
               GIT_COMMITTER_NAME="perf", GIT_COMMITTER_EMAIL="perf@gitroute.invalid",
               GIT_AUTHOR_DATE="1735689600 +0000", GIT_COMMITTER_DATE="1735689600 +0000")
    return env


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess:
    result = subprocess.run(cmd, cwd=cwd, capture_output=True, env=_env())
    if result.returncode not in (0, 1):
        raise SystemExit(f"fatal: {' '.join(cmd)} failed: {result.stderr.decode(errors='replace').strip()}")
    return result


def _timed(cmd: list[str], cwd: Path) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    result = _run(cmd, cwd)
    return time.perf_counter() - start, result


def _median_ms(cmd: list[str], cwd: Path, runs: int) -> float:
    _run(cmd, cwd)  # one warm-up: the page cache, not the process, is what we let warm
    return statistics.median(_timed(cmd, cwd)[0] for _ in range(runs)) * 1000


def _route() -> list[str]:
    exe = shutil.which("git-route")
    return [exe] if exe else [sys.executable, "-m", "gitroute"]


def _parse_only(item: tuple[bytes, str]) -> int:
    from tree_sitter_language_pack import get_parser

    data, lang = item
    get_parser(lang).parse(data)  # type: ignore[arg-type]
    return len(data)


def floor_seconds(repo: Path, jobs: int) -> tuple[float, int, int]:
    """Read every blob of HEAD with pygit2 and parse the ones with a language: nothing else."""
    import pygit2

    from gitroute.parsing import language_for_path

    start = time.perf_counter()
    store = pygit2.Repository(str(repo))
    items: list[tuple[bytes, str]] = []
    stack = [(store.head.peel(pygit2.Commit).tree, "")]
    while stack:
        tree, base = stack.pop()
        for entry in tree:
            if entry.type_str == "tree":
                stack.append((entry, base + entry.name + "/"))
            elif entry.type_str == "blob":
                data = entry.data
                lang = language_for_path(base + entry.name)
                if lang and len(data) <= 1024 * 1024 and b"\0" not in data[:8000]:
                    items.append((data, lang))
    import multiprocessing

    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork")) as pool:
        parsed = sum(pool.map(_parse_only, sorted(items, key=lambda i: -len(i[0])), chunksize=8))
    return time.perf_counter() - start, len(items), parsed


def one_file_commit(repo: Path, marker: str = "function") -> None:
    """Append a function to one file and commit it, with a fixed date (deterministic ids)."""
    target = repo / "django" / "utils" / "text.py"
    with target.open("a", encoding="utf-8") as f:
        f.write(f"\n\ndef perf_marker_{marker}():\n    return 'perf'\n")
    _run(["git", "commit", "-q", "-am", f"perf: one-file change {marker}"], repo)


def one_document_commit(repo: Path) -> None:
    """Append a paragraph that names a function to one document, and commit it: the rebuild links it anew,
    and the indexes that read the documents' links (the meaning index's anchor texts) build again."""
    target = repo / "docs" / "ref" / "utils.txt"
    with target.open("a", encoding="utf-8") as f:
        f.write("\n\n:func:`django.utils.text.get_valid_filename` also keeps a file name short enough.\n")
    _run(["git", "commit", "-q", "-am", "perf: one-document change"], repo)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", default="django")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--cache", default=str(Path.home() / ".cache" / "gitroute-bench"))
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)

    jobs = os.cpu_count() or 1
    with tempfile.TemporaryDirectory(prefix="gitroute-perf-") as tmp:
        source = materialise(args.corpus, Path(tmp) / "corpora", args.cache)
        repo = Path(tmp) / "work"
        _run(["git", "clone", "-q", "--no-local", str(source), str(repo)], Path(tmp))

        figures: dict[str, float] = {}
        figures["import click (ms)"] = _median_ms([sys.executable, "-c", "import click"], repo, args.runs)
        floor, floor_files, floor_bytes = floor_seconds(repo, jobs)
        figures["floor: read + parse (s)"] = floor

        full, result = _timed([*_route(), "build", "--json"], repo)
        report = json.loads(result.stdout)
        figures["full build (s)"] = full
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        figures["peak RSS (MiB)"] = peak_kib / 1024

        # The one-file rebuild, as the median of a few (one commit each: a shared machine is noisy); the
        # objects it writes are those of the first.
        rebuilds = []
        for n in range(max(1, min(args.runs, 3))):
            one_file_commit(repo, str(n))
            seconds, result = _timed([*_route(), "build", "--json"], repo)
            rebuilds.append(seconds)
            if n == 0:
                incremental_report = json.loads(result.stdout)
        incremental = statistics.median(rebuilds)
        figures["incremental build (s)"] = incremental
        # What the one-file rebuild added: objects of the new bundle that the previous one lacks, packed.
        # (Set difference: `rev-list --objects new --not old` does not exclude an unrelated commit's tree.)
        before = set(_run(["git", "rev-list", "--objects", report["bundle"]["commit"]], repo).stdout.splitlines())
        after = _run(["git", "rev-list", "--objects", incremental_report["bundle"]["commit"]], repo).stdout
        fresh = b"".join(line + b"\n" for line in after.splitlines() if line not in before)
        figures["incremental objects (MB)"] = len(subprocess.run(
            ["git", "pack-objects", "--stdout", "-q"], cwd=repo, input=fresh, capture_output=True, env=_env(),
        ).stdout) / 1e6

        one_document_commit(repo)
        figures["one-document rebuild (s)"], _result = _timed([*_route(), "build", "--json"], repo)

        query_ms = {q: _median_ms([*_route(), "query", q], repo, args.runs) for q in QUERIES}
        grep_ms = {q: _median_ms(["git", "grep", "-n", "-i", *sum((["-e", w] for w in GREP_WORDS[q]), [])], repo,
                                 args.runs) for q in QUERIES}
        figures["cold query median (ms)"] = statistics.median(query_ms.values())
        figures["git grep median (ms)"] = statistics.median(grep_ms.values())

        listing = _run(["git", "ls-tree", "-r", "-l", "refs/marola/routing-bundle"], repo).stdout.decode()
        raw = sum(int(line.split()[3]) for line in listing.splitlines() if line.split()[3].isdigit())
        objects = _run(["git", "rev-list", "--objects", "refs/marola/routing-bundle"], repo).stdout
        packed = subprocess.run(["git", "pack-objects", "--stdout", "-q"], cwd=repo, input=objects,
                                capture_output=True, env=_env()).stdout
        figures["bundle raw (MB)"] = raw / 1e6
        figures["bundle packed (MB)"] = len(packed) / 1e6

    click_ms = figures["import click (ms)"]
    rows = [
        ("full build", f"{full:.2f} s", TARGETS["full build"], f"{full / floor:.2f}x floor ({floor:.2f} s)",
         full <= 12),
        ("incremental build", f"{incremental:.2f} s", TARGETS["incremental build"],
         f"{incremental / full:.2f}x full; parsed {incremental_report['files']['parsed']}", incremental <= 0.15 * full),
        ("one-document rebuild", f"{figures['one-document rebuild (s)']:.2f} s", "(no target)",
         f"{figures['one-document rebuild (s)'] / full:.2f}x full; a document that names a function", True),
        ("incremental objects", f"{figures['incremental objects (MB)']:.2f} MB", TARGETS["incremental objects"],
         "new objects of the one-file rebuild, packed", figures["incremental objects (MB)"] <= 1),
        ("cold query (median)", f"{figures['cold query median (ms)']:.0f} ms", TARGETS["cold query (median)"],
         f"click {click_ms:.0f} ms (+{figures['cold query median (ms)'] - click_ms:.0f}); "
         f"git grep {figures['git grep median (ms)']:.0f} ms",
         figures["cold query median (ms)"] <= click_ms + 50
         and figures["cold query median (ms)"] <= figures["git grep median (ms)"]),
        ("bundle packed", f"{figures['bundle packed (MB)']:.2f} MB", TARGETS["bundle packed"],
         f"raw {figures['bundle raw (MB)']:.2f} MB", figures["bundle packed (MB)"] <= 10),
        ("peak RSS", f"{figures['peak RSS (MiB)']:.0f} MiB", TARGETS["peak RSS"], "largest build process",
         figures["peak RSS (MiB)"] <= 1024),
    ]
    if args.json:
        print(json.dumps({"figures": figures, "queries_ms": query_ms, "grep_ms": grep_ms,
                          "build": report, "incremental": incremental_report}, indent=2))
        return 0
    print(f"corpus {args.corpus}: {report['files']['read']} files read, {report['files']['parsed']} parsed, "
          f"{sum(report['nodes'].values())} nodes, {sum(report['edges'].values())} edges; "
          f"floor parsed {floor_files} files ({floor_bytes / 1e6:.1f} MB) with {jobs} processes")
    print(f"{'figure':<22}{'measured':>12}  {'target':<38}{'baseline / ratio'}")
    for name, value, target, ratio, ok in rows:
        print(f"{name:<22}{value:>12}  {target:<38}{ratio}  {'ok' if ok else 'MISSED'}")
    print("queries (ms): " + ", ".join(f"{q!r} {query_ms[q]:.0f} vs grep {grep_ms[q]:.0f}" for q in QUERIES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
