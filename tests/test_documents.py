"""The document parser: Markdown and reStructuredText blocks and inline tokens, through the real grammars."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gitroute.parsing.documents import (
    KIND_PATHS,
    Block,
    Document,
    Token,
    document_format,
    document_kind,
    heading_number,
    looks_like_rst,
    parse_document,
    role_target,
)


def _doc(path: str, text: str) -> Document:
    document = parse_document(path, text.encode())
    assert document is not None
    return document


def _tokens(document: Document) -> list[tuple[str, str, str, int]]:
    return [(t.kind, t.text, t.role, t.line) for b in document.blocks for t in b.tokens]


def _kinds(document: Document) -> list[str]:
    return [b.kind for b in document.blocks]


# ------------------------------------------------------------------------------------------------ format


def test_document_format_by_extension_and_content() -> None:
    assert document_format("docs/a.md", b"x") == "markdown"
    assert document_format("docs/a.MARKDOWN", b"x") == "markdown"
    assert document_format("README", b"x") == "markdown"
    assert document_format("sub/README.md", b"x") == "markdown"
    assert document_format("docs/api.rst", b"x") == "rst"
    assert document_format("docs/ref/models.txt", b"Models\n======\n\nText.\n") == "rst"
    assert document_format("docs/ref/x.txt", b".. class:: Q\n") == "rst"
    assert document_format("requirements.txt", b"flask>=2\nclick\n") is None
    assert document_format("README.txt", b"just words\n") == "markdown"
    assert document_format("src/a.py", b"# x\n") is None
    assert document_format("LICENSE", b"MIT\n") is None


def test_plain_text_documents_under_the_names_every_project_uses() -> None:
    # CHANGES, NEWS, HISTORY.txt: release notes and guides kept as plain text, read as markdown
    # (GNU's ChangeLog and CPAN's Changes capitalised)
    for path in ("CHANGES", "NEWS", "sub/HACKING", "INSTALL", "HISTORY.txt", "docs/changes.txt", "ChangeLog", "Changes"):
        assert document_kind(path) in ("plain", "plaintxt"), path
        assert document_format(path, b"Release 1.2\n\n  * Element.expectFirst added\n") == "markdown", path
        # and so through a build, which parses a blob by its kind's path
        kind_path = KIND_PATHS[document_kind(path) or ""]
        assert document_format(kind_path, b"Release 1.2\n\n  * Element.expectFirst added\n") == "markdown", path
    # without an extension, only capitalised (README in any case): a lower-case `install` is a script
    for path in ("install", "changes", "bin/news"):
        assert document_kind(path) is None and document_format(path, b"#!/bin/sh\necho\n") is None, path
    assert document_kind("readme") == "plain"
    assert document_kind("LICENSE") is None and document_kind("Makefile") is None


TEXINFO = b"""\\input texinfo
@setfilename conf.info
@node Top
@top conf

@node Multithreading Issues
@chapter Using the Library
@section Multithreading Issues
@cindex threads
A @code{config_t} object may be shared between threads only when
@i{no} thread writes to it: the library is @w{@i{reentrant}}.

@example
config_t cfg;
@end example

@menu
* Ignored::  menu entries are no text
@end menu

@deftypefun int config_read_file (config_t * @var{config}, const char * @var{filename})
Reads and parses a file.
@end deftypefun

@table @code
@item config_destroy
Frees the object.
@end table
"""


def test_a_texinfo_manual_is_read_as_headings_paragraphs_code_and_definitions() -> None:
    # libconfig's manual is doc/libconfig.texi: "which part of the manual explains whether I can share one
    # configuration object between threads" had no document to answer it
    doc = parse_document("doc/conf.texi", TEXINFO)
    assert doc is not None and doc.format == "texinfo" and doc.title == "conf" and not doc.warnings
    assert [(b.level, b.text) for b in doc.blocks if b.kind == "heading"] == [
        (1, "conf"), (1, "Using the Library"), (2, "Multithreading Issues")]
    para = next(b for b in doc.blocks if b.kind == "paragraph")
    assert para.text == ("A config_t object may be shared between threads only when no thread writes to it: the "
                         "library is reentrant.")
    assert [t.text for t in para.tokens] == ["config_t"]
    assert doc.blocks[para.section].text == "Multithreading Issues"
    assert [b.text for b in doc.blocks if b.kind == "code"] == ["config_t cfg;"]
    assert not any("Ignored" in b.text for b in doc.blocks)
    defined = next(b for b in doc.blocks if b.kind == "directive")
    assert (defined.name, [t.text for t in defined.tokens]) == ("deftypefun", ["config_read_file"])
    assert [(b.text, [t.text for t in b.tokens]) for b in doc.blocks if b.kind == "list_item"] == [
        ("config_destroy", ["config_destroy"])]
    assert document_kind("doc/conf.texi") == "texinfo" and document_kind("doc/conf.texinfo") == "texinfo"


@given(st.binary(max_size=400) | st.text(alphabet="@{}abc \n", max_size=400).map(str.encode))
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
def test_a_texinfo_reader_never_raises(data: bytes) -> None:
    doc = parse_document("m.texi", data)
    assert doc is not None and all(b.line >= 1 and b.end_line >= b.line for b in doc.blocks)


ASCIIDOC = b"""= Lua CJSON Manual =
Mark Pulford <mark@example.org>
:revdate: 1st March 2012

Overview
--------

The module encodes with +cjson.encode+ and decodes with `cjson.decode`.

*Features*::
- Fast, standards compliant routines
- No dependencies

Build Options
~~~~~~~~~~~~~

Make:: Unix, Windows

[source,lua]
------------
value = cjson.decode(json_text)
------------

////
A comment block: no text
////

// a comment line
== Sparse arrays

Lua CJSON converts *excessively* sparse arrays to objects, see http://www.lua.org[Lua].
"""


def test_an_asciidoc_document_is_read_as_headings_paragraphs_code_and_items() -> None:
    from gitroute.parsing.asciidoc import inline as inline_asciidoc

    # lua-cjson's manual.txt is AsciiDoc, read as reStructuredText before: `[source,lua]` over a listing's dashes
    # was a heading, and the sections after it its text
    doc = parse_document("manual.txt", ASCIIDOC)
    assert doc is not None and doc.format == "asciidoc" and doc.title == "Lua CJSON Manual" and not doc.warnings
    assert [(b.level, b.text) for b in doc.blocks if b.kind == "heading"] == [
        (1, "Lua CJSON Manual"), (2, "Overview"), (3, "Build Options"), (2, "Sparse arrays")]
    para = next(b for b in doc.blocks if b.kind == "paragraph" and "encodes" in b.text)
    assert para.text == "The module encodes with cjson.encode and decodes with cjson.decode."
    assert [t.text for t in para.tokens] == ["cjson.encode", "cjson.decode"]
    assert [b.text for b in doc.blocks if b.kind == "code"] == ["value = cjson.decode(json_text)"]
    assert [b.text for b in doc.blocks if b.kind == "list_item"] == [
        "Features", "Fast, standards compliant routines", "No dependencies", "Make: Unix, Windows"]
    assert not any("comment" in b.text or "revdate" in b.text or "source,lua" in b.text for b in doc.blocks)
    last = [b for b in doc.blocks if b.kind == "paragraph"][-1]
    assert last.text == "Lua CJSON converts excessively sparse arrays to objects, see Lua."
    assert doc.blocks[last.section].text == "Sparse arrays"
    assert document_kind("docs/guide.adoc") == "asciidoc" and document_format("docs/guide.adoc", b"x") == "asciidoc"
    # a text file is AsciiDoc only when it opens with a title and a line only AsciiDoc writes after it
    assert document_format("notes.txt", b"= Title\n:toc:\n\nText.\n") == "asciidoc"
    assert document_format("calc.txt", b"= not a title, an equation\nx = 1\n") is None
    # a macro's text stands for it; an index in prose is no macro
    assert inline_asciidoc("see link:guide.adoc[the guide] for array[0]") == ("see the guide for array[0]", [])


@given(st.binary(max_size=400) | st.text(alphabet="=-.*+/[]:`_ abc\n", max_size=400).map(str.encode))
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
def test_an_asciidoc_reader_never_raises(data: bytes) -> None:
    doc = parse_document("m.adoc", data)
    assert doc is not None and all(b.line >= 1 and b.end_line >= b.line for b in doc.blocks)


XDOC = b"""<?xml version="1.0"?>
<!-- licence -->
<document>
  <properties>
    <title>Text - User guide</title>
  </properties>
  <body>
    <section name="Similarity and Distance">
      <p>A <code>SimilarityScore</code> need not satisfy
        the triangle inequality; an <code>EditDistance</code> does.</p>
      <subsection name="Supported">
        <ul><li>Levenshtein</li><li><code>JaroWinklerDistance</code></li></ul>
        <source>new LevenshteinDistance().apply("a", "b");</source>
      </subsection>
    </section>
  </body>
</document>
"""


def test_a_maven_site_page_is_read_as_headings_paragraphs_items_and_code() -> None:
    # commons-text's "Which page of the documentation explains the difference between a similarity score and a
    # distance function …?" is its src/site/xdoc/userguide.xml, which no reader read
    doc = parse_document("src/site/xdoc/userguide.xml", XDOC)
    assert doc is not None and doc.format == "xdoc" and doc.title == "Text - User guide" and not doc.warnings
    assert [(b.level, b.text) for b in doc.blocks if b.kind == "heading"] == [
        (1, "Text - User guide"), (2, "Similarity and Distance"), (3, "Supported")]
    para = next(b for b in doc.blocks if b.kind == "paragraph")
    assert para.text == "A SimilarityScore need not satisfy the triangle inequality; an EditDistance does."
    assert [t.text for t in para.tokens] == ["SimilarityScore", "EditDistance"] and para.line == 9
    assert doc.blocks[para.section].text == "Similarity and Distance"
    assert [(b.text, [t.text for t in b.tokens]) for b in doc.blocks if b.kind == "list_item"] == [
        ("Levenshtein", []), ("JaroWinklerDistance", ["JaroWinklerDistance"])]
    assert [b.text for b in doc.blocks if b.kind == "code"] == ['new LevenshteinDistance().apply("a", "b");']
    # only an xdoc folder's pages: a pom.xml or a test fixture's XML is no document
    assert document_kind("pom.xml") is None and document_kind("src/test/resources/a.xml") is None
    assert parse_document("src/site/xdoc/notes.xml", b"<project><x/></project>") is None


def test_a_broken_or_hostile_maven_site_page_gives_what_was_read_and_a_warning() -> None:
    cut = parse_document("src/site/xdoc/a.xml", XDOC[:300])
    assert cut is not None and cut.warnings and cut.title == "Text - User guide"
    # entities that expand a billion times: refused by expat, not expanded
    laughs = (b'<?xml version="1.0"?><!DOCTYPE d [<!ENTITY a "aaaaaaaaaa">'
              + b"".join(b'<!ENTITY %s "%s">' % (chr(98 + i).encode(), (b"&" + chr(97 + i).encode() + b";") * 10)
                         for i in range(8))
              + b']><document><body><section name="s"><p>&i;</p></section></body></document>')
    doc = parse_document("src/site/xdoc/b.xml", laughs)
    assert doc is not None and doc.warnings and all(len(b.text) < 10_000 for b in doc.blocks)


@given(st.binary(max_size=400) | st.text(alphabet="<>/=\"' &;documentsbp", max_size=400).map(str.encode))
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
def test_an_xdoc_reader_never_raises(data: bytes) -> None:
    doc = parse_document("src/site/xdoc/m.xml", b"<document>" + data)
    assert doc is not None and all(b.line >= 1 and b.end_line >= b.line for b in doc.blocks)


def test_a_markdown_headings_closing_hashes_are_no_part_of_its_text() -> None:
    # libconfig's contrib/chained/README.md: "### How to integrate into your project ###"
    headings = [b.text for b in parse_document("a.md", b"### Features ###\n\n# C#\n\n## Issue #12 \n").blocks
                if b.kind == "heading"]
    assert headings == ["Features", "C#", "Issue #12"]


def test_an_anchor_alone_on_the_line_above_a_heading_leaves_the_heading_a_heading() -> None:
    # json-c's README: `<a name="linking">` right above "Linking to `libjson-c`" and its underline, an HTML block that
    # ran to the next blank line, heading and all; an anchor inside a paragraph, or before a blank line, stays as it was
    data = (b'# Guide\n\n<a name="linking">\nLinking to `libjson-c`\n----------------------\n\nAdd the flags.\n\n'
            b"<a id='use'></a>\n## Using it\n\nCall it.\n\nSee <a name=\"x\">here</a>.\n")
    doc = parse_document("README.md", data)
    headings = [(b.line, b.text) for b in doc.blocks if b.kind == "heading"]
    assert headings == [(1, "Guide"), (4, "Linking to libjson-c"), (10, "Using it")], headings
    assert any(b.kind == "paragraph" and b.text.startswith("Add the flags") and b.line == 7 for b in doc.blocks)


def test_looks_like_rst_needs_an_underline_as_long_as_the_title() -> None:
    assert looks_like_rst(b"Title\n=====\n")
    assert not looks_like_rst(b"Title\n==\n")
    assert not looks_like_rst(b"=====\n=====\n")
    assert not looks_like_rst(b"a plain note\n\nwith lines\n")


def test_heading_number_and_role_target() -> None:
    assert heading_number("5.4 Doc code") == "5.4"
    assert heading_number("3. Usage") == "3"
    assert heading_number("§ 2 Context") == "2"
    assert heading_number("2024 was a year") == "2024"
    assert heading_number("Usage") == ""
    assert heading_number("3") == ""
    assert heading_number("3.5x faster") == ""
    assert role_target("~flask.Flask") == "flask.Flask"
    assert role_target(".Flask.route") == "Flask.route"
    assert role_target("!Flask") == "Flask"
    assert role_target("url_for()") == "url_for"


# ----------------------------------------------------------------------------------------------- markdown

MARKDOWN = """\
# 5.4 Doc code

Some `inline_code` and a [link to `Flask`](../src/app.py) and ``double `tick` span``.

```python
fenced = `not_a_token`
```

    indented = `not_a_token_either`

- item `list_token`
  - nested `nested_token`

| name | what |
|------|------|
| `table_token` | y |

> quoted `quote_token`

## Sub section

**Status:** Accepted
Deciders: the team

[ref]: docs/other.md "title"

Setext
------

<div>`html_token`</div>
"""


def test_markdown_headings_with_numbers_levels_and_sections() -> None:
    doc = _doc("docs/design.md", MARKDOWN)
    headings = [(i, b.text, b.level, b.name, b.section) for i, b in enumerate(doc.blocks) if b.kind == "heading"]
    assert [h[1:] for h in headings] == [
        ("5.4 Doc code", 1, "5.4", -1),
        ("Sub section", 2, "", 0),
        ("Setext", 2, "", 0),
    ]
    assert doc.title == "5.4 Doc code"
    first = doc.blocks[1]
    assert first.kind == "paragraph" and first.section == 0 and first.line == 3


def test_markdown_inline_html_tags_are_markup_not_text() -> None:
    # tomli's README: "## Parse a TOML file<a name=\"parse-a-toml-file\"></a>" is the section "Parse a TOML file";
    # a code span's `<b>` and a bare "a < b" stay as written
    doc = _doc("README.md", '# Title\n\n## Parse a TOML file<a name="parse-a-toml-file"></a>\n\n'
                            "Text with <b>bold</b> words, `a<b>` and a < b.\n")
    assert [b.text for b in doc.blocks] == ["Title", "Parse a TOML file", "Text with bold words, a<b> and a < b."]
    assert _tokens(doc) == [("code", "a<b>", "", 5)]


def test_markdown_brackets_without_a_link_definition_are_text() -> None:
    # js-yaml's README: "### dump (object [ , options ])" is that section, brackets and all (CommonMark: `[x]` is a
    # link only when the document defines the label); a defined label, any case, is still a link's text
    doc = _doc("README.md", "# API\n\n### dump (object [ , options ])\n\nSee [The Guide] and [x].\n\n"
                            "[the  guide]: https://example.com/guide\n")
    assert [b.text for b in doc.blocks][:3] == ["API", "dump (object [ , options ])", "See The Guide and [x]."]


def test_markdown_inline_code_is_a_token_code_blocks_are_not() -> None:
    doc = _doc("docs/design.md", MARKDOWN)
    tokens = _tokens(doc)
    texts = [t[1] for t in tokens]
    assert ("code", "inline_code", "", 3) in tokens
    assert ("code", "Flask", "", 3) in tokens
    assert ("link", "../src/app.py", "", 3) in tokens
    assert ("code", "double `tick` span", "", 3) in tokens
    assert "not_a_token" not in " ".join(texts)
    assert "not_a_token_either" not in " ".join(texts)
    assert "html_token" not in texts
    code = [b for b in doc.blocks if b.kind == "code"]
    assert len(code) == 2 and code[0].tokens == () and "not_a_token" in code[0].text
    assert code[0].line == 5 and code[0].end_line == 7


def test_markdown_lists_tables_quotes_fields_and_reference_links() -> None:
    doc = _doc("docs/design.md", MARKDOWN)
    by_text = {b.text: b for b in doc.blocks}
    assert by_text["item list_token"].kind == "list_item" and by_text["item list_token"].level == 1
    assert by_text["nested nested_token"].level == 2
    assert by_text["table_token | y"].kind == "table_row"
    assert by_text["table_token | y"].tokens[0].text == "table_token"
    assert by_text["quoted quote_token"].kind == "quote"
    fields = [(b.name, b.text) for b in doc.blocks if b.kind == "field"]
    assert fields == [("Status", "Accepted"), ("Deciders", "the team")]
    assert ("link", "docs/other.md", "", 25) in _tokens(doc)


def test_markdown_plain_text_drops_markup() -> None:
    doc = _doc("a.md", "Use *the* **`run`** [helper](x.py) \\* now.\n")
    assert doc.blocks[0].text == "Use the run helper * now."


# -------------------------------------------------------------------------------------------------- rst

RST = """\
======
Title
======

3. Section one
--------------

Some ``literal_x`` and :class:`~flask.Flask` and :meth:`.Flask.route` and
`the api <../api.rst>`_ and :doc:`tutorial </tutorial/index>` and :c:func:`PyObject_Call`.

.. autoclass:: flask.Flask
   :members:

   Body mentions :func:`url_for`.

.. code-block:: python

    x = ``not_literal``

Example::

    literal ``not_in_block``

:Status: Accepted
:Author: me ``field_token``

* item ``li_token``

  * nested ``nested_token``

+-----+-------------+
| a   | ``grid_tok`` |
+-----+-------------+

=====  =============
col    ``simple_tok``
=====  =============

.. _target: https://example.invalid/x

.. note::

   inside ``note_token``

Sub
~~~

.. class:: Q(*args, **kwargs)

   A :class:`Q` object.

.. c:function:: PyObject* PyObject_CallNoArgs(PyObject *callable)
"""


def test_rst_headings_levels_by_adornment_order() -> None:
    doc = _doc("docs/index.rst", RST)
    headings = [(b.text, b.level, b.name) for b in doc.blocks if b.kind == "heading"]
    assert headings == [("Title", 1, ""), ("3. Section one", 2, "3"), ("Sub", 3, "")]
    assert doc.title == "Title"


def test_rst_literals_roles_links_and_directives() -> None:
    doc = _doc("docs/index.rst", RST)
    tokens = _tokens(doc)
    assert ("literal", "literal_x", "", 8) in tokens
    assert ("role", "~flask.Flask", ":class:", 8) in tokens
    assert ("role", ".Flask.route", ":meth:", 8) in tokens
    assert ("link", "../api.rst", "", 9) in tokens
    assert ("role", "/tutorial/index", ":doc:", 9) in tokens
    assert ("role", "PyObject_Call", ":c:func:", 9) in tokens
    assert ("directive_arg", "flask.Flask", "", 11) in tokens
    assert ("role", "url_for", ":func:", 14) in tokens
    assert ("directive_arg", "Q", "", 48) in tokens
    assert ("role", "Q", ":class:", 50) in tokens
    assert ("directive_arg", "PyObject_CallNoArgs", "", 52) in tokens
    assert ("link", "https://example.invalid/x", "", 39) in tokens
    assert ("literal", "note_token", "", 43) in tokens
    texts = {t[1] for t in tokens}
    assert "not_literal" not in texts and "not_in_block" not in texts
    directives = [(b.name, b.text) for b in doc.blocks if b.kind == "directive"]
    assert ("autoclass", "flask.Flask") in directives
    assert ("class", "Q(*args, **kwargs)") in directives
    assert [b.name for b in doc.blocks if b.kind == "code"] == ["code-block", ""]


def test_rst_plain_text_shows_roles_as_read() -> None:
    doc = _doc("docs/index.rst", RST)
    paragraph = next(b for b in doc.blocks if b.text.startswith("Some"))
    assert paragraph.text.startswith("Some literal_x and Flask and Flask.route and\nthe api and tutorial and")
    assert paragraph.section == 1


def test_rst_fields_lists_and_tables() -> None:
    doc = _doc("docs/index.rst", RST)
    fields = [(b.name, b.text, [t.text for t in b.tokens]) for b in doc.blocks if b.kind == "field"]
    assert fields == [("Status", "Accepted", []), ("Author", "me field_token", ["field_token"])]
    items = [(b.text, b.level) for b in doc.blocks if b.kind == "list_item"]
    assert items == [("item li_token", 1), ("nested nested_token", 2)]
    rows = [(b.line, b.text, [t.text for t in b.tokens]) for b in doc.blocks if b.kind == "table_row"]
    assert rows == [(32, "a | grid_tok", ["grid_tok"]), (36, "col | simple_tok", ["simple_tok"])]


def test_rst_txt_file_is_parsed_like_rst() -> None:
    doc = _doc("docs/ref/models/querysets.txt", "QuerySets\n=========\n\nUse ``filter()`` and :class:`~django.db.models.Q`.\n")
    assert doc.format == "rst"
    assert [t.text for b in doc.blocks for t in b.tokens] == ["filter()", "~django.db.models.Q"]


def test_non_document_gives_none() -> None:
    assert parse_document("src/app.py", b"x = 1\n") is None


def test_records_are_namedtuples() -> None:
    doc = _doc("a.md", "# T\n\n`x_y`\n")
    assert isinstance(doc.blocks[0], Block) and isinstance(doc.blocks[1].tokens[0], Token)
    assert doc._fields == ("path", "format", "title", "blocks", "warnings")


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.binary(max_size=400), st.sampled_from(["a.md", "a.rst", "README", "docs/a.txt"]))
def test_parse_document_never_raises_on_bytes(data: bytes, path: str) -> None:
    document = parse_document(path, data)
    if document is not None:
        for block in document.blocks:
            assert 1 <= block.line <= block.end_line
            assert -1 <= block.section < len(document.blocks)


_MARKUP = st.sampled_from(["`", "``", ":class:", "~", ".", "::", "..", "\n", "  ", "#", "=", "-", "*", "|",
                           "[", "](", ")", "<", ">", "_", "a", "Flask", "\n\n", "   "])


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_MARKUP, max_size=80), st.sampled_from(["a.md", "a.rst"]))
def test_parse_document_never_raises_on_markup_soup(parts: list[str], path: str) -> None:
    document = parse_document(path, "".join(parts).encode())
    assert document is not None
    for block in document.blocks:
        for token in block.tokens:
            assert token.text and token.text == token.text.strip()
            assert block.line <= token.line


def test_rst_autosummary_lists_its_objects_as_directive_arguments() -> None:
    doc = _doc("doc/reference/generators.rst", (
        "Generators\n==========\n\n.. currentmodule:: networkx\n\n.. autosummary::\n   :toctree: generated/\n\n"
        "   balanced_tree\n   ~networkx.generators.classic.barbell_graph\n\nAfter ``x``.\n"
        "\n.. autosummary::\n   :toctree: generated/\n\n    GraphMatcher.__init__\n"))
    first, second = [b for b in doc.blocks if b.name == "autosummary"]
    assert [(t.kind, t.text, t.line) for t in first.tokens] == [
        ("directive_arg", "balanced_tree", 9), ("directive_arg", "~networkx.generators.classic.barbell_graph", 10)]
    assert doc.blocks[-2].text == "After x."
    # Entries indented deeper than the options (the grammar reads them as options) are entries too.
    assert [(t.text, t.line) for t in second.tokens] == [("GraphMatcher.__init__", 17)]


def test_rst_text_the_grammar_gives_up_on_is_read_again() -> None:
    # A bullet whose first line has " : " throws the rst grammar into an error node that swallows the
    # rest of the document; the lines after it are parsed again, so the directive below still counts.
    doc = _doc("a.rst", (
        "Title\n=====\n\n- ``functions`` : dict or None\n    The keys:\n\n    - ``url`` : str or None\n"
        "      The url to ``function``.\n\nLater text with ``after``.\n\n.. automodule:: pkg.mod\n"))
    tokens = [(t.text, t.line) for b in doc.blocks for t in b.tokens]
    assert ("after", 10) in tokens and ("pkg.mod", 12) in tokens and ("function", 8) in tokens
    assert [(b.kind, b.name, b.line) for b in doc.blocks if b.kind == "directive"] == [("directive", "automodule", 12)]


def _parse_in_child(tmp_path, path: str, data: bytes) -> tuple[list[str], list[str]]:
    """parse_document in a fresh process, so that a crash in a grammar fails the test instead of the run: the
    blocks' texts and the warnings."""
    import json
    import os
    import subprocess
    import sys
    from pathlib import Path

    import gitroute

    source = tmp_path / "doc.bin"
    source.write_bytes(data)
    script = ("import json; from gitroute.parsing.documents import parse_document; "
              f"d = parse_document({path!r}, open({str(source)!r}, 'rb').read()); "
              "print(json.dumps([[b.text for b in d.blocks], d.warnings]))")
    # The child imports the gitroute under test, whatever the working directory and the installed one.
    env = {**os.environ, "PYTHONPATH": str(Path(gitroute.__file__).resolve().parents[1])}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, env=env)
    assert result.returncode == 0, (result.returncode, result.stderr)
    texts, warnings = json.loads(result.stdout)
    return texts, warnings


# The grammars' scanners have fixed-size stacks: a Markdown line 255 blocks deep crashed the process (SIGSEGV),
# reStructuredText 101 indentation levels deep allocated 24 GB.
@pytest.mark.parametrize("path, data", [
    ("deep.md", b"# Deep\n\n" + b">" * 300 + b" quoted\n"),
    ("deep.md", b"".join(b"  " * i + b"- item\n" for i in range(300))),
    ("deep.md", b"# Deep\n\n" + b"- " * 300 + b"item\n"),  # list items opened on one line
    ("deep.md", b"> - " * 150 + b"item\n"),
    ("deep.rst", b"".join(b" " * i + b"x\n\n" for i in range(200))),
])
def test_a_document_nested_past_the_grammars_limits_is_named_not_parsed(tmp_path, path, data):
    texts, warnings = _parse_in_child(tmp_path, path, data)
    assert texts == []
    assert any("not parsed" in w for w in warnings), warnings


# The markdown block scanner passes the character after a line's leading digits to C's isdigit, which reads
# far past its table for a code point like U+C32D9: a SIGSEGV in about half the processes (it depends on the
# process's memory layout), so the document is parsed in several fresh processes.
def test_a_number_followed_by_a_rare_character_is_parsed_not_a_crash(tmp_path):
    lines = [f"{n}{chr(cp)} item" for n, cp in enumerate(range(0x20000, 0x110000, 0x800))]
    data = "".join(f"{line}\n\n" for line in lines).encode("utf-8")
    for _ in range(4):
        texts, warnings = _parse_in_child(tmp_path, "numbers.md", data)
        assert texts == lines and warnings == []


def test_real_nesting_is_parsed():
    from gitroute.parsing.documents import nesting_depth

    data = b"# T\n\n> a\n>> b\n\n- x\n  - y\n    - z\n"
    assert nesting_depth(data, count_markers=True) == 3
    assert len(parse_document("ok.md", data).blocks) >= 4


def test_a_run_of_open_brackets_is_read_as_plain_text_not_parsed_for_hours(tmp_path):
    # Unguarded, markdown_inline's time doubles with each bracket: 40 of them would take hours.
    paragraph = "*Note* " + "![" * 40 + ":**D"
    texts, warnings = _parse_in_child(tmp_path, "slow.md", f"# T\n\n{paragraph}\n\nAfter [a](b).\n".encode())
    assert texts == ["T", paragraph, "After a."]
    assert warnings == ["line 3: 40 brackets left open (more than 12): read as plain text"]


def test_open_brackets_counts_those_no_bracket_closes():
    from gitroute.parsing.documents import open_brackets

    assert open_brackets(b"[a](b) and [c] ]] " * 10 + b"[x") == 1
    assert open_brackets(b"[x [y") == 2  # few brackets: counted, not matched
    assert open_brackets(b"[" * 20 + b"]" * 20) == 0
    assert open_brackets(b"]" * 20 + b"[" * 20) == 20  # a `]` before them closes none


def test_rst_lines_ended_by_a_lone_carriage_return_are_lines(tmp_path):
    # Unguarded, each `<` on lines ended by "\r" alone scanned to the document's end: 8 KB took 1 s, so this 80 KB
    # would take about 100 s.
    data = b"Title\r=====\r\r" + b"<ab\r" * 20_000 + b"\rAfter ``that``.\r"
    texts, warnings = _parse_in_child(tmp_path, "mac.rst", data)
    assert texts[0] == "Title" and texts[-1] == "After that." and warnings == []


def test_rst_runs_without_blanks_past_the_budget_are_named_not_parsed(tmp_path):
    texts, warnings = _parse_in_child(tmp_path, "runs.rst", b"T\n=\n\nText " + b"ab[" * 20_000 + b"\n")
    assert texts == []
    assert warnings == ["long runs without blanks (cost 1200000000, more than 8000000): not parsed"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([b"a", b"[", b"(", b" ", b"\t", b"\n", b"\r", b"-", b"x" * 60]), max_size=80))
def test_rst_run_cost_is_the_runs_of_128_blank_free_bytes(parts):
    # The cost as first written, with a pattern: each run of 128 or more bytes that are not a space, a tab or a
    # newline, its length times its markup-start characters. (The split that replaced it finds the same runs.)
    import re

    from gitroute.parsing.documents import rst_run_cost

    data = b"".join(parts)
    expected = sum(len(m.group()) * sum(m.group().count(c) for c in b"[{(:<-")
                   for m in re.finditer(rb"[^ \t\n]{128,}", data))
    assert rst_run_cost(data) == expected


def test_rst_long_runs_that_are_no_markup_are_parsed():
    from gitroute.parsing.documents import parse_document

    image = b"data:image/png;base64," + b"iVBORw0KGgo+/=" * 10_000
    url = b"https://example.com/a-b/" + b"c-d(e)/" * 20
    doc = parse_document("doc.rst", b"T\n=\n\n.. image:: " + image + b"\n\nSee " + url + b" and ``after``.\n")
    assert doc is not None and doc.warnings == ()
    assert any(t.text == "after" for b in doc.blocks for t in b.tokens)


def test_a_paragraph_of_many_underscores_and_tildes_is_read_as_plain_text(tmp_path):
    # Unguarded, markdown_inline is quadratic in them: this 20 KB paragraph took 9.7 s.
    paragraph = "_z~Y " * 4000
    texts, warnings = _parse_in_child(tmp_path, "tildes.md", f"# T\n\n{paragraph}\n\nA `name`.\n".encode())
    assert texts == ["T", paragraph.strip(), "A name."]
    assert warnings == ["line 3: 19999 bytes with delimiters costing 159992000 (more than 4000000): read as "
                        "plain text"]


def _every_child_but_words(reader, node):  # what `_RstReader.markup` read before it read named children
    return [child for child in node.children if child.type != "text"]


_RST_SOUP = st.sampled_from(["`", "``", ":class:", ":func:`a.b`", "~", "::", ".. note::", ".. ", "\n", "  ", "=",
                             "*", "**", "|", "_", "__", "`x <y>`_", "a", "Flask", "\n\n", "   ", "- ", "1. ", "\xe9",
                             "\udc80", "+-+", "=== ===", "::\n\n    code\n\n"])


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_RST_SOUP, max_size=80))
@example(["Some text, see ", ":func:`a.b`", "::\n\n    code\n\n", " `x <y>`_::\n\n    more\n"])
@example(["Some text, see ", ":func:`a.b`", "::\n\n    code\n\n", "\udc80", " `x <y>`_::\n\n    more\n"])
def test_rst_blocks_are_the_same_read_from_named_children_or_every_child(parts: list[str]) -> None:
    from gitroute.parsing.documents import _RstReader

    data = "".join(parts).encode("utf-8", "surrogateescape")  # "\udc80" is a byte that is no UTF-8
    fast = parse_document("a.rst", data)
    named = _RstReader.markup
    _RstReader.markup = _every_child_but_words  # (hypothesis runs each example in this function: no monkeypatch)
    try:
        assert parse_document("a.rst", data) == fast
    finally:
        _RstReader.markup = named


def test_myst_roles_in_markdown_are_roles_and_their_markers_no_text() -> None:
    doc = _doc("docs/fit.md", "# Fit\n\nUse {py:func}`scipy.optimize.curve_fit`; {py:meth}`~xr.DataArray.curvefit` fits,"
                              " see {doc}`the guide <guide/fit>`, `plain` and {not a role} `x`.\n")
    assert ("role", "scipy.optimize.curve_fit", ":py:func:", 3) in _tokens(doc)
    assert ("role", "~xr.DataArray.curvefit", ":py:meth:", 3) in _tokens(doc)
    assert ("role", "guide/fit", ":doc:", 3) in _tokens(doc)
    assert ("code", "plain", "", 3) in _tokens(doc) and ("code", "x", "", 3) in _tokens(doc)
    assert doc.blocks[1].text == ("Use scipy.optimize.curve_fit; curvefit fits, see the guide, plain and {not a role} x.")


_MARKDOWN_SOUP = st.sampled_from(["word ", "Flask ", "\n", "\n\n", "# ", "- ", "1. ", "> ", "`", "``", "*", "**", "_",
                                  "__", "~", "~~", "\\", "[", "]", "(", ")", "![", "<", ">", "<http://a.b>", "&amp; ",
                                  "http://a.b/c ", "www.a.b ", "a@b.c ", "{py:func}", "  \n", "| a | b |\n", "|---|\n",
                                  "\xe9", "\udc80", "!", "$x$ ", ":smile: ", "@", "#", "    code\n"])


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_MARKDOWN_SOUP, max_size=60))
@example(["# ", "Title", "\n\n", "word ", "www.a.b ", "&amp; ", "  \n", "word ", "\n\n", "- ", "`", "x", "`", "\n"])
def test_markdown_runs_without_markup_read_as_the_inline_grammar_reads_them(parts: list[str]) -> None:
    # A run with no character that opens inline markup is taken as its own text, unparsed: exactly what the
    # inline grammar's reading of it gives (every run parsed, below).
    import re

    from gitroute.parsing import documents

    data = "".join(parts).encode("utf-8", "surrogateescape")
    fast = parse_document("a.md", data)
    taken = documents._INLINE_MARKUP
    documents._INLINE_MARKUP = re.compile(rb"")  # every run "has markup": each one parsed
    try:
        assert parse_document("a.md", data) == fast
    finally:
        documents._INLINE_MARKUP = taken


def test_markdown_prose_without_markup_is_its_text_and_markup_still_tokens() -> None:
    doc = _doc("README.md", "# Use\n\nPlain words, http://a.b and &amp; stay.  \nNext line.\n\nCall `run()` now.\n")
    texts = [b.text for b in doc.blocks]
    assert "Plain words, http://a.b and &amp; stay.  \nNext line." in texts
    assert "Call run() now." in texts
    assert [(t.kind, t.text) for b in doc.blocks for t in b.tokens] == [("code", "run()")]


def test_a_txt_of_prose_under_a_docs_folder_is_a_document_and_requirements_are_not() -> None:
    # zlib's doc/algorithm.txt ("Which document explains how the compressor finds repeated strings …?") was no
    # document: a .txt was read only as reStructuredText, AsciiDoc, or under a name such as CHANGES
    prose = (b"1. Compression algorithm (deflate)\n\nThe deflation algorithm used by gzip is a variation of LZ77.\n"
             b"It finds duplicated strings in the input data and replaces them with a pointer to the first.\n"
             b"Duplicated strings are found using a hash table of all the strings of three bytes.\n")
    assert document_format("doc/algorithm.txt", prose) == "markdown"
    assert document_format("src/algorithm.txt", prose) is None  # not under a docs folder: data, often
    assert document_format("docs/requirements.txt", b"sphinx==7.0\nfuro\nmyst-parser>=2\n") is None
    assert document_format("docs/requirements-docs.txt", prose) is None
    assert document_format("docs/spelling-wordlist.txt", b"iterable\nmonkeypatch\nnamespace\nnullable\n") is None
    headings = [(b.text, b.name) for b in _doc("doc/algorithm.txt", prose.decode()).blocks if b.kind == "heading"]
    assert headings == [("1. Compression algorithm (deflate)", "1")]


def test_a_numbered_line_between_blank_lines_of_plain_text_is_a_section_title() -> None:
    # zlib's FAQ: " 28. Can I access data randomly in a compressed stream?" then its indented answer
    faq = ("                Frequently Asked Questions about zlib\n\n"
           " 27. Can zlib handle .zip archives?\n\n    Not by itself, no.  See the directory contrib/minizip.\n\n"
           " 28. Can I access data randomly in a compressed stream?\n\n    No, not without some preparation.\n\n"
           " 29. Does zlib work on 64-bit systems?\n\n    Yes.\n")
    document = _doc("FAQ", faq)
    assert [b.text for b in document.blocks if b.kind == "heading"] == [
        "27. Can zlib handle .zip archives?", "28. Can I access data randomly in a compressed stream?",
        "29. Does zlib work on 64-bit systems?"]
    answer = next(b for b in document.blocks if b.text.startswith("No, not without"))
    assert answer.kind == "paragraph" and answer.line == 9 and answer.section == 3  # under its question
    # a Markdown file's numbered list stays a list, and so does a plain list of sentences or of lines close together
    assert "heading" not in _kinds(_doc("docs/faq.md", faq))
    steps = "Install\n\n1. Download the archive.\n\n2. Unpack it where you keep tools.\n\n3. Run make\n4. Run make install\n"
    assert "heading" not in _kinds(_doc("INSTALL", steps))


LPEG_PAGE = b"""<!DOCTYPE html>
<html><head><title>LPeg</title><style>h1 { color: red }</style><script>var x = "<h2>no</h2>";</script></head>
<body>
<h1>LPeg</h1>
<p>LPeg is a pattern-matching library for Lua, based on <a href="#peg">Parsing Expression Grammars</a>.
<h3><a name="f-setmaxstack"></a><code>lpeg.setmaxstack (max)</code></h3>
<p>
Sets a limit for the size of the backtrack stack used by LPeg to track calls and choices.
Use <code>lpeg.setmaxstack</code> to raise it.
<pre class="example">
lpeg.setmaxstack(400)
</pre>
<ul><li>A list item <tt>patt^n</tt></li></ul>
</body></html>
"""


def test_an_html_manual_is_read_as_headings_paragraphs_and_code() -> None:
    # LPeg documents itself in lpeg.html and re.html only: "Which section of the manual explains how to raise the
    # backtracking stack limit …?" had no document to answer from
    assert document_kind("lpeg.html") == "html" and document_format("lpeg.html", LPEG_PAGE) == "html"
    document = _doc("lpeg.html", LPEG_PAGE.decode())
    blocks = [(b.kind, b.line, b.text, b.level) for b in document.blocks]
    assert blocks[0] == ("heading", 4, "LPeg", 1)
    assert ("heading", 6, "lpeg.setmaxstack (max)", 3) in blocks
    paragraph = next(b for b in document.blocks if b.text.startswith("Sets a limit"))
    assert paragraph.kind == "paragraph" and paragraph.line == 7
    assert [t.text for t in paragraph.tokens] == ["lpeg.setmaxstack"]
    assert any(b.kind == "code" and "lpeg.setmaxstack(400)" in b.text for b in document.blocks)
    assert any(b.kind == "list_item" and b.text == "A list item patt^n" for b in document.blocks)
    assert not any("no" == b.text or "color" in b.text for b in document.blocks)  # no script, no style


def test_a_built_manual_s_permalink_is_no_part_of_its_heading() -> None:
    # Mako ships its Sphinx-built pages: "Specifying the Encoding of a Template File¶" was the heading
    page = ('<html><body><h2>Specifying the Encoding of a Template File<a class="headerlink" href="#s" '
            'title="Permalink">\u00b6</a></h2>\n<p>Mako reads the magic encoding comment of a template.</p>\n'
            '</body></html>\n')
    document = _doc("doc/unicode.html", page)
    assert document.blocks[0].text == "Specifying the Encoding of a Template File"


def test_an_html_template_or_fragment_is_no_document() -> None:
    # a Django or Jinja template, a Jekyll layout, a PHP page, a page with no heading and paragraph
    for page in (b"{% extends 'base.html' %}<h1>{{ title }}</h1><p>x</p>", b"<h1>{{ page.title }}</h1><p>x</p>",
                 b"<h1>Hi</h1><p><%= name %></p>", b"<?php echo 1; ?><h1>x</h1><p>y</p>",
                 b"<footer>Copyright</footer>"):
        assert document_format("docs/_layouts/page.html", page) is None, page
    # a page a documentation tool made from the repository's own sources is their copy (lua-cjson's manual.html from
    # its AsciiDoc manual.txt outranked it; Penlight's LDoc pages outranked its Markdown topics)
    made = b'<html><head><meta name="generator" content="AsciiDoc 8.4.5" /></head><h2>encode</h2><p>Encodes.</p>'
    assert document_format("manual.html", made) is None
    footer = b"<h1>Penlight</h1><p>Lua libraries.</p>" + b"<p>x</p>" * 50 + b'<i>generated by <a href="#">LDoc 1.5.0</a></i>'
    assert document_format("docs/manual/09-discussion.md.html", footer) is None
    # a manual that shows patterns like a template's is still a manual (LPeg's re.html)
    manual = b"<h2>Syntax</h2><p>Use <code>{%a+}</code> to capture, or <code>{{\"hi\"}}</code> for a table.</p>"
    assert document_format("re.html", manual) == "html"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.text(alphabet="<>/=\"' abcdhp1&;#{}%\n", max_size=300))
def test_the_html_reader_never_raises(text: str) -> None:
    from gitroute.parsing import html

    found: list = []
    html.read(("<h1>t</h1><p>" + text).encode(), lambda *block: found.append(block))
    assert all(isinstance(block[1], int) and block[1] >= 1 for block in found)


def test_plain_text_documents_are_read_so_through_a_build(make_repo, route) -> None:
    # A build parses a blob by its kind's path, not its own (the extraction key holds no path): cmark's
    # changelog.txt, zlib's FAQ and doc/algorithm.txt read as "document.txt" and "document.md" were no document, or
    # one without the sections their numbered titles open
    import json

    repo = make_repo("plain")
    repo.commit({
        "changelog.txt": "[0.30.2]\n\n  * Fix parsing of emphasis before links.\n\n  * Update to Unicode 14.0.\n",
        "FAQ": (" 27. Can zlib handle .zip archives?\n\n    Not by itself, no.\n\n"
                " 28. Can I access data randomly in a compressed stream?\n\n    No, not without some preparation.\n"),
        "doc/algorithm.txt": ("1. Compression algorithm (deflate)\n\nThe deflation algorithm used by gzip is a "
                              "variation of LZ77 that finds duplicated strings.\nDuplicated strings are found using a "
                              "hash table of all the strings of three bytes.\nThe hash chains are searched starting "
                              "with the most recent strings first.\n"),
        "src/zip.c": "int deflate(int level) { return level; }\n",
        "lpeg.html": LPEG_PAGE.decode(),
    }, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    for question, path, section in (
            ("emphasis before links", "changelog.txt", None),
            ("access data randomly in a compressed stream", "FAQ",
             "28. Can I access data randomly in a compressed stream?"),
            ("duplicated strings found using a hash table", "doc/algorithm.txt", "1. Compression algorithm (deflate)"),
            ("raise the size limit of the backtrack stack", "lpeg.html", "lpeg.setmaxstack (max)")):
        doc = json.loads(route(["why", "--json", question], repo.path).stdout)
        assert doc["rows"] and doc["rows"][0]["path"] == path, (question, doc)
        assert section is None or doc["rows"][0]["name"] == section, (question, doc["rows"][0])
