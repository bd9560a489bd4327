"""GNU Texinfo manuals (`.texi`, `.texinfo`) as blocks: the format GNU-style C projects write their manuals in
(libconfig's doc/libconfig.texi, coreutils', make's). No grammar of tree-sitter-language-pack reads Texinfo, and
its markup is line-oriented: a command starts a line (`@chapter`, `@section`, `@example` … `@end example`,
`@deftypefun`), and inline commands wrap text in braces (`@code{config_t}`, `@i{libconfig}`).

Headings come from the sectioning commands, paragraphs from runs of text lines, code from example blocks, a list
item from each `@item`, and a definition command's name (`@deftypefun int config_read_file (…)`) is a directive
whose argument is the object it documents, as an rst `.. function::` is. What this reader does not know (macros,
conditionals, indices) is skipped; `read` never raises.
"""
from __future__ import annotations

import re

from gitroute.parsing.paragraphs import Paragraph

TEXINFO_EXTENSIONS = (".texi", ".texinfo", ".txi")

# Sectioning commands -> heading level (`@top` is the manual's title).
_LEVELS = {
    "top": 1, "chapter": 1, "unnumbered": 1, "appendix": 1, "majorheading": 1, "chapheading": 1,
    "section": 2, "unnumberedsec": 2, "appendixsec": 2, "heading": 2,
    "subsection": 3, "unnumberedsubsec": 3, "appendixsubsec": 3, "subheading": 3,
    "subsubsection": 4, "unnumberedsubsubsec": 4, "appendixsubsubsec": 4, "subsubheading": 4,
}
_CODE_BLOCKS = frozenset(("example", "smallexample", "lisp", "smalllisp", "display", "smalldisplay", "format",
                          "smallformat", "verbatim"))
_SKIPPED_BLOCKS = frozenset(("menu", "direntry", "detailmenu", "ignore", "iftex", "ifhtml", "ifdocbook", "ifxml",
                             "iflatex", "tex", "html", "docbook", "xml", "latex", "titlepage", "copying", "macro"))
_NOT_DEFINITIONS = frozenset(("defindex", "defcodeindex", "definfoenclose"))  # `@def…` that define no object
_COMMAND = re.compile(r"@([A-Za-z]+)\b[ \t]*(.*)")
# Inline commands whose argument is code (a token the doc<->code index links), and the rest (their text kept).
_CODE_INLINE = frozenset(("code", "command", "env", "file", "samp", "var", "kbd", "t", "option", "verb"))
# Inline commands a line of text may start with (`@code{x} is …`): the line is text, no command of its own.
_TEXT_COMMANDS = frozenset(("code", "var", "samp", "i", "b", "emph", "strong", "w", "xref", "ref", "pxref", "url",
                            "uref", "file", "command", "env", "option", "dfn", "cite", "acronym", "math", "sc", "t",
                            "r", "key"))
_INLINE = re.compile(r"@([A-Za-z]+)\{([^{}]*)\}")
_SYMBOL = re.compile(r"@([@{}.:!?*])|@[A-Za-z]+\{\}")


def inline(text: str) -> tuple[str, list[str]]:
    """(plain text, code spans) of one line's inline markup: `@code{x}` is x and a code span, `@i{x}` is x."""
    codes: list[str] = []

    def unwrap(found: re.Match[str]) -> str:
        if found.group(1) in _CODE_INLINE:
            codes.append(found.group(2))
        return found.group(2)

    for _ in range(4):  # nested braces, innermost first (`@w{@i{const char *}}`)
        text, n = _INLINE.subn(unwrap, text)
        if not n:
            break
    return _SYMBOL.sub(lambda m: m.group(1) or "", text), codes


def read(data: bytes, add) -> None:
    """Blocks of a Texinfo manual, each passed to `add(kind, line, end_line, text, codes, level, name)`."""
    lines = data.decode("utf-8", "replace").splitlines()
    para = Paragraph(add, inline)
    flush = para.flush

    at = 0
    item_code = False  # inside `@table @code`: each `@item` is code
    while at < len(lines):
        number, line = at + 1, lines[at]
        at += 1
        if line.startswith("\\input"):
            continue  # TeX's first line (`\input texinfo`)
        command = _COMMAND.match(line)
        if command is None:
            if line.strip():
                para.append(number, line.strip())
            else:
                flush()
            continue
        name, rest = command.group(1), command.group(2)
        if name in _TEXT_COMMANDS:
            para.append(number, line.strip())  # a line that starts with inline markup is text
            continue
        flush()
        if name in _LEVELS:
            text, codes = inline(rest)
            add("heading", number, number, text.strip(), codes, _LEVELS[name], "")
        elif name in _CODE_BLOCKS or name in _SKIPPED_BLOCKS:
            end = next((i for i in range(at, len(lines)) if lines[i].strip().startswith(f"@end {name}")), len(lines))
            if name in _CODE_BLOCKS:
                add("code", number, end + 1, "\n".join(lines[at:end]), [], 0, "")
            at = end + 1
        elif name.startswith("def") and name not in _NOT_DEFINITIONS:
            text, _ = inline(rest)
            documented = _defined_name(name, text)
            add("directive", number, number, text.strip(), [documented] if documented else [], 0, name)
        elif name in ("table", "ftable", "vtable"):
            item_code = rest.strip().lstrip("@") in _CODE_INLINE
        elif name in ("item", "itemx") and rest.strip():
            text, codes = inline(rest)
            add("list_item", number, number, text.strip(), codes or ([text.strip()] if item_code else []), 1, "")


def _defined_name(command: str, text: str) -> str:
    """The name a definition command documents: the first word before a parenthesis or the end, after the category
    (`@deffn Command`) and the type (`@deftypefun int`), braces already unwrapped."""
    head = text.split("(", 1)[0].split()
    if not head:
        return ""
    return head[-1].lstrip("*&").strip()
