#!/usr/bin/env python3
"""The project speaks only of itself: no tracked text names a tracker's issue numbers ("issue" and a
number, or "#" and a number as an issue reference) or how the work on it was organised (who did what, how the work was asked for and
handed on, how much GPU time it had), and no Python bytecode is tracked or left unignored.

Checks every file git tracks, and every new file it does not ignore, except third-party code and binary
files. A threat class, a fixture or a measurement is named by what it is: "symbol interposition", "the
5-run benchmark of 2026-11-30", never by the ticket that found it.

The words about how the work was organised are not the project's, so this file does not spell them out
either: it keeps each phrase (one to four words, lower case, separated by single spaces) as the first 16
hexadecimal digits of its SHA-256, and looks for them among each line's words. To add a phrase, print its
digest with `project_words_test.py --digest "a phrase"` and add the digest to a group below.

Usage: project_words_test.py SOURCE_DIR
       project_words_test.py --digest PHRASE
"""
import hashlib
import re
import subprocess
import sys
from pathlib import Path

# Files that are not the project's own words.
NOT_OURS = {"tests/support/catch.hpp"}

# Issue references, by their shape. (pattern, what to write instead); case-insensitive, one line at a time.
SHAPES = [
    (r"\bissues?\s+#?\d+", "a tracker's issue number: say what the text is about instead"),
    (r"\b(?:fixes|closes|see|in|from|of|per|by)\s+#\d+\b", "an issue reference: say what it is about instead"),
    (r"^\s*(?:[-*]|//|#)?\s*\(?#\d+\)?[:.]\s", "an issue reference: say what it is about instead"),
]
COMPILED = [(re.compile(p, re.IGNORECASE), why) for p, why in SHAPES]

# Phrases about how the work was organised, as digests (see above), by what to write instead.
PHRASE_DIGESTS = {
    "how the work was asked for: say what the code does": {
        "ec3f4a4cd18a80ef", "a3c4d9a6c71a97b4", "3893f61419a63aac", "c4e43c1a86dfff5f"},
    "where the work is tracked is no part of the project": {"7ae4495c83dd7323"},
    "how the work was organised: say what the code does": {
        "d63516bc98983230", "94a168d2da574b00", "d298391b07433318", "29447fab346b1477", "897939b397a816da",
        "1bebe8c370515c20"},
    "who did the work: the project's text says what the code does": {"461845f6b8be326a"},
    "who wrote a part: name the part": {"03e5efb6014de294"},
    "how much GPU time the work had: say what was measured and what was not": {
        "1e2dee99a7c609b9", "d90d05b41ed8a8bd", "480948f4edd7bf1e", "654f035fa30ee109", "3a45f8a24231fdf5",
        "1eba7e35ea76f70d", "6aba15a029221f3e", "44c5e70144ba2831", "8b78477b2451df7c", "ccba855cb8afc42b"},
}
WHY_OF_DIGEST = {digest: why for why, digests in PHRASE_DIGESTS.items() for digest in digests}
LONGEST_PHRASE = 4  # words
WORD = re.compile(r"[a-z0-9]+(?:['\u2019-][a-z0-9]+)*")


def digest(phrase):
    return hashlib.sha256(phrase.encode()).hexdigest()[:16]


def flagged_phrases(line, digest_of_word):
    """The (phrase, why) of each listed phrase among the words of `line`."""
    words = [w.replace("\u2019", "'") for w in WORD.findall(line.lower())]
    found = []
    for i in range(len(words)):
        for n in range(1, min(LONGEST_PHRASE, len(words) - i) + 1):
            phrase = " ".join(words[i:i + n])
            key = digest_of_word.get(phrase) if n == 1 else digest(phrase)
            if key is None:
                key = digest_of_word[phrase] = digest(phrase)
            if key in WHY_OF_DIGEST:
                found.append((phrase, WHY_OF_DIGEST[key]))
    return found


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
    if len(sys.argv) == 3 and sys.argv[1] == "--digest":
        print(digest(" ".join(WORD.findall(sys.argv[2].lower()))))
        return 0
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = Path(sys.argv[1])
    try:
        files = project_files(root)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"SKIPPED: {root} is not a git checkout git can read ({e}): nothing to check")
        return 77
    problems = []
    digest_of_word = {}  # each word's digest, computed once
    for name in files:
        if "__pycache__/" in name or name.endswith(".pyc"):
            problems.append(f"{name}: Python bytecode is tracked or not ignored: git rm --cached it "
                            "(.gitignore has __pycache__/ and *.pyc)")
            continue
        path = root / name
        if name in NOT_OURS or not path.is_file():
            continue
        text = text_of(path)
        if text is None:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            for pattern, why in COMPILED:
                match = pattern.search(line)
                if match:
                    problems.append(f"{name}:{number}: \"{match.group(0).strip()}\": {why}")
            for phrase, why in flagged_phrases(line, digest_of_word):
                problems.append(f"{name}:{number}: \"{phrase}\": {why}")
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
