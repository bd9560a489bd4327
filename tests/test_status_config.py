"""`status` from a subdirectory and both ways of staleness; `.gitroute.toml`'s bench file and its type errors."""
from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gitroute.config import parse_config
from gitroute.errors import ConfigError
from tests.conftest import SAMPLE_FILES, run_route


@pytest.fixture
def built(sample_repo):
    assert run_route(["build", "-q"], sample_repo.path).exit_code == 0
    return sample_repo


def status_json(repo, cwd=None) -> dict:
    result = run_route(["status", "--json"], cwd or repo.path)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def stale_line(repo) -> str:
    result = run_route(["status"], repo.path)
    assert result.exit_code == 0, result.stderr
    return next(line for line in result.stdout.splitlines() if line.startswith("stale: "))


# --- status ----------------------------------------------------------------------------------


def test_status_from_a_subdirectory_counts_the_whole_bundle(built):
    top = status_json(built)["bundle"]
    inside = status_json(built, built.path / "src" / "sample")["bundle"]
    assert top["blobs"] > 0
    assert inside == top
    text = run_route(["status"], built.path / "src").stdout
    assert f"({top['blobs']} blobs, " in text


def test_status_says_no_when_the_bundle_is_at_head(built):
    assert stale_line(built) == "stale: no"


def test_status_says_how_far_head_is_ahead(built):
    built.commit({**SAMPLE_FILES, "extra.py": "x = 1\n"}, "ahead")
    assert stale_line(built) == "stale: 1 commit behind HEAD"


def test_status_says_when_head_is_behind_the_bundle(built):
    built.commit({**SAMPLE_FILES, "extra.py": "x = 1\n"}, "second")
    built.commit({**SAMPLE_FILES, "extra.py": "x = 2\n"}, "third")
    assert run_route(["build", "-q"], built.path).exit_code == 0
    built.git("reset", "-q", "--hard", "HEAD~2")

    assert stale_line(built) == "stale: HEAD lacks 2 commits the bundle has"
    assert status_json(built)["source"]["behind_by"] == 2


def test_status_says_both_ways_when_head_and_the_bundle_diverged(built):
    first = built.git("rev-parse", "HEAD").strip()
    built.commit({**SAMPLE_FILES, "extra.py": "x = 1\n"}, "on the bundle's side")
    assert run_route(["build", "-q"], built.path).exit_code == 0
    built.git("reset", "-q", "--hard", first)
    built.commit({**SAMPLE_FILES, "other.py": "y = 1\n"}, "on HEAD's side", parents=[first])
    built.commit({**SAMPLE_FILES, "other.py": "y = 2\n"}, "and another")

    assert stale_line(built) == "stale: 2 commits behind HEAD; HEAD lacks 1 commit the bundle has"


# --- [bench] file ------------------------------------------------------------------------------

BENCH = ("schema: 1\nquestions:\n  - id: q1\n    type: symbol\n    question: open meteo client\n"
         "    expect: [src/sample/weather.py]\n")


def test_bench_reads_the_bench_file_the_committed_config_names(sample_repo):
    sample_repo.commit({**SAMPLE_FILES, ".gitroute.toml": '[bench]\nfile = "bench/questions.yaml"\n'})
    (sample_repo.path / "bench").mkdir()
    (sample_repo.path / "bench" / "questions.yaml").write_text(BENCH)
    assert run_route(["build", "-q"], sample_repo.path).exit_code == 0

    result = run_route(["bench", "--json"], sample_repo.path)

    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stdout)
    assert document["bench"].endswith("bench/questions.yaml")
    assert [q["id"] for q in document["questions"]] == ["q1"]


def test_bench_without_the_configured_file_names_it(sample_repo):
    sample_repo.commit({**SAMPLE_FILES, ".gitroute.toml": '[bench]\nfile = "bench/questions.yaml"\n'})
    (sample_repo.path / "routing-bench.yaml").write_text(BENCH)  # the default name, not the configured one
    assert run_route(["build", "-q"], sample_repo.path).exit_code == 0

    result = run_route(["bench"], sample_repo.path)

    assert result.exit_code == 128
    assert result.stderr.splitlines() == [
        f"fatal: no bench file at '{sample_repo.path / 'bench' / 'questions.yaml'}'",
        "hint: write 'bench/questions.yaml' at the top of the work tree, or pass FILE"]


def test_bench_config_is_read_from_the_commit_not_the_work_tree(sample_repo):
    (sample_repo.path / ".gitroute.toml").write_text('[bench]\nfile = "elsewhere.yaml"\n')  # not committed
    (sample_repo.path / "routing-bench.yaml").write_text(BENCH)
    assert run_route(["build", "-q"], sample_repo.path).exit_code == 0

    result = run_route(["bench", "--json"], sample_repo.path)

    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)["bench"].endswith("routing-bench.yaml")


# --- config type errors ------------------------------------------------------------------------


@pytest.mark.parametrize("config, message, hint", [
    ("[build]\nmax_file_bytes = 'big'\n", "'build.max_file_bytes' must be an integer",
     "for example, under [build]: max_file_bytes = 1048576"),
    ("[build]\nmax_file_bytes = true\n", "'build.max_file_bytes' must be an integer",
     "for example, under [build]: max_file_bytes = 1048576"),
    ("[build]\nexclude = 'vendor/**'\n", "'build.exclude' must be a list of strings",
     'for example, under [build]: exclude = ["node_modules/**", "**/node_modules/**"]'),
    ("[docs]\nfolders = [1, 2]\n", "'docs.folders' must be a list of strings",
     'for example, under [docs]: folders = ["docs"]'),
    ("[bench]\nfile = 3\n", "'bench.file' must be a string",
     'for example, under [bench]: file = "routing-bench.yaml"'),
])
def test_config_type_errors_say_the_type_in_words_and_show_a_valid_line(make_repo, config, message, hint):
    with pytest.raises(ConfigError) as raised:
        parse_config(config.encode())
    assert raised.value.message == f"'.gitroute.toml': {message}"
    assert raised.value.hint == hint
    # and each example line is itself valid
    section = hint.split("[", 1)[1].split("]", 1)[0]
    parse_config(f"[{section}]\n{hint.split(': ', 1)[1]}\n".encode())

    repo = make_repo()
    repo.commit({".gitroute.toml": config, "app.py": "class App:\n    pass\n"})
    result = run_route(["build"], repo.path)
    assert result.exit_code == 128
    assert result.stderr.splitlines() == [f"fatal: '.gitroute.toml': {message}", f"hint: {hint}"]


def test_an_unknown_config_key_lists_the_known_ones():
    with pytest.raises(ConfigError) as raised:
        parse_config(b"[bench]\nfiles = 'x.yaml'\n")
    assert raised.value.hint.startswith("the keys are 'build.max_file_bytes', ")
    assert "'bench.file'" in raised.value.hint


_GLOB_PARTS = ["**", "*", "?", "node_modules", "vendor", "a", ".git", "[ab]", "[!a]", "x.py", "/"]
_PATH_PARTS = ["node_modules", "vendor", "a", "b", ".git", "x.py", "ab", "src"]


@given(st.lists(st.lists(st.sampled_from(_GLOB_PARTS), min_size=1, max_size=5).map("".join), max_size=4),
       st.lists(st.lists(st.sampled_from(_PATH_PARTS), min_size=1, max_size=4).map("/".join), min_size=1, max_size=8))
def test_exclusion_as_one_pattern_answers_as_each_glob_does(globs: list[str], paths: list[str]) -> None:
    """The build's walk asks one compiled pattern (`Config.excluded`); `fnmatchcase` per glob is the rule it keeps."""
    import fnmatch

    from gitroute.config import Config

    config = Config(exclude=tuple(globs))
    for path in paths:
        expected = any(fnmatch.fnmatchcase(path, glob) for glob in globs)
        assert bool(config.excluded()(path)) is expected
        assert config.is_excluded(path) is expected
