//===- CacheWrite.cpp - cache_write(T, scope, Name) ---===//
//
// cache_write(C, local, Cl): the computation writes (and, for `+=`
// reductions, reads) Cl instead of C, and a write-back stage Cl.ax* after it
// copies Cl to C: allocate Cl { nest'; for Cl.ax0 { ... C[..] = Cl[..] } }.
// compute_at moves the write-back to the end of a loop's body.
//
//===----------------------------------------------------------------------===//

#include "schedule/ScheduleImpl.h"

namespace sched {
namespace schedule {

bool applyCacheWrite(ScheduleState &S, const Directive &D) { return makeCacheStage(S, D, true); }

} // namespace schedule
} // namespace sched
