//===- IntegerSystem.h - Emptiness of integer linear systems ---*- C++ -*-===//
//
// The decision procedure under the dependence analysis (Dependence.h): a set
// of linear equalities and inequalities over integer variables, and the
// question whether it has no integer point. Equalities are eliminated exactly
// (the Omega test's method: unit coefficients are substituted, larger ones
// reduced with a fresh variable and the symmetric modulo), inequalities by
// Fourier-Motzkin elimination with gcd tightening, exact where a variable has
// unit coefficients on one side and the real shadow elsewhere.
//
// The answer is one-sided: provablyEmpty() == true means no integer point
// exists; false means one may exist (the real shadow may contain points where
// the integer set has none, and systems that grow too large, or whose
// coefficients would overflow, are given up on). Every client asks "can two
// accesses touch the same element?", for which "maybe" is the safe answer.
//
// Most questions the dependence analysis asks are settled long before the
// solver would need its elimination steps: cheap exact tests (quickProof)
// run first and answer "empty" only with a proof; a system they leave has
// often an integer point that a greedy search from the propagated ranges
// finds (quickPoint), which answers "not empty" exactly; everything else
// goes to the solver. With SCHED_CHECK_FAST_DEPENDENCE=1 in the environment the
// solver answers every question a fast path answered too, and a difference
// aborts the compile with both answers (the lit suite runs in that mode).
//
//===----------------------------------------------------------------------===//
#ifndef SCHED_IR_INTEGERSYSTEM_H
#define SCHED_IR_INTEGERSYSTEM_H

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace sched {
namespace ir {

/// Constant + sum(Coefs[v] * x_v) with int64 coefficients. Overflow marks an
/// expression whose arithmetic overflowed: a constraint built from it is
/// dropped (which only adds points).
struct LinearExpr {
  std::map<int, int64_t> Coefs; // variable index -> non-zero coefficient
  int64_t Constant = 0;
  bool Overflow = false;

  static LinearExpr constant(int64_t C);
  static LinearExpr variable(int V, int64_t Coef = 1);
  bool isConstant() const { return Coefs.empty(); }
  LinearExpr &operator+=(const LinearExpr &O);
  LinearExpr &operator-=(const LinearExpr &O);
  LinearExpr &operator*=(int64_t K);
  std::string str() const; // "2*x0 - x3 + 5", for tests and debugging
};
LinearExpr operator+(LinearExpr A, const LinearExpr &B);
LinearExpr operator-(LinearExpr A, const LinearExpr &B);
LinearExpr operator*(LinearExpr A, int64_t K);

/// The cheap tests provablyEmpty() tries before the solver, in this order;
/// each proves some empty systems and leaves every other to the next.
enum class QuickProof {
  None,     // no cheap proof: only the solver can tell
  Gcd,      // an equality whose coefficients' gcd does not divide its constant
  Aliases,  // x == y + c equalities substituted: a constraint became false
  Bounds,   // the variables' constant ranges (propagated through every
            // constraint, Banerjee-style) leave some constraint unsatisfiable
  Strides,  // an equality's terms that are multiples of g, against the rest
            // (whose range is narrower than g), must take one value: the
            // equalities that follow (a whole row 64*j + l == 64*j' + l'
            // with l, l' < 64 is j == j' and l == l') refute the system
};
const char *quickProofName(QuickProof P);

/// Whether SCHED_CHECK_FAST_DEPENDENCE is set (to anything but "" or "0"):
/// every fast answer is then checked against the exact path's.
bool checkFastDependence();
/// Aborts the compile: a fast path's answer differs from the exact one.
[[noreturn]] void fastDependenceMismatch(const std::string &What);

class IntegerSystem {
public:
  /// A new unknown; returns its index.
  int addVariable();
  int numVariables() const { return NumVars; }

  /// E == 0.
  void addEquality(const LinearExpr &E);
  /// E >= 0.
  void addInequality(const LinearExpr &E);
  /// Lo <= E <= Hi (convenience).
  void addRange(const LinearExpr &E, int64_t Lo, int64_t Hi);

  /// Where the system stands: constraints added after it can be taken back
  /// (backTo), so that a question asked with a few more constraints needs
  /// no copy of the system.
  struct Mark {
    size_t Equalities = 0, Inequalities = 0;
    bool Contradiction = false;
  };
  Mark mark() const { return {Equalities.size(), Inequalities.size(), Contradiction}; }
  /// Removes every constraint added since M (variables stay).
  void backTo(const Mark &M) {
    Equalities.resize(M.Equalities);
    Inequalities.resize(M.Inequalities);
    Contradiction = M.Contradiction;
  }

  /// True when the system provably has no integer solution.
  bool provablyEmpty() const;

  /// Which cheap test proves the system empty without the solver (None
  /// when none does; then only the solver can answer). Never a proof for a
  /// system with an integer point.
  QuickProof quickProof() const;

  /// Whether a cheap greedy search (from the ranges quickProof propagates)
  /// finds an integer point, checked against every constraint: the system
  /// is then not empty, without the solver. False says nothing.
  bool quickPoint() const;

  std::string str() const;

private:
  int NumVars = 0;
  bool Contradiction = false; // a constant constraint that cannot hold
  std::vector<LinearExpr> Equalities, Inequalities;
};

} // namespace ir
} // namespace sched

#endif
