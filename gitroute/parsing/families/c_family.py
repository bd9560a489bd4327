"""The C family (C, C++, CUDA, Arduino, Objective-C): a program starts at a top-level `main`.

C++'s out-of-line methods (`void T::m()`) are bound to their type by the queries' @receiver capture.
"""
from __future__ import annotations

from gitroute.parsing.families.base import MainFunction

FAMILIES = (MainFunction("cuda", "arduino", "objc", queries={"c": ("c",), "cpp": ("c", "cpp")}),)
