"""The doc↔code index: which documents name which files and symbols, kept both ways, and its two answers.

Build: every Markdown and reStructuredText document of the snapshot (`[docs] folders` narrows them) is
parsed by `parsing.documents`; each inline token (Markdown inline code, rst literals, roles, the objects
autodoc/domain directives document, link targets) links when it names a graph node exactly: its path or
base name, a dotted module path (`django.db.models.Q`), an `Owner.name`, or a last segment of at least
four characters. A name defined in several files links to one only when the same paragraph names a path
segment of exactly one candidate; otherwise the link stays ambiguous with every candidate listed.

Blobs: `docs.json` (every document with its title, kind and link count), `by_doc/NNNN.json` (a document's
links, sharded by its path's hash: `git route code DOC` reads one), `by_target/NNNN.json` (links under
each key a question may use: a path, a base name, a name, `Owner.name`; `git route docs NAME` reads a few).
"""
from __future__ import annotations

import math
import posixpath
import re
import zlib
from collections import Counter, defaultdict, namedtuple
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache

from gitroute.model import Answer, Document, Row, Token
from gitroute.text import is_code_name, name_parts

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on the query path
if TYPE_CHECKING:
    from gitroute.config import Config

NAME = "doc_links"
NEEDS: tuple[str, ...] = ()
QUESTION_TYPES = {"code": {"direction": "code"}, "docs": {"direction": "docs"}}  # bench type -> answer options

DOCS_LIST = "docs.json"
MIN_NAME = 4  # a bare last segment shorter than this (`get`, `Q`) is not linked by name alone
MAX_CANDIDATES = 20  # an ambiguous link lists at most this many candidate nodes (and says how many there were)
# About 100 KB of JSON per shard, so that an answer reads little whatever the project's size.
LINKS_PER_DOC_SHARD = 800
RECORDS_PER_TARGET_SHARD = 1024
MAX_ANSWER_RECORDS = 5000  # records one answer ranks; a key like `save` has thousands in a big project

EXACT, DISAMBIGUATED, AMBIGUOUS = "exact", "disambiguated", "ambiguous"
STATUS_WEIGHT = {EXACT: 1.0, DISAMBIGUATED: 0.9}
AMBIGUOUS_WEIGHT = 0.5  # shared among an ambiguous link's candidates: a guess must not outweigh a claim
STATUS_ORDER = {EXACT: 0, DISAMBIGUATED: 1, AMBIGUOUS: 2}

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

_RECORD_DOC = re.compile(
    r"(^|/)(adrs?|decisions?|decision-records?|mips?|peps?|neps?|nxeps?|rfcs?|keps?|deps?|proposals?|design|"
    r"designs|architecture|enhancements?)(/|$)|(^|/)(adr|mip|pep|nep|nxep|rfc|kep|dep)[-_ ]?\d+[^/]*$",
    re.IGNORECASE,
)
_CHANGELOG_DOC = re.compile(
    r"(^|/)(releases?|changelogs?|news|changes)(/|$)|(^|/)(changes|changelog|history|news|release[-_ ]?notes|"
    r"whatsnew|whats[-_]new|deprecations?)[^/]*$",
    re.IGNORECASE,
)
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# Words a person adds when naming a document that name no document: "the logging docs page".
_GENERIC_DOC_WORDS = frozenset(("doc", "docs", "document", "documentation", "page", "guide", "chapter",
                                "article", "section", "about", "explain", "explains", "describe", "describes"))


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


def doc_kind(path: str) -> str:
    """"record" (a design or decision record), "changelog" (release notes) or "guide"."""
    if _RECORD_DOC.search(path):
        return "record"
    if _CHANGELOG_DOC.search(path):
        return "changelog"
    return "guide"


def _shard(key: str, shards: int) -> int:
    return zlib.crc32(key.encode("utf-8")) % shards


def by_doc_path(shard: int) -> str:
    return f"by_doc/{shard:04d}.json"


def by_target_path(shard: int) -> str:
    return f"by_target/{shard:04d}.json"


def _shard_count(records: int, per_shard: int) -> int:
    count = 1
    while count * per_shard < records and count < 4096:
        count *= 2
    return count


def _qualname(owner: str, name: str) -> str:
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
        self.nodes = {node.id: node for node in nodes}  # node ids are stable, not list positions
        self.documents = frozenset(documents)
        # Edges are (source, kind, target, line, how): one pass per question, in C where it can be.
        edges = edges if isinstance(edges, (list, tuple)) else list(edges)
        self.incoming = Counter(e[2] for e in edges if e[1] in _CENTRAL_KINDS)
        self.imports: dict[int, set[int]] = defaultdict(set)  # file -> the files it imports
        for e in edges:
            if e[1] == "imports":
                self.imports[e[0]].add(e[2])
        self.tables: dict[str, Mapping] = {"N": self.nodes, "i": self.imports}
        self.looked: dict[tuple[str, object], None] | None = None  # the keys read, while a memo records them
        self.targets: dict[int, Target] = {}
        # Each path's file node: a memo names a node by (path, offset from it), which a change to another
        # file leaves alone (ids after a changed file in its bucket move; see graph._place_nodes).
        self.first: dict[str, int] = {node.path: node.id for node in nodes if node.kind == "file"}
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
        functions = {(n.path, _qualname(n.owner, n.name)) for n in nodes if n.kind in ("function", "method")}
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
        for tag, table in self.tables.items():
            setattr(self, _TABLE_ATTRS[tag], _Noted(table, tag, self.looked))

    def canon(self, node_id: int) -> tuple[str, int]:
        """A node as (path, offset from its file's node): what a memo stores instead of an id."""
        path = self.tables["N"][node_id].path  # the tables themselves: what `record` notes is linking's reads
        return (path, node_id - self.first[path])

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
        return [self.canon(i) for i in value]

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
        if len(last) >= MIN_NAME and last in self.by_name:
            return list(self.by_name[last])
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
        for k in range(len(parts), 0, -1):
            files = self.modules.get(".".join(parts[:k]))
            if not files:
                continue
            if k == len(parts):
                return list(files)
            rest = ".".join(parts[k:])
            hits = [i for f in files for i in self.in_file.get((self.nodes[f].path, rest), ())]
            if not hits:
                # A re-export (`flask.Blueprint` is `from .blueprints import Blueprint` in flask/__init__.py):
                # the candidates under the module's folder, narrowed to the files the module imports.
                folders = tuple(posixpath.dirname(self.nodes[f].path) + "/" for f in files)
                pool = self.by_qual.get(rest) if k < len(parts) - 1 else self.by_name.get(rest)
                hits = [i for i in pool or () if self.nodes[i].path.startswith(folders)]
                imported = {self.nodes[t].path for f in files for t in self.imports.get(f, ()) if t in self.nodes}
                through_import = [i for i in hits if self.nodes[i].path in imported]
                hits = through_import or hits
            if k == len(parts) - 1:
                # `module.name` names a module-level object, not a method that happens to share the name.
                top = [i for i in hits if not self.nodes[i].owner]
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
                candidates = self.resolve_token(token, document.path, module, owner)
                if not candidates or token.kind == MENTION and len(candidates) > MAX_MENTION_CANDIDATES:
                    continue
                candidates = sorted(set(candidates))
                files = sorted({self.nodes[i].path for i in candidates})
                status = EXACT
                if len(files) > 1:
                    if context is None:
                        context = _context_words(block)
                    chosen = self._disambiguate(files, context, token.text)
                    if chosen is not None:
                        status = DISAMBIGUATED
                        candidates = [i for i in candidates if self.nodes[i].path == chosen]
                    else:
                        status = AMBIGUOUS
                total = len(candidates)
                targets = tuple(self._target(i) for i in candidates[:MAX_CANDIDATES])
                links.append(DocLink(document.path, section, number, token.line, token.text, status, targets,
                                     total, block.kind == "heading", heading.line if heading is not None else 0,
                                     token.kind == "directive_arg"))
            if block.kind == "directive" and block.name.lower() in CLASS_DIRECTIVES:
                name = next((t.text for t in block.tokens if t.kind == "directive_arg"), "")
                if name:
                    classes.append((block.end_line, name.rsplit(".", 1)[-1]))
        return links

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
        by_path = [path for path in files if any(_names_file(s, path) for s in spelled_others)]
        if len(by_path) == 1:
            return by_path[0]
        words = words - set(_WORD.findall(token))
        segments = {}
        for path in files:
            parts = path.split("/")
            stem = posixpath.splitext(parts[-1])[0]
            segments[path] = set(parts[:-1]) | {stem} | {parts[-1]}
        shared = set.intersection(*segments.values()) if segments else set()
        named = [path for path in files if (segments[path] - shared) & words]
        return named[0] if len(named) == 1 else None


_TABLE_ATTRS = {"p": "by_path", "s": "by_suffix", "b": "by_base", "n": "by_name", "q": "by_qual",
                "m": "modules", "f": "in_file", "N": "nodes", "i": "imports"}


class _Noted:
    """A Linker table that notes each key read (in `looked`, in first-read order), for the build memo."""

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
        if any(c in chunk for c in "./_") or any(c.isupper() for c in chunk[1:]):
            words.update(_WORD.findall(chunk))
    spelled = tuple(t.text.strip("~.!") for t in block.tokens if "/" in t.text or "." in t.text.strip("~.!"))
    return frozenset(words), spelled


MENTION = "mention"  # a token kind: a name spelled as code in prose, a heading or a code sample, with no markup
MIN_MENTION = 6  # a mention's last part at least this long: `SecureJSON`, `load_env_levels`, not `get_id`
MAX_MENTION_CANDIDATES = 3  # a mention of a name more symbols have than this links none of them
MAX_MENTION_TEXT = 20_000  # characters of one block read for mentions
_MENTION = re.compile(r"[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)*")
# Only the words shaped as code, found by the regex engine rather than word by word in Python (a big project's
# documents hold millions of words): a qualified name, or one with an underscore or an inner capital.
_CODE_WORD = re.compile(r"(?<![\w$])(?:[A-Za-z_$][\w$]*(?:(?:\.|::|->)[A-Za-z_$][\w$]*)+"
                        r"|[A-Za-z$]*_[\w$]*|[a-z][a-z0-9]*[A-Z][\w$]*|[A-Z][a-z0-9]+[A-Z][\w$]*|[A-Z]{2,}[a-z]{2}[\w$]*)")


def mentions(block) -> tuple:
    """Names spelled as code (`SecureJSON`, `load_env_levels`, `spdlog::cfg::load_env_levels`) in a block's prose,
    headings and code samples that no token of the block spells: a page that names a symbol without markup (a
    heading `SecureJSON`, an emphasised `_FingersCrossedHandler_`) or shows it in use is about it too
    (docs/decisions/0020). English words (`Session`, `handler`) and short names (`add`) are never mentions."""
    if block.kind == "directive" or not block.text:
        return ()
    spelled = {w for t in block.tokens for w in _MENTION.findall(t.text)}
    found: dict[str, int] = {}
    text = block.text[:MAX_MENTION_TEXT]
    for match in _CODE_WORD.finditer(text):
        word = match.group(0).rstrip(".")
        if (word in found or word in spelled or not is_code_name(word)
                or len(name_parts(word)[-1]) < MIN_MENTION):
            continue
        found[word] = block.line + text.count("\n", 0, match.start())
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


FACTS = "\0facts"  # the memo entry holding every key memoised documents read, and what each read then


def link_all(documents: Sequence, graph, memo=None, blobs: Mapping[str, str] | None = None,
             relinked: set[str] | None = None) -> list[DocLink]:
    """The links of every document, documents in path order.

    With a build memo (`bundle.memo.MemoTable`) and each document's blob id, a document whose blob and
    every table entry its linking read are unchanged takes its earlier links (their targets' records
    are read again: a centrality moves with any edge); the others are linked, recording what they read.
    The keys read are kept once for all documents (the memo's FACTS entry: keys and what each read,
    node ids as (path, offset)), each document holding the positions of its own: the keys are read
    again once, and a document is linked again only when one of its positions moved.
    `relinked`, when given, gets the path of every document linked here rather than taken from the memo.
    """
    from array import array

    from gitroute.graph import node_buckets

    linker = Linker(graph.nodes, graph.edges, (d.path for d in documents), lazy=True)
    if memo is None or blobs is None:
        if relinked is not None:
            relinked.update(d.path for d in documents)
        return [link for document in documents for link in linker.link_document(document)]
    previous = memo.get(FACTS)
    keys, values = previous if _valid_facts(previous) else ([], [])
    # The name tables are built only when a document is linked again: the kept keys are read again from
    # the files that changed since the last build (FILES), the others' entries being what they were.
    files = (node_buckets(len(graph.nodes)), _file_records(graph.nodes, linker.documents, blobs))
    old_files = memo.get(FILES)
    if isinstance(old_files, tuple) and len(old_files) == 2 and old_files[0] == files[0] and previous is not None:
        now = _facts_now(linker, keys, values, old_files[1], files[1])
    else:
        now = [linker.fact(*key) for key in keys]
    memo.put(FILES, old_files if old_files == files else files)
    moved = {i for i, (old, new) in enumerate(zip(values, now)) if old != new}
    position: dict | None = None  # key -> its position in `keys`, once a document is linked again
    links: list[DocLink] = []
    kept: list[tuple[str, array, list]] = []  # each document's memo key, positions and rows
    linked_again = False
    for document in documents:
        key = f"{document.path}\0{blobs.get(document.path, '')}"
        entry = memo.get(key)
        if entry is not None:
            looked = array("I", entry[0])
            rows = entry[1]
            ids = [linker.node_ids(row[5]) for row in rows]
            if ((not looked or max(looked) < len(keys)) and moved.isdisjoint(looked)
                    and all(-1 not in i for i in ids)):
                memo.put(key, entry)
                kept.append((key, looked, rows))
                target = linker._target
                links.extend(DocLink(document.path, section, number, line, token, status,
                                     tuple(map(target, targets)), total, heading, section_line, directive)
                             for (section, number, line, token, status, _refs, total, heading, section_line,
                                  directive), targets in zip(rows, ids))
                continue
        linked_again = True
        if relinked is not None:
            relinked.add(document.path)
        if position is None:
            position = {k: i for i, k in enumerate(keys)}
            linker.record()
        assert linker.looked is not None
        linker.looked.clear()
        found = linker.link_document(document)
        looked = array("I")
        for tag, k in linker.looked:
            canon = linker.canon_key(tag, k)
            at = position.get(canon)
            if at is None:
                at = position[canon] = len(keys)
                keys.append(canon)
                now.append(linker.fact(*canon))
            looked.append(at)
        rows = [(x.section, x.number, x.line, x.token, x.status, [linker.canon(t.node) for t in x.targets],
                 x.total, x.heading, x.section_line, x.directive) for x in found]
        memo.put(key, (looked.tobytes(), rows))
        kept.append((key, looked, rows))
        links.extend(found)
    if not linked_again and not moved:
        memo.put(FACTS, previous)  # the same object: an unchanged memo is not written again
    else:
        memo.put(FACTS, _compact(memo, kept, keys, now))
    return links


FILES = "\0files"  # the memo entry: (node buckets, path -> (blob, node count, a document)) of the last build


def _file_records(nodes: Sequence, documents: frozenset[str], blobs: Mapping[str, str]) -> dict[str, tuple]:
    """What each file's entries in the name tables are made of: its blob (its nodes), and whether it is a
    document (a document's path is no file name to link to)."""
    counts = Counter(node.path for node in nodes)
    return {path: (blobs.get(path, ""), count, path in documents) for path, count in counts.items()}


def _facts_now(linker: Linker, keys: list, values: list, old: Mapping[str, tuple], now: Mapping[str, tuple]) -> list:
    """What each memo key reads now, without the name tables: a table entry is the ids of the nodes of every
    file that puts one there, in id order; the files unchanged since the last build (with as many node
    buckets, so in the same order) put the same, and the changed ones are read from tables of their own."""
    changed = {path for path in old.keys() | now.keys() if old.get(path) != now.get(path)}
    scratch = Linker([n for n in linker.node_list if n.path in changed], (), linker.documents)
    first = linker.first
    found = []
    for (tag, key), value in zip(keys, values):
        if tag in ("N", "i"):  # from nodes and edges, at hand
            found.append(linker.fact(tag, key))
        elif tag == "p":  # a path: its own file's entry
            found.append(scratch.fact(tag, key) if key in changed else value)
        else:
            added = scratch.tables[tag].get(key)
            if not added and (not value or changed.isdisjoint([path for path, _offset in value])):
                found.append(value)  # no changed file puts an entry there, or took one away
                continue
            kept = [first[path] + offset for path, offset in value or () if path not in changed]
            found.append([linker.canon(i) for i in sorted([*kept, *(added or ())])] or None)
    return found


def _valid_facts(value: object) -> bool:
    return (isinstance(value, tuple) and len(value) == 2 and isinstance(value[0], list)
            and isinstance(value[1], list) and len(value[0]) == len(value[1]))


def _compact(memo, kept: list, keys: list, values: list) -> tuple[list, list]:
    """FACTS with only the keys a kept document reads (documents gone or linked again leave some unread),
    each document's positions renumbered to match."""
    from array import array

    used = sorted(set().union(*(looked for _key, looked, _rows in kept)))
    if len(used) == len(keys):
        return keys, values
    renumber = {old: new for new, old in enumerate(used)}
    for key, looked, rows in kept:
        memo.put(key, (array("I", [renumber[i] for i in looked]).tobytes(), rows))
    return [keys[i] for i in used], [values[i] for i in used]


# ---------------------------------------------------------------------------------------------- build


SHARDS = "\0shards"  # the memo entry: what the last build's shards were made of, and their blob ids


def build(inputs):
    """Scan the snapshot's documents, link their tokens, and shard the links both ways.

    The output, for later indexes, is `claims(links)`: the links that name their nodes, as plain tuples (a
    list of DocLink with their Targets would cost a later index a third of a second to receive, on django).
    With a build memo, a shard none of whose documents' links changed keeps its blob (`_ShardPlan`)."""
    from gitroute.bundle.layout import dump_json
    from gitroute.bundle.memo import blob_id
    from gitroute.indexes import IndexBuild

    documents = scan_documents(inputs.documents, inputs.config)
    memo = inputs.memo.table(NAME) if inputs.memo is not None else None
    doc_blobs = {f.path: f.blob for f in inputs.files}
    relinked: set[str] = set()
    links = link_all(documents, inputs.graph, memo, doc_blobs, relinked)
    plan = _ShardPlan(memo.get(SHARDS) if memo is not None else None, relinked, doc_blobs, inputs.previous)
    values, section = encode_links(documents, links, plan)
    blobs = {path: dump_json(value) for path, value in values.items()}
    if memo is not None:
        ids = {**plan.kept, **{path: blob_id(data) for path, data in blobs.items() if path != DOCS_LIST}}
        memo.put(SHARDS, (plan.doc_shards, plan.target_shards, plan.docs, plan.targets, ids))
    return IndexBuild(blobs, section, (), claims(links), plan.kept)


def claims(links: Iterable[DocLink]) -> list[tuple[str, int, str, bool, bool, tuple[int, ...]]]:
    """(document, line, token, in a heading, a directive's argument, node ids) of each link that is no guess
    (exact or disambiguated), in link order: what a later index may take a document's words about a node from."""
    return [(link.document, link.line, link.token, link.heading, link.directive, tuple(t.node for t in link.targets))
            for link in links if link.status != AMBIGUOUS and link.targets]


def _target_keys(t: Target, ambiguous: bool) -> list[str]:
    """The keys a link to `t` is stored under; an ambiguous link names no one file, so no path key."""
    if t.kind == "file":
        return [] if ambiguous else [t.path.lower(), t.name.lower()]
    keys = [t.name.lower()] if ambiguous else [t.name.lower(), t.path.lower()]
    if t.owner:
        keys.append(f"{t.owner.rsplit('.', 1)[-1]}.{t.name}".lower())
    return keys


def _link_keys(x: DocLink, cache: dict[tuple[int, bool], list[str]]) -> dict[str, list[Target]]:
    """Each key a link is stored under in `by_target`, with the targets it names there.

    `cache`: each target's keys, by (node id, ambiguous): thousands of links name the same few targets."""
    matching: dict[str, list[Target]] = {}
    ambiguous = x.status == AMBIGUOUS
    for t in x.targets:
        keys = cache.get((t.node, ambiguous))
        if keys is None:
            keys = cache[t.node, ambiguous] = list(dict.fromkeys(_target_keys(t, ambiguous)))
        for key in keys:
            found = matching.get(key)
            if found is None:
                matching[key] = [t]
            else:
                found.append(t)
    return matching


class _ShardPlan:
    """Which shards a build encodes, and which keep the blob the last build wrote.

    A shard's blob is a function of its documents' links (their tokens, sections and targets, each
    target's record) and of the shard counts. The memo's SHARDS entry holds, from the last build,
    each document's blob id, the `by_target` shards its links fill and how many records, every
    target's record by node id, and each shard's blob id. A document whose links this build took from
    the memo (not linked again), with the same blob and every target's record unchanged, has the same
    links: a shard with no other document is byte for byte the last one, kept by id when the bundle
    the ref holds still stores it. Without a usable entry, or when a shard count moves, everything is
    encoded.
    """

    def __init__(self, previous: object, relinked: set[str], doc_blobs: Mapping[str, str],
                 stored: Mapping[str, str]) -> None:
        # (doc shards, target shards, path -> (blob, target shards, records), node -> record, path -> blob id)
        self.previous: tuple | None = previous if _valid_shards(previous) else None  # type: ignore[assignment]
        self.relinked, self.doc_blobs, self.stored = relinked, doc_blobs, stored
        self.doc_shards = self.target_shards = 0
        self.docs: dict[str, tuple[str, tuple[int, ...], int]] = {}  # path -> (blob, target shards, records)
        self.targets: dict[int, tuple] = {}  # node id -> its record, as every shard spells it
        self.kept: dict[str, str] = {}  # shard path -> blob id, for the shards not encoded
        self.moved_targets: set[int] = set()  # node ids whose record differs from the last build's

    def changed(self, documents: Sequence, per_doc: Mapping[str, list[DocLink]]) -> set[str]:
        """The documents whose links may differ from the last build's (all of them without a memo);
        notes every target's record for the next build, and which records moved since the last."""
        old = self.previous[3] if self.previous is not None else {}
        old_docs = self.previous[2] if self.previous is not None else {}
        same: dict[int, bool] = {}
        changed: set[str] = set()
        for d in documents:
            entry = old_docs.get(d.path)
            clean = entry is not None and d.path not in self.relinked and entry[0] == self.doc_blobs.get(d.path, "")
            if not clean:
                self.relinked.add(d.path)  # linked anew, or new here: its links may be any
            for x in per_doc.get(d.path, ()):
                for t in x.targets:
                    ok = same.get(t.node)
                    if ok is None:
                        record = self.targets[t.node] = t[1:]
                        ok = same[t.node] = old.get(t.node) == record
                    clean = clean and ok
            if not clean:
                changed.add(d.path)
        # A target whose record moved, or that no link names any more: the shards of its keys, old and new.
        self.moved_targets = {i for i, ok in same.items() if not ok} | (old.keys() - self.targets.keys())
        return changed

    def plan(self, documents: Sequence, changed: set[str], keys: Mapping[str, list], doc_shards: int,
             target_shards: int) -> tuple[set[int], set[int]]:
        """The `by_doc` and `by_target` shard numbers to encode; `kept` gets the others' blob ids.

        `keys`: each changed document's links with their keys; the others' shards come from the memo.
        A document linked anew may have any links: every shard its links fill, now or then, is encoded;
        one that only names a moved target changes the shards of that target's keys alone."""
        self.doc_shards, self.target_shards = doc_shards, target_shards
        old_docs = self.previous[2] if self.previous is not None else {}
        for d in documents:
            if d.path in changed:
                shards = {_shard(key, target_shards) for _x, matching in keys[d.path] for key in matching}
                records = sum(len(matching) for _x, matching in keys[d.path])
                self.docs[d.path] = (self.doc_blobs.get(d.path, ""), tuple(sorted(shards)), records)
            else:
                self.docs[d.path] = old_docs[d.path]
        if not self.same_counts(doc_shards, target_shards):
            return set(range(doc_shards)), set(range(target_shards))
        removed = old_docs.keys() - self.docs.keys()
        by_doc = {_shard(path, doc_shards) for path in changed | removed}
        anew = (self.relinked & self.docs.keys()) | removed
        by_target = {n for path in anew for entry in (old_docs.get(path), self.docs.get(path)) if entry
                     for n in entry[1]}
        old_targets = self.previous[3]  # type: ignore[index]
        for node in self.moved_targets:
            for record in (old_targets.get(node), self.targets.get(node)):
                if record is not None:
                    target = Target(node, *record)
                    by_target.update(_shard(key, target_shards) for ambiguous in (False, True)
                                     for key in _target_keys(target, ambiguous))
        ids = self.previous[4]  # type: ignore[index]
        for number in range(doc_shards):
            self._keep(by_doc_path(number), number, by_doc, ids)
        for number in range(target_shards):
            self._keep(by_target_path(number), number, by_target, ids)
        return by_doc, by_target

    def _keep(self, path: str, number: int, encode: set[int], ids: Mapping[str, str]) -> None:
        """Keep a shard the last build wrote and the ref's bundle still stores; else encode it again."""
        if number in encode or path not in ids:
            return  # to be encoded, or it had no documents and still has none
        if self.stored.get(f"{NAME}/{path}") == ids[path]:
            self.kept[path] = ids[path]
        else:
            encode.add(number)

    def same_counts(self, doc_shards: int, target_shards: int) -> bool:
        """Whether the last build had these shard counts: else its shards say nothing of this build's."""
        return self.previous is not None and self.previous[:2] == (doc_shards, target_shards)

    def records(self, path: str) -> int:
        """How many `by_target` records an unchanged document's links make (as the last build counted)."""
        assert self.previous is not None
        return self.previous[2][path][2]

    def target_shards_of(self, path: str) -> tuple[int, ...]:
        return self.docs[path][1]


def _valid_shards(value: object) -> bool:
    return (isinstance(value, tuple) and len(value) == 5 and isinstance(value[0], int) and isinstance(value[1], int)
            and all(isinstance(v, dict) for v in value[2:]))


class _Table:
    """A shard's own table of the nodes and documents its records name, so that each is spelled once."""

    def __init__(self) -> None:
        self.nodes: dict[str, list] = {}
        self.docs: list[list[str]] = []
        self.doc_index: dict[str, int] = {}

    def node(self, t: Target) -> int:
        key = str(t.node)
        if key not in self.nodes:
            self.nodes[key] = [t.path, t.name, t.kind, t.line, t.owner, t.centrality]
        return t.node

    def doc(self, path: str, kind: str) -> int:
        index = self.doc_index.get(path)
        if index is None:
            index = self.doc_index[path] = len(self.docs)
            self.docs.append([path, kind])
        return index


def _flags(link: DocLink) -> int:
    return int(link.heading) | int(link.directive) << 1


def encode_links(documents: Sequence, links: Sequence[DocLink],
                 plan: _ShardPlan | None = None) -> tuple[dict[str, object], dict]:
    """The index's blobs (as JSON values, path -> value) and its manifest section.

    `links` come in document order. With a `plan`, only the shards it names are encoded (the others it keeps)."""
    per_doc: dict[str, list[DocLink]] = defaultdict(list)
    for link in links:
        per_doc[link.document].append(link)
    kinds = {d.path: doc_kind(d.path) for d in documents}
    from gitroute.text import stems

    # Each entry: path, title, kind, link count, and the word stems of its path and title (what a
    # question in words is matched against, computed once here rather than at every answer).
    docs_list = [[d.path, d.title[:200], kinds[d.path], len(per_doc.get(d.path, ())),
                  sorted(set(stems(f"{d.path} {d.title[:200]}")))] for d in documents]

    plan = plan or _ShardPlan(None, set(), {}, {})
    changed = plan.changed(documents, per_doc)
    cache: dict[tuple[int, bool], list[str]] = {}
    keys = {path: [(x, _link_keys(x, cache)) for x in per_doc.get(path, ())] for path in changed}
    doc_shards = _shard_count(len(links), LINKS_PER_DOC_SHARD)
    records = sum(sum(len(m) for _x, m in keys[d.path]) if d.path in changed else plan.records(d.path)
                  for d in documents)
    target_shards = _shard_count(records, RECORDS_PER_TARGET_SHARD)
    if not plan.same_counts(doc_shards, target_shards):  # every record moves shard: encode them all
        changed = {d.path for d in documents}
        for path in changed - keys.keys():
            keys[path] = [(x, _link_keys(x, cache)) for x in per_doc.get(path, ())]
    doc_numbers, target_numbers = plan.plan(documents, changed, keys, doc_shards, target_shards)

    by_doc: dict[int, dict] = defaultdict(lambda: {"nodes": _Table(), "docs": {}})
    for d in documents:
        if d.path not in per_doc or _shard(d.path, doc_shards) not in doc_numbers:
            continue
        shard = by_doc[_shard(d.path, doc_shards)]
        table: _Table = shard["nodes"]
        sections: dict[tuple[str, str, int], int] = {}
        rows = []
        for x in per_doc[d.path]:
            section_id = sections.setdefault((x.section[:200], x.number, x.section_line), len(sections))
            rows.append([x.line, section_id, x.token, x.status, x.total, _flags(x),
                         [table.node(t) for t in x.targets]])
        shard["docs"][d.path] = {"title": d.title[:200], "kind": kinds[d.path], "links": rows,
                                 "sections": [list(key) for key in sections]}

    keyed: dict[str, list[tuple[DocLink, list[Target]]]] = defaultdict(list)
    shard_of: dict[str, int] = {}
    touches: dict[tuple[int, bool], bool] = {}  # (node, ambiguous) -> a key of it is in a shard encoded here

    def encoded(x: DocLink) -> bool:
        ambiguous = x.status == AMBIGUOUS
        for t in x.targets:
            hit = touches.get((t.node, ambiguous))
            if hit is None:
                hit = touches[t.node, ambiguous] = any(_shard(key, target_shards) in target_numbers
                                                        for key in _target_keys(t, ambiguous))
            if hit:
                return True
        return False

    for d in documents:
        if d.path in changed:
            matches = keys[d.path]
        elif target_numbers.isdisjoint(plan.target_shards_of(d.path)):
            continue  # none of its records is in a shard encoded here
        else:  # only its links with a record in a shard encoded here
            matches = [(x, _link_keys(x, cache)) for x in per_doc.get(d.path, ()) if encoded(x)]
        for x, matching in matches:
            for key, targets in matching.items():
                number = shard_of.get(key)
                if number is None:
                    number = shard_of[key] = _shard(key, target_shards)
                if number in target_numbers:
                    keyed[key].append((x, targets))
    by_target: dict[int, dict] = defaultdict(lambda: {"nodes": _Table(), "keys": {}})
    for key in sorted(keyed):
        shard = by_target[_shard(key, target_shards)]
        table = shard["nodes"]
        shard["keys"][key] = [
            [table.doc(x.document, kinds[x.document]), x.line, x.section[:200], x.number, x.token, x.status,
             x.total, _flags(x), [table.node(t) for t in targets]]
            for x, targets in keyed[key]
        ]

    blobs: dict[str, object] = {DOCS_LIST: docs_list}
    for number, shard in by_doc.items():
        blobs[by_doc_path(number)] = {"nodes": shard["nodes"].nodes, "docs": shard["docs"]}
    for number, shard in by_target.items():
        table = shard["nodes"]
        blobs[by_target_path(number)] = {"nodes": table.nodes, "docs": table.docs, "keys": shard["keys"]}
    statuses = Counter(x.status for x in links)
    section = {
        "counts": {
            "documents": len(documents),
            "documents_linked": len(per_doc),
            "links": len(links),
            EXACT: statuses.get(EXACT, 0),
            DISAMBIGUATED: statuses.get(DISAMBIGUATED, 0),
            AMBIGUOUS: statuses.get(AMBIGUOUS, 0),
        },
        "shards": {"by_doc": doc_shards, "by_target": target_shards},
        "rules": "tokens name a path, base name, dotted module path, Owner.name, or a last segment of "
                 f"{MIN_NAME}+ characters; ambiguous links keep every candidate (at most {MAX_CANDIDATES})",
    }
    return blobs, section


def _expand(nodes: Mapping, ids: Iterable) -> list[list]:
    """Node ids of a record -> [node, path, name, kind, line, owner, centrality] lists.

    Raises ValueError (or KeyError, TypeError) on a record of another shape: a bundle is untrusted input."""
    out = []
    for i in ids:
        path, name, kind, line, owner, centrality = nodes[str(i)]
        if not (isinstance(path, str) and isinstance(name, str) and isinstance(kind, str) and isinstance(owner, str)
                and isinstance(line, int) and isinstance(centrality, int)):
            raise ValueError(f"node record {i} has the wrong shape")
        out.append([int(i), path, name, kind, line, owner, centrality])
    return out


def _valid_docs_list(value: object) -> bool:
    return isinstance(value, list) and all(
        isinstance(e, list) and len(e) == 5 and isinstance(e[0], str) and isinstance(e[1], str)
        and isinstance(e[2], str) and isinstance(e[3], int) and isinstance(e[4], list)
        for e in value
    )


def doc_entry_links(nodes: Mapping, entry: Mapping) -> list[list]:
    """A `by_doc` entry's links as [line, section, number, token, status, total, flags, targets, section_line]."""
    sections = entry["sections"]
    out = []
    for line, section, token, status, total, heading, ids in entry["links"]:
        text, number, section_line = sections[section]
        out.append([line, text, number, token, status, total, heading, _expand(nodes, ids), section_line])
    return out


def decode_doc_links(path: str, nodes: Mapping, entry: Mapping) -> list[DocLink]:
    """One document's links back from its `by_doc` entry."""
    return [
        DocLink(path, section, number, line, token, status, tuple(Target(*t) for t in targets), total,
                bool(flags & 1), section_line, bool(flags & 2))
        for line, section, number, token, status, total, flags, targets, section_line in doc_entry_links(nodes, entry)
    ]


def read_links(view) -> list[DocLink]:
    """Every link in a bundle, documents by path (what DOC-CODE.md is made from): reads each `by_doc` shard."""
    shards = int(view.section.get("shards", {}).get("by_doc", 1))
    links: list[DocLink] = []
    for number in range(shards):
        path = by_doc_path(number)
        value = _read_shard(view, path)
        if not value:
            continue
        try:
            for document in value["docs"]:
                links.extend(decode_doc_links(document, value["nodes"], value["docs"][document]))
        except (ValueError, TypeError, KeyError, IndexError) as err:
            raise view.corrupt(path) from err
    links.sort(key=lambda x: (x.document, x.line))
    return links


# --------------------------------------------------------------------------------------------- the map


def _cell(text: str) -> str:
    return " ".join(text.replace("|", "\\|").split())


def render_doc_code_map(links: Iterable[DocLink]) -> str:
    """DOC-CODE.md: the file-level map, document → section → the files it names.

    One Markdown table row per (document, section, file): documents by path, sections in document order,
    files by path, with how many links name the file there. Ambiguous links are left out (they name no
    one file). Deterministic byte for byte: the same links give the same text, in any input order.
    """
    counts: Counter = Counter()
    for link in links:
        if link.status == AMBIGUOUS:
            continue
        label = link.section or "(before the first heading)"
        for path in sorted({t.path for t in link.targets}):
            counts[(link.document, link.section_line, label, path)] += 1
    lines = [
        "# Doc ↔ code map",
        "",
        "Generated by `git route doc-code --write` from the pinned commit; do not edit by hand.",
        "Each row is a section of a document and a file it names, with how many links name that file there;",
        "ambiguous links (a name defined in several files) are not listed.",
        "",
        "| document | section | file | links |",
        "|---|---|---|---|",
    ]
    for (document, _line, label, path), count in sorted(counts.items()):
        lines.append(f"| {_cell(document)} | {_cell(label)} | {_cell(path)} | {count} |")
    return "\n".join(lines) + "\n"


def map_rows(text: str) -> int:
    """How many (document, section, file) rows a DOC-CODE.md text holds (for the shrink guard)."""
    count = 0
    for line in text.splitlines():
        if line.startswith("| ") and not line.startswith("| document | section | file |"):
            count += 1
    return count


# -------------------------------------------------------------------------------------------- answers


def normalize_question(text: str) -> str:
    text = text.strip().strip("`").strip()
    while text[:1] in ("~", "!", "@"):
        text = text[1:]
    if text.startswith(".") and not text.startswith(("./", "../")):
        text = text.lstrip(".")
    if text.endswith("()"):
        text = text[:-2]
    return text.replace("::", ".").replace("#", ".").strip()


def question_keys(question: str) -> list[str]:
    """The `by_target` keys a question may be stored under, most specific first."""
    q = question.lower()
    keys = [q]
    if "/" not in q and "." in q:
        parts = [p for p in q.split(".") if p]
        if len(parts) >= 2:
            keys.append(".".join(parts[-2:]))
        keys.append(parts[-1] if parts else q)
    return list(dict.fromkeys(k for k in keys if k))


def _target_matches(question: str, t: list) -> bool:
    """Whether a stored target is what the question names (the key only narrowed by hash and case)."""
    _node, path, name, kind, _line, owner, _c = t
    q = question
    if "/" in q:
        return path == q or path.endswith("/" + q)
    if kind == "file" and (path == q or name == q):
        return True
    if name == q or _qualname(owner.rsplit(".", 1)[-1] if owner else "", name) == q:
        return True
    parts = [p for p in q.split(".") if p]
    if not parts or parts[-1] != name:
        if kind == "file" and q.lower() in (path.lower(), name.lower()):
            return True
        return False
    scope = set(posixpath.splitext(path)[0].split("/")) | set(owner.split("."))
    return all(p in scope for p in parts[:-1])


def _case_insensitive_match(question: str, t: list) -> bool:
    """The question's words in any case: `flask.Flask.route` finds `route` of `src/flask/...:Scaffold`."""
    _node, path, name, kind, _line, owner, _c = t
    q = question.lower()
    if q in (name.lower(), path.lower(), _qualname(owner, name).lower()):
        return True
    parts = [p for p in q.split(".") if p]
    if "/" in q or len(parts) < 2 or parts[-1] != name.lower():
        return False
    scope = {p.lower() for p in posixpath.splitext(path)[0].split("/")} | {p.lower() for p in owner.split(".")}
    return all(p in scope for p in parts[:-1])


def _last_segment_match(question: str, t: list) -> bool:
    """Only the last segment: `Flask.route` finds `route` wherever it is defined (an inherited method)."""
    parts = [p for p in question.split(".") if p]
    return "/" not in question and len(parts) >= 2 and t[2] == parts[-1]


def _matching(question: str, records: list[list]) -> tuple[list[tuple[list, list]], str | None]:
    """Records whose targets the question names: as written, then in any case, then by last segment."""
    for tier, test in enumerate((_target_matches, _case_insensitive_match, _last_segment_match)):
        matched = []
        for record in records:
            targets = [t for t in record[9] if test(question, t)]
            if targets:
                matched.append((record, targets))
        if matched:
            note = None
            if tier == 2:
                last = question.rsplit(".", 1)[-1]
                note = f"no document names '{question}' as written; these name '{last}'"
            return matched, note
    return [], None


def rank_documents(question: str, records: Iterable[list], limit: int, explain: bool) -> list[Row]:
    """`docs`: one row per document that names the thing, best explainer first."""
    matched, _note = _matching(question, list(records))
    per_doc: dict[str, list[tuple[list, list]]] = defaultdict(list)
    for record, targets in matched[:MAX_ANSWER_RECORDS]:
        per_doc[record[0]].append((record, targets))
    if "/" in question or any(t[3] == "file" for _, targets in matched[:1] for t in targets):
        name = posixpath.splitext(posixpath.basename(question))[0].lower()  # a file: its stem
    else:
        name = question.rsplit(".", 1)[-1].lower()
    rows: list[Row] = []
    for document, hits in per_doc.items():
        kind = hits[0][0][1]
        weight = 0.0
        heading_hit = None
        reference_hit = None  # a directive that documents the thing: its reference entry
        for record, _targets in hits:
            status, total = record[6], record[7]
            weight += STATUS_WEIGHT.get(status, AMBIGUOUS_WEIGHT / max(total, 1))
            if heading_hit is None and (record[8] & 1 or (name and name in record[3].lower())):
                heading_hit = record
            if reference_hit is None and record[8] & 2:
                reference_hit = record
        signals = [("links", round(2.0 * math.log1p(weight), 3))]
        if heading_hit is not None:
            signals.append(("heading", 1.5))
        if reference_hit is not None:
            signals.append(("reference", 1.5))
        if kind == "record":
            signals.append(("design_record", 1.0))
        elif kind == "changelog":
            signals.append(("changelog", -1.5))
        best = reference_hit or heading_hit or min(hits, key=lambda h: (STATUS_ORDER[h[0][6]], h[0][2]))[0]
        statuses = sorted({r[6] for r, _ in hits}, key=STATUS_ORDER.__getitem__)
        score = round(sum(v for _, v in signals), 3)
        first_target = hits[0][1][0]
        extra = (
            ("section", best[3]), ("section_number", best[4]), ("token", best[5]), ("links", len(hits)),
            ("status", statuses[0]), ("document_kind", kind),
            ("target", first_target[1] if first_target[3] == "file" else
             f"{first_target[1]}:{_qualname(first_target[5], first_target[2])}"),
        )
        rows.append(Row(document, best[2], best[5], "document", score, tuple(signals) if explain else (), extra))
    rows.sort(key=lambda r: (-r.score, r.path, r.line or 0))
    return rows[:limit]


def match_document(question: str, docs_list: Sequence[list]) -> tuple[list | None, list[str]]:
    """The document a `code` question names, and other documents it matches as well."""
    q = question.strip().strip("/")
    low = q.lower()
    tiers: list[list[list]] = [[], [], [], [], []]
    for entry in docs_list:
        path = entry[0]
        lower = path.lower()
        base = posixpath.basename(lower)
        stem = posixpath.splitext(base)[0]
        if path == q:
            tiers[0].append(entry)
        elif lower.endswith("/" + low) or lower == low:
            tiers[1].append(entry)
        elif low in (base, stem) or posixpath.splitext(lower)[0].endswith("/" + low):
            tiers[2].append(entry)
        elif low in lower:
            tiers[3].append(entry)
        elif low and low in str(entry[1]).lower():
            tiers[4].append(entry)
    for tier in tiers:
        if tier:
            # Most links first, then the shortest path: `ref/models/querysets` over a release note.
            tier.sort(key=lambda e: (-int(e[3] > 0), len(e[0]), e[0]))
            return tier[0], [e[0] for e in tier[1:4]]
    return _match_by_words(q, docs_list)


def _match_by_words(question: str, docs_list: Sequence[list]) -> tuple[list | None, list[str]]:
    """A document named in a person's words ("the file uploads pattern"): most of the question's word
    stems stand in its path or title."""
    from gitroute.text import content_tokens, stem

    asked = {stem(t) for t in content_tokens(question)} - {stem(w) for w in _GENERIC_DOC_WORDS}
    if not asked:
        return None, []
    scored = []
    for entry in docs_list:
        covered = len(asked.intersection(entry[4])) / len(asked)
        if covered >= 0.66:
            scored.append((-covered, -int(entry[3] > 0), len(entry[0]), entry[0], entry))
    if not scored:
        return None, []
    scored.sort()
    best = [s for s in scored if s[0] == scored[0][0]]
    return best[0][4], [s[3] for s in best[1:4]]


def rank_code(links: Sequence[list], limit: int, explain: bool) -> list[Row]:
    """`code`: the files a document names, one row per file, with the symbols it names in that file."""
    per_file: dict[str, dict] = {}
    for line, section, number, _token, status, total, _heading, targets, _section_line in links:
        weight = STATUS_WEIGHT.get(status, AMBIGUOUS_WEIGHT / max(total, 1))
        for t in targets:
            _node, path, name, kind, node_line, owner, centrality = t
            entry = per_file.setdefault(path, {"weight": 0.0, "links": 0, "symbols": Counter(), "status": status,
                                               "section": section, "number": number, "doc_line": line,
                                               "centrality": 0, "lines": {}, "kinds": {}, "candidates": 0,
                                               "best": {}})
            entry["weight"] += weight
            entry["links"] += 1
            entry["centrality"] = max(entry["centrality"], int(centrality))
            if STATUS_ORDER[status] < STATUS_ORDER[entry["status"]]:
                entry["status"] = status
            if status == AMBIGUOUS:
                entry["candidates"] = max(entry["candidates"], int(total))
            if kind != "file":
                qual = _qualname(owner, name)
                entry["symbols"][qual] += 1
                entry["lines"].setdefault(qual, node_line)
                entry["kinds"].setdefault(qual, kind)
                best = entry["best"].get(qual, AMBIGUOUS)
                entry["best"][qual] = status if STATUS_ORDER[status] < STATUS_ORDER[best] else best
    rows: list[Row] = []
    from gitroute.rank import is_secondary

    for path, entry in per_file.items():
        signals = [("links", round(2.0 * math.log1p(entry["weight"]), 3)),
                   ("centrality", round(0.3 * math.log1p(entry["centrality"]), 3))]
        if is_secondary(path):
            signals.append(("secondary", -0.5))
        score = round(sum(v for _, v in signals), 3)
        symbols = [s for s, _ in sorted(entry["symbols"].items(), key=lambda kv: (-kv[1], kv[0]))]
        top = symbols[0] if symbols else None
        extra: tuple = (("section", entry["section"]), ("section_number", entry["number"]),
                        ("doc_line", entry["doc_line"]), ("links", entry["links"]), ("status", entry["status"]),
                        ("symbols", symbols[:20]),
                        # Symbols only ever named ambiguously: candidates, not claims.
                        ("ambiguous", [s for s in symbols[:20] if entry["best"].get(s) == AMBIGUOUS]))
        if entry["status"] == AMBIGUOUS:
            extra += (("candidates", entry["candidates"]),)
        rows.append(Row(path, entry["lines"].get(top) if top else None, top,
                        entry["kinds"].get(top, "file") if top else "file", score,
                        tuple(signals) if explain else (), extra))
    rows.sort(key=lambda r: (-r.score, r.path))
    return rows[:limit]


def _read_shard(view, path: str) -> dict:
    import json

    blobs = view.read([path])
    if path not in blobs:
        return {}
    try:
        value = json.loads(blobs[path])
    except ValueError as err:
        raise view.corrupt(path) from err
    if not isinstance(value, dict):
        raise view.corrupt(path)
    return value


def name_candidates(question: str) -> list[str]:
    """The names a `docs` question may mean, most likely first: the question itself when it is one word;
    in a sentence ("where is the session interface documented"), its code-like words, then adjacent
    words joined as code would spell them (`session_interface`, `SessionInterface`), then its longer words."""
    q = normalize_question(question)
    if not any(c.isspace() for c in q):
        return [q] if q else []
    from gitroute.text import STOP_WORDS

    words = [normalize_question(w.strip("`'\".,?!:;()")) for w in q.split()]
    codeish = [w for w in words if w and (any(c in w for c in "._/") or any(c.isupper() for c in w[1:]))]
    content = [w for w in words if w and w.lower() not in STOP_WORDS and w.lower() not in _GENERIC_DOC_WORDS
               and w not in codeish]
    joined = []
    for a, b in zip(content, content[1:]):
        joined += [f"{a.lower()}_{b.lower()}", a[:1].upper() + a[1:] + b[:1].upper() + b[1:]]
    singles = sorted((w for w in content if len(w) >= MIN_NAME), key=len, reverse=True)
    return list(dict.fromkeys(codeish + joined + singles))[:12]


def _records_for(view, q: str, shards: int, cache: dict[str, dict]) -> list[list]:
    records: list[list] = []
    seen: set[tuple[str, int, str]] = set()
    for key in question_keys(q):
        path = by_target_path(_shard(key, shards))
        if path not in cache:
            cache[path] = _read_shard(view, path)
        value = cache[path]
        if not value:
            continue
        try:
            docs, nodes = value["docs"], value["nodes"]
            for doc, line, section, number, token, status, total, flags, ids in value["keys"].get(key, ()):
                identity = (docs[doc][0], line, token)
                if identity not in seen:
                    seen.add(identity)
                    records.append([docs[doc][0], docs[doc][1], line, section, number, token, status, total,
                                    flags, _expand(nodes, ids)])
        except (ValueError, TypeError, KeyError, IndexError) as err:
            raise view.corrupt(path) from err
    return records


def answer_docs(view, question: str, limit: int, explain: bool) -> Answer:
    candidates = name_candidates(question)
    if not candidates:
        return Answer("no_match", view.source, (), ("an empty name names nothing",))
    shards = int(view.section.get("shards", {}).get("by_target", 1))
    cache: dict[str, dict] = {}
    for q in candidates:
        records = _records_for(view, q, shards, cache)
        rows = rank_documents(q, records, limit, explain)
        if not rows:
            continue
        _matched, note = _matching(q, records)
        notes = [note] if note else []
        if q != normalize_question(question):
            notes.insert(0, f"read the question as the name '{q}'")
        return Answer("routed", view.source, tuple(rows), tuple(notes))
    shown = normalize_question(question)
    return Answer("no_match", view.source, (),
                  (f"no document names '{shown}' (inline code, literals, roles, directives or links)",))


def answer_code(view, question: str, limit: int, explain: bool) -> Answer:
    docs_list = view.read_json(DOCS_LIST)
    if not _valid_docs_list(docs_list):
        raise view.corrupt(DOCS_LIST)
    entry, others = match_document(question, docs_list)
    if entry is None:
        return Answer("no_match", view.source, (), (f"no document matches '{question}'",))
    path = entry[0]
    notes = (f"'{question}' also matches: {', '.join(others)}",) if others else ()
    if not entry[3]:
        return Answer("no_match", view.source, (), (f"document '{path}' names no file or symbol of the code graph",)
                      + notes, {"document": path})
    shards = int(view.section.get("shards", {}).get("by_doc", 1))
    shard = by_doc_path(_shard(path, shards))
    value = _read_shard(view, shard)
    try:
        links = doc_entry_links(value["nodes"], value["docs"][path])
    except (ValueError, TypeError, KeyError, IndexError) as err:
        raise view.corrupt(shard) from err
    rows = rank_code(links, limit, explain)
    return Answer("routed", view.source, tuple(rows), notes, {"document": path})


def answer(view, question: str, *, limit: int = 10, explain: bool = False, direction: str = "docs",
           **options: object) -> Answer:
    """direction "docs": the documents that explain a file or symbol; "code": what a document names."""
    if direction == "code":
        return answer_code(view, question, limit, explain)
    return answer_docs(view, question, limit, explain)
