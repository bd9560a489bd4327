"""Which tree-sitter-language-pack grammar, if any, parses a repository path."""
from __future__ import annotations

import re

# Languages that hold data, prose or build configuration in which no definition kind applies (the
# generic walk finds none): extract() returns an empty result for them without parsing.
DATA_LANGUAGES: frozenset[str] = frozenset(
    {
        "csv", "tsv", "psv", "json", "yaml", "toml", "ini", "properties", "xml", "dtd", "html",
        "markdown", "markdown_inline", "rst", "org", "latex", "bibtex", "typst", "gitattributes",
        "gitignore", "gitcommit", "requirements", "pymanifest", "po", "pem", "pgn", "gosum",
        "udev", "readline", "xcompose", "hyprlang", "css", "scss", "mermaid", "comment", "jsdoc",
        "doxygen", "luadoc", "luap", "printf", "kdl", "ron", "cpon", "gomod",
        "ninja", "embeddedtemplate", "gstlaunch", "qmldir", "dockerfile", "make", "cmake", "sql", "hcl",
        "terraform", "kconfig", "linkerscript", "query", "test",
    }
)

# Lower-cased extension (without the dot) -> pack language name.
_BY_EXTENSION: dict[str, str] = {
    "py": "python", "pyi": "python", "pyw": "python",
    "js": "javascript", "mjs": "javascript", "cjs": "javascript", "jsx": "javascript",
    "ts": "typescript", "mts": "typescript", "cts": "typescript",
    "tsx": "tsx",
    "go": "go",
    "rs": "rust",
    "java": "java",
    "kt": "kotlin", "kts": "kotlin",
    "scala": "scala", "sc": "scala",
    "c": "c", "h": "c",
    "cc": "cpp", "cpp": "cpp", "cxx": "cpp", "c++": "cpp", "hpp": "cpp", "hh": "cpp",
    "hxx": "cpp", "h++": "cpp", "ipp": "cpp", "tpp": "cpp", "inl": "cpp",
    "cs": "csharp",
    "rb": "ruby", "rake": "ruby", "gemspec": "ruby", "ru": "ruby",
    "php": "php", "phtml": "php",
    "swift": "swift",
    "sh": "bash", "bash": "bash", "zsh": "bash",
    "fish": "fish",
    "ps1": "powershell", "psm1": "powershell",
    "lua": "lua", "luau": "luau",
    "pl": "perl", "pm": "perl",
    "ex": "elixir", "exs": "elixir", "heex": "heex",
    "erl": "erlang", "hrl": "erlang",
    "hs": "haskell",
    "ml": "ocaml", "mli": "ocaml_interface",
    "fs": "fsharp", "fsx": "fsharp", "fsi": "fsharp_signature",
    "r": "r",
    "jl": "julia",
    "dart": "dart",
    "zig": "zig",
    "m": "objc", "mm": "objc",
    "cu": "cuda", "cuh": "cuda",
    "ino": "arduino",
    "glsl": "glsl", "vert": "glsl", "frag": "glsl",
    "hlsl": "hlsl",
    "wgsl": "wgsl",
    "groovy": "groovy", "gradle": "groovy",
    "clj": "clojure", "cljs": "clojure", "cljc": "clojure", "edn": "clojure",
    "lisp": "commonlisp", "cl": "commonlisp",
    "el": "elisp",
    "scm": "scheme", "ss": "scheme",
    "rkt": "racket",
    "elm": "elm",
    "gleam": "gleam",
    "nim": "nim",
    "nix": "nix",
    "d": "d",
    "odin": "odin",
    "v": "v",
    "ha": "hare",
    "sol": "solidity",
    "vue": "vue",
    "svelte": "svelte",
    "astro": "astro",
    "tf": "terraform", "tfvars": "terraform", "hcl": "hcl",
    "proto": "proto",
    "thrift": "thrift",
    "graphql": "graphql", "gql": "graphql",
    "prisma": "prisma",
    "bzl": "starlark", "star": "starlark",
    "gd": "gdscript",
    "tcl": "tcl",
    "vim": "vim",
    "f90": "fortran", "f95": "fortran", "f03": "fortran", "f08": "fortran", "f": "fortran",
    "adb": "ada", "ads": "ada",
    "pas": "pascal", "dpr": "pascal",
    "pp": "puppet",  # Puppet manifests far outnumber Free Pascal units named .pp
    "vhd": "vhdl", "vhdl": "vhdl",
    "sv": "verilog", "svh": "verilog",
    "matlab": "matlab",
    "hack": "hack",
    "hx": "haxe",
    "purs": "purescript",
    "jsonnet": "jsonnet", "libsonnet": "jsonnet",
    "rego": "rego",
    "cairo": "cairo",
    "smali": "smali",
    "nut": "squirrel",
    "pony": "pony",
    "ll": "llvm",
    "asm": "asm", "s": "asm",
    "wat": "wat", "wast": "wast",
    "twig": "twig",
    "meson": "meson",
    "cmake": "cmake",
    "mk": "make", "mak": "make",
    "dockerfile": "dockerfile",
    "html": "html", "htm": "html",
    "css": "css", "scss": "scss",
    "md": "markdown", "markdown": "markdown",
    "rst": "rst",
    "org": "org",
    "tex": "latex", "bib": "bibtex",
    "typ": "typst",
    "yaml": "yaml", "yml": "yaml",
    "toml": "toml",
    "json": "json", "jsonc": "json",
    "xml": "xml", "xsd": "xml", "svg": "xml",
    "ini": "ini", "cfg": "ini",
    "properties": "properties",
    "sql": "sql",
    "csv": "csv", "tsv": "tsv",
    "po": "po",
    "mermaid": "mermaid", "mmd": "mermaid",
    "kdl": "kdl",
    "ron": "ron",
    "ninja": "ninja",
    "bicep": "bicep",
    "beancount": "beancount",
    "capnp": "capnp",
    "smithy": "smithy",
    "as": "actionscript",
    "agda": "agda",
    "bb": "bitbake", "bbappend": "bitbake", "bbclass": "bitbake",
    "clar": "clarity",
    "cob": "cobol", "cbl": "cobol",
    "fnl": "fennel",
    "fc": "func",
    "gn": "gn", "gni": "gn",
    "ispc": "ispc",
    "janet": "janet",
    "qml": "qmljs",
    "re": "re2c",
    "rq": "sparql", "sparql": "sparql",
    "td": "tablegen",
    "yuck": "yuck",
    "ungram": "ungrammar",
    "tal": "uxntal",
    "dtd": "dtd",
    "magik": "magik",
    "nqc": "nqc",
    "erb": "embeddedtemplate", "ejs": "embeddedtemplate",
    "gitcommit": "gitcommit",
}

# Exact (lower-cased) file names that carry no telling extension.
_BY_FILENAME: dict[str, str] = {
    "makefile": "make", "gnumakefile": "make",
    "dockerfile": "dockerfile", "containerfile": "dockerfile",
    "cmakelists.txt": "cmake",
    "rakefile": "ruby", "gemfile": "ruby", "guardfile": "ruby", "podfile": "ruby", "vagrantfile": "ruby",
    "build": "starlark", "build.bazel": "starlark", "workspace": "starlark",
    ".bashrc": "bash", ".bash_profile": "bash", ".profile": "bash", ".zshrc": "bash",
    ".gitignore": "gitignore", ".gitattributes": "gitattributes",
    "requirements.txt": "requirements",
    "manifest.in": "pymanifest",
    "go.mod": "gomod", "go.sum": "gosum",
    "meson.build": "meson",
    "kconfig": "kconfig",
}


def language_for_path(path: str) -> str | None:
    """The pack language for a repo path (POSIX), by file name then extension; None if unknown."""
    base = path.rsplit("/", 1)[-1].lower()
    if not base:
        return None
    known = _BY_FILENAME.get(base)
    if known is not None:
        return known
    if base.startswith("dockerfile.") or base.endswith(".dockerfile"):
        return "dockerfile"
    if base.startswith("makefile."):
        return "make"
    if base.endswith(".in") and len(base) > 3:  # a configure template (config.h.in) is the file it makes
        return language_for_path(base[:-3])
    dot = base.rfind(".")
    # A leading dot alone (".env", ".vimrc") is a hidden name, not an extension.
    if dot <= 0:
        return None
    return _BY_EXTENSION.get(base[dot + 1 :])


# A script's interpreter (`#!/bin/sh`, `#!/usr/bin/env -S python3 -u`) -> pack language, for files whose name tells
# nothing (neofetch's `bin/neofetch`); a version suffix (python3.11) is dropped first.
_SHEBANG = re.compile(
    rb"\A(?:\xef\xbb\xbf)?#![ \t]*\S*/(?:env[ \t]+(?:-\S*[ \t]+)*)?([A-Za-z][\w+-]*?)[\d.]*(?:[ \t]|\r?\n|\Z)"
)
_BY_INTERPRETER: dict[str, str] = {
    "sh": "bash", "bash": "bash", "dash": "bash", "ash": "bash", "ksh": "bash", "mksh": "bash", "zsh": "bash",
    "python": "python", "pypy": "python", "node": "javascript", "nodejs": "javascript", "deno": "typescript",
    "ruby": "ruby", "perl": "perl", "php": "php", "lua": "lua", "luajit": "lua", "elixir": "elixir",
    "escript": "erlang", "fish": "fish", "pwsh": "powershell",
    "tclsh": "tcl", "wish": "tcl", "Rscript": "r", "julia": "julia", "groovy": "groovy", "swift": "swift",
}
# `-*- shell-script -*-`, `-*- mode: python; coding: utf-8 -*-`; `# vim: ft=sh`, `# ex: filetype=bash`.
_EMACS_MODE = re.compile(rb"-\*-[ \t]*(?:[^\n]*?\bmode:[ \t]*)?([\w+-]+)[^\n]*?-\*-")
_VIM_MODE = re.compile(rb"(?:^|\s)(?:vim?|ex):[^\n]*?\b(?:ft|filetype)=([\w+-]+)")
_BY_MODE: dict[str, str] = {
    **_BY_INTERPRETER, "shell-script": "bash", "shell": "bash", "cperl": "perl", "js": "javascript",
    "javascript": "javascript", "typescript": "typescript", "tcl": "tcl", "haskell": "haskell",
}
# A `.h` header is C, C++ or Objective-C by what it holds: parsed as C, a class or an @interface is a parse error
# and its definitions are lost. Markers at a line's start only, so that a comment's prose does not count.
_OBJC_MARKER = rb"@(?:interface|protocol|implementation|end)\b"
_OBJC_MARKERS = re.compile(rb"^[ \t]*" + _OBJC_MARKER, re.MULTILINE)
# `#import` alone is Objective-C's, but Objective-C++ headers use it too (expo's `#import <unordered_map>`).
_OBJC_IMPORT_MARKER = rb"#[ \t]*import\b"
_OBJC_IMPORT = re.compile(rb"^[ \t]*" + _OBJC_IMPORT_MARKER, re.MULTILINE)
# C++ projects name their headers `.h` as often as C ones do (fmt, spdlog, Qt, LLVM); a C header's
# `#ifdef __cplusplus` guard (`extern "C" {`) is no C++ marker, a standard header without `.h` (`<string>`) is.
_CPP_MARKER = (rb"(?:namespace\b|template[ \t]*<|class[ \t]+[A-Za-z_]|(?:public|private|protected)[ \t]*:(?!:)|"
               rb"using[ \t]+(?:namespace\b|[A-Za-z_]\w*[ \t]*=)|#[ \t]*include[ \t]*<[\w/]+>)")
_CPP_MARKERS = re.compile(rb"^[ \t]*" + _CPP_MARKER, re.MULTILINE)
# Any of the three, for the common case (a C file that holds none) in one pass: after a newline, which re searches
# for as a literal (a `^` in MULTILINE mode is tried at every byte: three such passes were 2 % of a kernel build).
_ANY_MARKER = rb"[ \t]*(?:" + _OBJC_MARKER + b"|" + _OBJC_IMPORT_MARKER + b"|" + _CPP_MARKER + b")"
_FIRST_LINE_MARKER = re.compile(_ANY_MARKER)
_LINE_MARKER = re.compile(rb"\n" + _ANY_MARKER)
# So is a line that opens with a qualified name called or defined (`bool spdlog::sinks::sink::should_log(`,
# `std::fill(`): C has no `::` outside a C23 attribute, which opens with `[[`. spdlog's `sink-inl.h`, nothing
# but out-of-line methods, was read as C and lost all of them. (Looked for only in a file that holds `::`.)
_CPP_QUALIFIED = re.compile(rb"^[ \t]*(?:[A-Za-z_]\w*[ \t*&]+)*[A-Za-z_]\w*(?:::~?[A-Za-z_]\w*)+[ \t]*\(", re.MULTILINE)
_SNIFF_BYTES = 256 * 1024


def language_for_content(lang: str | None, data: bytes) -> str | None:
    """`lang` (from the path) refined by the file's content: a file the path names no language for by its `#!` line
    or an editor's mode line, a `.h` header as C++ or Objective-C when it holds their syntax. The same bytes always
    give the same answer."""
    if lang is None:
        match = _SHEBANG.match(data[:256])
        if match:
            return _BY_INTERPRETER.get(match.group(1).decode("ascii"))
        # An editor's mode line: Emacs's on the first two lines, vim's in the last few.
        match = _EMACS_MODE.search(b"\n".join(data[:512].split(b"\n", 2)[:2])) or _VIM_MODE.search(data[-512:])
        return _BY_MODE.get(match.group(1).decode("ascii").lower()) if match else None
    if lang == "c":
        head = data[:_SNIFF_BYTES]
        if not (_FIRST_LINE_MARKER.match(head) or _LINE_MARKER.search(head) or b"::" in head):
            return lang
        if _OBJC_MARKERS.search(head):
            return "objc"
        if _CPP_MARKERS.search(head) or b"::" in head and _CPP_QUALIFIED.search(head):
            return "cpp"
        if _OBJC_IMPORT.search(head):
            return "objc"
    return lang
