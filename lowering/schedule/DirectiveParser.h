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
//   (a factor is an INTEGER, or with ConstantNames an IDENT naming a constant)
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_SCHEDULE_DIRECTIVEPARSER_H
#define SCHED_SCHEDULE_DIRECTIVEPARSER_H

#include "schedule/Schedule.h"
#include <string>
#include <vector>

namespace sched {

/// Parses Text (the part of a `#pragma sched` line after `sched`). Appends the
/// directives to Out and every syntax error, unknown directive name and wrong
/// argument count to Diags (Loc = byte offset of the offending token).
/// Returns false when any error was found.
/// With ConstantNames (the plugin), a factor, nparts or offset argument may
/// also be a name (`split(i, io, ii, TS)`): the frontend replaces it with the
/// value of the integer constant it names at the nest (resolveConstantArgs in
/// the plugin) before the schedule is applied.
bool parseDirectiveText(const std::string &Text, std::vector<Directive> &Out,
                        std::vector<Diag> &Diags, bool ConstantNames = false);

/// Whether argument I of D is a number by the directive's spec (a split or
/// tile factor, an nparts=, an offset): where a constant's name may stand.
bool isNumberArg(const Directive &D, size_t I);

} // namespace sched

#endif
