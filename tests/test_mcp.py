"""`git route mcp` end to end: the SDK's own client spawns `python -m gitroute mcp` in a real repository over stdio."""
from __future__ import annotations

import json
import os
import sys

import pytest

from gitroute.cli.output import MAX_ANSWER_BYTES, render_json
from gitroute.registry import INDEXES
from gitroute.specs import available_commands
from tests.conftest import SAMPLE_FILES
from tests.test_ask import ADR

anyio = pytest.importorskip("anyio")
mcp = pytest.importorskip("mcp")


def session_run(repo_path, steps):
    """Start the server in `repo_path`, run `steps(call, tools)` against it, and return what it returns."""

    async def main():
        params = mcp.StdioServerParameters(command=sys.executable, args=["-m", "gitroute", "mcp"], cwd=str(repo_path))
        async with mcp.stdio_client(params) as (read, write), mcp.ClientSession(read, write) as session:
            await session.initialize()
            listed = await session.list_tools()

            async def call(name, arguments):
                result = await session.call_tool(name, arguments)
                (content,) = result.content
                document = json.loads(content.text)
                assert document == result.structured_content  # the text and the structure say the same
                return document, result.is_error

            return await steps(call, listed.tools)

    return anyio.run(main)


@pytest.fixture
def built(make_repo, route):
    repo = make_repo("served")
    repo.commit({**SAMPLE_FILES, "docs/adr/0001-use-open-meteo.md": ADR}, "initial")
    assert route(["build", "-q"], repo.path).exit_code == 0
    return repo


def cli_json(route, repo, *args):
    result = route([*args, "--json"], repo.path)
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)


def test_tools_have_schemas_and_answer_the_rows_of_json(built, route):
    async def steps(call, tools):
        names = [t.name for t in tools]
        answers = {
            "names": names,
            "schemas": {t.name: t.input_schema for t in tools},
            "query": await call("query", {"text": "OpenMeteoClient"}),
            "why": await call("why", {"text": "why open-meteo and not a paid service", "limit": 2}),
            "ask": await call("ask", {"text": "where are forecasts parsed", "explain": True}),
            "status": await call("status", {}),
            "impact": await call("impact", {"target": "parse_forecast"}) if "impact" in names else None,
            "wiring": await call("wiring", {}) if "wiring" in names else None,
            "meaning": await call("query", {"text": "raw forecast text turned into hourly rows", "meaning": True}),
            "candidate": await call("query", {"text": "forecast", "meaning": True, "candidate": "nope"}),
        }
        return answers

    got = session_run(built.path, steps)
    assert got["names"] == ["ask", *(c.name for c in available_commands(INDEXES)), "status"]
    assert got["schemas"]["query"]["required"] == ["text"]
    assert got["schemas"]["query"]["properties"]["limit"]["maximum"] == 200
    assert got["query"] == (cli_json(route, built, "query", "OpenMeteoClient"), False)
    assert got["why"] == (cli_json(route, built, "why", "-n", "2", "why open-meteo and not a paid service"), False)
    assert got["ask"] == (cli_json(route, built, "ask", "--explain", "where are forecasts parsed"), False)
    assert got["ask"][0]["classification"]["kinds"] == ["meaning"]
    assert got["meaning"] == (cli_json(route, built, "query", "--meaning", "raw forecast text turned into hourly rows"),
                              False)
    assert got["candidate"][1] is True and "must be one of bm25, embedding, hybrid" in \
        got["candidate"][0]["error"]["message"]
    if got["impact"] is not None:
        assert got["impact"] == (cli_json(route, built, "impact", "parse_forecast"), False)
        assert got["schemas"]["impact"]["properties"]["depth"]["maximum"] == 5
    if got["wiring"] is not None:
        assert got["wiring"] == (cli_json(route, built, "wiring"), False)
    status, is_error = got["status"]
    assert not is_error and status["source"]["commit"] == built.ref("refs/heads/main")
    assert status["tools"] == got["names"]


def test_bad_arguments_are_an_error_result_and_the_server_keeps_serving(built):
    async def steps(call, tools):
        return [await call("query", {"text": "x", "bogus": 1}), await call("query", {"text": "x", "limit": 0}),
                await call("query", {}), await call("nope", {"text": "x"}),
                await call("query", {"text": "OpenMeteoClient", "limit": 1})]

    unknown, low, missing, no_tool, fine = session_run(built.path, steps)
    for document, is_error in (unknown, low, missing, no_tool):
        assert is_error and document["status"] == "error" and document["error"]["exit"] == 129
    assert "takes no argument 'bogus'" in unknown[0]["error"]["message"]
    assert "needs 'text'" in missing[0]["error"]["message"]
    assert fine[1] is False and fine[0]["rows"][0]["name"] == "OpenMeteoClient"


def test_a_ref_moved_under_a_running_server_is_answered_from_without_a_restart(built, route):
    async def steps(call, tools):
        before = await call("query", {"text": "ShipmentTracker"})
        first_commit = before[0]["source"]["commit"]
        built.commit({**SAMPLE_FILES, "src/sample/shipping.py": "class ShipmentTracker:\n    pass\n"}, "ship")
        stale = await call("status", {})  # HEAD moved, the bundle did not: the answer says it is behind
        assert route(["build", "-q"], built.path).exit_code == 0
        after = await call("query", {"text": "ShipmentTracker"})
        return first_commit, before, stale, after

    first_commit, before, stale, after = session_run(built.path, steps)
    assert before[0]["status"] == "no_match"
    assert stale[0]["source"]["stale_by"] == 1
    assert after[0]["status"] == "routed" and after[0]["rows"][0]["name"] == "ShipmentTracker"
    assert after[0]["source"]["commit"] == built.ref("refs/heads/main") != first_commit
    assert after[0]["source"]["stale_by"] == 0


def test_a_damaged_bundle_is_reported_not_served_from_the_last_good_one(built, route, tmp_path):
    blob = tmp_path / "blob"
    blob.write_text("not a bundle\n")
    blob_id = built.git("hash-object", "-w", str(blob)).strip()
    good = built.ref("refs/marola/routing-bundle")

    async def steps(call, tools):
        answered = await call("query", {"text": "OpenMeteoClient"})
        built.git("update-ref", "refs/marola/routing-bundle", blob_id)
        damaged = await call("query", {"text": "OpenMeteoClient"})
        built.git("update-ref", "refs/marola/routing-bundle", good)
        again = await call("query", {"text": "OpenMeteoClient"})
        return answered, damaged, again

    answered, damaged, again = session_run(built.path, steps)
    assert answered[1] is False and answered[0]["rows"]
    document, is_error = damaged
    assert is_error and document["error"]["exit"] == 128
    assert document["error"]["message"] == "the bundle at 'refs/marola/routing-bundle' is damaged: it points at a blob, " \
                                           "not a commit"
    assert again == answered


def test_an_answer_over_the_bound_is_cut_in_the_tool_result_too(make_repo, route):
    folder = "/".join([f"{'deeply_nested_package_folder_' * 7}{i}" for i in range(16)])
    files = {f"{folder}/module_{i:03d}.py": "".join(
        f"def shipment_tracking_{i}_{j}(order):\n    return order\n\n\n" for j in range(5)) for i in range(10)}
    repo = make_repo()
    repo.commit(files)
    assert route(["build", "-q"], repo.path).exit_code == 0

    async def steps(call, tools):
        return await call("query", {"text": "shipment tracking", "limit": 200, "explain": True})

    document, is_error = session_run(repo.path, steps)
    assert not is_error and document["status"] == "routed" and document["rows"]
    assert len(render_json(document).encode("utf-8")) <= MAX_ANSWER_BYTES
    assert "rows left out: an answer is at most 100,000 bytes of JSON" in document["notes"][-1]


def test_mcp_outside_a_repository_is_fatal(route, tmp_path):
    result = route(["mcp"], tmp_path)
    assert result.exit_code == 128 and result.stdout == ""
    assert result.stderr.startswith("fatal: not a git repository")


def test_the_warm_server_answers_every_question_as_the_command_line_does(make_repo, route, monkeypatch):
    # A project of a few hundred symbols whose common words ("test", "model") are deferred as django's
    # are (looked up, not walked): the server keeps postings, node texts and records across questions.
    import random

    from gitroute.cli.mcp import ServerTools
    from gitroute.indexes import symbols
    from tests.test_top_n import FOLDERS, WORDS, _module

    monkeypatch.setattr(symbols, "COMMON_POSTINGS", 40)
    rng = random.Random(7)
    files = {f"{rng.choice(FOLDERS)}/{'_'.join(rng.sample(WORDS, 2))}.py": _module(rng) for _ in range(120)}
    repo = make_repo("warm")
    repo.commit(files, "corpus")
    assert route(["build", "-q"], repo.path).exit_code == 0
    questions = ["".join(w.title() for w in rng.sample(WORDS, rng.randint(1, 3))) for _ in range(15)]
    questions += ["_".join(rng.sample(WORDS, 2)) for _ in range(5)]
    questions += ["where is the " + " ".join(rng.sample(WORDS, rng.randint(2, 5))) for _ in range(15)]
    tools = ServerTools(str(repo.path))
    try:
        for text in questions:
            for limit in (3, 25):
                served, is_error = tools.call("query", {"text": text, "limit": limit, "explain": True})
                assert not is_error
                assert served == cli_json(route, repo, "query", "--explain", "-n", str(limit), text), text
                assert tools.call("ask", {"text": text, "limit": limit}) == (
                    cli_json(route, repo, "ask", "-n", str(limit), text), False)
    finally:
        tools.close()
    assert tools.warm.pins == 1


def test_a_server_over_a_bundle_too_large_to_decode_ahead_answers_as_the_command_line_does(sample_repo, route,
                                                                                             monkeypatch):
    """Past WARM_MAX_NODES (the kernel: 200 s and 12 GiB to decode ahead) the server pins at once and answers as a
    cold query does; its answers are the command line's still."""
    from gitroute import query
    from gitroute.cli.mcp import ServerTools

    assert route(["build", "-q"], sample_repo.path).exit_code == 0
    monkeypatch.setattr(query, "WARM_MAX_NODES", 3)
    tools = ServerTools(str(sample_repo.path))
    try:
        for text in ("OpenMeteoClient", "where are the hourly rows of the forecast made"):
            assert tools.call("query", {"text": text, "explain": True}) == (
                cli_json(route, sample_repo, "query", "--explain", text), False)
            assert tools.call("ask", {"text": text}) == (cli_json(route, sample_repo, "ask", text), False)
        view = tools.warm.view()
        assert query.node_count(view) > 3
        assert "places" not in view.index("symbols").memo  # nothing decoded ahead
        assert "postings" not in view.index("meaning").memo
    finally:
        tools.close()
    monkeypatch.setattr(query, "WARM_MAX_NODES", 250_000)
    tools = ServerTools(str(sample_repo.path))
    try:
        assert tools.call("query", {"text": "OpenMeteoClient"})[1] is False
        assert "places" in tools.warm.view().index("symbols").memo  # a bundle this small is decoded ahead
    finally:
        tools.close()


def test_a_bundle_that_claims_few_nodes_is_still_counted_by_its_tree(sample_repo, route, monkeypatch):
    """A bundle from elsewhere whose manifest and symbol index claim one node is sized by its node shards too: it is
    not decoded ahead past the bound."""
    from gitroute import query
    from gitroute.bundle.store import BundleView
    from tests.test_bundle_values import rewrite

    assert route(["build", "-q"], sample_repo.path).exit_code == 0
    with BundleView(str(sample_repo.path)) as view:
        manifest = dict(view.manifest, counts={**view.manifest["counts"], "nodes": {"file": 1}})
        symbols = dict(view.section("symbols"), nodes=1)
    rewrite(sample_repo, {"build.json": json.dumps(manifest).encode(), "symbols/meta.json": json.dumps(symbols).encode()})
    monkeypatch.setattr(query, "WARM_MAX_NODES", 10)
    with BundleView(str(sample_repo.path)) as view:
        assert view.manifest["counts"]["nodes"] == {"file": 1}
        assert query.node_count(view) >= 64  # one node shard
        assert query.warm(view) is False


def test_a_servers_view_keeps_a_bounded_count_of_graph_shards(make_repo, route):
    """A server's view (`CachedBundleView`) drops the least recently read graph shards past its bound, and reads
    them again when asked: the same records, whatever the bound; one request larger than the bound keeps all."""
    from gitroute.bundle.store import BundleView
    from gitroute.bundle.warm import CachedBundleView

    repo = make_repo()  # 300 nodes: a few buckets of NODES_PER_BUCKET
    repo.commit({f"pkg/module_{i}.py": "".join(f"def step_{i}_{j}():\n    return {j}\n\n\n" for j in range(9))
                 for i in range(30)})
    assert route(["build", "-q"], repo.path).exit_code == 0
    with BundleView(str(repo.path)) as whole:
        names = whole.listing("graph/nodes")
        expected = whole.node_records()
    assert len(names) > 2

    class Small(CachedBundleView):
        graph_chunks = 2

    with Small(str(repo.path)) as small:
        found: dict = {}
        for node_id in [*expected, *reversed(expected)]:
            found.update(small.graph.records([node_id]))
            assert len(small.graph._chunks) <= 2
        assert found == expected
        assert small.graph.records(list(expected)) == expected
        assert len(small.graph._chunks) == len(names)


def raw_session(repo_path, lines: list[bytes], timeout: float = 60.0) -> list[dict]:
    """Send raw lines to `git route mcp` after the handshake; the replies, one per line sent that gets one.

    The lines go one at a time, each after the reply to the one before (or after a ping's reply shows the
    server read past a line that gets none): a reply that never comes fails the test instead of hanging it.
    """
    import select
    import subprocess

    proc = subprocess.Popen([sys.executable, "-m", "gitroute", "mcp"], cwd=repo_path, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, bufsize=0)

    def send(line: bytes) -> None:
        assert proc.stdin is not None
        proc.stdin.write(line + b"\n")
        proc.stdin.flush()

    pending = b""

    def receive() -> dict:
        """The next line the server writes, waiting `timeout` at most (poll: the fd may be past select's 1024)."""
        nonlocal pending
        assert proc.stdout is not None
        while b"\n" not in pending:
            waiting = select.poll()
            waiting.register(proc.stdout.fileno(), select.POLLIN)
            assert waiting.poll(timeout * 1000), "no reply: a client waiting on it would hang"
            chunk = os.read(proc.stdout.fileno(), 1 << 16)
            assert chunk, "the server closed its output"
            pending += chunk
        line, _, pending = pending.partition(b"\n")
        return json.loads(line)

    try:
        send(json.dumps({"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}).encode())
        assert receive()["id"] == "init"
        send(b'{"jsonrpc": "2.0", "method": "notifications/initialized"}')
        replies = []
        for number, line in enumerate(lines):
            send(line)
            send(json.dumps({"jsonrpc": "2.0", "id": f"ping{number}", "method": "ping"}).encode())
            reply = receive()
            if reply.get("id") != f"ping{number}":
                replies.append(reply)
                assert receive()["id"] == f"ping{number}"
        return replies
    finally:
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(timeout)
        assert proc.returncode == 0, proc.stderr.read() if proc.stderr else ""


def test_invalid_requests_get_the_json_rpc_error_the_spec_names(built):
    deep = b"[" * 100_000 + b"]" * 100_000
    lines = {
        "no method": (b'{"jsonrpc": "2.0", "id": 1}', 1, -32600),
        "params not structured": (b'{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": "x"}', 2, -32600),
        "jsonrpc 1.0": (b'{"jsonrpc": "1.0", "id": 3, "method": "tools/list"}', 3, -32600),
        "params an array": (b'{"jsonrpc": "2.0", "id": "four", "method": "tools/list", "params": [1]}', "four", -32602),
        "nested deep, with an id": (b'{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "ask", '
                                    b'"arguments": {"text": ' + deep + b'}}}', 5, -32600),
        "nested deep, no object": (deep, None, -32600),
        "not JSON": (b'{"jsonrpc": "2.0", "id": 6, "method": ', None, -32700),
        "a batch": (b'[{"jsonrpc": "2.0", "id": 7, "method": "tools/list"}]', None, -32600),
        "an id of the wrong type": (b'{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}', None, -32600),
        "unknown method": (b'{"jsonrpc": "2.0", "id": 8, "method": "nope"}', 8, -32601),  # the SDK's own answer
    }
    replies = raw_session(built.path, [line for line, _, _ in lines.values()])
    assert len(replies) == len(lines), replies
    for (name, (_, request_id, code)), reply in zip(lines.items(), replies, strict=True):
        assert reply["jsonrpc"] == "2.0" and reply["id"] == request_id, (name, reply)
        assert reply["error"]["code"] == code, (name, reply)
        assert reply["error"]["message"], (name, reply)


def test_lines_that_want_no_answer_get_none_and_the_server_keeps_serving(built):
    replies = raw_session(built.path, [b"", b'{"jsonrpc": "2.0", "id": 9, "result": "malformed response"}',
                                       b'{"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {}}'])
    assert replies == []
