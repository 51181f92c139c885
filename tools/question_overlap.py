#!/usr/bin/env python3
"""Content-word overlap of each eval question with its gold heading and section, and the
style rules of the real-style question sets (docs/DESIGN.md §3, "Real-style sets").

For every question of a `skillnav eval` question file it prints the id, the kind, the
word count, the content words it shares with the gold heading(s) and with the gold
section's text, and flags the rule breakers:

- a paraphrase shorter than 12 words;
- a paraphrase sharing more than 1 content word with its gold heading (the heading of any
  gold counts; the largest overlap is checked);
- a paraphrase copying a run of 4 words from its gold section;
- a verbatim question sharing no run of 4 words with its gold section;
- an identifier question none of whose identifier-like tokens (`camelCase`, `dotted.name`,
  `snake_case`, `kebab-case`, `a/path`, `--flag`, `ALLCAPS`, `call()`) occurs in its gold section;
- a gold heading not found in its file (or the file not found);

and, for the whole file:

- a paraphrase mean below 15 words;
- a kind whose count is more than 2 away from a third of the questions.

Content words: lower-cased runs of letters and digits, at least 2 characters, not in the
stop-word list below, lightly stemmed (a plural `s`/`es`, `ing`, `ed` and a final `e`
dropped). A section is the heading's line up to the next heading of the same or a higher
level (sub-sections included), outside fenced code blocks; headings are ATX (`#`) lines
and the `<doc title="…">` openings of llms-ctx files (a level above `#`),
compared as `skillnav eval` does (ASCII case-insensitive, surrounding spaces ignored) after
inline code ticks and emphasis stars are removed.

Usage: python3 tools/question_overlap.py FILE.json --base /work/shared/corpus
Exit status 1 when any rule breaks, 0 otherwise. Standard library only.
"""

import argparse
import json
import os
import re
import sys

STOP = set(
    """
a about above after again against all also am an and any are aren as at be because been
before being below between both but by can cannot could did didn do does doesn doing don
down during each either else even ever every few for from further get gets getting got had
has hasn have haven having he her here hers herself him himself his how however i if in
into is isn it its itself just let lets like may me might more most much must my myself
need needs no nor not now of off on once one only or other others our ours ourselves out
over own per please rather really same say says see seem she should so some something
somewhere still such than that the their theirs them themselves then there these they
this those though through thus to too under until up upon us use used uses using very via
want wants was wasn way we were weren what whatever when where whether which while who
whom whose why will with within without won would yet you your yours yourself yourselves
i'm im ive i've it's its we're there's isn't doesn't don't can't won't
user users asks asking ask asked question section sections explained explain explains
described describe describes documented document docs doc part page where's which's
tell told know find look looking trying try tried go going make makes made thing things
someone anything everything nothing right instead already since again back two three
""".split()
)

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
DOC = re.compile(r'<doc title="([^"]+)"')
FENCE = re.compile(r"^\s*(```|~~~)")
WORD = re.compile(r"[a-z0-9]+")
IDENT = re.compile(
    r"--[A-Za-z][\w-]*|[A-Za-z_][\w]*(?:[.][\w]+)+|[a-z]+[A-Z]\w*|[A-Z][a-z]+[A-Z]\w*"
    r"|\w+_\w+|[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z0-9]+)+|\w+(?:/[\w.-]+)+|[A-Z][A-Z0-9_]{2,}"
    r"|\w+\(\)"
)


def stem(w):
    """A light stem: drop a plural, `ing`, `ed`, then a final `e`."""
    for suf in ("ies", "es", "s", "ing", "ed"):
        if w.endswith(suf) and len(w) - len(suf) >= 3:
            w = w[: -len(suf)] + ("y" if suf == "ies" else "")
            break
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    return w


def words(text):
    """All lower-cased word tokens of `text`, in order."""
    return WORD.findall(text.lower())


def content(text):
    """The set of stemmed content words of `text`."""
    return {stem(w) for w in words(text) if len(w) >= 2 and w not in STOP}


def norm_heading(h):
    return h.replace("`", "").replace("**", "").strip().lower()


def sections(path):
    """(heading, level, text) of every ATX heading of the file, outside code fences."""
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    heads, fenced = [], False
    for i, line in enumerate(lines):
        if FENCE.match(line):
            fenced = not fenced
            continue
        m = None if fenced else HEADING.match(line)
        d = None if fenced else DOC.search(line)
        if d:
            heads.append((i, 0, d.group(1)))
        elif m:
            heads.append((i, len(m.group(1)), m.group(2)))
    out = []
    for k, (i, level, title) in enumerate(heads):
        end = len(lines)
        for j, lv, _ in heads[k + 1 :]:
            if lv <= level:
                end = j
                break
        out.append((title, level, "\n".join(lines[i:end])))
    return out


def find_file(base, roots, rel):
    """The file `rel` under one of `roots` (exact, or the path ends with `/rel`)."""
    for root in roots:
        exact = os.path.join(base, root, rel)
        if os.path.isfile(exact):
            return exact
    for root in roots:
        for dirpath, _, files in os.walk(os.path.join(base, root)):
            for name in files:
                full = os.path.join(dirpath, name)
                if full.endswith("/" + rel):
                    return full
    return None


def gold_sections(q, base, default_paths):
    """[(heading, text or None)] for the question's gold; text None when not found."""
    roots = q.get("paths") or default_paths
    out = []
    for g in q["gold"]:
        if not isinstance(g, dict):
            out.append((str(g), None))
            continue
        f = find_file(base, roots, g["path"])
        text = None
        if f:
            want = norm_heading(g["heading"])
            for title, _, body in sections(f):
                if norm_heading(title) == want:
                    text = body
                    break
        out.append((g["heading"], text))
    return out


def has_run(query, text, n=4):
    """Whether `query` and `text` share a run of `n` consecutive word tokens."""
    q = words(query)
    t = " " + " ".join(words(text)) + " "
    return any(" " + " ".join(q[i : i + n]) + " " in t for i in range(len(q) - n + 1))


def check(q, golds):
    """(heading words shared, section words shared, [problems]) of one question."""
    qc = content(q["query"])
    problems = []
    head_shared = set()
    sec_shared = set()
    texts = []
    for heading, text in golds:
        shared = qc & content(heading)
        if len(shared) > len(head_shared):
            head_shared = shared
        if text is None:
            problems.append(f"gold heading not found: {heading!r}")
        else:
            sec_shared |= qc & content(text)
            texts.append(text)
    n = len(q["query"].split())
    kind = q["kind"]
    if kind == "paraphrase":
        if n < 12:
            problems.append(f"paraphrase of {n} words (< 12)")
        if len(head_shared) > 1:
            problems.append(f"paraphrase shares {len(head_shared)} heading words")
        if any(has_run(q["query"], t) for t in texts):
            problems.append("paraphrase copies a 4-word run of its section")
    elif kind == "verbatim" and texts:
        if not any(has_run(q["query"], t) for t in texts):
            problems.append("verbatim shares no 4-word run with its section")
    elif kind == "identifier" and texts:
        idents = [m.group(0) for m in IDENT.finditer(q["query"])]
        if not any(i in t for i in idents for t in texts):
            problems.append(f"no identifier of the query in its section: {idents}")
    return head_shared, sec_shared, problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("file")
    ap.add_argument("--base", default=None, help="folder the file's paths start from")
    args = ap.parse_args()
    base = args.base or os.path.dirname(os.path.abspath(args.file))
    with open(args.file, encoding="utf-8") as f:
        data = json.load(f)
    default_paths = data.get("paths", [])
    qs = data["questions"]
    broken = 0
    para_lengths = []
    kinds = {"verbatim": 0, "paraphrase": 0, "identifier": 0}
    for q in qs:
        golds = gold_sections(q, base, default_paths)
        head, sec, problems = check(q, golds)
        n = len(q["query"].split())
        kinds[q["kind"]] = kinds.get(q["kind"], 0) + 1
        if q["kind"] == "paraphrase":
            para_lengths.append(n)
        print(
            f"{q['id']}\t{q['kind']}\t{n}\theading:{','.join(sorted(head)) or '-'}"
            f"\tsection:{','.join(sorted(sec)) or '-'}"
        )
        for p in problems:
            print(f"  ! {q['id']}: {p}")
            broken += 1
    total = len(qs)
    mean = sum(para_lengths) / len(para_lengths) if para_lengths else 0.0
    print(
        f"\n{total} questions; "
        + ", ".join(f"{k} {v}" for k, v in kinds.items())
        + f"; paraphrase mean {mean:.1f} words"
    )
    if para_lengths and mean < 15:
        print(f"  ! paraphrase mean {mean:.1f} words (< 15)")
        broken += 1
    for k, v in kinds.items():
        if abs(v - total / 3) > 2:
            print(f"  ! {v} {k} questions, more than 2 from a third of {total}")
            broken += 1
    print(f"{broken} rule(s) broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
