#!/usr/bin/env python3
"""The judge's declared library graph matches its code and docs/architecture.md.

Each folder of judge/ is a library (`judge_library(NAME SOURCES ... USES ...)` in its CMakeLists.txt) that
states the libraries it may use; the build makes an include of an undeclared folder fail. This checks
the other direction and the doc:
  - every judge library a library USES is one whose headers the library's own files include: an edge no
    include needs is a wrong edge in the graph (what it includes through that library's own uses, it may
    leave to them);
  - every edge goes forward in the doc's dependency order (the `judge:` line of "Dependency order", where
    "a, b" are siblings), and every library's folder is on that line.

Usage: library_graph_test.py SOURCE_DIR
"""
import re
import sys
from pathlib import Path

DOC = "docs/architecture.md"
LIBRARY = re.compile(r"judge_library\(\s*(\w+)(.*?)\)", re.S)
INCLUDE = re.compile(r'^\s*#\s*include\s+"(judge/[\w/]+)/[\w.]+"', re.M)
SOURCES = (".cpp", ".hpp", ".h")


def libraries(root):
    """{name: (folder relative to the root, [judge libraries it USES])}."""
    found = {}
    for cmake in sorted((root / "judge").rglob("CMakeLists.txt")):
        text = re.sub(r"#.*", "", cmake.read_text())
        for name, body in LIBRARY.findall(text):
            uses = body.split("USES", 1)[1].split() if "USES" in body else []
            found[name] = (cmake.parent.relative_to(root).as_posix(), [u for u in uses if u.startswith("judge_")])
    return found


def included_folders(root, folder):
    """The folders of judge/ whose headers the files of `folder` itself (not its sub-libraries) include."""
    folders = set()
    for f in sorted((root / folder).iterdir()):
        if f.is_file() and f.suffix in SOURCES:
            folders.update(INCLUDE.findall(f.read_text(errors="replace")))
    return folders


def closure(name, libs):
    seen, todo = set(), [name]
    while todo:
        for used in libs.get(todo.pop(), ("", []))[1]:
            if used in libs and used not in seen:
                seen.add(used)
                todo.append(used)
    return seen


def doc_order(root):
    """{folder: rank} from the doc's `judge:` line of the dependency order, with its continuation lines."""
    lines = (root / DOC).read_text().splitlines()
    start = next(i for i, l in enumerate(lines) if re.search(r"judge:\s", l) and "→" in l)
    text = lines[start].split("judge:", 1)[1]
    for l in lines[start + 1:]:
        if not l.strip().startswith("→"):
            break
        text += " " + l.strip()
    ranks = {}
    for rank, group in enumerate(p.strip() for p in text.split("→")):
        for name in (n.strip() for n in group.split(",")):
            if name:
                ranks["judge/" + name] = rank
    return ranks


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = Path(sys.argv[1])
    libs = libraries(root)
    by_folder = {folder: name for name, (folder, _) in libs.items()}
    ranks = doc_order(root)
    problems = []
    for name, (folder, uses) in sorted(libs.items()):
        if folder not in ranks:
            problems.append(f"{folder} ({name}) is not on the judge's line of {DOC}'s dependency order: add it")
        included = {by_folder[f] for f in included_folders(root, folder) if f in by_folder} - {name}
        for used in uses:
            if used not in libs:
                if used != "judge_common":  # common/, the header-only library both programs share
                    problems.append(f"{folder}: USES {used}, which no judge_library() defines")
                continue
            if used not in included:
                problems.append(f"{folder}/CMakeLists.txt: {name} USES {used}, but none of its files includes a "
                                f"header of {libs[used][0]}/: drop the edge, or name the library whose headers it "
                                "includes")
            used_folder = libs[used][0]
            if folder in ranks and used_folder in ranks and ranks[used_folder] >= ranks[folder]:
                problems.append(f"{folder} uses {used_folder}, which does not come before it in {DOC}'s "
                                "dependency order: the graph or the doc is wrong")
        unreachable = included - closure(name, libs)
        for lib in sorted(unreachable):
            problems.append(f"{folder} includes headers of {libs[lib][0]} ({lib}) without using it")
    for p in problems:
        print(p)
    if problems:
        print(f"{len(problems)} place(s) where the declared library graph and the code or the doc disagree")
        return 1
    print(f"ok: {len(libs)} libraries of judge/, each edge needed and in the doc's order")
    return 0


if __name__ == "__main__":
    sys.exit(main())
