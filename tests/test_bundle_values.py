"""Every value a fetched bundle supplies is checked (issue 25, items 1-5): a forged row, a malformed shard, a blob
too large for its kind, a gitlink or a blob where a folder belongs, a NaN; each is `fatal: the bundle at '…' is
damaged: …` (exit 128), never an answer, an internal error or a silent no_match. bench/fuzz_bundle.py mutates
every blob of a real bundle the same ways; a small run of it is the last test here."""
from __future__ import annotations

import json
import math

import pygit2
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pygit2.enums import FileMode

from gitroute.bundle.graph import node_shard
from gitroute.model import Answer, Row, Source
from tests.conftest import load_script
from tests.test_trust import BUNDLE_REF, DAMAGED, FATAL, assert_damaged

FUZZ = load_script("bench/fuzz_bundle.py")


@pytest.fixture
def built(sample_repo, route):
    """The sample project with its bundle built, and the bundle's tree ready to be rewritten."""
    assert route(["build", "-q"], sample_repo.path).exit_code == 0
    return sample_repo


def rewrite(repo, changes: dict) -> None:
    """Point the bundle ref at its tree with `changes` (path -> bytes, (mode, id), or None to remove) made."""
    bundle = FUZZ.Bundle(repo.repo)
    made = {}
    for path, change in changes.items():
        made[path] = (FileMode.BLOB, repo.repo.create_blob(change)) if isinstance(change, bytes) else change
    bundle.commit(made)


def blob(repo, path: str) -> object:
    tree = repo.repo[pygit2.Oid(hex=repo.bundle_tree())]
    return json.loads(tree[path].data)


def node_chunk(repo, name: str) -> tuple[str, list, int]:
    """The graph's node chunk that holds the node named `name`: (its path, its records, the record's place)."""
    from gitroute.bundle.graph import load_node_shard

    tree = repo.repo[pygit2.Oid(hex=repo.bundle_tree())]
    for entry in tree["graph/nodes"]:
        records = list(load_node_shard(repo.repo[entry.id].data))
        for n, record in enumerate(records):
            if record[1] == name:
                return f"graph/nodes/{entry.name}", records, n
    raise AssertionError(name)


# --- 1. rows are checked before they are shown ------------------------------------------------------------

FORGED = {
    "path out of the repository": (0, "../../../../etc/passwd"),
    "absolute path": (0, "/etc/passwd"),
    "line zero": (4, 0),
    "line past any file": (4, 2**62 + 7),
    "name with an escape": (1, "OpenMeteoClient\x1b[2J"),
    "name with a newline": (1, "OpenMeteoClient\nfatal: forged"),
}


@pytest.mark.parametrize("field, value", FORGED.values(), ids=list(FORGED))
@pytest.mark.parametrize("args", [["query", "open meteo client"], ["query", "--json", "open meteo client"],
                                  ["ask", "open meteo client"], ["ask", "--json", "open meteo client"]],
                         ids=["text", "json", "ask", "ask-json"])
def test_a_forged_row_is_damaged_in_every_form(built, route, field, value, args):
    path, records, n = node_chunk(built, "OpenMeteoClient")
    records[n][field] = value
    rewrite(built, {path: node_shard(records)})

    result = route(args, built.path)

    assert result.exit_code == FATAL, result.stderr
    assert result.stderr.splitlines()[0].startswith(DAMAGED), result.stderr
    assert "/etc/passwd" not in result.stdout and "\x1b" not in result.stdout + result.stderr
    if "--json" in args:
        assert json.loads(result.stdout)["status"] == "error"
    else:
        assert result.stdout == ""


def test_a_forged_row_is_an_error_of_the_mcp_tool_too(built):
    from tests.test_mcp import session_run

    path, records, n = node_chunk(built, "OpenMeteoClient")
    records[n][0] = "../../../../etc/passwd"
    rewrite(built, {path: node_shard(records)})

    async def steps(call, tools):
        return await call("query", {"text": "OpenMeteoClient"}), await call("ask", {"text": "OpenMeteoClient"})

    for document, is_error in session_run(built.path, steps):
        assert is_error and document["error"]["exit"] == FATAL
        assert document["error"]["message"].startswith(DAMAGED.removeprefix("fatal: "))


def test_a_file_row_named_with_a_control_character_is_still_answered(make_repo, route):
    # git allows any character but NUL in a file name: such a file's row is named by it, and is no forgery.
    repo = make_repo()
    repo.commit({"src/tab\there.py": "def tab_here():\n    pass\n"})
    assert route(["build", "-q"], repo.path).exit_code == 0
    result = route(["query", "--json", "tab here"], repo.path)
    assert result.exit_code == 0, result.stderr
    assert "src/tab\there.py" in {row["path"] for row in json.loads(result.stdout)["rows"]}


def test_the_answer_check_names_the_row_and_never_echoes_its_value():
    from gitroute.bundle.validate import BadValue, check_answer

    source = Source(BUNDLE_REF, "0" * 40, "main", 0)
    good = Row("src/a.py", 3, "f", "function", 1.5, (("name", 1.0),), (("depth", 2),))
    assert check_answer(Answer("routed", source, (good,))).rows == (good,)
    for bad in (good._replace(path="a/../../b"), good._replace(line=0), good._replace(line=True),
                good._replace(name="x" * 3000), good._replace(name="a\x1bb"), good._replace(score=math.nan),
                good._replace(signals=(("name", math.inf),)), good._replace(extra=(("depth", 2**63),)),
                good._replace(kind="a\nb")):
        with pytest.raises(BadValue, match="of row 2 of its answer") as raised:
            check_answer(Answer("routed", source, (good, bad)))
        assert "\x1b" not in str(raised.value) and "../" not in str(raised.value)


# --- 2. malformed shard contents ---------------------------------------------------------------------------


def deep(depth: int = 5000) -> bytes:  # past what the parser takes, under every ceiling
    return b"[" * depth + b"]" * depth


def test_deeply_nested_json_in_any_blob_is_damaged(built, route):
    path, _, _ = node_chunk(built, "OpenMeteoClient")
    for target, args in ((path, ["query", "OpenMeteoClient"]), ("symbols/meta.json", ["query", "OpenMeteoClient"]),
                         ("decisions/meta.json", ["why", "why open meteo"]),
                         ("doc_links/docs.json", ["code", "README.md"])):
        rewrite(built, {target: deep()})
        result = route(args, built.path)
        assert_damaged(result)
        assert result.stderr.splitlines()[0] in (f"{DAMAGED}'{target}' is nested too deeply",
                                                 f"{DAMAGED}'{target}' is unreadable")


def test_postings_of_the_wrong_shape_are_damaged(built, route):
    from gitroute.bundle.varints import dump_varint_shard, encode_varints, load_varint_shard

    tree = built.repo[pygit2.Oid(hex=built.bundle_tree())]
    for entry in tree["symbols/postings"]:
        shard = load_varint_shard(built.repo[entry.id].data)
        if "meteo" in shard:
            break
    path = f"symbols/postings/{entry.name}"
    # Symbols' postings are three lists of ids, each its length then its gaps: lists that run past the value, too
    # few lists, numbers left over, a varint cut short.
    for forged in (encode_varints([9, 1]), encode_varints([1, 0, 0]), encode_varints([0, 0, 0, 4]), b"\xff"):
        shard["meteo"] = forged
        rewrite(built, {path: dump_varint_shard(shard)})
        assert_damaged(route(["query", "open meteo"], built.path), f"'{path}' is unreadable")


def test_a_nan_in_a_blob_is_damaged(built, route):
    section = blob(built, "decisions/meta.json")
    text = json.dumps({**section, "avgdl": math.nan})  # Python writes NaN, which is no JSON
    rewrite(built, {"decisions/meta.json": text.encode()})
    assert_damaged(route(["why", "why open meteo"], built.path), "'decisions/meta.json' is unreadable")


def test_status_with_a_gitlink_in_the_bundle_tree_is_damaged(built, route):
    head = built.repo.references["refs/heads/main"].target
    rewrite(built, {"doc_links/docs.json": (FileMode.COMMIT, head)})
    assert_damaged(route(["status"], built.path), "'doc_links/docs.json' is a gitlink, not a blob")


# --- 3. a blob larger than its kind ever is ----------------------------------------------------------------


def test_a_shard_past_its_kinds_ceiling_is_refused_before_it_is_read(built, route):
    from gitroute.bundle.validate import blob_ceiling

    section = blob(built, "symbols/meta.json")
    path = "symbols/postings/" + sorted(e.name for e in
                                        built.repo[pygit2.Oid(hex=built.bundle_tree())]["symbols/postings"])[0]
    ceiling = blob_ceiling(path, section["counts"])
    assert ceiling is not None and ceiling < 4 << 20  # a hundred-node project: its shards are kilobytes
    rewrite(built, {path: b"{}" + b" " * ceiling})
    result = route(["query", "--json", "open meteo forecast"], built.path)
    assert result.exit_code == FATAL
    assert result.stderr.splitlines()[0] == (
        f"{DAMAGED}'{path}' is {ceiling + 2:,} bytes, more than a bundle of its counts holds ({ceiling:,})")


def test_the_object_reader_stops_at_an_object_larger_than_allowed(built):
    from gitroute.git.catfile import ObjectReader, ObjectTooLarge

    big = str(built.repo.create_blob(b"x" * 1_000_000))
    small = str(built.repo.create_blob(b"small"))
    with ObjectReader(str(built.path)) as reader:
        with pytest.raises(ObjectTooLarge) as raised:
            reader.read([small, big, small], [None, 999_999, None])
        assert (raised.value.index, raised.value.size) == (1, 1_000_000)
        # git was stopped rather than drained; the next read starts it again
        assert reader.read([small, big])[0][2] == b"small"


def test_every_blob_an_answer_reads_has_a_ceiling_above_its_size(built):
    from gitroute.bundle.validate import BLOB_CEILINGS, blob_ceiling, blob_kind

    tree = built.repo[pygit2.Oid(hex=built.bundle_tree())]
    sections = {}
    for index in {kind[0] for kind in BLOB_CEILINGS.values()}:
        sections[index] = json.loads(tree[f"{index}/meta.json"].data)
    seen = set()
    for path, oid in FUZZ.Bundle(built.repo).blobs.items():
        if path.startswith("extract/"):  # read by a build, only from this repository's own bundles
            continue
        kind = BLOB_CEILINGS.get(blob_kind(path))
        ceiling = blob_ceiling(path, sections[kind[0]]["counts"] if kind else None)
        assert ceiling is not None and ceiling > 10 * built.repo[oid].size, path
        seen.add(blob_kind(path))
    assert {"graph/nodes", "graph/in", "symbols/postings", "impact/names", "meaning/postings", "decisions/rows"} <= seen


# --- 4. a folder or a blob of the wrong kind is damage, not an empty answer -----------------------------------


@pytest.mark.parametrize("target, entry, args, why", [
    ("symbols", "gitlink", ["query", "OpenMeteoClient"], "'symbols' is a gitlink, not a folder"),
    ("symbols/postings", "gitlink", ["query", "OpenMeteoClient"], "'symbols/postings' is a gitlink, not a folder"),
    ("graph/in", "gitlink", ["impact", "OpenMeteoClient"], "'graph/in' is a gitlink, not a folder"),
    ("graph/in", "blob", ["impact", "OpenMeteoClient"], "'graph/in' is a blob, not a folder"),
    ("doc_links/by_target", "blob", ["docs", "OpenMeteoClient"], "'doc_links/by_target' is a blob, not a folder"),
    ("symbols/meta.json", "tree", ["query", "OpenMeteoClient"], "'symbols/meta.json' is a folder, not a blob"),
])
def test_an_entry_of_the_wrong_kind_is_damaged(built, route, target, entry, args, why):
    repo = built.repo
    made = {"gitlink": (FileMode.COMMIT, repo.references["refs/heads/main"].target),
            "blob": (FileMode.BLOB, repo.create_blob(b"{}")),
            "tree": (FileMode.TREE, repo[pygit2.Oid(hex=built.bundle_tree())]["graph"].id)}[entry]
    rewrite(built, {target: made})
    assert_damaged(route(args, built.path), why)


# --- 5. no NaN, ever -----------------------------------------------------------------------------------------


def test_json_output_refuses_a_non_finite_number():
    from gitroute.cli.output import render_json

    with pytest.raises(ValueError):
        render_json({"score": math.nan})


# --- 6. the fuzz run, small -------------------------------------------------------------------------------


def test_a_small_fuzz_run_over_every_index_gives_only_answers_or_the_damaged_fatal(tmp_path):
    report = FUZZ.fuzz(cases=240, seed=3, files=FUZZ.sample_files(), work=tmp_path)
    assert report["failures"] == [], report["failures"][:3]
    assert report["cases"] == 240
    assert report["outcomes"].get("damaged", 0) > 40  # the mutations reached what the questions read
    targets = {target.split("/")[0] for target in report["targets"]}
    assert {"graph", "symbols", "impact", "wiring", "doc_links", "decisions", "meaning"} <= targets


def test_a_document_row_the_index_does_not_list_is_damaged(make_repo, route):
    from tests.conftest import SAMPLE_FILES

    repo = make_repo()
    repo.commit({**SAMPLE_FILES, "docs/guide.md": "# Guide\n\n`OpenMeteoClient` fetches forecasts.\n"})
    assert route(["build", "-q"], repo.path).exit_code == 0
    assert json.loads(route(["docs", "--json", "OpenMeteoClient"], repo.path).stdout)["rows"][0]["path"] \
        == "docs/guide.md"
    from gitroute.indexes.doc_links import BY_TARGET
    from gitroute.indexes.doc_links.storage import by_target

    # A record names its document by its place in docs.json: a place past its end, in a shard as a build's codec
    # spells it (a document the bundle never indexed, at the next place), is a damaged shard.
    documents = [entry[0] for entry in json.loads(repo.repo[pygit2.Oid(hex=repo.bundle_tree())]
                                                  ["doc_links/docs.json"].data)]
    codec = by_target([*documents, "docs/forged.md"]).codec
    tree = repo.repo[pygit2.Oid(hex=repo.bundle_tree())]
    for entry in tree["doc_links/by_target"]:
        held = codec.decode_shard(codec.load_shard(repo.repo[entry.id].data))
        if "docs/guide.md" in {record[0] for records in held.values() for record in records}:
            break
    forged = {key: [["docs/forged.md" if record[0] == "docs/guide.md" else record[0], *record[1:]]
                    for record in records] for key, records in held.items()}
    rewrite(repo, {f"doc_links/by_target/{entry.name}": codec.dump_shard(codec.encode_shard(forged))})
    assert BY_TARGET.codec.decode_shard(BY_TARGET.codec.load_shard(codec.dump_shard(codec.encode_shard(forged))))
    assert_damaged(route(["docs", "OpenMeteoClient"], repo.path),
                   f"'doc_links/by_target/{entry.name}' is unreadable")


def test_a_value_of_the_wrong_shape_no_floor_check_catches_is_damage_in_a_fetched_bundle_only(make_repo, route):
    from gitroute.bundle.store import BundleView

    repo = make_repo()
    repo.commit({path: data.decode() for path, data in FUZZ.sample_files().items()})
    assert route(["build", "-q"], repo.path).exit_code == 0
    asked = ["why", "why forecasts from open meteo rather than scraping"]
    assert route(asked, repo.path).exit_code == 0
    with BundleView(str(repo.path)) as view:  # this repository's own build, by this code: an error is a bug
        assert view.shape_damage(TypeError("x")) is None
        assert view.shape_damage(KeyboardInterrupt()) is None
    records = blob(repo, "decisions/records.json")
    rewrite(repo, {"decisions/records.json": json.dumps([record[:2] for record in records]).encode()})
    with BundleView(str(repo.path)) as view:
        assert view.shape_damage(TypeError("x")).why == "a value read from it is not of the shape its index writes " \
                                                        "(TypeError)"
    assert_damaged(route(asked, repo.path), "a value read from it is not of the shape its index writes (ValueError)")


def test_a_committed_heading_of_control_characters_or_great_length_is_answered_not_damaged(make_repo, route):
    # Rows are named by headings: the build cuts a heading and spaces its control characters, so that no
    # committed file makes a bundle that its own answers call forged.
    repo = make_repo()
    long = "Use the widget cache " + "really " * 500
    repo.commit({"src/widget.py": "def render_widget():\n    pass\n", "docs/adr/0001-cache.md": (
        f"# ADR 1: cache\n\n## Status\n\nAccepted\n\n## {long}\n\nWe decided to cache widgets because rendering is "
        "slow.\n\n## Esc \x1b[31m heading\n\nWe decided to render widgets lazily because the cache is cold.\n")})
    assert route(["build", "-q"], repo.path).exit_code == 0
    for question in ("why cache widgets rendering slow", "why render widgets lazily cold"):
        result = route(["why", "--json", question], repo.path)
        assert result.exit_code == 0, result.stderr
        names = [row["name"] for row in json.loads(result.stdout)["rows"]]
        assert "Esc [31m heading" in names and all(len(name) <= 1000 and "\x1b" not in name for name in names)


@settings(max_examples=80, deadline=None)
@given(names=st.lists(st.text(st.sampled_from("0123456789.jsonb /x"), min_size=1, max_size=8), unique=True,
                      max_size=30),
       ids=st.lists(st.binary(min_size=20, max_size=20), min_size=30, max_size=30),
       asked=st.lists(st.text(st.sampled_from("0123456789.jsonb x"), min_size=1, max_size=8), max_size=10))
def test_a_large_tree_looked_up_by_name_answers_as_the_tree_parsed_whole(names, ids, asked):
    """`LazyTree` finds an entry by searching the raw tree for its name: the same (mode, id) as the whole tree
    parsed, none for a name it does not hold (a name inside another, or inside an object id, included)."""
    from gitroute.bundle.store import BLOB_MODES, TREE_MODE, LazyTree, parse_tree

    names = [n for n in names if "/" not in n and " " not in n]
    modes = [BLOB_MODES[0], TREE_MODE, BLOB_MODES[1]]
    data = b"".join(modes[k % 3] + b" " + name.encode() + b"\0" + ids[k] for k, name in enumerate(sorted(names)))
    whole = parse_tree(data)
    lazy = LazyTree(data, 40)
    for name in [*names, *asked]:
        assert lazy.get(name) == whole.get(name)
    assert sorted(lazy) == sorted(whole)


@settings(max_examples=150, deadline=None)
@given(numbers=st.lists(st.integers(0, 99_999), unique=True, max_size=60),
       ids=st.lists(st.binary(min_size=20, max_size=20), min_size=60, max_size=60),
       asked=st.lists(st.integers(0, 100_000), max_size=10),
       flips=st.lists(st.tuples(st.integers(0, 10_000), st.sampled_from(list(b" \0x0/9"))), max_size=3),
       mode=st.sampled_from([b"100644", b"100755", b"40000", b"120000"]))
def test_a_tree_of_rows_looked_up_by_bisection_answers_as_the_tree_parsed_whole(numbers, ids, asked, flips, mode):
    """A large folder of shards named alike (`00042.bin`) is rows of one size, found by bisection: a sorted one
    answers as the tree parsed whole; with bytes changed (a space or NUL moved, a name out of order) it is read as
    rows only when `parse_tree` reads the same rows, and then finds none or one of the rows of that name."""
    from gitroute.bundle.store import LazyTree, _columns, parse_tree

    data = bytearray(b"".join(mode + b" " + b"%05d.bin" % n + b"\0" + ids[k] for k, n in enumerate(sorted(numbers))))
    for at, value in flips:
        if data:
            data[at % len(data)] = value
    data = bytes(data)
    columns = _columns(data, 20)
    if columns is None:
        assert flips or not data  # shards named alike are always rows
        return
    size, start, length, count = columns
    rows = [(data[k * size:k * size + start - 1], data[k * size + start:k * size + start + length],
             data[k * size + start + length + 1:(k + 1) * size].hex()) for k in range(count)]
    whole = parse_tree(data)  # rows are what parse_tree reads: it never refuses them
    assert [(mode, name.decode("utf-8", "surrogateescape"), oid) for mode, name, oid in rows] == [
        (mode, name, oid) for name, (mode, oid) in whole.items()] or len(whole) < count
    lazy = LazyTree(data, 40)
    for number in [*numbers, *asked, -1]:
        name = b"%05d.bin" % number if number >= 0 else b"0.bin"
        found = lazy.get(name.decode("utf-8", "surrogateescape"))
        if not flips:
            assert found == whole.get(name.decode())
        else:
            assert found is None or found in [(mode, oid) for mode, row, oid in rows if row == name]


# --- what a sentence asks git for ahead (`BundleView.read_ahead`) -----------------------------------------------


def test_blobs_and_trees_read_ahead_are_the_ones_read_in_turn_and_never_asked_twice(built):
    from gitroute.bundle.store import BundleView

    paths = ["meaning/lengths.bin", "meaning/files.bin", "symbols/meta.json", "meaning/no-such.bin"]
    folders = ["graph/nodes", "graph/pages", "no/such/folder"]
    with BundleView(str(built.path)) as plain:
        expected = plain.read(paths)
        listings = {folder: plain.listing(folder) for folder in folders}
    with BundleView(str(built.path)) as view:
        view.section("meaning")  # the folder whose tree a blob read ahead is named from
        view.section("symbols")
        view.read_ahead(paths, folders)
        asked = set(view._ahead.asked)
        assert len(asked) == 6, asked  # three blobs the bundle holds, three folders (absent ones read all the same)
        read_by_main: list[str] = []
        main_read = view.reader.read
        view.reader.read = lambda specs, most=None: read_by_main.extend(specs) or main_read(specs, most)
        assert view.read(paths) == expected
        assert {folder: view.listing(folder) for folder in folders} == listings
        assert not view._ahead.asked, "an object read ahead was left unread"
        absent = {f"{view.commit}:{folder}" for folder, names in listings.items() if not names}
        assert not asked & set(read_by_main) - absent, "read twice"  # an absent one is looked for again, as ever
        assert listings["graph/nodes"] and not listings["no/such/folder"]


def test_a_blob_over_its_ceiling_read_ahead_is_refused_as_a_plain_read_refuses_it(built, route, monkeypatch):
    """A sentence on a large bundle reads the file table ahead: an oversized one is still `fatal: ... damaged`, with the
    words a plain read has, and a sentence's answer is the same with and without reading ahead."""
    import gitroute.query as query_module
    from gitroute.bundle.validate import blob_ceiling

    question = ["query", "--json", "where are the hourly forecast rows parsed"]
    monkeypatch.setattr(query_module, "AHEAD_MIN_NODES", 10**9)
    plain = route(question, built.path)
    monkeypatch.setattr(query_module, "AHEAD_MIN_NODES", 0)
    ahead = route(question, built.path)
    assert plain.exit_code == ahead.exit_code == 0 and json.loads(plain.stdout)["rows"]
    assert ahead.stdout == plain.stdout
    path = "meaning/files.bin"
    ceiling = blob_ceiling(path, blob(built, "meaning/meta.json")["counts"])
    assert ceiling is not None
    rewrite(built, {path: b"x" * (ceiling + 1)})
    refused = route(question, built.path)
    monkeypatch.setattr(query_module, "AHEAD_MIN_NODES", 10**9)
    assert route(question, built.path).stderr == refused.stderr
    assert refused.exit_code == FATAL
    assert refused.stderr.splitlines()[0] == (
        f"{DAMAGED}'{path}' is {ceiling + 1:,} bytes, more than a bundle of its counts holds ({ceiling:,})")
