//===- Tile.cpp - tile(x, y, xo, yo, xi, yi, fx, fy) ---===//
//
// Tiling is exactly two splits and a reorder, as in TVM:
//   split(x, xo, xi, fx) split(y, yo, yi, fy) reorder(xo, yo, xi, yi)
// so it inherits their guards and legality checks rather than repeating them.
//
//===----------------------------------------------------------------------===//

#include "schedule/ScheduleImpl.h"

namespace sched {
namespace schedule {

bool applyTile(ScheduleState &S, const Directive &D) {
  const DirectiveArg &X = D.Args[0], &Y = D.Args[1];
  const DirectiveArg &XOuter = D.Args[2], &YOuter = D.Args[3];
  const DirectiveArg &XInner = D.Args[4], &YInner = D.Args[5];
  const DirectiveArg &XFactor = D.Args[6], &YFactor = D.Args[7];
  if (X.Text == Y.Text)
    return S.error(Y.Loc, "tile needs two different loops, got '" + Y.Text + "' twice");
  // Check both loops before changing anything, so a bad second name does not
  // leave a half-tiled nest behind in the diagnostics.
  if (!findLoop(S, X) || !findLoop(S, Y))
    return false;
  return splitLoop(S, X, XOuter, XInner, XFactor) && splitLoop(S, Y, YOuter, YInner, YFactor) &&
         reorderLoops(S, {XOuter, YOuter, XInner, YInner});
}

} // namespace schedule
} // namespace sched
