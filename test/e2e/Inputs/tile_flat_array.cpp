// A global array declared flat (float A[400]) and indexed A[r*20 + c], tiled
// 3 x 3 (3 does not divide 20) with tiles to blocks and their insides to
// threads. The extractor gives it the shape [20, 20], so the schedule sees
// independent rows and columns (it used to see one flat dimension and refuse
// the tile with a loop-carried dependence). Integer-valued data.
#include <cstdio>

float A[400], B[400];

void doubleAll() {
#pragma sched target(gpu) tile(r, c, ro, co, ri, ci, 3, 3)
#pragma sched bind(ro, blockIdx.y) bind(co, blockIdx.x) bind(ri, threadIdx.y) bind(ci, threadIdx.x)
  for (int r = 0; r < 20; ++r)
    for (int c = 0; c < 20; ++c)
      A[r * 20 + c] = B[r * 20 + c] * 2.f + 1.f;
}

int main() {
  for (int i = 0; i < 400; ++i) {
    A[i] = -1.f;
    B[i] = static_cast<float>(i % 7);
  }
  doubleAll();
  for (int i = 0; i < 400; ++i)
    std::printf("%g%c", A[i], i % 20 == 19 ? '\n' : ' ');
  return 0;
}
