"""The contextual model (issue 24): a tiny ONNX sentence model made in the test, node vectors in the large ref,
reuse by text digest, reranking plain-words answers, refusal of tampered blobs, the missing extra's hint."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
onnx = pytest.importorskip("onnx")
pytest.importorskip("onnxruntime")
pytest.importorskip("tokenizers")

from onnx import TensorProto, helper, numpy_helper  # noqa: E402
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers  # noqa: E402

from gitroute.bundle.layout import BUNDLE_LARGE_REF, BUNDLE_REF  # noqa: E402
from gitroute.errors import GitrouteError  # noqa: E402
from gitroute.indexes import contextual  # noqa: E402
from gitroute.sentence_model import SentenceEncoder, quantize, read_folder, sha256, unpack  # noqa: E402
from tests.conftest import SAMPLE_FILES  # noqa: E402
from tests.helpers import build_with_model, tree_of  # noqa: E402

TOPICS = {
    "location": "location locate city geo where place position latitude whereabouts guess country address",
    "weather": "weather forecast forecasts rain temperature meteo climate sunny hourly",
    "server": "server http serve request network listen socket web forever",
}
FILLER = ("the a of to from is are their by an user users ip find text raw turn into rows fetches service open client"
          " sample package test tests src py json parse returns lookups which file")
DIMS = 8
GEO = ('"""Where the user is."""\n\n\n'
       'def guess_city(address):\n    """Find the city of a user from their ip address."""\n    return address\n')
FILES = {**SAMPLE_FILES, "src/sample/geo.py": GEO}


def write_tiny_model(folder: Path, seed: int = 3) -> Path:
    """tokenizer.json (WordPiece), model.onnx (token rows plus the text's mean row: each state depends on its
    context), manifest.json with each file's sha256: the layout `git route model make` writes."""
    folder.mkdir(parents=True, exist_ok=True)
    words = ["[PAD]", "[UNK]", "[CLS]", "[SEP]"]
    for text in (*TOPICS.values(), FILLER):
        words.extend(w for w in text.split() if w not in words)
    words.extend(f"##{c}" for c in "abcdefghijklmnopqrstuvwxyz_")
    vocab = {w: i for i, w in enumerate(words)}
    tokenizer = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]", max_input_chars_per_word=100))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    rng = np.random.default_rng(seed)
    table = rng.standard_normal((len(words), DIMS)) * 0.3
    for text in TOPICS.values():
        centre = rng.standard_normal(DIMS) * 3
        for w in text.split():
            table[vocab[w]] += centre
    graph = helper.make_graph(
        [helper.make_node("Gather", ["table", "input_ids"], ["rows"]),
         helper.make_node("ReduceMean", ["rows"], ["mean"], axes=[1], keepdims=1),
         helper.make_node("Add", ["rows", "mean"], ["last_hidden_state"])],
        "tiny",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "tokens"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "tokens"])],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT, ["batch", "tokens", DIMS])],
        [numpy_helper.from_array(table.astype(np.float32), "table")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 8
    onnx.checker.check_model(model)
    data = model.SerializeToString()
    tok = tokenizer.to_str().encode()
    (folder / "model.onnx").write_bytes(data)
    (folder / "tokenizer.json").write_bytes(tok)
    manifest = {"format": 1, "kind": "contextual", "name": "tiny", "licence": "MIT", "dims": DIMS, "max_tokens": 64,
                "pooling": "mean", "blend": 0.5, "route_cosine": 0.5,
                "files_sha256": {"model.onnx": sha256(data), "tokenizer.json": sha256(tok)}}
    (folder / "manifest.json").write_text(json.dumps(manifest))
    return folder


@pytest.fixture(autouse=True)
def fresh_process_cache():
    """The tests answer in one process: a model loaded (and checked) by one test would serve the next, whose
    bundle records the same sha256s; each test loads its own, as a new process does."""
    from gitroute.query import meaning as query_meaning

    query_meaning._CONTEXTUAL.clear()
    yield
    query_meaning._CONTEXTUAL.clear()


@pytest.fixture
def model_dir(tmp_path: Path) -> Path:
    return write_tiny_model(tmp_path / "tiny-contextual")


@pytest.fixture
def geo_repo(make_repo):
    repo = make_repo("geo")
    repo.commit(dict(FILES), "initial")
    return repo


build = build_with_model


def test_the_encoder_gives_a_text_the_same_vector_alone_or_with_others(model_dir):
    encoder = SentenceEncoder(read_folder(str(model_dir)))
    texts = ["where is the city of a user", "hourly forecast rows", "serve http forever", "where"]
    together = encoder.encode(texts)
    alone = np.stack([encoder.encode([t])[0] for t in texts])
    assert np.array_equal(together, alone)
    assert np.array_equal(encoder.encode(texts * 5, workers=2), np.concatenate([together] * 5))
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    assert together[0] @ together[1] < together[0] @ encoder.encode(["locate the whereabouts"])[0]


def test_build_writes_the_model_and_node_vectors_to_the_large_ref(route, geo_repo, model_dir):
    build(route, geo_repo, model_dir)
    listed = geo_repo.git("ls-tree", "-r", "--name-only", BUNDLE_LARGE_REF).split()
    assert sorted(listed) == sorted([*contextual.MODEL_BLOBS, contextual.VECTORS, contextual.NODES,
                                     contextual.DIGESTS, contextual.FILES])
    model_blob = geo_repo.git("rev-parse", f"{BUNDLE_LARGE_REF}:contextual/model.onnx").strip()
    assert geo_repo.repo[model_blob].data == (model_dir / "model.onnx").read_bytes()
    status = json.loads(route(["status", "--json"], geo_repo.path).stdout)
    assert status["large"]["state"] == "matches"
    nodes = sum(status["counts"]["nodes"].values())
    assert status["contextual_model"]["vectors"] == nodes
    assert status["contextual_model"]["sha256"] == sha256((model_dir / "model.onnx").read_bytes())
    text = route(["status"], geo_repo.path).stdout
    assert f"contextual model: tiny, sha256 {sha256((model_dir / 'model.onnx').read_bytes())}, {nodes} nodes" in text
    assert json.loads(route(["status", "--json"], geo_repo.path).stdout)["indexes"]["embedding"] == {"vectors": 0}


def test_the_same_tree_gives_the_same_large_tree_and_a_one_file_rebuild_equals_a_full_one(route, geo_repo, model_dir):
    build(route, geo_repo, model_dir, "--full")
    first = tree_of(geo_repo, BUNDLE_LARGE_REF), tree_of(geo_repo, BUNDLE_REF)
    build(route, geo_repo, model_dir, "--full")
    assert (tree_of(geo_repo, BUNDLE_LARGE_REF), tree_of(geo_repo, BUNDLE_REF)) == first
    geo_repo.commit({"src/sample/geo.py": GEO + '\n\ndef guess_country(city):\n    """The country of a city."""\n'},
                    "a country too")
    build(route, geo_repo, model_dir)  # reuses the earlier vectors by text digest
    incremental = tree_of(geo_repo, BUNDLE_LARGE_REF), tree_of(geo_repo, BUNDLE_REF)
    build(route, geo_repo, model_dir, "--full")  # embeds every node again
    assert (tree_of(geo_repo, BUNDLE_LARGE_REF), tree_of(geo_repo, BUNDLE_REF)) == incremental != first


def test_a_rebuild_embeds_only_texts_it_has_no_vector_for(model_dir):
    files = read_folder(str(model_dir))
    texts = ["geo city where", "hourly forecast", "serve forever"]
    known = {contextual.digest(t): bytes([7] * (DIMS // 2)) for t in texts[:2]}  # planted: taken as they are
    large, section = contextual.build_large(files, [1, 2, 3], ["a.py", "a.py", "b.py"], texts, known)
    vectors = np.frombuffer(large[contextual.VECTORS], dtype=np.uint8).reshape(3, DIMS // 2)
    assert (vectors[:2] == 7).all()
    fresh = SentenceEncoder(files).encode([texts[2]])
    assert np.array_equal(vectors[2], quantize(fresh)[0])
    back = unpack(vectors[2:])[0]
    assert np.abs(back).max() == 7 and back @ fresh[0] / np.linalg.norm(back) > 0.98
    assert json.loads(large[contextual.FILES]) == [["a.py", 0, 2], ["b.py", 2, 3]]
    assert section["counts"] == {"vectors": 3, "dims": DIMS}


def test_plain_words_are_reranked_and_explain_says_so(route, geo_repo, model_dir):
    question = "which file has the city of a user from their address"
    before = json.loads(route(["query", "--meaning", "--json", "--explain", question], geo_repo.path).stdout)
    build(route, geo_repo, model_dir)
    after = json.loads(route(["query", "--meaning", "--json", "--explain", question], geo_repo.path).stdout)
    assert after["rows"][0]["path"] == "src/sample/geo.py"
    for row in after["rows"]:  # additive, as every answer's signals are
        assert set(row["signals"]) == {"bm25", "node_cosine"}
        assert abs(sum(row["signals"].values()) - row["score"]) < 1e-3
    assert any("reranked by the contextual model (tiny)" in n for n in after["notes"])
    assert not any("contextual" in n for n in before.get("notes", []))
    alone = json.loads(route(["query", "--meaning", "--candidate", "bm25", "--json", question], geo_repo.path).stdout)
    assert not any("contextual" in n for n in alone.get("notes", []))  # BM25 alone, when asked for


def test_a_name_question_never_loads_the_model(geo_repo, model_dir, route):
    build(route, geo_repo, model_dir)
    code = ("import sys, json; from gitroute import api; a = api.query('guess_city', repo='.', explain=True); "
            "print(json.dumps(['onnxruntime' in sys.modules, a.rows[0].path]))")
    out = subprocess.run([sys.executable, "-c", code], cwd=geo_repo.path, capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == [False, "src/sample/geo.py"]


def tamper(repo, path: str) -> None:
    """The large ref replaced by a commit where one blob has a byte flipped."""
    blob = repo.git("rev-parse", f"{BUNDLE_LARGE_REF}:{path}").strip()
    data = bytearray(repo.repo[blob].data)
    data[len(data) // 2] ^= 1
    new = repo.repo.create_blob(bytes(data))
    top = repo.repo.revparse_single(f"{BUNDLE_LARGE_REF}^{{tree}}")
    folder = repo.repo.TreeBuilder(repo.repo[top["contextual"].id])
    folder.insert(path.split("/", 1)[1], new, 0o100644)
    builder = repo.repo.TreeBuilder(top)
    builder.insert("contextual", folder.write(), 0o040000)
    old = repo.repo.revparse_single(BUNDLE_LARGE_REF)
    commit = repo.repo.create_commit(None, old.author, old.committer, old.message, builder.write(), [])
    repo.git("update-ref", BUNDLE_LARGE_REF, str(commit))


@pytest.mark.parametrize("path", [contextual.VECTORS, "contextual/model.onnx"])
def test_a_tampered_model_or_vector_blob_is_refused_before_use(route, geo_repo, model_dir, path):
    build(route, geo_repo, model_dir)
    tamper(geo_repo, path)
    answer = json.loads(route(["query", "--meaning", "--json", "--explain", "city of a user address"],
                              geo_repo.path).stdout)
    assert any(f"refusing the large bundle's contextual model: '{path}' does not match the sha256" in n
               for n in answer["notes"])
    assert not any("node_cosine" in (row.get("signals") or {}) for row in answer["rows"])
    assert json.loads(route(["status", "--json"], geo_repo.path).stdout)["large"]["state"] == "mismatch"


def test_a_model_folder_whose_files_differ_from_its_manifest_is_refused(route, geo_repo, model_dir):
    (model_dir / "model.onnx").write_bytes((model_dir / "model.onnx").read_bytes() + b"\0")
    result = route(["build", "-q", "--meaning-model", str(model_dir)], geo_repo.path)
    assert result.exit_code != 0
    assert "'model.onnx' does not match the sha256 its manifest records" in result.stderr
    (model_dir / "model.pt").write_bytes(b"pickle")
    with pytest.raises(GitrouteError, match="pickle format"):
        read_folder(str(model_dir))


def _without_runtime(args: list[str], cwd: Path) -> subprocess.CompletedProcess:
    code = ("import sys; sys.modules['onnxruntime'] = None; from gitroute.cli import main; "
            f"sys.exit(main({args!r}))")
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True)


def test_a_missing_extra_is_a_one_line_hint(route, geo_repo, model_dir):
    result = _without_runtime(["build", "-q", "--meaning-model", str(model_dir)], geo_repo.path)
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    assert "[model]" in result.stderr and "pip install" in result.stderr  # from gitroute's own source, never by name
    assert len(result.stderr.strip().splitlines()) <= 2  # the error and its hint
    build(route, geo_repo, model_dir)
    asked = _without_runtime(["query", "--meaning", "--json", "--explain", "city of a user address"], geo_repo.path)
    assert asked.returncode == 0, asked.stderr
    notes = json.loads(asked.stdout)["notes"]
    assert any(note.startswith("the bundle has a contextual model, but its runtime is not installed: pip install")
               and "[model]" in note for note in notes), notes


def test_making_a_model_that_needs_torch_says_so_in_one_line(route, tmp_path):
    pytest.importorskip("onnx")
    if __import__("importlib.util").util.find_spec("torch") is not None:
        pytest.skip("torch is installed here")
    result = route(["model", "make", str(tmp_path / "m"), "--model", "all-minilm-l6"], tmp_path)
    assert result.exit_code != 0
    assert "making this model needs torch" in result.stderr
    assert "Traceback" not in result.stderr


def test_a_fresh_clone_fetches_the_model_with_meaning_and_uses_it(route, geo_repo, model_dir, tmp_path):
    build(route, geo_repo, model_dir)
    remote = tmp_path / "remote.git"
    geo_repo.git("init", "-q", "--bare", str(remote))
    geo_repo.git("push", "-q", str(remote), "main")
    assert route(["push", remote.as_uri(), "--meaning"], geo_repo.path).exit_code == 0
    clone = tmp_path / "clone"
    geo_repo.git("clone", "-q", remote.as_uri(), str(clone))
    assert route(["fetch"], clone).exit_code == 0
    question = ["query", "--meaning", "--json", "--explain", "which file has the city of a user from their address"]
    notes = json.loads(route(question, clone).stdout)["notes"]
    assert "the bundle has a contextual model, but no large bundle: run 'git route fetch --meaning'" in notes
    fetched = route(["fetch", "--meaning"], clone)
    assert fetched.exit_code == 0, fetched.stderr
    assert f"fetched {BUNDLE_LARGE_REF}" in fetched.stdout
    status = json.loads(route(["status", "--json"], clone).stdout)
    assert status["large"]["state"] == "matches" and status["contextual_model"]["model"] == "tiny"
    assert any("reranked by the contextual model (tiny)" in n for n in json.loads(route(question, clone).stdout)["notes"])
    exported = route(["model", "export", str(tmp_path / "exported")], clone)  # what CI builds with
    assert exported.exit_code == 0, exported.stderr
    assert (tmp_path / "exported" / "model.onnx").read_bytes() == (model_dir / "model.onnx").read_bytes()


def test_a_query_keeps_checked_copies_and_reads_git_again_when_one_is_changed(route, geo_repo, model_dir,
                                                                             monkeypatch):
    from gitroute.bundle import large
    from gitroute.query import meaning as query_meaning

    monkeypatch.setattr(large, "CACHE_MIN_BYTES", 0)  # the tiny model's blobs are far below a megabyte
    build(route, geo_repo, model_dir)
    question = ["query", "--meaning", "--json", "--explain", "city of a user address"]
    assert any("reranked" in n for n in json.loads(route(question, geo_repo.path).stdout)["notes"])
    cache = geo_repo.path / ".git" / "gitroute" / "large"
    model = cache / sha256((model_dir / "model.onnx").read_bytes())
    assert model.read_bytes() == (model_dir / "model.onnx").read_bytes()
    model.write_bytes(b"planted")
    query_meaning._CONTEXTUAL.clear()  # a new process
    assert any("reranked" in n for n in json.loads(route(question, geo_repo.path).stdout)["notes"])
    assert model.read_bytes() == (model_dir / "model.onnx").read_bytes()  # read from git, checked, kept again


def test_a_build_takes_vectors_only_from_its_own_earlier_bundle(route, geo_repo, model_dir):
    from gitroute.bundle.provenance import OWN_BUNDLES
    from gitroute.bundle.writer import BundleWriter
    from gitroute.git import repository as git

    build(route, geo_repo, model_dir)
    files = read_folder(str(model_dir))
    previous = BundleWriter(git.open_repository(str(geo_repo.path))).previous_blobs()
    earlier = contextual._earlier_vectors(previous, files)
    vectors = json.loads(route(["status", "--json"], geo_repo.path).stdout)["contextual_model"]["vectors"]
    assert 0 < len(earlier) <= vectors and all(len(v) == DIMS // 2 for v in earlier.values())
    (geo_repo.path / ".git" / OWN_BUNDLES).unlink()  # as if the bundle had been fetched
    assert contextual._earlier_vectors(previous, files) == {}
