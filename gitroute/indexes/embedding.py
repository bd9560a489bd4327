"""The static-embedding candidate for `--meaning`: a model2vec-layout model, node vectors, cosine ranking.

The model (safetensors weights, `tokenizer.json`, `config.json`) and the node vectors are large, so
they live in their own parentless commit under `refs/marola/routing-bundle-large`; the main bundle
keeps only this index's section: the model's and the vectors' sha256, and which candidate
(`bm25`, `embedding`, `hybrid`) answers `--meaning`. A question is embedded exactly as model2vec's
`StaticModel.encode` does: token ids without the unknown token, each id's row (remapped and
weighted when the model says so), their mean, normalised. Loading never executes model code:
weights are read from safetensors only, and pickle formats are refused.

numpy, tokenizers and safetensors come with the optional `meaning` extra and are imported only
when a model is built or asked.
"""
from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence

from gitroute.errors import GitrouteError
from gitroute.model import Answer, Row
from gitroute.rank import built_copies, is_secondary, parse_question
from gitroute.text import tokenize

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on the query path
if TYPE_CHECKING:
    from gitroute.model import Node

NAME = "embedding"
NEEDS: tuple[str, ...] = ("meaning",)  # its node texts, when it hands them over
EDGES = False  # builds from the graph's nodes only: may start while edges are resolved
QUESTION_TYPES: dict[str, dict] = {}  # the meaning questions are scored by `bench --meaning-rule`

CANDIDATES = ("bm25", "embedding", "hybrid")
MODEL_FILES = ("model.safetensors", "tokenizer.json", "config.json")
# Formats that run code when loaded (torch.load, pickle): never read, and a folder holding one is refused.
PICKLE_SUFFIXES = (".bin", ".pt", ".pth", ".pkl", ".pickle", ".ckpt", ".joblib")
DTYPES = ("float16", "int8")
MODEL_FOLDER = "model"  # in the large bundle
VECTORS = "vectors.safetensors"
LARGE_META = "meta.json"
MAX_DOC = 600  # characters of a docstring that go into a node's text
DEFAULT_MAX_LENGTH = 512  # model2vec's default token limit when the config names none
NODE_POOL = 400  # nodes read per answer: the best files come from the best nodes
SECONDARY = 0.8  # tests, examples, docs: their cosine counts less unless the question asks for them


def extra_hint() -> str:
    from gitroute import extra_install_command

    return f"install the optional extra from gitroute's own source: {extra_install_command('meaning')}"


def _need_extra():
    try:
        import numpy
        import safetensors.numpy  # noqa: F401 - imported for its side effect of being importable
        import tokenizers  # noqa: F401
    except ImportError as err:
        raise GitrouteError("the embedding candidate needs numpy, tokenizers and safetensors",
                            hint=extra_hint()) from err
    return numpy


# --- the model --------------------------------------------------------------------------------


def read_model_folder(path: str) -> dict[str, bytes]:
    """The model's three files, by name, from a local folder; pickle formats and a missing file refused."""
    if not os.path.isdir(path):
        raise GitrouteError(f"no model folder at '{path}'",
                            hint="give a local folder holding model.safetensors, tokenizer.json and config.json")
    names = sorted(os.listdir(path))
    pickles = [n for n in names if n.lower().endswith(PICKLE_SUFFIXES)]
    if pickles:
        raise GitrouteError(f"refusing the model at '{path}': '{pickles[0]}' is a pickle format, which runs code "
                            "when loaded", hint="only safetensors weights are read: remove it, or convert the model "
                            "to model.safetensors")
    files: dict[str, bytes] = {}
    for name in MODEL_FILES:
        full = os.path.join(path, name)
        if not os.path.isfile(full):
            raise GitrouteError(f"the model at '{path}' has no '{name}'",
                                hint="a static model in model2vec's layout: model.safetensors, tokenizer.json, "
                                     "config.json")
        with open(full, "rb") as f:
            files[name] = f.read()
    return files


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class StaticModel:
    """A static embedding model from its three files' bytes: embeddings, tokenizer, pooling settings."""

    def __init__(self, files: Mapping[str, bytes]) -> None:
        np = _need_extra()
        from safetensors import SafetensorError
        from safetensors.numpy import load
        from tokenizers import Tokenizer

        try:
            tensors = load(bytes(files["model.safetensors"]))
        except (SafetensorError, ValueError, KeyError) as err:
            raise GitrouteError("the model's 'model.safetensors' is unreadable",
                                hint="a static model in model2vec's layout") from err
        embeddings = tensors.get("embeddings", tensors.get("embedding.weight"))
        if embeddings is None or embeddings.ndim != 2:
            raise GitrouteError("the model's 'model.safetensors' holds no 2-d 'embeddings' tensor",
                                hint="a static model in model2vec's layout")
        try:
            self.tokenizer = Tokenizer.from_str(bytes(files["tokenizer.json"]).decode("utf-8"))
            self.config = json.loads(files["config.json"])
        except Exception as err:  # tokenizers raises a plain Exception for a bad tokenizer.json
            raise GitrouteError("the model's 'tokenizer.json' or 'config.json' is unreadable") from err
        if not isinstance(self.config, dict):
            raise GitrouteError("the model's 'config.json' is not an object")
        self.embeddings = embeddings.astype(np.float32) if embeddings.dtype == np.int8 else embeddings
        self.weights = tensors.get("weights")
        if not all_finite(np, self.embeddings, self.weights):
            raise GitrouteError("the model's 'model.safetensors' holds a weight that is not a finite number",
                                hint="a model (perhaps fetched) with NaN or infinite weights is refused")
        self.mapping = tensors.get("mapping")
        self.tokenizer.no_padding()
        self._check_shapes(np, self.tokenizer.get_vocab_size())
        self.unk_id = _unk_token_id(self.tokenizer)
        max_length = self.config.get("max_length", DEFAULT_MAX_LENGTH)
        self.max_length = max_length if isinstance(max_length, int) and max_length > 0 else None
        vocab = self.tokenizer.get_vocab()
        # model2vec cuts a text to max_length × the median token length in characters before tokenizing.
        self.median_token_length = int(np.median([len(token) for token in vocab])) if vocab else 1
        if self.max_length is not None:
            self.tokenizer.enable_truncation(self.max_length)
        else:
            self.tokenizer.no_truncation()

    def _check_shapes(self, np, vocab_size: int) -> None:
        """Every token id must reach a row: a model (perhaps fetched) whose tensors do not fit is refused."""
        rows = len(self.embeddings)
        if self.mapping is not None:
            mapping = self.mapping
            ok = (mapping.ndim == 1 and len(mapping) >= vocab_size and np.issubdtype(mapping.dtype, np.integer)
                  and (not len(mapping) or (int(mapping.min()) >= 0 and int(mapping.max()) < rows)))
        else:
            ok = rows >= vocab_size
        if self.weights is not None:
            ok = ok and self.weights.ndim == 1 and len(self.weights) >= vocab_size
        if not ok:
            raise GitrouteError("the model's tensors do not fit its tokenizer's vocabulary",
                                hint="a static model in model2vec's layout")

    @property
    def dims(self) -> int:
        return int(self.embeddings.shape[1])

    def token_ids(self, texts: Sequence[str]) -> list[list[int]]:
        if self.max_length is not None:
            cut = self.max_length * self.median_token_length
            texts = [t[:cut] for t in texts]
        encodings = self.tokenizer.encode_batch(list(texts), add_special_tokens=False)
        return [[i for i in e.ids if i != self.unk_id] for e in encodings]

    def encode(self, texts: Sequence[str]):
        """Unit vectors (float32, one row per text; a text without a known token gets zeros)."""
        np = _need_extra()
        out = np.zeros((len(texts), self.dims), dtype=np.float32)
        for row, ids in enumerate(self.token_ids(texts)):
            if not ids:
                continue
            index = np.asarray(ids, dtype=np.int64)
            rows = self.embeddings[self.mapping[index] if self.mapping is not None else index].astype(np.float32)
            if self.weights is not None:
                rows = rows * self.weights[index][:, None]
            out[row] = rows.mean(axis=0)
        norms = np.linalg.norm(out, axis=1, keepdims=True) + 1e-32
        return out / norms


def _unk_token_id(tokenizer) -> int | None:
    """The unknown token's id, which model2vec drops from every text (as `_get_unk_token_id` does)."""
    model = tokenizer.model
    if hasattr(model, "unk_token"):
        token = model.unk_token
        return None if token is None else tokenizer.token_to_id(token)
    unk = json.loads(tokenizer.to_str())["model"].get("unk_id")
    return unk if isinstance(unk, int) else None


# --- build ------------------------------------------------------------------------------------


def node_text(node) -> str:
    """What a node is about, in words: its name and owner split into words, its doc, its path's words."""
    path_words = " ".join(tokenize(node.path.rsplit(".", 1)[0] if node.kind == "file" else node.path))
    if node.kind == "file":
        return path_words
    parts = [" ".join(tokenize(node.name)), " ".join(tokenize(node.owner)), node.kind, node.doc[:MAX_DOC],
             path_words]
    return " ".join(p for p in parts if p)


def node_texts(nodes: Sequence, outputs: Mapping[str, object]) -> tuple[list[int], list[str]]:
    """(node ids, texts): the meaning index's node texts when it hands them over, else the graph's words."""
    given = outputs.get("meaning")
    texts = given.get("node_texts") if isinstance(given, dict) else None
    if isinstance(texts, dict):
        ids = sorted(i for i, t in texts.items() if t)
        return ids, [texts[i] for i in ids]
    ids, found = [], []
    built = built_copies(sorted({n.path for n in nodes}))  # compiled copies repeat their source's words
    for node in nodes:
        if node.path in built:
            continue
        text = node_text(node)
        if text:
            ids.append(node.id)
            found.append(text)
    return ids, found


def quantize(vectors, dtype: str):
    """float16, or int8 (unit vectors scaled by 127: cosine ranking survives the rounding)."""
    np = _need_extra()
    if dtype == "float16":
        return vectors.astype(np.float16)
    if dtype == "int8":
        return np.clip(np.round(vectors * 127.0), -127, 127).astype(np.int8)
    raise GitrouteError(f"unknown vector type '{dtype}'", hint="float16 or int8")


def encode_vectors(ids: Sequence[int], vectors) -> bytes:
    from safetensors.numpy import save

    np = _need_extra()
    return save({"nodes": np.asarray(ids, dtype=np.int64), "vectors": np.ascontiguousarray(vectors)})


def build_large(files: Mapping[str, bytes], ids: Sequence[int], texts: Sequence[str], *, dtype: str,
                candidate: str) -> tuple[dict[str, bytes], dict]:
    """The large bundle's blobs (model files, vectors, meta) and this index's section for the main bundle."""
    from gitroute.bundle.layout import dump_json

    if candidate not in CANDIDATES:
        raise GitrouteError(f"unknown --meaning candidate '{candidate}'", hint="one of: " + ", ".join(CANDIDATES))
    model = StaticModel(files)
    vectors = encode_vectors(ids, quantize(model.encode(texts), dtype))
    blobs = {f"{MODEL_FOLDER}/{name}": bytes(data) for name, data in files.items()}
    blobs[VECTORS] = vectors
    hashes = {name: sha256(data) for name, data in files.items()}
    section = {
        "counts": {"vectors": len(ids), "dims": model.dims},
        "candidate": candidate,
        "dtype": dtype,
        "model_sha256": hashes["model.safetensors"],
        "files_sha256": {**{f"{MODEL_FOLDER}/{n}": h for n, h in hashes.items()}, VECTORS: sha256(vectors)},
        "large_bytes": sum(len(b) for b in blobs.values()),
    }
    blobs[LARGE_META] = dump_json(section)
    return blobs, section


def empty_section() -> dict:
    """No model given: BM25 answers --meaning, and the bundle names no large bundle."""
    return {"counts": {"vectors": 0}, "candidate": "bm25"}


def build(inputs) -> object:
    """The seam's build step: with `--meaning-model DIR`, the vectors for the large bundle (as `output`)."""
    from gitroute.indexes import IndexBuild

    options = getattr(inputs, "options", None) or {}
    model_dir = options.get("meaning_model")
    from gitroute.sentence_model import is_model_folder

    if not model_dir or is_model_folder(str(model_dir)):  # a contextual model: the contextual index's
        return IndexBuild(blobs={}, section=empty_section())
    files = read_model_folder(str(model_dir))
    ids, texts = node_texts(inputs.graph.nodes, inputs.outputs)
    large, section = build_large(files, ids, texts, dtype=str(options.get("meaning_dtype") or "float16"),
                                 candidate=str(options.get("meaning_answer") or "bm25"))
    return IndexBuild(blobs={}, section=section, output={"large": large})


# --- answer -----------------------------------------------------------------------------------


def all_finite(np, *arrays) -> bool:
    """Whether every number of these arrays (None: none) is finite: a NaN weight or vector makes every
    cosine NaN, and a NaN score ranks nothing and is no JSON."""
    for array in arrays:
        if array is not None and np.issubdtype(array.dtype, np.floating) and not np.isfinite(array).all():
            return False
    return True


class LoadedVectors:
    """The large bundle's model and vectors, checked against the main bundle's hashes."""

    def __init__(self, model: StaticModel, nodes, vectors) -> None:
        np = _need_extra()
        self.model = model
        self.nodes = nodes
        matrix = vectors.astype(np.float32)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        self.matrix = matrix / norms


def load_vectors(blobs: Mapping[str, bytes], section: Mapping) -> LoadedVectors:
    """Model and vectors from the large bundle's blobs; raises ValueError when they do not match."""
    from gitroute.bundle.large import check_large_blobs

    problem = check_large_blobs(blobs, section.get("files_sha256"))
    if problem:
        raise ValueError(problem)
    from safetensors.numpy import load

    files = {name: blobs[f"{MODEL_FOLDER}/{name}"] for name in MODEL_FILES}
    tensors = load(bytes(blobs[VECTORS]))
    nodes, vectors = tensors.get("nodes"), tensors.get("vectors")
    if nodes is None or vectors is None or nodes.ndim != 1 or vectors.ndim != 2 or len(nodes) != len(vectors):
        raise ValueError(f"'{VECTORS}' does not hold node ids and vectors")
    model = StaticModel(files)
    if vectors.shape[1] != model.dims or (len(nodes) and int(nodes.min()) < 0):
        raise ValueError(f"'{VECTORS}' does not fit the model")
    if not all_finite(_need_extra(), vectors):
        raise ValueError(f"'{VECTORS}' holds a vector that is not finite (NaN or infinity)")
    return LoadedVectors(model, nodes, vectors)


def rank_nodes(loaded: LoadedVectors, question: str, pool: int = NODE_POOL) -> list[tuple[float, int]]:
    """(cosine, node id) of the nodes nearest the question, best first; empty when no token is known."""
    np = _need_extra()
    query = loaded.model.encode([question])[0]
    if not query.any() or not len(loaded.nodes):
        return []
    scores = loaded.matrix @ query
    take = min(pool, len(scores))
    best = np.argpartition(-scores, take - 1)[:take]
    order = sorted(best.tolist(), key=lambda i: (-float(scores[i]), int(loaded.nodes[i])))
    return [(float(scores[i]), int(loaded.nodes[i])) for i in order]


def rows_by_file(scored: Sequence[tuple[float, int]], nodes: Mapping[int, Node], limit: int,
                 explain: bool, wants_secondary: bool = False) -> list[Row]:
    """One row per file, at its best node, by that node's cosine (tests and docs count less unless asked)."""
    best: dict[str, tuple[float, float, Node]] = {}
    for cosine, node_id in scored:
        node = nodes.get(node_id)
        if node is None:
            continue
        score = cosine * (SECONDARY if cosine > 0 and not wants_secondary and is_secondary(node.path) else 1.0)
        if node.path not in best or score > best[node.path][0]:
            best[node.path] = (score, cosine, node)
    rows: list[Row] = []
    for path, (score, cosine, node) in sorted(best.items(), key=lambda p: (-p[1][0], p[0]))[:limit]:
        is_file = node.kind == "file"
        name = None if is_file else (f"{node.owner}.{node.name}" if node.owner else node.name)
        signals: tuple[tuple[str, float], ...] = (("cosine", round(cosine, 4)),) if explain else ()
        if explain and score != cosine:
            signals += (("secondary_path", round(score - cosine, 4)),)
        rows.append(Row(path=path, line=None if is_file else node.line, name=name, kind=node.kind,
                        score=round(score, 4), signals=signals))
    return rows


def answer(view, question: str, *, limit: int = 10, explain: bool = False, loaded: LoadedVectors | None = None,
           **options) -> Answer:
    """Files whose nodes lie nearest the question by cosine; no_match when no word of it is in the vocabulary.

    `loaded`: the large bundle's model and vectors (`bundle.large.open_large` reads and checks them).
    """
    if loaded is None:
        return Answer("no_match", view.source, (), ("the bundle has no embedding vectors: run 'git route build "
                                                    "--meaning-model DIR' or 'git route fetch --meaning'",))
    scored = rank_nodes(loaded, question)
    if not scored:
        return Answer("no_match", view.source, (), ("no word of the question is in the model's vocabulary",))
    nodes = view.graph.nodes([node_id for _, node_id in scored])
    rows = rows_by_file(scored, nodes, limit, explain, parse_question(question).wants_secondary)
    return Answer("routed" if rows else "no_match", view.source, tuple(rows), ())
