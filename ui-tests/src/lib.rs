//! Holds no code: the cases live in `ui/`.
