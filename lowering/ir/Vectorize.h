//===- Vectorize.h - How a vectorized loop runs as CUDA vector accesses -*- C++ -*-===//
//
// `vectorize(x)` marks loop x ForKind::Vectorized. On the GPU target the
// loop then runs as one statement at a time over all its W lanes: every
// global or shared access whose flat index is `Base + x` (stride 1 in x,
// Base free of x) is one W-lane access of a CUDA vector type (float4, int2,
// __half2, ...), an access free of x is one scalar (the same element for
// every lane), and a local-array access is one scalar per lane (registers).
// planVectorLoop decides whether a loop can run that way and says why not;
// it is the one analysis for the pass that warns about and demotes the
// loops it refuses (passes/gpu/VectorizeLoops.cpp) and for the CUDA emitter
// that prints the ones it accepts (codegen/CodeGenCUDA.cpp).
//
// Running statement by statement instead of iteration by iteration is what
// the schedule proved legal: vectorize(x) needs x's iterations independent
// (schedule/Annotate.cpp).
//
// Alignment: a vector access of W elements of T needs its address to be a
// multiple of W * sizeof(T). Base is proven a multiple of W (an affine form
// whose coefficients and constant are multiples of W, ir::provablyMultipleOf),
// and the buffer's element 0 is assumed aligned to 16 bytes: shared arrays
// are declared __align__(16) (or 32), and a global buffer is what the
// launcher passes: the launcher runs the original loop instead where a
// pointer argument is not aligned so (vectorAlignments; a pointer into the
// middle of an array), and a staged device copy of a host array keeps the
// host address modulo 256 (runtime/cuda/CudaBackend.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_VECTORIZE_H
#define SCHED_IR_VECTORIZE_H

#include "IR.h"
#include "Prove.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sched {
namespace ir {

/// The CUDA vector type of Lanes elements of T (`float4`, `int2`,
/// `__half2`, `double2`), or null where CUDA has none (or its alignment
/// exceeds the 16 bytes a buffer's start is known to have).
const char *cudaVectorTypeName(DType T, int64_t Lanes);

/// The unsigned vector type that moves Bytes (4, 8, 16) bytes at once
/// (`unsigned int`, `uint2`, `uint4`), or null.
const char *copyVectorTypeName(int64_t Bytes);

/// A vectorized loop as CUDA vector code: its statements in order, and the
/// accesses done as one vector access each, with their first element.
/// A loop of copies (every statement `D[Base + x] = S[Base' + x]` of one
/// element type, neither local) moves Lanes elements as one CopyType
/// (`uint4` for 8 halves: CUDA has no vector type of them); any extent
/// whose bytes make one.
struct VectorLoop {
  int64_t Lanes = 0;
  const char *CopyType = nullptr;
  std::vector<const StoreNode *> Stores;
  std::map<const LoadNode *, Expr> VectorLoads;   // by node: Base
  std::map<const StoreNode *, Expr> VectorStores; // by node: Base
  /// The vector loads of each statement, in evaluation order.
  std::map<const StoreNode *, std::vector<const LoadNode *>> LoadsOf;
};

/// Whether the vectorized loop L (flattened buffers) can run as vector
/// accesses: "" with Out filled in, or why not (a sentence fragment such as
/// "B is read with stride 2 in 'x'").
std::string planVectorLoop(const ForNode *L, VectorLoop &Out);

/// Whether B[Indices] names, as Lane runs over [0, V), V consecutive
/// elements of B starting on a multiple of V (flat row-major index
/// `Base + Lane`, Base free of Lane and provably a multiple of V, with the
/// sizes' divisors Facts states): one aligned vector or cp.async of them.
bool isAlignedRun(const Buffer &B, const std::vector<Expr> &Indices, const VarNode *Lane,
                  int64_t V, const DivisorFacts &Facts);

/// The bytes each buffer's element 0 must be aligned to for the vector
/// accesses of the vectorized loops in Body (lanes times element size), by
/// buffer name; buffers without one are absent. The launcher checks the
/// kernel's pointer arguments against it (runtime/Launch.cpp) and runs the
/// original loop for one that is not.
std::map<std::string, int64_t> vectorAlignments(const Stmt &Body);

} // namespace ir
} // namespace sched

#endif
