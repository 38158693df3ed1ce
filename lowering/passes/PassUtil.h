//===- PassUtil.h - Small helpers shared by passes and codegen -*- C++ -*-===//
//
// Questions several passes (and CUDA codegen) ask about expressions and
// thread tags. Kept here so each is answered the same way everywhere.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_PASSES_PASSUTIL_H
#define SCHED_PASSES_PASSUTIL_H

#include "Pipeline.h"
#include "ir/IR.h"
#include <set>
#include <string>

namespace sched {
namespace passes {


/// Name as a C identifier: characters other than letters, digits and '_'
/// become '_' (IR names hold '.', file stems '-'); an empty name becomes
/// IfEmpty, and Prefix goes in front of a name that starts with a digit.
std::string cIdentifier(const std::string &Name, const std::string &IfEmpty,
                        const std::string &Prefix);

/// The scalar parameters of Nest.
std::set<const ir::VarNode *> scalarParams(const ir::LoopNest &Nest);

/// Whether the launcher can evaluate E before the kernel runs: E uses
/// literals and Nest's scalar parameters only (no loop variable, no load, no
/// call). Launch geometry, copy regions and run-time assumptions must be.
bool isLaunchExpr(const ir::Expr &E, const ir::LoopNest &Nest);

/// True when A and B are equal for every value of their variables, as far
/// as the simplifier can tell (false means "not proven", not "different").
bool provablyEqual(const ir::Expr &A, const ir::Expr &B);


/// The launch extent for Tag in Geometry (null for an unknown tag).
ir::Expr launchExtent(const LaunchGeometry &Geometry, const std::string &Tag);

} // namespace passes
} // namespace sched

#endif
