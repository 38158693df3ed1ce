//===- PragmaHandler.h - Recording #pragma sched lines ---------*- C++ -*-===//
//
// The preprocessor hands every `#pragma sched` line to SchedPragmaHandler,
// which records the directive text with enough location information to put a
// caret on any byte of it, parses it at once (syntax errors need no AST), and
// notes which token follows the line. The consumer later groups consecutive
// lines into one schedule and finds the `for` statement that follows them.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_PLUGIN_PRAGMAHANDLER_H
#define SCHED_PLUGIN_PRAGMAHANDLER_H

#include "schedule/Schedule.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Pragma.h"
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace sched {

/// One `#pragma sched` line.
struct PragmaLine {
  clang::SourceLocation IntroducerLoc; // the '#' of '#pragma' (or _Pragma)
  clang::SourceLocation TextStart;     // right after 'sched'
  std::string Text;                    // the rest of the line, as written
  /// (byte offset in Text, location) of each token's first character, so an
  /// offset maps to a location even when tokens are not contiguous in a file.
  std::vector<std::pair<unsigned, clang::SourceLocation>> TokenStarts;
  /// The first token after the line: the 'for' of the nest, or the '#' of the
  /// next pragma line of the same schedule.
  clang::SourceLocation NextTokenLoc;
  bool NextIsFor = false;
  bool NextIsHash = false;
  /// For a `_Pragma("sched ...")` a macro expands: where that expansion
  /// starts. The `for` the same macro expands (`#define GPU_FOR(v, n)
  /// _Pragma(...) for (...)`) starts there too.
  clang::SourceLocation MacroExpansionLoc;
  /// The object-like macros the line names, as defined at the pragma: name
  /// -> its replacement tokens' spellings, space-separated (a tile size
  /// `#define TS 64` used as `split(i, io, ii, TS)`; resolveConstantArgs).
  std::map<std::string, std::string> Macros;
  std::vector<Directive> Directives; // Locs are byte offsets into Text
  bool Parsed = false;               // the text parsed without errors

  /// The source location of byte Offset of Text (TextStart for -1).
  clang::SourceLocation locationOf(int Offset) const;
};

/// A schedule: consecutive `#pragma sched` lines before one `for`.
struct PragmaGroup {
  std::vector<const PragmaLine *> Lines;
  clang::SourceLocation ForLoc; // invalid when no `for` follows
  /// Lines of a macro expansion: its start (the first `for` after them in
  /// that expansion is the nest); invalid otherwise.
  clang::SourceLocation MacroExpansionLoc;
  bool Parsed = true;           // every line parsed
  bool Matched = false;         // some ForStmt at ForLoc was seen
  bool Reported = false;        // a diagnostic about the whole group was given
};

/// Every pragma line of the translation unit, in source order, shared between
/// the pragma handler (which the Preprocessor owns) and the consumer.
class PragmaRecords {
public:
  void add(PragmaLine Line, const clang::SourceManager &SourceMgr) {
    Lines.push_back(std::make_unique<PragmaLine>(std::move(Line)));
    SM = &SourceMgr;
  }

  /// The group whose lines are followed by the `for` at ForLoc, or null. In
  /// a macro expansion that holds pragma lines, every `for` matches their
  /// group: the caller takes the outermost.
  PragmaGroup *groupForLoop(clang::SourceLocation ForLoc);

  /// All groups formed so far, in source order.
  const std::vector<std::unique_ptr<PragmaGroup>> &groups();

  /// Whether no pragma line has been seen yet (so no loop so far has a group).
  bool empty() const { return Lines.empty(); }

private:
  void regroup();

  std::vector<std::unique_ptr<PragmaLine>> Lines;
  std::vector<std::unique_ptr<PragmaGroup>> Groups;
  size_t GroupedLines = 0; // Lines already assigned to Groups
  const clang::SourceManager *SM = nullptr;
};

/// Creates the handler for `#pragma sched`, recording into Records.
std::unique_ptr<clang::PragmaHandler>
createSchedPragmaHandler(std::shared_ptr<PragmaRecords> Records);

} // namespace sched

#endif
