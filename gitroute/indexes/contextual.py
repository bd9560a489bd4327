"""The contextual model's node vectors: a small sentence transformer (run through onnxruntime) reranking
BM25's files for a question in plain words.

Built only with `git route build --meaning-model DIR` where DIR is a contextual model's folder
(`gitroute.sentence_model`; `git route model make` writes one). Everything large goes to
`refs/marola/routing-bundle-large`, under `contextual/`: the model's three files, and per node (rows
ordered by path, then node id) its vector (4 bits a dimension, `sentence_model.quantize`), its id and a
digest of its text, with the row range of each file. The main bundle keeps only this index's section: each
large blob's sha256 (checked before any use), the model's name and sha256, and how many nodes have vectors.

A rebuild embeds only the nodes whose text it has no vector for: the vectors of the large bundle the
repository holds are taken by text digest when this repository's own build wrote it (never a fetched one),
it matches the previous main bundle's hashes and the same model made it (a text's vector depends on nothing
else: `sentence_model`). A fresh clone (CI) embeds every node.

Answering (`rerank`): BM25's first K files, each scored by its best node's cosine to the question, blended
with BM25's score (each scaled over the K files); a question BM25 refuses is routed when its best node
cosine reaches the model's `route_cosine`. docs/decisions/0019-contextual-model.md has the measurements.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Mapping, Sequence

from gitroute.errors import GitrouteError
from gitroute.model import Answer, Row

NAME = "contextual"
NEEDS: tuple[str, ...] = ()
EDGES = False  # the graph's nodes only: may start (in a worker) while edges are resolved
QUESTION_TYPES: dict[str, dict] = {}  # it reranks the meaning index's answers: `bench/contextual_models.py`

PREFIX = "contextual/"
MODEL_BLOBS = tuple(PREFIX + n for n in ("model.onnx", "tokenizer.json", "manifest.json"))
VECTORS, NODES, DIGESTS, FILES = (PREFIX + n for n in ("vectors.bin", "nodes.bin", "digests.bin", "files.json"))
ANSWER_BLOBS = (*MODEL_BLOBS, VECTORS, NODES, FILES)  # what a question reads (the digests only serve builds)
DIGEST = 16  # bytes of blake2b per node text
CANDIDATES = 20  # BM25's first K files reranked
DOC_CHARS = 200
VECTOR_FORMAT = "int4"  # two dimensions a byte

_SPLIT = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def path_words(path: str) -> str:
    return " ".join(w.lower() for w in _SPLIT.findall(path))


def node_text(path: str, name: str, owner: str, kind: str, doc: str) -> str:
    """What the model reads of a node: its path's words, its name (with its owner) and its doc's first paragraph."""
    label = path if kind == "file" else (f"{owner}.{name}" if owner else name)
    first = doc.strip().split("\n\n")[0].replace("\n", " ")[:DOC_CHARS] if doc else ""
    return f"{path_words(path)}: {label}. {first}" if first else f"{path_words(path)}: {label}"


def digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=DIGEST).digest()


def empty_section() -> dict:
    return {"counts": {"vectors": 0}}


# --- build ------------------------------------------------------------------------------------


def build(inputs) -> object:
    from gitroute.indexes import IndexBuild
    from gitroute.sentence_model import is_model_folder

    options = getattr(inputs, "options", None) or {}
    folder = options.get("meaning_model")
    if not folder or not is_model_folder(str(folder)):
        return IndexBuild(blobs={}, section=empty_section())
    from gitroute.sentence_model import read_folder

    files = read_folder(str(folder))
    nodes = sorted(inputs.graph.nodes, key=lambda n: (n.path, n.id))
    texts = [node_text(n.path, n.name, n.owner, n.kind, n.doc) for n in nodes]
    earlier = _earlier_vectors(inputs.previous, files)
    large, section = build_large(files, [n.id for n in nodes], [n.path for n in nodes], texts, earlier)
    return IndexBuild(blobs={}, section=section, output={"large": large})


def build_large(files: Mapping[str, bytes], ids: Sequence[int], paths: Sequence[str], texts: Sequence[str],
                earlier: Mapping[bytes, bytes] | None = None) -> tuple[dict[str, bytes], dict]:
    """The large bundle's blobs and this index's section; `earlier`: text digest -> packed vector bytes to reuse."""
    from gitroute.bundle.layout import dump_json
    from gitroute.sentence_model import SentenceEncoder, need_runtime, quantize, read_manifest, sha256

    np = need_runtime()
    manifest = read_manifest(files)
    dims = int(manifest["dims"])
    if dims % 2:
        raise GitrouteError(f"the model's vectors have {dims} dimensions: an even number is needed")
    digests = [digest(t) for t in texts]
    known = dict(earlier or {})
    missing: dict[bytes, str] = {}
    for d, text in zip(digests, texts, strict=True):
        if d not in known and d not in missing:
            missing[d] = text
    if missing:
        encoder = SentenceEncoder(files)
        fresh = quantize(encoder.encode(list(missing.values()), workers=min(2, os.cpu_count() or 1)))
        known.update({d: fresh[i].tobytes() for i, d in enumerate(missing)})
    vectors = b"".join(known[d] for d in digests)
    spans: list[list] = []
    for row, path in enumerate(paths):
        if spans and spans[-1][0] == path:
            spans[-1][2] = row + 1
        else:
            spans.append([path, row, row + 1])
    large = {f"{PREFIX}{name}": bytes(data) for name, data in files.items()}
    large[VECTORS] = vectors
    large[NODES] = np.asarray(ids, dtype="<i8").tobytes()
    large[DIGESTS] = b"".join(digests)
    large[FILES] = dump_json(spans)
    section = {
        "counts": {"vectors": len(ids), "dims": dims},
        "vector_format": VECTOR_FORMAT,
        "model": manifest["name"],
        "model_sha256": sha256(bytes(files["model.onnx"])),
        "files_sha256": {path: sha256(data) for path, data in sorted(large.items())},
        "large_bytes": sum(len(b) for b in large.values()),
    }
    return large, section


def _earlier_vectors(previous, files: Mapping[str, bytes]) -> dict[bytes, bytes]:
    """Text digest -> packed vector, from the large bundle the repository holds, when this repository's own build
    wrote the previous main bundle (a fetched one is never taken: it could plant vectors that would outlive it),
    its hashes vouch for the large blobs and the same model made them; empty otherwise (and for `--full`)."""
    from gitroute.bundle.large import check_large_blobs, read_large_blobs
    from gitroute.bundle.layout import BUNDLE_REF
    from gitroute.bundle.provenance import is_own_bundle
    from gitroute.git.catfile import ref_target, run_git
    from gitroute.sentence_model import sha256

    blob_id = previous.get(PREFIX + "meta.json") if previous else None
    if blob_id:  # only a bundle this repository's own builds wrote (as for extractions): never a fetched one's
        found = run_git(["rev-parse", "--path-format=absolute", "--git-common-dir"], previous.git_dir)
        commit = ref_target(previous.git_dir, BUNDLE_REF)
        common = found.stdout.decode("utf-8", "surrogateescape").strip()
        if found.returncode != 0 or commit is None or not is_own_bundle(common, commit):
            return {}
    data = previous.read(PREFIX + "meta.json", blob_id) if blob_id else None
    try:
        section = json.loads(data) if data else None
    except ValueError:
        return {}
    if not isinstance(section, dict) or section.get("model_sha256") != sha256(bytes(files["model.onnx"])):
        return {}
    hashes = section.get("files_sha256")
    dims = (section.get("counts") or {}).get("dims")
    if (not isinstance(hashes, dict) or not isinstance(dims, int) or dims <= 0
            or section.get("vector_format") != VECTOR_FORMAT):
        return {}
    width = dims // 2
    paths = [VECTORS, DIGESTS]
    blobs = read_large_blobs(previous.git_dir, paths) or {}
    if check_large_blobs(blobs, {p: hashes.get(p) for p in paths}):
        return {}
    vectors, digests = blobs[VECTORS], blobs[DIGESTS]
    count = len(digests) // DIGEST
    if len(vectors) != count * width:
        return {}
    return {digests[i * DIGEST:(i + 1) * DIGEST]: vectors[i * width:(i + 1) * width] for i in range(count)}


# --- answer -----------------------------------------------------------------------------------


class Loaded:
    """The model (encoder) and the node vectors, checked against the main bundle's hashes."""

    def __init__(self, blobs: Mapping[str, bytes], section: Mapping) -> None:
        from gitroute.bundle.large import check_large_blobs
        from gitroute.sentence_model import SentenceEncoder, need_runtime, settings

        np = need_runtime()
        if section.get("vector_format") != VECTOR_FORMAT:
            raise ValueError(f"the vectors are not {VECTOR_FORMAT}: rebuild with this gitroute")
        hashes = section.get("files_sha256")
        if not isinstance(hashes, dict):
            raise ValueError("the bundle records no hashes for the contextual model")
        problem = check_large_blobs(blobs, {p: hashes.get(p) for p in ANSWER_BLOBS})
        if problem:
            raise ValueError(problem)
        files = {p[len(PREFIX):]: blobs[p] for p in MODEL_BLOBS}
        self.encoder = SentenceEncoder(files)
        self.name = str(self.encoder.manifest["name"])
        self.sha256 = str(section.get("model_sha256", ""))
        self.blend, self.route = settings(self.encoder.manifest)
        dims = self.encoder.dims
        self.nodes = np.frombuffer(bytes(blobs[NODES]), dtype="<i8")
        raw = np.frombuffer(bytes(blobs[VECTORS]), dtype=np.uint8)
        if len(raw) != len(self.nodes) * (dims // 2):
            raise ValueError(f"'{VECTORS}' does not hold one {dims}-wide vector per node")
        self.vectors = raw.reshape(len(self.nodes), dims // 2)
        from gitroute.bundle.validate import load_blob

        spans = load_blob(bytes(blobs[FILES]))  # checked against its recorded sha256: BadValue only if forged
        if not isinstance(spans, list):
            raise ValueError(f"'{FILES}' is not a list")
        self.files: dict[str, tuple[int, int]] = {}
        for span in spans:
            if (not isinstance(span, list) or len(span) != 3 or not isinstance(span[0], str)
                    or not all(isinstance(x, int) for x in span[1:]) or not 0 <= span[1] < span[2] <= len(self.nodes)):
                raise ValueError(f"'{FILES}' holds a bad row range")
            self.files[span[0]] = (span[1], span[2])
        # The stored vectors are 4-bit codes, finite by construction; the model's own weights are not: one NaN
        # among them makes every question's vector NaN. Refused here, once, not met in an answer's scores.
        if not np.isfinite(self.question("a")).all():
            raise ValueError("the contextual model gives vectors that are not finite (NaN or infinite weights)")

    def question(self, text: str):
        return self.encoder.encode([text])[0]

    def best_nodes(self, query, paths: Sequence[str]) -> list[tuple[float, int]]:
        """Per path: (best node cosine, that node's id); (0.0, -1) for a path without vectors."""
        from gitroute.sentence_model import need_runtime, unpack

        np = need_runtime()
        out = []
        for path in paths:
            span = self.files.get(path)
            if span is None:
                out.append((0.0, -1))
                continue
            rows = unpack(self.vectors[span[0]:span[1]])
            scores = rows @ query / np.maximum(np.linalg.norm(rows, axis=1), 1e-9)
            best = int(scores.argmax())
            out.append((float(scores[best]), int(self.nodes[span[0] + best])))
        return out


def _scaled(values: Sequence[float]) -> list[float]:
    low, high = min(values), max(values)
    return [(v - low) / (high - low) if high > low else 1.0 for v in values]


def rerank(loaded: Loaded, question: str, rows: Sequence[Row], *, refused: bool, limit: int,
           explain: bool) -> tuple[list[Row], str]:
    """BM25's first K rows reranked by blend; `refused`: BM25 said no_match, so the rows are its candidates
    with the gate off and they route only when the best node cosine reaches the model's threshold.
    Returns (rows, a note saying what the model did); no rows when a refused question stays refused."""
    candidates = list(rows[:CANDIDATES])
    if not candidates:
        return [], ""
    query = loaded.question(question)
    best = loaded.best_nodes(query, [r.path for r in candidates])
    top = max(c for c, _ in best)
    if refused and top < loaded.route:
        return [], (f"the contextual model ({loaded.name}) agrees: the best node cosine {top:.2f} is below "
                    f"{loaded.route:.2f}")
    cos = _scaled([c for c, _ in best])
    bm25 = _scaled([r.score for r in candidates])
    w = loaded.blend
    scored = []
    for i, row in enumerate(candidates):
        lexical, meaning = round((1 - w) * bm25[i], 4), round(w * cos[i], 4)
        score = lexical + meaning
        # Additive, as every answer's signals are: BM25's share and the cosine's, each scaled over the candidates.
        signals = (("bm25", lexical), ("node_cosine", meaning)) if explain else ()
        scored.append((-score, i, row._replace(score=round(score, 4), signals=signals)))
    ranked = [r for _, _, r in sorted(scored)][:limit]
    note = (f"reranked by the contextual model ({loaded.name}): BM25's first {len(candidates)} files, "
            f"cosine weight {w:.2f}, best node cosine {top:.2f}")
    if refused:
        note = f"BM25 found no match; the contextual model ({loaded.name}) routes it: best node cosine {top:.2f}"
    return ranked, note


def answer(view, question: str, *, limit: int = 10, explain: bool = False, **options) -> Answer:
    """The seam's answer: this index reranks `git route query`'s plain-words answers and answers nothing alone."""
    return Answer("no_match", view.source, (), ("the contextual model reranks plain-words answers: ask "
                                                "'git route query' or 'git route ask'",))
