"""Languages with no special case but a top-level `main` where the program starts (Rust, Zig, Odin, V, Hare,
Nim, D, Dart, Julia); the generic walk or their query finds the function."""
from __future__ import annotations

from gitroute.parsing.families.base import MainFunction

FAMILIES = (MainFunction("zig", "odin", "v", "hare", "nim", "d", "dart", "julia", queries={"rust": ("rust",)}),)
