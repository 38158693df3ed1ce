//===- cuda_fp16.h - half for the emu backend ------------------*- C++ -*-===//
//
// The emu backend compiles emitted CUDA as host C++ with this directory on
// the include path: the `#include <cuda_fp16.h>` of a kernel that uses half
// lands here. Everything it needs is in sched_cuda_emu.h, which the
// compiler has already force-included.
//
//===----------------------------------------------------------------------===//
#include "../sched_cuda_emu.h"
