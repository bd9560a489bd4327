"""HTML pages written as documentation (LPeg's lpeg.html and re.html, LZ4's doc/lz4_manual.html, Lua's manual, a
Javadoc `overview.html`) as blocks: `<h1>`…`<h6>` headings, `<p>`/`<dd>`/`<dt>`/`<td>` paragraphs, `<li>` list items,
`<pre>` code; `<code>`, `<tt>` and `<kbd>` spans inside them code tokens. A page of a template language (`{{ }}`,
`{% %}`, `<% %>`, `<?php`) is a template, not a document, and so is one without a heading and a paragraph
(`looks_like_html_document`).

Read with the standard library's `html.parser`, which never fetches anything and reads any tag soup (an unclosed
`<p>` ends where the next block begins); `read` never raises.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser

_HEADINGS = {f"h{n}": n for n in range(1, 7)}
_TEXT = {"p": "paragraph", "dd": "paragraph", "dt": "paragraph", "td": "paragraph", "th": "paragraph",
         "li": "list_item", "pre": "code", "blockquote": "paragraph"}
_BLOCKS = frozenset((*_HEADINGS, *_TEXT, "ul", "ol", "dl", "table", "tr", "div", "section", "hr", "br", "body"))
_CODE = frozenset(("code", "tt", "kbd", "samp"))
_SKIPPED = frozenset(("script", "style", "head", "nav"))
# a template's own markup, not a pattern a manual shows (LPeg's re.html writes `{%a+}` and `{{"hi"}}`)
_TEMPLATE = re.compile(rb"\{%-?\s+\w|\{\{-?\s*[\w.]+\s*(?:\|[^}]*)?-?\}\}|<%[=#-]?\s|<\?php", re.I)
_HEADING_TAG = re.compile(rb"<h[1-6][\s>]", re.I)
_PARAGRAPH_TAG = re.compile(rb"<(?:p|dd|li|pre)[\s>]", re.I)
_SNIFF = 64 * 1024


def looks_like_html_document(data: bytes) -> bool:
    """Whether an HTML page reads as a document: a heading and a paragraph in its first 64 KiB, and no template's
    markup (a Django or Jinja template, a Jekyll layout, a PHP page)."""
    head = data[:_SNIFF]
    return bool(_HEADING_TAG.search(head) and _PARAGRAPH_TAG.search(head)) and not _TEMPLATE.search(head)


def read(data: bytes, add) -> None:
    """Blocks of a page, each passed to `add(kind, line, end_line, text, codes, level)`."""
    reader = _Reader(add)
    try:
        reader.feed(data.decode("utf-8", "replace"))
        reader.close()
    except Exception:  # html.parser reads any text; whatever it might still raise on ends the page there
        pass
    reader.flush(reader.getpos()[0])


class _Reader(HTMLParser):
    def __init__(self, add) -> None:
        super().__init__(convert_charrefs=True)
        self.add = add
        self.open: tuple[str, int, int] | None = None  # (kind, first line, heading level)
        self.parts: list[str] = []
        self.codes: list[list[str]] = []
        self.in_code = 0
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs) -> None:
        if tag in _SKIPPED:
            self.skipping += 1
            return
        if self.skipping:
            return
        line = self.getpos()[0]
        if tag in _BLOCKS and not (self.open and self.open[0] == "code" and tag != "pre"):
            self.flush(line)
            if tag in _HEADINGS:
                self.open = ("heading", line, _HEADINGS[tag])
            elif tag in _TEXT:
                self.open = (_TEXT[tag], line, 0)
        elif tag in _CODE:
            self.in_code += 1
            self.codes.append([])

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED:
            self.skipping = max(self.skipping - 1, 0)
            return
        if self.skipping:
            return
        if tag in _CODE:
            self.in_code = max(self.in_code - 1, 0)
        elif tag in _BLOCKS and (tag in _HEADINGS or tag in _TEXT or tag in ("ul", "ol", "dl", "table")):
            self.flush(self.getpos()[0])

    def handle_data(self, data: str) -> None:
        if self.skipping:
            return
        if self.open is None and data.strip():
            self.open = ("paragraph", self.getpos()[0], 0)  # text outside any block: a paragraph of its own
        self.parts.append(data)
        if self.in_code and self.codes:
            self.codes[-1].append(data)

    def flush(self, line: int) -> None:
        """The open block, added when it holds text; none is open after."""
        if self.open is not None:
            kind, first, level = self.open
            text = "".join(self.parts)
            codes = [" ".join("".join(parts).split()) for parts in self.codes]
            if kind != "code":
                text = " ".join(text.split())
            if text.strip():
                self.add(kind, first, max(line, first), text, [c for c in codes if c], level)
        self.open, self.parts, self.codes = None, [], []
