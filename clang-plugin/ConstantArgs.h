//===- ConstantArgs.h - Tile sizes named by constants -----------*- C++ -*-===//
//
// A performance engineer keeps tile sizes in one place: `constexpr int TS =
// 64;`, a template parameter, an enumerator or `#define TS 64`. The directive
// parser lets a factor, nparts or offset argument be a name (with
// ConstantNames); before the schedule is applied the plugin replaces each such
// name with the value Clang gives it at the nest, in the function as
// instantiated, so every instantiation of a template gets its own tile size.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_PLUGIN_CONSTANTARGS_H
#define SCHED_PLUGIN_CONSTANTARGS_H

#include "schedule/Schedule.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include <map>
#include <string>
#include <vector>

namespace sched {

/// Replaces the text of each number argument of Directives that names a
/// constant with the constant's value: an object-like macro of Macros (as
/// defined at the pragma) whose replacement is an integer literal or another
/// such name, a template parameter of Function's instantiation (or of its
/// class's), a constant local declared in Function before Loop, or a constant
/// or enumerator of an enclosing scope. Appends an error at the argument for
/// a name that is none of these, or not an integer constant; returns false
/// then.
bool resolveConstantArgs(std::vector<Directive> &Directives,
                         const std::map<std::string, std::string> &Macros,
                         const clang::FunctionDecl *Function, const clang::Stmt *Loop,
                         clang::ASTContext &Ctx, std::vector<Diag> &Diags);

} // namespace sched

#endif
