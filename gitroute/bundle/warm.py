"""A bundle kept open across answers (the MCP server): pinned once, re-pinned when its ref or HEAD moves.

Every answer first asks the running `git cat-file` for HEAD and the bundle ref (one round trip, no
process start). While both are where they were, the pinned view answers, with the blobs it has read
kept in memory (a pinned bundle never changes under its commit id). When either moves, a new view is
pinned, which checks the new bundle commit the way every answer does (`BundleView._pin`: format,
trailers, object ids); a bundle that fails is reported, and the old one is never served again.
"""
from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence

from gitroute.bundle.layout import BUNDLE_REF
from gitroute.bundle.store import BundleView
from gitroute.errors import GitrouteError

CACHE_BYTES = 64 << 20  # blobs kept in memory per pinned bundle; the least recently read go first
# Decoded graph shards kept per pinned bundle (about 30 KB each): a kernel's questions read tens of thousands of
# them, which a server answering for hours would otherwise keep, up to the whole graph
GRAPH_CHUNKS = 4096


class CachedBundleView(BundleView):
    """A pinned bundle that keeps the blobs it read: the same path of the same commit is the same bytes."""

    graph_chunks = GRAPH_CHUNKS

    def __init__(self, cwd: str = ".", ref: str = BUNDLE_REF, cache_bytes: int = CACHE_BYTES) -> None:
        self._blobs: OrderedDict[str, bytes] = OrderedDict()
        self._cached = 0
        self._cache_bytes = cache_bytes
        super().__init__(cwd, ref)

    def read(self, paths: Sequence[str]) -> dict[str, bytes]:
        found = {p: self._blobs[p] for p in paths if p in self._blobs}
        for p in found:
            self._blobs.move_to_end(p)
        missing = [p for p in paths if p not in found]
        if missing:
            fresh = super().read(missing)
            for p, blob in fresh.items():
                self._blobs[p] = blob
                self._cached += len(blob)
            while self._cached > self._cache_bytes and len(self._blobs) > 1:
                _, old = self._blobs.popitem(last=False)
                self._cached -= len(old)
            found.update(fresh)
        return found


class WarmBundle:
    """The bundle at `ref`, opened once and re-pinned when the ref or HEAD moves."""

    def __init__(self, cwd: str = ".", ref: str = BUNDLE_REF) -> None:
        self.cwd = cwd
        self.ref = ref
        self._view: CachedBundleView | None = None
        self._where: tuple[str | None, str | None] | None = None  # (HEAD, bundle commit) when pinned
        self.pins = 0  # how many times a bundle was pinned (tests and the latency bench read it)

    def view(self) -> CachedBundleView:
        """The pinned view for this answer; raises the bundle errors (not found, damaged, format) as any answer."""
        if self._view is not None:
            try:
                head, bundle = self._view.reader.read(["HEAD", self.ref])
            except (GitrouteError, OSError):  # a cat-file that died: pin again below, from scratch
                pass
            else:
                where = (head[0] if head else None, bundle[0] if bundle else None)
                if where == self._where:
                    return self._view
            self.close()
        view = CachedBundleView(self.cwd, self.ref)  # validates the bundle commit, or raises
        self._view = view
        self._where = (view.source.head, view.commit)
        self.pins += 1
        return view

    def close(self) -> None:
        if self._view is not None:
            self._view.close()
        self._view = None
        self._where = None

    def __enter__(self) -> WarmBundle:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
