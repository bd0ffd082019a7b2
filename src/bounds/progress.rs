//! Where a run stands against its instance's best lower bound, in the
//! words of the page's bound counter.

use super::Bounds;
use serde::Serialize;

/// Where a run stands against an instance's best lower bound, in words a
/// student reads at once (the page's bound counter, headed "lower bound"):
/// `text` ("no algorithm can finish before step 15" while the runs go on;
/// "15 · greedy: 20 steps = 1.33 ×" once one has finished — the bound
/// first, so that the counter's figure is always the bound) and `title`
/// (the bounds behind it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Progress {
    /// The counter's text: `figure · words`, or `words` alone.
    pub text: String,
    /// The bound as the counter's figure once a run has finished ("15"),
    /// empty before.
    pub figure: String,
    /// The words beside (under) the figure.
    pub words: String,
    /// Its tooltip.
    pub title: String,
}

/// One run on the instance, as the bound counter speaks of it.
#[derive(Debug, Clone, Copy)]
pub struct RunAt<'a> {
    /// Its algorithm's name.
    pub name: &'a str,
    /// The step it shows.
    pub step: u32,
    /// Whether it has finished (every packet delivered).
    pub finished: bool,
    /// Whether it stalled (it ended without delivering every packet).
    pub stalled: bool,
}

impl RunAt<'_> {
    /// Whether it has ended, finished or stalled.
    fn ended(&self) -> bool {
        self.finished || self.stalled
    }

    /// An ended run that did not finish, in words ("greedy: stalled,
    /// not every packet delivered"); `None` otherwise.
    fn stall_words(&self) -> Option<String> {
        self.stalled
            .then(|| format!("{}: stalled, not every packet delivered", self.name))
    }
}

impl Bounds {
    /// [`Progress`] of `runs` on this instance (one, or two side by side in
    /// the compare view): each finished run with its steps as a multiple of
    /// the bound, a run still going as such.
    pub fn progress(&self, runs: &[RunAt]) -> Progress {
        let best = self.best;
        let reached = runs.iter().any(|r| r.step >= best);
        let (figure, words) = if best > 0 && runs.iter().any(RunAt::ended) {
            let each: Vec<String> = runs
                .iter()
                .map(|r| match r.finished {
                    true => format!(
                        "{}: {} steps = {} ×",
                        r.name,
                        r.step,
                        to_fixed(f64::from(r.step) / f64::from(best), 2)
                    ),
                    false => r.stall_words().unwrap_or_else(|| format!("{}: still running", r.name)),
                })
                .collect();
            (best.to_string(), each.join(" · "))
        } else {
            (String::new(), format!("no algorithm can finish before step {best}"))
        };
        let text = match figure.is_empty() {
            true => words.clone(),
            false => format!("{figure} · {words}"),
        };
        let title = format!(
            "best = {best} (distance {}, bisection {}, sink {}{}); √(ℓkN) = {}. {}",
            self.distance,
            self.bisection,
            self.sink,
            self.region_words(),
            to_fixed(self.sqrt_lkn, 1),
            match reached {
                true => "The run has reached the lower bound.",
                false => "The run has not reached it yet.",
            }
        );
        Progress {
            text,
            figure,
            words,
            title,
        }
    }
}

/// One of two runs side by side whose lower bounds differ (the compare
/// view: lmrr's combining counts one packet per destination; a sort's
/// packets go where its algorithm puts their keys): the run, its bound
/// and the run in a few words ("lmrr with combining").
#[derive(Debug, Clone)]
pub struct OwnBound<'a> {
    /// The run.
    pub at: RunAt<'a>,
    /// Its instance's bounds as this run reads them.
    pub bounds: &'a Bounds,
    /// The run in a few words, for whose bound is whose.
    pub who: String,
}

impl Progress {
    /// [`Progress`] of two runs each against its own bound, `why` they
    /// differ: the figure names both ("6 and 16"); the words say whose is
    /// whose while both go on ("no algorithm can finish before step 6
    /// (lmrr with combining); 16 (bit-fixing without combining)"), then
    /// each run against its own ("lmrr: 9 steps = 1.50 × 6 · bit-fixing:
    /// 22 steps = 1.38 × 16").
    pub fn apart(runs: &[OwnBound; 2], why: &str) -> Progress {
        let figure = format!("{} and {}", runs[0].bounds.best, runs[1].bounds.best);
        let words = if runs.iter().any(|r| r.at.ended()) {
            let each: Vec<String> = runs
                .iter()
                .map(|r| {
                    let best = r.bounds.best;
                    match (r.at.finished, best > 0) {
                        (true, true) => format!(
                            "{}: {} steps = {} × {best}",
                            r.at.name,
                            r.at.step,
                            to_fixed(f64::from(r.at.step) / f64::from(best), 2)
                        ),
                        (true, false) => format!("{}: {} steps", r.at.name, r.at.step),
                        (false, _) => r.at.stall_words().map_or_else(
                            || format!("{}: still running (bound {best})", r.at.name),
                            |w| format!("{w} (bound {best})"),
                        ),
                    }
                })
                .collect();
            each.join(" · ")
        } else {
            format!(
                "no algorithm can finish before step {} ({}); {} ({})",
                runs[0].bounds.best, runs[0].who, runs[1].bounds.best, runs[1].who
            )
        };
        let mut title = format!(
            "Each run has its own lower bound{}.",
            if why.is_empty() {
                String::new()
            } else {
                format!(": {why}")
            }
        );
        for r in runs {
            title += &format!("\n{}: {}", r.who, r.bounds.progress(&[r.at]).title);
        }
        Progress {
            text: format!("{figure} · {words}"),
            figure,
            words,
            title,
        }
    }
}

/// Two runs of one instance whose bounds differ, each its algorithm and
/// whether it combines packets (`sort`: the instance is a sort's): each
/// run in a few words and why the bounds differ. Combining (lmrr's option)
/// delivers the packets for one destination together, so its bound counts
/// one packet per destination; a sort's packets end where its algorithm
/// puts their keys (its own order), and so their distances differ.
pub fn names_apart(runs: [(&str, bool); 2], sort: bool) -> ([String; 2], &'static str) {
    let [(a, a_combines), (b, b_combines)] = runs;
    if a_combines != b_combines {
        let with = |name: &str, combines: bool| match combines {
            true => format!("{name} with combining"),
            false => format!("{name} without combining"),
        };
        let why = "combining delivers the packets for one destination together, so its bound counts one packet per \
                   destination";
        return ([with(a, a_combines), with(b, b_combines)], why);
    }
    let why = match sort {
        true => "a sort's packets go where its algorithm puts their keys",
        false => "",
    };
    ([a.to_string(), b.to_string()], why)
}

/// `x` with `digits` decimals, a tie rounded up (away from zero), as
/// JavaScript's `toFixed` writes it.
fn to_fixed(x: f64, digits: usize) -> String {
    // The exact decimal expansion of a double ends within 1100 digits.
    let exact = format!("{:.1100}", x.abs());
    let (int, frac) = exact.split_once('.').unwrap_or((&exact, ""));
    let tie_or_more = frac.as_bytes().get(digits).is_some_and(|&d| d >= b'5');
    let mut digits_all: Vec<u8> = int.bytes().chain(frac.bytes().take(digits)).collect();
    if tie_or_more {
        let mut i = digits_all.len();
        loop {
            if i == 0 {
                digits_all.insert(0, b'1');
                break;
            }
            i -= 1;
            if digits_all[i] == b'9' {
                digits_all[i] = b'0';
            } else {
                digits_all[i] += 1;
                break;
            }
        }
    }
    let text = String::from_utf8(digits_all).unwrap_or_default();
    let (int, frac) = text.split_at(text.len() - digits);
    let sign = if x < 0.0 && text.bytes().any(|b| b != b'0') {
        "-"
    } else {
        ""
    };
    match digits {
        0 => format!("{sign}{int}"),
        _ => format!("{sign}{int}.{frac}"),
    }
}

#[cfg(test)]
mod tests {
    use super::to_fixed;

    #[test]
    fn to_fixed_rounds_as_javascript_does() {
        assert_eq!(to_fixed(1.125, 2), "1.13");
        assert_eq!(to_fixed(1.005, 2), "1.00");
        assert_eq!(to_fixed(9.995, 2), "9.99");
        assert_eq!(to_fixed(9.999, 2), "10.00");
        assert_eq!(to_fixed(0.25, 1), "0.3");
        assert_eq!(to_fixed(16.0, 1), "16.0");
    }
}
