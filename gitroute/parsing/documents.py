"""Markdown and reStructuredText documents as blocks and inline tokens, parsed with tree-sitter grammars.

The markdown, markdown_inline and rst grammars of tree-sitter-language-pack 0.13.0 tell headings, code blocks,
inline code, literals, roles, directives and links apart, so nothing here guesses markup with regular
expressions over raw text. Where a grammar leaves structure as plain text (the body of an rst directive, the
cells of an rst grid table) that text is parsed again with the same grammar.

A GNU Texinfo manual and an AsciiDoc document, which no grammar reads, are read line by line (`parsing.texinfo`,
`parsing.asciidoc`), a Maven site page (`src/site/xdoc/*.xml`) with expat (`parsing.xdoc`).

`parse_document` never raises: what it cannot read degrades into fewer blocks and a warning.
"""
from __future__ import annotations

import posixpath
import re
from functools import cache, cached_property, partial
from typing import TYPE_CHECKING

from gitroute.model import Block, Document, Token
from gitroute.parsing import asciidoc, html, texinfo, xdoc
from gitroute.parsing.asciidoc import ASCIIDOC_EXTENSIONS, looks_like_asciidoc
from gitroute.parsing.grammars import parser
from gitroute.parsing.html import looks_like_html_document
from gitroute.parsing.texinfo import TEXINFO_EXTENSIONS
from gitroute.records import PLAIN_DOCUMENT_STEMS, is_document_path, is_xdoc_path, plain_document

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from tree_sitter import Node, Parser

MARKDOWN_EXTENSIONS = (".md", ".markdown", ".mdown", ".mkd", ".mkdn")
HTML_EXTENSIONS = (".html", ".htm")
RST_EXTENSIONS = (".rst", ".rest")
# A document larger than this is read only up to it (a generated changelog can be megabytes).
MAX_DOCUMENT_BYTES = 2 * 1024 * 1024
MAX_BLOCKS = 50_000
MAX_TOKEN = 300  # a longer "token" is prose someone backticked, not a name
# A heading names its section's rows in answers, which refuse a name of control characters or past 2,000
# characters as forged (bundle/validate.py): a committed heading is cut to this, its control characters spaces.
MAX_HEADING = 1000
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f]+")
_MAX_NESTING = 8  # directive bodies parsed inside directive bodies
_SNIFF_BYTES = 64 * 1024

# rst directives whose body is code, not prose.
CODE_DIRECTIVES = frozenset(
    (
        "code", "code-block", "sourcecode", "literalinclude", "highlight", "doctest", "testcode",
        "testoutput", "testsetup", "testcleanup", "math", "raw", "parsed-literal", "productionlist",
        "console", "code-block-caption", "graphviz", "mermaid", "csv-table",
    )
)
# rst directives whose argument names a code object (autodoc and the Python/C/JS domains).
OBJECT_DIRECTIVES = frozenset(
    (
        "autoclass", "autofunction", "automethod", "autoattribute", "automodule", "autodata",
        "autoexception", "autoproperty", "autodecorator", "autosummary",
        "class", "function", "method", "attribute", "module", "currentmodule", "data", "exception",
        "decorator", "decoratormethod", "staticmethod", "classmethod", "property",
        "py:class", "py:function", "py:method", "py:attribute", "py:module", "py:currentmodule", "py:data",
        "py:exception", "py:decorator", "py:property", "py:staticmethod", "py:classmethod",
        "c:function", "c:type", "c:macro", "c:member", "c:struct", "c:var", "c:enum",
        "cpp:class", "cpp:function", "cpp:type", "cpp:struct", "cpp:member", "cpp:enum",
        "js:function", "js:class", "js:method", "js:module", "js:attribute", "js:data",
    )
)


# rst directives whose body lists the objects they document, one per line.
LIST_DIRECTIVES = frozenset(("autosummary", "py:autosummary"))


# ------------------------------------------------------------------------------------------------ format

_ADORNMENT_CHARS = frozenset("=-~^\"'`*+#:._")




def document_format(path: str, data: bytes) -> str | None:
    """"markdown" (*.md, *.markdown, README*, CHANGES*, NEWS*, ...), "rst" (*.rst, and *.txt files that are
    reStructuredText), or None (not a document this module reads)."""
    name = posixpath.basename(path).lower()
    stem, ext = posixpath.splitext(name)
    if ext in MARKDOWN_EXTENSIONS:
        return "markdown"
    if ext in RST_EXTENSIONS:
        return "rst"
    if ext in TEXINFO_EXTENSIONS:
        return "texinfo"
    if ext in ASCIIDOC_EXTENSIONS:
        return "asciidoc"
    if is_xdoc_path(path):
        return "xdoc" if b"<document" in data[:4096] else None
    if ext in HTML_EXTENSIONS:
        return "html" if looks_like_html_document(data) else None
    if ext == ".txt":
        if looks_like_asciidoc(data):
            return "asciidoc"
        if looks_like_rst(data):
            return "rst"
        return "markdown" if stem in PLAIN_DOCUMENT_STEMS or _prose_in_a_docs_folder(path, data) else None
    if ext == "" and plain_document(posixpath.basename(path)):
        return "markdown"
    return None


_DOCS_FOLDERS = frozenset(("doc", "docs", "documentation", "manual"))
_NOT_PROSE_STEMS = ("requirements", "cmakelists", "robots", "constraints")  # and their kin: `requirements-docs.txt`
_PROSE_LINE = re.compile(rb"^[ \t]*(?:[A-Za-z][A-Za-z'(),-]*[ \t]+){5}")  # five words or more, letters first


def _in_a_docs_folder(path: str) -> bool:
    """Under a docs folder, by a name that may be prose (not pip's `requirements.txt`, a `CMakeLists.txt`)."""
    *folders, name = path.lower().split("/")
    return bool(_DOCS_FOLDERS.intersection(folders)) and not name.startswith(_NOT_PROSE_STEMS)


def _prose_in_a_docs_folder(path: str, data: bytes) -> bool:
    """A `.txt` under a docs folder that reads as prose (zlib's doc/algorithm.txt): a third of its first lines with
    text start with five words; not pip's requirements, a CMake list, a word list."""
    if not _in_a_docs_folder(path):
        return False
    lines = [line for line in data[:_SNIFF_BYTES].splitlines() if line.strip()]
    return len(lines) >= 3 and sum(1 for line in lines if _PROSE_LINE.match(line)) * 3 >= len(lines)


def document_kind(path: str) -> str | None:
    """What a path may hold, before its content is read: "markdown", "plain" (a plain-text document without an
    extension: `CHANGES`, `FAQ`), "rst", "texinfo", "xdoc", "asciidoc", "html" (a document if it reads as one),
    "txt" (reStructuredText or AsciiDoc only if its content reads so), "plaintxt" (a `.txt` under a plain document's
    name: `changelog.txt`, read as plain text too), "doctxt" (a `.txt` under a docs folder: plain text too if it
    reads as prose), or None (no document). The build parses a blob by its kind's path (`KIND_PATHS`), not its own:
    the kind holds what the path tells."""
    name = posixpath.basename(path).lower()
    stem, ext = posixpath.splitext(name)
    if ext in MARKDOWN_EXTENSIONS:
        return "markdown"
    if ext == "" and plain_document(posixpath.basename(path)):
        return "plain"
    if ext in RST_EXTENSIONS:
        return "rst"
    if ext in TEXINFO_EXTENSIONS:
        return "texinfo"
    if ext in ASCIIDOC_EXTENSIONS:
        return "asciidoc"
    if is_xdoc_path(path):
        return "xdoc"
    if ext in HTML_EXTENSIONS:
        return "html"
    if ext == ".txt":
        if stem in PLAIN_DOCUMENT_STEMS:
            return "plaintxt"
        return "doctxt" if _in_a_docs_folder(path) else "txt"
    return None


# A path of each kind, for parsing content whose path is not known (the build's cache is keyed by blob): each reads
# as its kind's paths do (`document_format`: "CHANGES" is plain text, "doc/document.txt" prose under a docs folder).
KIND_PATHS = {"markdown": "document.md", "plain": "CHANGES", "rst": "document.rst", "txt": "document.txt",
              "plaintxt": "CHANGES.txt", "doctxt": "doc/document.txt", "texinfo": "document.texi",
              "xdoc": "xdoc/document.xml", "asciidoc": "document.adoc", "html": "document.html"}


def looks_like_rst(data: bytes) -> bool:
    """Whether plain text reads as reStructuredText: an underlined section title or an explicit directive."""
    text = data[:_SNIFF_BYTES].decode("utf-8", "replace")
    previous = ""
    for raw in text.splitlines():
        line = raw.rstrip()
        if line.startswith(".. ") and "::" in line:
            return True
        if (
            len(line) >= 3
            and line[0] in _ADORNMENT_CHARS
            and line == line[0] * len(line)
            and previous.strip()
            and previous[0] != " "
            and len(line) >= len(previous.rstrip())
            and previous.rstrip()[0] not in _ADORNMENT_CHARS
        ):
            return True
        previous = line
    return False


# ------------------------------------------------------------------------------------------------ helpers

_NUMBER = re.compile(r"\s*(?:§\s*)?(\d+(?:\.\d+)*)[.):]?\s+")


def heading_number(text: str) -> str:
    """The number a heading starts with ("5.4 Design" -> "5.4", "3. Usage" -> "3"), "" when none."""
    match = _NUMBER.match(text)
    if not match or len(match.group(1)) > 20:
        return ""
    rest = text[match.end():].strip()
    return match.group(1) if rest else ""


def role_target(text: str) -> str:
    """A role's or directive's target as a name: `~` (show last part), `!` (no link), a leading dot
    (search relative to the current module) and a call's `()` removed."""
    target = text.strip()
    while target[:1] in ("~", "!", "."):
        target = target[1:]
    if target.endswith("()"):
        target = target[:-2]
    return target.strip()


def _role_shown(inner: str, target: str) -> str:
    """The text a role shows: its title (`the guide <guide/fit>`), else its target; `~a.b.c` shows as `c`, and a
    leading dot only says where Sphinx searches."""
    if inner.endswith(">") and "<" in inner:
        return inner[:inner.rindex("<")].strip()
    shown = role_target(target)
    return shown.rsplit(".", 1)[-1] if target.startswith("~") else shown


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _is_utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@cache
def _parser(lang: str) -> Parser:
    loaded = parser(lang)
    if loaded is None:  # the pinned pack bundles markdown, markdown_inline and rst: a broken install
        raise LookupError(f"no tree-sitter grammar for '{lang}'")
    return loaded


def _clip(text: str) -> str:
    return " ".join(text.split())


class _Collector:
    """Blocks in document order, with the heading stack that gives each block its section."""

    def __init__(self) -> None:
        self.blocks: list[Block] = []
        self.headings: list[tuple[int, int]] = []  # (level, index in blocks)
        self.warnings: list[str] = []

    def section(self) -> int:
        return self.headings[-1][1] if self.headings else -1

    def add(self, kind: str, line: int, end_line: int, text: str, tokens: tuple[Token, ...] = (),
            level: int = 0, name: str = "") -> None:
        if len(self.blocks) >= MAX_BLOCKS:
            if len(self.blocks) == MAX_BLOCKS:
                self.warnings.append(f"more than {MAX_BLOCKS} blocks: the rest is not read")
                self.blocks.append(Block("paragraph", line, line, "", -1, 0, "", ()))
            return
        if kind == "heading":
            if len(text) > MAX_HEADING or not text.isprintable():
                text = " ".join(_CONTROL.sub(" ", text[:MAX_HEADING]).split())
            while self.headings and self.headings[-1][0] >= level:
                self.headings.pop()
            section = self.section()
            self.blocks.append(Block(kind, line, end_line, text, section, level, name, tokens))
            self.headings.append((level, len(self.blocks) - 1))
            return
        self.blocks.append(Block(kind, line, end_line, text, self.section(), level, name, tokens))

    def finish(self, path: str, fmt: str) -> Document:
        blocks = self.blocks[:MAX_BLOCKS]
        title = next((b.text for b in blocks if b.kind == "heading"), "")
        return Document(path, fmt, title, tuple(blocks), tuple(self.warnings))


def _token(kind: str, text: str, line: int, role: str = "") -> Token | None:
    text = text.strip()
    if not text or len(text) > MAX_TOKEN:
        return None
    return Token(kind, text, role, line)


# ----------------------------------------------------------------------------------------------- markdown

_MD_DELIMITERS = frozenset(("code_span_delimiter", "emphasis_delimiter", "link_destination", "link_title",
                            "link_label"))
_MD_LINKS = frozenset(("inline_link", "full_reference_link", "collapsed_reference_link", "shortcut_link",
                       "image"))


# An ATX heading's optional closing sequence: hashes after a space, at the end (CommonMark; `C#` keeps its hash).
_ATX_CLOSING = re.compile(r"(?:^|\s+)#+\s*$")
# A MyST role right before a code span (`{py:func}`, `{ref}`, `{doc}`): the span is its target.
_MYST_ROLE = re.compile(rb"\{([A-Za-z][\w:+.-]{0,40})\}\Z")


class _MarkdownInline:
    """Plain text and tokens of one run of Markdown inline content."""

    def __init__(self, src: bytes, first_line: int, labels: frozenset[str] = frozenset()) -> None:
        self.src = src
        self.first_line = first_line
        self.labels = labels  # the document's link reference definitions (`_link_labels`)
        self.tokens: list[Token] = []

    def line(self, node: Node) -> int:
        return self.first_line + node.start_point.row

    def add(self, kind: str, text: str, node: Node) -> None:
        token = _token(kind, text, self.line(node))
        if token is not None:
            self.tokens.append(token)

    def render(self, node: Node) -> str:
        kind = node.type
        if kind == "code_span":
            inner = self.span(node, skip=("code_span_delimiter",))
            role = _MYST_ROLE.search(self.src, max(0, node.start_byte - 64), node.start_byte)
            if role:  # MyST's {py:meth}`~pkg.Class.method`: a Sphinx role, as in reStructuredText
                inner = inner.strip()
                target = _rst_title_target(inner)
                token = _token("role", target, self.line(node), f":{_decode(role.group(1))}:")
                if token is not None:
                    self.tokens.append(token)
                return _role_shown(inner, target)
            self.add("code", " ".join(inner.split()), node)
            return inner
        if kind == "shortcut_link" and _label_key(self.src[node.start_byte + 1:node.end_byte - 1]) not in self.labels:
            # `[ , options ]` in "dump (object [ , options ])" is a link only when the document defines that label
            # (CommonMark): otherwise it is its own text, brackets and all
            return self.span(node)
        if kind in _MD_LINKS:
            for child in node.children:
                if child.type == "link_destination":
                    destination = _decode(child.text or b"")
                    if destination.startswith("<") and destination.endswith(">"):
                        destination = destination[1:-1]
                    self.add("link", destination, child)
            label = next((c for c in node.children if c.type in ("link_text", "image_description")), None)
            return self.span(label) if label is not None else ""
        if kind in ("uri_autolink", "email_autolink"):
            target = _decode(node.text or b"").strip("<>")
            self.add("link", target, node)
            return target
        if kind == "backslash_escape":
            return _decode(node.text or b"")[1:]
        if kind == "html_tag":  # a README's "## Parse a TOML file<a name=…></a>": the tag is markup, its text stays
            return ""
        if kind in _MD_DELIMITERS:
            return ""
        if node.child_count:
            return self.span(node)
        return _decode(node.text or b"")

    def span(self, node: Node, skip: tuple[str, ...] = ()) -> str:
        parts: list[str] = []
        position = node.start_byte
        for child in node.children:
            if not child.is_named and not child.child_count:
                continue  # punctuation stands for itself: it stays in the slice up to the next child
            before = self.src[position:child.start_byte]
            if child.type == "code_span" and before.endswith(b"}"):
                before = _MYST_ROLE.sub(b"", before)  # the role is read with its span, not shown as text
            parts.append(_decode(before))
            if child.type not in skip:
                parts.append(self.render(child))
            position = child.end_byte
        parts.append(_decode(self.src[position:node.end_byte]))
        return "".join(parts)


# The markdown_inline grammar's parse time doubles with each `[` left open in one inline run (an emphasis
# delimiter before them and a closer after them are enough): 20 open brackets took 4 ms, 25 took 70 ms, 29 took
# 1.1 s, measured with tree-sitter-language-pack 0.13.0 on a 190-byte paragraph bench/fuzz_documents.py found.
# The parser's progress callback is not called while it explores, so the bound is on the shape: such a run
# is read as plain text, without tokens. Real prose leaves a bracket or two open, not a dozen.
MAX_OPEN_BRACKETS = 12


def open_brackets(src: bytes) -> int:
    """How many `[` of the text no `]` after them closes (an upper bound: escapes are not told apart)."""
    if src.count(b"[") <= MAX_OPEN_BRACKETS:
        return src.count(b"[")
    opened = 0
    for byte in src:
        if byte == 0x5B:  # [
            opened += 1
        elif byte == 0x5D and opened:  # ]
            opened -= 1
    return opened


# And it is quadratic in a run's `_` and `~` delimiters: "_z~Y " * 2000 (10 KB) took 1.6 s, twice as many four
# times that. The bound is on length times such delimiters; the bench corpora's paragraphs stay below 6,000.
MAX_INLINE_COST = 4_000_000


def _too_slow(src: bytes) -> str:
    """Why the inline grammar would take too long on a run ("" when it would not)."""
    unclosed = open_brackets(src)
    if unclosed > MAX_OPEN_BRACKETS:
        return f"{unclosed} brackets left open (more than {MAX_OPEN_BRACKETS})"
    cost = len(src) * (src.count(b"_") + src.count(b"~"))
    if cost > MAX_INLINE_COST:
        return f"{len(src)} bytes with delimiters costing {cost} (more than {MAX_INLINE_COST})"
    return ""


# What can make an inline run read as other than its own text: a code span, emphasis or strikethrough, an escape, a
# link or image, an autolink or HTML tag (a MyST role rides on a code span). A run with none of them is its text and
# names no token, as the inline grammar reads it (tests/test_documents.py holds the two readings equal): most runs of
# prose skip a parse of their own (express's Markdown: half its runs; gin's and attrs': 28 %).
_INLINE_MARKUP = re.compile(rb"[`*_~\\\[\]<]")


# A link reference definition (`[label]: destination`), up to three spaces in; its label as compared (`_label_key`).
_LINK_DEFINITION = re.compile(rb"^ {0,3}\[((?:[^\]\\\n]|\\.){1,999})\]:", re.M)


def _label_key(label: bytes) -> str:
    """A link label as CommonMark matches it: case and runs of whitespace aside."""
    return " ".join(_decode(label).casefold().split())


def _link_labels(data: bytes) -> frozenset[str]:
    return frozenset(_label_key(m.group(1)) for m in _LINK_DEFINITION.finditer(data)) if b"]:" in data else frozenset()


def _md_inline(data: bytes, node: Node | None, warnings: list[str],
               labels: frozenset[str] = frozenset()) -> tuple[str, tuple[Token, ...]]:
    if node is None:
        return "", ()
    src = data[node.start_byte:node.end_byte]
    if not _INLINE_MARKUP.search(src):
        return _decode(src).strip(), ()
    if reason := _too_slow(src):
        warnings.append(f"line {node.start_point.row + 1}: {reason}: read as plain text")
        return _decode(src).strip(), ()
    tree = _parser("markdown_inline").parse(src)
    reader = _MarkdownInline(src, node.start_point.row + 1, labels)
    text = reader.span(tree.root_node)
    return text.strip(), tuple(reader.tokens)


def _child(node: Node, kind: str) -> Node | None:
    return next((c for c in node.children if c.type == kind), None)


_COLUMN_GAP = re.compile(rb"\s{2,}")
_FIELD_LINE = re.compile(r"([A-Z][\w/ -]{0,40}?):\s+(\S.*)")


# The markdown block scanner hands the character after a line's leading digits to C's `isdigit`, which for a
# code point above 255 reads past the end of its table: for one like U+C32D9 far enough to crash the process
# (SIGSEGV in about half the processes, measured with tree-sitter-language-pack 0.13.0). So the blocks are parsed
# from a copy in which the non-ASCII bytes right after a digit are as many letters `a` (to the scanner most such
# characters are letters too): the same blocks at the same byte offsets. All text is read from the document.
_AFTER_DIGIT = re.compile(rb"[0-9][\x80-\xff]+")


# An anchor alone on a line right above a heading (json-c's `<a name="linking">` over a setext heading) opens an HTML
# block that runs to the next blank line, heading and all (CommonMark's rule 7): the author meant an anchor for the
# heading, so the line is read as blank (spaces: every byte keeps its place).
_LONE_ANCHOR = re.compile(rb"(?m)^ {0,3}<a\s+(?:name|id)\s*=\s*[\"'][^\"'<>\n]*[\"']\s*/?>(?:\s*</a>)?[ \t]*"
                          rb"(?=\r?\n[ \t]*\S)")


def _block_safe(data: bytes) -> bytes:
    if b"<a" in data:
        data = _LONE_ANCHOR.sub(lambda match: b" " * len(match.group()), data)
    if data.isascii():
        return data
    return _AFTER_DIGIT.sub(lambda match: match.group()[:1] + b"a" * (len(match.group()) - 1), data)


_MAX_TITLE = 100  # characters of a plain-text section title at most: a longer line is an item's text


class _MarkdownReader:
    def __init__(self, data: bytes, out: _Collector, plain: bool = False) -> None:
        self.data = data
        self.out = out
        self.labels = _link_labels(data)
        self.plain = plain  # plain text read as Markdown (`CHANGES`, `FAQ`, `doc/algorithm.txt`): `numbered_title`

    def read(self) -> None:
        tree = _parser("markdown").parse(_block_safe(self.data))
        self.walk(tree.root_node, list_depth=0, quote=False)

    def text(self, node: Node) -> str:
        """A node's text from the document (the tree was parsed from a copy, see `_block_safe`)."""
        return _decode(self.data[node.start_byte:node.end_byte])

    def lines(self, node: Node) -> tuple[int, int]:
        end_row = node.end_point.row
        if node.end_point.column == 0 and end_row > node.start_point.row:
            end_row -= 1
        return node.start_point.row + 1, end_row + 1

    def walk(self, node: Node, list_depth: int, quote: bool, skip: int = -1) -> None:
        for child in node.children:
            kind = child.type
            if child.start_byte == skip:
                continue
            line, end_line = self.lines(child)
            if kind == "list_item" and self.plain and list_depth == 1 and (title := self.numbered_title(child)):
                self.out.add("heading", line, line, title[0], (), 2, heading_number(title[0]))
                self.walk(child, 0, quote, skip=title[1].start_byte)  # its answer or body: paragraphs of its own
            elif kind == "atx_heading":
                marker = next((c.type for c in child.children if c.type.startswith("atx_h")), "atx_h1_marker")
                level = int(marker[5]) if marker[5:6].isdigit() else 1
                text, tokens = _md_inline(self.data, _child(child, "inline"), self.out.warnings, self.labels)
                text = _ATX_CLOSING.sub("", text)  # the grammar keeps `### Features ###`'s closing run in the text
                self.out.add("heading", line, end_line, text, tokens, level, heading_number(text))
            elif kind == "setext_heading":
                paragraph = _child(child, "paragraph")
                text, tokens = _md_inline(self.data, _child(paragraph, "inline") if paragraph else None,
                                          self.out.warnings, self.labels)
                level = 1 if _child(child, "setext_h1_underline") is not None else 2
                self.out.add("heading", line, end_line, " ".join(text.split()), tokens, level,
                             heading_number(text))
            elif kind == "paragraph":
                self.paragraph(child, line, end_line, list_depth, quote)
            elif kind in ("fenced_code_block", "indented_code_block"):
                content = _child(child, "code_fence_content") if kind == "fenced_code_block" else child
                text = self.text(content) if content is not None else ""
                if self.plain and kind == "indented_code_block":  # plain text indents its prose: the FAQ's answers
                    self.out.add("paragraph", line, end_line, " ".join(text.split()))
                else:
                    self.out.add("code", line, end_line, text)
            elif kind == "list_item":
                self.walk(child, list_depth, quote)
            elif kind == "list":
                self.walk(child, list_depth + 1, quote)
            elif kind == "block_quote":
                self.walk(child, list_depth, True)
            elif kind == "pipe_table":
                self.table(child)
            elif kind == "link_reference_definition":
                destination = _child(child, "link_destination")
                if destination is not None:
                    target = self.text(destination).strip("<>")
                    token = _token("link", target, destination.start_point.row + 1)
                    label_node = _child(child, "link_label")
                    label = self.text(label_node) if label_node is not None else ""
                    self.out.add("paragraph", line, end_line, label.strip("[]"), (token,) if token else ())
            elif kind in ("html_block", "minus_metadata", "plus_metadata", "thematic_break"):
                continue
            elif child.child_count:
                self.walk(child, list_depth, quote)

    def numbered_title(self, item: Node) -> tuple[str, Node] | None:
        """(its title, its first paragraph) of a numbered item of plain text that is a section's title: one short line
        then a blank line (zlib's FAQ " 28. Can I access data randomly in a compressed stream?", its indented answer
        below; doc/algorithm.txt's "1. Compression algorithm (deflate)"); None for an item of a list."""
        marker = item.children[0] if item.children else None
        paragraph = item.children[1] if item.child_count > 1 else None
        if marker is None or marker.type not in ("list_marker_dot", "list_marker_parenthesis") \
                or paragraph is None or paragraph.type != "paragraph":
            return None
        first = self.text(paragraph).rstrip("\n")
        after = self.data[paragraph.end_byte:paragraph.end_byte + 2]
        before = self.data[max(0, item.start_byte - 256):item.start_byte].rstrip(b" \t").replace(b"\r\n", b"\n")
        if "\n" in first or len(first) > _MAX_TITLE or first.endswith((".", ",", ":", ";")) \
                or not (after.startswith(b"\n") or after.startswith(b"\r\n") or not after) \
                or not (before.endswith(b"\n\n") or not before.strip()):
            return None
        return f"{self.text(marker).strip()} {first.strip()}", paragraph

    def paragraph(self, node: Node, line: int, end_line: int, list_depth: int, quote: bool) -> None:
        text, tokens = _md_inline(self.data, _child(node, "inline"), self.out.warnings, self.labels)
        if quote:
            self.out.add("quote", line, end_line, text, tokens)
            return
        if list_depth:
            self.out.add("list_item", line, end_line, text, tokens, list_depth)
            return
        # "Status: Accepted" lines (often **Status:**) are the fields of Markdown design records.
        rows = text.split("\n")
        matches = [_FIELD_LINE.fullmatch(row.strip()) for row in rows]
        if rows and all(matches):
            for offset, match in enumerate(matches):
                assert match is not None
                row_line = line + offset
                row_tokens = tuple(t for t in tokens if t.line == row_line)
                self.out.add("field", row_line, row_line, match.group(2).strip(), row_tokens,
                             name=match.group(1).strip())
            return
        self.out.add("paragraph", line, end_line, text, tokens)

    def table(self, node: Node) -> None:
        for row in node.children:
            if row.type not in ("pipe_table_header", "pipe_table_row"):
                continue
            cells: list[str] = []
            tokens: list[Token] = []
            for cell in row.children:
                if cell.type != "pipe_table_cell":
                    continue
                text, cell_tokens = _md_inline(self.data, cell, self.out.warnings, self.labels)
                cells.append(text)
                tokens.extend(cell_tokens)
            line = row.start_point.row + 1
            self.out.add("table_row", line, line, " | ".join(cells), tuple(tokens))


# --------------------------------------------------------------------------------------------------- rst


def _rst_title_target(inner: str) -> str:
    """`title <target>` -> target; a plain target unchanged."""
    inner = inner.strip()
    if inner.endswith(">") and "<" in inner:
        return inner[inner.rindex("<") + 1:-1]
    return inner


def _directive_name(arguments: str) -> str:
    """The object a directive documents: `Q(*args, **kwargs)` -> `Q`, `PyObject* PyFoo(int x)` -> `PyFoo`."""
    head = arguments.strip().split("\n", 1)[0]
    if "(" in head:
        head = head[:head.index("(")]
    words = head.replace("*", " ").replace("&", " ").split()
    return words[-1] if words else ""


class _RstReader:
    def __init__(self, data: bytes, out: _Collector, row_offset: int = 0, depth: int = 0,
                 styles: list[tuple[str, bool]] | None = None) -> None:
        self.data = data
        self.out = out
        self.row_offset = row_offset
        self.depth = depth
        self.styles = styles if styles is not None else []  # adornment styles, in order of first use
        self.pending: list[Node] = []  # literal blocks met inside the paragraph being read
        self.utf8 = _is_utf8(data)

    def read(self) -> None:
        tree = _parser("rst").parse(self.data)
        self.walk(tree.root_node, list_depth=0, kind="paragraph")

    def line(self, node: Node) -> int:
        return self.row_offset + node.start_point.row + 1

    def lines(self, node: Node) -> tuple[int, int]:
        end_row = node.end_point.row
        if node.end_point.column == 0 and end_row > node.start_point.row:
            end_row -= 1
        return self.line(node), self.row_offset + end_row + 1

    @cached_property
    def _rows(self) -> list[bytes]:  # split once: a long document asks for many of its lines
        return self.data.split(b"\n")

    def source_line(self, line: int) -> bytes:
        rows = self._rows
        index = line - 1 - self.row_offset
        return rows[index] if 0 <= index < len(rows) else b""

    # -- inline

    def inline(self, node: Node) -> tuple[str, tuple[Token, ...]]:
        tokens: list[Token] = []
        text = self.span(node, tokens)
        return text.strip(), tuple(tokens)

    def span(self, node: Node, tokens: list[Token]) -> str:
        parts: list[str] = []
        position = node.start_byte
        for child in self.markup(node):
            parts.append(_decode(self.data[position:child.start_byte]))
            parts.append(self.render(child, tokens))
            position = child.end_byte
        parts.append(_decode(self.data[position:node.end_byte]))
        return "".join(parts)

    def markup(self, node: Node) -> list[Node]:
        """A node's children that are no plain words: a word (`text`) stands for itself, and stays in the slice up to
        the next child. Most children are words (five in six of django's nodes), so where no unnamed child but a word
        can be there the named children are read (in C) instead of every child: an unnamed `::` renders as ":"
        and one of an `interpreted_text`'s inside (which error recovery could leave anywhere) as a role, and every
        other unnamed node as its own text, which is the slice's. Sliced at fewer places, the text decodes the same
        only when the document is UTF-8 (a replacement character stands for a run of bad bytes, not for each)."""
        if self.utf8 and not node.has_error and self.data.find(b"::", node.start_byte, node.end_byte) < 0:
            return node.named_children
        return [child for child in node.children if child.type != "text"]

    def add(self, tokens: list[Token], kind: str, text: str, node: Node, role: str = "") -> None:
        token = _token(kind, text, self.line(node), role)
        if token is not None:
            tokens.append(token)

    def render(self, node: Node, tokens: list[Token]) -> str:
        kind = node.type
        raw = _decode(node.text or b"")
        if kind == "literal":
            inner = raw[2:-2] if raw.startswith("``") and raw.endswith("``") else raw.strip("`")
            self.add(tokens, "literal", " ".join(inner.split()), node)
            return inner
        if kind == "interpreted_text":
            role = next((_decode(c.text or b"") for c in node.children if c.type == "role"), "")
            inner_node = next((c for c in node.children if c.type == "interpreted_text"), None)
            inner = _decode(inner_node.text or b"") if inner_node is not None else raw
            inner = inner.strip()
            if inner.startswith("`") and inner.endswith("`") and len(inner) >= 2:
                inner = inner[1:-1]
            target = _rst_title_target(inner)
            if role:
                self.add(tokens, "role", target, node, role)
            else:
                # The default role: Sphinx projects usually set it to :py:obj:, so it names code.
                self.add(tokens, "role", target, node, "")
            return _role_shown(inner, target)
        if kind == "reference":
            inner = raw
            if inner.endswith("__"):
                inner = inner[:-2]
            elif inner.endswith("_"):
                inner = inner[:-1]
            inner = inner.strip("`")
            if inner.endswith(">") and "<" in inner:
                self.add(tokens, "link", inner[inner.rindex("<") + 1:-1], node)
                return inner[:inner.rindex("<")].strip()
            return inner
        if kind == "standalone_hyperlink":
            self.add(tokens, "link", raw, node)
            return raw
        if kind in ("emphasis", "strong"):
            return raw.strip("*")
        if kind == "literal_block":
            # `Example::` followed by an indented block: the grammar nests the block in the paragraph.
            self.pending.append(node)
            return ""
        if kind == "::":
            return ":"
        if kind == "inline_target":
            return raw[2:-1] if raw.startswith("_`") else raw
        if node.child_count and kind not in ("text",):
            return self.span(node, tokens)
        return raw

    # -- blocks

    def walk(self, node: Node, list_depth: int, kind: str) -> None:
        for child in node.children:
            self.block(child, list_depth, kind)

    def block(self, node: Node, list_depth: int, kind: str) -> None:
        t = node.type
        line, end_line = self.lines(node)
        if t == "section":
            self.heading(node, line, end_line)
        elif t == "paragraph":
            if not self.table(node):
                self.pending = []
                text, tokens = self.inline(node)
                if self.pending:
                    end_line = self.line(self.pending[0]) - 1
                    while end_line > line and not self.source_line(end_line).strip():
                        end_line -= 1
                self.out.add(kind, line, end_line, text, tokens, list_depth if kind == "list_item" else 0)
                for block in self.pending:
                    first, last = self.lines(block)
                    self.out.add("code", first, last, _decode(block.text or b""))
                self.pending = []
        elif t in ("literal_block", "doctest_block"):
            self.out.add("code", line, end_line, _decode(node.text or b""))
        elif t == "directive":
            self.directive(node, line, end_line, list_depth, kind)
        elif t in ("bullet_list", "enumerated_list"):
            for item in node.children:
                if item.type == "list_item":
                    body = _child(item, "body")
                    if body is not None:
                        self.walk(body, list_depth + 1, "list_item")
        elif t == "definition_list":
            for item in node.children:
                for part in item.children:
                    if part.type == "term":
                        text, tokens = self.inline(part)
                        first, last = self.lines(part)
                        self.out.add(kind, first, last, text, tokens, list_depth if kind == "list_item" else 0)
                    elif part.type == "definition":
                        self.walk(part, list_depth, kind)
        elif t == "field_list":
            for field in node.children:
                if field.type == "field":
                    self.field(field)
        elif t == "block_quote":
            self.walk(node, list_depth, "quote")
        elif t == "line_block":
            for part in node.children:
                if part.type == "line":
                    text, tokens = self.inline(part)
                    first, last = self.lines(part)
                    self.out.add(kind, first, last, text, tokens)
        elif t == "target":
            link = _child(node, "link")
            if link is not None:
                link_tokens: list[Token] = []
                self.add(link_tokens, "link", _decode(link.text or b""), link)
                name_node = _child(node, "name")
                name = _decode(name_node.text or b"") if name_node is not None else ""
                self.out.add("paragraph", line, end_line, name.strip("_:"), tuple(link_tokens))
        elif t in ("comment", "substitution_definition", "transition", "footnote", "citation", "::"):
            return
        elif t in ("classifier", "ERROR"):
            self.stray(node, kind if kind != "list_item" else "paragraph")
        elif node.child_count and node.is_named:
            self.walk(node, list_depth, kind)

    def heading(self, node: Node, line: int, end_line: int) -> None:
        title = _child(node, "title")
        adornments = [c for c in node.children if c.type == "adornment"]
        if title is None or not adornments:
            return
        underline = _decode(adornments[-1].text or b"=")
        style = (underline[:1], len(adornments) > 1 and adornments[0].start_byte < title.start_byte)
        if style not in self.styles:
            self.styles.append(style)
        level = self.styles.index(style) + 1
        text, tokens = self.inline(title)
        text = " ".join(text.split())
        self.out.add("heading", self.line(title), self.line(title), text, tokens, level, heading_number(text))

    def field(self, node: Node) -> None:
        name_node = _child(node, "field_name")
        name = _clip(_decode(name_node.text or b"")) if name_node is not None else ""
        body = _child(node, "field_body")
        texts: list[str] = []
        tokens: list[Token] = []
        if body is not None:
            for part in body.children:
                text, part_tokens = self.inline(part)
                texts.append(text)
                tokens.extend(part_tokens)
        line, end_line = self.lines(node)
        self.out.add("field", line, end_line, "\n".join(texts), tuple(tokens), name=name)

    def directive(self, node: Node, line: int, end_line: int, list_depth: int, kind: str) -> None:
        type_node = _child(node, "type")
        name = _decode(type_node.text or b"").strip() if type_node is not None else ""
        body = _child(node, "body")
        arguments = _child(body, "arguments") if body is not None else None
        content = _child(body, "content") if body is not None else None
        argument_text = _decode(arguments.text or b"").strip() if arguments is not None else ""
        lowered = name.lower()
        if lowered in CODE_DIRECTIVES:
            self.out.add("code", line, end_line, _decode(content.text or b"") if content is not None else "",
                         name=name)
            return
        tokens: list[Token] = []
        if lowered in OBJECT_DIRECTIVES and arguments is not None:
            # One directive may document several signatures, one per line.
            for offset, signature in enumerate(argument_text.split("\n")):
                target = _directive_name(signature)
                token = _token("directive_arg", target, self.line(arguments) + offset)
                if token is not None:
                    tokens.append(token)
        if lowered in LIST_DIRECTIVES:
            # autosummary's body is a list of the objects it documents, one per line, after its options
            # (read from the lines: the grammar files entries indented unlike the options as options).
            first_body = self.data.find(b"\n", node.start_byte)
            rows = self.data[first_body + 1:node.end_byte].split(b"\n") if first_body >= 0 else []
            for offset, raw in enumerate(rows, 1):
                entry = _decode(raw).strip()
                if entry and not entry.startswith((":", "..")):
                    token = _token("directive_arg", entry.split()[0], line + offset)
                    if token is not None:
                        tokens.append(token)
            self.out.add("directive", line, end_line, argument_text, tuple(tokens), name=name)
            return
        self.out.add("directive", line, end_line, argument_text, tuple(tokens), name=name)
        if content is not None:
            self.nested(content, list_depth, kind)

    def nested(self, content: Node, list_depth: int, kind: str) -> None:
        """Parse a directive's body (which the grammar leaves as text) as reStructuredText of its own."""
        start = self.data.rfind(b"\n", 0, content.start_byte) + 1
        self.reparse(start, content.end_byte, content.start_point.row)

    def reparse(self, start: int, end: int, row: int) -> None:
        """Parse the lines data[start:end] (which begin at `row`) again, dedented, as a document of their own."""
        if self.depth >= _MAX_NESTING:
            self.out.warnings.append(f"line {self.row_offset + row + 1}: nested too deeply; not read")
            return
        lines = self.data[start:end].split(b"\n")
        indents = [len(x) - len(x.lstrip(b" ")) for x in lines if x.strip()]
        indent = min(indents) if indents else 0
        body = b"\n".join(x[indent:] for x in lines) + b"\n"
        reader = _RstReader(body, self.out, self.row_offset + row, self.depth + 1, self.styles)
        reader.read()

    def stray(self, node: Node, kind: str) -> None:
        """Inline content the grammar left at block level (a definition-list classifier that ran on over
        the following paragraphs): its first line as a paragraph, the lines after it parsed again."""
        first_row = node.start_point.row
        line_end = self.data.find(b"\n", node.start_byte)
        if line_end < 0 or line_end >= node.end_byte:
            text, tokens = self.inline(node)
            self.out.add(kind, self.line(node), self.line(node), text, tokens)
            return
        first_tokens: list[Token] = []
        parts = []
        for child in node.children:
            if child.start_point.row == first_row:
                parts.append(self.render(child, first_tokens))
        self.out.add(kind, self.line(node), self.line(node), " ".join(p for p in parts if p), tuple(first_tokens))
        self.reparse(line_end + 1, node.end_byte, first_row + 1)

    def table(self, node: Node) -> bool:
        """A simple or grid table (which the grammar leaves as a paragraph): one table_row block per line."""
        start, end = node.start_byte, node.end_byte
        line_end = self.data.find(b"\n", start, end)  # the first line decides: most paragraphs are no table
        first = self.data[start:line_end if line_end >= 0 else end].strip()
        simple = bool(first) and set(first) <= {ord("="), ord(" ")} and first.startswith(b"==")
        grid = first.startswith(b"+-") or first.startswith(b"+=")
        if not (simple or grid):
            return False
        rows = self.data[start:end].split(b"\n")
        base = self.line(node)
        for offset, row in enumerate(rows):
            stripped = row.strip()
            if not stripped or set(stripped) <= set(b"=-+ |") or self.depth >= _MAX_NESTING:
                continue
            cells = row.split(b"|") if grid else _COLUMN_GAP.split(row)
            texts: list[str] = []
            tokens: list[Token] = []
            for cell in cells:
                if not cell.strip():
                    continue
                cell_out = _Collector()
                _RstReader(cell.strip() + b"\n", cell_out, base - 1 + offset, self.depth + 1, []).read()
                texts.append(_clip(" ".join(b.text for b in cell_out.blocks)))
                tokens.extend(t for b in cell_out.blocks for t in b.tokens)
            self.out.add("table_row", base + offset, base + offset, " | ".join(texts), tuple(tokens))
        return True


# Measured with tree-sitter-language-pack 0.13.0: a Markdown line nested 255 container blocks deep (`>` quotes,
# or list items, also when their markers share one line: `- - - ... x`) crashes the markdown scanner;
# reStructuredText nested 101 indentation levels deep makes the rst scanner allocate 24 GB. Far below both, and
# far beyond any real document.
MAX_NESTING = {"markdown": 100, "rst": 50}
# A Markdown container marker: a quote, or a list item's bullet or number followed by blanks (or the line's end).
_CONTAINER_MARKER = re.compile(rb">[ \t]*|(?:[-*+]|[0-9]{1,9}[.)])(?:[ \t]+|\Z)")
_MARKER_FIRST = frozenset(b">-*+0123456789")


def nesting_depth(data: bytes, *, count_markers: bool) -> int:
    """An upper bound of how deep a document's blocks nest: the levels of indentation open at once (as
    Python's tokenizer counts them), plus, for Markdown, the container markers (`>`, `-`, `1.`) that open
    a line."""
    deepest = 0
    stack = [0]
    for line in data.splitlines():
        stripped = line.lstrip(b" \t")
        if not stripped:
            continue
        width = len(line) - len(stripped)
        while stack[-1] > width:
            stack.pop()
        if width > stack[-1]:
            stack.append(width)
        markers = position = 0
        if count_markers and stripped[0] in _MARKER_FIRST:
            while (match := _CONTAINER_MARKER.match(stripped, position)) and match.end() > position:
                markers += 1
                position = match.end()
        deepest = max(deepest, len(stack) - 1 + markers)
    return deepest


_LONE_CR = re.compile(rb"\r(?!\n)")
# The rst scanner, at each character inline markup may start after (`[ { ( : < -`), looks ahead to the end of
# the blank-free run it is in: time quadratic in a long run of them ("ab[" * 2000, 6 KB on one line, took 1 s;
# measured with tree-sitter-language-pack 0.13.0). A document whose long runs add up to more than the budget
# (run length times such characters in it) is named, not parsed. Prose, URLs and base64 stay far below it.
_BLANKS = bytes.maketrans(b"\t\n", b"  ")  # the blanks that end a run, as spaces: one split finds every run
_LONG_RUN = 128
_MARKUP_STARTS = b"[{(:<-"
RST_RUN_BUDGET = 8_000_000


def rst_run_cost(data: bytes) -> int:
    """Run length times markup-start characters, summed over the document's runs of 128 or more blank-free bytes."""
    cost = 0
    # Split in C rather than matched run by run: a pattern tried at every byte of every word took seven times as
    # long on django's documents, for the same runs.
    for run in data.translate(_BLANKS).split(b" "):
        if len(run) >= _LONG_RUN:
            cost += len(run) * (len(run) - len(run.translate(None, _MARKUP_STARTS)))
    return cost


# ------------------------------------------------------------------------------------------------ public


def _add_read(out: _Collector, kind: str, line: int, end: int, text: str, codes: list[str], level: int,
              name: str = "") -> None:
    """A block a line reader (`parsing.texinfo`, `parsing.asciidoc`, `parsing.xdoc`) read: its text clipped (a code
    block's kept as written), its code spans tokens (a directive's, the object it documents)."""
    role = "directive_arg" if kind == "directive" else "code"
    out.add(kind, line, end, text if kind == "code" else _clip(text),
            tuple(t for c in codes if (t := _token(role, c, line))), level, name)


def parse_document(path: str, data: bytes) -> Document | None:
    """The document's blocks and tokens; None when the path is no Markdown, reStructuredText, Texinfo or xdoc
    document.

    Never raises: a document the grammars cannot read well gives fewer blocks and a warning.
    """
    fmt = document_format(path, data)
    if fmt is None:
        return None
    out = _Collector()
    if len(data) > MAX_DOCUMENT_BYTES:
        out.warnings.append(f"larger than {MAX_DOCUMENT_BYTES} bytes: only the start is read")
        data = data[:MAX_DOCUMENT_BYTES]
    if fmt == "xdoc":
        xdoc.read(data, partial(_add_read, out), out.warnings)
        return out.finish(path, fmt)
    if fmt == "html":
        html.read(data, partial(_add_read, out))
        return out.finish(path, fmt)
    if fmt in ("texinfo", "asciidoc"):
        (texinfo if fmt == "texinfo" else asciidoc).read(data, partial(_add_read, out))
        return out.finish(path, fmt)
    if fmt == "rst" and b"\r" in data:
        # The rst scanner ends a line only at "\n": on lines ended by a lone "\r" (classic Mac) each `<` scans to
        # the document's end, quadratic (8 KB of "<ab\r" took 1 s, so 2 MB would take hours). A lone "\r" is a
        # line break to Python and editors too; as "\n" the bytes keep their offsets.
        data = _LONE_CR.sub(b"\n", data)
    if fmt == "rst" and (cost := rst_run_cost(data)) > RST_RUN_BUDGET:
        out.warnings.append(f"long runs without blanks (cost {cost}, more than {RST_RUN_BUDGET}): not parsed")
        return out.finish(path, fmt)
    depth = nesting_depth(data, count_markers=fmt == "markdown")
    if depth > MAX_NESTING[fmt]:
        # The grammars' scanners keep fixed-size stacks: past them the markdown one crashes the process and
        # the rst one allocates tens of gigabytes. Such a document is named, never parsed.
        out.warnings.append(f"blocks nested {depth} deep (more than {MAX_NESTING[fmt]}): not parsed")
        return out.finish(path, fmt)
    try:
        if fmt == "markdown":
            _MarkdownReader(data, out, plain=not path.lower().endswith(MARKDOWN_EXTENSIONS)).read()
        else:
            _RstReader(data, out).read()
    except RecursionError:
        out.warnings.append("nesting too deep: the rest of the document is not read")
    return out.finish(path, fmt)


def parse_documents(files: Iterable[tuple[str, Callable[[], bytes]]]) -> dict[str, tuple[bytes, Document]]:
    """{path: (data, document)} of the documents among a snapshot's (path, read) pairs that parse: what the
    decision lint reads (`indexes.decisions.lint.lint_documents`). Only a document's blob is read."""
    documents: dict[str, tuple[bytes, Document]] = {}
    for path, read in files:
        if not is_document_path(path):
            continue
        data = read()
        doc = parse_document(path, data)
        if doc is not None:
            documents[path] = (data, doc)
    return documents
