//===- sched-opt.cpp - Schedule and lower textual IR outside a compile ---===//
//
//   sched-opt [options] [FILE.ir | -]
//             [--schedule='split(i, io, ii, 4) bind(io, blockIdx.x)']
//             [--print-scheduled] [--lower | --passes=PASS,PASS,...]
//             [--print-after-all] [--print-after=PASS] [--verify-each]
//             [--emit=ir|descriptor|cuda|vta] [--arch=sm_XY] [-split-input-file]
//             [-o FILE]
//
// An LLVM tool: options are llvm::cl's (one or two dashes, `-help` on stdout,
// `-version`), the input is FILE or, with `-` or no file, standard input;
// what it prints (the IR, the emitted source, the descriptor, the dumps of
// --print-after) goes to stdout or to `-o FILE`, diagnostics to stderr.
//
// Reads one nest in the textual IR (ir/IR.h), applies a schedule, and prints
// the scheduled nest (the default), or compiles it by its target's
// description (compileNest, the plugin's driver) and prints the lowered IR,
// the emitted source (--emit=<the target's emit kind>: cuda for a
// target(gpu) kernel, vta for the C++ calling the VTA runtime) or the launch
// descriptor. --passes=a,b runs exactly those registered passes, in order,
// and prints the nest after them: a pass's lit test starts from the pass's
// own input form (the IR after the pass before it, as --print-after prints
// it), so it does not change when an earlier pass does (an unknown name is an
// error listing the registered ones; a pass whose input is not in the form
// it requires is an error naming the pass). This is how lit tests exercise
// the schedule primitives and passes without a C++ front end. --verify-each
// runs the target's verifier after every pass. --arch=sm_XY is the plugin's
// arch=: the target architecture the passes, the CUDA and the descriptor
// see. --print-after-all says "(unchanged)" after a pass that returned the
// nest it was given, and prints the nest only after those that changed it.
// --print-after=PASS names a registered pass (else an error listing them)
// that runs on the nest (else an error naming the passes that ran).
//
// -split-input-file: the file holds several cases separated by lines
// `// -----` (MLIR's convention); each is read, scheduled and compiled on
// its own (line numbers stay those of the file), their outputs separated by
// `// -----`. The exit status is 1 when any case failed.
//
// Schedules come from `--schedule=...` or, so a test file is self-contained,
// from comment lines in the IR file itself:
//     // SCHEDULE: tile(i, j, io, jo, ii, ji, 64, 64) split(k, ko, ki, 16)
// Several SCHEDULE lines apply in order; --schedule, when given, replaces them.
// Every `//` comment line is blanked before parsing (line numbers stay).
//
// Diagnostics: `FILE:LINE:COL: error: msg` for a directive in the file,
// `--schedule:OFFSET: error: msg` for one on the command line, `FILE: error:
// msg` for the nest as a whole (FILE is `<stdin>` for standard input); the
// exit status is 1 on any error.
//
//===----------------------------------------------------------------------===//

#include "Compile.h"
#include "Pipeline.h"
#include "ir/LaunchDescriptor.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "passes/Pass.h"
#include "schedule/DirectiveParser.h"
#include "schedule/Schedule.h"
#include "targets/Target.h"

#include "llvm/Config/llvm-config.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace sched;
namespace cl = llvm::cl;

static cl::OptionCategory SchedOptCategory("sched-opt options");

static cl::opt<std::string> InputFilename(cl::Positional,
                                          cl::desc("<input .ir file, or - for stdin>"),
                                          cl::init("-"), cl::cat(SchedOptCategory));
static cl::opt<std::string> OutputFilename("o",
                                           cl::desc("Write the output to <file> (default: stdout)"),
                                           cl::value_desc("file"), cl::init("-"),
                                           cl::cat(SchedOptCategory));
static cl::opt<std::string>
    ScheduleOpt("schedule",
                cl::desc("Directives to apply, replacing the file's `// SCHEDULE:` lines"),
                cl::value_desc("directives"), cl::cat(SchedOptCategory));
static cl::opt<bool> PrintScheduledOpt("print-scheduled",
                                       cl::desc("Print the scheduled nest before lowering it"),
                                       cl::cat(SchedOptCategory));
static cl::opt<bool> LowerOpt("lower", cl::desc("Lower the nest by its target's pipeline"),
                              cl::cat(SchedOptCategory));
// The descriptions naming registered passes, emit kinds and architectures are
// set in main (the registries are filled by static initializers).
static cl::opt<std::string> PassesOpt("passes", cl::value_desc("pass,pass,..."),
                                      cl::cat(SchedOptCategory));
static cl::opt<bool> PrintAfterAllOpt("print-after-all",
                                      cl::desc("Print the nest after every pass ((unchanged) "
                                               "and no IR after a pass that changed nothing)"),
                                      cl::cat(SchedOptCategory));
static cl::opt<std::string> PrintAfterOpt("print-after", cl::value_desc("pass"),
                                          cl::cat(SchedOptCategory));
static cl::opt<bool> VerifyEachOpt("verify-each",
                                   cl::desc("Run the target's verifier after every pass"),
                                   cl::cat(SchedOptCategory));
static cl::opt<std::string> EmitOpt("emit", cl::value_desc("kind"), cl::cat(SchedOptCategory));
static cl::opt<std::string> ArchOpt("arch", cl::value_desc("sm_XY"), cl::cat(SchedOptCategory));
static cl::opt<bool> SplitInputFileOpt(
    "split-input-file",
    cl::desc("Process each `// -----` separated case of the file on its own"),
    cl::cat(SchedOptCategory));

namespace {

struct Options {
  std::string InputFile; // as diagnostics name it: the path, or <stdin>
  std::string Schedule;
  bool HasSchedule = false;
  bool PrintScheduled = false;
  bool Lower = false;
  bool PrintAfterAll = false;
  std::string PrintAfter; // --print-after=PASS: the nest after that pass only
  bool VerifyEach = false;
  std::string Emit; // "", "ir", "descriptor", or a target's emit kind
  TargetArch Arch;  // --arch=sm_XY
  bool HasPasses = false;
  std::vector<std::string> Passes; // --passes=a,b,c
  bool SplitInputFile = false;
  llvm::raw_ostream *Out = nullptr; // stdout or -o FILE
  // The passes that ran, for an error when --print-after's never did.
  std::vector<std::string> *PassesRun = nullptr;
};

/// The --emit kinds: ir, descriptor and every target's emit kind.
std::string emitKinds() {
  std::string Kinds = "ir|descriptor";
  for (const TargetDescription *T : registeredTargets())
    if (!T->EmitKind.empty())
      Kinds += "|" + T->EmitKind;
  return Kinds;
}

std::string passList() {
  std::string Out;
  for (const std::string &Name : passes::registeredPassNames())
    Out += (Out.empty() ? "" : ", ") + Name;
  return Out;
}

/// Splits "a,b,c" into names; false, with a message, for an unknown one.
bool parsePasses(const std::string &List, std::vector<std::string> &Out) {
  std::string Name;
  std::istringstream In(List);
  while (std::getline(In, Name, ',')) {
    if (!passes::findPass(Name)) {
      std::cerr << "sched-opt: error: unknown pass '" << Name
                << "'; registered passes: " << passList() << "\n";
      return false;
    }
    Out.push_back(Name);
  }
  return true;
}

/// Options from the parsed command line; false, with a message, for a value
/// no registry knows or options that do not combine.
bool readOptions(Options &Opts) {
  Opts.InputFile = InputFilename == "-" ? std::string("<stdin>") : std::string(InputFilename);
  Opts.Schedule = ScheduleOpt;
  Opts.HasSchedule = ScheduleOpt.getNumOccurrences() > 0;
  Opts.PrintScheduled = PrintScheduledOpt;
  Opts.Lower = LowerOpt;
  Opts.PrintAfterAll = PrintAfterAllOpt;
  Opts.VerifyEach = VerifyEachOpt;
  Opts.SplitInputFile = SplitInputFileOpt;
  if (PrintAfterOpt.getNumOccurrences()) {
    Opts.PrintAfter = PrintAfterOpt;
    if (!passes::findPass(Opts.PrintAfter)) {
      std::cerr << "sched-opt: error: --print-after: unknown pass '" << Opts.PrintAfter
                << "'; registered passes: " << passList() << "\n";
      return false;
    }
  }
  if (EmitOpt.getNumOccurrences()) {
    Opts.Emit = EmitOpt;
    if (Opts.Emit != "ir" && Opts.Emit != "descriptor" && !targetWithEmitKind(Opts.Emit)) {
      std::cerr << "sched-opt: error: unknown --emit kind '" << Opts.Emit << "'; valid: "
                << emitKinds() << "\n";
      return false;
    }
  }
  if (PassesOpt.getNumOccurrences()) {
    Opts.HasPasses = true;
    if (!parsePasses(PassesOpt, Opts.Passes))
      return false;
  }
  if (ArchOpt.getNumOccurrences() && !parseTargetArch(ArchOpt, Opts.Arch)) {
    std::cerr << "sched-opt: error: unknown --arch '" << ArchOpt
              << "'; valid: " << targetArchNames() << "\n";
    return false;
  }
  if (Opts.HasPasses && (Opts.Lower || !Opts.Emit.empty())) {
    std::cerr << "sched-opt: error: --passes runs the named passes only; it does not combine "
                 "with --lower or --emit\n";
    return false;
  }
  return true;
}

/// One piece of directive text and where it came from, so a diagnostic's
/// location id (an offset into the concatenation of all pieces) maps back.
struct ScheduleSource {
  std::string Text;
  int Base = 0;       // location id of Text[0]
  unsigned Line = 0;  // 0: the command line; else the file line
  unsigned Column = 0; // 1-based file column of Text[0]
};

class ScheduleText {
public:
  void add(const std::string &Text, unsigned Line, unsigned Column) {
    Sources.push_back({Text, NextBase, Line, Column});
    NextBase += static_cast<int>(Text.size()) + 1;
  }

  /// Parses every piece, with locations shifted to the piece's base.
  bool parse(std::vector<Directive> &Out, std::vector<Diag> &Diags) const {
    bool Ok = true;
    for (const ScheduleSource &Src : Sources) {
      std::vector<Directive> Dirs;
      std::vector<Diag> PieceDiags;
      Ok &= parseDirectiveText(Src.Text, Dirs, PieceDiags);
      for (Directive &D : Dirs) {
        D.Loc += Src.Base;
        for (DirectiveArg &A : D.Args)
          A.Loc += Src.Base;
        Out.push_back(D);
      }
      for (Diag &D : PieceDiags) {
        if (D.Loc >= 0)
          D.Loc += Src.Base;
        Diags.push_back(D);
      }
    }
    return Ok;
  }

  /// Prints one diagnostic with the directive text and a caret under Loc.
  void report(const std::string &File, const Diag &D) const {
    const char *Level = D.Severity == Diag::Level::Error     ? "error"
                        : D.Severity == Diag::Level::Warning ? "warning"
                                                             : "remark";
    const ScheduleSource *Src = sourceOf(D.Loc);
    if (!Src) {
      std::cerr << File << ": " << Level << ": " << D.Message << "\n";
      return;
    }
    int Offset = D.Loc - Src->Base;
    if (Src->Line == 0)
      std::cerr << "--schedule:" << Offset;
    else
      std::cerr << File << ":" << Src->Line << ":" << (Src->Column + Offset);
    std::cerr << ": " << Level << ": " << D.Message << "\n"
              << Src->Text << "\n"
              << std::string(static_cast<size_t>(Offset), ' ') << "^\n";
  }

private:
  const ScheduleSource *sourceOf(int Loc) const {
    if (Loc < 0)
      return nullptr;
    const ScheduleSource *Found = nullptr;
    for (const ScheduleSource &Src : Sources)
      if (Src.Base <= Loc && Loc <= Src.Base + static_cast<int>(Src.Text.size()))
        Found = &Src;
    return Found;
  }

  std::vector<ScheduleSource> Sources;
  int NextBase = 0;
};

/// Blanks every `//` comment line (keeping line numbers for parse errors)
/// and collects the `// SCHEDULE:` ones.
std::string stripComments(const std::string &Text, ScheduleText &Schedule, bool KeepSchedule) {
  std::istringstream In(Text);
  std::string Line, Out;
  const std::string Marker = "SCHEDULE:";
  for (unsigned LineNo = 1; std::getline(In, Line); ++LineNo) {
    size_t First = Line.find_first_not_of(" \t");
    if (First != std::string::npos && Line.compare(First, 2, "//") == 0) {
      size_t M = Line.find(Marker, First);
      if (KeepSchedule && M != std::string::npos &&
          Line.find_first_not_of(" \t", First + 2) == M) {
        size_t Start = M + Marker.size();
        Schedule.add(Line.substr(Start), LineNo, static_cast<unsigned>(Start) + 1);
      }
      Line.clear();
    }
    Out += Line + "\n";
  }
  return Out;
}

/// The file, or standard input for "-"; false, with a message, when it
/// cannot be read.
bool readInput(const std::string &Path, const std::string &Name, std::string &Out) {
  llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>> Buffer =
      llvm::MemoryBuffer::getFileOrSTDIN(Path, /*IsText=*/true);
  if (!Buffer) {
    std::cerr << Name << ": error: cannot read file: " << Buffer.getError().message() << "\n";
    return false;
  }
  Out = (*Buffer)->getBuffer().str();
  return true;
}

/// Prints the nest after a pass: every pass under --print-after-all (the
/// nest only where the pass changed it), the one pass --print-after names.
PipelineOptions pipelineOptions(const Options &Opts) {
  PipelineOptions PO;
  PO.VerifyEach = Opts.VerifyEach;
  PO.Arch = Opts.Arch;
  if (Opts.PrintAfterAll || !Opts.PrintAfter.empty())
    PO.AfterPass = [&Opts](const std::string &Pass, const ir::LoopNest &N, bool Changed) {
      if (Opts.PassesRun)
        Opts.PassesRun->push_back(Pass);
      if (!Opts.PrintAfterAll && Pass != Opts.PrintAfter)
        return;
      llvm::raw_ostream &OS = *Opts.Out;
      OS << "// *** IR after " << Pass << (Changed ? "" : " (unchanged)") << " ***\n";
      if (Changed || Pass == Opts.PrintAfter)
        OS << ir::print(N) << "\n";
    };
  return PO;
}

/// `(E0, E1, E2)` of a grid or block.
std::string shapeText(const ir::Expr (&Dims)[3]) {
  std::string Out = "(";
  for (int D = 0; D < 3; ++D)
    Out += (D ? ", " : "") + (Dims[D] ? ir::print(Dims[D]) : std::string("1"));
  return Out + ")";
}

/// --passes: exactly those passes, then the nest, and as comments what the
/// passes computed that is not in the IR: the launch geometry the passes
/// worked with, the launcher's regions.
int runNamedPasses(const Options &Opts, const ir::LoopNest &Nest, const std::string &File,
                   const ScheduleText &Schedule) {
  LoweredKernel Out;
  std::vector<Diag> Diags;
  bool Ok = runPasses(Nest, Opts.Passes, pipelineOptions(Opts), Out, Diags);
  for (const Diag &D : Diags)
    Schedule.report(File, D);
  if (!Ok)
    return 1;
  if (Opts.PrintAfterAll)
    return 0;
  *Opts.Out << ir::print(Out.Kernel);
  if (Out.Geometry.Grid[0])
    *Opts.Out << "// launch: grid " << shapeText(Out.Geometry.Grid) << ", block "
              << shapeText(Out.Geometry.Block) << "\n";
  for (const BufferRegion &R : Out.Regions)
    *Opts.Out << "// region " << (R.Read ? "r" : "") << (R.Written ? "w" : "")
              << (R.Read || R.Written ? "" : "-") << " " << R.Param << ": min "
              << (R.Min ? ir::print(R.Min) : std::string("0")) << ", extent "
              << ir::print(R.Extent) << "\n";
  return 0;
}

int emitLowered(const Options &Opts, const ir::LoopNest &Scheduled, const std::string &File,
                const ScheduleText &Schedule) {
  CompileOptions CO;
  CO.Pipeline = pipelineOptions(Opts);
  const TargetDescription *Wanted = targetWithEmitKind(Opts.Emit);
  CO.LowerOnly = Opts.Emit.empty() || Opts.Emit == "ir";
  if (Wanted && Wanted->Name != Scheduled.Target) {
    std::cerr << File << ": error: --emit=" << Opts.Emit << " needs a target(" << Wanted->Name
              << ") nest\n";
    return 1;
  }
  CompiledNest C;
  bool Ok = compileNest(Scheduled, CO, C);
  for (const Diag &D : C.Notes)
    Schedule.report(File, D);
  for (const Diag &D : C.Failure)
    Schedule.report(File, D);
  if (!Ok)
    return 1;
  if (Wanted)
    *Opts.Out << C.Source;
  else if (Opts.Emit == "descriptor")
    *Opts.Out << serializeDescriptor(C.Descriptor) << "\n";
  else if (!Opts.PrintAfterAll)
    *Opts.Out << ir::print(C.Descriptor.Kernel.Kernel);
  return 0;
}

/// Reads, schedules and compiles the nest in Text (the whole file, or one
/// case of it with the others' lines blanked); 0 on success.
int lowerCase(const Options &Opts, const std::string &File, const std::string &Text) {
  ScheduleText Schedule;
  std::string IRText = stripComments(Text, Schedule, !Opts.HasSchedule);
  if (Opts.HasSchedule)
    Schedule.add(Opts.Schedule, 0, 0);

  ir::LoopNest Nest;
  std::string Error;
  if (!ir::parseLoopNest(IRText, Nest, Error)) {
    // Error is "LINE:COL: message".
    size_t Colon = Error.find(": ");
    if (Colon == std::string::npos)
      std::cerr << File << ": error: " << Error << "\n";
    else
      std::cerr << File << ":" << Error.substr(0, Colon) << ": error: " << Error.substr(Colon + 2)
                << "\n";
    return 1;
  }
  if (Nest.SourceFile.empty())
    Nest.SourceFile = File;

  std::vector<Directive> Dirs;
  std::vector<Diag> Diags;
  bool Ok = Schedule.parse(Dirs, Diags) && applySchedule(Nest, Dirs, Diags);
  for (const Diag &D : Diags)
    Schedule.report(File, D);
  if (!Ok)
    return 1;

  if (Opts.HasPasses) {
    if (Opts.PrintScheduled)
      *Opts.Out << ir::print(Nest);
    return runNamedPasses(Opts, Nest, File, Schedule);
  }
  bool WantsLowering = Opts.Lower || Opts.PrintAfterAll || !Opts.PrintAfter.empty() ||
                       Opts.VerifyEach || !Opts.Emit.empty();
  if (Opts.PrintScheduled || !WantsLowering)
    *Opts.Out << ir::print(Nest);
  if (!WantsLowering)
    return 0;
  return emitLowered(Opts, Nest, File, Schedule);
}

/// lowerCase, and an error when --print-after names a pass that did not
/// run on this nest (not in its target's pipeline, or not in --passes).
int processCase(const Options &Opts, const std::string &File, const std::string &Text) {
  Opts.PassesRun->clear();
  int Status = lowerCase(Opts, File, Text);
  if (Status || Opts.PrintAfter.empty() ||
      std::find(Opts.PassesRun->begin(), Opts.PassesRun->end(), Opts.PrintAfter) !=
          Opts.PassesRun->end())
    return Status;
  std::string Ran;
  for (const std::string &Pass : *Opts.PassesRun)
    Ran += (Ran.empty() ? "" : ", ") + Pass;
  std::cerr << File << ": error: --print-after: pass '" << Opts.PrintAfter
            << "' did not run on this nest; the passes that ran: " << (Ran.empty() ? "none" : Ran)
            << "\n";
  return 1;
}

/// The cases of a -split-input-file file: each the whole text with every
/// line outside the case blanked, so line numbers stay the file's.
std::vector<std::string> splitCases(const std::string &Text) {
  std::vector<std::string> Lines;
  std::istringstream In(Text);
  for (std::string Line; std::getline(In, Line);)
    Lines.push_back(Line);
  std::vector<std::string> Cases;
  size_t Start = 0;
  for (size_t I = 0; I <= Lines.size(); ++I) {
    bool Separator = I < Lines.size() && Lines[I].compare(0, 8, "// -----") == 0;
    if (!Separator && I < Lines.size())
      continue;
    std::string Case;
    for (size_t L = 0; L < Lines.size(); ++L)
      Case += (L >= Start && L < I ? Lines[L] : std::string()) + "\n";
    Cases.push_back(Case);
    Start = I + 1;
  }
  return Cases;
}

} // namespace

static void printVersion(llvm::raw_ostream &OS) {
  OS << "sched-opt (sched " SCHED_VERSION ")\n  built with LLVM " LLVM_VERSION_STRING "\n";
}

int main(int Argc, char **Argv) {
  llvm::InitLLVM X(Argc, Argv);
  // Descriptions that name what the registries hold.
  std::string PassesDesc = "Run exactly these registered passes, in order, and print the nest "
                           "(passes: " + passList() + ")";
  std::string PrintAfterDesc = "Print the nest after this registered pass";
  std::string EmitDesc = "Print the lowered nest as " + emitKinds() + " (default: the lowered IR)";
  std::string ArchDesc = "The target architecture (" + targetArchNames() + ")";
  PassesOpt.setDescription(PassesDesc);
  PrintAfterOpt.setDescription(PrintAfterDesc);
  EmitOpt.setDescription(EmitDesc);
  ArchOpt.setDescription(ArchDesc);
  cl::HideUnrelatedOptions(SchedOptCategory);
  cl::SetVersionPrinter(printVersion);
  cl::ParseCommandLineOptions(
      Argc, Argv,
      "sched-opt: schedule and lower one loop nest in sched's textual IR\n\n"
      "  Prints the scheduled nest, or with --lower, --emit, --passes or --print-after*\n"
      "  what the target's pipeline (or the named passes) made of it. Schedules come\n"
      "  from --schedule or from the file's `// SCHEDULE:` lines.\n");

  Options Opts;
  if (!readOptions(Opts))
    return 1;
  std::string Text;
  if (!readInput(InputFilename, Opts.InputFile, Text))
    return 1;
  std::error_code EC;
  llvm::ToolOutputFile Output(OutputFilename, EC, llvm::sys::fs::OF_Text);
  if (EC) {
    std::cerr << "sched-opt: error: cannot open '" << OutputFilename << "': " << EC.message()
              << "\n";
    return 1;
  }
  std::vector<std::string> PassesRun;
  Opts.Out = &Output.os();
  Opts.PassesRun = &PassesRun;
  const std::string &File = Opts.InputFile;
  int Status = 0;
  if (!Opts.SplitInputFile) {
    Status = processCase(Opts, File, Text);
  } else {
    std::vector<std::string> Cases = splitCases(Text);
    for (size_t I = 0; I < Cases.size(); ++I) {
      if (I)
        *Opts.Out << "// -----\n";
      // Each case's diagnostics (stderr) after the output before them.
      Opts.Out->flush();
      Status |= processCase(Opts, File, Cases[I]);
      Opts.Out->flush();
    }
  }
  // As LLVM's tools: -o FILE is kept when the run succeeded; the cases of a
  // -split-input-file run are independent, so their output is kept too.
  if (Status == 0 || Opts.SplitInputFile)
    Output.keep();
  return Status;
}
