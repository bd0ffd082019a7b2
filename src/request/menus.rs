//! What the page's menus offer and how a change is made runnable: which
//! algorithms accept the network, which workloads fit, and the switches
//! [`RunSpec::reconcile`] makes (one message line each).

use super::{RunSpec, BROWSER_DEFAULT_WORKLOAD};
use crate::algorithms::{Entry, REGISTRY};
use crate::engine::Policy;
use crate::error::{Error, Result};
use crate::options::Field;
use crate::workload::Workload;

/// Whether one choice of a menu can run, and why not.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Choice {
    /// The SPEC name.
    pub name: &'static str,
    /// Whether it can run with the rest of the request.
    pub ok: bool,
    /// Why not (empty when it can).
    pub reason: String,
    /// In the experiment's menu: one of the few ticked at first
    /// ([`RunSpec::experiment_choices`]); left out elsewhere.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub preset: bool,
}

/// The most algorithms the experiment ticks at first: a sweep of more
/// draws more curves than a reader can tell apart.
pub const EXPERIMENT_PRESET: usize = 4;

/// The page's menus for a request: one [`Choice`] per algorithm, policy and workload.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Menus {
    /// Every algorithm: whether it accepts the network (and loaded instance).
    pub algorithms: Vec<Choice>,
    /// Every policy: whether the algorithm takes it.
    pub policies: Vec<Choice>,
    /// Every workload (none with a loaded instance or no network): whether
    /// it can be generated there and the algorithm routes it.
    pub workloads: Vec<Choice>,
}

fn choice(name: &'static str, result: Result<()>) -> Choice {
    Choice {
        name,
        ok: result.is_ok(),
        reason: result.err().map(|e| e.to_string()).unwrap_or_default(),
        preset: false,
    }
}

impl RunSpec {
    /// The request's fields as a JSON config object (keys as [`Field::json`];
    /// absent options left out, a loaded instance too): what
    /// [`RunSpec::from_json`] reads back.
    pub fn to_json(&self) -> serde_json::Value {
        let mut out = serde_json::Map::new();
        for field in Field::ALL {
            let value = match field {
                Field::Instance | Field::CheckInvariants => continue,
                Field::Topology if self.instance.is_some() => continue,
                Field::Topology => self.topology.as_ref().map(|t| serde_json::json!(t.to_string())),
                Field::Workload => self.workload.map(|w| serde_json::json!(w.name())),
                Field::L => self.l.map(|v| serde_json::json!(v)),
                Field::K => self.k.map(|v| serde_json::json!(v)),
                Field::Hotspot => self.hotspot.map(|v| serde_json::json!(v)),
                Field::QueueCap => self.queue_cap.map(|v| serde_json::json!(v)),
                Field::Seed => Some(serde_json::json!(self.seed)),
                Field::MaxSteps => Some(serde_json::json!(self.max_steps)),
                Field::EdgeQueues => Some(serde_json::json!(self.edge_queues)),
                Field::Algorithm | Field::Policy => Some(serde_json::json!(self.value_of(field))),
                // The algorithms' options (their rows), left out at their defaults.
                option => option.info().access.and_then(|a| (a.json)(&self.options)),
            };
            if let Some(v) = value {
                out.insert(field.json().to_string(), v);
            }
        }
        serde_json::Value::Object(out)
    }

    /// Makes the network one the algorithm runs on, if it is not: the
    /// first of the algorithm's kinds whose size the page gives it
    /// ([`crate::topology::Kind::default_size`]) it takes. A loaded instance, or an
    /// algorithm no such network fits, is left as it is.
    pub fn fit_network_to_algorithm(&mut self) {
        if self.instance.is_some() || self.accepts(self.algorithm).is_ok() {
            return;
        }
        let fits = self.algorithm.kinds.iter().find_map(|kind| {
            let topology = kind.default_topology()?;
            self.algorithm.check_topology(&topology).ok().map(|()| topology)
        });
        if let Some(topology) = fits {
            self.topology = Some(topology);
        }
    }

    /// Makes the request runnable after the algorithm menu's change: the
    /// algorithm leads. A network it cannot run on becomes the first of its
    /// kinds at the page's size ([`RunSpec::fit_network_to_algorithm`], as
    /// an address naming only the algorithm), said in a line; then
    /// [`RunSpec::reconcile`], where a workload of the other problem
    /// (routing or sorting) follows the algorithm. Returns one line per
    /// switch. (The page's menu offers every algorithm: one that a
    /// headless test or a student picks is never a disabled option.)
    pub fn reconcile_to_algorithm(&mut self) -> Vec<String> {
        let before = self.topology().cloned();
        self.fit_network_to_algorithm();
        let mut messages = Vec::new();
        if let (Some(before), Some(after)) = (before, self.topology()) {
            if &before != after {
                messages.push(format!(
                    "{} does not run on {before} — the network switched to {after}.",
                    self.algorithm.name
                ));
            }
        }
        // A k no workload can be routed with here (ks-level routes an even
        // k; the default is 1): k = 2, said, then the workload follows.
        if let (None, Some(current)) = (&self.instance, self.workload) {
            if let Err(e) = self.workload_fits(current) {
                let mut even = self.clone();
                even.k = Some(2);
                if self.fitting_workload().is_none() && even.fitting_workload().is_some() {
                    messages.push(format!("{} — k switched to 2.", sentence(&e)));
                    self.k = Some(2);
                }
            }
        }
        messages.extend(self.reconcile());
        messages
    }

    /// Whether `entry` accepts this request's network (and loaded instance).
    fn accepts(&self, entry: &Entry) -> Result<()> {
        match (&self.instance, self.topology()) {
            (Some(instance), _) => entry.check_instance(instance),
            (None, Some(topology)) => entry.check_topology(topology),
            (None, None) => Ok(()),
        }
    }

    /// Whether `workload` can be generated on the network and routed by the algorithm.
    fn workload_fits(&self, workload: Workload) -> Result<()> {
        let instance = self.generated(workload)?;
        self.algorithm.check_instance(&instance)
    }

    /// The instance `workload` generates on the request's network.
    fn generated(&self, workload: Workload) -> Result<crate::workload::Instance> {
        let mut spec = self.clone();
        spec.workload = Some(workload);
        spec.instance = None;
        spec.instance()
    }

    /// The generated instance of the request's workload, when it has one
    /// that builds: what decides the problem (sorting or routing) the
    /// algorithm menu offers algorithms for.
    fn problem(&self) -> Option<crate::workload::Instance> {
        match (&self.instance, self.workload) {
            (None, Some(w)) => self.generated(w).ok(),
            _ => None,
        }
    }

    /// Whether `entry` accepts the network and solves `problem` (a sort or
    /// a routing instance; the registry's refusal when not).
    fn accepts_for(&self, entry: &Entry, problem: Option<&crate::workload::Instance>) -> Result<()> {
        self.accepts(entry)?;
        problem.map_or(Ok(()), |instance| entry.check_problem(instance))
    }

    /// The algorithm choosing `workload` switches to when the request's
    /// algorithm poses the other problem (it sorts and the workload is a
    /// routing one, or the other way round): the first in the registry
    /// that runs the workload on the network. `None` when the algorithm
    /// solves its problem, or no algorithm runs it here.
    fn problem_switch(&self, workload: Workload) -> Option<(&'static Entry, Error)> {
        let instance = self.generated(workload).ok()?;
        let refusal = self.algorithm.check_problem(&instance).err()?;
        Some((self.runner(&instance)?, refusal))
    }

    /// The first algorithm in the registry that runs `instance` on the network.
    fn runner(&self, instance: &crate::workload::Instance) -> Option<&'static Entry> {
        REGISTRY
            .iter()
            .find(|e| self.accepts(e).is_ok() && e.check_instance(instance).is_ok())
    }

    /// The first workload (the page's default, then [`Workload::ALL`]) that
    /// can be generated on the network and the algorithm routes.
    fn fitting_workload(&self) -> Option<Workload> {
        std::iter::once(BROWSER_DEFAULT_WORKLOAD)
            .chain(Workload::ALL)
            .find(|&w| self.workload_fits(w).is_ok())
    }

    /// The page's menus: every algorithm, whether it accepts the network
    /// (and loaded instance); every policy, whether the algorithm takes it;
    /// every workload, whether it can be generated on the network and the
    /// algorithm routes it.
    pub fn menus(&self) -> Menus {
        let problem = self.problem();
        let algorithms = REGISTRY
            .iter()
            .map(|e| choice(e.name, self.accepts_for(e, problem.as_ref())))
            .collect();
        let policies = Policy::ALL
            .iter()
            .map(|&p| choice(p.name(), self.algorithm.check_policy(p)))
            .collect();
        let workloads = if self.topology.is_some() && self.instance.is_none() {
            Workload::ALL
                .iter()
                .map(|&w| choice(w.name(), self.workload_choice(w)))
                .collect()
        } else {
            Vec::new()
        };
        Menus {
            algorithms,
            policies,
            workloads,
        }
    }

    /// The page's experiment menu: every algorithm, whether it accepts the
    /// network and (with a generated workload) routes this workload there,
    /// and the few ticked at first (`preset`): the request's algorithm, then
    /// those of [`crate::algorithms::EXPERIMENT_ORDER`] that can run, up to
    /// [`EXPERIMENT_PRESET`] in all.
    pub fn experiment_choices(&self) -> Vec<Choice> {
        let mut choices = self.experiment_verdicts();
        let order = std::iter::once(self.algorithm.name)
            .chain(crate::algorithms::EXPERIMENT_ORDER.iter().map(|e| e.name))
            .chain(REGISTRY.iter().map(|e| e.name));
        let mut ticked = 0;
        for name in order {
            if ticked == EXPERIMENT_PRESET {
                break;
            }
            if let Some(c) = choices.iter_mut().find(|c| c.name == name && c.ok && !c.preset) {
                c.preset = true;
                ticked += 1;
            }
        }
        choices
    }

    /// Whether each algorithm can run in the experiment (see [`RunSpec::experiment_choices`]).
    fn experiment_verdicts(&self) -> Vec<Choice> {
        REGISTRY
            .iter()
            .map(|e| {
                let result = self.accepts(e).and_then(|()| {
                    let mut spec = self.clone();
                    spec.algorithm = e;
                    if let (true, Some(w)) = (self.instance.is_none() && self.topology.is_some(), self.workload) {
                        spec.workload_fits(w)?;
                    }
                    // And the run's options: the experiment runs every
                    // point with them (`--unknown-lk` ticked greedy, whose
                    // every run was then refused; the experiment audit of
                    // 2026-12-01).
                    spec.validate()
                });
                choice(e.name, result)
            })
            .collect()
    }

    /// Whether the workload menu offers `workload`: it can be generated on
    /// the network and the algorithm routes it, or it poses the other
    /// problem (sorting against routing) and choosing it switches the
    /// algorithm ([`RunSpec::reconcile_to_workload`]).
    fn workload_choice(&self, workload: Workload) -> Result<()> {
        self.workload_fits(workload)
            .or_else(|e| self.problem_switch(workload).map(|_| ()).ok_or(e))
    }

    /// Makes the request runnable after its workload was chosen: an
    /// algorithm that poses the other problem (a routing algorithm with a
    /// `sort-*` workload, a sorting one with a routing workload) becomes the
    /// first in the registry that runs the workload on the network, said in
    /// one line; then [`RunSpec::reconcile`].
    ///
    /// From the page's workload menu, which offers every workload, the
    /// workload leads further ([`RunSpec::fit_to_workload`]): a network it
    /// cannot be generated on (or that no algorithm routes it on) becomes
    /// one it can, and an algorithm that does not route it there becomes
    /// one that does. (An address naming a workload takes
    /// [`RunSpec::reconcile_to_workload_noted`] alone: the network it
    /// names is kept.)
    pub fn reconcile_to_workload(&mut self) -> Vec<String> {
        let mut messages = self.fit_to_workload();
        messages.extend(lines(self.reconcile_to_workload_noted()));
        messages
    }

    /// The workload menu's choice leads: where the workload cannot be
    /// generated, or no algorithm routes it, the network becomes the first
    /// kind (meshes, then tori, then the rest in `list`'s order) at the
    /// page's size where it can and one does; then an algorithm of the same
    /// problem that does not route it (pp on `random-destinations`) becomes
    /// the first in the registry that does. One line per switch; a loaded
    /// instance is left as it is.
    pub fn fit_to_workload(&mut self) -> Vec<String> {
        use crate::topology::Kind;
        let (None, Some(workload)) = (&self.instance, self.workload) else {
            return Vec::new();
        };
        let runner = |spec: &RunSpec| spec.runner(&spec.generated(workload).ok()?);
        let mut messages = Vec::new();
        let why = match self.generated(workload) {
            Err(e) => Some(sentence(&e)),
            Ok(instance) => self.runner(&instance).is_none().then(|| {
                format!(
                    "No algorithm routes {workload} on {}",
                    self.topology().map_or_else(String::new, |t| t.to_string())
                )
            }),
        };
        if let Some(why) = why {
            let kinds = [Kind::Mesh, Kind::Torus].into_iter().chain(Kind::ALL);
            let fits = kinds.filter_map(Kind::default_topology).find(|t| {
                let mut spec = self.clone();
                spec.topology = Some(t.clone());
                runner(&spec).is_some()
            });
            if let Some(topology) = fits {
                messages.push(format!("{why} — the network switched to {topology}."));
                self.topology = Some(topology);
            }
        }
        if let (Err(e), None) = (self.workload_fits(workload), self.problem_switch(workload)) {
            if let Some(next) = runner(self) {
                messages.push(format!("{} — switched to {}.", sentence(&e), next.name));
                self.algorithm = next;
            }
        }
        messages
    }

    /// [`RunSpec::reconcile_to_workload`], each line with the field it switched.
    pub fn reconcile_to_workload_noted(&mut self) -> Vec<(Field, String)> {
        let mut messages = Vec::new();
        if let (None, Some(workload)) = (&self.instance, self.workload) {
            if let Some((next, refusal)) = self.problem_switch(workload) {
                messages.push((
                    Field::Algorithm,
                    format!("{} — switched to {}.", sentence(&refusal), next.name),
                ));
                self.algorithm = next;
            }
        }
        messages.extend(self.reconcile_noted());
        messages
    }

    /// Makes the request runnable after a change: an algorithm that cannot
    /// run on the network becomes the first in the registry that can
    /// (one that solves the workload's problem, sorting or routing, if one
    /// can), a
    /// refused policy becomes `farthest-first`, worms (`flits`) the
    /// algorithm or the queues refuse are dropped, and a workload that cannot be
    /// generated there or routed by the algorithm becomes the first that can
    /// (`random-permutation` if it can); smearing is switched off for an
    /// algorithm that does not smear. Returns one line per switch.
    pub fn reconcile(&mut self) -> Vec<String> {
        lines(self.reconcile_noted())
    }

    /// [`RunSpec::reconcile`], each line with the field it switched (the
    /// page's address says only the switches of fields it names).
    pub fn reconcile_noted(&mut self) -> Vec<(Field, String)> {
        let mut messages = Vec::new();
        if let Err(e) = self.accepts(self.algorithm) {
            let problem = self.problem();
            let next = REGISTRY
                .iter()
                .find(|e| self.accepts_for(e, problem.as_ref()).is_ok())
                .or_else(|| REGISTRY.iter().find(|e| self.accepts(e).is_ok()));
            if let Some(next) = next {
                messages.push((
                    Field::Algorithm,
                    format!("{} — switched to {}.", sentence(&e), next.name),
                ));
                self.algorithm = next;
            }
        }
        for (field, _, takers) in self.unread_options() {
            self.reset_option(field);
            messages.push((
                field,
                format!(
                    "{} applies only to {takers} — dropped for {}.",
                    field.cli(),
                    self.algorithm.name
                ),
            ));
        }
        if let Err(e) = self.algorithm.check_policy(self.policy) {
            messages.push((Field::Policy, format!("{} — switched to farthest-first.", sentence(&e))));
            self.policy = Policy::FarthestFirst;
        }
        if let Err(e) = self.algorithm.check_options(&self.algorithm_options()) {
            messages.push((Field::Smear, format!("{} — smearing switched off.", sentence(&e))));
            self.options.smear = None;
        }
        if let Some(flits) = self.options.flits {
            let refused =
                crate::simulation::check_flits(flits, self.queue_cap).and_then(|()| self.algorithm.check_flits(flits));
            if let Err(e) = refused {
                messages.push((
                    Field::Flits,
                    format!("{} — flits dropped (store-and-forward).", sentence(&e)),
                ));
                self.options.flits = None;
            }
        }
        if let (None, Some(current)) = (&self.instance, self.workload) {
            // An ℓ or k the workload cannot be generated with (too many
            // packets, more than the network's sources): back to its
            // default, the workload kept (SPEC §7: the bad parameter is
            // named and its default used). A workload the algorithm cannot
            // route is switched below.
            if let Err(e) = self.generated(current) {
                for field in [Field::K, Field::L] {
                    let mut reset = self.clone();
                    let value = match field {
                        Field::L => reset.l.take(),
                        _ => reset.k.take(),
                    };
                    if let Some(value) = value.filter(|_| reset.workload_fits(current).is_ok()) {
                        messages.push((
                            field,
                            format!("{} — {}={value} reset to its default.", sentence(&e), field.cli()),
                        ));
                        *self = reset;
                        break;
                    }
                }
            }
            if let Err(e) = self.workload_fits(current) {
                if let Some(next) = self.fitting_workload() {
                    messages.push((
                        Field::Workload,
                        format!("{} — switched to workload {}.", sentence(&e), next),
                    ));
                    self.workload = Some(next);
                }
            }
        }
        messages
    }
}

impl RunSpec {
    /// The algorithm options set that this request's algorithm does not
    /// take: (field, its value as shown, the algorithms that take it). The
    /// CLI's `run` notes them on stderr; [`RunSpec::reconcile`] drops them.
    /// `locality`, also the workloads' parameter, is not among them: it is
    /// noted with those ([`RunSpec::unread_fields`]) and kept.
    pub fn unread_options(&self) -> Vec<(Field, String, String)> {
        option_fields()
            .into_iter()
            .filter(|&f| f != Field::Locality && !self.algorithm.options.contains(&f))
            .filter_map(|f| Some((f, self.option_given(f)?, takers(f))))
            .collect()
    }

    /// The value of algorithm option `f` as the user set it, shown as the
    /// CLI takes it (`true`, `8`), or `None` where it is not set.
    pub(super) fn option_given(&self, f: Field) -> Option<String> {
        let access = f.info().access?;
        (access.json)(&self.options)?;
        Some((access.show)(&self.options))
    }
}

/// Every field that is some algorithm's option, once each.
fn option_fields() -> Vec<Field> {
    let mut out: Vec<Field> = Vec::new();
    for &o in REGISTRY.iter().flat_map(|e| e.options) {
        if !out.contains(&o) {
            out.push(o);
        }
    }
    out
}

/// The algorithms that take `field`, as a list of names.
fn takers(field: Field) -> String {
    crate::algorithms::registry::takers(field).join(", ")
}

/// The lines of noted switches.
fn lines(noted: Vec<(Field, String)>) -> Vec<String> {
    noted.into_iter().map(|(_, line)| line).collect()
}

/// An error as the start of a sentence.
fn sentence(e: &Error) -> String {
    let text = e.to_string();
    let mut chars = text.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().collect::<String>() + chars.as_str())
        .unwrap_or_default()
}
