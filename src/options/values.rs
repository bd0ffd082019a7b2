//! The values of the options: their parsers (one per kind of value, each
//! naming the field and the value it refuses), the option types (`Phases`,
//! `Smear`, `PathChoice`) and [`AlgorithmOptions`], which holds them.

use super::UNKNOWN_LOCALITY;
use crate::error::{Error, Result};
use crate::workload::Instance;

/// A whole number within `min..=max`, or an error naming the field and value.
pub fn parse_number(field: &str, text: &str, min: u64, max: u64) -> Result<u64> {
    let value = text.trim();
    let why = || {
        if max == u64::MAX && value.bytes().all(|b| b.is_ascii_digit()) && !value.is_empty() {
            // Digits only, so it failed by passing u64's range (the
            // determinism audit of 2026-12-01: "of at least 0" was untrue).
            format!("expected a whole number from {min} to {max} (2^64 − 1)")
        } else if max == u64::MAX {
            format!("expected a whole number of at least {min}")
        } else {
            format!("expected a whole number from {min} to {max}")
        }
    };
    match value.parse::<u64>() {
        Ok(v) if (min..=max).contains(&v) && !value.starts_with('+') => Ok(v),
        _ => Err(Error::invalid(field, text, why())),
    }
}

/// The largest seed the page takes: 2^53 − 1, the largest whole number a
/// JavaScript number holds exactly (a seed beyond it could not reach the
/// page's address, form and reports unchanged). The CLI takes any u64.
pub const PAGE_MAX_SEED: u64 = (1 << 53) - 1;

/// The largest seed a run takes: [`PAGE_MAX_SEED`] on the page (`page`),
/// any u64 natively.
pub const fn max_seed(page: bool) -> u64 {
    if page {
        PAGE_MAX_SEED
    } else {
        u64::MAX
    }
}

/// A seed: any u64, or on the page (`page`) at most [`PAGE_MAX_SEED`],
/// refused by name beyond it.
pub fn parse_seed(field: &str, text: &str, page: bool) -> Result<u64> {
    let seed = parse_number(field, text, 0, u64::MAX)?;
    if seed > max_seed(page) {
        return Err(Error::invalid(
            field,
            text,
            format!(
                "the page takes seeds from 0 to {PAGE_MAX_SEED} (2^53 − 1, the largest whole number JavaScript \
                 holds exactly); the command-line routesim takes any up to {}",
                u64::MAX
            ),
        ));
    }
    Ok(seed)
}

/// A whole number of at least `min` that fits in 32 bits.
pub fn parse_u32(field: &str, text: &str, min: u32) -> Result<u32> {
    Ok(parse_number(field, text, min as u64, u32::MAX as u64)? as u32)
}

/// `true`/`1` or `false`/`0`.
pub fn parse_bool(field: &str, text: &str) -> Result<bool> {
    match text.trim() {
        "true" | "1" => Ok(true),
        "false" | "0" => Ok(false),
        _ => Err(Error::invalid(field, text, "expected true or false")),
    }
}

/// `locality`'s value: L (the workload's, and ks-local's nodes know it),
/// `unknown` (ks-local estimates it: NoLRoute; a workload's L at its
/// default) or `unknown:L` (the workload's L, not told to the nodes).
pub(super) fn parse_locality(field: &str, text: &str) -> Result<(Option<u32>, bool)> {
    let value = text.trim();
    let bad = || {
        Error::invalid(
            field,
            text,
            format!(
                "expected a whole number of at least 1 (L, known to ks-local's nodes), {UNKNOWN_LOCALITY} \
                 (ks-local estimates L: NoLRoute) or {UNKNOWN_LOCALITY}:L (the workload's L, not told to the nodes)"
            ),
        )
    };
    match value.strip_prefix(UNKNOWN_LOCALITY) {
        Some("") => Ok((None, true)),
        Some(rest) => {
            let l = rest.strip_prefix(':').ok_or_else(bad)?;
            Ok((Some(parse_u32(field, l, 1).map_err(|_| bad())?), true))
        }
        None => Ok((Some(parse_u32(field, text, 1).map_err(|_| bad())?), false)),
    }
}

/// `locality`'s value as the user writes it (`None`: not given).
pub(super) fn locality_text(l: Option<u32>, unknown: bool) -> Option<String> {
    match (l, unknown) {
        (None, false) => None,
        (Some(l), false) => Some(l.to_string()),
        (None, true) => Some(UNKNOWN_LOCALITY.to_string()),
        (Some(l), true) => Some(format!("{UNKNOWN_LOCALITY}:{l}")),
    }
}

/// How the phases of a Kaufmann–Sibeyn algorithm follow each other
/// (SPEC §5 `--phases`; the paper's §3 "Coalescing phases").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Phases {
    /// A barrier between phases (the analysis's setting).
    #[default]
    Separated,
    /// A packet starts its next phase as soon as it finished one: what the
    /// other phased algorithms call `pipeline`.
    Coalesced,
}

impl Phases {
    /// The SPEC name.
    pub fn name(self) -> &'static str {
        match self {
            Phases::Separated => "separated",
            Phases::Coalesced => "coalesced",
        }
    }

    pub(super) fn parse(field: &str, text: &str) -> Result<Phases> {
        [Phases::Separated, Phases::Coalesced]
            .into_iter()
            .find(|p| p.name() == text.trim())
            .ok_or_else(|| Error::invalid(field, text, "expected separated or coalesced"))
    }
}

/// `--smear`'s value: a block length of at least 1, or `auto`; `off`,
/// `none` or nothing for no smearing.
pub(super) fn parse_smear(field: &str, text: &str) -> Result<Option<Smear>> {
    match text.trim() {
        "" | "off" | "none" => Ok(None),
        "auto" => Ok(Some(Smear::Auto)),
        value => match value.parse::<u32>() {
            Ok(m) if m >= 1 && !value.starts_with('+') => Ok(Some(Smear::Block(m))),
            _ => Err(Error::invalid(
                field,
                text,
                "expected a block length (a whole number of at least 1), auto or off",
            )),
        },
    }
}

/// The block length of queue smearing (`--smear M|auto`, Kaufmann–Sibeyn
/// §7.5): the packets of m adjacent nodes of a line are spread over them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Smear {
    /// Blocks of this many nodes (at least 1; m = 1 moves nothing, the
    /// paper's "taking m = 1").
    Block(u32),
    /// m = ⌈k·log₂ n⌉ (Theorem 6's choice, n the longest side, k the
    /// instance's max(ℓ, k)).
    Auto,
}

impl Smear {
    /// The option's value as the user writes it (`auto`, `8`).
    pub fn name(self) -> String {
        match self {
            Smear::Block(m) => m.to_string(),
            Smear::Auto => "auto".into(),
        }
    }

    /// The block length for `k` packets per node on lines of at most `side`
    /// nodes, clamped to 1..=side.
    pub fn block(self, k: u32, side: u32) -> u32 {
        let m = match self {
            Smear::Block(m) => m,
            Smear::Auto => auto_block(k, side),
        };
        m.clamp(1, side.max(1))
    }

    /// Theorem 6's m = ⌈k·log₂ n⌉ for `instance` as the paper writes it,
    /// not clamped to the side, and that side: m > side means the
    /// theorem's premise (k ≤ n^α, α < 1) does not hold.
    pub fn theorem_block(instance: &Instance) -> (u32, u32) {
        let (k, side) = smear_k_and_side(instance);
        (auto_block(k, side).max(1), side)
    }

    /// The block length for `instance`: k its max(ℓ, k) (declared, else
    /// measured), the side the longest side of its grid — what `ks-nowrap`
    /// and `ks-wrap` smear with, and what Theorem 6's claim is judged against.
    pub fn block_for(self, instance: &Instance) -> u32 {
        let (k, side) = smear_k_and_side(instance);
        self.block(k, side)
    }
}

/// ⌈k·log₂ side⌉, unclamped; the small slack keeps exact products exact.
fn auto_block(k: u32, side: u32) -> u32 {
    let x = k as f64 * (side.max(1) as f64).log2();
    (x - 1e-9).ceil().min(u32::MAX as f64) as u32
}

/// The k and n of Theorem 6 for `instance`: its max(ℓ, k), and the
/// longest side of its grid (1 off grids).
fn smear_k_and_side(instance: &Instance) -> (u32, u32) {
    let (l, k) = instance.lk();
    let side = instance
        .topology
        .as_grid()
        .map_or(1, |g| g.dims().iter().copied().max().unwrap_or(1));
    (l.max(k), side)
}

/// Which paths `lmrr` gives packets on the butterfly (and the hypercube
/// through it): LMRR §4's two theorems; on meshes, §6's plateaus through
/// a random node, or (direct) straight to the destination.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PathChoice {
    /// The direct path (Theorem 4.2; bit fixing on the hypercube).
    #[default]
    Direct,
    /// Through a uniformly random intermediate row or node (Theorem 4.1).
    Valiant,
}

impl PathChoice {
    /// The option's values, the default first.
    pub const NAMES: &'static [&'static str] = &["direct", "valiant"];

    /// The SPEC name.
    pub fn name(self) -> &'static str {
        match self {
            PathChoice::Direct => "direct",
            PathChoice::Valiant => "valiant",
        }
    }

    /// Parses a name; `None` if it is not one.
    pub fn parse(text: &str) -> Option<PathChoice> {
        [PathChoice::Direct, PathChoice::Valiant]
            .into_iter()
            .find(|p| p.name() == text)
    }
}

/// `flashsort --loading`: how the keys go through Flashsort's recursion
/// (LMRR §8 on butterflies and hypercubes, §10 on meshes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loading {
    /// The lightly loaded sort of N/2 keys at a time, each key to an
    /// input (a mesh's node) of its own, inside Columnsort: constant node
    /// queues.
    Light,
    /// Every key through one recursion (faster; node queues grow).
    Full,
}

impl Loading {
    /// The option's values, the default first.
    pub const NAMES: &'static [&'static str] = &["light", "full"];

    /// The SPEC name.
    pub fn name(self) -> &'static str {
        match self {
            Loading::Light => "light",
            Loading::Full => "full",
        }
    }

    /// Parses a name; `None` if it is not one.
    pub fn parse(text: &str) -> Option<Loading> {
        [Loading::Light, Loading::Full].into_iter().find(|p| p.name() == text)
    }
}

/// The options an algorithm reads: what the user set, held once. The run
/// request nests it and the simulation takes it whole; `seed` and
/// `queue_cap` are the run's, copied in when the algorithm is created.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AlgorithmOptions {
    /// The run's seed (algorithms draw from their own stream of it).
    pub seed: u64,
    /// Phased algorithms (`valiant`, `rand-interval`, …): let each packet
    /// start its next phase as soon as it reaches the target of the
    /// current one instead of waiting at a barrier (`--pipeline`; see
    /// [`AlgorithmOptions::pipelined`]).
    pub pipeline: bool,
    /// The Kaufmann–Sibeyn family's `--phases`: coalesced is pipelined.
    pub phases: Phases,
    /// Correct dimensions in the reverse of SPEC §5's order (Y before X,
    /// least significant bit first).
    pub reverse_order: bool,
    /// `ks-level`'s strip height ε (`--epsilon`; default ⌈side/8⌉).
    pub epsilon: Option<u32>,
    /// `ks-level --superior`: superior and inferior regions (Kaufmann–Sibeyn
    /// §6.1.1, Lemma 15) on the basic loop.
    pub superior: bool,
    /// `--locality`'s L (the workloads' L, and ks-local's unless unknown;
    /// see [`AlgorithmOptions::known_locality`]).
    pub locality: Option<u32>,
    /// `--locality unknown` or `unknown:L`: ks-local's nodes are not told L
    /// (NoLRoute, Kaufmann–Sibeyn §9.2).
    pub locality_unknown: bool,
    /// Queue smearing between phases (`--smear`, Kaufmann–Sibeyn §7.5);
    /// `None`: no smearing.
    pub smear: Option<Smear>,
    /// `ks-nowrap --no-randomize`: NoWrapRoute(d) without its randomizing
    /// phases (Kaufmann–Sibeyn §7.4).
    pub no_randomize: bool,
    /// Cut-through worms of this many flits (SPEC §5 `--flits`); `None` is
    /// store-and-forward and leaves `flits` out of the report.
    pub flits: Option<u32>,
    /// Queue capacity q (`lmrr`: of its edge queues; `None`: the default).
    pub queue_cap: Option<u32>,
    /// `lmrr`: ranks drawn from [1, R] (`None`: the paper's R).
    pub ranks: Option<u32>,
    /// `lmrr`: direct or Valiant paths.
    pub paths: PathChoice,
    /// `lmrr`: packet combining (§2.3.1, `--combine`).
    pub combine: bool,
    /// `flashsort --loading` (`None`: light).
    pub loading: Option<Loading>,
    /// `pp-rand`, `pp-det`: the nodes are not told ℓ and k
    /// (Pietracaprina–Pucci §3, `--unknown-lk`).
    pub unknown_lk: bool,
}

impl AlgorithmOptions {
    /// Whether phases are pipelined: `pipeline`, or `phases` coalesced.
    pub fn pipelined(&self) -> bool {
        self.pipeline || self.phases == Phases::Coalesced
    }

    /// The L the nodes are told (`None` with `--locality unknown`).
    pub fn known_locality(&self) -> Option<u32> {
        self.locality.filter(|_| !self.locality_unknown)
    }

    /// The worms' flits (1: store-and-forward).
    pub fn flits(&self) -> u32 {
        self.flits.unwrap_or(1)
    }
}
