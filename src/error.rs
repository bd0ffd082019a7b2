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
            field: field.into(),
            value: value.to_string(),
            reason: reason.into(),
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
