//! Inputs a fuzz run found (docs/FUZZING.md), each pinned with its exact small input, and the
//! fuzz targets' properties as stable `proptest` tests.

mod lazytools_inf;
mod loads;
mod skill_render;
mod vs16;
