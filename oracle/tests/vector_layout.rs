//! `Vector<T, N>` has the size and alignment clang-19 gives
//! `T __attribute__((ext_vector_type(N)))`, for every element type and
//! every length from 1 to 16.

use matrix_core::Vector;
use matrix_oracle::harness;
use std::collections::BTreeMap;
use std::fmt::Write;

/// (C spelling, Rust type) of every element type.
const TYPES: [(&str, &str); 10] = [
    ("signed char", "i8"),
    ("unsigned char", "u8"),
    ("short", "i16"),
    ("unsigned short", "u16"),
    ("int", "i32"),
    ("unsigned int", "u32"),
    ("long", "i64"),
    ("unsigned long", "u64"),
    ("float", "f32"),
    ("double", "f64"),
];

macro_rules! rust_layouts {
    ($($t:ty),*) => {{
        let mut out = BTreeMap::new();
        $(rust_layouts!(@n out, $t; 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);)*
        out
    }};
    (@n $out:ident, $t:ty; $($n:literal),*) => {$(
        $out.insert(
            (stringify!($t).to_string(), $n),
            (size_of::<Vector<$t, $n>>(), align_of::<Vector<$t, $n>>()),
        );
    )*};
}

#[test]
fn vector_layout_is_clangs() {
    let Some(clang) = harness::require_clang("vector_layout_is_clangs") else {
        return;
    };
    let mut c = String::from("#include <stdio.h>\nint main(void) {\n");
    for (c_name, rust) in TYPES {
        for n in 1..=16 {
            writeln!(
                c,
                "  {{ typedef {c_name} v __attribute__((ext_vector_type({n}))); \
                 printf(\"{rust} {n} %zu %zu\\n\", sizeof(v), _Alignof(v)); }}"
            )
            .unwrap();
        }
    }
    c.push_str("  return 0;\n}\n");
    let stdout = harness::run_c_program(&clang, "vector-layout", &c, &[]);

    let ours = rust_layouts!(i8, u8, i16, u16, i32, u32, i64, u64, f32, f64);
    let mut checked = 0;
    for line in stdout.lines() {
        let w: Vec<&str> = line.split(' ').collect();
        let key = (w[0].to_string(), w[1].parse::<usize>().unwrap());
        let clang: (usize, usize) = (w[2].parse().unwrap(), w[3].parse().unwrap());
        assert_eq!(
            ours[&key], clang,
            "Vector<{}, {}>: (size, align)",
            key.0, key.1
        );
        checked += 1;
    }
    assert_eq!(checked, TYPES.len() * 16);
}
