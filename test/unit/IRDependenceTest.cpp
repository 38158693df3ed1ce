//===- IRDependenceTest.cpp - The one dependence analysis -----------------===//
//
// Each case is a nest in the textual IR and a question: which loops carry a
// dependence, which permutations and distributions keep every dependence.
// The cases are the legal schedules issue 7 lists as falsely refused, and
// their illegal twins.
//
//===----------------------------------------------------------------------===//

#include "LoweringTestUtil.h"
#include "ir/Dependence.h"
#include "schedule/ScheduleImpl.h"

#include <gtest/gtest.h>

using namespace sched;
using namespace sched::ir;

namespace {

/// A parsed nest and its loops by name.
struct Nest {
  LoopNest N;
  explicit Nest(const std::string &Text) : N(lowertest::parseNest(Text)) {}
  const ForNode *loop(const std::string &Name) const {
    for (const ForNode *L : schedule::collectLoops(N.Body))
      if (L->LoopVar->Name == Name)
        return L;
    ADD_FAILURE() << "no loop " << Name;
    return nullptr;
  }
  bool parallel(const std::string &Name, std::string *Why = nullptr) const {
    return isParallelLoop(loop(Name), Why);
  }
};

TEST(DependenceTest, RecurrenceAlongColumnsLeavesRowsParallel) {
  Nest X(R"(func f(a: float32*[R, C] global, R: int32, C: int32) target=gpu {
  for (i, 0, R) {
    for (j, 1, (C - 1)) {
      a[i, j] = (a[i, (j - 1)] + 1.0f)
    }
  }
})");
  std::string Why;
  EXPECT_TRUE(X.parallel("i", &Why)) << Why;
  EXPECT_FALSE(X.parallel("j", &Why));
  EXPECT_EQ(Why, "loop-carried dependence on 'a': a[i, (j - 1)] (read) and a[i, j] (written)");
}

TEST(DependenceTest, FlatRecurrenceWithRunTimeRowLengthLeavesRowsParallel) {
  // a[i*C + j] = a[i*C + j - 1]: the row stride C is a parameter, and
  // j - 1 stays within [0, C): different rows never meet.
  Nest X(R"(func f(a: float32*[1000] global, R: int32, C: int32) target=gpu {
  for (i, 0, R) {
    for (j, 1, (C - 1)) {
      a[((i*C) + j)] = (a[(((i*C) + j) - 1)] + 1.0f)
    }
  }
})");
  std::string Why;
  EXPECT_TRUE(X.parallel("i", &Why)) << Why;
  EXPECT_FALSE(X.parallel("j"));
}

TEST(DependenceTest, FlatRowsOfASizePlusAConstantAreParallel) {
  // a[(C + 1)*i + j + 1], j < C: rows of C + 1 hold columns 1..C, so
  // different rows never meet (fuzzer seed 906: a stride that is a sum).
  Nest X(R"(func f(a: float32*[1000] global, R: int32, C: int32) target=gpu {
  for (i, 0, R) {
    for (j, 0, C) {
      a[((((C + 1)*i) + j) + 1)] = (a[((((C + 1)*i) + j) + 1)]*2.0f)
    }
  }
})");
  std::string Why;
  EXPECT_TRUE(X.parallel("i", &Why)) << Why;
}

TEST(DependenceTest, FlatAccessWithShortRowStrideIsNotParallel) {
  // Rows of length C overlap when the stride is C - 1.
  Nest X(R"(func f(a: float32*[1000] global, R: int32, C: int32) target=gpu {
  for (i, 0, R) {
    for (j, 0, C) {
      a[((i*(C - 1)) + j)] = 1.0f
    }
  }
})");
  EXPECT_FALSE(X.parallel("i"));
}

TEST(DependenceTest, FusedRunTimeExtentsAreParallel) {
  Nest X(R"(func f(A: float32*[N, M] global, B: float32*[N, M] global, N: int32, M: int32) target=gpu {
  for (f, 0, (N*M)) {
    B[(f/M), (f % M)] = (A[(f/M), (f % M)]*2.0f)
  }
})");
  std::string Why;
  EXPECT_TRUE(X.parallel("f", &Why)) << Why;
}

TEST(DependenceTest, SplitOfFusedRunTimeExtentsIsParallel) {
  Nest X(R"(func f(B: float32*[N, M] global, N: int32, M: int32) target=gpu {
  for (fo, 0, (((N*M) + 31)/32)) {
    for (fi, 0, 32) {
      if ((((fo*32) + fi) < (N*M))) {
        B[(((fo*32) + fi)/M), (((fo*32) + fi) % M)] = 1.0f
      }
    }
  }
})");
  std::string Why;
  EXPECT_TRUE(X.parallel("fo", &Why)) << Why;
  EXPECT_TRUE(X.parallel("fi", &Why)) << Why;
}

TEST(DependenceTest, FuseOfAnOuterSplitLoopIsParallel) {
  // fuse(i, jo, ijo) after split(j, jo, ji, 16) of a run-time extent: the
  // divisor is (M + 15)/16, and the remainder reaches the index scaled,
  // [ijo / E, (ijo % E)*16 + ji]. Equal quotients and equal remainders still
  // force equal ijo.
  Nest X(R"(func f(B: float32*[N, M] global, N: int32, M: int32) target=gpu {
  for (ijo, 0, (max(N, 0)*max(((M + 15)/16), 0))) {
    for (ji, 0, 16) {
      if (((((ijo % ((M + 15)/16))*16) + ji) < M)) {
        B[(ijo/((M + 15)/16)), (((ijo % ((M + 15)/16))*16) + ji)] = 1.0f
      }
    }
  }
})");
  std::string Why;
  EXPECT_TRUE(X.parallel("ijo", &Why)) << Why;
  EXPECT_TRUE(X.parallel("ji", &Why)) << Why;
}

TEST(DependenceTest, FuseOfAFusedSplitIsParallel) {
  // split(i, io, ii, 16) fuse(ii, j, iij) fuse(io, iij, ioiij): the divisor
  // max(M, 0)*16 is an expression, and both instances must divide by the
  // same variable standing for it.
  Nest X(R"(func f(B: int32*[1, M] global, M: int32) target=gpu {
  for (ioiij, 0, (max(M, 0)*16)) {
    if (((((ioiij/(max(M, 0)*16))*16) + ((ioiij % (max(M, 0)*16))/M)) < 1)) {
      B[(((ioiij/(max(M, 0)*16))*16) + ((ioiij % (max(M, 0)*16))/M)), ((ioiij % (max(M, 0)*16)) % M)] = 1
    }
  }
})");
  std::string Why;
  EXPECT_TRUE(X.parallel("ioiij", &Why)) << Why;
}

TEST(DependenceTest, NPartsSplitOfRunTimeExtentIsParallel) {
  // split(i, bx, tx, nparts=4): i = bx*((n + 3)/4) + tx, tx < (n + 3)/4.
  Nest X(R"(func f(y: float32*[n] global, n: int32) target=gpu {
  for (bx, 0, 4) {
    for (tx, 0, ((n + 3)/4)) {
      if ((((bx*((n + 3)/4)) + tx) < n)) {
        y[((bx*((n + 3)/4)) + tx)] = (y[((bx*((n + 3)/4)) + tx)]*2.0f)
      }
    }
  }
})");
  std::string Why;
  EXPECT_TRUE(X.parallel("bx", &Why)) << Why;
  EXPECT_TRUE(X.parallel("tx", &Why)) << Why;
}

TEST(DependenceTest, NPartsSplitOfNPartsSplitIsParallel) {
  // split(j, jo, ji, nparts=2) split(ji, jiv, jir, nparts=2) of a run-time
  // extent: j = jo*S + jiv*S2 + jir with two symbolic strides; the inner
  // split's guard keeps jiv*S2 + jir below S, so jo's iterations never meet,
  // and then neither do jiv's.
  Nest X(R"(func f(A: float32*[2, ((M*2) - 1)] global, M: int32) target=gpu {
  for (jo, 0, 2) {
    for (jiv, 0, 2) {
      for (jir, 0, ((((M + 1)/2) + 1)/2)) {
        if ((((jiv*((((M + 1)/2) + 1)/2)) + jir) < ((M + 1)/2))) {
          if ((((jo*((M + 1)/2)) + ((jiv*((((M + 1)/2) + 1)/2)) + jir)) < M)) {
            A[0, (((jo*((M + 1)/2)) + ((jiv*((((M + 1)/2) + 1)/2)) + jir))*2)] = 1.0f
          }
        }
      }
    }
  }
})");
  std::string Why;
  for (const char *L : {"jo", "jiv", "jir"})
    EXPECT_TRUE(X.parallel(L, &Why)) << L << ": " << Why;
}

TEST(DependenceTest, NonDividingSplitOfSplitIsParallel) {
  Nest X(R"(func f(y: float32*[100] global) target=gpu {
  for (io, 0, 34) {
    for (iio, 0, 2) {
      for (iii, 0, 2) {
        if ((((iio*2) + iii) < 3)) {
          if ((((io*3) + ((iio*2) + iii)) < 100)) {
            y[((io*3) + ((iio*2) + iii))] = 1.0f
          }
        }
      }
    }
  }
})");
  std::string Why;
  for (const char *L : {"io", "iio", "iii"})
    EXPECT_TRUE(X.parallel(L, &Why)) << L << ": " << Why;
}

TEST(DependenceTest, TileOfFlatIndexWithNonDividingFactorIsParallel) {
  // A[r*20 + c] tiled 3x3: the column guard keeps c below 20, so tiles of
  // different rows never meet.
  Nest X(R"(func f(A: float32*[400] global) target=gpu {
  for (ro, 0, 7) {
    for (co, 0, 7) {
      for (ri, 0, 3) {
        for (ci, 0, 3) {
          if ((((ro*3) + ri) < 20)) {
            if ((((co*3) + ci) < 20)) {
              A[((((ro*3) + ri)*20) + ((co*3) + ci))] = 1.0f
            }
          }
        }
      }
    }
  }
})");
  std::string Why;
  for (const char *L : {"ro", "co", "ri", "ci"})
    EXPECT_TRUE(X.parallel(L, &Why)) << L << ": " << Why;
}

TEST(DependenceTest, ParityOfStridesSeparatesWritesFromReads) {
  Nest X(R"(func f(C: float32*[200] global) target=gpu {
  for (i, 0, 100) {
    C[(i*2)] = C[((i*2) + 1)]
  }
})");
  std::string Why;
  EXPECT_TRUE(X.parallel("i", &Why)) << Why;
}

TEST(DependenceTest, GuardThatSeparatesIterationsIsUsed) {
  // Only i < 50 writes, only i >= 50 reads: C[i - 50] vs C[i].
  Nest X(R"(func f(C: float32*[100] global) target=gpu {
  for (i, 0, 100) {
    if ((i < 50)) {
      C[i] = 1.0f
    } else {
      C[(i - 50)] = (C[(i - 50)] + 1.0f)
    }
  }
})");
  EXPECT_FALSE(X.parallel("i")); // C[0..49] written by both halves
  // Reads C[50..99], writes C[0..49]: disjoint only under the guard.
  Nest Y(R"(func f(C: float32*[150] global) target=gpu {
  for (i, 0, 100) {
    if ((i < 50)) {
      C[i] = C[(i + 50)]
    }
  }
})");
  std::string Why;
  EXPECT_TRUE(Y.parallel("i", &Why)) << Why;
}

TEST(DependenceTest, IndirectIndexIsAssumedToMeet) {
  Nest X(R"(func f(C: float32*[100] global, P: int32*[100] global) target=gpu {
  for (i, 0, 100) {
    C[P[i]] = 1.0f
  }
})");
  EXPECT_FALSE(X.parallel("i"));
}

TEST(DependenceTest, InterchangeAgainstASkewedDependenceIsIllegal) {
  // a[i, j] = a[i - 1, j + 1]: direction (<, >); swapping i and j reverses it.
  Nest X(R"(func f(a: float32*[64, 64] global) target=gpu {
  for (i, 1, 63) {
    for (j, 0, 63) {
      a[i, j] = a[(i - 1), (j + 1)]
    }
  }
})");
  DependenceWitness Why;
  EXPECT_TRUE(bandPermutationIsLegal({X.loop("i"), X.loop("j")}, {0, 1}));
  EXPECT_FALSE(bandPermutationIsLegal({X.loop("i"), X.loop("j")}, {1, 0}, &Why));
  EXPECT_EQ(Why.Buffer, "a");
}

TEST(DependenceTest, InterchangeAlongAForwardDependenceIsLegal) {
  // a[i, j] = a[i - 1, j - 1]: direction (<, <) stays positive either way.
  Nest X(R"(func f(a: float32*[64, 64] global) target=gpu {
  for (i, 1, 63) {
    for (j, 1, 63) {
      a[i, j] = a[(i - 1), (j - 1)]
    }
  }
})");
  DependenceWitness Why;
  EXPECT_TRUE(bandPermutationIsLegal({X.loop("i"), X.loop("j")}, {1, 0}, &Why))
      << Why.describe();
}

TEST(DependenceTest, ReductionLoopsReorderFreely) {
  // acc[0] += A[k1, k2]: every pair of iterations meets on acc, but only
  // through commutative updates.
  Nest X(R"(func f(A: float32*[8, 8] global, acc: float32*[1] global) target=gpu {
  for (k1, 0, 8) reduce {
    for (k2, 0, 8) reduce {
      acc[0] = (acc[0] + A[k1, k2])
    }
  }
})");
  DependenceWitness Why;
  EXPECT_TRUE(bandPermutationIsLegal({X.loop("k1"), X.loop("k2")}, {1, 0}, &Why))
      << Why.describe();
}

TEST(DependenceTest, DistributingInitBeforeReductionIsLegal) {
  // C[i, j] = 0; for k: C[i, j] += ...: every dependence goes forward from
  // the init to the update, so j can be distributed over the two.
  Nest X(R"(func f(A: float32*[8, 8] global, B: float32*[8, 8] global, C: float32*[8, 8] global) target=gpu {
  for (i, 0, 8) {
    for (j, 0, 8) {
      C[i, j] = 0.0f
      for (k, 0, 8) reduce {
        C[i, j] = (C[i, j] + (A[i, k]*B[k, j]))
      }
    }
  }
})");
  const ForNode *J = X.loop("j");
  DependenceWitness Why;
  EXPECT_TRUE(distributionIsLegal(J, as<SeqNode>(J->Body), {}, &Why)) << Why.describe();
}

TEST(DependenceTest, DistributingAgainstABackwardDependenceIsIllegal) {
  // s1 reads b[i + 1], which s2 of the previous iteration... writes b[i]:
  // s2(i) -> s1(i + 1) goes backwards in statement order.
  Nest X(R"(func f(a: float32*[65] global, b: float32*[65] global) target=gpu {
  for (i, 0, 64) {
    a[i] = b[i]
    b[(i + 1)] = a[i]
  }
})");
  const ForNode *I = X.loop("i");
  DependenceWitness Why;
  EXPECT_FALSE(distributionIsLegal(I, as<SeqNode>(I->Body), {}, &Why));
  EXPECT_EQ(Why.Buffer, "b");
}

TEST(DependenceTest, ThreadsApartOnlyInIntegersNeedNoBarrier) {
  // Thread tx writes A[io*4 + v*3 + tx] with tx < 3 and v*3 + tx < 4: the
  // elements are 0, 1, 2 (v = 0) and 3 (v = 1): no two threads meet, but
  // only integer reasoning shows it (the rational relaxation lets v differ
  // by 1/3).
  Nest X(R"(func f(A: float32*[8] global) target=gpu {
  for (io, 0, 2) {
    for (v, 0, 2) {
      for (tx, 0, 8) bind(threadIdx.x) {
        if ((tx < 3)) {
          if ((((v*3) + tx) < 4)) {
            A[(((io*4) + (v*3)) + tx)] = (A[(((io*4) + (v*3)) + tx)] + 1.0f)
          }
        }
      }
    }
  }
})");
  std::vector<Access> All = collectAccesses(X.N.Body);
  ASSERT_EQ(All.size(), 2u);
  EXPECT_FALSE(mayConflictAcrossThreads(All[1], All[1], {{"threadIdx.x", 8}}));
  EXPECT_FALSE(mayConflictAcrossThreads(All[0], All[1], {{"threadIdx.x", 8}}));
}

TEST(DependenceTest, BlocksOfANestedSplitNeverMeet) {
  // A[ioo*64 + ioi*16 + iio*3 + iii] with iii < 3 and iio*3 + iii < 16:
  // every block (ioo, iio) has its own elements.
  Nest X(R"(func f(A: float32*[M, 4] global, M: int32) target=gpu {
  for (ioo, 0, ((((M + 15)/16) + 3)/4)) bind(blockIdx.y) {
    for (iio, 0, 6) bind(blockIdx.x) {
      for (ioi, 0, 4) {
        for (iii, 0, 3) bind(threadIdx.z) {
          if ((((iio*3) + iii) < 16)) {
            A[((((ioo*64) + (ioi*16)) + (iio*3)) + iii), 0] = 1.0f
          }
        }
      }
    }
  }
})");
  std::vector<Access> All = collectAccesses(X.N.Body);
  ASSERT_EQ(All.size(), 1u);
  EXPECT_FALSE(mayConflictAcrossBlocks(All[0], All[0], {{"blockIdx.x", 6}}));
}

TEST(DependenceTest, DifferentBlocksMeetOnASharedRow) {
  Access W, R;
  Nest X(R"(func f(C: float32*[64] global) target=gpu {
  for (bx, 0, 4) bind(blockIdx.x) {
    for (tx, 0, 16) bind(threadIdx.x) {
      C[tx] = 1.0f
    }
  }
})");
  std::vector<Access> All = collectAccesses(X.N.Body);
  ASSERT_EQ(All.size(), 1u);
  EXPECT_TRUE(mayConflictAcrossBlocks(All[0], All[0], {{"blockIdx.x", 4}}));
  EXPECT_FALSE(mayConflictAcrossThreads(All[0], All[0], {{"threadIdx.x", 16}}));
  Nest Y(R"(func f(C: float32*[64] global) target=gpu {
  for (bx, 0, 4) bind(blockIdx.x) {
    for (tx, 0, 16) bind(threadIdx.x) {
      C[((bx*16) + tx)] = 1.0f
    }
  }
})");
  All = collectAccesses(Y.N.Body);
  EXPECT_FALSE(mayConflictAcrossBlocks(All[0], All[0], {{"blockIdx.x", 4}}));
}

} // namespace
