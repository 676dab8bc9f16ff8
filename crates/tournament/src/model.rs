//! The tournament as data: players, their round-by-round entries and the settings that pairing
//! and tie-breaks read. This is what a TRF file says, decoded; every engine of the crate reads
//! it and none of them writes to it.

use std::fmt;
use std::num::NonZeroU32;

use rookery_core::Color;

use crate::score::Score;
use crate::tiebreak::Regulations;

/// A player's pairing number (TPN, FIDE C.04.2 2.3; the "starting rank" of a TRF `001` line),
/// from 1.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct PlayerId(NonZeroU32);

impl PlayerId {
    /// The pairing number `n`, or `None` for 0.
    pub const fn new(n: u32) -> Option<PlayerId> {
        match NonZeroU32::new(n) {
            Some(n) => Some(PlayerId(n)),
            None => None,
        }
    }

    /// The pairing number of the player at `index` (0-based) in [`Tournament::players`].
    ///
    /// # Panics
    ///
    /// If `index + 1` does not fit in a `u32`.
    pub fn from_index(index: usize) -> PlayerId {
        let n = u32::try_from(index + 1).expect("player index fits in u32");
        PlayerId(NonZeroU32::new(n).expect("index + 1 is not zero"))
    }

    /// The pairing number, from 1.
    pub const fn get(self) -> u32 {
        self.0.get()
    }

    /// The 0-based index of this player in [`Tournament::players`].
    pub const fn index(self) -> usize {
        self.0.get() as usize - 1
    }
}

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// What one round was for one player: the result code of a TRF round block (TRF-2026, the
/// same letters as TRF-16).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ResultCode {
    /// `1`: won a played game.
    Win,
    /// `=`: drew a played game.
    Draw,
    /// `0`: lost a played game.
    Loss,
    /// `W`: won a game that was played but is not rated (e.g. less than one move each).
    UnratedWin,
    /// `D`: drew a game that was played but is not rated.
    UnratedDraw,
    /// `L`: lost a game that was played but is not rated.
    UnratedLoss,
    /// `+`: won by forfeit (the game was not played).
    ForfeitWin,
    /// `-`: lost by forfeit (the game was not played).
    ForfeitLoss,
    /// `H`: a requested half-point bye.
    HalfPointBye,
    /// `F`: a full-point bye (not the pairing-allocated bye).
    FullPointBye,
    /// `U`: the pairing-allocated bye (PAB): unpaired because the number was odd.
    PairingAllocatedBye,
    /// `Z` (or a blank block): a zero-point bye, an absence.
    ZeroPointBye,
}

impl ResultCode {
    /// Every code, in TRF's order of listing.
    pub const ALL: [ResultCode; 12] = [
        ResultCode::ForfeitWin,
        ResultCode::ForfeitLoss,
        ResultCode::UnratedWin,
        ResultCode::UnratedDraw,
        ResultCode::UnratedLoss,
        ResultCode::Win,
        ResultCode::Draw,
        ResultCode::Loss,
        ResultCode::HalfPointBye,
        ResultCode::FullPointBye,
        ResultCode::PairingAllocatedBye,
        ResultCode::ZeroPointBye,
    ];

    /// The TRF letter of this code.
    pub const fn to_char(self) -> char {
        match self {
            ResultCode::Win => '1',
            ResultCode::Draw => '=',
            ResultCode::Loss => '0',
            ResultCode::UnratedWin => 'W',
            ResultCode::UnratedDraw => 'D',
            ResultCode::UnratedLoss => 'L',
            ResultCode::ForfeitWin => '+',
            ResultCode::ForfeitLoss => '-',
            ResultCode::HalfPointBye => 'H',
            ResultCode::FullPointBye => 'F',
            ResultCode::PairingAllocatedBye => 'U',
            ResultCode::ZeroPointBye => 'Z',
        }
    }

    /// The code a TRF letter stands for (`'1'`, `'='`, …); lowercase letters are accepted.
    pub fn from_char(c: char) -> Option<ResultCode> {
        ResultCode::ALL.into_iter().find(|code| code.to_char() == c.to_ascii_uppercase())
    }

    /// Whether the game was played over the board (`1 = 0 W D L`).
    pub const fn is_played(self) -> bool {
        matches!(
            self,
            ResultCode::Win
                | ResultCode::Draw
                | ResultCode::Loss
                | ResultCode::UnratedWin
                | ResultCode::UnratedDraw
                | ResultCode::UnratedLoss
        )
    }

    /// Whether the code needs an opponent: a played game or a forfeit.
    pub const fn has_opponent(self) -> bool {
        self.is_played() || matches!(self, ResultCode::ForfeitWin | ResultCode::ForfeitLoss)
    }

    /// The outcome this code counts as for points (win, draw or loss).
    pub const fn outcome(self) -> Outcome {
        match self {
            ResultCode::Win
            | ResultCode::UnratedWin
            | ResultCode::ForfeitWin
            | ResultCode::FullPointBye
            | ResultCode::PairingAllocatedBye => Outcome::Win,
            ResultCode::Draw | ResultCode::UnratedDraw | ResultCode::HalfPointBye => Outcome::Draw,
            ResultCode::Loss
            | ResultCode::UnratedLoss
            | ResultCode::ForfeitLoss
            | ResultCode::ZeroPointBye => Outcome::Loss,
        }
    }
}

/// Win, draw or loss, whatever the way it came about.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Outcome {
    /// A win (over the board, by forfeit, or a bye worth a win).
    Win,
    /// A draw or a half-point bye.
    Draw,
    /// A loss, a forfeit loss or a zero-point bye.
    Loss,
}

/// One round of one player: an opponent and colour for a game or forfeit, none for a bye.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct RoundEntry {
    /// The opponent, for a played game or a forfeit.
    pub opponent: Option<PlayerId>,
    /// The colour the player had (or would have had, for a forfeit).
    pub colour: Option<Color>,
    /// What the round was.
    pub result: ResultCode,
}

impl RoundEntry {
    /// A round without opponent: a bye or an absence.
    pub const fn bye(result: ResultCode) -> RoundEntry {
        RoundEntry { opponent: None, colour: None, result }
    }

    /// The absence a blank TRF block stands for (zero points, not paired).
    pub const ABSENT: RoundEntry = RoundEntry::bye(ResultCode::ZeroPointBye);

    /// Whether a game was played over the board this round.
    pub const fn is_played(&self) -> bool {
        self.result.is_played()
    }

    /// Whether the player was paired this round (a game, a forfeit or the PAB): what FIDE's
    /// rules call having "participated in the pairing".
    pub const fn was_paired(&self) -> bool {
        self.opponent.is_some() || matches!(self.result, ResultCode::PairingAllocatedBye)
    }
}

/// The points each kind of round is worth: TRF-2026 line `162`, TRF(bx) `BBW`…`BBU`, JaVaFo's
/// `XXS`. The default is 1, ½, 0, and the PAB worth a win.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Scoring {
    /// A win over the board (`1`, `W`).
    pub win: Score,
    /// A draw over the board (`=`, `D`).
    pub draw: Score,
    /// A loss over the board (`0`, `L`).
    pub loss: Score,
    /// A forfeit win (`+`).
    pub forfeit_win: Score,
    /// A forfeit loss (`-`).
    pub forfeit_loss: Score,
    /// A requested half-point bye (`H`).
    pub half_point_bye: Score,
    /// A full-point bye (`F`).
    pub full_point_bye: Score,
    /// The pairing-allocated bye (`U`).
    pub pairing_allocated_bye: Score,
    /// A zero-point bye or absence (`Z`).
    pub zero_point_bye: Score,
}

impl Default for Scoring {
    fn default() -> Scoring {
        Scoring {
            win: Score::ONE,
            draw: Score::HALF,
            loss: Score::ZERO,
            forfeit_win: Score::ONE,
            forfeit_loss: Score::ZERO,
            half_point_bye: Score::HALF,
            full_point_bye: Score::ONE,
            pairing_allocated_bye: Score::ONE,
            zero_point_bye: Score::ZERO,
        }
    }
}

impl Scoring {
    /// What a round with this code is worth.
    pub const fn points(&self, code: ResultCode) -> Score {
        match code {
            ResultCode::Win | ResultCode::UnratedWin => self.win,
            ResultCode::Draw | ResultCode::UnratedDraw => self.draw,
            ResultCode::Loss | ResultCode::UnratedLoss => self.loss,
            ResultCode::ForfeitWin => self.forfeit_win,
            ResultCode::ForfeitLoss => self.forfeit_loss,
            ResultCode::HalfPointBye => self.half_point_bye,
            ResultCode::FullPointBye => self.full_point_bye,
            ResultCode::PairingAllocatedBye => self.pairing_allocated_bye,
            ResultCode::ZeroPointBye => self.zero_point_bye,
        }
    }
}

/// One player of a tournament: the `001` line.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Player {
    /// Sex, as the file gives it (`m`, `w`/`f`), if any.
    pub sex: Option<char>,
    /// Title (`GM`, `IM`, `WGM`, `FM`, `WIM`, `CM`, `WFM`, `WCM`, lowercase in TRF), if any.
    pub title: Option<String>,
    /// Name, `Lastname, Firstname` by convention.
    pub name: String,
    /// Rating (FIDE or the one the tournament uses), if any.
    pub rating: Option<u16>,
    /// Federation, three letters, if any.
    pub federation: Option<String>,
    /// FIDE identifier, if any.
    pub fide_id: Option<u64>,
    /// Birth date as written (`YYYY/MM/DD`, or a year), if any.
    pub birth_date: Option<String>,
    /// The score the file declares (checked against the rounds when read).
    pub points: Score,
    /// The rank the file declares, if any.
    pub rank: Option<u32>,
    /// One entry per round, from round 1; shorter than the tournament's rounds when the
    /// player has no entry for the last ones (not yet paired, or a late entry).
    pub rounds: Vec<RoundEntry>,
}

impl Player {
    /// The entry of round `round` (from 1), if the player has one.
    pub fn round(&self, round: u32) -> Option<&RoundEntry> {
        self.rounds.get(round.checked_sub(1)? as usize)
    }
}

/// Fictitious points added to a player's score for pairing only (acceleration): TRF-2026
/// `250`, TRF(x) `XXA`. `points[r]` is added when pairing round `r + 1`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Acceleration {
    /// The player.
    pub player: PlayerId,
    /// The points added, round by round from round 1.
    pub points: Vec<Score>,
}

/// A team of a team competition as TRF-2026's `013` record gives it: its name and its
/// players' pairing numbers in board order (the registration and board order "when board
/// order is fixed"). TRF-2026 marks `013` "to be phased out" for `310`, which also carries
/// the team's scores; `013` is what every TRF reader of team events knows.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TeamRecord {
    /// The team's name (columns 5–36).
    pub name: String,
    /// Its players, board 1 first, reserves after (columns 37–40, 42–45, …).
    pub players: Vec<PlayerId>,
}

/// Players who must not be paired with each other (siblings, team-mates): TRF-2026 `260`,
/// TRF(x) `XXP`. Every two players of the group are a forbidden pair, in the rounds given.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ForbiddenPairs {
    /// The players, every two of whom may not meet.
    pub players: Vec<PlayerId>,
    /// The first round (from 1) the ban applies to; `None`: from the start.
    pub first_round: Option<u32>,
    /// The last round the ban applies to; `None`: to the end.
    pub last_round: Option<u32>,
}

impl ForbiddenPairs {
    /// Whether the ban applies when pairing `round` (from 1).
    pub fn applies_to(&self, round: u32) -> bool {
        self.first_round.is_none_or(|first| round >= first)
            && self.last_round.is_none_or(|last| round <= last)
    }
}

/// A whole tournament: header, players, rounds and the settings pairing needs.
///
/// `players[i]` has pairing number `i + 1`: pairing numbers run from 1 without gaps.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Tournament {
    /// `012` tournament name.
    pub name: Option<String>,
    /// `022` city.
    pub city: Option<String>,
    /// `032` federation.
    pub federation: Option<String>,
    /// `042` date of start.
    pub start_date: Option<String>,
    /// `052` date of end.
    pub end_date: Option<String>,
    /// `092` type of tournament.
    pub kind: Option<String>,
    /// `102` chief arbiter.
    pub chief_arbiter: Option<String>,
    /// `112` deputy chief arbiters, one per line.
    pub deputy_arbiters: Vec<String>,
    /// `122` allotted times per moves/game.
    pub time_control: Option<String>,
    /// `142` / `XXR`: the number of rounds the tournament will have, if declared.
    pub rounds: Option<u32>,
    /// `152` / `XXC white1|black1`: the initial colour (C.04.3 5.1), if declared.
    pub initial_colour: Option<Color>,
    /// `162` / `BB?` / `XXS`: what each result is worth.
    pub scoring: Scoring,
    /// `192`: the pairing system the file was made with, as written, if any.
    pub pairing_system: Option<String>,
    /// The players, by pairing number.
    pub players: Vec<Player>,
    /// `250` / `XXA`: accelerations.
    pub accelerations: Vec<Acceleration>,
    /// `260` / `XXP`: forbidden pairs.
    pub forbidden_pairs: Vec<ForbiddenPairs>,
    /// Header lines the crate does not interpret (`062`, `072`, `082`, `132`, comments …),
    /// kept with their code so that a file written back keeps them.
    pub other_lines: Vec<(String, String)>,
    /// `240` / `XXZ`: byes announced for a round before it is paired (a player's `0000 - H`
    /// entry in that round says the same; see [`Tournament::announced_byes`]).
    pub byes: Vec<AnnouncedBye>,
    /// `202`: the tie-break codes (C.07) that break ties, in order, as written (`BH:C1`, …).
    pub tie_breaks: Vec<String>,
    /// `212`: the codes that define the standings (`PTS` and tie-breaks), in order.
    pub standings_tie_breaks: Vec<String>,
    /// `C07`, Rookery's record (TRF-2026 has none): the text of C.07 the tie-breaks follow,
    /// if the file says.
    pub tie_break_regulations: Option<Regulations>,
    /// `299`: points assigned other than by the scoring (penalties, bonuses, a forfeit
    /// scored as a draw …).
    pub abnormal_points: Vec<AbnormalPoints>,
    /// `013`: in a team competition, the teams and their players.
    pub teams: Vec<TeamRecord>,
}

impl Tournament {
    /// The player with this pairing number, if there is one.
    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        self.players.get(id.index())
    }

    /// The pairing numbers of every player, in order.
    pub fn player_ids(&self) -> impl Iterator<Item = PlayerId> + '_ {
        (0..self.players.len()).map(PlayerId::from_index)
    }

    /// The number of rounds any player has an entry for.
    pub fn rounds_with_entries(&self) -> u32 {
        self.players.iter().map(|p| p.rounds.len()).max().unwrap_or(0) as u32
    }

    /// A player's score after `rounds` rounds, computed from the entries and the scoring
    /// (without acceleration). Missing entries count as absences.
    pub fn score_after(&self, id: PlayerId, rounds: u32) -> Score {
        let Some(player) = self.player(id) else {
            return Score::ZERO;
        };
        player
            .rounds
            .iter()
            .take(rounds as usize)
            .map(|entry| self.scoring.points(entry.result))
            .sum()
    }

    /// The fictitious points added to a player's score when pairing `round` (from 1).
    pub fn acceleration(&self, id: PlayerId, round: u32) -> Score {
        self.accelerations
            .iter()
            .filter(|a| a.player == id)
            .filter_map(|a| a.points.get(round.checked_sub(1)? as usize).copied())
            .sum()
    }
}

/// The kind of bye a player can be given, or ask for, before a round is paired.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum ByeKind {
    /// `H`: a requested half-point bye.
    Half,
    /// `F`: a full-point bye.
    Full,
    /// `Z`: a zero-point bye, an announced absence.
    Zero,
}

impl ByeKind {
    /// The result code a round with this bye has.
    pub const fn result(self) -> ResultCode {
        match self {
            ByeKind::Half => ResultCode::HalfPointBye,
            ByeKind::Full => ResultCode::FullPointBye,
            ByeKind::Zero => ResultCode::ZeroPointBye,
        }
    }

    /// The bye a result code stands for: `H`, `F` and `Z` (the PAB `U` is no bye one asks
    /// for: the pairing allocates it).
    pub const fn from_result(code: ResultCode) -> Option<ByeKind> {
        match code {
            ResultCode::HalfPointBye => Some(ByeKind::Half),
            ResultCode::FullPointBye => Some(ByeKind::Full),
            ResultCode::ZeroPointBye => Some(ByeKind::Zero),
            _ => None,
        }
    }
}

/// A bye known before its round is paired: TRF-2026 `240`, JaVaFo's `XXZ` (absences in the
/// round to be paired).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct AnnouncedBye {
    /// The player.
    pub player: PlayerId,
    /// The round, from 1.
    pub round: u32,
    /// The bye.
    pub kind: ByeKind,
}

/// Points assigned other than by the scoring: a TRF-2026 `299` record (penalties, bonuses, or
/// a kind of result worth something unusual for some players).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct AbnormalPoints {
    /// The kind of round whose points are replaced, or `None` for points added (a bonus, or
    /// a penalty when negative). `W`, `D` and `L` are read as [`ResultCode::Win`],
    /// [`ResultCode::Draw`] and [`ResultCode::Loss`] and cover both the rated and the unrated
    /// codes; the PAB has no letter.
    pub result: Option<ResultCode>,
    /// The points, in tenths; negative for a penalty.
    pub points: i32,
    /// The round, from 1; `None`: every round.
    pub round: Option<u32>,
    /// The players concerned.
    pub players: Vec<PlayerId>,
}

impl AbnormalPoints {
    /// Whether this record replaces the points of a round with result `code`.
    pub fn replaces(&self, code: ResultCode) -> bool {
        use ResultCode::*;
        match self.result {
            None => false,
            Some(Win | UnratedWin) => matches!(code, Win | UnratedWin),
            Some(Draw | UnratedDraw) => matches!(code, Draw | UnratedDraw),
            Some(Loss | UnratedLoss) => matches!(code, Loss | UnratedLoss),
            Some(other) => other == code,
        }
    }

    /// Whether the record applies to `round` (from 1).
    pub fn applies_to(&self, round: u32) -> bool {
        self.round.is_none_or(|r| r == round)
    }
}

/// The state of the tournament between rounds: what a pairing engine reads.
impl Tournament {
    /// The last round in which any player was paired (has an opponent, or the PAB); 0 before
    /// round 1. Entries after it can only be byes entered before their round was paired (a
    /// `0000 - H` or `0000 - Z` in the round about to be paired).
    pub fn rounds_played(&self) -> u32 {
        self.players
            .iter()
            .filter_map(|p| p.rounds.iter().rposition(RoundEntry::was_paired))
            .map(|i| i as u32 + 1)
            .max()
            .unwrap_or(0)
    }

    /// The number of rounds the tournament has: the declared one (`142`, `XXR`), else the
    /// rounds played, as JaVaFo and bbpPairings assume for a finished tournament.
    pub fn planned_rounds(&self) -> u32 {
        self.rounds.unwrap_or_else(|| self.rounds_played())
    }

    /// The players who are not to be paired in `round` (from 1), each with his bye: a bye
    /// entry of that round without opponent (`0000 - H`, `F` or `Z`, entered before the round
    /// was paired, or the record of a round already played) or a [`Tournament::byes`]
    /// announcement. Sorted by pairing number; a player's entry wins over an announcement.
    pub fn announced_byes(&self, round: u32) -> Vec<(PlayerId, ByeKind)> {
        let mut byes: Vec<(PlayerId, ByeKind)> = self
            .player_ids()
            .filter_map(|id| {
                let entry = self.player(id)?.round(round)?;
                let kind = ByeKind::from_result(entry.result)?;
                (entry.opponent.is_none()).then_some((id, kind))
            })
            .collect();
        for bye in self.byes.iter().filter(|b| b.round == round) {
            if !byes.iter().any(|&(id, _)| id == bye.player) {
                byes.push((bye.player, bye.kind));
            }
        }
        byes.sort_by_key(|&(id, _)| id);
        byes
    }

    /// Whether `a` and `b` may not meet in `round` (from 1): a [`ForbiddenPairs`] group
    /// holds both and applies to that round.
    pub fn is_forbidden(&self, a: PlayerId, b: PlayerId, round: u32) -> bool {
        a != b
            && self.forbidden_pairs.iter().any(|group| {
                group.applies_to(round) && group.players.contains(&a) && group.players.contains(&b)
            })
    }

    /// The initial colour as JaVaFo and bbpPairings infer it when no `152`/`XXC` line gives
    /// it: take the first round in which anyone has a colour and the players paired in it or
    /// before, by pairing number; the first of them with a colour in that round had it if he
    /// is first, third, fifth … of them, the other colour otherwise (round 1 alternates
    /// colours down the top half). `None` before any colour is known.
    pub fn inferred_initial_colour(&self) -> Option<Color> {
        let first = self
            .players
            .iter()
            .filter_map(|p| p.rounds.iter().position(|e| e.colour.is_some()))
            .min()?;
        let mut participants = 0usize;
        for player in &self.players {
            if !player.rounds.iter().take(first + 1).any(RoundEntry::was_paired) {
                continue;
            }
            if let Some(colour) = player.rounds.get(first).and_then(|e| e.colour) {
                return Some(if participants.is_multiple_of(2) { colour } else { colour.other() });
            }
            participants += 1;
        }
        None
    }

    /// The tournament as it stood before `round` (from 1) was paired: the rounds before it,
    /// the byes of that round known in advance (entries without opponent other than the PAB),
    /// the number of rounds fixed to [`Tournament::planned_rounds`], declared points those of
    /// the rounds kept and ranks dropped. What a pairing checker feeds an engine to pair
    /// `round` again.
    pub fn before_round(&self, round: u32) -> Tournament {
        let mut before = self.clone();
        before.rounds = Some(self.planned_rounds());
        let kept = round.saturating_sub(1) as usize;
        for player in &mut before.players {
            let known = player
                .rounds
                .get(kept)
                .copied()
                .filter(|e| !e.was_paired() && ByeKind::from_result(e.result).is_some());
            player.rounds.truncate(kept);
            let tenths: u64 = player
                .rounds
                .iter()
                .map(|e| u64::from(self.scoring.points(e.result).tenths()))
                .sum();
            player.points = Score::from_tenths(u32::try_from(tenths).unwrap_or(u32::MAX));
            player.rank = None;
            if let Some(entry) = known {
                player.rounds.push(entry);
            }
        }
        before
    }

    /// A player's score after `rounds` rounds with the `299` records applied, in tenths of a
    /// point (negative after a large penalty). Equal to [`Tournament::score_after`] when
    /// there are no `299` records.
    pub fn adjusted_score_after(&self, id: PlayerId, rounds: u32) -> i64 {
        let Some(player) = self.player(id) else {
            return 0;
        };
        let records: Vec<&AbnormalPoints> =
            self.abnormal_points.iter().filter(|a| a.players.contains(&id)).collect();
        let mut score = 0i64;
        for (index, entry) in player.rounds.iter().take(rounds as usize).enumerate() {
            let round = index as u32 + 1;
            let replaced =
                records.iter().rev().find(|a| a.applies_to(round) && a.replaces(entry.result));
            score += match replaced {
                Some(a) => i64::from(a.points),
                None => i64::from(self.scoring.points(entry.result).tenths()),
            };
        }
        for a in records.iter().filter(|a| a.result.is_none()) {
            if a.round.is_none_or(|r| r <= rounds) {
                score += i64::from(a.points);
            }
        }
        score
    }
}

/// One game of a round's pairing: who has White and who has Black.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Pair {
    /// The player with White.
    pub white: PlayerId,
    /// The player with Black.
    pub black: PlayerId,
}

/// A round's pairing: its games, in board order (C.04.2 3.6), and the player who gets the
/// pairing-allocated bye, if the number of players to pair is odd.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct RoundPairing {
    /// The games, board 1 first.
    pub pairs: Vec<Pair>,
    /// The pairing-allocated bye.
    pub bye: Option<PlayerId>,
}

impl RoundPairing {
    /// The pairing as JaVaFo and bbpPairings print it: the number of lines, then White and
    /// Black a line in board order, the PAB last as `N 0`.
    pub fn to_javafo(&self) -> String {
        let mut text = format!("{}\n", self.pairs.len() + self.bye.is_some() as usize);
        for pair in &self.pairs {
            text.push_str(&format!("{} {}\n", pair.white, pair.black));
        }
        if let Some(bye) = self.bye {
            text.push_str(&format!("{bye} 0\n"));
        }
        text
    }
}
