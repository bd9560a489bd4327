"""Performance of `git route` on the django corpus, beside baselines measured in the same run.

    python bench/perf.py [--corpus django] [--runs 7] [--json]

Prints one table: full build, incremental rebuild after a one-file commit (the median of up to three,
each after a commit of its own), the rebuild after a one-document commit, cold query process
(median of --runs; gitroute installed as `pip install .` installs it, in the run's temporary folder, unless
--editable-queries), bundle size raw and packed, peak memory; and the baselines: `git grep -n` for
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
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from corpora import materialise  # noqa: E402

QUERIES = ["QuerySet", "where is the csrf middleware", "ModelAdmin", "get_object_or_404"]
GREP_WORDS = {"QuerySet": ["QuerySet"], "where is the csrf middleware": ["csrf", "middleware"],
              "ModelAdmin": ["ModelAdmin"], "get_object_or_404": ["get_object_or_404"]}
TARGETS = {
    "full build": "<= 12 s",
    "full build CPU": "<= 3x floor CPU",
    "incremental build": "<= 0.15x full build",
    "incremental objects": "<= 1 MB packed",
    "cold query (median)": "<= import click + 50 ms, <= git grep",
    "bundle packed": "<= 10 MB",
    "peak RSS": "<= 1 GiB",
}


# Where the measured processes keep their compiled bytecode (PYTHONPYCACHEPREFIX), apart from every checkout.
PYCACHE = Path("~/.cache/gitroute-bench/pycache").expanduser()


def _env() -> dict[str, str]:
    # Measured processes run from compiled bytecode, as an installed gitroute does (pip compiles it at install):
    # with PYTHONDONTWRITEBYTECODE inherited from the calling shell, every build compiled gitroute's sources again,
    # about 0.2 s of CPU, a third of a one-file repository's build (docs/decisions/0023, the amendment).
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_") and k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    env.update(GIT_CONFIG_NOSYSTEM="1", GIT_AUTHOR_NAME="perf", GIT_AUTHOR_EMAIL="perf@gitroute.invalid",
               GIT_COMMITTER_NAME="perf", GIT_COMMITTER_EMAIL="perf@gitroute.invalid",
               GIT_AUTHOR_DATE="1735689600 +0000", GIT_COMMITTER_DATE="1735689600 +0000")
    return env


def prime_bytecode(command: list[str], env: dict[str, str] | None = None) -> None:
    """Build a one-file repository with `command` (`route_command()`, or `python -m gitroute` and a PYTHONPATH in
    `env`), unmeasured: what a build imports is compiled to PYCACHE before the first measured one."""
    with tempfile.TemporaryDirectory(prefix="gitroute-prime-") as tmp:
        repo = Path(tmp)
        (repo / "a.py").write_text("def f():\n    return 1\n")
        for git in (["init", "-q"], ["add", "a.py"], ["commit", "-q", "-m", "prime"]):
            subprocess.run(["git", *git], cwd=repo, env=_env(), check=True, capture_output=True)
        subprocess.run([*command, "build", "-q", "--full"], cwd=repo, env=env or _env(), check=True,
                       capture_output=True)


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess:
    result = subprocess.run(cmd, cwd=cwd, capture_output=True, env=_env())
    if result.returncode not in (0, 1):
        raise SystemExit(f"fatal: {' '.join(cmd)} failed: {result.stderr.decode(errors='replace').strip()}")
    return result


def _timed(cmd: list[str], cwd: Path) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    result = _run(cmd, cwd)
    return time.perf_counter() - start, result


def median_ms(cmd: list[str], cwd: Path, runs: int) -> float:
    _run(cmd, cwd)  # one warm-up: the page cache, not the process, is what we let warm
    return statistics.median(_timed(cmd, cwd)[0] for _ in range(runs)) * 1000


def route_command() -> list[str]:
    exe = shutil.which("git-route")
    return [exe] if exe else [sys.executable, "-m", "gitroute"]


def installed_route(checkout: Path, venv: Path) -> list[str]:
    """The `git-route` script of `checkout` installed as a user installs it (`pip install CHECKOUT`, not editable)
    into the venv `venv`: made with its dependencies the first time, the checkout installed again over it each time
    (its code as it is now, from a copy: the checkout is left alone); pip compiles the bytecode, as at any install."""
    pip = venv / "bin" / "pip"
    fresh = not pip.exists()
    if fresh:
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    # pip builds in the folder it is given (`build/`, the egg-info): a copy of the checkout, not the checkout
    source = venv / "source"
    shutil.rmtree(source, ignore_errors=True)
    shutil.copytree(checkout, source, ignore=shutil.ignore_patterns(".git", "build", "*.egg-info", "__pycache__",
                                                                     ".hypothesis", "corpora"))
    subprocess.run([str(pip), "install", "-q", *([] if fresh else ["--no-deps", "--force-reinstall"]), str(source)],
                   check=True)
    return [str(venv / "bin" / "git-route")]


_FLOOR_REPO: list = []  # a floor worker's own pygit2 repository, opened once per process


def _floor_worker(path: str) -> None:
    import pygit2

    _FLOOR_REPO[:] = [pygit2.Repository(path)]


def _read_parse(item: tuple[str, str]) -> int:
    """Read one blob and parse it (a worker reads its own blobs: the parent holds ids, never a tree's contents,
    so the floor of a 1.3 GB tree stays as small as one of 1 MB); the bytes parsed, 0 for a binary or for a
    document whose content is none the build parses (a `.txt` that is not reStructuredText).

    `lang` is a pack language, or a document's kind prefixed by `DOCUMENT` (`doc.rst`): a document is parsed with
    its block grammar only, once, as `documents.document_format` reads it (the build's own parse also parses
    Markdown's inlines, and walks the tree)."""
    import pygit2
    from tree_sitter_language_pack import get_parser

    oid, lang = item
    data = _FLOOR_REPO[0][pygit2.Oid(hex=oid)].data
    if b"\0" in data[:8000]:
        return 0
    if lang.startswith(DOCUMENT):
        from gitroute.parsing.documents import KIND_PATHS, document_format

        lang = document_format(KIND_PATHS[lang.removeprefix(DOCUMENT)], data) or ""
        if not lang:
            return 0
    get_parser(lang).parse(data)  # type: ignore[arg-type]
    return len(data)


DOCUMENT = "doc."  # a floor item's "language" when it is a document: doc.markdown, doc.rst, doc.txt (build.DOCUMENT)


def floor_seconds(repo: Path, jobs: int, documents: bool = False) -> tuple[float, int, int]:
    """Read every blob of HEAD with pygit2 and parse the ones with a language: nothing else. Returns the seconds,
    the files parsed and their bytes.

    With `documents`, the documents it leaves out instead: those with no pack language (`README`, django's
    `docs/*.txt`; a `.md` or `.rst` has one, and the floor parses it already), each parsed by its block grammar as
    `documents.document_format` reads it. A build parses them too (on django a seventh of its CPU): the floor plus
    this one is every blob a build parses, a second figure beside the floor's (docs/decisions/0023, 2026-12-02)."""
    import multiprocessing

    from floor_process import parsed_blobs

    start = time.perf_counter()
    items = parsed_blobs(repo, documents=documents)
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("fork"), initializer=_floor_worker,
                             initargs=(str(repo),)) as pool:
        sizes = list(pool.map(_read_parse, items, chunksize=8))
    return time.perf_counter() - start, sum(1 for n in sizes if n), sum(sizes)


def cpu_seconds() -> float:
    """User + system seconds of this process and of every child it has waited for (pool workers included)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


class Measured(NamedTuple):
    seconds: float  # wall
    cpu: float  # user + system of the process and the workers it waited for
    peak_mib: float  # the largest resident set of the process or any of its workers
    returncode: int
    stdout: bytes
    tree_mib: float = 0.0  # the largest sum of the proportional set sizes of all its processes at once (sampled)


def session_pss_mib(session: int) -> float:
    """The proportional set sizes (PSS: pages shared between processes counted once over them all, so forked
    workers are not counted twice for what they share) of every process of a session, summed: the memory the
    whole process tree holds. Linux; 0 where /proc says nothing."""
    total = 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
            if int(stat[stat.rindex(b")") + 2:].split()[3]) != session:
                continue
            with open(f"/proc/{name}/smaps_rollup", "rb") as f:
                for line in f:
                    if line.startswith(b"Pss:"):
                        total += int(line.split()[1])
                        break
        except (OSError, ValueError, IndexError):
            continue
    return total / 1024


class _TreeSampler(threading.Thread):
    """Samples a session's summed PSS every `every` seconds until stopped; `peak` is the largest sample."""

    def __init__(self, session: int, every: float = 0.5) -> None:
        super().__init__(daemon=True)
        self.session, self.every, self.peak = session, every, 0.0
        self.stopped = threading.Event()

    def run(self) -> None:
        while not self.stopped.is_set():
            self.peak = max(self.peak, session_pss_mib(self.session))
            self.stopped.wait(self.every)


# Runs a command and writes its peak RSS (KiB) and CPU seconds, from its own rusage, to the file named first. The
# command is forked from this small process, not from the measuring one: Linux keeps the peak RSS of a process
# across exec, so a command forked straight from a 100 MB bench process would report at least 100 MB.
_MEASURE = ("import resource, subprocess, sys\n"
            "code = subprocess.call(sys.argv[2:])\n"
            "usage = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
            "open(sys.argv[1], 'w').write(f'{usage.ru_maxrss} {usage.ru_utime + usage.ru_stime}')\n"
            "sys.exit(code)\n")


def run_measured(cmd: list[str], cwd: Path, timeout: float | None = None) -> Measured:
    """Run `cmd` and measure it by its own rusage, not this process's running total: many builds can be measured
    one after another. Past `timeout` seconds the command is killed and its figures are infinite."""
    with tempfile.TemporaryFile() as out, tempfile.NamedTemporaryFile("r") as usage:
        start = time.perf_counter()
        process = subprocess.Popen([sys.executable, "-c", _MEASURE, usage.name, *cmd], cwd=cwd, env=_env(),
                                   stdout=out, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                                   start_new_session=True)
        sampler = _TreeSampler(process.pid)
        sampler.start()
        try:
            returncode = process.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
            return Measured(float("inf"), float("inf"), float("inf"), -signal.SIGKILL, b"", sampler.peak)
        finally:
            sampler.stopped.set()
            sampler.join()
        seconds = time.perf_counter() - start
        peak_kib, cpu = usage.read().split()
        out.seek(0)
        return Measured(seconds, float(cpu), int(peak_kib) / 1024, returncode, out.read(), sampler.peak)


def packed_mb(repo: Path, rev: str) -> float:
    """Megabytes of every object reachable from `rev`, packed as git sends them in a fetch."""
    objects = _run(["git", "rev-list", "--objects", rev], repo).stdout
    pack = subprocess.run(["git", "pack-objects", "--stdout", "-q"], cwd=repo, input=objects, capture_output=True,
                          env=_env())
    return len(pack.stdout) / 1e6


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
    parser.add_argument("--editable-queries", action="store_true",
                        help="time cold queries with the git-route the builds use, not an installed copy")
    args = parser.parse_args(argv)

    jobs = os.cpu_count() or 1
    prime_bytecode(route_command())
    with tempfile.TemporaryDirectory(prefix="gitroute-perf-") as tmp:
        source = materialise(args.corpus, Path(tmp) / "corpora", args.cache)
        repo = Path(tmp) / "work"
        _run(["git", "clone", "-q", "--no-local", str(source), str(repo)], Path(tmp))

        figures: dict[str, float] = {}
        figures["import click (ms)"] = median_ms([sys.executable, "-c", "import click"], repo, args.runs)
        before = cpu_seconds()
        floor, floor_files, floor_bytes = floor_seconds(repo, jobs)
        figures["floor: read + parse (s)"] = floor
        figures["floor CPU (s)"] = cpu_seconds() - before
        before = cpu_seconds()
        documents_floor, documents_files, _bytes = floor_seconds(repo, jobs, documents=True)
        figures["documents the floor leaves out: read + parse (s)"] = documents_floor
        figures["documents floor CPU (s)"] = cpu_seconds() - before

        before = cpu_seconds()
        full, result = _timed([*route_command(), "build", "--json"], repo)
        figures["full build CPU (s)"] = cpu_seconds() - before
        report = json.loads(result.stdout)
        figures["full build (s)"] = full
        peak_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        figures["peak RSS (MiB)"] = peak_kib / 1024

        # The one-file rebuild, as the median of a few (one commit each: a shared machine is noisy); the
        # objects it writes are those of the first.
        rebuilds = []
        for n in range(max(1, min(args.runs, 3))):
            one_file_commit(repo, str(n))
            seconds, result = _timed([*route_command(), "build", "--json"], repo)
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
        figures["one-document rebuild (s)"], _result = _timed([*route_command(), "build", "--json"], repo)

        # Cold queries as a user has gitroute (`pip install .`, not editable: docs/decisions/0024, session 25).
        query_route = route_command() if args.editable_queries else installed_route(HERE.parent, Path(tmp) / "venv")
        query_ms = {q: median_ms([*query_route, "query", q], repo, args.runs) for q in QUERIES}
        grep_ms = {q: median_ms(["git", "grep", "-n", "-i", *sum((["-e", w] for w in GREP_WORDS[q]), [])], repo,
                                 args.runs) for q in QUERIES}
        figures["cold query median (ms)"] = statistics.median(query_ms.values())
        figures["git grep median (ms)"] = statistics.median(grep_ms.values())

        listing = _run(["git", "ls-tree", "-r", "-l", "refs/marola/routing-bundle"], repo).stdout.decode()
        raw = sum(int(line.split()[3]) for line in listing.splitlines() if line.split()[3].isdigit())
        figures["bundle raw (MB)"] = raw / 1e6
        figures["bundle packed (MB)"] = packed_mb(repo, "refs/marola/routing-bundle")

    click_ms = figures["import click (ms)"]
    full_cpu, floor_cpu = figures["full build CPU (s)"], figures["floor CPU (s)"]
    with_documents = floor_cpu + figures["documents floor CPU (s)"]
    rows = [
        ("full build", f"{full:.2f} s", TARGETS["full build"], f"{full / floor:.2f}x floor ({floor:.2f} s)",
         full <= 12),
        ("full build CPU", f"{full_cpu:.2f} s", TARGETS["full build CPU"],
         f"{full_cpu / floor_cpu:.2f}x floor CPU ({floor_cpu:.2f} s); {full_cpu / with_documents:.2f}x floor + "
         f"documents ({with_documents:.2f} s, {documents_files} more files)", full_cpu <= 3 * floor_cpu),
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
