//! The papers the families cite (file in `shared/papers/` and title).

/// The permutation-routing lecture (file in `shared/papers/` and title).
pub const LECTURE: &str = "permutation-routing-mesh-lecture.txt (CS838, Permutation routing in mesh-based networks)";
/// The hypercube lecture.
pub const HYPERCUBE_LECTURE: &str =
    "hypercube-bit-fixing-valiant-lecture.txt (CS174 Lecture 11, Routing in a Parallel Computer)";
/// Pietracaprina–Pucci.
pub const PP: &str = "pietracaprina-pucci-many-to-one-routing-constant-queues.txt (Optimal many-to-one routing on the mesh with constant queues)";
/// Leighton–Maggs–Ranade–Rao.
pub const LMRR: &str = "leighton-maggs-ranade-rao-randomized-routing-sorting.txt (Leighton, Maggs, Ranade, Rao: Randomized routing and sorting on fixed-connection networks)";
/// Kaufmann–Sibeyn.
pub const KAUFMANN_SIBEYN: &str =
    "kaufmann-sibeyn-randomized-multipacket-routing-meshes.txt (Kaufmann, Sibeyn: Randomized multi-packet routing on meshes)";
