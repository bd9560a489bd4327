"""The version of what extraction produces: a rebuild reuses no result an extractor of another version made."""
from __future__ import annotations

# Bumped when extraction output changes, so a rebuild stops reusing results made the old way.
# 4: documents parsed and cached like code; 5: module-level constants, '#:' comments; 6: import
# bindings, call receivers and class bases (the graph's resolution); 7: Kotlin, Scala and C# import aliases;
# 8: a line of container markers counts toward the nesting guard (such documents are named, not parsed);
# 9: Java, Go and Rust constants; 10: every name of a declaration that names several constants; 11: C typedefs,
# enum members and macro-broken prototypes, configure templates (`config.h.in`) parsed as what they make;
# 12: PHP docblocks without their analyser, author and inheritDoc tags, PHP enum cases as constants; 13: Ruby docs
# across one blank line, without magic comments and RDoc directives, Ruby's attr_* and define_method methods;
# 14: a doc in more than 64 line comments keeps its head (its summary), not its tail; 15: Ruby aliases as methods;
# 16: C++ read in `.h` headers, C/C++ macro lines and specifiers blanked, docs above templates, C# `#if` in base
# lists, delegates and cref names, Kotlin KDoc above annotations after an expression body, Scala package objects;
# 17: scripts without an extension by their `#!` or mode line, Objective-C `.h` headers by their content, Elixir,
# Haskell and Lua tag queries, a shell file that does not parse whole parsed function by function, no Objective-C
# property as a struct nor category as a class; 18: PHP `#` comments in node text (header and body comments),
# message strings with escaped quotes, comments and strings found in one scan (no message in a comment, no
# comment in a string), Elixir aliases as bindings (a call on a module by name resolves in it); 19: C++ specifier
# macros after a parameter list blanked (`f() SPDLOG_NOEXCEPT`), out-of-line methods under two namespaces, a `.h`
# of qualified definitions read as C++, a Doxygen `/**` block across one blank line, a C/C++ header's description
# after its guard, `#pragma once` and includes; 20: C# properties and events as methods, enum members as
# constants, a property's type as a reference, C# `#if` lines before a `case` label or an `else` blanked; 21: C#
# indexers and operators as methods, C# `#if` groups blanked whole (after an `else`, around a lone brace, in a list,
# before an operand), C++ free functions returning a reference, a C++ specifier or namespace name under an `#if`
# kept alone; 22: minified code skipped as "minified", a parse past its memory or CPU ceiling as "parse-limit"
# (parsing/limits.py); 23: every document's sections in the decision index (as pages, behind records and design
# sections), a PHP namespace (`Monolog\Registry`) read as a qualified name by the doc↔code index; 24: a heading cut
# to 1,000 characters, its control characters spaces (a row is named by it, and answers check names); 25: plain-text
# documents under the names every project uses (`CHANGES`, `NEWS`, `HISTORY.txt`; without an extension, in capitals);
# 26: a C++ member's type as a reference (a class holding a `details::file_helper` depends on it); 27: Python
# module-level constants whose value is a comparison, a boolean, a negative number, None, a subscript or a joined
# string; 28: a document's heading right under its parent's, with no text between, holds the parent's words in the
# decision index (`records._sections`); 29: a Lua class made by a class library's call (`local Date = class()`,
# `Date.Format = class()`), and a changelog file is a page of the decision index (decision 0047); 30: a C++ class
# whose bases are under an `#if` (the group's first branch kept in its head); 31: a Markdown inline HTML tag is
# markup, not text (a heading's `<a name=…></a>`); 32: a JS/TS module-level `var` constant, as `const` is, and
# no constant bound to a member of a `require(...)` (an import); past the symbol cap, definitions before constants;
# 33: a Python module's header comment may come after its imports and `__all__` (`prose.header_text`); 34: a JS/TS
# module constant bound to a parenthesised value (qs's `var hexTable = (function () { … }());`); 35: a capitalised
# plain document without an extension (GNU's `ChangeLog`, CPAN's `Changes`) is read, as one in capitals was; 36:
# GNU Texinfo manuals (`.texi`) are documents (parsing/texinfo.py), and a Markdown heading's closing hashes
# (`### Features ###`) are no part of its text; 37: Maven site pages (`src/site/xdoc/*.xml`) are documents
# (parsing/xdoc.py); 38: an anchor alone on the line above a Markdown heading (`<a name="linking">`) no longer opens
# an HTML block that swallows the heading (json-c's README); 39: AsciiDoc documents (`.adoc`, and a `.txt` that opens
# with an AsciiDoc title: lua-cjson's manual) are read (parsing/asciidoc.py); 40: a `.txt` of prose under a docs
# folder is a document (zlib's doc/algorithm.txt), and a plain-text document's numbered line between blank lines is
# a section's title (zlib's FAQ " 28. Can I access data randomly …?"); plain-text documents are kinds of their own
# (`plain`, `plaintxt`, `doctxt`), as a build parses a blob by its kind's path: cmark's changelog.txt was read as
# "document.txt", no document; HTML pages written as documentation (LPeg's lpeg.html, LZ4's manual) are documents
# (parsing/html.py); 41: a Lua function written as a field of a table constructor (`local match = { is_matcher =
# function(o) … end }`) is defined onto the table; 42: an HTML heading's permalink (Sphinx's "¶") is no part of it
EXTRACTOR_VERSION = 42
