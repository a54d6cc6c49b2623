//! Clang's ext_vector_type vectors inside kernels: components, swizzles
//! as values and places, element-wise arithmetic with scalar splat,
//! comparisons giving mask vectors, and matrix-vector products.
use matrix_core::{Vector, matrix};

fn _uses(_: Vector<f32, 1>) {}

matrix! {
    pub typedef float float4 __attribute__((ext_vector_type(4)));
    pub typedef float float3 __attribute__((ext_vector_type(3)));
    pub typedef float float2 __attribute__((ext_vector_type(2)));
    pub typedef int int4 __attribute__((ext_vector_type(4)));
    pub type double2 = Vector<f64, 2>;
    pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
    pub typedef float m3x4_t __attribute__((matrix_type(3, 4)));

    pub fn components(v: float4) -> f32 {
        v.x + v.y * 10.0 + v.b * 100.0 + v.s3 * 1000.0 + v[1]
    }

    pub fn indexed(mut v: float4, i: i32) -> f32 {
        v[3] = v[i] * 2;
        v[3] + v[i as usize]
    }

    pub fn reverse(v: float4) -> float4 {
        v.wzyx
    }

    pub fn halves(v: float4) -> float2 {
        v.lo + v.hi * 2 + v.even - v.odd
    }

    pub fn set_xy(mut v: float4, w: float2) -> float4 {
        v.yx = w;
        v.z = 9.0;
        v.w += 1.0;
        v
    }

    pub fn arithmetic(a: float3, b: float3, i: i32, d: f64) -> float3 {
        (a + b) * 2 - a / b + i + d
    }

    pub fn wraps(a: int4, k: i64) -> int4 {
        a * 3 + k
    }

    pub fn less(a: float4, b: float4) -> int4 {
        a < b
    }

    pub fn transform(m: m3x4_t, v: float4) -> float3 {
        m * v
    }

    pub fn row(v: float3, m: m3x4_t) -> float4 {
        v * m
    }

    pub fn literals(x: f32, v: float2) -> float4 {
        let a = (float4){x, 1, v.x, v[1]};
        let b = (float4){v.y, v.x, 2.5f32};
        let c = (float4)(x) + (float4) 2;
        (float4){a} + b * c
    }

    pub fn convert(v: float4) -> int4 {
        __builtin_convertvector(v * 2, int4)
    }

    // A cast or an operator between vector types whose elements fill as
    // many bytes reads the bytes as they are (Clang's bit cast); an
    // operator gives the left operand's type.
    pub fn bits(v: float4, mut i: int4) -> float4 {
        let magnitude = (float4)((int4) v & 0x7fff_ffff);
        i += v;
        magnitude + (i - v)
    }

    pub fn lines(m: m3x4_t, v: float3, w: float4, j: usize) -> m3x4_t {
        let c = __builtin_matrix_column(m, j) + v;
        let r = __builtin_matrix_row(m, 2) * w;
        __builtin_matrix_insert_row(__builtin_matrix_insert_column(m, 0, c), 1, r)
    }

    pub fn splat_assign(mut v: double2) -> double2 {
        v.y = v.x;
        v = 0.5;
        v.x += 1.0;
        v
    }
}

fn main() {
    let v = float4::from_array([1.0, 2.0, 3.0, 4.0]);
    assert_eq!(components(v), 1.0 + 20.0 + 300.0 + 4000.0 + 2.0);
    assert_eq!(reverse(v).to_array(), [4.0, 3.0, 2.0, 1.0]);
    assert_eq!(indexed(v, 1), 4.0 + 2.0);
    let out_of_range = std::panic::catch_unwind(|| indexed(v, 4)).unwrap_err();
    assert_eq!(
        out_of_range.downcast_ref::<String>().map(String::as_str),
        Some("vector index 4 is outside the allowed range [0, 4)")
    );
    // lo = (1, 2), hi = (3, 4), even = (1, 3), odd = (2, 4)
    assert_eq!(halves(v).to_array(), [1.0 + 6.0 + 1.0 - 2.0, 2.0 + 8.0 + 3.0 - 4.0]);
    let w = float2::from_array([7.0, 8.0]);
    assert_eq!(set_xy(v, w).to_array(), [8.0, 7.0, 9.0, 5.0]);
    let (a, b) = (float3::from_array([1.0, 2.0, 4.0]), float3::splat(2.0));
    let want = a.zip_map(b, |x, y| (x + y) * 2.0 - x / y + 3.0 + 0.5);
    assert_eq!(arithmetic(a, b, 3, 0.5), want);
    let big = int4::from_array([i32::MAX, -1, 0, 5]);
    assert_eq!(wraps(big, 1 << 33).to_array(), [i32::MAX.wrapping_mul(3), -3, 0, 15]);
    let b4 = float4::from_array([0.0, 3.0, 3.0, 4.0]);
    assert_eq!(less(v, b4).to_array(), [0, -1, 0, 0]);
    let m = m3x4_t::from_fn(|r, c| (r * 4 + c) as f32);
    assert_eq!(transform(m, v), m * v);
    assert_eq!(row(a, m), a * m);
    assert_eq!(splat_assign(double2::zero()).to_array(), [1.5, 0.5]);
    let v3 = float3::from_array([1.0, 2.0, 3.0]);
    let mut want = m;
    want.as_columns_mut()[0] = (float3::from_array(m.column(3)) + v3).to_array();
    for (c, x) in (float4::from_array(m.row(2)) * v).to_array().into_iter().enumerate() {
        want[(1, c)] = x;
    }
    assert_eq!(lines(m, v3, v, 3), want);
    let (x, v2) = (3.0, float2::from_array([5.0, 6.0]));
    let a = float4::from_array([3.0, 1.0, 5.0, 6.0]);
    let b = float4::from_array([6.0, 5.0, 2.5, 0.0]);
    assert_eq!(literals(x, v2), a + b * float4::splat(5.0));
    let f = float4::from_array([1.25, -1.75, 1e9, -0.0]);
    assert_eq!(convert(f).to_array(), [2, -3, 2_000_000_000, 0]);
    // |f| + ((bits(1) + f as bits) - f as bits), each lane: |f| + bits(1) read as a float.
    let one = f32::from_bits(1);
    assert_eq!(
        bits(f, int4::splat(1)).to_array(),
        f.to_array().map(|x| x.abs() + one)
    );
}
