//===- Names.h - Names for IR objects in printed and emitted text -*- C++ -*-===//
//
// IR variables and buffers have identity, not unique names: two loops may
// both be `i`. The printer, the CUDA and the VTA emitters each give every
// object a distinct name by first appearance (`i`, `i_1`, ...); UniqueNames
// is that one mechanism, cIdentifier the one way to make an IR name (which
// may hold '.') a C identifier.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_NAMES_H
#define SCHED_IR_NAMES_H

#include <map>
#include <set>
#include <string>

namespace sched {
namespace ir {

/// Name as a C identifier: characters other than letters, digits and '_'
/// become '_' (IR names hold '.', file stems '-'); an empty name becomes
/// IfEmpty, and Prefix goes in front of a name that starts with a digit.
std::string cIdentifier(const std::string &Name, const std::string &IfEmpty,
                        const std::string &Prefix);

/// A distinct name per object, by first appearance: the object's first
/// request fixes its name, Base when that is free, else Base_1, Base_2, ...
/// Reserved names (keywords, the kernel's own name) are never given out.
class UniqueNames {
public:
  void reserve(const std::string &Name) { Used.insert(Name); }
  /// The name of Object, made from Base on its first request (Base is not
  /// read afterwards).
  const std::string &nameOf(const void *Object, const std::string &Base);

private:
  std::map<const void *, std::string> Names;
  std::set<std::string> Used;
};

} // namespace ir
} // namespace sched

#endif
