//===- Check.h - Always-on internal checks ---------------------*- C++ -*-===//
//
// SCHED_CHECK(Cond, Message) states what must hold inside the compiler (a
// pass's invariant, what a helper expects of its caller), like Halide's
// internal_assert and TVM's ICHECK: unlike assert it is on in every build
// (the default RelWithDebInfo build defines NDEBUG), so CI and the sanitizer
// build run it. A failed check is a bug of the compiler, never of the
// program being compiled: it throws InternalError, which the pass driver
// (Pipeline.cpp) catches and reports as an error naming the pass that was
// running; the nest then stays as written, with a warning. Nothing aborts.
//
// The condition is evaluated once; Message (a std::string expression) only
// when the check fails, so it may be expensive to build.
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_CHECK_H
#define SCHED_IR_CHECK_H

#include <exception>
#include <string>

namespace sched {

/// A check of the compiler's own that failed (SCHED_CHECK).
class InternalError : public std::exception {
public:
  explicit InternalError(std::string Message) : Message(std::move(Message)) {}
  const char *what() const noexcept override { return Message.c_str(); }

private:
  std::string Message;
};

/// Throws InternalError saying "check failed at FILE:LINE: Cond: Message"
/// (FILE relative to the source tree where it can tell).
[[noreturn]] void checkFailed(const char *Cond, const char *File, int Line,
                              const std::string &Message);

} // namespace sched

#define SCHED_CHECK(Cond, Message)                                                                 \
  do {                                                                                             \
    if (!(Cond))                                                                                   \
      ::sched::checkFailed(#Cond, __FILE__, __LINE__, (Message));                                  \
  } while (false)

#endif
