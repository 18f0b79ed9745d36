"""An agent built with the OpenAI Agents SDK (`pip install openai-agents`), evaluated by the harness as it
would run in production: its model calls go to the harness's gateway and its tools come from the task's
MCP server, so the run is cached, metered per item, and replayable in CI at zero cost.

    pytest evals/recruitment -k "p2i" --agent examples.openai_agents_agent:agent \\
        --model openai/gpt-4.1-mini --judge-model openai/gpt-4.1
    pytest evals/recruitment -k "p2i" --agent examples.openai_agents_agent:agent --cache-mode replay

The harness calls `agent(prompt, system=..., gateway=...)` once per item; `gateway` holds this item's
OpenAI-compatible base URL and key (not a provider's key) and the URL of its tools over MCP. The same
agent as a command (`--agent-cmd`) would read both from its environment: OPENAI_BASE_URL,
OPENAI_API_KEY, HARNESS_MCP_URL.
"""

from __future__ import annotations

import os
from typing import Any

INSTRUCTIONS = (
    "You are a careful research assistant. Use the tools to find and read sources before you answer; "
    "answer only from what you read, and say what you could not find."
)


async def agent(prompt: str, gateway: Any, system: str | None = None) -> str:
    from agents import Agent, ModelSettings, OpenAIChatCompletionsModel, Runner, set_tracing_disabled
    from agents.exceptions import MaxTurnsExceeded
    from agents.mcp import MCPServerStreamableHttp
    from openai import AsyncOpenAI

    set_tracing_disabled(True)  # the SDK would otherwise send traces to OpenAI
    client = AsyncOpenAI(base_url=gateway.base_url, api_key=gateway.api_key, max_retries=0)
    tools = MCPServerStreamableHttp(
        params={"url": gateway.mcp_url, "headers": {"Authorization": f"Bearer {gateway.api_key}"}},
        cache_tools_list=True,
        name="task-tools",
    )
    async with tools:
        listed = await tools.list_tools()
        researcher = Agent(
            name="researcher",
            instructions=system or INSTRUCTIONS,
            # The model name is the gateway's business: it serves the run's --model whatever is asked.
            model=OpenAIChatCompletionsModel(model="harness", openai_client=client),
            mcp_servers=[tools],
            # Search before answering: the first turn must call a tool when the task offers any; the SDK
            # then lets the model choose (reset_tool_choice), so it cannot loop on tools forever. Servers
            # that accept only "auto" or a named function (llama-cpp-python's) get the tool named in
            # EXAMPLE_AGENT_FIRST_TOOL instead of "required".
            model_settings=ModelSettings(
                temperature=0,
                max_tokens=int(os.environ.get("EXAMPLE_AGENT_MAX_TOKENS", "400")),
                tool_choice=(os.environ.get("EXAMPLE_AGENT_FIRST_TOOL") or "required") if listed else None,
            ),
        )
        try:
            result = await Runner.run(researcher, prompt, max_turns=int(os.environ.get("EXAMPLE_AGENT_TURNS", "6")))
        except MaxTurnsExceeded:
            return "I ran out of steps before I could answer."
        return str(result.final_output)
