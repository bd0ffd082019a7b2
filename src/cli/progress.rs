//! Progress on stderr (issue #29 item 5): `run`, `load` and `sweep` draw an
//! indicatif bar only for a person watching a terminal (stderr a terminal,
//! not CI), and `run` and `load` only once the work has taken about a
//! second; never anything on stdout, and never a change to a result.

use crate::simulation::{Simulation, Status};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::time::{Duration, Instant};

/// How long a `run` or `load` goes before its bar appears.
const QUIET: Duration = Duration::from_secs(1);

/// Steps simulated between two looks at the clock.
const CHUNK: u32 = 8;

/// Whether to draw a progress bar: only for a person watching a terminal.
pub(super) fn wanted() -> bool {
    let ci = std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "false" && v != "0");
    std::io::stderr().is_terminal() && !ci
}

/// A bar of `len` on stderr with `template`, or a hidden one.
pub(super) fn bar(len: u64, template: &str) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}

/// A bar that appears only once the work has taken [`QUIET`] and only when
/// [`wanted`].
pub(super) struct Late {
    start: Instant,
    len: u64,
    template: &'static str,
    shown: Option<ProgressBar>,
    wanted: bool,
}

impl Late {
    pub(super) fn new(len: u64, template: &'static str) -> Late {
        Late {
            start: Instant::now(),
            len,
            template,
            shown: None,
            wanted: wanted(),
        }
    }

    /// Sets the position and message, drawing the bar once it is due.
    pub(super) fn update(&mut self, position: u64, message: impl FnOnce(f64) -> String) {
        if !self.wanted || self.start.elapsed() < QUIET {
            return;
        }
        let (len, template, since) = (self.len, self.template, self.start.elapsed());
        // Its clock from the work's start, not from when it is first drawn.
        let bar = self.shown.get_or_insert_with(|| bar(len, template).with_elapsed(since));
        // The message first: a new bar draws at once, and drew ", ," before it.
        bar.set_message(message(since.as_secs_f64()));
        bar.set_position(position);
    }

    /// Clears the bar, if it was drawn.
    pub(super) fn finish(self) {
        if let Some(bar) = self.shown {
            bar.finish_and_clear();
        }
    }
}

/// Runs `sim` to the end as [`Simulation::run`] does, with a bar of the
/// packets delivered, the step and the packet-hops per second.
pub(super) fn run(sim: &mut Simulation) -> Status {
    let mut late = Late::new(
        u64::from(sim.engine().packet_count()),
        "{elapsed_precise} [{bar:40}] {pos}/{len} delivered, {msg}, eta {eta}",
    );
    if !late.wanted {
        return sim.run();
    }
    while sim.status() == Status::Running {
        sim.run_steps(CHUNK);
        let engine = sim.engine();
        let (step, hops) = (engine.step_count(), engine.stats().packet_hops);
        late.update(u64::from(engine.delivered()), |seconds| {
            format!("step {step}, {:.1} M hops/s", hops as f64 / seconds / 1e6)
        });
    }
    late.finish();
    sim.status()
}
