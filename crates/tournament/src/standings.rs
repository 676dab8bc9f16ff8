//! Standings: the players ranked by score, then by an ordered list of tie-breaks (FIDE C.07
//! Article 4.2). A tie the list does not break stays a tie: the players share a rank, unless
//! the caller asks for an order by pairing number instead of lots.

use crate::tiebreak::{self, Context, Record, Regulations, Tiebreak, Value};
use crate::{PlayerId, Score, Tournament};

/// What to do with players the whole tie-break list leaves tied.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Ties {
    /// They share a rank (C.07 2.1: the regulations may say tied players share the place),
    /// listed by pairing number.
    #[default]
    Shared,
    /// They are ranked by pairing number, lowest first: an order without drawing lots (the
    /// 2026 text's tie-break `TPN`, 7.8).
    ByPairingNumber,
}

/// How to compute standings.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Options {
    /// The rounds counted: 1 to `after_round`. A player without an entry for a counted round
    /// was absent.
    pub after_round: u32,
    /// The tie-breaks, in order of application.
    pub tiebreaks: Vec<Tiebreak>,
    /// The text of C.07 applied.
    pub regulations: Regulations,
    /// The rating given to unrated players for the rating-based tie-breaks, where the
    /// tournament's regulations give one. Without it, an unrated player in the tournament
    /// leaves those tie-breaks without value (C.07 Article 10).
    pub unrated_rating: Option<u16>,
    /// What to do with the ties the list leaves.
    pub ties: Ties,
}

impl Options {
    /// The standings of `tournament` after the last round played (a bye entered for the
    /// round still to be paired does not count it), with the given tie-breaks, the 2026 text,
    /// shared ranks.
    pub fn new(tournament: &Tournament, tiebreaks: &[Tiebreak]) -> Options {
        Options {
            after_round: tournament.rounds_played(),
            tiebreaks: tiebreaks.to_vec(),
            regulations: Regulations::default(),
            unrated_rating: None,
            ties: Ties::default(),
        }
    }
}

/// One line of the standings.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Row {
    /// The rank, from 1; players left tied share the rank of the first of them.
    pub rank: u32,
    /// The player.
    pub player: PlayerId,
    /// The score after the rounds counted: the scoring's points for each round. Acceleration
    /// (pairing only) and the points of TRF `299` records are not in it.
    pub score: Score,
    /// One value per tie-break of the list, in its order.
    pub values: Vec<Value>,
}

/// The ranked players.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Standings {
    /// The rounds counted.
    pub after_round: u32,
    /// The text of C.07 applied.
    pub regulations: Regulations,
    /// The tie-breaks, in order of application: the columns of [`Row::values`].
    pub tiebreaks: Vec<Tiebreak>,
    /// Every player, best first.
    pub rows: Vec<Row>,
}

/// The standings of `tournament` after round `after_round`, by score and then `tiebreaks` as
/// `regulations` defines them; ties the list leaves are shared.
pub fn standings(
    tournament: &Tournament,
    after_round: u32,
    tiebreaks: &[Tiebreak],
    regulations: Regulations,
) -> Standings {
    let options = Options { after_round, regulations, ..Options::new(tournament, tiebreaks) };
    Standings::new(tournament, &options)
}

impl Standings {
    /// Computes the standings.
    pub fn new(tournament: &Tournament, options: &Options) -> Standings {
        let context = Context::new(
            tournament,
            options.after_round,
            options.regulations,
            options.unrated_rating,
        );
        let records = Record::all(tournament, &context);
        let players = records.len();
        // values[k][player]: every scalar tie-break is computed for everyone, so the table
        // shows it even where it decided nothing; direct encounter gets its places below.
        let mut values: Vec<Vec<Value>> = options
            .tiebreaks
            .iter()
            .map(|&t| {
                (0..players).map(|i| tiebreak::scalar_value(t, &records, i, &context)).collect()
            })
            .collect();

        // Groups of players still tied, best first, each in pairing-number order.
        let mut order: Vec<usize> = (0..players).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(records[i].score), i));
        let mut groups = split_equal(&order, |&i| records[i].score);
        for (k, &tiebreak) in options.tiebreaks.iter().enumerate() {
            let mut next = Vec::with_capacity(groups.len());
            for group in groups {
                if tiebreak == Tiebreak::DirectEncounter {
                    let tiers = tiebreak::direct_encounter(&records, &group, context.scoring.win);
                    let mut place = 1;
                    for tier in &tiers {
                        for &i in tier {
                            values[k][i] = Value::Place(place);
                        }
                        place += tier.len() as u32;
                    }
                    next.extend(tiers);
                } else {
                    let mut group = group;
                    group.sort_by_key(|&i| (values[k][i].rank_key(), i));
                    next.extend(split_equal(&group, |&i| values[k][i].rank_key()));
                }
            }
            groups = next;
        }

        let mut rows = Vec::with_capacity(players);
        for group in groups {
            let first = rows.len() as u32 + 1;
            for (offset, &i) in group.iter().enumerate() {
                let rank = match options.ties {
                    Ties::Shared => first,
                    Ties::ByPairingNumber => first + offset as u32,
                };
                rows.push(Row {
                    rank,
                    player: PlayerId::from_index(i),
                    score: records[i].score,
                    values: values.iter().map(|column| column[i]).collect(),
                });
            }
        }
        Standings {
            after_round: options.after_round,
            regulations: options.regulations,
            tiebreaks: options.tiebreaks.clone(),
            rows,
        }
    }

    /// The row of a player, if the player is in the tournament.
    pub fn row(&self, player: PlayerId) -> Option<&Row> {
        self.rows.iter().find(|row| row.player == player)
    }

    /// The value of `tiebreak` for `player`, if both are in the standings.
    pub fn value(&self, player: PlayerId, tiebreak: Tiebreak) -> Option<Value> {
        let column = self.tiebreaks.iter().position(|&t| t == tiebreak)?;
        Some(self.row(player)?.values[column])
    }
}

/// Splits a sorted list into runs of equal keys.
fn split_equal<K: PartialEq>(sorted: &[usize], key: impl Fn(&usize) -> K) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for item in sorted {
        match groups.last_mut() {
            Some(group) if key(&group[0]) == key(item) => group.push(*item),
            _ => groups.push(vec![*item]),
        }
    }
    groups
}
