//===- Atomic.cpp - atomic(C) ---------------------------------------------===//
//
// atomic(C) lets a reduction into array C be bound to blockIdx (schedule/
// Bind.cpp, checkAcrossBlocks): each block reduces its iterations, and its
// partial result goes into C with an atomic update, in an order the hardware
// picks (Halide's atomic(), Triton's tl.atomic_add). C must be a global array
// of the nest's parameters (a scalar of the function the nest updates is one,
// passed by its address): the blocks of one launch share no other memory.
//
//===----------------------------------------------------------------------===//

#include "schedule/ScheduleImpl.h"

namespace sched {
namespace schedule {

using namespace ir;

bool applyAtomic(ScheduleState &S, const Directive &D) {
  const DirectiveArg &Arg = D.Args[0];
  Buffer Given = findParameterBuffer(S, Arg.Text);
  if (Given && Given->MemScope == Scope::Global) {
    S.Nest.AtomicUpdates.insert(Arg.Text); // read by Bind and by the lowering
    return true;
  }
  if (findBufferByName(S, Arg.Text))
    return S.error(Arg.Loc, "atomic(" + Arg.Text + "): '" + Arg.Text +
                                "' is declared in the nest; atomic updates are of global arrays "
                                "the nest is given (blocks share no other memory)");
  return S.error(Arg.Loc, "atomic(" + Arg.Text + "): no array named '" + Arg.Text +
                              "' is a parameter of the nest");
}

} // namespace schedule
} // namespace sched
