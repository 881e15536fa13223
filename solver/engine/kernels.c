/* The engine's inner loops in C. See solve.py for the maths and kernels.py for how this file
 * is compiled and called.
 *
 * States are flat indices: idx = s0 G^(N-1) + s1 G^(N-2) + ... + s_{N-1}, scores in turn order
 * from the active player. After a turn that gains g the next state is
 * rot(idx, g) = (idx mod G^(N-1)) G + s0 + g, and a value vector v of the next state reads, in
 * the old frame, (P v)[k] = v[(k - 1) mod N].
 *
 * Every floating-point operation is written in the order of the reference formulas and the
 * file must be compiled without contraction into fused multiply-adds (-ffp-contract=off) and
 * without -ffast-math: the tables are reproducible bit for bit.
 *
 * Arrays are C-contiguous. The functions exported are solve_layer, evaluate_layer,
 * respond_layer, deviate_layer, gains_rows and versus_pass; the layer functions each handle a range of a
 * layer's orbits with their own scratch, so that several threads can work on one layer (orbits
 * of a layer read only finished layers and write only their own states). The same file is the
 * page's kernel, compiled to WebAssembly (wasm.py).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Portability. GCC and clang (Linux, macOS, MinGW; __GNUC__) get vector extensions, forced inlining and unroll
 * pragmas; any other C99 compiler (MSVC), or GONUTS_PORTABLE defined, gets plain arrays of VW doubles and
 * loops over them. Both do the same IEEE operation on each lane in the same order, so the bits are the
 * same (a test compiles both and compares every output). No compiler may fuse a multiply and an add:
 * -ffp-contract=off (GCC, clang), /fp:precise with the pragma below (MSVC). */
#if defined(__GNUC__) && !defined(GONUTS_PORTABLE)
#define GONUTS_VECTOR_EXTENSIONS 1
#define FORCE_INLINE static inline __attribute__((always_inline))
#define NOINLINE static __attribute__((noinline))
#define PRAGMA(x) _Pragma(#x)
#define UNROLL(n) PRAGMA(GCC unroll n)
#define PREFETCH(p) __builtin_prefetch((p), 0, 3)
#else
#define GONUTS_VECTOR_EXTENSIONS 0
#if defined(_MSC_VER)
#define FORCE_INLINE static __forceinline
#define NOINLINE static __declspec(noinline)
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#else
#pragma fp_contract(off)
#endif
#else
#define FORCE_INLINE static inline
#define NOINLINE static
#endif
#define UNROLL(n)
#define PREFETCH(p) ((void)(p))
#endif
#if defined(_MSC_VER) && !defined(__clang__)
#define RESTRICT __restrict
#else
#define RESTRICT restrict
#endif
#if defined(_WIN32)
#define EXPORT __declspec(dllexport)
#elif defined(__GNUC__)
#define EXPORT __attribute__((visibility("default")))
#else
#define EXPORT
#endif

typedef struct {
    int64_t N, K, G, Gpow, D, start, nd, nbytes;
    const int64_t *mv_ptr; const double *mv_p; const int64_t *mv_da; const int64_t *mv_dst;
    const int64_t *en_ptr; const double *en_p; const int64_t *en_dist; const uint8_t *en_rel;
    const double *dists;     /* (nd, G + 1) */
    const double *tails;     /* (nd, G + 2) */
    const uint8_t *abs_used; const uint8_t *rel_used;
} Model;

#define MAX_N 8              /* players; kernels.py refuses more */

/* A value slot holds the K components of c, then b, padded with zeros to NV whole vectors, so
 * that a roll's sum runs over whole vectors: VW = 4 doubles when compiled for AVX (kernels.py
 * adds -mavx where the CPU has it), else 2 (SSE2, or NEON). Each lane of a vector operation is the
 * IEEE operation of the scalar loop, in the same order, and the padding is zeros: the bits are
 * those of a loop over components, whatever the width. */
#if defined(__AVX__)
#define VW 4
#else
#define VW 2
#endif
#if GONUTS_VECTOR_EXTENSIONS
typedef double vec __attribute__((vector_size(8 * VW)));
static inline vec vzero(void) { return (vec){0.0}; }
static inline vec vscale(double s, vec x) { return s * x; }
static inline vec vadd(vec a, vec b) { return a + b; }
static inline double vlane(vec x, int64_t k) { return x[k]; }
#else
typedef struct { double d[VW]; } vec;
static inline vec vzero(void) { vec x; for (int k = 0; k < VW; k++) x.d[k] = 0.0; return x; }
static inline vec vscale(double s, vec x) { for (int k = 0; k < VW; k++) x.d[k] = s * x.d[k]; return x; }
static inline vec vadd(vec a, vec b) { for (int k = 0; k < VW; k++) a.d[k] = a.d[k] + b.d[k]; return a; }
static inline double vlane(vec x, int64_t k) { return x.d[k]; }
#endif
#define MAX_NV ((MAX_N + 1 + VW) / VW)     /* K <= MAX_N + 1 components, and b */

/* The games whose turn_lanes are compiled for their K and N (see turn_lanes), and the vectors in
 * a slot for each: the others take MAX_NV. */
#define SPECIALIZED(K, N) ((N) >= 2 && (N) <= 4 && ((K) == (N) || (K) == (N) + 1))

static int64_t slot_vectors(int64_t K, int64_t N) { return SPECIALIZED(K, N) ? (K + VW) / VW : MAX_NV; }

static inline vec ldv(const double *p) { vec x; memcpy(&x, p, sizeof x); return x; }
static inline void stv(double *p, vec x) { memcpy(p, &x, sizeof x); }

typedef struct {
    int64_t KB, maxda;       /* doubles per slot (VW NV); the largest gain of a move */
    int64_t *mv_off;         /* per move: (da (D + 1) + dst) KB, from the row of the turn total that rolls */
    int64_t *en_off;         /* per ending: (2 dist + rel) KB, into E */
    int64_t nrel, *rel;      /* the distributions of Go Nuts! rounds that add to the turn total */
    int64_t *top;            /* per distribution: its largest gain of non-zero probability (0: none above 0) */
    double *V;               /* (G + maxda, D + 1, KB): each decision state's value; rows h .. h + maxda - 1 a win */
    double *Cg;              /* (G + 1, KB): value after banking g (b = 0) */
    double *E;               /* (2 nd, KB): a Go Nuts! round's value, absolute (rel = 0) or relative */
    double *win;             /* (KB,): winv, then b = 0 */
    double *unit;            /* (KB,): c = 0, b = 1, the value of stopping at turn total 0 */
} TurnScratch;

#define MOD(a, n) ((((a) % (n)) + (n)) % (n))
#define PREV(k, n) ((k) == 0 ? (n) - 1 : (k) - 1)      /* MOD(k - 1, n) for 0 <= k < n, without dividing */

static double dmax(double a, double b) { return b > a ? b : a; }
static double dmin(double a, double b) { return b < a ? b : a; }

static int turn_scratch(TurnScratch *s, const Model *m, int64_t K) {
    const int64_t G = m->G, D = m->D, nd = m->nd > 0 ? m->nd : 1, nmv = m->mv_ptr[D + 1], nen = m->en_ptr[D + 1];
    int64_t maxda = 0;
    for (int64_t e = 0; e < nmv; e++) if (m->mv_da[e] > maxda) maxda = m->mv_da[e];
    s->KB = VW * slot_vectors(K, m->N);
    s->maxda = maxda;
    const int64_t KB = s->KB;
    s->mv_off = malloc(sizeof(int64_t) * (nmv > 0 ? nmv : 1));
    s->en_off = malloc(sizeof(int64_t) * (nen > 0 ? nen : 1));
    s->V = calloc((size_t)((G + maxda) * (D + 1) * KB), sizeof(double));
    s->Cg = calloc((size_t)((G + 1) * KB), sizeof(double));
    s->E = calloc((size_t)(2 * nd * KB), sizeof(double));
    s->win = calloc((size_t)KB, sizeof(double));
    s->unit = calloc((size_t)KB, sizeof(double));
    s->rel = malloc(sizeof(int64_t) * (size_t)nd);
    s->top = calloc((size_t)nd, sizeof(int64_t));
    if (!(s->mv_off && s->en_off && s->V && s->Cg && s->E && s->win && s->unit && s->rel && s->top)) return 0;
    for (int64_t j = 0; j < m->nd; j++)
        for (int64_t g = 1; g <= G; g++) if (m->dists[j * (G + 1) + g] != 0.0) s->top[j] = g;
    s->nrel = 0;
    for (int64_t j = 0; j < m->nd; j++) if (m->rel_used[j]) s->rel[s->nrel++] = j;
    s->unit[K] = 1.0;
    for (int64_t e = 0; e < nmv; e++) s->mv_off[e] = (m->mv_da[e] * (D + 1) + m->mv_dst[e]) * KB;
    for (int64_t e = 0; e < nen; e++) s->en_off[e] = (2 * m->en_dist[e] + (m->en_rel[e] ? 1 : 0)) * KB;
    return 1;
}

static void free_turn_scratch(TurnScratch *s) {
    free(s->mv_off); free(s->en_off); free(s->V); free(s->Cg); free(s->E); free(s->win); free(s->unit); free(s->rel); free(s->top);
}

/* The value of a Go Nuts! round: tl winv + sum over x0 <= x < x1 of d[x] (the slot at cg + x KB), x
 * ascending, into out, with its b. Terms past the distribution's top are zero and add +0 to a sum that
 * is never -0, so x1 stops there. */
FORCE_INLINE void
round_value(double *out, double tl, const double *d, const double *cg, int64_t x0, int64_t x1, int64_t top,
            double b, const double *win, const int64_t K, const int64_t NV) {
    const int64_t KB = VW * NV, end = top + 1 < x1 ? top + 1 : x1;
    vec a[MAX_NV];
    UNROLL(8)
    for (int64_t v = 0; v < NV; v++) a[v] = vscale(tl, ldv(win + VW * v));
    for (int64_t x = x0; x < end; x++) {
        const double p = d[x];
        UNROLL(8)
        for (int64_t v = 0; v < NV; v++) a[v] = vadd(a[v], vscale(p, ldv(cg + x * KB + VW * v)));
    }
    UNROLL(8)
    for (int64_t v = 0; v < NV; v++) stv(out + VW * v, a[v]);
    out[K] = b;
}

/* Stopping at turn total t: its own component c_0 and its b (at t = 0 the turn gains nothing: x). */
static inline double stop_c0(const TurnScratch *s, int64_t t) { return t == 0 ? 0.0 : s->Cg[t * s->KB]; }
static inline double stop_b(int64_t t) { return t == 0 ? 1.0 : 0.0; }

/* The greedy decision at y, from the roll's and the stop's (c_0, b): roll only when strictly better. */
static inline int rolls(double A, double B, double y) { return A + B * y > 0.0; }

/* One turn of one state, a lane of turn_lanes: its inputs, its scratch and where its results go.
 *
 * Backward induction over the turn from state idx, the 0-gain continuation unknown. Every value
 * is kept as c + b x, x the value vector after a turn that gains nothing; decisions compare own
 * components at x[0] = y. The lane's results: c of the turn's opening in cout, b in *b, and
 * [*lo, *hi], the y for which the decisions taken are greedy.
 *
 * W holds the start-of-turn values of the next player's states, K components per state: N win
 * probabilities and, when K = N + 1, the expected number of turns (each turn adds one). With
 * fixed, the decisions are read from pbits (the state's packed policy) instead of being greedy; at
 * mix_q, if set, the turn rolls with probability mix_p (its value is the mix of rolling's and
 * stopping's, dec says the likelier; it is no bound on y: the player is indifferent there).
 * dec, and with keep rwc and rwb (c_0 and b of rolling), are (G + 1, D + 1). */
typedef struct {
    int64_t idx, h;
    double y;
    const double *W;
    int fixed;
    const uint8_t *pbits;
    int64_t mix_q;           /* a decision (t, n) played mixed, q = t (D + 1) + n, or 0 for none (n = 0 is no decision) */
    double mix_p;            /* ... rolling there with this probability */
    TurnScratch *s;
    uint8_t *dec;
    int keep;
    double *rwc, *rwb, *cout, *b, *lo, *hi;
} Lane;

#define MAX_LANES 4

/* The lane's values that do not depend on the turn total: the values after banking each gain,
 * the win rows above the target, and the rulebook's Go Nuts! rounds (their gain does not depend
 * on the turn total, so once per turn). */
FORCE_INLINE void
lane_open(const Model *m, Lane *l, const int64_t K, const int64_t N, const int64_t NV, const double *winv) {
    const int64_t G = m->G, W1 = m->D + 1, KB = VW * NV, RS = W1 * KB;
    const int64_t s0 = l->idx / m->Gpow, rest = l->idx % m->Gpow, h = G - s0;
    TurnScratch *s = l->s;
    double *RESTRICT V = s->V, *RESTRICT Cg = s->Cg, *RESTRICT E = s->E, *RESTRICT win = s->win;
    const double *dists = m->dists, *tails = m->tails;
    l->h = h;
    *l->lo = -INFINITY;
    *l->hi = INFINITY;
    for (int64_t k = 0; k < KB; k++) win[k] = k < K ? winv[k] : 0.0;
    for (int64_t g = 1; g < h; g++) {
        const double *w = l->W + (rest * G + s0 + g) * K;
        double *c = Cg + g * KB;
        c[0] = w[N - 1];
        for (int64_t k = 1; k < N; k++) c[k] = w[k - 1];
        for (int64_t k = N; k < K; k++) c[k] = w[k] + 1.0;
    }
    for (int64_t t = h; t < h + s->maxda; t++)
        for (int64_t n = 1; n < W1; n++)
            UNROLL(8)
            for (int64_t v = 0; v < NV; v++) stv(V + t * RS + n * KB + VW * v, ldv(win + VW * v));
    for (int64_t j = 0; j < m->nd; j++)
        if (m->abs_used[j])
            round_value(E + 2 * j * KB, tails[j * (G + 2) + h], dists + j * (G + 1), Cg, 1, h, s->top[j],
                        dists[j * (G + 1)], win, K, NV);
}

/* a[i] += p[e] (the slot at src[i] + off[e]) for e0 <= e < e1, in that order, for each of the NA lanes. */
FORCE_INLINE void
lanes_add(vec a[][MAX_NV], const double *const *src, const double *RESTRICT p, const int64_t *RESTRICT off,
          int64_t e0, int64_t e1, const int64_t NA, const int64_t NV) {
    for (int64_t e = e0; e < e1; e++) {
        const double pe = p[e];
        const int64_t o = off[e];
        UNROLL(4)
        for (int64_t i = 0; i < NA; i++)
            UNROLL(8)
            for (int64_t v = 0; v < NV; v++) a[i][v] = vadd(a[i][v], vscale(pe, ldv(src[i] + o + VW * v)));
    }
}

/* Turn total t of the NA lanes ln[0..NA-1] (all with h > t), interleaved: the lanes' sums are
 * independent chains of additions, so the processor overlaps them; each keeps its own order.
 * A move past the target reads a row t >= h of V, which holds winv with b = 0: the sums are
 * those of adding p winv, and p 0 to b (b is never -0). What the lanes read and write is copied
 * into locals first: a byte stored into dec may alias anything, and would make the compiler
 * read every pointer again. */
FORCE_INLINE void
lanes_level(const Model *m, Lane *const *ln, int64_t t, const int64_t NA, const int64_t K, const int64_t NV) {
    const int64_t G = m->G, D = m->D, W1 = D + 1, KB = VW * NV, RS = W1 * KB, start = m->start;
    const double *dists = m->dists, *tails = m->tails;
    double *row[MAX_LANES], *rwc[MAX_LANES], *rwb[MAX_LANES], y[MAX_LANES], lo[MAX_LANES], hi[MAX_LANES];
    double sc0[MAX_LANES];
    const double *E[MAX_LANES], *stop[MAX_LANES];
    uint8_t *dec[MAX_LANES];
    const uint8_t *pbits[MAX_LANES];
    int fixed[MAX_LANES], keep[MAX_LANES];
    int64_t mixq[MAX_LANES];
    double mixp[MAX_LANES];
    for (int64_t i = 0; i < NA; i++) {
        const Lane *l = ln[i];
        mixq[i] = l->mix_q;
        mixp[i] = l->mix_p;
        TurnScratch *s = l->s;
        row[i] = s->V + t * RS;
        E[i] = s->E;
        stop[i] = t == 0 ? s->unit : s->Cg + t * KB;
        sc0[i] = stop_c0(s, t);
        rwc[i] = l->rwc;
        rwb[i] = l->rwb;
        dec[i] = l->dec;
        pbits[i] = l->pbits;
        fixed[i] = l->fixed;
        keep[i] = l->keep;
        y[i] = l->y;
        lo[i] = *l->lo;
        hi[i] = *l->hi;
        const int64_t h = l->h;
        for (int64_t r = 0; r < s->nrel; r++) {              /* the rounds that add to the turn total */
            const int64_t j = s->rel[r];
            round_value(s->E + (2 * j + 1) * KB, tails[j * (G + 2) + h - t], dists + j * (G + 1), s->Cg + t * KB,
                        1 - t > 0 ? 1 - t : 0, h - t, s->top[j], t == 0 ? dists[j * (G + 1)] : 0.0, s->win, K, NV);
        }
    }
    const int64_t *RESTRICT mv_ptr = m->mv_ptr, *RESTRICT en_ptr = m->en_ptr;
    const int64_t *RESTRICT mv_off = ln[0]->s->mv_off, *RESTRICT en_off = ln[0]->s->en_off;
    const double *RESTRICT mv_p = m->mv_p, *RESTRICT en_p = m->en_p;
    const double sb = stop_b(t);
    for (int64_t n = 1; n <= D; n++) {
        vec a[MAX_LANES][MAX_NV];
        UNROLL(4)
        for (int64_t i = 0; i < NA; i++)
            UNROLL(8)
            for (int64_t v = 0; v < NV; v++) a[i][v] = vzero();
        lanes_add(a, (const double *const *)row, mv_p, mv_off, mv_ptr[n], mv_ptr[n + 1], NA, NV);   /* moves, */
        lanes_add(a, E, en_p, en_off, en_ptr[n], en_ptr[n + 1], NA, NV);                   /* then rounds */
        const int64_t q = t * W1 + n;
        UNROLL(4)
        for (int64_t i = 0; i < NA; i++) {
            /* decide (t, n): roll or stop (an exact tie stops), and keep the chosen value */
            const double rc0 = vlane(a[i][0], 0), rb = vlane(a[i][K / VW], K % VW);
            if (keep[i]) {
                rwc[i][q] = rc0;
                rwb[i][q] = rb;
            }
            int roll;
            if (t == 0 && n == start) {
                roll = 1;
            } else if (q == mixq[i]) {
                const double p = mixp[i];
                double *mdst = row[i] + n * KB;
                dec[i][q] = (uint8_t)(p >= 0.5);
                UNROLL(8)
                for (int64_t v = 0; v < NV; v++)
                    stv(mdst + VW * v, vadd(vscale(p, a[i][v]), vscale(1.0 - p, ldv(stop[i] + VW * v))));
                continue;
            } else if (fixed[i]) {
                roll = (pbits[i][q >> 3] & (128 >> (q & 7))) != 0;
            } else {
                const double A = rc0 - sc0[i], B = rb - sb;
                roll = rolls(A, B, y[i]);
                if (B != 0.0) {
                    const double edge = -A / B;
                    if (roll == (B > 0.0)) lo[i] = dmax(lo[i], edge); else hi[i] = dmin(hi[i], edge);
                }
            }
            dec[i][q] = (uint8_t)roll;
            double *dst = row[i] + n * KB;
            if (roll) {
                UNROLL(8)
                for (int64_t v = 0; v < NV; v++) stv(dst + VW * v, a[i][v]);
            } else {
                UNROLL(8)
                for (int64_t v = 0; v < NV; v++) stv(dst + VW * v, ldv(stop[i] + VW * v));
            }
        }
    }
    for (int64_t i = 0; i < NA; i++) {
        *ln[i]->lo = lo[i];
        *ln[i]->hi = hi[i];
    }
}

/* The turns of nl lanes (nl <= MAX_LANES; each its own scratch), interleaved turn total by turn
 * total from the top: at turn total t the lanes with h > t are live. */
FORCE_INLINE void
turn_lanes_k(const Model *m, int64_t nl, Lane *lanes, const int64_t K, const int64_t N, const int64_t NV,
             const int64_t NL, void (*level)(const Model *, Lane *const *, int64_t, int64_t, int64_t), const double *winv) {
    Lane *ln[MAX_LANES];
    for (int64_t i = 0; i < nl; i++) {
        lane_open(m, lanes + i, K, N, NV, winv);
        int64_t j = i;                                   /* by h, descending */
        while (j > 0 && ln[j - 1]->h < lanes[i].h) { ln[j] = ln[j - 1]; j--; }
        ln[j] = lanes + i;
    }
    int64_t na = 0;
    for (int64_t t = ln[0]->h - 1; t >= 0; t--) {
        while (na < nl && ln[na]->h > t) na++;
        level(m, ln, t, NL < na ? NL : na, K);
    }
    const int64_t KB = VW * NV, st = m->start * KB;
    for (int64_t i = 0; i < nl; i++) {
        const double *V = lanes[i].s->V;
        for (int64_t k = 0; k < K; k++) lanes[i].cout[k] = V[st + k];
        *lanes[i].b = V[st + K];
    }
}

/* One compiled function per game and lane count: small functions keep the compile short. */
#define LEVELS(KK, NN, NV)                                                                               \
    NOINLINE void level_##KK##_##NN(const Model *m, Lane *const *ln, int64_t t,  \
                                                             int64_t na, int64_t K) {                    \
        (void)K;                                                                                         \
        switch (na) {                                                                                    \
            case 1: lanes_level(m, ln, t, 1, KK, NV); break;                                            \
            case 2: lanes_level(m, ln, t, 2, KK, NV); break;                                            \
            case 3: if (NN >= 3) lanes_level(m, ln, t, 3, KK, NV); break;                               \
            default: if (NN >= 4) lanes_level(m, ln, t, 4, KK, NV); break;                              \
        }                                                                                                \
    }                                                                                                    \
    NOINLINE void turn_##KK##_##NN(const Model *m, int64_t nl, Lane *lanes,      \
                                                           const double *winv) {                         \
        turn_lanes_k(m, nl, lanes, KK, NN, NV, NN < MAX_LANES ? NN : MAX_LANES, level_##KK##_##NN, winv); \
    }
LEVELS(2, 2, (2 + VW) / VW)
LEVELS(3, 2, (3 + VW) / VW)
LEVELS(3, 3, (3 + VW) / VW)
LEVELS(4, 3, (4 + VW) / VW)
LEVELS(4, 4, (4 + VW) / VW)
LEVELS(5, 4, (5 + VW) / VW)

NOINLINE void level_any(const Model *m, Lane *const *ln, int64_t t, int64_t na,
                                                int64_t K) {
    (void)na;
    lanes_level(m, ln, t, 1, K, MAX_NV);
}

/* turn_lanes_k with the component count K and the players N known to the compiler for the usual
 * games, so that the loops over components and lanes are unrolled and kept in registers; NL lanes
 * at a time (the members of an orbit, up to MAX_LANES). Other games take one lane at a time and
 * MAX_NV vectors per slot. Every lane's additions keep their order, whatever the lanes and the slot
 * width (the padding is zeros), so the bits are those of one turn at a time. */
static void turn_lanes(const Model *m, int64_t nl, Lane *lanes, int64_t K, const double *winv) {
    const int64_t N = m->N, NL = SPECIALIZED(K, N) ? (N < MAX_LANES ? N : MAX_LANES) : 1;
    for (int64_t i0 = 0; i0 < nl; i0 += NL) {
        const int64_t c = nl - i0 < NL ? nl - i0 : NL;
        Lane *l = lanes + i0;
        if (K == 2 && N == 2) turn_2_2(m, c, l, winv);
        else if (K == 3 && N == 3) turn_3_3(m, c, l, winv);
        else if (K == 4 && N == 4) turn_4_4(m, c, l, winv);
        else if (K == 3 && N == 2) turn_3_2(m, c, l, winv);
        else if (K == 4 && N == 3) turn_4_3(m, c, l, winv);
        else if (K == 5 && N == 4) turn_5_4(m, c, l, winv);
        else turn_lanes_k(m, c, l, K, N, MAX_NV, 1, level_any, winv);
    }
}

/* Exact values of an orbit under fixed decisions: W_i = c_i + b_i P W_{i+1}, W_L = W_0.
 * P rotates the N win probabilities; a turn counter (component N, when K > N) is carried
 * unrotated and a zero-gain turn adds one to it (C must already hold that +b_i). C, Wn are
 * (L, K). Returns 1 - prod(b), zero when the orbit never ends. */
static double close_cycle(int64_t L, int64_t N, int64_t K, const double *C, const double *b, double *Wn) {
    double coef = 1.0;
    for (int64_t k = 0; k < K; k++) Wn[k] = 0.0;
    for (int64_t j = 0; j < N; j++) {
        for (int64_t k = 0; k < N; k++) Wn[k] += coef * C[(j % L) * K + MOD(k - j, N)];
        for (int64_t k = N; k < K; k++) Wn[k] += coef * C[(j % L) * K + k];
        coef *= b[j % L];
    }
    double gap = 1.0 - coef;
    for (int64_t k = 0; k < K; k++) Wn[k] /= gap;
    for (int64_t i = L - 1; i > 0; i--) {
        int64_t nxt = i + 1 == L ? 0 : i + 1;
        for (int64_t k = 0; k < N; k++) Wn[i * K + k] = C[i * K + k] + b[i] * Wn[nxt * K + PREV(k, N)];
        for (int64_t k = N; k < K; k++) Wn[i * K + k] = C[i * K + k] + b[i] * Wn[nxt * K + k];
    }
    return gap;
}

/* The equilibrium search keeps, for each greedy member, up to MAX_PIECES pieces: a policy greedy for every
 * y in [lo, hi], with its turn's c and b. */
#define MAX_PIECES 16
#define STATS 11    /* per orbit: passes, residual, converged, equilibria, mixed state, q, p, spread, a second mixed state, q, p */

typedef struct {
    TurnScratch ts[MAX_N];                 /* one per member: the members' turns run as lanes */
    uint8_t *dec;                          /* (N, G + 1, D + 1) */
    double *rwc, *rwb;                     /* (N, G + 1, D + 1) */
    double *C, *b, *lo, *hi, *y, *Wn;      /* (N, N) and (N,) */
    int64_t *members;
    double *winv;
    uint8_t *pdec;                         /* (N, MAX_PIECES, G + 1, D + 1): the pieces' decisions */
    double *pc, *pb, *plo, *phi;           /* (N, MAX_PIECES, N) and (N, MAX_PIECES) */
    int64_t np[MAX_N];                     /* pieces per member */
    uint8_t *packed;                       /* (N, nbytes): decisions fixed for the last pass */
    double ymin[MAX_N], ymax[MAX_N];       /* the y each member's greedy turn was taken at */
    int64_t mix_q[MAX_N];                  /* the orbit's mixed decision, per member (0: none) */
    double mix_p[MAX_N];
} OrbitScratch;

static int orbit_scratch(OrbitScratch *o, const Model *m) {
    const int64_t N = m->N, plane = (m->G + 1) * (m->D + 1);
    memset(o, 0, sizeof *o);
    int ok = N <= MAX_N;
    for (int64_t i = 0; ok && i < N; i++) ok = turn_scratch(&o->ts[i], m, N);
    o->dec = calloc((size_t)(N * plane), 1);
    o->rwc = malloc(sizeof(double) * N * plane);
    o->rwb = malloc(sizeof(double) * N * plane);
    o->C = malloc(sizeof(double) * N * N);
    o->Wn = malloc(sizeof(double) * N * N);
    o->b = malloc(sizeof(double) * N);
    o->lo = malloc(sizeof(double) * N);
    o->hi = malloc(sizeof(double) * N);
    o->y = malloc(sizeof(double) * N);
    o->members = malloc(sizeof(int64_t) * N);
    o->winv = calloc((size_t)N, sizeof(double));
    o->pdec = calloc((size_t)(N * MAX_PIECES * plane), 1);
    o->pc = malloc(sizeof(double) * N * MAX_PIECES * N);
    o->pb = malloc(sizeof(double) * N * MAX_PIECES);
    o->plo = malloc(sizeof(double) * N * MAX_PIECES);
    o->phi = malloc(sizeof(double) * N * MAX_PIECES);
    o->packed = calloc((size_t)(N * m->nbytes + 1), 1);
    ok = ok && N <= MAX_N && o->dec && o->rwc && o->rwb && o->C && o->Wn && o->b && o->lo &&
         o->hi && o->y && o->members && o->winv && o->pdec && o->pc && o->pb && o->plo && o->phi && o->packed;
    if (ok) o->winv[0] = 1.0;
    return ok;
}

static void free_orbit_scratch(OrbitScratch *o) {
    for (int64_t i = 0; i < MAX_N; i++) free_turn_scratch(&o->ts[i]);
    free(o->dec); free(o->rwc); free(o->rwb); free(o->C); free(o->Wn);
    free(o->b); free(o->lo); free(o->hi); free(o->y); free(o->members); free(o->winv);
    free(o->pdec); free(o->pc); free(o->pb); free(o->plo); free(o->phi); free(o->packed);
}

/* Whether the greedy decisions of the turn of state idx, last taken into dec with the roll values
 * rwc, rwb and its scratch's Cg, differ at y: the test of lanes_level, operation for operation. */
static int changes(const Model *m, const TurnScratch *s, int64_t idx, double y, int fixed, const uint8_t *dec,
                   const double *rwc, const double *rwb) {
    if (fixed) return 0;
    const int64_t W1 = m->D + 1, h = m->G - idx / m->Gpow;
    for (int64_t t = 0; t < h; t++) {
        const double sc0 = stop_c0(s, t), sb = stop_b(t);
        for (int64_t n = 1; n <= m->D; n++) {
            const int64_t q = t * W1 + n;
            if (t == 0 && n == m->start) continue;
            const double A = rwc[q] - sc0, B = rwb[q] - sb;
            if (rolls(A, B, y) != (dec[q] != 0)) return 1;
        }
    }
    return 0;
}

/* A turn's decisions, dec[q] = 0 or 1 for the flattened (t, n), q < nq (those of n = 0 are 0: no
 * decision is taken there), packed into row, most significant bit first, eight at a time: with the
 * eight bytes b_0 .. b_7 read as one little-endian word x, bit 63 - i of x * 0x8040201008040201 is
 * b_i and no other product term reaches bits 56 .. 63. dec may be read up to 7 bytes past nq. */
static void pack_decisions(uint8_t *row, const uint8_t *dec, int64_t nq, int64_t nbytes) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    const int64_t full = 0;                            /* the word trick wants little-endian words */
#else
    const int64_t full = nq >> 3;
#endif
    for (int64_t k = 0; k < full; k++) {
        uint64_t x;
        memcpy(&x, dec + 8 * k, 8);
        row[k] = (uint8_t)((x * UINT64_C(0x8040201008040201)) >> 56);
    }
    for (int64_t k = full; k < nbytes; k++) row[k] = 0;
    for (int64_t q = full << 3; q < nq; q++) row[full] |= (uint8_t)(dec[q] << (7 - (q & 7)));
}

/* The lane of member i of an orbit: its turn valued with Wm[i], at y, greedy unless fixed (decisions from
 * pbits), mixed at mix_q (0: nowhere). */
static Lane member_lane(const int64_t *members, const double *const *Wm, OrbitScratch *o, int64_t i, int64_t plane,
                        int64_t N, double y, int fixed, const uint8_t *pbits, int64_t mix_q, double mix_p) {
    return (Lane){.idx = members[i], .y = y, .W = Wm[i], .fixed = fixed, .pbits = pbits, .mix_q = mix_q,
                  .mix_p = mix_p, .s = &o->ts[i], .dec = o->dec + i * plane, .keep = 1, .rwc = o->rwc + i * plane,
                  .rwb = o->rwb + i * plane, .cout = o->C + i * N, .b = o->b + i, .lo = o->lo + i, .hi = o->hi + i};
}

/* The largest step of the y_i implied by the closed cycle Wn outside [lo_i, hi_i], over the greedy members
 * (zero or less: every decision greedy), and the y_i into y. */
static double overshoot(int64_t L, int64_t N, const double *Wn, const double *lo, const double *hi,
                        const uint8_t *fixed, double *y) {
    double outside = 0.0;
    for (int64_t i = 0; i < L; i++) {
        const double ynew = Wn[((i + 1) % L) * N + N - 1];
        if (!fixed[i]) outside = dmax(dmax(outside, lo[i] - ynew), ynew - hi[i]);
        y[i] = ynew;
    }
    return outside;
}

/* Largest |c_i + b_i P W_{i+1} - W_i|: how far the closed cycle is from its own equations (rounding). */
static double cycle_error(int64_t L, int64_t N, const double *C, const double *b, const double *Wn) {
    double err = 0.0;
    for (int64_t i = 0; i < L; i++) {
        const int64_t nxt = (i + 1) % L;
        for (int64_t k = 0; k < N; k++)
            err = dmax(err, fabs(C[i * N + k] + b[i] * Wn[nxt * N + PREV(k, N)] - Wn[i * N + k]));
    }
    return err;
}

/* The pieces of greedy member i over y in [y0, y1], ascending: run the turn greedily at y0, keep its policy,
 * c, b and interval, and go on just above the interval's top. Returns the turns run, or -1 when there are more
 * than MAX_PIECES. */
static int64_t member_pieces(const Model *m, const int64_t *members, const double *const *Wm, OrbitScratch *o,
                             int64_t i, double y0, double y1) {
    const int64_t N = m->N, plane = (m->G + 1) * (m->D + 1);
    double y = y0;
    int64_t k = 0;
    for (;;) {
        if (k == MAX_PIECES) return -1;
        Lane lane = member_lane(members, Wm, o, i, plane, N, y, 0, NULL, 0, 0.0);
        turn_lanes(m, 1, &lane, N, o->winv);
        const int64_t at = i * MAX_PIECES + k;
        memcpy(o->pdec + at * plane, o->dec + i * plane, (size_t)plane);
        for (int64_t c = 0; c < N; c++) o->pc[at * N + c] = o->C[i * N + c];
        o->pb[at] = o->b[i];
        o->plo[at] = o->lo[i];
        o->phi[at] = o->hi[i];
        k++;
        if (!(o->hi[i] < y1)) break;
        y = nextafter(dmax(o->hi[i], y), INFINITY);
    }
    o->np[i] = k;
    return k;
}

/* The greedy members' decisions kept in o->packed (from their chosen pieces), every member's turn run
 * once with them fixed (and the mix, if any), and the cycle closed: the orbit's results left in o as
 * iterate_orbit leaves them. Returns how far the y fall outside the chosen pieces' intervals. */
static double install(const Model *m, int64_t L, const int64_t *members, const double *const *Wm,
                      const uint8_t *fixed, const uint8_t *const *pb, const int64_t *fmq, const double *fmp,
                      const int64_t *choice, OrbitScratch *o) {
    const int64_t N = m->N, G = m->G, W1 = m->D + 1, plane = (G + 1) * W1, nb = m->nbytes;
    Lane lanes[MAX_N];
    double lo[MAX_N], hi[MAX_N];
    for (int64_t i = 0; i < L; i++) {
        if (fixed[i]) {
            lanes[i] = member_lane(members, Wm, o, i, plane, N, 0.0, 1, pb[i], fmq ? fmq[i] : 0, fmp ? fmp[i] : 0.0);
            lo[i] = -INFINITY;
            hi[i] = INFINITY;
            continue;
        }
        const int64_t at = i * MAX_PIECES + choice[i], h = G - members[i] / m->Gpow;
        pack_decisions(o->packed + i * nb, o->pdec + at * plane, h * W1, nb);
        lanes[i] = member_lane(members, Wm, o, i, plane, N, 0.0, 1, o->packed + i * nb, o->mix_q[i], o->mix_p[i]);
        lo[i] = o->plo[at];
        hi[i] = o->phi[at];
    }
    turn_lanes(m, L, lanes, N, o->winv);
    close_cycle(L, N, N, o->C, o->b, o->Wn);
    for (int64_t i = 0; i < L; i++) {             /* the mixed member is indifferent at its interval's top */
        if (o->mix_q[i] != 0) lo[i] = hi[i];
        o->lo[i] = lo[i];
        o->hi[i] = hi[i];
    }
    return overshoot(L, N, o->Wn, lo, hi, fixed, o->y);
}

/* The decision where pieces k and k + 1 of member i differ, if they differ in exactly one (else 0). */
static int64_t one_difference(const Model *m, const OrbitScratch *o, const int64_t *members, int64_t i, int64_t k) {
    const int64_t W1 = m->D + 1, plane = (m->G + 1) * W1, h = m->G - members[i] / m->Gpow;
    const uint8_t *da = o->pdec + (i * MAX_PIECES + k) * plane, *db = da + plane;
    int64_t q = 0, differ = 0;
    for (int64_t x = 0; x < h * W1; x++) if (da[x] != db[x]) { differ++; q = x; }
    return differ == 1 ? q : 0;
}

/* The orbit's c and b with member j at piece ch[j], mixed into piece ch[j] + 1 with probability mix[j] (0: the
 * piece itself; fixed members as the last pass ran them): C (L, N), b (L,). */
static void mixed_turns(int64_t L, int64_t N, const uint8_t *fixed, const double *fixed_c, const double *fixed_b,
                        const OrbitScratch *o, const int64_t *ch, const double *mix, double *C, double *b) {
    for (int64_t j = 0; j < L; j++) {
        const int64_t at = j * MAX_PIECES + ch[j];
        for (int64_t c = 0; c < N; c++) {
            const double c0 = fixed[j] ? fixed_c[j * N + c] : o->pc[at * N + c];
            C[j * N + c] = mix[j] != 0.0 ? c0 + mix[j] * (o->pc[(at + 1) * N + c] - c0) : c0;
        }
        const double b0 = fixed[j] ? fixed_b[j] : o->pb[at];
        b[j] = mix[j] != 0.0 ? b0 + mix[j] * (o->pb[at + 1] - b0) : b0;
    }
}

/* No equilibrium with one member mixing: two members i < j each indifferent at a boundary between adjacent
 * pieces that differ in one decision (as in matching pennies: each one's mix makes the other indifferent). Each
 * member's c and b are affine in its own probability, so y_i's numerator and the cycle's denominator are affine
 * in each of (p, r): F(p, r) = num_i - e_i den and G(p, r) = num_j - e_j den are bilinear, known from their four
 * corners, and F = G = 0 is one quadratic equation in p (then r from F): a closed form. Picks as equilibrium
 * does; returns 0 and installs the pair, or -1. */
static int64_t mixed_pair(const Model *m, int64_t L, const int64_t *members, const double *const *Wm,
                          const uint8_t *fixed, const uint8_t *const *pb, const int64_t *fmq, const double *fmp,
                          double eps, int64_t select, OrbitScratch *o, int64_t *passes, double *outside,
                          const double *fixed_c, const double *fixed_b) {
    const int64_t N = m->N;
    double C[MAX_N * MAX_N], b[MAX_N], Wn[MAX_N * MAX_N], best_score = -INFINITY;
    int64_t best[MAX_N], best_i = -1, best_j = -1, best_qi = 0, best_qj = 0;
    double best_pi = 0.0, best_pj = 0.0;
    for (int64_t i = 0; i < L; i++) {
        if (fixed[i]) continue;
        for (int64_t j = i + 1; j < L; j++) {
            if (fixed[j]) continue;
            for (int64_t ki = 0; ki + 1 < o->np[i]; ki++) {
                const int64_t qi = one_difference(m, o, members, i, ki);
                if (qi == 0) continue;
                const double ei = o->phi[i * MAX_PIECES + ki];
                for (int64_t kj = 0; kj + 1 < o->np[j]; kj++) {
                    const int64_t qj = one_difference(m, o, members, j, kj);
                    if (qj == 0) continue;
                    const double ej = o->phi[j * MAX_PIECES + kj];
                    int64_t others = 1;
                    for (int64_t x = 0; x < L; x++) if (x != i && x != j) others *= o->np[x];
                    for (int64_t code = 0; code < others; code++) {
                        int64_t ch[MAX_N], rest = code;
                        for (int64_t x = L - 1; x >= 0; x--) {
                            if (x == i) { ch[x] = ki; continue; }
                            if (x == j) { ch[x] = kj; continue; }
                            ch[x] = rest % o->np[x];
                            rest /= o->np[x];
                        }
                        double F[4], Gv[4], mix[MAX_N] = {0};
                        for (int64_t corner = 0; corner < 4; corner++) {     /* (p, r) = (0,0), (1,0), (0,1), (1,1) */
                            mix[i] = (double)(corner & 1);
                            mix[j] = (double)(corner >> 1);
                            mixed_turns(L, N, fixed, fixed_c, fixed_b, o, ch, mix, C, b);
                            const double den = close_cycle(L, N, N, C, b, Wn);
                            F[corner] = Wn[((i + 1) % L) * N + N - 1] * den - ei * den;
                            Gv[corner] = Wn[((j + 1) % L) * N + N - 1] * den - ej * den;
                        }
                        /* F(p, r) = a + bp p + c r + d p r, and the same for G */
                        const double a = F[0], bp = F[1] - F[0], c = F[2] - F[0], d = F[3] - F[1] - F[2] + F[0];
                        const double a2 = Gv[0], bp2 = Gv[1] - Gv[0], c2 = Gv[2] - Gv[0], d2 = Gv[3] - Gv[1] - Gv[2] + Gv[0];
                        /* r = -(a + bp p) / (c + d p) into G: (a2 + bp2 p)(c + d p) - (c2 + d2 p)(a + bp p) = 0 */
                        const double k0 = a2 * c - c2 * a, k1 = a2 * d + bp2 * c - c2 * bp - d2 * a, k2 = bp2 * d - d2 * bp;
                        double roots[2];
                        int nr = 0;
                        if (k2 == 0.0) {
                            if (k1 != 0.0) roots[nr++] = -k0 / k1;
                        } else {
                            const double disc = k1 * k1 - 4.0 * k2 * k0;
                            if (disc >= 0.0) {
                                const double sq = sqrt(disc), qq = -0.5 * (k1 + (k1 >= 0.0 ? sq : -sq));
                                roots[nr++] = qq / k2;
                                if (qq != 0.0) roots[nr++] = k0 / qq;
                            }
                        }
                        for (int r0 = 0; r0 < nr; r0++) {
                            const double p = roots[r0], dd = c + d * p;
                            if (!(p >= 0.0 && p <= 1.0) || dd == 0.0) continue;
                            const double r = -(a + bp * p) / dd;
                            if (!(r >= 0.0 && r <= 1.0)) continue;
                            mix[i] = p;
                            mix[j] = r;
                            mixed_turns(L, N, fixed, fixed_c, fixed_b, o, ch, mix, C, b);
                            if (!(close_cycle(L, N, N, C, b, Wn) > 1e-14)) continue;
                            int ok = 1;
                            double score = 0.0;
                            for (int64_t x = 0; x < L && ok; x++) {
                                if (fixed[x]) continue;
                                const int64_t at = x * MAX_PIECES + ch[x];
                                const double yx = Wn[((x + 1) % L) * N + N - 1];
                                ok = x == i ? fabs(yx - ei) <= eps : x == j ? fabs(yx - ej) <= eps
                                                                            : (yx >= o->plo[at] - eps && yx <= o->phi[at] + eps);
                                score += Wn[x * N];
                            }
                            if (select) score = -score;
                            if (!ok || !(score > best_score)) continue;
                            best_score = score;
                            for (int64_t x = 0; x < L; x++) best[x] = ch[x];
                            best_i = i; best_j = j; best_qi = qi; best_qj = qj;
                            /* the probability of rolling at q: p moves piece k towards piece k + 1 */
                            best_pi = o->pdec[((i * MAX_PIECES + ki + 1) * (m->G + 1) * (m->D + 1)) + qi] ? p : 1.0 - p;
                            best_pj = o->pdec[((j * MAX_PIECES + kj + 1) * (m->G + 1) * (m->D + 1)) + qj] ? r : 1.0 - r;
                        }
                    }
                }
            }
        }
    }
    if (best_i < 0) return -1;
    o->mix_q[best_i] = best_qi;
    o->mix_p[best_i] = best_pi;
    o->mix_q[best_j] = best_qj;
    o->mix_p[best_j] = best_pj;
    *outside = install(m, L, members, Wm, fixed, pb, fmq, fmp, best, o);
    *passes += 1;
    return 0;
}

/* When policy iteration does not settle, the orbit's turns form a small game with several stationary
 * equilibria (or none in pure decisions) and the iteration jumps between policies. This finds them.
 *
 * Each greedy member's pieces over the y its iteration visited, widened by their spread on either side,
 * are listed (member_pieces); every choice of one piece per member is closed exactly and is a pure
 * equilibrium when every member's y falls in its piece's interval. Of those, the one with the largest sum of
 * the movers' own chances at their turns is kept (the first listed on a tie): no equilibrium found makes
 * every mover better off. With none, a mixed one: member i indifferent at the boundary between two adjacent
 * pieces that differ in one decision q, rolling there with the probability p at which the cycle returns
 * exactly that boundary. The turn's c and b are affine in p, and so are the numerator and the denominator
 * (1 - prod b) of the closed cycle's y_i: p solves one linear equation. With select set, the smallest sum
 * is kept instead (only to measure what the choice changes). Returns the number of pure equilibria (the
 * mixed one counts none) and installs the choice in o, or returns -1 when there is none among the pieces
 * (or too many pieces). *passes counts the turns run; *spread receives the largest difference between the
 * pure equilibria of any member's chance of any seat. */
static int64_t equilibrium(const Model *m, int64_t L, const int64_t *members, const double *const *Wm,
                           const uint8_t *fixed, const uint8_t *const *pb, const int64_t *fmq, const double *fmp,
                           double eps, int64_t select, OrbitScratch *o, int64_t *passes, double *outside,
                           double *spread) {
    const int64_t N = m->N, G = m->G, W1 = m->D + 1, plane = (G + 1) * W1;
    double C[MAX_N * MAX_N], b[MAX_N], Wn[MAX_N * MAX_N];
    double fixed_c[MAX_N * MAX_N], fixed_b[MAX_N];
    for (int64_t i = 0; i < L; i++) {
        o->mix_q[i] = 0;
        o->mix_p[i] = 0.0;
        if (fixed[i]) {                            /* one piece: its turn as the last pass ran it */
            o->np[i] = 1;
            for (int64_t c = 0; c < N; c++) fixed_c[i * N + c] = o->C[i * N + c];
            fixed_b[i] = o->b[i];
        }
    }
    for (int64_t i = 0; i < L; i++) {
        if (fixed[i]) continue;
        const double spread = dmax(o->ymax[i] - o->ymin[i], 1e-9);
        const int64_t k = member_pieces(m, members, Wm, o, i, o->ymin[i] - spread, o->ymax[i] + spread);
        if (k < 0) return -1;
        *passes += k;
    }
    /* every choice of one piece per member, the first member's piece varying slowest */
    int64_t total = 1, found = 0, best[MAX_N];
    for (int64_t i = 0; i < L; i++) total *= o->np[i];
    double best_score = -INFINITY, vmin[MAX_N * MAX_N], vmax[MAX_N * MAX_N];
    *spread = 0.0;
    for (int64_t code = 0; code < total; code++) {
        int64_t ch[MAX_N], rest = code;
        for (int64_t i = L - 1; i >= 0; i--) { ch[i] = rest % o->np[i]; rest /= o->np[i]; }
        for (int64_t i = 0; i < L; i++) {
            const int64_t at = i * MAX_PIECES + ch[i];
            for (int64_t c = 0; c < N; c++) C[i * N + c] = fixed[i] ? fixed_c[i * N + c] : o->pc[at * N + c];
            b[i] = fixed[i] ? fixed_b[i] : o->pb[at];
        }
        if (!(close_cycle(L, N, N, C, b, Wn) > 1e-14)) continue;
        int ok = 1;
        double score = 0.0;
        for (int64_t i = 0; i < L && ok; i++) {
            if (fixed[i]) continue;
            const int64_t at = i * MAX_PIECES + ch[i];
            const double yi = Wn[((i + 1) % L) * N + N - 1];
            ok = yi >= o->plo[at] - eps && yi <= o->phi[at] + eps;
            score += Wn[i * N];
        }
        if (!ok) continue;
        for (int64_t x = 0; x < L * N; x++) {
            vmin[x] = found == 0 ? Wn[x] : dmin(vmin[x], Wn[x]);
            vmax[x] = found == 0 ? Wn[x] : dmax(vmax[x], Wn[x]);
            *spread = dmax(*spread, vmax[x] - vmin[x]);
        }
        found++;
        if (select) score = -score;
        if (score > best_score) {
            best_score = score;
            for (int64_t i = 0; i < L; i++) best[i] = ch[i];
        }
    }
    if (found > 0) {
        *outside = install(m, L, members, Wm, fixed, pb, fmq, fmp, best, o);
        *passes += 1;
        return found;
    }
    /* no pure equilibrium: member i mixes at the one decision where two adjacent pieces differ */
    int64_t mix_i = -1, mix_q = 0;
    double mix_p = 0.0;
    for (int64_t i = 0; i < L; i++) {
        if (fixed[i]) continue;
        const int64_t h = G - members[i] / m->Gpow;
        for (int64_t k = 0; k + 1 < o->np[i]; k++) {
            const int64_t a = i * MAX_PIECES + k;
            const uint8_t *da = o->pdec + a * plane, *db = o->pdec + (a + 1) * plane;
            int64_t q = 0, differ = 0;
            for (int64_t x = 0; x < h * W1; x++) if (da[x] != db[x]) { differ++; q = x; }
            if (differ != 1) continue;
            const double edge = o->phi[a];
            int64_t others = 1;
            for (int64_t j = 0; j < L; j++) if (j != i) others *= o->np[j];
            for (int64_t code = 0; code < others; code++) {
                int64_t ch[MAX_N], rest = code;
                for (int64_t j = L - 1; j >= 0; j--) {
                    if (j == i) { ch[j] = k; continue; }
                    ch[j] = rest % o->np[j];
                    rest /= o->np[j];
                }
                double num[2], gap[2];
                for (int64_t side = 0; side < 2; side++) {      /* p = 0: piece k; p = 1: piece k + 1 */
                    for (int64_t j = 0; j < L; j++) {
                        const int64_t at = j * MAX_PIECES + ch[j] + (j == i ? side : 0);
                        for (int64_t c = 0; c < N; c++) C[j * N + c] = fixed[j] ? fixed_c[j * N + c] : o->pc[at * N + c];
                        b[j] = fixed[j] ? fixed_b[j] : o->pb[at];
                    }
                    gap[side] = close_cycle(L, N, N, C, b, Wn);
                    num[side] = Wn[((i + 1) % L) * N + N - 1] * gap[side];
                }
                const double den = (num[1] - num[0]) - edge * (gap[1] - gap[0]);
                if (den == 0.0) continue;
                const double p = (edge * gap[0] - num[0]) / den;
                if (!(p >= 0.0 && p <= 1.0)) continue;
                for (int64_t j = 0; j < L; j++) {
                    const int64_t at = j * MAX_PIECES + ch[j];
                    for (int64_t c = 0; c < N; c++) {
                        const double c0 = fixed[j] ? fixed_c[j * N + c] : o->pc[at * N + c];
                        C[j * N + c] = j == i ? c0 + p * (o->pc[(at + 1) * N + c] - c0) : c0;
                    }
                    const double b0 = fixed[j] ? fixed_b[j] : o->pb[at];
                    b[j] = j == i ? b0 + p * (o->pb[at + 1] - b0) : b0;
                }
                if (!(close_cycle(L, N, N, C, b, Wn) > 1e-14)) continue;
                int ok = 1;
                double score = 0.0;
                for (int64_t j = 0; j < L && ok; j++) {
                    if (fixed[j]) continue;
                    const int64_t at = j * MAX_PIECES + ch[j];
                    const double yj = Wn[((j + 1) % L) * N + N - 1];
                    ok = j == i ? fabs(yj - edge) <= eps : (yj >= o->plo[at] - eps && yj <= o->phi[at] + eps);
                    score += Wn[j * N];
                }
                if (select) score = -score;
                if (!ok || !(score > best_score)) continue;
                best_score = score;
                for (int64_t j = 0; j < L; j++) best[j] = ch[j];
                mix_i = i;
                mix_q = q;
                mix_p = db[q] ? p : 1.0 - p;         /* the probability of rolling at q */
            }
        }
    }
    if (mix_i >= 0) {
        o->mix_q[mix_i] = mix_q;
        o->mix_p[mix_i] = mix_p;
        *outside = install(m, L, members, Wm, fixed, pb, fmq, fmp, best, o);
        *passes += 1;
        return 0;
    }
    return mixed_pair(m, L, members, Wm, fixed, pb, fmq, fmp, eps, select, o, passes, outside, fixed_c, fixed_b);
}

/* Policy iteration on an orbit of L turns, the turn of members[i] valued with the start-of-turn values
 * Wm[i] of the player who moves after it, its decisions greedy or (fixed[i]) read from pb[i] (mixed at
 * fmq[i] with probability fmp[i], if fmq is given and fmq[i] is not 0): exact cycle per policy, iterated
 * on each greedy turn's scalar y until the decisions settle. If they do not settle in max_pi passes, the
 * orbit has several equilibria or none in pure decisions: ``equilibrium`` finds and picks one. If even that
 * finds none, value iteration, capped at max_vi passes. Leaves the turns' results in o (C, b, Wn, y, dec,
 * rwc, rwb, mix_q, mix_p, and each member's Cg in its scratch) and writes into stats[0..6] the passes, the
 * residual, converged, the pure equilibria the search found (0 when iteration settled), and the mixed
 * member (-1 for none), its decision q and its probability of rolling, the spread of the equilibria (see
 * equilibrium; select as there), and a second mixed member, its decision and probability (mixed_pair).
 *
 * A pass runs only the turns whose decisions the new y changes: a turn whose every greedy decision
 * stays as it is would give the same c, b, interval and values, bit for bit, so it keeps them. */
static void iterate_orbit(const Model *m, int64_t L, const int64_t *members, const double *const *Wm,
                          const uint8_t *fixed, const uint8_t *const *pb, const int64_t *fmq, const double *fmp,
                          double tol, double eps, int64_t max_pi, int64_t max_vi, int64_t select, OrbitScratch *o,
                          double *stats) {
    const int64_t N = m->N, G = m->G, plane = (G + 1) * (m->D + 1);
    double *C = o->C, *b = o->b, *lo = o->lo, *hi = o->hi, *y = o->y, *Wn = o->Wn;
    for (int64_t i = 0; i < L; i++) {
        int64_t nxt = members[(i + 1) % L];
        y[i] = (nxt % G + 1 < G) ? Wm[i][(nxt + 1) * N + N - 1] : 0.5;
        o->mix_q[i] = 0;
        o->mix_p[i] = 0.0;
    }
    int64_t passes = 0, equilibria = 0;
    int settled = 0, endless = 0;
    double spread = 0.0;
    double residual = INFINITY;
    for (int64_t it = 0; it < max_pi; it++) {
        Lane lanes[MAX_N];
        int64_t nl = 0;
        for (int64_t i = 0; i < L; i++) {
            if (it == 0 || y[i] < o->ymin[i]) o->ymin[i] = y[i];
            if (it == 0 || y[i] > o->ymax[i]) o->ymax[i] = y[i];
            if (it == 0 || changes(m, &o->ts[i], members[i], y[i], fixed[i], o->dec + i * plane,
                                   o->rwc + i * plane, o->rwb + i * plane))
                lanes[nl++] = member_lane(members, Wm, o, i, plane, N, y[i], fixed[i], pb[i],
                                          fmq && fixed[i] ? fmq[i] : 0, fmp && fixed[i] ? fmp[i] : 0.0);
        }
        turn_lanes(m, nl, lanes, N, o->winv);
        passes++;
        double gap = close_cycle(L, N, N, C, b, Wn);
        if (!(gap > 1e-14)) { endless = 1; break; }                 /* the orbit never ends */
        double outside = overshoot(L, N, Wn, lo, hi, fixed, y);
        if (outside <= eps) {
            settled = 1;
            residual = dmax(dmax(0.0, outside), cycle_error(L, N, C, b, Wn));
            break;
        }
    }
    if (!settled && max_pi > 0 && passes == max_pi) {
        double outside = INFINITY;
        equilibria = equilibrium(m, L, members, Wm, fixed, pb, fmq, fmp, eps, select, o, &passes, &outside,
                                 &spread);
        if (equilibria >= 0 && outside <= eps) {
            settled = 1;
            residual = dmax(dmax(0.0, outside), cycle_error(L, N, C, b, Wn));
        } else {
            for (int64_t i = 0; i < L; i++) { o->mix_q[i] = 0; o->mix_p[i] = 0.0; }
            equilibria = 0;
        }
    }
    if (!settled && !endless) {
        /* Neither settles: value iteration on the orbit, capped. */
        if (max_pi == 0) for (int64_t q = 0; q < N * N; q++) Wn[q] = 1.0 / (double)N;
        for (int64_t it = 0; it < max_vi; it++) {
            Lane lanes[MAX_N];
            for (int64_t i = 0; i < L; i++) {
                y[i] = Wn[((i + 1) % L) * N + N - 1];
                lanes[i] = member_lane(members, Wm, o, i, plane, N, y[i], fixed[i], pb[i],
                                       fmq && fixed[i] ? fmq[i] : 0, fmp && fixed[i] ? fmp[i] : 0.0);
            }
            turn_lanes(m, L, lanes, N, o->winv);
            passes++;
            residual = 0.0;
            for (int64_t i = 0; i < L; i++) {
                int64_t nxt = (i + 1) % L;
                for (int64_t k = 0; k < N; k++) {
                    double nw = C[i * N + k] + b[i] * Wn[nxt * N + PREV(k, N)];
                    residual = dmax(residual, fabs(nw - Wn[i * N + k]));
                    Wn[i * N + k] = nw;
                }
            }
            if (residual <= tol * 0.5) break;
        }
    }
    int64_t mixed[2] = {-1, -1}, nmixed = 0;
    for (int64_t i = 0; i < L; i++) if (o->mix_q[i] != 0 && nmixed < 2) mixed[nmixed++] = i;
    stats[0] = (double)passes;
    stats[1] = residual;
    stats[2] = (settled || residual <= tol) ? 1.0 : 0.0;
    stats[3] = (double)equilibria;
    stats[7] = spread;
    for (int64_t x = 0; x < 2; x++) {
        double *st = stats + (x == 0 ? 4 : 8);
        st[0] = (double)mixed[x];
        st[1] = mixed[x] >= 0 ? (double)o->mix_q[mixed[x]] : 0.0;
        st[2] = mixed[x] >= 0 ? o->mix_p[mixed[x]] : 0.0;
    }
}

/* Solve the rotation orbit of state rep: policy iteration on the scalar y, exact linear solve
 * per policy; an equilibrium search if the policy does not settle, value iteration if even that
 * finds none. Writes iterate_orbit's stats into stats[0..6], the mixed member as its state's index. */
static void solve_orbit(const Model *m, int64_t rep, double *W, uint8_t *bits, double *rw, double *sw,
                        int store_values, double tol, double eps, int64_t max_pi, int64_t max_vi, int64_t select,
                        OrbitScratch *o, double *stats) {
    const int64_t N = m->N, G = m->G, Gpow = m->Gpow, D = m->D, W1 = D + 1, plane = (G + 1) * (D + 1);
    int64_t L = N;
    int64_t *members = o->members;
    const double *y = o->y, *Wn = o->Wn;
    members[0] = rep;
    for (int64_t i = 1; i < N; i++) {
        members[i] = (members[i - 1] % Gpow) * G + members[i - 1] / Gpow;
        if (members[i] == rep) { L = i; break; }
    }
    const double *Wm[MAX_N];
    const uint8_t *pb[MAX_N];
    uint8_t fixed[MAX_N];
    for (int64_t i = 0; i < L; i++) { Wm[i] = W; pb[i] = NULL; fixed[i] = 0; }
    iterate_orbit(m, L, members, Wm, fixed, pb, NULL, NULL, tol, eps, max_pi, max_vi, select, o, stats);
    if (stats[4] >= 0.0) stats[4] = (double)members[(int64_t)stats[4]];
    if (stats[8] >= 0.0) stats[8] = (double)members[(int64_t)stats[8]];
    for (int64_t i = 0; i < L; i++) {
        int64_t idx = members[i], h = G - idx / Gpow;
        for (int64_t k = 0; k < N; k++) W[idx * N + k] = Wn[i * N + k];
        pack_decisions(bits + idx * m->nbytes, o->dec + i * plane, h * W1, m->nbytes);
        if (store_values) {
            double yi = y[i];
            double *rwr = rw + idx * G * W1, *swr = sw + idx * G * W1;
            const double *rwc = o->rwc + i * plane, *rwb = o->rwb + i * plane;
            for (int64_t t = 0; t < G; t++) {
                rwr[t * W1] = 0.0;
                swr[t * W1] = 0.0;
                for (int64_t n = 1; n <= D; n++) {
                    if (t < h) {
                        rwr[t * W1 + n] = rwc[t * W1 + n] + rwb[t * W1 + n] * yi;
                        swr[t * W1 + n] = stop_c0(&o->ts[i], t) + stop_b(t) * yi;
                    } else {
                        rwr[t * W1 + n] = 1.0;
                        swr[t * W1 + n] = 1.0;
                    }
                }
            }
        }
    }
}

/* Ask for the values the turns of rep's orbit will read (the states after each gain, K per state,
 * in a row), so that they arrive from memory while the orbit before it is solved. */
static void prefetch_orbit(const Model *m, int64_t rep, const double *W, int64_t K) {
    const int64_t G = m->G, Gpow = m->Gpow;
    int64_t idx = rep;
    for (int64_t i = 0; i < m->N; i++) {
        const int64_t s0 = idx / Gpow, rest = idx % Gpow;
        const char *lo = (const char *)(W + (rest * G + s0 + 1) * K), *hi = (const char *)(W + (rest * G + G) * K);
        for (const char *p = lo; p < hi; p += 64) PREFETCH(p);
        idx = rest * G + s0;
        if (idx == rep) break;
    }
}

/* Solve orbits reps[lo:hi] of one layer; stats is (len(reps), STATS); select 0 picks equilibria by the
 * stated rule (1: the other extreme, to measure what the choice changes). Returns 0, or -1 when out of memory. */
EXPORT int solve_layer(const Model *m, const int64_t *reps, int64_t lo, int64_t hi, double *W, uint8_t *bits,
                double *rw, double *sw, int store_values, double tol, double eps, int64_t max_pi,
                int64_t max_vi, int64_t select, double *stats) {
    OrbitScratch o;
    int ok = orbit_scratch(&o, m);
    if (ok) {
        for (int64_t r = lo; r < hi; r++) {
            if (r + 1 < hi) prefetch_orbit(m, reps[r + 1], W, m->N);
            solve_orbit(m, reps[r], W, bits, rw, sw, store_values, tol, eps, max_pi, max_vi, select, &o,
                        stats + STATS * r);
        }
    }
    free_orbit_scratch(&o);
    return ok ? 0 : -1;
}

/* The mixed decisions of fixed policies: n entries, keys[e] = a S + idx (seat a, state idx) ascending, each
 * rolling at decision q[e] with probability p[e]. The entry of key, or -1. */
typedef struct { int64_t n; const int64_t *key, *q; const double *p; } Mixes;

static int64_t find_mix(const Mixes *x, int64_t key) {
    int64_t a = 0, z = x->n;
    while (a < z) {
        const int64_t mid = a + (z - a) / 2;
        if (x->key[mid] < key) a = mid + 1; else z = mid;
    }
    return a < x->n && x->key[a] == key ? a : -1;
}

/* Exact values of fixed per-seat policies on orbits reps[lo:hi] of one layer.
 *
 * V is (N, S, K): V[a] the start-of-turn values when seat a is to move (scores in turn order
 * from seat a; K = N + 1 components, the last the expected number of turns left); pbits is
 * (N, S, nbytes), seat a's packed policy. The orbit of (rep, seat 0) is (rot^i rep, seat i),
 * i < N. Seat a mixes where (mix_key, mix_q, mix_p) say (nmix entries, see Mixes). gaps[o] = 1 - P(the
 * orbit's N turns all gain nothing). Returns 0, or -1 when out of memory. */
EXPORT int evaluate_layer(const Model *m, const int64_t *reps, int64_t lo, int64_t hi, double *V,
                   const uint8_t *pbits, int64_t nmix, const int64_t *mix_key, const int64_t *mix_q,
                   const double *mix_p, double *gaps) {
    const Mixes mixes = {nmix, mix_key, mix_q, mix_p};
    const int64_t N = m->N, K = m->K, G = m->G, Gpow = m->Gpow, plane = (G + 1) * (m->D + 1);
    const int64_t S = Gpow * G;
    TurnScratch ts[MAX_N];
    memset(ts, 0, sizeof ts);
    int ok = N <= MAX_N;
    for (int64_t i = 0; ok && i < N; i++) ok = turn_scratch(&ts[i], m, K);
    uint8_t *dec = calloc((size_t)plane, 1);
    double *scratch = malloc(sizeof(double) * plane);
    double *C = malloc(sizeof(double) * N * K), *b = malloc(sizeof(double) * N), *Wn = malloc(sizeof(double) * N * K);
    int64_t *members = malloc(sizeof(int64_t) * N);
    double *winv = calloc((size_t)K, sizeof(double));
    ok = ok && dec && scratch && C && b && Wn && members && winv;
    if (ok) {
        winv[0] = 1.0;
        for (int64_t k = N; k < K; k++) winv[k] = 1.0;
        for (int64_t r = lo; r < hi; r++) {
            members[0] = reps[r];
            for (int64_t i = 1; i < N; i++) members[i] = (members[i - 1] % Gpow) * G + members[i - 1] / Gpow;
            Lane lanes[MAX_N];
            double l[MAX_N], h[MAX_N];
            for (int64_t i = 0; i < N; i++) {   /* decisions are fixed: dec and the roll/stop values are not kept */
                const int64_t e = nmix > 0 ? find_mix(&mixes, i * S + members[i]) : -1;
                lanes[i] = (Lane){.idx = members[i], .y = 0.0, .W = V + ((i + 1) % N) * S * K, .fixed = 1,
                                  .pbits = pbits + (i * S + members[i]) * m->nbytes,
                                  .mix_q = e >= 0 ? mix_q[e] : 0, .mix_p = e >= 0 ? mix_p[e] : 0.0,
                                  .s = &ts[i], .dec = dec, .keep = 0, .rwc = scratch, .rwb = scratch,
                                  .cout = C + i * K, .b = b + i, .lo = l + i, .hi = h + i};
            }
            turn_lanes(m, N, lanes, K, winv);
            for (int64_t i = 0; i < N; i++)
                for (int64_t k = N; k < K; k++) C[i * K + k] += b[i];
            gaps[r] = close_cycle(N, N, K, C, b, Wn);
            for (int64_t i = 0; i < N; i++)
                for (int64_t k = 0; k < K; k++) V[(i * S + members[i]) * K + k] = Wn[i * K + k];
        }
    }
    for (int64_t i = 0; i < MAX_N; i++) free_turn_scratch(&ts[i]);
    free(dec); free(scratch); free(C); free(b); free(Wn); free(members); free(winv);
    return ok ? 0 : -1;
}

/* Best response: seats whose greedy[i] is set decide greedily (max-n among themselves), the others
 * follow pbits. The orbit of (rep, seat 0) is (rot^i rep, seat i), i < N, as in evaluate_layer;
 * it is solved like solve_orbit: policy iteration on each greedy turn's scalar y, the cycle closed
 * exactly per policy, the equilibrium search if decisions do not settle, value iteration if even that
 * finds none. The fixed seats mix where (mix_key, mix_q, mix_p) say (nmix entries, see Mixes). V is
 * (N, S, N) win probabilities; bits (N, S, nbytes) receives the greedy seats' decisions; stats is
 * (len(reps), STATS), as iterate_orbit writes it, the mixed member as a S + idx. Returns 0, or -1 when
 * out of memory. */
EXPORT int respond_layer(const Model *m, const int64_t *reps, int64_t lo, int64_t hi, double *V, const uint8_t *pbits,
                  int64_t nmix, const int64_t *mix_key, const int64_t *mix_q, const double *mix_p,
                  const uint8_t *greedy, uint8_t *bits, double tol, double eps, int64_t max_pi, int64_t max_vi,
                  double *stats) {
    const Mixes mixes = {nmix, mix_key, mix_q, mix_p};
    const int64_t N = m->N, G = m->G, Gpow = m->Gpow, D = m->D, W1 = D + 1, plane = (G + 1) * (D + 1);
    const int64_t S = Gpow * G;
    OrbitScratch o;
    int ok = orbit_scratch(&o, m);
    if (ok) {
        int64_t *members = o.members;
        const double *Wm[MAX_N];
        const uint8_t *pb[MAX_N];
        uint8_t fixed[MAX_N];
        int64_t fmq[MAX_N];
        double fmp[MAX_N];
        for (int64_t r = lo; r < hi; r++) {
            double *st = stats + STATS * r;
            members[0] = reps[r];
            for (int64_t i = 1; i < N; i++) members[i] = (members[i - 1] % Gpow) * G + members[i - 1] / Gpow;
            for (int64_t i = 0; i < N; i++) {
                Wm[i] = V + ((i + 1) % N) * S * N;
                fixed[i] = !greedy[i];
                pb[i] = pbits + (i * S + members[i]) * m->nbytes;
                const int64_t e = fixed[i] && nmix > 0 ? find_mix(&mixes, i * S + members[i]) : -1;
                fmq[i] = e >= 0 ? mix_q[e] : 0;
                fmp[i] = e >= 0 ? mix_p[e] : 0.0;
            }
            iterate_orbit(m, N, members, Wm, fixed, pb, fmq, fmp, tol, eps, max_pi, max_vi, 0, &o, st);
            if (st[4] >= 0.0) st[4] = (double)((int64_t)st[4] * S + members[(int64_t)st[4]]);
            if (st[8] >= 0.0) st[8] = (double)((int64_t)st[8] * S + members[(int64_t)st[8]]);
            for (int64_t i = 0; i < N; i++) {
                int64_t idx = members[i], h = G - idx / Gpow;
                for (int64_t k = 0; k < N; k++) V[(i * S + idx) * N + k] = o.Wn[i * N + k];
                if (!greedy[i]) continue;
                pack_decisions(bits + (i * S + idx) * m->nbytes, o.dec + i * plane, h * W1, m->nbytes);
            }
        }
    }
    free_orbit_scratch(&o);
    return ok ? 0 : -1;
}

/* ---- One seat against N - 1 seats that share one policy: the proof that no seat gains by deviating ---- */

/* A slot of one component and its b: the deviator's win probability alone, in one vector. */
#define NV1 ((1 + VW) / VW)

NOINLINE void level_one(const Model *m, Lane *const *ln, int64_t t, int64_t na, int64_t K) {
    (void)K;
    switch (na) {
        case 1: lanes_level(m, ln, t, 1, 1, NV1); break;
        case 2: lanes_level(m, ln, t, 2, 1, NV1); break;
        case 3: lanes_level(m, ln, t, 3, 1, NV1); break;
        default: lanes_level(m, ln, t, 4, 1, NV1); break;
    }
}

/* turn_scratch for one component: the slots NV1 vectors wide (turn_scratch sizes them for any K). */
static int deviate_scratch(TurnScratch *s, const Model *m) {
    if (!turn_scratch(s, m, 1)) return 0;
    const int64_t D = m->D, nmv = m->mv_ptr[D + 1], nen = m->en_ptr[D + 1];
    s->KB = VW * NV1;
    for (int64_t e = 0; e < nmv; e++) s->mv_off[e] = (m->mv_da[e] * (D + 1) + m->mv_dst[e]) * s->KB;
    for (int64_t e = 0; e < nen; e++) s->en_off[e] = (2 * m->en_dist[e] + (m->en_rel[e] ? 1 : 0)) * s->KB;
    return 1;
}

/* The exact best response of one seat, the deviator, to N - 1 seats that all play the packed policy bits (S,
 * nbytes; mixed where (mix_key, mix_q, mix_p) say, keyed by state): the optimal table's, so that where it is an
 * equilibrium no state's value rises. Only the deviator's own win probability is carried (one component, not
 * N): V is (N, S), V[a S + idx] the deviator's chance with the seat a places after it to move, scores in turn
 * order from that seat. The orbit of (rep, deviator to move) is (rot^i rep, seat i), i < N: the fixed seats'
 * turns (members 1 .. N - 1) are valued once, V_1 = A + B V_0 through them, and the deviator's turn is solved by
 * policy iteration on its one scalar y = V_1 (a single maximizer: each pass's policy is at least as good as the
 * last, so it settles, from whatever y it starts: W0, the others' own values (S, N), if not NULL, else a
 * guess), capped at max_pi passes. dbits (S, nbytes), if not NULL, receives the deviator's
 * decisions. stats is (len(reps), 3): passes, residual (how far y lies outside the interval where the decisions
 * taken are greedy, or the cycle's own rounding), converged. Returns 0, or -1 when out of memory. */
EXPORT int deviate_layer(const Model *m, const int64_t *reps, int64_t lo, int64_t hi, double *V, const uint8_t *bits,
                  int64_t nmix, const int64_t *mix_key, const int64_t *mix_q, const double *mix_p, const double *W0,
                  uint8_t *dbits, double eps, int64_t max_pi, double *stats) {
    /* MAX_LANES orbits at a time, so that their turns run as interleaved lanes: the fixed seats' turns of the
     * batch MAX_LANES at a time, then the deviator's first pass of every orbit at once; an orbit whose decisions
     * do not settle at once goes on alone. Each lane's sums keep their order: the bits are those of one orbit at
     * a time. */
    const Mixes mixes = {nmix, mix_key, mix_q, mix_p};
    const int64_t N = m->N, G = m->G, Gpow = m->Gpow, W1 = m->D + 1, plane = (G + 1) * W1, S = Gpow * G;
    const int64_t NB = MAX_LANES, NLN = NB * MAX_N;
    TurnScratch ts[MAX_LANES * MAX_N];
    memset(ts, 0, sizeof ts);
    int ok = N <= MAX_N;
    for (int64_t i = 0; ok && i < NB * N; i++) ok = deviate_scratch(&ts[i], m);
    uint8_t *dec = calloc((size_t)(NLN * plane + 8), 1);
    double *scratch = malloc(sizeof(double) * plane);
    ok = ok && dec && scratch;
    const double win_self[1] = {1.0}, win_other[1] = {0.0};
    if (ok) {
        for (int64_t r0 = lo; r0 < hi; r0 += NB) {
            const int64_t nb = hi - r0 < NB ? hi - r0 : NB;
            int64_t members[MAX_LANES][MAX_N];
            double C[MAX_LANES][MAX_N], b[MAX_LANES][MAX_N], l[MAX_LANES][MAX_N], h[MAX_LANES][MAX_N];
            double A[MAX_LANES], B[MAX_LANES], y[MAX_LANES];
            Lane lanes[MAX_LANES][MAX_N], fixed[MAX_LANES * MAX_N], own[MAX_LANES];
            int64_t nf = 0;
            for (int64_t k = 0; k < nb; k++) {
                int64_t *mb = members[k];
                mb[0] = reps[r0 + k];
                for (int64_t i = 1; i < N; i++) mb[i] = (mb[i - 1] % Gpow) * G + mb[i - 1] / Gpow;
                for (int64_t i = 0; i < N; i++) {
                    const int64_t e = i > 0 && nmix > 0 ? find_mix(&mixes, mb[i]) : -1;
                    lanes[k][i] = (Lane){.idx = mb[i], .y = 0.5, .W = V + ((i + 1) % N) * S, .fixed = i > 0,
                                         .pbits = bits + mb[i] * m->nbytes,
                                         .mix_q = e >= 0 ? mix_q[e] : 0, .mix_p = e >= 0 ? mix_p[e] : 0.0,
                                         .s = &ts[k * N + i], .dec = dec + (k * N + i) * plane, .keep = 0,
                                         .rwc = scratch, .rwb = scratch, .cout = &C[k][i], .b = &b[k][i],
                                         .lo = &l[k][i], .hi = &h[k][i]};
                    if (i > 0) fixed[nf++] = lanes[k][i];
                }
            }
            for (int64_t f = 0; f < nf; f += MAX_LANES)
                turn_lanes_k(m, nf - f < MAX_LANES ? nf - f : MAX_LANES, fixed + f, 1, 1, NV1, MAX_LANES, level_one,
                             win_other);
            for (int64_t k = 0; k < nb; k++) {
                A[k] = 0.0;                        /* V_1 = A + B V_0, through the fixed seats' turns */
                B[k] = 1.0;
                for (int64_t i = N - 1; i >= 1; i--) { A[k] = C[k][i] + b[k][i] * A[k]; B[k] = b[k][i] * B[k]; }
                /* the first y: the table's own chance there, if given (where it is an equilibrium, one pass) */
                y[k] = W0 ? W0[members[k][1] * N + N - 1] : A[k] + B[k] * 0.5;
                lanes[k][0].y = y[k];
                own[k] = lanes[k][0];
            }
            turn_lanes_k(m, nb, own, 1, 1, NV1, MAX_LANES, level_one, win_self);
            for (int64_t k = 0; k < nb; k++) {
                double v0 = 0.0, residual = INFINITY;
                int64_t passes = 1;
                int settled = 0;
                for (;;) {
                    const double gap = 1.0 - b[k][0] * B[k];
                    if (!(gap > 1e-14)) break;     /* the orbit never ends: not converged */
                    v0 = (C[k][0] + b[k][0] * A[k]) / gap;
                    const double ynew = A[k] + B[k] * v0;
                    const double outside = dmax(dmax(0.0, l[k][0] - ynew), ynew - h[k][0]);
                    if (outside <= eps) {
                        settled = 1;
                        residual = dmax(outside, fabs(C[k][0] + b[k][0] * ynew - v0));
                        break;
                    }
                    if (passes == max_pi) break;
                    lanes[k][0].y = ynew;          /* policy iteration: this orbit alone */
                    turn_lanes_k(m, 1, &lanes[k][0], 1, 1, NV1, MAX_LANES, level_one, win_self);
                    passes++;
                }
                double *st = stats + 3 * (r0 + k);
                st[0] = (double)passes;
                st[1] = residual;
                st[2] = settled ? 1.0 : 0.0;
                V[members[k][0]] = v0;
                double v = v0;
                for (int64_t i = N - 1; i >= 1; i--) {
                    v = C[k][i] + b[k][i] * v;
                    V[i * S + members[k][i]] = v;
                }
                if (dbits)
                    pack_decisions(dbits + members[k][0] * m->nbytes, dec + k * N * plane,
                                   (G - members[k][0] / Gpow) * W1, m->nbytes);
            }
        }
    }
    for (int64_t i = 0; i < MAX_LANES * MAX_N; i++) free_turn_scratch(&ts[i]);
    free(dec); free(scratch);
    return ok ? 0 : -1;
}

/* ---- One rule against N - 1 fixed players, many rules at once (versus.py) ---- */

/* The distribution of one turn's gain from room h = G - s0 under the packed decisions row:
 * out[g], 0 <= g < h, the probability that the turn banks g; out[h] that it reaches the target
 * (a win). Forward over the turn's DAG, t ascending and n descending (a move that gains nothing
 * shrinks n). M is (h, D + 1), A (nd,), R (nd, h) scratch. */
static void turn_gains(const Model *m, int64_t h, const uint8_t *row, double *M, double *A, double *R,
                       double *out) {
    const int64_t G = m->G, D = m->D, W1 = D + 1, nd = m->nd;
    memset(M, 0, sizeof(double) * h * W1);
    memset(A, 0, sizeof(double) * nd);
    memset(R, 0, sizeof(double) * nd * h);
    memset(out, 0, sizeof(double) * (h + 1));
    M[m->start] = 1.0;
    for (int64_t t = 0; t < h; t++) {
        for (int64_t n = D; n >= 1; n--) {
            double mass = M[t * W1 + n];
            if (mass == 0.0) continue;
            int64_t q = t * W1 + n;
            int roll = (t == 0 && n == m->start) || (row[q >> 3] & (128 >> (q & 7)));
            if (!roll) { out[t] += mass; continue; }
            for (int64_t e = m->mv_ptr[n]; e < m->mv_ptr[n + 1]; e++) {
                int64_t t2 = t + m->mv_da[e];
                if (t2 >= h) out[h] += m->mv_p[e] * mass;
                else M[t2 * W1 + m->mv_dst[e]] += m->mv_p[e] * mass;
            }
            for (int64_t e = m->en_ptr[n]; e < m->en_ptr[n + 1]; e++) {
                int64_t j = m->en_dist[e];
                if (m->en_rel[e]) R[j * h + t] += m->en_p[e] * mass;
                else A[j] += m->en_p[e] * mass;
            }
        }
    }
    for (int64_t j = 0; j < nd; j++) {
        const double *d = m->dists + j * (G + 1), *tail = m->tails + j * (G + 2);
        if (m->abs_used[j] && A[j] != 0.0) {
            for (int64_t g = 0; g < h; g++) out[g] += A[j] * d[g];
            out[h] += A[j] * tail[h];
        }
        if (m->rel_used[j]) {
            for (int64_t t = 0; t < h; t++) {
                double r = R[j * h + t];
                if (r == 0.0) continue;
                for (int64_t x = 0; x < h - t; x++) out[t + x] += r * d[x];
                out[h] += r * tail[h - t];
            }
        }
    }
}

/* Gain distributions of rows lo..hi: row i (packed decisions, nbytes each) from room[i], written
 * at out + off[i] (room[i] + 1 values). Returns 0, or -1 when out of memory. */
EXPORT int gains_rows(const Model *m, int64_t lo, int64_t hi, const int64_t *room, const uint8_t *rows,
               const int64_t *off, double *out) {
    const int64_t G = m->G, W1 = m->D + 1, nd = m->nd > 0 ? m->nd : 1;
    double *M = malloc(sizeof(double) * (G + 1) * W1), *A = malloc(sizeof(double) * nd);
    double *R = malloc(sizeof(double) * nd * (G + 1));
    int ok = M && A && R;
    if (ok)
        for (int64_t i = lo; i < hi; i++)
            turn_gains(m, room[i], rows + i * m->nbytes, M, A, R, out + off[i]);
    free(M); free(A); free(R);
    return ok ? 0 : -1;
}

/* Player 0 follows one of K rules, players 1..N-1 fixed decisions. W[(j S + rel_j) K + k] is
 * player 0's win probability under rule k with player j to move, at the scores whose turn order
 * from player j has flat index rel_j (S = G^N states). In that layout the states after player j's
 * turn, gains g = 1, 2, ..., are consecutive in W[j + 1] (the mover's score is the last digit of
 * the next mover's order): the pass streams through memory. The absolute states x (player 0's
 * score the most significant digit) are visited in descending flat order: every state after a
 * gain has a larger index, so it is done, and the states just done, the ones the next reads most,
 * are still in cache. At each x the N turns close a cycle through their zero gains:
 * W_j = a_j + b_j W_{j+1}, W_N = W_0, solved exactly. Player j's gain distribution: for j = 0, rule k's at
 * dcand + coff[k, s0 G + lead] (lead = best opponent score); otherwise the fixed players' at
 * dopt + obase[s_j] + (rel_j mod G^(N-1)) (G - s_j + 1). *gap receives the smallest 1 - prod_j b_j
 * over states and rules (zero: a rule never ends the game). Returns 0, or -1 when out of memory. */
EXPORT int versus_pass(int64_t N, int64_t G, int64_t K, const double *dopt, const int64_t *obase, const double *dcand,
                const int64_t *coff, double *W, double *gap_out) {
    if (N < 2 || N > MAX_N) return -1;
    int64_t pw[MAX_N + 1];
    pw[N - 1] = 1;
    for (int64_t j = N - 2; j >= 0; j--) pw[j] = pw[j + 1] * G;
    const int64_t Gpow = pw[0], S = Gpow * G, GG = G * G;
    double *A = malloc(sizeof(double) * N * K), *B = malloc(sizeof(double) * N * K);
    int ok = A && B;
    double gmin = 1.0;
    if (ok) {
        for (int64_t idx = S - 1; idx >= 0; idx--) {
            int64_t x[MAX_N], rel[MAX_N], lead = 0;
            for (int64_t j = 0; j < N; j++) x[j] = (idx / pw[j]) % G;
            for (int64_t j = 1; j < N; j++) if (x[j] > lead) lead = x[j];
            for (int64_t j = 0; j < N; j++) {
                rel[j] = 0;
                for (int64_t r = 0; r < N; r++) rel[j] += x[(j + r) % N] * pw[r];
            }
            for (int64_t j = 0; j < N; j++) {
                const int64_t h = G - x[j], nj = (j + 1) % N;
                const double *next = W + (nj * S + rel[nj]) * K;     /* gain g: next + g K */
                if (j == 0) {
                    for (int64_t k = 0; k < K; k++) {
                        const double *d = dcand + coff[k * GG + x[0] * G + lead];
                        double a = d[h];
                        for (int64_t g = 1; g < h; g++) a += d[g] * next[g * K + k];
                        A[k] = a;
                        B[k] = d[0];
                    }
                } else {
                    const double *d = dopt + obase[x[j]] + (rel[j] % Gpow) * (h + 1);
                    double *a = A + j * K;
                    for (int64_t k = 0; k < K; k++) B[j * K + k] = d[0];
                    int64_t k = 0;
                    for (; k + 4 <= K; k += 4) {      /* four independent sums per sweep */
                        double a0 = 0.0, a1 = 0.0, a2 = 0.0, a3 = 0.0;
                        for (int64_t g = 1; g < h; g++) {
                            const double p = d[g], *w = next + g * K + k;
                            a0 += p * w[0]; a1 += p * w[1]; a2 += p * w[2]; a3 += p * w[3];
                        }
                        a[k] = a0; a[k + 1] = a1; a[k + 2] = a2; a[k + 3] = a3;
                    }
                    for (; k < K; k++) {
                        double a0 = 0.0;
                        for (int64_t g = 1; g < h; g++) a0 += d[g] * next[g * K + k];
                        a[k] = a0;
                    }
                }
            }
            for (int64_t k = 0; k < K; k++) {
                double coef = 1.0, num = 0.0;
                for (int64_t j = 0; j < N; j++) {
                    num += coef * A[j * K + k];
                    coef *= B[j * K + k];
                }
                double gap = 1.0 - coef, v = num / gap;
                if (gap < gmin) gmin = gap;
                W[rel[0] * K + k] = v;
                for (int64_t j = N - 1; j >= 1; j--) {
                    v = A[j * K + k] + B[j * K + k] * v;
                    W[(j * S + rel[j]) * K + k] = v;
                }
            }
        }
    }
    *gap_out = gmin;
    free(A); free(B);
    return ok ? 0 : -1;
}
