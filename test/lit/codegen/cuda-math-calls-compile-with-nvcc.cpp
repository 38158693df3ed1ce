// Every math-table function, float and double, is a CUDA device function
// nvcc accepts.
// REQUIRES: nvcc
// RUN: rm -rf %t && mkdir -p %t
// RUN: %sched_cc -O2 -fsyntax-only -fplugin-arg-sched-emit-dir=%t %S/Inputs/math_table.cpp
// RUN: %nvcc -arch=sm_80 -c %t/sched_math_table_*.cu -o %t/kernel.o
