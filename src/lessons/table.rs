//! The lessons themselves, in the order of the page's menu, and the
//! default view ([`INTRO`]). Each lesson names the algorithms it opens, so
//! this is the third of the three files where an algorithm's name may be
//! spelled (its family's module, the registry table, the lessons).

use super::{preset, Check, Guess, Lesson, LoadCheck, LoadPreset, Predict, Relation, OWN};
use crate::algorithms::claim::{join, Claim, Formula, KsTheorem, Measure, Scope, Strength};
use crate::algorithms::papers::{HYPERCUBE_LECTURE, KAUFMANN_SIBEYN, LECTURE, PP};
use crate::engine::Policy;
use crate::palette::word;
use crate::request::Field;
use crate::workload::Workload;

/// Both runs' own claims, and the main run needs more steps than the one beside it.
const BOTH_MORE_STEPS: Check = OWN.and_second_own().and(Relation::MoreSteps);

/// The main run's own claims, and its largest queue smaller than the run's beside it.
const OWN_SMALLER_QUEUE: Check = OWN.and(Relation::SmallerQueue);

/// The main run's own claims, and the time–space trade-off against the run beside it.
const OWN_TRADE_OFF: Check = OWN.and(Relation::TradeOff);

/// greedy's queue on `greedy-worst` (the lesson's claim; not a registry claim:
/// it is a property of the workload under greedy).
const GREEDY_WORST_QUEUE: Claim = Claim {
    name: "the worst-case queue",
    text: "on this permutation greedy's queue at one node grows to 2⌊(n − 2)/3⌋ + 1, about 2n/3: linear in the side",
    scope: Scope::Mesh2d,
    permutation: true,
    instance: Some(Workload::GreedyWorst),
    separated: false,
    policy: Some(Policy::FarthestFirst),
    measure: Measure::MaxQueue,
    strength: Strength::Exact,
    formula: Formula::GreedyWorstQueue,
};

/// Every lesson, in the order of the page's menu.
pub const LESSONS: &[Lesson] = &[
    Lesson {
        id: "lemma2-linear",
        title: "Lemma 2: farthest-first on a linear array, exactly",
        text: "On a linear array, packets moving right never meet packets moving left (every link is two directed \
               links), and farthest-first lets the packet with the longest way to go cross first. Kaufmann and \
               Sibeyn prove that the time is then exactly T = max over i < j of (j − i + h(i, j)), where \
               h(i, j) + 1 packets start at or left of node i and end at or right of node j: the last of them \
               travels j − i links and waits one step for each packet ahead of it. Watch the run end at exactly T. \
               Here T is also the instance's lower bound: no algorithm could be faster.",
        paper: KAUFMANN_SIBEYN,
        section: "§5.1.1 (Lemma 2)",
        preset: preset("linear:32", "random-kk", "greedy", 30).lk(None, Some(4)),
        check: OWN,
        load: None,
        predict: Some(Predict {
            measure: Guess::Steps,
            question: "Before you play: how many steps will this run take? (32 nodes, 4 packets from and to each)",
        }),
    },
    Lesson {
        id: "greedy-bounds",
        title: "Greedy routing: 2n − 2 steps, optimal in time",
        text: "Greedy (XY) routing sends every packet along its row to its destination column, then along the \
               column. With farthest-first contention the lecture proves that every permutation of an n × n mesh \
               is routed within 2n − 2 steps — the mesh's diameter, so no algorithm can promise better for every \
               permutation. Here n = 16: at most 30 steps. The catch is space: queues are not bounded by a \
               constant (see the lesson on greedy's worst case).",
        paper: LECTURE,
        section: "XY greedy permutation routing in 2-D mesh (Lemma)",
        preset: preset("mesh:16x16", "random-permutation", "greedy", 30),
        check: OWN,
        load: None,
        predict: None,
    },
    Lesson {
        id: "greedy-worst",
        title: "Greedy's worst case: a queue that grows with the side",
        text: "Optimal in time is not optimal in space. In this permutation (our construction of the lecture's \
               worst case: the lecture's own figure of it is lost) streams of packets from the left, the right and above all turn \
               into one column at the same node, faster than it can pass them on. Its queue grows to \
               2⌊(n − 2)/3⌋ + 1 packets — about 2n/3, linear in the side, under every policy — while the run \
               still ends within 2n − 2 steps. Watch the node whose fill turns darkest, and hover it to see its queue.",
        paper: LECTURE,
        section: "XY greedy permutation routing in 2-D mesh: the worst buffer-size scenario",
        preset: preset("mesh:16x16", "greedy-worst", "greedy", 38),
        check: Check {
            own: true,
            claims: &[GREEDY_WORST_QUEUE],
            compare_own: false,
            relation: None,
            stall: false,
        },
        load: None,
        predict: Some(Predict {
            measure: Guess::MaxQueue,
            question:
                "Before you play: how many packets will the fullest queue hold at its largest, on this 16 × 16 mesh?",
        }),
    },
    Lesson {
        id: "bitfix-vs-valiant",
        title: "Bit fixing against Valiant's random detour",
        text: join!(
            "Bit fixing is optimal for one packet, but it is deterministic and oblivious, and for every such \
               scheme some permutation needs Ω(",
            Formula::SqrtNOverD.spelled(),
            ") steps. The transpose is one: all packets whose destinations \
               share their high bits pass through the same node. Valiant's trick sends every packet to a random \
               node first and only then to its destination: two random-looking permutations, each done within 4D \
               steps with high probability. First bit fixing, then Valiant, on the same transpose of a \
               4096-node hypercube."
        ),
        paper: HYPERCUBE_LECTURE,
        section: "Bit Fixing; Randomized Routing",
        preset: preset("hypercube:12", "transpose", "bit-fixing", 30).beside("valiant"),
        check: BOTH_MORE_STEPS,
        load: None,
        predict: Some(Predict {
            measure: Guess::Steps,
            question: "Before you play: how many steps will bit fixing (the first run) need for the transpose of this \
                       4096-node hypercube? (Its diameter is 12.)",
        }),
    },
    Lesson {
        id: "sort-route",
        title: "Routing by sorting: no buffers",
        text: "If the packets are first sorted by destination column, no row holds two packets for the same \
               column, and rows and then columns route without any contention — on a full permutation the sort \
               (with every second column reversed) leaves every packet in its own column already, so this run \
               has no row phase (a packet that starts at its destination is delivered at step 0 and takes no \
               part in the sort; where there are some, a row phase of one step moves the few packets they \
               displace: seed 2 has one) and the columns route: no node ever needs room for more than a few packets (queues ≤ 3). The price is the sort: rounds of compare-exchanges between \
               neighbours (the keys cross, then the packets swap, while the next round's keys cross on other \
               links: about one step a round), and the snake merge sort takes 7n − 9 − log₂ n steps (99 here) \
               against the lecture's assumed 3n + o(n): the 3n sorts pay for their o(n) with sorts of large \
               blocks and are slower at every size a browser runs. Reversing every second column is a phase of \
               its own (14 steps here), then the columns route (15): 128 in all. Packets arrive only after the \
               sort.",
        paper: LECTURE,
        section: "Sorting-based permutation routing",
        preset: preset("mesh:16x16", "random-permutation", "sort-route", 30),
        check: OWN,
        load: None,
        predict: None,
    },
    Lesson {
        id: "offline-hall",
        title: "Off-line routing in 3n − 3 steps (Hall's theorem)",
        text: "When the permutation is known in advance it can be planned. The packets' source and destination \
               columns form a regular bipartite multigraph, which Hall's theorem splits into perfect matchings; \
               the i-th matching says which packet each column sends to row i. After permuting within the \
               columns no row holds two packets for the same column, so rows and then columns route without \
               contention: at most 3n − 3 steps, with queues of at most 3. The planning is off-line and not \
               charged. Open the plan's bipartite graph G_π under this panel: its perfect matchings, one colour \
               each; choose one to ring its packets on the network and watch them reach its row.",
        paper: LECTURE,
        section: "Off-line permutation routing (Lemma, Hall's theorem)",
        preset: preset("mesh:16x16", "random-permutation", "offline", 30),
        check: OWN,
        load: None,
        predict: None,
    },
    Lesson {
        id: "pp-constant-queues",
        title: "Constant queues at a constant factor (Pietracaprina–Pucci)",
        text: "In (ℓ,k)-routing every node sends at most ℓ and receives at most k packets, and about √(ℓkN) steps \
               can be necessary. On this worst case (k packets for every node of a corner square) greedy, the second run, \
               is fast, but its queues grow with the mesh. Pietracaprina and Pucci route every (ℓ,k) \
               instance in O(√(ℓkN)) steps with queues of constant size — colour classes, sorts, tiles and tours. \
               Watch the largest queue of each: pp-rand's stays at a handful while greedy's climbs; then see the \
               constant factor pp-rand pays in time (Run to end): about 9.5 × √(ℓkN) here (2,443 steps against \
               √(ℓkN) = 256), where greedy needs less than one.",
        paper: PP,
        section: "§3 (Theorem 2)",
        preset: preset("mesh:64x64", "worst-lk", "pp-rand", 30).lk(Some(4), Some(4)).beside("greedy"),
        check: OWN_SMALLER_QUEUE,
        load: None,
        predict: None,
    },
    super::pp::PP_DET_COLOURING,
    Lesson {
        id: "deadlock",
        title: "Why constant queues are hard: a deadlock with queues of 1",
        text: "Greedy routes the transpose of this 6 × 6 mesh in 10 steps when a node may hold two packets in \
               transit. Here every node holds at most q = 1: a full node refuses a packet passing through, which \
               then waits where it is, keeping its own node full. Watch the middle of the mesh: around step 14 four \
               nodes are full and the packet in each wants the next — a wait-for cycle, drawn on the network. None \
               of them can ever move, and the run stalls with packets undelivered (the line under the counters names the cycle). \
               Greedy lets packets wait for each other in any pattern; Pietracaprina and Pucci keep queues of \
               constant size by never letting them: they split the packets into classes of low congestion and move \
               them with sorts, prefix sums and tours inside tiles, schedules in which every node receives a number \
               of packets proportional to its tile, so no working queue ever holds more than a constant (§3, \
               Theorem 2). Their constant is small, but it is not 1. Set q to 2 and run again: greedy finishes.",
        paper: PP,
        section: "§1–§3 (constant queue size, Theorem 2)",
        preset: preset("mesh:6x6", "transpose", "greedy", 30).with(&[(Field::QueueCap, "1")]),
        check: Check {
            own: false,
            claims: &[],
            compare_own: false,
            relation: None,
            stall: true,
        },
        load: None,
        predict: None,
    },
    Lesson {
        id: "ks-nowrap",
        title: "k-k routing near the bisection bound (Kaufmann–Sibeyn NoWrapRoute)",
        text: join!(
            "Every node sends k = 8 packets and receives 8. On this instance (k-PR, the point reflection) every \
               packet must cross the mesh's middle, so at least kn/2 = 128 steps are needed: the bisection bound. \
               Greedy, the second run, pushes each row's packets through one column at a time and needs about kn. \
               NoWrapRoute gives every packet a random colour: ",
            word(0),
            " packets first move to a random row of their column, then along the row, then along the column; ",
            word(1),
            " packets do the same 90° out of phase, so at every step both colours use different links. \
               Theorem 2 promises ",
            KsTheorem::Theorem2.text(),
            " plus \
               a lower-order O(√(kn log n)) term; the panel shows that term measured. The price is queues: \
               compare the largest queue of each."
        ),
        paper: KAUFMANN_SIBEYN,
        section: "§7.1 (Theorem 2)",
        preset: preset("mesh:32x32", "point-reflection", "ks-nowrap", 30).lk(None, Some(8)).beside("greedy"),
        check: OWN_TRADE_OFF,
        load: None,
        predict: None,
    },
    Lesson {
        id: "ks-wrap-torus",
        title: "The torus halves the bound: WrapRoute and kn/4",
        text: join!(
            "With wrap-around links every cut of the torus is crossed by twice as many links as the mesh's, and \
               a packet never needs to go more than n/2 along a ring: k-k routing needs about kn/4 steps, not kn/2 \
               (here k = 16, n = 32: 128). WrapRoute sends every packet to a random node first (a random column \
               along its row, a random row along its column), then to its destination column and row, the two \
               colours (",
            word(0),
            " and ",
            word(1),
            ") out of phase. Theorem 7 promises ",
            KsTheorem::Theorem7.text(),
            " plus O(√(kn log n)) — at n = 32 that \
               lower-order term is still large; the panel measures its constant. Greedy, the second run, keeps \
               smaller queues but needs more steps on this point reflection."
        ),
        paper: KAUFMANN_SIBEYN,
        section: "§8.1 (Theorem 7)",
        preset: preset("torus:32x32", "point-reflection", "ks-wrap", 30).lk(None, Some(16)).beside("greedy"),
        check: OWN_TRADE_OFF,
        load: None,
        predict: None,
    },
    Lesson {
        id: "ks-smear",
        title: "Queue smearing: what Theorem 6 bounds (Kaufmann–Sibeyn §7.5)",
        text: "Randomizing spreads the k packets per node evenly on average, but not exactly: when a phase of \
               NoWrapRoute ends, some node may hold k + O(√(k log n)) packets. Kaufmann and Sibeyn smear them out: \
               after every phase the packets of m = k·log n adjacent nodes are spread evenly over them (the bands \
               smear1 and smear2; here m = ⌈4·log₂ 32⌉ = 20), at the cost of O(m) extra steps. Theorem 6: a node \
               then holds k + O(1) packets when a phase opens — here at most 6 = k + 2, where without smearing \
               (option smear set to 1) one held 13 — for 153 steps instead of 93. The panel's Theorem 6 line measures it. \
               The theorem says the queues can be bounded to k + O(1); the panel reads it at the phase openings, \
               and the largest queue (MAX QUEUE, 13) also counts the packets queued in transit in the middle of a \
               phase, which smearing does not touch.",
        paper: KAUFMANN_SIBEYN,
        section: "§7.5 (Theorem 6)",
        preset: preset("mesh:32x32", "random-kk", "ks-nowrap", 30).lk(None, Some(4)).with(&[(Field::Smear, "auto")]),
        check: OWN,
        load: None,
        predict: None,
    },
    super::ks::LOCALITY,
    super::ks::NOL_ESTIMATE,
    super::ks_level::KS_LEVEL,
    super::ks_level::CUT_THROUGH,
    Lesson {
        id: "lmrr-butterfly",
        title: "Constant queues on the butterfly (Leighton–Maggs–Ranade–Rao)",
        text: join!(
            "Every packet draws a random rank (its colour: a quarter of the ranks each, as the legend says), and every node forwards the smallest rank among the \
               heads of its queues — its own packets, and one small queue per incoming link, drawn as a bar \
               on the link with a segment per packet — once each of them shows something. On its other links \
               it sends a ghost of that rank (a hollow circle): a promise that nothing smaller will follow, so that \
               the nodes after it need not wait; when it has nothing left it sends end-of-stream (a square). No \
               edge queue ever holds more than q = 2 packets, and a random permutation from the 32 inputs to the \
               32 outputs takes log n + o(log n) steps (Theorem 4.2; O(",
            Formula::CongestionDilationLogN.spelled(),
            ") on any leveled network, \
               Theorem 2.9). At scale bit fixing's queues grow where these stay put: try butterfly:10, transpose, \
               compared with bit-fixing."
        ),
        paper: crate::algorithms::papers::LMRR,
        section: "§2.2, §2.3, §4 (Theorems 2.9, 4.2)",
        preset: preset("butterfly:5", "random-permutation", "lmrr", 38),
        check: OWN,
        load: None,
        predict: None,
    },
    Lesson {
        id: "lmrr-shuffle-exchange",
        title: "Constant queues on the shuffle-exchange",
        text: "The shuffle-exchange graph has only three links per node: to the two rotations of its label by one \
               bit (shuffle) and to the label with the last bit flipped (exchange). Bit fixing routes in D rounds, \
               an exchange where the last bit is wrong, then a shuffle; on the transpose many routes meet, and its \
               queues grow like √N (the second run). Leighton, Maggs, Ranade and Rao route any permutation in \
               O(log N) steps with queues of constant size (§5): the good labels — a unique longest run of 0s, \
               long enough — form a leveled network, necklace by necklace (the rings), every packet passes a \
               random good necklace, packets at bad labels first move to a good one, and the rank scheduler with \
               ghosts keeps every edge queue within q = 2. Watch the largest queue of each run: lmrr's stays \
               small while bit fixing's climbs; then compare the steps — the price of the emulation, four real \
               steps per level, is a large constant at this size.",
        paper: crate::algorithms::papers::LMRR,
        section: "§2.2, §5",
        preset: preset("shuffle-exchange:8", "transpose", "lmrr", 38).beside("bit-fixing"),
        check: OWN_SMALLER_QUEUE,
        load: None,
        predict: Some(Predict {
            measure: Guess::MaxQueue,
            question: "Before you play: on this 256-node shuffle-exchange, how many packets will lmrr's fullest \
                       node hold at its largest? (Bit fixing's will reach 13.)",
        }),
    },
    Lesson {
        id: "bitonic-vs-flashsort",
        title: "Sorting networks against sorting by routing (bitonic against Flashsort)",
        text: join!(
            "Both runs sort the same 64 random keys, one per row of butterfly:6; a key's colour is its value \
               on the scale under each canvas, dark for low, light for high. Flashsort (the first run, §8) sorts by routing: it samples \
               candidate keys and ranks them (band candidates 1), picks splitters and spreads them (splitters 1), \
               routes every key up into the smaller butterfly that sorts its interval, with lmrr's scheduler \
               (intervals 1), and recurses (candidates 2, …) until a leaf of at most 16 inputs sorts its keys \
               (leaf-sort); a last routing takes each key to its row at level 0. O(log N) steps with high \
               probability, with a large constant. This lesson runs its fastest form (option loading set to \
               full: every key through one recursion); the default, light loading, sorts half the keys at a \
               time, four times, inside Columnsort so that node queues stay constant, and takes about seven \
               times the steps here (565 against 76, medians of seeds 1–5; about six at D = 12–14). Batcher's bitonic sort (the second run, §1.1) is a sorting \
               network: a fixed schedule of 6·7/2 = 21 rounds of compare-exchanges between rows one bit apart, \
               whatever the keys — O(",
            Formula::LogNodesSquared.spelled(),
            "), exactly ",
            Formula::BitonicButterflySteps.spelled(),
            " = 48 steps here, its keys ending at level D (the right-hand column). Which wins at this size? The check \
               below says which finished first and divides each run's steps by its growth (D = log N): \
               flashsort's by D, bitonic's by D². Measured over 5 seeds up to the page's largest butterfly, \
               butterfly:14 (the figure in docs/algorithms/flashsort.md), bitonic finishes first at every size: \
               flashsort's steps/D still rises slowly (20.7 at D = 12, 21.8 at D = 14) while bitonic's steps/D² \
               falls toward 1 (1.17 at D = 12, 1.14 at D = 14). If Flashsort held 21.8·D it would overtake near \
               D ≈ 20, about a million keys — beyond the page, and later if its steps/D keeps rising: a trend, \
               not a promise. On the full page the experiment checks it: size 3–10, both ticked, ratio to dimension D, then D²."
        ),
        paper: crate::algorithms::papers::LMRR,
        section: "§1.1, §8 (Batcher's network; Flashsort)",
        preset: preset("butterfly:6", "sort-random", "flashsort", 30)
            .beside("bitonic")
            .with(&[(Field::Loading, "full")]),
        // Bitonic's exact count and the race; Flashsort's measured constant
        // is the race line's steps/D.
        check: Check {
            own: false,
            claims: &[],
            compare_own: true,
            relation: Some(Relation::SecondFirst {
                main_power: 1,
                other_power: 2,
            }),
            stall: false,
        },
        load: None,
        predict: Some(Predict {
            measure: Guess::Steps,
            question: join!(
                "Before you play: bitonic (the second run) needs exactly ",
                Formula::BitonicButterflySteps.spelled(),
                " = 48 steps on this butterfly (log N = 6). How many will Flashsort (the first) need? Fewer than \
                 48 means it finishes first."
            ),
        }),
    },
    Lesson {
        id: "valiant-load",
        title: "Valiant halves uniform throughput but rescues the worst case",
        text: "Tornado on a 16 × 16 torus sends every packet 7 hops along its row and 7 along its column, always \
               the positive way round (the shorter way: 7 of 16). Sent \
               once (the two canvases: Valiant first, greedy second), greedy is quick and Valiant's random \
               intermediate doubles the route. Under sustained load the picture turns. The load panel below runs \
               both on uniform traffic and on tornado, at rates 0.025, 0.05, … up to each curve's first saturated \
               rate, and draws mean latency against the rate with each curve's ideal throughput λ* (dashed) and \
               zero-load latency (dotted). On uniform traffic Valiant's doubled routes about halve λ* (0.252 against \
               greedy's 0.498; a packet whose first leg crosses its destination stops there), and it saturates at about half greedy's rate. On tornado every greedy packet uses \
               only the +x and +y links (the −x and −y links stay idle), each carrying 7 packets per injected \
               one: λ* = 1/7 = 0.143, and greedy saturates near it, while Valiant spreads every route over all links and directions (λ* 0.250) and outlasts \
               it. The check above reads the curves as they come in. To watch it happen, set the panel's pattern \
               to tornado and Watch one rate at 0.2 with each algorithm: greedy's rows fill up while Valiant \
               keeps flowing.",
        paper: HYPERCUBE_LECTURE,
        section: "Randomized Routing",
        preset: preset("torus:16x16", "tornado", "valiant", 30).beside("greedy"),
        check: BOTH_MORE_STEPS,
        load: Some(VALIANT_LOAD),
        predict: None,
    },
    super::more::RAND_INTERVAL,
    super::more::LMRR_MESH,
    super::more::COMBINING,
    super::GREEDY_AVERAGE,
];

/// The load curve of `valiant-load`: greedy and Valiant on a 16 × 16
/// torus, uniform and tornado, rates 0.025 … 0.5 up to saturation, with the
/// load panel's windows. (Within the browser's limits; a few seconds in
/// the page's worker.)
const VALIANT_LOAD: LoadPreset = LoadPreset {
    topology: "torus:16x16",
    algorithms: &["greedy", "valiant"],
    patterns: &["uniform", "tornado"],
    rates: &[
        0.025, 0.05, 0.075, 0.1, 0.125, 0.15, 0.175, 0.2, 0.225, 0.25, 0.275, 0.3, 0.325, 0.35, 0.375, 0.4, 0.425,
        0.45, 0.475, 0.5,
    ],
    up_to_saturation: true,
    seed: 1,
    warmup: 200,
    measure: 500,
    drain: 1000,
    checks: &[
        LoadCheck::SaturationRatio {
            pattern: "uniform",
            algorithm: "valiant",
            reference: "greedy",
            low: 0.4,
            high: 0.6,
            words: "about half",
        },
        LoadCheck::Outlasts {
            pattern: "tornado",
            algorithm: "valiant",
            reference: "greedy",
        },
    ],
};

/// The page's default view (opened with no run parameter and no lesson):
/// not in the lesson menu, but explained the same way. `www/config.js`
/// holds the same preset as its defaults.
pub const INTRO: Lesson = Lesson {
    id: "intro",
    title: "Time against space: two algorithms route the same permutation",
    text: "Each packet (a dot) must reach its own node; in every step a link carries one packet each way. Greedy \
           (the first network) sends each packet along its row, then along its column: never slower than 2n − 2 steps, the \
           mesh's diameter. Offline (the second) plans the same permutation in advance with Hall's theorem: up to \
           3n − 3 steps, but no node ever holds more than 3 packets. This permutation is greedy's worst case: \
           streams of packets turn into one column at the same node, whose queue (the darkest fill) grows to about 2n/3. \
           Most packets of this permutation start at their own node: they count as delivered from step 0 \
           (a tick marks them). \
           Fast or frugal — the trade-off the papers are about. Try the lessons, or change anything in Setup.",
    paper: LECTURE,
    section: "XY greedy permutation routing; Off-line permutation routing",
    preset: preset("mesh:16x16", "greedy-worst", "greedy", 25).beside("offline"),
    check: Check {
        own: true,
        claims: &[GREEDY_WORST_QUEUE],
        compare_own: true,
        relation: Some(Relation::TradeOff),
        stall: false,
    },
    load: None,
    predict: None,
};
