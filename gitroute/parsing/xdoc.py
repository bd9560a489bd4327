"""Maven site pages (`src/site/xdoc/*.xml`) as blocks: the documentation Apache Commons projects and many Java
libraries write (commons-text's user guide and security page, commons-cli's properties page). An xdoc page is XML:
`<document><properties><title>`, then `<section name="…">` and `<subsection name="…">` holding HTML-like prose
(`<p>`, `<li>`, `<source>`, `<code>`).

Read with expat (Python's bundled copy refuses entity expansion past its limits, and no external entity or DTD is
fetched): the title, sections and subsections are headings, `<p>`/`<dd>`/`<td>` text a paragraph (its `<code>` a
code token), `<li>` a list item, `<source>`/`<pre>` code. A page that does not parse gives what was read before the
error and a warning; `read` never raises.
"""
from __future__ import annotations

from xml.parsers import expat

_HEADINGS = {"section": 2, "subsection": 3}  # the page's title is level 1
_TEXT = {"p": "paragraph", "dd": "paragraph", "td": "paragraph", "li": "list_item", "source": "code", "pre": "code"}


def read(data: bytes, add, warnings: list[str]) -> None:
    """Blocks of an xdoc page, each passed to `add(kind, line, end_line, text, codes, level)` (text as written)."""
    parser = expat.ParserCreate()
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    open_: list[tuple[str, int, list[str], list[str]]] = []  # (kind, line, text parts, code spans)
    in_code = 0
    in_properties = False

    def start(tag: str, attrs: dict[str, str]) -> None:
        nonlocal in_code, in_properties
        line = parser.CurrentLineNumber
        if tag == "properties":
            in_properties = True
        if tag in ("section", "subsection") and attrs.get("name"):
            add("heading", line, line, " ".join(attrs["name"].split()), [], _HEADINGS[tag])
        elif tag == "title" and in_properties:
            open_.append(("title", line, [], []))
        elif tag in _TEXT and not any(kind in _TEXT for kind, *_ in open_):
            open_.append((_TEXT[tag], line, [], []))
        elif tag == "code":
            in_code += 1
            if open_:
                open_[-1][3].append("")

    def end(tag: str) -> None:
        nonlocal in_code, in_properties
        line = parser.CurrentLineNumber
        if tag == "properties":
            in_properties = False
        elif tag == "code":
            in_code = max(in_code - 1, 0)
        if open_ and (tag == "title" and open_[-1][0] == "title" or _TEXT.get(tag) == open_[-1][0]):
            kind, first, parts, codes = open_.pop()
            text = "".join(parts)
            if kind == "title":
                add("heading", first, line, " ".join(text.split()), [], 1)
            elif text.strip():
                add(kind, first, max(line, first), text, [c.strip() for c in codes if c.strip()], 0)

    def characters(text: str) -> None:
        if open_:
            open_[-1][2].append(text)
            if in_code and open_[-1][3]:
                open_[-1][3][-1] += text

    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.CharacterDataHandler = characters
    try:
        parser.Parse(data, True)
    except (expat.ExpatError, ValueError, RecursionError) as err:
        warnings.append(f"not well-formed XML ({err}): the rest of the page is not read")
