//! The good-to-good phase's logical network (Leighton–Maggs–Ranade–Rao
//! §5.2, §5.3): a chain of six *parts* on the good labels —
//!
//! 0. **around**: along the packet's own necklace to level 0 (the paper's
//!    L), by unshuffles (rotr): level ℓ ≥ 1 of a necklace is on local
//!    level D − 1 − ℓ, level 0 on D − 1;
//! 1. **up**: network A, levels 0 → D − 1 of the frames: every level is two
//!    logical levels, a shuffle to a *mid* node hosted by rotl(x) and then,
//!    on that host, a wait (internal) or the exchange that completes a
//!    flip edge ([`Labels::flip`]);
//! 2. **down**: A reversed, levels D − 1 → 0: from level ℓ + 1 a wait or
//!    the exchange (the flip reversed) to a mid node, then an unshuffle to
//!    level ℓ;
//! 3. **up** and 4. **down** again: the second leg;
//! 5. **along**: from level 0 of the destination's necklace by shuffles to
//!    the destination's level (the second L).
//!
//! A [`Leg`] goes up from frame `from` to frame `top` and down to frame
//! `to`, correcting one bit per level: up, position p + 1 is set to
//! `top`'s bit on the way from level p to p + 1; down, to `to`'s bit on
//! the way from p + 1 to p. The paper's legs (§5.3) correct on the way up
//! (top = to) when the target's longest run is at least as long, else on
//! the way down (top = from); the planner checks that every label on the
//! way is a good representative ([`Labels::corrects`]) and draws another
//! intermediate when not (`super::Plan`).
//!
//! The end of each part is the start of the next (the same logical node).
//! A round routes a run of consecutive parts; each part uses every
//! directed link at most once, so parts whose link classes (shuffle,
//! exchange, unshuffle) are disjoint share a substep and the others get
//! their own ([`Chain::new`]).

use super::labels::Labels;
use crate::algorithms::lmrr::leveled::{Description, OutEdge, NONE};
use crate::topology::Network;
use std::sync::Arc;

// The shuffle-exchange's ports (SPEC §2 numbering, `topology::shuffle_exchange`).
const EXCHANGE: u32 = 0;
const SHUFFLE: u32 = 1;
const UNSHUFFLE: u32 = 2;

/// A part of the chain.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// To level 0 of the packet's own necklace, by unshuffles.
    Around,
    /// Network A, upwards.
    Up,
    /// A reversed, downwards.
    Down,
    /// From level 0 to the destination's level, by shuffles.
    Along,
}

/// The whole chain, in order.
pub const CHAIN: [Part; 6] = [Part::Around, Part::Up, Part::Down, Part::Up, Part::Down, Part::Along];

/// Logical node kinds: a necklace node, or the mid node of a level of A.
pub const NODE: u32 = 0;
/// See [`NODE`].
pub const MID: u32 = 1;

/// Logical levels each part spans (its depth).
fn depth(dim: u32, part: Part) -> u32 {
    match part {
        Part::Around | Part::Along => dim - 1,
        Part::Up | Part::Down => 2 * (dim - 1),
    }
}

/// The level, in the whole chain, where part `k` of [`CHAIN`] starts.
pub fn offset(dim: u32, k: usize) -> u32 {
    CHAIN[..k].iter().map(|&p| depth(dim, p)).sum()
}

/// The link classes a part uses (as ports; with D = 2 the unshuffle is
/// the shuffle link, rotr = rotl).
fn classes(dim: u32, part: Part) -> &'static [u32] {
    match (part, dim) {
        (Part::Around, 2) => &[SHUFFLE],
        (Part::Around, _) => &[UNSHUFFLE],
        (Part::Up, _) => &[SHUFFLE, EXCHANGE],
        (Part::Down, 2) => &[EXCHANGE, SHUFFLE],
        (Part::Down, _) => &[EXCHANGE, UNSHUFFLE],
        (Part::Along, _) => &[SHUFFLE],
    }
}

/// Parts `first..first + len` of the chain as one leveled network.
#[derive(Debug, Clone)]
pub struct Chain {
    labels: Arc<Labels>,
    first: usize,
    parts: Vec<Part>,
    colour: Vec<u8>,
    substeps: u8,
    n: u32,
}

impl Chain {
    /// Parts `range` of [`CHAIN`]; each part's substep is the least not
    /// taken by an earlier part of the round that uses a link class it uses.
    pub fn new(labels: Arc<Labels>, range: std::ops::Range<usize>) -> Chain {
        let dim = labels.dim;
        let parts = CHAIN[range.clone()].to_vec();
        let mut colour: Vec<u8> = Vec::new();
        for (i, &p) in parts.iter().enumerate() {
            let taken: Vec<u8> = (0..i)
                .filter(|&j| classes(dim, parts[j]).iter().any(|c| classes(dim, p).contains(c)))
                .map(|j| colour[j])
                .collect();
            colour.push((0..).find(|c| !taken.contains(c)).expect("a free colour"));
        }
        let substeps = colour.iter().max().map_or(1, |&c| c + 1);
        let n = labels.g.nodes();
        Chain {
            labels,
            first: range.start,
            parts,
            colour,
            substeps,
            n,
        }
    }

    /// The logical id of `host` as a node of `kind` in part `k` of the
    /// whole chain; part `first + len` (the next round's first part) names
    /// the end of this round's last part.
    pub fn id(&self, k: usize, kind: u32, host: u32) -> u32 {
        let i = (k - self.first).min(self.parts.len() - 1) as u32;
        (2 * i + kind) * self.n + host
    }

    fn end(&self, i: usize, host: u32) -> u32 {
        let i = (i + 1).min(self.parts.len() - 1) as u32;
        2 * i * self.n + host
    }

    fn local(&self, i: usize, kind: u32, host: u32) -> u32 {
        (2 * i as u32 + kind) * self.n + host
    }

    /// The local level of (part `i`, `kind`, `x`), `None` where there is
    /// no such node (a bad label, a part's end that is the next part's
    /// start, a mid node on level 0).
    fn local_level(&self, i: usize, kind: u32, x: u32) -> Option<u32> {
        let labels = &self.labels;
        if !labels.good(x) {
            return None;
        }
        let (d, f) = (labels.dim, labels.level(x));
        let last = i + 1 == self.parts.len();
        match (self.parts[i], kind) {
            (Part::Around, NODE) if f == 0 => last.then_some(d - 1),
            (Part::Around, NODE) => Some(d - 1 - f),
            (Part::Up, NODE) => (f < d - 1 || last).then_some(2 * f),
            (Part::Down, NODE) => (f > 0 || last).then_some(2 * (d - 1 - f)),
            (Part::Up | Part::Down, _) if f == 0 => None,
            (Part::Up, _) => Some(2 * f - 1),
            (Part::Down, _) => Some(2 * (d - 1 - f) + 1),
            (Part::Along, NODE) => Some(f),
            (Part::Around | Part::Along, _) => None,
        }
    }
}

impl Description for Chain {
    fn count(&self) -> u32 {
        2 * self.parts.len() as u32 * self.n
    }
    fn level(&self, v: u32) -> u32 {
        let (i, kind, x) = ((v / self.n / 2) as usize, (v / self.n) % 2, v % self.n);
        match self.local_level(i, kind, x) {
            Some(l) => offset(self.labels.dim, self.first + i) + l,
            None => NONE,
        }
    }
    fn host(&self, v: u32) -> u32 {
        v % self.n
    }
    fn out_edges(&self, v: u32, out: &mut Vec<OutEdge>) {
        let (i, kind, x) = ((v / self.n / 2) as usize, (v / self.n) % 2, v % self.n);
        if self.local_level(i, kind, x).is_none() {
            return;
        }
        let labels = &self.labels;
        let (g, d, f) = (&labels.g, labels.dim, labels.level(x));
        let substep = self.colour[i];
        let mut push = |head: u32, port: u32| out.push(OutEdge { head, port, substep });
        // The unshuffle's port (the shuffle link where rotr = rotl, D = 2).
        let unshuffle = if d == 2 { SHUFFLE } else { UNSHUFFLE };
        match (self.parts[i], kind) {
            (Part::Around, _) if f > 0 => {
                let y = g.rotr(x);
                let head = if f == 1 { self.end(i, y) } else { self.local(i, NODE, y) };
                push(head, unshuffle);
            }
            (Part::Up, NODE) if f < d - 1 => push(self.local(i, MID, g.rotl(x)), SHUFFLE),
            (Part::Up, MID) => {
                let at = |y: u32| {
                    if f == d - 1 {
                        self.end(i, y)
                    } else {
                        self.local(i, NODE, y)
                    }
                };
                push(at(x), NONE);
                if labels.flip(x) {
                    push(at(x ^ 1), EXCHANGE);
                }
            }
            (Part::Down, NODE) if f > 0 => {
                push(self.local(i, MID, x), NONE);
                if labels.flip(x ^ 1) {
                    push(self.local(i, MID, x ^ 1), EXCHANGE);
                }
            }
            (Part::Down, MID) => {
                let y = g.rotr(x);
                let head = if f == 1 { self.end(i, y) } else { self.local(i, NODE, y) };
                push(head, unshuffle);
            }
            (Part::Along, NODE) if f < d - 1 => push(self.local(i, NODE, g.rotl(x)), SHUFFLE),
            _ => {}
        }
    }
    fn substeps(&self) -> u8 {
        self.substeps
    }
}

/// One leg of the chain: up A from frame `from` to frame `top`, down A
/// reversed to frame `to`. Up, the label on level p is `top` on positions
/// 0..=p and `from` after; down, `top` on 0..=p and `to` after
/// (`Labels::corrects(from, top)` and `corrects(to, top)` must hold).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Leg {
    /// The frame it starts from (level 0).
    pub from: u32,
    /// The frame at the top (level D − 1).
    pub top: u32,
    /// The frame it ends at (level 0).
    pub to: u32,
}

/// The path through the whole chain of a packet from good label `s` to
/// good label `dest` by `legs` (the first from s's frame, the second to
/// dest's), as (part, kind, host); the first node of each part is the end
/// of the one before.
pub fn path(labels: &Labels, s: u32, dest: u32, legs: [Leg; 2], out: &mut Vec<(usize, u32, u32)>) {
    let (g, d) = (&labels.g, labels.dim);
    let mut x = s;
    while labels.level(x) != 0 {
        out.push((0, NODE, x));
        x = g.rotr(x);
    }
    let mut k = 1;
    // On level p: `hi` on positions 0..=p, `lo` after.
    let frame = |p: u32, hi: u32, lo: u32| (hi & labels.top(p + 1)) | (lo & !labels.top(p + 1));
    for leg in legs {
        let Leg { from, top, to } = leg;
        out.push((k, NODE, labels.node(from, 0)));
        for p in 0..d - 1 {
            out.push((k, MID, g.rotl_by(frame(p, top, from), (p + 2) % d)));
            if p + 2 < d {
                out.push((k, NODE, labels.node(frame(p + 1, top, from), p + 1)));
            }
        }
        k += 1;
        out.push((k, NODE, top));
        for p in (0..d - 1).rev() {
            out.push((k, MID, g.rotl_by(frame(p, top, to), (p + 2) % d)));
            if p > 0 {
                out.push((k, NODE, labels.node(frame(p, top, to), p)));
            }
        }
        k += 1;
    }
    let mut x = labels.node(legs[1].to, 0);
    out.push((5, NODE, x));
    while x != dest {
        x = g.rotl(x);
        out.push((5, NODE, x));
    }
}
