#!/usr/bin/env python3
"""Check a trigger-eval query file (tests/fixtures/triggers/).

Two shapes are accepted, one JSON array per file:

- the skillnav shape (dev.json, validation.json):
  `{"query", "should_trigger", "skill", "better_skill"?, "kind"}` with kind one of
  `positive`, `near-miss`, `unrelated`;
- the agentskills.io shape (per-skill/<name>/evals/eval_queries.json):
  `{"query", "should_trigger"}`.

For each file it prints the counts per kind (or per should_trigger value) and flags:

- a query under 8 or over 30 words (a word is a whitespace-separated token holding at
  least one letter or digit, so a lone dash does not count);
- a `skill` or `better_skill` that is not the `name:` of a SKILL.md under
  tests/fixtures/overlap-anthropic/ or tests/fixtures/overlap/ (the frontmatter is the
  block between the first two `---` lines; a file whose frontmatter never closes, such as
  invalid-frontmatter, is not a skill);
- a missing or mistyped field, an unknown kind, a kind that disagrees with
  should_trigger (positive <=> true), a `better_skill` on a positive or an unrelated
  entry, a `better_skill` equal to `skill`;
- the same query twice (within a file, or across the files given together).

It also reports, for information only (nothing is flagged), how many positives share at
most two content words with their skill's description (plus when_to_use/whenToUse).
Content words: lower-cased runs of letters and digits, at least 2 characters, not in the
stop-word list below, with a plural `s` dropped.

Usage: python3 tools/trigger_queries_check.py FILE [FILE ...] [--root REPO_ROOT]
Exit status 1 if anything is flagged. Python 3 standard library only.
"""

import argparse
import json
import re
import sys
from collections import Counter
from pathlib import Path

SKILL_DIRS = ("tests/fixtures/overlap-anthropic", "tests/fixtures/overlap")
KINDS = ("positive", "near-miss", "unrelated")
MIN_WORDS, MAX_WORDS = 8, 30
DESCRIPTION_KEYS = ("description", "when_to_use", "whenToUse", "when-to-use")

STOP = set(
    """a about above after again all also am an and any are as at be because been before
    being below between both but by can could did do does doing don done for from further
    had has have having he her here hers him his how i if in into is it its itself just
    let me more most my myself no nor not now of off on once only or other our ours out
    over own same she should so some such than that the their theirs them then there these
    they this those through to too under until up use used using very was we were what
    when where which while who whom why will with would you your yours want wants need
    needs like get got any every each one two via etc e g i'm it's can't don't i've i'd
    we're they're that's what's there's doesn't isn't won't it'd let's""".split()
)


def words(text):
    """Whitespace-separated tokens that hold at least one letter or digit."""
    return [t for t in text.split() if re.search(r"[A-Za-z0-9]", t)]


def content_words(text):
    out = set()
    for w in re.findall(r"[a-z0-9]+", text.lower()):
        if len(w) < 2 or w in STOP:
            continue
        if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
            w = w[:-1]
        out.add(w)
    return out


def parse_frontmatter(path):
    """Return {key: value} of a SKILL.md frontmatter, or None if it does not close."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if not lines or lines[0].strip() != "---":
        return None
    try:
        end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
    except StopIteration:
        return None
    fields, key = {}, None
    for line in lines[1:end]:
        m = re.match(r"^([A-Za-z][A-Za-z0-9_-]*):\s*(.*)$", line)
        if m and not line.startswith((" ", "\t")):
            key, value = m.group(1), m.group(2).strip()
            if value in ("|", "|-", "|+", ">", ">-", ">+"):
                value = ""
            elif len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
            fields[key] = value
        elif key is not None and line.startswith((" ", "\t")):
            fields[key] = (fields[key] + " " + line.strip()).strip()
    return fields


def load_skills(root):
    skills = {}
    for d in SKILL_DIRS:
        for skill_md in sorted((root / d).glob("*/SKILL.md")):
            fm = parse_frontmatter(skill_md)
            if not fm or not fm.get("name"):
                continue
            text = " ".join(fm.get(k, "") for k in DESCRIPTION_KEYS)
            skills[fm["name"]] = text
    return skills


def check_file(path, skills, seen):
    problems = []
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        return [f"cannot read JSON: {e}"], Counter(), None
    if not isinstance(data, list):
        return ["top level is not a JSON array"], Counter(), None

    skillnav_shape = any(isinstance(e, dict) and "kind" in e for e in data)
    counts = Counter()
    low_overlap = positives = 0
    for i, e in enumerate(data):
        where = f"#{i}"
        if not isinstance(e, dict):
            problems.append(f"{where}: not an object")
            continue
        q = e.get("query")
        if not isinstance(q, str) or not q.strip():
            problems.append(f"{where}: missing query")
            continue
        where = f"#{i} {q[:60]!r}"
        n = len(words(q))
        if n < MIN_WORDS or n > MAX_WORDS:
            problems.append(f"{where}: {n} words (must be {MIN_WORDS}-{MAX_WORDS})")
        key = " ".join(q.lower().split())
        if key in seen:
            problems.append(f"{where}: duplicate of a query in {seen[key]}")
        else:
            seen[key] = path.name
        st = e.get("should_trigger")
        if not isinstance(st, bool):
            problems.append(f"{where}: should_trigger is not true/false")

        if not skillnav_shape:
            extra = set(e) - {"query", "should_trigger"}
            if extra:
                problems.append(f"{where}: unexpected fields {sorted(extra)}")
            counts["should_trigger=" + str(st).lower()] += 1
            continue

        kind = e.get("kind")
        counts[kind] += 1
        if kind not in KINDS:
            problems.append(f"{where}: unknown kind {kind!r}")
        elif isinstance(st, bool) and st != (kind == "positive"):
            problems.append(f"{where}: kind {kind} but should_trigger {st}")
        extra = set(e) - {"query", "should_trigger", "skill", "better_skill", "kind"}
        if extra:
            problems.append(f"{where}: unexpected fields {sorted(extra)}")
        skill = e.get("skill")
        if skill not in skills:
            problems.append(f"{where}: skill {skill!r} is not a fixture skill")
        if "better_skill" in e:
            better = e["better_skill"]
            if better not in skills:
                problems.append(f"{where}: better_skill {better!r} is not a fixture skill")
            if kind != "near-miss":
                problems.append(f"{where}: better_skill on a {kind} entry")
            if better == skill:
                problems.append(f"{where}: better_skill equals skill")
        if kind == "positive" and skill in skills:
            positives += 1
            shared = content_words(q) & content_words(skills[skill])
            if len(shared) <= 2:
                low_overlap += 1
    overlap = (low_overlap, positives) if skillnav_shape else None
    return problems, counts, overlap


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", type=Path)
    ap.add_argument("--root", type=Path, default=Path(__file__).resolve().parent.parent,
                    help="repository root (default: the parent of tools/)")
    args = ap.parse_args()

    skills = load_skills(args.root)
    if not skills:
        print(f"no skills found under {args.root}", file=sys.stderr)
        return 1
    print(f"{len(skills)} skills: {', '.join(sorted(skills))}")

    flagged = 0
    seen = {}
    for path in args.files:
        problems, counts, overlap = check_file(path, skills, seen)
        total = sum(counts.values())
        print(f"\n{path}: {total} queries")
        for k in sorted(counts, key=str):
            print(f"  {k}: {counts[k]} ({100 * counts[k] / total:.0f}%)")
        if overlap:
            low, pos = overlap
            print(f"  positives sharing <=2 content words with their skill's description: "
                  f"{low}/{pos} (information only)")
        for p in problems:
            print(f"  FLAG {p}")
        flagged += len(problems)
    print(f"\n{flagged} flagged" if flagged else "\nOK: nothing flagged")
    return 1 if flagged else 0


if __name__ == "__main__":
    sys.exit(main())
