//===- DirectiveParser.h - The #pragma sched directive language -*- C++ -*-===//
//
// One parser for the directive language, used by the plugin (on the text of a
// pragma line, read from the source buffer) and by sched-opt (on --schedule).
// Locations are byte offsets into the text, so the plugin turns them into
// SourceLocations with PragmaTextStart.getLocWithOffset(Loc).
//
//   directives := directive*
//   directive  := NAME '(' [arg (',' arg)*] ')'
//   arg        := IDENT ('.' IDENT)* | INTEGER | IDENT '=' INTEGER | IDENT '=' IDENT
//   number     := expr | IDENT '=' expr   (where a factor, nparts or offset goes)
//   expr       := INTEGER | IDENT | '(' expr ')' | ('-'|'+') expr | expr OP expr
//   (OP: + - * / %; without ConstantNames an expr holds only INTEGERs and is
//   evaluated here; with them an IDENT names a constant the plugin resolves)
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_SCHEDULE_DIRECTIVEPARSER_H
#define SCHED_SCHEDULE_DIRECTIVEPARSER_H

#include "schedule/Schedule.h"
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sched {

/// Parses Text (the part of a `#pragma sched` line after `sched`). Appends the
/// directives to Out and every syntax error, unknown directive name and wrong
/// argument count to Diags (Loc = byte offset of the offending token).
/// Returns false when any error was found.
/// A factor, nparts or offset argument may be an expression (`2*16`): one of
/// integers only becomes its value. With ConstantNames (the plugin) it may
/// also name constants (`split(i, io, ii, TS*2)`): the argument keeps its
/// source text and the frontend replaces it with its value at the nest
/// (resolveConstantArgs in the plugin) before the schedule is applied.
bool parseDirectiveText(const std::string &Text, std::vector<Directive> &Out,
                        std::vector<Diag> &Diags, bool ConstantNames = false);

/// Where and why a factor expression has no value: Name is the name that is
/// not a constant (empty for an arithmetic error such as a division by zero),
/// Offset the byte offset of the problem in the expression's text.
struct ExpressionError {
  size_t Offset = 0;
  std::string Name;
  std::string Why;
};

/// A name's integer value, or nullopt with Why set.
using NameValue = std::function<std::optional<int64_t>(const std::string &Name, std::string &Why)>;

/// Evaluates Text, a factor expression (integers, names, + - * / %, unary
/// signs, parentheses), in C's integer arithmetic over int64_t; overflow and
/// division by zero are errors. Lookup gives each name's value (none: every
/// name is an error).
std::optional<int64_t> evaluateFactorExpression(const std::string &Text, const NameValue &Lookup,
                                                ExpressionError &Err);

/// Whether argument I of D is a number by the directive's spec (a split or
/// tile factor, an nparts=, an offset): where a constant's name may stand.
bool isNumberArg(const Directive &D, size_t I);

} // namespace sched

#endif
