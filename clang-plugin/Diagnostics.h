//===- Diagnostics.h - sched warnings that obey Clang's flags ---*- C++ -*-===//
//
// Every diagnostic of the plugin goes through SchedDiagnostics. Clang 19's
// custom diagnostic IDs carry no warning group, and a plugin cannot add
// groups to Clang's static tables, so Clang itself would not let
// `-Wno-sched-fallback` or `#pragma clang diagnostic ignored
// "-Wsched-fallback"` touch them. SchedDiagnostics therefore decides the
// severity of each warning itself, from the same inputs Clang uses, and
// reports it with a custom ID of that level, the flag appended as Clang's
// printer would (`[-Wsched-fallback]`, `[-Werror,-Wsched-fallback]`):
//
//   - the command line, in order: `-Wsched`, `-Wsched-<group>`, their `no-`
//     and `error=`/`no-error=` forms, `-Wno-everything`; then `-w` and
//     `-Werror` as the DiagnosticsEngine has them;
//   - `#pragma clang diagnostic push|pop|ignored|warning|error` in source
//     order up to the warning's location, read by a PPCallbacks tracker that
//     also silences Clang's "unknown warning group" for our groups.
//
// Remarks use Clang's own `-Rpass=<regex>` convention: with `-Rpass=sched`
// they are reported as optimization remarks of the pass "sched" (Clang's
// remark diagnostic, so `-Rno-pass` and pragmas on "-Rpass" work natively).
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_PLUGIN_DIAGNOSTICS_H
#define SCHED_PLUGIN_DIAGNOSTICS_H

#include "clang/Basic/SourceLocation.h"
#include "llvm/ADT/StringRef.h"
#include <memory>
#include <string>
#include <vector>

namespace clang {
class CompilerInstance;
class Preprocessor;
} // namespace clang

namespace sched {

/// The plugin's warning groups; `-Wsched` is all of them.
enum class WarnGroup {
  Fallback, // sched-fallback: a nest kept as the original loop
  Unbound,  // sched-unbound: a GPU nest with no loop bound to blocks or threads
  Ignored,  // sched-ignored: a pragma or directive that has no effect
  Embed,    // sched-embed: a kernel NVRTC could not compile when the program was built
  Report,   // sched-report: no kernel report (-fplugin-arg-sched-report) could be made
};
/// How many groups there are (Diagnostics.cpp checks it against its table).
constexpr unsigned NumWarnGroups = 5;

/// The flag of Group without `-W` (`sched-fallback`).
const char *flagName(WarnGroup Group);

/// The group named by a flag (without `-W`); false for none of ours.
bool groupOfFlag(llvm::StringRef Flag, WarnGroup &Group);

class SchedDiagnostics {
public:
  explicit SchedDiagnostics(clang::CompilerInstance &CI);
  ~SchedDiagnostics();

  /// Starts tracking `#pragma clang diagnostic` in PP (before parsing).
  void trackPragmas(clang::Preprocessor &PP);

  /// Reports Message as a warning of Group at Loc, as an error when the
  /// flags make it one, or not at all when they disable it.
  void warn(WarnGroup Group, clang::SourceLocation Loc, llvm::StringRef Message);
  void error(clang::SourceLocation Loc, llvm::StringRef Message);
  /// A remark the user asked for with a plugin option (the kernel report),
  /// always shown.
  void info(clang::SourceLocation Loc, llvm::StringRef Message);
  /// An optimization remark of pass "sched", shown with -Rpass=sched.
  void remark(clang::SourceLocation Loc, llvm::StringRef Message);
  bool remarksEnabled() const;

  /// One `#pragma clang diagnostic` that concerns the plugin's groups.
  struct PragmaAction {
    enum Kind { Push, Pop, Ignore, Warn, Error } Action;
    clang::SourceLocation Loc;
    std::string Flag; // without -W: a group of ours, "sched" or "everything"
  };

private:
  enum class Severity { Ignored, Warning, Error };
  struct GroupState {
    Severity Sev = Severity::Warning;
    bool NoWarningAsError = false; // -Wno-error=<group>
  };
  struct State {
    GroupState Groups[NumWarnGroups];
  };

  enum class Op { Enable, EnableFromPragma, Disable, MakeError, NoError };
  static void applyFlag(State &S, llvm::StringRef Flag, Op O);
  State commandLineState() const;
  State stateAt(clang::SourceLocation Loc) const;

  clang::CompilerInstance &CI;
  State CommandLine;
  std::shared_ptr<std::vector<PragmaAction>> Pragmas;
};

} // namespace sched

#endif
