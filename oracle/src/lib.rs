//! Oracle support.
