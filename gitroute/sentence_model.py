"""A small contextual sentence model as a folder of three files, and its encoder (onnxruntime + tokenizers).

The folder (`git route model make` writes it, once, from a model a package registry ships):

    model.onnx       the transformer, int8 (onnxruntime's dynamic quantisation), one output: the tokens'
                     hidden states ("last_hidden_state", batch x tokens x dims); no external data
    tokenizer.json   the tokenizer, as the `tokenizers` package reads it
    manifest.json    where it came from (package, version, the source file's sha256, licence), how to pool
                     (mean over the tokens, then unit length), the token limit, each file's sha256, and the
                     settings measured for it (the blend weight, the cosine that may route)

No pickle format is ever read (a folder holding one is refused), nothing is fetched from a hub, and no
torch is needed to run it: numpy, tokenizers and onnxruntime come with the optional `model` extra and are
imported only when a model is built or asked. A text's vector is computed alone (one text a run, nothing
padded): the same text gives the same vector whatever else is embedded with it, which keeps a rebuild that
re-embeds only changed nodes equal to a full one.
"""
from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping, Sequence

from gitroute.errors import GitrouteError

MODEL_FILES = ("model.onnx", "tokenizer.json", "manifest.json")
# Formats that run code when loaded (torch.load, pickle): never read, and a folder holding one is refused.
PICKLE_SUFFIXES = (".bin", ".pt", ".pth", ".pkl", ".pickle", ".ckpt", ".joblib")
FORMAT = 1
OUTPUT = "last_hidden_state"


def extra_hint() -> str:
    """How to add the runtime, from the source this gitroute came from (never by name: it is on no registry)."""
    from gitroute import extra_install_command

    return f"install the optional extra from gitroute's own source: {extra_install_command('model')}"


def need_runtime():
    """numpy, or a one-line error naming the extra when numpy, tokenizers or onnxruntime is missing."""
    try:
        import numpy
        import onnxruntime  # noqa: F401
        import tokenizers  # noqa: F401
    except ImportError as err:
        raise GitrouteError(f"the contextual model needs numpy, tokenizers and onnxruntime ({err.name} is missing)",
                            hint=extra_hint()) from None
    return numpy


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def is_model_folder(path: str) -> bool:
    """True when `path` holds a contextual model's manifest (rather than a static model's files)."""
    return os.path.isfile(os.path.join(path, "manifest.json")) and os.path.isfile(os.path.join(path, "model.onnx"))


def read_folder(path: str) -> dict[str, bytes]:
    """The model's three files by name, checked: no pickle format, the manifest's sha256 of each file."""
    if not os.path.isdir(path):
        raise GitrouteError(f"no model folder at '{path}'", hint="make one with 'git route model make DIR'")
    pickles = [n for n in sorted(os.listdir(path)) if n.lower().endswith(PICKLE_SUFFIXES)]
    if pickles:
        raise GitrouteError(f"refusing the model at '{path}': '{pickles[0]}' is a pickle format, which runs code "
                            "when loaded", hint="only model.onnx, tokenizer.json and manifest.json are read")
    files: dict[str, bytes] = {}
    for name in MODEL_FILES:
        full = os.path.join(path, name)
        if not os.path.isfile(full):
            raise GitrouteError(f"the model at '{path}' has no '{name}'",
                                hint="make one with 'git route model make DIR'")
        with open(full, "rb") as f:
            files[name] = f.read()
    manifest = read_manifest(files)
    problem = check_files(files, manifest)
    if problem:
        raise GitrouteError(f"refusing the model at '{path}': {problem}",
                            hint="make it again with 'git route model make'")
    return files


def read_manifest(files: Mapping[str, bytes]) -> dict:
    try:
        manifest = json.loads(bytes(files["manifest.json"]))
    except (KeyError, ValueError) as err:
        raise GitrouteError("the model's 'manifest.json' is unreadable") from err
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT or manifest.get("kind") != "contextual":
        raise GitrouteError("the model's 'manifest.json' is not a contextual model's (format 1)")
    for key, kind in (("dims", int), ("max_tokens", int), ("files_sha256", dict), ("name", str)):
        if not isinstance(manifest.get(key), kind):
            raise GitrouteError(f"the model's 'manifest.json' has no '{key}'")
    return manifest


def check_files(files: Mapping[str, bytes], manifest: Mapping) -> str | None:
    """Why the model's files differ from the sha256 its manifest records, or None."""
    hashes = manifest.get("files_sha256") or {}
    for name in ("model.onnx", "tokenizer.json"):
        if name not in files or hashes.get(name) != sha256(bytes(files[name])):
            return f"'{name}' does not match the sha256 its manifest records"
    return None


def settings(manifest: Mapping) -> tuple[float, float]:
    """(blend weight of the cosine, the best node cosine from which a question BM25 refuses is routed)."""
    blend, route = manifest.get("blend", 0.5), manifest.get("route_cosine", 1.1)
    return (float(blend) if isinstance(blend, int | float) else 0.5,
            float(route) if isinstance(route, int | float) else 1.1)


class SentenceEncoder:
    """Unit vectors of texts: the model's token states, mean-pooled over the real tokens, normalised."""

    def __init__(self, files: Mapping[str, bytes], threads: int = 0) -> None:
        need_runtime()
        import onnxruntime
        from tokenizers import Tokenizer

        self.manifest = read_manifest(files)
        problem = check_files(files, self.manifest)
        if problem:
            raise GitrouteError(f"refusing the model: {problem}")
        try:
            self.tokenizer = Tokenizer.from_str(bytes(files["tokenizer.json"]).decode("utf-8"))
        except Exception as err:  # tokenizers raises a plain Exception for a bad tokenizer.json
            raise GitrouteError("the model's 'tokenizer.json' is unreadable") from err
        self.tokenizer.no_padding()
        self.tokenizer.enable_truncation(int(self.manifest["max_tokens"]))
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = threads or 1
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        try:
            self.session = onnxruntime.InferenceSession(bytes(files["model.onnx"]), options,
                                                        providers=["CPUExecutionProvider"])
        except Exception as err:  # onnxruntime's own error types
            raise GitrouteError(f"the model's 'model.onnx' does not load: {str(err).splitlines()[0][:200]}") from err
        self.inputs = {i.name for i in self.session.get_inputs()}
        outputs = [o.name for o in self.session.get_outputs()]
        if OUTPUT not in outputs or not {"input_ids", "attention_mask"} <= self.inputs:
            raise GitrouteError("the model's 'model.onnx' takes no input_ids and attention_mask or gives no "
                                f"'{OUTPUT}'")
        self.dims = int(self.manifest["dims"])

    def encode(self, texts: Sequence[str], workers: int = 1):
        """float32 unit vectors, one row per text (an empty text gets its special tokens' vector). `workers`:
        threads running the model at once (onnxruntime releases the GIL); each text's vector is the same."""
        np = need_runtime()
        out = np.zeros((len(texts), self.dims), dtype=np.float32)
        if not texts:
            return out
        if workers > 1 and len(texts) >= 2 * workers:
            from concurrent.futures import ThreadPoolExecutor

            step = -(-len(texts) // (workers * 8))  # several chunks a thread: one slow chunk does not hold the rest
            chunks = [(start, list(texts[start:start + step])) for start in range(0, len(texts), step)]
            with ThreadPoolExecutor(workers) as pool:
                for (start, chunk), vectors in zip(chunks, pool.map(lambda c: self.encode(c[1]), chunks), strict=True):
                    out[start:start + len(chunk)] = vectors
            return out
        # One text a run: onnxruntime's int8 graph quantises its activations per run (one scale for the whole
        # batch), so a text batched with others would get a vector that depends on them.
        for row, e in enumerate(self.tokenizer.encode_batch(list(texts))):
            ids = np.array([e.ids], dtype=np.int64)
            feed = {"input_ids": ids, "attention_mask": np.ones_like(ids)}
            if "token_type_ids" in self.inputs:
                feed["token_type_ids"] = np.zeros_like(ids)
            hidden = self.session.run([OUTPUT], feed)[0]
            if hidden.ndim != 3 or hidden.shape[2] != self.dims:
                raise GitrouteError(f"the model's output has shape {hidden.shape}, not (1, tokens, {self.dims})")
            out[row] = hidden[0].mean(axis=0)
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return out / norms


def quantize(vectors):
    """4 bits a dimension, two to a byte (the first in the high nibble): each vector scaled so that its largest
    component is 7, rounded to -7..7 and stored plus 8. A cosine needs no scale (`unpack` then normalise);
    half int8's bytes, and django's vectors fit the large bundle's budget (docs/decisions/0019)."""
    np = need_runtime()
    peak = np.abs(vectors).max(axis=1, keepdims=True)
    peak[peak == 0] = 1.0
    q = (np.clip(np.round(vectors * (7.0 / peak)), -7, 7) + 8).astype(np.uint8)
    return (q[:, 0::2] << 4) | q[:, 1::2]


def unpack(packed):
    """float32 rows (-7..7 a dimension, not unit length) from `quantize`'s bytes."""
    np = need_runtime()
    out = np.empty((packed.shape[0], packed.shape[1] * 2), dtype=np.float32)
    out[:, 0::2] = (packed >> 4).astype(np.float32) - 8.0
    out[:, 1::2] = (packed & 15).astype(np.float32) - 8.0
    return out
