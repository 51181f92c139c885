#!/usr/bin/env python3
"""Import circles and layering violations in a Rust crate's src/ (stdlib only).

Usage: .ci/check-imports.py [SRC_DIR] [--mod-edges] [--quiet]

Builds the file-level dependency graph of SRC_DIR (default: ./src):

* module tree: src/lib.rs is the crate root; `a.rs` or `a/mod.rs` is module `a`, `a/b.rs`
  is `a::b`; inline `mod name { ... }` blocks are modules living in their file;
* edges: every path in a `use` tree (`use crate::a::{b, c::D}`, `use super::x`,
  `use self::y`, `use child::z` for a child module), and every `crate::`, `super::`,
  `self::` path written in code. A path resolves to the file of the deepest module it
  names: `crate::a::b::Item` -> a/b.rs when that file exists, else a.rs / a/mod.rs;
* `--mod-edges` also adds an edge from a file to each child module it declares with
  `mod name;` (off by default: with it, every child that imports from its parent's
  mod.rs forms a circle with it);
* ignored: comments (doc comments included), string and char literals, and any item
  under `#[cfg(test)]` (so `#[cfg(test)] mod tests { ... }` imports do not count).

Findings (each printed, exit status 1 when there is any):

* every strongly connected component with more than one file (an import circle);
* a file outside src/tui importing crate::tui;
* src/util or src/model importing a higher core module;
* a core module (anything but cli/, tui/, lib.rs, main.rs) importing crate::cli;
* a file under src/tui/state or src/tui/view importing src/tui/update or src/tui/effects
  (docs/ARCHITECTURE.md: state/ is plain data, view/ only reads it).

src/main.rs is a separate binary crate: its `skillnav::` paths resolve into the library.
"""

import os
import re
import sys

IDENT = r"[A-Za-z_][A-Za-z0-9_]*"
CRATE_NAME = "skillnav"
# Modules that src/util and src/model must not import.
HIGHER_CORE = {
    "formats", "index", "tokens", "frontmatter", "skill", "curate", "brief", "cli",
    "tui", "clipboard", "config", "render",
}


# --------------------------------------------------------------------------- lexing


def strip_comments_and_literals(text):
    """Blank out comments, string literals and char literals, keeping newlines and
    offsets, so that later regexes see only code."""
    out = list(text)
    n = len(text)
    i = 0

    def blank(a, b):
        for k in range(a, min(b, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            blank(i, j)
            i = j
        elif c == "/" and nxt == "*":
            depth, j = 1, i + 2
            while j < n and depth:
                if text.startswith("/*", j):
                    depth, j = depth + 1, j + 2
                elif text.startswith("*/", j):
                    depth, j = depth - 1, j + 2
                else:
                    j += 1
            blank(i, j)
            i = j
        elif c in "rb" and re.match(r"(?:br|r)#*\"", text[i:i + 80]) and (
            i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")
        ):
            m = re.match(r"(?:br|r)(#*)\"", text[i:])
            hashes = m.group(1)
            end = text.find('"' + hashes, i + m.end())
            end = n if end < 0 else end + 1 + len(hashes)
            blank(i, end)
            i = end
        elif c == '"' or (c == "b" and nxt == '"' and (i == 0 or not text[i - 1].isalnum())):
            j = i + (2 if c == "b" else 1)
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            blank(i, j + 1)
            i = j + 1
        elif c == "'":
            # A char literal ('x', '\n', '\u{1F600}', '\'') or a lifetime ('a).
            m = re.match(r"'(?:\\u\{[0-9a-fA-F]+\}|\\.|[^\\'\n])'", text[i:])
            if m:
                blank(i, i + m.end())
                i += m.end()
            else:
                i += 1
        else:
            i += 1
    return "".join(out)


def matching_brace(code, open_at):
    """Index just past the `}` matching the `{` at `open_at`."""
    depth = 0
    for k in range(open_at, len(code)):
        if code[k] == "{":
            depth += 1
        elif code[k] == "}":
            depth -= 1
            if depth == 0:
                return k + 1
    return len(code)


CFG_TEST = re.compile(r"#\s*\[\s*cfg\s*\(\s*test\s*\)\s*\]")
ATTR = re.compile(r"\s*#\s*\[[^\]]*\]")


def remove_test_items(code):
    """Blank every item under `#[cfg(test)]`. Returns (code, names of `mod x;` so gated)."""
    gated_mods = set()
    out = list(code)
    pos = 0
    while True:
        m = CFG_TEST.search(code, pos)
        if not m:
            break
        k = m.end()
        while True:  # further attributes on the same item
            a = ATTR.match(code, k)
            if not a:
                break
            k = a.end()
        decl = re.match(r"\s*(?:pub(?:\s*\([^)]*\))?\s+)?mod\s+(" + IDENT + r")\s*;", code[k:])
        if decl:
            gated_mods.add(decl.group(1))
        brace = code.find("{", k)
        semi = code.find(";", k)
        if semi >= 0 and (brace < 0 or semi < brace):
            end = semi + 1
        elif brace >= 0:
            end = matching_brace(code, brace)
        else:
            end = len(code)
        for q in range(m.start(), end):
            if out[q] != "\n":
                out[q] = " "
        pos = end
    return "".join(out), gated_mods


# --------------------------------------------------------------------------- module tree


class Crate:
    """Module paths (tuples) -> file (relative to src), plus inline module spans."""

    def __init__(self, src):
        self.src = src
        self.modules = {}  # tuple path -> rel file
        self.files = {}  # rel file -> tuple path (the file's own module)
        self.code = {}  # rel file -> cleaned code
        self.inline = {}  # rel file -> [(start, end, tuple path)]
        self.test_only = set()  # rel files declared only under #[cfg(test)]
        self.children = {}  # rel file -> [(child name, child rel file)]
        for root, _dirs, names in os.walk(src):
            for name in names:
                if name.endswith(".rs"):
                    rel = os.path.relpath(os.path.join(root, name), src).replace(os.sep, "/")
                    path = self.module_path(rel)
                    if path is not None:
                        self.files[rel] = path
                        if rel != "main.rs":
                            self.modules[path] = rel
        for rel in sorted(self.files):
            with open(os.path.join(src, rel), encoding="utf-8", errors="replace") as f:
                code = strip_comments_and_literals(f.read())
            code, gated = remove_test_items(code)
            self.code[rel] = code
            base = self.files[rel]
            for g in gated:
                child = self.modules.get(base + (g,))
                if child:
                    self.test_only.add(child)
            self.inline[rel] = []
            for im in re.finditer(r"\bmod\s+(" + IDENT + r")\s*\{", code):
                end = matching_brace(code, im.end() - 1)
                self.inline[rel].append((im.start(), end, im.group(1)))
            self.children[rel] = []
            for dm in re.finditer(r"\bmod\s+(" + IDENT + r")\s*;", code):
                child = self.modules.get(base + (dm.group(1),))
                if child:
                    self.children[rel].append((dm.group(1), child))
        # Inline modules become module paths mapped to their file (nesting honoured).
        for rel, spans in self.inline.items():
            for start, _end, _name in spans:
                path = self.module_at(rel, start + 1)
                self.modules.setdefault(path, rel)

    @staticmethod
    def module_path(rel):
        if rel in ("lib.rs", "main.rs"):
            return ()
        parts = rel[:-3].split("/")
        if parts[-1] == "mod":
            parts = parts[:-1]
        return tuple(parts)

    def module_at(self, rel, offset):
        """The module path in effect at `offset` of file `rel` (inline modules nest)."""
        path = self.files[rel]
        for start, end, name in sorted(self.inline.get(rel, [])):
            if start < offset < end:
                path = path + (name,)
        return path

    def resolve(self, rel, offset, segs):
        """File that path `segs` (list of identifiers) written in `rel` points at, or None
        for external crates, std, and paths that leave the crate."""
        here = self.module_at(rel, offset)
        in_bin = rel == "main.rs"
        if not segs:
            return None
        first = segs[0]
        if first == "crate":
            if in_bin:
                return None
            base, rest = (), segs[1:]
        elif first == CRATE_NAME and in_bin:
            base, rest = (), segs[1:]
        elif first in ("super", "self"):
            base, rest = here, segs
            while rest and rest[0] in ("super", "self"):
                if rest[0] == "super":
                    if not base:
                        return None
                    base = base[:-1]
                rest = rest[1:]
        elif not in_bin and here + (first,) in self.modules:
            base, rest = here, segs
        else:
            return None
        best = base
        cur = base
        for s in rest:
            cur = cur + (s,)
            if cur in self.modules:
                best = cur
            else:
                break
        return self.modules.get(best)


# --------------------------------------------------------------------------- use trees


def split_top(s, sep=","):
    parts, depth, cur = [], 0, []
    for ch in s:
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts if p.strip()]


def expand_use(tree, prefix=()):
    """`a::{b, c::{d, e as f}, self, *}` -> [('a','b'), ('a','c','d'), ...]."""
    tree = re.sub(r"\s+", "", tree).lstrip(":")
    out = []
    brace = tree.find("{")
    if brace >= 0 and tree.endswith("}"):
        head = tree[:brace].rstrip(":")
        head_segs = tuple(s for s in head.split("::") if s)
        for part in split_top(tree[brace + 1:-1]):
            out.extend(expand_use(part, prefix + head_segs))
        return out
    segs = [s for s in tree.split("::") if s]
    if segs and segs[-1] == "*":
        segs = segs[:-1]
    if segs and segs[-1] == "self":
        segs = segs[:-1]
    out.append(prefix + tuple(segs))
    return out


def strip_as(tree):
    """Drop `as name` renames (before whitespace removal, where they are unambiguous)."""
    return re.sub(r"\s+as\s+" + IDENT, "", tree)


USE_STMT = re.compile(r"\buse\s+([^;]*);")
CODE_PATH = re.compile(r"(?<![A-Za-z0-9_:])(crate|super|self)((?:\s*::\s*" + IDENT + r")+)")
BIN_PATH = re.compile(r"(?<![A-Za-z0-9_:])(" + CRATE_NAME + r")((?:\s*::\s*" + IDENT + r")+)")


def edges_of(crate, rel, mod_edges):
    code = crate.code[rel]
    found = {}  # target -> first line

    def add(offset, segs):
        target = crate.resolve(rel, offset, list(segs))
        if target and target != rel and target not in crate.test_only:
            line = code.count("\n", 0, offset) + 1
            found.setdefault(target, line)

    for m in USE_STMT.finditer(code):
        for segs in expand_use(strip_as(m.group(1))):
            add(m.start(), segs)
    pat = BIN_PATH if rel == "main.rs" else CODE_PATH
    for m in pat.finditer(code):
        segs = [m.group(1)] + [s for s in re.split(r"\s*::\s*", m.group(2)) if s]
        add(m.start(), segs)
    if mod_edges:
        for _name, child in crate.children[rel]:
            if child not in crate.test_only:
                found.setdefault(child, 0)
    return found


# --------------------------------------------------------------------------- graph


def tarjan(nodes, graph):
    index, low, on, stack, sccs = {}, {}, set(), [], []
    counter = [0]
    sys.setrecursionlimit(10000)

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            sccs.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return sccs


def top(rel):
    """First module segment of a file: 'tui', 'model', ... ('lib'/'main' for the roots)."""
    head = rel.split("/")[0]
    return head[:-3] if head.endswith(".rs") else head


def tui_layer(rel):
    """The TUI layer of a file under src/tui ('state', 'view', 'update', 'effects', ...)."""
    parts = rel.split("/")
    if len(parts) < 3 or parts[0] != "tui":
        return None
    return parts[1]


def layering(rel, target):
    src_top, dst_top = top(rel), top(target)
    src_layer, dst_layer = tui_layer(rel), tui_layer(target)
    if src_layer in ("state", "view") and dst_layer in ("update", "effects"):
        return "tui/%s imports tui/%s (state/ is plain data and view/ only draws it)" % (
            src_layer, dst_layer)
    if src_top == dst_top:
        return None
    if dst_top == "tui" and rel not in ("lib.rs", "main.rs"):
        return "imports crate::tui from outside src/tui"
    if src_top in ("util", "model") and dst_top in HIGHER_CORE:
        return "src/%s imports the higher core module crate::%s" % (src_top, dst_top)
    if dst_top == "cli" and src_top not in ("cli", "tui", "lib", "main"):
        return "core module imports crate::cli"
    return None


def main(argv):
    args = [a for a in argv if not a.startswith("--")]
    mod_edges = "--mod-edges" in argv
    quiet = "--quiet" in argv
    src = args[0] if args else "src"
    if not os.path.isdir(src):
        print("check-imports: no such directory: %s" % src, file=sys.stderr)
        return 2
    crate = Crate(src)
    graph, lines = {}, {}
    for rel in crate.files:
        if rel in crate.test_only:
            continue
        found = edges_of(crate, rel, mod_edges)
        graph[rel] = set(found)
        for t, ln in found.items():
            lines[(rel, t)] = ln
    findings = 0
    circles = [c for c in tarjan(graph.keys(), graph) if len(c) > 1]
    circles.sort(key=lambda c: (-len(c), c))
    for n, comp in enumerate(circles, 1):
        findings += 1
        members = set(comp)
        print("circle %d (%d files):" % (n, len(comp)))
        for f in comp:
            inner = sorted(t for t in graph[f] if t in members)
            print("  src/%s -> %s" % (f, ", ".join("src/" + t for t in inner)))
    for rel in sorted(graph):
        for t in sorted(graph[rel]):
            why = layering(rel, t)
            if why:
                findings += 1
                print("layering: src/%s:%d -> src/%s: %s" % (rel, lines[(rel, t)], t, why))
    if not quiet:
        edges = sum(len(v) for v in graph.values())
        print("check-imports: %d files, %d edges, %d circle(s), %d finding(s)"
              % (len(graph), edges, len(circles), findings), file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
