"""AsciiDoc documents (`.adoc`, `.asciidoc`, and `.txt` files written in it) as blocks: the format Java and Ruby
projects write their guides in, and older C projects their manuals (lua-cjson's `manual.txt`). No grammar of
tree-sitter-language-pack reads AsciiDoc, and its markup is line-oriented: a title is a line of `=` signs and text
(`== Installation`) or a line underlined to its length (`Installation` over `------------`), a delimited block runs
between two equal lines (`----` a listing, `....` a literal), a list item starts with `*`, `-`, `.` or a number, and
`term::` starts a labelled one.

Headings come from titles, code from listing and literal blocks, paragraphs from runs of text lines (`+x+` and
`` `x` `` code spans), list items from list lines. Comments, attribute entries (`:revdate: …`), block attributes
(`[source,lua]`), anchors and passthrough blocks are skipped; `read` never raises.
"""
from __future__ import annotations

import re

from gitroute.parsing.paragraphs import Paragraph

ASCIIDOC_EXTENSIONS = (".adoc", ".asciidoc")

_TITLE = re.compile(r"(={1,6})[ \t]+(\S.*?)(?:[ \t]+=+)?[ \t]*$")  # `== Title` or `== Title ==`
_UNDERLINES = {"=": 1, "-": 2, "~": 3, "^": 4, "+": 5}  # a two-line title's underline -> its level
_DELIMITER = re.compile(r"(-{4,}|\.{4,}|={4,}|\*{4,}|_{4,}|\+{4,}|/{4,}|\|={3,})[ \t]*$")
_CODE_DELIMITERS = ("-", ".")  # listing and literal blocks
_SKIPPED_DELIMITERS = ("/", "+")  # comment and passthrough blocks
_LIST_ITEM = re.compile(r"[ \t]*(\*{1,5}|-|\.{1,5}|\d+\.)[ \t]+(\S.*)")
_LABELLED = re.compile(r"(\S.*?)(?::::?|;;)(?:[ \t]+(.*))?$")  # `Make:: Unix, Windows`; not `std::vector is`
_SKIPPED_LINE = re.compile(r"//(?!/)|:[\w-]+!?:|\[\[?[^\]]*\]\]?[ \t]*$|\.[^\s.]")  # comment, attribute, [..], .Title
_CODE_SPAN = re.compile(r"`([^`\n]+)`|(?<![\w+])\+([^+\n]+)\+(?![\w+])")
# emphasis, a macro or a link with its text (`http://lua.org[Lua]`, `link:guide.adoc[the guide]`: a colon before the
# bracket; `array[0]` is no macro), a cross reference
_MARKUP = re.compile(r"(?<!\w)[*_#]{1,2}(\S(?:.*?\S)?)[*_#]{1,2}(?!\w)|[\w+.-]+:\S*?\[([^\]]*)\]"
                     r"|<<[^,>]*,?([^>]*)>>")
_FIRST_TITLE_CHAR = re.compile(r"[\w`'\"(]")


def looks_like_asciidoc(data: bytes) -> bool:
    """Whether a `.txt` file is AsciiDoc: it opens with a document title (`= Title`, `= Title =`) and then a line
    that only AsciiDoc writes there (an author, an attribute entry, a blank line)."""
    lines = data[:4096].decode("utf-8", "replace").splitlines()
    first = next((i for i, line in enumerate(lines) if line.strip()), None)
    if first is None or not re.match(r"=[ \t]+\S", lines[first]):
        return False
    following = lines[first + 1:first + 4]
    return any(re.match(r":[\w-]+:|\S.*<\S+@\S+>|v?\d[\w.]*,|$", line) for line in following)


def inline(text: str) -> tuple[str, list[str]]:
    """(plain text, code spans) of a run of text: `+x+` and `` `x` `` are x and code spans, `*x*` and `_x_` are x,
    a macro's or a link's bracketed text (`http://lua.org[Lua]`) is that text."""
    codes: list[str] = []

    def code(found: re.Match[str]) -> str:
        span = found.group(1) or found.group(2) or ""
        codes.append(span)
        return span

    text = _CODE_SPAN.sub(code, text)
    text = _MARKUP.sub(lambda m: next((g for g in m.groups() if g is not None), ""), text)
    return text, codes


def read(data: bytes, add) -> None:
    """Blocks of an AsciiDoc document, each passed to `add(kind, line, end_line, text, codes, level, name)`."""
    lines = data.decode("utf-8", "replace").splitlines()
    para = Paragraph(add, inline)
    flush = para.flush

    at = 0
    while at < len(lines):
        number, line = at + 1, lines[at].rstrip()
        at += 1
        underline = lines[at].rstrip() if at < len(lines) else ""
        if not line.strip():
            flush()
        elif not para and _two_line_title(line, underline):
            text, codes = inline(line.strip())
            add("heading", number, number + 1, text, codes, _UNDERLINES[underline[0]], "")
            at += 1
        elif (delimiter := _DELIMITER.match(line)) is not None:
            flush()
            fence = delimiter.group(1)
            end = next((i for i in range(at, len(lines)) if lines[i].rstrip() == fence), None)
            if fence[0] in _CODE_DELIMITERS or fence[0] in _SKIPPED_DELIMITERS:
                end = len(lines) if end is None else end
                if fence[0] in _CODE_DELIMITERS and end > at:
                    add("code", number, end + 1, "\n".join(lines[at:end]), [], 0, "")
                at = end + 1
            # a quote, example, sidebar or table: its delimiters go, its lines are read as any others
        elif (title := _TITLE.match(line)) is not None and not para:
            text, codes = inline(title.group(2))
            add("heading", number, number, text, codes, len(title.group(1)), "")
        elif _SKIPPED_LINE.match(line):
            continue
        elif (item := _LIST_ITEM.match(line)) is not None:
            flush()
            text, codes = inline(item.group(2))
            add("list_item", number, number, text, codes, min(len(item.group(1)), 5) if item.group(1)[0] in "*." else 1,
                "")
        elif (labelled := _LABELLED.match(line)) is not None and not para:
            term, rest = labelled.group(1), labelled.group(2) or ""
            text, codes = inline(f"{term}: {rest}" if rest else term)
            add("list_item", number, number, text, codes, 1, "")
        else:
            para.append(number, line.strip())
    flush()


def _two_line_title(line: str, underline: str) -> bool:
    """A title over a line of one of `=-~^+` as long as it, give or take two (AsciiDoc's older two-line titles)."""
    return (len(underline) >= 2 and underline[0] in _UNDERLINES and underline == underline[0] * len(underline)
            and abs(len(underline) - len(line.strip())) <= 2 and _FIRST_TITLE_CHAR.match(line.lstrip()) is not None
            and not _DELIMITER.match(line))
