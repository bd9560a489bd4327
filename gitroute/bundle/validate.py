"""Checks on every value a bundle supplies: a bundle may have been fetched from anyone, so it is untrusted input.

Each check returns the value in its checked form or raises `BadValue` saying what is wrong, never
echoing the value itself (it may hold escape sequences). Plain string tests, no regular
expressions: a query pays for these on every answer.
"""
from __future__ import annotations

import json

from gitroute.bundle.layout import FORMAT_TRAILER, SOURCE_TRAILER

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on the query path
if TYPE_CHECKING:
    from collections.abc import Collection, Sequence

    from gitroute.model import Answer, Row

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


# What a row of an answer may hold. No file gitroute indexes has a billion lines (the per-file ceilings stop far
# below); a name is an identifier, a heading or a title, which the build cuts far shorter.
MAX_LINE = 1 << 30
MAX_NAME = 2000
MAX_EXACT_INT = (1 << 53) - 1  # past it a JSON reader in JavaScript rounds an int
_CONTROL = frozenset(chr(c) for c in (*range(0x20), *range(0x7F, 0xA0)))


def has_control(text: str) -> bool:
    """Whether `text` holds a C0 or C1 control character or DEL (a newline, an escape): never in a name."""
    return not text.isprintable() and not _CONTROL.isdisjoint(text)


def check_line(value: object, what: str) -> int:
    """A 1-based line number: an int (not a bool), at least 1, at most MAX_LINE."""
    if type(value) is not int or not 1 <= value <= MAX_LINE:
        raise BadValue(f"{what} is not a line number")
    return value


def check_name(value: object, what: str, path: str = "") -> str:
    """A name shown in a row: text of at most MAX_NAME characters, and no control character unless it is part of
    the row's `path` (git allows any character but NUL in a file name, and a file's row is named by it)."""
    if not isinstance(value, str) or len(value) > MAX_NAME or has_control(value) and value not in path:
        raise BadValue(f"{what} is not a name")
    return value


def check_number(value: object, what: str) -> float:
    """A score or a signal: a finite int or float (JSON has no NaN or infinity)."""
    if not (isinstance(value, (int, float)) and type(value) is not bool and -1e300 < value < 1e300):
        raise BadValue(f"{what} is not a finite number")  # NaN fails both comparisons
    return value


def check_answer(answer: Answer) -> Answer:
    """Every row of an answer checked before it is shown, in any form (text, `--json`, MCP, `ask`): its path a
    normalised relative path, its line a line number, its name and kind names, its score and signals finite
    numbers. Raises `BadValue` naming the first row that is not: one bad row fails the whole answer (a bundle
    that holds one forged row may hold others that pass every check, so none of it is shown)."""
    for n, row in enumerate(answer.rows, 1):
        what = f"row {n} of its answer"
        if row.path != ".":  # the repository's top folder (wiring's package at the root)
            check_relative_path(row.path, f"the path of {what}")
        if row.line is not None:
            check_line(row.line, f"the line of {what}")
        if row.name is not None:
            check_name(row.name, f"the name of {what}", row.path)
        if row.kind is not None:
            check_name(row.kind, f"the kind of {what}")
        check_number(row.score, f"the score of {what}")
        for _signal, value in row.signals:
            check_number(value, f"a signal of {what}")
        for key, value in row.extra:
            _check_numbers(value, f"'{key}' of {what}")
    return answer


def check_listed(rows: Sequence[Row], listed: Collection[str], where: str) -> None:
    """Each row's path one the index's own list holds (`where` names it): a row of a document the index does not
    list is forged. Raises `BadValue`."""
    for n, row in enumerate(rows, 1):
        if row.path not in listed:
            raise BadValue(f"the path of row {n} of its answer is not in {where}")


def _check_numbers(value: object, what: str, depth: int = 0) -> None:
    """Every number inside an index's own row value finite, and an int one a JSON reader takes exactly."""
    if type(value) is float:
        check_number(value, what)
    elif type(value) is int:
        if not -MAX_EXACT_INT <= value <= MAX_EXACT_INT:
            raise BadValue(f"{what} is not a number a JSON reader takes exactly")
    elif isinstance(value, (list, tuple, dict)):
        if depth > 8:
            raise BadValue(f"{what} is nested too deeply")
        for item in value.values() if isinstance(value, dict) else value:
            _check_numbers(item, what, depth + 1)


def load_blob(data: bytes) -> object:
    """A bundle blob's JSON. Raises `BadValue` when it is not JSON, is nested past what the parser takes (a
    RecursionError), or spells a constant JSON has not (NaN, Infinity: Python's parser takes them)."""
    try:
        return json.loads(data, parse_constant=_no_constant)
    except RecursionError as err:
        raise BadValue("is nested too deeply") from err
    except ValueError as err:  # not JSON, not UTF-8, an int of too many digits, NaN
        raise BadValue("is unreadable") from err


def _no_constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


# --- how large a blob of each kind may be ------------------------------------------------------------------

# A blob's ceiling: BLOB_BASE plus, for each count of the section that bounds its kind (the index's `meta.json`;
# the graph's, symbols'), that count times the bytes one item of it may take in one blob, with room for the
# longest name, path or text the build keeps (measured on real bundles: the largest blob of every kind is under a
# tenth of its ceiling). A blob past its ceiling is refused before it is read (`git cat-file` gives the size
# first): a fetched bundle cannot make an answer hold a 300 MB shard of a repository of a hundred files.
BLOB_BASE = 1 << 16
META_CEILING = 1 << 20  # an index's meta.json, read before its counts are known
MANIFEST_CEILING = 1 << 26  # build.json: status only; it lists every file the build skipped
BLOB_CEILINGS: dict[str, tuple[str, tuple[tuple[str, int], ...]]] = {
    # kind (a folder, or a blob's path) -> (the index whose counts bound it, ((count, bytes an item), ...))
    "graph/nodes": ("symbols", (("nodes", 8192),)),
    "graph/pages": ("symbols", (("nodes", 8192),)),
    "graph/in": ("symbols", (("nodes", 8192),)),
    "graph/out": ("symbols", (("nodes", 8192),)),
    "symbols/postings": ("symbols", (("postings", 64), ("tokens", 512))),
    "impact/names": ("impact", (("names", 2048),)),
    "impact/contracts.json": ("impact", (("contracts", 16384), ("contract_copies", 16384))),
    "wiring/wiring.json": ("wiring", (("contracts", 16384), ("dependencies", 4096), ("dispatches", 4096),
                                      ("packages", 8192), ("published", 4096), ("submodules", 4096),
                                      ("workflow_calls", 4096), ("workflows", 8192), ("configs", 4096),
                                      ("config_words", 256))),
    "doc_links/by_doc": ("doc_links", (("links", 16384), ("documents", 8192))),
    "doc_links/by_target": ("doc_links", (("links", 16384), ("documents", 8192))),
    "doc_links/docs.json": ("doc_links", (("documents", 8192),)),
    "decisions/postings": ("decisions", (("rows", 32768), ("items", 4096))),
    "decisions/rows": ("decisions", (("rows", 32768), ("items", 4096))),
    "decisions/records.json": ("decisions", (("records", 65536), ("design_documents", 65536), ("items", 4096))),
    "meaning/postings": ("meaning", (("postings", 64), ("tokens", 512))),
    "meaning/files.bin": ("meaning", (("documents", 64),)),
    "meaning/lengths.bin": ("meaning", (("documents", 64),)),
}


def blob_kind(path: str) -> str:
    """A blob's kind: its path when the kind is one blob, else its folder (`graph/nodes`)."""
    return path if path in BLOB_CEILINGS else path.rpartition("/")[0]


def blob_ceiling(path: str, counts: dict | None) -> int | None:
    """The most bytes the blob at `path` may hold, given the counts of the section that bounds its kind (None
    when it has no counts yet); None for a kind answers never read (extractions, the large bundle's)."""
    if path == "build.json":
        return MANIFEST_CEILING
    if path.endswith("/meta.json") and path.count("/") == 1:
        return META_CEILING
    kind = BLOB_CEILINGS.get(blob_kind(path))
    if kind is None:
        return None
    total = BLOB_BASE
    for key, each in kind[1]:
        count = counts.get(key, 0) if counts else 0
        total += each * count if type(count) is int and count > 0 else 0
    return total


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
    indexes = value.get("indexes", {})
    if not isinstance(indexes, dict) or not all(isinstance(s, dict) for s in indexes.values()):
        raise BadValue("its 'build.json' indexes are not objects")
    for name, section in indexes.items():
        index_counts = section.get("counts", {})
        if not isinstance(index_counts, dict):
            raise BadValue(f"its 'build.json' counts of index '{name}' are not an object")
        for key, count in index_counts.items():
            check_count(count, f"its 'build.json' count '{name}.{key}'")
    for key in ("gitroute_version", "calls"):
        if not isinstance(value.get(key, ""), str):
            raise BadValue(f"its 'build.json' {key} is not text")
    return value
