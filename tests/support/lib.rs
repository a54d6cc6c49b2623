//! Shared scalar references for the behaviour tests.
