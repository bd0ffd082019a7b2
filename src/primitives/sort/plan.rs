//! A round's layout as links and its packet moves: which pairs of a
//! round swap (decided once its keys have crossed, on the keys' ranks),
//! and the step's scripted moves handed to the engine in one call.

use super::SortTask;
use crate::engine::Engine;

/// One round: its kind and, pair by pair, the links (ids `node · ports +
/// port`) from the first node to the second and back — those the pair's
/// keys and packets cross. Laid out once, handed to the engine whole.
#[derive(Clone, Default)]
pub(super) struct Round {
    pub(super) exchange: bool,
    pub(super) links: Vec<u32>,
}

impl SortTask {
    /// The node and port of link `lid`.
    #[inline]
    fn split(&self, lid: u32) -> (u32, u32) {
        if self.ports == 4 {
            (lid >> 2, lid & 3)
        } else {
            (lid / self.ports, lid % self.ports)
        }
    }

    /// Decides the packet moves of round `round` (bookkeeping of the slots
    /// follows at once; the packets cross in the following c steps).
    pub(super) fn plan_moves(&mut self, round: &Round) {
        let cu = self.c as usize;
        self.moves.clear();
        self.scripted.clear();
        self.starts.clear();
        self.starts.push(0);
        let none = (self.packets.len() - 1) as u32;
        if cu == 1 {
            for pair in round.links.chunks_exact(2) {
                let ((a, pab), (b, pba)) = (self.split(pair[0]), self.split(pair[1]));
                let (a, b) = (self.slot_of(a), self.slot_of(b));
                let (x, y) = (self.slots[a], self.slots[b]);
                if round.exchange || x > y {
                    if x != none {
                        self.scripted.push((self.packets[x as usize], pab));
                    }
                    if y != none {
                        self.scripted.push((self.packets[y as usize], pba));
                    }
                    self.slots.swap(a, b);
                }
            }
            self.starts.push(self.scripted.len());
            return;
        }
        let mut merged: Vec<u32> = Vec::with_capacity(2 * cu);
        let packet = |rank: u32| self.packets[rank as usize];
        let (mut out_a, mut out_b): (Vec<u32>, Vec<u32>) = (Vec::new(), Vec::new());
        for pair in round.links.chunks_exact(2) {
            let (a, b) = (self.slot_of(self.split(pair[0]).0), self.slot_of(self.split(pair[1]).0));
            let (sa, sb) = (a * cu, b * cu);
            if round.exchange {
                for s in 0..cu {
                    let (x, y) = (self.slots[sa + s], self.slots[sb + s]);
                    self.moves.push((packet(x), packet(y)));
                    self.slots.swap(sa + s, sb + s);
                }
                continue;
            }
            merged.clear();
            merged.extend_from_slice(&self.slots[sa..sa + cu]);
            merged.extend_from_slice(&self.slots[sb..sb + cu]);
            merged.sort_unstable();
            // Packets leaving a: a's items now in b's half; leaving b: b's items in a's half.
            let (low, high) = (&merged[..cu], &merged[cu..]);
            out_a.clear();
            out_b.clear();
            for &x in &self.slots[sa..sa + cu] {
                if x != none && high.binary_search(&x).is_ok() {
                    out_a.push(packet(x));
                }
            }
            for &y in &self.slots[sb..sb + cu] {
                if y != none && low.binary_search(&y).is_ok() {
                    out_b.push(packet(y));
                }
            }
            for s in 0..cu {
                self.moves
                    .push((*out_a.get(s).unwrap_or(&u32::MAX), *out_b.get(s).unwrap_or(&u32::MAX)));
            }
            self.slots[sa..sa + cu].copy_from_slice(low);
            self.slots[sb..sb + cu].copy_from_slice(high);
        }
        for s in 0..cu {
            for (i, pair) in round.links.chunks_exact(2).enumerate() {
                let (pab, pba) = (self.split(pair[0]).1, self.split(pair[1]).1);
                let (x, y) = self.moves[i * cu + s];
                if x != u32::MAX {
                    self.scripted.push((x, pab));
                }
                if y != u32::MAX {
                    self.scripted.push((y, pba));
                }
            }
            self.starts.push(self.scripted.len());
        }
    }

    /// Forces the s-th moves of every pair of the round whose packets
    /// cross (pair by pair, a's packet first), in one call to the engine;
    /// true if any packet moves.
    pub(super) fn force(&self, e: &mut Engine, s: usize) -> bool {
        let moves = &self.scripted[self.starts[s]..self.starts[s + 1]];
        if moves.is_empty() {
            return false;
        }
        let ok = e.force_moves(moves);
        assert!(ok, "sort: link taken twice in a step");
        true
    }
}
