//===- mma.h - nvcuda::wmma for the emu backend ----------------*- C++ -*-===//
//
// The emu backend compiles emitted CUDA as host C++ with this directory on
// the include path: the `#include <mma.h>` of a wmma kernel lands here.
// nvcuda::wmma is in sched_cuda_emu.h, which the compiler has already
// force-included.
//
//===----------------------------------------------------------------------===//
#include "../sched_cuda_emu.h"
