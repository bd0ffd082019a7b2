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
use crate::primitives::Task;
use crate::workload::Instance;

/// A sort in progress on the engine.
#[derive(Clone, Default)]
pub struct KeySort {
    sort: Option<Box<dyn Task>>,
    done: bool,
    /// The schedule's length, in steps.
    steps: u32,
    /// Steps polled so far.
    polled: u32,
}

impl KeySort {
    /// Starts the sort of `instance`'s keys (refused, named by `algorithm`,
    /// when it is not a sorting instance) in phase `phase`: the packets
    /// pass through their destinations and move only by the task that
    /// `task` builds from the (packet, key) items, a schedule of `steps`
    /// steps (its documented length; a debug build checks it).
    pub fn start(
        &mut self,
        algorithm: &'static str,
        phase: &'static str,
        instance: &Instance,
        engine: &mut Engine,
        steps: u32,
        task: impl FnOnce(&mut Engine, &[(u32, u64)]) -> Box<dyn Task>,
    ) -> Result<()> {
        let keys = instance
            .keys
            .as_ref()
            .ok_or_else(|| Error::unsupported(algorithm, "needs a sorting instance (keys)"))?;
        if steps == 0 {
            // One key (D = 0, a 1 × 1 mesh): no round, nothing moves; its
            // packet is where it ends, delivered at step 0 like any packet
            // at its destination (SPEC §1), and the sort takes 0 steps.
            self.done = true;
            engine.deliver_many(&at_home(engine));
            return Ok(());
        }
        engine.set_deliver_on_arrival(false);
        for p in engine.active() {
            engine.set_eligible(p, false);
        }
        engine.begin_phase(phase);
        let items: Vec<(u32, u64)> = (0..keys.len() as u32).map(|p| (p, keys[p as usize])).collect();
        self.sort = Some(task(engine, &items));
        self.steps = steps;
        Ok(())
    }

    /// One step of the schedule. Its packets are delivered in its last
    /// step, so that the run ends there (SPEC §5: a sort's `steps` is the
    /// last step of its schedule): a packet at its rank's node that does not
    /// move in that step is delivered as it opens, and those that move are
    /// delivered on arrival.
    pub fn before_step(&mut self, engine: &mut Engine) {
        if self.done {
            return;
        }
        self.polled += 1;
        let going = self.sort.as_mut().is_some_and(|sort| sort.poll(engine));
        debug_assert_eq!(going, self.polled <= self.steps, "a schedule of {} steps", self.steps);
        if going && self.polled < self.steps {
            return;
        }
        self.done = true;
        self.sort = None;
        engine.set_deliver_on_arrival(true);
        engine.deliver_in_coming_step(&at_home(engine));
    }
}

/// The packets in flight at their destination that no scripted move is
/// taking elsewhere.
fn at_home(engine: &Engine) -> Vec<u32> {
    engine
        .active()
        .into_iter()
        .filter(|&p| engine.position(p) == engine.destination(p) && !engine.is_scripted(p))
        .collect()
}
