"""Opening a bundle for answering: pin its commit once, check its format, read blobs by path.

The format version and the source commit are trailers of the bundle commit's message, so an
answer learns both from the ref lookup itself and never reads the (repository-sized) manifest.
"""
from __future__ import annotations

import json
from collections.abc import Sequence

from gitroute.bundle.graph import GraphView
from gitroute.bundle.layout import BUNDLE_REF, FORMAT_VERSION, INDEX_META, MANIFEST
from gitroute.bundle.validate import BadValue, check_bundle_commit, check_id_length, check_manifest
from gitroute.errors import BundleDamaged, BundleFormatError, BundleNotFound
from gitroute.git.catfile import ObjectReader, ahead_behind, current_branch, ref_target
from gitroute.model import Source


def corrupt_blob(path: str, ref: str = BUNDLE_REF) -> BundleDamaged:
    return BundleDamaged(ref, f"'{path}' is unreadable")


def parse_tree(data: bytes, id_length: int = 40) -> dict[str, str]:
    """name -> object id from a raw tree object (`<mode> <name>\\0<binary id>` entries).

    Raises BadValue on a malformed tree (git checks trees it makes, not every tree a fetch brings).
    """
    size = id_length // 2
    entries: dict[str, str] = {}
    pos = 0
    try:
        while pos < len(data):
            space = data.index(b" ", pos)
            nul = data.index(b"\0", space)
            if nul + 1 + size > len(data):
                raise ValueError("short entry")
            entries[data[space + 1:nul].decode("utf-8", "surrogateescape")] = data[nul + 1:nul + 1 + size].hex()
            pos = nul + 1 + size
    except ValueError as err:
        raise BadValue("one of its trees is malformed") from err
    return entries


class BundleView:
    """A bundle pinned to one commit: every read names that commit, so a concurrent build cannot tear an answer."""

    def __init__(self, cwd: str = ".", ref: str = BUNDLE_REF) -> None:
        self.ref = ref
        self._trees: dict[str, dict[str, str]] = {}  # folder -> {name: object id}
        self._manifest: dict | None = None
        self._graph: GraphView | None = None
        self._memos: dict[str, dict] = {}  # index name -> what its answers decoded, kept for the next answer
        self.reader = ObjectReader(cwd)
        try:
            self._pin(cwd, ref)
        except BaseException:
            self.reader.close()  # a refused bundle must not leave its `git cat-file` running
            raise

    def _pin(self, cwd: str, ref: str) -> None:
        """Resolve the bundle ref once, check its format from the commit's trailers, work out the staleness."""
        self.reader.start()  # git starts up while symbolic-ref runs: two process starts overlap
        branch = current_branch(cwd)
        head, bundle = self.reader.read(["HEAD", ref])
        if bundle is None:
            # cat-file says "missing" for an absent ref and for a ref to an absent object alike.
            if ref_target(cwd, ref) is not None:
                raise BundleDamaged(ref, "it points at a missing object")
            raise BundleNotFound(f"no routing bundle at '{ref}'", hint="run 'git route build'")
        if bundle[1] != "commit":
            raise BundleDamaged(ref, f"it points at a {bundle[1]}, not a commit")
        self.commit = bundle[0]
        try:
            self.id_length = check_id_length(self.commit)
            version, source_commit, self.tree = check_bundle_commit(bundle[2], self.id_length)
        except BadValue as err:
            raise BundleDamaged(ref, str(err)) from err
        if version > FORMAT_VERSION:
            raise BundleFormatError(
                f"the bundle at '{ref}' has format {version}; this gitroute reads format {FORMAT_VERSION}",
                hint="upgrade gitroute, or run 'git route build' to write a bundle this version reads",
            )
        if version < FORMAT_VERSION:
            raise BundleFormatError(
                f"the bundle at '{ref}' has the old format {version}", hint="run 'git route build' to rebuild it"
            )
        head_id = head[0] if head else None
        ahead: int | None = 0
        behind: int | None = 0
        if head_id != source_commit:
            counts = ahead_behind(cwd, source_commit, head_id) if head_id else None
            ahead, behind = counts if counts else (None, None)
        self.source = Source(ref=ref, commit=source_commit, branch=branch, stale_by=ahead, head=head_id,
                             behind_by=behind)

    def read_json(self, path: str) -> object:
        """One JSON blob of the bundle; a missing or unreadable one is a damaged bundle."""
        blob = self.read([path]).get(path)
        if blob is None:
            # Only on the way to an error: say whether the whole tree is gone or just this blob.
            tree_gone = self.reader.read([self.tree])[0] is None
            raise BundleDamaged(self.ref, "its tree is missing" if tree_gone else f"'{path}' is missing")
        try:
            return json.loads(blob)
        except ValueError as err:
            raise corrupt_blob(path, self.ref) from err

    @property
    def manifest(self) -> dict:
        """The whole build manifest (`build.json`): what status shows; answers never need it."""
        if self._manifest is None:
            try:
                self._manifest = check_manifest(self.read_json(MANIFEST))
            except BadValue as err:
                raise BundleDamaged(self.ref, str(err)) from err
        return self._manifest

    def read(self, paths: Sequence[str]) -> dict[str, bytes]:
        """Blobs by bundle path; a path the bundle does not hold is left out.

        Blobs are asked for by id, from their folder's tree read once: git resolving a
        `<commit>:<path>` walks the trees again for every blob, about three times the cost.
        """
        folders = sorted({p.rpartition("/")[0] for p in paths} - self._trees.keys())
        if folders:
            for folder, obj in zip(folders, self.reader.read([f"{self.commit}:{f}" for f in folders])):
                try:
                    self._trees[folder] = parse_tree(obj[2], self.id_length) if obj and obj[1] == "tree" else {}
                except BadValue as err:
                    raise BundleDamaged(self.ref, str(err)) from err
        found = [(p, self._trees[p.rpartition("/")[0]].get(p.rpartition("/")[2])) for p in paths]
        wanted = [(p, oid) for p, oid in found if oid is not None]
        objects = self.reader.read([oid for _, oid in wanted])
        return {p: obj[2] for (p, _), obj in zip(wanted, objects) if obj is not None and obj[1] == "blob"}

    def listing(self, folder: str) -> list[str]:
        """The names in one folder of the bundle, sorted; none when it has no such folder."""
        self.read([f"{folder}/"])  # reads the folder's tree, if not yet read
        return sorted(self._trees.get(folder, {}))

    @property
    def graph(self) -> GraphView:
        """The code graph's node records and edges, read on demand."""
        if self._graph is None:
            self._graph = GraphView(self.read, lambda path: corrupt_blob(path, self.ref))
        return self._graph

    def index(self, name: str) -> IndexView:
        """One index's view of the bundle; a bundle written without that index is refused."""
        view = IndexView(self, name)
        view.section  # noqa: B018 - read now, so a missing index is reported before any answer
        return view

    def close(self) -> None:
        self.reader.close()

    def __enter__(self) -> BundleView:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class IndexView:
    """What an index's `answer` reads: its own folder of the bundle, the graph, and the answer's source."""

    def __init__(self, bundle: BundleView, name: str) -> None:
        self.name = name
        self.bundle = bundle
        self.source = bundle.source
        self._section: dict | None = None

    @property
    def graph(self) -> GraphView:
        return self.bundle.graph

    def corrupt(self, path: str) -> Exception:
        return corrupt_blob(f"{self.name}/{path}")

    @property
    def memo(self) -> dict:
        """The index's own store of decoded blobs, for as long as the bundle stays pinned (a warm server's view
        answers many questions; a pinned bundle never changes, so nothing in it goes stale)."""
        return self.bundle._memos.setdefault(self.name, {})

    def read(self, paths: Sequence[str]) -> dict[str, bytes]:
        """Blobs by path inside this index's folder; absent ones are left out."""
        prefix = self.name + "/"
        found = self.bundle.read([prefix + p for p in paths])
        return {p[len(prefix):]: blob for p, blob in found.items()}

    def read_json(self, path: str) -> object:
        return self.bundle.read_json(f"{self.name}/{path}")

    @property
    def section(self) -> dict:
        """The index's manifest section (its `meta.json`)."""
        if self._section is None:
            path = f"{self.name}/{INDEX_META}"
            if not self.bundle.read([path]) and self.bundle.reader.read([self.bundle.tree])[0] is not None:
                raise BundleFormatError(
                    f"the bundle at '{self.bundle.ref}' has no '{self.name}' index",
                    hint="run 'git route build' to rebuild it with this gitroute",
                )
            value = self.bundle.read_json(path)  # a tree that is gone is a damaged bundle
            if not isinstance(value, dict):
                raise corrupt_blob(path, self.bundle.ref)
            self._section = value
        return self._section
