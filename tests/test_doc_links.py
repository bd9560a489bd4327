"""The doc↔code index: links from real documents to a real tree-sitter graph, `git route docs` and `git route code`."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gitroute.indexes.doc_links import (
    AMBIGUOUS,
    DocLink,
    Target,
    doc_kind,
    in_doc_scope,
    map_rows,
    render_doc_code_map,
)
from gitroute.model import Node
from tests.conftest import RepoBuilder

SHOP_FILES = {
    "pyproject.toml": '[project]\nname = "shop"\n',
    "src/shop/__init__.py": "from .cart import Cart\n",
    "src/shop/cart.py": (
        "class Cart:\n"
        "    def add_item(self, item):\n        self.items.append(item)\n\n"
        "    def total(self):\n        return sum(self.items)\n\n\n"
        "def checkout(cart):\n    return cart.total()\n\n\n"
        "def add(a, b):\n    return a + b\n\n\n"
        "def render_receipt(cart):\n    return str(cart.total())\n"
    ),
    "src/shop/payments/gateway.py": (
        "from shop.cart import checkout as _checkout\n\n\n"
        "class Gateway:\n    def charge(self, amount):\n        return amount\n\n\n"
        "def checkout(gateway, cart):\n    return gateway.charge(_checkout(cart))\n"
    ),
    "legacy/cart.py": "class Cart:\n    pass\n",
    "src/shop/old/cart_v1.py": "class Cart:\n    pass\n",  # under the package too, not what it exports
    "tests/test_cart.py": "from shop.cart import Cart\n\n\ndef test_cart():\n    assert Cart().total() == 0\n",
    "docs/design/adr-0001-cart.md": (
        "# ADR 1: The cart\n"  # 1
        "\n"
        "The `Cart` class in `shop/cart.py` keeps the items.\n"  # 3: Cart is in two files; the path picks one
        "\n"
        "## 1.1 Adding\n"  # 5
        "\n"
        "Use `Cart.add_item` to add one; `add` is too short to link.\n"  # 7
        "\n"
        "```python\n"  # 9
        "render_receipt(cart)\n"
        "```\n"
        "\n"
        "## 1.2 Paying\n"  # 13
        "\n"
        "`checkout` is defined twice.\n"  # 15: ambiguous
        "\n"
        "The `checkout` beside `Gateway` in the `payments` package charges.\n"  # 17: disambiguated
        "\n"
        "See [the gateway](../../src/shop/payments/gateway.py) and `Cart.total`.\n"  # 19: relative link
    ),
    "docs/api.rst": (
        "API\n"  # 1
        "===\n"
        "\n"
        ".. currentmodule:: shop\n"  # 4
        "\n"
        ".. autoclass:: Cart\n"  # 6
        "   :members:\n"
        "\n"
        "Totals come from :meth:`~shop.cart.Cart.total`; pay with :class:`.Gateway` and\n"  # 9
        "``render_receipt``.\n"  # 10
    ),
    "CHANGES.md": "# Changes\n\n## 1.0\n\n- `Cart` added.\n",
    "README.md": "# Shop\n\nA shop. Start at `src/shop/cart.py`.\n",
    "docs/notes.md": "# Notes\n\nNothing here names code.\n",
}


@pytest.fixture
def shop(make_repo, route) -> RepoBuilder:
    repo = make_repo("shop")
    repo.commit(dict(SHOP_FILES), "initial")
    built = route(["build", "-q"], repo.path)
    assert built.exit_code == 0, built.stderr
    return repo


def ask(route, repo: RepoBuilder, command: str, *args: str) -> dict:
    result = route([command, "--json", *args], repo.path)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def rows_by_path(doc: dict) -> dict[str, dict]:
    return {row["path"]: row for row in doc["rows"]}


# ------------------------------------------------------------------------------------------------ code


def test_code_lists_the_files_a_markdown_document_names(shop, route):
    doc = ask(route, shop, "code", "docs/design/adr-0001-cart.md")
    assert doc["status"] == "routed"
    assert doc["document"] == "docs/design/adr-0001-cart.md"
    rows = rows_by_path(doc)
    cart = rows["src/shop/cart.py"]
    assert "Cart.add_item" in cart["symbols"] and "Cart.total" in cart["symbols"] and "Cart" in cart["symbols"]
    assert cart["status"] == "exact"
    assert doc["rows"][0]["path"] == "src/shop/cart.py"  # most links
    # The relative link from docs/design/ resolves to the file.
    assert "src/shop/payments/gateway.py" in rows
    for row in doc["rows"]:
        assert {"path", "section", "section_number", "doc_line", "links", "status", "symbols"} <= row.keys()


def test_short_names_do_not_link_and_a_code_sample_links_only_names_spelled_as_code(shop, route):
    doc = ask(route, shop, "code", "adr-0001-cart.md")
    symbols = [s for row in doc["rows"] for s in row["symbols"]]
    assert "render_receipt" in symbols  # inside a fenced code block: a name no English word is (0020)
    assert "add" not in symbols  # three characters
    assert "cart" not in symbols and "Cart" in symbols  # the sample's `cart` is a word; `Cart` linked in prose


def test_a_short_name_in_inline_code_that_one_definition_has_links(make_repo, route):
    # gorilla/websocket's chat README: "The code for the `Hub` type is in hub.go": three letters, one definition
    repo = make_repo("short")
    repo.commit({"chat/hub.go": "package chat\n\ntype Hub struct{}\n\nfunc (h *Hub) run() {}\n",
                 "chat/client.go": "package chat\n\ntype Client struct{}\n\nfunc (c *Client) run() {}\n",
                 "chat/README.md": "# Chat\n\n## Hub\n\nThe `Hub` type's `run` method serves every client.\n"},
                "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    symbols = [s for row in ask(route, repo, "code", "chat/README.md#Hub")["rows"] for s in row["symbols"]]
    assert "Hub" in symbols
    assert not any(s.endswith("run") for s in symbols)  # two definitions: by name alone, either could be meant


def test_a_name_spelled_as_code_in_prose_or_a_heading_links_as_a_mention(make_repo, route):
    repo = make_repo("mentions")
    repo.commit({**SHOP_FILES, "docs/receipts.md": (
        "# render_receipt\n\nReceipts come from render_receipt; the Gateway charges, a cart totals.\n")}, "docs")
    assert route(["build", "-q"], repo.path).exit_code == 0
    rows = rows_by_path(ask(route, repo, "docs", "render_receipt"))
    assert rows["docs/receipts.md"]["line"] == 1  # the heading, which counts most
    code = rows_by_path(ask(route, repo, "code", "docs/receipts.md"))
    assert list(code) == ["src/shop/cart.py"]  # `Gateway` and `cart` are words: no mention


def test_a_name_in_two_files_stays_ambiguous_with_every_candidate(shop, route):
    doc = ask(route, shop, "docs", "checkout")
    row = rows_by_path(doc)["docs/design/adr-0001-cart.md"]
    assert row["links"] == 2
    rows = rows_by_path(ask(route, shop, "code", "adr-0001"))
    # Line 15 names `checkout` alone: cart.py's is only ever an ambiguous candidate, so it is marked;
    # gateway.py's is also named exactly on line 17.
    assert rows["src/shop/cart.py"]["ambiguous"] == ["checkout"]
    assert "checkout" in rows["src/shop/cart.py"]["symbols"]
    assert rows["src/shop/payments/gateway.py"]["ambiguous"] == []
    text = route(["code", "adr-0001"], shop.path).stdout
    assert "checkout?" in next(line for line in text.splitlines() if line.startswith("src/shop/cart.py"))


def test_paragraph_naming_a_package_disambiguates(shop, route):
    from gitroute.indexes import doc_links

    links = _links(shop)
    by_line = {(x.document, x.line, x.token): x for x in links}
    first = by_line[("docs/design/adr-0001-cart.md", 15, "checkout")]
    assert first.status == AMBIGUOUS and first.total == 2
    assert sorted(t.path for t in first.targets) == ["src/shop/cart.py", "src/shop/payments/gateway.py"]
    second = by_line[("docs/design/adr-0001-cart.md", 17, "checkout")]
    assert second.status == doc_links.DISAMBIGUATED
    assert [t.path for t in second.targets] == ["src/shop/payments/gateway.py"]
    # `Cart` is defined in src/shop/cart.py and legacy/cart.py; the paragraph spells `shop/cart.py`.
    cart = by_line[("docs/design/adr-0001-cart.md", 3, "Cart")]
    assert cart.status == doc_links.DISAMBIGUATED and [t.path for t in cart.targets] == ["src/shop/cart.py"]
    assert cart.section == "ADR 1: The cart"
    adding = by_line[("docs/design/adr-0001-cart.md", 7, "Cart.add_item")]
    assert adding.status == "exact" and adding.section == "1.1 Adding" and adding.number == "1.1"


def test_rst_roles_with_tilde_and_leading_dot_and_directives_link(shop, route):
    links = [x for x in _links(shop) if x.document == "docs/api.rst"]
    found = {x.token: x for x in links}
    # `.. currentmodule:: shop` + `.. autoclass:: Cart`: two Carts under shop's folder, and the package
    # exports the one its __init__.py imports (`from .cart import Cart`).
    assert [t.path for t in found["Cart"].targets] == ["src/shop/cart.py"] and found["Cart"].directive
    assert [(t.path, t.name) for t in found["~shop.cart.Cart.total"].targets] == [("src/shop/cart.py", "total")]
    assert [(t.path, t.name) for t in found[".Gateway"].targets] == [("src/shop/payments/gateway.py", "Gateway")]
    assert [t.name for t in found["render_receipt"].targets] == ["render_receipt"]
    assert {x.line for x in links} == {6, 9, 10}


def test_docs_ranks_a_design_record_above_a_changelog_mention(shop, route):
    doc = ask(route, shop, "docs", "Cart", "--explain")
    paths = [row["path"] for row in doc["rows"]]
    assert paths.index("docs/design/adr-0001-cart.md") < paths.index("CHANGES.md")
    adr = rows_by_path(doc)["docs/design/adr-0001-cart.md"]
    assert adr["document_kind"] == "record" and "design_record" in adr["signals"]
    assert rows_by_path(doc)["CHANGES.md"]["signals"]["changelog"] < 0
    assert {"path", "line", "section", "token"} <= adr.keys()


def test_docs_answers_a_file_path(shop, route):
    doc = ask(route, shop, "docs", "src/shop/payments/gateway.py")
    paths = [row["path"] for row in doc["rows"]]
    assert paths == ["docs/design/adr-0001-cart.md", "docs/api.rst"]
    assert rows_by_path(doc)["docs/design/adr-0001-cart.md"]["links"] == 3


def test_docs_text_output_names_section_and_token(shop, route):
    result = route(["docs", "Cart.add_item"], shop.path)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("answers from main@")
    assert lines[1].startswith("docs/design/adr-0001-cart.md:7")
    assert "§1.1 Adding" in lines[1] and "`Cart.add_item`" in lines[1]


def test_no_match_for_an_unknown_name_a_document_linking_nothing_and_an_unknown_document(shop, route):
    unknown = ask(route, shop, "docs", "NoSuchThing")
    assert unknown["status"] == "no_match" and unknown["rows"] == [] and "NoSuchThing" in unknown["notes"][0]
    empty = ask(route, shop, "code", "docs/notes.md")
    assert empty["status"] == "no_match" and "names no file or symbol" in empty["notes"][0]
    missing = ask(route, shop, "code", "nothing-like-this")
    assert missing["status"] == "no_match" and "no document matches" in missing["notes"][0]
    text = route(["docs", "NoSuchThing"], shop.path)
    assert text.exit_code == 0 and "no_match:" in text.stdout


def test_limit_bounds_the_rows(shop, route):
    doc = ask(route, shop, "code", "adr-0001-cart", "--limit", "1")
    assert len(doc["rows"]) == 1


def test_status_shows_the_link_counts(shop, route):
    result = route(["status"], shop.path)
    line = next(x for x in result.stdout.splitlines() if x.startswith("index doc_links:"))
    links = _links(shop)
    statuses = [x.status for x in links]
    assert f"{statuses.count('exact')} exact" in line
    assert f"{statuses.count('disambiguated')} disambiguated" in line
    assert f"{statuses.count('ambiguous')} ambiguous" in line


def test_docs_folders_config_narrows_the_documents(make_repo, route):
    repo = make_repo("scoped")
    files = dict(SHOP_FILES)
    files[".gitroute.toml"] = '[docs]\nfolders = ["docs/design"]\n'
    repo.commit(files, "scoped")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask(route, repo, "docs", "Cart")
    assert {row["path"] for row in doc["rows"]} == {"docs/design/adr-0001-cart.md"}


def test_bad_docs_folders_config_is_a_config_error(make_repo, route):
    repo = make_repo("badconfig")
    files = dict(SHOP_FILES)
    files[".gitroute.toml"] = '[docs]\nfolders = "docs"\n'
    repo.commit(files, "bad")
    result = route(["build", "-q"], repo.path)
    assert result.exit_code == 128 and result.stdout == ""
    assert result.stderr.startswith("fatal: '.gitroute.toml': 'docs.folders' must be a list of strings\n")


def test_a_rst_txt_document_in_a_submodule_free_repo_is_read(make_repo, route):
    repo = make_repo("txt")
    repo.commit({
        "pkg/models.py": "class QuerySet:\n    def filter(self):\n        return self\n",
        "pkg/__init__.py": "",
        "docs/ref/querysets.txt": "QuerySets\n=========\n\n.. module:: pkg.models\n\n.. class:: QuerySet\n\n"
                                  "   .. method:: filter()\n\n      Returns a new :class:`QuerySet`.\n",
        "scratch.txt": "just a note about QuerySet\n",  # not notes.txt: a plain document by its name
    }, "txt docs")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask(route, repo, "code", "querysets")
    row = doc["rows"][0]
    assert row["path"] == "pkg/models.py"
    assert set(row["symbols"]) == {"QuerySet", "QuerySet.filter"}
    assert ask(route, repo, "code", "scratch.txt")["status"] == "no_match"


# ----------------------------------------------------------------------------------------- the map


_MADE: dict[tuple[str, str], list[DocLink]] = {}  # (repository, its HEAD) -> the links a build of it made


def _links(repo: RepoBuilder) -> list[DocLink]:
    """Every link a build of the repository makes, as linking made them (the bundle keeps no token, flag or id
    in `by_doc`: `_stored_links` reads what it keeps)."""
    import subprocess

    from gitroute.build import run_build
    from gitroute.indexes import doc_links

    head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=repo.path, capture_output=True, text=True).stdout
    if (str(repo.path), head) in _MADE:
        return _MADE[str(repo.path), head]

    made: list[list[DocLink]] = []
    link_all = doc_links.link_all

    def keeping(*args, **kwargs):
        made.append(link_all(*args, **kwargs))
        return made[-1]

    doc_links.link_all = keeping
    try:
        run_build("HEAD", repo_path=str(repo.path), jobs=1, full=True)
    finally:
        doc_links.link_all = link_all
    found = _MADE[str(repo.path), head] = sorted(made[-1], key=lambda x: (x.document, x.line))
    return found


def _stored_links(repo: RepoBuilder) -> list[DocLink]:
    from gitroute.bundle.store import BundleView
    from gitroute.indexes import doc_links

    with BundleView(str(repo.path)) as view:
        return doc_links.read_links(view.index(doc_links.NAME))


def test_the_bundle_keeps_of_each_link_what_code_and_the_map_read(shop):
    """`by_doc` reads back every link a build made, in order, with its line, section, status, total and targets
    (path, name, kind, line, owner, centrality), and without its token, flags or node ids (no answer reads them)."""
    made, stored = _links(shop), _stored_links(shop)
    assert len(made) == len(stored) > 10
    for link, back in zip(made, stored):
        assert back == link._replace(token="", heading=False, directive=False,
                                     targets=tuple(t._replace(node=0) for t in link.targets))
    assert render_doc_code_map(stored) == render_doc_code_map(made)


def test_render_doc_code_map_is_deterministic_and_one_row_per_section_file(shop):
    links = _links(shop)
    text = render_doc_code_map(links)
    shuffled = list(links)
    random.Random(7).shuffle(shuffled)
    assert render_doc_code_map(shuffled) == text
    rows = [line for line in text.splitlines() if line.startswith("| ") and "| document |" not in line]
    assert map_rows(text) == len(rows)
    assert "| docs/design/adr-0001-cart.md | 1.1 Adding | src/shop/cart.py | 2 |" in rows  # and the sample's name
    assert "| docs/api.rst | API | src/shop/cart.py | 3 |" in rows
    assert len(rows) == len(set(rows))
    # Ambiguous links name no one file: the line-15 `checkout` adds nothing to "1.2 Paying".
    paying = [r for r in rows if "| 1.2 Paying |" in r]
    # gateway.py: the disambiguated `checkout`, `Gateway`, the link; cart.py: `Cart.total` only.
    assert paying == ["| docs/design/adr-0001-cart.md | 1.2 Paying | src/shop/cart.py | 1 |",
                      "| docs/design/adr-0001-cart.md | 1.2 Paying | src/shop/payments/gateway.py | 3 |"]


def test_render_doc_code_map_escapes_pipes_and_sorts():
    target = Target(5, "src/a|b.py", "a", "file", 1, "", 0)
    links = [
        DocLink("docs/z.md", "Z | z", "", 3, "a", "exact", (target,), 1, False, 1),
        DocLink("docs/a.md", "", "", 2, "a", "exact", (target,), 1, False, 0),
        DocLink("docs/a.md", "", "", 4, "b", AMBIGUOUS, (target,), 2, False, 0),
    ]
    text = render_doc_code_map(links)
    body = text.splitlines()[-2:]
    assert body == ["| docs/a.md | (before the first heading) | src/a\\|b.py | 1 |",
                    "| docs/z.md | Z \\| z | src/a\\|b.py | 1 |"]
    assert map_rows(text) == 2
    assert map_rows(render_doc_code_map([])) == 0


def test_doc_kind_and_scope():
    assert doc_kind("docs/adr/0001-use-git.md") == "record"
    assert doc_kind("docs/MIPs/MIP-0085-routing.md") == "record"
    assert doc_kind("peps/pep-0008.rst") == "record"
    assert doc_kind("doc/developer/nxeps/nxep-0002.rst") == "record"
    assert doc_kind("CHANGES.rst") == "changelog"
    assert doc_kind("docs/releases/5.2.txt") == "changelog"
    assert doc_kind("docs/internals/deprecation.txt") == "changelog"
    assert doc_kind("docs/topics/db/queries.txt") == "guide"
    assert in_doc_scope("docs/a.md", ())
    assert in_doc_scope("docs/a.md", ("docs",)) and not in_doc_scope("README.md", ("docs",))
    assert in_doc_scope("sub/docs/a.md", ("*/docs/*",)) and not in_doc_scope("docsx/a.md", ("docs",))


def test_bench_scores_code_and_docs_questions_through_this_index(shop, route):
    bench = (
        "schema: 1\n"
        "gate: {min_right_first: 0.5, min_questions: 2}\n"
        "questions:\n"
        "  - {id: c1, type: code, question: \"the cart adr\", expect: [\"src/shop/cart.py\"]}\n"
        "  - {id: c2, type: code, question: \"api\", expect: [\"src/shop/cart.py\"]}\n"
        "  - {id: d1, type: docs, question: \"Cart.add_item\", expect: [\"docs/design/adr-0001-cart.md\"]}\n"
        "  - {id: d2, type: docs, question: \"where is Gateway documented\", expect: [\"docs/api.rst\"]}\n"
    )
    (shop.path / "bench.yaml").write_text(bench)
    result = route(["bench", "--json", "bench.yaml"], shop.path)
    assert result.exit_code == 0, result.stdout + result.stderr
    types = json.loads(result.stdout)["types"]
    assert types["code"]["right_first"] == 2 and types["docs"]["right_first"] == 2


@pytest.mark.parametrize("damage", ["docs.json", "by_doc", "by_target"])
def test_a_damaged_doc_links_blob_is_a_damaged_bundle(shop, route, damage):
    from tests.test_errors import DAMAGED, write_bundle

    listing = shop.git("ls-tree", "-r", "--name-only", "refs/marola/routing-bundle", "doc_links/").split()
    paths = [p for p in listing if damage in p]
    assert paths
    bad = {"docs.json": b'[["docs/api.rst", 1]]', "by_doc": b'{"nodes": {}, "docs": {"x": 1}}',
           "by_target": b'{"nodes": {"1": [1, 2]}, "docs": [], "keys": {"cart": [[0, 1, "", "", "x", "exact", 1, 0, [1]]]}}'}
    write_bundle(shop, {p: bad[damage] for p in paths}, shop.bundle_tree())
    args = ["docs", "Cart"] if damage == "by_target" else ["code", "docs/api.rst"]
    result = route(args, shop.path)
    assert result.exit_code == 128 and result.stdout == ""
    first = result.stderr.splitlines()[0]
    assert first.startswith(DAMAGED) and "doc_links/" in first and "doc_links/doc_links" not in first


def test_a_submodules_documents_link_at_its_pinned_commit(make_repo, route):
    import subprocess

    lib = make_repo("geo-lib")
    lib.commit({"locate.py": "class GeoLocator:\n    pass\n",
                "README.md": "# geo\n\n`GeoLocator` finds places.\n"})
    repo = make_repo("super")
    repo.commit({"app.py": "class Application:\n    pass\n",
                 "docs/design.md": "# Design\n\nThe app wraps `GeoLocator` from `libs/geo/locate.py`.\n"})
    for args in (["-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib.path), "libs/geo"],
                 ["commit", "-q", "-m", "add the geo submodule"]):
        subprocess.run(["git", *args], cwd=repo.path, check=True, capture_output=True)
    # A later, unpinned commit in the submodule's checkout renames the class: not what is read.
    checkout = repo.path / "libs" / "geo"
    (checkout / "README.md").write_text("# geo\n\n`UnpinnedLocator`.\n")
    subprocess.run(["git", "commit", "-q", "-am", "unpinned"], cwd=checkout, check=True, capture_output=True)
    assert route(["build", "-q"], repo.path).exit_code == 0
    docs = ask(route, repo, "docs", "GeoLocator")
    assert {row["path"] for row in docs["rows"]} == {"libs/geo/README.md", "docs/design.md"}
    code = ask(route, repo, "code", "docs/design.md")
    assert [row["path"] for row in code["rows"]] == ["libs/geo/locate.py"]
    assert ask(route, repo, "docs", "UnpinnedLocator")["status"] == "no_match"


def test_the_committed_maps_gitroute_writes_are_not_read_as_documents(make_repo, route):
    repo = make_repo("maps")
    repo.commit({
        "src/cart.py": "class Cart:\n    pass\n",
        "docs/guide.md": "# Guide\n\nUse `Cart`.\n",
        "docs/DOC-CODE.md": "# Doc ↔ code map\n\n| docs/guide.md | Guide | `src/cart.py` | 1 |\n",
        "docs/DECISIONS.md": "# Decisions\n\n- keep `Cart` small\n",
    }, "maps")
    assert route(["build", "-q"], repo.path).exit_code == 0
    assert {row["path"] for row in ask(route, repo, "docs", "Cart")["rows"]} == {"docs/guide.md"}
    assert ask(route, repo, "code", "docs/DOC-CODE.md")["status"] == "no_match"


_NODES = [
    Node(0, "src/shop/cart.py", "cart.py", "file", 1, 9, "python", "", "", False),
    Node(1, "src/shop/cart.py", "Cart", "class", 1, 9, "python", "", "", False),
    Node(2, "src/shop/cart.py", "total", "method", 3, 4, "python", "", "", False, "Cart"),
    Node(3, "src/shop/__init__.py", "__init__.py", "file", 1, 1, "python", "", "", False),
    Node(4, "legacy/cart.py", "cart.py", "file", 1, 2, "python", "", "", False),
    Node(5, "legacy/cart.py", "Cart", "class", 1, 2, "python", "", "", False),
]
_PIECES = st.sampled_from(["`", "``", ":class:", ":meth:", "~", ".", "Cart", "Cart.total", "shop", "shop.cart",
                           "src/shop/cart.py", "../", "[x](", ")", "\n", "\n\n", "# ", "=====", ".. autoclass:: ",
                           ".. module:: ", "   ", "(", "<", ">", "_", "total", "legacy", "::"])


@settings(max_examples=120, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_PIECES, max_size=60), st.sampled_from(["docs/a.md", "docs/a.rst"]))
def test_linking_never_raises_and_keeps_its_promises(pieces, path):
    from gitroute.indexes.doc_links import Linker
    from gitroute.parsing.documents import parse_document

    document = parse_document(path, "".join(pieces).encode())
    assert document is not None
    edges = [(3, "imports", 0, 1)]
    for link in Linker(_NODES, edges, [path]).link_document(document):
        assert link.targets and link.total >= len(link.targets)
        files = {t.path for t in link.targets}
        assert (len(files) > 1) == (link.status == AMBIGUOUS)
        assert all(len(t.name) >= 4 or t.kind == "file" or "." in link.token.strip("~.") for t in link.targets)


class _Forgetful(dict):
    """A page memo that keeps nothing: every token resolved anew, as before the memo."""

    def __setitem__(self, key, value) -> None:
        pass


def _linked_pages(pages: list[tuple[str, str]], memo, records: bool) -> list[tuple]:
    """Each page linked in turn by one Linker (recording or not), with `memo` as its page and build memos: its links
    and the keys noted it read."""
    from gitroute.indexes.doc_links import Linker, linking
    from gitroute.parsing.documents import parse_document

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(linking, "_page_memo", memo)
        patch.setattr(linking, "_build_memo", memo)
        linker = Linker(_NODES, [(3, "imports", 0, 1)], [path for path, _text in pages])
        if records:
            linker.record()
        found = []
        for path, text in pages:
            page = parse_document(path, text.encode())
            assert page is not None
            if linker.looked is not None:
                linker.looked.clear()
            found.append((linker.link_document(page), linker.page_reads()))
    return found


@settings(max_examples=120, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_PIECES, max_size=80), st.lists(_PIECES, max_size=40),
       st.sampled_from(["docs/a.md", "docs/a.rst"]), st.booleans())
def test_pages_link_the_same_with_their_tokens_resolved_once_as_resolved_each_time(pieces, more, path, records):
    # A token repeated on a page is resolved once per (module, class) it stands under, and once per build for what
    # its resolution depends on (pages in two folders, one page twice); the links, and the keys the build memo
    # notes each page read, in their order, are what resolving every token again gives.
    pages = [(path, "".join(pieces)), ("src/shop/b.md", "".join(pieces + more)), (path, "".join(more + pieces))]
    assert _linked_pages(pages, dict, records) == _linked_pages(pages, _Forgetful, records)


@pytest.mark.parametrize("records", [False, True])
def test_a_token_resolved_for_one_page_is_resolved_again_where_its_folder_or_module_differs(records):
    # The same relative link from two folders names two files (or none), and the same role under another
    # `currentmodule` another class: a lookup kept for the build is kept per folder and module.
    pages = [("src/shop/a.rst", ".. currentmodule:: legacy.cart\n\nSee :class:`Cart` and `the cart <cart.py>`_.\n"),
             ("docs/b.rst", "See :class:`Cart` and `the cart <cart.py>`_.\n"),
             ("src/shop/c.md", "See [the cart](cart.py).\n"), ("docs/d.md", "See [the cart](cart.py).\n")]
    found = _linked_pages(pages, dict, records)
    assert found == _linked_pages(pages, _Forgetful, records)
    assert [[(x.token, x.status, [t.path for t in x.targets]) for x in links] for links, _read in found] == [
        [("legacy.cart", "exact", ["legacy/cart.py"]), ("Cart", "exact", ["legacy/cart.py"]),
         ("cart.py", "exact", ["src/shop/cart.py"])],
        [("Cart", "ambiguous", ["src/shop/cart.py", "legacy/cart.py"])],
        [("cart.py", "exact", ["src/shop/cart.py"])], []]


def _one_by_one(self, keys):
    return [self.get(key) for key in keys]


def _noted_both_ways(text: str, path: str) -> tuple:
    """A page linked while a memo records: (links, keys noted) with node reads noted in one call, and one by one."""
    from gitroute.indexes.doc_links import Linker, linking
    from gitroute.parsing.documents import parse_document

    document = parse_document(path, text.encode())
    assert document is not None
    edges = [(3, "imports", 0, 1), (3, "imports", 4, 1)]

    def link(one_by_one: bool):
        linker = Linker(_NODES, edges, [path])
        linker.record()
        with pytest.MonkeyPatch.context() as patch:
            if one_by_one:
                patch.setattr(linking._Noted, "many", _one_by_one)
            links = linker.link_document(document)
        return links, linker.page_reads()

    return link(False), link(True)


@settings(max_examples=120, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_PIECES, max_size=80), st.sampled_from(["docs/a.md", "docs/a.rst"]))
def test_a_page_notes_the_same_keys_in_the_same_order_when_its_nodes_are_read_in_one_call(pieces, path):
    # `_Noted.many` notes a list of node reads at once (django's re-exports and candidates' files): the links and
    # the keys the build memo notes, in their order, are what reading each node in turn gives.
    batched, one_by_one = _noted_both_ways("".join(pieces), path)
    assert batched == one_by_one


@pytest.mark.parametrize("path", ["docs/a.md", "docs/a.rst"])
def test_a_re_export_notes_its_module_s_imports_and_their_nodes_as_one_by_one_reads_do(path):
    batched, one_by_one = _noted_both_ways("See shop.Cart and shop.cart.Cart, ``shop.Cart``.\n", path)
    assert batched == one_by_one
    assert batched[0] and any(tag == "i" for tag, _ in batched[1])  # a re-export looked for through the imports


# The mention pattern before its runs were possessive and before its lookahead: the matches must be the same.
_CODE_WORD_BEFORE = (r"(?<![\w$])(?:[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)+"
                     r"|[A-Za-z$]*_[\w$]*|[a-z][a-z0-9]*[A-Z][\w$]*|[A-Z][a-z0-9]+[A-Z][\w$]*|[A-Z]{2,}[a-z]{2}[\w$]*)")


@settings(max_examples=600)
@given(st.text(alphabet=st.sampled_from(list("aZbQ_$.:->9 éÄ\n(`xA")), max_size=60))
def test_the_mention_pattern_finds_what_it_found_before_it_was_possessive_or_looked_ahead(text):
    import re

    from gitroute.indexes.doc_links.linking import _CODE_WORD

    before = re.compile(_CODE_WORD_BEFORE)
    assert [m.span() for m in _CODE_WORD.finditer(text)] == [m.span() for m in before.finditer(text)]


def test_a_name_repeated_under_two_modules_links_each_to_its_own():
    from gitroute.indexes.doc_links import Linker
    from gitroute.parsing.documents import parse_document

    text = (".. module:: shop.cart\n\n:class:`Cart` is here.\n\n.. module:: legacy.cart\n\n"
            ":class:`Cart` is there.\n")
    links = Linker(_NODES, [], ["docs/a.rst"]).link_document(parse_document("docs/a.rst", text.encode()))
    assert [[t.path for t in x.targets] for x in links if x.token == "Cart"] == [["src/shop/cart.py"],
                                                                                 ["legacy/cart.py"]]


def test_elixir_names_with_an_arity_or_a_question_mark_link(make_repo, route):
    # elixir-lang's guides name functions as `Keyword.merge/2` and `Enum.empty?/1`: neither linked.
    repo = make_repo()
    repo.commit({
        "lib/keyword.ex": "defmodule Keyword do\n  def merge(a, b), do: a ++ b\nend\n",
        "lib/enum.ex": "defmodule Enum do\n  def empty?(e), do: e == []\nend\n",
        "pages/guide.md": "# Guide\n\nMerge options with `Keyword.merge/2`; test with `Enum.empty?/1`.\n"
                          "A path stays a path: `lib/2`.\n",
    })
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask(route, repo, "code", "pages/guide.md")
    assert {row["path"]: row["symbols"] for row in doc["rows"]} == {
        "lib/keyword.ex": ["Keyword.merge"], "lib/enum.ex": ["Enum.empty?"],
    }


def _disambiguate_before(files, context, token):
    """Linker._disambiguate before its path segments were cached (the reference it must agree with)."""
    import posixpath

    from gitroute.indexes.doc_links.linking import _WORD, _names_file

    words, spelled = context
    own = token.strip("~.!")
    spelled_others = [s for s in spelled if s != own]
    by_path = [path for path in files if any(_names_file(s, path) for s in spelled_others)]
    if len(by_path) == 1:
        return by_path[0]
    words = words - set(_WORD.findall(token))
    segments = {}
    for path in files:
        parts = path.split("/")
        segments[path] = set(parts[:-1]) | {posixpath.splitext(parts[-1])[0]} | {parts[-1]}
    shared = set.intersection(*segments.values()) if segments else set()
    named = [path for path in files if (segments[path] - shared) & words]
    return named[0] if len(named) == 1 else None


_SEGMENTS = st.sampled_from(["src", "shop", "legacy", "cart", "cart.py", "app.py", "__init__.py", "db", "models"])


@given(st.lists(st.lists(_SEGMENTS, min_size=1, max_size=4).map("/".join), min_size=2, max_size=6, unique=True),
       st.frozensets(st.sampled_from(["shop", "cart", "legacy", "db", "models", "app", "py", "src"])),
       st.lists(st.sampled_from(["shop.cart", "src/shop/cart.py", "legacy.cart.Cart", "db/models", "cart.py"]),
                max_size=3),
       st.sampled_from(["Cart", "cart.py", "shop.cart", "~models.Model", "save"]))
def test_disambiguation_picks_what_it_picked_before_its_segments_were_cached(files, words, spelled, token):
    from gitroute.indexes.doc_links import Linker

    context = (words, tuple(spelled))
    assert Linker._disambiguate(sorted(files), context, token) == _disambiguate_before(sorted(files), context, token)


def test_a_plain_text_changelog_without_an_extension_links_what_it_names(make_repo, route):
    # jsoup keeps its release notes in `CHANGES`: a name it mentions is documented there, as a changelog
    repo = make_repo("changes")
    repo.commit({
        "src/main/java/org/example/Element.java": (
            "package org.example;\n\npublic class Element {\n"
            "    public Element expectFirst(String query) { return this; }\n}\n"),
        "CHANGES": ("Release 1.15.3\n\n  * Added Element.expectFirst(), which is just like selectFirst() but\n"
                    "    throws when nothing matches.\n"),
        "install": "#!/bin/sh\necho Element.expectFirst\n",  # a lower-case script, not a document
    }, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = json.loads(route(["docs", "--json", "Element.expectFirst"], repo.path).stdout)
    assert doc["status"] == "routed"
    assert [row["path"] for row in doc["rows"]] == ["CHANGES"]
    assert doc["rows"][0]["document_kind"] == "changelog" and doc["rows"][0]["line"] == 3
    # asked as people ask: a changelog entry, release notes, are documents to ask `docs` about
    for question in ("Is there a changelog entry explaining what Element.expectFirst does?",
                     "which release notes mention Element.expectFirst?"):
        asked = json.loads(route(["ask", "--json", "--explain", question], repo.path).stdout)
        assert asked["classification"]["routes"][0]["command"] == "docs", question
        assert asked["rows"][0]["path"] == "CHANGES", question


_texts = st.text(max_size=8)
_nodes = st.dictionaries(st.integers(0, 2**40), st.tuples(_texts, _texts, st.sampled_from(["file", "class"]),
                                                          st.integers(0, 10**5), _texts, st.integers(0, 50)),
                         min_size=1, max_size=6)


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(_nodes, st.data())
def test_the_doc_links_codecs_round_trip_their_records_and_nodes(nodes, data):
    from gitroute.indexes.doc_links import BY_DOC, BY_TARGET
    from gitroute.indexes.doc_links.storage import by_target as by_target_table

    ids = sorted(nodes)
    targets = st.lists(st.sampled_from(ids), max_size=3).map(lambda picked: [[i, *nodes[i]] for i in picked])
    status = st.sampled_from(["exact", "ambiguous"])
    link_record = st.tuples(_texts, st.sampled_from(["guide", "record"]), st.integers(0, 10**4), _texts, _texts,
                            _texts, status, st.integers(0, 20), st.integers(0, 3), targets).map(list)
    by_target = data.draw(st.dictionaries(_texts, st.lists(link_record, min_size=1, max_size=4), max_size=4))
    documents = sorted({r[0] for records in by_target.values() for r in records} | set(data.draw(st.lists(_texts))))
    codec = by_target_table(documents).codec
    # What `docs` reads: no kind (its document's path gives it), a target's path, name, kind and owner.
    kept = {key: [[r[0], "", *r[2:9], [[0, t[1], t[2], t[3], 0, t[5], 0] for t in r[9]]] for r in records]
            for key, records in by_target.items()}
    data_ = codec.dump_shard(codec.encode_shard(by_target))
    assert codec.decode_shard(codec.load_shard(data_)) == kept
    assert codec.dump_shard(codec.encode_shard(kept)) == data_  # a shard patched from what it reads is the same
    # A question's reader (no documents at hand) reads each document's place in them.
    placed = {key: [[documents.index(r[0]), *r[1:]] for r in records] for key, records in kept.items()}
    assert BY_TARGET.codec.decode_shard(BY_TARGET.codec.load_shard(data_)) == placed
    sections = data.draw(st.lists(st.tuples(_texts, _texts, st.integers(0, 10**4)).map(list), min_size=1, max_size=3))
    link = st.tuples(st.integers(0, 10**4), st.integers(0, len(sections) - 1), _texts, status, st.integers(0, 20),
                     st.integers(0, 3), targets).map(list)
    entries = data.draw(st.dictionaries(_texts, st.lists(link, max_size=4), max_size=3))
    by_doc = {path: [[path, "Title", "guide", links, sections]] for path, links in entries.items()}
    codec = BY_DOC.codec
    # What `code` and the map read: no title, kind, token, flags or node id.
    kept = {path: [[path, "", "", [[*x[:2], "", x[3], x[4], 0, [[0, *t[1:]] for t in x[6]]] for x in links],
                    sections]] for path, links in entries.items()}
    data_ = codec.dump_shard(codec.encode_shard(by_doc))
    assert codec.decode_shard(codec.load_shard(data_)) == kept
    assert codec.dump_shard(codec.encode_shard(kept)) == data_


_SPELLED = st.text(alphabet=st.sampled_from(list("ab./~!(_")), max_size=12)
_PATHS = st.lists(st.sampled_from(["a", "b", "a.b", "__init__.py", "index", "a.py", "b.js", ".", "", "a..b"]),
                  min_size=1, max_size=4).map("/".join)


@given(st.lists(_SPELLED, min_size=1, max_size=3), _PATHS)
def test_a_path_is_spelled_by_a_paragraph_as_names_file_says(spelled, path):
    from gitroute.indexes.doc_links.linking import _module_suffixes, _names_file, _path_suffixes, _spelled_probes

    paths, modules = _spelled_probes(tuple(spelled))
    found = not (paths.isdisjoint(_path_suffixes(path)) and modules.isdisjoint(_module_suffixes(path)))
    assert found == any(_names_file(s, path) for s in spelled)


def test_a_linker_reads_packed_edges_as_it_reads_edge_tuples():
    from gitroute.edges import EdgeTable, pack
    from gitroute.indexes.doc_links import Linker

    edges = [(1, "imports", 2, 1, "import"), (1, "calls", 3, 4, "import"), (2, "references", 3, 5, "scope"),
             (1, "imports", 4, 2, "import"), (3, "inherits", 2, 6, "import"), (2, "calls", 2, 7, "scope"),
             (4, "defines", 5, 1, "structure"), (2, "imports", 1, 1, "import")]
    table = EdgeTable()
    table.add(pack(edges))
    packed, plain = Linker([], table, lazy=True), Linker([], edges, lazy=True)
    assert list(packed.incoming.items()) == list(plain.incoming.items()) == [(2, 2), (3, 2), (4, 1), (1, 1)]
    assert list(packed.imports.items()) == list(plain.imports.items()) == [(1, {2, 4}), (2, {1})]


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=300), st.integers(0, 299), st.integers(0, 255))
def test_a_damaged_doc_links_shard_is_a_bad_value_never_a_traceback(tail, at, byte):
    """Arbitrary bytes after the records shard's magic, and a real shard with one byte changed, decode through every
    doc_links codec (the question's `BY_TARGET`, a build's, `BY_DOC`) to records or a `BadValue`."""
    from gitroute.bundle.validate import BadValue
    from gitroute.indexes.doc_links import BY_DOC, BY_TARGET
    from gitroute.indexes.doc_links.storage import by_target as by_target_table

    target = [0, "src/a.py", "run", "function", 3, "App", 2]
    built = by_target_table(["docs/a.md", "docs/b.md"]).codec
    real = {"run": [["docs/a.md", "", 4, "Usage", "1", "`run`", "exact", 1, 0, [target]],
                    ["docs/b.md", "", 9, "", "", "run()", "ambiguous", 2, 1, [target, target]]]}
    shards = [b"GRs1" + tail]
    for codec, value in ((built, real),
                         (BY_DOC.codec, {"docs/a.md": [["docs/a.md", "", "", [[4, 0, "", "exact", 1, 0, [target]]],
                                                        [["Usage", "1", 1]]]]})):
        data = bytearray(codec.dump_shard(codec.encode_shard(value)))
        data[at % len(data)] = byte
        shards.append(bytes(data))
    for data in shards:
        for codec in (BY_TARGET.codec, built, BY_DOC.codec):
            try:
                shard = codec.load_shard(data)
                for key in shard:
                    assert isinstance(codec.decode_key(shard, key), list)
            except BadValue:
                pass


def test_a_myst_role_in_markdown_links_as_a_role_and_is_no_text(make_repo, route):
    # MyST (Sphinx's markdown): {py:meth}`~shop.cart.Cart.total` is the role :py:meth: of reStructuredText
    repo = make_repo("myst")
    repo.commit({**SHOP_FILES, "docs/totals.md": (
        "# Totals\n\nA cart adds up with {py:meth}`~shop.cart.Cart.total`, see {doc}`the receipts <receipts>`.\n")},
        "docs")
    assert route(["build", "-q"], repo.path).exit_code == 0
    rows = rows_by_path(ask(route, repo, "docs", "Cart.total"))
    assert rows["docs/totals.md"]["line"] == 3
    assert list(rows_by_path(ask(route, repo, "code", "docs/totals.md"))) == ["src/shop/cart.py"]


def test_code_of_one_section_and_ask_quoting_a_section_of_a_named_document(make_repo, route):
    repo = make_repo("sections")
    repo.commit({**SHOP_FILES, "README.md": (
        "# Shop\n\n## Totals\n\nA cart adds up with `Cart.total`.\n\n"
        "## Receipt printing\n\nA receipt is paid through `Gateway.charge`.\n")}, "docs")
    assert route(["build", "-q"], repo.path).exit_code == 0
    whole = ask(route, repo, "code", "README.md")
    assert len(whole["rows"]) >= 2
    one = ask(route, repo, "code", "README.md#receipt printing")  # case and punctuation aside
    assert [r["path"] for r in one["rows"]] == ["src/shop/payments/gateway.py"], one["rows"]
    assert "the code its section 'receipt printing' names" in one["notes"]
    other = ask(route, repo, "code", "README.md#Refunds")  # no such section: the whole document, said so
    assert len(other["rows"]) == len(whole["rows"]) and any("no section 'Refunds'" in n for n in other["notes"])
    asked = ask(route, repo, "ask", "--explain", "The README's 'Receipt printing' sample calls a helper; where's its code?")
    assert asked["classification"]["routes"][0]["asked"] == "README.md#Receipt printing", asked["classification"]
    assert asked["rows"][0]["path"] == "src/shop/payments/gateway.py"


def test_code_puts_the_code_a_document_names_before_the_tests_it_names_more_often(make_repo, route):
    repo = make_repo("tested")
    repo.commit({**SHOP_FILES, "docs/testing.md": (
        "# Testing\n\nRun `test_cart` in `tests/test_cart.py`; `test_cart` checks what `Cart.total` sums.\n")}, "docs")
    assert route(["build", "-q"], repo.path).exit_code == 0
    rows = ask(route, repo, "code", "docs/testing.md")["rows"]
    assert [r["path"] for r in rows][:2] == ["src/shop/cart.py", "tests/test_cart.py"], rows


def test_code_of_a_document_named_in_words_reads_the_newest_version_folder_s_copy(make_repo, route):
    # league/commonmark's docs/1.6 … docs/2.7 each hold security.md: "the security docs" mean today's
    repo = make_repo("versions")
    repo.commit({**SHOP_FILES, "docs/1.9/security.md": "# Security\n\nCharges go through `Gateway.charge`.\n",
                 "docs/1.10/security.md": "# Security\n\nA cart adds up with `Cart.total`.\n"}, "docs")
    assert route(["build", "-q"], repo.path).exit_code == 0
    found = ask(route, repo, "code", "security")
    assert found["document"] == "docs/1.10/security.md", found
    assert [r["path"] for r in found["rows"]] == ["src/shop/cart.py"], found["rows"]
