//===- SchedConsumer.h - The AST consumer that schedules nests -*- C++ -*-===//
#ifndef SCHED_PLUGIN_SCHEDCONSUMER_H
#define SCHED_PLUGIN_SCHEDCONSUMER_H

#include "PluginOptions.h"
#include "PragmaHandler.h"
#include <memory>

namespace clang {
class ASTConsumer;
class CompilerInstance;
} // namespace clang

namespace sched {

class SchedDiagnostics;

/// The consumer that finds each `for` after a `#pragma sched` group, runs it
/// through extraction, scheduling and lowering, and replaces it by a launcher
/// call. Runs before CodeGen (the plugin is AddBeforeMainAction).
std::unique_ptr<clang::ASTConsumer>
createSchedConsumer(clang::CompilerInstance &CI, const PluginOptions &Opts,
                    std::shared_ptr<PragmaRecords> Records,
                    std::shared_ptr<SchedDiagnostics> Diagnostics);

} // namespace sched

#endif
