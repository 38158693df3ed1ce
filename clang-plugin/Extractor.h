//===- Extractor.h - Clang AST loop nest -> scheduling IR ------*- C++ -*-===//
//
// Turns the `for` statement under a `#pragma sched` into an ir::LoopNest.
// What it cannot represent exactly (non-affine or indirect index, calls with
// side effects, break/return/goto, non-canonical loops, aliasing it cannot rule
// out, ...) is reported as a warning at the construct, naming it, and the
// extraction fails: the caller then leaves the loop as written.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_PLUGIN_EXTRACTOR_H
#define SCHED_PLUGIN_EXTRACTOR_H

#include "ir/LaunchDescriptor.h"
#include "ir/IR.h"

#include "clang/AST/Type.h"

#include <set>
#include <string>

namespace clang {
class ASTContext;
class DiagnosticsEngine;
class Expr;
class FieldDecl;
class ForStmt;
class ValueDecl;
class VarDecl;
} // namespace clang

namespace sched {

class SchedDiagnostics;

/// Where the value of one kernel parameter comes from in the C++ program.
struct ParamBinding {
  /// The VarDecl / ParmVarDecl named in the nest, or a FieldDecl when the nest
  /// uses a member of `*this` (the launcher passes &this->field).
  const clang::ValueDecl *Decl = nullptr;
  /// A member of a struct the nest uses (`p.x`, `p->n`, `s.in.v`): the
  /// member accesses applied to Decl, outermost first, with the type of each
  /// access as the nest has it. The launcher passes the address of the last.
  struct MemberStep {
    const clang::FieldDecl *Field = nullptr;
    bool IsArrow = false;
    clang::QualType Type;
  };
  std::vector<MemberStep> Members;
  LaunchDescriptor::ArgKind Kind = LaunchDescriptor::ArgKind::Scalar;
  /// The nest's DeclRefExprs to Decl had refersToEnclosingVariableOrCapture()
  /// (a lambda capture): the launcher's DeclRefExpr must say so too.
  bool RefersToCapture = false;
};

struct ExtractedNest {
  ir::LoopNest Nest;
  std::vector<ParamBinding> Bindings; // parallel to Nest.Params
  /// The variables declared outside the nest that it assigns (C89 loop
  /// counters), with what the original loop leaves in each: the launcher
  /// stores it after a kernel ran (LaunchDescriptor::Finals). Parallel.
  std::vector<ParamBinding> FinalBindings;
  std::vector<LaunchDescriptor::FinalValue> Finals;
};

/// The counter of loop F, `i` of `int i = a` or `i = a` (null for any other
/// init), and its first value (through InitValue when given).
const clang::VarDecl *loopCounter(const clang::ForStmt *F,
                                  const clang::Expr **InitValue = nullptr);

/// The name of a loop whose counter is called Base, given the names Used so
/// far in the nest (which it joins): Base, then Base_1, Base_2, ... for later
/// loops of the same name, in source order. Directives name loops by it.
std::string uniqueLoopName(const std::string &Base, std::set<std::string> &Used);

/// Extracts Loop. NestName is the unique kernel name to use. FunctionBody is
/// the body of the function holding Loop (null: unknown), searched for reads
/// of the variables the nest assigns. On failure emits the warning(s)
/// through Diags and returns false.
bool extractNest(const clang::ForStmt *Loop, const std::string &NestName,
                 const clang::Stmt *FunctionBody, clang::ASTContext &Ctx,
                 SchedDiagnostics &Diags, ExtractedNest &Out);

} // namespace sched

#endif
