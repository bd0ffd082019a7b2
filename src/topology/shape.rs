//! One vocabulary for a network's shape: the facts an algorithm's registry
//! entry needs ([`crate::algorithms::Entry::check_topology`]), a claim's
//! scope states ([`crate::algorithms::claim::Scope::network`]) and the words
//! about a run use. Each fact is tested by [`Shape::holds`] and put in words
//! by [`Shape::phrase`] (with its [`Shape::note`]), so no caller matches on
//! kinds and sides itself.

use super::{Kind, Network, Topology};
use serde::Serialize;

/// A fact about a network's shape within its kinds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Shape {
    /// Any size and dimension.
    Any,
    /// Exactly two dimensions (R×C).
    TwoD,
    /// A square 2-D network (n × n).
    Square,
    /// A square 2-D network whose side is a power of two.
    SquarePowerOfTwo,
    /// Two or more dimensions, any sides.
    MultiD,
    /// Three or more dimensions, every side equal (n × … × n).
    Cube,
    /// Grids of two or more dimensions; the other kinds any size.
    GridsMultiD,
    /// As [`Shape::GridsMultiD`], every side at least 2, and two nodes or
    /// more (a sort of one key has nothing to do).
    GridsMultiDSides2,
}

impl Shape {
    /// Whether `topo` has this shape (whatever its kind).
    pub fn holds(self, topo: &Topology) -> bool {
        let sides = topo.as_grid().map(|g| g.dims());
        let equal = |d: &[u32]| d.iter().all(|&s| s == d[0]);
        match self {
            Shape::Any => true,
            Shape::TwoD => topo.mesh2d().is_some(),
            Shape::Square => topo.square_side().is_some(),
            Shape::SquarePowerOfTwo => topo.square_side().is_some_and(u32::is_power_of_two),
            Shape::MultiD => sides.is_some_and(|d| d.len() >= 2),
            Shape::Cube => sides.is_some_and(|d| d.len() >= 3 && equal(d)),
            Shape::GridsMultiD => sides.is_none_or(|d| d.len() >= 2),
            Shape::GridsMultiDSides2 => {
                sides.is_none_or(|d| d.len() >= 2 && d.iter().all(|&s| s >= 2)) && topo.nodes() >= 2
            }
        }
    }

    /// Whether `topo` is of one of `kinds` and has this shape.
    pub fn holds_for(self, kinds: &[Kind], topo: &Topology) -> bool {
        kinds.contains(&topo.kind()) && self.holds(topo)
    }

    /// A network of `kinds` with this shape, as a noun phrase ("a 2-D
    /// mesh", "an n × n torus", "a linear array"), without its
    /// [`Shape::note`].
    pub fn phrase(self, kinds: &[Kind]) -> String {
        let names: Vec<&str> = kinds.iter().map(|k| k.noun()).collect();
        let kinds = match names.as_slice() {
            [one] => one.to_string(),
            [rest @ .., last] => format!("{} or {last}", rest.join(", ")),
            [] => String::new(),
        };
        match self {
            Shape::Any | Shape::GridsMultiD | Shape::GridsMultiDSides2 => format!("a {kinds}"),
            Shape::TwoD => format!("a 2-D {kinds}"),
            Shape::Square => format!("an n × n {kinds}"),
            Shape::SquarePowerOfTwo => format!("a square 2-D {kinds} whose side is a power of two"),
            Shape::MultiD => format!("a {kinds} of 2 or more dimensions"),
            Shape::Cube => format!("an n × … × n {kinds} of 3 or more dimensions"),
        }
    }

    /// What the phrase leaves open, where something is ("any size").
    pub fn note(self) -> Option<&'static str> {
        match self {
            Shape::Any => Some("any size"),
            Shape::MultiD => Some("any sides"),
            Shape::GridsMultiD => Some("grids of 2 or more dimensions, any size"),
            Shape::GridsMultiDSides2 => Some("grids of 2 or more dimensions, every side at least 2; two nodes or more"),
            Shape::TwoD | Shape::Square | Shape::SquarePowerOfTwo | Shape::Cube => None,
        }
    }

    /// Why a network of a kind the entry leaves out is refused, where
    /// that is not plain: entries that read grids of any dimension as
    /// leveled networks ([`Shape::GridsMultiD`], lmrr) refuse tori for
    /// their wrap links.
    pub fn refusal(self, kinds: &[Kind], topo: &Topology) -> Option<&'static str> {
        let torus = topo.kind() == Kind::Torus && !kinds.contains(&Kind::Torus);
        (matches!(self, Shape::GridsMultiD | Shape::GridsMultiDSides2) && torus).then_some(
            "a torus's wrap links close a cycle along every dimension, and no leveling holds all the links of a \
             cycle, each one level up; ignoring the wrap links would route a mesh, not the torus",
        )
    }

    /// [`Shape::phrase`] with its [`Shape::note`] in parentheses ("a mesh
    /// (any size)").
    pub fn phrase_with_note(self, kinds: &[Kind]) -> String {
        let phrase = self.phrase(kinds);
        match self.note() {
            Some(note) => format!("{phrase} ({note})"),
            None => phrase,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_hold_and_read() {
        let t = |s: &str| s.parse::<Topology>().unwrap();
        assert!(Shape::Square.holds_for(&[Kind::Torus], &t("torus:5x5")));
        assert!(!Shape::Square.holds_for(&[Kind::Mesh], &t("torus:5x5")));
        assert!(!Shape::Square.holds(&t("mesh:4x5")));
        assert!(Shape::Cube.holds(&t("mesh:3x3x3")) && !Shape::Cube.holds(&t("mesh:3x3")));
        assert!(!Shape::Cube.holds(&t("torus:3x4x5")));
        assert!(Shape::SquarePowerOfTwo.holds(&t("mesh:8x8")) && !Shape::SquarePowerOfTwo.holds(&t("mesh:6x6")));
        assert!(Shape::GridsMultiD.holds(&t("hypercube:3")) && !Shape::GridsMultiD.holds(&t("linear:4")));
        assert!(Shape::GridsMultiD.holds(&t("mesh:3x4x5")) && !Shape::GridsMultiD.holds(&t("mesh:5")));
        assert!(Shape::GridsMultiD
            .refusal(&[Kind::Mesh], &t("torus:4x4"))
            .is_some_and(|w| w.contains("wrap links")));
        assert_eq!(Shape::GridsMultiD.refusal(&[Kind::Mesh], &t("linear:4")), None);
        // Flashsort's: sides of 1 and one-node networks are out, and the note says so.
        let sides2 = Shape::GridsMultiDSides2;
        assert!(sides2.holds(&t("mesh:2x2")) && sides2.holds(&t("butterfly:1")) && sides2.holds(&t("hypercube:1")));
        for out in ["mesh:1x8", "mesh:2x1x2", "butterfly:0", "hypercube:0", "mesh:8"] {
            assert!(!sides2.holds(&t(out)), "{out}");
        }
        assert!(sides2
            .note()
            .is_some_and(|n| n.contains("every side at least 2") && !n.contains("any size")));
        assert_eq!(Shape::Any.phrase(&[Kind::Linear]), "a linear array");
        assert_eq!(
            Shape::Any.phrase_with_note(&[Kind::Hypercube, Kind::Butterfly]),
            "a hypercube or butterfly (any size)"
        );
        assert_eq!(
            Shape::Cube.phrase(&[Kind::Torus]),
            "an n × … × n torus of 3 or more dimensions"
        );
    }
}
