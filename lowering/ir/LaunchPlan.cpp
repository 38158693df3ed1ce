//===- LaunchPlan.cpp - Launch plans: evaluation and text -----------------===//
//
// ScalarProgram's evaluator and text form, and the descriptor text's reader
// and writer (the format is described in ir/LaunchDescriptor.cpp). Nothing
// here reads IR: ir/Types.h is all it uses.
//
//===----------------------------------------------------------------------===//
#include "ir/LaunchPlan.h"

#include <algorithm>
#include <sstream>

namespace sched {

//===----------------------------------------------------------------------===//
// ScalarProgram
//===----------------------------------------------------------------------===//

namespace {

const std::pair<ir::BinOp, const char *> BinOpNames[] = {
    {ir::BinOp::Add, "add"},       {ir::BinOp::Sub, "sub"},       {ir::BinOp::Mul, "mul"},
    {ir::BinOp::Div, "div"},       {ir::BinOp::Mod, "mod"},       {ir::BinOp::Min, "min"},
    {ir::BinOp::Max, "max"},       {ir::BinOp::EQ, "eq"},         {ir::BinOp::NE, "ne"},
    {ir::BinOp::LT, "lt"},         {ir::BinOp::LE, "le"},         {ir::BinOp::GT, "gt"},
    {ir::BinOp::GE, "ge"},         {ir::BinOp::And, "and"},       {ir::BinOp::Or, "or"},
    {ir::BinOp::BitAnd, "bitand"}, {ir::BinOp::BitOr, "bitor"},   {ir::BinOp::BitXor, "bitxor"},
    {ir::BinOp::Shl, "shl"},       {ir::BinOp::Shr, "shr"},
};

const std::pair<ir::UnOp, const char *> UnOpNames[] = {
    {ir::UnOp::Neg, "neg"}, {ir::UnOp::Not, "not"}, {ir::UnOp::BitNot, "bitnot"}};

bool parseInt(const std::string &S, int64_t &Out) {
  if (S.empty() || S.size() > 20)
    return false;
  size_t Digits = S[0] == '-' ? 1 : 0;
  if (Digits == S.size() || S.find_first_not_of("0123456789", Digits) != std::string::npos)
    return false;
  try {
    Out = std::stoll(S);
  } catch (...) {
    return false;
  }
  return true;
}

} // namespace

size_t ScalarProgram::arity(OpCode Code) {
  switch (Code) {
  case OpCode::Int:
  case OpCode::Param: return 0;
  case OpCode::Binary: return 2;
  case OpCode::Unary:
  case OpCode::Cast: return 1;
  case OpCode::Select: return 3;
  }
  return 0;
}

bool ScalarProgram::eval(const std::vector<int64_t> &Values, int64_t &Out, std::string &Error,
                         int64_t Default) const {
  if (Ops.empty()) {
    Out = Default;
    return true;
  }
  std::vector<int64_t> Stack;
  for (const Op &O : Ops) {
    if (Stack.size() < arity(O.Code)) {
      Error = "malformed launch expression";
      return false;
    }
    switch (O.Code) {
    case OpCode::Int:
      Stack.push_back(O.Value);
      break;
    case OpCode::Param:
      if (O.Value < 0 || static_cast<size_t>(O.Value) >= Values.size()) {
        Error = "a launch expression reads parameter " + std::to_string(O.Value) + " of " +
                std::to_string(Values.size());
        return false;
      }
      Stack.push_back(Values[O.Value]);
      break;
    case OpCode::Binary: {
      int64_t B = Stack.back();
      Stack.pop_back();
      if (!ir::evalScalarBinary(O.Bin, O.Type, Stack.back(), B, Stack.back(), Error))
        return false;
      break;
    }
    case OpCode::Unary:
      Stack.back() = ir::evalScalarUnary(O.Un, O.Type, Stack.back());
      break;
    case OpCode::Select: {
      int64_t F = Stack.back();
      Stack.pop_back();
      int64_t T = Stack.back();
      Stack.pop_back();
      Stack.back() = Stack.back() ? T : F;
      break;
    }
    case OpCode::Cast:
      Stack.back() = ir::isInt(O.Type) ? ir::wrapToType(Stack.back(), O.Type)
                                       : static_cast<int64_t>(Stack.back() != 0);
      break;
    }
  }
  if (Stack.size() != 1) {
    Error = "malformed launch expression";
    return false;
  }
  Out = Stack.back();
  return true;
}

std::vector<size_t> ScalarProgram::params() const {
  std::vector<size_t> Out;
  for (const Op &O : Ops)
    if (O.Code == OpCode::Param && O.Value >= 0)
      Out.push_back(static_cast<size_t>(O.Value));
  std::sort(Out.begin(), Out.end());
  Out.erase(std::unique(Out.begin(), Out.end()), Out.end());
  return Out;
}

std::string ScalarProgram::str() const {
  if (Ops.empty())
    return "-";
  std::string Out;
  for (const Op &O : Ops) {
    if (!Out.empty())
      Out += ' ';
    switch (O.Code) {
    case OpCode::Int:
      Out += std::to_string(O.Value);
      if (O.Type != ir::DType::Int32)
        Out += std::string(":") + ir::dtypeName(O.Type);
      break;
    case OpCode::Param: Out += "$" + std::to_string(O.Value); break;
    case OpCode::Binary:
      for (const auto &N : BinOpNames)
        if (N.first == O.Bin)
          Out += N.second;
      Out += std::string(".") + ir::dtypeName(O.Type);
      break;
    case OpCode::Unary:
      for (const auto &N : UnOpNames)
        if (N.first == O.Un)
          Out += N.second;
      Out += std::string(".") + ir::dtypeName(O.Type);
      break;
    case OpCode::Select: Out += "select"; break;
    case OpCode::Cast: Out += std::string("cast.") + ir::dtypeName(O.Type); break;
    }
  }
  return Out;
}

bool ScalarProgram::parse(const std::string &Text, ScalarProgram &Out, std::string &Error) {
  Out = ScalarProgram();
  if (Text == "-")
    return true;
  std::istringstream IS(Text);
  std::string Token;
  while (IS >> Token) {
    Op O;
    size_t Dot = Token.find('.');
    std::string Name = Token.substr(0, Dot);
    bool Known = false;
    size_t Colon = Token.find(':');
    if (parseInt(Token.substr(0, Colon), O.Value)) {
      O.Code = OpCode::Int;
      O.Type = ir::DType::Int32;
      Known = Colon == std::string::npos || ir::parseDType(Token.substr(Colon + 1), O.Type);
    } else if (Token.size() > 1 && Token[0] == '$' && parseInt(Token.substr(1), O.Value) &&
               O.Value >= 0) {
      O.Code = OpCode::Param;
      Known = true;
    } else if (Token == "select") {
      O.Code = OpCode::Select;
      Known = true;
    } else if (Dot != std::string::npos && ir::parseDType(Token.substr(Dot + 1), O.Type)) {
      if (Name == "cast") {
        O.Code = OpCode::Cast;
        Known = true;
      }
      for (const auto &N : BinOpNames)
        if (Name == N.second) {
          O.Code = OpCode::Binary;
          O.Bin = N.first;
          Known = true;
        }
      for (const auto &N : UnOpNames)
        if (Name == N.second) {
          O.Code = OpCode::Unary;
          O.Un = N.first;
          Known = true;
        }
    }
    if (!Known) {
      Error = "unknown launch expression op '" + Token + "'";
      return false;
    }
    Out.Ops.push_back(O);
  }
  if (Out.Ops.empty()) {
    Error = "empty launch expression (write '-')";
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// LaunchPlan
//===----------------------------------------------------------------------===//

std::vector<int64_t> LaunchPlan::scalarValues(const std::vector<void *> &Data) const {
  std::vector<int64_t> Values(Params.size(), 0);
  for (size_t I = 0; I < Params.size() && I < Data.size(); ++I)
    if (!Params[I].IsBuffer && Data[I])
      Values[I] = ir::readIntScalar(Data[I], Params[I].Type);
  return Values;
}

bool LaunchPlan::geometry(const std::vector<int64_t> &Values, int64_t GridOut[3],
                          int64_t BlockOut[3], bool &Empty, std::string &Error) const {
  Empty = false;
  for (int Dim = 0; Dim < 3; ++Dim) {
    std::string Why;
    if (!Grid[Dim].eval(Values, GridOut[Dim], Why) ||
        !Block[Dim].eval(Values, BlockOut[Dim], Why)) {
      Error = "cannot evaluate the launch geometry: " + Why;
      return false;
    }
    if (GridOut[Dim] < 0 || BlockOut[Dim] < 1) {
      Error = "bad launch geometry";
      return false;
    }
    Empty |= GridOut[Dim] == 0;
  }
  return true;
}

bool LaunchPlan::region(size_t I, const std::vector<int64_t> &Values, const void *Data,
                        int64_t &Min, int64_t &Extent, std::string &Error) const {
  const Param &Q = Params[I];
  Min = Extent = 0;
  if (!Q.HasRegion)
    return true;
  std::string Why;
  if (!Q.Extent.eval(Values, Extent, Why) || Extent < 0 || !Q.Min.eval(Values, Min, Why, 0)) {
    Error = "cannot evaluate the region of '" + Q.Name + "': " + Why;
    return false;
  }
  if (!Data && Extent > 0) {
    Error = "argument for parameter '" + Q.Name + "' is null, but the kernel touches " +
            std::to_string(Extent) + " of its elements";
    return false;
  }
  return true;
}

bool LaunchPlan::regionBytes(size_t I, const std::vector<int64_t> &Values, const void *Data,
                             uintptr_t &Begin, uintptr_t &End, std::string &Error) const {
  int64_t Min, Extent;
  if (!region(I, Values, Data, Min, Extent, Error))
    return false;
  const int64_t Element = ir::dtypeBytes(Params[I].Type);
  Begin = reinterpret_cast<uintptr_t>(Data) + static_cast<uintptr_t>(Min * Element);
  End = Begin + static_cast<uintptr_t>(Extent * Element);
  return true;
}

std::string LaunchPlan::where() const {
  return Kernel + " (" + SourceFile + ":" + std::to_string(SourceLine) + ")";
}

namespace {

const char *const Header = "sched-launch-descriptor v2";
const char *const Axis = "xyz";

const char *argKindName(LaunchPlan::ArgKind K) {
  switch (K) {
  case LaunchPlan::ArgKind::Pointer: return "pointer";
  case LaunchPlan::ArgKind::Array: return "array";
  case LaunchPlan::ArgKind::Scalar: return "scalar";
  case LaunchPlan::ArgKind::Scratch: return "scratch";
  }
  return "pointer";
}

const char *runnerName(RunnerKind K) {
  return K == RunnerKind::VtaProgram ? "vta-program" : "kernel";
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

  /// Reads the optional "<Tag> <rest>" line: false only when it is there
  /// and cannot be read; Present says whether it was.
  bool optional(const std::string &Tag, std::string &Rest, bool &Present) {
    Present = startsWith(Tag + " ");
    return !Present || tagged(Tag, Rest);
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

  /// Reads "<Tag> <program>" (the program's text to the end of the line, or
  /// up to " ; " where a display text follows, given in Display).
  bool program(const std::string &Tag, ScalarProgram &Out, std::string *Display = nullptr) {
    std::string Rest, Why;
    if (!tagged(Tag, Rest))
      return false;
    size_t Split = Display ? Rest.find(" ; ") : std::string::npos;
    if (Display) {
      if (Split == std::string::npos)
        return fail("expected '" + Tag + " <program> ; <text>'");
      *Display = Rest.substr(Split + 3);
      Rest = Rest.substr(0, Split);
    }
    return ScalarProgram::parse(Rest, Out, Why) || fail(Why);
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

bool parseSource(Reader &R, LaunchPlan &P) {
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
  P.SourceFile = Rest.substr(Start + 1);
  P.SourceLine = static_cast<unsigned>(Line);
  return true;
}

/// The optional runner, arch, min-cc lines and the shared-bytes line.
bool parseTarget(Reader &R, LaunchPlan &P) {
  std::string Rest;
  bool Present;
  if (!R.optional("runner", Rest, Present))
    return false;
  if (Present) {
    if (Rest == runnerName(RunnerKind::VtaProgram))
      P.Runner = RunnerKind::VtaProgram;
    else if (Rest != runnerName(RunnerKind::Kernel))
      return R.fail("unknown runner '" + Rest + "'");
  }
  if (!R.optional("arch", Rest, Present))
    return false;
  if (Present && !parseTargetArch(Rest, P.Arch))
    return R.fail("unknown target architecture '" + Rest + "'; valid: " + targetArchNames());
  size_t N;
  if (!R.optional("min-cc", Rest, Present))
    return false;
  if (Present) {
    if (!Reader::parseSize(Rest, N) || N == 0 || N > 1000)
      return R.fail("expected 'min-cc <compute capability>'");
    P.MinCapability = static_cast<int>(N);
  }
  if (!R.tagged("shared-bytes", Rest))
    return false;
  if (Rest == "-1")
    P.SharedBytes = -1;
  else if (Reader::parseSize(Rest, N))
    P.SharedBytes = static_cast<int64_t>(N);
  else
    return R.fail("expected 'shared-bytes <bytes>' or -1");
  return true;
}

/// "param <arg kind> <buffer|scalar> <dtype> <name>", each followed by its
/// optional "align <bytes>" and, for a buffer it touches, "region <r|w|rw|->"
/// with "region-min" and "region-extent".
bool parseParams(Reader &R, LaunchPlan &P) {
  std::string Rest;
  while (R.startsWith("param ")) {
    if (!R.tagged("param", Rest))
      return false;
    std::istringstream IS(Rest);
    std::string Arg, Kind, Type;
    LaunchPlan::Param Q;
    if (!(IS >> Arg >> Kind >> Type >> Q.Name) || (Kind != "buffer" && Kind != "scalar"))
      return R.fail("expected 'param <pointer|array|scalar|scratch> <buffer|scalar> <dtype> <name>'");
    bool KnownArg = false;
    for (auto K : {LaunchPlan::ArgKind::Pointer, LaunchPlan::ArgKind::Array,
                   LaunchPlan::ArgKind::Scalar, LaunchPlan::ArgKind::Scratch})
      if (Arg == argKindName(K))
        Q.Arg = K, KnownArg = true;
    if (!KnownArg)
      return R.fail("unknown argument kind '" + Arg + "'");
    if (!ir::parseDType(Type, Q.Type))
      return R.fail("unknown type '" + Type + "'");
    Q.IsBuffer = Kind == "buffer";
    bool Present;
    size_t N;
    if (!R.optional("align", Rest, Present))
      return false;
    if (Present) {
      if (!Reader::parseSize(Rest, N) || N == 0)
        return R.fail("expected 'align <bytes>'");
      Q.Alignment = static_cast<int64_t>(N);
    }
    if (!R.optional("region", Rest, Present))
      return false;
    if (Present) {
      if (Rest != "r" && Rest != "w" && Rest != "rw" && Rest != "-")
        return R.fail("bad region access '" + Rest + "'");
      Q.HasRegion = true;
      Q.Read = Rest.find('r') != std::string::npos;
      Q.Written = Rest.find('w') != std::string::npos;
      if (!R.program("region-min", Q.Min) || !R.program("region-extent", Q.Extent))
        return false;
    }
    P.Params.push_back(std::move(Q));
  }
  return true;
}

bool parseGeometry(Reader &R, LaunchPlan &P) {
  for (bool Grid : {true, false})
    for (int D = 0; D < 3; ++D)
      if (!R.program(std::string(Grid ? "grid " : "block ") + Axis[D],
                     Grid ? P.Grid[D] : P.Block[D], Grid ? &P.GridText[D] : &P.BlockText[D]))
        return false;
  while (R.startsWith("assume ")) {
    LaunchPlan::Assumption A;
    if (!R.program("assume", A.Holds, &A.Text))
      return false;
    P.Assumptions.push_back(std::move(A));
  }
  return true;
}

bool parseFinals(Reader &R, LaunchPlan &P) {
  std::string Rest;
  while (R.startsWith("final ")) {
    if (!R.tagged("final", Rest))
      return false;
    std::istringstream IS(Rest);
    std::string Type;
    LaunchPlan::Final F;
    if (!(IS >> Type >> F.Name))
      return R.fail("expected 'final <type> <name>'");
    if (!ir::parseDType(Type, F.Type) || !ir::isInt(F.Type))
      return R.fail("final '" + F.Name + "' has a type that is not an integer: '" + Type + "'");
    if (!R.program("final-when", F.When) || !R.program("final-value", F.Value))
      return false;
    if (F.Value.empty())
      return R.fail("final '" + F.Name + "' has no value");
    P.Finals.push_back(std::move(F));
  }
  return true;
}

/// The "image <arch> <length>" blocks.
bool parseImages(Reader &R, LaunchPlan &P) {
  while (R.startsWith("image ")) {
    LaunchPlan::Image I;
    std::string Rest;
    size_t Space;
    {
      Reader Peek = R;
      if (!Peek.tagged("image", Rest) || (Space = Rest.find(' ')) == std::string::npos)
        return R.fail("expected 'image <compute_XY> <length>'");
    }
    I.Arch = Rest.substr(0, Space);
    TargetArch Arch;
    if (I.Arch.compare(0, 8, "compute_") != 0 || !parseTargetArch("sm_" + I.Arch.substr(8), Arch))
      return R.fail("image for an unknown architecture '" + I.Arch + "'");
    if (!R.block("image " + I.Arch, I.Ptx))
      return false;
    P.Images.push_back(std::move(I));
  }
  return true;
}

} // namespace

const LaunchPlan::Image *imageForDevice(const LaunchPlan &P, int DeviceArch) {
  const LaunchPlan::Image *Best = nullptr;
  int BestNumber = -1;
  for (const LaunchPlan::Image &I : P.Images) {
    TargetArch Arch;
    if (I.Arch.compare(0, 8, "compute_") != 0 || !parseTargetArch("sm_" + I.Arch.substr(8), Arch))
      continue;
    if (Arch.Number > DeviceArch || (Arch.Specific && Arch.Number != DeviceArch))
      continue;
    if (Arch.Number > BestNumber)
      Best = &I, BestNumber = Arch.Number;
  }
  return Best;
}

std::string writeDescriptorText(const LaunchPlan &P, const std::string &IRText) {
  std::ostringstream OS;
  OS << Header << '\n';
  OS << "kernel " << P.Kernel << '\n';
  OS << "source " << P.SourceLine << ' ' << P.SourceFile.size() << ' ' << P.SourceFile << '\n';
  if (P.Runner != RunnerKind::Kernel)
    OS << "runner " << runnerName(P.Runner) << '\n';
  if (P.Arch.isSet())
    OS << "arch " << P.Arch.name() << '\n';
  if (P.MinCapability)
    OS << "min-cc " << P.MinCapability << '\n';
  OS << "shared-bytes " << P.SharedBytes << '\n';
  for (const LaunchPlan::Param &Q : P.Params) {
    OS << "param " << argKindName(Q.Arg) << ' ' << (Q.IsBuffer ? "buffer" : "scalar") << ' '
       << ir::dtypeName(Q.Type) << ' ' << Q.Name << '\n';
    if (Q.Alignment)
      OS << "align " << Q.Alignment << '\n';
    if (Q.HasRegion)
      OS << "region " << (Q.Read && Q.Written ? "rw" : Q.Read ? "r" : Q.Written ? "w" : "-")
         << "\nregion-min " << Q.Min.str() << "\nregion-extent " << Q.Extent.str() << '\n';
  }
  for (bool Grid : {true, false})
    for (int D = 0; D < 3; ++D)
      OS << (Grid ? "grid " : "block ") << Axis[D] << ' '
         << (Grid ? P.Grid[D] : P.Block[D]).str() << " ; "
         << (Grid ? P.GridText[D] : P.BlockText[D]) << '\n';
  for (const LaunchPlan::Assumption &A : P.Assumptions)
    OS << "assume " << A.Holds.str() << " ; " << A.Text << '\n';
  for (const LaunchPlan::Final &F : P.Finals)
    OS << "final " << ir::dtypeName(F.Type) << ' ' << F.Name << "\nfinal-when " << F.When.str()
       << "\nfinal-value " << F.Value.str() << '\n';
  writeBlock(OS, "ir", IRText);
  writeBlock(OS, "cuda", P.Payload);
  for (const LaunchPlan::Image &I : P.Images)
    writeBlock(OS, ("image " + I.Arch).c_str(), I.Ptx);
  OS << "end\n";
  return OS.str();
}

bool parsePlan(const std::string &Text, LaunchPlan &Out, std::string &Error,
               std::string *IRText) {
  Out = LaunchPlan();
  Reader R(Text);
  std::string L, IR, End;
  bool Ok = R.line(L) && (L == Header || R.fail("not a sched launch descriptor (v2)")) &&
            R.tagged("kernel", Out.Kernel) && parseSource(R, Out) && parseTarget(R, Out) &&
            parseParams(R, Out) && parseGeometry(R, Out) && parseFinals(R, Out) &&
            R.block("ir", IR) && R.block("cuda", Out.Payload) && parseImages(R, Out) &&
            R.line(End) &&
            (End == "end" || R.fail("expected 'end'"));
  if (Ok)
    for (const LaunchPlan::Param &Q : Out.Params)
      if (!Q.IsBuffer && (Q.HasRegion || Q.Alignment))
        Ok = R.fail("scalar parameter '" + Q.Name + "' has a region or an alignment");
  if (!Ok) {
    Error = R.Error;
    return false;
  }
  if (IRText)
    *IRText = std::move(IR);
  return true;
}

} // namespace sched
