"""The paragraph a line reader is collecting (`parsing.texinfo`, `parsing.asciidoc`): runs of text lines, passed on
as one block, its inline markup read, when a line that is no text (or the end) closes it."""
from __future__ import annotations

from collections.abc import Callable


class Paragraph:
    def __init__(self, add: Callable[..., None], inline: Callable[[str], tuple[str, list[str]]]) -> None:
        self.add, self.inline = add, inline
        self.lines: list[tuple[int, str]] = []

    def __bool__(self) -> bool:
        return bool(self.lines)

    def append(self, number: int, text: str) -> None:
        self.lines.append((number, text))

    def flush(self) -> None:
        """The lines so far as one paragraph block (none when they hold no text), and a new paragraph begun."""
        if self.lines:
            text, codes = self.inline(" ".join(t for _, t in self.lines))
            if text.strip():
                self.add("paragraph", self.lines[0][0], self.lines[-1][0], text, codes, 0, "")
            self.lines = []
