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
#include <cerrno>
#include <cstdlib>
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
    {"rfactor", "LLA", 3, false, true},
    {"atomic", "A", 1, false, true},
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

enum class TokKind { Ident, Integer, LParen, RParen, Comma, Dot, Equal, Operator, End, Bad };

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
    case '+': case '-': case '*': case '/': case '%':
      return {TokKind::Operator, std::string(1, static_cast<char>(C)), Start};
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
  enum class Shape { Name, Integer, Expression, KeyValue };
  DirectiveArg Arg;
  Shape ArgShape = Shape::Name;
  std::string Key;                // before '=' (nparts=)
  Shape ValueShape = Shape::Name; // of the value after '='
};

class DirectiveTextParser {
public:
  DirectiveTextParser(const std::string &Text, std::vector<Directive> &Out,
                      std::vector<Diag> &Diags, bool ConstantNames)
      : Source(Text), Lex(Text), Out(Out), Diags(Diags), ConstantNames(ConstantNames) {
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
    if (Tok.Kind == TokKind::Bad || Tok.Kind == TokKind::Operator)
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
        if (!parseArg(A, kindOf(D.Name, Args.size())))
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

  /// The kind letter of argument I of directive Name (0 when unknown).
  static char kindOf(const std::string &Name, size_t I) {
    const DirectiveSpec *Spec = schedule::lookupDirectiveSpec(Name);
    size_t Fixed = Spec ? std::strlen(Spec->ArgKinds) : 0;
    return Fixed ? Spec->ArgKinds[I < Fixed ? I : Fixed - 1] : 0;
  }

  bool parseArg(ParsedArg &A, char Kind) {
    A.Arg.Loc = Tok.Loc;
    bool Number = Kind == 'F' || Kind == 'I' || Kind == 'N';
    if (Number && !(Tok.Kind == TokKind::Ident && nextIsEqual()))
      return parseNumber(A);
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
      if (Kind == 'F') {
        // nparts=<expression>: the value keeps its source text after '='.
        ParsedArg Value;
        Value.Arg.Loc = Tok.Loc;
        if (!parseNumber(Value))
          return false;
        A.Key = A.Arg.Text;
        A.ValueShape = Value.ArgShape;
        A.ArgShape = ParsedArg::Shape::KeyValue;
        // A value left for the frontend keeps its source text (and offsets).
        A.Arg.Text = Value.ArgShape == ParsedArg::Shape::Integer
                         ? A.Key + "=" + Value.Arg.Text
                         : Source.substr(A.Arg.Loc, Value.Arg.Loc - A.Arg.Loc) + Value.Arg.Text;
        return true;
      }
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

  bool nextIsEqual() const {
    Lexer Ahead = Lex;
    return Ahead.next().Kind == TokKind::Equal;
  }

  /// A number argument: an integer, a name, or an expression over integers
  /// and names with + - * / % and parentheses (`TS*2`, `(N+1)`). Its text is
  /// the source text, so an offset in it is an offset from the argument. An
  /// expression of integers only is evaluated here; one with names is left
  /// for the frontend (resolveConstantArgs), or refused without ConstantNames.
  bool parseNumber(ParsedArg &A) {
    int Start = Tok.Loc, End = Start, Tokens = 0, Depth = 0;
    bool Names = false;
    bool Operand = true; // an operand (or unary sign, '(') is expected next
    for (;; ++Tokens) {
      bool Ok = false;
      if (Operand) {
        if (Tok.Kind == TokKind::Integer || Tok.Kind == TokKind::Ident) {
          Names |= Tok.Kind == TokKind::Ident;
          Operand = false;
          Ok = true;
        } else if (Tok.Kind == TokKind::LParen) {
          ++Depth;
          Ok = true;
        } else if (Tok.Kind == TokKind::Operator && (Tok.Text == "-" || Tok.Text == "+")) {
          Ok = true;
        }
        if (!Ok)
          return errorAtToken(Tokens ? "expected an operand" : "expected an argument");
      } else if (Tok.Kind == TokKind::Operator) {
        Operand = true;
      } else if (Tok.Kind == TokKind::RParen && Depth > 0) {
        --Depth;
      } else {
        break;
      }
      End = Tok.Loc + static_cast<int>(Tok.Text.size());
      consume();
    }
    if (Depth > 0)
      return errorAtToken("expected ')'");
    A.Arg.Loc = Start;
    A.Arg.Text = Source.substr(Start, End - Start);
    if (Tokens == 1) {
      A.ArgShape = Names ? ParsedArg::Shape::Name : ParsedArg::Shape::Integer;
      return true;
    }
    A.ArgShape = ParsedArg::Shape::Expression;
    if (Names)
      return true;
    ExpressionError Err;
    std::optional<int64_t> V = evaluateFactorExpression(A.Arg.Text, nullptr, Err);
    if (!V)
      return error(Start + static_cast<int>(Err.Offset), Err.Why);
    // The value replaces the text; a negative one fails the kind check.
    A.Arg.Text = std::to_string(*V);
    A.ArgShape = ParsedArg::Shape::Integer;
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
    return (P.ArgShape == ParsedArg::Shape::Name && isConstantName(P.Arg.Text)) ||
           (ConstantNames && P.ArgShape == ParsedArg::Shape::Expression);
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
        if (P.Key != "nparts")
          return error(A.Loc, "expected a factor or nparts=<count>, got '" + A.Text + "'");
        return (P.ValueShape == ParsedArg::Shape::Integer &&
                parsePositive(A.Text.substr(A.Text.find('=') + 1), false)) ||
               (ConstantNames && P.ValueShape != ParsedArg::Shape::Integer) ||
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

  const std::string &Source;
  Lexer Lex;
  Token Tok;
  std::vector<Directive> &Out;
  std::vector<Diag> &Diags;
  bool HadError = false;
  bool ConstantNames; // a factor may name a constant the frontend resolves
};

} // namespace

namespace {

/// Recursive descent over the text of a factor expression, evaluating as it
/// goes: C's integer arithmetic on int64_t (division truncates), with
/// overflow and division by zero reported rather than wrapped.
class ExpressionEvaluator {
public:
  ExpressionEvaluator(const std::string &Text, const NameValue &Lookup, ExpressionError &Err)
      : Text(Text), Lookup(Lookup), Err(Err) {}

  std::optional<int64_t> run() {
    std::optional<int64_t> V = sum();
    if (V && (skipSpace(), Pos != Text.size()))
      return fail(Pos, "unexpected '" + Text.substr(Pos, 1) + "' in a factor expression");
    return V;
  }

private:
  std::optional<int64_t> fail(size_t At, const std::string &Why) {
    if (Err.Why.empty()) {
      Err.Offset = At;
      Err.Why = Why;
    }
    return std::nullopt;
  }

  void skipSpace() {
    while (Pos < Text.size() && std::isspace(static_cast<unsigned char>(Text[Pos])))
      ++Pos;
  }

  /// Consumes C if it is the next character.
  bool take(char C) {
    skipSpace();
    if (Pos < Text.size() && Text[Pos] == C) {
      ++Pos;
      return true;
    }
    return false;
  }

  std::optional<int64_t> sum() {
    std::optional<int64_t> L = product();
    for (;;) {
      size_t At = (skipSpace(), Pos);
      bool Add = take('+');
      if (!Add && !take('-'))
        return L;
      std::optional<int64_t> R = product();
      if (!L || !R)
        return std::nullopt;
      int64_t V;
      if (Add ? __builtin_add_overflow(*L, *R, &V) : __builtin_sub_overflow(*L, *R, &V))
        return fail(At, "the factor expression overflows");
      L = V;
    }
  }

  std::optional<int64_t> product() {
    std::optional<int64_t> L = unary();
    for (;;) {
      size_t At = (skipSpace(), Pos);
      char Op = take('*') ? '*' : take('/') ? '/' : take('%') ? '%' : 0;
      if (!Op)
        return L;
      std::optional<int64_t> R = unary();
      if (!L || !R)
        return std::nullopt;
      int64_t V;
      if (Op == '*') {
        if (__builtin_mul_overflow(*L, *R, &V))
          return fail(At, "the factor expression overflows");
      } else {
        if (*R == 0)
          return fail(At, "division by zero in the factor expression");
        if (*L == INT64_MIN && *R == -1)
          return fail(At, "the factor expression overflows");
        V = Op == '/' ? *L / *R : *L % *R;
      }
      L = V;
    }
  }

  std::optional<int64_t> unary() {
    size_t At = (skipSpace(), Pos);
    if (take('+'))
      return unary();
    if (take('-')) {
      std::optional<int64_t> V = unary();
      if (V && *V == INT64_MIN)
        return fail(At, "the factor expression overflows");
      return V ? std::optional<int64_t>(-*V) : std::nullopt;
    }
    return primary();
  }

  static bool isIdentChar(unsigned char C) { return std::isalnum(C) || C == '_' || C >= 0x80; }

  std::optional<int64_t> primary() {
    size_t Start = (skipSpace(), Pos);
    if (take('(')) {
      std::optional<int64_t> V = sum();
      if (V && !take(')'))
        return fail(Pos, "expected ')' in the factor expression");
      return V;
    }
    if (Pos >= Text.size())
      return fail(Pos, "expected an operand in the factor expression");
    unsigned char C = static_cast<unsigned char>(Text[Pos]);
    if (std::isdigit(C)) {
      // A C integer literal: decimal, 0x hexadecimal or 0 octal, with an
      // optional u/l suffix (macro replacements are written that way).
      while (Pos < Text.size() && std::isalnum(static_cast<unsigned char>(Text[Pos])))
        ++Pos;
      std::string Literal = Text.substr(Start, Pos - Start);
      size_t Suffix = Literal.find_last_not_of("uUlL");
      std::string Digits = Literal.substr(0, Suffix + 1);
      errno = 0;
      char *End = nullptr;
      long long V = std::strtoll(Digits.c_str(), &End, 0);
      if (errno || !End || *End)
        return fail(Start, "'" + Literal + "' is not an integer literal");
      return static_cast<int64_t>(V);
    }
    if (!isIdentChar(C))
      return fail(Start, "unexpected '" + Text.substr(Start, 1) + "' in a factor expression");
    while (Pos < Text.size() && isIdentChar(static_cast<unsigned char>(Text[Pos])))
      ++Pos;
    std::string Name = Text.substr(Start, Pos - Start);
    std::string Why = "names are resolved only in the plugin";
    std::optional<int64_t> V = Lookup ? Lookup(Name, Why) : std::nullopt;
    if (!V && Err.Why.empty())
      Err.Name = Name;
    return V ? V : fail(Start, Why);
  }

  const std::string &Text;
  const NameValue &Lookup;
  ExpressionError &Err;
  size_t Pos = 0;
};

} // namespace

std::optional<int64_t> evaluateFactorExpression(const std::string &Text, const NameValue &Lookup,
                                                ExpressionError &Err) {
  return ExpressionEvaluator(Text, Lookup, Err).run();
}

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
