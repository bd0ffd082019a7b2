//! The `routesim` command line (SPEC §4).

fn main() {
    // The CLI is native only; on wasm32 this binary exists only so that
    // `cargo test --target wasm32-unknown-unknown` can build the test targets.
    #[cfg(not(target_arch = "wasm32"))]
    std::process::exit(routesim::cli::main());
}

/// The system allocator, with a message instead of an abort when memory
/// runs out. A run is refused up front by its estimate (`--memory-limit`)
/// and the large columns are allocated fallibly, with messages naming
/// them; this catches the rest (a thread's first allocation under `ulimit
/// -v`, lmrr's paths, which its estimate does not all count — the memory
/// audit of 2026-12-01 found exit 134, "memory allocation of N bytes
/// failed", in sweeps with two jobs and in small lmrr runs): the process
/// ends with exit 2 and one line on stderr. Failures inside
/// [`routesim::error::fallibly`] sections return to their caller.
#[cfg(not(target_arch = "wasm32"))]
mod guard {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::io::Write;
    use std::sync::atomic::{AtomicBool, Ordering};

    pub struct Guarded;

    static REPORTING: AtomicBool = AtomicBool::new(false);

    fn checked(ptr: *mut u8, bytes: usize) -> *mut u8 {
        if ptr.is_null() && !routesim::error::in_fallible_section() {
            if REPORTING.swap(true, Ordering::SeqCst) {
                std::process::abort();
            }
            // No allocation from here on: a fixed text and a number,
            // written straight to stderr.
            let mut err = std::io::stderr().lock();
            let _ = writeln!(
                err,
                "routesim: out of memory: an allocation of {bytes} bytes failed during the run {}",
                routesim::error::OUT_OF_MEMORY_WHY
            );
            let _ = err.flush();
            std::process::exit(2);
        }
        ptr
    }

    // SAFETY: every call is passed to the system allocator unchanged; only
    // a null result is looked at.
    unsafe impl GlobalAlloc for Guarded {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            checked(unsafe { System.alloc(layout) }, layout.size())
        }
        unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
            checked(unsafe { System.alloc_zeroed(layout) }, layout.size())
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            checked(unsafe { System.realloc(ptr, layout, new_size) }, new_size)
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            unsafe { System.dealloc(ptr, layout) }
        }
    }
}

#[cfg(not(target_arch = "wasm32"))]
#[global_allocator]
static ALLOCATOR: guard::Guarded = guard::Guarded;
