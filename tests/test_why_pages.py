"""`why` reads every document's sections (issue 21): an ordinary page answers a why question no record discusses,
behind the records and design sections that do, with its own BM25 statistics and one more of the question's words in
a paragraph; a changelog file is a page, a folder of release notes is not. Real builds of Python (reStructuredText), Go and PHP
(Markdown) repositories."""
from __future__ import annotations

import json

import pytest

from tests.conftest import RepoBuilder, run_route

APP = "class Model:\n    def __init__(self, _secret):\n        self.secret = _secret\n"
ADR_TABS = """# 1. Use tabs

## Status

Accepted

## Decision

We indent with tabs, one per level, everywhere in the repository.
"""
INIT_RST = """Initialization
==============

Private attributes
------------------

The generated ``__init__`` strips the leading underscore of a private attribute, because an argument
named ``_secret`` reads badly at the call site: callers pass ``secret=``.

Defaults
--------

A default is evaluated once, when the class is built.
"""
STYLE_MD = """# Style

## Indentation

Most files here are indented with tabs; editors show one tab per level.
"""
CHANGES_MD = """# Changes

## 2.0

- The generated init strips the leading underscore of private attributes.
- The legacy flag is deprecated and warns: nobody could set it safely from a subclass.
"""
RELEASE_NOTES = "# 1.0\n\nThe release notes format changed; marketing wanted it.\n"
RELEASE_PAGE = """# Releasing

## Steps

Format the release notes as a list before tagging.
"""


def built(repo: RepoBuilder, files: dict[str, str]) -> RepoBuilder:
    repo.commit(files, "initial")
    result = run_route(["build", "-q"], repo.path)
    assert result.exit_code == 0, result.stderr
    return repo


def why(repo: RepoBuilder, *args: str) -> dict:
    result = run_route(["why", "--json", "--explain", *args], repo.path)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def python_repo(tmp_path_factory: pytest.TempPathFactory) -> RepoBuilder:
    return built(RepoBuilder(tmp_path_factory.mktemp("models") / "models"), {
        "models/core.py": APP, "docs/adr/0001-use-tabs.md": ADR_TABS, "docs/init.rst": INIT_RST,
        "docs/style.md": STYLE_MD, "docs/releasing.md": RELEASE_PAGE,
    })


def test_an_ordinary_page_answers_a_why_question_no_record_discusses(python_repo):
    doc = why(python_repo, "why does the generated __init__ strip the leading underscore of private attributes")
    first = doc["rows"][0]
    assert (first["path"], first["section"], first["record_format"]) == ("docs/init.rst", "Private attributes", "page")
    assert "no decision record answers: these are sections of other documents" in doc["notes"]
    status = json.loads(run_route(["status", "--json"], python_repo.path).stdout)["indexes"]["decisions"]
    assert status["records"] == 1  # pages are rows, never records


def test_a_record_that_discusses_the_question_comes_before_a_page(python_repo):
    # the style page says "indented with tabs … one tab per level" too: the record that decided it answers first
    rows = why(python_repo, "why do we indent with tabs, one per level")["rows"]
    assert rows[0]["path"] == "docs/adr/0001-use-tabs.md"
    assert "docs/style.md" in [r["path"] for r in rows]


def test_a_changelog_entry_is_a_page_and_release_notes_in_their_folder_are_not(tmp_path):
    repo = built(RepoBuilder(tmp_path / "changes"), {
        "models/core.py": APP, "docs/init.rst": INIT_RST, "CHANGES.md": CHANGES_MD,
        "docs/releases/1.0.md": RELEASE_NOTES})
    # the page that explains comes before the changelog entry that only says it changed
    rows = why(repo, "why does the generated init strip the leading underscore of private attributes")["rows"]
    assert [r["path"] for r in rows][:2] == ["docs/init.rst", "CHANGES.md"]
    # what only a changelog entry says: why something started to warn
    first = why(repo, "why did the legacy flag start to warn when a subclass sets it?")["rows"][0]
    assert (first["path"], first["section"], first["record_format"]) == ("CHANGES.md", "2.0", "page")
    doc = why(repo, "why did the release notes format change? marketing?")
    assert "docs/releases/1.0.md" not in {r["path"] for r in doc["rows"]}


def test_a_changelog_without_an_extension_is_a_page_in_capitals_or_capitalised(tmp_path):
    # libsodium's GNU-style `ChangeLog` and jansson's `CHANGES` say why a primitive was removed; neither was a page
    # `why` read (only names ending .md, .rst or .txt were), and `ChangeLog`, not in capitals, no document at all
    repo = built(RepoBuilder(tmp_path / "gnu"), {
        "models/core.py": APP,
        "ChangeLog": "* Version 1.0.15\n - The counter mode primitive was removed. It was slow, non-standard and not "
                     "authenticated.\n",
        "CHANGES": "Version 2.14\n============\n\nSymbol versioning for every exported symbol, so that two copies "
                   "linked into one program never clash.\n",
        "changes": "#!/bin/sh\necho the counter mode primitive was removed: slow and not authenticated\n"})
    rows = why(repo, "why was the counter mode primitive removed?")["rows"]
    assert rows[0]["path"] == "ChangeLog" and "changes" not in {r["path"] for r in rows}
    assert why(repo, "why was symbol versioning added for every exported symbol?")["rows"][0]["path"] == "CHANGES"


def test_a_texinfo_manual_s_sections_are_pages(tmp_path):
    # libconfig's manual is doc/libconfig.texi (GNU Texinfo): its "Multithreading Issues" section was no page
    manual = ("\\input texinfo\n@node Top\n@top conf\n\n@chapter Using the Library\n\n@section Multithreading Issues\n"
              "A @code{config_t} object may be shared between threads only when no thread writes to it.\n\n"
              "@section Comments\nA comment starts with a hash sign.\n")
    repo = built(RepoBuilder(tmp_path / "texi"), {"models/core.py": APP, "doc/conf.texi": manual})
    rows = why(repo, "which part of the manual explains whether an object may be shared between threads?")["rows"]
    assert (rows[0]["path"], rows[0]["section"]) == ("doc/conf.texi", "Multithreading Issues")


def test_a_maven_site_page_s_sections_are_pages(tmp_path):
    # commons-text keeps its user guide and security notes as src/site/xdoc/*.xml: no section of them was a page
    page = ('<?xml version="1.0"?>\n<document>\n<properties><title>Security</title></properties>\n<body>\n'
            '<section name="Interpolation off by default">\n<p>Since 1.10 the script and URL lookups are off by default:'
            ' an untrusted string could run a script.</p>\n</section>\n</body>\n</document>\n')
    repo = built(RepoBuilder(tmp_path / "xdoc"), {"models/core.py": APP, "src/site/xdoc/security.xml": page,
                                                 "pom.xml": "<project><artifactId>text</artifactId></project>\n"})
    rows = why(repo, "why are the script and URL lookups off by default since 1.10?")["rows"]
    assert (rows[0]["path"], rows[0]["section"]) == ("src/site/xdoc/security.xml", "Interpolation off by default")


def test_a_security_policy_maintainers_rules_and_a_guide_named_security_are_pages_and_a_licence_is_not(tmp_path):
    # Slim's MAINTAINERS.md says why maintainers don't merge their own pull requests; django's "Security in Django"
    # guide is docs/topics/security.txt: by their names, neither was a page `why` read
    repo = built(RepoBuilder(tmp_path / "policies"), {
        "models/core.py": APP,
        "MAINTAINERS.md": "# Maintainers\n\n## We don't merge our own pull requests\n\nA second reviewer spots "
                          "errors in the patch, so maintainers never merge their own pull requests.\n",
        "docs/topics/security.txt": "Security\n========\n\nClickjacking protection\n-----------------------\n\n"
                                    "The middleware sends a header that stops browsers framing the site.\n",
        "LICENSE.md": "# Licence\n\nPermission is granted to merge, publish and reviewer copies of the patch.\n"})
    rows = why(repo, "why don't maintainers merge their own pull requests?")["rows"]
    assert rows[0]["path"] == "MAINTAINERS.md"
    assert "LICENSE.md" not in {r["path"] for r in rows}
    framed = why(repo, "which section explains how browsers are stopped from framing the site?")["rows"]
    assert framed[0]["path"] == "docs/topics/security.txt"


def test_a_page_needs_one_more_of_the_questions_words_in_a_paragraph(python_repo, tmp_path):
    # "release notes … format" are three of the question's four words in one paragraph of a how-to page: chance
    question = "how should I format the release notes for marketing"
    assert why(python_repo, question)["status"] == "no_match"
    # the same paragraph in a record answers: a record holds little prose beyond what it decides
    record = built(RepoBuilder(tmp_path / "record"), {"models/core.py": APP, "docs/adr/0002-releasing.md":
                                                     "# 2. Releasing\n\n## Decision\n\n"
                                                     "Format the release notes as a list before tagging.\n"})
    assert why(record, question)["status"] == "routed"


def test_a_page_section_whose_heading_holds_a_word_asked_needs_no_word_more(tmp_path):
    # cJSON's README: "Thread Safety … thread safe under the following conditions" holds three of the question's
    # words, one of them in its own heading: the section is about them, no chance meeting in a how-to's prose
    repo = built(RepoBuilder(tmp_path / "threads"), {
        "models/core.py": APP,
        "docs/guide.md": "# Guide\n\n## Thread Safety\n\nIn general the parser is not thread safe.\n\nIt is "
                         "thread safe under the following conditions: hooks are set before any thread starts.\n",
    })
    doc = why(repo, "under what conditions is the parser safe from several threads")
    assert doc["status"] == "routed"
    assert doc["rows"][0]["name"] == "Thread Safety"


def test_a_heading_that_holds_a_longer_form_of_a_word_asked_counts_as_holding_it(tmp_path):
    # joi's README: "## Installation" over "npm install joi": the stemmer folds inflections, not "installation"
    repo = built(RepoBuilder(tmp_path / "install"), {
        "models/core.py": APP,
        "README.md": "# joi\n\n## Installation\n\nRun `npm install joi`.\n\n## Resources\n\nThe project's site.\n",
    })
    doc = why(repo, "how to install joi into my Node project with the npm command")
    assert doc["status"] == "routed", doc["notes"]
    assert doc["rows"][0]["name"] == "Installation"


def test_a_page_in_a_test_folder_is_a_fixture_behind_the_documentation_but_its_readme_is_not(tmp_path):
    # Mako's test/templates/internationalization.html (a page its tests render) came before its unicode guide
    fixture = ("# Unicode\n\n## Encoding\n\nA template file declares the character encoding it is written in: "
               "the encoding declared, the characters written, the template file's encoding.\n")
    guide = "# Unicode\n\n## Templates\n\nA template file may declare the encoding it is written in.\n"
    repo = built(RepoBuilder(tmp_path / "fixtures"), {
        "models/core.py": APP, "test/templates/unicode.md": fixture, "docs/unicode.md": guide,
        "tests/README.md": "# Tests\n\n## Running\n\nRun the unit tests with the test runner before a release.\n"})
    rows = why(repo, "where do the docs explain how to declare the character encoding a template file is written in")[
        "rows"]
    paths = [r["path"] for r in rows]
    assert paths[0] == "docs/unicode.md", rows
    assert "test/templates/unicode.md" in paths, rows  # behind, not gone
    rows = why(repo, "how do I run the unit tests before a release")["rows"]
    assert rows and rows[0]["path"] == "tests/README.md", rows


def test_the_newest_version_folder_s_copy_of_a_page_answers_and_older_copies_follow(tmp_path):
    # league/commonmark keeps docs/1.6 … docs/2.7: the same section in each, the oldest first by path
    tables = "# Tables\n\n## Wrapping Container\n\nPut every rendered table inside a container div element.\n"
    repo = built(RepoBuilder(tmp_path / "versions"), {
        "models/core.py": APP, **{f"docs/{v}/tables.md": tables for v in ("1.6", "2.0", "2.10", "2.9")},
        "docs/guide.md": "# Guide\n\n## Layout\n\nA container div element holds every rendered table widget.\n",
    })
    rows = why(repo, "how do I put every rendered table in a container div element")["rows"]
    paths = [r["path"] for r in rows]
    assert paths[0] == "docs/2.10/tables.md", paths
    assert paths.index("docs/guide.md") < paths.index("docs/2.9/tables.md"), paths
    assert paths[-3:] == ["docs/1.6/tables.md", "docs/2.0/tables.md", "docs/2.9/tables.md"], paths


def test_an_asciidoc_manual_s_sections_are_pages(tmp_path):
    # lua-cjson's manual.txt: "why does the decoder refuse JSON nested past a thousand levels?"
    manual = ("= Lua CJSON Manual =\nMark <m@example.org>\n\ndecode_max_depth\n~~~~~~~~~~~~~~~~\n\n"
              "[source,lua]\n----\ndepth = cjson.decode_max_depth([max_depth])\n----\n\n"
              "Prevent a deeply nested or recursive JSON document from overflowing the stack: by default the decoder "
              "refuses JSON nested more than 1000 levels deep.\n")
    repo = built(RepoBuilder(tmp_path / "asciidoc"), {"models/core.py": APP, "manual.txt": manual,
                                                      "docs/guide.adoc": "= Guide\n\n== Tabs\n\nIndent with tabs.\n"})
    rows = why(repo, "why does the decoder refuse JSON nested too deep, overflowing the stack?")["rows"]
    assert (rows[0]["path"], rows[0]["name"]) == ("manual.txt", "decode_max_depth"), rows


def test_pages_never_change_how_records_rank(python_repo, tmp_path):
    alone = built(RepoBuilder(tmp_path / "alone"), {"models/core.py": APP, "docs/adr/0001-use-tabs.md": ADR_TABS})
    question = "why do we indent with tabs"
    scores = [(r["path"], r["section"], r["score"]) for r in why(alone, question)["rows"]]
    with_pages = [(r["path"], r["section"], r["score"]) for r in why(python_repo, question)["rows"]
                  if r.get("record_format") != "page"]
    assert with_pages == scores


GO_SERVER = "package tinyd\n\n// Upload sends a file once.\nfunc Upload(path string) error {\n\treturn nil\n}\n"
GO_UPLOADS = """# Uploads

## Retries

tinyd never retries a failed upload itself: a retry after a timeout can store the file twice, so the
caller decides whether to send it again.
"""


def test_ask_reaches_a_page_from_a_why_sentence_in_go(tmp_path):
    repo = built(RepoBuilder(tmp_path / "tinyd"), {"go.mod": "module tinyd\n", "upload.go": GO_SERVER,
                                                  "docs/uploads.md": GO_UPLOADS})
    result = run_route(["ask", "--json", "--explain", "Why doesn't tinyd retry a failed upload by itself?"], repo.path)
    doc = json.loads(result.stdout)
    assert doc["classification"]["routes"][0]["kind"] == "decision"
    assert (doc["rows"][0]["path"], doc["rows"][0]["section"]) == ("docs/uploads.md", "Retries")


PHP_REGISTRY = "<?php\nnamespace Logger;\n\nclass Registry\n{\n    public static function get($name) {}\n}\n"
PHP_DOC = """# Utilities

## Why a global registry?

The `Logger\\Registry` class keeps loggers by name, because passing a logger through every layer of a legacy
application was more churn than teams would accept.
"""


def test_a_php_namespace_names_its_class_and_a_page_answers_why(tmp_path):
    repo = built(RepoBuilder(tmp_path / "logger"), {"composer.json": '{"name": "acme/logger"}\n',
                                                   "src/Logger/Registry.php": PHP_REGISTRY,
                                                   "doc/utilities.md": PHP_DOC})
    docs = json.loads(run_route(["docs", "--json", "src/Logger/Registry.php"], repo.path).stdout)
    assert docs["rows"][0]["path"] == "doc/utilities.md"
    code = json.loads(run_route(["code", "--json", "doc/utilities.md"], repo.path).stdout)
    assert code["rows"][0]["path"] == "src/Logger/Registry.php"
    assert why(repo, "why a global registry of loggers instead of passing one through every layer")["rows"][0][
        "path"] == "doc/utilities.md"


CONFIG_RST = """Configuration
=============

Configuration handling
----------------------

Configuration values live in a mapping. Configuration values can be loaded from files, and configuration values
from the environment override configuration values from files; every configuration value has a default.

Builtin configuration values
----------------------------

These are read internally: DEBUG and TESTING.
"""


def test_a_section_whose_heading_holds_every_word_asked_comes_first(tmp_path):
    # "configuration" and "values" fill the handling section's paragraph: by BM25 it ranked first, and the section the
    # question names by its heading was not even among the three rows the no_match rule reads.
    repo = built(RepoBuilder(tmp_path / "conf"), {"app/core.py": APP, "docs/config.rst": CONFIG_RST})
    rows = why(repo, "where is builtin configuration values")["rows"]
    assert rows[0]["section"] == "Builtin configuration values"
    assert rows[0]["signals"]["heading"] > 0


def test_a_section_of_code_alone_under_its_heading_is_a_row(tmp_path):
    # xml2js's README: "Promise usage", over one example and no sentence, was no row, and "which section shows how to
    # get a promise back instead of a callback" found "Parsing multiple files", whose prose mentions promises
    example = ("```js\nvar xml = '<foo></foo>';\n// With parser\nnew Parser().parseStringPromise(xml).then(show);\n"
               "// Without parser\nparseStringPromise(xml).then(show);\n```\n")
    repo = built(RepoBuilder(tmp_path / "promises"), {
        "models/core.py": APP,
        "README.md": "# demo\n\nParse XML documents.\n\n## Callback usage\n\nPass a callback; it gets the result.\n\n"
                     f"## Promise usage\n\n{example}\n## Parsing many files\n\nReuse one parser, or use promises for "
                     "each file.\n",
    })
    doc = why(repo, "how to parse XML and get a promise back, with and without creating a parser")
    assert doc["status"] == "routed"
    assert doc["rows"][0]["name"] == "Promise usage", doc["rows"]
    assert "parseStringPromise" in doc["rows"][0]["text"]  # its example is what the row shows
