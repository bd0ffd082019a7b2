//! What a clone of a [`Scheduler`] copies: the page's timeline counts it
//! to keep its checkpoints within their budget ([`crate::timeline`]).

use super::{Problem, Scheduler};
use std::mem::size_of_val;

/// The heap bytes of a vector's room.
fn room<T>(v: &Vec<T>) -> usize {
    v.capacity() * std::mem::size_of::<T>()
}

impl Problem {
    /// The bytes a clone copies: its per-packet columns (the network and
    /// the paths are shared).
    fn copy_bytes(&self) -> usize {
        room(&self.ids) + room(&self.rank) + room(&self.dest) + room(&self.stages)
    }
}

impl Scheduler {
    /// The heap bytes a clone copies, about: every column of its own and
    /// the problem's per-packet ones (not the shared network and paths).
    pub fn copy_bytes(&self) -> usize {
        let out: usize = self.out.iter().map(room).sum::<usize>() + room(&self.out);
        self.p.copy_bytes()
            + size_of_val(self)
            + room(&self.absorbed)
            + room(&self.last_packet)
            + room(&self.hop)
            + room(&self.init_start)
            + room(&self.init)
            + room(&self.init_head)
            + room(&self.queue)
            + room(&self.queue_head)
            + room(&self.queue_len)
            + room(&self.done)
            + room(&self.finished)
            + room(&self.eos_sent)
            + room(&self.ghosts_last_step)
            + room(&self.ctrl_held)
            + room(&self.held_at)
            + room(&self.closed)
            + room(&self.behind)
            + out
            + room(&self.last_sent)
            + room(&self.last_selected)
            + room(&self.pops)
            + room(&self.sends)
    }
}
