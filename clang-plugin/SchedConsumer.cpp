//===- SchedConsumer.cpp - The AST consumer that schedules nests ----------===//
//
// For each top-level declaration (functions, classes with inline members,
// lambdas inside them, and each template instantiation, which Sema hands over
// separately) the consumer finds the `for` statements that start right after
// a `#pragma sched` group, skipping dependent code: only instantiations have
// types to schedule. Each nest then goes through
//   extract -> schedule -> lower -> emit CUDA -> descriptor -> replace,
// with the dumps the options ask for between stages. A stage that fails
// leaves the loop as written and says why; nothing here aborts. Before the
// descriptor is built, checkLaunchExprs makes sure the launcher can evaluate
// everything it must (geometry, regions, assumptions) from scalar arguments:
// otherwise it is an internal error, reported here, never a launch failure.
//
//===----------------------------------------------------------------------===//

#include "SchedConsumer.h"
#include "Extractor.h"
#include "NestReplacer.h"

#include "Pipeline.h"
#include "codegen/CodeGenCUDA.h"
#include "codegen/LaunchDescriptor.h"
#include "ir/Printer.h"
#include "passes/PassUtil.h"
#include "schedule/Schedule.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Sema/SemaConsumer.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <map>
#include <set>

using namespace clang;

namespace sched {
namespace {

/// A `for` statement that follows a pragma group, where it was found.
struct FoundNest {
  ForStmt *Loop;
  PragmaGroup *Group;
  const DeclContext *Function; // the function or lambda operator holding it
};

/// Collects the annotated loops of one declaration, outside dependent code.
class NestFinder : public RecursiveASTVisitor<NestFinder> {
public:
  NestFinder(PragmaRecords &Records, DiagnosticsEngine &Diags)
      : Records(Records), Diags(Diags) {}

  bool TraverseDecl(Decl *D) {
    if (!D)
      return true;
    auto *DC = dyn_cast<DeclContext>(D);
    // Patterns of templates (and generic lambdas) have no types to schedule;
    // their instantiations arrive on their own. Invalid code is not touched.
    if ((DC && DC->isDependentContext()) || D->isInvalidDecl()) {
      markPatternLoops(D);
      return true;
    }
    const DeclContext *Saved = Function;
    if (auto *FD = dyn_cast<FunctionDecl>(D))
      Function = FD;
    bool Result = RecursiveASTVisitor::TraverseDecl(D);
    Function = Saved;
    return Result;
  }

  bool TraverseLambdaExpr(LambdaExpr *LE, DataRecursionQueue *Queue = nullptr) {
    CXXMethodDecl *Op = LE->getCallOperator();
    if (Op->isDependentContext()) {
      markPatternLoops(Op);
      return true;
    }
    const DeclContext *Saved = Function;
    Function = Op;
    bool Result = RecursiveASTVisitor::TraverseLambdaExpr(LE, Queue);
    Function = Saved;
    return Result;
  }

  /// A pragma in a macro expansion matches every `for` of that expansion
  /// after it: the nest is the outermost one, so the loops inside it are not
  /// matched again. (No data-recursion queue: the children are traversed
  /// before Outer is restored.)
  bool TraverseForStmt(ForStmt *Loop) {
    PragmaGroup *Group = Records.groupForLoop(Loop->getForLoc());
    bool Inner = Group && Outer.count(Group);
    if (Group && !Inner)
      Outer[Group] = Loop;
    bool Result = RecursiveASTVisitor::TraverseForStmt(Loop);
    if (Group && !Inner)
      Outer.erase(Group);
    return Result;
  }

  bool VisitForStmt(ForStmt *Loop) {
    PragmaGroup *Group = Records.groupForLoop(Loop->getForLoc());
    if (Group && Outer[Group] == Loop) {
      Group->Matched = true;
      Found.push_back({Loop, Group, Function});
    }
    return true;
  }

  /// A range-based for cannot be scheduled (no induction variable to name):
  /// say so instead of claiming that no loop follows the pragma.
  bool VisitCXXForRangeStmt(CXXForRangeStmt *Loop) {
    PragmaGroup *Group = Records.groupForLoop(Loop->getForLoc());
    if (Group && !Group->Reported) {
      Group->Matched = Group->Reported = true;
      Diags.Report(Loop->getForLoc(),
                Diags.getCustomDiagID(DiagnosticsEngine::Warning,
                                   "'#pragma sched' cannot schedule a range-based for "
                                   "loop; write it as 'for (int i = 0; i < n; ++i)'; "
                                   "ignored"));
    }
    return true;
  }

  std::vector<FoundNest> Found;

private:
  /// A pragma above a loop of a template that is never instantiated is still
  /// above a loop: remember that, so no "not followed by a loop" warning.
  void markPatternLoops(Decl *D);

  PragmaRecords &Records;
  DiagnosticsEngine &Diags;
  const DeclContext *Function = nullptr;
  std::map<const PragmaGroup *, const ForStmt *> Outer; // loops being traversed
};

/// Marks the pragma groups whose loops lie in a dependent declaration.
class PatternMarker : public RecursiveASTVisitor<PatternMarker> {
public:
  explicit PatternMarker(PragmaRecords &Records) : Records(Records) {}
  bool VisitForStmt(ForStmt *Loop) { return mark(Loop->getForLoc()); }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *Loop) { return mark(Loop->getForLoc()); }

private:
  bool mark(SourceLocation ForLoc) {
    if (PragmaGroup *Group = Records.groupForLoop(ForLoc))
      Group->Matched = true;
    return true;
  }

  PragmaRecords &Records;
};

void NestFinder::markPatternLoops(Decl *D) { PatternMarker(Records).TraverseDecl(D); }

/// Maps schedule-library location ids onto source locations. The directives
/// of all lines of a group are renumbered into one table.
class LocationTable {
public:
  explicit LocationTable(const PragmaGroup &Group) : Fallback(Group.Lines.front()->TextStart) {
    for (const PragmaLine *Line : Group.Lines)
      for (Directive D : Line->Directives) {
        D.Loc = intern(Line->locationOf(D.Loc));
        for (DirectiveArg &Arg : D.Args)
          Arg.Loc = intern(Line->locationOf(Arg.Loc));
        Directives.push_back(std::move(D));
      }
  }

  SourceLocation get(int Id) const {
    return Id >= 0 && static_cast<size_t>(Id) < Locs.size() ? Locs[Id] : Fallback;
  }

  std::vector<Directive> Directives;

private:
  int intern(SourceLocation Loc) {
    Locs.push_back(Loc);
    return static_cast<int>(Locs.size() - 1);
  }

  std::vector<SourceLocation> Locs;
  SourceLocation Fallback;
};

DiagnosticsEngine::Level levelOf(Diag::Level L) {
  switch (L) {
  case Diag::Level::Error: return DiagnosticsEngine::Error;
  case Diag::Level::Warning: return DiagnosticsEngine::Warning;
  case Diag::Level::Remark: return DiagnosticsEngine::Remark;
  }
  return DiagnosticsEngine::Error;
}

/// Joins the messages of Diags for a one-line reason.
std::string joinMessages(const std::vector<Diag> &Diags) {
  std::string Out;
  for (const Diag &D : Diags)
    Out += (Out.empty() ? "" : "; ") + D.Message;
  return Out.empty() ? "no reason given" : Out;
}

class SchedConsumer : public SemaConsumer {
public:
  SchedConsumer(CompilerInstance &CI, const PluginOptions &Opts,
                std::shared_ptr<PragmaRecords> Records)
      : CI(CI), Opts(Opts), Records(std::move(Records)) {}

  void InitializeSema(Sema &S) override { SemaRef = &S; }
  void ForgetSema() override { SemaRef = nullptr; }

  bool HandleTopLevelDecl(DeclGroupRef DG) override {
    for (Decl *D : DG)
      handleDecl(D);
    return true;
  }

  void HandleTranslationUnit(ASTContext &) override { warnUnusedPragmas(); }

private:
  void handleDecl(Decl *D);
  void handleNest(Decl *Root, const FoundNest &Found);
  std::string nestName(const ForStmt *Loop);
  void dump(const std::string &Name, const std::string &Stage, const std::string &Text);
  void report(const LocationTable &Locs, const std::vector<Diag> &Diags);
  bool buildArgs(const LoweredKernel &K, const ExtractedNest &Ex, SourceLocation Loc,
                 std::vector<LaunchDescriptor::ArgKind> &Kinds,
                 std::vector<ParamBinding> &Args);
  void emitFiles(const std::string &Name, const LaunchDescriptor &Desc,
                 const std::string &Text, SourceLocation Loc);
  void warnUnusedPragmas();

  template <unsigned N>
  unsigned customID(DiagnosticsEngine::Level L, const char (&Format)[N]) {
    return CI.getDiagnostics().getCustomDiagID(L, Format);
  }

  CompilerInstance &CI;
  PluginOptions Opts;
  std::shared_ptr<PragmaRecords> Records;
  Sema *SemaRef = nullptr;
  std::set<const ForStmt *> Done;          // each loop is handled once
  std::map<std::string, unsigned> NameUses; // base name -> times used
};

void SchedConsumer::handleDecl(Decl *D) {
  NestFinder Finder(*Records, CI.getDiagnostics());
  Finder.TraverseDecl(D);
  for (const FoundNest &Found : Finder.Found)
    if (Done.insert(Found.Loop).second)
      handleNest(D, Found);
}

std::string SchedConsumer::nestName(const ForStmt *Loop) {
  PresumedLoc P = CI.getSourceManager().getPresumedLoc(Loop->getForLoc());
  std::string Stem = P.isValid() ? llvm::sys::path::stem(P.getFilename()).str() : "nest";
  std::string Base = "sched_" + passes::cIdentifier(Stem, "nest", "") + "_" +
                     std::to_string(P.isValid() ? P.getLine() : 0);
  unsigned Uses = NameUses[Base]++;
  return Uses == 0 ? Base : Base + "_" + std::to_string(Uses);
}

void SchedConsumer::dump(const std::string &Name, const std::string &Stage,
                         const std::string &Text) {
  llvm::outs() << "// sched: " << Name << " after " << Stage << "\n" << Text;
  if (!Text.empty() && Text.back() != '\n')
    llvm::outs() << "\n";
  llvm::outs().flush();
}

void SchedConsumer::report(const LocationTable &Locs, const std::vector<Diag> &Diags) {
  for (const Diag &D : Diags)
    CI.getDiagnostics().Report(Locs.get(D.Loc), customID(levelOf(D.Severity), "%0"))
        << D.Message;
}

bool SchedConsumer::buildArgs(const LoweredKernel &K, const ExtractedNest &Ex,
                              SourceLocation Loc,
                              std::vector<LaunchDescriptor::ArgKind> &Kinds,
                              std::vector<ParamBinding> &Args) {
  // Lowering may reorder or drop parameters: match them by name.
  for (const ir::Param &P : K.Kernel.Params) {
    const ParamBinding *Binding = nullptr;
    for (size_t I = 0; I < Ex.Nest.Params.size() && I < Ex.Bindings.size(); ++I)
      if (Ex.Nest.Params[I].name() == P.name())
        Binding = &Ex.Bindings[I];
    if (!Binding || !Binding->Decl) {
      CI.getDiagnostics().Report(
          Loc, customID(DiagnosticsEngine::Warning,
                        "sched: cannot lower nest: kernel parameter '%0' has no "
                        "variable in the program; the loop stays as written"))
          << P.name();
      return false;
    }
    Kinds.push_back(Binding->Kind);
    Args.push_back(*Binding);
  }
  return true;
}

void SchedConsumer::emitFiles(const std::string &Name, const LaunchDescriptor &Desc,
                              const std::string &Text, SourceLocation Loc) {
  auto Write = [&](const std::string &Ext, const std::string &Contents) {
    llvm::SmallString<256> Path(Opts.EmitDir);
    llvm::sys::path::append(Path, Name + Ext);
    std::error_code EC = llvm::sys::fs::create_directories(Opts.EmitDir);
    if (!EC) {
      llvm::raw_fd_ostream OS(Path, EC);
      if (!EC)
        OS << Contents;
    }
    if (EC)
      CI.getDiagnostics().Report(Loc, customID(DiagnosticsEngine::Error,
                                               "sched: cannot write '%0': %1"))
          << Path.str() << EC.message();
  };
  Write(".cu", Desc.CUDASource);
  Write(".desc", Text);
}

void SchedConsumer::handleNest(Decl *Root, const FoundNest &Found) {
  PragmaGroup &Group = *Found.Group;
  if (!Group.Parsed || !SemaRef)
    return; // the parse errors are already reported
  ASTContext &Ctx = CI.getASTContext();
  SourceLocation ForLoc = Found.Loop->getForLoc();
  std::string Name = nestName(Found.Loop);
  LocationTable Locs(Group);

  ExtractedNest Ex;
  if (!extractNest(Found.Loop, Name, Ctx, CI.getDiagnostics(), Ex))
    return; // extractNest said why
  PresumedLoc P = CI.getSourceManager().getPresumedLoc(ForLoc);
  if (Ex.Nest.SourceFile.empty() && P.isValid()) {
    Ex.Nest.SourceFile = P.getFilename();
    Ex.Nest.SourceLine = P.getLine();
  }
  if (Opts.DumpIR || Opts.PrintAfterAll)
    dump(Name, "ir", ir::print(Ex.Nest));

  ir::LoopNest Scheduled = Ex.Nest;
  std::vector<Diag> Diags;
  bool Applied = applySchedule(Scheduled, Locs.Directives, Diags);
  report(Locs, Diags);
  if (!Applied)
    return;
  if (Opts.DumpScheduled || Opts.PrintAfterAll)
    dump(Name, "scheduled", ir::print(Scheduled));

  PipelineOptions PipeOpts;
  PipeOpts.VerifyEach = Opts.VerifyEach;
  if (Opts.PrintAfterAll)
    PipeOpts.AfterPass = [&](const std::string &Pass, const ir::LoopNest &N) {
      dump(Name, Pass, ir::print(N));
    };
  LaunchDescriptor Desc;
  Diags.clear();
  bool Lowered = lower(Scheduled, PipeOpts, Desc.Kernel, Diags);
  if (!Lowered) {
    // The caret goes to the directive an error names (a cache stage whose
    // region cannot be bounded: its cache_read), else to the loop.
    SourceLocation Where = ForLoc;
    for (const Diag &D : Diags)
      if (D.Loc >= 0) {
        Where = Locs.get(D.Loc);
        break;
      }
    CI.getDiagnostics().Report(Where, customID(DiagnosticsEngine::Warning,
                                                "sched: cannot lower nest: %0; the "
                                                "loop stays as written"))
        << joinMessages(Diags);
    return;
  }
  report(Locs, Diags); // remarks and warnings of a successful lowering
  if (Opts.DumpLowered || Opts.PrintAfterAll)
    dump(Name, "lowered", ir::print(Desc.Kernel.Kernel));

  Desc.CUDASource = emitCUDA(Desc.Kernel);
  if (Opts.DumpCUDA || Opts.PrintAfterAll)
    dump(Name, "cuda", Desc.CUDASource);

  std::string Error;
  if (!checkLaunchExprs(Desc.Kernel, Error)) {
    CI.getDiagnostics().Report(ForLoc, customID(DiagnosticsEngine::Warning,
                                                "sched: internal error: %0; the loop "
                                                "stays as written"))
        << Error;
    return;
  }
  std::vector<ParamBinding> Args;
  if (!buildArgs(Desc.Kernel, Ex, ForLoc, Desc.ArgKinds, Args))
    return;
  std::string Text = serializeDescriptor(Desc);
  if (!Opts.EmitDir.empty())
    emitFiles(Name, Desc, Text, ForLoc);

  if (!replaceNestWithLaunch(*SemaRef, Root, Found.Loop, Found.Function, Text, Args, Error))
    CI.getDiagnostics().Report(ForLoc, customID(DiagnosticsEngine::Warning,
                                                "sched: cannot replace nest '%0': %1; "
                                                "the loop stays as written"))
        << Name << Error;
}

void SchedConsumer::warnUnusedPragmas() {
  for (const auto &Group : Records->groups())
    if (!Group->Matched)
      CI.getDiagnostics().Report(
          Group->Lines.front()->IntroducerLoc,
          customID(DiagnosticsEngine::Warning,
                   "'#pragma sched' must be followed by a for loop; ignored"));
}

} // namespace

std::unique_ptr<ASTConsumer> createSchedConsumer(CompilerInstance &CI,
                                                 const PluginOptions &Opts,
                                                 std::shared_ptr<PragmaRecords> Records) {
  return std::make_unique<SchedConsumer>(CI, Opts, std::move(Records));
}

} // namespace sched
