//! Cut-through worms (SPEC §5 `--flits F`; Kaufmann–Sibeyn §2, §5.1.2
//! Lemmas 4–6, §7.2, §8.2): every packet is a worm of F flits. The engine
//! moves the head (the packet) exactly as in store-and-forward; the other
//! F − 1 flits follow it, each over every link of the head's path, and
//! hold the link meanwhile. The rules, in simulated steps:
//!
//! 1. When a head crosses directed link e in step t (a contest win, or a
//!    scripted move), e is *reserved* for steps t + 1 … t + F − 1, in
//!    which flit j (j = 1 … F − 1) crosses e in step t + j. Nothing else
//!    uses e meanwhile: not another worm's head, not a control message,
//!    not a scripted move (the reservation is a contest no bid can win,
//!    entered before the algorithm's `before_step`, so `send_control` and
//!    `force_move` find the link taken).
//! 2. So a head may win e in step t only if e is free in step t: a second
//!    worm that wants e right after the first crosses it exactly F steps
//!    later.
//! 3. Flit j crosses each link of the head's path exactly j steps after
//!    the head did. When the head waits, its flits keep coming and gather
//!    (collapse) at the head's node; a worm is never cut: at the end of
//!    every step flit j + 1 is where flit j was one step before, at the
//!    same node or one link behind along the path.
//! 4. A packet is *delivered* when its head arrives (SPEC §1 counts its
//!    step in `delivered` and the latency histogram); its last flit
//!    arrives F − 1 steps later. The run is over when every worm's last
//!    flit has arrived: the engine keeps stepping (links stay reserved,
//!    the flits' crossings are simulated moves) and `steps` is the step in
//!    which the last flit arrived ([`super::Stats::last_flit`]).
//! 5. Queues count worms by their heads (a node's working queue holds the
//!    worms whose head is there); packet hops are head hops. Bounded
//!    queues are refused together with `--flits` (a flit buffer model is
//!    not SPEC §1's), see [`crate::request::RunSpec::validate`].
//! 6. What algorithms see is the heads: a head at its target counts as
//!    arrived there (`unsettled`), so a phase barrier opens when every
//!    head has reached its phase's target, while trailing flits keep
//!    their links; once every head is delivered the algorithm is no
//!    longer asked (`before_step`) and only the flits move.
//!
//! F = 1 is store-and-forward: no link is ever reserved and the step is
//! exactly the one without this module (the commit records crossings only
//! in its full variant, chosen only when F > 1).
//!
//! # Memory
//! Nothing per packet: the engine keeps the *live crossings*, one
//! [`Crossing`] (12 bytes) per head crossing whose link some flit has yet
//! to cross, in step order. A link is reserved F steps after each
//! crossing, so it appears at most once: at most one entry per directed
//! link, whatever F. A worm's flits are found from its live crossings and
//! its head's position ([`Engine::worm_trail`]).

use super::Engine;
use crate::error::{Error, Result};
use crate::topology::Network;

/// A head's crossing of a link whose reservation is still live.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Crossing {
    /// The step in which the head crossed.
    pub(super) step: u32,
    /// The directed link (`node * ports + port`).
    pub(super) link: u32,
    /// The worm (packet id).
    pub(super) packet: u32,
}

/// The largest number of flits per worm a run may ask for (the live
/// crossings need no memory per flit, but a step costs O(links reserved)).
pub const MAX_FLITS: u32 = 1024;

impl Engine {
    /// Flits per worm (1: store-and-forward).
    pub fn flits(&self) -> u32 {
        self.config.flits
    }

    /// Whether some worm's flits are still crossing links (which they hold
    /// until the last flit has crossed: rule 1); never with F = 1.
    pub fn worms_crossing(&self) -> bool {
        !self.crossings.is_empty()
    }

    /// Every packet delivered and every flit arrived (with F = 1 the same
    /// as [`Engine::finished`]).
    pub fn drained(&self) -> bool {
        self.in_flight == 0 && self.crossings.is_empty()
    }

    /// At the end of a step: forgets the crossings whose last flit crossed
    /// in it and reserves the links of the others for the next step (rule
    /// 1), after the step's contests were retired and before the
    /// algorithm's `before_step` may reserve links. Returns nothing; the
    /// number of flits that will move is `crossings.len()`.
    pub(super) fn reserve_flit_links(&mut self) {
        let last = self.step.saturating_sub(self.config.flits - 1);
        while self.crossings.front().is_some_and(|c| c.step <= last) {
            self.crossings.pop_front();
        }
        for k in 0..self.crossings.len() {
            let lid = self.crossings[k].link;
            let free = self.reserve_link(lid);
            debug_assert!(free, "link {lid} reserved twice for flits");
        }
    }

    /// The nodes worm `p` occupies at the end of the last step, from its
    /// head back to its tail, each node once: the head's node, then the
    /// start of each link some flit has yet to cross, latest first. Just
    /// the head's node when every flit is there (always with F = 1).
    pub fn worm_trail(&self, p: u32) -> Vec<u32> {
        let mine: Vec<Crossing> = self.crossings.iter().filter(|c| c.packet == p).copied().collect();
        self.trail_of(p, &mine)
    }

    /// The node of each flit of worm `p` at the end of the last step,
    /// head (flit 0) first: flit j is at the end of the last link of the
    /// head's path that the head crossed in step `step − j` or before.
    pub fn flit_positions(&self, p: u32) -> Vec<u32> {
        let mine: Vec<Crossing> = self.crossings.iter().filter(|c| c.packet == p).copied().collect();
        let trail = self.trail_of(p, &mine);
        self.flit_places(&mine).into_iter().map(|i| trail[i]).collect()
    }

    /// Every worm stretched over more than one node, for drawing: per
    /// worm `p, n` and then its `n` nodes as [`Engine::worm_trail`] lists
    /// them (n ≥ 2), worms in id order. Empty with F = 1.
    pub fn worm_trails(&self) -> Vec<u32> {
        let mut out = Vec::new();
        for mine in self.crossings_by_worm().chunk_by(|a, b| a.packet == b.packet) {
            let p = mine[0].packet;
            let trail = self.trail_of(p, mine);
            out.push(p);
            out.push(trail.len() as u32);
            out.extend(trail);
        }
        out
    }

    /// The live crossings by worm, then by step.
    fn crossings_by_worm(&self) -> Vec<Crossing> {
        let mut all: Vec<Crossing> = self.crossings.iter().copied().collect();
        all.sort_unstable_by_key(|c| (c.packet, c.step));
        all
    }

    /// [`Engine::worm_trail`] of `p` from its live crossings `mine`, in step order.
    fn trail_of(&self, p: u32, mine: &[Crossing]) -> Vec<u32> {
        let ports = self.topo.ports();
        std::iter::once(self.position(p))
            .chain(mine.iter().rev().map(|c| c.link / ports))
            .collect()
    }

    /// The place of each flit of a worm along its trail (0: the head's
    /// node), head first, from its live crossings `mine` in step order: of
    /// those m crossings, flit j has made the ones of step `step − j` or
    /// before, a prefix.
    fn flit_places(&self, mine: &[Crossing]) -> Vec<usize> {
        let mut made = mine.len();
        (0..self.config.flits)
            .map(|j| {
                while made > 0 && mine[made - 1].step + j > self.step {
                    made -= 1;
                }
                mine.len() - made
            })
            .collect()
    }

    /// The invariant checks of worms (after a step): the live crossings
    /// are in step order, within the last F − 1 steps, one per link; each
    /// worm's crossings form its path up to its head, one per step at
    /// most; its F flits lie along that path in order, each at the node
    /// of the one before or one link behind it (never cut, none ahead of
    /// the head). That no link carries two messages in a step — a head
    /// and another worm's flit included — is the check of the step's links.
    pub(super) fn check_worms(&self) {
        let f = self.config.flits;
        if f == 1 {
            assert!(self.crossings.is_empty(), "crossings kept without worms");
            return;
        }
        let ports = self.topo.ports();
        let mut links: Vec<u32> = self.crossings.iter().map(|c| c.link).collect();
        links.sort_unstable();
        let before = links.len();
        links.dedup();
        assert_eq!(
            before,
            links.len(),
            "a link reserved twice for flits in step {}",
            self.step
        );
        for (a, b) in self.crossings.iter().zip(self.crossings.iter().skip(1)) {
            assert!(a.step <= b.step, "crossings out of step order");
        }
        let end = |link: u32| self.topo.neighbor(link / ports, link % ports);
        for mine in self.crossings_by_worm().chunk_by(|a, b| a.packet == b.packet) {
            let p = mine[0].packet;
            for c in mine {
                assert!(
                    c.step <= self.step && c.step + f - 1 > self.step,
                    "worm {p}: crossing of step {} is not live in step {}",
                    c.step,
                    self.step
                );
            }
            for pair in mine.windows(2) {
                let (a, b) = (pair[0], pair[1]);
                assert!(a.step < b.step, "worm {p}: two head crossings in step {}", a.step);
                assert_eq!(
                    end(a.link),
                    Some(b.link / ports),
                    "worm {p} is cut between links {} and {}",
                    a.link,
                    b.link
                );
            }
            let last = mine[mine.len() - 1];
            assert_eq!(
                end(last.link),
                Some(self.position(p)),
                "worm {p}: its head is not at the end of its last link"
            );
            let places = self.flit_places(mine);
            assert_eq!(places.len(), f as usize);
            assert_eq!(places[0], 0, "worm {p}: flit 0 is not at its head");
            for (j, pair) in places.windows(2).enumerate() {
                assert!(
                    pair[1] == pair[0] || pair[1] == pair[0] + 1,
                    "worm {p}: flit {} is cut off from flit {j} (or ahead of it)",
                    j + 1
                );
            }
        }
    }
}

/// Refuses a number of flits out of range, or worms with bounded queues
/// (the engine counts worms by their heads, SPEC §1's queues hold packets;
/// this module).
pub fn check_flits(flits: u32, queue_cap: Option<u32>) -> Result<()> {
    if !(1..=MAX_FLITS).contains(&flits) {
        return Err(Error::invalid(
            "flits",
            flits,
            format!("expected a whole number from 1 to {MAX_FLITS}"),
        ));
    }
    if flits > 1 {
        if let Some(q) = queue_cap {
            return Err(Error::invalid(
                "flits",
                flits,
                format!(
                    "cut-through worms cannot be combined with bounded queues (queue-cap {q}): queues count worms by their heads; drop --queue-cap or use --flits 1"
                ),
            ));
        }
    }
    Ok(())
}
