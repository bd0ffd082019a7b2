//! The instance format of SPEC §3: read, validate, write.
//!
//! Reading goes through `serde_json::Value` and walks it by hand so that every
//! refusal names the field and the value (`packets[3][1]`), and nothing is
//! half-loaded: an instance is either valid as a whole or refused.

use super::instance_read::{short, top_level, ListField, TopLevel, KNOWN_FIELDS};
use super::keys::KeyNumbers;
use crate::error::{Error, Result};
use crate::topology::{Network, Topology};
use serde_json::{json, Value};

/// Size limits that protect memory (the browser sets tighter ones).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most nodes a topology may have.
    pub max_nodes: u64,
    /// Most packets an instance may have.
    pub max_packets: u64,
    /// Most bytes of instance text.
    pub max_bytes: u64,
}

impl Limits {
    /// Native CLI limits.
    pub const NATIVE: Limits = Limits {
        max_nodes: crate::topology::MAX_NODES,
        max_packets: 1 << 26,
        max_bytes: 1 << 31,
    };
    /// Browser limits: a few hundred MB of wasm memory at most.
    pub const BROWSER: Limits = Limits {
        max_nodes: 1 << 20,
        max_packets: 1 << 21,
        max_bytes: 64 << 20,
    };
    /// Browser limits for generated workloads, tighter so that a mistyped
    /// size cannot freeze the tab: at most 2^18 nodes (a 512×512 mesh) and
    /// 2^20 packets.
    pub const BROWSER_GENERATED: Limits = Limits {
        max_nodes: 1 << 18,
        max_packets: 1 << 20,
        max_bytes: Limits::BROWSER.max_bytes,
    };

    /// Refuses a topology above the node limit.
    pub fn check_topology(&self, topo: &Topology) -> Result<()> {
        at_most(
            || format!("topology {topo}: nodes"),
            topo.nodes() as u64,
            self.max_nodes,
        )
    }

    /// Refuses a generated workload whose packet count could exceed the
    /// limit, before generating it: a workload sends at most max(ℓ, k)
    /// packets per sending node, ℓ and k as the workload reads them (an
    /// unread k, say `--k 8` on a permutation, adds no packet).
    pub fn check_workload(&self, topo: &Topology, spec: &crate::workload::WorkloadSpec) -> Result<()> {
        self.check_topology(topo)?;
        at_most(
            || {
                format!(
                    "workload {} on {topo}: packets (at most l or k a sender)",
                    spec.workload
                )
            },
            spec.max_packets(topo),
            self.max_packets,
        )
    }

    /// Refuses a packet count above the limit.
    pub fn check_packets(&self, count: u64) -> Result<()> {
        at_most(|| "packets".into(), count, self.max_packets)
    }

    /// Refuses instance text of more bytes than the limit (the page asks
    /// before it reads a file).
    pub fn check_text(&self, bytes: u64) -> Result<()> {
        at_most(|| "instance text bytes".into(), bytes, self.max_bytes)
    }
}

/// Refuses `value` above `limit`, naming the quantity (`field`).
fn at_most(field: impl FnOnce() -> String, value: u64, limit: u64) -> Result<()> {
    if value > limit {
        return Err(Error::TooLarge {
            field: field(),
            value,
            limit,
        });
    }
    Ok(())
}

/// A routing instance: a network and a list of `(source, destination)` pairs;
/// packet `i` is `packets[i]`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Instance {
    /// The network.
    pub topology: Topology,
    /// `(source, destination)` node ids.
    pub packets: Vec<(u32, u32)>,
    /// An optional name (workload generators set it).
    pub name: Option<String>,
    /// Declared ℓ (most packets any node sends).
    pub l: Option<u32>,
    /// Declared k (most packets any node receives).
    pub k: Option<u32>,
    /// A sort's keys, one per packet (SPEC §3, §5 "Sorting"); `None` for a
    /// routing instance.
    pub keys: Option<Vec<u64>>,
    /// What numbers `keys` were read as, and so how their codes decode
    /// (SPEC §3 allows any number; see [`super::keys`]).
    pub key_numbers: KeyNumbers,
}

impl Instance {
    /// An instance after checking every id against the topology.
    pub fn new(topology: Topology, packets: Vec<(u32, u32)>) -> Result<Instance> {
        let n = topology.nodes();
        for (i, &(s, d)) in packets.iter().enumerate() {
            if s >= n {
                return Err(Error::invalid(
                    format!("packets[{i}][0]"),
                    s,
                    format!("node id out of range 0..{}", n - 1),
                ));
            }
            if d >= n {
                return Err(Error::invalid(
                    format!("packets[{i}][1]"),
                    d,
                    format!("node id out of range 0..{}", n - 1),
                ));
            }
        }
        Ok(Instance {
            topology,
            packets,
            name: None,
            l: None,
            k: None,
            keys: None,
            key_numbers: KeyNumbers::Unsigned,
        })
    }

    /// Measured (ℓ, k): the most packets sent by one node and received by one node.
    pub fn measured_lk(&self) -> (u32, u32) {
        let n = self.topology.nodes() as usize;
        let (mut out, mut inn) = (vec![0u32; n], vec![0u32; n]);
        for &(s, d) in &self.packets {
            out[s as usize] += 1;
            inn[d as usize] += 1;
        }
        (out.into_iter().max().unwrap_or(0), inn.into_iter().max().unwrap_or(0))
    }

    /// (ℓ, k) as the algorithms know them: declared if given, else measured (SPEC §3).
    pub fn lk(&self) -> (u32, u32) {
        let (ml, mk) = self.measured_lk();
        (self.l.unwrap_or(ml), self.k.unwrap_or(mk))
    }

    /// Kaufmann–Sibeyn's k as the nodes are told it (a partial k-k
    /// routing): max(ℓ, k) of [`Instance::lk`], declared if given, else
    /// measured — what an algorithm that plans by k plans for.
    pub fn most_per_node(&self) -> u32 {
        let (l, k) = self.lk();
        l.max(k)
    }

    /// The most packets one node sends or receives, max(ℓ, k) as measured:
    /// the k of the tightest k-k problem this instance belongs to, which
    /// the bounds of algorithms that do not plan by k take.
    pub fn measured_most_per_node(&self) -> u32 {
        let (l, k) = self.measured_lk();
        l.max(k)
    }

    /// Parses SPEC §3 JSON under the native limits.
    pub fn from_json(text: &str) -> Result<Instance> {
        Self::from_json_with_limits(text, &Limits::NATIVE)
    }

    /// Parses SPEC §3 JSON under `limits`. Fields SPEC §3 does not name are
    /// ignored ([`Instance::from_json_noting_unknown`] lists them).
    pub fn from_json_with_limits(text: &str, limits: &Limits) -> Result<Instance> {
        Self::parse(text, limits).map(|(inst, _)| inst)
    }

    /// Parses SPEC §3 JSON under the native limits, with the top-level fields
    /// SPEC §3 does not name (anything but topology, packets, name, l and k):
    /// the parser ignores them (a file may carry its own metadata), and a
    /// front end may say so. One parse of the text.
    pub fn from_json_noting_unknown(text: &str) -> Result<(Instance, Vec<String>)> {
        Self::parse(text, &Limits::NATIVE)
    }

    fn parse(text: &str, limits: &Limits) -> Result<(Instance, Vec<String>)> {
        limits.check_text(text.len() as u64)?;
        if text.starts_with('\u{feff}') {
            return Err(Error::Json(
                "the text starts with a byte-order mark (U+FEFF): save the file as UTF-8 without a BOM".into(),
            ));
        }
        let TopLevel {
            fields: obj,
            packets: packets_field,
            keys: keys_field,
        } = top_level(text, limits.max_packets)?;
        let topo_text = match obj.get("topology") {
            Some(Value::String(s)) => s,
            Some(other) => {
                return Err(Error::invalid(
                    "topology",
                    other,
                    "expected a string such as \"mesh:8x8\"",
                ))
            }
            None => return Err(Error::Json("missing field \"topology\"".into())),
        };
        let topology: Topology = topo_text.parse()?;
        limits.check_topology(&topology)?;
        let (pairs, bad, count) = match packets_field {
            Some(ListField::List { items, bad, count }) => (items, bad, count),
            Some(ListField::Other(other)) => {
                return Err(Error::invalid(
                    "packets",
                    short(&other),
                    "expected an array of [source, destination] pairs",
                ))
            }
            None => return Err(Error::Json("missing field \"packets\"".into())),
        };
        limits.check_packets(count)?;
        let n = topology.nodes();
        let node = |i: usize, j: usize, id: u64| {
            if id >= n as u64 {
                return Err(Error::invalid(
                    format!("packets[{i}][{j}]"),
                    id,
                    format!("node id out of range 0..{} for {topology}", n - 1),
                ));
            }
            Ok(id as u32)
        };
        let mut packets = crate::error::try_with_capacity(pairs.len(), "the instance's packets", &topology)?;
        for (i, &[a, b]) in pairs.iter().enumerate() {
            packets.push((node(i, 0, a)?, node(i, 1, b)?));
        }
        drop(pairs);
        // The first item that is not a pair of non-negative integers.
        if let Some((i, item)) = bad {
            let pair = item.as_array().filter(|a| a.len() == 2).ok_or_else(|| {
                Error::invalid(format!("packets[{i}]"), short(&item), "expected [source, destination]")
            })?;
            for (j, v) in pair.iter().enumerate() {
                let id = v.as_u64().ok_or_else(|| {
                    Error::invalid(
                        format!("packets[{i}][{j}]"),
                        short(v),
                        "expected a non-negative integer node id",
                    )
                })?;
                node(i, j, id)?;
            }
        }
        let name = match obj.get("name") {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s.clone()),
            Some(other) => return Err(Error::invalid("name", short(other), "expected a string")),
        };
        let net = topology.to_string();
        let declared = |key: &str| -> Result<Option<u32>> {
            match obj.get(key) {
                None | Some(Value::Null) => Ok(None),
                Some(v) => {
                    let x = v
                        .as_u64()
                        .filter(|&x| x >= 1 && x <= u32::MAX as u64)
                        .ok_or_else(|| Error::invalid(key, short(v), "expected a whole number from 1 to 4294967295"))?;
                    Ok(Some(x as u32))
                }
            }
        };
        let (l, k) = (declared("l")?, declared("k")?);
        // A declared ℓ (k) says the problem may hold up to ℓ·N packets, and
        // the algorithms plan for that many (pp's colours, ks-level's
        // levels): the same limit as a generated workload's
        // (`workload::per_sender` a sender, the senders as
        // `sort::key_count` counts them), so that whatever `generate`
        // writes, `run` reads.
        if l.is_some() || k.is_some() {
            let x = super::per_sender(l, k);
            let key = if l == Some(x) { "l" } else { "k" };
            let senders = super::sort::key_count(&topology) as u64;
            if (x as u64).saturating_mul(senders) > limits.max_packets {
                let both = if l.is_some() && k.is_some() {
                    " (the smaller of l and k)"
                } else {
                    ""
                };
                return Err(Error::invalid(
                    key,
                    x,
                    format!(
                        "a declared {key}{both} of {x} on {net} ({senders} senders) plans for up to {x} x {senders} packets, above the limit {}",
                        limits.max_packets
                    ),
                ));
            }
        }
        let mut inst = Instance {
            topology,
            packets,
            name,
            l,
            k,
            keys: None,
            key_numbers: KeyNumbers::Unsigned,
        };
        match keys_field {
            None | Some(ListField::Other(Value::Null)) => {}
            Some(ListField::Other(v)) => {
                return Err(Error::invalid(
                    "keys",
                    short(&v),
                    "expected an array of keys, one number per packet",
                ))
            }
            Some(ListField::List { bad: Some((i, v)), .. }) => {
                return Err(Error::invalid(
                    format!("keys[{i}]"),
                    short(&v),
                    super::keys::NOT_A_NUMBER,
                ))
            }
            Some(ListField::List { items, count, .. }) => {
                super::sort::check_key_count(count, inst.packets.len())?;
                let (keys, numbers) = super::keys::parse(&items)
                    .map_err(|(i, why)| Error::invalid(format!("keys[{i}]"), &items[i], why))?;
                drop(items);
                super::sort::check_sort_packets(&inst.topology, &inst.packets, &keys)?;
                inst.keys = Some(keys);
                inst.key_numbers = numbers;
            }
        }
        let (ml, mk) = inst.measured_lk();
        if let Some(l) = inst.l.filter(|&l| l < ml) {
            return Err(Error::invalid("l", l, format!("a node sends {ml} packets")));
        }
        if let Some(k) = inst.k.filter(|&k| k < mk) {
            return Err(Error::invalid("k", k, format!("a node receives {mk} packets")));
        }
        let unknown = obj
            .keys()
            .filter(|k| !KNOWN_FIELDS.contains(&k.as_str()))
            .cloned()
            .collect();
        Ok((inst, unknown))
    }

    /// Writes SPEC §3 JSON, compact, keys in alphabetical order (`k`,
    /// `keys`, `l`, `name`, `packets`, `topology`). Written straight into the string,
    /// without a JSON tree: a tree costs about a hundred bytes per packet,
    /// which at the node limit is many GB.
    pub fn to_json(&self) -> String {
        use std::fmt::Write;
        let mut out = String::with_capacity(64 + self.packets.len() * 12);
        out.push('{');
        if let Some(k) = self.k {
            let _ = write!(out, "\"k\":{k},");
        }
        if let Some(keys) = &self.keys {
            out.push_str("\"keys\":[");
            for (i, &key) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                super::keys::write_json(&mut out, key, self.key_numbers);
            }
            out.push_str("],");
        }
        if let Some(l) = self.l {
            let _ = write!(out, "\"l\":{l},");
        }
        if let Some(name) = &self.name {
            let _ = write!(out, "\"name\":{},", json!(name));
        }
        out.push_str("\"packets\":[");
        // A sort's file gives each packet its rank's node in the topology's
        // order (SPEC §5), whatever order a run has set (a snake sort's, a
        // butterfly sort's level D): an exported sort loads again.
        let canonical = self.keys.as_ref().map(|keys| {
            let order = super::sort::Order::of(&self.topology);
            let ranks = super::sort::rank_destinations(keys);
            move |i: usize| order.node(&self.topology, ranks[i])
        });
        for (i, &(s, d)) in self.packets.iter().enumerate() {
            let d = canonical.as_ref().map_or(d, |node| node(i));
            let _ = write!(out, "{}[{s},{d}]", if i == 0 { "" } else { "," });
        }
        let _ = write!(out, "],\"topology\":{}}}", json!(self.topology.to_string()));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The packet list is read item by item: past the limit it is counted,
    /// not kept (the message gives the whole count), and past a bad item
    /// read over; unknown fields are read over too.
    #[test]
    fn a_long_packet_list_is_counted_not_kept() {
        let limits = Limits {
            max_packets: 2,
            ..Limits::NATIVE
        };
        let text = r#"{"topology":"mesh:2x2","meta":[[1,2],{"a":[3]}],"packets":[[0,1],[1,2],[2,3],[3,0],"x"]}"#;
        let e = Instance::from_json_with_limits(text, &limits).unwrap_err().to_string();
        assert_eq!(e, "packets too large: 5 exceeds the limit 2");
        let text = r#"{"topology":"mesh:2x2","packets":[[0,1],[1,2],[2,3]],"meta":{"deep":[[[]]]}}"#;
        let (inst, unknown) = Instance::parse(text, &Limits::NATIVE).unwrap();
        assert_eq!(inst.packets, vec![(0, 1), (1, 2), (2, 3)]);
        assert_eq!(unknown, vec!["meta".to_string()]);
    }

    /// The page's text limit read at the core's rate stays inside the
    /// page's memory budget (the CLI checks its own limit before reading).
    #[test]
    fn the_page_can_read_the_longest_text_it_takes() {
        let most = Limits::BROWSER.max_bytes * crate::workload::READ_BYTES_PER_TEXT_BYTE;
        assert!(most <= crate::memory::PAGE_BUDGET, "{most}");
    }

    /// Keys are read item by item: the first item that is not a number is
    /// named, and a list past the packet limit is counted, not kept.
    #[test]
    fn keys_are_read_item_by_item() {
        let limits = Limits {
            max_packets: 2,
            ..Limits::NATIVE
        };
        let text = r#"{"topology":"linear:2","packets":[[0,0],[1,1]],"keys":[1,2,3,"x"]}"#;
        let e = Instance::from_json_with_limits(text, &limits).unwrap_err().to_string();
        assert_eq!(e, "invalid keys '4 keys': expected one key per packet (2 packets)");
        for (keys, at, shown) in [
            (r#"[1,"2"]"#, 1, r#""2""#),
            ("[1,null]", 1, "null"),
            ("[[1],2]", 0, "[1]"),
        ] {
            let text = format!(r#"{{"topology":"linear:2","packets":[[0,0],[1,1]],"keys":{keys}}}"#);
            let e = Instance::from_json(&text).unwrap_err().to_string();
            assert_eq!(
                e,
                format!("invalid keys[{at}] '{shown}': {}", super::super::keys::NOT_A_NUMBER)
            );
        }
        let text = r#"{"topology":"linear:2","packets":[[0,1],[1,0]],"keys":[2.5,-1]}"#;
        let inst = Instance::from_json(text).unwrap();
        assert_eq!(inst.key_numbers, KeyNumbers::Real);
        assert_eq!(Instance::from_json(&inst.to_json()).unwrap(), inst);
    }

    #[test]
    fn round_trip() {
        let text = r#"{"topology":"mesh:8x8","packets":[[0,63],[1,62],[5,62]],"name":"x","l":2,"k":3}"#;
        let inst = Instance::from_json(text).unwrap();
        assert_eq!(inst.packets, vec![(0, 63), (1, 62), (5, 62)]);
        assert_eq!(inst.lk(), (2, 3));
        assert_eq!(inst.measured_lk(), (1, 2));
        assert_eq!(Instance::from_json(&inst.to_json()).unwrap(), inst);
    }

    #[test]
    fn written_like_a_json_tree() {
        let topology: Topology = "mesh:2x2".parse().unwrap();
        for (name, l, k, packets) in [
            (None, None, None, vec![]),
            (Some("a \"q\" \\ é\n"), Some(2), Some(3), vec![(0, 3), (1, 1)]),
            (Some("x"), None, Some(1), vec![(2, 0)]),
        ] {
            let inst = Instance {
                topology: topology.clone(),
                packets,
                name: name.map(String::from),
                l,
                k,
                keys: None,
                key_numbers: KeyNumbers::Unsigned,
            };
            let mut v = json!({ "topology": "mesh:2x2", "packets": inst.packets.iter().map(|&(s, d)| [s, d]).collect::<Vec<_>>() });
            if let Some(name) = name {
                v["name"] = json!(name);
            }
            if let Some(l) = l {
                v["l"] = json!(l);
            }
            if let Some(k) = k {
                v["k"] = json!(k);
            }
            assert_eq!(inst.to_json(), v.to_string());
            assert_eq!(Instance::from_json(&inst.to_json()).unwrap(), inst);
        }
    }

    #[test]
    fn refusals_name_field_and_value() {
        let cases = [
            ("not json", "not valid JSON"),
            ("[1,2]", "JSON object"),
            (r#"{"packets":[]}"#, "\"topology\""),
            (r#"{"topology":"mesh:8x8"}"#, "\"packets\""),
            (r#"{"topology":"blob:3","packets":[]}"#, "blob:3"),
            (r#"{"topology":"mesh:2x2","packets":[[0,4]]}"#, "packets[0][1] '4'"),
            (
                r#"{"topology":"mesh:2x2","packets":[[0,1],[-1,2]]}"#,
                "packets[1][0] '-1'",
            ),
            (r#"{"topology":"mesh:2x2","packets":[[0,1,2]]}"#, "packets[0] '[0,1,2]'"),
            (r#"{"topology":"mesh:2x2","packets":{}}"#, "invalid packets"),
            (r#"{"topology":"mesh:2x2","packets":[[0,1]],"k":0}"#, "invalid k '0'"),
            (
                r#"{"topology":"mesh:2x2","packets":[[0,1],[2,1]],"k":1}"#,
                "invalid k '1'",
            ),
            // A field given twice (the last would win silently otherwise).
            (
                r#"{"topology":"mesh:2x2","packets":[[0,3]],"topology":"mesh:3x3"}"#,
                "invalid topology '\"mesh:3x3\"': the field is given twice",
            ),
            (
                r#"{"topology":"mesh:2x2","packets":[],"x":1,"x":2}"#,
                "invalid x '…': the field is given twice",
            ),
            (
                r#"{"topology":"mesh:2x2","packets":[[0,1]],"packets":[]}"#,
                "invalid packets '…': the field is given twice",
            ),
            (
                r#"{"topology":"mesh:2x2","packets":[[0,1],[0,1.5]]}"#,
                "packets[1][1] '1.5'",
            ),
            (
                r#"{"topology":"mesh:2x2","packets":[[0,1],[5,0],[0]]}"#,
                "packets[1][0] '5'",
            ),
            (
                r#"{"topology":"mesh:2x2","packets":[[0,1],[0],[5,0]]}"#,
                "packets[1] '[0]'",
            ),
            (r#"{"topology":"mesh:2x2","packets":"x"}"#, "invalid packets '\"x\"'"),
            ("\u{feff}{}", "byte-order mark"),
            ("\"text\"", "JSON object"),
            (r#"{"topology":"mesh:2x2","packets":[]} {}"#, "not valid JSON: trailing"),
            ("", "not valid JSON"),
        ];
        for (text, want) in cases {
            let e = Instance::from_json(text).unwrap_err().to_string();
            assert!(e.contains(want), "{text}: {e}");
        }
    }

    /// A field SPEC §3 does not name is metadata: ignored (and listed), not
    /// a refusal; a named field with a bad value is still refused.
    #[test]
    fn fields_spec_does_not_name_are_ignored_and_listed() {
        let plain = r#"{"topology":"mesh:2x2","packets":[[0,3],[1,2]],"k":2}"#;
        let extra = r#"{"generator":"course 6.1","topology":"mesh:2x2","packets":[[0,3],[1,2]],"k":2,"seed":{"a":1}}"#;
        let (with_extra, unknown) = Instance::from_json_noting_unknown(extra).unwrap();
        assert_eq!(with_extra, Instance::from_json(plain).unwrap());
        assert_eq!(Instance::from_json(extra).unwrap(), with_extra);
        assert_eq!(unknown, ["generator", "seed"]);
        assert!(Instance::from_json_noting_unknown(plain).unwrap().1.is_empty());
        let e = Instance::from_json(r#"{"topology":"mesh:2x2","packets":[],"colour":1,"k":"x"}"#).unwrap_err();
        assert!(e.to_string().contains("invalid k"), "{e}");
    }

    #[test]
    fn limits_are_enforced() {
        let small = Limits {
            max_nodes: 16,
            max_packets: 2,
            max_bytes: 1000,
        };
        assert!(Instance::from_json_with_limits(r#"{"topology":"mesh:8x8","packets":[]}"#, &small).is_err());
        let e = Instance::from_json_with_limits(r#"{"topology":"mesh:2x2","packets":[[0,1],[0,1],[0,1]]}"#, &small)
            .unwrap_err();
        assert!(e.to_string().contains("packets too large"), "{e}");
    }

    /// A workload's packets are counted with ℓ and k as it reads them: an
    /// unread k (a permutation's) adds none; a read one does.
    #[test]
    fn the_workload_limit_counts_only_what_the_workload_reads() {
        use crate::workload::{Workload, WorkloadSpec};
        let limits = Limits {
            max_nodes: 1 << 20,
            max_packets: 1 << 18,
            max_bytes: 1000,
        };
        let topo: Topology = "mesh:512x512".parse().unwrap();
        let with_k = |w: Workload| WorkloadSpec {
            k: Some(8),
            ..WorkloadSpec::new(w, 1)
        };
        assert!(limits.check_workload(&topo, &with_k(Workload::Transpose)).is_ok());
        let e = limits.check_workload(&topo, &with_k(Workload::RandomKk)).unwrap_err();
        assert!(e.to_string().contains("2097152"), "{e}");
        // A butterfly sends from its level-0 rows only.
        let fly: Topology = "butterfly:15".parse().unwrap();
        assert!(limits
            .check_workload(&fly, &WorkloadSpec::new(Workload::RandomPermutation, 1))
            .is_ok());
    }
}
