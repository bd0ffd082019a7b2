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

/// The steps of a relay: per step, the (node, port) of every message.
pub type Steps = Vec<Vec<(u32, u32)>>;

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
    // Queue key → the messages (item, node, port) waiting for that link.
    type Queue = VecDeque<(u32, u32, u32)>;
    let mut queues: BTreeMap<u64, Queue> = BTreeMap::new();
    let enqueue = |queues: &mut BTreeMap<u64, Queue>, item: u32, node: u32, arrived: Option<u32>| {
        for port in rule(item, node, arrived) {
            queues.entry(key(node, port)).or_default().push_back((item, node, port));
        }
    };
    for &(item, node) in items {
        enqueue(&mut queues, item, node, None);
    }
    let mut steps = Steps::new();
    let mut arrivals = Vec::new();
    while !queues.is_empty() {
        let mut sent = Vec::with_capacity(queues.len());
        arrivals.clear();
        queues.retain(|_, queue| {
            let (item, node, port) = queue.pop_front().expect("queues kept are not empty");
            let head = topo.neighbor(node, port).expect("a relay rule names existing links");
            sent.push((node, port));
            arrivals.push((item, head, port));
            !queue.is_empty()
        });
        for &(item, head, port) in &arrivals {
            enqueue(&mut queues, item, head, Some(port));
        }
        steps.push(sent);
    }
    steps
}

/// Steps in which every node of `senders` sends on each of `ports` at
/// once, one step per entry: a collective whose every link carries exactly
/// one message per step (a butterfly's all-reduce, level by level).
pub fn lockstep(topo: &Topology, senders: impl IntoIterator<Item = Vec<u32>>, ports: &[u32]) -> Steps {
    senders
        .into_iter()
        .map(|nodes| {
            nodes
                .into_iter()
                .flat_map(|v| ports.iter().map(move |&p| (v, p)))
                .filter(|&(v, p)| topo.neighbor(v, p).is_some())
                .collect()
        })
        .collect()
}
