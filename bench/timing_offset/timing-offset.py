#!/usr/bin/env python3
"""Is the difference between the judge's CUPTI kernel times and Nsight Compute's a constant offset?

Runs the timing_offset tool (timing_offset.cu beside it) twice: alone (CUPTI records, a %globaltimer
bracket inside the kernel, CUDA events) and under `ncu --clock-control none` (gpu__time_duration.sum per
launch). Prints one Markdown table over kernel sizes, with each method's difference from the bracket:
a constant column means a constant offset. Needs a GPU and ncu.

With --rest: vector_add's kernels as learners write them (one float per thread, and float4), after the
flush with 0 or 2 ms of idle GPU before each launch, by CUPTI, by CUDA events with and without CUPTI's
kernel tracing, and under ncu (--cache-control none, so that both see the tool's own flush): does a kernel
read faster after the GPU rested, and does tracing change it?

Usage: bench/timing_offset/timing-offset.py [--repeats 30] [--ncu-repeats 5] [--rest]
"""
import argparse
import csv
import io
import os
import shutil
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WARMUP = 3  # launches per size the tool does not count (timing_offset.cu)


def tool_path():
    for folder in ("bench",):
        path = os.path.join(ROOT, os.environ.get("JUDGE_BUILD_DIR", "build"), folder, "timing_offset")
        if os.access(path, os.X_OK):
            return path
    sys.exit("timing-offset: build the timing_offset target first (cmake --build build --target timing_offset)")


def run_alone(tool, repeats, touch=False):
    out = subprocess.run([tool, str(repeats)] + (["touch"] if touch else []), capture_output=True, text=True,
                         check=True).stdout
    return {(r["kernel"], int(r["size_mib"])): r for r in csv.DictReader(io.StringIO(out))}


def run_under_ncu(tool, repeats, sizes):
    ncu = shutil.which("ncu") or "/usr/local/cuda/bin/ncu"
    cmd = [ncu, "--clock-control", "none", "--csv", "--metrics", "gpu__time_duration.sum",
           "--kernel-name", "regex:stream_", tool, str(repeats)]
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    rows = [l for l in proc.stdout.splitlines() if l.startswith('"')]
    values = []
    for row in csv.DictReader(io.StringIO("\n".join(rows))):
        if row.get("Metric Name") == "gpu__time_duration.sum":
            scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3}
            values.append(float(row["Metric Value"].replace(",", "")) * scale.get(row.get("Metric Unit", "ns"), 1e-3))
    per_key = repeats + WARMUP  # the tool's launch order: by size, float4 then scalar, warm-up first
    if len(values) != per_key * len(sizes):
        print(f"(ncu gave {len(values)} launches, expected {per_key * len(sizes)}; stderr: {proc.stderr[-400:]})")
        return {}
    return {key: statistics.median(values[i * per_key + WARMUP:(i + 1) * per_key]) for i, key in enumerate(sizes)}


def ncu_launches(tool, args, kernel_regex):
    ncu = shutil.which("ncu") or "/usr/local/cuda/bin/ncu"
    cmd = [ncu, "--clock-control", "none", "--cache-control", "none", "--csv", "--metrics", "gpu__time_duration.sum",
           "--kernel-name", kernel_regex, tool] + args
    proc = subprocess.run(cmd, capture_output=True, text=True, check=False)
    rows = [l for l in proc.stdout.splitlines() if l.startswith('"')]
    scale = {"ns": 1e-3, "nsecond": 1e-3, "us": 1.0, "usecond": 1.0, "ms": 1e3, "msecond": 1e3}
    return [float(r["Metric Value"].replace(",", "")) * scale.get(r.get("Metric Unit", "ns"), 1e-3)
            for r in csv.DictReader(io.StringIO("\n".join(rows))) if r.get("Metric Name") == "gpu__time_duration.sum"]


def rest_table(tool, repeats, ncu_repeats):
    out = subprocess.run([tool, str(repeats), "rest"], capture_output=True, text=True, check=True).stdout
    alone = list(csv.DictReader(io.StringIO(out)))
    out = subprocess.run([tool, str(repeats), "rest", "nocupti"], capture_output=True, text=True, check=True).stdout
    untraced = list(csv.DictReader(io.StringIO(out)))
    out = subprocess.run([tool, str(repeats), "rest", "serial"], capture_output=True, text=True, check=True).stdout
    serial = list(csv.DictReader(io.StringIO(out)))
    values = ncu_launches(tool, [str(ncu_repeats), "rest"], "regex:va_")
    per_key = ncu_repeats + WARMUP
    print("| kernel | n | idle before launch | CUPTI µs | ncu µs | CUPTI − ncu | events µs, traced | events µs, not traced "
          "| CUPTI serialised µs | events µs, serialised |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for i, r in enumerate(alone):
        cupti = float(r["cupti_us"])
        n = (statistics.median(values[i * per_key + WARMUP:(i + 1) * per_key])
             if len(values) == per_key * len(alone) else None)
        print(f"| {r['kernel']} | {r['n']} | {int(r['rest_us']) / 1000:g} ms | {cupti:.2f} | "
              f"{f'{n:.2f}' if n else '-'} | {f'{cupti - n:+.2f}' if n else '-'} | {float(r['events_us']):.2f} | "
              f"{float(untraced[i]['events_us']):.2f} | {float(serial[i]['cupti_us']):.2f} | "
              f"{float(serial[i]['events_us']):.2f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeats", type=int, default=30)
    ap.add_argument("--ncu-repeats", type=int, default=5)
    ap.add_argument("--rest", action="store_true", help="the idle-before-launch experiment (see above)")
    args = ap.parse_args()
    tool = tool_path()
    if args.rest:
        rest_table(tool, args.repeats, args.ncu_repeats)
        return
    alone = run_alone(tool, args.repeats)
    sizes = sorted(alone, key=lambda k: (k[1], k[0] != "float4"))
    ncu = run_under_ncu(tool, args.ncu_repeats, sizes)
    # The same after the flush, with every 64 KiB of the kernel's buffers read once (address translations
    # cached again, L2 otherwise cold): what the flush costs a kernel beyond its data.
    touched = run_alone(tool, args.repeats, touch=True)
    print("| kernel | x+y MiB | bracket µs | CUPTI µs | events µs | ncu µs | CUPTI − bracket | ncu − bracket | CUPTI − ncu | CUPTI after touch µs |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for size in sizes:
        r = alone[size]
        bracket, cupti, events = float(r["bracket_us"]), float(r["cupti_us"]), float(r["events_us"])
        n = ncu.get(size)
        cells = [size[0], f"{size[1]}", f"{bracket:.2f}", f"{cupti:.2f}", f"{events:.2f}", f"{n:.2f}" if n else "-",
                 f"{cupti - bracket:+.2f}", f"{n - bracket:+.2f}" if n else "-", f"{cupti - n:+.2f}" if n else "-",
                 f"{float(touched[size]['cupti_us']):.2f}"]
        print("| " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
