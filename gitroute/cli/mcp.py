"""`git route mcp`: a Model Context Protocol server on stdio, answering every question from a warm bundle.

`ServerTools` is the server without the protocol: the tools (one per row of `specs.COMMANDS` whose
index the registry holds, plus `ask` and `status`), their JSON schemas, and `call(name, arguments)`,
which answers with the same document as the command's `--json`, bounded to 100,000 bytes. `serve`
puts it on the official `mcp` SDK's low-level server over stdio (the optional `mcp` extra).
"""
from __future__ import annotations

import contextlib
import gc
import json
import os
import sys
from collections import OrderedDict
from collections.abc import Callable, Mapping
from typing import BinaryIO

import click

from gitroute import __version__, extra_install_command
from gitroute.ask import classification_json
from gitroute.cli.output import answer_json, bound_document, render_json, source_json
from gitroute.errors import ExitCode, GitrouteError
from gitroute.specs import Command, available_commands, input_schema, options_for

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from gitroute.bundle.store import BundleView

SCHEMA = 1
ASK = Command("ask", "", {}, "any question, routed to the index (or indexes) its kind needs; each row has its `type`",
              ("text", "the question: a name, a path, or plain words (\"what breaks if I change X\", "
                       "\"which doc explains X\", \"why did we choose X\")"), True, ())
STATUS_SCHEMA = {"type": "object", "properties": {}, "additionalProperties": False}
KEPT_ANSWERS = 512
_TYPES = {"string": str, "integer": int, "boolean": bool, "array": list}


class ToolArgumentError(GitrouteError):
    """A tool called with arguments its schema does not take: a usage error."""

    exit_code = ExitCode.USAGE


class ServerTools:
    """The tools of the server and their answers, over one warm bundle of the repository at `repo`."""

    def __init__(self, repo: str = ".") -> None:
        from gitroute.bundle.warm import WarmBundle
        from gitroute.registry import INDEXES

        self.repo = repo
        self.warm = WarmBundle(repo)
        self.commands = {c.name: c for c in [ASK, *available_commands(INDEXES)]}
        # (pin, tool, arguments) -> document: an answer of a pinned bundle never changes; agents ask again.
        self._answers: OrderedDict[tuple, dict] = OrderedDict()
        self._warmed = 0  # the pin whose bundle `api.warm` decoded
        self._ahead = True  # whether that bundle's indexes were decoded ahead (not too large: `query.WARM_MAX_NODES`)

    def tools(self) -> list[dict]:
        """name, description and inputSchema of each tool, in a fixed order: ask, the table's commands, status."""
        tools = [{"name": c.name, "description": f"gitroute {c.name}: {c.what}. Rows as `git route {c.name} --json`.",
                  "inputSchema": input_schema(c)} for c in self.commands.values()]
        tools.append({"name": "status", "description": "gitroute status: what the bundle answers from, how far "
                      "behind HEAD it is, what each index holds. As `git route status --json`.",
                      "inputSchema": STATUS_SCHEMA})
        return tools

    def call(self, name: str, arguments: Mapping[str, object] | None) -> tuple[dict, bool]:
        """(the JSON document, is it an error) for one tool call; the document is bounded like the CLI's."""
        arguments = dict(arguments or {})
        try:
            if name == "status":
                self._check(name, STATUS_SCHEMA, arguments)
                return self._status(), False
            command = self.commands.get(name)
            if command is None:
                known = ", ".join([*self.commands, "status"])
                raise ToolArgumentError(f"no tool named '{name}'", hint=f"known: {known}")
            self._check(name, input_schema(command), arguments)
            view = self._view()  # first: a moved ref or HEAD re-pins (and empties the answers kept below)
            key = (self.warm.pins, name, json.dumps(arguments, sort_keys=True))
            document = self._answers.get(key)
            if document is None:
                try:
                    document = bound_document(self._answer(command, arguments, view))
                finally:
                    if not self._ahead:  # what an answer decoded of a large bundle goes with it, as a cold one's
                        view.forget_decoded()
                self._answers[key] = document
                while len(self._answers) > KEPT_ANSWERS:
                    self._answers.popitem(last=False)
            else:
                self._answers.move_to_end(key)
            return document, False
        except GitrouteError as err:
            return error_document(int(err.exit_code), err.message, err.hint), True

    def _view(self) -> BundleView:
        """The bundle at the ref now (re-pinned and checked when the ref or HEAD moved), decoded ahead once per pin."""
        view = self.warm.view()
        if self._warmed != self.warm.pins:
            from gitroute import api

            gc.unfreeze()  # what the last pin decoded is the collector's again (gone, unless in a cycle)
            self._ahead = api.warm(view, self.repo)  # the contextual model too, loaded once
            self._warmed = self.warm.pins
            # The decoded bundle is millions of objects kept until the next pin: left to the cyclic collector,
            # each full collection walks them all, a pause of tens of milliseconds in some answer.
            gc.collect()
            gc.freeze()
        return view

    def _answer(self, command: Command, arguments: dict, view: BundleView) -> dict:
        """The document of one tool call, from `view` (the bundle at the ref now, checked by `call`)."""
        from gitroute import api

        text = " ".join(str(arguments.get(command.argument[0]) or "").split())
        limit = int(arguments.get("limit", input_schema(command)["properties"]["limit"]["default"]))
        explain = bool(arguments.get("explain", False))
        if command is ASK:
            if not text:
                raise ToolArgumentError("'text' is empty")
            answer, classification = api.ask(text, repo=self.repo, limit=limit, explain=explain, bundle=view)
            document = answer_json(answer, explain)
            if explain:
                document["classification"] = classification_json(classification)
            return document
        if command.text_required and not text:
            raise ToolArgumentError(f"'{command.argument[0]}' is empty")
        answer = api.ask_command(command.name, text, repo=self.repo, limit=limit, explain=explain, bundle=view,
                                 **options_for(command, arguments))
        return answer_json(answer, explain)

    def _status(self) -> dict:
        from gitroute import api

        self._view()  # a damaged bundle is reported here as for every other tool
        s = api.status(repo=self.repo)
        return {
            "schema": SCHEMA,
            "source": source_json(s.source),
            "bundle": {"commit": s.bundle_commit, "bytes": s.bundle_bytes, "blobs": s.bundle_blobs},
            "gitroute_version": s.gitroute_version,
            "counts": s.counts,
            "indexes": s.indexes,
            "tools": [t["name"] for t in self.tools()],
        }

    @staticmethod
    def _check(name: str, schema: dict, arguments: dict) -> None:
        """The arguments against the tool's schema: names, types, required, integer bounds."""
        properties = schema["properties"]
        for key, value in arguments.items():
            spec = properties.get(key)
            if spec is None:
                raise ToolArgumentError(f"tool '{name}' takes no argument '{key}'",
                                    hint="known: " + ", ".join(properties) if properties else None)
            want = _TYPES[spec["type"]]
            if not isinstance(value, want) or (want is int and isinstance(value, bool)):
                raise ToolArgumentError(f"tool '{name}': '{key}' must be {spec['type']}")
            if "enum" in spec and value not in spec["enum"]:
                raise ToolArgumentError(f"tool '{name}': '{key}' must be one of {', '.join(spec['enum'])}")
            if isinstance(value, list) and not all(isinstance(item, str) for item in value):
                raise ToolArgumentError(f"tool '{name}': '{key}' must be a list of strings")
            if isinstance(value, int) and not spec.get("minimum", value) <= value <= spec.get("maximum", value):
                raise ToolArgumentError(f"tool '{name}': '{key}' must be in {spec['minimum']}..{spec['maximum']}")
        required: list[str] = schema.get("required", [])
        for key in required:
            if key not in arguments:
                raise ToolArgumentError(f"tool '{name}' needs '{key}'")

    def close(self) -> None:
        self.warm.close()


def error_document(code: int, message: str, hint: str | None) -> dict:
    """An error as the CLI's --json error document."""
    return {"schema": SCHEMA, "status": "error", "error": {"exit": code, "message": message, "hint": hint}}


def serve(repo: str = ".") -> None:
    """Serve the tools on stdio until the client closes the connection."""
    import io
    from typing import Any, cast

    import anyio
    import mcp_types as types
    from mcp.server.lowlevel import Server
    from mcp.server.stdio import stdio_server
    from mcp.shared.message import SessionMessage

    from gitroute.cli.jsonrpc import rejection

    tools = ServerTools(repo)

    async def list_tools(ctx, params) -> types.ListToolsResult:
        return types.ListToolsResult(tools=[
            types.Tool(name=t["name"], description=t["description"], input_schema=t["inputSchema"])
            for t in tools.tools()])

    async def call_tool(ctx, params) -> types.CallToolResult:
        try:
            document, is_error = tools.call(params.name, params.arguments)
        except Exception as exc:  # a bug: answered as an error, the server keeps serving
            document, is_error = error_document(int(ExitCode.INTERNAL), f"internal error: {type(exc).__name__}: "
                                                f"{exc}", "report it"), True
        return types.CallToolResult(content=[types.TextContent(type="text", text=render_json(document))],
                                    structured_content=document, is_error=is_error)

    server = Server("gitroute", version=__version__, on_list_tools=list_tools, on_call_tool=call_tool,
                    instructions="Questions about this repository: ask (any question), or the tool of its kind. "
                                 "Every answer is JSON within 100,000 bytes; rows carry path, line, name, kind, score.")

    def read(line: str) -> object | None:
        try:
            return types.jsonrpc_message_adapter.validate_json(line, by_name=False)
        except ValueError:  # pydantic's ValidationError
            return None

    wire, restore_stdin = _claim_stdin()
    replies: list = []  # the transport's write stream, once it is up
    ready = anyio.Event()

    async def checked_lines():
        """The client's lines for the SDK; one it would drop unanswered is answered here, as JSON-RPC says."""
        async for line in anyio.wrap_file(io.TextIOWrapper(wire, encoding="utf-8", errors="replace")):
            rejected = rejection(line, read)
            if rejected is None:
                yield line
                continue
            await ready.wait()
            error = types.ErrorData(code=rejected.code, message=rejected.message)
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError):
                await replies[0].send(SessionMessage(types.JSONRPCError(jsonrpc="2.0", id=rejected.id, error=error)))

    async def main() -> None:
        async with stdio_server(stdin=cast(Any, checked_lines())) as (read, write):
            replies.append(write)
            ready.set()
            await server.run(read, write, server.create_initialization_options())

    try:
        anyio.run(main)
    finally:
        restore_stdin()
        tools.close()


def _claim_stdin() -> tuple[BinaryIO, Callable[[], None]]:
    """The protocol's input, and how to give fd 0 back: while serving, fd 0 is the null device, so that no
    git or Python child reads the client's messages (the SDK does the same when it opens stdin itself)."""
    try:
        if sys.stdin is None or sys.stdin.fileno() != 0:
            raise ValueError
    except (ValueError, OSError, AttributeError):  # not a real fd 0 (a test's stream): read it as it is
        return sys.stdin.buffer, lambda: None
    wire = os.dup(0)  # not inherited by children
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)

    def restore() -> None:
        os.dup2(wire, 0)
        os.close(wire)

    return open(wire, "rb", closefd=False), restore


@click.command("mcp")
def command() -> None:
    """Serve this repository's routing bundle to an MCP client over stdio (Model Context Protocol).

    Tools: ask, and one per answering command this gitroute has (query, docs, code, impact, why,
    wiring), each with the rows of its --json, and status. The bundle is opened once and kept warm; a
    new build or fetch is noticed at the next call. Needs the mcp extra: pip install '.[mcp]' in gitroute's
    checkout.
    """
    try:
        import mcp  # noqa: F401 - only to say what is missing before serving
    except ImportError:
        hint = f"install the extra from gitroute's own source: {extra_install_command('mcp')}"
        raise GitrouteError("'git route mcp' needs the MCP SDK, which is not installed", hint=hint) from None
    from gitroute.git.catfile import current_branch

    current_branch(".")  # outside a repository: fatal now, not at the first call
    serve(os.getcwd())

