//! The page's fall-back from an address whose run fields each parse but
//! whose run the core refuses to build (e.g. a topology over the browser's
//! size limit): which of the URL's run parameters to blame.

use super::{Field, RunSpec};
use crate::error::{Error, Result};
use serde_json::Value;

/// What [`blame_query`] decided: the parameter blamed (or all of them),
/// the config to run instead and the lines to show.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Blame {
    /// The URL parameter blamed, as the URL wrote it (`topology`, `q`); `None`: no
    /// one alone was to blame and every one of them was reset to its default.
    pub key: Option<String>,
    /// The config to run (a JSON config object, reconciled).
    pub config: Value,
    /// The warning line: the parameter(s) ignored, the core's reason, what is used instead.
    pub warning: String,
    /// The reconcile's lines for the config used ([`RunSpec::reconcile`]);
    /// none when every parameter was reset.
    pub messages: Vec<String>,
}

/// Which URL parameter makes `current` (a JSON config object, keys as
/// [`Field::json`]) impossible to build over `base` (e.g.
/// [`RunSpec::browser`]): `pairs` are the address's `key=value` pairs in
/// order ([`super::query_pairs`]; keys that are not run fields are skipped)
/// and `defaults` the config a field falls back to (a lesson's, else the
/// page's default run). For each run parameter in the URL's order, its
/// field is set to its default (left out if `defaults` has none), the
/// URL's other run parameters set again as it wrote them, the config
/// [`RunSpec::reconcile`]d and built; the first that builds is
/// blamed, with the core's reason. If none does alone, all are: the config
/// is `defaults`, reconciled. `None` when `current` builds or the URL names
/// no run field. An error only if `defaults` themselves cannot be read.
pub fn blame_query<'a>(
    base: &RunSpec,
    current: &Value,
    pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    defaults: &Value,
) -> Result<Option<Blame>> {
    let given: Vec<(&str, &str, Field)> = pairs
        .into_iter()
        .filter_map(|(key, text)| Field::from_query(key).map(|field| (key, text, field)))
        .collect();
    if given.is_empty() {
        return Ok(None);
    }
    let why_error = match builds(base, current) {
        Ok(()) => return Ok(None),
        Err(e) => e,
    };
    let why = why_error.to_string();
    // `skip`: the blamed parameter. The URL's other run parameters are set
    // again as it wrote them before reconciling, so that a switch the
    // refused run forced (an algorithm its network could not run) is undone
    // and not reported twice.
    let reconcile = |config: &Value, skip: Option<&str>| -> Result<(Value, Vec<String>)> {
        let mut spec = RunSpec::from_json_lenient(base.clone(), config)?;
        for &(key, text, field) in given.iter().filter(|&&(key, ..)| skip.is_some_and(|k| k != key)) {
            let mut next = spec.clone();
            if next.set(field, key, text).is_ok() {
                spec = next;
            }
        }
        let messages = spec.reconcile();
        Ok((spec.to_json(), messages))
    };
    // The parameter the core's message names first (an epsilon too large
    // for the network is epsilon's fault, though a larger default network
    // would take it too), then the others in the URL's order; and a
    // fall-back that runs without switching anything else before one that
    // switches (resetting the topology can make the reconcile switch the
    // workload: two parameters lost for one).
    let named = match &why_error {
        Error::Invalid { field, .. } => Some(field.as_str()),
        _ => None,
    };
    let mut order: Vec<&(&str, &str, Field)> = given.iter().collect();
    order.sort_by_key(|(key, _, field)| !named.is_some_and(|n| n == *key || n == field.json() || n == field.cli()));
    let candidates = order.iter().map(|c| (c, true)).chain(order.iter().map(|c| (c, false)));
    for (&&(key, text, field), clean) in candidates {
        let mut config = current.as_object().cloned().unwrap_or_default();
        let used = match defaults.get(field.json()) {
            None => {
                config.remove(field.json());
                "the default".to_string()
            }
            Some(value) => {
                config.insert(field.json().to_string(), value.clone());
                shown(value)
            }
        };
        let Ok((config, messages)) = reconcile(&Value::Object(config), Some(key)) else {
            continue;
        };
        if (clean && !messages.is_empty()) || builds(base, &config).is_err() {
            continue;
        }
        return Ok(Some(Blame {
            key: Some(key.to_string()),
            config,
            warning: format!("URL parameter {key}={} ignored: {why} — using {used}.", quoted(text)),
            messages,
        }));
    }
    let names: Vec<String> = given
        .iter()
        .map(|(key, text, _)| format!("{key}={}", quoted(text)))
        .collect();
    let (config, _) = reconcile(&Value::Object(defaults.as_object().cloned().unwrap_or_default()), None)?;
    Ok(Some(Blame {
        key: None,
        config,
        warning: format!(
            "URL parameters {} ignored: {why} — using their defaults.",
            names.join(", ")
        ),
        messages: Vec::new(),
    }))
}

/// Whether the run of a JSON config builds (what the page's `new Simulation` does), or why not.
fn builds(base: &RunSpec, config: &Value) -> Result<()> {
    RunSpec::from_json(base.clone(), config)?.build().map(drop)
}

/// A URL value as the page quotes it (JSON, as `JSON.stringify`).
fn quoted(text: &str) -> String {
    let text = crate::error::shorten(text);
    serde_json::to_string(&text).unwrap_or_else(|_| format!("{text:?}"))
}

/// A default as the page shows it (a string without quotes, else its JSON).
fn shown(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}
