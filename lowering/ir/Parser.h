//===- Parser.h - Reading the textual IR back ------------------*- C++ -*-===//
//
// Reads exactly what Printer.h writes. Used by sched-opt and lit tests (IR in,
// IR after a pass out) and by the runtime, which receives each lowered kernel
// as text inside its launch descriptor and simulates it.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_PARSER_H
#define SCHED_IR_PARSER_H

#include "IR.h"
#include <string>

namespace sched {
namespace ir {

/// Parses one `func ... { ... }`. On failure returns false and sets Error to
/// "line:col: message".
bool parseLoopNest(const std::string &Text, LoopNest &Out, std::string &Error);

} // namespace ir
} // namespace sched

#endif
