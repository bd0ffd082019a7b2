//! The hop schedules of the ranking schemes (the module doc of
//! [`super`]): which counter crosses which directed link in which step, and
//! which values each hop adds up.

use super::{Hop, NONE};
use crate::primitives::geometry::Mesh;

/// Collects hops with times; builds the schemes of the module doc.
pub(super) struct Builder {
    pub(super) mesh: Mesh,
    pub(super) hops: Vec<Hop>,
}

impl Builder {
    fn hop(
        &mut self,
        t: u32,
        from: (u32, u32),
        to: (u32, u32),
        inputs: &[Option<u32>],
        own: bool,
        absorb: bool,
    ) -> u32 {
        let (from, to) = (self.mesh.node(from.0, from.1), self.mesh.node(to.0, to.1));
        let mut ins = [NONE; 4];
        for (slot, g) in ins.iter_mut().zip(inputs.iter().flatten()) {
            *slot = *g;
        }
        assert!(inputs.iter().flatten().count() <= 4);
        self.hops.push(Hop {
            t,
            from,
            to,
            port: self.mesh.port(from, to) as u8,
            own,
            absorb,
            inputs: ins,
            acc: false,
            keep: false,
        });
        self.hops.len() as u32 - 1
    }

    /// The row-major scheme of the proof of Theorem 5 on the h×w rectangle
    /// with top-left corner (r0, c0), counter 0 entering row r in step o + r + 1.
    /// Returns the hops arriving at the bottom-right corner from the west and
    /// from the north (in step o + h + w − 2), which bring it the count of
    /// everything before it.
    pub(super) fn rows(&mut self, (r0, c0): (u32, u32), (h, w): (u32, u32), o: u32) -> (Option<u32>, Option<u32>) {
        let last = w - 1;
        let mut east = vec![None; h as usize]; // hop into (r, last) from the west
        for r in 0..h {
            let mut prev = None;
            for c in 1..w {
                prev = Some(self.hop(o + r + c, (r0 + r, c0 + c - 1), (r0 + r, c0 + c), &[prev], true, true));
            }
            east[r as usize] = prev;
        }
        let mut south = vec![None; h as usize]; // hop into (r, last) from the north
        for r in 1..h {
            let (a, b) = ((r0 + r - 1, c0 + last), (r0 + r, c0 + last));
            let inputs = [south[r as usize - 1], east[r as usize - 1]];
            south[r as usize] = Some(self.hop(o + r + last, a, b, &inputs, true, true));
        }
        for r in 1..h {
            let mut prev = south[r as usize];
            for c in (0..last).rev() {
                let t = o + r + 2 * last - c;
                prev = Some(self.hop(t, (r0 + r, c0 + c + 1), (r0 + r, c0 + c), &[prev], false, true));
            }
        }
        (east[h as usize - 1], south[h as usize - 1])
    }

    /// A value received by (r, c) from its hop `from_hop` in step t, stored by
    /// every node of the column above it on the way north (first hop in step
    /// t + wait + 1, wait ≤ 1).
    fn north(&mut self, (r0, r): (u32, u32), c: u32, from_hop: u32, t: u32) {
        let mut prev = from_hop;
        for (n, rr) in (r0..r).rev().enumerate() {
            prev = self.hop(t + 1 + n as u32, (rr + 1, c), (rr, c), &[Some(prev)], false, true);
        }
    }

    /// Stripes of h rows (module doc, "Stripes"), `period` 1.
    pub(super) fn stripes(&mut self, h: u32) {
        let side = self.mesh.side();
        let last = side - 1;
        for r0 in (0..side).step_by(h as usize) {
            let (e_in, s_in) = self.rows((r0, 0), (h, side), 0);
            // The corner (h − 1, last) has the stripe's count of group i in
            // step h − 1 + last + i; it sends the total of the groups before
            // i north in the next step and keeps it for its own items.
            let t = h + last;
            let corner = (r0 + h - 1, last);
            let mut prev = self.hop(t, corner, (r0 + h - 2, last), &[e_in, s_in], true, true);
            let hop = self.hops.last_mut().expect("hop");
            hop.acc = true;
            hop.keep = true;
            for r in (0..h - 2).rev() {
                let tr = t + (h - 2 - r);
                prev = self.hop(tr, (r0 + r + 1, last), (r0 + r, last), &[Some(prev)], false, true);
            }
            // West along the stripe's first row, and down every column.
            let t0 = t + h - 1;
            for c in (0..last).rev() {
                let tc = t0 + (last - 1 - c);
                prev = self.hop(tc, (r0, c + 1), (r0, c), &[Some(prev)], false, true);
                let mut down = prev;
                for r in 1..h {
                    down = self.hop(tc + r, (r0 + r - 1, c), (r0 + r, c), &[Some(down)], false, true);
                }
            }
        }
    }

    /// Blocks of side u, 1 < u < side (module doc), `period` 2.
    pub(super) fn blocks(&mut self, u: u32) {
        let side = self.mesh.side();
        let nb = side / u;
        let last = side - 1;
        let mut north_in: Option<u32> = None; // south relay into this stripe's last corner
        for j in 0..nb {
            let r0 = j * u;
            let bottom = r0 + u - 1;
            let mut relay_in: Option<u32> = None; // east relay into this block's corner
            let mut next_north = None;
            for b in 0..nb {
                let c0 = b * u;
                // Block (j, b) starts in step o + 1; stripes are u steps apart,
                // blocks u apart, so the relays meet the corners' totals.
                let o = j * u + b * u;
                let (e_in, s_in) = self.rows((r0, c0), (u, u), o);
                let corner = (bottom, c0 + u - 1);
                // The corner's own totals arrive in step o + 2u − 2, the relay
                // in o + 2u − 1; it sends in o + 2u.
                let t = o + 2 * u;
                if b + 1 < nb {
                    let mut prev = self.hop(t, corner, (bottom, c0 + u), &[relay_in, e_in, s_in], true, true);
                    self.north((r0, bottom), c0 + u, prev, t);
                    for c in 1..u {
                        let (a, x) = ((bottom, c0 + u + c - 1), (bottom, c0 + u + c));
                        prev = self.hop(t + c, a, x, &[Some(prev)], false, true);
                        self.north((r0, bottom), c0 + u + c, prev, t + c);
                    }
                    relay_in = Some(prev);
                    continue;
                }
                if j + 1 < nb {
                    let inputs = [north_in, relay_in, e_in, s_in];
                    let mut prev = self.hop(t, corner, (bottom + 1, last), &inputs, true, true);
                    for r in 1..u {
                        prev = self.hop(
                            t + r,
                            (bottom + r, last),
                            (bottom + r + 1, last),
                            &[Some(prev)],
                            false,
                            true,
                        );
                    }
                    next_north = Some(prev);
                }
                if let Some(above) = north_in {
                    // The west relay; the values go north one step after they
                    // arrive (the east relay's use the other parity).
                    let mut prev = above;
                    for x in (0..last).rev() {
                        let tx = t + last - 1 - x;
                        prev = self.hop(tx, (bottom, x + 1), (bottom, x), &[Some(prev)], false, true);
                        self.north((r0, bottom), x, prev, tx + 1);
                    }
                }
            }
            north_in = next_north;
        }
    }
}
