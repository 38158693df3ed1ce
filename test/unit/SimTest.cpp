//===- SimTest.cpp - The GPU simulator on hand-built lowered kernels -----===//
//
// Each test builds one small kernel with the IR constructors, runs it on the
// simulator and checks the result against a CPU reference computed here, or
// checks that the simulator reports the error it must report.
//
//===----------------------------------------------------------------------===//

#include "SimTestUtil.h"
#include "ir/Intrinsics.h"
#include "ir/MathFunctions.h"
#include "sim/Simulator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

using namespace sched;
using namespace sched::ir;
using namespace sched::simtest;

namespace {

sim::SimOptions defaultOptions() { return sim::SimOptions(); }

/// C = A + B over an M x N grid of 4x4 blocks; Guarded adds the bounds guard.
LoweredKernel elementwiseAdd(bool Guarded) {
  KernelBuilder KB("add2d");
  Var M = KB.scalar("M"), N = KB.scalar("N");
  Buffer A = KB.buffer("A", DType::Float32, M * N, true, false);
  Buffer B = KB.buffer("B", DType::Float32, M * N, true, false);
  Buffer C = KB.buffer("C", DType::Float32, M * N, false, true);
  Var Bx = makeVar("bx"), By = makeVar("by"), Tx = makeVar("tx"), Ty = makeVar("ty");
  Var I = makeVar("i"), J = makeVar("j");
  Expr GX = (N + i32(3)) / i32(4), GY = (M + i32(3)) / i32(4);
  KB.grid(GX, GY);
  KB.block(i32(4), i32(4));
  Expr Flat = I * N + J;
  Stmt Compute = makeStore(C, {Flat}, makeLoad(A, {Flat}) + makeLoad(B, {Flat}));
  if (Guarded)
    Compute = makeIf(makeBinary(BinOp::And, I < M, J < N), Compute);
  Stmt Body = makeLet(I, By * i32(4) + Ty, makeLet(J, Bx * i32(4) + Tx, Compute));
  Body = bound(Ty, i32(4), "threadIdx.y", Body);
  Body = bound(Tx, i32(4), "threadIdx.x", Body);
  Body = bound(By, GY, "blockIdx.y", Body);
  Body = bound(Bx, GX, "blockIdx.x", Body);
  return KB.done(Body);
}

TEST(SimTest, ElementwiseAddWithGuardMatchesReference) {
  LoweredKernel K = elementwiseAdd(/*Guarded=*/true);
  int32_t M = 5, N = 7;
  std::vector<float> A(M * N), B(M * N), C(M * N, -1.0f);
  for (int I = 0; I < M * N; ++I) {
    A[I] = 0.5f * I;
    B[I] = 100.0f - I;
  }
  std::string Error;
  ASSERT_TRUE(sim::simulate(K, {&M, &N, A.data(), B.data(), C.data()}, defaultOptions(), Error))
      << Error;
  for (int I = 0; I < M * N; ++I)
    EXPECT_EQ(C[I], A[I] + B[I]) << "at " << I;
}

TEST(SimTest, OutOfBoundsStoreIsReportedWithBufferAndIndex) {
  LoweredKernel K = elementwiseAdd(/*Guarded=*/false);
  // N divides by the tile, so the unguarded threads of the last block row run
  // past the end (rows 5..7) without first aliasing another thread's element
  // (which the race detector would report first).
  int32_t M = 5, N = 8;
  std::vector<float> A(M * N), B(M * N), C(M * N);
  std::string Error;
  EXPECT_FALSE(sim::simulate(K, {&M, &N, A.data(), B.data(), C.data()}, defaultOptions(), Error));
  EXPECT_NE(Error.find("out-of-bounds"), std::string::npos) << Error;
  EXPECT_NE(Error.find("'A'"), std::string::npos) << Error;
  EXPECT_NE(Error.find("extent 40"), std::string::npos) << Error;
}

/// C = A x B with a per-thread local accumulator; 8x8 threads per block.
LoweredKernel matmul() {
  KernelBuilder KB("matmul");
  Var M = KB.scalar("M"), N = KB.scalar("N"), Kd = KB.scalar("K");
  Buffer A = KB.buffer("A", DType::Float32, M * Kd, true, false);
  Buffer B = KB.buffer("B", DType::Float32, Kd * N, true, false);
  Buffer C = KB.buffer("C", DType::Float32, M * N, false, true);
  Buffer Acc = makeBuffer("acc", DType::Float32, {i32(1)}, Scope::Local);
  Var Bx = makeVar("bx"), By = makeVar("by"), Tx = makeVar("tx"), Ty = makeVar("ty");
  Var I = makeVar("i"), J = makeVar("j"), Kv = makeVar("k");
  Expr GX = (N + i32(7)) / i32(8), GY = (M + i32(7)) / i32(8);
  KB.grid(GX, GY);
  KB.block(i32(8), i32(8));
  Expr Zero = i32(0);
  Stmt Update = makeStore(Acc, {Zero}, makeLoad(Acc, {Zero}) + makeLoad(A, {I * Kd + Kv}) *
                                                                   makeLoad(B, {Kv * N + J}));
  Stmt Compute = makeAllocate(
      Acc, makeSeq({makeStore(Acc, {Zero}, makeFloat(0.0)), makeFor(Kv, Zero, Kd, Update),
                    makeStore(C, {I * N + J}, makeLoad(Acc, {Zero}))}));
  Stmt Body = makeLet(I, By * i32(8) + Ty,
                      makeLet(J, Bx * i32(8) + Tx,
                              makeIf(makeBinary(BinOp::And, I < M, J < N), Compute)));
  Body = bound(Ty, i32(8), "threadIdx.y", Body);
  Body = bound(Tx, i32(8), "threadIdx.x", Body);
  Body = bound(By, GY, "blockIdx.y", Body);
  Body = bound(Bx, GX, "blockIdx.x", Body);
  return KB.done(Body);
}

TEST(SimTest, MatmulWithLocalAccumulatorMatchesReference) {
  LoweredKernel K = matmul();
  int32_t M = 19, N = 13, Kd = 11;
  std::vector<float> A(M * Kd), B(Kd * N), C(M * N), Ref(M * N);
  for (int I = 0; I < M * Kd; ++I)
    A[I] = std::sin(0.1f * I);
  for (int I = 0; I < Kd * N; ++I)
    B[I] = std::cos(0.3f * I);
  for (int I = 0; I < M; ++I)
    for (int J = 0; J < N; ++J) {
      float Acc = 0.0f;
      for (int L = 0; L < Kd; ++L)
        Acc += A[I * Kd + L] * B[L * N + J];
      Ref[I * N + J] = Acc;
    }
  std::string Error;
  ASSERT_TRUE(sim::simulate(K, {&M, &N, &Kd, A.data(), B.data(), C.data()}, defaultOptions(),
                            Error))
      << Error;
  for (int I = 0; I < M * N; ++I)
    EXPECT_EQ(C[I], Ref[I]) << "at " << I; // same float operations, same order
}

TEST(SimTest, BlocksAndThreadsMapToTheirIndices) {
  KernelBuilder KB("ids");
  Buffer Out = KB.buffer("Out", DType::Int32, i32(3 * 2 * 4 * 5), false, true);
  KB.grid(i32(3), i32(2));
  KB.block(i32(4), i32(5));
  Var Bx = makeVar("bx"), By = makeVar("by"), Tx = makeVar("tx"), Ty = makeVar("ty");
  Expr Linear = ((By * i32(3) + Bx) * i32(5) + Ty) * i32(4) + Tx;
  Expr Code = Bx + By * i32(10) + Tx * i32(100) + Ty * i32(1000);
  Stmt Body = makeStore(Out, {Linear}, Code);
  Body = bound(Bx, i32(3), "blockIdx.x",
               bound(By, i32(2), "blockIdx.y",
                     bound(Tx, i32(4), "threadIdx.x", bound(Ty, i32(5), "threadIdx.y", Body))));
  LoweredKernel K = KB.done(Body);
  std::vector<int32_t> Data(120, -1);
  std::string Error;
  sim::SimStats Stats;
  ASSERT_TRUE(sim::simulate(K, {Data.data()}, defaultOptions(), Error, &Stats)) << Error;
  EXPECT_EQ(Stats.Blocks, 6u);
  EXPECT_EQ(Stats.Threads, 120u);
  for (int by = 0; by < 2; ++by)
    for (int bx = 0; bx < 3; ++bx)
      for (int ty = 0; ty < 5; ++ty)
        for (int tx = 0; tx < 4; ++tx)
          EXPECT_EQ(Data[((by * 3 + bx) * 5 + ty) * 4 + tx],
                    bx + by * 10 + tx * 100 + ty * 1000);
}

TEST(SimTest, ThreadLoopShorterThanBlockSkipsExtraThreads) {
  KernelBuilder KB("partial");
  Buffer Out = KB.buffer("Out", DType::Int32, i32(8), true, true);
  KB.block(i32(8));
  Var Tx = makeVar("tx");
  LoweredKernel K = KB.done(bound(Tx, i32(5), "threadIdx.x", makeStore(Out, {Tx}, Tx + i32(1))));
  std::vector<int32_t> Data(8, 0);
  std::string Error;
  ASSERT_TRUE(sim::simulate(K, {Data.data()}, defaultOptions(), Error)) << Error;
  EXPECT_EQ(Data, (std::vector<int32_t>{1, 2, 3, 4, 5, 0, 0, 0}));
}

TEST(SimTest, ThreadLoopLongerThanBlockIsReported) {
  KernelBuilder KB("toolong");
  Buffer Out = KB.buffer("Out", DType::Int32, i32(16), false, true);
  KB.block(i32(8));
  Var Tx = makeVar("tx");
  LoweredKernel K = KB.done(bound(Tx, i32(16), "threadIdx.x", makeStore(Out, {Tx}, Tx)));
  std::vector<int32_t> Data(16, 0);
  std::string Error;
  EXPECT_FALSE(sim::simulate(K, {Data.data()}, defaultOptions(), Error));
  EXPECT_NE(Error.find("'tx' bound to threadIdx.x has extent 16"), std::string::npos) << Error;
}

TEST(SimTest, IntAndFloatScalarParamsAreRead) {
  KernelBuilder KB("scalars");
  Var N = KB.scalar("n", DType::Int32);
  Var Alpha = KB.scalar("alpha", DType::Float32);
  Var Beta = KB.scalar("beta", DType::Float64);
  Buffer Out = KB.buffer("Out", DType::Float32, N, false, true);
  Var I = makeVar("i");
  Expr Value = makeCast(DType::Float32, I) * Alpha + makeCast(DType::Float32, N);
  Value = makeCast(DType::Float32, makeBinary(BinOp::Add, Value, Beta));
  LoweredKernel K = KB.done(makeFor(I, i32(0), N, makeStore(Out, {I}, Value)));
  int32_t NV = 6;
  float AlphaV = 2.5f;
  double BetaV = 0.25;
  std::vector<float> Data(NV, 0.0f);
  std::string Error;
  ASSERT_TRUE(sim::simulate(K, {&NV, &AlphaV, &BetaV, Data.data()}, defaultOptions(), Error))
      << Error;
  for (int I = 0; I < NV; ++I)
    EXPECT_EQ(Data[I], static_cast<float>(static_cast<double>(I * AlphaV + NV) + BetaV));
}

TEST(SimTest, HalfConversionRoundsToNearestEven) {
  EXPECT_EQ(sim::floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(sim::floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(sim::floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(sim::floatToHalf(65520.0f), 0x7c00);           // overflows to infinity
  EXPECT_EQ(sim::floatToHalf(std::ldexp(1.0f, -24)), 0x0001); // smallest subnormal
  EXPECT_EQ(sim::floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);     // tie: even
  EXPECT_EQ(sim::floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02); // tie: even
  EXPECT_TRUE(std::isnan(sim::halfToFloat(sim::floatToHalf(NAN))));
  for (uint32_t H = 0; H < 0x7c00; ++H) // every finite half survives the round trip
    ASSERT_EQ(sim::floatToHalf(sim::halfToFloat(static_cast<uint16_t>(H))), H);
}

TEST(SimTest, Float16ArithmeticRoundsEachResultToHalf) {
  KernelBuilder KB("half_add");
  Buffer In = KB.buffer("In", DType::Float16, i32(3), true, false);
  Buffer Out = KB.buffer("Out", DType::Float16, i32(3), false, true);
  Var I = makeVar("i");
  // (x + 1) - x: the sum rounds to half before the subtraction, as on a GPU.
  Expr X = makeLoad(In, {I});
  Expr Sum = makeBinary(BinOp::Add, X, makeFloat(1.0, DType::Float16));
  LoweredKernel K = KB.done(
      makeFor(I, i32(0), i32(3), makeStore(Out, {I}, makeBinary(BinOp::Sub, Sum, X))));
  std::vector<uint16_t> InData = {sim::floatToHalf(2048.0f), sim::floatToHalf(2050.0f),
                                  sim::floatToHalf(0.5f)};
  std::vector<uint16_t> OutData(3, 0);
  std::string Error;
  ASSERT_TRUE(sim::simulate(K, {InData.data(), OutData.data()}, defaultOptions(), Error)) << Error;
  EXPECT_EQ(sim::halfToFloat(OutData[0]), 0.0f); // 2049 is a tie: rounds to even 2048
  EXPECT_EQ(sim::halfToFloat(OutData[1]), 2.0f); // 2051 is a tie: rounds to even 2052
  EXPECT_EQ(sim::halfToFloat(OutData[2]), 1.0f);
}

TEST(SimTest, Int8StoresWrapLikeC) {
  KernelBuilder KB("int8_add");
  Buffer A = KB.buffer("A", DType::Int8, i32(2), true, false);
  Buffer Out = KB.buffer("Out", DType::Int8, i32(2), false, true);
  Buffer Wide = KB.buffer("Wide", DType::Int32, i32(2), false, true);
  Var I = makeVar("i");
  // int8 + int8 computes in int, as in C: only the int8 store wraps.
  Expr Sum = makeLoad(A, {I}) + makeLoad(A, {I});
  LoweredKernel K = KB.done(makeFor(
      I, i32(0), i32(2), makeSeq({makeStore(Out, {I}, Sum), makeStore(Wide, {I}, Sum)})));
  std::vector<int8_t> AData = {100, -3};
  std::vector<int8_t> OutData(2, 0);
  std::vector<int32_t> WideData(2, 0);
  std::string Error;
  ASSERT_TRUE(sim::simulate(K, {AData.data(), OutData.data(), WideData.data()},
                            defaultOptions(), Error))
      << Error;
  EXPECT_EQ(OutData[0], static_cast<int8_t>(200));
  EXPECT_EQ(OutData[1], -6);
  EXPECT_EQ(WideData[0], 200);
}

TEST(SimTest, SelectDoesNotEvaluateTheUnchosenLoad) {
  KernelBuilder KB("select_guard");
  Buffer A = KB.buffer("A", DType::Float32, i32(4), true, false);
  Buffer Out = KB.buffer("Out", DType::Float32, i32(8), false, true);
  Var I = makeVar("i");
  Expr Value = makeSelect(I < i32(4), makeLoad(A, {I}), makeFloat(-1.0));
  LoweredKernel K = KB.done(makeFor(I, i32(0), i32(8), makeStore(Out, {I}, Value)));
  std::vector<float> AData = {1, 2, 3, 4}, OutData(8, 0);
  std::string Error;
  ASSERT_TRUE(sim::simulate(K, {AData.data(), OutData.data()}, defaultOptions(), Error)) << Error;
  EXPECT_EQ(OutData, (std::vector<float>{1, 2, 3, 4, -1, -1, -1, -1}));
}

TEST(SimTest, IntegerDivisionByZeroIsReported) {
  KernelBuilder KB("divzero");
  Var D = KB.scalar("d");
  Buffer Out = KB.buffer("Out", DType::Int32, i32(1), false, true);
  LoweredKernel K = KB.done(makeStore(Out, {i32(0)}, i32(7) / D));
  int32_t DV = 0, Result = 0;
  std::string Error;
  EXPECT_FALSE(sim::simulate(K, {&DV, &Result}, defaultOptions(), Error));
  EXPECT_NE(Error.find("division by zero"), std::string::npos) << Error;
}

TEST(SimTest, WriteToReadOnlyRegionIsRejected) {
  KernelBuilder KB("readonly");
  Buffer A = KB.buffer("A", DType::Float32, i32(4), /*Read=*/true, /*Written=*/false);
  LoweredKernel K = KB.done(makeStore(A, {i32(0)}, makeFloat(1.0)));
  std::vector<float> Data(4, 0);
  std::string Error;
  EXPECT_FALSE(sim::simulate(K, {Data.data()}, defaultOptions(), Error));
  EXPECT_NE(Error.find("read-only"), std::string::npos) << Error;
  EXPECT_EQ(Data[0], 0.0f);
}

TEST(SimTest, MultiDimensionalIndicesFlattenRowMajor) {
  KernelBuilder KB("md");
  Buffer Flat = KB.buffer("T", DType::Int32, i32(6), false, true);
  Buffer T2 = makeBuffer("T", DType::Int32, {i32(2), i32(3)}); // same param, 2-D view
  Var I = makeVar("i"), J = makeVar("j");
  LoweredKernel K = KB.done(makeFor(
      I, i32(0), i32(2), makeFor(J, i32(0), i32(3), makeStore(T2, {I, J}, I * i32(10) + J))));
  (void)Flat;
  std::vector<int32_t> Data(6, -1);
  std::string Error;
  ASSERT_TRUE(sim::simulate(K, {Data.data()}, defaultOptions(), Error)) << Error;
  EXPECT_EQ(Data, (std::vector<int32_t>{0, 1, 2, 10, 11, 12}));
}

TEST(SimTest, UnsupportedIntrinsicIsACompileError) {
  KernelBuilder KB("unknown_call");
  LoweredKernel K = KB.done(makeEvaluate(makeCall("wmma.mystery", {}, DType::Int32)));
  std::string Error;
  EXPECT_EQ(sim::compileKernel(K, Error), nullptr);
  EXPECT_NE(Error.find("wmma.mystery"), std::string::npos) << Error;
}

TEST(SimTest, MathIntrinsicsUseFloatPrecisionForFloat32) {
  KernelBuilder KB("math");
  Buffer In = KB.buffer("In", DType::Float32, i32(3), true, false);
  Buffer Out = KB.buffer("Out", DType::Float32, i32(3), false, true);
  Var I = makeVar("i");
  Expr V = makeCall("sqrtf", {makeCall("expf", {makeLoad(In, {I})}, DType::Float32)},
                    DType::Float32);
  LoweredKernel K = KB.done(makeFor(I, i32(0), i32(3), makeStore(Out, {I}, V)));
  std::vector<float> InData = {0.1f, 1.7f, -3.2f}, OutData(3, 0);
  std::string Error;
  ASSERT_TRUE(sim::simulate(K, {InData.data(), OutData.data()}, defaultOptions(), Error)) << Error;
  for (int I = 0; I < 3; ++I)
    EXPECT_EQ(OutData[I], std::sqrt(std::exp(InData[I])));
}

/// Out[i] = Name(In[i], Second, Third) for the arguments the table entry takes:
/// one argument from memory, the others constants (preset registers).
std::vector<double> runMath(const MathFunction &F, const std::vector<double> &In) {
  KernelBuilder KB("math_" + F.Name);
  int N = static_cast<int>(In.size());
  Buffer InBuf = KB.buffer("In", F.Type, i32(N), true, false);
  Buffer Out = KB.buffer("Out", F.Type, i32(N), false, true);
  Var I = makeVar("i");
  std::vector<Expr> Args = {makeLoad(InBuf, {I})};
  if (F.Arity > 1)
    Args.push_back(makeFloat(0.75, F.Type));
  if (F.Arity > 2)
    Args.push_back(makeFloat(-3.0, F.Type));
  LoweredKernel K = KB.done(
      makeFor(I, i32(0), i32(N), makeStore(Out, {I}, makeCall(F.Name, Args, F.Type))));
  std::string Error;
  std::vector<double> Result(In.size());
  if (F.Type == DType::Float32) {
    std::vector<float> InF(In.begin(), In.end()), OutF(In.size());
    EXPECT_TRUE(sim::simulate(K, {InF.data(), OutF.data()}, defaultOptions(), Error)) << Error;
    Result.assign(OutF.begin(), OutF.end());
  } else {
    std::vector<double> OutD(In.size());
    EXPECT_TRUE(sim::simulate(K, {const_cast<double *>(In.data()), OutD.data()},
                              defaultOptions(), Error))
        << Error;
    Result = OutD;
  }
  return Result;
}

bool sameBits(double A, double B) { return std::memcmp(&A, &B, sizeof A) == 0; }

TEST(SimTest, EveryMathTableFunctionRunsWithItsArity) {
  std::vector<double> In = {0.3, -1.7, 12.5, 1e-3};
  for (const MathFunction &F : mathFunctions()) {
    std::vector<double> Out = runMath(F, In);
    for (size_t I = 0; I < In.size(); ++I) {
      double Args[3] = {F.Type == DType::Float32 ? double(float(In[I])) : In[I], 0.75, -3.0};
      double Expected = F.Host(Args);
      EXPECT_TRUE(sameBits(Out[I], Expected) || (std::isnan(Out[I]) && std::isnan(Expected)))
          << F.Name << "(" << In[I] << ")";
    }
  }
}

TEST(SimTest, MathFunctionsComputeWhatLibmComputes) {
  // The float variants are libm's float functions, not double ones rounded:
  // sinf(0x1.00af8ep-1f) is 0x1.ec228ap-2f, (float)sin of it 0x1.ec228cp-2f.
  std::vector<double> In = {0x1.00af8ep-1, 1e6, 0.1, -2.5, 3.0e-39};
  std::vector<double> Sin = runMath(*lookupMathFunction("sinf"), In);
  std::vector<double> Fma = runMath(*lookupMathFunction("fmaf"), In);
  std::vector<double> Hypot = runMath(*lookupMathFunction("hypot"), In);
  std::vector<double> Expm1 = runMath(*lookupMathFunction("expm1f"), In);
  for (size_t I = 0; I < In.size(); ++I) {
    float X = static_cast<float>(In[I]);
    EXPECT_TRUE(sameBits(Sin[I], ::sinf(X))) << In[I];
    EXPECT_TRUE(sameBits(Fma[I], ::fmaf(X, 0.75f, -3.0f))) << In[I];
    EXPECT_TRUE(sameBits(Hypot[I], ::hypot(In[I], 0.75))) << In[I];
    EXPECT_TRUE(sameBits(Expm1[I], ::expm1f(X))) << In[I];
  }
  EXPECT_NE(Sin[0], static_cast<double>(static_cast<float>(std::sin(In[0]))));
}

TEST(SimTest, MathTableHasFloatAndDoubleOfEveryFamily) {
  for (const MathFunction &F : mathFunctions()) {
    const MathFunction *Float = lookupMathFamily(F.Family, DType::Float32);
    const MathFunction *Double = lookupMathFamily(F.Family, DType::Float64);
    ASSERT_TRUE(Float && Double) << F.Family;
    EXPECT_EQ(Float->Name, F.Family + "f");
    EXPECT_EQ(Double->Name, F.Family);
    EXPECT_EQ(Float->Arity, Double->Arity);
    const IntrinsicInfo *Info = lookupIntrinsic(F.Name);
    ASSERT_TRUE(Info) << F.Name;
    EXPECT_TRUE(Info->IsPure);
    EXPECT_EQ(Info->ResultType, F.Type);
  }
  EXPECT_EQ(lookupMathFamily("sin", DType::Float16), nullptr);
  EXPECT_EQ(lookupMathFunction("printf"), nullptr);
}

//===----------------------------------------------------------------------===//
// Shared memory, barriers and the race detector
//===----------------------------------------------------------------------===//

/// Out[b*64 + t] = In[b*64 + 63 - t] through a shared stage; WithBarrier puts
/// sched.syncthreads between the fill and the use.
LoweredKernel blockReverse(bool WithBarrier) {
  KernelBuilder KB("reverse");
  Buffer In = KB.buffer("In", DType::Float32, i32(128), true, false);
  Buffer Out = KB.buffer("Out", DType::Float32, i32(128), false, true);
  Buffer S = makeBuffer("S", DType::Float32, {i32(64)}, Scope::Shared);
  KB.grid(i32(2));
  KB.block(i32(64));
  Var Bx = makeVar("bx"), Tx = makeVar("tx"), Tx2 = makeVar("tx2");
  Stmt Fill = bound(Tx, i32(64), "threadIdx.x",
                    makeStore(S, {Tx}, makeLoad(In, {Bx * i32(64) + Tx})));
  Stmt Use = bound(Tx2, i32(64), "threadIdx.x",
                   makeStore(Out, {Bx * i32(64) + Tx2}, makeLoad(S, {i32(63) - Tx2})));
  std::vector<Stmt> Stages = {Fill};
  if (WithBarrier)
    Stages.push_back(syncthreads());
  Stages.push_back(Use);
  return KB.done(bound(Bx, i32(2), "blockIdx.x", makeAllocate(S, makeSeq(Stages))));
}

TEST(SimTest, SharedMemoryWithBarrierReversesEachBlock) {
  LoweredKernel K = blockReverse(/*WithBarrier=*/true);
  std::vector<float> In(128), Out(128, 0);
  for (int I = 0; I < 128; ++I)
    In[I] = static_cast<float>(I);
  std::string Error;
  sim::SimStats Stats;
  ASSERT_TRUE(sim::simulate(K, {In.data(), Out.data()}, defaultOptions(), Error, &Stats)) << Error;
  EXPECT_EQ(Stats.Barriers, 2u); // one phase boundary per block
  for (int B = 0; B < 2; ++B)
    for (int T = 0; T < 64; ++T)
      EXPECT_EQ(Out[B * 64 + T], In[B * 64 + 63 - T]) << "block " << B << " thread " << T;
}

TEST(SimTest, RaceDetectorReportsMissingBarrier) {
  LoweredKernel K = blockReverse(/*WithBarrier=*/false);
  std::vector<float> In(128, 1.0f), Out(128, 0);
  std::string Error;
  EXPECT_FALSE(sim::simulate(K, {In.data(), Out.data()}, defaultOptions(), Error));
  EXPECT_NE(Error.find("race on shared buffer 'S'"), std::string::npos) << Error;
  EXPECT_NE(Error.find("writes it"), std::string::npos) << Error;
  EXPECT_NE(Error.find("reads it"), std::string::npos) << Error;
  EXPECT_NE(Error.find("block (0,0,0)"), std::string::npos) << Error;
}

TEST(SimTest, RaceReportNamesKernelBufferIndexBothAccessesAndThreads) {
  LoweredKernel K = blockReverse(/*WithBarrier=*/false);
  std::vector<float> In(128, 1.0f), Out(128, 0);
  std::string Error;
  EXPECT_FALSE(sim::simulate(K, {In.data(), Out.data()}, defaultOptions(), Error));
  // Each thread runs the whole kernel until a barrier: thread 31 reads S[32]
  // (63 - 31), then thread 32 writes it in the same phase (WAR).
  EXPECT_EQ(Error, "race on shared buffer 'S' at index 32 in kernel '" + K.Kernel.Name +
                       "', block (0,0,0): thread (31,0,0) reads it (S[(63 - tx2)] in "
                       "`Out[((bx*64) + tx2)] = S[(63 - tx2)]`) and thread (32,0,0) writes it "
                       "(S[tx] = In[((bx*64) + tx)]) with no barrier between them");
}

TEST(SimTest, RaceDetectorIsSilentWhenBarrierOrdersAccesses) {
  LoweredKernel K = blockReverse(/*WithBarrier=*/true);
  std::vector<float> In(128, 1.0f), Out(128, 0);
  sim::SimOptions Opts;
  Opts.DetectRaces = true;
  std::string Error;
  EXPECT_TRUE(sim::simulate(K, {In.data(), Out.data()}, Opts, Error)) << Error;
  EXPECT_TRUE(Error.empty()) << Error;
}

TEST(SimTest, RaceDetectorReportsWriteWriteConflict) {
  KernelBuilder KB("ww");
  Buffer Out = KB.buffer("Out", DType::Float32, i32(1), false, true);
  Buffer S = makeBuffer("S", DType::Float32, {i32(1)}, Scope::Shared);
  KB.block(i32(2));
  Var Tx = makeVar("tx");
  Stmt Body = makeAllocate(
      S, makeSeq({bound(Tx, i32(2), "threadIdx.x",
                        makeStore(S, {i32(0)}, makeCast(DType::Float32, Tx))),
                  syncthreads(), makeStore(Out, {i32(0)}, makeLoad(S, {i32(0)}))}));
  LoweredKernel K = KB.done(Body);
  float Result = 0;
  std::string Error;
  EXPECT_FALSE(sim::simulate(K, {&Result}, defaultOptions(), Error));
  EXPECT_NE(Error.find("thread (0,0,0) writes it"), std::string::npos) << Error;
  EXPECT_NE(Error.find("thread (1,0,0) writes it"), std::string::npos) << Error;
}

TEST(SimTest, DifferentBarriersInOneBlockAreReported) {
  KernelBuilder KB("divergent");
  Buffer Out = KB.buffer("Out", DType::Int32, i32(2), false, true);
  KB.block(i32(2));
  Var Tx = makeVar("tx");
  Stmt Body = bound(Tx, i32(2), "threadIdx.x",
                    makeIf(Tx < i32(1), makeSeq({syncthreads(), makeStore(Out, {Tx}, Tx)}),
                           makeSeq({syncthreads(), makeStore(Out, {Tx}, Tx)})));
  LoweredKernel K = KB.done(Body);
  std::vector<int32_t> Data(2, 0);
  std::string Error;
  EXPECT_FALSE(sim::simulate(K, {Data.data()}, defaultOptions(), Error));
  EXPECT_NE(Error.find("different barriers"), std::string::npos) << Error;
}

TEST(SimTest, SharedMemoryIsPoisonedNotZeroed) {
  KernelBuilder KB("poison");
  Buffer Out = KB.buffer("Out", DType::Int32, i32(1), false, true);
  Buffer S = makeBuffer("S", DType::Int32, {i32(1)}, Scope::Shared);
  LoweredKernel K = KB.done(makeAllocate(S, makeStore(Out, {i32(0)}, makeLoad(S, {i32(0)}))));
  int32_t Result = 0;
  std::string Error;
  sim::SimOptions Opts; // with the initialization check off, the read runs
  Opts.CheckInit = false;
  ASSERT_TRUE(sim::simulate(K, {&Result}, Opts, Error)) << Error;
  EXPECT_NE(Result, 0); // an uninitialized read must not look like a correct zero
}

TEST(SimTest, WrongArgumentCountIsReported) {
  LoweredKernel K = elementwiseAdd(true);
  int32_t M = 1;
  std::string Error;
  EXPECT_FALSE(sim::simulate(K, {&M}, defaultOptions(), Error));
  EXPECT_NE(Error.find("parameters"), std::string::npos) << Error;
}

} // namespace
