//===- Extractor.cpp - Clang AST loop nest -> scheduling IR ---------------===//
//
// Translates the `for` nest under a `#pragma sched` into an ir::LoopNest:
// canonical loops become For nodes named by their induction variables, array
// and pointer accesses become Loads and Stores of buffers, local scalars
// become one-element local allocations, and every variable the nest reads but
// does not declare becomes a kernel parameter with a binding that tells the
// launcher where its value lives.
//
// The translation is exact or it fails: whatever the IR cannot represent with
// the same meaning is reported as one warning at the construct and the caller
// leaves the loop as written. Pointer (and one-dimensional array) accesses are
// first translated with their flat index and a placeholder buffer; once the
// whole nest is known, ExtractLayout.h chooses each buffer's shape and the
// flat indices are rewritten (delinearized) through an IRMutator. A shape
// that holds only for some parameter values (`C[i*ldc + j]` as C[i, j] needs
// N <= ldc) adds that condition to the nest's run-time assumptions.
//
// Aliasing policy. Arrays are distinct objects, and `__restrict` pointers are
// promised not to alias: both get Buffer::NoAlias. Plain pointer parameters
// might alias, but rejecting them would reject every ordinary matmul written
// with `float *` parameters; they are accepted without NoAlias, and before
// each launch the launcher compares the regions the kernel touches: where two
// really overlap and the kernel writes one, the original loop runs
// (runtime/Launch.cpp, mayLaunch). Aliasing that the nest
// itself makes evident - two buffers of the nest derived from the same
// pointer (`float *B = A + 4;`) - is rejected with a warning.
//
// Loop counters declared outside their loop (C89: `int i, j; for (i = 0;
// ...)`). In C the counter holds a value after its loop: the first value
// plus the trip count (the init runs even when the loop does not). Inside
// the nest, a read after the loop is that value (CounterState); a read that
// could see the value before the loop, or a value that depends on whether a
// loop or a branch of the nest ran, is refused. After the nest, each counter
// declared outside it gets what the original loop leaves (a Final: the
// launcher stores it); where that depends on a branch of the nest and the
// program reads the counter after the nest, the nest stays as written.
//
// Other documented choices: two loops with the same induction variable name
// in one nest are named `j`, `j_1`, ... in source order; `const` integer
// locals with a loop-variable initializer are substituted (so `const int row
// = i * K; A[row + k]` stays affine), and so are integer locals the rest of
// their scope never changes; a pointer may be indexed below zero (the
// launcher's copy region then starts below it, passes/ComputeBufferRegions);
// members of structs (`p.x`, `p->n`) are free variables like any other, the
// launcher passes the member's address.
//
//===----------------------------------------------------------------------===//

#include "Extractor.h"
#include "Diagnostics.h"
#include "ExtractLayout.h"

#include "ir/Affine.h"
#include "ir/IRMutator.h"
#include "ir/IRVisitor.h"
#include "ir/MathFunctions.h"
#include "ir/Reduction.h"
#include "ir/Simplify.h"
#include "targets/Target.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <functional>
#include <map>
#include <set>

using namespace clang;

namespace sched {
namespace {

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

/// The IR type of a C++ scalar type (every integer type, signed or not, of
/// 8 to 64 bits; bool; half, float, double).
bool dtypeOf(QualType T, const ASTContext &Ctx, ir::DType &Out) {
  T = T.getNonReferenceType().getCanonicalType();
  const auto *BT = T->getAs<BuiltinType>();
  if (!BT)
    return false;
  switch (BT->getKind()) {
  case BuiltinType::Bool: Out = ir::DType::Bool; return true;
  case BuiltinType::Half:
  case BuiltinType::Float16: Out = ir::DType::Float16; return true;
  case BuiltinType::Float: Out = ir::DType::Float32; return true;
  case BuiltinType::Double: Out = ir::DType::Float64; return true;
  default:
    break;
  }
  if (!BT->isInteger())
    return false;
  bool Unsigned = BT->isUnsignedInteger();
  switch (Ctx.getTypeSize(T)) {
  case 8: Out = Unsigned ? ir::DType::UInt8 : ir::DType::Int8; return true;
  case 16: Out = Unsigned ? ir::DType::UInt16 : ir::DType::Int16; return true;
  case 32: Out = Unsigned ? ir::DType::UInt32 : ir::DType::Int32; return true;
  case 64: Out = Unsigned ? ir::DType::UInt64 : ir::DType::Int64; return true;
  default: return false; // __int128
  }
}

/// The value of a constant as the IR holds it (a uint64 keeps its bits).
int64_t intValue(const llvm::APSInt &V) {
  return V.isUnsigned() ? static_cast<int64_t>(V.getZExtValue()) : V.getSExtValue();
}

/// Strips parentheses and the casts that do not change a value's meaning.
const Expr *stripTransparent(const Expr *E) {
  while (E) {
    E = E->IgnoreParens();
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
      CastKind K = Cast->getCastKind();
      if (K == CK_LValueToRValue || K == CK_NoOp || K == CK_ArrayToPointerDecay) {
        E = Cast->getSubExpr();
        continue;
      }
    }
    if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(E)) {
      E = Temp->getSubExpr();
      continue;
    }
    if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E)) {
      E = Cleanups->getSubExpr();
      continue;
    }
    return E;
  }
  return E;
}

/// The variable named by E (after transparent casts), or null.
const VarDecl *varOf(const Expr *E) {
  if (const auto *Ref = dyn_cast_or_null<DeclRefExpr>(stripTransparent(E)))
    return dyn_cast<VarDecl>(Ref->getDecl());
  return nullptr;
}

/// A member of `*this` (implicit or explicit this), or null.
const FieldDecl *thisFieldOf(const Expr *E) {
  const auto *Member = dyn_cast_or_null<MemberExpr>(stripTransparent(E));
  if (!Member)
    return nullptr;
  if (!isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
    return nullptr;
  return dyn_cast<FieldDecl>(Member->getMemberDecl());
}

/// The IR operator of a binary arithmetic operator (+ - * /), or false.
bool arithmeticOp(BinaryOperatorKind Op, ir::BinOp &Out) {
  switch (Op) {
  case BO_Add: Out = ir::BinOp::Add; return true;
  case BO_Sub: Out = ir::BinOp::Sub; return true;
  case BO_Mul: Out = ir::BinOp::Mul; return true;
  case BO_Div: Out = ir::BinOp::Div; return true;
  default: return false;
  }
}

/// `_Float16` arithmetic (+ - * / and unary -) that Clang computes in float
/// because the target asks for excess precision (x86 without AVX512-FP16:
/// `-ffloat16-excess-precision=standard`, the default). Clang's CodeGen keeps
/// the value of such an expression in float and rounds it to half once, where
/// it leaves the arithmetic: an assignment, a conversion (to float too), a
/// comparison, a call argument, an arm of `?:`.
bool isExcessArith(const Expr *E, const ASTContext &Ctx) {
  E = E->IgnoreParens();
  QualType T = E->getType();
  if (!T->isFloat16Type() || !T.UseExcessPrecision(Ctx))
    return false;
  ir::BinOp Op;
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return arithmeticOp(B->getOpcode(), Op);
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return U->getOpcode() == UO_Minus || U->getOpcode() == UO_Plus;
  return false;
}

/// Whether S may change VD after its declaration: an assignment, compound
/// assignment or increment of it, its address taken, or a reference bound to
/// it. (A local the nest never changes is a name for its initializer.)
bool mayModify(const Stmt *S, const VarDecl *VD) {
  if (!S)
    return false;
  // An earlier nest of the function, already replaced by its launcher call
  // (`if (!__sched_launch(…, &n, …)) <the loop>`): the call takes its
  // arguments' addresses, but writes only the loop counters, which the loop
  // beside it assigns too.
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *Callee = Call->getDirectCallee())
      if (Callee->getIdentifier() && Callee->getName() == "__sched_launch")
        return false;
  if (const auto *B = dyn_cast<BinaryOperator>(S))
    if (B->isAssignmentOp() && varOf(B->getLHS()) == VD)
      return true;
  if (const auto *U = dyn_cast<UnaryOperator>(S))
    if ((U->isIncrementDecrementOp() || U->getOpcode() == UO_AddrOf) &&
        varOf(U->getSubExpr()) == VD)
      return true;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *Other = dyn_cast<VarDecl>(D))
        if (Other->getType()->isReferenceType() && varOf(Other->getInit()) == VD)
          return true;
  for (const Stmt *Child : S->children())
    if (mayModify(Child, VD))
      return true;
  return false;
}

using MemberSteps = std::vector<ParamBinding::MemberStep>;

/// A chain of member accesses on a variable or on `*this` (`p.x`, `p->n`,
/// `s.in.v`, `this->s.n`): its root and its steps, outermost first. False for
/// anything else, for a plain `this->field` (thisFieldOf's), and through a
/// bit-field (it has no address to pass).
bool memberChain(const Expr *E, const ValueDecl *&Root, bool &RootCapture, MemberSteps &Steps) {
  Steps.clear();
  const auto *Member = dyn_cast_or_null<MemberExpr>(stripTransparent(E));
  if (!Member)
    return false;
  while (true) {
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    if (!Field || Field->isBitField())
      return false;
    Steps.push_back({Field, Member->isArrow(), Member->getType()});
    const Expr *Base = Member->getBase()->IgnoreParenImpCasts();
    if (isa<CXXThisExpr>(Base)) {
      Root = Field; // `this->s`: the launcher builds it as for a member of *this
      RootCapture = false;
      Steps.pop_back();
      break;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Base)) {
      Root = Ref->getDecl();
      RootCapture = Ref->refersToEnclosingVariableOrCapture();
      if (!isa<VarDecl>(Root))
        return false;
      break;
    }
    if (!(Member = dyn_cast<MemberExpr>(Base)))
      return false;
  }
  std::reverse(Steps.begin(), Steps.end());
  return !Steps.empty();
}

/// Identifies a free variable: the declaration, then each member step.
std::string freeKey(const ValueDecl *Root, const MemberSteps &Steps) {
  std::string Key = std::to_string(reinterpret_cast<uintptr_t>(Root));
  for (const ParamBinding::MemberStep &S : Steps)
    Key += (S.IsArrow ? "->" : ".") + std::to_string(reinterpret_cast<uintptr_t>(S.Field));
  return Key;
}

/// A free variable's path: as the source spells it (`p->x`, for messages)
/// or as a kernel parameter name (`p_x`).
std::string memberPath(const ValueDecl *Root, const MemberSteps &Steps, bool AsSpelled) {
  std::string Text = Root->getNameAsString();
  for (const ParamBinding::MemberStep &S : Steps)
    Text += (!AsSpelled ? "_" : S.IsArrow ? "->" : ".") + S.Field->getNameAsString();
  return Text;
}
std::string freeName(const ValueDecl *Root, const MemberSteps &Steps) {
  return memberPath(Root, Steps, false);
}
std::string freeSpelling(const ValueDecl *Root, const MemberSteps &Steps) {
  return memberPath(Root, Steps, true);
}

//===----------------------------------------------------------------------===//
// Small IR queries
//===----------------------------------------------------------------------===//

/// Finds loop variables and loads in an expression.
class ExprScan : public ir::IRVisitor {
public:
  explicit ExprScan(const std::set<const ir::VarNode *> *LoopVars = nullptr)
      : LoopVars(LoopVars) {}
  const ir::VarNode *FirstLoopVar = nullptr;
  bool HasLoad = false;
  bool HasUnsigned = false; // a value or operation of an unsigned type

protected:
  void visitVar(const ir::VarNode *V) override {
    HasUnsigned |= ir::isUnsigned(V->Type);
    if (!FirstLoopVar && LoopVars && LoopVars->count(V))
      FirstLoopVar = V;
  }
  void visitIntImm(const ir::IntImmNode *N) override { HasUnsigned |= ir::isUnsigned(N->Type); }
  void visitBinary(const ir::BinaryNode *N) override {
    HasUnsigned |= ir::isUnsigned(N->Type);
    ir::IRVisitor::visitBinary(N);
  }
  void visitUnary(const ir::UnaryNode *N) override {
    HasUnsigned |= ir::isUnsigned(N->Type);
    ir::IRVisitor::visitUnary(N);
  }
  void visitCast(const ir::CastNode *N) override {
    HasUnsigned |= ir::isUnsigned(N->Type);
    ir::IRVisitor::visitCast(N);
  }
  void visitLoad(const ir::LoadNode *N) override {
    HasLoad = true;
    ir::IRVisitor::visitLoad(N);
  }

private:
  const std::set<const ir::VarNode *> *LoopVars;
};

bool mentionsVar(const ir::Expr &E, const ir::VarNode *V) {
  std::set<const ir::VarNode *> One{V};
  ExprScan Scan(&One);
  Scan.visit(E);
  return Scan.FirstLoopVar != nullptr;
}

/// The first load in an expression of one of the given local buffers.
class LocalReads : public ir::IRVisitor {
public:
  explicit LocalReads(const std::map<const ir::BufferNode *, std::string> &Locals)
      : Locals(Locals) {}
  const ir::LoadNode *First = nullptr;

protected:
  void visitLoad(const ir::LoadNode *N) override {
    if (!First && Locals.count(N->Buf.get()))
      First = N;
    ir::IRVisitor::visitLoad(N);
  }

private:
  const std::map<const ir::BufferNode *, std::string> &Locals;
};

//===----------------------------------------------------------------------===//
// Free variables of the nest
//===----------------------------------------------------------------------===//

/// A buffer the nest uses but does not declare.
struct FreeBuffer {
  const ValueDecl *Decl = nullptr;
  MemberSteps Members; // a struct member: the steps from Decl
  LaunchDescriptor::ArgKind Kind = LaunchDescriptor::ArgKind::Pointer;
  bool RefersToCapture = false;
  SourceLocation FirstUse;
  size_t Order = 0; // translation order, breaks ties of FirstUse
  std::string Name;
  ir::DType Type = ir::DType::Float32;
  /// Declared extents of the dimensions after the first (pointer to array)
  /// or of all dimensions (array); empty for a flat pointer.
  std::vector<ir::Expr> DeclaredShape;
  bool FirstDimKnown = false; // arrays: the whole shape is declared
  bool NoAlias = false;
  ir::Buffer Placeholder;     // used while translating; replaced at the end
  std::vector<ir::Expr> FlatIndices;  // isFlat(): every index seen
  std::vector<ir::Expr> FirstIndices; // pointers to arrays: first indices

  /// Indexed by one flat index: a plain pointer or a one-dimensional array
  /// (both may get a delinearized layout).
  bool isFlat() const {
    return DeclaredShape.empty() || (FirstDimKnown && DeclaredShape.size() == 1);
  }
};

/// A scalar the nest reads but does not declare.
struct FreeScalar {
  const ValueDecl *Decl = nullptr;
  MemberSteps Members;
  bool RefersToCapture = false;
  SourceLocation FirstUse;
  size_t Order = 0;
  ir::Var Value;
};

/// An index with unsigned values, rewritten in int64 arithmetic: an address
/// is computed modulo 2^64, so 64-bit arithmetic, signed or not, and signed
/// arithmetic (which may not overflow) give the same element in int64, and
/// the analyses after extraction (bounds, layouts, dependences) then see
/// integers: `x[i - 1]` with `size_t i` becomes x[(i - 1)] of an int64
/// counter. What would change value stays as it is, converted to int64: a
/// narrowing conversion and arithmetic in an unsigned type narrower than 64
/// bits (it wraps modulo 2^32 and is not affine), division, min/max and
/// bitwise operators on unsigned values.
class IndexWidener : public ir::IRMutator {
public:
  /// Counters: int64 expressions that hold an unsigned loop counter's value
  /// exactly (a normalised unsigned loop's `first + v*step`, which never
  /// wraps), converted to its type as exactly as the counter itself.
  explicit IndexWidener(const std::set<const ir::ExprNode *> &Counters) : Counters(Counters) {}

protected:
  ir::Expr mutateIntImm(const ir::Expr &E, const ir::IntImmNode *N) override {
    return ir::isInt(N->Type) ? ir::makeInt(N->Value, ir::DType::Int64) : toInt64(E);
  }
  ir::Expr mutateVar(const ir::Expr &E, const ir::VarNode *) override { return toInt64(E); }
  ir::Expr mutateBinary(const ir::Expr &E, const ir::BinaryNode *N) override {
    bool Ring = N->Op == ir::BinOp::Add || N->Op == ir::BinOp::Sub || N->Op == ir::BinOp::Mul;
    if (!Ring || !widens(N->Type))
      return toInt64(E);
    return ir::makeBinary(N->Op, mutate(N->A), mutate(N->B));
  }
  ir::Expr mutateUnary(const ir::Expr &E, const ir::UnaryNode *N) override {
    if (N->Op != ir::UnOp::Neg || !widens(N->Type))
      return toInt64(E);
    return ir::makeUnary(N->Op, mutate(N->A));
  }
  ir::Expr mutateCast(const ir::Expr &E, const ir::CastNode *N) override {
    ir::DType From = N->Value->Type, To = N->Type;
    bool Counter = (ir::as<ir::VarNode>(N->Value) || Counters.count(N->Value.get())) &&
                   From == ir::DType::Int64 && ir::isUnsigned(To);
    bool Exact = ir::isInt(From) && ir::isInt(To) &&
                 (ir::dtypeBytes(To) == 8 || Counter ||
                  (ir::isUnsigned(From) ? ir::dtypeBytes(To) > ir::dtypeBytes(From)
                                        : !ir::isUnsigned(To) &&
                                              ir::dtypeBytes(To) >= ir::dtypeBytes(From)));
    return Exact ? mutate(N->Value) : toInt64(E);
  }
  ir::Expr mutateLoad(const ir::Expr &E, const ir::LoadNode *) override { return toInt64(E); }
  ir::Expr mutateCall(const ir::Expr &E, const ir::CallNode *) override { return toInt64(E); }
  ir::Expr mutateSelect(const ir::Expr &E, const ir::SelectNode *) override { return toInt64(E); }

private:
  const std::set<const ir::ExprNode *> &Counters;
  static bool widens(ir::DType T) {
    return ir::isInt(T) && (!ir::isUnsigned(T) || ir::dtypeBytes(T) == 8);
  }
  static ir::Expr toInt64(const ir::Expr &E) {
    return E->Type == ir::DType::Int64 ? E : ir::makeCast(ir::DType::Int64, E);
  }
};

/// Replaces placeholder buffers by final ones, delinearizing flat indices.
class BufferRewriter : public ir::IRMutator {
public:
  struct Target {
    ir::Buffer Final;
    const extract::FlatLayout *Layout = nullptr; // null: indices unchanged
  };
  std::map<const ir::BufferNode *, Target> Targets;

protected:
  ir::Expr mutateLoad(const ir::Expr &E, const ir::LoadNode *N) override {
    auto It = Targets.find(N->Buf.get());
    if (It == Targets.end())
      return ir::IRMutator::mutateLoad(E, N);
    return ir::makeLoad(It->second.Final, rewrite(It->second, N->Indices));
  }
  ir::Stmt mutateStore(const ir::Stmt &S, const ir::StoreNode *N) override {
    auto It = Targets.find(N->Buf.get());
    if (It == Targets.end())
      return ir::IRMutator::mutateStore(S, N);
    return ir::makeStoreLike(N, It->second.Final, rewrite(It->second, N->Indices), mutate(N->Value));
  }

private:
  std::vector<ir::Expr> rewrite(const Target &T, const std::vector<ir::Expr> &Indices) {
    if (T.Layout && Indices.size() == 1)
      return T.Layout->delinearize(Indices[0]);
    return Indices;
  }
};

//===----------------------------------------------------------------------===//
// The extractor
//===----------------------------------------------------------------------===//

class NestExtractor {
public:
  NestExtractor(ASTContext &Ctx, SchedDiagnostics &Diags, const Stmt *FunctionBody)
      : Ctx(Ctx), Diags(Diags), FunctionBody(FunctionBody) {}

  bool run(const ForStmt *Loop, const std::string &NestName, ExtractedNest &Out);

private:
  ASTContext &Ctx;
  SchedDiagnostics &Diags;
  const Stmt *FunctionBody;
  bool Failed = false;

  // Declarations of the nest.
  const ForStmt *Root = nullptr;
  std::map<const VarDecl *, ir::Var> LoopVars; // the loops being translated
  /// What a loop counter holds after its loop, where the translation is:
  /// Value when When holds (null: always), else what it held before the
  /// nest; !Known: it depends on a branch or on a loop that may not run
  /// after an earlier one assigned it.
  struct CounterState {
    bool Known = true;
    ir::Expr When, Value;
    bool operator==(const CounterState &O) const {
      return Known == O.Known && When == O.When && Value == O.Value;
    }
  };
  std::map<const VarDecl *, CounterState> Counters;
  std::vector<const VarDecl *> CounterOrder; // first loop of each, in source order
  std::map<const VarDecl *, bool> CounterCapture; // its uses are lambda captures
  void leaveBranch(const std::map<const VarDecl *, CounterState> &Before);
  void leaveLoop(const std::map<const VarDecl *, CounterState> &Before, const ir::Expr &Runs);
  bool finishCounters(ExtractedNest &Out);
  /// Loops whose variable is not an int64 counter of the declared type
  /// (an unsigned `i`, or an `int i` compared as unsigned): each use of the
  /// variable converts the counter to the declared type.
  std::map<const VarDecl *, ir::DType> LoopVarUseType;
  /// Loops with a step other than 1: the counter's value at iteration v of
  /// the normalised loop, `first + v*step`.
  std::map<const VarDecl *, ir::Expr> LoopVarValue;
  std::set<const ir::ExprNode *> CounterValues; // of unsigned ones (IndexWidener)
  std::set<const ir::VarNode *> LoopVarNodes;
  ir::VarRanges LoopRanges;
  std::map<const VarDecl *, ir::Buffer> Locals;
  std::map<const VarDecl *, ir::Expr> ConstLocals;
  /// Integer locals kept in memory, and why they are not a name for their
  /// initializer (for the message of an index that reads one).
  std::map<const ir::BufferNode *, std::string> NotSubstituted;
  std::set<std::string> UsedLoopNames, UsedLocalNames;

  // Free variables.
  std::vector<FreeBuffer> Buffers;
  std::map<std::string, size_t> BufferIndex; // by freeKey
  /// Scalars declared outside the nest that it updates (a reduction into
  /// `float s` of the function): one-element buffers, by declaration.
  std::map<const VarDecl *, ir::Buffer> ScalarOutputs;
  std::vector<FreeScalar> Scalars;
  std::map<std::string, size_t> ScalarIndex; // by freeKey

  // Diagnostics.
  bool fail(SourceLocation Loc, const std::string &What);
  std::string sourceText(const Stmt *S) const;

  // Statements.
  ir::Stmt translateStmt(const Stmt *S);
  ir::Stmt translateBlock(ArrayRef<const Stmt *> Stmts);
  ir::Stmt translateFor(const ForStmt *F);
  ir::Stmt translateIf(const IfStmt *If);
  ir::Stmt translateExprStmt(const Expr *E);
  ir::Stmt translateExprStmtAt(const Expr *E);
  int lineOf(SourceLocation Loc) const;
  ir::Stmt translateAssign(const Expr *LHS, const Expr *Value, const Expr *Whole);
  ir::Stmt translateCompoundAssign(const CompoundAssignOperator *CA);
  ir::Stmt translateIncDec(const UnaryOperator *U);
  ir::Stmt translateLocalDecls(ArrayRef<const VarDecl *> Vars, ArrayRef<const Stmt *> Rest);
  /// A function-scope scalar the nest assigns before it reads it, wherever
  /// it uses it (see privateScalar): the assignment is its declaration.
  const VarDecl *privateScalar(ArrayRef<const Stmt *> Stmts, size_t I, const Expr *&Value);
  std::map<const VarDecl *, const Expr *> PrivateInit;
  /// Private scalars the program reads after the nest: the run of their
  /// block at the last iteration of every enclosing loop stores the value
  /// into the variable itself (a one-element buffer at its address), when
  /// LastRun holds.
  std::map<const VarDecl *, ir::Expr> LastRun;
  /// The loops around the statement being translated, outermost first, with
  /// their last value; and how many `if`s of the nest enclose it.
  std::vector<std::pair<ir::Var, ir::Expr>> LoopStack;
  unsigned BranchDepth = 0;
  bool lastRunOfBlock(ir::Expr &Cond, std::string &Why) const;
  ir::Stmt storeLastValue(const VarDecl *VD, const ir::Buffer &Local, const ir::Expr &When);
  bool loopBounds(const ForStmt *F, const VarDecl *&IV, ir::Expr &Min, ir::Expr &Extent,
                  int64_t &Step);
  ir::Expr loopBound(const Expr *E, const VarDecl *IV);
  std::string uniqueName(const std::string &Base, std::set<std::string> &Used);

  // Expressions.
  ir::Expr translate(const Expr *E);
  ir::Expr translateCast(const CastExpr *C);
  ir::Expr translateDeclRef(const Expr *Ref, const ValueDecl *D, bool RefersToCapture);
  ir::Expr translateBinary(const BinaryOperator *B);
  ir::Expr translateUnary(const UnaryOperator *U);
  ir::Expr translateCall(const CallExpr *Call);
  ir::Expr translateMathCall(const CallExpr *Call, const std::string &Name);
  ir::Expr translateConstexprCall(const CallExpr *Call, const FunctionDecl *FD);
  ir::Expr translateExcess(const Expr *E);
  ir::Expr constantOf(const Expr *E);

  // constexpr functions being inlined, innermost last (recursion is refused).
  std::vector<const FunctionDecl *> Inlining;

  // Accesses: an lvalue the nest stores to or loads from.
  struct Place {
    ir::Buffer Buf;
    std::vector<ir::Expr> Indices;
  };
  bool translatePlace(const Expr *LValue, bool IsWrite, Place &Out);
  bool translateSubscript(const ArraySubscriptExpr *ASE, Place &Out);
  bool scalarOutput(const VarDecl *VD, const Expr *Use, Place &Out);
  ir::Buffer scalarAtItsAddress(const VarDecl *VD, ir::DType T, const std::string &Name,
                                SourceLocation FirstUse);
  FreeBuffer *freeBuffer(const ValueDecl *D, const Expr *Use, bool RefersToCapture,
                         const MemberSteps &Members);
  ir::Expr translateIndex(const Expr *Index);
  ir::Var freeScalar(const ValueDecl *D, const Expr *Use, bool RefersToCapture,
                     const MemberSteps &Members = {});

  // Finishing.
  bool checkDerivedPointers();
  bool finishBuffers(std::vector<extract::FlatLayout> &Layouts, BufferRewriter &Rewriter);
  bool before(SourceLocation A, SourceLocation B) const;
};

bool NestExtractor::fail(SourceLocation Loc, const std::string &What) {
  if (!Failed)
    Diags.warn(WarnGroup::Fallback, Loc,
               "cannot schedule this nest: " + What + "; the loop stays as written");
  Failed = true;
  return false;
}

std::string NestExtractor::sourceText(const Stmt *S) const {
  CharSourceRange Range = CharSourceRange::getTokenRange(S->getSourceRange());
  std::string Text =
      Lexer::getSourceText(Range, Ctx.getSourceManager(), Ctx.getLangOpts()).str();
  if (Text.empty() || Text.size() > 60)
    return S->getStmtClassName();
  return Text;
}

bool NestExtractor::before(SourceLocation A, SourceLocation B) const {
  const SourceManager &SM = Ctx.getSourceManager();
  A = SM.getExpansionLoc(A);
  B = SM.getExpansionLoc(B);
  if (A == B || A.isInvalid() || B.isInvalid())
    return false;
  return SM.isBeforeInTranslationUnit(A, B);
}

std::string NestExtractor::uniqueName(const std::string &Base, std::set<std::string> &Used) {
  return uniqueLoopName(Base, Used);
}

//===----------------------------------------------------------------------===//
// Statements
//===----------------------------------------------------------------------===//

ir::Stmt NestExtractor::translateStmt(const Stmt *S) {
  if (Failed || !S)
    return nullptr;
  if (const auto *Compound = dyn_cast<CompoundStmt>(S)) {
    std::vector<const Stmt *> Body(Compound->body_begin(), Compound->body_end());
    return translateBlock(Body);
  }
  if (const auto *F = dyn_cast<ForStmt>(S))
    return translateFor(F);
  if (const auto *If = dyn_cast<IfStmt>(S))
    return translateIf(If);
  if (isa<NullStmt>(S))
    return nullptr;
  if (const auto *E = dyn_cast<Expr>(S))
    return translateExprStmt(E);
  if (isa<DeclStmt>(S))
    return translateBlock({S});
  if (isa<BreakStmt>(S))
    return fail(S->getBeginLoc(), "'break' statement"), nullptr;
  if (isa<ContinueStmt>(S))
    return fail(S->getBeginLoc(), "'continue' statement"), nullptr;
  if (isa<ReturnStmt>(S))
    return fail(S->getBeginLoc(), "'return' statement"), nullptr;
  if (isa<GotoStmt>(S) || isa<IndirectGotoStmt>(S) || isa<LabelStmt>(S))
    return fail(S->getBeginLoc(), "'goto' or label"), nullptr;
  if (isa<WhileStmt>(S) || isa<DoStmt>(S))
    return fail(S->getBeginLoc(), "non-canonical loop ('while' loop)"), nullptr;
  if (isa<CXXForRangeStmt>(S))
    return fail(S->getBeginLoc(), "non-canonical loop (range-based 'for')"), nullptr;
  return fail(S->getBeginLoc(), std::string("unsupported statement (") + S->getStmtClassName() +
                                    ")"),
         nullptr;
}

ir::Stmt NestExtractor::translateBlock(ArrayRef<const Stmt *> Stmts) {
  std::vector<ir::Stmt> Out;
  for (size_t I = 0; I < Stmts.size() && !Failed; ++I) {
    const auto *DS = dyn_cast<DeclStmt>(Stmts[I]);
    if (!DS) {
      const Expr *Value = nullptr;
      const VarDecl *Private = privateScalar(Stmts, I, Value);
      if (Failed)
        break;
      if (Private) {
        // `t = e; ...` with t used nowhere else in the nest: `T t = e; ...`.
        PrivateInit[Private] = Value;
        Out.push_back(translateLocalDecls({Private}, Stmts.drop_front(I + 1)));
        break;
      }
      Out.push_back(translateStmt(Stmts[I]));
      continue;
    }
    // A declaration scopes the rest of the block: its allocation wraps it.
    std::vector<const VarDecl *> Vars;
    for (const Decl *D : DS->decls()) {
      const auto *VD = dyn_cast<VarDecl>(D);
      if (!VD)
        return fail(D->getLocation(), "unsupported declaration"), nullptr;
      Vars.push_back(VD);
    }
    ArrayRef<const Stmt *> Rest = Stmts.drop_front(I + 1);
    Out.push_back(translateLocalDecls(Vars, Rest));
    break;
  }
  return Failed ? nullptr : ir::makeSeq(Out);
}

ir::Stmt NestExtractor::translateLocalDecls(ArrayRef<const VarDecl *> Vars,
                                            ArrayRef<const Stmt *> Rest) {
  if (Vars.empty())
    return translateBlock(Rest);
  const VarDecl *VD = Vars.front();
  SourceLocation Loc = VD->getLocation();
  if (VD->isStaticLocal())
    return fail(Loc, "function-local static variable '" + VD->getNameAsString() + "'"), nullptr;
  QualType T = VD->getType();
  if (T->isReferenceType())
    return fail(Loc, "local reference '" + VD->getNameAsString() + "'"), nullptr;
  if (T->isPointerType())
    return fail(Loc, "local pointer '" + VD->getNameAsString() + "' (pointer arithmetic)"),
           nullptr;

  // A local array: a local buffer of its declared shape.
  if (const auto *Array = Ctx.getAsConstantArrayType(T)) {
    std::vector<ir::Expr> Shape;
    QualType Elem = T;
    while ((Array = Ctx.getAsConstantArrayType(Elem))) {
      Shape.push_back(ir::makeInt(Array->getSize().getSExtValue()));
      Elem = Array->getElementType();
    }
    ir::DType DT;
    if (!dtypeOf(Elem, Ctx, DT))
      return fail(Loc, "unsupported element type '" + Elem.getAsString() + "'"), nullptr;
    if (VD->hasInit())
      return fail(Loc, "initialized local array '" + VD->getNameAsString() + "'"), nullptr;
    ir::Buffer Buf = ir::makeBuffer(uniqueName(VD->getNameAsString(), UsedLocalNames), DT,
                                    Shape, ir::Scope::Local);
    Locals[VD] = Buf;
    ir::Stmt Body = translateLocalDecls(Vars.drop_front(), Rest);
    return Failed ? nullptr : ir::makeAllocate(Buf, Body ? Body : ir::makeSeq({}));
  }

  ir::DType DT;
  if (!dtypeOf(T, Ctx, DT))
    return fail(Loc, "local of unsupported type '" + T.getAsString() + "'"), nullptr;
  ir::Expr Init;
  auto Private = PrivateInit.find(VD);
  if (const Expr *InitExpr = Private != PrivateInit.end() ? Private->second : VD->getInit()) {
    Init = translate(InitExpr);
    if (!Init)
      return nullptr;
  }
  // `const int row = i * K;` names an index expression: substitute it, so
  // that accesses through it stay affine. So does an integer local the rest
  // of its scope never changes (`int p = i - 1; y[i] = x[p];`): its value is
  // its initializer's wherever it is used (loop variables and parameters
  // cannot change inside the nest; what reads memory is not substituted).
  bool Modified =
      std::any_of(Rest.begin(), Rest.end(), [&](const Stmt *S) { return mayModify(S, VD); }) ||
      std::any_of(Vars.begin() + 1, Vars.end(),
                  [&](const VarDecl *Next) { return mayModify(Next->getInit(), VD); });
  bool ReadsMemory = false;
  if (Init && ir::isInt(DT) && (T.isConstQualified() || !Modified)) {
    ExprScan Scan;
    Scan.visit(Init);
    ReadsMemory = Scan.HasLoad;
    if (!ReadsMemory) {
      ConstLocals[VD] = Init->Type == DT ? Init : ir::makeCast(DT, Init);
      return translateLocalDecls(Vars.drop_front(), Rest);
    }
  }
  ir::Buffer Buf = ir::makeBuffer(uniqueName(VD->getNameAsString(), UsedLocalNames), DT,
                                  {ir::makeInt(1)}, ir::Scope::Local);
  Locals[VD] = Buf;
  if (ir::isInt(DT))
    NotSubstituted[Buf.get()] = !Init        ? "is declared without an initializer"
                                : Modified   ? "is assigned after its declaration"
                                             : "is computed from memory (an indirect index)";
  std::vector<ir::Stmt> Body;
  if (Init)
    Body.push_back(ir::withLine(ir::makeStore(Buf, {ir::makeInt(0)},
                                              Init->Type == DT ? Init : ir::makeCast(DT, Init)),
                                lineOf(VD->getLocation())));
  Body.push_back(translateLocalDecls(Vars.drop_front(), Rest));
  auto Last = LastRun.find(VD);
  if (!Failed && Private != PrivateInit.end() && Last != LastRun.end())
    Body.push_back(storeLastValue(VD, Buf, Last->second));
  if (Failed)
    return nullptr;
  return ir::makeAllocate(Buf, ir::makeSeq(Body));
}

/// Whether the block being translated runs exactly once in every iteration
/// of the loops around it, so that its last run is the one at every loop's
/// last value (Cond): it is under no `if` of the nest, and no loop around it
/// has bounds that depend on another (the last iteration of a triangular
/// loop may be empty, and an earlier one would run the block last).
bool NestExtractor::lastRunOfBlock(ir::Expr &Cond, std::string &Why) const {
  if (BranchDepth) {
    Why = "it is assigned under an 'if' of the nest, so which iteration assigns it last is "
          "not known";
    return false;
  }
  Cond = nullptr;
  for (const auto &[V, Last] : LoopStack) {
    ir::Interval Range = LoopRanges.at(V.get());
    for (const auto &[Other, Unused] : LoopStack)
      if (mentionsVar(Range.Min, Other.get()) || mentionsVar(Range.Max, Other.get())) {
        Why = "the bounds of loop '" + V->Name +
              "' depend on another loop, so its last iteration may not run";
        return false;
      }
    ir::Expr Is = ir::makeBinary(ir::BinOp::EQ, V, Last);
    Cond = Cond ? ir::makeBinary(ir::BinOp::And, Cond, Is) : Is;
  }
  return true;
}

/// `if (Last) VD_final[0] = VD;`: a one-element buffer bound to the address
/// of VD itself, so the launcher copies the value the last run left into the
/// variable (and, where no iteration ran, the value it had).
ir::Stmt NestExtractor::storeLastValue(const VarDecl *VD, const ir::Buffer &Local,
                                       const ir::Expr &When) {
  ir::Buffer Final =
      scalarAtItsAddress(VD, Local->Type, VD->getNameAsString() + "_final", VD->getLocation());
  ir::Stmt Store = ir::makeStore(Final, {ir::makeInt(0)}, ir::makeLoad(Local, {ir::makeInt(0)}));
  return When ? ir::makeIf(When, Store, nullptr) : Store;
}

ir::Stmt NestExtractor::translateIf(const IfStmt *If) {
  if (If->getInit() || If->getConditionVariable())
    return fail(If->getBeginLoc(), "'if' with a declaration"), nullptr;
  if (If->isConstexpr() || If->isConsteval())
    return fail(If->getBeginLoc(), "'if constexpr'"), nullptr;
  ir::Expr Cond = translate(If->getCond());
  if (!Cond)
    return nullptr;
  if (Cond->Type != ir::DType::Bool)
    Cond = ir::makeBinary(ir::BinOp::NE, Cond, ir::makeInt(0, Cond->Type));
  std::map<const VarDecl *, CounterState> Before = Counters;
  ++BranchDepth;
  ir::Stmt Then = translateStmt(If->getThen());
  ir::Stmt Else = translateStmt(If->getElse());
  --BranchDepth;
  if (Failed)
    return nullptr;
  leaveBranch(Before);
  return ir::makeIf(Cond, Then ? Then : ir::makeSeq({}), Else);
}

//===----------------------------------------------------------------------===//
// Loops
//===----------------------------------------------------------------------===//

/// A bound may use the variables of enclosing loops (a triangular or banded
/// nest: `j <= i`, `j = max(0, i - 2)`): the IR's loop bounds are
/// expressions like any other, and every analysis reads them with the
/// enclosing loops' ranges.
ir::Expr NestExtractor::loopBound(const Expr *E, const VarDecl *IV) {
  ir::Expr Bound = translate(E);
  if (!Bound)
    return nullptr;
  ExprScan Scan;
  Scan.visit(Bound);
  if (Scan.HasLoad)
    return fail(E->getBeginLoc(), "loop bound of '" + IV->getNameAsString() +
                                      "' depends on a value computed in the nest"),
           nullptr;
  return Bound;
}

bool NestExtractor::loopBounds(const ForStmt *F, const VarDecl *&IV, ir::Expr &Min,
                               ir::Expr &Extent, int64_t &Step) {
  // Init: `int i = a` or `i = a`.
  const Expr *InitValue = nullptr;
  IV = loopCounter(F, &InitValue);
  if (!IV || !InitValue || !IV->getType()->isIntegerType())
    return fail(F->getBeginLoc(), "non-canonical loop (the init is not 'int i = a')");
  std::string Name = IV->getNameAsString();

  // Step: `++i`, `i++`, `i += c`, `i = i + c`, `i = c + i`, and downward
  // `--i`, `i--`, `i -= c`, `i = i - c`, for a constant c other than 0.
  const Expr *Inc = F->getInc() ? F->getInc()->IgnoreParens() : nullptr;
  auto Constant = [&](const Expr *E, int64_t &Out) {
    Expr::EvalResult R;
    if (!E->EvaluateAsInt(R, Ctx) || R.Val.getInt().getSignificantBits() > 32)
      return false;
    Out = R.Val.getInt().getExtValue();
    return true;
  };
  bool StepKnown = false;
  Step = 0;
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Inc)) {
    StepKnown = varOf(U->getSubExpr()) == IV && (U->isIncrementOp() || U->isDecrementOp());
    Step = U->isIncrementOp() ? 1 : -1;
  } else if (const auto *CA = dyn_cast_or_null<CompoundAssignOperator>(Inc)) {
    StepKnown = (CA->getOpcode() == BO_AddAssign || CA->getOpcode() == BO_SubAssign) &&
                varOf(CA->getLHS()) == IV && Constant(CA->getRHS(), Step);
    if (CA->getOpcode() == BO_SubAssign)
      Step = -Step;
  } else if (const auto *A = dyn_cast_or_null<BinaryOperator>(Inc)) {
    const auto *Sum = dyn_cast<BinaryOperator>(A->getRHS()->IgnoreParenImpCasts());
    if (A->getOpcode() == BO_Assign && varOf(A->getLHS()) == IV && Sum) {
      if (Sum->getOpcode() == BO_Add)
        StepKnown = (varOf(Sum->getLHS()) == IV && Constant(Sum->getRHS(), Step)) ||
                    (varOf(Sum->getRHS()) == IV && Constant(Sum->getLHS(), Step));
      else if (Sum->getOpcode() == BO_Sub && varOf(Sum->getLHS()) == IV &&
               Constant(Sum->getRHS(), Step)) {
        StepKnown = true;
        Step = -Step;
      }
    }
  }
  if (!StepKnown || Step == 0)
    return fail(Inc ? Inc->getBeginLoc() : F->getBeginLoc(),
                "non-canonical loop (the step of '" + Name +
                    "' is not a constant other than 0: expected '++" + Name + "', '--" + Name +
                    "', '" + Name + " += c', '" + Name + " -= c' or '" + Name + " = " + Name +
                    " + c')");

  // Condition: `i < b`, `i <= b`, `b > i`, `b >= i` for a loop that goes
  // up, `i > b`, `i >= b`, `b < i`, `b <= i` for one that goes down,
  // compared in the type the usual arithmetic conversions give (`int i`
  // against `size_t n` compares as unsigned: the implicit conversion of `i`
  // is looked through).
  const auto *Cond = dyn_cast_or_null<BinaryOperator>(
      F->getCond() ? F->getCond()->IgnoreParenImpCasts() : nullptr);
  if (!Cond)
    return fail(F->getBeginLoc(), "non-canonical loop (no 'i < n' condition)");
  auto IsIV = [&](const Expr *Side) {
    const Expr *E = Side->IgnoreParens();
    while (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
      if (Cast->getCastKind() != CK_IntegralCast && Cast->getCastKind() != CK_LValueToRValue)
        break;
      E = Cast->getSubExpr()->IgnoreParens();
    }
    return varOf(E) == IV;
  };
  const Expr *BoundExpr = nullptr;
  bool Inclusive = false, Up = true;
  BinaryOperatorKind Op = Cond->getOpcode();
  bool Less = Op == BO_LT || Op == BO_LE, Greater = Op == BO_GT || Op == BO_GE;
  if (IsIV(Cond->getLHS()) && (Less || Greater)) {
    BoundExpr = Cond->getRHS();
    Up = Less;
  } else if (IsIV(Cond->getRHS()) && (Less || Greater)) {
    BoundExpr = Cond->getLHS();
    Up = Greater;
  }
  Inclusive = Op == BO_LE || Op == BO_GE;
  if (!BoundExpr)
    return fail(Cond->getOperatorLoc(), "non-canonical loop (condition '" + sourceText(Cond) +
                                            "' does not compare '" + Name +
                                            "' with a bound: expected '" + Name + " < n', '" +
                                            Name + " <= n', 'n > " + Name + "' or 'n >= " +
                                            Name + "', or '" + Name + " > n', '" + Name +
                                            " >= n' for a loop that goes down)");
  if (Up != (Step > 0))
    return fail(Cond->getOperatorLoc(),
                "non-canonical loop (the step of '" + Name + "' goes " +
                    (Step > 0 ? "up" : "down") + " but the condition '" + sourceText(Cond) +
                    "' ends a loop that goes " + (Up ? "up" : "down") + ")");
  ir::DType CompareType;
  if (!dtypeOf(Cond->getLHS()->getType(), Ctx, CompareType) || !ir::isInt(CompareType))
    return fail(Cond->getOperatorLoc(), "non-canonical loop (condition '" + sourceText(Cond) +
                                            "' does not compare integers)");

  ir::DType DT;
  if (!dtypeOf(IV->getType(), Ctx, DT) || !ir::isInt(DT))
    return fail(IV->getLocation(), "loop variable of unsupported type");
  Min = loopBound(InitValue, IV);
  ir::Expr Bound = Min ? loopBound(BoundExpr, IV) : nullptr;
  if (!Min || !Bound)
    return false;
  if (Min->Type != DT)
    Min = ir::makeCast(DT, Min);
  const int64_t Stride = Step > 0 ? Step : -Step;
  // The trip count: the distance from the first value to the bound (or
  // back), plus one for an inclusive bound, divided by the stride rounding
  // up; a loop that runs zero times has an extent <= 0 (truncating division
  // of a distance <= 0 gives <= 0).
  auto Trips = [&](ir::Expr Distance, ir::DType T) {
    int64_t Add = (Inclusive ? 1 : 0) + Stride - 1;
    if (Add)
      Distance = ir::makeBinary(ir::BinOp::Add, Distance, ir::makeInt(Add, T));
    if (Stride != 1)
      Distance = ir::makeBinary(ir::BinOp::Div, Distance, ir::makeInt(Stride, T));
    return Distance;
  };
  ir::Expr Ext;
  if (ir::isUnsigned(CompareType) || ir::isUnsigned(DT)) {
    // Computed in int64 from the values as the comparison sees them: every
    // analysis sees integers. An unsigned loop variable becomes an int64
    // counter (LoopVarUseType). Exact for values below 2^63 (a bound at or
    // above that makes C loop until the counter wraps).
    if (Step < 0) {
      // Going down, an unsigned counter that steps below 0 wraps instead
      // of ending the loop. The last value it runs with is at most b + d
      // (b + d - 1 for `i > b`), so the next one is >= 0 for every start
      // only when b >= d (b >= d - 1 for `i > b`): `i > b` with a stride of
      // 1, or a constant b that large.
      int64_t B;
      bool Safe = (!Inclusive && Stride == 1) ||
                  (Constant(BoundExpr, B) && B >= Stride - (Inclusive ? 0 : 1));
      if (!ir::isUnsigned(DT) || !Safe)
        return fail(Cond->getOperatorLoc(),
                    "non-canonical loop (a loop over '" + Name + "' that goes down, compared as "
                    "unsigned with '" + sourceText(Cond) + "', may wrap below 0 instead of "
                    "ending: write '" + Name + " > b' or count up)");
    }
    auto Wide = [&](ir::Expr E) {
      if (E->Type != CompareType)
        E = ir::makeCast(CompareType, E);
      return ir::makeCast(ir::DType::Int64, E);
    };
    ir::Expr First = Wide(Min);
    ir::Expr Start = ir::makeCast(ir::DType::Int64, Min);
    Ext = Trips(Step > 0 ? ir::makeBinary(ir::BinOp::Sub, Wide(Bound), First)
                         : ir::makeBinary(ir::BinOp::Sub, First, Wide(Bound)),
                ir::DType::Int64);
    if (ir::isUnsigned(DT)) {
      Min = Start;
    } else {
      // `int i` compared as unsigned: the loop variable stays an int (C's
      // `i` overflows before the trip count leaves int), and a start below
      // 0 compares as a huge unsigned value: no trip.
      Ext = ir::makeSelect(ir::makeBinary(ir::BinOp::LT, Start, ir::makeInt(0, ir::DType::Int64)),
                           ir::makeInt(0, ir::DType::Int64), Ext);
      Ext = ir::makeCast(DT, Ext);
    }
    Min = ir::simplify(Min);
    Extent = ir::simplify(Ext);
    return true;
  }
  if (Bound->Type != DT)
    Bound = ir::makeCast(DT, Bound);
  Ext = Trips(Step > 0 ? ir::makeBinary(ir::BinOp::Sub, Bound, Min)
                       : ir::makeBinary(ir::BinOp::Sub, Min, Bound),
              DT);
  Min = ir::simplify(Min);
  Extent = ir::simplify(Ext);
  return true;
}

ir::Stmt NestExtractor::translateFor(const ForStmt *F) {
  if (F->getConditionVariable())
    return fail(F->getBeginLoc(), "non-canonical loop (declaration in the condition)"),
           nullptr;
  const VarDecl *IV = nullptr;
  ir::Expr Min, Extent;
  int64_t Step = 1;
  if (!loopBounds(F, IV, Min, Extent, Step))
    return nullptr;
  if (LoopVars.count(IV))
    return fail(F->getBeginLoc(), "loop variable '" + IV->getNameAsString() +
                                      "' is reused by an inner loop"),
           nullptr;
  ir::DType DT;
  dtypeOf(IV->getType(), Ctx, DT);
  ir::Var V = ir::makeVar(uniqueName(IV->getNameAsString(), UsedLoopNames), Min->Type);
  LoopVars[IV] = V;
  if (Min->Type != DT)
    LoopVarUseType[IV] = DT;
  LoopVarNodes.insert(V.get());
  // A loop with a step other than 1 (downward, `i += 2`) is normalised: its
  // IR loop counts the iterations, 0, 1, ..., and the counter is
  // `first + v*step` wherever the body uses it; directives name the loop by
  // the counter all the same.
  ir::Expr First = Min;
  if (Step != 1) {
    ir::Expr Value = ir::makeBinary(ir::BinOp::Add, First,
                                    ir::makeBinary(ir::BinOp::Mul, V, ir::makeInt(Step, Min->Type)));
    LoopVarValue[IV] = Value->Type == DT ? Value : ir::makeCast(DT, Value);
    CounterValues.insert(Value.get());
    Min = ir::makeInt(0, Min->Type);
  }
  ir::Expr Last = ir::simplify(ir::makeBinary(
      ir::BinOp::Sub, ir::makeBinary(ir::BinOp::Add, Min, Extent), ir::makeInt(1, Min->Type)));
  LoopRanges[V.get()] = ir::Interval{Min, Last};
  if (!Counters.count(IV) &&
      std::find(CounterOrder.begin(), CounterOrder.end(), IV) == CounterOrder.end())
    CounterOrder.push_back(IV);
  if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(F->getInit()))
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Assign->getLHS()->IgnoreParenImpCasts()))
      CounterCapture[IV] = CounterCapture[IV] || Ref->refersToEnclosingVariableOrCapture();
  std::map<const VarDecl *, CounterState> Before = Counters;
  LoopStack.push_back({V, Last});
  ir::Stmt Body = translateStmt(F->getBody());
  LoopStack.pop_back();
  // After the loop the counter is no loop variable: it holds the first
  // value plus the trip count (the init runs even when the body does not).
  LoopVars.erase(IV);
  LoopVarValue.erase(IV);
  if (Failed)
    return nullptr;
  ir::Expr Zero = ir::makeInt(0, Extent->Type);
  leaveLoop(Before, ir::simplify(ir::makeBinary(ir::BinOp::GT, Extent, Zero)));
  // A counter of an inner loop whose bounds use V (a triangular nest) holds,
  // after this loop, what its last execution left: the one at V's last value
  // when it runs in every iteration of V; otherwise which iteration ran it
  // last is not known here.
  for (auto &[VD, State] : Counters) {
    if (!State.Known)
      continue;
    if (State.When && mentionsVar(State.When, V.get())) {
      State.When = ir::simplify(State.When, &LoopRanges);
      int64_t Holds = 0;
      if (ir::getConstInt(State.When, Holds) && Holds != 0)
        State.When = nullptr;
      else if (mentionsVar(State.When, V.get()))
        State.Known = false;
    }
    if (State.Known && State.Value && mentionsVar(State.Value, V.get()))
      State.Value = ir::simplify(ir::substitute(State.Value, {{V.get(), Last}}));
  }
  CounterState After;
  ir::Expr Trips = ir::makeBinary(ir::BinOp::Max, Extent, Zero);
  if (Step != 1)
    Trips = ir::makeBinary(ir::BinOp::Mul, Trips, ir::makeInt(Step, Extent->Type));
  After.Value = ir::simplify(ir::makeCast(DT, ir::makeBinary(ir::BinOp::Add, First, Trips)));
  Counters[IV] = After;
  if (!Body)
    Body = ir::makeSeq({});
  return ir::makeFor(V, Min, Extent, Body, ir::ForKind::Serial, "",
                     ir::carriesReduction(Body, V.get()));
}

/// A branch of the nest may or may not run: a counter it assigned holds
/// either value after it.
void NestExtractor::leaveBranch(const std::map<const VarDecl *, CounterState> &Before) {
  for (auto &[VD, State] : Counters) {
    auto Old = Before.find(VD);
    if (Old == Before.end() || !(Old->second == State))
      State.Known = false;
  }
}

/// A loop runs its body when Runs holds: a counter its body assigned holds
/// the body's value then, else what it held before the loop (before the
/// nest, when no earlier loop assigned it; otherwise it is not known).
void NestExtractor::leaveLoop(const std::map<const VarDecl *, CounterState> &Before,
                              const ir::Expr &Runs) {
  int64_t Constant = 0;
  bool AlwaysRuns = ir::getConstInt(Runs, Constant) && Constant != 0;
  for (auto &[VD, State] : Counters) {
    auto Old = Before.find(VD);
    if (Old != Before.end() && Old->second == State)
      continue;
    if (AlwaysRuns || !State.Known)
      continue;
    if (Old != Before.end()) {
      State.Known = false;
      continue;
    }
    State.When = State.When ? ir::makeBinary(ir::BinOp::And, Runs, State.When) : Runs;
  }
}

namespace {

/// Whether Body reads VD outside Skip (a use that is not the left side of a
/// plain assignment, nor inside another loop whose init assigns VD first:
/// `for (j = 0; j < n; j++)` after the nest reads only its own values).
class OutsideRead : public RecursiveASTVisitor<OutsideRead> {
public:
  OutsideRead(const VarDecl *VD, const Stmt *Skip) : VD(VD), Skip(Skip) {}

  bool TraverseStmt(Stmt *S, DataRecursionQueue *Queue = nullptr) {
    if (S == Skip) {
      PassedSkip = true;
      return true;
    }
    if (auto *F = dyn_cast_or_null<ForStmt>(S))
      if (auto *Init = dyn_cast_or_null<BinaryOperator>(F->getInit()))
        if (auto *Ref = dyn_cast<DeclRefExpr>(Init->getLHS()->IgnoreParens()))
          if (Init->getOpcode() == BO_Assign && Ref->getDecl() == VD)
            return RecursiveASTVisitor::TraverseStmt(Init->getRHS(), Queue);
    return RecursiveASTVisitor::TraverseStmt(S, Queue);
  }
  /// In a block after the nest, `VD = e;` ends what the nest left in VD for
  /// the rest of that block: later statements of it read the new value (a
  /// second nest reusing a temporary: `t = 0; for (j) t += ...`). What
  /// follows the block may still see the nest's value (the block may not
  /// run), so only the rest of the block is skipped; an assignment met
  /// before the nest was passed ends nothing (the nest comes after it).
  bool TraverseCompoundStmt(CompoundStmt *C, DataRecursionQueue *Queue = nullptr) {
    for (Stmt *S : C->body()) {
      if (!TraverseStmt(S, Queue))
        return false;
      if (Found)
        return false;
      auto *E = dyn_cast<Expr>(S);
      auto *Assign = E ? dyn_cast<BinaryOperator>(E->IgnoreParens()) : nullptr;
      if (PassedSkip && Assign && Assign->getOpcode() == BO_Assign)
        if (auto *Ref = dyn_cast<DeclRefExpr>(Assign->getLHS()->IgnoreParens()))
          if (Ref->getDecl() == VD)
            return true;
    }
    return true;
  }
  bool VisitBinaryOperator(BinaryOperator *B) {
    if (B->getOpcode() == BO_Assign)
      if (const auto *Ref = dyn_cast<DeclRefExpr>(B->getLHS()->IgnoreParens()))
        if (Ref->getDecl() == VD)
          Written.insert(Ref);
    return true;
  }
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    Found |= Ref->getDecl() == VD && !Written.count(Ref);
    return !Found;
  }

  bool Found = false;

private:
  const VarDecl *VD;
  const Stmt *Skip;
  bool PassedSkip = false;
  std::set<const DeclRefExpr *> Written;
};

/// Collects the variables declared inside a statement.
class DeclaredIn : public RecursiveASTVisitor<DeclaredIn> {
public:
  bool VisitVarDecl(VarDecl *VD) {
    Vars.insert(VD);
    return true;
  }
  std::set<const VarDecl *> Vars;
};

} // namespace

namespace {
/// How many times Body names VD.
class CountRefs : public RecursiveASTVisitor<CountRefs> {
public:
  explicit CountRefs(const VarDecl *VD) : VD(VD) {}
  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    Count += Ref->getDecl() == VD;
    return true;
  }
  unsigned Count = 0;

private:
  const VarDecl *VD;
};

unsigned countRefs(const Stmt *S, const VarDecl *VD) {
  CountRefs Refs(VD);
  Refs.TraverseStmt(const_cast<Stmt *>(S));
  return Refs.Count;
}
} // namespace

/// A scalar declared in the function before the nest (C89 style: `double t;`
/// at the top) that the nest uses as a temporary: `t = e;` (e does not read
/// t) is statement I of a block and every use of t in the whole nest is in
/// that statement or after it in the same block. Each run of the block then
/// assigns t before reading it, so t is private to it: a local declared
/// there (each thread has its own copy). Its value after the nest would be
/// the last run's: a t read after the nest is refused rather than left stale.
const VarDecl *NestExtractor::privateScalar(ArrayRef<const Stmt *> Stmts, size_t I,
                                            const Expr *&Value) {
  const auto *E = dyn_cast<Expr>(Stmts[I]);
  if (!E)
    return nullptr;
  E = E->IgnoreParens();
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E))
    E = Cleanups->getSubExpr()->IgnoreParens();
  const auto *Assign = dyn_cast<BinaryOperator>(E);
  if (!Assign || Assign->getOpcode() != BO_Assign)
    return nullptr;
  const auto *Ref = dyn_cast<DeclRefExpr>(Assign->getLHS()->IgnoreParens());
  const auto *VD = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!VD || !VD->hasLocalStorage() || isa<ParmVarDecl>(VD) || VD->isStaticLocal() ||
      Ref->refersToEnclosingVariableOrCapture())
    return nullptr;
  QualType T = VD->getType();
  if (!T->isScalarType() || T->isPointerType() || T->isReferenceType())
    return nullptr;
  if (LoopVars.count(VD) || Counters.count(VD) || Locals.count(VD) || ConstLocals.count(VD))
    return nullptr;
  if (countRefs(Assign->getRHS(), VD))
    return nullptr;
  unsigned InBlock = 0;
  for (const Stmt *S : Stmts.drop_front(I))
    InBlock += countRefs(S, VD);
  if (InBlock != countRefs(Root, VD))
    return nullptr;
  OutsideRead Reads(VD, Root);
  if (FunctionBody)
    Reads.TraverseStmt(const_cast<Stmt *>(FunctionBody));
  if (!FunctionBody || Reads.Found) {
    // Its value there is the last run's: the kernel gives it back where the
    // last run is known.
    ir::Expr Cond;
    std::string Why = "the nest is not in a function body";
    if (!FunctionBody || Ref->refersToEnclosingVariableOrCapture() || !lastRunOfBlock(Cond, Why))
      return fail(Assign->getBeginLoc(),
                  "scalar '" + VD->getNameAsString() +
                      "' is declared outside the nest and may be read after it, where it holds "
                      "the last iteration's value, but " + Why),
             nullptr;
    LastRun[VD] = Cond;
  }
  Value = Assign->getRHS();
  return VD;
}

/// The counters declared outside the nest become its finals; a counter
/// whose final value is not known must not be read after the nest.
bool NestExtractor::finishCounters(ExtractedNest &Out) {
  DeclaredIn Inside;
  Inside.TraverseStmt(const_cast<ForStmt *>(Root));
  for (const VarDecl *VD : CounterOrder) {
    auto It = Counters.find(VD);
    if (It == Counters.end() || Inside.Vars.count(VD))
      continue;
    const CounterState &State = It->second;
    ir::DType DT;
    if (!dtypeOf(VD->getType(), Ctx, DT))
      return fail(VD->getLocation(), "loop counter of unsupported type");
    if (!State.Known) {
      // A local of this function that nothing outside the nest reads may
      // be left as it is; anything else (a global, a parameter passed by
      // reference, a capture, a local read after the nest) may be read.
      bool Local = VD->hasLocalStorage() && !VD->getType()->isReferenceType() &&
                   FunctionBody && !CounterCapture[VD];
      OutsideRead Reads(VD, Root);
      if (Local)
        Reads.TraverseStmt(const_cast<Stmt *>(FunctionBody));
      if (!Local || Reads.Found)
        return fail(Root->getBeginLoc(),
                    "loop counter '" + VD->getNameAsString() +
                        "' is declared outside the nest and may be read after it, but its "
                        "final value depends on a branch of the nest");
      continue;
    }
    LaunchDescriptor::FinalValue F;
    F.Name = VD->getNameAsString();
    F.Type = DT;
    F.When = State.When ? ir::simplify(State.When) : nullptr;
    F.Value = State.Value;
    Out.Finals.push_back(F);
    ParamBinding B;
    B.Decl = VD;
    B.Kind = LaunchDescriptor::ArgKind::Scalar;
    B.RefersToCapture = CounterCapture[VD];
    Out.FinalBindings.push_back(B);
  }
  // A counter read in the nest before its loop (a free scalar) would be
  // passed as one value; the loop changes it.
  for (const FreeScalar &S : Scalars)
    if (S.Members.empty())
      if (const auto *VD = dyn_cast<VarDecl>(S.Decl))
        if (std::find(CounterOrder.begin(), CounterOrder.end(), VD) != CounterOrder.end())
          return fail(S.FirstUse, "'" + VD->getNameAsString() +
                                      "' is read in the nest where a loop of the nest may "
                                      "already have assigned it");
  return true;
}

//===----------------------------------------------------------------------===//
// Expression statements: stores
//===----------------------------------------------------------------------===//

ir::Stmt NestExtractor::translateExprStmt(const Expr *E) {
  return ir::withLine(translateExprStmtAt(E), lineOf(E->getBeginLoc()));
}

/// The source line a store made at Loc keeps (where a macro wrote it: where
/// the macro was used), 0 when unknown.
int NestExtractor::lineOf(SourceLocation Loc) const {
  const SourceManager &SM = Ctx.getSourceManager();
  PresumedLoc PLoc = SM.getPresumedLoc(SM.getExpansionLoc(Loc));
  return PLoc.isValid() ? static_cast<int>(PLoc.getLine()) : 0;
}

ir::Stmt NestExtractor::translateExprStmtAt(const Expr *E) {
  E = E->IgnoreParens();
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E))
    E = Cleanups->getSubExpr()->IgnoreParens();
  if (const auto *CA = dyn_cast<CompoundAssignOperator>(E))
    return translateCompoundAssign(CA);
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() == BO_Assign)
      return translateAssign(B->getLHS(), B->getRHS(), B);
    if (B->getOpcode() == BO_Comma)
      return fail(B->getOperatorLoc(), "comma operator"), nullptr;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->isIncrementDecrementOp())
      return translateIncDec(U);
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    // Even a pure call is pointless as a statement; report like any call.
    const FunctionDecl *FD = Call->getDirectCallee();
    return fail(Call->getBeginLoc(), "call to '" + (FD ? FD->getNameAsString() : "function") +
                                         "' may have side effects"),
           nullptr;
  }
  return fail(E->getBeginLoc(), "unsupported statement '" + sourceText(E) + "'"), nullptr;
}

bool NestExtractor::translatePlace(const Expr *LValue, bool IsWrite, Place &Out) {
  const Expr *E = LValue->IgnoreParens();
  if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E))
    return translateSubscript(ASE, Out);
  if (const auto *Call = dyn_cast<CXXOperatorCallExpr>(E))
    return translateCall(Call), false;
  const ValueDecl *D = nullptr;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    D = Ref->getDecl();
  else
    D = thisFieldOf(E);
  if (const auto *VD = dyn_cast_or_null<VarDecl>(D)) {
    if (LoopVars.count(VD))
      return fail(E->getBeginLoc(), "the body modifies loop variable '" +
                                        VD->getNameAsString() + "'");
    if (Counters.count(VD))
      return fail(E->getBeginLoc(), "the nest assigns loop counter '" + VD->getNameAsString() +
                                        "' outside its loop");
    auto It = Locals.find(VD);
    if (It != Locals.end() && It->second->Shape.size() == 1 && !VD->getType()->isArrayType()) {
      Out.Buf = It->second;
      Out.Indices = {ir::makeInt(0)};
      return true;
    }
    if (ConstLocals.count(VD))
      return fail(E->getBeginLoc(), "assignment to constant '" + VD->getNameAsString() + "'");
  }
  if (const auto *VD = dyn_cast_or_null<VarDecl>(D))
    if (ScalarOutputs.count(VD) ||
        (IsWrite && !D->getType()->isArrayType() && !D->getType()->isPointerType()))
      return scalarOutput(VD, E, Out);
  if (D && IsWrite && !D->getType()->isArrayType() && !D->getType()->isPointerType())
    return fail(E->getBeginLoc(),
                "nest writes scalar '" + D->getNameAsString() + "' declared outside it");
  const ValueDecl *Root = nullptr;
  bool Capture = false;
  MemberSteps Steps;
  if (IsWrite && memberChain(E, Root, Capture, Steps))
    return fail(E->getBeginLoc(),
                "nest writes member '" + freeSpelling(Root, Steps) + "' declared outside it");
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    if (U->getOpcode() == UO_Deref)
      return fail(E->getBeginLoc(), "pointer dereference '" + sourceText(E) + "'");
  return fail(E->getBeginLoc(), "unsupported assignment target '" + sourceText(E) + "'");
}

ir::Stmt NestExtractor::translateAssign(const Expr *LHS, const Expr *Value, const Expr *Whole) {
  Place P;
  if (!translatePlace(LHS, true, P))
    return nullptr;
  ir::Expr V = translate(Value);
  if (!V)
    return nullptr;
  if (V->Type != P.Buf->Type)
    V = ir::makeCast(P.Buf->Type, V);
  return ir::makeStore(P.Buf, P.Indices, V);
}

/// `x op= y` is `x = T(C(x) op y)` with C the computation type Clang chose.
ir::Stmt NestExtractor::translateCompoundAssign(const CompoundAssignOperator *CA) {
  ir::BinOp Op;
  switch (CA->getOpcode()) {
  case BO_AddAssign: Op = ir::BinOp::Add; break;
  case BO_SubAssign: Op = ir::BinOp::Sub; break;
  case BO_MulAssign: Op = ir::BinOp::Mul; break;
  case BO_DivAssign: Op = ir::BinOp::Div; break;
  case BO_RemAssign: Op = ir::BinOp::Mod; break;
  case BO_AndAssign: Op = ir::BinOp::BitAnd; break;
  case BO_OrAssign: Op = ir::BinOp::BitOr; break;
  case BO_XorAssign: Op = ir::BinOp::BitXor; break;
  case BO_ShlAssign: Op = ir::BinOp::Shl; break;
  case BO_ShrAssign: Op = ir::BinOp::Shr; break;
  default:
    return fail(CA->getOperatorLoc(), std::string("unsupported operator '") +
                                          CA->getOpcodeStr().str() + "'"),
           nullptr;
  }
  if (CA->getLHS()->getType()->isPointerType())
    return fail(CA->getOperatorLoc(), "pointer arithmetic '" + sourceText(CA) + "'"), nullptr;
  Place P;
  if (!translatePlace(CA->getLHS(), true, P))
    return nullptr;
  ir::DType Computation;
  if (!dtypeOf(CA->getComputationLHSType(), Ctx, Computation))
    return fail(CA->getOperatorLoc(), "unsupported type in '" + sourceText(CA) + "'"), nullptr;
  // `h += a*b` on _Float16 with excess precision: `h + a*b` in float, rounded
  // once (isExcessArith).
  bool Excess = Computation == ir::DType::Float16 && isExcessArith(CA->getRHS(), Ctx) &&
                CA->getComputationLHSType().UseExcessPrecision(Ctx);
  if (Excess)
    Computation = ir::DType::Float32;
  ir::Expr RHS = Excess ? translateExcess(CA->getRHS()) : translate(CA->getRHS());
  if (!RHS)
    return nullptr;
  ir::Expr Old = ir::makeLoad(P.Buf, P.Indices);
  if (Old->Type != Computation)
    Old = ir::makeCast(Computation, Old);
  ir::Expr New = ir::makeBinary(Op, Old, RHS);
  if (New->Type != P.Buf->Type)
    New = ir::makeCast(P.Buf->Type, New);
  return ir::makeStore(P.Buf, P.Indices, New);
}

ir::Stmt NestExtractor::translateIncDec(const UnaryOperator *U) {
  if (U->getSubExpr()->getType()->isPointerType())
    return fail(U->getOperatorLoc(), "pointer arithmetic '" + sourceText(U) + "'"), nullptr;
  Place P;
  if (!translatePlace(U->getSubExpr(), true, P))
    return nullptr;
  ir::Expr Old = ir::makeLoad(P.Buf, P.Indices);
  ir::Expr One = ir::isFloat(Old->Type) ? ir::makeFloat(1.0, Old->Type) : ir::makeInt(1);
  ir::Expr New = ir::makeBinary(U->isIncrementOp() ? ir::BinOp::Add : ir::BinOp::Sub, Old, One);
  if (New->Type != P.Buf->Type)
    New = ir::makeCast(P.Buf->Type, New);
  return ir::makeStore(P.Buf, P.Indices, New);
}


//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// Integer constant expressions (literals, enumerators, constexpr arithmetic,
/// substituted template arguments, sizeof) fold to one literal.
ir::Expr NestExtractor::constantOf(const Expr *E) {
  QualType T = E->getType();
  if (!T->isIntegralOrEnumerationType() || E->HasSideEffects(Ctx))
    return nullptr;
  Expr::EvalResult R;
  if (!E->EvaluateAsInt(R, Ctx))
    return nullptr;
  int64_t V = intValue(R.Val.getInt());
  ir::DType DT = ir::DType::Int32;
  if (!dtypeOf(T, Ctx, DT) && !T->isEnumeralType())
    return nullptr;
  return DT == ir::DType::Bool ? ir::makeBool(V != 0) : ir::makeInt(ir::wrapToType(V, DT), DT);
}

ir::Expr NestExtractor::translate(const Expr *E) {
  if (Failed || !E)
    return nullptr;
  if (E->isTypeDependent() || E->isValueDependent())
    return fail(E->getBeginLoc(), "dependent expression '" + sourceText(E) + "'"), nullptr;
  E = E->IgnoreParens();
  if (ir::Expr C = constantOf(E))
    return C;
  if (const auto *F = dyn_cast<FloatingLiteral>(E)) {
    ir::DType DT;
    if (!dtypeOf(F->getType(), Ctx, DT))
      return fail(E->getBeginLoc(), "unsupported literal type"), nullptr;
    return ir::makeFloat(F->getValue().convertToDouble(), DT);
  }
  if (const auto *Subst = dyn_cast<SubstNonTypeTemplateParmExpr>(E))
    return translate(Subst->getReplacement());
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(E))
    return translate(Cleanups->getSubExpr());
  if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(E))
    return translate(Temp->getSubExpr());
  if (const auto *Cast = dyn_cast<CastExpr>(E))
    return translateCast(Cast);
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return translateDeclRef(Ref, Ref->getDecl(), Ref->refersToEnclosingVariableOrCapture());
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    if (const FieldDecl *Field = thisFieldOf(Member))
      return translateDeclRef(Member, Field, false);
    const ValueDecl *Root = nullptr;
    bool Capture = false;
    MemberSteps Steps;
    if (!memberChain(Member, Root, Capture, Steps))
      return fail(E->getBeginLoc(), "member access '" + sourceText(E) + "'"), nullptr;
    QualType T = Steps.back().Type.getNonReferenceType();
    if (T->isPointerType() || T->isArrayType())
      return fail(E->getBeginLoc(), "pointer arithmetic or address use of '" +
                                        freeSpelling(Root, Steps) + "'"),
             nullptr;
    return freeScalar(Root, Member, Capture, Steps);
  }
  if (isa<ArraySubscriptExpr>(E)) {
    Place P;
    if (!translatePlace(E, false, P))
      return nullptr;
    return ir::makeLoad(P.Buf, P.Indices);
  }
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return translateBinary(B);
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return translateUnary(U);
  if (const auto *Cond = dyn_cast<ConditionalOperator>(E)) {
    ir::Expr C = translate(Cond->getCond());
    ir::Expr T = translate(Cond->getTrueExpr());
    ir::Expr F = translate(Cond->getFalseExpr());
    if (!C || !T || !F)
      return nullptr;
    if (C->Type != ir::DType::Bool)
      C = ir::makeBinary(ir::BinOp::NE, C, ir::makeInt(0, C->Type));
    return ir::makeSelect(C, T, F);
  }
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return translateCall(Call);
  return fail(E->getBeginLoc(), "unsupported expression '" + sourceText(E) + "'"), nullptr;
}

ir::Expr NestExtractor::translateCast(const CastExpr *C) {
  const Expr *Sub = C->getSubExpr();
  switch (C->getCastKind()) {
  case CK_LValueToRValue:
  case CK_NoOp:
    return translate(Sub);
  case CK_IntegralCast:
  case CK_IntegralToFloating:
  case CK_FloatingCast:
  case CK_FloatingToIntegral: {
    ir::Expr V = translate(Sub);
    ir::DType DT;
    if (!V)
      return nullptr;
    if (!dtypeOf(C->getType(), Ctx, DT))
      return fail(C->getBeginLoc(), "conversion to unsupported type '" +
                                        C->getType().getAsString() + "'"),
             nullptr;
    // `float x = 0;` stores the literal 0.0f, not float32(0).
    int64_t Literal;
    if (ir::isFloat(DT) && ir::isInt(V->Type) && ir::getConstInt(V, Literal))
      return ir::makeFloat(static_cast<double>(Literal), DT);
    return V->Type == DT ? V : ir::makeCast(DT, V);
  }
  case CK_IntegralToBoolean:
  case CK_FloatingToBoolean: {
    ir::Expr V = translate(Sub);
    if (!V)
      return nullptr;
    if (V->Type == ir::DType::Bool)
      return V;
    ir::Expr Zero = ir::isFloat(V->Type) ? ir::makeFloat(0.0, V->Type) : ir::makeInt(0, V->Type);
    return ir::makeBinary(ir::BinOp::NE, V, Zero);
  }
  case CK_ArrayToPointerDecay:
  case CK_PointerToIntegral:
  case CK_IntegralToPointer:
  case CK_BitCast:
    return fail(C->getBeginLoc(), "pointer arithmetic or pointer conversion '" +
                                      sourceText(C) + "'"),
           nullptr;
  default:
    return fail(C->getBeginLoc(), std::string("unsupported conversion (") +
                                      C->getCastKindName() + ") in '" + sourceText(C) + "'"),
           nullptr;
  }
}

ir::Expr NestExtractor::translateDeclRef(const Expr *Use, const ValueDecl *D,
                                         bool RefersToCapture) {
  const auto *VD = dyn_cast<VarDecl>(D);
  if (VD) {
    auto Loop = LoopVars.find(VD);
    if (Loop != LoopVars.end()) {
      auto Value = LoopVarValue.find(VD);
      if (Value != LoopVarValue.end())
        return Value->second;
      auto Use = LoopVarUseType.find(VD);
      if (Use != LoopVarUseType.end())
        return ir::makeCast(Use->second, Loop->second);
      return Loop->second;
    }
    auto Counter = Counters.find(VD);
    if (Counter != Counters.end()) {
      if (Counter->second.Known && !Counter->second.When)
        return Counter->second.Value;
      return fail(Use->getBeginLoc(),
                  "'" + VD->getNameAsString() +
                      "' is read after its loop where its value depends on whether a loop or "
                      "a branch of the nest ran"),
             nullptr;
    }
    auto Const = ConstLocals.find(VD);
    if (Const != ConstLocals.end())
      return Const->second;
    auto Local = Locals.find(VD);
    if (Local != Locals.end()) {
      if (VD->getType()->isArrayType())
        return fail(Use->getBeginLoc(), "array '" + VD->getNameAsString() + "' used as a value"),
               nullptr;
      return ir::makeLoad(Local->second, {ir::makeInt(0)});
    }
  }
  if (const auto *Enum = dyn_cast<EnumConstantDecl>(D))
    return ir::makeInt(intValue(Enum->getInitVal()));
  QualType T = D->getType().getNonReferenceType();
  if (T->isPointerType() || T->isArrayType())
    return fail(Use->getBeginLoc(), "pointer arithmetic or address use of '" +
                                        D->getNameAsString() + "'"),
           nullptr;
  if (VD && T.isConstQualified() && VD->getAnyInitializer()) {
    // const globals, constexpr and `static const` locals: their value.
    if (const APValue *Value = VD->evaluateValue()) {
      ir::DType DT;
      if (Value->isInt() && dtypeOf(T, Ctx, DT))
        return ir::makeInt(ir::wrapToType(intValue(Value->getInt()), DT), DT);
      if (Value->isFloat() && dtypeOf(T, Ctx, DT))
        return ir::makeFloat(Value->getFloat().convertToDouble(), DT);
    }
  }
  if (VD && VD->isStaticLocal())
    return fail(Use->getBeginLoc(),
                "function-local static variable '" + VD->getNameAsString() + "'"),
           nullptr;
  if (!VD && !isa<FieldDecl>(D))
    return fail(Use->getBeginLoc(), "unsupported reference to '" + D->getNameAsString() + "'"),
           nullptr;
  if (VD) {
    auto Output = ScalarOutputs.find(VD);
    if (Output != ScalarOutputs.end())
      return ir::makeLoad(Output->second, {ir::makeInt(0)});
  }
  ir::Var V = freeScalar(D, Use, RefersToCapture);
  return V;
}

/// The value of a `_Float16` arithmetic expression in float, unrounded (see
/// isExcessArith); its leaves are rounded half values widened to float.
ir::Expr NestExtractor::translateExcess(const Expr *E) {
  E = E->IgnoreParens();
  if (!isExcessArith(E, Ctx)) {
    ir::Expr V = translate(E);
    return V ? ir::makeCast(ir::DType::Float32, V) : nullptr;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E)) {
    ir::Expr V = translateExcess(U->getSubExpr());
    return U->getOpcode() == UO_Minus ? ir::makeUnary(ir::UnOp::Neg, V) : V;
  }
  const auto *B = cast<BinaryOperator>(E);
  ir::BinOp Op = ir::BinOp::Add;
  arithmeticOp(B->getOpcode(), Op);
  ir::Expr L = translateExcess(B->getLHS());
  ir::Expr R = L ? translateExcess(B->getRHS()) : nullptr;
  return R ? ir::makeBinary(Op, L, R) : nullptr;
}

ir::Expr NestExtractor::translateBinary(const BinaryOperator *B) {
  // `_Float16` arithmetic over arithmetic (`a*b + c`) is computed in float
  // and rounded once. One operation on half operands is left as a half
  // operation: computing it in float and rounding once gives the same bits
  // (float has more than twice half's precision).
  if (isExcessArith(B, Ctx) &&
      (isExcessArith(B->getLHS(), Ctx) || isExcessArith(B->getRHS(), Ctx))) {
    ir::Expr V = translateExcess(B);
    return V ? ir::makeCast(ir::DType::Float16, V) : nullptr;
  }
  ir::BinOp Op;
  switch (B->getOpcode()) {
  case BO_Add: Op = ir::BinOp::Add; break;
  case BO_Sub: Op = ir::BinOp::Sub; break;
  case BO_Mul: Op = ir::BinOp::Mul; break;
  case BO_Div: Op = ir::BinOp::Div; break;
  case BO_Rem: Op = ir::BinOp::Mod; break;
  case BO_LT: Op = ir::BinOp::LT; break;
  case BO_LE: Op = ir::BinOp::LE; break;
  case BO_GT: Op = ir::BinOp::GT; break;
  case BO_GE: Op = ir::BinOp::GE; break;
  case BO_EQ: Op = ir::BinOp::EQ; break;
  case BO_NE: Op = ir::BinOp::NE; break;
  case BO_LAnd: Op = ir::BinOp::And; break;
  case BO_LOr: Op = ir::BinOp::Or; break;
  case BO_And: Op = ir::BinOp::BitAnd; break;
  case BO_Or: Op = ir::BinOp::BitOr; break;
  case BO_Xor: Op = ir::BinOp::BitXor; break;
  case BO_Shl: Op = ir::BinOp::Shl; break;
  case BO_Shr: Op = ir::BinOp::Shr; break;
  default:
    if (B->isAssignmentOp())
      return fail(B->getOperatorLoc(), "assignment used as a value"), nullptr;
    return fail(B->getOperatorLoc(), std::string("unsupported operator '") +
                                         B->getOpcodeStr().str() + "'"),
           nullptr;
  }
  if (B->getLHS()->getType()->isPointerType() || B->getRHS()->getType()->isPointerType())
    return fail(B->getOperatorLoc(), "pointer arithmetic '" + sourceText(B) + "'"), nullptr;
  ir::Expr L = translate(B->getLHS());
  ir::Expr R = translate(B->getRHS());
  if (!L || !R)
    return nullptr;
  return ir::makeBinary(Op, L, R);
}

ir::Expr NestExtractor::translateUnary(const UnaryOperator *U) {
  switch (U->getOpcode()) {
  case UO_Plus:
  case UO_Extension:
    return translate(U->getSubExpr());
  case UO_Minus: {
    ir::Expr V = translate(U->getSubExpr());
    // `-1.f` is a literal, as it is for integers (folded by constantOf).
    if (const auto *F = ir::as<ir::FloatImmNode>(V))
      return ir::makeFloat(-F->Value, F->Type);
    return ir::makeUnary(ir::UnOp::Neg, V);
  }
  case UO_LNot: {
    ir::Expr V = translate(U->getSubExpr());
    if (V && V->Type != ir::DType::Bool)
      V = ir::makeBinary(ir::BinOp::NE, V, ir::makeInt(0, V->Type));
    return ir::makeUnary(ir::UnOp::Not, V);
  }
  case UO_Not:
    return ir::makeUnary(ir::UnOp::BitNot, translate(U->getSubExpr()));
  case UO_AddrOf:
    return fail(U->getBeginLoc(), "address-of '" + sourceText(U) + "'"), nullptr;
  case UO_Deref:
    return fail(U->getBeginLoc(), "pointer dereference '" + sourceText(U) + "'"), nullptr;
  default:
    if (U->isIncrementDecrementOp())
      return fail(U->getBeginLoc(), "increment used as a value"), nullptr;
    return fail(U->getOperatorLoc(), std::string("unsupported operator '") +
                                         UnaryOperator::getOpcodeStr(U->getOpcode()).str() +
                                         "'"),
           nullptr;
  }
}

ir::Expr NestExtractor::translateCall(const CallExpr *Call) {
  const FunctionDecl *FD = Call->getDirectCallee();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
    if (Op->getOperator() == OO_Subscript)
      return fail(Call->getBeginLoc(), "subscript through 'operator[]' of '" +
                                           Op->getArg(0)->getType().getAsString() +
                                           "' (use a raw pointer or array)"),
             nullptr;
  }
  // A floating-point call Clang evaluates to a constant is that constant:
  // the math constants (`INFINITY` is `__builtin_inff()`, `HUGE_VAL`, `NAN`)
  // and constexpr functions such as `std::numeric_limits<float>::max()`.
  if (Call->getType()->isRealFloatingType() && !Call->HasSideEffects(Ctx)) {
    llvm::APFloat Value(0.0);
    ir::DType DT;
    if (Call->EvaluateAsFloat(Value, Ctx) && dtypeOf(Call->getType(), Ctx, DT)) {
      bool LosesInfo = false;
      Value.convert(llvm::APFloat::IEEEdouble(), llvm::APFloat::rmNearestTiesToEven, &LosesInfo);
      return ir::makeFloat(Value.convertToDouble(), DT);
    }
  }
  std::string Name = FD && FD->getIdentifier() ? FD->getName().str() : "";
  const DeclContext *DC = FD ? FD->getDeclContext()->getRedeclContext() : nullptr;
  bool StdOrGlobal = FD && (FD->isInStdNamespace() || DC->isTranslationUnit());
  if (StdOrGlobal && !isa<CXXMethodDecl>(FD)) {
    // std::min / std::max on ints and floats.
    if (FD->isInStdNamespace() && (Name == "min" || Name == "max") && Call->getNumArgs() == 2) {
      ir::Expr A = translate(Call->getArg(0)), B = translate(Call->getArg(1));
      if (!A || !B)
        return nullptr;
      // On floating point, exactly as the standard defines them (for NaN
      // and signed zeros too): min is `b < a ? b : a`, max `a < b ? b : a`.
      // IR Min/Max are fmin/fmax there, which differ for NaN.
      if (ir::isFloat(A->Type))
        return Name == "min" ? ir::makeSelect(ir::makeBinary(ir::BinOp::LT, B, A), B, A)
                             : ir::makeSelect(ir::makeBinary(ir::BinOp::LT, A, B), B, A);
      return ir::makeBinary(Name == "min" ? ir::BinOp::Min : ir::BinOp::Max, A, B);
    }
    // std::clamp(v, lo, hi) as the standard defines it (libstdc++'s code,
    // and the same for NaN): v < lo ? lo : hi < v ? hi : v.
    if (FD->isInStdNamespace() && Name == "clamp" && Call->getNumArgs() == 3) {
      ir::Expr V = translate(Call->getArg(0)), Lo = translate(Call->getArg(1)),
               Hi = translate(Call->getArg(2));
      if (!V || !Lo || !Hi)
        return nullptr;
      return ir::makeSelect(ir::makeBinary(ir::BinOp::LT, V, Lo), Lo,
                            ir::makeSelect(ir::makeBinary(ir::BinOp::LT, Hi, V), Hi, V));
    }
    if (ir::Expr Math = translateMathCall(Call, Name))
      return Math;
    if (Failed)
      return nullptr;
  }
  if (FD && FD->isConstexpr() &&
      (!isa<CXXMethodDecl>(FD) || cast<CXXMethodDecl>(FD)->isStatic()))
    return translateConstexprCall(Call, FD);
  std::string Shown = FD ? FD->getNameAsString() : sourceText(Call->getCallee());
  return fail(Call->getBeginLoc(), "call to '" + Shown + "' may have side effects"), nullptr;
}

/// A call of ir/MathFunctions.h's table (`sinf`, `sin`, `std::sin` on float
/// or double; `std::abs` on floating point is `fabs`) becomes the IR call of
/// the variant the call computes in; integer `abs` is a select. Null (and no
/// warning) when Name is not a pure math function.
ir::Expr NestExtractor::translateMathCall(const CallExpr *Call, const std::string &Name) {
  ir::DType DT;
  if (Name.empty() || !dtypeOf(Call->getType(), Ctx, DT))
    return nullptr;
  std::vector<ir::Expr> Args;
  auto TranslateArgs = [&](ir::DType To) {
    for (const Expr *Arg : Call->arguments()) {
      ir::Expr A = translate(Arg);
      if (!A)
        return false;
      int64_t Literal; // std::pow(x, 2): libstdc++ converts the 2 inside
      if (ir::isFloat(To) && ir::isInt(A->Type) && ir::getConstInt(A, Literal))
        A = ir::makeFloat(static_cast<double>(Literal), To);
      Args.push_back(A->Type == To ? A : ir::makeCast(To, A));
    }
    return true;
  };
  if ((Name == "abs" || Name == "labs" || Name == "llabs") && ir::isInt(DT) &&
      Call->getNumArgs() == 1) {
    if (!TranslateArgs(DT))
      return nullptr;
    ir::Expr X = Args[0];
    return ir::makeSelect(ir::makeBinary(ir::BinOp::LT, X, ir::makeInt(0, DT)),
                          ir::makeUnary(ir::UnOp::Neg, X), X);
  }
  std::string Family = Name == "abs" ? "fabs" : Name;
  if (!ir::lookupMathFamily(Family, ir::DType::Float64) && Family.back() == 'f')
    Family.pop_back(); // sinf -> sin: its type says which variant
  const ir::MathFunction *M = ir::lookupMathFamily(Family, DT);
  if (!M || M->Arity != Call->getNumArgs())
    return nullptr;
  if (!TranslateArgs(DT))
    return nullptr;
  // fmin/fmax are the IR's Min/Max on floating point (NaN operands and all),
  // which reductions and their reorders recognise.
  if ((Family == "fmin" || Family == "fmax") &&
      (DT == ir::DType::Float32 || DT == ir::DType::Float64))
    return ir::makeBinary(Family == "fmin" ? ir::BinOp::Min : ir::BinOp::Max, Args[0], Args[1]);
  // At -O1 and above LLVM rewrites pow(x, 2) to x*x and pow(x, -1) to 1/x
  // (libm's pow differs from them for subnormal results): do the same.
  const LangOptions &LO = Ctx.getLangOpts();
  const auto *Exponent = Family == "pow" ? ir::as<ir::FloatImmNode>(Args[1]) : nullptr;
  if (Exponent && LO.Optimize && !LO.NoBuiltin) {
    if (Exponent->Value == 2.0)
      return ir::makeBinary(ir::BinOp::Mul, Args[0], Args[0]);
    if (Exponent->Value == -1.0)
      return ir::makeBinary(ir::BinOp::Div, ir::makeFloat(1.0, DT), Args[0]);
  }
  return ir::makeCall(M->Name, Args, DT);
}

/// A call to a constexpr function: its value where Clang can evaluate it
/// (integers are already folded by constantOf), otherwise its body inlined
/// when that is one `return` statement, the parameters bound to the
/// arguments' values.
ir::Expr NestExtractor::translateConstexprCall(const CallExpr *Call, const FunctionDecl *FD) {
  std::string Shown = FD->getNameAsString();
  ir::DType DT;
  if (!dtypeOf(Call->getType(), Ctx, DT))
    return fail(Call->getBeginLoc(), "call to constexpr function '" + Shown +
                                         "' of unsupported type '" +
                                         Call->getType().getAsString() + "'"),
           nullptr;
  // Constant arguments: Clang's constant evaluator gives the value (it
  // refuses an evaluation with side effects, and HasSideEffects would refuse
  // every call).
  Expr::EvalResult R;
  if (Call->EvaluateAsRValue(R, Ctx) && !R.HasSideEffects) {
    if (R.Val.isInt() && ir::isInt(DT))
      return ir::makeInt(ir::wrapToType(intValue(R.Val.getInt()), DT), DT);
    if (R.Val.isInt() && DT == ir::DType::Bool)
      return ir::makeBool(R.Val.getInt().getBoolValue());
    // Not half: the evaluator need not follow excess precision as CodeGen does.
    if (R.Val.isFloat() && (DT == ir::DType::Float32 || DT == ir::DType::Float64))
      return ir::makeFloat(R.Val.getFloat().convertToDouble(), DT);
  }

  const FunctionDecl *Def = nullptr;
  const Stmt *Body = FD->getBody(Def);
  const auto *Block = dyn_cast_or_null<CompoundStmt>(Body);
  const auto *Return = Block && Block->size() == 1 ? dyn_cast<ReturnStmt>(Block->body_front())
                                                     : nullptr;
  if (!Return || !Return->getRetValue() || Def->getNumParams() != Call->getNumArgs())
    return fail(Call->getBeginLoc(), "call to constexpr function '" + Shown +
                                         "' that is not one 'return' statement (only those "
                                         "are inlined)"),
           nullptr;
  if (std::find(Inlining.begin(), Inlining.end(), Def) != Inlining.end())
    return fail(Call->getBeginLoc(), "recursive call to constexpr function '" + Shown + "'"),
           nullptr;
  // Parameters read like substituted constants (ConstLocals): each is its
  // argument's value, converted to the parameter's type by Clang already.
  std::vector<std::pair<const VarDecl *, ir::Expr>> Bound;
  for (unsigned I = 0; I < Def->getNumParams(); ++I) {
    const Expr *Arg = Call->getArg(I);
    if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(Arg))
      Arg = Default->getExpr();
    ir::Expr V = translate(Arg);
    if (!V)
      return nullptr;
    Bound.push_back({Def->getParamDecl(I), V});
  }
  for (const auto &[Param, Value] : Bound)
    ConstLocals[Param] = Value;
  Inlining.push_back(Def);
  ir::Expr V = translate(Return->getRetValue());
  Inlining.pop_back();
  for (const auto &[Param, Value] : Bound)
    ConstLocals.erase(Param);
  if (!V)
    return nullptr;
  return V->Type == DT ? V : ir::makeCast(DT, V);
}

//===----------------------------------------------------------------------===//
// Accesses and free variables
//===----------------------------------------------------------------------===//

bool NestExtractor::translateSubscript(const ArraySubscriptExpr *ASE, Place &Out) {
  std::vector<const Expr *> Subscripts;
  const Expr *Base = ASE;
  while (const auto *S = dyn_cast<ArraySubscriptExpr>(Base)) {
    Subscripts.push_back(S->getIdx());
    Base = stripTransparent(S->getBase());
  }
  std::reverse(Subscripts.begin(), Subscripts.end());

  const ValueDecl *D = nullptr;
  bool Capture = false;
  MemberSteps Steps;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Base)) {
    D = Ref->getDecl();
    Capture = Ref->refersToEnclosingVariableOrCapture();
  } else if (const FieldDecl *Field = thisFieldOf(Base)) {
    D = Field;
  } else if (!memberChain(Base, D, Capture, Steps)) {
    D = nullptr;
  }
  if (!D) {
    if (isa<BinaryOperator>(Base) || isa<UnaryOperator>(Base) || isa<CastExpr>(Base))
      return fail(Base->getBeginLoc(), "pointer arithmetic '" + sourceText(Base) + "'");
    return fail(Base->getBeginLoc(), "unsupported array base '" + sourceText(Base) + "'");
  }

  size_t Expected = 0;
  if (const auto *VD = dyn_cast<VarDecl>(D); VD && Steps.empty() && Locals.count(VD)) {
    Out.Buf = Locals[VD];
    Expected = Out.Buf->Shape.size();
  } else {
    FreeBuffer *FB = freeBuffer(D, Base, Capture, Steps);
    if (!FB)
      return false;
    Out.Buf = FB->Placeholder;
    Expected = FB->DeclaredShape.size() + (FB->FirstDimKnown ? 0 : 1);
  }
  if (Subscripts.size() != Expected)
    return fail(ASE->getBeginLoc(), "partial subscript of '" + freeSpelling(D, Steps) + "'");
  Out.Indices.clear();
  for (const Expr *Sub : Subscripts) {
    ir::Expr Index = translateIndex(Sub);
    if (!Index)
      return false;
    Out.Indices.push_back(Index);
  }
  auto It = BufferIndex.find(freeKey(D, Steps));
  if (It != BufferIndex.end()) {
    FreeBuffer &FB = Buffers[It->second];
    if (FB.isFlat())
      FB.FlatIndices.push_back(Out.Indices[0]);
    else if (!FB.FirstDimKnown)
      FB.FirstIndices.push_back(Out.Indices[0]);
  }
  return true;
}

ir::Expr NestExtractor::translateIndex(const Expr *Index) {
  ir::Expr I = translate(Index);
  if (!I)
    return nullptr;
  if (!ir::isInt(I->Type))
    return fail(Index->getBeginLoc(), "non-integer index '" + sourceText(Index) + "'"), nullptr;
  ExprScan Scan;
  Scan.visit(I);
  if (Scan.HasLoad) {
    LocalReads Reads(NotSubstituted);
    Reads.visit(I);
    if (Reads.First)
      return fail(Index->getBeginLoc(),
                  "index '" + sourceText(Index) + "' reads local '" + Reads.First->Buf->Name +
                      "', which " + NotSubstituted[Reads.First->Buf.get()] +
                      " (an integer local is substituted into an index only when it is "
                      "initialized from loop variables and parameters and never assigned "
                      "again)"),
             nullptr;
    return fail(Index->getBeginLoc(), "indirect index '" + sourceText(Index) + "'"), nullptr;
  }
  if (Scan.HasUnsigned) {
    IndexWidener Widen(CounterValues);
    I = Widen.mutate(I);
  }
  ir::AffineForm Form;
  auto IsLoopVar = [&](const ir::VarNode *V) { return LoopVarNodes.count(V) != 0; };
  if (!ir::toAffine(I, IsLoopVar, Form)) {
    std::string Why = ir::mayWrap(I) ? " (unsigned arithmetic narrower than 64 bits wraps; "
                                       "compute the index in a signed or 64-bit type)"
                                     : "";
    return fail(Index->getBeginLoc(), "non-affine index '" + sourceText(Index) + "'" + Why),
           nullptr;
  }
  return I;
}

/// A scalar declared outside the nest that the nest writes (`float s = 0;
/// for (...) s += x[i]*y[i];`): a one-element buffer, passed by its address
/// like an array (the launcher copies it in and back), so every backend
/// leaves in it what the loop leaves. Every use in the nest is then an
/// element of it; a read the nest made before its first write was already
/// taken as a value passed in, so that is refused, as are scalars the
/// launcher cannot address (statics, captures, members, references).
bool NestExtractor::scalarOutput(const VarDecl *VD, const Expr *Use, Place &Out) {
  auto Known = ScalarOutputs.find(VD);
  if (Known != ScalarOutputs.end()) {
    Out.Buf = Known->second;
    Out.Indices = {ir::makeInt(0)};
    return true;
  }
  const std::string Name = VD->getNameAsString();
  const std::string Refused = "nest writes scalar '" + Name + "' declared outside it";
  const auto *Ref = dyn_cast<DeclRefExpr>(Use->IgnoreParens());
  QualType T = VD->getType();
  if (!Ref || Ref->refersToEnclosingVariableOrCapture() || VD->isStaticLocal() ||
      T->isReferenceType() || !T->isScalarType() || T.isVolatileQualified())
    return fail(Use->getBeginLoc(), Refused), false;
  if (ScalarIndex.count(freeKey(VD, {})))
    return fail(Use->getBeginLoc(),
                Refused + ", and reads it before this write (as the value it had before the "
                          "nest)"),
           false;
  ir::DType DT;
  if (!dtypeOf(T, Ctx, DT))
    return fail(Use->getBeginLoc(), Refused + ", of unsupported type '" + T.getAsString() + "'"),
           false;
  ir::Buffer Buf = scalarAtItsAddress(VD, DT, freeName(VD, {}), Use->getBeginLoc());
  ScalarOutputs[VD] = Buf;
  Out.Buf = Buf;
  Out.Indices = {ir::makeInt(0)};
  return true;
}

/// A one-element buffer parameter at the address of scalar VD (the launcher
/// passes `&VD` like an array's first element and copies it in and back):
/// how a nest leaves a value in a scalar of the function.
ir::Buffer NestExtractor::scalarAtItsAddress(const VarDecl *VD, ir::DType T,
                                             const std::string &Name, SourceLocation FirstUse) {
  FreeBuffer FB;
  FB.Decl = VD;
  FB.FirstUse = FirstUse;
  FB.Name = Name;
  FB.Kind = LaunchDescriptor::ArgKind::Array;
  FB.DeclaredShape = {ir::makeInt(1)};
  FB.FirstDimKnown = true;
  FB.Type = T;
  FB.Placeholder = ir::makeBuffer(FB.Name, FB.Type, {});
  FB.Order = Buffers.size();
  FB.FlatIndices.push_back(ir::makeInt(0));
  BufferIndex[freeKey(VD, {})] = Buffers.size();
  Buffers.push_back(FB);
  return FB.Placeholder;
}

FreeBuffer *NestExtractor::freeBuffer(const ValueDecl *D, const Expr *Use, bool Capture,
                                      const MemberSteps &Members) {
  std::string Key = freeKey(D, Members);
  auto It = BufferIndex.find(Key);
  if (It != BufferIndex.end()) {
    FreeBuffer &FB = Buffers[It->second];
    FB.RefersToCapture = FB.RefersToCapture || Capture;
    if (before(Use->getBeginLoc(), FB.FirstUse))
      FB.FirstUse = Use->getBeginLoc();
    return &FB;
  }
  FreeBuffer FB;
  FB.Decl = D;
  FB.RefersToCapture = Capture;
  FB.FirstUse = Use->getBeginLoc();
  FB.Name = freeName(D, Members);
  FB.Members = Members;
  const auto *VD = dyn_cast<VarDecl>(D);
  if (VD && VD->isStaticLocal())
    return fail(Use->getBeginLoc(), "function-local static variable '" + FB.Name + "'"), nullptr;
  QualType T = D->getType().getNonReferenceType();
  // A parameter declared `float A[64][64]` keeps its declared shape.
  if (const auto *Parm = dyn_cast<ParmVarDecl>(D))
    if (Ctx.getAsConstantArrayType(Parm->getOriginalType()))
      T = Parm->getOriginalType();
  if (!Members.empty())
    T = Members.back().Type.getNonReferenceType();
  QualType Elem;
  if (Ctx.getAsConstantArrayType(T) || T->isIncompleteArrayType()) {
    // An array parameter is a pointer (the launcher gets the pointer's
    // address); a reference to an array is the array itself (its address is
    // the first element's), and may name the same array as another one. So
    // may an array member (its struct may be reached through two pointers).
    bool IsReference = D->getType()->isReferenceType();
    bool IsMember = !Members.empty();
    FB.Kind = isa<ParmVarDecl>(D) && !IsReference && !IsMember
                  ? LaunchDescriptor::ArgKind::Pointer
                  : LaunchDescriptor::ArgKind::Array;
    FB.FirstDimKnown = !T->isIncompleteArrayType();
    FB.NoAlias = !isa<ParmVarDecl>(D) && !IsReference && !IsMember;
    Elem = T;
    if (T->isIncompleteArrayType())
      Elem = Ctx.getAsArrayType(T)->getElementType();
  } else if (T->isPointerType()) {
    FB.Kind = LaunchDescriptor::ArgKind::Pointer;
    FB.NoAlias = T.isRestrictQualified();
    Elem = T->getPointeeType();
  } else {
    return fail(Use->getBeginLoc(), "'" + FB.Name + "' of unsupported type '" +
                                        T.getAsString() + "' is indexed"),
           nullptr;
  }
  for (;;) {
    if (const ConstantArrayType *Array = Ctx.getAsConstantArrayType(Elem)) {
      FB.DeclaredShape.push_back(ir::makeInt(Array->getSize().getSExtValue()));
      Elem = Array->getElementType();
      continue;
    }
    // A variable-length row (C99 `double A[n][m]`, a pointer to `double[m]`):
    // its length is the size expression, which the function must not change
    // before the nest (C evaluates it once, on entry).
    const VariableArrayType *VLA = Ctx.getAsVariableArrayType(Elem);
    if (!VLA)
      break;
    const Expr *Size = VLA->getSizeExpr();
    if (!Size || !Size->getType()->isIntegerType())
      return fail(Use->getBeginLoc(), "'" + FB.Name + "' has a variable-length row of unknown size"),
             nullptr;
    std::vector<const VarDecl *> SizeVars;
    std::function<bool(const Stmt *)> Collect = [&](const Stmt *S) {
      if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
        const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
        if (!Var || !Var->hasLocalStorage())
          return false;
        SizeVars.push_back(Var);
      }
      for (const Stmt *Child : S->children())
        if (Child && !Collect(Child))
          return false;
      return true;
    };
    bool Fixed = Collect(Size) && FunctionBody;
    for (const VarDecl *Var : SizeVars)
      Fixed = Fixed && !LoopVars.count(Var) && !Counters.count(Var) && !Locals.count(Var) &&
              !mayModify(FunctionBody, Var);
    if (!Fixed)
      return fail(Use->getBeginLoc(), "the row length '" + sourceText(Size) + "' of '" + FB.Name +
                                          "' may change before the nest (C evaluates it once, "
                                          "where it is declared)"),
             nullptr;
    ir::Expr Length = translate(Size);
    if (!Length)
      return nullptr;
    FB.DeclaredShape.push_back(Length->Type == ir::DType::Int32 ? Length
                                                               : ir::makeCast(ir::DType::Int32, Length));
    Elem = VLA->getElementType();
  }
  if (!dtypeOf(Elem, Ctx, FB.Type))
    return fail(Use->getBeginLoc(), "'" + FB.Name + "' has unsupported element type '" +
                                        Elem.getAsString() + "'"),
           nullptr;
  FB.Placeholder = ir::makeBuffer(FB.Name, FB.Type, {});
  FB.Order = Buffers.size();
  BufferIndex[Key] = Buffers.size();
  Buffers.push_back(FB);
  return &Buffers.back();
}

ir::Var NestExtractor::freeScalar(const ValueDecl *D, const Expr *Use, bool Capture,
                                  const MemberSteps &Members) {
  std::string Key = freeKey(D, Members);
  auto It = ScalarIndex.find(Key);
  if (It != ScalarIndex.end()) {
    FreeScalar &S = Scalars[It->second];
    S.RefersToCapture = S.RefersToCapture || Capture;
    if (before(Use->getBeginLoc(), S.FirstUse))
      S.FirstUse = Use->getBeginLoc();
    return S.Value;
  }
  ir::DType DT;
  QualType T = Members.empty() ? D->getType() : Members.back().Type;
  if (!dtypeOf(T, Ctx, DT))
    return fail(Use->getBeginLoc(), "'" + freeSpelling(D, Members) +
                                        "' has unsupported type '" + T.getAsString() + "'"),
           nullptr;
  FreeScalar S;
  S.Decl = D;
  S.Members = Members;
  S.RefersToCapture = Capture;
  S.FirstUse = Use->getBeginLoc();
  S.Value = ir::makeVar(freeName(D, Members), DT);
  S.Order = Scalars.size();
  ScalarIndex[Key] = Scalars.size();
  Scalars.push_back(S);
  return S.Value;
}

//===----------------------------------------------------------------------===//
// Finishing: aliasing, shapes, parameters
//===----------------------------------------------------------------------===//

/// The pointer a local pointer was initialized from (`float *B = A + 4;` ->
/// A), or null when it is not derived from a named pointer or array.
const ValueDecl *derivedFrom(const ValueDecl *D) {
  const auto *VD = dyn_cast<VarDecl>(D);
  if (!VD || isa<ParmVarDecl>(VD) || !VD->hasLocalStorage() || !VD->getInit())
    return nullptr;
  const Expr *E = VD->getInit();
  while (E) {
    E = E->IgnoreParenCasts();
    if (const auto *B = dyn_cast<BinaryOperator>(E)) {
      E = B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS();
      continue;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E)) {
      E = U->getSubExpr();
      continue;
    }
    if (const auto *ASE = dyn_cast<ArraySubscriptExpr>(E)) {
      E = ASE->getBase();
      continue;
    }
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      return Ref->getDecl();
    return thisFieldOf(E);
  }
  return nullptr;
}

bool NestExtractor::checkDerivedPointers() {
  // Each buffer's chain of origins: itself, what it was derived from, ...
  std::vector<std::vector<const ValueDecl *>> Origins;
  for (const FreeBuffer &FB : Buffers) {
    std::vector<const ValueDecl *> Chain{FB.Decl};
    while (const ValueDecl *From = derivedFrom(Chain.back())) {
      if (std::find(Chain.begin(), Chain.end(), From) != Chain.end())
        break;
      Chain.push_back(From);
    }
    Origins.push_back(Chain);
  }
  for (size_t I = 0; I < Buffers.size(); ++I)
    for (size_t J = 0; J < Buffers.size(); ++J) {
      if (I == J || Origins[I].size() < 2)
        continue;
      for (const ValueDecl *Origin : Origins[J]) {
        if (std::find(Origins[I].begin() + 1, Origins[I].end(), Origin) == Origins[I].end())
          continue;
        return fail(Buffers[I].FirstUse, "pointer '" + Buffers[I].Name + "' is derived from '" +
                                             Origin->getNameAsString() +
                                             "'; aliasing cannot be ruled out");
      }
    }
  return true;
}

bool NestExtractor::finishBuffers(std::vector<extract::FlatLayout> &Layouts,
                                  BufferRewriter &Rewriter) {
  Layouts.reserve(Buffers.size());
  // Triangular and clamped loops bound their layouts by the nest's hull.
  const ir::VarRanges Box = extract::polynomialBox(LoopRanges);
  const ir::VarRanges SizeBox = extract::polynomialBox(LoopRanges, /*PreferConstant=*/false);
  for (FreeBuffer &FB : Buffers) {
    std::vector<ir::Expr> Shape = FB.DeclaredShape;
    const extract::FlatLayout *Layout = nullptr;
    if (!FB.FirstDimKnown && !FB.DeclaredShape.empty()) {
      ir::Expr First;
      if (extract::someIndexIsNegative(FB.FirstIndices, LoopRanges) &&
          extract::someIndexIsNegative(FB.FirstIndices, Box))
        return fail(FB.FirstUse, "an index of '" + FB.Name + "' is negative");
      if (!extract::extentCovering(FB.FirstIndices, LoopRanges, First) &&
          !extract::extentCovering(FB.FirstIndices, Box, First))
        return fail(FB.FirstUse, "cannot bound the indices of '" + FB.Name + "'");
      Shape.insert(Shape.begin(), First);
    } else if (FB.isFlat()) {
      // An array's size is known: its indices need no bounding (an index
      // outside it is out of bounds in the loop as written, too).
      // A pointer may be indexed below zero (it may point into the middle
      // of an array): the launcher's copy region then starts below it.
      ir::Expr DeclaredSize = FB.FirstDimKnown ? FB.DeclaredShape[0] : nullptr;
      Layouts.emplace_back();
      // The exact ranges first; the hull where they use min/max or enclosing
      // counters that the layout's polynomials cannot: by the constant arms
      // of min/max, or where that layout needs a run-time assumption, by the
      // other arms if theirs needs none.
      bool Chosen =
          extract::FlatLayout::choose(FB.FlatIndices, LoopRanges, DeclaredSize, Layouts.back());
      if (!Chosen) {
        Chosen = extract::FlatLayout::choose(FB.FlatIndices, Box, DeclaredSize,
                                             (Layouts.back() = extract::FlatLayout()));
        extract::FlatLayout BySize;
        if ((!Chosen || !Layouts.back().Assumptions.empty()) &&
            extract::FlatLayout::choose(FB.FlatIndices, SizeBox, DeclaredSize, BySize) &&
            BySize.Assumptions.empty()) {
          Layouts.back() = BySize;
          Chosen = true;
        }
      }
      if (!Chosen)
        return fail(FB.FirstUse, "cannot bound the indices of '" + FB.Name + "'");
      Layout = &Layouts.back();
      Shape = Layout->Shape;
    }
    auto Final = std::make_shared<ir::BufferNode>(FB.Name, FB.Type, Shape, ir::Scope::Global);
    Final->NoAlias = FB.NoAlias;
    Rewriter.Targets[FB.Placeholder.get()] = {Final, Layout};
  }
  return true;
}

bool NestExtractor::run(const ForStmt *Loop, const std::string &NestName, ExtractedNest &Out) {
  Out = ExtractedNest();
  Root = Loop;
  ir::Stmt Body = translateFor(Loop);
  if (Failed || !Body || !checkDerivedPointers() || !finishCounters(Out))
    return false;
  std::vector<extract::FlatLayout> Layouts;
  BufferRewriter Rewriter;
  if (!finishBuffers(Layouts, Rewriter))
    return false;
  Body = Rewriter.mutate(Body);
  for (const extract::FlatLayout &L : Layouts)
    for (const ir::Expr &A : L.Assumptions)
      extract::addAssumption(Out.Nest.Assumptions, A);

  // Buffers first, then scalars, each in order of first appearance.
  // Ties (same location) keep translation order.
  auto ByFirstUse = [&](const auto &A, const auto &B) {
    if (before(A.FirstUse, B.FirstUse) || before(B.FirstUse, A.FirstUse))
      return before(A.FirstUse, B.FirstUse);
    return A.Order < B.Order;
  };
  std::sort(Buffers.begin(), Buffers.end(), ByFirstUse);
  std::sort(Scalars.begin(), Scalars.end(), ByFirstUse);
  for (const FreeBuffer &FB : Buffers) {
    ir::Param P;
    P.ParamKind = ir::Param::Kind::Buffer;
    P.Buf = Rewriter.Targets[FB.Placeholder.get()].Final;
    Out.Nest.Params.push_back(P);
    Out.Bindings.push_back({FB.Decl, FB.Members, FB.Kind, FB.RefersToCapture});
  }
  for (const FreeScalar &S : Scalars) {
    ir::Param P;
    P.ParamKind = ir::Param::Kind::Scalar;
    P.Scalar = S.Value;
    Out.Nest.Params.push_back(P);
    Out.Bindings.push_back(
        {S.Decl, S.Members, LaunchDescriptor::ArgKind::Scalar, S.RefersToCapture});
  }
  // Parameters are matched by name: a member's name (`p_x` for `p->x`) must
  // not be another variable's.
  std::set<std::string> Names;
  for (const ir::Param &P : Out.Nest.Params)
    if (!Names.insert(P.name()).second)
      return fail(Loop->getBeginLoc(), "two values the nest uses would both be parameter '" +
                                           P.name() + "'");
  Out.Nest.Name = NestName;
  // Named, not left empty, so the dumps say which target the nest is for;
  // a target(...) directive replaces it.
  Out.Nest.Target = defaultTarget().Name;
  Out.Nest.Body = Body;
  PresumedLoc PLoc = Ctx.getSourceManager().getPresumedLoc(Loop->getBeginLoc());
  if (PLoc.isValid()) {
    Out.Nest.SourceFile = PLoc.getFilename();
    Out.Nest.SourceLine = PLoc.getLine();
  }
  return true;
}

} // namespace

const VarDecl *loopCounter(const ForStmt *F, const Expr **InitValue) {
  const VarDecl *IV = nullptr;
  const Expr *Value = nullptr;
  if (const auto *DS = dyn_cast_or_null<DeclStmt>(F->getInit())) {
    if (DS->isSingleDecl())
      if ((IV = dyn_cast<VarDecl>(DS->getSingleDecl())))
        Value = IV->getInit();
  } else if (const auto *Assign = dyn_cast_or_null<BinaryOperator>(F->getInit())) {
    if (Assign->getOpcode() == BO_Assign && (IV = varOf(Assign->getLHS())))
      Value = Assign->getRHS();
  }
  if (InitValue)
    *InitValue = Value;
  return IV;
}

std::string uniqueLoopName(const std::string &Base, std::set<std::string> &Used) {
  std::string Name = Base.empty() ? "v" : Base;
  for (int Suffix = 1; Used.count(Name); ++Suffix)
    Name = Base + "_" + std::to_string(Suffix);
  Used.insert(Name);
  return Name;
}

bool extractNest(const ForStmt *Loop, const std::string &NestName, const Stmt *FunctionBody,
                 ASTContext &Ctx, SchedDiagnostics &Diags, ExtractedNest &Out) {
  if (!Loop)
    return false;
  NestExtractor Extractor(Ctx, Diags, FunctionBody);
  return Extractor.run(Loop, NestName, Out);
}

} // namespace sched
