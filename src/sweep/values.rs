//! A grid's lists kept as what was typed, never expanded: a list of whole
//! numbers is its ranges (`--seeds 1..100000000` is one pair, not 10^8
//! values), a topology list its templates and their values of `{n}`. A
//! point reads its value by index, so a sweep's memory does not grow with
//! its lists (a shard of a 10^8-seed sweep once built all 10^8 seeds, 0.8
//! GB, and a `{n}` list of 2·10^7 values aborted on 3 GB of topologies).

use super::{items, MAX_POINTS};
use crate::error::{Error, Result};
use crate::request::parse_number;
use crate::topology::Topology;

/// The running counts of a list of segments: `ends[i]` values in segments
/// 0..=i, so that the `index`-th value is found by a binary search.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct Ends(Vec<u64>);

impl Ends {
    /// The number of values.
    fn len(&self) -> u64 {
        self.0.last().copied().unwrap_or(0)
    }

    /// Appends a segment of `count` values.
    fn push(&mut self, count: u64) {
        let total = self.len() + count;
        self.0.push(total);
    }

    /// The segment of the `index`-th value and its place in it (`index < len()`).
    fn locate(&self, index: u64) -> (usize, u64) {
        let i = self.0.partition_point(|&end| end <= index);
        let before = if i == 0 { 0 } else { self.0[i - 1] };
        (i, index - before)
    }
}

/// A list of whole numbers as its inclusive ranges, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Numbers {
    /// The ranges (a, b), a ≤ b.
    ranges: Vec<(u64, u64)>,
    ends: Ends,
}

impl Numbers {
    /// The list of the one value `v`.
    pub fn one(v: u64) -> Numbers {
        let mut list = Numbers::default();
        list.ranges.push((v, v));
        list.ends.push(1);
        list
    }

    /// The number of values.
    pub fn len(&self) -> u64 {
        self.ends.len()
    }

    /// Whether the list has no value.
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// The `index`-th value (`index < len()`).
    pub fn get(&self, index: u64) -> u64 {
        let (r, offset) = self.ends.locate(index);
        self.ranges[r].0 + offset
    }

    /// The values in order.
    pub fn iter(&self) -> impl Iterator<Item = u64> + '_ {
        self.ranges.iter().flat_map(|&(a, b)| a..=b)
    }

    /// Appends a..=b, refusing (for `field`, item `item` of `text`) a list
    /// that would pass [`MAX_POINTS`] values.
    fn push(&mut self, field: &str, text: &str, item: &str, (a, b): (u64, u64)) -> Result<()> {
        let total = self.len();
        if b - a >= MAX_POINTS - total {
            return Err(Error::invalid(
                field,
                text,
                format!("'{item}' takes the list past {MAX_POINTS} values"),
            ));
        }
        self.ranges.push((a, b));
        self.ends.push(b - a + 1);
        Ok(())
    }
}

/// A list of whole numbers from `min` to `max` and inclusive ranges `a..b`;
/// at most [`MAX_POINTS`] values in all.
pub fn numbers(field: &str, raw: &[String], min: u64, max: u64) -> Result<Numbers> {
    numbers_or(field, raw, min, max, &[], 0)
}

/// [`numbers`], where the items `words` (e.g. `unbounded`) stand for the
/// value `word_value` (below `min`, so that it means nothing else).
pub(super) fn numbers_or(
    field: &str,
    raw: &[String],
    min: u64,
    max: u64,
    words: &[&str],
    word_value: u64,
) -> Result<Numbers> {
    let mut list = Numbers::default();
    for text in raw {
        for item in items(field, std::slice::from_ref(text))? {
            if words.contains(&item.as_str()) {
                list.push(field, text, &item, (word_value, word_value))?;
                continue;
            }
            let number = |part: &str| {
                parse_number(field, part, min, max).map_err(|_| {
                    let or_words = words.iter().map(|w| format!(", {w}")).collect::<String>();
                    Error::invalid(
                        field,
                        text,
                        format!("'{part}' is not a whole number from {min} to {max}{or_words} or a range a..b"),
                    )
                })
            };
            let (a, b) = match item.split_once("..") {
                Some((a, b)) => (number(a)?, number(b.strip_prefix('=').unwrap_or(b))?),
                None => {
                    let n = number(&item)?;
                    (n, n)
                }
            };
            if a > b {
                return Err(Error::invalid(
                    field,
                    text,
                    format!("range {a}..{b} is empty (ranges are inclusive, a <= b)"),
                ));
            }
            list.push(field, text, &item, (a, b))?;
        }
    }
    Ok(list)
}

/// A list of positive 32-bit numbers.
pub(super) fn positive(field: &str, raw: &[String]) -> Result<Numbers> {
    numbers(field, raw, 1, u32::MAX as u64)
}

/// Most topologies one list may expand to: each is checked before the
/// first run (about a microsecond each), and each is a network of its own.
pub const MAX_TOPOLOGIES: u64 = 1_000_000;

/// Whether a topology template contains `{n}` or `{N}`.
fn has_placeholder(template: &str) -> bool {
    template.contains("{n}") || template.contains("{N}")
}

/// A topology list: its items in order, a template with `{n}` (or `{N}`)
/// standing for one topology per value of `n`. Every topology was parsed
/// once when the list was made; a point parses its own again.
#[derive(Debug, Clone)]
pub struct Topologies {
    /// The items: a topology's name, or a template with the values of `n`.
    items: Vec<(String, Option<Numbers>)>,
    ends: Ends,
}

impl Topologies {
    /// The list of `raw`'s items, each checked by `parse`; refuses a
    /// template without values of `n`, values of `n` that no template
    /// uses, and more than [`MAX_TOPOLOGIES`] topologies.
    pub fn new(raw: &[String], n: &[String], parse: impl Fn(&str) -> Result<Topology>) -> Result<Topologies> {
        let templates = items("topology", raw)?;
        let ns = if n.is_empty() { None } else { Some(positive("n", n)?) };
        let mut list = Topologies {
            items: Vec::new(),
            ends: Ends::default(),
        };
        for template in templates {
            let values = if has_placeholder(&template) {
                let ns = ns
                    .as_ref()
                    .ok_or_else(|| Error::invalid("topology", &template, "it uses {n} but no values of n are given"))?;
                if list.len() + ns.len() > MAX_TOPOLOGIES {
                    return Err(Error::invalid(
                        "n",
                        n.join(","),
                        format!(
                            "'{template}' would make more than {MAX_TOPOLOGIES} topologies (each a network of \
                             its own); give fewer values of n"
                        ),
                    ));
                }
                for v in ns.iter() {
                    parse(&fill(&template, v))?;
                }
                Some(ns.clone())
            } else {
                parse(&template)?;
                None
            };
            list.ends.push(values.as_ref().map_or(1, Numbers::len));
            list.items.push((template, values));
        }
        if ns.is_some() && !list.items.iter().any(|(_, values)| values.is_some()) {
            return Err(Error::invalid("n", n.join(","), "no topology contains {n}"));
        }
        Ok(list)
    }

    /// The list of the one topology `t`.
    pub fn one(t: &Topology) -> Topologies {
        let mut ends = Ends::default();
        ends.push(1);
        Topologies {
            items: vec![(t.to_string(), None)],
            ends,
        }
    }

    /// The number of topologies.
    pub fn len(&self) -> u64 {
        self.ends.len()
    }

    /// Whether the list has no topology.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    /// The `index`-th topology's name (`index < len()`).
    pub fn name(&self, index: u64) -> String {
        let (i, offset) = self.ends.locate(index);
        match &self.items[i] {
            (template, None) => template.clone(),
            (template, Some(ns)) => fill(template, ns.get(offset)),
        }
    }

    /// The `index`-th topology, parsed by `parse` (which accepted it when
    /// the list was made).
    pub fn get(&self, index: u64, parse: impl Fn(&str) -> Result<Topology>) -> Topology {
        let name = self.name(index);
        parse(&name).unwrap_or_else(|e| panic!("topology '{name}' was accepted when the list was made: {e}"))
    }
}

/// `template` with `{n}` and `{N}` replaced by `n`.
fn fill(template: &str, n: u64) -> String {
    let n = n.to_string();
    template.replace("{n}", &n).replace("{N}", &n)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw(text: &str) -> Vec<String> {
        vec![text.to_string()]
    }

    #[test]
    fn a_list_reads_each_value_by_index_from_its_ranges() {
        let list = numbers("seeds", &raw("5,1..3,10..=11"), 0, u64::MAX).unwrap();
        assert_eq!(list.len(), 6);
        let by_index: Vec<u64> = (0..list.len()).map(|i| list.get(i)).collect();
        assert_eq!(by_index, [5, 1, 2, 3, 10, 11]);
        assert_eq!(list.iter().collect::<Vec<_>>(), by_index);
        assert_eq!(Numbers::one(7).get(0), 7);
    }

    #[test]
    fn a_long_range_costs_no_memory() {
        let list = numbers("seeds", &raw(&format!("0..{}", MAX_POINTS - 1)), 0, u64::MAX).unwrap();
        assert_eq!(list.len(), MAX_POINTS);
        assert_eq!(list.get(MAX_POINTS - 1), MAX_POINTS - 1);
        assert_eq!(list.ranges.len(), 1);
    }

    #[test]
    fn words_stand_for_their_value() {
        let list = numbers_or("queue-cap", &raw("unbounded,2..3"), 1, 9, &["unbounded"], 0).unwrap();
        assert_eq!(list.iter().collect::<Vec<_>>(), [0, 2, 3]);
        let e = numbers_or("queue-cap", &raw("x"), 1, 9, &["unbounded"], 0)
            .unwrap_err()
            .to_string();
        assert!(e.contains("from 1 to 9, unbounded or a range"), "{e}");
    }

    #[test]
    fn topologies_expand_templates_by_index() {
        let parse = |s: &str| s.parse::<Topology>();
        let list = Topologies::new(&raw("ring:3,mesh:{n}x2"), &raw("2..4"), parse).unwrap();
        assert_eq!(list.len(), 4);
        let names: Vec<String> = (0..4).map(|i| list.name(i)).collect();
        assert_eq!(names, ["ring:3", "mesh:2x2", "mesh:3x2", "mesh:4x2"]);
        assert_eq!(list.get(3, parse).to_string(), "mesh:4x2");
        let e = Topologies::new(&raw("ring:{n}"), &raw(&format!("3..{}", MAX_TOPOLOGIES + 3)), parse)
            .unwrap_err()
            .to_string();
        assert!(e.contains("more than 1000000 topologies"), "{e}");
    }
}
