//! A leveled network built from explicit hop lists: each path is a start
//! level and the sequence of real nodes (hosts) a packet visits, one per
//! level. Logical node = (host, level); a hop between two hosts is the real
//! link joining them (its port at the first), a hop that stays on its host
//! is *internal* (a wait, port [`NONE`]). Paths that meet at the same host
//! on the same level share that logical node (and the edge out of it if
//! they continue alike), so a tree of converging paths is one tree.
//!
//! Logical edges that use the same directed link (at different levels)
//! could send in the same logical step; they get different *substeps*
//! (SPEC §1: one message per directed link per step): the edges of one
//! link are numbered in level order, and the network's `substeps` is the
//! largest such number — the most logical edges on one directed link, the
//! least that works, since all of them may carry a message in one step.
//! A path's levels are the caller's choice: aligning paths that share links
//! on the same levels keeps that number small.
//!
//! # Complexity
//! O(total path length · log) to build (a hash map from (host, level) to
//! ids and a sort of the edges by link).

use super::leveled::{Description, OutEdge, NONE};
use crate::topology::{Network, Topology};
use std::collections::HashMap;

/// A leveled network given by its nodes and edges explicitly.
#[derive(Debug, Clone, Default)]
pub struct HopLeveled {
    host: Vec<u32>,
    level: Vec<u32>,
    /// Out-edges of each node (CSR).
    out_start: Vec<u32>,
    out: Vec<OutEdge>,
    substeps: u8,
}

/// The port at `from` of the link to `to` (`None` if they are not joined).
pub fn port_to(topo: &Topology, from: u32, to: u32) -> Option<u32> {
    (0..topo.ports()).find(|&p| topo.neighbor(from, p) == Some(to))
}

impl HopLeveled {
    /// The network of `paths` (start level, hosts) on `topo`, and each
    /// path as logical node ids. Consecutive hosts must be equal (a wait)
    /// or joined by a link; the error names the first pair that is not.
    pub fn build(topo: &Topology, paths: &[(u32, Vec<u32>)]) -> Result<(HopLeveled, Vec<Vec<u32>>), String> {
        let mut ids: HashMap<(u32, u32), u32> = HashMap::new();
        let (mut host, mut level) = (Vec::new(), Vec::new());
        let mut id_of = |h: u32, l: u32| {
            *ids.entry((h, l)).or_insert_with(|| {
                host.push(h);
                level.push(l);
                host.len() as u32 - 1
            })
        };
        let mut node_paths = Vec::with_capacity(paths.len());
        // (tail, head, port)
        let mut edges: Vec<(u32, u32, u32)> = Vec::new();
        for (start, hosts) in paths {
            let mut nodes = Vec::with_capacity(hosts.len());
            for (k, &h) in hosts.iter().enumerate() {
                nodes.push(id_of(h, start + k as u32));
            }
            for (k, pair) in hosts.windows(2).enumerate() {
                let port = if pair[0] == pair[1] {
                    NONE
                } else {
                    port_to(topo, pair[0], pair[1])
                        .ok_or_else(|| format!("no link from node {} to node {}", pair[0], pair[1]))?
                };
                edges.push((nodes[k], nodes[k + 1], port));
            }
            node_paths.push(nodes);
        }
        edges.sort_unstable();
        edges.dedup();
        // Substeps: the edges of one directed link, numbered in level order.
        let mut by_link: Vec<(u32, u32, u32, usize)> = edges
            .iter()
            .enumerate()
            .filter(|(_, e)| e.2 != NONE)
            .map(|(i, &(tail, _, port))| (host[tail as usize], port, level[tail as usize], i))
            .collect();
        by_link.sort_unstable();
        let mut substep = vec![0u32; edges.len()];
        let mut most = 1u32;
        for k in 0..by_link.len() {
            let (h, p, _, i) = by_link[k];
            if k > 0 && (by_link[k - 1].0, by_link[k - 1].1) == (h, p) {
                substep[i] = substep[by_link[k - 1].3] + 1;
                most = most.max(substep[i] + 1);
            }
        }
        let substeps = u8::try_from(most).map_err(|_| format!("{most} logical edges share one link"))?;
        let nodes = host.len();
        let mut out_start = vec![0u32; nodes + 1];
        for &(tail, _, _) in &edges {
            out_start[tail as usize + 1] += 1;
        }
        for v in 0..nodes {
            out_start[v + 1] += out_start[v];
        }
        // `edges` is sorted by tail, so the CSR order is the edges' order.
        let out = edges
            .iter()
            .zip(&substep)
            .map(|(&(_, head, port), &s)| OutEdge {
                head,
                port,
                substep: s as u8,
            })
            .collect();
        Ok((
            HopLeveled {
                host,
                level,
                out_start,
                out,
                substeps,
            },
            node_paths,
        ))
    }
}

impl Description for HopLeveled {
    fn count(&self) -> u32 {
        self.host.len() as u32
    }
    fn level(&self, v: u32) -> u32 {
        self.level[v as usize]
    }
    fn host(&self, v: u32) -> u32 {
        self.host[v as usize]
    }
    fn out_edges(&self, v: u32, out: &mut Vec<OutEdge>) {
        let (a, b) = (self.out_start[v as usize], self.out_start[v as usize + 1]);
        out.extend_from_slice(&self.out[a as usize..b as usize]);
    }
    fn substeps(&self) -> u8 {
        self.substeps
    }
}
