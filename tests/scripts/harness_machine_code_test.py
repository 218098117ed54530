#!/usr/bin/env python3
"""The harness library's kernels are built as machine code for every GPU target configured, and, with the
project's default targets, for Hopper (sm_90): a runner on an H100 or H200 then loads them as built,
instead of the driver compiling their PTX at the first use of each kernel in every runner process (runners
keep no JIT cache). Reads each object's fat binary itself (its `.nv_fatbin` section), not the flags.

Usage: harness_machine_code_test.py LIBRARY CONFIGURED DEFAULT   (target lists: "75,90" or CMake's "75;90")
"""
import os
import struct
import subprocess
import sys
import tempfile

FATBIN_MAGIC = 0xBA55ED50
KIND_PTX, KIND_ELF = 1, 2


def fatbin_entries(blob):
    """(kind, arch) of each entry of a fat binary: PTX or machine code (ELF), and its target (75, 90)."""
    entries, offset = [], 0
    while offset + 16 <= len(blob):
        magic, _version, header_size, fat_size = struct.unpack_from("<IHHQ", blob, offset)
        if magic != FATBIN_MAGIC:
            raise ValueError(f"no fat binary header at byte {offset}")
        entry, end = offset + header_size, offset + header_size + fat_size
        while entry < end:
            kind, _flags, entry_header, size = struct.unpack_from("<HHIQ", blob, entry)
            arch = struct.unpack_from("<I", blob, entry + 28)[0]
            entries.append((kind, arch))
            entry += entry_header + size
        offset = end
    return entries


def targets(listed):
    """CMake's target list as (kind, arch) wanted: "90" both, "90-real" machine code, "90-virtual" PTX."""
    wanted = set()
    for item in filter(None, listed.replace(",", ";").split(";")):
        name, _, form = item.partition("-")
        if not name.rstrip("af").isdigit():
            print(f"note: {item} is resolved by CMake itself (native, all): not checked by name")
            continue
        arch = int(name.rstrip("af"))
        if form in ("", "real"):
            wanted.add((KIND_ELF, arch))
        if form in ("", "virtual"):
            wanted.add((KIND_PTX, arch))
    return wanted


def main():
    library, configured, default = (a.replace(",", ";") for a in sys.argv[1:4])
    wanted = targets(configured)
    failures = []
    if configured == default and (KIND_ELF, 90) not in wanted:
        failures.append(f"the project's default targets ({default}) give no sm_90 machine code")
    with tempfile.TemporaryDirectory() as work:
        subprocess.run(["ar", "x", os.path.abspath(library)], cwd=work, check=True)
        with_kernels, every_entry = 0, set()
        for member in sorted(os.listdir(work)):
            section = os.path.join(work, member + ".nv_fatbin")
            subprocess.run(["objcopy", "-O", "binary", "--only-section=.nv_fatbin", member, section],
                           cwd=work, check=True)
            blob = open(section, "rb").read()
            if not blob:
                continue  # host code only
            with_kernels += 1
            found = set(fatbin_entries(blob))
            every_entry |= found
            for kind, arch in sorted(wanted - found):
                what = "machine code (sm" if kind == KIND_ELF else "PTX (compute"
                failures.append(f"{member}: no {what}_{arch}); it holds {sorted(found)}")
        if with_kernels == 0:
            failures.append(f"no object of {library} holds kernels")
        elif not any(kind == KIND_ELF for kind, _ in every_entry):
            failures.append(f"{library} holds no machine code at all")
    print(f"{library}: {with_kernels} object(s) with kernels, configured for {configured} (default {default})")
    for f in failures:
        print("FAIL:", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
