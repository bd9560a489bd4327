"""Bundle tree ids of bench corpora built by one gitroute checkout: figures for a refactor's "same bytes" check.

    python bench/tree_ids.py --checkout /tmp/old --save old.json [names...]
    python bench/tree_ids.py --checkout . --compare old.json [names...]

Each corpus is cloned afresh (no bundle, no memo) and built with `python -m gitroute build -q --full`, PYTHONPATH
at the checkout; the id printed is `git rev-parse refs/marola/routing-bundle^{tree}`. For django, the incremental
rebuilds after a one-file commit and then after a one-document commit (as `bench/perf.py` makes them) are
recorded too (`django+file`, `django+doc`): they read the memo and patch, so they test the incremental path.
With --compare, each id is checked against a saved run; the exit status is 1 when one differs.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpora import CORPORA, materialise  # noqa: E402
from perf import _env, one_document_commit, one_file_commit  # noqa: E402


def bench_corpora() -> list[str]:
    """The corpora a bench file names (`NAME.routing-bench.yaml`, `NAME.impact.routing-bench.yaml`)."""
    names = {p.name.split(".", 1)[0] for p in HERE.glob("*.routing-bench.yaml")}
    return sorted(n for n in names if n in CORPORA)


def tree_id(checkout: Path, repo: Path, full: bool) -> str:
    env = {**_env(), "PYTHONPATH": str(checkout)}
    result = subprocess.run([sys.executable, "-m", "gitroute", "build", "-q", *(["--full"] if full else [])],
                            cwd=repo, env=env, capture_output=True)
    if result.returncode != 0:
        raise SystemExit(f"fatal: build of '{repo.name}' failed: {result.stderr.decode(errors='replace').strip()}")
    return subprocess.run(["git", "rev-parse", "refs/marola/routing-bundle^{tree}"], cwd=repo, env=env,
                          capture_output=True, text=True, check=True).stdout.strip()


def corpus_ids(checkout: Path, name: str, tmp: Path, cache: str) -> dict[str, str]:
    source = materialise(name, HERE / "corpora", cache)
    repo = tmp / name
    subprocess.run(["git", "clone", "-q", "--no-local", str(source), str(repo)], check=True, env=_env(), cwd=tmp)
    ids = {name: tree_id(checkout, repo, full=True)}
    if name == "django":
        one_file_commit(repo, "tree-ids")
        ids["django+file"] = tree_id(checkout, repo, full=False)
        one_document_commit(repo)
        ids["django+doc"] = tree_id(checkout, repo, full=False)
    return ids


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="corpora (default: every corpus a bench file names)")
    parser.add_argument("--checkout", required=True, help="the gitroute checkout whose code builds")
    parser.add_argument("--save", help="write the ids to this JSON file")
    parser.add_argument("--compare", help="a JSON file of ids to compare with")
    parser.add_argument("--cache", default=str(Path.home() / ".cache" / "gitroute-bench"))
    args = parser.parse_args(argv)
    checkout = Path(args.checkout).resolve()
    expected = json.loads(Path(args.compare).read_text()) if args.compare else {}
    found: dict[str, str] = {}
    differ = 0
    with tempfile.TemporaryDirectory(prefix="gitroute-tree-ids-") as tmp:
        for name in args.names or bench_corpora():
            for key, oid in corpus_ids(checkout, name, Path(tmp), args.cache).items():
                found[key] = oid
                verdict = ""
                if key in expected:
                    same = expected[key] == oid
                    differ += not same
                    verdict = "  identical" if same else f"  DIFFERS from {expected[key]}"
                print(f"{key:20} {oid}{verdict}", flush=True)
    if args.save:
        Path(args.save).write_text(json.dumps(found, indent=1, sort_keys=True) + "\n")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
