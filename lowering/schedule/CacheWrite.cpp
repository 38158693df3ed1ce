//===- CacheWrite.cpp - cache_write(T, scope, Name) ---===//
//
// cache_write(C, local, Cl): the computation writes (and, for `+=`
// reductions, reads) Cl instead of C, and a write-back stage Cl.ax* after it
// copies Cl to C: allocate Cl { nest'; for Cl.ax0 { ... C[..] = Cl[..] } },
// with the region symbolic like a read stage's (CacheRead.cpp). compute_at
// moves the write-back to the end of a loop's body. What the write-back
// finally stores is decided by bound inference: exactly the elements the
// computation writes there, and the stage starts from C's values where the
// computation reads an element before writing it.
//
//===----------------------------------------------------------------------===//

#include "schedule/ScheduleImpl.h"

namespace sched {
namespace schedule {

bool applyCacheWrite(ScheduleState &S, const Directive &D) { return makeCacheStage(S, D, true); }

} // namespace schedule
} // namespace sched
