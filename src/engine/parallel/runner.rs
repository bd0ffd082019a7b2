//! The lanes' threads: the caller runs lane 0 and one thread of its own
//! runs each other lane, handed each stage of a step through an epoch
//! counter. A step has four or five such stages (the bids, the strays, the
//! commit and its deferred winners, a re-sort's gathers), each a few
//! microseconds to a few milliseconds long; a thread pool that puts its
//! threads to sleep between them, and moves the step itself onto one of
//! them, paid a wake-up per stage and two per step — a fifth of a
//! mesh:256x256 step at two threads. Here a lane's thread waits for the
//! next stage spinning, then yielding, and only after about a millisecond
//! without work (the run is over or paused) sleeps on a condition
//! variable, which the next stage signals.
//!
//! Every stage is scoped: [`Runner::run`] returns only when every lane has
//! finished it, so a stage may borrow the caller's data; a panic in any
//! lane is caught, the other lanes still finish, and the panic is raised
//! again in the caller.

use std::any::Any;
use std::cell::UnsafeCell;
use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// A stage: lane index to work.
type Job<'a> = dyn Fn(usize) + Sync + 'a;

/// Spins (with the CPU's pause hint) before a waiting lane yields.
const SPINS: u32 = 256;
/// How long a lane waits for the next stage before it sleeps.
const PATIENCE: Duration = Duration::from_millis(1);

/// What the caller and the lanes' threads share.
struct Shared {
    /// Bumped once per stage, after `job` is set.
    epoch: AtomicU64,
    /// The current stage's work, valid from an epoch's bump until every
    /// lane counted itself in `done` (its lifetime is the caller's scope).
    job: UnsafeCell<Option<*const Job<'static>>>,
    /// Lanes (threads) that finished the current stage.
    done: AtomicUsize,
    /// Threads asleep on `wake`.
    sleeping: AtomicUsize,
    lock: Mutex<()>,
    wake: Condvar,
    stop: AtomicBool,
    /// A panic of a lane's thread in the current stage.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
    /// Held by the caller for a whole stage: the engine's clones share the
    /// runner, and two of them stepping at once on different threads take
    /// their stages in turn.
    stage: Mutex<()>,
}

// SAFETY: `job` is written only by the caller between stages, while no
// lane reads it (every lane has counted itself done and waits for the
// next epoch), and read by the lanes only during a stage, while the
// caller waits; the epoch's release/acquire orders the two.
unsafe impl Sync for Shared {}
unsafe impl Send for Shared {}

/// The threads of lanes 1..threads.
pub(in crate::engine) struct Runner {
    shared: Arc<Shared>,
    threads: Vec<JoinHandle<()>>,
}

impl std::fmt::Debug for Runner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Runner({} lanes)", self.lanes())
    }
}

impl Runner {
    /// Lanes 1..lanes on threads of their own; `None` if a thread cannot
    /// be started (the step then stays sequential).
    pub(in crate::engine) fn new(lanes: usize) -> Option<Runner> {
        let shared = Arc::new(Shared {
            epoch: AtomicU64::new(0),
            job: UnsafeCell::new(None),
            done: AtomicUsize::new(0),
            sleeping: AtomicUsize::new(0),
            lock: Mutex::new(()),
            wake: Condvar::new(),
            stop: AtomicBool::new(false),
            panic: Mutex::new(None),
            stage: Mutex::new(()),
        });
        let mut runner = Runner {
            shared,
            threads: Vec::new(),
        };
        for lane in 1..lanes {
            let shared = Arc::clone(&runner.shared);
            let thread = std::thread::Builder::new()
                .name(format!("routesim-lane-{lane}"))
                .spawn(move || lane_loop(&shared, lane))
                .ok()?;
            runner.threads.push(thread);
        }
        Some(runner)
    }

    /// The number of lanes (the caller's included).
    pub(in crate::engine) fn lanes(&self) -> usize {
        self.threads.len() + 1
    }

    /// Runs `job(t)` for every lane t at once, lane 0 on the calling
    /// thread; returns when all have finished. A panic in a lane is raised
    /// here once every lane has finished.
    pub(in crate::engine) fn run(&self, job: &Job<'_>) {
        let s = &*self.shared;
        let _stage = s.stage.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: the lanes read the pointer only until they count
        // themselves done, and this function waits for all of them below,
        // so the borrow outlives every use.
        let erased: *const Job<'static> = unsafe { std::mem::transmute::<*const Job<'_>, *const Job<'static>>(job) };
        unsafe { *s.job.get() = Some(erased) };
        s.done.store(0, Ordering::Relaxed);
        s.epoch.fetch_add(1, Ordering::SeqCst);
        if s.sleeping.load(Ordering::SeqCst) > 0 {
            let _guard = s.lock.lock().unwrap_or_else(|e| e.into_inner());
            s.wake.notify_all();
        }
        let own = catch_unwind(AssertUnwindSafe(|| job(0)));
        let others = self.threads.len();
        let mut spins = 0u32;
        while s.done.load(Ordering::Acquire) < others {
            if spins < SPINS {
                std::hint::spin_loop();
                spins += 1;
            } else {
                std::thread::yield_now();
            }
        }
        unsafe { *s.job.get() = None };
        let lane_panic = s.panic.lock().unwrap_or_else(|e| e.into_inner()).take();
        if let Err(payload) = own {
            resume_unwind(payload);
        }
        if let Some(payload) = lane_panic {
            resume_unwind(payload);
        }
    }

    /// Calls `f(t, item t)` for every lane t at once (`items` yields one
    /// item per lane, e.g. the lanes zipped with their parts).
    pub(in crate::engine) fn for_each<T: Send>(
        &self,
        items: impl IntoIterator<Item = T>,
        f: impl Fn(usize, &mut T) + Sync,
    ) {
        let mut items: Vec<T> = items.into_iter().collect();
        assert_eq!(items.len(), self.lanes(), "one item per lane");
        struct Items<T>(*mut T);
        // SAFETY: lane t touches only items[t].
        unsafe impl<T: Send> Sync for Items<T> {}
        let base = Items(items.as_mut_ptr());
        let base = &base;
        self.run(&|t| f(t, unsafe { &mut *base.0.add(t) }));
    }
}

impl Drop for Runner {
    fn drop(&mut self) {
        let s = &*self.shared;
        s.stop.store(true, Ordering::SeqCst);
        {
            let _guard = s.lock.lock().unwrap_or_else(|e| e.into_inner());
            s.wake.notify_all();
        }
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}

/// A lane's thread: waits for each stage, runs its part, counts itself done.
fn lane_loop(s: &Shared, lane: usize) {
    let mut seen = 0u64;
    loop {
        let (mut spins, mut since) = (0u32, None::<Instant>);
        loop {
            let epoch = s.epoch.load(Ordering::Acquire);
            if epoch != seen {
                seen = epoch;
                break;
            }
            if s.stop.load(Ordering::Acquire) {
                return;
            }
            if spins < SPINS {
                std::hint::spin_loop();
                spins += 1;
                continue;
            }
            let start = *since.get_or_insert_with(Instant::now);
            if start.elapsed() < PATIENCE {
                std::thread::yield_now();
                continue;
            }
            // Asleep until the next stage (or the end): counted first, so
            // that a stage begun after the count is signalled, and one begun
            // before it is seen by the check under the lock.
            let mut guard = s.lock.lock().unwrap_or_else(|e| e.into_inner());
            s.sleeping.fetch_add(1, Ordering::SeqCst);
            while s.epoch.load(Ordering::SeqCst) == seen && !s.stop.load(Ordering::SeqCst) {
                guard = s.wake.wait(guard).unwrap_or_else(|e| e.into_inner());
            }
            s.sleeping.fetch_sub(1, Ordering::SeqCst);
            drop(guard);
            since = None;
            spins = 0;
        }
        // SAFETY: set before the epoch's bump, cleared only after every
        // lane counted itself done (see `Runner::run`).
        let job = unsafe { (*s.job.get()).expect("a stage's work") };
        let result = catch_unwind(AssertUnwindSafe(|| unsafe { (*job)(lane) }));
        if let Err(payload) = result {
            *s.panic.lock().unwrap_or_else(|e| e.into_inner()) = Some(payload);
        }
        s.done.fetch_add(1, Ordering::Release);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_lane_runs_each_stage_once_and_the_caller_waits_for_all() {
        for lanes in 1..=4 {
            let runner = Runner::new(lanes).expect("threads");
            let mut counts = vec![0u64; lanes];
            for stage in 0..2_000u64 {
                runner.for_each(counts.iter_mut(), |t, c| **c += stage + t as u64);
                if stage == 1_000 {
                    // Long enough for the lanes to fall asleep.
                    std::thread::sleep(Duration::from_millis(5));
                }
            }
            let sum: u64 = (0..2_000).sum();
            for (t, &c) in counts.iter().enumerate() {
                assert_eq!(c, sum + 2_000 * t as u64, "lane {t} of {lanes}");
            }
        }
    }

    #[test]
    fn two_callers_sharing_the_runner_take_their_stages_in_turn() {
        let runner = Arc::new(Runner::new(2).expect("threads"));
        let callers: Vec<_> = (0..2u64)
            .map(|c| {
                let runner = Arc::clone(&runner);
                std::thread::spawn(move || {
                    let mut v = vec![0u64; 2];
                    for _ in 0..5_000 {
                        runner.for_each(v.iter_mut(), |t, x| **x += c + t as u64);
                    }
                    v
                })
            })
            .collect();
        for (c, caller) in callers.into_iter().enumerate() {
            let c = c as u64;
            assert_eq!(caller.join().expect("no panic"), [5_000 * c, 5_000 * (c + 1)]);
        }
    }

    #[test]
    fn a_panic_in_a_lane_reaches_the_caller_after_every_lane_finished() {
        let runner = Runner::new(3).expect("threads");
        let finished = AtomicUsize::new(0);
        let result = catch_unwind(AssertUnwindSafe(|| {
            runner.run(&|t| {
                if t == 2 {
                    panic!("lane 2 fails");
                }
                std::thread::sleep(Duration::from_millis(2));
                finished.fetch_add(1, Ordering::SeqCst);
            })
        }));
        assert!(result.is_err());
        assert_eq!(finished.load(Ordering::SeqCst), 2, "lanes 0 and 1 finished first");
        // The runner still works after it.
        let mut v = vec![0; 3];
        runner.for_each(v.iter_mut(), |t, x| **x = t);
        assert_eq!(v, [0, 1, 2]);
    }
}
