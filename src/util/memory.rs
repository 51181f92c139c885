//! Giving memory the program freed back to the system: glibc's allocator keeps freed pages
//! inside its heaps (it returns only the top of each), so a process that let hundreds of
//! megabytes of texts go (docs/DESIGN.md §8 "Persisted index") would stay resident at its
//! peak. The one `unsafe` call of the crate lives here.

/// Ask the allocator to return its free pages to the system (glibc's `malloc_trim(0)`,
/// which walks every arena); `true` when anything was returned. Elsewhere (musl, macOS,
/// Windows) nothing to do: `false`. Call it at a quiet point, after a large release: it
/// briefly locks each arena.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
#[allow(unsafe_code)]
pub fn trim() -> bool {
    // SAFETY: `malloc_trim` takes no pointer and changes only the allocator's own free
    // lists, under the allocator's locks; no live allocation is touched.
    unsafe { libc::malloc_trim(0) == 1 }
}

/// See the glibc version above: other allocators have no such call.
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
pub fn trim() -> bool {
    false
}
