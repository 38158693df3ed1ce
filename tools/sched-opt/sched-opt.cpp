//===- sched-opt.cpp - Schedule and lower textual IR outside a compile ---===//
//
//   sched-opt FILE.ir [--schedule='split(i, io, ii, 4) bind(io, blockIdx.x)']
//             [--print-scheduled] [--lower | --passes=PASS,PASS,...]
//             [--print-after-all] [--print-after=PASS] [--verify-each]
//             [--emit=ir|descriptor|cuda|vta] [--arch=sm_XY] [-split-input-file]
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
// msg` for the nest as a whole; the exit status is 1 on any error.
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

#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

using namespace sched;

namespace {

struct Options {
  std::string InputFile;
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

void printUsage() {
  std::cerr << "usage: sched-opt FILE.ir [--schedule=DIRECTIVES] [--print-scheduled]\n"
               "                 [--lower | --passes=PASS,PASS,...] [--print-after-all]\n"
               "                 [--print-after=PASS] [--verify-each] [--emit="
            << emitKinds() << "]\n"
               "                 [--arch=" << targetArchNames() << "] [-split-input-file]\n"
               "passes: " << passList() << "\n";
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

bool startsWith(const std::string &S, const std::string &Prefix) {
  return S.compare(0, Prefix.size(), Prefix) == 0;
}

bool parseOptions(int Argc, char **Argv, Options &Opts) {
  for (int I = 1; I < Argc; ++I) {
    std::string Arg = Argv[I];
    if (startsWith(Arg, "--schedule=")) {
      Opts.Schedule = Arg.substr(11);
      Opts.HasSchedule = true;
    } else if (Arg == "--schedule" && I + 1 < Argc) {
      Opts.Schedule = Argv[++I];
      Opts.HasSchedule = true;
    } else if (Arg == "--print-scheduled") {
      Opts.PrintScheduled = true;
    } else if (Arg == "--lower") {
      Opts.Lower = true;
    } else if (Arg == "--print-after-all") {
      Opts.PrintAfterAll = true;
    } else if (startsWith(Arg, "--print-after=")) {
      Opts.PrintAfter = Arg.substr(14);
    } else if (Arg == "--verify-each") {
      Opts.VerifyEach = true;
    } else if (startsWith(Arg, "--emit=")) {
      Opts.Emit = Arg.substr(7);
      if (Opts.Emit != "ir" && Opts.Emit != "descriptor" && !targetWithEmitKind(Opts.Emit)) {
        std::cerr << "sched-opt: error: unknown --emit kind '" << Opts.Emit << "'; valid: "
                  << emitKinds() << "\n";
        return false;
      }
    } else if (startsWith(Arg, "--passes=")) {
      Opts.HasPasses = true;
      if (!parsePasses(Arg.substr(9), Opts.Passes))
        return false;
    } else if (Arg == "-split-input-file" || Arg == "--split-input-file") {
      Opts.SplitInputFile = true;
    } else if (startsWith(Arg, "--arch=")) {
      if (!parseTargetArch(Arg.substr(7), Opts.Arch)) {
        std::cerr << "sched-opt: error: unknown --arch '" << Arg.substr(7)
                  << "'; valid: " << targetArchNames() << "\n";
        return false;
      }
    } else if (Arg == "-h" || Arg == "--help") {
      printUsage();
      return false;
    } else if (!startsWith(Arg, "-") && Opts.InputFile.empty()) {
      Opts.InputFile = Arg;
    } else {
      std::cerr << "sched-opt: error: unknown argument '" << Arg << "'\n";
      return false;
    }
  }
  if (Opts.InputFile.empty()) {
    printUsage();
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

bool readFile(const std::string &Path, std::string &Out) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return false;
  std::ostringstream SS;
  SS << In.rdbuf();
  Out = SS.str();
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
      if (!Opts.PrintAfterAll && Pass != Opts.PrintAfter)
        return;
      std::cout << "// *** IR after " << Pass << (Changed ? "" : " (unchanged)") << " ***\n";
      if (Changed || Pass == Opts.PrintAfter)
        std::cout << ir::print(N) << "\n";
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
  std::cout << ir::print(Out.Kernel);
  if (Out.Geometry.Grid[0])
    std::cout << "// launch: grid " << shapeText(Out.Geometry.Grid) << ", block "
              << shapeText(Out.Geometry.Block) << "\n";
  for (const BufferRegion &R : Out.Regions)
    std::cout << "// region " << (R.Read ? "r" : "") << (R.Written ? "w" : "")
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
    std::cout << C.Source;
  else if (Opts.Emit == "descriptor")
    std::cout << serializeDescriptor(C.Descriptor) << "\n";
  else if (!Opts.PrintAfterAll)
    std::cout << ir::print(C.Descriptor.Kernel.Kernel);
  return 0;
}

/// Reads, schedules and compiles the nest in Text (the whole file, or one
/// case of it with the others' lines blanked); 0 on success.
int processCase(const Options &Opts, const std::string &File, const std::string &Text) {
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
      std::cout << ir::print(Nest);
    return runNamedPasses(Opts, Nest, File, Schedule);
  }
  bool WantsLowering = Opts.Lower || Opts.PrintAfterAll || !Opts.PrintAfter.empty() ||
                       Opts.VerifyEach || !Opts.Emit.empty();
  if (Opts.PrintScheduled || !WantsLowering)
    std::cout << ir::print(Nest);
  if (!WantsLowering)
    return 0;
  return emitLowered(Opts, Nest, File, Schedule);
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

int main(int Argc, char **Argv) {
  Options Opts;
  if (!parseOptions(Argc, Argv, Opts))
    return 1;
  const std::string &File = Opts.InputFile;
  std::string Text;
  if (!readFile(File, Text)) {
    std::cerr << File << ": error: cannot read file\n";
    return 1;
  }
  if (!Opts.SplitInputFile)
    return processCase(Opts, File, Text);
  int Status = 0;
  std::vector<std::string> Cases = splitCases(Text);
  for (size_t I = 0; I < Cases.size(); ++I) {
    if (I)
      std::cout << "// -----\n";
    std::cout.flush();
    Status |= processCase(Opts, File, Cases[I]);
    std::cout.flush();
  }
  return Status;
}
