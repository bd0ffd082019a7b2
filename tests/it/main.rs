//! The native integration tests, as one test binary.
//!
//! Each file beside this one is a module on one topic (`bounds`, `cli`,
//! `ks`, …); it used to be a test target of its own, `tests/<topic>.rs`.
//! Cargo builds every file directly under `tests/` as a separate crate that
//! links the library and its dependencies again, so 27 topics meant 27
//! links; one crate with a `mod` per topic links once, and the helpers the
//! topics share live once, in [`common`]. Test names carry the topic as a
//! path prefix: `cargo test --test it ks::` runs what `--test ks` ran.
//!
//! The wasm32 tests stay separate targets (empty natively, run with
//! `--target wasm32-unknown-unknown`): `tests/web.rs` (Node) and
//! `tests/web_browser.rs` (headless Chromium) run the cases in
//! `tests/web_cases/`, whose reference numbers [`web_native`] computes
//! natively. The end-to-end browser tests (`tests/e2e/`) run under Node.
//!
//! Everything here shares one process and runs on parallel threads: a test
//! must not change process-wide state (environment variables, the current
//! directory), and a scratch file is named after its topic and the process
//! id. proptest writes the seed of a failing case to
//! `tests/proptest-regressions/<topic>.txt`; a case worth keeping is better
//! written out as a test of its own (the seeds replay only while the
//! property's strategy stays the same).
#![cfg(not(target_arch = "wasm32"))]

mod common;

mod bounds;
mod claims;
mod cli;
mod deadlock;
mod docs_data;
mod docs_links;
mod engine;
mod flashsort;
mod flits;
mod fuzz_inputs;
mod greedy;
mod handover;
mod hypercube;
mod ks;
mod ks_average;
mod ks_level;
mod ks_linear;
mod ks_nol;
mod ks_phase_lemmas;
mod ks_rules;
mod ks_superior;
mod layers;
mod lecture_claims;
mod lecture_rules;
mod lmrr;
mod lmrr_arrays;
mod lmrr_shuffle;
mod load;
mod memory;
mod pace;
mod page_words;
mod palette;
mod permutation;
mod phase_claims;
mod policy_keys;
mod pp;
mod pp_unknown;
mod primitives;
mod referee;
mod reference_model;
mod report_fields;
mod request;
mod se_butterflies;
mod shuffle_exchange;
mod smear;
mod sort;
mod sort_route;
mod sorting;
mod structure;
mod teach;
mod threads;
mod timeline;
mod web_native;
mod workloads;
