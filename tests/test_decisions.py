"""The decision index: record formats, status, supersession, Decided markers, lint, BM25, `why` and no_match."""
from __future__ import annotations

import json
import math
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gitroute.config import parse_config
from gitroute.errors import ConfigError
from gitroute.indexes.decisions.lint import lint_record, render_decisions
from gitroute.parsing.documents import parse_document
from gitroute.rank import bm25_idf, bm25_term
from gitroute.records import collect_records, is_record_path, normalise_status, parse_record, rows_of

SEEDS = Path(__file__).parent / "fixtures" / "decisions"
ADR_0001 = "ADR-0001-identifier-aware-bm25.md"
ADR_104 = "ADR-104-route-table-resolved-once.md"
MIP_0085 = "MIP-0085-routing-index-family.md"


def seed(name: str) -> bytes:
    return (SEEDS / name).read_bytes()


def lint(path: str, data: bytes) -> list[tuple[int, str]]:
    doc = parse_document(path, data)
    return lint_record(path, data, doc) if doc is not None else []


def record_of(path: str, text: str, known: tuple[str, ...] = ()):
    doc = parse_document(path, text.encode())
    assert doc is not None
    return parse_record(path, text.encode(), doc, known)


def records_of(files):
    """The decision records among (path, content) pairs, each document parsed as a build parses it."""
    files = list(files)
    parsed = {p: doc for p, data in files if (doc := parse_document(p, data)) is not None}
    return collect_records(files, parsed)


def kinds(record) -> list[str]:
    return [row.kind for row in record.rows]


# ------------------------------------------------------------------------------------------ the seeds


def test_seed_nygard_adr_gives_title_decision_rationale_and_consequences():
    record = record_of(f"docs/adr/{ADR_0001}", seed(ADR_0001).decode())
    assert record.status == "accepted" and record.format == "nygard"
    title = record.rows[0]
    assert title.kind == "title"
    assert title.text.startswith("ADR 0001 — Rank files with identifier-aware BM25, not embeddings: Given a question")
    assert kinds(record).count("decision") == 1
    assert kinds(record).count("rationale") == 4  # the four numbered reasons under "Why"
    consequences = [r for r in record.rows if r.kind == "consequence"]
    assert [r.section for r in consequences] == ["Consequences"] * 3
    assert consequences[2].text.startswith("No claim of semantic understanding.")


def test_seed_options_record_marks_the_labelled_option_chosen_and_the_others_rejected():
    record = record_of(f"docs/adr/{ADR_104}", seed(ADR_104).decode())
    assert record.status == "accepted"
    options = [r for r in record.rows if r.kind == "alternative"]
    assert [(r.line, r.verdict) for r in options] == [(17, "rejected"), (18, "rejected"), (24, "chosen")]
    assert options[0].text.startswith("golden-master commits the probe output at its rite: rejected, The file goes stale")
    assert options[2].text.startswith("A single deterministic node computes the table once per run")
    assert all(r.section == "Options" for r in options)
    decisions = [r for r in record.rows if r.kind == "decision"]
    assert decisions[0].text.startswith("(D). A route_table node runs once") and decisions[0].line == 28
    assert any(r.kind == "consequence" and r.text.startswith("Four readers share one answer") for r in record.rows)


def test_seed_proposal_gives_summary_alternatives_and_decided_lines():
    record = record_of(f"docs/MIPs/{MIP_0085}", seed(MIP_0085).decode())
    assert record.status == "accepted" and record.format == "proposal"
    title = record.rows[0]
    assert title.section == "1. Summary"  # a numbered heading is named as written, number included
    assert title.text.startswith("MIP-0085: The routing index family")
    assert "MIP-0084 gives every session a bundle and a route tool" in title.text
    alternatives = [r for r in record.rows if r.kind == "alternative"]
    assert len(alternatives) == 7 and {r.section for r in alternatives} == {"9. Alternatives considered"}
    assert {r.verdict for r in alternatives} == {"rejected"}
    assert alternatives[2].text == (
        "graphify's LLM pass: rejected, about 0.6–0.7M input tokens per run, edges inferred; rejected in MIP-0076."
    )
    decided = [r for r in record.rows if r.kind == "decided"]
    assert [(r.section, r.line) for r in decided] == [("5.7 Meaning: a spike, then maybe route query --meaning", 138),
                                                      ("Meaning spike (task 7), 2026-10-20", 201)]
    assert decided[0].text == "Decided 2026-10-20: BM25 ships, inside the bundle; no embedding (the meaning spike)."


def test_the_seeds_pass_the_lint():
    for name in (ADR_0001, ADR_104, MIP_0085):
        assert lint(f"docs/adr/{name}", seed(name)) == []


# ------------------------------------------------------------------------------------------ other formats

MADR = """---
status: accepted
date: 2024-03-01
---
# Use PostgreSQL for the job queue

## Context and Problem Statement

Jobs are lost when the worker restarts. We need a durable queue.

## Decision Drivers

* Durability

## Considered Options

* PostgreSQL with SKIP LOCKED
* Redis lists

## Decision Outcome

Chosen option: "PostgreSQL with SKIP LOCKED", because we already run PostgreSQL and it survives restarts.

### Positive Consequences

* One database to back up.

## Pros and Cons of the Options

### Redis lists

* Good, because it is fast.
* Bad, because a restart without persistence loses the queue.
"""


def test_madr_front_matter_status_chosen_option_and_reason_from_pros_and_cons():
    record = record_of("docs/decisions/0004-job-queue.md", MADR)
    assert record.status == "accepted" and record.format == "madr"
    alternatives = {r.text.split(":")[0]: r for r in record.rows if r.kind == "alternative"}
    chosen = alternatives["PostgreSQL with SKIP LOCKED"]
    assert chosen.verdict == "chosen"
    assert chosen.text.endswith("we already run PostgreSQL and it survives restarts.")
    rejected = alternatives["Redis lists"]
    assert rejected.verdict == "rejected"
    assert rejected.text == "Redis lists: rejected, a restart without persistence loses the queue."
    # Decision drivers weigh a decision; they are not one.
    assert not any(r.section == "Decision Drivers" for r in record.rows)
    assert [r.text for r in record.rows if r.kind == "consequence"] == ["One database to back up."]


RST_PROPOSAL = """.. _XEP7:

=============================
XEP 7 — Lazy graph loading
=============================

:Author: A. Person
:Status: Final
:Created: 2024-01-01

Abstract
--------

Graphs load their edges on first use. This saves memory.

Alternatives
------------

- Eager loading with a cache: simple, but the memory cost stays.
- Memory-mapped files: rejected because Windows locks them.
"""


def test_rst_field_list_status_and_proposal_alternatives():
    record = record_of("doc/proposals/xep-0007.rst", RST_PROPOSAL)
    assert record.status == "final" and record.format == "proposal"
    assert record.rows[0].text == "XEP 7 — Lazy graph loading: Graphs load their edges on first use."
    assert record.rows[0].section == "Abstract"
    alternatives = [r for r in record.rows if r.kind == "alternative"]
    assert [r.verdict for r in alternatives] == ["rejected", "rejected"]
    assert alternatives[0].text == "Eager loading with a cache: rejected, simple, but the memory cost stays."


@pytest.mark.parametrize(("text", "expected"), [
    ("Accepted", "accepted"),
    ("Accepted (2026-10-10, review by B. in the design session)", "accepted"),
    ("**Proposed**", "proposed"),
    ("Draft", "proposed"),
    ("Rejected", "rejected"),
    ("Superseded by ADR-0005", "superseded"),
    ("Deprecated", "deprecated"),
    ("Withdrawn", "withdrawn"),
    ("Final", "final"),
    ("Implemented", "final"),
    ("Approved", "accepted"),
    ("who knows", "unknown"),
])
def test_status_is_normalised(text, expected):
    assert normalise_status(text) == expected


NYGARD_OLD = """# 3. Use SQLite

## Status

Superseded by [ADR 5](0005-use-postgres.md)

## Context

One process writes.

## Decision

We use SQLite.

## Consequences

No server to run.
"""

NYGARD_NEW = """# 5. Use PostgreSQL

## Status

Accepted

## Decision

We use PostgreSQL.
"""

NYGARD_REPLACER = """# 6. Use a message broker

- Status: accepted
- Supersedes: ADR 2

## Decision

Jobs go through a broker.
"""

NYGARD_REPLACED = """# 2. Poll the database for jobs

- Status: accepted

## Decision

Workers poll every second.
"""


def test_a_superseded_record_points_at_its_successor():
    records = {r.path: r for r in records_of([
        ("doc/adr/0003-use-sqlite.md", NYGARD_OLD.encode()),
        ("doc/adr/0005-use-postgres.md", NYGARD_NEW.encode()),
    ])}
    old = records["doc/adr/0003-use-sqlite.md"]
    assert old.status == "superseded" and old.format == "nygard"
    assert old.superseded_by == "doc/adr/0005-use-postgres.md"
    assert {r.status for r in old.rows} == {"superseded"}
    assert records["doc/adr/0005-use-postgres.md"].status == "accepted"


def test_a_record_that_says_it_supersedes_another_marks_the_other_superseded():
    records = {r.path: r for r in records_of([
        ("doc/adr/0002-poll-for-jobs.md", NYGARD_REPLACED.encode()),
        ("doc/adr/0006-use-a-broker.md", NYGARD_REPLACER.encode()),
    ])}
    old = records["doc/adr/0002-poll-for-jobs.md"]
    assert old.status == "superseded"
    assert old.superseded_by == "doc/adr/0006-use-a-broker.md"


@pytest.mark.parametrize(("path", "expected"), [
    ("docs/adr/0001-use-x.md", True),
    ("services/api/docs/decisions/0002-y.rst", True),
    ("doc/adr/0003-z.md", True),
    ("architecture/0001-layers.md", True),
    ("notes/ADR-12-caching.md", True),
    ("design/adr-7-queue.md", True),
    ("peps/pep-0008.rst", True),
    ("doc/developer/nxeps/nxep-0001.rst", True),
    ("docs/MIPs/MIP-0085-routing.md", True),
    ("docs/adr/README.md", False),
    ("docs/adr/template.md", False),
    ("docs/adr/index.md", False),
    ("docs/adr/0000-template.md", False),
    ("docs/adr/adr-template-bare-minimal.md", False),
    ("doc/developer/nxeps/nxep-template.rst", False),
    ("docs/decisions/0002-index-protocol.md", True),
    ("docs/decisions/0004-decision-index-rows.md", True),
    ("src/adr.py", False),
    ("docs/guide.md", False),
    ("docs/steps/step-1.md", False),
])
def test_default_record_layouts(path, expected):
    assert is_record_path(path) is expected


def test_configured_globs_replace_the_default_layouts():
    config = parse_config(b'[decisions]\npaths = ["design/*.md"]\n')
    assert config.decisions == ("design/*.md",)
    assert is_record_path("design/queue.md", config.decisions)
    assert not is_record_path("docs/adr/0001-x.md", config.decisions)


def test_decisions_paths_must_be_a_list_of_strings():
    with pytest.raises(ConfigError, match="'decisions.paths' must be a list of strings"):
        parse_config(b'[decisions]\npaths = "design/*.md"\n')


# ------------------------------------------------------------------------------------------ Decided markers, lint

DECIDED = """# ADR 9 — Cache answers

## Decision

**Decided 2026-11-01:** Answers are cached for one hour.

We decided to keep the cache in memory.

Decided 2026-11-02: the cache key includes the commit.

- It was decided that misses are not cached.
- Why something was decided is in the context.
- The `decided` flag is set by the writer.

```
we decided to write this inside code
```
"""


def test_decided_lines_are_rows():
    record = record_of("docs/adr/0009-cache.md", DECIDED)
    decided = [r for r in record.rows if r.kind == "decided"]
    assert [(r.line, r.text) for r in decided] == [
        (5, "Decided 2026-11-01: Answers are cached for one hour."),
        (9, "Decided 2026-11-02: the cache key includes the commit."),
    ]


def test_lint_flags_decisions_written_without_the_marker():
    assert lint("docs/adr/0009-cache.md", DECIDED.encode()) == [
        (7, "We decided to keep the cache in memory."),
        (9, "Decided 2026-11-02: the cache key includes the commit."),
        (11, "- It was decided that misses are not cached."),
    ]


def test_git_route_lint_prints_file_and_line_and_exits_1(make_repo, route):
    repo = make_repo()
    repo.commit({"docs/adr/0009-cache.md": DECIDED, "docs/guide.md": "We decided to write a guide.\n",
                 "src/app.py": "x = 1\n"})
    result = route(["lint"], repo.path)
    assert result.exit_code == 1, result.stderr
    lines = result.stdout.splitlines()
    assert [line.split(": ", 1)[0] for line in lines] == [
        "docs/adr/0009-cache.md:7", "docs/adr/0009-cache.md:9", "docs/adr/0009-cache.md:11",
    ]
    assert "We decided to keep the cache in memory." in lines[0]


def test_git_route_lint_passes_clean_records(make_repo, route):
    repo = make_repo()
    repo.commit({f"docs/adr/{ADR_104}": seed(ADR_104).decode(), "src/app.py": "x = 1\n"})
    result = route(["lint"], repo.path)
    assert (result.exit_code, result.stdout) == (0, "")


def test_git_route_lint_of_an_unknown_revision_is_fatal(make_repo, route):
    repo = make_repo()
    repo.commit({"docs/adr/0009-cache.md": DECIDED})
    result = route(["lint", "no-such-rev"], repo.path)
    assert result.exit_code == 128
    assert result.stdout == "" and result.stderr.startswith("fatal:")


# ------------------------------------------------------------------------------------------ BM25


def test_bm25_matches_a_hand_computed_example():
    # Two documents of a collection of four hold the term: idf = ln(1 + (4 - 2 + 0.5) / (2 + 0.5)) = ln 2.
    idf = bm25_idf(2, 4)
    assert idf == pytest.approx(math.log(2.0))
    # tf 3 in a document twice the average length: K = 1.2 * (0.25 + 0.75 * 2) = 2.1,
    # score = ln 2 * 3 * 2.2 / (3 + 2.1) = 0.897014...
    assert bm25_term(3, 20, 10.0, idf) == pytest.approx(math.log(2.0) * 6.6 / 5.1)
    assert bm25_term(3, 20, 10.0, idf) == pytest.approx(0.897014, abs=1e-6)
    # An average-length document: K = k1, so the score is idf * tf * 2.2 / (tf + 1.2).
    assert bm25_term(1, 10, 10.0, idf) == pytest.approx(math.log(2.0))
    assert bm25_term(0, 10, 10.0, idf) == 0.0


def test_bm25_idf_never_negative_and_falls_with_df():
    values = [bm25_idf(df, 10) for df in range(11)]
    assert all(v > 0 for v in values)
    assert values == sorted(values, reverse=True)


# ------------------------------------------------------------------------------------------ DECISIONS.md


def test_render_decisions_is_deterministic_and_has_one_row_per_decision_and_alternative():
    records = records_of([
        (f"docs/adr/{ADR_104}", seed(ADR_104)),
        (f"docs/MIPs/{MIP_0085}", seed(MIP_0085)),
    ])
    rows = rows_of(records)
    shuffled = list(rows)
    random.Random(7).shuffle(shuffled)
    text = render_decisions(rows)
    assert render_decisions(shuffled) == text
    table = [line for line in text.splitlines() if line.startswith("| [")]
    wanted = [r for r in rows if r.kind in ("decision", "decided", "alternative")]
    assert len(table) == len(wanted)
    assert any("| alternative, chosen |" in line for line in table)
    assert all(line.count(" | ") == 4 for line in table)  # pipes inside cells are escaped


# ------------------------------------------------------------------------------------------ git route why

GEO_MODULE = (
    "class OpenMeteoClient:\n    def forecast(self):\n        return 1\n\n\n"
    "class RouteTable:\n    pass\n"
)
ADR_CLIENT = """# 7. Fetch forecasts through one client

- Status: accepted

## Decision

Every forecast goes through `OpenMeteoClient`, which retries twice.

## Consequences

- A slow upstream slows every page.
"""


@pytest.fixture
def records_repo(make_repo, route):
    repo = make_repo("records")
    repo.commit({
        f"docs/adr/{ADR_0001}": seed(ADR_0001).decode(),
        f"docs/adr/{ADR_104}": seed(ADR_104).decode(),
        f"docs/MIPs/{MIP_0085}": seed(MIP_0085).decode(),
        "docs/adr/0007-one-client.md": ADR_CLIENT,
        "src/geo/weather.py": GEO_MODULE,
    })
    built = route(["build", "-q"], repo.path)
    assert built.exit_code == 0, built.stderr
    return repo


def test_why_finds_a_rejected_alternative_with_record_and_section(records_repo, route):
    result = route(["why", "why not run embeddings with Ollama on each machine"], records_repo.path)
    assert result.exit_code == 0, result.stderr
    first = result.stdout.splitlines()[1]
    assert first.startswith(f"docs/MIPs/{MIP_0085} §9. Alternatives considered  accepted  "
                            "[MIP-0085: The routing index family — doc↔code, impact, deci…]  "
                            "Ollama embeddings: rejected, a daemon")


def test_why_json_rows_carry_path_section_line_status_text(records_repo, route):
    result = route(["why", "--json", "-n", "3", "why is the route table computed once from a commit"],
                   records_repo.path)
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["status"] == "routed" and len(doc["rows"]) == 3
    row = doc["rows"][0]
    assert row["path"] == f"docs/adr/{ADR_104}"
    assert {"path", "section", "line", "status", "text"} <= set(row)
    assert row["status"] == "accepted" and isinstance(row["line"], int)
    assert "signals" not in row


def test_why_explain_shows_each_terms_bm25(records_repo, route):
    result = route(["why", "--json", "--explain", "-n", "1", "identifier aware BM25 instead of embeddings"],
                   records_repo.path)
    row = json.loads(result.stdout)["rows"][0]
    assert row["path"] == f"docs/adr/{ADR_0001}"
    terms = {k for k in row["signals"] if k.startswith("bm25:")}
    assert {"bm25:identifier", "bm25:bm", "bm25:25", "bm25:embed"} <= terms
    assert row["score"] == pytest.approx(sum(v for k, v in row["signals"].items() if k != "coverage"), abs=1e-3)


def test_why_limit_bounds_the_rows(records_repo, route):
    result = route(["why", "--json", "--limit", "2", "why BM25 and not embeddings"], records_repo.path)
    assert len(json.loads(result.stdout)["rows"]) == 2


def test_a_question_naming_a_code_symbol_finds_the_record_that_names_it(records_repo, route):
    result = route(["why", "--json", "--explain", "OpenMeteoClient"], records_repo.path)
    doc = json.loads(result.stdout)
    assert doc["status"] == "routed"
    assert doc["rows"][0]["path"] == "docs/adr/0007-one-client.md"
    assert "names_symbol" in doc["rows"][0]["signals"]


@pytest.mark.parametrize("question", [
    "why is the coffee machine on the third floor always broken",
    "why did the team move to a new office downtown",
    "how should I format the release notes for marketing",
    "why do the build servers restart every night at midnight",
])
def test_off_topic_questions_sharing_everyday_words_are_no_match(records_repo, route, question):
    result = route(["why", "--json", question], records_repo.path)
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["status"] == "no_match" and doc["rows"] == []
    assert doc["notes"] and "no decision record" in doc["notes"][0]


@pytest.mark.parametrize(("question", "path"), [
    ("why was graphify's LLM pass rejected", f"docs/MIPs/{MIP_0085}"),
    ("why does the probe replay in a throwaway clone", f"docs/adr/{ADR_104}"),
])
def test_on_topic_questions_route(records_repo, route, question, path):
    doc = json.loads(route(["why", "--json", question], records_repo.path).stdout)
    assert doc["status"] == "routed"
    assert doc["rows"][0]["path"] == path


def test_why_text_says_no_match(records_repo, route):
    result = route(["why", "why is the coffee machine always broken"], records_repo.path)
    assert result.exit_code == 0
    assert result.stdout.splitlines()[1].startswith("no_match: ")


def test_why_without_a_bundle_is_fatal(make_repo, route):
    repo = make_repo()
    repo.commit({"docs/adr/0007-one-client.md": ADR_CLIENT})
    result = route(["why", "why one client"], repo.path)
    assert result.exit_code == 128
    assert result.stdout == "" and result.stderr.startswith("fatal:")


def test_a_repository_without_records_answers_no_match(make_repo, route):
    repo = make_repo()
    repo.commit({"src/app.py": "def main():\n    pass\n"})
    assert route(["build", "-q"], repo.path).exit_code == 0
    doc = json.loads(route(["why", "--json", "why main"], repo.path).stdout)
    assert doc["status"] == "no_match"
    assert doc["notes"] == ["the snapshot has no decision records"]


# ------------------------------------------------------------------------------------------ any input

_PIECES = st.sampled_from([
    "# T\n", "## Decision\n", "## Considered Options\n", "## Status\n", "Superseded by [x](0002-y.md)\n",
    "- a: b\n", "* Good, because x\n", "### Option 1: a\n", 'Chosen option: "a", because b\n',
    "**Decided 2024-01-01:** x\n", ":Status: Final\n", "\n", "---\n", "status: x\n", "| Status | Accepted |\n",
    "|---|---|\n", "(D). x\n", "- (a) y\n", "## Alternatives\n", "  - nested\n", "```\ncode\n```\n",
    "Supersedes: ADR 1\n", "we decided to x\n",
])


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.one_of(_PIECES, st.text(max_size=20)), max_size=30),
       st.sampled_from(["docs/adr/0001-x.md", "doc/proposals/nep-0001.rst"]))
def test_records_lint_and_render_never_raise_on_any_text(parts, path):
    data = "".join(parts).encode("utf-8", "surrogatepass")
    files = [(path, data), ("docs/adr/0002-y.md", data), ("src/x.py", data)]
    rows = rows_of(records_of((p, d) for p, d in files if is_record_path(p, ())))
    assert all(row.path in (path, "docs/adr/0002-y.md") for row in rows)
    assert render_decisions(rows).startswith("# Decisions\n")
    assert all(line >= 1 for line, _ in lint(path, data))


def test_why_names_the_successor_of_a_superseded_record(make_repo, route):
    repo = make_repo()
    repo.commit({"doc/adr/0003-use-sqlite.md": NYGARD_OLD, "doc/adr/0005-use-postgres.md": NYGARD_NEW})
    assert route(["build", "-q"], repo.path).exit_code == 0
    result = route(["why", "why use SQLite with one process writing"], repo.path)
    assert result.exit_code == 0, result.stderr
    first = result.stdout.splitlines()[1]
    assert first.startswith("doc/adr/0003-use-sqlite.md §")
    assert "  superseded by doc/adr/0005-use-postgres.md  " in first
    doc = json.loads(route(["why", "--json", "why use SQLite with one process writing"], repo.path).stdout)
    assert doc["rows"][0]["superseded_by"] == "doc/adr/0005-use-postgres.md"


# ------------------------------------------------------------------------------------------ the click-free path


@pytest.mark.parametrize("args", [
    ["why", "why not run embeddings with Ollama on each machine"],
    ["why", "--json", "-n", "2", "why is the route table computed once from a commit"],
    ["why", "--explain", "--limit=3", "identifier", "aware", "BM25"],
    ["why", "-q", "why is the coffee machine on the third floor always broken"],
])
def test_why_answers_alike_with_and_without_click(records_repo, args):
    from gitroute.cli.app import run
    from gitroute.cli.fast import answer_fast
    from tests.test_cli_fast import run_captured

    fast = run_captured(answer_fast, args, records_repo.path)
    slow = run_captured(run, args, records_repo.path)
    assert fast[0] == 0 and fast == slow


@pytest.mark.parametrize("args", [["why", "--kind", "class", "x"], ["why", "--path=src/*", "x"], ["why"],
                                  ["why", "-n", "0", "x"]])
def test_why_lines_the_fast_path_does_not_know_go_to_click(args):
    from gitroute.cli.fast import parse_why_args

    assert parse_why_args(args) is None


def test_cold_why_imports_no_click_pygit2_tree_sitter_or_dataclasses(records_repo):
    from tests.test_cli_fast import heavy, imported_modules

    result, modules = imported_modules(["why", "why", "not", "Ollama", "embeddings"], records_repo.path)
    assert result.returncode == 0, result.stderr[-2000:]
    assert heavy(modules) == set()
    assert result.stdout.splitlines()[1].startswith(f"docs/MIPs/{MIP_0085} §9. Alternatives considered  accepted  ")
    assert "]  Ollama embeddings" in result.stdout.splitlines()[1]


def test_a_quoted_example_of_deciding_is_no_decision():
    text = '# ADR 4\n\n## Decision\n\nLint flags lines like "we decided to…" and nothing else.\n'
    assert lint("docs/adr/0004.md", text.encode()) == []


def test_an_alternative_that_says_rejected_states_its_verdict_once():
    record = record_of("docs/adr/0005-x.md", "# 5. X\n\n## Considered Options\n\n- Regexes: rejected, too loose\n")
    assert [r.text for r in record.rows if r.kind == "alternative"] == ["Regexes: rejected, too loose"]


def _names_as_before(text: str) -> set[str]:
    """normalize_name_all before it took each word once (every occurrence, dotted or not, normalised twice)."""
    import re

    from gitroute.text import split_identifier

    words = re.findall(r"[A-Za-z_$][\w$.]*", text)
    norm = lambda w: "".join(split_identifier(w))  # noqa: E731
    return {norm(w) for w in words} | {norm(w.rstrip(".").rsplit(".", 1)[-1]) for w in words}


@given(st.text(alphabet=st.sampled_from(list("aZb_$.Q9 (é)İ:-\n")), max_size=60))
def test_normalize_name_all_names_what_it_named_before(text):
    from gitroute.indexes.decisions import normalize_name_all

    assert normalize_name_all(text) == _names_as_before(text)
    assert normalize_name_all("see `flask.Flask.url_for()` and xarray.Variable.") == {
        "see", "and", "flaskflaskurlfor", "urlfor", "xarrayvariable", "variable"}


def test_a_rebuild_takes_each_records_rows_and_postings_from_the_memo_and_writes_the_same_blobs(tmp_path):
    from gitroute.bundle.memo import BuildMemo
    from gitroute.indexes.decisions import PART, build_blobs

    records = [record_of(f"docs/adr/{name}", seed(name).decode()) for name in (ADR_0001, ADR_104, MIP_0085)]
    symbols = {records[0].path: ["routetable"], records[2].path: ["routetable", "routingindex"]}
    fresh = build_blobs(records, symbols)

    first = BuildMemo(str(tmp_path), salt="test")
    assert build_blobs(records, symbols, memo=first.table("decisions"))[:2] == fresh[:2]
    first.save()
    again = BuildMemo(str(tmp_path), salt="test").table("decisions")
    parts = [key for key in again.previous if isinstance(key, str) and key.startswith(PART)]
    assert len(parts) == 3
    # The records in another order: each takes its part from the memo under its new place.
    reordered = records[::-1]
    assert build_blobs(reordered, symbols, memo=again)[:2] == build_blobs(reordered, symbols)[:2]
    assert again.hits >= 3
    # A record whose mentioned symbols changed is made again, not taken.
    changed = {**symbols, records[1].path: ["routetable"]}
    later = BuildMemo(str(tmp_path), salt="test").table("decisions")
    assert build_blobs(records, changed, memo=later)[:2] == build_blobs(records, changed)[:2]


def test_a_records_postings_are_memoised_once_and_a_rebuild_patches_from_its_part(tmp_path):
    """A record's postings are in its part entry only (stored by unit too, they were half of django's decisions
    memo), where `_old_postings` finds them for a patch (test_incremental patches shards from them); a rebuild
    from that memo after a record changed writes what a fresh build does."""
    from gitroute.bundle.memo import BuildMemo
    from gitroute.indexes.decisions import PART, _old_postings, build_blobs

    records = [record_of(f"docs/adr/{name}", seed(name).decode()) for name in (ADR_0001, ADR_104, MIP_0085)]
    first = BuildMemo(str(tmp_path), salt="test")
    build_blobs(records, {}, memo=first.table("decisions"))
    first.save()
    table = BuildMemo(str(tmp_path), salt="test").table("decisions")
    held = {key: value for key, value in table.previous.items() if isinstance(value, (list, tuple))}
    parts = {key[len(PART):]: value for key, value in held.items() if key.startswith(PART)}
    assert len(parts) == 3
    assert not [key for key, value in held.items() if not key.startswith(PART) and isinstance(value, list)
                and any(value == part[1] for part in parts.values())], "a record's postings are held twice"
    for key, part in parts.items():
        assert _old_postings(table, "any unit", key) == part[1]
    assert _old_postings(table, "any unit", "0" * 32) is None
    edited = [records[0]._replace(title=records[0].title + " and the cache"), *records[1:]]
    assert build_blobs(edited, {}, memo=table)[:2] == build_blobs(edited, {})[:2]


_WORDY = st.text(st.sampled_from(list("aAbBeEsSiInNgGdD_$.0-9 \tàÉß.`()")), max_size=80)


@settings(max_examples=300, deadline=None)
@given(st.lists(_WORDY, min_size=1, max_size=4))
def test_memoised_doc_tokens_and_names_are_the_plain_ones(texts):
    """`doc_tokens` and `normalize_name_all` read their memos by `map`: the same tokens and names as computing each
    word afresh, on the first reading of a text and on the next."""
    import re as re_

    from gitroute.indexes.decisions import doc_tokens, normalize_name_all
    from gitroute.text import STOP_WORDS, normalize_name, stem, tokenize

    for text in texts + texts:
        assert doc_tokens(text) == [stem(t) for t in tokenize(text)
                                    if t not in STOP_WORDS and not (len(t) == 1 and t.isalpha())]
        words = set(re_.findall(r"[A-Za-z_$][\w$.]*", text))
        expected = {normalize_name(w) for w in words}
        expected |= {normalize_name(w.rstrip(".").rsplit(".", 1)[-1]) for w in words if "." in w}
        assert normalize_name_all(text) == expected


def test_the_best_item_does_not_follow_the_order_its_tokens_come_in():
    """An item's weight is an exactly rounded sum (math.fsum): 0.1 + 0.2 + 0.3 in one order is 0.6000000000000001 and
    0.6 in the other, which turned a tie with an item of weight 0.6 by the hash seed that ordered a set of tokens."""
    from gitroute.indexes.decisions import best_item, parse_why

    idfs = {"x": 0.1, "y": 0.2, "z": 0.3, "w": 0.6}
    items = [[0, "decision", 1, "w"], [1, "decision", 2, "x y z"]]
    question = parse_why("why was w chosen")
    for order in (("x", "y", "z"), ("z", "y", "x")):
        def tokens_of(text: str, order=order) -> tuple[str, ...]:
            return order if text == "x y z" else (text,)
        assert best_item(items, question, idfs, tokens_of) is items[0]


def test_the_words_that_ask_whether_it_was_deliberate_name_nothing_asked():
    """earmark_parser: "Why does a line starting with an asterisk … get turned into a list item …; was that a deliberate
    choice?": "deliberate" and "meant" ask how it was decided, and counted against every section's coverage as words
    it must hold."""
    from gitroute.indexes.decisions import parse_why

    question = parse_why("Why is a star line a list item; was that deliberate, is it meant to?")
    assert {"star", "line", "list", "item"} <= set(question.tokens)
    assert not {"deliberat", "meant"} & set(question.tokens)
    # a docs question asked of the sections through this index keeps its words
    assert "doc" in parse_why("where can I learn about documenting scripts?").tokens


def test_words_that_say_how_a_sentence_goes_are_no_word_a_section_must_hold():
    # yajl: "the part of the docs that talks about parsing speed, how little memory copying happens, and whether
    # strings come back as pointers into my own buffer" missed §YAJL is fast by a point: "happens" and "come" weighed
    # as words the section lacks. "back" stays: a heading says "Falling Back to NetworkX"
    from gitroute.indexes.decisions import parse_why

    tokens = parse_why("how little memory copying happens, and whether strings come back as pointers").tokens
    assert "happen" not in tokens and "come" not in tokens
    assert {"memory", "copy", "pointer", "back"} <= set(tokens), tokens
