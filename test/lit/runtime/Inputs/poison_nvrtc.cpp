// A libnvrtc.so that aborts as it loads: a program that runs with it first on
// LD_LIBRARY_PATH proves it never started NVRTC.
#include <cstdio>
#include <cstdlib>

__attribute__((constructor)) static void refuse() {
  std::fprintf(stderr, "poison: NVRTC was loaded\n");
  std::abort();
}
