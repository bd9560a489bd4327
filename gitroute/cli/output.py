"""Rendering shared by the commands: the answer header, rows as text, and the `--json` document.

No click here: the fast query path renders through this module too.
"""
from __future__ import annotations

import json
import sys

from gitroute.model import Answer, Row, Source

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing on the query path
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

SCHEMA = 1
# ADR-104: what an agent receives is bounded to 100,000 bytes of JSON, measured as rendered.
MAX_ANSWER_BYTES = 100_000
MAX_NAME_COLUMN = 60  # longer qualified names push their score right rather than widen every row


def out(line: str = "") -> None:
    sys.stdout.write(line + "\n")


def err(line: str) -> None:
    """One line on stderr (a note, warning or hint), made safe as `one_line` makes it."""
    sys.stderr.write(one_line(line) + "\n")


# git's C-style quoting (quote.c, core.quotePath on): these bytes get a letter, other control
# bytes, DEL and every byte of a non-ASCII character an octal escape; a path with any of them is quoted.
_C_ESCAPES = {0x07: "\\a", 0x08: "\\b", 0x09: "\\t", 0x0A: "\\n", 0x0B: "\\v", 0x0C: "\\f", 0x0D: "\\r",
              0x22: '\\"', 0x5C: "\\\\"}


def quote_path(path: str) -> str:
    """A path as git prints it in text: unchanged when plain, else in double quotes with C escapes.

    A committed path may hold a newline (which would forge a row) or an escape sequence (which
    the terminal would obey); `--json` carries the raw path instead.
    """
    if path.isascii() and path.isprintable() and '"' not in path and "\\" not in path:
        return path
    return f'"{_escape_bytes(path.encode("utf-8", "surrogateescape"))}"'


def one_line(text: str) -> str:
    """A message, note or hint made safe for one terminal line: every character that would end the line or
    drive the terminal (control characters, DEL, other unprintables) escaped as `quote_path` escapes it.

    A repository path or a user's argument inside a sentence may hold a newline (a forged second `fatal:`
    line) or an escape sequence; quotes, backslashes and printable characters of any script stay as written.
    """
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else _escape_bytes(ch.encode("utf-8", "surrogateescape"))
                   for ch in text)


def _escape_bytes(raw: bytes) -> str:
    """git's C-style escapes of `raw`: a letter for the usual controls, octal for other bytes that need one."""
    return "".join(_C_ESCAPES.get(b) or (chr(b) if 0x20 <= b < 0x7F else f"\\{b:03o}") for b in raw)


def plain_text(text: str) -> str:
    """Text from a bundle (a heading, a token, a name) made safe for one line: control characters
    escaped, so none can end the row or drive the terminal; other characters, any script, kept."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ch.encode("unicode_escape").decode("ascii") for ch in text)


def source_line(source: Source) -> str:
    where = f"{source.branch}@{source.commit[:7]}" if source.branch else f"{source.commit[:7]}"
    line = f"answers from {where} (bundle)"
    if source.stale_by and source.behind_by:
        line += (f"; HEAD has {_commits(source.stale_by)} the bundle lacks, and lacks {_commits(source.behind_by)}"
                 " it has: run 'git route build'")
    elif source.stale_by:
        line += f"; HEAD is {_commits(source.stale_by)} ahead: run 'git route build'"
    elif source.behind_by:
        line += f"; HEAD is {_commits(source.behind_by)} behind the bundle"
    elif source.stale_by is None and source.head and source.head != source.commit:
        line += "; HEAD is elsewhere: run 'git route build'"
    return line


def _commits(n: int) -> str:
    return f"{n} commit{'s' if n != 1 else ''}"


def source_json(source: Source) -> dict:
    return {"ref": source.ref, "commit": source.commit, "branch": source.branch, "stale_by": source.stale_by,
            "behind_by": source.behind_by}


def row_json(row: Row, explain: bool) -> dict:
    doc: dict = {"path": row.path}
    if row.line is not None:
        doc["line"] = row.line
    if row.name is not None:
        doc["name"] = row.name
    if row.kind is not None:
        doc["kind"] = row.kind
    doc["score"] = row.score
    doc.update(row.extra)
    if explain:
        doc["signals"] = dict(row.signals)
    return doc


def checked(answer: Answer) -> Answer:
    """The answer, every row checked (`validate.check_answer`) before any of it is shown; a row that is not what
    a row may be (a path out of the repository, a line of -5, a name with an escape, a NaN score) is a damaged
    bundle, and nothing of the answer is shown."""
    from gitroute.bundle.validate import BadValue, check_answer
    from gitroute.errors import BundleDamaged

    try:
        return check_answer(answer)
    except BadValue as err:
        raise BundleDamaged(answer.source.ref, str(err)) from err


def answer_json(answer: Answer, explain: bool) -> dict:
    answer = checked(answer)
    return {
        "schema": SCHEMA,
        "status": answer.status,
        "source": source_json(answer.source),
        "rows": [row_json(r, explain) for r in answer.rows],
        "notes": list(answer.notes),
        **(answer.extra or {}),
    }


def render_json(document: dict) -> str:
    """The one JSON document; a NaN or an infinity raises rather than be written (it is no JSON: every answer's
    numbers are checked before, `checked`, so one here is a bug)."""
    return json.dumps(document, ensure_ascii=False, indent=2, allow_nan=False)


_ENVELOPE = frozenset(("schema", "status", "source", "rows", "notes"))


def bound_document(document: dict, max_bytes: int = MAX_ANSWER_BYTES) -> dict:
    """The document as is when its JSON fits `max_bytes` (UTF-8, as rendered); otherwise without the sections
    beside the rows (django's wiring tables, the largest first: context, where the rows are the answer), then with
    rows cut from the end (never the envelope) until it fits, and a note saying what was left out."""
    rows = document.get("rows")
    if not isinstance(rows, list) or _fits(document, max_bytes):
        return document
    beside = sorted((key for key in document if key not in _ENVELOPE),
                    key=lambda key: -len(json.dumps(document[key], ensure_ascii=False, allow_nan=False)))
    for key in beside:
        note = f"the {key!r} section left out: an answer is at most {max_bytes:,} bytes of JSON (its rows come first)"
        document = {**{k: v for k, v in document.items() if k != key}, "notes": [*document.get("notes", []), note]}
        if _fits(document, max_bytes):
            return document

    def cut(kept: int) -> dict:
        left = len(rows) - kept
        note = (f"{left} of {len(rows)} rows left out: an answer is at most {max_bytes:,} bytes of JSON; "
                "ask with a lower --limit or a narrower question")
        return {**document, "rows": rows[:kept], "notes": [*document.get("notes", []), note]}

    low, high = 0, len(rows) - 1  # the most rows that fit lies in [low, high]
    while low < high:
        middle = (low + high + 1) // 2
        if len(render_json(cut(middle)).encode("utf-8")) <= max_bytes:
            low = middle
        else:
            high = middle - 1
    return cut(low)


def _fits(document: dict, max_bytes: int) -> bool:
    """Whether `render_json(document)` fits in `max_bytes`, mostly without rendering it indented (slow).

    Indenting a container of n values at depth L adds at most 2L + 3 bytes per value and one more
    (newlines and spaces where the compact form has a space after a comma), and each value takes a
    byte of the compact form at least: the indented form is at most (compact + 1) * (2 * depth + 2).
    """
    compact = len(json.dumps(document, ensure_ascii=False, allow_nan=False).encode("utf-8"))
    if (compact + 1) * (2 * _depth(document) + 2) <= max_bytes:
        return True
    return len(render_json(document).encode("utf-8")) <= max_bytes


def _depth(value: object) -> int:
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, (list, tuple)):
        return 1 + max(map(_depth, value), default=0)
    return 0


def emit_json(document: dict) -> None:
    out(render_json(bound_document(document)))


def emit_signals(row: Row, explain: bool) -> None:
    """With --explain, a row's signals on an indented line under it: each one's contribution to the score."""
    if explain and row.signals:
        out("    " + "  ".join(f"{name}={value:+.2f}" for name, value in row.signals))


def emit_notes(notes: Sequence[str], quiet: bool) -> None:
    """An answer's notes on stderr, unless -q."""
    if not quiet:
        for note in notes:
            err(f"note: {note}")


def row_where(row: Row) -> str:
    """`path:line` (or the path alone) as text shows it: an unusual path quoted as git quotes it."""
    return f"{quote_path(row.path)}:{row.line}" if row.line is not None else quote_path(row.path)


def emit_rows(answer: Answer, lines: Callable[[list[Row]], list[str]], *, explain: bool, quiet: bool,
              no_match: str, preamble: Sequence[str] = (), header: Sequence[str] = ()) -> None:
    """What every ranked answer prints as text: where it answers from, `preamble`, then no_match (its
    note, else `no_match`) or `header` and one line per row (`lines` renders them all, for shared column
    widths), each with its signals under --explain, and the notes on stderr."""
    answer = checked(answer)
    out(source_line(answer.source))
    for line in preamble:
        out(line)
    if answer.status == "no_match":
        out("no_match: " + one_line(answer.notes[0] if answer.notes else no_match))
        return
    for line in header:
        out(line)
    for row, line in zip(answer.rows, lines(answer.rows), strict=True):
        out(line)
        emit_signals(row, explain)
    emit_notes(answer.notes, quiet)


def _query_lines(rows: list[Row]) -> list[str]:
    wheres = [row_where(r) for r in rows]
    width = max(map(len, wheres))
    names = [quote_path(r.name or "") for r in rows]  # a file's name is its path's last part
    name_width = min(max(map(len, names)), MAX_NAME_COLUMN)
    return [f"{where:<{width}}  {r.kind or '':<9} {name:<{name_width}}  {r.score:>8.2f}".rstrip()
            for r, where, name in zip(rows, wheres, names, strict=True)]


def emit_answer(answer: Answer, *, as_json: bool, explain: bool, quiet: bool) -> None:
    if as_json:
        emit_json(answer_json(answer, explain))
        return
    emit_rows(answer, _query_lines, explain=explain, quiet=quiet, no_match="nothing overlaps the question")


WHY_TITLE = 60  # characters of a record's title a `why` line shows


def why_row_text(row: Row) -> str:
    """A `why` row as text: `RECORD §SECTION  status  [title]  text` (the status names a superseded record's
    successor; a design section of a document that is no record says so; the title is left out when the
    text starts with it)."""
    extra = dict(row.extra)
    where = f"{quote_path(row.path)} §{extra['section']}" if extra.get("section") else quote_path(row.path)
    status = str(extra.get("status", ""))
    if extra.get("superseded_by"):
        status += f" by {extra['superseded_by']}"
    if extra.get("record_format") == "document":
        status = "design document"
    text, title = str(extra.get("text", "")), " ".join(str(extra.get("record", "")).split())
    if title and not text.startswith(title):
        shown = title if len(title) <= WHY_TITLE else title[:WHY_TITLE - 1].rstrip() + "…"
        text = f"[{shown}]  {text}"
    return f"{where}  {status}  {text}"


def emit_why(answer: Answer, *, as_json: bool, explain: bool, quiet: bool) -> None:
    """Print a `why` answer: one row per line, signals under each with --explain, or one JSON document."""
    if as_json:
        emit_json(answer_json(answer, explain))
        return
    emit_rows(answer, lambda rows: [why_row_text(r) for r in rows], explain=explain, quiet=quiet,
              no_match="no decision record discusses the question")


def progress_printer():
    """A build progress callback that redraws one stderr line, or None when not on a terminal."""
    if not sys.stderr.isatty():
        return None

    def report(phase: str, done: int, total: int) -> None:
        # Redraw in place; clear the line when a phase ends so the summary starts clean.
        sys.stderr.write(f"\r\033[K{phase}: {done}/{total}" if done < total else "\r\033[K")
        sys.stderr.flush()

    return report


def emit_ask(answer: Answer, classification, *, as_json: bool, explain: bool, quiet: bool) -> None:
    """`git route ask`'s output (the click command's and the fast path's): each row's type first, and with --explain
    how the question was classified (`classification`: an `ask.Classification`)."""
    if as_json:
        from gitroute.ask import classification_json

        document = answer_json(answer, explain)
        if explain:
            document["classification"] = classification_json(classification)
        emit_json(document)
        return
    preamble = []
    if explain:
        preamble += [f"asked: {route.kind} -> git route {route.command} '{route.text}': {route.reason}"
                     for route in classification.routes]
        preamble += [f"fact: {fact}" for fact in classification.facts]
    emit_rows(answer, _ask_lines, explain=explain, quiet=quiet, no_match="no index has an answer", preamble=preamble)


def _ask_lines(rows: list[Row]) -> list[str]:
    """Each row's type first: a mixed answer holds rows of several indexes."""
    wheres = [row_where(r) for r in rows]
    width = max(map(len, wheres))
    lines = []
    for r, where in zip(rows, wheres, strict=True):
        extra = dict(r.extra)
        label = quote_path(str(r.name or extra.get("section") or extra.get("token") or ""))
        lines.append(f"{extra.get('type', ''):<9} {where:<{width}}  {r.kind or '':<9} {label}  {r.score:.2f}".rstrip())
    return lines


def _section(extra: dict) -> str:
    section = str(extra.get("section") or "")
    return section if section else "(top)"


def _docs_lines(rows: list[Row]) -> list[str]:
    """Where, the section, the token as written, how many links and how sure."""
    width = max(len(row_where(r)) for r in rows)
    lines = []
    for r in rows:
        extra = dict(r.extra)
        links = int(extra.get("links", 0))
        if extra.get("status") == "beside":  # by the repository's layout (query.beside), not by a link
            lines.append(f"{row_where(r):<{width}}  §{plain_text(_section(extra))}  (beside it)")
            continue
        detail = f"{links} link{'s' if links != 1 else ''}, {extra.get('status')}"
        token = plain_text(str(extra.get("token")))
        lines.append(f"{row_where(r):<{width}}  §{plain_text(_section(extra))}  `{token}`  ({detail})  {r.score:.2f}")
    return lines


def emit_docs(answer: Answer, *, explain: bool, quiet: bool) -> None:
    """One line per document."""
    emit_rows(answer, _docs_lines, explain=explain, quiet=quiet, no_match="no document names it")


MAX_SYMBOLS_SHOWN = 4


def _code_lines(rows: list[Row]) -> list[str]:
    """The symbols the document names in each file (ambiguous ones marked), how many links, how sure."""
    width = max(len(row_where(r)) for r in rows)
    lines = []
    for r in rows:
        extra = dict(r.extra)
        ambiguous = set(extra.get("ambiguous") or ())
        symbols = [plain_text(f"{s}?" if s in ambiguous else s) for s in extra.get("symbols") or ()]
        named = ", ".join(symbols[:MAX_SYMBOLS_SHOWN]) + (f" (+{len(symbols) - MAX_SYMBOLS_SHOWN})"
                                                          if len(symbols) > MAX_SYMBOLS_SHOWN else "")
        if extra.get("status") == "beside":  # by the repository's layout (query.beside), not by a link
            lines.append(f"{row_where(r):<{width}}  (the file)  (beside it)")
            continue
        links = int(extra.get("links", 0))
        status = str(extra.get("status"))
        if status == "ambiguous":
            status += f", one of {extra.get('candidates')} candidates"
        line = f"{row_where(r):<{width}}  {named or '(the file)'}  ({links} link{'s' if links != 1 else ''}, {status})"
        lines.append(f"{line}  {r.score:.2f}")
    return lines


def emit_code(answer: Answer, *, explain: bool, quiet: bool) -> None:
    """One line per file, under the document's path."""
    document = (answer.extra or {}).get("document")
    emit_rows(answer, _code_lines, explain=explain, quiet=quiet, no_match="the document names no code",
              header=[f"document: {quote_path(document)}"] if document else [])


def emit_impact(answer: Answer, target: str, *, as_json: bool, explain: bool, quiet: bool) -> None:
    """`git route impact`'s output: rows grouped under their section, then the notes (the last one always); or the
    JSON document. Every row is checked before any is shown."""
    answer = checked(answer)
    if as_json:
        emit_json(answer_json(answer, explain))
        return
    out(source_line(answer.source))
    if answer.status == "no_match":
        out("no_match: " + one_line(answer.notes[0] if answer.notes else f"nothing named '{target}'"))
    section = None
    for r in answer.rows:
        extra = dict(r.extra)
        current = extra.get("section", "")
        if current != section:
            section = current
            out(f"[{section}]")
        if extra.get("status") == "candidate":
            out(f"  {row_where(r)}  {r.kind}  {plain_text(r.name or '')}")
        elif section == "contract":
            out(f"  {quote_path(r.path)}  {r.kind}  ({extra.get('status')})")
        else:
            kinds = ",".join(extra.get("edges", ()))
            hows = ",".join(extra.get("resolution", ()))
            out(f"  {row_where(r)}  depth {extra.get('depth')}  {kinds} ({hows})  x{extra.get('count')}  "
                f"{plain_text(r.name or '')}")
            if explain and r.signals:
                out("      " + "  ".join(f"{name}={value:+.2f}" for name, value in r.signals))
    notes = answer.notes if not quiet else answer.notes[-1:]  # the footer is part of the answer: never silenced
    for note in notes:
        err(f"note: {note}")
