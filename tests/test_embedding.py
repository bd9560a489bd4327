"""The embedding candidate: a tiny static model written by the test, its large bundle, fetch and push, the rule."""
from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import shutil
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("safetensors")
pytest.importorskip("tokenizers")

from safetensors.numpy import load, save, save_file  # noqa: E402
from tokenizers import Tokenizer, models, normalizers, pre_tokenizers  # noqa: E402

from gitroute.bench import CandidateScore, meaning_verdict  # noqa: E402
from gitroute.bundle.layout import BUNDLE_LARGE_REF, BUNDLE_REF  # noqa: E402
from gitroute.errors import GitrouteError  # noqa: E402
from gitroute.indexes.embedding import StaticModel, read_model_folder  # noqa: E402
from tests.conftest import SAMPLE_FILES  # noqa: E402
from tests.helpers import build_with_model, tree_of  # noqa: E402

# Words of one topic get vectors near one centre, so that a question in other words finds the topic.
TOPICS = {
    "location": "location locate city geo where place position latitude whereabouts guess country address",
    "weather": "weather forecast forecasts rain temperature meteo climate sunny hourly",
    "server": "server http serve request network listen socket web forever",
    "command": "command line cli run start terminal main",
}
FILLER = ("the a of to from is are their by an user users ip find text raw turn into rows fetches service open client"
          " sample package test tests src py json parse returns lookups")
DIMS = 16


def write_tiny_model(folder: Path, seed: int = 7, dtype: str = "float32", quantized: bool = False) -> Path:
    """A WordPiece tokenizer.json, random safetensors weights clustered by topic, and a config.json."""
    folder.mkdir(parents=True, exist_ok=True)
    words = ["[PAD]", "[UNK]"]
    for text in (*TOPICS.values(), FILLER):
        words.extend(w for w in text.split() if w not in words)
    words.extend(f"##{c}" for c in "abcdefghijklmnopqrstuvwxyz")
    vocab = {w: i for i, w in enumerate(words)}
    tokenizer = Tokenizer(models.WordPiece(vocab, unk_token="[UNK]", max_input_chars_per_word=100))
    tokenizer.normalizer = normalizers.BertNormalizer(lowercase=True)
    tokenizer.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tokenizer.save(str(folder / "tokenizer.json"))
    rng = np.random.default_rng(seed)
    centres = {topic: rng.standard_normal(DIMS) * 3 for topic in TOPICS}
    vectors = rng.standard_normal((len(words), DIMS)) * 0.3
    for topic, text in TOPICS.items():
        for w in text.split():
            vectors[vocab[w]] += centres[topic]
    tensors = {"embeddings": vectors.astype(dtype)}
    if quantized:
        # model2vec's vocabulary quantization: fewer rows, each token mapped to one, with a weight per token.
        rows = len(words) // 2
        tensors = {"embeddings": np.clip(np.round(vectors[:rows] * 20), -127, 127).astype(np.int8),
                   "mapping": (np.arange(len(words)) % rows).astype(np.int64),
                   "weights": rng.uniform(0.5, 2.0, len(words)).astype(np.float32)}
    save_file(tensors, str(folder / "model.safetensors"))
    (folder / "config.json").write_text(json.dumps({"model_type": "model2vec", "normalize": True, "hidden_dim": DIMS}))
    return folder


GEO = ('"""Where the user is."""\n\n\n'
       'def guess_city(address):\n    """Find the city of a user from their ip address."""\n    return address\n')
FILES = {**SAMPLE_FILES, "src/sample/geo.py": GEO}
QUESTION = "locate the whereabouts and position"  # no word of it is in the repository: BM25 cannot route it


@pytest.fixture
def model_dir(tmp_path: Path) -> Path:
    return write_tiny_model(tmp_path / "tiny-model")


@pytest.fixture
def geo_repo(make_repo):
    repo = make_repo("geo")
    repo.commit(dict(FILES), "initial")
    return repo



# --- the model --------------------------------------------------------------------------------


@pytest.mark.parametrize("quantized", [False, True], ids=["float32", "int8-mapped-weighted"])
def test_question_vectors_match_model2vec(tmp_path, quantized):
    model2vec = pytest.importorskip("model2vec")
    os.environ["HF_HUB_OFFLINE"] = "1"  # a wrong path must fail here, not reach for the hub
    model_dir = write_tiny_model(tmp_path / "m", quantized=quantized)
    theirs = model2vec.StaticModel.from_pretrained(str(model_dir))
    ours = StaticModel(read_model_folder(str(model_dir)))
    texts = [f"{a} {b} and the {c}" for a, b, c in zip(
        TOPICS["location"].split() * 5, TOPICS["weather"].split() * 6, FILLER.split() * 2)][:45]
    texts += ["Where is the USER'S city?", "forecasting rain", "unknownword only", "ÉTÉ météo", "x" * 3000]
    assert len(texts) == 50
    a = ours.encode(texts)
    b = theirs.encode(texts)
    for text, u, v in zip(texts, a, b):
        if not v.any():
            assert not u.any(), text  # no known token: both give zeros
            continue
        cosine = float(u @ v / (np.linalg.norm(u) * np.linalg.norm(v)))
        assert cosine > 1 - 1e-5, (text, cosine)
    assert ours.token_ids(["locate the city"]) == theirs.tokenize(["locate the city"])


@pytest.mark.parametrize("name", ["pytorch_model.bin", "model.pt", "weights.pkl", "model.pickle"])
def test_build_refuses_a_pickle_format_and_writes_nothing(route, geo_repo, model_dir, name):
    (model_dir / name).write_bytes(b"\x80\x04K\x01.")  # a pickle: loading it would run code
    result = route(["build", "--meaning-model", str(model_dir)], geo_repo.path)
    assert result.exit_code == 128
    assert result.stdout == ""
    assert f"fatal: refusing the model at '{model_dir}': '{name}' is a pickle format" in result.stderr
    assert "hint: only safetensors weights are read" in result.stderr
    assert geo_repo.ref(BUNDLE_REF) is None and geo_repo.ref(BUNDLE_LARGE_REF) is None


def test_build_refuses_a_model_without_safetensors(route, geo_repo, model_dir):
    (model_dir / "model.safetensors").unlink()
    result = route(["build", "--meaning-model", str(model_dir)], geo_repo.path)
    assert result.exit_code == 128
    assert f"fatal: the model at '{model_dir}' has no 'model.safetensors'" in result.stderr
    missing = route(["build", "--meaning-model", str(model_dir / "nowhere")], geo_repo.path)
    assert missing.exit_code == 128 and "fatal: no model folder at" in missing.stderr
    assert geo_repo.ref(BUNDLE_REF) is None


def test_meaning_options_without_a_model_are_a_usage_error(route, geo_repo):
    result = route(["build", "--meaning-answer", "hybrid"], geo_repo.path)
    assert result.exit_code == 129
    assert "--meaning-answer and --meaning-dtype need --meaning-model DIR" in result.stderr
    assert geo_repo.ref(BUNDLE_REF) is None


def test_unreadable_safetensors_is_a_clear_error(model_dir):
    (model_dir / "model.safetensors").write_bytes(b"not safetensors at all")
    with pytest.raises(GitrouteError, match="'model.safetensors' is unreadable"):
        StaticModel(read_model_folder(str(model_dir)))


def test_a_model_whose_tensors_do_not_fit_its_vocabulary_is_refused(tmp_path):
    folder = write_tiny_model(tmp_path / "m", quantized=True)
    tensors = load((folder / "model.safetensors").read_bytes())
    tensors["mapping"] = tensors["mapping"] + 10_000  # rows the embeddings do not have
    save_file(tensors, str(folder / "model.safetensors"))
    with pytest.raises(GitrouteError, match="do not fit its tokenizer's vocabulary"):
        StaticModel(read_model_folder(str(folder)))


# --- the large bundle -------------------------------------------------------------------------


def test_large_bundle_is_parentless_deterministic_and_recorded(route, make_repo, model_dir):
    trees = []
    for name in ("one", "two"):
        repo = make_repo(name)
        repo.commit(dict(FILES), "initial")
        build_with_model(route, repo, model_dir)
        trees.append((tree_of(repo, BUNDLE_LARGE_REF), repo.ref(BUNDLE_LARGE_REF), tree_of(repo, BUNDLE_REF)))
        assert repo.git("rev-list", "--count", BUNDLE_LARGE_REF).strip() == "1"  # parentless
        manifest = json.loads(repo.git("cat-file", "blob", f"{BUNDLE_REF}:build.json"))
        assert manifest["large"] == {"ref": BUNDLE_LARGE_REF, "commit": repo.ref(BUNDLE_LARGE_REF),
                                     "tree": trees[-1][0]}
        section = manifest["indexes"]["embedding"]
        weights = (model_dir / "model.safetensors").read_bytes()
        assert section["model_sha256"] == hashlib.sha256(weights).hexdigest()
        stored = repo.git("ls-tree", "-r", "--name-only", BUNDLE_LARGE_REF).split()
        assert stored == ["meta.json", "model/config.json", "model/model.safetensors", "model/tokenizer.json",
                          "vectors.safetensors"]
        assert not repo.git("ls-tree", "-r", "--name-only", BUNDLE_REF, "--", "model", "vectors.safetensors")
    assert trees[0] == trees[1]  # the same inputs, the same large tree, commit and main tree
    # A rebuild of the same commit changes nothing.
    again = route(["build", "--json", "--meaning-model", str(model_dir)], repo.path)
    assert json.loads(again.stdout)["status"] == "unchanged"
    assert repo.ref(BUNDLE_LARGE_REF) == trees[1][1]


def test_int8_vectors_are_smaller_and_rank_alike(route, make_repo, model_dir):
    sizes, firsts = {}, {}
    for dtype in ("float16", "int8"):
        repo = make_repo(dtype)
        repo.commit(dict(FILES), "initial")
        build_with_model(route, repo, model_dir, "--meaning-dtype", dtype, "--meaning-answer", "embedding")
        sizes[dtype] = int(repo.git("cat-file", "-s", f"{BUNDLE_LARGE_REF}:vectors.safetensors"))
        answer = route(["query", "--meaning", "--json", QUESTION], repo.path)
        firsts[dtype] = json.loads(answer.stdout)["rows"][0]["path"]
    assert sizes["int8"] < sizes["float16"]
    assert firsts == {"float16": "src/sample/geo.py", "int8": "src/sample/geo.py"}


# --- answers ----------------------------------------------------------------------------------


def test_each_candidate_answers_the_meaning_question(route, geo_repo, model_dir):
    build_with_model(route, geo_repo, model_dir, "--meaning-answer", "embedding")
    recorded = json.loads(route(["query", "--meaning", "--json", QUESTION], geo_repo.path).stdout)
    assert recorded["status"] == "routed" and recorded["rows"][0]["path"] == "src/sample/geo.py"
    bm25 = json.loads(route(["query", "--candidate", "bm25", "--json", QUESTION], geo_repo.path).stdout)
    assert bm25["status"] == "no_match"  # none of its words is in the repository
    hybrid = json.loads(route(["query", "--candidate", "hybrid", "--json", QUESTION], geo_repo.path).stdout)
    assert hybrid["rows"][0]["path"] == "src/sample/geo.py"
    words = json.loads(route(["query", "--candidate", "hybrid", "--json", "forecast rain temperature"],
                             geo_repo.path).stdout)
    assert words["rows"][0]["path"] == "src/sample/weather.py"
    unknown = json.loads(route(["query", "--candidate", "embedding", "--json", "zzzz qqqq"], geo_repo.path).stdout)
    assert unknown["status"] == "no_match"
    assert "vocabulary" in unknown["notes"][0]


def test_a_bundle_without_a_model_answers_with_bm25(route, geo_repo):
    assert route(["build", "-q"], geo_repo.path).exit_code == 0
    answer = json.loads(route(["query", "--meaning", "--json", "where is the forecast parsed"], geo_repo.path).stdout)
    assert answer["rows"][0]["path"] == "src/sample/weather.py"
    asked = json.loads(route(["query", "--candidate", "embedding", "--json", QUESTION], geo_repo.path).stdout)
    assert any("BM25 answers" in note for note in asked["notes"])


def test_a_large_ref_that_does_not_match_is_not_used(route, geo_repo, model_dir):
    build_with_model(route, geo_repo, model_dir, "--meaning-answer", "embedding")
    tamper_large_ref(geo_repo)
    status = route(["status", "--json"], geo_repo.path)
    assert json.loads(status.stdout)["large"]["state"] == "mismatch"
    answer = json.loads(route(["query", "--meaning", "--json", QUESTION], geo_repo.path).stdout)
    assert answer["status"] == "no_match"  # BM25's answer, not the planted vectors'
    assert any("does not match" in note and "BM25 answers" in note for note in answer["notes"])


def tamper_large_ref(repo) -> str:
    """Replace the large ref with a commit whose vectors are changed but whose shape is intact."""
    blob = repo.git("rev-parse", f"{BUNDLE_LARGE_REF}:vectors.safetensors").strip()
    raw = repo.repo[blob].data
    tensors = load(raw)
    tensors["vectors"] = tensors["vectors"][::-1].copy()
    new_blob = repo.repo.create_blob(save(tensors))
    index_tree = repo.repo[repo.repo.revparse_single(f"{BUNDLE_LARGE_REF}^{{tree}}").id]
    builder = repo.repo.TreeBuilder(index_tree)
    builder.insert("vectors.safetensors", new_blob, 0o100644)
    tree = builder.write()
    old = repo.repo.revparse_single(BUNDLE_LARGE_REF)
    commit = repo.repo.create_commit(None, old.author, old.committer, old.message, tree, [])
    repo.git("update-ref", BUNDLE_LARGE_REF, str(commit))
    return str(commit)


# --- fetch and push ---------------------------------------------------------------------------


@pytest.fixture
def shared(route, make_repo, geo_repo, model_dir, tmp_path):
    """A repository that built with a model, a bare remote it pushed both refs to, and a plain clone."""
    build_with_model(route, geo_repo, model_dir, "--meaning-answer", "embedding")
    remote = tmp_path / "remote.git"
    geo_repo.git("init", "-q", "--bare", str(remote))
    geo_repo.git("push", "-q", str(remote), "main")
    url = remote.as_uri()
    pushed = route(["push", url, "--meaning"], geo_repo.path)
    assert pushed.exit_code == 0, pushed.stderr
    assert pushed.stdout.splitlines() == [f"pushed {BUNDLE_REF} at {geo_repo.ref(BUNDLE_REF)[:7]} to {url}",
                                          f"pushed {BUNDLE_LARGE_REF} at {geo_repo.ref(BUNDLE_LARGE_REF)[:7]} to {url}"]
    clone = tmp_path / "clone"
    geo_repo.git("clone", "-q", url, str(clone))
    return geo_repo, remote, clone


def git_in(path: Path, *args: str) -> str:
    import subprocess

    result = subprocess.run(["git", *args], cwd=path, capture_output=True, text=True)
    assert result.returncode == 0, result.stderr
    return result.stdout


def refs_of(path: Path) -> str:
    return git_in(path, "for-each-ref", "--format=%(refname) %(objectname)", "refs/marola", "refs/gitroute-incoming")


def test_fetch_brings_the_bundle_and_with_meaning_the_large_bundle(route, shared):
    source, remote, clone = shared
    assert refs_of(clone) == ""  # a plain clone brings neither
    plain = route(["fetch"], clone)
    assert plain.exit_code == 0, plain.stderr
    assert plain.stdout == f"fetched {BUNDLE_REF} at {source.ref(BUNDLE_REF)[:7]} from origin (new)\n"
    assert refs_of(clone) == f"{BUNDLE_REF} {source.ref(BUNDLE_REF)}\n"
    status = json.loads(route(["status", "--json"], clone).stdout)
    assert status["large"]["state"] == "absent"
    answer = json.loads(route(["query", "--meaning", "--json", QUESTION], clone).stdout)
    assert any("fetch --meaning" in note for note in answer["notes"])  # BM25 answers meanwhile

    full = route(["fetch", "origin", "--meaning"], clone)
    assert full.exit_code == 0, full.stderr
    assert f"fetched {BUNDLE_LARGE_REF} at {source.ref(BUNDLE_LARGE_REF)[:7]} from origin (new)" in full.stdout
    assert refs_of(clone) == (f"{BUNDLE_REF} {source.ref(BUNDLE_REF)}\n"
                              f"{BUNDLE_LARGE_REF} {source.ref(BUNDLE_LARGE_REF)}\n")
    assert json.loads(route(["status", "--json"], clone).stdout)["large"]["state"] == "matches"
    answer = json.loads(route(["query", "--meaning", "--json", QUESTION], clone).stdout)
    assert answer["rows"][0]["path"] == "src/sample/geo.py"


def test_fetch_refuses_a_tampered_large_ref_and_keeps_the_previous_refs(route, shared):
    source, remote, clone = shared
    assert route(["fetch", "--meaning"], clone).exit_code == 0
    before = refs_of(clone)
    tampered = tamper_in_bare(remote)
    result = route(["fetch", "--meaning"], clone)
    assert result.exit_code == 128
    assert result.stdout == ""
    assert ("fatal: refusing the large bundle from 'origin': the tree at "
            f"'{BUNDLE_LARGE_REF}' is not the one the bundle records") in result.stderr
    assert refs_of(clone) == before  # nothing moved, no temporary ref left behind
    assert tampered not in before


def tamper_in_bare(remote: Path) -> str:
    """In the bare remote, the large ref replaced by a commit with reversed vectors."""
    import pygit2

    repo = pygit2.Repository(str(remote))
    old = repo.revparse_single(BUNDLE_LARGE_REF)
    tree = old.peel(pygit2.Tree)
    tensors = load(repo[tree["vectors.safetensors"].id].data)
    tensors["vectors"] = tensors["vectors"][::-1].copy()
    builder = repo.TreeBuilder(tree)
    builder.insert("vectors.safetensors", repo.create_blob(save(tensors)), pygit2.enums.FileMode.BLOB)
    commit = repo.create_commit(None, old.author, old.committer, old.message, builder.write(), [])
    repo.references.create(BUNDLE_LARGE_REF, commit, force=True)
    return str(commit)


def test_fetch_refuses_large_blobs_whose_hash_differs_even_with_a_recorded_tree(route, shared):
    """A remote whose main bundle records a planted large tree: the sha256s of the embedding section still differ."""
    import pygit2

    source, remote, clone = shared
    repo = pygit2.Repository(str(remote))
    planted = tamper_in_bare(remote)
    main = repo.revparse_single(BUNDLE_REF)
    tree = main.peel(pygit2.Tree)
    manifest = json.loads(repo[tree["build.json"].id].data)
    manifest["large"]["tree"] = str(repo[planted].tree_id)
    manifest["large"]["commit"] = planted
    builder = repo.TreeBuilder(tree)
    builder.insert("build.json", repo.create_blob(json.dumps(manifest, sort_keys=True).encode()),
                   pygit2.enums.FileMode.BLOB)
    commit = repo.create_commit(None, main.author, main.committer, main.message, builder.write(), [])
    repo.references.create(BUNDLE_REF, commit, force=True)
    result = route(["fetch", "--meaning"], clone)
    assert result.exit_code == 128
    assert "'vectors.safetensors' does not match the sha256 the bundle records" in result.stderr
    assert refs_of(clone) == ""


def test_fetch_from_a_remote_without_the_large_ref_says_so(route, geo_repo, tmp_path):
    assert route(["build", "-q"], geo_repo.path).exit_code == 0
    remote = tmp_path / "plain.git"
    geo_repo.git("init", "-q", "--bare", str(remote))
    assert route(["push", remote.as_uri()], geo_repo.path).exit_code == 0
    clone = tmp_path / "plain-clone"
    geo_repo.git("clone", "-q", remote.as_uri(), str(clone))
    result = route(["fetch", "--meaning"], clone)
    assert result.exit_code == 128
    assert f"fatal: the remote 'origin' has no '{BUNDLE_LARGE_REF}'" in result.stderr
    assert "hint: push it from a clone that built it: 'git route push --meaning'" in result.stderr
    assert refs_of(clone) == ""


def test_fetch_takes_a_remote_name_that_looks_like_an_option_as_a_name(route, shared):
    source, remote, clone = shared
    result = route(["fetch", "--", "--upload-pack=touch pwned"], clone)
    assert result.exit_code == 128
    assert "cannot fetch the bundle from '--upload-pack=touch pwned'" in result.stderr
    assert not (clone / "pwned").exists()


def test_push_refuses_a_large_ref_that_does_not_match(route, geo_repo, model_dir, tmp_path):
    build_with_model(route, geo_repo, model_dir)
    tamper_large_ref(geo_repo)
    remote = tmp_path / "r.git"
    geo_repo.git("init", "-q", "--bare", str(remote))
    result = route(["push", remote.as_uri(), "--meaning"], geo_repo.path)
    assert result.exit_code == 128
    assert f"fatal: not pushing '{BUNDLE_LARGE_REF}'" in result.stderr
    assert git_in(remote, "for-each-ref") == ""


# --- the rule ---------------------------------------------------------------------------------


def scores(bm25: int, embedding: int, hybrid: int | None = None, mb: float = 5.0) -> list[CandidateScore]:
    rows = [CandidateScore("c", "bm25", bm25, 20, 0, 50.0, 1.0),
            CandidateScore("c", "embedding", embedding, 20, int(mb * 1e6), 300.0, 2.0)]
    if hybrid is not None:
        rows.append(CandidateScore("c", "hybrid", hybrid, 20, int(mb * 1e6), 310.0, 3.0))
    return rows


def test_rule_embedding_answers_only_when_it_beats_bm25_by_three():
    assert meaning_verdict(scores(10, 13))[0] == "embedding"
    verdict, why = meaning_verdict(scores(10, 12))
    assert verdict == "bm25" and "embedding gets 12 right first against BM25's 10 (needs +3)" in why


def test_rule_refuses_a_candidate_over_30_mb():
    verdict, why = meaning_verdict(scores(10, 18, mb=30.5))
    assert verdict == "bm25" and "adds 30.5 MB (over 30 MB)" in why
    assert meaning_verdict(scores(10, 18, mb=30.0))[0] == "embedding"


def test_rule_picks_the_better_of_embedding_and_hybrid():
    assert meaning_verdict(scores(10, 13, 15))[0] == "hybrid"
    assert meaning_verdict(scores(10, 14, 14))[0] == "embedding"  # a tie: one index, not two
    assert meaning_verdict(scores(10, 9, 13))[0] == "hybrid"


def test_rule_sums_right_first_over_corpora():
    two = [*scores(5, 7), *[dataclasses.replace(s, corpus="d") for s in scores(5, 6)]]
    assert meaning_verdict(two)[0] == "embedding"  # 13 against 10 in total, though neither corpus alone has +3


def test_bench_meaning_rule_prints_the_table_and_the_verdict(route, geo_repo, model_dir, tmp_path):
    build_with_model(route, geo_repo, model_dir)
    bench = tmp_path / "geo.routing-bench.yaml"
    bench.write_text(
        "schema: 1\nquestions:\n"
        f"  - {{id: m1, type: meaning, question: '{QUESTION}', expect: [src/sample/geo.py]}}\n"
        "  - {id: m2, type: meaning, question: 'guess the country of the person', expect: [src/sample/geo.py]}\n"
        "  - {id: m3, type: meaning, question: 'the place a visitor is in', expect: [src/sample/geo.py]}\n"
        "  - {id: m4, type: meaning, question: 'sunny or rain tomorrow', expect: [src/sample/weather.py]}\n"
    )
    result = route(["bench", str(bench), "--meaning-rule"], geo_repo.path)
    assert result.exit_code == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["corpus", "candidate", "right", "first", "bytes", "added", "cold", "ms", "warm", "ms"]
    table = {tuple(line.split()[:3]) for line in lines[1:-2]}
    assert ("geo", "bm25", "0/4") in table and ("total", "bm25", "0/4") in table
    assert ("geo", "embedding", "4/4") in table
    assert lines[-2].startswith("verdict: embedding answers --meaning (embedding gets 4 right first against BM25's 0")
    assert lines[-1] == "the bundle records: bm25 answers --meaning"
    assert "hint: record the verdict with 'git route build --meaning-model DIR --meaning-answer embedding'" \
        in result.stderr
    doc = json.loads(route(["bench", str(bench), "--meaning-rule", "--json"], geo_repo.path).stdout)
    assert doc["verdict"] == "embedding" and doc["recorded"] == "bm25"
    assert all(row["cold_ms"] > 0 for row in doc["rows"])


def test_model_folder_is_copied_byte_for_byte(route, geo_repo, model_dir):
    build_with_model(route, geo_repo, model_dir)
    for name in ("model.safetensors", "tokenizer.json", "config.json"):
        stored = geo_repo.repo[geo_repo.repo.revparse_single(f"{BUNDLE_LARGE_REF}:model/{name}").id].data
        assert stored == (model_dir / name).read_bytes()
    shutil.rmtree(model_dir)  # the answer needs only the large ref
    answer = json.loads(route(["query", "--candidate", "embedding", "--json", QUESTION], geo_repo.path).stdout)
    assert answer["rows"][0]["path"] == "src/sample/geo.py"
