use matrix_core::matrix;

matrix! {
    typedef float float3 __attribute__((ext_vector_type(3)));
    typedef float float4 __attribute__((ext_vector_type(4)));
    typedef float m3x4_t __attribute__((matrix_type(3, 4)));

    pub fn column_out_of_range(m: m3x4_t) -> float3 {
        __builtin_matrix_column(m, 4)
    }

    pub fn row_of_wrong_length(m: m3x4_t, v: float3) -> m3x4_t {
        __builtin_matrix_insert_row(m, 0, v)
    }

    pub fn not_a_matrix(v: float4) -> float4 {
        __builtin_matrix_row(v, 0)
    }
}

fn main() {}
