use matrix_core::matrix;

matrix! {
    pub typedef float m2x2_t __attribute__((matrix_type(2, 2)));
    pub typedef int i2x2_t __attribute__((matrix_type(2, 2)));
    pub typedef float float4 __attribute__((ext_vector_type(4)));

    /// C's suffixes wherever a literal may stand: a `let`, a comparison, a
    /// branch's value, a call, a compound literal, a cast, a subscript.
    pub fn floats(a: m2x2_t, x: f32) -> f32 {
        let half = 0.5f;
        let v = (float4){x, 1.5F, 2e0f, 3};
        let m = (m2x2_t) ((i2x2_t) (a * 2.0f));
        if x > 1.0f { sqrtf(4.0f) * half } else { v.y + m[1u][0u] + 1.0e-1f }
    }

    /// A point with no digits on one side, as C writes it (`1.f`, `.5`),
    /// beside the Rust that looks alike: a tuple's field, a range.
    pub fn short_forms(x: f32, t: (f32, f32)) -> f32 {
        let mut s = x * .5f + 1.f - .25F;
        for i in 0..2 { s += t.1 * i as f32; }
        s + (.5 + 2.) as f32
    }

    /// `u`, `l`, `ll` and their unsigned mixes take C's types: `unsigned
    /// int` (`unsigned long` when the value needs it), `long`, `unsigned
    /// long`.
    pub fn integers(i: i2x2_t, l: i64, u: u32, ul: u64) -> i64 {
        let j = i * 3u + 2L;
        let a: u32 = u + 7U;
        let b: u64 = ul + 4294967296u + 1ull + 2LU;
        l * 10LL + j[0][0] as i64 + a as i64 + b as i64
    }
}

fn main() {
    let a = m2x2_t::from_rows([[1.25, 2.0], [3.5, 4.0]]);
    assert_eq!(floats(a, 2.0), 1.0);
    assert_eq!(floats(a, 0.0), 1.5 + 7.0 + 0.1);
    let i = i2x2_t::splat(1);
    assert_eq!(integers(i, 1, 1, 1), 10 + 5 + 8 + (1 + 4294967296 + 1 + 2));
    assert_eq!(short_forms(2.0, (0.0, 4.0)), 2.0 - 0.25 + 4.0 + 2.5);
}
