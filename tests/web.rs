//! The wasm API under Node (wasm-bindgen-test's default). The cases are
//! shared with `web_browser.rs`, which runs them in headless Chromium.
#![cfg(target_arch = "wasm32")]

#[path = "web_cases/mod.rs"]
mod cases;
