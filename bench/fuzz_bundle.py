"""Damage a real bundle's blobs every way a hostile or broken fetch could, and ask every kind of question of it.

    python bench/fuzz_bundle.py [--cases N] [--seed S] [--corpus DIR] [--keep DIR] [--show N] [--json]

A bundle is built once, in a temporary repository holding a real corpus (DIR, default this worktree's
`bench/corpora/pluggy`, materialised by `python bench/corpora.py pluggy`; tests/conftest.py's sample
project with a design document when DIR is `sample`). Then, case after case, one of its blobs (every
index's, the graph's and the manifest, in turn) is mutated: truncated, bit-flipped, a value swapped for
one of another type, nested deep, a number made huge, negative or not finite, a list made a dict, a row's
path made to leave the repository, a name given control characters, the blob swapped for a gitlink, a
tree, or made too large; a subtree is swapped for a gitlink or a blob. The mutated tree is written with
pygit2, committed with the bundle's trailers, the bundle ref moved to it, and one question (query by name,
query in plain words, docs, code, impact, why, wiring, status, ask; text or `--json`) asked in process
through the real error boundary (`gitroute.cli.main`), or, one case in seven, as the MCP tool call of a warm
server kept across cases (`cli.mcp.ServerTools`: each case re-pins it, and it decodes the bundle ahead).

Every answer must be exit 0 or 1, or the one line `fatal: the bundle at '…' is damaged: …` (128), or the fatal
that names what the bundle lacks (an index's folder removed: `… has no 'meaning' index`). An
internal error (exit 3), a traceback, a `--json` document that does not parse (a `NaN`), any other exit or
fatal is a failure: the script prints each (case, mutation, blob, question, stderr), up to --show, and
exits 1 when there was any. Prints cases run, by outcome and by mutation, and the seconds taken.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

BUNDLE_REF = "refs/marola/routing-bundle"
DAMAGED = f"fatal: the bundle at '{BUNDLE_REF}' is damaged: "
ABOUT_BUNDLE = "fatal: the bundle"  # at '…' is damaged, has no '…' index; the bundle's … index has format
ENV = {"GITROUTE_DEBUG": "1", "GIT_CONFIG_NOSYSTEM": "1", "GIT_AUTHOR_NAME": "fuzz", "GIT_AUTHOR_EMAIL": "fuzz@invalid",
       "GIT_COMMITTER_NAME": "fuzz", "GIT_COMMITTER_EMAIL": "fuzz@invalid",
       "GIT_AUTHOR_DATE": "1700000000 +0000", "GIT_COMMITTER_DATE": "1700000000 +0000"}

SAMPLE_DESIGN = """# ADR-7: Forecasts come from Open-Meteo

## Status

Accepted

## Decision

We fetch forecasts with `OpenMeteoClient` in `src/sample/weather.py` rather than scraping a web page,
because the service is free and needs no key. `parse_forecast` turns the text into rows.

## Considered Options

- Scrape a web page: rejected, it breaks whenever the page changes.
"""


# --- the bundle, built once --------------------------------------------------------------------------------


def sample_files() -> dict[str, bytes]:
    from tests.conftest import SAMPLE_FILES

    files = {path: text.encode() for path, text in SAMPLE_FILES.items()}
    files["docs/adr/0007-open-meteo.md"] = SAMPLE_DESIGN.encode()
    files["docs/guide.md"] = b"# Guide\n\nStart at `src/sample/cli.py`; `OpenMeteoClient` fetches.\n"
    return files


def corpus_files(folder: Path) -> dict[str, bytes]:
    """Every file of the corpus repository's HEAD."""
    names = subprocess.run(["git", "ls-files", "-z"], cwd=folder, capture_output=True, check=True).stdout
    files = {}
    for name in names.decode("utf-8", "surrogateescape").split("\0"):
        path = folder / name
        if name and path.is_file() and not path.is_symlink():
            files[name] = path.read_bytes()
    return files


def make_repo(folder: Path, files: dict[str, bytes]):
    """A repository at `folder` with one commit of `files`, and its bundle built."""
    import pygit2
    from pygit2.enums import FileMode

    repo = pygit2.init_repository(str(folder), initial_head="main")
    index = repo.index
    for path, data in sorted(files.items()):
        index.add(pygit2.IndexEntry(path, repo.create_blob(data), FileMode.BLOB))
    tree = index.write_tree()
    sig = pygit2.Signature("fuzz", "fuzz@invalid", 1_700_000_000, 0)
    repo.create_commit("refs/heads/main", sig, sig, "corpus", tree, [])
    index.write()
    result = route(["build", "-q"], folder)
    if result[0] != 0:
        raise SystemExit(f"the build failed: {result[2]}")
    return repo


def route(args: list[str], cwd: Path) -> tuple[int, str, str]:
    """`git route ARGS` in process, through the real error boundary (tests/conftest.py's `run_route`): (exit code,
    stdout, stderr); an exception that escapes the boundary is exit -1 and its traceback."""
    from tests.conftest import run_route

    old = os.getcwd()
    try:
        result = run_route(args, cwd)
    except Exception:  # anything past the boundary is the finding (a KeyboardInterrupt still stops the run)
        import traceback

        os.chdir(old)
        return -1, "", "escaped the error boundary:\n" + traceback.format_exc()
    return result.exit_code, result.stdout, result.stderr


def serve(tools, args: list[str]) -> tuple[int, str, str]:
    """The MCP tool call of a command line (`query TEXT` -> the `query` tool), from a warm server kept across
    cases (each case moves the ref: it pins the mutated bundle again and decodes it ahead, `api.warm`); as
    (exit code, the document as the server writes it, `fatal: ` + its error message)."""
    from gitroute.cli.output import render_json

    name, *words = [a for a in args if a != "--json"]
    command = tools.commands.get(name)
    arguments = {command.argument[0]: " ".join(words)} if command is not None and words else {}
    try:
        document, is_error = tools.call(name, arguments)
        text = render_json(document)
    except Exception:  # past the server's boundary: the finding
        import traceback

        return -1, "", "escaped the server:\n" + traceback.format_exc()
    if not is_error:
        return 0, text, ""
    return document["error"]["exit"], text, "fatal: " + document["error"]["message"]


# --- questions ------------------------------------------------------------------------------------------------


def questions(repo) -> list[tuple[str, list[str]]]:
    """One question of each kind, about things the bundle holds (a defined name, a document, a file)."""
    import pygit2

    from gitroute.bundle.graph import load_node_shard

    tree = repo[repo.references[BUNDLE_REF].peel(pygit2.Commit).tree_id]
    nodes = list(load_node_shard(tree["graph/nodes"][sorted(e.name for e in tree["graph/nodes"])[-1]].data))
    classes = [r for r in nodes if r[3] == "class"] or nodes
    name = classes[len(classes) // 2][1]
    path = classes[len(classes) // 2][0]
    docs = json.loads(tree["doc_links/docs.json"].data)
    doc = (docs[0] if isinstance(docs[0], str) else docs[0][0]) if docs else "README.md"
    kinds = [
        ("query-name", ["query", name]),
        ("query-words", ["query", "where is the hook spec called"]),  # "hook spec": a word held as one too
        ("docs", ["docs", name]),
        ("code", ["code", doc]),
        ("impact", ["impact", name]),
        ("why", ["why", f"why {name}"]),
        ("wiring", ["wiring"]),
        ("status", ["status"]),
        ("ask", ["ask", f"what calls {name}"]),
        ("ask-why", ["ask", "why was this hook spec chosen rather than another option"]),
        ("query-path", ["query", path]),
    ]
    return kinds


# The questions that read each part of the bundle: a case asks one of them most of the time.
READERS = {
    "graph": ("query-name", "query-words", "docs", "code", "impact", "ask"),
    "symbols": ("query-name", "query-path", "ask"),
    "impact": ("impact", "ask"),
    "wiring": ("wiring",),
    "doc_links": ("docs", "code", "ask"),
    "decisions": ("why", "ask-why"),
    "meaning": ("query-words", "ask"),
    "embedding": ("query-words",),
    "contextual": ("query-words",),
    "build.json": ("status",),
}


def question_for(rng: random.Random, target: str, asked: list[tuple[str, list[str]]]) -> tuple[str, list[str]]:
    readers = READERS.get(target.split("/")[0], ())
    if readers and rng.random() < 0.8:
        return rng.choice([q for q in asked if q[0] in readers])
    return rng.choice(asked)


# --- mutations --------------------------------------------------------------------------------------------------

HOSTILE_PATHS = ["../../../../etc/passwd", "/etc/passwd", "a/../../b", "", ".", "a\x1b[31mred", "a\nfatal: fake",
                 "a\0b", "C:\\windows", "a//b"]
HOSTILE_NAMES = ["\x1b[2J\x1b[31mboom", "a\nfatal: fake", "x" * 100_000, "", "\u202egnp.exe", "a\rb"]
HUGE_NUMBERS = [2**63 + 7, -5, -(2**63), 10**400, 0, 1e308, -1e308, float("inf"), float("nan"), 1.5, True, None]


def load(data: bytes):
    try:
        return json.loads(data)
    except ValueError:
        return None


def dump(value) -> bytes:
    return json.dumps(value, allow_nan=True).encode()


def walk(value, path=()):
    """Every (path, value) inside a JSON value."""
    yield path, value
    if isinstance(value, list):
        for i, item in enumerate(value):
            yield from walk(item, (*path, i))
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from walk(item, (*path, key))


def put(value, path, new):
    if not path:
        return new
    holder = value
    for step in path[:-1]:
        holder = holder[step]
    holder[path[-1]] = new
    return value


def pick(rng: random.Random, value, want: Callable[[object], bool]):
    spots = [p for p, v in walk(value) if want(v)]
    return rng.choice(spots) if spots else None


def replace_some(rng, data: bytes, want, make) -> bytes | None:
    value = load(data)
    if value is None:
        return None
    spot = pick(rng, value, want)
    if spot is None:
        return None
    return dump(put(value, spot, make(rng)))


def m_truncate(rng, data):
    return data[:rng.randrange(len(data))] if data else b"{"


def m_bitflip(rng, data):
    if not data:
        return b"\xff"
    raw = bytearray(data)
    for _ in range(rng.choice([1, 1, 2, 8])):
        i = rng.randrange(len(raw))
        raw[i] ^= 1 << rng.randrange(8)
    return bytes(raw)


def m_type_swap(rng, data):
    others = [0, -1, "x", [], {}, None, True, 1.5, [[]], {"": []}, "../x", [1, 2, 3], ["a", "b"]]
    return replace_some(rng, data, lambda v: True, lambda r: r.choice(others))


def m_deep(rng, data):
    depth = rng.choice([1000, 5000, 100_000])
    deep = ("[" * depth + "]" * depth).encode()
    value = load(data)
    if value is None or rng.random() < 0.3:
        return deep
    spot = pick(rng, value, lambda v: True)
    text = dump(put(value, spot, "\0DEEP\0"))
    return text.replace(b'"\\u0000DEEP\\u0000"', deep)


def m_number(rng, data):
    bad = rng.choice(HUGE_NUMBERS)
    if isinstance(bad, float) and bad != bad or bad in (float("inf"), float("-inf")):
        token = rng.choice([b"NaN", b"Infinity", b"-Infinity"])
        value = load(data)
        if value is None:
            return None
        spot = pick(rng, value, lambda v: isinstance(v, (int, float)) and not isinstance(v, bool))
        if spot is None:
            return None
        return dump(put(value, spot, "\0NUM\0")).replace(b'"\\u0000NUM\\u0000"', token)
    return replace_some(rng, data, lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
                        lambda r: bad)


def m_shape(rng, data):
    def reshape(r):
        return r.choice([{"0": 1}, [], [[1]], [1], "[]", {"a": {"b": {}}}])

    value = load(data)
    if value is None:
        return None
    spot = pick(rng, value, lambda v: isinstance(v, (list, dict)))
    if spot is None:
        return None
    held = value if not spot else None
    if held is None:
        holder = value
        for step in spot:
            holder = holder[step]
        held = holder
    if isinstance(held, list) and held and rng.random() < 0.5:
        new = held[:-1] if rng.random() < 0.5 else [*held, held[-1]]  # an odd length, a row too many
        if rng.random() < 0.5 and isinstance(held[0], list):
            new = [row[:-1] if isinstance(row, list) else row for row in held]  # every row a field short
    elif isinstance(held, dict) and held and rng.random() < 0.5:
        new = list(held.values())
    else:
        new = reshape(rng)
    return dump(put(value, spot, new))


def m_path(rng, data):
    def is_pathish(v):
        return isinstance(v, str) and ("/" in v or v.endswith((".py", ".md", ".rst", ".txt", ".toml", ".json")))

    value = load(data)
    if value is None:
        return None
    hostile = rng.choice(HOSTILE_PATHS)
    spots = [p for p, v in walk(value) if is_pathish(v)]
    if isinstance(value, dict):
        keys = [k for k in value if is_pathish(k)]
        if keys and (not spots or rng.random() < 0.3):
            key = rng.choice(keys)
            value[hostile] = value.pop(key)
            return dump(value)
    if not spots:
        return None
    return dump(put(value, rng.choice(spots), hostile))


def m_name(rng, data):
    return replace_some(rng, data, lambda v: isinstance(v, str), lambda r: r.choice(HOSTILE_NAMES))


def m_line(rng, data):
    return replace_some(rng, data, lambda v: isinstance(v, int) and not isinstance(v, bool),
                        lambda r: r.choice([-5, 0, 2**63 + 7, 10**12, True, "7", 7.0]))


def m_empty(rng, data):
    return rng.choice([b"", b"null", b"[]", b"{}", b"0", b'""', b"\xef\xbb\xbf{}"])


def m_oversize(rng, data):
    size = rng.choice([8, 32]) * 1024 * 1024
    return (data or b"{}") + b" " * size


BLOB_MUTATIONS = {
    "truncate": m_truncate, "bitflip": m_bitflip, "type-swap": m_type_swap, "deep": m_deep, "number": m_number,
    "shape": m_shape, "path": m_path, "name": m_name, "line": m_line, "empty": m_empty, "oversize": m_oversize,
}
# Entry swaps (blob -> gitlink, tree; a folder -> gitlink, blob): made on the tree, not on a blob's bytes.
ENTRY_MUTATIONS = ("blob-gitlink", "blob-tree", "folder-gitlink", "folder-blob", "blob-missing", "folder-missing")
WEIGHTS = {"oversize": 1, "blob-gitlink": 2, "blob-tree": 2, "folder-gitlink": 2, "folder-blob": 2,
           "blob-missing": 1, "folder-missing": 1}


# --- writing the mutated bundle -----------------------------------------------------------------------------


class Bundle:
    """The built bundle's tree, and mutated copies of it committed at the bundle ref."""

    def __init__(self, repo) -> None:
        import pygit2

        self.repo = repo
        commit = repo.references[BUNDLE_REF].peel(pygit2.Commit)
        self.message = commit.message
        self.tree = commit.tree
        self.blobs: dict[str, object] = {}  # path -> Oid
        self.folders: list[str] = []
        self._walk(self.tree, "")
        self.data = {path: repo[oid].data for path, oid in self.blobs.items()}
        self.sig = pygit2.Signature("fuzz", "fuzz@invalid", 1_700_000_000, 0)
        self.gitlink_target = repo.references["refs/heads/main"].target

    def _walk(self, tree, prefix: str) -> None:
        import pygit2

        for entry in tree:
            path = prefix + entry.name
            if entry.type == pygit2.enums.ObjectType.TREE or entry.type_str == "tree":
                self.folders.append(path)
                self._walk(self.repo[entry.id], path + "/")
            else:
                self.blobs[path] = entry.id

    def commit(self, changes: dict[str, tuple[int, object] | None]) -> None:
        """Point the bundle ref at the tree with `changes` (path -> (mode, oid), or None to remove) made."""
        self.repo.references.create(BUNDLE_REF, self._commit(self._write(self.tree, "", changes)), force=True)

    def restore(self) -> None:
        self.repo.references.create(BUNDLE_REF, self._commit(self.tree.id), force=True)

    def _commit(self, tree_id):
        return self.repo.create_commit(None, self.sig, self.sig, self.message, tree_id, [])

    def _write(self, tree, prefix: str, changes: dict):
        builder = self.repo.TreeBuilder(tree)
        here = {path[len(prefix):] for path in changes if path.startswith(prefix)}
        for rest in sorted(here):
            name, slash, _ = rest.partition("/")
            if slash:
                sub = tree[name] if name in tree else None
                if sub is not None and sub.type_str == "tree":
                    builder.insert(name, self._write(self.repo[sub.id], prefix + name + "/", changes),
                                   sub.filemode)
                continue
            change = changes[prefix + rest]
            if change is None:
                if builder.get(name) is not None:
                    builder.remove(name)
            else:
                builder.insert(name, change[1], change[0])
        return builder.write()


def mutate(rng: random.Random, bundle: Bundle, mutation: str, target: str) -> dict | None:
    """The tree changes of one mutation of `target` (a blob path, or a folder for a folder mutation)."""
    from pygit2.enums import FileMode

    repo = bundle.repo
    if mutation in BLOB_MUTATIONS:
        data = BLOB_MUTATIONS[mutation](rng, bundle.data[target])
        if data is None or data == bundle.data[target]:
            return None
        return {target: (FileMode.BLOB, repo.create_blob(data))}
    if mutation == "blob-gitlink":
        return {target: (FileMode.COMMIT, bundle.gitlink_target)}
    if mutation == "blob-tree":
        return {target: (FileMode.TREE, bundle.tree.id)}
    if mutation == "blob-missing":
        return {target: None}
    if mutation == "folder-gitlink":
        return {target: (FileMode.COMMIT, bundle.gitlink_target)}
    if mutation == "folder-blob":
        return {target: (FileMode.BLOB, repo.create_blob(rng.choice([b"{}", b"[]", b"x"])))}
    if mutation == "folder-missing":
        return {target: None}
    raise AssertionError(mutation)


# --- judging an answer ------------------------------------------------------------------------------------------


def judge(args: list[str], result: tuple[int, str, str]) -> str | None:
    """None when the answer is one a damaged bundle may give; else what is wrong."""
    code, stdout, stderr = result
    if "Traceback" in stderr or "Traceback" in stdout:
        return "traceback"
    if code in (0, 1):
        if "--json" in args:
            try:
                json.loads(stdout, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))
            except ValueError:
                return "--json is not JSON"
        return None
    if code == 128:
        # The damaged fatal, or the one that names an index the bundle lacks (its folder gone: a bundle written
        # without it); with --json, the error document on stdout too.
        lines = stderr.splitlines()
        if not lines or not lines[0].startswith(ABOUT_BUNDLE):
            return f"another fatal: {lines[:1]}"
        if "--json" in args:
            try:
                json.loads(stdout)
            except ValueError:
                return "--json error is not JSON"
        elif stdout:
            return "a fatal after output"
        return None
    return f"exit {code}"


# --- the run ----------------------------------------------------------------------------------------------------


def plan(rng: random.Random, bundle: Bundle, cases: int) -> list[tuple[str, str]]:
    """(mutation, target) for each case: every blob and folder in turn, mutations weighted."""
    names = [*BLOB_MUTATIONS, *ENTRY_MUTATIONS]
    weights = [WEIGHTS.get(n, 4) for n in names]
    blobs = sorted(bundle.blobs)
    # A few extraction shards stand for all: queries never read them; the build reads them only from its own.
    extract = [b for b in blobs if b.startswith("extract/")]
    blobs = [b for b in blobs if not b.startswith("extract/")] + extract[:2]
    folders = sorted(bundle.folders)
    out = []
    for n in range(cases):
        mutation = rng.choices(names, weights)[0]
        pool = folders if mutation.startswith("folder-") else blobs
        out.append((mutation, pool[n % len(pool)] if rng.random() < 0.5 else rng.choice(pool)))
    return out


def fuzz(cases: int, seed: int, files: dict[str, bytes], work: Path) -> dict:
    """Build a bundle of `files` in `work/repo`, then run `cases` cases; the report, failures in full."""
    rng = random.Random(seed)
    started = time.monotonic()
    repo = make_repo(work / "repo", files)
    bundle = Bundle(repo)
    asked = questions(repo)
    built = time.monotonic() - started
    outcomes: Counter = Counter()
    by_mutation: Counter = Counter()
    targets: Counter = Counter()
    asked_as: Counter = Counter()  # the command (or `mcp`) of each case
    failures: list[dict] = []
    done = 0
    from gitroute.cli.mcp import ServerTools

    tools = ServerTools(str(work / "repo"))
    for n, (mutation, target) in enumerate(plan(rng, bundle, cases * 2)):
        if done >= cases:
            break
        changes = mutate(rng, bundle, mutation, target)
        if changes is None:
            continue
        bundle.commit(changes)
        kind, args = question_for(rng, target, asked)
        mcp = rng.random() < 0.15 and kind != "wiring"  # wiring is no tool: the committed file's table
        if mcp or rng.random() < 0.5 and kind != "status":
            args = [*args, "--json"]
        result = serve(tools, args) if mcp else route(args, work / "repo")
        if mcp:
            args = ["mcp", *args]
        done += 1
        by_mutation[mutation] += 1
        asked_as[args[0]] += 1
        targets[target] += 1
        wrong = judge(args, result)
        outcome = "damaged" if result[2].startswith(DAMAGED) else f"exit {result[0]}"
        outcomes[wrong or outcome] += 1
        if wrong:
            failures.append({"case": n, "mutation": mutation, "target": target, "args": args,
                             "exit": result[0], "stderr": result[2][-1500:], "wrong": wrong})
    bundle.restore()
    tools.close()
    return {"cases": done, "seed": seed, "blobs": len(bundle.blobs), "folders": len(bundle.folders),
            "outcomes": dict(outcomes), "mutations": dict(by_mutation), "asked": dict(asked_as),
            "targets": dict(targets),
            "failures": failures, "build_seconds": round(built, 1), "seconds": round(time.monotonic() - started, 1)}


def run(cases: int, seed: int, corpus: str, keep: str | None, show: int, as_json: bool) -> int:
    os.environ.update(ENV)
    for key in [k for k in os.environ if k.startswith("GIT_") and k not in ENV]:
        del os.environ[key]
    work = Path(keep) if keep else Path(tempfile.mkdtemp(prefix="gitroute-fuzz-"))
    try:
        files = sample_files() if corpus == "sample" else corpus_files(Path(corpus))
        report = fuzz(cases, seed, files, work)
        failures = report.pop("failures")
        report.pop("targets")
        report = {**report, "corpus": corpus, "failures": len(failures)}
        if as_json:
            print(json.dumps({**report, "shown": failures[:show]}, indent=2))
        else:
            for failure in failures[:show]:
                print(f"case {failure['case']}: {failure['mutation']} of {failure['target']}: "
                      f"git route {' '.join(failure['args'])}: {failure['wrong']}")
                print("    " + failure["stderr"].strip().replace("\n", "\n    "))
            print(json.dumps(report))
        return 1 if failures else 0
    finally:
        if not keep:
            shutil.rmtree(work, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--corpus", default=str(HERE / "corpora" / "pluggy"),
                        help="a corpus repository (bench/corpora.py), or 'sample'")
    parser.add_argument("--keep", help="build in this folder and keep it")
    parser.add_argument("--show", type=int, default=20, help="failures to print")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    return run(args.cases, args.seed, args.corpus, args.keep, args.show, args.json)


if __name__ == "__main__":
    sys.exit(main())
