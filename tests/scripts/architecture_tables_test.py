#!/usr/bin/env python3
"""docs/architecture.md's file tables list exactly the source files of the tree.

The source files are those of common/, harness/ and judge/ with a source extension (SOURCE_EXTENSIONS),
as git tracks them plus new files git does not ignore. The doc has one section per folder, headed by
the folder's path in backticks (`### `common/``, `**`judge/base/`**`); the first column of each table row
in a section names files of that folder itself: `verdict.cpp`, `verdict.*` (a header and its source),
`web_*_page.cpp` (a pattern). Every source file must be named in its own folder's section, and every name
must match a file there.

Usage: architecture_tables_test.py SOURCE_DIR
"""
import re
import subprocess
import sys
from pathlib import Path

DOC = "docs/architecture.md"
SOURCE_FOLDERS = ("common/", "harness/", "judge/")
SOURCE_EXTENSIONS = {".h", ".hpp", ".cpp", ".cu", ".cuh", ".cmake", ".js", ".css", ".svg"}
HEADING = re.compile(r"^(?:#{2,4}\s+|\*\*)`((?:%s)[\w./-]*)`" % "|".join(re.escape(f[:-1]) for f in SOURCE_FOLDERS))
OTHER_HEADING = re.compile(r"^(?:#{1,6}\s|\*\*`)")
NAME = re.compile(r"`([^`]+)`")


def source_files(root):
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others", "--exclude-standard",
                             "--", *SOURCE_FOLDERS], capture_output=True, check=True).stdout
    names = {n for n in listed.decode().split("\0") if n}
    return sorted(n for n in names if Path(n).suffix in SOURCE_EXTENSIONS and (root / n).is_file())


def sections(doc_text):
    """[(folder, line number, [(name, line number)])] for each folder section of the doc."""
    found, current = [], None
    for number, line in enumerate(doc_text.splitlines(), 1):
        heading = HEADING.match(line)
        if heading:
            folder = heading.group(1).rstrip("/") + "/"
            current = (folder, number, [])
            found.append(current)
        elif OTHER_HEADING.match(line):
            current = None
        elif current and line.startswith("|") and not re.match(r"^\|[\s:|-]+\|?$", line):
            first_cell = line.split("|")[1]
            current[2].extend((name, number) for name in NAME.findall(first_cell))
    return found


def pattern_of(folder, name):
    """A regex for the files of `folder` that `name` names; * stays within a file name."""
    return re.compile("".join("[^/]*" if c == "*" else re.escape(c) for c in folder + name) + r"\Z")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = Path(sys.argv[1])
    try:
        files = source_files(root)
    except (OSError, subprocess.CalledProcessError) as e:
        print(f"SKIPPED: {root} is not a git checkout git can read ({e}): nothing to compare")
        return 77
    folders = sections((root / DOC).read_text())
    covered, extra = set(), []
    for folder, _, names in folders:
        for name, number in names:
            if "/" in name:
                extra.append(f"{DOC}:{number}: `{name}` under `{folder}` is not a file of that folder: give "
                             f"`{folder}{name.rsplit('/', 1)[0]}/` a section of its own and name the files there")
                continue
            pattern = pattern_of(folder, name)
            matched = [f for f in files if pattern.match(f)]
            if not matched:
                extra.append(f"{DOC}:{number}: `{name}` under `{folder}` names no source file ({folder}{name}): "
                             "remove the row, or correct the name if the file was renamed")
            covered.update(matched)
    section_of = {folder: number for folder, number, _ in folders}
    missing, without_section = [], {}
    for f in files:
        if f in covered:
            continue
        folder = f.rsplit("/", 1)[0] + "/"
        stem = Path(f).stem
        if folder in section_of:
            missing.append(f"{f}: in the tree but in no table of {DOC}: add a row "
                           f"| `{stem}.*` | what it is for | to the table of `{folder}` ({DOC}:{section_of[folder]}), "
                           "or name it in the row of the unit it belongs to")
        else:
            without_section.setdefault(folder, []).append(f)
    for folder, names in without_section.items():
        missing.append(f"{folder}: {DOC} has no section for this folder: add a heading **`{folder}`** — what it "
                       f"holds, with a table | file | job | whose rows name its files ({', '.join(names)})")
    for line in missing + extra:
        print(line)
    if missing or extra:
        print(f"{DOC} and the tree disagree: {len(missing)} source file(s) or folder(s) missing from its tables, "
              f"{len(extra)} name(s) in its tables that match no file (source files: {', '.join(SOURCE_FOLDERS)} "
              f"with {' '.join(sorted(SOURCE_EXTENSIONS))})")
        return 1
    print(f"ok: {DOC} lists the {len(files)} source files of {', '.join(SOURCE_FOLDERS)} in {len(folders)} sections")
    return 0


if __name__ == "__main__":
    sys.exit(main())
