//===- Diagnostics.cpp - sched warnings that obey Clang's flags -----------===//
//
// See Diagnostics.h for why the plugin maps its warnings' severity itself.
// The model follows Clang's DiagnosticIDs::getDiagnosticSeverity: a group is
// ignored, a warning or an error; `-Wno-error=<group>` keeps it from being
// upgraded by `-Werror`; `-w` ignores every warning, upgraded or not; a
// command-line `-W<group>` does not downgrade an `-Werror=<group>` but a
// pragma `warning` does. Command-line flags apply in order, pragmas in source
// order, `push`/`pop` save and restore the whole state.
//
//===----------------------------------------------------------------------===//

#include "Diagnostics.h"

#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/Basic/DiagnosticLex.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/SmallString.h"

using namespace clang;

namespace sched {

static const char *const GroupFlags[] = {"sched-fallback", "sched-unbound", "sched-ignored",
                                         "sched-embed", "sched-report"};
static constexpr unsigned NumGroups = sizeof(GroupFlags) / sizeof(GroupFlags[0]);
static_assert(NumGroups == NumWarnGroups, "one flag per WarnGroup");

const char *flagName(WarnGroup Group) { return GroupFlags[static_cast<unsigned>(Group)]; }

bool groupOfFlag(llvm::StringRef Flag, WarnGroup &Group) {
  for (unsigned I = 0; I < NumGroups; ++I)
    if (Flag == GroupFlags[I]) {
      Group = static_cast<WarnGroup>(I);
      return true;
    }
  return false;
}

/// Whether Flag (without -W) names some of our groups: one of them, all of
/// them (`sched`) or everything.
static bool concernsUs(llvm::StringRef Flag) {
  WarnGroup G;
  return Flag == "sched" || Flag == "everything" || groupOfFlag(Flag, G);
}

namespace {

/// Reads `#pragma clang diagnostic ...` lines that name one of our groups
/// (and every push/pop, which restore them) before Clang's own handler runs.
/// Clang would ignore those groups with "unknown warning group": that one
/// warning is silenced for the pragma's extent.
class PragmaTracker : public PPCallbacks {
public:
  PragmaTracker(Preprocessor &PP,
                std::shared_ptr<std::vector<SchedDiagnostics::PragmaAction>> Out)
      : PP(PP), Out(std::move(Out)) {}

  void PragmaDirective(SourceLocation Loc, PragmaIntroducerKind Kind) override {
    std::vector<Token> Toks;
    std::string Unescaped; // the text of a _Pragma string, lexed from here
    if (!lexPragma(Loc, Kind, Toks, Unescaped) || Toks.size() < 3 ||
        !isIdent(Toks[0], "clang") || !isIdent(Toks[1], "diagnostic"))
      return;
    using Action = SchedDiagnostics::PragmaAction;
    if (isIdent(Toks[2], "push") || isIdent(Toks[2], "pop")) {
      Out->push_back({isIdent(Toks[2], "push") ? Action::Push : Action::Pop, Loc, ""});
      return;
    }
    Action::Kind K;
    if (isIdent(Toks[2], "ignored"))
      K = Action::Ignore;
    else if (isIdent(Toks[2], "warning"))
      K = Action::Warn;
    else if (isIdent(Toks[2], "error") || isIdent(Toks[2], "fatal"))
      K = Action::Error;
    else
      return;
    if (Toks.size() < 4 || !Toks[3].is(tok::string_literal))
      return;
    llvm::StringRef Lit(Toks[3].getLiteralData(), Toks[3].getLength());
    if (!Lit.consume_front("\"-W") || !Lit.consume_back("\"") || !concernsUs(Lit))
      return;
    Out->push_back({K, Loc, Lit.str()});
    if (Lit != "everything")
      silenceUnknownGroup(Loc, PragmaEnd);
  }

private:
  static bool isIdent(const Token &T, llvm::StringRef Name) {
    return T.is(tok::raw_identifier) && T.getRawIdentifier() == Name;
  }

  /// The tokens after `#pragma` or inside `_Pragma("...")`, raw-lexed from
  /// the source (Clang's handler has not consumed them yet).
  bool lexPragma(SourceLocation Loc, PragmaIntroducerKind Kind, std::vector<Token> &Toks,
                 std::string &Unescaped) {
    SourceManager &SM = PP.getSourceManager();
    SourceLocation Spelling = SM.getSpellingLoc(Loc);
    if (Spelling.isInvalid())
      return false;
    FileID FID = SM.getFileID(Spelling);
    bool Invalid = false;
    llvm::StringRef Buf = SM.getBufferData(FID, &Invalid);
    if (Invalid)
      return false;
    const char *Start = SM.getCharacterData(Spelling);
    Lexer Raw(SM.getLocForStartOfFile(FID), PP.getLangOpts(), Buf.begin(), Start, Buf.end());
    Token Tok;
    if (Kind == PIK_HashPragma) {
      // '#' 'pragma' then the rest of the line.
      Raw.LexFromRawLexer(Tok);
      Raw.LexFromRawLexer(Tok);
      for (;;) {
        Raw.LexFromRawLexer(Tok);
        if (Tok.is(tok::eof) || Tok.isAtStartOfLine())
          break;
        Toks.push_back(Tok);
        PragmaEnd = Tok.getEndLoc();
      }
      return true;
    }
    if (Kind != PIK__Pragma)
      return false;
    // _Pragma ( "string" ): lex the string's contents on their own.
    Token Name, LParen, Str, RParen;
    Raw.LexFromRawLexer(Name);
    Raw.LexFromRawLexer(LParen);
    Raw.LexFromRawLexer(Str);
    Raw.LexFromRawLexer(RParen);
    if (!isIdent(Name, "_Pragma") || !LParen.is(tok::l_paren) ||
        !Str.is(tok::string_literal) || !RParen.is(tok::r_paren))
      return false;
    // Diagnostics inside _Pragma are located at its expansion: silence up
    // to the end of the whole _Pragma(...).
    PragmaEnd = SM.getExpansionRange(Loc).getEnd().isValid() && Loc.isMacroID()
                    ? SM.getExpansionRange(Loc).getEnd()
                    : RParen.getEndLoc();
    llvm::StringRef Lit(Str.getLiteralData(), Str.getLength());
    if (!Lit.consume_front("\"") || !Lit.consume_back("\""))
      return false;
    for (size_t I = 0; I < Lit.size(); ++I)
      Unescaped += Lit[I] == '\\' && I + 1 < Lit.size() ? Lit[++I] : Lit[I];
    // Any file location will do (the tokens' locations are not used), but
    // a raw lexer cannot map a macro location.
    Lexer Inner(Spelling, PP.getLangOpts(), Unescaped.data(), Unescaped.data(),
                Unescaped.data() + Unescaped.size());
    for (Inner.LexFromRawLexer(Tok); Tok.isNot(tok::eof); Inner.LexFromRawLexer(Tok))
      Toks.push_back(Tok);
    return true;
  }

  /// Clang reports "unknown warning group '-Wsched-…', ignored" at the
  /// pragma's string: ignore that one diagnostic from the pragma's start to
  /// its end, and restore every mapping after it.
  void silenceUnknownGroup(SourceLocation Begin, SourceLocation End) {
    DiagnosticsEngine &DE = PP.getDiagnostics();
    SourceManager &SM = PP.getSourceManager();
    Begin = SM.getExpansionLoc(Begin);
    End = SM.getExpansionLoc(End);
    if (End.isInvalid() || !SM.isBeforeInTranslationUnit(Begin, End))
      return;
    DE.pushMappings(Begin);
    DE.setSeverity(diag::warn_pragma_diagnostic_unknown_warning, diag::Severity::Ignored,
                   Begin);
    DE.popMappings(End);
  }

  Preprocessor &PP;
  std::shared_ptr<std::vector<SchedDiagnostics::PragmaAction>> Out;
  SourceLocation PragmaEnd;
};

} // namespace

SchedDiagnostics::SchedDiagnostics(CompilerInstance &CI)
    : CI(CI), Pragmas(std::make_shared<std::vector<PragmaAction>>()) {
  CommandLine = commandLineState();
}

SchedDiagnostics::~SchedDiagnostics() = default;

void SchedDiagnostics::trackPragmas(Preprocessor &PP) {
  PP.addPPCallbacks(std::make_unique<PragmaTracker>(PP, Pragmas));
}

/// Applies one flag operation to the groups Flag names.
void SchedDiagnostics::applyFlag(State &S, llvm::StringRef Flag, Op O) {
  for (unsigned I = 0; I < NumGroups; ++I) {
    if (Flag != "sched" && Flag != "everything" && Flag != GroupFlags[I])
      continue;
    auto &G = S.Groups[I];
    switch (O) {
    case Op::Enable: // a command-line -W<group> keeps an -Werror=<group>
      if (G.Sev != Severity::Error)
        G.Sev = Severity::Warning;
      break;
    case Op::EnableFromPragma:
      G.Sev = Severity::Warning;
      break;
    case Op::Disable:
      G.Sev = Severity::Ignored;
      break;
    case Op::MakeError:
      G.Sev = Severity::Error;
      break;
    case Op::NoError:
      if (G.Sev == Severity::Error)
        G.Sev = Severity::Warning;
      G.NoWarningAsError = true;
      break;
    }
  }
}

SchedDiagnostics::State SchedDiagnostics::commandLineState() const {
  State S;
  for (llvm::StringRef Opt : CI.getDiagnosticOpts().Warnings) {
    bool Positive = !Opt.consume_front("no-");
    if (Opt.consume_front("error=")) {
      if (concernsUs(Opt) && Opt != "everything")
        applyFlag(S, Opt, Positive ? Op::MakeError : Op::NoError);
      continue;
    }
    // -Weverything turns on what is off by default (ours are on);
    // -Wno-everything turns everything off.
    if (Opt == "everything" && Positive)
      continue;
    if (concernsUs(Opt))
      applyFlag(S, Opt, Positive ? Op::Enable : Op::Disable);
  }
  return S;
}

SchedDiagnostics::State SchedDiagnostics::stateAt(SourceLocation Loc) const {
  State S = CommandLine;
  if (Pragmas->empty() || Loc.isInvalid())
    return S;
  SourceManager &SM = CI.getSourceManager();
  SourceLocation At = SM.getExpansionLoc(Loc);
  std::vector<State> Stack;
  for (const PragmaAction &P : *Pragmas) {
    // Recorded in preprocessing order, which is translation-unit order.
    if (!SM.isBeforeInTranslationUnit(SM.getExpansionLoc(P.Loc), At))
      break;
    switch (P.Action) {
    case PragmaAction::Push:
      Stack.push_back(S);
      break;
    case PragmaAction::Pop:
      if (!Stack.empty()) {
        S = Stack.back();
        Stack.pop_back();
      }
      break;
    case PragmaAction::Ignore:
      applyFlag(S, P.Flag, Op::Disable);
      break;
    case PragmaAction::Warn:
      applyFlag(S, P.Flag, Op::EnableFromPragma);
      break;
    case PragmaAction::Error:
      applyFlag(S, P.Flag, Op::MakeError);
      break;
    }
  }
  return S;
}

void SchedDiagnostics::warn(WarnGroup Group, SourceLocation Loc, llvm::StringRef Message) {
  DiagnosticsEngine &DE = CI.getDiagnostics();
  GroupState G = stateAt(Loc).Groups[static_cast<unsigned>(Group)];
  // As Clang: -w silences every warning, also one made an error by a flag.
  if (G.Sev == Severity::Ignored || DE.getIgnoreAllWarnings())
    return;
  bool AsError = G.Sev == Severity::Error ||
                 (DE.getWarningsAsErrors() && !G.NoWarningAsError);
  std::string Text = Message.str();
  if (CI.getDiagnosticOpts().ShowOptionNames)
    Text += std::string(AsError ? " [-Werror,-W" : " [-W") + flagName(Group) + "]";
  unsigned ID = DE.getCustomDiagID(AsError ? DiagnosticsEngine::Error
                                           : DiagnosticsEngine::Warning,
                                   "%0");
  DE.Report(Loc, ID) << Text;
}

void SchedDiagnostics::error(SourceLocation Loc, llvm::StringRef Message) {
  DiagnosticsEngine &DE = CI.getDiagnostics();
  DE.Report(Loc, DE.getCustomDiagID(DiagnosticsEngine::Error, "%0")) << Message;
}

void SchedDiagnostics::info(SourceLocation Loc, llvm::StringRef Message) {
  DiagnosticsEngine &DE = CI.getDiagnostics();
  DE.Report(Loc, DE.getCustomDiagID(DiagnosticsEngine::Remark, "%0")) << Message;
}

bool SchedDiagnostics::remarksEnabled() const {
  return CI.getCodeGenOpts().OptimizationRemark.patternMatches("sched");
}

void SchedDiagnostics::remark(SourceLocation Loc, llvm::StringRef Message) {
  if (!remarksEnabled())
    return;
  // Clang's optimization remark: group "pass", shown as [-Rpass=sched].
  DiagnosticBuilder Builder =
      CI.getDiagnostics().Report(Loc, diag::remark_fe_backend_optimization_remark);
  Builder << Message;
  Builder.addFlagValue("sched");
}

} // namespace sched
