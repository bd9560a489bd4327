"""Ruby and PHP: hand-written tag queries; PHP's docblocks lose the tags that say nothing about the code."""
from __future__ import annotations

import re

from gitroute.parsing.families.base import Family

# PHPDoc tags whose text is no description: static-analysis types that repeat the signature (`@phpstan-param
# Record $record`, `@psalm-import-type ...`, often a screenful of array shapes), who wrote it and under which
# licence. A tag's text runs on until the next tag or a blank line.
_PHP_NOISE_TAG = re.compile(r"@(?:phpstan|psalm|phan)-[\w-]+|@(?:author|copyright|license)\b", re.I)
_PHP_INHERIT = re.compile(r"\{?@inheritdoc\}?", re.I)  # "see the parent's doc": no words of its own


def php_comment_text(comment: str) -> str:
    """A PHP comment, raw or with its markers gone, without the noise tags above and their text."""
    kept: list[str] = []
    dropping = False
    for line in comment.splitlines():
        body = line.strip().lstrip("/*").lstrip()
        if not body or body.startswith("@"):
            dropping = _PHP_NOISE_TAG.match(body) is not None
        if not dropping:
            kept.append(line)
    return _PHP_INHERIT.sub(" ", "\n".join(kept))


class Php(Family):
    def comment_words(self, cleaned: str) -> str:
        return php_comment_text(cleaned)


FAMILIES = (Family(queries={"ruby": ("ruby",)}), Php(queries={"php": ("php",)}))
