#!/usr/bin/env python3
"""Keeps the docs true where a reader would find them wrong:

1. every relative link and #anchor of README.md, CONTRIBUTING.md, CHANGELOG.md and docs/
   leads to a file of the repository and a heading (or id) of it;
2. the shell blocks of docs/getting-started.md fenced as ```sh runnable are run, in order,
   in one shell, in an empty folder, with the sitegen given on the PATH, and succeed;
3. the Mastodon recipe of docs/homework.md posts, for each grade, the sentence and page that
   `sitegen digest` gives, to the server's statuses API with the grade's token (run on the
   sample site with a `curl` that records its arguments, and the real `jq`);
4. nothing users read points out of the repository (to ../shared, which users don't have);
5. the README stays a README: at most 200 lines.

Usage: Scripts/check-docs.py SITEGEN
"""
import json
import os
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md"] + sorted((ROOT / "docs").rglob("*.md"))
LINK = re.compile(r"(?<!\\)!?\[(?:[^\]\\]|\\.)*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```+|~~~+)(.*)$")


def without_code(text, inline=True):
    """The text with fenced blocks (and inline code) blanked, so links shown as code count not."""
    lines, fence = [], None
    for line in text.split("\n"):
        match = FENCE.match(line.strip())
        if fence:
            if match and line.strip().startswith(fence):
                fence = None
            lines.append("")
            continue
        if match:
            fence = match.group(1)
            lines.append("")
            continue
        lines.append(re.sub(r"`[^`]*`", "", line) if inline else line)
    return "\n".join(lines)


def anchor(heading):
    """GitHub's anchor of a heading: lowercase, punctuation left out, spaces as hyphens."""
    text = re.sub(r"`", "", heading.strip().lower())
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return "".join(c if c.isalnum() or c in "-_" else "-" if c == " " else "" for c in text)


def anchors(path):
    found, counts = set(), {}
    for line in without_code(path.read_text(), inline=False).split("\n"):
        match = re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
        if match:
            base = anchor(match.group(1))
            number = counts.get(base, 0)
            counts[base] = number + 1
            found.add(base if number == 0 else f"{base}-{number}")
        found.update(re.findall(r"<a\s+(?:id|name)=\"([^\"]+)\"", line))
    return found


def check_links():
    problems, count = [], 0
    for page in PAGES:
        for target in LINK.findall(without_code(page.read_text())):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("//"):
                continue
            count += 1
            path, _, fragment = target.partition("#")
            file = (page.parent / path).resolve() if path else page
            where = f"{page.relative_to(ROOT)}: ({target})"
            if ROOT not in file.parents and file != ROOT:
                problems.append(f"{where} leads out of the repository")
            elif not file.exists():
                problems.append(f"{where} leads to no file")
            elif fragment and file.suffix == ".md" and fragment not in anchors(file):
                problems.append(f"{where}: {file.relative_to(ROOT)} has no heading #{fragment}")
    return count, problems


def runnable_blocks(path):
    blocks, current = [], None
    for line in path.read_text().split("\n"):
        if current is None:
            if line.strip() == "```sh runnable":
                current = []
        elif line.strip() == "```":
            blocks.append("\n".join(current))
            current = None
        else:
            current.append(line)
    return blocks


def run_getting_started(sitegen):
    blocks = runnable_blocks(ROOT / "docs/getting-started.md")
    if not blocks:
        return 0, ["docs/getting-started.md has no ```sh runnable block"]
    with tempfile.TemporaryDirectory() as folder:
        bin_dir = pathlib.Path(folder) / "bin"
        bin_dir.mkdir()
        (bin_dir / "sitegen").symlink_to(pathlib.Path(sitegen).resolve())
        work = pathlib.Path(folder) / "work"
        work.mkdir()
        script = "set -euo pipefail\n" + "\n".join(f"echo '$ block {n + 1}'\n{block}" for n, block in enumerate(blocks))
        environment = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": folder, "LANG": "C.UTF-8"}
        result = subprocess.run(["bash", "-c", script], cwd=work, env=environment, capture_output=True, text=True, timeout=300)
        if result.returncode != 0:
            return len(blocks), [f"docs/getting-started.md: the runnable blocks failed (status {result.returncode}):\n{result.stdout}{result.stderr}"]
    return len(blocks), []


FAKE_CURL = """#!/usr/bin/env python3
import json, os, sys
with open(os.environ["CURL_LOG"], "a") as log:
    log.write(json.dumps(sys.argv[1:]) + "\\n")
"""


def mastodon_recipe():
    """The `run:` script of the recipe's step, and its `env:` names."""
    text = (ROOT / "docs/homework.md").read_text()
    block = re.search(r"```yaml\n(.*?name: Post tonight's homework.*?)```", text, re.S)
    if not block:
        return None, []
    lines = block.group(1).split("\n")
    start = next(n for n, line in enumerate(lines) if line.strip() == "run: |")
    indent = len(lines[start + 1]) - len(lines[start + 1].lstrip())
    script = "\n".join(line[indent:] for line in lines[start + 1:] if line.strip())
    names = re.findall(r"^\s+([A-Z_0-9]+): ", block.group(1), re.M)
    return script, names


def check_mastodon_recipe(sitegen):
    script, names = mastodon_recipe()
    if script is None:
        return ["docs/homework.md has no step named \"Post tonight's homework\""]
    problems = []
    with tempfile.TemporaryDirectory() as folder:
        bin_dir = pathlib.Path(folder) / "bin"
        bin_dir.mkdir()
        (bin_dir / "sitegen").symlink_to(pathlib.Path(sitegen).resolve())
        curl = bin_dir / "curl"
        curl.write_text(FAKE_CURL)
        curl.chmod(0o755)
        log = pathlib.Path(folder) / "curl.log"
        environment = {"PATH": f"{bin_dir}:/usr/bin:/bin", "HOME": folder, "LANG": "C.UTF-8", "CURL_LOG": str(log),
                       "BASE_URL": "https://school.example.org/", "MASTODON_URL": "https://mastodon.example.org"}
        tokens = {name: f"secret-{name.lower()}" for name in names if name.startswith("TOKEN_")}
        environment.update(tokens)
        result = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=120)
        if result.returncode != 0:
            return [f"the recipe failed (status {result.returncode}):\n{result.stdout}{result.stderr}"]
        calls = [json.loads(line) for line in log.read_text().splitlines()] if log.exists() else []
        if len(calls) != len(tokens):
            return [f"the recipe called curl {len(calls)} times for {len(tokens)} grades"]
        for call, (name, token) in zip(calls, tokens.items()):
            grade = name.removeprefix("TOKEN_")
            digest = subprocess.run([sitegen, "digest", "--grade", grade, "--base-url", "https://school.example.org/", "--format", "json"],
                                    cwd=ROOT, capture_output=True, text=True, check=True)
            expected = json.loads(digest.stdout)[0]
            status = f"status={expected['sentence']}\n\n{expected['url']}"
            if call[-1] != "https://mastodon.example.org/api/v1/statuses":
                problems.append(f"grade {grade}: posted to {call[-1]}")
            if f"Authorization: Bearer {token}" not in call:
                problems.append(f"grade {grade}: no Authorization header with its token in {call}")
            if status not in call:
                problems.append(f"grade {grade}: the status is not the digest's sentence and page: {call}")
            if not expected["url"].startswith("https://school.example.org/homework/grade-"):
                problems.append(f"grade {grade}: the page is {expected['url']}")
    return problems


def check_paths_out():
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "README.md", "CONTRIBUTING.md", "CHANGELOG.md", "docs", "Starter",
                              "Themes", "Sources", "action.yml", "Dockerfile", ".github"], capture_output=True, text=True, check=True)
    problems = []
    for name in tracked.stdout.split():
        path = ROOT / name
        if not path.is_file():
            continue
        try:
            text = path.read_text()
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.split("\n"), 1):
            if "../shared" in line:
                problems.append(f"{name}:{number}: points to ../shared, which users don't have")
    return problems


def main():
    if len(sys.argv) != 2:
        print(__doc__)
        return 2
    results = []
    count, problems = check_links()
    results.append((f"{count} relative links and anchors resolve", problems))
    count, problems = run_getting_started(sys.argv[1])
    results.append((f"the {count} runnable blocks of getting-started.md succeed", problems))
    results.append(("the Mastodon recipe posts each grade's digest", check_mastodon_recipe(sys.argv[1])))
    results.append(("nothing users read points out of the repository", check_paths_out()))
    lines = len((ROOT / "README.md").read_text().split("\n")) - 1
    results.append((f"README.md has {lines} lines, at most 200", [] if lines <= 200 else [f"README.md has {lines} lines"]))
    failed = 0
    for what, problems in results:
        print(("ok   " if not problems else "FAIL ") + what)
        for problem in problems:
            print("     | " + problem.replace("\n", "\n     | "))
        failed += bool(problems)
    print(f"docs: {len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
