//! The most packets that crossed one directed link in each phase of a run,
//! counted from the simulated moves (Kaufmann–Sibeyn's Lemma 27 counts the
//! packets over one connection in LocalRoute's phase 2): after every step,
//! each packet whose node changed crossed the link from its old node to
//! its new one (one hop per step), in the phase open during that step.
//!
//! # Complexity
//! O(packets) per step; O(links used in the phase) memory.

use crate::engine::Engine;
use std::collections::HashMap;

/// Per-phase link loads of one run.
#[derive(Debug, Clone, Default)]
pub(crate) struct LinkLoads {
    /// Every packet's node after the last step seen.
    at: Vec<u32>,
    /// The phase (index in the report) the counts below are for.
    phase: usize,
    /// Packets over each directed link (from, to) in that phase.
    counts: HashMap<(u32, u32), u32>,
    /// The most over one link, per phase so far.
    most: Vec<u32>,
}

impl LinkLoads {
    /// Starts counting: the packets are where the engine has them.
    pub(crate) fn start(engine: &Engine) -> LinkLoads {
        LinkLoads {
            at: (0..engine.packet_count()).map(|p| engine.position(p)).collect(),
            ..LinkLoads::default()
        }
    }

    /// Counts the moves of the step just simulated.
    pub(crate) fn after_step(&mut self, engine: &Engine) {
        let phase = engine.stats().phase_count().saturating_sub(1);
        if phase != self.phase {
            self.counts.clear();
            self.phase = phase;
        }
        if self.most.len() <= phase {
            self.most.resize(phase + 1, 0);
        }
        for (p, at) in self.at.iter_mut().enumerate() {
            let now = engine.position(p as u32);
            if now != *at {
                let count = self.counts.entry((*at, now)).or_insert(0);
                *count += 1;
                self.most[phase] = self.most[phase].max(*count);
                *at = now;
            }
        }
    }

    /// The most packets over one directed link in each phase of the report
    /// that has taken a step so far, in order.
    pub(crate) fn most(&self) -> Vec<u32> {
        self.most.clone()
    }
}
