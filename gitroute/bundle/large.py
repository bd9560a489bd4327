"""The large bundle (refs/marola/routing-bundle-large): reading it without a checkout, and checking it.

It holds a static model and the node vectors, and is untrusted like any bundle: it is used only
when its tree is the one the main bundle's manifest names and every blob has the sha256 the
main bundle's embedding section records. A plain clone or a fetch of the main bundle never
brings it; `git route fetch --meaning` does.
"""
from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping, Sequence

from gitroute.bundle.layout import BUNDLE_LARGE_REF, BUNDLE_REF
from gitroute.bundle.validate import BadValue, check_bundle_commit, check_id_length, is_object_id
from gitroute.git.catfile import ObjectReader

EMBEDDING_META = "embedding/meta.json"
LARGE_INDEXES = ("embedding", "contextual")  # the indexes whose blobs go to the large bundle


def recorded_hashes(manifest: Mapping) -> dict[str, str]:
    """Large bundle path -> sha256, as the main bundle's sections of the indexes that write there record them."""
    hashes: dict[str, str] = {}
    indexes = manifest.get("indexes")
    for name in LARGE_INDEXES:
        section = indexes.get(name) if isinstance(indexes, dict) else None
        recorded = section.get("files_sha256") if isinstance(section, dict) else None
        if isinstance(recorded, dict):
            hashes.update(recorded)
    return hashes


def check_large_blobs(blobs: Mapping[str, bytes], hashes: object) -> str | None:
    """Why the large bundle's blobs differ from the hashes the main bundle records, or None when they match."""
    if not isinstance(hashes, dict) or not hashes:
        return "the bundle records no hashes for the large bundle"
    for path in sorted(hashes):
        data = blobs.get(path)
        if data is None:
            return f"'{path}' is missing"
        if not isinstance(hashes[path], str) or hashlib.sha256(data).hexdigest() != hashes[path]:
            return f"'{path}' does not match the sha256 the bundle records"
    return None


def read_large_blobs(cwd: str, paths: list[str], ref: str = BUNDLE_LARGE_REF) -> dict[str, bytes] | None:
    """Blobs of the large bundle by path (absent ones left out); None when the ref is absent or not a bundle."""
    from gitroute.bundle.store import BundleView
    from gitroute.errors import GitrouteError

    try:
        with BundleView(cwd, ref, bounded=False) as view:  # checked against the hashes the main bundle records
            return view.read(paths)
    except GitrouteError:
        return None


def large_tree(reader: ObjectReader, ref: str) -> str | None:
    """The tree id of a bundle commit at `ref`, checked; None when the ref is absent or no bundle commit."""
    obj = reader.read([ref])[0]
    if obj is None or obj[1] != "commit":
        return None
    try:
        return check_bundle_commit(obj[2], check_id_length(obj[0]))[2]
    except BadValue:
        return None


def verify_large(cwd: str, main_ref: str = BUNDLE_REF, large_ref: str = BUNDLE_LARGE_REF) -> tuple[str, str]:
    """(state, detail) of the large bundle against the main bundle: state is one of
    `absent` (no large ref), `unrecorded` (the main bundle names none), `matches`, `mismatch`."""
    from gitroute.bundle.store import BundleView

    with BundleView(cwd, main_ref) as main:
        manifest = main.manifest
        recorded = manifest.get("large")
        hashes = recorded_hashes(manifest)
        with ObjectReader(cwd) as reader:
            tree = large_tree(reader, large_ref)
            if not isinstance(recorded, dict):
                return ("absent" if tree is None else "unrecorded"), "the bundle names no large bundle"
            if tree is None:
                return "absent", f"no large bundle at '{large_ref}'"
            if not is_object_id(recorded.get("tree"), len(tree)) or recorded["tree"] != tree:
                return "mismatch", f"the tree at '{large_ref}' is not the one the bundle records"
            if not hashes:
                return "mismatch", "the bundle records no hashes for the large bundle"
            blobs = read_large_blobs(cwd, sorted(hashes), large_ref) or {}
            problem = check_large_blobs(blobs, hashes)
            if problem:
                return "mismatch", problem
            models = [f"{name} sha256 {str(section.get('model_sha256'))[:12]}" for name, section in
                      sorted(manifest.get("indexes", {}).items()) if name in LARGE_INDEXES and isinstance(section, dict)
                      and section.get("model_sha256")]
            return "matches", f"tree {tree[:7]}, " + ", ".join(models)


CACHE = os.path.join("gitroute", "large")  # under the common git dir: a checked copy of the large blobs a query reads
CACHE_MIN_BYTES = 1 << 20  # smaller blobs are read from git each time


def read_checked(cwd: str, paths: Sequence[str], hashes: Mapping[str, object]) -> tuple[dict[str, bytes] | None, str]:
    """(blobs by path, "") when every blob of `paths` has the sha256 `hashes` records; (None, why) otherwise.

    A cold query reads tens of megabytes (the model, the vectors): inflating them from git costs more than the
    answer. A blob that matched once is kept as a plain file named by its sha256, and read from there next time,
    checked again like the blob itself (a file changed on disk is read from git again).
    """
    from gitroute.git.catfile import run_git

    found = run_git(["rev-parse", "--path-format=absolute", "--git-common-dir"], cwd)
    folder = os.path.join(found.stdout.decode("utf-8", "surrogateescape").strip(), CACHE) if found.returncode == 0 \
        else None
    blobs: dict[str, bytes] = {}
    missing = []
    for path in paths:
        digest = hashes.get(path)
        if not isinstance(digest, str):
            return None, f"the bundle records no sha256 for '{path}'"
        data = None
        if folder is not None:
            try:
                with open(os.path.join(folder, digest), "rb") as f:
                    data = f.read()
            except OSError:
                data = None
        if data is not None and hashlib.sha256(data).hexdigest() == digest:
            blobs[path] = data
        else:
            missing.append(path)
    if missing:
        read = read_large_blobs(cwd, missing)
        if read is None:
            return None, "no large bundle"
        problem = check_large_blobs(read, {p: hashes[p] for p in missing})
        if problem:
            return None, problem
        blobs.update(read)
        if folder is not None:
            _keep(folder, {str(hashes[p]): read[p] for p in missing if len(read[p]) >= CACHE_MIN_BYTES},
                  {str(h) for h in hashes.values()})
    return blobs, ""


def _keep(folder: str, new: Mapping[str, bytes], current: set[str]) -> None:
    """Write the new checked blobs (each whole, then renamed) and drop those the bundle no longer names."""
    if not new:
        return
    try:
        os.makedirs(folder, exist_ok=True)
        for name in os.listdir(folder):
            if name not in current:
                os.unlink(os.path.join(folder, name))
        for digest, data in new.items():
            tmp = os.path.join(folder, f"{digest}.{os.getpid()}.tmp")
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, os.path.join(folder, digest))
    except OSError:
        pass  # a read-only or full disk: the next query reads git again
