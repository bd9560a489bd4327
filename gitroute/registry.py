"""The indexes a build writes, in build order: adding an index is one line here.

Names, not imports: an answer loads only the index it asks (a cold query is a process start), and
a build loads them all. Each name is a module of `gitroute.indexes` with the seam's shape
(see `gitroute/indexes/__init__.py`).
"""
from __future__ import annotations

import importlib

from gitroute.errors import GitrouteError

INDEXES = (
    "symbols",
    "impact",
    "wiring",
    "doc_links",
    "decisions",
    "meaning",
    "embedding",
    "contextual",
)


def load_index(name: str):  # -> the index module
    if name not in INDEXES:
        raise GitrouteError(f"no index named '{name}'", hint="known: " + ", ".join(INDEXES))
    return importlib.import_module(f"gitroute.indexes.{name}")


def all_indexes() -> list:
    return [load_index(name) for name in INDEXES]


def question_types() -> dict[str, tuple[str, dict]]:
    """Bench question type -> (index name, answer options), from each index's QUESTION_TYPES."""
    types: dict[str, tuple[str, dict]] = {}
    for module in all_indexes():
        for qtype, options in getattr(module, "QUESTION_TYPES", {}).items():
            types[qtype] = (module.NAME, dict(options))
    return types
