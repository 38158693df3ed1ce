// An mma.sync nest (sm_80+) compiled for an older target architecture is not
// emitted for it: the loop stays as written, with a warning naming both
// architectures. For sm_80 it is emitted.
// RUN: %sched_cc -fplugin-arg-sched-arch=sm_75 -fsyntax-only %S/../../e2e/Inputs/mma_gemm.cpp 2>&1 | FileCheck %s --check-prefix=OLD
// RUN: %sched_cc -fplugin-arg-sched-arch=sm_80 -fsyntax-only %S/../../e2e/Inputs/mma_gemm.cpp 2>&1 | FileCheck %s --allow-empty --check-prefix=NEW
// OLD: warning: sched: cannot generate CUDA: cannot emit CUDA for kernel 'sched_mma_gemm_{{[0-9]+}}': it needs sm_80 or newer, but the target architecture is sm_75; the loop stays as written [-Wsched-fallback]
// NEW-NOT: warning
