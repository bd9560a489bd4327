"""Which contextual model reranks BM25's files best (issue 24, docs/decisions/0019-contextual-model.md).

    python bench/contextual_models.py collect --model l3=/tmp/m-l3 --model l6=/tmp/m-l6 \\
        --static static=/tmp/minilm-static-256 [corpora...]        # bench/corpora/contextual.json
    python bench/contextual_models.py report [--data F]              # the tables (numpy only, seconds)
    python bench/contextual_models.py e2e [corpora...] --model DIR   # before/after through gitroute's answers

The model folders are `git route model make DIR --model NAME`'s; the static one is bench/distil.py's
(model2vec's layout). Every `meaning` and `negative` question of each corpus's bench files (the main one and
`<corpus>.meaning24.routing-bench.yaml`, issue 24's blind questions), on bundles built without a model:
BM25's answer (the meaning index, its no_match rule) and its first 20 files with the gate off
(`query_meaning(gate=False)`); each file's cosine is its best node's, each node's text being what the
contextual index embeds (`indexes.contextual.node_text`) and its vector what `sentence_model` gives (a text's
vector does not depend on what else is embedded, so these are the cosines a built index holds). The static
model reads the same texts. Reranking: w·cos' + (1−w)·bm25' over the 20, each scaled from the list's worst
(0) to its best (1), as `indexes.contextual.rerank` does; a question BM25 refuses is routed when its best
node cosine reaches t.

"Not tuned on": held-out ids (`h*`, which includes issue 24's `hm*`/`hn*`) and every question of the seven
corpora whose benches were written blind.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))

OUT = BENCH / "corpora" / "contextual.json"
CORPORA = ("flask", "django", "express", "zod", "cordova-plugin-file", "gin", "clap", "jsoup", "jansson",
           "monolog", "rack", "spdlog", "newtonsoft-json")
BLIND_CORPORA = frozenset(("clap", "jsoup", "jansson", "monolog", "rack", "spdlog", "newtonsoft-json"))
K = 20


def bench_files(name: str) -> list[tuple[str, Path]]:
    return [(tag, BENCH / f"{name}{suffix}.routing-bench.yaml") for tag, suffix in (("main", ""), ("new", ".meaning24"))
            if (BENCH / f"{name}{suffix}.routing-bench.yaml").exists()]


def collect(names: list[str], models: dict[str, str], statics: dict[str, str], out: Path) -> None:
    import numpy as np

    from gitroute.bench import read_bench, row_matches
    from gitroute.bundle.store import BundleView, corrupt_blob
    from gitroute.indexes import contextual
    from gitroute.indexes.embedding import StaticModel, read_model_folder
    from gitroute.indexes.meaning import query_meaning
    from gitroute.registry import load_index
    from gitroute.sentence_model import SentenceEncoder, quantize, read_folder, unpack

    encoders = {k: SentenceEncoder(read_folder(v)) for k, v in models.items()}
    encoders.update({k: StaticModel(read_model_folder(v)) for k, v in statics.items()})
    meaning = load_index("meaning")
    result: dict = {"k": K, "models": {**models, **statics}, "static": sorted(statics), "corpora": {}, "seconds": {}}
    for name in names or CORPORA:
        repo = BENCH / "corpora" / name
        items = []
        with BundleView(str(repo)) as bundle:
            view = bundle.index("meaning")
            by_path: dict[str, list[list]] = {}
            for _, record in sorted(bundle.node_records().items()):
                by_path.setdefault(record[0], []).append(record)
            for tag, path in bench_files(name):
                for q in read_bench(str(path)).questions:
                    if q.type not in ("meaning", "negative"):
                        continue
                    gated = meaning.answer(view, q.question, limit=K, explain=False)
                    rows, _, _ = query_meaning(q.question, view.section, view.read, limit=K, explain=False,
                                               corrupt=corrupt_blob, records=view.graph.records, gate=False)
                    items.append({"id": q.id, "type": q.type, "file": tag, "question": q.question,
                                  "status": gated.status, "paths": [r.path for r in rows],
                                  "scores": [r.score for r in rows],
                                  "right": [any(row_matches(r, e) for e in q.expect) for r in rows]})
        files = sorted({p for it in items for p in it["paths"]})
        texts, spans = [], {}
        for p in files:
            start = len(texts)
            for record in by_path.get(p, []):
                _, rname, owner, kind, *_, doc = record
                texts.append(contextual.node_text(p, rname, owner, kind, doc or ""))
            spans[p] = (start, len(texts))
        for key, encoder in encoders.items():
            started = time.process_time()
            if key in statics:
                node_vec = encoder.encode(texts)
                q_vec = encoder.encode([it["question"] for it in items])
            else:  # the vectors the index stores, as it scores them (and int8's, for comparison)
                exact = encoder.encode(texts, workers=2)
                rows = unpack(quantize(exact))
                node_vec = rows / np.maximum(np.linalg.norm(rows, axis=1, keepdims=True), 1e-9)
                q_vec = encoder.encode([it["question"] for it in items])
                int8 = np.clip(np.round(exact * 127), -127, 127) / 127.0
                for it, qv in zip(items, q_vec, strict=True):
                    it.setdefault("cos", {})[f"{key}/int8"] = [
                        round(float((int8[spans[p][0]:spans[p][1]] @ qv).max()), 4) if spans[p][1] > spans[p][0]
                        else 0.0 for p in it["paths"]]
                result["models"][f"{key}/int8"] = models[key]
            result["seconds"].setdefault(key, {})[name] = [time.process_time() - started, len(texts)]
            for it, qv in zip(items, q_vec, strict=True):
                cos = []
                for p in it["paths"]:
                    a, b = spans[p]
                    cos.append(round(float((node_vec[a:b] @ qv).max()), 4) if b > a else 0.0)
                it.setdefault("cos", {})[key] = cos
        result["corpora"][name] = items
        print(f"{name}: {len(items)} questions, {len(files)} files, {len(texts)} nodes", file=sys.stderr, flush=True)
    out.write_text(json.dumps(result))


# --- report ----------------------------------------------------------------------------------------------


def _scaled(values: list, i: int) -> float:
    low, high = min(values), max(values)
    return (values[i] - low) / (high - low) if high > low else 1.0


def outcome(it: dict, model: str | None, w: float, t: float | None) -> tuple[int | None, bool]:
    """(rank of the first right file or None, routed) for BM25 (model None) or the model at weight w, threshold t."""
    routed = it["status"] != "no_match"
    cos = it["cos"][model] if model else []
    if model and not routed and t is not None and cos and max(cos) >= t:
        routed = True
    if not routed or not any(it["right"]):
        return None, routed
    n = len(it["paths"])
    if model is None:
        return it["right"].index(True) + 1, routed
    score = [w * _scaled(cos, i) + (1 - w) * _scaled(it["scores"], i) for i in range(n)]
    order = sorted(range(n), key=lambda i: (-score[i], i))
    return next(r for r, i in enumerate(order, 1) if it["right"][i]), routed


def not_tuned(it: dict) -> bool:
    return it["id"].startswith("h") or it["corpus"] in BLIND_CORPORA


def tops(got: list) -> tuple[int, int, int]:
    return tuple(sum(1 for r, _ in got if r is not None and r <= c) for c in (1, 3, 5))  # type: ignore[return-value]


def report(data: dict) -> None:
    items = [dict(it, corpus=n) for n, its in data["corpora"].items() for it in its]
    models = list(data["models"])
    real = [it for it in items if it["type"] == "meaning"]
    off = [it for it in items if it["type"] == "negative"]
    sets = {"not tuned on, before issue 24": [it for it in real if not_tuned(it) and it["file"] == "main"],
            "issue 24's new (hm*)": [it for it in real if it["file"] == "new"],
            "tuned on": [it for it in real if not not_tuned(it)]}
    sets["not tuned on, all"] = sets["not tuned on, before issue 24"] + sets["issue 24's new (hm*)"]
    offs = {"all off-topic": off, "issue 24's new (hn*)": [it for it in off if it["file"] == "new"]}
    print(f"# {len(real)} meaning questions, {len(off)} off-topic; K = {data['k']}\n")
    print("Cost of the collect step (CPU s / node texts embedded, all corpora): " + ", ".join(
        f"{m} {sum(v[0] for v in data['seconds'][m].values()):.0f} s / {sum(v[1] for v in data['seconds'][m].values())}"
        for m in models if m in data['seconds']) + "\n")
    variants: list[tuple[str, str | None, float, float | None]] = [("BM25", None, 0, None)]
    for m in models:
        for w in (0.25, 0.5, 0.75):
            variants.append((f"{m} blend {w}", m, w, None))
        for t in (0.35, 0.4, 0.42, 0.44, 0.46, 0.5, 0.55, 0.6, 0.65):
            variants.append((f"{m} blend 0.5, routes from {t}", m, 0.5, t))
    header = " | ".join(f"{k} ({len(v)})" for k, v in sets.items())
    print(f"| variant | {header} | false no_match, not tuned on | off-topic routed: all ({len(off)}) / new "
          f"({len(offs['issue 24' + chr(39) + 's new (hn*)'])}) |")
    print("|---" * (len(sets) + 3) + "|")
    for label, m, w, t in variants:
        cells = []
        for group in sets.values():
            cells.append("/".join(map(str, tops([outcome(it, m, w, t) for it in group]))))
        nt = sets["not tuned on, all"]
        false = sum(not outcome(it, m, w, t)[1] for it in nt)
        routed = [sum(outcome(it, m, w, t)[1] for it in g) for g in offs.values()]
        print(f"| {label} | " + " | ".join(cells) + f" | {false} of {len(nt)} | {routed[0]} / {routed[1]} |")
    print()


def per_corpus(data: dict, model: str, t: float, w: float = 0.5) -> None:
    """Before/after per corpus, on questions not tuned on: top 1/3/5, false no_match; off-topic routed."""
    print(f"## Per corpus, not tuned on: BM25 → {model} (blend {w}, routes from {t})\n")
    print("| corpus | questions | top 1/3/5 BM25 | with the model | false no_match | off-topic routed |")
    print("|---|---|---|---|---|---|")
    for name, its in data["corpora"].items():
        its = [dict(it, corpus=name) for it in its]
        real = [it for it in its if it["type"] == "meaning" and not_tuned(it)]
        off = [it for it in its if it["type"] == "negative"]
        before = [outcome(it, None, w, t) for it in real]
        after = [outcome(it, model, w, t) for it in real]
        print(f"| {name} | {len(real)} | {'/'.join(map(str, tops(before)))} | {'/'.join(map(str, tops(after)))} "
              f"| {sum(not r for _, r in before)} → {sum(not r for _, r in after)} "
              f"| {sum(outcome(it, None, w, t)[1] for it in off)} → {sum(outcome(it, model, w, t)[1] for it in off)} "
              f"of {len(off)} |")
    print()


def end_to_end(names: list[str], model: str) -> None:
    """The production path, before and after: each corpus cloned to a temporary folder, built without and then
    with `--meaning-model`, every not-tuned meaning and negative question asked through `git route query` (plain)
    and `query --meaning` (api.query, api.meaning) in this process. Top 1/3/5, false no_match, off-topic routed."""
    import subprocess
    import tempfile

    from meaning_table import rank_of

    from gitroute import api
    from gitroute.bench import read_bench

    print(f"## End to end through gitroute's own answers (model {model})\n")
    print("| corpus | path | meaning questions | top 1/3/5 before | after | false no_match | off-topic routed |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        questions = [q for _, path in bench_files(name) for q in read_bench(str(path)).questions
                     if q.type in ("meaning", "negative") and (q.id.startswith("h") or name in BLIND_CORPORA)]
        with tempfile.TemporaryDirectory() as tmp:
            repo = Path(tmp) / name
            subprocess.run(["git", "clone", "-q", str(BENCH / "corpora" / name), str(repo)], check=True)
            got: dict[str, list] = {}
            for state, extra in (("before", []), ("after", ["--meaning-model", model])):
                subprocess.run(["git-route", "build", "-q", *extra], cwd=repo, check=True)
                api._CONTEXTUAL.clear()
                where = str(repo)
                got[f"{state} query"] = [(q, api.query(q.question, repo=where, limit=10)) for q in questions]
                got[f"{state} query --meaning"] = [(q, api.meaning(q.question, repo=where, limit=10))
                                                   for q in questions]
            for path_name in ("query", "query --meaning"):
                cells = []
                for state in ("before", "after"):
                    real = [(q, a) for q, a in got[f"{state} {path_name}"] if q.type == "meaning"]
                    ranks = [rank_of(a, q.expect) for q, a in real]
                    cells.append(("/".join(str(sum(1 for r in ranks if r is not None and r <= c)) for c in (1, 3, 5)),
                                  sum(a.status == "no_match" for _, a in real),
                                  sum(a.status != "no_match" for q, a in got[f"{state} {path_name}"]
                                      if q.type == "negative")))
                n_real = sum(q.type == "meaning" for q in questions)
                n_off = len(questions) - n_real
                print(f"| {name} | {path_name} | {n_real} | {cells[0][0]} | {cells[1][0]} | {cells[0][1]} → "
                      f"{cells[1][1]} | {cells[0][2]} → {cells[1][2]} of {n_off} |", flush=True)
    print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=("collect", "report", "e2e"))
    parser.add_argument("names", nargs="*")
    parser.add_argument("--data", type=Path, default=OUT)
    parser.add_argument("--model", action="append", default=[], help="KEY=FOLDER of a contextual model")
    parser.add_argument("--static", action="append", default=[], help="KEY=FOLDER of a static (model2vec) model")
    parser.add_argument("--also", type=Path, action="append", default=[], help="report: merge another collect's models")
    parser.add_argument("--corpus-table", metavar="KEY:T", help="report: the per-corpus table for a model at t")
    args = parser.parse_args(argv)
    if args.step == "collect":
        collect(args.names, dict(m.split("=", 1) for m in args.model), dict(m.split("=", 1) for m in args.static),
                args.data)
        return 0
    if args.step == "e2e":
        end_to_end(args.names or list(CORPORA), args.model[0])
        return 0
    data = json.loads(args.data.read_text())
    for extra in args.also:  # another collect's models, on the same questions
        more = json.loads(extra.read_text())
        data["models"].update(more["models"])
        data["seconds"].update(more["seconds"])
        for name, items in more["corpora"].items():
            cos = {(it["file"], it["id"]): it["cos"] for it in items}
            for it in data["corpora"][name]:
                it["cos"].update(cos[(it["file"], it["id"])])
    report(data)
    if args.corpus_table:
        key, t = args.corpus_table.split(":")
        per_corpus(data, key, float(t))
    return 0


if __name__ == "__main__":
    sys.exit(main())
