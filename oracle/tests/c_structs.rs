//! C's structures pasted into a block, against clang-19: `struct tag {..};`,
//! `typedef struct [tag] {..} name;` and `typedef struct tag name;`;
//! members of matrix, vector, scalar (narrow integers too), array and
//! structure types; initialisers in member order, by designator, nested,
//! partial (the rest zero), of arrays of structures, and compound literals;
//! vectors' braced initialisers (`vec3 w = {2};`, lanes left out zero,
//! arrays of vectors); constants of vector and structure types at file
//! scope (`static const vec3 up = {0, 1, 0};`);
//! `.` and `->`, `&local` passed for a pointer, copies by assignment,
//! structures passed and returned by value, and `sizeof`, which checks
//! that each structure has C's layout. The block's source is one text,
//! compiled as `matrix!` and (through `stringify!`) as C; every function
//! runs on many inputs, and the results are compared line for line.

use matrix_oracle::{c_and_rust, harness};

c_and_rust! {
    typedef float m4 __attribute__((matrix_type(4, 4)));
    typedef double d2 __attribute__((matrix_type(2, 2)));
    typedef float vec4 __attribute__((ext_vector_type(4)));
    typedef float vec3 __attribute__((ext_vector_type(3)));

    struct light { vec3 dir; float power; };

    typedef struct camera {
        m4 view;
        vec4 eye;
        float fov, aspect;
        float planes[2];
        struct light sun;
        int flags;
    } camera;

    typedef struct camera cam_t;

    typedef struct { float x, y; } point;

    static const vec3 up = { 0, 1, 0 };
    static const vec3 axes[2] = { { 1, 2, 3 }, { 4 } };
    const point unit = { .y = 1 };

    typedef struct {
        unsigned char r, g, b;
        short level;
        double grid[2][3];
        d2 basis;
    } pixel;

    static void aim(camera *c, float k) {
        c->view[0][3] += k;
        c->eye.w = k * 2;
        c->sun.power *= 3;
        c->planes[1] = c->planes[0] + k;
        c->flags |= 4;
    }

    float light_sum(const struct light *l, int n) {
        float s = 0;
        for (int i = 0; i < n; i++) s += l[i].power * l[i].dir.y + l->dir.x;
        return s;
    }

    point mid(point a, point b) {
        point m = { (a.x + b.x) / 2, (a.y + b.y) / 2 };
        return m;
    }

    float scene(float a, float b, int n) {
        camera c = { .fov = a, .aspect = b, .planes = { 1, 2 }, .sun = { { 1, 2, 3 }, 5 } };
        cam_t d = c;
        c.view[1][1] = a;
        c.view[2][0] = b - a;
        aim(&c, b);
        struct light ls[3] = { { { 0, 1, 0 }, 1 }, c.sun, { .dir = { 1, 1, 1 }, 7 } };
        point p = mid((point){ a, b }, (point){ .y = 2 * b });
        c.flags += n;
        vec4 v = c.eye * c.view[0][3] + c.eye.w;
        return c.fov + c.aspect * 10 + c.planes[1] + c.sun.power + light_sum(ls, 3)
            + p.x * p.y + v.w + v.y + c.flags + d.sun.dir.z + c.view[2][0] * c.view[1][1];
    }

    int wrap(unsigned char r, int k, short level) {
        pixel px = { r, r + 1, .level = level };
        px.r += 200;
        px.g *= k;
        px.b = px.r - px.g;
        px.level -= k * 1000;
        px.grid[1][2] = r / 2.0;
        px.basis[1][0] = px.grid[1][2] * k;
        pixel copy = px;
        copy.r++;
        return px.r * 1000000 + px.g * 1000 + px.b + copy.r + px.level + (int) copy.basis[1][0];
    }

    double grid(double s) {
        pixel q = { 0, 0, 0, 0, { { s, 2 * s }, { 3 } }, };
        pixel *p = &q;
        p->grid[0][2] = p->grid[0][1] + 1;
        d2 m = p->basis + s;
        return p->grid[0][0] + p->grid[0][1] * 10 + p->grid[0][2] * 100 + p->grid[1][0] * 1000
            + m[1][1];
    }

    float lanes(float k) {
        vec3 w = { 2 }, z = { k, k * 2 };
        vec3 pts[2] = { { 1, 2, 3 }, { k } };
        float s = { 5 };
        struct light l = { up * k, k };
        return up.y + w.x + w.y + z.y + pts[1].x + pts[0].z + s + l.dir.y + l.power
            + axes[1].x * axes[0].z + unit.y;
    }

    unsigned sizes(void) {
        return sizeof(camera) * 1000000 + sizeof(pixel) * 1000 + sizeof(struct light) * 10
            + sizeof(point);
    }
}

/// Each case as a C expression and its format, and the line here.
fn cases() -> Vec<harness::Case> {
    let mut out = Vec::new();
    let mut push = |call: String, format: &str, ours: String| {
        out.push(harness::case(&call, format, ours));
    };
    let floats = [-3.5f32, -1.0, 0.0, 0.25, 1.5, 7.0, 1e3];
    for a in floats {
        for b in floats {
            for n in [0, 1, 9] {
                push(
                    format!("fb(scene({a:?}f, {b:?}f, {n}))"),
                    "%u",
                    scene(a, b, n).to_bits().to_string(),
                );
            }
        }
    }
    for r in [0u8, 1, 55, 56, 100, 200, 255] {
        for k in [-3, 0, 1, 2, 7] {
            for level in [-32768i16, -1, 0, 1234, 32767] {
                push(
                    format!("wrap({r}, {k}, {level})"),
                    "%d",
                    wrap(r, k, level).to_string(),
                );
            }
        }
    }
    for s in [-2.5f64, 0.0, 1.0 / 3.0, 1e10] {
        push(
            format!("db(grid({s:?}))"),
            "%llu",
            grid(s).to_bits().to_string(),
        );
    }
    for k in floats {
        push(
            format!("fb(lanes({k:?}f))"),
            "%u",
            lanes(k).to_bits().to_string(),
        );
    }
    push("sizes()".to_string(), "%u", sizes().to_string());
    out
}

#[test]
fn c_structures_agree_with_clang() {
    harness::assert_c_cases_print(
        "c_structures_agree_with_clang",
        "c-structs",
        C_SOURCE,
        "",
        &cases(),
    );
}

/// The structures are Rust values outside the block, with C's layout: a
/// camera built here is what `aim` changes.
#[test]
fn structures_are_rust_values() {
    let mut c = camera {
        planes: [1.0, 0.0],
        ..camera::default()
    };
    aim(core::slice::from_mut(&mut c), 2.0);
    assert_eq!(c.view[(0, 3)], 2.0);
    assert_eq!(c.eye[3], 4.0);
    assert_eq!(c.planes, [1.0, 3.0]);
    assert_eq!(c.flags, 4);
    assert_eq!(core::mem::align_of::<camera>(), 16);
    let p: point = mid(point { x: 1.0, y: 2.0 }, point { x: 3.0, y: 6.0 });
    assert_eq!((p.x, p.y), (2.0, 4.0));
}
