//! C interop with no copy: functions compiled by clang-19 with
//! `-fenable-matrix` (`examples/c/transform.c`, built by `examples/build.rs`)
//! are called on `Matrix` values by pointer, write their results into our
//! matrices, and compute bit for bit what the same kernels written in
//! `matrix!` compute. A `Matrix<f32, R, C>` has the bytes (size, alignment,
//! column-major order) of Clang's `float __attribute__((matrix_type(R, C)))`,
//! so `&m` is a `const m4x4_t *` to C; a C structure pasted into the block
//! is a `#[repr(C)]` struct with C's bytes, so `&mut camera` is a `camera *`.
//!
//! Run it with `cargo run --example c_interop` (it needs clang-19; without
//! it the example says so and computes the Rust side only).

use matrix_core::matrix;

matrix! {
    /// A transform, as `transform.c` declares it.
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    /// A point, as a 4x1 column.
    pub typedef float m4x1_t __attribute__((matrix_type(4, 1)));
    /// The Gram matrix's type.
    pub typedef double d3x3_t __attribute__((matrix_type(3, 3)));

    /// `a * b + c`, as `c_madd` computes it.
    pub fn madd(a: m4x4_t, b: m4x4_t, c: m4x4_t) -> m4x4_t {
        a * b + c
    }

    /// `c_transform_points`, its C body pasted: each point becomes
    /// `m * point`.
    pub fn transform_points(m: m4x4_t, points: &mut [m4x1_t], count: usize) {
        for (unsigned long i = 0; i < count; i++) {
            points[i] = m * points[i];
        }
    }

    /// `aᵀ a` of the 3x3 matrix at `src` with stride `stride`: `c_gram`'s
    /// body, pasted, its store replaced by a returned value.
    pub fn gram(src: &[double], stride: usize) -> d3x3_t {
        d3x3_t a = __builtin_matrix_column_major_load(src, 3, 3, stride);
        return __builtin_matrix_transpose(a) * a;
    }

    /// A camera, `transform.c`'s structure pasted: a `#[repr(C)]` struct
    /// with the same bytes.
    pub typedef struct camera {
        m4x4_t view;
        float fov, aspect;
        float planes[2];
    } camera;

    /// `c_aim`, pasted whole: its pointer is a one-element slice here.
    pub void aim(camera *c, float k) {
        c->view[0][3] += k;
        c->view = c->view * c->view;
        c->fov *= 0.5f;
        c->planes[1] = c->planes[0] + k;
    }
}

#[cfg(clang_matrix)]
mod c {
    use super::{m4x1_t, m4x4_t};

    #[link(name = "matrix_transform", kind = "static")]
    unsafe extern "C" {
        /// `*out = *a * *b + *c`.
        pub fn c_madd(a: *const m4x4_t, b: *const m4x4_t, c: *const m4x4_t, out: *mut m4x4_t);
        /// `points[i] = *m * points[i]` for `i` in `0..count`.
        pub fn c_transform_points(m: *const m4x4_t, points: *mut m4x1_t, count: usize);
        /// Stores `aᵀ a` (column-major, dense) at `dst`, for the 3x3 `a`
        /// loaded from `src` with stride `stride`.
        pub fn c_gram(src: *const f64, stride: usize, dst: *mut f64);
        /// Moves and narrows the camera at `c`.
        pub fn c_aim(c: *mut super::camera, k: f32);
    }
}

fn main() {
    let a = m4x4_t::from_fn(|r, c| (r * 4 + c) as f32 * 0.25 - 1.0);
    let b = m4x4_t::from_fn(|r, c| 1.0 / (1.0 + r as f32 + 2.0 * c as f32));
    let c = m4x4_t::from_fn(|r, c| if r == c { 0.5 } else { 0.1 });
    let mut points: Vec<m4x1_t> = (0..5)
        .map(|i| m4x1_t::from_column_major(&[i as f32, 1.0 - i as f32, 0.5 * i as f32, 1.0]))
        .collect();
    let stride = 4;
    let src: Vec<f64> = (0..stride * 3).map(|i| (i as f64).sin()).collect();

    let rust_madd = madd(a, b, c);
    let mut rust_points = points.clone();
    transform_points(a, &mut rust_points, points.len());
    let rust_gram = gram(&src, stride);
    let camera0 = camera {
        view: a,
        fov: 1.2,
        aspect: 16.0 / 9.0,
        planes: [0.1, 100.0],
    };
    let mut rust_camera = camera0;
    aim(std::slice::from_mut(&mut rust_camera), 2.5);
    println!("matrix! madd:\n{rust_madd:?}");
    println!("matrix! transformed points: {rust_points:?}");
    println!("matrix! gram:\n{rust_gram:?}");
    println!("matrix! aimed camera: {rust_camera:?}");

    #[cfg(clang_matrix)]
    {
        let mut out = m4x4_t::default();
        let mut gram_out = [0.0f64; 9];
        let mut c_camera = camera0;
        // SAFETY: each pointer comes from a live reference to a value of
        // the type the C function reads or writes: `Matrix<f32, 4, 4>` and
        // `Matrix<f32, 4, 1>` are `#[repr(C)]` arrays with the layout of
        // Clang's `m4x4_t` and `m4x1_t`; `points` holds `count` of them;
        // `src` holds 3 columns of `stride` doubles and `gram_out` 9;
        // `camera` is `#[repr(C)]` with the members of C's `camera` in its
        // order and of its types, so it has C's layout.
        unsafe {
            c::c_madd(&a, &b, &c, &mut out);
            c::c_transform_points(&a, points.as_mut_ptr(), points.len());
            c::c_gram(src.as_ptr(), stride, gram_out.as_mut_ptr());
            c::c_aim(&mut c_camera, 2.5);
        }
        let c_gram = d3x3_t::from_column_major(&gram_out);
        println!("clang-19 c_madd:\n{out:?}");
        println!("clang-19 transformed points: {points:?}");
        println!("clang-19 c_gram:\n{c_gram:?}");
        println!("clang-19 aimed camera: {c_camera:?}");
        let bits = |m: &[f32]| m.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits(out.as_slice()), bits(rust_madd.as_slice()));
        for (c_point, rust_point) in points.iter().zip(&rust_points) {
            assert_eq!(bits(c_point.as_slice()), bits(rust_point.as_slice()));
        }
        let bits64 = |m: &[f64]| m.iter().map(|x| x.to_bits()).collect::<Vec<_>>();
        assert_eq!(bits64(c_gram.as_slice()), bits64(rust_gram.as_slice()));
        assert_eq!(
            bits(c_camera.view.as_slice()),
            bits(rust_camera.view.as_slice())
        );
        let scalars = |c: &camera| bits(&[c.fov, c.aspect, c.planes[0], c.planes[1]]);
        assert_eq!(scalars(&c_camera), scalars(&rust_camera));
        println!("clang-19 and matrix! agree bit for bit on all four");
    }
    #[cfg(not(clang_matrix))]
    println!("SKIPPED the C side: clang-19 was not found when this example was built");
}
