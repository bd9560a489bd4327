"""An incremental build (earlier results taken from the build memo) writes exactly what `--full` writes.

Two repositories get the same commits: one is built after every commit, the other with `--full`; the
bundle tree ids must be equal. The edits are the ones a memo could get wrong: a file renamed or
deleted, a symbol added with a name a document already mentions, an owner renamed, documents edited.
"""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gitroute.build import run_build
from gitroute.bundle.memo import BuildMemo
from tests.conftest import RepoBuilder

BASE = {
    "shop/__init__.py": "from .cart import Cart\n",
    "shop/cart.py": (
        '"""The shopping cart."""\nfrom shop.prices import total_price\n\n\n'
        "class Cart:\n    def add_item(self, item):\n        \"\"\"Put an item in the cart.\"\"\"\n"
        "        self.items.append(item)\n        raise ValueError('the cart is full')\n\n"
        "    def checkout(self):\n        return total_price(self.items)\n"
    ),
    "shop/prices.py": "def total_price(items):\n    return sum(i.price for i in items)\n",
    "shop/views.py": "from shop.cart import Cart\n\n\ndef show_cart():\n    return Cart().checkout()\n",
    "README.md": "# Shop\n\nThe `Cart` class holds items; `Cart.add_item` adds one. See `shop/prices.py`.\n",
    "docs/api.rst": (
        "API\n===\n\n.. module:: shop.cart\n\n.. class:: Cart\n\n   .. method:: checkout()\n\n"
        "See :func:`shop.prices.total_price` and :class:`refund_order`.\n"
    ),
}

SCHEMA = '{"type": "object", "properties": {"id": {"type": "integer"}, "name": {"type": "string"}}}\n'
LIMITS = "[limits]\nmax_items = 50\nmax_total = 1000\n# shared by the web and the api, kept identical\n"

# Each step: a function of the previous tree, giving the next one.
STEPS = {
    "add_function": lambda t: {**t, "shop/prices.py": t.get("shop/prices.py", "") + "\n\ndef tax_rate():\n    return 1\n"},
    "rename_module": lambda t: {("shop/pricing.py" if k == "shop/prices.py" else k): v for k, v in t.items()},
    "delete_module": lambda t: {k: v for k, v in t.items() if k != "shop/views.py"},
    "name_a_doc_mentions": lambda t: {**t, "shop/refunds.py": "def refund_order(order):\n    return order\n"},
    # Moves the lines of a file's symbols: a record documents name changes, not a link.
    "shift_lines": lambda t: {**t, "shop/prices.py": "# Prices.\n" + t.get("shop/prices.py", "")},
    # A manifest makes a function an entry point: its node changes, its file does not.
    "declare_script": lambda t: {**t, "pyproject.toml": '[project]\nname = "shop"\n[project.scripts]\n'
                                                         'checkout = "shop.cart:Cart.checkout"\n'},
    "rename_owner": lambda t: {**t, "shop/cart.py": t.get("shop/cart.py", "").replace("class Cart:", "class Basket:")},
    "edit_doc": lambda t: {**t, "README.md": t["README.md"] + "\nCall `show_cart` or `tax_rate`.\n"},
    "new_doc": lambda t: {**t, "docs/refunds.md": "# Refunds\n\n`refund_order` in `shop/refunds.py`.\n"},
    # the words a document says about a node (anchor text) change while no code does
    "describe_in_doc": lambda t: {**t, "docs/api.rst": t.get("docs/api.rst", t.get("guide/api.rst", "")).replace(
        ".. class:: Cart\n", ".. class:: Cart\n\n   Holds what a customer is about to buy.\n")},
    "move_doc": lambda t: {("guide/api.rst" if k == "docs/api.rst" else k): v for k, v in t.items()},
    # A contract (one file in two places) whose readers are found by name; then a second contract, so
    # every blob must be searched for a name it was not searched for before.
    "contract": lambda t: {**t, "api/schema.json": SCHEMA, "web/schema.json": SCHEMA,
                           "shop/load.py": "def load_schema():\n    return open('schema.json')\n"},
    "reader_of_second": lambda t: {**t, "shop/limits.py": "PATH = 'limits.toml'\n"},
    "second_contract": lambda t: {**t, "a/limits.toml": LIMITS, "b/limits.toml": LIMITS},
    "call_elsewhere": lambda t: {**t, "shop/extra.py": "from shop.cart import Cart\n\n\ndef twice():\n"
                                                    "    Cart().checkout()\n    return show_cart()\n"},
    # The graph: a call to a name defined once elsewhere (no import) resolves to it as a unique name; a
    # second definition in another file makes it ambiguous, though the calling file did not change.
    "unique_name_call": lambda t: {**t, "tools/report.py": "def build_report():\n    return format_total()\n",
                                   "lib/money.py": "def format_total():\n    return 1\n"},
    "second_definition": lambda t: {**t, "other/format.py": "def format_total():\n    return 2\n"},
    "drop_second_definition": lambda t: {k: v for k, v in t.items() if k != "other/format.py"},
    # A module that appears: an import that named nothing in the repository (outside it) now names a file.
    "import_of_missing": lambda t: {**t, "shop/sale.py": "from pay.gateway import charge\n\n\n"
                                                         "def sale():\n    return charge()\n"},
    "module_appears": lambda t: {**t, "pay/gateway.py": "def charge():\n    return 0\n"},
    # An imported function renamed: its importers read that file's names through the import.
    "rename_imported": lambda t: {k: v.replace("def total_price", "def total_cost") for k, v in t.items()},
    # The class imported by two files, renamed back: the second file's lookup is a memo hit of the first's.
    "rename_owner_back": lambda t: {**t, "shop/cart.py": t.get("shop/cart.py", "").replace("class Basket:",
                                                                                          "class Cart:")},
    # A method found through a base class found by its unique name, which gains the method later; the
    # method's name is too common to resolve by name, so only the base's members tell.
    "subclass": lambda t: {**t, "lib/base.py": "class Base:\n    pass\n",
                           "shop/child.py": "class Child(Base):\n    def run(self):\n        return self.save()\n",
                           **{f"store/s{i}.py": f"class S{i}:\n    def save(self):\n        return {i}\n"
                              for i in range(6)}},
    "base_gains_method": lambda t: {**t, "lib/base.py": "class Base:\n    def save(self):\n        return 1\n"},
    # Classes that inherit from each other: what a cycle reads must not depend on where it was entered.
    "cyclic_bases": lambda t: {**t, "cyc/a.py": "from cyc.b import B\n\n\nclass A(B):\n    def go(self):\n"
                                                "        return self.stop()\n",
                               "cyc/b.py": "from cyc.a import A\n\n\nclass B(A):\n    def stop(self):\n"
                                           "        return self.go()\n"},
    # Elixir: a call on a module by its full name resolves in the module, wherever it is defined; renamed,
    # the module is one the repository does not define, though the calling file did not change.
    "elixir_call": lambda t: {**t, "lib/ex/path.ex": "defmodule Shop.Path do\n  def split(p), do: [p]\nend\n",
                              "lib/ex/run.ex": "defmodule Shop.Run do\n  def run(a), do: Shop.Path.split(a)\nend\n"},
    "elixir_module_renamed": lambda t: {**t, "lib/ex/path.ex": "defmodule Shop.Paths do\n  def split(p), do: [p]\nend\n"},
    "elixir_nested_module": lambda t: {**t, "lib/ex/shop.ex": "defmodule Shop do\n  defmodule Path do\n"
                                                              "    def split(p), do: p\n  end\nend\n"},
    # A bare JavaScript spec names another package of the repository by its package.json name: a manifest's
    # content, no path, moves what the importing file resolves to.
    "js_package_import": lambda t: {**t, "web/app.js": "const { slug } = require('@acme/utils')\n\n"
                                                     "function page() {\n  return slug('a')\n}\n",
                                    "packages/utils/index.js": "function slug(s) {\n  return s\n}\n"
                                                               "module.exports = { slug }\n"},
    "package_named": lambda t: {**t, "packages/utils/package.json": '{"name": "@acme/utils"}\n'},
    "package_renamed": lambda t: {**t, "packages/utils/package.json": '{"name": "@acme/tools"}\n'},
    # A Python module beside its importer, until the folder becomes a package and it is no longer top-level.
    "python_beside": lambda t: {**t, "checks/helpers.py": "def ready():\n    return 1\n",
                                "checks/run.py": "import helpers\n\n\ndef run():\n    return helpers.ready()\n",
                                "checks/__init__.py": ""},
    # A Go package of more files than a lookup scans one by one: read through its index, as one key of its
    # files; a second definition in one of them moves what an unchanged caller in another package resolves to.
    "go_package": lambda t: {**t, "go.mod": "module example.com/shop\n",
                             **{f"pay/p{i}.go": f"package pay\n\nfunc Charge{i}() int {{\n\treturn {i}\n}}\n"
                                for i in range(12)},
                             "api/api.go": 'package api\n\nimport . "example.com/shop/pay"\n\n'
                                           "func Serve() int {\n\treturn Charge7() + len(\"x\")\n}\n"},
    "go_member_twice": lambda t: {**t, "pay/p3.go": "package pay\n\nfunc Charge3() int {\n\treturn 3\n}\n\n"
                                                  "func Charge7() int {\n\treturn 37\n}\n"},
    # Decision records: the decisions index's postings patched by record. A record's words change; a section
    # added to the first record moves the row ids of every record after it; a record names a symbol in code.
    "records": lambda t: {**t, **{f"docs/adr/000{i}-{name}.md": _record(i, name) for i, name in enumerate(
        ("use-postgres", "cache-answers", "drop-the-queue", "keep-prices"), 1)}},
    "record_words": lambda t: {**t, "docs/adr/0002-cache-answers.md": _record(2, "cache-answers", "memcached")},
    "record_section": lambda t: {**t, "docs/adr/0001-use-postgres.md": t.get("docs/adr/0001-use-postgres.md", "")
                                 + "\n## Alternatives\n\nSQLite was rejected: one writer at a time.\n"},
    "record_names_symbol": lambda t: {**t, "docs/adr/0005-tax.md": "# 5. Tax\n\n## Decision\n\n"
                                                                  "We keep `tax_rate` and `total_price` apart.\n"},
    # Star imports: a package whose __init__ star-imports its modules; a name one of them defines is found
    # through one index of their top-level names, which a module gaining (or losing) the name moves.
    "star_package": lambda t: {**t, "ring/__init__.py": "from ring.a import *\nfrom ring.b import *\n",
                               "ring/a.py": "from ring.base import *\n\n\ndef helper():\n    return 1\n",
                               "ring/b.py": "def other():\n    return 2\n",
                               "ring/base.py": "def shared():\n    return 0\n",
                               "app/use.py": "from ring import *\n\n\ndef use():\n    return shared() + other()\n"},
    "star_module_gains_name": lambda t: {**t, "ring/b.py": "def other():\n    return 2\n\n\ndef shared():\n"
                                                           "    return 3\n"},
    "edit_cycle": lambda t: {**t, "cyc/b.py": t.get("cyc/b.py", "class B:\n    pass\n") + "\n    def halt(self):\n"
                                                                                     "        return self.go()\n"},
}


def _record(number: int, name: str, store: str = "redis") -> str:
    words = name.replace("-", " ")
    return (f"# {number}. {words.capitalize()}\n\n## Status\n\nAccepted\n\n## Context\n\nWe need to {words} "
            f"for the shop.\n\n## Decision\n\nWe will {words}, with {store} beside it.\n\n"
            "## Consequences\n\nOne more service to run.\n")


def _build_both(incremental: RepoBuilder, full: RepoBuilder, tree: dict[str, str], step: str) -> None:
    for repo in (incremental, full):
        repo.commit(tree, step)
    a = run_build("HEAD", repo_path=str(incremental.path), jobs=1)
    b = run_build("HEAD", repo_path=str(full.path), jobs=1, full=True)
    assert a.source_commit == b.source_commit
    assert a.bundle_tree == b.bundle_tree, f"after {step!r}: the incremental bundle differs from --full"


def _sequence(steps: list[str], root: Path) -> None:
    incremental, full = RepoBuilder(root / "incremental"), RepoBuilder(root / "full")
    tree = dict(BASE)
    _build_both(incremental, full, tree, "base")
    for step in steps:
        tree = STEPS[step](tree)
        _build_both(incremental, full, tree, step)


def test_incremental_build_equals_full_after_each_kind_of_edit(tmp_path: Path) -> None:
    _sequence(list(STEPS), tmp_path)


def test_the_memo_is_used_and_kept_beside_the_bundle(tmp_path: Path) -> None:
    repo = RepoBuilder(tmp_path / "r")
    repo.commit(BASE)
    run_build("HEAD", repo_path=str(repo.path), jobs=1)
    repo.commit(STEPS["add_function"](BASE))
    run_build("HEAD", repo_path=str(repo.path), jobs=1)
    memo = BuildMemo(str(repo.path / ".git"))
    meaning = memo.table("meaning")
    assert meaning.previous, "the meaning index kept no per-file results"
    assert any(k.startswith("shop/views.py\0") for k in meaning.previous)
    assert memo.table("doc_links").previous
    assert repo.git("ls-tree", "-r", "--name-only", "refs/marola/routing-bundle").count("memo") == 0


def test_a_memo_written_by_other_code_is_not_read(tmp_path: Path) -> None:
    repo = RepoBuilder(tmp_path / "r")
    repo.commit(BASE)
    run_build("HEAD", repo_path=str(repo.path), jobs=1)
    assert BuildMemo(str(repo.path / ".git")).table("meaning").previous
    assert not BuildMemo(str(repo.path / ".git"), salt="another gitroute").table("meaning").previous
    (repo.path / ".git" / "gitroute" / "memo" / "meaning.table" / "head.marshal").write_bytes(b"\xffnot marshal")
    assert not BuildMemo(str(repo.path / ".git")).table("meaning").previous


def test_a_memo_save_cut_short_is_no_memo(tmp_path: Path) -> None:
    """A table is saved bucket by bucket, then its head: a bucket another save wrote (a save cut short after
    some buckets) makes the whole table unread, since its entries may refer to each other."""
    repo = RepoBuilder(tmp_path / "r")
    repo.commit(BASE)
    run_build("HEAD", repo_path=str(repo.path), jobs=1)
    folder = repo.path / ".git" / "gitroute" / "memo" / "meaning.table"
    assert (folder / "head.marshal").is_file() and list(folder.glob("[0-9]*.marshal"))
    memo = BuildMemo(str(repo.path / ".git"))
    table = memo.table("meaning")
    assert table.previous
    key = next(iter(table.previous))
    head = (folder / "head.marshal").read_bytes()
    for k, value in table.previous.items():
        table.put(k, value)
    table.put(key, [])  # one bucket written again, under a new generation
    memo.save()
    assert BuildMemo(str(repo.path / ".git")).table("meaning").peek(key) == []
    (folder / "head.marshal").write_bytes(head)  # as if the save stopped before its head
    assert not BuildMemo(str(repo.path / ".git")).table("meaning").previous


@settings(max_examples=4)
@given(st.lists(st.sampled_from(sorted(STEPS)), min_size=2, max_size=5))
def test_incremental_build_equals_full_over_edit_sequences(steps: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        _sequence(steps, Path(tmp))


def test_full_reads_no_memo_and_a_planted_entry_only_misleads_an_incremental_build(tmp_path: Path) -> None:
    """The memo is trusted as this repository's own (like own-bundles); `--full` does not read it at all."""

    repo = RepoBuilder(tmp_path / "r")
    repo.commit(BASE)
    run_build("HEAD", repo_path=str(repo.path), jobs=1)
    memo = BuildMemo(str(repo.path / ".git"))
    for name in ("meaning", "meaning shards"):
        table = memo.table(name)
        for key in table.previous:
            table.put(key, [] if "\0" in key[1:] else table.previous[key])  # every file: no postings
    memo.save()
    repo.commit(STEPS["add_function"](BASE))
    planted = run_build("HEAD", repo_path=str(repo.path), jobs=1).bundle_tree
    full = run_build("HEAD", repo_path=str(repo.path), jobs=1, full=True).bundle_tree
    assert planted != full
    assert run_build("HEAD", repo_path=str(repo.path), jobs=1).bundle_tree == full  # --full wrote a sound memo



def test_a_change_that_moves_other_files_node_ids_links_no_document_again(tmp_path: Path, monkeypatch) -> None:
    """A function added to shop/cart.py moves the ids of shop/prices.py's nodes (one bucket, in path order);
    the documents naming them read the same names and files, so none is linked again, and the bundle is
    still what --full writes."""
    from gitroute.indexes import doc_links

    incremental, full = RepoBuilder(tmp_path / "incremental"), RepoBuilder(tmp_path / "full")
    linked: list[str] = []
    prices: list[list[int]] = []  # the ids of shop/prices.py's nodes, per build
    link_document, link_all = doc_links.Linker.link_document, doc_links.link_all

    def counting(self, document):
        linked.append(document.path)
        return link_document(self, document)

    def seeing(documents, graph, memo=None, blobs=None, relinked=None):
        prices.append([n.id for n in graph.nodes if n.path == "shop/prices.py"])
        return link_all(documents, graph, memo, blobs, relinked)

    monkeypatch.setattr(doc_links.Linker, "link_document", counting)
    monkeypatch.setattr(doc_links, "link_all", seeing)
    _build_both(incremental, full, BASE, "base")
    linked.clear()
    tree = {**BASE, "shop/cart.py": BASE["shop/cart.py"] + "\n\ndef empty_cart():\n    return []\n"}
    _build_both(incremental, full, tree, "grow cart")  # incremental, then --full
    assert prices[0] != prices[2], "shop/prices.py's ids did not move: the fixture tests nothing"
    assert linked == ["README.md", "docs/api.rst"], "only --full's build links the documents"


def test_index_workers_started_before_the_edges_write_what_one_process_writes(tmp_path: Path, monkeypatch) -> None:
    """With workers (the indexes that read no edges forked as soon as the nodes are placed, the others
    once the graph is whole), a build writes the same bundle as one process, full and incremental."""
    import gitroute.build as build

    one, forked = RepoBuilder(tmp_path / "one"), RepoBuilder(tmp_path / "forked")
    tree = dict(BASE)
    for step in ["base", "add_function", "name_a_doc_mentions", "contract", "edit_doc"]:
        tree = STEPS[step](tree) if step in STEPS else tree
        one.commit(tree, step)
        forked.commit(tree, step)
        monkeypatch.setattr(build, "PARALLEL_MIN_NODES", 20_000)
        a = run_build("HEAD", repo_path=str(one.path), jobs=1)
        monkeypatch.setattr(build, "PARALLEL_MIN_NODES", 0)
        b = run_build("HEAD", repo_path=str(forked.path), jobs=2)
        assert a.bundle_tree == b.bundle_tree, f"after {step!r}: the forked build differs"
        assert set(b.phases) >= {"graph blobs", "index doc_links", "index symbols"}


def test_links_made_without_a_memo_are_those_made_with_one(tmp_path: Path, monkeypatch) -> None:
    """`link_all` with no memo builds the name tables itself (the linker is lazy: only recording built them)."""
    from gitroute.indexes import doc_links

    link_all = doc_links.link_all
    compared: list[bool] = []

    def both(documents, graph, memo=None, blobs=None, relinked=None):
        links = link_all(documents, graph, memo, blobs, relinked)
        compared.append(bool(links) and link_all(documents, graph) == links)
        return links

    monkeypatch.setattr(doc_links, "link_all", both)
    repo = RepoBuilder(tmp_path / "r")
    repo.commit(BASE)
    run_build("HEAD", repo_path=str(repo.path), jobs=1)
    assert compared == [True]


def test_an_index_that_declared_no_edges_cannot_read_them(tmp_path: Path, monkeypatch) -> None:
    """EDGES = False is a promise the build holds the index to: its graph's edges raise when read."""
    import pytest

    from gitroute.indexes import symbols

    repo = RepoBuilder(tmp_path / "r")
    repo.commit(BASE)
    build_symbols = symbols.build

    def reading_edges(inputs):
        return build_symbols(inputs._replace(files=inputs.files[:len(inputs.graph.edges)]))

    monkeypatch.setattr(symbols, "build", reading_edges)
    with pytest.raises(RuntimeError, match="EDGES = False"):
        run_build("HEAD", repo_path=str(repo.path), jobs=1)
    monkeypatch.setattr(symbols, "EDGES", True)
    run_build("HEAD", repo_path=str(repo.path), jobs=1)


def test_a_prepare_step_spares_work_and_changes_nothing(tmp_path: Path, monkeypatch) -> None:
    """An index's `prepare` runs as a job of its own, before the indexes it needs; its build takes the
    result or, without it, does the same work itself: the bundle is the same either way, in one process
    and with workers."""
    import gitroute.build as build
    from gitroute.indexes import meaning

    repo = RepoBuilder(tmp_path / "r")
    repo.commit(STEPS["describe_in_doc"](dict(BASE)))
    monkeypatch.setattr(build, "PARALLEL_MIN_NODES", 0)
    prepared = run_build("HEAD", repo_path=str(repo.path), jobs=2, full=True)
    assert "index meaning prepare" in prepared.phases
    assert run_build("HEAD", repo_path=str(repo.path), jobs=1, full=True).bundle_tree == prepared.bundle_tree
    monkeypatch.delattr(meaning, "prepare")
    unprepared = run_build("HEAD", repo_path=str(repo.path), jobs=1, full=True)
    assert "index meaning prepare" not in unprepared.phases
    assert unprepared.bundle_tree == prepared.bundle_tree


def test_with_workers_the_memo_and_the_graph_memo_are_saved_and_an_incremental_build_equals_full(
        tmp_path: Path, monkeypatch) -> None:
    """In workers (forked at node placement and after the edges), each job saves the memo tables it used,
    and the graph's blobs job the graph's own memo, whichever process runs it: the next build takes them,
    and writes what `--full` writes."""
    import gitroute.build as build

    monkeypatch.setattr(build, "PARALLEL_MIN_NODES", 0)
    incremental, full = RepoBuilder(tmp_path / "incremental"), RepoBuilder(tmp_path / "full")
    tree = STEPS["describe_in_doc"](dict(BASE))
    for step in ("base", "add_function", "edit_doc"):
        tree = tree if step == "base" else STEPS[step](tree)
        for repo in (incremental, full):
            repo.commit(tree, step)
        a = run_build("HEAD", repo_path=str(incremental.path), jobs=2)
        b = run_build("HEAD", repo_path=str(full.path), jobs=2, full=True)
        assert a.bundle_tree == b.bundle_tree, f"after {step!r}"
        memo = BuildMemo(str(incremental.path / ".git"))
        assert memo.table("graph").previous, f"after {step!r}: the graph's memo was not saved"
        assert memo.table("doc_links").previous and memo.table("meaning shards").previous


def test_the_meaning_index_built_ahead_is_taken_only_while_the_claims_stand(tmp_path: Path, monkeypatch) -> None:
    """`prepare` builds the meaning index from the last build's doc_links claims; `build` takes it when the
    claims are the same (a code edit no document names) and builds again when they moved (a document now
    names a new function): either way the bundle is what `--full` writes."""
    from gitroute.indexes import meaning

    _small_doc_links_shards(monkeypatch)
    taken: list[bool] = []
    build_index = meaning.build_meaning_index

    def recording(*args, **kwargs):
        taken.append(False)  # a call in `build` (not `prepare`) marks a build that did not take it
        return build_index(*args, **kwargs)

    original_build = meaning.build

    def build(inputs):
        taken.clear()
        built = original_build(inputs)
        taken.append(not taken)
        return built

    monkeypatch.setattr(meaning, "build", build)
    incremental, full = RepoBuilder(tmp_path / "incremental"), RepoBuilder(tmp_path / "full")
    tree = STEPS["describe_in_doc"](dict(BASE))
    _build_both(incremental, full, tree, "base")
    monkeypatch.setattr(meaning, "build_meaning_index", recording)
    tree = STEPS["add_function"](tree)
    _build_both(incremental, full, tree, "add_function")
    assert taken[-1] is False  # the --full build of the other repository has no claims to build ahead from
    # The incremental repository's build is the first of the pair: build it alone to see what it took.
    tree = {**tree, "shop/views.py": tree["shop/views.py"] + "\n\ndef show_total():\n    return 0\n"}
    incremental.commit(tree, "code only")
    run_build("HEAD", repo_path=str(incremental.path), jobs=1)
    assert taken[-1] is True, "a code edit no document names: the index built ahead is taken"
    full.commit(tree, "code only")
    # A symbol added to cart.py renumbers the nodes of the files after it (prices.py, which README names):
    # the claims are the same but for those ids, and the prediction follows them.
    tree = {**tree, "shop/cart.py": tree["shop/cart.py"] + "\n\ndef empty_cart():\n    return Cart()\n"}
    incremental.commit(tree, "a symbol before a file a document names")
    rebuilt = run_build("HEAD", repo_path=str(incremental.path), jobs=1).bundle_tree
    assert taken[-1] is True, "the claims moved by renumbering only: the index built ahead is taken"
    full.commit(tree, "a symbol before a file a document names")
    assert rebuilt == run_build("HEAD", repo_path=str(full.path), jobs=1, full=True).bundle_tree
    tree = {**tree, "README.md": tree["README.md"] + "\n`show_total` adds up the prices shown.\n"}
    incremental.commit(tree, "a document names the new function")
    run_build("HEAD", repo_path=str(incremental.path), jobs=1)
    assert taken[-1] is False, "the claims moved: the index is built again"
    full.commit(tree, "a document names the new function")
    assert (run_build("HEAD", repo_path=str(incremental.path), jobs=1).bundle_tree
            == run_build("HEAD", repo_path=str(full.path), jobs=1, full=True).bundle_tree)


def _small_doc_links_shards(monkeypatch) -> None:
    """Many doc_links, meaning, symbols, impact and decisions shards on a small fixture, so that some are kept and others
    written again."""
    from gitroute.indexes import decisions, doc_links, impact, meaning, symbols

    monkeypatch.setattr(doc_links.BY_DOC, "per_shard", 1)
    monkeypatch.setattr(doc_links.BY_TARGET, "per_shard", 1)
    monkeypatch.setattr(meaning.POSTINGS, "per_shard", 4)
    monkeypatch.setattr(symbols.POSTINGS, "per_shard", 4)
    monkeypatch.setattr(impact.NAMES, "per_shard", 3)  # 16 keys, 17 after add_function: 8 shards both
    monkeypatch.setattr(decisions.POSTINGS, "per_shard", 4)


def _kept_by(monkeypatch, module, function: str) -> list[dict[str, str]]:
    """What each call of an index's build function kept by id (its IndexBuild's `kept`, or its last item)."""
    kept: list[dict[str, str]] = []
    build = getattr(module, function)

    def recording(*args, **kwargs):
        built = build(*args, **kwargs)
        kept.append(dict(built.kept if hasattr(built, "kept") else built[-1]))
        return built

    monkeypatch.setattr(module, function, recording)
    return kept


def test_shards_kept_by_id_or_patched_are_what_full_writes_after_each_kind_of_edit(tmp_path: Path,
                                                                                  monkeypatch) -> None:
    _small_doc_links_shards(monkeypatch)
    _sequence(list(STEPS), tmp_path)


@pytest.mark.parametrize("index, function, folder", [("meaning", "build_meaning_index", "meaning/postings/"),
                                                     ("symbols", "build_symbol_index", "symbols/postings/"),
                                                     ("impact", "build_name_table", "impact/names/")])
def test_a_change_patches_the_shards_of_its_tokens_and_keeps_the_others(tmp_path: Path, monkeypatch, index: str,
                                                                        function: str, folder: str) -> None:
    import importlib

    _small_doc_links_shards(monkeypatch)
    kept = _kept_by(monkeypatch, importlib.import_module(f"gitroute.indexes.{index}"), function)
    incremental, full = RepoBuilder(tmp_path / "incremental"), RepoBuilder(tmp_path / "full")
    _build_both(incremental, full, BASE, "base")
    tree = STEPS["add_function"](BASE)
    _build_both(incremental, full, tree, "add_function")
    shards = full.git("ls-tree", "-r", "--name-only", "refs/marola/routing-bundle", folder).count("\n")
    assert 0 < len(kept[2]) < shards, f"the incremental build kept no shard, or every one: {len(kept[2])} of {shards}"
    assert not kept[3], "--full kept a shard"


def test_a_record_edited_patches_the_decisions_shards_of_its_words_and_keeps_the_others(tmp_path: Path,
                                                                                       monkeypatch) -> None:
    from gitroute.indexes import decisions

    _small_doc_links_shards(monkeypatch)
    kept = _kept_by(monkeypatch, decisions, "build")
    incremental, full = RepoBuilder(tmp_path / "incremental"), RepoBuilder(tmp_path / "full")
    tree = STEPS["records"](BASE)
    _build_both(incremental, full, tree, "records")
    shards = full.git("ls-tree", "-r", "--name-only", "refs/marola/routing-bundle", "decisions/postings/").count("\n")
    assert shards > 4, "the fixture makes too few shards to test anything"
    tree = STEPS["record_words"](tree)
    _build_both(incremental, full, tree, "record_words")
    assert 0 < len(kept[2]) < shards, f"the incremental build kept no shard, or every one: {len(kept[2])} of {shards}"
    assert not kept[3], "--full kept a shard"
    shards = full.git("ls-tree", "-r", "--name-only", "refs/marola/routing-bundle", "decisions/postings/").count("\n")
    tree = STEPS["add_function"](tree)  # no record changes: every shard kept
    _build_both(incremental, full, tree, "add_function")
    assert len(kept[4]) == shards


def test_a_change_keeps_the_doc_links_shards_it_does_not_touch(tmp_path: Path, monkeypatch) -> None:
    """A new function nobody names keeps doc_links shards; moving the lines of a function the documents
    name encodes the shards of its keys again, and both bundles are what --full writes."""
    from gitroute.indexes import doc_links

    _small_doc_links_shards(monkeypatch)
    kept = _kept_by(monkeypatch, doc_links, "build")
    incremental, full = RepoBuilder(tmp_path / "incremental"), RepoBuilder(tmp_path / "full")
    _build_both(incremental, full, BASE, "base")
    shards = int(full.git("ls-tree", "-r", "--name-only", "refs/marola/routing-bundle", "doc_links/by_target/")
                 .count("\n"))
    assert shards > 4, "the fixture makes too few shards to test anything"
    tree = STEPS["add_function"](BASE)
    _build_both(incremental, full, tree, "add_function")
    assert kept[2], "the incremental build encoded every shard again"
    assert not kept[3], "--full kept a shard"
    tree = STEPS["shift_lines"](tree)
    _build_both(incremental, full, tree, "shift_lines")
    assert kept[4] and len(kept[4]) < len(kept[2]), "moving a named function's lines encoded no shard again"


def test_a_shard_the_bundle_no_longer_holds_is_encoded_again(tmp_path: Path, monkeypatch) -> None:
    """A memo naming blob ids the bundle at the ref does not hold (a build that stopped before the swap,
    a bundle replaced) keeps nothing: the bundle is only a proof of what is stored, the memo the record."""

    from gitroute.indexes import doc_links

    _small_doc_links_shards(monkeypatch)
    kept = _kept_by(monkeypatch, doc_links, "build")
    incremental, full = RepoBuilder(tmp_path / "incremental"), RepoBuilder(tmp_path / "full")
    _build_both(incremental, full, BASE, "base")
    memo = BuildMemo(str(incremental.path / ".git"))
    table = memo.table("doc_links")
    for key, value in table.previous.items():
        table.put(key, value)
    for stored in (doc_links.BY_DOC, doc_links.BY_TARGET):
        shards, records, ids, *rest = table.previous[stored.memo_key]
        table.put(stored.memo_key, (shards, records, {shard: "0" * 40 for shard in ids}, *rest))
    memo.save()
    _build_both(incremental, full, STEPS["add_function"](BASE), "add_function")
    assert kept[2] == {}, "a shard the bundle does not hold was kept"


def test_a_change_no_document_reads_builds_no_name_table_of_the_whole_graph(tmp_path: Path, monkeypatch) -> None:
    """The keys documents read are read again from the changed files' own tables; the whole graph's are
    built only to link a document again."""
    from gitroute.indexes import doc_links

    built: list[int] = []  # the node count of each Linker whose name tables were built
    build_tables = doc_links.Linker.build_tables

    def counting(self) -> None:
        if "p" not in self.tables:
            built.append(len(self.node_list))
        build_tables(self)

    monkeypatch.setattr(doc_links.Linker, "build_tables", counting)
    incremental, full = RepoBuilder(tmp_path / "incremental"), RepoBuilder(tmp_path / "full")
    _build_both(incremental, full, BASE, "base")
    built.clear()
    _build_both(incremental, full, STEPS["add_function"](BASE), "add_function")
    whole = built[-1]  # --full's, last
    assert max(built[:-1]) < whole, "the incremental build built the whole graph's name tables"
    built.clear()
    _build_both(incremental, full, STEPS["edit_doc"](STEPS["add_function"](BASE)), "edit_doc")
    assert max(built[:-1]) == whole, "a document edited was linked without the name tables"


def test_a_new_definition_elsewhere_makes_an_unchanged_callers_call_ambiguous(tmp_path: Path, monkeypatch) -> None:
    """A file whose edges come from the memo is resolved again when a name it resolved by looking through
    every file gets another definition (a unique name becomes ambiguous), and only then; the bundle is
    what --full writes at every step."""
    import gitroute.build as build
    import gitroute.graph as graph_module

    graphs: list = []
    resolved: list[str] = []
    build_graph, resolve_file = build.build_graph, graph_module._resolve_file

    def keeping(*args, **kwargs):
        graphs.append(build_graph(*args, **kwargs))
        return graphs[-1]

    def counting(f, resolution):
        resolved.append(f.path)
        return resolve_file(f, resolution)

    monkeypatch.setattr(build, "build_graph", keeping)
    monkeypatch.setattr(graph_module, "_resolve_file", counting)
    incremental, full = RepoBuilder(tmp_path / "incremental"), RepoBuilder(tmp_path / "full")
    tree = STEPS["unique_name_call"](BASE)
    _build_both(incremental, full, tree, "unique")

    def calls_of_build_report() -> list[tuple[str, str]]:
        graph = graphs[-2]  # the incremental build's (the last is --full's)
        paths = {n.id: n.path for n in graph.nodes}
        names = {n.id: n.name for n in graph.nodes}
        return sorted((paths[e.target], e.how) for e in graph.edges
                      if e.kind == "calls" and names[e.source] == "build_report")

    assert calls_of_build_report() == [("lib/money.py", "unique")]
    for step, expected in [("second_definition", [("lib/money.py", "ambiguous"), ("other/format.py", "ambiguous")]),
                           ("drop_second_definition", [("lib/money.py", "unique")])]:
        tree = STEPS[step](tree)
        incremental.commit(tree, step)
        full.commit(tree, step)
        resolved.clear()
        a = run_build("HEAD", repo_path=str(incremental.path), jobs=1)
        again = list(resolved)
        b = run_build("HEAD", repo_path=str(full.path), jobs=1, full=True)
        assert a.bundle_tree == b.bundle_tree, f"after {step!r}: the incremental bundle differs from --full"
        assert calls_of_build_report() == expected, step
        assert "tools/report.py" in again, "the caller was taken from the memo"
        assert set(again) <= {"tools/report.py", "other/format.py"}, f"{step}: resolved {again} again"


GRAPH_BASE = {
    "shop/prices.py": "def total_price(items):\n    return sum(items)\n",
    "shop/cart.py": "from shop.prices import total_price\n\n\ndef checkout(items):\n    return total_price(items)\n",
    "shop/invoice.py": "from shop.prices import total_price\n\n\ndef invoice(items):\n    return total_price(items)\n",
    "tools/report.py": "def build_report():\n    return format_total()\n",
    "lib/money.py": "def format_total():\n    return 1\n",
    "lib/base.py": "class Base:\n    pass\n",
    "shop/child.py": "class Child(Base):\n    def run(self):\n        return self.save()\n",
    "shop/sale.py": "from pay.gateway import charge\n\n\ndef sale():\n    return charge()\n",
    **{f"store/s{i}.py": f"class S{i}:\n    def save(self):\n        return {i}\n" for i in range(6)},
    "lib/ex/run.ex": "defmodule Shop.Run do\n  def run(a), do: Shop.Path.split(a)\nend\n",
}

# Each change, and the files an incremental build must resolve again: the changed file, and each file
# whose resolution read something the change moved (and no other).
GRAPH_CHANGES = [
    # a unique name elsewhere gets a second definition: the caller's call becomes ambiguous
    ({"other/format.py": "def format_total():\n    return 2\n"}, {"other/format.py", "tools/report.py"}),
    # an import of a module outside the repository now names a file of it
    ({"pay/gateway.py": "def charge():\n    return 0\n"}, {"pay/gateway.py", "shop/sale.py"}),
    # a base class found by its unique name gains the method a subclass calls on self (a name too
    # common to resolve by name: only the base's members tell)
    ({"lib/base.py": "class Base:\n    def save(self):\n        return 1\n"}, {"lib/base.py", "shop/child.py"}),
    # and loses it again: found in the base, the walk read no further
    ({"lib/base.py": "class Base:\n    def keep(self):\n        return 1\n"}, {"lib/base.py", "shop/child.py"}),
    # an imported function renamed: both importers (the second's lookup is a memo hit of the first's)
    ({"shop/prices.py": "def total_cost(items):\n    return sum(items)\n"},
     {"shop/prices.py", "shop/cart.py", "shop/invoice.py"}),
    # the Elixir module a call names appears, then a second one of the same full name (a nested module)
    ({"lib/ex/path.ex": "defmodule Shop.Path do\n  def split(p), do: [p]\nend\n"}, {"lib/ex/path.ex", "lib/ex/run.ex"}),
    ({"lib/ex/shop.ex": "defmodule Shop do\n  defmodule Path do\n    def split(p), do: p\n  end\nend\n"},
     {"lib/ex/shop.ex", "lib/ex/run.ex"}),
    # a function added beside a name resolved by looking through every file: what it reads is the same
    ({"lib/money.py": "def format_total():\n    return 1\n\n\ndef parse_total():\n    return 2\n"}, {"lib/money.py"}),
]

# A package whose __init__ star-imports each module of a ring, each module star-importing the package and the next:
# every name a module uses is looked up through the others, whose lookups are memo hits that share what they read
# (a ring of more modules than `_GROUP_PAST`: as groups).
_RING = 12
_RING_FILES = {f"ring/m{i}.py" for i in range(_RING)}
CYCLE_BASE = {
    "ring/__init__.py": "".join(f"from .m{i} import *\n" for i in range(_RING)),
    **{f"ring/m{i}.py": f"from ring import *\nfrom .m{(i + 1) % _RING} import *\n\n\n"
                        f"def f{i}(x):\n    return f{(i + 1) % _RING}(x) + f{(i + 2) % _RING}(x)\n" for i in range(_RING)},
    "app/use.py": "from ring import *\n\n\ndef main():\n    return f0(1)\n",
    "other/alone.py": "def alone():\n    return 1\n",
}
CYCLE_CHANGES = [
    # a cycle member renames what two others call: every file whose lookups read it (through the package's
    # star imports, all of the ring) is resolved again; the package's __init__, which resolves no use, is not
    ({"ring/m2.py": "from ring import *\nfrom .m3 import *\n\n\ndef g2(x):\n    return f3(x) + f4(x)\n"},
     _RING_FILES | {"app/use.py"}),
    # a file outside the cycle, and the cycle's user: only themselves
    ({"other/alone.py": "def alone():\n    return 2\n"}, {"other/alone.py"}),
    ({"app/use.py": "from ring import *\n\n\ndef main():\n    return f1(1)\n"}, {"app/use.py"}),
    # the name comes back in another member: the lookups that missed it read that member too
    ({"ring/m3.py": "from ring import *\nfrom .m4 import *\n\n\ndef f3(x):\n    return f4(x)\n\n\n"
                    "def f2(x):\n    return x\n"},
     _RING_FILES | {"app/use.py"}),
]


@pytest.mark.parametrize("base, changes", [(GRAPH_BASE, GRAPH_CHANGES), (CYCLE_BASE, CYCLE_CHANGES)],
                         ids=["names", "star-cycle"])
def test_the_graph_memo_resolves_again_exactly_the_files_a_change_reaches(tmp_path: Path, monkeypatch, base, changes,
                                                                          ) -> None:
    """Every file sits in one node bucket (a change moves the ids of the files after it, renumbered from
    the memo); after each change, an incremental build resolves again the files listed, and its bundle
    is what --full writes."""
    import gitroute.graph as graph_module

    resolved: list[str] = []
    resolve_file = graph_module._resolve_file

    def counting(f, resolution):
        resolved.append(f.path)
        return resolve_file(f, resolution)

    monkeypatch.setattr(graph_module, "_resolve_file", counting)
    incremental, full = RepoBuilder(tmp_path / "incremental"), RepoBuilder(tmp_path / "full")
    tree = dict(base)
    _build_both(incremental, full, tree, "base")
    for change, expected in changes:
        tree = {**tree, **change}
        for repo in (incremental, full):
            repo.commit(tree, str(sorted(change)))
        resolved.clear()
        a = run_build("HEAD", repo_path=str(incremental.path), jobs=1)
        again = set(resolved)
        b = run_build("HEAD", repo_path=str(full.path), jobs=1, full=True)
        assert graph_module.node_buckets(sum(a.nodes.values())) == 1
        assert a.bundle_tree == b.bundle_tree, f"after {sorted(change)}: the incremental bundle differs from --full"
        assert again == expected, f"after {sorted(change)}"


def test_equal_values_digest_alike_however_their_strings_were_made_or_shared() -> None:
    # A build's values hold strings shared many times over (a stemmer's cache) or interned; the same values made
    # afresh, or read back from the memo, hold others: the digest a memo keys results by must not see it.
    import marshal
    import sys

    from gitroute.bundle.memo import digest_values

    one = "".join(["1"])
    shared = [[sys.intern("route" + "table"), 0, 1], [one, 0, 1], [one, 1, 1]]
    kept = [shared, shared]
    afresh = [[["routetable", 0, 1], [str(1), 0, 1], [str(1), 1, 1]] for _ in range(2)]
    assert afresh == kept and digest_values(afresh) == digest_values(kept)
    assert digest_values(marshal.loads(marshal.dumps(kept))) == digest_values(kept)
    assert digest_values([["routetable", 0, 1]]) != digest_values([["routetable", 0, 2]])


ADR = ("# 1. Keep carts in memory\n\nStatus: accepted\n\n## Context\n\nThe `Cart` is read on every page.\n\n"
       "## Decision\n\nWe keep each cart in memory and call `total_price` on checkout.\n")


def test_a_commit_that_changes_no_document_reads_no_record_again(tmp_path: Path, monkeypatch) -> None:
    """The decision index takes the records of unchanged documents from the memo (a symbol a record names may
    still appear or go: which ones it mentions is worked out again), and writes what --full writes."""
    from gitroute.indexes import decisions

    incremental, full = RepoBuilder(tmp_path / "incremental"), RepoBuilder(tmp_path / "full")
    read: list[int] = []
    read_records = decisions._read_records

    def counting(*args):
        read.append(1)
        return read_records(*args)

    monkeypatch.setattr(decisions, "_read_records", counting)
    tree = {**BASE, "docs/adr/0001-keep-carts-in-memory.md": ADR}
    _build_both(incremental, full, tree, "base")
    assert len(read) == 2
    # `total_price` goes: the record no longer mentions a symbol of that name.
    tree = {**tree, "shop/prices.py": "def price_total(items):\n    return sum(i.price for i in items)\n"}
    _build_both(incremental, full, tree, "rename a symbol the record names")
    assert len(read) == 3, "the incremental build read the records again"
    tree = {**tree, "docs/adr/0001-keep-carts-in-memory.md": ADR.replace("accepted", "superseded")}
    _build_both(incremental, full, tree, "edit the record")
    assert len(read) == 5, "an edited record was taken from the memo"


def _spanned_graph(sizes: list[int]) -> list:
    """Files f0.py, f1.py, ... of 1 + size nodes each, numbered as `graph._place_nodes` does, with a gap after each."""
    from gitroute.model import Node

    nodes, next_id = [], 100
    for at, size in enumerate(sizes):
        nodes += [Node(next_id + i, f"f{at}.py", f"n{i}", "function" if i else "file", 1, 1, "python", "", "", False)
                  for i in range(size + 1)]
        next_id += size + 1 + 7
    return nodes


@given(st.lists(st.integers(min_value=0, max_value=4), min_size=1, max_size=6), st.integers(min_value=0, max_value=5),
       st.data())
def test_relocated_claims_follow_the_nodes_a_symbol_added_before_them_renumbered(counts, grows, data) -> None:
    """`prepare` predicts the claims from the last build's, spelled by (file, place in it): a symbol added at the end of
    one file renumbers the files after it, and the prediction holds their new ids. The same spans come from a node
    list and from a large graph's compact table."""
    from gitroute.graph import NodeTable
    from gitroute.indexes.meaning import _file_spans, _located, _relocatable

    before = _spanned_graph(counts)
    assert _file_spans(NodeTable.from_nodes(before)) == _file_spans(before)
    targets = data.draw(st.lists(st.sampled_from([n.id for n in before]), min_size=1, max_size=3))
    claims = [("README.md", 1, "name", False, False, tuple(targets))]
    relocatable = _relocatable(claims, _file_spans(before))
    assert _located(relocatable, _file_spans(before)) == claims
    grows %= len(counts)
    after = _spanned_graph([c + 1 if at == grows else c for at, c in enumerate(counts)])
    same = {(n.path, n.name): n.id for n in after}
    spelled = {n.id: (n.path, n.name) for n in before}
    renumbered = tuple(same[spelled[target]] for target in targets)
    assert _located(relocatable, _file_spans(after)) == [(*claims[0][:5], renumbered)]


def test_a_claim_on_a_node_gone_or_in_no_file_is_no_prediction() -> None:
    from gitroute.indexes.meaning import _file_spans, _located, _relocatable

    before = _spanned_graph([2, 1])
    last_of_first = [n.id for n in before if n.path == "f0.py"][-1]
    relocatable = _relocatable([("README.md", 1, "name", False, False, (last_of_first,))], _file_spans(before))
    assert relocatable is not None
    assert _located(relocatable, _file_spans(_spanned_graph([1, 1]))) is None  # f0.py holds one symbol fewer
    assert _located(relocatable, [s for s in _file_spans(before) if s[1] != "f0.py"]) is None  # f0.py is gone
    assert _relocatable([("README.md", 1, "name", False, False, (1,))], _file_spans(before)) is None  # before any file
    assert _relocatable([("README.md", 1, "name", False, False, (before[2].id + 3,))], _file_spans(before)) is None
    assert _located({"not": "claims"}, _file_spans(before)) is None


def _wait_for(path: str) -> str:
    """A pool job that holds its worker until `path` exists (the test's signal), then names it."""
    import os
    import time

    while not os.path.exists(path):
        time.sleep(0.01)
    return path


def test_the_parent_takes_back_the_longest_early_job_no_worker_started(tmp_path: Path) -> None:
    """Once the parent has nothing of its own to run, it takes back an early job still queued in the pool (the one
    the last build timed longest) rather than wait for the worker to reach it; a job a worker holds stays there."""
    from concurrent.futures import ProcessPoolExecutor

    from gitroute.build import _IndexJobs

    signal = str(tmp_path / "go")
    jobs = object.__new__(_IndexJobs)
    jobs.cost = {"index short": 0.1, "index long": 0.9, "index middle": 0.5}
    with ProcessPoolExecutor(1) as pool:
        blocked = pool.submit(_wait_for, signal)
        names = ["held", "queued", "short", "long", "middle"]
        futures = [blocked] + [pool.submit(_wait_for, signal) for _ in names[1:]]
        jobs.running = dict(zip(futures, names))
        jobs.early_jobs = set(futures)
        while not blocked.running():
            pass
        taken = [jobs._steal(), jobs._steal()]
        Path(signal).touch()
        assert taken == ["long", "middle"], "the longest queued first; the pool had already handed on the others"
        assert {jobs.running[f] for f in jobs.early_jobs} == {"held", "queued", "short"}
        assert all(f.result() == signal for f in jobs.early_jobs)
        assert all(f.cancelled() for f in futures if f not in jobs.running), "a job taken back never runs twice"
