"""References out of a definition: calls and their receivers, imports and the names they bind, base types;
and attaching each one to its innermost enclosing symbol."""
from __future__ import annotations

import re
from operator import itemgetter
from typing import TYPE_CHECKING

from gitroute.model import Binding, NameRef
from gitroute.parsing.nodes import clean_import, text

if TYPE_CHECKING:
    from tree_sitter import Node

    from gitroute.parsing.families import Family
    from gitroute.parsing.nodes import Ref, Scope

MAX_REFS = 20_000  # per category: calls, imports, references

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
     "scoped_call_expression", "navigation_suffix", "generic_type", "nested_type_identifier", "dot", "qualified",
     "dot_index_expression", "method_index_expression")
)
_PLAIN_RECEIVERS = frozenset(("identifier", "self", "this", "this_expression", "package_identifier", "crate",
                              "super", "type_identifier", "simple_identifier", "name", "constant"))
# Nodes whose children are a class's base types (a type reference under one of them is also a base).
_BASE_HOLDERS = frozenset(
    ("superclass", "super_interfaces", "extends_clause", "implements_clause", "extends_type_clause",
     "class_heritage", "base_list", "base_class_clause", "delegation_specifier", "delegation_specifiers")
)


def call_receiver(name: Node, callee: Node | None = None) -> str:
    """The object a call's name is looked up on, as a dotted name: `self` in `self.save()`, "" for `save()`,
    "super" for `super().save()`, "?" for an object that is no plain name (`f().save()`).

    `callee`: the node a query captured as @callee, which is the name itself or the node holding it
    (`a.b.m`): it spares the walk up to the name's parent, which tree-sitter makes from the root."""
    if callee is None:
        holder = name.parent
    elif callee.id == name.id:
        return ""  # the callee is the bare name: nothing it is looked up on
    else:
        holder = callee
    if holder is None:
        return ""
    holder_type = holder.type
    if holder_type == "navigation_suffix":  # Kotlin: a.b() is (navigation_expression a (navigation_suffix b))
        holder = holder.parent
        if holder is None:
            return ""
        holder_type = holder.type
    if holder_type not in _RECEIVER_HOLDERS:
        return ""
    target = holder.named_child(0)
    if target is None or target.end_byte > name.start_byte:
        return ""
    if target.type in _PLAIN_RECEIVERS:
        return text(target)
    if target.end_byte - target.start_byte > _MAX_RECEIVER:
        return "?"
    written = "".join(text(target).split())  # what WHITESPACE.sub("", ...) gives, without the regex
    if written == "super()":  # Python's `super().save()`: the method of a base class
        return "super"
    if not _RECEIVER.fullmatch(written):
        return "?"  # a computed object (`f().g()`, `a[0].b()`): a method of something unknown
    if "::" in written or "->" in written or "?." in written:
        return _RECEIVER_SEPARATORS.sub(".", written)
    return written


def is_base(name: Node) -> bool:
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


def binding_of(family: Family, captures: dict[str, list[Node]]) -> tuple[str, tuple[str, str]] | None:
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
    # Scala's import path is split into segments: the family reads it off the whole statement.
    module = family.import_text(module_node) if module_node.type == "import_declaration" else clean_import(
        module_node.text or b"")
    originals = captures.get("original")
    if name.type in ("wildcard_import", "asterisk", "use_wildcard", "dot"):
        return "*", (module, "")
    if name.type == "blank_identifier":
        return None
    if name.id == module_node.id:
        return family.module_binding(module), (module, "")
    local = text(name)
    parent = name.parent.type if name.parent is not None else ""
    if originals:
        original = text(originals[0])
    elif parent in ("namespace_import", "variable_declarator", "import_spec", "aliased_import", "pair"):
        # `import * as ns`, `const x = require()`, Go `import f "fmt"`, Python `import a as b`, Elixir
        # `alias A.B, as: C`
        original = ""
    elif parent == "import_clause":
        original = "default"
    else:
        original = local
    return local, (module, original)


_REF_ORDER = itemgetter(0, 1, 2)  # position, category, name
_new = tuple.__new__


def build_refs(scopes: list[Scope], refs: list[Ref], warnings: list[str]) -> dict[str, tuple]:
    """Attach each reference to its innermost enclosing symbol; dedupe; cap; source order; by category.

    One sweep over scopes (sorted by start, outer first) and references (sorted by position) with a
    stack of open scopes: linear, so 10,000 nested functions each calling something stay cheap.
    """
    refs.sort(key=_REF_ORDER)
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
        # The model's tuples made without their Python `__new__`: one call fewer for each of a file's references.
        if category == "bind":
            bucket.append(_new(Binding, (name, extra[0], extra[1], line)))  # type: ignore[index]
        else:
            bucket.append(_new(NameRef, (source, name, line, extra or "")))
    for category in sorted(capped):
        warnings.append(f"{category} references capped at {MAX_REFS}")
    return {category: tuple(bucket) for category, bucket in out.items()}
