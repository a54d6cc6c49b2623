/* Compiled by clang-19 with -fenable-matrix (examples/build.rs) and called
 * from examples/c_interop.rs on matrix_core::Matrix values by pointer: a
 * Matrix<float, R, C> has the bytes of float __attribute__((matrix_type(R,
 * C))), so no copy is made either way. */

typedef float m4x4_t __attribute__((matrix_type(4, 4)));
typedef float m4x1_t __attribute__((matrix_type(4, 1)));
typedef double d3x3_t __attribute__((matrix_type(3, 3)));

/* out = a * b + c, through the matrix types themselves. */
void c_madd(const m4x4_t *a, const m4x4_t *b, const m4x4_t *c, m4x4_t *out) {
    *out = *a * *b + *c;
}

/* Transforms `count` points (4x1 columns) by `m` in place. */
void c_transform_points(const m4x4_t *m, m4x1_t *points, unsigned long count) {
    for (unsigned long i = 0; i < count; i++) {
        points[i] = *m * points[i];
    }
}

/* The same kind of work through the specification's builtins on a plain
 * column-major array with a stride, as C code keeps matrices in buffers. */
void c_gram(const double *src, unsigned long stride, double *dst) {
    d3x3_t a = __builtin_matrix_column_major_load(src, 3, 3, stride);
    __builtin_matrix_column_major_store(__builtin_matrix_transpose(a) * a, dst, 3);
}

/* A camera: a structure of a matrix, scalars and an array. Its Rust twin,
 * pasted into a `matrix!` block, has the same bytes (`#[repr(C)]`). */
typedef struct camera {
    m4x4_t view;
    float fov, aspect;
    float planes[2];
} camera;

/* Moves the camera by `k` along its view's last column and halves its
 * field of view. */
void c_aim(camera *c, float k) {
    c->view[0][3] += k;
    c->view = c->view * c->view;
    c->fov *= 0.5f;
    c->planes[1] = c->planes[0] + k;
}
