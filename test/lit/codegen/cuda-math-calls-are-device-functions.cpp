// Each math-table call becomes the CUDA device function of its variant; a
// half argument is widened with __half2float.
// RUN: %sched_cc -O2 -fsyntax-only -fplugin-arg-sched-dump=cuda %S/Inputs/math_table.cpp | FileCheck %s
// CHECK-LABEL: __global__ void {{(__launch_bounds__\([0-9]+\) )?}}sched_math_table_
// CHECK: = ((((((sqrtf(v[0]) + cbrtf(v[0])) + expf(v[0])) + exp2f(v[0])) + expm1f(v[0])) + logf(v[0])) + log2f(v[0])) + log10f(v[0]);
// CHECK: fmaf(v[0], 2.0f, 1.0f)) + sinf((float)__half2float(h[(bx * 64) + tx]))
// CHECK: = ((((((sqrt(d[0]) + cbrt(d[0])) + exp(d[0])) + exp2(d[0])) + expm1(d[0])) + log(d[0])) + log2(d[0])) + log10(d[0]);
// CHECK: ((hypot(d[0], 2.0) + copysign(2.0, d[0])) + fma(d[0], 2.0, 1.0))
