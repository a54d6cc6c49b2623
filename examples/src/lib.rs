//! Examples live beside this crate as `[[example]]` targets.
