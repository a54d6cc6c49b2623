//! Prints the backend `matrix-core` chooses on this CPU (for `run.sh`'s
//! report).

fn main() {
    println!("{}", matrix_core::Backend::active());
}
