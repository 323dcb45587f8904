"""Compiled fixed-point iteration of Aickin's alpha (Aickin 1990) over a stack of tables
(imported only with numba, through ``agreement._aickin_kernel``).

Module-level functions, so that numba's on-disk cache finds them again in a new process
(kernels defined inside a function and calling each other are compiled afresh every time:
about 2 s at the first call of every process).

The iteration is bound by its divisions (``2 K + 2`` per step and table, up to 201 steps).
Each of ``width`` slots holds one table; every step runs over the occupied slots in simple
loops that the compiler turns into vector divisions, and a table that stops hands its slot
to the next table at once, so no slot waits for the slowest table of a block. Every table
still goes through exactly the floating-point operations, in the same order, as the plain
loop of ``agreement.aickin_alpha`` over one table would with PyCM's update and its divisions
by ``pe`` and ``n`` hoisted out of the class loop: the values do not depend on the slot, the
width or the number of threads.
"""

import numpy as np
from numba import prange

from ..deps import njit

#: slots iterated together: a multiple of the vector width, large enough that the loops run
#: mostly in full vectors (64 measured fastest of 16, 32, 64 and 128)
WIDTH = 64
#: stacks are dealt to this many interleaved parts (table ``t`` to part ``t % PARTS``), so
#: that the threads get equal shares of slow tables (the ends of a sweep converge slowly)
PARTS = 16


@njit(error_model="numpy")
def _load(top, p, n, acc, t, slot, topn, pn, pa, pb, a, accs, step, table):
    """Put table ``t`` into ``slot``: its marginals as shares, alpha 0, step 1."""
    for i in range(top.shape[1]):
        topn[i, slot] = top[t, i] / n[t]
        pn[i, slot] = p[t, i] / n[t]
        pa[i, slot] = topn[i, slot]
        pb[i, slot] = pn[i, slot]
    accs[slot] = acc[t]
    a[slot] = 0.0
    step[slot] = 1
    table[slot] = t


@njit(error_model="numpy")
def _move(src, dst, topn, pn, pa, pb, a, accs, step, table, wrong, stop):
    """Copy the state of slot ``src`` into slot ``dst``."""
    for i in range(topn.shape[0]):
        topn[i, dst] = topn[i, src]
        pn[i, dst] = pn[i, src]
        pa[i, dst] = pa[i, src]
        pb[i, dst] = pb[i, src]
    a[dst] = a[src]
    accs[dst] = accs[src]
    step[dst] = step[src]
    table[dst] = table[src]
    wrong[dst] = wrong[src]
    stop[dst] = stop[src]


@njit(error_model="numpy")
def iterate_part(top, p, n, acc, max_iter, eps, alpha, bad, first, stride, width):
    """Iterate the tables ``first, first + stride, ...`` of the stack, ``width`` at a time.

    Parameters
    ----------
    top, p : numpy.ndarray of float64, shape (m, K)
        Column sums (predicted) and row sums (true) of every table.
    n : numpy.ndarray of float64, shape (m,)
        Totals.
    acc : numpy.ndarray of float64, shape (m,)
        Accuracies.
    max_iter : int
        A table not converged after ``max_iter + 1`` steps is bad.
    eps : float
        A table converges when alpha changes by less than this.
    alpha : numpy.ndarray of float64, shape (m,)
        Written: the last alpha of each table of the part.
    bad : numpy.ndarray of bool, shape (m,)
        Written: True where the iteration diverged or did not converge.
    first, stride : int
        The tables of this part.
    width : int
        Number of slots.
    """
    k = top.shape[1]
    m = top.shape[0]
    topn = np.empty((k, width))
    pn = np.empty((k, width))
    pa = np.empty((k, width))
    pb = np.empty((k, width))
    a = np.zeros(width)
    prev = np.zeros(width)
    accs = np.zeros(width)
    pe = np.zeros(width)
    r = np.zeros(width)
    keep = np.zeros(width)
    total = np.zeros(width)
    wrong = np.zeros(width, np.bool_)
    stop = np.zeros(width, np.bool_)
    step = np.zeros(width, np.int64)
    table = np.zeros(width, np.int64)
    nxt = np.int64(first)
    stride = np.int64(stride)
    used = 0
    while used < width and nxt < m:
        _load(top, p, n, acc, nxt, used, topn, pn, pa, pb, a, accs, step, table)
        nxt += stride
        used += 1
    while used > 0:
        # one step of every occupied slot, in loops without branches (vectorised)
        for j in range(used):
            pe[j] = 0.0
        for i in range(k):
            for j in range(used):
                pe[j] += pa[i, j] * pb[i, j]
        for j in range(used):
            new = (accs[j] - pe[j]) / (1.0 - pe[j])
            finite = np.isfinite(new)
            prev[j] = a[j]
            a[j] = new if finite else a[j]
            wrong[j] = not finite
            r[j] = a[j] / pe[j]
            keep[j] = 1.0 - a[j]
            total[j] = 0.0
        for i in range(k):
            for j in range(used):
                pa[i, j] = topn[i, j] / (keep[j] + r[j] * pb[i, j])
        for i in range(k):
            for j in range(used):
                pb[i, j] = pn[i, j] / (keep[j] + r[j] * pa[i, j])
                total[j] += pa[i, j] + pb[i, j]
        for j in range(used):
            converged = abs(a[j] - prev[j]) < eps
            last = step[j] > max_iter
            w = wrong[j] | (not np.isfinite(total[j])) | (abs(a[j]) > 1.0)
            wrong[j] = w | (last & (not converged))
            stop[j] = converged | wrong[j] | last
            step[j] += 1
        # stopped tables leave; the next table, or else the last occupied slot, takes over
        j = 0
        while j < used:
            if not stop[j]:
                j += 1
                continue
            alpha[table[j]] = a[j]
            bad[table[j]] = wrong[j]
            if nxt < m:
                _load(top, p, n, acc, nxt, j, topn, pn, pa, pb, a, accs, step, table)
                nxt += stride
                j += 1
            else:
                used -= 1
                if j < used:  # slot j now holds the last slot's table, checked next
                    _move(used, j, topn, pn, pa, pb, a, accs, step, table, wrong, stop)


@njit(parallel=True, error_model="numpy")
def aickin_alpha_stack(top, p, n, acc, max_iter, eps):  # pragma: no cover - compiled
    """Aickin's alpha of every table of a stack, with the flag of an undefined value.

    Parameters
    ----------
    top, p : numpy.ndarray of float64, shape (m, K)
        Column sums (predicted) and row sums (true) of every table.
    n : numpy.ndarray of float64, shape (m,)
        Totals.
    acc : numpy.ndarray of float64, shape (m,)
        Accuracies.
    max_iter : int
        A table not converged after ``max_iter + 1`` steps is bad.
    eps : float
        A table converges when alpha changes by less than this.

    Returns
    -------
    alpha : numpy.ndarray of float64, shape (m,)
        The last iterate of every table.
    bad : numpy.ndarray of bool, shape (m,)
        True where the iteration diverged (not finite, or outside [-1, 1]) or did not
        converge.
    """
    m = top.shape[0]
    alpha = np.zeros(m)
    bad = np.zeros(m, dtype=np.bool_)
    for part in prange(PARTS):
        iterate_part(top, p, n, acc, max_iter, eps, alpha, bad, part, PARTS, WIDTH)
    return alpha, bad
