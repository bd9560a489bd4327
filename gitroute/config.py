"""`.gitroute.toml`, read from the pinned commit (never the work tree), with defaults for every key."""
from __future__ import annotations

import fnmatch
import hashlib
import json
import tomllib
from dataclasses import asdict, dataclass

from gitroute.errors import ConfigError

CONFIG_PATH = ".gitroute.toml"

# Folders that hold copies of other people's code: excluded unless configured otherwise.
DEFAULT_EXCLUDES = ("node_modules/**", "**/node_modules/**", ".git/**")


@dataclass(frozen=True)
class Config:
    max_file_bytes: int = 1024 * 1024
    exclude: tuple[str, ...] = DEFAULT_EXCLUDES
    docs: tuple[str, ...] = ("docs", "doc")
    bench: str = "routing-bench.yaml"
    decisions: tuple[str, ...] = ()  # globs of decision records; empty: the default layouts (indexes/decisions.py)
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


_SCHEMA = {
    ("build", "max_file_bytes"): int,
    ("build", "exclude"): list,
    ("build", "extra_exclude"): list,
    ("docs", "folders"): list,
    ("bench", "file"): str,
    ("decisions", "paths"): list,
    ("docs", "map"): str,
    ("decisions", "map"): str,
    ("contracts", "drift"): list,
}


def parse_config(data: bytes | None) -> Config:
    """Parse the committed `.gitroute.toml`; None (no file) gives the defaults."""
    if data is None:
        return Config()
    try:
        table = tomllib.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
        raise ConfigError(f"cannot read '{CONFIG_PATH}' at the pinned commit: {err}",
                          hint="fix the file and commit it; gitroute reads it from the commit") from err
    values: dict[tuple[str, str], object] = {}
    for section, body in table.items():
        if not isinstance(body, dict):
            raise ConfigError(f"'{CONFIG_PATH}': '{section}' must be a table")
        for key, value in body.items():
            expected = _SCHEMA.get((section, key))
            if expected is None:
                raise ConfigError(f"'{CONFIG_PATH}': unknown key '{section}.{key}'")
            if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
                raise ConfigError(f"'{CONFIG_PATH}': '{section}.{key}' must be {expected.__name__}")
            if expected is list and not all(isinstance(v, str) for v in value):
                raise ConfigError(f"'{CONFIG_PATH}': '{section}.{key}' must be a list of strings")
            values[(section, key)] = value
    max_bytes = values.get(("build", "max_file_bytes"), Config.max_file_bytes)
    if not 1 <= max_bytes <= 64 * 1024 * 1024:  # type: ignore[operator]
        raise ConfigError(f"'{CONFIG_PATH}': 'build.max_file_bytes' must be between 1 and 67108864")
    exclude = tuple(values.get(("build", "exclude"), DEFAULT_EXCLUDES))  # type: ignore[arg-type]
    exclude += tuple(values.get(("build", "extra_exclude"), ()))  # type: ignore[arg-type]
    return Config(
        max_file_bytes=max_bytes,  # type: ignore[arg-type]
        exclude=exclude,
        docs=tuple(values.get(("docs", "folders"), Config.docs)),  # type: ignore[arg-type]
        bench=values.get(("bench", "file"), Config.bench),  # type: ignore[arg-type]
        decisions=tuple(values.get(("decisions", "paths"), ())),  # type: ignore[arg-type]
        doc_code_map=values.get(("docs", "map"), Config.doc_code_map),  # type: ignore[arg-type]
        decisions_map=values.get(("decisions", "map"), Config.decisions_map),  # type: ignore[arg-type]
        contract_drift=tuple(values.get(("contracts", "drift"), ())),  # type: ignore[arg-type]
    )
