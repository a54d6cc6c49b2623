//! Trait implementations for other crates' traits and types, each behind
//! the Cargo feature named after the crate (see the crate documentation's
//! "Features" section). Nothing here is public API of its own: the modules
//! hold `impl`s only.

#[cfg(feature = "approx")]
mod approx;
#[cfg(feature = "bytemuck")]
mod bytemuck;
#[cfg(feature = "mint")]
mod mint;
#[cfg(feature = "serde")]
mod serde;
