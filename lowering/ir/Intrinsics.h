//===- Intrinsics.h - Operand declarations of intrinsic calls --*- C++ -*-===//
//
// DESIGN 5.1: every intrinsic declares its operands - which argument is a
// buffer it reads, which a buffer it writes, which argument indexes a
// fragment - and every analysis (Access.h, virtual-thread injection, thread
// sync) reads this table, never the call's shape. A buffer is passed to an
// intrinsic as a Load of its first element (Load(Buf, {offset...})).
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_INTRINSICS_H
#define SCHED_IR_INTRINSICS_H

#include "IR.h"

#include <string>
#include <vector>

namespace sched {
namespace ir {

enum class OperandRole : unsigned char {
  Value,         // an ordinary value argument
  ReadBuffer,    // a buffer the intrinsic reads (Load of its base)
  WriteBuffer,   // a buffer the intrinsic writes
  ReadWriteBuffer,
  FragmentIndex  // indexes the fragment of the preceding buffer operand
};

struct IntrinsicInfo {
  std::string Name;
  std::vector<OperandRole> Operands;
  bool IsBarrier = false;   // orders memory between the threads of a block
  bool IsPure = false;      // math: no memory effects at all
  DType ResultType = DType::Int32; // the type of a call (Int32 for "void")
};

/// The declaration of intrinsic Name, or nullptr when unknown (an unknown
/// call is treated as reading and writing everything).
const IntrinsicInfo *lookupIntrinsic(const std::string &Name);

/// Adds (or replaces) the declaration of an intrinsic, so that a pass or
/// backend can declare the intrinsics it emits (wmma, VTA) next to its code.
void registerIntrinsic(const IntrinsicInfo &Info);

/// The result type a call to Name has unless its text says otherwise
/// (the printer omits it then): the table's ResultType, Int32 if unknown.
DType intrinsicResultType(const std::string &Name);

} // namespace ir
} // namespace sched

#endif
