"""The managed-runtime languages' special cases (JVM: Java, Kotlin, Scala; .NET: C#): static `main`/`Main`
entry points, Java's enum constants holding methods, Scala objects that extend App and its segmented imports,
C#'s XML doc comments."""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gitroute.parsing.families.base import Family, MainFunction
from gitroute.parsing.nodes import DOC_SCAN_BYTES, WHITESPACE, clean_import, head, text

if TYPE_CHECKING:
    from tree_sitter import Node

    from gitroute.model import Symbol
    from gitroute.parsing.nodes import Scope

_XML_TAG = re.compile(r"</?[A-Za-z][^<>]{0,80}>")
# `<see cref="T:System.Type"/>`, `<paramref name="value"/>`: the name the tag stands for is part of the sentence.
_XML_NAMED = re.compile(
    r"<(?:see|seealso|paramref|typeparamref)\s+(?:cref|name|langword)\s*=\s*\"(?:\w:)?([^\"<>]{1,80})\"\s*/?>"
)
_SCALA_IMPORT = re.compile(r"import\s+([\w.`$\s]+?)(?:\s*\.\s*(?:\{|_\b|\*|given\b)|\s*,|\s*$|\s+as\b)")
_SCALA_APP = re.compile(rb"\b(?:extends|with)\s+App\b")
_STATIC = re.compile(rb"\bstatic\b")
_DIRECTIVE = re.compile(rb"[ \t]*#[ \t]*(?:if|elif|else|endif)\b")
_CONTINUES = re.compile(rb"(?:case\b|default\s*:|else\b)")  # what must follow the statement before it
_OPEN_END = re.compile(rb"\belse$")  # what needs the statement after it
_OPERAND = re.compile(rb"(?:\|\||&&|[);])")  # what continues the expression before it (`|| x != null`, `;`)


class StaticMain(Family):
    """`public static void main(String[] args)` (Java), `static void Main(string[] args)` (C#)."""

    def __init__(self, lang: str, main: str) -> None:
        super().__init__(queries={lang: (lang,)})
        self.main = main

    def is_entry(self, scope: Scope, symbol: Symbol, symbols: list[Symbol], data: bytes) -> bool:
        return symbol.kind == "method" and symbol.name == self.main and _STATIC.search(head(data, scope)) is not None


class Java(StaticMain):
    # An enum constant with a body (`DATA { void read() {...} }`) is a constant whose functions are methods.
    method_holders = Family.method_holders | {"constant"}


def _splits_a_statement(before: bytes, after: bytes) -> bool:
    """Whether a C# directive between these two code lines splits what the grammar must read as one piece."""
    # Inside a list: a base list, a collection initializer's items, a type parameter list (`IJEnumerable< #if … out`).
    comma = before.startswith(b",") or before.endswith((b",", b"<")) or after.startswith(b",")
    return comma or bool(_CONTINUES.match(after) or _OPERAND.match(after) or _OPEN_END.search(before))


class CSharp(StaticMain):
    def parsed_text(self, data: bytes) -> bytes:
        """`#if` directives inside a comma list (a type's base list, Json.NET's `class JValue : JToken, IComparable
        #if !PORTABLE , IConvertible #endif {`) break the type's header, and every member falls out of the type;
        before a `case` label or an `else` the grammar takes a directive for a statement that ends the switch
        section or the `if` (Json.NET's `#if !NET20 case PrimitiveTypeCode.DateTimeOffset:` read as a local function
        `PrimitiveTypeCode`); so does one between an `else` and its statement, between a list's items or before an
        operand (`#if !NET35 || x == typeof(IDynamicMetaObjectProvider) #endif`). Those directive lines are blanked,
        with the rest of their `#if` group, so the code holds every branch; others stay."""
        if b"#" not in data:
            return data
        lines = data.splitlines(keepends=True)
        directive = [_DIRECTIVE.match(line) is not None for line in lines]
        if not any(directive):
            return data

        def code_line(indices: range) -> bytes:
            for i in indices:
                stripped = lines[i].strip()
                if stripped and not directive[i]:
                    return stripped
            return b""

        # A group (`#if` to its `#endif`) is blanked whole or not at all: a lone `#endif` breaks more than it mends.
        groups: list[list[int]] = []
        open_groups: list[list[int]] = []
        for i, is_directive in enumerate(directive):
            if not is_directive:
                continue
            keyword = lines[i].lstrip().lstrip(b"#").lstrip()
            if keyword.startswith(b"if"):
                open_groups.append([])
                groups.append(open_groups[-1])
            if open_groups:
                open_groups[-1].append(i)
                if keyword.startswith(b"endif"):
                    open_groups.pop()
        for group in groups:
            # A lone branch that opens or closes a block (`#if !NET20 if (a is DateTime) { #endif`) pairs with
            # another group's brace: both are blanked, so the block holds every branch.
            inside = b"".join(lines[group[0] + 1:group[-1]])
            unbalanced = len(group) == 2 and inside.count(b"{") != inside.count(b"}")
            if unbalanced or any(
                _splits_a_statement(code_line(range(i - 1, -1, -1)), code_line(range(i + 1, len(lines))))
                for i in group
            ):
                for i in group:
                    body = lines[i].rstrip(b"\r\n")
                    lines[i] = b" " * len(body) + lines[i][len(body):]
        return b"".join(lines)

    def definition_name(self, name: Node) -> str:
        # An indexer's and an operator's @name is a token of its declaration, not a name of its own.
        declaration = name.parent.type if name.parent is not None else ""
        if declaration == "indexer_declaration":
            return "this[]"
        if declaration in ("operator_declaration", "conversion_operator_declaration"):
            return "operator " + text(name)
        return super().definition_name(name)

    def comment_words(self, cleaned: str) -> str:
        # XML doc comments: keep the words and the names tags stand for, drop <summary> and friends.
        return _XML_TAG.sub(" ", _XML_NAMED.sub(r"\1", cleaned))


class Kotlin(MainFunction):
    def doc_anchor(self, node: Node) -> Node:
        # After an expression-bodied `fun f() = g()`, the grammar reads the next definition's own line of
        # annotations (`@Suppress("X")`) as an expression of its own: the KDoc above them still documents it.
        sibling = node.prev_sibling
        while (sibling is not None and sibling.type == "prefix_expression" and sibling.child_count
               and sibling.children[0].type == "annotation" and sibling.end_point[0] >= node.start_point[0] - 1):
            node, sibling = sibling, sibling.prev_sibling
        return node


class Scala(Family):
    def is_entry(self, scope: Scope, symbol: Symbol, symbols: list[Symbol], data: bytes) -> bool:
        if symbol.kind == "method" and symbol.name == "main":
            return symbol.parent >= 0 and symbols[symbol.parent].kind == "object"
        if symbol.kind == "object":
            body = scope.node.child_by_field_name("body")
            header = data[scope.start : body.start_byte if body is not None else scope.end][:DOC_SCAN_BYTES]
            return _SCALA_APP.search(header) is not None
        return False

    def import_text(self, node: Node) -> str:
        if node.type == "import_declaration":
            # Scala splits `import a.b.{C, D}` into segment nodes: take the statement, keep the path.
            match = _SCALA_IMPORT.match(text(node))
            return WHITESPACE.sub("", match.group(1)) if match else ""
        return clean_import(node.text or b"")


FAMILIES = (
    Java("java", "main"),
    CSharp("csharp", "Main"),
    Kotlin(queries={"kotlin": ("kotlin",)}),
    Scala(queries={"scala": ("scala",)}),
)
