"""`git route build [REV]`: index one pinned commit into the routing bundle."""
from __future__ import annotations

import re

import click

from gitroute.cli.building import HELD, JOBS_RANGE, run_build_command
from gitroute.cli.options import json_option, quiet_option

__all__ = ["HELD", "command"]


class _Size(click.ParamType):
    """A size in bytes, as git's config writes one: 1048576, 512k, 8m, 1g (also 8MiB, 8MB: powers of 1024)."""

    name = "SIZE"
    _UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}
    _FORM = re.compile(r"(\d{1,15})\s*(?:([kmg])(?:i?b)?|b)?", re.IGNORECASE)

    def convert(self, value: object, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        match = self._FORM.fullmatch(str(value).strip())
        if match is None or int(match.group(1)) < 1:
            self.fail(f"'{value}' is not a size of at least 1 byte (1048576, 512k, 8m, 1g)", param, ctx)
        return int(match.group(1)) * self._UNITS[(match.group(2) or "").lower()]


@click.command("build")
@click.argument("rev", default="HEAD")
@click.option("-j", "--jobs", type=click.IntRange(*JOBS_RANGE), help="Parser processes (default: every core).")
@click.option("--full", is_flag=True, help="Extract every file again; reuse nothing from earlier bundles.")
@click.option("--no-fetch", "no_fetch", is_flag=True,
              help="In a partial clone, do not fetch missing blobs; skip them as 'missing'.")
@click.option("--max-file-bytes", type=_Size(),
              help="Skip files larger than SIZE (1048576, 512k, 8m). Unlike '.gitroute.toml', which is held to "
                   "2m, any size.")
@click.option("--meaning-model", metavar="DIR", type=click.Path(file_okay=False),
              help="A local static embedding model (model.safetensors, tokenizer.json, config.json): its vectors "
                   "go to refs/marola/routing-bundle-large.")
@click.option("--meaning-dtype", type=click.Choice(["float16", "int8"]), default="float16", show_default=True,
              help="How the node vectors are stored.")
@click.option("--meaning-answer", type=click.Choice(["bm25", "embedding", "hybrid"]), default="bm25",
              show_default=True, help="Which candidate answers --meaning ('git route bench --meaning-rule' decides).")
@json_option
@quiet_option
def command(rev: str, jobs: int | None, full: bool, no_fetch: bool, max_file_bytes: int | None,
            meaning_model: str | None, meaning_dtype: str, meaning_answer: str, as_json: bool, quiet: bool) -> None:
    """Build the routing bundle for REV (default HEAD) under refs/marola/routing-bundle.

    Reads the commit's blobs from the object database only (never the work tree), reuses every
    extraction whose blob did not change (only from bundles this repository's own builds wrote,
    never from a fetched one), and moves the ref in one compare-and-swap.
    """
    if meaning_model is None and (meaning_answer != "bm25" or meaning_dtype != "float16"):
        raise click.UsageError("--meaning-answer and --meaning-dtype need --meaning-model DIR")
    run_build_command(rev, jobs=jobs, full=full, no_fetch=no_fetch, max_file_bytes=max_file_bytes,
                      meaning_model=meaning_model, meaning_dtype=meaning_dtype, meaning_answer=meaning_answer,
                      as_json=as_json, quiet=quiet)
