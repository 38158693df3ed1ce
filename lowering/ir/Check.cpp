//===- Check.cpp - Always-on internal checks ------------------------------===//
//
// The out-of-line half of SCHED_CHECK (Check.h): building the message and
// throwing stay out of every call site.
//
//===----------------------------------------------------------------------===//
#include "ir/Check.h"

#include <cstring>

namespace sched {

void checkFailed(const char *Cond, const char *File, int Line, const std::string &Message) {
  // __FILE__ is whatever path the build passed: keep it from the source
  // tree's top folder on, so messages read the same in every checkout.
  const char *Shown = File;
  for (const char *Top : {"lowering/", "runtime/", "clang-plugin/", "tools/"})
    if (const char *At = std::strstr(File, Top)) {
      Shown = At;
      break;
    }
  throw InternalError("check failed at " + std::string(Shown) + ":" + std::to_string(Line) +
                      ": " + Cond + (Message.empty() ? "" : ": " + Message));
}

} // namespace sched
