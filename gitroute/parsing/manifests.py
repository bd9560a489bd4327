"""Entry points that manifests declare: pyproject/setup.cfg scripts, package.json bin/main/exports, Cargo [[bin]];
and go.mod's module path and package.json's name, which name no entry point but what imports name the package by."""
from __future__ import annotations

import configparser
import json
import posixpath
import tomllib
from typing import Any

from gitroute.model import DeclaredEntry

# pyproject.toml tables whose keys are script names and values `pkg.mod:func` targets.
_PYPROJECT_TABLES = (("project", "scripts"), ("project", "gui-scripts"), ("tool", "poetry", "scripts"))
_SETUP_CFG_GROUPS = ("console_scripts", "gui_scripts")


def declared_entry_points(path: str, data: bytes) -> list[DeclaredEntry]:
    """Entry points declared by the manifest at repo path `path`; [] for other files and for malformed input."""
    base = path.rsplit("/", 1)[-1]
    reader = _READERS.get(base)
    if reader is None:
        return []
    try:
        text = data.decode("utf-8-sig")
        entries = reader(posixpath.dirname(path), text)
    except Exception:  # malformed manifests are common in test fixtures and vendored trees: never fatal
        return []
    # Deterministic and free of duplicates whatever order the manifest used.
    return sorted(set(entries), key=lambda e: (e.name, e.module or "", e.function or "", e.path or ""))


def _read_pyproject(directory: str, text: str) -> list[DeclaredEntry]:
    document = tomllib.loads(text)
    entries: list[DeclaredEntry] = []
    for keys in _PYPROJECT_TABLES:
        table: Any = document
        for key in keys:
            table = table.get(key) if isinstance(table, dict) else None
        if not isinstance(table, dict):
            continue
        for name, target in table.items():
            # Poetry also allows `name = { callable = "pkg.mod:func", ... }`.
            if isinstance(target, dict):
                target = target.get("callable") or target.get("reference")
            entry = _python_target(str(name), target)
            if entry is not None:
                entries.append(entry)
    return entries


def _read_setup_cfg(directory: str, text: str) -> list[DeclaredEntry]:
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.read_string(text)
    if not parser.has_section("options.entry_points"):
        return []
    entries: list[DeclaredEntry] = []
    for group in _SETUP_CFG_GROUPS:
        raw = parser.get("options.entry_points", group, fallback="")
        for line in raw.splitlines():
            name, sep, target = line.partition("=")
            if not sep:
                continue
            entry = _python_target(name.strip(), target)
            if entry is not None:
                entries.append(entry)
    return entries


def _python_target(name: str, target: object) -> DeclaredEntry | None:
    """`pkg.mod:func [extra]` -> module pkg.mod, function func (`pkg.mod` alone: no function)."""
    if not name or not isinstance(target, str):
        return None
    target = target.split("[", 1)[0].strip()  # drop extras: `pkg.mod:func [cli]`
    module, _, function = target.partition(":")
    module, function = module.strip(), function.strip()
    if not module:
        return None
    return DeclaredEntry(name=name, module=module, function=function or None)


def _read_package_json(directory: str, text: str) -> list[DeclaredEntry]:
    document = json.loads(text)
    if not isinstance(document, dict):
        return []
    package = document.get("name")
    package = package if isinstance(package, str) else ""
    bin_field = document.get("bin")
    targets: list[tuple[str, object]] = []
    if isinstance(bin_field, str):
        # A string bin is named after the package (its last segment for scoped `@scope/name`).
        name = package.rsplit("/", 1)[-1]
        targets = [(name, bin_field)] if name else []
    elif isinstance(bin_field, dict):
        targets = list(bin_field.items())
    if package:
        # The files `require("<package>")` / `import "<package>"` load, under the package's full name.
        # Only what is declared: without `main` Node falls back to index.js, which need not exist.
        targets.append((package, document.get("main")))
        targets.extend((package, target) for target in _package_exports(document.get("exports")))
    # The package's name alone, as go.mod's module path: what `require("<package>/...")` names from anywhere.
    entries: list[DeclaredEntry] = [DeclaredEntry(name=package)] if package else []
    for name, target in targets:
        resolved = _repo_path(directory, target)
        if name and resolved is not None:
            entries.append(DeclaredEntry(name=str(name), path=resolved))
    return entries


# Conditions of a package.json `exports` entry that name code run in Node (not `types`, not custom ones).
_EXPORT_CONDITIONS = ("require", "import", "default")


def _package_exports(field: object) -> list[str]:
    """The main entry's files in a package.json `exports`: a string, the `"."` entry, or a condition object
    (`{"import": ..., "require": ...}`, nested at most a few levels); subpaths (`"./mini"`) are not the main
    entry, arrays of fallbacks are left out."""
    if isinstance(field, dict) and "." in field:
        field = field["."]
    elif isinstance(field, dict) and any(isinstance(key, str) and key.startswith(".") for key in field):
        return []  # subpath exports only
    found: list[str] = []
    pending: list[tuple[object, int]] = [(field, 0)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            found.append(value)
        elif isinstance(value, dict) and depth < 4:
            pending.extend((value[key], depth + 1) for key in _EXPORT_CONDITIONS if key in value)
    return found


def _read_cargo_toml(directory: str, text: str) -> list[DeclaredEntry]:
    document = tomllib.loads(text)
    bins = document.get("bin")
    if not isinstance(bins, list):
        return []
    package = document.get("package")
    package_name = package.get("name") if isinstance(package, dict) else None
    entries: list[DeclaredEntry] = []
    for item in bins:
        if not isinstance(item, dict):
            continue
        name = item.get("name") or package_name
        # Only an explicit path: Cargo's inferred one depends on which files exist, which a manifest
        # reader cannot see (and `fn main` is found by extraction anyway).
        resolved = _repo_path(directory, item.get("path"))
        if isinstance(name, str) and name and resolved is not None:
            entries.append(DeclaredEntry(name=name, path=resolved))
    return entries


def _repo_path(directory: str, target: object) -> str | None:
    """A manifest-relative path as a repo-relative POSIX path; None when it is absent or leaves the repo."""
    if not isinstance(target, str) or not target.strip():
        return None
    joined = posixpath.normpath(posixpath.join(directory, target.strip().replace("\\", "/")))
    if joined.startswith(("/", "../")) or joined in ("..", "."):
        return None
    return joined


def _read_go_mod(directory: str, text: str) -> list[DeclaredEntry]:
    """go.mod declares no entry point but the module path its packages are imported by: a name, no target."""
    for raw in text.splitlines():
        words = raw.split("//", 1)[0].split()
        if len(words) == 2 and words[0] == "module":
            return [DeclaredEntry(name=words[1].strip('"'))]
    return []


_READERS = {
    "pyproject.toml": _read_pyproject,
    "go.mod": _read_go_mod,
    "setup.cfg": _read_setup_cfg,
    "package.json": _read_package_json,
    "Cargo.toml": _read_cargo_toml,
}
