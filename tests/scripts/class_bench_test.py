#!/usr/bin/env python3
"""scripts/class-bench.py without a GPU: --mix parsing, the classes it draws from the problems' examples
(size, mix, a kind without examples dropped and said, the same class for the same seed, examples repeated in
turn), the lines it reads from `judge run` and from a GPU worker's log, the table it makes of a canned JSON
file (tests/data/class-bench/two-problems.json), what a student of each expected verdict cost, the warm-up's
commands, and its one-line errors for bad arguments.

Usage: class_bench_test.py SOURCE_DIR
"""
import collections
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

FAILURES = []


def check(ok, what):
    if not ok:
        FAILURES.append(what)
        print(f"FAILED: {what}", flush=True)


def load(root):
    spec = importlib.util.spec_from_file_location("class_bench", os.path.join(root, "scripts", "class-bench.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def problem_names(root):
    folder = os.path.join(root, "problems")
    return sorted(d for d in os.listdir(folder) if os.path.isdir(os.path.join(folder, d)))


def raises_usage(bench, fn, *args):
    try:
        fn(*args)
    except bench.usage:
        return True
    return False


def test_mix(bench):
    check(bench.parse_mix("ac=20,wa=6,rte=2,tle=2") == {"ac": 20, "wa": 6, "rte": 2, "tle": 2}, "a full --mix")
    check(bench.parse_mix("ac,wa") == {"ac": 20, "wa": 6}, "bare names take their default counts")
    check(bench.parse_mix("AC=3, ce=1") == {"ac": 3, "ce": 1}, "names in any case, spaces after commas")
    for bad in ("ac=20,xx=1", "ac=-1", "ac=two", "ac=1,ac=2", "ac=0,wa=0", "ac=1,", ""):
        check(raises_usage(bench, bench.parse_mix, bad), f"--mix {bad!r} is refused")
    check(bench.share_out(30, {"ac": 20, "wa": 6, "rte": 2, "tle": 2}) == {"ac": 20, "wa": 6, "rte": 2, "tle": 2},
          "30 shared out as 20/6/2/2 stays so")
    check(bench.share_out(10, {"ac": 20, "wa": 6, "rte": 2, "tle": 2}) == {"ac": 7, "wa": 2, "rte": 1, "tle": 0},
          f"10 shared out by largest remainder: {bench.share_out(10, {'ac': 20, 'wa': 6, 'rte': 2, 'tle': 2})}")


def test_classes(bench, root):
    mix = bench.DEFAULT_MIX
    problems = problem_names(root)
    check(len(problems) >= 2, "problems/ has problems")
    for p in problems:
        folder = os.path.join(root, "problems", p)
        roster, drawn, notes = bench.make_class(folder, mix, 30, 1)
        check(len(roster) == 30 and sum(drawn.values()) == 30, f"{p}: a class of 30 ({len(roster)}, {drawn})")
        check(drawn.get("ac") == 20, f"{p}: 20 accepted students ({drawn})")
        check(len({s["student"] for s in roster}) == 30, f"{p}: 30 distinct students")
        check(bench.make_class(folder, mix, 30, 1) == (roster, drawn, notes), f"{p}: the same seed, the same class")
        check([s["example"] for s in bench.make_class(folder, mix, 30, 2)[0]] != [s["example"] for s in roster],
              f"{p}: another seed, another class")
        for s in roster:
            check(os.path.isfile(os.path.join(folder, "submissions", s["example"])), f"{p}: {s['example']} exists")
            check(s["example"].startswith(bench.KINDS[s["kind"]][0] + "/"), f"{p}: {s['example']} is a {s['kind']}")
        # Each kind's examples are repeated in turn: none drawn twice more than another.
        for kind in drawn:
            seen = collections.Counter(s["example"] for s in roster if s["kind"] == kind)
            pool = bench.examples_of(folder, kind)
            check(len(seen) == min(len(pool), drawn[kind]) and max(seen.values()) - min(seen.values()) <= 1,
                  f"{p}: {kind} examples repeated in turn ({dict(seen)})")
        missing = [k for k in mix if not bench.examples_of(folder, k)]
        check(bool(notes) == bool(missing), f"{p}: a dropped kind is said ({missing}, {notes})")
        for k in missing:
            check(k not in drawn, f"{p}: no {k} drawn without {k} examples")
            check(any(bench.KINDS[k][0] in n for n in notes), f"{p}: the note names {bench.KINDS[k][0]}")
    # The ladder steps and the LeetGPU-style example are the accepted students, where there is a ladder.
    roster, _, _ = bench.make_class(os.path.join(root, "problems", "matmul"), {"ac": 30}, 30, 1)
    names = {os.path.basename(s["example"]) for s in roster}
    check(all(n[:2].isdigit() or n == "leetgpu_style.cu" for n in names), f"matmul: ladder steps only ({names})")
    # A made-up problem with accepted examples only: the failing students submit accepted ones, said so.
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, "toy", "submissions", "accepted"))
        for n in ("a.cu", "b.cu"):
            open(os.path.join(tmp, "toy", "submissions", "accepted", n), "w").close()
        roster, drawn, notes = bench.make_class(os.path.join(tmp, "toy"), mix, 30, 1)
        check(drawn == {"ac": 30} and len(notes) == 1 and "30 ac" not in notes[0] and "10 ac" in notes[0],
              f"toy: the 10 failing students submit accepted examples ({drawn}, {notes})")
        os.makedirs(os.path.join(tmp, "empty", "submissions"))
        check(raises_usage(bench, bench.make_class, os.path.join(tmp, "empty"), mix, 30, 1),
              "a problem without any example is refused")


def test_lines(bench):
    m = bench.SOLUTION_LINE.match("/tmp/class-bench-x/s03_wa_float4_without_tail.cu  WA\n")
    check(m is not None and m.group(2) == "WA", "a solution's line of `judge run` gives its verdict")
    check(bench.SOLUTION_LINE.match("  aligned_1024x512x1024        1024x512x1024    AC") is None, "a case line is not")
    log = ["judge serve: listening on http://127.0.0.1:1234/\n",
           "judge worker: gpu GPU-1: batch of 16 matmul submission(s) in 13.37 s: problem 0.00 s, probe 0.01 s, "
           "compile wait 0.20 s, runner start 2.88 s, checked calls 3.64 s, timing 4.68 s, runner end 2.12 s\n",
           "judge worker: gpu GPU-1: batch of 2 vector_add submission(s) in 1.00 s: results 0.50 s\n",
           "judge worker: gpu GPU-1: batch of 12 matmul submission(s) in 10.13 s: runner start 1.91 s\n"]
    batches = bench.serve_batches(log, "matmul")
    check([(n, s) for n, s, _ in batches] == [(16, 13.37), (12, 10.13)], f"the worker's matmul batches ({batches})")
    phases = bench.add_phases({}, batches[0][2] + batches[1][2])
    check(phases == {"problem": 0.0, "probe": 0.01, "compile wait": 0.2, "runner start": 2.88 + 1.91,
                     "checked calls": 3.64, "timing": 4.68, "runner end": 2.12}, f"their phases summed ({phases})")
    wanted = {w["phase"]: w for w in bench.wanted_phases(phases)}
    check(abs(wanted["runner starts"]["seconds"] - 4.79) < 1e-9, "runner starts from the judge's 'runner start'")
    check(wanted["runner exits"]["seconds"] == 2.12, "runner exits from the judge's 'runner end'")
    check(wanted["CPU references"]["seconds"] is None and
          wanted["CPU references"]["note"].startswith(bench.NOT_REPORTED), "CPU references: not reported yet")
    later = bench.wanted_phases({"cpu reference": 1.5, "limit wait": 2.0})
    check([w["seconds"] for w in later if w["seconds"] is not None] == [1.5, 2.0],
          "phases the judge reports later are taken up by name")
    files = {w["phase"]: w for w in bench.wanted_phases({"output hand-over": 0.5})}["output hand-over"]
    check(files["seconds"] == 0.5, f"the runner's output hand-over, a phase of its own ({files})")
    older = {w["phase"]: w for w in bench.wanted_phases({"output files": 0.25})}["output hand-over"]
    check(older["seconds"] == 0.25, f"a judge that named it 'output files' is read the same ({older})")
    no_hang = {w["phase"]: w for w in bench.wanted_phases({"output hand-over": 0.5, "timing": 1.0})}
    check(no_hang["waiting on limits"]["note"] == "none in this run",
          f"a judge that reports every phase left out the limit wait because nothing hung ({no_hang})")
    roster = [{"student": "s00", "expected": "AC"}, {"student": "s01", "expected": "WA"}]
    summary = bench.mode_summary(2.0, {"s00": 1.5, "s01": 2.0}, {"s00": "AC", "s01": "WA"}, roster,
                                 {"timing": 1.0}, 2.0, "how", None, {"s00": {"timing": 0.7, "checked calls": 0.2}})
    check(summary["students"][0]["phases"] == {"timing": 0.7, "checked calls": 0.2},
          f"a student's own phases are kept ({summary['students'][0]})")
    check("phases" not in summary["students"][1], "a student without phases has none")
    f = bench.verdict_figures([3.0, 1.0, 2.0, 5.0, 4.0])
    check(f == {"first_verdict_s": 1.0, "verdict_median_s": 3.0, "verdict_p95_s": 5.0, "verdict_max_s": 5.0},
          f"verdict figures ({f})")


EXPECTED_TABLE = """\
Measured 2000-01-01T00:00:00Z on Fixture GPU: 4 students a problem, seed 1, timing on, compiles cached.

| problem | class | wall, local | wall, through serve | first verdict (local / serve) | to verdict, median / 95th | GPU busy (local / serve) | top phases (local) |
|---|---|---:|---:|---:|---:|---:|---|
| alpha | 3 ac 1 wa | 12.3 s | 14.0 s | 1.5 s / 2.3 s | local 6.0 / 11.9 s; serve 7.5 / 13.0 s | 10.0 s / 11.5 s | checked calls 4.3 s, timing 3.0 s, runner start 2.0 s |
| beta | 3 ac 1 wa | not measured yet | not measured yet | not measured yet | not measured yet | not measured yet | not measured yet |
"""


def test_table(root):
    script = os.path.join(root, "scripts", "class-bench.py")
    fixture = os.path.join(root, "tests", "data", "class-bench", "two-problems.json")
    out = subprocess.run([sys.executable, script, "--markdown", fixture], capture_output=True, text=True)
    check(out.returncode == 0 and out.stdout == EXPECTED_TABLE,
          f"the table of the canned JSON file:\n{out.stdout}{out.stderr}\nexpected:\n{EXPECTED_TABLE}")
    with tempfile.TemporaryDirectory() as tmp:
        plan = os.path.join(tmp, "plan.json")
        out = subprocess.run([sys.executable, script, "--problem", "all", "--class-only", "--json", plan],
                             capture_output=True, text=True)
        check(out.returncode == 0 and os.path.isfile(plan), f"--class-only writes the classes: {out.stderr}")
        table = subprocess.run([sys.executable, script, "--markdown", plan], capture_output=True, text=True).stdout
        rows = [line for line in table.splitlines() if line.startswith("| ") and "not measured yet" in line]
        problems = problem_names(root)
        check(table.startswith("Not measured yet") and len(rows) == len(problems),
              f"a table of classes not graded says so, a row a problem:\n{table}")


def test_no_gpu_table(bench, root):
    """A grading without a GPU (compiled, nothing run) is not a measurement: its row stays not measured."""
    with open(os.path.join(root, "tests", "data", "class-bench", "two-problems.json")) as f:
        doc = json.load(f)
    for mode in ("local", "serve"):
        doc["problems"][0][mode]["device"] = None
    table = bench.markdown_table(doc)
    check(table.startswith("Not measured yet") and "12.3 s" not in table and table.count("not measured yet |") == 12,
          f"figures of a grading without a GPU stay out of the table:\n{table}")


def test_merged_files(bench, root):
    """Classes graded one problem a run make one table; a grading without timing makes its own."""
    script = os.path.join(root, "scripts", "class-bench.py")
    with open(os.path.join(root, "tests", "data", "class-bench", "two-problems.json")) as f:
        first = json.load(f)
    second = json.loads(json.dumps(first))
    second["date"] = "2000-01-02T00:00:00Z"
    beta = second["problems"][1]
    beta["local"] = dict(second["problems"][0]["local"], wall_s=21.0, device="Other GPU")
    second["problems"] = [beta, dict(second["problems"][0], local=None, serve=None)]
    untimed = json.loads(json.dumps(first))
    untimed["settings"]["timing"] = False
    untimed["problems"][0]["local"]["wall_s"] = 4.5
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, doc in enumerate((first, second, untimed)):
            paths.append(os.path.join(tmp, f"{i}.json"))
            with open(paths[-1], "w") as f:
                json.dump(doc, f)
        out = subprocess.run([sys.executable, script, "--markdown", *paths], capture_output=True, text=True)
    tables = out.stdout.split("\n\n| problem")
    check(out.returncode == 0 and out.stdout.count("| problem |") == 2, f"two settings, two tables:\n{out.stdout}")
    timed = out.stdout.split("Measured")[1]
    check("| alpha | 3 ac 1 wa | 12.3 s | 14.0 s" in timed and "| beta | 3 ac 1 wa | 21.0 s | not measured yet" in timed,
          f"a problem not graded in a later file keeps its figures; one graded there takes them:\n{out.stdout}")
    check("2000-01-01T00:00:00Z to 2000-01-02T00:00:00Z on Fixture GPU and Other GPU" in timed,
          f"the merged table names both dates and both devices:\n{out.stdout}")
    check(len(tables) == 3 and "timing off (local only)" in out.stdout and "| alpha | 3 ac 1 wa | 4.5 s" in out.stdout,
          f"the untimed grading has its own table:\n{out.stdout}")


def test_per_verdict(bench, root):
    """A student of each expected verdict: the mean of its students' own phases, AC before WA before TLE,
    students without phases left out, and the table under the class's table."""
    students = [{"student": "s00", "expected": "TLE", "phases": {"limit wait": 2.0, "runner end": 0.1}},
                {"student": "s01", "expected": "AC", "phases": {"timing": 0.5, "runner start": 0.2}},
                {"student": "s02", "expected": "AC", "phases": {"timing": 0.3, "runner start": 0.4, "runner end": 0.0}},
                {"student": "s03", "expected": "WA", "phases": {"checked calls": 0.1}},
                {"student": "s04", "expected": "WA"}]
    got = bench.per_verdict(students)
    check([k["expected"] for k in got] == ["AC", "WA", "TLE"], f"in verdict order: {got}")
    ac = got[0]
    check(ac["students"] == 2 and ac["seconds"] == 0.7 and
          ac["phases"] == [{"phase": "timing", "seconds": 0.4}, {"phase": "runner start", "seconds": 0.3}],
          f"an AC student: the mean of two, largest phase first, a phase of 0 s left out: {ac}")
    check(got[1]["students"] == 1, f"a student without phases counts in no mean: {got[1]}")
    with open(os.path.join(root, "tests", "data", "class-bench", "two-problems.json")) as f:
        doc = json.load(f)
    doc["problems"][0]["local"]["students"] = students
    table = bench.markdown_table(doc)
    check("| alpha | AC | 2 | 0.70 s | timing 0.40 s, runner start 0.30 s |" in table
          and "| alpha | TLE | 1 | 2.10 s | limit wait 2.00 s, runner end 0.10 s |" in table,
          f"the per-verdict table under the class's table:\n{table}")
    doc["problems"][0]["local"]["device"] = None
    check("A student of each expected verdict" not in bench.markdown_table(doc),
          "a grading without a GPU has no per-verdict table")


def test_warm_up(bench, root):
    """The warm-up compiles every distinct file on one case, then grades one accepted file on every case,
    timed or not as the class is, so that a class without timing finds the CPU references kept as well."""
    roster, files = [], []
    for kind, name in (("ac", "accepted/leetgpu_style.cu"), ("ac", "accepted/leetgpu_style.cu"),
                       ("wa", "wrong_answer/plain_tf32.cu")):
        roster.append({"kind": kind})
        files.append(os.path.join(root, "problems", "matmul", "submissions", name))
    for timing in (True, False):
        commands, distinct = bench.warm_up_commands("judge", "matmul", roster, files, timing)
        check(distinct == 2 and len(commands) == 2, f"two distinct files, two commands (timing {timing}): {commands}")
        compile_all, grade_one = commands
        check("--case" in compile_all and "--no-timing" in compile_all and compile_all.count(files[2]) == 1,
              f"every distinct file once, on one case, untimed: {compile_all}")
        check(grade_one[3:] == [files[0], "--no-db"] + ([] if timing else ["--no-timing"]) and "--case" not in grade_one,
              f"one accepted file on every case, timed as the class is (timing {timing}): {grade_one}")
    commands, _ = bench.warm_up_commands("judge", "matmul", roster[2:], files[2:], True)
    check(len(commands) == 1, f"without an accepted student only the compiles: {commands}")


def test_errors(root):
    script = os.path.join(root, "scripts", "class-bench.py")
    for args, says in ((["--problem", "no_such_problem"], "no such problem"),
                       (["--problem", "matmul", "--mix", "ac=20,zz=2"], "unknown kind 'zz'"),
                       (["--problem", "matmul", "--students", "0"], "--students 0"),
                       (["--problem", "matmul", "--judge", "/no/judge/here"], "no judge there"),
                       (["--problem", "matmul", "--local-only", "--serve-only"], "not allowed with"),
                       ([], "--problem is needed"),
                       (["--markdown", "/no/such.json"], "cannot read it")):
        out = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
        check(out.returncode == 2 and says in out.stderr and out.stderr.count("\n") == 1 and not out.stdout,
              f"{args}: exit 2 and one line saying {says!r} (exit {out.returncode}: {out.stderr!r})")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    root = sys.argv[1]
    bench = load(root)
    test_mix(bench)
    test_classes(bench, root)
    test_lines(bench)
    test_table(root)
    test_merged_files(bench, root)
    test_no_gpu_table(bench, root)
    test_per_verdict(bench, root)
    test_warm_up(bench, root)
    test_errors(root)
    if FAILURES:
        print(f"class_bench_test: {len(FAILURES)} check(s) failed")
        return 1
    print("class_bench_test: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
