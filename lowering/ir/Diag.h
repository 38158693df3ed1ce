//===- Diag.h - A diagnostic from scheduling or lowering --------*- C++ -*-===//
//
// The one error sink of the compiler's libraries: schedule primitives,
// passes (Pass.h's contract), verifiers and emitters append Diags, and the
// frontend (the plugin, sched-opt) reports them. No Clang types here:
// locations are opaque ids the frontend maps back to SourceLocations.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_DIAG_H
#define SCHED_IR_DIAG_H

#include <string>

namespace sched {

/// A diagnostic from scheduling or lowering, reported by the frontend through
/// Clang's DiagnosticsEngine at Loc (a DirectiveArg or Directive Loc id, or -1
/// for the nest's pragma).
struct Diag {
  enum class Level { Error, Warning, Remark } Severity = Level::Error;
  int Loc = -1;
  std::string Message;
  /// A warning's flag without -W (`sched-ignored`; see the plugin's
  /// Diagnostics.h for the groups), so `-Wno-…` can silence it.
  std::string Flag;
};

} // namespace sched

#endif
