"""Elixir's special cases: docs are `@doc` and `@moduledoc` attributes, not comments; a function written in several
clauses is one definition; `alias Foo.Bar` binds `Bar`."""
from __future__ import annotations

from typing import TYPE_CHECKING

from gitroute.parsing.families.base import Family
from gitroute.parsing.nodes import MAX_DOC, WHITESPACE, text

if TYPE_CHECKING:
    from tree_sitter import Node

# Attributes that may stand between a function's `@doc` and its `def`.
_ANNOTATIONS = frozenset(("spec", "impl", "deprecated", "since", "decorate", "dialyzer", "compile"))
# Attributes whose arguments are docs or types, not code that runs: what looks like a call in them is none.
_NOT_CODE = _ANNOTATIONS | {"doc", "moduledoc", "typedoc", "type", "typep", "opaque", "callback", "macrocallback"}
DEFINERS = frozenset(("def", "defp", "defmacro", "defmacrop", "defguard", "defguardp", "defdelegate", "defn", "defnp"))
_ATTRIBUTES_SCANNED = 16  # bounded: a def is preceded by a few attributes, not hundreds


class Elixir(Family):
    clauses = True

    def docstring(self, node: Node) -> str:
        """The `@doc` above a `def` (past its `@spec` and `@impl`), or a module's `@moduledoc`; "" for `@doc false`."""
        target = node.child_by_field_name("target")
        if target is not None and text(target) in ("defmodule", "defprotocol", "defimpl"):
            body = next((c for c in node.named_children if c.type == "do_block"), None)
            for child in body.named_children[:_ATTRIBUTES_SCANNED] if body is not None else ():
                if _attribute(child) == "moduledoc":
                    return _attribute_text(child)
            return ""
        sibling = node.prev_named_sibling
        for _ in range(_ATTRIBUTES_SCANNED):
            name = _attribute(sibling) if sibling is not None else ""
            if name == "doc":
                return _attribute_text(sibling)  # type: ignore[arg-type]
            if name not in _ANNOTATIONS and (sibling is None or sibling.type != "comment"):
                break
            sibling = sibling.prev_named_sibling  # type: ignore[union-attr]
        return ""

    def is_call(self, name: Node) -> bool:
        """Not a def's head (`def add(a, b)`, with or without a guard), nor anything inside `@spec` or `@doc`."""
        call = name.parent
        if call is not None and call.type == "dot":
            call = call.parent
        if call is None:
            return True
        head, parent = call, call.parent
        if parent is not None and parent.type == "binary_operator" and parent.child_by_field_name("left") == call:
            head, parent = parent, parent.parent  # `def f(x) when guard`: the head is the guard's left side
        if parent is not None and parent.type == "arguments" and parent.named_child(0) == head:
            definer = parent.parent.child_by_field_name("target") if parent.parent is not None else None
            if definer is not None and text(definer) in DEFINERS:
                return False
        if call.parent is not None and call.parent.type == "unary_operator":
            return False  # `@timeout 5_000` (the attribute is written as a call) reads an attribute
        node: Node | None = call.parent
        for _ in range(6):  # bounded: a type spec nests a few levels under its attribute
            if node is None:
                break
            if node.type == "unary_operator" and _attribute(node) in _NOT_CODE:
                return False
            node = node.parent
        return True

    def module_binding(self, module: str) -> str:
        return module.rsplit(".", 1)[-1]  # `alias Foo.Bar` makes `Bar` the name in scope


def _attribute(node: Node) -> str:
    """`doc` for `@doc "..."`; "" for anything that is not a module attribute."""
    if node.type != "unary_operator" or node.child_count < 2 or node.children[0].type != "@":
        return ""
    operand = node.child_by_field_name("operand")
    target = operand.child_by_field_name("target") if operand is not None and operand.type == "call" else None
    return text(target) if target is not None else ""


def _attribute_text(node: Node) -> str:
    """The words of an attribute's string (`"..."`, a heredoc, `~S\"\"\"...\"\"\"`); "" for `@doc false`."""
    operand = node.child_by_field_name("operand")
    arguments = next((c for c in operand.named_children if c.type == "arguments"), None) if operand else None
    value = arguments.named_child(0) if arguments is not None and arguments.named_child_count else None
    if value is None or value.type not in ("string", "sigil", "charlist"):
        return ""
    parts = [(c.text or b"")[: MAX_DOC * 8].decode("utf-8", "replace") for c in value.named_children
             if c.type == "quoted_content"]
    return WHITESPACE.sub(" ", " ".join(parts)).strip()[:MAX_DOC]


FAMILIES = (Elixir(queries={"elixir": ("elixir",)}),)
