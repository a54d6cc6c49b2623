// A C `switch` whose body the macro cannot read: the error on its tokens.
use matrix_core::matrix;

matrix! {
    fn statement_before_label(x: i32) -> i32 {
        int y = 0;
        switch (x) { y = 1; case 1: y = 2; }
        return y;
    }
    fn case_without_colon(x: i32) -> i32 {
        int y = 0;
        switch (x) { case 1 y = 2; break; default: y = 3; }
        return y;
    }
}

fn main() {}
