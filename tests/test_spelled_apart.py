"""Words a question spells apart that a repository spells as one (`text.spelled_apart`): "time zone" and a class
`Timezone`, "start up" and a section's "startup", "JavaScript" and a section's "javascript". The plain-words index
takes the joined word as its rarer part's alternative at full weight, the why index as one more word of the question.
Real builds of small repositories."""
from __future__ import annotations

import json

from gitroute.text import MAX_JOINED, spelled_apart
from tests.conftest import RepoBuilder, run_route


def test_adjacent_words_and_camel_cased_words_join():
    assert spelled_apart("where is the time zone of a built-in clock set up?") == {
        "timezone": ("time", "zone"), "builtin": ("built", "in"), "buildin": ("built", "in"), "clockset": ("clock", "set"), "setup": ("set", "up")}
    assert spelled_apart("it looks up names") == {"looksup": ("looks", "up"), "lookup": ("looks", "up"),
                                                   "upnames": ("up", "names")}
    assert spelled_apart("templates into JavaScript") == {"javascript": ("java", "script")}
    assert spelled_apart("the file in use") == {}  # a stop word between words spaced apart joins nothing
    assert spelled_apart("a_b c.d e/f x1 y2") == {}  # only letters, a space or a hyphen between
    assert len(spelled_apart(" ".join(f"w{'a' * i}" for i in range(60)).replace("w", "wq"))) <= MAX_JOINED


def test_a_phrasal_verb_stands_for_its_one_word():
    def one_words(question: str) -> dict:
        return {word: parts for word, parts in spelled_apart(question).items() if word in ("disable", "enable")}

    assert one_words("how do I switch retrying off completely?") == {"disable": ("switch", "off")}
    assert one_words("Turning the cache off in tests") == {"disable": ("turning", "off")}
    assert one_words("shut off the colours") == {"disable": ("shut", "off")}
    assert one_words("where do I turn on debug mode") == {"enable": ("turn", "on")}
    # a switch statement's dispatch on a value is no switching on; three words apart is no phrase
    assert one_words("the switch on the node type") == {}
    assert one_words("turn the page of the book off") == {}


def _built(tmp_path, name: str, files: dict[str, str]) -> RepoBuilder:
    repo = RepoBuilder(tmp_path / name)
    repo.commit(files, "initial")
    result = run_route(["build", "-q"], repo.path)
    assert result.exit_code == 0, result.stderr
    return repo


def _asked(repo: RepoBuilder, *args: str) -> dict:
    result = run_route([*args, "--json"], repo.path)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


ZONES = '''class Timezone:
    """An offset from UTC with its abbreviation and the rules of daylight saving."""

    def utcoffset(self, moment):
        return self.offset


def lookup(identifier):
    """The Timezone of an identifier such as Europe/Paris."""
    return Timezone()
'''
CLOCK = '''def now(precise=False):
    """The current time, as a float, with the clock's own resolution."""
    return 0.0


def sleep(seconds):
    """Wait for a time; the schedule is left idle."""
'''


def test_a_question_in_two_words_finds_the_name_that_holds_them_as_one(tmp_path):
    # "time" is in timing.py, "zone" nowhere but in the one word "timezone" of offsets.py, as "look up" in "lookup"
    repo = _built(tmp_path, "zones", {"clock/offsets.py": ZONES, "clock/timing.py": CLOCK})
    rows = _asked(repo, "query", "--meaning", "--explain", "which file looks up the time zone for an identifier")["rows"]
    assert rows[0]["path"] == "clock/offsets.py"
    assert {"timezon", "lookup"} <= rows[0]["matched"].keys()  # stems, as the index keeps them


def test_two_words_code_writes_as_one_short_word_find_it(tmp_path):
    # winston's "… goes to standard error or standard output …": code writes stderr and stdout
    assert {"stderr", "stdout", "regex"} <= spelled_apart("standard error, standard output and regular expressions").keys()
    streams = ("import sys\n\n\ndef report(message):\n    \"\"\"Write the message to stderr, flushed at once.\"\"\"\n"
               "    sys.stderr.write(message)\n")
    other = "def render(page):\n    \"\"\"Render a page of the site with its template.\"\"\"\n    return page\n"
    repo = _built(tmp_path, "streams", {"app/streams.py": streams, "app/pages.py": other})
    rows = _asked(repo, "query", "--meaning", "function writing a message to standard error")["rows"]
    assert rows and rows[0]["path"] == "app/streams.py"


GUIDE = """# Guide

## Precompiling

Turning templates into javascript ahead of time gives every page a faster startup.

## Loading

Each page loads its templates when it starts, and up to ten of them are kept: the faster loader saves time.
"""


def test_a_why_question_in_two_words_finds_the_section_that_holds_them_as_one(tmp_path):
    repo = _built(tmp_path, "guide", {"app/main.py": "def main():\n    return 0\n", "docs/guide.md": GUIDE})
    question = "which section explains turning templates into JavaScript ahead of time so pages start up faster"
    doc = _asked(repo, "why", question)
    assert doc["rows"][0]["name"] == "Precompiling"


SWITCHES = """# Guide

## Disabling Retries

You can disable retrying entirely by passing a flag: useful while testing, when each failure should show at once.

## Waiting

Each retry waits longer than the one before it, up to a ceiling the caller sets, while testing or not.
"""


def test_a_section_that_disables_answers_how_to_switch_it_off(tmp_path):
    # the question's words alone ("switch", "off") are in no section: without the phrase, no section covers it
    repo = _built(tmp_path, "switches", {"app/main.py": "def main():\n    return 0\n", "docs/guide.md": SWITCHES})
    doc = _asked(repo, "why", "which section explains how to switch retrying off while testing")
    assert doc["status"] == "routed"
    assert doc["rows"][0]["name"] == "Disabling Retries"
