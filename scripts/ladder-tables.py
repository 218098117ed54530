#!/usr/bin/env python3
"""A problem's ladder table, as docs/problems.md shows it, from one `judge run --json` of its examples.

    bin/judge transpose problems/transpose/submissions/accepted --no-db --json transpose.json
    scripts/ladder-tables.py transpose.json [more.json ...] [--all] [--gaps] [--profile-list FILE]

For each report: a Markdown table with a row for the baseline (the run's own timing of it on every timed
case) and one per solution, a column per timed case. Each cell: the median, the figure in the problem's
unit, the percentage of the baseline's figure on that case and, for a memory-bound problem, of the
device's DRAM peak. By default the rows are the ladder's steps (files named `NN_*.cu`) and
`leetgpu_style.cu`; `--all` keeps every solution of the run (the hostile examples too). Where the
solutions' files are at hand (under `--root`, default here), a column says what each step teaches: the
sentence after "Ladder step N:" that opens the file.

`--gaps` adds, under each table, the ladder's top step on the run's largest timed case (the case whose
baseline took longest) against the two bars every top step is held to: at least 100% of the baseline on
every timed case and, where the unit is GB/s, at least 85% of the DRAM peak on the largest. `--profile-list`
writes one line "problem<TAB>solution<TAB>case" for each top step that misses a bar, which a GPU script
hands to `judge profile` so that the gap comes with Nsight Compute's account of it.

Nothing is measured here: every number is one the judge printed in the report, so a table is exactly as
honest as the run it came from. Exit 1 when a report cannot be read, naming the file and the field.
"""

import argparse
import json
import os
import re
import sys

BASELINE_BAR = 100.0  # % of the baseline every top step reaches on every timed case
PEAK_BAR = 85.0  # % of the DRAM peak a memory-bound top step moves on the largest timed case
STEP = re.compile(r"^(\d\d)_.*\.cu$")


class ReportError(Exception):
    pass


def field(obj, name, where):
    if not isinstance(obj, dict) or name not in obj:
        raise ReportError(f"{where}: no field '{name}'")
    return obj[name]


def duration(ms):
    """A median as a person reads it: µs below a millisecond, ms above."""
    if ms < 1.0:
        return f"{ms * 1000:.1f} µs"
    return f"{ms:.3f} ms"


def figure(value, unit):
    return f"{value:,.0f} {unit}" if value >= 10000 else f"{value:.0f} {unit}" if value >= 100 else f"{value:.1f} {unit}"


def solution_name(path):
    return os.path.splitext(os.path.basename(path))[0]


LESSON = re.compile(r"^// Ladder step \d+: ")


def lesson(path, root):
    """What a ladder step teaches, as its opening comment says it: the sentence after "Ladder step N:",
    across comment lines up to its full stop; empty when the file cannot be read or has no such line."""
    try:
        with open(os.path.join(root, path), encoding="utf-8") as f:
            head = [next(f, "") for _ in range(6)]
    except (OSError, UnicodeDecodeError):  # not at hand, or not text: the cell stays empty
        return ""
    if not head or not LESSON.match(head[0]):
        return ""
    words = [LESSON.sub("", head[0]).strip()]
    for line in head[1:]:
        if words[-1].endswith(".") or not line.startswith("// ") or not line[3:].strip():
            break
        words.append(line[3:].strip())
    text = " ".join(words)
    return text[:-1] if text.endswith(".") else text


def is_shown(path, everything):
    base = os.path.basename(path)
    return everything or bool(STEP.match(base)) or base == "leetgpu_style.cu"


def markdown_row(cells):
    """One table row; an empty cell is written "| |", as the docs' tables have it."""
    return "|" + "|".join(f" {c} " if c else " " for c in cells) + "|"


class Report:
    """One run's timed figures: its baseline per case and every solution's cells."""

    def __init__(self, path):
        try:
            with open(path, encoding="utf-8") as f:
                doc = json.load(f)
        except OSError as e:
            raise ReportError(f"{path}: cannot be read: {e.strerror}")
        except json.JSONDecodeError as e:
            raise ReportError(f"{path}: not JSON (line {e.lineno}, column {e.colno}): {e.msg}")
        self.path = path
        self.problem = field(doc, "problem", path)
        device = field(doc, "device", path)
        self.device = field(device, "name", f"{path}: device")
        self.uuid = device.get("uuid", "")
        baseline = doc.get("baseline") or {}
        self.baseline_label = baseline.get("label", "baseline") or "baseline"
        self.baseline_timed_at = baseline.get("timed_at", "")
        solutions = field(doc, "solutions", path)
        if not isinstance(solutions, list):
            raise ReportError(f"{path}: field 'solutions' is not a list")
        self.unit = None
        self.cases = []  # timed case names, in the order of the first solution that timed them
        self.baseline = {}  # case -> (median_ms, speed)
        # (solution, {case: (median_ms, speed, pct_of_baseline, pct_of_peak)}) for each solution, in order
        self.solutions = []
        for k, s in enumerate(solutions):
            at = f"{path}: solutions[{k}]"
            unit = field(s, "speed_unit", at)
            cells = {}
            for c in field(s, "cases", at):
                name = field(c, "name", f"{at}: cases")
                median = c.get("median_ms")
                if median is None:
                    continue
                speed = field(c, "gflops" if "gflops" in c else "gbps", f"{at}: case {name}")
                pct = c.get("pct_of_baseline")
                cells[name] = (median, speed, pct, c.get("pct_of_peak"))
                self.unit = self.unit or unit
                if name not in self.cases:
                    self.cases.append(name)
                base = c.get("baseline")
                if name not in self.baseline and base and pct:
                    self.baseline[name] = (field(base, "median_ms", f"{at}: case {name}: baseline"), speed * 100.0 / pct)
            self.solutions.append((s, cells))

    def memory_bound(self):
        return self.unit == "GB/s"

    def largest_case(self):
        """The timed case whose baseline took longest: the one the peak bar is read on."""
        timed = [c for c in self.cases if c in self.baseline]
        if not timed:
            return self.cases[-1] if self.cases else None
        return max(timed, key=lambda c: self.baseline[c][0])

    def shown(self, everything):
        return [(s, cells) for s, cells in self.solutions if is_shown(s.get("path", ""), everything)]

    def top_step(self):
        """(solution, cells) of the ladder's last step, or None."""
        steps = [(s, cells) for s, cells in self.solutions if STEP.match(os.path.basename(s.get("path", "")))]
        return max(steps, key=lambda step: os.path.basename(step[0]["path"])) if steps else None


def table(report, everything, root):
    unit = report.unit or ""
    lines = []
    heading = f"{report.problem} on {report.device}"
    if report.uuid:
        heading += f" ({report.uuid[:12]})"
    if report.baseline_timed_at:
        heading += f", baseline timed {report.baseline_timed_at}"
    lines.append(heading + ":")
    lines.append("")
    shown = report.shown(everything)
    lessons = [lesson(s.get("path", ""), root) for s, _ in shown]
    teaches = any(lessons)

    def lesson_column(text):
        return [text] if teaches else []

    lines.append(markdown_row(["solution", *lesson_column("what it teaches"), "verdict",
                               *(f"`{c}`" for c in report.cases)]))
    lines.append("|" + "---|" * (2 + len(lesson_column("")) + len(report.cases)))
    base_cells = []
    for c in report.cases:
        b = report.baseline.get(c)
        base_cells.append(f"{duration(b[0])}, {figure(b[1], unit)}" if b else "not timed")
    lines.append(markdown_row([f"{report.baseline_label} (baseline)", *lesson_column(""), "", *base_cells]))
    for (s, cells), taught in zip(shown, lessons):
        row = []
        for c in report.cases:
            got = cells.get(c)
            if not got:
                row.append("not timed")
                continue
            median, speed, pct, peak = got
            text = f"{duration(median)}, {figure(speed, unit)}"
            if pct:
                text += f" ({pct:.1f}%)"
            if peak and report.memory_bound():
                text += f", {peak:.1f}% of peak"
            row.append(text)
        lines.append(markdown_row([solution_name(s.get("path", "?")), *lesson_column(taught), s.get("verdict", "?"), *row]))
    return "\n".join(lines)


def gaps(report):
    """The top step against the bars: (lines, [(problem, path, case)] to profile)."""
    if report.top_step() is None:
        return [f"{report.problem}: no ladder step (NN_*.cu) in this run"], []
    top, cells = report.top_step()
    name = solution_name(top["path"])
    lines, to_profile = [], []
    below = [(c, cells[c][2]) for c in report.cases if c in cells and cells[c][2] and cells[c][2] < BASELINE_BAR]
    missing = [c for c in report.cases if c not in cells]
    for c, pct in below:
        lines.append(f"{report.problem}: {name} at {pct:.1f}% of the baseline on {c} (bar {BASELINE_BAR:.0f}%)")
        to_profile.append((report.problem, top["path"], c))
    for c in missing:
        lines.append(f"{report.problem}: {name} not timed on {c} (verdict {top.get('verdict', '?')})")
    largest = report.largest_case()
    if report.memory_bound() and largest in cells:
        peak = cells[largest][3] or 0.0
        verdict = "meets" if peak >= PEAK_BAR else "misses"
        lines.append(f"{report.problem}: {name} moves {peak:.1f}% of the DRAM peak on {largest}, the largest "
                     f"timed case: {verdict} the {PEAK_BAR:.0f}% bar")
        if peak < PEAK_BAR and (report.problem, top["path"], largest) not in to_profile:
            to_profile.append((report.problem, top["path"], largest))
    if not below and not missing:
        lines.append(f"{report.problem}: {name} at or past the baseline on every timed case")
    return lines, to_profile


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("reports", nargs="+", help="`judge run --json` reports, one per problem")
    parser.add_argument("--all", action="store_true", help="every solution of the run, not only the ladder")
    parser.add_argument("--gaps", action="store_true", help="the top step against the bars, under each table")
    parser.add_argument("--profile-list", metavar="FILE", help="write the top steps that miss a bar, to profile")
    parser.add_argument("--root", default=".", help="where the reports' solution paths start (default: here), "
                        "for the column of what each step teaches, read from its opening comment")
    args = parser.parse_args(argv)
    to_profile = []
    try:
        reports = [Report(p) for p in args.reports]
    except ReportError as e:
        print(f"ladder-tables: {e}", file=sys.stderr)
        return 1
    for n, report in enumerate(reports):
        if n:
            print()
        if not report.cases:
            print(f"{report.problem} ({report.path}): no timed case in this run")
            continue
        print(table(report, args.all, args.root))
        if args.gaps or args.profile_list:
            lines, found = gaps(report)
            to_profile += found
            if args.gaps:
                print()
                for line in lines:
                    print(f"- {line}")
    if args.profile_list:
        with open(args.profile_list, "w", encoding="utf-8") as f:
            for problem, path, case in to_profile:
                f.write(f"{problem}\t{path}\t{case}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
