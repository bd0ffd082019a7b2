//! What the sorting families (`bitonic`, `snake-sort`; SPEC §5 "Sorting")
//! share: a sort run as one task of the primitives' compare-exchange
//! machinery ([`SortTask`], or [`WalkTask`] where packets walk between
//! compare-exchanges), with packets that move only by it and are delivered
//! when its schedule is over.
//!
//! [`SortTask`]: crate::primitives::sort::SortTask
//! [`WalkTask`]: crate::primitives::sort_walk::WalkTask

use crate::engine::Engine;
use crate::error::{Error, Result};
use crate::primitives::sort::deliver_sorted;
use crate::primitives::Task;
use crate::workload::Instance;

/// A sort in progress on the engine.
#[derive(Clone, Default)]
pub struct KeySort {
    sort: Option<Box<dyn Task>>,
    done: bool,
}

impl KeySort {
    /// Starts the sort of `instance`'s keys (refused, named by `algorithm`,
    /// when it is not a sorting instance) in phase `phase`: the packets
    /// pass through their destinations and move only by the task that
    /// `task` builds from the (packet, key) items.
    pub fn start(
        &mut self,
        algorithm: &'static str,
        phase: &'static str,
        instance: &Instance,
        engine: &mut Engine,
        task: impl FnOnce(&mut Engine, &[(u32, u64)]) -> Box<dyn Task>,
    ) -> Result<()> {
        let keys = instance
            .keys
            .as_ref()
            .ok_or_else(|| Error::unsupported(algorithm, "needs a sorting instance (keys)"))?;
        engine.set_deliver_on_arrival(false);
        for p in engine.active() {
            engine.set_eligible(p, false);
        }
        engine.begin_phase(phase);
        let items: Vec<(u32, u64)> = (0..keys.len() as u32).map(|p| (p, keys[p as usize])).collect();
        self.sort = Some(task(engine, &items));
        Ok(())
    }

    /// One step of the schedule; once it is over, every packet at its
    /// rank's node is delivered (in the schedule's last step).
    pub fn before_step(&mut self, engine: &mut Engine) {
        if self.done {
            return;
        }
        if let Some(sort) = self.sort.as_mut() {
            if sort.poll(engine) {
                return;
            }
        }
        self.done = true;
        self.sort = None;
        deliver_sorted(engine);
    }
}
