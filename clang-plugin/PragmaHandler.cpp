//===- PragmaHandler.cpp - Recording #pragma sched lines ------------------===//
//
// The handler reads the rest of a `#pragma sched` line token by token without
// macro expansion (as -E prints it, so -save-temps builds see the same text),
// rebuilds the text with each token at its original column, and parses it
// with the shared directive parser so a syntax error gets its caret at once.
// It also raw-lexes the token after the line: a `for` starts the nest, a `#`
// may start the next line of the same schedule. Grouping happens lazily in
// PragmaRecords, because a line cannot know whether another one follows.
//
//===----------------------------------------------------------------------===//

#include "PragmaHandler.h"
#include "schedule/DirectiveParser.h"

#include "clang/Basic/DiagnosticIDs.h"
#include "clang/Lex/Lexer.h"
#include "clang/Lex/MacroInfo.h"
#include "clang/Lex/Preprocessor.h"

using namespace clang;

namespace sched {

SourceLocation PragmaLine::locationOf(int Offset) const {
  if (Offset < 0 || TokenStarts.empty())
    return TextStart;
  // The last token starting at or before Offset holds it.
  const std::pair<unsigned, SourceLocation> *Holder = &TokenStarts.front();
  for (const auto &Start : TokenStarts)
    if (Start.first <= static_cast<unsigned>(Offset))
      Holder = &Start;
  if (Holder->first > static_cast<unsigned>(Offset))
    return TextStart;
  return Holder->second.getLocWithOffset(Offset - Holder->first);
}

PragmaGroup *PragmaRecords::groupForLoop(SourceLocation ForLoc) {
  regroup();
  for (auto &Group : Groups)
    if (Group->ForLoc.isValid() && Group->ForLoc == ForLoc)
      return Group.get();
  if (!SM || !ForLoc.isMacroID())
    return nullptr;
  // The `for` follows the pragma in the same expansion: it is spelled after
  // the `_Pragma` (in the macro's body or in an argument).
  SourceLocation Expansion = SM->getExpansionLoc(ForLoc);
  for (auto &Group : Groups)
    if (Group->MacroExpansionLoc.isValid() && Group->MacroExpansionLoc == Expansion &&
        SM->isBeforeInTranslationUnit(SM->getSpellingLoc(Group->Lines.back()->IntroducerLoc),
                                      SM->getSpellingLoc(ForLoc)))
      return Group.get();
  return nullptr;
}

const std::vector<std::unique_ptr<PragmaGroup>> &PragmaRecords::groups() {
  regroup();
  return Groups;
}

void PragmaRecords::regroup() {
  for (; GroupedLines < Lines.size(); ++GroupedLines) {
    const PragmaLine *Line = Lines[GroupedLines].get();
    // A line continues the previous group when that group's last line is
    // immediately followed by this line's '#'.
    PragmaGroup *Last = Groups.empty() ? nullptr : Groups.back().get();
    bool Continues = Last && Last->Lines.back()->NextIsHash &&
                     Last->Lines.back()->NextTokenLoc == Line->IntroducerLoc;
    // `_Pragma`s of one macro expansion form one schedule.
    Continues = Continues || (Last && Line->MacroExpansionLoc.isValid() &&
                              Last->MacroExpansionLoc == Line->MacroExpansionLoc);
    if (!Continues) {
      Groups.push_back(std::make_unique<PragmaGroup>());
      Last = Groups.back().get();
    }
    Last->Lines.push_back(Line);
    Last->Parsed = Last->Parsed && Line->Parsed;
    Last->ForLoc = Line->NextIsFor ? Line->NextTokenLoc : SourceLocation();
    Last->MacroExpansionLoc = Line->MacroExpansionLoc;
  }
}

namespace {

/// Records the replacement of the object-like macro Tok names as the pragma
/// sees it, and of the macros that replacement names (`#define HALF (TS/2)`
/// needs TS), for factors that name them.
void recordMacro(Preprocessor &PP, const Token &Tok, PragmaLine &Line) {
  const IdentifierInfo *II = Tok.getIdentifierInfo();
  const MacroInfo *Macro = II ? PP.getMacroInfo(II) : nullptr;
  if (!Macro || !Macro->isObjectLike() || Line.Macros.count(II->getName().str()))
    return;
  std::string Replacement;
  for (const Token &T : Macro->tokens())
    Replacement += (Replacement.empty() ? "" : " ") + PP.getSpelling(T);
  Line.Macros[II->getName().str()] = Replacement;
  for (const Token &T : Macro->tokens())
    recordMacro(PP, T, Line);
}

/// Appends Tok's spelling to Line.Text at its original column (relative to
/// the previous token) so parser offsets map back onto the source.
void appendToken(Preprocessor &PP, const Token &Tok, SourceLocation PrevEnd,
                 PragmaLine &Line) {
  SourceManager &SM = PP.getSourceManager();
  unsigned Gap = Line.Text.empty() ? 0 : 1;
  if (PrevEnd.isValid() && Tok.getLocation().isFileID() && PrevEnd.isFileID() &&
      SM.getFileID(PrevEnd) == SM.getFileID(Tok.getLocation())) {
    unsigned From = SM.getFileOffset(PrevEnd), To = SM.getFileOffset(Tok.getLocation());
    Gap = To >= From ? To - From : 1;
  }
  Line.Text.append(Gap, ' ');
  Line.TokenStarts.push_back({static_cast<unsigned>(Line.Text.size()), Tok.getLocation()});
  Line.Text += PP.getSpelling(Tok);
  recordMacro(PP, Tok, Line);
}

/// Reports each parser diagnostic at the byte it names.
void reportParseDiags(Preprocessor &PP, const PragmaLine &Line,
                      const std::vector<Diag> &Diags) {
  DiagnosticsEngine &DE = PP.getDiagnostics();
  for (const Diag &D : Diags) {
    DiagnosticsEngine::Level Level = D.Severity == Diag::Level::Error ? DiagnosticsEngine::Error
                                     : D.Severity == Diag::Level::Warning
                                         ? DiagnosticsEngine::Warning
                                         : DiagnosticsEngine::Remark;
    DE.Report(Line.locationOf(D.Loc), DE.getCustomDiagID(Level, "%0")) << D.Message;
  }
}

/// The last source token of the pragma: the line's last token for
/// `#pragma`, the macro name or the `)` of `_Pragma("...")` otherwise.
std::optional<SourceLocation> lastPragmaToken(Preprocessor &PP, PragmaIntroducer Introducer,
                                              SourceLocation LastTok) {
  SourceManager &SM = PP.getSourceManager();
  if (Introducer.Kind == PIK_HashPragma)
    return LastTok;
  if (Introducer.Loc.isMacroID())
    return SM.getExpansionRange(Introducer.Loc).getEnd();
  // _Pragma ( "..." ) written in the file: skip its three tokens.
  SourceLocation Loc = Introducer.Loc;
  for (int I = 0; I < 3; ++I) {
    std::optional<Token> Tok = Lexer::findNextToken(Loc, SM, PP.getLangOpts());
    if (!Tok)
      return std::nullopt;
    Loc = Tok->getLocation();
  }
  return Loc;
}

/// Notes which raw token follows the pragma ending with token LastTok.
void recordNextToken(Preprocessor &PP, SourceLocation LastTok, PragmaLine &Line) {
  std::optional<Token> Next =
      Lexer::findNextToken(LastTok, PP.getSourceManager(), PP.getLangOpts());
  if (!Next)
    return;
  Line.NextTokenLoc = Next->getLocation();
  Line.NextIsHash = Next->is(tok::hash);
  Line.NextIsFor = Next->is(tok::raw_identifier) && Next->getRawIdentifier() == "for";
}

class SchedPragmaHandler : public PragmaHandler {
public:
  explicit SchedPragmaHandler(std::shared_ptr<PragmaRecords> Records)
      : PragmaHandler("sched"), Records(std::move(Records)) {}

  void HandlePragma(Preprocessor &PP, PragmaIntroducer Introducer,
                    Token &SchedTok) override {
    PragmaLine Line;
    Line.IntroducerLoc = Introducer.Loc;
    Line.TextStart = SchedTok.getEndLoc();
    SourceLocation PrevEnd = Line.TextStart, LastTok = SchedTok.getLocation();
    Token Tok;
    // Consume the whole line so the parser never sees it.
    for (PP.LexUnexpandedToken(Tok); Tok.isNot(tok::eod) && Tok.isNot(tok::eof);
         PP.LexUnexpandedToken(Tok)) {
      appendToken(PP, Tok, PrevEnd, Line);
      PrevEnd = Tok.getEndLoc();
      LastTok = Tok.getLocation();
    }
    std::vector<Diag> Diags;
    Line.Parsed = parseDirectiveText(Line.Text, Line.Directives, Diags, /*ConstantNames=*/true);
    reportParseDiags(PP, Line, Diags);
    if (std::optional<SourceLocation> End = lastPragmaToken(PP, Introducer, LastTok))
      recordNextToken(PP, *End, Line);
    if (Introducer.Loc.isMacroID())
      Line.MacroExpansionLoc = PP.getSourceManager().getExpansionLoc(Introducer.Loc);
    Records->add(std::move(Line), PP.getSourceManager());
  }

private:
  std::shared_ptr<PragmaRecords> Records;
};

} // namespace

std::unique_ptr<PragmaHandler>
createSchedPragmaHandler(std::shared_ptr<PragmaRecords> Records) {
  return std::make_unique<SchedPragmaHandler>(std::move(Records));
}

} // namespace sched
