//===- sched-opt.cpp - Schedule and lower textual IR outside a compile ---===//
//
//   sched-opt FILE.ir [--schedule='split(i, io, ii, 4) bind(io, blockIdx.x)']
//             [--print-scheduled] [--lower] [--print-after-all] [--print-after=PASS]
//             [--verify-each] [--emit=ir|cuda|vta|descriptor] [--arch=sm_XY]
//
// Reads one nest in the textual IR (ir/IR.h), applies a schedule, and prints
// the scheduled nest (the default), or lowers it and prints the lowered IR,
// the CUDA source (the C++ calling the VTA runtime for a target(vta) nest:
// --emit=vta) or the launch descriptor. This is how lit tests exercise
// the schedule primitives and passes without a C++ front end. --verify-each
// runs the kernel verifier after every lowering pass. --arch=sm_XY is the
// plugin's arch=: the target architecture the passes, the CUDA and the
// descriptor see.
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

#include "Pipeline.h"
#include "codegen/CodeGenCUDA.h"
#include "codegen/CodeGenVTA.h"
#include "codegen/LaunchDescriptor.h"
#include "ir/Parser.h"
#include "ir/Printer.h"
#include "schedule/DirectiveParser.h"
#include "schedule/Schedule.h"

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
  std::string Emit; // "", "ir", "cuda", "vta", "descriptor"
  TargetArch Arch;  // --arch=sm_XY
};

void printUsage() {
  std::cerr << "usage: sched-opt FILE.ir [--schedule=DIRECTIVES] [--print-scheduled] [--lower]\n"
               "                 [--print-after-all] [--print-after=PASS] [--verify-each] [--emit=ir|cuda|vta|descriptor]\n"
               "                 [--arch=" << targetArchNames() << "]\n";
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
      if (Opts.Emit != "ir" && Opts.Emit != "cuda" && Opts.Emit != "vta" &&
          Opts.Emit != "descriptor") {
        std::cerr << "sched-opt: error: unknown --emit kind '" << Opts.Emit << "'\n";
        return false;
      }
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

int emitLowered(const Options &Opts, const ir::LoopNest &Scheduled, const std::string &File,
                const ScheduleText &Schedule) {
  PipelineOptions PO;
  PO.VerifyEach = Opts.VerifyEach;
  PO.Arch = Opts.Arch;
  if (Opts.PrintAfterAll || !Opts.PrintAfter.empty())
    PO.AfterPass = [&Opts](const std::string &Pass, const ir::LoopNest &N) {
      if (Opts.PrintAfterAll || Pass == Opts.PrintAfter)
        std::cout << "// *** IR after " << Pass << " ***\n" << ir::print(N) << "\n";
    };
  LoweredKernel K;
  std::vector<Diag> Diags;
  bool Ok = lower(Scheduled, PO, K, Diags);
  for (const Diag &D : Diags)
    Schedule.report(File, D);
  if (!Ok)
    return 1;
  if (Opts.Emit == "vta") {
    if (K.Kernel.Target != "vta") {
      std::cerr << File << ": error: --emit=vta needs a target(vta) nest\n";
      return 1;
    }
    std::string Source;
    std::vector<Diag> CodegenDiags;
    bool Emitted = emitVTA(K, Source, CodegenDiags);
    for (const Diag &D : CodegenDiags)
      Schedule.report(File, D);
    if (!Emitted)
      return 1;
    std::cout << Source;
    return 0;
  }
  if (Opts.Emit == "cuda" || Opts.Emit == "descriptor") {
    // A VTA program has no CUDA kernel: its descriptor carries none.
    std::string CUDA;
    std::vector<Diag> CodegenDiags;
    bool Emitted = K.Kernel.Target == "vta" || emitCUDA(K, CUDA, CodegenDiags);
    for (const Diag &D : CodegenDiags)
      Schedule.report(File, D);
    if (!Emitted)
      return 1;
    if (Opts.Emit == "cuda") {
      std::cout << CUDA;
      return 0;
    }
    LaunchDescriptor LD;
    for (const ir::Param &P : K.Kernel.Params)
      LD.ArgKinds.push_back(P.ParamKind == ir::Param::Kind::Buffer
                                ? LaunchDescriptor::ArgKind::Pointer
                                : LaunchDescriptor::ArgKind::Scalar);
    LD.Kernel = K;
    LD.CUDASource = CUDA;
    std::cout << serializeDescriptor(LD) << "\n";
  } else if (!Opts.PrintAfterAll) {
    std::cout << ir::print(K.Kernel);
  }
  return 0;
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

  bool WantsLowering = Opts.Lower || Opts.PrintAfterAll || !Opts.PrintAfter.empty() || Opts.VerifyEach || !Opts.Emit.empty();
  if (Opts.PrintScheduled || !WantsLowering)
    std::cout << ir::print(Nest);
  if (!WantsLowering)
    return 0;
  return emitLowered(Opts, Nest, File, Schedule);
}
