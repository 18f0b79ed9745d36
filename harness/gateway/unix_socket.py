"""The gateway on a Unix socket, for sandboxes without a network (`--agent-network gateway`).

The sandbox binds the socket at `harness.sandbox.GATEWAY_SOCKET`; this relays each connection to the gateway's
port on 127.0.0.1, holding one item to its share of connections.
"""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Any

from harness.gateway.connections import turn_away


async def serve_gateway_socket(path: Path, port: int, limit: int | None = None, notices: Any = None) -> asyncio.Server:
    """The gateway on a Unix socket, for sandboxes without a network (`--agent-network gateway`): each
    connection is relayed to the gateway's port on 127.0.0.1. `limit`: how many connections it relays at
    once (one item's socket: its share of the harness's descriptors); one more is told why (HTTP 503) and
    closed, and `notices` (harness.gateway.connections.Notices) counts it."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    live = [0]

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if limit is not None and live[0] >= limit:
            if notices is not None:
                notices.note("item-connections", f"the model gateway refused connections of items that held "
                             f"{limit} already (one item's share)")  # fmt: skip
            turn_away(writer.transport, f"this item holds {limit} connections to the gateway, the most one item "
                      "may: reuse them, or close some")  # fmt: skip
            return
        live[0] += 1
        try:
            await _relay(reader, writer, port)
        finally:
            live[0] -= 1

    return await asyncio.start_unix_server(serve, path=str(path))


async def _relay(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, port: int) -> None:
    try:
        upstream_reader, upstream_writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        writer.close()
        return
    try:
        await asyncio.gather(_pipe(reader, upstream_writer), _pipe(upstream_reader, writer))
    finally:
        writer.close()
        upstream_writer.close()


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    with contextlib.suppress(OSError):
        while chunk := await reader.read(65536):
            writer.write(chunk)
            await writer.drain()
        if writer.can_write_eof():
            writer.write_eof()
