//===- NestReplacer.h - Swapping a nest for its launcher call --*- C++ -*-===//
//
// After a nest is lowered, the plugin rewrites the AST (before CodeGen sees the
// function) so that the `for` statement becomes
//     if (!__sched_launch("<descriptor>", &p0, &p1, ...)) <the original for>
// The original loop stays as the host fallback.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_PLUGIN_NESTREPLACER_H
#define SCHED_PLUGIN_NESTREPLACER_H

#include "Extractor.h"
#include <string>
#include <vector>

namespace clang {
class Decl;
class DeclContext;
class Sema;
} // namespace clang

namespace sched {

/// Replaces Loop, found somewhere inside Root, by the guarded launcher call.
/// Args are the launcher's pointer arguments in order; Context is the
/// function (or lambda call operator) whose body holds Loop, used to type
/// `this` for member bindings. On failure returns false with Error set and
/// leaves the AST untouched.
bool replaceNestWithLaunch(clang::Sema &S, clang::Decl *Root, clang::ForStmt *Loop,
                           const clang::DeclContext *Context,
                           const std::string &Descriptor,
                           const std::vector<ParamBinding> &Args, std::string &Error);

} // namespace sched

#endif
