//! Control messages relayed hop by hop: the schedule of a collective
//! (a broadcast, a gather) as the links would carry it.
//!
//! Every *item* (a key, a count, a splitter) starts at a node and is
//! forwarded, at every node it reaches, on the ports a rule names. A
//! directed link carries one message per step (SPEC §1): each link keeps a
//! first-in first-out queue of the items waiting for it, and sends the
//! head of that queue in every step; an item that arrives at the end of
//! step t may leave again in step t + 1. [`relay`] plays this out and
//! returns, per step, the links that carry a message — the caller puts one
//! control message on each, so the engine checks and counts them. What
//! the items *carry* the caller computes from the same pattern: an item
//! reaches exactly the nodes the rule leads it to.
//!
//! # Complexity
//! O(messages · log links) time for the ordered map of queues, O(items in
//! flight) memory.

use crate::topology::{Network, Topology};
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

/// The messages of one step: single links (a relay's), blocks of
/// consecutive nodes that all send on the same ports (a lockstep
/// collective's levels, kept as ranges: a butterfly scan's steps would
/// otherwise list every link of every level they cover), and a bitmap of
/// links for a relay's busy steps (an all-gather's, where most links
/// carry a message: a bit per link, not eight bytes per message).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Step {
    /// (node, port) of each message.
    pub links: Vec<(u32, u32)>,
    /// (first node, nodes, ports): every node of first..first + nodes sends
    /// on each of the ports.
    pub blocks: Vec<(u32, u32, &'static [u32])>,
    /// Bit node·ports + port set for each message (`ports` the network's
    /// ports per node); empty if the step lists its links.
    pub dense: Vec<u64>,
    /// Ports per node of `dense`.
    pub ports: u32,
}

impl Step {
    /// Every message of the step, as (node, port).
    pub fn sends(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        let blocks = self.blocks.iter().flat_map(|&(first, nodes, ports)| {
            (first..first + nodes).flat_map(move |v| ports.iter().map(move |&p| (v, p)))
        });
        let ports = self.ports.max(1);
        let dense = self.dense.iter().enumerate().flat_map(move |(w, &word)| {
            let mut bits = word;
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let b = bits.trailing_zeros();
                    bits &= bits - 1;
                    let i = w as u32 * 64 + b;
                    (i / ports, i % ports)
                })
            })
        });
        self.links.iter().copied().chain(blocks).chain(dense)
    }

    /// The step of these messages: a list, or a bitmap where that is
    /// smaller (more than one message per 64 links of `topo`).
    fn of(topo: &Topology, sent: Vec<(u32, u32)>) -> Step {
        let ports = topo.ports();
        let bits = u64::from(topo.nodes()) * u64::from(ports);
        if (sent.len() as u64) * 64 <= bits || bits > u64::from(u32::MAX) {
            return Step {
                links: sent,
                ..Step::default()
            };
        }
        let mut dense = vec![0u64; bits.div_ceil(64) as usize];
        for (v, p) in sent {
            let i = (v * ports + p) as usize;
            dense[i / 64] |= 1 << (i % 64);
        }
        Step {
            dense,
            ports,
            ..Step::default()
        }
    }
}

/// The steps of a relay or a collective.
pub type Steps = Vec<Step>;

/// Queue key → the messages (item, node, port) waiting for that link.
type Queues = BTreeMap<u64, VecDeque<(u32, u32, u32)>>;

/// Puts `item`, at `node` (arrived on `arrived`), in the queues of the
/// ports `rule` names.
fn enqueue<R, I, K>(queues: &mut Queues, rule: &R, key: &K, item: u32, node: u32, arrived: Option<u32>)
where
    R: Fn(u32, u32, Option<u32>) -> I + ?Sized,
    I: IntoIterator<Item = u32>,
    K: Fn(u32, u32) -> u64 + ?Sized,
{
    for port in rule(item, node, arrived) {
        queues.entry(key(node, port)).or_default().push_back((item, node, port));
    }
}

/// One step of a relay: every queue sends its head; the items sent then
/// enter the queues of the nodes they reach. Returns the links sent on.
fn advance<R, I, K>(topo: &Topology, queues: &mut Queues, rule: &R, key: &K) -> Vec<(u32, u32)>
where
    R: Fn(u32, u32, Option<u32>) -> I + ?Sized,
    I: IntoIterator<Item = u32>,
    K: Fn(u32, u32) -> u64 + ?Sized,
{
    let mut sent = Vec::with_capacity(queues.len());
    let mut arrivals = Vec::with_capacity(queues.len());
    queues.retain(|_, queue| {
        let (item, node, port) = queue.pop_front().expect("queues kept are not empty");
        let head = topo.neighbor(node, port).expect("a relay rule names existing links");
        sent.push((node, port));
        arrivals.push((item, head, port));
        !queue.is_empty()
    });
    for &(item, head, port) in &arrivals {
        enqueue(queues, rule, key, item, head, Some(port));
    }
    sent
}

/// Plays out the relay of `items` (item id, start node) on `topo`: an item
/// at a node is forwarded on every port `rule(item, node, arrived)` returns
/// (in that order), `arrived` being the port it was sent on to get there
/// (`None` at its start node). Messages wait in the queue `key(node, port)` names — one per
/// real link: a hosted network ([`super::host`]) may map two of its links
/// to one — and each queue sends one message a step, first in, first out.
/// The items at their start nodes enter their queues in the order given.
pub fn relay<R, I, K>(topo: &Topology, items: &[(u32, u32)], rule: R, key: K) -> Steps
where
    R: Fn(u32, u32, Option<u32>) -> I,
    I: IntoIterator<Item = u32>,
    K: Fn(u32, u32) -> u64,
{
    let mut queues = Queues::new();
    for &(item, node) in items {
        enqueue(&mut queues, &rule, &key, item, node, None);
    }
    let mut steps = Steps::new();
    while !queues.is_empty() {
        // Kept until the phase runs: a busy step as a bitmap.
        steps.push(Step::of(topo, advance(topo, &mut queues, &rule, &key)));
    }
    steps
}

/// A relay's rule, owned ([`Relay`]).
pub type Rule = Arc<dyn Fn(u32, u32, Option<u32>) -> Vec<u32> + Send + Sync>;
/// A relay's queue key, owned ([`Relay`]).
pub type Key = Arc<dyn Fn(u32, u32) -> u64 + Send + Sync>;

/// The same relay as [`relay`], played one step at a time as its phase
/// runs: it keeps only the messages waiting, not every step's links — an
/// all-gather's steps on a big mesh would take O(candidates · links) bits.
#[derive(Clone)]
pub struct Relay {
    topo: Topology,
    queues: Queues,
    rule: Rule,
    key: Key,
}

impl Relay {
    /// The relay of `items` on `topo` by `rule` and `key`, as [`relay`].
    pub fn new(topo: Topology, items: &[(u32, u32)], rule: Rule, key: Key) -> Relay {
        let mut queues = Queues::new();
        for &(item, node) in items {
            enqueue(&mut queues, &*rule, &*key, item, node, None);
        }
        Relay {
            topo,
            queues,
            rule,
            key,
        }
    }

    /// Whether every message has been sent.
    pub fn done(&self) -> bool {
        self.queues.is_empty()
    }

    /// The next step's messages (`None` once done), listed: they are sent
    /// at once, not kept.
    pub fn next_step(&mut self) -> Option<Step> {
        (!self.done()).then(|| Step {
            links: advance(&self.topo, &mut self.queues, &*self.rule, &*self.key),
            ..Step::default()
        })
    }
}

/// Steps in which every node of `senders`' blocks (first node, nodes)
/// sends on each of `ports` at once, one step per entry: a collective whose
/// every link carries exactly one message per step (a butterfly's
/// all-reduce or scan, level by level). Every node of a block must have
/// every port (checked).
pub fn lockstep(topo: &Topology, senders: impl IntoIterator<Item = Vec<(u32, u32)>>, ports: &'static [u32]) -> Steps {
    senders
        .into_iter()
        .map(|blocks| {
            for &(first, nodes) in &blocks {
                for v in [first, first + nodes.max(1) - 1] {
                    assert!(
                        ports.iter().all(|&p| topo.neighbor(v, p).is_some()),
                        "lockstep: node {v} lacks one of the ports {ports:?}"
                    );
                }
            }
            Step {
                blocks: blocks.into_iter().map(|(first, nodes)| (first, nodes, ports)).collect(),
                ..Step::default()
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lockstep step lists blocks, not links, and sends exactly what the
    /// nodes of its blocks would send on each port; a block whose node
    /// lacks a port is refused.
    #[test]
    fn lockstep_blocks_send_every_link_of_their_nodes() {
        let topo: Topology = "butterfly:3".parse().unwrap();
        const DOWN: &[u32] = &[2, 3];
        let steps = lockstep(&topo, [vec![(8, 8)], vec![(16, 4), (28, 4)]], DOWN);
        assert_eq!(steps.len(), 2);
        assert!(steps.iter().all(|s| s.links.is_empty()));
        let sent: Vec<(u32, u32)> = steps[0].sends().collect();
        let want: Vec<(u32, u32)> = (8..16).flat_map(|v| [(v, 2), (v, 3)]).collect();
        assert_eq!(sent, want);
        assert_eq!(steps[1].sends().count(), 16);
        for (v, p) in steps.iter().flat_map(Step::sends) {
            assert!(topo.neighbor(v, p).is_some());
        }
        let level0 = std::panic::catch_unwind(|| lockstep(&topo, [vec![(0, 8)]], DOWN));
        assert!(level0.is_err(), "level 0 has no down links");
    }

    /// A relay played step by step gives the steps `relay` lists.
    #[test]
    fn a_relay_played_step_by_step_is_the_listed_one() {
        let topo: Topology = "mesh:5x6".parse().unwrap();
        let grid = topo.as_grid().unwrap().clone();
        let items: Vec<(u32, u32)> = [0u32, 7, 7, 29, 13]
            .iter()
            .enumerate()
            .map(|(i, &v)| (i as u32, v))
            .collect();
        let rule =
            move |_: u32, node: u32, arrived: Option<u32>| super::super::array_plan::flood(&grid, 0, node, arrived);
        let key = |v: u32, p: u32| u64::from(v) * 4 + u64::from(p);
        let listed = relay(&topo, &items, rule.clone(), key);
        let mut lazy = Relay::new(topo.clone(), &items, Arc::new(rule), Arc::new(key));
        let mut played = Vec::new();
        while let Some(step) = lazy.next_step() {
            played.push(step);
        }
        assert!(lazy.done() && !listed.is_empty());
        // The same messages in the same order, whether listed or a bitmap.
        let sends = |steps: &[Step]| -> Vec<Vec<(u32, u32)>> { steps.iter().map(|s| s.sends().collect()).collect() };
        assert_eq!(sends(&played), sends(&listed));
    }

    /// A relay's busy step is kept as a bitmap and sends exactly the links
    /// the list would (in node, then port order); a sparse one stays a
    /// list. An all-gather on mesh:8x8: every node's item floods the mesh.
    #[test]
    fn busy_relay_steps_are_bitmaps_of_the_same_links() {
        let topo: Topology = "mesh:8x8".parse().unwrap();
        let items: Vec<(u32, u32)> = (0..64).map(|v| (v, v)).collect();
        let rule = |_: u32, node: u32, arrived: Option<u32>| -> Vec<u32> {
            // On along the arrival's way, and from the start both ways
            // along both dimensions (rows first).
            let ok = |p: u32| topo.neighbor(node, p).is_some();
            match arrived {
                None => (0..4).filter(|&p| ok(p)).collect(),
                Some(p) if p < 2 => [p, 2, 3].into_iter().filter(|&q| ok(q)).collect(),
                Some(p) => [p].into_iter().filter(|&q| ok(q)).collect(),
            }
        };
        let steps = relay(&topo, &items, rule, |v, p| u64::from(v) * 4 + u64::from(p));
        assert!(steps.iter().any(|s| !s.dense.is_empty()), "some step is busy");
        let one = relay(&topo, &items[..1], rule, |v, p| u64::from(v) * 4 + u64::from(p));
        assert_eq!(one[0].links, [(0, 0), (0, 2)], "a corner's first two messages, listed");
        let mut reached = vec![0u32; 64];
        let mut total = 0;
        for s in &steps {
            let sent: Vec<(u32, u32)> = s.sends().collect();
            let mut sorted = sent.clone();
            sorted.sort_unstable();
            sorted.dedup();
            assert_eq!(sorted.len(), sent.len(), "a link twice in a step");
            for (v, p) in sent {
                reached[topo.neighbor(v, p).expect("a real link") as usize] += 1;
                total += 1;
            }
        }
        // Every item reaches every other node exactly once.
        assert!(reached.iter().all(|&r| r == 63), "{reached:?}");
        assert_eq!(total, 64 * 63);
    }
}
