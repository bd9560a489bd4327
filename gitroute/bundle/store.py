"""Opening a bundle for answering: pin its commit once, check its format, read blobs by path.

The format version and the source commit are trailers of the bundle commit's message, so an
answer learns both from the ref lookup itself and never reads the (repository-sized) manifest.
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from gitroute.bundle.graph import GraphView
from gitroute.bundle.layout import BUNDLE_REF, FORMAT_VERSION, GRAPH_NODES, GRAPH_PAGES, INDEX_META, MANIFEST
from gitroute.bundle.validate import (
    BLOB_CEILINGS,
    BadValue,
    blob_ceiling,
    blob_kind,
    check_bundle_commit,
    check_id_length,
    check_manifest,
    load_blob,
)
from gitroute.errors import BundleDamaged, BundleFormatError, BundleNotFound
from gitroute.git.catfile import ObjectReader, ObjectTooLarge, ahead_behind, current_branch, ref_target
from gitroute.model import Source


def corrupt_blob(path: str, ref: str = BUNDLE_REF) -> BundleDamaged:
    return BundleDamaged(ref, f"'{path}' is unreadable")


# Tree entry modes (as a raw tree spells them) of what a bundle holds: its folders and its blobs.
TREE_MODE = b"40000"
BLOB_MODES = (b"100644", b"100755")
_MODE_NAMES = {b"40000": "folder", b"120000": "symbolic link", b"160000": "gitlink"}


def parse_tree(data: bytes, id_length: int = 40) -> dict[str, tuple[bytes, str]]:
    """name -> (mode, object id) from a raw tree object (`<mode> <name>\\0<binary id>` entries).

    Raises BadValue on a malformed tree (git checks trees it makes, not every tree a fetch brings).
    """
    size = id_length // 2
    entries: dict[str, tuple[bytes, str]] = {}
    pos = 0
    try:
        while pos < len(data):
            space = data.index(b" ", pos)
            nul = data.index(b"\0", space)
            if nul + 1 + size > len(data):
                raise ValueError("short entry")
            name = data[space + 1:nul].decode("utf-8", "surrogateescape")
            entries[name] = (data[pos:space], data[nul + 1:nul + 1 + size].hex())
            pos = nul + 1 + size
    except ValueError as err:
        raise BadValue("one of its trees is malformed") from err
    return entries


class Tree:
    """A raw tree object's entries by name, as `parse_tree` reads them, for a bundle folder that may hold thousands
    (a kernel's `graph/nodes`): checked whole and split by one regular expression each (C code, not a loop of
    Python steps per entry), each name's mode and id decoded only when it is looked up.

    Raises BadValue on a malformed tree, exactly where `parse_tree` does."""

    __slots__ = ("_entries",)

    def __init__(self, data: bytes, id_length: int = 40) -> None:
        whole, entry = _tree_patterns(id_length // 2)
        if whole.fullmatch(data) is None:
            raise BadValue("one of its trees is malformed")
        found = entry.findall(data)
        self._entries: dict[bytes, tuple[bytes, bytes, bytes]] = dict(zip([e[1] for e in found], found))

    def get(self, name: str) -> tuple[bytes, str] | None:
        """(mode, object id) of the entry named `name`, None when the tree has none."""
        found = self._entries.get(name.encode("utf-8", "surrogateescape"))
        return None if found is None else (found[0], found[2].hex())

    def __iter__(self) -> Iterator[str]:
        return (name.decode("utf-8", "surrogateescape") for name in self._entries)


_PATTERNS: dict[int, tuple[re.Pattern[bytes], re.Pattern[bytes]]] = {}


def _tree_patterns(size: int) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    """A whole tree, and one entry (mode, name, binary id of `size` bytes): `parse_tree`'s reading of a mode (up to
    the first space), a name (up to the first NUL) and an id."""
    found = _PATTERNS.get(size)
    if found is None:
        found = _PATTERNS[size] = (re.compile(rb"(?:[^ ]* [^\0]*\0.{%d})*" % size, re.S),
                                   re.compile(rb"([^ ]*) ([^\0]*)\0(.{%d})" % size, re.S))
    return found


LAZY_TREE_BYTES = 64 * 1024  # a folder's tree larger than this is searched for the names read, not parsed whole


class LazyTree:
    """A large folder's raw tree, its entries found by name as they are asked for (`get`), parsed whole only when
    listed or when what was found does not look like an entry. A kernel's `graph/nodes` holds about 50,000 blobs,
    of which a question reads a few dozen: parsing every entry in Python was a cold query's largest cost.

    A bundle's large folders hold shards named alike (`00000.bin`, ...): entries of one size, a mode of one
    length, a name of one length. Such a tree (`_columns`: each entry's space and NUL where the first entry has them,
    no space in a mode, no NUL in a name, checked column by column in C) is a table of sorted rows, and a name is
    found by bisection; any other is searched for its name (`bytes.find`, a scan of the tree a look-up)."""

    __slots__ = ("data", "id_length", "parsed", "rows")

    def __init__(self, data: bytes, id_length: int) -> None:
        self.data, self.id_length = data, id_length
        self.parsed: Tree | None = None
        self.rows: tuple[int, int, int, int] | None | bool = False  # (entry size, name's start, length, count)

    def get(self, name: str, default: None = None) -> tuple[bytes, str] | None:
        """(mode, object id) of the entry `name`; raises BadValue when the tree is malformed where it was looked."""
        if self.parsed is not None:
            return self.parsed.get(name)
        if self.rows is False:
            self.rows = _columns(self.data, self.id_length // 2)
        if self.rows is not None:
            return self._bisect(name.encode("utf-8", "surrogateescape"), *self.rows)  # type: ignore[misc]
        data, size = self.data, self.id_length // 2
        needle = b" " + name.encode("utf-8", "surrogateescape") + b"\0"
        at = data.find(needle)
        if at < 0:
            return None
        end = at + len(needle)
        mode = data[at - 6:at] if data[at - 6:at] in BLOB_MODES else data[at - 5:at]
        after = end + size  # git sorts a tree's names: the same name twice would be the next entry
        if (mode not in BLOB_MODES and mode != TREE_MODE) or after > len(data) or \
                data.startswith(needle, data.find(b" ", after, after + 8)):  # not plainly one entry: read it whole
            return self._whole().get(name)
        return mode, data[end:end + size].hex()

    def _bisect(self, name: bytes, size: int, start: int, length: int, count: int) -> tuple[bytes, str] | None:
        """The row named `name` of a tree of rows (`_columns`), by bisection over its sorted names. Rows out of
        order (a forged tree) can only hide a row or find one of the tree's own: what a tree without that row,
        or with that row alone under the name, would answer."""
        if len(name) != length:
            return None
        data = self.data
        low, high = 0, count
        while low < high:
            middle = (low + high) // 2
            at = middle * size + start
            if data[at:at + length] < name:
                low = middle + 1
            else:
                high = middle
        at = low * size
        if low == count or data[at + start:at + start + length] != name:
            return None
        return data[at:at + start - 1], data[at + start + length + 1:at + size].hex()

    def _whole(self) -> Tree:
        if self.parsed is None:
            self.parsed = Tree(self.data, self.id_length)
        return self.parsed

    def __iter__(self):
        return iter(self._whole())


def _columns(data: bytes, id_size: int) -> tuple[int, int, int, int] | None:
    """(entry size, name's start, name's length, entry count) when the raw tree `data` is rows of one size that
    `parse_tree` reads row by row (each row's mode free of spaces and ended by one, its name free of NULs and ended
    by one, then `id_size` bytes of id); None when it is not. Checked a column at a time: a strided slice is copied
    in C, so a kernel's 48,000-row tree is checked in about a millisecond where a pass in Python took tens."""
    space = data.find(b" ", 0, 16)
    nul = data.find(b"\0", space + 1) if space > 0 else -1
    if nul < 0:
        return None
    size = nul + 1 + id_size
    count, rest = divmod(len(data), size)
    if rest or not count:
        return None
    for column in range(nul + 1):
        values = data[column::size]
        if column == space or column == nul:
            if values.count(values[:1]) != count:
                return None
        elif (b" " if column < space else b"\0") in values:
            return None
    return size, space + 1, nul - space - 1, count


def read_tree(data: bytes, id_length: int) -> Tree | LazyTree:
    """A folder's entries: read whole (a small tree: `Tree`), or looked up by name as they are read (`LazyTree`)."""
    return Tree(data, id_length) if len(data) <= LAZY_TREE_BYTES else LazyTree(data, id_length)


def mode_name(mode: bytes) -> str:
    return "blob" if mode in BLOB_MODES else _MODE_NAMES.get(mode, "tree entry of an unknown mode")


# What an index's answer meets in a value of the wrong shape that no check of the floor caught (a record with a
# field short, a count that is a list): the backstop `BundleView.shape_damage` names them damage.
SHAPE_ERRORS = (ValueError, TypeError, KeyError, IndexError, AttributeError, ZeroDivisionError, OverflowError,
                RecursionError)


class _Ahead:
    """Objects asked for before any answer reads them, in a `git cat-file` of their own that a thread drains: git
    inflates them on the other core while this process works on the question (a kernel's sentence: the meaning
    index's 3.8 MB of node lengths and the graph's folder trees, 60-80 ms of waiting on git a cold question).

    `take(spec)` hands an object over once, waiting for it if git is still at it; None when it was not asked for, is
    missing, or the reads stopped (an object over its ceiling, git gone): the caller then reads it as it would
    have, and meets and reports whatever is wrong with it there."""

    def __init__(self, cwd: str, specs: list[str], most: list[int | None]) -> None:
        import threading

        self.asked = set(specs)
        self.found: dict[str, tuple[str, str, bytes] | None] = {}
        self.stopped = False
        self.ready = threading.Condition()
        self.thread = threading.Thread(target=self._run, args=(cwd, specs, most), daemon=True)
        self.thread.start()

    def _run(self, cwd: str, specs: list[str], most: list[int | None]) -> None:
        reader = ObjectReader(cwd)
        try:
            for spec, limit in zip(specs, most):  # one at a time: each is handed over as soon as it is read
                obj = reader.read([spec], [limit])[0]
                with self.ready:
                    self.found[spec] = obj
                    self.ready.notify_all()
        except Exception:  # noqa: BLE001 - the usual read meets it again, and says what it is
            pass
        finally:
            with self.ready:
                self.stopped = True
                self.ready.notify_all()
            reader.close()

    def take(self, spec: str) -> tuple[str, str, bytes] | None:
        if spec not in self.asked:
            return None
        self.asked.discard(spec)
        with self.ready:
            while spec not in self.found and not self.stopped:
                self.ready.wait()
            return self.found.pop(spec, None)

    def close(self) -> None:
        self.thread.join()  # a few objects at most: its reader closes as it ends


class BundleView:
    """A bundle pinned to one commit: every read names that commit, so a concurrent build cannot tear an answer."""

    graph_chunks: int | None = None  # decoded graph shards kept (`GraphView`); None: all (a one-shot answer)

    def __init__(self, cwd: str = ".", ref: str = BUNDLE_REF, *, bounded: bool = True) -> None:
        self.ref = ref
        self.bounded = bounded  # whether blobs have their kind's ceiling (the large bundle's are checked by hash)
        self._trees: dict[str, Tree | LazyTree | dict[str, tuple[bytes, str]]] = {}  # folder -> its entries
        self._sections: dict[str, dict | None] = {}  # index name -> its meta.json, None when it has none
        self._manifest: dict | None = None
        self._graph: GraphView | None = None
        self._memos: dict[str, dict] = {}  # index name -> what its answers decoded, kept for the next answer
        self._ahead: _Ahead | None = None  # objects asked for before their read (`read_ahead`)
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
            raise BundleDamaged(self.ref, f"'{path}' is missing")
        return self.parse(path, blob)

    def parse(self, path: str, blob: bytes) -> object:
        """A blob's JSON (`validate.load_blob`); one that is not JSON, or nested too deeply, is a damaged bundle."""
        try:
            return load_blob(blob)
        except BadValue as err:
            raise BundleDamaged(self.ref, f"'{path}' {err}") from err

    def load(self, paths: Sequence[str]) -> dict[str, object]:
        """The JSON of the blobs at these paths, those the bundle holds; each parsed as `parse` does."""
        return {path: self.parse(path, blob) for path, blob in self.read(paths).items()}

    @property
    def manifest(self) -> dict:
        """The whole build manifest (`build.json`): what status shows; answers never need it."""
        if self._manifest is None:
            try:
                self._manifest = check_manifest(self.read_json(MANIFEST))
            except BadValue as err:
                raise BundleDamaged(self.ref, str(err)) from err
        return self._manifest

    def section(self, name: str) -> dict | None:
        """An index's manifest section (its `meta.json`), None when the bundle has no such index."""
        if name not in self._sections:
            path = f"{name}/{INDEX_META}"
            blob = self.read([path]).get(path)
            value = None if blob is None else self.parse(path, blob)
            if blob is not None and not isinstance(value, dict):
                raise corrupt_blob(path, self.ref)
            self._sections[name] = value  # type: ignore[assignment]  # a dict or None, checked above
        return self._sections[name]

    def read(self, paths: Sequence[str]) -> dict[str, bytes]:
        """Blobs by bundle path; a path the bundle does not hold is left out.

        Blobs are asked for by id, from their folder's tree read once: git resolving a
        `<commit>:<path>` walks the trees again for every blob, about three times the cost.
        A bundle holding something else where a folder or a blob belongs (a gitlink, a blob for a
        folder), an entry whose object is missing, or a blob larger than its kind's ceiling
        (`validate.blob_ceiling`) is a damaged bundle.
        """
        folders = sorted({p.rpartition("/")[0] for p in paths} - self._trees.keys())
        if folders:
            specs = [f"{self.commit}:{f}" for f in folders]
            for folder, obj in zip(folders, self._objects(specs)):
                if obj is not None and obj[1] == "tree":
                    try:
                        self._trees[folder] = read_tree(obj[2], self.id_length)
                    except BadValue as err:
                        raise BundleDamaged(self.ref, str(err)) from err
                else:
                    self._trees[folder] = self._absent_folder(folder)
        wanted: list[tuple[str, str]] = []
        for path in paths:
            folder, _, name = path.rpartition("/")
            try:
                entry = self._trees[folder].get(name)
            except BadValue as err:  # a large tree, parsed whole only now (`LazyTree`)
                raise BundleDamaged(self.ref, str(err)) from err
            if entry is None:
                continue
            if entry[0] not in BLOB_MODES:
                raise BundleDamaged(self.ref, f"'{path}' is a {mode_name(entry[0])}, not a blob")
            wanted.append((path, entry[1]))
        most = [self.ceiling(path) for path, _ in wanted] if self.bounded else None
        try:
            objects = self._objects([oid for _, oid in wanted], most)
        except ObjectTooLarge as err:
            path = wanted[err.index][0]
            raise BundleDamaged(self.ref, f"'{path}' is {err.size:,} bytes, more than a bundle of its counts "
                                          f"holds ({most[err.index]:,})") from err  # type: ignore[index]
        found: dict[str, bytes] = {}
        for (path, _), obj in zip(wanted, objects):
            if obj is None or obj[1] != "blob":
                raise BundleDamaged(self.ref, f"'{path}' is missing")
            found[path] = obj[2]
        return found

    def _objects(self, specs: list[str], most: list[int | None] | None = None) -> list[tuple[str, str, bytes] | None]:
        """`ObjectReader.read` of these specs, those read ahead (`read_ahead`) taken from there."""
        ahead = self._ahead
        if ahead is None or ahead.asked.isdisjoint(specs):
            return self.reader.read(specs, most)
        found = [ahead.take(spec) for spec in specs]
        rest = [n for n, obj in enumerate(found) if obj is None]
        if rest:
            try:
                objects = self.reader.read([specs[n] for n in rest], [most[n] for n in rest] if most else None)
            except ObjectTooLarge as err:  # its place among `specs`, as a caller knows it
                raise ObjectTooLarge(rest[err.index], err.size) from err
            for n, obj in zip(rest, objects):
                found[n] = obj
        return found

    def read_ahead(self, paths: Sequence[str] = (), folders: Sequence[str] = ()) -> None:
        """Ask git now for these blobs (of folders whose tree is read already) and these folders' trees, in a `git
        cat-file` of their own (`_Ahead`), for the reads that will want them; once a view, and never for what it
        has read. A blob keeps its ceiling."""
        if self._ahead is not None:
            return
        specs = [f"{self.commit}:{f}" for f in folders if f not in self._trees]
        most: list[int | None] = [None] * len(specs)
        for path in paths:
            folder, _, name = path.rpartition("/")
            tree = self._trees.get(folder)
            try:
                entry = tree.get(name) if tree is not None else None
            except BadValue:
                continue  # its read reports it
            if entry is not None and entry[0] in BLOB_MODES:
                specs.append(entry[1])
                most.append(self.ceiling(path) if self.bounded else None)
        if specs:
            self._ahead = _Ahead(self.reader.cwd, specs, most)

    def _absent_folder(self, folder: str) -> dict:
        """No folder's tree at `folder`: none when the bundle has no such entry; damaged when it has another
        kind of entry there (a gitlink, a blob), or a folder whose tree is missing."""
        if not folder:
            raise BundleDamaged(self.ref, "its tree is missing")
        parent, _, name = folder.rpartition("/")
        if parent not in self._trees:
            self.read([f"{parent}/"])  # the parent's tree, or the damage above it
        try:
            entry = self._trees[parent].get(name)
        except BadValue as err:
            raise BundleDamaged(self.ref, str(err)) from err
        if entry is None:
            return {}
        if entry[0] == TREE_MODE:
            raise BundleDamaged(self.ref, f"'{folder}' is missing")
        raise BundleDamaged(self.ref, f"'{folder}' is a {mode_name(entry[0])}, not a folder")

    def ceiling(self, path: str) -> int | None:
        """The most bytes the blob at `path` may have: its kind's ceiling, from the counts of the index's
        section that bounds that kind (`validate.BLOB_CEILINGS`)."""
        kind = BLOB_CEILINGS.get(blob_kind(path))
        section = self.section(kind[0]) if kind is not None else None
        counts = section.get("counts") if section is not None else None
        return blob_ceiling(path, counts if isinstance(counts, dict) else None)

    def listing(self, folder: str) -> list[str]:
        """The names in one folder of the bundle, sorted; none when it has no such folder."""
        self.read([f"{folder}/"])  # reads the folder's tree, if not yet read
        return sorted(self._trees.get(folder, {}))

    def source_files(self, folder: str) -> list[str]:
        """The paths of the files right inside a folder of the source commit (its tree, read raw; "" is the top);
        none when it has no such folder."""
        found = self.reader.read([f"{self.source.commit}:{folder}"])[0] if "\n" not in folder else None
        if not found or found[1] != "tree":
            return []
        oid_bytes = len(found[0]) // 2  # 20 for SHA-1, 32 for SHA-256
        data, files, at = found[2], [], 0
        while at < len(data):
            space = data.find(b" ", at)
            nul = data.find(b"\0", space)
            if space < 0 or nul < 0:
                break
            if data[at:space] in (b"100644", b"100755"):
                name = data[space + 1:nul].decode("utf-8", "surrogateescape")
                files.append(f"{folder}/{name}" if folder else name)
            at = nul + 1 + oid_bytes
        return files

    def source_blob(self, path: str, most: int) -> bytes | None:
        """The bytes of the file at `path` in the source commit; None when it has none, or more than `most` bytes."""
        if not path or "\n" in path or path.startswith("-"):
            return None
        try:
            found = self.reader.read([f"{self.source.commit}:{path}"], [most])[0]
        except ObjectTooLarge:
            return None
        return found[2] if found and found[1] == "blob" else None

    @property
    def graph(self) -> GraphView:
        """The code graph's node records and edges, read on demand."""
        if self._graph is None:
            self._graph = GraphView(self.read, lambda path: corrupt_blob(path, self.ref), self.graph_chunks)
        return self._graph

    def node_records(self) -> dict[int, list]:
        """Every node record of the graph, by id: its pages in `graph/nodes` and `graph/pages` (a warm server
        decoding ahead, the benches that read every node)."""
        return self.graph.bucket_records([f"{folder}/{name}" for folder in (GRAPH_NODES, GRAPH_PAGES)
                                          for name in self.listing(folder)])

    def index(self, name: str) -> IndexView:
        """One index's view of the bundle; a bundle written without that index is refused."""
        view = IndexView(self, name)
        view.section  # noqa: B018 - read now, so a missing index is reported before any answer
        return view

    def shape_damage(self, err: BaseException) -> BundleDamaged | None:
        """The backstop behind the floor's checks: an error of a value's shape (SHAPE_ERRORS) met while answering
        from this bundle, as the damage it is, naming its origin; None when it is no such error, or when this
        repository's own build wrote the bundle with this very code (then it is a bug, and stays one)."""
        if not isinstance(err, SHAPE_ERRORS):
            return None
        if isinstance(err, BadValue):  # a check of the floor's that a caller let through: its own words
            return BundleDamaged(self.ref, str(err))
        from gitroute.bundle.provenance import is_own_bundle
        from gitroute.git.env import run_git

        found = run_git(["rev-parse", "--path-format=absolute", "--git-common-dir"], self.reader.cwd)
        common = found.stdout.decode("utf-8", "surrogateescape").strip()
        if found.returncode == 0 and is_own_bundle(common, self.commit):
            return None
        # The error's type names its origin; never its text, which may quote the forged value itself.
        return BundleDamaged(self.ref, f"a value read from it is not of the shape its index writes "
                                       f"({type(err).__name__})")

    def forget_decoded(self) -> None:
        """Drop what the indexes' answers decoded and kept (their memos); the blobs and graph shards read stay."""
        self._memos.clear()

    def close(self) -> None:
        if self._ahead is not None:
            self._ahead.close()
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

    def load(self, paths: Sequence[str]) -> dict[str, object]:
        """The JSON of the blobs at these paths inside this index's folder (absent ones left out), each parsed
        by the floor (`BundleView.parse`): what is not JSON, or nested too deeply, is a damaged bundle."""
        prefix = self.name + "/"
        return {p[len(prefix):]: value for p, value in self.bundle.load([prefix + p for p in paths]).items()}

    @property
    def section(self) -> dict:
        """The index's manifest section (its `meta.json`)."""
        if self._section is None:
            section = self.bundle.section(self.name)
            if section is None:
                raise BundleFormatError(
                    f"the bundle at '{self.bundle.ref}' has no '{self.name}' index",
                    hint="run 'git route build' to rebuild it with this gitroute",
                )
            self._section = section
        return self._section
