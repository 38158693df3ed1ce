#!/usr/bin/env python3
"""Self-test of the sched-fuzz oracle (run by ctest as `fuzz-oracle`).

Hand-written nests with schedules whose legality is known: the oracle must
reject the illegal ones (so the fuzzer never blames the plugin for a
schedule that is really wrong) and accept the legal ones (so it keeps
generating the schedules the issue says must work). Also checks the
reference interpreter against the C++ fill pattern and the generator's
determinism.
"""
import os
import random
import stat
import sys
import tempfile
import textwrap
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fuzzlib import model as M  # noqa: E402
from fuzzlib import nest as N  # noqa: E402
from fuzzlib.poly import Poly  # noqa: E402
from fuzzlib.schedgen import Oracle, replay  # noqa: E402
from fuzzlib.cases import make_case  # noqa: E402
from fuzzlib.program import build_program  # noqa: E402
from fuzzlib.runner import FAILING, Result, Runner, compare, compare_emu  # noqa: E402
from fuzzlib.vta import make_vta_case  # noqa: E402

F = N.TYPES["float"]
V = Poly.var


def arr(name, dims, readonly=False, kind="flat"):
    a = N.Array(name, F, kind, dims, readonly)
    a.salt = len(name) * 7 + 1
    return a


def load(a, *idx):
    return N.Load(N.Access(a, list(idx)))


class Builder:
    def __init__(self):
        self.sid = 0

    def st(self, lhs, op, rhs):
        self.sid += 1
        return N.Assign(self.sid, lhs, op, rhs, F)

    def decl(self, name, init):
        self.sid += 1
        return N.DeclScalar(self.sid, name, F, init)


def make(body, params, arrays, configs):
    n = N.Nest("t", params, arrays, body)
    n.configs = configs
    return Oracle(n)


def matmul_inplace(init=True):
    """for i, j: (C[i][j] = 0;) for k: C[i][j] += A[i][k] * B[k][j]"""
    b = Builder()
    A, B, C = arr("A", [V("M"), V("K")], True), arr("B", [V("K"), V("N")], True), \
        arr("C", [V("M"), V("N")])
    k = N.Loop("k", 0, V("K"), [b.st(N.Access(C, [V("i"), V("j")]), "+=",
                                     N.Bin("*", load(A, V("i"), V("k")), load(B, V("k"), V("j"))))])
    jb = ([b.st(N.Access(C, [V("i"), V("j")]), "=", N.Const(0))] if init else []) + [k]
    body = [N.Loop("i", 0, V("M"), [N.Loop("j", 0, V("N"), jb)])]
    cfgs = [{"M": 5, "N": 6, "K": 3}, {"M": 4, "N": 8, "K": 4}]
    return make(body, ["M", "N", "K"], [A, B, C], cfgs)


def matmul_acc(beta1=False, jext=8):
    """for i, j: acc = 0 | C[i][j]; for k: acc += ...; C[i][j] = acc"""
    b = Builder()
    A, B, C = arr("A", [V("M"), V("K")], True), arr("B", [V("K"), jext], True), \
        arr("C", [V("M"), jext])
    init = load(C, V("i"), V("j")) if beta1 else N.Const(0)
    k = N.Loop("k", 0, V("K"), [b.st("acc", "+=", N.Bin("*", load(A, V("i"), V("k")),
                                                          load(B, V("k"), V("j"))))])
    jb = [b.decl("acc", init), k, b.st(N.Access(C, [V("i"), V("j")]), "=", N.ScalarRd("acc", F))]
    body = [N.Loop("i", 0, V("M"), [N.Loop("j", 0, jext, jb)])]
    cfgs = [{"M": 5, "K": 3, "N": 8}, {"M": 16, "K": 2, "N": 8}]
    return make(body, ["M", "K", "N"], [A, B, C], cfgs)


def recurrence():
    """for i: for j = 1..W: a[i][j] = a[i][j-1] + x[i][j]"""
    b = Builder()
    a, x = arr("a", [V("R"), V("W")]), arr("x", [V("R"), V("W")], True)
    s = b.st(N.Access(a, [V("i"), V("j")]), "=",
             N.Bin("+", load(a, V("i"), V("j") - 1), load(x, V("i"), V("j"))))
    body = [N.Loop("i", 0, V("R"), [N.Loop("j", 1, V("W"), [s])])]
    return make(body, ["R", "W"], [a, x], [{"R": 4, "W": 6}, {"R": 3, "W": 5}])


def wavefront():
    """a[i][j] = a[i-1][j+1] + 1: dependence distance (1, -1)."""
    b = Builder()
    a = arr("a", [V("R"), V("W") + 1])
    s = b.st(N.Access(a, [V("i"), V("j")]), "=", N.Bin("+", load(a, V("i") - 1, V("j") + 1),
                                                       N.Const(1)))
    body = [N.Loop("i", 1, V("R"), [N.Loop("j", 0, V("W"), [s])])]
    return make(body, ["R", "W"], [a], [{"R": 4, "W": 5}])


def scratch_reuse():
    """for i: { for j: T[j] = X[i][j]; for q: Y[i][q] = T[N-1-q] } with a
    global scratch T reused by every i."""
    b = Builder()
    T, X, Y = arr("T", [V("N")]), arr("X", [V("M"), V("N")], True), arr("Y", [V("M"), V("N")])
    l1 = N.Loop("j", 0, V("N"), [b.st(N.Access(T, [V("j")]), "=", load(X, V("i"), V("j")))])
    l2 = N.Loop("q", 0, V("N"), [b.st(N.Access(Y, [V("i"), V("q")]), "=",
                                      load(T, V("N") - 1 - V("q")))])
    body = [N.Loop("i", 0, V("M"), [l1, l2])]
    return make(body, ["M", "N"], [T, X, Y], [{"M": 3, "N": 4}])


def row_sum():
    """for i: for k: S[0] += X[i][k] (one element, every iteration)."""
    b = Builder()
    S, X = arr("S", [1]), arr("X", [V("M"), V("K")], True)
    s = b.st(N.Access(S, [Poly.const(0)]), "+=", load(X, V("i"), V("k")))
    body = [N.Loop("i", 0, V("M"), [N.Loop("k", 0, V("K"), [s])])]
    return make(body, ["M", "K"], [S, X], [{"M": 3, "K": 4}])


def imperfect_shared_use():
    """for i: { D[i] = 1; for j: E[i][j] = D[i] + X[i][j] }"""
    b = Builder()
    D, E, X = arr("D", [V("M")]), arr("E", [V("M"), 8]), arr("X", [V("M"), 8], True)
    body = [N.Loop("i", 0, V("M"), [
        b.st(N.Access(D, [V("i")]), "=", N.Const(1)),
        N.Loop("j", 0, 8, [b.st(N.Access(E, [V("i"), V("j")]), "=",
                                N.Bin("+", load(D, V("i")), load(X, V("i"), V("j"))))])])]
    return make(body, ["M"], [D, E, X], [{"M": 5}])


def recurrence_short(general=True):
    """for k = 1..M: for l < 4: A[4k + l] = A[4k + l - 4] + B[k] (seed 733):
    a recurrence along k, run at sizes M <= 17 only."""
    b = Builder()
    A, B = arr("A", [V("M"), 4]), arr("B", [V("M")], True)
    s = b.st(N.Access(A, [V("k"), V("l")]), "=",
             N.Bin("+", load(A, V("k") - 1, V("l")), load(B, V("k"))))
    body = [N.Loop("k", 1, V("M"), [N.Loop("l", 0, 4, [s])])]
    n = N.Nest("t", ["M"], [A, B], body)
    n.configs = [{"M": 16}, {"M": 17}, {"M": 2}]
    return Oracle(n, general=general)


def fixed_rows():
    """for i < 4: for j < M: F[i][j] = X[j] with F declared float[4][12]:
    sized for the run sizes (M <= 12) only."""
    b = Builder()
    Fx, X = arr("F", [4, 12], kind="fixed"), arr("X", [V("M")], True)
    s = b.st(N.Access(Fx, [V("i"), V("j")]), "=", load(X, V("j")))
    body = [N.Loop("i", 0, 4, [N.Loop("j", 0, V("M"), [s])])]
    n = N.Nest("t", ["M"], [Fx, X], body)
    n.configs = [{"M": 12}, {"M": 5}]
    return Oracle(n)


def memory_guard(general=True):
    """for i < M: if (G[i] > 5) S[0] = i: the fill data (-3..3) never take
    the branch, other data do."""
    b = Builder()
    S_, G = arr("S", [1]), arr("G", [V("M")], True)
    s = b.st(N.Access(S_, [Poly.const(0)]), "=", N.IVal(V("i")))
    body = [N.Loop("i", 0, V("M"), [N.If(N.CondV(">", load(G, V("i")), N.Const(5)), [s])])]
    n = N.Nest("t", ["M"], [S_, G], body)
    n.configs = [{"M": 8}, {"M": 3}]
    return Oracle(n, general=general)


def self_scaling_sum():
    """for i < M: for k < K: S[0] += S[0] + X[i][k] (the update reads its
    own target: two of them do not commute)."""
    b = Builder()
    S_, X = arr("S", [1]), arr("X", [V("M"), V("K")], True)
    s = b.st(N.Access(S_, [Poly.const(0)]), "+=", N.Bin("+", load(S_, Poly.const(0)),
                                                       load(X, V("i"), V("k"))))
    body = [N.Loop("i", 0, V("M"), [N.Loop("k", 0, V("K"), [s])])]
    return make(body, ["M", "K"], [S_, X], [{"M": 3, "K": 2}])


def init_then_sum():
    """for i < 8: { C[i] = 0; for k < 4: C[i] += A[i][k] }"""
    b = Builder()
    C, A = arr("C", [8]), arr("A", [8, 4], True)
    body = [N.Loop("i", 0, 8, [
        b.st(N.Access(C, [V("i")]), "=", N.Const(0)),
        N.Loop("k", 0, 4, [b.st(N.Access(C, [V("i")]), "+=", load(A, V("i"), V("k")))])])]
    return make(body, [], [C, A], [{}])


def two_level_distribution():
    """for i < 8: { for j < 4: { E[i][j] = 2; for l < 2: F[i][j][l] = 3 }
                    for k < 3: G[i][k] = 1 }"""
    b = Builder()
    E, Fa, G = arr("E", [8, 4]), arr("F", [8, 4, 2]), arr("G", [8, 3])
    body = [N.Loop("i", 0, 8, [
        N.Loop("j", 0, 4, [
            b.st(N.Access(E, [V("i"), V("j")]), "=", N.Const(2)),
            N.Loop("l", 0, 2, [b.st(N.Access(Fa, [V("i"), V("j"), V("l")]), "=", N.Const(3))])]),
        N.Loop("k", 0, 3, [b.st(N.Access(G, [V("i"), V("k")]), "=", N.Const(1))])])]
    return make(body, [], [E, Fa, G], [{}])


def nested_sequences():
    """for i < 8: { D[i] = 1; for j < 4: { E[i][j] = 2; for k < 2: F[i][j][k] = 3 } }"""
    b = Builder()
    D, E, Fa = arr("D", [8]), arr("E", [8, 4]), arr("F", [8, 4, 2])
    body = [N.Loop("i", 0, 8, [
        b.st(N.Access(D, [V("i")]), "=", N.Const(1)),
        N.Loop("j", 0, 4, [
            b.st(N.Access(E, [V("i"), V("j")]), "=", N.Const(2)),
            N.Loop("k", 0, 2, [b.st(N.Access(Fa, [V("i"), V("j"), V("k")]), "=", N.Const(3))])])])]
    return make(body, [], [D, E, Fa], [{}])


def self_update_once():
    """for i < 8: for k < 1: C[i] = C[i] + A[i][k] (a reduction loop to the
    plugin, though it runs once)"""
    b = Builder()
    C, A = arr("C", [8]), arr("A", [8, 1], True)
    s = b.st(N.Access(C, [V("i")]), "=", N.Bin("+", load(C, V("i")), load(A, V("i"), V("k"))))
    return make([N.Loop("i", 0, 8, [N.Loop("k", 0, 1, [s])])], [], [C, A], [{}])


def array_in_distributed_loop():
    """for i < 8: { for j < 2: { float t[4]; for q: t[q] = X[i][j][q];
                    for u: E[i][j][u] = t[3 - u] }  for k < 3: G[i][k] = 1 }"""
    b = Builder()
    X, E, G = arr("X", [8, 2, 4], True), arr("E", [8, 2, 4]), arr("G", [8, 3])
    t = N.Array("t", F, "local", [4])
    body = [N.Loop("i", 0, 8, [
        N.Loop("j", 0, 2, [
            N.DeclArray(t),
            N.Loop("q", 0, 4, [b.st(N.Access(t, [V("q")]), "=", load(X, V("i"), V("j"), V("q")))]),
            N.Loop("u", 0, 4, [b.st(N.Access(E, [V("i"), V("j"), V("u")]), "=",
                                    load(t, Poly.const(3) - V("u")))])]),
        N.Loop("k", 0, 3, [b.st(N.Access(G, [V("i"), V("k")]), "=", N.Const(1))])])]
    return make(body, [], [X, E, G], [{}])


def recurrence_narrow():
    """for i < R: for j = 1..W: a[i][j] = a[i][j-1] + x[i][j], run with
    W <= 4 only (seed 92)."""
    b = Builder()
    a, x = arr("a", [V("R"), V("W")]), arr("x", [V("R"), V("W")], True)
    s = b.st(N.Access(a, [V("i"), V("j")]), "=",
             N.Bin("+", load(a, V("i"), V("j") - 1), load(x, V("i"), V("j"))))
    body = [N.Loop("i", 0, V("R"), [N.Loop("j", 1, V("W"), [s])])]
    return make(body, ["R", "W"], [a, x], [{"R": 4, "W": 4}, {"R": 3, "W": 3}])


T = "target(gpu)"


def S(*ds):
    """Directive strings to tuples."""
    out = []
    for d in ds:
        name, rest = d.split("(", 1)
        out.append(tuple([name] + [a.strip() for a in rest.rstrip(")").split(",")]))
    return [("target", "gpu")] + out


class OracleTest(unittest.TestCase):
    def legal(self, oracle, dirs):
        why = oracle.check(dirs)
        self.assertIsNone(why, "rejected a legal schedule %s: %s" % (dirs, why))

    def illegal(self, oracle, dirs, reason="dependence"):
        why = oracle.check(dirs)
        self.assertIsNotNone(why, "accepted an illegal schedule %s" % dirs)
        self.assertIn(reason, why)

    # ---- illegal: the fuzzer must never generate these
    def test_bind_reduction_loop_to_thread_is_illegal(self):
        self.illegal(matmul_inplace(), S("bind(k, threadIdx.x)"), "model")

    def test_bind_reduction_loop_to_vthread_is_illegal(self):
        # a reduction loop is bindable to no tag (pragma.md, Legality)
        self.illegal(matmul_inplace(), S("split(k, ko, ki, nparts=2)", "bind(ko, vthread)"),
                     "model: bind of a reduction loop")

    def test_bind_recurrence_carrying_loop_is_illegal(self):
        self.illegal(recurrence(), S("bind(j, threadIdx.x)"))

    def test_split_recurrence_inner_part_bound_is_illegal(self):
        self.illegal(recurrence(), S("split(j, jo, ji, 2)", "bind(ji, threadIdx.x)"))

    def test_each_reorder_must_be_legal_where_it_stands(self):
        # the plugin checks a reorder when it applies it: ji outside jo
        # reverses the recurrence, though the next reorder restores it
        self.legal(recurrence(), S("split(j, jo, ji, 2)"))
        self.illegal(recurrence(), S("split(j, jo, ji, 2)", "reorder(ji, jo)", "reorder(jo, ji)"),
                     "(after reorder(ji, jo))")

    def test_interchange_of_wavefront_is_illegal(self):
        self.illegal(wavefront(), S("reorder(j, i)"))

    def test_distribution_over_reused_scratch_is_illegal(self):
        # q moves outside i: all of the i-loop's T writes happen first
        self.illegal(scratch_reuse(), S("reorder(j, i)"))

    def test_parallel_updates_of_one_element_are_illegal(self):
        self.illegal(row_sum(), S("bind(i, vthread)"), "model")
        self.illegal(row_sum(), S("split(i, io, ii, nparts=2)", "bind(io, vthread)"), "model")

    def test_vectorized_recurrence_is_illegal(self):
        self.illegal(recurrence(), S("split(j, jo, ji, 2)", "vectorize(ji)"))

    def test_accumulator_expanded_by_symbolic_extent_is_rejected(self):
        # acc would become a local array of run-time size
        self.illegal(matmul_acc(jext=V("N")), S("reorder(i, k, j)"), "model")

    # ---- legal at the run sizes only: never generated
    def test_tile_loop_with_one_iteration_at_run_sizes_is_illegal(self):
        # ko = (k-1) / 16 has one iteration for M <= 17, so blocks carry
        # nothing there; at larger M the recurrence crosses tiles.
        dirs = S("tile(k, l, ko, lo, ki, li, 16, 4)", "bind(ko, blockIdx.y)")
        self.legal(recurrence_short(general=False), dirs)
        self.illegal(recurrence_short(), dirs, "sizes not run")

    def test_split_wider_than_every_size_checked_is_checked_at_its_width(self):
        # ji outside jo reverses the recurrence once j spans two tiles of
        # 16: not at the run sizes (W <= 4), nor doubled (W = 11); the
        # oracle sizes a check for the schedule (j spans 17: W >= 18)
        o = recurrence_narrow()
        dirs = S("split(j, jo, ji, 16)", "reorder(ji, jo)")
        self.assertTrue(all(c["W"] < 18 for c in o.general_configs))
        self.assertGreaterEqual(o.sized_config(replay(o.nest, dirs))["W"], 18)
        self.illegal(o, dirs, "sizes not run")

    def test_split_inside_a_fuse_is_checked_at_its_width(self):
        # (seed 2270) jo fused with i: j must still span two tiles of 16
        self.illegal(recurrence_narrow(), S("split(j, jo, ji, 16)", "fuse(i, jo, ijo)",
                                            "reorder(ji, ijo)"), "sizes not run")

    def test_sizes_not_run_are_larger_and_one_is_non_dividing(self):
        cfgs = recurrence_short().general_configs
        self.assertTrue(cfgs and all(c["M"] > 17 for c in cfgs))
        self.assertTrue(any(all(c["M"] % f for f in (2, 3, 4, 8, 16)) for c in cfgs))

    def test_fixed_array_at_sizes_not_run_has_no_false_dependence(self):
        # F[i][j] with j >= 12 would alias the next row if flattened by the
        # declared [4][12]; rows stay independent at any size.
        self.legal(fixed_rows(), S("bind(i, blockIdx.x)", "bind(j, threadIdx.x)"))

    def test_guard_reading_memory_is_taken_at_sizes_not_run(self):
        # every i may write S[0] (with other data): i carries an output
        # dependence though the fill data never take the branch
        self.legal(memory_guard(general=False), S("bind(i, threadIdx.x)"))
        self.illegal(memory_guard(), S("bind(i, threadIdx.x)"), "sizes not run")

    def test_update_reading_its_target_does_not_commute(self):
        self.illegal(self_scaling_sum(), S("reorder(k, i)"))

    def test_rank_is_unsure_when_two_dimensions_share_a_stride(self):
        # U[M*i + j + n] with n < 1 (seed 835): the declared rank is 3, the
        # extractor's chain (M, 1) gives 2; a stage on it must not be
        # generated with a guessed rank
        b = Builder()
        U = arr("U", [3, V("M"), 1])
        s = b.st(N.Access(U, [V("i"), V("j"), V("n")]), "=", N.Const(1))
        body = [N.Loop("i", 0, 3, [N.Loop("j", 0, V("M"), [N.Loop("n", 0, 1, [s])])])]
        n = N.Nest("t", ["M"], [U], body)
        n.configs = [{"M": 4}]
        self.assertIsNone(M.predicted_rank(n, U))

    # ---- legal: the issue says these must schedule
    def test_row_parallel_recurrence_is_legal(self):
        self.legal(recurrence(), S("bind(i, blockIdx.x)"))
        self.legal(recurrence(), S("split(i, bo, ti, 2)", "bind(bo, blockIdx.x)",
                                   "bind(ti, threadIdx.x)"))

    def test_reorder_of_inplace_reduction_is_legal(self):
        self.legal(matmul_inplace(), S("reorder(i, k, j)"))
        self.legal(matmul_inplace(init=False), S("reorder(k, j, i)"))

    def test_reorder_of_beta1_gemm_is_legal(self):
        self.legal(matmul_acc(beta1=True), S("reorder(i, k, j)"))

    def test_gemm_tiled_with_shared_stages_is_legal(self):
        self.legal(matmul_acc(), S(
            "tile(i, j, io, jo, ii, ji, 4, 4)", "split(k, ko, ki, 2)",
            "split(ii, ty, ii2, nparts=2)", "split(ji, tx, ji2, nparts=2)",
            "reorder(io, jo, ty, tx, ko, ki, ii2, ji2)", "bind(io, blockIdx.y)",
            "bind(jo, blockIdx.x)", "bind(ty, threadIdx.y)", "bind(tx, threadIdx.x)",
            "cache_read(A, shared, As)", "compute_at(As, ko)", "cache_read(B, shared, Bs)",
            "compute_at(Bs, ko)", "double_buffer(As)", "storage_align(Bs, Bs.ax0, 16, 1)"))

    def test_fuse_then_bind_is_legal(self):
        self.legal(matmul_acc(), S("fuse(i, j, f)", "split(f, bx, tx, 8)", "bind(bx, blockIdx.x)",
                                   "bind(tx, threadIdx.x)"))

    def test_partial_reorder_is_legal(self):
        self.legal(matmul_inplace(), S("reorder(k, i)"))

    def test_sum_may_be_reassociated_serially(self):
        self.legal(row_sum(), S("reorder(k, i)"))

    def test_statement_beside_thread_loop_is_legal(self):
        self.legal(imperfect_shared_use(), S("bind(i, blockIdx.x)", "bind(j, threadIdx.x)"))

    # ---- documented structure rules
    def test_block_loop_inside_thread_loop_is_rejected(self):
        self.illegal(recurrence(), S("bind(i, threadIdx.x)", "split(j, jo, ji, 2)",
                                     "bind(ji, blockIdx.x)"), "model")

    def test_compute_at_not_enclosing_every_use_is_rejected(self):
        # the init C = 0 lies outside k
        self.illegal(matmul_inplace(), S("cache_write(C, local, Cl)", "compute_at(Cl, k)"),
                     "model")
        self.legal(matmul_inplace(), S("cache_write(C, local, Cl)", "compute_at(Cl, j)"))

    def test_local_stage_above_thread_loop_is_rejected(self):
        self.illegal(matmul_acc(), S("cache_read(A, local, Al)", "compute_at(Al, i)",
                                     "bind(j, threadIdx.x)"), "model")

    def test_stage_without_compute_at_is_rejected(self):
        self.illegal(matmul_inplace(), S("cache_read(A, shared, As)"), "model")

    def test_symbolic_stage_region_is_rejected(self):
        self.illegal(matmul_inplace(), S("cache_read(A, shared, As)", "compute_at(As, i)"),
                     "model")


class ReferenceTest(unittest.TestCase):
    def test_fill_matches_the_cpp_pattern(self):
        # values fz_fillv gives for salt 5, indices 0..4 (computed by hand
        # from the C++ in program.PRELUDE with 32-bit unsigned arithmetic)
        def c_fill(salt, idx):
            x = (idx * 2654435761 + salt * 40503 + 12345) % (1 << 32)
            x ^= x >> 13
            x = (x * 0x5BD1E995) % (1 << 32)
            x ^= x >> 15
            return x % 7 - 3
        for i in range(50):
            self.assertEqual(N.fill_value(5, i), c_fill(5, i))

    def test_update_kinds_in_the_trace(self):
        o = matmul_inplace()
        tr = o.traces[0][0]
        kinds = [k for _, k in tr.locs[("C", 0)]]
        self.assertEqual(kinds, ["W"] + ["U"] * 3)

    def test_generation_is_deterministic(self):
        a = build_program([make_case(1234)])
        b = build_program([make_case(1234)])
        self.assertEqual(a, b)

    def test_generated_schedules_pass_the_oracle(self):
        for seed in range(20):
            c = make_case(seed)
            self.assertIsNone(c.oracle.check(c.directives), "seed %d" % seed)



class BindModelTest(unittest.TestCase):
    """The model's bind is the plugin's (schedule/Bind.cpp, pragma.md
    Legality): each case was checked against the plugin's scheduled IR or
    its error."""

    def model(self, oracle, dirs):
        return replay(oracle.nest, dirs)

    def tags(self, m):
        return {L.name: L.tag for L in m.loops()}

    def test_bind_binds_the_copies_distribution_made(self):
        o = init_then_sum()
        dirs = S("reorder(k, i)", "bind(i, threadIdx.x)")
        self.assertIsNone(o.check(dirs))
        tags = self.tags(self.model(o, dirs))
        self.assertEqual((tags["i"], tags["i_1"], tags["k"]), ("threadIdx.x", "threadIdx.x", None))

    def test_naming_a_bound_copy_again_with_its_tag_is_a_no_op(self):
        o = init_then_sum()
        self.assertIsNone(o.check(S("reorder(k, i)", "bind(i, threadIdx.x)",
                                    "bind(i_1, threadIdx.x)")))

    def test_naming_a_bound_copy_with_another_tag_is_illegal(self):
        why = init_then_sum().check(S("reorder(k, i)", "bind(i, threadIdx.x)",
                                      "bind(i_1, threadIdx.y)"))
        self.assertEqual(why, "model: bind of a non-serial loop")

    def test_copy_of_a_copy_is_bound_with_the_original(self):
        o = two_level_distribution()
        dirs = S("reorder(k, i)", "reorder(j, i_1)", "reorder(l, i_1)", "bind(i, threadIdx.x)")
        self.assertIsNone(o.check(dirs))
        tags = self.tags(self.model(o, dirs))
        self.assertEqual({n: t for n, t in tags.items() if t},
                         {"i": "threadIdx.x", "i_1": "threadIdx.x", "i_1_1": "threadIdx.x"})

    def test_copy_is_named_by_the_first_name_free_now(self):
        # i_1 is split away, so the next copy of i is i_1 again (not i_2)
        m = self.model(nested_sequences(), S("reorder(j, i)", "split(i_1, a, b, 2)",
                                             "reorder(k, i)"))
        self.assertEqual(sorted(L.name for L in m.loops()), ["a", "b", "i", "i_1", "j", "k"])

    def test_float_sum_bound_to_blocks_without_atomic_is_legal(self):
        # C[i] = C[i] + ... makes k a reduction loop even with one iteration;
        # without atomic(C) the blocks' partials are added up in block order
        self.assertIsNone(self_update_once().check(S("bind(i, blockIdx.y)", "bind(k, blockIdx.x)")))

    def test_reduction_loop_bound_to_blocks_with_atomic_is_legal(self):
        o = self_update_once()
        dirs = S("atomic(C)", "bind(i, blockIdx.y)", "bind(k, blockIdx.x)")
        self.assertIsNone(o.check(dirs))
        self.assertTrue(self.model(o, dirs).find("k")[0].combine)

    def test_integer_sum_bound_to_blocks_needs_no_atomic(self):
        # an int sum is exact in any order
        o = self_update_once()
        o.nest.arrays[0].ty = N.TYPES["int"]
        o.nest.arrays[1].ty = N.TYPES["int"]
        self.assertIsNone(o.check(S("bind(i, blockIdx.y)", "bind(k, blockIdx.x)")))

    def test_reduction_loop_of_run_time_extent_bound_to_blocks_is_legal(self):
        # a block keeps its partial in one local whatever the loop's extent
        # (k < K); to threads the same loop is refused
        dirs = S("atomic(C)", "bind(i, blockIdx.z)", "bind(j, blockIdx.y)", "bind(k, blockIdx.x)")
        self.assertIsNone(matmul_inplace(init=False).check(dirs))
        self.assertEqual(matmul_inplace(init=False).check(S("bind(k, threadIdx.x)")),
                         "model: bind of a reduction loop: run-time extent")

    def test_atomic_reduction_replaces_the_schedule_where_a_chain_allows_it(self):
        # the case generator's atomic() cases: seed 26's nest is a reduction
        # under spatial loops only (cases.atomic_reduction)
        from fuzzlib.cases import make_case
        case = make_case(26)
        self.assertEqual(case.directives, [
            ("target", "gpu"), ("atomic", "A"), ("bind", "i", "blockIdx.z"),
            ("bind", "j", "blockIdx.x")])
        self.assertIsNone(case.oracle.check(case.directives))

    def test_rfactor_makes_the_factor_loop_parallel_and_adds_the_partials_loops(self):
        # for i < 8: for k < 1: C[i] += A[i][k], factored by k itself
        o = self_update_once()
        dirs = S("rfactor(k, k, P)", "bind(k, threadIdx.x)", "bind(P.r, threadIdx.x)")
        self.assertIsNone(o.check(dirs))
        m = self.model(o, dirs)
        self.assertFalse(m.find("k")[0].red)
        self.assertTrue(m.find("P.r")[0].combine)
        self.assertEqual(m.find("P.init")[0].kind, "serial")

    def test_rfactor_of_a_loop_that_carries_no_reduction_is_illegal(self):
        why = self_update_once().check(S("rfactor(i, i, P)"))
        self.assertEqual(why, "model: rfactor of a loop that carries no reduction")

    def test_reduction_loop_is_bindable_to_no_virtual_thread(self):
        why = self_update_once().check(S("bind(k, vthread)"))
        self.assertEqual(why, "model: bind of a reduction loop")

    def test_reduction_loop_bound_to_threads_is_a_cross_thread_reduction(self):
        # issue 23: the block combines the threads' partial results
        o = self_update_once()
        dirs = S("bind(k, threadIdx.x)")
        self.assertIsNone(o.check(dirs))
        self.assertTrue(self.model(o, dirs).find("k")[0].combine)

    def test_reduction_loop_that_also_writes_elements_it_moves_is_not_bindable(self):
        # for k < 4: { s[0] += A[k]; D[k] = A[k] }: D[k] is no update of one
        # element (ir/Reduction.h refuses it)
        b = Builder()
        s_, A, D = arr("s", [1]), arr("A", [4], True), arr("D", [4])
        body = [N.Loop("k", 0, 4, [
            b.st(N.Access(s_, [Poly.const(0)]), "+=", load(A, V("k"))),
            b.st(N.Access(D, [V("k")]), "=", load(A, V("k")))])]
        why = make(body, [], [s_, A, D], [{}]).check(S("bind(k, threadIdx.x)"))
        self.assertEqual(why, "model: bind of a reduction loop: the element of D moves with the "
                              "loop")

    def test_reduction_loop_reading_its_result_is_not_bindable(self):
        # for k < 4: { s[0] += A[k]; t[0] += s[0] }
        b = Builder()
        s_, t, A = arr("s", [1]), arr("t", [1]), arr("A", [4], True)
        zero = Poly.const(0)
        body = [N.Loop("k", 0, 4, [
            b.st(N.Access(s_, [zero]), "+=", load(A, V("k"))),
            b.st(N.Access(t, [zero]), "+=", load(s_, zero))])]
        why = make(body, [], [s_, t, A], [{}]).check(S("bind(k, threadIdx.x)"))
        self.assertEqual(why, "model: bind of a reduction loop: s is read besides its update")

    def test_shared_array_in_a_copy_bound_through_its_original_is_illegal(self):
        o = array_in_distributed_loop()
        self.assertIsNone(o.check(S("reorder(k, i)", "set_scope(t, shared)")))
        why = o.check(S("reorder(k, i)", "set_scope(t, shared)", "bind(i, threadIdx.x)"))
        self.assertEqual(why, "model: shared array declared inside a thread loop")


# A stand-in for a compiled batch (argv: first full skip): each case prints
# its output between @begin/@end and its runtime lines on stderr, as the
# generated programs and the sched runtime do; {script} decides per case.
FAKE_PROGRAM = """#!/usr/bin/env python3
import sys
first = int(sys.argv[1])
skip = sys.argv[3] if len(sys.argv) > 3 else ""
seeds = {seeds}
def left_out(n):
    return n < len(skip) and skip[n] == "1"
def note(line, what):
    sys.stderr.write("sched: sched_fuzz_%d (fuzz.cpp:%d): %s\\n" % (line, line, what))
    sys.stderr.flush()
for n in range(first, len(seeds)):
    if left_out(n):
        continue
    print("@begin %d" % seeds[n], flush=True)
    print("A n=4 h=%d s=0" % seeds[n], flush=True)
{script}
    print("@end %d" % seeds[n], flush=True)
"""


class FakeCase:
    def __init__(self, seed, for_line):
        self.seed = seed
        self.for_line = for_line
        self.lines = (for_line - 1, for_line + 20)


class RunnerTest(unittest.TestCase):
    """How a batch's runs are split into per-case verdicts (no compiler:
    the programs are scripts that print what the real ones print)."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="sched-fuzz-selftest-")
        self.runner = Runner.__new__(Runner)
        self.runner.timeout = 20
        self.runner.workdir = self.dir
        self.cases = [FakeCase(10, 100), FakeCase(11, 200), FakeCase(12, 300)]

    def program(self, name, script):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(FAKE_PROGRAM.format(seeds=[c.seed for c in self.cases],
                                        script=textwrap.indent(textwrap.dedent(script), "    ")))
        os.chmod(path, os.stat(path).st_mode | stat.S_IEXEC)
        return path

    def verdicts(self, sched_script):
        plain = self.runner.run_all(self.program("plain", "pass"), self.cases, False)
        sched = self.runner.run_all(self.program("sched", sched_script), self.cases, True)
        results = {c.seed: Result(c.seed) for c in self.cases}
        keep = set(results)
        compare(self.cases, results, keep, plain, sched)
        return results, sched

    def emu_verdicts(self, sched_script):
        """The plugin program run under sim and under emu, both compared."""
        plain = self.runner.run_all(self.program("plain", "pass"), self.cases, False)
        sched_exe = self.program("sched", "import os\n" + textwrap.dedent(sched_script))
        sched = self.runner.run_all(sched_exe, self.cases, True)
        emu = self.runner.run_all(sched_exe, self.cases, True, backend="emu")
        results = {c.seed: Result(c.seed) for c in self.cases}
        keep = set(results)
        compare(self.cases, results, keep, plain, sched)
        compare_emu(self.cases, results, keep, plain, emu)
        return results

    def test_an_emu_difference_is_wrong_and_says_emu(self):
        # Case 11 prints the plain build's output under sim but not under
        # emu (an emitter bug the simulator cannot see).
        results = self.emu_verdicts("""
            note(100 * (n + 1), "ran on %s (1 blocks, 4 threads)" % os.environ["SCHED_BACKEND"])
            if seeds[n] == 11 and os.environ["SCHED_BACKEND"] == "emu":
                print("A n=4 h=999 s=0", flush=True)
            """)
        self.assertEqual(results[11].cls, "wrong")
        self.assertTrue(results[11].message.startswith("emu: "), results[11].message)
        self.assertEqual((results[10].cls, results[12].cls), ("ok", "ok"))

    def test_an_emu_error_is_a_crash_that_says_emu(self):
        results = self.emu_verdicts("""
            note(100 * (n + 1), "ran on %s (1 blocks, 4 threads)" % os.environ["SCHED_BACKEND"])
            if seeds[n] == 12 and os.environ["SCHED_BACKEND"] == "emu":
                note(300, "threads wait at different barriers: thread (0,0,0) at line 9")
                sys.exit(1)
            """)
        self.assertEqual(results[12].cls, "crash")
        self.assertIn("emu: threads wait at different barriers", results[12].message)
        self.assertEqual((results[10].cls, results[11].cls), ("ok", "ok"))

    def test_exit_is_blamed_on_the_kernel_its_message_names(self):
        # Case 11 is running when the program exits, but the race report
        # names case 12's kernel: 12 is the race, 11 runs again without 12
        # and is judged by its own run (the note it printed is no reason).
        results, sched = self.verdicts("""
            if seeds[n] != 11:
                note(100 * (n + 1), "ran on sim (1 blocks, 4 threads, 0 barriers)")
            else:
                note(200, "ran the original loop on host: the grid has extent 0 in x (M)")
                note(200, "ran on sim (1 blocks, 4 threads, 0 barriers)")
                if not left_out(2):
                    note(300, "race on shared buffer 'S' at index 3 in kernel 'sched_fuzz_300'")
                    sys.exit(1)
            """)
        self.assertEqual(results[12].cls, "race")
        self.assertIn("race on shared buffer 'S'", results[12].message)
        self.assertEqual(results[11].cls, "ok", results[11].message)
        self.assertEqual(results[10].cls, "ok", results[10].message)
        self.assertTrue(sched[11]["done"])

    def test_uninitialized_read_is_its_own_failing_class(self):
        # The simulator's initialization check stops case 12: class uninit
        # (failing, like race), not crash.
        results, _ = self.verdicts("""
            note(100 * (n + 1), "ran on sim (1 blocks, 4 threads, 0 barriers)")
            if seeds[n] == 12:
                note(300, "uninitialized read of shared buffer 'Bs' at index 9 in kernel "
                          "'sched_fuzz_300', block (0,0,0), thread (9,0,0): no thread of the "
                          "block has written it (Bs[t])")
                sys.exit(1)
            """)
        self.assertEqual(results[12].cls, "uninit")
        self.assertIn("uninit", FAILING)
        self.assertIn("uninitialized read of shared buffer 'Bs'", results[12].message)
        self.assertEqual(results[11].cls, "ok", results[11].message)

    def test_a_note_never_becomes_the_reason_of_a_crash(self):
        # Case 11 dies by a signal after a note: a crash "stopped (signal 6)",
        # not "ran the original loop on host"; the cases after it still run.
        results, _ = self.verdicts("""
            note(100 * (n + 1), "ran on sim (1 blocks, 4 threads, 0 barriers)")
            if seeds[n] == 11:
                note(200, "ran the original loop on host: the grid has extent 0 in x (M)")
                import os, signal
                os.kill(os.getpid(), signal.SIGABRT)
            """)
        self.assertEqual(results[11].cls, "crash")
        self.assertIn("signal 6", results[11].message)
        self.assertNotIn("original loop", results[11].message)
        self.assertEqual(results[12].cls, "ok", results[12].message)
        self.assertEqual(results[10].cls, "ok", results[10].message)

    def test_fatal_message_of_the_running_case(self):
        results, _ = self.verdicts("""
            if seeds[n] == 10:
                note(100, "cannot simulate: unsupported intrinsic")
                sys.exit(1)
            note(100 * (n + 1), "ran on sim (1 blocks, 4 threads, 0 barriers)")
            """)
        self.assertEqual(results[10].cls, "crash")
        self.assertIn("cannot simulate", results[10].message)
        self.assertEqual((results[11].cls, results[12].cls), ("ok", "ok"))

    def test_launch_failure_before_touching_data_is_a_crash(self):
        # The launch failed, the original loop ran and the output matches:
        # a crash by its message, not a fallback.
        results, _ = self.verdicts("""
            if seeds[n] == 10:
                note(100, "cannot simulate: unsupported intrinsic; ran the original loop instead")
            else:
                note(100 * (n + 1), "ran on sim (1 blocks, 4 threads, 0 barriers)")
            """)
        self.assertEqual(results[10].cls, "crash", results[10].message)
        self.assertIn("cannot simulate", results[10].message)
        self.assertEqual((results[11].cls, results[12].cls), ("ok", "ok"))

    def test_launch_failure_before_touching_data_is_not_why_a_run_stopped(self):
        # Case 10's launch fails before the kernel ran and the original loop
        # runs (same output): still a crash, by its message. Case 11 then
        # dies without a message: the blame is its own, not case 10's.
        results, _ = self.verdicts("""
            if seeds[n] == 10:
                note(100, "cannot simulate: unsupported intrinsic; ran the original loop instead")
            elif seeds[n] == 11:
                import os, signal
                os.kill(os.getpid(), signal.SIGSEGV)
            else:
                note(300, "ran on sim (1 blocks, 4 threads, 0 barriers)")
            """)
        self.assertEqual(results[10].cls, "crash")
        self.assertEqual(results[10].message,
                         "cannot simulate: unsupported intrinsic; ran the original loop instead")
        self.assertEqual(results[11].cls, "crash")
        self.assertIn("signal 11", results[11].message)
        self.assertEqual(results[12].cls, "ok", results[12].message)

    def test_launches_with_nothing_to_run_are_empty_not_fallback(self):
        # Case 10 never launches anything (every size leaves a loop with no
        # iterations): empty. Case 11 runs the original loop because a
        # run-time assumption fails: a fallback that names the assumption.
        results, _ = self.verdicts("""
            if seeds[n] == 10:
                note(100, "ran the original loop on host: the grid has extent 0 in x (0)")
                note(100, "ran the original loop on host: the block has extent 0 in x (0)")
            elif seeds[n] == 11:
                note(200, "ran the original loop on host: the grid has extent 0 in x (0)")
                note(200, "ran the original loop on host: the assumption (M <= 1) does not hold (M = 4)")
            else:
                note(300, "ran on sim (1 blocks, 4 threads, 0 barriers)")
            """)
        self.assertEqual(results[10].cls, "empty", results[10].message)
        self.assertEqual(results[11].cls, "fallback")
        self.assertIn("(M <= 1) does not hold", results[11].message)
        self.assertEqual(results[12].cls, "ok", results[12].message)

    def test_vta_case_is_ok_only_when_it_ran_on_the_vta_runtime(self):
        # A target(vta) kernel says `ran on the VTA runtime`; one that ran
        # the original loop (same output) is a fallback, never ok.
        results, _ = self.verdicts("""
            if seeds[n] == 10:
                note(100, "ran on the VTA runtime")
            elif seeds[n] == 11:
                note(200, "ran the original loop on host: a DMA would leave its buffer")
            """)
        self.assertEqual(results[10].cls, "ok", results[10].message)
        self.assertEqual(results[11].cls, "fallback")
        self.assertIn("DMA would leave", results[11].message)
        self.assertEqual(results[12].cls, "fallback")


class VtaFamilyTest(unittest.TestCase):
    """The VTA family's generator (fuzzlib/vta.py): schedules in the forms
    of docs/tutorials/vta.md, in a seed space of their own."""

    def test_minimize_vta_shrinks_the_spec_while_the_failure_stays(self):
        # a failure that needs K > 16 and the epilogue: every other choice
        # goes back to its simplest, K and the epilogue stay
        from fuzzlib.vta import minimize_vta, _spec_edits
        seed = next(s for s in range(200) if make_vta_case(s).spec["kind"] == "gemm" and
                    make_vta_case(s).spec["K"] > 16 and make_vta_case(s).spec["epi"] and
                    make_vta_case(s).spec["M"] > 1 and make_vta_case(s).spec["form"] != "present")
        case = make_vta_case(seed)

        def outcome(c):
            r = Result(c.seed)
            r.cls = "wrong" if c.spec["K"] > 16 and c.spec["epi"] is not None else "ok"
            return r.cls, r.cls, r

        best, _ = minimize_vta(case, outcome, lambda m: None)
        self.assertGreater(best.spec["K"], 16)
        self.assertIsNotNone(best.spec["epi"])
        self.assertEqual(best.spec["M"], 1)
        self.assertFalse(best.spec["cthread"])
        self.assertEqual(best.spec.get("init"), "zero")
        # what is left to try would make the failure go
        self.assertLessEqual({w for w, _ in _spec_edits(best.spec)}, {"K=16", "no epilogue"})

    def test_gpu_seeds_are_unchanged_by_the_vta_family(self):
        self.assertNotIn("vta", make_case(7).nest.family)
        self.assertEqual(make_case(7).schedule, make_case(7, None).schedule)

    def test_loops_are_split_before_they_are_named(self):
        for seed in range(300):
            c = make_vta_case(seed)
            made = {"i", "j", "k", "bo", "co", "bi", "ci", "ko", "ki"}
            for d in c.directives:
                if d[0] == "split":
                    self.assertIn(d[1], made, c.schedule)
                    made |= {d[2], d[3]}
                elif d[0] in ("reorder", "tensorize"):
                    for x in d[1:] if d[0] == "reorder" else d[1:2]:
                        self.assertIn(x, made, c.schedule)

    def test_cthread_is_outermost_and_holds_the_accumulator(self):
        seen = 0
        for seed in range(300):
            c = make_vta_case(seed)
            if c.spec.get("cthread"):
                seen += 1
                self.assertEqual(c.spec["outer"][0], "ct")
                self.assertIn(("compute_at", "Cb", "ct"), c.directives)
                self.assertEqual(c.spec["N"] // 16 % 2, 0)
        self.assertGreater(seen, 10)

    def test_epilogue_pragma_names_the_first_output_loop_inside_ko(self):
        from fuzzlib.vta import epilogue_loop
        spec = {"layout": "2d", "outer": ["io", "ko", "jo"], "region": ["ki", "ii", "ji"]}
        self.assertEqual(epilogue_loop(spec), "ii")
        spec = {"layout": "2d", "outer": ["ct", "ko", "i", "jo2"], "region": ["ji", "ki"]}
        self.assertEqual(epilogue_loop(spec), "i")
        spec = {"layout": "4d", "outer": ["bo", "co", "ko"], "region": ["ki", "ci", "bi"]}
        self.assertEqual(epilogue_loop(spec), "bi")

    def test_a_2d_weight_stage_outside_ko_holds_one_k_block(self):
        # A stage keeps W's layout: outside ko it holds all of K, and VTA
        # reads no tile of a stage of several k blocks (docs/tutorials/vta.md).
        seen = 0
        for seed in range(400):
            s = make_vta_case(seed).spec
            if s["kind"] != "gemm" or s["layout"] != "2d" or s["K"] == 16:
                continue
            outer = s["outer"]
            self.assertGreaterEqual(outer.index(s["wb"]), outer.index("ko"), s)
            seen += 1
        self.assertGreater(seen, 50)

    def test_accumulator_starts_and_weight_layouts_are_drawn(self):
        specs = [make_vta_case(seed).spec for seed in range(300)]
        gemms = [s for s in specs if s["kind"] == "gemm"]
        for init in ("zero", "bias", "inplace"):
            self.assertGreater(sum(s["init"] == init for s in gemms), 20, init)
        self.assertGreater(sum(s["kmajor"] for s in gemms), 20)
        self.assertFalse(any(s["kmajor"] for s in gemms if s["layout"] == "4d"))

    def test_epilogue_of_an_accumulator_in_place_is_the_first_split_off_nest(self):
        from fuzzlib.vta import directives_of
        spec = {"kind": "gemm", "layout": "2d", "form": "absent", "cthread": False,
                "outer": ["i", "ko", "jo"], "region": ["ji", "ki"], "ab": "ko", "wb": "ko",
                "cb": None, "epi": (3, 0, None), "init": "inplace", "kmajor": False}
        self.assertIn(("pragma", "jo_1", "alu"), directives_of(spec))
        spec["init"] = "bias"
        self.assertIn(("pragma", "jo_2", "alu"), directives_of(spec))
        spec = dict(spec, M=2, N=32, K=32, kmajor=True)
        from fuzzlib.vta import VtaNest
        lines, _, _ = VtaNest("n", spec).to_c([])
        text = "\n".join(lines)
        self.assertIn("int acc = Bias[j];", text)
        self.assertIn("W[k * 32 + j]", text)
        self.assertIn("const int *Bias", text)

    def test_the_batch_loop_is_present_only_for_one_row(self):
        for seed in range(300):
            s = make_vta_case(seed).spec
            if s["kind"] == "gemm" and s["form"] == "present":
                self.assertEqual(s["M"], 1)


class OkFloorTest(unittest.TestCase):
    """--min-ok: a run where nothing is wrong but fewer cases are ok than
    the floor fails (a plugin that falls back on everything passed fuzz-vta
    200/200 before; issue 17)."""

    def test_share_below_the_floor_fails_naming_counts_and_floor(self):
        from fuzzlib.report import ok_floor_failure
        msg = ok_floor_failure({"ok": 0, "fallback": 200}, 200, 0.75)
        self.assertIsNotNone(msg)
        self.assertIn("0 of 200 cases ok (0.0%), below the floor --min-ok 0.75 (75.0%)", msg)
        self.assertIsNotNone(ok_floor_failure({"ok": 149, "fallback": 51}, 200, 0.75))

    def test_share_at_or_above_the_floor_and_no_floor_pass(self):
        from fuzzlib.report import ok_floor_failure
        self.assertIsNone(ok_floor_failure({"ok": 150, "fallback": 50}, 200, 0.75))
        self.assertIsNone(ok_floor_failure({"ok": 156, "fallback": 44}, 200, 0.75))
        self.assertIsNone(ok_floor_failure({"ok": 0, "fallback": 200}, 200, None))


if __name__ == "__main__":
    unittest.main()
