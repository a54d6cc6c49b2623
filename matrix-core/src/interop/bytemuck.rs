//! `bytemuck`'s `Zeroable` and `Pod` for [`Matrix`] (in either layout: a
//! row-major matrix casts to its rows) and [`Vector`] of `Pod`
//! elements, so that slices of them cast to and from bytes and element
//! slices (`bytemuck::cast_slice`) without copying.

use bytemuck::{Pod, Zeroable};

use crate::element::Element;
use crate::layout::Layout;
use crate::matrix::Matrix;
use crate::vector::{Lanes, Vector};

// SAFETY: a `Matrix<T, R, C, L>` is `#[repr(C)]` with two fields: its
// storage, a `[[T; R]; C]` (column-major) or `[[T; C]; R]` (row-major), and
// a zero-sized `PhantomData<L>`: `R * C` elements of `T` and no padding
// (arrays have none). Every `T: Zeroable` is valid all zero, so the matrix
// is too.
unsafe impl<T: Element + Zeroable, const R: usize, const C: usize, L: Layout> Zeroable
    for Matrix<T, R, C, L>
{
}

// SAFETY: as above, the matrix is exactly `R * C` `T`s with no padding
// bytes, and it has no invariant beyond its elements': every bit pattern of
// them is a valid `T` (`T: Pod`), hence a valid matrix. It is `Copy` and
// `'static` (from `T: Pod` and `L: Layout`), as `Pod` requires.
unsafe impl<T: Element + Pod, const R: usize, const C: usize, L: Layout> Pod
    for Matrix<T, R, C, L>
{
}

// SAFETY: a `Vector<T, N>` is `#[repr(transparent)]` over its storage, a
// `#[repr(C, align(P * size_of::<T>()))]` struct holding one `[T; P]`,
// where `P` is `N` rounded up to a power of two (see `Lanes` in
// `vector.rs`). The alignment equals the array's size, so there are no
// padding bytes: the `P - N` lanes past the elements are ordinary,
// initialised `T` lanes. All zero is the zero vector.
unsafe impl<T: Lanes<N> + Zeroable, const N: usize> Zeroable for Vector<T, N> {}

// SAFETY: as above, every byte of a vector belongs to one of its `P` lanes
// of `T`, and every bit pattern of a lane is a valid `T` (`T: Pod`). The
// lanes past `N` are kept zero by the vector's own constructors, but that
// is not a validity invariant: every operation reads and writes only the
// first `N` lanes (through `as_array`), so a vector whose padding lanes hold
// anything (as a cast from bytes may produce) behaves exactly like the one
// with zero padding. It is `Copy` and `'static` (from `T: Pod`).
unsafe impl<T: Lanes<N> + Pod, const N: usize> Pod for Vector<T, N> {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matrices_cast_to_their_column_major_elements() {
        let ms = [
            Matrix::<f32, 2, 3>::from_rows([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]),
            Matrix::splat(7.0),
        ];
        let flat: &[f32] = bytemuck::cast_slice(&ms);
        assert_eq!(&flat[..6], &[1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
        assert_eq!(&flat[6..], &[7.0; 6]);
        let back: &[Matrix<f32, 2, 3>] = bytemuck::cast_slice(flat);
        assert_eq!(back, &ms);

        let bytes: &[u8] = bytemuck::bytes_of(&ms[0]);
        assert_eq!(bytes.len(), 24);
        assert_eq!(
            bytemuck::pod_read_unaligned::<Matrix<f32, 2, 3>>(bytes),
            ms[0]
        );
        assert_eq!(
            bytemuck::cast::<[u16; 4], Matrix<u16, 2, 2>>([1, 2, 3, 4]).to_rows(),
            [[1, 3], [2, 4]]
        );
        assert_eq!(<Matrix<i64, 3, 3> as Zeroable>::zeroed(), Matrix::zero());
    }

    #[test]
    fn row_major_matrices_cast_to_their_rows() {
        let m = Matrix::<f32, 2, 3>::from_rows([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
            .to_layout::<crate::RowMajor>();
        let flat: &[f32] = bytemuck::cast_slice(core::slice::from_ref(&m));
        assert_eq!(flat, &[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
        let back: Matrix<f32, 2, 3, crate::RowMajor> =
            bytemuck::cast([1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0]);
        assert_eq!(back, m);
        assert_eq!(
            <Matrix<u8, 3, 2, crate::RowMajor> as Zeroable>::zeroed(),
            Matrix::default()
        );
    }

    #[test]
    fn vectors_cast_with_their_padding_lanes() {
        // a float3 is four lanes, the fourth zero
        let vs = [
            Vector::from_array([1.0f32, 2.0, 3.0]),
            Vector::from_array([4.0, 5.0, 6.0]),
        ];
        let lanes: &[f32] = bytemuck::cast_slice(&vs);
        assert_eq!(lanes, &[1.0, 2.0, 3.0, 0.0, 4.0, 5.0, 6.0, 0.0]);
        let back: &[Vector<f32, 3>] = bytemuck::cast_slice(lanes);
        assert_eq!(back, &vs);

        // padding lanes that are not zero change nothing observable
        let odd: [Vector<f32, 3>; 1] = bytemuck::cast([1.0f32, 2.0, 3.0, 99.0]);
        assert_eq!(odd[0], vs[0]);
        assert_eq!((odd[0] + 1.0).to_array(), [2.0, 3.0, 4.0]);
        assert_eq!(Matrix::<f32, 3, 3>::identity() * odd[0], vs[0]);

        let v = Vector::<u8, 5>::from_fn(|i| i as u8);
        assert_eq!(bytemuck::bytes_of(&v), &[0, 1, 2, 3, 4, 0, 0, 0]);
        assert_eq!(<Vector<f64, 7> as Zeroable>::zeroed(), Vector::zero());
    }

    /// The reasoning of the `SAFETY` comments: no vector has padding bytes.
    #[test]
    fn vectors_have_no_padding_bytes() {
        macro_rules! check {
            ($($t:ty),*) => {$(
                check!(@n $t; 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
            )*};
            (@n $t:ty; $($n:literal),*) => {$(
                assert_eq!(
                    size_of::<Vector<$t, $n>>(),
                    ($n as usize).next_power_of_two() * size_of::<$t>()
                );
            )*};
        }
        check!(i8, u8, i16, u16, i32, u32, f32, i64, u64, f64);
    }
}
