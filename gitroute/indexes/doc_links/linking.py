"""Which documents the doc↔code index links, and how their tokens name graph nodes (the rules of the package's
docstring): the records a link is made of, the name tables of the graph, and each document linked (`memoised`
takes it from the build memo instead while what its linking read is unchanged)."""
from __future__ import annotations

import posixpath
import re
from collections import Counter, defaultdict, namedtuple
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from itertools import repeat

from gitroute.model import Document, Token
from gitroute.text import is_code_name, name_parts

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on the query path
if TYPE_CHECKING:
    from gitroute.config import Config

MIN_NAME = 4  # a bare last segment shorter than this (`get`, `Q`) is not linked by name alone, unless inline code
# names it capitalised and one definition has it (`Hub`)
MAX_CANDIDATES = 20  # an ambiguous link lists at most this many candidate nodes (and says how many there were)
EXACT, DISAMBIGUATED, AMBIGUOUS = "exact", "disambiguated", "ambiguous"

# Roles whose target is no code object: documents, labels, settings, commands, standards.
IGNORED_ROLES = frozenset(
    (
        "doc", "ref", "term", "envvar", "rfc", "pep", "download", "numref", "option", "keyword", "abbr",
        "command", "program", "math", "sub", "sup", "kbd", "menuselection", "guilabel", "samp", "regexp",
        "token", "dfn", "ticket", "commit", "issue", "pr", "setting", "djadmin", "djadminopt", "ttag",
        "tfilter", "lookup", "fieldlookup", "templatetag", "mimetype", "manpage", "index", "pypi", "gh",
        "user", "bpo", "cve", "cwe", "mailheader", "makevar", "newsgroup", "strong", "emphasis",
        "literal", "code", "title-reference", "raw", "abbreviation",
    )
)
PATH_ROLES = frozenset(("file", "source"))
MODULE_DIRECTIVES = frozenset(("module", "currentmodule", "py:module", "py:currentmodule", "automodule"))
CLASS_DIRECTIVES = frozenset(("class", "autoclass", "py:class", "exception", "autoexception", "py:exception",
                              "c:struct", "cpp:class", "cpp:struct", "js:class"))
_PACKAGE_STEMS = ("__init__", "index", "mod", "lib")

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

class Target(namedtuple("Target", "node path name kind line owner centrality")):
    """A node a link points at: node: int (graph id); path, name, kind: str; line: int; owner: str (the
    enclosing symbols, dotted); centrality: int (edges into the node: calls, references, imports)."""

    __slots__ = ()


class DocLink(namedtuple("DocLink",
                         "document section number line token status targets total heading section_line directive",
                         defaults=(0, False))):
    """One token of a document that names code.

    document: str (its path); section: str (the enclosing heading's text, "" before any); number: str
    (that heading's number where the document numbers it); line: int; token: str (as written); status:
    str ("exact" | "disambiguated" | "ambiguous"); targets: tuple[Target, ...] (one file's nodes, or every
    candidate up to MAX_CANDIDATES when ambiguous); total: int (candidates before that cap); heading:
    bool (the token stands in a heading); section_line: int (the heading's line, 0 before any); directive: bool
    (an autodoc or domain directive documents the target here: the reference entry for it).
    """

    __slots__ = ()


def qualname(owner: str, name: str) -> str:
    return f"{owner}.{name}" if owner else name


# ------------------------------------------------------------------------------------------ selection


def in_doc_scope(path: str, scope: Sequence[str]) -> bool:
    """Whether a path is under one of the configured folders or matches one of the configured globs;
    an empty scope is every document."""
    if not scope:
        return True
    from fnmatch import fnmatchcase

    for entry in scope:
        entry = entry.strip("/")
        if any(c in entry for c in "*?["):
            if fnmatchcase(path, entry):
                return True
        elif entry in ("", ".") or path == entry or path.startswith(entry + "/"):
            return True
    return False


def scan_documents(documents: Mapping[str, Document], config: Config) -> list[Document]:
    """The documents this index links, in path order: those in the configured scope, minus excludes and the
    committed maps gitroute writes (DOC-CODE.md, DECISIONS.md), which are derived from documents.

    The build parses every document once (and caches it by blob id); this only chooses.
    """
    scope = tuple(config.docs or ())
    generated = {config.doc_code_map, config.decisions_map}
    return [documents[path] for path in sorted(documents)
            if path not in generated and not config.is_excluded(path) and in_doc_scope(path, scope)]


# -------------------------------------------------------------------------------------------- linking


_CENTRAL_KINDS = frozenset(("calls", "references", "imports"))  # the uses a target's centrality counts


class Linker:
    """Resolves document tokens to graph nodes by the rules in the module docstring."""

    def __init__(self, nodes: Sequence, edges: Iterable, documents: Iterable[str] = (), *, lazy: bool = False) -> None:
        """`lazy`: the name tables (every table but "N" and "i") are built by `build_tables`, when first needed."""
        self.node_list = nodes
        by_id = getattr(nodes, "by_id", None)  # a large graph's `NodeTable`: its nodes are not made whole again
        # node ids are stable, not list positions
        self.nodes: Mapping = by_id() if by_id is not None else {node.id: node for node in nodes}
        self.documents = frozenset(documents)
        # Edges are (source, kind, target, line, how): one pass per question, in C where it can be (a graph's
        # packed edges from their columns: made into tuples, django's 400,000 took a third of a second).
        from gitroute.edges import EdgeTable  # (not on the query path: it imports typing)

        self.imports: dict[int, set[int]] = defaultdict(set)  # file -> the files it imports
        if isinstance(edges, EdgeTable):
            self.incoming = Counter(edges.targets_of(_CENTRAL_KINDS))
            for source, target in edges.pairs_of("imports"):
                self.imports[source].add(target)
        else:
            edges = edges if isinstance(edges, (list, tuple)) else list(edges)
            self.incoming = Counter(e[2] for e in edges if e[1] in _CENTRAL_KINDS)
            for e in edges:
                if e[1] == "imports":
                    self.imports[e[0]].add(e[2])
        self.tables: dict[str, Mapping] = {"N": self.nodes, "i": self.imports}
        # While a memo records: the lookups a page made (their numbers in `lookups`, in the order first made), and
        # the keys each lookup read (a page read what its lookups read: `page_reads`).
        self.looked: dict[int, None] | None = None
        self.lookups: list[dict[tuple[str, object], None]] = []
        self.noted: list[_Noted] = []
        self.targets: dict[int, Target] = {}
        self.resolved = _build_memo()  # see `_resolved`
        self.canons: dict[int, tuple[str, int]] = {}  # see `canon`
        # Each path's file node: a memo names a node by (path, offset from it), which a change to another
        # file leaves alone (ids after a changed file in its bucket move; see graph._place_nodes).
        self.first: dict[str, int] = dict(nodes.ids_of("file") if hasattr(nodes, "ids_of")  # a table: no node made
                                          else [(n.path, n.id) for n in nodes if n.kind == "file"])
        if not lazy:
            self.build_tables()

    def build_tables(self) -> None:
        """The name tables linking reads, from every node (once)."""
        if "p" in self.tables:
            return
        nodes = self.node_list
        self.by_path: dict[str, int] = {}
        self.by_suffix: dict[str, list[int]] = defaultdict(list)  # `flask/app.py` -> files ending so
        self.by_base: dict[str, list[int]] = defaultdict(list)
        self.by_name: dict[str, list[int]] = defaultdict(list)
        self.by_qual: dict[str, list[int]] = defaultdict(list)  # `Owner.name` and `Outer.Inner.name`
        self.modules: dict[str, list[int]] = defaultdict(list)  # `flask.app`, `django.db.models` -> files
        self.in_file: dict[tuple[str, str], list[int]] = defaultdict(list)  # (path, name) -> its symbols
        # A function defined inside a function is local: no document can name it from outside.
        # (qualname inlined: this runs over every node of the graph, a second on a large one)
        functions = {(n.path, f"{n.owner}.{n.name}" if n.owner else n.name) for n in nodes
                     if n.kind == "function" or n.kind == "method"}
        for node in nodes:
            if node.kind == "file":
                self._add_file(node)
            elif not _is_local(node, functions):
                self._add_symbol(node)
        # What linking reads, by a one-letter tag: the facts a document's links rest on (see `facts`).
        self.tables.update({"p": self.by_path, "s": self.by_suffix, "b": self.by_base, "n": self.by_name,
                            "q": self.by_qual, "m": self.modules, "f": self.in_file})

    def record(self) -> None:
        """From now on, note every key linking reads: a memoised document is valid while they read the same."""
        self.build_tables()
        self.looked = {}
        self.lookups = []
        self.resolved = _build_memo()  # what was resolved before noted no key
        self.noted = [_Noted(table, tag, {}) for tag, table in self.tables.items()]
        for noted in self.noted:
            setattr(self, _TABLE_ATTRS[noted.tag], noted)

    def page_reads(self) -> list[tuple[str, object]]:
        """The keys the page linked since `looked` was cleared read, in the order first read."""
        return list(dict.fromkeys(key for number in self.looked or () for key in self.lookups[number]))

    def canon(self, node_id: int) -> tuple[str, int]:
        """A node as (path, offset from its file's node): what a memo stores instead of an id (made once per node:
        the popular ones are named by thousands of links, and read by hundreds of pages)."""
        held = self.canons.get(node_id)
        if held is None:
            path = self.tables["N"][node_id].path  # the tables themselves: what `record` notes is linking's reads
            held = self.canons[node_id] = (path, node_id - self.first[path])
        return held

    def node_id(self, ref: Sequence) -> int:
        """The id of a node a memo names by (path, offset), -1 when that file has no such node now."""
        return self.node_ids((ref,))[0]

    def node_ids(self, refs: Sequence[Sequence]) -> list[int]:
        """`node_id` of each ref (one call per row of a document's links, not per ref)."""
        first, nodes = self.first, self.tables["N"]
        ids = []
        for path, offset in refs:
            base = first.get(path)
            node = nodes.get(base + offset) if base is not None else None
            ids.append(base + offset if node is not None and node.path == path else -1)
        return ids

    def canon_key(self, tag: str, key: object) -> tuple[str, object]:
        """A looked-up key in a memo's terms: node ids ("N", "i") as (path, offset)."""
        if tag in ("N", "i"):
            return (tag, self.canon(key) if key in self.tables["N"] else None)  # type: ignore[arg-type]
        return (tag, key)

    def fact(self, tag: str, key: object) -> object:
        """What one memo key reads now, in the memo's terms: node fields linking uses, ids as (path, offset)."""
        if tag in ("N", "i"):
            node_id = self.node_id(key) if key is not None else -1  # type: ignore[arg-type]
            if node_id < 0:
                return None
            if tag == "N":
                node = self.tables["N"][node_id]
                return (node.path, node.name, node.kind, node.owner)
            return sorted(self.canon(i) for i in self.tables["i"].get(node_id, ()))
        self.build_tables()
        value = self.tables[tag].get(key)
        if value is None:
            return None
        if tag == "p":
            return self.canon(value)
        return list(map(self.canon, value))

    def _add_file(self, node) -> None:
        path = node.path
        if path in self.documents:
            return
        self.by_path[path] = node.id
        self.by_base[posixpath.basename(path)].append(node.id)
        parts = path.split("/")
        for start in range(1, len(parts) - 1):
            self.by_suffix["/".join(parts[start:])].append(node.id)
        if not node.lang:
            return
        stem = posixpath.splitext(path)[0].split("/")
        package = stem[-1] in _PACKAGE_STEMS
        if package:
            stem = stem[:-1]
        if not stem or not all(part.isidentifier() for part in stem[-1:]):
            return
        for start in range(len(stem)):
            suffix = stem[start:]
            # A single segment is a module name only for a package (`flask`), not for every `app.py`.
            if len(suffix) >= 2 or package:
                self.modules[".".join(suffix)].append(node.id)

    def _add_symbol(self, node) -> None:
        name = node.name
        self.by_name[name].append(node.id)
        self.in_file[node.path, name].append(node.id)
        if node.owner:
            owners = node.owner.split(".")
            self.by_qual[f"{owners[-1]}.{name}"].append(node.id)
            self.in_file[node.path, f"{owners[-1]}.{name}"].append(node.id)
            if len(owners) > 1:
                self.by_qual[f"{node.owner}.{name}"].append(node.id)
                self.in_file[node.path, f"{node.owner}.{name}"].append(node.id)

    # -- tokens

    def resolve_token(self, token, document: str, module: str = "", owner: str = "") -> list[int] | None:
        """The candidate nodes a token names (None: it names nothing)."""
        kind = token.kind
        text = token.text
        if kind == "link":
            return self._resolve_link(text, document)
        if kind == "role":
            role = token.role.strip(":").rsplit(":", 1)[-1].lower()
            if role in IGNORED_ROLES:
                return None
            if role in PATH_ROLES:
                return self._resolve_path(text.strip("/"), document)
        name = _clean_name(text, strip_role=kind in ("role", "directive_arg"))
        if name is None:
            return None
        if "/" in name:
            return self._resolve_path(name, document)
        files = self.by_base.get(name) if kind != MENTION else None
        if files:
            return list(files)
        parts = [p for p in name.split(".") if p]
        # Ruby's and Elixir's names may end in `?` or `!` (`empty?`, `fetch!`).
        if not parts or not all(p.isidentifier() for p in parts[:-1]) or not parts[-1].rstrip("?!").isidentifier():
            return None
        if kind in ("role", "directive_arg"):
            # Sphinx resolves a name against the current class and module first.
            for prefix in (f"{module}.{owner}" if module and owner else "", owner, module):
                if prefix:
                    found = self._resolve_dotted(prefix.split(".") + parts)
                    if found:
                        return found
        if len(parts) > 1:
            found = self._resolve_dotted(parts)
            if found is not None:
                return found
            qualified = self.by_qual.get(".".join(parts[-2:]))
            if qualified:
                return list(qualified)
        elif kind == "role" and token.role.strip(":").rsplit(":", 1)[-1] == "mod":
            return list(self.modules.get(parts[0], ())) or None
        last = parts[-1]
        if last in self.by_name:
            found = self.by_name[last]
            # a short capitalised name in inline code that one definition has (gorilla/websocket's chat README: "The
            # code for the `Hub` type is in hub.go") is that type; `add` or `get` is a verb too, `Q` a letter
            if len(last) >= MIN_NAME or kind == "code" and len(last) >= 2 and last[0].isupper() and len(found) == 1:
                return list(found)
        return None

    def _resolve_link(self, target: str, document: str) -> list[int] | None:
        if "://" in target or target.startswith(("mailto:", "#", "data:")):
            return None
        target = target.split("#", 1)[0].split("?", 1)[0]
        if not target:
            return None
        if target.startswith("/"):
            path = posixpath.normpath(target.lstrip("/"))
        else:
            path = posixpath.normpath(posixpath.join(posixpath.dirname(document), target))
        if path.startswith("../") or path == "..":
            return None
        found = self.by_path.get(path)
        return [found] if found is not None else None

    def _resolve_path(self, text: str, document: str) -> list[int] | None:
        text = text.strip().removeprefix("./")
        if not text or text.endswith("/"):
            return None
        if text in self.by_path:
            return [self.by_path[text]]
        relative = posixpath.normpath(posixpath.join(posixpath.dirname(document), text))
        if relative in self.by_path:
            return [self.by_path[relative]]
        found = self.by_suffix.get(text.lstrip("/"))
        return list(found) if found else None

    def _resolve_dotted(self, parts: list[str]) -> list[int] | None:
        """`pkg.mod`, `pkg.mod.Name`, `pkg.mod.Owner.name`: the longest module prefix, then the rest in it,
        else (a re-export) the rest anywhere under that module's package folder."""
        # Every id here is from a table entry read (and noted) as (path, offset)s: its path is read unnoted.
        nodes = self.tables["N"]
        for k in range(len(parts), 0, -1):
            files = self.modules.get(".".join(parts[:k]))
            if not files:
                continue
            if k == len(parts):
                return list(files)
            rest = ".".join(parts[k:])
            hits = [i for f in files for i in self.in_file.get((nodes[f].path, rest), ())]
            if not hits:
                # A re-export (`flask.Blueprint` is `from .blueprints import Blueprint` in flask/__init__.py):
                # the candidates under the module's folder, narrowed to the files the module imports.
                folders = tuple(posixpath.dirname(nodes[f].path) + "/" for f in files)
                pool = self.by_qual.get(rest) if k < len(parts) - 1 else self.by_name.get(rest)
                hits = [i for i in pool or () if nodes[i].path.startswith(folders)]
                imported = {node.path for f in files for node in map(nodes.get, self.imports.get(f, ()))
                            if node is not None}
                through_import = [i for i in hits if nodes[i].path in imported]
                hits = through_import or hits
            if k == len(parts) - 1:
                # `module.name` names a module-level object, not a method that happens to share the name.
                top = [i for i, node in zip(hits, self._nodes_of(hits)) if not node.owner]
                hits = top or hits
            return hits or None
        return None

    # -- documents

    def link_document(self, document) -> list[DocLink]:
        """Every link of one parsed document, in document order."""
        links: list[DocLink] = []
        module = ""
        classes: list[tuple[int, str]] = []  # (end line, class name) of the class directives open here
        blocks = document.blocks
        # A page names the same things again and again (a third of django's tokens repeat one of their page's):
        # each (token, module, class) is looked up once per page (`_resolved` notes its reads for the page).
        resolved = _page_memo()
        for block in blocks:
            while classes and classes[-1][0] < block.line:
                classes.pop()
            if block.kind == "directive":
                directive = block.name.lower()
                if directive in MODULE_DIRECTIVES and block.text and block.text != "None":
                    module = block.text.split()[0]
            tokens = block.tokens + mentions(block)
            if not tokens:
                continue
            heading = blocks[block.section] if block.kind != "heading" and block.section >= 0 else (
                block if block.kind == "heading" else None)
            section = heading.text if heading is not None else ""
            number = heading.name if heading is not None else ""
            context: tuple[frozenset[str], tuple[str, ...]] | None = None
            owner = classes[-1][1] if classes else ""
            for token in tokens:
                key = (token.kind, token.text, token.role, module, owner)
                if key in resolved:
                    found = resolved[key]
                else:
                    found = resolved[key] = self._resolved(token, document.path, module, owner)
                if found is None:
                    continue
                candidates, files, targets = found
                status = EXACT
                if len(files) > 1:
                    if context is None:
                        context = _context_words(block)
                    chosen = self._disambiguate(files, context, token.text)
                    if chosen is not None:
                        status = DISAMBIGUATED
                        # (the lookup that found them read their nodes: read again unnoted)
                        nodes = self.tables["N"]
                        candidates = [i for i in candidates if nodes[i].path == chosen]
                        targets = tuple(map(self._target, candidates[:MAX_CANDIDATES]))
                    else:
                        status = AMBIGUOUS
                total = len(candidates)
                links.append(DocLink(document.path, section, number, token.line, token.text, status, targets,
                                     total, block.kind == "heading", heading.line if heading is not None else 0,
                                     token.kind == "directive_arg"))
            if block.kind == "directive" and block.name.lower() in CLASS_DIRECTIVES:
                name = next((t.text for t in block.tokens if t.kind == "directive_arg"), "")
                if name:
                    classes.append((block.end_line, name.rsplit(".", 1)[-1]))
        return links

    def _resolved(self, token, document: str, module: str, owner: str) -> _Found | None:
        """`_candidates`, once per build for what it depends on (the token; for a role or a directive the module and
        class too, and for a path or link the document's folder): the pages of a project name the same things
        (django's 47,500 lookups a page made were 29,500 across pages). While a memo records, the keys the first
        lookup read are kept with it (`lookups`), and each page notes the lookups it made (`looked`)."""
        kind, text = token.kind, token.text
        key = (kind, text, token.role, *((module, owner) if kind == "role" or kind == "directive_arg" else ("", "")),
               posixpath.dirname(document) if kind == "link" or "/" in text else None)
        held = self.resolved.get(key)
        looked = self.looked
        if held is not None:
            if looked is not None:
                looked[held[1]] = None
            return held[0]
        if looked is None:
            found = self._candidates(token, document, module, owner)
            self.resolved[key] = (found, -1)
            return found
        reads: dict[tuple[str, object], None] = {}
        for noted in self.noted:  # every key the lookup reads, noted once for every page that makes it
            noted.looked = reads
        found = self._candidates(token, document, module, owner)
        number = len(self.lookups)
        self.lookups.append(reads)
        looked[number] = None
        self.resolved[key] = (found, number)
        return found

    def _candidates(self, token, document: str, module: str, owner: str) -> _Found | None:
        """The nodes a token names, sorted, their files, sorted, and the targets of the first MAX_CANDIDATES
        nodes; None when it names none (or is a mention of a name too many symbols have)."""
        candidates = self.resolve_token(token, document, module, owner)
        if not candidates or token.kind == MENTION and len(candidates) > MAX_MENTION_CANDIDATES:
            return None
        candidates = sorted(set(candidates))
        # Each candidate's path read unnoted: a candidate is in a table entry read (noted) as (path, offset)s.
        nodes = self.tables["N"]
        return (candidates, sorted({nodes[i].path for i in candidates}),
                tuple(map(self._target, candidates[:MAX_CANDIDATES])))

    def _nodes_of(self, ids: list[int]) -> list:
        """The node of each id (None for an id that is none): what `self.nodes.get` of each in turn gives, and
        notes while a memo records, in one call (a Python call per id was an eighth of django's linking)."""
        nodes = self.nodes
        return nodes.many(ids) if isinstance(nodes, _Noted) else list(map(nodes.get, ids))

    def _target(self, node_id: int) -> Target:
        target = self.targets.get(node_id)
        if target is None:  # popular targets (`save`, `Model`) are named by thousands of links
            node = self.tables["N"][node_id]
            target = self.targets[node_id] = Target(node.id, node.path, node.name, node.kind, node.line, node.owner,
                                                    self.incoming[node.id])
        return target

    @staticmethod
    def _disambiguate(files: list[str], context: tuple[frozenset[str], tuple[str, ...]], token: str) -> str | None:
        """The one candidate file the paragraph names, if exactly one: by a path or dotted module path
        another token of the paragraph spells, else by a path segment only that candidate has."""
        words, spelled = context
        own = token.strip("~.!")
        spelled_others = [s for s in spelled if s != own]
        if spelled_others:
            # `_names_file(s, path)` for any s, as one test in C per path: what the paragraph spells and what the
            # path may be spelled as, each a set (a file's, cached).
            paths, modules = _spelled_probes(tuple(spelled_others))
            by_path = [path for path in files
                       if not (paths.isdisjoint(_path_suffixes(path)) and modules.isdisjoint(_module_suffixes(path)))]
            if len(by_path) == 1:
                return by_path[0]
        words = words - set(_WORD.findall(token))
        segments = {path: _path_segments(path) for path in files}
        shared = frozenset.intersection(*segments.values()) if segments else frozenset()
        named = [path for path in files if (segments[path] - shared) & words]
        return named[0] if len(named) == 1 else None


_Found = tuple  # what a token resolves to (`Linker._candidates`): (node ids, their files, targets)


def _page_memo() -> dict[tuple, _Found | None]:
    """What a page's tokens resolved to, by (kind, text, role, module, class): a fresh one per page."""
    return {}


def _build_memo() -> dict[tuple, tuple[_Found | None, int]]:
    """What tokens resolved to across pages (`Linker._resolved`), with the lookup's number in `Linker.lookups` (-1
    when no memo records): one per Linker, made afresh when it starts recording."""
    return {}


_TABLE_ATTRS = {"p": "by_path", "s": "by_suffix", "b": "by_base", "n": "by_name", "q": "by_qual",
                "m": "modules", "f": "in_file", "N": "nodes", "i": "imports"}


class _Noted:
    """A Linker table that notes each key read (in `looked`, in first-read order), for the build memo: `looked` is the
    keys of the lookup being made (`Linker._resolved`); linking reads the noted tables in lookups only."""

    __slots__ = ("table", "tag", "looked")

    def __init__(self, table: Mapping, tag: str, looked: dict) -> None:
        self.table, self.tag, self.looked = table, tag, looked

    def get(self, key, default=None):
        self.looked[self.tag, key] = None
        return self.table.get(key, default)

    def __contains__(self, key) -> bool:
        self.looked[self.tag, key] = None
        return key in self.table

    def __getitem__(self, key):
        self.looked[self.tag, key] = None
        return self.table[key]

    def many(self, keys: list) -> list:
        """`get` of each key in turn: noted in the same order, in C."""
        self.looked.update(dict.fromkeys(zip(repeat(self.tag), keys)))
        return list(map(self.table.get, keys))


@lru_cache(maxsize=65536)
def _path_segments(path: str) -> frozenset[str]:
    """A path's folders, its file name and that name without its extension: what a paragraph's words may name."""
    parts = path.split("/")
    return frozenset((*parts[:-1], posixpath.splitext(parts[-1])[0], parts[-1]))


@lru_cache(maxsize=65536)
def _names_file(spelled: str, path: str) -> bool:
    """Whether a token spells this file: its path or a path suffix (`shop/cart.py`), or its dotted module
    path (`shop.cart`, `shop.cart.Cart`)."""
    spelled = spelled.strip("~.!").split("(", 1)[0]
    if "/" in spelled:
        return path == spelled or path.endswith("/" + spelled)
    stem = posixpath.splitext(path)[0]
    if posixpath.basename(stem) in _PACKAGE_STEMS:
        stem = posixpath.dirname(stem)
    module = stem.replace("/", ".")
    parts = spelled.split(".")
    return len(parts) >= 2 and any(module == ".".join(parts[:k]) or module.endswith("." + ".".join(parts[:k]))
                                   for k in range(len(parts), 1, -1))


@lru_cache(maxsize=4096)
def _spelled_probes(spelled: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str]]:
    """What `_names_file` tests a path against, for each of `spelled`: a slashed token itself (a path or a path
    suffix), and each dotted prefix of two parts or more of a dotted one (a module path or its suffix)."""
    paths: set[str] = set()
    modules: set[str] = set()
    for text in spelled:
        text = text.strip("~.!").split("(", 1)[0]
        if "/" in text:
            paths.add(text)
        else:
            parts = text.split(".")
            modules.update(".".join(parts[:k]) for k in range(len(parts), 1, -1))
    return frozenset(paths), frozenset(modules)


@lru_cache(maxsize=65536)
def _path_suffixes(path: str) -> frozenset[str]:
    """A path and each suffix of it after a slash: `s` is one of them iff `path == s or path.endswith("/" + s)`."""
    return frozenset((path, *(path[i + 1:] for i, c in enumerate(path) if c == "/")))


@lru_cache(maxsize=65536)
def _module_suffixes(path: str) -> frozenset[str]:
    """A file's dotted module path and each suffix of it after a dot (as `_names_file` spells the module)."""
    stem = posixpath.splitext(path)[0]
    if posixpath.basename(stem) in _PACKAGE_STEMS:
        stem = posixpath.dirname(stem)
    module = stem.replace("/", ".")
    return frozenset((module, *(module[i + 1:] for i, c in enumerate(module) if c == ".")))


def _is_local(node, functions: set[tuple[str, str]]) -> bool:
    if not node.owner:
        return False
    prefix = ""
    for owner in node.owner.split("."):
        prefix = f"{prefix}.{owner}" if prefix else owner
        if (node.path, prefix) in functions:
            return True
    return False


def _context_words(block) -> tuple[frozenset[str], tuple[str, ...]]:
    """What a paragraph names: the words of its tokens and of its prose that reads as code (a dotted or
    slashed path, an underscore, an inner capital; not every English word like `factory`), and the
    tokens as spelled (paths and dotted names)."""
    words: set[str] = set()
    for token in block.tokens:
        words.update(_WORD.findall(token.text))
    for chunk in block.text.split():
        chunk = chunk.strip(".,;:()[]{}'\"")
        # (an ASCII chunk's inner capital by one comparison in C, not a Python test per letter)
        if ("." in chunk or "/" in chunk or "_" in chunk or (
                chunk[1:] != chunk[1:].lower() if chunk.isascii() else any(c.isupper() for c in chunk[1:]))):
            words.update(_WORD.findall(chunk))
    spelled = tuple(t.text.strip("~.!") for t in block.tokens if "/" in t.text or "." in t.text.strip("~.!"))
    return frozenset(words), spelled


MENTION = "mention"  # a token kind: a name spelled as code in prose, a heading or a code sample, with no markup
MIN_MENTION = 6  # a mention's last part at least this long: `SecureJSON`, `load_env_levels`, not `get_id`
MAX_MENTION_CANDIDATES = 3  # a mention of a name more symbols have than this links none of them
MAX_MENTION_TEXT = 20_000  # characters of one block read for mentions
_MENTION = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)*")
# Only the words shaped as code, found by the regex engine rather than word by word in Python (a big project's
# documents hold millions of words): a qualified name, or one with an underscore or an inner capital. Possessive
# (`*+`): what follows each run is a character the run cannot hold, so giving one back never finds a match, and an
# English word fails each alternative at once instead of once per letter (a third less time, the same matches).
# The lookahead first: every alternative needs a word that opens with `_`, or whose first run of lower-case letters,
# digits and `$` after its first character ends at a capital, `_`, `.`, `:`, `-` or a letter past ASCII; a plain
# word (`handler`, `Session`) fails that one scan, not the five alternatives' (a quarter less time over django's
# documents, the same matches: tests/test_doc_links.py holds it to the pattern without it).
_CODE_WORD = re.compile(r"(?<![\w$])(?=_|[A-Za-z$][a-z0-9$]*+(?:[A-Z_.:\-]|[^\W_a-zA-Z0-9]))"
                        r"(?:[A-Za-z_$][\w$]*+(?:(?:\.|::|->)[A-Za-z_$][\w$]*+)++"
                        r"|[A-Za-z$]*+_[\w$]*+|[a-z][a-z0-9]*+[A-Z][\w$]*+|[A-Z][a-z0-9]++[A-Z][\w$]*+"
                        r"|[A-Z]{2,}+[a-z]{2}[\w$]*+)")


def mentions(block) -> tuple:
    """Names spelled as code (`SecureJSON`, `load_env_levels`, `spdlog::cfg::load_env_levels`) in a block's prose,
    headings and code samples that no token of the block spells: a page that names a symbol without markup (a
    heading `SecureJSON`, an emphasised `_FingersCrossedHandler_`) or shows it in use is about it too
    (docs/decisions/0020). English words (`Session`, `handler`) and short names (`add`) are never mentions."""
    if block.kind == "directive" or not block.text:
        return ()
    spelled: set[str] | None = None  # what the block's tokens spell: made only for a block with a code word
    found: dict[str, int] = {}
    text = block.text[:MAX_MENTION_TEXT]
    line, counted = block.line, 0  # the line of `text[counted]`: lines counted on from the last mention's
    for match in _CODE_WORD.finditer(text):
        word = match.group(0).rstrip(".")
        if word in found:
            continue
        if spelled is None:
            spelled = {w for t in block.tokens for w in _MENTION.findall(t.text)}
        if word in spelled or not is_code_name(word) or len(name_parts(word)[-1]) < MIN_MENTION:
            continue
        start = match.start()
        line += text.count("\n", counted, start)
        counted = start
        found[word] = line
    return tuple(Token(MENTION, word, "", line) for word, line in found.items())


_ARITY = re.compile(r"(?<=[\w?!])/\d{1,3}$")


def _clean_name(text: str, strip_role: bool) -> str | None:
    """A token as a name or path: `@app.route("/")` -> `app.route`, `Flask()` -> `Flask`, `a::b` -> `a.b`,
    `Monolog\\Registry` -> `Monolog.Registry`;
    None for code that is no name (spaces, operators)."""
    text = text.strip()
    if strip_role:
        while text[:1] in ("~", "!", "."):
            text = text[1:]
    text = text.lstrip("@")
    for stop in ("(", "[", "<", "{", "=", ","):
        if stop in text:
            text = text[:text.index(stop)]
    text = text.strip().rstrip(".:;")
    if text.count("/") == 1:
        text = _ARITY.sub("", text)  # Elixir's and Erlang's `Keyword.merge/2` names Keyword.merge, not a path
    # `a::b` (C++, Rust, PHP's static), `a->b`, `A#b` (Ruby, Javadoc), `Monolog\Registry` (PHP's namespaces)
    text = text.lstrip("\\").replace("::", ".").replace("->", ".").replace("#", ".").replace("\\", ".")
    if not text or len(text) > 200 or len(text.split()) != 1:
        return None
    return text
