"""Definitions into Symbols: order, nesting, method/function classification by type, receiver and owner,
signatures and docs; entry points marked last."""
from __future__ import annotations

from typing import TYPE_CHECKING

from gitroute.model import TYPE_KINDS, Symbol
from gitroute.parsing.docs import doc
from gitroute.parsing.entries import mark_entries
from gitroute.parsing.families.ecmascript import FUNCTION_VALUES, NOT_OWNERS

if TYPE_CHECKING:
    from tree_sitter import Node

    from gitroute.parsing.families import Family
    from gitroute.parsing.nodes import Scope

MAX_SYMBOLS = 20_000
MAX_SIGNATURE = 200

_TYPE_KINDS = frozenset(TYPE_KINDS)
_FUNCTION_KINDS = frozenset(("function", "method"))

_new = tuple.__new__  # a Symbol without its Python `__new__`

# How many enclosing scopes an owner name is looked up through before only the file level is tried.
_OWNER_SCOPE_DEPTH = 32


def build_symbols(family: Family, scopes: list[Scope], data: bytes, warnings: list[str]) -> tuple[Symbol, ...]:
    """Order, nest, classify, document and mark entry points; fills in each scope's lexical/symbol index."""
    scopes.sort(key=lambda s: (s.start, -s.end))
    stack: list[int] = []
    for index, scope in enumerate(scopes):
        while stack and scopes[stack[-1]].end <= scope.start:
            stack.pop()
        scope.lexical = stack[-1] if stack else -1
        stack.append(index)

    # Past the cap, definitions keep their place before constants do: a line of 20,000 `var a = 1;` (minified or
    # generated code) leaves room for the function after it.
    definitions = sum(1 + len(s.more_names) for s in scopes if s.kind not in ("impl", "constant"))
    room_for_constants = MAX_SYMBOLS - definitions
    kept = constants = 0
    for scope in scopes:
        if scope.kind != "impl":
            constant = scope.kind == "constant"
            if kept >= MAX_SYMBOLS or (constant and constants >= room_for_constants):
                if not warnings or warnings[-1] != f"symbols capped at {MAX_SYMBOLS}":
                    warnings.append(f"symbols capped at {MAX_SYMBOLS}")
                if kept >= MAX_SYMBOLS:
                    break
                continue
            scope.symbol = kept
            if scope.more_names:  # each of a declaration's other names is a symbol of its own, right after it
                scope.more_names = scope.more_names[: MAX_SYMBOLS - kept - 1]
            kept += 1 + len(scope.more_names)
            constants += (1 + len(scope.more_names)) if constant else 0

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
                kind = "method" if parent_kind in family.method_holders else "function"
        elif kind == "constant" and receiver:  # Rust's `impl T { const C: u8 = 1; }`: owned by T, as methods are
            parent = types_by_name.get(receiver, lexical_symbol)
        name_row = scope.name_node.start_point[0]
        end_point = (scope.last or scope.node).end_point
        end_row = end_point[0] - 1 if end_point[1] == 0 and end_point[0] > name_row else end_point[0]
        first = _new(Symbol, (  # name, kind, line, end_line, signature, doc, parent, entry, owner
            scope.name, kind, name_row + 1, max(end_row, name_row) + 1, _signature(data, scope, scope.name_node),
            doc(family, scope.node), parent, False, scope.owner if owned < 0 and scope.owner not in NOT_OWNERS else "",
        ))
        symbols.append(first)
        for name_node in scope.more_names:
            row = name_node.start_point[0]
            symbols.append(first._replace(name=family.definition_name(name_node), line=row + 1,
                                          end_line=max(end_row, row) + 1, signature=_signature(data, scope, name_node)))
    return tuple(mark_entries(family, scopes, symbols, data))


def _owner_candidates(scopes: list[Scope]) -> dict[tuple[str, int], int]:
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


def _resolve_owner(scopes: list[Scope], scope: Scope, owners: dict[tuple[str, int], int]) -> int:
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


def _enclosing(scopes: list[Scope], scope: Scope) -> tuple[int, str]:
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


def _signature(data: bytes, scope: Scope, name_node: Node) -> str:
    name_start = name_node.start_byte
    # Searches are bounded so that a minified one-line file with thousands of definitions stays linear.
    # A JS/TS function value's line is read from its start, whatever precedes the name or the function on
    # it: `res.send = function send(body) {`, `module.exports = function query(opts) {`.
    lower = 0 if scope.node.type in FUNCTION_VALUES else scope.start
    floor = max(lower, name_start - MAX_SIGNATURE * 2)
    newline = data.rfind(b"\n", floor, name_start)
    start = newline + 1 if newline >= 0 else floor
    end = data.find(b"\n", start, start + MAX_SIGNATURE * 4)
    if end < 0:
        end = min(len(data), start + MAX_SIGNATURE * 4)
    return data[start:end].decode("utf-8", "replace").strip()[:MAX_SIGNATURE]
