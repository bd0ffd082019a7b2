//! JS values in and out of the wasm layer: core errors as JS `Error`s,
//! counts and texts the page passes checked by name, config objects as
//! JSON, core values as plain JS objects.

use crate::error::Error;
use js_sys::{Array, Object, Reflect};
use serde::Serialize;
use wasm_bindgen::prelude::*;

pub(super) fn js_error(e: Error) -> JsError {
    JsError::new(&e.to_string())
}

/// A count the page passes (a number of steps, a step, a packet or a node):
/// a whole number from 0 to 2^32 − 1, else a message naming `field` and
/// the value. JS numbers are doubles; taken as `u32`, wasm-bindgen would
/// wrap them silently (−1 to 4294967295: a run to its end, a frozen page).
fn whole(field: &str, value: f64) -> Result<u32, JsError> {
    if value.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&value) {
        Ok(value as u32)
    } else {
        Err(js_error(Error::invalid(
            field,
            value,
            "expected a whole number from 0 to 4294967295",
        )))
    }
}

/// A text argument: wasm-bindgen's glue passes a `&str` argument without a
/// type check, and a number, an object or `null` in its place read outside
/// the module's memory (a trap). Every text parameter is therefore taken
/// as a `JsValue` and checked here, naming `field` and the value.
pub(super) fn text(field: &str, value: &JsValue) -> Result<String, JsError> {
    value
        .as_string()
        .ok_or_else(|| js_error(Error::invalid(field, shown(value), "expected a string")))
}

/// A JS value as a message quotes it: its JSON, else as JS would write
/// it (`undefined`, `12n` for a BigInt, which JSON cannot hold), else a
/// kind (`a function`, `a symbol`).
pub(super) fn shown(value: &JsValue) -> String {
    if let Some(x) = value.as_f64().filter(|x| !x.is_finite()) {
        return non_finite(x).to_string();
    }
    if let Some(json) = js_sys::JSON::stringify(value).ok().and_then(|s| s.as_string()) {
        return json;
    }
    if value.is_bigint() {
        let digits = js_sys::BigInt::unchecked_from_js_ref(value).to_string(10);
        return format!("{}n", digits.map(String::from).unwrap_or_default());
    }
    if value.is_undefined() {
        "undefined".to_string()
    } else if value.is_function() {
        "a function".to_string()
    } else if value.is_symbol() {
        "a symbol".to_string()
    } else {
        format!("{value:?}")
    }
}

/// A count as a JS value: a number, checked as [`whole`]. Taken as `f64`,
/// the glue would convert anything first — `null` to 0 (a `goto(null)`
/// went to step 0), `true` to 1, `"5"` to 5 — so anything else is
/// refused by name.
pub(super) fn count(field: &str, value: &JsValue) -> Result<u32, JsError> {
    match value.as_f64() {
        Some(x) => whole(field, x),
        None => Err(js_error(Error::invalid(
            field,
            shown(value),
            "expected a whole number from 0 to 4294967295",
        ))),
    }
}

/// An optional text argument: `undefined` or `null` for none, else as [`text`].
pub(super) fn optional_text(field: &str, value: &JsValue) -> Result<Option<String>, JsError> {
    if value.is_undefined() || value.is_null() {
        Ok(None)
    } else {
        text(field, value).map(Some)
    }
}

pub(super) fn set(obj: &Object, key: &str, value: impl Into<JsValue>) {
    // Setting a property on a fresh plain object cannot fail.
    let _ = Reflect::set(obj, &JsValue::from_str(key), &value.into());
}

pub(super) fn to_js<T: Serialize>(value: &T) -> Result<JsValue, JsError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
        .map_err(|e| JsError::new(&e.to_string()))
}

/// A JS value as JSON (for the core's parsers). JSON has no NaN or
/// ±Infinity, and the conversion would read them as `null` — "not given",
/// the default silently used — so a field holding one is refused by name.
/// Nested objects are read too (an `Experiment`'s `base`, its field named
/// `base.seed`), and functions and symbols, which JSON has not either, are
/// refused the same way.
pub(super) fn from_js(value: JsValue, what: &str) -> Result<serde_json::Value, JsError> {
    // A value that is itself no JSON is named as what it was given for.
    let top = !value.is_object() || value.is_function();
    refuse_non_json(&value, if top { what } else { "" }, 0)?;
    refuse_deep(&value, what)?;
    serde_wasm_bindgen::from_value(value).map_err(|e| JsError::new(&format!("invalid {what}: {e}")))
}

/// The deepest nesting of objects and lists [`from_js`] reads (an
/// instance is three deep: object, packet list, pair).
const MAX_NESTING: u32 = 64;

/// Refuses a value nested deeper than [`MAX_NESTING`] (or cyclic), looked
/// at without recursion: the JSON reader recurses once per level, and
/// 4,000 levels overflowed the wasm stack — a trap that left the module
/// unusable until the page reloaded (the fuzz audit of 2026-12-01).
fn refuse_deep(value: &JsValue, what: &str) -> Result<(), JsError> {
    let mut stack = vec![(value.clone(), 0u32)];
    while let Some((v, depth)) = stack.pop() {
        if !v.is_object() || v.is_function() {
            continue;
        }
        if depth >= MAX_NESTING {
            return Err(js_error(Error::invalid(
                what,
                "a value nested too deep",
                format!("expected objects and lists at most {MAX_NESTING} deep (and no cycle)"),
            )));
        }
        let inner = if Array::is_array(&v) {
            Array::from(&v)
        } else {
            match v.dyn_ref::<Object>() {
                Some(object) => Object::values(object),
                None => continue,
            }
        };
        for x in inner.iter() {
            if x.is_object() && !x.is_function() {
                stack.push((x, depth + 1));
            }
        }
    }
    Ok(())
}

/// A number JSON cannot hold, as JS writes it.
fn non_finite(x: f64) -> &'static str {
    if x.is_nan() {
        "NaN"
    } else if x > 0.0 {
        "Infinity"
    } else {
        "-Infinity"
    }
}

/// How deep [`from_js`] looks into nested objects (a config is two deep).
const NESTED_DEPTH: u32 = 8;

/// Refuses, by its path, the first value under `value` that JSON cannot
/// hold: NaN, ±Infinity, a function, a symbol.
fn refuse_non_json(value: &JsValue, path: &str, depth: u32) -> Result<(), JsError> {
    let refuse = |shown: &str, why: &str| Err(js_error(Error::invalid(path, shown, why)));
    if let Some(x) = value.as_f64().filter(|x| !x.is_finite()) {
        return refuse(non_finite(x), "expected a finite number");
    }
    if !path.is_empty() && value.is_function() {
        return refuse("a function", "expected a JSON value");
    }
    if !path.is_empty() && value.is_symbol() {
        return refuse("a symbol", "expected a JSON value");
    }
    if depth >= NESTED_DEPTH || value.is_function() {
        return Ok(());
    }
    let inner = |key: String| if path.is_empty() { key } else { format!("{path}.{key}") };
    // Plain objects only: a list (a key list, an instance's packets) may
    // be long, and is left to the JSON reader.
    if let Some(object) = value.dyn_ref::<Object>().filter(|_| !Array::is_array(value)) {
        for entry in Object::entries(object).iter() {
            let pair = Array::from(&entry);
            let field = inner(pair.get(0).as_string().unwrap_or_default());
            refuse_non_json(&pair.get(1), &field, depth + 1)?;
        }
    }
    Ok(())
}
