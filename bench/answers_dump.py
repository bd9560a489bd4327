"""Every answer of bench questions, in full (rows, scores, signals, notes, `ask`'s classification), as one JSON
document: run by two checkouts on the same bundles and compared, it proves a query-side change left answers alone.

    PYTHONPATH=<checkout> python bench/answers_dump.py [--out FILE] bench/NAME.routing-bench.yaml ...

Each bench file is asked in `bench/corpora/<corpus>` (built beforehand): every question through plain `query`
(with its filters, `--explain`, limits 10 and 3), through `ask` (`--explain`), and, for a sentence, its dedicated
command with its argument. Not a test: a document to `cmp`, for a decision record.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _answer(answer) -> dict:
    return {"status": answer.status, "notes": list(answer.notes),
            "rows": [[r.path, r.line, r.name, r.kind, r.score, [list(s) for s in r.signals],
                      [list(e) for e in getattr(r, "extra", ()) or ()]] for r in answer.rows]}


def dump(path: Path) -> list[dict]:
    from gitroute import api
    from gitroute.ask import KIND_COMMAND
    from gitroute.bench import read_bench
    from gitroute.bundle.store import BundleView
    from gitroute.errors import GitrouteError

    corpus = HERE / "corpora" / path.name.split(".")[0]
    out = []
    with BundleView(str(corpus)) as view:
        for q in read_bench(str(path)).questions:
            entry: dict = {"id": q.id, "question": q.question}
            for limit in (10, 3):
                try:
                    entry[f"query{limit}"] = _answer(api.query(q.question, repo=str(corpus), limit=limit,
                                                               kinds=q.kind, langs=q.lang, path_glob=q.path,
                                                               explain=True, bundle=view))
                except GitrouteError as err:
                    entry[f"query{limit}"] = f"error: {err.message}"
            answer, classification = api.ask(q.question, repo=str(corpus), explain=True, bundle=view)
            entry["ask"] = _answer(answer)
            entry["routes"] = [list(map(str, r)) for r in classification.routes]
            if q.route and q.argument:
                entry["dedicated"] = _answer(api.ask_command(
                    KIND_COMMAND[q.route], q.argument, repo=str(corpus),
                    explain=True, bundle=view))
            out.append(entry)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    document = {path.name: dump(path) for path in args.files}
    text = json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    else:
        sys.stdout.write(text + "\n")
    print(f"{sum(map(len, document.values()))} questions of {len(document)} bench files", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
