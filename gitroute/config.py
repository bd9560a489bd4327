"""`.gitroute.toml`, read from the pinned commit (never the work tree), with defaults for every key."""
from __future__ import annotations

import fnmatch
import hashlib
import json
import re
import tomllib
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from functools import lru_cache
from typing import Any

from gitroute.errors import ConfigError

CONFIG_PATH = ".gitroute.toml"

# Folders that hold copies of other people's code: excluded unless configured otherwise.
DEFAULT_EXCLUDES = ("node_modules/**", "**/node_modules/**", ".git/**")
# 2 MiB as the default was measured (session 51): picocli's hand-written 1.19 MB CommandLine.java was answered, but the
# kernel's 50 files of 1-2 MiB (generated register headers) added 620,000 nodes and took its build past 4 GiB (3,793
# -> 4,135 MiB). A repository whose heart is that large commits `max_file_bytes = 2097152` (the ceiling).
DEFAULT_MAX_FILE_BYTES = 1024 * 1024
# The most a committed `.gitroute.toml` may set: the file comes with the commit, so a pull request could otherwise
# make every build of it (in CI, in a post-merge hook) parse a 50 MB file (measured: 55 s and 11.5 GB). A larger
# committed value is clamped to this, and named in the build report and `status`; only the command line
# (`git route build --max-file-bytes N`) goes past it. parsing/limits.py bounds what a file costs past bytes.
SAFE_MAX_FILE_BYTES = 2 * 1024 * 1024
# Where `max_file_bytes` came from.
FROM_DEFAULT, FROM_COMMITTED, FROM_COMMAND_LINE = "default", CONFIG_PATH, "command line"
# Keys that say where a setting came from, not what a build does: not part of the fingerprint.
_PROVENANCE = ("doc_code_map", "decisions_map", "max_file_bytes_from", "max_file_bytes_asked")


@dataclass(frozen=True)
class Config:
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    exclude: tuple[str, ...] = DEFAULT_EXCLUDES
    # Folders or globs that hold the documents doc_links reads; empty: every Markdown and
    # reStructuredText document of the snapshot (READMEs, *.md, *.rst, reStructuredText *.txt).
    docs: tuple[str, ...] = ()
    bench: str = "routing-bench.yaml"
    decisions: tuple[str, ...] = ()  # globs or folders of records; empty: the default rules (records.py)
    decisions_extra: tuple[str, ...] = ()  # globs or folders of records besides the default rules
    decisions_exclude: tuple[str, ...] = ()  # globs or folders that hold no record
    doc_code_map: str = "docs/DOC-CODE.md"  # the committed doc -> code map (`git route doc-code`)
    decisions_map: str = "docs/DECISIONS.md"  # the committed decision table (`git route decisions`)
    contract_drift: tuple[str, ...] = ()  # copies of a contract that drift on purpose ([contracts] drift)
    max_file_bytes_from: str = FROM_DEFAULT  # FROM_DEFAULT, FROM_COMMITTED or FROM_COMMAND_LINE
    max_file_bytes_asked: int | None = None  # what the committed file asked, when it was clamped

    def fingerprint(self) -> str:
        # Where the committed maps live changes nothing a build writes, so it is not part of the bundle.
        values = {k: v for k, v in asdict(self).items() if k not in _PROVENANCE}
        canonical = json.dumps(values, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]

    def is_excluded(self, path: str) -> bool:
        return _exclusion(self.exclude)(path) is not None

    def excluded(self) -> Callable[[str], object]:
        """`is_excluded` as one compiled pattern's match, for a walk over every path of a tree (a kernel's 86,000):
        truthy when excluded. Three times faster than a `fnmatchcase` per pattern, and the same answers."""
        return _exclusion(self.exclude)

    def with_max_file_bytes(self, value: int) -> Config:
        """The command line's `--max-file-bytes`: any size, past the safety ceiling too."""
        return replace(self, max_file_bytes=value, max_file_bytes_from=FROM_COMMAND_LINE, max_file_bytes_asked=None)

    def limits(self) -> dict:
        """The per-file limits as the build records them in build.json (and `status` shows)."""
        limit: dict[str, object] = {"value": self.max_file_bytes, "from": self.max_file_bytes_from,
                                    "ceiling": SAFE_MAX_FILE_BYTES}
        if self.max_file_bytes_asked is not None:
            limit["asked"] = self.max_file_bytes_asked
        return {"max_file_bytes": limit}


@lru_cache(maxsize=8)
def _exclusion(patterns: tuple[str, ...]) -> Callable[[str], object]:
    """A match of any of these globs (`fnmatch.fnmatchcase`'s rules: `*` crosses `/`), as one regular expression."""
    if not patterns:
        return lambda path: None
    return re.compile("|".join(fnmatch.translate(pattern) for pattern in patterns)).match


def limit_notes(limits: dict) -> list[str]:
    """What a build report and `status` say about `Config.limits()`: a committed setting that was clamped."""
    limit = limits.get("max_file_bytes")
    if not isinstance(limit, dict) or not isinstance(limit.get("asked"), int):
        return []
    return [f"'{CONFIG_PATH}' sets 'build.max_file_bytes = {limit['asked']}', above the safety ceiling of "
            f"{limit.get('ceiling')} bytes: files over {limit.get('value')} bytes are skipped as too-large "
            f"(only 'git route build --max-file-bytes N' goes past the ceiling)"]


# Every key: its type, and a valid line of it for the hint of an error.
_SCHEMA: dict[tuple[str, str], tuple[type, str]] = {
    ("build", "max_file_bytes"): (int, "max_file_bytes = 1048576"),
    ("build", "exclude"): (list, 'exclude = ["node_modules/**", "**/node_modules/**"]'),
    ("build", "extra_exclude"): (list, 'extra_exclude = ["third_party/**"]'),
    ("docs", "folders"): (list, 'folders = ["docs"]'),
    ("docs", "map"): (str, 'map = "docs/DOC-CODE.md"'),
    ("decisions", "paths"): (list, 'paths = ["design/*.md"]'),
    ("decisions", "extra_paths"): (list, 'extra_paths = ["notes/why"]'),
    ("decisions", "exclude"): (list, 'exclude = ["docs/archive/**"]'),
    ("decisions", "map"): (str, 'map = "docs/DECISIONS.md"'),
    ("bench", "file"): (str, 'file = "routing-bench.yaml"'),
    ("contracts", "drift"): (list, 'drift = ["vendor/schema/board.schema.json"]'),
}
# What each type is called in an error.
_TYPE_WORDS = {int: "an integer", list: "a list of strings", str: "a string"}


def _type_error(section: str, key: str, expected: type) -> ConfigError:
    return ConfigError(f"'{CONFIG_PATH}': '{section}.{key}' must be {_TYPE_WORDS[expected]}",
                       hint=f"for example, under [{section}]: {_SCHEMA[(section, key)][1]}")


def parse_config(data: bytes | None) -> Config:
    """Parse the committed `.gitroute.toml`; None (no file) gives the defaults."""
    if data is None:
        return Config()
    try:
        table = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise ConfigError(f"cannot read '{CONFIG_PATH}' at the pinned commit: {err}",
                          hint="fix the file and commit it; gitroute reads it from the commit") from err
    values: dict[tuple[str, str], Any] = {}
    for section, body in table.items():
        if not isinstance(body, dict):
            raise ConfigError(f"'{CONFIG_PATH}': '{section}' must be a table",
                              hint=f"for example: [build] on one line, then {_SCHEMA[('build', 'max_file_bytes')][1]}")
        for key, value in body.items():
            known = _SCHEMA.get((section, key))
            if known is None:
                raise ConfigError(f"'{CONFIG_PATH}': unknown key '{section}.{key}'",
                                  hint="the keys are " + ", ".join(f"'{s}.{k}'" for s, k in _SCHEMA))
            expected = known[0]
            if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
                raise _type_error(section, key, expected)
            if isinstance(value, list) and not all(isinstance(v, str) for v in value):
                raise _type_error(section, key, expected)
            values[(section, key)] = value
    max_bytes = values.get(("build", "max_file_bytes"), DEFAULT_MAX_FILE_BYTES)
    if max_bytes < 1:
        raise ConfigError(f"'{CONFIG_PATH}': 'build.max_file_bytes' must be at least 1",
                          hint=f"for example, under [build]: {_SCHEMA[('build', 'max_file_bytes')][1]}")
    asked = max_bytes if max_bytes > SAFE_MAX_FILE_BYTES else None
    exclude = tuple(values.get(("build", "exclude"), DEFAULT_EXCLUDES))
    exclude += tuple(values.get(("build", "extra_exclude"), ()))
    return Config(
        max_file_bytes=min(max_bytes, SAFE_MAX_FILE_BYTES),
        max_file_bytes_from=FROM_COMMITTED if ("build", "max_file_bytes") in values else FROM_DEFAULT,
        max_file_bytes_asked=asked,
        exclude=exclude,
        docs=tuple(values.get(("docs", "folders"), Config.docs)),
        bench=values.get(("bench", "file"), Config.bench),
        decisions=tuple(values.get(("decisions", "paths"), ())),
        decisions_extra=tuple(values.get(("decisions", "extra_paths"), ())),
        decisions_exclude=tuple(values.get(("decisions", "exclude"), ())),
        doc_code_map=values.get(("docs", "map"), Config.doc_code_map),
        decisions_map=values.get(("decisions", "map"), Config.decisions_map),
        contract_drift=tuple(values.get(("contracts", "drift"), ())),
    )
