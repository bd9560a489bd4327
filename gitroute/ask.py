"""`git route ask`: what kind of question a text is, which command answers each kind, and one answer from several.

The answering commands themselves (which index each asks, with which options and arguments) are
`gitroute.specs.COMMANDS`: `ask` routes to its rows, and `git route mcp` makes one tool per row whose index
the registry holds.

The classifier reads evidence, never a list of known questions: the shape of the question's words
(a question word, an identifier, a path), phrases that ask for a kind of answer ("what breaks if",
"which doc explains", "why did we"), and facts the caller looks up in the bundle (whether a token is
a path of the pinned commit, whether a word is a symbol's name). A question can be of several
kinds at once; each kind says why it was chosen, for `--explain`.
"""
from __future__ import annotations

import glob
import posixpath
import re
from collections import namedtuple
from collections.abc import Callable, Sequence

from gitroute.model import Answer, Row
from gitroute.phrases import (
    DEFINING,
    TESTS_WHY,
    WHERE_IS,
    WIRING_COPIES_WHAT,
    changed_words,
    phrase_intents,
    without_decision_phrases,
)
from gitroute.text import (
    LazyPattern,
    is_code_name,
    is_marked_code,
    is_name,
    name_parts,
    normalize_name,
    split_path_name,
)

# Question kind -> the command that answers it. A name and a plain-words question both go to
# `query`, which mixes the symbol tiers and BM25 by the question's shape.
KIND_COMMAND = {
    "symbol": "query", "meaning": "query", "code": "code", "docs": "docs",
    "impact": "impact", "decision": "why", "wiring": "wiring",
}


# --- what kind of question ---------------------------------------------------------------------------

DOC_EXTENSIONS = (".md", ".markdown", ".rst", ".txt", ".adoc", ".asciidoc", ".org", ".rdoc")
# A token shaped like a file name: a dot then 1-10 letters or digits, at the end.
_FILE_SHAPE = re.compile(r"[\w.-]+\.[A-Za-z][A-Za-z0-9]{0,9}$")
# (a single quote opens only where no letter comes before it: "the README's 'Event handlers' sample")
_QUOTED = re.compile(r"`([^`]+)`|(?<!\w)'([^'\s][^']*)'(?!\w)|\"([^\"]+)\"")
_TRIM = ".,;:!?()[]{}<>\"'`"
_POSSESSIVE = re.compile(r"(?:'s|’s|')$")
# A call's arguments after a name: "what json_object_seed(0) does" asks about `json_object_seed`.
_ARGUMENTS = re.compile(r"(?<=\w)\([^()]{0,60}\)")
# A document named by its file's name in capitals: README, INSTALL, CONTRIBUTING, CHANGELOG.
_CAPITALS = re.compile(r"^[A-Z][A-Z0-9_-]{3,}$")


# Nouns that make a short phrase a document's title ("the templating docs", "the model field reference").
_DOC_NOUNS = frozenset("doc docs documentation guide guides reference tutorial tutorials howto how-to manual "
                       "chapter page readme faq overview introduction topic topics notes handbook".split())
# Words that start a question in plain words (as opposed to a name or a title).
_QUESTION_WORDS = frozenset("where what which who whom whose how when why is are does do can could should "
                            "will would was were find show list explain describe locate tell".split())
# Words that ask for a thing without saying anything of it: a request, and the kind of thing asked for.
_LOOKUP_WORDS = _QUESTION_WORDS | frozenset("me us you i we please need want open get give go jump to see look up at "
                                            "and or for of the a an it its this has have contains holds definition "
                                            "declaration source implementation code file function method class type "
                                            "struct symbol named called happens happen in inside walk through"
                                            .split()) | frozenset(DEFINING)  # "what happens in X": what X does


class Evidence:
    """Facts about the question's tokens, looked up by the caller in the bundle and its source commit.

    path_kind(token) -> "blob" | "tree" | None: whether the token is a path of the pinned commit.
    is_symbol(name) -> bool: whether a symbol of the repository has exactly that name.
    document_named(text) -> str | None: the document whose path, base name or stem the text is.
    document_titled(words) -> str | None: the one document whose title the words are ("Extending Monolog").
    symbol_named(words) -> str | None: the symbol the words spell, case and separators aside
    ('session interface' -> 'SessionInterface').
    definitions(name) -> tuple of (path, name) | None: where the repository defines a name (a qualified one by
    its last part, within its qualifiers where they say), () when it defines none, None when not known.
    is_word(name) -> bool: whether the repository's names, docs or folders hold the name as one word (`postgresql`):
    a camel-cased word that is no symbol (`PostgreSQL`, `GitHub`) may still be what it is about.
    is_document(path) -> bool: whether a file of the pinned commit is a document (prose the docs index reads).
    files_in(folder) -> list of paths: the files right inside a folder of the pinned commit.
    design_heading(words) -> str | None: the heading of a design record's section (or a design section of another
    document) that is these very words ("immutable indexes?" and `2.2.5 Immutable indexes`).
    document_writes(name) -> bool: whether a document's section writes the name as it is spelled (a function the
    code calls but does not define: libc's `clock_gettime` in Redis' README).
    is_document_word(name) -> bool: whether a document's section writes the name as one word, in any case (a
    product's name: uuid's README writes "Typescript").
    """

    def __init__(self, path_kind: Callable[[str], str | None] = lambda _: None,
                 is_symbol: Callable[[str], bool] = lambda _: False,
                 document_named: Callable[[str], str | None] = lambda _: None,
                 document_titled: Callable[[str], str | None] = lambda _: None,
                 symbol_named: Callable[[str], str | None] = lambda _: None,
                 definitions: Callable[[str], Sequence[tuple[str, str]] | None] = lambda _: None,
                 is_document: Callable[[str], bool] | None = None,
                 files_in: Callable[[str], Sequence[str]] = lambda _: (),
                 is_word: Callable[[str], bool] = lambda _: False,
                 design_heading: Callable[[str], str | None] = lambda _: None,
                 document_writes: Callable[[str], bool] = lambda _: False,
                 is_document_word: Callable[[str], bool] = lambda _: False) -> None:
        self.path_kind = path_kind
        self.is_symbol = is_symbol
        self.document_named = document_named
        self.document_titled = document_titled
        self.symbol_named = symbol_named
        self.definitions = definitions
        self.is_document = is_document or (lambda path: path.lower().endswith(DOC_EXTENSIONS))
        self.files_in = files_in
        self.is_word = is_word
        self.design_heading = design_heading
        self.document_writes = document_writes
        self.is_document_word = is_document_word


# Words around the thing a change question is about: "if I change *the session interface*".
_NOT_THE_THING = frozenset(
    "the a an this that these those my our your its their to of in on at it if i we you someone would will could "
    "might change changed changes rename renamed remove removed delete deleted modify modified edit edited touch "
    "touched refactor break breaks class function method type struct interface module file trait "
    # the words of the usage and tests phrases ("which tests cover the HTML tokeniser", "does anything still use")
    "tests tested cover covers covered exercise exercises exercised call calls called use uses used using any "
    "anything anyone still".split())
MAX_SPELLED_WORDS = 4  # a name spelled in words: "the url map adapter" at most
MAX_SPELLED_TRIES = 6  # symbol lookups a question's words may cost
CHANGED_WORDS = 3  # the words after a change's verb that may spell what it changes ("tweak how deepcompare treats")
MAX_NAMES = 4  # names of a question looked up in the bundle
MAX_HEADING_WORDS = 4  # a question this short may be a design section's heading, looked up in the bundle
DECISION_SHARE = 3  # a why question's record sections given before a name's rows (the rows a reader looks at)


def _spelled_subject(tail: str, evidence: Evidence, frame: frozenset[str] = frozenset()) -> tuple[str, str] | None:
    """(words, name) of the symbol a question spells in words after its phrase, longest and earliest words first;
    `frame`: the phrase's own words, never the name ("where is GO111MODULE defined": not `Defined`)."""
    owned = _owned_member(tail, evidence)
    if owned:
        return owned
    words = [_POSSESSIVE.sub("", w.strip(_TRIM)) for w in tail.split()]
    # A kind word stays for a name that holds one ("the session interface" is SessionInterface), but is never a
    # name alone ("the Blueprint class": Blueprint).
    words = [w for w in words if w and (w.lower() not in _NOT_THE_THING or w.lower() in _KIND_WORDS)
             and w.lower() not in _QUESTION_WORDS and w.lower() not in frame]
    tries = 0
    for size in range(min(len(words), MAX_SPELLED_WORDS), 0, -1):
        # one word alone: the last first, the head of a noun phrase ("the HTML tokeniser": Tokeniser, not html)
        starts = range(len(words) - 1, -1, -1) if size == 1 else range(0, len(words) - size + 1)
        for start in starts:
            if size == 1 and (len(words[start]) < 4 or words[start].lower() in _KIND_WORDS):
                continue
            spelled = " ".join(words[start:start + size])
            name = evidence.symbol_named(spelled)
            if name:
                return spelled, name
            tries += 1
            if tries >= MAX_SPELLED_TRIES:
                return None
    return None


class Route(namedtuple("Route", "kind command text reason share options guessed", defaults=(1, None, False))):
    """One index to ask: the question's kind, the command that answers it, the text it is asked (the whole
    question, or the name or path the question is about), why this kind was chosen, how many rows it
    gives per turn when answers are merged (2 when the evidence for it is strong), the command's
    options it adds (a path filter for a name asked in one file), or None, and whether the name asked is a guess
    (a plain word among the others asked about, spelled as a name: "where is command aliases documented?")."""

    __slots__ = ()


class Classification(namedtuple("Classification", "routes subject facts undefined unknown", defaults=((), ()))):
    """routes: tuple[Route, ...], first the kind the question most reads as; subject: the name or path the
    question is about, or None; facts: tuple[str, ...], the evidence looked up, for --explain; undefined: the
    names a docs, impact or definition question asks about that the repository does not define (no routes
    then: the answer is no_match); unknown: the names a why or wiring question spells as code, when the repository
    defines none of them ("why was PostgreSQL chosen over MySQL"): when its routes find nothing, the answer is
    no_match, not the question's words asked of the meaning index."""

    __slots__ = ()


class Subjects:
    """What a question names: paths of the pinned commit, names in one file (`path:name`, "name in path"),
    names spelled as code (`url_for`, backticked words), documents named by their capitals (README), and the
    facts read on the way, for --explain."""

    def __init__(self) -> None:
        self.identifiers: list[str] = []  # code-shaped or backticked words, in the question's order
        self.quoted: set[str] = set()
        self.paths: list[tuple[str, str]] = []  # (path, "blob" | "tree")
        self.located: list[tuple[str, str]] = []  # (path, name)
        self.documents: list[str] = []  # documents the question names (by path, or by their capitals)
        self.files: set[str] = set()  # file paths and base names the question spells (to place a name in one)
        self.missing_paths: list[str] = []  # paths the question spells that the pinned commit does not have
        self.facts: list[str] = []
        self.position: dict[str, int] = {}  # where the question spells each name and path
        self.spelled: set[str] = set()  # names the question's plain words were read as (`_spelled_subject`)

    def code_paths(self) -> list[tuple[str, str]]:
        return [(p, k) for p, k in self.paths if p not in self.documents]


# (not "the Params class of Rack::QueryParser": the name after "of" says whose, and is asked)
_CALLED_A_DEFINITION = LazyPattern(r"\bthe\s+([A-Za-z_]\w*)\s+(?:function|method|class|helper|macro|struct"
                                   r"|constructor|hook|module|interface|trait|type|enum|typedef|protocol)\b"
                                   r"(?!\s+of\b)", re.I)
# "the new method", "the same function", "the base class": words that say which one, not its name
_NOT_A_NAME_BEFORE_ITS_KIND = frozenset("""new same old other whole entire first last next previous following above
    below given public private protected static abstract base parent child default right wrong only
    helper wrapper outer inner top""".split())
# "the parse method of Parser", "the constructor of JsonReader": the name a member belongs to (EJS' `Parser`)
_OWNER_OF_A_MEMBER = LazyPattern(r"\b(?:method|constructor|function|field|property|member|attribute)s?\s+of\s+"
                                 r"(?:the\s+)?([A-Za-z_]\w*)", re.I)
_COLON_METHOD = LazyPattern(r"([A-Za-z_]\w*):([A-Za-z_]\w*)")


def _as_method(word: str, found: Subjects, evidence: Evidence) -> str:
    """Lua's `Parser:_inherit_property` is the method `Parser._inherit_property` (when there is no file `Parser`)."""
    colon = _COLON_METHOD.fullmatch(word.removesuffix("()"))
    if colon is None or evidence.path_kind(colon.group(1)):
        return word
    dotted = f"{colon.group(1)}.{colon.group(2)}"
    found.position.setdefault(dotted, found.position[word.removesuffix("()").strip("/")])
    return dotted


def _subjects(text: str, evidence: Evidence) -> Subjects:
    """The names, repository paths and names in one file the question holds (see `Subjects`)."""
    found = Subjects()
    # Backticks mark code; plain quotes mark a title, a name, or just a value ("accepts 'extended' or 'simple'"):
    # one quoted word no code shape marks is a name only when the repository has a symbol of that name.
    quoted = [phrase for m in _QUOTED.finditer(text) for phrase in [next(g for g in m.groups() if g)]
              if m.group(1) or " " in phrase.strip() or is_code_name(phrase) or evidence.is_symbol(phrase)]
    found.quoted = set(quoted)
    for phrase in quoted:
        # a document named by its title in quotes: "the 'Extending Monolog' page"
        document = evidence.document_titled(phrase) if len(phrase.split()) > 1 else None
        if document and document not in found.documents:
            found.documents.append(document)
            found.facts.append(f"'{phrase}' is the title of the document '{document}'")
    raw = _ARGUMENTS.sub("", text).split()
    words = [_POSSESSIVE.sub("", w.strip(_TRIM)) if not w.strip(_TRIM).endswith(".") else w.strip(_TRIM)
             for w in raw]
    # A word that asks ("find", "get", "open"), capitalised inside a sentence, is a name when a symbol has it
    # ("find the Find method", "who calls Get?"): Go's exported methods are spelled so.
    capitalised = {w for i, w in enumerate(words) if i and w[:1].isupper() and not w.isupper()
                   and w.lower() in _LOOKUP_WORDS and not raw[i - 1].endswith((".", "?", "!", ":", ";"))}
    # "the outside function in the ranges folder": a plain word the question calls a function (or a method, a
    # class, …) is that name when the repository defines it (semver's `outside`)
    called = {m.group(1) for m in _CALLED_A_DEFINITION.finditer(text)
              if m.group(1).lower() not in _NOT_A_NAME_BEFORE_ITS_KIND and evidence.is_symbol(m.group(1))}
    # an owner spelled as a name is one ("the parse method of Parser"); "the attributes of metadata objects" names none
    called.update(m.group(1) for m in _OWNER_OF_A_MEMBER.finditer(text)
                  if (m.group(1)[:1].isupper() or is_code_name(m.group(1))) and evidence.is_symbol(m.group(1)))
    for word in dict.fromkeys(quoted + words):
        if not word:
            continue
        found.position.setdefault(word.removesuffix("()").strip("/"), _position(text, word))
        word = _as_method(word, found, evidence)
        path, name = split_path_name(word) or ("", "")
        if name and is_name(name) and ("/" in path or _FILE_SHAPE.match(path)) \
                and evidence.path_kind(path.strip("/")) == "blob":
            found.located.append((path.strip("/"), name))
            found.position[f"{path.strip('/')}:{name}"] = found.position[word.strip("/")]
            found.files.add(path.strip("/"))
            found.facts.append(f"'{word}' is '{name}' in the file '{path.strip('/')}' of the pinned commit")
            continue
        if "/" in word or _FILE_SHAPE.match(word):
            kind = evidence.path_kind(word.strip("/") or word)
            if kind:
                path = word.strip("/")
                found.paths.append((path, kind))
                if kind == "blob":
                    found.files.update((path, path.rpartition("/")[2]))
                    if evidence.is_document(path):
                        found.documents.append(path)
                what = "document" if path in found.documents else "file" if kind == "blob" else "folder"
                found.facts.append(f"'{word}' is a {what} of the pinned commit")
                continue
            if "/" in word:
                found.facts.append(f"'{word}' looks like a path but the pinned commit has no such path")
                path = (split_path_name(word) or (word, ""))[0].strip("/")
                # `word` itself was looked up above; only the path part of a `path:name` is a second lookup
                if _FILE_SHAPE.match(path.rpartition("/")[2]) and (
                        path == word.strip("/") or evidence.path_kind(path) is None):
                    found.missing_paths.append(path)
            elif _FILE_SHAPE.match(word) and not is_code_name(word):
                if is_name(word) and evidence.definitions(word):
                    # a qualified name whose last part reads as an extension (gin's `Context.JSON`)
                    found.identifiers.append(word)
                    found.facts.append(f"'{word}' is no path of the pinned commit but a name the repository defines")
                    continue
                found.files.add(word)  # a base name ("outside strbuffer.c"): which of a name's files is meant
        if is_name(word) and (is_code_name(word) and word.lower() not in _PRODUCT_NAMES or word in found.quoted
                              or word in called or word in capitalised and evidence.is_symbol(word)):
            found.identifiers.append(word.removesuffix("()"))
        elif _CAPITALS.match(word) and not found.documents:
            document = _folder_document(word, words, evidence) or evidence.document_named(word)
            if document:
                found.documents.append(document)
                found.facts.append(f"'{word}' names the document '{document}'")
    if not found.documents:
        _common_document(words, found, evidence)
    _locate_names(raw, found, evidence)
    return found


# The documents every project names the same way, said in lower case ("the tutorial builds a program").
_COMMON_DOCUMENTS = frozenset(("tutorial", "changelog", "faq", "quickstart", "contributing", "installation",
                               "glossary", "roadmap", "cookbook", "upgrading"))


def _common_document(words: Sequence[str], found: Subjects, evidence: Evidence) -> None:
    """The document "the tutorial" (or "this changelog") names, when a document's path ends in that word."""
    for before, word in zip(words, words[1:]):
        if word.lower() in _COMMON_DOCUMENTS and before.lower() in ("the", "this", "that", "its", "our", "your"):
            document = evidence.document_named(word)
            if document:
                found.documents.append(document)
                found.facts.append(f"'{before} {word}' names the document '{document}'")
                return


def _folder_document(word: str, words: Sequence[str], evidence: Evidence) -> str | None:
    """The document named by capitals after the folder it is in: "the ginS README" (`ginS/README.md`), "the
    repository example's README" (`examples/repository/README.md`): one of the two words before it names a folder
    the document's path ends in, the nearer first."""
    at = words.index(word)
    for qualifier in reversed(words[max(0, at - 2):at]):
        if qualifier.lower() in _NOT_THE_THING or not is_name(qualifier):
            continue
        document = evidence.document_named(f"{qualifier}/{word}")
        if document:
            return document
    return None


def _position(text: str, word: str) -> int:
    """Where the question spells `word` on its own, not as the start of a qualified name (`file_helper` in
    "file_helper::open's signature … call into file_helper" is the last one); where it spells it at all else."""
    alone = re.search(rf"(?<![\w.:/]){re.escape(word)}(?![\w]|[.:]+\w)", text)
    return alone.start() if alone else max(0, text.find(word))


_OWNED = re.compile(r"([\w.]+)(?:'s|’s)\s+(\w+)")


def _owned_member(text: str, evidence: Evidence) -> tuple[str, str] | None:
    """("the router's handle", name) for a member named after its owner: "the router's handle method" is express's
    `proto.handle` in lib/router/index.js, not `app.handle`. The owner is the member's class or a part of its file's
    path; None unless exactly one file's definition fits."""
    for found in _OWNED.finditer(text):
        owner, member = normalize_name(found.group(1)), found.group(2)
        if member.lower() in _KIND_WORDS or len(member) < 3:
            continue
        places = evidence.definitions(member) or ()
        fits = [(path, name) for path, name in places
                if normalize_name(name.rpartition(".")[0].rpartition(".")[2]) == owner
                or owner in {normalize_name(part.partition(".")[0]) for part in path.split("/")}]
        if len({path for path, _ in fits}) == 1:
            path, name = fits[0]
            unique = sum(n == name for _, n in places) == 1
            return f"{found.group(1)}'s {member}", name if unique else f"{path}:{member}"
    return None


# Languages, formats and platforms that prose writes camel-cased ("lets TypeScript users describe …"): words of a
# sentence, not names of code a repository lacks (the meaning index still says when one is nowhere in it).
_PRODUCT_NAMES = frozenset((
    "javascript", "typescript", "coffeescript", "actionscript", "livescript", "purescript", "powershell", "graphql",
    "webassembly", "objectivec", "github", "gitlab", "macos", "ios", "nodejs", "openapi", "latex", "bibtex",
    "asciidoc", "textmate", "vscode", "intellij", "jetbrains", "youtube"))  # (a database's name is often a folder's)


# Words that say what kind of thing the name before them is: "the JsonPosition struct in PATH".
_KIND_WORDS = frozenset(("struct", "class", "function", "method", "interface", "enum", "trait", "type", "module",
                         "constant", "variable", "field", "property", "macro", "record", "protocol", "typedef"))


def _locate_names(raw: Sequence[str], found: Subjects, evidence: Evidence) -> None:
    """"NAME in PATH" (or inside, from, within; "the NAME struct in PATH"): the name as `impact` takes it,
    `path:name`."""
    words = [_POSSESSIVE.sub("", w.strip(_TRIM)) for w in raw]
    files = {p for p, k in found.paths if k == "blob"}
    for i in range(len(words) - 2):
        name, joint, path = words[i], words[i + 1].lower(), words[i + 2].strip("/")
        if name.lower() in _KIND_WORDS and i > 0 and is_name(words[i - 1]):
            name = words[i - 1]  # the kind word names what the name before it is, not a name itself
        if joint in ("in", "inside", "from", "within", "of") and path in files and is_name(name) and (
                is_code_name(name) or name in found.quoted or evidence.is_symbol(name)):
            defined = evidence.definitions(name) if not is_code_name(name) else None
            if defined and all(p != path for p, _ in defined):
                continue  # a word that names something elsewhere ("the constructor's signature in paginator.py")
            if (path, name) not in found.located:
                found.located.append((path, name))
                found.position[f"{path}:{name}"] = found.position.get(name, 0)
                found.facts.append(f"'{name} {words[i + 1]} {path}' is '{name}' in the file '{path}'")


class _Names:
    """The names a question asks about, looked up once each: which the repository defines, and where."""

    def __init__(self, subjects: Subjects, evidence: Evidence) -> None:
        self.subjects, self.evidence = subjects, evidence
        self.found: dict[str, Sequence[tuple[str, str]] | None] = {}

    def where(self, name: str) -> Sequence[tuple[str, str]] | None:
        """Where the repository defines `name`; () when it surely does not: a name marked as code (backticked,
        `url_for`, `Foo.bar`) that nothing defines, or a camel-cased one that is not even a word of it."""
        if name not in self.found:
            places = self.evidence.definitions(name)
            if places == () and not (name in self.subjects.quoted or is_marked_code(name)) \
                    and self.evidence.is_word(name):
                self.subjects.facts.append(f"'{name}' is no symbol's name, but a word the repository uses")
                places = None
            self.found[name] = places
            if places == ():
                self.subjects.facts.append(f"'{name}' is no name the repository defines")
            elif places:
                files = sorted({p for p, _ in places})
                shown = ", ".join(files[:3]) + (f" (+{len(files) - 3})" if len(files) > 3 else "")
                self.subjects.facts.append(f"'{name}' is defined in {shown}")
        return self.found[name]

    def defined(self) -> tuple[list[str], list[str]]:
        """(names the repository defines or may, names it does not), backticked ones first."""
        ordered = sorted(self.subjects.identifiers, key=lambda n: n not in self.subjects.quoted)
        yes: list[str] = []
        no: list[str] = []
        for name in ordered[:MAX_NAMES]:
            (no if self.where(name) == () else yes).append(name)
        return yes, no

    def target(self, name: str) -> str:
        """What `impact` is asked about `name`: `path:name` when the question spells one of its files, or when
        the name is qualified as `impact` cannot take it (`pkg::name`, `module.sub.name`) and one file defines it."""
        places = self.where(name) or ()
        last = name_parts(name)[-1]
        files = list(dict.fromkeys(p for p, _ in places))
        for path in files:
            if path in self.subjects.files or path.rpartition("/")[2] in self.subjects.files:
                self.subjects.facts.append(f"the question names '{path}', where '{name}' is defined")
                return f"{path}:{last}"
        if len(name_parts(name)) > 1 and not any(defined == name for _, defined in places):
            # qualified by a module or a namespace, not by its owner: `impact` takes `path:name`; from several
            # files, the name as it is (impact drops the namespace and keeps an owner: `file_helper::open`,
            # `Newtonsoft.Json.Linq.JToken.Parse`)
            return f"{files[0]}:{last}" if len(files) == 1 else name
        return name


class _Routes:
    """The routes of one classification, each kind once, to the commands this gitroute has."""

    def __init__(self, text: str, available: Sequence[str], facts: list[str]) -> None:
        self.text, self.available, self.facts = text, available, facts
        self.routes: list[Route] = []
        self.unanswered: list[str] = []

    def add(self, kind: str, reason: str, asked: str | None = None, share: int = 1, facet: bool = False,
            options: dict | None = None, guessed: bool = False) -> None:
        command = KIND_COMMAND[kind]
        if command not in self.available:
            if kind not in self.unanswered and not facet:  # a facet of a bare name is not what was asked for
                self.unanswered.append(kind)
                self.facts.append(f"'{kind}' questions are answered by '{command}', which this gitroute does not "
                                  "have yet")
        elif all(r.kind != kind for r in self.routes):
            self.routes.append(Route(kind, command, asked or self.text, reason, share, options, guessed))

    def kinds(self) -> list[str]:
        return [r.kind for r in self.routes]

    def share(self, kind: str, rows: int) -> None:
        """Let the route of `kind` give `rows` rows per turn when answers are merged."""
        self.routes = [r._replace(share=rows) if r.kind == kind else r for r in self.routes]

    def done(self, subject: str | None, undefined: Sequence[str] = (), unknown: Sequence[str] = ()) -> Classification:
        if not self.routes and self.unanswered and "query" in self.available:
            # The kind's own index is missing: the names and words of the question still place something.
            kind = "symbol" if subject else "meaning"
            self.routes.append(Route(kind, "query", subject or self.text,
                                     f"no index answers '{self.unanswered[0]}' questions: the symbol index places "
                                     f"{'the name' if subject else 'the words'}"))
        return Classification(tuple(self.routes), subject, tuple(self.facts),
                              tuple(undefined) if not self.routes else (), tuple(unknown))


def classify(text: str, evidence: Evidence, available: Sequence[str] = tuple(KIND_COMMAND.values())) -> Classification:
    """The kinds of question `text` is, strongest first, each routed to a command in `available`."""
    text = " ".join(text.split())
    if not text:
        return Classification((), None, ("the question is empty",))
    subjects = _subjects(text, evidence)
    routes = _Routes(text, available, subjects.facts)
    intents, changing = phrase_intents(text)
    about_code = bool(subjects.located or subjects.identifiers or subjects.code_paths())
    if not intents and changing and (about_code or subjects.documents):
        intents = [(0, "impact", changing)]  # the setting alone: what the change breaks
    if intents:
        return _route_intents(text, intents, subjects, evidence, routes)
    return _route_plain(text, subjects, evidence, routes)


def _route_intents(text: str, intents: Sequence[tuple[int, str, str]], subjects: Subjects, evidence: Evidence,
                   routes: _Routes) -> Classification:
    """Routes for the kinds the question's phrases ask for, each asked about what the question names."""
    names = _Names(subjects, evidence)
    document = subjects.documents[0] if subjects.documents else None
    # About code when it names code: a name the repository defines or may (one it surely lacks, a name in a
    # document's example, "writing a PDOHandler", does not make a question about a document one about code).
    about_code = bool(subjects.located or subjects.code_paths()
                      or any(names.where(n) != () for n in subjects.identifiers[:MAX_NAMES])) if document \
        else bool(subjects.located or subjects.identifiers or subjects.code_paths())
    undefined: list[str] = []
    subject: str | None = None
    plain = None  # what the meaning index is asked when no phrase finds a subject: the question, or less its frame
    for at, kind, reason in intents:
        if kind == "wiring" and reason.startswith(WIRING_COPIES_WHAT):
            routes.add(kind, reason, options={"config_files": False})  # the tables, not CI files' words
        elif kind == "decision":
            # a record's sections are asked what the question is about, not for a record ("is there a design record")
            asked_why = without_decision_phrases(text)
            routes.add(kind, reason, asked_why if asked_why != text else None)
        elif kind == "wiring":
            routes.add(kind, reason, options={"build_question": True})  # how it is built: its files
        elif kind == "code" or document and not about_code:
            # A document is what the question is about: the code it names (whatever the phrase asks of it); one
            # named in words ("the gopls implementation guide") is asked by those words, as `code` takes them.
            titled = None if document else _titled_phrase(text)
            if titled:
                subjects.facts.append(f"'{titled[0]}' names a document by the words '{titled[1]}'")
            section_of = document or (titled[1] if titled else None)
            # a docs question that names its document ("which part of the README explains how to parse a file?")
            # asks for a section of it first: the document's code is a guess at what it asks
            routes.add("code", reason if kind == "code" else
                       f"{reason}, about the document '{document}': which code it talks about",
                       _with_section(section_of, subjects, evidence, text) if section_of else None,
                       guessed=kind == "docs" and all(k != "code" for _, k, _ in intents)
                       and _PART_OF.search(text) is not None)
            subject = subject or document
        else:
            asked, missing = _subject_for(kind, at, text, subjects, names, evidence)
            undefined += [n for n in missing if n not in undefined]
            if asked is None:
                if missing:
                    subjects.facts.append(f"{reason}, about {', '.join(repr(n) for n in missing)}: no_match")
                elif kind == "symbol":  # "where is sources defined?" names nothing: its words, not `defineProperty`
                    plain = " ".join(w for w in text.split() if w.lower().strip(_TRIM) not in _DEFINING_WORDS)
                continue
            options = None
            located = split_path_name(asked) if kind == "symbol" and not asked.startswith("/") else None
            if located:  # `path:symbol`; not the `::` of `Rack::Lint`
                path, asked = located
                options = {"path_glob": glob.escape(path)}
            elif kind == "symbol" and any(asked == p for p, _ in subjects.paths):
                tree = dict(subjects.paths)[asked] == "tree"
                options = {"path_glob": glob.escape(asked) + ("/*" if tree else "")}
            elif kind == "impact" and reason.startswith(TESTS_WHY):
                options = {"first_section": "tests"}  # "which tests cover X": what uses X, its tests first
            routes.add(kind, reason, asked, options=options,
                       guessed=kind == "docs" and (_spelled_among_others(text, asked, subjects)
                                                   or _far_after(text, at, asked, subjects)
                                                   or _an_example(text, asked, subjects)))
            subject = subject or asked
    kinds = routes.kinds()
    named, unknown = names.defined() if kinds[:1] in (["decision"], ["wiring"], ["docs"]) else ([], [])
    if kinds[:1] == ["docs"]:
        named, unknown = [], [] if named else _unknown_subjects(text, intents, unknown, subjects, evidence)
    if named:
        # A phrase chose the kind; a name it holds that the repository defines is still worth its own rows, asked as
        # the name, after the chosen kind's first rows (a record's sections come first: the question asks why).
        if kinds[0] == "decision":
            routes.share("decision", DECISION_SHARE)
        routes.add("symbol", f"names '{named[0]}', a name the symbol index can place", named[0])
    if not routes.routes and not routes.unanswered and not undefined:
        routes.add("meaning", "the phrases found no name or path to ask about: the question in plain words",
                   plain if plain and plain != text else None)
    return routes.done(subject or _first_subject(subjects), undefined, () if named else unknown)


def _unknown_subjects(text: str, intents: Sequence[tuple[int, str, str]], unknown: list[str], subjects: Subjects,
                      evidence: Evidence) -> list[str]:
    """Of the names spelled as code that nothing defines, those a docs question is about: none the repository even
    writes (no section is about them), nor one said in a clause of context before its phrase (where the asker
    stands: "npm install fails with a ModuleNotFoundError; which part of the docs …")."""
    at = next(at for at, kind, _ in intents if kind == "docs")
    return [n for n in unknown if not evidence.is_word(n) and not evidence.document_writes(n)
            and not _a_word_of_the_documents(n, subjects, evidence)
            and not _beside_the_subject(text, at, subjects.position.get(n, 0), far=False)]


def _a_word_of_the_documents(name: str, subjects: Subjects, evidence: Evidence) -> bool:
    """A name neither quoted nor marked as code that a document writes as one word (a product's name: uuid's README
    writes "Typescript"): a word of a docs question, not a name it is about."""
    return name not in subjects.quoted and not is_marked_code(name) and evidence.is_document_word(name)


def _subject_for(kind: str, at: int, text: str, subjects: Subjects, names: _Names,
                 evidence: Evidence) -> tuple[str | None, list[str]]:
    """(what the kind's command is asked, names the repository does not define) for a docs, impact or
    definition question whose phrase starts at `at`: of the names in one file, the names the repository defines
    and the code paths, the first after the phrase ("who calls X"), else the last before it ("X: who calls it?");
    a name spelled in words when it names none; the whole question when it names nothing at all (docs and impact
    say no_match, or find a name in it); nothing when every name it spells as code is one the repository does
    not define."""
    defined, missing = names.defined()
    # A name in one file ("send_json_file in helpers.py", `helpers.py:send_json_file`) that nothing defines is as
    # missing as any other.
    located = [(p, n) for p, n in subjects.located if names.where(n) != ()]
    missing += [n for p, n in subjects.located if (p, n) not in located and n not in missing]
    in_located = {p for p, _ in subjects.located} | {n for _, n in subjects.located}
    candidates = [(subjects.position.get(f"{p}:{n}", 0), "located", f"{p}:{n}") for p, n in located]
    candidates += [(subjects.position.get(n, 0), "name", n) for n in _in_code_first(defined, kind, names)
                   if n not in in_located]
    candidates += [(subjects.position.get(p, 0), "path", p) for p, _ in subjects.code_paths() if p not in in_located]
    # A folder right after a name says where the name is ("fuzzy.NewSymbolMatcher in internal/fuzzy"): the name is
    # asked ("the internal/json package ... the go_json build option" asks about the folder).
    where = [(at, text[at + len(n):].lstrip()) for at, what, n in candidates if what != "path"]
    candidates = [c for c in candidates if not (c[1] == "path" and dict(subjects.paths).get(c[2]) == "tree" and any(
        c[0] > at and rest.startswith(_PLACING) and rest.partition(" ")[2].lstrip().startswith(c[2])
        for at, rest in where))]
    if candidates:
        after = [c for c in candidates if c[0] >= at]
        if not after and kind == "symbol" and _describes_its_subject(text, at):
            return None, missing  # "With FLAG set, where are non-ASCII characters written?": asked in words
        _, what, asked = min(after) if after else max(candidates)
        if what == "located" and kind == "docs":
            return asked.rpartition(":")[2], missing  # `docs` takes the name
        if what == "name" and kind == "impact":
            return names.target(asked), missing
        if what == "path" and kind == "impact" and dict(subjects.paths).get(asked) == "tree":
            return _folder_file(asked, evidence, subjects.facts), missing
        return asked, missing
    if kind == "docs" and missing and not subjects.missing_paths and all(
            _beside_the_subject(text, at, subjects.position.get(n, 0))
            and (not is_marked_code(n) or evidence.document_writes(n)) for n in missing):
        # a docs question about something in words, a name it lacks far after the phrase ("Is there a doc on how a
        # release gets published to PyPI"; not one spelled as code, `json_object_merge_deep`, unless a document
        # writes it, in its text or its examples: "… the monotonic time source instead of clock_gettime?", "… the
        # options with their defaults, like breaks, xhtmlOut and quotes?") or in a clause of context before it
        # ("npm install fails with a ModuleNotFoundError; which part of the docs …"): the documents are asked in
        # the question's words
        return text, []
    if kind == "docs" and missing and not subjects.missing_paths and all(
            evidence.is_word(n) or evidence.document_writes(n) or _a_word_of_the_documents(n, subjects, evidence)
            for n in missing):
        # a docs question about a name the code does not define but the repository's words hold (scipy's
        # `curve_fit` beside xarray's `curvefit`): documents may still name it, and the docs index says if one does
        return min(missing, key=lambda n: subjects.position.get(n, 0)), []
    if missing or subjects.missing_paths:
        # a file the question asks about that the commit lacks ("is it safe to delete django/utils/six.py?") is as
        # missing as a name: the answer is no_match, not a word of the question spelled as a name ('safe')
        return None, missing + [p for p in subjects.missing_paths if p not in missing]
    # The clause the phrase opens first ("I need to change Logger, what else should I look at?": "need to change
    # Logger"): the whole question's other words would spend the lookups on longer spellings before the name.
    clause = _CLAUSE_END.split(text[at:], 1)[0]
    frame = _DEFINING_WORDS if kind == "symbol" else frozenset()
    # what a change is made to ("I want to tweak how deepcompare treats …, so which modules lean on it?"): the words
    # right after its verb, before the lookups go to the whole question's longer spans
    changed = changed_words(text, CHANGED_WORDS) if kind == "impact" else ""
    spelled = (changed and _spelled_subject(changed, evidence)) \
        or (clause != text and _spelled_subject(clause, evidence, frame)) or _spelled_subject(text, evidence, frame)
    if spelled:
        subjects.facts.append(f"'{spelled[0]}' spells the name '{spelled[1]}'")
        subjects.spelled.add(spelled[1])
        return spelled[1], []
    return (None if kind == "symbol" else text), []


def _beside_the_subject(text: str, at: int, position: int, far: bool = True) -> bool:
    """Whether a name at `position` is said in passing by a question whose phrase starts at `at`: before it with the
    end of a clause between (where the asker stands, not what is asked about), or (`far`) far after the phrase."""
    if position < at:
        return _CLAUSE_END.search(text, position, at) is not None
    return far and len(text[at:position].split()) > _NEAR_WORDS


def _in_code_first(defined: list[str], kind: str, names: _Names) -> list[str]:
    """The names a change question may be about: those defined in the code when others are defined only in tests,
    benchmarks or examples (jsonschema's "… make validator_for raise instead of warning on an unknown $schema; which
    callers …?": `$schema` is a key its benchmarks define)."""
    from gitroute.rank import is_secondary

    if kind != "impact" or len(defined) < 2:
        return defined
    in_code = [n for n in defined if any(not is_secondary(p) for p, _ in names.where(n) or ())]
    return in_code or defined


# The words of a definition phrase that say nothing but "where is it" ("where are dates written" says what is done)
_DEFINING_WORDS = frozenset(DEFINING) - {"written"}
_CLAUSE_END = re.compile(r"[,;:?!]|\.(?:\s|$)")  # where a phrase's clause ends: not at a dot inside a name
_WHERE_FRAME = re.compile(rf"{WHERE_IS}(?:the\s+)?(\S+)", re.I)  # the word after "where is" in `_DEFINED`'s frame
_PRONOUNS = frozenset(("it", "this", "that", "they", "them", "these", "those", "its", "their"))


def _describes_its_subject(text: str, at: int) -> bool:
    """Whether a "where is … defined" phrase names what it asks the place of in words ("where are non-ASCII
    characters written"), not with a pronoun for a name said before it ("QuerySet: where is it defined?")."""
    frame = _WHERE_FRAME.match(text, at)
    return frame is not None and frame.group(1).lower().strip(_TRIM) not in _PRONOUNS.union(DEFINING)


# "the settings a subcommand picks up, like ignore_case, fallthrough and footer": names listed as examples of what
# the question asks about, not its subject
_EXAMPLES = LazyPattern(r"\b(?:like|such as|e\.g\.,?|for example,?|for instance,?)\s+", re.I)
_LISTED = LazyPattern(r"(?:[`'\"]?[\w.:-]+(?:\(\))?[`'\"]?\s*(?:,\s*(?:and\s+|or\s+)?|\s+and\s+|\s+or\s+))*\Z")
_LIST_AFTER = LazyPattern(r"[`'\"]?(?:\(\))?\s*(?:,|\band\b|\bor\b)", re.I)


def _an_example(text: str, asked: str, subjects: Subjects) -> bool:
    """Whether the name a docs question asks about is one of a list of examples ("like A, B and C")."""
    at = subjects.position.get(asked)
    if at is None:
        return False
    markers = list(_EXAMPLES.finditer(text, max(0, at - 120), at))
    if not markers:
        return False
    between = text[markers[-1].end():at]
    return _LISTED.match(between) is not None and (bool(between.strip())
                                                   or _LIST_AFTER.match(text, at + len(asked)) is not None)


def _far_after(text: str, at: int, asked: str, subjects: Subjects) -> bool:
    """Whether the name a docs question asks about is more than `_NEAR_WORDS` words after the end of its phrase: said
    in passing ("which section of the docs shows how to verify who the user is during the HTTP upgrade and answer 401
    before the WebSocket is accepted?" is about authenticating, not `WebSocket`)."""
    from gitroute.phrases import docs_phrase_end

    if is_marked_code(asked) or asked in subjects.quoted or "/" in asked:
        return False  # spelled as code (`apply_ufunc`, numpy.random, a path): what the question is about
    return len(text[docs_phrase_end(text, at):subjects.position.get(asked, at)].split()) > _NEAR_WORDS


def _spelled_among_others(text: str, asked: str, subjects: Subjects) -> bool:
    """Whether `asked` is a plain word the question's words were spelled as among others that say what is asked
    about ("command aliases": `command`); not a capitalised one ("where is Cart documented?"), nor the one word
    asked about ("where is render documented?")."""
    from gitroute.indexes.meaning.vocabulary import question_words
    from gitroute.phrases import without_doc_phrases

    return asked.islower() and asked in subjects.spelled and len(question_words(without_doc_phrases(text))) > 1


# "the gopls implementation guide", "the Extending Monolog page": a document named by words before a noun for one.
def _with_section(document: str, subjects: Subjects, evidence: Evidence, text: str) -> str:
    """`document#Section` when the question quotes words of several that are not a document's title ("the README's
    'Log file open/close event handlers' sample"): the code route reads that section's links, if it has any."""
    for phrase in sorted(subjects.quoted, key=lambda p: subjects.position.get(p, 0)):
        if len(phrase.split()) > 1 and "#" not in phrase and not evidence.document_titled(phrase):
            subjects.facts.append(f"'{phrase}' may be a section of '{document}'")
            return f"{document}#{phrase}"
    # The document's own name before "section" is no title ("the README section on multiple interceptors says …"):
    # the section is then named after "section on".
    name = posixpath.basename(document).lower()
    own = {name, name.rsplit(".", 1)[0]}
    for pattern in (_SECTION_NAMED, _SECTION_ON, _HAS_SECTION_ON):
        named = pattern.search(text)
        words = [w for w in named.group(1).split() if w.lower() not in _QUESTION_WORDS and w.lower() not in own] \
            if named else []
        if words:
            subjects.facts.append(f"'{named.group(0)}' names a section of '{document}'")
            return f"{document}#{' '.join(words)}"
    return document


# "the Features section of the README", "the README's Example section", "the user guide's Punctuation section": the
# words before "section" (after a possessive) are its title; not "the signing docs have a section" (a verb, a
# document's noun: no section's name)
_SECTION_NAMED = LazyPattern(r"\b(?:the|its|their|this|that)\s+(?:(?:[\w.-]+\s+){0,2}?\S+['’]s\s+)?((?:(?!(?:have|has"
                             r"|had|is|are|was|were|docs|documentation|pages?|guides?)\b)[\w/.:-]+\s+){1,4}?)section\b",
                             re.I)


# "the user guide section on using timeouts describes …": a section's title after "section on", when a verb that tells
# what the section says follows it within six words (the code route reads the sections whose titles hold them in
# order: "working with multiple loggers" is §Working with multiple Loggers in winston), or before a comma ("the README
# section about jwt.decode, peeking into a token …, is implemented by which source file?")
_SECTION_ON = LazyPattern(r"\bsection\s+(?:on|about|called|titled|named)\s+((?:[\w/.:-]+\s+){0,5}[\w/.:-]+)(?=\s+(?:"
                          r"describes|says|explains|shows|covers|mentions|lists|documents|walks|talks)\b|,)", re.I)


# "the README has a section on using yargs in the browser; which code …": a section the document has, named by what it
# is about, at a clause's end. Rarely its title: the code route then reads the whole document, and what the question
# says the section describes is asked of the meaning index first (`query._described_first`).
_HAS_SECTION_ON = LazyPattern(r"\b(?:has|have|had|with|there['’]?s|there is)\s+(?:a|an|one)\s+section\s+(?:on|about)"
                              r"\s+((?:[\w/.:-]+\s+){0,5}[\w/.:-]+)(?=\s*(?:[;,.?!(]|$)|\s+with\b)", re.I)


# "which part of the README", "what section of the guide", "which README section explains", "where in the README is
# it described": a part of a document asked for, not the code it names
_PART_OF = LazyPattern(r"\b(?:which|what)\s+(?:(?:part|section|chapter|paragraph)s?\s+of\b|(?:the\s+)?(?:\S+\s+){1,2}?"
                       r"(?:section|chapter|paragraph)s?\s+(?:explains?|describes?|covers?|says|shows?|tells?|lists?"
                       r"|documents?|mentions?|talks?|walks?)\b)"
                       r"|\bwhere\s+in\s+(?:the\s+)?\S+\s+(?:is|are|does|do)\s+(?:it|they|this|that)\s+(?:described"
                       r"|explained|covered|documented|shown|said)\b", re.I)


_TITLED = LazyPattern(r"\b(?:the|a|an|this|that|our|its)\s+((?:[\w.-]+\s+){1,4}?)(?:guide|doc|docs|documentation"
                     r"|document|page|readme|tutorial|manual|reference|notes|howto|how-to|chapter|write-?up)\b", re.I)


def _titled_phrase(text: str) -> tuple[str, str] | None:
    """(the phrase, its title words) of a document the question names in words, or None."""
    found = _TITLED.search(text)
    if not found:
        return None
    words = [w for w in found.group(1).split() if w.lower() not in _QUESTION_WORDS and w.lower() not in _NOT_THE_THING]
    return (found.group(0), " ".join(words)) if words else None


_TEST_FILE = LazyPattern(r"(?:^|[/_.-])(?:tests?|spec)(?:[/_.-]|$)", re.I)


def _folder_file(folder: str, evidence: Evidence, facts: list[str]) -> str:
    """The file that stands for a folder in a change question (`impact` takes files and names): the one code file
    in it that is not a test, or the one named after the folder (Go's `bytesconv/bytesconv.go`); else the folder."""
    files = [f for f in evidence.files_in(folder) if not evidence.is_document(f) and not _TEST_FILE.search(
        f.rpartition("/")[2]) and "." in f.rpartition("/")[2]]
    stem = folder.rstrip("/").rpartition("/")[2].lower()
    named = [f for f in files if f.rpartition("/")[2].rpartition(".")[0].lower() == stem]
    chosen = files[0] if len(files) == 1 else named[0] if len(named) == 1 else None
    if chosen is None:
        return folder
    facts.append(f"'{chosen}' stands for the folder '{folder}'")
    return chosen


_PLACING = ("in ", "under ", "inside ", "from ")  # "NAME in FOLDER": where the name is
_NEAR_WORDS = 6  # a name this many words after a docs phrase or fewer is what it asks about


def _first_subject(subjects: Subjects) -> str | None:
    if subjects.located:
        return f"{subjects.located[0][0]}:{subjects.located[0][1]}"
    if subjects.paths:
        return subjects.paths[0][0]
    return subjects.identifiers[0] if subjects.identifiers else None


def _route_plain(text: str, subjects: Subjects, evidence: Evidence, routes: _Routes) -> Classification:
    """Routes for a question no phrase chose a kind for: by its shape (a name, a path, a title, a sentence)."""
    words = text.split()
    lowered = [w.lower().strip(_TRIM) for w in words]
    subject = _first_subject(subjects)
    identifiers, paths = subjects.identifiers, subjects.paths
    add = routes.add
    if subjects.located and len(words) <= 3:
        path, name = subjects.located[0]
        add("symbol", f"'{subject}' is '{name}' in '{path}': where it is defined there", name,
            options={"path_glob": glob.escape(path)})
        add("impact", f"'{subject}' is '{name}' in '{path}': what uses it", subject)
        add("docs", f"'{name}' is a name: which documents explain it", name)
        return routes.done(subject)
    if paths and len(words) <= 3:
        if subjects.documents and subjects.documents[0] == paths[0][0] or any(
                p in subjects.documents for p, _ in paths):
            document = next(p for p, _ in paths if p in subjects.documents)
            add("code", f"'{document}' is a document of the pinned commit: which code does it talk about", document)
        else:
            path = paths[0][0]
            add("docs", f"'{path}' is a path of the pinned commit: which documents explain it", path)
            # Only that path's rows: other files sharing its words are guesses about a path the user gave.
            add("symbol", f"'{path}' is a path of the pinned commit: its file and what it defines", path,
                options={"path_glob": glob.escape(path) + ("/*" if paths[0][1] == "tree" else "")})
            add("impact", f"'{path}' is a path of the pinned commit: what uses it", path, facet=True)
        return routes.done(subject)
    if subjects.documents and not subjects.located:
        # A document named in a sentence that asks nothing else of it: the code behind it.
        add("code", f"names the document '{subjects.documents[0]}': which code it talks about",
            _with_section(subjects.documents[0], subjects, evidence, text), share=2)
        if identifiers:
            add("symbol", f"names {', '.join(identifiers[:3])}: where they are defined", " ".join(identifiers[:3]))
        add("meaning", "and the question in plain words, for what the document names in prose")
        return routes.done(subjects.documents[0])
    if len(words) <= MAX_HEADING_WORDS and text.endswith("?") and not identifiers and not paths:
        heading = evidence.design_heading(text)
        if heading:
            # A few words asked about that are a design section's heading ("immutable indexes?", "hand-written
            # classes?"): what that record says about them, then the code they may name. Without the question mark
            # the words are a title or a name ("the cache framework"), read below.
            add("decision", f"'{text}' is the heading of a design section ('{heading}')", share=DECISION_SHARE)
            add("meaning", "and the words, for the code they may name")
            return routes.done(subject)
    asks = bool(lowered) and ((lowered[0] in _QUESTION_WORDS and len(lowered) > 1) or text.endswith("?"))
    named = [w.strip(_TRIM) for w in words if w.strip(_TRIM) in identifiers]
    asked_for = _asked_for(words, lowered, named, evidence)
    if asked_for:
        # "find get_command", "show me the url_for function", "look up Route for me": names, and words that only ask
        # for them: the names alone, each once, as a name alone is asked. With the words, the symbol tiers scored a
        # name as a phrase of the sentence (flask's `AppGroup.command` above `FlaskGroup.get_command` for "find
        # get_command"), never as the exact name it is. Words that say more ("test get_object_or_404") stay.
        add("symbol", f"names {', '.join(asked_for)} and asks only for them: where they are defined",
            " ".join(dict.fromkeys(asked_for)))
        add("docs", f"'{asked_for[0]}' is a name: which documents explain it", asked_for[0])
        add("impact", f"'{asked_for[0]}' is a name: what uses it", asked_for[0], facet=True)
        return routes.done(subject or asked_for[0])
    if not asks and len(words) <= 6:
        return _route_title(text, words, lowered, named, subject, evidence, routes)
    if named and len(named) * 2 >= len(words):
        add("symbol", f"mostly names ({', '.join(named)}): where they are defined")
    add("meaning", "a question in plain words" if asks else "words that are not one name")
    return routes.done(subject)


def _asked_for(words: Sequence[str], lowered: Sequence[str], named: list[str], evidence: Evidence) -> list[str]:
    """The names a request of two words or more asks for and nothing else: its names spelled as code when every other
    word only asks (`_LOOKUP_WORDS`; a dash is no word); else its one other word when the repository defines a symbol
    of that name ("show me the handle function": `handle`); else none. A word alone is a name or a title
    (`_route_title` reads it, with the document it may name)."""
    if len(words) < 2:
        return []
    others = [w.strip(_TRIM) for w, low in zip(words, lowered)
              if low and low not in _LOOKUP_WORDS and w.strip(_TRIM) not in named]
    if named:
        return [] if others else named
    return others if len(others) == 1 and is_name(others[0]) and evidence.is_symbol(others[0]) else []


def _route_title(text: str, words: list[str], lowered: list[str], named: list[str], subject: str | None,
                 evidence: Evidence, routes: _Routes) -> Classification:
    """A few words with no question word: a name, a document's name or title, or a thing named in words."""
    add = routes.add
    document = evidence.document_named(text)
    is_name = len(words) == 1 and (bool(named) or evidence.is_symbol(words[0]))
    if document:
        routes.facts.append(f"'{text}' names the document '{document}'")
        if not is_name:  # a symbol's name too: where it is defined and its docs come first, below
            add("code", f"'{text}' names a document: which code it talks about", document, share=2)
    titled = [w for w in lowered if w in _DOC_NOUNS]
    if titled and not document:
        add("code", f"a short phrase with '{titled[0]}' in it: a document's title, which code it talks about",
            share=2)
    if len(words) <= 3 and (len(named) == len(words) or is_name):
        what = named[0] if named else words[0]
        if not named:
            routes.facts.append(f"'{what}' is the name of a symbol of the repository")
        add("symbol", f"'{text}' is a name: where it is defined")
        add("docs", f"'{what}' is a name: which documents explain it", text)
        add("impact", f"'{what}' is a name: what uses it", text, facet=True)
        if document:
            add("code", f"'{text}' also names a document: which code it talks about", document)
        return routes.done(subject or what)
    # A few words with no question word read as a title: a thing's name in words, or a document's.
    if named:
        add("symbol", f"names {', '.join(named)}: where they are defined")
    add("meaning", "a few words with no question word: a thing named in words")
    add("code", "a few words with no question word: perhaps a document's title")
    return routes.done(subject)


# --- one answer from several -------------------------------------------------------------------------


CERTAIN_SIGNALS = frozenset({"exact_name"})  # a row signal that says the row is the very thing named


def merge_answers(answers: Sequence[tuple[Route, Answer]], limit: int, source, keep_signals: bool = True) -> Answer:
    """One answer from the routes' answers: rows taken in turn from each routed answer (the strongest kind
    first), each row tagged with its `type`; no_match only when every route is no_match. A document asked for
    the code it names is no answer of the other routes (the question is reading it), unless the question asked for
    a part of it (a guessed code route: "which part of the README explains …")."""
    reading = {route.text for route, _ in answers if route.kind == "code" and not route.guessed}
    answers = [(route, a if route.kind == "code" or not any(r.path in reading for r in a.rows) else
                a._replace(rows=tuple(r for r in a.rows if r.path not in reading))) for route, a in answers]
    routed = [(route, a) for route, a in answers if a.status == "routed" and a.rows]
    notes: list[str] = []
    for route, a in answers:
        notes.extend(f"{route.command}: {note}" for note in a.notes)
    if not routed:
        return Answer("no_match", source, (), tuple(notes) or ("no index has an answer",))
    rows: list[Row] = []
    seen: set[tuple] = set()
    queues = [(route, list(a.rows)) for route, a in routed]
    # A route whose first rows are certain (the exact name asked: a declaration and its definition, say) gives
    # those rows, then lets the others give two before its next: its further rows are guesses, the others'
    # second rows may not be.
    certain = [_certain_rows(q) if len(queues) > 1 else 0 for _, q in queues]
    turn = 0
    while len(rows) < limit and any(q for _, q in queues):
        for (route, queue), sure in zip(queues, certain):
            if sure and turn == 1:
                continue
            given = 0
            while queue and given < (sure if sure and turn == 0 else route.share) and len(rows) < limit:
                row = queue.pop(0)
                # one definition once, however a route names it (`ZodType.toJSONSchema`, `toJSONSchema`)
                key = (row.path, row.line, (row.name or "").rpartition(".")[2])
                if key in seen:
                    continue
                seen.add(key)
                rows.append(row._replace(extra=(("type", route.kind),) + tuple(row.extra)))
                given += 1
            if len(rows) >= limit:
                break
        turn += 1
    if not keep_signals:
        rows = [r._replace(signals=()) for r in rows]
    return Answer("routed", source, tuple(rows), tuple(notes))


MAX_CERTAIN_ROWS = 3  # rows of the exact name asked that come first, before another route's


def _certain_rows(rows: Sequence[Row]) -> int:
    """How many of the first rows are the very name asked (a signal in CERTAIN_SIGNALS): the first, and those after
    it that are the same symbol in another file (a C declaration and its definition), at most MAX_CERTAIN_ROWS."""
    from gitroute.indexes.impact import one_symbol

    count = 0
    for row in rows[:MAX_CERTAIN_ROWS]:
        if not any(name in CERTAIN_SIGNALS for name, _ in row.signals) or count and (
                row.path in {r.path for r in rows[:count]}  # an overload in the same file tells nothing new
                or not one_symbol([[0, r.path, r.name, r.kind, r.line] for r in rows[:count + 1]])):
            break
        count += 1
    return count


def classification_json(classification: Classification) -> dict:
    """How the question was classified, for `--explain` and the MCP tool."""
    return {
        "kinds": [r.kind for r in classification.routes],
        "routes": [{"kind": r.kind, "command": r.command, "asked": r.text, "reason": r.reason}
                   for r in classification.routes],
        "subject": classification.subject,
        "facts": list(classification.facts),
    }
