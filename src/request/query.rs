//! The page's address: URL parameters (SPEC §7) into a request, leniently.

use super::{Field, RunSpec};

impl RunSpec {
    /// Reads the page's URL parameters (SPEC §7) leniently: a bad value is
    /// named in a message and the base's value kept; keys that are not run
    /// fields are left to the page. Then [`RunSpec::reconcile`]s (after
    /// [`RunSpec::reconcile_to_workload`] when it names a workload and no
    /// algorithm), so that an algorithm or workload the network cannot run
    /// is switched with a message too, and a workload parameter the URL gives that changes
    /// nothing ([`RunSpec::unread_fields`]) is named. Returns the request and
    /// the messages.
    pub fn from_query<'a>(
        base: RunSpec,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> (RunSpec, Vec<String>) {
        let (spec, messages, _, _) = RunSpec::from_query_named(base, pairs);
        (spec, messages)
    }

    /// [`RunSpec::from_query`], with the fields the address names and
    /// this request took, and the lines among the messages that say a
    /// switch the reconcile made (the page withdraws them with the run
    /// if it then refuses the run, e.g. over its size limits). A value refused is as if not given (SPEC §7: "a
    /// bad one is named and its default used"): it neither leads the
    /// reconcile nor makes the address one that names its run (the page's
    /// default view stays the default view).
    pub fn from_query_named<'a>(
        base: RunSpec,
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> (RunSpec, Vec<String>, Vec<Field>, Vec<String>) {
        let mut spec = base;
        let mut messages = Vec::new();
        let (mut seen, mut named) = (Vec::new(), Vec::new());
        let pairs: Vec<(&str, &str)> = pairs.into_iter().collect();
        for &(key, text) in &pairs {
            let Some(field) = Field::from_query(key) else { continue };
            // A key given again is said once, at its first repeat (`seen`
            // holds it once so far), with the value used: the last (a key
            // repeated 500 times once gave 499 lines).
            if seen.iter().filter(|&&f| f == field).count() == 1 {
                let last = pairs
                    .iter()
                    .rev()
                    .find(|(k, _)| Field::from_query(k) == Some(field))
                    .map_or(text, |p| p.1);
                messages.push(format!(
                    "URL parameter {key} is given more than once: the last one, {key}={:?}, is used.",
                    crate::error::shorten(last)
                ));
            }
            seen.push(field);
            let kept = spec.value_of(field);
            let mut next = spec.clone();
            match next.set(field, key, text) {
                Ok(()) => {
                    spec = next;
                    named.retain(|&f| f != field);
                    named.push(field);
                }
                Err(e) => {
                    // The last value counts: a refused repeat takes the field back.
                    named.retain(|&f| f != field);
                    messages.push(format!(
                        "URL parameter {key}={:?} ignored: {e} — using {kept}.",
                        crate::error::shorten(text)
                    ));
                }
            }
        }
        // An address that names the algorithm but not the network asks for
        // that algorithm: a network it cannot run on becomes the first kind
        // it takes, at the size the page gives that kind.
        if named.contains(&Field::Algorithm) && !named.contains(&Field::Topology) {
            spec.fit_network_to_algorithm();
        }
        // An address that names a workload but no algorithm asks for that
        // problem: a sorting workload switches a routing algorithm (and the
        // other way round) rather than being switched itself.
        let switched = if named.contains(&Field::Workload) && !named.contains(&Field::Algorithm) {
            spec.reconcile_to_workload_noted()
        } else {
            spec.reconcile_noted()
        };
        // Only the switches of what the address names are said: the other
        // fields are the base's (the page's default run or a lesson's), which
        // the reader did not choose, and the page shows what they became.
        let workload_switched = switched.iter().any(|(field, _)| *field == Field::Workload);
        let switches: Vec<String> = switched
            .into_iter()
            .filter(|(field, _)| named.contains(field))
            .map(|(_, line)| line)
            .collect();
        messages.extend(switches.iter().cloned());
        // Only what the address itself names: a lesson's preset or the
        // page's defaults may carry a k that this workload does not read.
        for (field, value, why) in spec.unread_fields() {
            if let (true, Some(key)) = (named.contains(&field), field.query()) {
                // A workload switched for its l, k or hotspot (too large)
                // says so in its switch; the new one not reading them is no
                // news.
                let cause = workload_switched && matches!(field, Field::L | Field::K | Field::Hotspot);
                if !cause {
                    messages.push(format!("URL parameter {key}={value} has no effect: {why}."));
                }
                // Named once, then dropped: the instance is the same without
                // it, and the page's box and address do not keep a value the
                // run does not use.
                match field {
                    Field::L => spec.l = None,
                    Field::K => spec.k = None,
                    Field::Hotspot => spec.hotspot = None,
                    _ => {}
                }
            }
        }
        for (field, value, why) in spec.idle_options() {
            if let (true, Some(key)) = (named.contains(&field), field.query()) {
                messages.push(format!("URL parameter {key}={value} has no effect: {why}."));
            }
        }
        (spec, messages, named, switches)
    }
}

/// The `key=value` pairs of a URL query string (`?a=1&b=x%20y`), decoded
/// as `URLSearchParams` decodes them (`+` is a space, `%XX` a byte).
pub fn query_pairs(search: &str) -> Vec<(String, String)> {
    let decode = |text: &str| {
        let bytes = text.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut i = 0;
        while i < bytes.len() {
            match bytes[i] {
                b'+' => out.push(b' '),
                b'%' if i + 2 < bytes.len() => {
                    match u8::from_str_radix(std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("zz"), 16) {
                        Ok(b) => {
                            out.push(b);
                            i += 2;
                        }
                        Err(_) => out.push(b'%'),
                    }
                }
                b => out.push(b),
            }
            i += 1;
        }
        String::from_utf8_lossy(&out).into_owned()
    };
    // One leading `?`, as `URLSearchParams` strips (a second is part of the first key).
    search
        .strip_prefix('?')
        .unwrap_or(search)
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(k), decode(v))
        })
        .collect()
}
