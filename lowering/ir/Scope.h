//===- Scope.h - Guards that hold a value for the subtree being walked -*- C++ -*-===//
//
// A walk over the IR often knows something only while it is inside a node:
// the statement it is in, the range of a loop's variable, a substitution a
// let shadows, the recursion depth. These guards set it when the walk enters
// and restore what was there when it leaves, on every path out (Halide's
// ScopedValue and ScopedBinding). Used by ir/, the passes, codegen and the
// plugin alike, so there is one mechanism for "this holds for the subtree I
// am in".
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_SCOPE_H
#define SCHED_IR_SCOPE_H

#include <optional>
#include <utility>

namespace sched {

/// Sets a variable for the lifetime of the guard and restores its old value
/// after it: "this holds for the subtree I am in".
template <typename T> class ScopedValue {
public:
  explicit ScopedValue(T &Slot) : Slot(Slot), Saved(Slot) {}
  ScopedValue(T &Slot, T Value) : Slot(Slot), Saved(Slot) { Slot = std::move(Value); }
  ~ScopedValue() { Slot = std::move(Saved); }
  ScopedValue(const ScopedValue &) = delete;
  ScopedValue &operator=(const ScopedValue &) = delete;

private:
  T &Slot;
  T Saved;
};

/// ScopedValue for one entry of a map (copying the whole map would be the
/// same thing, slowly): Map[Key] is Value, or absent when the guard is made
/// without one (a binding the subtree shadows), for the lifetime of the
/// guard; afterwards the entry is what it was, absent included.
template <typename MapT> class ScopedEntry {
public:
  using Key = typename MapT::key_type;
  using Mapped = typename MapT::mapped_type;

  ScopedEntry(MapT &Map, Key K, Mapped Value) : ScopedEntry(Map, std::move(K)) {
    Map[this->K] = std::move(Value);
  }
  ScopedEntry(MapT &Map, Key K) : Map(Map), K(std::move(K)) {
    auto It = Map.find(this->K);
    if (It != Map.end()) {
      Saved = std::move(It->second);
      Map.erase(It);
    }
  }
  ~ScopedEntry() {
    if (Saved)
      Map[K] = std::move(*Saved);
    else
      Map.erase(K);
  }
  ScopedEntry(const ScopedEntry &) = delete;
  ScopedEntry &operator=(const ScopedEntry &) = delete;

private:
  MapT &Map;
  Key K;
  std::optional<Mapped> Saved;
};

} // namespace sched

#endif
