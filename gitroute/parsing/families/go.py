"""Go's special cases: a program starts at a top-level `main`; `import "x/y/v2"` binds the package name `y`."""
from __future__ import annotations

import re

from gitroute.parsing.families.base import MainFunction

_MAJOR_VERSION = re.compile(r"v\d+")


class Go(MainFunction):
    def module_binding(self, module: str) -> str:
        parts = [p for p in module.split("/") if p]
        if len(parts) > 1 and _MAJOR_VERSION.fullmatch(parts[-1]):  # `x/y/v2` is package y
            parts.pop()
        return (parts[-1] if parts else module).replace("-", "_")


FAMILIES = (Go(queries={"go": ("go",)}),)
