//===- LaunchDescriptor.cpp - The launch descriptor's text format --------===//
//
// The plugin embeds each kernel's descriptor in the program as a string
// literal; the runtime parses it at the first launch. The format is
// line-oriented, human-readable (it shows up in -save-temps output and in
// bug reports), and round-trips exactly. Free text that could hold anything
// (the source file name, the IR, the CUDA source) is length-prefixed:
//
//   sched-launch-descriptor v1
//   kernel sched_matmul_12
//   source 12 10 matmul.cpp          <- line, then byte length and file name
//   args 3 pointer array scalar      <- one per parameter, in Params order
//   runner vta-program               <- only for a runner other than the
//                                       kernel runner (RunnerKind)
//   arch sm_80                       <- only when an architecture was asked for
//   min-cc 70                        <- only when the payload needs a compute
//                                       capability (wmma: 70), computed by
//                                       the target when the kernel is emitted
//   region r A                       <- one per buffer parameter: r, w, rw or -
//   region w C
//   finals 2 int32 i int64 j         <- only when the nest assigns variables
//                                       declared outside it: type and name each
//   exprs 123                        <- byte length, then the text
//   func __sched_launch_exprs(M: int32, __sched_exprs: int32*[8] global) ... {
//     __sched_exprs[0] = ((M + 15)/16)
//     ...
//   }
//   ir 456                           <- with the run-time assumptions
//   func sched_matmul_12(...) target=gpu assume((N <= ldc)) { ... }
//   cuda 789
//   extern "C" __global__ void sched_matmul_12(...) { ... }
//   end
//
// Launch expressions (grid x/y/z, block x/y/z, one extent per region, one
// origin per region, then the condition and the value of each final) must
// be read back as IR over the kernel's scalar parameters. Rather than a
// second parser for bare expressions, they travel as the stored values of a
// small wrapper func that the one IR parser reads; slot k holds expression k,
// an absent slot is a null expression. Parsing then rebinds the wrapper's
// parameters to the kernel's own scalar variables (by name), since variables
// have identity. Run-time assumptions are part of the kernel's IR, so they
// come back already bound to those variables. checkLaunchExprs is the
// compiler's promise that all of these are over scalar parameters only.
//
//===----------------------------------------------------------------------===//
#include "ir/LaunchDescriptor.h"
#include "ir/Kernel.h"
#include "ir/IRMutator.h"
#include "ir/Parser.h"
#include "ir/Printer.h"

#include <sstream>

namespace sched {

namespace {

const char *const Header = "sched-launch-descriptor v1";
const char *const ExprsFuncName = "__sched_launch_exprs";
const char *const ExprsBufferName = "__sched_exprs";

const char *argKindName(LaunchDescriptor::ArgKind K) {
  switch (K) {
  case LaunchDescriptor::ArgKind::Pointer: return "pointer";
  case LaunchDescriptor::ArgKind::Array: return "array";
  case LaunchDescriptor::ArgKind::Scalar: return "scalar";
  }
  return "pointer";
}

bool parseArgKind(const std::string &S, LaunchDescriptor::ArgKind &Out) {
  for (auto K : {LaunchDescriptor::ArgKind::Pointer, LaunchDescriptor::ArgKind::Array,
                 LaunchDescriptor::ArgKind::Scalar})
    if (S == argKindName(K)) {
      Out = K;
      return true;
    }
  return false;
}

std::string accessFlags(const BufferRegion &R) {
  if (R.Read && R.Written)
    return "rw";
  if (R.Read)
    return "r";
  if (R.Written)
    return "w";
  return "-";
}

/// Grid, block, the region extents, the region origins (a null origin,
/// 0, stores nothing), then each final's condition (null: always) and
/// value: the order of the expression slots.
std::vector<ir::Expr> launchExprs(const LaunchDescriptor &D) {
  const LoweredKernel &K = D.Kernel;
  std::vector<ir::Expr> Exprs;
  for (const ir::Expr &E : K.Geometry.Grid)
    Exprs.push_back(E);
  for (const ir::Expr &E : K.Geometry.Block)
    Exprs.push_back(E);
  for (const BufferRegion &R : K.Regions)
    Exprs.push_back(R.Extent);
  for (const BufferRegion &R : K.Regions)
    Exprs.push_back(R.Min);
  for (const LaunchDescriptor::FinalValue &F : D.Finals) {
    Exprs.push_back(F.When);
    Exprs.push_back(F.Value);
  }
  return Exprs;
}

/// The wrapper func that carries the launch expressions.
ir::LoopNest exprsFunc(const LaunchDescriptor &D) {
  const LoweredKernel &K = D.Kernel;
  std::vector<ir::Expr> Exprs = launchExprs(D);
  ir::LoopNest F;
  F.Name = ExprsFuncName;
  F.Target = K.Kernel.Target;
  for (const ir::Param &P : K.Kernel.Params)
    if (P.ParamKind == ir::Param::Kind::Scalar)
      F.Params.push_back(P);
  ir::Buffer Slots = ir::makeBuffer(ExprsBufferName, ir::DType::Int32,
                                    {ir::makeInt(static_cast<int64_t>(Exprs.size()))});
  ir::Param SlotParam;
  SlotParam.ParamKind = ir::Param::Kind::Buffer;
  SlotParam.Buf = Slots;
  F.Params.push_back(SlotParam);
  std::vector<ir::Stmt> Stores;
  for (size_t I = 0; I < Exprs.size(); ++I)
    if (Exprs[I])
      Stores.push_back(ir::makeStore(Slots, {ir::makeInt(static_cast<int64_t>(I))}, Exprs[I]));
  if (Stores.empty())
    Stores.push_back(ir::makeEvaluate(ir::makeInt(0)));
  F.Body = ir::makeSeq(Stores);
  return F;
}

void writeBlock(std::ostringstream &OS, const char *Tag, const std::string &Text) {
  OS << Tag << ' ' << Text.size() << '\n' << Text << '\n';
}

/// A cursor over the descriptor text.
class Reader {
public:
  explicit Reader(const std::string &Text) : Text(Text) {}

  bool line(std::string &Out) {
    if (Pos >= Text.size())
      return fail("unexpected end of descriptor");
    size_t End = Text.find('\n', Pos);
    if (End == std::string::npos)
      End = Text.size();
    Out = Text.substr(Pos, End - Pos);
    Pos = End + 1;
    ++Line;
    return true;
  }

  bool startsWith(const std::string &Prefix) const {
    return Text.compare(std::min(Pos, Text.size()), Prefix.size(), Prefix) == 0;
  }

  /// Reads "<Tag> <rest>" and gives rest.
  bool tagged(const std::string &Tag, std::string &Rest) {
    std::string L;
    if (!line(L))
      return false;
    if (L.compare(0, Tag.size() + 1, Tag + " ") != 0)
      return fail("expected '" + Tag + "'");
    Rest = L.substr(Tag.size() + 1);
    return true;
  }

  /// Reads "<Tag> <length>\n<bytes>\n".
  bool block(const std::string &Tag, std::string &Out) {
    std::string Rest;
    size_t Length;
    if (!tagged(Tag, Rest) || !parseSize(Rest, Length))
      return fail("expected '" + Tag + " <length>'");
    if (Text.size() - std::min(Pos, Text.size()) < Length + 1 || Text[Pos + Length] != '\n')
      return fail("'" + Tag + "' section is truncated");
    Out = Text.substr(Pos, Length);
    for (char C : Out)
      Line += C == '\n';
    Pos += Length + 1;
    ++Line;
    return true;
  }

  bool fail(const std::string &Message) {
    if (Error.empty())
      Error = "descriptor line " + std::to_string(Line + 1) + ": " + Message;
    return false;
  }

  static bool parseSize(const std::string &S, size_t &Out) {
    if (S.empty() || S.size() > 18 || S.find_first_not_of("0123456789") != std::string::npos)
      return false;
    Out = static_cast<size_t>(std::stoull(S));
    return true;
  }

  std::string Error;

private:
  const std::string &Text;
  size_t Pos = 0;
  unsigned Line = 0;
};

bool parseSource(Reader &R, ir::LoopNest &Kernel) {
  std::string Rest;
  if (!R.tagged("source", Rest))
    return false;
  std::istringstream IS(Rest);
  std::string LineText, LengthText;
  size_t Line, Length;
  if (!(IS >> LineText >> LengthText) || !Reader::parseSize(LineText, Line) ||
      !Reader::parseSize(LengthText, Length) || Line > 0xffffffffu)
    return R.fail("expected 'source <line> <length> <file>'");
  size_t Start = static_cast<size_t>(IS.tellg());
  if (Start == std::string::npos || Rest.size() != Start + 1 + Length || Rest[Start] != ' ')
    return R.fail("source file name has the wrong length");
  Kernel.SourceFile = Rest.substr(Start + 1);
  Kernel.SourceLine = static_cast<unsigned>(Line);
  return true;
}

bool parseArgs(Reader &R, LaunchDescriptor &Out) {
  std::string Rest;
  if (!R.tagged("args", Rest))
    return false;
  std::istringstream IS(Rest);
  std::string CountText, Kind;
  size_t Count;
  if (!(IS >> CountText) || !Reader::parseSize(CountText, Count))
    return R.fail("expected 'args <count> <kind>...'");
  Out.ArgKinds.clear();
  while (IS >> Kind) {
    LaunchDescriptor::ArgKind K;
    if (!parseArgKind(Kind, K))
      return R.fail("unknown argument kind '" + Kind + "'");
    Out.ArgKinds.push_back(K);
  }
  if (Out.ArgKinds.size() != Count)
    return R.fail("argument count does not match");
  return true;
}

const char *runnerName(RunnerKind K) {
  switch (K) {
  case RunnerKind::Kernel: return "kernel";
  case RunnerKind::VtaProgram: return "vta-program";
  }
  return "kernel";
}

/// Reads the optional "runner <kind>" line.
bool parseRunner(Reader &R, RunnerKind &Out) {
  std::string Name;
  if (!R.startsWith("runner "))
    return true;
  if (!R.tagged("runner", Name))
    return false;
  for (RunnerKind K : {RunnerKind::Kernel, RunnerKind::VtaProgram})
    if (Name == runnerName(K)) {
      Out = K;
      return true;
    }
  return R.fail("unknown runner '" + Name + "'");
}

/// Reads the optional "arch <sm_XY>" line.
bool parseArch(Reader &R, TargetArch &Out) {
  std::string Name;
  if (!R.startsWith("arch "))
    return true;
  if (!R.tagged("arch", Name))
    return false;
  if (!parseTargetArch(Name, Out))
    return R.fail("unknown target architecture '" + Name + "'; valid: " + targetArchNames());
  return true;
}

/// Reads the optional "min-cc <N>" line: the compute capability the
/// payload needs (major*10 + minor).
bool parseMinCapability(Reader &R, int &Out) {
  std::string Rest;
  size_t N;
  if (!R.startsWith("min-cc "))
    return true;
  if (!R.tagged("min-cc", Rest))
    return false;
  if (!Reader::parseSize(Rest, N) || N == 0 || N > 1000)
    return R.fail("expected 'min-cc <compute capability>'");
  Out = static_cast<int>(N);
  return true;
}

/// Reads the optional "finals <count> (<type> <name>)..." line.
bool parseFinals(Reader &R, std::vector<LaunchDescriptor::FinalValue> &Out) {
  std::string Rest;
  if (!R.startsWith("finals "))
    return true;
  if (!R.tagged("finals", Rest))
    return false;
  std::istringstream IS(Rest);
  std::string CountText, Type, Name;
  size_t Count;
  if (!(IS >> CountText) || !Reader::parseSize(CountText, Count))
    return R.fail("expected 'finals <count> <type> <name>...'");
  while (IS >> Type >> Name) {
    LaunchDescriptor::FinalValue F;
    F.Name = Name;
    if (!ir::parseDType(Type, F.Type) || !ir::isInt(F.Type))
      return R.fail("final '" + Name + "' has a type that is not an integer: '" + Type + "'");
    Out.push_back(F);
  }
  if (Out.size() != Count)
    return R.fail("final count does not match");
  return true;
}

/// Reads the "region <flags> <param>" lines.
bool parseRegions(Reader &R, std::vector<BufferRegion> &Out) {
  std::string Rest;
  while (R.startsWith("region ")) {
    if (!R.tagged("region", Rest))
      return false;
    size_t Space = Rest.find(' ');
    if (Space == std::string::npos)
      return R.fail("expected 'region <r|w|rw|-> <param>'");
    std::string Flags = Rest.substr(0, Space);
    if (Flags != "r" && Flags != "w" && Flags != "rw" && Flags != "-")
      return R.fail("bad region access '" + Flags + "'");
    BufferRegion Region;
    Region.Param = Rest.substr(Space + 1);
    Region.Read = Flags.find('r') != std::string::npos;
    Region.Written = Flags.find('w') != std::string::npos;
    Out.push_back(Region);
  }
  return true;
}

/// Reads the launch expressions back from the wrapper func and rebinds them
/// to the kernel's scalar parameters.
bool parseLaunchExprs(Reader &R, const std::string &Text, const ir::LoopNest &Kernel,
                      size_t NumSlots, std::vector<ir::Expr> &Slots) {
  ir::LoopNest F;
  std::string Error;
  if (!ir::parseLoopNest(Text, F, Error))
    return R.fail("in exprs: " + Error);
  std::map<const ir::VarNode *, ir::Expr> Rebind;
  for (const ir::Param &P : F.Params) {
    if (P.ParamKind != ir::Param::Kind::Scalar)
      continue;
    for (const ir::Param &KP : Kernel.Params)
      if (KP.ParamKind == ir::Param::Kind::Scalar && KP.Scalar->Name == P.Scalar->Name)
        Rebind[P.Scalar.get()] = KP.Scalar;
  }
  std::vector<ir::Stmt> Stores;
  if (const auto *Seq = ir::as<ir::SeqNode>(F.Body))
    Stores = Seq->Stmts;
  else
    Stores.push_back(F.Body);
  Slots.assign(NumSlots, nullptr);
  for (const ir::Stmt &S : Stores) {
    const auto *Store = ir::as<ir::StoreNode>(S);
    if (!Store)
      continue;
    int64_t Slot;
    if (Store->Indices.size() != 1 || !ir::getConstInt(Store->Indices[0], Slot) || Slot < 0 ||
        static_cast<size_t>(Slot) >= NumSlots)
      return R.fail("bad slot in exprs");
    Slots[Slot] = ir::substitute(Store->Value, Rebind);
  }
  return true;
}

} // namespace

bool checkLaunchExprs(const LoweredKernel &K, std::string &Error,
                      const std::vector<LaunchDescriptor::FinalValue> &Finals) {
  static const char *const Axis = "xyz";
  std::vector<std::pair<std::string, ir::Expr>> Named;
  for (int D = 0; D < 3; ++D) {
    Named.push_back({std::string("grid extent in ") + Axis[D], K.Geometry.Grid[D]});
    Named.push_back({std::string("block extent in ") + Axis[D], K.Geometry.Block[D]});
  }
  for (const BufferRegion &R : K.Regions) {
    Named.push_back({"copy region of '" + R.Param + "'", R.Extent});
    Named.push_back({"copy region origin of '" + R.Param + "'", R.Min});
  }
  for (const ir::Expr &A : K.Kernel.Assumptions)
    Named.push_back({"run-time assumption", A});
  for (const LaunchDescriptor::FinalValue &F : Finals) {
    Named.push_back({"condition of the final value of '" + F.Name + "'", F.When});
    Named.push_back({"final value of '" + F.Name + "'", F.Value});
  }
  for (const auto &Entry : Named)
    if (Entry.second && !isLaunchExpr(Entry.second, K.Kernel)) {
      Error = "the " + Entry.first + " '" + ir::print(Entry.second) +
              "' is not an expression over scalar parameters";
      return false;
    }
  return true;
}

std::string serializeDescriptor(const LaunchDescriptor &D) {
  const LoweredKernel &K = D.Kernel;
  std::ostringstream OS;
  OS << Header << '\n';
  OS << "kernel " << K.Kernel.Name << '\n';
  OS << "source " << K.Kernel.SourceLine << ' ' << K.Kernel.SourceFile.size() << ' '
     << K.Kernel.SourceFile << '\n';
  OS << "args " << D.ArgKinds.size();
  for (LaunchDescriptor::ArgKind A : D.ArgKinds)
    OS << ' ' << argKindName(A);
  OS << '\n';
  if (D.Runner != RunnerKind::Kernel)
    OS << "runner " << runnerName(D.Runner) << '\n';
  if (K.Arch.isSet())
    OS << "arch " << K.Arch.name() << '\n';
  if (D.MinCapability)
    OS << "min-cc " << D.MinCapability << '\n';
  if (!D.Finals.empty()) {
    OS << "finals " << D.Finals.size();
    for (const LaunchDescriptor::FinalValue &F : D.Finals)
      OS << ' ' << ir::dtypeName(F.Type) << ' ' << F.Name;
    OS << '\n';
  }
  for (const BufferRegion &R : K.Regions)
    OS << "region " << accessFlags(R) << ' ' << R.Param << '\n';
  writeBlock(OS, "exprs", ir::print(exprsFunc(D)));
  writeBlock(OS, "ir", ir::print(K.Kernel));
  writeBlock(OS, "cuda", D.Payload);
  OS << "end\n";
  return OS.str();
}

bool parseDescriptor(const std::string &Text, LaunchDescriptor &Out, std::string &Error) {
  Out = LaunchDescriptor();
  Reader R(Text);
  LoweredKernel &K = Out.Kernel;
  std::string L, Name, ExprsText, IRText, End;
  std::vector<ir::Expr> Slots;
  bool Ok = R.line(L) && (L == Header || R.fail("not a sched launch descriptor (v1)")) &&
            R.tagged("kernel", Name) && parseSource(R, K.Kernel) && parseArgs(R, Out) &&
            parseRunner(R, Out.Runner) && parseArch(R, K.Arch) &&
            parseMinCapability(R, Out.MinCapability) && parseFinals(R, Out.Finals) &&
            parseRegions(R, K.Regions) &&
            R.block("exprs", ExprsText) &&
            R.block("ir", IRText) && R.block("cuda", Out.Payload) && R.line(End) &&
            (End == "end" || R.fail("expected 'end'"));
  if (Ok) {
    // The IR carries the kernel's name, target and parameters; the header
    // line carries where it came from.
    std::string SourceFile = K.Kernel.SourceFile;
    unsigned SourceLine = K.Kernel.SourceLine;
    std::string IRError;
    Ok = ir::parseLoopNest(IRText, K.Kernel, IRError) || R.fail("in ir: " + IRError);
    K.Kernel.SourceFile = SourceFile;
    K.Kernel.SourceLine = SourceLine;
  }
  Ok = Ok && (K.Kernel.Name == Name || R.fail("kernel name does not match its ir")) &&
       (Out.ArgKinds.size() == K.Kernel.Params.size() ||
        R.fail("argument count does not match the kernel's parameters")) &&
       parseLaunchExprs(R, ExprsText, K.Kernel,
                        6 + 2 * K.Regions.size() + 2 * Out.Finals.size(), Slots);
  if (!Ok) {
    Error = R.Error;
    return false;
  }
  for (int D = 0; D < 3; ++D) {
    K.Geometry.Grid[D] = Slots[D];
    K.Geometry.Block[D] = Slots[3 + D];
  }
  for (size_t I = 0; I < K.Regions.size(); ++I) {
    K.Regions[I].Extent = Slots[6 + I];
    K.Regions[I].Min = Slots[6 + K.Regions.size() + I];
  }
  const size_t FirstFinal = 6 + 2 * K.Regions.size();
  for (size_t I = 0; I < Out.Finals.size(); ++I) {
    Out.Finals[I].When = Slots[FirstFinal + 2 * I];
    Out.Finals[I].Value = Slots[FirstFinal + 2 * I + 1];
    if (!Out.Finals[I].Value) {
      Error = "descriptor: final '" + Out.Finals[I].Name + "' has no value";
      return false;
    }
  }
  return true;
}

} // namespace sched
