//===- Plugin.cpp - The sched Clang plugin action and its options ---------===//
//
// Registers the plugin `sched` (options: -fplugin-arg-sched-<opt>). It runs
// before the main action so the nests are replaced before CodeGen sees them.
// The `#pragma sched` handler is registered here, per compilation, and not in
// the static PragmaHandlerRegistry: that registry also applies under -E, which
// would swallow the pragmas and make -save-temps builds lose every schedule.
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"
#include "PluginOptions.h"
#include "PragmaHandler.h"
#include "SchedConsumer.h"
#include "targets/Target.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendPluginRegistry.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringRef.h"

using namespace clang;

namespace sched {
namespace {

std::string validOptions() {
  std::string Stages = "ir|scheduled|lowered";
  for (const TargetDescription *T : registeredTargets())
    if (!T->EmitKind.empty())
      Stages += "|" + T->EmitKind;
  return "dump=" + Stages + ", print-after-all, verify-each, emit-dir=DIR, arch=" +
         targetArchNames() + ", embed=0|1, embed-archs=ARCH,ARCH..., report";
}

/// Applies one `dump=` stage; false for an unknown stage.
bool applyDump(llvm::StringRef Stage, PluginOptions &Opts) {
  if (Stage == "ir")
    Opts.DumpIR = true;
  else if (Stage == "scheduled")
    Opts.DumpScheduled = true;
  else if (Stage == "lowered")
    Opts.DumpLowered = true;
  else if (targetWithEmitKind(Stage.str()))
    Opts.DumpEmitted.insert(Stage.str());
  else
    return false;
  return true;
}

/// Applies one plugin argument; false when it is not a valid option.
bool applyOption(llvm::StringRef Arg, PluginOptions &Opts) {
  if (Arg == "print-after-all") {
    Opts.PrintAfterAll = true;
    return true;
  }
  if (Arg == "verify-each") {
    Opts.VerifyEach = true;
    return true;
  }
  if (Arg == "report") {
    Opts.Report = true;
    return true;
  }
  if (Arg.consume_front("dump="))
    return applyDump(Arg, Opts);
  if (Arg.consume_front("emit-dir=")) {
    Opts.EmitDir = Arg.str();
    return !Arg.empty();
  }
  if (Arg.consume_front("arch="))
    return parseTargetArch(Arg.str(), Opts.Arch);
  if (Arg.consume_front("embed=")) {
    Opts.Embed = Arg == "1";
    return Arg == "0" || Arg == "1";
  }
  if (Arg.consume_front("embed-archs=")) {
    Opts.EmbedArchs.clear();
    llvm::SmallVector<llvm::StringRef, 4> Names;
    Arg.split(Names, ',');
    for (llvm::StringRef Name : Names) {
      TargetArch A;
      if (!parseTargetArch(Name.str(), A))
        return false;
      Opts.EmbedArchs.push_back(A);
    }
    return !Opts.EmbedArchs.empty();
  }
  return false;
}

class SchedAction : public PluginASTAction {
protected:
  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 llvm::StringRef) override {
    auto Records = std::make_shared<PragmaRecords>();
    // The Preprocessor owns (and deletes) the handler.
    CI.getPreprocessor().AddPragmaHandler(createSchedPragmaHandler(Records).release());
    auto Diagnostics = std::make_shared<SchedDiagnostics>(CI);
    Diagnostics->trackPragmas(CI.getPreprocessor());
    return createSchedConsumer(CI, Opts, Records, Diagnostics);
  }

  bool ParseArgs(const CompilerInstance &CI, const std::vector<std::string> &Args) override {
    bool Ok = true;
    DiagnosticsEngine &DE = CI.getDiagnostics();
    for (const std::string &Arg : Args)
      if (!applyOption(Arg, Opts)) {
        unsigned ID = DE.getCustomDiagID(DiagnosticsEngine::Error,
                                         "unknown sched plugin option '%0'; valid options: %1");
        DE.Report(ID) << Arg << validOptions();
        Ok = false;
      }
    return Ok;
  }

  ActionType getActionType() override { return AddBeforeMainAction; }

private:
  PluginOptions Opts;
};

} // namespace
} // namespace sched

static FrontendPluginRegistry::Add<sched::SchedAction>
    X("sched", "schedule #pragma sched loop nests onto GPUs");
