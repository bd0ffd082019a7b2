//! The one palette of the page's drawing: every packet class's colour word,
//! `#rrggbb` colour and shape, and the colours of the other marks that the
//! classes must stay apart from (lit links, control messages, the queue
//! heat fill). The canvas, the legend and every text that names a packet
//! colour read it from here: the page draws class `c` with
//! [`class(c)`](class), the explanations name it with its [`word`], and the
//! teaching texts are joined with [`word`] rather than written by hand.
//!
//! The colour words read as SPEC §7's hue ranges ([`hue_word`]); every
//! class colour lies in its word's range, away from the heat fill's hues
//! (pale yellow to deep red), the lit links' slate and the control
//! messages' purple, and the classes also differ by shape (circle, square,
//! triangle, diamond) for readers who tell the colours apart poorly.

use serde::Serialize;

/// How the page draws one packet class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ClassStyle {
    /// The colour in words ("blue"), as the texts name it.
    pub word: &'static str,
    /// The colour the canvas draws, `#rrggbb`.
    pub colour: &'static str,
    /// The mark's shape: `circle`, `square`, `triangle` or `diamond`.
    pub shape: &'static str,
}

const fn style(word: &'static str, colour: &'static str, shape: &'static str) -> ClassStyle {
    ClassStyle { word, colour, shape }
}

/// The class styles; class `c` is drawn as `CLASSES[c mod 8]`. The first
/// two are the ones most runs show (Kaufmann–Sibeyn's two colours in 2-D).
pub const CLASSES: [ClassStyle; 8] = [
    style("blue", "#0072b2", "circle"),
    style("green", "#1e9a4c", "square"),
    style("sky blue", "#56b4e9", "triangle"),
    style("grey", "#8c8c8c", "diamond"),
    style("light green", "#7fcf7f", "circle"),
    style("teal", "#00a3a3", "square"),
    style("dark green", "#0b6623", "triangle"),
    style("black", "#000000", "diamond"),
];

/// The style of packet class `class`.
pub const fn class(class: u32) -> &'static ClassStyle {
    &CLASSES[class as usize % CLASSES.len()]
}

/// The colour word of packet class `class` ("blue"), for texts.
pub const fn word(class: u32) -> &'static str {
    self::class(class).word
}

/// Links a packet crossed in the shown step: a dark slate, apart from every
/// class colour and the heat fill.
pub const LIT: &str = "#334155";

/// Links that carried a control message (keys, counters, tokens).
pub const CONTROL: &str = "#8e24aa";

/// The queue heat fill's ends: pale yellow for one packet, deep red for the
/// most (the page interpolates between them, through orange).
pub const HEAT: [&str; 2] = ["#ffecaa", "#d73814"];

/// The colour of matching `i` of `n` in a drawing of an edge colouring
/// (the off-line algorithm's G_π, the page's "Hall's theorem" panel):
/// `n` hues evenly spaced round the wheel at one saturation and
/// lightness, each `#rrggbb`, distinct for distinct `i < n` (n ≤ 256). The
/// page rings the packets of a chosen matching on the network in the same
/// colour, so a colour there means the same matching as in the panel.
pub fn matching_colour(i: u32, n: u32) -> String {
    let h = 360.0 * f64::from(i) / f64::from(n.max(1));
    let (s, l) = (0.75, 0.45);
    let c = (1.0 - (2.0 * l - 1.0_f64).abs()) * s;
    let x = c * (1.0 - ((h / 60.0) % 2.0 - 1.0).abs());
    let m = l - c / 2.0;
    let (r, g, b) = match (h / 60.0) as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    let byte = |v: f64| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8;
    format!("#{:02x}{:02x}{:02x}", byte(r), byte(g), byte(b))
}

/// The hue ranges of SPEC §7's colour words (degrees, `[from, to)`; red
/// wraps round 0), read only at HSL saturation ≥ 40 %.
pub const HUES: [(&str, f64, f64); 7] = [
    ("red", 340.0, 360.0),
    ("red", 0.0, 15.0),
    ("orange", 15.0, 45.0),
    ("yellow", 45.0, 70.0),
    ("green", 80.0, 170.0),
    ("blue", 190.0, 260.0),
    ("purple", 260.0, 300.0),
];

/// `#rrggbb` as HSL: hue in degrees, saturation and lightness in [0, 1];
/// `None` for anything else.
pub fn hsl(colour: &str) -> Option<(f64, f64, f64)> {
    let hex = colour.strip_prefix('#').filter(|h| h.len() == 6)?;
    let byte = |i: usize| {
        u8::from_str_radix(&hex[i..i + 2], 16)
            .ok()
            .map(|b| f64::from(b) / 255.0)
    };
    let (r, g, b) = (byte(0)?, byte(2)?, byte(4)?);
    let (max, min) = (r.max(g).max(b), r.min(g).min(b));
    let l = (max + min) / 2.0;
    let d = max - min;
    if d == 0.0 {
        return Some((0.0, 0.0, l));
    }
    let s = d / (1.0 - (2.0 * l - 1.0).abs());
    let h = if max == r {
        60.0 * ((g - b) / d).rem_euclid(6.0)
    } else if max == g {
        60.0 * ((b - r) / d + 2.0)
    } else {
        60.0 * ((r - g) / d + 4.0)
    };
    Some((h, s, l))
}

/// The SPEC §7 colour word `colour` reads as, if any (saturation ≥ 40 %
/// and a hue inside one of [`HUES`]).
pub fn hue_word(colour: &str) -> Option<&'static str> {
    let (h, s, _) = hsl(colour)?;
    if s < 0.4 {
        return None;
    }
    HUES.iter()
        .find(|(_, from, to)| h >= *from && h < *to)
        .map(|(w, _, _)| *w)
}

/// The SPEC §7 colour words (red, orange, yellow, green, blue, purple) that
/// `text` uses, in order of first use, each once.
pub fn words_in(text: &str) -> Vec<&'static str> {
    let lower = text.to_lowercase();
    let words: Vec<&str> = lower.split(|c: char| !c.is_alphanumeric()).collect();
    let mut out: Vec<&'static str> = Vec::new();
    for w in words {
        if let Some((word, _, _)) = HUES.iter().find(|(name, _, _)| *name == w) {
            if !out.contains(word) {
                out.push(word);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hues_read_as_spec_says() {
        assert_eq!(hue_word("#0072b2"), Some("blue"));
        assert_eq!(hue_word("#ff7a00"), Some("orange"));
        assert_eq!(hue_word("#8e24aa"), Some("purple"));
        assert_eq!(hue_word("#d73814"), Some("red"));
        assert_eq!(hue_word("#8c8c8c"), None);
        assert_eq!(words_in("A blue packet, then green; Blue again"), vec!["blue", "green"]);
    }
}
