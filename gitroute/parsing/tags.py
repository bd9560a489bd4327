"""Turning one file's bytes into a FileExtract: tag queries for the core languages, a generic walk for the rest.

This is the only module that imports tree-sitter, and it does so lazily (inside the cached loaders) so that
importing gitroute.parsing costs nothing until a file is actually parsed. tree-sitter's Python API moves
fast; everything that touches it is in this file, pinned to tree-sitter 0.26 / language-pack 0.13.

Conventions (they hold for every language):
- `Symbol.line` is the line of the definition's name (so a Java method's annotations or a C return type on
  the line above do not move it), `end_line` the last line of the definition node, both 1-based.
- `signature` is that name line from the definition's start (for a JS/TS function value, from the line's
  start: `res.send = function send(body) {`), stripped, at most 200 characters.
- `kind` "method" means: a function whose innermost enclosing symbol is a type, or one bound to a type by
  a receiver (Go `func (t *T) M()`, C++ `void T::m()`, Rust `impl T { fn m() }`, Swift `extension T`).
  A receiver-bound method's `parent` is the type's symbol when the file defines it (which may come later in
  the file), otherwise its lexical parent.
- JavaScript/TypeScript functions assigned to a member are named by the property (`res.type = function
  contentType() {}` is `type`, the name callers use). One assigned onto an object the file defines as a
  symbol visible there (`Layer.prototype.match = function`, `proto.handle = function` after `var proto =
  module.exports = function () {}`) is a "method" parented to that symbol; onto anything else (`res`, `app`,
  `exports`) it stays a function at its lexical place, and the object is only in its signature.
- A JSDoc block (`/** ... */`) documents the definition below it even across one blank line (the Express
  style); every other comment must be adjacent.
"""
from __future__ import annotations

import re
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from gitroute.model import TYPE_KINDS, Binding, FileExtract, NameRef, Symbol
from gitroute.parsing.languages import DATA_LANGUAGES, QUERY_FILES

if TYPE_CHECKING:
    from tree_sitter import Language, Node, Parser, Query

MAX_SYMBOLS = 20_000
MAX_REFS = 20_000  # per category: calls, imports, references
MAX_GENERIC_NODES = 2_000_000  # nodes the generic walk visits before giving up on the rest of a file
MAX_SIGNATURE = 200
MAX_DOC = 300
# A name longer than this is not an identifier anyone will search for (minified code, a parse gone wrong).
MAX_NAME = 200
_DOC_SCAN_BYTES = 4_000  # how far back (and how much) a doc comment or entry-point marker is looked for

_TYPE_KINDS = frozenset(TYPE_KINDS)
_FUNCTION_KINDS = frozenset(("function", "method"))

# Nodes that wrap a definition without being one; a leading comment sits before the wrapper.
_WRAPPERS = frozenset(
    (
        "decorated_definition", "export_statement", "template_declaration", "ambient_declaration",
        "type_declaration", "field_declaration", "lexical_declaration",
        "variable_declaration", "variable_declarator", "public_field_definition", "field_definition",
        "property_declaration", "annotated_definition", "body_statement",
    )
)
# JS/TS nodes that hold a function value on the line the value starts (see `_statement_of`).
_ECMASCRIPT_LANGS = frozenset(("javascript", "typescript", "tsx"))
_ECMASCRIPT_HOLDERS = frozenset(
    (
        "arguments", "call_expression", "new_expression", "assignment_expression", "variable_declarator",
        "lexical_declaration", "variable_declaration", "pair", "parenthesized_expression", "expression_statement",
        "export_statement", "field_definition", "public_field_definition", "await_expression",
    )
)
_FUNCTION_VALUES = frozenset(("function_expression", "arrow_function", "generator_function"))
# Holders that name the value they hold, whichever line it starts on (`res.send =\n  function () {}`).
_ECMASCRIPT_NAMERS = frozenset(
    ("assignment_expression", "variable_declarator", "pair", "field_definition", "public_field_definition")
)
# Siblings allowed between a doc comment and its definition (attributes, decorators, annotations).
_SKIPPABLE_BEFORE = frozenset(("attribute_item", "decorator", "annotation", "marker_annotation", "attribute"))

_LINE_MARKER = re.compile(r"^\s*(?:///?|//!|#+:?|--+|;+|%+|\*+)[ \t]?", re.MULTILINE)
_XML_TAG = re.compile(r"</?[A-Za-z][^<>]{0,80}>")
_WHITESPACE = re.compile(r"\s+")
_PY_STRING = re.compile(r"^[rRuUbBfF]{0,2}(\"\"\"|'''|\"|')(.*?)(?:\1)?$", re.DOTALL)
_SCALA_IMPORT = re.compile(r"import\s+([\w.`$\s]+?)(?:\s*\.\s*(?:\{|_\b|\*|given\b)|\s*,|\s*$|\s+as\b)")
_SCALA_APP = re.compile(rb"\b(?:extends|with)\s+App\b")
_PY_MAIN_GUARD = re.compile(
    r"""^if\s*\(?\s*(?:__name__\s*==\s*(['"])__main__\1|(['"])__main__\2\s*==\s*__name__)\s*\)?\s*:"""
)


class _Scope:
    """A definition (or a Rust impl / Swift extension block) while a file is being extracted.

    A plain slotted class: `dataclasses` costs an import the build workers need not pay.
    """

    __slots__ = ("start", "end", "kind", "name", "node", "name_node", "receiver", "owner", "lexical", "symbol")

    def __init__(
        self,
        start: int,
        end: int,
        kind: str,
        name: str,
        node: Node,
        name_node: Node,
        receiver: str = "",
        owner: str = "",
    ) -> None:
        self.start = start
        self.end = end
        self.kind = kind  # a symbol kind, or "impl" for a block that binds methods to a named type
        self.name = name
        self.node = node
        self.name_node = name_node
        self.receiver = receiver  # the type a method is bound to, from the definition itself
        self.owner = owner  # JS: the object a function is assigned onto (`X` in `X.prototype.m = function`)
        self.lexical = -1  # index into the scope list of the innermost enclosing scope
        self.symbol = -1  # index into the symbol tuple; -1 for impl blocks and definitions over the cap


# --------------------------------------------------------------------------------------------- loading


@cache
def _language(lang: str) -> Language | None:
    try:
        from tree_sitter_language_pack import get_language

        return get_language(lang)  # type: ignore[arg-type]
    except Exception:  # an unknown name raises LookupError; a broken binding anything else
        return None


@cache
def _parser(lang: str) -> Parser | None:
    language = _language(lang)
    if language is None:
        return None
    from tree_sitter import Parser

    return Parser(language)


def query_source(lang: str) -> str:
    """The concatenated .scm text of a language's tag queries ("" when it has none)."""
    parts = []
    for name in QUERY_FILES.get(lang, ()):
        parts.append(resources.files("gitroute.parsing").joinpath(f"queries/{name}.scm").read_text("utf-8"))
    return "\n".join(parts)


@cache
def _query(lang: str) -> Query | None:
    """The compiled tag query, once per process; raises if a shipped .scm does not compile (a bug, tested)."""
    source = query_source(lang)
    language = _language(lang)
    if not source or language is None:
        return None
    from tree_sitter import Query

    return Query(language, source)


@cache
def _error_query(lang: str) -> Query | None:
    language = _language(lang)
    if language is None:
        return None
    from tree_sitter import Query

    try:
        return Query(language, "(ERROR) @error")
    except Exception:
        return None


def is_supported(lang: str) -> bool:
    """Whether the pack has a grammar for `lang`."""
    return _language(lang) is not None


# ------------------------------------------------------------------------------------------- the entry


def extract(data: bytes, lang: str) -> FileExtract:
    """Definitions, calls, imports and type references of one file; never raises, degrades into warnings."""
    try:
        return _extract(data, lang)
    except Exception as exc:  # a last line of defence: one bad file must never stop a build
        return FileExtract(lang=lang, warnings=(f"extraction failed: {type(exc).__name__}: {exc}"[:300],))


def _extract(data: bytes, lang: str) -> FileExtract:
    if lang in DATA_LANGUAGES:
        return FileExtract(lang=lang)
    parser = _parser(lang)
    if parser is None:
        return FileExtract(lang=lang, warnings=(f"unsupported language '{lang}'",))
    if not data:
        return FileExtract(lang=lang)
    warnings: list[str] = []
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        warnings.append("not valid UTF-8: names decoded with replacement characters")
    tree = parser.parse(data)
    if tree is None:
        return FileExtract(lang=lang, warnings=(*warnings, "parse failed"))
    root = tree.root_node
    if root.has_error:
        regions = _count_error_regions(lang, root)
        if regions:
            warnings.append(f"parse errors in {regions} region{'s' if regions != 1 else ''}")
    query = _query(lang)
    if query is not None:
        scopes, refs = _run_query(lang, query, root)
    else:
        scopes, refs = _walk_generic(lang, root, warnings)
    symbols = _build_symbols(lang, scopes, data, warnings)
    refs_by = _build_refs(scopes, refs, warnings)
    entry = lang == "python" and _has_python_main_guard(root, data)
    return FileExtract(
        lang=lang,
        symbols=symbols,
        calls=refs_by["call"],
        imports=refs_by["import"],
        references=refs_by["type"],
        entry=entry,
        warnings=tuple(warnings),
        bindings=refs_by["bind"],
        bases=refs_by["base"],
    )


def _count_error_regions(lang: str, root: Node) -> int:
    """How many separate stretches of the file did not parse (outermost ERROR nodes; at least 1)."""
    query = _error_query(lang)
    if query is None:
        return 1
    from tree_sitter import QueryCursor

    nodes = QueryCursor(query).captures(root).get("error", [])
    spans = sorted((n.start_byte, n.end_byte) for n in nodes)
    count, reach = 0, -1
    for start, end in spans:
        if start >= reach:
            count += 1
        reach = max(reach, end)
    return count if count else 1  # has_error with no ERROR node means MISSING nodes: still one region


# ---------------------------------------------------------------------------------------- tag queries

# (start byte, category, name, line, extra) with category one of "call", "import", "type", "base", "bind";
# extra is a call's receiver, a binding's (module, imported name), else "".
_Ref = tuple[int, str, str, int, object]


def _run_query(lang: str, query: Query, root: Node) -> tuple[list[_Scope], list[_Ref]]:
    from tree_sitter import QueryCursor

    roles = _pattern_roles(lang)
    scopes: dict[tuple[int, int], tuple[int, _Scope]] = {}
    refs: list[_Ref] = []
    for pattern, captures in QueryCursor(query).matches(root):
        role = roles.get(pattern)
        if role is None:
            role = roles[pattern] = _role_of(captures)
        names = captures.get("name")
        if not names:
            exported = captures.get("exported")
            own = _exported_name(exported[0]) if exported else None
            if own is None:
                continue  # every other pattern names what it captures; a nameless match has nothing to say
            names = [own]
        kind, key = role
        if kind == "call":
            for n in names:
                refs.append((n.start_byte, kind, _text(n), n.start_point[0] + 1, _call_receiver(n)))
        elif kind == "type":
            for n in names:
                looked_up_on = _call_receiver(n)  # `models.Model`: the module the type is looked up in
                refs.append((n.start_byte, kind, _text(n), n.start_point[0] + 1, looked_up_on))
                if _is_base(n):
                    refs.append((n.start_byte, "base", _text(n), n.start_point[0] + 1, looked_up_on))
        elif kind == "bind":
            binding = _binding_of(lang, captures)
            if binding is not None:
                refs.append((names[0].start_byte, "bind", binding[0], names[0].start_point[0] + 1, binding[1]))
        elif kind == "import":
            name_node = names[0]
            refs.append((name_node.start_byte, "import", _import_text(name_node), name_node.start_point[0] + 1, ""))
        elif kind:
            node = captures[key][0]
            span = (node.start_byte, node.end_byte)
            # When several patterns claim one node the earliest in the .scm wins: queries list
            # specific patterns (a Go struct) before general ones (any Go type).
            claimed = scopes.get(span)
            name = _text(names[0])
            if name and (claimed is None or claimed[0] > pattern):
                receiver = captures.get("receiver")
                owner = captures.get("owner")
                # A definition starts at its name when that comes first (`res.send = function`, where the
                # node is the function value), so that symbols in start order are in line order.
                scope = _Scope(
                    min(span[0], names[0].start_byte), span[1], kind, name, node, names[0],
                    receiver=_text(receiver[0]) if receiver else "",
                    owner=_text(owner[0]) if owner else "",
                )
                scopes[span] = (pattern, scope)
    return [scope for _pattern, scope in scopes.values()], refs


def _exported_name(function: Node) -> Node | None:
    """The name of a function assigned to `module.exports`: its own, else the variable the assignment chain
    ends in (`var proto = module.exports = function () {}`), else None."""
    own = function.child_by_field_name("name")
    if own is not None:
        return own
    holder = function.parent
    for _ in range(8):  # bounded: `a = b = c = ... = function () {}`
        if holder is None:
            return None
        if holder.type == "variable_declarator":
            name = holder.child_by_field_name("name")
            return name if name is not None and name.type == "identifier" else None
        if holder.type != "assignment_expression" or not _plain_target(holder.child_by_field_name("left")):
            return None  # plain targets only: nothing between the variable and the function defines anything
        holder = holder.parent
    return None


def _plain_target(node: Node | None) -> bool:
    """`x`, `module.exports`, `app.handler`: an identifier, or a property of one."""
    if node is None or node.type == "identifier":
        return node is not None
    if node.type != "member_expression":
        return False
    target = node.child_by_field_name("object")
    return target is not None and target.type == "identifier"


@cache
def _pattern_roles(lang: str) -> dict[int, tuple[str, str]]:
    """Pattern index -> role for a language's (cached, so fixed) query, learnt from each pattern's first match."""
    return {}


def _role_of(captures: dict[str, list[Node]]) -> tuple[str, str]:
    """(kind, capture key): a symbol kind or "impl" for definitions, "call"/"import"/"type" for references."""
    for key in captures:
        if key.startswith("definition."):
            return key[11:], key
        if key.startswith("reference."):
            return key[10:], key
        if key == "impl":
            return "impl", key
    return "", ""


def _text(node: Node) -> str:
    raw = node.text or b""
    return raw[: MAX_NAME * 4].decode("utf-8", "replace")[:MAX_NAME]


def _import_text(node: Node) -> str:
    if node.type == "import_declaration":
        # Scala splits `import a.b.{C, D}` into segment nodes: take the statement, keep the path.
        match = _SCALA_IMPORT.match(_text(node))
        return _WHITESPACE.sub("", match.group(1)) if match else ""
    return _clean_import(node.text or b"")


def _clean_import(raw: bytes) -> str:
    """An import target as written, without quotes or angle brackets (`"fmt"` -> fmt, `<stdio.h>` -> stdio.h)."""
    text = raw[: MAX_NAME * 4].decode("utf-8", "replace").strip()
    if len(text) >= 2 and text[0] in "\"'`<" and text[-1] in "\"'`>":
        text = text[1:-1]
    return _WHITESPACE.sub("", text)[:MAX_NAME]


# ----------------------------------------------------------------------------------- the generic walk

# Modules are left out on purpose: as a type-like symbol a module would turn every function in it
# into a "method" (Julia, Elixir, D and Verilog modules are namespaces, not types).
_GENERIC_KIND = re.compile(
    r"^(?:[a-z]+_)?(function|method|class|struct|interface|enum|trait|object|protocol|record|union)"
    r"_(definition|declaration|item|specifier|statement|def)$"
)
# Node types that match the pattern above but declare no named definition (storage classes, variables,
# parameters, enum members, end-of-block markers, forward declarations).
_GENERIC_EXCLUDE = re.compile(
    r"storage|explicit|^end_|enumerator|field|parameter|renaming|access|forward|instantiation|"
    r"^local_|^value|constant|signal|variable|port|property|phaser|formal|extended|anonymous|preproc|"
    r"_interface_declaration|class_name|or_generate|qualified"
)
_GENERIC_KIND_MAP = {
    "function": "function", "method": "method", "class": "class", "struct": "struct", "union": "struct",
    "interface": "interface", "protocol": "interface", "enum": "enum", "trait": "trait", "object": "object",
    "record": "struct",
}
# Definition node types the pattern above misses (Objective-C, Dart).
_GENERIC_EXTRA_KINDS = {
    "class_interface": "class", "class_implementation": "class", "protocol_declaration": "interface",
    "function_signature": "function",
}
_GENERIC_CALLS = frozenset(
    ("call", "call_expression", "function_call", "method_invocation", "invocation_expression", "method_call",
     "function_call_expression", "call_statement", "command", "message_expression")
)
_CALLEE_FIELDS = ("function", "name", "method", "callee", "selector")
# Children a name is never found under when the generic walk looks for one.
_NOT_NAME_HOLDERS = ("body", "block", "comment", "parameters", "statement")
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")


@cache
def _generic_kinds(lang: str) -> dict[int, str]:
    """Node kind id -> symbol kind for a grammar, worked out once from its node type names."""
    language = _language(lang)
    kinds: dict[int, str] = {}
    if language is None:
        return kinds
    for kind_id in range(language.node_kind_count):
        name = language.node_kind_for_id(kind_id)
        if not name or not language.node_kind_is_named(kind_id):
            continue
        match = _GENERIC_KIND.match(name)
        if match and not _GENERIC_EXCLUDE.search(name):
            kinds[kind_id] = _GENERIC_KIND_MAP[match.group(1)]
        elif name in _GENERIC_EXTRA_KINDS:
            kinds[kind_id] = _GENERIC_EXTRA_KINDS[name]
    return kinds


def _generic_name(node: Node) -> Node | None:
    """The name of a definition node: its `name` field, a C-style declarator chain, or an identifier child."""
    named = node.child_by_field_name("name")
    if named is not None:
        return named
    declarator = node.child_by_field_name("declarator")
    for _ in range(16):  # bounded: declarators nest (pointer -> function -> identifier)
        if declarator is None:
            break
        if "identifier" in declarator.type:
            return declarator
        declarator = declarator.child_by_field_name("declarator") or declarator.child_by_field_name("name")
    # Otherwise the first identifier among the leading children, looking a few levels into the
    # first child that could hold one (Julia: function_definition > signature > call > identifier).
    holder: Node | None = node
    for _ in range(3):
        if holder is None:
            break
        children = holder.named_children[:4]
        for child in children:
            if _is_identifier(child.type):
                return child
        holder = next((c for c in children if not any(t in c.type for t in _NOT_NAME_HOLDERS)), None)
    return None


def _is_identifier(node_type: str) -> bool:
    return "identifier" in node_type or node_type in ("name", "word", "constant", "command_name")


def _walk_generic(lang: str, root: Node, warnings: list[str]) -> tuple[list[_Scope], list[_Ref]]:
    """Definitions and calls by node-type name, for grammars without a hand-written query."""
    kinds = _generic_kinds(lang)
    scopes: list[_Scope] = []
    refs: list[_Ref] = []
    cursor = root.walk()
    visited = 0
    # An explicit descend/next/ascend loop: no Python recursion, whatever the nesting depth.
    while True:
        node = cursor.node
        visited += 1
        if visited > MAX_GENERIC_NODES:
            warnings.append(f"generic walk stopped after {MAX_GENERIC_NODES} nodes")
            break
        if node is not None and node.is_named:
            kind = kinds.get(node.kind_id)
            if kind is not None:
                name_node = _generic_name(node)
                name = _WHITESPACE.sub(" ", _text(name_node)).strip() if name_node is not None else ""
                if name and name_node is not None:
                    scopes.append(_Scope(node.start_byte, node.end_byte, kind, name, node, name_node))
            elif node.type in _GENERIC_CALLS:
                callee = next(
                    (c for c in map(node.child_by_field_name, _CALLEE_FIELDS) if c is not None),
                    node.named_children[0] if node.named_child_count else None,
                )
                if callee is not None and callee.end_byte - callee.start_byte <= MAX_NAME:
                    found = _IDENTIFIER.findall(_text(callee))
                    if found:
                        refs.append((callee.start_byte, "call", found[-1], callee.start_point[0] + 1, ""))
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return scopes, refs
    return scopes, refs


# -------------------------------------------------------------------------------------------- symbols


def _build_symbols(lang: str, scopes: list[_Scope], data: bytes, warnings: list[str]) -> tuple[Symbol, ...]:
    """Order, nest, classify, document and mark entry points; fills in each scope's lexical/symbol index."""
    scopes.sort(key=lambda s: (s.start, -s.end))
    stack: list[int] = []
    for index, scope in enumerate(scopes):
        while stack and scopes[stack[-1]].end <= scope.start:
            stack.pop()
        scope.lexical = stack[-1] if stack else -1
        stack.append(index)

    kept = 0
    for scope in scopes:
        if scope.kind != "impl":
            if kept >= MAX_SYMBOLS:
                warnings.append(f"symbols capped at {MAX_SYMBOLS}")
                break
            scope.symbol = kept
            kept += 1

    types_by_name: dict[str, int] = {}
    has_owners = False
    for scope in scopes:
        if scope.symbol >= 0 and scope.kind in _TYPE_KINDS:
            types_by_name.setdefault(scope.name, scope.symbol)
        has_owners = has_owners or bool(scope.owner)
    owners = _owner_candidates(scopes) if has_owners else {}

    symbols: list[Symbol] = []
    for scope in scopes:
        if scope.symbol < 0:
            continue
        lexical_symbol, receiver = _enclosing(scopes, scope)
        kind = scope.kind
        parent = lexical_symbol
        receiver = scope.receiver or receiver
        owned = _resolve_owner(scopes, scope, owners) if scope.owner else -1
        if owned >= 0:
            kind, parent = "method", owned
        elif kind in _FUNCTION_KINDS:
            parent_kind = symbols[lexical_symbol].kind if lexical_symbol >= 0 else ""
            if receiver:
                kind = "method"
                parent = types_by_name.get(receiver, lexical_symbol)
            else:
                kind = "method" if parent_kind in _TYPE_KINDS else "function"
        name_row = scope.name_node.start_point[0]
        end_point = scope.node.end_point
        end_row = end_point[0] - 1 if end_point[1] == 0 and end_point[0] > name_row else end_point[0]
        symbols.append(
            Symbol(
                name=scope.name,
                kind=kind,
                line=name_row + 1,
                end_line=max(end_row, name_row) + 1,
                signature=_signature(data, scope),
                doc=_doc(lang, scope.node, data),
                parent=parent,
                entry=False,
                owner=scope.owner if owned < 0 and scope.owner not in _NOT_OWNERS else "",
            )
        )
    return tuple(_mark_entries(lang, scopes, symbols, data))


# Objects a function is assigned onto that name no owner: the module itself, or the global object.
_NOT_OWNERS = frozenset({"module", "exports", "this", "self", "window", "global", "globalThis"})

# How many enclosing scopes an owner name is looked up through before only the file level is tried.
_OWNER_SCOPE_DEPTH = 32


def _owner_candidates(scopes: list[_Scope]) -> dict[tuple[str, int], int]:
    """(name, lexical parent symbol) -> the first symbol by that name declared there: the bindings a JS
    member assignment's object can resolve to.

    Excluded: class members (not bindings), and member-assigned functions themselves, so that an owner is
    always parented lexically and parents can never form a cycle (`a.b = function` with `b.a = function`).
    """
    candidates: dict[tuple[str, int], int] = {}
    for scope in scopes:
        if scope.symbol < 0 or scope.owner:
            continue
        lexical = scopes[scope.lexical] if scope.lexical >= 0 else None
        if lexical is not None and lexical.kind in _TYPE_KINDS:
            continue
        candidates.setdefault((scope.name, _enclosing(scopes, scope)[0]), scope.symbol)
    return candidates


def _resolve_owner(scopes: list[_Scope], scope: _Scope, owners: dict[tuple[str, int], int]) -> int:
    """The symbol `scope.owner` names where the assignment is, innermost declaration first (JS scoping); -1."""
    index = scope.lexical
    for _ in range(_OWNER_SCOPE_DEPTH):
        if index < 0:
            break
        outer = scopes[index]
        if outer.symbol >= 0:
            found = owners.get((scope.owner, outer.symbol))
            if found is not None:
                return found
        index = outer.lexical
    return owners.get((scope.owner, -1), -1)


def _enclosing(scopes: list[_Scope], scope: _Scope) -> tuple[int, str]:
    """The innermost enclosing symbol index, and the receiver of an impl block nearer than it."""
    receiver = ""
    index = scope.lexical
    while index >= 0:
        outer = scopes[index]
        if outer.kind == "impl":
            receiver = receiver or outer.name
        elif outer.symbol >= 0:
            return outer.symbol, receiver
        index = outer.lexical
    return -1, receiver


def _signature(data: bytes, scope: _Scope) -> str:
    name_start = scope.name_node.start_byte
    # Searches are bounded so that a minified one-line file with thousands of definitions stays linear.
    # A JS/TS function value's line is read from its start, whatever precedes the name or the function on
    # it: `res.send = function send(body) {`, `module.exports = function query(opts) {`.
    lower = 0 if scope.node.type in _FUNCTION_VALUES else scope.start
    floor = max(lower, name_start - MAX_SIGNATURE * 2)
    newline = data.rfind(b"\n", floor, name_start)
    start = newline + 1 if newline >= 0 else floor
    end = data.find(b"\n", start, start + MAX_SIGNATURE * 4)
    if end < 0:
        end = min(len(data), start + MAX_SIGNATURE * 4)
    return data[start:end].decode("utf-8", "replace").strip()[:MAX_SIGNATURE]


def _doc(lang: str, node: Node, data: bytes) -> str:
    if lang == "python":
        docstring = _python_docstring(node)
        if docstring:
            return docstring
    ecmascript = lang in _ECMASCRIPT_LANGS
    anchor = _statement_of(node) if ecmascript else node
    for _ in range(4):  # bounded climb out of wrappers (decorators, export, template<...>, Go type ( ... ))
        comments, blocked = _leading_comments(anchor, jsdoc_gap=ecmascript)
        if comments:
            cleaned = " ".join(_clean_comment(text, lang) for text in reversed(comments))
            return _WHITESPACE.sub(" ", cleaned).strip()[:MAX_DOC]
        parent = anchor.parent
        # Climb only when nothing but keywords/decorators precede the node inside its wrapper.
        if blocked or parent is None or parent.type not in _WRAPPERS:
            break
        anchor = parent
    return ""


def _statement_of(node: Node) -> Node:
    """Where a JS/TS function value's doc sits: above the statement it starts on.

    `res.send = function send() {}` and `defineGetter(req, 'hostname', function hostname() {})` are
    documented above the statement. The climb passes holders that start on the same line, and those that
    name the value wherever it starts; an object literal is not a holder (its `key: function` pairs keep
    their own comments).
    """
    anchor = node
    for _ in range(16):  # bounded: a few holders (argument, call, assignment, declarator, export)
        parent = anchor.parent
        if parent is None or parent.type not in _ECMASCRIPT_HOLDERS:
            break
        if parent.start_point[0] != anchor.start_point[0] and parent.type not in _ECMASCRIPT_NAMERS:
            break
        anchor = parent
    return anchor


def _leading_comments(anchor: Node, jsdoc_gap: bool = False) -> tuple[list[str], bool]:
    """The comments directly above `anchor` (nearest first), skipping attributes and decorators,
    and whether a named node other than those stopped the scan. With `jsdoc_gap`, a `/**` block
    nearest the anchor may be separated from it by one blank line (not a file's opening header)."""
    comments: list[str] = []
    expected_row = anchor.start_point[0]
    sibling = anchor.prev_sibling
    total = 0
    for _ in range(64):  # bounded: a doc is a few comments, perhaps after a few attributes
        if sibling is None or total >= _DOC_SCAN_BYTES:
            break
        if sibling.type in _SKIPPABLE_BEFORE:
            expected_row = sibling.start_point[0]
            sibling = sibling.prev_sibling
            continue
        comment = sibling if "comment" in sibling.type else _last_comment_inside(sibling)
        if comment is None:
            return comments, sibling.is_named
        end_row = comment.end_point[0] - (1 if comment.end_point[1] == 0 else 0)
        if end_row < expected_row - 1 and not (
            jsdoc_gap and not comments and end_row == expected_row - 2 and _is_jsdoc(comment)
        ):
            break
        if _trails_code(comment):
            break
        text = (comment.text or b"")[:_DOC_SCAN_BYTES].decode("utf-8", "replace")
        if text.startswith("#!"):  # a shebang line documents nothing
            break
        comments.append(text)
        total += len(text)
        expected_row = comment.start_point[0]
        if comment is not sibling:
            break  # what precedes a comment swallowed by the previous node belongs to that node
        sibling = sibling.prev_sibling
    return comments, False


def _is_jsdoc(comment: Node) -> bool:
    """A `/** ... */` block that is not a file header (a comment opening the file, nothing before it)."""
    head = (comment.text or b"")[:4]
    if not head.startswith(b"/**") or head.startswith(b"/**/"):
        return False
    return comment.start_point[0] > 0 or comment.prev_sibling is not None


def _last_comment_inside(node: Node) -> Node | None:
    """Some grammars (Kotlin) attach a comment that precedes a declaration to the end of the node before it."""
    for _ in range(3):
        last = node.child(node.child_count - 1) if node.child_count else None
        if last is None:
            return None
        if "comment" in last.type:
            return last
        node = last
    return None


def _trails_code(comment: Node) -> bool:
    """`x = 1  # note` is about x, not about the definition on the next line."""
    before = comment.prev_sibling
    return before is not None and before.end_point[0] == comment.start_point[0] and "comment" not in before.type


def _clean_comment(text: str, lang: str) -> str:
    """One comment's text without its markers (`//`, `#`, `/** */`, ` * `, `--`), whitespace collapsed."""
    text = text.strip()
    if text.startswith("/*"):
        text = text[3:] if text.startswith(("/**", "/*!")) else text[2:]
        if text.endswith("*/"):
            text = text[:-2]
    elif text.startswith(("=begin", "<#")):  # Ruby/PowerShell block comments
        text = text.split("\n", 1)[-1].rsplit("\n", 1)[0]
    text = _LINE_MARKER.sub("", text)
    text = text.replace("*/", " ").replace("/*", " ")
    if lang == "csharp":  # XML doc comments: keep the words, drop <summary> and friends
        text = _XML_TAG.sub(" ", text)
    return _WHITESPACE.sub(" ", text).strip()[:MAX_DOC]


def _python_docstring(node: Node) -> str:
    """The string that is a def's or class's first statement, without quotes or prefixes."""
    body = node.child_by_field_name("body")
    if body is None:
        return ""
    first = body.named_child(0)
    index = 0
    while first is not None and first.type == "comment" and index < 64:  # comments are not statements
        index += 1
        first = body.named_child(index)
    if first is not None and first.type == "expression_statement" and first.named_child_count:
        first = first.named_child(0)
    if first is None or first.type not in ("string", "concatenated_string"):
        return ""
    raw = (first.text or b"")[: MAX_DOC * 8].decode("utf-8", "replace")
    match = _PY_STRING.match(raw.strip())
    content = match.group(2) if match else raw
    return _WHITESPACE.sub(" ", content).strip()[:MAX_DOC]


# --------------------------------------------------------------------------------------- entry points

# Languages where a top-level function called `main` is where the program starts.
_MAIN_FUNCTION_LANGS = frozenset(
    ("python", "go", "rust", "c", "cpp", "kotlin", "zig", "dart", "odin", "v", "hare", "nim", "d", "cuda",
     "arduino", "objc", "julia")
)


def _mark_entries(lang: str, scopes: list[_Scope], symbols: list[Symbol], data: bytes) -> list[Symbol]:
    """Set `entry` on the symbols where a program starts, by each language's convention."""
    entries: set[int] = set()
    for scope in scopes:
        index = scope.symbol
        if index < 0:
            continue
        symbol = symbols[index]
        if lang in _MAIN_FUNCTION_LANGS:
            if symbol.name == "main" and symbol.kind == "function" and symbol.parent == -1:
                entries.add(index)
        elif lang in ("java", "csharp"):
            # `public static void main(String[] args)` / `static void Main(string[] args)`
            main = "main" if lang == "java" else "Main"
            if symbol.kind == "method" and symbol.name == main and re.search(rb"\bstatic\b", _head(data, scope)):
                entries.add(index)
        elif lang == "scala":
            if symbol.kind == "method" and symbol.name == "main":
                if symbol.parent >= 0 and symbols[symbol.parent].kind == "object":
                    entries.add(index)
            elif symbol.kind == "object":
                body = scope.node.child_by_field_name("body")
                header = data[scope.start : body.start_byte if body is not None else scope.end][:_DOC_SCAN_BYTES]
                if _SCALA_APP.search(header):
                    entries.add(index)
        elif lang == "swift":
            if symbol.kind in _TYPE_KINDS and re.search(rb"@main\b", _head(data, scope)):
                entries.add(index)
    if not entries:
        return symbols
    return [
        Symbol(s.name, s.kind, s.line, s.end_line, s.signature, s.doc, s.parent, True) if i in entries else s
        for i, s in enumerate(symbols)
    ]


def _head(data: bytes, scope: _Scope) -> bytes:
    """The modifiers and attributes before a definition's name (`public static`, `@main`)."""
    return data[max(scope.start, scope.name_node.start_byte - _DOC_SCAN_BYTES) : scope.name_node.start_byte]


def _has_python_main_guard(root: Node, data: bytes) -> bool:
    """A module-level `if __name__ == "__main__":` (either quote style, either operand order)."""
    if b"__main__" not in data:
        return False
    for child in root.named_children:
        if child.type == "if_statement":
            condition = child.child_by_field_name("condition")
            if condition is not None and b"__main__" in (condition.text or b""):
                head = data[child.start_byte : (condition.end_byte + 4)].decode("utf-8", "replace")
                if _PY_MAIN_GUARD.match(head):
                    return True
    return False


# --------------------------------------------------------------------------------------------- refs


def _build_refs(scopes: list[_Scope], refs: list[_Ref], warnings: list[str]) -> dict[str, tuple]:
    """Attach each reference to its innermost enclosing symbol; dedupe; cap; source order; by category.

    One sweep over scopes (sorted by start, outer first) and references (sorted by position) with a
    stack of open scopes: linear, so 10,000 nested functions each calling something stay cheap.
    """
    refs.sort(key=lambda r: (r[0], r[1], r[2]))
    out: dict[str, list] = {"call": [], "import": [], "type": [], "base": [], "bind": []}
    seen: set[tuple[str, int, str, int, object]] = set()
    capped: set[str] = set()
    # Stack entries: (end byte, innermost symbol index at or above this scope).
    stack: list[tuple[int, int]] = []
    next_scope = 0
    for position, category, name, line, extra in refs:
        while next_scope < len(scopes) and scopes[next_scope].start <= position:
            scope = scopes[next_scope]
            while stack and stack[-1][0] <= scope.start:
                stack.pop()
            outer = stack[-1][1] if stack else -1
            stack.append((scope.end, scope.symbol if scope.symbol >= 0 else outer))
            next_scope += 1
        while stack and stack[-1][0] <= position:
            stack.pop()
        bucket = out.get(category)
        if bucket is None or not name:
            continue
        source = stack[-1][1] if stack else -1
        key = (category, source, name, line, extra)
        if key in seen:
            continue
        seen.add(key)
        if len(bucket) >= MAX_REFS:
            capped.add(category)
            continue
        if category == "bind":
            bucket.append(Binding(name, extra[0], extra[1], line))  # type: ignore[index]
        else:
            bucket.append(NameRef(source, name, line, extra) if extra else NameRef(source, name, line))
    for category in sorted(capped):
        warnings.append(f"{category} references capped at {MAX_REFS}")
    return {category: tuple(bucket) for category, bucket in out.items()}


# --------------------------------------------------------------------------- what resolution needs

# A receiver worth recording is a plain dotted name (`self`, `os.path`, `this.router`, `fmt`, `a::b`);
# anything computed (`f().g()`, `a[0].b()`) resolves by name alone.
_RECEIVER = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|::|->|\?\.)[A-Za-z_$][\w$]*){0,7}")
_RECEIVER_SEPARATORS = re.compile(r"::|->|\?\.")
_MAX_RECEIVER = 120
# Nodes that hold a called name after the object it is looked up on, across the core grammars.
_RECEIVER_HOLDERS = frozenset(
    ("attribute", "member_expression", "selector_expression", "field_expression", "scoped_identifier",
     "method_invocation", "navigation_expression", "member_access_expression", "qualified_identifier",
     "scoped_type_identifier", "qualified_type", "qualified_name", "member_call_expression",
     "scoped_call_expression", "navigation_suffix", "generic_type", "nested_type_identifier")
)
_PLAIN_RECEIVERS = frozenset(("identifier", "self", "this", "this_expression", "package_identifier", "crate",
                              "super", "type_identifier", "simple_identifier", "name", "constant"))
# Nodes whose children are a class's base types (a type reference under one of them is also a base).
_BASE_HOLDERS = frozenset(
    ("superclass", "super_interfaces", "extends_clause", "implements_clause", "extends_type_clause",
     "class_heritage", "base_list", "base_class_clause", "delegation_specifier", "delegation_specifiers")
)


def _call_receiver(name: Node) -> str:
    """The object a call's name is looked up on, as a dotted name: `self` in `self.save()`, "" for `save()`,
    "super" for `super().save()`, "?" for an object that is no plain name (`f().save()`)."""
    holder = name.parent
    if holder is None:
        return ""
    if holder.type == "navigation_suffix":  # Kotlin: a.b() is (navigation_expression a (navigation_suffix b))
        holder = holder.parent
        if holder is None:
            return ""
    if holder.type not in _RECEIVER_HOLDERS:
        return ""
    target = holder.named_child(0)
    if target is None or target.end_byte > name.start_byte:
        return ""
    if target.type in _PLAIN_RECEIVERS:
        return _text(target)
    if target.end_byte - target.start_byte > _MAX_RECEIVER:
        return "?"
    text = _WHITESPACE.sub("", _text(target))
    if text == "super()":  # Python's `super().save()`: the method of a base class
        return "super"
    if not _RECEIVER.fullmatch(text):
        return "?"  # a computed object (`f().g()`, `a[0].b()`): a method of something unknown
    return _RECEIVER_SEPARATORS.sub(".", text)


def _is_base(name: Node) -> bool:
    """Whether a type reference names a base of the class it is declared on (`class A(B)`, `extends B`)."""
    node = name.parent
    for _ in range(4):  # bounded: generic and qualified wrappers (`extends a.B<T>`)
        if node is None:
            return False
        if node.type in _BASE_HOLDERS:
            return True
        if node.type == "argument_list":  # Python: `class A(B, metaclass=M)` keeps its bases in an argument list
            parent = node.parent
            return parent is not None and parent.type == "class_definition"
        node = node.parent
    return False


def _binding_of(lang: str, captures: dict[str, list[Node]]) -> tuple[str, tuple[str, str]] | None:
    """(local name, (module, imported name)) for one import binding; None when it binds nothing usable.

    The queries capture @name (what the file's code uses), @module (where it comes from) and, with an
    alias, @original. When @name is the @module node itself, the binding is the module (`import a.b`
    binds `a`; Go's `import "x/y/pkg"` binds `pkg`).
    """
    name = captures["name"][0]
    modules = captures.get("module")
    if not modules:
        return None
    module_node = modules[0]
    module = _clean_import(module_node.text or b"")
    originals = captures.get("original")
    if name.type in ("wildcard_import", "asterisk", "use_wildcard", "dot"):
        return "*", (module, "")
    if name.type == "blank_identifier":
        return None
    if name.id == module_node.id:
        if lang == "go":
            parts = [p for p in module.split("/") if p]
            if len(parts) > 1 and re.fullmatch(r"v\d+", parts[-1]):  # `x/y/v2` is package y
                parts.pop()
            return (parts[-1] if parts else module).replace("-", "_"), (module, "")
        return module.split(".")[0], (module, "")
    local = _text(name)
    parent = name.parent.type if name.parent is not None else ""
    if originals:
        original = _text(originals[0])
    elif parent in ("namespace_import", "variable_declarator", "import_spec", "aliased_import"):
        original = ""  # `import * as ns`, `const x = require()`, Go `import f "fmt"`, Python `import a as b`
    elif parent == "import_clause":
        original = "default"
    else:
        original = local
    return local, (module, original)
