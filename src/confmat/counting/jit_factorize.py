"""Compiled hash tables that factorise label columns: Arrow string buffers and 64-bit words.

A label column becomes integer codes in one pass without a Python object per row: an Arrow
string column is read straight from its offsets (or string views) and data buffers, a numpy
column of numbers or objects by the 64 bits of each element. Built by :func:`factorize_kernels`
on first use (numba through :mod:`confmat.deps`); the numpy / pyarrow path of
:mod:`confmat.counting.codes` gives the same codes without numba.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np

from ..deps import njit, numba_kernels

__all__ = ["factorize_kernels"]

# numba intrinsics and helpers, set by factorize_kernels(); module globals so that the kernels
# that call them are cached on disk (closure variables would defeat the cache).
_load_u64: Any = None
_load_u8: Any = None
_mix: Any = None
_le_bytes: Any = None
_hash_bytes: Any = None
_same_bytes: Any = None
_grow: Any = None
_table_shift: Any = None
_views_run: Any = None
_offsets_run: Any = None
_words_run: Any = None
_long_key: Any = None


@numba_kernels
def factorize_kernels() -> SimpleNamespace:
    """Compile (or load from numba's cache) the factorising kernels.

    Returns
    -------
    SimpleNamespace or None
        ``factorize_views(views, buffers, codes)``, ``factorize_offsets(offsets, base, end,
        codes)`` and ``factorize_words(words, codes)``, each returning ``(k, first)``: the
        number of codes (-1 when ``codes``' dtype cannot hold them) and the first row of each;
        None when numba is disabled or not installed (see :mod:`confmat.deps`).

    Examples
    --------
    >>> import numpy as np
    >>> kern = factorize_kernels()
    >>> codes = np.empty(4, dtype=np.uint16)
    >>> if kern is not None:
    ...     k, first = kern.factorize_words(np.array([7, 9, 7, 5], dtype=np.uint64), codes)
    ...     assert (k, first.tolist(), codes.tolist()) == (3, [0, 1, 3], [0, 1, 0, 2])
    """
    from llvmlite import ir
    from numba.core import types
    from numba.extending import intrinsic

    global _load_u64, _load_u8, _mix, _le_bytes, _hash_bytes, _same_bytes, _grow
    global _views_run, _offsets_run, _words_run, _long_key, _table_shift


    @intrinsic
    def load_u64(typingctx, addr):  # pragma: no cover - compiled
        """Unaligned little-endian 8-byte load from a raw address (an Arrow buffer)."""
        sig = types.uint64(types.uint64)

        def codegen(context, builder, signature, args):
            return builder.load(builder.inttoptr(args[0], ir.IntType(64).as_pointer()), align=1)

        return sig, codegen

    @intrinsic
    def load_u8(typingctx, addr):  # pragma: no cover - compiled
        sig = types.uint8(types.uint64)

        def codegen(context, builder, signature, args):
            return builder.load(builder.inttoptr(args[0], ir.IntType(8).as_pointer()))

        return sig, codegen

    _load_u64, _load_u8 = load_u64, load_u8

    @njit(nogil=True)
    def table_shift(size):  # pragma: no cover - compiled
        # 64 - log2(size): mix() then gives an index into a table of ``size`` slots
        bits = 0
        while (1 << bits) < size:
            bits += 1
        return np.uint64(64 - bits)

    @njit(nogil=True, inline="always")
    def mix(a, b, shift):  # pragma: no cover - compiled
        # Fibonacci hashing: the top bits of one product (a collision only costs a probe)
        return ((a + b) * np.uint64(0x9E3779B97F4A7C15)) >> shift

    @njit(nogil=True)
    def le_bytes(addr, m):  # pragma: no cover - compiled
        # the m <= 8 bytes at addr as a little-endian word (never reads past them)
        if m >= 8:
            return _load_u64(addr)
        x = np.uint64(0)
        for j in range(m):
            x |= np.uint64(_load_u8(addr + np.uint64(j))) << np.uint64(8 * j)
        return x

    @njit(nogil=True)
    def hash_bytes(addr, m):  # pragma: no cover - compiled
        # hash of m >= 8 bytes: two independent lanes of 8-byte words, the last word read at
        # m - 8 (overlapping, never past the end); a match is always confirmed byte for byte
        h1 = np.uint64(0x243F6A8885A308D3) ^ np.uint64(m)
        h2 = np.uint64(0x13198A2E03707344)
        j = 0
        while j + 16 <= m:
            h1 = (h1 ^ _load_u64(addr + np.uint64(j))) * np.uint64(0xFF51AFD7ED558CCD)
            h2 = (h2 ^ _load_u64(addr + np.uint64(j + 8))) * np.uint64(0xC4CEB9FE1A85EC53)
            j += 16
        if j + 8 <= m:
            h1 = (h1 ^ _load_u64(addr + np.uint64(j))) * np.uint64(0xFF51AFD7ED558CCD)
        h2 = (h2 ^ _load_u64(addr + np.uint64(m - 8))) * np.uint64(0xC4CEB9FE1A85EC53)
        h = h1 ^ (h2 >> np.uint64(31)) ^ (h2 << np.uint64(17))
        return h ^ (h >> np.uint64(29))

    @njit(nogil=True)
    def same_bytes(a, b, m):  # pragma: no cover - compiled
        # the m >= 8 bytes at a and b are equal (words; the last one read at m - 8)
        j = 0
        while j + 8 <= m:
            if _load_u64(a + np.uint64(j)) != _load_u64(b + np.uint64(j)):
                return False
            j += 8
        last = np.uint64(m - 8)
        return _load_u64(a + last) == _load_u64(b + last)

    @njit(nogil=True)
    def grow(slots, keys, addrs, first, k):  # pragma: no cover - compiled
        size = slots.shape[0] * 2
        mask = np.uint64(size - 1)
        shift = _table_shift(size)
        new_slots = np.full(size, -1, np.int32)
        for q in range(k):
            j = _mix(keys[q, 0], keys[q, 1], shift)
            while new_slots[j] >= 0:
                j = (j + np.uint64(1)) & mask
            new_slots[j] = q
        new_keys = np.empty((size // 2, 3), np.uint64)
        new_keys[:k] = keys[:k]
        new_addrs = np.empty(size // 2, np.uint64)
        new_addrs[:k] = addrs[:k]
        new_first = np.empty(size // 2, np.int64)
        new_first[:k] = first[:k]
        return new_slots, new_keys, new_addrs, new_first

    _mix, _le_bytes, _hash_bytes, _same_bytes, _grow = mix, le_bytes, hash_bytes, same_bytes, grow
    _table_shift = table_shift

    @njit(nogil=True)
    def views_run(  # pragma: no cover - compiled
        views, buffers, codes, kmax, i, slots, keys, addrs, first, k
    ):
        # factorise rows i.. until done or the hash table is half full; returns (i, k).
        # (Loops index slices from 0: the compiler then knows no index is negative.)
        mask = np.uint64(slots.shape[0] - 1)
        shift = _table_shift(slots.shape[0])
        low = np.uint64(0xFFFFFFFF)
        vv = views[2 * i :]
        cc = codes[i:]
        for r in range(cc.shape[0]):
            w0 = vv[2 * r]
            w1 = vv[2 * r + 1]
            m = np.int64(w0 & low)
            addr = np.uint64(0)
            if m > 12:
                addr = buffers[np.int64(w1 & low)] + (w1 >> np.uint64(32))
                w1 = _hash_bytes(addr + np.uint64(4), m - 4)
            j = _mix(w0, w1, shift)
            while True:
                q = slots[j]
                if q < 0:
                    break
                if keys[q, 0] == w0 and keys[q, 1] == w1:
                    if m <= 12 or _same_bytes(addrs[q], addr, m):
                        break
                j = (j + np.uint64(1)) & mask
            if q >= 0:
                cc[r] = q
                continue
            if k == kmax:  # the codes' dtype holds no more
                return i + r, k
            cc[r] = k
            slots[j] = k
            keys[k, 0] = w0
            keys[k, 1] = w1
            addrs[k] = addr
            first[k] = i + r
            k += 1
            if 2 * k >= slots.shape[0]:
                return i + r + 1, k
        return codes.shape[0], k

    @njit(nogil=True)
    def long_key(addr, m):  # pragma: no cover - compiled
        # key of a string of 16 bytes or more, or one too close to its buffer's end for two
        # word loads: the first 8 bytes, then a hash of the rest (top byte 0xFF: never the
        # key of a short string); a match is confirmed byte for byte
        w0 = _le_bytes(addr, min(m, 8))
        if m <= 15:
            w1 = _le_bytes(addr + np.uint64(8), max(m - 8, 0)) | (np.uint64(m) << np.uint64(56))
        else:
            h = _hash_bytes(addr + np.uint64(8), m - 8)
            w1 = (h >> np.uint64(8)) | np.uint64(0xFF00000000000000)
        return w0, w1

    _long_key = long_key

    # The probe-and-insert loop below repeats the one of views_run on purpose: Arrow string
    # views keep strings of up to 12 bytes inline (two key words suffice), offset strings do
    # not (a third key word holds the length, compared before the bytes). One loop over a
    # generic key layout would need a branch per probe inside the hottest loop of string
    # counting; the two copies keep each probe straight-line.
    @njit(nogil=True)
    def offsets_run(  # pragma: no cover - compiled
        offsets, base, end, codes, kmax, i, slots, keys, addrs, first, k
    ):
        mask = np.uint64(slots.shape[0] - 1)
        shift = _table_shift(slots.shape[0])
        oo = offsets[i:]
        cc = codes[i:]
        full = np.uint64(0xFFFFFFFFFFFFFFFF)
        for r in range(cc.shape[0]):
            s = np.int64(oo[r])
            m = np.int64(oo[r + 1]) - s
            addr = base + np.uint64(s)
            if m <= 15 and addr + np.uint64(16) <= end:
                # a short string is its key: its bytes (two word loads, the rest masked off)
                # and its length in the top byte
                x0 = _load_u64(addr)
                x1 = _load_u64(addr + np.uint64(8))
                b0 = np.uint64(8 * min(m, 8))
                b1 = np.uint64(8 * max(m - 8, 0))
                m0 = full if b0 >= 64 else (np.uint64(1) << b0) - np.uint64(1)
                w0 = x0 & m0
                w1 = (x1 & ((np.uint64(1) << b1) - np.uint64(1))) | (np.uint64(m) << np.uint64(56))
            else:
                w0, w1 = _long_key(addr, m)
            j = _mix(w0, w1, shift)
            while True:
                q = slots[j]
                if q < 0:
                    break
                if keys[q, 0] == w0 and keys[q, 1] == w1:
                    if m <= 15 or (keys[q, 2] == np.uint64(m) and _same_bytes(addrs[q], addr, m)):
                        break
                j = (j + np.uint64(1)) & mask
            if q >= 0:
                cc[r] = q
                continue
            if k == kmax:  # the codes' dtype holds no more
                return i + r, k
            cc[r] = k
            slots[j] = k
            keys[k, 0] = w0
            keys[k, 1] = w1
            keys[k, 2] = np.uint64(m)
            addrs[k] = addr
            first[k] = i + r
            k += 1
            if 2 * k >= slots.shape[0]:
                return i + r + 1, k
        return codes.shape[0], k

    @njit(nogil=True)
    def words_run(  # pragma: no cover - compiled
        words, codes, kmax, i, slots, keys, addrs, first, k
    ):
        # factorise 64-bit words (object pointers), as views_run does views
        mask = np.uint64(slots.shape[0] - 1)
        shift = _table_shift(slots.shape[0])
        ww = words[i:]
        cc = codes[i:]
        zero = np.uint64(0)
        for r in range(cc.shape[0]):
            w0 = ww[r]
            j = _mix(w0, zero, shift)
            while True:
                q = slots[j]
                if q < 0 or keys[q, 0] == w0:
                    break
                j = (j + np.uint64(1)) & mask
            if q >= 0:
                cc[r] = q
                continue
            if k == kmax:
                return i + r, k
            cc[r] = k
            slots[j] = k
            keys[k, 0] = w0
            keys[k, 1] = zero
            first[k] = i + r
            k += 1
            if 2 * k >= slots.shape[0]:
                return i + r + 1, k
        return codes.shape[0], k

    _views_run, _offsets_run, _words_run = views_run, offsets_run, words_run

    @njit(nogil=True)
    def factorize_words(words, codes):  # pragma: no cover - compiled
        """Codes of 64-bit words (numbers' bits, object pointers), returned as
        :func:`factorize_views` does."""
        slots = np.full(1024, -1, np.int32)
        keys = np.empty((512, 3), np.uint64)
        addrs = np.empty(512, np.uint64)
        first = np.empty(512, np.int64)
        kmax = np.iinfo(codes.dtype).max + 1
        i, k = _words_run(words, codes, kmax, 0, slots, keys, addrs, first, 0)
        while i < codes.shape[0]:
            if k == kmax:
                return -1, first[:0].copy()
            slots, keys, addrs, first = _grow(slots, keys, addrs, first, k)
            i, k = _words_run(words, codes, kmax, i, slots, keys, addrs, first, k)
        return k, first[:k].copy()

    @njit(nogil=True)
    def factorize_views(views, buffers, codes):  # pragma: no cover - compiled
        """Codes of an Arrow string-view column (16-byte views, ``buffers`` = addresses of its
        data buffers); returns (k, first row of each code), or k = -1 when ``codes``' dtype
        cannot hold them all. A string of up to 12 bytes is its own view, so those rows never
        touch the data buffers. (A writer that leaves garbage after a short string only splits
        it into several codes; they share one label.)"""
        slots = np.full(1024, -1, np.int32)
        keys = np.empty((512, 3), np.uint64)
        addrs = np.empty(512, np.uint64)
        first = np.empty(512, np.int64)
        kmax = np.iinfo(codes.dtype).max + 1
        i, k = _views_run(views, buffers, codes, kmax, 0, slots, keys, addrs, first, 0)
        while i < codes.shape[0]:
            if k == kmax:
                return -1, first[:0].copy()
            slots, keys, addrs, first = _grow(slots, keys, addrs, first, k)
            i, k = _views_run(views, buffers, codes, kmax, i, slots, keys, addrs, first, k)
        return k, first[:k].copy()

    @njit(nogil=True)
    def factorize_offsets(offsets, base, end, codes):  # pragma: no cover - compiled
        """Codes of an Arrow string / binary column (offsets into the data buffer that spans
        addresses ``base`` to ``end``), returned as :func:`factorize_views` does."""
        slots = np.full(1024, -1, np.int32)
        keys = np.empty((512, 3), np.uint64)
        addrs = np.empty(512, np.uint64)
        first = np.empty(512, np.int64)
        kmax = np.iinfo(codes.dtype).max + 1
        i, k = _offsets_run(offsets, base, end, codes, kmax, 0, slots, keys, addrs, first, 0)
        while i < codes.shape[0]:
            if k == kmax:
                return -1, first[:0].copy()
            slots, keys, addrs, first = _grow(slots, keys, addrs, first, k)
            i, k = _offsets_run(offsets, base, end, codes, kmax, i, slots, keys, addrs, first, k)
        return k, first[:k].copy()


    return SimpleNamespace(
        factorize_views=factorize_views,
        factorize_offsets=factorize_offsets,
        factorize_words=factorize_words,
    )
