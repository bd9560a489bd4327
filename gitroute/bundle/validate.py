"""Checks on every value a bundle supplies: a bundle may have been fetched from anyone, so it is untrusted input.

Each check returns the value in its checked form or raises `BadValue` saying what is wrong, never
echoing the value itself (it may hold escape sequences). Plain string tests, no regular
expressions: a query pays for these on every answer.
"""
from __future__ import annotations

from gitroute.bundle.layout import FORMAT_TRAILER, SOURCE_TRAILER

HEX_DIGITS = "0123456789abcdef"
OBJECT_ID_LENGTHS = (40, 64)  # sha1 and sha256 repositories


class BadValue(ValueError):
    """A value read from a bundle that is not what it must be; the message says why, for a person."""


def is_object_id(value: object, length: int) -> bool:
    """A full, lowercase hex object id of the repository's hash length: never an option, a ref or a range."""
    return isinstance(value, str) and len(value) == length and not value.strip(HEX_DIGITS)


def check_object_id(value: object, length: int, what: str) -> str:
    if not is_object_id(value, length):
        raise BadValue(f"{what} is not a full object id")
    return value  # type: ignore[return-value]  # is_object_id checked it is a str


def check_count(value: object, what: str) -> int:
    """A non-negative int (JSON's `true` is not a count)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadValue(f"{what} is not a count")
    return value


def check_version(text: str | None, what: str) -> int:
    """A version number from a trailer: ASCII digits only (int() would also take ' 1', '+1' and '1_0')."""
    if text is None or not text.isascii() or not text.isdigit() or len(text) > 9:
        raise BadValue(f"{what} is not a version number")
    return int(text)


def check_relative_path(value: object, what: str) -> str:
    """A normalised repository-relative POSIX path: no leading '/', no empty, '.' or '..' part, no NUL.

    A backslash is allowed: it is an ordinary character in a git path, and names that are not UTF-8
    are stored with backslash escapes.
    """
    if not isinstance(value, str) or not value or "\0" in value:
        raise BadValue(f"{what} is not a relative path")
    if any(part in ("", ".", "..") for part in value.split("/")):
        raise BadValue(f"{what} is not a normalised relative path")
    return value


def check_id_length(commit_id: str) -> int:
    """The repository's hash length, learnt from an id git itself printed."""
    if len(commit_id) not in OBJECT_ID_LENGTHS:
        raise BadValue("its commit id has an unknown length")
    return len(commit_id)


def commit_trailers(commit: bytes) -> dict[str, str]:
    """`Key: value` trailers of a raw commit object's message (its last paragraph)."""
    _, _, message = commit.partition(b"\n\n")
    last = message.decode("utf-8", "replace").strip().rpartition("\n\n")[2]
    trailers: dict[str, str] = {}
    for line in last.splitlines():
        key, sep, value = line.partition(": ")
        if sep:
            trailers[key.strip()] = value.strip()
    return trailers


def check_bundle_commit(raw: bytes, length: int) -> tuple[int, str, str]:
    """(format version, source commit, tree id) from a raw bundle commit object, each checked."""
    first = raw.split(b"\n", 1)[0].decode("ascii", "replace")
    if not first.startswith("tree "):
        raise BadValue("its commit has no tree")
    tree = check_object_id(first[5:], length, "its commit's tree")
    trailers = commit_trailers(raw)
    if FORMAT_TRAILER not in trailers:
        raise BadValue(f"its commit has no '{FORMAT_TRAILER}' trailer")
    version = check_version(trailers[FORMAT_TRAILER], f"its '{FORMAT_TRAILER}' trailer")
    source = check_object_id(trailers.get(SOURCE_TRAILER), length, f"its '{SOURCE_TRAILER}' trailer")
    return version, source, tree


def check_manifest(value: object) -> dict:
    """The parts of `build.json` that status shows, checked for shape: a wrong one is a damaged bundle."""
    if not isinstance(value, dict):
        raise BadValue("its 'build.json' is not an object")
    counts = value.get("counts", {})
    if not isinstance(counts, dict):
        raise BadValue("its 'build.json' counts are not an object")
    for key, count in counts.items():
        if isinstance(count, dict):
            for name, n in count.items():
                check_count(n, f"its 'build.json' count '{key}.{name}'")
        else:
            check_count(count, f"its 'build.json' count '{key}'")
    skipped = value.get("skipped_by_reason", {})
    if not isinstance(skipped, dict):
        raise BadValue("its 'build.json' skips are not an object")
    for count in skipped.values():
        check_count(count, "a 'build.json' skip count")
    submodules = value.get("submodules", [])
    if not isinstance(submodules, list):
        raise BadValue("its 'build.json' submodules are not a list")
    for sub in submodules:
        if not isinstance(sub, dict) or not isinstance(sub.get("present"), bool):
            raise BadValue("a 'build.json' submodule is not an object")
        check_relative_path(sub.get("path"), "a 'build.json' submodule path")
        if not is_object_id(sub.get("commit"), 40) and not is_object_id(sub.get("commit"), 64):
            raise BadValue("a 'build.json' submodule commit is not a full object id")
    warnings = value.get("warnings", [])
    if not isinstance(warnings, list) or not all(
            isinstance(w, list) and len(w) == 2 and all(isinstance(s, str) for s in w) for w in warnings):
        raise BadValue("its 'build.json' warnings are not [path, warning] pairs")
    for path, _ in warnings:
        check_relative_path(path, "a 'build.json' warning path")
    check_count(value.get("warnings_total", 0), "its 'build.json' warning total")
    for key in ("gitroute_version", "calls"):
        if not isinstance(value.get(key, ""), str):
            raise BadValue(f"its 'build.json' {key} is not text")
    return value
