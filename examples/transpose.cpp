// Out-of-place transpose of a fixed-size array: the two loops are fused into
// one and split across blocks and threads (fuse + split + bind), on a shape
// (48x40) that the 256-thread split does not divide.
#include <cstdio>

constexpr int R = 48, S = 40;
static float In[R][S], Out[S][R];

static void transpose() {
#pragma sched target(gpu) fuse(r, s, rs) split(rs, b, t, 256)
#pragma sched bind(b, blockIdx.x) bind(t, threadIdx.x)
  for (int r = 0; r < R; ++r)
    for (int s = 0; s < S; ++s)
      Out[s][r] = In[r][s] * 2.f + 1.f;
}

int main() {
  for (int r = 0; r < R; ++r)
    for (int s = 0; s < S; ++s)
      In[r][s] = float((r * 31 + s * 17) % 23) - 11.f;
  transpose();
  double sum = 0;
  for (int s = 0; s < S; ++s)
    for (int r = 0; r < R; ++r)
      sum += Out[s][r] * (s + 2 * r + 1);
  std::printf("transpose %dx%d\n", R, S);
  std::printf("checksum %.6f\n", sum);
  std::printf("Out[3][7] %.6f Out[39][47] %.6f\n", Out[3][7], Out[39][47]);
  return 0;
}
