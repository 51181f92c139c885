"""Drive `skillnav mcp --http` with the official MCP Python SDK's streamable HTTP client.

Run by tests/mcp/http.rs as `python3 http_client.py SKILLNAV FIXTURES WORKDIR MODE`. It
copies the fixtures into WORKDIR, starts the real binary on a loopback port the server
picks (`--http 127.0.0.1:0`, the port read back from the `serving` line on stderr), and
checks real values. MODE is one of:

* `basic`: initialize, tools/list, a search equal to the CLI's, resources/list; two
  sessions at once share one workspace; `--http 0` and `[::1]:0` forms; SIGTERM exits 0.
* `auth`: with `--token-file`, a request without a token or with a wrong one is refused
  401 with `WWW-Authenticate: Bearer` and logged on stderr (never the token); the right
  token is served; `0.0.0.0` with a token is served; a token file others can read warns.
* `load`: 20 concurrent clients x 50 requests = 1,000 requests, every one answered, and
  the server's resident memory (VmRSS) before and after; prints `rss_kb ...`.

Prints one `ok <check>` line per check and `all checks passed`; any failure raises.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

from mcp import ClientSession
from mcp.client.streamable_http import create_mcp_http_client, streamable_http_client

BIN, FIXTURES, WORK, MODE = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3]), sys.argv[4]
ENV = {"XDG_DATA_HOME": str(WORK / "data"), "XDG_CACHE_HOME": str(WORK / "cache"), "HOME": str(WORK / "home")}
FIND_ID = "skills/notes/SKILL.md#notes/find"
TOKEN = "s3cret-team-token"


def ok(what: str) -> None:
    print(f"ok {what}", flush=True)


def check(cond: bool, what: str, detail: Any = "") -> None:
    if not cond:
        raise AssertionError(f"{what}: {detail}")
    ok(what)


class Server:
    """`skillnav mcp --http ...` as a child; stderr collected on a thread."""

    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [BIN, "mcp", *args],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env={**os.environ, **ENV},
            text=True,
        )
        self.lines: list[str] = []
        self.url = ""
        self.bound = threading.Event()
        threading.Thread(target=self._drain, daemon=True).start()
        if not self.bound.wait(120):
            self.proc.kill()
            raise AssertionError(f"no `serving` line within 120 s: {self.lines}")

    def _drain(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            self.lines.append(line.rstrip("\n"))
            m = re.match(r"skillnav mcp: serving (http://\S+/mcp)$", line.strip())
            if m:
                self.url = m.group(1)
                self.bound.set()
        self.bound.set()

    def rss_kb(self) -> int:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        raise AssertionError("no VmRSS")

    def stop(self) -> int:
        """SIGTERM, then the exit status (the server must stop within 15 s)."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            return self.proc.wait(15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            raise AssertionError(f"still running 15 s after SIGTERM: {self.lines}") from None


@asynccontextmanager
async def session(url: str, token: str | None = None) -> AsyncIterator[ClientSession]:
    headers = {"Authorization": f"Bearer {token}"} if token else None
    async with create_mcp_http_client(headers=headers) as http:
        async with streamable_http_client(url, http_client=http) as streams:
            async with ClientSession(streams[0], streams[1]) as s:
                await s.initialize()
                yield s


async def call(s: ClientSession, tool: str, **args: Any) -> dict[str, Any]:
    r = await s.call_tool(tool, args)
    text = r.content[0].text  # type: ignore[union-attr]
    assert not r.is_error, f"{tool}({args}) failed: {text}"
    return json.loads(text)


INITIALIZE = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "raw", "version": "0"}}}).encode()


def raw_post(url: str, headers: dict[str, str], body: bytes = INITIALIZE) -> tuple[int, dict[str, str], str]:
    """One POST without the SDK (an initialize unless `body` is given): (status, headers, body)."""
    req = urllib.request.Request(url, data=body, method="POST", headers={
        "Content-Type": "application/json", "Accept": "application/json, text/event-stream", **headers})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, dict(r.headers), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, dict(e.headers), e.read().decode()


def cli_search(paths: list[str], query: str) -> list[dict[str, Any]]:
    out = subprocess.run([BIN, "search", query, *paths, "--json", "--top-k", "5"],
                         capture_output=True, env={**os.environ, **ENV}, timeout=120, check=True)
    return json.loads(out.stdout)["hits"]


def ipv6_loopback() -> bool:
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


async def basic(paths: list[str]) -> None:
    srv = Server(*paths, "--http", "127.0.0.1:0")
    m = re.fullmatch(r"http://127\.0\.0\.1:(\d+)/mcp", srv.url)
    check(m is not None and int(m.group(1)) > 0, "port 0 prints the port picked", srv.url)
    async with session(srv.url) as s:
        tools = sorted(t.name for t in (await s.list_tools()).tools)
        check(tools == ["brief", "load_skill", "outline", "read", "search"], "tools/list over HTTP", tools)
        hits = (await call(s, "search", query="grep note text", top_k=5))["hits"]
        cli = cli_search(paths, "grep note text")
        check(hits[0]["id"] == FIND_ID and hits[0]["id"] == cli[0]["id"] and hits[0]["score"] == cli[0]["score"],
              "search over HTTP agrees with the CLI", hits[:1])
        uris = [r.uri for r in (await s.list_resources()).resources]
        check("skill://notes/SKILL.md" in uris and any(u.startswith("skillnav://") for u in uris),
              "resources/list over HTTP", uris[:5])
        async with session(srv.url) as t:
            a, b = await asyncio.gather(call(s, "search", query="deploy"), call(t, "search", query="deploy"))
            check(a["hits"] == b["hits"] and a["generation"] == b["generation"], "two sessions share one workspace")
    malformed_bodies(srv.url)
    status = srv.stop()
    check(status == 0 and "skillnav mcp: stopping" in srv.lines, "SIGTERM stops the server cleanly", (status, srv.lines))

    srv = Server(*paths, "--http", "0")
    check(re.fullmatch(r"http://127\.0\.0\.1:\d+/mcp", srv.url) is not None, "--http PORT binds 127.0.0.1", srv.url)
    srv.stop()
    if ipv6_loopback():
        srv = Server(*paths, "--http", "[::1]:0")
        check(re.fullmatch(r"http://\[::1\]:\d+/mcp", srv.url) is not None, "--http [::1]:0 binds IPv6 loopback", srv.url)
        async with session(srv.url) as s:
            check((await call(s, "search", query="grep note text"))["hits"][0]["id"] == FIND_ID, "search over IPv6 loopback")
        srv.stop()
    else:
        print("skipped: no IPv6 loopback here", flush=True)


def malformed_bodies(url: str) -> None:
    """Malformed JSON-RPC bodies get 400 and the JSON-RPC error, as on stdio."""
    for body, code, rid, what in [
        (b"{bad", -32700, None, "a body that is not JSON: 400, -32700, id null"),
        (b"   ", -32700, None, "an empty body: 400, -32700, id null"),
        (b"[]", -32600, None, "a batch: 400, -32600, id null"),
        (b'{"jsonrpc": "2.0", "id": 7}', -32600, 7, "JSON that is no message: 400, -32600, its id"),
        (b'{"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {}}', -32602, 3,
         "resources/read without uri: 400, -32602, its id"),
    ]:
        status, headers, text = raw_post(url, {}, body)
        reply = json.loads(text) if text.startswith("{") else {}
        check(status == 400 and reply.get("id", "absent") == rid and reply.get("error", {}).get("code") == code
              and headers.get("content-type", headers.get("Content-Type")) == "application/json",
              what, (status, headers, text))
    status, _, text = raw_post(url, {}, b'{"jsonrpc": "2.0", "method": "notifications/nonsense", "params": 5}')
    check(status == 202 and text == "", "an unreadable notification: 202, never answered", (status, text))
    status, _, _ = raw_post(url, {})
    check(status == 200, "a well-formed initialize after them: 200", status)


async def auth(paths: list[str]) -> None:
    token_file = WORK / "token"
    token_file.write_text(f"  {TOKEN}\n")
    token_file.chmod(0o600)
    srv = Server(*paths, "--http", "127.0.0.1:0", "--token-file", str(token_file))
    check(not any("readable by other users" in l for l in srv.lines), "a 0600 token file draws no warning", srv.lines)
    status, headers, _ = raw_post(srv.url, {})
    check(status == 401 and headers.get("www-authenticate", headers.get("WWW-Authenticate")) == "Bearer",
          "no token: 401 with WWW-Authenticate: Bearer", (status, headers))
    status, headers, _ = raw_post(srv.url, {"Authorization": "Bearer not-the-token"})
    check(status == 401 and "Bearer" in headers.get("www-authenticate", headers.get("WWW-Authenticate", "")),
          "wrong token: 401", (status, headers))
    status, _, _ = raw_post(srv.url, {"Authorization": f"Bearer {TOKEN}"})
    check(status == 200, "the right token: 200", status)
    async with session(srv.url, TOKEN) as s:
        hits = (await call(s, "search", query="grep note text"))["hits"]
        check(hits[0]["id"] == FIND_ID, "the SDK with the token searches", hits[:1])
    srv.stop()
    refused = [l for l in srv.lines if l.startswith("skillnav mcp: refused POST /mcp from 127.0.0.1:")]
    check(len(refused) == 2 and refused[0].endswith(": no bearer token (401)")
          and refused[1].endswith(": wrong bearer token (401)"), "each refusal is logged on stderr", srv.lines)
    check(not any(TOKEN in l or "not-the-token" in l for l in srv.lines), "the log never shows a token", srv.lines)

    token_file.chmod(0o644)
    srv = Server(*paths, "--http", "0.0.0.0:0", "--token-file", str(token_file))
    check(any("readable by other users" in l for l in srv.lines), "a token file others can read warns", srv.lines)
    port = srv.url.rsplit(":", 1)[1].split("/")[0]
    check(srv.url == f"http://0.0.0.0:{port}/mcp", "0.0.0.0 with a token serves", srv.url)
    async with session(f"http://127.0.0.1:{port}/mcp", TOKEN) as s:
        check(len((await s.list_tools()).tools) == 5, "a non-loopback bind answers with the token")
    check(raw_post(f"http://127.0.0.1:{port}/mcp", {})[0] == 401, "a non-loopback bind refuses no token")
    srv.stop()


async def client_run(url: str, n: int, ids: list[str]) -> int:
    """One client: `n` requests (search, read, outline, tools/list in turn), each checked."""
    answered = 0
    async with session(url) as s:
        for i in range(n):
            k = i % 4
            if k == 0:
                assert (await call(s, "search", query="grep note text"))["hits"][0]["id"] == FIND_ID
            elif k == 1:
                assert (await call(s, "read", ids=[ids[i % len(ids)]]))["sections"]
            elif k == 2:
                assert (await call(s, "outline"))["roots"]
            else:
                assert len((await s.list_tools()).tools) == 5
            answered += 1
    return answered


async def load(paths: list[str]) -> None:
    srv = Server(*paths, "--http", "127.0.0.1:0")
    async with session(srv.url) as s:
        ids = [h["id"] for h in (await call(s, "search", query="note", top_k=8))["hits"]]
    await client_run(srv.url, 50, ids)  # warm-up: lazy tables and caches
    before = srv.rss_kb()
    t0 = time.monotonic()
    counts = await asyncio.gather(*(client_run(srv.url, 50, ids) for _ in range(20)))
    secs = time.monotonic() - t0
    after = srv.rss_kb()
    counts2 = await asyncio.gather(*(client_run(srv.url, 50, ids) for _ in range(20)))
    after2 = srv.rss_kb()
    print(f"rss_kb before={before} after={after} after_second_round={after2} "
          f"requests={sum(counts)} clients=20 seconds={secs:.2f}", flush=True)
    check(sum(counts) == 1000 and sum(counts2) == 1000, "1,000 requests from 20 concurrent clients all answered", counts)
    check(after - before < 30 * 1024, "RSS grows less than 30 MB over 1,000 requests", (before, after))
    check(after2 - after < 10 * 1024, "a second 1,000 requests grow RSS less than 10 MB", (after, after2))
    check(srv.stop() == 0, "SIGTERM after the load exits 0")


async def main() -> None:
    shutil.copytree(FIXTURES / "curate" / "skills", WORK / "skills")
    shutil.copytree(FIXTURES / "curate" / "hono-mini", WORK / "hono-mini")
    paths = [str(WORK / "skills"), str(WORK / "hono-mini")]
    await {"basic": basic, "auth": auth, "load": load}[MODE](paths)
    print("all checks passed", flush=True)


asyncio.run(main())
