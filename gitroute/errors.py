"""The one user-facing error type and its named kinds; the CLI maps them to exit codes."""
from __future__ import annotations

from enum import IntEnum


class ExitCode(IntEnum):
    OK = 0  # answered, including no_match
    CHECK_FAILED = 1  # a check that found a problem: stale --check, bench gate, shrink guard
    INTERNAL = 3  # a bug; GITROUTE_DEBUG=1 shows the traceback
    FATAL = 128  # no repository, no bundle, unreadable bundle, unknown revision
    USAGE = 129
    INTERRUPTED = 130


class GitrouteError(Exception):
    """An error the user can act on: one line, and an optional hint."""

    exit_code = ExitCode.FATAL

    def __init__(self, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint


class NotARepository(GitrouteError):
    pass


class UnknownRevision(GitrouteError):
    pass


class BundleNotFound(GitrouteError):
    pass


class BundleFormatError(GitrouteError):
    """The bundle is of a format this version cannot read, or one of its blobs is corrupt."""


class BundleDamaged(BundleFormatError):
    """The bundle ref points at something that is not a readable bundle: a missing object, a blob, a tag, a
    commit with a missing tree or manifest, or a value that fails validation (a bundle is untrusted input)."""

    def __init__(self, ref: str, why: str, hint: str = "run 'git route build' to replace it") -> None:
        super().__init__(f"the bundle at '{ref}' is damaged: {why}", hint=hint)
        self.ref = ref
        self.why = why


class ConfigError(GitrouteError):
    pass


class BuildRaceLost(GitrouteError):
    """Another build moved the bundle ref while this one ran; the other bundle is kept."""


class LockFileInTheWay(GitrouteError):
    """A `.lock` file next to a ref stops git from moving it: another git process, or one that crashed."""


class BenchFileError(GitrouteError):
    pass


class ShrinkGuardRefused(GitrouteError):
    """A generated file would lose more than half of its committed rows: a bug until a person says otherwise."""

    exit_code = ExitCode.CHECK_FAILED


class HookConflict(GitrouteError):
    """Hooks cannot be installed or removed without clobbering someone else's."""



class CannotWrite(GitrouteError):
    """A file or the object database cannot be written: a read-only repository, a full disk, a quota.

    Raised in a build's worker process too, so it pickles with its hint (`cannot_write` builds one).
    """

    def __reduce__(self) -> tuple:
        return (CannotWrite, (self.message, self.hint))


# The causes a person must fix outside gitroute, as the OS words them (strerror), and what to do about each.
WRITE_FAULTS = {
    "No space left on device": "free some space, then run the command again",
    "Disk quota exceeded": "free some of your quota, then run the command again",
    "Read-only file system": "run it where the repository can be written",
    "Permission denied": "run it as a user who may write there, or in a clone of your own",
    "Operation not permitted": "run it as a user who may write there, or in a clone of your own",
}


def cannot_write(path: str, reason: str, hint: str | None = None, *, verb: str = "write") -> CannotWrite:
    """`fatal: cannot write 'PATH': REASON`, with the hint the reason calls for (or `hint`)."""
    return CannotWrite(f"cannot {verb} '{path}': {reason}", hint=hint or WRITE_FAULTS.get(reason))


def write_fault(text: str) -> str | None:
    """The cause named in an error text (git's, libgit2's or the OS's) when it is one a person must fix; else None.

    git's own words for a full disk while it writes a pack are "write error. Out of diskspace" (csum-file.c).
    """
    if "Out of diskspace" in text:
        return "No space left on device"
    return next((reason for reason in WRITE_FAULTS if reason in text), None)
