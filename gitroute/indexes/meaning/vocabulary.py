"""The meaning index's words: how a text becomes index words, what frames a question, the curated
alternatives and the neighbours table of a word the repository lacks, a node's fields as text, and the anchor
text the documents say about a node."""
from __future__ import annotations

import os
import re
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from gitroute.text import STOP_WORDS, LazyPattern, camel_cased, question_tokens, spelled_apart, stem, tokenize

# Words that frame a question about code rather than say what it is about.
FRAME_WORDS = frozenset(
    """code codebase logic implement implemented implementation implements handle handled handles handling
    happen happens located location place part piece thing things way done work works file files project
    repository library module defined define defines responsible somewhere actually
    whether came come comes another instead every each also just like so than too very such only other same some
    many much still yet while upon via per onto tell tells kept keep get gets go goes not no
    against over inside outside within without through throughout between among across along around behind beyond
    toward towards until since above below near together everything something anything nothing everyone someone
    anyone already always never often again ever here now own ones one more most less fewer few""".split()
)  # the second half: prepositions, pronouns, adverbs and quantifiers a question uses but code rarely names (0011)
# Words a sentence's grammar needs that name nothing: a phrasal verb's particle ("throws away", "writes out", "reads
# back", "shuts down"), a reflexive, a conjunction, what is left of a contraction ("hasn't" -> hasn). Unlike a frame
# word a repository may hold one (`out` a parameter, `up` a migration's method): held, it weighs as any word; held
# by no node, it weighs nothing in the best file's coverage and is no missing word (`generic_absent`).
GENERIC_WORDS = frozenset(
    """back out up down off away either itself themselves whole several later unless whenever wherever
    hasn doesn isn aren wasn weren didn don won shouldn couldn wouldn""".split()
)
# Language names -> locale codes: a question's "german" reaches `de`, and a file named by a locale code in a
# locale folder (`locales/de.ts`, `locale/de/formats.py`) holds its language's name as a path word.
LOCALES = {
    "english": "en", "german": "de", "french": "fr", "spanish": "es", "portuguese": "pt", "russian": "ru",
    "chinese": "zh", "japanese": "ja", "korean": "ko", "dutch": "nl", "polish": "pl", "turkish": "tr",
    "arabic": "ar", "swedish": "sv", "greek": "el", "hebrew": "he", "czech": "cs", "ukrainian": "uk",
}
# A small curated thesaurus: a word a user says -> the words code spells it with. An alternative counts
# EXPANDED of its own BM25 and stands for the question's word in coverage (never adds weight of its own).
# Kept general on purpose (docs/decisions/0011): programming synonyms and language names -> locale codes.
EXPANSIONS = {
    "encrypted": "secure https tls ssl", "encryption": "secure https tls ssl", "secure": "https tls ssl",
    "folder": "directory dir", "directory": "folder", "delete": "remove unlink", "remove": "delete unlink",
    "erase": "remove delete", "cut": "truncate", "shorten": "truncate", "piece": "chunk slice part",
    "chunk": "slice part", "save": "store write persist", "store": "save", "display": "render show",
    "show": "render display", "stop": "close shutdown", "finish": "close end", "copy": "clone",
    "check": "validate verify", "verify": "check validate", "validate": "check verify", "fail": "error",
    "failure": "error", "restart": "reload", "reload": "restart", "change": "modify update",
    "count": "len size", "size": "len length", "length": "size", "maximum": "max", "minimum": "min",
    "password": "credential", "login": "auth", "link": "url href", "address": "addr url ip",
    "join": "concat merge", "merge": "join combine", "search": "lookup query", "lookup": "search",
    "order": "sort", "sort": "order", "escape": "quote sanitize", "encode": "serialize marshal",
    "decode": "parse unmarshal deserialize", "serialize": "encode marshal dump", "parse": "decode",
    "hash": "digest", "compress": "gzip deflate zip", "proxy": "forward", "schedule": "timer cron",
    "wait": "timeout sleep", "retry": "attempt", "attribute": "field property", "property": "attr field",
    "hook": "callback", "callback": "hook handler", "listener": "callback handler", "notify": "callback emit",
    "capacity": "size limit", "drop": "evict discard remove", "evict": "remove drop discard", "fallback": "default",
    "insert": "add put", "fetch": "get retrieve", "retrieve": "get fetch", "expire": "ttl timeout",
    "option": "flag setting", "flag": "option", "setting": "option config", "trim": "strip", "strip": "trim",
    "convert": "cast coerce", "cast": "convert coerce", "kill": "terminate stop",
    "turn": "convert parse cast",  # "turns a raw count of seconds into a readable string"
    "separator": "delimiter sep", "delimiter": "separator sep", "guess": "detect infer discover",
    "detect": "discover", "crash": "error exception", "throw": "raise", "raise": "throw",
    "benchmark": "bench perf", "performance": "perf", "configuration": "config conf", "initialize": "init",
    **LOCALES,
}
LOCALE_NAMES = {code: name for name, code in LOCALES.items()}
LOCALE_FOLDERS = frozenset(("locale", "locales", "i18n", "l10n", "lang", "langs", "languages", "translations"))
# A file's language as a user names it ("the javascript side"); a language not listed is named by its grammar.
LANGUAGE_WORDS = {"javascript": "javascript js", "typescript": "typescript ts", "tsx": "typescript tsx",
                  "objc": "objective objc", "csharp": "csharp", "go": "golang", "bash": "shell bash"}
# A question word that occurs nowhere in the repository is read as its nearest words by an embedding model
# (package data written by bench/neighbours.py), each an alternative at EXPANDED. A neighbour at least
# NEIGHBOUR_EVIDENCE close stands in for the word in the no_match evidence, for NEIGHBOUR_SHARE of its weight;
# a farther one only ranks. Measured: docs/decisions/0011, session 18.
# (a path by os.path: pathlib, and the urllib.parse and ipaddress it imports, cost a cold sentence ~4 ms to import)
NEIGHBOURS_FILE = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "neighbours.tsv")
NEIGHBOUR_EVIDENCE = 0.7
NEIGHBOUR_SHARE = 0.5
MAX_DOC = 600


# --- text ------------------------------------------------------------------------------------


_stem_memo: dict[str, str] = {}


def word_stem(token: str) -> str:
    """One word's index form: text.stem, the symbol query's stemmer (Snowball measured no better: 0011)."""
    found = _stem_memo.get(token)
    if found is None:
        found = stem(token)
        if len(_stem_memo) < 1 << 18:
            _stem_memo[token] = found
    return found


_GENERIC_STEMS = frozenset(map(word_stem, GENERIC_WORDS))


def words(text: str) -> list[str]:
    """Index words of a text: identifier parts, stop and one-letter words dropped, stemmed.

    Questions are asked in English: letters outside ASCII are dropped rather than sent through the
    tokenizer's slow Unicode path (translations and vendored data are most of them).
    """
    if not text.isascii():
        text = text.encode("ascii", "ignore").decode("ascii")
    # token -> its index word, "" when dropped: read by `map` in C, a Python call only for a token not seen yet
    tokens = tokenize(text)
    found = list(map(_word_memo.get, tokens))
    if None in found:
        found = [_index_word(t) if w is None else w for t, w in zip(tokens, found)]
    return list(filter(None, found))


_word_memo: dict[str, str] = {}


def joined_words(parts: Sequence[str]) -> list[str]:
    """`words(" ".join(parts))`, each part's words memoised: no word spans the space between two parts, and parts
    repeat across files (a message literal: django's .po files hold the same msgids in each of a hundred locales)."""
    memo = _parts_memo
    found: list[str] = []
    for part in parts:
        part_words = memo.get(part)
        if part_words is None:
            part_words = words(part)
            if len(memo) < PARTS_MEMO_MAX:
                memo[part] = part_words
        found += part_words
    return found


_parts_memo: dict[str, list[str]] = {}
PARTS_MEMO_MAX = 1 << 17  # message literals are at most 200 characters (`prose.MAX_LITERAL`)


def _index_word(token: str) -> str:
    """A token's index word (`word_stem`), "" for a stop word or a one-letter token, memoised."""
    word = "" if len(token) <= 1 or token in STOP_WORDS else word_stem(token)
    if len(_word_memo) < 1 << 18:
        _word_memo[token] = word
    return word


def question_words(text: str) -> list[str]:
    """A question's words: as `words`, less the words that frame a question; deduplicated, in order."""
    return list(dict.fromkeys(word_stem(t) for t in question_tokens(text)
                              if len(t) > 1 and t not in STOP_WORDS and t not in FRAME_WORDS))


# A term a question writes as a name names one thing: an acronym (`CSRF`, `TOTPs`), camel humps (`PostgreSQL`,
# `GraphQL`), or a capitalised word inside a sentence that is no English word (`Kafka`, `Schema` in "a JSON
# Schema"; the neighbours' vocabulary tells). When a word of it occurs nowhere in the repository, the question asks
# about something the repository lacks, however many of its other words the best file holds ("which middleware
# verifies the CSRF token on POST requests"). Not one: a sentence's first word, a place ("the offset from
# Greenwich", an English word), two capitals (`OK`, `IP`), a part of a dotted or called name (`Json.NET`).
# A lower-case letter before two capitals is a name's spelling too (`gRPC`, `eBPF`), not a camel-cased identifier.
_TERM_CANDIDATE = LazyPattern(r"(?<![\w.$])(?:[A-Z][A-Za-z0-9]*|[a-z][A-Z]{2}[A-Za-z0-9]*)(?![\w.(])")
_CAMEL_HUMP = LazyPattern(r"[a-z][A-Z]|[A-Z]{2}[a-z]")
_SENTENCE_START = ".?!:;\"'(\u2014-"
_VOWEL = LazyPattern(r"[AEIOUY]")


def _term_words(word: str, opens_sentence: bool) -> list[str] | None:
    """The words of `word` when it is written as a name (an acronym, its plural, camel humps, a capitalised word that
    is no English word), else None."""
    acronym = word[:-1] if word.endswith("s") else word
    if len(acronym) >= 3 and acronym.isupper():
        # an English word in capitals is a constant's or a variable's name (`COLUMNS`, `HOME`), which a string
        # literal may hold where no node's words do: no term the repository surely lacks. Capitals without a vowel
        # spell no English word, whatever the neighbours' vocabulary holds (`PDF`, `SVG`, `HTML`).
        english = _VOWEL.search(acronym) is not None and neighbours(word_stem(word.lower()))
        return None if english else tokenize(acronym)
    if _CAMEL_HUMP.search(word):
        return tokenize(word)
    if not opens_sentence and len(word) > 2 and word[1:].islower() and not neighbours(word_stem(word.lower())):
        return tokenize(word)  # the question's own split: `Neo4j` holds the word "neo"
    return None


# Where a question's own clause starts when something comes before it ("Our config is mounted from a Kubernetes
# ConfigMap, so …; where is the code that notices the file changed?"): the clause before says where the asker
# stands, and a term there is no subject the repository must hold; unless the question opens by asking (`_ASKS`).
_ASKING_CLAUSE = LazyPattern(r"[,;:.!?]\s+(?:(?:so|and|but|then)\s+)?(?:where|which|what|how|who|is there|are there)\b",
                             re.I)
_ASKS = LazyPattern(r"\s*(?:how|what|where|which|who|why|when|is|are|do|does|did|can|could|should|would|will)\b",
                    re.I)


def generic_absent(tokens: Sequence[str], missing: Iterable[str]) -> set[str]:
    """The generic words (`GENERIC_WORDS`) among the question's missing words, none when the question has no other."""
    generic = set(missing) & _GENERIC_STEMS
    return generic if generic and any(t not in generic for t in tokens) else set()


def absent_terms(text: str, missing: Iterable[str]) -> list[str]:
    """The terms `text` writes as names that hold a word of `missing` (words no node holds), in the clause that asks
    (a clause of context before it aside)."""
    missing = set(missing)
    if not missing:
        return []
    found = []
    asking = _ASKING_CLAUSE.search(text)
    if asking and _ASKS.match(text):  # a question before it asks too ("How do I expose a gRPC service …, where's …")
        asking = None
    for match in _TERM_CANDIDATE.finditer(text, asking.start() if asking else 0):
        at = match.start() - 1
        while at >= 0 and text[at].isspace():  # the character before the word, spaces aside (no copy of the text)
            at -= 1
        words = _term_words(match.group(), at < 0 or text[at] in _SENTENCE_START)
        if words and any(word_stem(t) in missing for t in words):
            found.append(match.group())
    return list(dict.fromkeys(found))


def fused_words(text: str, tokens: Sequence[str]) -> dict[str, list[str]]:
    """A camel-cased word of the question run together -> its humps among the question's words (`JavaScript`:
    "javascript" -> java, script): the one word a repository may hold where it holds none of the humps (a file's
    language is named "javascript"; no node holds "java")."""
    found: dict[str, list[str]] = {}
    for whole, parts in camel_cased(text):
        humps = [word_stem(t) for t in parts]
        if all(h in tokens for h in humps):
            found.setdefault(word_stem(whole), humps)
    return found


def with_fused_words(tokens: list[str], fused: Mapping[str, list[str]], held: Mapping[str, object]) -> list[str]:
    """The question's words, a camel-cased word's humps as the one word when the repository holds that word and none
    of the humps (`fused_words`)."""
    for word, humps in fused.items():
        if word in held and word not in tokens and not any(h in held for h in humps):
            at = tokens.index(humps[0])
            tokens = [t for t in tokens if t not in humps]
            tokens.insert(min(at, len(tokens)), word)
    return tokens


def joined_pairs(text: str, tokens: Sequence[str], fused: Mapping[str, object]) -> dict[str, tuple[str, ...]]:
    """Two adjacent words of the question run together, the one word a repository may spell ("time zone": a node
    named `Timezone` holds "timezone", neither "time" nor "zone") -> the parts among the question's words; a
    camel-cased word's whole is `fused_words`'."""
    found: dict[str, tuple[str, ...]] = {}
    for whole, parts in spelled_apart(text).items():
        word, held = word_stem(whole), tuple(p for p in map(word_stem, parts) if p in tokens)
        if held and word not in tokens and word not in fused:
            found[word] = held
    return found


def with_joined_pairs(joined: Mapping[str, tuple[str, ...]], postings: dict, alternates: dict[str, str]) -> None:
    """Each joined word the repository holds, an alternative of its rarer part (the one the fewest nodes hold); the
    rest are not read on."""
    for word, parts in joined.items():
        if word in postings and word not in alternates:
            alternates[word] = min(parts, key=lambda part: len(postings.get(part, ())))
        elif word not in alternates:
            postings.pop(word, None)


_EXPANDED_STEMS: dict[str, tuple[str, ...]] = {}


def alternatives(tokens: Sequence[str]) -> dict[str, str]:
    """alternative stem -> the question word it stands for, from EXPANSIONS (words the question has left out)."""
    if not _EXPANDED_STEMS:
        for word, alts in EXPANSIONS.items():
            _EXPANDED_STEMS[word_stem(word)] = tuple(word_stem(a) for a in alts.split())
    found: dict[str, str] = {}
    for token in tokens:
        for alt in _EXPANDED_STEMS.get(token, ()):
            if alt not in tokens and alt not in found:
                found[alt] = token
    return found


_neighbours_text: list[str] = []


def neighbours(word: str) -> list[tuple[str, float]]:
    """The nearest words of one stem, closest first, from the neighbours table (empty when it holds none)."""
    if not _neighbours_text:
        try:
            with open(NEIGHBOURS_FILE, encoding="ascii") as table:
                _neighbours_text.append("\n" + table.read())
        except (OSError, ValueError):  # an install without the table answers as before it existed
            _neighbours_text.append("")
    text = _neighbours_text[0]
    at = text.find("\n" + word + "\t")
    if at < 0:
        return []
    start = at + len(word) + 2
    found = []
    for pair in text[start:text.find("\n", start)].split():
        other, _, cosine = pair.partition(":")
        found.append((other, float(cosine)))
    return found


def neighbour_alternatives(absent: Sequence[str], tokens: Sequence[str],
                           alternates: Mapping[str, str]) -> tuple[dict[str, str], dict[str, float]]:
    """For question words the repository lacks: neighbour stem -> the word it stands for, and each neighbour's
    share of that word's weight in the no_match evidence (NEIGHBOUR_SHARE when near, else nothing)."""
    found: dict[str, str] = {}
    shares: dict[str, float] = {}
    for word in absent:
        for other, cosine in neighbours(word):
            if other not in tokens and other not in alternates and other not in found:
                found[other] = word
                shares[other] = NEIGHBOUR_SHARE if cosine >= NEIGHBOUR_EVIDENCE else 0.0
    return found, shares


# A word's other forms (English derivation the light stemmer leaves apart): the stem's ending -> what the related
# words end with. Asked only for a question word the repository lacks: "typography" meets `typographic`,
# "eviction" `evict`, "validate" `validation` and `validator`, "recursively" `recursive`.
_DERIVED_ENDINGS = (
    ("ization", ("ize",)), ("isation", ("ise", "ize")), ("ation", ("ate", "")), ("ition", ("", "e")),
    ("ersion", ("ert",)), ("sion", ("d", "de")), ("ion", ("", "e")), ("ment", ("", "e")), ("ism", ("",)),
    ("ability", ("able",)), ("ibility", ("ible",)), ("ity", ("", "e")), ("ency", ("ent",)), ("ancy", ("ant",)),
    ("enc", ("ent", "")), ("anc", ("ant", "")), ("ness", ("",)), ("iness", ("y",)), ("ly", ("",)),
    ("ical", ("y", "ic")), ("ic", ("y", "ical")), ("iv", ("ion", "e")), ("al", ("", "e")), ("y", ("ic",)),
)
# A verb's nouns: compress -> compression, compressor; fuzz -> fuzzer. A noun in "-er"/"-or" is not read as its
# verb: a customer is no custom, and a question about players (the off-topic benches' "players of a team") met `play`.
_NOUN_OF_VERB = ("ion", "ation", "ment", "er", "or")
MIN_DERIVED = 4  # a shorter word's forms are other words ("us" -> "user")
MIN_BASE = 4  # nor is a form made from fewer letters ("native" -> "nation")


def derived_forms(word: str) -> list[str]:
    """The index forms of words derived from `word` (an index form) or it from them, for a word the repository
    lacks; a form the repository holds stands for the word (`query_meaning`)."""
    if len(word) < MIN_DERIVED or not word.isalpha():
        return []
    found: dict[str, None] = {}
    derived = False
    for ending, replacements in _DERIVED_ENDINGS:
        base = word[: -len(ending)]
        if word.endswith(ending) and len(base) >= MIN_BASE:
            derived = True
            for replacement in replacements:
                found[word_stem(base + replacement)] = None
                if base[-1] == base[-2] and base[-1] != "s":  # cancellation -> cancel
                    found[word_stem(base[:-1] + replacement)] = None
    if not derived:  # a verb (its index form): its nouns
        for suffix in _NOUN_OF_VERB:
            found[word_stem(word + suffix)] = None
    found.pop(word, None)
    return [form for form in found if len(form) >= MIN_BASE]


def _signature_words(signature: str, name: str) -> str:
    # The name is its own field: keep the parameters and types, what follows the name.
    at = signature.find(name) if name else -1
    return signature[at + len(name):] if at >= 0 else signature


def path_text(path: str, lang: str) -> str:
    """A file's path text: its folders and name without the extension, its language's name, and the
    language a locale file is in."""
    parts = path.split("/")
    if "." in parts[-1]:
        parts[-1] = parts[-1].rsplit(".", 1)[0]
    said = [LANGUAGE_WORDS.get(lang, lang)] if lang else []
    if any(part.lower() in LOCALE_FOLDERS for part in parts[:-1]):
        for part in reversed(parts[-2:]):  # `de.ts`, or `de/formats.py`; `pt_BR` and `zh-Hans` are their language
            name = LOCALE_NAMES.get(part.lower().replace("_", "-").split("-", 1)[0])
            if name:
                said.append(name)
                break
    return " ".join(("/".join(parts), *said))


def node_fields(node, messages: Sequence[str] = (), header: str = "") -> dict[str, str]:
    """The text of each field of a node (model.Node) but its anchor text (`with_anchors`): what the index
    counts and `--explain` names."""
    if node.kind == "file":
        return {"path": path_text(node.path, node.lang), "header": header, "message": " ".join(messages)}
    return {
        "name": node.name,
        "owner": node.owner,
        "signature": _signature_words(node.signature, node.name),
        "doc": node.doc[:MAX_DOC],
        "message": " ".join(messages),
    }


# --- anchor text -----------------------------------------------------------------------------
# What the documents say where they name a node, as search engines read the text of links to a page: the
# description after a heading or directive that names it (`.. function:: slugify`, a `timesince` section),
# else the sentence that names it. Measured against whole paragraphs and section headings: docs/decisions/0011.

_SENTENCE_END = re.compile(r"(?<=[.!?:;])\s+")
SHORT_BLOCK = 160  # a block this short whose sentences do not spell the name is all of it


def anchor_texts(claims: Iterable[tuple], documents: Mapping) -> dict[int, list[str]]:
    """node id -> the distinct texts the documents say about it, in link order, from doc_links' output
    (`doc_links.claims`: the links that are no guess; an ambiguous one's text would land on every candidate;
    a name written with no markup, a mention, says too little) and the parsed documents (model.Document)."""
    starts: dict[str, list[int]] = {}
    split: dict[tuple[str, int], list[str]] = {}  # a block's sentences: a paragraph often names several nodes
    found: dict[int, dict[str, None]] = defaultdict(dict)
    for path, line, token, heading, directive, nodes in claims:
        document = documents.get(path)
        if document is None:
            continue
        lines = starts.get(path)
        if lines is None:
            lines = starts[path] = [block.line for block in document.blocks]
        at = bisect_right(lines, line) - 1
        if at < 0 or document.blocks[at].end_line < line or document.blocks[at].kind == "code":
            continue
        if all(t.text != token for t in document.blocks[at].tokens):
            continue  # a name mentioned without markup (doc_links' mention): the page may only use it in passing
        sentences = split.get((path, at))
        if sentences is None:
            sentences = split[path, at] = _SENTENCE_END.split(document.blocks[at].text)
        for text in _anchors(document.blocks, at, token, heading or directive, sentences):
            for node in nodes:
                found[node][text] = None
    return {node: list(texts) for node, texts in found.items()}


def _anchors(blocks: Sequence, at: int, token: str, names_it: bool, sentences: Sequence[str]) -> list[str]:
    """What block `at` (which spells `token`, and splits into `sentences`) says: the block after it when it is
    a heading or directive that names the node (`names_it`), and its sentences that spell the name."""
    block = blocks[at]
    said = []
    if names_it or block.kind in ("heading", "directive"):
        following = next((b for b in blocks[at + 1:at + 6] if b.kind != "code"), None)
        if following is not None and following.kind not in ("heading", "directive"):
            said.append(following.text)  # what the section or the directive says the object does
    name = token.rsplit(".", 1)[-1].strip("()`~!:")
    sentences = [s for s in sentences if name and name in s]
    if sentences:
        said.append(" ".join(sentences))
    elif len(block.text) < SHORT_BLOCK:
        said.append(block.text)
    return [text for text in said if text]


