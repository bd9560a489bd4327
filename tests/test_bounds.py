"""Bounded work: pathological content degrades visibly, and a query reads a few blobs whatever the repository's size."""
from __future__ import annotations

import json

import pytest

from gitroute import api
from gitroute.bundle.store import BundleView


def build_json(route, repo) -> dict:
    result = route(["build", "--json"], repo.path)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_pathological_content_builds_and_says_what_degraded(make_repo, route):
    repo = make_repo()
    repo.commit({
        "deep.py": "x = " + "[" * 5000 + "]" * 5000 + "\n\ndef after_the_deep_list():\n    pass\n",
        # one huge line among ordinary ones is read; a file of huge lines is minified (parsing/limits.py)
        "long_line.js": "var a = 1;" * 20000 + "\n" + "var b = 2;\n" * 60 + "function afterTheLongLine() {}\n",
        "bundle.min.js": "var a = 1;" * 20000 + "\nfunction minifiedAway() {}\n",
        "latin1.py": b"# caf\xe9\n\ndef survives_bad_bytes():\n    pass\n",
        "broken.go": "package main\n\nfunc main() {\n  if {{{\n}\n\nfunc StillFound() {}\n",
        "huge_name.py": "def " + "a" * 5000 + "():\n    pass\n",
        "empty.rs": "",
    })
    report = build_json(route, repo)
    assert report["files"]["parsed"] == 6
    manifest = json.loads(repo.git("cat-file", "-p", "refs/marola/routing-bundle:build.json"))
    assert manifest["skipped"] == [["bundle.min.js", "minified"]]
    warned = {path for path, _ in manifest["warnings"]}
    assert {"latin1.py", "broken.go"} <= warned  # degraded, and said so

    for name, path in [("after_the_deep_list", "deep.py"), ("survives_bad_bytes", "latin1.py"),
                       ("broken", "broken.go"), ("afterTheLongLine", "long_line.js")]:
        answer = json.loads(route(["query", "--json", name], repo.path).stdout)
        assert answer["rows"][0]["path"] == path, name

    # The parser bounds a name at 200 characters, and answers carry that bounded name.
    answer = json.loads(route(["query", "--json", "a" * 200], repo.path).stdout)
    assert answer["rows"][0]["path"] == "huge_name.py"
    assert answer["rows"][0]["name"] == "a" * 200


class CountingView(BundleView):
    """A real bundle view that counts the blobs an answer reads."""

    reads: list[str] = []

    def read(self, paths):
        CountingView.reads.extend(paths)
        return super().read(paths)


@pytest.mark.parametrize("modules", [20, 1500])
def test_a_query_reads_a_bounded_number_of_blobs(make_repo, route, monkeypatch, modules):
    repo = make_repo()
    files = {f"pkg{i % 30}/mod{i}.py": f"class Widget{i}:\n    def render_widget(self):\n        pass\n"
             for i in range(modules)}
    repo.commit(files)
    build_json(route, repo)
    monkeypatch.setattr("gitroute.bundle.store.BundleView", CountingView)
    CountingView.reads = []
    answer = api.query("Widget7", repo=str(repo.path), limit=1)
    assert answer.rows[0].name == "Widget7"
    # The index's meta, a shard per question word, and node-record chunks for the scored records:
    # never the manifest, the extracts or the edges, and nothing that grows with the repository.
    # A decisive answer is one batch of records; a long tail of weak rows (here the other
    # widgets, any of which may sit under `pkg7/`) costs more, the price of a true top N.
    assert not any(p.startswith(("extract/", "graph/in/", "graph/out/")) or p == "build.json"
                   for p in CountingView.reads)
    assert any(p.startswith("graph/nodes/") for p in CountingView.reads)
    assert len(CountingView.reads) <= 1 + 2 + 40


def test_methods_are_named_with_their_owner(sample_repo, route):
    assert route(["build", "-q"], sample_repo.path).exit_code == 0
    answer = json.loads(route(["query", "--json", "OpenMeteoClient.forecast"], sample_repo.path).stdout)
    top = answer["rows"][0]
    assert (top["name"], top["kind"], top["path"]) == ("OpenMeteoClient.forecast", "method", "src/sample/weather.py")


# markdown_inline (tree-sitter-language-pack 0.13.0) takes time doubling with each `[` an inline run leaves
# open after an emphasis: this paragraph would take about a minute (24 brackets took 1.1 s, 26 took 3.6 s).
SLOW_PARAGRAPH = "*Note* " + "![" * 30 + ":**D"


def test_a_paragraph_the_inline_grammar_is_slow_on_is_read_as_text_and_said(make_repo, route):
    repo = make_repo()
    repo.commit({
        "docs/notes.md": f"# Notes\n\n{SLOW_PARAGRAPH}\n\nCall `after_the_brackets` to go on.\n",
        "lib.py": "def after_the_brackets():\n    pass\n",
        # The rst scanner is quadratic in a long run without blanks of `[ { ( : < -` (6 KB took 1 s).
        "docs/minified.rst": "Minified\n========\n\n" + "ab:" * 20_000 + "\n",
    })
    build_json(route, repo)
    manifest = json.loads(repo.git("cat-file", "-p", "refs/marola/routing-bundle:build.json"))
    assert ["docs/notes.md", "line 3: 30 brackets left open (more than 12): read as plain text"] in \
        manifest["warnings"]
    assert ["docs/minified.rst", "long runs without blanks (cost 1200000000, more than 8000000): not parsed"] in \
        manifest["warnings"]
    answer = json.loads(route(["query", "--json", "after_the_brackets"], repo.path).stdout)
    assert {row["path"] for row in answer["rows"]} >= {"lib.py"}


def test_reading_many_objects_at_once_does_not_deadlock_on_the_pipes(make_repo):
    """A warm server pinning a kernel-sized bundle asks for thousands of blobs in one call: written whole before
    any answer was read, the request filled git's stdin pipe while git's answers filled its stdout pipe."""
    import threading

    from gitroute.git.catfile import ObjectReader

    repo = make_repo()
    repo.commit({"block.txt": "x" * 1024 + "\n"})
    oid = repo.git("rev-parse", "HEAD:block.txt").strip()
    specs = [oid] * 3000  # 123 KB of request, 3 MB of answers: both past a 64 KiB pipe
    answers: list = []
    with ObjectReader(str(repo.path)) as reader:
        thread = threading.Thread(target=lambda: answers.extend(reader.read(specs)), daemon=True)
        thread.start()
        thread.join(timeout=30)
        deadlocked = thread.is_alive()
        if deadlocked:
            reader._process().kill()  # free the thread; the assertion below fails
    assert not deadlocked
    assert len(answers) == 3000 and answers[-1][2] == b"x" * 1024 + b"\n"
