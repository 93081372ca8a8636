#!/usr/bin/env python3
"""Reads every Atom feed, JSON Feed and iCalendar file of a built site with independent
parsers (feedparser, icalendar) and checks what subscribers rely on.

Usage: check_feeds.py OUTPUT_DIR
Ends with 'feeds: N passed, N failed'.
"""
import pathlib
import sys
import urllib.parse

import feedparser
import icalendar


def check_feed(path):
    problems = []
    feed = feedparser.parse(path.read_bytes())
    if feed.bozo:
        problems.append(f"not well-formed: {feed.bozo_exception}")
    if feed.version != "atom10":
        problems.append(f"expected Atom 1.0, found {feed.version!r}")
    for key in ("id", "title", "updated"):
        if not feed.feed.get(key):
            problems.append(f"the feed has no {key}")
    ids = [entry.get("id") for entry in feed.entries]
    if len(set(ids)) != len(ids) or not all(ids):
        problems.append("entry ids are missing or repeated")
    updated = [entry.get("updated_parsed") for entry in feed.entries]
    # Entries are in the order they were published; an entry updated since keeps its place.
    order = [entry.get("published_parsed") or entry.get("updated_parsed") for entry in feed.entries]
    if not all(updated):
        problems.append("an entry has no parsable updated time")
    elif order != sorted(order, reverse=True):
        problems.append("entries are not newest first")
    elif any(entry.get("published_parsed") and entry["updated_parsed"] < entry["published_parsed"] for entry in feed.entries):
        problems.append("an entry was updated before it was published")
    for entry in feed.entries:
        if not entry.get("link", "").startswith(("http://", "https://")):
            problems.append(f"entry {entry.get('id')} has no absolute link")
            break
    return problems, len(feed.entries)


def check_json_feed(path):
    """A JSON Feed 1.1 (jsonfeed.org/version/1.1, read with Python's own JSON parser: no
    feed library here reads it) with the entries of the Atom feed beside it, in its order."""
    import datetime
    import json
    problems = []
    try:
        feed = json.loads(path.read_bytes())
    except ValueError as error:
        return [f"not JSON: {error}"], 0
    if feed.get("version") != "https://jsonfeed.org/version/1.1":
        problems.append(f"expected JSON Feed 1.1, found version {feed.get('version')!r}")
    for key in ("title", "home_page_url", "feed_url"):
        if not isinstance(feed.get(key), str) or not feed[key]:
            problems.append(f"the feed has no {key}")
    items = feed.get("items")
    if not isinstance(items, list):
        return problems + ["the feed has no items"], 0
    atom = feedparser.parse((path.parent / "feed.xml").read_bytes())
    if [item.get("id") for item in items] != [entry.get("id") for entry in atom.entries]:
        problems.append("its entries are not the Atom feed's")
    for item in items:
        label = f"item {item.get('id')}"
        if not isinstance(item.get("id"), str):
            problems.append(f"{label} has no string id")
        if not isinstance(item.get("content_html", item.get("content_text")), str):
            problems.append(f"{label} has neither content_html nor content_text")
        if not str(item.get("url", "")).startswith(("http://", "https://")):
            problems.append(f"{label} has no absolute url")
        for key in ("date_published", "date_modified"):
            try:
                datetime.datetime.fromisoformat(item[key])
            except (KeyError, ValueError):
                problems.append(f"{label} has no RFC 3339 {key}")
        html = item.get("content_html", "")
        if 'src="/' in html or 'href="/' in html:
            problems.append(f"{label} has a link from the site's root, which JSON Feed readers cannot resolve")
    return problems, len(items)


def check_calendar(path):
    problems = []
    raw = path.read_bytes()
    lines = raw.split(b"\r\n")
    if lines[-1] != b"":
        problems.append("the file does not end with CRLF")
    if any(b"\n" in line for line in lines):
        problems.append("a line ends with LF alone")
    long_lines = [line for line in lines if len(line) > 75]
    if long_lines:
        problems.append(f"{len(long_lines)} lines are longer than 75 octets")
    calendar = icalendar.Calendar.from_ical(raw)
    events = list(calendar.walk("VEVENT"))
    uids = [str(event.get("UID")) for event in events]
    if len(set(uids)) != len(uids):
        problems.append("event UIDs are repeated")
    for event in events:
        for key in ("UID", "DTSTAMP", "DTSTART", "SUMMARY"):
            if event.get(key) is None:
                problems.append(f"event {event.get('UID')} has no {key}")
        start = event.decoded("DTSTART")
        if hasattr(start, "hour") and start.tzinfo is None:
            problems.append(f"event {event.get('UID')} has a floating time")
    if any(hasattr(event.decoded("DTSTART"), "hour") for event in events) and not list(calendar.walk("VTIMEZONE")) \
            and not all(str(event.get("DTSTART").to_ical()).endswith("Z'") for event in events if hasattr(event.decoded("DTSTART"), "hour")):
        problems.append("timed events but no VTIMEZONE")
    return problems, len(events)


def check_sitemap(root):
    """Every page of the site is in the sitemap but those marked noindex, which are not, and
    every entry is a page of the site."""
    import xml.etree.ElementTree as tree
    namespace = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    locations = [element.text for element in tree.parse(root / "sitemap.xml").getroot().findall("s:url/s:loc", namespace)]
    base = min(locations, key=len)
    listed = set()
    problems = []
    for location in locations:
        # Addresses are percent-encoded (`/tags/%F0%9F%A5%9A/`), files are not.
        relative = urllib.parse.unquote(location[len(base):])
        path = root / relative / "index.html" if relative.endswith("/") or relative == "" else root / relative
        listed.add(path.relative_to(root).as_posix())
        if not path.exists():
            problems.append(f"{location} is not a file of the site")
    noindex = '<meta name="robots" content="noindex">'
    pages, hidden = set(), set()
    for path in root.rglob("*.html"):
        (hidden if noindex in path.read_text() else pages).add(path.relative_to(root).as_posix())
    if "404.html" not in hidden:
        problems.append("404.html is not marked noindex")
    missing = sorted(pages - listed)
    if missing:
        problems.append(f"pages missing from the sitemap: {missing[:5]}")
    wrongly = sorted(hidden & listed)
    if wrongly:
        problems.append(f"pages marked noindex in the sitemap: {wrongly[:5]}")
    robots = (root / "robots.txt").read_text()
    if f"Sitemap: {base}sitemap.xml" not in robots:
        problems.append("robots.txt does not name the sitemap")
    return problems, len(locations)


def main():
    root = pathlib.Path(sys.argv[1])
    passed = failed = 0
    if (root / "sitemap.xml").exists():
        problems, count = check_sitemap(root)
        if problems:
            failed += 1
            print("FAIL sitemap.xml: " + "; ".join(problems))
        else:
            passed += 1
            print(f"ok   sitemap.xml: {count} pages, every one a file, every page listed but those marked noindex")
    files = [(path, check_feed, "entries") for path in sorted(root.rglob("*.xml")) if path.name != "sitemap.xml"]
    files += [(path, check_json_feed, "entries, the Atom feed's") for path in sorted(root.rglob("feed.json"))]
    files += [(path, check_calendar, "events") for path in sorted(root.rglob("*.ics"))]
    for path, check, counted in files:
        problems, count = check(path)
        label = path.relative_to(root)
        if problems:
            failed += 1
            print(f"FAIL {label}: " + "; ".join(problems))
        else:
            passed += 1
            print(f"ok   {label}: {count} {counted}")
    print(f"feeds: {passed} passed, {failed} failed")
    return 1 if failed or passed == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
