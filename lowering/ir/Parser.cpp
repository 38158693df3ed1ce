//===- Parser.cpp - Reading the textual IR back ---------------------------===//
//
// A recursive-descent parser for exactly the format Printer.cpp writes (see
// IR.h). Names resolve to the objects in scope - parameters, loop and let
// variables, allocated buffers - so one name within a scope is one VarNode
// (or BufferNode), which keeps variable identity through a round trip.
// `//` comments are skipped so lit tests can annotate their input.
//
//===----------------------------------------------------------------------===//

#include "Parser.h"
#include "Intrinsics.h"
#include "Scope.h"

#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace sched {
namespace ir {

namespace {

//===----------------------------------------------------------------------===//
// Lexer
//===----------------------------------------------------------------------===//

enum class Tok { Ident, Number, Punct, End };

struct Token {
  Tok Kind;
  std::string Text;
  int Line, Col;
};

// Names come from C++ identifiers, which may hold UTF-8 letters (`α`): every
// byte of a multi-byte sequence (0x80 and up) is part of a name.
bool isIdentStart(char C) {
  unsigned char U = static_cast<unsigned char>(C);
  return std::isalpha(U) || C == '_' || U >= 0x80;
}
bool isIdentChar(char C) {
  return isIdentStart(C) || std::isdigit(static_cast<unsigned char>(C)) || C == '.';
}
bool isDigit(char C) { return std::isdigit(static_cast<unsigned char>(C)); }

class Lexer {
public:
  explicit Lexer(const std::string &T) : Text(T) {}

  /// Splits the whole text; false (with Error set) on a stray character.
  bool run(std::vector<Token> &Out, std::string &Error) {
    while (true) {
      skipSpaceAndComments();
      if (Pos >= Text.size())
        break;
      int L = Line, C = Col;
      char Ch = Text[Pos];
      if (isIdentStart(Ch)) {
        Out.push_back({Tok::Ident, take(isIdentChar), L, C});
      } else if (isDigit(Ch)) {
        Out.push_back({Tok::Number, number(), L, C});
      } else if (std::string P = punct(); !P.empty()) {
        Out.push_back({Tok::Punct, P, L, C});
      } else {
        Error = std::to_string(L) + ":" + std::to_string(C) + ": unexpected character '" +
                std::string(1, Ch) + "'";
        return false;
      }
    }
    Out.push_back({Tok::End, "", Line, Col});
    return true;
  }

private:
  const std::string &Text;
  size_t Pos = 0;
  int Line = 1, Col = 1;

  void advance() {
    if (Text[Pos] == '\n') {
      ++Line;
      Col = 1;
    } else {
      ++Col;
    }
    ++Pos;
  }

  void skipSpaceAndComments() {
    while (Pos < Text.size()) {
      if (std::isspace(static_cast<unsigned char>(Text[Pos]))) {
        advance();
      } else if (Text.compare(Pos, 2, "//") == 0) {
        while (Pos < Text.size() && Text[Pos] != '\n')
          advance();
      } else {
        break;
      }
    }
  }

  template <typename Pred> std::string take(Pred P) {
    size_t Start = Pos;
    while (Pos < Text.size() && P(Text[Pos]))
      advance();
    return Text.substr(Start, Pos - Start);
  }

  /// Digits, an optional fraction and exponent, and an optional `f` suffix.
  std::string number() {
    size_t Start = Pos;
    take(isDigit);
    if (Pos < Text.size() && Text[Pos] == '.') {
      advance();
      take(isDigit);
    }
    if (Pos < Text.size() && (Text[Pos] == 'e' || Text[Pos] == 'E')) {
      size_t Sign = Pos + 1;
      if (Sign < Text.size() && (Text[Sign] == '+' || Text[Sign] == '-'))
        ++Sign;
      if (Sign < Text.size() && isDigit(Text[Sign])) {
        while (Pos < Sign)
          advance();
        take(isDigit);
      }
    }
    if (Pos < Text.size() && Text[Pos] == 'f')
      advance();
    return Text.substr(Start, Pos - Start);
  }

  std::string punct() {
    static const char *Two[] = {"==", "!=", "<=", ">=", "&&", "||", "<<", ">>"};
    for (const char *P : Two)
      if (Text.compare(Pos, 2, P) == 0) {
        advance();
        advance();
        return P;
      }
    static const std::string One = "()[]{},:*=+-/%<>!&|^~";
    if (One.find(Text[Pos]) == std::string::npos)
      return "";
    std::string P(1, Text[Pos]);
    advance();
    return P;
  }
};

//===----------------------------------------------------------------------===//
// Parser
//===----------------------------------------------------------------------===//

/// Scoped name tables: one map per open scope, innermost last.
template <typename T> class ScopeStack {
public:
  void push() { Scopes.emplace_back(); }
  void pop() { Scopes.pop_back(); }
  void declare(const std::string &Name, T Value) { Scopes.back()[Name] = std::move(Value); }
  T lookup(const std::string &Name) const {
    for (auto It = Scopes.rbegin(); It != Scopes.rend(); ++It) {
      auto Found = It->find(Name);
      if (Found != It->end())
        return Found->second;
    }
    return nullptr;
  }

private:
  std::vector<std::map<std::string, T>> Scopes;
};

struct BinOpSpelling {
  const char *Text;
  BinOp Op;
};
const BinOpSpelling InfixOps[] = {
    {"+", BinOp::Add}, {"-", BinOp::Sub}, {"*", BinOp::Mul},  {"/", BinOp::Div},
    {"%", BinOp::Mod}, {"==", BinOp::EQ}, {"!=", BinOp::NE},  {"<", BinOp::LT},
    {"<=", BinOp::LE}, {">", BinOp::GT},  {">=", BinOp::GE},  {"&&", BinOp::And},
    {"||", BinOp::Or}, {"&", BinOp::BitAnd}, {"|", BinOp::BitOr}, {"^", BinOp::BitXor},
    {"<<", BinOp::Shl}, {">>", BinOp::Shr},
};

class Parser {
public:
  Parser(std::vector<Token> T, std::string &E) : Toks(std::move(T)), Error(E) {
    Vars.push();
    Bufs.push();
  }

  bool parseNest(LoopNest &Out) {
    if (!expectKeyword("func"))
      return false;
    if (!expectIdent(Out.Name, "function name"))
      return false;
    if (!expect("(") || !parseParams(Out.Params) || !expect(")"))
      return false;
    // No `target=` clause: the default target (LoopNest::Target empty).
    if (isKeyword("target")) {
      ++Pos;
      if (!expect("=") || !expectIdent(Out.Target, "target"))
        return false;
    }
    if (isKeyword("tensorcore")) {
      ++Pos;
      std::string Mode;
      if (!expect("(") || !expectIdent(Mode, "tensorcore mode") || !expect(")"))
        return false;
      if (Mode != "auto")
        return fail("expected tensorcore(auto)");
      Out.TensorCoreAuto = 0;
    }
    while (isKeyword("atomic")) {
      ++Pos;
      std::string C;
      if (!expect("(") || !expectIdent(C, "array name") || !expect(")"))
        return false;
      Out.AtomicUpdates.insert(C);
    }
    while (isKeyword("assume")) {
      ++Pos;
      Expr A;
      if (!expect("(") || !(A = parseExpr()) || !expect(")"))
        return false;
      Out.Assumptions.push_back(A);
    }
    Out.Body = parseBlock();
    if (!Out.Body)
      return false;
    Out.Tensorize = Marks;
    Out.Pragmas = Pragmas;
    if (cur().Kind != Tok::End)
      return fail("unexpected '" + cur().Text + "' after the function");
    return true;
  }

private:
  std::vector<Token> Toks;
  size_t Pos = 0;
  std::vector<TensorizeMark> Marks; // tensorize(...) marks of the loops parsed so far
  std::vector<LoopPragma> Pragmas;  // pragma(...) marks of the loops parsed so far
  std::string &Error;
  ScopeStack<Var> Vars;
  ScopeStack<Buffer> Bufs;
  unsigned Depth = 0; // nesting of expressions and statements

  /// Bounds recursion (one level deeper for the lifetime of a
  /// ScopedValue) so that no input can exhaust the stack.
  static constexpr unsigned MaxDepth = 512;

  const Token &cur() const { return Toks[Pos]; }
  const Token &peek(size_t N = 1) const { return Toks[std::min(Pos + N, Toks.size() - 1)]; }
  bool is(const char *P) const { return cur().Kind == Tok::Punct && cur().Text == P; }
  bool isKeyword(const char *K) const { return cur().Kind == Tok::Ident && cur().Text == K; }

  /// Records the first error at the current token; always returns false.
  bool fail(const std::string &Message) {
    if (Error.empty())
      Error = std::to_string(cur().Line) + ":" + std::to_string(cur().Col) + ": " + Message;
    return false;
  }
  std::nullptr_t failNull(const std::string &Message) {
    fail(Message);
    return nullptr;
  }

  std::string describe() const {
    return cur().Kind == Tok::End ? "end of input" : "'" + cur().Text + "'";
  }

  bool expect(const char *P) {
    if (!is(P))
      return fail(std::string("expected '") + P + "', found " + describe());
    ++Pos;
    return true;
  }
  bool expectKeyword(const char *K) {
    if (!isKeyword(K))
      return fail(std::string("expected '") + K + "', found " + describe());
    ++Pos;
    return true;
  }
  bool expectIdent(std::string &Out, const char *What) {
    if (cur().Kind != Tok::Ident)
      return fail(std::string("expected ") + What + ", found " + describe());
    Out = cur().Text;
    ++Pos;
    return true;
  }
  static bool parseSmallInt(const std::string &Text, int64_t &Out) {
    if (Text.empty() || Text.size() > 2 || !std::isdigit(static_cast<unsigned char>(Text[0])) ||
        (Text.size() == 2 && !std::isdigit(static_cast<unsigned char>(Text[1]))))
      return false;
    Out = std::stoll(Text);
    return true;
  }
  bool expectDType(DType &Out) {
    if (cur().Kind != Tok::Ident || !parseDType(cur().Text, Out))
      return fail("expected a type, found " + describe());
    ++Pos;
    return true;
  }
  bool expectScope(Scope &Out) {
    if (cur().Kind != Tok::Ident || !parseScope(cur().Text, Out))
      return fail("expected a memory scope, found " + describe());
    ++Pos;
    return true;
  }

  //===--------------------------------------------------------------------===//
  // Parameters: scalars are declared before any buffer shape is read, since
  // shapes name scalars that may come later in the list.
  //===--------------------------------------------------------------------===//

  struct PendingBuffer {
    size_t ParamIndex;
    std::string Name;
    DType Type;
    size_t ShapePos; // token index just after '['
  };

  bool skipToClosingBracket() {
    int Depth = 1;
    while (Depth > 0) {
      if (cur().Kind == Tok::End)
        return fail("unterminated '['");
      if (is("["))
        ++Depth;
      else if (is("]"))
        --Depth;
      ++Pos;
    }
    return true;
  }

  bool parseParams(std::vector<Param> &Params) {
    std::vector<PendingBuffer> Pending;
    std::vector<std::pair<size_t, size_t>> ScopePos; // param index, token after ']'
    while (!is(")")) {
      if (!Params.empty() && !expect(","))
        return false;
      std::string Name;
      DType T;
      if (!expectIdent(Name, "parameter name") || !expect(":") || !expectDType(T))
        return false;
      Param P;
      if (is("*")) {
        ++Pos;
        if (!expect("["))
          return false;
        P.ParamKind = Param::Kind::Buffer;
        Pending.push_back({Params.size(), Name, T, Pos});
        if (!skipToClosingBracket())
          return false;
        Scope S;
        if (!expectScope(S))
          return false;
        bool NoAlias = false;
        if (isKeyword("noalias")) {
          NoAlias = true;
          ++Pos;
        }
        if (isKeyword("scratch")) {
          P.Scratch = true;
          ++Pos;
        }
        auto B = std::make_shared<BufferNode>(Name, T, std::vector<Expr>(), S);
        B->NoAlias = NoAlias;
        P.Buf = B;
      } else {
        P.ParamKind = Param::Kind::Scalar;
        P.Scalar = makeVar(Name, T);
        Vars.declare(Name, P.Scalar);
      }
      Params.push_back(P);
    }
    size_t End = Pos;
    for (const PendingBuffer &PB : Pending) {
      Pos = PB.ShapePos;
      std::vector<Expr> Shape;
      if (!parseExprList("]", Shape))
        return false;
      auto *B = const_cast<BufferNode *>(Params[PB.ParamIndex].Buf.get());
      B->Shape = std::move(Shape);
      Bufs.declare(PB.Name, Params[PB.ParamIndex].Buf);
    }
    Pos = End;
    return true;
  }

  //===--------------------------------------------------------------------===//
  // Statements
  //===--------------------------------------------------------------------===//

  /// '{' stmt* '}' as one statement (a Seq unless exactly one).
  Stmt parseBlock() {
    if (!expect("{"))
      return nullptr;
    std::vector<Stmt> Stmts;
    while (!is("}")) {
      if (cur().Kind == Tok::End)
        return failNull("expected '}', found end of input");
      Stmt S = parseStmt();
      if (!S)
        return nullptr;
      Stmts.push_back(S);
    }
    ++Pos;
    if (Stmts.empty())
      return std::make_shared<SeqNode>(std::vector<Stmt>());
    return makeSeq(std::move(Stmts));
  }

  /// A block in a new scope, with V (if any) declared in it.
  Stmt parseScopedBlock(const Var &V, const Buffer &B) {
    Vars.push();
    Bufs.push();
    if (V)
      Vars.declare(V->Name, V);
    if (B)
      Bufs.declare(B->Name, B);
    Stmt Body = parseBlock();
    Vars.pop();
    Bufs.pop();
    return Body;
  }

  Stmt parseStmt() {
    ScopedValue<unsigned> Guard(Depth, Depth + 1);
    if (Depth > MaxDepth)
      return failNull("statements nested too deeply");
    if (cur().Kind != Tok::Ident)
      return failNull("expected a statement, found " + describe());
    if (peek().Kind == Tok::Punct && peek().Text == "[")
      return parseStore();
    const std::string &K = cur().Text;
    if (K == "for")
      return parseFor();
    if (K == "allocate")
      return parseAllocate();
    if (K == "if")
      return parseIf();
    if (K == "let")
      return parseLet();
    if (K == "eval") {
      ++Pos;
      Expr E = parseExpr();
      return E ? makeEvaluate(E) : nullptr;
    }
    return failNull("expected a statement, found " + describe());
  }

  Stmt parseStore() {
    Buffer B = Bufs.lookup(cur().Text);
    if (!B)
      return failNull("unknown buffer '" + cur().Text + "'");
    Pos += 2; // name '['
    std::vector<Expr> Indices;
    if (!parseExprList("]", Indices) || !expect("="))
      return nullptr;
    Expr Value = parseExpr();
    return Value ? makeStore(B, std::move(Indices), Value) : nullptr;
  }

  bool parseLoopAnnotations(ForKind &Kind, std::string &Tag, bool &Reduce) {
    if (isKeyword("bind")) {
      ++Pos;
      Kind = ForKind::ThreadBound;
      if (!expect("(") || !expectIdent(Tag, "thread tag") || !expect(")"))
        return false;
    } else if (isKeyword("unroll")) {
      ++Pos;
      Kind = ForKind::Unrolled;
    } else if (isKeyword("vectorize")) {
      ++Pos;
      Kind = ForKind::Vectorized;
    }
    if (isKeyword("reduce")) {
      ++Pos;
      Reduce = true;
    }
    return true;
  }

  Stmt parseFor() {
    ++Pos;
    std::string Name;
    if (!expect("(") || !expectIdent(Name, "loop variable") || !expect(","))
      return nullptr;
    Expr Min = parseExpr();
    if (!Min || !expect(","))
      return nullptr;
    Expr Extent = parseExpr();
    if (!Extent || !expect(")"))
      return nullptr;
    ForKind Kind = ForKind::Serial;
    std::string Tag;
    bool Reduce = false;
    if (!parseLoopAnnotations(Kind, Tag, Reduce))
      return nullptr;
    Var V = makeVar(Name, isInt(Min->Type) ? Min->Type : DType::Int32);
    if (isKeyword("tensorize")) {
      ++Pos;
      TensorizeMark M;
      M.Loop = V;
      if (!expect("(") || !expectIdent(M.Intrinsic, "intrinsic name") || !expect(")"))
        return nullptr;
      Marks.push_back(M);
    }
    while (isKeyword("pragma")) {
      ++Pos;
      LoopPragma P;
      P.Loop = V;
      if (!expect("(") || !expectIdent(P.Kind, "pragma kind") || !expect(")"))
        return nullptr;
      Pragmas.push_back(P);
    }
    Stmt Body = parseScopedBlock(V, nullptr);
    if (!Body)
      return nullptr;
    return makeFor(V, Min, Extent, Body, Kind, Tag, Reduce);
  }

  Stmt parseAllocate() {
    ++Pos;
    std::string Name;
    DType T;
    if (!expectIdent(Name, "buffer name") || !expect(":") || !expectDType(T) || !expect("["))
      return nullptr;
    std::vector<Expr> Shape;
    Scope S;
    if (!parseExprList("]", Shape) || !expectScope(S))
      return nullptr;
    auto B = std::make_shared<BufferNode>(Name, T, std::move(Shape), S);
    if (isKeyword("swizzle")) { // swizzle(Base, Bits, Shift)
      ++Pos;
      int64_t V[3];
      for (int I = 0; I < 3; ++I) {
        if ((I && !expect(",")) || (!I && !expect("(")))
          return nullptr;
        if (cur().Kind != Tok::Number || !parseSmallInt(cur().Text, V[I]))
          return failNull("expected a small integer in swizzle(...), found " + describe());
        ++Pos;
      }
      if (!expect(")"))
        return nullptr;
      B->Swizzle = {int(V[0]), int(V[1]), int(V[2])};
    }
    Buffer Buf = B;
    Stmt Body = parseScopedBlock(nullptr, Buf);
    return Body ? makeAllocate(Buf, Body) : nullptr;
  }

  Stmt parseIf() {
    ++Pos;
    if (!expect("("))
      return nullptr;
    Expr Cond = parseExpr();
    if (!Cond || !expect(")"))
      return nullptr;
    Stmt Then = parseScopedBlock(nullptr, nullptr);
    if (!Then)
      return nullptr;
    Stmt Else;
    if (isKeyword("else")) {
      ++Pos;
      Else = parseScopedBlock(nullptr, nullptr);
      if (!Else)
        return nullptr;
    }
    return makeIf(Cond, Then, Else);
  }

  Stmt parseLet() {
    ++Pos;
    std::string Name;
    if (!expectIdent(Name, "variable name") || !expect("="))
      return nullptr;
    Expr Value = parseExpr();
    if (!Value)
      return nullptr;
    Var V = makeVar(Name, Value->Type);
    Stmt Body = parseScopedBlock(V, nullptr);
    return Body ? makeLet(V, Value, Body) : nullptr;
  }

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  /// expr (',' expr)* Close, or just Close.
  bool parseExprList(const char *Close, std::vector<Expr> &Out) {
    if (is(Close)) {
      ++Pos;
      return true;
    }
    while (true) {
      Expr E = parseExpr();
      if (!E)
        return false;
      Out.push_back(E);
      if (is(Close)) {
        ++Pos;
        return true;
      }
      if (!expect(","))
        return false;
    }
  }

  /// An optional `:dtype` suffix after a literal or a call.
  bool parseTypeSuffix(DType &T) {
    if (!is(":"))
      return true;
    ++Pos;
    return expectDType(T);
  }

  Expr parseNumber(bool Negative) {
    std::string Text = (Negative ? "-" : "") + cur().Text;
    ++Pos;
    bool IsFloat = Text.find_first_of(".eEf") != std::string::npos;
    bool FloatSuffix = !Text.empty() && Text.back() == 'f';
    if (FloatSuffix)
      Text.pop_back();
    DType T = FloatSuffix ? DType::Float32 : IsFloat ? DType::Float64 : DType::Int32;
    if (!FloatSuffix && !parseTypeSuffix(T))
      return nullptr;
    if (IsFloat != isFloat(T) && !(T == DType::Bool && !IsFloat))
      return failNull("literal '" + Text + "' does not fit type " + dtypeName(T));
    errno = 0;
    if (IsFloat)
      return makeFloat(std::strtod(Text.c_str(), nullptr), T);
    // A uint64 literal prints as its unsigned value; it is held as its bits.
    long long V = T == DType::UInt64 && !Negative
                      ? static_cast<long long>(std::strtoull(Text.c_str(), nullptr, 10))
                      : std::strtoll(Text.c_str(), nullptr, 10);
    if (errno == ERANGE)
      return failNull("integer literal '" + Text + "' out of range");
    return makeInt(V, T);
  }

  /// `inf`, `nan` (with a `:dtype` suffix) and `inff`, `nanf` (float32).
  Expr parseSpecialFloat(bool Negative) {
    std::string Name = cur().Text;
    ++Pos;
    DType T = DType::Float32;
    if (Name == "inf" || Name == "nan") {
      if (!is(":"))
        return failNull("expected ':' and a type after '" + Name + "'");
      if (!parseTypeSuffix(T))
        return nullptr;
    }
    double V = Name[0] == 'i' ? std::numeric_limits<double>::infinity()
                              : std::numeric_limits<double>::quiet_NaN();
    return makeFloat(Negative ? -V : V, T);
  }

  static bool isSpecialFloat(const Token &T) {
    return T.Kind == Tok::Ident &&
           (T.Text == "inf" || T.Text == "nan" || T.Text == "inff" || T.Text == "nanf");
  }

  Expr parseParenthesized() {
    if (!expect("("))
      return nullptr;
    Expr E = parseExpr();
    if (!E || !expect(")"))
      return nullptr;
    return E;
  }

  /// '(' a op b ')'.
  Expr parseInfix() {
    ++Pos;
    Expr A = parseExpr();
    if (!A)
      return nullptr;
    const BinOpSpelling *Found = nullptr;
    if (cur().Kind == Tok::Punct)
      for (const BinOpSpelling &S : InfixOps)
        if (cur().Text == S.Text)
          Found = &S;
    if (!Found)
      return failNull("expected a binary operator, found " + describe());
    ++Pos;
    Expr B = parseExpr();
    if (!B || !expect(")"))
      return nullptr;
    return makeBinary(Found->Op, A, B);
  }

  Expr parseIdentExpr() {
    std::string Name = cur().Text;
    const Token &Next = peek();
    bool Call = Next.Kind == Tok::Punct && Next.Text == "(";
    bool Index = Next.Kind == Tok::Punct && Next.Text == "[";
    if (isSpecialFloat(cur()))
      return parseSpecialFloat(false);
    if (!Call && !Index) {
      ++Pos;
      if (Name == "true" || Name == "false")
        return makeBool(Name == "true");
      if (Var V = Vars.lookup(Name))
        return V;
      --Pos;
      return failNull("unknown variable '" + Name + "'");
    }
    Pos += 2;
    std::vector<Expr> Args;
    if (!parseExprList(Index ? "]" : ")", Args))
      return nullptr;
    if (Index) {
      Buffer B = Bufs.lookup(Name);
      if (!B)
        return failNull("unknown buffer '" + Name + "'");
      return makeLoad(B, std::move(Args));
    }
    return buildCall(Name, std::move(Args));
  }

  /// min/max, select, casts and intrinsic calls all read as name(args).
  Expr buildCall(const std::string &Name, std::vector<Expr> Args) {
    DType T;
    if (Name == "min" || Name == "max") {
      if (Args.size() != 2)
        return failNull("'" + Name + "' takes 2 operands");
      return makeBinary(Name == "min" ? BinOp::Min : BinOp::Max, Args[0], Args[1]);
    }
    if (Name == "select") {
      if (Args.size() != 3)
        return failNull("'select' takes 3 operands");
      return makeSelect(Args[0], Args[1], Args[2]);
    }
    if (parseDType(Name, T)) {
      if (Args.size() != 1)
        return failNull("a cast takes 1 operand");
      return makeCast(T, Args[0]);
    }
    T = intrinsicResultType(Name);
    if (!parseTypeSuffix(T))
      return nullptr;
    return makeCall(Name, std::move(Args), T);
  }

  Expr parseExpr() {
    ScopedValue<unsigned> Guard(Depth, Depth + 1);
    if (Depth > MaxDepth)
      return failNull("expression nested too deeply");
    const Token &T = cur();
    if (T.Kind == Tok::Number)
      return parseNumber(false);
    if (T.Kind == Tok::Ident)
      return parseIdentExpr();
    if (T.Kind == Tok::Punct && T.Text == "-") {
      ++Pos;
      if (cur().Kind == Tok::Number)
        return parseNumber(true);
      if (isSpecialFloat(cur()))
        return parseSpecialFloat(true);
      Expr A = parseParenthesized();
      return A ? makeUnary(UnOp::Neg, A) : nullptr;
    }
    if (T.Kind == Tok::Punct && (T.Text == "!" || T.Text == "~")) {
      UnOp Op = T.Text == "!" ? UnOp::Not : UnOp::BitNot;
      ++Pos;
      Expr A = parseParenthesized();
      return A ? makeUnary(Op, A) : nullptr;
    }
    if (T.Kind == Tok::Punct && T.Text == "(")
      return parseInfix();
    return failNull("expected an expression, found " + describe());
  }
};

} // namespace

bool parseLoopNest(const std::string &Text, LoopNest &Out, std::string &Error) {
  Error.clear();
  std::vector<Token> Toks;
  if (!Lexer(Text).run(Toks, Error))
    return false;
  Parser P(std::move(Toks), Error);
  LoopNest Result;
  if (!P.parseNest(Result)) {
    if (Error.empty())
      Error = "1:1: parse error";
    return false;
  }
  Out = std::move(Result);
  return true;
}

} // namespace ir
} // namespace sched
