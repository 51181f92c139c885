#!/usr/bin/env python3
"""Rewrite design-document cites and drop issue references in comments (stdlib only).

Usage: .ci/rewrite-cites.py [--check] PATH...      (default PATH: src tests benches)

In every `.rs` file under PATH, only the text of `//` comments (`//`, `///`, `//!`, also
trailing ones) is edited; code, string literals and block comments are left alone. In
`.py` files, `#` comments and the module docstring are edited. Other files are not
touched; cites found in them are listed as not rewritten.

Rewrites (idempotent: running it twice changes nothing the second time):

* `DESIGN §N`, `DESIGN.md §N`, bare `DESIGN.md`      -> `docs/DESIGN.md §N`, `docs/DESIGN.md`
* `FORMATS §N`, `FORMATS.md §N`, bare `FORMATS.md`   -> `docs/FORMATS.md …`
* `FORMATS-2 loaders` -> `loaders`; `FORMATS/`x``   -> ``x``
* `(…, STYLE habit 2)` -> `(…)` (the style notes are not in the repository)
* issue references are removed so that the sentence still reads:
  `Curated briefs (issue 5 parts 2, 3, 5): …`  -> `Curated briefs: …`
  `(issue 5 part 2, DESIGN.md §5)`              -> `(docs/DESIGN.md §5)`
  `(`p`, issue 5 §5)`                           -> `(`p`)`
  `(… rules; issue 4: "quoted correctly", …`    -> `(… rules; the goal: "quoted correctly", …`
  `Issue 4: keep the BOM`                       -> `Keep the BOM`

With --check nothing is written; the files that would change are listed. Every comment
line still holding an issue number or a bare DESIGN/FORMATS cite afterwards is printed as
"not rewritten". With --docs DIR (default: ./docs when it exists) every `§N` cited in the
rewritten comments must be a numbered heading (`## N.`, `### N.M`) of DIR/DESIGN.md or
DIR/FORMATS.md; missing ones are printed. The exit status is 1 when anything was printed
under "not rewritten" or "missing".
"""

import os
import re
import sys

# An issue reference: `issue 5`, `issue #5`, `issue 5 part 7`, `issue 5 parts 2, 3, 5`,
# `issue 5 §3, §5, §6`, `issue 4 §5, §7`.
ISSUE = r"[Ii]ssue #?\d+(?:(?: parts?| §) ?\d+(?:\.\d+)*(?:, ?§?\d+(?:\.\d+)*)*)?"
# ... optionally followed by a quote of what it asked: `: "a", "b"`.
ISSUE_QUOTED = ISSUE + r'(?:: "[^"]*"(?:, "[^"]*")*)?'
LEFT_ISSUE = re.compile(r"\b[Ii]ssue #?\d+")
LEFT_DOC = re.compile(r"(?<![\w/.:`-])(?:DESIGN|FORMATS)\b(?!`)|\bSTYLE habit|\bLAYOUT\.md")


def rewrite_docs(text):
    """DESIGN/FORMATS cites -> docs/DESIGN.md / docs/FORMATS.md; cites of the team's style
    notes (`STYLE habit 2`), which the repository does not hold, are dropped."""
    text = re.sub(r"[;,] STYLE habit \d+(?=\))", "", text)
    text = re.sub(r" ?\(STYLE habit \d+\)", "", text)
    text = text.replace("The separator is ASCII on purpose: DESIGN.md writes",
                        "The separator is ASCII on purpose: the first design wrote")
    text = re.sub(r"(?<![\w/.-])FORMATS/(?=`)", "", text)
    text = re.sub(r"(?<![\w/.-])FORMATS-2(?: |$)", "", text)
    text = re.sub(r"(?<![\w/.-])(DESIGN|FORMATS)\.md\b", r"docs/\1.md", text)
    text = re.sub(r"(?<![\w/.-])(DESIGN|FORMATS)(?= ?§)", r"docs/\1.md", text)
    # A cite broken over two lines: `(FORMATS` then `§1.4)` on the next comment line.
    text = re.sub(r"(?<![\w/.-])(DESIGN|FORMATS)(?=\s*$)", r"docs/\1.md", text)
    return text


def drop_issue_in_parens(text):
    """Remove issue references inside `( … )` groups of one line."""

    def fix(m):
        inner = m.group(1)
        if not re.search(ISSUE, inner):
            return m.group(0)
        # Issue + quote as the group's only content: drop the group.
        if re.fullmatch(r"\s*" + ISSUE_QUOTED + r"\s*", inner):
            return "\0"
        # Issue followed by a separator: drop both. Else a separator then the issue.
        inner = re.sub(ISSUE + r"(?!:)[;,] (?![§\d])", "", inner)
        inner = re.sub(r"[;,] " + ISSUE + r"(?![\w:])", "", inner)
        return "(" + inner + ")"

    text = re.sub(r"\(([^()]*)\)", fix, text)
    # A dropped group takes the space before it with it.
    text = re.sub(r" ?\0", "", text)
    return text


def drop_issue(text):
    text = drop_issue_in_parens(text)
    # `Issue 4: keep …` at the start of the comment text.
    text = re.sub(r"^(\s*)" + ISSUE + r"[:.,] ?(\w?)",
                  lambda m: m.group(1) + m.group(2).upper(), text)
    # An issue quote inside a group that continues on the next line:
    # `(… rules; issue 4: "quoted correctly", "never` -> `(… rules; the goal: "quoted …`.
    text = re.sub(r"([;,(] ?)" + ISSUE + r': (?=")', r"\1the goal: ", text)
    # `(issue 5 part 3` opening a group that continues on the next line.
    text = re.sub(r"\(" + ISSUE + r"[;,] ", "(", text)
    return text


def rewrite_comment(body):
    """`body` is the comment text after its `//`, `///` or `//!` marker."""
    new = drop_issue(rewrite_docs(body))
    return new.rstrip() if new != body else body


CITE = re.compile(
    r"docs/(DESIGN|FORMATS)\.md((?:,?\s*§\d+(?:\.\d+)*(?:[–-]\d+(?:\.\d+)*)?)*)"
)
SECTION = re.compile(r"§(\d+(?:\.\d+)*)(?:[–-](\d+(?:\.\d+)*))?")
COMMENTS = []  # comment bodies after rewriting, per file, for the heading check


def cited_sections(text):
    """(doc, number) for every section cited in `text`; ranges expand (`§2.1–2.3`)."""
    out = set()
    for m in CITE.finditer(text):
        for a, b in SECTION.findall(m.group(2)):
            a = a.rstrip(".")
            out.add((m.group(1), a))
            if b:
                pa, pb = a.split("."), b.split(".")
                if len(pa) == len(pb) and pa[:-1] == pb[:-1]:
                    for k in range(int(pa[-1]) + 1, int(pb[-1]) + 1):
                        out.add((m.group(1), ".".join(pa[:-1] + [str(k)])))
                else:
                    out.add((m.group(1), b))
    return out


def doc_headings(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None
    return set(re.findall(r"(?m)^#{1,6}\s+(\d+(?:\.\d+)*)\.?\s", text))


def leftover(body):
    return LEFT_ISSUE.search(body) or LEFT_DOC.search(body)


# --------------------------------------------------------------------------- Rust


def line_comment_spans(text):
    """(start, end) of every `//` comment in Rust source, skipping strings and chars."""
    spans = []
    n = len(text)
    i = 0
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "/" and nxt == "/":
            j = text.find("\n", i)
            j = n if j < 0 else j
            spans.append((i, j))
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
            i = j
        elif c in "rb" and re.match(r"(?:br|r)#*\"", text[i:i + 80]) and (
            i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")
        ):
            m = re.match(r"(?:br|r)(#*)\"", text[i:])
            hashes = m.group(1)
            end = text.find('"' + hashes, i + m.end())
            i = n if end < 0 else end + 1 + len(hashes)
        elif c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        elif c == "'":
            m = re.match(r"'(?:\\u\{[0-9a-fA-F]+\}|\\.|[^\\'\n])'", text[i:])
            i += m.end() if m else 1
        else:
            i += 1
    return spans


LIMIT = 100  # longest comment line the reflow leaves (the target rustfmt max_width)
PREFIX = re.compile(r"^(\s*//[/!]?\s?)(.*)$")
NOT_PROSE = re.compile(r"^(?:[-*+] |\d+[.)] |\||```|#|\s|$)")


def reflow(lines, changed):
    """Re-wrap comment paragraphs whose changed lines grew past LIMIT: overflowing words
    move to the start of the next line of the same paragraph, or onto a new line."""
    k = 0
    fence = False
    out = []
    pending = set(changed)
    while k < len(lines):
        line = lines[k]
        m = PREFIX.match(line)
        if m and "```" in m.group(2):
            fence = not fence
        if m and not fence and k in pending and len(line) > LIMIT:
            prefix, body = m.group(1), m.group(2)
            cut = line.rfind(" ", len(prefix) + 1, LIMIT + 1)
            if cut > len(prefix):
                head, tail = line[:cut], line[cut + 1:]
                nxt = lines[k + 1] if k + 1 < len(lines) else None
                nm = PREFIX.match(nxt) if nxt is not None else None
                if nm and nm.group(1) == prefix and not NOT_PROSE.match(nm.group(2)):
                    lines[k + 1] = prefix + tail + " " + nm.group(2)
                else:
                    cont = prefix + ("  " if re.match(r"[-*+] ", body) else "")
                    lines.insert(k + 1, cont + tail)
                    pending = {j + 1 if j > k else j for j in pending}
                pending.add(k + 1)
                line = head
        out.append(line)
        k += 1
    return out


def rewrite_rust(text, report, rel):
    text = _rewrite_rust(text, report, rel)
    return text


def _rewrite_rust(text, report, rel):
    changed = set()
    out, last = [], 0
    for start, end in line_comment_spans(text):
        marker = re.match(r"//[/!]?", text[start:end]).group(0)
        body = text[start + len(marker):end]
        new = rewrite_comment(body)
        COMMENTS.append(new)
        if new != body:
            line_start = text.rfind("\n", 0, start) + 1
            if not text[line_start:start].strip():  # a comment line, not a trailing one
                changed.add(text.count("\n", 0, start))
        out.append(text[last:start + len(marker)])
        out.append(new)
        last = end
        if leftover(new):
            line = text.count("\n", 0, start) + 1
            report.append("%s:%d: %s" % (rel, line, (marker + new).strip()))
    out.append(text[last:])
    return "\n".join(reflow("".join(out).split("\n"), changed))


# --------------------------------------------------------------------------- Python


def rewrite_python(text, report, rel):
    lines = text.split("\n")
    doc_open = None  # the quote that opened the module docstring, while inside it
    seen_code = False
    for k, line in enumerate(lines):
        stripped = line.strip()
        editable = None
        if doc_open:
            editable = (0, len(line))
            if doc_open in line:
                doc_open = None
        elif not seen_code and stripped[:3] in ('"""', "'''"):
            q = stripped[:3]
            editable = (0, len(line))
            rest = stripped[3:]
            if q not in rest:
                doc_open = q
            seen_code = True
        elif stripped.startswith("#"):
            editable = (line.index("#") + 1, len(line))
        elif stripped:
            seen_code = True
        if editable:
            a, b = editable
            new = rewrite_comment(line[a:b])
            COMMENTS.append(new)
            lines[k] = line[:a] + new + line[b:]
            if leftover(new):
                report.append("%s:%d: %s" % (rel, k + 1, lines[k].strip()))
    return "\n".join(lines)


# --------------------------------------------------------------------------- driver


def main(argv):
    check = "--check" in argv
    docs = "docs"
    args = []
    it = iter(argv)
    for a in it:
        if a == "--docs":
            docs = next(it, docs)
        elif not a.startswith("--"):
            args.append(a)
    roots = args or ["src", "tests", "benches"]
    report, changed, other = [], [], []
    for root in roots:
        files = [root] if os.path.isfile(root) else sorted(
            os.path.join(d, f) for d, _s, fs in os.walk(root) for f in fs
        )
        for path in files:
            if path.endswith((".rs", ".py")):
                with open(path, encoding="utf-8", newline="") as f:
                    text = f.read()
                fn = rewrite_rust if path.endswith(".rs") else rewrite_python
                new = fn(text, report, path)
                if new != text:
                    changed.append(path)
                    if not check:
                        with open(path, "w", encoding="utf-8", newline="") as f:
                            f.write(new)
            elif path.endswith((".md", ".txt", ".toml")):
                try:
                    with open(path, encoding="utf-8") as f:
                        for n, line in enumerate(f, 1):
                            if re.search(r"(?<![/\w])(?:DESIGN|FORMATS)(?:\.md)? ?§|\b[Ii]ssue \d", line):
                                other.append("%s:%d: %s" % (path, n, line.strip()))
                except (UnicodeDecodeError, OSError):
                    pass
    verb = "would change" if check else "changed"
    print("rewrite-cites: %s %d file(s)" % (verb, len(changed)))
    for path in changed:
        print("  " + path)
    if other:
        print("not a source file, left as is (%d):" % len(other))
        for line in other:
            print("  " + line)
    if report:
        print("not rewritten (%d):" % len(report))
        for line in report:
            print("  " + line)
    missing = []
    if os.path.isdir(docs):
        cited = cited_sections(" ".join(COMMENTS))
        heads = {d: doc_headings(os.path.join(docs, d + ".md")) for d in ("DESIGN", "FORMATS")}
        for d, n in sorted(cited, key=lambda x: (x[0], [int(p) for p in x[1].split(".")])):
            if heads[d] is None or n not in heads[d]:
                missing.append("docs/%s.md §%s" % (d, n))
        print("cited sections: %d, all headings present" % len(cited) if not missing
              else "missing headings (%d):" % len(missing))
        for m in missing:
            print("  " + m)
    return 1 if report or missing or (check and changed) else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except BrokenPipeError:
        sys.exit(0)
