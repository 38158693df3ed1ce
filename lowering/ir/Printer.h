//===- Printer.h - Stable textual form of the IR ---------------*- C++ -*-===//
//
// The format is specified in IR.h; lit tests FileCheck it and Parser.h reads
// it back, so print(parse(print(X))) == print(X) must always hold.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_PRINTER_H
#define SCHED_IR_PRINTER_H

#include "IR.h"
#include <string>

namespace sched {
namespace ir {

std::string print(const Expr &E);
/// Indent counts levels of two spaces; every printed line ends with a newline.
std::string print(const Stmt &S, int Indent = 0);
std::string print(const LoopNest &Nest);

} // namespace ir
} // namespace sched

#endif
