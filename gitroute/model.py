"""Immutable records shared by every layer: what parsing extracts and what a query answers.

Named tuples rather than dataclasses: importing `dataclasses` costs a cold query about 9 ms
(it pulls in `inspect`), a sixth of its whole budget, and a build makes hundreds of thousands
of these records, which tuples build several times faster.
"""
from __future__ import annotations

from typing import NamedTuple

# Node kinds. A "type" is any of TYPE_KINDS; functions nested in a type are methods.
TYPE_KINDS = ("class", "struct", "interface", "trait", "enum", "object")
SYMBOL_KINDS = TYPE_KINDS + ("function", "method")
NODE_KINDS = ("file",) + SYMBOL_KINDS
EDGE_KINDS = ("contains", "defines", "method", "calls", "imports", "references")


class Symbol(NamedTuple):
    """One definition in a file. `parent` is the index of the enclosing symbol, -1 for the file."""

    name: str
    kind: str
    line: int  # 1-based
    end_line: int  # 1-based, inclusive
    signature: str = ""  # the definition's first line, stripped and bounded
    doc: str = ""  # docstring or leading comment, bounded
    parent: int = -1
    entry: bool = False


class NameRef(NamedTuple):
    """A by-name use inside a file: a call, an import or a type reference.

    `source` is the index of the innermost enclosing symbol, -1 for file level. For imports
    `name` is the imported module or path as written (`os.path`, `./util`, `fmt`).
    """

    source: int
    name: str
    line: int


class FileExtract(NamedTuple):
    """Everything one file contributes to the code graph; independent of the file's path."""

    lang: str
    symbols: tuple[Symbol, ...] = ()
    calls: tuple[NameRef, ...] = ()
    imports: tuple[NameRef, ...] = ()
    references: tuple[NameRef, ...] = ()
    entry: bool = False  # the file itself is an entry point (`if __name__ == "__main__":`)
    warnings: tuple[str, ...] = ()


class DeclaredEntry(NamedTuple):
    """An entry point declared by a manifest (pyproject.toml scripts, package.json bin, ...).

    Either `module` (+ `function`) for a Python-style `pkg.mod:func` target, or `path` for a
    file target, repo-relative and normalised.
    """

    name: str
    module: str | None = None
    function: str | None = None
    path: str | None = None


class Source(NamedTuple):
    """What an answer answers from."""

    ref: str
    commit: str
    branch: str | None  # the branch HEAD is on, None when detached
    stale_by: int | None  # commits the bundle's source is behind HEAD; None if unknown/unrelated
    head: str | None = None


class Row(NamedTuple):
    path: str
    line: int | None = None
    name: str | None = None
    kind: str | None = None
    score: float = 0.0
    signals: tuple[tuple[str, float], ...] = ()


class Answer(NamedTuple):
    status: str  # "routed" or "no_match"
    source: Source
    rows: tuple[Row, ...] = ()
    notes: tuple[str, ...] = ()
    extra: dict | None = None  # command-specific keys added to the --json document
