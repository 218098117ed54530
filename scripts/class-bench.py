#!/usr/bin/env python3
"""A class of 30 per problem, right and wrong solutions mixed, graded locally and through `judge serve`:

  scripts/class-bench.py --problem P|all [--mix ac=20,wa=6,rte=2,tle=2] [--students 30] [--seed 1]
                         [--local-only | --serve-only] [--no-timing] [--json FILE] [--judge build/bin/judge]
  scripts/class-bench.py --problem all --class-only --json FILE     # the classes only, nothing graded
  scripts/class-bench.py --markdown FILE [FILE ...]                 # docs/deploy.md's tables from JSON files

Each class is drawn from the problem's own examples (problems/P/submissions/<verdict>/*.cu): the accepted
ones are its ladder steps (accepted/NN_*.cu) and its LeetGPU-style example, the others every example of
their folder. --mix gives how many students submit each kind (ac, wa, rte, tle, ce; a bare name takes its
default count); the counts are scaled to --students. A kind the problem has no example of is dropped, its
students submitting the other failing kinds instead (or accepted ones, where there are none), and the
script says so. The draw is seeded: the same seed, problem and mix give the same class, examples repeated
in turn where a kind has fewer than its students.

Before the class (unless --cold), every distinct file is compiled and the problem's runner, CPU reference
and baseline built, one accepted file graded on every case (the CPU reference's outputs of every hidden case
kept; the baseline timed when the class is), as a course's server has them before its class submits. Then the
class is graded twice: locally (one `judge run` of all 30, each verdict's time taken as its line is
printed) and through a `judge serve` on loopback (each student submitting through the API at once, the
time from submit to verdict seen by a watcher every 0.1 s). For each it prints and writes: the wall time,
the time to the first verdict, the median and 95th percentile of the time to each verdict, the GPU's busy
time and where the time went, phase by phase, as the judge reports it (the local run's JSON; the GPU
worker's batch lines through the server). Phases the judge does not yet report on their own are said to be
"not reported by this judge yet", with the phase that holds them. Locally, it also prints what one
student of each expected verdict cost (the mean of their own phases): what every accepted student pays
beside its timing, and what a wrong, crashing or hanging one costs the class.

GPU busy: locally, the run's time holding the GPU less its waits for compiles (every phase after "gpu
wait" but "compile wait"); through the server, the union of the times each GPU had a submission running.
`judge serve` has no --no-timing: with --no-timing only the local grading is untimed.

Exits 0 when every student of every class got a verdict, 1 when any was not graded, 2 on a bad argument.
"""
import argparse
import datetime
import glob
import json
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from class_serve import class_server, percentile, watcher  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NAME = "class-bench"
NOT_MEASURED = "not measured yet"
NOT_REPORTED = "not reported by this judge yet"

# Each kind of student: its example folder and the verdict it should get.
KINDS = {"ac": ("accepted", "AC"), "wa": ("wrong_answer", "WA"), "rte": ("run_time_error", "RTE"),
         "tle": ("time_limit_exceeded", "TLE"), "ce": ("compile_error", "CE")}
DEFAULT_MIX = {"ac": 20, "wa": 6, "rte": 2, "tle": 2}
DEFAULT_COUNT = dict(DEFAULT_MIX, ce=2)  # what a bare name in --mix stands for

# Where the time goes, in the phases a class's grading should be told apart by: (label, the judge's phase
# names that report it, where it is today when none does).
WANTED_PHASES = [
    ("input generation", ("input generation",),
     "inside 'timing' (the runner generates each sample's inputs) and 'checked calls' (each call's)"),
    ("CPU references", ("cpu reference", "cpu references"),
     "inside 'checked calls' (grader::cpu_reference, the first time a run asks for a case's outputs)"),
    ("GPU references", ("gpu reference", "gpu references"),
     "inside 'timing' (the runner's GPU reference checks the timed samples) and 'baseline'"),
    ("runner starts", ("runner start",), ""),
    ("checked calls", ("checked calls",), ""),
    ("output hand-over", ("output hand-over", "output files"),
     "inside 'checked calls' (the runner copying the outputs to the host, into the output window or files)"),
    ("output checks", ("output checks",),
     "inside 'checked calls' (reading the runner's outputs and comparing them with the references)"),
    ("sanitizer", ("sanitizer",), ""),
    ("timing", ("timing",), ""),
    ("runner exits", ("runner end", "runner exit"), ""),
    ("waiting on limits", ("limit wait", "time limit wait"),
     "inside 'checked calls' (a call run to its time limit is not told apart)"),
]
# Phases of a local run before the GPU is held, or while it waits: not GPU-busy time.
NOT_GPU_PHASES = {"problem", "probe", "gpu wait", "compile wait"}


class usage(Exception):
    """A bad argument: one line, exit 2."""


# ---- the class ------------------------------------------------------------------------------------------

def parse_mix(text):
    """'ac=20,wa=6,rte=2,tle=2' (or bare names: their default counts) -> {kind: count}, in the order given."""
    mix = {}
    for item in text.split(","):
        item = item.strip()
        if not item:
            raise usage(f"--mix {text}: an empty item; give kind=count items such as ac=20,wa=6,rte=2,tle=2")
        name, _, count = item.partition("=")
        name = name.strip().lower()
        if name not in KINDS:
            raise usage(f"--mix {text}: unknown kind '{name}'; the kinds are {', '.join(KINDS)}")
        if name in mix:
            raise usage(f"--mix {text}: '{name}' is given twice")
        if not _:
            mix[name] = DEFAULT_COUNT[name]
        elif re.fullmatch(r"\s*\d+\s*", count):
            mix[name] = int(count)
        else:
            raise usage(f"--mix {text}: '{item}': the count must be a whole number of students, 0 or more")
    if sum(mix.values()) == 0:
        raise usage(f"--mix {text}: no students at all")
    return mix


def share_out(total, weights):
    """`total` shared out in proportion to weights {key: weight} (largest remainder; ties in their order)."""
    whole = sum(weights.values())
    if total <= 0 or whole <= 0:
        return {k: 0 for k in weights}
    exact = {k: total * w / whole for k, w in weights.items()}
    got = {k: int(v) for k, v in exact.items()}
    order = sorted(weights, key=lambda k: -(exact[k] - got[k]))  # sorted() is stable: ties keep their order
    for k in order[:total - sum(got.values())]:
        got[k] += 1
    return got


def examples_of(problem_dir, kind):
    """The examples a student of `kind` draws from: for ac the ladder steps and the LeetGPU-style example
    (every accepted example where there is no ladder), for the others every example of the folder."""
    folder = os.path.join(problem_dir, "submissions", KINDS[kind][0])
    files = sorted(glob.glob(os.path.join(folder, "*.cu")))
    if kind == "ac":
        ladder = [f for f in files if re.match(r"\d\d_", os.path.basename(f)) or
                  os.path.basename(f) == "leetgpu_style.cu"]
        return ladder or files
    return files


def make_class(problem_dir, mix, students, seed):
    """The class of `students` for the problem in problem_dir: (students [{student, kind, example,
    expected}], the mix actually drawn, notes on what was dropped). Deterministic for the same arguments."""
    problem = os.path.basename(os.path.normpath(problem_dir))
    counts = share_out(students, mix)
    pools = {k: examples_of(problem_dir, k) for k in counts}
    notes = []
    dropped = {k: n for k, n in counts.items() if n > 0 and not pools[k]}
    for k in dropped:
        counts[k] = 0
    if dropped:
        failing = {k: n for k, n in counts.items() if k != "ac" and n > 0 and k not in dropped}
        into = failing or ({"ac": 1} if pools.get("ac") or examples_of(problem_dir, "ac") else {})
        if not into:
            raise usage(f"{problem}: no examples of any kind of --mix in {problem_dir}/submissions")
        moved = share_out(sum(dropped.values()), into)
        for k, n in moved.items():
            counts[k] = counts.get(k, 0) + n
            pools.setdefault(k, examples_of(problem_dir, k))
        notes.append(f"{problem}: no " + " or ".join(KINDS[k][0] for k in dropped) + " examples: those "
                     f"{sum(dropped.values())} student(s) submit "
                     + " and ".join(f"{n} {k}" for k, n in moved.items() if n)
                     + " instead")
    chosen = []
    for k, n in counts.items():
        pool = list(pools[k])
        random.Random(f"{seed}:{problem}:{k}").shuffle(pool)
        chosen += [(k, pool[i % len(pool)]) for i in range(n)]
    random.Random(f"{seed}:{problem}:order").shuffle(chosen)  # the order the class submits in
    roster = [{"student": f"s{i:02d}", "kind": k, "expected": KINDS[k][1],
               "example": os.path.relpath(path, os.path.join(problem_dir, "submissions"))}
              for i, (k, path) in enumerate(chosen)]
    return roster, {k: n for k, n in counts.items() if n}, notes


def student_file(student):
    """The name a student's copy is graded under (distinct per student: results are kept by name)."""
    return f"{student['student']}_{student['kind']}_{os.path.basename(student['example'])}"


def first_case(problem):
    """The first case of testcases/<problem>/cases.yaml (what the warm-up grades), or None."""
    try:
        with open(os.path.join(ROOT, "testcases", problem, "cases.yaml")) as f:
            m = re.search(r"^\s*-\s*name:\s*(\S+)", f.read(), re.MULTILINE)
            return m.group(1) if m else None
    except OSError:
        return None


# ---- figures --------------------------------------------------------------------------------------------

def verdict_figures(times):
    """First, median and 95th percentile of the times to each verdict [s]."""
    times = [t for t in times if t is not None]
    if not times:
        return {"first_verdict_s": None, "verdict_median_s": None, "verdict_p95_s": None, "verdict_max_s": None}
    return {"first_verdict_s": round(min(times), 3), "verdict_median_s": round(percentile(times, 0.5), 3),
            "verdict_p95_s": round(percentile(times, 0.95), 3), "verdict_max_s": round(max(times), 3)}


def add_phases(total, phases):
    """Adds [(phase, seconds)] into the ordered dict `total`."""
    for phase, seconds in phases:
        total[phase] = total.get(phase, 0.0) + seconds
    return total


# A judge that reports this phase (by either name) reports every phase above: one it leaves out took no
# time in the run (the judge drops phases of 0 s), rather than lying inside another.
EVERY_PHASE_REPORTED = ("output hand-over", "output files")


def wanted_phases(phases):
    """The wanted phases [{phase, seconds, judge_phases, note}] from the judge's {phase: seconds}."""
    lower = {k.lower(): v for k, v in phases.items()}
    reports_all = any(n in lower for n in EVERY_PHASE_REPORTED)
    out = []
    for label, names, where in WANTED_PHASES:
        found = [n for n in names if n in lower]
        if found:
            out.append({"phase": label, "seconds": round(sum(lower[n] for n in found), 3),
                        "judge_phases": found, "note": ""})
        elif where and not reports_all:
            out.append({"phase": label, "seconds": None, "judge_phases": [], "note": NOT_REPORTED + ": " + where})
        else:  # a phase the judge reports, absent here: nothing was graded on a GPU
            out.append({"phase": label, "seconds": None, "judge_phases": [], "note": "none in this run"})
    return out


BATCH_LINE = re.compile(r"batch of (\d+) (\S+) submission\(s\) in ([\d.]+) s(?:: (.*))?$")
PHASE_ITEM = re.compile(r"\s*(.+?) (-?[\d.]+) s\s*$")


def serve_batches(log_lines, problem):
    """The GPU workers' batch lines of `problem` in a server's log: [(submissions, seconds, [(phase, s)])]."""
    batches = []
    for line in log_lines:
        m = BATCH_LINE.search(line.rstrip("\n"))
        if not m or m.group(2) != problem:
            continue
        phases = []
        for item in (m.group(4) or "").split(", "):
            p = PHASE_ITEM.match(item)
            if p:
                phases.append((p.group(1), float(p.group(2))))
        batches.append((int(m.group(1)), float(m.group(3)), phases))
    return batches


VERDICT_ORDER = ("AC", "WA", "RTE", "TLE", "CE")


def per_verdict(students):
    """What a student of each expected verdict cost, from the students whose own phases were reported:
    [{expected, students, seconds, phases: [{phase, seconds}]}], seconds the mean over those students,
    phases largest first. A class's time splits into what every accepted student pays beyond its timing
    (starts, inputs, exits) and what the failing ones pay (limits, crashes), which its total cannot tell."""
    groups = {}
    for s in students:
        if s.get("phases"):
            groups.setdefault(s["expected"], []).append(s["phases"])
    out = []
    for expected in sorted(groups, key=lambda v: (VERDICT_ORDER + (v,)).index(v)):
        rows = groups[expected]
        mean = {}
        for phases in rows:
            for phase, seconds in phases.items():
                mean[phase] = mean.get(phase, 0.0) + seconds / len(rows)
        out.append({"expected": expected, "students": len(rows), "seconds": round(sum(mean.values()), 3),
                    "phases": [{"phase": ph, "seconds": round(v, 3)}
                               for ph, v in sorted(mean.items(), key=lambda x: -x[1]) if round(v, 3) > 0]})
    return out


def largest_phases(entry):
    """A per_verdict entry's five largest phases, as its line and its table row say them."""
    return ", ".join(f"{x['phase']} {x['seconds']:.2f} s" for x in entry["phases"][:5])


def mode_summary(wall, times, verdicts, roster, phases, gpu_busy, gpu_busy_how, extra=None, student_phases=None):
    """One grading's figures (local or through the server), as the JSON holds them. `student_phases`: each
    student's own phases where the judge reported them (locally), {phase: seconds}."""
    students = []
    for s in roster:
        got = verdicts.get(s["student"])
        student = {"student": s["student"], "expected": s["expected"], "verdict": got,
                   "seconds": None if times.get(s["student"]) is None else round(times[s["student"]], 3)}
        own = (student_phases or {}).get(s["student"])
        if own:
            student["phases"] = {p: round(v, 3) for p, v in own.items()}
        students.append(student)
    out = {"wall_s": None if wall is None else round(wall, 3)}
    out.update(verdict_figures(times.values()))
    out.update({"gpu_busy_s": None if gpu_busy is None else round(gpu_busy, 3), "gpu_busy_how": gpu_busy_how,
                "phases": [{"phase": p, "seconds": round(s, 3)} for p, s in phases.items()],
                "wanted_phases": wanted_phases(phases),
                "not_graded": sum(1 for s in students if s["verdict"] is None),
                "unexpected": sum(1 for s in students if s["verdict"] and s["verdict"] != s["expected"]),
                "per_verdict": per_verdict(students), "students": students})
    out.update(extra or {})
    return out


def print_summary(where, problem, m):
    """The lines a grading's figures print as."""
    def s(v):
        return "-" if v is None else f"{v:.2f} s"
    print(f"{NAME}: {problem} {where}: wall {s(m['wall_s'])}; first verdict {s(m['first_verdict_s'])}, "
          f"to verdict median {s(m['verdict_median_s'])}, 95th percentile {s(m['verdict_p95_s'])}; "
          f"GPU busy {s(m['gpu_busy_s'])} ({m['gpu_busy_how']})")
    if m["error"]:
        print(f"{NAME}: {problem} {where}: {m['error']}")
    if m["not_graded"] or m["unexpected"]:
        off = [f"{x['student']} {x['verdict'] or 'not graded'} (expected {x['expected']})"
               for x in m["students"] if x["verdict"] != x["expected"]]
        print(f"{NAME}: {problem} {where}: {m['not_graded']} not graded, {m['unexpected']} not the example's "
              f"verdict: " + ", ".join(off))
    total = sum(p["seconds"] for p in m["phases"]) or 1.0
    print(f"{NAME}: {problem} {where}: phases: " + (", ".join(
        f"{p['phase']} {p['seconds']:.2f} s ({100 * p['seconds'] / total:.0f}%)"
        for p in sorted(m["phases"], key=lambda p: -p["seconds"])) or "none reported"))
    for w in m["wanted_phases"]:
        print(f"    {w['phase']:18} " + (f"{w['seconds']:.2f} s" if w["seconds"] is not None else w["note"]))
    for k in m.get("per_verdict") or []:
        print(f"{NAME}: {problem} {where}: a student expected {k['expected']} ({k['students']}): {k['seconds']:.2f} s, "
              + largest_phases(k))


# ---- grading --------------------------------------------------------------------------------------------

def warm_up_commands(judge, problem, roster, files, timing):
    """What warm_up runs: one `judge run` of every distinct file on the first case, untimed (the compiles,
    the runner and the CPU reference built), then one accepted file on every case, timed when the class is
    (the baseline timed and kept): the CPU reference's outputs of every hidden case are then in the runner
    cache, as a course's server has them after its first submission, timed or not."""
    case = first_case(problem)
    distinct = {}
    for f in files:
        with open(f, "rb") as src:
            distinct.setdefault(src.read(), f)
    commands = [[judge, "run", problem, *distinct.values(), "--no-db", "--no-timing"] + (["--case", case] if case else [])]
    accepted = [f for f, s in zip(files, roster) if s["kind"] == "ac"]
    if accepted:
        commands.append([judge, "run", problem, accepted[0], "--no-db"] + ([] if timing else ["--no-timing"]))
    return commands, len(distinct)


def warm_up(judge, problem, roster, files, timing):
    """Compiles the class and fills the caches a course's server has filled before a deadline
    (warm_up_commands)."""
    commands, distinct = warm_up_commands(judge, problem, roster, files, timing)
    for cmd in commands:
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    graded = len(commands) > 1
    print(f"{NAME}: {problem}: {distinct} distinct file(s) compiled, the runner, CPU reference and baseline "
          f"built{', the CPU reference of every case kept' if graded else ''}"
          f"{', the baseline timed' if timing and graded else ''}, before the class (--cold: not)", flush=True)


SOLUTION_LINE = re.compile(r"^(\S+\.cu)  (\S+)")
ANSI = re.compile(r"\033\[[0-9;]*m")


def grade_locally(judge, problem, roster, files, timing, timeout, output_files=False):
    """One `judge run` of the whole class; each verdict's time is when its solution's line is printed."""
    by_path = {f: s["student"] for f, s in zip(files, roster)}
    with tempfile.TemporaryDirectory(prefix="class-bench-") as tmp:
        report = os.path.join(tmp, "report.json")
        cmd = [judge, "run", problem, *files, "--no-db", "--json", report] + ([] if timing else ["--no-timing"])
        cmd += ["--output-files"] if output_files else []
        # stderr to a file: a pipe read only at the end could fill and stop the judge.
        err_file = open(os.path.join(tmp, "stderr.txt"), "w+")
        start = time.monotonic()
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=err_file, text=True)
        killer = threading.Timer(timeout, proc.kill)
        killer.start()
        times, verdicts = {}, {}
        for line in proc.stdout:
            m = SOLUTION_LINE.match(ANSI.sub("", line))
            if m and m.group(1) in by_path and by_path[m.group(1)] not in times:
                times[by_path[m.group(1)]] = time.monotonic() - start
                verdicts[by_path[m.group(1)]] = m.group(2)
        proc.wait()
        wall = time.monotonic() - start
        killed = not killer.is_alive()
        killer.cancel()
        err_file.seek(0)
        err = err_file.read() + (f"\njudge run killed after {timeout:.0f} s" if killed else "")
        err_file.close()
        try:
            with open(report) as f:
                doc = json.load(f)
        except (OSError, ValueError):
            doc = {}
    student_phases = {}
    for r in doc.get("solutions", []):  # the report's verdicts are the record; the lines gave the times
        if r.get("path") in by_path:
            verdicts[by_path[r["path"]]] = r.get("verdict")
            student_phases[by_path[r["path"]]] = add_phases({}, [(p["phase"], p["seconds"])
                                                                 for p in r.get("phases", [])])
    phases = add_phases({}, [(p["phase"], p["seconds"]) for p in doc.get("phases", [])])
    device = (doc.get("device") or {}).get("name") or None
    error = ""
    if proc.returncode not in (0, 1):
        error = f"judge run exited {proc.returncode}: " + " | ".join(err.strip().splitlines()[-3:])
    if not device:
        error = error or "no CUDA device: the class was compiled, not run"
    gpu_busy = sum(s for p, s in phases.items() if p not in NOT_GPU_PHASES) if device else None
    return mode_summary(wall, times, verdicts, roster, phases, gpu_busy,
                        "the run's time holding the GPU, less its waits for compiles",
                        {"device": device, "timing": timing, "error": error}, student_phases)


def grade_through_serve(judge, problem, roster, files, gpus, timeout):
    """The class submitted at once through `judge serve`; its figures from the watcher and the workers' log."""
    with class_server(judge, len(roster), gpus, echo=False) as server:
        ids, submit_times = {}, {}
        start = time.monotonic()
        watch = watcher(server, len(roster), start)
        for i, (s, path) in enumerate(zip(roster, files)):
            sid = server.submit(server.account(i), problem, path)
            ids[sid], submit_times[sid] = s["student"], time.monotonic() - start
        results, pending = server.wait_for(ids, start, timeout)
        wall = time.monotonic() - start
        watch.stop()
        log_lines = list(server.log_lines)
    latency = watch.latencies(submit_times)
    times = {ids[sid]: t for sid, t in latency.items()}
    verdicts = {ids[sid]: ((r.get("result") or {}).get("verdict") or r["state"]) for sid, r in results.items()}
    busy = watch.gpu_busy(submit_times, wall)
    batches = serve_batches(log_lines, problem)
    phases = {}
    for _, _, p in batches:
        add_phases(phases, p)
    devices = sorted({(r.get("device") or {}).get("name") for r in results.values() if r.get("device")} - {None})
    error = f"{len(pending)} submission(s) not done after {timeout:.0f} s" if pending else ""
    return mode_summary(wall, times, verdicts, roster, phases, sum(busy.values()) if busy else None,
                        "the union of the times each GPU had a submission of the class running",
                        {"device": ", ".join(devices) or None, "timing": True, "error": error,
                         "gpu_busy_per_gpu_s": {g: round(b, 3) for g, b in sorted(busy.items())},
                         "batches": [{"submissions": n, "seconds": s} for n, s, _ in batches]})


# ---- the table ------------------------------------------------------------------------------------------

def mix_text(mix):
    return " ".join(f"{n} {k}" for k, n in mix.items()) or "-"


def markdown_table(doc):
    """docs/deploy.md's table, from a JSON file this script wrote."""
    def sec(v):
        return f"{v:.1f} s" if isinstance(v, (int, float)) else None

    def pair(local, serve, key):
        a, b = sec((local or {}).get(key)), sec((serve or {}).get(key))
        if a is None and b is None:
            return NOT_MEASURED
        return f"{a or '-'} / {b or '-'}"

    rows = ["| problem | class | wall, local | wall, through serve | first verdict (local / serve) | "
            "to verdict, median / 95th | GPU busy (local / serve) | top phases (local) |",
            "|---|---|---:|---:|---:|---:|---:|---|"]
    for p in doc.get("problems", []):
        # A grading without a GPU compiled the class and ran nothing: its figures are not the class's.
        local, serve = (m if m and m.get("device") else None for m in (p.get("local"), p.get("serve")))
        spread = "; ".join(f"{where} {m['verdict_median_s']:.1f} / {m['verdict_p95_s']:.1f} s"
                           for where, m in (("local", local), ("serve", serve))
                           if m and m.get("verdict_median_s") is not None) or NOT_MEASURED
        phases = sorted((local or {}).get("phases") or [], key=lambda x: -x["seconds"])[:3]
        top = ", ".join(f"{x['phase']} {x['seconds']:.1f} s" for x in phases) or NOT_MEASURED
        rows.append(f"| {p['problem']} | {mix_text(p.get('mix', {}))} "
                    f"| {sec((local or {}).get('wall_s')) or NOT_MEASURED} "
                    f"| {sec((serve or {}).get('wall_s')) or NOT_MEASURED} "
                    f"| {pair(local, serve, 'first_verdict_s')} "
                    f"| {spread} "
                    f"| {pair(local, serve, 'gpu_busy_s')} | {top} |")
    s = doc.get("settings", {})
    devices = list(dict.fromkeys(m.get("device") for p in doc.get("problems", [])
                                 for m in (p.get("local"), p.get("serve")) if m and m.get("device")))
    device = " and ".join(devices)
    head = (f"Measured {doc.get('date', '?')} on {device or 'no GPU'}: {s.get('students', '?')} students a "
            f"problem, seed {s.get('seed', '?')}, timing {'on' if s.get('timing', True) else 'off (local only)'}, "
            f"compiles {'not cached (--cold)' if s.get('cold') else 'cached'}"
            f"{', outputs in files (--output-files)' if s.get('output_files') else ''}." if device else
            "Not measured yet: the classes below are drawn, none is graded "
            f"({s.get('students', '?')} students a problem, seed {s.get('seed', '?')}).")
    return head + "\n\n" + "\n".join(rows) + "\n" + per_verdict_table(doc)


def per_verdict_table(doc):
    """What one student of each expected verdict cost, locally, per problem (its mean phases); empty when no
    local grading reported its students' own phases. Computed from the students where an older file has no
    per_verdict of its own."""
    rows = []
    for p in doc.get("problems", []):
        local = p.get("local")
        if not local or not local.get("device"):
            continue
        for k in local.get("per_verdict") or per_verdict(local.get("students") or []):
            rows.append(f"| {p['problem']} | {k['expected']} | {k['students']} | {k['seconds']:.2f} s "
                        f"| {largest_phases(k)} |")
    if not rows:
        return ""
    return ("\nA student of each expected verdict, locally (the mean of its students' own phases):\n\n"
            "| problem | expected | students | a student | its largest phases |\n|---|---|---:|---:|---|\n"
            + "\n".join(rows) + "\n")


def merged_documents(docs):
    """Several JSON files of this script as one document per setting (timing on or off, cold or cached,
    class size, seed): a problem measured in several files keeps each mode's latest graded figures, so a
    table can be made from classes graded one problem a run."""
    merged = {}
    for doc in docs:
        s = doc.get("settings", {})
        key = (s.get("timing", True), s.get("cold", False), s.get("output_files", False), s.get("students"),
               s.get("seed"))
        into = merged.setdefault(key, {"settings": s, "dates": [], "problems": []})
        into["dates"].append(doc.get("date", "?"))
        for entry in doc.get("problems", []):
            had = next((e for e in into["problems"] if e["problem"] == entry["problem"]), None)
            if had is None:
                into["problems"].append(dict(entry))
                continue
            for mode in ("local", "serve"):
                if entry.get(mode) and entry[mode].get("device"):
                    had[mode] = entry[mode]
                    had["mix"] = entry.get("mix", had.get("mix"))
    out = []
    for doc in merged.values():
        dates = sorted(set(doc.pop("dates")))
        doc["date"] = dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}"
        out.append(doc)
    return out


# ---- main -----------------------------------------------------------------------------------------------

class one_line_parser(argparse.ArgumentParser):
    """argparse's errors as one line (exit 2), like the script's own."""

    def error(self, message):
        raise usage(message)


def arguments(argv):
    ap = one_line_parser(prog="class-bench.py", description=__doc__,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--problem", help="a problem's name (problems/<name>/), or all")
    ap.add_argument("--mix", default=",".join(f"{k}={n}" for k, n in DEFAULT_MIX.items()),
                    help="students of each kind (ac, wa, rte, tle, ce), scaled to --students (default %(default)s)")
    ap.add_argument("--students", type=int, default=30)
    ap.add_argument("--seed", type=int, default=1, help="draws the class (default %(default)s)")
    only = ap.add_mutually_exclusive_group()
    only.add_argument("--local-only", action="store_true", help="grade with `judge run` only")
    only.add_argument("--serve-only", action="store_true", help="grade through `judge serve` only")
    only.add_argument("--class-only", action="store_true", help="draw and print the classes, grade nothing")
    ap.add_argument("--no-timing", action="store_true", help="the local grading checks correctness only")
    ap.add_argument("--output-files", action="store_true",
                    help="the local grading hands outputs over in files (judge run --output-files), for comparison")
    ap.add_argument("--cold", action="store_true", help="no warm-up: compiles, runner and baseline are the class's")
    ap.add_argument("--gpus", default="all", help="judge serve --gpus (default %(default)s)")
    ap.add_argument("--timeout", type=float, default=1800, help="seconds a grading of one class may take")
    ap.add_argument("--json", default=os.path.join(ROOT, "results", "class-bench.json"),
                    help="where the figures are written (default results/class-bench.json)")
    ap.add_argument("--judge", default=os.path.join(ROOT, "build", "bin", "judge"))
    ap.add_argument("--markdown", metavar="FILE", nargs="+",
                    help="print docs/deploy.md's table from FILEs (one table a setting) and exit")
    a = ap.parse_args(argv)
    if a.markdown:
        return a
    if not a.problem:
        raise usage("--problem is needed: a problem's name or all (see problems/)")
    if a.students < 1:
        raise usage(f"--students {a.students}: give 1 or more")
    problems = sorted(d for d in os.listdir(os.path.join(ROOT, "problems"))
                      if os.path.isdir(os.path.join(ROOT, "problems", d)))
    if a.problem == "all":
        a.problems = problems
    elif a.problem in problems:
        a.problems = [a.problem]
    else:
        raise usage(f"--problem {a.problem}: no such problem in {os.path.join(ROOT, 'problems')} "
                    f"(there are: {', '.join(problems)}, or all)")
    a.mix_counts = parse_mix(a.mix)
    if not a.class_only and not (os.path.isfile(a.judge) and os.access(a.judge, os.X_OK)):
        raise usage(f"--judge {a.judge}: no judge there; build it (cmake --build build) or name one, "
                    "e.g. --judge bin/judge")
    return a


def grade_class(a, problem, roster, entry):
    """Grades one class as the arguments ask, into entry["local"] and entry["serve"]; False when a student
    was not graded or a grading failed."""
    ok = True
    with tempfile.TemporaryDirectory(prefix=f"class-bench-{problem}-") as tmp:
        files = []
        for s in roster:
            files.append(os.path.join(tmp, student_file(s)))
            shutil.copyfile(os.path.join(ROOT, "problems", problem, "submissions", s["example"]), files[-1])
        if not a.cold:
            warm_up(a.judge, problem, roster, files, not a.no_timing)
        if not a.serve_only:
            entry["local"] = grade_locally(a.judge, problem, roster, files, not a.no_timing, a.timeout,
                                           a.output_files)
            print_summary("local", problem, entry["local"])
            ok = ok and not entry["local"]["not_graded"] and not entry["local"]["error"]
        if not a.local_only:
            entry["serve"] = grade_through_serve(a.judge, problem, roster, files, a.gpus, a.timeout)
            print_summary("through judge serve", problem, entry["serve"])
            ok = ok and not entry["serve"]["not_graded"] and not entry["serve"]["error"]
    return ok


def git_commit():
    """The checkout's commit, with "+changes" where its tracked files differ from it (a copied tree whose
    .git is older than its files says so, rather than naming a commit that is not what ran)."""
    try:
        head = subprocess.run(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True).stdout.strip()
        if not head:
            return None
        changed = subprocess.run(["git", "-C", ROOT, "status", "--porcelain", "--untracked-files=no"],
                                 capture_output=True, text=True).stdout.strip()
        return head + ("+changes" if changed else "")
    except OSError:
        return None


def main(argv=None):
    try:
        a = arguments(argv)
        if a.markdown:
            docs = []
            for path in a.markdown:
                try:
                    with open(path) as f:
                        docs.append(json.load(f))
                except (OSError, ValueError) as e:
                    raise usage(f"--markdown {path}: cannot read it as JSON ({e})")
            sys.stdout.write("\n".join(markdown_table(doc) for doc in merged_documents(docs)))
            return 0
        doc = {"tool": "scripts/class-bench.py", "format": 1,
               "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
               "host": socket.gethostname(), "commit": git_commit(), "judge": a.judge,
               "settings": {"students": a.students, "mix": a.mix_counts, "seed": a.seed, "timing": not a.no_timing,
                            "cold": a.cold, "gpus": a.gpus, "output_files": a.output_files,
                            "modes": ["local"] * (not a.serve_only and not a.class_only)
                            + ["serve"] * (not a.local_only and not a.class_only)},
               "problems": []}
        classes = [(p,) + make_class(os.path.join(ROOT, "problems", p), a.mix_counts, a.students, a.seed)
                   for p in a.problems]
    except usage as e:
        print(f"{NAME}: {e}", file=sys.stderr)
        return 2
    ok = True
    for problem, roster, mix, notes in classes:
        for n in notes:
            print(f"{NAME}: {n}")
        print(f"{NAME}: {problem}: a class of {len(roster)}: {mix_text(mix)} (seed {a.seed})", flush=True)
        entry = {"problem": problem, "mix": mix, "notes": notes, "class": roster, "local": None, "serve": None}
        doc["problems"].append(entry)
        if a.class_only:
            for s in roster:
                print(f"  {s['student']} {s['kind']:3} {s['example']}")
        else:
            ok = grade_class(a, problem, roster, entry) and ok
        os.makedirs(os.path.dirname(os.path.abspath(a.json)), exist_ok=True)
        with open(a.json, "w") as f:  # after each problem: a long run cut short keeps what it measured
            json.dump(doc, f, indent=1)
            f.write("\n")
    print(f"{NAME}: figures written to {a.json} (table: scripts/class-bench.py --markdown {a.json})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
