//! `serde`'s `Serialize` and `Deserialize`: a [`Matrix`] as its rows, each
//! an array of its elements (a 2x3 matrix is `[[a, b, c], [d, e, f]]`, the
//! way it is written down, whatever the memory order), a [`Vector`] as the
//! flat array of its `N` elements. Deserializing another shape is an error.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, SeqAccess, Visitor};
use serde::ser::{SerializeTuple, Serializer};
use serde::{Deserialize, Serialize};

use crate::element::Element;
use crate::layout::Layout;
use crate::matrix::Matrix;
use crate::vector::{Lanes, Vector};

/// Row `.1` of the matrix `.0`, serialized as an array.
struct Row<'a, T: Element, const R: usize, const C: usize, L: Layout>(
    &'a Matrix<T, R, C, L>,
    usize,
);

impl<T: Element + Serialize, const R: usize, const C: usize, L: Layout> Serialize
    for Row<'_, T, R, C, L>
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut row = serializer.serialize_tuple(C)?;
        for c in 0..C {
            row.serialize_element(&self.0[(self.1, c)])?;
        }
        row.end()
    }
}

impl<T: Element + Serialize, const R: usize, const C: usize, L: Layout> Serialize
    for Matrix<T, R, C, L>
{
    /// The rows, each an array of `C` elements.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut rows = serializer.serialize_tuple(R)?;
        for r in 0..R {
            rows.serialize_element(&Row(self, r))?;
        }
        rows.end()
    }
}

impl<T: Lanes<N> + Serialize, const N: usize> Serialize for Vector<T, N> {
    /// The `N` elements (not the padding lanes).
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut elements = serializer.serialize_tuple(N)?;
        for x in self.as_array() {
            elements.serialize_element(x)?;
        }
        elements.end()
    }
}

/// Reads exactly `len` elements from `seq`, handing each to `put` with its
/// index; `expecting` names the whole value in the error of a wrong length.
fn fill<'de, T: Deserialize<'de>, A: SeqAccess<'de>>(
    seq: &mut A,
    len: usize,
    mut put: impl FnMut(usize, T),
    expecting: &dyn de::Expected,
) -> Result<(), A::Error> {
    for i in 0..len {
        match seq.next_element()? {
            Some(x) => put(i, x),
            None => return Err(de::Error::invalid_length(i, expecting)),
        }
    }
    end(seq, len, expecting)
}

/// An error if `seq`, of which `len` elements were read, has more; the
/// error counts them all.
fn end<'de, A: SeqAccess<'de>>(
    seq: &mut A,
    len: usize,
    expecting: &dyn de::Expected,
) -> Result<(), A::Error> {
    let mut total = len;
    while seq.next_element::<IgnoredAny>()?.is_some() {
        total += 1;
    }
    if total == len {
        Ok(())
    } else {
        Err(de::Error::invalid_length(total, expecting))
    }
}

/// What a matrix's rows or a vector's elements are expected to be, for
/// error messages.
struct Shape {
    rows: usize,
    cols: usize,
    /// `Some(r)`: the message is about row `r`.
    row: Option<usize>,
}

impl Shape {
    /// A whole `rows`x`cols` matrix.
    fn matrix(rows: usize, cols: usize) -> Shape {
        Shape {
            rows,
            cols,
            row: None,
        }
    }
}

impl de::Expected for Shape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.row {
            Some(r) => write!(
                f,
                "row {r} of a {}x{} matrix: an array of {} elements",
                self.rows, self.cols, self.cols
            ),
            None => write!(
                f,
                "a {}x{} matrix: an array of {} rows of {} elements",
                self.rows, self.cols, self.rows, self.cols
            ),
        }
    }
}

/// Deserializes row `row` of `matrix` in place.
struct RowSeed<'a, T: Element, const R: usize, const C: usize, L: Layout> {
    matrix: &'a mut Matrix<T, R, C, L>,
    row: usize,
}

impl<'de, T: Element + Deserialize<'de>, const R: usize, const C: usize, L: Layout>
    DeserializeSeed<'de> for RowSeed<'_, T, R, C, L>
{
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_tuple(C, self)
    }
}

impl<'de, T: Element + Deserialize<'de>, const R: usize, const C: usize, L: Layout> Visitor<'de>
    for RowSeed<'_, T, R, C, L>
{
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        de::Expected::fmt(&self.shape(), f)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let (row, shape) = (self.row, self.shape());
        fill(&mut seq, C, |c, x| self.matrix[(row, c)] = x, &shape)
    }
}

impl<T: Element, const R: usize, const C: usize, L: Layout> RowSeed<'_, T, R, C, L> {
    fn shape(&self) -> Shape {
        Shape {
            rows: R,
            cols: C,
            row: Some(self.row),
        }
    }
}

/// Deserializes a whole matrix, row by row.
struct MatrixVisitor<T, const R: usize, const C: usize, L>(PhantomData<(T, L)>);

impl<'de, T: Element + Deserialize<'de>, const R: usize, const C: usize, L: Layout> Visitor<'de>
    for MatrixVisitor<T, R, C, L>
{
    type Value = Matrix<T, R, C, L>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        de::Expected::fmt(&Shape::matrix(R, C), f)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut matrix = Matrix::default();
        for row in 0..R {
            let seed = RowSeed {
                matrix: &mut matrix,
                row,
            };
            if seq.next_element_seed(seed)?.is_none() {
                return Err(de::Error::invalid_length(row, &Shape::matrix(R, C)));
            }
        }
        end(&mut seq, R, &Shape::matrix(R, C))?;
        Ok(matrix)
    }
}

impl<'de, T: Element + Deserialize<'de>, const R: usize, const C: usize, L: Layout> Deserialize<'de>
    for Matrix<T, R, C, L>
{
    /// An array of `R` rows, each an array of `C` elements; any other shape
    /// is an error.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_tuple(R, MatrixVisitor(PhantomData))
    }
}

/// Deserializes a vector of `N` elements.
struct VectorVisitor<T, const N: usize>(PhantomData<T>);

/// What a vector is expected to be, for error messages.
struct VectorShape(usize);

impl de::Expected for VectorShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a vector of {} elements", self.0)
    }
}

impl<'de, T: Lanes<N> + Deserialize<'de>, const N: usize> Visitor<'de> for VectorVisitor<T, N> {
    type Value = Vector<T, N>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        de::Expected::fmt(&VectorShape(N), f)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut v = Vector::zero();
        fill(&mut seq, N, |i, x| v[i] = x, &VectorShape(N))?;
        Ok(v)
    }
}

impl<'de, T: Lanes<N> + Deserialize<'de>, const N: usize> Deserialize<'de> for Vector<T, N> {
    /// An array of exactly `N` elements.
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_tuple(N, VectorVisitor(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrices_are_rows_of_elements() {
        let m = Matrix::<i32, 2, 3>::from_rows([[1, 2, 3], [4, 5, 6]]);
        let json = serde_json::to_string(&m).unwrap();
        assert_eq!(json, "[[1,2,3],[4,5,6]]");
        assert_eq!(serde_json::from_str::<Matrix<i32, 2, 3>>(&json).unwrap(), m);

        let f = Matrix::<f64, 3, 1>::from_rows([[0.5], [-1.25], [1e300]]);
        let json = serde_json::to_string(&f).unwrap();
        assert_eq!(json, "[[0.5],[-1.25],[1e+300]]");
        assert_eq!(serde_json::from_str::<Matrix<f64, 3, 1>>(&json).unwrap(), f);
    }

    #[test]
    fn row_major_matrices_are_the_same_rows() {
        let m = Matrix::<i32, 2, 3>::from_rows([[1, 2, 3], [4, 5, 6]]);
        let rm = m.to_layout::<crate::RowMajor>();
        let json = serde_json::to_string(&rm).unwrap();
        assert_eq!(json, serde_json::to_string(&m).unwrap());
        let back: Matrix<i32, 2, 3, crate::RowMajor> = serde_json::from_str(&json).unwrap();
        assert_eq!(back, rm);
        let err = serde_json::from_str::<Matrix<i32, 2, 3, crate::RowMajor>>("[[1,2,3]]");
        assert!(err.is_err());
    }

    #[test]
    fn vectors_are_flat_arrays_without_padding() {
        let v = Vector::from_array([1.5f32, 2.0, -3.0]);
        let json = serde_json::to_string(&v).unwrap();
        assert_eq!(json, "[1.5,2.0,-3.0]");
        assert_eq!(serde_json::from_str::<Vector<f32, 3>>(&json).unwrap(), v);
        let big = Vector::<u8, 16>::from_fn(|i| i as u8);
        let back: Vector<u8, 16> =
            serde_json::from_str(&serde_json::to_string(&big).unwrap()).unwrap();
        assert_eq!(back, big);
    }

    #[test]
    fn wrong_shapes_are_errors() {
        let err = |json: &str| {
            serde_json::from_str::<Matrix<i32, 2, 3>>(json)
                .unwrap_err()
                .to_string()
        };
        assert_eq!(
            err("[[1,2,3]]"),
            "invalid length 1, expected a 2x3 matrix: an array of 2 rows of 3 elements at line 1 column 9"
        );
        assert_eq!(
            err("[[1,2,3],[4,5,6],[7,8,9]]"),
            "invalid length 3, expected a 2x3 matrix: an array of 2 rows of 3 elements at line 1 column 25"
        );
        assert_eq!(
            err("[[1,2,3],[4,5]]"),
            "invalid length 2, expected row 1 of a 2x3 matrix: an array of 3 elements at line 1 column 14"
        );
        assert_eq!(
            err("[[1,2,3],[4,5,6,7]]"),
            "invalid length 4, expected row 1 of a 2x3 matrix: an array of 3 elements at line 1 column 18"
        );
        assert!(err("[1,2,3,4,5,6]").starts_with("invalid type: integer `1`, expected row 0"));
        assert!(err("{}").starts_with("invalid type: map, expected a 2x3 matrix"));
        assert!(
            serde_json::from_str::<Vector<f32, 3>>("[1,2]")
                .unwrap_err()
                .to_string()
                .starts_with("invalid length 2, expected a vector of 3 elements")
        );
        assert!(
            serde_json::from_str::<Vector<f32, 2>>("[1,2,3]")
                .unwrap_err()
                .to_string()
                .starts_with("invalid length 3, expected a vector of 2 elements")
        );
    }
}
