//===- DirectiveParser.cpp - The #pragma sched directive language ---===//
//
// A hand-written lexer and recursive-descent parser for the grammar in
// DirectiveParser.h. Besides syntax it checks what can be checked without the
// loop nest: that the directive exists, its argument count, and the kind of
// each argument (a loop name, a positive factor, a thread tag, a target), so
// the plugin can put a caret on a typo before any scheduling runs. Every
// location is the byte offset of the offending token in the text.
//
//===----------------------------------------------------------------------===//

#include "schedule/DirectiveParser.h"
#include "schedule/ScheduleImpl.h"
#include "targets/Target.h"

#include <cctype>
#include <cstdint>
#include <cstring>

namespace sched {
namespace schedule {

// Argument kinds, one letter each:
//   L  a loop name (identifier, possibly dotted like As.ax0)
//   A  any other name (tensor, scope, stage, intrinsic; possibly dotted)
//   F  a split factor: a positive integer or nparts=<positive integer>
//   I  a positive integer
//   N  a non-negative integer
//   T  a thread tag
//   G  a target (gpu or vta)
//   S  stages=<count>, 2 to 8 (the copies of a pipeline's ring)
static const DirectiveSpec DirectiveSpecs[] = {
    {"target", "G", 1, false, true},
    {"split", "LLLF", 4, false, true},
    {"tile", "LLLLLLII", 8, false, true},
    {"reorder", "L", 2, true, true},
    {"fuse", "LLL", 3, false, true},
    {"bind", "LT", 2, false, true},
    {"unroll", "L", 1, false, true},
    {"vectorize", "L", 1, false, true},
    {"cache_read", "AAA", 3, false, true},
    {"cache_write", "AAA", 3, false, true},
    {"compute_at", "AL", 2, false, true},
    {"set_scope", "AA", 2, false, true},
    {"storage_align", "ALIN", 4, false, true},
    {"double_buffer", "A", 1, false, true},
    {"tensorize", "LA", 2, false, true},
    {"tensorcore", "A", 1, false, true},
    {"pragma", "LA", 2, false, true},
    {"pipeline", "LS", 2, false, true},
};

const DirectiveSpec *lookupDirectiveSpec(const std::string &Name) {
  for (const DirectiveSpec &Spec : DirectiveSpecs)
    if (Name == Spec.Name)
      return &Spec;
  return nullptr;
}

std::vector<std::string> directiveNames() {
  std::vector<std::string> Names;
  for (const DirectiveSpec &Spec : DirectiveSpecs)
    Names.push_back(Spec.Name);
  return Names;
}

bool isValidThreadTag(const std::string &Tag) {
  return ir::isBlockTag(Tag) || ir::isThreadIdxTag(Tag) || ir::isVirtualThreadTag(Tag);
}

} // namespace schedule

namespace {

using schedule::DirectiveSpec;

enum class TokKind { Ident, Integer, LParen, RParen, Comma, Dot, Equal, End, Bad };

struct Token {
  TokKind Kind;
  std::string Text;
  int Loc;
};

/// Splits the directive text into tokens; a character that starts no token
/// becomes a Bad token so the parser reports it where it stands.
class Lexer {
public:
  explicit Lexer(const std::string &Text) : Text(Text) {}

  Token next() {
    while (Pos < Text.size() && std::isspace(static_cast<unsigned char>(Text[Pos])))
      ++Pos;
    int Start = static_cast<int>(Pos);
    if (Pos >= Text.size())
      return {TokKind::End, "", Start};
    unsigned char C = static_cast<unsigned char>(Text[Pos]);
    if (isIdentStart(C))
      return {TokKind::Ident, takeWhile(isIdentChar), Start};
    if (std::isdigit(C))
      return {TokKind::Integer, takeWhile(isDigit), Start};
    ++Pos;
    switch (C) {
    case '(': return {TokKind::LParen, "(", Start};
    case ')': return {TokKind::RParen, ")", Start};
    case ',': return {TokKind::Comma, ",", Start};
    case '.': return {TokKind::Dot, ".", Start};
    case '=': return {TokKind::Equal, "=", Start};
    default: return {TokKind::Bad, std::string(1, static_cast<char>(C)), Start};
    }
  }

private:
  // Bytes of a UTF-8 sequence (0x80 and up) belong to identifiers: C++
  // accepts `α` as a loop variable, so a directive must name it. Clang has
  // already checked that the variable's name is a valid identifier.
  static bool isIdentStart(unsigned char C) { return std::isalpha(C) || C == '_' || C >= 0x80; }
  static bool isIdentChar(unsigned char C) { return isIdentStart(C) || std::isdigit(C); }
  static bool isDigit(unsigned char C) { return std::isdigit(C) != 0; }

  template <typename Pred> std::string takeWhile(Pred P) {
    size_t Start = Pos;
    while (Pos < Text.size() && P(static_cast<unsigned char>(Text[Pos])))
      ++Pos;
    return Text.substr(Start, Pos - Start);
  }

  const std::string &Text;
  size_t Pos = 0;
};

/// An argument as parsed, with its shape remembered for the kind checks.
struct ParsedArg {
  DirectiveArg Arg;
  enum class Shape { Name, Integer, KeyValue } ArgShape = Shape::Name;
};

class DirectiveTextParser {
public:
  DirectiveTextParser(const std::string &Text, std::vector<Directive> &Out,
                      std::vector<Diag> &Diags, bool ConstantNames)
      : Lex(Text), Out(Out), Diags(Diags), ConstantNames(ConstantNames) {
    Tok = Lex.next();
  }

  bool parseAll() {
    while (Tok.Kind != TokKind::End)
      if (!parseDirective())
        recover();
    return !HadError;
  }

private:
  void consume() { Tok = Lex.next(); }

  /// Whether the token after the current one is '(': a name followed by '('
  /// starts the next directive (the ')' before it is what is missing).
  bool nextIsLParen() const {
    Lexer Ahead = Lex;
    return Ahead.next().Kind == TokKind::LParen;
  }

  /// After a syntax error: skip to the end of the directive (past its ')'),
  /// so the directives after it are still parsed and checked.
  void recover() {
    while (Tok.Kind != TokKind::End && Tok.Kind != TokKind::RParen)
      consume();
    if (Tok.Kind == TokKind::RParen)
      consume();
  }

  bool error(int Loc, const std::string &Msg) {
    Diags.push_back({Diag::Level::Error, Loc, Msg, {}});
    HadError = true;
    return false;
  }

  /// Reports the current token as unexpected (a Bad token names itself).
  bool errorAtToken(const std::string &Expected) {
    if (Tok.Kind == TokKind::Bad)
      return error(Tok.Loc, "unexpected character '" + Tok.Text + "' in directive");
    return error(Tok.Loc, Expected);
  }

  bool parseDirective() {
    if (Tok.Kind != TokKind::Ident)
      return errorAtToken("expected a directive name");
    Directive D;
    D.Name = Tok.Text;
    D.Loc = Tok.Loc;
    consume();
    if (Tok.Kind != TokKind::LParen)
      return errorAtToken("expected '(' after '" + D.Name + "'");
    consume();
    std::vector<ParsedArg> Args;
    if (Tok.Kind != TokKind::RParen) {
      for (;;) {
        ParsedArg A;
        if (!parseArg(A))
          return false;
        Args.push_back(A);
        // `split(i io, ...)`: an argument right after another is a missing
        // comma; say so and read on as if it were there.
        if ((Tok.Kind == TokKind::Ident || Tok.Kind == TokKind::Integer) && !nextIsLParen()) {
          error(Tok.Loc, "expected ',' between the arguments of '" + D.Name + "'");
          continue;
        }
        if (Tok.Kind != TokKind::Comma)
          break;
        consume();
      }
    }
    if (Tok.Kind != TokKind::RParen)
      return errorAtToken("expected ')'");
    int CloseLoc = Tok.Loc;
    consume();
    // Semantic problems do not stop parsing: report them all.
    if (checkDirective(D, Args, CloseLoc)) {
      for (const ParsedArg &A : Args)
        D.Args.push_back(A.Arg);
      Out.push_back(std::move(D));
    }
    return true;
  }

  bool parseArg(ParsedArg &A) {
    A.Arg.Loc = Tok.Loc;
    if (Tok.Kind == TokKind::Integer) {
      A.Arg.Text = Tok.Text;
      A.ArgShape = ParsedArg::Shape::Integer;
      consume();
      return true;
    }
    if (Tok.Kind != TokKind::Ident)
      return errorAtToken("expected an argument");
    A.Arg.Text = Tok.Text;
    consume();
    if (Tok.Kind == TokKind::Equal) {
      consume();
      if (Tok.Kind != TokKind::Ident && Tok.Kind != TokKind::Integer)
        return errorAtToken("expected a value after '='");
      A.Arg.Text += "=" + Tok.Text;
      A.ArgShape = ParsedArg::Shape::KeyValue;
      consume();
      return true;
    }
    while (Tok.Kind == TokKind::Dot) {
      consume();
      if (Tok.Kind != TokKind::Ident)
        return errorAtToken("expected a name after '.'");
      A.Arg.Text += "." + Tok.Text;
      consume();
    }
    return true;
  }

  /// Name, arity and argument kinds. Returns false (after reporting) when the
  /// directive must not be applied.
  bool checkDirective(const Directive &D, const std::vector<ParsedArg> &Args, int CloseLoc) {
    const DirectiveSpec *Spec = schedule::lookupDirectiveSpec(D.Name);
    if (!Spec)
      return error(D.Loc, "unknown directive '" + D.Name + "'" +
                              schedule::didYouMean(D.Name, schedule::directiveNames()));
    size_t Fixed = std::strlen(Spec->ArgKinds);
    bool CountOk = Spec->Variadic ? Args.size() >= Spec->MinArgs : Args.size() == Fixed;
    if (!CountOk) {
      std::string Expect = Spec->Variadic ? "at least " + std::to_string(Spec->MinArgs)
                                          : std::to_string(Fixed);
      int Loc = Args.size() > Fixed && !Spec->Variadic ? Args[Fixed].Arg.Loc : CloseLoc;
      return error(Loc, "'" + D.Name + "' expects " + Expect + " argument" +
                            (Expect == "1" ? "" : "s") + ", got " +
                            std::to_string(Args.size()));
    }
    bool Ok = true;
    for (size_t I = 0; I < Args.size(); ++I) {
      char Kind = Spec->ArgKinds[I < Fixed ? I : Fixed - 1];
      Ok &= checkArgKind(D, Kind, Args[I]);
    }
    return Ok;
  }

  static bool parsePositive(const std::string &Digits, bool AllowZero) {
    if (Digits.empty() || Digits.size() > 9)
      return false;
    for (char C : Digits)
      if (!std::isdigit(static_cast<unsigned char>(C)))
        return false;
    return AllowZero || std::stol(Digits) > 0;
  }

  /// A name where a number goes, left for the frontend to resolve.
  bool isConstantName(const ParsedArg &P) const {
    return P.ArgShape == ParsedArg::Shape::Name && isConstantName(P.Arg.Text);
  }
  bool isConstantName(const std::string &Text) const {
    return ConstantNames && !Text.empty() && !std::isdigit(static_cast<unsigned char>(Text[0])) &&
           Text.find('.') == std::string::npos;
  }

  bool checkArgKind(const Directive &D, char Kind, const ParsedArg &P) {
    const DirectiveArg &A = P.Arg;
    bool IsName = P.ArgShape == ParsedArg::Shape::Name;
    switch (Kind) {
    case 'L':
      return IsName || error(A.Loc, "expected a loop name");
    case 'A':
      return IsName || error(A.Loc, "expected a name");
    case 'F':
      if (P.ArgShape == ParsedArg::Shape::KeyValue) {
        const std::string Prefix = "nparts=";
        if (A.Text.compare(0, Prefix.size(), Prefix) != 0)
          return error(A.Loc, "expected a factor or nparts=<count>, got '" + A.Text + "'");
        return parsePositive(A.Text.substr(Prefix.size()), false) ||
               isConstantName(A.Text.substr(Prefix.size())) ||
               error(A.Loc, "split nparts must be a positive integer");
      }
      return (P.ArgShape == ParsedArg::Shape::Integer && parsePositive(A.Text, false)) ||
             isConstantName(P) || error(A.Loc, D.Name + " factor must be a positive integer");
    case 'S': {
      const std::string Prefix = "stages=";
      if (P.ArgShape != ParsedArg::Shape::KeyValue || A.Text.compare(0, Prefix.size(), Prefix) != 0 ||
          !parsePositive(A.Text.substr(Prefix.size()), false))
        return error(A.Loc, "expected stages=<count>, got '" + A.Text + "'");
      long Stages = std::stol(A.Text.substr(Prefix.size()));
      return (Stages >= 2 && Stages <= 8) ||
             error(A.Loc, "a pipeline has 2 to 8 stages, not " + std::to_string(Stages));
    }
    case 'I':
      return (P.ArgShape == ParsedArg::Shape::Integer && parsePositive(A.Text, false)) ||
             isConstantName(P) || error(A.Loc, D.Name + " factor must be a positive integer");
    case 'N':
      return (P.ArgShape == ParsedArg::Shape::Integer && parsePositive(A.Text, true)) ||
             isConstantName(P) ||
             error(A.Loc, D.Name + " offset must be a non-negative integer");
    case 'T':
      return schedule::isValidThreadTag(A.Text) ||
             error(A.Loc, "unknown thread tag '" + A.Text +
                              "'; expected blockIdx.{x,y,z}, threadIdx.{x,y,z}, vthread or "
                              "cthread");
    case 'G':
      return findTarget(A.Text) ||
             error(A.Loc, "unknown target '" + A.Text + "'; expected " + targetNameList());
    default:
      return error(A.Loc, "internal error: unknown argument kind");
    }
  }

  Lexer Lex;
  Token Tok;
  std::vector<Directive> &Out;
  std::vector<Diag> &Diags;
  bool HadError = false;
  bool ConstantNames; // a factor may name a constant the frontend resolves
};

} // namespace

bool parseDirectiveText(const std::string &Text, std::vector<Directive> &Out,
                        std::vector<Diag> &Diags, bool ConstantNames) {
  DirectiveTextParser P(Text, Out, Diags, ConstantNames);
  return P.parseAll();
}

bool isNumberArg(const Directive &D, size_t I) {
  const DirectiveSpec *Spec = schedule::lookupDirectiveSpec(D.Name);
  if (!Spec)
    return false;
  size_t Fixed = std::strlen(Spec->ArgKinds);
  if (Fixed == 0)
    return false;
  char Kind = Spec->ArgKinds[I < Fixed ? I : Fixed - 1];
  return Kind == 'F' || Kind == 'I' || Kind == 'N';
}

} // namespace sched
