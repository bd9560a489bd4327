"""The prose of a source file that node text needs: its header comment or module docstring, and message strings.

Plain text scanning, no tree-sitter: it runs over every file of a build, and what it finds (a leading
comment block, a quoted sentence) has the same shape in every language the parser handles. Comment
syntax comes in four families: `#` (Python, Ruby, shell, YAML, ...), `//` and `/* */` (the C family,
JavaScript, Go, Rust, Java, ...), `--` (SQL, Lua, Haskell) and PHP's, which has both `//` and `#` lines; Python
adds the module docstring, and PHP's header comes after its `<?php` tag, its docblocks without the tags that say
nothing about the code.
"""
from __future__ import annotations

import re

from gitroute.traits import traits

MAX_HEADER = 600
MAX_LITERAL = 200
MAX_LITERALS = 2_000  # per file: generated tables of strings say nothing more after that
_SCAN = 8_000  # how far into a file its header is looked for


_SHEBANG = re.compile(r"\A(?:#![^\n]*\n|\ufeff)+")
# A PHP file opens with its tag (`<?php`, perhaps `declare(strict_types=1);` on the same line) before any comment.
_PHP_OPEN = re.compile(r"\A\s*<\?php\b[ \t]*(?:declare\s*\([^()\n]*\)\s*;)?", re.I)
_PY_DOCSTRING = re.compile(r'\A\s*(?:(?:#[^\n]*|from\s+__future__[^\n]*)\n\s*)*[rRuU]?("""|\'\'\')(.*?)\1', re.S)
_BLOCK = re.compile(r"\A\s*/\*+(.*?)\*/", re.S)
# PHP's `#[...]` opens an attribute (PHP 8), not a comment.
_LINE_MARKERS = {"//": re.compile(r"\A(?:[ \t]*//[^\n]*\n?)+"), "#": re.compile(r"\A(?:[ \t]*#[^\n]*\n?)+"),
                 "--": re.compile(r"\A(?:[ \t]*--[^\n]*\n?)+"),
                 "php": re.compile(r"\A(?:[ \t]*(?://|#(?!\[))[^\n]*\n?)+")}
_MARKER = re.compile(r"^[ \t]*(?:/{2,3}!?|#+|--+|\*+)[ \t]?", re.M)
# Ruby's magic comments (`# frozen_string_literal: true`, `# -*- coding: utf-8 -*-`) tell the interpreter how to
# read the file; they describe nothing.
RUBY_MAGIC_COMMENT = re.compile(
    r"^[ \t]*#[ \t]*(?:-\*-.*-\*-|(?:frozen_string_literal|(?:en)?coding|warn_indent|shareable_constant_value)"
    r"[ \t]*:[^\n]*)[ \t]*$",
    re.I | re.M,
)
# A C or C++ header opens with directives that do nothing yet: its guard (`#ifndef X_H`, a `#define` without a
# value), `#pragma once`, its includes and the conditionals around them; its description often comes after them
# (spdlog's every header: licence, `#pragma once`, includes, then what the file is). A `#define` with a value, or
# any other directive, is code: the comment after it is about that code.
_OPENING_DIRECTIVES = re.compile(
    r"\A(?:[ \t]*#[ \t]*(?:pragma[ \t]+once\b|include\b|import\b|ifn?def\b|if\b|elif\b|else\b|endif\b"
    r"|define[ \t]+\w+[ \t]*(?:$|//|/\*))[^\n]*(?:\n|\Z)\s*)+",
    re.MULTILINE,
)
# A Python module's imports (and its `__all__`) do nothing yet either: urllib3's `util/wait.py` explains itself in a
# comment block after them ("How should we wait on sockets? …"), with no docstring.
_PY_OPENING = re.compile(
    r"\A(?:[ \t]*(?:from[ \t]+[\w.]+[ \t]+import[ \t]+(?:\([^)]*\)|[^\n]*)|import[ \t]+[^\n]*"
    r"|__all__[ \t]*=[ \t]*(?:\[[^\]]*\]|\([^)]*\)|[^\n]*))[ \t]*(?:\n|\Z)\s*)+",
)
# After those directives (or imports), a comment directly above a line of code documents that code, not the file
# (above a directive, the directive: `// the default logger's colours` over `#ifndef NO_DEFAULT_LOGGER`); one above a
# blank line, a namespace or an `extern "C" {` block (no definitions) is the file's.
_OPENS_NO_DEFINITION = re.compile(r"[ \t]*(?:\r?\n|\Z|namespace\b|extern[ \t]+\"C\"[ \t]*\{)")
_LICENSE = re.compile(r"\b(?:copyright|licen[cs]e[ds]?|spdx|all rights reserved)\b", re.I)
# A string on one line, double or single quoted or backquoted, its escapes included (`"can't \"open\" it"`).
# Every string is matched, short ones too, so that a closing quote never opens a string of the code after it;
# an escaped quote opens none, so that a line without a closing quote is scanned once, not once per `\"`
# (the lookbehind after the quote, not before it, keeps the regex engine's fast search for a quote).
_STRING = re.compile(r'"(?<!\\")([^"\\\n]*+(?:\\.[^"\\\n]*+)*+)"|\'(?<!\\\')([^\'\\\n]*+(?:\\.[^\'\\\n]*+)*+)\''
                     r'|`(?<!\\`)([^`\\\n]*+(?:\\.[^`\\\n]*+)*+)`')
_ESCAPE = re.compile(r"\\(?:[nrt]|(.))")  # `\n` is a space between words, `\"` a quote
_WORD = re.compile(r"[A-Za-z]{2,}")
_NOT_PROSE = re.compile(r"^\s*(?:https?://|[\w.-]*/[\w./-]*\s*$|[\w.-]+\.\w{1,4}\s*$)")  # URLs, paths, file names

# PHPDoc tags whose text is no description: static-analysis types that repeat the signature (`@phpstan-param
# Record $record`, `@psalm-import-type ...`, often a screenful of array shapes), who wrote it and under which
# licence. A tag's text runs on until the next tag or a blank line.
_PHP_NOISE_TAG = re.compile(r"@(?:phpstan|psalm|phan)-[\w-]+|@(?:author|copyright|license)\b", re.I)
_PHP_INHERIT = re.compile(r"\{?@inheritdoc\}?", re.I)  # "see the parent's doc": no words of its own


def php_comment_text(comment: str) -> str:
    """A PHP comment, raw or with its markers gone, without the noise tags above and their text."""
    kept: list[str] = []
    dropping = False
    for line in comment.splitlines():
        body = line.strip().lstrip("/*#").lstrip()
        if not body or body.startswith("@"):
            dropping = _PHP_NOISE_TAG.match(body) is not None
        if not dropping:
            kept.append(line)
    return _PHP_INHERIT.sub(" ", "\n".join(kept))


def comment_family(lang: str) -> str:
    """Which line-comment marker a language uses: "#", "--", "//" (the default) or both `//` and `#` ("php")."""
    return traits(lang).comment


def header_text(text: str, lang: str) -> str:
    """A file's own description: the module docstring (Python) or the leading comment block, license text left out."""
    head = _SHEBANG.sub("", text[:_SCAN], count=1)
    if lang == "php":
        head = _PHP_OPEN.sub("", head, count=1)
    found = ""
    if lang == "python":
        match = _PY_DOCSTRING.match(head)
        if match:
            found = match.group(2)
    if not found:
        family = comment_family(lang)
        blocks = []
        rest = head
        past_directives = False
        opening = _PY_OPENING if lang == "python" else _OPENING_DIRECTIVES if traits(lang).preprocessed else None
        for _ in range(4):  # a license block, then the description: look past a few blocks
            rest = rest.lstrip()
            if opening is not None:
                directives = opening.match(rest)
                if directives:
                    rest = rest[directives.end():]
                    past_directives = True
            block = _BLOCK.match(rest) if family != "#" else None
            lines = _LINE_MARKERS[family].match(rest)
            end = block.end() if block else lines.end() if lines else 0
            if not end:
                break
            if past_directives:
                line_end = rest.find("\n", end - 1)  # where the comment's last line ends
                if line_end >= 0 and not _OPENS_NO_DEFINITION.match(rest, line_end + 1):
                    break
            if block:
                blocks.append(block.group(1))
            elif lines:
                blocks.append(RUBY_MAGIC_COMMENT.sub("", lines.group(0)) if lang == "ruby" else lines.group(0))
            rest = rest[end:]
        if lang == "php":  # a file docblock's `@license`/`@author` tags do not make its description a licence
            blocks = [php_comment_text(b) for b in blocks]
        found = " ".join(_MARKER.sub("", b) for b in blocks if not _LICENSE.search(b))
    return " ".join(found.split())[:MAX_HEADER]


# One pass over a file finds its comments and its strings, the leftmost first, so that a quote in a comment
# (`// don't`, `# the "json" type`) opens no string and a marker in a string (`"http://..."`, Ruby's
# `"#{name}"`) opens no comment. An unclosed block comment runs to the end of the text: one match, not a
# rescan from every later `/*`; `#{` interpolates in a regex or a heredoc too (Ruby, Elixir, Crystal), where
# no string is seen. (A comment is the match without a group: a group around it would cost the regex engine
# its fast search for the first character, and the scan twice its time.)
_COMMENT = {"#": r"#(?!\{)[^\n]*", "//": r"//[^\n]*|/\*.*?(?:\*/|\Z)", "--": r"--[^\n]*",
            "php": r"//[^\n]*|/\*.*?(?:\*/|\Z)|#(?!\[)[^\n]*"}
_PROSE = {family: re.compile(f"{comment}|{_STRING.pattern}", re.S) for family, comment in _COMMENT.items()}


def scan_prose(text: str, lang: str) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    """(message literals, comments) of a file, each as (1-based line, text): the string literals that read as
    messages (three words or more, mostly letters) and every comment, by the language's comment family."""
    messages: list[tuple[int, str]] = []
    found: list[tuple[int, str]] = []
    php = lang == "php"
    known = _MESSAGES.get
    line, pos = 1, 0
    for match in _PROSE[comment_family(lang)].finditer(text):
        quoted = match.lastindex
        if quoted is None:
            comment = match.group(0)
        else:
            start, end = match.span(quoted)
            if not 12 <= end - start <= 400 or len(messages) >= MAX_LITERALS:
                continue
            value = match.group(quoted)
            held = known(value)
            message = held if held is not None else _message(value)
            if not message:
                continue
        at = match.start()
        line += text.count("\n", pos, at)
        pos = at
        if quoted is None:  # a PHP docblock's analyser types and authors are no words about the code (as in its doc)
            found.append((line, php_comment_text(comment) if php else comment))
        else:
            messages.append((line, message))
    return messages, found


# A literal's message ("" when it reads as none), memoised: literals repeat across files (each of django's hundred
# locales' .po files holds the same msgids: they were two thirds of the meaning index's scan), and a memo of every
# literal of a large repository would outgrow what it saves.
_MESSAGES: dict[str, str] = {}
MESSAGES_MEMO_MAX = 1 << 17


def _message(value: str) -> str:
    """What a string literal's text (`value`, as quoted, escapes and all) says as a message, at most MAX_LITERAL
    characters: three words or more, mostly letters, no URL or path; "" when it says none."""
    message = ""
    if " " in value and not _NOT_PROSE.match(value):
        text = _ESCAPE.sub(lambda escape: escape.group(1) or " ", value) if "\\" in value else value
        words = _WORD.findall(text)
        if len(words) >= 3 and sum(map(len, words)) >= 0.5 * len(text):
            message = text[:MAX_LITERAL]
    if len(_MESSAGES) < MESSAGES_MEMO_MAX:
        _MESSAGES[value] = message
    return message
