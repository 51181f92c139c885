#!/usr/bin/env bash
# Seed corpora for every fuzz target from the repo's own real test fixtures (each fixture
# folder's SOURCE.md says where its files come from and under which licence). Writes
# fuzz/corpus/<target>/seed-* (gitignored; libFuzzer adds what it finds beside them).
# Usage: fuzz/seed.sh   (idempotent)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
fx="$here/../tests/fixtures"
out="$here/corpus"

# seed TARGET NAME < bytes
seed() {
    mkdir -p "$out/$1"
    cat > "$out/$1/seed-$2"
}

# Files of at most 16 KiB under the given fixture paths.
small() {
    find "$@" -type f -size -16k 2>/dev/null | sort
}

n=0
for f in $(small "$fx/frontmatter" "$fx/formats/skills" -name '*.md'); do
    n=$((n + 1))
    seed frontmatter_parse "$n" < "$f"
    { printf 'allowed-tools\nRead, Grep\n'; cat "$f"; } | seed frontmatter_edit "set-$n"
    { printf 'description\nline one\001---\001line two\n'; cat "$f"; } | seed frontmatter_edit "block-$n"
    { printf 'a\n$0 and $ARGUMENTS\n'; cat "$f"; printf '\0one "two three"'; } | seed skill_render "$n"
done

# Stress inputs (tests/fuzzed/stress.rs, tests/frontmatter/structure.rs): anchors, aliases,
# tags and a merged map beside the edited key; a quoted value continued past a column-0 line.
printf 'description\nnew\n---\nname: s\ndescription: x\nbase: &b anchored\nref: *b\ntagged: !custom value\ndefaults: &d\n  a: 1\nmerged:\n  <<: *d\n  c: 3\n---\nbody\n' |
    seed frontmatter_edit anchors
printf 'other\ny\n---\nname: s\ndescription: "a\n# b\n  c"\nother: x\n---\nbody\n' |
    seed frontmatter_edit hash-line
printf -- '---\nname: s\ndescription: "a\n# b\n  c"\nm0:\n  m1:\n    m2:\n      v: x\n---\n' |
    seed frontmatter_parse stress

n=0
for f in $(small "$fx/render" "$fx/formats/handmade" "$fx/formats2/doc-tree" "$fx/lazytools/input/hono-docs/api" -name '*.md'); do
    n=$((n + 1))
    seed markdown_sections "$n" < "$f"
    { printf '\000'; cat "$f"; } | seed markdown_headings "$n"
    { printf 'P'; cat "$f"; } | seed markdown_render "$n"
    { printf '\030'; cat "$f"; } | seed markdown_render "narrow-$n"
    seed sanitize "$n" < "$f"
    { printf '\024'; head -c 400 "$f"; } | seed width_truncate "$n"
    { printf '\%03o' $((n % 16)); cat "$f"; } | seed highlight "$n"
done
printf '\016a\033[31m|b\xef\xb8\x8f|e\xcc\x81|\xe2\x9d\xa4|\xef\xb8\x8f x' | seed width_truncate esc
printf 'a\033]52;c;eA==\a b\xc2\x9b2J \xe2\x80\xae evil' | seed sanitize esc
printf '\000export default app /* comment */\n' | seed highlight js-comment

for f in "$fx"/llms-nested/*.txt "$fx"/llms-nested/*/llms.txt "$fx/formats2/llms/answerdotai-llms.txt" \
    "$fx/formats2/llms/answerdotai-llms-sample.txt" "$fx/formats2/llms/hono-llms.md" \
    "$fx/formats2/seekers/hono-single-mini/references/llms.md"; do
    [ -f "$f" ] && seed llms_txt "$(echo "$f" | tr '/' '_' | tail -c 60)" < "$f"
done
head -c 16384 "$fx/formats2/llms/answerdotai-llms-ctx-full.txt" | seed llms_ctx ctx-full
seed llms_ctx sample < "$fx/formats2/llms/answerdotai-llms-sample.txt"
for f in "$fx/formats2/seekers/hono-single-mini/references/llms-small.md" \
    "$fx/formats2/seekers/hono-single-mini/references/llms-full.md"; do
    [ -f "$f" ] && head -c 16384 "$f" | seed llms_full "$(basename "$f")"
done

seed catalog_json hono < "$fx/formats2/catalog/catalog.json"
for f in $(small "$fx" -name 'catalog*.json'); do
    seed catalog_json "$(basename "$(dirname "$f")")" < "$f"
done

b="$fx/lazytools/hono-docs"
{
    head -c 3000 "$b/manifest.json"; printf '\0'
    head -c 3000 "$b/vocab.json"; printf '\0'
    head -n 3 "$b/chunks.jsonl"; printf '\0'
    printf 'How do I read the context?'
} | seed lazytools_bundle hono
{
    printf '{"name": "x", "avgdl": 2.0}\0{"app": 1e999, "x": NaN}\0'
    head -n 2 "$b/chunks.jsonl"; printf '\0app context'
} | seed lazytools_bundle inf

n=0
docs=$(small "$fx/lazytools/input/hono-docs/guides" -name '*.md' | head -6)
for f in $docs; do
    n=$((n + 1))
    { cat "$f"; printf '\0'; cat "$fx/lazytools/input/hono-docs/api/context.md" 2>/dev/null || true; printf '\0context middlew'; } | seed bm25 "$n"
done


# Remote sources (docs/REMOTE.md): plain tar streams (the target gzips them) and PATH arguments.
tar -C "$fx/remote" -cf - site | seed remote_archive site
tar -C "$fx/formats/skills" -cf - theme-factory | seed remote_archive skill
for a in 'github:anthropics/skills@main/skills/pdf' 'https://github.com/o/r/tree/v1.2/docs/a' \
    'https://hono.dev/docs/llms.txt?x=1#top' '../api/b.md' '//cdn.dev/d.md' '/docs/guide/'; do
    printf '%s' "$a" | seed remote_source "$(printf '%s' "$a" | tr -c 'a-z0-9' '_' | head -c 40)"
done

for t in "$out"/*; do
    echo "$(basename "$t"): $(ls "$t" | wc -l) seeds"
done
