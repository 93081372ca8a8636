#!/usr/bin/env python3
"""Runs every case of the official Mustache spec through `sitegen render-template`.

Usage: Scripts/mustache-spec-check.py SITEGEN [SPEC_DIR]
Prints one line per failing case and a closing 'N passed, N failed' line.
"""
import json
import pathlib
import subprocess
import sys

MODULES = ["comments", "delimiters", "interpolation", "inverted", "partials",
           "sections", "~inheritance", "~dynamic-names"]


def main() -> int:
    sitegen = sys.argv[1]
    spec = pathlib.Path(sys.argv[2] if len(sys.argv) > 2 else
                        pathlib.Path(__file__).resolve().parents[2] / "shared/conformance/mustache-spec")
    if not spec.is_dir():
        print(f"skipped: no Mustache spec at {spec}")
        return 0
    passed = failed = 0
    for module in MODULES:
        for case in json.loads((spec / f"{module}.json").read_text())["tests"]:
            request = {"template": case["template"], "data": case["data"],
                       "partials": case.get("partials", {})}
            run = subprocess.run([sitegen, "render-template"], input=json.dumps(request).encode(),
                                 capture_output=True)
            output = run.stdout.decode()
            if run.returncode == 0 and output == case["expected"]:
                passed += 1
            else:
                failed += 1
                print(f"FAIL {module} / {case['name']}: expected {case['expected']!r}, "
                      f"got {output!r} (exit {run.returncode}) {run.stderr.decode().strip()}")
    print(f"mustache-spec: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
