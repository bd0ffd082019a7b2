//! One error type for the whole crate. Every message names the field and the
//! value that was wrong, so the CLI can print it as one line and the browser
//! can show it as it is.

use thiserror::Error;

/// Everything that can go wrong while building or running a simulation.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum Error {
    /// A user-supplied field (CLI flag, config key, instance field, URL
    /// parameter) had a value that is not allowed.
    #[error("invalid {field} '{value}': {reason}")]
    Invalid {
        /// Which field, e.g. `topology` or `packets[3]`.
        field: String,
        /// The offending value, as the user wrote it.
        value: String,
        /// Why it is refused.
        reason: String,
    },
    /// An algorithm cannot run on this topology or instance (SPEC §5).
    #[error("algorithm '{algorithm}' cannot run here: {reason}")]
    Unsupported {
        /// The algorithm's SPEC name.
        algorithm: String,
        /// Why it refuses.
        reason: String,
    },
    /// An instance or configuration is larger than the size limits allow.
    #[error("{field} too large: {value} exceeds the limit {limit}")]
    TooLarge {
        /// Which quantity.
        field: String,
        /// Its value.
        value: u64,
        /// The limit in force.
        limit: u64,
    },
    /// A run that would need more memory than the limit allows (refused
    /// before anything is allocated, [`crate::memory`]), or an allocation
    /// that failed.
    #[error("topology {topology}: {reason}")]
    Memory {
        /// The run's network.
        topology: String,
        /// The estimate and the limit, or what could not be allocated.
        reason: String,
    },
    /// Malformed JSON (instance files, configs).
    #[error("instance JSON: {0}")]
    Json(String),
    /// Reading or writing a file failed (CLI only).
    #[error("{path}: {reason}")]
    Io {
        /// The file.
        path: String,
        /// The operating system's message.
        reason: String,
    },
}

impl Error {
    /// Shorthand for [`Error::Invalid`].
    pub fn invalid(field: impl Into<String>, value: impl ToString, reason: impl Into<String>) -> Self {
        Error::Invalid {
            field: printable(&field.into()),
            value: printable(&shorten(&value.to_string())),
            reason: printable(&reason.into()),
        }
    }

    /// Shorthand for [`Error::Unsupported`].
    pub fn unsupported(algorithm: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::Unsupported {
            algorithm: algorithm.into(),
            reason: reason.into(),
        }
    }
}

/// The crate's result type.
pub type Result<T> = std::result::Result<T, Error>;

/// Collapses a message onto one line.
pub fn one_line(message: &str) -> String {
    message.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The text of a panic payload, on one line (the CLI's exit 101 message,
/// a sweep's error row).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        one_line(s)
    } else if let Some(s) = payload.downcast_ref::<String>() {
        one_line(s)
    } else {
        "panic".to_string()
    }
}

/// A size as a person reads it: `5.1 GiB`, `640.0 MiB`, `900 bytes`.
pub fn shown_bytes(bytes: u64) -> String {
    const UNITS: [(&str, u64); 4] = [("TiB", 1 << 40), ("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)];
    for (unit, size) in UNITS {
        if bytes >= size {
            return format!("{:.1} {unit}", bytes as f64 / size as f64);
        }
    }
    format!("{bytes} bytes")
}

/// Why memory ran out after the run's estimate was admitted, and what to
/// do: the end of every out-of-memory message (here and the CLI's
/// allocator's, `src/main.rs`).
pub const OUT_OF_MEMORY_WHY: &str = "(the run's estimate, checked before it started, fell short here, or other \
                                     programs took the memory); run a smaller network or fewer packets, or free \
                                     memory";

std::thread_local! {
    /// Whether this thread is in a [`fallibly`] section.
    static FALLIBLE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` as a section whose allocations may fail and are handled (a
/// `try_reserve`): the CLI's allocator ends the process with a message on
/// any other failed allocation (`src/main.rs`), and lets these return
/// their error.
pub fn fallibly<R>(f: impl FnOnce() -> R) -> R {
    let before = FALLIBLE.with(|c| c.replace(true));
    let result = f();
    FALLIBLE.with(|c| c.set(before));
    result
}

/// Whether the current thread is in a [`fallibly`] section.
pub fn in_fallible_section() -> bool {
    FALLIBLE.with(|c| c.get())
}

/// An empty vector with room for `len` items, or [`Error::Memory`] naming
/// `what`, its size and the network when the allocation fails: the large
/// columns (the engine's, the link table, the workload's packets) are
/// allocated through these, so that a failure ends in a message and not in
/// the allocator's abort.
pub fn try_with_capacity<T>(len: usize, what: &str, topology: &dyn std::fmt::Display) -> Result<Vec<T>> {
    let mut v = Vec::new();
    if fallibly(|| v.try_reserve_exact(len)).is_err() {
        let bytes = (len as u64).saturating_mul(std::mem::size_of::<T>() as u64);
        return Err(Error::Memory {
            topology: topology.to_string(),
            reason: format!(
                "cannot allocate {} for {what}: out of memory {OUT_OF_MEMORY_WHY}",
                shown_bytes(bytes)
            ),
        });
    }
    Ok(v)
}

/// `len` copies of `value` (see [`try_with_capacity`]).
pub fn try_filled<T: Clone>(len: usize, value: T, what: &str, topology: &dyn std::fmt::Display) -> Result<Vec<T>> {
    let mut v = try_with_capacity(len, what, topology)?;
    v.resize(len, value);
    Ok(v)
}

/// The `len` items of `items` (see [`try_with_capacity`]).
pub fn try_collect<T>(
    len: usize,
    items: impl IntoIterator<Item = T>,
    what: &str,
    topology: &dyn std::fmt::Display,
) -> Result<Vec<T>> {
    let mut v = try_with_capacity(len, what, topology)?;
    v.extend(items);
    Ok(v)
}

/// Below this size a block is not tried ([`try_headroom`], [`try_zeros`]):
/// glibc raises its mmap threshold to the size of a freed mapped block up
/// to 32 MiB, and the heap that then serves later pieces was measured 11 %
/// larger at mesh:512x512; a run's small blocks are covered by the estimate.
const TRY_ABOVE: u64 = 32 << 20;

/// Tries to allocate `bytes` in one block and frees it at once: memory that
/// is allocated later in pieces (the contest list at the first step, the
/// bounds' tables) is thereby known to fit, or refused with a message (see
/// [`try_with_capacity`]), before the work starts.
pub fn try_headroom(bytes: u64, what: &str, topology: &dyn std::fmt::Display) -> Result<()> {
    if bytes > TRY_ABOVE {
        drop(try_with_capacity::<u8>(
            usize::try_from(bytes).unwrap_or(usize::MAX),
            what,
            topology,
        )?);
    }
    Ok(())
}

/// `len` zeros (`T::default()` of an integer), allocated zeroed so that the
/// pages a run never writes are never touched (`vec![0; len]`), the block
/// tried first ([`try_headroom`]).
pub fn try_zeros<T: Clone + Default>(len: usize, what: &str, topology: &dyn std::fmt::Display) -> Result<Vec<T>> {
    let bytes = (len as u64).saturating_mul(std::mem::size_of::<T>() as u64);
    try_headroom(bytes, what, topology)?;
    Ok(vec![T::default(); len])
}

/// `text` with its control characters escaped (`\n`, `\u{1b}`, `\u{0}`):
/// a value echoed from a file or a flag stays one visible line, and cannot
/// move the terminal's cursor or forge lines of output.
/// A value as a message quotes it: whole up to [`SHOWN_CHARS`]
/// characters, else its first ones and its length ("aaaa… (200000
/// characters)"), so that a pasted file or a 5,000-character URL value
/// does not bury the page's error line or the terminal.
pub fn shorten(text: &str) -> String {
    let count = text.chars().count();
    if count <= SHOWN_CHARS {
        return text.to_string();
    }
    let head: String = text.chars().take(SHOWN_CHARS - 20).collect();
    format!("{head}… ({count} characters)")
}

/// The longest value a message quotes whole ([`shorten`]).
pub const SHOWN_CHARS: usize = 120;

pub fn printable(text: &str) -> String {
    if !text.chars().any(char::is_control) {
        return text.to_string();
    }
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}
