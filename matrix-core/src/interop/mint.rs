//! Conversions between [`Matrix`]/[`Vector`] and the `mint` crate's types,
//! the interchange types that glam, nalgebra, cgmath, ultraviolet and
//! others convert to and from.
//!
//! * `Matrix<T, R, C>` and `mint::ColumnMatrix{R}x{C}<T>` (`ColumnMatrix{N}`
//!   when square) for `R` and `C` in 2 to 4: the same column-major data.
//!   `IntoMint` names this type.
//! * `Matrix<T, R, C>` and `mint::RowMatrix{R}x{C}<T>`: the rows.
//! * `Matrix<T, R, C, RowMajor>` and `mint::RowMatrix{R}x{C}<T>`: the same
//!   row-major data (`IntoMint` names this type), and the column-major mint
//!   matrices through a conversion.
//! * `Vector<T, N>` and `mint::Vector{N}<T>` for `N` in 2 to 4.

use mint::IntoMint;

use crate::element::Element;
use crate::layout::{ColumnMajor, RowMajor};
use crate::matrix::Matrix;
use crate::vector::{Lanes, Vector};

/// `From` both ways between `Matrix<T, $r, $c>` and the column-major and
/// row-major mint matrices of that shape.
macro_rules! mint_matrices {
    ($($r:literal x $c:literal: $column:ident, $row:ident;)*) => {$(
        impl<T: Element> From<mint::$column<T>> for Matrix<T, $r, $c> {
            /// The matrix with the mint matrix's columns.
            #[inline]
            fn from(m: mint::$column<T>) -> Self {
                let columns: [[T; $r]; $c] = m.into();
                Matrix::from_columns(columns)
            }
        }

        impl<T: Element> From<Matrix<T, $r, $c>> for mint::$column<T> {
            /// The matrix's columns.
            #[inline]
            fn from(m: Matrix<T, $r, $c>) -> Self {
                m.to_columns().into()
            }
        }

        impl<T: Element> From<mint::$row<T>> for Matrix<T, $r, $c> {
            /// The matrix with the mint matrix's rows.
            #[inline]
            fn from(m: mint::$row<T>) -> Self {
                let rows: [[T; $c]; $r] = m.into();
                Matrix::from_rows(rows)
            }
        }

        impl<T: Element> From<Matrix<T, $r, $c>> for mint::$row<T> {
            /// The matrix's rows.
            #[inline]
            fn from(m: Matrix<T, $r, $c>) -> Self {
                m.to_rows().into()
            }
        }

        impl<T: Element> IntoMint for Matrix<T, $r, $c> {
            type MintType = mint::$column<T>;
        }

        impl<T: Element> From<mint::$row<T>> for Matrix<T, $r, $c, RowMajor> {
            /// The row-major matrix with the mint matrix's rows: the same
            /// data in the same order.
            #[inline]
            fn from(m: mint::$row<T>) -> Self {
                let rows: [[T; $c]; $r] = m.into();
                Matrix::from_storage(rows)
            }
        }

        impl<T: Element> From<Matrix<T, $r, $c, RowMajor>> for mint::$row<T> {
            /// The row-major matrix's rows.
            #[inline]
            fn from(m: Matrix<T, $r, $c, RowMajor>) -> Self {
                m.into_storage().into()
            }
        }

        impl<T: Element> From<mint::$column<T>> for Matrix<T, $r, $c, RowMajor> {
            /// The row-major matrix with the mint matrix's columns.
            #[inline]
            fn from(m: mint::$column<T>) -> Self {
                Matrix::<T, $r, $c>::from(m).to_layout()
            }
        }

        impl<T: Element> From<Matrix<T, $r, $c, RowMajor>> for mint::$column<T> {
            /// The row-major matrix's columns.
            #[inline]
            fn from(m: Matrix<T, $r, $c, RowMajor>) -> Self {
                m.to_layout::<ColumnMajor>().into()
            }
        }

        impl<T: Element> IntoMint for Matrix<T, $r, $c, RowMajor> {
            type MintType = mint::$row<T>;
        }
    )*};
}

mint_matrices! {
    2 x 2: ColumnMatrix2, RowMatrix2;
    2 x 3: ColumnMatrix2x3, RowMatrix2x3;
    2 x 4: ColumnMatrix2x4, RowMatrix2x4;
    3 x 2: ColumnMatrix3x2, RowMatrix3x2;
    3 x 3: ColumnMatrix3, RowMatrix3;
    3 x 4: ColumnMatrix3x4, RowMatrix3x4;
    4 x 2: ColumnMatrix4x2, RowMatrix4x2;
    4 x 3: ColumnMatrix4x3, RowMatrix4x3;
    4 x 4: ColumnMatrix4, RowMatrix4;
}

/// `From` both ways between `Vector<T, $n>` and `mint::Vector{$n}<T>`.
macro_rules! mint_vectors {
    ($($n:literal: $vector:ident;)*) => {$(
        impl<T: Lanes<$n>> From<mint::$vector<T>> for Vector<T, $n> {
            /// The vector of the mint vector's components.
            #[inline]
            fn from(v: mint::$vector<T>) -> Self {
                let elements: [T; $n] = v.into();
                Vector::from_array(elements)
            }
        }

        impl<T: Lanes<$n>> From<Vector<T, $n>> for mint::$vector<T> {
            /// The vector's elements as components.
            #[inline]
            fn from(v: Vector<T, $n>) -> Self {
                v.to_array().into()
            }
        }

        impl<T: Lanes<$n>> IntoMint for Vector<T, $n> {
            type MintType = mint::$vector<T>;
        }
    )*};
}

mint_vectors! {
    2: Vector2;
    3: Vector3;
    4: Vector4;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mint_matrices_keep_rows_and_columns() {
        let m = Matrix::<f32, 2, 3>::from_rows([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
        let col: mint::ColumnMatrix2x3<f32> = m.into();
        assert_eq!(col.x, mint::Vector2 { x: 1.0, y: 4.0 });
        assert_eq!(col.z, mint::Vector2 { x: 3.0, y: 6.0 });
        let row: mint::RowMatrix2x3<f32> = m.into();
        assert_eq!(
            row.y,
            mint::Vector3 {
                x: 4.0,
                y: 5.0,
                z: 6.0
            }
        );
        assert_eq!(Matrix::from(col), m);
        assert_eq!(Matrix::from(row), m);
        let back: Matrix<f64, 4, 4> =
            mint::ColumnMatrix4::from(Matrix::<f64, 4, 4>::identity()).into();
        assert_eq!(back, Matrix::identity());
    }

    #[test]
    fn row_major_matrices_are_mint_row_matrices() {
        let m = Matrix::<f32, 2, 3>::from_rows([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
        let rm = m.to_layout::<RowMajor>();
        let row: mint::RowMatrix2x3<f32> = rm.into();
        assert_eq!(row, mint::RowMatrix2x3::from(m));
        assert_eq!(Matrix::<f32, 2, 3, RowMajor>::from(row), rm);
        let col: mint::ColumnMatrix2x3<f32> = rm.into();
        assert_eq!(col, mint::ColumnMatrix2x3::from(m));
        assert_eq!(Matrix::<f32, 2, 3, RowMajor>::from(col), rm);
        // the mint type of a row-major matrix is the row-major one
        let named: <Matrix<f32, 2, 3, RowMajor> as IntoMint>::MintType = rm.into();
        assert_eq!(named, row);
    }

    #[test]
    fn glam_converts_through_mint() {
        let g = glam::Mat4::from_cols_array(&core::array::from_fn(|i| i as f32));
        let m: Matrix<f32, 4, 4> = mint::ColumnMatrix4::from(g).into();
        // both are column-major: the same array
        assert_eq!(m.as_slice(), &g.to_cols_array());
        assert_eq!(m[(1, 2)], g.col(2).y);
        let g2 = glam::Mat4::from(mint::ColumnMatrix4::from(m));
        assert_eq!(g2, g);
        // products agree (exactly representable small integers)
        let p: Matrix<f32, 4, 4> = mint::ColumnMatrix4::from(g * g).into();
        assert_eq!(p, m * m);

        let d = glam::DMat3::from_cols_array(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0]);
        let m3: Matrix<f64, 3, 3> = mint::ColumnMatrix3::from(d).into();
        assert_eq!(m3.to_rows()[0], [1.0, 4.0, 7.0]);

        let v: Vector<f32, 3> = mint::Vector3::from(glam::Vec3::new(1.0, 2.0, 3.0)).into();
        assert_eq!(v.to_array(), [1.0, 2.0, 3.0]);
        assert_eq!(
            glam::Vec3::from(mint::Vector3::from(v)),
            glam::Vec3::new(1.0, 2.0, 3.0)
        );
        let v4: Vector<f32, 4> = mint::Vector4::from(glam::Vec4::new(1.0, 2.0, 3.0, 4.0)).into();
        let gv = glam::Vec4::from(mint::Vector4::from(m * v4));
        assert_eq!(gv, g * glam::Vec4::new(1.0, 2.0, 3.0, 4.0));
        let v2: Vector<f64, 2> = mint::Vector2::from(glam::DVec2::new(0.5, -0.5)).into();
        assert_eq!(v2.to_array(), [0.5, -0.5]);
    }

    #[test]
    fn nalgebra_converts_through_mint() {
        let n = nalgebra::Matrix2x3::new(1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0); // row by row
        // nalgebra implements `Into` (not `From`) towards mint's types
        let mn: mint::ColumnMatrix2x3<f32> = n.into();
        let m: Matrix<f32, 2, 3> = mn.into();
        assert_eq!(m.to_rows(), [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
        let n2: nalgebra::Matrix2x3<f32> = mint::ColumnMatrix2x3::from(m).into();
        assert_eq!(n2, n);

        let a = nalgebra::Matrix4::<f64>::from_fn(|r, c| (r * 4 + c) as f64);
        let an: mint::ColumnMatrix4<f64> = a.into();
        let ma: Matrix<f64, 4, 4> = an.into();
        let p: nalgebra::Matrix4<f64> = mint::ColumnMatrix4::from(ma * ma).into();
        assert_eq!(p, a * a);

        let nv: mint::Vector3<f64> = nalgebra::Vector3::new(1.0, 2.0, 3.0).into();
        let v: Vector<f64, 3> = nv.into();
        assert_eq!(v.to_array(), [1.0, 2.0, 3.0]);
        let nv: nalgebra::Vector3<f64> = mint::Vector3::from(v * 2.0).into();
        assert_eq!(nv, nalgebra::Vector3::new(2.0, 4.0, 6.0));
    }
}
