// print-after-all names every lowering pass; after one that returned the
// nest it was given it says "(unchanged)" and prints no IR: here every pass
// but StorageFlatten, which flattens the 2-D array.
// RUN: %sched_cc -fplugin-arg-sched-print-after-all -fsyntax-only %s | FileCheck %s

void clear(float (*y)[64]) {
#pragma sched bind(i, blockIdx.x) bind(j, threadIdx.x)
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 64; ++j)
      y[i][j] = 0.f;
}
// CHECK: // sched: [[NAME:sched_[a-z_]+_[0-9]+]] after NormalizeLoops (unchanged)
// CHECK-NEXT: // sched: [[NAME]] after BoundInference (unchanged)
// CHECK: // sched: [[NAME]] after InjectThreadSync (unchanged)
// CHECK-NEXT: // sched: [[NAME]] after PrefetchDoubleBuffers (unchanged)
// CHECK-NEXT: // sched: [[NAME]] after PipelineStages (unchanged)
// CHECK-NEXT: // sched: [[NAME]] after LayoutSharedStages (unchanged)
// CHECK-NEXT: // sched: [[NAME]] after StorageFlatten
// CHECK-NEXT: func [[NAME]](y: float32*[1024] global) target=gpu {
// CHECK: // sched: [[NAME]] after ComputeBufferRegions (unchanged)
// CHECK-NEXT: // sched: [[NAME]] after PartitionLoops (unchanged)
// CHECK-NEXT: // sched: [[NAME]] after VectorizeLoops (unchanged)
// CHECK-NEXT: // sched: [[NAME]] after UnrollSmallLoops (unchanged)
// CHECK-NEXT: // sched: [[NAME]] after VerifyKernel (unchanged)
// CHECK-NEXT: // sched: [[NAME]] after lowered
