//===- SchedConsumer.cpp - The AST consumer that schedules nests ----------===//
//
// For each top-level declaration (functions, classes with inline members,
// lambdas inside them, and each template instantiation, which Sema hands over
// separately) the consumer finds the `for` statements that start right after
// a `#pragma sched` group, skipping dependent code: only instantiations have
// types to schedule. Each nest then goes through
//   extract -> schedule -> compileNest (lower -> emit -> descriptor, by the
//   nest's target description: lowering/Compile.h) -> replace,
// with the dumps the options ask for between stages. A stage that fails
// leaves the loop as written and says why; nothing here aborts. Before the
// descriptor is built, checkLaunchExprs makes sure the launcher can evaluate
// everything it must (geometry, regions, assumptions) from scalar arguments:
// otherwise it is an internal error, reported here, never a launch failure.
// No target is known here by name: what differs between targets is in their
// descriptions (lowering/targets/).
//
//===----------------------------------------------------------------------===//

#include "SchedConsumer.h"
#include "ConstantArgs.h"
#include "Diagnostics.h"
#include "EmbedKernels.h"
#include "Extractor.h"
#include "KernelReport.h"
#include "NestReplacer.h"

#include "Compile.h"
#include "ir/LaunchDescriptor.h"
#include "ir/Printer.h"
#include "ir/Names.h"
#include "schedule/Schedule.h"
#include "targets/Target.h"

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

/// Path as the compile's prefix maps rewrite the paths it writes into the
/// object: -fmacro-prefix-map (what __FILE__ shows; -ffile-prefix-map sets it
/// and the debug map), the longest matching prefix first, as the
/// preprocessor applies it, else -fdebug-prefix-map, the last matching one,
/// as debug info applies it. The plugin writes the nest's source path into
/// the launch descriptor (the runtime's messages) and the emitted CUDA's
/// #line directives (profilers, compute-sanitizer): reproducible builds and
/// build-directory-independent caches need it rewritten too.
std::string remapSourcePath(const CompilerInstance &CI, StringRef Path) {
  llvm::SmallString<256> P(Path);
  for (const auto &[From, To] : CI.getLangOpts().MacroPrefixMap)
    if (llvm::sys::path::replace_path_prefix(P, From, To))
      return P.str().str();
  const auto &DebugMap = CI.getCodeGenOpts().DebugPrefixMap;
  for (auto It = DebugMap.rbegin(); It != DebugMap.rend(); ++It)
    if (llvm::sys::path::replace_path_prefix(P, It->first, It->second))
      return P.str().str();
  return Path.str();
}

/// A `for` statement that follows a pragma group, where it was found.
struct FoundNest {
  ForStmt *Loop;
  PragmaGroup *Group;
  const DeclContext *Function; // the function or lambda operator holding it
};

/// Collects the annotated loops of one declaration, outside dependent code.
class NestFinder : public RecursiveASTVisitor<NestFinder> {
public:
  NestFinder(PragmaRecords &Records, SchedDiagnostics &Diags)
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
    // A pragma of its own inside an annotated nest: the nest's directives
    // are all above its outermost loop, and the inner loop is part of its
    // kernel, not a nest of its own.
    if (Group && !Inner && !Outer.empty()) {
      if (!Group->Reported) {
        Group->Matched = Group->Reported = true;
        Diags.warn(WarnGroup::Ignored, Group->Lines.front()->IntroducerLoc,
                   "'#pragma sched' inside the nest of another '#pragma sched' is ignored; put "
                   "every directive of a nest above its outermost loop");
      }
      Group = nullptr;
    }
    if (Group && !Inner)
      Outer[Group] = Loop;
    bool Result = RecursiveASTVisitor::TraverseForStmt(Loop);
    if (Group && !Inner)
      Outer.erase(Group);
    return Result;
  }

  bool VisitForStmt(ForStmt *Loop) {
    PragmaGroup *Group = Records.groupForLoop(Loop->getForLoc());
    auto It = Group ? Outer.find(Group) : Outer.end();
    if (It != Outer.end() && It->second == Loop) {
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
      Diags.warn(WarnGroup::Ignored, Loop->getForLoc(),
                 "'#pragma sched' cannot schedule a range-based for loop; write it as "
                 "'for (int i = 0; i < n; ++i)'; ignored");
    }
    return true;
  }

  std::vector<FoundNest> Found;

private:
  /// A pragma above a loop of a template that is never instantiated is still
  /// above a loop: remember that, so no "not followed by a loop" warning.
  void markPatternLoops(Decl *D);

  PragmaRecords &Records;
  SchedDiagnostics &Diags;
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
        D.Loc = intern(Line, D.Loc);
        for (DirectiveArg &Arg : D.Args)
          Arg.Loc = intern(Line, Arg.Loc);
        Directives.push_back(std::move(D));
      }
  }

  SourceLocation get(int Id) const {
    return Id >= 0 && static_cast<size_t>(Id) < Locs.size() ? Locs[Id] : Fallback;
  }

  /// The location Offset bytes after the one of Id (a name inside a factor
  /// expression), interned.
  int offsetBy(int Id, unsigned Offset) {
    if (Id < 0 || static_cast<size_t>(Id) >= Locs.size())
      return Id;
    return intern(Origins[Id].first, Origins[Id].second + static_cast<int>(Offset));
  }

  std::vector<Directive> Directives;

private:
  int intern(const PragmaLine *Line, int Offset) {
    Locs.push_back(Line->locationOf(Offset));
    Origins.push_back({Line, Offset});
    return static_cast<int>(Locs.size() - 1);
  }

  std::vector<SourceLocation> Locs;
  std::vector<std::pair<const PragmaLine *, int>> Origins; // line and byte offset of each
  SourceLocation Fallback;
};

/// Joins the messages of Diags for a one-line reason.
std::string joinMessages(const std::vector<Diag> &Diags) {
  std::string Out;
  for (const Diag &D : Diags)
    Out += (Out.empty() ? "" : "; ") + D.Message;
  return Out.empty() ? "no reason given" : Out;
}

/// The loops of a nest the extractor could not translate, for checking its
/// directives anyway: each `for` with a counter (`int i = a` or `i = a`)
/// becomes a loop of the name the extractor would give it over a symbolic
/// extent; statements are left out.
ir::Stmt loopSkeleton(const Stmt *S, std::set<std::string> &Used) {
  if (!S)
    return nullptr;
  std::vector<ir::Stmt> Inner;
  auto Add = [&](const Stmt *Child) {
    if (ir::Stmt L = loopSkeleton(Child, Used))
      Inner.push_back(L);
  };
  if (const auto *F = dyn_cast<ForStmt>(S)) {
    // Named before its body, as the extractor names loops.
    const VarDecl *IV = loopCounter(F);
    std::string Name = IV ? uniqueLoopName(IV->getNameAsString(), Used) : "";
    Add(F->getBody());
    if (!IV)
      return Inner.empty() ? nullptr : ir::makeSeq(Inner);
    return ir::makeFor(ir::makeVar(Name), ir::makeInt(0), ir::makeVar(Name + ".extent"),
                       Inner.empty() ? ir::makeEvaluate(ir::makeInt(0)) : ir::makeSeq(Inner));
  }
  if (const auto *C = dyn_cast<CompoundStmt>(S)) {
    for (const Stmt *Child : C->body())
      Add(Child);
  } else if (const auto *If = dyn_cast<IfStmt>(S)) {
    Add(If->getThen());
    Add(If->getElse());
  }
  return Inner.empty() ? nullptr : ir::makeSeq(Inner);
}

/// Where a lowering failure is reported: at the directive the first error
/// names (a stage's compute_at), else at the nest's `for`.
SourceLocation loweringErrorLoc(const LocationTable &Locs, const std::vector<Diag> &Diags,
                                SourceLocation ForLoc) {
  for (const Diag &D : Diags)
    if (D.Severity == Diag::Level::Error && D.Loc >= 0)
      return Locs.get(D.Loc);
  return ForLoc;
}

class SchedConsumer : public SemaConsumer {
public:
  SchedConsumer(CompilerInstance &CI, const PluginOptions &Opts,
                std::shared_ptr<PragmaRecords> Records,
                std::shared_ptr<SchedDiagnostics> Diagnostics)
      : CI(CI), Opts(Opts), Records(std::move(Records)), Diagnostics(std::move(Diagnostics)) {}

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
  std::vector<std::string> reportKernels(const std::string &Name, const LaunchDescriptor &D,
                                         SourceLocation Loc);
  void emitFiles(const std::string &Name, const CompiledNest &C, const std::string &Text,
                 SourceLocation Loc, const LocationTable &Locs, const std::string &Function,
                 const std::vector<std::string> &Report);
  std::string remarkRecord(const char *Kind, const char *RemarkName, SourceLocation Loc,
                           const std::string &Function, const std::string &Message);
  void warnUnusedPragmas();

  CompilerInstance &CI;
  PluginOptions Opts;
  std::shared_ptr<PragmaRecords> Records;
  std::shared_ptr<SchedDiagnostics> Diagnostics;
  Sema *SemaRef = nullptr;
  std::set<const ForStmt *> Done;          // each loop is handled once
  std::map<std::string, unsigned> NameUses; // base name -> times used
};

void SchedConsumer::handleDecl(Decl *D) {
  // Before the first `#pragma sched` (the headers a file includes first) no
  // loop has a group, so the walk would find, mark and report nothing: skip
  // it (issue 24: walking <vector> and friends costs a one-nest file 7 M
  // instructions). A decl's pragmas are lexed before the decl arrives here.
  if (Records->empty())
    return;
  NestFinder Finder(*Records, *Diagnostics);
  Finder.TraverseDecl(D);
  for (const FoundNest &Found : Finder.Found)
    if (Done.insert(Found.Loop).second)
      handleNest(D, Found);
}

std::string SchedConsumer::nestName(const ForStmt *Loop) {
  PresumedLoc P = CI.getSourceManager().getPresumedLoc(Loop->getForLoc());
  std::string Stem = P.isValid() ? llvm::sys::path::stem(P.getFilename()).str() : "nest";
  std::string Base = "sched_" + ir::cIdentifier(Stem, "nest", "") + "_" +
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
  for (const Diag &D : Diags) {
    SourceLocation Loc = Locs.get(D.Loc);
    WarnGroup Group = WarnGroup::Ignored;
    switch (D.Severity) {
    case Diag::Level::Error:
      Diagnostics->error(Loc, D.Message);
      break;
    case Diag::Level::Warning:
      // A library warning names its flag; one that does not is about a
      // directive without effect, the only kind the library gives today.
      groupOfFlag(D.Flag, Group);
      Diagnostics->warn(Group, Loc, D.Message);
      break;
    case Diag::Level::Remark:
      Diagnostics->remark(Loc, D.Message);
      break;
    }
  }
}

bool SchedConsumer::buildArgs(const LoweredKernel &K, const ExtractedNest &Ex,
                              SourceLocation Loc,
                              std::vector<LaunchDescriptor::ArgKind> &Kinds,
                              std::vector<ParamBinding> &Args) {
  // Lowering may reorder or drop parameters: match them by name.
  for (const ir::Param &P : K.Kernel.Params) {
    if (P.Scratch) { // the launcher allocates it: the call passes null
      ParamBinding Scratch;
      Scratch.Kind = LaunchDescriptor::ArgKind::Scratch;
      Kinds.push_back(Scratch.Kind);
      Args.push_back(Scratch);
      continue;
    }
    const ParamBinding *Binding = nullptr;
    for (size_t I = 0; I < Ex.Nest.Params.size() && I < Ex.Bindings.size(); ++I)
      if (Ex.Nest.Params[I].name() == P.name())
        Binding = &Ex.Bindings[I];
    if (!Binding || !Binding->Decl) {
      Diagnostics->warn(WarnGroup::Fallback, Loc,
                        "sched: cannot lower nest: kernel parameter '" + P.name() +
                            "' has no variable in the program; the loop stays as written");
      return false;
    }
    Kinds.push_back(Binding->Kind);
    Args.push_back(*Binding);
  }
  return true;
}

/// One remark as a document of LLVM's optimization record (the YAML that
/// -fsave-optimization-record writes and opt-viewer, llvm-opt-report and
/// llvm-remarkutil read): kind (!Passed, !Analysis), pass `sched`, name,
/// source position (the path as the prefix maps write it), function, text.
std::string SchedConsumer::remarkRecord(const char *Kind, const char *RemarkName,
                                        SourceLocation Loc, const std::string &Function,
                                        const std::string &Message) {
  auto Quoted = [](const std::string &Text) {
    std::string Out = "'";
    for (char C : Text)
      Out += C == '\'' ? std::string("''") : std::string(1, C);
    return Out + "'";
  };
  std::string Out = std::string("--- !") + Kind + "\nPass:            sched\nName:            " +
                    RemarkName + "\n";
  PresumedLoc P = CI.getSourceManager().getPresumedLoc(Loc);
  if (P.isValid())
    Out += "DebugLoc:        { File: " + Quoted(remapSourcePath(CI, P.getFilename())) +
           ", Line: " + std::to_string(P.getLine()) +
           ", Column: " + std::to_string(P.getColumn()) + " }\n";
  Out += "Function:        " + Quoted(Function) + "\nArgs:\n  - String:          " +
         Quoted(Message) + "\n...\n";
  return Out;
}

/// -fplugin-arg-sched-report: D's kernel as ptxas compiles it, a remark per
/// kernel and architecture at Loc; the same lines for the optimization record.
std::vector<std::string> SchedConsumer::reportKernels(const std::string &Name,
                                                      const LaunchDescriptor &D,
                                                      SourceLocation Loc) {
  std::vector<std::string> Lines;
  std::vector<KernelResources> Kernels;
  std::string Error;
  if (!measureKernelResources(D, Opts, Kernels, Error)) {
    Diagnostics->warn(WarnGroup::Report, Loc,
                      "sched: no kernel report for nest '" + Name + "': " + Error);
    return Lines;
  }
  if (Kernels.empty())
    Lines.push_back("nest '" + Name + "' makes no CUDA kernel: nothing for ptxas to report");
  for (const KernelResources &K : Kernels)
    Lines.push_back(describe(K));
  for (const std::string &Line : Lines)
    Diagnostics->info(Loc, "sched: " + Line);
  return Lines;
}

void SchedConsumer::emitFiles(const std::string &Name, const CompiledNest &C,
                              const std::string &Text, SourceLocation Loc,
                              const LocationTable &Locs, const std::string &Function,
                              const std::vector<std::string> &Report) {
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
      Diagnostics->error(Loc, "sched: cannot write '" + Path.str().str() + "': " + EC.message());
  };
  Write(C.Target->FileExtension, C.Source);
  Write(".desc", Text);
  // The -Rpass=sched remarks of the nest as an optimization record: they are
  // Clang diagnostics given while Sema runs, before CodeGen creates the
  // LLVMContext whose remark streamer -fsave-optimization-record writes
  // (only remarks of LLVM's passes reach that file), so they are written
  // here instead, one record per nest, in the same format.
  std::string Record;
  for (const Diag &D : C.Notes)
    if (D.Severity == Diag::Level::Remark)
      Record += remarkRecord("Analysis", "Note", Locs.get(D.Loc), Function, D.Message);
  if (!C.Summary.empty())
    Record += remarkRecord("Passed", "NestBecameKernel", Loc, Function, C.Summary);
  for (const std::string &Line : Report)
    Record += remarkRecord("Analysis", "KernelResources", Loc, Function, Line);
  Write(".opt.yaml", Record);
}

void SchedConsumer::handleNest(Decl *Root, const FoundNest &Found) {
  PragmaGroup &Group = *Found.Group;
  if (!Group.Parsed || !SemaRef)
    return; // the parse errors are already reported
  ASTContext &Ctx = CI.getASTContext();
  SourceLocation ForLoc = Found.Loop->getForLoc();
  std::string Name = nestName(Found.Loop);
  LocationTable Locs(Group);

  const auto *Function = dyn_cast_or_null<FunctionDecl>(Found.Function);
  {
    // Tile sizes named by constants get their values at this instantiation.
    std::map<std::string, std::string> Macros;
    for (const PragmaLine *Line : Group.Lines)
      Macros.insert(Line->Macros.begin(), Line->Macros.end());
    std::vector<Diag> Diags;
    auto LocAt = [&](int Id, unsigned Offset) { return Locs.offsetBy(Id, Offset); };
    if (!resolveConstantArgs(Locs.Directives, Macros, Function, Found.Loop, Ctx, LocAt, Diags)) {
      report(Locs, Diags);
      return;
    }
  }
  ExtractedNest Ex;
  const Stmt *FunctionBody = Function ? Function->getBody() : nullptr;
  if (!extractNest(Found.Loop, Name, FunctionBody, Ctx, *Diagnostics, Ex)) {
    // extractNest said why; the directives still get their errors.
    std::vector<Diag> Diags;
    std::set<std::string> Used;
    checkDirectivesOnLoops(loopSkeleton(Found.Loop, Used), Locs.Directives, Diags);
    report(Locs, Diags);
    return;
  }
  PresumedLoc P = CI.getSourceManager().getPresumedLoc(ForLoc);
  if (Ex.Nest.SourceFile.empty() && P.isValid()) {
    Ex.Nest.SourceFile = P.getFilename();
    Ex.Nest.SourceLine = P.getLine();
  }
  Ex.Nest.SourceFile = remapSourcePath(CI, Ex.Nest.SourceFile);
  if (Opts.DumpIR || Opts.PrintAfterAll) {
    // The values the launcher stores after a kernel ran, as comments.
    std::string Finals;
    for (const LaunchDescriptor::FinalValue &F : Ex.Finals)
      Finals += "// final " + F.Name + " = " + ir::print(F.Value) +
                (F.When ? " when " + ir::print(F.When) : std::string()) + "\n";
    dump(Name, "ir", ir::print(Ex.Nest) + Finals);
  }

  ir::LoopNest Scheduled = Ex.Nest;
  std::vector<Diag> Diags;
  bool Applied = applySchedule(Scheduled, Locs.Directives, Diags);
  report(Locs, Diags);
  if (!Applied)
    return;
  if (Opts.DumpScheduled || Opts.PrintAfterAll)
    dump(Name, "scheduled", ir::print(Scheduled));

  CompileOptions CompileOpts;
  CompileOpts.Pipeline.VerifyEach = Opts.VerifyEach;
  CompileOpts.Pipeline.Arch = Opts.Arch;
  if (Opts.PrintAfterAll)
    CompileOpts.Pipeline.AfterPass = [&](const std::string &Pass, const ir::LoopNest &N,
                                         bool Changed) {
      dump(Name, Changed ? Pass : Pass + " (unchanged)", Changed ? ir::print(N) : "");
    };
  CompileOpts.Finals = Ex.Finals;
  CompiledNest C;
  bool Compiled = compileNest(Scheduled, CompileOpts, C);
  if (C.Failed == CompileStage::Lower) {
    Diagnostics->warn(WarnGroup::Fallback, loweringErrorLoc(Locs, C.Failure, ForLoc),
                      "sched: cannot lower nest: " + joinMessages(C.Failure) +
                          "; the loop stays as written");
    return;
  }
  report(Locs, C.Notes); // remarks and warnings of a successful lowering
  report(Locs, C.Lints);
  if (!C.Summary.empty())
    Diagnostics->remark(ForLoc, C.Summary);
  LaunchDescriptor &Desc = C.Descriptor;
  if (Opts.DumpLowered || Opts.PrintAfterAll)
    dump(Name, "lowered", ir::print(Desc.Kernel.Kernel));
  if (C.Failed == CompileStage::Emit) {
    Diagnostics->warn(WarnGroup::Fallback, loweringErrorLoc(Locs, C.Failure, ForLoc),
                      "sched: " + compileFailureHeading(C) + ": " + joinMessages(C.Failure) +
                          "; the loop stays as written");
    return;
  }
  if (Opts.DumpEmitted.count(C.Target->EmitKind) || Opts.PrintAfterAll)
    dump(Name, C.Target->EmitKind, C.Source);
  if (!Compiled) {
    Diagnostics->warn(WarnGroup::Fallback, ForLoc,
                      "sched: " + compileFailureHeading(C) + ": " + joinMessages(C.Failure) +
                          "; the loop stays as written");
    return;
  }
  std::vector<ParamBinding> Args;
  Desc.ArgKinds.clear();
  if (!buildArgs(Desc.Kernel, Ex, ForLoc, Desc.ArgKinds, Args))
    return;
  Args.insert(Args.end(), Ex.FinalBindings.begin(), Ex.FinalBindings.end());
  std::string EmbedError;
  if (!embedKernelImages(Desc, Opts, EmbedError))
    Diagnostics->warn(WarnGroup::Embed, ForLoc, "sched: " + EmbedError);
  std::vector<std::string> Report;
  if (Opts.Report)
    Report = reportKernels(Name, Desc, ForLoc);
  std::string Text = serializeDescriptor(Desc);
  if (!Opts.EmitDir.empty())
    emitFiles(Name, C, Text, ForLoc, Locs,
              Function ? Function->getNameAsString() : std::string(), Report);

  std::string Error;
  if (!replaceNestWithLaunch(*SemaRef, Root, Found.Loop, Found.Function, Text, Args, Error))
    Diagnostics->warn(WarnGroup::Fallback, ForLoc,
                      "sched: cannot replace nest '" + Name + "': " + Error +
                          "; the loop stays as written");
}

void SchedConsumer::warnUnusedPragmas() {
  for (const auto &Group : Records->groups())
    if (!Group->Matched)
      Diagnostics->warn(WarnGroup::Ignored, Group->Lines.front()->IntroducerLoc,
                        "'#pragma sched' must be followed by a for loop; ignored");
}

} // namespace

std::unique_ptr<ASTConsumer> createSchedConsumer(CompilerInstance &CI,
                                                 const PluginOptions &Opts,
                                                 std::shared_ptr<PragmaRecords> Records,
                                                 std::shared_ptr<SchedDiagnostics> Diagnostics) {
  return std::make_unique<SchedConsumer>(CI, Opts, std::move(Records),
                                         std::move(Diagnostics));
}

} // namespace sched
