"""Compiled inner loops of the engine (numba). See ``engine.py`` for the maths.

States are flat indices: idx = s0 G^(N-1) + s1 G^(N-2) + ... + s_{N-1}, scores
in turn order from the active player. After a turn that gains g the next state
is rot(idx, g) = (idx mod G^(N-1)) G + s0 + g, and a value vector v of the next
state reads, in the old frame, (P v)[k] = v[(k - 1) mod N].
"""
import numpy as np
from numba import njit, prange


@njit(cache=True)
def turn_pass(idx, y, N, K, G, Gpow, D, start,
              mv_ptr, mv_p, mv_da, mv_dst, en_ptr, en_p, en_dist, en_rel,
              dists, tails, abs_used, rel_used, W, winv, fixed, pbits,
              Vc, Vb, Cg, Ac, Ab, Rc, Rb, rc, dec, rwc, rwb, swc, swb, cout):
    """Backward induction over one turn from state idx, the 0-gain continuation unknown.

    Every value is kept as c + b x, x the value vector after a turn that gains
    nothing; decisions compare own components at x[0] = y. Writes c of the
    turn's opening into cout and returns (b, lo, hi): the decisions taken are
    greedy for every x[0] in [lo, hi].

    ``W`` holds the start-of-turn values of the next player's states; value
    vectors have K components: N win probabilities and, when K = N + 1, the
    expected number of turns (each turn adds one). ``winv`` is the value of
    winning now. With ``fixed`` the decisions are read from ``pbits`` (the
    state's packed policy) instead of being greedy.
    """
    s0 = idx // Gpow
    rest = idx % Gpow
    h = G - s0
    nd = dists.shape[0]
    for g in range(1, h):
        nidx = rest * G + s0 + g
        for k in range(N):
            Cg[g, k] = W[nidx, (k - 1) % N]
        for k in range(N, K):
            Cg[g, k] = W[nidx, k] + 1.0
    for j in range(nd):
        if abs_used[j]:
            for k in range(K):
                Ac[j, k] = tails[j, h] * winv[k]
            for g in range(1, h):
                p = dists[j, g]
                for k in range(K):
                    Ac[j, k] += p * Cg[g, k]
            Ab[j] = dists[j, 0]
    lo = -np.inf
    hi = np.inf
    for t in range(h - 1, -1, -1):
        for j in range(nd):
            if rel_used[j]:
                for k in range(K):
                    Rc[j, k] = tails[j, h - t] * winv[k]
                for x in range(max(0, 1 - t), h - t):
                    p = dists[j, x]
                    for k in range(K):
                        Rc[j, k] += p * Cg[t + x, k]
                Rb[j] = dists[j, 0] if t == 0 else 0.0
        for n in range(1, D + 1):
            for k in range(K):
                rc[k] = 0.0
            rb = 0.0
            for m in range(mv_ptr[n], mv_ptr[n + 1]):
                p = mv_p[m]
                t2 = t + mv_da[m]
                if t2 >= h:
                    for k in range(K):
                        rc[k] += p * winv[k]
                else:
                    d2 = mv_dst[m]
                    for k in range(K):
                        rc[k] += p * Vc[t2, d2, k]
                    rb += p * Vb[t2, d2]
            for e in range(en_ptr[n], en_ptr[n + 1]):
                p = en_p[e]
                j = en_dist[e]
                if en_rel[e]:
                    for k in range(K):
                        rc[k] += p * Rc[j, k]
                    rb += p * Rb[j]
                else:
                    for k in range(K):
                        rc[k] += p * Ac[j, k]
                    rb += p * Ab[j]
            if t == 0:
                sc0 = 0.0
                sb = 1.0
            else:
                sc0 = Cg[t, 0]
                sb = 0.0
            rwc[t, n] = rc[0]
            rwb[t, n] = rb
            swc[t, n] = sc0
            swb[t, n] = sb
            if t == 0 and n == start:
                roll = True
            elif fixed:
                q = t * (D + 1) + n
                roll = (pbits[q >> 3] & (128 >> (q & 7))) != 0
            else:
                A = rc[0] - sc0
                B = rb - sb
                roll = A + B * y > 0.0
                if B != 0.0:
                    edge = -A / B
                    if roll == (B > 0.0):
                        lo = max(lo, edge)
                    else:
                        hi = min(hi, edge)
            dec[t, n] = roll
            if roll:
                for k in range(K):
                    Vc[t, n, k] = rc[k]
                Vb[t, n] = rb
            elif t == 0:
                for k in range(K):
                    Vc[t, n, k] = 0.0
                Vb[t, n] = 1.0
            else:
                for k in range(K):
                    Vc[t, n, k] = Cg[t, k]
                Vb[t, n] = 0.0
    for k in range(K):
        cout[k] = Vc[0, start, k]
    return Vb[0, start], lo, hi


@njit(cache=True)
def _close_cycle(L, N, K, C, b, Wn):
    """Exact values of an orbit under fixed decisions: W_i = c_i + b_i P W_{i+1}, W_L = W_0.

    P rotates the N win probabilities; a turn counter (component N, when K > N)
    is carried unrotated and a zero-gain turn adds one to it (C must already
    hold that +b_i). Returns 1 - prod(b), zero when the orbit never ends.
    """
    coef = 1.0
    for k in range(K):
        Wn[0, k] = 0.0
    for j in range(N):
        for k in range(N):
            Wn[0, k] += coef * C[j % L, (k - j) % N]
        for k in range(N, K):
            Wn[0, k] += coef * C[j % L, k]
        coef *= b[j % L]
    gap = 1.0 - coef
    for k in range(K):
        Wn[0, k] /= gap
    for i in range(L - 1, 0, -1):
        nxt = (i + 1) % L
        for k in range(N):
            Wn[i, k] = C[i, k] + b[i] * Wn[nxt, (k - 1) % N]
        for k in range(N, K):
            Wn[i, k] = C[i, k] + b[i] * Wn[nxt, k]
    return gap


@njit(cache=True)
def solve_orbit(rep, N, G, Gpow, D, start,
                mv_ptr, mv_p, mv_da, mv_dst, en_ptr, en_p, en_dist, en_rel,
                dists, tails, abs_used, rel_used, W, bits, rw, sw, store_values,
                tol, eps, max_pi, max_vi,
                Vc, Vb, Cg, Ac, Ab, Rc, Rb, rc, dec, rwc, rwb, swc, swb, C, b, lo, hi, y, Wn, members,
                winv, nobits):
    """Solve the rotation orbit of state ``rep``: policy iteration on the scalar y, exact
    linear solve per policy; value iteration if the policy does not settle.

    Returns (passes, residual, converged).
    """
    L = N
    members[0] = rep
    for i in range(1, N):
        members[i] = (members[i - 1] % Gpow) * G + members[i - 1] // Gpow
        if members[i] == rep:
            L = i
            break
    for i in range(L):
        nxt = members[(i + 1) % L]
        if nxt % G + 1 < G:
            y[i] = W[nxt + 1, N - 1]
        else:
            y[i] = 0.5
    passes = 0
    settled = False
    residual = np.inf
    for it in range(max_pi + max_vi):
        vi = it >= max_pi
        if vi:
            # Decisions keep flipping: fall back to value iteration on the orbit.
            if it == 0:
                Wn[:, :] = 1.0 / N
            for i in range(L):
                y[i] = Wn[(i + 1) % L, N - 1]
        for i in range(L):
            b[i], lo[i], hi[i] = turn_pass(members[i], y[i], N, N, G, Gpow, D, start,
                                           mv_ptr, mv_p, mv_da, mv_dst, en_ptr, en_p, en_dist, en_rel,
                                           dists, tails, abs_used, rel_used, W, winv, False, nobits,
                                           Vc, Vb, Cg, Ac, Ab, Rc, Rb, rc, dec[i], rwc[i], rwb[i],
                                           swc[i], swb[i], C[i])
        passes += 1
        if vi:
            residual = 0.0
            for i in range(L):
                nxt = (i + 1) % L
                for k in range(N):
                    new = C[i, k] + b[i] * Wn[nxt, (k - 1) % N]
                    residual = max(residual, abs(new - Wn[i, k]))
                    Wn[i, k] = new
            if residual <= tol * 0.5:
                break
            continue
        _close_cycle(L, N, N, C, b, Wn)
        outside = 0.0
        for i in range(L):
            ynew = Wn[(i + 1) % L, N - 1]
            outside = max(outside, lo[i] - ynew, ynew - hi[i])
            y[i] = ynew
        if outside <= eps:
            settled = True
            residual = max(0.0, outside)
            for i in range(L):
                nxt = (i + 1) % L
                for k in range(N):
                    residual = max(residual, abs(C[i, k] + b[i] * Wn[nxt, (k - 1) % N] - Wn[i, k]))
            break
    for i in range(L):
        idx = members[i]
        h = G - idx // Gpow
        for k in range(N):
            W[idx, k] = Wn[i, k]
        for q in range(bits.shape[1]):
            bits[idx, q] = 0
        for t in range(h):
            for n in range(1, D + 1):
                if dec[i, t, n]:
                    q = t * (D + 1) + n
                    bits[idx, q >> 3] |= np.uint8(128 >> (q & 7))
        if store_values:
            yi = y[i]
            for t in range(G):
                rw[idx, t, 0] = 0.0
                sw[idx, t, 0] = 0.0
                for n in range(1, D + 1):
                    if t < h:
                        rw[idx, t, n] = rwc[i, t, n] + rwb[i, t, n] * yi
                        sw[idx, t, n] = swc[i, t, n] + swb[i, t, n] * yi
                    else:
                        rw[idx, t, n] = 1.0
                        sw[idx, t, n] = 1.0
    return passes, residual, settled or residual <= tol


@njit(cache=True)
def _turn_scratch(G, D, nd, K):
    """Work arrays of one turn pass with K value components (one set per thread)."""
    return (np.empty((G + 1, D + 1, K)), np.empty((G + 1, D + 1)), np.empty((G + 1, K)), np.empty((nd, K)),
            np.empty(nd), np.empty((nd, K)), np.empty(nd), np.empty(K))


@njit(parallel=True, cache=True)
def solve_layer(reps, N, G, D, start,
                mv_ptr, mv_p, mv_da, mv_dst, en_ptr, en_p, en_dist, en_rel,
                dists, tails, abs_used, rel_used, W, bits, rw, sw, store_values,
                tol, eps, max_pi, max_vi, stats):
    """Solve every orbit of one layer (same score sum); orbits are independent."""
    nr = reps.shape[0]
    Gpow = G ** (N - 1)
    nd = dists.shape[0]
    nchunks = min(nr, 256)
    for ch in prange(nchunks):
        Vc, Vb, Cg, Ac, Ab, Rc, Rb, rc = _turn_scratch(G, D, nd, N)
        dec = np.zeros((N, G + 1, D + 1), dtype=np.bool_)
        rwc = np.empty((N, G + 1, D + 1))
        rwb = np.empty((N, G + 1, D + 1))
        swc = np.empty((N, G + 1, D + 1))
        swb = np.empty((N, G + 1, D + 1))
        C = np.empty((N, N))
        b = np.empty(N)
        lo = np.empty(N)
        hi = np.empty(N)
        y = np.empty(N)
        Wn = np.empty((N, N))
        members = np.empty(N, dtype=np.int64)
        winv = np.zeros(N)
        winv[0] = 1.0
        nobits = np.zeros(1, dtype=np.uint8)
        for o in range(ch * nr // nchunks, (ch + 1) * nr // nchunks):
            passes, res, ok = solve_orbit(reps[o], N, G, Gpow, D, start,
                                          mv_ptr, mv_p, mv_da, mv_dst, en_ptr, en_p, en_dist, en_rel,
                                          dists, tails, abs_used, rel_used, W, bits, rw, sw, store_values,
                                          tol, eps, max_pi, max_vi,
                                          Vc, Vb, Cg, Ac, Ab, Rc, Rb, rc, dec, rwc, rwb, swc, swb,
                                          C, b, lo, hi, y, Wn, members, winv, nobits)
            stats[o, 0] = passes
            stats[o, 1] = res
            stats[o, 2] = 1.0 if ok else 0.0


@njit(parallel=True, cache=True)
def evaluate_layer(reps, N, K, G, D, start,
                   mv_ptr, mv_p, mv_da, mv_dst, en_ptr, en_p, en_dist, en_rel,
                   dists, tails, abs_used, rel_used, V, pbits, gaps):
    """Exact values of fixed per-seat policies on one layer.

    V[a] holds the start-of-turn values when seat a is to move (scores in turn
    order from seat a; K = N + 1 components, the last the expected number of
    turns left); pbits[a] is seat a's packed policy. The orbit of (rep, seat 0)
    is (rot^i rep, seat i), i < N. gaps[o] = 1 - P(the orbit's N turns all gain
    nothing); zero means the policies never end the game there.
    """
    nr = reps.shape[0]
    Gpow = G ** (N - 1)
    nd = dists.shape[0]
    nchunks = min(nr, 256)
    for ch in prange(nchunks):
        Vc, Vb, Cg, Ac, Ab, Rc, Rb, rc = _turn_scratch(G, D, nd, K)
        dec = np.zeros((G + 1, D + 1), dtype=np.bool_)
        scratch = np.empty((G + 1, D + 1))
        C = np.empty((N, K))
        b = np.empty(N)
        Wn = np.empty((N, K))
        members = np.empty(N, dtype=np.int64)
        winv = np.zeros(K)
        winv[0] = 1.0
        for k in range(N, K):
            winv[k] = 1.0
        for o in range(ch * nr // nchunks, (ch + 1) * nr // nchunks):
            members[0] = reps[o]
            for i in range(1, N):
                members[i] = (members[i - 1] % Gpow) * G + members[i - 1] // Gpow
            for i in range(N):
                b[i], _, _ = turn_pass(members[i], 0.0, N, K, G, Gpow, D, start,
                                       mv_ptr, mv_p, mv_da, mv_dst, en_ptr, en_p, en_dist, en_rel,
                                       dists, tails, abs_used, rel_used, V[(i + 1) % N], winv, True,
                                       pbits[i, members[i]], Vc, Vb, Cg, Ac, Ab, Rc, Rb, rc, dec,
                                       scratch, scratch, scratch, scratch, C[i])
                for k in range(N, K):
                    C[i, k] += b[i]
            gaps[o] = _close_cycle(N, N, K, C, b, Wn)
            for i in range(N):
                for k in range(K):
                    V[i, members[i], k] = Wn[i, k]
