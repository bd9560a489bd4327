"""What gitroute needs to know of each language beyond its grammar, as data: one row per language (how its imports
name modules and what they bind, whether a bare call in a class is on `this`, its comments), and which names its
runtime provides (so that no file of a repository is taken for them). Tree-sitter's hooks for a language stay in
`gitroute/parsing/families/`."""
from __future__ import annotations

import builtins
from typing import NamedTuple


class Traits(NamedTuple):
    """One language's row. The defaults are a language the resolver knows nothing particular of."""

    # How its imports name the module they bring in (the `style` of `gitroute.modules.ModuleIndex.files`):
    # "python": dotted paths from a source root; "ecmascript": relative paths, or a package's name; "go": a
    # package path (a folder); "rust": `crate::a::b` paths; "jvm": packages by dotted name, folders by their
    # trailing parts; "dotnet": namespaces; "": a path by its trailing parts (C includes, Ruby's require, ...).
    module_style: str = ""
    module_separator: str = "."  # between a module and a name in it, as an import writes it
    # What an import binds: "parsed", the names the parser saw (`from a import b as c`); "implied", what the
    # import's text implies (`import a.b.C` binds C, `import a.b.*` every name of a.b); "included", every
    # top-level name of the imported files (C's includes, Ruby's require, PHP's use).
    imports: str = "included"
    namespace_imports: bool = False  # every import names a namespace, never a type (C#'s `using A.B`)
    implicit_receiver: bool = False  # a bare `m()` inside a class may call the class's own method
    # Modules are called by their full name from any file, with no import (Elixir's `Plug.Conn.send_resp(c)`):
    # such a call is the named module's function, and one on a module the repository lacks is external.
    modules_by_name: bool = False
    runtime_names: frozenset[str] = frozenset()  # names the runtime defines everywhere (`len`, `super`)
    # A call on an object (`obj.m()`) is a method call only: a module's function is reached through a binding.
    object_calls_are_methods: bool = False
    # Its line comments: "//" (and `/* */` blocks: the C family, JavaScript, Go, Rust, Java, ...), "#", "--", or
    # "php" (both `//` and `#`, but not PHP 8's `#[` attributes).
    comment: str = "//"
    # Its files open with preprocessor directives (an include guard, `#pragma once`, includes) that are no code yet.
    preprocessed: bool = False


_PLAIN = Traits()
_HASH = Traits(comment="#")
_DASH = Traits(comment="--")
_PREPROCESSED = Traits(preprocessed=True)
_IMPLICIT = Traits(implicit_receiver=True)
LANGUAGES: dict[str, Traits] = {
    "python": Traits("python", imports="parsed", runtime_names=frozenset(dir(builtins)),
                     object_calls_are_methods=True, comment="#"),
    "javascript": Traits("ecmascript", "/", imports="parsed"),
    "typescript": Traits("ecmascript", "/", imports="parsed"),
    "tsx": Traits("ecmascript", "/", imports="parsed"),
    "go": Traits("go", "/", imports="parsed"),
    "rust": Traits("rust", "::", imports="parsed"),
    "java": Traits("jvm", imports="parsed", implicit_receiver=True),
    "kotlin": Traits("jvm", imports="implied", implicit_receiver=True),
    "scala": Traits("jvm", imports="implied", implicit_receiver=True),
    "csharp": Traits("dotnet", imports="implied", namespace_imports=True, implicit_receiver=True),
    "c": _PREPROCESSED, "objc": _PREPROCESSED, "cuda": _PREPROCESSED, "arduino": _PREPROCESSED,
    "cpp": Traits(implicit_receiver=True, preprocessed=True),
    "swift": _IMPLICIT, "dart": _IMPLICIT,
    "ruby": Traits(implicit_receiver=True, comment="#"),
    "php": Traits(implicit_receiver=True, comment="php"),
    "elixir": Traits(implicit_receiver=True, modules_by_name=True, comment="#"),
    **dict.fromkeys(("bash", "perl", "r", "yaml", "toml", "make", "cmake", "julia", "nim", "crystal", "tcl",
                     "powershell", "dockerfile", "starlark"), _HASH),
    **dict.fromkeys(("sql", "lua", "haskell", "elm", "ada", "vhdl"), _DASH),
}


def traits(lang: str | None) -> Traits:
    return LANGUAGES.get(lang or "", _PLAIN)


def module_style(lang: str | None) -> str:
    return traits(lang).module_style


# Python's standard library (`sys.stdlib_module_names` of 3.11, which 3.12 and 3.13 only shrink): a fixed
# table, so that a bundle does not depend on the Python that built it. `import json` is this module unless a
# repository file is `json` from a source root, as a regular module or package (a namespace folder loses to
# the standard library's module wherever it is on the path).
PYTHON_STDLIB = frozenset("""
__future__ _abc _aix_support _ast _asyncio _bisect _blake2 _bootsubprocess _bz2 _codecs _codecs_cn _codecs_hk
_codecs_iso2022 _codecs_jp _codecs_kr _codecs_tw _collections _collections_abc _compat_pickle _compression
_contextvars _crypt _csv _ctypes _curses _curses_panel _datetime _dbm _decimal _elementtree _frozen_importlib
_frozen_importlib_external _functools _gdbm _hashlib _heapq _imp _io _json _locale _lsprof _lzma _markupbase
_md5 _msi _multibytecodec _multiprocessing _opcode _operator _osx_support _overlapped _pickle _posixshmem
_posixsubprocess _py_abc _pydecimal _pyio _queue _random _scproxy _sha1 _sha256 _sha3 _sha512 _signal
_sitebuiltins _socket _sqlite3 _sre _ssl _stat _statistics _string _strptime _struct _symtable _thread
_threading_local _tkinter _tokenize _tracemalloc _typing _uuid _warnings _weakref _weakrefset _winapi _zoneinfo
abc aifc antigravity argparse array ast asynchat asyncio asyncore atexit audioop base64 bdb binascii bisect
builtins bz2 cProfile calendar cgi cgitb chunk cmath cmd code codecs codeop collections colorsys compileall
concurrent configparser contextlib contextvars copy copyreg crypt csv ctypes curses dataclasses datetime dbm
decimal difflib dis distutils doctest email encodings ensurepip enum errno faulthandler fcntl filecmp fileinput
fnmatch fractions ftplib functools gc genericpath getopt getpass gettext glob graphlib grp gzip hashlib heapq
hmac html http idlelib imaplib imghdr imp importlib inspect io ipaddress itertools json keyword lib2to3
linecache locale logging lzma mailbox mailcap marshal math mimetypes mmap modulefinder msilib msvcrt
multiprocessing netrc nis nntplib nt ntpath nturl2path numbers opcode operator optparse os ossaudiodev pathlib
pdb pickle pickletools pipes pkgutil platform plistlib poplib posix posixpath pprint profile pstats pty pwd
py_compile pyclbr pydoc pydoc_data pyexpat queue quopri random re readline reprlib resource rlcompleter runpy
sched secrets select selectors shelve shlex shutil signal site smtpd smtplib sndhdr socket socketserver spwd
sqlite3 sre_compile sre_constants sre_parse ssl stat statistics string stringprep struct subprocess sunau
symtable sys sysconfig syslog tabnanny tarfile telnetlib tempfile termios textwrap this threading time timeit
tkinter token tokenize tomllib trace traceback tracemalloc tty turtle turtledemo types typing unicodedata
unittest urllib uu uuid venv warnings wave weakref webbrowser winreg winsound wsgiref xdrlib xml xmlrpc zipapp
zipfile zipimport zlib zoneinfo
""".split())

# Node's core modules (`require('module').builtinModules`): `require('fs')` is always the runtime's, whatever
# the repository holds; with a subpath (`fs/promises`) too. Modules that exist only with the `node:` scheme
# (`node:test`, `node:sqlite`) are not here: any `scheme:` spec names no file (see `is_runtime_module`).
NODE_CORE = frozenset("""
assert async_hooks buffer child_process cluster console constants crypto dgram diagnostics_channel dns domain
events fs http http2 https inspector module net os path perf_hooks process punycode querystring readline repl
stream string_decoder sys timers tls trace_events tty url util v8 vm wasi worker_threads zlib
""".split())

# Crates every Rust program has without a dependency: `use std::fmt` names no module of the repository.
RUST_RUNTIME = frozenset(("std", "core", "alloc", "proc_macro"))

# Packages and namespaces of the JVM's and .NET's runtime libraries, by their first parts: `import java.util.*`
# names a folder of the repository only where that folder is the package's full path (the JDK's own source).
RUNTIME_PACKAGES: dict[str, tuple[str, ...]] = {
    "jvm": ("java", "javax", "jdk", "sun", "kotlin", "kotlinx", "scala"),
    "dotnet": ("System", "Microsoft"),
}
