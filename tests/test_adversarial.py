"""Resolution that cannot blow up: bench/adversarial.py's repositories, committed and built for real at sizes N
and 2N, cost the resolver at most about twice the steps (lookups, files they scan, bindings followed: counted
by the resolver, so the check is deterministic, never timed) and keep about twice the read bookkeeping (the key
numbers the graph's memo stores: what each file's resolution read); and a runtime's own modules name no file."""
from __future__ import annotations

import gc

import pytest

from gitroute.build import run_build
from gitroute.graph import MAX_LOOKUP_COST
from tests.conftest import load_script

CASES = load_script("bench/adversarial.py").CASES


def built_graph(make_repo, files: dict[str, str]):
    """The code graph a full build of one commit of `files` resolves (the build's own, kept by `run_build`)."""
    builder = make_repo()
    builder.commit(files)
    keep: list = []
    run_build(repo_path=str(builder.path), full=True, jobs=1, keep=keep)
    graph = keep[0][2]
    gc.unfreeze()  # `keep` froze the build's objects for a process about to exit; this one goes on
    return graph


@pytest.mark.parametrize("case", sorted(set(CASES) - {"py-star-cycle"}))
def test_doubling_an_adversarial_repository_at_most_doubles_the_resolutions_work(make_repo, case: str) -> None:
    small = built_graph(make_repo, CASES[case](64)).work
    large = built_graph(make_repo, CASES[case](128)).work
    assert small["lookups"] + small["bindings"] > 0, "the case must make the resolver follow something"
    assert small["read_numbers"] > 0, "the build kept what the files' resolution read"
    for step in ("lookups", "lookup_files", "bindings", "shallow_lookups", "shallow_files", "read_numbers"):
        assert large[step] <= 2.3 * small[step] + 8, (step, dict(small), dict(large))
    assert large["lookups_cut"] == 0  # no lookup hit its bound: the answers are whole


def test_what_a_star_import_cycle_read_is_kept_once_not_once_per_file_of_the_cycle(make_repo) -> None:
    """Every file of the cycle reaches every module through the package's star imports. What a memoised lookup read
    is one group, shared by every file that uses it: copied into each file's reads instead, the memo kept about n
    key numbers per file, n * n in all (616,277 at n = 512, 1,759,061 at n = 1,024; now 17,226 and 33,610). Sizes
    past the point where MAX_LOOKUP_COST bounds each name's lookups, as bench/adversarial.py's."""
    small = built_graph(make_repo, CASES["py-star-cycle"](512)).work
    large = built_graph(make_repo, CASES["py-star-cycle"](1024)).work
    assert large["read_numbers"] <= 2.3 * small["read_numbers"], (dict(small), dict(large))


def test_a_star_import_cycle_through_a_package_costs_each_name_a_bounded_few_lookups(make_repo) -> None:
    """A package whose __init__ star-imports each of its n modules, which star-import the package back: each
    name's lookup through the package would follow every module, and each of those the package again. Cut at
    MAX_LOOKUP_COST, each of the n names costs a bounded few lookups (the work is linear once n modules cost
    more than the bound: bench/adversarial.py shows it at n = 1,000), and the unbounded resolver's 1.3 million
    lookups at n = 64 are a few thousand."""
    n = 64
    work = built_graph(make_repo, CASES["py-star-cycle"](n)).work
    assert work["lookups_cut"] > 0
    assert work["cost_max"] <= 2 * MAX_LOOKUP_COST + 2 * n  # the bound and the last module it followed
    assert work["lookups"] <= (n + 1) * MAX_LOOKUP_COST // 2


def test_tests_that_bind_test_from_node_test_beside_a_test_folder_resolve_it_to_no_file(make_repo) -> None:
    graph = built_graph(make_repo, CASES["js-node-test"](30))
    paths = {n.id: n.path for n in graph.nodes}
    into_tests = [(paths[e.source], paths[e.target]) for e in graph.edges
                  if e.kind in ("imports", "calls") and paths[e.source].startswith("test/case")
                  and paths[e.target].startswith("test/case")]
    assert into_tests == []
    # What the tests do reach: the package root, their helper, and through them the library.
    reached = {paths[e.target] for e in graph.edges if paths[e.source] == "test/case1.test.js" and e.kind == "imports"}
    assert reached == {"index.js", "test/helper.js"}
