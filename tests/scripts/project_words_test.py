#!/usr/bin/env python3
"""The project speaks only of itself: no tracked text names a tracker's issue numbers ("issue 12", "#12"
as an issue reference) or how the work was organised (sessions' GPU time, who did what), and no Python
bytecode is tracked or left unignored.

Checks every file git tracks, and every new file it does not ignore, except third-party code and binary
files. A threat class, a fixture or a measurement is named by what it is: "symbol interposition", "the
5-run benchmark of 2026-11-30", never by the ticket that found it.

Usage: project_words_test.py SOURCE_DIR
"""
import re
import subprocess
import sys
from pathlib import Path

# Files that are not the project's own words.
NOT_OURS = {"tests/support/catch.hpp"}
# This file names the words it looks for.
SELF = "tests/scripts/project_words_test.py"

# (pattern, what to write instead). Case-insensitive, on one line at a time.
WORDS = [
    (r"\bissues?\s+#?\d+", "a tracker's issue number: say what the text is about instead"),
    (r"\b(?:fixes|closes|see|in|from|of|per|by)\s+#\d+\b", "an issue reference: say what it is about instead"),
    (r"^\s*(?:[-*]|//|#)?\s*\(?#\d+\)?[:.]\s", "an issue reference: say what it is about instead"),
    (r"\bthe lead\b", "who did the work: the project's text says what the code does"),
    (r"\bweb helper\b", "who wrote a part: name the part (the web pages)"),
    (r"\b(?:the|a|this)\s+brief\b|\bbrief's\b", "how the work was asked for: say what the code does"),
    (r"\btracker\b", "the tracker is no part of the project"),
    (r"\bworktree\b|\bsub-?agents?\b|\bhandover\b", "how the work was organised"),
    (r"\bsession's\s+(?:device|gpu)\s+time\b|\b(?:device|gpu)\s+time\s+(?:left|budget|ran out)\b"
     r"|\bno\s+(?:device|gpu)\s+time\b", "how much GPU time the work had: say what was measured and what was not"),
]
COMPILED = [(re.compile(p, re.IGNORECASE), why) for p, why in WORDS]


def project_files(root):
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, check=True).stdout
    return sorted({name for name in listed.decode().split("\0") if name})


def text_of(path):
    data = path.read_bytes()
    if b"\0" in data[:8192]:
        return None  # binary (an image)
    return data.decode("utf-8", errors="replace")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = Path(sys.argv[1])
    try:
        files = project_files(root)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"SKIPPED: {root} is not a git checkout git can read ({e}): nothing to check")
        return 77
    problems = []
    for name in files:
        if "__pycache__/" in name or name.endswith(".pyc"):
            problems.append(f"{name}: Python bytecode is tracked or not ignored: git rm --cached it "
                            "(.gitignore has __pycache__/ and *.pyc)")
            continue
        path = root / name
        if name in NOT_OURS or name == SELF or not path.is_file():
            continue
        text = text_of(path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for pattern, why in COMPILED:
                match = pattern.search(line)
                if match:
                    problems.append(f"{name}:{number}: \"{match.group(0).strip()}\": {why}")
    for probe in ("scripts/__pycache__/x.cpython-311.pyc", "x.pyc"):
        if subprocess.run(["git", "-C", str(root), "check-ignore", "-q", probe]).returncode != 0:
            problems.append(f".gitignore: {probe} is not ignored: add __pycache__/ and *.pyc")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} place(s) where the project speaks of how it was made rather than of itself")
        return 1
    print(f"ok: {len(files)} files speak of the project only")
    return 0


if __name__ == "__main__":
    sys.exit(main())
