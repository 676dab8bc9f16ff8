//! Rule sets (RULES.md §8.4): each a value, so the game asks "what does this rule set say"
//! instead of branching on its name.

use core::fmt;
use core::str::FromStr;

use crate::time_control::{FideCategory, TimeControl};

/// What happens after an illegal move (§8.2, §8.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMovePolicy {
    /// Rejected with the reason, nothing more (`casual`).
    RejectOnly,
    /// Each illegal move is a strike; the `limit`-th loses (`seed`: the third).
    Strikes {
        /// The strike that loses.
        limit: u8,
    },
    /// FIDE Laws 7.5: the first illegal move gives the opponent extra time (2 minutes, 1 in
    /// rapid and blitz as FIDE defines them: [`RuleSet::penalty_ms`]), the second loses.
    Fide,
}

/// When the repetition and move-count draws happen (§6.3, §6.5, §6.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawPolicy {
    /// Threefold repetition, perpetual check and fifty moves end the game at once.
    Automatic,
    /// Threefold repetition and fifty moves must be claimed by the player on move (FIDE 9.2,
    /// 9.3); fivefold repetition and seventy-five moves end the game at once (FIDE 9.6).
    Claimed,
}

/// The name of a rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RuleSetName {
    /// The source document's rules; the default for rated games.
    Seed,
    /// FIDE Laws of Chess.
    Fide,
    /// Friendly games: no strikes, no touch-move, takebacks by consent.
    Casual,
}

/// A complete rule set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RuleSet {
    /// Which one it is.
    pub name: RuleSetName,
    /// After an illegal move (§8.2, §8.4).
    pub illegal_moves: IllegalMovePolicy,
    /// Whether touching a piece obliges (§8.1) and an illegal attempt in check binds the piece
    /// (§8.3).
    pub touch_move: bool,
    /// Automatic or claimed draws.
    pub draws: DrawPolicy,
    /// Whether a move may be taken back with the opponent's consent (never in rated games:
    /// §8.1 "落子无悔").
    pub takebacks: bool,
    /// FIDE 5.1.2 (2023): resigning when the opponent could never mate draws.
    pub resignation_needs_mating_material: bool,
}

impl RuleSet {
    /// The `seed` rules: third illegal move loses, touch-move, automatic draws.
    pub const SEED: RuleSet = RuleSet {
        name: RuleSetName::Seed,
        illegal_moves: IllegalMovePolicy::Strikes { limit: 3 },
        touch_move: true,
        draws: DrawPolicy::Automatic,
        takebacks: false,
        resignation_needs_mating_material: false,
    };

    /// The `fide` rules: FIDE 7.5 penalties, touch-move, claimed draws.
    pub const FIDE: RuleSet = RuleSet {
        name: RuleSetName::Fide,
        illegal_moves: IllegalMovePolicy::Fide,
        touch_move: true,
        draws: DrawPolicy::Claimed,
        takebacks: false,
        resignation_needs_mating_material: true,
    };

    /// The `casual` rules: illegal moves only rejected, no touch-move, automatic draws,
    /// takebacks by consent.
    pub const CASUAL: RuleSet = RuleSet {
        name: RuleSetName::Casual,
        illegal_moves: IllegalMovePolicy::RejectOnly,
        touch_move: false,
        draws: DrawPolicy::Automatic,
        takebacks: true,
        resignation_needs_mating_material: false,
    };

    /// All three, `seed` first.
    pub const ALL: [RuleSet; 3] = [RuleSet::SEED, RuleSet::FIDE, RuleSet::CASUAL];

    /// The rule set's name as written in the `Ruleset` PGN tag and on the command line.
    pub const fn label(&self) -> &'static str {
        match self.name {
            RuleSetName::Seed => "seed",
            RuleSetName::Fide => "fide",
            RuleSetName::Casual => "casual",
        }
    }

    /// The time FIDE 7.5.5 and 9.5.3 give the opponent for an illegal move or an incorrect
    /// claim: 2 minutes, 1 minute in rapid and blitz (Appendices A.4.2 and B.3), "rapid" and
    /// "blitz" being FIDE's own classes (A.1, B.1: [`TimeControl::fide_category`]), not the
    /// lobby's speed bands (RULES.md §8.4). `None` when the game is untimed: there is no clock
    /// to add time to.
    pub fn penalty_ms(&self, tc: &TimeControl) -> Option<u64> {
        tc.fide_category().map(|category| match category {
            FideCategory::Blitz | FideCategory::Rapid => 60_000,
            FideCategory::Standard => 120_000,
        })
    }
}

impl Default for RuleSet {
    fn default() -> RuleSet {
        RuleSet::SEED
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A rule set name other than `seed`, `fide` or `casual`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseRuleSetError(pub String);

impl fmt::Display for ParseRuleSetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown rule set {:?} (expected seed, fide or casual)", self.0)
    }
}

impl std::error::Error for ParseRuleSetError {}

impl FromStr for RuleSet {
    type Err = ParseRuleSetError;

    fn from_str(s: &str) -> Result<RuleSet, ParseRuleSetError> {
        RuleSet::ALL
            .into_iter()
            .find(|r| r.label() == s)
            .ok_or_else(|| ParseRuleSetError(s.to_owned()))
    }
}
