"""The impact index: what a change to a file or symbol may break, by walking the graph's edges in reverse.

The build stores a name table (symbol names, qualified names, paths and base names -> node ids),
sharded by hash, and the snapshot's contracts (files whose blob is identical in two or more places,
plus configured copies that drift on purpose) with the files that read them. The answer resolves X,
walks calls, imports, references and inheritance into it to a depth, groups what it reaches by file,
and ends with a note on what a static walk cannot see.
"""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping, Sequence
from operator import itemgetter

from gitroute.bundle.layout import dump_json
from gitroute.bundle.tables import Ints, RecordTable, StringRecords, Strings, StringShard, node_gaps
from gitroute.indexes.impact.targets import TYPE_KINDS, one_symbol, resolve_target, without_renaming_macros
from gitroute.model import Answer, Row
from gitroute.rank import built_copies, is_secondary, secondary_but_dist, the_sources

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on the query path
if TYPE_CHECKING:
    from gitroute.bundle.store import IndexView
    from gitroute.indexes import BuildInputs, IndexBuild

NAME = "impact"
NEEDS: tuple[str, ...] = ()
EDGES = False  # builds from the graph's nodes only: may start while edges are resolved
QUESTION_TYPES: dict[str, dict] = {"impact": {}}

DEFAULT_DEPTH = 2
MAX_DEPTH = 5
MAX_CANDIDATES = 20  # an ambiguous X lists at most this many candidates
MAX_FRONTIER = 5000  # nodes walked per depth: a hub's callers beyond this are counted, not walked
MIN_CONTRACT_BYTES = 64  # smaller identical files (empty `__init__.py`, one-line stubs) are no contract
MAX_READERS = 50  # files listed as reading one contract
WALKED_KINDS = frozenset(("calls", "imports", "references", "inherits"))
# How much each resolution route is trusted when ranking.
CONFIDENCE = {"scope": 1.0, "import": 1.0, "structure": 1.0, "package": 0.8, "definitions": 0.8, "unique": 0.7,
              "text": 0.5, "ambiguous": 0.3}
SECTIONS = ("code", "tests", "examples", "docs")
NAMED_BONUS = 5.0  # a file that names the type itself, over one that reached only a method of the same name
FOOTER = ("lower bound: static edges only; dynamic dispatch, reflection, string-built names (getattr, "
          "importlib, registries) and calls on objects of unknown type that matched no unique name are not seen")

_TEST_PARTS = frozenset(("test", "tests", "testing", "__tests__", "spec", "specs", "e2e"))
_EXAMPLE_PARTS = frozenset(("example", "examples", "sample", "samples", "demo", "demos"))
_DOC_PARTS = frozenset(("doc", "docs", "documentation"))
_DOC_EXTENSIONS = (".md", ".rst", ".txt", ".adoc")

class _NameRecords(StringRecords):
    """`NAMES`' codec: a key's records are node ids ([node id] each), stored as their count and `node_gaps`. What
    a node is (its path, name, kind, line and owner) is read from the graph's node records, which an answer reads
    for the nodes it walks anyway: spelled here again they were two thirds of the table (docs/decisions/0025, its
    second amendment). A record names no file: a file's records are told by its ids, the span of node ids its
    record gives (`belongs`)."""

    def __init__(self) -> None:
        super().__init__(owner=None, order=itemgetter(0), weigh=lambda records: 1)

    def to_ints(self, key: str, records: list, strings: Strings) -> list[int]:
        return [len(records), *node_gaps(list(map(itemgetter(0), records)))]

    def from_ints(self, key: str, ints: Ints, shard: StringShard) -> list:
        return [[node] for node in ints.nodes(ints.one())]

    def belongs(self, gone: Mapping[str, object]) -> Callable[[list], bool]:
        """A record is a gone file's when its node id is in that file's span at the last build (its record:
        blob, first node id, node count; a file's nodes have consecutive ids)."""
        spans = []
        for record in gone.values():
            if record is None:  # a file new in this build: none of its records are stored
                continue
            if not (isinstance(record, (tuple, list)) and len(record) == 3 and type(record[1]) is int
                    and type(record[2]) is int):
                raise ValueError("a file's last record is not (blob, first node id, node count)")
            spans.append((record[1], record[1] + record[2]))
        spans.sort()
        starts = [start for start, _ in spans]

        def belongs(record: list) -> bool:
            at = bisect_right(starts, record[0]) - 1
            return at >= 0 and record[0] < spans[at][1]

        return belongs


# Name key (lowercase) -> [node id] records in node id order. A node is under its name (and a file under its path
# too); `Owner.name` is found under `name`, by the node's owner (a key per method was two fifths of the table:
# docs/decisions/0025). Sized by keys, about 1,024 a shard: a one-file change rewrites small blobs.
NAMES = RecordTable(NAME, "names", per_shard=1024, codec=_NameRecords())


def section_of(path: str) -> str:
    """Where a file sits: code, or the tests, examples or docs around it (shown apart from code)."""
    lower = path.lower()
    parts = lower.split("/")
    base = parts[-1]
    if lower.endswith(_DOC_EXTENSIONS) or any(p in _DOC_PARTS for p in parts[:-1]):
        return "docs"
    if (any(p in _TEST_PARTS for p in parts[:-1]) or base.startswith("test_") or base.startswith("tests.")
            or base.endswith(("_test.go", "_test.py", "_tests.py", "_spec.rb")) or ".test." in base
            or ".spec." in base or base == "conftest.py"):
        return "tests"
    if any(p in _EXAMPLE_PARTS for p in parts[:-1]):
        return "examples"
    return "code"


# --- build -----------------------------------------------------------------------------------


def build(inputs: BuildInputs) -> IndexBuild:
    """The name table and the contracts; `output` hands the contracts to later indexes (wiring)."""
    from gitroute.indexes import IndexBuild

    memo = inputs.memo.table(NAME) if inputs.memo is not None else None
    blobs, count, shards, kept = build_name_table(inputs.graph.nodes, memo, {f.path: f.blob for f in inputs.files},
                                                  inputs.previous)
    contracts = find_contracts(inputs.files, inputs.read, getattr(inputs.config, "contract_drift", ()), memo)
    blobs["contracts.json"] = dump_json(contracts)
    copies = sum(len(c["copies"]) for c in contracts)
    section = {"counts": {"names": count, "contracts": len(contracts), "contract_copies": copies},
               "names_shards": shards, "depth": DEFAULT_DEPTH}
    return IndexBuild(blobs, section, (), contracts, kept)


def build_name_table(nodes: Sequence, memo=None, file_blobs: dict[str, str] | None = None, stored=None,
                     ) -> tuple[dict[str, bytes], int, int, dict[str, str]]:
    """The name table's blobs, its key count, its shard count, and the shards kept by id (path -> blob id).

    With a build memo, each file's blob and first node id, and `stored` (`bundle.writer.StoredBlobs`),
    the table patches the shards that hold a key of a file whose record changed (`bundle.tables.RecordTable`:
    a record names its file)."""
    blobs_of = file_blobs or {}
    file_runs = getattr(nodes, "file_runs", None)
    if file_runs is not None:  # a large graph's `NodeTable`: a file's nodes made as its names are added, none held
        runs = {path: (start, end) for path, start, end in file_runs()}
        ids = nodes.ids  # type: ignore[attr-defined]
        records = {path: (blobs_of.get(path, ""), ids[start], end - start) for path, (start, end) in runs.items()}
        table = NAMES.build(records, lambda path, into: _add_names(into, nodes[slice(*runs[path])]), memo=memo,
                            stored=stored)
        return table.blobs, table.keys, table.shards, table.kept
    files: dict[str, list] = {}  # path -> its nodes
    for node in nodes:
        files.setdefault(node.path, []).append(node)
    records = {path: (blobs_of.get(path, ""), group[0].id, len(group)) for path, group in files.items()}
    table = NAMES.build(records, lambda path, into: _add_names(into, files[path]), memo=memo, stored=stored)
    return table.blobs, table.keys, table.shards, table.kept


def _node_keys(node) -> list[str]:
    """The keys a node is stored under: its name, and a file's path too (`Owner.name` is read under `name`)."""
    keys = [node.name.lower()]
    # A file also answers to its path (its name is the base name: the same key for a top-level file).
    if node.kind == "file" and node.path != node.name:
        keys.append(node.path.lower())
    return keys


def _add_names(table: dict[str, list[list]], group: Sequence) -> None:
    for node in group:
        record = [node.id]
        for key in _node_keys(node):
            table.setdefault(key, []).append(record)


def find_contracts(files: Sequence, read, drift: Sequence[str] = (), memo=None) -> list[dict]:
    """Files whose blob is identical in two or more places (one contract, several copies), the copies
    configured to drift on purpose, copies that drifted without being configured, and the readers.

    A copy "drifted" when it has a contract copy's base name and sits at the same path inside another
    root (a submodule or vendored folder: the same last two path parts), with other content.
    """
    by_blob: dict[str, list[str]] = {}
    sizes: dict[str, int] = {}
    blob_of: dict[str, str] = {}
    for f in files:
        by_blob.setdefault(f.blob, []).append(f.path)
        blob_of[f.path] = f.blob
    groups = []
    for blob, paths in by_blob.items():
        if len(paths) < 2:
            continue
        size = sizes.get(blob)
        if size is None:
            size = sizes[blob] = len(read(paths[0]))
        if size < MIN_CONTRACT_BYTES:
            continue
        groups.append(sorted(paths))
    drift_set = set(drift)
    by_tail: dict[str, list[str]] = {}
    for path in blob_of:
        by_tail.setdefault(_tail(path), []).append(path)
    contracts: list[dict] = []
    claimed: set[str] = set()
    for paths in sorted(groups):
        canonical = min(paths, key=lambda p: (p.count("/"), p))
        drifted = sorted(
            p for tail in {_tail(p) for p in paths} for p in by_tail.get(tail, ())
            if blob_of[p] != blob_of[canonical] and p not in drift_set
        )
        on_purpose = sorted(p for p in drift_set if p in blob_of and p not in paths
                            and p.rsplit("/", 1)[-1] == canonical.rsplit("/", 1)[-1])
        contracts.append({"canonical": canonical, "blob": blob_of[canonical], "copies": paths,
                          "drifted": drifted, "drift_on_purpose": on_purpose, "readers": []})
        claimed.update(paths)
    # Configured copies with no identical twin still form a contract with their same-named files.
    lonely = sorted(p for p in drift_set if p in blob_of and p not in claimed
                    and not any(p in c["drift_on_purpose"] for c in contracts))
    by_base: dict[str, list[str]] = {}
    for p in lonely:
        by_base.setdefault(p.rsplit("/", 1)[-1], []).append(p)
    for _base, paths in sorted(by_base.items()):
        canonical = min(paths, key=lambda p: (p.count("/"), p))
        contracts.append({"canonical": canonical, "blob": blob_of[canonical], "copies": [canonical],
                          "drifted": [], "drift_on_purpose": sorted(p for p in paths if p != canonical),
                          "readers": []})
    _add_readers(contracts, files, read, memo)
    return contracts


def _tail(path: str) -> str:
    return "/".join(path.split("/")[-2:])


class _GroupSearch:
    """Which of the contract names' groups (`.py`, `.json`, or a whole name without an extension) a text holds, as
    `{group for group in groups if group in data}` tells, with one search of the text for every extension: a dot and
    then one of theirs, found by the regular expression engine's scan for the dot (a `find` an extension was 0.17 s
    of django's build: its names have ten). An extension the next is a longer spelling of (`.p`, `.py`) is looked
    for alone: a match of the longer one hides it."""

    def __init__(self, groups: set[bytes]) -> None:
        import re

        dotted = sorted((g for g in groups if g.startswith(b".") and b"." not in g[1:]), key=lambda g: (-len(g), g))
        self.pattern = re.compile(rb"\.(?:" + b"|".join(re.escape(g[1:]) for g in dotted) + rb")") if dotted else None
        self.alone = sorted(g for g in groups if g not in dotted or any(o != g and o.startswith(g) for o in dotted))

    def present(self, data: bytes) -> set[bytes]:
        found = set(self.pattern.findall(data)) if self.pattern is not None else set()
        found.update(group for group in self.alone if group in data)
        return found


def _add_readers(contracts: list[dict], files: Sequence, read, memo=None) -> None:
    """Files that name a contract's path or base name (code, configuration, workflows), copies excluded.

    With a build memo (`bundle.memo.MemoTable`), the names a blob holds are taken from an earlier build
    that searched the same blob for the same names."""
    if not contracts:
        return
    import re

    from gitroute.bundle.memo import digest_values

    names: dict[bytes, list[int]] = {}
    for index, contract in enumerate(contracts):
        for path in {contract["canonical"], *contract["copies"]}:
            names.setdefault(path.rsplit("/", 1)[-1].encode("utf-8", "surrogateescape"), []).append(index)
    bounded = {name: re.compile(rb"(?<![\w.-])" + re.escape(name) + rb"(?![\w-])") for name in names}
    # Names grouped by extension (`.py`, `.json`): a file without the extension holds none of its names,
    # so one search stands for the group's (contract names share a few extensions).
    group_of = {name: name[name.rfind(b"."):] if name.rfind(b".") > 0 else name for name in names}
    groups = _GroupSearch(set(group_of.values()))
    readers: dict[int, set[str]] = {}
    searched = digest_values(sorted(names)).hex()  # the names every blob is searched for
    for f in files:
        # Code and configuration read a contract; prose only mentions it (and the committed wiring block
        # naming every copy must not become a reader of each, or it would never be current).
        if f.path.endswith(_DOC_EXTENSIONS) or f.lang in ("markdown", "rst") or (
                f.lang is None and not f.path.endswith((".yml", ".yaml", ".json", ".toml", ".cfg", ".ini"))):
            continue
        key = f"{f.blob}\0{searched}"
        found = memo.get(key) if memo is not None else None
        if found is None:
            try:
                data = read(f.path)
            except Exception:  # a file the snapshot cannot give back is not a reader we can show
                continue
            present = groups.present(data)
            # A substring test first (C speed); the word-bounded pattern only where the name occurs.
            found = [name for name in names
                     if group_of[name] in present and name in data and bounded[name].search(data)]
        if memo is not None:
            memo.put(key, found)
        for name in found:
            for index in names[name]:
                readers.setdefault(index, set()).add(f.path)
    for index, paths in readers.items():
        contract = contracts[index]
        own = {*contract["copies"], *contract["drifted"], *contract["drift_on_purpose"]}
        contract["readers"] = sorted(p for p in paths if p not in own)[:MAX_READERS]


# --- answer ----------------------------------------------------------------------------------


def answer(view: IndexView, question: str, *, limit: int = 10, explain: bool = False, depth: int = DEFAULT_DEPTH,
           ambiguous: bool = False, rows: int | None = None,
           file_starts: Callable[[], Sequence[int] | None] | None = None, first_section: str | None = None,
           **_options: object) -> Answer:
    """Files and symbols a change to `question` (a path, a symbol name or `path:symbol`) may break.

    `rows`: only the answer's first rows are wanted (`ask` reads no more of a route's), and as many more as the
    contract rows repeat one another; the notes are the whole walk's still. With `file_starts` too (the first
    node id of every file of the graph, ascending: the file of a node is a bisection), the walk counts what it
    reaches by file without reading any node's record, and reads those of the files its first rows need
    (`rank_kept_rows`). `first_section`: that section's rows first (`ask`'s "which tests cover X": its tests), the
    whole walk ranked."""
    if first_section is not None:
        rows = None
    target = question.strip()
    depth = max(1, min(int(depth), MAX_DEPTH))
    candidates = resolve_target(target, lambda keys: _read_names(view, keys))
    if not candidates:
        return Answer("no_match", view.source, (), (f"no file or symbol named '{target}' in the bundle",
                                                     _footer(0, ambiguous)),
                      {"footer": FOOTER, "ambiguous_edges": {"left_out": 0, "included": 0}})
    distinct = _distinct_targets(candidates)
    others = len(distinct) - 1
    every = distinct
    distinct = _meant(distinct)
    # A code file that holds a copy of the name not walked is a bundle or a vendored copy: its uses are the copy's
    copies = {r[1] for r in every if section_of(r[1]) == "code"} - {r[1] for r in distinct}
    together = len(distinct) > 1 and one_symbol(distinct)
    if together:
        others = 0
    elif len(distinct) > 1:
        listed = tuple(Row(r[1], r[4], r[2], r[3], 0.0, (), (("section", "candidates"), ("status", "candidate")))
                       for r in distinct[:MAX_CANDIDATES])
        note = (f"'{target}' names {len(distinct)} files or symbols: ask again with one of them as "
                "'path:symbol' or a path")
        return Answer("routed", view.source, listed, (note, _footer(0, ambiguous)),
                      {"ambiguous_target": True, "footer": FOOTER})
    start = distinct[0] if not together else min(distinct, key=lambda r: (r[3] not in TYPE_KINDS, r[3] == "method"))
    starts = [r[0] for r in distinct] if together else [start[0]]
    files = file_starts() if rows is not None and file_starts is not None else None
    contract_rows = _contract_rows(view, start[1])
    if files:
        walk = walk_impact(view.graph, starts, start[3], depth=depth, include_ambiguous=ambiguous, files=files,
                           every_definition=together)
        # A contract row that repeats an earlier one is a row more the caller reads past (`ask`'s merge skips it).
        rows = (rows or 0) + len(contract_rows[0]) - len({(r.path, r.line, r.name) for r in contract_rows[0]})
        ranked = rank_kept_rows(view.graph, walk.reached, limit=limit + len(copies), explain=explain,
                                keep=rows - len(contract_rows[0]) + len(copies))
    else:
        walk = walk_impact(view.graph, starts, start[3], depth=depth, include_ambiguous=ambiguous,
                           every_definition=together)
        ranked = rank_rows(walk.reached, walk.start_paths, limit=limit + len(copies), explain=explain)
    where = ", ".join(dict.fromkeys(r[1] for r in distinct)) if together else start[1]
    notes = [f"impact of {start[3]} '{start[2]}' ({where}), depth {depth}: {walk.edges} edges into "
             f"{len(walk.reached)} files"]
    # A constant read, a class returned or compared: no edge. Not a function: jsoup's `parser` is many fields' name too
    if not walk.reached and (start[3] == "constant" or start[3] in TYPE_KINDS) and not together:
        ranked, said = _value_rows(view, start, limit=limit, explain=explain)
        notes.append(said)
    if together:
        notes.append(f"'{target}' names {len(distinct)} definitions of one symbol (a declaration and its "
                     "definition, a type and its constructors, or one name defined twice in a file): walked together")
    if walk.own_file:
        notes.append(f"every use of '{start[2]}' is in its own file: the rows are its users there")
    if walk.capped:
        notes.append(f"walk capped at {MAX_FRONTIER} nodes per depth: {walk.capped} more were not walked")
    if len(distinct) == 1 and others:
        notes.append(f"'{target}' also names {others} definition{'s' if others != 1 else ''} in tests, docs or "
                     "built or vendored copies, not walked: ask with 'path:symbol' for one of them")
    notes.extend(contract_rows[1])
    notes.append(_footer(walk.ambiguous, ambiguous))
    extra = {"target": {"path": start[1], "name": start[2], "kind": start[3], "line": start[4]},
             "depth": depth, "footer": FOOTER,
             "ambiguous_edges": {"left_out": 0 if ambiguous else walk.ambiguous,
                                 "included": walk.ambiguous if ambiguous else 0}}
    if copies := copies | built_copies([r.path for r in ranked]):  # a minified copy's callers: its source's, again
        ranked = _copies_last(ranked, copies, limit)
    if first_section is not None:
        ranked = sorted(ranked, key=lambda r: dict(r.extra).get("section") != first_section)  # stable
    return Answer("routed", view.source, tuple(contract_rows[0] + ranked)[:rows], tuple(notes), extra)


def _copies_last(ranked: list[Row], copies: set[str], limit: int) -> list[Row]:
    """Each section's rows with the files that hold a copy of the name after the rest (EJS's `ejs.js` at the top
    bundles `lib/`, whose uses its uses are), `limit` a section."""
    sections: dict[object, list[Row]] = {}
    for row in ranked:
        sections.setdefault(dict(row.extra).get("section"), []).append(row)
    return [r for rows in sections.values() for r in sorted(rows, key=lambda r: r.path in copies)[:limit]]


def _value_rows(view: IndexView, start: list, *, limit: int, explain: bool) -> tuple[list[Row], str]:
    """The rows of the files that write a definition's name, when no edge reaches it (`value_uses`), and a note."""
    from gitroute.indexes.impact import value_uses

    node_id, path, name, _kind, line = start
    graph = view.graph
    file_node = _file_node(view, path)
    edges = graph.edges_in([file_node]).get(file_node, []) if file_node is not None else []
    importers = [n.path for n in graph.nodes(sorted({e[1] for e in edges if e[0] == "imports"})).values()]
    files, every = value_uses.files_that_see(path, importers, view.bundle.source_files)

    def spans(where: str) -> list[tuple[int, int, str]]:
        """The symbols of one file as (start, end, label): what its file node defines, and what those contain."""
        file_id = _file_node(view, where)
        inside = _with_contents(graph, {file_id}, 3) if file_id is not None else set()
        return [(n.line, n.end_line, f"{n.owner}.{n.name}" if n.owner else n.name)
                for n in graph.nodes(sorted(inside)).values() if n.kind != "file" and n.id != node_id]

    reached, read = value_uses.text_uses(name, path, line, files,
                                         lambda where: view.bundle.source_blob(where, value_uses.MAX_FILE_BYTES), spans)
    reached = value_uses.own_file_only(reached, path)
    capped = f", the first {len(files)} of {every}" if every > len(files) else ""
    note = (f"no edge reaches '{name}' (a name read as a value is no edge): {len(reached)} of the {read} files read "
            f"that can see it (its own, its folder's, its importers'{capped}) write its name; rows marked "
            f"'{value_uses.TEXT}'")
    return rank_rows(reached, set(), limit=limit, explain=explain), note


def _file_node(view: IndexView, path: str) -> int | None:
    """The node id of the file at `path`, from the name table; None when the graph has no such file."""
    return next((r[0] for r in _read_names(view, [path]).get(path.lower(), ()) if r[3] == "file" and r[1] == path),
                None)


def _footer(ambiguous_edges: int, included: bool) -> str:
    verb = "included (marked)" if included else "left out (use --ambiguous to include them)"
    return f"{FOOTER}; {ambiguous_edges} ambiguous edge{'s' if ambiguous_edges != 1 else ''} {verb}"


def _read_names(view: IndexView, keys: Iterable[str]) -> dict[str, list]:
    """Key (lowercase) -> the [node id, path, name, kind, line] records under it: the nodes it names, or whose
    path it is, and the nodes whose `owner.name` it is (read under each part after a dot), in node id order; what
    each node is, from the graph's node records."""
    shards = view.section.get("names_shards", 1)
    if not isinstance(shards, int) or shards < 1:
        raise view.corrupt("meta.json")
    wanted = {k.lower() for k in keys}
    tails = {key: [key[at + 1:] for at, char in enumerate(key) if char == "." and key[at + 1:]] for key in wanted}
    found = NAMES.read(view.read, wanted.union(*tails.values()), shards, view.corrupt)
    ids = sorted({record[0] for held in found.values() for record in held})
    nodes = view.graph.nodes(ids)
    if len(nodes) != len(ids):
        raise view.corrupt("names")  # a name the graph does not hold
    named: dict[str, list] = {}
    for key in wanted:
        records: dict[int, list] = {}
        for (node_id,) in found.get(key, ()):
            records[node_id] = _name_record(nodes[node_id])
        for tail in tails[key]:
            for (node_id,) in found.get(tail, ()):
                node = nodes[node_id]
                if node.owner and f"{node.owner}.{node.name}".lower() == key:
                    records[node_id] = _name_record(node)
        if records:
            named[key] = [records[node] for node in sorted(records)]
    return named


def _name_record(node) -> list:
    """What an answer reads of a node the name table names: [node id, path, name, kind, line]."""
    return [node.id, node.path, node.name, node.kind, node.line]


def definitions(view: IndexView, target: str) -> list[list]:
    """The name table's records [node, path, name, kind, line] that `target` (a path, a name, `path:name`) names."""
    return resolve_target(target.strip(), lambda keys: _read_names(view, keys))


def _meant(distinct: list[list]) -> list[list]:
    """The definitions a name means, of its distinct ones (code first): the one in code when the rest are in tests or
    docs; the source's one when the rest are built or vendored copies; else all, the source's first."""
    code = [r for r in distinct if section_of(r[1]) == "code"]
    if len(code) == 1 and len(distinct) > 1 or len(code) > 1 and one_symbol(code):
        # one definition in code, the rest in tests or docs; or one symbol (a module and its `.pyi` stub or `.d.ts`)
        return code
    # none outside tests and built folders: a package published as its build alone (minimatch's dist/) has it there
    own = [r for r in code if not is_secondary(r[1])] or [r for r in code if not secondary_but_dist(r[1])] or code
    own = without_renaming_macros(own)
    source = _the_source_of_its_bundles(own)
    if len(source) < len(own):  # the source's definitions listed before its bundles' too
        own = source
        distinct = sorted(distinct, key=lambda r: r not in source)
    if (len(own) == 1 or one_symbol(own)) and len(distinct) > len(own):
        return own  # the others are built or vendored copies (qs's dist/qs.js bundles lib/utils.js's maybeMap)
    return distinct


def _the_source_of_its_bundles(own: list[list]) -> list[list]:
    """The definitions in the files `rank.the_sources` finds the name's source in."""
    sources = set(the_sources([r[1] for r in own]))
    return [r for r in own if r[1] in sources]


def _distinct_targets(records: list[list]) -> list[list]:
    """One record per node, files and symbols; a class and its same-named file (`query.py`) stay two. Code first,
    built and vendored copies (`dist/`) after the source."""
    seen: dict[int, list] = {}
    for r in records:
        seen.setdefault(r[0], r)
    return sorted(seen.values(), key=lambda r: (section_of(r[1]) != "code", is_secondary(r[1]), r[1], r[4]))


class Walk:
    """What a reverse walk reached: per file, [depth, kinds, hows, edges, names, first line, best confidence,
    whether it names a type walked itself at depth 1]."""

    def __init__(self) -> None:
        self.reached: dict = {}  # by path, or by file node id (`walk_impact`'s `files`)
        self.start_paths: set[str] = set()
        self.edges = 0
        self.ambiguous = 0
        self.capped = 0
        self.own_file = False  # every use is in the start's own file, and `reached` holds those uses


def walk_impact(graph, start: list[int], kind: str, *, depth: int = DEFAULT_DEPTH,
                include_ambiguous: bool = False, files: Sequence[int] | None = None,
                every_definition: bool = False) -> Walk:
    """Walk calls, imports, references and inheritance into `start` (and what it contains) to `depth`.

    `every_definition`: `start` is every definition of its name, of one symbol (fmt's `format_error_code`, declared
    in format.h and defined in format-inl.h): a use resolved by that name to several of them is no guess among
    symbols, whatever it chose between them, and is walked as one ("definitions"), not left out as ambiguous.

    With `files` (every file's first node id, ascending), what it reached is keyed by the file's node id, not its
    path, and holds the ids of the nodes that used it, in order, where it held their names: no node record of
    what it reached is read."""
    walk = Walk()
    # A file or a type stands for what it contains: their callers are its callers.
    targets = _with_contents(graph, set(start), 2)
    nodes = graph.nodes(sorted(targets))
    walk.start_paths = {n.path for n in nodes.values()}
    # A type is used where its own name is (built, imported, subclassed, referenced); a call that reached only one of
    # its methods may be a method of the same name on another type, resolved by its name alone.
    named = set(start) if kind in TYPE_KINDS else targets
    seen = set(targets)
    frontier = set(targets)
    for level in range(1, depth + 1):
        if len(frontier) > MAX_FRONTIER:
            walk.capped += len(frontier) - MAX_FRONTIER
            frontier = set(sorted(frontier)[:MAX_FRONTIER])
        sources = _sources(graph, frontier, named, include_ambiguous, walk,
                           set(start) if every_definition and level == 1 else set())
        if files is None:
            source_nodes = graph.nodes(sorted(sources))
            at = {source: node.path for source, node in source_nodes.items()}
        else:
            at = {source: files[bisect_right(files, source) - 1] for source in sources}
        next_frontier: set[int] = set()
        for source, uses in sources.items():
            where = at.get(source)
            if where is None:
                continue
            if source not in seen:
                seen.add(source)
                next_frontier.add(source)
            if level == 1 and source in targets:  # a node of X's own files
                continue
            entry = walk.reached.get(where)
            if entry is None:
                entry = walk.reached[where] = [level, set(), set(), 0, [], uses[0][2], 0.0, False]
            if level < entry[0]:
                entry[0] = level
                entry[5] = uses[0][2]
            for kind_, how, _line, names_it in uses:
                entry[1].add(kind_)
                entry[2].add(how)
                entry[6] = max(entry[6], CONFIDENCE.get(how, 0.5))
                entry[7] = entry[7] or (names_it and level == 1)
            entry[3] += len(uses)
            if files is not None:
                entry[4].append(source)
            else:
                _add_label(entry[4], source_nodes[source])
        frontier = next_frontier
        if not frontier:
            break
    own = walk.start_paths if files is None else {files[bisect_right(files, t) - 1] for t in targets}
    kept = {where: walk.reached.pop(where) for where in own if where in walk.reached}
    # X's own file is not something a change to X breaks: it changes with X. Unless every use of a symbol is there
    # (a script's helper, a module's private function): its users there are then what a change may break.
    if not walk.reached and kind != "file":
        walk.reached, walk.own_file = kept, bool(kept)
    return walk


def _with_contents(graph, ids: set[int], levels: int) -> set[int]:
    """`ids` and what they define or contain, `levels` deep (a file's symbols, a type's methods)."""
    found, frontier = set(ids), set(ids)
    for _ in range(levels):
        out = graph.edges_out(sorted(frontier))
        frontier = {e[1] for edges in out.values() for e in edges if e[0] in ("defines", "contains", "method")}
        frontier -= found
        found |= frontier
        if not frontier:
            break
    return found


def _sources(graph, frontier: set[int], named: set[int], include_ambiguous: bool,
             walk: Walk, definitions: set[int]) -> dict[int, list[tuple]]:
    """The nodes with a walked edge into `frontier`: each its uses, (kind, how, line, whether it names X); an
    ambiguous edge into one of `definitions` (`walk_impact`'s `every_definition`) is certain of its symbol."""
    incoming = graph.edges_in(sorted(frontier))
    sources: dict[int, list] = {}
    for into, edges in incoming.items():
        for edge in edges:
            kind_, source, line = edge[0], edge[1], edge[2]
            if kind_ not in WALKED_KINDS:
                continue
            how = edge[3] if len(edge) > 3 and isinstance(edge[3], str) else "unique"
            if how == "ambiguous" and into in definitions:
                how = "definitions"
            if how == "ambiguous":
                walk.ambiguous += 1
                if not include_ambiguous:
                    continue
            walk.edges += 1
            sources.setdefault(source, []).append((kind_, how, line, into in named))
    return sources


def _add_label(names: list[str], node) -> None:
    """A node that used X, by name (its owner's too), among the first five of its file's."""
    label = node.name if node.kind == "file" or not node.owner else f"{node.owner}.{node.name}"
    if len(names) < 5 and label not in names:
        names.append(label)


def rank_rows(reached: Mapping[str, list], start_paths: set[str], *, limit: int, explain: bool) -> list[Row]:
    """Rows by file: code first, then tests, examples and docs; by depth, confidence, then in-degree."""
    rows_by_section: dict[str, list[Row]] = {s: [] for s in SECTIONS}
    for path, entry in reached.items():
        row = _row(path, entry, entry[4], explain)
        rows_by_section[section_of(path)].append(row)
    out: list[Row] = []
    for section in SECTIONS:
        ranked = sorted(rows_by_section[section], key=lambda r: (-r.score, r.path))
        out.extend(ranked[:limit])
    return out


def _score(entry: list) -> float:
    import math

    level, _kinds, _hows, count, _names, _line, confidence, names_it = entry
    depth_score = 10.0 * (MAX_DEPTH + 1 - level)
    return round(depth_score + 3.0 * confidence + min(math.log1p(count), 3.0) + (NAMED_BONUS if names_it else 0.0), 4)


def _row(path: str, entry: list, names: list[str], explain: bool) -> Row:
    import math

    level, kinds, hows, count, _names, line, confidence, names_it = entry
    depth_score = 10.0 * (MAX_DEPTH + 1 - level)
    confidence_score = 3.0 * confidence
    degree_score = min(math.log1p(count), 3.0)
    named_score = NAMED_BONUS if names_it else 0.0
    score = round(depth_score + confidence_score + degree_score + named_score, 4)
    signals: tuple[tuple[str, float], ...] = (("depth", depth_score), ("confidence", confidence_score),
                                              ("in_degree", round(degree_score, 4)))
    signals += (("names_target", named_score),) if names_it else ()
    extra = (("section", section_of(path)), ("depth", level), ("edges", sorted(kinds)), ("resolution", sorted(hows)),
             ("count", count), ("names", names))
    return Row(path, line, ", ".join(names), "/".join(sorted(kinds)), score, signals if explain else (), extra)


def rank_kept_rows(graph, reached: Mapping[int, list], *, limit: int, explain: bool, keep: int) -> list[Row]:
    """`rank_rows`' first `keep` rows, from a walk keyed by file node id (`walk_impact`'s `files`), reading the
    records of as few files as they need.

    A file's score needs no record; its section and its place among equal scores need its path. Files are read a
    score at a time, best first: once a section holds `limit` files read, no file unread can enter its rows (its
    score is lower than every one read), and once the sections in order give `keep` rows, the rest is not read."""
    if keep <= 0:
        return []
    by_score: dict[float, list[int]] = {}
    for file_id, entry in reached.items():
        by_score.setdefault(_score(entry), []).append(file_id)
    scores = sorted(by_score, reverse=True)
    paths: dict[int, str] = {}
    sections: dict[str, list[tuple[float, str, int]]] = {s: [] for s in SECTIONS}
    done = 0
    while True:
        batch: list[int] = []
        while done < len(scores) and len(batch) < keep + 1:
            batch += by_score[scores[done]]
            done += 1
        for file_id, node in graph.nodes(batch).items():
            paths[file_id] = node.path
            sections[section_of(node.path)].append((-_score(reached[file_id]), node.path, file_id))
        chosen: list[int] = []
        whole = done == len(scores)
        for section in SECTIONS:
            ranked = sorted(sections[section])[:limit]
            if len(ranked) < limit and not whole:
                break  # a file not read yet may belong here
            chosen += [file_id for _score_, _path, file_id in ranked]
            if len(chosen) >= keep:
                break
        else:
            whole = True
        if whole or len(chosen) >= keep:
            break
    rows = []
    for file_id in chosen[:keep]:
        entry = reached[file_id]
        names: list[str] = []
        used = graph.nodes(entry[4])  # in the file's own bucket, read already
        for source in entry[4]:
            if source in used:
                _add_label(names, used[source])
        rows.append(_row(paths[file_id], entry, names, explain))
    return rows


def _contract_rows(view: IndexView, path: str) -> tuple[list[Row], list[str]]:
    """Copies and readers when X's file is a contract copy."""
    if not view.read(["contracts.json"]):
        return [], []
    contracts = view.read_json("contracts.json")
    if not isinstance(contracts, list):
        raise view.corrupt("contracts.json")
    rows: list[Row] = []
    notes: list[str] = []
    for c in contracts:
        if not isinstance(c, dict):
            raise view.corrupt("contracts.json")
        members = {*c.get("copies", ()), *c.get("drift_on_purpose", ()), *c.get("drifted", ())}
        if path not in members:
            continue
        for copy in c.get("copies", ()):
            if copy != path:
                rows.append(Row(copy, None, None, "copy", 100.0, (),
                                (("section", "contract"), ("status", "identical"))))
        for copy in c.get("drift_on_purpose", ()):
            if copy != path:
                rows.append(Row(copy, None, None, "copy", 99.0, (),
                                (("section", "contract"), ("status", "drifts on purpose"))))
        for copy in c.get("drifted", ()):
            if copy != path:
                rows.append(Row(copy, None, None, "copy", 99.0, (), (("section", "contract"), ("status", "drifted"))))
        for reader in c.get("readers", ()):
            rows.append(Row(reader, None, None, "reader", 98.0, (), (("section", "contract"), ("status", "reads"))))
        notes.append(f"'{path}' is a contract: {len(c.get('copies', ()))} identical copies "
                     f"(canonical '{c.get('canonical')}')")
        if c.get("drifted"):
            notes.append(f"drifted from the canonical copy: {', '.join(c['drifted'])}")
    return rows, notes
