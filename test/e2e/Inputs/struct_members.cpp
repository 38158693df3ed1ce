// Members of structs in bounds and bodies (issue 8: "member access 'p.n'"):
// a struct passed by value (`p.x[i]`, `p.n`), by pointer (`p->x[i]`), an
// array member reached through a reference (`f.a[i]`), and members of a
// member of *this (`s.in.v[i]`, `s.in.n`).
#include <cstdio>
#include <cstdlib>
#include <vector>

struct Vec {
  float *x;
  float *y;
  int n;
};
struct Fixed {
  float a[32];
  int n;
};

static void byValue(Vec p) {
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < p.n; ++i)
    p.y[i] = p.x[i] * 3.f;
}

static void byPointer(const Vec *p) {
#pragma sched target(gpu) split(i, io, ii, 8) bind(io, blockIdx.x) bind(ii, threadIdx.x)
  for (int i = 0; i < p->n; ++i)
    p->y[i] += p->x[i];
}

static void arrayMember(const Fixed &f, float *out) {
#pragma sched target(gpu) bind(i, threadIdx.x)
  for (int i = 0; i < f.n; ++i)
    out[i] = f.a[i] + 1.f;
}

struct Holder {
  struct {
    Fixed in;
    float *out;
  } s;
  void run() {
#pragma sched target(gpu) bind(i, threadIdx.x)
    for (int i = 0; i < s.in.n; ++i)
      s.out[i] = 2.f * s.in.a[i];
  }
};

int main(int argc, char **argv) {
  int n = argc > 1 ? std::atoi(argv[1]) : 20;
  std::vector<float> x(n), y(n, 1.f), out(32, -1.f), out2(32, -1.f);
  for (int i = 0; i < n; ++i)
    x[i] = float(i);
  Vec v{x.data(), y.data(), n};
  byValue(v);
  byPointer(&v);
  Fixed f;
  for (int i = 0; i < 32; ++i)
    f.a[i] = float(2 * i);
  f.n = n < 32 ? n : 32;
  arrayMember(f, out.data());
  Holder h;
  h.s.in = f;
  h.s.out = out2.data();
  h.run();
  for (float o : y)
    std::printf("%g ", o);
  for (float o : out)
    std::printf("%g ", o);
  for (float o : out2)
    std::printf("%g ", o);
  std::printf("n=%d\n", n);
  return 0;
}
