//===- VectorizeLoops.cpp - vectorize(x) as CUDA vector accesses, or a warning ===//
//
// A loop marked `vectorize(x)` stays ForKind::Vectorized only where it can
// run as CUDA vector loads and stores (ir::planVectorLoop: extent 2 or 4,
// straight-line stores, every global or shared access of stride 1 in x from
// a first element proven a multiple of the width, or free of x); the CUDA
// emitter prints those as float4/int2/__half2 accesses (codegen/
// CodeGenCUDA.cpp), and the simulator runs them as the loop they are (their
// iterations are independent). Every other vectorized loop becomes an
// unrolled loop, with a warning (-Wsched-ignored) at the directive's loop
// argument saying why: vectorize never silently does nothing.
//
// PartitionLoops may have made copies of a loop (a full tile's, without
// guards, and an edge tile's, with them, each with a variable of its own
// and the directive's name): the warning is for a loop name no copy of
// which could be vectorized; a guarded edge copy just runs scalar.
//
// Runs after StorageFlatten (one flat index per access: contiguity and
// alignment are properties of it) and PartitionLoops (the full tiles' code
// has no guards in it), before UnrollSmallLoops (which keeps a vectorized
// loop's kind, and unrolls a refused one's body with the rest of its tile).
// It consumes the nest's vectorize marks (the LoopPragmas that carry the
// directives' locations).
//
//===----------------------------------------------------------------------===//
#include "ir/IRMutator.h"
#include "ir/Rewrite.h"
#include "ir/Vectorize.h"
#include "passes/Passes.h"

#include <map>
#include <set>
#include <string>
#include <vector>

namespace sched {
namespace passes {

namespace {

class LoopVectorizer : public ir::IRMutator {
public:
  std::set<std::string> Vectorized; // loop names some copy of which vectorized
  struct Refusal {
    std::string Loop;
    std::string Why;
  };
  std::vector<Refusal> Refused; // in the order met, one per loop variable

protected:
  ir::Stmt mutateFor(const ir::Stmt &S, const ir::ForNode *N) override {
    ir::Stmt Body = mutate(N->Body);
    ir::Stmt Same = Body == N->Body ? S : ir::withBody(N, Body);
    if (N->LoopKind != ir::ForKind::Vectorized)
      return Same;
    ir::VectorLoop Plan;
    std::string Why = ir::planVectorLoop(ir::as<ir::ForNode>(Same), Plan);
    if (Why.empty()) {
      Vectorized.insert(N->LoopVar->Name);
      return Same;
    }
    bool Seen = false;
    for (const Refusal &R : Refused)
      Seen |= R.Loop == N->LoopVar->Name;
    if (!Seen)
      Refused.push_back({N->LoopVar->Name, Why});
    return ir::withKind(ir::as<ir::ForNode>(Same), ir::ForKind::Unrolled, N->ThreadTag);
  }
};

} // namespace

ir::LoopNest vectorizeLoops(const ir::LoopNest &Nest, std::vector<Diag> &Diags) {
  ir::LoopNest Out = Nest;
  LoopVectorizer Vectorizer;
  Out.Body = Vectorizer.mutate(Nest.Body);
  std::map<std::string, int> Locs; // of the vectorize directives, by loop name
  Out.Pragmas.clear();
  for (const ir::LoopPragma &P : Nest.Pragmas) {
    if (P.Kind != ir::VectorizePragma)
      Out.Pragmas.push_back(P);
    else if (P.Loop)
      Locs[P.Loop->Name] = P.Loc;
  }
  for (const LoopVectorizer::Refusal &R : Vectorizer.Refused) {
    if (Vectorizer.Vectorized.count(R.Loop))
      continue;
    auto Loc = Locs.find(R.Loop);
    Diags.push_back({Diag::Level::Warning, Loc == Locs.end() ? -1 : Loc->second,
                     "vectorize(" + R.Loop + ") has no effect: " + R.Why +
                         "; the loop is unrolled instead",
                     "sched-ignored"});
  }
  return Out;
}

const Pass VectorizeLoopsPass = {
    "VectorizeLoops", /*Requires=*/FormFlattened, /*Establishes=*/FormAny,
    [](LoweringState &S) {
      S.Nest = vectorizeLoops(S.Nest, S.Diags);
      return true;
    }};

} // namespace passes
} // namespace sched
