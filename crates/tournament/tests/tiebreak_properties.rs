//! Properties of the tie-breaks and standings on random Swiss-like tournaments with byes,
//! forfeits, absences, late entries and withdrawals.

use proptest::prelude::*;
use rookery_core::Color;
use rookery_tournament::standings::{Options, Ties};
use rookery_tournament::tiebreak::Value;
use rookery_tournament::{
    standings, Player, PlayerId, Regulations, ResultCode, RoundEntry, Standings, Tiebreak,
    Tournament,
};

/// A small deterministic generator, so that a failing case is one seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// A tournament of 2–14 players and 1–7 rounds: each round some players take a half- or
/// zero-point bye, come late or withdraw; the rest are paired at random (rematches allowed),
/// an odd one out gets the pairing-allocated bye; some games are forfeited.
fn tournament(seed: u64) -> Tournament {
    let mut rng = Rng(seed | 1);
    let n = 2 + rng.below(13) as usize;
    let rounds = 1 + rng.below(7) as u32;
    let mut players: Vec<Player> = (0..n)
        .map(|i| Player {
            name: format!("P{}", i + 1),
            rating: (rng.below(8) != 0).then(|| 1400 + rng.below(1100) as u16),
            ..Player::default()
        })
        .collect();
    let late: Vec<u32> =
        (0..n).map(|_| if rng.below(8) == 0 { 1 + rng.below(3) as u32 } else { 0 }).collect();
    let gone: Vec<u32> = (0..n)
        .map(|_| if rng.below(8) == 0 { 1 + rng.below(u64::from(rounds)) as u32 } else { u32::MAX })
        .collect();
    for round in 1..=rounds {
        let mut available = Vec::new();
        for (i, player) in players.iter_mut().enumerate() {
            if round > gone[i] {
                continue; // withdrawn: no entry
            }
            let r = rng.below(20);
            let bye = match r {
                _ if round <= late[i] => Some(ResultCode::ZeroPointBye),
                0 => Some(ResultCode::HalfPointBye),
                1 => Some(ResultCode::ZeroPointBye),
                2 => Some(ResultCode::FullPointBye),
                _ => None,
            };
            while player.rounds.len() < round as usize - 1 {
                player.rounds.push(RoundEntry::ABSENT);
            }
            match bye {
                Some(code) => player.rounds.push(RoundEntry::bye(code)),
                None => available.push(i),
            }
        }
        // Shuffle.
        for k in (1..available.len()).rev() {
            let j = rng.below(k as u64 + 1) as usize;
            available.swap(k, j);
        }
        if available.len() % 2 == 1 {
            let i = available.pop().unwrap();
            players[i].rounds.push(RoundEntry::bye(ResultCode::PairingAllocatedBye));
        }
        for pair in available.chunks(2) {
            let (white, black) = match rng.below(14) {
                0 => (ResultCode::ForfeitWin, ResultCode::ForfeitLoss),
                1 => (ResultCode::ForfeitLoss, ResultCode::ForfeitWin),
                2 => (ResultCode::ForfeitLoss, ResultCode::ForfeitLoss),
                3..=6 => (ResultCode::Win, ResultCode::Loss),
                7..=10 => (ResultCode::Loss, ResultCode::Win),
                _ => (ResultCode::Draw, ResultCode::Draw),
            };
            let entry = |opponent: usize, colour, result| RoundEntry {
                opponent: Some(PlayerId::from_index(opponent)),
                colour: Some(colour),
                result,
            };
            players[pair[0]].rounds.push(entry(pair[1], Color::White, white));
            players[pair[1]].rounds.push(entry(pair[0], Color::Black, black));
        }
    }
    Tournament { players, rounds: Some(rounds), ..Tournament::default() }
}

/// The same tournament with the players renumbered: `order[new] = old`.
fn renumbered(tournament: &Tournament, order: &[usize]) -> Tournament {
    let mut new_of_old = vec![0; order.len()];
    for (new, &old) in order.iter().enumerate() {
        new_of_old[old] = new;
    }
    let players = order
        .iter()
        .map(|&old| {
            let mut player = tournament.players[old].clone();
            for entry in &mut player.rounds {
                entry.opponent =
                    entry.opponent.map(|id| PlayerId::from_index(new_of_old[id.index()]));
            }
            player
        })
        .collect();
    Tournament { players, ..tournament.clone() }
}

fn all_tiebreaks() -> Vec<Tiebreak> {
    Tiebreak::ALL.to_vec()
}

fn tenths(v: Value) -> u64 {
    match v {
        Value::Tenths(t) => t,
        other => panic!("not tenths: {other:?}"),
    }
}

fn table(t: &Tournament, list: &[Tiebreak], regulations: Regulations) -> Standings {
    standings(t, t.rounds_with_entries(), list, regulations)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// BH ≥ BH-C1 ≥ BH-C2, BH-C1 ≥ BH-M1 ≥ BH-M2 (C.07 14): a cut only removes values.
    #[test]
    fn cuts_only_remove(seed in any::<u64>(), year in 0..2usize) {
        let t = tournament(seed);
        let codes: Vec<Tiebreak> = ["BH", "BH-C1", "BH-C2", "BH-M1", "BH-M2", "PS", "PS-C1"]
            .iter().map(|c| c.parse().unwrap()).collect();
        let s = table(&t, &codes, Regulations::ALL[year]);
        for row in &s.rows {
            let v: Vec<u64> = row.values.iter().map(|&v| tenths(v)).collect();
            prop_assert!(v[0] >= v[1] && v[1] >= v[2], "{:?}", v);
            prop_assert!(v[1] >= v[3] && v[3] >= v[4], "{:?}", v);
            prop_assert!(v[5] >= v[6], "{:?}", v);
        }
    }

    /// SB ≤ BH × the points of a win: each opponent's score is multiplied by at most a win.
    #[test]
    fn sonneborn_berger_is_at_most_buchholz_times_a_win(seed in any::<u64>(), year in 0..2usize) {
        let t = tournament(seed);
        let s = table(&t, &[Tiebreak::Buchholz(rookery_tournament::tiebreak::Modifier::None),
            Tiebreak::SonnebornBerger(rookery_tournament::tiebreak::Modifier::None)], Regulations::ALL[year]);
        for row in &s.rows {
            let (Value::Tenths(bh), Value::Hundredths(sb)) = (row.values[0], row.values[1]) else {
                panic!("{:?}", row.values);
            };
            prop_assert!(sb <= bh * u64::from(t.scoring.win.tenths()));
        }
    }

    /// The 2026 caps only ever lower a dummy: no Buchholz or SB rises from 2024 to 2026.
    #[test]
    fn the_2026_caps_only_lower(seed in any::<u64>()) {
        let t = tournament(seed);
        let codes: Vec<Tiebreak> = ["BH", "SB"].iter().map(|c| c.parse().unwrap()).collect();
        let old = table(&t, &codes, Regulations::C07_2024);
        let new = table(&t, &codes, Regulations::C07_2026);
        for row in &old.rows {
            let other = new.row(row.player).unwrap();
            for k in 0..2 {
                prop_assert!(other.values[k].to_f64() <= row.values[k].to_f64());
            }
        }
    }

    /// Counts stay within their bounds: WON ≤ WIN, BWG ≤ BPG, BWG ≤ WON, REP ≤ rounds.
    #[test]
    fn counts_are_bounded(seed in any::<u64>()) {
        let t = tournament(seed);
        let codes: Vec<Tiebreak> = ["WIN", "WON", "BPG", "BWG", "REP"].iter().map(|c| c.parse().unwrap()).collect();
        let s = table(&t, &codes, Regulations::C07_2026);
        for row in &s.rows {
            let v: Vec<f64> = row.values.iter().map(|v| v.to_f64().unwrap()).collect();
            prop_assert!(v[1] <= v[0] && v[3] <= v[2] && v[3] <= v[1]);
            prop_assert!(v[4] <= f64::from(s.after_round));
        }
    }

    /// The standings are sorted: by score, then each tie-break in turn; ranks never fall and
    /// players on one rank agree on everything.
    #[test]
    fn standings_are_sorted(seed in any::<u64>(), year in 0..2usize) {
        let t = tournament(seed);
        let list = all_tiebreaks();
        let s = table(&t, &list, Regulations::ALL[year]);
        prop_assert_eq!(s.rows.len(), t.players.len());
        for (i, pair) in s.rows.windows(2).enumerate() {
            let (a, b) = (&pair[0], &pair[1]);
            prop_assert!(a.rank <= b.rank);
            prop_assert!(a.score >= b.score);
            if a.rank == b.rank {
                prop_assert_eq!(a.score, b.score);
                prop_assert_eq!(&a.values, &b.values);
                prop_assert!(a.player < b.player, "tied players by pairing number");
            } else {
                prop_assert_eq!(b.rank as usize, i + 2, "a rank after a tie skips the shared places");
            }
            if a.score == b.score {
                // Lexicographically not worse on the list.
                for (k, tiebreak) in list.iter().enumerate() {
                    let (x, y) = (a.values[k].to_f64(), b.values[k].to_f64());
                    if x == y { continue; }
                    let better = if tiebreak.lower_is_better() { x < y } else { x > y };
                    prop_assert!(better || y.is_none(), "{} {:?} {:?}", tiebreak, x, y);
                    break;
                }
            }
        }
    }

    /// Renumbering the players changes nothing but the numbers.
    #[test]
    fn order_does_not_depend_on_pairing_numbers(seed in any::<u64>(), shuffle in any::<u64>(), year in 0..2usize) {
        let t = tournament(seed);
        let mut order: Vec<usize> = (0..t.players.len()).collect();
        let mut rng = Rng(shuffle | 1);
        for k in (1..order.len()).rev() {
            order.swap(k, rng.below(k as u64 + 1) as usize);
        }
        let u = renumbered(&t, &order);
        let list = all_tiebreaks();
        let before = table(&t, &list, Regulations::ALL[year]);
        let after = table(&u, &list, Regulations::ALL[year]);
        for (new, &old) in order.iter().enumerate() {
            let a = before.row(PlayerId::from_index(old)).unwrap();
            let b = after.row(PlayerId::from_index(new)).unwrap();
            prop_assert_eq!((a.rank, a.score, &a.values), (b.rank, b.score, &b.values));
        }
    }

    /// Ordering the remaining ties by pairing number keeps the order and makes ranks distinct.
    #[test]
    fn lot_free_order_breaks_every_tie(seed in any::<u64>()) {
        let t = tournament(seed);
        let shared = table(&t, &all_tiebreaks(), Regulations::C07_2026);
        let options = Options {
            after_round: t.rounds_with_entries(),
            ties: Ties::ByPairingNumber,
            ..Options::new(&t, &all_tiebreaks())
        };
        let strict = Standings::new(&t, &options);
        let players = |s: &Standings| s.rows.iter().map(|r| r.player).collect::<Vec<_>>();
        prop_assert_eq!(players(&shared), players(&strict));
        for (i, row) in strict.rows.iter().enumerate() {
            prop_assert_eq!(row.rank as usize, i + 1);
        }
    }
}

#[test]
fn codes_round_trip() {
    for tiebreak in Tiebreak::ALL {
        assert_eq!(tiebreak.code().parse::<Tiebreak>(), Ok(tiebreak));
        assert_eq!(tiebreak.code().to_lowercase().parse::<Tiebreak>(), Ok(tiebreak));
    }
    assert_eq!(
        "AROC1".parse(),
        Ok(Tiebreak::AverageRatingOfOpponents(rookery_tournament::tiebreak::Modifier::Cut(1)))
    );
    assert_eq!("BH/C1".parse::<Tiebreak>().map(Tiebreak::code), Ok("BH-C1"));
    assert_eq!("GE".parse(), Ok(Tiebreak::RoundsElectedToPlay));
    for bad in ["", "BHX", "BH-C3", "SB-M1", "DE-C1", "BH--C1", "-C1", "XYZ"] {
        let error = bad.parse::<Tiebreak>().unwrap_err();
        assert_eq!(error.code, bad);
        assert!(error.to_string().starts_with(&format!("unknown tie-break {bad:?}")), "{error}");
    }
}
