// Vertices are numbers indexing the weight matrix and the matching alike.
#![allow(clippy::needless_range_loop)]

use super::*;

/// The best total weight over every matching, by exhaustive search (small graphs only).
fn brute_force(n: usize, weight: &dyn Fn(usize, usize) -> i64) -> i64 {
    fn go(free: &mut Vec<bool>, weight: &dyn Fn(usize, usize) -> i64) -> i64 {
        let Some(v) = free.iter().position(|&f| f) else { return 0 };
        free[v] = false;
        // v unmatched
        let mut best = go(free, weight);
        for u in v + 1..free.len() {
            if free[u] && weight(v, u) > 0 {
                free[u] = false;
                best = best.max(weight(v, u) + go(free, weight));
                free[u] = true;
            }
        }
        free[v] = true;
        best
    }
    go(&mut vec![true; n], weight)
}

/// A small deterministic generator (xorshift64*).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn check_against_brute_force(matching: &Matching<i64>, weights: &[Vec<i64>]) {
    matching.verify();
    let n = weights.len();
    let best = brute_force(n, &|u, v| weights[u][v]);
    assert_eq!(matching.total_weight(), best, "weights {weights:?}");
    for v in 0..n {
        if let Some(m) = matching.mate(v) {
            assert_eq!(matching.mate(m), Some(v));
            assert!(weights[v][m] > 0);
        }
    }
}

#[test]
fn empty_and_single_graphs() {
    let mut m = Matching::<i64>::new(0);
    m.solve();
    let mut m = Matching::<i64>::new(1);
    m.solve();
    assert_eq!(m.mate(0), None);
    assert_eq!(maximum_weight_matching(2, &[(0, 1, 5)]), vec![Some(1), Some(0)]);
}

#[test]
fn prefers_weight_over_cardinality_when_weights_say_so() {
    // Path 0-1-2-3 with a heavy middle edge: the middle edge alone is best.
    let mates = maximum_weight_matching(4, &[(0, 1, 1), (1, 2, 10), (2, 3, 1)]);
    assert_eq!(mates, vec![None, Some(2), Some(1), None]);
}

#[test]
fn odd_cycles_form_blossoms() {
    // A triangle with a pendant on each corner: needs a blossom to find the optimum.
    let edges = [(0, 1, 6), (1, 2, 6), (2, 0, 6), (0, 3, 5), (1, 4, 5), (2, 5, 5)];
    let mates = maximum_weight_matching(6, &edges);
    assert_eq!(mates, vec![Some(3), Some(4), Some(5), Some(0), Some(1), Some(2)]);
}

#[test]
fn random_graphs_agree_with_exhaustive_search() {
    let mut rng = Rng(0x1234_5678_9abc_def1);
    for case in 0..600 {
        let n = 1 + rng.below(10) as usize;
        let density = 1 + rng.below(4);
        let max_weight = [3, 10, 1000][case % 3];
        let mut weights = vec![vec![0i64; n]; n];
        let mut matching = Matching::<i64>::new(n);
        for u in 0..n {
            for v in u + 1..n {
                if rng.below(4) < density {
                    let w = 1 + rng.below(max_weight) as i64;
                    weights[u][v] = w;
                    weights[v][u] = w;
                    matching.set_weight(u, v, w);
                }
            }
        }
        matching.solve();
        check_against_brute_force(&matching, &weights);
    }
}

#[test]
fn updates_at_a_vertex_keep_the_matching_optimal() {
    let mut rng = Rng(0xdead_beef_cafe_f00d);
    for _ in 0..150 {
        let n = 2 + rng.below(9) as usize;
        let mut weights = vec![vec![0i64; n]; n];
        let mut matching = Matching::<i64>::new(n);
        for u in 0..n {
            for v in u + 1..n {
                let w = rng.below(20) as i64;
                weights[u][v] = w;
                weights[v][u] = w;
                matching.set_weight(u, v, w);
            }
        }
        matching.solve();
        check_against_brute_force(&matching, &weights);
        for _ in 0..25 {
            // Change several edges at one or two vertices, as the pairing rules do.
            let vertices = 1 + rng.below(2);
            for _ in 0..vertices {
                let u = rng.below(n as u64) as usize;
                for _ in 0..1 + rng.below(n as u64) {
                    let v = rng.below(n as u64) as usize;
                    if v != u {
                        let w = rng.below(20) as i64;
                        weights[u][v] = w;
                        weights[v][u] = w;
                        matching.set_weight(u, v, w);
                    }
                }
            }
            matching.solve();
            check_against_brute_force(&matching, &weights);
        }
    }
}

#[test]
fn wide_weights_give_the_same_answers() {
    let mut rng = Rng(42);
    for _ in 0..200 {
        let n = 2 + rng.below(8) as usize;
        let mut weights = vec![vec![0i64; n]; n];
        let mut narrow = Matching::<i64>::new(n);
        let mut wide = Matching::<Wide<3>>::new(n);
        for u in 0..n {
            for v in u + 1..n {
                let w = rng.below(50) as i64;
                weights[u][v] = w;
                weights[v][u] = w;
                narrow.set_weight(u, v, w);
                // Shifted far up, as packed criteria are.
                wide.set_weight(u, v, Wide::from_u64(w as u64).shl(130));
            }
        }
        narrow.solve();
        wide.solve();
        wide.verify();
        for v in 0..n {
            assert_eq!(narrow.mate(v).is_some(), wide.mate(v).is_some());
        }
        assert_eq!(wide.total_weight(), Wide::from_u64(narrow.total_weight() as u64).shl(130));
    }
}

#[test]
fn lexicographic_packing_respects_priorities() {
    // Field 1 (high): number of pairs; field 2 (low): a preference. The best matching
    // maximises pairs first, whatever the preferences.
    let n = 6;
    let mut m = Matching::<Wide<2>>::new(n);
    let pair = Wide::<2>::bit(80);
    // A perfect matching exists only as 0-1, 2-3, 4-5; the preference favours 1-2 strongly.
    m.set_weight(0, 1, pair);
    m.set_weight(2, 3, pair);
    m.set_weight(4, 5, pair);
    m.set_weight(1, 2, pair.add(Wide::from_u64(1_000_000)));
    m.solve();
    assert_eq!(m.mate(0), Some(1));
    assert_eq!(m.mate(2), Some(3));
}

#[test]
fn incremental_repairs_equal_fresh_solutions_on_larger_graphs() {
    let mut rng = Rng(7);
    for case in 0..12 {
        let n = 20 + rng.below(40) as usize;
        let range = [3, 50, 1 << 20][case % 3];
        let mut weights = vec![vec![0i64; n]; n];
        let mut incremental = Matching::<i64>::new(n);
        for u in 0..n {
            for v in u + 1..n {
                let w = rng.below(range) as i64;
                weights[u][v] = w;
                weights[v][u] = w;
                incremental.set_weight(u, v, w);
            }
        }
        incremental.solve();
        for _ in 0..60 {
            let u = rng.below(n as u64) as usize;
            for v in 0..n {
                if v != u && rng.below(3) == 0 {
                    let w = rng.below(range) as i64;
                    weights[u][v] = w;
                    weights[v][u] = w;
                    incremental.set_weight(u, v, w);
                }
            }
            incremental.solve();
            incremental.verify();
            let mut fresh = Matching::<i64>::new(n);
            for a in 0..n {
                for b in a + 1..n {
                    fresh.set_weight(a, b, weights[a][b]);
                }
            }
            fresh.solve();
            assert_eq!(incremental.total_weight(), fresh.total_weight());
        }
    }
}

#[test]
fn retired_pairs_leave_the_rest_optimal() {
    let mut rng = Rng(99);
    for _ in 0..200 {
        let n = 4 + rng.below(7) as usize;
        let mut weights = vec![vec![0i64; n]; n];
        let mut matching = Matching::<i64>::new(n);
        for u in 0..n {
            for v in u + 1..n {
                let w = 1 + rng.below(9) as i64;
                weights[u][v] = w;
                weights[v][u] = w;
                matching.set_weight(u, v, w);
            }
        }
        // Decide one pair, as the pairing rules do: only its edge stays.
        let (p, q) = (0, 1 + rng.below(n as u64 - 1) as usize);
        for x in [p, q] {
            for y in 0..n {
                if y != x && y != p && y != q {
                    weights[x][y] = 0;
                    weights[y][x] = 0;
                    matching.set_weight(x, y, 0);
                }
            }
        }
        matching.solve();
        assert_eq!(matching.mate(p), Some(q));
        matching.retire_pair(p, q);
        // Changes elsewhere, and to the retired pair's edges (ignored).
        for _ in 0..5 {
            let u = rng.below(n as u64) as usize;
            let v = rng.below(n as u64) as usize;
            if u != v {
                let w = rng.below(9) as i64;
                matching.set_weight(u, v, w);
                if ![p, q].contains(&u) && ![p, q].contains(&v) {
                    weights[u][v] = w;
                    weights[v][u] = w;
                }
            }
            matching.solve();
            matching.verify();
            let rest: Vec<usize> = (0..n).filter(|&x| x != p && x != q).collect();
            let best = brute_force(rest.len(), &|a, b| weights[rest[a]][rest[b]]);
            let total: i64 = rest
                .iter()
                .filter_map(|&x| matching.mate(x).filter(|&m| x < m).map(|m| weights[x][m]))
                .sum();
            assert_eq!(total, best);
        }
    }
}
