"""Which definitions a change question's target names: a path, `path:name`, a name spelled in any language's way
(`resolve_target`), and whether several are one symbol to walk together (`one_symbol`)."""
from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence

from gitroute.rank import esm_cjs_twins
from gitroute.text import is_code_name, split_path_name

# How languages other than Python and JavaScript spell a qualified name: `Rack::Lint`, `spdlog::logger`,
# `Monolog\Handler\StreamHandler`. The name table spells owners with a dot (`Rack.Lint`).
_QUALIFIERS = re.compile(r"::|\\|#")  # and Java's and Ruby's `Element#select`, a method as their docs write it


def resolve_target(target: str, lookup) -> list[list]:
    """Name-table records X may mean: an exact path, `path:symbol`, `Owner.name`, a name, a base name. A qualified
    name nothing is spelled as is read with dots (`Rack::Lint` as `Rack.Lint`), then without its leading qualifiers
    one by one: a namespace, a package or a module is no owner in the name table (`spdlog::logger` is `logger`,
    `Monolog\\Handler\\StreamHandler` is `StreamHandler`, `Newtonsoft.Json.Linq.JToken.Parse` is `JToken.Parse`)."""
    owner, _, member = _QUALIFIERS.sub(".", target).rpartition(".")
    if owner and member in CONSTRUCTORS:
        # a constructor is called through its type (`AnsiToWin32(...)`, `new Widget()`): its users are the type's
        found = _resolve_named(owner, lookup)
        if found:
            return found
    return _resolve_named(target, lookup)


def _resolve_named(target: str, lookup) -> list[list]:
    """`resolve_target` but for a constructor: as spelled, else with dots, else less its leading qualifiers."""
    found = _resolve_spelled(target, lookup)
    if found or not (_QUALIFIERS.search(target) or "/" not in target and is_code_name(target)):
        return found
    parts = [part for part in _QUALIFIERS.sub(".", target).split(".") if part][-MAX_QUALIFIERS:]
    for start in range(len(parts)):
        found = _resolve_spelled(".".join(parts[start:]), lookup)
        if found:
            break
    return found


def _resolve_spelled(target: str, lookup) -> list[list]:
    if not target:
        return []
    path, symbol = split_path_name(target) or ("", "")
    if path and symbol and ("/" in path or "." in path):
        records = lookup([symbol, path]).get(symbol.lower(), [])
        records = [r for r in records if r[1] == path or r[1].endswith("/" + path)]
        return [r for r in records if r[2] == symbol] or records  # the name as spelled, when case tells two apart
    records = lookup([target]).get(target.lower(), [])
    exact_path = [r for r in records if r[3] == "file" and r[1] == target]
    if exact_path:
        return exact_path
    exact_name = [r for r in records if r[2] == target or f"{r[2]}" == target.rsplit(".", 1)[-1]]
    return exact_name or records


MAX_QUALIFIERS = 16  # a name's last parts read as qualifiers (`Newtonsoft.Json.Linq.JToken.Parse` has five)
# A type's constructor by the name its language gives it (Python, JavaScript, Ruby, PHP)
CONSTRUCTORS = frozenset(("__init__", "__new__", "constructor", "initialize", "__construct"))
TYPE_KINDS = frozenset(("class", "struct", "interface", "trait", "enum", "type", "protocol", "module", "object"))
_HEADERS = (".h", ".hh", ".hpp", ".hxx", ".inl", ".ipp")
_C_FAMILY = (*_HEADERS, ".c", ".cc", ".cpp", ".cxx", ".m", ".mm")
_IMPLEMENTATION = re.compile(r"[-_.](?:inl|impl|inline)$")


def one_symbol(records: Sequence[list]) -> bool:
    """Whether several definitions of one name are one symbol to walk together, not candidates to choose from:
    all in one file (a type and its constructors, a function defined twice under conditions), in files of
    one stem (`worker.h` and `worker-inl.h`, `main.js` and its `main.d.ts`), one source built as ES modules and
    as CommonJS (`lib/esm/utils.js` and `lib/cjs/utils.js`), Go files of one package (build-constraint
    alternatives), or a C or C++ declaration in headers beside one definition."""
    if len({r[2] for r in records}) != 1:
        return False
    paths = {r[1] for r in records}
    if len(paths) == 1:
        return True

    def stem(path: str) -> str:  # a TypeScript declaration file's too: `main.d.ts` declares `main.js`'s functions
        base = posixpath.splitext(path)[0]
        return _IMPLEMENTATION.sub("", base[:-2] if base.endswith(".d") else base)

    if len({stem(p) for p in paths}) == 1 or esm_cjs_twins(paths) == paths:  # one source built twice: ESM, CommonJS
        return True
    # Go allows one definition of a name in a package: two in one folder are build-constraint alternatives
    # (cespare/xxhash's `Sum64String` in xxhash_safe.go and xxhash_unsafe.go), one function to its callers
    if all(p.endswith(".go") and not p.endswith("_test.go") for p in paths) \
            and len({posixpath.dirname(p) for p in paths}) == 1:
        return True
    lowered = [p.lower() for p in paths]
    return all(p.endswith(_C_FAMILY) for p in lowered) and sum(not p.endswith(_HEADERS) for p in lowered) <= 1


def without_renaming_macros(records: Sequence[list]) -> list[list]:
    """A C function's definitions without the headers' macros of its name: zlib's `#define inflate_table
    z_inflate_table` (zconf.h and its template zconf.h.in) renames the function for a prefixed build; it defines
    nothing."""
    functions = [r for r in records if r[3] in ("function", "method")]
    macros = [r for r in records if r[3] == "constant" and r[1].lower().removesuffix(".in").endswith(_HEADERS)]
    return functions if functions and macros and len(functions) + len(macros) == len(records) else list(records)

