"""Where each index lives in the bundle tree, the format version, and the JSON codec of its blobs.

One question reads only what it needs: postings are sharded by token hash and node records are
chunked by node id, so a query reads a manifest, a few postings shards and a few node chunks,
whatever the size of the repository.
"""
from __future__ import annotations

import zlib
from itertools import starmap

from gitroute.model import Binding, FileExtract, NameRef, Symbol

FORMAT_VERSION = 1
# Bumped when extraction output changes, so a rebuild stops reusing results made the old way.
EXTRACTOR_VERSION = 4

BUNDLE_REF = "refs/marola/routing-bundle"
BUNDLE_LARGE_REF = "refs/marola/routing-bundle-large"

MANIFEST = "build.json"
FORMAT_TRAILER = "Gitroute-Format"  # trailers of the bundle commit's message
SOURCE_TRAILER = "Gitroute-Source"
SYMBOLS_META = "symbols/meta.json"
NODE_CHUNK = 64  # node records per chunk: a query reads one chunk per candidate it scores
POSTINGS_TARGET = 4096  # postings per shard, on average; the shard count is a power of two


def bundle_message(source_commit: str, version: str) -> str:
    return (f"routing bundle for {source_commit}\n\ngitroute {version}\n\n"
            f"{FORMAT_TRAILER}: {FORMAT_VERSION}\n{SOURCE_TRAILER}: {source_commit}\n")


def extract_path(blob_oid: str) -> str:
    return f"extract/{blob_oid[:2]}.json"


def node_chunk_path(node_id: int) -> str:
    return f"symbols/nodes/{node_id // NODE_CHUNK:05d}.json"


def postings_shard(token: str, shards: int) -> int:
    return zlib.crc32(token.encode("utf-8")) % shards


def postings_path(shard: int) -> str:
    return f"symbols/postings/{shard:05d}.json"


def edges_path(direction: str, node_id: int) -> str:
    return f"graph/{direction}/{node_id // NODE_CHUNK:05d}.json"


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
        [[r.source, r.name, r.line, r.receiver] if r.receiver else [r.source, r.name, r.line] for r in extract.calls],
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
