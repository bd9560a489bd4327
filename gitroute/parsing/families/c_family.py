"""The C family (C, C++, CUDA, Arduino, Objective-C): a program starts at a top-level `main`.

C++'s out-of-line methods (`void T::m()`) are bound to their type by the queries' @receiver capture.
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from gitroute.parsing.families.base import MainFunction
from gitroute.parsing.families.ecmascript import is_jsdoc

if TYPE_CHECKING:
    from tree_sitter import Node

# A line holding only an upper-case macro (`FMT_BEGIN_NAMESPACE`, `QT_BEGIN_NAMESPACE`, `Q_OBJECT`) expands to
# something the grammar cannot see; left in, it reads as the type of the declaration below it, and that class or
# function is lost. Such a line comes after a statement, a brace, a label, a comment or a directive and is neither
# the last item of a brace list (`enum { A, B }` keeps B: a comma ends the line above it) nor a block's head.
_BARE_MACRO_LINE = rb"[ \t]*[A-Z][A-Z0-9_]*[A-Z0-9][ \t]*\r?$"
# The first line, and every other after its newline: re finds a pattern that opens with a literal far faster than
# one that opens with `^`, which it tries at every byte.
_BARE_MACRO_FIRST = re.compile(_BARE_MACRO_LINE, re.MULTILINE)
_BARE_MACRO_NEXT = re.compile(rb"\n(" + _BARE_MACRO_LINE + rb")", re.MULTILINE)


def bare_macro_lines(data: bytes) -> list[tuple[int, int]]:
    """The spans of the lines that hold only an upper-case macro (and the spaces around it), in order."""
    first = _BARE_MACRO_FIRST.match(data)
    spans = [first.span()] if first else []
    spans += [match.span(1) for match in _BARE_MACRO_NEXT.finditer(data)]
    return spans


_STATEMENT_END = re.compile(
    rb"(?:[;{}:]|\*/|^[ \t]*(?:#|//).*|^)[ \t]*(?://.*)?\r?\n(?:[ \t]*\r?\n)*\Z", re.MULTILINE
)
_NEXT_CLOSES = re.compile(rb"(?:[ \t]*\r?\n)*[ \t]*[{}]")  # `JSON_TRY` heading a block is a statement (`try`)
# In C++, an upper-case macro with an underscore written before a declaration's words (`FMT_CONSTEXPR auto f()`,
# `inline FMT_CONSTEXPR20 void g()`, `FMT_API void vprint()`, a constructor's `FMT_CONSTEXPR write_int_data(`)
# is a specifier the grammar cannot know: read as a type, it made fmt's `write_int_data` swallow 700 lines. Such a
# macro is blanked outside directives; without a return type, a function still parses as one.
_SPECIFIER_MACRO = re.compile(
    rb"^(?![ \t]*#)(?P<head>[^\n\"'/]*?)(?<![\w:.>\"])(?P<macro>[A-Z][A-Z0-9]*_[A-Z0-9_]*)(?=[ \t]+~?[A-Za-z_])",
    re.MULTILINE,
)

# The same kind of macro after a parameter list (`size_t thread_id() SPDLOG_NOEXCEPT`, `what() const FMT_NOEXCEPT
# override`, a constructor's `T(T &&o) SPDLOG_NOEXCEPT : x(o.x)`) stands where `noexcept` would: read as the
# declarator, it made `pid()` a function named SPDLOG_NOEXCEPT (spdlog lost pid, thread_id, now and the docs of
# every such declaration). Blanked when what follows is a body, an end, an initialiser list or another specifier.
_TRAILING_MACRO = re.compile(
    rb"^(?![ \t]*#)(?P<head>[^\n\"']*\)[ \t]*(?:const[ \t]+)?)(?P<macro>[A-Z][A-Z0-9]*_[A-Z0-9_]*)"
    rb"(?=[ \t]*(?:[{;:=]|override\b|final\b|->|//|/\*|\r?$))",
    re.MULTILINE,
)

_FILE_COMMAND = re.compile(rb"[@\\]file\b")


class CFamily(MainFunction):
    def definition_name(self, name: Node) -> str:
        # In a function body, `details::log_msg msg(loc, lvl);` declares a variable, not a function (C++'s most
        # vexing parse; in C a local prototype only repeats one declared elsewhere): no definition there.
        node = name.parent
        while node is not None and node.type in ("function_declarator", "pointer_declarator", "reference_declarator"):
            node = node.parent
        if node is not None and node.type == "declaration" and node.parent is not None and (
            node.parent.type == "compound_statement"
        ):
            return ""
        return super().definition_name(name)

    def documents_across_blank_line(self, comment: Node) -> bool:
        # Doxygen gives a `/**` or `/*!` block to the declaration after it, a blank line between or not (spdlog's
        # `ansicolor_sink`); one that says it is about the file (`@file`, `\file`) is the file's, and a banner
        # of stars (jansson's `/*** array ***/` over a group of functions) is no one's doc.
        head = (comment.text or b"")[:4000]
        if head.startswith(b"/***") or _FILE_COMMAND.search(head):
            return False
        return is_jsdoc(comment) or head.startswith(b"/*!")

    def doc_anchor(self, node: Node) -> Node:
        # `template <typename T> class X`: the comment above documents X, whose node starts after the template line.
        while node.parent is not None and node.parent.type == "template_declaration":
            node = node.parent
        return node

    def parsed_text(self, data: bytes) -> bytes:
        out: bytearray | None = None
        for start, end in bare_macro_lines(data):
            before = (data if out is None else out)[max(0, start - 400) : start]  # a macro blanked above is space
            if not _STATEMENT_END.search(before) and start > 0 or _NEXT_CLOSES.match(data, end + 1):
                continue
            if out is None:
                out = bytearray(data)
            out[start:end] = b" " * (end - start)
        return data if out is None else bytes(out)


# An access label made of a macro (nlohmann's `JSON_PRIVATE_UNLESS_TESTED:`, Qt's `public Q_SLOTS:`) is a label the
# grammar cannot place in a class body: the first is read as the access it names (written in its place, padded;
# a goto label does not name one), the second as its access keyword alone.
_ACCESS_MACRO = re.compile(
    rb"^([ \t]*)([A-Z0-9_]*?(PUBLIC|PROTECTED|PRIVATE)[A-Z0-9_]*)([ \t]*:)(?=[ \t]*\r?$)", re.MULTILINE
)
_ACCESS_WITH_MACRO = re.compile(
    rb"^([ \t]*(?:public|protected|private)[ \t]+)([A-Z][A-Z0-9_]*)(?=[ \t]*:[ \t]*\r?$)", re.MULTILINE
)


def _as_access(match: re.Match[bytes]) -> bytes:
    access = match[3].lower()
    if len(match[2]) < len(access):
        return match[0]
    return match[1] + access + b" " * (len(match[2]) - len(access)) + match[4]


# A directive group around a lone specifier (spdlog's `#if __cplusplus >= 201703L constexpr #endif` before a
# declaration) or around a namespace's name (`namespace #ifdef SPDLOG_USE_STD_FORMAT std #else fmt #endif {`) is
# not a whole declaration, so the grammar cannot place it: the specifier, or the first name, is kept alone.
_DIRECTIVE_LINE = rb"[ \t]*\#[ \t]*%s\b[^\n]*\n"
_GROUPED_SPECIFIER = re.compile(
    _DIRECTIVE_LINE % rb"if(?:n?def)?"
    + rb"(?P<keep>[ \t]*(?:constexpr|inline|static|explicit|virtual)[ \t]*\r?\n)"
    + rb"[ \t]*\#[ \t]*endif\b[^\r\n]*",
    re.MULTILINE,
)
_GROUPED_NAMESPACE = re.compile(
    rb"\b(?P<head>namespace)[ \t]*\r?\n"
    + _DIRECTIVE_LINE % rb"if(?:n?def)?"
    + rb"(?P<keep>[ \t]*\w+[ \t]*\r?\n)"
    + rb"(?:" + _DIRECTIVE_LINE % rb"(?:elif|else)" + rb"[ \t]*\w+[ \t]*\r?\n)+"
    + rb"[ \t]*\#[ \t]*endif\b[^\r\n]*"
)

# So is a group between a class's head and its body (fmt's `class dynamic_format_arg_store #if FMT_GCC_VERSION < 409
# : public basic_format_args<Context> #endif {`): the head became a declaration and the body a block, and the class
# was never defined. The first branch's lines are kept, in the head.
_GROUPED_BASES = re.compile(
    rb"^(?P<head>[ \t]*(?:template[ \t]*<[^\n;{}]*>[ \t]*)?(?:class|struct)[ \t]+[\w:<>, \t]+\r?\n)"
    + _DIRECTIVE_LINE % rb"if(?:n?def)?"
    + rb"(?P<keep>(?:(?![ \t]*\#)[^\n;{}]*\n)+)"
    + rb"(?:" + _DIRECTIVE_LINE % rb"(?:elif|else)" + rb"(?:(?![ \t]*\#)[^\n;{}]*\n)*)*"
    + rb"[ \t]*\#[ \t]*endif\b[^\r\n]*(?=\r?\n[ \t]*\{)",
    re.MULTILINE,
)

_IF_DIRECTIVE = re.compile(rb"#[ \t]*if")  # a literal first: found far faster than a pattern tried at every line


def grouped_bases_kept(data: bytes) -> bytes:
    """`_GROUPED_BASES.sub(_keep_alone, data)`, tried only on the line above each `#if` that opens its line: the
    pattern opens with `^`, which re tries at every line of a file (about 20 ms a megabyte of C++ headers, a
    seventh of parsing them); this, about a fourteenth of that."""
    parts: list[bytes] = []
    last = 0
    for found in _IF_DIRECTIVE.finditer(data):
        line = data.rfind(b"\n", 0, found.start()) + 1
        if not line or data[line:found.start()].strip(b" \t"):
            continue  # on the first line, or after something on its line: no head above it
        above = data.rfind(b"\n", 0, line - 1) + 1
        group = _GROUPED_BASES.match(data, above) if above >= last else None
        if group is not None:
            parts += [data[last:above], _keep_alone(group)]
            last = group.end()
    return b"".join([*parts, data[last:]]) if parts else data


_NOT_A_LINE_BREAK = re.compile(rb"[^\r\n]")


def _keep_alone(match: re.Match[bytes]) -> bytes:
    """The match with every line but its `head` (when the pattern has one) and its `keep` group blanked (line breaks
    stay, so lines keep their numbers)."""
    whole = match[0]
    lead = match.end("head") - match.start() if "head" in match.re.groupindex else 0
    start, end = match.start("keep") - match.start(), match.end("keep") - match.start()
    return (whole[:lead] + _NOT_A_LINE_BREAK.sub(b" ", whole[lead:start]) + whole[start:end]
            + _NOT_A_LINE_BREAK.sub(b" ", whole[end:]))


class Cpp(CFamily):
    def parsed_text(self, data: bytes) -> bytes:
        data = super().parsed_text(data)
        if b"#" in data:
            data = _GROUPED_SPECIFIER.sub(_keep_alone, data)
            data = _GROUPED_NAMESPACE.sub(_keep_alone, data)
            data = grouped_bases_kept(data)
        if b":" in data:
            data = _ACCESS_MACRO.sub(_as_access, data)
            data = _ACCESS_WITH_MACRO.sub(lambda m: m[1] + b" " * len(m[2]), data)
        for macro in (_SPECIFIER_MACRO, _TRAILING_MACRO):
            if macro.search(data):
                data = macro.sub(lambda m: m["head"] + b" " * len(m["macro"]), data)
        return data


FAMILIES = (
    CFamily("cuda", "arduino", "objc", queries={"c": ("c",)}),
    Cpp(queries={"cpp": ("c", "cpp")}),
)
