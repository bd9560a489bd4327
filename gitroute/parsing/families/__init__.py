"""Each language family's special cases in one module; `family(lang)` is the one lookup the stages use.

Adding a language touches one family module (a new one, listed below, or an existing family's constructor)
and, for hand-written tag queries, one .scm under queries/ named in that family's `queries`. Every other
language of the pack gets the generic walk and the defaults of `Family`.
"""
from __future__ import annotations

from gitroute.parsing.families import beam, c_family, ecmascript, go, haskell, managed, native, python, scripting, swift
from gitroute.parsing.families.base import Family

_DEFAULT = Family()
_BY_LANG: dict[str, Family] = {}
# Language -> its .scm files under queries/, for the languages with hand-written tag queries.
QUERY_FILES: dict[str, tuple[str, ...]] = {}
for _module in (python, ecmascript, c_family, managed, go, swift, native, scripting, beam, haskell):
    for _family in _module.FAMILIES:
        for _lang in _family.langs:
            if _lang in _BY_LANG:
                raise RuntimeError(f"language '{_lang}' is in two families")  # a bug in the table above
            _BY_LANG[_lang] = _family
        QUERY_FILES.update(_family.queries)


def family(lang: str) -> Family:
    """The family that holds `lang`'s special cases; the defaults for a language that has none."""
    return _BY_LANG.get(lang, _DEFAULT)


__all__ = ["QUERY_FILES", "Family", "family"]
