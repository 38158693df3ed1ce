//===- Names.cpp - Names for IR objects in printed and emitted text -------===//
//
// See Names.h. The printer's names must read back through the parser, the
// emitters' must be C identifiers: both go through UniqueNames.
//
//===----------------------------------------------------------------------===//
#include "ir/Names.h"
#include <cctype>

namespace sched {
namespace ir {

std::string cIdentifier(const std::string &Name, const std::string &IfEmpty,
                        const std::string &Prefix) {
  std::string Out = Name.empty() ? IfEmpty : Name;
  for (char &C : Out)
    if (!std::isalnum(static_cast<unsigned char>(C)) && C != '_')
      C = '_';
  if (std::isdigit(static_cast<unsigned char>(Out[0])))
    Out = Prefix + Out;
  return Out;
}

const std::string &UniqueNames::nameOf(const void *Object, const std::string &Base) {
  auto It = Names.find(Object);
  if (It != Names.end())
    return It->second;
  std::string Name = Base;
  for (int Suffix = 1; Used.count(Name); ++Suffix)
    Name = Base + "_" + std::to_string(Suffix);
  Used.insert(Name);
  return Names.emplace(Object, Name).first->second;
}

} // namespace ir
} // namespace sched
