"""`.gitroute.toml`, read from the pinned commit (never the work tree), with defaults for every key."""
from __future__ import annotations

import fnmatch
import hashlib
import json
import tomllib
from dataclasses import asdict, dataclass
from typing import Any

from gitroute.errors import ConfigError

CONFIG_PATH = ".gitroute.toml"

# Folders that hold copies of other people's code: excluded unless configured otherwise.
DEFAULT_EXCLUDES = ("node_modules/**", "**/node_modules/**", ".git/**")


@dataclass(frozen=True)
class Config:
    max_file_bytes: int = 1024 * 1024
    exclude: tuple[str, ...] = DEFAULT_EXCLUDES
    # Folders or globs that hold the documents doc_links reads; empty: every Markdown and
    # reStructuredText document of the snapshot (READMEs, *.md, *.rst, reStructuredText *.txt).
    docs: tuple[str, ...] = ()
    bench: str = "routing-bench.yaml"
    decisions: tuple[str, ...] = ()  # globs or folders of records; empty: the default rules (parsing/records.py)
    decisions_extra: tuple[str, ...] = ()  # globs or folders of records besides the default rules
    decisions_exclude: tuple[str, ...] = ()  # globs or folders that hold no record
    doc_code_map: str = "docs/DOC-CODE.md"  # the committed doc -> code map (`git route doc-code`)
    decisions_map: str = "docs/DECISIONS.md"  # the committed decision table (`git route decisions`)
    contract_drift: tuple[str, ...] = ()  # copies of a contract that drift on purpose ([contracts] drift)

    def fingerprint(self) -> str:
        # Where the committed maps live changes nothing a build writes, so it is not part of the bundle.
        values = {k: v for k, v in asdict(self).items() if k not in ("doc_code_map", "decisions_map")}
        canonical = json.dumps(values, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:16]

    def is_excluded(self, path: str) -> bool:
        return any(fnmatch.fnmatchcase(path, pattern) for pattern in self.exclude)


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
    max_bytes = values.get(("build", "max_file_bytes"), Config.max_file_bytes)
    if not 1 <= max_bytes <= 64 * 1024 * 1024:
        raise ConfigError(f"'{CONFIG_PATH}': 'build.max_file_bytes' must be between 1 and 67108864")
    exclude = tuple(values.get(("build", "exclude"), DEFAULT_EXCLUDES))
    exclude += tuple(values.get(("build", "extra_exclude"), ()))
    return Config(
        max_file_bytes=max_bytes,
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
