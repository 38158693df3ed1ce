//===- VtaTokenBalanceTest.cpp - InjectCoprocSync's tokens, run ----------===//
//
// Lowers VTA programs in uop form through FoldUopLoops, InjectCoprocSync
// and InjectVtaContexts, then runs the result's dynamic trace (loops
// expanded) through a model of how the VTA runtime turns calls into
// instructions (research/vta.md section 1: a pop is deferred to the next
// instruction of its queue, a push sets a flag on the last instruction when
// it runs on the pushing queue, else a no-op carries it; synchronize drains
// both neighbours of compute before FINISH) and checks that the tokens are
// balanced: tokens flow between neighbouring queues only, every pop is
// matched by an earlier push (no deadlock), no token is left over, and
// every instruction completes before FINISH. For programs
// of one context it also checks that every instruction waits for the one
// before it in program order (the order InjectCoprocSync promises).
//
//===----------------------------------------------------------------------===//
#include "LoweringTestUtil.h"
#include "Pipeline.h"
#include "passes/Passes.h"
#include "ir/Vta.h"

#include <gtest/gtest.h>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace sched;

namespace {

/// The instruction stream a program's calls build, and the happens-before
/// edges of its queues and tokens.
class TokenModel {
public:
  struct Insn {
    int64_t Queue;
    bool Real; // an instruction of the program (not a no-op, not FINISH)
  };
  std::vector<Insn> Program;
  std::vector<std::vector<size_t>> Edges; // happens-before successors
  std::vector<std::string> Errors;
  size_t Finish = 0;

  void run(const ir::Stmt &S) {
    walk(S, {});
    // VTASynchronize.
    push(3, 2);
    push(1, 2);
    pop(3, 2);
    pop(1, 2);
    commit(2);
    Finish = create(2, false);
    for (int64_t Q : {1, 3})
      if (Pending[{Q, 0}] || Pending[{Q, 1}])
        Errors.push_back("a pop to queue " + std::to_string(Q) + " is followed by no instruction");
    for (const auto &[Pair, Producers] : Pushes)
      if (Producers.size() != Consumers[Pair].size())
        Errors.push_back("pair (" + std::to_string(Pair.first) + ", " + std::to_string(Pair.second) +
                         "): " + std::to_string(Producers.size()) + " pushes, " +
                         std::to_string(Consumers[Pair].size()) + " pops");
    // Queue order, then tokens: the k-th push of a pair feeds its k-th pop.
    Edges.assign(Program.size(), {});
    std::map<int64_t, size_t> LastOn;
    for (size_t I = 0; I < Program.size(); ++I) {
      auto It = LastOn.find(Program[I].Queue);
      if (It != LastOn.end())
        Edges[It->second].push_back(I);
      LastOn[Program[I].Queue] = I;
    }
    for (const auto &[Pair, Producers] : Pushes) {
      const std::vector<size_t> &Cons = Consumers[Pair];
      for (size_t K = 0; K < Producers.size() && K < Cons.size(); ++K) {
        if (Cons[K] <= Producers[K])
          Errors.push_back("a pop waits for a push that comes after it (deadlock)");
        Edges[Producers[K]].push_back(Cons[K]);
      }
    }
  }

  /// Whether B waits for A (a path of queue and token edges).
  bool before(size_t A, size_t B) const {
    std::vector<bool> Seen(Program.size());
    std::vector<size_t> Work{A};
    while (!Work.empty()) {
      size_t X = Work.back();
      Work.pop_back();
      if (X == B)
        return true;
      for (size_t Y : Edges[X])
        if (!Seen[Y]) {
          Seen[Y] = true;
          Work.push_back(Y);
        }
    }
    return false;
  }

private:
  // Pending pops per (queue, from-below?) and the flags already set.
  std::map<std::pair<int64_t, int>, std::vector<std::pair<int64_t, int64_t>>> PendingPairs;
  std::map<std::pair<int64_t, int>, bool> Pending;
  std::map<size_t, std::set<std::pair<int64_t, int64_t>>> Pushed;
  std::map<std::pair<int64_t, int64_t>, std::vector<size_t>> Pushes, Consumers;

  size_t create(int64_t Q, bool Real) {
    Program.push_back({Q, Real});
    size_t I = Program.size() - 1;
    for (int Kind : {0, 1}) {
      if (!Pending[{Q, Kind}])
        continue;
      for (const auto &Pair : PendingPairs[{Q, Kind}])
        Consumers[Pair].push_back(I);
      PendingPairs[{Q, Kind}].clear();
      Pending[{Q, Kind}] = false;
    }
    return I;
  }

  void commit(int64_t Q) {
    if (Pending[{Q, 0}] || Pending[{Q, 1}])
      create(Q, false);
  }

  void push(int64_t From, int64_t To) {
    std::pair<int64_t, int64_t> Pair{From, To};
    bool Flag = !Program.empty() && Program.back().Queue == From &&
                !Pushed[Program.size() - 1].count(Pair);
    size_t I = Flag ? Program.size() - 1 : create(From, false);
    Pushed[I].insert(Pair);
    Pushes[Pair].push_back(I);
  }

  void pop(int64_t From, int64_t To) {
    int Kind = From < To ? 0 : 1;
    if (Pending[{To, Kind}])
      commit(To);
    Pending[{To, Kind}] = true;
    PendingPairs[{To, Kind}].push_back({From, To});
  }

  void walk(const ir::Stmt &S, std::map<const ir::VarNode *, ir::Expr> Env) {
    if (!S)
      return;
    if (const auto *Q = ir::as<ir::SeqNode>(S)) {
      for (const ir::Stmt &X : Q->Stmts)
        walk(X, Env);
    } else if (const auto *A = ir::as<ir::AllocateNode>(S)) {
      walk(A->Body, Env);
    } else if (const auto *F = ir::as<ir::ForNode>(S)) {
      int64_t Min = 0, Extent = 0;
      ASSERT_TRUE(ir::getConstInt(ir::simplify(ir::substitute(F->Min, Env)), Min));
      ASSERT_TRUE(ir::getConstInt(ir::simplify(ir::substitute(F->Extent, Env)), Extent));
      for (int64_t I = 0; I < Extent; ++I) {
        Env[F->LoopVar.get()] = ir::makeInt(Min + I);
        walk(F->Body, Env);
      }
    } else if (const auto *E = ir::as<ir::EvaluateNode>(S)) {
      const auto *C = ir::as<ir::CallNode>(E->Value);
      ASSERT_TRUE(C);
      int64_t From = 0, To = 0;
      if (C->Name == "vta.dep_push" || C->Name == "vta.dep_pop") {
        ASSERT_TRUE(ir::getConstInt(C->Args[0], From) && ir::getConstInt(C->Args[1], To));
        if (From < 1 || From > 3 || To < 1 || To > 3 || (From - To != 1 && To - From != 1))
          Errors.push_back(C->Name + "(" + std::to_string(From) + ", " + std::to_string(To) +
                           "): tokens flow between neighbouring queues only");
        if (C->Name == "vta.dep_push")
          push(From, To);
        else
          pop(From, To);
      } else if (int64_t Q = ir::vtaQueueOf(C)) {
        create(Q, true);
      }
    } else {
      FAIL() << "unexpected statement in a VTA program";
    }
  }
};

ir::LoopNest lower(const std::string &Text) {
  ir::LoopNest Nest = lowertest::parseNest(Text);
  std::vector<Diag> Diags;
  Nest = passes::foldUopLoops(Nest, Diags);
  Nest = passes::injectCoprocSync(Nest, Diags);
  Nest = passes::injectVtaContexts(Nest, Diags);
  for (const Diag &D : Diags)
    ADD_FAILURE() << D.Message;
  return Nest;
}

/// Lowers Text and checks its tokens; Serial: one context, so every
/// instruction must also wait for the one before it.
void expectBalanced(const std::string &Text, bool Serial) {
  ir::LoopNest Nest = lower(Text);
  TokenModel M;
  M.run(Nest.Body);
  for (const std::string &E : M.Errors)
    ADD_FAILURE() << E;
  for (size_t I = 0; I < M.Program.size(); ++I)
    EXPECT_TRUE(I == M.Finish || M.before(I, M.Finish)) << "instruction " << I << " may outlive FINISH";
  if (!Serial)
    return;
  size_t Prev = M.Program.size();
  for (size_t I = 0; I < M.Program.size(); ++I) {
    if (!M.Program[I].Real)
      continue;
    if (Prev != M.Program.size())
      EXPECT_TRUE(M.before(Prev, I)) << "instruction " << I << " (queue " << M.Program[I].Queue
                                     << ") does not wait for instruction " << Prev;
    Prev = I;
  }
}

const char *Tutorial = R"(
func gemm(A: int8*[1, 16, 1, 16] global, B: int8*[16, 16, 16, 16] global, C: int8*[1, 16, 1, 16] global) target=vta {
  allocate Cb: int32[1, 16, 1, 16] vta.acc {
    for (co, 0, 16) { eval vta.uop_gemm_reset(Cb[0, co, 0, 0]) }
    for (ko, 0, 16) reduce {
      allocate Ab: int8[1, 1, 1, 16] vta.inp {
        eval vta.load_2d(Ab[0, 0, 0, 0], A[0, ko, 0, 0], 1, 1, 1, 0, 0, 0, 0)
        allocate Bb: int8[16, 1, 16, 16] vta.wgt {
          eval vta.load_2d(Bb[0, 0, 0, 0], B[0, ko, 0, 0], 1, 16, 16, 0, 0, 0, 0)
          for (co, 0, 16) { eval vta.uop_gemm(Cb[0, co, 0, 0], Ab[0, 0, 0, 0], Bb[co, 0, 0, 0]) }
        }
      }
    }
    eval vta.store_2d(C[0, 0, 0, 0], Cb[0, 0, 0, 0], 16, 1, 16)
  }
}
)";

TEST(VtaTokenBalance, TutorialGemm) { expectBalanced(Tutorial, true); }

TEST(VtaTokenBalance, OuterLoopWithWarPairAndAluEpilogue) {
  expectBalanced(R"(
func mmo(A: int8*[4, 16, 1, 16] global, B: int8*[16, 16, 16, 16] global, C: int8*[4, 16, 1, 16] global) target=vta {
  for (i, 0, 4) {
    allocate Cb: int32[1, 16, 1, 16] vta.acc {
      for (co, 0, 16) { eval vta.uop_gemm_reset(Cb[0, co, 0, 0]) }
      for (ko, 0, 16) {
        allocate Ab: int8[1, 1, 1, 16] vta.inp {
          eval vta.load_2d(Ab[0, 0, 0, 0], A[i, ko, 0, 0], 1, 1, 1, 0, 0, 0, 0)
          allocate Bb: int8[16, 1, 16, 16] vta.wgt {
            eval vta.load_2d(Bb[0, 0, 0, 0], B[0, ko, 0, 0], 1, 16, 16, 0, 0, 0, 0)
            for (co, 0, 16) { eval vta.uop_gemm(Cb[0, co, 0, 0], Ab[0, 0, 0, 0], Bb[co, 0, 0, 0]) }
          }
        }
      }
      for (co, 0, 16) { eval vta.uop_alu(3, Cb[0, co, 0, 0], 0, 1, 8) }
      eval vta.store_2d(C[i, 0, 0, 0], Cb[0, 0, 0, 0], 16, 1, 16)
    }
  }
}
)",
                 true);
}

TEST(VtaTokenBalance, NestedLoopsStartingWithALoad) {
  expectBalanced(R"(
func nest(A: int8*[2, 4, 1, 16] global, C: int8*[1, 1, 1, 16] global) target=vta {
  allocate Cb: int32[1, 1, 1, 16] vta.acc {
    allocate Bb: int8[1, 1, 16, 16] vta.wgt {
      for (o, 0, 2) {
        for (k, 0, 4) {
          allocate Ab: int8[1, 1, 1, 16] vta.inp {
            eval vta.load_2d(Ab[0, 0, 0, 0], A[o, k, 0, 0], 1, 1, 1, 0, 0, 0, 0)
            eval vta.uop_gemm(Cb[0, 0, 0, 0], Ab[0, 0, 0, 0], Bb[0, 0, 0, 0])
          }
        }
        eval vta.store_2d(C[0, 0, 0, 0], Cb[0, 0, 0, 0], 1, 1, 1)
      }
    }
  }
}
)",
                 true);
}

/// Body in a program with one-element stages Cb (acc), Ab (inp), Bb (wgt)
/// over A and C of three elements.
std::string withOneElementStages(const std::string &Body) {
  return R"(
func small(A: int8*[3, 1, 1, 16] global, C: int8*[3, 1, 1, 16] global) target=vta {
  allocate Cb: int32[1, 1, 1, 16] vta.acc {
    allocate Ab: int8[1, 1, 1, 16] vta.inp {
      allocate Bb: int8[1, 1, 16, 16] vta.wgt {
)" + Body + R"(
      }
    }
  }
}
)";
}

TEST(VtaTokenBalance, LoopFromLoadToStoreStepsThroughCompute) {
  expectBalanced(withOneElementStages(R"(
    eval vta.store_2d(C[0, 0, 0, 0], Cb[0, 0, 0, 0], 1, 1, 1)
    for (i, 0, 3) {
      eval vta.load_2d(Ab[0, 0, 0, 0], A[i, 0, 0, 0], 1, 1, 1, 0, 0, 0, 0)
      eval vta.uop_gemm(Cb[0, 0, 0, 0], Ab[0, 0, 0, 0], Bb[0, 0, 0, 0])
      eval vta.store_2d(C[i, 0, 0, 0], Cb[0, 0, 0, 0], 1, 1, 1)
    }
    eval vta.load_2d(Ab[0, 0, 0, 0], A[0, 0, 0, 0], 1, 1, 1, 0, 0, 0, 0)
)"),
                 true);
}

TEST(VtaTokenBalance, LoopThatMayRunZeroTimes) {
  expectBalanced(withOneElementStages(R"(
    eval vta.uop_gemm_reset(Cb[0, 0, 0, 0])
    for (k, 0, 0) {
      eval vta.load_2d(Ab[0, 0, 0, 0], A[0, 0, 0, 0], 1, 1, 1, 0, 0, 0, 0)
      eval vta.uop_gemm(Cb[0, 0, 0, 0], Ab[0, 0, 0, 0], Bb[0, 0, 0, 0])
    }
    eval vta.store_2d(C[0, 0, 0, 0], Cb[0, 0, 0, 0], 1, 1, 1)
)"),
                 true);
}

/// The GEMM split in two halves of co, bound to cthread; inside an outer
/// loop over four row blocks of A and C when OuterLoop.
std::string twoContextGemm(bool OuterLoop) {
  std::string Row = OuterLoop ? "i" : "0";
  std::string Body = R"(
    for (ct, 0, 2) bind(cthread) {
      allocate Cb: int32[1, 8, 1, 16] vta.acc {
        for (co, 0, 8) { eval vta.uop_gemm_reset(Cb[0, co, 0, 0]) }
        for (ko, 0, 16) {
          allocate Ab: int8[1, 1, 1, 16] vta.inp {
            eval vta.load_2d(Ab[0, 0, 0, 0], A[ROW, ko, 0, 0], 1, 1, 1, 0, 0, 0, 0)
            allocate Bb: int8[8, 1, 16, 16] vta.wgt {
              eval vta.load_2d(Bb[0, 0, 0, 0], B[(ct*8), ko, 0, 0], 1, 8, 16, 0, 0, 0, 0)
              for (co, 0, 8) { eval vta.uop_gemm(Cb[0, co, 0, 0], Ab[0, 0, 0, 0], Bb[co, 0, 0, 0]) }
            }
          }
        }
        eval vta.store_2d(C[ROW, (ct*8), 0, 0], Cb[0, 0, 0, 0], 8, 1, 16)
      }
    })";
  for (size_t At; (At = Body.find("ROW")) != std::string::npos;)
    Body.replace(At, 3, Row);
  if (OuterLoop)
    Body = "for (i, 0, 4) {" + Body + "\n}";
  return "func gemm(A: int8*[4, 16, 1, 16] global, B: int8*[16, 16, 16, 16] global, "
         "C: int8*[4, 16, 1, 16] global) target=vta {\n" +
         Body + "\n}\n";
}

TEST(VtaTokenBalance, TwoContexts) { expectBalanced(twoContextGemm(false), false); }

TEST(VtaTokenBalance, TwoContextsInsideAnOuterLoop) { expectBalanced(twoContextGemm(true), false); }

/// The model itself: a program missing its draining pop is caught.
TEST(VtaTokenBalance, ModelCatchesALeftoverToken) {
  ir::LoopNest Nest = lower(Tutorial);
  class DropFirstPop : public ir::IRMutator {
  public:
    bool Dropped = false;

  protected:
    ir::Stmt mutateEvaluate(const ir::Stmt &S, const ir::EvaluateNode *N) override {
      const auto *C = ir::as<ir::CallNode>(N->Value);
      if (!Dropped && C && C->Name == "vta.dep_pop") {
        Dropped = true;
        return ir::makeSeq({});
      }
      return S;
    }
  } Drop;
  TokenModel M;
  M.run(Drop.mutate(Nest.Body));
  EXPECT_TRUE(Drop.Dropped);
  EXPECT_FALSE(M.Errors.empty());
}

} // namespace
