"""The item's tools as an MCP server over stdio, for agents that start their tools as a subprocess.

    python -m harness.gateway.mcp_stdio

It reads HARNESS_TOOLS_URL and HARNESS_ITEM_TOKEN (set in a command agent's environment; a Python or
HTTP agent finds both in its task) and relays `tools/list` and `tools/call` to the gateway, which runs
the item's tools and records every call in the item's trajectory. It holds no state of its own, and
imports nothing of the harness: an agent's task names it by its file (python -I .../mcp_stdio.py), which
runs wherever that file is readable, whatever this Python's installation maps `harness` to.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import urllib.error
import urllib.request
from typing import Any


def _request(url: str, token: str, body: dict[str, Any] | None = None) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(url, data=data, method="GET" if body is None else "POST")
    request.add_header("Authorization", f"Bearer {token}")
    request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=600) as response:  # the loopback gateway only
            return json.loads(response.read().decode())
    except urllib.error.HTTPError as exc:
        detail = exc.read().decode(errors="replace")[:500]
        raise RuntimeError(f"the harness gateway answered {exc.code}: {detail}") from exc


def serve(tools_url: str, token: str) -> None:
    import mcp_types as types
    from mcp.server.lowlevel.server import Server
    from mcp.server.stdio import stdio_server

    async def list_tools(ctx: Any, params: Any) -> Any:
        listed = await asyncio.to_thread(_request, tools_url, token)
        return types.ListToolsResult(
            tools=[
                types.Tool(name=t["name"], description=t["description"], input_schema=t["inputSchema"])
                for t in listed["tools"]
            ]
        )

    async def call_tool(ctx: Any, params: Any) -> Any:
        body = {"name": params.name, "arguments": params.arguments or {}}
        done = await asyncio.to_thread(_request, f"{tools_url}/call", token, body)
        return types.CallToolResult(
            content=[types.TextContent(type="text", text=done["output"])], is_error=bool(done["is_error"])
        )

    server = Server("harness-task-tools", on_list_tools=list_tools, on_call_tool=call_tool)

    async def main() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    asyncio.run(main())


def main() -> int:
    tools_url, token = os.environ.get("HARNESS_TOOLS_URL"), os.environ.get("HARNESS_ITEM_TOKEN")
    if not tools_url or not token:
        print("harness.gateway.mcp_stdio: HARNESS_TOOLS_URL and HARNESS_ITEM_TOKEN must be set", file=sys.stderr)
        return 2
    serve(tools_url, token)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
