// Reductions bound to threads (issue 23): each nest binds a reduction loop,
// or its inner part after split, to threadIdx.x, so the block combines its
// threads' partial results. Data are small integers, so every float sum is
// exact and the plugin build prints what the plain build prints. Sizes run
// over dividing and non-dividing ones, 1 and 0.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

// Row sums: one block per row, 64 threads across the columns.
void row_sums(int n, int m, const float *A, float *y) {
#pragma sched target(gpu) split(j, jo, ji, 64) bind(i, blockIdx.x) bind(ji, threadIdx.x)
  for (int i = 0; i < n; i++) {
    y[i] = 0;
    for (int j = 0; j < m; j++)
      y[i] += A[i * m + j];
  }
}

// A dot product into one element, by one block of 128 threads.
void dot(int n, const float *x, const float *w, float *out) {
#pragma sched target(gpu) split(k, ko, ki, 128) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    out[0] += x[k] * w[k];
}

// An L2 norm: the sum of squares into a scalar temporary, then its root.
void l2_norm(int rows, int n, const float *x, float *norm) {
#pragma sched target(gpu) split(k, ko, ki, 96) bind(r, blockIdx.x) bind(ki, threadIdx.x)
  for (int r = 0; r < rows; r++) {
    float s = 0;
    for (int k = 0; k < n; k++)
      s += x[r * n + k] * x[r * n + k];
    norm[r] = std::sqrt(s);
  }
}

// A row-wise softmax: the max and the sum of exponentials are reduced across
// the block's threads, and every thread uses them (they are local
// temporaries: each thread holds the total).
void softmax(int n, int m, const float *x, float *y) {
#pragma sched target(gpu) bind(i, blockIdx.x) split(j, jo, ji, 32) bind(ji, threadIdx.x) split(j_1, jo_1, ji_1, 32) bind(ji_1, threadIdx.x) split(j_2, jo_2, ji_2, 32) bind(ji_2, threadIdx.x)
  for (int i = 0; i < n; i++) {
    float mx = -INFINITY;
    for (int j = 0; j < m; j++)
      mx = std::fmax(mx, x[i * m + j]);
    float sum = 0;
    for (int j = 0; j < m; j++)
      sum += std::exp(x[i * m + j] - mx);
    for (int j = 0; j < m; j++)
      y[i * m + j] = std::exp(x[i * m + j] - mx) / sum;
  }
}

// A layer norm's statistics: the mean and the variance of each row, two
// reductions in one loop.
void layer_norm(int n, int m, const float *x, float *y) {
#pragma sched target(gpu) bind(i, blockIdx.x) split(j, jo, ji, 48) bind(ji, threadIdx.x) split(j_1, jo_1, ji_1, 48) bind(ji_1, threadIdx.x)
  for (int i = 0; i < n; i++) {
    float s = 0, sq = 0;
    for (int j = 0; j < m; j++) {
      s += x[i * m + j];
      sq += x[i * m + j] * x[i * m + j];
    }
    float mean = m > 0 ? s / m : 0;
    float var = m > 0 ? sq / m - mean * mean : 0;
    for (int j = 0; j < m; j++)
      y[i * m + j] = (x[i * m + j] - mean) * (var + 1);
  }
}

// Integer reductions with min, max and xor.
void int_stats(int n, const int *v, int *lo, int *hi, unsigned *x) {
#pragma sched target(gpu) split(k, ko, ki, 32) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++) {
    lo[0] = std::min(lo[0], v[k]);
    hi[0] = std::max(hi[0], v[k]);
    x[0] ^= (unsigned)v[k] * 2654435761u;
  }
}

// A matrix-vector product whose x is staged in shared memory at each step of
// jo: the stage's fill stands between jo and ji, so each thread accumulates
// in its element of the block's exchange array instead of a register.
void staged_rowdot(int n, int m, const float *A, const float *x, float *y) {
#pragma sched target(gpu) split(j, jo, ji, 32) bind(i, blockIdx.x) bind(ji, threadIdx.x) cache_read(x, shared, xs) compute_at(xs, jo)
  for (int i = 0; i < n; i++) {
    float s = 0;
    for (int j = 0; j < m; j++)
      s += A[i * m + j] * x[j];
    y[i] = s;
  }
}

// Every other update form in one loop: -=, a guarded *=, fmaxf, |, &, &&
// and ||, beside a temporary private to each iteration.
void mixed_updates(int n, float *s, float *p, float *mx, unsigned *bor, unsigned *band, bool *all,
                   bool *any, const float *x, const int *v) {
#pragma sched target(gpu) split(k, ko, ki, 40) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++) {
    float t = x[k] * 2;
    s[0] -= t;
    if (v[k] % 3 == 0)
      p[0] *= x[k] > 0 ? 2.0f : 0.5f;
    mx[0] = fmaxf(mx[0], x[k]);
    bor[0] |= unsigned(v[k]) & 0xF0u;
    band[0] &= unsigned(v[k]) | 0x1u;
    all[0] = all[0] && v[k] > -490;
    any[0] = any[0] || v[k] > 495;
  }
}

// A dot product into a scalar of the function, and the L2 norm of a whole
// vector from one: the scalar holds the total after the nest.
float dot_into_scalar(int n, const float *x, const float *w) {
  float s = 0;
#pragma sched target(gpu) split(k, ko, ki, 256) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    s += x[k] * w[k];
  return s;
}

double norm_of_vector(int n, const float *x) {
  double sq = 0;
#pragma sched target(gpu) split(k, ko, ki, 64) bind(ki, threadIdx.x)
  for (int k = 0; k < n; k++)
    sq += double(x[k]) * x[k];
  return std::sqrt(sq);
}

// rfactor (TVM's): a long sum into a scalar factored into 32 partial sums,
// each accumulated by one thread, then reduced across the threads; and a
// max over rows factored by the columns' inner part.
float rfactor_sum(int n, const float *x) {
  float s = 0;
#pragma sched target(gpu) split(k, ko, ki, 32) rfactor(ko, ki, part) set_scope(part, shared) bind(ki, threadIdx.x) bind(part.init, threadIdx.x) bind(part.r, threadIdx.x)
  for (int k = 0; k < n; k++)
    s += x[k];
  return s;
}

void rfactor_row_max(int n, int m, const int *A, int *mx) {
#pragma sched target(gpu) bind(i, blockIdx.x) split(j, jo, ji, 64) rfactor(jo, ji, pm) bind(ji, threadIdx.x) bind(pm.r, threadIdx.x)
  for (int i = 0; i < n; i++) {
    mx[i] = -1000000;
    for (int j = 0; j < m; j++)
      mx[i] = std::max(mx[i], A[i * m + j]);
  }
}

// A reduction over two thread dimensions at once: a block of 32 x 4 threads
// sums a 2-D tile of the input, x fastest (warp shuffles), then y (a
// shared-memory tree over the four rows' totals).
void two_dim_sum(int n, const int *A, long long *out) {
#pragma sched target(gpu) split(r, ro, ri, 4) split(c, co, ci, 32) reorder(ro, co, ri, ci) bind(ri, threadIdx.y) bind(ci, threadIdx.x)
  for (int r = 0; r < n; r++)
    for (int c = 0; c < 64; c++)
      out[0] += A[r * 64 + c];
}

static double check(const std::vector<float> &v) {
  double s = 0;
  for (size_t i = 0; i < v.size(); ++i)
    s += v[i] * double(i % 7 + 1);
  return s;
}

int main() {
  const int Sizes[][2] = {{3, 200}, {2, 64}, {1, 1}, {4, 0}, {0, 5}, {5, 129}};
  for (auto &S : Sizes) {
    int n = S[0], m = S[1];
    std::vector<float> A(size_t(n) * m), y(n, -1.0f);
    for (size_t k = 0; k < A.size(); ++k)
      A[k] = float(int(k * 37 % 11) - 5);
    row_sums(n, m, A.data(), y.data());
    std::printf("row_sums %d %d: %.1f\n", n, m, check(y));

    std::vector<float> x(m), w(m), out(1, 3.0f);
    for (int k = 0; k < m; ++k) {
      x[k] = float(k % 5 - 2);
      w[k] = float(k % 3);
    }
    dot(m, x.data(), w.data(), out.data());
    std::printf("dot %d: %.1f\n", m, out[0]);

    std::vector<float> norm(n, -1.0f);
    l2_norm(n, m, A.data(), norm.data());
    std::printf("l2_norm %d %d: %.4f\n", n, m, check(norm));

    std::vector<float> sm(size_t(n) * m, -1.0f), ln(size_t(n) * m, -1.0f);
    std::vector<float> xs(A.size());
    for (size_t k = 0; k < xs.size(); ++k)
      xs[k] = A[k] / 4;
    softmax(n, m, xs.data(), sm.data());
    double smsum = 0;
    for (float v : sm)
      smsum += v;
    std::printf("softmax %d %d: %.3f\n", n, m, smsum);
    layer_norm(n, m, A.data(), ln.data());
    std::printf("layer_norm %d %d: %.3f\n", n, m, check(ln));

    std::vector<int> v(m);
    for (int k = 0; k < m; ++k)
      v[k] = int(k * 7919 % 1001) - 500;
    int lo = 1000, hi = -1000;
    unsigned xr = 17;
    int_stats(m, v.data(), &lo, &hi, &xr);
    std::printf("int_stats %d: %d %d %u\n", m, lo, hi, xr);

    float ms = 1, mp = 1, mm = -1000;
    unsigned mo = 0, ma = ~0u;
    bool all = true, any = false;
    mixed_updates(m, &ms, &mp, &mm, &mo, &ma, &all, &any, x.data(), v.data());
    std::printf("mixed_updates %d: %.1f %.6g %.1f %x %x %d %d\n", m, ms, mp, mm, mo, ma, all, any);

    std::printf("dot_into_scalar %d: %.1f\n", m, dot_into_scalar(m, x.data(), w.data()));
    std::printf("norm_of_vector %d: %.6f\n", m, norm_of_vector(m, x.data()));

    std::printf("rfactor_sum %d: %.1f\n", m, rfactor_sum(m, x.data()));
    std::vector<int> Ai(size_t(n) * m), rm(n, 7);
    for (size_t k = 0; k < Ai.size(); ++k)
      Ai[k] = int(k * 7919 % 2003) - 1000;
    rfactor_row_max(n, m, Ai.data(), rm.data());
    long rh = 0;
    for (int v : rm)
      rh = rh * 31 + v;
    std::printf("rfactor_row_max %d %d: %ld\n", n, m, rh);

    std::vector<int> A2(size_t(m) * 64);
    for (size_t k = 0; k < A2.size(); ++k)
      A2[k] = int(k * 37 % 201) - 100;
    long long total = 3;
    two_dim_sum(m, A2.data(), &total);
    std::printf("two_dim_sum %d: %lld\n", m, total);

    std::vector<float> yd(n, -1.0f);
    staged_rowdot(n, m, A.data(), x.data(), yd.data());
    std::printf("staged_rowdot %d %d: %.1f\n", n, m, check(yd));
  }
  return 0;
}
