//! A round's life: paired, published (its games created, each once, and its players told),
//! its results flowing back from the games, the next round (a round robin's at once), the end;
//! and the repair after a restart.

use std::collections::HashMap;

use rookery_arbiter::{GameResult, Outcome, Termination};
use rookery_core::Color;
use rookery_core::Move;
use rookery_core::{CastlingMode, Fen};
use rookery_pgn::main_line::{read_main_line, Options as MainLineOptions};
use rookery_store::{
    now_ms, Finish, GameStatus, GameSummary, NewGame, Player, StoreError, TournamentSeat,
    TournamentStatus,
};
use rookery_tournament::arena::GameId as ArenaGameId;
use rookery_tournament::competition::{Action, BoardResult, RoundState};

use crate::board_record::{board_pgn, start_of, BoardTags};
use crate::fixed_boards;
use crate::log::{self, result_name, Entry};
use crate::message::{GameNotice, ResultNews, TournamentMessage, YourGame};
use crate::refusal::{TournamentError, TournamentRefusal};
use crate::settings::Format;
use crate::Who;
use rookery_protocol::{Chess960Start, GameId, NewLiveGame, Variant};

use super::{crash_point, Actor};
use crate::ports::Host;

impl<H: Host> Actor<H> {
    pub(super) async fn start(&mut self, by: Option<&Who>) -> Result<(), TournamentError> {
        let format = self.tour.settings.format;
        if format.is_team() {
            return self.start_teams(by).await;
        }
        let comp = &self.tour.book.comp;
        // Over the board, those checked in (RULES.md §12): the others are not paired.
        let present = (0..comp.entrants().len() as u32)
            .filter(|&n| comp.is_present(rookery_tournament::competition::EntrantId(n)))
            .count();
        if format != Format::Arena && present < 2 {
            return Err(TournamentRefusal::TooFewPlayers.into());
        }
        self.record(Entry::Start(log::Empty {}), by, None).await?;
        if format == Format::Knockout {
            return self.seed_knockout(by).await;
        }
        if format != Format::Arena {
            let scheduled = by.is_none();
            self.pair(by).await?;
            // Nobody is there to confirm a scheduled start's pairing: it is published.
            if scheduled && self.tour.settings.format == Format::Swiss {
                let round = self.tour.book.comp.rounds().len() as u32;
                self.record(self.publish_entry(round), None, None).await?;
                self.round_published(round).await?;
            }
        }
        Ok(())
    }

    /// Pairs the next round: a Swiss round waits for `publish`, a round robin's is published.
    pub(super) async fn pair(&mut self, by: Option<&Who>) -> Result<(), TournamentError> {
        let mut action = self.tour.book.comp.pair_next()?;
        let Action::Paired { round, boards, .. } = &mut action else {
            unreachable!("pair_next pairs")
        };
        let round = *round;
        if self.tour.settings.over_the_board {
            *boards = fixed_boards::place(std::mem::take(boards), &self.tour.book.fixed_boards);
        }
        self.record(Entry::of_action(action, None), by, None).await?;
        let publish_now = self.tour.settings.format != Format::Swiss;
        self.round_told(round);
        if publish_now {
            self.record(self.publish_entry(round), by, None).await?;
            for forfeit in self.tour.book.comp.forfeits_of_withdrawn(round) {
                self.record(Entry::of_action(forfeit, None), None, None).await?;
            }
            self.round_published(round).await?;
        }
        Ok(())
    }

    /// The entry that publishes `round`: in a Chess960 tournament with the round's start
    /// position, drawn now, each of the 960 equally likely.
    pub(super) fn publish_entry(&self, round: u32) -> Entry {
        let chess960 = self.tour.settings.chess960.then(|| Chess960Start::random().number());
        Entry::Publish(log::Publish { round, chess960 })
    }

    pub(super) fn round_told(&self, round: u32) {
        if let Some(msg) = self.tour.round_message(round) {
            self.broadcast(&msg);
        }
    }

    /// Creates the published round's games that have no result (each once), tells the
    /// players; a round with nothing to play may end the tournament.
    pub(super) async fn round_published(&mut self, round: u32) -> Result<(), TournamentError> {
        self.round_told(round);
        crash_point("tournament-paired");
        self.create_round_games(round).await?;
        self.after_result(None).await
    }

    pub(super) async fn create_round_games(&mut self, round: u32) -> Result<(), TournamentError> {
        let Some(r) = self.tour.book.comp.rounds().get(round as usize - 1).cloned() else {
            return Ok(());
        };
        // Over the board the games are played in the hall: nothing to create.
        if r.state == RoundState::Paired || self.tour.settings.over_the_board {
            return Ok(());
        }
        for (i, b) in r.boards.iter().enumerate() {
            if b.result.is_some() {
                continue;
            }
            let board = i as u32 + 1;
            let white = self.tour.player_of(b.white);
            let black = self.tour.player_of(b.black);
            self.create_game(self.tour.board_game(round, board), white, black, Some(round), board)
                .await?;
        }
        Ok(())
    }

    pub(super) async fn create_game(
        &mut self,
        id: GameId,
        white: Player,
        black: Player,
        round: Option<u32>,
        board: u32,
    ) -> Result<(), TournamentError> {
        let time_control = self.tour.settings.time_control();
        self.create_game_at(id, white, black, (round, board), time_control).await
    }

    /// [`Actor::create_game`] at `time_control` (a knockout's tie-break games have their own).
    pub(super) async fn create_game_at(
        &mut self,
        id: GameId,
        white: Player,
        black: Player,
        (round, board): (Option<u32>, u32),
        time_control: rookery_arbiter::TimeControl,
    ) -> Result<(), TournamentError> {
        let s = &self.tour.settings;
        let seat = self.seat(round, board);
        // A round's games share the start drawn for the round; an arena game has its own.
        let variant = match round {
            Some(r) => match self.tour.book.chess960_starts.get(&r).copied() {
                Some(n) => Chess960Start::new(n).map_or(Variant::Standard, Variant::Chess960),
                None => Variant::Standard,
            },
            None if s.chess960 => Variant::Chess960(Chess960Start::random()),
            None => Variant::Standard,
        };
        let existed = self.host().is_live(&id);
        let new = NewLiveGame {
            id: Some(id.clone()),
            white: white.clone(),
            black: black.clone(),
            variant,
            rules: s.rules(),
            time_control,
            rated: s.rated,
            start: Some(s.start_policy()),
            tournament: Some(seat),
        };
        let live = self.host().create(new).await?;
        if live && !existed {
            for (me, opponent, color) in
                [(&white, &black, Color::White), (&black, &white, Color::Black)]
            {
                let game = YourGame {
                    round,
                    board,
                    game: id.to_string(),
                    color,
                    opponent: opponent.name.clone(),
                };
                let notice = GameNotice {
                    tournament: self.tour.row.id.clone(),
                    name: self.tour.settings.name.clone(),
                    game: game.clone(),
                };
                self.host().tell(&me.name, &notice);
                self.tell(&me.name, &TournamentMessage::YourGame(game));
            }
        }
        Ok(())
    }

    /// Where a game of this tournament sits (a round and board, or an arena game's number),
    /// as its stored row says; berserk is an arena's.
    fn seat(&self, round: Option<u32>, board: u32) -> TournamentSeat {
        let s = &self.tour.settings;
        TournamentSeat {
            tournament: self.tour.row.id.clone(),
            name: s.name.clone(),
            round,
            board,
            berserk: round.is_none() && s.berserk,
        }
    }

    /// Over the board, a board's result entered at the desk becomes a finished game of the
    /// site (no moves yet: they come from the scoresheet later), so that both players' histories
    /// show it and, in a rated event, §11 points change exactly as an online rated game's
    /// (RULES.md §12, "Over the board"): a forfeit is stored as unplayed (`no_start`), which
    /// the ladder never counts. Written once: a game already recorded is left as it is (after a
    /// restart the revival calls this for every result).
    pub(super) async fn record_board_game(
        &mut self,
        round: u32,
        board: u32,
        result: BoardResult,
    ) -> Result<(), TournamentError> {
        let Ok(b) = self.board(round, board) else { return Ok(()) };
        let s = &self.tour.settings;
        let id = self.tour.board_game(round, board).to_string();
        let (white, black) = (self.tour.player_of(b.white), self.tour.player_of(b.black));
        let start =
            self.tour.book.chess960_starts.get(&round).copied().and_then(Chess960Start::new);
        let game = NewGame {
            id: id.clone(),
            white: white.clone(),
            black: black.clone(),
            rules: s.rules.clone(),
            time_control: s.time_control.clone(),
            rated: s.rated,
            initial_fen: start.map(|n| Fen::from_position(&n.position()).to_string()),
            variant: if start.is_some() { CastlingMode::Chess960 } else { CastlingMode::Standard },
            created_at_ms: now_ms() as i64,
            start_policy: None,
        };
        let seat = self.seat(Some(round), board);
        if !self.store().create_tournament_game(&game, &seat).await? {
            // Written before: finished then (with this result, or another one that a
            // correction at the desk replaced), or created and not finished when the process
            // died between the two writes (a kill -9 at the desk). Such a row reads as a live
            // game, which a restart resumes with a running clock: stop it, and finish it now.
            match self.store().game_summary(&id).await? {
                None => return Ok(()),
                Some(stored) if stored.status != GameStatus::Live => {
                    return self.correct_board_game((round, board), result, &stored).await;
                }
                Some(_) => {}
            }
            if let Some(gid) = GameId::parse(&id) {
                if self.host().is_live(&gid) {
                    self.host().stop(&gid).await;
                }
            }
        }
        crash_point("board-game-created");
        let game_result = game_result_of(result);
        // No moves yet: they are typed from the scoresheet later (`type_moves`).
        let pgn = self.board_record_pgn((round, board), game_result, &[])?;
        let finish = Finish {
            game_id: id,
            result: game_result,
            termination: board_termination(result).to_owned(),
            pgn,
            ended_at_ms: now_ms() as i64,
        };
        // Unfenced: a board's game is served by no node, so its row carries no claim's epoch,
        // and the tournament's fenced writer (under the tournament's epoch) wrote nothing on a
        // cluster: the game stayed live, without its PGN or §11 points. The result itself is
        // the tournament's log entry, already written under the tournament's claim.
        match self.store().writer(None).finish_game(&finish).await {
            Ok(_) | Err(StoreError::Conflict(_)) => {}
            Err(e) => return Err(e.into()),
        }
        if s.rated && result.is_played() {
            self.refresh_ladder().await;
        }
        Ok(())
    }

    /// Over the board, a board's game recorded with another result than the board has now
    /// (corrected at the desk; or undone and entered again): the record given the board's
    /// result, its typed moves kept, and in a rated event the §11 award of the old result
    /// taken back and the new one's made ([`rookery_store::Store::correct_game`]). The game
    /// record of a board is the desk's entry, not a game played on the site, so it follows
    /// the correction (an online game's record keeps the result played).
    async fn correct_board_game(
        &mut self,
        (round, board): (u32, u32),
        result: BoardResult,
        stored: &GameSummary,
    ) -> Result<(), TournamentError> {
        let game_result = game_result_of(result);
        let termination = board_termination(result);
        if stored.result == Some(game_result) && stored.termination.as_deref() == Some(termination)
        {
            return Ok(());
        }
        let moves: Vec<Move> = stored
            .pgn
            .as_deref()
            .and_then(|pgn| read_main_line(pgn, MainLineOptions::default()))
            .and_then(Result::ok)
            .map(|line| line.plies.iter().map(|p| p.m).collect())
            .unwrap_or_default();
        let finish = Finish {
            game_id: stored.id.clone(),
            result: game_result,
            termination: termination.to_owned(),
            pgn: self.board_record_pgn((round, board), game_result, &moves)?,
            ended_at_ms: now_ms() as i64,
        };
        self.store().correct_game(&finish).await?;
        if self.tour.settings.rated {
            self.refresh_ladder().await;
        }
        Ok(())
    }

    /// The PGN of board `board` of round `round` as its record keeps it: the tags, `moves`
    /// from the round's start, `result`.
    pub(super) fn board_record_pgn(
        &self,
        (round, board): (u32, u32),
        result: GameResult,
        moves: &[Move],
    ) -> Result<String, TournamentError> {
        let b = self.board(round, board)?;
        let (white, black) = (self.tour.player_of(b.white), self.tour.player_of(b.black));
        let tags = BoardTags {
            event: &self.tour.settings.name,
            round,
            board,
            white: &white.name,
            black: &black.name,
            result,
        };
        let start = start_of(self.tour.book.chess960_starts.get(&round).copied());
        Ok(board_pgn(&tags, &start, moves))
    }

    /// Over the board, the desk takes back a result it entered (`undo`): the log's `undo`
    /// entry (the competition refuses it unless the round is the last paired and the board
    /// has `result`), then the board's game record removed with its §11 award. A restart
    /// after the entry and before the removal leaves the record of a board without a result,
    /// which the next entry for the board corrects (`record_board_game`).
    pub(super) async fn undo(
        &mut self,
        by: Option<&Who>,
        (round, board): (u32, u32),
        result: BoardResult,
    ) -> Result<(), TournamentError> {
        if !self.tour.settings.over_the_board {
            return Err(TournamentRefusal::PlayedOnline.into());
        }
        if self.tour.book.status != TournamentStatus::Running {
            return Err(TournamentRefusal::Closed.into());
        }
        self.board(round, board)?;
        let entry = Entry::of_action(Action::ClearResult { round, board, result }, None);
        self.record(entry, by, None).await?;
        let id = self.tour.board_game(round, board).to_string();
        self.store().remove_ended_game(&id).await?;
        if self.tour.settings.rated && result.is_played() {
            self.refresh_ladder().await;
        }
        Ok(())
    }

    /// Over the board, a board's result entered — by the desk, or by the server when both
    /// players reported it (`by` `None`, `corrected` false): its log entry, the board's game
    /// record, the news of it, and what follows a result.
    pub(super) async fn enter_board_result(
        &mut self,
        by: Option<&Who>,
        (round, board): (u32, u32),
        result: BoardResult,
        reason: Option<String>,
        corrected: bool,
    ) -> Result<(), TournamentError> {
        let entry = Entry::of_action(Action::Result { round, board, result }, None);
        self.record(entry, by, reason).await?;
        self.record_board_game(round, board, result).await?;
        self.result_told(round, board, result, corrected);
        self.after_result(by).await
    }

    /// What the event's games did to the accounts' §11 points, read again after a game
    /// awarded some (a board's result, a guest linked to an account).
    pub(super) async fn refresh_ladder(&mut self) {
        match super::ladder_of(self.store(), &self.tour).await {
            Ok(ladder) => {
                self.tour.ladder = ladder;
                self.view = None;
            }
            Err(e) => {
                tracing::warn!(tournament = %self.tour.row.id, error = %e, "the §11 spans not read")
            }
        }
    }

    pub(super) fn result_told(&self, round: u32, board: u32, result: BoardResult, corrected: bool) {
        self.broadcast(&TournamentMessage::Result(ResultNews {
            round: Some(round),
            board,
            game: self.tour.board_game(round, board).to_string(),
            result: result_name(result),
            forfeit: !result.is_played(),
            corrected,
        }));
    }

    /// After a result: the last round over ends the tournament; in a round robin, a round
    /// over pairs the next at once (the Berger table needs no arbiter; issue 40), by the
    /// server (`by` `null` in the log).
    pub(super) async fn after_result(&mut self, by: Option<&Who>) -> Result<(), TournamentError> {
        let format = self.tour.settings.format;
        if matches!(format, Format::Arena | Format::Knockout)
            || self.tour.book.status != TournamentStatus::Running
        {
            return Ok(());
        }
        if self.tour.book.comp.is_over() {
            return self.record(Entry::End(log::Empty {}), by, None).await;
        }
        let round_robin = matches!(format, Format::RoundRobin | Format::DoubleRoundRobin);
        let last_finished =
            self.tour.book.comp.rounds().last().is_some_and(|r| r.state == RoundState::Finished);
        if round_robin && last_finished {
            // Boxed: pairing publishes, and a round of forfeits only ends here again.
            Box::pin(self.pair(None)).await?;
        }
        Ok(())
    }

    pub(super) async fn game_ended(
        &mut self,
        game: &str,
        outcome: Outcome,
        plies: u32,
    ) -> Result<(), TournamentError> {
        if let Some(seat) = self.tour.knockout_seat(game) {
            return self.knockout_game_ended(seat, outcome).await;
        }
        if let Some(seat) = self.tour.team_seat(game) {
            return self.team_game_ended(seat, outcome).await;
        }
        let Some(seat) = self.tour.seat_of(game) else { return Ok(()) };
        match seat {
            (Some(round), board) => {
                let b = self.board(round, board)?;
                if b.result.is_some() {
                    return Ok(()); // the arbiter's decision came first
                }
                let Some(result) = board_result_of(&outcome) else { return Ok(()) };
                self.record(
                    Entry::of_action(Action::Result { round, board, result }, None),
                    None,
                    None,
                )
                .await?;
                self.result_told(round, board, result, false);
                self.after_result(None).await
            }
            (None, n) => {
                let winner = match outcome.result {
                    GameResult::Win(c) => Some(c),
                    _ => None,
                };
                let playing = self
                    .tour
                    .book
                    .arena
                    .as_ref()
                    .and_then(|a| a.game(ArenaGameId(n)))
                    .is_some_and(|(_, s)| s == rookery_tournament::arena::GameStatus::Playing);
                if !playing {
                    return Ok(());
                }
                self.record(
                    Entry::ArenaResult(log::ArenaResult { game: n, winner, plies }),
                    None,
                    None,
                )
                .await?;
                self.broadcast(&TournamentMessage::Result(ResultNews {
                    round: None,
                    board: n,
                    game: game.to_owned(),
                    result: outcome.result.as_str(),
                    forfeit: outcome.termination == Termination::NoStart,
                    corrected: false,
                }));
                Ok(())
            }
        }
    }

    /// After a restart: games paired but not created are created, results of games that
    /// ended while nobody listened are entered, games of unpaired rounds are removed.
    pub(super) async fn reconcile(&mut self) -> Result<(), TournamentError> {
        if !matches!(self.tour.book.status, TournamentStatus::Running | TournamentStatus::Finished)
        {
            return Ok(());
        }
        let stored = self.store().tournament_games(&self.tour.row.id).await?;
        let ended: HashMap<String, &rookery_store::TournamentGame> = stored
            .iter()
            .filter(|g| g.status != rookery_store::GameStatus::Live)
            .map(|g| (g.id.clone(), g))
            .collect();
        for g in ended.values() {
            let (Some(result), Some(termination)) = (g.result, g.termination.as_deref()) else {
                continue;
            };
            let termination =
                Termination::from_label(termination).unwrap_or(Termination::Resignation);
            let outcome = Outcome { result, termination };
            self.game_ended(&g.id, outcome, g.moves as u32).await?;
        }
        if self.tour.settings.over_the_board {
            // A result entered just before a crash may lack its game record, or have it
            // created and not finished (the crash between the two writes).
            let recorded: std::collections::HashSet<&str> =
                ended.keys().map(String::as_str).collect();
            let mut missing = Vec::new();
            for (i, r) in self.tour.book.comp.rounds().iter().enumerate() {
                for (j, b) in r.boards.iter().enumerate() {
                    let (round, board) = (i as u32 + 1, j as u32 + 1);
                    let id = self.tour.board_game(round, board).to_string();
                    if let (Some(result), false) = (b.result, recorded.contains(id.as_str())) {
                        missing.push((round, board, result));
                    }
                }
            }
            for (round, board, result) in missing {
                self.record_board_game(round, board, result).await?;
            }
            // A guest linked just before a crash may have games still without its account.
            let linked: Vec<u32> = self
                .tour
                .book
                .guests
                .keys()
                .copied()
                .filter(|&n| {
                    let key = &self.tour.book.comp.entrants()[n as usize].key;
                    self.tour.book.users.contains_key(key)
                })
                .collect();
            for n in linked {
                self.link_games(rookery_tournament::competition::EntrantId(n)).await?;
            }
        }
        if self.tour.book.status == TournamentStatus::Running {
            let rounds = self.tour.book.comp.rounds().len() as u32;
            for round in 1..=rounds {
                self.create_round_games(round).await?;
            }
            self.create_arena_games().await?;
            self.create_knockout_games().await?;
            self.create_team_games().await?;
        }
        self.remove_stale_games().await?;
        Ok(())
    }
}

/// A board's result as a game's: a forfeit is won (or, both absent, has no result).
/// How a board's game recorded from the desk ended: played at the board, or a forfeit
/// (unplayed, which the ladder never counts).
fn board_termination(result: BoardResult) -> &'static str {
    if result.is_played() {
        "over_the_board"
    } else {
        "no_start"
    }
}

pub(super) fn game_result_of(result: BoardResult) -> GameResult {
    match result {
        BoardResult::WhiteWon | BoardResult::WhiteByForfeit => GameResult::Win(Color::White),
        BoardResult::BlackWon | BoardResult::BlackByForfeit => GameResult::Win(Color::Black),
        BoardResult::Draw => GameResult::Draw,
        BoardResult::DoubleForfeit => GameResult::NoResult,
    }
}

/// An ended game's result as its board's: a missed first move is a forfeit; `None` for a game
/// that ended without a result.
pub(super) fn board_result_of(outcome: &Outcome) -> Option<BoardResult> {
    let forfeit = outcome.termination == Termination::NoStart;
    Some(match (outcome.result, forfeit) {
        (GameResult::Win(Color::White), false) => BoardResult::WhiteWon,
        (GameResult::Win(Color::Black), false) => BoardResult::BlackWon,
        (GameResult::Win(Color::White), true) => BoardResult::WhiteByForfeit,
        (GameResult::Win(Color::Black), true) => BoardResult::BlackByForfeit,
        (GameResult::Draw, _) => BoardResult::Draw,
        (GameResult::NoResult, _) => return None,
    })
}
