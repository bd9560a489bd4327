"""`git route ask` with whole sentences (issue 21): the phrases that ask for a kind, the names and paths the sentence
holds, the facts looked up in the bundle, and the argument the dedicated command needs. Three repositories, built
for real: Python with reStructuredText docs, Go with Markdown, C with a header and Markdown."""
from __future__ import annotations

import json

import pytest

from tests.conftest import RepoBuilder, run_route

PYTHON = {
    "pyproject.toml": '[project]\nname = "shop"\n',
    "src/shop/__init__.py": '"""The shop."""\n',
    "src/shop/pricing.py": (
        '"""Prices and discounts."""\n\n\n'
        'class DiscountRule:\n    """A rule that lowers a price."""\n\n'
        '    def __init__(self, percent):\n        self.percent = percent\n\n\n'
        'def apply_discount(price, rule):\n    """Lower a price by a discount rule."""\n'
        '    return price * (100 - rule.percent) / 100\n'
    ),
    "src/shop/cart.py": (
        'from shop.pricing import DiscountRule, apply_discount\n\n\n'
        'class Cart:\n    """The items a customer is buying."""\n\n'
        '    def total_price(self, prices):\n'
        '        return sum(apply_discount(p, DiscountRule(10)) for p in prices)\n'
    ),
    "src/shop/checkout.py": (
        'from shop.cart import Cart\n\n\n'
        'def checkout(prices):\n    """Charge the customer for the cart."""\n    return Cart().total_price(prices)\n'
    ),
    "src/shop/backends/postgresql/store.py": 'def save_order(order):\n    """Store an order."""\n    return order\n',
    "tests/test_pricing.py": (
        "from shop.pricing import DiscountRule\n\n\nclass HalfPriceDiscountRule(DiscountRule):\n    pass\n"),
    "docs/pricing.rst": (
        "Pricing\n=======\n\nDiscounts are applied by :func:`shop.pricing.apply_discount`, which takes a\n"
        ":class:`shop.pricing.DiscountRule`.\n\nThe :class:`shop.cart.Cart` sums the discounted prices.\n"
    ),
    "docs/index.rst": "Shop\n====\n\nSee the pricing page.\n",
}

GO = {
    "go.mod": "module example.com/web\n\ngo 1.21\n",
    "router/router.go": (
        "package router\n\n// Router dispatches requests to handlers by path.\ntype Router struct {\n"
        "\troutes map[string]func()\n}\n\n// NewRouter makes an empty router.\nfunc NewRouter() *Router {\n"
        "\treturn &Router{routes: map[string]func(){}}\n}\n\n// Handle registers a handler for a path.\n"
        "func (r *Router) Handle(path string, h func()) {\n\tr.routes[path] = h\n}\n"
    ),
    "server/server.go": (
        'package server\n\nimport "example.com/web/router"\n\n// Serve starts the server.\n'
        "func Serve() {\n\tr := router.NewRouter()\n\tr.Handle(\"/\", func() {})\n}\n"
    ),
    "docs/routing.md": (
        "# Routing\n\nCreate a router with `NewRouter` and register handlers with `Router.Handle`.\n"
        "The code lives in `router/router.go`.\n"
    ),
    "README.md": "# web\n\nA tiny web framework.\n",
}

C = {
    "src/buffer.h": "#ifndef BUFFER_H\n#define BUFFER_H\nint buffer_append(char *dst, const char *src);\n#endif\n",
    "src/buffer.c": (
        '#include "buffer.h"\n\n/* Append src to dst. */\nint buffer_append(char *dst, const char *src) {\n'
        "    while (*dst) dst++;\n    while ((*dst++ = *src++)) {}\n    return 0;\n}\n"
    ),
    "src/parse.c": (
        '#include "buffer.h"\n\nint parse_line(char *out, const char *line) {\n'
        "    return buffer_append(out, line);\n}\n"
    ),
    "doc/buffers.md": "# Buffers\n\nText is gathered with `buffer_append`, declared in `src/buffer.h`.\n",
}


def _built(tmp_path_factory: pytest.TempPathFactory, name: str, files: dict[str, str]) -> RepoBuilder:
    repo = RepoBuilder(tmp_path_factory.mktemp(name) / name)
    repo.commit(dict(files), "initial")
    result = run_route(["build", "-q"], repo.path)
    assert result.exit_code == 0, result.stderr
    return repo


@pytest.fixture(scope="module")
def python_repo(tmp_path_factory: pytest.TempPathFactory) -> RepoBuilder:
    return _built(tmp_path_factory, "shop", PYTHON)


@pytest.fixture(scope="module")
def go_repo(tmp_path_factory: pytest.TempPathFactory) -> RepoBuilder:
    return _built(tmp_path_factory, "web", GO)


@pytest.fixture(scope="module")
def c_repo(tmp_path_factory: pytest.TempPathFactory) -> RepoBuilder:
    return _built(tmp_path_factory, "buffers", C)


def ask(repo: RepoBuilder, text: str) -> dict:
    result = run_route(["ask", "--json", "--explain", text], repo.path)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def routes(doc: dict) -> list[tuple[str, str]]:
    return [(r["command"], r["asked"]) for r in doc["classification"]["routes"]]


def paths(doc: dict, n: int = 3) -> list[str]:
    return [row["path"] for row in doc["rows"][:n]]


REPOS = {"python": "python_repo", "go": "go_repo", "c": "c_repo"}


# --- class 1: a document's path inside a sentence asks for the code behind it ----------------------------------

@pytest.mark.parametrize("language, question, document, code", [
    ("python", "I'm reading docs/pricing.rst, where is the code behind it?", "docs/pricing.rst",
     "src/shop/pricing.py"),
    ("python", "Which source files implement what docs/pricing.rst describes?", "docs/pricing.rst",
     "src/shop/pricing.py"),
    ("go", "docs/routing.md keeps talking about handlers; take me to the code.", "docs/routing.md",
     "router/router.go"),
    ("go", "what Go files does docs/routing.md point at", "docs/routing.md", "router/router.go"),
    ("c", "doc/buffers.md mentions appending text — which C file does that?", "doc/buffers.md", "src/buffer.h"),
    # the names the document describes are spelled too: the code behind the document is still what is asked first
    ("python", "Which code implements the discounts described in docs/pricing.rst, like apply_discount?",
     "docs/pricing.rst", "src/shop/pricing.py"),
    ("go", "What code implements the routing described in docs/routing.md, NewRouter and Router.Handle?",
     "docs/routing.md", "router/router.go"),
])
def test_a_document_in_a_sentence_asks_code_with_its_path(request, language, question, document, code):
    doc = ask(request.getfixturevalue(REPOS[language]), question)
    assert routes(doc)[0] == ("code", document)
    assert code in paths(doc) and document not in paths(doc)  # never the document's own rows
    assert f"'{document}' is a document of the pinned commit" in doc["classification"]["facts"]


# --- class 2: "which doc explains X" in many phrasings asks docs with the name ----------------------------------

@pytest.mark.parametrize("language, question, name, document", [
    ("python", "Is there a page in the docs that explains apply_discount?", "apply_discount", "docs/pricing.rst"),
    ("python", "Which doc should I read to learn about DiscountRule?", "DiscountRule", "docs/pricing.rst"),
    ("python", "where is the Cart class described", "Cart", "docs/pricing.rst"),
    # the name the passive verb follows, not one of the clause after it
    ("python", "Where is apply_discount documented, and does it mention DiscountRule?", "apply_discount",
     "docs/pricing.rst"),
    ("go", "Where is Router.Handle documented? I want to know what it registers.", "Router.Handle",
     "docs/routing.md"),
    ("go", "Any write-up for NewRouter?", "NewRouter", "docs/routing.md"),
    ("go", "is there a design doc behind NewRouter", "NewRouter", "docs/routing.md"),
    ("c", "Which section of the docs covers `buffer_append`?", "buffer_append", "doc/buffers.md"),
])
def test_which_doc_explains_a_name_asks_docs_with_the_name(request, language, question, name, document):
    doc = ask(request.getfixturevalue(REPOS[language]), question)
    assert routes(doc)[0] == ("docs", name)
    assert paths(doc)[0] == document
    assert any(f"'{name}' is defined in" in fact or f"spells the name '{name}'" in fact
               for fact in doc["classification"]["facts"])


@pytest.mark.parametrize("question", ["router/router.go — is there any documentation for it?",
                                      "Before I extend router/router.go, which documentation page should I read?",
                                      "what doc page should I read before touching router/router.go?"])
def test_docs_of_a_code_path_in_a_sentence(go_repo, question):
    doc = ask(go_repo, question)
    assert routes(doc)[0] == ("docs", "router/router.go")
    assert paths(doc)[0] == "docs/routing.md"


# --- class 3: what depends on X, who calls X, what breaks if X in PATH changes ----------------------------------

@pytest.mark.parametrize("language, question, target, user", [
    ("python", "who calls apply_discount?", "apply_discount", "src/shop/cart.py"),
    ("python", "What would break if I renamed apply_discount in src/shop/pricing.py?",
     "src/shop/pricing.py:apply_discount", "src/shop/cart.py"),
    ("python", "I'm about to add a field to DiscountRule; which modules build it?", "DiscountRule",
     "src/shop/cart.py"),
    ("python", "is it safe to rename src/shop/cart.py:Cart", "src/shop/cart.py:Cart", "src/shop/checkout.py"),
    ("go", "I'm changing NewRouter's signature — what's built on top of it?", "NewRouter", "server/server.go"),
    ("go", "which packages import the router/ package? I want to split it", "router/router.go",
     "server/server.go"),
    ("c", "buffer_append: if I change its return type, what else do I have to look at?", "buffer_append",
     "src/parse.c"),
    ("c", "who uses buffer_append outside buffer.c?", "src/buffer.c:buffer_append", "src/parse.c"),
    # "the NAME <kind> in PATH": the kind word says what the name is, it is not the name
    ("go", "I'm changing the Router struct in router/router.go; what's built on top of it?",
     "router/router.go:Router", "server/server.go"),
    ("python", "If I change the DiscountRule class in src/shop/pricing.py, what breaks?",
     "src/shop/pricing.py:DiscountRule", "src/shop/cart.py"),
])
def test_change_and_use_questions_ask_impact_with_the_target(request, language, question, target, user):
    doc = ask(request.getfixturevalue(REPOS[language]), question)
    assert routes(doc)[0] == ("impact", target)
    assert user in paths(doc)


# --- class 4: a name the repository does not define is no_match, in ask and in each dedicated command ----------

@pytest.mark.parametrize("language, question", [
    ("python", "Which doc explains the `FooBarRule` class?"),
    ("python", "Does any page document Cart.refund_all?"),
    ("python", "Who calls compute_shipping_tax?"),
    ("python", "Where's `MirrorSelector` defined?"),
    ("go", "Is the built-in RateLimiter middleware explained anywhere in the docs?"),
    ("c", "what would break if I changed buffer_prepend"),
])
def test_a_name_the_repository_does_not_define_is_no_match(request, language, question):
    doc = ask(request.getfixturevalue(REPOS[language]), question)
    assert doc["status"] == "no_match" and doc["rows"] == []
    assert doc["notes"][0].startswith("the repository defines no ")
    assert any("is no name the repository defines" in fact for fact in doc["classification"]["facts"])


def test_the_dedicated_commands_agree_on_a_name_the_repository_does_not_define(python_repo):
    for args in (["query", "compute_shipping_tax"], ["query", "Cart.refund_all"], ["docs", "FooBarRule"],
                 ["impact", "compute_shipping_tax"]):
        result = run_route([*args, "--json"], python_repo.path)
        assert json.loads(result.stdout)["status"] == "no_match", args
    note = json.loads(run_route(["query", "--json", "apply_discounts"], python_repo.path).stdout)["notes"][0]
    assert note.startswith("the repository defines no 'apply_discounts'") and "apply_discount" in note
    # a name it defines, qualified or not, or only in its tests (ranked below names of the code), still answers
    for name in ("apply_discount", "shop.pricing.apply_discount", "Cart.total_price", "HalfPriceDiscountRule"):
        assert json.loads(run_route(["query", "--json", name], python_repo.path).stdout)["status"] == "routed"


def test_a_camel_cased_word_the_repository_uses_is_not_taken_for_a_missing_name(python_repo):
    # `PostgreSQL` names no symbol, but `postgresql` is a folder of the repository: not a name it lacks
    doc = ask(python_repo, "Which doc explains the PostgreSQL backend?")
    assert not doc["notes"] or not doc["notes"][0].startswith("the repository defines no")
    assert any("a word the repository uses" in fact for fact in doc["classification"]["facts"])
    notes = json.loads(run_route(["query", "--json", "PostgreSQL"], python_repo.path).stdout)["notes"]
    assert not any(note.startswith("the repository defines no") for note in notes)


# --- the argument: names in one file, qualified names, a header beside its source -------------------------------

def test_a_qualified_name_is_found_by_its_last_part_within_its_qualifiers(go_repo):
    doc = ask(go_repo, "who calls router.NewRouter?")
    assert routes(doc)[0] == ("impact", "router/router.go:NewRouter")
    assert "'router.NewRouter' is defined in router/router.go" in doc["classification"]["facts"]
    assert paths(doc)[0] == "server/server.go"


def test_where_a_name_is_defined_asks_the_symbol_index_for_the_name(c_repo):
    doc = ask(c_repo, "Which file defines buffer_append?")
    assert routes(doc)[0] == ("query", "buffer_append")
    assert paths(doc, 2)[0] in ("src/buffer.c", "src/buffer.h")


def test_the_clause_that_asks_comes_before_the_setting_around_it(python_repo):
    # the docs phrase is a statement; the question is where the name is defined
    doc = ask(python_repo, "apply_discount is what the pricing page documents; which file is it in?")
    assert [r["kind"] for r in doc["classification"]["routes"]] == ["symbol", "docs"]
    assert paths(doc, 1) == ["src/shop/pricing.py"]


def test_mixed_questions_still_ask_several_indexes(python_repo):
    doc = ask(python_repo, "who calls apply_discount, and which doc explains it?")
    assert [r["kind"] for r in doc["classification"]["routes"]] == ["impact", "docs"]
    assert {row["type"] for row in doc["rows"]} == {"impact", "docs"}


def test_the_mcp_ask_tool_shows_the_same_classification(python_repo):
    from gitroute.cli.mcp import ServerTools

    tools = ServerTools(str(python_repo.path))
    try:
        document, is_error = tools.call("ask", {"text": "Who calls compute_shipping_tax?", "explain": True})
        assert not is_error and document["status"] == "no_match"
        assert document["classification"] == ask(python_repo, "Who calls compute_shipping_tax?")["classification"]
        found, _ = tools.call("ask", {"text": "Where is Cart documented?", "explain": True})
        assert found["classification"]["routes"][0]["asked"] == "Cart" and found["rows"][0]["type"] == "docs"
    finally:
        tools.close()


def test_explain_in_text_names_the_phrase_and_the_facts(python_repo):
    result = run_route(["ask", "--explain", "Is there a page in the docs that explains apply_discount?"],
                       python_repo.path)
    assert "asked: docs -> git route docs 'apply_discount': asks which document explains something" in result.stdout
    assert "fact: 'apply_discount' is defined in src/shop/pricing.py" in result.stdout


# --- the impact index: one symbol in several definitions, the name as spelled ----------------------------------

def test_impact_walks_a_declaration_and_its_definition_together(c_repo):
    doc = json.loads(run_route(["impact", "--json", "buffer_append"], c_repo.path).stdout)
    assert [row["path"] for row in doc["rows"]] == ["src/parse.c"]
    assert any("walked together" in note for note in doc["notes"])


def test_impact_walks_a_type_with_its_constructor(python_repo):
    doc = json.loads(run_route(["impact", "--json", "DiscountRule"], python_repo.path).stdout)
    assert doc["rows"] and doc["rows"][0]["path"] == "src/shop/cart.py"


# --- docs of a code file, the rows of one symbol first, a phrase with nothing to ask about -----------------------

def test_docs_of_a_code_file_no_document_names_are_the_documents_of_what_it_defines(c_repo):
    # doc/buffers.md names `buffer_append`, narrowed to the header's declaration: the source defines the same symbol
    for args in (["docs", "--json", "src/buffer.c"], ["ask", "--json", "Any docs for src/buffer.c?"]):
        doc = json.loads(run_route(args, c_repo.path).stdout)
        assert doc["rows"][0]["path"] == "doc/buffers.md", args
    note = json.loads(run_route(["docs", "--json", "src/buffer.c"], c_repo.path).stdout)["notes"][0]
    assert note == "no document names 'src/buffer.c' itself; these name what it defines: buffer_append"
    assert json.loads(run_route(["docs", "--json", "src/parse.c"], c_repo.path).stdout)["status"] == "no_match"


def test_a_declaration_and_its_definition_both_come_before_other_routes(c_repo, python_repo):
    doc = json.loads(run_route(["ask", "--json", "buffer_append"], c_repo.path).stdout)
    assert [(r["type"], r["path"]) for r in doc["rows"][:2]] == [("symbol", "src/buffer.c"), ("symbol", "src/buffer.h")] \
        or [(r["type"], r["path"]) for r in doc["rows"][:2]] == [("symbol", "src/buffer.h"), ("symbol", "src/buffer.c")]
    one = json.loads(run_route(["ask", "--json", "apply_discount"], python_repo.path).stdout)
    assert [r["type"] for r in one["rows"][:2]] == ["symbol", "docs"]  # one definition: the docs come second


def test_a_docs_phrase_with_no_name_to_ask_about_falls_back_to_plain_words(python_repo):
    doc = ask(python_repo, "which page of the docs explains how a percent gets lowered by a rule")
    # no page says it in these words either (the pages' route, through why, finds nothing): plain words then
    assert [(r["kind"], r["command"]) for r in doc["classification"]["routes"]] == [
        ("docs", "docs"), ("docs", "why"), ("meaning", "query")]
    assert doc["status"] == "routed" and doc["rows"][0]["path"] == "src/shop/pricing.py"
    # one that says a page's whole heading ("a price": § Pricing) is answered by that page
    titled = ask(python_repo, "which page of the docs explains how a price gets lowered by a rule")
    assert (titled["rows"][0]["path"], titled["rows"][0]["name"]) == ("docs/pricing.rst", "Pricing"), titled["rows"]


# A page that explains a file in other words: no document names the file or what it defines, so `docs` has no link
# to give; the page's own words answer, through every document's sections, and the rows are still documents.
PAGES = {
    "go": {
        "go.mod": "module example.com/editor\n\ngo 1.21\n",
        "server/session.go": ("package server\n\n// conn is one editor connection.\ntype conn struct{ id int }\n\n"
                              "func (c *conn) open() int { return c.id }\n"),
        "server/store.go": "package server\n\nfunc keep(n int) int { return n }\n",
        "docs/design/implementation.md": (
            "# Implementation\n\n## Layers\n\nThe server keeps one session per editor connection. Below the session\n"
            "layer sits a cache shared by every session, so that files opened twice are parsed once.\n\n"
            "## Testing\n\nIntegration tests start a real server.\n"),
        "README.md": "# editor\n\nA language server.\n",
    },
    "python": {
        "pyproject.toml": '[project]\nname = "relay"\n',
        "relay/session.py": "class _Conn:\n    def open(self):\n        return 1\n",
        "relay/store.py": "def keep(n):\n    return n\n",
        "docs/architecture.rst": (
            "Architecture\n============\n\nLayers\n------\n\nThe relay keeps one session per editor connection. "
            "Below the session\nlayer sits a cache shared by every session, so that files opened twice are parsed "
            "once.\n\nTesting\n-------\n\nIntegration tests start a real relay.\n"),
    },
}


@pytest.mark.parametrize("language, code, page", [
    ("go", "server/session.go", "docs/design/implementation.md"),
    ("python", "relay/session.py", "docs/architecture.rst"),
])
def test_a_docs_question_no_link_answers_is_answered_by_the_pages_words(tmp_path_factory, language, code, page):
    repo = _built(tmp_path_factory, f"pages-{language}", PAGES[language])
    assert json.loads(run_route(["docs", "--json", code], repo.path).stdout)["status"] == "no_match"
    doc = ask(repo, f"Which write-up explains the session and cache layering that {code} is part of?")
    assert [(r["kind"], r["command"]) for r in doc["classification"]["routes"]] == [("docs", "docs"), ("docs", "why")]
    assert doc["status"] == "routed" and doc["rows"][0]["path"] == page
    assert {r["type"] for r in doc["rows"]} == {"docs"}
    # an off-topic sentence of the same shape is still no_match: the pages' own rule holds
    off = ask(repo, f"Which write-up explains the tax rules for imported bicycles that {code} is part of?")
    assert off["status"] == "no_match"


# --- round 27: phrasings a blind bench asked in, each kept to its general form --------------------------------------

NESTED = {
    "package.json": '{"name": "kit", "scripts": {"test": "node test.js"}}\n',
    "tox.ini": "[tox]\nenv_list = spelling\n\n[testenv:spelling]\ndescription = spell-check the documentation\n"
               "commands = sphinx-build -b spelling docs docs/_build\n",
    "README.md": ("# kit\n\nA toolkit. See `examples/server/README.md`; `startServer` serves.\n\n## Features\n\n"
                  "Failed calls are retried, and the wait grows longer after every failure.\n"),
    "lib/server.js": "function startServer (port) {\n  return port\n}\n\nmodule.exports = { startServer }\n",
    "lib/retry.js": ("// Retry a failed call, waiting longer each time.\nfunction retryCall (fn, times) {\n"
                     "  return fn(times)\n}\n\nmodule.exports = { retryCall }\n"),
    "examples/server/README.md": "# Server example\n\nServes on port 8001 with `startServer` from `lib/server.js`.\n",
    "examples/server/main.js": "const { startServer } = require('../../lib/server')\nstartServer(8001)\n",
    "docs/retrying.md": "# Retrying\n\n## After a failure\n\nA failed call is retried by `retryCall`, each wait longer.\n",
    "docs/limits.md": "# Limits\n\nA failed call is tried again, each wait longer than the one before.\n",
}


@pytest.fixture(scope="module")
def nested_repo(tmp_path_factory: pytest.TempPathFactory) -> RepoBuilder:
    return _built(tmp_path_factory, "kit", NESTED)


@pytest.mark.parametrize("question", [
    "The server example's README describes a server on port 8001; which code implements it?",
    "The server README shows a server on port 8001; which code backs it?",
])
def test_a_readme_named_after_its_folder_asks_code_with_that_readme(nested_repo, question):
    doc = ask(nested_repo, question)
    assert routes(doc)[0] == ("code", "examples/server/README.md")
    assert "'README' names the document 'examples/server/README.md'" in doc["classification"]["facts"]


@pytest.mark.parametrize("question, command", [
    ("Is there a page on retrying a call after it failed?", "docs"),
    ("What are the steps for retrying a failed call?", "docs"),
    ("Which config defines the job that spell-checks the documentation?", "wiring"),
    ("what runs the unit tests?", "wiring"),
    ("The README mentions the server example; take me to that code.", "code"),
    # round 44: an adverb and a verb of the thing described ("so which code actually does that?"); a config file
    # named by the package metadata it sets; "which part" asks where, though a verb of deciding follows
    ("The README mentions the server example, so which code actually runs that?", "code"),
    ("The server example's README describes port 8001; which source files actually implement that?", "code"),
    ("Which config file makes the package description on npm hold the README?", "wiring"),
    ("When a call fails, which part works out how long to wait before it decides to retry?", "query"),
    # a second blind set: more verbs of a change ("tighten", "tweak"), "lean on" as relying on, and "what code"
    # asking where (a choice after it, "instead of", no longer makes it a why question)
    ("If I tighten what retryCall accepts, which parts of the code base would feel the change?", "impact"),
    ("If a call fails twice, what code notices it and retries instead of giving up?", "query"),
    ("The Retrying page describes a call retried after a failure; what code waits and then retries it?", "code"),
    # round 45: any verb of the thing described ("which code actually publishes those events?"), but a use's
    ("The Retrying page describes the waits after a failure; which code actually schedules those waits?", "code"),
    ("The Retrying page describes a call retried after a failure; which module actually implements that?", "code"),
    # the package's own configuration, a file that tells a tool what to do, the repository's automation
    ("Which packaging config declares the plugin hook the docs tool loads?", "wiring"),
    ("Which file tells npm where the typings are?", "wiring"),
    ("Which file controls how merged pull requests are grouped in the generated release notes?", "wiring"),
    # a fourth set: "where is that decision made" asks where; "in case I tighten" is a change's condition; a file
    # that makes bundlers do something is wiring; a page's claim, then "which code actually <does> …" in other words
    ("How does a failed call wait longer each time, and where is that decision made?", "query"),
    ("What should I look over in case I tighten what retryCall accepts?", "impact"),
    ("Which file makes bundlers pick up the server example instead of lib?", "wiring"),
    ("The Retrying page promises longer waits, so which code actually doubles the wait after each failure?", "code"),
    ("Which code actually doubles the wait after each failure?", "query"),
    ("The Retrying page describes the longer waits; where is the code that actually does that?", "code"),
])
def test_a_phrase_asks_its_kind(nested_repo, question, command):
    assert routes(ask(nested_repo, question))[0][0] == command


def test_a_docs_question_about_a_name_qualified_by_a_namespace_it_does_not_define_asks_the_documents(nested_repo):
    # fmt's docs on `std::tm`: the standard library's namespace is no name the repository defines, but its own name
    # is a word the repository holds; the sections answer ("defines no 'std::tm'" answered nothing)
    doc = ask(nested_repo, "Which page explains how long each wait is after a failed call, counted in std::time?")
    assert doc["status"] == "routed"
    assert doc["rows"][0]["path"] in ("docs/retrying.md", "docs/limits.md")


def test_a_file_behind_a_symlink_is_no_code_behind_a_page(nested_repo):
    # "the code behind it" asks for the code of what was named; "the file behind a symlink" is a place on disk
    assert routes(ask(nested_repo, "The server file behind a symlink gets swapped out; where is the code that "
                                   "notices the change and retries the call?"))[0][0] == "query"


SIGNING = {
    "docs/serializer.md": ("# Serialization Interface\n\nSerializers sign data.\n\n## Fallback Signers\n\n"
                           "A list of fallback signers is tried by `iter_unsigners` when the current one fails.\n"),
    "docs/url_safe.md": "# URL Safe Serialization\n\n`dumps_url` writes a token safe in a URL.\n",
    "signing/serializer.py": "def iter_unsigners(fallbacks):\n    return list(fallbacks)\n",
    "signing/url_safe.py": "def dumps_url(data):\n    return str(data)\n",
    "README.md": ("# signing\n\n## Rotating keys\n\n"
                  "Old keys stay as fallbacks while new tokens are signed with the new key.\n\n"
                  "## dump (object [ , options ])\n\nWrites an object as a token; `indent` sets its width.\n"),
}


@pytest.fixture(scope="module")
def signing_repo(tmp_path_factory: pytest.TempPathFactory) -> RepoBuilder:
    return _built(tmp_path_factory, "signing", SIGNING)


def test_a_section_of_a_document_named_by_its_title_words_asks_that_section_of_the_document_that_has_it(
        signing_repo):
    # itsdangerous: "the serialization docs" are two documents by their titles; the section named says which, and
    # its code is what the question asks for (the first title's whole document answered)
    doc = ask(signing_repo, "The Fallback Signers section of the serialization docs says a list of signers is "
                            "tried when the current one fails; which code actually builds and tries those signers?")
    assert routes(doc)[0] == ("code", "serialization#Fallback Signers")
    assert paths(doc, 1) == ["signing/serializer.py"]


def test_a_docs_question_that_names_its_document_asks_for_a_section_of_it_first(nested_repo):
    # a fresh install on tomli: "which part of the README explains how to parse a TOML file?" answered the code the
    # README names, and left the README's own sections out (the question was "reading" it)
    doc = ask(nested_repo, "Which part of the README describes the features of failed calls being retried?")
    assert routes(doc)[0][0] == "why"
    assert (doc["rows"][0]["path"], doc["rows"][0]["name"]) == ("README.md", "Features")


def test_a_document_that_has_a_section_names_no_section_by_its_verb(nested_repo):
    # django: "The signing docs have a section on verifying timestamped values …" named no section "signing docs
    # have a": the section is the one it has "on" a topic (no title here: the document's links answer after the words)
    doc = ask(nested_repo, "The Retrying docs have a section on waiting longer after a failure; take me to the "
                           "implementation.")
    assert ("code", "Retrying#waiting longer after a failure") in routes(doc)
    assert not any(text.startswith("Retrying#") and "have" in text for _, text in routes(doc))
    assert paths(doc, 1) == ["lib/retry.js"]


def test_a_part_of_a_named_document_that_names_no_code_is_still_asked_of_its_sections(signing_repo):
    # the README names no code: its code route finds nothing, and the question still asked for a part of it
    doc = ask(signing_repo, "Which part of the README explains rotating old keys to new ones?")
    assert "why" in [command for command, _ in routes(doc)]
    assert (doc["rows"][0]["path"], doc["rows"][0]["name"]) == ("README.md", "Rotating keys")


def test_the_words_that_name_the_document_asked_of_are_no_words_its_section_must_hold(signing_repo):
    # js-yaml: "Which part of the README explains the options for dump?" answered code: the sections route asked for
    # three words (readme, options, dump) where the section "dump (object [ , options ])" holds two
    doc = ask(signing_repo, "Which part of the README explains the options for dump?")
    assert (doc["rows"][0]["path"], doc["rows"][0]["name"]) == ("README.md", "dump (object [ , options ])")


def test_which_readme_section_explains_asks_for_a_section_of_it(signing_repo):
    # logrus: "Which README section explains when it's safe to turn off the logger's internal locking …?" asked only
    # for the code the README names
    doc = ask(signing_repo, "Which README section explains how old keys are rotated to new ones?")
    assert (doc["rows"][0]["path"], doc["rows"][0]["name"]) == ("README.md", "Rotating keys")


def test_a_page_then_which_class_does_that_doing_asks_for_code(signing_repo):
    # argparse4j: "The manual section on Arguments.count() says an option can be counted …; which class actually
    # does that counting …?" asked the docs; after no page ("so which code does that merging?", marshmallow) the
    # question's own words are asked, as before
    doc = ask(signing_repo, "The Fallback Signers section of the serialization docs says a list of signers is tried "
                            "in turn; which class actually does that trying?")
    assert routes(doc)[0][0] == "code"
    assert paths(doc, 1) == ["signing/serializer.py"]
    assert routes(ask(signing_repo, "Tokens get signed with the new key, so which code does that signing?"))[0][0] \
        != "code"


def test_a_section_named_after_section_on_is_the_section_the_code_route_reads(signing_repo):
    # urllib3: "The user guide section on using timeouts describes …; which source file implements that …?" read the
    # whole user guide
    doc = ask(signing_repo, "The serialization docs section on fallback signers describes a list tried in turn; "
                            "which source file implements that?")
    assert routes(doc)[0] == ("code", "serialization#fallback signers")


def test_a_section_named_before_a_comma_and_implemented_by_which_file_asks_for_its_code(signing_repo):
    # jsonwebtoken: "The README section about jwt.decode, peeking into a token without verifying it …, is implemented
    # by which source file?" was a docs question only
    doc = ask(signing_repo, "The serialization docs section on fallback signers, a list tried in turn, is implemented "
                            "by which source file?")
    assert ("code", "serialization#fallback signers") in routes(doc), routes(doc)
    assert "signing/serializer.py" in paths(doc, 3)


def test_names_listed_as_examples_are_not_what_a_docs_question_is_about(signing_repo):
    # CLI11: "Which section of the docs lists the settings a subcommand picks up …, like ignore_case, fallthrough and
    # footer, …?" asked the docs about `ignore_case`; the names are examples, the sections are asked first
    doc = ask(signing_repo, "Which section of the docs explains rotating old keys to new ones, with helpers like "
                            "iter_unsigners, dumps_url and others?")
    assert routes(doc)[0][0] == "why"
    assert "README.md" in paths(doc, 4)
    # one name the question is about is still asked first
    assert routes(ask(signing_repo, "Which section of the docs explains iter_unsigners?"))[0] == ("docs", "iter_unsigners")


def test_a_choice_said_before_the_clause_that_asks_where_is_no_why_question(nested_repo):
    # commons-cli: "… rather than a raw string, so where does that conversion happen?" asks where
    doc = ask(nested_repo, "I want the wait handed to me as a number rather than a raw string, so where does that "
                           "conversion happen?")
    assert routes(doc)[0][0] != "why"


def test_a_name_said_in_passing_far_after_a_docs_phrase_comes_after_the_sections(nested_repo):
    # ws: "which section of the docs shows how to verify who the user is during the HTTP upgrade and answer 401
    # before the WebSocket is accepted?" is about authenticating: the sections holding its words come first
    doc = ask(nested_repo, "Which section of the docs shows how to wait longer after every failure when a call is "
                           "retried by retryCall?")
    assert routes(doc)[0] == ("why", "Which of the how to wait longer after every failure when a call is retried "
                                     "by retryCall?")


def test_a_page_cache_is_not_a_page_of_the_docs(nested_repo):
    # "page" names a document only after "is there a … page on/about"; a page of memory is code's
    assert routes(ask(nested_repo, "where is the page cache flushed after a failed call?"))[0][0] != "docs"


def test_a_code_question_whose_section_names_no_code_asks_what_it_describes_first(nested_repo):
    # The README's Features section names no code: the words the question says it describes are asked first, then
    # the document's links; a section that names its code is asked for that code alone.
    doc = ask(nested_repo, "The Features section of the README says a failed call is retried with a longer wait "
                           "each time, so which code actually does that?")
    assert [c for c, _ in routes(doc)][:2] == ["query", "code"]
    assert routes(doc)[1] == ("code", "README.md#Features")
    assert "retried" in routes(doc)[0][1] and "which code" not in routes(doc)[0][1]
    assert paths(doc, 1) == ["lib/retry.js"]
    named = ask(nested_repo, "The After a failure section of docs/retrying.md says a failed call is retried; which "
                             "code does that?")
    assert routes(named)[0] == ("code", "docs/retrying.md#After a failure") and paths(named, 1) == ["lib/retry.js"]
    # a document that names no code at all: the code route keeps its place, and what the document says answers
    bare = ask(nested_repo, "docs/limits.md says a failed call is retried with a longer wait each time; which code "
                            "actually does that?")
    assert [c for c, _ in routes(bare)][:2] == ["code", "query"] and paths(bare, 1) == ["lib/retry.js"]


def test_a_section_the_readme_has_on_a_topic_is_asked_by_what_it_describes(nested_repo):
    # yargs: "The README has a section on using yargs in the browser; which code actually bootstraps the browser build
    # …?" asked the code route for the whole README, whose links answered (`hideBin`): the section it has "on" a topic
    # is asked, and, naming no code, what the question says it describes comes first
    doc = ask(nested_repo, "The README has a section on waiting after failures; which code actually retries a failed "
                           "call with a longer wait each time?")
    assert [c for c, _ in routes(doc)][:2] == ["query", "code"]
    assert routes(doc)[1] == ("code", "README.md#waiting after failures")
    assert paths(doc, 1) == ["lib/retry.js"]


def test_a_readme_named_by_a_part_of_its_folder_and_a_long_section_description(tmp_path_factory):
    # picocli: "The codegen README has a section on creating man page template files with a template directory option
    # and a force flag; which code actually implements that?" asked the top-level README (the folder is
    # `picocli-codegen`), the section's description ran past the clause, and the build file beside the README came first
    repo = _built(tmp_path_factory, "modules", {
        "README.md": "# tool\n\nA command line toolkit.\n",
        "tool-codegen/README.md": ("# Code generation\n\n## Creating template files\n\nPass a template directory and "
                                   "force to overwrite the template files of every command.\n"),
        "tool-codegen/build.gradle": "dependencies {\n    implementation project(':tool')\n}\n",
        "tool-codegen/src/main/java/tool/codegen/TemplateWriter.java": (
            "package tool.codegen;\n\n/** Writes a template file for each command into the template directory. */\n"
            "public class TemplateWriter {\n    /** Overwrites existing template files when force is set. */\n"
            "    public void writeTemplates(String directory, boolean force) {}\n}\n"),
        "tool-shell/README.md": "# Shell\n\nAn interactive shell.\n",
        "src/main/java/tool/Command.java": "package tool;\n\npublic class Command {\n    public void run() {}\n}\n",
    })
    doc = ask(repo, "The codegen README has a section on creating template files with a template directory option and "
                    "a force flag; which code actually implements that?")
    assert ("code", "tool-codegen/README.md#creating template files") in routes(doc)
    # redis: "… has a section on FILTER expression capabilities (operators, dot selectors, …); which source code …"
    aside = ask(repo, "The codegen README has a section on creating template files (a directory, a force flag); which "
                      "code actually implements that?")
    assert ("code", "tool-codegen/README.md#creating template files") in routes(aside)
    assert paths(doc, 1) == ["tool-codegen/src/main/java/tool/codegen/TemplateWriter.java"]
    beside = run_route(["code", "--json", "tool-codegen/README.md"], repo.path)
    assert beside.exit_code == 0 and "build.gradle" not in beside.stdout  # how the folder is built, not its code


def test_the_document_named_before_section_is_no_section_title(nested_repo):
    # axios: "The README section on multiple interceptors says they run in the order they were added …; which code
    # actually builds and runs that chain?" read "README" as the section's title and the code route read the whole
    # document: the section is the one named after "section on"
    doc = ask(nested_repo, "The README section on waiting after failures says a failed call is retried with a longer "
                           "wait each time; which code actually does that?")
    assert ("code", "README.md#waiting after failures") in routes(doc)[:2]
    assert paths(doc, 1) == ["lib/retry.js"]


def test_a_section_whose_links_are_its_examples_is_answered_by_what_the_question_says_it_says(tmp_path_factory):
    # earmark-parser: "The README section on pure links says bare URLs like https://github.com become links unless
    # switched off; which code actually implements that?" The section names `as_ast`, the call its example makes:
    # what the question says the section says finds the code that does it, and comes first; a section whose link the
    # meaning index also finds keeps its link first
    repo = _built(tmp_path_factory, "links", {
        "lib/parser.js": "// Parse markdown text into a tree.\nfunction asAst (text, options) {\n  return [text, options]\n}"
                         "\n\nmodule.exports = { asAst }\n",
        "lib/pure_links.js": ("// Bare URLs in the text become links, unless the pure links option is switched off.\n"
                              "function convertBareUrls (text, pureLinks) {\n  return pureLinks ? text : ''\n}\n\n"
                              "module.exports = { convertBareUrls }\n"),
        "README.md": ("# marky\n\n## Pure links\n\nBare URLs become links unless switched off:\n\n"
                      "    asAst(text, { pureLinks: false })\n\nSee `asAst`.\n"),
    })
    doc = ask(repo, "The README section on pure links says bare URLs like https://example.com become links unless "
                    "switched off; which code actually implements that?")
    assert paths(doc, 1) == ["lib/pure_links.js"]
    assert [c for c, _ in routes(doc)][:2] == ["query", "code"]


def test_a_code_question_naming_no_document_still_asks_what_it_says_the_document_says(nested_repo):
    # tinyxml2's "The readme section on collapsing whitespace says …; which source file actually does that?" (a
    # readme.md the question's words do not find): the code route is asked the whole question, and what the question
    # says is still asked of the meaning index, not cut to nothing as if the question were the document's name
    doc = ask(nested_repo, "The manual's chapter on waiting says a failed call is retried with a longer wait each "
                           "time; which source file actually does that?")
    assert paths(doc, 1) == ["lib/retry.js"]
    assert "query" in [c for c, _ in routes(doc)][:2]


def test_a_section_named_after_a_possessive_of_several_words_is_that_section(nested_repo):
    # arrow: "The user guide's Punctuation section says …; which code actually enforces that rule?" read no section
    # (the possessive was one word at most) and the code route read the whole guide
    doc = ask(nested_repo, "The retrying guide's After a failure section says a failed call is retried; which code "
                           "does that?")
    assert routes(doc)[0] == ("code", "retrying#After a failure")


def test_a_section_named_by_the_first_words_of_its_title_is_that_section(tmp_path_factory):
    # winston: "The README section on working with multiple loggers describes registering named loggers …; which
    # source file actually implements that registry?" named no section (four words before "describes": three at most)
    # and the whole README's links answered (`Logger`); §Working with multiple Loggers in winston names `Container`
    repo = _built(tmp_path_factory, "loggers", {
        "lib/logger.js": "// A logger.\nclass Logger {\n  log (line) {\n    return line\n  }\n}\n\nmodule.exports = "
                         "{ Logger }\n",
        "lib/container.js": ("// Loggers by category.\nclass Container {\n  get (id) {\n    return id\n  }\n}\n\n"
                             "module.exports = { Container }\n"),
        "README.md": ("# winston\n\nCreate a `Logger` and log with `Logger`.\n\n## Usage\n\nEvery `Logger` logs a "
                      "line.\n\n### Working with multiple Loggers in winston\n\nA `Container` keeps a logger per "
                      "category.\n"),
    })
    doc = ask(repo, "The README section on working with multiple loggers describes keeping a logger per category; "
                    "which source file actually implements that?")
    assert ("code", "README.md#working with multiple loggers") in routes(doc)[:2]
    assert paths(doc, 1) == ["lib/container.js"]
    assert not any("what the whole document names" in note for note in doc["notes"]), doc["notes"]


def test_a_word_of_a_docs_sentence_read_as_a_name_comes_after_the_sections_that_hold_its_words(tmp_path_factory):
    # "read" is a function a document links; "I want to read about X" is no question about it: the page whose section
    # holds X comes first, the document linking `read` after it
    repo = _built(tmp_path_factory, "store", {
        "lib/store.js": "function read (key) {\n  return key\n}\n\nmodule.exports = { read }\n",
        "README.md": "# store\n\nValues come back with `read`.\n",
        "docs/expiry.md": "# Expiry\n\n## Expiring entries\n\nAn entry expires an hour after it was last written.\n",
        "lib/cli.js": "function command (name) {\n  return name\n}\n\nmodule.exports = { command }\n",
        "docs/cli.md": "# Commands\n\nAdd one with `command`.\n",
        "docs/advanced.md": "# Advanced\n\n## Command aliases\n\nA command can be called by a shorter alias of its name.\n",
    })
    doc = ask(repo, "I want to read about expiring entries")
    assert [(r["kind"], r["command"]) for r in doc["classification"]["routes"]][:2] == [("docs", "why"), ("docs", "docs")]
    assert paths(doc, 2) == ["docs/expiry.md", "README.md"]
    # a name the phrase's words were spelled as ("command aliases" asks docs about `command`) is as much a guess
    spelled = ask(repo, "where is command aliases documented?")
    assert "'command' spells the name 'command'" in spelled["classification"]["facts"]
    assert routes(spelled)[:2] == [("why", "where is command aliases ?"), ("docs", "command")]
    assert paths(spelled, 2) == ["docs/advanced.md", "docs/cli.md"]
    # what a change is made to is read right after its verb, before the question's longer spans
    tweak = ask(repo, "I want to tweak how command parses its aliases and the help text for each one, so which other "
                      "modules and tests lean on it?")
    assert routes(tweak)[0] == ("impact", "command")
    # LPeg: "If I change the signature or behaviour of tocharset, which callers …?" asked impact the whole question: a
    # change said after "if I", and what of the name is changed ("the signature or behaviour of") is no name
    aspect = ask(repo, "If I change the signature or behaviour of command, which callers in other files do I need to "
                       "re-check?")
    assert routes(aspect)[0] == ("impact", "command")
    # dotenv: "I want to add a new parameter to populate; … what else depends on its signature …?" asked impact the
    # whole question: what is added to a name is no name either
    added = ask(repo, "I want to add a new parameter to command; besides its own file, what else depends on its "
                      "signature and would break?")
    assert routes(added)[0] == ("impact", "command")


def test_a_products_name_a_document_writes_in_another_case_is_a_word_of_a_docs_question(tmp_path_factory):
    # uuid: "Where do the docs say which Node.js releases, desktop browsers and TypeScript versions this package is
    # tested against …?" answered "the repository defines no 'TypeScript'": its README writes "Typescript", in a
    # section past the first sentence a row shows
    repo = _built(tmp_path_factory, "ids", {
        "lib/v4.js": "function v4 () {\n  return 'id'\n}\n\nmodule.exports = { v4 }\n",
        "README.md": ("# ids\n\nMakes random ids.\n\n## Usage\n\nCall `v4` for a random id.\n\n## Support\n\n"
                      "Node.js releases still maintained are tested in CI.\n\n"
                      "**Typescript**: versions released within the past two years are supported.\n"),
    })
    doc = ask(repo, "Where do the docs say which Node.js releases and TypeScript versions this package supports?")
    assert doc["status"] == "routed" and doc["rows"][0]["path"] == "README.md", doc
    assert doc["rows"][0]["name"] == "Support"
    # a name spelled as code that nothing defines and no document writes is still no_match
    missing = ask(repo, "Which part of the docs explains `make_v9_id`?")
    assert missing["status"] == "no_match"
    # attrs: "Which page explains cache_hash …?" — a keyword the code takes, no symbol: a document writes it as spelled
    repo.commit({"docs/caching.md": ("# Caching\n\n## Hash Code Caching\n\nPass cache_hash=True to keep the hash: it "
                                     "makes sense to cache the hash of an object that is slow to hash.\n")}, "caching")
    assert run_route(["build", "-q"], repo.path).exit_code == 0
    written = ask(repo, "Which page explains cache_hash and when it makes sense to cache a hash?")
    assert written["rows"] and written["rows"][0]["path"] == "docs/caching.md", written


def test_a_lua_method_spelled_with_its_colon_is_the_method(tmp_path_factory):
    # lua-argparse: "Where's Parser:_inherit_property defined? It walks up … like help_max_width." asked about
    # `help_max_width` (the colon form was no name) and answered no_match
    repo = _built(tmp_path_factory, "lua", {
        "src/argparse.lua": ("local Parser = {}\n\nfunction Parser:_inherit_property(name, default)\n"
                             "  return self[name] or default\nend\n\nreturn Parser\n"),
    })
    doc = ask(repo, "Where's Parser:_inherit_property defined? It walks up to look up settings like help_max_width.")
    assert routes(doc)[0] == ("query", "Parser._inherit_property")
    assert paths(doc, 1) == ["src/argparse.lua"]


def test_a_plain_word_the_question_calls_a_function_is_that_name(tmp_path_factory):
    # semver: "I'm about to change the signature of the outside function in the ranges folder; what code calls it?"
    # asked impact of the whole sentence: `outside` is a word, not spelled as code
    repo = _built(tmp_path_factory, "called", {
        "ranges/outside.js": "const outside = (version, range) => version > range\nmodule.exports = outside\n",
        "ranges/gtr.js": "const outside = require('./outside')\nconst gtr = (v, r) => outside(v, r)\n"
                         "module.exports = gtr\n",
    })
    doc = ask(repo, "I'm about to change the signature of the outside function in the ranges folder; what code "
                    "calls it and could break?")
    assert routes(doc)[0] == ("impact", "outside")
    assert paths(doc, 1) == ["ranges/gtr.js"]
    # "the Params class of Rack::QueryParser" says whose: the owner after "of" is the name asked (rack blind26 b1)
    from gitroute.ask import _CALLED_A_DEFINITION

    assert _CALLED_A_DEFINITION.search("Where is the Params class of Rack::QueryParser defined?") is None
    assert _CALLED_A_DEFINITION.search("the outside function in the ranges folder").group(1) == "outside"
    # go-version: "Where is the Collection type declared, the slice … that can be passed to sort.Sort?" asked about
    # `sort.Sort` (the standard library's, no name of the repository): the type it calls by its kind is the name
    typed = _built(tmp_path_factory, "typed", {
        "collection.go": "package version\n\n// Collection is a list of versions that sort.Sort can order.\n"
                         "type Collection []string\n\nfunc (c Collection) Len() int { return len(c) }\n",
    })
    doc = ask(typed, "Where is the Collection type declared, the slice of versions that can be passed to sort.Sort?")
    assert routes(doc)[0] == ("query", "Collection") and paths(doc, 1) == ["collection.go"]



def test_where_in_the_readme_is_it_described_asks_for_a_section_of_it(signing_repo):
    # qs: "Where in the README is it described how to encode or decode query strings in something like Shift JIS …?"
    # asked only for the code the README names
    doc = ask(signing_repo, "Where in the README is it described how old keys are rotated to new ones?")
    assert (doc["rows"][0]["path"], doc["rows"][0]["name"]) == ("README.md", "Rotating keys")


@pytest.mark.parametrize("text", [
    "The docs section on muting signals describes temporarily silencing a signal during tests; which source file "
    "actually implements that behaviour?",
    "The README's Batching section describes grouping requests until a max size or max wait time is hit; which source "
    "file actually implements that?",
])
def test_what_a_code_question_says_its_document_says_is_a_statement_the_floors_judge(text):
    # blinker: asked of the meaning index with its question mark, the words were a sentence to the fitted gate, which
    # refused them (Signal.muted answered under the floors, as before the gate)
    from gitroute.indexes.meaning.ranking import is_sentence
    from gitroute.query import _described

    described = _described(text)
    assert described and not described.endswith("?") and not is_sentence(described)
