"""Drive `skillnav mcp` over stdio with the official MCP Python SDK (PyPI `mcp`).

Run by tests/mcp/python.rs as `python3 client.py SKILLNAV FIXTURES WORKDIR`. It copies the
fixtures into WORKDIR, starts the real binary, and checks real values against the CLI:
tools and their hints, search hits and token counts equal to `tree --json`, outline, read
with a cursor, `brief` bytes equal to `skillnav brief`, load_skill equal to `skillnav
render`, SEP-2640 skills/list and skills/get with SHA-256 digests, the exposure contract
(hidden never returned, explicit only by id), prompts from recipes, reload after a file
edit, clean errors for bad input, every tool result validated by the SDK against its
`outputSchema`, and debounced list-changed notifications after files are added. Prints one `ok <check>` line per check; any failure
raises (exit 1).
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Literal

import mcp_types as types
from mcp import ClientSession
from mcp.client.extension import NotificationBinding
from mcp.client.stdio import StdioServerParameters, stdio_client
from pydantic import BaseModel
from mcp.shared.exceptions import MCPError

BIN, FIXTURES, WORK = sys.argv[1], Path(sys.argv[2]), Path(sys.argv[3])
ENV = {"XDG_DATA_HOME": str(WORK / "data"), "XDG_CACHE_HOME": str(WORK / "cache"), "HOME": str(WORK / "home")}


class SkillsList(types.Request[dict[str, Any] | None, Literal["skills/list"]]):
    method: Literal["skills/list"] = "skills/list"
    params: dict[str, Any] | None = None


class SkillsGet(types.Request[dict[str, Any], Literal["skills/get"]]):
    method: Literal["skills/get"] = "skills/get"
    params: dict[str, Any]


class AnyResult(types.Result):
    model_config = {"extra": "allow"}


def ok(what: str) -> None:
    print(f"ok {what}", flush=True)


def check(cond: bool, what: str, detail: Any = "") -> None:
    if not cond:
        raise AssertionError(f"{what}: {detail}")
    ok(what)


def cli(*args: str) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, **ENV}
    return subprocess.run([BIN, *args], capture_output=True, env=env, timeout=120, check=False)


def tree_nodes(paths: list[str]) -> tuple[dict[str, Any], dict[str, Any]]:
    out = cli("tree", *paths, "--json")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    nodes: dict[str, Any] = {}

    def walk(n: dict[str, Any]) -> None:
        nodes[n["id"]] = n
        for c in n.get("children", []):
            walk(c)

    for r in doc["roots"]:
        walk(r)
    return doc, nodes


def text_of(result: types.CallToolResult) -> str:
    return result.content[0].text  # type: ignore[union-attr]


async def call(s: ClientSession, tool: str, **args: Any) -> dict[str, Any]:
    """Call `tool`: the SDK has validated `structuredContent` against the tool's
    `outputSchema` (it raises otherwise); the one text block holds the same object."""
    r = await s.call_tool(tool, args)
    assert not r.is_error, f"{tool}({args}) failed: {text_of(r)}"
    assert len(r.content) == 1, f"{tool}: {len(r.content)} content blocks"
    assert isinstance(r.structured_content, dict), f"{tool}: no structuredContent"
    assert json.loads(text_of(r)) == r.structured_content, f"{tool}: text block differs from structuredContent"
    return r.structured_content


async def brief_text(s: ClientSession, **args: Any) -> str:
    return (await call(s, "brief", **args))["text"]


async def tool_error(s: ClientSession, tool: str, **args: Any) -> str:
    r = await s.call_tool(tool, args)
    assert r.is_error, f"{tool}({args}) should fail, got {text_of(r)[:300]}"
    return text_of(r)


def server(paths: list[str], *extra: str) -> StdioServerParameters:
    return StdioServerParameters(command=BIN, args=["mcp", *paths, *extra], env=ENV)


async def plain_server(paths: list[str]) -> None:
    _, nodes = tree_nodes(paths)
    async with stdio_client(server(paths, "--wait-for-load")) as (r, w), ClientSession(r, w) as s:
        init = await s.initialize()
        check(init.server_info.name == "skillnav", "server info")
        check("notes" in (init.instructions or ""), "instructions list the skills", init.instructions)
        tools = (await s.list_tools()).tools
        names = sorted(t.name for t in tools)
        check(names == ["brief", "load_skill", "outline", "read", "search"], "five tools", names)
        check(all(t.annotations and t.annotations.read_only_hint for t in tools), "read-only hints")
        check(all(t.output_schema and t.output_schema["type"] == "object" for t in tools), "every tool declares an object outputSchema")

        # search: pointers with sizes equal to tree --json
        res = await call(s, "search", query="grep note text", top_k=5)
        hits = res["hits"]
        check(len(hits) > 0 and hits[0]["id"] == "skills/notes/SKILL.md#notes/find", "search finds the Find section", hits[:1])
        for h in hits:
            assert h["tokens"] == nodes[h["id"]]["tokens"], (h["id"], h["tokens"], nodes[h["id"]]["tokens"])
            assert h["bytes"] == nodes[h["id"]]["bytes"]
            assert h["signals"] and h["snippet"] is not None
        ok("search tokens and bytes equal tree --json")
        # The schemas are strict enough to fail: the SDK's validation would catch a drift.
        import jsonschema
        search_schema = next(t.output_schema for t in tools if t.name == "search")
        jsonschema.validate(res, search_schema)
        for broken in [{k: v for k, v in res.items() if k != "hits"}, {**res, "surprise": 1},
                       {**res, "hits": [{**hits[0], "tokens": "many"}]}]:
            try:
                jsonschema.validate(broken, search_schema)
                raise AssertionError(f"the search schema accepted {list(broken)}")
            except jsonschema.ValidationError:
                pass
        ok("the search outputSchema refuses a missing key, an extra key and a wrong type")
        alias = await call(s, "search", question="grep note text", topK=5)
        check([h["id"] for h in alias["hits"]] == [h["id"] for h in hits], "search aliases question/topK")
        cli_hits = json.loads(cli("search", "grep note text", *paths, "--json", "--top-k", "5").stdout)["hits"]
        check(hits[0]["id"] == cli_hits[0]["id"] and hits[0]["score"] == cli_hits[0]["score"], "search agrees with the CLI")
        # A misspelt kind leaves the search empty and is named with the kinds that exist,
        # as `search --json` names it.
        miss = await call(s, "search", query="grep", kind="sectoin")
        cli_miss = json.loads(cli("search", "grep kind:sectoin", *paths, "--json").stdout)["filter_misses"]
        check(miss["hits"] == [] and [m["key"] for m in miss["filter_misses"]] == ["kind"]
              and any(k["value"] == "section" for k in miss["filter_misses"][0]["known"])
              and miss["filter_misses"] == cli_miss, "a misspelt kind is named with the kinds that exist", miss["filter_misses"])

        # outline
        cat = await call(s, "outline")
        skills = [k["name"] for r in cat["roots"] for k in r["skills"]]
        check(sorted(skills) == ["deploy", "hono", "notes"], "outline catalog lists the skills", skills)
        tree_doc, _ = tree_nodes(paths)
        want_always = {r["id"]: r["always_loaded_tokens"] for r in tree_doc["roots"]}
        check({r["id"]: r["always_loaded_tokens"] for r in cat["roots"]} == want_always, "always-loaded tokens equal tree --json")
        o = await call(s, "outline", id="skills/notes", depth=3)
        check(o["node"]["tokens"] == nodes["skills/notes"]["tokens"] and "layers" in o["node"], "outline node tokens and layers")
        kids = [c["id"] for c in o["node"]["children"]]
        check("/SKILL.md" in kids, "outline children continue the node's id", kids)
        scored = await call(s, "outline", id="skills/notes", depth=1, query="record")
        scores = [c["score"] for c in scored["node"]["children"]]
        check(scores == sorted(scores, reverse=True) and scored["node"]["score"] == max(scores + [0]) and scored["node"]["score"] > 0,
              "a query-guided outline orders children by their subtree score", scores)

        # read: whole sections, cursor for the rest
        ids = ["skills/notes/SKILL.md#notes/record", "skills/notes/SKILL.md#notes/find", "skills/notes/references/format.md"]
        full = await call(s, "read", ids=ids)
        check([x["id"] for x in full["sections"]] == ids and full["cursor"] is None, "read three sections")
        for x in full["sections"]:
            assert x["tokens"] == nodes[x["id"]]["tokens"], x["id"]
            assert x["provenance"].startswith(x["id"] + " · ")
        ok("read tokens equal tree --json, one provenance line each")
        two = full["sections"][0]["tokens"] + full["sections"][1]["tokens"]
        part = await call(s, "read", id=ids, max_tokens=two)
        check([x["id"] for x in part["sections"]] == ids[:2] and part["left_out"] == ids[2:] and part["cursor"], "read over budget gives a cursor", part)
        # The cursor keeps the budget of the read that made it: following cursors reads the
        # rest in replies of at most that many tokens.
        cursor, got, budgets = part["cursor"], {}, set()
        for _ in range(50):
            if not cursor:
                break
            rest = await call(s, "read", cursor=cursor)
            budgets.add(rest["max_tokens"])
            for x in rest["sections"]:
                got[x["id"]] = got.get(x["id"], "") + x["text"]
            cursor = rest["cursor"]
        want = {x["id"]: x["text"] for x in full["sections"][2:]}
        check(cursor is None and got == want and budgets == {two}, "cursors read the rest within the first read's budget",
              {"budgets": sorted(budgets), "ids": list(got)})
        whole = (await call(s, "read", ids=["skills/notes/SKILL.md"]))["sections"][0]["text"]
        big = await call(s, "read", ids=["skills/notes/SKILL.md"], max_tokens=10)
        first = big["sections"][0]
        check(len(big["sections"]) == 1 and first["passage"]["from"] == 0 and not first["passage"]["last"]
              and first["tokens"] <= 10 and big["left_out"] == ["skills/notes/SKILL.md"] and big["cursor"],
              "a section over the budget comes in passages", big)
        more = await call(s, "read", cursor=big["cursor"], max_tokens=1000)
        rest = more["sections"][0]
        check(rest["id"] == "skills/notes/SKILL.md" and rest["passage"]["from"] == first["passage"]["to"] and rest["passage"]["last"]
              and first["text"] + rest["text"] == whole and more["cursor"] is None,
              "a cursor read with a larger budget gets the rest, and the passages are the section's text", more)

        # brief: same bytes as skillnav brief
        for args, cli_args in [
            ({"query": "note format"}, ["--query", "note format"]),
            ({"question": "deploy rollback", "top_k": 2, "format": "xml"}, ["--query", "deploy rollback", "--top-k", "2", "--format", "xml"]),
            ({"ids": ["skills/notes/SKILL.md#notes/record"], "query": "notes", "max_tokens": 120, "mode": "extract"},
             ["--select", "skills/notes/SKILL.md#notes/record", "--query", "notes", "--max-tokens", "120", "--mode", "extract"]),
            ({"id": "skills/deploy/SKILL.md", "format": "json"}, ["--select", "skills/deploy/SKILL.md", "--format", "json"]),
        ]:
            got = await brief_text(s, **args)
            want = cli("brief", *paths, *cli_args)
            assert want.returncode == 0, want.stderr
            assert got.encode() == want.stdout, f"brief {args}:\n{got}\n--- cli ---\n{want.stdout.decode()}"
        ok("brief bytes equal skillnav brief (md, xml, json, budget, aliases)")
        b = await brief_text(s, recipe="notes-brief")
        check(b.encode() == cli("brief", *paths, "--recipe", "notes-brief").stdout, "brief(recipe=...) equals skillnav brief --recipe")

        # load_skill: the body of skillnav render, base dir, files
        ls = await call(s, "load_skill", name="notes", args="today")
        rendered = cli("render", str(WORK / "skills" / "notes"), "--args", "today")
        check(ls["body"] + "\n" == rendered.stdout.decode(), "load_skill body equals skillnav render")
        check(Path(ls["base_dir"]) == (WORK / "skills" / "notes").resolve() and ls["files"] == ["SKILL.md", "references/format.md"], "load_skill base dir and files", ls)

        # SEP-2640
        listed = await s.send_request(SkillsList(), AnyResult)
        by_name = {k["frontmatter"]["name"]: k for k in listed.model_extra["skills"]}
        check(sorted(by_name) == ["deploy", "hono", "notes"], "skills/list", sorted(by_name))
        got = await s.send_request(SkillsGet(params={"uri": "skill://notes/SKILL.md"}), AnyResult)
        skill = got.model_extra["skill"]
        files = {f["uri"]: f for f in skill["resources"]}
        disk = (WORK / "skills" / "notes" / "SKILL.md").read_bytes()
        entry = files["skill://notes/SKILL.md"]
        check(entry["digest"] == "sha256:" + hashlib.sha256(disk).hexdigest() and entry["size"] == len(disk), "skills/get digest is the file's SHA-256")
        read = await s.read_resource("skill://notes/references/format.md")
        body = read.contents[0].text  # type: ignore[union-attr]
        ref = files["skill://notes/references/format.md"]
        check("sha256:" + hashlib.sha256(body.encode()).hexdigest() == ref["digest"], "skill:// resource bytes match the digest")
        res_list = await s.list_resources()
        uris = [x.uri for x in res_list.resources]
        check("skillnav://skills/notes/SKILL.md%23notes/find" in [str(u) for u in uris], "sections are skillnav:// resources")
        sec = await s.read_resource("skillnav://skills/notes/SKILL.md%23notes/record")
        check(sec.contents[0].text.startswith("## Record"), "read a section resource")  # type: ignore[union-attr]

        # bad input: errors, never a crash or a hang
        try:
            await s.call_tool("no_such_tool", {})
            raise AssertionError("unknown tool accepted")
        except MCPError:
            ok("unknown tool is a JSON-RPC error")
        e = await tool_error(s, "outline", id="skills/nope")
        check("no node with id" in e, "unknown id is a tool error", e)
        r = await call(s, "read", ids=["skills/nope"])
        check(r["sections"] == [] and r["errors"][0]["id"] == "skills/nope", "read reports unknown ids", r)
        e = await tool_error(s, "read", ids=ids, max_tokens=0)
        check("max_tokens" in e, "max_tokens 0 is a tool error", e)
        huge = await call(s, "read", ids=ids, max_tokens=10**15)
        check(huge["max_tokens"] == 25000 and "limit" in (huge["note"] or ""), "huge max_tokens is capped with a note", huge["note"])
        t0 = time.monotonic()
        e = await tool_error(s, "search", query=" ".join(f"word{i}" for i in range(10_000)))
        check("too long" in e and time.monotonic() - t0 < 30, "a 10,000-word query is a tool error", e)
        for blank in ["", "   "]:
            e = await tool_error(s, "brief", query=blank)
            want = cli("brief", *paths, "--query", blank)
            assert want.returncode == 2 and want.stdout == b"", want
            assert want.stderr.decode() == f"skillnav: {e}\n", (e, want.stderr)
        ok("an empty or blank brief query is refused by the tool and by skillnav brief alike")
        # A structured filter whose key no node has is an error naming the keys there are,
        # never searched as text (`priority:high` typed into the query is text).
        e = await tool_error(s, "search", query="grep", filters={"priority": "high"})
        check("no opened node has the key `priority`" in e and "kind" in e, "an unknown filters key is a tool error", e)
        e = await tool_error(s, "brief")
        want = cli("brief", *paths)
        check(e.startswith("nothing to brief: ") and "a query or ids" in e and want.stderr.decode() == f"skillnav: {e}\n",
              "brief with nothing to brief is refused by the tool and by skillnav brief alike, saying what to pass", (e, want.stderr))
        e = await tool_error(s, "search", query="x", top_k="many")
        check("top_k" in e, "a wrong argument type names the argument", e)
        e = await tool_error(s, "search", query="x", colour="red")
        check("unknown argument" in e, "unknown arguments are refused", e)
        try:
            await s.read_resource("skillnav://skills/nope")
            raise AssertionError("unknown resource accepted")
        except MCPError:
            ok("unknown resource is a JSON-RPC error")

        # reload: edit a file while the server runs
        fmt = WORK / "skills" / "notes" / "references" / "format.md"
        fmt.write_text(fmt.read_text() + "\n## Zebra\n\nZebras stampede across the savanna.\n")
        new_id = "skills/notes/references/format.md#note-format/zebra"
        found = None
        for _ in range(100):
            hits = (await call(s, "search", query="zebras stampede"))["hits"]
            if hits and hits[0]["id"] == new_id:
                found = hits[0]
                break
            await asyncio.sleep(0.1)
        check(found is not None and found["tokens"] == tree_nodes(paths)[1][new_id]["tokens"], "search sees an edited file without restart", found)
        rd = await call(s, "read", ids=[new_id])
        check("savanna" in rd["sections"][0]["text"] and rd["generation"] >= 1, "read serves the new text")
        fmt.write_text(fmt.read_text().split("\n## Zebra")[0])
        gone = None
        for _ in range(100):
            gone = await call(s, "read", ids=[new_id])
            if gone["errors"]:
                break
            await asyncio.sleep(0.1)
        check(gone is not None and gone["errors"] and "no node" in gone["errors"][0]["error"], "a removed section is reported gone", gone)


async def contract_server(paths: list[str]) -> None:
    hidden = "skills/notes/SKILL.md#notes/find"
    recipe = WORK / "contract.json"
    out = cli("recipe", "save", "contract", *paths, "--exposure", f"{hidden}=hidden",
              "--exposure", "skills/deploy=explicit", "--exposure", "hono-mini/hono=hidden",
              "--exposure", "skills/notes/SKILL.md#notes/record=always", "--file", str(recipe))
    assert out.returncode == 0, out.stderr
    async with stdio_client(server(paths, "--recipe", str(recipe), "--wait-for-load")) as (r, w), ClientSession(r, w) as s:
        init = await s.initialize()
        instructions = init.instructions or ""
        check("Write the note with a dated heading" in instructions and "skills/notes/SKILL.md#notes/record" in instructions,
              "always sections are in the instructions", instructions)
        check("with grep" not in instructions and "Rollback" not in instructions, "instructions hold no hidden or explicit text")
        listing = instructions.split("<available_skills>")[1].split("</available_skills>")[0]
        check("<name>\nnotes\n</name>" in listing and "deploy" not in listing and "hono" not in listing,
              "the instructions' listing holds listed skills only", listing)
        hits = (await call(s, "search", query="grep note text"))["hits"]
        check(all(h["id"] != hidden for h in hits), "hidden section is never a search hit", hits)
        rd = await call(s, "read", ids=[hidden])
        check(rd["sections"] == [] and "hidden" in rd["errors"][0]["error"], "hidden section is never read", rd)
        parent = await call(s, "read", ids=["skills/notes/SKILL.md#notes"])
        check("with grep" not in parent["sections"][0]["text"], "a hidden sub-section is cut out of its parent")
        e = await tool_error(s, "outline", id=hidden)
        check("hidden" in e, "hidden section has no outline")
        b = await brief_text(s, query="grep note text")
        check("with grep" not in b and hidden not in b and "Context brief" in b, "hidden text is never in a brief", b)
        explicit = "skills/deploy/SKILL.md#deploy/rollback"
        hits = (await call(s, "search", query="rollback deploy"))["hits"]
        check(all(not h["id"].startswith("skills/deploy") for h in hits), "explicit sections are not search hits", hits)
        rd = await call(s, "read", ids=[explicit])
        check(rd["sections"][0]["id"] == explicit and rd["sections"][0]["exposure"] == "explicit", "explicit section is served by id")
        listed = await s.send_request(SkillsList(), AnyResult)
        names = sorted(k["frontmatter"]["name"] for k in listed.model_extra["skills"])
        check(names == ["notes"], "skills/list leaves out explicit and hidden skills", names)
        got = await s.send_request(SkillsGet(params={"uri": "skill://deploy/SKILL.md"}), AnyResult)
        check(got.model_extra["skill"]["frontmatter"]["name"] == "deploy", "skills/get serves an explicit skill")
        try:
            await s.send_request(SkillsGet(params={"uri": "skill://hono/SKILL.md"}), AnyResult)
            raise AssertionError("hidden skill served")
        except MCPError:
            ok("skills/get never serves a hidden skill")
        e = await tool_error(s, "load_skill", name="hono")
        check("no skill" in e, "load_skill never loads a hidden skill")
        uris = [str(x.uri) for x in (await s.list_resources()).resources]
        check(not any("hono" in u or "find" in u for u in uris), "hidden skills and sections are not resources")


async def prompts_server(paths: list[str]) -> None:
    out = cli("recipe", "save", "notes-brief", *paths, "--select", "skills/notes/SKILL.md#notes/record", "--max-tokens", "500")
    assert out.returncode == 0, out.stderr
    async with stdio_client(server(paths, "--max-result-tokens", "40")) as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        fmt = "skills/notes/references/format.md"
        disk = (WORK / "skills" / "notes" / "references" / "format.md").read_text()
        got, args, calls = "", {"ids": [fmt], "max_tokens": 1000}, 0
        while True:
            part = await call(s, "read", **args)
            assert part["max_tokens"] == 40 and all(x["tokens"] <= 40 for x in part["sections"]), part
            got += "".join(x["text"] for x in part["sections"])
            calls += 1
            if not part["cursor"]:
                break
            args = {"cursor": part["cursor"]}
        check(got == disk and calls >= 2, "a section over the server cap comes in passages that equal the file", (calls, got))
        res, uri, rcalls = "", f"skillnav://{fmt}", 0
        while uri:
            r = await s.read_resource(uri)
            res += r.contents[0].text  # type: ignore[union-attr]
            meta = r.contents[0].meta or {}
            uri = (meta.get("skillnav/passage") or {}).get("next")
            rcalls += 1
        check(res == disk and rcalls >= 2, "resources/read over the server cap comes in passages with the next URI", rcalls)
        # Typed results at the edges of the caps: each validated against its outputSchema.
        cut = await call(s, "search", query="note format record", top_k=20)
        check(cut["left_out"] > 0 and isinstance(cut["next"], str) and cut["next"], "a cut search validates: left_out and next", cut)
        body = await call(s, "load_skill", name="notes")
        check(body["passage"]["from"] == 0 and not body["passage"]["last"] and body["next_offset"] == body["passage"]["to"],
              "a load_skill body in passages validates", body)
        packed = await call(s, "brief", query="note format")
        check("packed under" in (packed["note"] or "") and packed["left_out"] and packed["left_out"][0] in packed["text"],
              "a brief packed again validates, its note and left-out ids in the object", packed)
        names = [p.name for p in (await s.list_prompts()).prompts]
        check(names == ["notes-brief"], "recipes are prompts", names)
        got = await s.get_prompt("notes-brief")
        want = cli("brief", *paths, "--recipe", "notes-brief")
        check(got.messages[0].content.text.encode() == want.stdout, "a prompt expands to the recipe's brief")  # type: ignore[union-attr]


class NoParams(BaseModel):
    model_config = {"extra": "allow"}


SKILLS_CHANGED = "notifications/skills/list_changed"
RESOURCES_CHANGED = "notifications/resources/list_changed"
PROMPTS_CHANGED = "notifications/prompts/list_changed"


async def wait_for(got: list[str], want: set[str], seconds: float) -> float:
    """Seconds until every method in `want` is in `got` (raises after `seconds`)."""
    t0 = time.monotonic()
    while not want <= set(got):
        if time.monotonic() - t0 > seconds:
            raise AssertionError(f"after {seconds} s only {got}, want {sorted(want)}")
        await asyncio.sleep(0.05)
    return time.monotonic() - t0


async def notifications_server() -> None:
    """List-changed notifications: a client with a message handler (and a binding for the
    skills method, which the SDK does not know) hears of new skills, files and recipes,
    lists again and sees them; a burst of writes is one notification per list."""
    live = WORK / "live"
    shutil.copytree(FIXTURES / "curate" / "skills", live)
    got: list[str] = []

    async def on_message(m: Any) -> None:
        method = getattr(m, "method", None)
        if method:
            got.append(method)

    async def on_skills(_: NoParams) -> None:
        got.append(SKILLS_CHANGED)

    binding = NotificationBinding(method=SKILLS_CHANGED, params_type=NoParams, handler=on_skills)
    async with stdio_client(server([str(live)])) as (r, w), \
            ClientSession(r, w, message_handler=on_message, notification_bindings=[binding]) as s:
        init = await s.initialize()
        caps = init.capabilities
        skills_caps = (caps.extensions or {}).get("io.modelcontextprotocol/skills") or {}
        check(caps.resources.list_changed and caps.prompts.list_changed and skills_caps.get("listChanged") is True
              and skills_caps.get("directoryRead") is True, "listChanged declared for resources, prompts and skills", caps)

        # Writing a file's own bytes again changes no list: nothing is sent.
        notes = live / "notes" / "SKILL.md"
        notes.write_bytes(notes.read_bytes())
        await asyncio.sleep(1.0)
        check(got == [], "a write that changes no list sends nothing", got)

        # A new skill: the resources and skills lists change; the prompts list does not.
        (live / "zebra").mkdir()
        (live / "zebra" / "SKILL.md").write_text("---\nname: zebra\ndescription: Herd zebras across the savanna.\n---\n\n# Zebra\n\nStripes.\n")
        took = await wait_for(got, {RESOURCES_CHANGED, SKILLS_CHANGED}, 5.0)
        check(took < 3.0 and PROMPTS_CHANGED not in got, "a new skill is announced within 3 s, prompts untouched", (took, got))
        listed = await s.send_request(SkillsList(), AnyResult)
        names = sorted(k["frontmatter"]["name"] for k in listed.model_extra["skills"])
        uris = [str(x.uri) for x in (await s.list_resources()).resources]
        check("zebra" in names and "skill://zebra/SKILL.md" in uris, "listing again shows the new skill and its file", (names, uris[:5]))

        # A new markdown file in a skill folder: a new resource.
        got.clear()
        (live / "notes" / "references" / "stripes.md").write_text("# Stripes\n\nEvery zebra has its own.\n")
        await wait_for(got, {RESOURCES_CHANGED, SKILLS_CHANGED}, 5.0)
        uris = [str(x.uri) for x in (await s.list_resources()).resources]
        check("skill://notes/references/stripes.md" in uris and "skillnav://live/notes/references/stripes.md%23stripes" in uris,
              "a new markdown file is listed after its notification", [u for u in uris if "stripes" in u])

        # A new recipe in the recipes folder: the prompts list changes.
        got.clear()
        out = cli("recipe", "save", "live-brief", str(live), "--select", "live/notes/SKILL.md")
        assert out.returncode == 0, out.stderr
        await wait_for(got, {PROMPTS_CHANGED}, 5.0)
        names = [p.name for p in (await s.list_prompts()).prompts]
        check("live-brief" in names and RESOURCES_CHANGED not in got, "a saved recipe is announced as a prompts change", (names, got))

        # A burst of quick writes: one notification per list, not one per write.
        got.clear()
        for i in range(8):
            (live / "notes" / "references" / f"burst-{i}.md").write_text(f"# Burst {i}\n\nText {i}.\n")
            await asyncio.sleep(0.03)
        await wait_for(got, {RESOURCES_CHANGED, SKILLS_CHANGED}, 5.0)
        await asyncio.sleep(1.0)
        check(got.count(RESOURCES_CHANGED) == 1 and got.count(SKILLS_CHANGED) == 1 and PROMPTS_CHANGED not in got,
              "eight quick writes send one notification per changed list", got)
        uris = [str(x.uri) for x in (await s.list_resources()).resources]
        check(all(f"skill://notes/references/burst-{i}.md" in uris for i in range(8)), "every file of the burst is listed")


async def lazytools_server() -> None:
    bundle = [str(FIXTURES / "lazytools" / "hono-docs")]
    async with stdio_client(server(bundle)) as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        for args, cli_args in [
            ({"query": "middleware", "format": "lazytools"}, ["--query", "middleware", "--format", "lazytools"]),
            ({"task": "routing", "format": "lazytools", "mode": "extract", "top_k": 3, "max_chars": 2000},
             ["--query", "routing", "--format", "lazytools", "--mode", "extract", "--top-k", "3", "--max-chars", "2000"]),
        ]:
            got = await brief_text(s, **args)
            want = cli("brief", *bundle, *cli_args)
            assert want.returncode == 0, want.stderr
            assert got.encode() == want.stdout, f"brief {args}:\n{got}\n--- cli ---\n{want.stdout.decode()}"
        ok("brief format=lazytools equals skillnav brief --format lazytools (query_skill)")


async def main() -> None:
    shutil.copytree(FIXTURES / "curate" / "skills", WORK / "skills")
    shutil.copytree(FIXTURES / "curate" / "hono-mini", WORK / "hono-mini")
    paths = [str(WORK / "skills"), str(WORK / "hono-mini")]
    await contract_server(paths)
    await prompts_server(paths)
    await plain_server(paths)
    await lazytools_server()
    await notifications_server()
    print("all checks passed", flush=True)


asyncio.run(main())
