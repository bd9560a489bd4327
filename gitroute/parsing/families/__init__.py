"""Each language family's special cases in one module; `family(lang)` is the one lookup the stages use.

Adding a language: its .scm under queries/ (and QUERY_FILES), and its family here, either by naming it in an
existing family's constructor or with a new module whose FAMILIES this table lists.
"""
from __future__ import annotations

from gitroute.parsing.families import c_family, ecmascript, go, managed, native, python, swift
from gitroute.parsing.families.base import Family

_DEFAULT = Family()
_BY_LANG: dict[str, Family] = {}
for _module in (python, ecmascript, c_family, managed, go, swift, native):
    for _family in _module.FAMILIES:
        for _lang in _family.langs:
            assert _lang not in _BY_LANG, f"{_lang} is in two families"
            _BY_LANG[_lang] = _family


def family(lang: str) -> Family:
    """The family that holds `lang`'s special cases; the defaults for a language that has none."""
    return _BY_LANG.get(lang, _DEFAULT)


__all__ = ["Family", "family"]
