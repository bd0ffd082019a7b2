//! The shape of what each registry entry says beyond its one-line summary —
//! a description in plain words, what each of its phases does, what its
//! packet classes are, and the claims of its paper as data — so that
//! `routesim list --json`, the docs and the page's explanations read one
//! text. Each family's module writes its own [`Teaching`]; the claims are
//! written in the language of [`super::claim`].
//! [`crate::explain`] evaluates the claims on an instance and says where a
//! run stands against them.

use super::claim::Claim;
use serde::Serialize;

/// The teaching text of one algorithm.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct Teaching {
    /// What the algorithm does, in a few plain sentences.
    pub description: &'static str,
    /// What each phase (as the report names it) does. Names of the
    /// Pietracaprina–Pucci family carry a colour `c<j>` and a round `r<i>`
    /// before the key listed here (`c0 r1 route columns` → `route columns`).
    pub phases: &'static [PhaseText],
    /// The classes its packets are drawn in.
    pub classes: Classes,
    /// The index in `claims` of its headline: the claim `routesim list`
    /// shows as the entry's one line ([`super::Entry::claim`]).
    #[serde(skip)]
    pub headline: usize,
    /// The claims of its paper, evaluated per instance by [`crate::explain`].
    pub claims: &'static [Claim],
}

/// One phase of an algorithm, by its report name.
#[derive(Debug, Clone, Copy, Serialize)]
pub struct PhaseText {
    /// The phase's name in the report (without colour and round).
    pub name: &'static str,
    /// What happens in it.
    pub text: &'static str,
}

/// What a packet's class (the engine's `classes`, the page's packet colour) means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case", tag = "kind", content = "names")]
pub enum Classes {
    /// Class i is `names[i]`.
    Named(&'static [&'static str]),
    /// The class is the packet's colour class (its number).
    Colours,
}
