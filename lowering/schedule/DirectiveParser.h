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
bool parseDirectiveText(const std::string &Text, std::vector<Directive> &Out,
                        std::vector<Diag> &Diags);

} // namespace sched

#endif
