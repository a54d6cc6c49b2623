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
//!   `short`, `int`, `long` and their `unsigned` forms, `<stdint.h>`'s
//!   `int8_t` to `uint64_t`, and x86-64's `size_t` (`unsigned long`) and
//!   `ptrdiff_t` (`long`)) or Rust's (`f32`, `i16`, `bf16`, ...). A `__bf16` matrix rounds every operation to
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
//! | `__builtin_matrix_fill(m, v)` | a matrix of `m`'s type with every element `v` (converted as in `m + v`); `m` is unchanged; as the accumulator of an 8-bit `__builtin_matrix_mad` on AMX, a zero fill starts each tile with `tilezero` instead of loading it (beyond Clang, after SYCL's `joint_matrix`) |
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
//! or a shift count outside `[0, bits)` panics), scalar splat, comparisons giving Clang's `0`/`-1` masks, `&&` and
//! `||` (each lane true where it is not zero, `-0.0` being zero; a mask
//! as a comparison gives, both operands always evaluated), compound
//! literals `(vec3){a, b, c}` and splats `(vec3)(s)`. A scalar where a
//! vector is expected (`let v: float4 = 1;`, an argument, a returned value,
//! an assignment) converts to the element type and splats, as in Clang.
//!
//! Vector types whose elements fill as many bytes (a 3-element vector's
//! padding not counted: `int4`, `float4` and `short8`; `float3` and
//! `short6`) convert by reading the bytes as they are, as in Clang: a cast
//! `(int4) v` of a `float4` gives its bits ([`Vector::bitcast`](crate::Vector::bitcast)),
//! and an operator between two such types, `+= -=` and the others
//! included, reads its right operand's bytes as the left one's type, which
//! is the result's (`i + f` is `i + (int4) f`; a shift needs one length and
//! one element size). `__builtin_convertvector` converts the values
//! instead.
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
//!   outside the macro). [`Matrix::mad_to`](crate::Matrix::mad_to) writes
//!   the same result into a matrix of the caller's: the int8 kernels write
//!   it in place, so a large result is neither zeroed nor copied on its way
//!   (a 64x64x64 int8 product on AMX: 0.47 µs, against 1.38 µs for
//!   `out = a.mad(&b, &c)`, on an AMX Xeon).
//! * Products never convert an operand that the kernels can read in place:
//!   a row-major operand is the transpose of its storage, and a row-major
//!   result is computed as `out^T = b^T * a^T`. The one conversion left is
//!   a left operand whose storage is transposed relative to the result's
//!   (`rm * cm -> cm`, `cm * cm -> rm`), transposed once before the
//!   product, by whole tiles of the backend's shuffles (16x16 on AVX-512,
//!   8x8 on AVX2). That conversion is the one a mix of layouts costs: on
//!   an AMD EPYC (Zen 5), `mul_to` with a row-major left operand and a
//!   column-major result took 1.14–1.22 times the all-column-major
//!   `mul_to` at 16x16 `f32` and 1.11–1.16 at 64x64 (a row-major result of
//!   column-major operands alike), while a row-major right operand took
//!   0.98–1.06 (BENCHMARKS.md; earlier figures, 1.04–1.11 on a Xeon and an
//!   AVX2 EPYC, came from a benchmark that placed the operands differently
//!   for each column). In exact mode every sum runs in `k` order, so the
//!   vectors run along the result's columns, and a row-major left operand
//!   has no column to load. At 64x64 that conversion costs the product
//!   about 270 ns, where the same transpose alone (`transpose_to`) takes
//!   78 ns: the converted copy is a fourth 16 KiB matrix beside three that
//!   already fill that CPU's 48 KiB L1 data cache (the buffer is filled by
//!   vector stores, not by `memset`, whose `rep stosb` cost 60 to 140 ns
//!   more). A left operand used in several such products is cheaper
//!   converted once into a matrix of yours
//!   ([`to_layout_into`](crate::Matrix::to_layout_into): 74 to 83 ns at
//!   64x64; returned by `to_layout`, 484 to 535 ns). The bits are the
//!   column-major product's in every case.
//!   On the backends with 16 vector registers (AVX2, SSE2, portable), an
//!   `f32` or `f64` left operand of 32 rows or more (a multiple of 16) is
//!   transposed 16 rows at a time instead, into a buffer of 16 rows that
//!   the kernel reads at once for those rows of the result. On an AMD
//!   EPYC Zen 3 (AVX2) that took the 64x64 `f32` `mul_to` with a
//!   row-major left operand from 1.13–1.14 to 1.06–1.08 times the
//!   all-column-major one, and a row-major result of column-major
//!   operands from 1.19–1.23 to 0.95–0.97.
//!   On an AMD EPYC Zen 4 (AVX-512, whose 512-bit operations run as two
//!   256-bit halves) the mix costs 1.34 at 16x16 `f32` and 1.08 at 64x64:
//!   the 16x16 transpose alone takes 15 ns there, a fifth of the
//!   product's 72 ns.
//! * The column-major load and store read and write column-major memory
//!   whatever the matrix's layout (a row-major matrix is converted to
//!   store it), and the row-major ones row-major memory.
//!
//! ### Padding: not a type, a stride
//!
//! The RFC also plans a `column_padding(P)` clause (`P` unused elements
//! after each column). It is not built: a matrix value is always dense
//! (`size_of` is `R * C * size_of::<T>()`), because every kernel, and
//! every `matrix!` expansion, reads a matrix as one dense slice, and a
//! matrix value flows through ordinary Rust (tuples, closures, your own
//! functions) where no conversion could be inserted. The clause is refused
//! by name. Padded memory is reached through the stride of a load or store,
//! which reads and writes only the elements:
//!
//! ```
//! use matrix_core::matrix;
//!
//! matrix! {
//!     typedef float m3x3_t __attribute__((matrix_type(3, 3)));
//!
//!     // Columns of 3 floats padded to 4 (16 bytes each), as a GPU buffer
//!     // lays out a `mat3`.
//!     fn scale_padded(buf: &mut [f32], s: float) {
//!         let m: m3x3_t = __builtin_matrix_column_major_load(buf, 3, 3, 4);
//!         __builtin_matrix_column_major_store(m * s, buf, 4);
//!     }
//! }
//!
//! let mut buf = [1.0, 2.0, 3.0, -1.0, 4.0, 5.0, 6.0, -1.0, 7.0, 8.0, 9.0, -1.0];
//! scale_padded(&mut buf, 2.0);
//! assert_eq!(buf, [2.0, 4.0, 6.0, -1.0, 8.0, 10.0, 12.0, -1.0, 14.0, 16.0, 18.0, -1.0]);
//! ```
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
//! the tokens at fault; a block reports all its errors at once, one per
//! mistake (the callers of a kernel in error are not reported again). Every
//! message, its cause and its fix, quoted as the examples' types spell it;
//! *(ours)* marks a message Clang has no text for: the DSL's own syntax, and
//! the features beyond Clang.
//!
//! ### Block syntax, kernels and attributes
//!
//! | message | cause | fix |
//! |---|---|---|
//! | `` expected a typedef, a `const` item or a kernel `fn` in `matrix!` `` (ours) | a statement (`let x = 1;`) or other tokens that are no item, at the block's top level | move it into a kernel |
//! | `` expected a function body `{ ... }` `` (ours) | a kernel with no body (`fn f(a: m4x4_t) -> m4x4_t;`) or something other than a block after its signature | give every kernel a `{ ... }` body: blocks have no prototypes |
//! | `` kernels are free functions: `self` is not allowed here `` (ours) | a `self` parameter | take the value as an ordinary parameter; write methods outside the block, calling the kernel |
//! | `` `#[dispatch]` takes no arguments: write `#[dispatch]` on the kernel `` (ours) | `#[dispatch(avx2)]` | write `#[dispatch]` alone: the backend is chosen at run time |
//! | `` `#[dispatch]` cannot apply to a `const fn`: it compiles the kernel once per backend and chooses one at each call `` (also `` an `async fn` ``, `a kernel that returns a reference`) (ours) | `#[dispatch]` on a `const fn`, an `async fn` or a kernel returning a reference | drop the attribute, or make the kernel a plain `fn` returning a value |
//! | `` expected `case` or `default` before the first statement of a `switch` `` (ours) | pasted C's `switch (x) { y = 1; case 1: .. }`: a statement no label reaches (C never runs it) | start the body with a label, or move the statement before the `switch` |
//! | `` expected `case VALUE:`: a value, then `:` `` (ours) | `case 1 y = 2;` or `case:` | `case 1:` |
//! | `` a `static` that is not `const` keeps its value from call to call, which a kernel has nowhere to keep: make it `static const`, or keep the state outside the block `` (ours) | pasted C's `static int calls = 0;`, inside a function or at file scope | a `static const` table works; keep changing state in the caller and pass it in |
//! | `unknown fp_contract mode 'on': expected 'fast' or 'off'` (ours) | `#[fp_contract(on)]`, `#![fp_contract(fastest)]` | `fast` or `off` |
//! | Rust's parser's own messages (`expected ...`) | Rust that does not parse, in a signature, a body or a `const` item | fix the Rust syntax |
//!
//! ### Typedefs and types
//!
//! | message | cause | fix |
//! |---|---|---|
//! | `` expected the typedef's name before `__attribute__` `` (ours) | `typedef float __attribute__((matrix_type(4, 4)));`: no name | name the type between the element type and `__attribute__` |
//! | `expected an element type before the typedef's name` (ours) | `typedef m_t __attribute__((matrix_type(4, 4)));`: no element type | write it first: `typedef float m_t ...` |
//! | `` expected `__attribute__((matrix_type(ROWS, COLUMNS)))` or `__attribute__((ext_vector_type(N)))` after the typedef name `` (ours) | another attribute (`vector_size(16)`) or a malformed one | use one of the two attributes |
//! | `` expected `;` after the typedef `` (ours) | tokens after the attribute | end the typedef at `;` |
//! | `'matrix_type' attribute requires exactly 2 arguments` | one argument, or a third one that is no layout name (`matrix_type(4, 4, 4)`) | rows and columns, then optionally a layout (section 4b) |
//! | `matrix_type attribute requires an integer constant` | a dimension that is not an integer constant of the block: a float (`4.0`), a `static`, a variable; in a typedef or in `Matrix<T, R, C>` | an integer literal or a `const` item of the block (in a kernel's types, also its const generic parameter) |
//! | `zero matrix size` | a dimension of 0, in a typedef or in `Matrix<T, 0, C>` | dimensions start at 1 |
//! | `matrix row size too large`, `matrix column size too large` | a dimension above 1048575, or a negative one | a dimension from 1 to 1048575 |
//! | `invalid matrix element type 'bool'` | an element type matrices cannot hold: `bool`, `_Bool`, `char`, `i128`, `usize`, `long double`, a type such as `String` | one of the element types of section 1 |
//! | `unknown type name 'mat55'` | a name that is neither a typedef of the block nor a C or Rust scalar type: in a typedef (`typedef mat55 mat5;`), a cast `(vec5) x` or a compound literal | declare it in this block (a type of another block can be spelled `Matrix<T, R, C>`), or fix the spelling |
//! | `typedef redefinition with different types ('float __attribute__((matrix_type(2, 3)))' vs 'float __attribute__((matrix_type(2, 2)))')` | one name declared twice with different types | rename one of them |
//! | `` expected `Matrix<T, ROWS, COLUMNS>` `` (ours) | `Matrix` with too few or too many parameters (`Matrix<f32, 2>`) | element type, rows, columns, and optionally a layout |
//!
//! ### Operators and conversions
//!
//! | message | cause | fix |
//! |---|---|---|
//! | `invalid operands to binary expression ('m4x3_t' and 'm4x3_t')` | `*` (or `__builtin_matrix_multiply`, `_mad`) whose left columns differ from the right rows; `+`, `-` (`__builtin_matrix_add`, `_sub`, `_mad`'s addend) of different shapes, element types or layouts; `/` by a matrix, or a scalar divided by a matrix; `%`, `&`, `\|`, `^`, `<<`, `>>`, comparisons, `&&`, `\|\|` on matrices; `m * v` with a vector of the wrong length, or across a generic dimension; two generic dimensions that differ; `%` of float vectors | transpose, or cast the element type `(m4x4_t) i` or the layout `(m4x4r_t) a`; other element-wise operations go through `__builtin_matrix_map` and `_zip` |
//! | `invalid argument type 'm4x4_t' to unary expression` | `-m` or `!m` (Clang has neither on matrices), or `!v` on a float vector | `0 - m` negates; `__builtin_matrix_map(i, \|x\| -> int { !x })` complements |
//! | `indirection requires pointer operand ('m4x4_t' invalid)` | `*m` | use `m` itself: a matrix is a value |
//! | `statement requires expression of scalar type ('m4x4_t' invalid)` | a matrix as the condition of `if` or `while` | test a scalar, e.g. an element: `m[0][0] != 0.0` |
//! | `incompatible operand types ('m4x4_t' and 'm4x3_t')` | `if`/`else` branches, or the two sides of C's `c ? a : b`, of two types (two shapes, a matrix and a scalar) | make the branches one type: cast one, splat a scalar `(m4x4_t) 1.0` |
//! | `used type 'm4x4_t' where arithmetic or pointer type is required` | a matrix as the condition of `c ? a : b` | test a scalar, e.g. an element: `m[0][0] != 0 ? a : b` |
//! | `a pointer here is a slice ('&mut [f32]'), which has nothing before its first element: it moves forward only ('+', '+=', '++'); index from an earlier pointer instead` (ours) | pasted C that moves a pointer parameter back: `p - 1`, `p -= k`, `p--`, `*p-- = v` (a C pointer is a slice here, which cannot reach before its start) | keep the earlier pointer and index it (`base[i - 1]`), or walk forward |
//! | `expression is not assignable` | an assignment to an element of a temporary (`get()[0][0] = 1.0`), or a compound assignment of a matrix to a scalar (`s += m`) | assign to a `let mut` matrix; update one element of the matrix instead |
//! | `assigning to 'm4x3_t' from incompatible type 'm4x4_t'` | `=` of a value of another type (shape, element type, layout; a scalar to a matrix or a matrix to a scalar); a compound assignment whose result changes type (`a *= c` with a non-square `c`); a matrix as `__builtin_matrix_insert`'s value | make the types agree: cast, splat a scalar `(m4x4_t) s`, or pick an element |
//! | `initializing 'd4x4_t' with an expression of incompatible type 'm4x4_t'` | a `let x: T = ...` whose value has another type (another shape, element type or layout, a scalar for a matrix, a load of another element type); a vector inside a vector literal `(float4){v, 1, 2}` | cast `(d4x4_t) a`; splat a scalar `(m4x4_t) 1.0`; write a literal's elements one by one (`v.x, v.y`) |
//! | `returning 'm4x4_t' from a function with incompatible result type 'm2x2_t'` | a kernel's (or a closure's) tail or `return` of another type than it declares: a transpose, another element type or layout (a `packed_b` load gives a row-major matrix) | transpose, cast, or change the signature |
//! | `passing 'i4x4_t' to parameter of incompatible type 'm4x4_t'` | a kernel argument of another type (for a generic kernel, dimensions that bind no parameters); a matrix given to a `<math.h>` function; a vector of the wrong length to `__builtin_matrix_insert_row`/`_column`; a closure parameter declared with another type than the elements | pass the parameter's type: cast the argument, or fix the declaration |
//! | `conversion between matrix types 'm3x4_t' and 'm4x3_t' of different size is not allowed` | a cast (`(T) m` or `m as T`) between two shapes | casts convert elements only: transpose, or build the other shape explicitly |
//! | `conversion between matrix type 'm4x4_t' and incompatible type 'float' is not allowed` | a cast of a matrix to a scalar, or of a slice, pointer or other non-scalar to a matrix | take an element `m[r][c]`; read memory with a load builtin |
//! | `implicit conversion from 'double' to 'int' changes value from 2.5 to 2` | a literal scalar operand the element type cannot hold exactly (`i + 2.5`, `i *= 2.5`, `m + 16777217` with `float` elements, `u + 300` with `unsigned char` ones); also a `<math.h>` argument | write the literal in the element type (`0.1f32`, `2`) or cast it |
//! | `implicit conversion of out of range value from 'double' to 'int' is undefined` | a float literal outside an integer element type's range (`i + 1e10`) | a value the element type holds |
//!
//! ### Subscripts
//!
//! | message | cause | fix |
//! |---|---|---|
//! | `matrix row index is outside the allowed range [0, 4)` (or `column`; `[0, N)` of a generic dimension) | a constant index (a literal, a constant expression, a `const` item, a negative value) past the shape, in `m[r][c]`, `__builtin_matrix_extract`/`_insert` or `__builtin_matrix_column`/`_row`; below a generic dimension, a negative one | index from 0 to the dimension - 1 |
//! | `matrix row index is not an integer` (or `column`) | a float or a matrix as an index | an integer index |
//! | `single subscript expressions are not allowed for matrix values` | `m[i]` alone, read or assigned | `m[r][c]`; a whole row or column: `__builtin_matrix_row`/`_column` |
//! | `matrix row and column subscripts cannot be separated by any expression` | `(m[1])[1]` | `m[1][1]` |
//! | `address of matrix element requested` | `&m[r][c]` or `&mut m[r][c]` | copy the element (`let x = m[r][c];`) or assign in place (`m[r][c] = x`) |
//! | `index -1 is negative` (ours) | a negative constant index of a matrix the block cannot see (another block's typedef) | index from 0 (rustc checks the upper bound, see below) |
//!
//! ### Builtins
//!
//! | message | cause | fix |
//! |---|---|---|
//! | `use of unknown builtin '__builtin_matrix_foo'` | a `__builtin_matrix_` name that does not exist | see section 3 |
//! | `too few arguments to function call, expected 3, have 2` (`too many ...`; `expected at least 3`, `expected at most 4`) | a builtin, a kernel or a `<math.h>` function called with the wrong number of arguments (`__builtin_matrix_column_load` needs its stride, `__builtin_matrix_load` its layout) | the arguments of section 3, or of the kernel's signature |
//! | `1st argument must be a matrix (was 'float')` (`2nd`, `3rd`) | a scalar or a vector where a builtin takes a matrix (`__builtin_matrix_transpose(s)`, `__builtin_matrix_add(a, s)`, `__builtin_matrix_row(v, 0)`, a store's value) | pass a matrix; with a scalar, use the operator (`a + s`) |
//! | `1st argument must be a matrix of a type this block declares (was 'm3_t')` (ours; `2nd`, `3rd`) | a builtin's argument whose type the block does not declare: a value of another block's typedef, or an operation on such values (the type is then not named) | declare the type in this block: spell the parameter `Matrix<T, R, C>` (or `Matrix<T, R, C, RowMajor>`), or give this block a typedef of its own for it |
//! | `2nd argument must be a scalar (was 'm4x4_t')` (ours) | a matrix as the scalar of `__builtin_matrix_scalar_multiply` or `__builtin_matrix_fill` | pass a scalar; with two matrices use `*`, or `__builtin_matrix_zip` |
//! | `row argument must be a constant unsigned integer expression` (or `column`) | a load's row or column count that is a variable or a float | a literal, a `const` item or a const generic parameter: the count is part of the type |
//! | `row dimension is outside the allowed range [1, 1048575]` (or `column`) | a load's count of 0, negative, or above 1048575 | a count from 1 to 1048575 |
//! | `2nd argument must be a closure with one parameter, one element each` (`3rd argument ... with two parameters` for `_zip`) (ours) | `__builtin_matrix_map` given anything but a closure of one parameter, or `__builtin_matrix_zip` anything but a closure of two | `\|x\| expr` for `_map`, `\|x, y\| expr` for `_zip` |
//! | `a parameter of an element-wise closure must be a name, or a name and its element type` (ours) | a pattern as a parameter (`\|(x, y)\| x`) | `\|x\|` or `\|x: float\|` |
//! | `an element-wise closure must return a valid matrix element type (was 'bool')` (ours) | a `map`/`zip` closure giving a `bool`, a matrix or another non-element | return an element: `\|x\| -> float { if x > 0.0 { 1.0 } else { 0.0 } }` |
//! | `` cannot infer the element type of this closure's result; declare it, as in `\|x\| -> float { .. }` `` (ours) | a closure body whose type the macro cannot see, such as a method call (`\|x\| x.abs()`) | declare it: `\|x\| -> float { x.abs() }` |
//! | `matrix arguments to '__builtin_matrix_zip' must have the same dimensions ('m4x4_t' and 'm2x2_t')` (ours) | `__builtin_matrix_zip` of two shapes | matrices of one shape |
//!
//! ### Loads, stores and layouts
//!
//! Mixing layouts in an operator, an assignment or a return is one of the
//! operator and conversion errors above (`invalid operands to binary
//! expression ('m4x4_t' and 'm4x4r_t')`): cast one side.
//!
//! | message | cause | fix |
//! |---|---|---|
//! | `1st argument must be a pointer to a valid matrix element type (was '&[bool]')` (`2nd` for a store's destination) | a load's source or a store's destination that is not memory of matrix elements: a scalar, a matrix, a slice of `bool` | a `&[T]`, `&mut [T]`, `[T; N]`, `Vec<T>` or pointer of an element type |
//! | `` 1st argument must be a pointer to a valid matrix element type (was an expression of unknown type: pass a `&[T]`, `&mut [T]`, `[T; N]`, `Vec<T>` or `*const T` the kernel declares) `` (ours) | a load's source whose type the macro cannot see, such as the result of a function outside the block | take it as a parameter, or bind it to a typed `let` (`let src: &[f32] = source();`) |
//! | `stride must be greater or equal to the number of rows` | a column-major load or store with a constant stride below the row count (0 too) | at least the row count, or no stride where it is optional |
//! | `stride must be greater or equal to the number of columns` (ours) | the same in a row-major load or store | at least the column count |
//! | `stride must be greater or equal to the length of a packed_b line (20)` (ours) | a `packed_a` or `packed_b` load or store whose constant stride is shorter than one interleaved line | at least the length shown |
//! | `the memory layout of a matrix load or store is 'column_major', 'row_major', 'packed_a' or 'packed_b'` (ours) | a layout argument of `__builtin_matrix_load`/`_store` that is another name (`packed_c`) or no bare name (`"packed_b"`) | one of the four names, unquoted |
//! | `cannot store matrix to read-only pointer` | a store to `&[T]` or `*const T` | `&mut [T]` or `*mut T` |
//! | `the pointee of the 2nd argument must match the element type of the 1st argument ('int' != 'float')` | a store to memory of another element type (signedness counts) | a buffer of the element type, or cast the matrix first: `(i4x4_t) m` |
//! | `the layout of a 'matrix_type' is 'column_major' or 'row_major'` (ours) | a third `matrix_type` argument naming no layout (`diagonal`) | `column_major` or `row_major` |
//! | `'column_padding' in a 'matrix_type' is not supported: a matrix is stored without padding; load and store padded columns with a stride` (ours) | the RFC's `column_padding(P)` clause, which this crate does not build (see [Padding](#padding-not-a-type-a-stride)) | declare the type without it; read padded memory with `__builtin_matrix_column_major_load(p, R, C, R + P)` and write it with the matching store |
//! | `` the layout of a `Matrix` is `ColumnMajor` or `RowMajor` `` (ours) | a fourth `Matrix` parameter that is no layout, in a `type` item or a kernel's types | `ColumnMajor` or `RowMajor` |
//! | `matrix arguments to '__builtin_matrix_zip' must have the same layout ('m4x4_t' and 'm4x4r_t')` (ours) | `__builtin_matrix_zip` of two layouts (it pairs elements by memory position) | cast one: `(m4x4_t) b` |
//!
//! ### Vectors
//!
//! | message | cause | fix |
//! |---|---|---|
//! | `'ext_vector_type' attribute takes one argument` | `ext_vector_type(1, 2)` | one length |
//! | `ext_vector_type attribute requires an integer constant` | a length that is not an integer constant of the block | an integer literal or a `const` item |
//! | `zero vector size` | a length of 0 | a length from 1 to 16 |
//! | `a vector of 17 elements is not supported: vectors have 1 to 16 elements` (ours) | a length above 16 (the last component is `.sF`) | several vectors, or a matrix |
//! | `invalid vector element type 'm2_t'` | a vector of matrices, or of another non-scalar | a scalar element type |
//! | `illegal vector component name 'q'` | the first character that names no component (`.q`, `.xq`), or that leaves the set the name started in (`'r'` of `.xr`), or a lone `.s` | `.xyzw`, `.rgba` or `.s0`..`.sF`, one set per swizzle |
//! | `vector component access exceeds type 'float3'` | a component past the length (`.w` of a 3-element vector), or hex digits without their `s` (`.c`, `.e1`: Clang reads them as lanes from 10 up) | components within the length, `.sc` for lane 12 |
//! | `a vector of 17 elements is not supported: vectors have 1 to 16 elements` (ours) | a swizzle of more than 16 components (Clang makes a longer vector of it) | two swizzles |
//! | `vector is not assignable (contains duplicate components)` | `v.xx = ...` | assign to distinct components |
//! | `` 'hi' of a vector of 3 elements reads its padding: `.hi` needs an even number of elements `` (ours) | `.hi` or `.odd` of a vector of odd length, whose half includes the padding lane (`.lo` and `.even` of a `float3` are lanes 0, 1 and 0, 2, as in Clang) | name the components: `v.z`, `v.s2` |
//! | `vector index 4 is outside the allowed range [0, 4)` (ours) | a constant index past the end, or negative (Clang accepts it) | index from 0 to the length - 1 |
//! | `array subscript is not an integer` | a float vector index | an integer index |
//! | `implicit conversion from 'double' to '_Bool' changes value from 0.5 to true` | a floating literal other than `1.0` and `0.0` beside `&&` or `\|\|` on vectors (Clang warns as if converting it to `_Bool`, although it splats) | compare explicitly: `v != 0` |
//! | `cannot convert between vector values of different size ('float4' and 'float3')` | an operation between vectors whose elements fill different numbers of bytes, or a float scalar with an integer vector (`a + f`, `a * 2.5`) | convert with `__builtin_convertvector`; use an integer scalar |
//! | `vector operands do not have the same number of elements ('int4' and 'short8')` | a shift between vectors of different lengths | shift by a vector of the same length |
//! | `vector operands do not have the same elements sizes ('int4' and 'long4')` | a shift between vectors of one length whose elements differ in size | convert the count with `__builtin_convertvector` |
//! | `cannot convert between vector and non-scalar values ('float4' and 'm4x1_t')` | `+`, `-`, `/` or a comparison between a vector and a matrix (only `*` multiplies them) | multiply, or read the matrix's column with `__builtin_matrix_column` |
//! | `used type 'float4' where floating point type is not allowed` | a float vector as the condition of `c ? a : b` (Clang chooses lanes by an integer vector's sign bits) | compare: `v > 0 ? a : b` gives an integer vector |
//! | `vector condition type 'int4' and result type 'int2' do not have the same number of elements` | `c ? a : b` with an integer vector condition of another length than its sides | sides of the condition's length |
//! | `vector condition type 'int4' and result type 'double4' do not have elements of the same size` | `c ? a : b` whose condition's elements fill another number of bytes than the sides' (`int4` against `double4`) | a condition of the sides' width: `long4` for `double4` sides (a comparison of `double4` values gives one) |
//! | `used type 'float4' where integer is required` | `<<` or `>>` with an operand that is not an integer (a float vector or scalar, a matrix) beside a vector | shift integer vectors by integers |
//! | `excess elements in vector initializer` | a compound literal with more elements than the length | as many elements as the length, or fewer (the rest are zero) |
//! | `illegal initializer type 'm2_t'` | a compound literal of a matrix type `(m2_t){x, x, x, x}` | a splat `(m2_t) x`, a load, or `__builtin_matrix_insert` |
//! | `` expected the elements of a compound literal: `(NAME){a, b}` `` (ours) | braces after a vector type's name that do not hold expressions separated by commas | `(float4){a, b, c, d}` |
//! | `first two arguments to __builtin_convertvector must have the same number of elements` | a conversion to a vector type of another length | a target of the same length |
//! | `first argument to __builtin_convertvector must be a vector` | a scalar or a matrix to convert | a vector (a scalar converts with a cast) |
//! | `second argument to __builtin_convertvector must be a vector type` | a second argument that is no vector typedef of the block | name a vector typedef |
//! | `invalid conversion between ext-vector type 'float4' and 'int2'` | a cast of a vector to a vector type whose elements fill another number of bytes (`(float4)(v)` with an `int2` or a `float3` `v`) | convert the elements, then build the other length from components |
//! | `the line's length is the generic dimension 'N': a vector's length must be an integer constant` (ours) | a row or column as a vector (`__builtin_matrix_column`, `_row`, `_insert_*`) of a matrix whose other dimension is generic | index the elements instead, or make the dimension a constant |
//!
//! ### Features
//!
//! | message | cause | fix |
//! |---|---|---|
//! | `` '__bf16' matrices need the `bf16` feature of matrix-core `` (also `` '_Float16' ... `f16` ``) (ours) | a `__bf16`/`bf16` or `_Float16`/`f16` element while matrix-core's feature is off | enable it: `matrix-core = { version = "...", features = ["bf16"] }` |
//!
//! ### Reported by rustc
//!
//! Where the macro cannot see a type, or a dimension is generic, rustc checks
//! the rule with the runtime's wording:
//!
//! | message | cause | fix |
//! |---|---|---|
//! | `invalid operands to binary expression ('Matrix<f32, 4, 4>' and 'Matrix<f32, 3, 3>')` (error E0277) | `+`, `-`, `*` or `/` between a matrix and a value the block cannot see (another block's kernel or typedef, a method's result) whose type does not fit | as for the macro's message above |
//! | `matrix row index is outside the allowed range [0, N)` (E0080, `evaluation panicked: ...`; or `column`) | a constant index below a generic dimension, when a call instantiates the kernel with a smaller one (`corner(m)` with a 2x2 `m`) | call with a larger matrix, or index below the dimension |
//! | `matrix row index is outside the allowed range` (E0080; or `column`) | a constant index past the shape of another block's matrix | index from 0 to the dimension - 1 |
//! | `invalid operand types to '__builtin_matrix_mad' ('f32' times 'f32' plus 'i32')` (ours) | `Matrix::mad` with element types that do not combine | one type throughout, `i8`/`u8` operands with an `i32` accumulator, or `bf16` operands with an `f32` one |
//! | `` the layout of a `Matrix` is `ColumnMajor` or `RowMajor`, not `Diagonal` `` (ours) | `Matrix<T, R, C, L>` outside a block with another `L` | `ColumnMajor` or `RowMajor` |
//! | `a vector of 17 'f32' elements is not supported: a vector has 1 to 16 elements` (ours) | `Vector<T, N>` outside a block with `N` of 0 or above 16 | a length from 1 to 16 |
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
//! `fp_contract(fast)`). Each operation checks the chosen backend once;
//! a build whose target has the best backend's features (`-C
//! target-cpu=native`) checks nothing and compiles each operation into
//! its caller. For loops over many small matrices, put `#[dispatch]` on
//! the kernel that holds the loop: it is compiled once per backend and
//! checks once per call. Outside kernels, [`dispatch`](crate::dispatch)
//! runs a closure compiled for the chosen backend: write it
//! `matrix_core::dispatch(#[inline(always)] || ...)`, since a closure LLVM
//! keeps out of line is compiled for the baseline alone.
//!
//! Within a backend, two choices also follow the CPU's cores, read once
//! from CPUID: where the 512-bit units are full width (AMD Zen 5), 8-row
//! `f32` products put two columns in each 512-bit vector (under
//! `#[fp_contract(fast)]` an 8x8 one reaches 59–63% of the FMA peak, against
//! 40–46% for the form exact products keep), and transposes of
//! 32-bit elements take 16x16 tiles with more shuffles and fewer loads;
//! other CPUs keep the forms measured faster there. Each pair gives the
//! same bits.
//!
//! A small `#[fp_contract(fast)]` product-add (a 4x4 `a * b + c`) called
//! once per matrix from a default build runs through the AVX2 kernel with
//! no copy of its by-value operands: on an AVX2 EPYC it takes 6.1 ns,
//! against 5.7 ns for the exact kernel (which a default build runs inline
//! on SSE2) and 2.7 ns per matrix in a `#[dispatch]` kernel that loops
//! over the batch.
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
//! A product or transpose whose result goes into memory (a slice, a
//! field, a matrix behind a `&mut`) is best written
//! [`a.mul_to(&b, &mut out)`](crate::Matrix::mul_to),
//! [`a.mad_to(&b, &c, &mut out)`](crate::Matrix::mad_to),
//! [`a.transpose_to(&mut out)`](crate::Matrix::transpose_to) or
//! [`a.to_layout_into(&mut out)`](crate::Matrix::to_layout_into): the kernel
//! writes `out` itself, where `*out = a * b` copies the result the kernel
//! returned (on an AVX-512 Xeon, 12 to 14 ns against 16 to 17.5 ns for an
//! 8x8 `f32` product; clang-19's kernel takes 11 to 12 ns; 4.1 ns against
//! 7.5 ns for an 8x8 `f32` transpose).
//!
//! Why only there: a result the kernel returns lands directly in a local
//! variable (`let t = a.transpose();`) or in the caller's own return value,
//! but not behind a `&mut`. Rust does not let a call write through a
//! `&mut` before it returns (a panic midway would leave the matrix half
//! written), so `*out = a.transpose()` builds the result in a temporary and
//! copies it, and a kernel compiled for another backend is never inlined
//! to avoid that. The copy moves every byte of the result once more: a
//! 16x16 `f32` transpose took 5.4 ns written into `out` and 13.4 ns copied
//! (a default build on an AMD EPYC Zen 5 with AVX-512).
//!
//! ```
//! use matrix_core::Matrix;
//!
//! let view = Matrix::<f32, 8, 8>::identity() * 2.0;
//! let models = vec![Matrix::<f32, 8, 8>::splat(1.0); 4];
//! let mut out = vec![Matrix::zero(); 4];
//! for (m, o) in models.iter().zip(&mut out) {
//!     view.mul_to(m, o);
//! }
//! assert!(out.iter().all(|o| *o == Matrix::splat(2.0)));
//! ```
//!
//! Kernels written as C writes them, loading their operands from memory and
//! storing the result to memory, run with no copy at all:
//!
//! * `__builtin_matrix_column_major_store(a * b, out, stride)` (also with
//!   `a * b + c` or `__builtin_matrix_transpose(m)`, and the row-major store
//!   of a row-major matrix) has the kernel write `out` itself where the
//!   lines are dense (the stride is the column's length, or omitted); with
//!   gaps between the lines the value is computed, then stored.
//! * A dense load from a `&[T]` parameter (memory nothing can change while
//!   the kernel runs) is read where it is when it is a product's or a
//!   transpose's operand, or bound by `let x =
//!   __builtin_matrix_column_major_load(a, R, C)`:
//!   `x` then refers to the matrix in `a`, and each use reads the values a
//!   copy would hold. A binding that is `mut`, assigned, borrowed mutably,
//!   used as a method's receiver or named inside a macro stays a copy, as
//!   does every binding of a body with a `move` closure, and a load from
//!   `&mut [T]`, a pointer or a local.
//!
//! On an AVX-512 Xeon (default build, medians of three runs), the 8x8
//! `f32` kernel below took 14.2–16.4 ns, clang-19's same kernel 13.6–15.7
//! ns; with the loads copied it took 25.6–34 ns, and a kernel taking and
//! returning matrices by value, called as `*out = mul(*a, *b)`, 27.7–35 ns.
//! Outside the macro,
//! [`Matrix::ref_from_slice`](crate::Matrix::ref_from_slice) and
//! [`Matrix::mut_from_slice`](crate::Matrix::mut_from_slice) view a slice
//! as a matrix in place, for `mul_to` and the operators.
//!
//! ```
//! use matrix_core::matrix;
//!
//! matrix! {
//!     typedef float m8x8_t __attribute__((matrix_type(8, 8)));
//!
//!     fn mul(a: &[f32], b: &[f32], out: &mut [f32]) {
//!         let x: m8x8_t = __builtin_matrix_column_major_load(a, 8, 8);
//!         let y: m8x8_t = __builtin_matrix_column_major_load(b, 8, 8);
//!         __builtin_matrix_column_major_store(x * y, out, 8);
//!     }
//! }
//!
//! let identity: Vec<f32> = (0..64).map(|i| if i % 9 == 0 { 1.0 } else { 0.0 }).collect();
//! let b: Vec<f32> = (0..64).map(|i| i as f32).collect();
//! let mut out = [0.0; 64];
//! mul(&identity, &b, &mut out);
//! assert_eq!(out[..], b[..]);
//! ```
//!
//! Debug builds run products through kernels compiled inside matrix-core;
//! with `[profile.dev.package.matrix-core] opt-level = 3` in your
//! `Cargo.toml` they run at release speed while your own code stays
//! debuggable. Without that override, `Matrix`'s operators (`*`, `+`,
//! `-`, a scalar `* /`, `transpose`) run in a debug build on loops over
//! the matrix's column (or row) arrays, inlined into your code and
//! written for opt-level 0; their results are the same bits in every
//! build.
