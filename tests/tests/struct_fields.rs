//! Matrices and vectors held in structs. A struct declared in the block is
//! known to the macro field by field: `cam.view * v` is a matrix-vector
//! product, `cam.view[4][0]` a compile error (ui-tests), a literal meeting
//! a field converts to its type. A field of a struct declared outside the
//! block has a type the macro cannot see: rustc decides through the
//! runtime's `Kernel*` traits, a matrix or vector taking part as one, a
//! scalar converted to the element type. Both are compared with the same
//! computation on `Matrix`'s and `Vector`'s own operators and with a plain
//! scalar reference, on random inputs, on every backend this CPU runs.

use matrix_core::{Matrix, Vector, matrix};
use matrix_tests::{Rng, assert_same, matmul};

type M4 = Matrix<f32, 4, 4>;
type V4 = Vector<f32, 4>;

/// A struct the block cannot see.
#[derive(Clone, Copy, Debug, Default)]
struct Outside {
    view: M4,
    eye: V4,
    scale: i32,
}

matrix! {
    typedef float m4 __attribute__((matrix_type(4, 4)));
    typedef float vec4 __attribute__((ext_vector_type(4)));
    typedef float vec3 __attribute__((ext_vector_type(3)));

    #[derive(Clone, Copy, Debug, Default)]
    struct Camera {
        view: m4,
        eye: vec4,
        fov: f32,
        model: Model,
    }

    #[derive(Clone, Copy, Debug, Default)]
    struct Model {
        world: m4,
        tint: vec3,
    }

    #[derive(Clone, Copy, Debug, Default)]
    struct Pair(m4, f32);

    /// Fields as operands: a product with a vector, a splat, a nested
    /// field, a literal converted to a field's type.
    fn eye_space(c: Camera, p: vec4) -> vec4 {
        c.view * (c.model.world * p) + c.eye * c.fov - 1
    }

    /// Fields as places, through a reference: an element, a swizzle, a
    /// whole matrix, compound assignments with literals.
    fn adjust(c: &mut Camera) -> f32 {
        c.view[3][3] = 2;
        c.view[0][1] += 3;
        c.eye.yz = c.eye.xx + 1;
        c.model.tint *= 2;
        c.view = c.view * c.model.world + c.fov;
        c.view[1][2] + c.eye.y + c.model.tint.z
    }

    /// A tuple struct's fields.
    fn pair(p: Pair) -> m4 {
        p.0 * p.1 + p.0[3][3]
    }

    /// The fields of a struct the block cannot see, decided by rustc.
    fn outside(o: Outside, mut m: m4, mut v: vec4) -> vec4 {
        m += o.view;
        m *= o.view;
        m -= o.scale;
        v += o.eye;
        v *= o.scale;
        v = o.view * v + v * o.view + o.scale / v;
        m * v + o.eye
    }
}

fn m4(rng: &mut Rng) -> M4 {
    M4::from_column_major(&rng.vec::<f32>(16))
}

fn v4(rng: &mut Rng) -> V4 {
    let v = rng.vec::<f32>(4);
    V4::from_array([v[0], v[1], v[2], v[3]])
}

/// `m * v` on the scalar reference, `v` a column.
fn times(m: M4, v: V4) -> V4 {
    let p = matmul(m.as_slice(), v.as_ref(), 4, 4, 1);
    V4::from_array([p[0], p[1], p[2], p[3]])
}

#[test]
fn fields_of_the_blocks_structs_are_typed_operands() {
    let mut rng = Rng::new(0x7374_7275);
    for _ in 0..50 {
        let world = m4(&mut rng);
        let tint3 = rng.vec::<f32>(3);
        let c = Camera {
            view: m4(&mut rng),
            eye: v4(&mut rng),
            fov: rng.scalar(),
            model: Model {
                world,
                tint: Vector::from_array([tint3[0], tint3[1], tint3[2]]),
            },
        };
        let p = v4(&mut rng);
        let expected = times(c.view, times(world, p)) + c.eye * c.fov - 1.0;
        assert_same(eye_space(c, p).as_ref(), expected.as_ref(), "eye_space");

        let mut changed = c;
        let got = adjust(&mut changed);
        let mut view = c.view;
        view[(3, 3)] = 2.0;
        view[(0, 1)] += 3.0;
        let eye = Vector::from_array([c.eye[0], c.eye[0] + 1.0, c.eye[0] + 1.0, c.eye[3]]);
        let tint = c.model.tint * 2.0;
        let product = matmul(view.as_slice(), world.as_slice(), 4, 4, 4);
        let view: Vec<f32> = product.iter().map(|x| x + c.fov).collect();
        assert_same(changed.view.as_slice(), &view, "adjust: view");
        assert_same(changed.eye.as_ref(), eye.as_ref(), "adjust: eye");
        assert_same(changed.model.tint.as_ref(), tint.as_ref(), "adjust: tint");
        assert_same(&[got], &[view[2 * 4 + 1] + eye[1] + tint[2]], "adjust");

        let s: f32 = rng.scalar();
        let got = pair(Pair(c.view, s));
        let expected: Vec<f32> = c
            .view
            .as_slice()
            .iter()
            .map(|x| x * s + c.view[(3, 3)])
            .collect();
        assert_same(got.as_slice(), &expected, "pair");
    }
}

#[test]
fn fields_of_other_structs_are_decided_by_rustc() {
    let mut rng = Rng::new(0x6f75_7473);
    for _ in 0..50 {
        let o = Outside {
            view: m4(&mut rng),
            eye: v4(&mut rng),
            scale: rng.below(7) as i32 - 3,
        };
        let (m0, v0) = (m4(&mut rng), v4(&mut rng));
        let s = o.scale as f32;
        let row_times = |v: V4, m: M4| {
            let p = matmul(v.as_ref(), m.as_slice(), 1, 4, 4);
            V4::from_array([p[0], p[1], p[2], p[3]])
        };
        let sum: Vec<f32> = m0
            .as_slice()
            .iter()
            .zip(o.view.as_slice())
            .map(|(x, y)| x + y)
            .collect();
        let product = matmul(&sum, o.view.as_slice(), 4, 4, 4);
        let m: Vec<f32> = product.iter().map(|x| x - s).collect();
        let m = M4::from_column_major(&m);
        let v = (v0 + o.eye) * s;
        let v = times(o.view, v) + row_times(v, o.view) + V4::splat(s) / v;
        let expected = times(m, v) + o.eye;
        assert_same(outside(o, m0, v0).as_ref(), expected.as_ref(), "outside");
    }
}

/// This binary's tests on every other backend this CPU supports.
#[test]
fn on_every_backend() {
    matrix_tests::rerun_on_every_backend("on_every_backend");
}
