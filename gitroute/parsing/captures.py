"""Definitions and raw references of a parse tree: running a language's tag query, or the generic walk by
node-type names for grammars without one; and counting the regions that did not parse."""
from __future__ import annotations

import re
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from gitroute.parsing.families.ecmascript import exported_name
from gitroute.parsing.grammars import language, query_source
from gitroute.parsing.nodes import MAX_NAME, WHITESPACE, Scope, text
from gitroute.parsing.references import binding_of, call_receiver, is_base

if TYPE_CHECKING:
    from tree_sitter import Node, Query

    from gitroute.parsing.families import Family
    from gitroute.parsing.nodes import Ref

MAX_GENERIC_NODES = 2_000_000  # nodes the generic walk visits before giving up on the rest of a file


def count_error_regions(root: Node) -> int:
    """How many separate stretches of the file did not parse (outermost ERROR nodes; at least 1).

    Found by walking only the nodes that hold an error (`has_error`), not by an `(ERROR)` query over the whole
    tree: four in ten of the kernel's C files hold one (its macros), and the query read every node of each."""
    spans = []
    pending = [root]
    while pending:
        node = pending.pop()
        if node.type == "ERROR":
            spans.append((node.start_byte, node.end_byte))  # what it holds is inside its span
            continue
        pending.extend(child for child in node.children if child.has_error)
    spans.sort()
    count, reach = 0, -1
    for start, end in spans:
        if start >= reach:
            count += 1
        reach = max(reach, end)
    return count if count else 1  # has_error with no ERROR node means MISSING nodes: still one region


# ---------------------------------------------------------------------------------------- tag queries


def run_query(lang: str, family: Family, query: Query, root: Node) -> tuple[list[Scope], list[Ref]]:
    roles = _pattern_facts(lang, query).roles
    scopes: dict[tuple[int, int], tuple[int, Scope]] = {}
    refs: list[Ref] = []
    add_ref = refs.append
    is_call = family.is_call
    for pattern, captures in _matches(lang, query, root):
        kind, key = roles[pattern]
        names = captures.get("name")
        if kind == "call" and names:  # most matches (three in four of django's): the loop below, without its turns
            callees = captures.get("callee")
            called = callees[0] if callees else None
            for n in names:
                if is_call(n):
                    add_ref((n.start_byte, kind, text(n), n.start_point[0] + 1, call_receiver(n, called)))
            continue
        if not names:
            exported = captures.get("exported")
            own = exported_name(exported[0]) if exported else None
            if own is None:
                continue  # every other pattern names what it captures; a nameless match has nothing to say
            names = [own]
        callee = captures.get("callee")
        if kind == "call":
            for n in names:
                if not is_call(n):
                    continue
                add_ref((n.start_byte, kind, text(n), n.start_point[0] + 1,
                         call_receiver(n, callee[0] if callee else None)))
        elif kind == "type":
            for n in names:
                # `models.Model`: the module the type is looked up in
                looked_up_on = call_receiver(n, callee[0] if callee else None)
                ref = (n.start_byte, kind, text(n), n.start_point[0] + 1, looked_up_on)
                add_ref(ref)
                if is_base(n):
                    add_ref((ref[0], "base", ref[2], ref[3], looked_up_on))
        elif kind == "bind":
            binding = binding_of(family, captures)
            if binding is not None:
                add_ref((names[0].start_byte, "bind", binding[0], names[0].start_point[0] + 1, binding[1]))
        elif kind == "import":
            name_node = names[0]
            add_ref(
                (name_node.start_byte, "import", family.import_text(name_node), name_node.start_point[0] + 1, "")
            )
        elif kind:
            node = captures[key][0]
            span = (node.start_byte, node.end_byte)
            # When several patterns claim one node the earliest in the .scm wins: queries list
            # specific patterns (a Go struct) before general ones (any Go type).
            claimed = scopes.get(span)
            name = family.definition_name(names[0])
            if claimed is not None and claimed[0] == pattern and kind in ("constant", "method"):
                # A declaration naming several constants (`var a, b int`, `static final int A = 1, B = 2;`) or
                # methods (Ruby's `attr_reader :a, :b`) matches its pattern once per name: the names after the
                # first ride on the first's scope.
                first = claimed[1]
                if name and names[0].start_byte != first.name_node.start_byte and all(
                    names[0].start_byte != other.start_byte for other in first.more_names
                ):
                    first.more_names += (names[0],)
            elif name and (claimed is None or claimed[0] > pattern):
                receiver = captures.get("receiver")
                owner = captures.get("owner")
                # A definition starts at its name when that comes first (`res.send = function`, where the
                # node is the function value), so that symbols in start order are in line order.
                scope = Scope(
                    min(span[0], names[0].start_byte), span[1], kind, name, node, names[0],
                    receiver=text(receiver[0]) if receiver else "",
                    owner=text(owner[0]) if owner else "",
                )
                scopes[span] = (pattern, scope)
    return [scope for _pattern, scope in scopes.values()], refs


# `(#parent-type? @capture "type" ...)`: the captured node's parent is one of the types. It stands for one copy of a
# pattern under each parent (`(translation_unit (declaration ...))`, `(preproc_if (declaration ...))`, ...), which a
# query cannot list as alternatives, and whose parent steps cost a compile more than the rest of the query
# (queries/c.scm). Read from each pattern's own text; tree-sitter leaves such predicates to its caller.
_PARENT_TYPE = re.compile(r'\(#parent-type\?\s+@([\w.]+)((?:\s+"[^"]*")+)\s*\)')
# tree-sitter's own, and ours
_KNOWN_PREDICATES = frozenset(("eq?", "not-eq?", "any-eq?", "any-not-eq?", "match?", "not-match?", "any-match?",
                               "any-not-match?", "any-of?", "not-any-of?", "is?", "is-not?", "set!", "select-adjacent!",
                               "strip!", "parent-type?"))
_CAPTURE = re.compile(r"@([\w.]+)")


class _PatternFacts(NamedTuple):
    """What each pattern of a language's tag query is, read once from its text: its role, (kind, capture key) as
    `_role_of` says, and its `#parent-type?` (capture, parent types) if it has one."""

    roles: dict[int, tuple[str, str]]
    parent_types: dict[int, tuple[str, frozenset[str]]]


_PATTERN_FACTS: dict[str, _PatternFacts] = {}


def _pattern_facts(lang: str, query: Query) -> _PatternFacts:
    """The `_PatternFacts` of a language's query, once per language."""
    found = _PATTERN_FACTS.get(lang)
    if found is None:
        source = query_source(lang).encode("utf-8")
        found = _PatternFacts({}, {})
        for pattern in range(query.pattern_count):
            text = source[query.start_byte_for_pattern(pattern):query.end_byte_for_pattern(pattern)].decode("utf-8")
            code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith(";"))
            found.roles[pattern] = _role_of(dict.fromkeys(_CAPTURE.findall(code)))
            for capture, types in _PARENT_TYPE.findall(code):
                found.parent_types[pattern] = (capture, frozenset(re.findall(r'"([^"]*)"', types)))
            unknown = set(re.findall(r"\(#([\w-]+[?!])", code)) - _KNOWN_PREDICATES
            if unknown:  # tree-sitter passes a predicate it does not know: a bug in a shipped .scm
                raise ValueError(f"unknown query predicate '#{min(unknown)}' in pattern {pattern} of {lang}")
        _PATTERN_FACTS[lang] = found
    return found


def _matches(lang: str, query: Query, root: Node) -> list[tuple[int, dict[str, list[Node]]]]:
    """The query's matches under `root`, `#parent-type?` applied. No predicate callback: with one, tree-sitter 0.26.1
    keeps every match's captures, and through their nodes the whole parsed tree, alive for the process (4.7 MiB a
    run of kernel/sched/core.c)."""
    from tree_sitter import QueryCursor

    found = QueryCursor(query).matches(root)
    parent_types = _pattern_facts(lang, query).parent_types
    if not parent_types:
        return found
    return [(pattern, captures) for pattern, captures in found
            if pattern not in parent_types or _has_parent(captures, *parent_types[pattern])]


def _has_parent(captures: dict[str, list[Node]], capture: str, types: frozenset[str]) -> bool:
    nodes = captures.get(capture)
    parent = nodes[0].parent if nodes else None
    return parent is not None and parent.type in types


def merge_clauses(scopes: list[Scope]) -> list[Scope]:
    """One scope per function written in clauses: a function scope that follows one by the same name among the
    same parent's definitions (nothing defined between them) joins it, which then spans both."""
    kept: list[Scope] = []
    previous: dict[int, Scope] = {}  # parent node id -> the last definition kept under it
    for scope in sorted(scopes, key=lambda s: (s.start, -s.end)):
        parent = scope.node.parent
        key = parent.id if parent is not None else -1
        before = previous.get(key)
        if before is not None and before.kind == scope.kind == "function" and before.name == scope.name:
            before.end = max(before.end, scope.end)
            before.last = scope.node
            continue
        previous[key] = scope
        kept.append(scope)
    return kept


def _role_of(captures: dict[str, object]) -> tuple[str, str]:
    """(kind, capture key) of a pattern by its capture names: a symbol kind or "impl" for definitions,
    "call"/"import"/"type"/"bind" for references (each shipped pattern has one such capture: tested)."""
    for key in captures:
        if key.startswith("definition."):
            return key[11:], key
        if key.startswith("reference."):
            return key[10:], key
        if key == "impl":
            return "impl", key
    return "", ""


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
# Node types that match the pattern above but are no definition in one grammar: Objective-C's `struct_declaration`
# is a property's or an instance variable's declaration (`@property CDVViewController* viewController;`), which
# would be a struct named by its type.
_GENERIC_NOT_DEFINITIONS = {"objc": frozenset(("struct_declaration",))}
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
_NOT_NAME_HOLDERS = ("body", "block", "comment", "parameters", "statement", "declaration_list", "enumerator_list")
_IDENTIFIER = re.compile(r"[A-Za-z_$][\w$]*")


@cache
def _generic_kinds(lang: str) -> dict[int, str]:
    """Node kind id -> symbol kind for a grammar, worked out once from its node type names."""
    loaded = language(lang)
    kinds: dict[int, str] = {}
    if loaded is None:
        return kinds
    not_definitions = _GENERIC_NOT_DEFINITIONS.get(lang, frozenset())
    for kind_id in range(loaded.node_kind_count):
        name = loaded.node_kind_for_id(kind_id)
        if not name or not loaded.node_kind_is_named(kind_id) or name in not_definitions:
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


def _extends_a_class(node: Node) -> bool:
    """An Objective-C category or class extension (`@interface Bridge (Orientation)`, `@interface Bridge ()`): it adds
    methods to a class defined elsewhere, and is no second definition of it."""
    if node.type not in ("class_interface", "class_implementation"):
        return False
    return node.child_by_field_name("category") is not None or any(c.type == "(" for c in node.children[:4])


def _is_identifier(node_type: str) -> bool:
    return "identifier" in node_type or node_type in ("name", "word", "constant", "command_name")


def walk_generic(lang: str, root: Node, warnings: list[str]) -> tuple[list[Scope], list[Ref]]:
    """Definitions and calls by node-type name, for grammars without a hand-written query."""
    kinds = _generic_kinds(lang)
    scopes: list[Scope] = []
    refs: list[Ref] = []
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
                name = WHITESPACE.sub(" ", text(name_node)).strip() if name_node is not None else ""
                if name and name_node is not None:
                    if kind == "class" and _extends_a_class(node):
                        kind = "impl"  # its methods are the class's, as a Swift extension's are
                    scopes.append(Scope(node.start_byte, node.end_byte, kind, name, node, name_node))
            elif node.type in _GENERIC_CALLS:
                callee = next(
                    (c for c in map(node.child_by_field_name, _CALLEE_FIELDS) if c is not None),
                    node.named_children[0] if node.named_child_count else None,
                )
                if callee is not None and callee.end_byte - callee.start_byte <= MAX_NAME:
                    found = _IDENTIFIER.findall(text(callee))
                    if found:
                        refs.append((callee.start_byte, "call", found[-1], callee.start_point[0] + 1, ""))
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return scopes, refs
    return scopes, refs
