//! `Vector<T, N>`: Clang's `T __attribute__((ext_vector_type(N)))` as a
//! value type, with Clang's size, alignment and element-wise arithmetic.

use core::fmt;
use core::ops::{
    Add, AddAssign, BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Div, DivAssign,
    Index, IndexMut, Mul, MulAssign, Neg, Not, Rem, RemAssign, Shl, ShlAssign, Shr, ShrAssign, Sub,
    SubAssign,
};

use crate::arith::Arith;
use crate::element::Element;
use crate::kernels::dispatch::Auto;
use crate::layout::{ColumnMajor, Layout};
use crate::matrix::Matrix;
use crate::ops::{Plain, product};

/// A fixed-size vector of `N` elements of `T`, laid out exactly as Clang
/// lays out `T __attribute__((ext_vector_type(N)))`.
///
/// # Layout
///
/// The `N` elements are stored in order from offset 0, in an array rounded
/// up to a power-of-two length, and the vector is aligned to its size, as
/// Clang does: `size_of::<Vector<f32, 3>>() == 16`, and
/// `align_of::<Vector<f32, 3>>() == 16` (a `float3`), `Vector<f64, 5>` is
/// 64 bytes. The lanes past `N` are padding, kept zero.
///
/// ```
/// use matrix_core::Vector;
///
/// let v = Vector::from_array([1.0f32, 2.0, 3.0]);
/// assert_eq!(size_of::<Vector<f32, 3>>(), 16);
/// assert_eq!(align_of::<Vector<f32, 3>>(), 16);
/// assert_eq!((v + 1.0).to_array(), [2.0, 3.0, 4.0]);
/// assert_eq!(v * Vector::splat(2.0), Vector::from_array([2.0, 4.0, 6.0]));
/// assert_eq!(v[2], 3.0);
/// ```
///
/// Vectors of 1 to 16 elements of every [`Element`] type exist (Clang's
/// `.s0` to `.sF` reach 16); other lengths are refused at compile time.
///
/// # Arithmetic
///
/// `+ - * /` between two vectors or a vector and a scalar of its element
/// type, element by element, wrapping for integers (a zero integer divisor
/// panics); `-v` for signed and float elements. A [`Matrix`] times a vector
/// is the matrix times the vector as a column, a vector times a matrix the
/// vector as a row (our extension: Clang has no matrix-vector product);
/// each sum is in the order of a matrix product's.
///
/// ```
/// use matrix_core::{Matrix, Vector};
///
/// let m = Matrix::<f32, 2, 3>::from_rows([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]);
/// let v = Vector::from_array([1.0, 0.0, -1.0]);
/// assert_eq!((m * v).to_array(), [-2.0, -2.0]);
/// assert_eq!((Vector::from_array([1.0, 1.0]) * m).to_array(), [5.0, 7.0, 9.0]);
/// ```
#[repr(transparent)]
pub struct Vector<T: Lanes<N>, const N: usize> {
    storage: T::Storage,
}

/// The lengths a vector of an element type may have: 1 to 16, for every
/// [`Element`] type. Implemented by the library only.
///
/// ```
/// use matrix_core::{Lanes, Vector};
///
/// /// The sum of a vector's elements, for every length.
/// fn total<const N: usize>(v: Vector<f32, N>) -> f32
/// where
///     f32: Lanes<N>,
/// {
///     v.to_array().iter().sum()
/// }
/// assert_eq!(total(Vector::from_array([1.0, 2.0, 3.0])), 6.0);
/// ```
#[diagnostic::on_unimplemented(
    message = "a vector of {N} '{Self}' elements is not supported: a vector has 1 to 16 elements",
    label = "vectors have 1 to 16 elements"
)]
pub trait Lanes<const N: usize>: Element {
    /// The elements rounded up to a power-of-two count, aligned to their
    /// size.
    #[doc(hidden)]
    type Storage: Storage<Self>;
}

/// The storage of a vector: a power-of-two array of elements, aligned to
/// its size.
#[doc(hidden)]
pub trait Storage<T>: Copy + Send + Sync + 'static {
    /// Every lane zero.
    const ZEROED: Self;
    /// Every lane, the padding too.
    fn lanes(&self) -> &[T];
    /// Every lane, the padding too.
    fn lanes_mut(&mut self) -> &mut [T];
}

/// A byte count, for [`Align`].
#[doc(hidden)]
pub struct Bytes<const B: usize>;

/// The wrapper that aligns a value to `B` bytes.
#[doc(hidden)]
pub trait Align {
    /// `X` aligned to the byte count.
    type Wrap<X: Copy + Send + Sync + 'static>: Copy + Send + Sync + 'static;
}

macro_rules! aligned {
    ($($name:ident = $align:literal),* $(,)?) => {$(
        #[doc(hidden)]
        #[derive(Clone, Copy)]
        #[repr(C, align($align))]
        pub struct $name<X>(X);

        impl Align for Bytes<$align> {
            type Wrap<X: Copy + Send + Sync + 'static> = $name<X>;
        }

        impl<T: Element, const P: usize> Storage<T> for $name<[T; P]> {
            const ZEROED: Self = $name([T::ZERO; P]);
            #[inline(always)]
            fn lanes(&self) -> &[T] {
                &self.0
            }
            #[inline(always)]
            fn lanes_mut(&mut self) -> &mut [T] {
                &mut self.0
            }
        }
    )*};
}

aligned! {
    A1 = 1, A2 = 2, A4 = 4, A8 = 8, A16 = 16, A32 = 32, A64 = 64, A128 = 128,
}

/// `Lanes<1..=16>` for each element type of the given size in bytes: `N`
/// lanes stored in `P` (the next power of two), aligned to `P * size`.
macro_rules! lanes {
    ($($t:ty => $size:literal),* $(,)?) => {$(
        lanes!(@each $t, $size;
            1 1, 2 2, 3 4, 4 4, 5 8, 6 8, 7 8, 8 8,
            9 16, 10 16, 11 16, 12 16, 13 16, 14 16, 15 16, 16 16);
    )*};
    (@each $t:ty, $size:literal; $($n:literal $p:literal),*) => {$(
        impl Lanes<$n> for $t {
            type Storage = <Bytes<{ $p * $size }> as Align>::Wrap<[$t; $p]>;
        }
    )*};
}

lanes! {
    i8 => 1, u8 => 1, i16 => 2, u16 => 2, i32 => 4, u32 => 4, f32 => 4,
    i64 => 8, u64 => 8, f64 => 8,
}
#[cfg(feature = "f16")]
lanes! { half::f16 => 2 }
#[cfg(feature = "bf16")]
lanes! { half::bf16 => 2 }

impl<T: Lanes<N>, const N: usize> Vector<T, N> {
    /// The vector with elements `elements`.
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let v = Vector::from_array([1, 2, 3]);
    /// assert_eq!(v[1], 2);
    /// ```
    #[must_use]
    #[inline]
    pub fn from_array(elements: [T; N]) -> Self {
        let mut v = Self::zero();
        *v.as_mut_array() = elements;
        v
    }

    /// Every element `value` (Clang's scalar splat).
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// assert_eq!(Vector::<f32, 3>::splat(0.5).to_array(), [0.5; 3]);
    /// ```
    #[must_use]
    #[inline]
    pub fn splat(value: T) -> Self {
        Self::from_array([value; N])
    }

    /// Every element zero.
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// assert_eq!(Vector::<u8, 4>::zero().to_array(), [0; 4]);
    /// ```
    #[must_use]
    #[inline]
    pub fn zero() -> Self {
        Vector {
            storage: <T::Storage as Storage<T>>::ZEROED,
        }
    }

    /// The vector whose element `i` is `f(i)`.
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let v = Vector::<u32, 4>::from_fn(|i| (i * i) as u32);
    /// assert_eq!(v.to_array(), [0, 1, 4, 9]);
    /// ```
    #[must_use]
    #[inline]
    pub fn from_fn(f: impl FnMut(usize) -> T) -> Self {
        Self::from_array(core::array::from_fn(f))
    }

    /// The elements, in order.
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let v = Vector::from_array([1.0f64, 2.0, 3.0]);
    /// assert_eq!(v.as_array(), &[1.0, 2.0, 3.0]);
    /// ```
    #[must_use]
    #[inline]
    pub fn as_array(&self) -> &[T; N] {
        self.storage.lanes()[..N]
            .try_into()
            .expect("a vector's storage holds at least N lanes")
    }

    /// The elements, in order, to change.
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let mut v = Vector::<i16, 3>::zero();
    /// v.as_mut_array()[2] = 7;
    /// assert_eq!(v.to_array(), [0, 0, 7]);
    /// ```
    #[inline]
    pub fn as_mut_array(&mut self) -> &mut [T; N] {
        (&mut self.storage.lanes_mut()[..N])
            .try_into()
            .expect("a vector's storage holds at least N lanes")
    }

    /// The elements, in order, copied out.
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let v = Vector::from_array([4u8, 5]);
    /// let [x, y] = v.to_array();
    /// assert_eq!(x + y, 9);
    /// ```
    #[must_use]
    #[inline]
    pub fn to_array(self) -> [T; N] {
        *self.as_array()
    }

    /// The `N` elements as a slice (the padding lanes are not part of it).
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let v = Vector::from_array([1.0f32, 2.0, 3.0]);
    /// assert_eq!(v.as_slice().len(), 3);
    /// ```
    #[must_use]
    #[inline]
    pub fn as_slice(&self) -> &[T] {
        self.as_array()
    }

    /// Element `i`, or `None` outside the vector.
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let v = Vector::from_array([1, 2, 3]);
    /// assert_eq!(v.get(2), Some(3));
    /// assert_eq!(v.get(3), None);
    /// ```
    #[must_use]
    #[inline]
    pub fn get(&self, i: usize) -> Option<T> {
        self.as_array().get(i).copied()
    }

    /// Each element through `f` (Rust's `as` semantics in `f` are the
    /// caller's choice).
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let v = Vector::from_array([1, -2, 3]);
    /// assert_eq!(v.map(|x: i32| x.abs() as f32).to_array(), [1.0, 2.0, 3.0]);
    /// ```
    #[must_use]
    #[inline]
    pub fn map<U: Lanes<N>>(self, f: impl FnMut(T) -> U) -> Vector<U, N> {
        Vector::from_array(self.to_array().map(f))
    }

    /// `f(self[i], other[i])` for every `i`.
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let a = Vector::from_array([1, 5, 3]);
    /// let b = Vector::from_array([4, 2, 3]);
    /// assert_eq!(a.zip_map(b, i32::max).to_array(), [4, 5, 3]);
    /// ```
    #[must_use]
    #[inline]
    pub fn zip_map<U: Lanes<N>, V: Lanes<N>>(
        self,
        other: Vector<U, N>,
        mut f: impl FnMut(T, U) -> V,
    ) -> Vector<V, N> {
        let (a, b) = (self.as_array(), other.as_array());
        Vector::from_fn(|i| f(a[i], b[i]))
    }

    /// Every element converted with Rust's `as` (Clang's
    /// `__builtin_convertvector`).
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let v = Vector::from_array([-1.5f32, 300.0, f32::NAN]);
    /// assert_eq!(v.cast::<u8>().to_array(), [0, 255, 0]);
    /// ```
    #[must_use]
    #[inline]
    pub fn cast<U: Lanes<N>>(self) -> Vector<U, N> {
        self.map(Arith::cast_to)
    }

    /// The same bytes read as `M` elements of `U`: Clang's bit cast between
    /// vector types whose elements fill as many bytes (`N *
    /// size_of::<T>() == M * size_of::<U>()`; the padding of a
    /// three-element vector is not part of it). It is what `(int4) v` means
    /// for a `float4` `v` in a kernel, and what Clang's operators do to
    /// their right operand when two such vectors of different types meet
    /// (`i + f` is `i + (int4) f`). A cast of other sizes does not compile.
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let v = Vector::from_array([1.0f32, -2.0, 0.5, 0.0]);
    /// let bits: Vector<i32, 4> = v.bitcast();
    /// assert_eq!(bits.to_array(), v.to_array().map(|x| x.to_bits() as i32));
    /// // 1.0 is 0x3f80_0000: two 16-bit halves, in the target's byte order.
    /// let halves: Vector<u16, 8> = bits.bitcast();
    /// let one = if cfg!(target_endian = "little") { [0, 0x3f80] } else { [0x3f80, 0] };
    /// assert_eq!(halves.as_slice()[..2], one);
    /// assert_eq!(halves.bitcast::<f32, 4>(), v);
    /// ```
    #[must_use]
    #[inline]
    pub fn bitcast<U: Lanes<M>, const M: usize>(self) -> Vector<U, M> {
        const {
            assert!(
                N * size_of::<T>() == M * size_of::<U>(),
                "a bit cast between vectors whose elements fill different numbers of bytes"
            );
        }
        // The largest vector, 16 elements of 8 bytes. LLVM keeps the bytes
        // in registers: a release build compiles this to nothing, or to a
        // move between vector registers.
        let mut bytes = [0u8; 128];
        let (from, to) = (size_of::<T>(), size_of::<U>());
        for (x, out) in self
            .to_array()
            .into_iter()
            .zip(bytes.chunks_exact_mut(from))
        {
            x.write_ne_bytes(out);
        }
        Vector::from_fn(|i| U::read_ne_bytes(&bytes[i * to..(i + 1) * to]))
    }
}

impl<T: Lanes<N>, const N: usize> Clone for Vector<T, N> {
    #[inline(always)]
    fn clone(&self) -> Self {
        *self
    }
}

impl<T: Lanes<N>, const N: usize> Copy for Vector<T, N> {}

impl<T: Lanes<N>, const N: usize> Default for Vector<T, N> {
    /// Every element zero.
    #[inline]
    fn default() -> Self {
        Self::zero()
    }
}

impl<T: Lanes<N>, const N: usize> PartialEq for Vector<T, N> {
    /// Whether every element is equal (Rust's `==`; in `matrix!` kernels
    /// `==` between vectors is Clang's element-wise comparison).
    #[inline]
    fn eq(&self, other: &Self) -> bool {
        self.as_array() == other.as_array()
    }
}

impl<T: Lanes<N>, const N: usize> From<[T; N]> for Vector<T, N> {
    /// The vector of these elements, as [`Vector::from_array`].
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let v: Vector<f32, 2> = [1.0, 2.0].into();
    /// assert_eq!(v.to_array(), [1.0, 2.0]);
    /// ```
    #[inline]
    fn from(elements: [T; N]) -> Self {
        Self::from_array(elements)
    }
}

impl<T: Lanes<N>, const N: usize> From<Vector<T, N>> for [T; N] {
    /// The elements, as [`Vector::to_array`].
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let a: [i32; 3] = Vector::from_array([1, 2, 3]).into();
    /// assert_eq!(a, [1, 2, 3]);
    /// ```
    #[inline]
    fn from(v: Vector<T, N>) -> Self {
        v.to_array()
    }
}

impl<T: Lanes<N>, const N: usize> fmt::Debug for Vector<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_array()).finish()
    }
}

impl<T: Lanes<N>, const N: usize> fmt::Display for Vector<T, N> {
    /// `(x, y, z)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        for (i, x) in self.as_array().iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            fmt::Display::fmt(x, f)?;
        }
        f.write_str(")")
    }
}

#[track_caller]
fn index_panic(i: usize, n: usize) -> ! {
    panic!("vector index {i} is outside the allowed range [0, {n})")
}

impl<T: Lanes<N>, const N: usize> Index<usize> for Vector<T, N> {
    type Output = T;

    /// Element `i`.
    ///
    /// # Panics
    ///
    /// If `i >= N`, with the index and the allowed range.
    #[inline]
    #[track_caller]
    fn index(&self, i: usize) -> &T {
        match self.as_array().get(i) {
            Some(x) => x,
            None => index_panic(i, N),
        }
    }
}

impl<T: Lanes<N>, const N: usize> IndexMut<usize> for Vector<T, N> {
    /// Element `i`.
    ///
    /// # Panics
    ///
    /// If `i >= N`, with the index and the allowed range.
    #[inline]
    #[track_caller]
    fn index_mut(&mut self, i: usize) -> &mut T {
        match self.as_mut_array().get_mut(i) {
            Some(x) => x,
            None => index_panic(i, N),
        }
    }
}

macro_rules! elementwise {
    ($($Trait:ident::$method:ident, $Assign:ident::$assign:ident => $op:ident;)*) => {$(
        impl<T: Lanes<N>, const N: usize> $Trait for Vector<T, N> {
            type Output = Self;
            #[doc = concat!("`", stringify!($method), "`, element by element (wrapping for integers).")]
            #[inline]
            #[track_caller]
            fn $method(self, rhs: Self) -> Self {
                self.zip_map(rhs, Arith::$op)
            }
        }

        impl<T: Lanes<N>, const N: usize> $Trait<T> for Vector<T, N> {
            type Output = Self;
            #[doc = concat!("`", stringify!($method), "` of the scalar and each element (wrapping for integers).")]
            #[inline]
            #[track_caller]
            fn $method(self, rhs: T) -> Self {
                self.map(|x| Arith::$op(x, rhs))
            }
        }

        impl<T: Lanes<N>, const N: usize> $Assign for Vector<T, N> {
            #[doc = concat!("`", stringify!($assign), "`, element by element (wrapping for integers).")]
            #[inline]
            #[track_caller]
            fn $assign(&mut self, rhs: Self) {
                *self = $Trait::$method(*self, rhs);
            }
        }

        impl<T: Lanes<N>, const N: usize> $Assign<T> for Vector<T, N> {
            #[doc = concat!("`", stringify!($assign), "` of the scalar and each element (wrapping for integers).")]
            #[inline]
            #[track_caller]
            fn $assign(&mut self, rhs: T) {
                *self = $Trait::$method(*self, rhs);
            }
        }
    )*};
}

elementwise! {
    Add::add, AddAssign::add_assign => add;
    Sub::sub, SubAssign::sub_assign => sub;
    Mul::mul, MulAssign::mul_assign => mul;
    Div::div, DivAssign::div_assign => div;
}

/// `scalar op vector` for each element type (the orphan rule forbids a
/// generic `impl<T> Add<Vector<T, N>> for T`).
macro_rules! scalar_first {
    ($($t:ty),* $(,)?) => {$(
        scalar_first!(@op $t; Add::add => add; Sub::sub => sub; Mul::mul => mul; Div::div => div;);
    )*};
    (@op $t:ty; $($Trait:ident::$method:ident => $op:ident;)*) => {$(
        impl<const N: usize> $Trait<Vector<$t, N>> for $t
        where
            $t: Lanes<N>,
        {
            type Output = Vector<$t, N>;
            #[doc = concat!("`", stringify!($method), "` of the scalar and each element (wrapping for integers).")]
            #[inline]
            #[track_caller]
            fn $method(self, rhs: Vector<$t, N>) -> Vector<$t, N> {
                rhs.map(|x| Arith::$op(self, x))
            }
        }
    )*};
}

scalar_first!(i8, u8, i16, u16, i32, u32, i64, u64, f32, f64);
#[cfg(feature = "f16")]
scalar_first!(half::f16);
#[cfg(feature = "bf16")]
scalar_first!(half::bf16);

/// A shift count out of `[0, bits)`: undefined behaviour in C, a panic here.
#[cold]
#[track_caller]
fn shift_panic(count: i128, bits: u32) -> ! {
    panic!("shift count {count} is outside the allowed range [0, {bits}) of the element type")
}

/// The operators of integer vectors (Clang's `%`, `&`, `|`, `^`, `<<`,
/// `>>` and `~`, the last spelled `!` as in Rust), element by element, with
/// a vector or a scalar on the right: `%` wraps (`MIN % -1 == 0`) and
/// panics on a zero divisor, as `/` does; a shift count outside `[0, bits)`
/// panics; `>>` of a signed element is arithmetic, as in Clang.
macro_rules! integer_ops {
    ($($t:ty),* $(,)?) => {$(
        integer_ops!(@op $t;
            Rem::rem, RemAssign::rem_assign => |x: $t, y: $t| x.wrapping_rem(y);
            BitAnd::bitand, BitAndAssign::bitand_assign => |x: $t, y: $t| x & y;
            BitOr::bitor, BitOrAssign::bitor_assign => |x: $t, y: $t| x | y;
            BitXor::bitxor, BitXorAssign::bitxor_assign => |x: $t, y: $t| x ^ y;
            Shl::shl, ShlAssign::shl_assign => |x: $t, y: $t| x << shift_count!($t, y);
            Shr::shr, ShrAssign::shr_assign => |x: $t, y: $t| x >> shift_count!($t, y);
        );

        impl<const N: usize> Not for Vector<$t, N>
        where
            $t: Lanes<N>,
        {
            type Output = Self;
            /// Every bit of every element inverted (C's `~v`). The other
            /// integer operators work element by element too:
            ///
            /// ```
            /// use matrix_core::Vector;
            ///
            /// let v = Vector::from_array([7i32, -8, 5, 12]);
            /// assert_eq!((!v).to_array(), [-8, 7, -6, -13]);
            /// assert_eq!((v % 3).to_array(), [1, -2, 2, 0]);
            /// assert_eq!((v & 6).to_array(), [6, 0, 4, 4]);
            /// assert_eq!((v << Vector::from_array([1, 2, 3, 4])).to_array(), [14, -32, 40, 192]);
            /// assert_eq!((v >> 1).to_array(), [3, -4, 2, 6]);
            /// ```
            #[inline]
            fn not(self) -> Self {
                self.map(|x| !x)
            }
        }
    )*};
    (@op $t:ty; $($Trait:ident::$method:ident, $Assign:ident::$assign:ident => $f:expr;)*) => {$(
        impl<const N: usize> $Trait for Vector<$t, N>
        where
            $t: Lanes<N>,
        {
            type Output = Self;
            #[doc = concat!("`", stringify!($method), "`, element by element.")]
            #[inline]
            #[track_caller]
            fn $method(self, rhs: Self) -> Self {
                self.zip_map(rhs, $f)
            }
        }

        impl<const N: usize> $Trait<$t> for Vector<$t, N>
        where
            $t: Lanes<N>,
        {
            type Output = Self;
            #[doc = concat!("`", stringify!($method), "` of each element and the scalar.")]
            #[inline]
            #[track_caller]
            fn $method(self, rhs: $t) -> Self {
                self.map(|x| ($f)(x, rhs))
            }
        }

        impl<const N: usize> $Assign for Vector<$t, N>
        where
            $t: Lanes<N>,
        {
            #[doc = concat!("`", stringify!($assign), "`, element by element.")]
            #[inline]
            #[track_caller]
            fn $assign(&mut self, rhs: Self) {
                *self = $Trait::$method(*self, rhs);
            }
        }

        impl<const N: usize> $Assign<$t> for Vector<$t, N>
        where
            $t: Lanes<N>,
        {
            #[doc = concat!("`", stringify!($assign), "` of each element and the scalar.")]
            #[inline]
            #[track_caller]
            fn $assign(&mut self, rhs: $t) {
                *self = $Trait::$method(*self, rhs);
            }
        }
    )*};
}

/// A shift count as `u32`, checked against the width of `$t`.
macro_rules! shift_count {
    ($t:ty, $y:expr) => {
        match u32::try_from($y) {
            Ok(s) if s < <$t>::BITS => s,
            _ => shift_panic($y as i128, <$t>::BITS),
        }
    };
}

integer_ops!(i8, u8, i16, u16, i32, u32, i64, u64);

impl<T: Lanes<N>, const N: usize> Neg for Vector<T, N> {
    type Output = Self;

    /// Every element negated: IEEE negation for floats, wrapping for
    /// integers (`-i8::MIN == i8::MIN`, `-1u32 == u32::MAX`, never a
    /// panic), as Clang's `-v` on an ext vector, unsigned ones included.
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// assert_eq!((-Vector::from_array([1.5f32, -0.0])).to_array(), [-1.5, 0.0]);
    /// assert_eq!((-Vector::from_array([i8::MIN, 2])).to_array(), [i8::MIN, -2]);
    /// assert_eq!((-Vector::from_array([1u32, 0])).to_array(), [u32::MAX, 0]);
    /// ```
    #[inline]
    fn neg(self) -> Self {
        self.map(Arith::neg)
    }
}

impl<T: Lanes<N>, const N: usize> AsRef<[T]> for Vector<T, N> {
    /// The `N` elements, as [`Vector::as_slice`] (without the padding).
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let v = Vector::from_array([1u8, 2, 3]);
    /// let s: &[u8] = v.as_ref();
    /// assert_eq!(s, [1, 2, 3]);
    /// ```
    #[inline]
    fn as_ref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Lanes<N>, const N: usize> AsMut<[T]> for Vector<T, N> {
    /// The `N` elements, mutably (without the padding).
    ///
    /// ```
    /// use matrix_core::Vector;
    ///
    /// let mut v = Vector::from_array([1u8, 2, 3]);
    /// v.as_mut().reverse();
    /// assert_eq!(v.to_array(), [3, 2, 1]);
    /// ```
    #[inline]
    fn as_mut(&mut self) -> &mut [T] {
        self.as_mut_array()
    }
}

impl<T, const R: usize, const C: usize, L: Layout> Mul<Vector<T, C>> for Matrix<T, R, C, L>
where
    T: Lanes<R> + Lanes<C>,
{
    type Output = Vector<T, R>;

    /// The matrix times `v` as a column, on the product kernels: element
    /// `r` is row `r` of the matrix times `v`, summed as a matrix product
    /// sums.
    #[inline]
    fn mul(self, v: Vector<T, C>) -> Vector<T, R> {
        let column = Matrix::<T, C, 1>::from_columns([v.to_array()]);
        let out =
            product::<_, T, R, C, 1, false, ColumnMajor>(Auto, Plain(&self), Plain(&column), ());
        let [out] = out.to_columns();
        Vector::from_array(out)
    }
}

impl<T, const R: usize, const C: usize, L: Layout> Mul<Matrix<T, R, C, L>> for Vector<T, R>
where
    T: Lanes<R> + Lanes<C>,
{
    type Output = Vector<T, C>;

    /// `self` as a row times the matrix, on the product kernels: element
    /// `c` is `self` times column `c`, summed as a matrix product sums.
    #[inline]
    fn mul(self, m: Matrix<T, R, C, L>) -> Vector<T, C> {
        let row = Matrix::<T, 1, R>::from_rows([self.to_array()]);
        let out = product::<_, T, 1, R, C, false, ColumnMajor>(Auto, Plain(&row), Plain(&m), ());
        let [out] = out.to_rows();
        Vector::from_array(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A bit cast reads the elements' bytes, a three-element vector's
    /// padding left out, in the target's byte order.
    #[test]
    fn bit_casts_read_the_elements_bytes() {
        let f = Vector::from_array([1.5f32, -0.0, f32::INFINITY]);
        let h: Vector<i16, 6> = f.bitcast();
        let want: Vec<i16> = f
            .to_array()
            .iter()
            .flat_map(|x| {
                x.to_ne_bytes()
                    .chunks(2)
                    .map(|b| i16::from_ne_bytes([b[0], b[1]]))
                    .collect::<Vec<_>>()
            })
            .collect();
        assert_eq!(h.as_slice(), want.as_slice());
        assert_eq!(
            h.bitcast::<f32, 3>().to_array().map(f32::to_bits),
            f.to_array().map(f32::to_bits)
        );
        let d = Vector::from_array([-2.25f64, 3.0]);
        let bytes: Vector<u8, 16> = d.bitcast();
        let want: Vec<u8> = d.to_array().iter().flat_map(|x| x.to_ne_bytes()).collect();
        assert_eq!(bytes.as_slice(), want.as_slice());
        assert_eq!(
            bytes.bitcast::<i64, 2>().to_array(),
            d.to_array().map(|x| x.to_bits() as i64)
        );
    }

    /// Clang's rule: the element count rounded up to a power of two, the
    /// alignment equal to the size.
    fn clang_size<T, const N: usize>() -> usize {
        N.next_power_of_two() * size_of::<T>()
    }

    macro_rules! check_layout {
        ($($t:ty),*) => {$(
            check_layout!(@n $t; 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
        )*};
        (@n $t:ty; $($n:literal),*) => {$(
            assert_eq!(size_of::<Vector<$t, $n>>(), clang_size::<$t, $n>(), "{} x {}", stringify!($t), $n);
            assert_eq!(align_of::<Vector<$t, $n>>(), clang_size::<$t, $n>(), "{} x {}", stringify!($t), $n);
            let v = Vector::<$t, $n>::from_fn(|i| i as $t);
            assert_eq!(v.as_array().as_ptr().cast::<u8>(), (&v as *const Vector<$t, $n>).cast::<u8>());
        )*};
    }

    #[test]
    fn layout_is_clangs() {
        check_layout!(i8, u8, i16, u16, i32, u32, f32, i64, u64, f64);
    }

    #[test]
    fn padding_stays_zero() {
        let mut v = Vector::<f32, 3>::splat(7.0);
        v += 1.0;
        v = v * v - Vector::splat(2.0);
        assert_eq!(v.storage.lanes(), &[62.0, 62.0, 62.0, 0.0]);
    }

    #[test]
    fn arithmetic_wraps_like_matrices() {
        let v = Vector::from_array([i8::MAX, i8::MIN, 3]);
        assert_eq!((v + 1).to_array(), [i8::MIN, i8::MIN + 1, 4]);
        assert_eq!((1 - v).to_array(), [-126, 1i8.wrapping_sub(i8::MIN), -2]);
        assert_eq!((v * Vector::splat(2)).to_array(), [-2, 0, 6]);
        assert_eq!(
            (-Vector::from_array([1.5f64, -0.0])).to_array(),
            [-1.5, 0.0]
        );
    }

    #[test]
    #[should_panic(expected = "vector index 3 is outside the allowed range [0, 3)")]
    fn index_out_of_range_panics() {
        let v = Vector::<u16, 3>::zero();
        let i = v.as_array().len();
        let _ = v[i];
    }

    #[test]
    fn integer_operators_wrap_as_clang_computes() {
        let v = Vector::from_array([i8::MIN, -7, 7, 1]);
        assert_eq!((v % Vector::splat(-1)).to_array(), [0, 0, 0, 0]);
        assert_eq!(
            (v % Vector::from_array([3, 3, -3, 2])).to_array(),
            [-2, -1, 1, 1]
        );
        assert_eq!((v >> 7).to_array(), [-1, -1, 0, 0]);
        assert_eq!((v << 7).to_array(), [0, i8::MIN, i8::MIN, i8::MIN]);
        assert_eq!((Vector::from_array([0xF0u8, 1]) >> 4).to_array(), [0x0F, 0]);
        let mut w = Vector::from_array([6u32, 5]);
        w ^= 3;
        w |= Vector::from_array([8, 0]);
        w &= !Vector::<u32, 2>::splat(1);
        assert_eq!(w.to_array(), [12, 6]);
    }

    #[test]
    #[should_panic(expected = "shift count 8 is outside the allowed range [0, 8)")]
    fn shift_count_out_of_range_panics() {
        let v = Vector::<u8, 2>::splat(1);
        let _ = v << Vector::splat(8);
    }

    #[test]
    #[should_panic(expected = "shift count -1 is outside the allowed range [0, 32)")]
    fn negative_shift_count_panics() {
        let _ = Vector::<i32, 4>::splat(1) >> -1;
    }

    #[test]
    #[should_panic(expected = "remainder with a divisor of zero")]
    fn remainder_by_zero_panics() {
        let _ = Vector::<i16, 2>::splat(1) % 0;
    }

    #[test]
    fn matrix_vector_products_sum_in_order() {
        // The contract's order: the first product, then each further one
        // added, each rounded.
        fn dot(k: usize, a: impl Fn(usize) -> f32, b: impl Fn(usize) -> f32) -> f32 {
            (1..k).fold(a(0) * b(0), |sum, i| sum + a(i) * b(i))
        }
        let m = Matrix::<f32, 3, 4>::from_fn(|r, c| 1.0 / (1 + r * 4 + c) as f32);
        let v = Vector::from_array([0.1f32, 0.2, 0.3, 0.4]);
        let want: [f32; 3] = core::array::from_fn(|r| dot(4, |k| m[(r, k)], |k| v[k]));
        assert_eq!((m * v).to_array(), want);
        let w = Vector::from_array([0.5f32, -0.25, 3.0]);
        let want: [f32; 4] = core::array::from_fn(|c| dot(3, |k| w[k], |k| m[(k, c)]));
        assert_eq!((w * m).to_array(), want);
    }
}
