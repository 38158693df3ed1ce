//===- ScheduleStagesTest.cpp - Cache stages as the schedule leaves them --===//
//
// The view of a nest without its cache stages (schedule::withoutStages),
// which legality checks need: a write-back's region is symbolic until bound
// inference, so on the nest itself every loop around it seems to carry a
// dependence on the tensor it writes.
//
//===----------------------------------------------------------------------===//

#include "ir/Dependence.h"
#include "ir/IR.h"
#include "ir/Printer.h"
#include "schedule/DirectiveParser.h"
#include "schedule/ScheduleImpl.h"

#include <gtest/gtest.h>

using namespace sched;
using namespace sched::ir;

namespace {

/// for (i, 0, 16) { for (j, 0, 8) { C[i, j] = A[i, j]*2 } }
LoopNest makeScaleNest() {
  Buffer A = makeBuffer("A", DType::Float32, {makeInt(16), makeInt(8)});
  Buffer C = makeBuffer("C", DType::Float32, {makeInt(16), makeInt(8)});
  Var I = makeVar("i"), J = makeVar("j");
  Stmt Store = makeStore(C, {I, J}, makeLoad(A, {I, J}) * makeFloat(2.0));
  LoopNest Nest;
  Nest.Name = "scale";
  Nest.Params = {{Param::Kind::Buffer, A, nullptr}, {Param::Kind::Buffer, C, nullptr}};
  Nest.Body = makeFor(I, makeInt(0), makeInt(16), makeFor(J, makeInt(0), makeInt(8), Store));
  return Nest;
}

/// Applies Text's directives one by one on S (no finishStages: the stages
/// stay in S as a schedule in progress has them).
void applyAll(schedule::ScheduleState &S, const std::string &Text) {
  std::vector<Directive> Dirs;
  std::vector<Diag> Diags;
  ASSERT_TRUE(parseDirectiveText(Text, Dirs, Diags)) << Text;
  for (const Directive &D : Dirs) {
    bool Ok = false;
    if (D.Name == "split")
      Ok = schedule::applySplit(S, D);
    else if (D.Name == "cache_write")
      Ok = schedule::applyCacheWrite(S, D);
    else if (D.Name == "cache_read")
      Ok = schedule::applyCacheRead(S, D);
    else if (D.Name == "compute_at")
      Ok = schedule::applyComputeAt(S, D);
    else if (D.Name == "double_buffer")
      Ok = schedule::applyDoubleBuffer(S, D);
    ASSERT_TRUE(Ok) << D.Name << ": " << (S.Diags.empty() ? "" : S.Diags.back().Message);
  }
}

TEST(ScheduleStages, WriteBackHidesTheComputationsDependences) {
  LoopNest Nest = makeScaleNest();
  std::vector<Diag> Diags;
  schedule::ScheduleState S{Nest, Diags};
  applyAll(S, "split(i, io, ii, 4) cache_write(C, local, Cl) compute_at(Cl, ii)");
  const ForNode *Io = nullptr;
  for (const ForNode *L : schedule::collectLoops(Nest.Body))
    if (L->LoopVar->Name == "io")
      Io = L;
  ASSERT_TRUE(Io);
  // On the nest, C[(Cl.min0 + Cl.ax0), ...] is one element for every io.
  EXPECT_FALSE(isParallelLoop(Io));
  // Without the stage, io writes rows io*4 to io*4 + 3 of C: parallel.
  Stmt View = schedule::withoutStages(S);
  const ForNode *IoView = schedule::findLoopByVar(View, Io->LoopVar.get());
  ASSERT_TRUE(IoView);
  EXPECT_TRUE(isParallelLoop(IoView));
  std::string Text = print(View);
  EXPECT_EQ(Text.find("Cl"), std::string::npos) << Text;
  EXPECT_NE(Text.find("C[((io*4) + ii), j] = (A[((io*4) + ii), j]*2.0f)"), std::string::npos)
      << Text;
}

TEST(ScheduleStages, ReadStageBecomesTheTensorItCopies) {
  LoopNest Nest = makeScaleNest();
  std::vector<Diag> Diags;
  schedule::ScheduleState S{Nest, Diags};
  applyAll(S, "split(i, io, ii, 4) cache_read(A, shared, As) compute_at(As, io) "
              "double_buffer(As)");
  std::string Text = print(schedule::withoutStages(S));
  EXPECT_EQ(Text.find("As"), std::string::npos) << Text;
  EXPECT_NE(Text.find("C[((io*4) + ii), j] = (A[((io*4) + ii), j]*2.0f)"), std::string::npos)
      << Text;
}

} // namespace
