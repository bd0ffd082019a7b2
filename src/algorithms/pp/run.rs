//! Pietracaprina–Pucci's per-run work: colouring (§3.1/§3.2 Step 1, §4),
//! ranks within groups, and the task of each stage (sorts, dealing, rounds
//! of routing, tours and balancing). The state machine that orders the
//! stages is in `mod.rs`.

#[allow(unused_imports)]
use super::*;

impl Run {
    /// §3.1 Step 1 (distinct random colours in {0..ℓ−1} per node) or §3.2
    /// Step 1 (random colours in {0..k−1}), drawn as evenly as a node's
    /// count allows: its x packets in random order take colours o, o + 1,
    /// … (mod k) from a random o, so each colour gets ⌊x/k⌋ or ⌈x/k⌉ of
    /// them. Every packet's colour is still uniform over the k colours and
    /// the colours of different nodes are independent (those of one node
    /// are negatively associated, for which the Chernoff bounds of Lemma 3
    /// hold as for independent ones); a colour's total is Σ ⌊x/k⌋ plus the
    /// remainders', so when every node sends a multiple of k (every sender
    /// of `random-lk` and `worst-lk` sends ℓ, and k | ℓ for powers of two)
    /// each colour has exactly (packets)/k ≤ N and sorts with buckets of 1,
    /// where independent colours put more than N in some class about half
    /// the time (and that class sorts with buckets of 2).
    pub(super) fn colour_randomly(&mut self, e: &mut Engine, seed: u64) {
        let mut rng = Rng::new(seed, Stream::Algorithm);
        if self.l <= self.k {
            let mut per_node: Vec<Vec<u32>> = vec![Vec::new(); self.mesh.nodes() as usize];
            for p in e.active() {
                per_node[e.source(p) as usize].push(p);
            }
            for list in &per_node {
                let colours = rng.sample(self.l, list.len() as u32);
                for (&p, &j) in list.iter().zip(&colours) {
                    self.set_colour(e, p, j);
                }
            }
        } else {
            let mut per_node: Vec<Vec<u32>> = vec![Vec::new(); self.mesh.nodes() as usize];
            for p in e.active() {
                per_node[e.source(p) as usize].push(p);
            }
            for list in &mut per_node {
                if list.is_empty() {
                    continue;
                }
                rng.shuffle(list);
                let o = rng.below(self.k);
                for (i, &p) in list.iter().enumerate() {
                    self.set_colour(e, p, (o + i as u32) % self.k);
                }
            }
        }
    }

    pub(super) fn set_colour(&mut self, e: &mut Engine, p: u32, j: u32) {
        self.colour[p as usize] = j;
        self.by_colour[j as usize].push(p);
        e.set_class(p, (j % 256) as u8);
    }

    /// §4 Step 1 by pipelined prefix ranking (proof of Theorem 5): one
    /// counter per destination tile, the ranks the values the counters carry
    /// on the links ([`PrefixRanking`]); packets of one node and tile are
    /// ranked by id. The colours are set when the task is over
    /// ([`Run::apply_colours`]). With one colour (ℓ = 1 for ℓ ≤ k, k = 1 for
    /// ℓ > k) every rank is 0 mod 1: every packet has colour 0, known to its
    /// node without a message, and nothing is ranked.
    ///
    /// ℓ > k: for every s′-tile, rank the packets destined to it so that
    /// sources in one s-tile are consecutive (blocks of one s-tile in
    /// row-major order, row-major inside; before Theorem 6); colour = rank
    /// mod k.
    ///
    /// ℓ ≤ k: the paper ranks the packets destined to each s-tile T in
    /// row-major order of their sources over the whole mesh, colour = rank
    /// mod ℓ; then a stripe of len nodes can hold up to Σ_T ⌈n_T/ℓ⌉ ≤ len + s′
    /// packets of a class, and Step 2.(a).ii sorts with buckets of 2. Here
    /// the ranks restart in every stripe of Step 2.(a).i and run through the
    /// stripe's tiles one after the other: rank ρ = (the stripe's packets for
    /// tiles before T) + (its packets for T from sources before this one in
    /// row-major order), the offsets summed at the stripe's corner
    /// ([`PrefixRanking::stripes`]); colour = ρ mod ℓ. Both of the paper's
    /// properties still hold in the worst case: a stripe's n_S ≤ ℓ·len
    /// packets give every class ≤ ⌈n_S/ℓ⌉ ≤ len (so the balancing leaves one
    /// per node and every sort has buckets of 1), and the packets for T from
    /// one stripe have consecutive ranks, so a class has at most
    /// Σ_stripes ⌈n_{S,T}/ℓ⌉ ≤ n_T/ℓ + (stripes) of them: with stripes of 2
    /// rows, ≤ (k/ℓ)·N/s′ + side/2 ≤ 3·(k/ℓ)·N/s′ — Lemma 1's O((N/s)(k/ℓ))
    /// (see the stripes in `Pp::start`). A packet's index among its class
    /// in its stripe is ⌊ρ/ℓ⌋: the balancing's target.
    pub(super) fn colour_deterministic(&mut self, e: &mut Engine) {
        let le = self.l <= self.k;
        let (dest_tiles, block, modulus) = if le {
            (self.s_tiles, 1, self.l)
        } else {
            (self.d_tiles, self.s_tiles.tile_side(), self.k)
        };
        let packets = e.active();
        if modulus == 1 {
            for p in packets {
                self.set_colour(e, p, 0);
            }
            return;
        }
        debug_assert!(packets.iter().all(|&p| e.position(p) == e.source(p)));
        let tiles: Vec<u32> = packets.iter().map(|&p| dest_tiles.tile_of(e.destination(p))).collect();
        let items: Vec<(u32, u32)> = packets.iter().zip(&tiles).map(|(&p, &t)| (e.source(p), t)).collect();
        let width = dest_tiles.count();
        let task = if le {
            PrefixRanking::stripes(self.mesh, self.stripe, width, &items)
        } else {
            PrefixRanking::new(self.mesh, Order::RowMajor { block }, width, &items)
        };
        // Ranks are unique per stripe (ℓ ≤ k) or per destination tile.
        let groups = if le {
            packets
                .iter()
                .map(|&p| self.mesh.rc(e.source(p)).0 / self.stripe)
                .collect()
        } else {
            tiles
        };
        let count = if le { self.mesh.side() / self.stripe } else { width };
        self.colouring = Some(Colouring {
            task,
            packets,
            groups,
            count,
            modulus,
        });
    }

    /// Colours from the ranks the colouring computed (rank mod ℓ, or mod
    /// k). Each colour lists its packets by (group, rank), the group being
    /// the stripe (ℓ ≤ k) or the destination tile: the ranks of one group
    /// are 0, 1, … (checked), so every packet has its own slot. For ℓ ≤ k,
    /// each packet's index in its class and stripe, ⌊rank/ℓ⌋, is kept for
    /// the stripe balancing.
    pub(super) fn apply_colours(&mut self, e: &mut Engine, c: Colouring) {
        let ranks = c.task.ranks();
        let mut start = vec![0u32; c.count as usize + 1];
        for &t in &c.groups {
            start[t as usize + 1] += 1;
        }
        for t in 0..c.count as usize {
            start[t + 1] += start[t];
        }
        let mut slots = vec![u32::MAX; c.packets.len()];
        for (x, (&t, &rank)) in c.groups.iter().zip(&ranks).enumerate() {
            let slot = start[t as usize] + rank;
            assert!(
                slot < start[t as usize + 1] && slots[slot as usize] == u32::MAX,
                "colouring: rank {rank} of group {t} is not unique"
            );
            slots[slot as usize] = x as u32;
        }
        for x in slots {
            let p = c.packets[x as usize];
            self.rank[p as usize] = ranks[x as usize] / c.modulus;
            self.set_colour(e, p, ranks[x as usize] % c.modulus);
        }
    }

    /// Undelivered packets of colour j.
    pub(super) fn live(&self, e: &Engine, j: u32) -> Vec<u32> {
        self.by_colour[j as usize]
            .iter()
            .copied()
            .filter(|&p| !e.is_delivered(p))
            .collect()
    }

    /// Sort key of §3.1 Step 2.(a): (destination tile, destination).
    pub(super) fn dest_key(tiles: &Tiles, e: &Engine, p: u32) -> u64 {
        let d = e.destination(p);
        ((tiles.tile_of(d) as u64) << NODE_BITS) | d as u64
    }

    /// The packets of `packets` at each node, in the order of `key`.
    pub(super) fn per_node(&self, e: &Engine, packets: &[u32], key: impl Fn(u32) -> u64) -> Vec<Vec<u32>> {
        let mut at: Vec<Vec<u32>> = vec![Vec::new(); self.mesh.nodes() as usize];
        for &p in packets {
            at[e.position(p) as usize].push(p);
        }
        for list in &mut at {
            list.sort_unstable_by_key(|&p| (key(p), p));
        }
        at
    }

    /// §3.1 Step 2.(c).i and §3.2 Step 2.(c): the node of its destination
    /// tile U (of `tiles`, side σ) that the packet at `at` goes to, so that
    /// every node of U receives O(1) packets — "roughly the same number" —
    /// with no ranks and no sort. The packet at (y, x) goes to row
    /// (y + ⌊x/σ⌋) mod σ and column x mod σ of U.
    ///
    /// Why (one tile T of side m′ in which the packets lie in snake or
    /// row-major order of their sort key (destination tile, destination), as
    /// Steps 2.(a)–(b) or 2.(c)'s sort leave them, at most c per node):
    /// *columns.* The packets for one band of destination tiles (the tiles
    /// of one row of tiles — at most two runs of the comb order) lie in at
    /// most two runs of consecutive rows of every column, so the rows
    /// (y + const) mod σ they go to are distinct in every σ consecutive rows:
    /// a node of the band receives ≤ 2c·⌈(G_B/m′ + 1)/σ⌉ where G_B ≤ the
    /// band's packets; *rows.* The G_U packets for U lie in at most
    /// ⌈G_U/m′⌉ + 1 rows, and in one row the columns x ≡ b (mod σ) with
    /// ⌊x/σ⌋ ≡ z − y (mod σ) number ⌈m′/σ²⌉; so node (z, b) of U receives at
    /// most c·⌈m′/σ²⌉·(⌈G_U/m′⌉ + 1). Lemma 1 (or Lemma 3's third property,
    /// or §4's colouring) gives G_U = O(σ²) and the tessellations give
    /// m′ ≤ 4σ², so both are O(1); the queues of each phase (a linear array
    /// in which a node starts with ≤ c packets and receives O(1)) stay O(1).
    pub(super) fn spread_target(mesh: Mesh, tiles: &Tiles, at: u32, dest: u32) -> u32 {
        let sigma = tiles.tile_side();
        let (y, x) = mesh.rc(at);
        let (r0, c0) = tiles.origin(tiles.tile_of(dest));
        mesh.node(r0 + (y + x / sigma) % sigma, c0 + x % sigma)
    }

    /// The sort of colour j's live packets by (destination tile of `tiles`,
    /// destination), or by destination alone without tiles, with the
    /// current bucket size.
    pub(super) fn sort_by_destination(&mut self, e: &Engine, j: u32, tiles: Option<&Tiles>) -> (String, Box<dyn Task>) {
        let items: Vec<(u32, u64)> = self
            .live(e, j)
            .into_iter()
            .map(|p| match tiles {
                Some(tiles) => (p, Self::dest_key(tiles, e, p)),
                None => (p, e.destination(p) as u64),
            })
            .collect();
        let side = self.mesh.side();
        self.buckets[j as usize] = self.c;
        (
            format!("{}c{j} sort", self.prefix),
            Box::new(SortTask::new(e, self.mesh, side, self.c, &items)),
        )
    }

    pub(super) fn build(&mut self, stage: Stage, e: &mut Engine) -> (String, Box<dyn Task>) {
        let mesh = self.mesh;
        let side = mesh.side();
        match stage {
            Stage::StripeBalance(j) => {
                // Index x of the class in its stripe (x < len, from the
                // colouring) to the stripe cycle's node x.
                let len = self.stripe * side;
                let moves: Vec<(u32, u32)> = self
                    .live(e, j)
                    .into_iter()
                    .map(|p| {
                        let x = self.rank[p as usize];
                        assert!(x < len, "stripe balancing: index {x} of a stripe of {len} nodes");
                        let (r, _) = mesh.rc(e.position(p));
                        let (dr, dc) = comb_rc(self.stripe, side, x);
                        (p, mesh.node(r - r % self.stripe + dr, dc))
                    })
                    .collect();
                let cycles = stripe_cycles(mesh, self.stripe);
                (
                    format!("{}c{j} stripe-balance", self.prefix),
                    Box::new(RingTask::new(e, mesh, cycles, &moves, false)),
                )
            }
            Stage::Sort(j) => {
                // §3.1: distinct colours per node, so one j-packet per node.
                // §4: ℓ = 1, one packet per node; else the stripe balancing
                // left one per node (its indices are < len, checked).
                self.c = 1;
                let tiles = self.s_tiles;
                self.sort_by_destination(e, j, Some(&tiles))
            }
            Stage::Deal(j) => {
                let packets = self.live(e, j);
                let tiles = self.rounds;
                let at = self.per_node(e, &packets, |p| Self::dest_key(&self.s_tiles, e, p));
                let (t, c) = (tiles.count(), self.c);
                let mut targets = Vec::with_capacity(packets.len());
                for v in 0..mesh.nodes() {
                    for (slot, &p) in at[v as usize].iter().enumerate() {
                        let r = mesh.snake_index(v, side) * c + slot as u32;
                        targets.push((p, tiles.node(r % t, (r / t) / c)));
                    }
                }
                // With one tile the deal maps snake position r to row-major
                // node r: already sorted by target, no second sort needed.
                let name = format!("{}c{j} deal", self.prefix);
                let task = CcRoute::new(e, &name, mesh, (side, c), targets, t == 1);
                (name.clone(), Box::new(task))
            }
            Stage::Spread(j, i) => {
                let (tiles, s_tiles) = (self.rounds, self.s_tiles);
                let targets: Vec<(u32, u32)> = self
                    .live(e, j)
                    .into_iter()
                    .filter(|&p| tiles.tile_of(e.destination(p)) == tiles.tile_of(e.position(p)))
                    .map(|p| (p, Self::spread_target(mesh, &s_tiles, e.position(p), e.destination(p))))
                    .collect();
                let name = format!("{}c{j} r{i} route", self.prefix);
                (name.clone(), Box::new(CcRoute::presorted(&name, mesh, targets, false)))
            }
            Stage::Tour(j, i) => {
                let packets: Vec<(u32, u32)> = self
                    .live(e, j)
                    .into_iter()
                    .filter(|&p| self.s_tiles.tile_of(e.position(p)) == self.s_tiles.tile_of(e.destination(p)))
                    .map(|p| (p, e.destination(p)))
                    .collect();
                let cycles = tile_cycles(&self.s_tiles, mesh);
                (
                    format!("{}c{j} r{i} tour", self.prefix),
                    Box::new(RingTask::new(e, mesh, cycles, &packets, true)),
                )
            }
            Stage::Shift(j, i) => {
                let packets: Vec<u32> = if self.l <= self.k {
                    self.live(e, j)
                } else {
                    self.live(e, j)
                        .into_iter()
                        .filter(|&p| self.injected[p as usize])
                        .collect()
                };
                (
                    format!("{}c{j} r{i} shift", self.prefix),
                    Box::new(shift(e, &self.rounds, &packets)),
                )
            }
            Stage::Ranks => {
                // Every colour's packets, still at their sources, ranked in
                // blocked row-major order (s-tiles as blocks); node-local
                // order by id.
                let colours = self.totals.len();
                let mut count = vec![vec![0u64; mesh.nodes() as usize]; colours];
                let mut at: Vec<Vec<u32>> = Vec::with_capacity(colours);
                for j in 0..colours as u32 {
                    let packets = self.live(e, j);
                    for &p in &packets {
                        count[j as usize][e.position(p) as usize] += 1;
                    }
                    at.push(packets);
                }
                // With k = 1 the one class has at most N packets (every node
                // receives at most one): its bucket is 1 without a total.
                let one = self.k == 1;
                let b = blocked_sums(mesh, self.s_tiles.tile_side(), &count, !one);
                for (j, packets) in at.iter().enumerate() {
                    let mut seen = vec![0u64; mesh.nodes() as usize];
                    let mut sorted = packets.clone();
                    sorted.sort_unstable();
                    for p in sorted {
                        let v = e.position(p) as usize;
                        self.rank[p as usize] = (b.prefix[j][v] + seen[v]) as u32;
                        self.injected[p as usize] = false;
                        seen[v] += 1;
                    }
                }
                self.totals = if one { vec![mesh.nodes() as u64] } else { b.total };
                (format!("{}ranks", self.prefix), Box::new(b.task))
            }
            Stage::Inject(j, i) => {
                let l = self.rounds.count();
                let mut moves = Vec::new();
                for p in self.live(e, j) {
                    if self.injected[p as usize] {
                        continue;
                    }
                    let v = e.position(p);
                    let u = self.rounds.tile_of(v);
                    let r = self.rank[p as usize];
                    if (u + l - r % l) % l == i {
                        // A node's j-packets have consecutive ranks, so where
                        // a node holds at most t′ of them (the colours of
                        // `pp-rand` give it ⌈x/k⌉ ≤ ⌈ℓ/k⌉ ≤ t′ of its x ≤ ℓ;
                        // one colour when k = 1) it injects at most one per
                        // round: already evenly spread, nothing moves.
                        // Otherwise rank r goes to node r div t′ (mod the
                        // tile's size) of the s-tile's cycle.
                        let target = if self.inject_in_place {
                            v
                        } else {
                            let st = self.s_tiles.tile_of(v);
                            self.s_tiles.cycle_node(st, (r / l) % self.s_tiles.tile_nodes())
                        };
                        moves.push((p, target));
                        self.injected[p as usize] = true;
                    }
                }
                let cycles = tile_cycles(&self.s_tiles, mesh);
                (
                    format!("{}c{j} r{i} inject", self.prefix),
                    Box::new(RingTask::new(e, mesh, cycles, &moves, false)),
                )
            }
            Stage::BalanceRanks(j, i) => {
                let tiles = self.rounds;
                let packets: Vec<u32> = self
                    .live(e, j)
                    .into_iter()
                    .filter(|&p| self.injected[p as usize])
                    .collect();
                let at = self.per_node(e, &packets, |_| 0);
                let count: Vec<u64> = at.iter().map(|l| l.len() as u64).collect();
                let s = row_major_sums(mesh, tiles.tile_side(), &count);
                let mut pending = Vec::with_capacity(packets.len());
                for (v, list) in at.iter().enumerate() {
                    for (x, &p) in list.iter().enumerate() {
                        let rho = (s.prefix[v] + x as u64) as u32;
                        pending.push((p, tiles.node(tiles.tile_of(v as u32), rho % tiles.tile_nodes())));
                    }
                }
                self.pending = pending;
                (format!("{}c{j} r{i} balance-ranks", self.prefix), Box::new(s.task))
            }
            Stage::Balance(j, i) => {
                // Rank ρ (row-major inside the (ℓ/k)-tile T) goes to node
                // ρ mod |T| (row-major): along the rows first — a row's
                // packets have consecutive ranks, so at most c of them (c the
                // most at a node) want one column — then along the columns,
                // where the packets for node v are those with ρ ≡ v (mod |T|),
                // at most ⌈(packets in T)/|T|⌉ = O(1) by Lemma 3. No sort.
                let targets = std::mem::take(&mut self.pending);
                let name = format!("{}c{j} r{i} balance", self.prefix);
                (name.clone(), Box::new(CcRoute::presorted(&name, mesh, targets, true)))
            }
            Stage::SortDest(j) => {
                // After Step 2.(b) the tile of the ranks ≡ u (mod t′) holds
                // them at node ρ mod (N/t′) of their balancing ranks ρ, so no
                // node holds more than ⌈total/N⌉ (checked).
                let n = mesh.nodes() as u64;
                self.c = self.totals[j as usize].div_ceil(n).max(1) as u32;
                let mut held = vec![0u32; mesh.nodes() as usize];
                for p in self.live(e, j) {
                    held[e.position(p) as usize] += 1;
                }
                let most = held.iter().copied().max().unwrap_or(0);
                if self.abortable && most > self.c {
                    // The attempt's guess of k is too small (§3): the nodes
                    // that hold more than the bucket abort it.
                    let nodes = (0..mesh.nodes()).filter(|&v| held[v as usize] > self.c).collect();
                    self.overflow = Some(nodes);
                    return (format!("{}c{j} sort", self.prefix), Box::new(Nothing));
                }
                assert!(most <= self.c, "colour {j}: a node holds {most} > bucket {}", self.c);
                // k = 1: sorted by destination for the direct spreading below.
                let tiles = self.d_tiles;
                let tiles = (self.k > 1).then_some(&tiles);
                self.sort_by_destination(e, j, tiles)
            }
            Stage::SpreadDest(j) => {
                // With k = 1 every node receives at most one packet, so
                // sending each packet to its own destination already spreads
                // them evenly (at most one per node of each s′-tile): the
                // route of sorting-based routing — the packets for one row
                // are a run of the destination order, at most two per
                // column, and at most one per node of the row — after which
                // Step 2.(d)'s tours find every packet at its destination.
                let d_tiles = self.d_tiles;
                let targets: Vec<(u32, u32)> = self
                    .live(e, j)
                    .into_iter()
                    .map(|p| {
                        let d = e.destination(p);
                        (
                            p,
                            if self.k == 1 {
                                d
                            } else {
                                Self::spread_target(mesh, &d_tiles, e.position(p), d)
                            },
                        )
                    })
                    .collect();
                let name = format!("{}c{j} route", self.prefix);
                (name.clone(), Box::new(CcRoute::presorted(&name, mesh, targets, false)))
            }
            Stage::TourDest(j) => {
                let packets: Vec<(u32, u32)> = self.live(e, j).into_iter().map(|p| (p, e.destination(p))).collect();
                let cycles = tile_cycles(&self.d_tiles, mesh);
                (
                    format!("{}c{j} tour", self.prefix),
                    Box::new(RingTask::new(e, mesh, cycles, &packets, true)),
                )
            }
        }
    }
}
