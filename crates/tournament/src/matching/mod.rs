//! Maximum-weight matching on a dense graph, with updates.
//!
//! Pairing a Swiss round is a lexicographic optimisation over every way of pairing the
//! players: pack the criteria into one edge weight, highest priority in the highest bits, and
//! a maximum-weight matching is the best pairing. The pairing rules then fix choices one at a
//! time (which player floats, who meets whom), each time changing the weights of one player's
//! edges and asking for the optimum again. So the matching here is built for that use:
//!
//! - the graph is complete and dense: a weight for every pair, zero for "may not meet";
//! - the matching is a maximum-weight *perfect* matching of that complete graph (with a dummy
//!   vertex when the number is odd), which is the maximum-weight matching of the graph of
//!   positive edges: a pair joined by a zero edge is unmatched. Perfect matching has no sign
//!   constraint on the vertex duals, so a vertex can be taken out and put back at any time;
//! - after the weights at some vertices change, [`Matching::solve`] repairs the optimum from
//!   those vertices only: each is unmatched, taken out of its blossoms (their duals moved onto
//!   their vertices, which keeps every other constraint as it was), given the smallest dual
//!   that makes its edges feasible (matched at once when that edge leads to another exposed
//!   vertex), and augmenting searches from the exposed vertices restore a perfect matching. A
//!   change at k vertices costs at most k searches of O(n²), usually far less, instead of a
//!   new O(n³) solution. A change that keeps an unmatched edge feasible costs nothing;
//! - decided pairs leave the graph ([`Matching::retire_pair`]), so later searches are over the
//!   players still to pair.
//!
//! The algorithm is Edmonds' blossom algorithm in its primal-dual form (Galil, "Efficient
//! algorithms for finding maximum matching in graphs", ACM Computing Surveys 18, 1986), in the
//! O(n³) organisation with least-slack edges per blossom (Gabow 1974; as in Van Rantwijk's
//! widely used implementation). Duals are kept doubled so that every step is an exact integer
//! operation: the vertex duals in a search all have the same parity, which a repair restores
//! before searching.

mod weight;

pub use weight::{Weight, Wide};

const NONE: u8 = 0;
const S: u8 = 1;
const T: u8 = 2;

/// An edge seen from one side: `(remote, local)` for labels, `(in child i, in child i + 1)`
/// around a blossom.
type Edge = (usize, usize);

/// A maximum-weight matching of a complete graph whose edge weights can change.
#[derive(Clone, Debug)]
pub struct Matching<W: Weight> {
    /// Vertices the caller sees.
    vertices: usize,
    /// Vertices in the algorithm: `vertices`, plus a dummy to make the number even.
    n: usize,
    /// Twice each edge weight, `n × n`, symmetric.
    weight2: Vec<W>,
    /// Doubled vertex duals (`0..n`) and blossom duals (`n..2n`).
    dual: Vec<W>,
    mate: Vec<Option<usize>>,
    label: Vec<u8>,
    label_end: Vec<Option<Edge>>,
    in_blossom: Vec<usize>,
    parent: Vec<Option<usize>>,
    childs: Vec<Vec<usize>>,
    endps: Vec<Vec<Edge>>,
    base: Vec<usize>,
    best_edge: Vec<Option<Edge>>,
    blossom_best_edges: Vec<Option<Vec<Edge>>>,
    unused: Vec<usize>,
    queue: Vec<usize>,
    /// The vertices still in the graph, in no particular order, and where each sits in the
    /// list (`usize::MAX` once retired).
    active: Vec<usize>,
    active_at: Vec<usize>,
    /// Vertices whose edges changed since the last solve.
    dirty: Vec<usize>,
    is_dirty: Vec<bool>,
    /// Scratch space for leaf lists.
    leaves: Vec<usize>,
}

impl<W: Weight> Matching<W> {
    /// A graph of `vertices` vertices, every edge of weight zero, nothing matched.
    pub fn new(vertices: usize) -> Matching<W> {
        let n = vertices + vertices % 2;
        let mut matching = Matching {
            vertices,
            n,
            weight2: vec![W::ZERO; n * n],
            dual: vec![W::ZERO; 2 * n],
            mate: vec![None; n],
            label: vec![NONE; 2 * n],
            label_end: vec![None; 2 * n],
            in_blossom: (0..n).collect(),
            parent: vec![None; 2 * n],
            childs: vec![Vec::new(); 2 * n],
            endps: vec![Vec::new(); 2 * n],
            base: (0..2 * n).map(|b| if b < n { b } else { usize::MAX }).collect(),
            best_edge: vec![None; 2 * n],
            blossom_best_edges: vec![None; 2 * n],
            unused: (n..2 * n).rev().collect(),
            queue: Vec::new(),
            active: (0..n).collect(),
            active_at: (0..n).collect(),
            dirty: Vec::new(),
            is_dirty: vec![false; n],
            leaves: Vec::new(),
        };
        for v in 0..n {
            matching.mark_dirty(v);
        }
        matching
    }

    /// The number of vertices.
    pub fn len(&self) -> usize {
        self.vertices
    }

    /// Whether the graph has no vertex.
    pub fn is_empty(&self) -> bool {
        self.vertices == 0
    }

    /// The weight of the edge between `u` and `v`.
    pub fn weight(&self, u: usize, v: usize) -> W {
        self.weight2[u * self.n + v].half()
    }

    /// Sets the weight of the edge between `u` and `v` (zero: they may not be matched).
    /// Changes at many edges of few vertices are cheapest: the next [`solve`](Self::solve)
    /// repairs the matching from `u`.
    ///
    /// # Panics
    ///
    /// If `u == v`, a vertex is out of range, or the weight is negative.
    pub fn set_weight(&mut self, u: usize, v: usize, weight: W) {
        assert!(u != v && u < self.vertices && v < self.vertices, "edge {u}-{v}");
        assert!(weight >= W::ZERO, "negative weight");
        let doubled = weight.double();
        if self.weight2[u * self.n + v] == doubled {
            return;
        }
        self.weight2[u * self.n + v] = doubled;
        self.weight2[v * self.n + u] = doubled;
        // A vertex to be repaired gets a dual that makes all its edges feasible anyway, and
        // a retired one is out of the graph.
        if self.is_dirty[u] || self.is_dirty[v] || self.is_retired(u) || self.is_retired(v) {
            return;
        }
        // The duals still prove the matching optimal if the edge is unmatched, joins two
        // top-level blossoms (so no blossom needs it tight) and stays feasible.
        let still_optimal = self.mate[u] != Some(v)
            && self.in_blossom[u] != self.in_blossom[v]
            && self.slack(u, v) >= W::ZERO;
        if !still_optimal {
            self.mark_dirty(u);
        }
    }

    /// Multiplies every weight by `2^bits`, keeping the matching and its optimality: room
    /// for new low-order fields under the existing ones.
    ///
    /// The caller keeps the largest weight below `2^(W::BITS - bits - 2)` (duals reach
    /// twice the largest weight).
    pub fn shift_weights(&mut self, bits: u32) {
        if bits == 0 {
            return;
        }
        for x in self.weight2.iter_mut().chain(self.dual.iter_mut()) {
            *x = x.shl(bits);
        }
    }

    /// Takes `u` and `v` out of the graph for good, as a pair matched to each other, and
    /// makes the matching of the others optimal again: for pairs that are decided, so that
    /// the rest is solved without them. Later changes to their edges are ignored.
    ///
    /// # Panics
    ///
    /// If `u == v` or either is retired already.
    pub fn retire_pair(&mut self, u: usize, v: usize) {
        assert!(u != v, "a pair is two vertices");
        self.solve();
        // Out of any blossom first: the others keep feasible duals and tight matched edges,
        // and whoever loses a partner inside a blossom is matched again below.
        self.detach(u);
        self.detach(v);
        for x in [u, v] {
            let at = self.active_at[x];
            assert!(at != usize::MAX, "vertex {x} is retired already");
            let last = *self.active.last().expect("x is active");
            self.active.swap_remove(at);
            if last != x {
                self.active_at[last] = at;
            }
            self.active_at[x] = usize::MAX;
        }
        self.mate[u] = Some(v);
        self.mate[v] = Some(u);
        self.augment_exposed();
    }

    fn is_retired(&self, v: usize) -> bool {
        self.active_at[v] == usize::MAX
    }

    /// Who `v` is matched to, after [`solve`](Self::solve): `None` when unmatched (alone, or
    /// only joined by an edge of weight zero).
    pub fn mate(&self, v: usize) -> Option<usize> {
        let m = self.mate[v]?;
        (m < self.vertices && self.weight2[v * self.n + m] > W::ZERO).then_some(m)
    }

    /// The total weight of the matching.
    pub fn total_weight(&self) -> W {
        let mut total = W::ZERO;
        for v in 0..self.vertices {
            if let Some(m) = self.mate(v) {
                if v < m {
                    total = total.add(self.weight(v, m));
                }
            }
        }
        total
    }

    /// Makes the matching a maximum-weight matching for the current weights.
    pub fn solve(&mut self) {
        if self.dirty.is_empty() {
            return;
        }
        let dirty = std::mem::take(&mut self.dirty);
        for &u in &dirty {
            self.detach(u);
        }
        // Each detached vertex gets the smallest dual that makes its edges feasible, which
        // makes its best edge tight; if that edge leads to an exposed vertex whose dual is
        // settled, the two are matched at once. Searches are left for the rest.
        for &u in &dirty {
            self.is_dirty[u] = false;
            let (dual, best) = self.least_feasible_dual(u);
            self.dual[u] = dual;
            if let Some(k) = best {
                if !self.is_dirty[k] && self.mate[k].is_none() && self.in_blossom[k] == k {
                    self.mate[u] = Some(k);
                    self.mate[k] = Some(u);
                }
            }
        }
        self.dirty = dirty;
        self.dirty.clear();
        self.augment_exposed();
    }

    /// Searches from the exposed vertices until the matching is perfect again.
    fn augment_exposed(&mut self) {
        let exposed: Vec<usize> =
            self.active.iter().copied().filter(|&v| self.mate[v].is_none()).collect();
        if exposed.is_empty() {
            return;
        }
        // Two exposed vertices outside blossoms joined by a tight edge are matched as they
        // are: a search from either would only find that edge, after growing a tree through
        // every tight edge around it (many, where many weights are equal).
        for (i, &r) in exposed.iter().enumerate() {
            if self.mate[r].is_some() || self.in_blossom[r] != r {
                continue;
            }
            for &k in &exposed[i + 1..] {
                if self.mate[k].is_none() && self.in_blossom[k] == k && self.slack(r, k) == W::ZERO
                {
                    self.mate[r] = Some(k);
                    self.mate[k] = Some(r);
                    break;
                }
            }
        }
        self.fix_root_parity();
        while self.active.iter().any(|&v| self.mate[v].is_none()) {
            self.stage();
        }
    }

    fn mark_dirty(&mut self, v: usize) {
        if !self.is_dirty[v] {
            self.is_dirty[v] = true;
            self.dirty.push(v);
        }
    }

    #[inline(always)]
    fn slack(&self, v: usize, w: usize) -> W {
        self.dual[v].add(self.dual[w]).sub(self.weight2[v * self.n + w])
    }

    /// The vertices of blossom `b`, into `self.leaves` (cleared first).
    fn collect_leaves(&mut self, b: usize) {
        self.leaves.clear();
        let mut stack = vec![b];
        while let Some(x) = stack.pop() {
            if x < self.n {
                self.leaves.push(x);
            } else {
                stack.extend(self.childs[x].iter().copied());
            }
        }
    }

    fn leaves_of(&self, b: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut stack = vec![b];
        while let Some(x) = stack.pop() {
            if x < self.n {
                out.push(x);
            } else {
                stack.extend(self.childs[x].iter().copied());
            }
        }
        out
    }

    /// Takes vertex `u` out of the matching and out of every blossom, keeping the duals
    /// feasible and every other matched edge tight.
    fn detach(&mut self, u: usize) {
        let b = self.in_blossom[u];
        let b_base = self.base[b];
        if let Some(x) = self.mate[b_base] {
            self.mate[b_base] = None;
            self.mate[x] = None;
        }
        if b != u {
            self.augment_blossom(b, u);
            self.mate[u] = None;
        }
        while self.in_blossom[u] != u {
            let top = self.in_blossom[u];
            let z = self.dual[top];
            self.collect_leaves(top);
            for i in 0..self.leaves.len() {
                let v = self.leaves[i];
                self.dual[v] = self.dual[v].add(z);
            }
            self.dual[top] = W::ZERO;
            self.release_children(top, false);
        }
    }

    /// Makes the children of top-level blossom `b` top-level blossoms and recycles `b`. With
    /// `expand_zero`, children whose dual is zero are released too, recursively.
    fn release_children(&mut self, b: usize, expand_zero: bool) {
        let childs = std::mem::take(&mut self.childs[b]);
        for &c in &childs {
            self.parent[c] = None;
            if c < self.n {
                self.in_blossom[c] = c;
            } else if expand_zero && self.dual[c] == W::ZERO {
                self.release_children(c, true);
            } else {
                for v in self.leaves_of(c) {
                    self.in_blossom[v] = c;
                }
            }
        }
        self.recycle(b);
    }

    fn recycle(&mut self, b: usize) {
        self.childs[b].clear();
        self.endps[b].clear();
        self.label[b] = NONE;
        self.label_end[b] = None;
        self.base[b] = usize::MAX;
        self.best_edge[b] = None;
        self.blossom_best_edges[b] = None;
        self.dual[b] = W::ZERO;
        self.unused.push(b);
    }

    /// The smallest dual of `u` (a vertex in no blossom) that makes all its edges feasible,
    /// and the first vertex whose edge it makes tight.
    fn least_feasible_dual(&self, u: usize) -> (W, Option<usize>) {
        let mut best: Option<(W, usize)> = None;
        let row = &self.weight2[u * self.n..(u + 1) * self.n];
        for &j in &self.active {
            if j != u {
                let need = row[j].sub(self.dual[j]);
                if best.is_none_or(|(b, _)| need > b) {
                    best = Some((need, j));
                }
            }
        }
        match best {
            Some((dual, j)) => (dual, Some(j)),
            None => (W::ZERO, None),
        }
    }

    /// Gives every exposed top-level blossom an even base dual, so that the slack of every
    /// edge between two outer vertices is even and halving it is exact.
    fn fix_root_parity(&mut self) {
        for i in 0..self.active.len() {
            let v = self.active[i];
            if self.mate[v].is_none() && self.in_blossom[v] != usize::MAX {
                let b = self.in_blossom[v];
                if self.base[b] == v && !self.dual[v].is_even() {
                    self.make_even(b, v);
                }
            }
        }
    }

    fn make_even(&mut self, b: usize, base: usize) {
        if b < self.n {
            self.dual[b] = self.dual[b].add(W::ONE);
        } else if self.dual[b] > W::ZERO {
            self.dual[b] = self.dual[b].sub(W::ONE);
            self.collect_leaves(b);
            for i in 0..self.leaves.len() {
                let v = self.leaves[i];
                self.dual[v] = self.dual[v].add(W::ONE);
            }
        } else {
            self.release_children(b, false);
            let child = self.in_blossom[base];
            self.make_even(child, base);
        }
    }

    /// One search from every exposed vertex, ending with an augmentation.
    fn stage(&mut self) {
        self.label.fill(NONE);
        self.label_end.fill(None);
        self.best_edge.fill(None);
        for b in self.n..2 * self.n {
            self.blossom_best_edges[b] = None;
        }
        self.queue.clear();
        for v in 0..self.n {
            if self.mate[v].is_none() && self.label[self.in_blossom[v]] == NONE {
                self.assign_label(v, S, None);
            }
        }
        loop {
            if self.scan_queue() {
                break;
            }
            self.step_duals();
        }
        // Blossoms whose dual is zero need not survive the stage.
        for b in self.n..2 * self.n {
            if self.parent[b].is_none()
                && self.base[b] != usize::MAX
                && self.label[b] == S
                && self.dual[b] == W::ZERO
            {
                self.expand_blossom(b, true);
            }
        }
    }

    /// Scans outer vertices until an augmenting path is found (`true`) or none is tight.
    fn scan_queue(&mut self) -> bool {
        while let Some(v) = self.queue.pop() {
            for i in 0..self.active.len() {
                let w = self.active[i];
                if w == v {
                    continue;
                }
                // Read every time: a blossom formed by an earlier edge may now contain v.
                let bv = self.in_blossom[v];
                let bw = self.in_blossom[w];
                if bv == bw {
                    continue;
                }
                let kslack = self.slack(v, w);
                if kslack <= W::ZERO {
                    if self.label[bw] == NONE {
                        self.assign_label(w, T, Some((v, w)));
                    } else if self.label[bw] == S {
                        match self.scan_blossom(v, w) {
                            Some(base) => self.add_blossom(base, v, w),
                            None => {
                                self.augment_matching(v, w);
                                return true;
                            }
                        }
                    } else if self.label[w] == NONE {
                        self.label[w] = T;
                        self.label_end[w] = Some((v, w));
                    }
                } else if self.label[bw] == S {
                    if self.best_edge[bv].is_none_or(|(a, b)| kslack < self.slack(a, b)) {
                        self.best_edge[bv] = Some((v, w));
                    }
                } else if self.label[w] == NONE
                    && self.best_edge[w].is_none_or(|(a, b)| kslack < self.slack(a, b))
                {
                    self.best_edge[w] = Some((v, w));
                }
            }
        }
        false
    }

    /// Moves the duals by the largest step that keeps them feasible, which makes an edge
    /// tight or lets a T-blossom's dual reach zero.
    fn step_duals(&mut self) {
        enum Kind {
            Edge(usize),
            Expand(usize),
        }
        let mut best: Option<(W, Kind)> = None;
        // Edges from an outer vertex to a vertex not in the forest.
        for &v in &self.active {
            if self.label[self.in_blossom[v]] == NONE {
                if let Some((a, b)) = self.best_edge[v] {
                    let d = self.slack(a, b);
                    if best.as_ref().is_none_or(|(bd, _)| d < *bd) {
                        best = Some((d, Kind::Edge(a)));
                    }
                }
            }
        }
        // Edges between two outer blossoms: both ends move, so half the slack.
        for b in 0..2 * self.n {
            if self.parent[b].is_none() && self.base[b] != usize::MAX && self.label[b] == S {
                if let Some((x, y)) = self.best_edge[b] {
                    let slack = self.slack(x, y);
                    debug_assert!(slack.is_even(), "odd slack between outer vertices");
                    let d = slack.half();
                    if best.as_ref().is_none_or(|(bd, _)| d < *bd) {
                        best = Some((d, Kind::Edge(x)));
                    }
                }
            }
        }
        // Inner blossoms whose dual would go negative.
        for b in self.n..2 * self.n {
            if self.base[b] != usize::MAX && self.parent[b].is_none() && self.label[b] == T {
                let d = self.dual[b];
                if best.as_ref().is_none_or(|(bd, _)| d < *bd) {
                    best = Some((d, Kind::Expand(b)));
                }
            }
        }
        let (delta, kind) = best.expect("a complete graph of even order has a perfect matching");
        for i in 0..self.active.len() {
            let v = self.active[i];
            match self.label[self.in_blossom[v]] {
                S => self.dual[v] = self.dual[v].sub(delta),
                T => self.dual[v] = self.dual[v].add(delta),
                _ => {}
            }
        }
        for b in self.n..2 * self.n {
            if self.base[b] != usize::MAX && self.parent[b].is_none() {
                match self.label[b] {
                    S => self.dual[b] = self.dual[b].add(delta),
                    T => self.dual[b] = self.dual[b].sub(delta),
                    _ => {}
                }
            }
        }
        match kind {
            Kind::Edge(v) => {
                // Whichever end is outer scans the now tight edge again.
                let outer = if self.label[self.in_blossom[v]] == S {
                    v
                } else {
                    unreachable!("best edges start at outer vertices")
                };
                self.queue.push(outer);
            }
            Kind::Expand(b) => self.expand_blossom(b, false),
        }
    }

    fn assign_label(&mut self, w: usize, t: u8, p: Option<Edge>) {
        let b = self.in_blossom[w];
        debug_assert!(self.label[w] == NONE && self.label[b] == NONE);
        self.label[w] = t;
        self.label[b] = t;
        self.label_end[w] = p;
        self.label_end[b] = p;
        self.best_edge[w] = None;
        self.best_edge[b] = None;
        if t == S {
            let leaves = self.leaves_of(b);
            self.queue.extend(leaves);
        } else {
            let base = self.base[b];
            let m = self.mate[base].expect("an inner blossom's base is matched");
            self.assign_label(m, S, Some((base, m)));
        }
    }

    /// Traces back from the ends of a tight edge between two outer vertices: the base of the
    /// new blossom if both lead to the same root, `None` if this is an augmenting path.
    fn scan_blossom(&mut self, v: usize, w: usize) -> Option<usize> {
        const VISITED: u8 = 4;
        let mut path = Vec::new();
        let mut base = None;
        let (mut v, mut w) = (Some(v), Some(w));
        while let Some(x) = v {
            let b = self.in_blossom[x];
            if self.label[b] & VISITED != 0 {
                base = Some(self.base[b]);
                break;
            }
            path.push(b);
            self.label[b] = S | VISITED;
            v = match self.label_end[b] {
                None => None,
                Some((t, _)) => {
                    let bt = self.in_blossom[t];
                    Some(self.label_end[bt].expect("an inner blossom has a label edge").0)
                }
            };
            if w.is_some() {
                std::mem::swap(&mut v, &mut w);
            }
        }
        for b in path {
            self.label[b] = S;
        }
        base
    }

    /// Makes a new blossom from the tight edge `v`–`w` between two outer vertices of the same
    /// tree whose paths meet at `base`.
    fn add_blossom(&mut self, base: usize, v: usize, w: usize) {
        let bb = self.in_blossom[base];
        let b = self.unused.pop().expect("at most n/2 blossoms exist at once");
        self.base[b] = base;
        self.parent[b] = None;
        self.parent[bb] = Some(b);
        let mut childs_v = Vec::new();
        let mut endps_v = Vec::new();
        let mut bv = self.in_blossom[v];
        while bv != bb {
            self.parent[bv] = Some(b);
            childs_v.push(bv);
            let edge = self.label_end[bv].expect("a non-root blossom has a label edge");
            endps_v.push(edge);
            bv = self.in_blossom[edge.0];
        }
        let mut childs = vec![bb];
        childs.extend(childs_v.into_iter().rev());
        let mut endps: Vec<Edge> = endps_v.into_iter().rev().collect();
        endps.push((v, w));
        let mut bw = self.in_blossom[w];
        while bw != bb {
            self.parent[bw] = Some(b);
            childs.push(bw);
            let (remote, local) = self.label_end[bw].expect("a non-root blossom has a label edge");
            endps.push((local, remote));
            bw = self.in_blossom[remote];
        }
        self.label[b] = S;
        self.label_end[b] = self.label_end[bb];
        self.dual[b] = W::ZERO;
        self.childs[b] = childs;
        self.endps[b] = endps;
        for x in self.leaves_of(b) {
            if self.label[self.in_blossom[x]] == T {
                // Inner vertices become outer: scan them.
                self.queue.push(x);
            }
            self.in_blossom[x] = b;
        }
        // The least-slack edges from the new blossom to each other outer blossom.
        let mut best_to: Vec<Option<Edge>> = vec![None; 2 * self.n];
        let childs = self.childs[b].clone();
        for &c in &childs {
            let candidates: Vec<Edge> = match self.blossom_best_edges[c].take() {
                Some(list) => list,
                None => {
                    let mut list = Vec::new();
                    for x in self.leaves_of(c) {
                        for &y in &self.active {
                            if y != x {
                                list.push((x, y));
                            }
                        }
                    }
                    list
                }
            };
            for (mut x, mut y) in candidates {
                if self.in_blossom[y] == b {
                    std::mem::swap(&mut x, &mut y);
                }
                let by = self.in_blossom[y];
                if by != b
                    && self.label[by] == S
                    && best_to[by].is_none_or(|(p, q)| self.slack(x, y) < self.slack(p, q))
                {
                    best_to[by] = Some((x, y));
                }
            }
            self.best_edge[c] = None;
        }
        let list: Vec<Edge> = best_to.into_iter().flatten().collect();
        let mut best: Option<Edge> = None;
        for &(x, y) in &list {
            if best.is_none_or(|(p, q)| self.slack(x, y) < self.slack(p, q)) {
                best = Some((x, y));
            }
        }
        self.blossom_best_edges[b] = Some(list);
        self.best_edge[b] = best;
    }

    /// Expands blossom `b`: at the end of a stage (its dual is zero and it is outer), or in
    /// the middle of one when an inner blossom's dual reaches zero.
    fn expand_blossom(&mut self, b: usize, end_of_stage: bool) {
        let childs = self.childs[b].clone();
        for &c in &childs {
            self.parent[c] = None;
            if c < self.n {
                self.in_blossom[c] = c;
            } else if end_of_stage && self.dual[c] == W::ZERO {
                self.expand_blossom(c, true);
            } else {
                for v in self.leaves_of(c) {
                    self.in_blossom[v] = c;
                }
            }
        }
        if !end_of_stage && self.label[b] == T {
            self.relabel_expanded(b, &childs);
        }
        self.recycle(b);
    }

    /// Relabels the children of an inner blossom that was just expanded: the even path from
    /// the child it was entered by to its base alternates inner and outer; the others are
    /// inner if an outer vertex reaches them by a tight edge, else free.
    fn relabel_expanded(&mut self, b: usize, childs: &[usize]) {
        let k = childs.len();
        let endps = self.endps[b].clone();
        let entry_edge = self.label_end[b].expect("an inner blossom has a label edge");
        let entry_child = self.in_blossom[entry_edge.1];
        let start = childs.iter().position(|&c| c == entry_child).expect("entry child");
        let forward = start % 2 == 1;
        let step = |j: usize| if forward { (j + 1) % k } else { (j + k - 1) % k };
        // The edge from child j to the next child in the direction of travel, as
        // (vertex in child j, vertex in the next child).
        let toward = |j: usize| -> Edge {
            if forward {
                endps[j]
            } else {
                let (a, c) = endps[(j + k - 1) % k];
                (c, a)
            }
        };
        let mut j = start;
        let mut p = entry_edge;
        while j != 0 {
            let matched = toward(j);
            self.label[p.1] = NONE;
            self.label[matched.1] = NONE;
            self.assign_label(p.1, T, Some(p));
            j = step(j);
            p = toward(j);
            j = step(j);
        }
        let bv = childs[0];
        self.label[p.1] = T;
        self.label[bv] = T;
        self.label_end[p.1] = Some(p);
        self.label_end[bv] = Some(p);
        self.best_edge[bv] = None;
        j = step(j);
        while childs[j] != entry_child {
            let bv = childs[j];
            if self.label[bv] == S {
                j = step(j);
                continue;
            }
            let reached = self.leaves_of(bv).into_iter().find(|&v| self.label[v] != NONE);
            if let Some(v) = reached {
                debug_assert_eq!(self.label[v], T);
                self.label[v] = NONE;
                let m = self.mate[self.base[bv]].expect("a blossom inside a blossom is matched");
                self.label[m] = NONE;
                let end = self.label_end[v];
                self.assign_label(v, T, end);
            }
            j = step(j);
        }
    }

    /// Swaps matched and unmatched edges along the even path inside blossom `b` from vertex
    /// `v` to the base, making `v` the base.
    fn augment_blossom(&mut self, b: usize, v: usize) {
        let mut t = v;
        while self.parent[t] != Some(b) {
            t = self.parent[t].expect("v is inside b");
        }
        if t >= self.n {
            self.augment_blossom(t, v);
        }
        let k = self.childs[b].len();
        let i = self.childs[b].iter().position(|&c| c == t).expect("t is a child of b");
        let forward = i % 2 == 1;
        let mut j = i;
        while j != 0 {
            let (j1, j2, edge) = if forward {
                let j1 = (j + 1) % k;
                (j1, (j1 + 1) % k, self.endps[b][j1])
            } else {
                let j1 = j - 1;
                let (a, c) = self.endps[b][(j1 + k - 1) % k];
                (j1, (j1 + k - 1) % k, (c, a))
            };
            // `edge` joins child j1 (edge.0) to child j2 (edge.1).
            let c1 = self.childs[b][j1];
            if c1 >= self.n {
                self.augment_blossom(c1, edge.0);
            }
            let c2 = self.childs[b][j2];
            if c2 >= self.n {
                self.augment_blossom(c2, edge.1);
            }
            self.mate[edge.0] = Some(edge.1);
            self.mate[edge.1] = Some(edge.0);
            j = j2;
        }
        self.childs[b].rotate_left(i);
        self.endps[b].rotate_left(i);
        self.base[b] = self.base[self.childs[b][0]];
        debug_assert_eq!(self.base[b], v);
    }

    /// Augments along the path through the tight edge `v`–`w` between two trees.
    fn augment_matching(&mut self, v: usize, w: usize) {
        for (s0, j0) in [(v, w), (w, v)] {
            let (mut s, mut j) = (s0, j0);
            loop {
                let bs = self.in_blossom[s];
                if bs >= self.n {
                    self.augment_blossom(bs, s);
                }
                self.mate[s] = Some(j);
                let Some((t, _)) = self.label_end[bs] else { break };
                let bt = self.in_blossom[t];
                let (s2, j2) = self.label_end[bt].expect("an inner blossom has a label edge");
                if bt >= self.n {
                    self.augment_blossom(bt, j2);
                }
                self.mate[j2] = Some(s2);
                s = s2;
                j = j2;
            }
        }
    }

    /// Checks the blossom structure (tests only).
    #[cfg(test)]
    pub(crate) fn check_structure(&self) {
        let mut in_use = 0;
        for b in self.n..2 * self.n {
            if self.base[b] == usize::MAX {
                assert!(self.unused.contains(&b), "blossom {b} neither used nor free");
                continue;
            }
            in_use += 1;
            assert!(!self.unused.contains(&b), "blossom {b} used and free");
            assert!(
                self.childs[b].len() >= 3 && self.childs[b].len() % 2 == 1,
                "blossom {b} childs {:?}",
                self.childs[b]
            );
            assert_eq!(self.childs[b].len(), self.endps[b].len());
            for &c in &self.childs[b] {
                assert_eq!(self.parent[c], Some(b), "child {c} of {b}");
            }
            assert_eq!(self.base[b], self.base[self.childs[b][0]]);
        }
        assert_eq!(in_use + self.unused.len(), self.n, "blossom ids leaked");
        for v in 0..self.n {
            let mut top = v;
            while let Some(p) = self.parent[top] {
                top = p;
            }
            assert_eq!(self.in_blossom[v], top, "in_blossom of {v}");
        }
    }

    /// Checks the optimality conditions (tests only): perfect, feasible, tight, full blossoms.
    #[cfg(test)]
    pub(crate) fn verify(&self) {
        self.check_structure();
        for &v in &self.active {
            let m = self.mate[v].expect("perfect");
            assert_eq!(self.mate[m], Some(v));
        }
        // Blossom duals of blossoms containing both ends.
        let chain = |v: usize| {
            let mut out = Vec::new();
            let mut b = self.parent[v];
            while let Some(x) = b {
                out.push(x);
                b = self.parent[x];
            }
            out
        };
        for b in self.n..2 * self.n {
            if self.base[b] != usize::MAX {
                assert!(self.dual[b] >= W::ZERO, "negative blossom dual");
            }
        }
        for &v in &self.active {
            let cv = chain(v);
            for &w in self.active.iter().filter(|&&w| w > v) {
                let cw = chain(w);
                let mut s = self.slack(v, w);
                for b in &cv {
                    if cw.contains(b) {
                        s = s.add(self.dual[*b].double());
                    }
                }
                assert!(s >= W::ZERO, "edge {v}-{w} infeasible: {s:?}");
                if self.mate[v] == Some(w) {
                    assert_eq!(s, W::ZERO, "matched edge {v}-{w} not tight");
                }
            }
        }
    }
}

/// A maximum-weight matching of the graph of `edges` (`(u, v, weight)`, weights positive) on
/// `vertices` vertices: for each vertex, its mate, if any.
///
/// # Panics
///
/// If an edge names a vertex out of range, a loop, or has a negative weight.
pub fn maximum_weight_matching(
    vertices: usize,
    edges: &[(usize, usize, i64)],
) -> Vec<Option<usize>> {
    let mut matching = Matching::<i64>::new(vertices);
    for &(u, v, w) in edges {
        matching.set_weight(u, v, w);
    }
    matching.solve();
    (0..vertices).map(|v| matching.mate(v)).collect()
}

#[cfg(test)]
mod tests;
