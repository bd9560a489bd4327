"""The meaning index: node text per language family, BM25 by hand, postings read per token, the prose/name
decision, and the no_match rule on both sides of its threshold."""
from __future__ import annotations

import json
import math

import pytest

from gitroute.bench import Question, score_answer
from gitroute.bundle.store import BundleView, corrupt_blob
from gitroute.indexes import meaning
from gitroute.indexes.meaning import (
    Evidence,
    no_match_reason,
    node_fields,
    path_text,
    query_meaning,
    question_words,
    ranking,
)
from gitroute.model import Answer, Node, Source
from gitroute.prose import header_text, scan_prose
from gitroute.rank import asks_entry_in_words, blend_rows, bm25_idf, bm25_term, built_copies, name_cover, prose_share
from gitroute.text import spelled_apart, without_request
from tests.conftest import RepoBuilder


def message_literals(text: str, lang: str) -> list[tuple[int, str]]:
    return scan_prose(text, lang)[0]


def comments(text: str, lang: str) -> list[tuple[int, str]]:
    return scan_prose(text, lang)[1]


SHOP_FILES = {
    "README.md": "# shop\n",
    "src/shop/__init__.py": '"""Shop."""\n',
    "src/shop/invoice.py": (
        '"""Invoices: totals with tax and the reminder for a late payment."""\n\n'
        "TAX_RATE = 0.2\n\n\n"
        "def invoice_total(lines, discount):\n"
        '    """Sum the lines of an invoice, apply the discount, then add the tax."""\n'
        "    return sum(lines) * (1 - discount) * (1 + TAX_RATE)\n\n\n"
        "def remind(customer):\n"
        '    raise ValueError("the customer has not paid the invoice before the due date")\n'
    ),
    "src/shop/cart.js": (
        "// The shopping cart kept in the browser between visits.\n"
        "export const storageKey = makeKey('cart');\n\n"
        "/** Add one item to the cart, merging quantities. */\n"
        "export function addItem(cart, item) {\n  return cart;\n}\n"
    ),
    "src/shop/ship.go": (
        "// Package shop computes shipping costs by weight and distance.\npackage shop\n\n"
        "// ShippingCost prices a parcel by its weight in kilograms.\nfunc ShippingCost(weight float64) float64 {\n"
        "\treturn weight * 2\n}\n"
    ),
    "src/shop/catalog.ts": "/** Products on sale, by category. */\nexport function listProducts(category: string) {\n  return [];\n}\n",
    "dist/shop/catalog.js": "export function listProducts(category) {\n  return [];\n}\n",
    "tests/test_invoice.py": "def test_invoice_total():\n    assert True\n",
}


@pytest.fixture
def shop_repo(make_repo, route) -> RepoBuilder:
    repo = make_repo("shop")
    repo.commit(dict(SHOP_FILES), "initial")
    built = route(["build", "-q"], repo.path)
    assert built.exit_code == 0, built.stderr
    return repo


def ask(route, repo: RepoBuilder, text: str, *options: str) -> dict:
    result = route(["query", "--json", *options, text], repo.path)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


# --- node text per language family ----------------------------------------------------------


def test_header_text_reads_a_python_module_docstring_past_comments_and_future_imports():
    text = '#!/usr/bin/env python\n# coding: utf-8\nfrom __future__ import annotations\n"""Parse the cart."""\nx = 1\n'
    assert header_text(text, "python") == "Parse the cart."


def test_header_text_skips_a_license_block_and_keeps_the_description_c_family():
    text = "/*\n * Copyright 2020 ACME. Licensed under the MIT License.\n */\n\n/**\n * Reads files in chunks.\n */\nclass A {}\n"
    assert header_text(text, "java") == "Reads files in chunks."
    assert header_text("// Package shop computes costs.\n// By weight.\npackage shop\n", "go") == (
        "Package shop computes costs. By weight.")


def test_header_text_of_a_c_header_comes_after_its_guard_pragma_and_includes():
    """spdlog's headers say what they are after `#pragma once` and the includes (and C headers after their guard):
    that was no one's header, so `identical` in dup_filter_sink.h's occurred nowhere. A comment right above code, or
    above a directive, is about that; a `#define` with a value is code, and what follows is not the file's."""
    text = ("// Copyright(c) 2015-present, Gabi Melman.\n// Distributed under the MIT License\n\n#pragma once\n\n"
            "#include <mutex>\n#ifdef _WIN32\n#include <windows.h>\n#endif\n\n// Duplicate message removal sink.\n"
            "// Skips a message identical to the previous one.\n\nnamespace spdlog {\nclass dup_filter_sink {};\n}\n")
    assert header_text(text, "cpp") == "Duplicate message removal sink. Skips a message identical to the previous one."
    guarded = "/* Copyright Petri. MIT license. */\n#ifndef UTF_H\n#define UTF_H\n\n/* UTF-8 checks. */\n\nint utf8_ok();\n"
    assert header_text(guarded, "c") == "UTF-8 checks."
    assert header_text("#include <stdlib.h>\n\n/* C89 allows these to be macros */\n#undef malloc\n", "c") == ""
    assert header_text('#include "x.h"\n/* forward refs */\nvoid print_json(json_t *root);\n', "c") == ""
    assert header_text("#include <x.h>\n#define STATE_OK 0\n\n/* Reads the stream. */\n\nint f();\n", "c") == ""
    assert header_text("#include <x.h>\n\n// Not C: no directive skipped.\n\n", "java") == ""


def test_header_text_of_a_python_module_comes_after_its_imports_when_it_has_no_docstring():
    """urllib3's util/wait.py explains itself in a comment block after its imports and `__all__`: its words ("unixes",
    "prefer") were the file node's body comments, unknown to no_match. A comment right above code is about that."""
    text = ("# Copyright 2020 ACME. Licensed under the MIT License.\nfrom __future__ import annotations\n\nimport select\n"
            "from functools import (\n    partial,\n)\n\n__all__ = [\"wait_for_read\", \"wait_for_write\"]\n\n\n"
            "# How should we wait on sockets?\n# On Unixes, we prefer poll().\n\n\ndef wait_for_read(sock):\n    pass\n")
    assert header_text(text, "python") == "How should we wait on sockets? On Unixes, we prefer poll()."
    assert header_text("import os\n\n# the cache's key\nKEY = 1\n", "python") == ""
    assert header_text('import os\n"""Not a docstring after an import."""\n', "python") == ""


def test_header_text_of_php_comes_after_its_open_tag_and_keeps_a_description_that_names_its_licence():
    text = ("<?php declare(strict_types=1);\n\n/*\n * This file is part of Acme. For the full copyright and license\n"
            " * information, see LICENSE.\n */\n\n/**\n * Keeps rendered pages warm between visits.\n *\n"
            " * @author Jane Roe <jane@example.org>\n * @license MIT\n */\n\nnamespace Acme;\n")
    assert header_text(text, "php") == "Keeps rendered pages warm between visits."
    assert header_text("#!/usr/bin/env php\n<?php\n// Runs the nightly import.\nrequire 'x.php';\n", "php") == (
        "Runs the nightly import.")
def test_header_text_of_a_ruby_file_leaves_out_its_magic_comments():
    text = "# frozen_string_literal: true\n# -*- coding: utf-8 -*-\n\n# Serves the static files.\nmodule Rack\nend\n"
    assert header_text(text, "ruby") == "Serves the static files."
    assert header_text("# frozen_string_literal: true\n\nmodule Rack\nend\n", "ruby") == ""


def test_header_text_hash_and_dash_families():
    assert header_text("# Deploys the site.\n# Twice.\nset -e\n", "bash") == "Deploys the site. Twice."
    assert header_text("-- Monthly totals.\nselect 1;\n", "sql") == "Monthly totals."
    assert header_text("x = 1\n", "python") == ""


def test_message_literals_keep_sentences_and_drop_paths_urls_and_short_words():
    text = ('raise ValueError("the customer has not paid the invoice")\n'
            'open("src/shop/data.json")\nurl = "https://example.com/a b c d"\nkey = "cart"\n'
            "throw new Error(`Too small: expected ${origin} to be bigger`)\n")
    assert message_literals(text, "javascript") == [
        (1, "the customer has not paid the invoice"), (5, "Too small: expected ${origin} to be bigger"),
    ]


def test_message_literals_read_strings_with_escaped_quotes_and_stay_in_step_after_short_strings():
    text = ('raise IOError("can\'t \\"open\\" the spool file")\n'  # Python, Ruby, PHP, C, JS: `\"` in a string
            "throw new \\RuntimeException('It\\'s not a valid log level');\n"  # PHP, Ruby, JS: `\'`
            'fail "first line\\nsecond line of it"\n'  # `\n` separates words
            'f("a", some_helper_name, other_name, "b")\n'  # the code between two short strings is no string
            'x = "a\\\\" + "trailing backslash kept apart"\n')  # `\\` escapes the backslash, not the quote
    assert message_literals(text, "php") == [
        (1, 'can\'t "open" the spool file'), (2, "It's not a valid log level"), (3, "first line second line of it"),
        (5, "trailing backslash kept apart"),
    ]


SPOOL_FILES = {
    "src/Report/Spool.php": ("<?php\nclass Spool\n{\n    public function flush($path)\n    {\n"
                             "        throw new \\RuntimeException('The nightly report\\'s spool can\\'t be opened');\n"
                             "    }\n}\n"),
    **{f"src/Util/{name}.php": f"<?php\n// The {name} helpers.\nfunction {name}_once($v) {{ return $v; }}\n"
       for name in ("parse", "render", "retry", "sort", "log", "copy")},
}


def test_a_message_with_escaped_quotes_is_its_functions_text(make_repo, route):
    repo = make_repo("spool")
    repo.commit(dict(SPOOL_FILES), "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask(route, repo, "why can the nightly report not be opened", "--meaning", "--explain")
    top = doc["rows"][0]
    assert (top["path"], top["name"]) == ("src/Report/Spool.php", "Spool.flush")
    assert top["matched"]["nightly"] == ["message"]


# Json.NET's reader: the limit is a property whose XML doc is the only text that says what it does, past the
# first 64 distinct words of the class's comments (where a property's doc used to land).
READER_FILES = {
    "Src/Json/JsonReader.cs": (
        "namespace Json\n{\n"
        "    /// <summary>Represents a reader that provides fast, non-cached, forward-only access to serialized JSON.</summary>\n"
        "    public abstract class JsonReader\n    {\n"
        + "".join(f"        /// <summary>Gets the {w} token of the current read position in the text.</summary>\n"
                  f"        public object Current{w.title()} {{ get; }}\n"
                  for w in ("quoted", "unquoted", "numeric", "boolean", "closing", "opening", "pending", "escaped",
                            "trailing", "leading", "bracketed", "comment", "whitespace", "literal", "culture"))
        + "        /// <summary>Gets or sets the maximum depth allowed when reading JSON. Reading past this depth\n"
        "        /// will throw a JsonReaderException.</summary>\n"
        "        public int? MaxDepth { get { return _maxDepth; } set { _maxDepth = value; } }\n"
        "        private int? _maxDepth;\n"
        "    }\n}\n"
    ),
    "Src/Json/JsonWriter.cs": (
        "namespace Json\n{\n    /// <summary>Writes JSON text.</summary>\n    public class JsonWriter\n    {\n"
        "        /// <summary>Writes the indent for the current depth.</summary>\n"
        "        protected virtual void WriteIndent() { }\n    }\n}\n"
    ),
}


def test_a_csharp_propertys_doc_is_its_own_text(make_repo, route):
    repo = make_repo("reader")
    repo.commit(dict(READER_FILES), "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask(route, repo, "maximum depth allowed before reading fails", "--meaning", "--explain")
    assert doc["rows"], doc["notes"]  # without the property, the class's capped body words lack the limit
    top = doc["rows"][0]
    assert (top["path"], top["name"]) == ("Src/Json/JsonReader.cs", "JsonReader.MaxDepth")
    assert "doc" in top["matched"]["maximum"]
    named = ask(route, repo, "MaxDepth")
    assert (named["rows"][0]["name"], named["rows"][0]["line"]) == ("JsonReader.MaxDepth", 38)


def test_a_quote_in_a_comment_is_no_string_and_a_comment_marker_in_a_string_is_no_comment():
    ruby = ('# Don\'t add the "json, html, text" types here\n'
            'raise ArgumentError, "unknown #{kind} format given to the parser" # why: old clients\n'
            "path.sub(/^#{root}/, '') # a regex interpolates too\n")
    assert message_literals(ruby, "ruby") == [(2, "unknown #{kind} format given to the parser")]
    assert comments(ruby, "ruby") == [(1, '# Don\'t add the "json, html, text" types here'), (2, "# why: old clients"),
                                      (3, "# a regex interpolates too")]
    js = 'fetch("http://example.com/a b c") // retried once when the server is busy\n'
    assert comments(js, "javascript") == [(1, "// retried once when the server is busy")]


def test_node_fields_split_a_symbol_and_a_file():
    node = Node(3, "src/shop/invoice.py", "invoice_total", "function", 6, 8, "python",
                "def invoice_total(lines, discount):", "Sum the lines.", False, "Billing")
    fields = node_fields(node, ["not paid"], "")
    assert fields["name"] == "invoice_total" and fields["owner"] == "Billing"
    assert fields["signature"] == "(lines, discount):"
    assert fields["doc"] == "Sum the lines." and fields["message"] == "not paid"
    file_node = Node(0, "src/shop/invoice.py", "invoice.py", "file", 1, 1, "python", "", "", False)
    assert node_fields(file_node, [], "Invoices.") == {
        "path": "src/shop/invoice python", "header": "Invoices.", "message": ""}


def test_path_text_name_the_language_and_a_locale_files_language():
    assert path_text("www/FileReader.js", "javascript") == "www/FileReader javascript js"
    assert path_text("src/v4/locales/de.ts", "typescript") == "src/v4/locales/de typescript ts german"
    assert path_text("django/conf/locale/pt_BR/formats.py", "python") == (
        "django/conf/locale/pt_BR/formats python portuguese")
    assert path_text("src/de/parser.py", "python") == "src/de/parser python"  # `de` outside a locale folder
    assert path_text("Makefile", "") == "Makefile"


def test_question_words_drop_stop_and_frame_words_and_stem():
    assert question_words("where is the code that handles late payments?") == ["late", "payment"]
    assert question_words("how are parameters parsed") == ["param", "pars"]
    # prepositions, pronouns and adverbs a question leans on name nothing in the code
    assert question_words("where is a folder removed together with everything inside it on the device") == [
        "folder", "remov", "devic"]


def test_alternatives_come_from_the_curated_list_and_skip_words_the_question_has():
    assert meaning.alternatives(question_words("where is a folder removed")) == {
        "dir": "folder", "delet": "remov", "unlink": "remov"}
    assert meaning.alternatives(question_words("where are the error messages in german")) == {"de": "german"}
    assert "folder" not in meaning.alternatives(question_words("copy a directory into a folder"))
    assert meaning.alternatives(question_words("greenhouse irrigation")) == {}
    # golang-lru: "… drops the least recently used item … and then notifies a user-supplied hook" is `onEvict`'s
    # EvictCallback; gorilla/schema's "fallback values" are its `default` tag option
    found = meaning.alternatives(question_words("where does it drop an item and call the user's hook"))
    assert {"evict", "callback"} <= found.keys() and found["callback"] == "hook"
    assert meaning.alternatives(question_words("fallback values")) == {"default": "fallback"}
    # "turns a raw count of seconds into a readable string", "turns the text into a Version": a conversion
    assert {"convert", "pars"} <= meaning.alternatives(question_words("where does it turn text into a version")).keys()
    # csv-parse: "guesses the field separator of an unknown file" is delimiter_discover.js
    assert {"delimiter", "discover"} <= meaning.alternatives(question_words("where does it guess the separator")).keys()
    # argon2: "which source file produces the Benchmarks section's measurements" is src/bench.c
    assert {"bench", "perf"} <= meaning.alternatives(question_words("where are the benchmarks run")).keys()


def test_an_alternative_stands_in_for_a_missing_word_at_a_share_of_its_bm25():
    section = {"documents": 10, "avgdl": 5.0}
    tf_len = meaning.encode_posting(2, 5, 1)
    # node 1 (in file 0) holds `dir` only; node 3 (in file 2) holds both `folder` and `dir`
    postings = {"dir": [(1, tf_len), (3, tf_len)], "folder": [(3, tf_len)]}
    ranked, per_file, matched, evidence = meaning.rank_files(
        ["folder"], postings, section, files=[0, 2], alternates={"dir": "folder"})
    idf_dir, idf_folder = bm25_idf(2, 10), bm25_idf(1, 10)
    by_node = {node: score for scored in per_file.values() for score, node in scored}
    assert by_node[1] == pytest.approx(meaning.EXPANDED * bm25_term(2, 5, 5.0, idf_dir))
    assert by_node[3] == pytest.approx(bm25_term(2, 5, 5.0, idf_folder))  # the word itself: no double count
    assert evidence.missing == [] and evidence.weights == {"folder": pytest.approx(idf_folder)}
    assert ranked[0][1] == 2 and evidence.coverage == pytest.approx(1.0)
    # the word absent everywhere: the alternative covers it, at the alternative's idf
    _, _, _, alone = meaning.rank_files(["folder"], {"dir": [(1, tf_len)]}, section, files=[0],
                                        alternates={"dir": "folder"})
    assert alone.missing == [] and alone.coverage == pytest.approx(1.0)
    assert alone.weights["folder"] == pytest.approx(bm25_idf(1, 10))


def _table(tmp_path, monkeypatch, text: str) -> None:
    table = tmp_path / "neighbours.tsv"
    table.write_text(text)
    monkeypatch.setattr(meaning.vocabulary, "NEIGHBOURS_FILE", table)
    monkeypatch.setattr(meaning.vocabulary, "_neighbours_text", [])


def test_the_shipped_neighbours_table_reads_closest_first():
    found = meaning.neighbours("ended")
    assert found[0] == ("end", pytest.approx(0.68, abs=0.01))
    assert [c for _, c in found] == sorted((c for _, c in found), reverse=True)
    assert all(c >= 0.5 and other != "ended" for other, c in found)
    assert ("illegal", pytest.approx(0.8, abs=0.1)) not in meaning.neighbours("legal")  # no negations
    assert meaning.neighbours("zzzqx") == [] and meaning.neighbours("") == []
    # Keyed by the index's stems: a stemmer change that leaves these words unfound needs bench/neighbours.py again.
    words = ("permitted", "downloaded", "mistakes", "decided", "answering", "bicycles", "safely", "queries")
    assert [w for w in words if not meaning.neighbours(meaning.word_stem(w))] == []


def test_the_table_script_drops_a_word_and_its_negation():
    from tests.conftest import load_script

    script = load_script("bench/neighbours.py")
    assert script.negates("legal", "illegally") and script.negates("unsaf", "safe")
    assert script.negates("dislik", "like")
    assert not script.negates("end", "finish") and not script.negates("index", "order")


def test_neighbours_stand_in_by_closeness_and_never_for_words_already_asked(tmp_path, monkeypatch):
    _table(tmp_path, monkeypatch, "# header\nendd\tend:0.68 finish:0.75 stop:0.5\nfold\tdir:0.9\n")
    near, shares = meaning.neighbour_alternatives(["endd", "fold"], ["endd", "fold", "stop"], {"dir": "folder"})
    assert near == {"end": "endd", "finish": "endd"}  # `stop` is asked, `dir` already stands for a word
    assert shares == {"end": 0.0, "finish": meaning.NEIGHBOUR_SHARE}
    _table(tmp_path, monkeypatch, "")
    assert meaning.neighbour_alternatives(["endd"], ["endd"], {}) == ({}, {})
    monkeypatch.setattr(meaning.vocabulary, "NEIGHBOURS_FILE", tmp_path / "absent.tsv")
    monkeypatch.setattr(meaning.vocabulary, "_neighbours_text", [])
    assert meaning.neighbours("endd") == []  # an install without the table answers as before


def test_a_far_neighbour_only_ranks_and_a_near_one_covers_its_share():
    section = {"documents": 10, "avgdl": 5.0}
    tf_len = meaning.encode_posting(1, 5, 1)
    postings = {"install": [(1, tf_len)], "package": [(1, tf_len), (3, tf_len)]}
    tokens = ["download", "package"]
    far = meaning.rank_files(tokens, postings, section, files=[0, 2], alternates={"install": "download"},
                             shares={"install": 0.0})
    ranked, per_file, _, evidence = far
    assert ranked[0][1] == 0  # the node holding the neighbour ranks first
    by_node = {node: score for scored in per_file.values() for score, node in scored}
    assert by_node[1] - by_node[3] == pytest.approx(meaning.EXPANDED * bm25_term(1, 5, 5.0, bm25_idf(1, 10)))
    assert evidence.missing == ["download"]  # but it is no evidence that the repository holds the word
    package = evidence.weights["package"]
    assert evidence.coverage == pytest.approx(package / sum(evidence.weights.values()))
    near = meaning.rank_files(tokens, postings, section, files=[0, 2], alternates={"install": "download"},
                              shares={"install": meaning.NEIGHBOUR_SHARE})[3]
    assert near.missing == [] and near.weights["download"] == pytest.approx(bm25_idf(1, 10))
    total = sum(near.weights.values())
    assert near.coverage == pytest.approx((package + meaning.NEIGHBOUR_SHARE * near.weights["download"]) / total)


# --- BM25 --------------------------------------------------------------------------------------


def test_bm25_against_a_hand_computed_example():
    # idf = ln(1 + (10 - 1 + 0.5) / (1 + 0.5)) = ln(7.3333...) = 1.992430
    idf = bm25_idf(1, 10)
    assert idf == pytest.approx(math.log(1 + 9.5 / 1.5))
    assert idf == pytest.approx(1.992430, abs=1e-6)
    # tf 2 in a document twice the average length: 2 * 2.2 / (2 + 1.2 * (0.25 + 0.75 * 2)) = 4.4 / 4.1
    assert bm25_term(2, 10, 5.0, idf) == pytest.approx(1.992430 * 4.4 / 4.1, abs=1e-6)
    assert bm25_term(0, 10, 5.0, idf) == 0.0
    # Length normalisation off (b = 0): only term frequency saturation remains.
    assert bm25_term(1, 100, 5.0, 1.0, b=0.0) == pytest.approx(2.2 / 2.2)
    assert bm25_idf(10, 10) > 0  # never negative, even for a word in every document


# --- building and asking a real bundle ----------------------------------------------------------


def test_meaning_routes_a_plain_question_to_the_file_that_answers_it(shop_repo, route):
    doc = ask(route, shop_repo, "where is the price of a parcel worked out from its weight", "--meaning")
    assert doc["status"] == "routed"
    assert doc["rows"][0]["path"] == "src/shop/ship.go"


def test_a_camel_cased_language_name_is_the_word_the_repository_holds(shop_repo, route):
    # js-yaml: "… shifts them into a UTC JavaScript date" was no_match, 'JavaScript' an absent term: a file's language
    # is the word "javascript", which no node holds as "java" and "script"
    for question, path in (("where is the JavaScript shopping cart kept in the browser", "src/shop/cart.js"),
                           ("which TypeScript function lists products on sale", "src/shop/catalog.ts")):
        doc = ask(route, shop_repo, question, "--meaning")
        assert doc["status"] == "routed", doc
        assert doc["rows"][0]["path"] == path
    # a camel-cased name the repository lacks is still absent
    doc = ask(route, shop_repo, "where is the GraphQL shopping cart kept in the browser", "--meaning")
    assert doc["status"] == "no_match" and "GraphQL" in doc["notes"][0]


def test_a_camel_cased_word_whose_humps_the_repository_holds_keeps_its_humps(make_repo, route):
    # ws: "the WebSocket server" holds "web", "socket" and, as one word, "websocket" (crashed: the one word was read
    # but was no question word)
    repo = make_repo("humps")
    repo.commit({"src/server.js": "/** The web socket server: accepts the upgrade. */\nexport function upgrade() {}\n",
                 "src/websocket.js": "/** A websocket client. */\nexport function websocket() {}\n",
                 **{f"src/{name}.js": f"/** The {name} of an order. */\nexport function {name}() {{}}\n"
                    for name in ("price", "discount", "invoice", "receipt", "refund")}}, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask(route, repo, "where does the WebSocket server accept the upgrade", "--meaning")
    assert doc["status"] == "routed" and doc["rows"][0]["path"] == "src/server.js"


def test_a_camel_cased_word_held_as_one_whose_humps_only_comments_hold_answers(make_repo, route):
    # libjwt: "GnuTLS" is `gnutls` in its names and "gnu", "tls" only in comments (crashed: the humps' comment
    # postings were read and no question word weighed them)
    repo = make_repo("comment-humps")
    repo.commit({"src/sign.c": "int gnutls_sign(void) {\n    /* over the gnu tls library */\n    return 0;\n}\n",
                 **{f"src/{name}.c": f"/* the {name} of a token */\nint {name}_token(void) {{ return 0; }}\n"
                    for name in ("claim", "header", "expiry", "issuer", "audience")}}, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask(route, repo, "which function signs tokens with GnuTLS", "--meaning")
    assert doc["status"] == "routed" and doc["rows"][0]["path"] == "src/sign.c", doc


def _among_others(make_repo, route, name: str, files: dict[str, str], noun: str, others: tuple[str, ...]):
    """A built repository of `files` beside one-line files about the `others` parts of a `noun`."""
    repo = make_repo(name)
    repo.commit({**files, **{f"src/{other}.js": f"/** The {other} of a {noun}. */\nfunction {other}() {{}}\n"
                             for other in others}}, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    return repo


def test_a_term_only_a_comment_inside_a_function_writes_is_no_term_the_repository_lacks(make_repo, route):
    # iconv-lite, csv-parse, express-session: "… look like plain ASCII", "a UTF-8 byte order mark", "over HTTPS" were
    # no_match, the term "named by nothing", where a comment inside the function that answers writes it
    repo = _among_others(make_repo, route, "body-terms", {
        "src/secure.js": "/** Decide whether the request is secure. */\nfunction isSecure(req) {\n"
                         "  // the socket is an HTTPS server, or a proxy says so\n  return req.encrypted\n}\n"},
        "request", ("cookie", "header", "session", "store", "path"))
    doc = ask(route, repo, "where does it decide whether a request is secure, over HTTPS", "--meaning")
    assert doc["status"] == "routed" and doc["rows"][0]["path"] == "src/secure.js", doc
    # a term that nothing writes, in a name, a comment or a document, is still absent
    doc = ask(route, repo, "where does it decide whether a request is secure, over QUIC", "--meaning")
    assert doc["status"] == "no_match" and "QUIC" in doc["notes"][0], doc


def test_a_phrasal_verbs_particle_no_node_holds_is_no_missing_word(make_repo, route):
    # go-cache: "writes all cached entries out to a file … and later reads them back" was no_match: out, later and
    # back counted as words the best file lacks, as much as any word the repository does not hold
    repo = _among_others(make_repo, route, "particles", {
        "src/save.js": "/** Save every cached item to a file, and load them again. */\nfunction saveItems(items, file) {}\n"},
        "order", ("price", "discount", "invoice", "receipt", "refund"))
    doc = ask(route, repo, "cached items written out to a file and later read back", "--meaning")
    assert doc["status"] == "routed" and doc["rows"][0]["path"] == "src/save.js", doc
    # the words that name something still count: a question of other things is still refused
    doc = ask(route, repo, "cached items encrypted, compressed and uploaded to a bucket later on", "--meaning")
    assert doc["status"] == "no_match", doc


def test_generic_words_leave_coverage_only_beside_a_word_that_names_something():
    from gitroute.indexes.meaning.vocabulary import generic_absent

    assert generic_absent(["cach", "item", "write", "out", "later"], ["write", "out", "later"]) == {"out", "later"}
    assert generic_absent(["out", "back"], ["out", "back"]) == set()  # nothing else asked: they stay the question
    assert generic_absent(["once", "list"], ["once"]) == set()  # "once" is no particle: listed once is a topic


def test_numbers_the_repository_lacks_are_an_examples_values_not_words_to_find(shop_repo, route):
    # "an offset like +05:30": before, each number no node holds counted against the best file's coverage
    doc = ask(route, shop_repo, "where is the price of a parcel of 12 kilograms worked out, like 24 for 12", "--meaning")
    assert doc["status"] == "routed", doc
    assert doc["rows"][0]["path"] == "src/shop/ship.go"
    # a question of numbers only is still asked by them
    doc = ask(route, shop_repo, "where is 4711 handled", "--meaning")
    assert doc["status"] == "no_match"


def test_i_am_looking_for_is_a_request_not_a_word_of_the_answer():
    assert without_request("I'm looking for the logic that blocks until a socket is readable") == (
        "the logic that blocks until a socket is readable")
    assert without_request("We need to find where the cache is cleared") == "where the cache is cleared"
    assert without_request("I\u2019m searching for the place that retries") == "the place that retries"


def test_built_copies_are_not_indexed(shop_repo, route):
    doc = ask(route, shop_repo, "which products are on sale in a category", "--meaning")
    assert [r["path"] for r in doc["rows"]][0] == "src/shop/catalog.ts"
    assert "dist/shop/catalog.js" not in [r["path"] for r in doc["rows"]]


def test_explain_names_the_fields_each_word_matched(shop_repo, route):
    doc = ask(route, shop_repo, "where is the reminder sent when the customer has not paid", "--meaning", "--explain")
    row = doc["rows"][0]
    assert row["path"] == "src/shop/invoice.py"
    fields = row["matched"]
    assert "message" in fields["customer"] and "message" in fields["pay"]  # the ValueError's text
    assert "header" in fields["reminder"]  # the module docstring
    assert sum(row["signals"].values()) == pytest.approx(row["score"], abs=0.01)


HOST_FILES = {
    "src/net/hosts.py": ('"""Which hosts a server answers."""\n\n\n'
                         "def allowed_hosts(settings):\n    return settings\n"),
    **{f"src/util/{name}.py": f'"""The {name} helpers."""\n\n\ndef {name}_once(value):\n    return value\n'
       for name in ("parse", "render", "retry", "cache", "log", "sort")},
}


def test_a_word_the_repository_lacks_is_read_as_its_nearest_words(make_repo, route, monkeypatch, tmp_path):
    repo = make_repo("hosts")
    repo.commit(dict(HOST_FILES), "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask(route, repo, "which hosts are permitted", "--meaning")
    assert doc["status"] == "routed" and doc["rows"][0]["path"] == "src/net/hosts.py"
    assert "words the repository lacks, read as their nearest: permitted as allow" in doc["notes"]
    _table(tmp_path, monkeypatch, "")  # without the table: the same bundle, the word only missing
    with BundleView(str(repo.path)) as bundle:
        view = bundle.index("meaning")
        _, notes, evidence = query_meaning("which hosts are permitted", view.section, view.read, limit=5,
                                           explain=False, corrupt=corrupt_blob, records=view.graph.records)
    assert evidence is not None and evidence.missing == ["permit"]
    assert not any(note.startswith("words the repository lacks") for note in notes)


PAY_FILES = {
    "src/pay/a.py": '"""Money amounts."""\n\n\ndef settle_fee(amount):\n    return amount\n',
    "src/pay/b.py": ('"""Money amounts."""\n\n\ndef settle_total(amount):\n'
                            "    # round half up to the nearest cent before the ledger sees it\n    return amount\n"),
    **{f"src/util/{name}.py": f'"""The {name} helpers."""\n\n\ndef {name}_once(value):\n    return value\n'
       for name in ("parse", "render", "retry", "cache", "log", "sort")},  # so that the pay words are rare
}


def test_comments_by_family_with_their_lines():
    assert comments("x = 1  # one\n# two\ns = '#'\n", "python") == [(1, "# one"), (2, "# two")]
    assert comments("a();\n/* block\n spans */ b(); // line\n", "go") == [
        (2, "/* block\n spans */"), (3, "// line")]
    assert comments("select 1; -- all\n", "sql") == [(1, "-- all")]
    assert comments("a();\n/* never closed\n/* b */\n", "c") == [(2, "/* never closed\n/* b */")]
    assert comments("a();\n/* never closed\nb /* c\n", "c") == [(2, "/* never closed\nb /* c\n")]


TABLE_FILES = {
    "include/table.h": (
        "/* Initialize a table with room for a few keys. */\n"
        "int table_init(table_t *t) TABLE_ATTRS((warn_unused_result));\n\n"
        "/* Called with each key while the table is walked. */\n"
        "typedef int (*visit_fn)(const char *key, void *data);\n\n"
        "enum table_error {\n    /* the same key was added twice */\n    table_error_duplicate_key,\n};\n"
    ),
    "src/table.c": '#include "table.h"\n\nint table_init(table_t *t) { return 0; }\n',
}


def test_c_header_names_and_their_comments_are_node_text(make_repo, route):
    """A C header's attributed prototype, callback typedef and enum member are nodes: found by name, and a
    member's comment answers a question in words."""
    repo = make_repo("table")
    repo.commit(dict(TABLE_FILES), "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    for name, shown, kind in (("visit_fn", "visit_fn", "interface"),
                              ("table_error_duplicate_key", "table_error.table_error_duplicate_key", "constant")):
        top = ask(route, repo, name)["rows"][0]
        assert (top["path"], top["name"], top["kind"]) == ("include/table.h", shown, kind)
    names = {(r["path"], r["name"]) for r in ask(route, repo, "table_init")["rows"]}
    assert {("include/table.h", "table_init"), ("src/table.c", "table_init")} <= names
    rows, _, _ = _pay_query(repo, "which key was added twice", explain=True)
    assert (rows[0].path, rows[0].name) == ("include/table.h", "table_error")  # a member's text joins its enum's
    assert dict(rows[0].extra)["matched"]["twic"] == ["doc"]
CPP_HEADER_FILES = {
    "include/spdlog/sinks/dup_filter_sink.h": (
        "// Copyright(c) 2015-present, Gabi Melman & spdlog contributors.\n"
        "// Distributed under the MIT License (http://opensource.org/licenses/MIT)\n\n#pragma once\n\n"
        '#include "dist_sink.h"\n#include <chrono>\n\n// Duplicate message removal sink.\n'
        "// Skip the message if previous one is identical and less than max_skip_duration have passed.\n\n"
        "namespace spdlog {\nnamespace sinks {\ntemplate<typename Mutex>\nclass dup_filter_sink : public dist_sink<Mutex>\n"
        "{\nprotected:\n    void sink_it_(const details::log_msg &msg) override {}\n};\n}\n}\n"
    ),
    **{f"include/spdlog/sinks/{name}_sink.h": (
        f"#pragma once\n\nnamespace spdlog {{\n// The {name} sink.\nclass {name}_sink {{}};\n}}\n")
       for name in ("null", "ostream", "tcp", "udp", "syslog", "msvc")},
}


def test_a_cpp_headers_description_after_its_includes_routes_a_question(make_repo, route):
    """The words of a header's description past `#pragma once` and its includes are its header field: a question
    in them finds the file, where before they were no node's words and the question was no_match."""
    repo = make_repo("spdlog")
    repo.commit(dict(CPP_HEADER_FILES), "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask(route, repo, "output that drops a message identical to the previous one", "--meaning", "--explain")
    assert doc["status"] != "no_match"
    top = doc["rows"][0]
    assert top["path"] == "include/spdlog/sinks/dup_filter_sink.h" and "header" in top["matched"]["identical"]


def test_php_comments_lose_their_analyser_and_author_tags():
    text = ("<?php\n/**\n * Sends the digest.\n * @author Jane Roe\n * @phpstan-import-type Visit from Cache\n */\n"
            "class A {\n    // why: the queue is slow\n}\n")
    assert [(line, " ".join(t.split())) for line, t in comments(text, "php")] == [
        (2, "/** * Sends the digest. */"), (8, "// why: the queue is slow")]


PHP_FILES = {
    "src/Cache/PageCache.php": (
        "<?php declare(strict_types=1);\n\n/*\n * This file is part of Acme. For the full copyright and license\n"
        " * information, see LICENSE.\n */\n\n/**\n * Keeps rendered pages warm between visits.\n */\n\n"
        "namespace Acme\\Cache;\n\nfinal class PageCache\n{\n    public function get(string $key) {}\n}\n"
    ),
    "src/Mail/Sender.php": (
        "<?php\nnamespace Acme\\Mail;\n\n/**\n * Sends the nightly digest to subscribers.\n *\n"
        " * @author Page Turner <page@example.org>\n * @phpstan-import-type Visit from \\Acme\\Cache\\PageCache\n */\n"
        "class Sender\n{\n    /** {@inheritDoc} */\n    public function send() {}\n}\n"
    ),
}


def test_php_hash_comments_are_comments_and_its_attributes_and_strings_are_not():
    text = ("<?php\n# Keeps rendered pages warm.\n# Between visits.\n\nnamespace Acme;\n\n#[Pure]\nclass A {\n"
            "    function f() {\n        # why: the queue is slow\n        $c = '#ccc'; # colour\n"
            "        $m = preg_match('#^a b#', $s); // slash\n    }\n}\n")
    assert header_text(text, "php") == "Keeps rendered pages warm. Between visits."
    assert header_text("<?php\n#[Attribute]\nclass Pure {}\n", "php") == ""
    assert comments(text, "php") == [(2, "# Keeps rendered pages warm."), (3, "# Between visits."),
                                     (10, "# why: the queue is slow"), (11, "# colour"), (12, "// slash")]


PHP_HASH_FILES = {
    "src/Cache/PageCache.php": (
        "<?php\n# Keeps rendered pages warm between visits.\n\nnamespace Acme\\Cache;\n\n"
        "final class PageCache\n{\n    public function get(string $key)\n    {\n"
        "        # the stale copy is served while the fresh one renders\n        return $key;\n    }\n}\n"
    ),
    **{f"src/Util/{name}.php": f"<?php\n// The {name} helpers.\nfunction {name}_once($v) {{ return $v; }}\n"
       for name in ("parse", "render", "retry", "sort", "log", "copy")},  # so that the cache words are rare
}


def test_a_php_files_hash_comments_are_its_header_and_body_words(make_repo, route):
    repo = make_repo("acme")
    repo.commit(dict(PHP_HASH_FILES), "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask(route, repo, "where are pages kept warm between visits", "--meaning", "--explain")
    assert doc["rows"][0]["path"] == "src/Cache/PageCache.php" and "header" in doc["rows"][0]["matched"]["warm"]
    doc = ask(route, repo, "page cache serving a stale copy", "--meaning", "--explain")
    assert doc["rows"][0]["path"] == "src/Cache/PageCache.php" and doc["rows"][0]["matched"]["stal"] == ["body"]


def test_a_php_files_header_routes_and_its_docblock_tags_do_not(make_repo, route):
    """The header after `<?php` is the file's text; a docblock's `@author` and `@phpstan-*` words are no one's."""
    repo = make_repo("acme")
    repo.commit(dict(PHP_FILES), "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask(route, repo, "where are rendered pages kept warm between visits", "--meaning", "--explain")
    assert [r["path"] for r in doc["rows"]] == ["src/Cache/PageCache.php"]
    assert "header" in doc["rows"][0]["matched"]["warm"]
    doc = ask(route, repo, "who sends the nightly digest to subscribers", "--meaning", "--explain")
    assert doc["rows"][0]["path"] == "src/Mail/Sender.php"
    assert "doc" in doc["rows"][0]["matched"]["digest"]
    assert ask(route, repo, "which page turner imported the visit", "--meaning")["status"] == "no_match"


def _pay_query(repo, text: str, *, explain: bool = False):
    with BundleView(str(repo.path)) as bundle:
        view = bundle.index("meaning")
        return query_meaning(text, view.section, view.read, limit=5, explain=explain, corrupt=corrupt_blob,
                             records=view.graph.records)


@pytest.mark.parametrize("asked, meant", [
    ("which function settles a money amount", "which settles a money amount"),
    ("where is the code that settles a money amount", "where is the that settles a money amount"),
    ("explain how a money amount is settled", "how a money amount is settled"),
])
def test_the_meaning_index_takes_the_request_words_out_as_query_does(make_repo, route, asked, meant):
    # Its own answers (the bench's meaning and negative questions) read a question as `query` gives it to the index:
    # "function" and "code" name what is asked for, in the docstrings of the helpers too.
    repo = make_repo("pay")
    repo.commit({**PAY_FILES, "src/util/code.py": '"""The function that turns code into a code point."""\n'}, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    rows, notes, _ = _pay_query(repo, asked, explain=True)
    assert rows and (rows, notes) == _pay_query(repo, meant, explain=True)[:2]


def test_a_comment_inside_a_body_ranks_its_file_first_among_equals(make_repo, route, monkeypatch):
    repo = make_repo("pay")
    repo.commit(dict(PAY_FILES), "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    text = "money amount settled and rounded"
    monkeypatch.setattr(meaning, "BODY_WEIGHT", 0.0)  # the same bundle, its body postings not asked
    rows, _, _ = _pay_query(repo, text)
    assert [r.path for r in rows] == ["src/pay/a.py", "src/pay/b.py"]  # a tie: the first path
    monkeypatch.undo()
    rows, _, _ = _pay_query(repo, text, explain=True)
    assert [r.path for r in rows] == ["src/pay/b.py", "src/pay/a.py"]
    assert dict(rows[0].extra)["matched"]["round"] == ["body"]


def test_words_held_only_in_comments_stay_unknown_to_the_no_match_rule(make_repo, route):
    repo = make_repo("pay")
    repo.commit(dict(PAY_FILES), "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    rows, notes, evidence = _pay_query(repo, "where is the nearest cent of the ledger")
    assert rows == [] and evidence is not None and evidence.missing == ["nearest", "cent", "ledger"]
    assert notes[0].startswith("no word of the question occurs in the code")


def test_a_ruby_class_doc_above_a_blank_line_routes_a_question_in_its_words(make_repo, route):
    # Rack's style: the class comment, a blank line, then the class (YARD still attaches it).
    repo = make_repo("rackish")
    repo.commit({
        "lib/app/pool.rb": (
            "# frozen_string_literal: true\n\nmodule App\n  # Keeps each visitor's data in the server's memory.\n\n"
            "  class Pool\n    def find(id)\n    end\n  end\nend\n"
        ),
        "lib/app/files.rb": "# frozen_string_literal: true\n\nmodule App\n  class Files\n    def serve(path)\n    end\n  end\nend\n",
    }, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    answer = ask(route, repo, "where is each visitor's data kept in memory", "--meaning", "--explain")
    assert answer["status"] == "routed"
    top = answer["rows"][0]
    assert (top["path"], top["name"]) == ("lib/app/pool.rb", "App.Pool")
    assert "doc" in top["matched"]["visitor"] and "doc" in top["matched"]["memory"]


# --- anchor text: what the documents say where they name a node ------------------------------

CLOCK_FILES = {
    "src/clock/__init__.py": "",
    "src/clock/humanize.py": "def humanize_delta(seconds):\n    return str(seconds)\n",
    "src/clock/image.py": "def shrink_image(path, size):\n    return path\n",
    "src/clock/other.py": "def parse_delta(text):\n    return 0\n",
}
CLOCK_DOCS = {
    "docs/ref.rst": (
        "Reference\n=========\n\n.. module:: clock.humanize\n\n.. function:: humanize_delta(seconds)\n\n"
        "   Formats a duration as friendly words, such as three days ago.\n"
    ),
    "README.md": "# Clock\n\nPictures get smaller: `shrink_image` makes thumbnails. Invoices are paid monthly.\n",
}


@pytest.mark.parametrize("with_docs", [True, False])
def test_the_description_a_document_gives_a_function_routes_a_question_in_its_words(make_repo, route, with_docs):
    repo = make_repo("clock")
    repo.commit({**CLOCK_FILES, **(CLOCK_DOCS if with_docs else {"README.md": "# Clock\n"})}, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    result = ask(route, repo, "where are durations written as friendly words", "--meaning", "--explain")
    if with_docs:
        assert result["rows"][0]["path"] == "src/clock/humanize.py"
        assert result["rows"][0]["matched"]["friendly"] == ["anchor"]
    else:
        assert result["status"] == "no_match"


def test_an_inline_name_lends_its_own_sentence_only(make_repo, route):
    repo = make_repo("clock")
    repo.commit({**CLOCK_FILES, **CLOCK_DOCS}, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    assert ask(route, repo, "where are thumbnails made", "--meaning")["rows"][0]["path"] == "src/clock/image.py"
    # "Invoices are paid monthly." is the next sentence of the same paragraph: not about `shrink_image`
    assert ask(route, repo, "where are invoices paid monthly", "--meaning")["status"] == "no_match"


def test_a_name_mentioned_without_markup_lends_no_anchor_text(make_repo, route):
    # doc_links links `shrink_image` written bare (a mention, 0020), but the page may only use it in passing
    repo = make_repo("clock")
    bare = "# Clock\n\nPictures get smaller: shrink_image makes thumbnails.\n"
    repo.commit({**CLOCK_FILES, "README.md": bare}, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    code = json.loads(route(["code", "--json", "README.md"], repo.path).stdout)
    assert [row["path"] for row in code["rows"]] == ["src/clock/image.py"]  # linked
    assert ask(route, repo, "where are thumbnails made", "--meaning")["status"] == "no_match"  # no anchor text


def test_a_question_reads_only_the_shards_of_its_own_words(shop_repo, route, monkeypatch):
    monkeypatch.setattr(meaning.POSTINGS, "per_shard", 4)  # many shards from a small repository
    rebuilt = route(["build", "-q"], shop_repo.path)
    assert rebuilt.exit_code == 0, rebuilt.stderr
    with BundleView(str(shop_repo.path)) as bundle:
        view = bundle.index("meaning")
        section = view.section
        assert section["postings_shards"] >= 8
        asked: list[str] = []

        def read(paths):
            asked.extend(paths)
            return view.read(paths)

        rows, _, _ = query_meaning("shipping weight", section, read, limit=5, explain=False, corrupt=corrupt_blob,
                                   records=view.graph.records)
    assert rows and rows[0].path == "src/shop/ship.go"
    shards = {p for p in asked if p.startswith("postings/")}
    joined = [meaning.word_stem(w) for w in spelled_apart("shipping weight")]  # a node may hold either as one word
    assert joined == ["shippingweight", "shipweight"]
    wanted = {meaning.POSTINGS.key_path(key, section["postings_shards"])
              for t in question_words("shipping weight") for key in (t, meaning.BODY_PREFIX + t)}
    wanted |= {meaning.POSTINGS.key_path(key, section["postings_shards"]) for key in joined}
    assert shards == wanted
    assert all(p.startswith("postings/") or p in (meaning.FILES, meaning.LENGTHS) for p in asked)


SHOP_QUESTIONS = ("shipping weight", "where is the reminder sent when the customer has not paid",
                  "sum the invoice lines with tax", "add an item to the shopping cart", "remove a folder",
                  "products listed by category in the browser")


def test_warm_postings_hold_each_words_bm25_terms_and_rank_as_the_cold_read(shop_repo, route, monkeypatch):
    monkeypatch.setattr(meaning.POSTINGS, "per_shard", 4)  # many shards: warm reads them all, cold a few
    rebuilt = route(["build", "-q"], shop_repo.path)
    assert rebuilt.exit_code == 0, rebuilt.stderr
    with BundleView(str(shop_repo.path)) as bundle:
        view = bundle.index("meaning")
        section = view.section
        meaning.warm(view)
        memo = view.memo
        files = memo["files"]
        # Each prepared posting is `bm25_term` of the stored posting and its node's length at the word's idf, in its
        # file; a body word's over bodies alone (their own count and mean length), at BODY_WEIGHT.
        assert any(token.startswith(meaning.BODY_PREFIX) for token in memo["postings"])
        for (token, expanded), (nodes, terms, bits, owners) in memo["prepared"].items():
            values = memo["postings"][token]
            body = token.startswith(meaning.BODY_PREFIX)
            n, avgdl = (section["body_documents"], section["body_avgdl"]) if body else (
                section["documents"], section["avgdl"])
            assert not expanded and len(nodes) == len(values)
            for at, (node, packed) in enumerate(values):
                tf, stored_length, fields = meaning.decode_posting(packed)
                # a node's length is its file table's, kept once a node; a posting stores none but a body word's
                k = max(k for k, f in enumerate(files) if f <= node)
                dl = stored_length if body else files.lengths[files.slot(k, node)]
                assert (stored_length > 0) == body and dl > 0
                assert (nodes[at], bits[at]) == (node, fields)
                idf = bm25_idf(len(values), n) * (meaning.BODY_WEIGHT if body else 1.0)
                assert terms[at] == bm25_term(tf, dl, avgdl, idf)
                assert owners[at] == max(f for f in files if f <= node)
        for text in SHOP_QUESTIONS:
            cold = query_meaning(text, section, view.read, limit=5, explain=True, corrupt=corrupt_blob,
                                 records=view.graph.records)
            warm = query_meaning(text, section, view.read, limit=5, explain=True, corrupt=corrupt_blob,
                                 records=view.graph.records, memo=memo)
            assert warm[:2] == cold[:2], text
            if cold[2] is not None:
                assert (warm[2].coverage, warm[2].node_coverage, warm[2].missing) == (
                    cold[2].coverage, cold[2].node_coverage, cold[2].missing)
            tokens = question_words(text)
            postings = meaning.read_postings(tokens, section, view.read, corrupt_blob)
            _, per_file, matched, _ = meaning.rank_files(tokens, postings, section, files)
            for scored in per_file.values():  # matched, filled on use, holds each node's words and fields
                for _, node in scored:
                    assert matched[node] == {t: meaning.decode_posting(packed)[2]
                                             for t in postings for held, packed in postings[t] if held == node}


def test_postings_out_of_order_are_a_damaged_bundle():
    section = {"documents": 10, "avgdl": 5.0}
    tf_len = meaning.encode_posting(2, 5, 1)
    with pytest.raises(ValueError):
        meaning.rank_files(["folder"], {"folder": [(3, tf_len), (1, tf_len)]}, section, files=[0])


def test_a_bundle_without_a_meaning_index_says_so(shop_repo, route):
    # The symbol tiers still answer a plain query; --meaning explains what is missing.
    shop_repo.git("update-ref", "-d", "refs/marola/routing-bundle")
    result = route(["query", "--meaning", "x"], shop_repo.path)
    assert result.exit_code == 128 and "no routing bundle" in result.stderr


# --- the prose/name decision ----------------------------------------------------------------------


@pytest.mark.parametrize(("text", "cover", "share"), [
    ("OpenMeteoClient", 0.0, 0.0),  # one identifier: a name lookup
    ("open meteo client", 0.0, 0.0),  # a name written in words
    ("where is the session cookie signed", 0.0, 1.0),  # a sentence no name holds: prose
    ("where is the session cookie signed", 2 / 3, 0.333),  # `session_cookie` holds two of its three words
    ("where is url_for defined", 0.0, 0.5),  # a sentence around an identifier
    ("where is OpenMeteoClient.forecast", 0.0, 0.0),  # nothing but the identifier
])
def test_prose_share_by_the_shape_of_the_question_and_the_best_name(text, cover, share):
    assert prose_share(text, cover) == pytest.approx(share, abs=0.01)


def test_name_cover_counts_the_question_words_a_name_and_its_owner_hold():
    from gitroute.model import Row

    assert name_cover("where are url rules matched", Row("app.py", 3, "url_rule", "function")) == (2, 3)
    assert name_cover("where is a panic caught", Row("a.go", 1, "Engine.handlePanic", "method")) == (1, 2)
    assert name_cover("where is the session cookie signed", Row("sessions.py", None, "sessions.py", "file")) == (1, 3)
    assert name_cover("where is the entry point of the cli", None) == (0, 1)  # "entry point" asks, names nothing


def test_entry_point_is_asked_for_in_so_many_words_not_by_a_verb():
    assert asks_entry_in_words("where is the entry point of the command line")
    assert asks_entry_in_words("where is main")
    assert not asks_entry_in_words("where are settings read from variables that start with a prefix")
    assert not asks_entry_in_words("where is the spaceship fuel level checked before launch")


def test_a_name_is_answered_by_the_symbol_tiers_and_a_sentence_by_both(shop_repo, route):
    by_name = ask(route, shop_repo, "invoice_total", "--explain")
    assert by_name["rows"][0]["name"] == "invoice_total"
    assert "meaning" not in by_name["rows"][0]["signals"]
    sentence = ask(route, shop_repo, "where is the total of an invoice computed with its discount", "--explain")
    assert sentence["rows"][0]["path"] == "src/shop/invoice.py"
    assert any("meaning" in row["signals"] for row in sentence["rows"])
    blended = [note for note in sentence["notes"] if note.startswith("blended:")]
    # `invoice_total` holds "invoice" and "total" of the question's four words: meaning gets half
    assert blended and "holds 2 of the question's 4 words" in blended[0] and "share 0.50" in blended[0]
    prose = ask(route, shop_repo, "how is the price of a parcel worked out from its weight", "--explain")
    assert prose["rows"][0]["path"] == "src/shop/ship.go"


def test_blend_keeps_signals_additive_and_lends_a_file_its_meaning_score_once():
    from gitroute.model import Row

    symbol = [Row("a.py", 3, "f", "function", 20.0, (("name_tokens", 19.4), ("kind_prior", 0.6))),
              Row("b.py", 1, "g", "function", 10.0, (("doc_tokens", 9.4), ("kind_prior", 0.6))),
              Row("b.py", 9, "h", "function", 10.0, (("doc_tokens", 9.4), ("kind_prior", 0.6)))]
    prose = [Row("b.py", 1, "g", "function", 8.0, (("node_1", 8.0),)), Row("c.py", None, None, "file", 4.0,
                                                                              (("file_text", 4.0),))]
    rows = blend_rows(symbol, prose, 0.5, 10)
    # Fewer rows than the floor's rank: each list scaled from 0 to its best. a.py: 50 from the best symbol
    # row; b.py: 25 from its symbol row and 50 from the best meaning file, once; its second row 25 alone;
    # c.py: half the best meaning score, 25.
    assert [(r.path, r.line) for r in rows] == [("b.py", 1), ("a.py", 3), ("b.py", 9), ("c.py", None)]
    assert [r.score for r in rows] == pytest.approx([75.0, 50.0, 25.0, 25.0])
    for row in rows:
        assert sum(v for _, v in row.signals) == pytest.approx(row.score, abs=0.01)


def test_a_file_whose_only_symbol_row_is_below_the_floor_is_named_by_its_meaning_row():
    from gitroute.model import Row

    # toolz: "which part of the code caches a function's results …?" named functoolz.py's `juxt` (a symbol row at the
    # floor) with the file's meaning score, which `memoize`, the node holding the words, had earned
    symbol = [Row(f"s{i}.py", 1, f"f{i}", "function", 40.0 - i, (("name_tokens", 40.0 - i),)) for i in range(10)]
    symbol.append(Row("functoolz.py", 648, "juxt", "class", 25.0, (("doc_tokens", 25.0),)))
    prose = [Row("functoolz.py", 393, "memoize", "function", 30.0, (("node_1", 30.0),))]
    rows = blend_rows(symbol, prose, 0.8, 20)
    assert (rows[0].path, rows[0].name) == ("functoolz.py", "memoize")
    assert [r.score for r in rows if r.name == "juxt"] == [0.0]
    for row in rows:
        assert sum(v for _, v in row.signals) == pytest.approx(row.score, abs=0.01)


def test_blend_scales_each_list_from_its_tenth_row():
    from gitroute.model import Row

    # Ten near-tied symbol rows tell little apart: the tenth gets 0, the best the whole symbol weight.
    symbol = [Row(f"s{i}.py", 1, f"f{i}", "function", 40.0 - i, (("name_tokens", 40.0 - i),)) for i in range(12)]
    rows = {r.path: r for r in blend_rows(symbol, [], 0.5, 20)}
    assert rows["s0.py"].score == pytest.approx(50.0)
    assert rows["s9.py"].score == pytest.approx(0.0) and rows["s11.py"].score == pytest.approx(0.0)
    for row in rows.values():
        assert sum(v for _, v in row.signals) == pytest.approx(row.score, abs=0.01)


# --- no_match --------------------------------------------------------------------------------------


def evidence(coverage: float, missing: int, words: int) -> Evidence:
    tokens = [f"w{i}" for i in range(words)]
    return Evidence({t: 1.0 for t in tokens}, tokens[:missing], coverage, 3.0)


@pytest.mark.parametrize(("coverage", "missing", "words", "routed"), [
    (0.25, 0, 5, True), (0.23, 0, 5, False),  # the coverage floor, whatever is missing
    (0.51, 3, 6, True), (0.49, 3, 6, False),  # half the words unknown: the rest must cover half
    (0.49, 2, 6, True),  # a third unknown, coverage above the floor
    # a long sentence's floors scale by (10 / words) squared: 14 words, 0.51 of them
    (0.13, 0, 14, True), (0.11, 0, 14, False), (0.26, 7, 14, True), (0.24, 7, 14, False),
])
def test_no_match_rule_on_both_sides_of_its_thresholds(coverage, missing, words, routed):
    tokens = [f"w{i}" for i in range(words)]
    reason = no_match_reason(evidence(coverage, missing, words), tokens)
    assert (reason is None) == routed
    if not routed:
        assert f"{coverage:.0%}" in reason


def test_a_word_the_best_file_holds_only_in_comments_covers_a_share_of_its_weight():
    found = Evidence({"fee": 1.0, "ledger": 2.0, "parcel": 1.0}, ["parcel"], 0.0, 0.0)
    # node 1 names the fee; node 2's comments say "ledger", node 3's say "fee" (already held by a field)
    matched = {1: {"fee": 1}, 2: {"~ledger": meaning.BODY_BIT}, 3: {"~fee": meaning.BODY_BIT}}
    found.cover([(3.0, 1), (1.0, 2), (0.5, 3)], matched)
    assert found.coverage == pytest.approx((1.0 + meaning.BODY_EVIDENCE * 2.0) / 4.0)
    assert found.best_idf == 1.0  # comments lend no rarest word
    found.cover([(3.0, 1)], matched)
    assert found.coverage == pytest.approx(0.25)


FEE_FILES = {
    "src/pay/fee.py": '"""Fees."""\n\n\ndef charge_fee(amount):\n    # the ledger sees every charge once\n    return amount\n',
    **{f"src/util/{name}.py": f'"""The {name} helpers."""\n\n\ndef {name}_entry(value):\n    return value\n'
       for name in ("ledger", "audit", "invoice", "cache", "parse", "render", "retry", "sort")},
}


def test_a_comment_in_the_best_file_lifts_its_coverage_over_the_floor(make_repo, route):
    repo = make_repo("fee")
    repo.commit(dict(FEE_FILES), "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    text = "fee for the ledger audit of an invoice cache"  # five known words, one per file
    routed = ask(route, repo, text, "--meaning")
    assert routed["status"] == "routed" and routed["rows"][0]["path"] == "src/pay/fee.py"
    # the same file without its comment covers a fifth of the question's weight: under the floor
    repo.commit({**FEE_FILES, "src/pay/fee.py": '"""Fees."""\n\n\ndef charge_fee(amount):\n    return amount\n'},
                "no comment")
    assert route(["build", "-q"], repo.path).exit_code == 0
    refused = ask(route, repo, text, "--meaning")
    assert refused["status"] == "no_match" and "covers 20%" in refused["notes"][0]


def test_off_topic_question_is_no_match_with_the_reason_and_a_real_one_routes(shop_repo, route):
    off = ask(route, shop_repo, "where is the greenhouse irrigation scheduled")
    assert off["status"] == "no_match" and off["rows"] == []
    assert "in the code" in off["notes"][0] and "greenhouse" in off["notes"][0]
    real = ask(route, shop_repo, "where is a late payment reminder raised")
    assert real["status"] == "routed" and real["rows"][0]["path"] == "src/shop/invoice.py"


def test_a_term_written_as_a_name_that_the_repository_never_mentions_is_no_match(shop_repo, route):
    # five of the sentence's six words are the invoice module's: the acronym it asks about is nowhere
    for text, term in (("where is the VAT added to the total of an invoice with its tax", "VAT"),
                       ("which function stores the shopping cart in IndexedDB between visits", "IndexedDB")):
        off = ask(route, shop_repo, text)
        assert off["status"] == "no_match" and off["rows"] == [], (text, off["rows"][:2])
        assert f"'{term}'" in off["notes"][0], off["notes"]
    # an acronym or camel-humped word the repository holds is an ordinary word of the question
    for text, path in (("where is the TAX rate added to the total of an invoice", "src/shop/invoice.py"),
                       ("where is the ShoppingCart kept in the browser between visits", "src/shop/cart.js")):
        real = ask(route, shop_repo, text)
        assert real["status"] == "routed" and real["rows"][0]["path"] == path, (text, real["rows"][:2])


@pytest.mark.parametrize("text, missing, terms", [
    ("which middleware checks the CSRF token", {"csrf"}, ["CSRF"]),
    ("convert a schema to Protocol Buffers", {"buffer"}, ["Buffers"]),  # no English word (the neighbours' vocabulary)
    ("Which handler publishes log records to a Kafka topic?", {"kafka"}, ["Kafka"]),
    ("Kafka topics: where are they read?", {"kafka"}, []),  # a sentence's first word
    ("where is the offset from Greenwich worked out", {"greenwich"}, []),  # an English word: a place
    ("read rows from PostgreSQL and MySQL", {"postgr", "my"}, ["PostgreSQL", "MySQL"]),
    ("is Json.NET or fastify.enableHotReload or JSON.parse() used", {"json", "net", "enabl", "hot", "reload"}, []),
    ("where does the HTTPServer log", {"http"}, ["HTTPServer"]),
    ("a form POSTs with a hidden field; is it OK", {"ts", "ok"}, []),  # POSTs is POST, OK two capitals
    ("where are TOTPs checked", {"totp"}, ["TOTPs"]),
    ("where does it fall back to the COLUMNS variable", {"column"}, []),  # an English word: a string's, perhaps
    ("where does it export a session to PDF", {"pdf"}, ["PDF"]),  # capitals without a vowel: no English word
    ("which part renders the HTML", {"html"}, ["HTML"]),
    ("store the sessions in Neo4j instead", {"neo"}, ["Neo4j"]),
    ("How do I expose a gRPC service from the server?", {"rpc"}, ["gRPC"]),
    ("where is getUser called", {"user"}, []),  # a camel-cased identifier: the symbol tiers' to place  # split as the question is: "neo", "4", "j"
    ("where are the ids of the API built", set(), []),
    # a clause of context before the one that asks: where the asker stands, not what the repository must hold
    ("Our config is mounted from a Kubernetes ConfigMap; where is the code that notices the file changed?",
     {"kubernet"}, []),
    ("We run Kafka in production, so which handler publishes log records to a Kafka topic?", {"kafka"}, ["Kafka"]),
    ("How do I expose a gRPC service from the server, where's that handled?", {"rpc"}, ["gRPC"]),  # asked before
])
def test_absent_terms_are_acronyms_and_camel_humped_words_that_hold_a_missing_word(text, missing, terms):
    from gitroute.indexes.meaning.vocabulary import absent_terms

    assert absent_terms(text, missing) == terms


def test_the_entry_point_asked_for_routes_and_an_off_topic_launch_is_no_match(make_repo, route):
    repo = make_repo("shop")
    repo.commit({**SHOP_FILES, "src/shop/__main__.py": (
        '"""Run the shop from the command line."""\n\n\ndef main():\n    print("shop")\n\n\n'
        'if __name__ == "__main__":\n    main()\n')}, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    # "entry point" asked in so many words, every other word known: the symbol tiers' entry point answers
    entry = ask(route, repo, "where is the entry point of the shop command line", "--explain")
    assert entry["status"] == "routed" and entry["rows"][0]["path"] == "src/shop/__main__.py"
    assert any("entry point" in note for note in entry["notes"])
    # "launch" and "start" are verbs: an off-topic sentence with one is no_match, not the entry point
    for text in ("where is the spaceship fuel level checked before launch",
                 "where is the entry point of the spaceship fuel pump"):
        off = ask(route, repo, text)
        assert off["status"] == "no_match" and off["rows"] == [], text
        assert off["notes"], text  # the meaning index says why


def test_a_phrase_of_a_name_routes_where_the_sentence_alone_would_be_no_match(shop_repo, route):
    # Both sides of the gate: the meaning index finds too little of this sentence, but `invoice_total`
    # stands in it as a phrase, so the symbol tiers answer; the same sentence without the name is no_match.
    named = ask(route, shop_repo, "where is the invoice total for the greenhouse irrigation schedule")
    assert named["status"] == "routed" and named["rows"][0]["name"] == "invoice_total"
    assert ask(route, shop_repo, "where is the greenhouse irrigation schedule for the orchard")["status"] == "no_match"


def test_negative_bench_questions_are_right_only_when_the_answer_is_no_match():
    source = Source("refs/marola/routing-bundle", "0" * 40, "main", 0, "0" * 40, 0)
    question = Question(id="n1", type="negative", question="greenhouse irrigation", expect=("no_match",))
    assert score_answer(question, Answer("no_match", source)).right_first
    from gitroute.model import Row

    routed = score_answer(question, Answer("routed", source, (Row("a.py"),)))
    assert not routed.right_first and routed.miss == "forced_guess"


def test_built_copies_beside_mirroring_and_in_dist():
    paths = ["src/v4/core/util.ts", "v4/core/util.js", "v4/core/util.cjs", "v4/core/util.d.ts",
             "src/a.ts", "src/a.js", "dist/b.js", "lib/plain.js", "vendor/jquery.min.js", "types/index.d.ts"]
    assert built_copies(paths) == {"v4/core/util.js", "v4/core/util.cjs", "v4/core/util.d.ts", "src/a.js",
                                   "dist/b.js", "vendor/jquery.min.js"}
    assert built_copies(["lib/express.js", "index.js"]) == frozenset()  # plain JavaScript keeps its .js
    # Luxon: JavaScript sources under src/, bundled again into build/ (each bundle holds every module)
    assert built_copies(["src/datetime.js", "src/impl/util.js", "build/amd/luxon.js", "build/es6/luxon.mjs",
                         "build/global/luxon.min.js", "src/build/helper.js"]) == {
        "build/amd/luxon.js", "build/es6/luxon.mjs", "build/global/luxon.min.js"}
    # a build/ with no src/ beside it is the code (yargs as npm publishes it), or the build's own scripts (fastify)
    assert built_copies(["build/lib/argsert.js", "lib/platform-shims/esm.mjs", "index.mjs"]) == frozenset()
    assert built_copies(["lib/index.js", "build/build-validation.js"]) == frozenset()
    # Moment: src/'s modules bundled into moment.js and min/, each locale copied from src/locale/
    assert built_copies(["src/moment.js", "src/lib/units/offset.js", "src/locale/af.js", "moment.js", "locale/af.js",
                         "min/moment-with-locales.js", "dist/moment.js", "ender.js"]) == {
        "moment.js", "locale/af.js", "min/moment-with-locales.js", "dist/moment.js"}
    assert built_copies(["min/index.js", "moment.js"]) == frozenset()  # no src/: the code
    # Nunjucks: src/ bundled into a top-level browser/; a browser/ folder inside the sources is code
    assert built_copies(["src/lib.js", "browser/nunjucks.js", "browser/nunjucks-slim.js", "src/browser/shim.js"]) == {
        "browser/nunjucks.js", "browser/nunjucks-slim.js"}


def test_a_package_published_as_its_build_alone_has_its_code_in_dist(make_repo, route):
    # minimatch as npm serves it: dist/commonjs and dist/esm, no source beside them. `dist/` read as built copies left
    # the meaning index 18 words and every plain-words question no_match; a repository with sources keeps dist/ out.
    from gitroute.rank import secondary_but_dist
    escape = ("/**\n * Escape all magic characters in a glob pattern, so that it will only ever match literal\n"
              " * strings: wrap them in brackets, or put a backslash before each.\n */\n"
              "export const escape = (s, windowsPathsNoEscape = false) => {\n"
              "  return windowsPathsNoEscape ? s.replace(/[?*()[\\]]/g, '[$&]') : s.replace(/[?*()[\\]\\\\]/g, '\\\\$&')\n"
              "}\n")
    files = {"package.json": '{"name": "globby-match", "main": "dist/commonjs/index.js"}\n',
             "dist/esm/escape.js": escape, "dist/commonjs/escape.js": escape.replace("export const", "const"),
             "dist/esm/index.js": "export const minimatch = (p, pattern) => p === pattern\n"}
    for name, says in (("brace", "Expand a brace range into the numbers it stands for"),
                       ("unescape", "Turn bracketed single characters back into plain ones"),
                       ("ast", "Parse extended glob groups into a tree of nodes"),
                       ("path", "Split a path on its separators, on Windows too")):
        for build in ("esm", "commonjs"):
            files[f"dist/{build}/{name}.js"] = f"/** {says}. */\nexport const {name} = (s) => s\n"
    repo = make_repo("published")
    repo.commit(files, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = ask(route, repo, "where does it put a backslash before the magic characters of a glob pattern", "--meaning")
    assert doc["status"] == "routed" and doc["rows"][0]["path"].endswith("/escape.js"), doc
    # the memo keys a file's postings by what they are made of: the same blob read as code is another entry
    from gitroute.indexes.meaning.postings import as_code_marked

    assert as_code_marked({"dist/a.js": "b1", "README.md": "b2"}, secondary_but_dist) == {
        "dist/a.js": "b1+code", "README.md": "b2"}


def _postings_by_node(files: dict[str, str], path: str) -> dict[str, set[str]]:
    """A file's meaning postings as node name -> its words, from real parses through the code graph."""
    from gitroute.graph import SourceFile, build_graph
    from gitroute.parsing import extract, language_for_path

    sources = [SourceFile(p, f"blob-{p}", language_for_path(p), extract(t.encode(), language_for_path(p) or ""))
               for p, t in sorted(files.items())]
    group = sorted((n for n in build_graph(sources).nodes if n.path == path), key=lambda n: n.id)
    entries = meaning.postings._file_postings(group, lambda p: files[p].encode(), {})
    return {group[offset].name: set(tokens) for offset, _, tokens, _, _ in entries}


def test_a_class_constant_joins_its_class_text_and_a_module_constant_stands_alone():
    java = ("package a;\n\npublic class Http {\n  /** How many redirects are followed at most. */\n"
            "  private static final int MAX_REDIRECTS = 20;\n  void execute() {}\n}\n")
    go = "package a\n\n// DefaultTimeout bounds a request's wait.\nconst DefaultTimeout = 30\n\nfunc Run() {}\n"
    by_node = _postings_by_node({"a/Http.java": java}, "a/Http.java")
    redirect = meaning.words("redirects")[0]
    assert "MAX_REDIRECTS" not in by_node and redirect in by_node["Http"] and redirect not in by_node["execute"]
    by_node = _postings_by_node({"a/run.go": go}, "a/run.go")
    assert meaning.words("timeout")[0] in by_node["DefaultTimeout"]


def test_a_files_packed_postings_are_encode_posting_of_their_counts():
    # `_file_postings` packs its postings inline: each must be what encode_posting gives (tf, length, fields).
    from gitroute.graph import SourceFile, build_graph
    from gitroute.indexes.meaning.postings import BODY_BIT, BODY_PREFIX, FIELDS, decode_posting, encode_posting
    from gitroute.parsing import extract

    text = ('"""Weather client."""\n\nclass OpenMeteoClient:\n    """Fetch the forecast for a place."""\n\n'
            '    def fetch(self, place, days=3):\n        # ask the remote service, then cache the reply\n'
            '        raise ValueError("the place has no forecast for those days")\n')
    graph = build_graph([SourceFile("weather/client.py", "blob", "python", extract(text.encode(), "python"))])
    group = sorted(graph.nodes, key=lambda n: n.id)
    entries = meaning.postings._file_postings(group, lambda p: text.encode(), {})
    assert entries and any(body for *_, body in entries)
    names = {bit for bit, _weight in FIELDS.values()}
    for _offset, length, tokens, packed, body in entries:
        own = len(tokens) - body
        for token, value in zip(tokens[:own], packed[:own]):
            tf, _, fields = decode_posting(value)
            assert value == encode_posting(tf, length, fields) and fields and fields & ~sum(names) == 0
            assert not token.startswith(BODY_PREFIX)
        assert packed[own:] == [encode_posting(1, body, BODY_BIT)] * body


def test_a_file_s_postings_come_in_node_order_when_a_holder_follows_its_constants():
    # The Linux kernel has C files whose tags give a constant before the struct that spans it: the constant's text
    # joins the holder's, and the file's postings must still ascend by node (the varint shards refuse otherwise).
    from gitroute.indexes.meaning.postings import _file_postings

    path = "drivers/x/regs.h"
    group = [
        Node(0, path, "regs.h", "file", 1, 1, "c", "", "", False),
        Node(1, path, "REG_MODE", "constant", 5, 5, "c", "", "", False),
        Node(2, path, "mode_reg_read", "function", 12, 14, "c", "", "read the mode register", False),
        Node(3, path, "regs", "struct", 3, 9, "c", "", "the mode registers", False),
    ]
    entries = _file_postings(group, lambda _path: None, {})
    offsets = [entry[0] for entry in entries]
    assert offsets == sorted(offsets) and offsets[-2:] == [2, 3]


@pytest.mark.parametrize("word, forms", [
    ("typography", ["typographic"]),
    ("eviction", ["evict"]),
    ("validat", ["validation", "validator"]),  # "validate"
    ("recursively", ["recursiv"]),
    ("compression", ["compress"]),
    ("parallelism", ["parallel"]),
    ("fuzz", ["fuzzer"]),
    ("cancellation", ["cancel"]),
])
def test_a_word_s_derived_forms_hold_its_nouns_verbs_and_adjectives(word, forms):
    found = meaning.vocabulary.derived_forms(word)
    assert set(forms) <= set(found), found


@pytest.mark.parametrize("word", ["player", "customer", "nativ", "glob", "user", "42abc"])
def test_an_agent_noun_and_a_short_or_odd_word_derive_no_other_word(word):
    # a player is no `play`, a customer no `custom`; "native" is not "nation"; short words stand as they are
    assert not {"play", "custom", "nation", "nate", "us"} & set(meaning.vocabulary.derived_forms(word))


def test_a_question_word_the_repository_lacks_is_asked_as_the_form_it_holds(make_repo, route):
    repo = make_repo("forms")
    repo.commit({
        "src/text/smart.py": '"""Typographic replacements: quotes and dashes."""\n\n\n'
                             'def smarten(text):\n    return text\n',
        "src/text/cache.py": '"""Evict the oldest entries of the cache."""\n\n\ndef evict(cache):\n    return cache\n',
        "src/text/wrap.py": '"""Wrap long lines of text."""\n\n\ndef wrap(text):\n    return text\n',
    }, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    found = ask(route, repo, "where are typography replacements done", "--meaning", "--explain")
    assert found["status"] == "routed" and found["rows"][0]["path"] == "src/text/smart.py"
    found = ask(route, repo, "which code handles eviction of cache entries", "--meaning")
    assert found["status"] == "routed" and found["rows"][0]["path"] == "src/text/cache.py"
    # an off-topic word with no form the repository holds is still missing: no_match, and it says which
    off = ask(route, repo, "where is greenhouse irrigation of the cache scheduled", "--meaning")
    assert off["status"] == "no_match" and "greenhouse" in off["notes"][0]


def test_a_python_stub_beside_its_module_answers_no_plain_words_question(make_repo, route):
    # cachetools: `__init__.pyi` declares every class and method of `__init__.py` again, bodiless; its protocol's
    # `wait` came first for "a second thread … waits until the first call finishes"
    repo = make_repo("stubs")
    repo.commit({
        "src/pool/__init__.py": '"""Worker pools."""\n\n\nclass Pool:\n    def wait(self):\n'
                                '        """Block until every pending job of the pool has finished."""\n',
        "src/pool/__init__.pyi": "class Pool:\n    def wait(self) -> None:\n"
                                 '        """Block until every pending job of the pool has finished."""\n',
        "src/pool/only.pyi": "class Waiter:\n    def wait(self) -> None:\n"
                             '        """Block until the next pending signal arrives."""\n',
    }, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    found = ask(route, repo, "where do we block until every pending job has finished", "--meaning")
    paths = [r["path"] for r in found["rows"]]
    assert paths[0] == "src/pool/__init__.py" and "src/pool/__init__.pyi" not in paths
    assert "src/pool/only.pyi" in paths  # a stub with no module beside it is what declares its names
    defined = json.loads(route(["query", "--json", "Pool.wait"], repo.path).stdout)
    assert {r["path"] for r in defined["rows"]} >= {"src/pool/__init__.py", "src/pool/__init__.pyi"}


# --- the fitted gate, for a question written as a sentence ----------------------------------------------------------


@pytest.mark.parametrize(("text", "sentence"), [
    ("where is the csrf middleware", False),  # a few words typed to `query`: the floors judge it
    ("money amount settled and rounded", False),
    ("cached items written out to a file and later read back", False),  # no question's or request's first word
    ("Where does the cache evict the least recently used entries?", True),
    ("Find the function that parses the config file and reports its errors", True),
    ("I need to change how retries back off; which file decides the delay", True),
    ("the delay between retries grows how, and where is that decided?", True),  # a question mark
])
def test_a_sentence_is_eight_words_or_more_that_ask_or_request(text, sentence):
    assert ranking.is_sentence(text) is sentence


def _sentence_evidence(coverage: float, missing: int, words: int, *, absent: bool = False, length: int = 20):
    found = evidence(coverage, missing, words)
    found.asked(" ".join(["where"] * length), [(10.0, 1), (5.0, 2)])  # a sentence of `length` words; runner-up half
    found.absent_terms = ["TomlParser"] if absent else []
    return found


def test_the_fitted_gate_weighs_coverage_unknown_words_and_named_terms():
    tokens = [f"w{i}" for i in range(8)]
    assert _sentence_evidence(0.8, 0, 8).sentence and _sentence_evidence(0.8, 0, 8).runner_up == 0.5
    assert no_match_reason(_sentence_evidence(0.8, 0, 8), tokens) is None  # covered, nothing unknown
    assert no_match_reason(_sentence_evidence(0.6, 2, 8), tokens) is None  # two words a paraphrase's
    refused = no_match_reason(_sentence_evidence(0.2, 5, 8), tokens)  # most of it unknown, a fifth covered
    assert refused is not None and "5 of its 8 words" in refused and "covers 20%" in refused
    # a term named and unknown weighs more than a word: the same evidence but for it is answered
    assert no_match_reason(_sentence_evidence(0.6, 2, 8, absent=True), tokens) is not None
    # a shorter sentence says less in words the code lacks: the same coverage and unknown words refused
    assert no_match_reason(_sentence_evidence(0.6, 2, 8, length=9), tokens) is not None
    odds = [ranking.gate_odds(_sentence_evidence(c, 0, 8), 8) for c in (0.2, 0.5, 0.8)]
    assert odds == sorted(odds, reverse=True)  # the more the best file covers, the lower the odds against it


def test_a_sentence_about_what_the_repository_does_is_routed_and_one_about_what_it_lacks_refused(make_repo, route):
    repo = _among_others(make_repo, route, "sentence-gate", {
        "src/save.js": "/** Save every cached item to a file on disk, and load them again at start. */\n"
                       "function saveItems(items, file) {}\n"},
        "order", ("price", "discount", "invoice", "receipt", "refund"))
    doc = ask(route, repo, "Where are the cached items saved to a file on disk so they load again at start?", "--meaning")
    assert doc["status"] == "routed" and doc["rows"][0]["path"] == "src/save.js", doc
    doc = ask(route, repo, "Which part encrypts cached items with AES and uploads them to a remote S3 bucket nightly?",
              "--meaning", "--explain")
    assert doc["status"] == "no_match" and "the evidence weighs against an answer" in doc["notes"][0], doc
