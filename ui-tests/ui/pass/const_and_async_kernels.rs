//! A `const fn` kernel stays callable in constants; an `async fn` kernel
//! computes when polled.
use core::future::Future;
use core::pin::pin;
use core::task::{Context, Poll, Waker};
use matrix_core::matrix;

matrix! {
    pub typedef float m2x2_t __attribute__((matrix_type(2, 2)));

    pub const fn halve(x: i32) -> i32 {
        x / 2
    }

    pub async fn mul(a: m2x2_t, b: m2x2_t) -> m2x2_t {
        a * b
    }
}

const HALF: i32 = halve(10);

fn main() {
    assert_eq!(HALF, 5);
    let a = m2x2_t::from_rows([[1.0, 2.0], [3.0, 4.0]]);
    let mut cx = Context::from_waker(Waker::noop());
    match pin!(mul(a, m2x2_t::identity())).poll(&mut cx) {
        Poll::Ready(m) => assert_eq!(m, a),
        Poll::Pending => panic!("the kernel does not wait"),
    }
}
