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

#[cfg(all(test, target_os = "linux", target_env = "gnu"))]
mod tests {
    /// Resident pages of this process, in kB (`VmRSS` of `/proc/self/status`).
    fn resident_kb() -> Option<u64> {
        let status = std::fs::read_to_string("/proc/self/status").ok()?;
        status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
    }

    #[test]
    fn freed_small_allocations_go_back_to_the_system() {
        // 64 MiB in 4 KiB blocks (below the allocator's mmap threshold, so inside its heap),
        // touched, then all freed but the last, which pins the top of the heap.
        let mut blocks: Vec<Vec<u8>> = (0..16_384).map(|i| vec![i as u8; 4096]).collect();
        let pin = blocks.pop();
        let held = resident_kb().unwrap();
        drop(blocks);
        assert!(super::trim(), "nothing was returned");
        let after = resident_kb().unwrap();
        assert!(after + 32 * 1024 < held, "{held} kB → {after} kB");
        drop(pin);
    }
}
