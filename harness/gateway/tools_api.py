"""An item's tools, served to agents that run outside the harness: over MCP (streamable HTTP at the
gateway's /mcp, or stdio through `python -m harness.gateway.mcp_stdio`) and as two plain JSON endpoints
for agents that speak neither. Every call runs the item's recorded tool, so it lands in the item's
trajectory exactly as a call from the harness's own tool loop does."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from harness.solvers import run_tool
from harness.tools import Tool


def describe(tools: dict[str, Tool]) -> list[dict[str, Any]]:
    """The tools as MCP lists them: name, description, inputSchema."""
    return [{"name": t.name, "description": t.description, "inputSchema": t.parameters} for t in tools.values()]


async def call(tools: dict[str, Tool], name: str, arguments: Any) -> tuple[str, bool]:
    """(the tool's output, whether it is an error); bad arguments are an error the agent can read."""
    tool = tools.get(name)
    if tool is None:
        return json.dumps({"error": f"no tool {name!r} in this task; tools: {sorted(tools)}"}), True
    if arguments is not None and not isinstance(arguments, dict):
        return json.dumps({"error": f"arguments for {name} must be an object"}), True
    try:
        output = await run_tool(tool, json.dumps(arguments or {}))
    except Exception as exc:  # a tool that breaks answers with an error, it does not stop the server
        return json.dumps({"error": f"{name} failed: {type(exc).__name__}: {exc}"}), True
    return output, output.startswith('{"error": ')


def mcp_server(tools_of: Callable[[Any], dict[str, Tool]]) -> Any:
    """An MCP server whose tools are those of the item that sent the request (`tools_of(http_request)`)."""
    import mcp_types as types
    from mcp.server.lowlevel.server import Server

    async def list_tools(ctx: Any, params: Any) -> Any:
        listed = describe(tools_of(ctx.request))
        return types.ListToolsResult(
            tools=[
                types.Tool(name=t["name"], description=t["description"], input_schema=t["inputSchema"]) for t in listed
            ]
        )

    async def call_tool(ctx: Any, params: Any) -> Any:
        output, failed = await call(tools_of(ctx.request), params.name, params.arguments)
        return types.CallToolResult(content=[types.TextContent(type="text", text=output)], is_error=failed)

    return Server("harness-task-tools", on_list_tools=list_tools, on_call_tool=call_tool)
