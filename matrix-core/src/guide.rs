//! # The guide: the `matrix!` language, its builtins, its diagnostics, and
//! how kernels run
//!
//! This module holds no code: it is the user's guide, shown by rustdoc
//! beside the API. The [crate documentation](crate) and
//! [`matrix!`](crate::matrix) show the first steps; the public contract
//! the project keeps is `docs/dsl-contract.md` in the repository.
//!
//! ## 1. A block
//!
//! A `matrix!` block holds typedefs, `const` items and kernels:
//!
//! ```
//! use matrix_core::matrix;
//!
//! matrix! {
//!     #![fp_contract(fast)]          // optional, for the whole block
//!
//!     const N: usize = 3;
//!     /// Docs and visibility are kept.
//!     pub typedef float m3_t __attribute__((matrix_type(N, N)));
//!     typedef double d2x4_t __attribute__((matrix_type(2, 4)));
//!     typedef m3_t mat3;                       // an alias: the same type
//!     type m3x1_t = Matrix<f32, N, 1>;         // Rust's spelling
//!     typedef float vec3 __attribute__((ext_vector_type(3)));
//!
//!     pub fn apply(m: mat3, v: vec3) -> vec3 {
//!         m * v                                // beyond Clang: see section 4
//!     }
//! }
//!
//! let v = apply(m3_t::identity() * 2.0, vec3::from_array([1.0, 2.0, 3.0]));
//! assert_eq!(v.to_array(), [2.0, 4.0, 6.0]);
//! ```
//!
//! * **Element types**: C's names (`float`, `double`, `_Float16` with the
//!   `f16` feature, `__bf16` with the `bf16` feature, `signed char`,
//!   `short`, `int`, `long` and their `unsigned` forms) or Rust's (`f32`,
//!   `i16`, `bf16`, ...). A `__bf16` matrix rounds every operation to
//!   `__bf16`, as Clang's machine code does (checked against clang-19).
//!   Scalar `__bf16` arithmetic in a kernel is Rust's (`half::bf16`, each
//!   operation rounded), where Clang keeps a scalar expression in `float`
//!   until its end.
//! * **Dimensions** are integer constant expressions of the block's `const`
//!   items and literals, from 1 to 1048575 each, or a kernel's const generic
//!   parameters (see *Generic kernels* below).
//! * **Kernels** are Rust `fn` items whose bodies follow Clang's rules for
//!   matrix and vector operands; everything else in them is Rust. Kernels
//!   and typedefs of other blocks and modules can be used (their operators
//!   are the same traits, [`KernelAdd`](crate::KernelAdd) and the others);
//!   only the block that declares a type checks shapes at compile time
//!   with Clang's words, the others get rustc's checks.
//!
//! ### Generic kernels
//!
//! A kernel may take its dimensions as const generic parameters, as
//! Clang's C++ templates take template-dependent ones; every operation and
//! builtin takes them, `Matrix<T, R, C>` in the body too:
//!
//! ```
//! use matrix_core::{matrix, Matrix};
//!
//! matrix! {
//!     typedef float m3_t __attribute__((matrix_type(3, 3)));
//!
//!     pub fn trace<const N: usize>(m: Matrix<f32, N, N>) -> f32 {
//!         let mut sum: f32 = 0.0;
//!         for i in 0..N {
//!             sum += m[i][i];
//!         }
//!         sum
//!     }
//!     pub fn gram<const R: usize, const C: usize>(src: &[f64]) -> Matrix<f64, C, C> {
//!         let a: Matrix<f64, R, C> = __builtin_matrix_column_major_load(src, R, C, R);
//!         __builtin_matrix_transpose(a) * a
//!     }
//!     // A call instantiates the generic kernel: `trace`'s `N` is 3 here.
//!     pub fn trace3(m: m3_t) -> float { trace(m * m) }
//! }
//!
//! assert_eq!(trace3(m3_t::identity() * 2.0), 12.0);
//! assert_eq!(gram::<2, 1>(&[3.0, 4.0])[(0, 0)], 25.0);
//! ```
//!
//! * Inside the kernel, `N` is its own dimension: it equals neither a
//!   constant nor another parameter (rustc sees it so too), and a mismatch
//!   is Clang's error with the parameter's name
//!   (`'float __attribute__((matrix_type(N, N)))'`). A call of a generic
//!   kernel binds its parameters from the arguments and checks the rest.
//! * A constant subscript below a generic dimension (`m[3][0]` of an `N x
//!   N` matrix) is checked when rustc instantiates the kernel: `corner(m)`
//!   with a 2x2 `m` fails the build with `matrix row index is outside the
//!   allowed range [0, N)` on the `3`. A negative one is refused at once.
//! * A stride against a generic dimension is checked at run time.
//! * Vectors have constant lengths: a row or column of a matrix with a
//!   generic dimension, or `m * v` across one, is an error. Typedefs are
//!   items of the block, so their dimensions are constants.
//!
//! ## 2. Operators (Clang's specification)
//!
//! | expression | meaning |
//! |---|---|
//! | `a + b`, `a - b` | element-wise; the same shape and element type |
//! | `a * b` | the matrix product: `R x K` times `K x C` |
//! | `m + s`, `s * m`, `m / s`, ... | the scalar `s` converted to the element type, then applied to every element |
//! | `a += b`, `a -= b`, `a *= b`, `a /= b` | `a = a op b`, with the same rules |
//! | `m[r][c]` | element `(r, c)`; constant indices are range-checked at compile time, others at run time; a place: `m[r][c] = x`, `m[r][c] += x` |
//! | `(m4x4_t) x`, `x as m4x4_t` | C casts: element-wise conversion of a matrix of the same shape, or a scalar broadcast |
//!
//! `a * b + c` is computed as Clang computes it with `-ffp-contract=off`:
//! each sum starts at its first product and adds the others in order, then
//! the addend. Under `#![fp_contract(fast)]` (or `#[fp_contract(fast)]` on
//! one kernel) a multiply-add may be fused into one rounding on backends
//! with FMA, as clang's `-ffp-contract=fast`. Integer arithmetic wraps.
//! There is no unary minus on matrices in kernels, as in Clang.
//!
//! ## 3. Builtins
//!
//! | builtin | result |
//! |---|---|
//! | `__builtin_matrix_transpose(m)` | the transpose |
//! | `__builtin_matrix_column_major_load(p, rows, cols[, stride])` | a matrix read column by column from `p` (a slice, array, `Vec` or pointer), `stride` elements apart (default `rows`) |
//! | `__builtin_matrix_column_major_store(m, p[, stride])` | writes `m` column by column to `p` |
//! | `__builtin_matrix_row_major_load(p, rows, cols[, stride])`, `__builtin_matrix_row_major_store(m, p[, stride])` | the same, row by row: `stride` is the distance between rows (default `cols`); the load gives a `row_major` matrix (beyond Clang; see section 4b) |
//! | `__builtin_matrix_add(a, b)`, `_sub`, `_multiply`, `_scalar_multiply(m, s)` | the RFC's spellings of `+`, `-`, `*` and `m * s` |
//! | `__builtin_matrix_extract(m, r, c)`, `__builtin_matrix_insert(m, r, c, x)` | the RFC's element read, and the matrix with one element replaced |
//! | `__builtin_matrix_column_load(p, rows, cols, stride)`, `__builtin_matrix_column_store(m, p, stride)` | the RFC's names of the loads and stores |
//! | `__builtin_matrix_column(m, j)`, `__builtin_matrix_row(m, i)` | column `j` or row `i` as a vector (beyond Clang) |
//! | `__builtin_matrix_insert_column(m, j, v)`, `__builtin_matrix_insert_row(m, i, v)` | the matrix with a column or row replaced (beyond Clang) |
//! | `__builtin_matrix_map(m, \|x\| expr)` | the closure applied to each element; a matrix of its result type (`\|x\| -> int { .. }` declares it), in one pass with the element-wise operations around it (beyond Clang, after SYCL's `joint_matrix`) |
//! | `__builtin_matrix_zip(a, b, \|x, y\| expr)` | the closure applied to the elements of two matrices of one shape, position by position (beyond Clang) |
//! | `__builtin_matrix_fill(m, v)` | a matrix of `m`'s type with every element `v` (converted as in `m + v`); `m` is unchanged (beyond Clang) |
//! | `__builtin_matrix_load(p, rows, cols, layout[, stride])`, `__builtin_matrix_store(m, p, layout[, stride])` | a load or store in the memory layout named by the argument: `column_major`, `row_major`, `packed_a` or `packed_b` (VNNI packing; see section 4b); `stride` is the distance between lines (beyond Clang, after the layout-aware intrinsics proposal; [`Matrix::load`](crate::Matrix::load) and [`Matrix::store`](crate::Matrix::store) outside the macro) |
//! | `__builtin_matrix_mad(a, b, c)` | `a * b + c`, checked and computed as written so; with `signed char`/`unsigned char` operands and an `int` accumulator it widens, exact in `int`, and runs on the CPU's int8 dot-product instructions where it has them (AMX tiles, AVX-512 VNNI, AVX-VNNI; a product `(int_m) a * (int_m) b` of 8-bit matrices cast to `int` does too); with `__bf16` operands and a `float` accumulator (`bf16` feature) it widens to `float`, with the bits of `(float_m) a * (float_m) b + c` (beyond Clang, after the layout-aware intrinsics proposal; [`Matrix::mad`](crate::Matrix::mad) outside the macro) |
//! | `__builtin_convertvector(v, vec_t)` | each element of a vector converted |
//! | `sqrtf`, `sinf`, `tanf`, `fabs`, `pow`, ... | C's `<math.h>` functions on scalars |
//!
//! ## 4. Vectors
//!
//! `typedef T NAME __attribute__((ext_vector_type(N)))` (or
//! `Vector<T, N>`) is Clang's ext vector, with its bytes (a 3-element
//! vector is padded to 4): components `.x .y .z .w`, `.r .g .b .a`,
//! `.s0`..`.sF`, `.hi .lo .even .odd`, swizzles (`v.zyx`, as values and,
//! without repeats, as assignment targets), `v[i]`, element-wise `+ - * /`,
//! on integer vectors `% & | ^ << >>` and `!v` (C's `~v`; a zero divisor
//! or a shift count outside `[0, bits)` panics), scalar splat, comparisons giving Clang's `0`/`-1` masks, compound
//! literals `(vec3){a, b, c}` and splats `(vec3)(s)`.
//!
//! Beyond Clang (clang-19 refuses these): `m * v` takes `v` as a column,
//! `v * m` as a row, lowered on the product kernels.
//!
//! ## 4b. Layouts (beyond Clang)
//!
//! A third argument of `matrix_type` chooses the layout:
//! `matrix_type(R, C, row_major)` stores each row contiguously (the bytes
//! of clang 22's `-fmatrix-memory-layout=row-major`, and of C's
//! `float m[R][C]`), `matrix_type(R, C, column_major)` is the default,
//! Clang's. In Rust the layout is `Matrix`'s fourth parameter:
//! `Matrix<f32, 4, 4, RowMajor>` (see [`crate::layout`] for the bytes).
//!
//! ```
//! use matrix_core::{Matrix, RowMajor, matrix};
//!
//! matrix! {
//!     typedef float m2x3_t __attribute__((matrix_type(2, 3)));
//!     typedef float r2x3_t __attribute__((matrix_type(2, 3, row_major)));
//!     typedef float r3x2_t __attribute__((matrix_type(3, 2, row_major)));
//!     typedef float r2x2_t __attribute__((matrix_type(2, 2, row_major)));
//!
//!     fn gram(a: m2x3_t, b: r3x2_t) -> r2x2_t {
//!         // Mixing layouts needs a cast; it is folded into the product
//!         // (the kernel reads `a` in place, as the transpose it stores).
//!         (r2x3_t) a * b
//!     }
//!     fn rows(src: &[f32]) -> r2x3_t {
//!         __builtin_matrix_row_major_load(src, 2, 3)
//!     }
//! }
//!
//! let a = rows(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
//! assert_eq!(a[(1, 0)], 4.0);                     // row 1, column 0
//! let g = gram(Matrix::from(a), a.transpose());
//! assert_eq!(g.to_rows(), [[14.0, 32.0], [32.0, 77.0]]);
//! let _: Matrix<f32, 2, 2, RowMajor> = g;
//! ```
//!
//! * Two types that differ only in layout are distinct: `a + b`, `a * b`,
//!   an assignment or a return mixing them is refused with Clang's words
//!   (`invalid operands to binary expression ('m2x3_t' and 'r2x3_t')`)
//!   until a cast `(r2x3_t) a` converts one. `m[r][c]` is row `r`, column
//!   `c` in every layout; transposes keep the layout; element-wise
//!   operations, `__builtin_matrix_map`/`_zip`/`_fill` work on either
//!   (`_zip`'s matrices share one).
//! * `__builtin_matrix_mad(a, b, c)` takes each operand in its own layout
//!   and gives `c`'s, with no conversion ([`Matrix::mad`](crate::Matrix::mad)
//!   outside the macro).
//! * Products never convert an operand that the kernels can read in place:
//!   a row-major operand is the transpose of its storage, and a row-major
//!   result is computed as `out^T = b^T * a^T`. The one conversion left is
//!   a left operand whose storage is transposed relative to the result's
//!   (`rm * cm -> cm`, `cm * cm -> rm`), transposed once before the
//!   product. The bits are the column-major product's in every case.
//! * The column-major load and store read and write column-major memory
//!   whatever the matrix's layout (a row-major matrix is converted to
//!   store it), and the row-major ones row-major memory.
//!
//! ### Memory layouts of loads and stores
//!
//! `__builtin_matrix_load(p, rows, cols, layout[, stride])` and
//! `__builtin_matrix_store(m, p, layout[, stride])` take the memory's
//! layout as an argument, after the layout-aware load and store of LLVM's
//! extended matrix proposal: `column_major`, `row_major`, and the two VNNI
//! packings `packed_a` and `packed_b`, whose exact byte order
//! [`MemoryLayout`](crate::MemoryLayout) documents. In a packed layout,
//! `G` consecutive elements (4 of a 1-byte type, 2 of a 2-byte one, 1
//! otherwise) share a 32-bit word: `packed_b` packs groups of `G` rows of
//! each column (the layout of a product's right operand that `vpdpbusd`
//! and AMX read), `packed_a` groups of `G` columns of each row. A load
//! gives the type layout whose lines the memory's are: column-major for
//! `column_major` and `packed_a`, row-major for `row_major` and `packed_b`
//! (cast it to change that; a cast under a product is folded). A store
//! takes a matrix of either layout and writes zero in the unused places of
//! a last, partial group.
//!
//! ```
//! use matrix_core::{Matrix, MemoryLayout, matrix};
//!
//! matrix! {
//!     type x_t = Matrix<u8, 2, 8>;
//!     type acc_t = Matrix<i32, 2, 3>;
//!
//!     // An int8 layer whose weights are stored packed for VNNI.
//!     fn layer(x: x_t, w: &[i8], bias: acc_t) -> acc_t {
//!         __builtin_matrix_mad(x, __builtin_matrix_load(w, 8, 3, packed_b), bias)
//!     }
//! }
//!
//! let w = Matrix::<i8, 8, 3>::from_fn(|r, c| (r + c) as i8);
//! let mut packed = [0i8; 24];
//! w.store(&mut packed, MemoryLayout::PackedB);
//! assert_eq!(&packed[..8], &[0, 1, 2, 3, 1, 2, 3, 4]); // rows 0..4 of columns 0 and 1
//! let x = Matrix::<u8, 2, 8>::splat(1);
//! let y = layer(x, &packed, Matrix::zero());
//! assert_eq!(y.row(0), [28, 36, 44]);
//! ```
//!
//! ## 5. Diagnostics
//!
//! Every rule is checked when the block compiles, with Clang's wording on
//! the tokens at fault. The common ones, their causes and fixes:
//!
//! | message | cause | fix |
//! |---|---|---|
//! | `invalid operands to binary expression ('m2x3_t' and 'm2x3_t')` | `*` with inner dimensions that differ, or `+`/`-` of different shapes or element types | transpose or cast an operand; check the typedefs |
//! | `matrix row index is outside the allowed range [0, 4)` | a constant index past the shape | index from 0 to the dimension - 1 |
//! | `single subscript expressions are not allowed for matrix values` | `m[i]` alone | write `m[r][c]` (or use `__builtin_matrix_column`) |
//! | `returning 'm4x2_t' from a function with incompatible result type 'm2x4_t'` | the body's type is not the declared return type | transpose, or fix the signature |
//! | `assigning to 'm4x4_t' from incompatible type 'd4x4_t'` | element types differ | cast: `(m4x4_t) d` |
//! | `conversion between matrix types 'm2x2_t' and 'm3x3_t' of different size is not allowed` | a cast between shapes | casts only convert elements; build the other shape explicitly |
//! | `implicit conversion from 'double' to 'float' changes value from ... to ...` | a literal scalar that the element type cannot hold exactly | write the literal in the element type (`0.1f32`) or cast it |
//! | `matrix_type attribute requires an integer constant` | a dimension that is not a constant expression of the block | use a literal or a `const` item of the block |
//! | `zero matrix size`, `matrix row size too large` | a dimension of 0, or above 1048575 | — |
//! | `invalid matrix element type 'bool'` | an element type that is not arithmetic | use one of the element types above |
//! | `unknown type name 'mat5'` | a type that is neither a typedef of the block nor Rust's spelling | declare it, or import the other block's typedef |
//! | `use of unknown builtin '__builtin_matrix_foo'` | a misspelled builtin | see section 3 |
//! | `too few arguments to function call, expected 3, have 2` | a builtin's arguments | see section 3 |
//! | `stride must be greater or equal to the number of rows` | a load or store with a constant stride below `rows` | pass at least `rows` |
//! | `cannot store matrix to read-only pointer` | a store to `&[T]` or `*const T` | pass `&mut [T]` or `*mut T` |
//! | `illegal vector component name 'q'`, `vector component access exceeds type 'vec2'` | a swizzle letter that does not exist, or past the vector | use `.xyzw`, `.rgba` or `.s0`.. within the length |
//! | `vector is not assignable (contains duplicate components)` | `v.xx = ...` | assign to distinct components |
//! | `` `#[dispatch]` cannot apply to ... `` | `#[dispatch]` on a `const fn`, an `async fn` or a kernel returning a reference | drop the attribute or change the kernel |
//!
//! Errors rustc reports itself in code that uses kernels (a wrong argument
//! type, an operator between matrices of two blocks that do not fit) name
//! only your types: the runtime's traits carry Clang's wording.
//!
//! ```compile_fail
//! use matrix_core::matrix;
//! matrix! {
//!     typedef float m2x3_t __attribute__((matrix_type(2, 3)));
//!     // error: invalid operands to binary expression ('m2x3_t' and 'm2x3_t')
//!     fn f(a: m2x3_t, b: m2x3_t) -> m2x3_t { a * b }
//! }
//! # fn main() {}
//! ```
//!
//! ## 6. How kernels run
//!
//! Every x86-64 build holds SSE2, AVX2+FMA and AVX-512 kernels and runs
//! the best one the CPU has ([`Backend`](crate::Backend)); the results are
//! the same bits on each (except fused multiply-adds under
//! `fp_contract(fast)`). Each operation checks the chosen backend once.
//! For loops over many small matrices, put `#[dispatch]` on the kernel that
//! holds the loop: it is compiled once per backend and checks once per
//! call. Outside kernels, [`dispatch`](crate::dispatch) runs a closure
//! compiled for the chosen backend.
//!
//! ```
//! use matrix_core::matrix;
//!
//! matrix! {
//!     pub typedef float m4x4_t __attribute__((matrix_type(4, 4)));
//!     #[dispatch]
//!     pub fn transform_all(ms: &mut [m4x4_t], view: &m4x4_t) {
//!         for i in 0..ms.len() {
//!             ms[i] = *view * ms[i];
//!         }
//!     }
//! }
//!
//! let mut ms = vec![m4x4_t::identity(); 8];
//! transform_all(&mut ms, &(m4x4_t::identity() * 3.0));
//! assert!(ms.iter().all(|m| m[(1, 1)] == 3.0));
//! ```
//!
//! Debug builds run products through kernels compiled inside matrix-core;
//! with `[profile.dev.package.matrix-core] opt-level = 3` in your
//! `Cargo.toml` they run at release speed while your own code stays
//! debuggable.
