//! `--memory-limit SIZE` (SPEC §4) and its default: the smallest of the
//! available memory, the address-space limit and the cgroup's memory
//! limit, read from /proc and /sys (Linux; elsewhere no default). The
//! estimate and the check are the core's ([`crate::memory`]).

use crate::memory::{parse_size, Limit};

/// The memory limit of `run`, `sweep` and `load`.
#[derive(Debug, Clone, Default, clap::Args)]
pub struct MemoryFlag {
    /// Refuse (exit 2; in a sweep, an error row) before generating anything a run whose estimated memory is above SIZE: bytes, or with a unit K, M, G, T (powers of 1024), e.g. 4G, 512M, 1.5G. Default: the smallest of the available memory, the address-space limit (ulimit -v) and the cgroup's memory limit.
    #[arg(long, value_name = "SIZE", allow_hyphen_values = true)]
    pub memory_limit: Option<String>,
}

impl MemoryFlag {
    /// The limit in force: the flag's value, else the system's (`None` where none is known).
    pub fn limit(&self) -> Result<Option<Limit>, String> {
        match &self.memory_limit {
            Some(text) => parse_size("memory-limit", text)
                .map(|b| Some(Limit::given(b)))
                .map_err(|e| e.to_string()),
            None => Ok(system_limit()),
        }
    }
}

/// The address-space line of /proc/self/limits.
const ADDRESS_SPACE: &str = "Max address space";

/// The address space a worker thread reserves: glibc's 64 MiB arena
/// (`HEAP_MAX_SIZE` on 64-bit) and a 2 MiB stack. Not counted before, a
/// sweep with two jobs under `ulimit -v 100000` failed its first worker's
/// 16-byte allocation (the memory audit of 2026-12-01).
const THREAD_RESERVE: u64 = 66 << 20;

/// What a default limit can be raised with.
const RAISE: &str = "give --memory-limit SIZE to set another limit (e.g. --memory-limit 64G)";

/// The smallest of the available memory (MemAvailable), the address space
/// left under RLIMIT_AS (its soft limit less what the process has mapped)
/// and the cgroup's memory limit (v2 `memory.max`, v1 `memory.limit_in_bytes`).
pub fn system_limit() -> Option<Limit> {
    let read = |path: &str| std::fs::read_to_string(path).ok();
    let mut candidates: Vec<(u64, &str)> = Vec::new();
    if let Some(kb) = read("/proc/meminfo").and_then(|t| number_after(&t, "MemAvailable:")) {
        candidates.push((kb * 1024, "the available memory (MemAvailable)"));
    }
    if let Some(limit) = read("/proc/self/limits").and_then(|t| number_after(&t, ADDRESS_SPACE)) {
        let mapped = read("/proc/self/status")
            .and_then(|t| number_after(&t, "VmSize:"))
            .unwrap_or(0)
            * 1024;
        // Each thread a run starts (the default: one per core, for the
        // step's lanes or the sweep's jobs) reserves its stack and, at its
        // first allocation, a malloc arena of 64 MiB of address space.
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get()) as u64;
        candidates.push((
            limit.saturating_sub(mapped).saturating_sub(threads * THREAD_RESERVE),
            "the address space left under its limit (ulimit -v, less 66 MiB a thread for its stack and malloc arena)",
        ));
    }
    let cgroup = read("/sys/fs/cgroup/memory.max").or_else(|| read("/sys/fs/cgroup/memory/memory.limit_in_bytes"));
    if let Some(bytes) = cgroup
        .and_then(|t| t.trim().parse::<u64>().ok())
        .filter(|&b| b < 1 << 60)
    {
        candidates.push((bytes, "the cgroup's memory limit"));
    }
    candidates.into_iter().min_by_key(|c| c.0).map(|(bytes, source)| Limit {
        bytes,
        source: source.to_string(),
        hint: RAISE.to_string(),
    })
}

/// The first number after `name` on the line that starts with it: a
/// `Name:   1234 kB` line's kB, the soft limit of /proc/self/limits' `Max
/// address space` line (`None` when it is `unlimited`).
fn number_after(text: &str, name: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with(name))?;
    line[name.len()..].split_whitespace().next()?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proc_lines_are_read() {
        let meminfo = "MemTotal:       8000000 kB\nMemAvailable:    123456 kB\n";
        assert_eq!(number_after(meminfo, "MemAvailable:"), Some(123456));
        let limits = "Limit                     Soft Limit           Hard Limit           Units\n\
                      Max address space         4096000000           unlimited            bytes\n";
        assert_eq!(number_after(limits, ADDRESS_SPACE), Some(4_096_000_000));
        let unlimited = "Max address space         unlimited            unlimited            bytes\n";
        assert_eq!(number_after(unlimited, ADDRESS_SPACE), None);
    }
}
