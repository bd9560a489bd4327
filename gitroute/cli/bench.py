"""`git route bench`: ask a routing bench's questions and report right-first scores and gates per type."""
from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import click

from gitroute import api
from gitroute.bench import BenchReport, QuestionResult, TypeResult
from gitroute.cli.output import err
from gitroute.errors import ExitCode

REPORT_SCHEMA = 1  # of the --json document, not of the bench file


@click.command("bench")
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead of text.")
@click.option("-q", "--quiet", is_flag=True, help="Silence notes on stderr.")
@click.option("--through-ask", is_flag=True,
              help="Ask every question through 'git route ask' too, and compare it per type with the dedicated "
                   "command (a sentence question's with its argument) and, for sentences, with plain BM25 over "
                   "whole files; exits 1 when ask gets more than one fewer right first on a type, or on a "
                   "sentence type more than 3 points fewer than the dedicated command or fewer than BM25.")
@click.option("--through-query", is_flag=True,
              help="Ask the symbol, meaning and negative questions through plain 'git route query' too (which "
                   "mixes the symbol tiers and BM25 itself), and compare it per type with the dedicated index.")
@click.option("--meaning-rule", is_flag=True,
              help="Score each --meaning candidate (bm25, embedding, hybrid) on the meaning questions and apply "
                   "the rule that decides which answers.")
@click.pass_context
def command(ctx: click.Context, file: str | None, as_json: bool, quiet: bool, through_ask: bool,
            through_query: bool, meaning_rule: bool) -> None:
    """Score the routing index against a bench of questions with known answers.

    FILE defaults to routing-bench.yaml at the top of the work tree. A question is right first
    when an expected answer is in the first three rows. Each type with enough questions must get
    its gate's share right first (4 of 5 by default); exits 1 when a type is below its gate.

    With --meaning-rule: the embedding (or hybrid) answers --meaning only if it gets at least 3 more
    meaning questions right first than BM25 and adds at most 30 MB to the large ref.
    """
    if meaning_rule:
        _meaning_rule(file, as_json)
        return
    report = api.bench(file, repo=".")
    if through_ask:
        sentences = any(t.type.startswith("sentence:") for t in report.types)
        baseline = api.bench(file, repo=".", whole_files=True) if sentences else None
        compare_through_ask(ctx, report, api.bench(file, repo=".", through_ask=True), as_json, baseline=baseline)
        return
    if through_query:
        compare_through_ask(ctx, report, api.bench(file, repo=".", through_query=True), as_json, through="query")
        return
    if as_json:
        click.echo(json.dumps(report_document(report), indent=2))
    else:
        for line in report_lines(report):
            click.echo(line)
    if not quiet:
        err(f"note: bench '{report.origin}'")
        unsupported = [t for t in report.types if not t.supported]
        if unsupported:
            names = ", ".join(f"'{t.type}'" for t in unsupported)
            err(f"note: no index answers {names} questions yet; they are not scored")
    failed = [t for t in report.types if not t.passed]
    for t in failed:
        err(f"error: {t.type}: {t.right_first}/{t.n} right first, gate needs {t.gate}")
    if failed:
        ctx.exit(int(ExitCode.CHECK_FAILED))


def report_lines(report: BenchReport) -> list[str]:
    """One aligned line per question (id, type, rank, ok or miss class, question), then one per type."""
    rows = [
        (r.question.id, r.question.type, str(r.rank) if r.rank is not None else "-", _outcome(r),
         " ".join(r.question.question.split()))
        for r in report.questions
    ]
    widths = [max((len(row[i]) for row in rows), default=0) for i in range(4)]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row[:4], widths, strict=True)) + "  " + row[4]
             for row in rows]
    lines.extend(_type_line(t, report.gate.min_questions) for t in report.types)
    return lines


def _outcome(result: QuestionResult) -> str:
    if result.status == "unsupported":
        return "unsupported"
    return "ok" if result.right_first else result.miss or "miss"


def _type_line(result: TypeResult, min_questions: int) -> str:
    if not result.supported:
        return f"{result.type}: {result.n} unsupported, not scored"
    head = f"{result.type}: {result.right_first}/{result.n} right first"
    if result.gate is None:
        return f"{head} (ungated: fewer than {min_questions} questions)"
    return f"{head} (gate {result.gate}) {'pass' if result.passed else 'fail'}"


def report_document(report: BenchReport) -> dict[str, Any]:
    """The --json contract: snake_case keys in a fixed order, `schema` first."""
    return {
        "schema": REPORT_SCHEMA,
        "status": "passed" if report.passed else "failed",
        "bench": report.origin,
        "gate": {"min_right_first": report.gate.min_right_first, "min_questions": report.gate.min_questions},
        "types": {t.type: _type_document(t) for t in report.types},
        "questions": [_question_document(r) for r in report.questions],
    }


def _type_document(result: TypeResult) -> dict[str, Any]:
    if not result.supported:
        status = "unsupported"
    elif result.gate is None:
        status = "ungated"
    else:
        status = "passed" if result.passed else "failed"
    return {
        "questions": result.n,
        "right_first": result.right_first,
        "score": round(result.score, 4),
        "gate": result.gate,
        "status": status,
    }


def _question_document(result: QuestionResult) -> dict[str, Any]:
    q = result.question
    return {
        "id": q.id,
        "type": q.type,
        "question": q.question,
        "expect": list(q.expect),
        "status": result.status,
        "rank": result.rank,
        "right_first": result.right_first,
        "miss": result.miss,
        "matched": result.matched,
    }


ASK_TOLERANCE = 1  # right-first answers ask may lose to the dedicated command, per type
SENTENCE_TOLERANCE = Fraction(3, 100)  # on a sentence type: the share of its questions ask may lose (issue 21)


def compare_through_ask(ctx: click.Context, dedicated: BenchReport, through_ask: BenchReport, as_json: bool,
                        through: str = "ask", baseline: BenchReport | None = None) -> None:
    """Per type: right first through the dedicated command and through `through` (ask, or plain query), and for
    sentence types through `baseline` (whole-file BM25); exit 1 when `through` is behind by more than the
    tolerance, or on a sentence type behind the baseline.

    Whole-file BM25's rows are files: a sentence type's three columns are scored at the file level (a decision at
    its record), and the dedicated command and `through` at the expectations' own level (the section, the symbol)
    beside them (`gitroute.bench`)."""
    asked = {t.type: t for t in through_ask.types if t.supported}
    files = {t.type: t.right_first_file for t in baseline.types if t.supported} if baseline is not None else {}
    # (type, questions, dedicated, through, whole-file BM25 or None, (dedicated, through) at the own level or None)
    rows: list[tuple[str, int, int, int, int | None, tuple[int, int] | None]] = []
    for t in dedicated.types:
        if t.type not in asked:
            continue
        other = asked[t.type]
        if t.type.startswith("sentence:"):
            rows.append((t.type, t.n, t.right_first_file, other.right_first_file, files.get(t.type),
                         (t.right_first, other.right_first)))
        else:
            rows.append((t.type, t.n, t.right_first, other.right_first, None, None))
    if as_json:
        click.echo(json.dumps({
            "schema": REPORT_SCHEMA, "bench": dedicated.origin, "tolerance": ASK_TOLERANCE,
            "types": {name: {"questions": n, "dedicated": d, through: a,
                             **({"whole_files": f} if f is not None else {}),
                             **({"level": "file", "own_level": {"dedicated": own[0], through: own[1]}}
                                if own is not None else {})}
                      for name, n, d, a, f, own in rows},
            "questions": [{"id": r.question.id, "type": r.question.scored_as, "rank": r.rank,
                           "right_first": r.right_first} for r in through_ask.questions
                          if r.question.scored_as in asked],
        }, indent=2))
    else:
        width = max([10, *(len(name) for name, *_ in rows)])
        sentences = any(own is not None for *_, own in rows)
        click.echo(f"{'type':<{width}} {'questions':>9} {'dedicated':>9} {through:>5}"
                   + (f" {'whole-file bm25':>15}" if files else "")
                   + (f" {'own level: dedicated':>20} {through:>5}" if sentences else ""))
        for name, n, d, a, f, own in rows:
            click.echo(f"{name:<{width}} {n:>9} {d:>9} {a:>5}" + (f" {f:>15}" if f is not None else "")
                       + (f" {own[0]:>20} {own[1]:>5}" if own is not None else ""))
        if sentences:
            click.echo("(sentence types at the file level, a decision at its record, as whole-file BM25 answers; "
                       "own level: the expected section or symbol)")
    behind = []
    for name, n, d, a, f, own in rows:
        if name.startswith("sentence:"):
            if Fraction(d - a, n) > SENTENCE_TOLERANCE:
                behind.append(f"{name}: {through} {a} right first of {n}, the dedicated command {d}")
            if own is not None and Fraction(own[0] - own[1], n) > SENTENCE_TOLERANCE:
                behind.append(f"{name}: {through} {own[1]} right first of {n} at the expected section or symbol, "
                              f"the dedicated command {own[0]}")
            if f is not None and a < f:
                behind.append(f"{name}: {through} {a} right first of {n}, whole-file BM25 {f}")
        elif d - a > ASK_TOLERANCE:
            behind.append(f"{name}: {through} {a} right first, the dedicated command {d}")
    for line in behind:
        err(f"error: {line}")
    if behind:
        ctx.exit(int(ExitCode.CHECK_FAILED))


def _meaning_rule(file: str | None, as_json: bool) -> None:
    from gitroute.bench import meaning_verdict

    scores = api.meaning_rule(file, repo=".")
    verdict, why = meaning_verdict(scores)
    recorded = api.meaning_candidate(repo=".")
    if as_json:
        click.echo(json.dumps({"schema": REPORT_SCHEMA, "rows": [_score_document(s) for s in scores],
                               "verdict": verdict, "why": why, "recorded": recorded}, indent=2))
        return
    for line in rule_lines(scores, verdict, why):
        click.echo(line)
    click.echo(f"the bundle records: {recorded} answers --meaning")
    if recorded != verdict:
        err(f"hint: record the verdict with 'git route build --meaning-model DIR --meaning-answer {verdict}'")


def _score_document(s: Any) -> dict[str, Any]:
    return {"corpus": s.corpus, "candidate": s.candidate, "right_first": s.right_first, "questions": s.questions,
            "bytes_added": s.bytes_added, "cold_ms": s.cold_ms, "warm_ms": s.warm_ms}


def rule_lines(scores: list, verdict: str, why: str) -> list[str]:
    """The rule's table: one line per corpus and candidate, then the totals, then the verdict."""
    import statistics

    header = ("corpus", "candidate", "right first", "bytes added", "cold ms", "warm ms")
    rows = [(s.corpus, s.candidate, f"{s.right_first}/{s.questions}", f"{s.bytes_added:,}",
             _ms(s.cold_ms), _ms(s.warm_ms)) for s in scores]
    for candidate in dict.fromkeys(s.candidate for s in scores):
        of = [s for s in scores if s.candidate == candidate]
        colds = [s.cold_ms for s in of if s.cold_ms is not None]
        warms = [s.warm_ms for s in of if s.warm_ms is not None]
        rows.append(("total", candidate, f"{sum(s.right_first for s in of)}/{sum(s.questions for s in of)}",
                     f"{max(s.bytes_added for s in of):,}", _ms(statistics.median(colds) if colds else None),
                     _ms(statistics.median(warms) if warms else None)))
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip() for row in [header, *rows]]
    lines.append(f"verdict: {verdict} answers --meaning ({why})")
    return lines


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"
