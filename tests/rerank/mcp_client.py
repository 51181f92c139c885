"""Drive `skillnav mcp` with a re-rank model through the official MCP Python SDK.

Run by tests/rerank/mcp.rs as `python3 mcp_client.py SKILLNAV ROOT WORKDIR QUERY`. WORKDIR
holds `config/config.toml` (the settings, naming the model folder) and gets the cache and
data folders. Calls the server's `search` tool with QUERY and `top_k` 3 and prints one JSON
line: the content hits' ids and signals, and the tool's `rerank` object.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

from mcp import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

BIN, ROOT, WORK, QUERY = sys.argv[1], sys.argv[2], Path(sys.argv[3]), sys.argv[4]
ENV = {
    "SKILLNAV_CONFIG_DIR": str(WORK / "config"),
    "XDG_DATA_HOME": str(WORK / "data"),
    "XDG_CACHE_HOME": str(WORK / "cache"),
    "HOME": str(WORK / "home"),
}


async def main() -> None:
    params = StdioServerParameters(command=BIN, args=["mcp", ROOT], env=ENV)
    async with stdio_client(params) as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        res = await s.call_tool("search", {"query": QUERY, "top_k": 3})
        text = res.content[0].text  # type: ignore[union-attr]
        assert not res.is_error, text
        doc = json.loads(text)
        hits = [[h["id"], h["signals"]] for h in doc["hits"] if h.get("source") != "fuzzy"]
        print(json.dumps({"hits": hits, "rerank": doc.get("rerank")}), flush=True)


asyncio.run(main())
