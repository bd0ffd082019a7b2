//! The request's memory: its shape for the estimate ([`crate::memory`]) and
//! the check [`RunSpec::build`] makes before anything is generated or
//! allocated.

use super::RunSpec;
use crate::error::Result;
use crate::memory::{self, Estimate, Shape};

impl RunSpec {
    /// The run's shape for the memory estimate: the instance's packets, or
    /// an upper bound of the workload's from its parameters (nothing is
    /// generated); `None` without a network.
    pub fn memory_shape(&self) -> Option<Shape<'_>> {
        let topology = self.topology()?;
        let (packets, sort) = match (&self.instance, self.workload) {
            (Some(instance), _) => (instance.packets.len() as u64, instance.keys.is_some()),
            (None, Some(workload)) => (self.workload_spec(workload).max_packets(topology), workload.is_sort()),
            (None, None) => return None,
        };
        Some(Shape {
            topology,
            packets,
            policy: self.policy,
            edge_queues: self.edge_queues,
            flits: self.options.flits(),
            record_series: self.record_series,
            sort,
            loaded: self.instance.is_some(),
            page: self.browser,
            max_steps: self.max_steps,
            scripted: !self.algorithm.open_loop,
            state_bytes: self.algorithm.state_bytes.map_or(0, |bytes| bytes(topology)),
        })
    }

    /// The run's estimated bytes ([`memory::estimate`]); `None` without a network.
    pub fn memory_estimate(&self) -> Option<Estimate> {
        self.memory_shape().map(|shape| memory::estimate(&shape))
    }

    /// Refuses a run whose estimate is above [`RunSpec::memory_limit`],
    /// naming the topology, the estimate and the limit.
    pub fn check_memory(&self) -> Result<()> {
        if let (Some(limit), Some(shape)) = (&self.memory_limit, self.memory_shape()) {
            limit.check(&shape)?;
        }
        Ok(())
    }

    /// Refuses `beside`, the run shown beside this one (the page's
    /// `compare=`), when the two estimates together pass the limit: both
    /// live in one page. Each alone is checked by [`RunSpec::build`].
    pub fn check_memory_beside(&self, beside: &RunSpec) -> Result<()> {
        let (Some(limit), Some(first), Some(second)) =
            (&self.memory_limit, self.memory_estimate(), beside.memory_estimate())
        else {
            return Ok(());
        };
        let total = first.total().saturating_add(second.total());
        if total > limit.bytes {
            let topology = self.topology().map(|t| t.to_string()).unwrap_or_default();
            return Err(crate::Error::Memory {
                topology,
                reason: format!(
                    "the two runs side by side need an estimated {} ({} for {}, {} for {}), above {} of {}; {}",
                    mib(total),
                    mib(first.total()),
                    self.algorithm.name,
                    mib(second.total()),
                    beside.algorithm.name,
                    limit.source,
                    mib(limit.bytes),
                    limit.hint
                ),
            });
        }
        Ok(())
    }
}

/// Bytes in whole MiB: a pair's sum just past the budget reads as more
/// than it (in GiB to one decimal both would read 1.0).
fn mib(bytes: u64) -> String {
    format!("{} MiB", bytes.div_ceil(1 << 20))
}
