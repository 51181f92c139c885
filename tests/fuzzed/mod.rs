//! Inputs a fuzz run found (docs/FUZZING.md), each pinned with its exact small input, and the
//! fuzz targets' properties as stable `proptest` tests.

mod checks;
mod lazytools_inf;
mod loads;
mod props;
mod skill_render;
mod special_files;
mod stress;
mod vs16;
mod width;
