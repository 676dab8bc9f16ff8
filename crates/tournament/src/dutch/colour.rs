//! Who gets White in the Dutch system (C.04.3 Art. 5); the steps it shares with the Burstein
//! system are in [`crate::swiss::colour`].

use crate::swiss::colour::Allocation;
use crate::swiss::entrant::Entrant;

/// Whether `a` ranks above `b` (1.2): higher score, then smaller pairing number.
pub(crate) fn ranks_above(a: &Entrant, b: &Entrant) -> bool {
    (b.score, a.rank) < (a.score, b.rank)
}

/// The Dutch colour allocation: 5.2.1–5.2.3 as the shared steps, then 5.2.4 the
/// higher-ranked player's preference and 5.2.5 without one the initial colour to the
/// higher-ranked player if their pairing number is odd, ranking by score and pairing number.
pub(crate) struct Dutch;

impl Allocation for Dutch {
    fn higher(&self, p: &Entrant, q: &Entrant) -> bool {
        ranks_above(p, q)
    }
}
