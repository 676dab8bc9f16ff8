//! A round-based competition as its arbiter runs it (RULES.md §12): entries, withdrawals,
//! byes asked for, forbidden pairs, each round paired (a Swiss by the Dutch or the Burstein
//! system, accelerated or not, or a round robin by the Berger tables), published, its results
//! entered and corrected. Pure and deterministic: the state is the fold of its [`Action`]s,
//! so a server stores the actions (the pairing included, never recomputed on replay) and
//! rebuilds the competition from them after a restart.
//!
//! Identities: an [`EntrantId`] is the order of entry, fixed; the pairing number (TPN, C.04.2
//! 2.2–2.3) is the place in the ranking list — rating, then title, then name — recomputed
//! while the list may change, frozen once round 4 is paired (C.04.2 2.3); later entrants
//! take the next numbers.

mod error;
mod export;

pub use error::{CompetitionError, PairingProblem, RoundProblem};
pub use export::import;

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

use rookery_core::Color;

use crate::acceleration::{self, Method};
use crate::berger::{self, Cycles};
use crate::model::{ByeKind, PlayerId, ResultCode, Scoring};
use crate::swiss_system::{SwissPairError, SwissSystem};
use crate::tiebreak::{Regulations, Tiebreak};

/// An entrant, by order of entry (0-based).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct EntrantId(pub u32);

impl fmt::Display for EntrantId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "entrant {}", self.0)
    }
}

/// How the rounds are paired.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum System {
    /// A Swiss of this many rounds, paired by the Dutch system (implements FIDE Handbook
    /// C.04.3, 2026) or the Burstein system (C.04.4.2, 2026), accelerated or not.
    Swiss {
        /// The number of rounds.
        rounds: u32,
        /// The pairing system.
        pairing: SwissSystem,
        /// The acceleration, if any. The Baku method's last GA player, when not given, is
        /// the competition's own: the last of group GA drawn from the entrants of round 1
        /// ([`Competition::acceleration`]).
        acceleration: Option<Method>,
    },
    /// Every entrant meets every other, by the Berger tables (C.05 Annex 1).
    RoundRobin {
        /// Single or double.
        cycles: Cycles,
    },
}

/// The rules of a competition, fixed when it is created.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Settings {
    /// Its name.
    pub name: String,
    /// How rounds are paired.
    pub system: System,
    /// What each result is worth (the PAB a win's points unless the regulations say else).
    pub scoring: Scoring,
    /// The colour the first player gets in round 1 (C.04.3 5.1: drawn by lot).
    pub initial_colour: Color,
    /// The tie-breaks, in order, and the C.07 text they follow.
    pub tiebreaks: Vec<Tiebreak>,
    /// Which text of C.07.
    pub regulations: Regulations,
    /// How many half- or zero-point byes one entrant may ask for (Swiss).
    pub max_requested_byes: u32,
    /// Entries are taken until this round is paired (1: only before the start; Swiss only).
    pub late_entry_until: u32,
    /// Entrants are paired only once checked in ([`Action::CheckIn`]), as an over-the-board
    /// event's arbiter marks who is in the hall (RULES.md §12); otherwise every entrant is
    /// present unless marked absent.
    pub check_in: bool,
}

/// The result of a board.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum BoardResult {
    /// White won the game.
    WhiteWon,
    /// Black won the game.
    BlackWon,
    /// The game was drawn.
    Draw,
    /// Black did not play: White wins by forfeit (unplayed).
    WhiteByForfeit,
    /// White did not play: Black wins by forfeit (unplayed).
    BlackByForfeit,
    /// Neither played: both lose by forfeit.
    DoubleForfeit,
}

impl BoardResult {
    /// The TRF codes of White and Black.
    pub const fn codes(self) -> (ResultCode, ResultCode) {
        match self {
            BoardResult::WhiteWon => (ResultCode::Win, ResultCode::Loss),
            BoardResult::BlackWon => (ResultCode::Loss, ResultCode::Win),
            BoardResult::Draw => (ResultCode::Draw, ResultCode::Draw),
            BoardResult::WhiteByForfeit => (ResultCode::ForfeitWin, ResultCode::ForfeitLoss),
            BoardResult::BlackByForfeit => (ResultCode::ForfeitLoss, ResultCode::ForfeitWin),
            BoardResult::DoubleForfeit => (ResultCode::ForfeitLoss, ResultCode::ForfeitLoss),
        }
    }

    /// Whether the game was played over the board (RULES.md §12: only those change the §11
    /// ladder).
    pub const fn is_played(self) -> bool {
        matches!(self, BoardResult::WhiteWon | BoardResult::BlackWon | BoardResult::Draw)
    }

    /// The PGN result text (`1-0`, `0-1`, `1/2-1/2`; forfeits as `1-0`/`0-1`, the double
    /// forfeit as `0-0`, which PGN does not have: `*` is written there).
    pub const fn pgn(self) -> &'static str {
        match self {
            BoardResult::WhiteWon | BoardResult::WhiteByForfeit => "1-0",
            BoardResult::BlackWon | BoardResult::BlackByForfeit => "0-1",
            BoardResult::Draw => "1/2-1/2",
            BoardResult::DoubleForfeit => "*",
        }
    }
}

/// One game of a round.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Board {
    /// White.
    pub white: EntrantId,
    /// Black.
    pub black: EntrantId,
    /// The result, once known.
    pub result: Option<BoardResult>,
}

/// Where a round stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RoundState {
    /// Paired, waiting for the arbiter to publish it (Swiss); it may be paired again.
    Paired,
    /// Published: the games are on.
    Published,
    /// Every board has its result.
    Finished,
}

/// One round.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Round {
    /// Where it stands.
    pub state: RoundState,
    /// The games, in board order.
    pub boards: Vec<Board>,
    /// The pairing-allocated bye, if any.
    pub pab: Option<EntrantId>,
}

/// An entrant.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Entrant {
    /// The server's key for them (an account name).
    pub key: String,
    /// Name as shown.
    pub name: String,
    /// Rating, if any.
    pub rating: Option<u16>,
    /// Title (`GM`, `IM`, …), if any.
    pub title: Option<String>,
    /// The first round they may be paired in.
    pub first_round: u32,
    /// The round from which they are withdrawn, if they are.
    pub withdrawn_from: Option<u32>,
}

/// What happens to a competition: the stored log, from which the state is rebuilt.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Action {
    /// An entrant joins.
    Join {
        /// The server's key (unique in the competition).
        key: String,
        /// Name.
        name: String,
        /// Rating.
        rating: Option<u16>,
        /// Title.
        title: Option<String>,
    },
    /// An entrant leaves from a round on (not paired from it).
    Withdraw {
        /// Who.
        entrant: EntrantId,
        /// From which round.
        from_round: u32,
    },
    /// A withdrawn entrant comes back for the rounds not yet paired.
    Reinstate {
        /// Who.
        entrant: EntrantId,
    },
    /// A bye for a round not yet paired (`H` half point, `Z` zero, `F` full by the arbiter's
    /// decision).
    Bye {
        /// Who.
        entrant: EntrantId,
        /// Which round.
        round: u32,
        /// Which bye.
        kind: ByeKind,
        /// Whether the entrant asked for it, so that it counts against
        /// [`Settings::max_requested_byes`]. `false` for a round a report says the entrant
        /// missed ([`import`]): a file says who was absent, never who asked to be.
        requested: bool,
    },
    /// A bye taken back before its round is paired.
    CancelBye {
        /// Who.
        entrant: EntrantId,
        /// Which round.
        round: u32,
    },
    /// Two entrants who must not meet (siblings, team-mates).
    ForbidPair {
        /// One.
        a: EntrantId,
        /// The other.
        b: EntrantId,
    },
    /// A forbidden pair lifted: the two may meet again.
    AllowPair {
        /// One.
        a: EntrantId,
        /// The other.
        b: EntrantId,
    },
    /// The pairing of a round, as [`Competition::pair_next`] made it.
    Paired {
        /// The round.
        round: u32,
        /// Games in board order, White first.
        boards: Vec<(EntrantId, EntrantId)>,
        /// The pairing-allocated bye.
        pab: Option<EntrantId>,
    },
    /// A paired round is published (its games start).
    Publish {
        /// The round.
        round: u32,
    },
    /// A paired round is undone, to pair it again (only before any of its games started).
    Unpair {
        /// The round.
        round: u32,
    },
    /// A board's result, entered or corrected.
    Result {
        /// The round.
        round: u32,
        /// The board, from 1.
        board: u32,
        /// The result.
        result: BoardResult,
    },
    /// A board's result taken back (a desk's entry undone, over the board): the board has no
    /// result again, and a finished round is open again. Only on the last round paired, so
    /// that no pairing was made from the result, and only the result named (two desks: one
    /// never takes back what the other entered since).
    ClearResult {
        /// The round.
        round: u32,
        /// The board, from 1.
        board: u32,
        /// The result taken back.
        result: BoardResult,
    },
    /// The pairing numbers fixed as the order of entry (an imported list keeps its numbers).
    FixOrder,
    /// A board's colours turned round (RULES.md §12: a game found paired with the colours the
    /// wrong way round is restarted with the right ones, before a quarter of the first period).
    SwapColours {
        /// The round.
        round: u32,
        /// The board, from 1.
        board: u32,
    },
    /// An entrant marked present or absent for the rounds paired from now on. An absent
    /// entrant is not paired: the round counts as a zero-point absence (`Z`), as for a late
    /// entrant's rounds before entry; in a round robin, whose table keeps everyone, the
    /// absent entrant's games are forfeits, as a withdrawn entrant's are.
    CheckIn {
        /// Who.
        entrant: EntrantId,
        /// Present (`true`) or absent.
        present: bool,
    },
    /// An entrant's key changed (a guest entry linked to an account): the same entrant, the
    /// same games, known by another key from now on.
    Rekey {
        /// Who.
        entrant: EntrantId,
        /// The new key (unique in the competition).
        key: String,
    },
}

/// A competition: its settings and the state its actions made.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Competition {
    settings: Settings,
    entrants: Vec<Entrant>,
    /// Byes, by (round, entrant).
    byes: BTreeMap<(u32, EntrantId), ByeKind>,
    /// The byes among them that were not asked for (read from a report): not counted against
    /// the limit.
    unrequested: BTreeSet<(u32, EntrantId)>,
    forbidden: Vec<(EntrantId, EntrantId)>,
    rounds: Vec<Round>,
    /// The pairing order once frozen (after round 4 is paired, C.04.2 2.3): entrants by TPN.
    frozen_order: Option<Vec<EntrantId>>,
    /// Entrants marked present (`true`) or absent; the unmarked are present unless the
    /// settings ask for a check-in.
    presence: BTreeMap<EntrantId, bool>,
    /// Who was absent from each round paired, as the presence stood when it was paired.
    absent_in: BTreeSet<(u32, EntrantId)>,
}

impl Competition {
    /// A competition with no entrant yet.
    pub fn new(settings: Settings) -> Competition {
        Competition {
            settings,
            entrants: Vec::new(),
            byes: BTreeMap::new(),
            unrequested: BTreeSet::new(),
            forbidden: Vec::new(),
            rounds: Vec::new(),
            frozen_order: None,
            presence: BTreeMap::new(),
            absent_in: BTreeSet::new(),
        }
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// The entrants, by [`EntrantId`].
    pub fn entrants(&self) -> &[Entrant] {
        &self.entrants
    }

    /// The entrant with this key.
    pub fn find(&self, key: &str) -> Option<EntrantId> {
        self.entrants.iter().position(|e| e.key == key).map(|i| EntrantId(i as u32))
    }

    /// The rounds paired so far (round `r` at index `r - 1`).
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// The byes, by round and entrant: asked for, given by the arbiter, or read from a report.
    pub fn requested_byes(&self) -> &BTreeMap<(u32, EntrantId), ByeKind> {
        &self.byes
    }

    /// The pairs that may not meet.
    pub fn forbidden_pairs(&self) -> &[(EntrantId, EntrantId)] {
        &self.forbidden
    }

    /// The number of rounds the competition has, for the entrants it has now.
    pub fn total_rounds(&self) -> u32 {
        match self.settings.system {
            System::Swiss { rounds, .. } => rounds,
            System::RoundRobin { cycles } => {
                let players = self.entrants.len() as u32;
                berger::rounds(players.max(2), cycles).unwrap_or(0)
            }
        }
    }

    /// The round the next pairing is for.
    pub fn next_round(&self) -> u32 {
        self.rounds.len() as u32 + 1
    }

    /// Whether every round has been played.
    pub fn is_over(&self) -> bool {
        self.rounds.len() as u32 == self.total_rounds()
            && self.rounds.last().is_some_and(|r| r.state == RoundState::Finished)
    }

    /// The acceleration the Swiss is paired with, the Baku method's last GA player resolved:
    /// the one given in the settings, or else the last of group GA (`2·⌈n/4⌉` of the `n`
    /// entrants of round 1, C.04.5.1) at his pairing number now, so that an entrant who joins
    /// later takes the place C.04.2 gives him, inside GA or after it. `None` for a round robin,
    /// a Swiss without acceleration, and before anyone has entered.
    pub fn acceleration(&self) -> Option<Method> {
        let System::Swiss { acceleration: Some(method), .. } = self.settings.system else {
            return None;
        };
        match method {
            Method::Baku { last_ga: Some(_) } => Some(method),
            Method::Baku { last_ga: None } => {
                // Entrants of round 1 keep their order among themselves (the ranking list, or
                // the frozen order), so the last GA player is found among them.
                let first: Vec<usize> = self
                    .pairing_order()
                    .iter()
                    .enumerate()
                    .filter(|(_, id)| self.entrants[id.0 as usize].first_round <= 1)
                    .map(|(tpn, _)| tpn)
                    .collect();
                let groups = acceleration::Baku::new(first.len() as u32, 1)?;
                let last = first[groups.last_ga.index()];
                Some(Method::Baku { last_ga: Some(PlayerId::from_index(last)) })
            }
        }
    }

    /// Whether `entrant` is to be paired in `round`: entered by then, not withdrawn, no bye
    /// asked for it, present (checked in where the settings ask for it; for a round paired
    /// already, as the presence stood then).
    pub fn takes_part(&self, entrant: EntrantId, round: u32) -> bool {
        let e = &self.entrants[entrant.0 as usize];
        let present = if round < self.next_round() {
            !self.absent_in.contains(&(round, entrant))
        } else {
            self.is_present(entrant)
        };
        e.first_round <= round
            && e.withdrawn_from.is_none_or(|w| round < w)
            && !self.byes.contains_key(&(round, entrant))
            && present
    }

    /// Whether `entrant` is present for the next pairing: marked so, or not marked absent
    /// where no check-in is asked for.
    pub fn is_present(&self, entrant: EntrantId) -> bool {
        self.presence.get(&entrant).copied().unwrap_or(!self.settings.check_in)
    }

    /// The entrants in pairing-number order (TPN 1 first): the ranking list (rating, then
    /// title, then name) while it may change, the frozen order after round 4 is paired with
    /// later entrants after it.
    pub fn pairing_order(&self) -> Vec<EntrantId> {
        let mut order = self.frozen_order.clone().unwrap_or_default();
        let mut rest: Vec<EntrantId> = (0..self.entrants.len() as u32)
            .map(EntrantId)
            .filter(|id| !order.contains(id))
            .collect();
        if self.frozen_order.is_none() {
            rest.sort_by(|a, b| {
                ranking_key(&self.entrants[a.0 as usize])
                    .cmp(&ranking_key(&self.entrants[b.0 as usize]))
            });
        }
        order.extend(rest);
        order
    }

    /// Applies an action, or refuses it with the state untouched.
    ///
    /// # Errors
    ///
    /// [`CompetitionError`]: the action does not fit the state.
    pub fn apply(&mut self, action: &Action) -> Result<(), CompetitionError> {
        match action {
            Action::Join { key, name, rating, title } => {
                if self.find(key).is_some() {
                    return Err(CompetitionError::DuplicateKey(key.clone()));
                }
                let next = self.next_round();
                let closed = match self.settings.system {
                    System::Swiss { .. } => next > self.settings.late_entry_until.max(1),
                    System::RoundRobin { .. } => !self.rounds.is_empty(),
                };
                if closed {
                    return Err(CompetitionError::EntriesClosed);
                }
                self.entrants.push(Entrant {
                    key: key.clone(),
                    name: name.clone(),
                    rating: *rating,
                    title: title.clone(),
                    first_round: next,
                    withdrawn_from: None,
                });
            }
            Action::Withdraw { entrant, from_round } => {
                self.entrant(*entrant)?;
                if *from_round < self.next_round() {
                    return Err(CompetitionError::Round {
                        round: *from_round,
                        problem: RoundProblem::PairedAlready,
                    });
                }
                self.entrants[entrant.0 as usize].withdrawn_from = Some(*from_round);
            }
            Action::Reinstate { entrant } => {
                self.entrant(*entrant)?;
                self.entrants[entrant.0 as usize].withdrawn_from = None;
            }
            Action::Bye { entrant, round, kind, requested } => {
                let name = &self.entrant(*entrant)?.name;
                if *round < self.next_round() || *round > self.total_rounds() {
                    return Err(CompetitionError::Round {
                        round: *round,
                        problem: RoundProblem::NotToPair,
                    });
                }
                let key = (*round, *entrant);
                let asked = self
                    .byes
                    .keys()
                    .filter(|k| k.1 == *entrant && !self.unrequested.contains(k))
                    .count() as u32;
                if *requested
                    && *kind != ByeKind::Full
                    && !self.byes.contains_key(&key)
                    && asked >= self.settings.max_requested_byes
                {
                    return Err(CompetitionError::TooManyByes {
                        entrant: *entrant,
                        name: name.clone(),
                        limit: self.settings.max_requested_byes,
                    });
                }
                self.byes.insert(key, *kind);
                if *requested {
                    self.unrequested.remove(&key);
                } else {
                    self.unrequested.insert(key);
                }
            }
            Action::CancelBye { entrant, round } => {
                self.entrant(*entrant)?;
                if *round < self.next_round() {
                    return Err(CompetitionError::Round {
                        round: *round,
                        problem: RoundProblem::PairedAlready,
                    });
                }
                self.byes.remove(&(*round, *entrant));
                self.unrequested.remove(&(*round, *entrant));
            }
            Action::ForbidPair { a, b } => {
                self.entrant(*a)?;
                self.entrant(*b)?;
                if a != b
                    && !self.forbidden.contains(&(*a, *b))
                    && !self.forbidden.contains(&(*b, *a))
                {
                    self.forbidden.push((*a, *b));
                }
            }
            Action::AllowPair { a, b } => {
                self.entrant(*a)?;
                self.entrant(*b)?;
                self.forbidden.retain(|&(x, y)| (x, y) != (*a, *b) && (x, y) != (*b, *a));
            }
            Action::Paired { round, boards, pab } => {
                if *round > self.total_rounds() {
                    return Err(CompetitionError::Over);
                }
                if *round != self.next_round() {
                    return Err(CompetitionError::Round {
                        round: *round,
                        problem: RoundProblem::NotNext,
                    });
                }
                if let Some(last) = self.rounds.last() {
                    if last.state != RoundState::Finished {
                        return Err(CompetitionError::Round {
                            round: *round,
                            problem: RoundProblem::PreviousUnfinished,
                        });
                    }
                }
                self.check_pairing(*round, boards, *pab)?;
                for id in (0..self.entrants.len() as u32).map(EntrantId) {
                    if !self.is_present(id) {
                        self.absent_in.insert((*round, id));
                    }
                }
                self.rounds.push(Round {
                    state: RoundState::Paired,
                    boards: boards
                        .iter()
                        .map(|&(white, black)| Board { white, black, result: None })
                        .collect(),
                    pab: *pab,
                });
                if *round == 4 && self.frozen_order.is_none() {
                    self.frozen_order = Some(self.pairing_order());
                }
            }
            Action::Publish { round } => {
                let r = self.round_mut(*round)?;
                if r.state != RoundState::Paired {
                    return Err(CompetitionError::Round {
                        round: *round,
                        problem: RoundProblem::NotAwaitingPublication,
                    });
                }
                r.state =
                    if r.boards.is_empty() { RoundState::Finished } else { RoundState::Published };
            }
            Action::Unpair { round } => {
                if *round + 1 != self.next_round() {
                    return Err(CompetitionError::Round {
                        round: *round,
                        problem: RoundProblem::NotLastPaired,
                    });
                }
                let r = self.round_mut(*round)?;
                if r.boards.iter().any(|b| b.result.is_some()) {
                    return Err(CompetitionError::Round {
                        round: *round,
                        problem: RoundProblem::HasResults,
                    });
                }
                self.rounds.pop();
                self.absent_in.retain(|&(r, _)| r != *round);
                if *round == 4 {
                    self.frozen_order = None;
                }
            }
            Action::Result { round, board, result } => {
                let r = self.round_mut(*round)?;
                if r.state == RoundState::Paired {
                    return Err(CompetitionError::Round {
                        round: *round,
                        problem: RoundProblem::NotPublished,
                    });
                }
                let b = r
                    .boards
                    .get_mut((*board as usize).wrapping_sub(1))
                    .ok_or(CompetitionError::UnknownBoard { round: *round, board: *board })?;
                b.result = Some(*result);
                if r.boards.iter().all(|b| b.result.is_some()) {
                    r.state = RoundState::Finished;
                }
            }
            Action::ClearResult { round, board, result } => {
                if *round + 1 != self.next_round() {
                    return Err(CompetitionError::Round {
                        round: *round,
                        problem: RoundProblem::NotLastPaired,
                    });
                }
                let r = self.round_mut(*round)?;
                let b = r
                    .boards
                    .get_mut((*board as usize).wrapping_sub(1))
                    .ok_or(CompetitionError::UnknownBoard { round: *round, board: *board })?;
                let problem = match b.result {
                    None => Some(RoundProblem::NoResult),
                    Some(has) if has != *result => Some(RoundProblem::OtherResult),
                    Some(_) => None,
                };
                if let Some(problem) = problem {
                    return Err(CompetitionError::Round { round: *round, problem });
                }
                b.result = None;
                r.state = RoundState::Published;
            }
            Action::FixOrder => {
                self.frozen_order = Some((0..self.entrants.len() as u32).map(EntrantId).collect());
            }
            Action::SwapColours { round, board } => {
                let r = self.round_mut(*round)?;
                let b = r
                    .boards
                    .get_mut((*board as usize).wrapping_sub(1))
                    .ok_or(CompetitionError::UnknownBoard { round: *round, board: *board })?;
                if b.result.is_some() {
                    return Err(CompetitionError::Round {
                        round: *round,
                        problem: RoundProblem::GameHasResult,
                    });
                }
                std::mem::swap(&mut b.white, &mut b.black);
            }
            Action::CheckIn { entrant, present } => {
                self.entrant(*entrant)?;
                self.presence.insert(*entrant, *present);
            }
            Action::Rekey { entrant, key } => {
                self.entrant(*entrant)?;
                if self.find(key).is_some_and(|other| other != *entrant) {
                    return Err(CompetitionError::DuplicateKey(key.clone()));
                }
                self.entrants[entrant.0 as usize].key = key.clone();
            }
        }
        Ok(())
    }

    fn entrant(&self, id: EntrantId) -> Result<&Entrant, CompetitionError> {
        self.entrants.get(id.0 as usize).ok_or(CompetitionError::UnknownEntrant(id))
    }

    fn round_mut(&mut self, round: u32) -> Result<&mut Round, CompetitionError> {
        self.rounds
            .get_mut((round as usize).wrapping_sub(1))
            .ok_or(CompetitionError::Round { round, problem: RoundProblem::NotPaired })
    }

    /// Checks that a pairing pairs every entrant taking part exactly once.
    fn check_pairing(
        &self,
        round: u32,
        boards: &[(EntrantId, EntrantId)],
        pab: Option<EntrantId>,
    ) -> Result<(), CompetitionError> {
        let mut seen = vec![false; self.entrants.len()];
        for id in boards.iter().flat_map(|&(w, b)| [w, b]).chain(pab) {
            let name = &self.entrant(id)?.name;
            if std::mem::replace(&mut seen[id.0 as usize], true) {
                return Err(CompetitionError::BadPairing(PairingProblem::PairedTwice {
                    entrant: id,
                    name: name.clone(),
                }));
            }
            // A round robin keeps a withdrawn entrant in the table (the games are forfeits).
            if !self.takes_part(id, round) && matches!(self.settings.system, System::Swiss { .. }) {
                return Err(CompetitionError::BadPairing(PairingProblem::NotDue {
                    entrant: id,
                    name: name.clone(),
                    round,
                }));
            }
        }
        for id in (0..self.entrants.len() as u32).map(EntrantId) {
            let due = match self.settings.system {
                System::Swiss { .. } => self.takes_part(id, round),
                System::RoundRobin { .. } => true,
            };
            if due && !seen[id.0 as usize] {
                let name = &self.entrants[id.0 as usize].name;
                return Err(CompetitionError::BadPairing(PairingProblem::LeftOut {
                    entrant: id,
                    name: name.clone(),
                }));
            }
        }
        Ok(())
    }

    /// The pairing of the next round by the competition's system, as an action to store and
    /// apply: the Swiss system on the tournament so far, accelerated as the settings say
    /// ([`SwissSystem::pair_accelerated`], the step `rookery pair` takes too), or the Berger
    /// table.
    ///
    /// # Errors
    ///
    /// [`CompetitionError`]: the previous round is not finished, the competition is over, too
    /// few entrants, the acceleration cannot be applied, or the rules give no pairing.
    pub fn pair_next(&self) -> Result<Action, CompetitionError> {
        let round = self.next_round();
        if round > self.total_rounds() {
            return Err(CompetitionError::Over);
        }
        if self.rounds.last().is_some_and(|r| r.state != RoundState::Finished) {
            return Err(CompetitionError::Round {
                round,
                problem: RoundProblem::PreviousUnfinished,
            });
        }
        let present = (0..self.entrants.len() as u32)
            .map(EntrantId)
            .filter(|&id| self.takes_part(id, round))
            .count();
        if present < 2 && self.rounds.is_empty() {
            return Err(CompetitionError::TooFewEntrants);
        }
        let order = self.pairing_order();
        match self.settings.system {
            System::Swiss { pairing, .. } => {
                let tournament = self.to_tournament_before(round);
                let pairing = pairing
                    .pair_accelerated(&tournament, round, self.acceleration())
                    .map_err(|e| match e {
                        SwissPairError::Pair(e) => CompetitionError::Pairing(e),
                        SwissPairError::Acceleration(e) => CompetitionError::Acceleration(e),
                    })?;
                let id = |p: PlayerId| order[p.index()];
                Ok(Action::Paired {
                    round,
                    boards: pairing.pairs.iter().map(|p| (id(p.white), id(p.black))).collect(),
                    pab: pairing.bye.map(id),
                })
            }
            System::RoundRobin { cycles } => {
                let players = order.len() as u32;
                let pairing = berger::round_pairing(players, cycles, round)
                    .map_err(|e| CompetitionError::BadPairing(PairingProblem::Berger(e)))?;
                let id = |p: PlayerId| order[p.index()];
                // Withdrawn entrants keep their place in the table: their games are forfeits,
                // entered as results when the round is published.
                Ok(Action::Paired {
                    round,
                    boards: pairing.pairs.iter().map(|p| (id(p.white), id(p.black))).collect(),
                    pab: pairing.bye.map(id),
                })
            }
        }
    }

    /// The results a round robin gives at once when a round is published: games of a
    /// withdrawn entrant are forfeits.
    pub fn forfeits_of_withdrawn(&self, round: u32) -> Vec<Action> {
        let Some(r) = self.rounds.get((round as usize).wrapping_sub(1)) else { return Vec::new() };
        let out = |id: EntrantId| !self.takes_part(id, round);
        r.boards
            .iter()
            .enumerate()
            .filter(|(_, b)| b.result.is_none())
            .filter_map(|(i, b)| {
                let result = match (out(b.white), out(b.black)) {
                    (true, true) => BoardResult::DoubleForfeit,
                    (true, false) => BoardResult::BlackByForfeit,
                    (false, true) => BoardResult::WhiteByForfeit,
                    (false, false) => return None,
                };
                Some(Action::Result { round, board: i as u32 + 1, result })
            })
            .collect()
    }
}

/// The order of the ranking list (C.04.2 2.2): rating (highest first, none last), title (GM,
/// IM, WGM, FM, WIM, CM, WFM, WCM, none), name.
fn ranking_key(e: &Entrant) -> (std::cmp::Reverse<u16>, usize, String) {
    const TITLES: [&str; 8] = ["GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM"];
    let title = e
        .title
        .as_deref()
        .and_then(|t| TITLES.iter().position(|x| x.eq_ignore_ascii_case(t)))
        .unwrap_or(TITLES.len());
    (std::cmp::Reverse(e.rating.unwrap_or(0)), title, e.name.to_lowercase())
}

/// What an entrant's round says, as a TRF code: a board's result, the PAB, a bye asked for,
/// or an absence.
pub(crate) fn round_code(
    competition: &Competition,
    entrant: EntrantId,
    round: u32,
) -> Option<(Option<(EntrantId, Color)>, ResultCode)> {
    let r = competition.rounds.get((round as usize).wrapping_sub(1))?;
    for b in &r.boards {
        let (opponent, colour, side) = if b.white == entrant {
            (b.black, Color::White, 0)
        } else if b.black == entrant {
            (b.white, Color::Black, 1)
        } else {
            continue;
        };
        let result = b.result?;
        let codes = result.codes();
        return Some((Some((opponent, colour)), if side == 0 { codes.0 } else { codes.1 }));
    }
    if r.pab == Some(entrant) {
        return Some((None, ResultCode::PairingAllocatedBye));
    }
    let kind = competition.byes.get(&(round, entrant)).copied().unwrap_or(ByeKind::Zero);
    Some((None, kind.result()))
}

#[cfg(test)]
mod tests;
