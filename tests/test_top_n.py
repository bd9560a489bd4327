"""`--limit N` gives the true top N: reading records by their postings bound ranks as scoring every candidate does."""
from __future__ import annotations

import json
import random
import sys
from bisect import bisect_right
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitroute import api
from gitroute.bundle.store import BundleView
from gitroute.errors import BundleDamaged
from gitroute.indexes import symbols
from gitroute.indexes.meaning import file_starts
from gitroute.indexes.symbols import Filters, query_symbols
from gitroute.indexes.symbols.bounds import FACT_BITS, FACTS, posting_bits, split_by_facts
from gitroute.rank import idf, node_text, parse_question, path_words, score_text
from gitroute.text import STOP_WORDS
from tests.conftest import RepoBuilder, run_route

# Words of a made-up project: plurals and their singulars, stop words that names use (get, for,
# to), digits, words that split differently in camel case (HTTPServer, getURL), test and doc words.
WORDS = ["model", "models", "query", "set", "get", "for", "to", "url", "http", "server", "cache", "session",
         "field", "form", "valid", "validate", "validator", "admin", "site", "user", "users", "token", "csrf",
         "middleware", "render", "widget", "parse", "parser", "config", "settings", "setting", "main", "run",
         "start", "signal", "2", "404", "test", "example", "doc", "entry", "point", "a"]
FOLDERS = ["core", "core/db", "contrib/admin", "contrib/auth", "http", "utils", "tests", "tests/db", "docs",
           "examples", "forms", "views", "models", "cache/backends"]


def _name(rng: random.Random, style: str, n: int) -> str:
    words = [rng.choice(WORDS) for _ in range(n)]
    if style == "camel":
        return "".join(w[:1].upper() + w[1:] for w in words)
    if style == "mixed":
        return words[0] + "".join(w.upper() if len(w) <= 4 else w.title() for w in words[1:])
    return "_".join(words)


def _module(rng: random.Random) -> str:
    lines: list[str] = []
    if rng.random() < 0.5:
        lines.append(f'"""{" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 8)))}."""')
    for _ in range(rng.randint(1, 5)):
        if rng.random() < 0.5:
            lines.append(f"class {_name(rng, rng.choice(['camel', 'mixed']), rng.randint(1, 3))}:")
            if rng.random() < 0.6:
                lines.append(f'    """{" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 10)))}."""')
            for _ in range(rng.randint(1, 4)):
                lines.append(f"    def {_name(rng, 'snake', rng.randint(1, 3))}(self):")
                if rng.random() < 0.4:
                    lines.append(f'        """{" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 6)))}."""')
                lines.append("        pass")
        else:
            lines.append(f"def {_name(rng, 'snake', rng.randint(1, 4))}():")
            if rng.random() < 0.4:
                lines.append(f'    """{" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 10)))}."""')
            lines.append("    pass")
        lines.append("")
    if rng.random() < 0.1:
        lines += ["", 'if __name__ == "__main__":', "    pass"]
    return "\n".join(lines) + "\n"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory):
    """A built repository of a few hundred files and about two thousand symbols, and a view of its bundle."""
    rng = random.Random(5)
    files: dict[str, object] = {}
    while len(files) < 300:
        folder = rng.choice(FOLDERS)
        base = _name(rng, "snake", rng.randint(1, 2))
        base = f"test_{base}" if folder.startswith("tests") and rng.random() < 0.7 else base
        files[f"{folder}/{base}.py"] = _module(rng)
    repo = RepoBuilder(Path(tmp_path_factory.mktemp("topn")) / "repo")
    repo.commit(files, "corpus")
    built = run_route(["build", "-q"], repo.path)
    assert built.exit_code == 0, built.stderr
    with BundleView(str(repo.path)) as view:
        yield view


def _rows(view: BundleView, text: str, limit: int, filters: Filters, exhaustive: bool,
          common_postings: int = 2000, warm: bool | str = False, cold_budget: int = 0, floor: float = 0.0,
          ) -> list[tuple]:
    """`warm`: True as a warm server answers (every node's path words and kind known, a tighter bound); "files" as a
    cold query given the files' node ids (each candidate's path words bounded by its file's postings), read after
    `cold_budget` nodes are scored."""
    index = view.index("symbols")
    if warm is True:
        symbols.warm(index)
        assert len(index.memo["places"]) == index.section["nodes"]
    starts = (lambda: file_starts(view.index("meaning"))) if warm == "files" else None
    rows, _ = query_symbols(text, index.section, index.read, limit=limit, filters=filters, explain=False,
                            corrupt=index.corrupt, records=view.graph.records, exhaustive=exhaustive,
                            common_postings=common_postings, memo=index.memo if warm is True else None,
                            file_starts=starts, cold_budget=cold_budget, floor=floor)
    return [(r.path, r.line, r.name, r.kind, r.score) for r in rows]


questions = st.one_of(
    # one identifier, spelled the ways code spells names, sometimes qualified by an owner
    st.builds(lambda ws, sep: sep.join(ws), st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
              st.sampled_from(["_", "", "."])),
    st.builds(lambda ws: "".join(w.title() for w in ws), st.lists(st.sampled_from(WORDS), min_size=1, max_size=3)),
    # a question in words, stop words and all
    st.builds(" ".join, st.lists(st.sampled_from(WORDS + ["where", "is", "the", "how", "tests"]),
                                 min_size=2, max_size=6)),
)


@settings(max_examples=300)
@given(text=questions, limit=st.integers(1, 60),
       kinds=st.sampled_from([(), (), (), ("class",), ("method", "function")]),
       common=st.sampled_from([2000, 0, 20, 100]), warm=st.sampled_from([False, "files", True]),
       budget=st.sampled_from([0, 3, 40]), floor=st.sampled_from([0.0, 0.0, 0.0, 8.0, 40.0]))
def test_top_n_equals_the_top_n_of_scoring_every_candidate(corpus, text, limit, kinds, common, warm, budget, floor):
    # `common`: postings above which a word is deferred (looked up, not walked); this corpus is small,
    # so low thresholds make its common words ("test", "model") deferred as django's are. `budget`: the nodes a
    # cold query scores before it bounds candidates by their files' path words. `floor`: the rows scoring at least
    # that are the true top N's that do.
    filters = Filters(kinds, (), None)
    rows = _rows(corpus, text, limit, filters, exhaustive=False, common_postings=common, warm=warm,
                 cold_budget=budget, floor=floor)
    assert rows == [r for r in _rows(corpus, text, 10_000, filters, exhaustive=True) if r[4] >= floor][:limit]
    assert len(set(rows)) == len(rows)  # no node twice


def test_a_limit_above_forty_gives_that_many_rows(corpus):
    rows = _rows(corpus, "model", 120, Filters(), exhaustive=False)
    assert len(rows) == 120
    assert rows == _rows(corpus, "model", 120, Filters(), exhaustive=True)


def test_the_command_line_gives_more_than_forty_rows(sample_repo):
    files = {f"pkg/widget_{i}.py": f"def render_widget_{i}():\n    pass\n" for i in range(60)}
    sample_repo.commit(files, "widgets")
    assert run_route(["build", "-q"], sample_repo.path).exit_code == 0
    for args in (["query", "--json", "-n", "100", "render", "widget"],  # the fast path
                 ["query", "--json", "--limit=100", "--", "render", "widget"]):  # click's
        result = run_route(args, sample_repo.path)
        assert result.exit_code == 0, result.stderr
        assert len(json.loads(result.stdout)["rows"]) == 100  # of 60 functions and their 60 files


def test_a_row_outside_the_old_prefilter_that_outscores_the_rows_shown_is_shown(make_repo):
    # Sixty functions named by the rare word alone looked best from postings; the function whose
    # long name holds it once, in a file whose path holds the question's other words, scores more.
    repo = make_repo()
    files = {f"misc/m{i}.py": "def frobnicate():\n    pass\n" for i in range(60)}
    files["ledger/audit/report.py"] = "def frobnicate_the_quarterly_books_now():\n    pass\n"
    repo.commit(files)
    assert run_route(["build", "-q"], repo.path).exit_code == 0

    answer = api.query("frobnicate ledger audit", repo=str(repo.path), limit=3)

    assert [(r.path, r.name) for r in answer.rows] == [
        ("ledger/audit/report.py", "frobnicate_the_quarterly_books_now"), ("ledger/audit/report.py", "report.py"),
        ("misc/m0.py", "frobnicate")]


def _finest(found: symbols.Bounds) -> list[tuple[float, set[int]]]:
    """Every group of posting values, the groups bounded at their most split as a query splits them, each part
    bounded no higher than the group it came from (a part that is one node: its posting value)."""
    finest, todo = [], list(found.groups)
    while todo:
        group_bound, held = todo.pop()
        if callable(held):
            parts = held()
            assert all(part_bound <= group_bound for part_bound, _ in parts)
            for part_bound, part in parts:
                if isinstance(part, int):  # a node bounded on its own, as bound_each bounds it
                    assert found.bound_each([part]) == {part >> FACT_BITS: part_bound}
                    finest.append((part_bound, {part}))
                else:
                    todo.append((part_bound, part))
        else:
            finest.append((group_bound, held))
    return finest


@settings(max_examples=150)
@given(text=questions, warm=st.sampled_from([False, "files", True]), common=st.sampled_from([2000, 0, 20, 100]))
def test_no_node_scores_above_its_bound(corpus, text, warm, common):
    # Every candidate's bound from postings (and, warm, from each node's path words and kind) is at
    # least its score, and so is the bound of the nodes left out (deferred words only): what lets
    # the query stop before scoring them all.
    _assert_bounds_hold(corpus, text, warm, common)


@pytest.fixture(scope="module")
def crowded(tmp_path_factory: pytest.TempPathFactory):
    """A project whose own name is in most of its nodes' name, doc and owner (`rack` in rack): its postings
    outnumber the nodes."""
    rng = random.Random(7)
    files: dict[str, object] = {}
    for i in range(40):
        words = [rng.choice(WORDS[:34]) for _ in range(3)]
        methods = "".join(f'    def {w}_{i}(self):\n        """Acme {w} for the acme {words[0]}."""\n        pass\n'
                          for w in words)
        files[f"acme/{rng.choice(FOLDERS)}/{words[0]}_{i}.py"] = (
            f'class Acme{words[1].title()}{i}:\n    """The acme {words[2]}."""\n{methods}\n'
            f'def acme_{words[2]}_{i}():\n    pass\n')
    repo = RepoBuilder(Path(tmp_path_factory.mktemp("crowded")) / "repo")
    repo.commit(files, "corpus")
    assert run_route(["build", "-q"], repo.path).exit_code == 0
    with BundleView(str(repo.path)) as view:
        yield view


@pytest.mark.parametrize("text", ["acme", "where is the acme session middleware", "acme_cache", "AcmeParser",
                                  "acme parse config"])
@pytest.mark.parametrize("warm", [False, "files", True])
def test_a_word_with_more_postings_than_nodes_weighs_nothing_and_bounds_hold(crowded, text, warm):
    # Its idf would be negative: a name holding it would score below one that does not, under its bound.
    index = crowded.index("symbols")
    lists = symbols.POSTINGS.read(index.read, ["acme"], index.section["postings_shards"], index.corrupt, {})
    assert sum(map(len, lists["acme"])) > index.section["nodes"]
    assert idf(sum(map(len, lists["acme"])), index.section["nodes"]) > 0
    _assert_bounds_hold(crowded, text, warm, 2000)
    rows = _rows(crowded, text, 10, Filters(), exhaustive=False, warm=warm)
    assert rows == _rows(crowded, text, 10, Filters(), exhaustive=True)


def _assert_bounds_hold(corpus: BundleView, text: str, warm: bool | str, common: int) -> None:
    index = corpus.index("symbols")
    symbols.warm(index)
    question = parse_question(text)
    shards = index.section["postings_shards"]
    tokens = (*question.tokens, *([symbols.ENTRY_TOKEN] if question.wants_entry else []))
    found = symbols.POSTINGS.read(index.read, tokens, shards, index.corrupt, index.memo["postings"])
    lists = {t: found.get(t, [[], [], []]) for t in tokens}
    weights = {t: idf(sum(map(len, lists[t])), index.section["nodes"]) for t in question.tokens}
    deferred = [t for t in question.tokens if sum(map(len, lists[t])) > common]
    warm, places = warm is True, (symbols.FilePlaces(file_starts(corpus.index("meaning")), lists, question.tokens)
                                  if warm == "files" else index.memo["places"] if warm else None)
    found = symbols.bound_postings(
        question, lists, weights, deferred, lambda t: tuple(map(frozenset, lists[t])),
        places, index.memo["path_postings"] if warm else None,
        index.memo["posting_bits"] if warm else None, doc_words=index.memo["doc_words"] if warm else None,
        kinds=index.memo["kinds"] if warm else None)
    bounds, left_out = dict(found.nodes), found.left_out
    for group_bound, held in _finest(found):  # a group's bound is above each of its nodes' own
        each = found.bound_each(held)
        assert len(each) == len(held) and max(each.values()) <= group_bound
        assert not each.keys() & found.nodes.keys()
        bounds.update(each)
    every = {value >> FACT_BITS for found in lists.values() for ids in found for value in ids}
    for node_id, record in corpus.graph.records(every).items():
        path, name, owner, kind, _line, _end, _lang, entry, doc = record
        score, _ = score_text(question, weights, node_text(path=path, name=name, owner=owner, kind=kind, doc=doc),
                              bool(entry))
        assert score <= bounds.get(node_id, left_out), (text, path, name, node_id in bounds)


@pytest.mark.parametrize("text", ["admin session", "db cache", "auth url", "where is the http server"])
@pytest.mark.parametrize("warm", [False, True])
def test_nodes_bounded_by_group_are_bounded_one_by_one_only_when_their_turn_comes(corpus, text, warm):
    # Nodes whose name postings say the same (weight and count of question words, name length,
    # secondary, entry) are bounded together; the rows are still the true top N, whether a group is
    # opened or not.
    index = corpus.index("symbols")
    symbols.warm(index)
    question = parse_question(text)
    shards = index.section["postings_shards"]
    found = symbols.POSTINGS.read(index.read, question.tokens, shards, index.corrupt, index.memo["postings"])
    lists = {t: found.get(t, [[], [], []]) for t in question.tokens}
    weights = {t: idf(sum(map(len, lists[t])), index.section["nodes"]) for t in question.tokens}
    found = symbols.bound_postings(question, lists, weights, [], lambda t: tuple(map(frozenset, lists[t])),
                                    index.memo["places"] if warm else None, None)
    finest = _finest(found)
    assert found.groups and all(held for _, held in finest)
    grouped = {value >> FACT_BITS for _, held in finest for value in held}
    assert not grouped & found.nodes.keys()
    # Every candidate is bounded alone or in one group, whether the split by secondary and name length
    # comes from the warm view's sets or is worked out from the candidates.
    candidates = {value >> FACT_BITS for t in question.tokens for ids in lists[t] for value in ids}
    assert grouped | found.nodes.keys() == candidates
    assert sum(len(held) for _, held in finest) == len(grouped)
    with_bits = symbols.bound_postings(question, lists, weights, [], lambda t: tuple(map(frozenset, lists[t])),
                                        index.memo["places"] if warm else None, None, index.memo["posting_bits"])
    assert sorted((b, sorted(held)) for b, held in _finest(with_bits)) == sorted((b, sorted(held)) for b, held in finest)
    assert with_bits.nodes == found.nodes
    for limit in (1, 10, 40):
        rows = _rows(corpus, text, limit, Filters(), exhaustive=False, warm=warm)
        assert rows == _rows(corpus, text, limit, Filters(), exhaustive=True)


@pytest.fixture(scope="module")
def tied(tmp_path_factory: pytest.TempPathFactory):
    """Sixty classes in sixty files, each with the same `__iter__` and `handle` methods (no doc): scores that
    tie by the dozen, which only the paths order."""
    files = {f"pkg/{folder}/mod_{i:02d}.py": f"class Thing{i}:\n    def __iter__(self):\n        pass\n\n"
             f"    def handle(self):\n        pass\n\n\ndef results_{i}():\n    pass\n"
             for i, folder in zip(range(60), ["alpha", "beta", "gamma", "delta", "tests"] * 12)}
    files["pkg/core/results.py"] = "def results_iter():\n    pass\n\n\ndef handle_empty_point():\n    pass\n"
    repo = RepoBuilder(Path(tmp_path_factory.mktemp("tied")) / "repo")
    repo.commit(files, "ties")
    assert run_route(["build", "-q"], repo.path).exit_code == 0
    with BundleView(str(repo.path)) as view:
        yield view


@pytest.mark.parametrize("text", ["results_iter", "handle_empty_point", "iter handle", "thing handle"])
@pytest.mark.parametrize("limit", [1, 5, 10, 13, 40])
@pytest.mark.parametrize("warm", [False, "files", True])
def test_the_early_stop_keeps_the_true_top_n_when_many_rows_tie(tied, text, limit, warm):
    # The limit-th score is shared by dozens of rows: the rows kept are the first of them by path, exactly as
    # scoring every candidate orders them, however early the query stops.
    rows = _rows(tied, text, limit, Filters(), exhaustive=False, warm=warm)
    every = _rows(tied, text, 200, Filters(), exhaustive=True)
    assert rows == every[:limit]
    assert limit == 1 or (len(every) > limit and every[limit - 1][4] == every[limit][4])  # a tie at the cut


def _built_view(repo: RepoBuilder, files: dict[str, str]) -> BundleView:
    repo.commit(files)
    assert run_route(["build", "-q"], repo.path).exit_code == 0
    return BundleView(str(repo.path))


def _rows_every_way(view: BundleView, text: str) -> list[list[tuple]]:
    """The rows of `text` cold, cold given the files' ids, and warm: each the rows of scoring every candidate."""
    found = []
    for warm in (False, "files", True):
        rows = _rows(view, text, 10, Filters(), exhaustive=False, warm=warm)
        assert rows == _rows(view, text, 10, Filters(), exhaustive=True)
        found.append(rows)
    return found


def test_a_names_function_words_and_letters_hold_no_node_up_alone(make_repo):
    # `cmdfiles_for_a`: its `for` and `a` (an `a` split off a number too: `pcm3168a`) name thousands of a kernel's
    # nodes, and each was scored for the rows after the name's few. They still count in the score of a node that
    # holds the name's other word (in its name, doc or owner, or a file's folder); a node they match, its path
    # aside, is no row, cold or warm, and the bounded rows are those of scoring every candidate. A name of such words
    # only keeps them all.
    repo = make_repo()
    files = {f"drivers/chip_{i:02d}.c": f"int wait_for_idle_{i}(void) {{ return 0; }}\nint pcm{i}a_reg(void) "
                                        f"{{ return 1; }}\nint for_each_{i}(void) {{ return 2; }}\n" for i in range(40)}
    files["scripts/gen.py"] = ("def cmdfiles_for_a(archive):\n    pass\n\n\ndef cmdfiles_for_modorder(order):\n"
                               "    pass\n\n\ndef to_cmdfile(path):\n    pass\n")
    files["cmdfiles/helpers.py"] = "def for_a_while():\n    pass\n"
    with _built_view(repo, files) as view:
        for rows in _rows_every_way(view, "cmdfiles_for_a"):
            assert [r[2] for r in rows[:2]] == ["cmdfiles_for_a", "cmdfiles_for_modorder"]
            assert {r[2] for r in rows} == {"cmdfiles_for_a", "cmdfiles_for_modorder", "to_cmdfile", "helpers.py"}
        weak_only = _rows(view, "for_a", 10, Filters(), exhaustive=False)
        assert len(weak_only) == 10 and "for_a_while" in {r[2] for r in weak_only}
    answer = json.loads(run_route(["query", "cmdfiles_for_a", "--json"], repo.path).stdout)
    assert [row["name"] for row in answer["rows"]][:2] == ["cmdfiles_for_a", "cmdfiles_for_modorder"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.integers(0, 1 << 40), max_size=60).map(sorted), min_size=3, max_size=3),
       st.booleans())
def test_a_words_sets_and_fact_bits_from_one_split_are_those_of_its_postings(fields, split_first):
    # `_Held` makes a walked word's sets and fact bits from the split of its postings by facts: the same sets as
    # made from the lists themselves, whichever is asked first.
    held = symbols._Held({"w": fields}, {})
    if split_first:
        held.fact_bits("w")
    assert held.members("w") == tuple(map(frozenset, fields))
    assert held.fact_bits("w") == posting_bits([v for field in fields for v in field])
    assert held.name_facts("w") == split_by_facts(fields[0])


def test_a_names_single_digits_hold_no_node_up_alone(make_repo):
    # `jffs2_acl_size`, `gfx_v7_0_ring_emit_reg_wait`: a digit split off a word names hundreds of thousands of a
    # kernel's nodes (its `2`, its `0`), each bounded for the rows after the name's own. The digit still counts in
    # the score of a node that holds another of the name's words; a node only it matches is no row, cold or warm,
    # and the bounded rows are those of scoring every candidate. A name of digits and such words only keeps them.
    repo = make_repo()
    files = {f"drivers/reg_{i:02d}.c": f"int reg{i}_2_read(void) {{ return 0; }}\nint v2_{i}(void) {{ return 1; }}\n"
             for i in range(40)}
    files["fs/jffs2/acl.c"] = ("int jffs2_acl_size(int count) { return count; }\n"
                               "int jffs2_acl_count(int size) { return size; }\nint ext2_acl_size(void) { return 2; }\n")
    files["fs/jffs3/acl.c"] = "int jffs3_acl_size(void) { return 3; }\n"
    with _built_view(repo, files) as view:
        for rows in _rows_every_way(view, "jffs2_acl_size"):
            names = [r[2] for r in rows]
            assert names[0] == "jffs2_acl_size" and {"jffs3_acl_size", "ext2_acl_size", "jffs2_acl_count"} <= set(names)
            assert not any(name.startswith(("reg", "v2_")) for name in names)  # the 2 alone: no row
        digits_kept = _rows(view, "v2", 10, Filters(), exhaustive=False)
        assert len(digits_kept) == 10 and all(r[2].startswith("v2_") for r in digits_kept)
    answer = json.loads(run_route(["query", "jffs2_acl_size", "--json"], repo.path).stdout)
    assert answer["rows"][0]["name"] == "jffs2_acl_size"


@pytest.mark.parametrize("text", ["model_query_set_cache_session_token_field", "admin site user token cache form"])
def test_deferred_words_come_in_twice_as_many_a_round(corpus, text, monkeypatch):
    # Each round bounds every candidate again: with every word deferred (as a kernel defers its common ones), the
    # rows are those of scoring every candidate, in fewer rounds than a word a round.
    calls: list[int] = []
    bound = symbols.bound_postings

    def counted(*args, **kwargs):
        calls.append(len(args[3]))
        return bound(*args, **kwargs)

    monkeypatch.setattr(symbols, "bound_postings", counted)
    rows = _rows(corpus, text, 10, Filters(), exhaustive=False, common_postings=0)
    words = len(parse_question(text).tokens)
    assert calls[0] == words and len(calls) <= 2 + (words - 1).bit_length() < words
    monkeypatch.setattr(symbols, "bound_postings", bound)
    assert rows == _rows(corpus, text, 10, Filters(), exhaustive=True)


@pytest.mark.parametrize("shard", [{"word": [[16, 32], [48]]}, {"word": [["16"], [], []]}, {"word": 7},
                                   {"word": b"\x02\x10"}, {"word": b"\x01\x90"}])
def test_a_malformed_postings_shard_is_a_damaged_bundle_when_a_server_decodes_it(make_repo, shard):
    repo = make_repo()
    repo.commit({"app/models.py": "class Word:\n    def word(self):\n        pass\n"})
    assert run_route(["build", "-q"], repo.path).exit_code == 0
    with BundleView(str(repo.path)) as view:
        index = view.index("symbols")
        index.memo["postings"] = {symbols.POSTINGS.path(0): shard}  # as if shard 0 of the bundle held this
        with pytest.raises(BundleDamaged):
            symbols.warm(index)


def test_a_files_postings_hold_the_path_words_of_each_of_its_nodes(make_repo):
    # What a cold query's bound takes a candidate's path words from (`symbols.FilePlaces`): the name and context
    # postings of the file the meaning index's file ids put it in. Files with several dots, dot files, files at the
    # root, documents, tests, built copies beside their sources (which have no postings) and files of no language.
    repo = make_repo()
    repo.commit({
        "setup.py": "def install_package():\n    pass\n",
        ".hidden_config.py": "HIDDEN_VALUE = 1\n",
        "src/web/app.test.ts": "export function renderAppShell() {}\n",
        "src/web/app.ts": "export function renderApp() {}\nexport class AppShell {}\n",
        "src/web/app.js": "export function renderApp() {}\n",
        "src/web/http.server.config.js": "function loadServerConfig() {}\nclass ConfigLoader { read() {} }\n",
        "docs/guide/getting-started.md": "# Getting started\n\nCall `renderApp` first.\n",
        "pkg/core/HTTPServer.java": "class HTTPServer { void serveForever() {} }\n",
        "pkg/core/data.json": "{}\n",
        "tests/test_cache_backends.py": "class CacheBackendTests:\n    def test_get_many(self):\n        pass\n",
        "README": "plain words\n",
    })
    assert run_route(["build", "-q"], repo.path).exit_code == 0
    with BundleView(str(repo.path)) as view:
        index = view.index("symbols")
        lists: dict[str, list[list[int]]] = {}
        for shard in symbols.POSTINGS.read_all(index.read, index.section["postings_shards"], index.corrupt,
                                               {}).values():
            lists.update(symbols.POSTINGS.codec.decode_shard(shard))
        places = symbols.FilePlaces(file_starts(view.index("meaning")), lists, sorted(lists))
        posted = {value >> FACT_BITS for held in lists.values() for ids in held for value in ids}
        records = view.graph.records(posted)
        assert {record[0] for record in records.values()} >= {"setup.py", "src/web/http.server.config.js",
                                                               "docs/guide/getting-started.md"}
        assert not any(record[0] == "src/web/app.js" for record in records.values())  # a built copy
        for node_id, (path, _name, _owner, kind, *_rest) in records.items():
            place = places.get(node_id)
            assert place is not None and path_words(path, kind) <= place[0], (path, kind)


@settings(max_examples=200)
@given(st.lists(st.integers(0, 2**34), max_size=12, unique=True),
       st.lists(st.tuples(st.integers(0, 2**34 + 50), st.integers(0, FACTS)), max_size=60, unique=True))
def test_file_places_split_postings_by_their_file_as_a_bisection_does(starts, postings):
    # `FilePlaces.files_of` bisects once a file, not once a node: each value in the group of the file a bisection of
    # its node id finds (-1: before every file), every value once, and a file's own node found as its file.
    starts = sorted(starts)
    values = {node << FACT_BITS | facts for node, facts in postings}
    places = symbols.FilePlaces(starts, {}, [])
    groups = places.files_of(values)
    assert sorted(v for held in groups.values() for v in held) == sorted(values)
    for first, held in groups.items():
        for value in held:
            at = bisect_right(starts, value >> FACT_BITS) - 1
            assert first == (starts[at] if at >= 0 else -1)
    for first in starts:
        assert places.get(first) == places.get(first) == (frozenset(), places.prior)


@settings(max_examples=200)
@given(st.lists(st.integers(0, 2**34), max_size=12, unique=True),
       st.lists(st.tuples(st.integers(0, 2**34 + 50), st.integers(0, FACTS)), max_size=60, unique=True),
       st.lists(st.sets(st.integers(0, 11), max_size=6), min_size=1, max_size=3))
def test_file_places_group_values_by_path_weight_over_arrays_as_file_by_file(starts, postings, holding):
    # `FilePlaces.by_path_weight` over numpy's arrays (numpy in the process) gives what it gives a file at a time
    # without: the same sets of values, under the same weights, in the order of their first file.
    import numpy  # noqa: F401 - in sys.modules: the arrays' path

    starts = sorted(starts)
    values = {node << FACT_BITS | facts for node, facts in postings}
    tokens = [f"w{k}" for k in range(len(holding))]
    # a word's holders: the files (by their place in `starts`) whose path holds it, as their name postings
    lists = {token: [[starts[k] << FACT_BITS for k in held if k < len(starts)], [], []]
             for token, held in zip(tokens, holding)}

    def weight_of(place):
        return -1.0 if place is None else float(sum(2 ** tokens.index(t) for t in place[0]))

    over_arrays = symbols.FilePlaces(starts, lists, tokens).by_path_weight(values, weight_of)
    held = sys.modules.pop("numpy")
    try:
        file_by_file = symbols.FilePlaces(starts, lists, tokens).by_path_weight(values, weight_of)
    finally:
        sys.modules["numpy"] = held
    assert list(over_arrays.items()) == list(file_by_file.items())
    assert sorted(v for group in over_arrays.values() for v in group) == sorted(values)


def test_the_symbol_tiers_answer_a_sentence_from_a_bundle_without_a_meaning_index(tmp_path, monkeypatch):
    # The files' ids a cold sentence bounds its candidates with past its first batch are the meaning index's: from a
    # bundle without one (built by a registry that lacks it) the symbol tiers rank on postings alone, as before.
    import gitroute.build
    from gitroute import registry
    from gitroute.query import ask_symbols

    names = tuple(name for name in registry.INDEXES if name not in ("meaning", "embedding"))  # embedding needs it
    monkeypatch.setattr(registry, "INDEXES", names)
    monkeypatch.setattr(gitroute.build, "INDEXES", names)
    repo = RepoBuilder(tmp_path / "repo")
    repo.commit({f"pkg/cache_{i:02d}.py": f"def store_session_{i}():\n    pass\n" for i in range(60)}, "many")
    assert run_route(["build", "-q"], repo.path).exit_code == 0
    with BundleView(str(repo.path)) as view:
        assert view.section("meaning") is None
        answer = ask_symbols(view, "where is the session stored in the cache", limit=20, explain=False)
    assert len(answer.rows) == 20 and answer.rows[0].name.startswith("store_session_")


def _exact_rows(view: BundleView, text: str) -> list[tuple]:
    index = view.index("symbols")
    rows, _ = query_symbols(text, index.section, index.read, limit=10_000, filters=Filters((), (), None),
                            explain=True, corrupt=index.corrupt, records=view.graph.records, exhaustive=True)
    return [(r.path, r.name) for r in rows if any(signal == "exact_name" for signal, _ in r.signals)]


@settings(max_examples=300)
@given(text=questions)
def test_postings_never_rule_out_a_name_that_some_row_scores_exact(corpus, text):
    # `may_name_exactly` lets `definitions` skip ranking: it may say True of a name nothing defines, never False of
    # one that a row, every candidate scored, matches exactly (owners' words included: `Model.get`).
    if _exact_rows(corpus, text):
        assert symbols.may_name_exactly(corpus.index("symbols"), text)


def test_postings_rule_out_most_names_nothing_defines_and_no_defined_one(corpus):
    rng = random.Random(7)
    pairs = {"_".join(rng.sample(WORDS, 2)) for _ in range(150)} | {"noodle_cache", "CacheNoodle", "Zebra"}
    said = {text: symbols.may_name_exactly(corpus.index("symbols"), text) for text in sorted(pairs)}
    defined = {text for text in pairs if _exact_rows(corpus, text)}
    assert defined and all(said[text] for text in defined)
    ruled_out = [text for text in pairs - defined if not said[text]]
    assert {"noodle_cache", "CacheNoodle", "Zebra"} <= set(ruled_out)
    # Postings cannot see a name's word order nor an owner's other words: in this corpus of 43 words, most pairs
    # are some name's words with its owner's, and only a share is ruled out (on a kernel, most undefined names are).
    assert len(ruled_out) >= 10, ruled_out


@settings(max_examples=60)
@given(text=questions, limit=st.integers(1, 30))
def test_postings_decoded_over_arrays_rank_as_the_codecs(corpus, text, limit):
    """Once numpy is in the process, a long postings value is decoded over arrays (`varint_arrays.decode_key`):
    every value here, at a threshold of 0 bytes, ranks as the codec's decoding does."""
    import numpy  # noqa: F401  (in the process, as a warm server has it after a plain-words question)

    index = corpus.index("symbols")
    asked = {}
    for threshold in (0, 1 << 30):
        symbols.ARRAYS_MIN_BYTES = threshold
        try:
            found = symbols.read_postings(index.read, parse_question(text).tokens, int(index.section["postings_shards"]),
                                          index.corrupt, {})
            asked[threshold] = (found, _rows(corpus, text, limit, Filters(), exhaustive=False))
        finally:
            symbols.ARRAYS_MIN_BYTES = 4096
    assert asked[0] == asked[1 << 30]


def test_a_warm_view_holds_every_node_record_its_pages_too(make_repo):
    # A file of 200 definitions: its records past the first 128 are a page of `graph/pages`. A warm view decodes
    # every record ahead, those of the pages too, and a name among them is answered from the memo alone.
    repo = make_repo()
    repo.commit({"big.py": "".join(f"def step_{k}():\n    return {k}\n\n\n" for k in range(200)),
                 "small.py": "def other():\n    return 0\n"})
    assert run_route(["build", "-q"], repo.path).exit_code == 0
    with BundleView(str(repo.path)) as view:
        assert view.listing("graph/pages")
        records = view.node_records()
        assert sorted(r[1] for r in records.values() if r[3] == "function") == sorted(
            [f"step_{k}" for k in range(200)] + ["other"])
        index = view.index("symbols")
        symbols.warm(index)
        assert index.memo["records"] == records
        answer = api.query("step_190", repo=str(repo.path), bundle=view)
    assert answer.rows[0].name == "step_190"


def test_a_posting_says_whether_its_name_has_a_stop_word_as_the_scored_name_does(corpus):
    # The fifth fact bit (`encode_posting`'s stop_free) is set exactly when the name a sentence is scored by (its
    # content words) has every word of the name: then the word count bounds its coverage.
    index = corpus.index("symbols")
    records = corpus.node_records()
    found = symbols.read_postings(index.read, WORDS, int(index.section["postings_shards"]), index.corrupt, {})
    seen = {True: 0, False: 0}
    for lists in found.values():
        for value in lists[0]:
            node_id, _secondary, count, stop_free = symbols.decode_posting(value)
            path, name, owner, kind, *_rest = records[node_id]
            text = node_text(path=path, name=name, owner=owner, kind=kind, doc=None)
            all_words, content_words = text.all_words[1], text.content_words[1]
            assert stop_free == (bool(all_words) and STOP_WORDS.isdisjoint(all_words)), name
            if stop_free:  # the scored name is the count's words (at least 7 when the count stops there)
                assert content_words == all_words and min(len(all_words), 7) == count, (name, count)
            seen[stop_free] += 1
    assert seen[True] and seen[False]  # both kinds of names are in the corpus (`get`, `for`, `to` are stop words)
