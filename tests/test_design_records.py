"""Design records of any shape (issue 21): which documents are records, one `why` row per section, the
section the kind of question asks for, short questions against titles, and design documents when a
repository has no record. Each through real builds of repositories in three languages."""
from __future__ import annotations

import json

import pytest

from gitroute.config import parse_config
from gitroute.errors import ConfigError
from gitroute.indexes.decisions import parse_why, question_kind
from gitroute.parsing.documents import parse_document
from gitroute.records import collect_records, record_reason
from tests.test_decisions import MADR as MADR_QUEUE  # a MADR record with front matter: the job queue

NYGARD_TABS = """# 1. Use tabs

## Status

Accepted

## Context

Contributors argue about indentation in every review.

## Decision

We indent with tabs, one per level, everywhere in the repository.

## Consequences

- Editors must show a tab as four columns.
"""

# A numbered Markdown proposal with no status, in a `design/` folder.
PROPOSAL_LAZY = """# Lazy loading of plugins

## Abstract

Plugins load on first use instead of at start.

## Motivation

Start-up takes four seconds because every plugin imports its dependencies at once.

## Rationale

Importing on first use moves the cost to the first call of each plugin, which most sessions never make.

## Rejected ideas

### Preloading in a background thread

Threads race with the import lock and deadlock on some platforms.

### A plugin cache on disk

The cache goes stale when a plugin is upgraded and nobody notices.
"""

# An rst design page: a record by its title, sections without any record heading.
DESIGN_RST = """Design Decisions in Webapp
==========================

If you wonder why webapp does things the way it does, this page is for you.

Thread Locals
-------------

Webapp keeps the current request in a context-local object rather than passing it into every view
function, so that helpers deep in the call stack can read it without threading it through.

One Template Engine
-------------------

Webapp ships one template engine and does not make engines pluggable: one engine keeps the extension
interface small and the documentation short.

Requests Are Not Named Tuples
-----------------------------

A request is a class of its own rather than a named tuple: named tuples iterate over their fields and
compare equal to plain tuples, which hides bugs in views.
"""

# A proposal by its title alone, and one by its Rust-RFC-style fields.
TITLED = """# Proposal: streaming uploads

Uploads are read in chunks of one megabyte and handed to the view as they arrive.

## Buffering

Nothing is buffered on disk: a slow client holds one chunk of memory.
"""
FIELDS = """- Feature Name: async_hooks
- Start Date: 2024-01-01
- RFC PR: 42

# Summary

Hooks may be coroutines, awaited in registration order.

# Guide-level explanation

A hook declared with async def is awaited before the next hook runs.
"""
# A record by its sections: Motivation and Alternatives.
SECTIONS = """# The response cache

## Motivation

Rendering the front page costs forty milliseconds of template work per request.

## Alternatives

- Caching in a reverse proxy: rejected, it cannot see the session cookie.
"""
# Ordinary documents: options, limitations, a FAQ with a "why" question, a README listing alternatives.
QUICKSTART = """# Quickstart

## Options

Pass --port to choose the port.

## Limitations

One worker per process.
"""
FAQ = """# FAQ

## Why does webapp need Python 3.11?

It uses exception groups to report every failed hook of a request at once.

## How do I change the port?

Pass --port.
"""
README = """# webapp

A small web framework.

## Alternatives

Flask and Bottle do the same with more features.
"""
APP = "def handle(request):\n    return render(request)\n\n\ndef render(request):\n    return str(request)\n"


def doc_of(path: str, text: str):
    return parse_document(path, text.encode())


@pytest.mark.parametrize(("path", "text", "reason"), [
    ("docs/adr/0001-use-tabs.md", NYGARD_TABS, "folder"),
    ("design/0003-lazy-loading.md", PROPOSAL_LAZY, "folder"),
    ("docs/design.rst", DESIGN_RST, "name"),
    ("docs/pages/decisions-page.rst", DESIGN_RST, "title"),
    ("docs/notes/streaming.md", TITLED, "title"),
    ("text/0042-async-hooks.md", FIELDS, "fields"),
    ("docs/internals/cache.md", SECTIONS, "sections"),
    ("docs/quickstart.md", QUICKSTART, None),
    ("docs/faq.md", FAQ, None),
    ("README.md", README, None),
    ("docs/usage.md", README.replace("# webapp", "# Usage"), None),
])
def test_a_record_is_found_by_folder_name_title_fields_or_sections(path, text, reason):
    assert record_reason(path, doc_of(path, text), text.encode()[:4096]) == reason


def test_kep_front_matter_without_status_makes_a_record():
    text = "---\ntitle: Sidecar containers\nkep-number: 753\nauthors:\n  - a\n---\n# Sidecars\n\nThey start first.\n"
    assert record_reason("keps-notes/sidecars.md", doc_of("x.md", text), text.encode()) == "fields"


def test_pep_style_header_gives_title_and_status():
    text = ("PEP: 8\nTitle: Style Guide for Python Code\nAuthor: Guido\nStatus: Active\n\n"
            "Introduction\n============\n\nThis document gives coding conventions.\n")
    path = "peps/pep-0008.rst"
    record = collect_records([(path, text.encode())], {path: doc_of(path, text)})[0]
    assert record.status == "accepted"
    assert [s.label for s in record.sections] == ["Introduction"]


def test_numbered_headings_are_sections_named_as_written():
    text = "# Proposal: flexible indexes\n\n## 2.2.3 Implicit default indexes\n\nBuilt eagerly for 1D coordinates.\n"
    path = "design_notes/indexes.md"
    record = collect_records([(path, text.encode())], {path: doc_of(path, text)})[0]
    assert "2.2.3 Implicit default indexes" in [s.label for s in record.sections]


@pytest.mark.parametrize(("question", "kind"), [
    ("why not preload plugins in a background thread", "alternatives"),
    ("was the disk cache for plugins rejected", "alternatives"),
    ("what else was considered for the job queue", "alternatives"),
    ("was Redis dropped", "alternatives"),
    ("why keep the request in a context local instead of passing it to views", "choice"),
    ("why did we choose PostgreSQL for the job queue", "decision"),
    ("what was the reasoning behind lazy loading", "decision"),
    ("tabs or spaces", ""),
])
def test_the_kind_of_why_question(question, kind):
    assert question_kind(question)[0] == kind


def test_contractions_ask_and_name_nothing():
    assert parse_why("why doesn't webapp use a metaclass").tokens == ("webapp", "metaclass")
    assert parse_why("why isn't the engine pluggable").tokens == ("engin", "pluggabl")


# ------------------------------------------------------------------------------------------ through builds


@pytest.fixture
def python_repo(make_repo, route):
    """A Python web framework with records in four shapes and ordinary documents beside them."""
    repo = make_repo("webapp")
    repo.commit({
        "webapp/app.py": APP,
        "docs/adr/0001-use-tabs.md": NYGARD_TABS,
        "docs/adr/0002-job-queue.md": MADR_QUEUE,
        "design/0003-lazy-loading.md": PROPOSAL_LAZY,
        "docs/design.rst": DESIGN_RST,
        "docs/notes/streaming.md": TITLED,
        "docs/internals/cache.md": SECTIONS,
        "docs/quickstart.md": QUICKSTART,
        "docs/faq.md": FAQ,
        "README.md": README,
    })
    built = route(["build", "-q"], repo.path)
    assert built.exit_code == 0, built.stderr
    return repo


def why(route, repo, *args: str) -> dict:
    result = route(["why", "--json", *args], repo.path)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_records_of_every_shape_and_no_ordinary_document(python_repo, route):
    status = json.loads(route(["status", "--json"], python_repo.path).stdout)
    counts = status["indexes"]["decisions"]
    assert counts["records"] == 6  # the two ADRs, the proposal, the design page, the titled one, the sections one
    assert counts["design_documents"] == 2  # the FAQ's "why" section and the README's alternatives
    assert counts["format_madr"] == 1 and counts["format_nygard"] == 1 and counts["format_design"] >= 1


def test_design_page_sections_answer_why(python_repo, route):
    doc = why(route, python_repo, "why is the request kept in a context local object instead of passed to views")
    first = doc["rows"][0]
    assert (first["path"], first["section"]) == ("docs/design.rst", "Thread Locals")
    assert first["record"] == "Design Decisions in Webapp" and first["status"] == "unknown"


def test_why_rows_are_one_per_record_section(python_repo, route):
    for question in ("why PostgreSQL and not Redis lists for the job queue",
                     "why load plugins lazily on first use and not at start"):
        rows = why(route, python_repo, question)["rows"]
        keys = [(r["path"], r["section"]) for r in rows]
        assert len(rows) >= 3 and len(keys) == len(set(keys))


def test_a_why_not_question_gets_the_alternatives_and_a_why_question_the_decision(python_repo, route):
    rejected = why(route, python_repo, "why not preload plugins in a background thread")["rows"][0]
    assert rejected["path"] == "design/0003-lazy-loading.md"
    assert rejected["section_kind"] == "alternative"
    assert rejected["section"] == "Preloading in a background thread"
    chosen = why(route, python_repo, "why did we choose PostgreSQL with SKIP LOCKED for the job queue")["rows"][0]
    assert (chosen["path"], chosen["section"]) == ("docs/adr/0002-job-queue.md", "Decision Outcome")
    assert chosen["text"].startswith("Chosen option")


def test_explain_says_which_sections_the_question_asks_for(python_repo, route):
    doc = why(route, python_repo, "--explain", "why not preload plugins in a background thread")
    assert "the question asks for the alternatives ('why not')" in doc["notes"]
    assert any(k.startswith("asks_for:") for k in doc["rows"][0]["signals"])


def test_title_and_status_on_every_row_in_json_and_text(python_repo, route):
    doc = why(route, python_repo, "why PostgreSQL and not Redis lists for the job queue")
    assert all(r["record"] and r["status"] for r in doc["rows"])
    text = route(["why", "why PostgreSQL and not Redis lists for the job queue"], python_repo.path).stdout
    lines = [line for line in text.splitlines()[1:] if line.startswith("docs/adr/0002-job-queue.md")]
    # The title in brackets, or where the text starts with it (the title row), once.
    assert len(lines) >= 2 and all("  accepted  [Use PostgreSQL for the job queue]  " in line
                                   or "  accepted  Use PostgreSQL for the job queue: " in line for line in lines)


def test_a_compound_word_finds_the_two_words_a_record_writes(python_repo, route):
    doc = why(route, python_repo, "why is the request not a namedtuple")
    assert (doc["rows"][0]["path"], doc["rows"][0]["section"]) == ("docs/design.rst", "Requests Are Not Named Tuples")


def test_a_short_question_answers_the_record_whose_title_holds_its_word(python_repo, route):
    doc = why(route, python_repo, "tabs or spaces")
    assert doc["status"] == "routed"
    assert doc["rows"][0]["path"] == "docs/adr/0001-use-tabs.md"


@pytest.mark.parametrize("question", [
    "coffee or tea",
    "why is the coffee machine on the third floor always broken",
    "how should I format the release notes for marketing",
    "why did marketing change the button colours on the landing page",
])
def test_off_topic_questions_stay_no_match(python_repo, route, question):
    assert why(route, python_repo, question)["status"] == "no_match"


def test_a_design_section_of_an_ordinary_document_answers_and_says_so(python_repo, route):
    doc = why(route, python_repo, "why does webapp need Python 3.11 exception groups")
    first = doc["rows"][0]
    assert (first["path"], first["section"]) == ("docs/faq.md", "Why does webapp need Python 3.11?")
    assert first["record_format"] == "document"
    text = route(["why", "-n", "1", "why does webapp need Python 3.11 exception groups"], python_repo.path).stdout
    assert "  design document  [FAQ]  " in text


def test_decisions_md_leaves_design_documents_out(python_repo, route):
    result = route(["decisions"], python_repo.path)
    assert result.exit_code == 0, result.stderr
    assert "docs/faq.md" not in result.stdout and "README.md" not in result.stdout
    assert "docs/adr/0002-job-queue.md" in result.stdout


GO_MAIN = "package main\n\nfunc main() {\n\tserve()\n}\n\nfunc serve() {}\n"
GO_GUIDE = """# Deploying tinyd

## Why a single static binary?

tinyd links every dependency statically so that deployment is copying one file; shared libraries
broke upgrades on older distributions.

## Configuration

Set TINYD_PORT.
"""


def test_a_repository_without_records_answers_from_its_design_documents(make_repo, route):
    repo = make_repo("tinyd")
    repo.commit({"main.go": GO_MAIN, "go.mod": "module tinyd\n", "docs/guide.md": GO_GUIDE})
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = why(route, repo, "why is tinyd one static binary instead of shared libraries")
    assert doc["status"] == "routed"
    assert doc["rows"][0]["path"] == "docs/guide.md"
    assert any("no decision records" in note and "design documents" in note for note in doc["notes"])
    # The whole design document is read when there is no record: its other sections too.
    assert why(route, repo, "how do I set the TINYD_PORT configuration")["rows"][0]["section"] == "Configuration"


RUST_LIB = "pub fn parse(input: &str) -> usize {\n    input.len()\n}\n"
RFC_BORROWED = """- Feature Name: borrowed_config
- Start Date: 2024-05-01

# Summary

The parser borrows its configuration instead of owning a copy.

# Motivation

Cloning the configuration for every parse allocated on each call.

# Rationale and alternatives

Reference counting the configuration was considered and rejected: it costs an atomic increment per
parse and the configuration never outlives the parser.
"""


def test_a_rust_rfc_without_status_is_a_record_with_its_sections(make_repo, route):
    repo = make_repo("parser")
    repo.commit({"src/lib.rs": RUST_LIB, "Cargo.toml": '[package]\nname = "parser"\n',
                 "text/0001-borrowed-config.md": RFC_BORROWED})
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = why(route, repo, "why not reference count the configuration of the parser")
    first = doc["rows"][0]
    assert (first["path"], first["section"]) == ("text/0001-borrowed-config.md", "Rationale and alternatives")
    assert first["status"] == "unknown" and first["record"] == "Summary"
    assert not any("no decision records" in note for note in doc["notes"])


# ------------------------------------------------------------------------------------------ the setting


def test_extra_paths_add_records_and_exclude_removes_them(make_repo, route):
    repo = make_repo("configured")
    repo.commit({
        "app.py": APP,
        "notes/why-we-ship-weekly.txt": "placeholder\n",
        "notes/cadence.md": "# Release cadence\n\nWe ship every Tuesday so that fixes wait at most a week.\n",
        "docs/adr/0001-use-tabs.md": NYGARD_TABS,
        ".gitroute.toml": '[decisions]\nextra_paths = ["notes"]\nexclude = ["docs/adr/0001-use-tabs.md"]\n',
    })
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = why(route, repo, "why do we ship every Tuesday release cadence")
    assert doc["rows"][0]["path"] == "notes/cadence.md"
    assert why(route, repo, "tabs or spaces")["status"] == "no_match"


def test_decisions_settings_must_be_lists_of_strings():
    assert parse_config(b'[decisions]\nextra_paths = ["notes"]\n').decisions_extra == ("notes",)
    with pytest.raises(ConfigError, match="'decisions.exclude' must be a list of strings"):
        parse_config(b'[decisions]\nexclude = "docs"\n')


def test_lint_reads_the_records_a_build_finds_by_content(make_repo, route):
    repo = make_repo("lint")
    repo.commit({"docs/design.rst": DESIGN_RST + "\nWe decided to keep one engine.\n", "app.py": APP})
    result = route(["lint"], repo.path)
    assert result.exit_code == 1
    assert "docs/design.rst:" in result.stdout


LOGGING = """# 5. Log as JSON lines

## Status

Accepted

## Context

The office network drops syslog packets now and then.

Operators read the logs during the holiday rota.

Dashboards parse each line to find the party that gets paged.

## Decision

Every service writes one JSON object per line to standard output.
"""


def test_question_words_scattered_over_a_sections_paragraphs_are_no_match(make_repo, route):
    # Three of the question's words are in the Context, each in a paragraph of its own: nothing discusses it.
    repo = make_repo("logs")
    repo.commit({"docs/adr/0005-log-as-json-lines.md": LOGGING, "app.py": APP})
    assert route(["build", "-q"], repo.path).exit_code == 0
    assert why(route, repo, "why was the office holiday party cancelled")["status"] == "no_match"
    assert why(route, repo, "why does every service write JSON lines to standard output")["status"] == "routed"


def test_a_heading_right_under_its_parents_holds_the_parents_words() -> None:
    # "## … tuples?" then "### Readability" at once: the parent has no text, so no row; its words were in no row, and
    # "why do the docs argue against tuples for readability?" found neither (attrs' held th2).
    from gitroute.indexes.decisions import section_rows
    from gitroute.records import parse_record

    text = ("# Why not\n\nWhat else was weighed.\n\n## Tuples?\n\n### Readability\n\nA point reads better than a pair.\n\n"
            "## Dicts?\n\nKeys are not attributes.\n\n### Typing\n\nNo checker knows them.\n")
    record = parse_record("docs/why.md", text.encode(), parse_document("docs/why.md", text.encode()))
    headings = {part.label: part.heading for part, _items in section_rows(record)}
    assert headings["Readability"] == "Tuples? Readability"  # the parent had no text of its own
    assert headings["Typing"] == "Typing"  # its parent has text: a row of its own holds its words
    assert "Tuples?" not in headings
