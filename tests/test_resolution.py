"""Call and reference resolution in the code graph: each route per language family, ambiguity, self/this.

Files are parsed with the real tree-sitter grammars and merged by `build_graph`; each test names the
edge it expects (who uses what, and how it was resolved), and what must not be linked.
"""
from __future__ import annotations

import pytest

from gitroute.graph import MAX_AMBIGUOUS, SourceFile, build_graph
from gitroute.model import DeclaredEntry, Edge
from gitroute.parsing import declared_entry_points, extract, language_for_path


def graph_of(files: dict[str, str]):
    """The graph of these files, with what their manifests (package.json, go.mod) declare."""
    sources = []
    declared = []
    for path, text in sorted(files.items()):
        lang = language_for_path(path)
        sources.append(SourceFile(path, f"{len(sources):040x}", lang, extract(text.encode(), lang) if lang else None))
        declared.extend((path, d) for d in declared_entry_points(path, text.encode()))
    return build_graph(sources, declared)


def edges(graph, kind: str = "calls") -> set[tuple[str, str, str]]:
    """(source label, target label, how) of every `kind` edge; a label is `path:name` or `path`."""
    by_id = {n.id: n for n in graph.nodes}

    def label(node_id: int) -> str:
        n = by_id[node_id]
        return n.path if n.kind == "file" else f"{n.path}:{n.name}"

    return {(label(e.source), label(e.target), e.how) for e in graph.edges if e.kind == kind}


def test_edges_are_typed_and_record_how_they_were_resolved() -> None:
    graph = graph_of({"a.py": "def f():\n    g()\n\ndef g():\n    pass\n"})
    assert all(isinstance(e, Edge) for e in graph.edges)
    assert {e.how for e in graph.edges if e.kind in ("defines", "contains", "method")} == {"structure"}
    assert ("a.py:f", "a.py:g", "scope") in edges(graph)


# --- Python -----------------------------------------------------------------------------------


def test_python_same_file_wins_over_a_same_named_function_elsewhere() -> None:
    graph = graph_of({
        "pkg/a.py": "def helper():\n    pass\n\ndef run():\n    helper()\n",
        "pkg/b.py": "def helper():\n    pass\n",
    })
    assert {e for e in edges(graph) if e[0] == "pkg/a.py:run"} == {("pkg/a.py:run", "pkg/a.py:helper", "scope")}


def test_python_star_import_takes_the_module_that_defines_the_name_not_one_that_reexports_it() -> None:
    # networkx's isomorphism package: its __init__ star-imports a module that defines GraphMatcher (a
    # subclass) and one whose module imports the base class under another name. `iso.GraphMatcher` is the
    # subclass; the base class is not reached through the other module's re-exports.
    graph = graph_of({
        "pkg/iso/__init__.py": "from pkg.iso.helpers import *\nfrom pkg.iso.userfunc import *\n",
        "pkg/iso/base.py": "class GraphMatcher:\n    pass\n",
        "pkg/iso/helpers.py": "from pkg.iso.base import *\n\ndef helper():\n    pass\n",
        "pkg/iso/userfunc.py": "from pkg.iso import base\n\nclass GraphMatcher(base.GraphMatcher):\n    pass\n",
        "tests/test_iso.py": "from pkg import iso\n\ndef test_match():\n    iso.GraphMatcher()\n",
    })
    found = {e[1] for e in edges(graph) if e[0] == "tests/test_iso.py:test_match"}
    assert found == {"pkg/iso/userfunc.py:GraphMatcher"}


def test_python_star_import_still_follows_reexports_when_no_module_defines_the_name() -> None:
    graph = graph_of({
        "pkg/iso/__init__.py": "from pkg.iso.helpers import *\n",
        "pkg/iso/base.py": "class GraphMatcher:\n    pass\n",
        "pkg/iso/helpers.py": "from pkg.iso.base import *\n",
        "tests/test_iso.py": "from pkg import iso\n\ndef test_match():\n    iso.GraphMatcher()\n",
    })
    found = {e[1] for e in edges(graph) if e[0] == "tests/test_iso.py:test_match"}
    assert found == {"pkg/iso/base.py:GraphMatcher"}


def test_python_import_with_alias_resolves_to_the_imported_module_only() -> None:
    graph = graph_of({
        "app/main.py": "from lib.text import slug as make_slug\n\ndef run():\n    make_slug('x')\n",
        "lib/text.py": "def slug(value):\n    return value\n",
        "other/text.py": "def slug(value):\n    return value\n",
    })
    assert {e for e in edges(graph) if e[0] == "app/main.py:run"} == {
        ("app/main.py:run", "lib/text.py:slug", "import")}


def test_python_module_import_and_attribute_call() -> None:
    graph = graph_of({
        "app/main.py": "import lib.text as t\nimport lib.util\n\ndef run():\n    t.slug(1)\n    lib.util.clean(2)\n",
        "lib/text.py": "def slug(value):\n    return value\n",
        "lib/util.py": "def clean(value):\n    return value\n",
        "x/util.py": "def clean(value):\n    return value\n",
    })
    found = edges(graph)
    assert ("app/main.py:run", "lib/text.py:slug", "import") in found
    assert ("app/main.py:run", "lib/util.py:clean", "import") in found
    assert not any(target == "x/util.py:clean" for _, target, _ in found)


def test_python_import_follows_a_package_reexport() -> None:
    graph = graph_of({
        "app.py": "from db.models import Model\n\nclass User(Model):\n    pass\n",
        "db/models/__init__.py": "from db.models.base import Model\n",
        "db/models/base.py": "class Model:\n    pass\n",
        "tests/models.py": "class Model:\n    pass\n",
    })
    assert ("app.py:User", "db/models/base.py:Model", "import") in edges(graph, "inherits")


def test_python_external_import_is_not_linked_to_a_same_named_local_function() -> None:
    graph = graph_of({
        "app.py": "import json\n\ndef run():\n    json.dumps(1)\n",
        "lib/fake.py": "def dumps(value):\n    return value\n",
    })
    assert not edges(graph)
    assert graph.counts()["calls_by_route"]["external"] == 1


def test_python_builtins_are_not_the_repository_s_same_named_methods() -> None:
    graph = graph_of({
        "a.py": "class A:\n    def run(self):\n        return len([])\n",
        "b.py": "class Template:\n    def len(self):\n        pass\n",
    })
    assert not edges(graph)


def test_python_standard_library_imports_name_no_same_named_file_or_folder_of_the_repository() -> None:
    graph = graph_of({
        "app/run.py": "import json\nimport typing\nfrom email import utils\n\ndef run():\n    json.dumps(1)\n"
                      "    utils.parseaddr('a')\n",
        "app/json/__init__.py": "def dumps(value):\n    return value\n",  # app.json, not json
        "app/typing.py": "Alias = int\n",
        "app/__init__.py": "",
        "tests/email/utils.py": "def parseaddr(value):\n    return value\n",  # a namespace folder loses to email
    })
    assert edges(graph, "imports") == set()
    assert not {e for e in edges(graph) if e[0] == "app/run.py:run"}
    assert graph.counts()["calls_by_route"]["external"] == 2


def test_python_standard_library_name_is_the_repositorys_own_module_at_a_source_root() -> None:
    graph = graph_of({
        "src/json/__init__.py": "def dumps(value):\n    return value\n",  # a repository that is `json`
        "tests/test_json.py": "import json\n\ndef test_dumps():\n    json.dumps(1)\n",
    })
    assert ("tests/test_json.py", "src/json/__init__.py", "import") in edges(graph, "imports")
    assert ("tests/test_json.py:test_dumps", "src/json/__init__.py:dumps", "import") in edges(graph)


def test_python_absolute_import_is_a_module_from_a_source_root_or_beside_the_importer() -> None:
    graph = graph_of({
        "src/shop/__init__.py": "",
        "src/shop/cart.py": "def add():\n    pass\n",
        "src/shop/vendor/__init__.py": "",
        "src/shop/vendor/shop/__init__.py": "",  # shop.vendor.shop: not the top `shop`
        "src/shop/vendor/shop/cart.py": "def add():\n    pass\n",
        "tests/__init__.py": "",
        "tests/proxy/__init__.py": "",
        "tests/proxy/app1/__init__.py": "",
        "tests/proxy/app1/models.py": "class Nice:\n    pass\n",
        # The test puts its own folder on the path: `app1.models` is the module beside it.
        "tests/proxy/tests.py": "from shop.cart import add\nfrom app1.models import Nice\n\n"
                                "def test():\n    add()\n    Nice()\n",
    })
    assert {e for e in edges(graph) if e[0] == "tests/proxy/tests.py:test"} == {
        ("tests/proxy/tests.py:test", "src/shop/cart.py:add", "import"),
        ("tests/proxy/tests.py:test", "tests/proxy/app1/models.py:Nice", "import")}


def test_python_package_is_its_init_not_a_main_module_beside_it() -> None:
    graph = graph_of({
        "tool/__init__.py": "def run():\n    pass\n",
        "tool/main.py": "def run():\n    pass\n",
        "cli.py": "import tool\n\ndef go():\n    tool.run()\n",
    })
    assert {e for e in edges(graph, "imports") if e[0] == "cli.py"} == {("cli.py", "tool/__init__.py", "import")}


def test_python_same_package_then_unique_name() -> None:
    graph = graph_of({
        "pkg/a.py": "def run():\n    shared()\n    unique_elsewhere()\n",
        "pkg/b.py": "def shared():\n    pass\n",
        "other/c.py": "def shared():\n    pass\n",
        "other/d.py": "def unique_elsewhere():\n    pass\n",
    })
    found = edges(graph)
    assert ("pkg/a.py:run", "pkg/b.py:shared", "package") in found
    assert ("pkg/a.py:run", "other/c.py:shared", "package") not in found
    assert ("pkg/a.py:run", "other/d.py:unique_elsewhere", "unique") in found


def test_python_ambiguous_call_keeps_every_candidate_marked() -> None:
    graph = graph_of({
        "app/run.py": "def main(obj):\n    obj.save()\n",
        "one/a.py": "class A:\n    def save(self):\n        pass\n",
        "two/b.py": "class B:\n    def save(self):\n        pass\n",
    })
    assert {e for e in edges(graph) if e[0] == "app/run.py:main"} == {
        ("app/run.py:main", "one/a.py:save", "ambiguous"),
        ("app/run.py:main", "two/b.py:save", "ambiguous"),
    }
    counts = graph.counts()
    assert counts["calls_by_route"]["ambiguous"] == 1
    assert counts["ambiguous_edges"]["calls"] == 2


def test_python_too_many_candidates_are_left_unresolved_and_counted() -> None:
    files = {f"m{i}/x.py": "class C:\n    def get(self):\n        pass\n" for i in range(MAX_AMBIGUOUS + 1)}
    files["app/run.py"] = "def main(obj):\n    obj.get()\n"
    graph = graph_of(files)
    assert not {e for e in edges(graph) if e[0] == "app/run.py:main"}
    assert graph.counts()["calls_by_route"]["too_ambiguous"] == 1


def test_python_self_call_resolves_in_the_class_then_its_bases() -> None:
    graph = graph_of({
        "base.py": "class Base:\n    def save(self):\n        pass\n",
        "child.py": (
            "from base import Base\n\nclass Child(Base):\n    def run(self):\n        self.save()\n"
            "        self.own()\n\n    def own(self):\n        pass\n"
        ),
        "other.py": "class Other:\n    def save(self):\n        pass\n    def own(self):\n        pass\n",
    })
    found = {e for e in edges(graph) if e[0] == "child.py:run"}
    assert found == {("child.py:run", "base.py:save", "scope"), ("child.py:run", "child.py:own", "scope")}


def test_python_super_call_resolves_in_the_bases_and_a_computed_receiver_is_a_method_call() -> None:
    graph = graph_of({
        "pkg/base.py": "class Base:\n    def __init__(self):\n        pass\n",
        "pkg/child.py": (
            "from pkg.base import Base\n\nclass Child(Base):\n    def __init__(self):\n        super().__init__()\n"
            "\n\ndef make():\n    return factory().build()\n"
        ),
        "pkg/other.py": "class Other:\n    def __init__(self):\n        pass\n\ndef build():\n    pass\n",
    })
    found = edges(graph)
    assert {e for e in found if e[0] == "pkg/child.py:__init__"} == {("pkg/child.py:__init__", "pkg/base.py:__init__", "scope")}
    # `factory().build()` is a method of an unknown object: not the module-level function `build` beside it.
    assert not {e for e in found if e[0] == "pkg/child.py:make"}


# --- JavaScript / TypeScript --------------------------------------------------------------------


def test_javascript_require_and_import_bindings() -> None:
    graph = graph_of({
        "src/app.js": (
            "const router = require('./router');\nimport { render as draw } from './view';\n"
            "function start() {\n  router.route();\n  draw();\n}\n"
        ),
        "src/router.js": "function route() {}\nmodule.exports = { route };\n",
        "src/view.js": "export function render() {}\n",
        "lib/other.js": "function route() {}\nfunction render() {}\n",
    })
    found = {e for e in edges(graph) if e[0] == "src/app.js:start"}
    assert found == {("src/app.js:start", "src/router.js:route", "import"),
                     ("src/app.js:start", "src/view.js:render", "import")}


def test_javascript_node_test_and_core_modules_name_no_file_of_the_repository() -> None:
    graph = graph_of({
        "package.json": '{"name": "pkg", "main": "index.js"}',
        "index.js": "function main() {}\nmodule.exports = { main }\n",
        "lib/path.js": "function join() {}\nmodule.exports = { join }\n",
        "test/helper.js": "const { test } = require('node:test')\nfunction setup() {}\nmodule.exports = { setup, test }\n",
        "test/a.test.js": (
            "const { test } = require('node:test')\nimport run from 'node:test'\nconst path = require('path')\n"
            "const { main } = require('..')\nfunction suite() {\n  test('a', main)\n  run()\n  path.join()\n  main()\n}\n"
        ),
    })
    assert {e for e in edges(graph, "imports") if e[0] == "test/a.test.js"} == {("test/a.test.js", "index.js", "import")}
    assert {e for e in edges(graph) if e[0] == "test/a.test.js:suite"} == {
        ("test/a.test.js:suite", "index.js:main", "import")}
    assert graph.counts()["calls_by_route"]["external"] == 3


def test_a_folder_without_an_index_is_its_package_main_to_require() -> None:
    # mustache: bin/mustache requires '..'; the top has no index.js, its package.json's main is mustache.js (and a
    # bin of the package's own name is no module to require)
    files = {
        "package.json": '{"name": "tmpl", "main": "tmpl.js", "bin": {"tmpl": "./bin/tmpl.js"}, '
                        '"exports": {".": {"import": "./tmpl.mjs", "require": "./tmpl.js"}}}',
        "tmpl.js": "function render(t) { return t }\nmodule.exports = { render }\n",
        "tmpl.mjs": "export function render(t) { return t }\n",
        "bin/tmpl.js": "const Tmpl = require('..')\nfunction run(t) { return Tmpl.render(t) }\n",
        "lib/sub/index.js": "function helper() {}\nmodule.exports = { helper }\n",
        "test/sub.test.js": "const { helper } = require('../lib/sub')\nfunction check() { helper() }\n",
    }
    graph = graph_of(files)
    assert ("bin/tmpl.js", "tmpl.js", "import") in edges(graph, "imports")
    assert ("bin/tmpl.js:run", "tmpl.js:render", "import") in edges(graph)
    assert ("test/sub.test.js", "lib/sub/index.js", "import") in edges(graph, "imports")  # an index still first
    # without a main, a folder with no index is no module
    bare = graph_of({**files, "package.json": '{"name": "tmpl"}'})
    assert not [e for e in edges(bare, "imports") if e[0] == "bin/tmpl.js"]


def test_javascript_bare_specs_name_a_package_of_the_repository_or_a_path_from_a_package_root_only() -> None:
    graph = graph_of({
        "tsconfig.json": '{"compilerOptions": {"baseUrl": "src"}}',
        "src/components/Button.tsx": "export function Button() {}\n",
        "src/vendor/lodash.js": "export function chunk() {}\n",  # not the lodash package
        "packages/utils/package.json": '{"name": "@acme/utils"}',
        "packages/utils/src/index.ts": "export function slug() {}\n",
        "src/app.ts": (
            "import { Button } from 'components/Button'\nimport { chunk } from 'lodash'\n"
            "import { slug } from '@acme/utils'\nimport { x } from '@/lib'\n\n"
            "export function app() {\n  Button()\n  chunk()\n  slug()\n  x()\n}\n"
        ),
        "src/lib/a.ts": "export function x() {}\n",  # a folder without an index is no module
        "src/lib/b.ts": "export function y() {}\n",
    })
    assert {e for e in edges(graph, "imports") if e[0] == "src/app.ts"} == {
        ("src/app.ts", "src/components/Button.tsx", "import"), ("src/app.ts", "packages/utils/src/index.ts", "import")}


def test_typescript_this_call_resolves_in_the_class_and_its_base() -> None:
    graph = graph_of({
        "src/base.ts": "export class Base {\n  log(): void {}\n}\n",
        "src/service.ts": (
            "import { Base } from './base';\n"
            "export class Service extends Base {\n  run(): void {\n    this.log();\n    this.step();\n  }\n"
            "  step(): void {}\n}\n"
        ),
        "src/noise.ts": "export class Noise {\n  log(): void {}\n  step(): void {}\n}\n",
    })
    found = {e for e in edges(graph) if e[0] == "src/service.ts:run"}
    assert found == {("src/service.ts:run", "src/base.ts:log", "scope"),
                     ("src/service.ts:run", "src/service.ts:step", "scope")}
    assert ("src/service.ts:Service", "src/base.ts:Base", "import") in edges(graph, "inherits")


# --- Go -----------------------------------------------------------------------------------------


def test_go_package_qualified_call_and_same_package_call() -> None:
    graph = graph_of({
        "cmd/app/main.go": (
            'package main\n\nimport (\n\t"fmt"\n\t"example.com/proj/internal/store"\n)\n\n'
            "func main() {\n\tstore.Open()\n\tfmt.Println()\n\thelper()\n}\n"
        ),
        "cmd/app/helper.go": "package main\n\nfunc helper() {}\n",
        "internal/store/store.go": "package store\n\nfunc Open() {}\n",
        "internal/other/other.go": "package other\n\nfunc Open() {}\nfunc Println() {}\nfunc helper() {}\n",
    })
    found = {e for e in edges(graph) if e[0] == "cmd/app/main.go:main"}
    assert found == {("cmd/app/main.go:main", "internal/store/store.go:Open", "import"),
                     ("cmd/app/main.go:main", "cmd/app/helper.go:helper", "package")}


def test_go_module_path_from_go_mod_maps_imports_to_folders_and_leaves_the_standard_library_out() -> None:
    go_mod = "module example.com/shop\n\ngo 1.21\n\nrequire github.com/acme/log v1.0.0\n"
    files = {
        "go.mod": go_mod,
        # The root package, imported by its module path; `errors` and `path` are the standard library,
        # not this package's errors.go and path.go; `github.com/acme/log` is outside the repository.
        "shop.go": (
            'package shop\n\nimport (\n\t"errors"\n\t"path"\n\t"github.com/acme/log"\n'
            '\tst "example.com/shop/internal/store"\n)\n\n'
            "type Cart struct{ db *st.DB }\n\n"
            "func (c *Cart) Add() error {\n\tc.db.Get()\n\tlog.Print()\n\tpath.Join()\n\treturn errors.New()\n}\n"
        ),
        "errors.go": "package shop\n\nfunc New() error { return nil }\n",
        "path.go": "package shop\n\nfunc Join() {}\n",
        "cmd/shop/main.go": (
            'package main\n\nimport "example.com/shop"\n\nfunc main() {\n\tc := &shop.Cart{}\n\tc.Add()\n\trun()\n}\n'
        ),
        "cmd/shop/run.go": "package main\n\nfunc run() {}\n",
        "internal/store/store.go": "package store\n\ntype DB struct{}\n\nfunc (d *DB) Get() {}\n",
        "internal/store/store_test.go": "package store\n\nfunc Get() {}\n",
        "log/log.go": "package log\n\nfunc Print() {}\n",
    }
    sources = []
    declared = []
    for path, text in sorted(files.items()):
        lang = language_for_path(path)
        sources.append(SourceFile(path, f"{len(sources):040x}", lang, extract(text.encode(), lang) if lang else None))
        declared.extend((path, d) for d in declared_entry_points(path, text.encode()))
    assert declared == [("go.mod", DeclaredEntry(name="example.com/shop"))]
    graph = build_graph(sources, declared)
    imports = edges(graph, "imports")
    assert imports == {("shop.go", "internal/store/store.go", "import"), ("cmd/shop/main.go", "errors.go", "import"),
                       ("cmd/shop/main.go", "path.go", "import"), ("cmd/shop/main.go", "shop.go", "import")}
    calls = edges(graph)
    assert ("cmd/shop/main.go:main", "cmd/shop/run.go:run", "package") in calls  # same package, another file
    assert ("cmd/shop/main.go:main", "shop.go:Add", "package") not in calls  # a method: not the package's
    assert ("shop.go:Add", "internal/store/store.go:Get", "unique") in calls  # a method on a field: by name
    assert not any(target in ("errors.go:New", "path.go:Join", "log/log.go:Print") for _, target, _ in calls)
    assert ("cmd/shop/main.go:main", "shop.go:Cart", "import") in edges(graph, "references")
    assert ("shop.go:Cart", "internal/store/store.go:DB", "import") in edges(graph, "references")


# --- Java / Kotlin / C# -------------------------------------------------------------------------


def test_java_import_same_package_and_implicit_this() -> None:
    graph = graph_of({
        "src/com/acme/app/App.java": (
            "package com.acme.app;\n\nimport com.acme.util.Strings;\n\n"
            "public class App {\n  void run() {\n    Strings.join();\n    new Helper();\n    step();\n  }\n"
            "  void step() {}\n}\n"
        ),
        "src/com/acme/app/Helper.java": "package com.acme.app;\n\npublic class Helper {}\n",
        "src/com/acme/util/Strings.java": "package com.acme.util;\n\npublic class Strings {\n  static void join() {}\n}\n",
        "src/com/other/Strings.java": "package com.other;\n\npublic class Strings {\n  static void join() {}\n}\n",
        "src/com/other/Helper.java": "package com.other;\n\npublic class Helper {\n  void step() {}\n}\n",
    })
    found = {e for e in edges(graph) if e[0] == "src/com/acme/app/App.java:run"}
    assert found == {
        ("src/com/acme/app/App.java:run", "src/com/acme/util/Strings.java:join", "import"),
        ("src/com/acme/app/App.java:run", "src/com/acme/app/Helper.java:Helper", "package"),
        ("src/com/acme/app/App.java:run", "src/com/acme/app/App.java:step", "scope"),
    }


def test_kotlin_import_text_binds_the_imported_class() -> None:
    graph = graph_of({
        "app/Main.kt": "import lib.Store\n\nfun main() {\n    Store()\n}\n",
        "lib/Store.kt": "class Store\n",
        "other/Store.kt": "class Store\n",
    })
    assert {e for e in edges(graph) if e[0] == "app/Main.kt:main"} == {
        ("app/Main.kt:main", "lib/Store.kt:Store", "import")}


def test_kotlin_import_alias_binds_the_alias_to_the_imported_class() -> None:
    graph = graph_of({
        "app/Main.kt": "import lib.Store as Shop\n\nfun main() {\n    Shop()\n}\n",
        "lib/Store.kt": "class Store\n",
        "other/Store.kt": "class Store\n",
        "other/Shop.kt": "class Shop\n",
    })
    assert {e for e in edges(graph) if e[0] == "app/Main.kt:main"} == {
        ("app/Main.kt:main", "lib/Store.kt:Store", "import")}


def test_scala_renamed_imports_bind_the_new_name_to_the_imported_class() -> None:
    graph = graph_of({
        "app/Main.scala": (
            "import lib.{Store => Shop, Cart}\nimport lib.Cache as Memo\n\n"
            "object Main {\n  def run(): Unit = {\n    new Shop()\n    new Memo()\n    new Cart()\n  }\n}\n"
        ),
        "lib/Store.scala": "package lib\n\nclass Store\nclass Cache\nclass Cart\n",
        "other/Store.scala": "package other\n\nclass Shop\nclass Memo\nclass Cart\n",
    })
    assert {e for e in edges(graph) if e[0] == "app/Main.scala:run"} == {
        ("app/Main.scala:run", "lib/Store.scala:Store", "import"),
        ("app/Main.scala:run", "lib/Store.scala:Cache", "import"),
        ("app/Main.scala:run", "lib/Store.scala:Cart", "import"),
    }


def test_csharp_using_alias_binds_the_alias_to_the_named_type() -> None:
    graph = graph_of({
        "App/Program.cs": (
            "using Shop = Lib.Store;\n\nclass Program {\n  void Run() {\n    var s = new Shop();\n  }\n}\n"
        ),
        "Lib/Store.cs": "namespace Lib {\n  public class Store {}\n}\n",
        "Other/Shop.cs": "namespace Other {\n  public class Shop {}\n}\n",
    })
    assert {e for e in edges(graph) if e[0] == "App/Program.cs:Run"} == {
        ("App/Program.cs:Run", "Lib/Store.cs:Store", "import")}


# --- Rust ---------------------------------------------------------------------------------------


def test_rust_use_binding_resolves_a_path_call() -> None:
    graph = graph_of({
        "src/main.rs": "use crate::store::Db;\n\nfn main() {\n    Db::open();\n}\n",
        "src/store.rs": "pub struct Db;\n\nimpl Db {\n    pub fn open() {}\n}\n",
        "src/other.rs": "pub struct Other;\n\nimpl Other {\n    pub fn open() {}\n}\n",
    })
    assert {e for e in edges(graph) if e[0] == "src/main.rs:main"} == {
        ("src/main.rs:main", "src/store.rs:open", "import")}


def test_runtime_packages_name_a_repository_folder_only_by_their_full_path() -> None:
    graph = graph_of({
        "src/main/java/com/ex/App.java": (
            "package com.ex;\n\nimport java.util.*;\n\npublic class App {\n  void run() { new ArrayList(); }\n}\n"
        ),
        "src/main/java/com/ex/util/ArrayList.java": "package com.ex.util;\n\npublic class ArrayList {}\n",
        "Src/Tests/Xml/Sample.cs": "namespace Tests.Xml {\n  public class XmlDocument {}\n}\n",
        "Src/Lib/Reader.cs": (
            "using System.Xml;\n\nnamespace Lib {\n  public class Reader {\n"
            "    public void Read() { new XmlDocument(); }\n  }\n}\n"
        ),
    })
    assert edges(graph, "imports") == set()


def test_rust_std_names_no_module_of_the_crate_but_mod_core_declares_one() -> None:
    graph = graph_of({
        "src/lib.rs": "mod core;\nuse std::fmt;\nuse std::fmt::Display;\n",
        "src/core.rs": "pub fn start() {}\n",
        "src/fmt/mod.rs": "pub trait Display {}\n",
        "src/fmt/write.rs": "pub fn write() {}\n",
    })
    assert {e for e in edges(graph, "imports") if e[0] == "src/lib.rs"} == {("src/lib.rs", "src/core.rs", "import")}


# --- C / C++ ------------------------------------------------------------------------------------


def test_c_includes_answer_each_name_the_file_uses_from_every_header_once() -> None:
    """A file's includes are worked out once for all the names it uses bare: each name still finds what every
    included header (and its source) defines, a header included twice counts once, and a name no header defines
    falls back to the repository's by-name lookup."""
    graph = graph_of({
        "src/main.c": ('#include "a.h"\n#include "b.h"\n#include "a.h"\n#include <stdio.h>\n\n'
                       "int main(void) {\n    f();\n    g();\n    solo();\n    return 0;\n}\n"),
        "src/a.h": "int f(void);\n",
        "src/b.h": "int f(void);\nint g(void);\n",
        "src/b.c": "int g(void) { return 1; }\n",
        "lib/solo.c": "int solo(void) { return 2; }\n",
        "lib/other.c": "int g(void) { return 3; }\n",
    })
    found = {e for e in edges(graph) if e[0] == "src/main.c:main"}
    assert found == {("src/main.c:main", "src/a.h:f", "import"), ("src/main.c:main", "src/b.h:f", "import"),
                     ("src/main.c:main", "src/b.h:g", "import"), ("src/main.c:main", "src/b.c:g", "import"),
                     ("src/main.c:main", "lib/solo.c:solo", "unique")}


def test_c_include_brings_the_header_and_its_source_into_scope() -> None:
    graph = graph_of({
        "src/main.c": '#include "util.h"\n\nint main(void) {\n    clamp(1);\n    return 0;\n}\n',
        "src/util.h": "int clamp(int x);\n",
        "src/util.c": "int clamp(int x) { return x; }\n",
        "lib/clamp.c": "int clamp(int x) { return x; }\n",
    })
    found = {e for e in edges(graph) if e[0] == "src/main.c:main"}
    # The header's declaration and the source's definition both answer; the unrelated clamp does not.
    assert found == {("src/main.c:main", "src/util.c:clamp", "import"), ("src/main.c:main", "src/util.h:clamp", "import")}


def test_cpp_a_class_holding_another_as_a_member_references_it() -> None:
    graph = graph_of({
        "include/log/details/file_helper.h": ("namespace log {\nnamespace details {\nclass file_helper {\npublic:\n"
                                              "    void open();\n};\n}\n}\n"),
        "include/log/sinks/file_sink.h": ('#include "log/details/file_helper.h"\n\nnamespace log {\n'
                                          "class file_sink {\n    details::file_helper file_helper_;\n"
                                          "    int count_;\n};\n}\n"),
    })
    found = {e[:2] for e in edges(graph, "references")}
    assert ("include/log/sinks/file_sink.h:file_sink", "include/log/details/file_helper.h:file_helper") in found


@pytest.mark.parametrize("how", ["scope", "import", "package", "unique", "ambiguous"])
def test_counts_name_every_route(how: str) -> None:
    graph = graph_of({
        "pkg/a.py": (
            "from lib.x import imported\n\ndef local():\n    pass\n\n"
            "def run(o):\n    local()\n    imported()\n    sibling()\n    lonely()\n    o.twice()\n"
        ),
        "pkg/b.py": "def sibling():\n    pass\n",
        "lib/x.py": "def imported():\n    pass\n",
        "far/y.py": "def lonely():\n    pass\n\nclass P:\n    def twice(self):\n        pass\n",
        "far2/z.py": "class Q:\n    def twice(self):\n        pass\n",
    })
    assert graph.counts()["calls_by_route"][how] == 1
