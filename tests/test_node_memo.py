"""The node table a large graph's worker keeps for the next build (gitroute/bundle/node_memo.py): unchanged files' rows
are taken from it, and what it hands back is always the table made whole from the nodes.

Files are parsed for real (tree-sitter through gitroute.parsing); builds run on real git repositories.
"""
from __future__ import annotations

import hashlib
import marshal
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitroute.bundle import node_memo
from gitroute.bundle.node_memo import NODES_FILE, keep_nodes, load_nodes, read_earlier, write_nodes
from gitroute.errors import GitrouteError
from gitroute.graph import NodeTable, SourceFile, build_graph
from gitroute.parsing import extract, language_for_path

SALT = "salt-of-this-code"


def _text(name: str, functions: int, version: int = 0) -> str:
    return "".join(f"def {name}_{j}(x):\n    '''Doc {j} of {name}, version {version}.'''\n    return x + {j}\n\n\n"
                   for j in range(functions))


def _sources(texts: dict[str, str]) -> list[SourceFile]:
    sources = []
    for path, text in sorted(texts.items()):
        lang = language_for_path(path)
        sources.append(SourceFile(path, hashlib.sha1(text.encode()).hexdigest(), lang,
                                  extract(text.encode(), lang) if lang else None))
    return sources


def _write_and_keep(folder: Path, texts: dict[str, str], *, reuse: bool = True) -> NodeTable:
    """What a large build's worker and its parent do: place the nodes without details, write the table (from the
    kept one, if any), load it back and keep it. Checks it against the table made whole from the detailed nodes."""
    sources = _sources(texts)
    bare = build_graph(sources, details=False).nodes
    symbols = {f.path: f.extract.symbols for f in sources if f.extract}
    facts = {f.path: (f.blob, f.lang or "") for f in sources}
    earlier = read_earlier(str(folder), SALT) if reuse else None
    written = folder / f"{NODES_FILE}.test.tmp"
    with open(written, "w+b") as out:
        write_nodes(out, bare, facts, symbols, SALT, earlier)
        table = load_nodes(out, str(folder))
    if earlier is not None:
        earlier.source.close()
    keep_nodes(str(written), str(folder))
    whole = build_graph(sources).nodes
    assert table == whole
    assert table.path_counts() == NodeTable.from_nodes(whole).path_counts()
    assert table.kind_counts() == NodeTable.from_nodes(whole).kind_counts()
    assert table.ids_of("function") == NodeTable.from_nodes(whole).ids_of("function")
    return table


def _replaced(folder: Path) -> int:
    earlier = read_earlier(str(folder), SALT)
    assert earlier is not None, "no table kept"
    earlier.source.close()
    return earlier.replaced


def test_a_one_file_change_takes_every_other_files_rows_from_the_kept_table(tmp_path: Path) -> None:
    texts = {f"pkg/m{i:02d}.py": _text(f"f{i}", 3) for i in range(40)}
    texts["README.md"] = "# r\n"
    _write_and_keep(tmp_path, texts)
    assert _replaced(tmp_path) == 0
    # One file grows (the ids after it in its bucket move), one goes, one comes: only theirs are encoded again.
    texts["pkg/m07.py"] = _text("f7", 5, version=1)
    del texts["pkg/m08.py"]
    texts["pkg/new.py"] = _text("n", 2)
    _write_and_keep(tmp_path, texts)
    assert _replaced(tmp_path) == (1 + 5) + (1 + 2)
    # The same files again: nothing is encoded again; a language's change is a change.
    _write_and_keep(tmp_path, texts)
    assert _replaced(tmp_path) == 9
    texts["pkg/m09.pyi"] = texts.pop("pkg/m09.py")
    _write_and_keep(tmp_path, texts)
    assert _replaced(tmp_path) == 9 + 4


def test_past_a_quarter_of_its_rows_replaced_the_table_is_made_whole_again(tmp_path: Path) -> None:
    texts = {f"m{i}.py": _text(f"f{i}", 2) for i in range(12)}
    _write_and_keep(tmp_path, texts)
    for i in range(4):  # 4 files of 12: a third of the rows
        texts[f"m{i}.py"] = _text(f"f{i}", 2, version=1)
    _write_and_keep(tmp_path, texts)
    assert _replaced(tmp_path) == 4 * 3
    texts["m5.py"] = _text("f5", 2, version=1)
    _write_and_keep(tmp_path, texts)
    assert _replaced(tmp_path) == 0, "the table was not made whole again"
    texts["m6.py"] = _text("f6", 2, version=1)
    _write_and_keep(tmp_path, texts)
    assert _replaced(tmp_path) == 3


@settings(max_examples=25, deadline=None)
@given(st.lists(st.dictionaries(st.sampled_from([f"p/m{i}.py" for i in range(8)] + ["p/x.c", "doc.md"]),
                                st.tuples(st.integers(0, 4), st.integers(0, 2)), min_size=1), min_size=1, max_size=5))
def test_any_sequence_of_commits_hands_back_the_table_made_whole(tmp_path_factory, commits) -> None:
    """Files come, go, grow, shrink and change their docs, commit after commit: each table handed back is the one
    made whole from the nodes (checked in `_write_and_keep`), whether rows were taken from a kept table or not."""
    folder = tmp_path_factory.mktemp("nodes")
    for files in commits:
        texts = {}
        for path, (functions, version) in files.items():
            if path.endswith(".c"):
                texts[path] = "".join(f"/* v{version} */\nint c{j}(int a) {{ return a + {j}; }}\n"
                                      for j in range(functions))
            else:
                texts[path] = _text(path.split("/")[-1][:-3], functions, version) if path.endswith(".py") else "# d\n"
        _write_and_keep(folder, texts)


def _damaged(folder: Path, damage) -> None:
    path = folder / NODES_FILE
    data = bytearray(path.read_bytes())
    damage(data)
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("damage", [
    lambda data: data.__delitem__(slice(len(data) // 2, None)),  # cut short
    lambda data: data.__setitem__(slice(0, 8), (10**12).to_bytes(8, "little")),  # the trailer beyond the end
    lambda data: data.__setitem__(slice(0, 8), b"\0" * 8),  # no trailer (a write cut short)
    lambda data: data.__setitem__(slice(8, 40), b"\xff" * 32),  # the head
    lambda data: data.__setitem__(slice(-30, None), b"\x00" * 30),  # the trailer
], ids=["truncated", "trailer-beyond", "no-trailer", "head", "trailer"])
def test_a_damaged_kept_table_is_no_table(tmp_path: Path, damage) -> None:
    texts = {f"m{i}.py": _text(f"f{i}", 3) for i in range(10)}
    _write_and_keep(tmp_path, texts)
    _damaged(tmp_path, damage)
    assert read_earlier(str(tmp_path), SALT) is None
    texts["m1.py"] = _text("f1", 3, version=1)
    _write_and_keep(tmp_path, texts)  # made whole, and right
    assert _replaced(tmp_path) == 0


def test_a_table_other_code_kept_or_codes_past_their_strings_are_not_read(tmp_path: Path) -> None:
    texts = {f"m{i}.py": _text(f"f{i}", 3) for i in range(10)}
    _write_and_keep(tmp_path, texts)
    assert read_earlier(str(tmp_path), "another salt") is None
    earlier = read_earlier(str(tmp_path), SALT)
    assert earlier is not None
    earlier.source.close()
    # A code one past its column's strings (the names'), where the codes are: the whole table is refused.
    with open(tmp_path / NODES_FILE, "rb") as f:
        f.seek(8)
        marshal.load(f)
        names_codes_at = f.tell() + 3 * 8 * earlier.rows + 4 * earlier.rows
    data = bytearray((tmp_path / NODES_FILE).read_bytes())
    data[names_codes_at:names_codes_at + 4] = earlier.sizes[1].to_bytes(4, "little")
    (tmp_path / NODES_FILE).write_bytes(bytes(data))
    assert read_earlier(str(tmp_path), SALT) is None


@pytest.mark.parametrize("at", [0, 7, 8], ids=["chunk-length-low", "chunk-length-high", "chunk-type"])
def test_strings_damaged_where_they_are_copied_stop_the_build_and_remove_the_kept_table(tmp_path: Path,
                                                                                       at: int) -> None:
    """The strings of the columns not read by value are copied as bytes: damage there (a chunk's length, its
    contents) is found when the table is loaded back, which names it, removes the kept table, and the next write
    makes it whole."""
    texts = {f"m{i}.py": _text(f"f{i}", 3) for i in range(10)}
    _write_and_keep(tmp_path, texts)
    earlier = read_earlier(str(tmp_path), SALT)
    assert earlier is not None
    earlier.source.close()
    start, end = earlier.spans[4]  # the signatures'
    _damaged(tmp_path, lambda data: data.__setitem__(slice(start + at, start + at + 1), b"\xee"))
    texts["m1.py"] = _text("f1", 3, version=1)
    with pytest.raises(GitrouteError, match="node table the last build kept was damaged"):
        _write_and_keep(tmp_path, texts)
    assert not (tmp_path / NODES_FILE).exists()
    _write_and_keep(tmp_path, texts)
    assert _replaced(tmp_path) == 0


def test_where_the_memo_folder_cannot_be_written_the_table_goes_to_an_anonymous_file(tmp_path: Path) -> None:
    blocked = tmp_path / "memo"
    blocked.write_text("a file where the folder would be")
    out, kept = node_memo.nodes_target(str(blocked))
    with out:
        assert kept is None and out.writable()
    out, kept = node_memo.nodes_target(str(tmp_path / "fresh"))
    with out:
        assert kept is not None and os.path.dirname(kept) == str(tmp_path / "fresh")
    os.unlink(kept)


def test_a_large_builds_one_file_rebuild_takes_rows_from_the_table_its_last_build_kept(tmp_path: Path,
                                                                                    monkeypatch) -> None:
    """The lean way (forced), on a real repository: the table is kept in the memo's folder (no temporary file left),
    a one-file commit replaces that file's rows only, and the bundle is the one `--full` writes."""
    from gitroute import build as build_module
    from gitroute.build import run_build
    from gitroute.bundle.memo import MEMO_DIR, code_salt
    from tests.conftest import RepoBuilder

    monkeypatch.setattr(build_module, "PARALLEL_MIN_NODES", 0)
    monkeypatch.setattr(build_module, "LEAN_MIN_NODES", 0)
    repo = RepoBuilder(tmp_path / "r")
    texts = {f"src/m{i:02d}.py": _text(f"f{i}", 3) for i in range(30)}
    repo.commit(texts)
    run_build("HEAD", repo_path=str(repo.path), jobs=2)
    folder = repo.path / ".git" / MEMO_DIR
    assert (folder / NODES_FILE).exists() and not list(folder.glob("*.tmp"))
    texts["src/m03.py"] = _text("f3", 4, version=1)
    repo.commit(texts)
    one = run_build("HEAD", repo_path=str(repo.path), jobs=2)
    earlier = read_earlier(str(folder), code_salt())
    assert earlier is not None
    earlier.source.close()
    assert earlier.replaced == 1 + 4
    assert one.bundle_tree == run_build("HEAD", repo_path=str(repo.path), jobs=2, full=True).bundle_tree
    assert not list(folder.glob("*.tmp"))


def test_rows_the_kept_table_places_at_another_files_rows_are_encoded_again(tmp_path: Path) -> None:
    """A run's place misread (two files' starts swapped in the trailer): their rows are not taken from there, since
    the rows copied must be the path's own; the table handed back is still the one made whole."""
    texts = {f"m{i}.py": _text(f"f{i}", 3) for i in range(10)}
    _write_and_keep(tmp_path, texts)
    path = tmp_path / NODES_FILE
    data = path.read_bytes()
    trailer_at = int.from_bytes(data[:8], "little")
    form, salt, spans, runs, replaced = marshal.loads(data[trailer_at:])
    (facts1, start1), (facts2, start2) = runs["m1.py"], runs["m2.py"]
    assert facts1[2] == facts2[2] and start1 != start2
    runs["m1.py"], runs["m2.py"] = (facts1, start2), (facts2, start1)
    path.write_bytes(data[:trailer_at] + marshal.dumps((form, salt, spans, runs, replaced)))
    _write_and_keep(tmp_path, texts)
    assert _replaced(tmp_path) == 2 * facts1[2]
