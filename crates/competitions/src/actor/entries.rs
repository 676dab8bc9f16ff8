//! The player list of an over-the-board event (issue 53; RULES.md §12, "Over the board"): an
//! imported list and entries at the desk become guest entrants (no account), the arbiter
//! checks entrants in (only those present are paired), and a guest is linked to an account
//! later, its games and their §11 points following.

use std::collections::HashSet;

use rookery_core::Color;
use rookery_store::UserId;
use rookery_tournament::competition::{Action, CompetitionError, EntrantId};

use crate::log::{self, Entry};
use crate::refusal::{TournamentError, TournamentRefusal};
use crate::roster::RosterEntry;
use crate::{now_ms, Who};

use super::Actor;
use crate::ports::Host;

/// A guest's key: never an account's (account names have no `:`), one per name.
fn guest_key(name: &str) -> String {
    format!("guest:{}", name.to_lowercase())
}

/// The `join` of a guest from a list's row: the rating is the FIDE one, else the national one.
fn guest_join(e: RosterEntry) -> log::Join {
    let guest = log::Guest {
        fide_id: e.fide_id,
        fide_rating: e.rating,
        national_id: e.national_id,
        national_rating: e.national_rating,
        federation: e.federation,
        birth_year: e.birth_year,
        club: e.club,
        level: e.level.map(|l| l.number().unwrap_or(0)),
    };
    log::Join {
        key: guest_key(&e.name),
        rating: e.rating.or(e.national_rating),
        name: e.name,
        title: e.title,
        user_id: None,
        guest: Some(guest),
    }
}

impl<H: Host> Actor<H> {
    /// Guests, lists and the check-in are an over-the-board event's.
    fn over_the_board(&self) -> Result<(), TournamentError> {
        if !self.tour.settings.over_the_board {
            return Err(TournamentRefusal::OnlineEntries.into());
        }
        Ok(())
    }

    /// The entrants' names in lower case (names are unique among the entrants of an event).
    pub(super) fn names_taken(&self) -> HashSet<String> {
        self.tour.book.comp.entrants().iter().map(|e| e.name.to_lowercase()).collect()
    }

    /// Every row of the list a guest entrant, or none: the list is one `roster` entry, folded
    /// on a copy of the state and stored in one write, so a refused list or a failed write
    /// leaves nothing behind, and a list of hundreds costs one fold, not one per row.
    pub(super) async fn import_roster(
        &mut self,
        by: Option<&Who>,
        entries: Vec<RosterEntry>,
    ) -> Result<(), TournamentError> {
        self.over_the_board()?;
        if !self.tour.book.comp.rounds().is_empty() {
            return Err(TournamentRefusal::RosterTooLate.into());
        }
        let mut taken = self.names_taken();
        let mut players = Vec::with_capacity(entries.len());
        for e in entries {
            if !taken.insert(e.name.to_lowercase()) {
                let refusal = TournamentRefusal::DuplicateName { name: e.name, line: Some(e.line) };
                return Err(refusal.into());
            }
            players.push(guest_join(e));
        }
        self.record(Entry::Roster(log::Roster { players }), by, None).await
    }

    /// One guest entrant, at the desk (a late entry after round 1, while entries are taken:
    /// paired from the next round once checked in).
    pub(super) async fn add_guest(
        &mut self,
        by: Option<&Who>,
        name: String,
        rating: Option<u16>,
        title: Option<String>,
    ) -> Result<(), TournamentError> {
        self.over_the_board()?;
        if self.names_taken().contains(&name.to_lowercase()) {
            return Err(TournamentRefusal::DuplicateName { name, line: None }.into());
        }
        let join = Entry::Join(log::Join {
            key: guest_key(&name),
            name,
            rating,
            title,
            user_id: None,
            guest: Some(log::Guest::default()),
        });
        self.record(join, by, None).await
    }

    /// An entrant's fixed board (RULES.md §12, "Over the board"), kept by every round
    /// paired from now on; nothing is written when it is so already.
    pub(super) async fn fix_board(
        &mut self,
        by: Option<&Who>,
        player: String,
        board: Option<u32>,
    ) -> Result<(), TournamentError> {
        self.over_the_board()?;
        let entrant = self.entrant(&player)?.0;
        if self.tour.book.fixed_boards.get(&entrant).copied() == board {
            return Ok(());
        }
        self.record(Entry::FixBoard(log::FixBoard { entrant, board }), by, None).await
    }

    /// Entrants marked present or absent, in one entry; those already so are left out (no
    /// entry when none is left).
    pub(super) async fn check_in(
        &mut self,
        by: Option<&Who>,
        players: Vec<String>,
        present: bool,
    ) -> Result<(), TournamentError> {
        self.over_the_board()?;
        let mut entrants = Vec::with_capacity(players.len());
        let mut named = HashSet::with_capacity(players.len());
        for p in &players {
            let entrant = self.entrant(p)?;
            if self.tour.book.comp.is_present(entrant) != present && named.insert(entrant) {
                entrants.push(entrant);
            }
        }
        let entry = match entrants[..] {
            [] => return Ok(()),
            [entrant] => Entry::of_action(Action::CheckIn { entrant, present }, None),
            _ => Entry::CheckIns(log::CheckIns {
                entrants: entrants.iter().map(|e| e.0).collect(),
                present,
            }),
        };
        self.record(entry, by, None).await
    }

    /// A guest entrant becomes the account `account`: its key, its games (each stored game
    /// of the guest given to the account, in round order, with the §11 award each makes now
    /// that both sides are accounts).
    pub(super) async fn link(
        &mut self,
        by: Option<&Who>,
        player: String,
        account: String,
    ) -> Result<(), TournamentError> {
        self.over_the_board()?;
        let entrant = self.entrant(&player)?;
        let key = &self.tour.book.comp.entrants()[entrant.0 as usize].key;
        if !self.tour.book.guests.contains_key(&entrant.0) || self.tour.book.users.contains_key(key)
        {
            return Err(TournamentRefusal::NotGuest(player).into());
        }
        let user = self
            .store()
            .user_by_name(&account)
            .await?
            .ok_or(TournamentRefusal::UnknownAccount(account))?;
        let key = user.username.to_lowercase();
        if self.tour.book.comp.find(&key).is_some() {
            return Err(TournamentRefusal::from(CompetitionError::DuplicateKey(key)).into());
        }
        let link = Entry::Link(log::Link { entrant: entrant.0, key, user_id: user.id.0 });
        self.record(link, by, None).await?;
        self.tour.names.insert(user.id.0, user.username);
        self.link_games(entrant).await
    }

    /// Gives a linked guest's recorded games to its account, round by round (each once: the
    /// store leaves a side that has an account). Also the repair after a restart between a
    /// `link` and its games.
    pub(super) async fn link_games(&mut self, entrant: EntrantId) -> Result<(), TournamentError> {
        let key = &self.tour.book.comp.entrants()[entrant.0 as usize].key;
        let Some(&user) = self.tour.book.users.get(key) else { return Ok(()) };
        let mut seats = Vec::new();
        for (i, r) in self.tour.book.comp.rounds().iter().enumerate() {
            for (j, b) in r.boards.iter().enumerate() {
                let color = if b.white == entrant {
                    Color::White
                } else if b.black == entrant {
                    Color::Black
                } else {
                    continue;
                };
                if b.result.is_some() {
                    seats.push((i as u32 + 1, j as u32 + 1, color));
                }
            }
        }
        for (round, board, color) in seats {
            let game = self.tour.board_game(round, board);
            match self
                .store()
                .link_game_player(game.as_str(), color, UserId(user), now_ms() as i64)
                .await
            {
                Ok(_) | Err(rookery_store::StoreError::NotFound(_)) => {}
                Err(e) => return Err(e.into()),
            }
        }
        if self.tour.settings.rated {
            self.refresh_ladder().await;
        }
        Ok(())
    }
}
