//===- Intrinsics.cpp - Operand declarations of intrinsic calls -----------===//
//
// The one table of intrinsics (DESIGN 5.1). Built-in entries are the barrier
// and the pure math functions of MathFunctions.h; passes that
// emit their own intrinsics register them with registerIntrinsic.
//
//===----------------------------------------------------------------------===//

#include "Intrinsics.h"
#include "MathFunctions.h"

#include <map>
#include <mutex>

namespace sched {
namespace ir {

namespace {

IntrinsicInfo pureMath(const std::string &Name, unsigned Arity, DType T) {
  IntrinsicInfo Info;
  Info.Name = Name;
  Info.Operands.assign(Arity, OperandRole::Value);
  Info.IsPure = true;
  Info.ResultType = T;
  return Info;
}

std::map<std::string, IntrinsicInfo> builtinIntrinsics() {
  std::map<std::string, IntrinsicInfo> Table;
  IntrinsicInfo Barrier;
  Barrier.Name = "sched.syncthreads";
  Barrier.IsBarrier = true;
  Table[Barrier.Name] = Barrier;

  for (const MathFunction &M : mathFunctions())
    Table[M.Name] = pureMath(M.Name, M.Arity, M.Type);
  return Table;
}

/// The table; entries are never erased, so returned pointers stay valid.
std::map<std::string, IntrinsicInfo> &table() {
  static std::map<std::string, IntrinsicInfo> Table = builtinIntrinsics();
  return Table;
}

std::mutex &tableMutex() {
  static std::mutex M;
  return M;
}

} // namespace

const IntrinsicInfo *lookupIntrinsic(const std::string &Name) {
  std::lock_guard<std::mutex> Lock(tableMutex());
  auto &T = table();
  auto It = T.find(Name);
  return It == T.end() ? nullptr : &It->second;
}

void registerIntrinsic(const IntrinsicInfo &Info) {
  std::lock_guard<std::mutex> Lock(tableMutex());
  table()[Info.Name] = Info;
}

DType intrinsicResultType(const std::string &Name) {
  const IntrinsicInfo *Info = lookupIntrinsic(Name);
  return Info ? Info->ResultType : DType::Int32;
}

} // namespace ir
} // namespace sched
