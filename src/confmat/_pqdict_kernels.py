"""Compiled kernels of :mod:`confmat._pqdict` (imported only with numba).

Module-level functions, so that numba's on-disk cache finds them again in a new process
(kernels defined inside a function and calling each other are compiled afresh every time).
Every read is checked against the end of its buffer: damaged pages give a negative status,
never a read outside the file.
"""

import numpy as np
from numba import njit


@njit(cache=True, nogil=True, boundscheck=False)
def uvarint(buf, pos, end):  # pragma: no cover - compiled
    out = np.int64(0)
    shift = 0
    while pos < end:
        b = buf[pos]
        pos += 1
        out |= np.int64(b & 0x7F) << shift
        if b < 0x80:
            return out, pos
        shift += 7
        if shift > 63:
            break
    return np.int64(-1), np.int64(-1)


@njit(cache=True, nogil=True, boundscheck=False)
def skip_value(buf, pos, end, ttype):  # pragma: no cover - compiled
    # Skip one Thrift compact value (structs and lists nest through an explicit stack);
    # -1 on malformed input or a map.
    kind = np.zeros(32, np.int64)  # 0: struct, 1: list
    rem = np.zeros(32, np.int64)
    elem = np.zeros(32, np.int64)
    depth = 0
    t = ttype
    first = True
    while True:
        if not first:
            if depth == 0:
                return pos
            lvl = depth - 1
            if pos >= end:
                return -1
            if kind[lvl] == 0:
                head = buf[pos]
                pos += 1
                if head == 0:
                    depth -= 1
                    continue
                t = head & 0x0F
                if head >> 4 == 0:
                    _, pos = uvarint(buf, pos, end)
                    if pos < 0:
                        return -1
                if t == 1 or t == 2:
                    continue
            else:
                if rem[lvl] == 0:
                    depth -= 1
                    continue
                rem[lvl] -= 1
                t = elem[lvl]
                if t == 1 or t == 2:
                    pos += 1
                    continue
        first = False
        if t == 1 or t == 2:
            pass
        elif t == 3:
            pos += 1
        elif t == 4 or t == 5 or t == 6:
            _, pos = uvarint(buf, pos, end)
            if pos < 0:
                return -1
        elif t == 7:
            pos += 8
        elif t == 8:
            n, pos = uvarint(buf, pos, end)
            if pos < 0:
                return -1
            pos += n
        elif t == 12 or t == 9 or t == 10:
            if depth == 32:
                return -1
            if t == 12:
                kind[depth] = 0
            else:
                if pos >= end:
                    return -1
                head = buf[pos]
                pos += 1
                size = np.int64(head >> 4)
                if size == 15:
                    size, pos = uvarint(buf, pos, end)
                    if pos < 0:
                        return -1
                kind[depth] = 1
                rem[depth] = size
                elem[depth] = head & 0x0F
            depth += 1
        else:
            return -1
        if pos > end:
            return -1


@njit(cache=True, nogil=True, boundscheck=False)
def page_header(buf, pos, end, out):  # pragma: no cover - compiled
    # PageHeader fields into out: [type, uncompressed, compressed, num_values, encoding,
    # def level encoding, levels length (v2), is_compressed (v2)]; returns the position
    # after the header, -1 when malformed.
    out[:] = -1
    out[6] = 0
    out[7] = 1
    last = 0
    while True:
        if pos >= end:
            return -1
        head = buf[pos]
        pos += 1
        if head == 0:
            return pos
        t = head & 0x0F
        if head >> 4:
            fid = last + (head >> 4)
        else:
            raw, pos = uvarint(buf, pos, end)
            if pos < 0:
                return -1
            fid = (raw >> 1) ^ -(raw & 1)
        last = fid
        if 1 <= fid <= 3 and t == 5:
            raw, pos = uvarint(buf, pos, end)
            if pos < 0:
                return -1
            out[fid - 1] = (raw >> 1) ^ -(raw & 1)
        elif (fid == 5 or fid == 8 or fid == 7) and t == 12:
            ilast = 0
            while True:
                if pos >= end:
                    return -1
                h = buf[pos]
                pos += 1
                if h == 0:
                    break
                it = h & 0x0F
                if h >> 4:
                    ifid = ilast + (h >> 4)
                else:
                    raw, pos = uvarint(buf, pos, end)
                    if pos < 0:
                        return -1
                    ifid = (raw >> 1) ^ -(raw & 1)
                ilast = ifid
                if it == 5:
                    raw, pos = uvarint(buf, pos, end)
                    if pos < 0:
                        return -1
                    v = (raw >> 1) ^ -(raw & 1)
                    if ifid == 1:
                        out[3] = v
                    elif fid == 5 and ifid == 2:
                        out[4] = v
                    elif fid == 5 and ifid == 3:
                        out[5] = v
                    elif fid == 8 and ifid == 4:
                        out[4] = v
                    elif fid == 8 and (ifid == 5 or ifid == 6):
                        out[6] += v
                    elif fid == 7 and ifid == 2:
                        out[4] = v
                elif it == 1 or it == 2:
                    if fid == 8 and ifid == 7:
                        out[7] = 1 if it == 1 else 0
                else:
                    pos = skip_value(buf, pos, end, it)
                    if pos < 0:
                        return -1
        else:
            pos = skip_value(buf, pos, end, t)
            if pos < 0:
                return -1


@njit(cache=True, nogil=True, boundscheck=False)
def snappy(src, pos, end, dst):  # pragma: no cover - compiled
    # Snappy raw format into dst; returns the length, -1 if malformed, -2 if dst is short.
    n, pos = uvarint(src, pos, end)
    if pos < 0:
        return -1
    if n > dst.shape[0]:
        return -2
    o = 0
    while pos < end:
        tag = src[pos]
        pos += 1
        kind = tag & 3
        if kind == 0:
            ln = np.int64(tag >> 2)
            if ln >= 60:
                extra = ln - 59
                if pos + extra > end:
                    return -1
                ln = 0
                for b in range(extra):
                    ln |= np.int64(src[pos + b]) << (8 * b)
                pos += extra
            ln += 1
            if pos + ln > end or o + ln > n:
                return -1
            d = dst[o : o + ln]
            sv = src[pos : pos + ln]
            for b in range(ln):  # indexing by the loop variable: a plain, vectorised copy
                d[b] = sv[b]
            pos += ln
            o += ln
            continue
        if kind == 1:
            if pos >= end:
                return -1
            ln = np.int64(((tag >> 2) & 7) + 4)
            off = (np.int64(tag >> 5) << 8) | np.int64(src[pos])
            pos += 1
        elif kind == 2:
            if pos + 2 > end:
                return -1
            ln = np.int64((tag >> 2) + 1)
            off = np.int64(src[pos]) | (np.int64(src[pos + 1]) << 8)
            pos += 2
        else:
            if pos + 4 > end:
                return -1
            ln = np.int64((tag >> 2) + 1)
            off = (np.int64(src[pos]) | (np.int64(src[pos + 1]) << 8)
                   | (np.int64(src[pos + 2]) << 16) | (np.int64(src[pos + 3]) << 24))
            pos += 4
        if off == 0 or off > o or o + ln > n:
            return -1
        if off >= ln:
            d = dst[o : o + ln]
            sv = dst[o - off : o - off + ln]
            for b in range(ln):
                d[b] = sv[b]
        else:
            for b in range(ln):  # overlaps its own output: byte by byte, in order
                dst[o + b] = dst[o - off + b]
        o += ln
    return o if o == n else -1


@njit(cache=True, nogil=True, boundscheck=False)
def rle_levels(buf, pos, end, n, out):  # pragma: no cover - compiled
    # Bit width 1 definition levels into out[:n]; returns how many are 1, -1 if cut short.
    i = 0
    present = 0
    while i < n:
        header, pos = uvarint(buf, pos, end)
        if pos < 0:
            return -1
        if header & 1:
            count = (header >> 1) * 8
            take = min(count, n - i)
            if pos + (take + 7) // 8 > end:
                return -1
            for v in range(take):
                bit = (buf[pos + (v >> 3)] >> (v & 7)) & 1
                out[i + v] = bit
                present += bit
            pos += (count + 7) // 8
            i += take
        else:
            if pos >= end:
                return -1
            val = buf[pos] & 1
            pos += 1
            take = min(header >> 1, n - i)
            out[i : i + take] = val
            present += val * take
            i += take
    return present


@njit(cache=True, nogil=True, boundscheck=False)
def rle_dict(buf, pos, end, bw, n, values, out):  # pragma: no cover - compiled
    # n dictionary indices of bit width bw into out[:n] = values[index]; returns n, or -1
    # when the indices are cut short or point outside the dictionary.
    i = 0
    nvals = values.shape[0]
    mask = (np.uint64(1) << np.uint64(bw)) - np.uint64(1)
    width = (bw + 7) // 8
    # widths 1 and 2 (two to four classes) take whole bytes at a time, unrolled
    fast = (bw == 1 and nvals >= 2) or (bw == 2 and nvals >= 4)
    while i < n:
        header, pos = uvarint(buf, pos, end)
        if pos < 0:
            return -1
        if header & 1:
            groups = header >> 1
            take = min(groups * 8, n - i)
            if pos + (take * bw + 7) // 8 > end:
                return -1
            if fast and bw == 1:
                # unsigned indices: no negative-index wraparound test, so the loop vectorises
                nbytes = take // 8
                seg = out[i : i + nbytes * 8]
                src = buf[pos : pos + nbytes]
                v0 = values[0]
                v1 = values[1]
                for b in range(nbytes):
                    tb = src[b]
                    o = np.uint64(b) * np.uint64(8)
                    for k in range(8):
                        seg[o + np.uint64(k)] = v1 if (tb >> k) & 1 else v0
                start = nbytes * 8
            elif fast and bw == 2:
                nbytes = take // 4
                seg = out[i : i + nbytes * 4]
                src = buf[pos : pos + nbytes]
                for b in range(nbytes):
                    tb = src[b]
                    o = np.uint64(b) * np.uint64(4)
                    for k in range(4):
                        seg[o + np.uint64(k)] = values[np.uint64((tb >> (2 * k)) & 3)]
                start = nbytes * 4
            elif bw <= 8:  # eight values in bw bytes: one 64-bit word per group
                full = take // 8
                seg = out[i : i + full * 8]
                for g in range(full):
                    base = np.uint64(pos + g * bw)
                    word = np.uint64(0)
                    for b in range(bw):
                        word |= np.uint64(buf[base + np.uint64(b)]) << np.uint64(8 * b)
                    for v in range(8):
                        idx = np.uint64((word >> np.uint64(v * bw)) & mask)
                        if idx >= nvals:
                            return -1
                        seg[np.uint64(g * 8 + v)] = values[idx]
                start = full * 8
            else:
                start = 0
            seg = out[i : i + take]
            ubw = np.uint64(bw)
            for v in range(start, take):
                bit = np.uint64(v) * ubw
                byte = np.uint64(pos) + (bit >> np.uint64(3))
                word = np.uint64(0)
                for b in range((bw + int(bit & np.uint64(7)) + 7) // 8):
                    at = byte + np.uint64(b)
                    if at < end:
                        word |= np.uint64(buf[at]) << np.uint64(8 * b)
                idx = np.uint64((word >> (bit & np.uint64(7))) & mask)
                if idx >= nvals:
                    return -1
                seg[np.uint64(v)] = values[idx]
            pos += groups * bw
            i += take
        else:
            if pos + width > end:
                return -1
            idx = np.int64(0)
            for b in range(width):
                idx |= np.int64(buf[pos + b]) << (8 * b)
            pos += width
            if idx >= nvals:
                return -1
            take = min(header >> 1, n - i)
            out[i : i + take] = values[idx]
            i += take
    return n


@njit(cache=True, nogil=True, boundscheck=False)
def page_values(data, p, dend, v2, buf, body, lev_len, max_def, def_enc, enc, n, values, dst,
                dst_bytes, lv):  # pragma: no cover - compiled
    # One data page's levels and values (data: its values section, decompressed); returns
    # how many values are present, negative when corrupted (-1) or not taken here (-3).
    present = n
    if max_def:
        if v2:
            present = rle_levels(buf, body, body + lev_len, n, lv)
        else:
            if def_enc != 3:
                return -3
            if p + 4 > dend:
                return -1
            ln = (np.int64(data[p]) | (np.int64(data[p + 1]) << 8)
                  | (np.int64(data[p + 2]) << 16) | (np.int64(data[p + 3]) << 24))
            present = rle_levels(data, p + 4, min(dend, p + 4 + ln), n, lv)
            p += 4 + ln
        if present < 0:
            return -1
    else:
        lv[:] = 1
    if present and enc == 0:  # PLAIN: the values' little-endian bytes, back to back
        nbytes = present * (dst_bytes.shape[0] // max(1, dst.shape[0]))
        if p + nbytes > dend:
            return -1
        sv = data[p : p + nbytes]
        for b in range(nbytes):
            dst_bytes[b] = sv[b]
    elif present:
        if p >= dend:
            return -1
        bw = np.int64(data[p])
        if bw > 32:
            return -1
        if rle_dict(data, p + 1, dend, bw, present, values, dst) < 0:
            return -1
    return present


@njit(cache=True, nogil=True, boundscheck=False)
def scan_pages(buf, pos, end, hdr):  # pragma: no cover - compiled
    # Headers only: (values in the data pages, largest uncompressed page, PLAIN pages seen,
    # status); status -3 when a page is of a kind not decoded here (pyarrow then reads the
    # chunk), -1 when the headers are damaged.
    total = 0
    largest = 0
    plain = 0
    while pos < end:
        body = page_header(buf, pos, end, hdr)
        if body < 0 or hdr[2] < 0 or hdr[1] < 0 or body + hdr[2] > end:
            return total, largest, plain, -1
        if hdr[0] == 0 or hdr[0] == 3:
            if hdr[3] < 0:
                return total, largest, plain, -1
            if hdr[4] == 0:
                plain += 1
            elif hdr[4] != 2 and hdr[4] != 8:
                return total, largest, plain, -3
            total += hdr[3]
            largest = max(largest, hdr[1])
        elif hdr[0] != 1:
            return total, largest, plain, -3
        pos = body + hdr[2]
    return total, largest, plain, 0


@njit(cache=True, nogil=True, boundscheck=False)
def decode_pages(buf, pos, end, max_def, use_snappy, values, out, out_bytes, levels, scratch,
                 hdr, stats):
    # Whole data pages from buf[pos:end] into out / levels (1 = present) while they fit.
    # Returns (pos, values written, nulls, status): status 0 = done or out is full,
    # 1 = the next page needs more room in out than there is at all, 2 = scratch too small
    # (hdr[1] says how much), negative = corrupted or not a layout taken here. out_bytes is
    # out seen as bytes (for PLAIN pages); stats[0] counts values that are not finite.
    count = 0
    nulls = 0
    cap = out.shape[0]
    vw = out_bytes.shape[0] // max(1, cap)
    while pos < end:
        body = page_header(buf, pos, end, hdr)
        if body < 0:
            return pos, count, nulls, -1
        ptype, usize, csize, n = hdr[0], hdr[1], hdr[2], hdr[3]
        if csize < 0 or usize < 0 or body + csize > end:
            return pos, count, nulls, -1
        if ptype == 1:
            pos = body + csize
            continue
        if ptype != 0 and ptype != 3:
            return pos, count, nulls, -3
        enc = hdr[4]
        if enc != 0 and enc != 2 and enc != 8:
            return pos, count, nulls, -3
        if n < 0:
            return pos, count, nulls, -1
        if count + n > cap:
            return pos, count, nulls, 1 if count == 0 else 0
        v2 = ptype == 3
        lev_len = hdr[6] if v2 else 0
        if lev_len < 0 or lev_len > csize:
            return pos, count, nulls, -1
        # the values section (and, for v1, the levels before it)
        dstart = body + lev_len
        dend = body + csize
        got = 0
        if use_snappy and (not v2 or hdr[7] == 1):
            need = usize - lev_len
            if need > scratch.shape[0]:
                hdr[1] = need
                return pos, count, nulls, 2
            got = snappy(buf, dstart, dend, scratch)
            if got < 0:
                return pos, count, nulls, -1
        lv = levels[count : count + n]
        dst = out[count : count + n]
        dst_bytes = out_bytes[count * vw : (count + n) * vw]
        if use_snappy and (not v2 or hdr[7] == 1):
            present = page_values(scratch, 0, got, v2, buf, body, lev_len, max_def, hdr[5], enc,
                                  n, values, dst, dst_bytes, lv)
        else:
            present = page_values(buf, dstart, dend, v2, buf, body, lev_len, max_def, hdr[5],
                                  enc, n, values, dst, dst_bytes, lv)
        if present < 0:
            return pos, count, nulls, present
        if present < n:  # spread the values over the present slots, from the back
            j = present - 1
            for i in range(n - 1, -1, -1):
                if lv[i]:
                    dst[i] = dst[j]
                    j -= 1
                else:
                    dst[i] = 0
            nulls += n - present
        bad = 0
        for i in range(n):  # x - x is 0 for finite numbers only (and for every integer)
            x = dst[i]
            if not (x - x == 0):
                bad += 1
        stats[0] += bad
        count += n
        pos = body + csize
    return pos, count, nulls, 0
