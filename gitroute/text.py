"""Tokens: identifier splitting, stop words and the entry-point intent of a question."""
from __future__ import annotations

import re
from functools import lru_cache

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing, which a cold query would pay for
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence
    from typing import TypeVar

    _T = TypeVar("_T")


class LazyPattern:
    """A regular expression compiled at its first use: a cold query is a process start, and compiling the patterns
    it never uses (a file extension's, a qualifier's, for a bare name) cost it more than its answer's arithmetic.
    Each method is looked up once, then kept on the instance: a use after the first costs what a compiled
    pattern's does."""

    def __init__(self, source: str, flags: int = 0) -> None:
        self._source, self._flags = source, flags

    def __getattr__(self, name: str):  # noqa: ANN204 - the compiled pattern's own method
        if name.startswith("_"):
            raise AttributeError(name)
        method = getattr(re.compile(self._source, self._flags), name)
        setattr(self, name, method)
        return method


# Camel humps (HTTPServer -> HTTP Server), digits and any non-alphanumeric run split a word. The lookahead ahead of
# the alternatives says where a word can start, which lets the regex engine skip the rest of a text in C rather than
# try each alternative at each space and punctuation mark: it finds the same words in half the time on prose
# (a build tokenises every node's text, every comment and message of a file, every document's sections).
_WORD = re.compile(r"(?=[A-Za-z0-9])(?:[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+)")
_RUN = re.compile(r"[^\W_]+")  # maximal alphanumeric runs; `_`, `-`, `.`, `/` and spaces separate

# Words that name nothing in a question about code.
STOP_WORDS = frozenset(
    """
    a about all an and any are as at be been by can could do does doing done find for from get
    got has have how i if in into is it its me my need of on or our show tell that the their them
    then there these they this those to under use used uses using want was we were what when where
    which who whom whose why will with would you your
    """.split()
)

# Words that ask for an entry point rather than name one.
ENTRY_WORDS = frozenset({"entry", "entrypoint", "start", "starts", "main", "launch", "startup", "point"})


# Irregular forms a suffix rule cannot reach, for the verbs questions about code use most.
_IRREGULAR = {
    "sent": "send", "built": "build", "found": "find", "made": "make", "written": "write", "wrote": "write",
    "thrown": "throw", "threw": "throw", "caught": "catch", "kept": "keep", "held": "hold", "bound": "bind",
    "chosen": "choose", "given": "give", "taken": "take", "got": "get", "gotten": "get", "ran": "run",
    "children": "child", "indices": "index", "data": "data", "began": "begin", "begun": "begin",
    "led": "lead", "left": "leave", "lost": "lose", "met": "meet", "paid": "pay", "said": "say", "sold": "sell",
    "spent": "spend", "stood": "stand", "told": "tell", "understood": "understand", "went": "go", "won": "win",
}
_VOWELS = frozenset("aeiouy")

# Words that code spells short: a question says "parameters", the code says `params`.
_ABBREVIATIONS = {
    "parameter": "param", "argument": "arg", "configuration": "config", "initialize": "init",
    "initialise": "init", "environment": "env", "directory": "dir", "repository": "repo",
    "implementation": "impl", "information": "info", "specification": "spec", "message": "msg",
    "database": "db", "document": "doc", "reference": "ref", "function": "func", "variable": "var",
    "attribute": "attr", "application": "app", "authentication": "auth", "authorization": "auth",
    "request": "req", "response": "res", "number": "num", "string": "str", "integer": "int",
    "boolean": "bool", "object": "obj", "error": "err", "length": "len", "source": "src",
    "utility": "util", "library": "lib", "package": "pkg", "command": "cmd", "context": "ctx",
    "option": "opt", "expression": "expr", "statement": "stmt", "temporary": "tmp", "previous": "prev",
    "directories": "dir", "utilities": "util", "libraries": "lib", "administrator": "admin",
}


@lru_cache(maxsize=1 << 16)
def stem(token: str) -> str:
    """A light, conservative stemmer: plurals, -ed, -ing and a final -e fold together, in one pass.

    signed, signing and sign give `sign`; parse, parsed, parses and parsing give `pars`; classes
    gives `class`; and the words code abbreviates meet their abbreviations (parameters and params
    give `param`). Identifier parts and question words go through the same function, so only
    agreement matters.
    """
    word = _strip_suffix(token)
    return _ABBREVIATED.get(word, word)


def _strip_suffix(token: str) -> str:
    if token in _IRREGULAR:
        return _IRREGULAR[token]
    if len(token) <= 3 or not token.isalpha():
        return token
    word = token
    # First the plural, then a verb ending, so that `settings`, `setting` and `set` agree.
    if word.endswith("ies") or word.endswith("ied"):
        word = word[:-3] + "y"
    elif word.endswith("sses"):
        word = word[:-2]
    elif word.endswith("es") and (word[-3] in "sxz" or word[-4:-2] in ("ch", "sh")):
        word = word[:-2]
    elif word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if word.endswith("ing") and len(word) >= 6 and _VOWELS & set(word[:-3]):
        word = _undouble(word[:-3])
    elif word.endswith("ed") and not word.endswith("eed") and len(word) >= 6 and _VOWELS & set(word[:-2]):
        word = _undouble(word[:-2])  # not `speed` or `need`; not a short word like `embed`
    if word.endswith("e") and len(word) >= 5:
        word = word[:-1]
    return word


def _undouble(word: str) -> str:
    if len(word) >= 3 and word[-1] == word[-2] and word[-1] not in "lsz" and word[-1] not in _VOWELS:
        return word[:-1]
    return word


def split_identifier(word: str) -> list[str]:
    """Split one identifier into lowercase parts: OpenMeteoClient -> open, meteo, client."""
    if word.isascii():
        return [part.lower() for part in _WORD.findall(word)]
    # Lowercasing can add a combining mark (`İ` -> `i̇`): keep only letters and digits.
    return [clean for part in _split_unicode(word) if (clean := "".join(c for c in part.lower() if c.isalnum()))]


def _cased_upper(char: str) -> bool:
    # An uppercase letter with a lowercase form: `𝕬` is "upper" but lowercases to itself, and a
    # boundary before it would split differently once the token is lowercased.
    return char.isupper() and char.lower() != char


def _split_unicode(word: str) -> list[str]:
    # The regex above knows ASCII case only; this walk applies the same rules to any script.
    parts: list[str] = []
    start = 0
    for i in range(1, len(word) + 1):
        if i < len(word) and word[i].isalnum():
            prev, cur = word[i - 1], word[i]
            nxt = word[i + 1] if i + 1 < len(word) else ""
            boundary = (
                (prev.isdigit() != cur.isdigit())
                or (prev.islower() and _cased_upper(cur))
                or (_cased_upper(prev) and _cased_upper(cur) and nxt.islower())
            )
            if not boundary:
                continue
        if i < len(word) and not word[i].isalnum():
            if start < i:
                parts.append(word[start:i])
            start = i + 1
            continue
        if start < i:
            parts.append(word[start:i])
        start = i
    return parts


def tokenize(text: str) -> list[str]:
    """Every identifier part of a text, lowercase, in order, stop words kept."""
    if text.isascii():
        # The word pattern matches letters and digits only, so separators need no first pass.
        return _WORD.findall(text.lower()) if text.islower() else [p.lower() for p in _WORD.findall(text)]
    tokens: list[str] = []
    for run in _RUN.findall(text):
        tokens.extend(split_identifier(run))
    return tokens


def content_tokens(text: str) -> list[str]:
    """Tokens that can name something: stop words dropped, order kept, duplicates kept."""
    return [t for t in tokenize(text) if t not in STOP_WORDS]


_normal_memo: dict[str, str] = {}


def title_key(text: str) -> str:
    """A title or a heading as compared: its words, case and punctuation aside ("Receipt printing" = "receipt
    printing:")."""
    return " ".join(re.findall(r"\w+", text.casefold()))


def normalize_name(name: str) -> str:
    """The key an exact-name match compares: case and separators folded (open_meteo == OpenMeteo).

    Memoised: a build normalises the same few thousand names over a million times (every word of every
    decision record's sections, django); the parts are letters and digits, so lowering the joined parts
    once is lowering each."""
    found = _normal_memo.get(name)
    if found is None:
        if name.isascii():
            # An identifier's characters are letters, digits and `_`, and `_WORD` keeps every letter and digit:
            # the same key, without a regex (a kernel's million names overflow the memo, each normalised anew).
            found = name.replace("_", "").lower() if name.isidentifier() else "".join(_WORD.findall(name)).lower()
        else:
            found = "".join(split_identifier(name))
        if len(_normal_memo) < 1 << 18:
            _normal_memo[name] = found
    return found


def normalize_names(words: Iterable[str]) -> set[str]:
    """`normalize_name` of each word, as a set: the memo read without a call per word (a decision record's
    sections: 368,000 words on django)."""
    known = _normal_memo.get
    return {known(w) or normalize_name(w) for w in words}


def asks_for_entry(text: str) -> bool:
    """True when a question asks where something starts (entry, start, main, ...)."""
    return any(t in ENTRY_WORDS for t in question_tokens(text))


class Question(str):
    """A question's text, parsed once. The query layer makes one per question and hands it down; it is a `str`, so
    every index's `answer(view, question)` takes it as it is, and each parse of the whole question (its tokens, the
    symbol tiers' `rank.parse_question`, the meaning index's words) is worked out once and kept on it (`parsed`).
    A text made from it (`question.strip()`) is a plain `str` again, parsed where it is used."""

    _parsed: dict

    def __new__(cls, text: str) -> Question:
        self = super().__new__(cls, text)
        self._parsed = {}
        return self

    @classmethod
    def of(cls, text: str) -> Question:
        """`text` itself when it is a Question already (its parses kept), else a new one."""
        return text if isinstance(text, Question) else cls(text)

    def parsed(self, key: object, parse: Callable[[], _T]) -> _T:
        """`parse()`, worked out on the first call for `key` (the parsing function) and kept."""
        found = self._parsed.get(key, _NOT_PARSED)
        if found is _NOT_PARSED:
            found = self._parsed[key] = parse()
        return found


_NOT_PARSED = object()


# A request's leading verb ("explain how ...", "can you show me where ...", "describe the cache framework"): it asks
# for an answer and names nothing, though a method named `explain` or `describe` would match it as a word.
# "I'm looking for …", "we need to find …" ask the same way.
_LEADING_REQUEST = LazyPattern(r"^\s*(?:(?:please\s+|(?:can|could|would|will)\s+you\s+(?:please\s+)?)?"
                               r"(?:explain|describe|show|find|locate|tell|walk|point|give|help)(?:\s+(?:me|us))?"
                               r"|(?:i[\'\u2019]?m|i\s+am|we[\'\u2019]?re|we\s+are)\s+(?:looking|searching)\s+for"
                               r"|(?:i|we)(?:[\'\u2019]d|\s+would)?\s+(?:want|need|like)\s+to\s+(?:find|see|locate|know))"
                               r"\s+(?=\S+\s+\S)", re.I)


# "where is the code that ...", "take me to the code behind ...": the code asked for, named as such; "code" there is
# no word of the answer (a name `code_read`, a document about code points would match it).
_CODE_ASKED_FOR = LazyPattern(r"\b(the|some|any|what|which)\s+code\s+(?=(?:that|which|for|behind|responsible|where|"
                              r"handling|doing)\b)", re.I)


# "which function writes ...", "which file does that": the kind of what is asked for, before a verb (one ending in
# -s, or a stop word: is, does, has, ...); "which file writer" and "which type hints are ..." (a plural noun: a verb
# follows it) keep their words.
_KIND_ASKED_FOR = LazyPattern(r"\b(which|what)\s+(?:function|method|class|struct|module|file|type|interface|enum|"
                              r"constant|variable|macro)\s+(?=(?:[a-z]+[^s\W]s(?!\s+(?:are|is|were|was|do|does|did|"
                              r"have|has|had|can|could|will|would|should|must)\b)|is|are|was|does|do|did|has|have|can|"
                              r"could|would|will|should|gets?|sets?|makes?|takes?)\b)", re.I)


def without_request(text: str) -> str:
    """`text` less the request verb it starts with, when two words or more follow it, less the word "code" where
    the question asks for the code that does something, and less the kind a "which" asks for before its verb; else
    `text` itself."""
    found = _LEADING_REQUEST.match(text)
    stripped = text[found.end():] if found else text
    lowered = stripped.lower()
    shorter = _CODE_ASKED_FOR.sub(r"\1 ", stripped) if " code " in lowered else stripped
    if "which " in lowered or "what " in lowered:
        shorter = _KIND_ASKED_FOR.sub(r"\1 ", shorter)
    return shorter if shorter != stripped else stripped


def question_tokens(text: str) -> Sequence[str]:
    """`tokenize(text)`, once per Question."""
    if isinstance(text, Question):
        return text.parsed(tokenize, lambda: tuple(tokenize(text)))
    return tokenize(text)


# Two adjacent words of a question, letters only, a space or a hyphen between them: the second is read ahead, so
# that each word starts a pair of its own ("time zone name" is "time zone" and "zone name").
_APART = LazyPattern(r"(?<![\w-])([A-Za-z]{2,})([ -])(?=([A-Za-z]{2,})(?![\w-]))")
_CAMEL_WORD = LazyPattern(r"\b[A-Za-z]*[a-z][A-Z][A-Za-z]*\b")
MAX_JOINED = 24  # each joined word is one more postings lookup
# A phrasal verb a repository spells as one word of another root ("switch retrying off": the docs say disable),
# with up to two words between verb and particle. Not "switch ... on", a switch statement's dispatch.
_PHRASAL = LazyPattern(r"\b(turn|switch|shut)(?:s|es|ed|ing|ning|ching|ting)?\s+(?:(?!off\b|on\b)[A-Za-z'-]+\s+){0,2}?"
                       r"(off|on)\b", re.IGNORECASE)
PHRASAL_WORDS = {"off": "disable", "on": "enable"}


def camel_cased(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """Each camel-cased word of a text, in order: (the word lowercase, its humps) ("JavaScript": javascript, (java,
    script))."""
    found = [(match.group().lower(), tuple(tokenize(match.group()))) for match in _CAMEL_WORD.finditer(text)]
    return [(whole, humps) for whole, humps in found if len(humps) > 1]


def spelled_apart(text: str) -> dict[str, tuple[str, ...]]:
    """Words a question spells apart that a repository may spell as one, lowercase, each -> its parts: two adjacent
    words run together, the first also stemmed ("start up": startup; "time zone", "looks up": lookup, "file name";
    "built-in", stop word and all), and the whole of a camel-cased word ("JavaScript": javascript, which `tokenize`
    reads as java and script). An index keeps those it holds. And a phrasal verb's one word ("turn it off": disable,
    "turn on": enable), which stands for the verb and its particle as a joined word does for its parts."""
    found: dict[str, tuple[str, ...]] = {}
    for whole, humps in camel_cased(text):
        found.setdefault(whole, humps)
    for match in _PHRASAL.finditer(text):
        verb, particle = match.group(0).split()[0].lower(), match.group(2).lower()  # the verb as written: "turning"
        if not (particle == "on" and match.group(1).lower() == "switch"):
            found.setdefault(PHRASAL_WORDS[particle], (verb, particle))
    for match in _APART.finditer(text):
        first, second = match.group(1).lower(), match.group(3).lower()
        if match.group(2) == "-" or (first not in STOP_WORDS and second not in STOP_WORDS):  # "built-in" is one
            if (short := _SHORT_FOR_TWO.get((first, stem(second)))) is not None:  # "standard error": stderr
                found.setdefault(short, (first, second))
            found.setdefault(first + second, (first, second))
            found.setdefault(stem(first) + second, (first, second))  # "looks up": lookup
    return dict(list(found.items())[:MAX_JOINED])


def stems(text: str) -> list[str]:
    """Stemmed tokens of a text, in order: what the indexes store and questions match."""
    return [stem(t) for t in tokenize(text)]


# Keyed by the stemmed long form, so "parameters" (-> parameter) and "initialized" (-> initializ) meet.
_ABBREVIATED = {_strip_suffix(long): short for long, short in _ABBREVIATIONS.items()}
# Two words code writes as one short word everywhere: "standard error" is stderr (keyed by the second one's stem).
_SHORT_FOR_TWO = {(first, stem(second)): short for (first, second), short in {
    ("standard", "error"): "stderr", ("standard", "output"): "stdout", ("standard", "input"): "stdin",
    ("standard", "library"): "stdlib", ("regular", "expression"): "regex", ("file", "descriptor"): "fd",
    ("process", "id"): "pid", ("command", "line"): "cmdline", ("garbage", "collection"): "gc"}.items()}


# A name as code spells it: an identifier, or one qualified by `.`, `::`, `#`, `->` or PHP's `\` (fully qualified
# with a leading one), with a call's parentheses or a leading sigil; `a.b` whose last part is a file extension is a
# file name, not a qualified name.
_NAME = re.compile(r"^(?:[$@]|\\(?=[A-Za-z_][\w$]*\\))?[A-Za-z_][\w$]*(?:(?:\.|::|#|->|\\)[A-Za-z_$][\w$]*)*(?:\(\))?$")
# Shapes a plain word does not have: snake_case, a qualified name, camel humps (`HTTPServer`, not `URLs`;
# `Urllib3Fetcher`, a hump after digits, not `H2O`), a call's parentheses, a leading sigil.
_CODE_SHAPE = re.compile(r"_|\.|::|#|->|\\|\(\)|^[$@]|[a-z][A-Z]|[a-z][0-9]+[A-Z]|^[A-Z]{2,}[a-z]{2}|^[A-Z][a-z]+[A-Z]")
# What only code writes: a separator, a qualifier, a call's parentheses, a sigil (`GitHub` and `iOS` are words too).
_CODE_MARK = LazyPattern(r"_|\.|::|#|->|\\|\(\)|^[$@]")
_QUALIFIER = LazyPattern(r"\.|::|#|->|\\")
# The extensions of the files a question names most (code, documents, configuration): `a.b` ending in one is a file.
_FILE_EXTENSION = LazyPattern(
    r"\.(?:py|pyi|js|jsx|mjs|cjs|ts|tsx|go|rs|c|h|cc|cpp|cxx|hh|hpp|hxx|java|kt|kts|scala|rb|php|cs|swift|m|mm|lua"
    r"|ex|exs|hs|sh|bash|zsh|ps1|pl|r|sql|proto|vue|svelte|md|markdown|rst|txt|adoc|org|rdoc|json|ya?ml|toml|cfg|ini"
    r"|xml|html?|css|scss|lock|gradle|mod|sum|in|cmake|mk|dockerfile|tf)$", re.I)
# Dotted words of English prose, never names.
_PROSE_DOTS = frozenset(("e.g", "i.e", "etc", "vs", "cf", "a.k.a", "aka", "et.al", "n.b", "p.s"))


def is_name(word: str) -> bool:
    """True when `word` is spelled like a name in code (an identifier, possibly qualified)."""
    return _NAME.match(word) is not None and word.lower().rstrip(".") not in _PROSE_DOTS


def is_code_name(word: str) -> bool:
    """True when `word` is a name that no English word is: `url_for`, `SessionInterface`, `flask.Flask`,
    `Command::arg`; not `Session`, `forecast`, `e.g.` or a file name (`conftest.py`)."""
    return is_name(word) and _CODE_SHAPE.search(word) is not None and not is_file_name(word)


def is_marked_code(word: str) -> bool:
    """A code name with a mark no word of prose has (`url_for`, `Foo.bar`, `ns::f`, `f()`), unlike `SessionInterface`,
    which a product's name (`GitHub`, `PostgreSQL`) could be."""
    return is_code_name(word) and _CODE_MARK.search(word) is not None


def is_file_name(word: str) -> bool:
    """`sessions.py`, `README.md`: a dotted word whose last part is a common file extension."""
    # the pattern needs a dot: without one it is not compiled (a bare name's cold query never needs it)
    return "." in word and "::" not in word and _FILE_EXTENSION.search(word) is not None and not word.endswith("()")


_PATH_COLON = LazyPattern(r"(?<!:):(?!:)")  # the colon of `path:name`, not one of a `::` qualifier


def split_path_name(text: str) -> tuple[str, str] | None:
    """`path:name` split at its last colon that is no part of a `::` (`lib/lint.rb:Rack::Lint` -> lib/lint.rb,
    Rack::Lint); None when it has none (`Rack::Lint`)."""
    colons = [m.start() for m in _PATH_COLON.finditer(text)]
    return (text[:colons[-1]], text[colons[-1] + 1:]) if colons else None


def name_parts(name: str) -> list[str]:
    """A qualified name's parts, outermost first: `spdlog::cfg::load_env_levels` -> spdlog, cfg, load_env_levels."""
    return [p for p in _QUALIFIER.split(name.removesuffix("()").lstrip("$@")) if p]
