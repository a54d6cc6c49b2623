/* clang-19 matrix-type kernels for the benchmarks (column (e)).
 *
 * Built twice by build.rs with `-O3 -fenable-matrix -march=native`: once with
 * `-ffp-contract=off` (SUFFIX _off) and once with `-ffp-contract=fast
 * -mprefer-vector-width=512` (SUFFIX _fast).
 *
 * Every kernel runs `n` iterations of one operation on the same operands,
 * with a compiler barrier between iterations (the operands are reloaded and
 * the result stored each time), so the call overhead across the FFI is
 * amortised exactly as the Rust columns' batch loop is.
 */
#include <stddef.h>

#ifndef SUFFIX
#error "build.rs defines SUFFIX"
#endif
#define CAT2(a, b) a##b
#define CAT(a, b) CAT2(a, b)
#define NAME(x) CAT(x, SUFFIX)

#define BARRIER(a, b, o) __asm__ volatile("" : : "r"(a), "r"(b), "r"(o) : "memory")

#define MUL(T, TNAME, N)                                                      \
    typedef T CAT(TNAME, N) __attribute__((matrix_type(N, N)));              \
    void NAME(clang_mul_##TNAME##_##N)(const T *a, const T *b, T *out,      \
                                        size_t n) {                          \
        for (size_t i = 0; i < n; i++) {                                     \
            CAT(TNAME, N) x = __builtin_matrix_column_major_load(a, N, N, N); \
            CAT(TNAME, N) y = __builtin_matrix_column_major_load(b, N, N, N); \
            __builtin_matrix_column_major_store(x * y, out, N);              \
            BARRIER(a, b, out);                                              \
        }                                                                    \
    }

#define MADD(T, TNAME, N)                                                     \
    void NAME(clang_madd_##TNAME##_##N)(const T *a, const T *b, const T *c, \
                                         T *out, size_t n) {                 \
        for (size_t i = 0; i < n; i++) {                                     \
            CAT(TNAME, N) x = __builtin_matrix_column_major_load(a, N, N, N); \
            CAT(TNAME, N) y = __builtin_matrix_column_major_load(b, N, N, N); \
            CAT(TNAME, N) z = __builtin_matrix_column_major_load(c, N, N, N); \
            __builtin_matrix_column_major_store(x * y + z, out, N);          \
            BARRIER(a, b, out);                                              \
            BARRIER(c, c, c);                                                \
        }                                                                    \
    }

/* The form of the `dsl #[dispatch]` columns: `n` operations on consecutive
 * operands, out[i] = a[i] * b[i] (each N*N elements), with no barrier
 * between them, so that clang gets the same work and the same freedom.
 * BLOCK(p, N) is the i-th N x N operand at p. */
#define BLOCK(p, N) __builtin_matrix_column_major_load((p) + i * N * N, N, N, N)
#define MUL_BATCH(T, TNAME, N)                                                \
    void NAME(clang_mul_batch_##TNAME##_##N)(const T *a, const T *b, T *out, \
                                              size_t n) {                    \
        for (size_t i = 0; i < n; i++)                                       \
            __builtin_matrix_column_major_store(BLOCK(a, N) * BLOCK(b, N),   \
                                                out + i * N * N, N);         \
    }
/* As MUL_BATCH, out[i] = a[i] * b[i] + c[i]. */
#define MADD_BATCH(T, TNAME, N)                                               \
    void NAME(clang_madd_batch_##TNAME##_##N)(const T *a, const T *b,        \
                                               const T *c, T *out,           \
                                               size_t n) {                   \
        for (size_t i = 0; i < n; i++)                                       \
            __builtin_matrix_column_major_store(                             \
                BLOCK(a, N) * BLOCK(b, N) + BLOCK(c, N), out + i * N * N, N); \
    }
#define TRANSPOSE(T, TNAME, N)                                                \
    void NAME(clang_transpose_##TNAME##_##N)(const T *a, T *out, size_t n) { \
        for (size_t i = 0; i < n; i++) {                                     \
            CAT(TNAME, N) x = __builtin_matrix_column_major_load(a, N, N, N); \
            __builtin_matrix_column_major_store(__builtin_matrix_transpose(x), \
                                                out, N);                     \
            BARRIER(a, a, out);                                              \
        }                                                                    \
    }

MUL(float, f32x, 3)
MUL(float, f32x, 4)
MUL(float, f32x, 7)
MUL(float, f32x, 8)
MUL(float, f32x, 16)
MUL(float, f32x, 32)
MUL(float, f32x, 64)
MUL(double, f64x, 4)
MUL(double, f64x, 6)
MUL(double, f64x, 8)
MUL(int, i32x, 4)
MUL(long, i64x, 4)
MUL(long, i64x, 8)
MUL(long, i64x, 16)
MADD(float, f32x, 4)
MADD(float, f32x, 8)
MUL_BATCH(float, f32x, 4)
MUL_BATCH(double, f64x, 4)
MUL_BATCH(int, i32x, 4)
MADD_BATCH(float, f32x, 4)
TRANSPOSE(float, f32x, 4)
TRANSPOSE(float, f32x, 8)
TRANSPOSE(float, f32x, 16)
TRANSPOSE(double, f64x, 8)
typedef double f64x16 __attribute__((matrix_type(16, 16)));
TRANSPOSE(double, f64x, 16)
typedef unsigned char u8x16 __attribute__((matrix_type(16, 16)));
TRANSPOSE(unsigned char, u8x, 16)
typedef unsigned short u16x8 __attribute__((matrix_type(8, 8)));
TRANSPOSE(unsigned short, u16x, 8)
typedef unsigned short u16x16 __attribute__((matrix_type(16, 16)));
TRANSPOSE(unsigned short, u16x, 16)
