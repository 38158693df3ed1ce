// Members of `this` are parameters: a pointer field, an array field and a
// scalar field.
// RUN: %sched_cc -fsyntax-only -fplugin-arg-sched-dump=ir %s | FileCheck %s

struct Layer {
  float *Data;
  float Bias[32];
  int Count;
  void apply() {
#pragma sched target(gpu)
    for (int i = 0; i < Count; ++i)
      for (int j = 0; j < 32; ++j)
        Data[i * 32 + j] = Data[i * 32 + j] + this->Bias[j];
  }
};
void use(Layer &L) { L.apply(); }
// CHECK-LABEL: func sched_{{.*}}(Data: float32*[Count, 32] global, Bias: float32*[32] global noalias, Count: int32)
// CHECK:         Data[i, j] = (Data[i, j] + Bias[j])
