"""Per-file ceilings a repository cannot lift: a committed size limit is clamped, minified code and a parse past its
memory ceiling are skipped, and the build report and `status` name each."""
from __future__ import annotations

import json

import pytest

from gitroute.config import SAFE_MAX_FILE_BYTES, ConfigError, parse_config
from gitroute.parsing import extract, limits
from gitroute.parsing.grammars import parse_bounded, parser
from tests.test_snapshot import build, named, query, skipped

HUGE = 64 * 1024 * 1024
CLAMPED_CONFIG = f"[build]\nmax_file_bytes = {HUGE}\n"


def big_python(size: int, name: str) -> str:
    """A Python file of about `size` bytes in ordinary lines (one long string), defining class `name` at its end."""
    line = "words of a long module docstring, sixty-four bytes a line....\n"
    return '"""\n' + line * (size // len(line)) + f'"""\n\n\nclass {name}:\n    pass\n'


def minified_js(size: int) -> str:
    """`size` bytes of JavaScript on one line, as a minifier writes it."""
    unit = "function a{0}(b){{return c(b)+{0}}};"
    return "".join(unit.format(i) for i in range(size // 30))[:size].rpartition(";")[0] + ";"


# --- the size limit a commit may set -----------------------------------------------------------------------------


def test_a_committed_size_limit_above_the_safety_ceiling_is_clamped():
    config = parse_config(CLAMPED_CONFIG.encode())
    assert config.max_file_bytes == SAFE_MAX_FILE_BYTES
    assert config.limits() == {"max_file_bytes": {"value": SAFE_MAX_FILE_BYTES, "from": ".gitroute.toml",
                                                  "ceiling": SAFE_MAX_FILE_BYTES, "asked": HUGE}}
    # what is built is what the ceiling allows: the same fingerprint as asking for the ceiling itself
    at_ceiling = parse_config(f"[build]\nmax_file_bytes = {SAFE_MAX_FILE_BYTES}\n".encode())
    assert config.fingerprint() == at_ceiling.fingerprint()
    assert "asked" not in at_ceiling.limits()["max_file_bytes"]
    assert parse_config(None).limits()["max_file_bytes"]["from"] == "default"


def test_only_the_command_line_goes_past_the_ceiling():
    config = parse_config(CLAMPED_CONFIG.encode()).with_max_file_bytes(HUGE)
    assert config.max_file_bytes == HUGE
    assert config.limits()["max_file_bytes"] == {"value": HUGE, "from": "command line", "ceiling": SAFE_MAX_FILE_BYTES}


def test_a_size_limit_below_one_byte_is_an_error():
    with pytest.raises(ConfigError) as raised:
        parse_config(b"[build]\nmax_file_bytes = 0\n")
    assert raised.value.message == "'.gitroute.toml': 'build.max_file_bytes' must be at least 1"


def test_build_and_status_name_a_clamped_setting_and_what_it_skipped(make_repo, route):
    repo = make_repo()
    repo.commit({
        ".gitroute.toml": CLAMPED_CONFIG,
        "huge.py": big_python(SAFE_MAX_FILE_BYTES + 4096, "BeyondTheCeiling"),
        "small.py": "class Small:\n    pass\n",
    })

    result = route(["build", "-q"], repo.path)

    assert result.exit_code == 0, result.stderr
    assert result.stderr.splitlines() == [
        "warning: '.gitroute.toml' sets 'build.max_file_bytes = 67108864', above the safety ceiling of 2097152 "
        "bytes: files over 2097152 bytes are skipped as too-large (only 'git route build --max-file-bytes N' goes "
        "past the ceiling)"]
    assert skipped(repo) == [["huge.py", "too-large"]]
    status = route(["status"], repo.path).stdout.splitlines()
    assert ("limits: max_file_bytes 2097152 (.gitroute.toml sets 67108864: clamped to the safety ceiling; "
            "'git route build --max-file-bytes N' goes past it)") in status
    assert "  too-large: huge.py" in status
    document = json.loads(route(["status", "--json"], repo.path).stdout)
    assert document["limits"]["max_file_bytes"]["asked"] == HUGE
    assert document["over_limits"] == [["huge.py", "too-large"]]


def test_build_max_file_bytes_on_the_command_line_reads_the_file(make_repo, route):
    repo = make_repo()
    repo.commit({".gitroute.toml": CLAMPED_CONFIG, "huge.py": big_python(SAFE_MAX_FILE_BYTES + 4096, "Beyond")})

    report = build(route, repo, "--max-file-bytes", "3m")

    assert report["limits"]["max_file_bytes"] == {"value": 3 * 1024 * 1024, "from": "command line",
                                                  "ceiling": SAFE_MAX_FILE_BYTES}
    assert report["notes"] == []
    assert skipped(repo) == []
    assert named(query(route, repo, "Beyond"), "Beyond") == ["huge.py"]
    status = route(["status"], repo.path).stdout.splitlines()
    assert "limits: max_file_bytes 3145728 (command line)" in status


@pytest.mark.parametrize("size, expected", [("1048576", 1048576), ("512k", 512 * 1024), ("8m", 8 << 20),
                                            ("8MiB", 8 << 20), ("1g", 1 << 30), ("100b", 100)])
def test_max_file_bytes_takes_git_style_sizes(make_repo, route, size, expected):
    repo = make_repo()
    repo.commit({"app.py": "class App:\n    pass\n"})
    assert build(route, repo, "--max-file-bytes", size)["limits"]["max_file_bytes"]["value"] == expected


@pytest.mark.parametrize("size", ["8x", "0", "-1", "m", "1.5m"])
def test_a_size_that_is_not_one_is_a_usage_error(make_repo, route, size):
    repo = make_repo()
    repo.commit({"app.py": "class App:\n    pass\n"})
    result = route(["build", "--max-file-bytes", size], repo.path)
    assert result.exit_code == 129
    assert result.stdout == ""
    assert result.stderr.startswith("error: invalid value for '--max-file-bytes'")


# --- what a file may cost, whatever its size -----------------------------------------------------------------------


def test_minified_code_is_skipped_and_named(make_repo, route):
    repo = make_repo()
    repo.commit({
        "vendor/app.min.js": minified_js(100_000),
        "short_one_line.js": minified_js(2_000),  # under the size where lines are looked at: parsed
        "data.json": json.dumps({f"k{i}": i for i in range(10_000)}),  # data is not parsed as code: kept
        "app.js": "function main() { return 1 }\n",
    })

    build(route, repo)

    assert skipped(repo) == [["vendor/app.min.js", "minified"]]
    status = route(["status"], repo.path).stdout.splitlines()
    assert "skipped: 1 minified" in status
    assert "  minified: vendor/app.min.js" in status
    assert named(query(route, repo, "main"), "main") == ["app.js"]


def test_hand_written_long_lines_are_not_minified():
    # jsoup's entity table: string literals of about 1,800 bytes a line
    line = '  static final String points = "' + "a" * 1800 + '";\n'
    data = ("class Entities {\n" + line * 60 + "}\n").encode()
    assert len(data) > limits.MINIFIED_MIN_BYTES
    limits.check_minified(data)
    assert extract(data, "java").symbols


def test_a_parse_past_the_memory_ceiling_is_cancelled_and_the_parser_still_works(monkeypatch):
    monkeypatch.setattr(limits, "PARSE_MEMORY_CEILING", 8 << 20)
    javascript = parser("javascript")
    assert javascript is not None
    nested = b"x = " + b"(" * 400_000  # tree-sitter keeps ~250 bytes per open parenthesis: ~100 MB

    with pytest.raises(limits.ExtractLimit) as raised:
        parse_bounded(javascript, nested)

    assert raised.value.reason == "parse-limit"
    assert str(raised.value) == "parse-limit: parsing took more than 8 MiB"
    tree = parse_bounded(javascript, b"function after() {}\n")
    assert tree.root_node.type == "program" and not tree.root_node.has_error


def test_a_guarded_parse_reads_the_memory_it_checks_through_one_descriptor_and_closes_it():
    import os

    watch = limits.ParseWatch(1 << 20)
    # The descriptor held open reads what opening the file reads (the memory can move a little between them).
    assert abs(watch.resident() - limits.resident_bytes()) < 16 << 20
    watch.close()
    watch.close()  # twice is harmless
    assert watch.resident() > 0  # closed: read the plain way
    javascript = parser("javascript")
    assert javascript is not None
    before = len(os.listdir("/proc/self/fd"))
    for _ in range(3):
        parse_bounded(javascript, b"function f() { return 1 }\n" * 4000)  # past GUARDED_MIN_BYTES
    assert len(os.listdir("/proc/self/fd")) == before


def test_a_file_past_the_parse_memory_ceiling_is_skipped_and_named(make_repo, route, monkeypatch):
    monkeypatch.setattr(limits, "PARSE_MEMORY_CEILING", 8 << 20)
    repo = make_repo()
    repo.commit({"deep.py": "x = " + "(" * 400_000 + "\n" * 200, "app.py": "class App:\n    pass\n"})

    build(route, repo, "-j", "1")

    assert skipped(repo) == [["deep.py", "parse-limit"]]
    assert "  parse-limit: deep.py" in route(["status"], repo.path).stdout.splitlines()
    assert named(query(route, repo, "App"), "App") == ["app.py"]
