//! The lobby: open seeks and challenges, held in memory (like lichess, a seek does not
//! survive a restart; a game does). Accepting removes the seek under one lock, so of many
//! accepters exactly one gets the game. A seek lives while its owner is in the lobby (a lobby
//! socket open, or opened within a grace period of creating it), and one client address holds
//! only so many (issue 37).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rookery_arbiter::{RuleSet, TimeControl};
use rookery_store::Player;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};
use tokio::sync::broadcast;

use crate::client::ClientAddr;
use crate::error::{ApiError, Limit};
use crate::limits::SeekLimits;
use crate::protocol::{GameId, PlayerView, ServerMessage};
use crate::ratelimit::RateLimiter;
use crate::state::{now_ms, random_id};

/// Which colour the seek's owner wants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    /// White.
    White,
    /// Black.
    Black,
    /// Either, decided when accepted.
    Random,
}

impl crate::protocol::FieldValue for ColorChoice {
    const EXPECTED: &'static str = "white, black or random";
    fn from_value(v: serde_json::Value) -> Result<ColorChoice, String> {
        match v.as_str() {
            Some("white") => Ok(ColorChoice::White),
            Some("black") => Ok(ColorChoice::Black),
            Some("random") => Ok(ColorChoice::Random),
            _ => Err(format!("white, black or random, not {v}")),
        }
    }
}

impl ColorChoice {
    /// The name.
    pub fn name(self) -> &'static str {
        match self {
            ColorChoice::White => "white",
            ColorChoice::Black => "black",
            ColorChoice::Random => "random",
        }
    }

    /// Whether the owner plays White, tossing a coin for `Random`.
    pub fn owner_is_white(self) -> bool {
        match self {
            ColorChoice::White => true,
            ColorChoice::Black => false,
            ColorChoice::Random => {
                let mut b = [0u8; 1];
                let _ = getrandom::fill(&mut b);
                b[0] & 1 == 0
            }
        }
    }
}

/// An open seek (or a challenge to one user).
#[derive(Clone, Debug)]
pub struct Seek {
    /// Its id.
    pub id: String,
    /// Who made it.
    pub owner: Player,
    /// The time control.
    pub time_control: TimeControl,
    /// Its speed.
    pub speed: &'static str,
    /// Rated.
    pub rated: bool,
    /// The rule set.
    pub rules: RuleSet,
    /// The owner's colour.
    pub color: ColorChoice,
    /// The challenged user's name (case as typed), for a challenge.
    pub to: Option<String>,
    /// When (Unix ms).
    pub created_at_ms: u64,
    /// The client address it came from (never shown).
    pub addr: ClientAddr,
}

impl Seek {
    /// Checks and builds a seek.
    ///
    /// # Errors
    /// [`ApiError::BadField`] naming the bad field.
    pub fn new(
        owner: Player,
        addr: ClientAddr,
        time_control: TimeControl,
        rated: bool,
        rules: RuleSet,
        color: ColorChoice,
        to: Option<String>,
    ) -> Result<Seek, ApiError> {
        if rated && rules.takebacks {
            return Err(ApiError::field(
                "rules",
                "rated games use the seed or fide rules (§8.1: no takebacks)",
            ));
        }
        Ok(Seek {
            id: random_id(8),
            owner,
            speed: time_control.speed().name(),
            time_control,
            rated,
            rules,
            color,
            to,
            created_at_ms: now_ms(),
            addr,
        })
    }

    /// Whether `name` may see it: everyone for open seeks; the two sides for a challenge.
    pub fn visible_to(&self, name: &str) -> bool {
        match &self.to {
            None => true,
            Some(to) => to.eq_ignore_ascii_case(name) || self.owner.name == name,
        }
    }
}

/// A seek as the API and the lobby socket show it (its address never).
impl Serialize for Seek {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Seek", 9)?;
        st.serialize_field("id", &self.id)?;
        st.serialize_field("owner", &PlayerView::of(&self.owner))?;
        st.serialize_field("time_control", &self.time_control.to_string())?;
        st.serialize_field("speed", self.speed)?;
        st.serialize_field("rated", &self.rated)?;
        st.serialize_field("rules", self.rules.label())?;
        st.serialize_field("color", self.color.name())?;
        st.serialize_field("to", &self.to)?;
        st.serialize_field("created_at_ms", &self.created_at_ms)?;
        st.end()
    }
}

/// A lobby message with its audience (`None`: everyone who can see seeks).
#[derive(Clone, Debug)]
pub struct LobbyMessage {
    /// Who may receive it: names (case-insensitive), or `None` for the seek's audience.
    pub audience: Option<Vec<String>>,
    /// The seek it concerns, for visibility.
    pub seek: Option<Arc<Seek>>,
    /// The JSON text.
    pub text: Arc<str>,
}

impl LobbyMessage {
    /// Whether `name` receives it.
    pub fn is_for(&self, name: &str) -> bool {
        if let Some(names) = &self.audience {
            return names.iter().any(|n| n.eq_ignore_ascii_case(name));
        }
        self.seek.as_ref().is_none_or(|s| s.visible_to(name))
    }
}

/// Open seeks.
pub struct Lobby {
    limits: SeekLimits,
    seeks: Mutex<HashMap<String, Arc<Seek>>>,
    /// Open lobby sockets per visitor name: a seek lives while its owner is in the lobby.
    present: Mutex<HashMap<String, usize>>,
    /// Seeks created per client address.
    created: RateLimiter,
    /// Lobby events for the lobby sockets.
    pub events: broadcast::Sender<LobbyMessage>,
}

/// At most this many open seeks per owner.
const MAX_SEEKS_PER_OWNER: usize = 5;

impl Lobby {
    /// An empty lobby.
    pub fn new(limits: SeekLimits) -> Lobby {
        Lobby {
            created: RateLimiter::new(limits.created_per_address_per_minute, 60_000),
            limits,
            seeks: Mutex::new(HashMap::new()),
            present: Mutex::new(HashMap::new()),
            // A tournament round tells each of its players on this channel at once (issue 40:
            // 1,000 players, 1,000 messages): room for a round of 4,000 before a socket lags.
            events: broadcast::channel(4096).0,
        }
    }

    /// How often [`Lobby::expire_absent`] should run: often enough that a seek outlives its
    /// grace period by little.
    pub fn sweep_every(&self) -> std::time::Duration {
        (self.limits.owner_grace / 4)
            .clamp(std::time::Duration::from_millis(100), std::time::Duration::from_secs(1))
    }

    /// Opens a seek.
    ///
    /// # Errors
    /// [`ApiError::TooMany`] `too_many_seeks` when its address holds or has created too many;
    /// [`ApiError::Conflict`] when the owner already has too many.
    pub fn add(&self, seek: Seek) -> Result<Arc<Seek>, ApiError> {
        let seek = Arc::new(seek);
        let addr_key = seek.addr.to_string();
        {
            let mut seeks = self.seeks.lock().unwrap_or_else(|e| e.into_inner());
            let per_address = self.limits.open_per_address;
            if seeks.values().filter(|s| s.addr == seek.addr).count() >= per_address {
                return Err(ApiError::TooMany(Limit::SeeksPerAddress(per_address)));
            }
            if !self.created.allows(&addr_key, seek.created_at_ms) {
                return Err(ApiError::TooMany(Limit::SeeksPerMinute(self.created.limit())));
            }
            if seeks.values().filter(|s| s.owner.name == seek.owner.name).count()
                >= MAX_SEEKS_PER_OWNER
            {
                return Err(ApiError::TooMany(Limit::SeeksPerOwner(MAX_SEEKS_PER_OWNER)));
            }
            seeks.insert(seek.id.clone(), seek.clone());
            self.created.record(&addr_key, seek.created_at_ms);
        }
        let text = ServerMessage::SeekAdded { seek: seek.clone() }.to_text();
        let _ = self.events.send(LobbyMessage {
            audience: None,
            seek: Some(seek.clone()),
            text: text.into(),
        });
        Ok(seek)
    }

    /// The open seeks `name` can see, oldest first.
    pub fn visible(&self, name: &str) -> Vec<Arc<Seek>> {
        let seeks = self.seeks.lock().unwrap_or_else(|e| e.into_inner());
        let mut list: Vec<Arc<Seek>> =
            seeks.values().filter(|s| s.visible_to(name)).cloned().collect();
        list.sort_by(|a, b| a.created_at_ms.cmp(&b.created_at_ms).then_with(|| a.id.cmp(&b.id)));
        list
    }

    /// Looks at a seek without taking it.
    pub fn peek(&self, id: &str) -> Option<Arc<Seek>> {
        self.seeks.lock().unwrap_or_else(|e| e.into_inner()).get(id).cloned()
    }

    /// Takes the seek `id` out of the lobby: the caller that gets `Some` is the one accepter.
    pub fn take(&self, id: &str) -> Option<Arc<Seek>> {
        let seek = self.seeks.lock().unwrap_or_else(|e| e.into_inner()).remove(id)?;
        let text = ServerMessage::SeekRemoved { id: id.to_owned() }.to_text();
        let _ = self.events.send(LobbyMessage {
            audience: None,
            seek: Some(seek.clone()),
            text: text.into(),
        });
        Some(seek)
    }

    /// Puts a taken seek back (the game could not be created).
    pub fn put_back(&self, seek: Arc<Seek>) {
        self.seeks.lock().unwrap_or_else(|e| e.into_inner()).insert(seek.id.clone(), seek.clone());
        let text = ServerMessage::SeekAdded { seek: seek.clone() }.to_text();
        let _ =
            self.events.send(LobbyMessage { audience: None, seek: Some(seek), text: text.into() });
    }

    /// A lobby socket of `name` opened.
    pub fn enter(&self, name: &str) {
        *self
            .present
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .entry(name.to_owned())
            .or_insert(0) += 1;
    }

    /// A lobby socket of `name` closed: when it was the last, the seeks of `name` close too
    /// (as on lichess, nobody accepts a seek whose owner has gone).
    pub fn leave(&self, name: &str) {
        let gone = {
            let mut present = self.present.lock().unwrap_or_else(|e| e.into_inner());
            let count = present.entry(name.to_owned()).or_insert(1);
            *count -= 1;
            let gone = *count == 0;
            if gone {
                present.remove(name);
            }
            gone
        };
        if gone {
            let ids: Vec<String> = {
                let seeks = self.seeks.lock().unwrap_or_else(|e| e.into_inner());
                seeks.values().filter(|s| s.owner.name == name).map(|s| s.id.clone()).collect()
            };
            for id in ids {
                self.take(&id);
            }
        }
    }

    /// Removes the seeks whose owners have not been in the lobby since the grace period after
    /// creating them ended, at `now` (Unix ms); how many.
    pub fn expire_absent(&self, now: u64) -> usize {
        let grace = self.limits.owner_grace.as_millis() as u64;
        let ids: Vec<String> = {
            let present = self.present.lock().unwrap_or_else(|e| e.into_inner());
            let seeks = self.seeks.lock().unwrap_or_else(|e| e.into_inner());
            seeks
                .values()
                .filter(|s| now >= s.created_at_ms + grace && !present.contains_key(&s.owner.name))
                .map(|s| s.id.clone())
                .collect()
        };
        ids.iter().filter(|id| self.take(id).is_some()).count()
    }

    /// Tells two players their game has started.
    pub fn game_started(&self, seek: &str, game: &GameId, players: [&str; 2]) {
        let text =
            ServerMessage::GameStarted { seek: seek.to_owned(), game: game.clone() }.to_text();
        let audience = Some(players.iter().map(|s| (*s).to_owned()).collect());
        let _ = self.events.send(LobbyMessage { audience, seek: None, text: text.into() });
    }
}
