"""The code graph, the foundation the indexes share: its nodes, structural and import edges, and stable ids.

Every file is parsed for real (tree-sitter through gitroute.parsing); no index is involved.
"""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gitroute.bundle.graph import GraphView, graph_blobs
from gitroute.bundle.layout import NODE_PAGE
from gitroute.bundle.validate import BadValue
from gitroute.graph import SourceFile, build_graph, file_bucket, node_buckets
from gitroute.model import EDGE_KINDS, NODE_KINDS, NODE_ORDINAL_BITS, RESOLUTIONS, Token
from gitroute.parsing import extract, language_for_path


def graph_of(files: dict[str, str]):
    sources = []
    for path, text in sorted(files.items()):
        lang = language_for_path(path)
        sources.append(SourceFile(path, f"blob-{path}", lang, extract(text.encode(), lang) if lang else None))
    return build_graph(sources)


def named(graph) -> dict[tuple[str, str], int]:
    """(path, qualified name) -> node id; files by their path."""
    ids = {}
    for node in graph.nodes:
        key = node.name if node.kind == "file" else (f"{node.owner}.{node.name}" if node.owner else node.name)
        ids[(node.path, key)] = node.id
    return ids


def edges_of(graph, kind: str) -> set[tuple[int, int]]:
    return {(e[0], e[2]) for e in graph.edges if e[1] == kind}


FAMILIES = {
    "python": ({"pkg/shapes.py": "class Shape:\n    def area(self):\n        return 0\n\n\ndef make():\n    return Shape()\n",
                "pkg/use.py": "from pkg.shapes import make\n\n\ndef main():\n    make()\n"},
               ("pkg/shapes.py", "Shape"), ("pkg/shapes.py", "Shape.area"), ("pkg/shapes.py", "make"),
               ("pkg/use.py", "main")),
    "typescript": ({"src/shapes.ts": "export class Shape {\n  area(): number { return 0 }\n}\n"
                                     "export function make(): Shape { return new Shape() }\n",
                    "src/use.ts": "import { make } from './shapes'\nexport function main() { make() }\n"},
                   ("src/shapes.ts", "Shape"), ("src/shapes.ts", "Shape.area"), ("src/shapes.ts", "make"),
                   ("src/use.ts", "main")),
    "go": ({"shapes/shapes.go": "package shapes\n\ntype Shape struct{}\n\nfunc (s Shape) Area() int { return 0 }\n\n"
                                "func Make() Shape { return Shape{} }\n",
            "cmd/use.go": "package main\n\nimport \"example.com/m/shapes\"\n\nfunc main() { shapes.Make() }\n"},
           ("shapes/shapes.go", "Shape"), ("shapes/shapes.go", "Shape.Area"), ("shapes/shapes.go", "Make"),
           ("cmd/use.go", "main")),
    "java": ({"src/shapes/Shape.java": "package shapes;\n\npublic class Shape {\n  public int area() { return 0; }\n"
                                       "  public static Shape make() { return new Shape(); }\n}\n",
              "src/app/Use.java": "package app;\n\nimport shapes.Shape;\n\npublic class Use {\n"
                                  "  public static void main(String[] a) { Shape.make(); }\n}\n"},
             ("src/shapes/Shape.java", "Shape"), ("src/shapes/Shape.java", "Shape.area"),
             ("src/shapes/Shape.java", "Shape.make"), ("src/app/Use.java", "Use.main")),
    "rust": ({"src/shapes.rs": "pub struct Shape;\n\nimpl Shape {\n    pub fn area(&self) -> i32 { 0 }\n}\n\n"
                               "pub fn make() -> Shape { Shape }\n",
              "src/main.rs": "mod shapes;\nuse crate::shapes::make;\n\nfn main() { make(); }\n"},
             ("src/shapes.rs", "Shape"), ("src/shapes.rs", "Shape.area"), ("src/shapes.rs", "make"),
             ("src/main.rs", "main")),
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_nodes_and_structural_edges_per_language_family(family):
    files, type_key, method_key, function_key, caller_key = FAMILIES[family]
    graph = graph_of(files)
    ids = named(graph)
    for key in (type_key, method_key, function_key, caller_key):
        assert key in ids, f"{key} missing from {sorted(ids)}"
    shapes_file = ids[(type_key[0], type_key[0].rsplit("/", 1)[-1])]
    kinds = {n.id: n.kind for n in graph.nodes}
    assert kinds[shapes_file] == "file"
    # A file contains its types and defines its functions; a type's functions are its methods.
    assert (shapes_file, ids[type_key]) in edges_of(graph, "contains")
    assert (ids[type_key], ids[method_key]) in edges_of(graph, "method")
    if kinds[ids[function_key]] == "function":
        assert (shapes_file, ids[function_key]) in edges_of(graph, "defines")


@pytest.mark.parametrize("family", ["python", "typescript", "rust"])
def test_an_import_links_the_importing_file_to_the_imported_one(family):
    files, type_key, _, function_key, caller_key = FAMILIES[family]
    graph = graph_of(files)
    ids = named(graph)
    importer = ids[(caller_key[0], caller_key[0].rsplit("/", 1)[-1])]
    imported = ids[(type_key[0], type_key[0].rsplit("/", 1)[-1])]
    assert (importer, imported) in edges_of(graph, "imports")
    assert (ids[caller_key], ids[function_key]) in edges_of(graph, "calls")


def test_node_ids_name_their_bucket_and_are_in_id_order():
    graph = graph_of({f"pkg/m{i}.py": f"def f{i}():\n    pass\n" for i in range(200)})
    ids = [n.id for n in graph.nodes]
    assert ids == sorted(ids) and len(set(ids)) == len(ids)
    buckets = node_buckets(len(graph.nodes))
    for node in graph.nodes:
        assert node.id >> NODE_ORDINAL_BITS == file_bucket(node.path, buckets)


def test_a_one_file_change_keeps_the_ids_of_other_buckets():
    files = {f"pkg/m{i}.py": f"def f{i}():\n    pass\n" for i in range(200)}
    before = {(n.path, n.name): n.id for n in graph_of(files).nodes}
    files["pkg/m7.py"] = "def f7():\n    pass\n\n\ndef g7():\n    pass\n\n\nclass H7:\n    pass\n"
    after_graph = graph_of(files)
    after = {(n.path, n.name): n.id for n in after_graph.nodes}
    buckets = node_buckets(len(after_graph.nodes))
    assert buckets == node_buckets(len(before))  # no doubling: the ids may stay put
    changed_bucket = file_bucket("pkg/m7.py", buckets)
    moved = {key for key in before if before[key] != after[key]}
    assert moved, "later files of the changed file's bucket move"
    assert all(file_bucket(path, buckets) == changed_bucket for path, _ in moved)
    assert all(path > "pkg/m7.py" for path, _ in moved)


def test_graph_blobs_round_trip_through_the_view():
    files, *_ = FAMILIES["python"]
    graph = graph_of(files)
    blobs = graph_blobs(graph)
    view = GraphView(lambda paths: {p: blobs[p] for p in paths if p in blobs}, lambda path: ValueError(path))
    nodes = view.nodes(n.id for n in graph.nodes)
    assert {i: (n.path, n.name, n.kind, n.line, n.owner) for i, n in nodes.items()} == {
        n.id: (n.path, n.name, n.kind, n.line, n.owner) for n in graph.nodes}
    from gitroute.bundle.graph import OUT_KINDS

    for source, kind, target, line, *_ in graph.edges:  # each edge stored once: a definition's by its source
        held_out = view.edges_out([source]).get(source, [])
        held_in = view.edges_in([target]).get(target, [])
        assert any(e[:3] == [kind, target, line] for e in held_out) == (kind in OUT_KINDS)
        assert any(e[:3] == [kind, source, line] for e in held_in) == (kind not in OUT_KINDS)


def test_a_damaged_node_chunk_is_reported_not_guessed():
    files, *_ = FAMILIES["python"]
    graph = graph_of(files)
    blobs = {path: b"{}" for path in graph_blobs(graph)}
    view = GraphView(lambda paths: {p: blobs[p] for p in paths if p in blobs}, lambda path: ValueError(path))
    with pytest.raises(ValueError):
        view.nodes([graph.nodes[0].id])


def _reference_blobs(graph) -> dict[str, bytes]:
    """The graph's blobs encoded the plain way, every edge in the graph's order: what graph_blobs must give."""
    from collections import defaultdict

    from gitroute.bundle.graph import OUT_KINDS, edge_shard, node_record, node_shard
    from gitroute.bundle.layout import edges_path, node_chunk_path

    shift = NODE_ORDINAL_BITS
    chunks: dict[int, list] = defaultdict(list)
    for node in graph.nodes:
        chunks[node.id >> shift].append(node_record(node))
    into: dict[int, dict] = defaultdict(dict)
    out: dict[int, dict] = defaultdict(dict)
    for source, kind, target, line, how in graph.edges:
        into[target >> shift]  # a bucket with edges into it has its blob, empty when they are all stored out
        out[source >> shift]
        if kind in OUT_KINDS:
            out[source >> shift].setdefault(source, []).append([kind, target, line, how])
        else:
            into[target >> shift].setdefault(target, []).append([kind, source, line, how])
    blobs = {node_chunk_path(b << shift | k): node_shard(records[k:k + NODE_PAGE])
             for b, records in chunks.items() for k in range(0, len(records), NODE_PAGE)}
    blobs.update((edges_path("in", b << shift), edge_shard(value)) for b, value in into.items())
    blobs.update((edges_path("out", b << shift), edge_shard(value)) for b, value in out.items())
    return blobs


def test_graph_blobs_encode_only_what_changed_and_equal_a_plain_encoding():
    """Many buckets, and files with uses but no structure (module-level calls only), between others:
    whichever blobs an earlier build kept, the ones encoded are the plain encoding's."""
    import random

    from gitroute.bundle.graph import graph_blobs_since

    files = {f"pkg/m{i}.py": "".join(f"def f{i}_{j}():\n    return f{(i + 1) % 40}_{j}()\n\n\n" for j in range(3))
             for i in range(40)}
    files.update({f"pkg/run{i}.py": f"f{i}_0()\nf0_1()\n" for i in range(0, 40, 7)})  # one target for all
    graph = graph_of(files)
    assert node_buckets(len(graph.nodes)) > 1
    assert any(p.structure[0] == p.structure[1] and p.named[0] < p.named[1] for p in graph.files)
    plain = _reference_blobs(graph)
    assert graph_blobs(graph) == plain
    digests = graph_blobs_since(graph, {}).digests
    assert digests.keys() == plain.keys()
    rnd = random.Random(6)
    for _ in range(20):
        kept = {path for path in digests if rnd.random() < 0.7}
        made = graph_blobs_since(graph, {path: (digests[path], f"id of {path}") for path in kept})
        assert made.kept == {path: f"id of {path}" for path in kept}
        assert made.blobs == {path: data for path, data in plain.items() if path not in kept}
    stale = graph_blobs_since(graph, {path: (b"another digest", "x") for path in digests})
    assert stale.blobs == plain and not stale.kept


def test_a_bucket_of_more_nodes_than_a_page_is_stored_a_page_a_blob_and_read_back_by_id():
    """A file of 300 functions is one bucket of 301 nodes: three pages (`graph/nodes/00000.bin`, then
    `graph/pages/00000.0001.bin` and `.0002.bin`);
    each record reads back from its page, a listing's names give every record, and a page is kept by its digest."""
    import dataclasses

    from gitroute.bundle.graph import graph_blobs_since
    from gitroute.bundle.layout import node_chunk_path
    from gitroute.graph import NodeTable

    graph = graph_of({"big.py": "".join(f"def f{j}():\n    return {j}\n\n\n" for j in range(300)),
                      "small.py": "def g():\n    return 1\n"})
    blobs = graph_blobs(graph)
    assert blobs == _reference_blobs(graph)
    big = [n for n in graph.nodes if n.path == "big.py"]
    bucket = big[0].id >> NODE_ORDINAL_BITS
    pages = [f"graph/nodes/{bucket:05d}.bin", f"graph/pages/{bucket:05d}.0001.bin", f"graph/pages/{bucket:05d}.0002.bin"]
    assert {p for p in blobs if p.startswith(("graph/nodes/", "graph/pages/")) and f"/{bucket:05d}." in p} == set(pages)
    assert node_chunk_path(big[-1].id) == pages[-1] and len(big) == 301
    reads: list[list[str]] = []

    def read(paths):
        reads.append(sorted(paths))
        return {p: blobs[p] for p in paths if p in blobs}

    view = GraphView(read, lambda path: ValueError(path))
    last = view.nodes([big[-1].id])[big[-1].id]
    assert (last.name, last.line) == (big[-1].name, big[-1].line)
    assert reads == [[pages[-1]]]  # its page alone
    every = view.nodes(n.id for n in graph.nodes)
    assert [(n.path, n.name, n.line) for n in every.values()] == [(n.path, n.name, n.line) for n in graph.nodes]
    listing = [p for p in blobs if p.startswith(("graph/nodes/", "graph/pages/"))]
    assert sorted(GraphView(read, ValueError).bucket_records(listing)) == [n.id for n in graph.nodes]
    # A large build's graph holds its nodes as a `NodeTable`: the same pages from it.
    assert graph_blobs(dataclasses.replace(graph, nodes=NodeTable.from_nodes(graph.nodes))) == blobs
    digests = graph_blobs_since(graph, {}).digests
    assert len({digests[p] for p in pages}) == 3  # each page its own digest
    kept = graph_blobs_since(graph, {pages[1]: (digests[pages[1]], "id")})
    assert kept.kept == {pages[1]: "id"} and pages[1] not in kept.blobs and pages[2] in kept.blobs


@pytest.mark.parametrize("path", ["graph/nodes/00001.1.bin", "graph/pages/00001.bin", "graph/pages/00001.0000.bin",
                                  "graph/pages/00001.001.bin", "graph/nodes/0001.bin", "graph/pages/00001.x.bin",
                                  "graph/pages/00001.\u0663\u0663\u0663\u0663.bin", "graph/nodes/00001",
                                  "graph/pages/00001.8192.bin", "graph/in/00001.bin", "graph/nodes/+0001.bin"])
def test_a_node_page_name_no_build_writes_is_damage(path):
    """`00001.8192.bin` would start past the bucket's 2 ** 20 ordinals."""
    from gitroute.bundle.layout import node_page_first

    assert node_page_first(path) is None
    view = GraphView(lambda paths: {}, lambda path: ValueError(path))
    with pytest.raises(ValueError):
        view.bucket_records([path])


def test_a_node_page_of_more_records_than_a_page_holds_is_a_bad_value():
    from gitroute.bundle.graph import load_node_shard, node_shard

    record = ["a.py", "f", "", "function", 2, 3, "python", 0, ""]
    assert len(load_node_shard(node_shard([record] * NODE_PAGE))) == NODE_PAGE
    with pytest.raises(BadValue):
        load_node_shard(node_shard([record] * (NODE_PAGE + 1)))


def test_a_call_through_a_go_package_level_var_resolves_to_the_constant_node():
    graph = graph_of({
        "debug.go": "package gin\n\n// DebugPrintRouteFunc prints each route as it is added.\n"
                    "var DebugPrintRouteFunc func(method, path string)\n",
        "routes.go": "package gin\n\nfunc addRoute() { DebugPrintRouteFunc(\"GET\", \"/\") }\n",
    })
    ids = named(graph)
    constant = ids[("debug.go", "DebugPrintRouteFunc")]
    assert {n.id: n.kind for n in graph.nodes}[constant] == "constant"
    assert (ids[("debug.go", "debug.go")], constant) in edges_of(graph, "defines")
    assert (ids[("routes.go", "addRoute")], constant) in edges_of(graph, "calls")


def test_a_java_constant_is_owned_by_its_class():
    graph = graph_of({"src/a/Http.java": "package a;\n\npublic class Http {\n"
                                         "  public static final String DEFAULT_UA = \"Mozilla\";\n}\n"})
    ids = named(graph)
    # Owned as a method is: named `Http.DEFAULT_UA`, defined by the class rather than the file.
    assert (ids[("src/a/Http.java", "Http")], ids[("src/a/Http.java", "Http.DEFAULT_UA")]) in edges_of(graph, "defines")


def test_a_method_in_a_java_enum_constants_body_is_a_member_of_its_enum():
    graph = graph_of({"src/a/State.java": "package a;\n\nenum State {\n  IN_TABLE {\n"
                                          "    boolean process() { return fallback(); }\n"
                                          "    boolean fallback() { return true; }\n  };\n"
                                          "  abstract boolean process();\n}\n"})
    ids = named(graph)
    process = ids[("src/a/State.java", "State.IN_TABLE.process")]
    fallback = ids[("src/a/State.java", "State.IN_TABLE.fallback")]
    # Parented to the constant (its owner names it), resolved as the enum's own member: by scope.
    assert (ids[("src/a/State.java", "State.IN_TABLE")], fallback) in edges_of(graph, "method")
    assert {(e[0], e[2], e[4]) for e in graph.edges if e[1] == "calls"} >= {(process, fallback, "scope")}


def test_a_call_through_the_second_name_of_a_go_var_declaration_resolves_to_its_own_node():
    graph = graph_of({
        "debug.go": "package gin\n\n// Hooks the debug output goes through.\n"
                    "var DebugPrintFunc, DebugPrintRouteFunc func(method, path string)\n",
        "routes.go": "package gin\n\nfunc addRoute() { DebugPrintRouteFunc(\"GET\", \"/\") }\n",
    })
    ids = named(graph)
    first, second = ids[("debug.go", "DebugPrintFunc")], ids[("debug.go", "DebugPrintRouteFunc")]
    assert first != second
    assert {(ids[("debug.go", "debug.go")], node) for node in (first, second)} <= edges_of(graph, "defines")
    assert (ids[("routes.go", "addRoute")], second) in edges_of(graph, "calls")


def test_an_elixir_bare_call_is_its_own_modules_function_not_a_namesake_beside_it():
    # elixir-lang: Path.absname's `split(path)` was linked to OptionParser.split as well (same folder, by name).
    graph = graph_of({
        "lib/path.ex": "defmodule Path do\n  def absname(p), do: split(p)\n  def split(p), do: [p]\nend\n",
        "lib/option_parser.ex": "defmodule OptionParser do\n  def split(s), do: [s]\nend\n",
    })
    ids = named(graph)
    calls = edges_of(graph, "calls")
    absname = ids[("lib/path.ex", "Path.absname")]
    assert (absname, ids[("lib/path.ex", "Path.split")]) in calls
    assert (absname, ids[("lib/option_parser.ex", "OptionParser.split")]) not in calls


def test_an_elixir_call_on_a_module_by_name_is_that_modules_function_in_another_file():
    # elixir-lang: `Path.split(a)` in lib/mix/tasks was linked to Mix.Tasks.Split.split (same folder, by name),
    # `Mix.State.write_cache` to Kernel.LexicalTracker.write_cache, and `Enum.map` to any `map` of the repository.
    graph = graph_of({
        "lib/path.ex": "defmodule Path do\n  def split(p), do: [p]\nend\n",
        "lib/mix/tasks/split.ex": "defmodule Mix.Tasks.Split do\n  def split(a), do: a\n  def map(a), do: a\nend\n",
        "lib/plug/conn.ex": "defmodule Plug.Conn do\n  defmodule Unfetched do\n    def new(x), do: x\n  end\n"
                            "  def fetch(x), do: Unfetched.new(x)\nend\n",
        "lib/conn.ex": "defmodule Conn do\n  def fetch(x), do: x\nend\n",  # shadowed by the alias below
        "lib/mix/tasks/run.ex": "defmodule Mix.Tasks.Run do\n  alias Plug.Conn\n  alias Plug.Conn, as: C\n"
                                "  require Plug.Conn, as: R\n  alias Plug.{Conn}\n\n"
                                "  def run(a), do: Path.split(a)\n  def full(x), do: Plug.Conn.fetch(x)\n"
                                "  def nested(x), do: Conn.Unfetched.new(x)\n  def renamed(x), do: C.fetch(x)\n"
                                "  def required(x), do: R.fetch(x)\n  def listed(x), do: Conn.fetch(x)\n"
                                "  def outside(x), do: Enum.map(x)\n  def own(x), do: __MODULE__.run(x)\nend\n",
    })
    ids = named(graph)
    run = "lib/mix/tasks/run.ex"
    calls = {(e[0], e[2]): e[4] for e in graph.edges if e[1] == "calls"}
    fetch, new = ids[("lib/plug/conn.ex", "Plug.Conn.fetch")], ids[("lib/plug/conn.ex", "Plug.Conn.Unfetched.new")]
    assert calls[(ids[(run, "Mix.Tasks.Run.run")], ids[("lib/path.ex", "Path.split")])] == "import"
    assert (ids[(run, "Mix.Tasks.Run.run")], ids[("lib/mix/tasks/split.ex", "Mix.Tasks.Split.split")]) not in calls
    for caller, target in (("full", fetch), ("nested", new), ("renamed", fetch), ("required", fetch), ("listed", fetch)):
        assert calls[(ids[(run, f"Mix.Tasks.Run.{caller}")], target)] == "import", caller
    assert (ids[(run, "Mix.Tasks.Run.listed")], ids[("lib/conn.ex", "Conn.fetch")]) not in calls
    assert calls[(ids[("lib/plug/conn.ex", "Plug.Conn.fetch")], new)] == "scope"  # the nested module by its alias
    assert calls[(ids[(run, "Mix.Tasks.Run.own")], ids[(run, "Mix.Tasks.Run.run")])] == "scope"
    assert not [target for (source, target) in calls if source == ids[(run, "Mix.Tasks.Run.outside")]]
    assert graph.routes["calls"]["external"] == 1  # Enum, which the repository does not define
    references = {(e[0], e[2]) for e in graph.edges if e[1] == "references"}
    assert (ids[(run, "Mix.Tasks.Run.nested")], ids[("lib/plug/conn.ex", "Plug.Conn.Unfetched")]) in references


def test_a_lua_call_on_a_module_table_reaches_the_function_defined_onto_it():
    # penlight: `function tablex.deepcompare` was named `tablex.deepcompare`, so `tablex.deepcompare(x, y)` in
    # pl/test.lua (which calls it `deepcompare`) reached nothing.
    graph = graph_of({
        "pl/tablex.lua": "local tablex = {}\n\nfunction tablex.deepcompare(a, b)\n  return a == b\nend\n\n"
                         "return tablex\n",
        "pl/test.lua": "local tablex = require 'pl.tablex'\nlocal test = {}\n\n"
                       "function test.asserteq(x, y)\n  return tablex.deepcompare(x, y)\nend\n",
    })
    ids = named(graph)
    assert (ids[("pl/test.lua", "test.asserteq")], ids[("pl/tablex.lua", "tablex.deepcompare")]) in edges_of(
        graph, "calls")


def test_haskell_and_lua_imports_name_the_files_their_modules_are():
    # xmonad-contrib: `import XMonad.Layout.Grid` is XMonad/Layout/Grid.hs, penlight's `require 'pl.tablex'` is
    # pl/tablex.lua; neither was resolved (0 import edges on 336 Haskell files).
    graph = graph_of({
        "XMonad/Layout/Grid.hs": "module XMonad.Layout.Grid where\n\narrange :: Int -> Int\narrange n = n\n",
        "XMonad/Layout/Other.hs": "module XMonad.Layout.Other where\n\narrange :: Int -> Int\narrange n = n\n",
        "XMonad/Config/Mine.hs": "module XMonad.Config.Mine where\nimport XMonad.Layout.Grid\n\n"
                                 "layout :: Int\nlayout = arrange 3\n",
        "lua/pl/tablex.lua": "local tablex = {}\nfunction tablex.size(t) return #t end\nreturn tablex\n",
        "lua/app.lua": "local tablex = require 'pl.tablex'\nprint(tablex.size({}))\n",
    })
    ids = named(graph)
    imports = edges_of(graph, "imports")
    assert (ids[("XMonad/Config/Mine.hs", "Mine.hs")], ids[("XMonad/Layout/Grid.hs", "Grid.hs")]) in imports
    assert (ids[("lua/app.lua", "app.lua")], ids[("lua/pl/tablex.lua", "tablex.lua")]) in imports
    calls = edges_of(graph, "calls")
    layout = ids[("XMonad/Config/Mine.hs", "layout")]
    assert (layout, ids[("XMonad/Layout/Grid.hs", "arrange")]) in calls
    assert (layout, ids[("XMonad/Layout/Other.hs", "arrange")]) not in calls


_EDGES = st.lists(st.tuples(st.sampled_from(EDGE_KINDS), st.integers(0, 2**40), st.integers(0, 10**6),
                            st.sampled_from(RESOLUTIONS)).map(list), max_size=12)


@given(st.dictionaries(st.integers(0, 2**40), _EDGES, max_size=8))
def test_a_buckets_edges_round_trip_through_their_columns(edges):
    from gitroute.bundle.graph import decode_edges, edge_shard, load_edge_shard

    stored = load_edge_shard(edge_shard(edges))
    assert {node: decode_edges(node, value) for node, value in stored.items()} == edges


_ANY_TEXT = st.text(st.characters(blacklist_categories=()), max_size=12)  # lone surrogates too (surrogateescape)
_PATHS = st.lists(st.sampled_from(["a", "b.py", "é", "\udcff", ""]), min_size=1, max_size=3).map("/".join)


@st.composite
def _node_records(draw) -> list:
    path = draw(_PATHS | _ANY_TEXT)
    line = draw(st.integers(0, 2**31 - 1))
    return [path, draw(st.just(path.rpartition("/")[2]) | _ANY_TEXT), draw(_ANY_TEXT), draw(st.sampled_from(NODE_KINDS)),
            line, line + draw(st.integers(-line, 2**31 - 1)), draw(st.sampled_from(["python", "go", ""])),
            draw(st.integers(0, 1)), draw(st.text(max_size=30))]


@given(st.lists(_node_records(), max_size=NODE_PAGE))
def test_a_buckets_node_records_round_trip_through_their_columns(records):
    from gitroute.bundle.graph import load_node_shard, node_shard

    bucket = load_node_shard(node_shard(records))
    assert len(bucket) == len(records)
    assert list(bucket) == records
    assert [bucket[k] for k in reversed(range(len(records)))] == records[::-1]  # any record, in any order


def test_a_node_record_reads_without_decoding_its_buckets_other_strings():
    from gitroute.bundle.graph import load_node_shard, node_shard

    records = [[f"pkg/m{k}.py", f"name{k}", "", "function", k + 1, k + 2, "python", 0, f"doc {k}"]
               for k in range(NODE_PAGE)]
    bucket = load_node_shard(node_shard(records))

    assert bucket[123] == records[123]
    assert len(bucket.strings) == 5  # its path, name, owner, language and doc: none of the other records
    assert bucket[0] == ["pkg/m0.py", "name0", "", "function", 1, 2, "python", 0, "doc 0"]


def test_a_file_named_as_its_path_spells_the_name_once():
    from gitroute.bundle.graph import node_shard

    path = "django/contrib/admin/templatetags/admin_modify.py"
    assert node_shard([[path, "admin_modify.py", "", "file", 1, 1, "python", 0, ""]]).count(b"admin_modify.py") == 1


def test_a_node_line_below_zero_or_past_eight_bytes_is_refused_when_written():
    from gitroute.bundle.graph import load_node_shard, node_shard

    record = ["a.py", "f", "", "function", 2**40, 2**40 + 3, "python", 0, ""]
    assert list(load_node_shard(node_shard([record]))) == [record]
    for line in (-1, 2**64):
        with pytest.raises(BadValue):
            node_shard([["a.py", "f", "", "function", line, 3, "python", 0, ""]])


def test_a_forged_node_count_allocates_nothing_and_is_a_bad_value():
    import tracemalloc

    from gitroute.bundle.graph import NODES_MAGIC, load_node_shard, node_shard
    from gitroute.bundle.varints import encode_varints

    good = node_shard([["a.py", "f", "", "function", 2, 3, "python", 0, ""]])
    forged = [NODES_MAGIC + encode_varints([2**20, 1, 1, 4]) + good[8:],  # a million records in a few bytes
              NODES_MAGIC + encode_varints([1, 2**40, 5]) + good[8:],  # more strings than bytes
              NODES_MAGIC + encode_varints([1, 3, 2**62]) + good[8:]]  # strings' lengths past the end
    tracemalloc.start()
    try:
        for data in forged:
            with pytest.raises(BadValue):
                load_node_shard(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024


@pytest.mark.parametrize("column, value", [(0, 9), (1, 9), (2, 9), (3, 2 * len(NODE_KINDS)), (6, 9), (7, 9)])
def test_a_node_column_naming_what_its_bucket_lacks_is_a_bad_value(column, value):
    from gitroute.bundle.graph import load_node_shard, node_shard

    good = node_shard([["a.py", "f", "", "function", 2, 3, "python", 0, ""]])
    columns = len(good) - 8  # eight columns of one byte each: one record
    forged = bytearray(good)
    forged[columns + column] = value
    load_node_shard(good)[0]
    with pytest.raises(BadValue):
        load_node_shard(bytes(forged))[0]  # checked when the record is read


def test_a_node_string_that_is_not_utf8_is_a_bad_value_when_read():
    from gitroute.bundle.graph import load_node_shard, node_shard

    good = node_shard([["a.py", "f", "", "function", 2, 3, "python", 0, "é"]])
    bucket = load_node_shard(good.replace("é".encode(), b"\xff\xff"))
    with pytest.raises(BadValue):
        bucket[0]


@given(st.lists(_node_records(), min_size=1, max_size=20), st.data())
def test_a_node_bucket_with_a_byte_changed_reads_or_is_a_bad_value(records, data):
    from gitroute.bundle.graph import load_node_shard, node_shard

    blob = bytearray(node_shard(records))
    at = data.draw(st.integers(0, len(blob) - 1))
    blob[at] = data.draw(st.integers(0, 255))
    try:
        bucket = load_node_shard(bytes(blob))
    except BadValue:
        return
    for k in range(len(bucket)):
        try:
            record = bucket[k]
        except BadValue:
            continue
        assert len(record) == 9 and record[3] in NODE_KINDS


@given(st.binary(max_size=300), st.sampled_from([b"GRe2", b"GRn1", b"GRs1", b""]))
def test_a_malformed_graph_blob_is_a_bad_value_never_a_traceback(data, magic):
    from gitroute.bundle.graph import decode_edges, load_edge_shard, load_node_shard

    for load in (load_edge_shard, load_node_shard):
        try:
            loaded = load(magic + data)
        except BadValue:
            continue
        if isinstance(loaded, dict):
            for node, value in loaded.items():
                try:
                    decode_edges(node, value)
                except BadValue:
                    pass
        else:
            for k in range(len(loaded)):
                try:
                    loaded[k]
                except BadValue:
                    pass


def test_a_malformed_edges_blob_is_a_damaged_bundle_not_a_traceback():
    from gitroute.bundle.graph import edge_shard
    from gitroute.bundle.layout import edges_path
    from gitroute.bundle.store import corrupt_blob
    from gitroute.bundle.varints import encode_varints
    from gitroute.errors import BundleDamaged

    path = edges_path("in", 7)
    good = edge_shard({7: [["calls", 3, 12, "unique"]]})

    def shard(head: list[int], value: list[int]) -> bytes:
        spelled = encode_varints(head)
        return b"GRe2" + encode_varints([len(spelled)]) + spelled + encode_varints(value)

    unknown_kind = shard([1, 0, 7, 4], [99, 0, 0, 0])
    not_columns = shard([1, 0, 7, 2], [1, 2])
    twice = shard([2, 0, 0, 7, 0, 4, 4], [1, 0, 0, 0, 1, 0, 0, 0])
    before_its_node = shard([1, 0, 7, 4], [1, 0, 99, 0])  # an ordinal 49 below node 7's own
    for bad in (good[:-1], good + b"\x01", b"{}", unknown_kind, not_columns, twice, before_its_node):
        view = GraphView(lambda paths, bad=bad: {p: bad for p in paths if p == path}, corrupt_blob)
        with pytest.raises(BundleDamaged):
            view.edges_in([7])
    assert GraphView(lambda paths: {p: good for p in paths if p == path}, corrupt_blob).edges_in([7]) == {
        7: [["calls", 3, 12, "unique"]]}


@given(st.lists(st.tuples(st.sampled_from(["file", "function", "class", "method"]),
                          st.sampled_from(["a", "b", "read", "main.c", "x"])), max_size=30),
       st.sampled_from(["file", "function", "enum"]))
def test_a_node_tables_columns_read_as_its_nodes(kinds_and_names, kind: str) -> None:
    """The decision index and doc_links read a large graph's table by its columns, no node made: its names not of a
    kind, its ids of a kind, its paths' node counts, the nodes of some paths."""
    from collections import Counter

    from gitroute.graph import NodeTable
    from gitroute.model import Node

    nodes = [Node(i, f"f{i % 3}.c", name, node_kind, 1, 2, "c", "", "", False, "")
             for i, (node_kind, name) in enumerate(kinds_and_names)]
    table = NodeTable.from_nodes(nodes)
    assert table.names_not_of(kind) == {n.name for n in nodes if n.kind != kind}
    assert table.ids_of(kind) == [(n.path, n.id) for n in nodes if n.kind == kind]
    assert list(table.path_counts().items()) == list(Counter(n.path for n in nodes).items())
    assert table.kind_counts() == Counter(n.kind for n in nodes)
    for paths in ({"f0.c"}, {"f1.c", "f2.c"}, set()):
        assert table.nodes_in(paths) == [n for n in nodes if n.path in paths]


@given(st.lists(st.tuples(st.sampled_from(["a.c", "b.c", "c/d.py"]), st.booleans()), max_size=30))
def test_the_symbol_index_reads_a_tables_files_as_it_reads_the_nodes(paths_and_entries) -> None:
    """`symbols._file_runs` of a node table (its columns) and of the same nodes as a list: the same runs."""
    from gitroute.graph import NodeTable
    from gitroute.indexes.symbols import _file_runs
    from gitroute.model import Node

    nodes = [Node(i * 3 + 1, path, f"n{i}", "function", 1, 2, "c", "", "", entry, "")
             for i, (path, entry) in enumerate(paths_and_entries)]
    assert _file_runs(NodeTable.from_nodes(nodes)) == _file_runs(nodes)


@given(st.sets(st.integers(0, 2**40), max_size=40), st.lists(st.integers(-5, 2**40 + 5), max_size=20))
def test_a_node_table_by_id_answers_as_a_dict_of_its_nodes_does(ids: set[int], probes: list[int]) -> None:
    """doc_links looks a large graph's nodes up by id through `NodeTable.by_id`, none of them held."""
    from gitroute.graph import NodeTable
    from gitroute.model import Node

    nodes = [Node(i, f"d/f{i % 3}.c", f"n{i}", "function", i % 7 + 1, i % 7 + 2, "c", "", "", False, "")
             for i in sorted(ids)]
    by_id, plain = NodeTable.from_nodes(nodes).by_id(), {n.id: n for n in nodes}
    assert len(by_id) == len(plain) and list(by_id) == list(plain)
    for key in [*probes, *ids]:
        assert by_id.get(key) == plain.get(key) and by_id.get(key, "x") == plain.get(key, "x")
        assert (key in by_id) == (key in plain)
        if key in plain:
            assert by_id[key] == plain[key] and type(by_id[key]) is Node
        else:
            with pytest.raises(KeyError):
                by_id[key]
    assert "1" not in by_id


def test_name_tables_share_one_table_for_a_file_whose_symbols_are_all_top_level():
    """`_Resolution.tables`: a flat file's top-level table is its table of every symbol (one dict, not two); a file
    with nested symbols keeps its top-level ones apart; `everywhere` answers lists either way."""
    from gitroute import graph as graph_module

    files = [SourceFile(path, "0" * 40, language_for_path(path), extract(text.encode(), language_for_path(path)))
             for path, text in {"flat.c": "int f(void) { return g(); }\nint g(void) { return 1; }\n",
                                "nest.py": "class A:\n    def f(self):\n        pass\n\ndef f():\n    pass\n",
                                "two.py": "def g():\n    pass\n"}.items()]
    nodes, file_node, symbol_ids = graph_module._place_nodes(files)
    r = graph_module._Resolution(files, nodes, file_node, symbol_ids,
                                 graph_module.ModuleIndex(file_node, graph_module.module_index(file_node), {}, {}))
    local, top = r.tables("flat.c")
    assert top is local and set(local) == {"f", "g"}
    local, top = r.tables("nest.py")
    by_id = {n.id: n for n in nodes}
    assert top is not local and set(local) == {"A", "f"} and len(local["f"]) == 2
    assert [by_id[i].kind for i in top["f"]] == ["function"] and len(top["A"]) == 1
    assert all(type(ids) is list for ids in local.values())
    assert r.everywhere("g") == sorted(i for i in by_id if by_id[i].name == "g") and len(r.everywhere("g")) == 2
    assert r.everywhere("A") == top["A"] and type(r.everywhere("A")) is list and r.everywhere("nothing") == []


def test_a_node_table_reads_as_the_node_list_it_was_made_from_and_crosses_a_file_whole():
    """What a large build's graph worker hands its parent: the same nodes, by index, slice, bisection and iteration,
    and the same graph blobs; strings in several chunks; a doc with a surrogate and an empty string survive."""
    import tempfile
    from bisect import bisect_left
    from operator import attrgetter

    from gitroute import graph as graph_module
    from gitroute.graph import NodeTable

    files = {f"pkg/m{i}.py": "".join(f"def f{i}_{j}(x):\n    '''Doc {j}.'''\n    return g()\n\n\n" for j in range(4))
             for i in range(30)}
    files["pkg/__main__.py"] = "if __name__ == '__main__':\n    print(1)\n"
    graph = graph_of(files)
    nodes = graph.nodes
    nodes[3] = nodes[3]._replace(doc="a lone \udc80 surrogate", signature="")
    table = NodeTable.from_nodes(nodes)
    assert list(table) == nodes and len(table) == len(nodes) and table == nodes
    assert [table[i] for i in range(-len(nodes), len(nodes))] == nodes + nodes
    assert table[5:9] == nodes[5:9] and table[::3] == nodes[::3] and table[7:2] == []
    with pytest.raises(IndexError):
        table[len(nodes)]
    assert all(type(a) is type(b) and type(a.entry) is bool for a, b in zip(table, nodes))
    assert any(n.entry for n in table)
    key = nodes[40].id
    assert bisect_left(table, key, key=attrgetter("id")) == bisect_left(nodes, key, key=attrgetter("id")) == 40

    chunk = graph_module._NODE_CHUNK
    graph_module._NODE_CHUNK = 7  # many chunks a column
    try:
        with tempfile.TemporaryFile() as handed:
            table.dump(handed)
            handed.write(b"after")
            handed.seek(0)
            loaded = NodeTable.load(handed)
            assert handed.read() == b"after"
    finally:
        graph_module._NODE_CHUNK = chunk
    assert loaded == nodes
    plain = graph_blobs(graph)
    graph.nodes = loaded
    assert graph_blobs(graph) == plain

    # The indexes built from a table are the ones built from the list (they read a file's nodes at a time).
    from gitroute.indexes.meaning import build_meaning_index
    from gitroute.indexes.meaning.postings import kept_files
    from gitroute.indexes.symbols import build_symbol_index

    assert [list(group) for group in kept_files(loaded)[0]] == kept_files(nodes)[0]
    texts = {path: text.encode() for path, text in files.items()}
    assert build_meaning_index(loaded, texts.get) == build_meaning_index(nodes, texts.get)
    assert build_symbol_index(loaded) == build_symbol_index(nodes)
    from gitroute.indexes.doc_links.linking import Linker
    from gitroute.indexes.impact import build_name_table

    blobs = {path: f"{i:040x}" for i, path in enumerate(files)}
    assert build_name_table(loaded, file_blobs=blobs) == build_name_table(nodes, file_blobs=blobs)
    linkers = [Linker(held, graph.edges) for held in (loaded, nodes)]
    assert type(linkers[0].nodes) is not dict and all(linkers[0].nodes[n.id] == n for n in nodes)
    tokens = ["f3_2", "pkg/m4.py", "pkg.m7", "m2.f2_1", "nothing_here"]
    assert [[linker.resolve_token(Token("code", t, "", 1), "README.md") for t in tokens] for linker in linkers] == [
        [linkers[1].resolve_token(Token("code", t, "", 1), "README.md") for t in tokens]] * 2


# What a memoised value read is one group, nested in the groups of the values that used it: the graph's memo numbers
# groups as keys, each listing its members' numbers. A group's keys are its members' keys, through any nesting.
_READ_PATHS = [f"pkg/m{i}.py" for i in range(8)]
_GROUPS = st.lists(st.lists(st.one_of(st.sampled_from(_READ_PATHS), st.integers(0, 40)), max_size=6), max_size=12)


def _made_groups(spec: list[list]) -> list:
    """Groups made in order, an integer member naming an earlier group (shared, as memo hits share them)."""
    from gitroute.graph import _ReadGroup

    groups: list = []
    for members in spec:
        groups.append(_ReadGroup(tuple(m if isinstance(m, str) else groups[m % len(groups)]
                                       for m in members if isinstance(m, str) or groups)))
    return groups


def _keys_of(read) -> set[str]:
    from gitroute.graph import _ReadGroup

    return set().union(*map(_keys_of, read.members)) if isinstance(read, _ReadGroup) else {read}


@given(_GROUPS, st.lists(st.lists(st.one_of(st.sampled_from(_READ_PATHS), st.integers(0, 40)), max_size=5), max_size=6),
       st.sets(st.sampled_from(_READ_PATHS)))
def test_the_graph_memo_numbers_nested_read_groups_so_a_file_moves_exactly_when_a_key_it_read_did(
        spec, files, changed) -> None:
    import marshal
    from array import array
    from collections import Counter
    from types import SimpleNamespace

    from gitroute.graph import _EdgeMemo, _FilePart

    groups = _made_groups(spec)
    reads = [{r if isinstance(r, str) else groups[r % len(groups)] for r in file if isinstance(r, str) or groups}
             for file in files]
    memo = _EdgeMemo.__new__(_EdgeMemo)  # its numbering of reads alone (`settle`): no table, no resolution's tables
    memo.number, memo.keys, memo.values, memo.group_numbers, memo.settled = {}, [], [], 0, []
    memo.fresh = [(f"f{at}.py", _FilePart(0, 0, (), 0, tuple(file))) for at, file in enumerate(reads)]
    memo.resolution = SimpleNamespace(work=Counter())
    memo.settle()
    numbers = [array("I", kept) for _path, kept, _part in memo.settled]
    assert all(isinstance(key, (str, tuple)) for key in memo.number), "no group outlives settling"
    # Read back as a later build reads them: the keys marshalled by the memo, numbered again.
    memo.keys = marshal.loads(marshal.dumps(memo.keys))
    memo.number = {key: n for n, key in enumerate(memo.keys)}

    def expanded(n: int) -> set[str]:
        key = memo.keys[n]
        return {key} if isinstance(key, str) else set().union(*map(expanded, array("I", key[1])))

    for file, kept in zip(reads, numbers):
        assert set().union(*map(expanded, kept)) == set().union(*map(_keys_of, file))
    moved = memo._moved(changed, set(), False)
    for file, kept in zip(reads, numbers):
        assert (not moved.isdisjoint(kept)) == bool(set().union(*map(_keys_of, file)) & changed)
    assert len(memo.keys) == len(set(memo.keys)), "equal groups have one number"


def _edges_one_by_one(edges: dict[int, list]) -> bytes:
    """An edges blob as `edge_shard`'s docstring spells it, an edge at a time (the encoder before its columns were
    made in one loop over the packed table)."""
    from gitroute.bundle.graph import EDGES_MAGIC
    from gitroute.bundle.varints import encode_varints, node_gaps

    def zigzag(n: int) -> int:
        return n << 1 if n >= 0 else (-n << 1) - 1

    shift, mask = NODE_ORDINAL_BITS, (1 << NODE_ORDINAL_BITS) - 1
    values = []
    for node_id in sorted(edges):
        codes, buckets, ordinals, lines, before = [], [], [], [], 0
        for kind, other, line, how in edges[node_id]:
            moved = (other >> shift) - (node_id >> shift)
            codes.append(EDGE_KINDS.index(kind) * len(RESOLUTIONS) + RESOLUTIONS.index(how))
            buckets.append(zigzag(moved))
            ordinals.append(other & mask if moved else zigzag((other & mask) - (node_id & mask)))
            lines.append(zigzag(line - before))
            before = line
        values.append(encode_varints(codes + buckets + ordinals + lines))
    head = encode_varints([len(values), *node_gaps(sorted(edges)), *map(len, values)])
    return EDGES_MAGIC + encode_varints([len(head)]) + head + b"".join(values)


# A few nodes in two buckets, so that nodes have several edges and ends in their own bucket and in another.
_NODE = st.sampled_from([3, 9, 1 << NODE_ORDINAL_BITS, (1 << NODE_ORDINAL_BITS) + 2, (5 << NODE_ORDINAL_BITS) + 1])
_PACKED = st.lists(st.tuples(_NODE, st.sampled_from(EDGE_KINDS), _NODE, st.integers(-5, 10**6),
                             st.sampled_from(RESOLUTIONS)), max_size=40)


@given(st.dictionaries(st.integers(0, 2**40), _EDGES, max_size=8))
def test_edge_shard_spells_what_one_edge_at_a_time_spells(edges):
    from gitroute.bundle.graph import edge_shard

    assert edge_shard(edges) == _edges_one_by_one(edges)


@given(_PACKED, st.data())
def test_a_buckets_edges_read_from_the_packed_table_are_what_edge_shard_spells(edges, data):
    """Edges by target (keys ascending) or by source (keys in any order): each node's in the order given."""
    from gitroute.bundle.graph import _bucket_edges
    from gitroute.edges import EdgeTable, pack

    table = EdgeTable()
    table.add(pack(edges))
    ats = data.draw(st.lists(st.integers(0, len(edges) - 1), unique=True)) if edges else []
    for keys_of, others in ((table.targets, table.sources), (table.sources, table.targets)):
        keys = [keys_of[at] for at in ats]
        held: dict[int, list] = {}
        for at, key in zip(ats, keys):
            held.setdefault(key, []).append([EDGE_KINDS[table.kinds[at]], others[at], table.lines[at],
                                             RESOLUTIONS[table.hows[at]]])
        assert _bucket_edges(table, ats, keys, others) == _edges_one_by_one(held)


def test_nodes_placed_without_details_make_the_node_table_their_details_read_again_make():
    """A large build's graph worker places its nodes without signatures and docs (resolving reads neither) and reads
    them again from the files' symbols as it hands them back: the same table, and the same edges."""
    from gitroute.graph import NodeTable, node_details

    texts = {"pkg/a.py": "class A:\n    '''An A.'''\n    def f(self, x):\n        '''F.'''\n        return g(x)\n",
             "pkg/b.py": "def g(y):\n    '''G.'''\n    return A()\n", "README.md": "# r\n",
             "lib/c.c": "/* Adds. */\nint add(int a, int b) { return a + b; }\n#define TWO 2\n"}
    files = [SourceFile(path, f"blob-{path}", language_for_path(path),
                        extract(text.encode(), language_for_path(path)) if language_for_path(path) else None)
             for path, text in texts.items()]
    whole, bare = build_graph(files), build_graph(files, details=False)
    assert any(n.signature for n in whole.nodes) and any(n.doc for n in whole.nodes)
    assert not any(n.signature or n.doc for n in bare.nodes)
    assert [n._replace(signature="", doc="") for n in whole.nodes] == bare.nodes
    assert list(bare.edges) == list(whole.edges) and bare.node_digests == whole.node_digests
    symbols = {f.path: f.extract.symbols for f in files if f.extract}
    table = NodeTable.from_nodes(bare.nodes, node_details(bare.nodes, symbols))
    expected = NodeTable.from_nodes(whole.nodes)
    assert table == whole.nodes and table.strings == expected.strings and table.codes == expected.codes


_NAMES = st.sampled_from(["a", "b", "café", "", "x\udc80y", "Model"])


@given(st.lists(st.tuples(st.sampled_from(["a.c", "b/c.py", ""]), _NAMES, _NAMES, _NAMES, st.booleans(),
                          st.integers(0, 2**40)), max_size=40))
def test_a_node_tables_columns_are_each_fields_distinct_values_first_seen(rows) -> None:
    """Each string column is its field's distinct values in the order first seen and each node's place among them,
    with or without `details`; and a table's file runs, read from its codes, are the node list's."""
    from gitroute.graph import NODE_STRINGS, NodeTable, file_spans
    from gitroute.model import Node

    nodes = [Node(i, path, name, "function", line, line + 1, "c", signature, doc, entry, "")
             for i, (path, name, signature, doc, entry, line) in enumerate(rows)]
    whole = NodeTable.from_nodes(nodes)
    bare = [n._replace(signature="", doc="") for n in nodes]
    detailed = NodeTable.from_nodes(bare, iter([(n.signature, n.doc) for n in nodes]))
    for table in (whole, detailed):
        assert table == nodes
        for field_at, strings, codes in zip(NODE_STRINGS, table.strings, table.codes):
            values = [n[field_at] for n in nodes]
            assert strings == list(dict.fromkeys(values)) and [strings[c] for c in codes] == values
    assert whole.strings == detailed.strings and whole.codes == detailed.codes
    assert bytes(whole.entries) == bytes(n.entry for n in nodes)
    assert file_spans(whole) == file_spans(detailed) == file_spans(nodes)  # a table's runs read from its codes
