"""Where each index lives in the bundle tree, the format version, and the JSON codec of its blobs.

One question reads only what it needs: each index keeps its own folder (its `meta.json`, and blobs
sharded so that a question reads a few), and the code graph keeps node records and edges in one blob
per node bucket, whatever the size of the repository.
"""
from __future__ import annotations

from itertools import starmap

from gitroute.model import NODE_ORDINAL_BITS, Binding, Block, Document, FileExtract, NameRef, Symbol, Token

FORMAT_VERSION = 10  # 2: the index seam (graph/nodes, graph/in and graph/out, stable node ids); 3: no extraction
# results in the bundle, postings in binary shards of varints (docs/decisions/0025); 4: impact's and doc_links'
# records in binary shards that spell their strings once (0025's amendment); 5: node ids as bucket and ordinal,
# the graph's node records and edges in binary columns (0025's second amendment); 6: meaning's node lengths once
# a node, in its file table (`meaning/files.bin`), not in each posting (0025's third amendment); 7: graph/nodes in
# fixed-width columns a reader takes a record from without decoding its bucket, and doc_links' shards with no node
# id and only what an answer reads (0025's session-24 amendments); 8: meaning's file table in two blobs, the files'
# first ids (`meaning/files.bin`, what the symbol tiers' path bounds read) apart from the nodes' lengths
# (`meaning/lengths.bin`) (0025's session-31 amendment); 9: a bucket's node records in pages of NODE_PAGE, a blob
# each (0025's session-37 amendment); 10: a symbol posting's fifth fact bit, set when its name has no stop word
# (docs/decisions/0037)

BUNDLE_REF = "refs/marola/routing-bundle"
BUNDLE_LARGE_REF = "refs/marola/routing-bundle-large"

MANIFEST = "build.json"
FORMAT_TRAILER = "Gitroute-Format"  # trailers of the bundle commit's message
SOURCE_TRAILER = "Gitroute-Source"
INDEX_META = "meta.json"  # each index's manifest section, in its own folder: answers never read build.json
SYMBOLS_META = "symbols/" + INDEX_META
GRAPH_NODES = "graph/nodes"
MAX_RECORD_NAME = 200  # a generated or pathological identifier must not blow an answer's byte bound
MAX_RECORD_DOC = 240


def bundle_message(source_commit: str, version: str) -> str:
    return (f"routing bundle for {source_commit}\n\ngitroute {version}\n\n"
            f"{FORMAT_TRAILER}: {FORMAT_VERSION}\n{SOURCE_TRAILER}: {source_commit}\n")


def extract_path(blob_oid: str) -> str:
    return f"extract/{blob_oid[:2]}.json"


def node_chunk(node_id: int) -> int:
    """The bucket a node id belongs to: its records and its edges share one blob per bucket."""
    return node_id >> NODE_ORDINAL_BITS


# A bucket's node records are stored this many to a blob, by ordinal: `graph/nodes/00042.bin` holds ordinals 0-127,
# `graph/pages/00042.0001.bin` 128-255, ... A bucket holds whole files, and a kernel's hold up to thousands of records
# (a driver's register constants): a question reads the page of each record it wants, not its whole bucket (a
# kernel's sentence read 14 MB of buckets for 860 records). The pages past the first are a folder of their own, of
# names of one length: both trees stay rows a name is found in by bisection (`store.LazyTree`).
NODE_PAGE = 128
GRAPH_PAGES = "graph/pages"
_ORDINALS = 1 << NODE_ORDINAL_BITS


def node_chunk_path(node_id: int) -> str:
    """The blob that holds a node's record: its bucket's page (`NODE_PAGE`)."""
    page = node_id % _ORDINALS // NODE_PAGE
    if page:
        return f"{GRAPH_PAGES}/{node_chunk(node_id):05d}.{page:04d}.bin"
    return f"{GRAPH_NODES}/{node_chunk(node_id):05d}.bin"


def node_page_first(path: str) -> int | None:
    """The first node id of the page at `path` (`graph/nodes/00042.bin`, `graph/pages/00042.0003.bin`); None for a
    path no build writes."""
    folder, _slash, name = path.rpartition("/")
    parts = name.split(".")
    if folder == GRAPH_NODES and len(parts) == 2:
        bucket, page = parts[0], "0"
    elif folder == GRAPH_PAGES and len(parts) == 3 and len(parts[1]) == 4:
        bucket, page = parts[0], parts[1]
    else:
        return None
    if parts[-1] != "bin" or len(bucket) != 5 or not all(p.isascii() and p.isdigit() for p in (bucket, page)):
        return None
    first = int(page) * NODE_PAGE
    if (folder == GRAPH_PAGES) != (0 < first < _ORDINALS):
        return None
    return int(bucket) << NODE_ORDINAL_BITS | first


def edges_path(direction: str, node_id: int) -> str:
    """Edges by target (`in`) or by source (`out`), in the bucket of that node: a binary shard of varints
    (`bundle.graph.edge_shard`)."""
    return f"graph/{direction}/{node_chunk(node_id):05d}.bin"


def dump_json(value: object) -> bytes:
    """Canonical JSON: the same value always gives the same bytes.

    orjson writes a bundle's tens of megabytes of JSON about seven times faster than the json
    module, byte for byte the same text as `json.dumps(sort_keys=True, ensure_ascii=False,
    separators=(",", ":"))` (tested); it loads here, not at import, so answers never pay for it.
    """
    import orjson

    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def load_json(data: bytes) -> object:
    """Parse a bundle blob on the build side (answers use the json module, cheaper to import)."""
    import orjson

    return orjson.loads(data)


def encode_extract(extract: FileExtract) -> list:
    return [
        extract.lang,
        [[s.name, s.kind, s.line, s.end_line, s.signature, s.doc, s.parent, int(s.entry), s.owner]
         for s in extract.symbols],
        # A call's receiver only when it has one: most calls have none, and extracts are a large part of a bundle.
        # Unpacked: the extraction cache hands calls back as plain tuples (bundle/extracts.py).
        [[source, name, line, receiver] if receiver else [source, name, line]
         for source, name, line, receiver in extract.calls],
        [[r.source, r.name, r.line] for r in extract.imports],
        [[r.source, r.name, r.line, r.receiver] if r.receiver else [r.source, r.name, r.line]
         for r in extract.references],
        int(extract.entry),
        list(extract.warnings),
        [list(b) for b in extract.bindings],
        [[r.source, r.name, r.line, r.receiver] if r.receiver else [r.source, r.name, r.line]
         for r in extract.bases],
    ]


def decode_extract(value: list) -> FileExtract:
    lang, symbols, calls, imports, references, entry, warnings, bindings, bases = value
    return FileExtract(
        lang=lang,
        symbols=tuple(Symbol(n, k, line, end, sig, doc, p, bool(en), owner)
                      for n, k, line, end, sig, doc, p, en, owner in symbols),
        calls=tuple(starmap(NameRef, calls)),
        imports=tuple(starmap(NameRef, imports)),
        references=tuple(starmap(NameRef, references)),
        entry=bool(entry),
        warnings=tuple(warnings),
        bindings=tuple(map(Binding._make, bindings)),
        bases=tuple(starmap(NameRef, bases)),
    )


def encode_document(document: Document) -> list:
    """A parsed document without its path: the build caches it by blob id, like an extraction."""
    return [
        document.format,
        document.title,
        [[b.kind, b.line, b.end_line, b.text, b.section, b.level, b.name, [list(t) for t in b.tokens]]
         for b in document.blocks],
        list(document.warnings),
    ]


def decode_document(path: str, value: list) -> Document:
    fmt, title, blocks, warnings = value
    return Document(
        path=path,
        format=fmt,
        title=title,
        blocks=tuple(Block(kind, line, end, text, section, level, name, tuple(map(Token._make, tokens)))
                     for kind, line, end, text, section, level, name, tokens in blocks),
        warnings=tuple(warnings),
    )


def decode_result(path: str, result: list) -> tuple:
    """An extraction result as the build stores it (`["code", …]`, `["doc", …]`, `["text"]`, `["skip", reason]`)
    decoded: ("code", FileExtract), ("doc", Document at `path`), ("text",) or ("skip", reason).

    Raises ValueError, TypeError or IndexError on a result of another shape."""
    kind = result[0]
    if kind == "code":
        return ("code", decode_extract(result[1]))
    if kind == "doc":
        return ("doc", decode_document(path, result[1]))
    if kind == "text" and len(result) == 1:
        return ("text",)
    if kind == "skip" and len(result) == 2 and isinstance(result[1], str):
        return ("skip", result[1])
    raise ValueError(f"unknown extraction result {kind!r}")


def encode_result(decoded: tuple) -> list:
    """`decode_result` undone, byte for byte what extraction encodes."""
    kind = decoded[0]
    if kind == "code":
        return ["code", encode_extract(decoded[1])]
    if kind == "doc":
        return ["doc", encode_document(decoded[1])]
    return list(decoded)
