//! A sort's keys as an instance gives them (SPEC §3, §5 "Sorting": one
//! number per packet) and the codes the algorithms compare.
//!
//! Every algorithm compares keys as `u64`. An instance's keys may be any
//! JSON numbers, so they are stored as order-preserving codes: `a < b` as
//! numbers exactly when `code(a) < code(b)`, and equal numbers (0 and −0
//! included) get equal codes, so ties still fall to the packet id. The kind
//! of the list ([`KeyNumbers`]) is chosen once for the whole list, the
//! narrowest that holds every key exactly:
//! - all non-negative integers below 2^64: the integer itself (the
//!   generators' keys; the code is the key);
//! - all integers in i64: the integer with its sign bit flipped;
//! - all whole numbers, some written with a point or an exponent (`3.0`,
//!   `1e3`), below 2^53: as the integers they are;
//! - otherwise (a fraction, a whole number past 2^53 written as a double,
//!   or integers of both signs past i64): the f64 value, its bits flipped so that they sort as the numbers
//!   do (the sign bit for a positive, every bit for a negative). An
//!   integer written as one that a double does not hold exactly (past 2^53,
//!   not a multiple of the doubles' spacing there) is refused in such a
//!   list, by name: as a double it could tie a distinct key. A whole number
//!   written with a point or an exponent past 2^53, and an integer past the
//!   64-bit range (the JSON reader keeps no more of it than its double),
//!   is read as the double it names, as any JSON reader that reads numbers
//!   as doubles reads it: two numbers with one double tie (by packet id).
//!
//! Written back ([`write_json`]), a key is the number it was read as.

use serde_json::{Number, Value};

/// What kind of numbers a list of keys holds, and so how its codes decode.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum KeyNumbers {
    /// Non-negative integers: the code is the key.
    #[default]
    Unsigned,
    /// Integers, some negative: the i64 with its sign bit flipped.
    Signed,
    /// Any numbers: the f64's bits in their total order.
    Real,
}

const SIGN: u64 = 1 << 63;

/// Past 2^53 a double no longer holds every integer.
const EXACT: f64 = (1u64 << 53) as f64;

/// The order-preserving code of a float (−0 taken as 0).
fn real_code(x: f64) -> u64 {
    let bits = (if x == 0.0 { 0.0 } else { x }).to_bits();
    if bits & SIGN == 0 {
        bits | SIGN
    } else {
        !bits
    }
}

/// The float whose code is `code`.
fn real_value(code: u64) -> f64 {
    f64::from_bits(if code & SIGN != 0 { code & !SIGN } else { !code })
}

/// Why a key is refused: not a number, or an integer a list of doubles
/// would not hold exactly (see [`parse`]).
pub const NOT_A_NUMBER: &str = "expected a number (one key per packet)";
const INEXACT: &str = "an integer past 2^53 in a list compared as doubles (it holds a fraction, a number past \
                       2^53 written with a point or an exponent or past the 64-bit range, or integers of both \
                       signs past 2^63), which do not hold it exactly (distinct keys would tie); give integers \
                       within 64 bits of one sign, or integers below 2^53";

/// Reads `keys` (a JSON array's numbers: the instance reader refuses an
/// item that is not one, [`NOT_A_NUMBER`]) into codes; the error is the
/// first key refused, with why (the reader names `keys[i]` and the value):
/// in a list compared as doubles, an
/// integer a double does not hold exactly (the CLI audit of 2026-11-30:
/// 2^64 − 1 and 2^64 − 2 beside −1 tied, and a wrong order read as sorted).
pub fn parse(list: &[Number]) -> std::result::Result<(Vec<u64>, KeyNumbers), (usize, &'static str)> {
    if let Some(codes) = list.iter().map(Number::as_u64).collect::<Option<Vec<u64>>>() {
        return Ok((codes, KeyNumbers::Unsigned));
    }
    if let Some(codes) = list.iter().map(|x| x.as_i64().map(|v| v as u64 ^ SIGN)).collect() {
        return Ok((codes, KeyNumbers::Signed));
    }
    // as_f64 reads every number (finite: JSON has no NaN).
    let values: Vec<f64> = list.iter().map(|x| x.as_f64().unwrap_or(0.0)).collect();
    let integer = |x: &Number| x.as_u64().is_some() || x.as_i64().is_some();
    // Whole numbers, some written with a point or an exponent (`3.0`,
    // `1e3`) up to 2^53: compared as the integers they are — an integer key
    // as itself, not as its double (9007199254740993 beside
    // 9007199254740992.0 tied as doubles until 2026-11-30).
    if (0..list.len()).all(|i| integer(&list[i]) || (values[i].fract() == 0.0 && values[i].abs() <= EXACT)) {
        let unsigned = values.iter().all(|&x| x >= 0.0);
        let codes: Option<Vec<u64>> = list
            .iter()
            .zip(&values)
            .map(|(x, &v)| match unsigned {
                true => x.as_u64().or(Some(v as u64)),
                false => x
                    .as_i64()
                    .or((!integer(x)).then_some(v as i64))
                    .map(|k| k as u64 ^ SIGN),
            })
            .collect();
        // (An integer past i64 beside a negative key: compared as doubles, below.)
        if let Some(codes) = codes {
            let numbers = if unsigned {
                KeyNumbers::Unsigned
            } else {
                KeyNumbers::Signed
            };
            return Ok((codes, numbers));
        }
    }
    let inexact = |x: &Number| match (x.as_u64(), x.as_i64()) {
        (Some(v), _) => (v as f64) >= u64::MAX as f64 || (v as f64) as u64 != v,
        (None, Some(v)) => (v as f64) as i64 != v,
        _ => false,
    };
    if let Some(i) = list.iter().position(inexact) {
        return Err((i, INEXACT));
    }
    Ok((values.into_iter().map(real_code).collect(), KeyNumbers::Real))
}

/// The key whose code is `code`, as a number (the page colours by it).
pub fn value(code: u64, numbers: KeyNumbers) -> f64 {
    match numbers {
        KeyNumbers::Unsigned => code as f64,
        KeyNumbers::Signed => (code ^ SIGN) as i64 as f64,
        KeyNumbers::Real => real_value(code),
    }
}

/// Each key's place among the distinct keys (0 the lowest, equal codes
/// one place), by their codes, which order as the keys do: exact where the
/// keys as doubles ([`value`]) are not (distinct integers near 2^64 round
/// to one double). The page shades a sort's packets by it.
pub fn places(codes: &[u64]) -> Vec<u32> {
    let mut distinct = codes.to_vec();
    distinct.sort_unstable();
    distinct.dedup();
    codes
        .iter()
        .map(|c| distinct.partition_point(|d| d < c) as u32)
        .collect()
}

/// Appends the key whose code is `code` as JSON text, the number it was read as.
pub fn write_json(out: &mut String, code: u64, numbers: KeyNumbers) {
    use std::fmt::Write;
    let _ = match numbers {
        KeyNumbers::Unsigned => write!(out, "{code}"),
        KeyNumbers::Signed => write!(out, "{}", (code ^ SIGN) as i64),
        KeyNumbers::Real => match real_value(code) {
            // A whole number among fractions: written without a point.
            x if x.fract() == 0.0 && x.abs() <= EXACT => write!(out, "{}", x as i64),
            x => write!(out, "{}", Value::from(x)),
        },
    };
}

/// The key as text for a sentence (`3`, `-2`, `0.5`).
pub fn text(code: u64, numbers: KeyNumbers) -> String {
    let mut out = String::new();
    write_json(&mut out, code, numbers);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// Places are exact where doubles are not: four distinct keys next to
    /// 2^64 (one double) get four places; equal keys share one.
    #[test]
    fn places_order_the_keys_exactly() {
        let (codes, numbers) = parse(&nums(json!([
            18446744073709551615u64,
            18446744073709551612u64,
            18446744073709551614u64,
            18446744073709551613u64
        ])))
        .unwrap();
        assert!(codes.iter().all(|&c| value(c, numbers) == value(codes[0], numbers)));
        assert_eq!(places(&codes), [3, 0, 2, 1]);
        let (codes, _) = parse(&nums(json!([-2, 5, -2, 0.5]))).unwrap();
        assert_eq!(places(&codes), [0, 2, 0, 1]);
        assert!(places(&[]).is_empty());
    }

    /// A JSON array of numbers as the instance reader hands it over.
    fn nums(v: Value) -> Vec<Number> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_number().unwrap().clone())
            .collect()
    }

    fn codes(v: Value) -> (Vec<u64>, KeyNumbers) {
        parse(&nums(v)).unwrap()
    }

    #[test]
    fn the_narrowest_kind_that_holds_every_key() {
        assert_eq!(
            codes(json!([3, 0, u64::MAX])),
            (vec![3, 0, u64::MAX], KeyNumbers::Unsigned)
        );
        assert_eq!(codes(json!([-1, 2])).1, KeyNumbers::Signed);
        assert_eq!(codes(json!([1, 2.5])).1, KeyNumbers::Real);
        assert_eq!(codes(json!([1e3, 2])), (vec![1000, 2], KeyNumbers::Unsigned));
        assert_eq!(codes(json!([-3.0, 2])).1, KeyNumbers::Signed);
        assert_eq!(codes(json!([1e300, 2])).1, KeyNumbers::Real);
        // Both signs past i64: doubles, which hold 2^63 exactly (u64::MAX
        // they would not: refused, below).
        assert_eq!(codes(json!([-1, 1u64 << 63])).1, KeyNumbers::Real);
    }

    #[test]
    fn codes_sort_as_the_numbers_do() {
        let numbers = [
            f64::MIN,
            -1e300,
            -2.5,
            -1.0,
            -1e-300,
            -f64::MIN_POSITIVE,
            0.0,
            5e-324,
            1e-300,
            0.5,
            1.0,
            2.0,
            9007199254740993.0,
            1e300,
            f64::MAX,
        ];
        let (c, kind) = codes(json!(numbers));
        assert_eq!(kind, KeyNumbers::Real);
        assert!(c.windows(2).all(|w| w[0] < w[1]), "{c:?}");
        for (&code, &x) in c.iter().zip(&numbers) {
            assert_eq!(value(code, kind), x);
        }
        let ints = [i64::MIN, -7, -1, 0, 1, 7, i64::MAX];
        let (c, kind) = codes(json!(ints));
        assert_eq!(kind, KeyNumbers::Signed);
        assert!(c.windows(2).all(|w| w[0] < w[1]), "{c:?}");
        for (&code, &x) in c.iter().zip(&ints) {
            assert_eq!(value(code, kind), x as f64);
            assert_eq!(text(code, kind), x.to_string());
        }
    }

    /// An integer key is compared as itself beside whole numbers written as
    /// doubles (an audit: 9007199254740993 beside 9007199254740992.0 tied,
    /// the list read as doubles).
    #[test]
    fn an_integer_past_2_53_beside_a_whole_double_keeps_its_value() {
        let (c, kind) = codes(json!([9007199254740993u64, 9007199254740992.0]));
        assert_eq!(
            (c, kind),
            (vec![9007199254740993, 9007199254740992], KeyNumbers::Unsigned)
        );
        let (c, kind) = codes(json!([-9007199254740993i64, 2.0, 1e3]));
        assert_eq!(kind, KeyNumbers::Signed);
        assert!(c[0] < c[1] && c[1] < c[2]);
        assert_eq!(text(c[0], kind), "-9007199254740993");
        // Past i64 beside a negative key: doubles, and refused where inexact.
        assert!(parse(&nums(json!([u64::MAX, -1, 2.0]))).is_err());
    }

    #[test]
    fn zero_and_minus_zero_are_one_key() {
        let (c, _) = codes(json!([-0.0, 0.0, 0.5]));
        assert_eq!(c[0], c[1]);
        assert!(c[1] < c[2]);
    }

    #[test]
    fn written_back_as_read() {
        for (v, text) in [
            (json!([0.5, -2.25, 3.0, 1e-7, -1e300]), "[0.5,-2.25,3,1e-7,-1e+300]"),
            (json!([-3, 4, 0]), "[-3,4,0]"),
            (json!([-3.0, 4, 1e2]), "[-3,4,100]"),
            (json!([7, 0, 18446744073709551615u64]), "[7,0,18446744073709551615]"),
        ] {
            let (c, kind) = codes(v.clone());
            let mut out = String::from("[");
            for (i, &code) in c.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_json(&mut out, code, kind);
            }
            out.push(']');
            assert_eq!(out, text);
            let back: Value = serde_json::from_str(&out).unwrap();
            assert_eq!(codes(back), (c, kind));
        }
    }

    /// A list compared as doubles refuses an integer a double does not
    /// hold exactly; integers of one sign, and integers a double holds,
    /// are kept exact.
    #[test]
    fn an_integer_a_double_cannot_hold_is_refused_in_a_list_of_doubles() {
        let refused = |v: Value| parse(&nums(v)).map_err(|(i, _)| i);
        assert_eq!(refused(json!([u64::MAX, u64::MAX - 1, -1, -2])), Err(0));
        assert_eq!(refused(json!([0.5, 9_007_199_254_740_993u64])), Err(1));
        assert_eq!(refused(json!([i64::MIN + 1, 0.5])), Err(0));
        let (codes, kind) = parse(&nums(json!([1u64 << 60, -1, 0.5]))).unwrap();
        assert_eq!(kind, KeyNumbers::Real);
        assert!(codes[2] < codes[0] && codes[1] < codes[2]);
        assert!(parse(&nums(json!([u64::MAX, u64::MAX - 1]))).is_ok());
        assert!(parse(&nums(json!([i64::MIN, -1, 3]))).is_ok());
    }
}
