"""`git route ask` with the sentences issue 21's held-out questions showed it still misread, by class: why questions
said as people say them, "instead of" beside another kind's phrase, a design section's heading asked about, names
nothing defines in why and "name in path" questions, callers and relative clauses, a document named by its quoted
title or in words, and the files a repository's layout puts beside a document or a code file. Phrases are checked
on the classifier alone; the rest through real builds of Python, Go, C, Rust and PHP repositories."""
from __future__ import annotations

import json

import pytest

from gitroute.ask import classify
from tests import test_ask_sentences as sentences
from tests.conftest import RepoBuilder, run_route
from tests.test_ask import EVIDENCE
from tests.test_ask_sentences import PYTHON, _built, ask, paths, routes

# the sentence tests' repositories (module fixtures: built here once more)
python_repo, go_repo, c_repo = sentences.python_repo, sentences.go_repo, sentences.c_repo


@pytest.mark.parametrize("text, kind", [
    # why, as people ask it
    ("Legacy users loved the old tool; why didn't the new library go that way?", "decision"),
    ("My analyzer fixes another package; why aren't fix edits allowed to touch other packages?", "decision"),
    ("view/session/cache layering — why?", "decision"),
    ("How come the client holds on to unknown fields rather than dropping them?", "decision"),
    ("What was the reasoning for splitting the parser out into its own package?", "decision"),
    ("Besides flipping the default, what other options did the proposal consider?", "decision"),
    ("I'm surprised it builds indexes eagerly; which other options were weighed for that?", "decision"),
    ("what made the devs hold off on giving the views head() and tail()?", "decision"),
    ("thread locals for request and session — isn't that a bad idea?", "decision"),
    ("What's wrong with using plain dicts for records that always have the same keys?", "decision"),
    ("Is the named array package going to ship its own file readers?", "decision"),
    ("what's the argument against using namedtuples for records in a public API?", "decision"),
    ("What are the drawbacks of storing forecasts as one blob?", "decision"),
    ("pros and cons of hourly rows vs one blob", "decision"),
    # a symptom to debug is asked of the code, not of the design
    ("why does starting the client from my script do nothing when the cli launched it?", "meaning"),
    ("Why do I get an error when parse_forecast reads an empty file?", "meaning"),
    ("why doesn't the forecast cache work across processes", "meaning"),
    # uploading a build is wiring; a request's uploads are not
    ("Which workflow uploads the wheel to PyPI?", "wiring"),
    ("where are large uploads streamed to a temporary file on disk", "meaning"),
    # not a design: a function's arguments, a test case
    ("where are the arguments for parse_forecast checked", "meaning"),
    ("is there a test case for parse_forecast", "meaning"),
    # "instead of" is a choice only when nothing else asks
    ("If parse_forecast started returning a list instead of a generator, what callers should I re-check?", "impact"),
    ("where does reading take its input from a callback instead of one whole string", "meaning"),
    ("forecasts as hourly rows instead of one blob", "decision"),
    # callers and relative clauses
    ("parse_forecast is getting stricter about dates; show me its callers.", "impact"),
    ("List everything that subclasses or imports OpenMeteoClient, the tests included.", "impact"),
    # where a thing is used, the verb ending the clause; "used to ..." asks how, in plain words
    ("where is parse_forecast used?", "impact"),
    ("Where's OpenMeteoClient called from?", "impact"),
    ("where else does parse_forecast get imported", "impact"),
    ("find all usages of parse_forecast", "impact"),
    ("where are forecasts used to compute the hourly rows?", "meaning"),
    ("how is parse_forecast used?", "impact"),
    ("How are OpenMeteoClient instances used across the package?", "impact"),
    ("how is the forecast cache used to skip requests?", "meaning"),
    # which tests exercise a thing: impact, its tests first
    ("which tests cover parse_forecast?", "impact"),
    ("Is OpenMeteoClient covered by any tests?", "impact"),
    ("where is parse_forecast unit-tested", "impact"),
    ("is parse_forecast tested anywhere?", "impact"),
    # build settings and the commands a manifest names; a wiring noun inside "where is ... defined" is its object
    ("Where's the build option that makes the library use an external formatter instead of the bundled one?",
     "wiring"),
    ("which compile-time flag turns off the thread-safe mutex?", "wiring"),
    ("Where is the npm script defined that regenerates the serializer?", "wiring"),
    ("what make target runs the linters", "wiring"),
    ("lib/serializer.js says it's generated - which script regenerates it?", "wiring"),
    # no question mark: the clause that asks in the imperative says what is asked
    ("The forecasts page walks through parse_forecast and the client; show me the code it describes.", "code"),
    ("The forecasts page walks through parse_forecast and the client.", "docs"),
    ("which doc walks me through writing my own forecast client?", "docs"),
    ("Where is it configured that the client module clobbers window.fetchForecast?", "wiring"),
    ("Where is it declared that the demo example needs the derive feature to build?", "wiring"),
    ("Where is parse_forecast defined?", "symbol"),
    ("what motivated caching forecasts per hour?", "decision"),
    ("where is it declared how many values an option may take, such as at least one?", "meaning"),
    ("Where is it written down how to build the forecast pages locally?", "docs"),
    ("Which config file lists the Python versions the test suite is run against?", "wiring"),
    ("The forecasts page describes the retry policy; where is the code that implements it?", "code"),
    ("which clients implement it?", "impact"),
    ("Where in the docs can I find links to the changelog and the project policies?", "docs"),
    # a symptom to debug, then a why of its own (Nunjucks: chokidar is installed apart)
    ("Why doesn't file watching work after installing; why do I have to install the watcher myself?", "decision"),
    ("Why doesn't file watching work after installing the package?", "meaning"),
    # a request for a place is no decision question for its verb of deciding (libcbor's "… are rejected")
    ("Find the code that checks forecasts are valid; I want to tighten how stale ones are rejected.", "meaning"),
    ("Can you point me to where stale forecasts get rejected?", "meaning"),
    ("Which config file decides which linters run on this module?", "wiring"),
    ("Which file tells LuaRocks which C sources to compile into the module?", "wiring"),
    # a pipeline in the code is no CI (Multer's "upload pipeline"); a CI pipeline is
    ("Which part of the upload pipeline resizes incoming images before the storage engine writes them?", "meaning"),
    ("Which file defines the CI pipeline that runs on every push?", "wiring"),
    ("Which file decides that Node.js gets the CommonJS build while browsers get the ES module build?", "wiring"),
    ("Which file tells the packaging to leave the tests package out of the distribution?", "wiring"),
    ("Which file decides what goes into the binary release archives, like the jar and the javadocs?", "wiring"),
    # a name, its kind and what it does before "is defined" (ioredis' ConnectionPool)
    ("Can you point me to where the OpenMeteoClient class that keeps the hourly rows is defined?", "symbol"),
    # "how does X get documented …, and where is that handled?": the code that writes the output's docs
    ("How does a nullable field get documented for each API version, and where is that handled?", "meaning"),
    ("The forecasts page says hourly rows are cached; which source code implements that?", "code"),
    ("Which packaging file decides that the test fixtures get shipped while the built docs are left out?", "wiring"),
    ("what ends up in the source distribution of the forecast client?", "wiring"),
])
def test_the_phrase_chooses_the_kind(text, kind):
    assert classify(text, EVIDENCE).routes[0].kind == kind


# --- names nothing defines ----------------------------------------------------------------------------------

def test_a_why_question_about_names_nothing_defines_is_no_match(go_repo):
    doc = ask(go_repo, "Why was RabbitMQ chosen over ZeroMQ for the router?")
    assert doc["status"] == "no_match" and doc["rows"] == []
    assert doc["notes"][0] == "the repository defines no 'RabbitMQ', 'ZeroMQ'"
    assert [r["kind"] for r in doc["classification"]["routes"]] == ["decision"]  # no fuzzy rows of its words


@pytest.mark.parametrize("question", [
    "Before I delete it: what depends on apply_discounts in src/shop/pricing.py?",
    "what depends on src/shop/pricing.py:apply_discounts",
])
def test_a_name_in_one_file_that_nothing_defines_is_no_match(python_repo, question):
    doc = ask(python_repo, question)
    assert doc["status"] == "no_match" and doc["notes"][0] == "the repository defines no 'apply_discounts'"


# --- what uses a thing ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("repo, question, target, user", [
    ("python", "Changing DiscountRule.__init__'s signature; list the modules that call into DiscountRule.",
     "DiscountRule", "src/shop/cart.py"),
    ("go", "NewRouter is going to take options; show me its callers.", "NewRouter", "server/server.go"),
    ("c", "enumerate the sources that call into buffer_append", "buffer_append", "src/parse.c"),
])
def test_callers_and_relative_clauses_ask_impact_about_the_name_said_alone(request, repo, question, target, user):
    doc = ask(request.getfixturevalue(f"{repo}_repo"), question)
    assert routes(doc)[0] == ("impact", target)
    assert user in paths(doc)


# --- a design section's heading, asked about -------------------------------------------------------------------

INDEXES_NOTES = """# Flexible indexes

## Motivation

Coordinates need indexes other than the default one.

## Immutable indexes

An index never changes in place: every operation that would alter it builds a new one, so that two
objects sharing an index never see each other's edits.
"""


@pytest.fixture(scope="module")
def design_repo(tmp_path_factory: pytest.TempPathFactory) -> RepoBuilder:
    files = dict(PYTHON)
    files["design_notes/flexible_indexes.md"] = INDEXES_NOTES
    files["src/shop/indexes.py"] = 'class Index:\n    """An index of prices."""\n'
    return _built(tmp_path_factory, "indexes", files)


def test_a_design_sections_heading_asked_about_is_a_why_question(design_repo):
    doc = ask(design_repo, "immutable indexes?")
    assert [r["kind"] for r in doc["classification"]["routes"]] == ["decision", "meaning"]
    assert (doc["rows"][0]["path"], doc["rows"][0]["name"]) == ("design_notes/flexible_indexes.md",
                                                                "Immutable indexes")
    assert "'immutable indexes?' is the heading of a design section ('Immutable indexes')" in [
        r["reason"] for r in doc["classification"]["routes"]]
    # without the question mark the words are a title or a name, not a question about them
    assert "decision" not in [r["kind"] for r in ask(design_repo, "immutable indexes")["classification"]["routes"]]


# --- a document named by its quoted title, or in words ---------------------------------------------------------

EXTENDING = "# Extending the Shop\n\nWrite a rule such as `HalfOffRule` by subclassing `DiscountRule`.\n"


@pytest.fixture(scope="module")
def extending_repo(tmp_path_factory: pytest.TempPathFactory) -> RepoBuilder:
    return _built(tmp_path_factory, "extending", {**PYTHON, "docs/extending.md": EXTENDING})


def test_a_document_named_by_its_quoted_title_asks_code(extending_repo):
    doc = ask(extending_repo, "The 'Extending the Shop' page walks through writing a HalfOffRule. "
                              "Which classes does it build on?")
    assert routes(doc)[0] == ("code", "docs/extending.md")
    assert paths(doc, 1) == ["src/shop/pricing.py"]
    assert "'Extending the Shop' is the title of the document 'docs/extending.md'" in doc["classification"]["facts"]


def test_a_document_named_in_words_asks_code_with_those_words(extending_repo):
    doc = ask(extending_repo, "Which modules and classes does the extending guide point me to?")
    assert routes(doc)[0] == ("code", "extending")
    assert paths(doc, 1) == ["src/shop/pricing.py"]


# --- the files a repository's layout puts beside --------------------------------------------------------------

RUST = {
    "Cargo.toml": '[package]\nname = "argparse"\nversion = "0.1.0"\n',
    "src/lib.rs": "pub fn parse(args: &[String]) -> usize {\n    args.len()\n}\n",
    "examples/pacman.rs": "fn main() {\n    let n = argparse::parse(&[]);\n    println!(\"{}\", n);\n}\n",
    "examples/pacman.md": "# pacman\n\nShows `-S` and `--sync` subcommands in action.\n",
    "examples/git.rs": "fn main() {}\n",
    "examples/git.md": "# git\n\nShows nested subcommands.\n",
}
GO_FOLDERS = {
    "go.mod": "module example.com/web\n\ngo 1.21\n",
    "engine.go": "package web\n\n// Engine serves requests.\ntype Engine struct{}\n",
    "gins/gins.go": "package gins\n\n// Run starts the default engine.\nfunc Run() {}\n",
    "gins/README.md": "# Gins\n\nAn API experiment: the default `Engine` as package functions.\n",
    "client/updater.go": "package client\n\n// Updater refreshes metadata.\ntype Updater struct{}\n",
    "client/fetcher.go": "package client\n\n// Fetcher downloads files.\ntype Fetcher struct{}\n",
    "client/config.go": "package client\n\n// Config holds settings.\ntype Config struct{}\n",
    "client/README.md": "# Client\n\nStart from `Updater` in `client/updater.go`.\n",
}


def test_a_document_and_the_code_of_the_same_name_beside_it_in_rust(tmp_path_factory):
    repo = _built(tmp_path_factory, "argparse", RUST)
    code = json.loads(run_route(["code", "--json", "examples/pacman.md"], repo.path).stdout)
    assert [r["path"] for r in code["rows"]] == ["examples/pacman.rs"]  # not git.rs, not the library
    assert code["notes"][0] == "first the code the repository keeps beside it: examples/pacman.rs"
    docs = json.loads(run_route(["docs", "--json", "examples/pacman.rs"], repo.path).stdout)
    assert docs["rows"][0]["path"] == "examples/pacman.md" and docs["rows"][0]["status"] == "beside"
    assert routes(ask(repo, "examples/pacman.md shows subcommands in action; which Rust source produces that?"))[0] \
        == ("code", "examples/pacman.md")


def test_a_folders_readme_and_its_code_in_go(tmp_path_factory):
    repo = _built(tmp_path_factory, "web", GO_FOLDERS)
    code = json.loads(run_route(["code", "--json", "gins/README.md"], repo.path).stdout)
    assert [r["path"] for r in code["rows"]][:2] == ["gins/gins.go", "engine.go"]  # beside it, then what it names
    docs = json.loads(run_route(["docs", "--json", "gins/gins.go"], repo.path).stdout)
    assert docs["rows"][0]["path"] == "gins/README.md"
    # a README that names files of its own folder says which: the others are not listed for it
    named = json.loads(run_route(["code", "--json", "client/README.md"], repo.path).stdout)
    assert [r["path"] for r in named["rows"]] == ["client/updater.go"]
    text = run_route(["code", "gins/README.md"], repo.path).stdout
    assert "gins/gins.go  (the file)  (beside it)" in text


# --- a name spelled as code and words that only ask for it --------------------------------------------------------

CLI = {
    "pyproject.toml": '[project]\nname = "cli"\n',
    "src/cli/groups.py": (
        '"""Command groups."""\n\n\n'
        'class AppGroup:\n    """A group of commands."""\n\n'
        '    def command(self, name):\n        """Register a command under a name."""\n        return name\n\n\n'
        'class FlaskGroup(AppGroup):\n    """The group that loads the application."""\n\n'
        '    def get_command(self, ctx, name):\n        """Look a command up by its name."""\n'
        '        return self.command(name)\n\n\n'
        'def locate_app(module):\n    """Import the module that holds the application."""\n    return module\n\n\n'
        'def open_resource(path):\n    """Open a file of the package."""\n    return open(path)\n'
    ),
    "src/cli/main.py": ('from cli.groups import FlaskGroup\nfrom cli.registry import Registry\n\n\n'
                        'def main():\n    Registry().add("run")\n    Registry().Find("run")\n'
                        '    return FlaskGroup().get_command(None, "run")\n'),
    "src/cli/registry.py": ('class Registry:\n    """Commands by name."""\n\n    def add(self, name):\n        return name\n\n'
                            '    def Find(self, name):\n        return name\n'),
    "src/cli/env.py": ('class Defined:\n    """A value set on purpose."""\n\n\n'
                       'def GO111MODULE():\n    """The module mode."""\n    return "on"\n'),
    "tests/test_groups.py": (
        'import shutil\n\nfrom cli.groups import FlaskGroup\n\n\n'
        'def rrmdir(directory):\n    shutil.rmtree(directory)\n\n\n'
        'def test_get_command(tmp_path):\n    rrmdir(tmp_path)\n    assert FlaskGroup().get_command(None, "run")\n'
    ),
}


@pytest.fixture(scope="module")
def cli_repo(tmp_path_factory: pytest.TempPathFactory) -> RepoBuilder:
    return _built(tmp_path_factory, "cli", CLI)


@pytest.mark.parametrize("question", ["find get_command", "locate get_command", "open get_command",
                                      "show me get_command", "find the get_command method",
                                      "can you show me the code of get_command?", "get_command",
                                      "what happens in get_command?", "walk me through get_command"])
def test_a_name_asked_for_with_request_words_is_that_name(cli_repo, question):
    # Asked with the sentence's words, the symbol tiers scored `command` (or `locate_app`, `open_resource`) as high
    # as `get_command`, the word `get` being a name's weak word: the name alone is asked.
    doc = ask(cli_repo, question)
    assert doc["rows"][0]["name"] == "FlaskGroup.get_command"
    assert routes(doc)[0] == ("query", "get_command")


@pytest.mark.parametrize("text, kind", [
    ("find get_command", "symbol"),
    ("show me the url_for function", "symbol"),
    ("find get_command and locate_app", "symbol"),
    ("which file has get_command?", "symbol"),
    ("get_command - where does it live?", "symbol"),
    ("how does get_command find the command?", "meaning"),  # it asks something of the name
    ("find the callers of get_command", "impact"),  # a request word, and what it asks of the name
])
def test_request_words_around_names_ask_for_the_names(text, kind):
    classification = classify(text, EVIDENCE)
    assert classification.routes[0].kind == kind
    if kind == "symbol":
        assert "_" in classification.routes[0].text and not classification.routes[0].text.startswith(("find", "show"))


def test_a_name_in_a_test_that_holds_every_word_asked_is_the_answer(cli_repo):
    # The meaning index holds a test file's own text only, so none of the question's words is there; the symbol
    # tiers name the helper, which is what is asked about, not a word the repository lacks.
    doc = ask(cli_repo, "what does rrmdir do?")
    assert doc["status"] == "routed" and doc["rows"][0]["name"] == "rrmdir"
    assert doc["rows"][0]["path"] == "tests/test_groups.py"
    assert ask(cli_repo, "what does frobnicate do?")["status"] == "no_match"


@pytest.mark.parametrize("question", ["I need to change Registry, what else should I look at?",
                                      "if I change Registry, what breaks?"])
def test_a_change_questions_subject_is_read_in_the_clause_of_its_phrase(cli_repo, question):
    # The question's other words ("need", "else", "look") spent the lookups of a name spelled in words on longer
    # spellings first; the impact route was asked the whole question and found nothing.
    doc = ask(cli_repo, question)
    assert routes(doc)[0] == ("impact", "Registry")
    assert doc["rows"][0]["path"] == "src/cli/main.py"


@pytest.mark.parametrize("question", ["how is test_get_command used?", "where is test_get_command used?",
                                      "who depends on test_get_command?"])
def test_a_use_question_that_finds_no_use_answers_with_the_name(cli_repo, question):
    # The use phrase holds the whole question: the plain-words fallback was asked "?", and found nothing; or it
    # was asked "test_get_command?", which the symbol tiers match as no exact name.
    doc = ask(cli_repo, question)
    assert routes(doc) == [("impact", "test_get_command"), ("query", "test_get_command")]
    assert doc["rows"][0]["name"] == "test_get_command" and doc["rows"][0]["path"] == "tests/test_groups.py"


@pytest.mark.parametrize("question", ["show me the main function", "look up main for me", "find main"])
def test_a_requests_one_plain_word_that_names_a_symbol_is_the_name_asked_for(cli_repo, question):
    # "main" is no name by its shape; a request whose one other word it is asks for it when the repository defines it.
    doc = ask(cli_repo, question)
    assert routes(doc)[0] == ("query", "main")
    assert (doc["rows"][0]["name"], doc["rows"][0]["path"]) == ("main", "src/cli/main.py")
    # a word the repository defines no symbol of stays a word of the question
    assert routes(ask(cli_repo, "show me the parsing function"))[0][1] == "show me the parsing function"


@pytest.mark.parametrize("question", ["find Find", "show me the Find method", "where is Find defined?"])
def test_a_capitalised_request_word_that_names_a_symbol_is_the_name(cli_repo, question):
    # "Find" is a word that asks, by its letters; capitalised inside a sentence and a symbol's name, it is the name
    # (Go's exported methods): "find Find" was all stop words, "show me the Find method" another name's row.
    doc = ask(cli_repo, question)
    assert doc["rows"][0]["name"] == "Registry.Find"
    assert ask(cli_repo, "who calls Find?")["rows"][0]["path"] == "src/cli/main.py"


def test_the_words_of_a_definition_phrase_name_nothing(cli_repo):
    # "defined" spelled the name `Defined` when the name asked has no code shape (GO111MODULE); a definition question
    # about a name nothing defines asks its words without the phrase's verb.
    assert ask(cli_repo, "where is GO111MODULE defined?")["rows"][0]["name"] == "GO111MODULE"
    doc = ask(cli_repo, "where is the registry defined?")
    assert doc["rows"][0]["name"] == "Registry"
    plain = ask(cli_repo, "where is frobnication defined?")
    assert all("defined" not in text for _kind, text in routes(plain))


# --- a docs question about a section's subject, in a document that names no symbol of it ---------------------------

PAGES = {
    "pyproject.toml": '[project]\nname = "hooks"\n',
    "src/hooks/caller.py": 'def call_all(impls):\n    """Call every implementation."""\n    return [f() for f in impls]\n',
    "docs/guide.rst": (
        "Guide\n=====\n\nCollecting results\n------------------\n\nBy default a call gathers what each plugin gives "
        "back into a list, newest plugin first.\n\nHistoric calls\n--------------\n\nA call may be kept and replayed "
        "to plugins registered later.\n"),
    "docs/install.md": "# Install\n\n## Core architecture\n\nThe manager keeps plugins; callers fan out to them.\n",
    "docs/why.rst": (
        "Choices\n=======\n\nWhy not argparse?\n-----------------\n\nArgparse guesses whether a token is "
        "an argument or an option, which breaks nested subcommands, so the parser here never guesses.\n"),
}


@pytest.mark.parametrize("question, page", [
    ("where is collecting results documented?", "docs/guide.rst"),
    ("which page explains historic calls?", "docs/guide.rst"),
    ("I want to read about core architecture", "docs/install.md"),
])
def test_a_docs_question_asks_the_sections_what_it_is_about(tmp_path_factory, question, page):
    # Every document's sections were asked the whole question: "documented", "page" and "explains" are in no section,
    # and the rule that a page's paragraph hold three of the question's words refused "collecting results".
    repo = _built(tmp_path_factory, "pages", PAGES)
    doc = ask(repo, question)
    assert doc["rows"] and doc["rows"][0]["path"] == page


@pytest.mark.parametrize("text, left", [
    ("where is collecting results documented?", "where is collecting results ?"),
    ("which page explains historic calls?", "which historic calls?"),
    ("what does the documentation say about the release notes?", "what does the about the release notes?"),
    ("documented", "documented"),
    ("point me to the guide on debug mode", "the on debug mode"),
    ("Where is it written down how to build the man page?", "Where is it how to build the man page?"),  # a topic's page
])
def test_the_words_that_ask_for_a_document_are_left_out_of_its_subject(text, left):
    from gitroute.phrases import without_doc_phrases

    assert without_doc_phrases(text) == left


def test_a_docs_question_about_a_code_name_the_repository_never_writes_is_no_match(tmp_path_factory):
    # With the words that ask for a document left out, the sections matched the name's parts ("plugin", "view") in
    # other paragraphs; a name spelled as code that nothing defines and no file writes is what it asks about.
    repo = _built(tmp_path_factory, "pages", PAGES)
    doc = ask(repo, "Is there a reference page explaining the PluginCallView class and its replay methods?")
    assert doc["status"] == "no_match" and "PluginCallView" in doc["notes"][0]


def test_a_code_name_in_a_clause_of_context_before_a_docs_phrase_is_not_what_it_asks_about(tmp_path_factory):
    # Knex: "npm install keeps failing with a ModuleNotFoundError …; which part of the docs tells me what I need
    # installed first?": the error is where the asker stands; the sections are asked. Said as the subject, it is.
    repo = _built(tmp_path_factory, "pages", PAGES)
    doc = ask(repo, "Installing keeps failing with a PluginCallView error for me; which part of the docs explains "
                    "historic calls?")
    assert doc["status"] == "routed" and doc["rows"][0]["path"] == "docs/guide.rst", doc
    refused = ask(repo, "Which part of the docs explains historic calls of the PluginCallView class?")
    assert refused["status"] == "no_match" and "PluginCallView" in refused["notes"][0]


@pytest.mark.parametrize("question", ["is there a design record about why not argparse?",
                                      "what was the reasoning behind not using argparse?",
                                      "is there an ADR on why not argparse?"])
def test_a_why_question_asks_the_records_what_it_is_about(tmp_path_factory, question):
    # "design record" and "ADR" are in no section: asked with them, a page's paragraph held too few of the question's
    # words.
    repo = _built(tmp_path_factory, "pages", PAGES)
    doc = ask(repo, question)
    assert doc["rows"] and doc["rows"][0]["path"] == "docs/why.rst"


@pytest.mark.parametrize("text, left", [
    ("is there a design record about why not argparse?", "is there a about why not argparse?"),
    ("what alternatives were considered for the cache?", "what alternatives were considered for the cache?"),
    ("was there a decision record about the cache?", "was there a decision about the cache?"),  # a kind's word stays
    ("why does the design keep records in one file?", "why does the design keep records in one file?"),  # its topic
])
def test_the_words_that_ask_for_a_record_are_left_out_of_its_subject(text, left):
    from gitroute.phrases import without_decision_phrases

    assert without_decision_phrases(text) == left
