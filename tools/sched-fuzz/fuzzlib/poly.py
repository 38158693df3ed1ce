"""Integer polynomials over names (loop variables and size parameters).

Indices, loop extents and array strides of generated nests are sums of
monomials `c * x * N * ...` with integer coefficients. A Poly prints itself as
C++ (the form the plugin's delinearizer reads: `i * N + j`), evaluates with
concrete values, and compiles to Python source for the reference interpreter.
"""


class Poly:
    __slots__ = ("terms",)

    def __init__(self, terms=None):
        # monomial (sorted tuple of names) -> coefficient; () is the constant
        self.terms = {}
        if terms:
            for mono, coef in terms.items():
                if coef:
                    self.terms[tuple(sorted(mono))] = self.terms.get(tuple(sorted(mono)), 0) + coef
            self.terms = {m: c for m, c in self.terms.items() if c}

    @staticmethod
    def const(c):
        return Poly({(): c})

    @staticmethod
    def var(name, coef=1):
        return Poly({(name,): coef})

    @staticmethod
    def of(x):
        if isinstance(x, Poly):
            return x
        if isinstance(x, int):
            return Poly.const(x)
        if isinstance(x, str):
            return Poly.var(x)
        raise TypeError(x)

    def __add__(self, other):
        other = Poly.of(other)
        t = dict(self.terms)
        for m, c in other.terms.items():
            t[m] = t.get(m, 0) + c
        return Poly(t)

    __radd__ = __add__

    def __neg__(self):
        return Poly({m: -c for m, c in self.terms.items()})

    def __sub__(self, other):
        return self + (-Poly.of(other))

    def __rsub__(self, other):
        return Poly.of(other) - self

    def __mul__(self, other):
        other = Poly.of(other)
        t = {}
        for m1, c1 in self.terms.items():
            for m2, c2 in other.terms.items():
                m = tuple(sorted(m1 + m2))
                t[m] = t.get(m, 0) + c1 * c2
        return Poly(t)

    __rmul__ = __mul__

    def __eq__(self, other):
        return isinstance(other, Poly) and self.terms == other.terms

    def __hash__(self):
        return hash(tuple(sorted(self.terms.items())))

    def is_const(self):
        return all(m == () for m in self.terms)

    def const_value(self):
        """The constant term (the whole value when is_const())."""
        return self.terms.get((), 0)

    def names(self):
        out = set()
        for m in self.terms:
            out.update(m)
        return out

    def coef_of(self, name):
        """The coefficient (a Poly) of a name that appears linearly."""
        t = {}
        for m, c in self.terms.items():
            if name in m:
                rest = list(m)
                rest.remove(name)
                t[tuple(rest)] = t.get(tuple(rest), 0) + c
        return Poly(t)

    def subst(self, mapping):
        """Replaces names by Polys (or ints)."""
        out = Poly()
        for m, c in self.terms.items():
            term = Poly.const(c)
            for n in m:
                term = term * Poly.of(mapping[n]) if n in mapping else term * Poly.var(n)
            out = out + term
        return out

    def eval(self, env):
        total = 0
        for m, c in self.terms.items():
            v = c
            for n in m:
                v *= env[n]
            total += v
        return total

    def _mono_c(self, m, c, first):
        names = " * ".join(m)
        if not m:
            s = str(abs(c))
        elif abs(c) == 1:
            s = names
        else:
            s = "%d * %s" % (abs(c), names)
        if first:
            return ("-" if c < 0 else "") + s
        return (" - " if c < 0 else " + ") + s

    def _order(self):
        # Highest degree first, then by name: `i * N + j + 1`.
        return sorted(self.terms.items(), key=lambda mc: (-len(mc[0]), mc[0] == (), mc[0]))

    def to_c(self):
        if not self.terms:
            return "0"
        out = ""
        for k, (m, c) in enumerate(self._order()):
            out += self._mono_c(m, c, k == 0)
        return out

    def to_py(self):
        if not self.terms:
            return "0"
        parts = []
        for m, c in self._order():
            parts.append("(%s)" % "*".join([str(c)] + list(m)))
        return "+".join(parts)

    def __repr__(self):
        return self.to_c()
