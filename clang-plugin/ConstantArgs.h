//===- ConstantArgs.h - Tile sizes named by constants -----------*- C++ -*-===//
//
// A performance engineer keeps tile sizes in one place: `constexpr int TS =
// 64;`, a template parameter, an enumerator or `#define TS 64`. The directive
// parser lets a factor, nparts or offset argument be a name (with
// ConstantNames), or an expression over names (`TS*2`); before the schedule is
// applied the plugin replaces each with the value Clang gives the names at the
// nest, in the function as
// instantiated, so every instantiation of a template gets its own tile size.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_PLUGIN_CONSTANTARGS_H
#define SCHED_PLUGIN_CONSTANTARGS_H

#include "schedule/Schedule.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace sched {

/// Replaces the text of each number argument of Directives that names
/// constants (a name, or an expression over names: `TS*2`, `(N+1)/2`) with
/// its value (evaluateFactorExpression). A name is an object-like macro of
/// Macros (as defined at the pragma) whose replacement is such an expression,
/// a template parameter of Function's instantiation (or of its class's), a
/// constant local declared in Function before Loop, or a constant or
/// enumerator of an enclosing scope. Appends an error at a name that is none
/// of these or not an integer constant, or at the operator of an arithmetic
/// error (LocAt(Loc, Offset): the location id of the byte Offset bytes into
/// the argument at Loc); returns false then.
bool resolveConstantArgs(std::vector<Directive> &Directives,
                         const std::map<std::string, std::string> &Macros,
                         const clang::FunctionDecl *Function, const clang::Stmt *Loop,
                         clang::ASTContext &Ctx,
                         const std::function<int(int Loc, unsigned Offset)> &LocAt,
                         std::vector<Diag> &Diags);

} // namespace sched

#endif
