#!/usr/bin/env python3
"""Draw identifier questions from the KEP tree mechanically, for `skillnav eval`.

The dev set's identifier questions were written by hand; this draws more of one shape —
dotted field paths with a camelCase segment (`spec.expirationSeconds`, `status.podIP`) —
with a fixed seed, so nobody picks them, and the gold sections are decided by a rule
written down before any ranking is measured (docs/DESIGN.md §3, "Sampled identifier
questions"):

1. Candidates: every `KEP/README.md` under `<corpus>/large/keps`, minus the KEPs any
   question of the files given with `--exclude` names (the held-out set's KEPs, the dev
   set's own), in path order, then shuffled with `--seed`.
2. In each README, the dotted words (`a.b`, `.a.b.c`; ASCII letters and digits, each
   segment starting with a letter) with a segment after the first holding a lower-case
   letter followed by a capital, not part of a path or URL (no `/` or `:` touching them),
   written at least 3 times. One of them is drawn per KEP (the same seed).
3. Gold, in that README's sections as `skillnav tree --json` gives them (the table of
   contents left out): the section holding the first mention of the field (the whole path
   or its last segment, as a word), and every section whose title names it.

Usage (from the repository, with the shared corpus beside it and a release build):

    python3 tools/sample_identifier_questions.py ../shared/corpus \
        --exclude tests/fixtures/eval/holdout.json --exclude tests/fixtures/eval/dev.json \
        --seed 20261202 --count 24 > tests/fixtures/eval/dev-identifiers.json

Standard library only. It runs once, not in CI; its output is committed.
"""

import argparse
import json
import random
import re
import subprocess
import sys
from pathlib import Path

# A dotted word: segments of ASCII letters/digits starting with a letter, an optional
# leading dot (`.spec.timeZone`), not touching a path, URL or longer word.
DOTTED = re.compile(
    r"(?<![\w./:-])(\.?[A-Za-z][A-Za-z0-9]*(?:\.[A-Za-z][A-Za-z0-9]*)+)(?![\w/:-]|\.\w)"
)
CAMEL = re.compile(r"[a-z][A-Z]")
MIN_MENTIONS = 3
TOC_TITLES = {"table of contents", "toc"}


def kep_of(path: str):
    """`keps/sig-x/NNNN-name` of a gold path inside the KEP tree, else None."""
    m = re.match(r"(?:large/)?(keps/[^/]+/[^/]+)/", path)
    return m.group(1) if m else None


def excluded_keps(files):
    out = set()
    for f in files:
        for q in json.loads(Path(f).read_text())["questions"]:
            for g in q.get("gold", []):
                k = kep_of(g.get("path", ""))
                if k:
                    out.add(k)
    return out


def fields(text: str):
    """Dotted field paths with a camelCase segment, with their mention counts, in order of
    first mention."""
    counts = {}
    for m in DOTTED.finditer(text):
        word = m.group(1)
        segs = word.lstrip(".").split(".")
        if not any(CAMEL.search(s) for s in segs[1:]):
            continue
        counts[word] = counts.get(word, 0) + 1
    return [(w, n) for w, n in counts.items() if n >= MIN_MENTIONS]


def sections(skillnav: str, readme: Path):
    """(title, first line, last own line) of each section, in document order."""
    out = subprocess.run(
        [skillnav, "tree", str(readme), "--json", "--encoding", "bytes4"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    nodes = []

    def walk(n):
        if n.get("kind") == "section":
            nodes.append((n["title"], n["line_start"]))
        for c in n.get("children", []):
            walk(c)

    for r in json.loads(out)["roots"]:
        walk(r)
    nodes.sort(key=lambda t: t[1])
    total = readme.read_text(errors="replace").count("\n") + 1
    return [
        (t, start, (nodes[i + 1][1] - 1) if i + 1 < len(nodes) else total)
        for i, (t, start) in enumerate(nodes)
    ]


def mentions(line: str, word: str, last: str) -> bool:
    for w in (word.lstrip("."), last):
        if re.search(r"(?<![\w])" + re.escape(w) + r"(?![\w])", line):
            return True
    return False


def gold_for(secs, lines, word):
    last = word.lstrip(".").split(".")[-1]
    gold = []
    body = [s for s in secs if s[0].strip().lower() not in TOC_TITLES]
    for title, start, end in body:
        if any(mentions(lines[i - 1], word, last) for i in range(start, min(end, len(lines)) + 1)):
            gold.append(title)
            break
    for title, _, _ in body:
        if mentions(title, word, last) and title not in gold:
            gold.append(title)
    return gold


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("corpus", help="the shared corpus folder (holds large/keps)")
    ap.add_argument("--exclude", action="append", default=[], help="question files whose KEPs are left out")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--count", type=int, default=24)
    ap.add_argument("--skillnav", default="target/release/skillnav")
    a = ap.parse_args()

    large = Path(a.corpus) / "large"
    skip = excluded_keps(a.exclude)
    readmes = sorted(p for p in (large / "keps").glob("*/*/README.md"))
    readmes = [p for p in readmes if str(p.parent.relative_to(large)) not in skip]
    rng = random.Random(a.seed)
    rng.shuffle(readmes)

    questions = []
    for readme in readmes:
        if len(questions) >= a.count:
            break
        text = readme.read_text(errors="replace")
        cands = fields(text)
        if not cands:
            continue
        word, _ = rng.choice(cands)
        secs = sections(a.skillnav, readme)
        gold = gold_for(secs, text.split("\n"), word)
        if not gold:
            continue
        rel = str(readme.relative_to(large))
        questions.append(
            {
                "id": f"kep-sampled-{len(questions) + 1:02d}",
                "kind": "identifier",
                "query": word,
                "paths": ["large"],
                "gold": [{"path": rel, "heading": t} for t in gold],
            }
        )
    if len(questions) < a.count:
        print(f"only {len(questions)} questions could be drawn", file=sys.stderr)
    json.dump({"questions": questions}, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
