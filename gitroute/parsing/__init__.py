"""The parsing layer: language detection, per-file tag extraction and manifest entry points, and the version of
what extraction produces.

Importing this package does not import tree-sitter; the first `extract()` call does.
"""
from __future__ import annotations

from gitroute.parsing.grammars import is_supported
from gitroute.parsing.languages import language_for_content, language_for_path
from gitroute.parsing.manifests import declared_entry_points
from gitroute.parsing.tags import extract
from gitroute.parsing.version import EXTRACTOR_VERSION

__all__ = ["EXTRACTOR_VERSION", "declared_entry_points", "extract", "is_supported", "language_for_content",
           "language_for_path"]
