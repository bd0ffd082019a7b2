//! The label-bit cuts of the hypercube and the shuffle-exchange (see
//! [`super::bisection_bound`]): the packets that cross each bit's cut, and
//! the shuffle-exchange's links across it.

/// Per label bit j, the packets whose bit j goes 0→1 (`up[j]`) and 1→0.
pub(super) fn bit_flows(dim: u32, packets: &[(u32, u32)]) -> (Vec<u64>, Vec<u64>) {
    let (mut up, mut down) = (vec![0u64; dim as usize], vec![0u64; dim as usize]);
    for &(s, d) in packets {
        let mut diff = s ^ d;
        while diff != 0 {
            let j = diff.trailing_zeros() as usize;
            if (d >> j) & 1 == 1 {
                up[j] += 1;
            } else {
                down[j] += 1;
            }
            diff &= diff - 1;
        }
    }
    (up, down)
}

/// The directed links of `shuffle-exchange:D` from the labels with bit j =
/// 0 to those with bit j = 1: the exchange links when j = 0 (2^(D−1));
/// the shuffle links x → rotl x with x_j = 0 and x_(j−1) = 1 (2^(D−2));
/// the unshuffle links x → rotr x with x_j = 0 and x_(j+1) = 1 (2^(D−2)),
/// less one when D is even: the alternating label with x_j = 0 has one
/// link for both rotations (SPEC §2), counted with the shuffle links.
/// Positive for D ≥ 1 (`shuffle-exchange:1` has its exchange link only:
/// both of its labels are their own rotations).
pub fn shuffle_exchange_cut_links(dim: u32, j: u32) -> u64 {
    let exchange = if j == 0 { 1u64 << (dim - 1) } else { 0 };
    let rotations = if dim < 2 {
        0
    } else {
        2 * (1u64 << (dim - 2)) - u64::from(dim.is_multiple_of(2))
    };
    exchange + rotations
}
