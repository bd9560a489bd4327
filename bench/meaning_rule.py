"""The --meaning contest over the bench corpora: BM25, the embedding and the hybrid, and the rule's verdict.

For each corpus whose bench has meaning questions: build its bundle with the static model
(`git route build --meaning-model DIR`), score every candidate (`api.meaning_rule`: right first,
bytes added to the large ref, cold and warm query time), then print one table and the verdict of
`bench.meaning_verdict` over all of them. Corpora come from `bench/corpora.py`.

    python bench/meaning_rule.py /tmp/minilm-static [--dtype int8] [--corpus flask ...]
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
CORPORA = ("flask", "django", "express", "zod", "cordova-plugin-file", "clap")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", help="a static model folder (bench/distil.py makes one)")
    parser.add_argument("--dtype", choices=("float16", "int8"), default="float16")
    parser.add_argument("--corpus", action="append", help="only these corpora (repeatable)")
    parser.add_argument("--dest", type=Path, default=HERE / "corpora", help="where bench/corpora.py put them")
    parser.add_argument("--cold-runs", type=int, default=3, help="one-question processes per candidate")
    args = parser.parse_args()

    from gitroute import api
    from gitroute.bench import meaning_verdict
    from gitroute.cli.bench import rule_lines

    scores = []
    for name in args.corpus or CORPORA:
        repo = args.dest / name
        bench = HERE / f"{name}.routing-bench.yaml"
        if not repo.is_dir():
            print(f"skip {name}: run 'python bench/corpora.py {name}' first", file=sys.stderr)
            continue
        report = api.build(repo=str(repo), meaning_model=os.path.abspath(args.model), meaning_dtype=args.dtype)
        print(f"{name}: built in {report.seconds:.1f} s ({report.phases.get('index', 0):.1f} s indexes)",
              file=sys.stderr)
        scores.extend(api.meaning_rule(str(bench), repo=str(repo), cold_runs=args.cold_runs))
    verdict, why = meaning_verdict(scores)
    for line in rule_lines(scores, verdict, why):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
