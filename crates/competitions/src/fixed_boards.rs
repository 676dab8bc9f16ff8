//! Fixed boards over the board (issue 53; RULES.md §12, "Over the board"): a player who must
//! sit at a given table — a wheelchair place, the arbiters' table, a board with a live
//! broadcast — keeps it every round, as Swiss-Manager's fixed boards do. The pairing is made
//! as always (who meets whom, and with which colours, never changes); only the boards are
//! numbered again so that each fixed player's game is on their board.

use std::collections::BTreeMap;

use rookery_tournament::competition::EntrantId;

/// The boards of a round (White, Black), board 1 first, renumbered for the fixed players
/// (`fixed`: entrant number → board, from 1).
///
/// A pair goes to its fixed player's board (the lower of two when both have one; a board
/// past the round's last is its last board). Pairs are placed in the pairing's order (board
/// 1 first, so the higher-ranked pair wins a board two pairs want); the one that finds its
/// board taken goes to the nearest free board (the lower one on a tie). The other pairs fill
/// the boards left, in the pairing's order.
pub(crate) fn place(
    boards: Vec<(EntrantId, EntrantId)>,
    fixed: &BTreeMap<u32, u32>,
) -> Vec<(EntrantId, EntrantId)> {
    let n = boards.len();
    if fixed.is_empty() || n < 2 {
        return boards;
    }
    let wanted = |(w, b): (EntrantId, EntrantId)| {
        let board = [w, b].iter().filter_map(|e| fixed.get(&e.0)).min().copied()?;
        Some((board.max(1) as usize).min(n) - 1)
    };
    let mut slots: Vec<Option<(EntrantId, EntrantId)>> = vec![None; n];
    let mut rest = Vec::with_capacity(n);
    for pair in boards {
        let Some(want) = wanted(pair) else {
            rest.push(pair);
            continue;
        };
        let free = (0..n)
            .flat_map(|d| [want.checked_sub(d), Some(want + d)])
            .flatten()
            .find(|&i| i < n && slots[i].is_none())
            .expect("fewer fixed pairs than boards");
        slots[free] = Some(pair);
    }
    let mut rest = rest.into_iter();
    slots.into_iter().map(|s| s.or_else(|| rest.next()).expect("one pair per board")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn boards(n: u32) -> Vec<(EntrantId, EntrantId)> {
        (0..n).map(|i| (EntrantId(2 * i), EntrantId(2 * i + 1))).collect()
    }

    fn whites(b: &[(EntrantId, EntrantId)]) -> Vec<u32> {
        b.iter().map(|p| p.0 .0).collect()
    }

    #[test]
    fn nothing_fixed_leaves_the_pairing_as_it_is() {
        assert_eq!(place(boards(5), &BTreeMap::new()), boards(5));
    }

    #[test]
    fn a_fixed_player_takes_their_board_and_the_rest_keep_their_order() {
        // Entrant 9 (Black on board 5) sits at board 1; entrant 2 (White, board 2) at board 4.
        let fixed = BTreeMap::from([(9, 1), (2, 4)]);
        assert_eq!(whites(&place(boards(5), &fixed)), [8, 0, 4, 2, 6]);
    }

    #[test]
    fn a_board_past_the_last_is_the_last_and_a_taken_board_the_nearest_free() {
        // Both want board 3 of 4: the pair paired higher (board 1) gets it, the other the
        // nearest free board, the lower on a tie (2); 20 is past the last, so board 4.
        let fixed = BTreeMap::from([(0, 3), (4, 3), (7, 20)]);
        let placed = place(boards(4), &fixed);
        assert_eq!(whites(&placed), [2, 4, 0, 6]);
        // Both players of one pair fixed: the lower board.
        let fixed = BTreeMap::from([(6, 3), (7, 1)]);
        assert_eq!(whites(&place(boards(4), &fixed)), [6, 0, 2, 4]);
    }

    #[test]
    fn every_pair_is_placed_once_whatever_is_fixed() {
        for n in 1..9u32 {
            for mask in 0u32..(1 << (2 * n).min(12)) {
                let fixed: BTreeMap<u32, u32> = (0..2 * n)
                    .filter(|e| mask & (1 << (e % 12)) != 0)
                    .map(|e| (e, e % 5 + 1))
                    .collect();
                let mut placed = place(boards(n), &fixed);
                assert_eq!(placed.len(), n as usize);
                placed.sort();
                assert_eq!(placed, boards(n), "n {n}, fixed {fixed:?}");
            }
        }
    }
}
