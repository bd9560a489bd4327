"""A toy index, for tests/test_toy_index.py: which files say a word in their first line.

It is what README's "Adding an index" asks of a new index and no more: the seam's names, a table declared
for the storage floor (`bundle.tables`), a build that hands the floor its units (files, each with the record
its postings depend on), and an answer that reads the postings of the question's words.
"""
from __future__ import annotations

from gitroute.bundle.tables import FieldLists, PostingsTable
from gitroute.model import Answer, Row
from gitroute.specs import Command, limit
from gitroute.text import tokenize

NAME = "toy"
NEEDS: tuple[str, ...] = ()
EDGES = False  # the graph's nodes are enough
QUESTION_TYPES: dict[str, dict] = {}
# Word -> the ids of the files whose first line says it, two postings a shard: many shards on a small fixture.
WORDS = PostingsTable(NAME, "words", per_shard=2, codec=FieldLists(1))
# Its command (README, "Adding an index"): a row of `gitroute.specs.COMMANDS` gives it `git route toy WORDS`, an MCP
# tool and `api.ask_command("toy", ...)`.
SPEC = Command("toy", NAME, {}, "the files whose first line says the words", ("words", "words of a first line"), True,
               (limit("Files at most."),))


def first_line_words(data: bytes) -> list[str]:
    return sorted(set(tokenize(data.decode("utf-8", "replace").split("\n", 1)[0])))


def build(inputs):
    from gitroute.indexes import IndexBuild

    memo = inputs.memo.table(NAME) if inputs.memo is not None else None
    blobs = {f.path: f.blob for f in inputs.files}
    files = {node.path: node.id for node in inputs.graph.nodes if node.kind == "file"}  # in id order
    words: dict[str, list[str]] = {}
    for path in files:
        key = f"{path}\0{blobs.get(path, '')}"  # a file's words come from its blob
        found = memo.get(key) if memo is not None else None
        words[path] = found if found is not None else first_line_words(inputs.read(path))
        if memo is not None:
            memo.put(key, words[path])
    records = {path: (blobs.get(path, ""), files[path]) for path in files}  # what a file's postings depend on

    def fill(path: str, into: dict) -> None:
        for word in words[path]:
            into[word][0].append(files[path])

    def fill_old(path: str, record, into: dict) -> bool:  # its postings as the last build made them
        blob, file_id = record
        found = memo.peek(f"{path}\0{blob}") if memo is not None else None
        if found is None:
            return False
        for word in found:
            into[word][0].append(file_id)
        return True

    table = WORDS.build(records, fill, memo=memo, stored=inputs.previous, old=fill_old)
    section = {"counts": {"words": table.keys, "postings": table.size}, "shards": table.shards}
    return IndexBuild(table.blobs, section, kept=table.kept)


def answer(view, question: str, *, limit: int = 10, explain: bool = False, **_options: object) -> Answer:
    found = WORDS.read(view.read, tokenize(question), view.section["shards"], view.corrupt)
    ids = sorted({file_id for postings in found.values() for file_id in postings[0]})[:limit]
    records = view.graph.records(ids)
    rows = tuple(Row(records[i][0], None, None, "file", 1.0) for i in ids)
    return Answer("routed" if rows else "no_match", view.source, rows, ())
