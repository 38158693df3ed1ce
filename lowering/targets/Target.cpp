//===- Target.cpp - The registry of targets -------------------------------===//
//
// The targets known to this process: the built-in ones (GPU.cpp, VTA.cpp),
// registered on first use, then whatever registerTarget added. Descriptions
// live in a list, so the pointers handed out stay valid as targets come and
// go. Registration happens before compiling (a tool's or test's set-up), so
// no lock guards it.
//
//===----------------------------------------------------------------------===//
#include "targets/Target.h"

#include <algorithm>
#include <list>

namespace sched {

static std::list<TargetDescription> &targets() {
  static std::list<TargetDescription> Targets = [] {
    std::list<TargetDescription> Builtin;
    Builtin.push_back(gpuTarget());
    Builtin.push_back(vtaTarget());
    return Builtin;
  }();
  return Targets;
}

bool registerTarget(const TargetDescription &T) {
  if (T.Name.empty() || findTarget(T.Name) || (!T.EmitKind.empty() && targetWithEmitKind(T.EmitKind)))
    return false;
  targets().push_back(T);
  return true;
}

bool unregisterTarget(const std::string &Name) {
  std::list<TargetDescription> &All = targets();
  for (auto It = std::next(All.begin(), 2); It != All.end(); ++It)
    if (It->Name == Name) {
      All.erase(It);
      return true;
    }
  return false;
}

const TargetDescription &defaultTarget() { return targets().front(); }

const TargetDescription *findTarget(const std::string &Name) {
  if (Name.empty())
    return &defaultTarget();
  for (const TargetDescription &T : targets())
    if (T.Name == Name)
      return &T;
  return nullptr;
}

std::vector<const TargetDescription *> registeredTargets() {
  std::vector<const TargetDescription *> Out;
  for (const TargetDescription &T : targets())
    Out.push_back(&T);
  return Out;
}

std::string orList(const std::vector<std::string> &Items) {
  std::string Out;
  for (size_t I = 0; I < Items.size(); ++I)
    Out += (I == 0 ? "" : I + 1 == Items.size() ? " or " : ", ") + Items[I];
  return Out;
}

std::string targetNameList() {
  std::vector<std::string> Names;
  for (const TargetDescription &T : targets())
    Names.push_back(T.Name);
  return orList(Names);
}

std::vector<std::string> allTensorIntrinsics() {
  std::vector<std::string> Out;
  for (const TargetDescription &T : targets())
    Out.insert(Out.end(), T.TensorIntrinsics.begin(), T.TensorIntrinsics.end());
  return Out;
}

std::vector<std::string> allLoopPragmas() {
  std::vector<std::string> Out;
  for (const TargetDescription &T : targets())
    Out.insert(Out.end(), T.LoopPragmas.begin(), T.LoopPragmas.end());
  return Out;
}

/// The first target whose List (a member of the description) holds Item.
template <typename T>
static const TargetDescription *targetWith(std::vector<T> TargetDescription::*List,
                                           const T &Item) {
  for (const TargetDescription &Target : targets()) {
    const std::vector<T> &Items = Target.*List;
    if (std::find(Items.begin(), Items.end(), Item) != Items.end())
      return &Target;
  }
  return nullptr;
}

const TargetDescription *targetWithScope(ir::Scope S) {
  return targetWith(&TargetDescription::Scopes, S);
}

const TargetDescription *targetWithTensorIntrinsic(const std::string &Name) {
  return targetWith(&TargetDescription::TensorIntrinsics, Name);
}

const TargetDescription *targetWithLoopPragma(const std::string &Name) {
  return targetWith(&TargetDescription::LoopPragmas, Name);
}

const TargetDescription *targetWithEmitKind(const std::string &Kind) {
  for (const TargetDescription &T : targets())
    if (!Kind.empty() && T.EmitKind == Kind)
      return &T;
  return nullptr;
}

} // namespace sched
