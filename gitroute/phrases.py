"""The phrases that ask for one kind of answer, read out of a question in words: general English about code and
documents, several phrasings per kind (the nouns and verbs people use, in the word orders they use them), never a
bench's wording. `ask` reads them (`phrase_intents`) beside the names and paths a question holds.
"""
from __future__ import annotations

import re

from gitroute.shards import shard_of

# Sets of words (lower case) of which a match holds at least one word each.
Gate = tuple[tuple[str, ...], ...]
_MOST_KEPT = 64  # compiled subsets of one table's alternatives kept at once

class Phrases:
    """Alternatives of one kind's phrases, searched as the one pattern `|`-joined they are (case-insensitive), but
    compiled only as far as a question needs: compiling every phrase costs a cold `ask` ~30 ms of CPU, more than
    searching them, and most alternatives cannot match a given question at all.

    An alternative's gate (`_GATES`, by the CRC-32 of its text) lists sets of words: every match of it holds a word
    of each set (`necessary_words`). An ASCII question missing one of them cannot match that alternative, so the
    alternatives left, joined in their order, find what the whole pattern finds (the leftmost match, the first
    alternative there): a dropped one never matched anywhere. A question with other characters (case folding
    beyond ASCII: the Kelvin sign is a `k`), or an alternative without a gate, is searched as written.
    """

    __slots__ = ("alternatives", "gates", "_compiled")

    def __init__(self, *alternatives: str) -> None:
        self.alternatives = alternatives
        self.gates: tuple[Gate | None, ...] | None = None  # looked up at the first search: `_GATES` is below
        self._compiled: dict[tuple[int, ...], re.Pattern[str]] = {}

    def search(self, text: str) -> re.Match[str] | None:
        if self.gates is None:
            self.gates = tuple(_GATES.get(gate_key(a)) for a in self.alternatives)
        if text.isascii():
            lowered = text.lower()
            kept = tuple(i for i, gate in enumerate(self.gates)
                         if gate is None or all(any(word in lowered for word in words) for words in gate))
            if not kept:
                return None
        else:
            kept = tuple(range(len(self.alternatives)))
        pattern = self._compiled.get(kept)
        if pattern is None:
            if len(self._compiled) >= _MOST_KEPT:  # a warm server asks many questions: keep a bounded few
                self._compiled.clear()
            pattern = self._compiled[kept] = re.compile("|".join(self.alternatives[i] for i in kept), re.I)
        return pattern.search(text)

    @property
    def pattern(self) -> re.Pattern[str]:
        """The whole pattern, compiled (what `search` answers as)."""
        return re.compile("|".join(self.alternatives), re.I)


def gate_key(alternative: str) -> int:
    """An alternative's key in `_GATES`: the CRC-32 of its text (gitroute's one hash, as a shard among 2**32)."""
    return shard_of(alternative, 1 << 32)


def _phrases(*alternatives: str) -> Phrases:
    return Phrases(*alternatives)


# Nouns that name a piece of documentation; the strict ones name nothing else in a sentence about code
# ("page" and "reference" do: a page cache, a reference count).
_DOC_STRICT = (r"(?:docs?|documentation|guides?|manuals?|tutorials?|write-?ups?|writeups?|articles?|prose|readme"
               r"|how-?tos?|handbook|faq|walk-?through|user guide|doc pages?|docs pages?|design (?:docs?|documents?"
               r"|notes?|pages?)|reference (?:entry|entries|page|pages|docs?|documentation|manual|section)"
               r"|(?:api|the) reference|pages? (?:in|of) the (?:docs|documentation|manual|guide|reference)"
               r"|section of the (?:docs|documentation|manual|guide|reference|api reference)|blog posts?"
               r"|changelogs?(?: entry| entries)?|release notes?|release entr(?:y|ies))")
_DOC_NOUN = rf"(?:{_DOC_STRICT[3:-1]}|pages?|documents?|sections?|chapters?|reference|notes)"
_DOC_VERB = (r"(?:explain(?:s|ed|ing)?|describ(?:e|es|ed|ing)|document(?:s|ed|ing)?|cover(?:s|ed|ing)?"
             r"|mention(?:s|ed|ing)?|discuss(?:es|ed|ing)?|talk(?:s|ed|ing)? about"
             r"|walk(?:s|ed|ing)? (?:me |you |us |one )?through"
             r"|introduc(?:e|es|ed|ing)|demonstrat(?:e|es|ed|ing)|show(?:s|n|ing)?|say(?:s|ing)?|said"
             r"|tell(?:s|ing)?|go(?:es)? (?:over|into|through)|is about|are about|deal(?:s|t)? with|teach(?:es)?"
             r"|illustrat(?:e|es|ed|ing)|detail(?:s|ed)?|spell(?:s|ed)? out|refer(?:s)? to|list(?:s|ed)?"
             r"|argu(?:e|es|ed|ing)|compar(?:e|es|ed|ing)|justif(?:y|ies|ied)|recommend(?:s|ed)?|advis(?:e|es|ed)"
             r"|giv(?:e|es|ing)\s+(?:an?\s+)?(?:\S+\s+)?(?:overview|summary|introduction|tour)|summari[sz](?:e|es)"
             r"|points?\s+(?:me|you|us|one|people|readers)\s+to)")
_DOCS = _phrases(
    # "where is X documented": the phrase starts at "where", so X is the name after it ("and does it mention Y")
    r"\b(?:(?:where|how|how well) (?:is|are|was|were) (?:\S+\s+){1,6}?)?(?:documented|explained|described"
    r"|discussed|written (?:up|down))\b",
    r"\b(?:covered|mentioned|introduced|detailed|walked through|spelled out)\b"
    rf"(?=(?:\s+\S+){{0,4}}?\s+(?:in|by) (?:the |a |any |some )?{_DOC_NOUN}\b|\s+(?:anywhere|somewhere)\b)",
    rf"\b(?:which|what|any|a|an|the|some|one|each)\s+(?:\S+\s+){{0,3}}?{_DOC_NOUN}\b(?:\s+\S+){{0,6}}?\s+{_DOC_VERB}\b",
    rf"\b(?:is|are) there\s+(?:\S+\s+){{0,4}}?{_DOC_STRICT}\b",
    # "is there a page on X": a page (or section) about something, not a page cache
    r"\b(?:is|are) there (?:a|an|any|some) (?:\S+\s+)?(?:pages?|documents?|sections?|chapters?)\s+(?:on|about"
    r"|explaining|describing|covering|listing|documenting|detailing|discussing|showing"
    r"|that (?:explains?|describes?|covers?|lists?|documents?|details?|discusses|shows?))\b",
    # a procedure to follow: "what are the steps for deprecating a function", "what's the process to cut a release"
    r"\bwhat (?:are|were) the (?:\S+\s+)?steps (?:for|to|involved in)\b"
    r"|\bwhat(?:['’]s| is) the (?:\S+\s+)?(?:procedure|process|checklist) (?:for|to)\b",
    rf"\bany\s+(?:\S+\s+)?(?:{_DOC_STRICT}|pages?|documents?)\b",
    rf"\b{_DOC_STRICT}(?:\s+\w+)?\s+(?:for|on|about|of|behind|covering|explaining|describing|documenting|regarding)\b",
    r"\b(?:where|(?:which|what)(?:\s+\S+){1,2}?)\s+(?:can|should|do|would|could|must|might)\s+(?:i|we|you|one|someone)\s+"
    r"(?:\S+\s+){0,2}?(?:read|learn|find out)\b",
    r"\b(?:read|learn|find out|find) (?:more )?about\b",
    rf"\bwhere in (?:the |its |their |this project's )?{_DOC_STRICT}\b",  # "where in the docs can I find links to …"
    # "where do the docs give credit to the original author": the docs do something, somewhere in them
    rf"\bwhere (?:do|does|did) (?:the |its |their |this project's )?{_DOC_STRICT}\b",
    rf"\blooking for (?:the |a |some |any )?(?:\S+\s+)?(?:{_DOC_STRICT}|reference)\b",
)
# "which code does DOC talk about", "what does the X guide describe", "the code behind it": what a document names.
_IMPACT_VERBS = (r"(?:calls?|uses?|imports?|requires?|includes?|instantiates?|subclass(?:es)?|inherits? from"
                 r"|extends?|depends? on|relies? on|leans? on|references?|consumes?|pulls? in|invokes?|wraps?"
                 r"|overrides?|mocks?|patches?|builds? on)")
# What "which … implements it" asks for ("which module actually implements that environment?"), and its adverbs.
_CODE_NOUN = r"(?:code|source code|source files?|files?|programs?|modules?|class(?:es)?|functions?|methods?)"
_ACTUALLY = r"(?:(?:actually|really|exactly|in fact)\s+)?"
_NOT_A_USE = rf"(?!{_IMPACT_VERBS}\b|(?:is|was|has|does|do)\b)"  # a verb that asks who uses it, or an auxiliary
_CODE = _phrases(
    r"\b(?:which|what) (?:code|files?|symbols?|functions?|classes|modules?|packages?|types?|sources?)\b.*"
    r"\b(?:does|do|is|are)\b.*"
    r"\b(?:talk|talks|talking|describe|describes|describing|mention|mentions|mentioning|cover|covers|covering"
    r"|refer|refers|referring|name|names|naming|document|documents|documenting|point|points|pointing)\b",
    r"\bwhat does (?:the )?.+ (?:doc|document|guide|page|reference|readme|adr|rfc) (?:describe|cover|talk about"
    r"|mention|name)\b",
    # "the code behind it", "the source backing this page"; not "the file behind a symlink" (a place on disk)
    r"\b(?:code|source|sources|implementation|files?)\s+(?:\S+\s+){0,2}?(?:behind|backing)\b(?!\s+an?\b)",
    r"\b(?:take|bring|point) me to (?:the|that|this|its|their) (?:code|source|files?|implementation|program)\b",
    # "the README section about jwt.decode … is implemented by which source file?"
    r"\b(?:is|are)\s+(?:actually\s+)?(?:implemented|done|performed|carried out)\s+(?:by|in)\s+(?:which|what)\s+"
    r"(?:source\s+)?(?:code|files?|modules?|functions?|classes|sources?)\b",
    # "which code backs it", "which code actually implements that", "which code writes those messages", "so which
    # code does that?": the code of the thing the question described before
    rf"\b(?:which|what) {_CODE_NOUN}\s+{_ACTUALLY}"
    r"(?:implements?|backs?|powers?|is behind|are behind|writes?|prints?|produces?|emits?|generates?|performs?"
    r"|handles?)\s+(?:it|this|that|them|these|those)\b",
    # any verb done to several things the document named ("which code actually publishes those events?"), but a
    # use's, which asks who uses them ("it" may be the question's own subject: "what code notices it and retries")
    rf"\b(?:which|what) {_CODE_NOUN}\s+{_ACTUALLY}"
    rf"{_NOT_A_USE}\w+s\s+(?:them|these|those)\b",
    rf"\b(?:which|what) {_CODE_NOUN}\s+{_ACTUALLY}"
    r"(?:does|do) (?:it|this|that)\s*(?:[?.!]|$)",
    # two things done to what the document described: "what code registers and then invokes those methods?"
    rf"\b(?:which|what) {_CODE_NOUN}\s+{_ACTUALLY}\w+s\s+(?:and|or)\s+(?:then\s+)?\w+s\s+(?:it|this|that|them|these"
    r"|those)\b",
    r"\b(?:open|show me) (?:that|this) (?:program|code|source|implementation)\b",
    r"\b(?:which|what) (?:code|source files?|files?)\s+(?:is|are|holds?|contains?)\s+(?:that|this|those|these)\s+"
    r"(?:programs?|examples?|samples?|code|implementations?|demos?|tools?)\b",
    # "I'm reading the blueprints page; where's the code?": the code of the document the question names
    r"\bwhere(?:'s|’s|\s+is|\s+are)\s+(?:the\s+)?(?:code|source|implementation)(?:\s+for\s+(?:it|this|that|them)"
    rf"|\s+that\s+{_ACTUALLY}(?:implements?|does|do|handles?)\s+(?:it|this|that|them))?\s*(?:[?.!]|$)",
    r"\b(?:which|what) (?:code|source files?|files?|functions?|classes|modules?|packages?)\s+(?:implements?|backs?)\b"
    r".*\b(?:described|documented|proposed|specified|outlined|explained) in\b",
    r"\b(?:source|code|implementation)(?: files?)? (?:for|of) (?:the )?(?:\S+\s+){0,3}?(?:it|this|that|them|listed"
    r"|named|mentioned|described|shown)\b",
    r"\b(?:code|source|files|classes|functions)\s+(?:it|this page|this doc|that page|that doc|they)\s+(?:describes?"
    r"|covers?|documents?|talks? about|mentions?|walks? through|refers? to)\b",
)
class _AfterPage(Phrases):
    """Phrases that ask for code only after the question named a page ("The Task Lists extension page … promises
    checkbox items, so which code actually spots the bracket markers …?": what the page says, then the code that
    does it in other words); "which code parses the command line" names none and asks where, in plain words."""

    __slots__ = ()

    def search(self, text: str) -> re.Match[str] | None:
        found = super().search(text)
        return found if found is not None and _A_PAGE.search(text, 0, found.start()) else None


_A_PAGE = re.compile(r"\b(?:page|guide|docs|documentation|readme|section|chapter|tutorial|manual)\b", re.I)
# ("… which class actually does that counting": the doing the page described, named by its -ing)
_CODE_AFTER_PAGE = _AfterPage(rf"\b(?:which|what)\s+{_CODE_NOUN}\s+{_ACTUALLY}(?:{_NOT_A_USE}\w+s\b"
                              r"|(?:does|do) (?:that|this|the|those|these)\s+\w+ing\b)")

_IMPACT = _phrases(
    rf"\b(?:who|what)\s+(?:\S+\s+)?(?:else\s+)?{_IMPACT_VERBS}\b",
    # "what else in the package uses or re-exports it" (uuid): what else, then where, then the verb
    rf"\b(?:who|what)\s+else\s+(?:\S+\s+){{1,3}}?{_IMPACT_VERBS}\b",
    # "which handlers pull in X" (a plural and its verb; "which modules depend on" is the packages' wiring)
    # (not "which source files implement that": where the thing described is, as "the code that implements it"; not
    # "which exit status to use": a choice, the verb an infinitive)
    # (nor "which part lets me wrap an emitter": a verb, not a plural, before whom it lets)
    r"\b(?:which|what)\s+(?!(?:source\s+|code\s+)?files\s+(?:\S+\s+)?implement\b)(?:\S+\s+){0,3}?"
    r"(?!(?:lets|allows|helps|makes|gets|enables)\s)\w+s\s+(?:(?!to\s)\S+\s+)?"
    r"(?:call|use|import|require|include|instantiate|subclass"
    r"|inherit from|extend|reference|consume|pull in|invoke|wrap|override|build on|implement|are built on|lean on"
    r"|rely on)\b",
    r"\bwhat\s+(?:would|will|could|might|can|does|do|else)\s+(?:\S+\s+){0,2}?(?:break|breaks|fail|be affected"
    r"|need (?:to )?(?:change|update|updating))\b",
    r"\b(?:break|breaks|broken|breaking|affect|affects|affected|impact|impacts)\b(?:\s+\S+){0,8}?\s+if\b",
    r"\b(?:if|in case)\s+(?:i|we|you|someone|somebody|one)\s+(?:\S+\s+)?(?:change|changed|rename|renamed"
    r"|remove|removed|delete|deleted|drop|dropped|modify|modified|edit|edited|touch|touched|refactor"
    r"|refactored|rewrite|rewrote|rework|reworked|replace|replaced|swap|swapped|move|moved|split|deprecate"
    r"|deprecated|tweak|tweaked|tighten|tightened|loosen|loosened|alter|altered|adjust|adjusted|restrict"
    r"|restricted|narrow|narrowed|widen|widened)\b",
    r"\bif\s+(?:\S+\s+){1,6}?(?:changed|was renamed|were renamed|is renamed|went away|goes away|disappeared"
    r"|started|stopped|began|(?:is|was|were|got) (?:removed|deleted|dropped))\b",
    r"\b(?:callers|dependents|dependants|users|consumers|importers|subclasses|implementers|usages|call sites"
    r"|reverse dependencies) (?:of|to)\b",
    r"\bblast radius\b|\bripple effects?\b|\bsafe to (?:change|rename|remove|delete|drop|modify|edit|refactor"
    r"|touch|deprecate|move)\b",
    r"\b(?:need|needs|have|has|had) to (?:be )?(?:update|updated|fix|fixed|change|changed|touch|touched|adapt"
    r"|adapted|look at|migrate|migrated)\b",
    r"\bbuilt (?:on top of|upon)\b|\bdepends? on (?:it|this|that|them)\b|\b(?:went|goes|go) away\b"
    r"|\boutside (?:of )?(?:its|their|the) own\b|\boutside (?:of )?\S+\.\w{1,4}\b",
    rf"\b(?:that|which|who)\s+(?:{_IMPACT_VERBS}|subclass|inherit|extend|import|call|use|include|require"
    r"|instantiate|override|depend on)\s+(?:it|them|this|that)\b",
    # "the classes that implement it" (its implementers), not "the code that implements them" (where they are)
    r"(?<!code )(?<!logic )(?<!source )\b(?:that|which|who)\s+implements?\s+(?:it|them|this|that)\b",
    # "everything that subclasses or imports X", "the sinks and sources that call into X": what uses a thing, said
    # in a relative clause after a plural or a word for all
    rf"\b(?:everything|anything|all|whatever|\w+s)\s+(?:that|which|who)\s+(?:\S+\s+)?{_IMPACT_VERBS}\b",
    # "show me its callers", "what callers should I re-check", "the remaining call sites"
    r"\b(?:its|their|what|which|any|all|the|other)\s+(?:\S+\s+)?(?:callers|call sites|dependents|dependants"
    r"|importers|subclasses|usages|reverse dependencies)\b",
    # "where is url_for used?", "where's Rack::Lint called from", "where else does X get imported", "how is X used?":
    # where a thing is used, the verb ending the clause (not "where is the session used to sign cookies", which asks
    # how)
    r"\b(?:where(?:\s+else)?|how)(?:\s+(?:is|are|was|were|does|do|did)|'s)\s+(?:\S+\s+){1,4}?(?:get\s+|got\s+)?(?:used"
    r"|called|imported|required|included|referenced|invoked|instantiated|subclassed|overridden|extended)"
    r"(?=\s*(?:[?.!;,]|$|\s+(?:from|in|by|across|anywhere|elsewhere|outside|throughout|at all)\b))",
    r"\b(?:find|list|show)\s+(?:me\s+)?(?:all\s+)?(?:the\s+)?(?:usages|references|uses)\s+(?:of|to)\b",
    # "does anything still use X", "is anyone calling X", "is X used anywhere"
    rf"\b(?:does|do|did)\s+(?:anything|anyone|anybody|any\s+\S+)\s+(?:still\s+|else\s+|actually\s+)?{_IMPACT_VERBS}\b",
    r"\b(?:is|are)\s+(?:anything|anyone|anybody|any\s+\S+)\s+(?:still\s+|else\s+|actually\s+)?(?:using|calling"
    r"|importing|requiring|including|referencing|extending|subclassing|invoking|instantiating)\b",
    r"\b(?:is|are)\s+(?:\S+\s+){1,4}?(?:still\s+|even\s+|actually\s+)?(?:used|called|imported|referenced|invoked)"
    r"\s+(?:anywhere|elsewhere|outside|at all|by anything|by anyone)\b",
)
# "which tests cover X", "where is X tested": what uses a thing, its tests first (`ask` asks impact so).
TESTS_WHY = "asks which tests exercise something"
_TESTED = _phrases(
    r"\b(?:which|what|any)\s+(?:unit\s+|integration\s+)?tests?\s+(?:\S+\s+)?(?:cover|covers|exercise|exercises"
    r"|hit|hits|call|calls|use|uses|touch|touches|check|checks|import|imports)\b",
    r"\b(?:the|any|its|their)\s+(?:unit\s+)?tests\s+(?:for|of|covering)\b",
    r"\bwhere\s+(?:is|are)\s+(?:\S+\s+){1,4}?(?:tested|unit[- ]tested)\b",
    r"\bis\s+(?:\S+\s+){1,4}?(?:tested|covered by (?:a |any )?tests?)(?:\s+(?:anywhere|somewhere|at all))?"
    r"\s*(?:[?.!]|$)",
)
# "I'm about to change X": the setting of a question, which asks what a change breaks unless it asks another thing.
_CHANGING = _phrases(
    # a sentence that opens on the change: "Changing X's signature; …", "Renaming the Y class — …"
    r"^\s*(?:changing|renaming|removing|deleting|dropping|modifying|refactoring|rewriting|reworking|replacing"
    r"|deprecating|splitting|moving)\b",
    r"\b(?:i'?m|i am|we'?re|we are|i'?ll|we'?ll|i will|we will|i want to|we want to|i'?d like to|i need to"
    r"|we need to|planning to|about to|going to|before i|before we)\s+(?:\S+\s+)?(?:change|changing|rename"
    r"|renaming|remove|removing|delete|deleting|drop|dropping|modify|modifying|edit|editing|refactor|refactoring"
    r"|rewrite|rewriting|rework|reworking|replace|replacing|swap|swapping|deprecate|deprecating|split|splitting"
    r"|move|moving|touch|touching|add|adding|tweak|tweaking|tighten|tightening|loosen|loosening|alter|altering"
    r"|adjust|adjusting|restrict|restricting|narrow|narrowing|widen|widening)\b",
    # "If I change the signature or behaviour of tocharset, which callers …" (LPeg)
    r"\b(?:if|when|once)\s+(?:i|we|you|someone)\s+(?:\S+\s+)?(?:change|rename|remove|delete|drop|modify|edit"
    r"|refactor|rewrite|rework|replace|swap|deprecate|split|move|touch|tweak|alter|adjust)\b",
)
# "where is X defined", "which header declares X": where a name is defined (a name must be there to ask it).
WHERE_IS = r"where(?:'s|\s+is|\s+are|\s+was|\s+were|\s+does|\s+do)?\s+"
DEFINING = ("defined", "declared", "implemented", "located", "live", "lives", "housed", "written")
_DEFINED = _phrases(
    rf"\b{WHERE_IS}(?:\S+\s+){{0,6}}?(?:{'|'.join(DEFINING)})\b",
    r"\b(?:which|what)\s+(?:\S+\s+)?(?:file|files|module|modules|header|headers|package|source file|class|struct"
    r"|crate)\s+(?:\S+\s+)?(?:defines?|declares?|holds?|contains?|implements?)\b",
    r"\b(?:definition|declaration) of\b|\bjump to\b|\bgo to (?:the |its )?definition\b",
    # "X is only declared in the header; where is its full definition?", "where's the declaration of it"
    rf"\b{WHERE_IS}(?:\S+\s+){{0,3}}?(?:definition|declaration)s?\b",
    # the whole question is "where is X?" ("where's the Blueprint class?", "where is QuerySet.filter?")
    r"^\s*where(?:'s|’s|\s+is|\s+are|\s+can\s+i\s+find)\s+(?:the\s+)?[^\s?]+(?:\s+(?:class|function|method|struct"
    r"|type|interface|enum|trait|macro|constant|module))?\s*\??\s*$",
    r"\b(?:which|what)\s+(?:\S+\s+)?(?:file|files|module|modules|header|headers|package|source file|crate)\s+"
    r"(?:is|are|was|were)\s+(?:\S+\s+){1,2}?(?:in|from)\s*(?:[?.]|$)",
    # a name and its kind, then what it does, then "is defined" ("where the ConnectionPool class that keeps the
    # cluster's node connections is defined"): the kind word says a name came before it
    rf"\bwhere\s+(?:(?:is|are)\s+)?(?:the\s+)?\S+\s+(?:class|function|method|struct|type|interface|enum|trait|macro"
    rf"|module)\s+(?:that|which|who)\b(?:\s+\S+){{1,16}}?\s+(?:is|are)\s+(?:{'|'.join(DEFINING)})\b",
)
_WHY_AUX = r"(?:did|do|does|was|were|is|are|would|should|could|have|has|had|can|must|need)"
_DECISION = _phrases(
    # "why did", "why didn't", "why aren't", "why can't", "why not"; "how come"; a clause that ends in "why?"
    rf"^\s*why\b|\bwhy (?:{_WHY_AUX}(?:n[’']?t)?|not|won[’']?t|switch|keep|use|only)\b|\bwhy\s*\?|\bhow come\b",
    # (not "where is that decision made": a place in the code)
    r"\b(?:decision records?|decisions?(?!\s+(?:is\s+|are\s+|gets?\s+)?(?:made|taken)\b)|rationale|adr|design records?"
    r"|motivation|trade-?offs?)\b|\bwhat motivated\b",
    r"\breason(?:s|ing)? (?:for|behind|why)\b|\breasoning\b|\bthinking behind\b|\bjustif(?:y|ied|ies|ication)\b",
    r"\bon what grounds\b|\bturned down\b|\bruled out\b",
    r"\b(?:what|which) (?:other|else|alternatives?)\b(?:\s+\S+){0,6}?\s+(?:considered|consider|on the table"
    r"|proposed|propose|evaluated|evaluate|weighed|weigh|rejected|reject|discussed|looked at)\b",
    # "what made them hold off on X", "what made the team pick Y"
    r"\bwhat made\s+(?:\S+\s+){0,4}?(?:hold off|decide|choose|opt|go with|pick|prefer|avoid|reject|drop"
    r"|abandon|stick with|settle on|switch)\b",
    # a design choice challenged: "isn't that a bad idea?", "what's wrong with using plain dicts?"
    r"\b(?:isn[’']?t|is|wasn[’']?t|was|aren[’']?t|are) (?:that|this|it|they|these|those) (?:\S+ )?(?:a )?"
    r"(?:bad|good|poor|terrible|questionable|risky|dangerous|wise|smart) (?:idea|choice|design|approach|practice)s?\b",
    r"\bwhat(?:[’']s| is) (?:wrong|bad) (?:with|about) (?:using|just|simply|plain|having)\b",
    # the case made for or against a design: "what's the argument against namedtuples", "the downsides of X"
    # (not "the arguments for parse()": a function's)
    r"\barguments? (?:for and )?against\b|\bthe case (?:against|for)\b|\bpros and cons\b",
    r"\b(?:downsides?|drawbacks?|disadvantages?) (?:of|to|with) (?:using |having |a |an |the )?\w",
)
# "X instead of Y", "rather than", "in favour of": a choice, unless the question asks for another kind ("if X started
# returning a list instead of a generator, what callers …") or where something is done ("where does reading take its
# input from a function instead of one string"): a weak phrase, as "I'm changing X" is.
_CHOOSING = _phrases(r"\b(?:instead of|rather than|in favou?r of)\b")
# Verbs of deciding count only in a question that does not ask where something is: "where are formats
# chosen" asks for code, "was X chosen over Y" for a decision; so does a clause after a setting ("When a graph points
# back to itself, where does the serializer decide to throw?").
_DECIDING = _phrases(r"\b(?:decided|decide|chose|chosen|choose|choice|rejected|reject|alternatives?|dropped"
                     r"|abandoned)\b")
_LOCATION = _phrases(r"(?:^|[,;:]\s|[.?!]\s+)\s*(?:(?:so|and|but|then)\s+)?"
                     r"(?:where|(?:which|what) (?:[\w-]+ )?(?:file|files|function|functions"
                     r"|class|classes|method|methods|module|modules|code|line|part|parts|piece|bit)"
                     r"|how (?:does|do|is|are)"
                     # a request for a place: "Find the code that …", "Can you point me to …", "I'm looking for the …"
                     r"|(?:find|show)(?: me)? (?:the|where)|(?:can|could|would) you (?:point me to|find|show me)"
                     r"|i['’]?m looking for (?:the|where)|point me to)\b")
# Questions about intent and policy ("is X meant as", "will X still", "should we") read like decisions,
# never like a question of where something is.
_INTENT = _phrases(
    r"^\s*(?:is|are|will|should|shall|must|was|were)\b.*\b(?:meant|intended|supposed|still|ever|policy|allowed"
    r"|support(?:ed)?|deprecated|recommended|going to|plan(?:s|ned)? to|planned|(?:on|in) the roadmap|in scope"
    r"|out of scope|(?:a )?(?:non-)?goal)\b")
# Wiring is asked two ways: how the repository is built, tested and published (its CI and manifests: the wiring
# index answers from its tables and from those files' own words), and how its copies and pins are kept (contracts,
# submodules: the tables alone, where a CI file sharing the question's words is no answer).
# The tools that check a repository, by name: a file that sets one up or tells it what to do is a CI file.
_CHECK_TOOLS = (r"pytest|tox|nox|mypy|ruff|flake8|pylint|black|isort|eslint|prettier|jest|mocha|vitest|karma|phpunit"
                r"|phpstan|psalm|rubocop|clippy|rustfmt|golangci(?:-lint)?|clang-(?:format|tidy)|pre-commit"
                r"|(?:php[_ ]?)?code ?sniffer|phpcs|checkstyle|spotbugs|stylelint|gofmt|goimports|ktlint|detekt"
                r"|swiftlint|scalafmt|scalastyle|credo|dialyzer|hlint|luacheck|shellcheck|cppcheck"
                # coverage gates, API documentation generators, dependency-update bots: set up by a file of their own
                r"|nyc|c8|istanbul|codecov|coveralls|jacoco|gcov|lcov|simplecov|jsdoc|typedoc|doxygen|sphinx|javadoc"
                r"|renovate|dependabot")
_WIRING_BUILD = _phrases(
    r"\bwiring\b|\bwired\b|\bworkflows?\b|\bci\b|\bcontinuous integration\b|\bpkg-config\b",
    # a CI pipeline, not one in the code ("the upload pipeline", "the middleware pipeline", "the processing pipeline")
    r"\b(?:ci|cd|build|release|deploy(?:ment)?|test|publish(?:ing)?|github|gitlab|azure|bitbucket|jenkins)\s+"
    r"pipelines?\b|\bpipelines?\s+(?:files?|configs?|configuration|ya?ml|definitions?|jobs?|steps?|stages?|runs?)\b"
    r"|\bgithub actions?\b|\b(?:workflow|repository)[_ ]dispatch(?:es)?\b|\bdispatch events?\b",
    # publishing a package or a release, not what code does ("which handler publishes log records to a topic")
    r"\bpublish(?:es|ed|ing)?\b(?=(?:\s+\S+){0,6}?\s+(?:the\s+)?(?:packages?|releases?|crates?|gems?|wheels?|images?"
    r"|artifacts?|versions?|pypi|npm|nuget|registry|registries|docs|site)\b)",
    r"\b(?:packages?|releases?|crates?|gems?|wheels?|versions?)\b(?:\s+\S+){0,6}?\s+(?:gets?\s+|is\s+|are\s+|be\s+)?"
    r"publish(?:es|ed|ing)?\b",
    # uploading a build to where others fetch it ("uploads it to PyPI"), not a request's file uploads ("where are
    # large uploads streamed to a temporary file")
    r"\buploads? (?:it|them|the \S+|\S+)(?: \S+)?? to (?:the )?(?:pypi|npm|nuget|crates\.io|rubygems|registry"
    r"|registries|codecov|coveralls|s3|gcs|github|releases?|maven|sonatype|artifactory|docker ?hub|ghcr)\b",
    r"\b(?:package|packages|dependencies) (?:does|do|did) .* declare\b",
    # a manifest adding a dependency: "which file adds the native idn-ruby gem to the bundle"
    r"\b(?:which|what) (?:\S+ )?files? (?:adds?|lists?|pulls? in|brings? in)\b(?:\s+\S+){0,5}?\s+(?:gems?|crates?"
    r"|dependenc(?:y|ies)|dev[- ]dependenc(?:y|ies)|(?:npm |pip |composer |maven )packages?)\b",
    r"\bdeclares?\b.*\b(?:package|packages|dependenc(?:y|ies))\b",
    r"\b(?:packages?|modules?)\b.*\bdepend(?:s|ed|ing)?\b|\bdepend(?:s|ed|ing)? on\b.*\b(?:packages?|modules?)\b",
    r"\b(?:which|what) (?:\S+ )?manifests?\b|\bconsole[- ]scripts?\b",
    r"\b(?:go\.mod|package\.json|cargo\.toml|pyproject\.toml|setup\.cfg)\b",
    # the runtimes a package supports, which its manifest declares ("which file declares the supported Node.js
    # engine versions", "which Python versions are supported", "the minimum Go version")
    r"\b(?:supported|minimum|required|compatible|oldest)\s+(?:node(?:\.?js)?|python|go|golang|ruby|php|java|jdk"
    r"|rust|rustc|deno|bun|dotnet|\.net|perl|lua|erlang|elixir|otp)\s+(?:engine\s+)?(?:versions?|releases?|engines?)\b",
    r"\b(?:which|what)\s+(?:node(?:\.?js)?|python|go|golang|ruby|php|java|jdk|rust|deno|dotnet|\.net|perl|lua"
    r"|erlang|elixir|otp)\s+(?:versions?|releases?)\s+(?:are|is|does|do)\s+(?:\S+\s+){0,3}?support(?:s|ed)?\b",
    # the versions a build or a test environment pins
    r"\bpin(?:s|ned)?\b(?:\s+\S+){0,8}?\s+(?:versions?|dependenc(?:y|ies))\b",
    # a file named by where it sits: "which file in the build setup suppresses that warning", "what file in the CI
    # config"
    r"\b(?:which|what)\s+(?:\S+\s+)?files?\s+(?:in|of)\s+the\s+(?:build|ci|release|packaging)\s+(?:setup|config(?:uration)?"
    r"|system|tooling|scripts?)\b",
    # the tools a check installs: "which file pins the linting tools, flake8 and its docstring plugin"
    r"\b(?:which|what)\s+(?:\S+\s+)?files?\s+pins?\s+(?:the\s+)?(?:\S+\s+)?(?:tools?|linters?|formatters?"
    rf"|{_CHECK_TOOLS})\b",
    r"\bentry[- ]points? group\b|\bregister(?:s|ed)?\b(?:\s+\S+){0,8}?\s+(?:an? |the )?entry[- ]points?\b",
    # what a manifest declares for the package's users: "which file declares which bundle gets loaded for browser
    # and Node consumers, including the require versus import entry points and the type definitions?"
    r"(?:\b(?:declares?|declared|specif(?:y|ies|ied))|\b(?:which|what)\s+(?:\S+\s+)?files?\s+(?:maps?|defines?|lists?))\b"
    r"(?:\s+\S+){0,16}?\s+(?:entry[- ]points?|exports? maps?"
    r"|conditional exports|package exports|typings|(?:deep|subpath) (?:imports?|exports?))\b",
    # Build settings and the commands a manifest names ("the build option that ...", "which npm script ...",
    # "where is it configured that ..."): the answer is a build or manifest file, not the code they act on.
    r"\bbuild (?:options?|flags?|settings?|switch(?:es)?)\b|\bcompile[- ]time (?:options?|flags?|switch(?:es)?)\b",
    r"\b(?:npm|yarn|pnpm|composer) scripts?\b|\bmake ?file targets?\b|\bmake targets?\b|\brake tasks?\b",
    r"\bwhere (?:is|was) it (?:configured|declared|specified) that\b",
    r"\bcargo features?\b|\b(?:needs?|requires?) the \S+ feature\b",
    # running the project's own tasks: "how do I run the test suite", "how to run the phpunit tests", "how to build
    # the docs", "which build tool" (one word of any kind before the tests: a runner's name, unit, browser, e2e)
    r"\bhow (?:do|can|should|would|to)\s+(?:(?:i|we|you|one)\s+)?(?:run|execute|kick off|invoke)\s+(?:the\s+|all\s+"
    r"(?:the\s+)?)?(?:[\w-]+\s+)?(?:tests?|test suite|specs?|benchmarks?|linters?"
    r"|the build|builds?)\b",
    r"\bhow (?:do|can|should|would|to)\s+(?:(?:i|we|you|one)\s+)?(?:build|compile|package|release|install|lint)"
    r"\s+(?:the\s+|this\s+)?(?:project|package|library|crate|module|repo|repository|code|docs|documentation"
    r"|binary|binaries|wheel|site|from source)\b",
    r"\bhow are (?:the\s+)?(?:tests|specs|benchmarks|releases|docs) (?:run|executed|built|made|published)\b",
    r"\b(?:which|what) (?:command|script|target|task)s? (?:runs?|builds?|lints?|releases?|publishes?)\b",
    # a script or a make target that keeps a file made ("which script regenerates lib/config-validator.js")
    r"\b(?:which|what) (?:\S+ )?(?:script|target|task|build file|makefile)s? (?:re)?(?:generates?|builds?|updates?"
    r"|checks?|verif(?:y|ies)"
    r"|bumps?|deploys?|bundles?|compiles?|formats?|tests?|packs?|packages?|publish(?:es)?|releases?)\b",
    r"\b(?:which|what) build (?:tools?|systems?)\b",
    # the file that holds a job: "which config defines the job that spell-checks the docs", "what runs the tests"
    r"\b(?:which|what) (?:\S+ )?(?:config(?:uration)?s?|files?|manifests?)\s+(?:defines?|declares?|configures?"
    r"|sets? up|runs?|holds?)\s+(?:the |a |an |that )?(?:\S+ )?(?:jobs?|tasks?|steps?|environments?|envs?|targets?"
    r"|workflows?)\b",
    # a check it sets up: "which file sets up the spelling check over the markdown and Go sources" (pkg/errors'
    # Makefile runs misspell); not one it runs, which code does too ("which file runs the bounds check")
    r"\b(?:which|what) (?:\S+ )?(?:config(?:uration)?s?|files?|manifests?)\s+(?:sets? up|configures?)\s+"
    r"(?:the |a |an )?(?:\S+ )?(?:checks?|checkers?|linters?|linting)\b",
    # "which file defines the build script that wipes dist …", "which file makes the test command rerun …": a project
    # command, kept in its manifest or CI
    r"\b(?:which|what)\s+(?:\S+\s+)?(?:config(?:uration)?\s+)?files?\s+(?:\S+\s+){1,2}?(?:the\s+)?"
    r"(?:[\w.-]+\s+)?(?:build|test|lint"
    r"|release|publish|install|deploy|npm)\s+(?:(?:build|test|lint|release|publish|install|deploy)\s+)?"
    r"(?:scripts?|commands?|tasks?)\b",
    r"\bwhat (?:runs|executes|kicks off|invokes) (?:the |all (?:the )?)?(?:[\w-]+ )?"
    r"(?:tests?|test suite|specs?|benchmarks?|linters?)\b",
    # "which Cloud Build config builds gopls and runs the govim integration tests": a file named by what it runs
    r"\b(?:which|what)\s+(?:\S+\s+){0,2}?(?:config(?:uration)?s?|files?|scripts?|workflows?|pipelines?|jobs?)\b"
    r"(?:\s+\S+){0,10}?\s+(?:runs?|executes?)\s+(?:the\s+|all\s+(?:the\s+)?)?(?:[\w-]+\s+){0,2}?"
    r"(?:tests?|test suite|specs?|benchmarks?)\b",
    # the package's or the build's own configuration ("which packaging config declares that plugin hook?"), and a
    # file that tells a tool what to do ("which file tells Node that an import gets the ESM wrapper?")
    r"\b(?:which|what)\s+(?:\S+\s+)?(?:packaging|package|build|project)\s+(?:config(?:uration)?|metadata|manifest"
    r"|settings?)(?:\s+files?)?\b",
    # "which packaging file decides what the source distribution ships" (a MANIFEST.in, a setup.cfg), "what goes into
    # the release archives" (a Maven assembly descriptor)
    r"\b(?:which|what)\s+(?:\S+\s+)?(?:packaging|build)\s+files?\b|\bsource distributions?\b|\bsdists?\b"
    r"|\b(?:release|distribution) (?:archives?|tarballs?)\b",
    r"\b(?:which|what)\s+(?:config(?:uration)?\s+)?files?\s+(?:tells?|instructs?|lets?|makes?|decides?\s+that)\s+"
    # a tool named after a word or two ("tells browser bundlers", "tells the JSDoc API documentation generator")
    r"(?:(?:the\s+)?(?:[\w-]+\s+){0,3}?(?:bundlers?|bots?|(?:docs?|documentation)\s+generators?)|node(?:\.?js)?|npm"
    r"|yarn"
    r"|pnpm|pip|python|go|cargo|git|github|gradle|maven|composer|bundlers?|webpack|rollup|esbuild|vite|rubygems"
    r"|luarocks|setuptools|(?:the )?packaging|(?:the )?installer"
    rf"|dependabot|the (?:build|compiler|bundlers?|package manager|ci|linter|test runner)|{_CHECK_TOOLS})\b",
    # a file that sets up one of the repository's tools ("which config file sets up the Go linter", "which build
    # file sets the compiler warning flags")
    r"\b(?:which|what)\s+(?:\S+\s+)?(?:config(?:uration)?\s+)?files?\s+(?:configures?|sets?(?:\s+up)?|enables?"
    r"|controls?|tunes?|decides?|chooses?|selects?|picks?)\s+(?:the\s+|this\s+|our\s+|its\s+)?(?:\S+\s+){0,2}?"
    r"(?:linters?|lint(?:ing)? rules?"
    r"|formatters?|type[- ]?checkers?|test runners?|coverage|code style|style checks?|pre-commit hooks?"
    r"|static analy(?:sis|[sz]ers?)"
    rf"|compiler(?: warnings?| flags?| options?)?|warning flags?|pkg-config|libtool|autoconf|automake|cmake|meson"
    rf"|{_CHECK_TOOLS})\b",
    # what a tool is told to enforce: "which file sets the minimum coverage percentages that nyc enforces"
    r"\b(?:which|what)\s+(?:\S+\s+)?(?:config(?:uration)?\s+)?files?\s+(?:sets?|configures?|lists?|defines?)\b"
    rf"(?:\s+\S+){{0,12}}?\s+(?:that\s+|which\s+)?(?:the\s+)?(?:{_CHECK_TOOLS})\s+(?:enforces?|checks?|requires?)\b",
    # the repository's own automation: "which file controls how merged pull requests are sorted into sections … in
    # the generated release notes?" (GitHub's .github/release.yml), "which config schedules the dependency updates"
    r"\b(?:which|what)\s+(?:\S+\s+)?(?:files?|config(?:uration)?s?)\b(?:\s+\S+){0,12}?\s+(?:release notes|dependabot"
    r"|dependency updates|merged pull requests|issue templates?)\b",
    # "which config file lists the Python versions the test suite is run against": a configuration file named by
    # the runs, builds or environments it sets
    r"\b(?:which|what)\s+(?:\S+\s+)?config(?:uration)?\s+files?\b(?:\s+\S+){0,10}?\s+(?:tests?|test suite|specs?"
    r"|benchmarks?|builds?|jobs?|environments?|envs?|(?:\S+\s+)?versions?|packages?|pypi|npm|registry|metadata"
    r"|dependencies|releases?)\b",
)
_WIRING_COPIES = _phrases(
    # a pin of a commit or a copy (not of versions: "which file pins the oldest supported Flask and Django
    # versions", a build's; nor of a value: "lets you pin or swap out the current time source", "a job pinned to a
    # local time")
    r"\bsubmodules?\b|\bcontracts?\b|\bcop(?:y|ies) of\b",
    r"\bpin(?:s|ned|ning)?\b(?=(?:\s+\S+){0,6}?\s+(?:commits?|revisions?|shas?|tags?|upstream|cop(?:y|ies)|vendored"
    r"|refs?|snapshots?|hash(?:es)?)\b)|\b(?:commits?|revisions?|shas?|tags?|cop(?:y|ies)|vendored \S+|refs?"
    r"|snapshots?)\b(?:\s+\S+){0,6}?\s+pinned\b",
    # "is this template copied anywhere" (not "so it can be copied into another package": what a tool does)
    r"\bcopied\s+(?:anywhere|elsewhere|verbatim|byte[- ]for[- ]byte|from\s+(?:another|other|(?:an?\s+)?upstream))\b",
    r"\b(?:identical|byte-?identical|vendored|duplicated?) (?:cop(?:y|ies)|files?)\b",
    r"\bwhich repos?(?:itor(?:y|ies))?\b|\bduplicated\b",
    # a copy the same byte for byte, not output that is ("so that the emitted JSON is byte-for-byte reproducible")
    r"\b(?:identical|same|cop(?:y|ies)|elsewhere|anywhere|somewhere)\b(?:\s+\S+){0,6}?\s+byte[- ]for[- ]byte\b"
    r"|\bbyte[- ]for[- ]byte\b(?:\s+\S+){0,6}?\s+(?:identical|same|cop(?:y|ies)|elsewhere|anywhere|somewhere)\b",
)
WIRING_COPIES_WHAT = "asks how copies and pins are kept"


# The words that ask for a document without saying what it is about: "which page explains X", "where is X documented",
# "I want to read about X" (a readme, a changelog, release notes or an FAQ may be the thing asked for: they stay).
_DOC_FRAME = re.compile(
    r"\b(?:docs?|documentation|documented|documents?|pages?|guides?|manuals?|tutorials?|write-?ups?|articles?"
    r"|sections?|chapters?|explain(?:s|ed|ing)?|describ(?:e|es|ed|ing)|cover(?:s|ed|ing)?|discuss(?:es|ed|ing)?"
    r"|mention(?:s|ed|ing)?|written (?:up|down)|say(?:s|ing)?|tell(?:s|ing)?|show(?:s|n|ing)?|parts? of|learn|read)\b",
    re.I)
_POINT_ME = re.compile(r"\b(?:point|take|send) (?:me|us) (?:to|at)\b", re.I)  # a request, wherever it is said


def _without_frame(text: str, phrases: Phrases, frame: re.Pattern[str], anywhere: re.Pattern[str] | None = None) -> str:
    """`text` less the `frame` words inside the spans `phrases` match (a word outside them stays: "build the man
    page") and what `anywhere` matches wherever it is; the text whole when nothing else is left."""
    parts, last = [], 0
    for found in phrases.pattern.finditer(text):
        parts += [text[last:found.start()], frame.sub(" ", found.group(0))]
        last = found.end()
    left = "".join([*parts, text[last:]])
    return " ".join((anywhere.sub(" ", left) if anywhere else left).split()) or text


def docs_phrase_end(text: str, at: int) -> int:
    """Where the docs phrase that starts at `at` ends (`at` when none does); searched as `phrase_intents` found it,
    through the gates, not by compiling every alternative."""
    found = _DOCS.search(text[at:])
    return at + found.end() if found is not None and found.start() == 0 else at


def without_doc_phrases(text: str) -> str:
    """The question without the words its docs phrases ask for a document with ("which page explains", "where is X
    documented", "read about"): what it asks a document about, for every document's sections."""
    return _without_frame(text, _DOCS, _DOC_FRAME, _POINT_ME)


# The words a why question asks for a record with, not what the record is about ("is there a design record about X",
# "an ADR on X"); not the words that say which sections it asks for ("reasoning", "alternatives": the why index reads
# them, and leaves them out of what it matches).
_DECISION_FRAME = re.compile(r"\b(?:design records?|records?|adrs?|trade-?offs?|grounds)\b", re.I)


def without_decision_phrases(text: str) -> str:
    """The question without the words its why phrases ask for a record with: what a record's sections are asked
    about."""
    return _without_frame(text, _DECISION, _DECISION_FRAME)


# "the README section on pure links says bare URLs become links": a question that says what its document says
SAYS = re.compile(r"\b(?:says?|said|describes?|described|explains?|explained|promises?|mentions?|warns?)\b", re.I)


def says_what_it_says(text: str) -> bool:
    """Whether a code question says what its document says before it asks for the code ("the README section on pure
    links says bare URLs become links; which code …"), not after ("take me to the code it describes")."""
    asking = _CODE.pattern.search(text)
    return SAYS.search(text, 0, asking.start() if asking else len(text)) is not None


def described_words(text: str) -> str:
    """What a code question says its document describes, without the phrase that asks for the code ("which code
    actually does that") or the words that name a document ("the Features section of the README says"): "you can
    make requests directly to WSGI or ASGI applications"."""
    said = without_doc_phrases(" ".join(_CODE.pattern.sub(" ", text).split()))
    # the words that say a section says something ("section", its first verb of saying: "promises"), not what it says
    return " ".join(SAYS.sub(" ", _SECTION.sub(" ", said), count=1).split()) or said


_SECTION = re.compile(r"\bsections?\b", re.I)


def changed_words(text: str, count: int) -> str:
    """The first `count` words after the verb of a change the question says it makes ("I want to tweak how
    deepcompare treats metatables, so …": "how deepcompare treats metatables"), within its clause; "" when it says
    none."""
    found = _CHANGING.pattern.search(text)
    if not found:
        return ""
    clause = re.split(r"[,;:.?!]", text[found.end():], maxsplit=1)[0]
    words = clause.split()
    # what of it is changed is no name: "the signature or behaviour of tocharset" changes tocharset
    of = next((i for i, word in enumerate(words[:_ASPECT_WORDS]) if word.lower() == "of"), None)
    if of is not None and words[:1] and words[0].lower() in ("the", "its", "a", "an"):
        words = words[of + 1:]
    # what is added to it is no name: "add a new parameter to populate" changes populate
    to = next((i for i, word in enumerate(words[:_ASPECT_WORDS]) if word.lower() == "to"), None)
    if to is not None and found.group().lower().endswith(("add", "adding")) and words[:1] \
            and words[0].lower() in ("a", "an", "another", "new", "one", "some", "more"):
        words = words[to + 1:]
    return " ".join(words[:count])


_ASPECT_WORDS = 6  # "the return type or the behaviour of X": how far the aspect changed may run before its "of"


def without_use_phrases(text: str) -> str:
    """The question without the phrases that ask what uses its subject or what a change to it breaks ("who calls",
    "what would break if I changed"): the subject in the question's other words ("" when none is left)."""
    return " ".join(_IMPACT.pattern.sub(" ", text).split())


# Where a kind's phrases are read, the kind's name and what the phrase says, for --explain; strong phrases
# choose a kind, the weak one (the setting: "I'm changing X") only when no strong one does.
KIND_PHRASES = (
    ("decision", _DECISION, "asks why something was decided"),
    ("decision", _INTENT, "asks about intent or policy, not a place"),
    ("impact", _TESTED, TESTS_WHY),
    ("impact", _IMPACT, "asks what a change would break, or what uses something"),
    ("wiring", _WIRING_BUILD, "asks how the repository is built, tested or published"),
    ("wiring", _WIRING_COPIES, WIRING_COPIES_WHAT),
    ("code", _CODE, "asks which code a document talks about"),
    ("code", _CODE_AFTER_PAGE, "asks which code does what a page it named says"),
    ("docs", _DOCS, "asks which document explains something"),
    ("symbol", _DEFINED, "asks where something is defined"),
)


# "why does X do nothing / fail / hang": a symptom to debug, asked of the code, not a design choice
_SYMPTOM = _phrases(
    r"^\s*why (?:does|do|did|is|are|would|will|am|can[’']?t)\b(?:\s+\S+){0,14}?\s+(?:do(?:es)? nothing|did nothing"
    r"|fail(?:s|ing)?|hang(?:s|ing)?|crash(?:es|ing)?|freez(?:e|es|ing)|time(?:s)? out|(?:do(?:es)?n[’']?t|not) work"
    r"|stop(?:s|ped)? working|get(?:ting)? (?:an? )?(?:error|exception|warning)|(?:is|are|gets?) ignored)\b",
    r"^\s*why (?:doesn[’']?t|don[’']?t|won[’']?t|can[’']?t|isn[’']?t|aren[’']?t)\b(?:\s+\S+){0,14}?\s+(?:work(?:s|ing)?"
    r"|start|load|fire|show up|get (?:called|applied|picked up))\b",
)


# "… and where is that handled?": the place in the code where something is done, whatever the sentence said before
_WHERE_DONE = _phrases(r"\bwhere (?:is|are|does|do) (?:that|this|it|they|those|these) (?:get )?(?:handled|done"
                       r"|implemented|computed|happen(?:s|ing)?|decided|applied|enforced|performed|taken care of)\b")


def phrase_intents(text: str) -> tuple[list[tuple[int, str, str]], str | None]:
    """(position, kind, why) of each kind's first phrase in `text`, in the order the question says them (a choice,
    "X instead of Y", only when no other phrase asks for a kind), and the weak "I'm changing X" phrase when there
    is one."""
    found: list[tuple[int, str, str]] = []
    spans: list[tuple[int, int]] = []
    deciding = None if _LOCATION.search(text) else _DECIDING
    for kind, pattern, what in (*KIND_PHRASES, ("decision", deciding, "asks what was decided")):
        match = pattern.search(text) if pattern is not None else None
        at = 0
        if match and kind == "decision" and match.group(0).strip().lower() == "why" and (
                symptom := _SYMPTOM.search(text)):
            at = symptom.end()  # a symptom to debug; a why of its own after it asks: "…; why do I have to install X?"
            match = _DECISION.search(text[at:])
        if match and kind == "docs" and _WHERE_DONE.search(text):
            match = None  # "how does a field get documented for OpenAPI 3, and where is that handled?": the code's
        if match and all(k != kind for _, k, _ in found):
            found.append((at + match.start(), kind, f"{what} ('{match.group(0).strip()}')"))
            spans.append((at + match.start(), at + match.end()))
    # A phrase inside "where is ... defined" (the npm script in "where is the npm script defined") names what
    # that frame asks the place of: it is said first.
    nested = set()
    frames = [span for span, (_, kind, _) in zip(spans, found) if kind == "symbol"]
    for i, (start, end) in enumerate(spans):
        outer = [s for s, e in frames if s < start and end <= e]
        if outer:
            found[i] = (min(outer), *found[i][1:])
            nested.add(found[i][1])
    choosing = _CHOOSING.search(text) if not found and deciding is not None else None
    if choosing:
        found.append((choosing.start(), "decision", f"asks about a choice ('{choosing.group(0).strip()}')"))
    asking = asking_clause(text)
    found.sort(key=lambda f: (not asking[0] <= f[0] < asking[1], f[0], f[1] not in nested))
    changing = _CHANGING.search(text)
    return found, (f"says it changes something ('{changing.group(0).strip()}')" if changing else None)


_CLAUSE_END = re.compile(r"[.;!?](?:\s|$)|\s[—–-]+\s|—")


def asking_clause(text: str) -> tuple[int, int]:
    """(start, end) of the clause that asks, the first that ends in a question mark ("I'm changing X; who calls
    it?"); its phrases say what is asked before those of the sentences around it. The whole text when none does."""
    start, clauses = 0, []
    for found in _CLAUSE_END.finditer(text):
        if text[found.start()] == "?":
            return start, found.end()
        clauses.append((start, found.end()))
        start = found.end()
    clauses.append((start, len(text)))
    # no question mark: a later clause that asks in the imperative ("The tutorial page walks through get_db; show
    # me the code it describes")
    for begin, end in clauses[1:]:
        if _IMPERATIVE.match(text, begin):
            return begin, end
    return 0, len(text)


_IMPERATIVE = re.compile(r"\s*(?:(?:so|now|then|please|just)\s+)?(?:show|take|give|point|tell|find|list|open|jump)"
                         r"\s+(?:me|us|all|every|the|where|which|what|who)\b", re.IGNORECASE)


def necessary_words(alternative: str) -> Gate:
    """The gate of one alternative (case-insensitive): sets of words, every match of it holding a word of each set.

    Read off the parse of the pattern: a run of ASCII literals is a word; a group, a repeat at least once and a
    lookahead or lookbehind need what their contents need; alternatives need a word of one of them (the best set of
    each, all together); anything else (a class, a repeat that may be absent, a negative assertion, a non-ASCII
    literal, which case folding may match to an ASCII letter) needs nothing. Only `tests/test_phrases.py` runs
    it, to write and check `_GATES`: parsing is half of compiling."""
    # the standard library's own parser (private, and not in typeshed: the test checks the gates it writes against
    # real searches)
    from importlib import import_module

    sre, _parser = import_module("re._constants"), import_module("re._parser")

    def needs(items) -> list[frozenset[str]]:  # noqa: ANN001 - a parsed subpattern
        found: list[frozenset[str]] = []
        run = ""
        for op, value in [*items, (None, None)]:
            if op is sre.LITERAL and value < 128:
                run += chr(value).lower()
                continue
            if run:
                found.append(frozenset([run]))
                run = ""
            one = None if op is None else need(op, value)
            if one is not None:
                found.append(one)
        return found

    def best(sets: list[frozenset[str]]) -> frozenset[str] | None:
        return max(sets, key=lambda words: (min(map(len, words)), -len(words), sorted(words))) if sets else None

    def need(op, value) -> frozenset[str] | None:  # noqa: ANN001 - an opcode and its argument
        if op is sre.SUBPATTERN:
            return best(needs(value[3]))
        if op is sre.BRANCH:
            each = [best(needs(branch)) for branch in value[1]]
            return None if any(words is None for words in each) else frozenset().union(*each)  # type: ignore[arg-type]
        if op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT) and value[0] >= 1:
            return best(needs(value[2]))
        if op is sre.ASSERT:
            return best(needs(value[1]))
        if op is sre.ATOMIC_GROUP:
            return best(needs(value))
        return None

    return tuple(tuple(sorted(words)) for words in needs(_parser.parse(alternative, re.I)))


def phrase_tables() -> dict[str, Phrases]:
    """Every phrase table of this module by name (what `_GATES` covers)."""
    return {name: value for name, value in globals().items() if isinstance(value, Phrases)}


# The gates of every alternative by the CRC-32 of its text, written by `pytest tests/test_phrases.py
# --update-golden` (which fails when they are stale: an alternative edited since has no gate, and is compiled).
_GATES: dict[int, Gate] = {
    10650418: (('adr', 'decision', 'decision record', 'design record', 'motivation', 'rationale', 'trade',
                  'what motivated'),),
    37174004: (('are', 'is'), (' there',),
                 (' reference', ' the ', 'article', 'blog post', 'changelog', 'design ', 'doc', 'doc page', 'docs page',
                  'documentation', 'faq', 'guide', 'handbook', 'how', 'manual', 'prose', 'readme', 'reference ',
                  'release entr', 'release note', 'section of the ', 'through', 'tutorial', 'user guide', 'write',
                  'writeup')),
    76348640: (('wh',), ('at', 'ich'),
                 ('class', 'code', 'file', 'function', 'method', 'module', 'program', 'source code', 'source file'),
                 ('ing', 's')),
    97365003: (('how ',), ('can', 'do', 'should', 'to', 'would'), ('execute', 'invoke', 'kick off', 'run'),
                 ('benchmark', 'build', 'linter', 'spec', 'test', 'test suite', 'the build')),
    109086682: ((' script', 'file target', 'make target', 'rake task'),),
    184327648: (('code', 'implementation', 'source'), (' ',), ('for', 'of'), (' ',),
                 ('described', 'it', 'listed', 'mentioned', 'named', 'shown', 'that', 'them', 'this')),
    289224799: (('looking for ',),
                 (' reference', ' the ', 'article', 'blog post', 'changelog', 'design ', 'doc', 'doc page', 'docs page',
                  'documentation', 'faq', 'guide', 'handbook', 'how', 'manual', 'prose', 'readme', 'reference',
                  'reference ', 'release entr', 'release note', 'section of the ', 'through', 'tutorial', 'user guide',
                  'write', 'writeup')),
    310991006: (('d',), ('isadvantage', 'ownside', 'rawback'), (' ',), ('of', 'to', 'with'), (' ',)),
    369919091: ((' you ', 'bit', 'class', 'classes', 'code', 'file', 'files', 'find', 'function', 'functions', 'how ',
                  'line', 'm looking for ', 'method', 'methods', 'module', 'modules', 'part', 'parts', 'piece',
                  'point me to', 'show', 'where'),),
    407222601: (('why ',), ('aren', 'can', 'doesn', 'don', 'isn', 'won'),
                 ('applied', 'called', 'fire', 'load', 'picked up', 'show up', 'start', 'work')),
    465658207: (('publish',),
                 ('artifact', 'crate', 'docs', 'gem', 'image', 'npm', 'nuget', 'package', 'pypi', 'registries',
                  'registry', 'release', 'site', 'version', 'wheel')),
    545987532: (('wh',), ('at', 'ich'), ('file',), ('decide', 'instruct', 'let', 'make', 'tell'),
                 ('black', 'bot', 'bundler', 'c8', 'cargo', 'checkstyle', 'clang-', 'clippy', 'codecov', 'composer',
                  'coveralls', 'cppcheck', 'credo', 'dependabot', 'detekt', 'dialyzer', 'doxygen', 'esbuild', 'eslint',
                  'flake8', 'gcov', 'generator', 'git', 'github', 'go', 'gofmt', 'goimports', 'golangci', 'gradle',
                  'hlint', 'installer', 'isort', 'istanbul', 'jacoco', 'javadoc', 'jest', 'jsdoc', 'karma', 'ktlint',
                  'lcov', 'luacheck', 'luarocks', 'maven', 'mocha', 'mypy', 'node', 'nox', 'npm', 'nyc', 'packaging',
                  'phpcs', 'phpstan', 'phpunit', 'pip', 'pnpm', 'pre-commit', 'prettier', 'psalm', 'pylint', 'pytest',
                  'python', 'renovate', 'rollup', 'rubocop', 'rubygems', 'ruff', 'rustfmt', 'scalafmt', 'scalastyle',
                  'setuptools', 'shellcheck', 'simplecov', 'sniffer', 'sphinx', 'spotbugs', 'stylelint', 'swiftlint',
                  'the ', 'tox', 'typedoc', 'vite', 'vitest', 'webpack', 'yarn')),
    588066452: (('wh',), ('at', 'o'),
                 ('build', 'call', 'consume', 'depend', 'extend', 'import', 'include', 'inherit', 'instantiate',
                  'invoke', 'lean', 'mock', 'override', 'patche', 'pull', 'reference', 'relie', 'require', 'subclass',
                  'use', 'wrap')),
    594831053: ((' away', 'built ', 'depend', 'outside '),),
    603294962: (('claration', 'definition', 'finition', 'jump to'),),
    655569664: (('are', 'aren', 'is', 'isn', 'was', 'wasn'), (' ',), ('it', 'that', 'these', 'they', 'this', 'those'),
                 (' ',), ('bad', 'dangerous', 'good', 'poor', 'questionable', 'risky', 'smart', 'terrible', 'wise'),
                 (' ',), ('approach', 'choice', 'design', 'idea', 'practice')),
    678196143: (('where',), ('declared', 'defined', 'housed', 'implemented', 'live', 'lives', 'located', 'written')),
    684594276: (('on what grounds', 'ruled out', 'turned down'),),
    705138828: (('had', 'has', 'have', 'need', 'needs'), (' to ',),
                 ('adapt', 'adapted', 'change', 'changed', 'fix', 'fixed', 'look at', 'migrate', 'migrated', 'touch',
                  'touched', 'update', 'updated')),
    717340755: (('how are ',), ('benchmarks', 'docs', 'releases', 'specs', 'tests'), (' ',),
                 ('built', 'executed', 'made', 'published', 'run')),
    780001559: (('duplicate', 'identical', 'vendored'), (' ',), ('cop', 'file')),
    887445682: (('why ',), ('am', 'are', 'can', 'did', 'do', 'does', 'is', 'will', 'would'),
                 (' ignored', ' nothing', ' work', ' working', 'crash', 'did nothing', 'error', 'exception', 'fail',
                  'freez', 'hang', 'time', 'warning')),
    888936871: (('are', 'is'), (' there ',), ('a', 'an', 'any', 'some'), (' ',),
                 ('chapter', 'document', 'page', 'section'),
                 ('about', 'covering', 'describing', 'detailing', 'discussing', 'documenting', 'explaining', 'listing',
                  'on', 'showing', 'that ')),
    915237525: (('wh',), ('at', 'ich'), (' ',), ('config', 'file', 'manifest'),
                 ('configure', 'declare', 'define', 'hold', 'run', 'set'),
                 ('env', 'environment', 'job', 'step', 'target', 'task', 'workflow')),
    940475387: (('described', 'discussed', 'documented', 'explained', 'written '),),
    954744879: (('wh',), ('at', 'ere', 'ich'), ('can', 'could', 'do', 'might', 'must', 'should', 'would'),
                 ('i', 'one', 'someone', 'we', 'you'), ('find out', 'learn', 'read')),
    955784900: (('what',), ('checklist', 'procedure', 'process', 'steps ')),
    1001439806: (('wh',), ('at', 'ich'), ('file',),
                 ('build', 'deploy', 'install', 'lint', 'npm', 'publish', 'release', 'test'),
                 ('command', 'script', 'task')),
    1019401716: (('justif', 'reason', 'reasoning', 'thinking behind'),),
    1055348292: (('any', 'what', 'which'), ('test',),
                 ('call', 'calls', 'check', 'checks', 'cover', 'covers', 'exercise', 'exercises', 'hit', 'hits',
                  'import', 'imports', 'touch', 'touches', 'use', 'uses')),
    1101633846: (('dispatch', 'dispatch event', 'github action', 'pipeline'),),
    1117186528: (('argument', 'pros and cons', 'the case '),),
    1139494948: (('contract', 'cop', 'submodule'),),
    1141275610: (('if', 'once', 'when'), ('i', 'someone', 'we', 'you'),
                 ('adjust', 'alter', 'change', 'delete', 'deprecate', 'drop', 'edit', 'modify', 'move', 'refactor',
                  'remove', 'rename', 'replace', 'rework', 'rewrite', 'split', 'swap', 'touch', 'tweak')),
    1191628297: (('where',),
                 ('class', 'enum', 'function', 'interface', 'macro', 'method', 'module', 'struct', 'trait', 'type'),
                 ('that', 'which', 'who'), ('are', 'is'),
                 ('declared', 'defined', 'housed', 'implemented', 'live', 'lives', 'located', 'written')),
    1214422650: (('wh',), ('at', 'ich'), (' ',),
                 ('classes', 'code', 'file', 'function', 'module', 'package', 'source', 'symbol', 'type'),
                 ('are', 'do', 'does', 'is'),
                 ('cover', 'covering', 'covers', 'describe', 'describes', 'describing', 'document', 'documenting',
                  'documents', 'mention', 'mentioning', 'mentions', 'name', 'names', 'naming', 'point', 'pointing',
                  'points', 'refer', 'referring', 'refers', 'talk', 'talking', 'talks')),
    1266546699: (('pin', 'pinned'),),
    1271771585: (('wh',), ('at', 'ich'), (' ',),
                 ('class', 'code', 'file', 'function', 'method', 'module', 'program', 'source code', 'source file'),
                 ('s',), ('and', 'or'), ('s',), ('it', 'that', 'them', 'these', 'this', 'those')),
    1281096445: (('are', 'is'), ('carried out', 'done', 'implemented', 'performed'), ('by', 'in'), ('wh',),
                 ('at', 'ich'), ('classes', 'code', 'file', 'function', 'module', 'source')),
    1293596014: (('how', 'where'), ("'s", 'are', 'did', 'do', 'does', 'is', 'was', 'were'),
                 ('called', 'extended', 'imported', 'included', 'instantiated', 'invoked', 'overridden', 'referenced',
                  'required', 'subclassed', 'used')),
    1321516539: (('depend',),),
    1351016035: (('that', 'which', 'who'),
                 ('build', 'call', 'consume', 'depend', 'depend on', 'extend', 'import', 'include', 'inherit',
                  'instantiate', 'invoke', 'lean', 'mock', 'override', 'patche', 'pull', 'reference', 'relie',
                  'require', 'subclass', 'use', 'wrap'),
                 ('it', 'that', 'them', 'this')),
    1373447870: (('covered', 'detailed', 'introduced', 'mentioned', 'spelled out', 'walked through'),
                 (' reference', ' the ', 'anywhere', 'article', 'blog post', 'changelog', 'chapter', 'design ', 'doc',
                  'doc page', 'docs page', 'document', 'documentation', 'faq', 'guide', 'handbook', 'how', 'manual',
                  'notes', 'page', 'prose', 'readme', 'reference', 'reference ', 'release entr', 'release note',
                  'section', 'section of the ', 'somewhere', 'through', 'tutorial', 'user guide', 'write', 'writeup')),
    1416261205: (('where',), ("'s", 'are', 'is', 's'), ('code', 'implementation', 'source')),
    1416870774: (('dependencies', 'package', 'packages'), (' d',), ('id', 'o', 'oes'), (' ',), (' declare',)),
    1502035595: (('what made',),
                 ('abandon', 'avoid', 'choose', 'decide', 'drop', 'go with', 'hold off', 'opt', 'pick', 'prefer',
                  'reject', 'settle on', 'stick with', 'switch')),
    1523182674: (('what',), ('can', 'could', 'do', 'does', 'else', 'might', 'will', 'would'),
                 ('be affected', 'break', 'breaks', 'change', 'fail', 'update', 'updating')),
    1563972610: (('are', 'is', 'must', 'shall', 'should', 'was', 'were', 'will'),
                 (' the roadmap', 'allowed', 'deprecated', 'ever', 'goal', 'going to', 'in scope', 'intended', 'meant',
                  'out of scope', 'plan', 'planned', 'policy', 'recommended', 'still', 'support', 'supposed')),
    1655937182: (('wh',), ('at', 'ich'), ('file',), ('pin',),
                 ('black', 'c8', 'checkstyle', 'clang-', 'clippy', 'codecov', 'coveralls', 'cppcheck', 'credo',
                  'dependabot', 'detekt', 'dialyzer', 'doxygen', 'eslint', 'flake8', 'formatter', 'gcov', 'gofmt',
                  'goimports', 'golangci', 'hlint', 'isort', 'istanbul', 'jacoco', 'javadoc', 'jest', 'jsdoc', 'karma',
                  'ktlint', 'lcov', 'linter', 'luacheck', 'mocha', 'mypy', 'nox', 'nyc', 'phpcs', 'phpstan', 'phpunit',
                  'pre-commit', 'prettier', 'psalm', 'pylint', 'pytest', 'renovate', 'rubocop', 'ruff', 'rustfmt',
                  'scalafmt', 'scalastyle', 'shellcheck', 'simplecov', 'sniffer', 'sphinx', 'spotbugs', 'stylelint',
                  'swiftlint', 'tool', 'tox', 'typedoc', 'vitest')),
    1704062189: (('changing', 'deleting', 'deprecating', 'dropping', 'modifying', 'moving', 'refactoring', 'removing',
                  'renaming', 'replacing', 'reworking', 'rewriting', 'splitting'),),
    1750760373: (('find', 'list', 'show'), ('references', 'usages', 'uses'), ('of', 'to')),
    1794986024: (('wh',), ('at', 'ich'), (' ',), ('config', 'file', 'manifest'), ('configure', 'set'),
                 ('check', 'checker', 'linter', 'linting')),
    1825984842: (('build ', 'compile'),),
    1872743004: (('d',), ('id', 'o', 'oes'), ('any',),
                 ('build', 'call', 'consume', 'depend', 'extend', 'import', 'include', 'inherit', 'instantiate',
                  'invoke', 'lean', 'mock', 'override', 'patche', 'pull', 'reference', 'relie', 'require', 'subclass',
                  'use', 'wrap')),
    1912524246: (('is',), ('covered by ', 'tested')),
    1931161667: ((' feature', 'cargo feature'),),
    1943325363: (('wh',), ('at', 'ich'), (' build ',), ('system', 'tool')),
    1968303449: (('wh',), ('at', 'ich'), (' ',), ('code', 'file', 'source file'), ('are', 'contain', 'hold', 'is'),
                 ('th',), ('at', 'ese', 'is', 'ose'),
                 ('code', 'demo', 'example', 'implementation', 'program', 'sample', 'tool')),
    1990164322: (('wh',), ('at', 'ich'), ('config',), ('file',),
                 ('benchmark', 'build', 'dependencies', 'env', 'environment', 'job', 'metadata', 'npm', 'package',
                  'pypi', 'registry', 'release', 'spec', 'test', 'test suite', 'version')),
    1995357596: (('pin',), ('dependenc', 'version')),
    2000375638: (('all', 'any', 'its', 'other', 'the', 'their', 'what', 'which'),
                 ('call sites', 'callers', 'dependants', 'dependents', 'importers', 'reverse dependencies',
                  'subclasses', 'usages')),
    2048915949: (('abandoned', 'alternative', 'choice', 'choose', 'chose', 'chosen', 'decide', 'decided', 'dropped',
                  'reject', 'rejected'),),
    2052053461: (('find', 'find out', 'learn', 'read'), (' ',), ('about',)),
    2053218177: (('about to', 'before i', 'before we', 'd like to', 'going to', 'i am', 'i need to', 'i want to',
                  'i will', 'll', 'm', 'planning to', 'we', 'we are', 'we need to', 'we want to', 'we will'),
                 ('add', 'adding', 'adjust', 'adjusting', 'alter', 'altering', 'change', 'changing', 'delete',
                  'deleting', 'deprecate', 'deprecating', 'drop', 'dropping', 'edit', 'editing', 'loosen', 'loosening',
                  'modify', 'modifying', 'move', 'moving', 'narrow', 'narrowing', 'refactor', 'refactoring', 'remove',
                  'removing', 'rename', 'renaming', 'replace', 'replacing', 'restrict', 'restricting', 'rework',
                  'reworking', 'rewrite', 'rewriting', 'split', 'splitting', 'swap', 'swapping', 'tighten',
                  'tightening', 'touch', 'touching', 'tweak', 'tweaking', 'widen', 'widening')),
    2098090315: (('all', 'anything', 'everything', 's', 'whatever'), ('that', 'which', 'who'),
                 ('build', 'call', 'consume', 'depend', 'extend', 'import', 'include', 'inherit', 'instantiate',
                  'invoke', 'lean', 'mock', 'override', 'patche', 'pull', 'reference', 'relie', 'require', 'subclass',
                  'use', 'wrap')),
    2105511451: (('wh',), ('at', 'ich'), (' ',), ('command', 'script', 'target', 'task'), (' ',),
                 ('build', 'lint', 'publishe', 'release', 'run')),
    2127087357: (('where',), ("'s", 'are', 'find', 'is', 's')),
    2163080008: (('wh',), ('at', 'ich'), (' ',), ('file',), (' ',), ('add', 'bring', 'list', 'pull'),
                 ('crate', 'dependenc', 'gem', 'package')),
    2172215937: (('are', 'is'), ('called', 'imported', 'invoked', 'referenced', 'used'),
                 ('anywhere', 'at all', 'by anyone', 'by anything', 'elsewhere', 'outside')),
    2179611756: (('build', 'distribution', 'packaging', 'release', 'sdist', 'source distribution'),),
    2202001390: (('blast radius', 'ripple effect', 'safe to '),),
    2212674856: (('a', 'an', 'any', 'each', 'one', 'some', 'the', 'what', 'which'),
                 (' reference', ' the ', 'article', 'blog post', 'changelog', 'chapter', 'design ', 'doc', 'doc page',
                  'docs page', 'document', 'documentation', 'faq', 'guide', 'handbook', 'how', 'manual', 'notes',
                  'page', 'prose', 'readme', 'reference', 'reference ', 'release entr', 'release note', 'section',
                  'section of the ', 'through', 'tutorial', 'user guide', 'write', 'writeup'),
                 (' about', ' with', 'advise', 'are about', 'argu', 'compar', 'cover', 'demonstrat', 'describ',
                  'detail', 'discuss', 'document', 'explain', 'illustrat', 'into', 'introduc', 'introduction',
                  'is about', 'justif', 'list', 'mention', 'over', 'overview', 'point', 'recommend', 'refer', 'said',
                  'say', 'show', 'spell', 'summari', 'summary', 'teach', 'tell', 'through', 'tour')),
    2213007589: ((' reference', ' the ', 'article', 'blog post', 'changelog', 'design ', 'doc', 'doc page', 'docs page',
                  'documentation', 'faq', 'guide', 'handbook', 'how', 'manual', 'prose', 'readme', 'reference ',
                  'release entr', 'release note', 'section of the ', 'through', 'tutorial', 'user guide', 'write',
                  'writeup'),
                 ('about', 'behind', 'covering', 'describing', 'documenting', 'explaining', 'for', 'of', 'on',
                  'regarding')),
    2253499730: (('wh',), ('at', 'ich'), (' ',), ('build file', 'makefile', 'script', 'target', 'task'), (' ',),
                 ('build', 'bump', 'bundle', 'check', 'compile', 'deploy', 'format', 'generate', 'pack', 'package',
                  'publish', 'release', 'test', 'update', 'verif')),
    2273031004: (('copied',), ('another', 'anywhere', 'byte', 'elsewhere', 'other', 'upstream', 'verbatim')),
    2331213649: (('wh',), ('at', 'ich'), (' ',),
                 ('classes', 'code', 'file', 'function', 'module', 'package', 'source file'), ('back', 'implement'),
                 ('described', 'documented', 'explained', 'outlined', 'proposed', 'specified'), (' in',)),
    2390084125: (('wh',), ('at', 'ich'), ('config', 'file'),
                 ('dependabot', 'dependency updates', 'issue template', 'merged pull requests', 'release notes')),
    2431803992: (('code', 'file', 'implementation', 'source', 'sources'), ('b',), ('acking', 'ehind')),
    2477972003: (('upload',), (' ',), (' to ',),
                 ('artifactory', 'codecov', 'coveralls', 'crates.io', 'docker', 'gcs', 'ghcr', 'github', 'maven', 'npm',
                  'nuget', 'pypi', 'registries', 'registry', 'release', 'rubygems', 's3', 'sonatype')),
    2482814880: (('any', 'its', 'the', 'their'), ('tests',), ('covering', 'for', 'of')),
    2494435154: (('cargo.toml', 'go.mod', 'package.json', 'pyproject.toml', 'setup.cfg'),),
    2596969530: (('wh',), ('at', 'ich'), (' ',),
                 ('class', 'code', 'file', 'function', 'method', 'module', 'program', 'source code', 'source file'),
                 ('do',), (' ',), ('it', 'that', 'this')),
    2654342485: (('duplicated', 'which repo'),),
    2656309627: (('wh',), ('at', 'ich'), (' ',),
                 ('class', 'code', 'file', 'function', 'method', 'module', 'program', 'source code', 'source file'),
                 ('s',), ('th',), ('em', 'ese', 'ose')),
    2950706698: (('bring', 'point', 'take'), (' me to ',), ('its', 'that', 'the', 'their', 'this'), (' ',),
                 ('code', 'file', 'implementation', 'program', 'source')),
    2996655174: (('where',), ('de',), ('claration', 'finition')),
    3045019642: (('wh',), ('at', 'ich'), (' ',), ('alternative', 'else', 'other'),
                 ('consider', 'considered', 'discussed', 'evaluate', 'evaluated', 'looked at', 'on the table',
                  'propose', 'proposed', 'reject', 'rejected', 'weigh', 'weighed')),
    3053560204: (('wh',), ('at', 'ich'), ('file',),
                 ('choose', 'configure', 'control', 'decide', 'enable', 'pick', 'select', 'set', 'tune'),
                 (' rule', 'autoconf', 'automake', 'black', 'c8', 'checker', 'checkstyle', 'clang-', 'clippy', 'cmake',
                  'code style', 'codecov', 'compiler', 'coverage', 'coveralls', 'cppcheck', 'credo', 'dependabot',
                  'detekt', 'dialyzer', 'doxygen', 'eslint', 'flake8', 'formatter', 'gcov', 'gofmt', 'goimports',
                  'golangci', 'hlint', 'isort', 'istanbul', 'jacoco', 'javadoc', 'jest', 'jsdoc', 'karma', 'ktlint',
                  'lcov', 'libtool', 'linter', 'luacheck', 'meson', 'mocha', 'mypy', 'nox', 'nyc', 'phpcs', 'phpstan',
                  'phpunit', 'pkg-config', 'pre-commit', 'pre-commit hook', 'prettier', 'psalm', 'pylint', 'pytest',
                  'renovate', 'rubocop', 'ruff', 'rustfmt', 'scalafmt', 'scalastyle', 'shellcheck', 'simplecov',
                  'sniffer', 'sphinx', 'spotbugs', 'static analy', 'style check', 'stylelint', 'swiftlint',
                  'test runner', 'tox', 'typedoc', 'vitest', 'warning flag')),
    3150076645: (('where d',), ('id', 'o', 'oes'), (' ',),
                 (' reference', ' the ', 'article', 'blog post', 'changelog', 'design ', 'doc', 'doc page', 'docs page',
                  'documentation', 'faq', 'guide', 'handbook', 'how', 'manual', 'prose', 'readme', 'reference ',
                  'release entr', 'release note', 'section of the ', 'through', 'tutorial', 'user guide', 'write',
                  'writeup')),
    3172321126: (('wh',), ('at', 'ich'), ('file',), ('configure', 'define', 'list', 'set'),
                 ('black', 'c8', 'checkstyle', 'clang-', 'clippy', 'codecov', 'coveralls', 'cppcheck', 'credo',
                  'dependabot', 'detekt', 'dialyzer', 'doxygen', 'eslint', 'flake8', 'gcov', 'gofmt', 'goimports',
                  'golangci', 'hlint', 'isort', 'istanbul', 'jacoco', 'javadoc', 'jest', 'jsdoc', 'karma', 'ktlint',
                  'lcov', 'luacheck', 'mocha', 'mypy', 'nox', 'nyc', 'phpcs', 'phpstan', 'phpunit', 'pre-commit',
                  'prettier', 'psalm', 'pylint', 'pytest', 'renovate', 'rubocop', 'ruff', 'rustfmt', 'scalafmt',
                  'scalastyle', 'shellcheck', 'simplecov', 'sniffer', 'sphinx', 'spotbugs', 'stylelint', 'swiftlint',
                  'tox', 'typedoc', 'vitest'),
                 ('check', 'enforce', 'require')),
    3181082170: (('compatible', 'minimum', 'oldest', 'required', 'supported'),
                 ('.net', 'bun', 'deno', 'dotnet', 'elixir', 'erlang', 'go', 'golang', 'java', 'jdk', 'lua', 'node',
                  'otp', 'perl', 'php', 'python', 'ruby', 'rust', 'rustc'),
                 ('engine', 'release', 'version')),
    3203342149: (('affect', 'affected', 'affects', 'break', 'breaking', 'breaks', 'broken', 'impact', 'impacts'),
                 ('if',)),
    3219182181: (('what does ',), (' ',), ('adr', 'doc', 'document', 'guide', 'page', 'readme', 'reference', 'rfc'),
                 (' ',), ('cover', 'describe', 'mention', 'name', 'talk about')),
    3278901952: (('wh',), ('at', 'o'), ('else',),
                 ('build', 'call', 'consume', 'depend', 'extend', 'import', 'include', 'inherit', 'instantiate',
                  'invoke', 'lean', 'mock', 'override', 'patche', 'pull', 'reference', 'relie', 'require', 'subclass',
                  'use', 'wrap')),
    3313531584: (('ci', 'continuous integration', 'pkg-config', 'wired', 'wiring', 'workflow'),),
    3323461826: (('i',), ('f', 'n case'), ('i', 'one', 'somebody', 'someone', 'we', 'you'),
                 ('adjust', 'adjusted', 'alter', 'altered', 'change', 'changed', 'delete', 'deleted', 'deprecate',
                  'deprecated', 'drop', 'dropped', 'edit', 'edited', 'loosen', 'loosened', 'modified', 'modify', 'move',
                  'moved', 'narrow', 'narrowed', 'refactor', 'refactored', 'remove', 'removed', 'rename', 'renamed',
                  'replace', 'replaced', 'restrict', 'restricted', 'rework', 'reworked', 'rewrite', 'rewrote', 'split',
                  'swap', 'swapped', 'tighten', 'tightened', 'touch', 'touched', 'tweak', 'tweaked', 'widen',
                  'widened')),
    3334379753: (('open', 'show me'), (' th',), ('at', 'is'), (' ',), ('code', 'implementation', 'program', 'source')),
    3345305037: (('where in ',),
                 (' reference', ' the ', 'article', 'blog post', 'changelog', 'design ', 'doc', 'doc page', 'docs page',
                  'documentation', 'faq', 'guide', 'handbook', 'how', 'manual', 'prose', 'readme', 'reference ',
                  'release entr', 'release note', 'section of the ', 'through', 'tutorial', 'user guide', 'write',
                  'writeup')),
    3354115122: (('wh',), ('at', 'ich'),
                 ('crate', 'file', 'files', 'header', 'headers', 'module', 'modules', 'package', 'source file'),
                 ('are', 'is', 'was', 'were'), ('from', 'in')),
    3504286196: (('call sites', 'callers', 'consumers', 'dependants', 'dependents', 'implementers', 'importers',
                  'reverse dependencies', 'subclasses', 'usages', 'users'),
                 (' ',), ('of', 'to')),
    3596534485: (('wh',), ('at', 'ich'), ('s',),
                 ('are built on', 'build on', 'call', 'consume', 'extend', 'implement', 'import', 'include',
                  'inherit from', 'instantiate', 'invoke', 'lean on', 'override', 'pull in', 'reference', 'rely on',
                  'require', 'subclass', 'use', 'wrap')),
    3663329054: (('declare',), ('dependenc', 'package', 'packages')),
    3665587360: (('wh',), ('at', 'ich'),
                 ('.net', 'deno', 'dotnet', 'elixir', 'erlang', 'go', 'golang', 'java', 'jdk', 'lua', 'node', 'otp',
                  'perl', 'php', 'python', 'ruby', 'rust'),
                 ('release', 'version'), ('are', 'do', 'does', 'is'), ('support',)),
    3698457807: (('where',), ('are', 'is'), ('tested',)),
    3699643339: (('wh',), ('at', 'ich'), (' ',),
                 ('class', 'code', 'file', 'function', 'method', 'module', 'program', 'source code', 'source file'),
                 ('are behind', 'back', 'emit', 'generate', 'handle', 'implement', 'is behind', 'perform', 'power',
                  'print', 'produce', 'write'),
                 ('it', 'that', 'them', 'these', 'this', 'those')),
    3702250402: (('what ',), ('executes', 'invokes', 'kicks off', 'runs'), (' ',),
                 ('benchmark', 'linter', 'spec', 'test', 'test suite')),
    3725810779: (('wh',), ('at', 'ich'), ('config', 'file', 'job', 'pipeline', 'script', 'workflow'),
                 ('execute', 'run'), ('benchmark', 'spec', 'test', 'test suite')),
    3747295349: (('crate', 'gem', 'package', 'release', 'version', 'wheel'), ('publish',)),
    3782104514: (('console', 'manifest'),),
    3791970680: ((' group', 'register'),),
    3792516873: (('if',),
                 ('began', 'changed', 'deleted', 'disappeared', 'dropped', 'goes away', 'is renamed', 'removed',
                  'started', 'stopped', 'was renamed', 'went away', 'were renamed')),
    3826653994: (('where ',), ('are', 'do', 'does', 'is'), (' ',), ('it', 'that', 'these', 'they', 'this', 'those'),
                 (' ',),
                 ('applied', 'computed', 'decided', 'done', 'enforced', 'handled', 'happen', 'implemented', 'performed',
                  'taken care of')),
    3840385903: (('byte',),),
    3862663169: (('what',), (' is', 's'), (' ',), ('bad', 'wrong'), (' ',), ('about', 'with'), (' ',),
                 ('having', 'just', 'plain', 'simply', 'using')),
    3871123059: (('in favo', 'instead of', 'rather than'),),
    3897439758: (('classes', 'code', 'files', 'functions', 'source'),
                 ('it', 'that doc', 'that page', 'they', 'this doc', 'this page'),
                 (' about', ' through', 'cover', 'describe', 'document', 'mention', 'refer')),
    3935762355: (('wh',), ('at', 'ich'), ('build', 'package', 'packaging', 'project'),
                 ('config', 'manifest', 'metadata', 'setting')),
    3961383922: (('how ',), ('can', 'do', 'should', 'to', 'would'),
                 ('build', 'compile', 'install', 'lint', 'package', 'release'),
                 ('binaries', 'binary', 'code', 'crate', 'docs', 'documentation', 'from source', 'library', 'module',
                  'package', 'project', 'repo', 'repository', 'site', 'wheel')),
    4018008751: (('where ',), ('is', 'was'), (' it ',), ('configured', 'declared', 'specified'), (' that',)),
    4067637695: (('declare', 'declared', 'file', 'specif'),
                 ('conditional exports', 'export', 'import', 'package exports', 'point', 'typings')),
    4085727161: (('wh',), ('at', 'ich'),
                 ('class', 'crate', 'file', 'files', 'header', 'headers', 'module', 'modules', 'package', 'source file',
                  'struct'),
                 ('contain', 'declare', 'define', 'hold', 'implement')),
    4086485043: (('how come', 'why', 'why '),),
    4148513929: (('any',),
                 (' reference', ' the ', 'article', 'blog post', 'changelog', 'design ', 'doc', 'doc page', 'docs page',
                  'document', 'documentation', 'faq', 'guide', 'handbook', 'how', 'manual', 'page', 'prose', 'readme',
                  'reference ', 'release entr', 'release note', 'section of the ', 'through', 'tutorial', 'user guide',
                  'write', 'writeup')),
    4186499274: (('wh',), ('at', 'ich'), ('file',), ('in', 'of'), ('the',), ('build', 'ci', 'packaging', 'release'),
                 ('config', 'script', 'setup', 'system', 'tooling')),
    4279590092: (('are', 'is'), ('any',),
                 ('calling', 'extending', 'importing', 'including', 'instantiating', 'invoking', 'referencing',
                  'requiring', 'subclassing', 'using')),
    4293014882: (('that', 'which', 'who'), ('implement',), ('it', 'that', 'them', 'this')),
}
