//! What one client may hold or do (issue 37): the limits in one place, grouped by what they
//! protect, with their defaults. Each is documented for people in docs/api.md ("Limits").

use std::time::Duration;

pub use rookery_listener::{ConnectionLimits, OPEN_FILES_RESERVE};

/// Every limit of the server.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// TCP connections and HTTP timeouts.
    pub connections: ConnectionLimits,
    /// WebSockets and their messages.
    pub sockets: SocketLimits,
    /// Seeks in the lobby.
    pub seeks: SeekLimits,
    /// Sign-ups and log-ins.
    pub accounts: AccountLimits,
    /// What the engine spends on analyses of finished games.
    pub analysis: AnalysisLimits,
}

/// The engine's budget for analysing a finished game (issue 38): one game at a time, each
/// position searched to a fixed node count, so a game's analysis is the same whenever it is
/// made and costs a known amount.
#[derive(Clone, Debug)]
pub struct AnalysisLimits {
    /// Nodes searched per position. 250,000 take about half a second on one core of the
    /// machine the figures in BENCHMARKS.md come from: a 40-move game in 40 s.
    pub nodes_per_position: u64,
}

impl Default for AnalysisLimits {
    fn default() -> AnalysisLimits {
        AnalysisLimits { nodes_per_position: 250_000 }
    }
}

/// WebSockets: how many one visitor holds, and how fast they may talk.
#[derive(Clone, Debug)]
pub struct SocketLimits {
    /// Open sockets at most per visitor (a signed-in user, or an anonymous visitor's cookie),
    /// game and lobby sockets together.
    pub per_visitor: usize,
    /// Open sockets at most per visitor on one game, or on the lobby.
    pub per_visitor_and_game: usize,
    /// Messages a visitor may send to one game (or the lobby) per second, over all of their
    /// sockets to it.
    pub messages_per_second: u32,
    /// Messages a visitor may send at once before the rate applies.
    pub message_burst: u32,
}

impl Default for SocketLimits {
    fn default() -> SocketLimits {
        SocketLimits {
            per_visitor: 32,
            per_visitor_and_game: 4,
            messages_per_second: 20,
            message_burst: 40,
        }
    }
}

/// Seeks: an owner must be present, and one address may hold only so many.
#[derive(Clone, Debug)]
pub struct SeekLimits {
    /// A seek whose owner has no lobby socket open this long after creating it is removed.
    pub owner_grace: Duration,
    /// Open seeks at most per client address, of its guests (a signed-in player's seeks
    /// count per account: [`crate::lobby`]'s per-owner cap).
    pub open_per_address: usize,
    /// Seeks created at most per minute by the guests of one client address, and by each
    /// signed-in player.
    pub created_per_address_per_minute: u32,
}

impl Default for SeekLimits {
    fn default() -> SeekLimits {
        SeekLimits {
            owner_grace: Duration::from_secs(5),
            open_per_address: 20,
            created_per_address_per_minute: 60,
        }
    }
}

/// Sign-ups and failed log-ins, each counted on its own.
#[derive(Clone, Debug)]
pub struct AccountLimits {
    /// Sign-ups at most per client address per 10 minutes.
    pub signups_per_address: u32,
    /// Class accounts (issue 51) one organiser may create per day.
    pub class_accounts_per_day: u32,
    /// Failed log-ins at most per name from one address per minute: an attacker's failures
    /// lock out the attacker's address, not the name's owner elsewhere.
    pub failures_per_name_and_address: u32,
    /// Failed log-ins at most per address per minute, whatever the names (credential
    /// stuffing from one address).
    pub failures_per_address: u32,
    /// Failed log-ins at most per name per hour from all addresses together. Past it, the
    /// name can be logged in to only from a browser that has logged in to it before (a
    /// distributed guess of one password stops; its owner gets in).
    pub failures_per_name: u32,
}

impl Default for AccountLimits {
    fn default() -> AccountLimits {
        AccountLimits {
            signups_per_address: 30,
            class_accounts_per_day: 200,
            failures_per_name_and_address: 5,
            failures_per_address: 20,
            failures_per_name: 50,
        }
    }
}

/// A limit a client reached (issue 37; docs/api.md, "Limits"), with the figure it names.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Limit {
    /// Open sockets of one visitor.
    #[error("at most {0} open sockets per visitor; close one first")]
    SocketsPerVisitor(usize),
    /// Open sockets of one visitor on one game (or the lobby).
    #[error("at most {0} open sockets per visitor on one game (or the lobby); close one first")]
    SocketsPerGame(usize),
    /// Open seeks of the guests at one client address.
    #[error(
        "at most {0} open seeks from guests at one address; sign in to seek with your account"
    )]
    SeeksPerAddress(usize),
    /// Seeks created in a minute by the guests at one client address, or by one account.
    #[error("at most {0} new seeks a minute")]
    SeeksPerMinute(u32),
    /// Open seeks of one owner.
    #[error("at most {0} open seeks each")]
    SeeksPerOwner(usize),
    /// Sign-ups from one address.
    #[error("at most {0} sign-ups from one address in 10 minutes; try again later")]
    SignUps(u32),
    /// Failed log-ins to one name from one address.
    #[error("more than {max} failed log-ins to {name:?} from your address; try again in a minute")]
    LogInsToName {
        /// The name (lower case).
        name: String,
        /// The limit.
        max: u32,
    },
    /// Failed log-ins from one address.
    #[error("more than {0} failed log-ins from your address; try again in a minute")]
    LogIns(u32),
    /// A name being guessed at: only browsers that have logged in to it before may.
    #[error(
        "{0:?} is being guessed at: for up to an hour it can be logged in to only from a \
         browser that has logged in to it before"
    )]
    NameGuessed(String),
    /// Class accounts one organiser may create per day.
    #[error("at most {max} class accounts a day; {left} more today")]
    ClassAccounts {
        /// The limit.
        max: u64,
        /// How many the organiser may still create today.
        left: u64,
    },
}

impl Limit {
    /// The machine code.
    pub fn code(&self) -> &'static str {
        match self {
            Limit::SocketsPerVisitor(_) | Limit::SocketsPerGame(_) => "too_many_sockets",
            Limit::SeeksPerAddress(_) | Limit::SeeksPerMinute(_) | Limit::SeeksPerOwner(_) => {
                "too_many_seeks"
            }
            Limit::SignUps(_) | Limit::LogInsToName { .. } | Limit::LogIns(_) => "rate_limited",
            Limit::NameGuessed(_) | Limit::ClassAccounts { .. } => "rate_limited",
        }
    }
}
