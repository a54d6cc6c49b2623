/* C twin of oracle/src/rt.rs: draws a kernel's inputs from its seed and
 * prints its outputs as 64-bit patterns. Keep the two in step. */
#ifndef ORACLE_RT_H
#define ORACLE_RT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef struct { uint64_t state; } rt_rng;

static inline uint64_t rt_next(rt_rng *r) {
    uint64_t z = (r->state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline long long rt_range(rt_rng *r, long long lo, long long hi) {
    uint64_t span = (uint64_t)hi - (uint64_t)lo + 1;
    if (span == 0) return (long long)rt_next(r);
    return (long long)((uint64_t)lo + rt_next(r) % span);
}

enum { RT_INT, RT_FULL, RT_DYADIC, RT_ICHOICE, RT_FCHOICE };

typedef struct {
    int kind;
    long long lo, hi;
    unsigned shift;
    const long long *ic;
    const double *fc;
    unsigned n;
} rt_dom;

#define RT_DOM_INT(lo, hi) ((rt_dom){RT_INT, (lo), (hi), 0, 0, 0, 0})
#define RT_DOM_FULL ((rt_dom){RT_FULL, 0, 0, 0, 0, 0, 0})
#define RT_DOM_DYADIC(lo, hi, s) ((rt_dom){RT_DYADIC, (lo), (hi), (s), 0, 0, 0})
#define RT_DOM_ICHOICE(arr) \
    ((rt_dom){RT_ICHOICE, 0, 0, 0, (arr), 0, sizeof(arr) / sizeof((arr)[0])})
#define RT_DOM_FCHOICE(arr) \
    ((rt_dom){RT_FCHOICE, 0, 0, 0, 0, (arr), sizeof(arr) / sizeof((arr)[0])})

#define RT_FILL(NAME, T)                                                        \
    static inline void rt_fill_##NAME(rt_rng *r, T *b, size_t n, rt_dom d) {           \
        for (size_t i = 0; i < n; i++) {                                        \
            switch (d.kind) {                                                   \
            case RT_INT: b[i] = (T)rt_range(r, d.lo, d.hi); break;              \
            case RT_FULL: b[i] = (T)rt_next(r); break;                          \
            case RT_DYADIC:                                                     \
                b[i] = (T)((double)rt_range(r, d.lo, d.hi) /                    \
                           (double)(1ULL << d.shift));                          \
                break;                                                          \
            case RT_ICHOICE: b[i] = (T)d.ic[rt_next(r) % d.n]; break;           \
            case RT_FCHOICE: b[i] = (T)d.fc[rt_next(r) % d.n]; break;           \
            }                                                                   \
        }                                                                       \
    }

RT_FILL(i8, signed char)
RT_FILL(i16, short)
RT_FILL(i32, int)
RT_FILL(i64, long)
RT_FILL(u8, unsigned char)
RT_FILL(u16, unsigned short)
RT_FILL(u32, unsigned int)
RT_FILL(u64, unsigned long)
RT_FILL(f32, float)
RT_FILL(f64, double)

#define RT_OUT(NAME, T, CONV)                                                   \
    static inline void rt_out_##NAME(const char *k, const char *l, const T *b,         \
                              size_t n) {                                       \
        printf("@ %s %s %zu", k, l, n);                                         \
        for (size_t i = 0; i < n; i++) printf(" %llu", CONV(b[i]));              \
        putchar('\n');                                                          \
    }

#define RT_SIGNED(x) ((unsigned long long)(long long)(x))
#define RT_UNSIGNED(x) ((unsigned long long)(x))
static inline unsigned long long rt_f32_bits(float x) {
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}
static inline unsigned long long rt_f64_bits(double x) {
    uint64_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

RT_OUT(i8, signed char, RT_SIGNED)
RT_OUT(i16, short, RT_SIGNED)
RT_OUT(i32, int, RT_SIGNED)
RT_OUT(i64, long, RT_SIGNED)
RT_OUT(u8, unsigned char, RT_UNSIGNED)
RT_OUT(u16, unsigned short, RT_UNSIGNED)
RT_OUT(u32, unsigned int, RT_UNSIGNED)
RT_OUT(u64, unsigned long, RT_UNSIGNED)
RT_OUT(f32, float, rt_f32_bits)
RT_OUT(f64, double, rt_f64_bits)

#endif
