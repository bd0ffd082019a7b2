//! Contention keys (SPEC §1) compare exact distances at every size: a
//! policy that orders by distance must tell r from r + 1 even when r is past
//! 2^16 (a long linear array), where a key that only decreases with the
//! distance (such as ⌊C / r⌋) would tie and hand the link to the smaller id.

use routesim::engine::Policy;
use routesim::topology::Topology;
use routesim::workload::Instance;
use routesim::{SimConfig, Simulation, Status};

/// Two packets at node 0 of `linear:(r + 2)`, both heading right: packet 0
/// to r + 1 (farther), packet 1 to r (nearer). One leaves in step 1, the
/// other in step 2, and they never meet again. Returns the latency
/// histogram, `[step, packets delivered in it]`: `[[r, 1], [r + 2, 1]]` when
/// the nearer one went first, `[[r + 1, 2]]` when the farther one did.
fn race(r: u32, policy: Policy) -> Vec<[u32; 2]> {
    let topo: Topology = format!("linear:{}", r + 2).parse().unwrap();
    let instance = Instance::new(topo, vec![(0, r + 1), (0, r)]).unwrap();
    let config = SimConfig {
        algorithm: "greedy".into(),
        policy,
        check_invariants: false,
        record_series: false,
        ..Default::default()
    };
    let mut sim = Simulation::new(instance, config).unwrap();
    assert_eq!(sim.run(), Status::Finished);
    sim.report().latency.histogram
}

#[test]
fn distance_keys_stay_exact_past_two_to_the_sixteen() {
    // ⌊(2^32 − 2) / r⌋ = ⌊(2^32 − 2) / (r + 1)⌋ at r = 65537: the first
    // distance at which such a quotient key would tie.
    for r in [5u32, 65_537] {
        let nearer_first = vec![[r, 1], [r + 2, 1]];
        let farther_first = vec![[r + 1, 2]];
        assert_eq!(race(r, Policy::NearestFirst), nearer_first, "nearest-first at r = {r}");
        assert_eq!(
            race(r, Policy::FarthestFirst),
            farther_first,
            "farthest-first at r = {r}"
        );
        assert_eq!(
            race(r, Policy::FarthestTotal),
            farther_first,
            "farthest-total at r = {r}"
        );
    }
}
