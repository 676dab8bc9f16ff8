//! A competition as a tournament report (the TRF model), for pairing, standings and export,
//! and a tournament report as a competition's actions, for import.

use rookery_core::Color;

use super::{
    round_code, Action, BoardResult, Competition, CompetitionError, EntrantId, PairingProblem,
    RoundState, Settings, System,
};
use crate::acceleration;
use crate::model::{
    AnnouncedBye, ByeKind, ForbiddenPairs, Player, PlayerId, ResultCode, RoundEntry, Tournament,
};
use crate::swiss_system::SwissSystem;

impl Competition {
    /// The tournament report of the competition: its finished rounds, entrants in
    /// pairing-number order, and as `240` announcements of later rounds the byes asked for
    /// them and, in a Swiss, a withdrawal (a zero-point bye in each round left, which is how
    /// the report says it in the rounds played). An accelerated Swiss has its virtual points
    /// as `250` lines and its type (`092`) says so, so that a pairings checker (`rookery pair
    /// --dutch|--burstein -c`) re-pairs every round as the competition paired it.
    pub fn to_tournament(&self) -> Tournament {
        let finished =
            self.rounds.iter().take_while(|r| r.state == RoundState::Finished).count() as u32;
        let mut t = self.report(finished);
        if let Some(method) = self.acceleration() {
            // An acceleration that cannot be applied paired no round either (`pair_next`
            // refuses it): the report then has none.
            acceleration::accelerate(&mut t, method).ok();
        }
        let swiss = matches!(self.settings.system, System::Swiss { .. });
        for (index, e) in self.entrants.iter().enumerate() {
            let entrant = EntrantId(index as u32);
            for round in finished + 1..=self.total_rounds() {
                let kind = match self.byes.get(&(round, entrant)) {
                    Some(&kind) => kind,
                    None if swiss && e.withdrawn_from.is_some_and(|w| w <= round) => ByeKind::Zero,
                    None => continue,
                };
                t.byes.push(AnnouncedBye { player: self.tpn(entrant), round, kind });
            }
        }
        t.byes.sort_by_key(|b| (b.round, b.player));
        t
    }

    /// The tournament as it stands before `round` is paired: the rounds before it, and the
    /// entrants who will not be paired in it (a bye asked for, withdrawn, not entered yet)
    /// with their entry for it.
    pub(crate) fn to_tournament_before(&self, round: u32) -> Tournament {
        let mut t = self.report(round - 1);
        for (index, id) in self.pairing_order().into_iter().enumerate() {
            if !self.takes_part(id, round) {
                let kind = self.byes.get(&(round, id)).copied().unwrap_or(ByeKind::Zero);
                let player = &mut t.players[index];
                player.points += t.scoring.points(kind.result());
                player.rounds.push(RoundEntry::bye(kind.result()));
            }
        }
        t
    }

    /// The pairing number of an entrant.
    pub fn tpn(&self, entrant: EntrantId) -> PlayerId {
        let index = self
            .pairing_order()
            .iter()
            .position(|&e| e == entrant)
            .expect("every entrant has a place");
        PlayerId::from_index(index)
    }

    /// The report of rounds `1..=rounds`.
    fn report(&self, rounds: u32) -> Tournament {
        let order = self.pairing_order();
        let mut number = vec![PlayerId::from_index(0); self.entrants.len()];
        for (i, &id) in order.iter().enumerate() {
            number[id.0 as usize] = PlayerId::from_index(i);
        }
        let scoring = self.settings.scoring;
        let players = order
            .iter()
            .map(|&id| {
                let e = &self.entrants[id.0 as usize];
                let entries: Vec<RoundEntry> = (1..=rounds)
                    .map(|r| match round_code(self, id, r) {
                        Some((Some((opponent, colour)), result)) => RoundEntry {
                            opponent: Some(number[opponent.0 as usize]),
                            colour: Some(colour),
                            result,
                        },
                        Some((None, result)) => RoundEntry::bye(result),
                        None => RoundEntry::ABSENT,
                    })
                    .collect();
                Player {
                    title: e.title.clone(),
                    name: e.name.clone(),
                    rating: e.rating,
                    points: entries.iter().map(|x| scoring.points(x.result)).sum(),
                    rounds: entries,
                    ..Player::default()
                }
            })
            .collect();
        Tournament {
            name: Some(self.settings.name.clone()),
            kind: Some(match self.settings.system {
                // The type a Dutch Swiss has always been exported with (bbpPairings and
                // `rookery pair` read a type naming no other system as Dutch).
                System::Swiss { pairing: SwissSystem::Dutch, acceleration: None, .. } => {
                    "Individual: Swiss-System (FIDE Dutch, C.04.3 2026)".to_owned()
                }
                System::Swiss { pairing, acceleration, .. } => {
                    pairing.trf_kind(acceleration.is_some()).to_owned()
                }
                System::RoundRobin { .. } => "Individual: Round-Robin (Berger tables)".to_owned(),
            }),
            rounds: Some(self.total_rounds()),
            initial_colour: Some(self.settings.initial_colour),
            scoring,
            players,
            forbidden_pairs: self
                .forbidden
                .iter()
                .map(|&(a, b)| ForbiddenPairs {
                    players: vec![number[a.0 as usize], number[b.0 as usize]],
                    first_round: None,
                    last_round: None,
                })
                .collect(),
            tie_breaks: self.settings.tiebreaks.iter().map(|t| t.code().to_owned()).collect(),
            tie_break_regulations: Some(self.settings.regulations),
            ..Tournament::default()
        }
    }
}

/// The settings and actions that rebuild a tournament report as a competition: its players
/// joining in pairing-number order (the order kept as it is), then round by round the byes,
/// the pairing and its results. The competition continues from where the report ends.
///
/// A report says who missed a round, never who asked to: a round without opponent is a bye
/// not asked for (`requested: false`, not counted against the limit of byes), and a player
/// absent (`Z`) from some round to the last one the report has — the rounds played, then a
/// `240 Z` announcement for each round left — is withdrawn from that round, as the
/// competition writes a withdrawal ([`Competition::to_tournament`]). The standings and the
/// crosstable are the report's either way; only a player who asked for zero-point byes in
/// every round to the end reads back as withdrawn.
///
/// # Errors
///
/// [`CompetitionError::BadPairing`] when a round of the report is not a pairing (a player
/// twice, entries that disagree).
pub fn import(t: &Tournament, system: System) -> Result<(Settings, Vec<Action>), CompetitionError> {
    let played = t.rounds_played();
    let settings = Settings {
        name: t.name.clone().unwrap_or_default(),
        system,
        scoring: t.scoring,
        initial_colour: t
            .initial_colour
            .or_else(|| t.inferred_initial_colour())
            .unwrap_or(Color::White),
        tiebreaks: t.tie_breaks.iter().filter_map(|c| c.parse().ok()).collect(),
        regulations: t.tie_break_regulations.unwrap_or_default(),
        max_requested_byes: u32::MAX,
        late_entry_until: played + 1,
        check_in: false,
    };
    let id = |p: PlayerId| EntrantId(p.index() as u32);
    let mut actions: Vec<Action> = t
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| Action::Join {
            key: format!("trf:{}", i + 1),
            name: p.name.clone(),
            rating: p.rating,
            title: p.title.clone(),
        })
        .collect();
    actions.push(Action::FixOrder);
    for group in &t.forbidden_pairs {
        for (i, &a) in group.players.iter().enumerate() {
            for &b in &group.players[i + 1..] {
                actions.push(Action::ForbidPair { a: id(a), b: id(b) });
            }
        }
    }
    let planned = t.planned_rounds().max(played);
    let withdrawn_from: Vec<Option<u32>> =
        t.player_ids().map(|p| withdrawal(t, p, played, planned)).collect();
    for round in 1..=played {
        for (i, w) in withdrawn_from.iter().enumerate() {
            if *w == Some(round) {
                actions.push(Action::Withdraw { entrant: EntrantId(i as u32), from_round: round });
            }
        }
        let mut boards = Vec::new();
        let mut results = Vec::new();
        let mut pab = None;
        for (i, player) in t.players.iter().enumerate() {
            let me = PlayerId::from_index(i);
            if withdrawn_from[i].is_some_and(|w| w <= round) {
                continue;
            }
            match player.round(round) {
                Some(RoundEntry {
                    opponent: Some(opponent),
                    colour: Some(Color::White),
                    result,
                }) => {
                    let no_entry = PairingProblem::NoEntry { round, player: *opponent };
                    let theirs = t
                        .player(*opponent)
                        .and_then(|o| o.round(round))
                        .ok_or(CompetitionError::BadPairing(no_entry))?;
                    results.push(board_result(*result, theirs.result, round)?);
                    boards.push((id(me), id(*opponent)));
                }
                Some(e) if e.result == ResultCode::PairingAllocatedBye => pab = Some(id(me)),
                Some(e) if e.opponent.is_none() => {
                    if let Some(kind) = ByeKind::from_result(e.result) {
                        let entrant = id(me);
                        actions.push(Action::Bye { entrant, round, kind, requested: false });
                    }
                }
                None => {
                    let (entrant, kind) = (id(me), ByeKind::Zero);
                    actions.push(Action::Bye { entrant, round, kind, requested: false });
                }
                _ => {}
            }
        }
        actions.push(Action::Paired { round, boards, pab });
        actions.push(Action::Publish { round });
        for (board, result) in results.into_iter().enumerate() {
            actions.push(Action::Result { round, board: board as u32 + 1, result });
        }
    }
    for (i, w) in withdrawn_from.iter().enumerate() {
        if let Some(from_round) = w.filter(|&w| w > played) {
            actions.push(Action::Withdraw { entrant: EntrantId(i as u32), from_round });
        }
    }
    for bye in t.byes.iter().filter(|b| b.round > played) {
        if withdrawn_from[bye.player.index()].is_some_and(|w| w <= bye.round) {
            continue;
        }
        let (entrant, round, kind) = (id(bye.player), bye.round, bye.kind);
        actions.push(Action::Bye { entrant, round, kind, requested: false });
    }
    Ok((settings, actions))
}

/// The round from which `player` is absent (`Z`, no opponent) in every round to `planned`:
/// in his entries of the rounds `played`, then in the byes announced for the rounds after.
fn withdrawal(t: &Tournament, player: PlayerId, played: u32, planned: u32) -> Option<u32> {
    let absent = |round: u32| {
        if round <= played {
            t.player(player)
                .and_then(|p| p.round(round))
                .is_none_or(|e| e.opponent.is_none() && e.result == ResultCode::ZeroPointBye)
        } else {
            t.byes.iter().any(|b| (b.player, b.round, b.kind) == (player, round, ByeKind::Zero))
        }
    };
    let mut from = None;
    for round in (1..=planned).rev() {
        if !absent(round) {
            break;
        }
        from = Some(round);
    }
    from
}

/// A board's result from White's and Black's codes.
fn board_result(
    white: ResultCode,
    black: ResultCode,
    round: u32,
) -> Result<BoardResult, CompetitionError> {
    use ResultCode::*;
    Ok(match (white, black) {
        (Win | UnratedWin, Loss | UnratedLoss) => BoardResult::WhiteWon,
        (Loss | UnratedLoss, Win | UnratedWin) => BoardResult::BlackWon,
        (Draw | UnratedDraw, Draw | UnratedDraw) => BoardResult::Draw,
        (ForfeitWin, ForfeitLoss) => BoardResult::WhiteByForfeit,
        (ForfeitLoss, ForfeitWin) => BoardResult::BlackByForfeit,
        (ForfeitLoss, ForfeitLoss) => BoardResult::DoubleForfeit,
        _ => {
            return Err(CompetitionError::BadPairing(PairingProblem::NoGame {
                round,
                white,
                black,
            }))
        }
    })
}
