//! The wasm API in headless Chromium: the same cases as `web.rs`.
#![cfg(target_arch = "wasm32")]

wasm_bindgen_test::wasm_bindgen_test_configure!(run_in_browser);

#[path = "web_cases/mod.rs"]
mod cases;
