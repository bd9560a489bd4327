"""Ruby and PHP: hand-written tag queries, no special case beyond them."""
from __future__ import annotations

from gitroute.parsing.families.base import Family

FAMILIES = (Family(queries={"ruby": ("ruby",), "php": ("php",)}),)
