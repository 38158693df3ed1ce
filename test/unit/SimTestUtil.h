//===- SimTestUtil.h - Building lowered kernels by hand for sim tests -*- C++ -*-===//
//
// The simulator tests build LoweredKernels directly through the IR
// constructors (no pipeline involved), so a failure points at the simulator
// and not at a pass.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_TEST_UNIT_SIMTESTUTIL_H
#define SCHED_TEST_UNIT_SIMTESTUTIL_H

#include "Pipeline.h"
#include "ir/IR.h"
#include "ir/Parser.h"

#include <gtest/gtest.h>

#include <string>

namespace sched {
namespace simtest {

/// Collects parameters, regions and geometry of a hand-made kernel.
struct KernelBuilder {
  LoweredKernel K;

  explicit KernelBuilder(const std::string &Name) {
    K.Kernel.Name = Name;
    K.Kernel.SourceFile = "test.cpp";
    K.Kernel.SourceLine = 1;
    for (int D = 0; D < 3; ++D) {
      K.Geometry.Grid[D] = ir::makeInt(1);
      K.Geometry.Block[D] = ir::makeInt(1);
    }
  }

  /// A flattened global buffer parameter of Extent elements.
  ir::Buffer buffer(const std::string &Name, ir::DType T, ir::Expr Extent, bool Read,
                    bool Written) {
    ir::Buffer B = ir::makeBuffer(Name, T, {Extent});
    K.Kernel.Params.push_back({ir::Param::Kind::Buffer, B, nullptr});
    BufferRegion R;
    R.Param = Name;
    R.Extent = Extent;
    R.Read = Read;
    R.Written = Written;
    K.Regions.push_back(R);
    return B;
  }

  ir::Var scalar(const std::string &Name, ir::DType T = ir::DType::Int32) {
    ir::Var V = ir::makeVar(Name, T);
    K.Kernel.Params.push_back({ir::Param::Kind::Scalar, nullptr, V});
    return V;
  }

  void grid(ir::Expr X, ir::Expr Y = ir::makeInt(1)) {
    K.Geometry.Grid[0] = X;
    K.Geometry.Grid[1] = Y;
  }
  void block(ir::Expr X, ir::Expr Y = ir::makeInt(1)) {
    K.Geometry.Block[0] = X;
    K.Geometry.Block[1] = Y;
  }

  LoweredKernel done(ir::Stmt Body) {
    K.Kernel.Body = Body;
    return K;
  }
};

/// for (V, 0, Extent) bind(Tag) { Body }
inline ir::Stmt bound(const ir::Var &V, ir::Expr Extent, const std::string &Tag,
                      ir::Stmt Body) {
  return ir::makeFor(V, ir::makeInt(0), Extent, Body, ir::ForKind::ThreadBound, Tag);
}

inline ir::Stmt syncthreads() {
  return ir::makeEvaluate(ir::makeCall("sched.syncthreads", {}, ir::DType::Int32));
}

inline ir::Expr i32(int64_t V) { return ir::makeInt(V); }

/// A kernel parsed from its text (buffer regions: their whole shapes),
/// launched as Grid x 1 x 1 blocks of BlockX x 1 x 1 threads.
inline LoweredKernel parseKernel(const std::string &Text, int BlockX, int Grid = 1) {
  LoweredKernel K;
  std::string Error;
  EXPECT_TRUE(ir::parseLoopNest(Text, K.Kernel, Error)) << Error << "\n" << Text;
  for (int D = 0; D < 3; ++D) {
    K.Geometry.Grid[D] = ir::makeInt(D == 0 ? Grid : 1);
    K.Geometry.Block[D] = ir::makeInt(D == 0 ? BlockX : 1);
  }
  return K;
}

} // namespace simtest
} // namespace sched

#endif
