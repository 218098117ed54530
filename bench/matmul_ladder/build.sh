#!/usr/bin/env bash
# Builds the ladder bench (bench.cu) on a machine with a GPU and CUDA 12.8+: the ladder's files as they
# are, each with its solve() renamed and its cudaDeviceSynchronize() removed (hooks.h), so that events time
# the GPU only. Run: ./build.sh && ./bench [name filter] [samples]
set -e
cd "$(dirname "$0")"
M=../../problems/matmul/submissions
V=../../problems/vector_add
F="-O3 -lineinfo -std=c++17 --generate-code=arch=compute_90,code=[compute_90,sm_90] -include hooks.h"
mkdir -p obj
pids=()
c() { nvcc $F -c "$1" -o "obj/$2.o" "${@:3}" & pids+=($!); }
c $M/accepted/05_register_2d.cu m05 -Dsolve=solve_05
c $M/accepted/06_double_buffered.cu m06 -Dsolve=solve_06
c $M/accepted/07_tensor_core_3xtf32.cu m07f -Dsolve=solve_07f
c $M/accepted/08_split_k_cluster.cu m08f -Dsolve=solve_08f
c $M/wrong_answer/plain_tf32.cu mwa -Dsolve=solve_wa
c tc_variants.cu tcv
c tc09_variants.cu tc9
# wgmma needs the sm_90a target (Hopper's architecture-specific instructions).
H="-O3 -lineinfo -std=c++17 --generate-code=arch=compute_90a,code=sm_90a -include hooks.h"
nvcc $H -c wg_variants.cu -o obj/wgv.o & pids+=($!)
# step9_wgmma.cu without the 128-byte swizzle (core matrices side by side): what the swizzle buys.
sed -e 's/return row \* tile_inner + ((((inner >> 2) ^ row) \& 7) << 2) + (inner \& 3);/return (row >> 3) * 256 + (inner >> 2) * 32 + (row \& 7) * 4 + (inner \& 3);/' \
    -e 's/(std::uint64_t{1} << 16)/(std::uint64_t{128 >> 4} << 16)/' -e 's/ | (std::uint64_t{1} << 62)//' \
    -e 's/static_cast<std::uint64_t>(2 \* k)/static_cast<std::uint64_t>(16 * k)/' \
    step9_wgmma.cu > obj/09_no_swizzle.cu
nvcc $H -Dsolve=solve_09n -c obj/09_no_swizzle.cu -o obj/m09n.o & pids+=($!)
c $V/submissions/accepted/03_float4_scalar_tail.cu v03 -Dsolve=va_03
c $V/baseline.cu vcopy -Dsolve=va_copy
c $V/submissions/accepted/04_one_float4_per_thread.cu vnew -Dsolve=va_new
c vadd_variants.cu vvar
for p in "${pids[@]}"; do wait "$p"; done
nvcc -O3 -std=c++17 -arch=sm_90 bench.cu obj/*.o -lcublas -o bench
# The layout probe of step 9's candidate (layout_probe.cu): ./layout_probe
nvcc -O3 -std=c++17 --generate-code=arch=compute_90a,code=sm_90a layout_probe.cu obj/wgv.o obj/m09n.o -o layout_probe
