"""Immutable records shared by every layer: what parsing extracts and what a query answers.

Plain `collections.namedtuple`s, with each field's type in the docstring. A cold query is a
process start with a budget of a few tens of milliseconds: `dataclasses` costs it about 9 ms (it
pulls in `inspect`) and `typing.NamedTuple` about 4 ms, while `collections` is loaded anyway.
A build makes hundreds of thousands of these records, and tuples build several times faster.
"""
from __future__ import annotations

from collections import namedtuple

# Node kinds. A "type" is any of TYPE_KINDS; functions nested in a type are methods.
TYPE_KINDS = ("class", "struct", "interface", "trait", "enum", "object")
# A "constant" is a module-level name bound to a value that is no function or class definition
# (`export const safeParse = ...`, `request_started = signal(...)`).
SYMBOL_KINDS = TYPE_KINDS + ("function", "method", "constant")
NODE_KINDS = ("file",) + SYMBOL_KINDS
# A node id is `bucket << NODE_ORDINAL_BITS | ordinal`: files are hashed into buckets by path, so ids
# stay put when other files change (gitroute.graph assigns them).
NODE_ORDINAL_BITS = 20
EDGE_KINDS = ("contains", "defines", "method", "calls", "imports", "references", "inherits")
# How an edge was resolved, most certain first: "structure" (a definition's place), "scope" (the same file
# or class), "import" (a name the file imports, or an Elixir module named in full), "package" (the same
# folder), "unique" (the only symbol of that name anywhere), "ambiguous" (one of several candidates, every one kept).
RESOLUTIONS = ("structure", "scope", "import", "package", "unique", "ambiguous")


class Symbol(namedtuple("Symbol", "name kind line end_line signature doc parent entry owner",
                        defaults=("", "", -1, False, ""))):
    """One definition in a file.

    name: str; kind: str (SYMBOL_KINDS); line, end_line: int, 1-based, inclusive;
    signature: str, the definition's first line, stripped and bounded; doc: str, its docstring or
    leading comment, bounded; parent: int, the index of the enclosing symbol, -1 for the file;
    entry: bool, an entry point (`def main`, `fn main`, ...); owner: str, the object a function is
    assigned onto when that object is no symbol of the file (`res` in JavaScript's
    `res.send = function send() {}`), "" otherwise.
    """

    __slots__ = ()


class NameRef(namedtuple("NameRef", "source name line receiver", defaults=("",))):
    """A by-name use inside a file: a call, an import, a type reference or a class's base.

    source: int, the index of the innermost enclosing symbol, -1 at file level; name: str, for
    imports the module or path as written (`os.path`, `./util`, `fmt`); line: int, 1-based;
    receiver: str, for calls the object called on when it is a plain dotted name (`self`, `os.path`,
    `this.router`, `fmt`), "" otherwise.
    """

    __slots__ = ()


class Binding(namedtuple("Binding", "local module name line")):
    """A name an import statement binds in a file.

    local: str, the name the file uses (the alias when there is one; "*" for a wildcard import);
    module: str, the module, package or path as written (`django.db`, `./router`, `a::b`);
    name: str, what is imported from it ("" when the binding is the module itself, `import x as y`;
    "default" for a JS default import); line: int, 1-based.
    """

    __slots__ = ()


class FileExtract(namedtuple("FileExtract", "lang symbols calls imports references entry warnings bindings bases",
                             defaults=((), (), (), (), False, (), (), ()))):
    """Everything one file contributes to the code graph; independent of the file's path.

    lang: str; symbols: tuple[Symbol, ...]; calls, imports, references: tuple[NameRef, ...] (calls may be
    plain tuples of the same four fields, as the extraction cache returns them: read them by unpacking);
    entry: bool, the file itself is an entry point (`if __name__ == "__main__":`);
    warnings: tuple[str, ...], what degraded while extracting; bindings: tuple[Binding, ...], the
    names its imports bind; bases: tuple[NameRef, ...], each class's base types (source: the class).
    """

    __slots__ = ()


class DeclaredEntry(namedtuple("DeclaredEntry", "name module function path", defaults=(None, None, None))):
    """An entry point declared by a manifest (pyproject.toml scripts, package.json bin, ...).

    name: str, the script's name; then either module: str and function: str | None for a
    Python-style `pkg.mod:func` target, or path: str for a file target, repo-relative, normalised;
    or neither, from go.mod: name is the module path its packages are imported under.
    """

    __slots__ = ()


class Node(namedtuple("Node", "id path name kind line end_line lang signature doc entry owner", defaults=("",))):
    """A node of the code graph: a file or a symbol.

    id: int; path: str; name: str (a file's base name); kind: str (NODE_KINDS); line, end_line: int;
    lang: str; signature, doc: str; entry: bool, an entry point; owner: str, the enclosing symbols'
    names, outermost first (`URLPattern` for its `resolve`), "" for files and top-level symbols.
    """

    __slots__ = ()


class Edge(namedtuple("Edge", "source kind target line how")):
    """An edge of the code graph.

    source, target: int, node ids; kind: str (EDGE_KINDS); line: int, 1-based, where the use is
    (its first line when one symbol uses another several times); how: str (RESOLUTIONS).
    """

    __slots__ = ()


class Token(namedtuple("Token", "kind text role line")):
    """One inline token of a block.

    kind: str, "code" (Markdown inline code), "literal" (rst ``x``), "role" (rst :role:`target`), "link"
    (a link's destination), "directive_arg" (the object an rst directive documents); text: str, the raw
    target as written (a role's target keeps its `~` / leading dot / `!`, a titled role `title <target>`
    gives the target, a link its destination without `<>`, a directive argument its name without the
    signature); role: str, ":class:", ":func:", ":c:func:" ... for roles, "" otherwise; line: int, 1-based.
    """

    __slots__ = ()


class Block(namedtuple("Block", "kind line end_line text section level name tokens")):
    """One block of a document.

    kind: str, "heading" | "paragraph" | "list_item" | "table_row" | "field" | "code" | "directive" |
    "quote"; line, end_line: int, 1-based, inclusive; text: str, plain text with inline markup removed (a
    heading's full text, its number included; a code block's raw text; a directive's arguments);
    section: int, the index in `blocks` of the enclosing heading (for a heading, its parent heading), -1
    before any; level: int, a heading's level (1 = top), a list item's nesting depth (1 = top), else 0;
    name: str, a heading's number where the document numbers it ("5.4", "3"), a field's name ("Status"),
    a directive's name ("autoclass"), else ""; tokens: tuple[Token, ...], none for "code".
    """

    __slots__ = ()


class Document(namedtuple("Document", "path format title blocks warnings")):
    """A parsed document: path: str; format: str ("markdown" | "rst" | "texinfo" | "asciidoc" | "xdoc"); title: str,
    the first heading's text ("" when none); blocks: tuple[Block, ...]; warnings: tuple[str, ...], what degraded."""

    __slots__ = ()


class Source(namedtuple("Source", "ref commit branch stale_by head behind_by", defaults=(None, 0))):
    """What an answer answers from.

    ref: str; commit: str, the bundle's source commit; branch: str | None, the branch HEAD is on
    (None when detached); stale_by: int | None, commits HEAD has that the source has not (None when
    git cannot tell); head: str | None, HEAD's commit; behind_by: int | None, commits the source
    has that HEAD has not (a bundle built ahead of a checkout).
    """

    __slots__ = ()


class Row(namedtuple("Row", "path line name kind score signals extra", defaults=(None, None, None, 0.0, (), ()))):
    """One row of an answer.

    path: str, repo-relative POSIX; line: int | None, 1-based; name: str | None, qualified for
    methods (`Owner.name`); kind: str | None; score: float; signals: tuple[tuple[str, float], ...],
    each signal's contribution (with --explain); extra: tuple[tuple[str, object], ...], an index's own
    row keys (`section`, `status`, `depth`, ...), in the order `--json` shows them after the common ones.
    """

    __slots__ = ()


class Answer(namedtuple("Answer", "status source rows notes extra", defaults=((), (), None))):
    """An answer: status: str ("routed" or "no_match"); source: Source; rows: tuple[Row, ...];
    notes: tuple[str, ...]; extra: dict | None, command-specific keys for the --json document."""

    __slots__ = ()
