"""Sharing bundles: `git route fetch` and `git route push` of the main and the large bundle refs.

A fetched bundle is untrusted: it lands under a temporary ref first, is checked (its commit, format
and manifest; with --meaning, the large tree against the tree the main manifest records and every
large blob against the sha256 the manifest records), and only then do the real refs move, both in
one `git update-ref --stdin` transaction. A refused fetch leaves the previous refs as they were.
Bundle commits do not descend from each other, so every refspec forces (`+`), and user-supplied
names always follow `--end-of-options`.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

from gitroute.bundle.large import verify_large
from gitroute.bundle.layout import BUNDLE_LARGE_REF, BUNDLE_REF
from gitroute.errors import GitrouteError
from gitroute.git.catfile import ref_target, run_git

INCOMING = "refs/gitroute-incoming/"  # outside refs/marola/, so `git push origin 'refs/marola/*'` never sends it


@dataclass(frozen=True)
class Moved:
    """One ref fetched or pushed: where it points now, and where it pointed before."""

    ref: str
    commit: str
    previous: str | None
    detail: str = ""


def _refs(meaning: bool) -> list[str]:
    return [BUNDLE_REF, BUNDLE_LARGE_REF] if meaning else [BUNDLE_REF]


def _last_line(stderr: bytes) -> str:
    lines = stderr.decode("utf-8", "replace").strip().splitlines()
    return lines[-1].removeprefix("fatal: ").removeprefix("error: ") if lines else "git failed"


def _incoming(ref: str) -> str:
    return INCOMING + str(os.getpid()) + "/" + ref.rpartition("/")[2]


def fetch_bundle(cwd: str, remote: str, meaning: bool) -> list[Moved]:
    """Fetch the bundle ref (and with `meaning` the large ref) from `remote`, check it, then move the refs."""
    refs = _refs(meaning)
    incoming = {ref: _incoming(ref) for ref in refs}
    specs = [f"+{ref}:{incoming[ref]}" for ref in refs]
    try:
        result = run_git(["fetch", "--no-tags", "--no-write-fetch-head", "--quiet", "--end-of-options", remote,
                          *specs], cwd)
        if result.returncode != 0:
            why = _last_line(result.stderr)
            named = why.partition("couldn't find remote ref ")[2].strip()
            missing = named if named in refs else None
            if missing:
                raise GitrouteError(f"the remote '{remote}' has no '{missing}'",
                                    hint="push it from a clone that built it: 'git route push"
                                         + (" --meaning'" if missing == BUNDLE_LARGE_REF else "'"))
            raise GitrouteError(f"cannot fetch the bundle from '{remote}': {why}")
        _check_incoming(cwd, incoming, remote, meaning)
        moved = [Moved(ref, ref_target(cwd, incoming[ref]) or "", ref_target(cwd, ref)) for ref in refs]
        _move_refs(cwd, moved)
        return moved
    finally:
        for ref in incoming.values():
            run_git(["update-ref", "-d", "--end-of-options", ref], cwd)


def _check_incoming(cwd: str, incoming: dict[str, str], remote: str, meaning: bool) -> None:
    """Refuse a fetched bundle that is not one, or whose large bundle does not match its manifest."""
    from gitroute.bundle.store import BundleView

    hint = "the previous bundle is kept; ask whoever pushed it to rebuild and push again"
    try:
        with BundleView(cwd, incoming[BUNDLE_REF]) as view:
            view.manifest  # noqa: B018 - checked on reading
    except GitrouteError as err:
        why = err.message.replace(incoming[BUNDLE_REF], BUNDLE_REF)
        raise GitrouteError(f"refusing the bundle from '{remote}': {why}", hint=hint) from err
    if meaning:
        state, detail = verify_large(cwd, incoming[BUNDLE_REF], incoming[BUNDLE_LARGE_REF])
        if state != "matches":
            detail = detail.replace(incoming[BUNDLE_LARGE_REF], BUNDLE_LARGE_REF)
            raise GitrouteError(f"refusing the large bundle from '{remote}': {detail}", hint=hint)


def _move_refs(cwd: str, moved: list[Moved]) -> None:
    """Both refs in one transaction, each compare-and-swap against what it held when the fetch began."""
    lines = ["start"]
    for m in moved:
        lines.append(f"update {m.ref} {m.commit} {m.previous or '0' * len(m.commit)}")
    lines += ["prepare", "commit", ""]
    result = run_git(["update-ref", "-m", "git route fetch", "--stdin"], cwd, stdin="\n".join(lines).encode())
    if result.returncode != 0:
        raise GitrouteError(f"cannot move the bundle refs: {_last_line(result.stderr)}",
                            hint="another build or fetch moved them meanwhile; run 'git route fetch' again")


def push_bundle(cwd: str, remote: str, meaning: bool) -> list[Moved]:
    """Push the bundle ref (and with `meaning` the large ref, once checked against the bundle) to `remote`."""
    refs = _refs(meaning)
    local = {ref: ref_target(cwd, ref) for ref in refs}
    for ref, commit in local.items():
        if commit is None:
            hint = "run 'git route build" + (" --meaning-model DIR'" if ref == BUNDLE_LARGE_REF else "'")
            raise GitrouteError(f"no bundle at '{ref}' to push", hint=hint)
    if meaning:
        state, detail = verify_large(cwd)
        if state != "matches":
            raise GitrouteError(f"not pushing '{BUNDLE_LARGE_REF}': {detail}",
                                hint="run 'git route build --meaning-model DIR' to rebuild both")
    result = run_git(["push", "--quiet", "--end-of-options", remote, *[f"+{ref}:{ref}" for ref in refs]], cwd)
    if result.returncode != 0:
        raise GitrouteError(f"cannot push the bundle to '{remote}': {_last_line(result.stderr)}")
    return [Moved(ref, commit or "", None) for ref, commit in local.items()]
