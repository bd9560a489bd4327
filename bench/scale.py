"""Cost at scale: one table over every bench corpus and the adversarial generator's cases, each beside its floor.

    python bench/scale.py [NAME ...] [--repo PATH] [--runs 3] [--timeout S] [--adversarial-size N]
                          [--no-adversarial] [--one-file] [--json]

Each corpus (`bench/corpora.py`; the Linux kernel is `linux`) is cloned from bench/corpora/ into a temporary
folder and measured there: files parsed and the floor (read + parse, `perf.floor_seconds`, in this bench's process,
which has imported everything already), the same floor as a process of its own (`bench/floor_process.py`: it starts
Python and imports pygit2 and the grammars, as a build process does; flp, the ratio b/flp), beside it the documents
the floor leaves out (read + parse, `floor_seconds(documents=True)`: the ratio b/fl+d), a full build
(`git route build --json`, wall and CPU seconds of the build and its workers, its peak RSS: the largest of its
processes, and the peak of its whole process tree: the PSS of all its processes summed, sampled every half
second), the bundle packed as git sends it against the source packed the same way (`perf.packed_mb`), and
cold `git route query` processes (`perf.median_ms`) for a name and for a sentence, against `git grep -n -i` for the
same words. With `--one-file`, also a rebuild after a one-file commit. When bench/adversarial.py is there (the
resolution's adversarial repositories), each of its cases is built at `--adversarial-size` too.

Closing lines: what exceeds its target. Targets: build <= 3 x floor (CPU seconds: a shared machine disturbs them
far less than wall time), read against the floor as a process (a build is a process, and so is the floor it is held
to: on a corpus of a hundred files, starting Python and importing is as much as the parsing), and listed against the
in-process floor too, the reading of the tables before (docs/decisions/0023, session 25); bundle <= 0.5 x source
packed on django, <= 1 x elsewhere; cold query <= git grep; peak memory of the whole process tree <= 512 MiB on
django, <= 4 GiB on linux; one-file rebuild <= 0.15 x full on django, <= 0.1 x on linux.
Cold queries are also timed in CPU milliseconds (the query process and its git children), which a busy machine
disturbs less than wall time.
A build past --timeout is killed and shows as "timeout". Not a test: figures, for a table.
"""
from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent)]

from corpora import CORPORA, DEFAULT_CACHE, DEFAULT_DEST, materialise  # noqa: E402
from floor_process import floor_process  # noqa: E402
from perf import (  # noqa: E402
    _env,
    cpu_seconds,
    floor_seconds,
    installed_route,
    median_ms,
    packed_mb,
    prime_bytecode,
    route_command,
    run_measured,
)

try:  # the resolution's adversarial repositories (bench/adversarial.py), where this checkout has them
    import adversarial  # type: ignore[import-not-found]
except ImportError:
    adversarial = None

BUNDLE_REF = "refs/marola/routing-bundle"
FLOOR_RATIO = 3.0
BUNDLE_RATIO = {"django": 0.5}  # bundle / source packed; 1.0 elsewhere
SCALE_ONLY = ("linux", "linux-core")  # corpora with no bench questions, measured when named
RSS_MIB = {"django": 512, "linux": 4096, "linux-core": 4096}
# one-file rebuild / full build (not checked on small corpora, whose builds are mostly fixed costs)
ONE_FILE_RATIO = {"django": 0.15, "linux": 0.1, "linux-core": 0.1}
# A name and a sentence to ask where the corpus's bench has none (the first symbol and meaning questions otherwise).
QUESTIONS = {
    "linux": ("kmalloc", "where does the scheduler pick the next task to run"),
    "linux-core": ("kmalloc", "where does the scheduler pick the next task to run"),
    "networkx": ("shortest_path", "where is the shortest path between two nodes computed"),
    "tuf": ("Updater", "where is the signature of the metadata verified"),
    "pluggy": ("PluginManager", "how are the hook implementations called in order"),
}
# One-file commits: a definition appended to a file, by its extension (as perf.py's one_file_commit does).
ONE_FILE = {"linux": "lib/string.c", "linux-core": "lib/string.c", "django": "django/utils/text.py"}
APPENDED = {".py": "\n\ndef scale_marker():\n    return 'scale'\n",
            ".c": "\n\nint scale_marker(void)\n{\n\treturn 0;\n}\n",
            ".js": "\n\nfunction scaleMarker () { return 'scale' }\n", ".ts": "\n\nexport function scaleMarker() {}\n",
            ".go": "\n\nfunc ScaleMarker() int { return 0 }\n", ".rs": "\n\npub fn scale_marker() {}\n",
            ".java": "\n// scale marker\n", ".php": "\n// scale marker\n", ".rb": "\n# scale marker\n",
            ".cs": "\n// scale marker\n", ".cpp": "\n// scale marker\n", ".h": "\n// scale marker\n"}
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")
_DEFINITION = re.compile(r"(?:def|class|function|func|fn|struct|interface) +([A-Za-z_][A-Za-z0-9_]{3,})")


def questions(name: str, repo: Path) -> tuple[str, str]:
    """(a name, a sentence): the corpus bench's first symbol and meaning questions, else QUESTIONS, else the first
    definition `git grep` finds and a sentence about checking a value."""
    bench = HERE / f"{name}.routing-bench.yaml"
    found: dict[str, str] = {}
    if bench.is_file():
        from gitroute.bench import load_bench

        for question in load_bench(bench.read_text(encoding="utf-8"), str(bench)).questions:
            found.setdefault(question.type, question.question)
    fallback = QUESTIONS.get(name)
    if fallback is None:
        grep = subprocess.run(["git", "grep", "-h", "-o", "-m", "1", "-E", _DEFINITION.pattern], cwd=repo,
                              capture_output=True, text=True, env=_env())
        match = _DEFINITION.search(grep.stdout)
        fallback = (match.group(1) if match else "main", "where is the value checked")
    return found.get("symbol", fallback[0]), found.get("meaning", fallback[1])


def grep_command(text: str) -> list[str]:
    """`git grep -n -i` for the words of `text` that name something (gitroute's stop words dropped)."""
    from gitroute.text import STOP_WORDS

    words = [w for w in _WORD.findall(text) if w.lower() not in STOP_WORDS] or [text]
    return ["git", "grep", "-n", "-i", *sum((["-e", w] for w in words), [])]


def one_file_commit(repo: Path, name: str) -> str:
    """Append a definition to one file (ONE_FILE, else the first file with a known extension) and commit it."""
    path = ONE_FILE.get(name)
    if path is None:
        listing = subprocess.run(["git", "ls-files"], cwd=repo, capture_output=True, text=True).stdout.split("\n")
        path = next((p for p in listing if os.path.splitext(p)[1] in APPENDED), listing[0])
    with (repo / path).open("a", encoding="utf-8") as f:
        f.write(APPENDED.get(os.path.splitext(path)[1], "\n"))
    subprocess.run(["git", "commit", "-q", "-am", "scale: one-file change"], cwd=repo, env=_env(), check=True)
    return path


def measure(name: str, repo: Path, args: argparse.Namespace) -> dict:
    """Every figure of one corpus repository (a clone the build may write into)."""
    jobs = os.cpu_count() or 1
    before = cpu_seconds()
    floor_wall, files, parsed_bytes = floor_seconds(repo, jobs)
    row: dict = {"name": name, "files": files, "mb": parsed_bytes / 1e6, "floor": floor_wall,
                 "floor_cpu": cpu_seconds() - before}
    row["floor_process_cpu"] = floor_process(repo, jobs, _env())["cpu"]  # the same floor, as a process of its own
    before = cpu_seconds()
    floor_seconds(repo, jobs, documents=True)
    row["documents_cpu"] = cpu_seconds() - before  # the documents the floor leaves out, read and parsed
    built = run_measured([*route_command(), "build", "--json"], repo, args.timeout)
    row.update(build=built.seconds, build_cpu=built.cpu, rss=built.peak_mib, tree=built.tree_mib)
    row["source_mb"] = packed_mb(repo, "HEAD")
    if built.returncode != 0:
        row["failed"] = "timeout" if built.seconds == float("inf") else f"exit {built.returncode}"
        return row
    report = json.loads(built.stdout)
    row["nodes"] = sum(report["nodes"].values())
    row["edges"] = sum(report["edges"].values())
    row["phases"] = report["phases"]
    row["bundle_mb"] = packed_mb(repo, BUNDLE_REF)
    name_q, sentence = questions(name, repo)
    row["questions"] = [name_q, sentence]
    query = args.query_route  # an installed copy of this checkout, as a user has it (`main`)
    row["query_name"] = median_ms([*query, "query", name_q], repo, args.runs)
    row["query_words"] = median_ms([*query, "query", sentence], repo, args.runs)
    row["query_name_cpu"] = median_cpu_ms([*query, "query", name_q], repo, args.runs)
    row["query_words_cpu"] = median_cpu_ms([*query, "query", sentence], repo, args.runs)
    row["grep_name"] = median_ms(grep_command(name_q), repo, args.runs)
    row["grep_words"] = median_ms(grep_command(sentence), repo, args.runs)
    if args.one_file:
        row["one_file_path"] = one_file_commit(repo, name)
        rebuilt = run_measured([*route_command(), "build", "--json"], repo, args.timeout)
        row.update(one_file=rebuilt.seconds, one_file_cpu=rebuilt.cpu)
    return row


def median_cpu_ms(cmd: list[str], cwd: Path, runs: int) -> float:
    """CPU milliseconds of a command and its children, the median of `runs`."""
    return statistics.median(run_measured(cmd, cwd).cpu for _ in range(runs)) * 1000


def clone(source: Path, target: Path) -> Path:
    # A local clone shares the corpus's objects by hard links: instant, even for the kernel's 250 MB pack.
    subprocess.run(["git", "clone", "-q", str(source), str(target)], env=_env(), check=True)
    return target


def exceeded(row: dict) -> list[tuple[str, str]]:
    """(target, "corpus figure") for each figure of `row` past its target."""
    name = row["name"]
    if "failed" in row:
        return [("build finishes", f"{name} {row['failed']} after {row['build']:.0f} s, {row['tree']:.0f} MiB")]
    missed = []
    ratio = row["build_cpu"] / row["floor_process_cpu"]
    if ratio > FLOOR_RATIO:
        missed.append((f"build <= {FLOOR_RATIO:g} x floor as a process (CPU)", f"{name} {ratio:.1f}"))
    ratio = row["build_cpu"] / row["floor_cpu"]
    if ratio > FLOOR_RATIO:
        missed.append((f"build <= {FLOOR_RATIO:g} x floor in process (CPU; the tables before)", f"{name} {ratio:.1f}"))
    bundle = row["bundle_mb"] / row["source_mb"]
    if bundle > BUNDLE_RATIO.get(name, 1.0):
        missed.append(("bundle <= source packed (django: 0.5 x)", f"{name} {bundle:.2f}"))
    for kind in ("name", "words"):
        query, grep = row[f"query_{kind}"], row[f"grep_{kind}"]
        if query > grep:
            missed.append((f"cold {kind} query <= git grep (ms)", f"{name} {query:.0f}/{grep:.0f}"))
    if name in RSS_MIB and row["tree"] > RSS_MIB[name]:
        missed.append(("peak memory of the process tree (django 512 MiB, linux 4 GiB)",
                       f"{name} {row['tree']:.0f} MiB"))
    if name in ONE_FILE_RATIO and "one_file" in row and row["one_file"] > ONE_FILE_RATIO[name] * row["build"]:
        missed.append(("one-file rebuild (django 0.15 x, linux 0.1 x)", f"{name} {row['one_file'] / row['build']:.2f}"))
    return missed


HEADER = (f"{'corpus':<22}{'files':>7}{'MB':>7}{'floor s':>9}{'build s':>9}{'b/fl cpu':>9}{'flp s':>7}{'b/flp':>6}"
          f"{'b/fl+d':>7}{'b/fl':>6}"
          f"{'RSS MiB':>9}"
          f"{'tree MiB':>9}"
          f"{'bundle MB':>10}{'source MB':>10}{'b/src':>6}{'name ms':>9}{'words ms':>9}{'grep ms':>9}"
          f"{'cpu ms':>11}")


def table_row(row: dict) -> str:
    head = f"{row['name']:<22}{row['files']:>7}{row['mb']:>7.1f}{row['floor']:>9.2f}"
    if "failed" in row:
        return head + (f"  build {row['failed']} after {row['build']:.0f} s, peak RSS {row['rss']:.0f} MiB, "
                       f"tree {row['tree']:.0f} MiB")
    grep = statistics.median([row["grep_name"], row["grep_words"]])
    with_documents = row["floor_cpu"] + row["documents_cpu"]
    line = (head + f"{row['build']:>9.2f}{row['build_cpu'] / row['floor_cpu']:>8.1f}x"
            f"{row['floor_process_cpu']:>7.2f}{row['build_cpu'] / row['floor_process_cpu']:>5.1f}x"
            f"{row['build_cpu'] / with_documents:>6.1f}x{row['build'] / row['floor']:>5.1f}x"
            f"{row['rss']:>9.0f}{row['tree']:>9.0f}{row['bundle_mb']:>10.2f}"
            f"{row['source_mb']:>10.2f}"
            f"{row['bundle_mb'] / row['source_mb']:>5.2f}x{row['query_name']:>9.0f}{row['query_words']:>9.0f}"
            f"{grep:>9.0f}{row['query_name_cpu']:>5.0f}/{row['query_words_cpu']:<5.0f}")
    if "one_file" in row:
        line += f"  one-file {row['one_file']:.2f} s ({row['one_file'] / row['build']:.2f} x)"
    return line


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="corpora (default: every bench corpus; linux, linux-core by name)")
    parser.add_argument("--repo", type=Path, action="append", default=[],
                        help="also measure this repository (a clone of it), named by its folder")
    parser.add_argument("--runs", type=int, default=3, help="cold query runs per question (median)")
    parser.add_argument("--timeout", type=float, default=5400, help="seconds a build may run before it is killed")
    parser.add_argument("--adversarial-size", type=int, default=200, help="N of each adversarial case")
    parser.add_argument("--no-adversarial", action="store_true")
    parser.add_argument("--one-file", action="store_true", help="also time a rebuild after a one-file commit")
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--keep", type=Path, help="clone into this folder and leave the clones there (their bundles "
                                                  "built), to profile queries on them afterwards")
    parser.add_argument("--editable-queries", action="store_true",
                        help="time cold queries with the git-route the builds use, not an installed copy")
    args = parser.parse_args(argv)
    names = args.names or ([] if args.repo else [name for name in CORPORA if name not in SCALE_ONLY])
    rows = []
    prime_bytecode(route_command())
    if not args.json:
        print(HEADER, flush=True)
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
    with (contextlib.nullcontext(str(args.keep)) if args.keep is not None
          else tempfile.TemporaryDirectory(prefix="gitroute-scale-")) as tmp:
        # Cold queries as a user has gitroute (`pip install .`, not editable: docs/decisions/0024, session 25).
        args.query_route = route_command() if args.editable_queries else installed_route(HERE.parent,
                                                                                         Path(tmp) / ".venv")
        work = [(name, lambda name=name: clone(materialise(name, DEFAULT_DEST, args.cache), Path(tmp) / name))
                for name in names]
        work += [(repo.name, lambda repo=repo: clone(repo, Path(tmp) / repo.name)) for repo in args.repo]
        if adversarial is not None and not args.no_adversarial and not (args.names or args.repo):
            for case, generate in adversarial.CASES.items():
                def write(case: str = case, generate=generate) -> Path:
                    repo = Path(tmp) / f"adversarial-{case}"
                    adversarial.write_repository(generate(args.adversarial_size), repo)
                    return repo
                work.append((f"{case}@{args.adversarial_size}", write))
        for name, make in work:
            row = measure(name, make(), args)
            rows.append(row)
            if not args.json:
                print(table_row(row), flush=True)
    missed = [m for row in rows for m in exceeded(row)]
    if args.json:
        print(json.dumps({"rows": rows, "exceeded": [list(m) for m in missed]}, indent=2, default=str))
        return 0
    print("RSS MiB: the largest process's peak; tree MiB: the whole process tree's (PSS summed); "
          "grep ms: the median of git grep for the name and for the sentence; cpu ms: the name's and the sentence's "
          "cold query in CPU ms; b/fl cpu: CPU seconds of the build and its workers over the floor's in this process; "
          "flp s: the floor as a process of its own, CPU seconds; b/flp: the build's over it (the target's ratio); "
          "b/fl+d: over the floor's and the documents' it leaves out (perf.floor_seconds); b/fl: wall; "
          "load average at the end: "
          + ", ".join(f"{n:.1f}" for n in os.getloadavg()))
    if adversarial is None and not args.no_adversarial:
        print("adversarial cases: none (bench/adversarial.py is not in this checkout)")
    by_target: dict[str, list[str]] = {}
    for target, figure in missed:
        by_target.setdefault(target, []).append(figure)
    print("exceeding their targets:" + ("" if missed else " none"))
    for target, figures in by_target.items():
        print(f"  {target}: {', '.join(figures)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
