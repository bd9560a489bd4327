"""JavaScript and TypeScript's special cases: functions named by what they are assigned to, the owners they are
assigned onto, and docs above the statement a function value starts on (JSDoc across one blank line)."""
from __future__ import annotations

from typing import TYPE_CHECKING

from gitroute.parsing.families.base import Family

if TYPE_CHECKING:
    from tree_sitter import Node

# JS/TS nodes that hold a function value on the line the value starts (see `statement_of`).
_HOLDERS = frozenset(
    (
        "arguments", "call_expression", "new_expression", "assignment_expression", "variable_declarator",
        "lexical_declaration", "variable_declaration", "pair", "parenthesized_expression", "expression_statement",
        "export_statement", "field_definition", "public_field_definition", "await_expression",
    )
)
FUNCTION_VALUES = frozenset(("function_expression", "arrow_function", "generator_function"))
# Holders that name the value they hold, whichever line it starts on (`res.send =\n  function () {}`).
_NAMERS = frozenset(
    ("assignment_expression", "variable_declarator", "pair", "field_definition", "public_field_definition")
)
# Objects a function is assigned onto that name no owner: the module itself, or the global object.
NOT_OWNERS = frozenset({"module", "exports", "this", "self", "window", "global", "globalThis"})


class ECMAScript(Family):
    def doc_anchor(self, node: Node) -> Node:
        return statement_of(node)

    def documents_across_blank_line(self, comment: Node) -> bool:
        # A `/**` block nearest a definition may be separated from it by one blank line (the Express style).
        return is_jsdoc(comment)


def is_jsdoc(comment: Node) -> bool:
    """A `/** ... */` block that is not a file header (a comment opening the file, nothing before it)."""
    head = (comment.text or b"")[:4]
    if not head.startswith(b"/**") or head.startswith(b"/**/"):
        return False
    return comment.start_point[0] > 0 or comment.prev_sibling is not None


def statement_of(node: Node) -> Node:
    """Where a JS/TS function value's doc sits: above the statement it starts on.

    `res.send = function send() {}` and `defineGetter(req, 'hostname', function hostname() {})` are
    documented above the statement. The climb passes holders that start on the same line, and those that
    name the value wherever it starts; an object literal is not a holder (its `key: function` pairs keep
    their own comments).
    """
    anchor = node
    for _ in range(16):  # bounded: a few holders (argument, call, assignment, declarator, export)
        parent = anchor.parent
        if parent is None or parent.type not in _HOLDERS:
            break
        if parent.start_point[0] != anchor.start_point[0] and parent.type not in _NAMERS:
            break
        anchor = parent
    return anchor


def exported_name(function: Node) -> Node | None:
    """The name of a function assigned to `module.exports` (the query's @exported capture): its own, else the
    variable the assignment chain ends in (`var proto = module.exports = function () {}`), else None."""
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


# TypeScript and TSX run the JavaScript patterns as well; ecmascript_fallback comes last because the earliest
# pattern claiming a node wins.
FAMILIES = (
    ECMAScript(
        queries={
            "javascript": ("ecmascript", "javascript", "jsx", "ecmascript_fallback"),
            "typescript": ("ecmascript", "typescript", "ecmascript_fallback"),
            "tsx": ("ecmascript", "typescript", "jsx", "ecmascript_fallback"),
        }
    ),
)
