//! The browser's size limits, as the page asks for them before it reads
//! or builds anything ([`crate::workload::Limits`], the load curve's).

use super::convert::{js_error, set, shown};
use crate::error::Error;
use crate::workload::Limits;
use js_sys::Object;
use wasm_bindgen::prelude::*;

/// Refuses an instance file of `bytes` bytes that the page would not load
/// (above the browser's text limit), before the page reads it; the
/// message is the core's, as loading the text would give it.
#[wasm_bindgen]
pub fn check_instance_text(bytes: JsValue) -> Result<(), JsError> {
    let Some(bytes) = bytes.as_f64().filter(|b| *b >= 0.0) else {
        return Err(js_error(Error::invalid(
            "bytes",
            shown(&bytes),
            "expected a number of bytes",
        )));
    };
    // A float past u64 saturates: still above the limit.
    Limits::BROWSER.check_text(bytes as u64).map_err(js_error)
}

/// The browser limits: `{max_nodes, max_packets, max_bytes}` for loaded
/// instances, `{generated_max_nodes, generated_max_packets}` for generated workloads
/// and `{load_max_nodes, load_max_steps, load_max_runs}` for load curves.
#[wasm_bindgen]
pub fn limits() -> Object {
    let (loaded, generated) = (Limits::BROWSER, Limits::BROWSER_GENERATED);
    let obj = Object::new();
    set(&obj, "max_nodes", loaded.max_nodes as f64);
    set(&obj, "max_packets", loaded.max_packets as f64);
    set(&obj, "max_bytes", loaded.max_bytes as f64);
    set(&obj, "generated_max_nodes", generated.max_nodes as f64);
    set(&obj, "generated_max_packets", generated.max_packets as f64);
    set(&obj, "load_max_nodes", crate::load::curve::BROWSER_MAX_NODES as f64);
    set(&obj, "load_max_steps", crate::load::curve::BROWSER_MAX_STEPS as f64);
    set(&obj, "load_max_runs", crate::load::curve::BROWSER_MAX_RUNS as f64);
    obj
}
