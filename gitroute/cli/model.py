"""`git route model make DIR`: the contextual model's folder, made once from a model a package registry ships."""
from __future__ import annotations

import click

from gitroute.cli.options import json_option
from gitroute.cli.output import emit_json


@click.group("model")
def command() -> None:
    """The contextual sentence model that reranks plain-words answers (docs/decisions/0019)."""


@command.command("make")
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--model", "name", default="all-minilm-l6", show_default=True,
              type=click.Choice(["all-minilm-l6", "paraphrase-minilm-l3"]),
              help="Which known model (each pinned: package, version, sha256, licence).")
@json_option
def make(folder: str, name: str, as_json: bool) -> None:
    """Write FOLDER/model.onnx (int8), tokenizer.json and manifest.json from the model's installed package.

    Done once, where the model's package (and, for a model shipped as safetensors weights, torch) is
    installed; then `git route build --meaning-model FOLDER` embeds every node into
    refs/marola/routing-bundle-large, which users and CI bring with `git route fetch --meaning`.
    """
    from gitroute import api

    manifest = api.make_model(folder, name)
    if as_json:
        emit_json({"schema": 1, "folder": folder, "manifest": manifest})
        return
    click.echo(f"made {manifest['name']} in {folder}: model.onnx sha256 {manifest['files_sha256']['model.onnx'][:12]}, "
               f"licence {manifest['licence']}")


@command.command("export")
@click.argument("folder", type=click.Path(file_okay=False))
@json_option
def export(folder: str, as_json: bool) -> None:
    """Write the contextual model that refs/marola/routing-bundle-large holds to FOLDER, checked against the bundle.

    What CI builds with after fetching the large bundle: `git route model export DIR && git route build
    --meaning-model DIR` re-embeds only the nodes whose text changed.
    """
    from gitroute import api

    manifest = api.export_model(folder)
    if as_json:
        emit_json({"schema": 1, "folder": folder, "manifest": manifest})
        return
    click.echo(f"exported {manifest['name']} to {folder}: "
               f"model.onnx sha256 {manifest['files_sha256']['model.onnx'][:12]}")
