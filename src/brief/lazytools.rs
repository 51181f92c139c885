//! lazytools' `query_skill` brief layout (FORMATS §2.8–2.9), byte for byte.
//!
//! CONTRACT (owned by the lazytools helper).
