//! What algorithms and front ends read: the network, the configuration,
//! each packet's state, the queues, the links of the last step and the
//! statistics. Nothing here changes the engine.

use super::bids::tie_flip;
use super::{ControlKind, Engine, EngineConfig, Stats, DELIVERED, ELIGIBLE, NONE};
use crate::topology::{Hop, Network, Topology};

impl Engine {
    /// The network.
    pub fn topology(&self) -> &Topology {
        &self.topo
    }
    /// The configuration.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }
    /// Steps simulated so far.
    pub fn step_count(&self) -> u32 {
        self.step
    }
    /// Number of packets.
    pub fn packet_count(&self) -> u32 {
        self.src.len() as u32
    }
    /// Source of packet `p`.
    pub fn source(&self, p: u32) -> u32 {
        self.src[p as usize]
    }
    /// Destination of packet `p`.
    pub fn destination(&self, p: u32) -> u32 {
        self.dest[self.slot(p)]
    }
    /// Current node of packet `p` (its destination once delivered).
    pub fn position(&self, p: u32) -> u32 {
        self.pos[self.slot(p)]
    }
    /// Current target of packet `p`.
    pub fn target(&self, p: u32) -> u32 {
        self.target[self.slot(p)]
    }
    /// The hop `p` makes next towards its current target along its route
    /// (the link it bids for when eligible): `None` at its target or once
    /// delivered. Computed afresh, so it reflects targets set since the
    /// last step.
    pub fn next_hop(&self, p: u32) -> Option<Hop> {
        let s = self.slot(p);
        if self.flags[s] & DELIVERED != 0 {
            return None;
        }
        let parity = self.tie_id(s) ^ tie_flip(self.flags[s]);
        self.topo.next_hop(self.pos[s], self.target[s], parity, self.order)
    }
    /// The hops `p` makes from where it is through the targets `via` in
    /// turn and on to its destination, along its routes (the route order,
    /// its ring-tie direction), stopping where it reaches its destination:
    /// a packet is delivered on arrival, even on its way to an earlier
    /// target (SPEC §1). Walks the route ([`Topology::walk_route`]).
    pub fn route_hops(&self, p: u32, via: &[u32]) -> u32 {
        let s = self.slot(p);
        let parity = self.tie_id(s) ^ tie_flip(self.flags[s]);
        self.topo
            .walk_route(self.pos[s], via, self.dest[s], parity, self.order, |_, _| {})
    }
    /// The id the packet in slot `s` breaks ties by and picks its way
    /// round a ring on a tie by (its parity), as the bids do: its id, or in
    /// open loop its number in the order of generation (`admit.rs`, "Ties").
    /// By the packet's reused id, a route read here once went the other way
    /// round an even ring than the packet did (`load`'s `hops_mean` above
    /// the mean latency for valiant on ring:4).
    fn tie_id(&self, s: usize) -> u32 {
        super::ties(&self.id_of, &self.tie_of)[s]
    }

    /// Whether `p` has been delivered.
    pub fn is_delivered(&self, p: u32) -> bool {
        self.delivered_at[p as usize] != NONE
    }
    /// Whether `p` has a scripted move ([`Engine::force_move`]) this step.
    pub fn is_scripted(&self, p: u32) -> bool {
        self.flags[self.slot(p)] & super::FORCED != 0
    }
    /// Whether `p` competes for links this step.
    pub fn is_eligible(&self, p: u32) -> bool {
        self.flags[self.slot(p)] & ELIGIBLE != 0
    }
    /// Packets delivered so far.
    pub fn delivered(&self) -> u32 {
        self.delivered
    }
    /// Undelivered packet ids, ascending, listed afresh (a pass over all
    /// packets: for phase changes, not for every step).
    pub fn active(&self) -> Vec<u32> {
        (0..self.packet_count())
            .filter(|&p| self.delivered_at[p as usize] == NONE)
            .collect()
    }
    /// Whether every undelivered packet sits at its destination (parked
    /// there by a scripted phase): the state in which an algorithm may hand
    /// them over and end the run without another step.
    pub fn all_home(&self) -> bool {
        (0..self.scan_len).all(|s| self.flags[s] & DELIVERED != 0 || self.pos[s] == self.dest[s])
    }
    /// Of `packets`, the undelivered ones at their destinations (those a
    /// scripted phase's end hands over).
    pub fn at_destination(&self, packets: &[u32]) -> Vec<u32> {
        packets
            .iter()
            .copied()
            .filter(|&p| !self.is_delivered(p) && self.position(p) == self.destination(p))
            .collect()
    }
    /// Number of undelivered packets.
    pub fn in_flight(&self) -> u32 {
        self.in_flight
    }
    /// Whether every packet has been delivered (with worms, their flits
    /// may still be on their way: see [`Engine::drained`]).
    pub fn finished(&self) -> bool {
        self.in_flight == 0
    }
    /// Eligible undelivered packets not yet at their target: 0 means the
    /// current phase has nothing left to route (a barrier may open).
    pub fn unsettled(&self) -> u32 {
        self.unsettled
    }
    /// Packets that reached their (non-final) target in the last step.
    pub fn arrived_at_target(&self) -> &[u32] {
        &self.arrived_at_target
    }
    /// Colour/phase class of each packet (for drawing).
    pub fn classes(&self) -> &[u8] {
        &self.class
    }
    /// Whether some packet has held class `class` so far.
    pub fn class_seen(&self, class: u8) -> bool {
        self.classes_seen[usize::from(class / 64)] & (1 << (class % 64)) != 0
    }
    /// Current node of every packet, by id (a combined packet is where
    /// the packet carrying it is, see [`Engine::combine`]).
    pub fn positions(&self) -> Vec<u32> {
        let mut out: Vec<u32> = self.slot_of.iter().map(|&s| self.pos[s as usize]).collect();
        for &(carrier, p) in &self.riders {
            out[p as usize] = out[carrier as usize];
        }
        out
    }
    /// Working-queue size of every node.
    pub fn working_queues(&self) -> &[u32] {
        &self.working
    }
    /// Packets still waiting at their source, per node.
    pub fn waiting_at_source(&self) -> &[u32] {
        &self.at_source
    }
    /// Directed link ids (`node * ports + port`) used in the last step,
    /// control messages first (see [`Engine::last_control_count`]).
    /// The packets' links are recorded only with the per-step series or the
    /// invariant checks on (the page draws them; a sweep does not need
    /// them), and not in a step the caller turned them off for
    /// ([`Engine::set_record_links`]).
    pub fn last_links(&self) -> &[u32] {
        &self.last_links
    }
    /// How many of [`Engine::last_links`] (the first ones) carried a control
    /// message rather than a packet.
    pub fn last_control_count(&self) -> usize {
        self.last_control
    }
    /// The kind of each control message of the last step, in the order of
    /// the first [`Engine::last_control_count`] entries of [`Engine::last_links`].
    pub fn last_control_kinds(&self) -> &[ControlKind] {
        &self.last_control_kinds
    }
    /// Step in which each packet was delivered (`u32::MAX` if not yet).
    pub fn delivery_steps(&self) -> &[u32] {
        &self.delivered_at
    }
    /// What has been recorded so far.
    pub fn stats(&self) -> &Stats {
        &self.stats
    }
}
