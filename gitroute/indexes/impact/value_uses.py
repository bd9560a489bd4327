"""Where a constant's name is written, for impact when no edge reaches it.

The graph records calls, imports, bindings and type references, not the reads of a value: a Go package's
`DebugMode`, a header's macro, a module's `MAX_SIZE` used in its own functions have no edge into them, and impact
answered "0 edges". Their users are the files that can see the value unqualified or through an import: its own
file, the files that import that file, and, in a language whose package is its folder (Go, Java), the folder's
files of its language. Those are read from the pinned commit, a bounded few, and the name found as a whole word;
each line is credited to the innermost symbol of the file around it. A name match, not a resolved use: the rows say
so (`text`), and rank below every resolved edge.
"""
from __future__ import annotations

import posixpath
import re
from collections.abc import Callable, Mapping, Sequence

MAX_FILES = 200  # files read for one answer: its own, its folder's, its importers'
MAX_FILE_BYTES = 1 << 20  # a larger file is not read (a build skips files past 1 MiB unless told otherwise)
MAX_BYTES = 8 << 20  # of all the files read for one answer
FOLDER_PACKAGES = (".go", ".java")  # languages whose package is a folder: its files see each other's values
# Languages where another module reads a value bare only after importing it by name (an edge the graph has), else
# through the module (`regexes.email`, `settings.RETRIES`): an importer there counts only what it writes so.
MODULE_QUALIFIED = (".py", ".pyi", ".js", ".jsx", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts")
_INDEX_STEMS = ("__init__", "index", "mod")  # a package's own module is named by its folder
TEXT = "text"  # the resolution of a row found by name in a file's text


def files_that_see(path: str, importers: Sequence[str],
                   folder_files: Callable[[str], list[str]]) -> tuple[list[str], int]:
    """The files that can name the value defined in `path` without a qualifier the graph resolves, at most
    MAX_FILES: its own first, then its folder's files of its language (Go, Java), then the files that import it;
    and how many there are in all."""
    seen = [path]
    extension = posixpath.splitext(path)[1]
    if extension in FOLDER_PACKAGES:
        seen += sorted(p for p in folder_files(posixpath.dirname(path)) if p.endswith(extension))
    seen += sorted(importers)
    every = list(dict.fromkeys(seen))
    return every[:MAX_FILES], len(every)


def spelling(name: str, path: str, where: str) -> str:
    """How the file `where` writes the value `name` defined in `path`: bare, or as `module.name` from another module
    of a language that imports by module (the module's file stem, or its folder's name for an `__init__`/`index`)."""
    if where == path or not where.endswith(MODULE_QUALIFIED):
        return name
    stem = posixpath.splitext(posixpath.basename(path))[0]
    if stem in _INDEX_STEMS:
        stem = posixpath.basename(posixpath.dirname(path)) or stem
    return f"{stem}.{name}"


def named_lines(name: str, text: bytes, skip: int = 0) -> list[int]:
    """The lines (1-based) that write `name` (a name, or `module.name`) as a whole word (not inside a longer name),
    but line `skip`."""
    word = re.compile(rb"(?<![\w$])" + re.escape(name.encode("utf-8", "surrogateescape")) + rb"(?![\w$])")
    lines: list[int] = []
    line, at = 1, 0
    for found in word.finditer(text):
        line += text.count(b"\n", at, found.start())
        at = found.start()
        if line != skip and (not lines or lines[-1] != line):
            lines.append(line)
    return lines


def innermost(spans: Sequence[tuple[int, int, str]], line: int) -> str | None:
    """The label of the narrowest (start, end, label) span holding `line`, or None."""
    holding = [(end - start, label) for start, end, label in spans if start <= line <= end]
    return min(holding)[1] if holding else None


def text_uses(name: str, path: str, line: int, files: Sequence[str], read: Callable[[str], bytes | None],
              spans: Callable[[str], Sequence[tuple[int, int, str]]]) -> tuple[dict[str, list], int]:
    """path -> a walk entry ([depth, kinds, hows, count, names, first line, confidence, names it]) of each file
    among `files` that writes `name` (its definition's line in `path` aside), and how many files were read. `read`
    gives a file's bytes (None: not read); `spans` a file's symbols as (start, end, label)."""
    reached: dict[str, list] = {}
    budget, read_count = MAX_BYTES, 0
    for where in files:
        data = read(where)
        if data is None or len(data) > budget:
            continue
        budget -= len(data)
        read_count += 1
        lines = named_lines(spelling(name, path, where), data, skip=line if where == path else 0)
        if not lines:
            continue
        held = spans(where)
        names: list[str] = []
        for at in lines:
            label = innermost(held, at)
            if label and label not in names and len(names) < 5:
                names.append(label)
        reached[where] = [1, {"references"}, {TEXT}, len(lines), names, lines[0], 0.5, True]
    return reached, read_count


def own_file_only(reached: Mapping[str, list], path: str) -> dict[str, list]:
    """The files other than the value's own; its own alone when no other writes it (a module's private value)."""
    others = {where: entry for where, entry in reached.items() if where != path}
    return others or dict(reached)
