//! The `Matrix` value type: layout, constructors, accessors, formatting,
//! panics and casts.

use matrix_core::{CastFrom, Element, LengthError, Matrix};
use matrix_tests::{Rng, Scalar, assert_same};

// ---------------------------------------------------------------------------
// Layout

fn check_layout<T: Element, const R: usize, const C: usize>() {
    assert_eq!(
        size_of::<Matrix<T, R, C>>(),
        R * C * size_of::<T>(),
        "size_of Matrix<{}, {R}, {C}>",
        T::C_NAME
    );
    assert_eq!(
        align_of::<Matrix<T, R, C>>(),
        align_of::<T>(),
        "align_of Matrix<{}, {R}, {C}>",
        T::C_NAME
    );
}

#[test]
fn size_and_alignment_match_the_elements() {
    check_layout::<f32, 4, 4>();
    check_layout::<f32, 2, 3>();
    check_layout::<f32, 3, 3>();
    check_layout::<f64, 3, 3>();
    check_layout::<f64, 1, 7>();
    check_layout::<i8, 3, 5>();
    check_layout::<u8, 1, 1>();
    check_layout::<i16, 7, 1>();
    check_layout::<u16, 5, 5>();
    check_layout::<i32, 16, 16>();
    check_layout::<u32, 13, 9>();
    check_layout::<i64, 2, 2>();
    check_layout::<u64, 3, 1>();
}

#[test]
fn memory_is_column_major() {
    // H1: m[r][c] = 10r + c, then memcpy: 0 10 1 11 2 12
    let m = Matrix::<f32, 2, 3>::from_fn(|r, c| (10 * r + c) as f32);
    assert_eq!(m.as_slice(), &[0.0, 10.0, 1.0, 11.0, 2.0, 12.0]);
    let bytes: Vec<u8> = m.as_slice().iter().flat_map(|x| x.to_ne_bytes()).collect();
    // The slice covers the whole value: same address, same length.
    assert_eq!(bytes.len(), size_of_val(&m));
    assert_eq!(
        m.as_slice().as_ptr() as usize,
        &m as *const Matrix<f32, 2, 3> as usize
    );
}

// ---------------------------------------------------------------------------
// Constructors

#[test]
fn constructors_agree() {
    let rows = [[1, 2, 3], [4, 5, 6]];
    let columns = [[1, 4], [2, 5], [3, 6]];
    let a = Matrix::<i32, 2, 3>::from_rows(rows);
    let b = Matrix::<i32, 2, 3>::from_columns(columns);
    let c = Matrix::<i32, 2, 3>::from_column_major(&[1, 4, 2, 5, 3, 6]);
    let d = Matrix::<i32, 2, 3>::from_row_major(&[1, 2, 3, 4, 5, 6]);
    let e = Matrix::<i32, 2, 3>::try_from_column_major(&[1, 4, 2, 5, 3, 6]).unwrap();
    let f = Matrix::<i32, 2, 3>::try_from_row_major(&[1, 2, 3, 4, 5, 6]).unwrap();
    let g = Matrix::<i32, 2, 3>::from_fn(|r, c| (3 * r + c + 1) as i32);
    let h: Matrix<i32, 2, 3> = columns.into();
    for m in [b, c, d, e, f, g, h] {
        assert_eq!(m, a);
    }
    assert_eq!(a.to_rows(), rows);
    assert_eq!(a.to_columns(), columns);
    assert_eq!(a.as_columns(), &columns);
}

#[test]
fn splat_zero_default_identity() {
    assert_eq!(Matrix::<u16, 2, 3>::splat(7).as_slice(), &[7; 6]);
    assert_eq!(Matrix::<f64, 3, 2>::zero().as_slice(), &[0.0; 6]);
    assert!(
        Matrix::<f64, 3, 2>::zero()
            .as_slice()
            .iter()
            .all(|x| x.is_sign_positive())
    );
    assert_eq!(Matrix::<i8, 4, 1>::default(), Matrix::zero());
    assert_eq!(
        Matrix::<f32, 3, 3>::identity().to_rows(),
        [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    );
    assert_eq!(Matrix::<u64, 1, 1>::identity().as_slice(), &[1]);
}

#[test]
fn from_fn_visits_column_major() {
    let mut order = Vec::new();
    let _ = Matrix::<u8, 2, 2>::from_fn(|r, c| {
        order.push((r, c));
        0
    });
    assert_eq!(order, [(0, 0), (1, 0), (0, 1), (1, 1)]);
}

#[test]
fn length_errors() {
    let err = Matrix::<f32, 4, 3>::try_from_column_major(&[0.0; 10]).unwrap_err();
    assert_eq!(err.expected(), 12);
    assert_eq!(err.actual(), 10);
    assert_eq!(
        err.to_string(),
        "a 4x3 matrix needs 12 elements, but the slice has 10"
    );
    let err: LengthError = Matrix::<u8, 1, 2>::try_from_row_major(&[1, 2, 3]).unwrap_err();
    assert_eq!((err.expected(), err.actual()), (2, 3));
    let boxed: Box<dyn std::error::Error> = Box::new(err);
    assert!(boxed.to_string().contains("needs 2 elements"));
}

#[test]
#[should_panic(
    expected = "Matrix::from_column_major: a 4x3 matrix needs 12 elements, but the slice has 10"
)]
fn from_column_major_wrong_length() {
    let _ = Matrix::<f32, 4, 3>::from_column_major(&[0.0; 10]);
}

#[test]
#[should_panic(
    expected = "Matrix::from_row_major: a 2x2 matrix needs 4 elements, but the slice has 5"
)]
fn from_row_major_wrong_length() {
    let _ = Matrix::<i64, 2, 2>::from_row_major(&[0; 5]);
}

// ---------------------------------------------------------------------------
// Accessors

#[test]
fn indexing_and_get() {
    let mut m = Matrix::<i32, 3, 4>::from_fn(|r, c| (10 * r + c) as i32);
    for r in 0..3 {
        for c in 0..4 {
            let v = (10 * r + c) as i32;
            assert_eq!(m[(r, c)], v);
            assert_eq!(m.get(r, c), Some(v));
            assert_eq!(m.as_slice()[c * 3 + r], v);
        }
    }
    assert_eq!(m.get(3, 0), None);
    assert_eq!(m.get(0, 4), None);
    assert_eq!(m.get(usize::MAX, usize::MAX), None);
    m[(2, 3)] = -1;
    *m.get_mut(0, 0).unwrap() = -2;
    assert!(m.get_mut(0, 4).is_none());
    m.as_mut_slice()[1] = -3; // (1, 0)
    m.as_columns_mut()[2][0] = -4; // (0, 2)
    assert_eq!(
        m.to_rows(),
        [[-2, 1, -4, 3], [-3, 11, 12, 13], [20, 21, 22, -1]]
    );
}

#[test]
fn rows_columns_and_consts() {
    let m = Matrix::<u8, 2, 3>::from_rows([[1, 2, 3], [4, 5, 6]]);
    assert_eq!(Matrix::<u8, 2, 3>::ROWS, 2);
    assert_eq!(Matrix::<u8, 2, 3>::COLS, 3);
    assert_eq!(m.row(0), [1, 2, 3]);
    assert_eq!(m.row(1), [4, 5, 6]);
    assert_eq!(m.column(0), [1, 4]);
    assert_eq!(m.column(2), [3, 6]);
}

#[test]
fn transpose_map_zip_map_fill() {
    let m = Matrix::<i16, 2, 3>::from_rows([[1, 2, 3], [4, 5, 6]]);
    let t: Matrix<i16, 3, 2> = m.transpose();
    assert_eq!(t.to_rows(), [[1, 4], [2, 5], [3, 6]]);
    assert_eq!(t.transpose(), m);
    assert_eq!(m.map(|x| x * 2).to_rows(), [[2, 4, 6], [8, 10, 12]]);
    let f: Matrix<f32, 2, 3> = m.map(|x| f32::from(x) / 2.0);
    assert_eq!(f.row(1), [2.0, 2.5, 3.0]);
    let z: Matrix<i32, 2, 3> = m.zip_map(f, |a, b| i32::from(a) + b as i32);
    assert_eq!(z.to_rows(), [[1, 3, 4], [6, 7, 9]]);
    let mut g = m;
    g.fill(9);
    assert_eq!(g, Matrix::splat(9));
}

#[test]
#[should_panic(expected = "matrix index (4, 0) is outside the allowed range [0, 4) x [0, 4)")]
fn index_row_out_of_range() {
    let m = Matrix::<f32, 4, 4>::zero();
    let _ = m[(4, 0)];
}

#[test]
#[should_panic(expected = "matrix index (1, 3) is outside the allowed range [0, 2) x [0, 3)")]
fn index_mut_column_out_of_range() {
    let mut m = Matrix::<u8, 2, 3>::zero();
    m[(1, 3)] = 1;
}

#[test]
#[should_panic(expected = "matrix row index 2 is outside the allowed range [0, 2)")]
fn row_out_of_range() {
    let _ = Matrix::<u8, 2, 3>::zero().row(2);
}

#[test]
#[should_panic(expected = "matrix column index 3 is outside the allowed range [0, 3)")]
fn column_out_of_range() {
    let _ = Matrix::<u8, 2, 3>::zero().column(3);
}

// ---------------------------------------------------------------------------
// Formatting

#[test]
fn display_prints_rows() {
    let m = Matrix::<i32, 2, 3>::from_rows([[1, 2, 3], [4, 5, 6]]);
    assert_eq!(m.to_string(), "[[1, 2, 3],\n [4, 5, 6]]");
    assert_eq!(
        Matrix::<u8, 1, 4>::from_rows([[1, 2, 3, 4]]).to_string(),
        "[[1, 2, 3, 4]]"
    );
    assert_eq!(
        Matrix::<i8, 3, 1>::from_rows([[-1], [0], [1]]).to_string(),
        "[[-1],\n [0],\n [1]]"
    );
    assert_eq!(Matrix::<f64, 1, 1>::splat(-0.0).to_string(), "[[-0]]");
}

#[test]
fn display_honours_width_and_precision() {
    let m = Matrix::<f32, 2, 2>::from_rows([[1.0, 2.5], [-3.25, 400.0]]);
    assert_eq!(format!("{m}"), "[[1, 2.5],\n [-3.25, 400]]");
    assert_eq!(format!("{m:.2}"), "[[1.00, 2.50],\n [-3.25, 400.00]]");
    assert_eq!(
        format!("{m:8.1}"),
        "[[     1.0,      2.5],\n [    -3.2,    400.0]]"
    );
    assert_eq!(format!("{m:+}"), "[[+1, +2.5],\n [-3.25, +400]]");
    let i = Matrix::<i32, 2, 2>::from_rows([[1, -20], [300, 4]]);
    assert_eq!(format!("{i:4}"), "[[   1,  -20],\n [ 300,    4]]");
    assert_eq!(format!("{i:<4}"), "[[1   , -20 ],\n [300 , 4   ]]");
    assert_eq!(format!("{i:04}"), "[[0001, -020],\n [0300, 0004]]");
}

#[test]
fn debug_names_type_and_rows() {
    let m = Matrix::<f32, 2, 2>::from_rows([[1.0, 2.0], [3.0, 4.0]]);
    assert_eq!(
        format!("{m:?}"),
        "Matrix<float, 2x2> [[1.0, 2.0], [3.0, 4.0]]"
    );
    let u = Matrix::<u64, 1, 2>::from_rows([[1, 2]]);
    assert_eq!(format!("{u:?}"), "Matrix<unsigned long, 1x2> [[1, 2]]");
}

// ---------------------------------------------------------------------------
// Traits

#[test]
fn copy_eq_hash() {
    use std::collections::HashSet;
    let a = Matrix::<i32, 2, 2>::identity();
    let b = a; // Copy
    assert_eq!(a, b);
    assert_ne!(a, Matrix::zero());
    let set: HashSet<_> = [a, b, Matrix::zero()].into_iter().collect();
    assert_eq!(set.len(), 2);
    // Float matrices compare with IEEE equality.
    assert_eq!(
        Matrix::<f32, 1, 1>::splat(0.0),
        Matrix::<f32, 1, 1>::splat(-0.0)
    );
    assert_ne!(
        Matrix::<f32, 1, 1>::splat(f32::NAN),
        Matrix::<f32, 1, 1>::splat(f32::NAN)
    );
}

#[test]
fn element_constants() {
    fn check<T: Element>(name: &str, float: bool) {
        assert_eq!(T::C_NAME, name);
        assert_eq!(T::IS_FLOAT, float);
        assert_eq!(T::ZERO, T::default());
        assert_ne!(T::ONE, T::ZERO);
    }
    check::<i8>("signed char", false);
    check::<i16>("short", false);
    check::<i32>("int", false);
    check::<i64>("long", false);
    check::<u8>("unsigned char", false);
    check::<u16>("unsigned short", false);
    check::<u32>("unsigned int", false);
    check::<u64>("unsigned long", false);
    check::<f32>("float", true);
    check::<f64>("double", true);
}

// ---------------------------------------------------------------------------
// Casts: every pair of element types, against `as`

/// Values of a source type that exercise `as`: extremes, signs, fractions,
/// NaN and infinities, then random ones.
trait Specials: Scalar {
    fn specials() -> Vec<Self>;
}

macro_rules! int_specials {
    ($($t:ident),*) => {$(
        impl Specials for $t {
            fn specials() -> Vec<Self> {
                let mut v = vec![$t::MIN, $t::MAX, 0, 1, $t::MAX / 2, $t::MIN / 2 + 1];
                v.extend([127u8, 128, 255].map(|x| x as $t));
                v.extend([256u16, 32767, 32768, 65535].map(|x| x as $t));
                v.extend([16_777_217u64, 4_294_967_295, 9_007_199_254_740_993].map(|x| x as $t));
                v
            }
        }
    )*};
}

int_specials!(i8, i16, i32, i64, u8, u16, u32, u64);

macro_rules! float_specials {
    ($($t:ident),*) => {$(
        impl Specials for $t {
            fn specials() -> Vec<Self> {
                vec![
                    0.0, -0.0, 0.5, -0.5, 1.7, -1.7, 2.5, -2.5, 127.9, 128.0, -128.9, -129.0,
                    255.5, 256.0, 65535.9, 65536.0, -32768.5, 3e9, -3e9, 1e19, -1e19,
                    16_777_217.0, 1e30, -1e30,
                    $t::MAX, $t::MIN, $t::MIN_POSITIVE, $t::EPSILON,
                    $t::INFINITY, $t::NEG_INFINITY, $t::NAN, -$t::NAN,
                ]
            }
        }
    )*};
}

float_specials!(f32, f64);

/// A 4x16 matrix of `S`'s specials (then random values), cast to `U`, must
/// equal `as` applied to each element.
fn check_cast<S: Specials, U: Scalar>(as_cast: impl Fn(S) -> U) {
    let mut values = S::specials();
    let mut rng = Rng::new(values.len() as u64);
    while values.len() < 64 {
        values.push(rng.scalar());
    }
    let m = Matrix::<S, 4, 16>::from_column_major(&values);
    let expected: Vec<U> = values.iter().map(|&x| as_cast(x)).collect();
    let what = format!("cast {} -> {}", S::C_NAME, U::C_NAME);
    assert_same(m.cast::<U>().as_slice(), &expected, &what);
    let one_by_one: Vec<U> = values.iter().map(|&x| U::cast_from(x)).collect();
    assert_same(&one_by_one, &expected, &what);
}

macro_rules! cast_from_source {
    ($s:ident => $($u:ident),*) => {
        $( check_cast::<$s, $u>(|x| x as $u); )*
    };
}

macro_rules! cast_tests {
    ($($name:ident: $s:ident),*) => {$(
        #[test]
        fn $name() {
            cast_from_source!($s => i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);
        }
    )*};
}

cast_tests!(
    cast_from_i8: i8, cast_from_i16: i16, cast_from_i32: i32, cast_from_i64: i64,
    cast_from_u8: u8, cast_from_u16: u16, cast_from_u32: u32, cast_from_u64: u64,
    cast_from_f32: f32, cast_from_f64: f64
);

#[test]
fn float_to_int_saturates() {
    // H13 and Rust's saturation where C is undefined.
    let f = Matrix::<f32, 2, 3>::from_rows([[-1.7, 1.7, f32::NAN], [2.5, -0.5, 1e10]]);
    assert_eq!(f.cast::<i32>().to_rows(), [[-1, 1, 0], [2, 0, i32::MAX]]);
    assert_eq!(f.cast::<u8>().to_rows(), [[0, 1, 0], [2, 0, 255]]);
    let n = Matrix::<f64, 1, 2>::from_rows([[f64::NEG_INFINITY, -1e300]]);
    assert_eq!(n.cast::<i64>().to_rows(), [[i64::MIN, i64::MIN]]);
}
