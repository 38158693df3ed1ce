//===- IR.h - The scheduling IR: expressions, statements, buffers -*- C++ -*-===//
//
// The one representation every part of sched works on: the extractor builds it
// from the Clang AST, schedule primitives rewrite it, lowering passes turn it
// into a kernel, codegen prints CUDA from it and the simulator runs it.
//
// Nodes are immutable and shared (std::shared_ptr<const Node>); a change makes
// new nodes through IRMutator (IRMutator.h). Variables and buffers have
// identity: two Var handles are the same variable iff they point to the same
// VarNode (names are for printing and for schedule directives only).
//
// Textual form (Printer.h prints it, Parser.h reads it back, lit tests check it):
//   func NAME(A: float32*[M, K] global noalias, M: int32, ...) target=gpu {
//     for (i, 0, M) {                     // serial loop: var, min, extent
//       for (tx, 0, 8) bind(threadIdx.x) { ... }
//       for (k, 0, K) reduce { ... }      // loop marked as a reduction loop
//       allocate acc: float32[1] local { ... }
//       if ((i < M)) { ... } else { ... }
//       let t = (i*8) { ... }
//       C[i, j] = (acc[0] + (A[i, k]*B[k, j]))
//       eval sched.syncthreads()
//     }
//   }
// Every binary expression prints fully parenthesized: (a + b), (a*b), (a < b),
// min(a, b), max(a, b), (a & b), (a << b), ~(a); casts print as float32(x);
// select(c, t, f); calls as name(args); int32 literals as 42, other ints as
// 42:int64 (42:uint32, ...; a uint64 as its unsigned value); floats as 1.5f
// (float32), 1.5:float16, 1.5:float64. Loop kinds print after the extent:
// bind(blockIdx.x|threadIdx.y|vthread|cthread), unroll, vectorize, and the
// flag `reduce` for loops the extractor found carrying a reduction. Run-time
// assumptions print after the target: `target=gpu assume((N <= ld)) {`. A nest
// whose Target is empty (the default target) prints no `target=` clause, and a
// text without one reads back so.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_IR_H
#define SCHED_IR_IR_H

#include "ir/Types.h"

#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

namespace sched {
namespace ir {

// Types (DType, BinOp, UnOp and their rules) are in ir/Types.h.

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// The expression kinds (NodeKinds.def: the one list of them).
enum class ExprKind : uint8_t {
#define SCHED_EXPR_NODE(K) K,
#include "ir/NodeKinds.def"
};


struct ExprNode;
using Expr = std::shared_ptr<const ExprNode>;
struct VarNode;
using Var = std::shared_ptr<const VarNode>;
struct BufferNode;
using Buffer = std::shared_ptr<const BufferNode>;

struct ExprNode {
  ExprKind Kind;
  DType Type;
  ExprNode(ExprKind K, DType T) : Kind(K), Type(T) {}
  virtual ~ExprNode() = default;
};

struct IntImmNode : ExprNode {
  static constexpr ExprKind NodeKind = ExprKind::IntImm;
  int64_t Value;
  IntImmNode(int64_t V, DType T) : ExprNode(ExprKind::IntImm, T), Value(V) {}
};

struct FloatImmNode : ExprNode {
  static constexpr ExprKind NodeKind = ExprKind::FloatImm;
  double Value;
  FloatImmNode(double V, DType T) : ExprNode(ExprKind::FloatImm, T), Value(V) {}
};

struct VarNode : ExprNode {
  static constexpr ExprKind NodeKind = ExprKind::Var;
  std::string Name;
  VarNode(std::string N, DType T) : ExprNode(ExprKind::Var, T), Name(std::move(N)) {}
};

struct BinaryNode : ExprNode {
  static constexpr ExprKind NodeKind = ExprKind::Binary;
  BinOp Op;
  Expr A, B;
  BinaryNode(BinOp O, Expr X, Expr Y, DType T)
      : ExprNode(ExprKind::Binary, T), Op(O), A(std::move(X)), B(std::move(Y)) {}
};

struct UnaryNode : ExprNode {
  static constexpr ExprKind NodeKind = ExprKind::Unary;
  UnOp Op;
  Expr A;
  UnaryNode(UnOp O, Expr X, DType T) : ExprNode(ExprKind::Unary, T), Op(O), A(std::move(X)) {}
};

struct SelectNode : ExprNode {
  static constexpr ExprKind NodeKind = ExprKind::Select;
  Expr Cond, TrueValue, FalseValue;
  SelectNode(Expr C, Expr T, Expr F)
      : ExprNode(ExprKind::Select, T->Type), Cond(std::move(C)), TrueValue(std::move(T)),
        FalseValue(std::move(F)) {}
};

struct CastNode : ExprNode {
  static constexpr ExprKind NodeKind = ExprKind::Cast;
  Expr Value;
  CastNode(DType T, Expr V) : ExprNode(ExprKind::Cast, T), Value(std::move(V)) {}
};

struct LoadNode : ExprNode {
  static constexpr ExprKind NodeKind = ExprKind::Load;
  Buffer Buf;
  std::vector<Expr> Indices; // one per dimension of Buf (one after flattening)
  LoadNode(Buffer B, std::vector<Expr> I, DType T)
      : ExprNode(ExprKind::Load, T), Buf(std::move(B)), Indices(std::move(I)) {}
};

/// A call to an intrinsic (pure math like "sqrtf", or an opaque operation such
/// as "sched.syncthreads"). Which buffers an intrinsic reads and writes is never
/// guessed from the call's shape: see Intrinsics.h (DESIGN 5.1).
struct CallNode : ExprNode {
  static constexpr ExprKind NodeKind = ExprKind::Call;
  std::string Name;
  std::vector<Expr> Args;
  CallNode(std::string N, std::vector<Expr> A, DType T)
      : ExprNode(ExprKind::Call, T), Name(std::move(N)), Args(std::move(A)) {}
};

//===----------------------------------------------------------------------===//
// Buffers
//===----------------------------------------------------------------------===//

/// Memory scopes. VTA and wmma scopes are reserved for later backends.
enum class Scope : uint8_t {
  Global, Shared, Local,
  WmmaMatrixA, WmmaMatrixB, WmmaAccumulator,
  VtaInp, VtaWgt, VtaAcc
};
const char *scopeName(Scope S); // "global", "shared", "local", "wmma.matrix_a", ...
bool parseScope(const std::string &S, Scope &Out);

/// An XOR swizzle of a shared buffer's storage: element f of the row-major
/// order lives at f ^ (((f >> Shift) & (2^Bits - 1)) << Base) - the 16-byte
/// chunk bits (Base: log2 of the elements in 16 bytes) XORed with row bits,
/// so that the rows ldmatrix reads at one column fall in different banks
/// (CUTLASS's Swizzle<Bits, Base, Shift - Base>). A bijection that keeps
/// every aligned 16-byte chunk whole: values never change, only addresses.
/// Every access applies it where the address is made (the CUDA emitter,
/// the simulator); passes see row-major indices. Bits 0: none.
struct Swizzle {
  int Base = 0, Bits = 0, Shift = 0;
  bool any() const { return Bits > 0; }
  int64_t apply(int64_t F) const {
    return any() ? F ^ (((F >> Shift) & ((int64_t(1) << Bits) - 1)) << Base) : F;
  }
};

struct BufferNode {
  std::string Name;
  DType Type;
  std::vector<Expr> Shape;  // row-major extents; outermost first
  Scope MemScope = Scope::Global;
  bool NoAlias = false;     // the extractor proved no other parameter aliases it
  ir::Swizzle Swizzle;      // shared buffers: the storage's swizzle (none by default)
  BufferNode(std::string N, DType T, std::vector<Expr> S, Scope Sc = Scope::Global)
      : Name(std::move(N)), Type(T), Shape(std::move(S)), MemScope(Sc) {}
};

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

/// The statement kinds (NodeKinds.def: the one list of them).
enum class StmtKind : uint8_t {
#define SCHED_STMT_NODE(K) K,
#include "ir/NodeKinds.def"
};

/// "Binary", "For": a kind's name, for messages about a node a walk did
/// not expect.
const char *kindName(ExprKind K);
const char *kindName(StmtKind K);

enum class ForKind : uint8_t {
  Serial, Unrolled, Vectorized, ThreadBound // ThreadBound: see ForNode::ThreadTag
};

struct StmtNode;
using Stmt = std::shared_ptr<const StmtNode>;

struct StmtNode {
  StmtKind Kind;
  explicit StmtNode(StmtKind K) : Kind(K) {}
  virtual ~StmtNode() = default;
};

/// Thread tags (ForNode::ThreadTag). Block and thread tags are CUDA launch
/// dimensions; virtual threads (vthread, and VTA's cthread) are not.
bool isBlockTag(const std::string &Tag);       // blockIdx.{x,y,z}
bool isThreadIdxTag(const std::string &Tag);   // threadIdx.{x,y,z}
bool isVirtualThreadTag(const std::string &Tag); // vthread, cthread
/// 0, 1, 2 for the .x, .y, .z of a block or thread tag; -1 for any other tag.
int threadTagDim(const std::string &Tag);

struct ForNode : StmtNode {
  static constexpr StmtKind NodeKind = StmtKind::For;
  Var LoopVar;
  Expr Min, Extent;
  ForKind LoopKind = ForKind::Serial;
  std::string ThreadTag;    // "blockIdx.x", "threadIdx.y", "vthread", "cthread"
  bool IsReduction = false; // carries a reduction (extractor/schedule set it)
  Stmt Body;
  ForNode(Var V, Expr Mn, Expr Ext, ForKind K, std::string Tag, bool Red, Stmt B)
      : StmtNode(StmtKind::For), LoopVar(std::move(V)), Min(std::move(Mn)),
        Extent(std::move(Ext)), LoopKind(K), ThreadTag(std::move(Tag)),
        IsReduction(Red), Body(std::move(B)) {}
};

struct StoreNode : StmtNode {
  static constexpr StmtKind NodeKind = StmtKind::Store;
  Buffer Buf;
  std::vector<Expr> Indices;
  Expr Value;
  /// The line of the user's statement it came from (in the nest's source
  /// file), 0 for a store sched made (a stage's fill). Kept by every
  /// rewrite of the store (makeStoreLike); the CUDA emitter writes it as a
  /// `#line` directive, so profilers and compute-sanitizer name the C++ line.
  int Line = 0;
  StoreNode(Buffer B, std::vector<Expr> I, Expr V)
      : StmtNode(StmtKind::Store), Buf(std::move(B)), Indices(std::move(I)), Value(std::move(V)) {}
};

/// Declares Buf (its scope says where it lives) for the duration of Body.
struct AllocateNode : StmtNode {
  static constexpr StmtKind NodeKind = StmtKind::Allocate;
  Buffer Buf;
  Stmt Body;
  AllocateNode(Buffer B, Stmt S) : StmtNode(StmtKind::Allocate), Buf(std::move(B)), Body(std::move(S)) {}
};

struct SeqNode : StmtNode {
  static constexpr StmtKind NodeKind = StmtKind::Seq;
  std::vector<Stmt> Stmts;
  explicit SeqNode(std::vector<Stmt> S) : StmtNode(StmtKind::Seq), Stmts(std::move(S)) {}
};

struct IfThenElseNode : StmtNode {
  static constexpr StmtKind NodeKind = StmtKind::IfThenElse;
  Expr Cond;
  Stmt Then, Else; // Else may be null
  IfThenElseNode(Expr C, Stmt T, Stmt E)
      : StmtNode(StmtKind::IfThenElse), Cond(std::move(C)), Then(std::move(T)), Else(std::move(E)) {}
};

struct LetStmtNode : StmtNode {
  static constexpr StmtKind NodeKind = StmtKind::LetStmt;
  Var LetVar;
  Expr Value;
  Stmt Body;
  LetStmtNode(Var V, Expr E, Stmt B)
      : StmtNode(StmtKind::LetStmt), LetVar(std::move(V)), Value(std::move(E)), Body(std::move(B)) {}
};

struct EvaluateNode : StmtNode {
  static constexpr StmtKind NodeKind = StmtKind::Evaluate;
  Expr Value; // usually an intrinsic Call
  explicit EvaluateNode(Expr E) : StmtNode(StmtKind::Evaluate), Value(std::move(E)) {}
};

//===----------------------------------------------------------------------===//
// A loop nest: the unit the plugin extracts, schedules, lowers and launches.
//===----------------------------------------------------------------------===//

struct Param {
  enum class Kind : uint8_t { Buffer, Scalar };
  Kind ParamKind;
  ir::Buffer Buf;  // Kind == Buffer: a global buffer (pointer or array in C++)
  ir::Var Scalar;  // Kind == Scalar: a by-value scalar (int, float, ...)
  /// A buffer the program does not pass: the launcher allocates it, zeroed,
  /// for each launch (its size is the region the kernel touches). Lowering
  /// adds one where the kernel needs memory of its own across blocks (the
  /// partial results of a fixed-order reduction across blocks and their
  /// tickets, passes/gpu/LowerThreadReductions.cpp). Prints `scratch`.
  bool Scratch = false;
  const std::string &name() const { return ParamKind == Kind::Buffer ? Buf->Name : Scalar->Name; }
};

/// A cache stage whose region is still symbolic. The schedule writes the
/// stage's shape, its copy loops and its consumers' index offsets in terms of
/// the placeholders Mins[d] (the region's first index, `As.min0`) and
/// Extents[d] (its size, `As.ext0`), one per dimension of Cached; bound
/// inference (passes/shared/BoundInference.cpp) replaces them by the region it infers
/// where the stage's allocation then stands, and clears the list.
struct StageRegion {
  std::string Name;   // the stage buffer (allocated in the nest under this name)
  Buffer Cached;      // the tensor it copies
  bool IsWrite = false; // cache_write: the nest writes the stage, a write-back copies it out
  std::vector<Var> Mins, Extents;
  /// The directive that placed the stage (its compute_at, else its
  /// cache_read/cache_write), a Directive location id: lowering errors about
  /// the stage are reported there. -1 when unknown.
  int Loc = -1;
};

/// `tensorize(x, intrinsic)`: the region under loop Loop is to become calls
/// of Intrinsic (wmma.load, wmma.mma, wmma.store). The schedule records it;
/// the lowering pass that knows the intrinsic (passes/gpu/TensorizeWmma.cpp)
/// matches the region once bound inference has made it concrete. Prints
/// after the loop's kind: `for (i, 0, 16) tensorize(wmma.mma) {`.
struct TensorizeMark {
  Var Loop;
  std::string Intrinsic;
  int Loc = -1; // the directive's location id (lowering errors are reported there)
};

/// `pragma(x, dma_copy|alu)` (target(vta)): the work under loop Loop is to
/// become VTA DMA transfers (dma_copy: a stage's copy-in or write-back) or
/// ALU instructions (alu: elementwise int32 work in vta.acc). The schedule
/// records it; the VTA passes (InjectVtaDma, InjectVtaAlu) lower it. Prints
/// after the loop's kind and any tensorize mark: `for (i, 0, 16) pragma(alu) {`.
struct LoopPragma {
  Var Loop;
  std::string Kind; // "dma_copy" or "alu"; or VectorizePragma
  int Loc = -1;     // the directive's location id
};

/// The LoopPragma kind `vectorize(x)` records: only where its directive's
/// argument is, for the GPU pass that warns when it cannot vectorize
/// (passes/gpu/VectorizeLoops.cpp). The loop's kind says the rest, so the
/// printer leaves it out (IR text has no locations).
extern const char *const VectorizePragma;

/// The LoopPragma `pipeline(x, stages=S)` records: kind "pipelineS" (it
/// prints and parses as `pragma(pipeline3)`); PipelineStages consumes it.
std::string pipelinePragma(int64_t Stages);
/// The stages of a pipeline pragma, 0 for any other kind.
int64_t pipelineStages(const LoopPragma &P);

struct LoopNest {
  std::string Name;            // unique, deterministic: sched_<file stem>_<line>
  std::string SourceFile;      // for diagnostics and runtime error messages
  unsigned SourceLine = 0;
  /// A registered target's name (targets/Target.h); empty: the default
  /// target (defaultTarget(), which findTarget resolves it to). ir/ names no
  /// target: the front ends and the IR text name one.
  std::string Target;
  /// The `target` directive's location id (-1: none, the default target):
  /// where a warning about the nest's target points.
  int TargetLoc = -1;
  std::vector<Param> Params;   // kernel parameters, in a deterministic order
  /// Conditions over scalar parameters the kernel is correct under only
  /// (a delinearized `C[i*ld + j]` needs `N <= ld`); the launcher checks
  /// them before each launch and runs the original loop when one is false.
  std::vector<Expr> Assumptions;
  Stmt Body;
  std::vector<StageRegion> Stages; // cache stages awaiting bound inference
  /// Each stage's directive (StageRegion::Loc) by the stage's name, kept
  /// after bound inference resolves Stages: where later passes report what
  /// they find of a stage (VTA's SRAM allocation, an overflow).
  std::map<std::string, int> StageLocs;
  /// The contexts (cthread) whose instruction streams passes/vta/
  /// InjectVtaContexts interleaved: 1 or 2 (target(vta)).
  int VtaContexts = 1;
  std::vector<TensorizeMark> Tensorize; // regions awaiting their intrinsics
  std::vector<LoopPragma> Pragmas;      // pragma(x, ...) marks (target(vta))
  /// `tensorcore(auto)`: the location id of the directive (-1 when absent).
  /// passes/gpu/AutoTensorCore.cpp turns the nest into tensor-core code where it
  /// qualifies, and says why not where it does not. Prints after the
  /// target: `target=gpu tensorcore(auto)`.
  int TensorCoreAuto = -1;
  /// The arrays atomic(C) lets blocks update atomically in an order the
  /// hardware picks (a floating-point sum's rounding then varies from run
  /// to run); a reduction across blocks into any other array whose atomic
  /// update is not exact in every order is combined in a fixed order
  /// (passes/gpu/LowerThreadReductions.cpp). Prints `atomic(C)` after the
  /// target.
  std::set<std::string> AtomicUpdates;
};

//===----------------------------------------------------------------------===//
// Constructors: every node is built through these (they compute result types).
//===----------------------------------------------------------------------===//

Expr makeInt(int64_t V, DType T = DType::Int32);
Expr makeFloat(double V, DType T = DType::Float32);
Expr makeBool(bool V);
Var makeVar(const std::string &Name, DType T = DType::Int32);
/// Comparisons and And/Or give Bool; a shift has the type of A (its count B
/// is converted to it, which keeps every defined count); other operators
/// convert both operands to their common type.
Expr makeBinary(BinOp Op, Expr A, Expr B);
Expr makeUnary(UnOp Op, Expr A);
Expr makeSelect(Expr C, Expr T, Expr F);
Expr makeCast(DType T, Expr V);
Expr makeLoad(Buffer B, std::vector<Expr> Indices);
Expr makeCall(const std::string &Name, std::vector<Expr> Args, DType T);
Buffer makeBuffer(const std::string &Name, DType T, std::vector<Expr> Shape,
                  Scope S = Scope::Global);

Stmt makeFor(Var V, Expr Min, Expr Extent, Stmt Body, ForKind K = ForKind::Serial,
             const std::string &Tag = "", bool IsReduction = false);
Stmt makeStore(Buffer B, std::vector<Expr> Indices, Expr Value);
/// A store rewritten from From: the same source line.
Stmt makeStoreLike(const StoreNode *From, Buffer B, std::vector<Expr> Indices, Expr Value);
/// S, when it is a store, with its source line set to Line.
Stmt withLine(const Stmt &S, int Line);
Stmt makeAllocate(Buffer B, Stmt Body);
Stmt makeSeq(std::vector<Stmt> Stmts); // flattens nested Seqs; one element -> itself
Stmt makeIf(Expr Cond, Stmt Then, Stmt Else = nullptr);
Stmt makeLet(Var V, Expr Value, Stmt Body);
Stmt makeEvaluate(Expr E);

// Convenience operators for building index arithmetic in passes and tests.
Expr operator+(Expr A, Expr B);
Expr operator-(Expr A, Expr B);
Expr operator*(Expr A, Expr B);
Expr operator/(Expr A, Expr B);
Expr operator%(Expr A, Expr B);
Expr operator<(Expr A, Expr B);
// Without these, `v < e` on a Var would pick std::shared_ptr's pointer
// comparison (an exact template match) and silently yield a bool.
Expr operator<(const Var &A, const Expr &B);
Expr operator<(const Expr &A, const Var &B);
Expr operator<(const Var &A, const Var &B);

// Downcasts: return nullptr when the node is of another kind.
// (The project builds without RTTI, like LLVM: dispatch is on Kind.)
template <typename T> const T *as(const Expr &E) {
  return E && E->Kind == T::NodeKind ? static_cast<const T *>(E.get()) : nullptr;
}
template <typename T> const T *as(const Stmt &S) {
  return S && S->Kind == T::NodeKind ? static_cast<const T *>(S.get()) : nullptr;
}

/// The integer value of E if it is an integer literal.
bool getConstInt(const Expr &E, int64_t &Out);

/// The number of elements of B when every extent of its shape is an integer
/// literal (1 for no dimensions), else -1.
int64_t constantElements(const BufferNode &B);

} // namespace ir
} // namespace sched

#endif // SCHED_IR_IR_H
