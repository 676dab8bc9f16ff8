//! Team Swiss (FIDE C.04.6 as reconstructed, see the crate README): hand-worked cases of the
//! colour preferences (Art. 1.7), the colour allocation (Art. 4), the bye (Art. 3.4), the
//! upfloater (Art. 3.5) and the lexicographic bracket pairing (Art. 3.6).

mod team_support;

use rookery_core::Color::{self, Black, White};
use rookery_tournament::team::colour::{self, ColourTeam, Preference, PreferenceType, Strength};
use rookery_tournament::team::swiss::{self, InitialColour, TeamSwissError, TeamSwissSettings};
use rookery_tournament::team::TeamScoring;
use rookery_tournament::Score;
use team_support::{competition, id, play, results};

fn pref(colour: Color, strength: Strength) -> Option<Preference> {
    Some(Preference { colour, strength })
}

#[test]
fn art_1_7_colour_preferences() {
    use PreferenceType::{A, B};
    let (w, b) = (Some(White), Some(Black));
    // (board-1 colours so far, type, last round, preference)
    type Case<'a> = (&'a [Option<Color>], PreferenceType, bool, Option<Preference>);
    let cases: &[Case<'_>] = &[
        // No match played: no preference.
        (&[None], A, false, None),
        // 1.7.1: CD below -1.
        (&[b, b, b, w], A, false, pref(White, Strength::Strong)),
        // 1.7.1: CD 0 or -1 and the last two played Black (a bye between does not count).
        (&[w, b, None, b], A, false, pref(White, Strength::Strong)),
        (&[w, w, b, b], A, false, pref(White, Strength::Strong)),
        // Mirrored for Black.
        (&[b, w, w], A, false, pref(Black, Strength::Strong)),
        // Type A has nothing else.
        (&[b, w, b], A, false, None),
        (&[w, b], A, false, None),
        // 1.7.2: Type B mild: CD -1 ...
        (&[b, w, b], B, false, pref(White, Strength::Mild)),
        // ... or CD 0, last Black, not the last round.
        (&[w, b], B, false, pref(White, Strength::Mild)),
        (&[w, b], B, true, None),
        (&[b, w], B, false, pref(Black, Strength::Mild)),
        // Type B strong as Type A.
        (&[w, w], B, true, pref(Black, Strength::Strong)),
        (&[w, w], PreferenceType::None, false, None),
    ];
    for (history, kind, last, expected) in cases {
        assert_eq!(
            colour::preference(history, *kind, *last),
            *expected,
            "{history:?} {kind:?} last {last}"
        );
    }
}

fn team(tpn: usize, primary: u32, secondary: u32, history: &[Option<Color>]) -> ColourTeam<'_> {
    ColourTeam { tpn, primary: Score(primary), secondary: Score(secondary), history }
}

/// Whether `a` gets White, Type A, not the last round, initial colour White.
fn a_white(a: ColourTeam<'_>, b: ColourTeam<'_>) -> bool {
    colour::allocate(a, b, PreferenceType::A, false, White)
}

#[test]
fn art_4_3_1_no_match_played_the_pairing_number_decides() {
    // The first-team (4.2.3: the smaller pairing number) with an odd number has the initial
    // colour, with an even number the other.
    assert!(a_white(team(1, 0, 0, &[]), team(2, 0, 0, &[])));
    assert!(!a_white(team(2, 0, 0, &[]), team(1, 0, 0, &[])));
    assert!(!colour::allocate(
        team(1, 0, 0, &[]),
        team(2, 0, 0, &[]),
        PreferenceType::A,
        false,
        Black
    ));
    // 4.2.1: the first-team is the one with more points, here number 2: even, so Black.
    assert!(!a_white(team(2, 20, 0, &[None]), team(5, 0, 0, &[None])));
}

#[test]
fn art_4_3_2_to_4_3_4_preferences() {
    let (w, b) = (Some(White), Some(Black));
    // 4.3.2: only b has a preference (for Black: CD +2): granted.
    assert!(a_white(team(1, 20, 0, &[w, b]), team(2, 20, 0, &[w, w])));
    // 4.3.3: opposite preferences, both granted, whoever is first-team.
    assert!(!a_white(team(1, 20, 0, &[w, w]), team(2, 20, 0, &[b, b])));
    assert!(a_white(team(2, 0, 0, &[b, b]), team(1, 20, 0, &[w, w])));
    // 4.3.4 (Type B): both want Black, b strongly (CD +2), a mildly (CD +1): b has it.
    let (ha, hb) = ([w], [w, w, b, w]);
    let (a, bb) = (team(1, 20, 0, &ha), team(2, 20, 0, &hb));
    assert!(colour::allocate(a, bb, PreferenceType::B, false, White));
    // Under Type A, a has no preference, so 4.3.2 gives b Black just the same.
    assert!(colour::allocate(a, bb, PreferenceType::A, false, White));
}

#[test]
fn art_4_3_5_to_4_3_9_when_preferences_do_not_decide() {
    let (w, b) = (Some(White), Some(Black));
    // 4.3.5: no preferences; the lower colour difference (b: 0 against a: +1) has White.
    assert!(!a_white(team(1, 20, 0, &[w, b, w]), team(2, 20, 0, &[b, w])));
    // 4.3.6: same difference; in round 2, the latest round they differed, a had Black.
    assert!(a_white(team(1, 20, 0, &[w, b]), team(2, 20, 0, &[b, w])));
    // 4.3.6 going back past rounds 4 and 3 (same colours) to round 2, where a had White.
    assert!(!a_white(team(1, 20, 0, &[b, w, w, b]), team(2, 20, 0, &[w, b, w, b])));
    // 4.3.7: same history, the same preference (Black) for both: the first-team's is
    // granted. The first-team is a by the secondary score (4.2.2).
    assert!(!a_white(team(2, 20, 25, &[w, w]), team(1, 20, 20, &[w, w])));
    assert!(a_white(team(2, 20, 15, &[w, w]), team(1, 20, 20, &[w, w])));
    // 4.3.8: no preference at all: the first-team alternates from its last match (Black).
    assert!(a_white(team(1, 20, 0, &[w, b]), team(2, 20, 0, &[w, b])));
    // 4.3.9: the first-team (a, more points) has played no match; b alternates from Black.
    assert!(!a_white(team(3, 40, 0, &[None, None]), team(4, 20, 0, &[w, b])));
}

fn settings(rounds: u32) -> TeamSwissSettings {
    TeamSwissSettings { rounds, ..Default::default() }
}

#[test]
fn art_3_6_round_one_pairs_neighbours_in_lexicographic_order() {
    // All on zero: one bracket; 1 meets the lowest number it may (2), then 3 meets 4. Colours
    // by 4.3.1: the odd numbers have the initial colour.
    let c = competition(4, TeamScoring::default());
    assert_eq!(swiss::pair(&c, &settings(3)).unwrap().to_string(), "1-2 3-4");
    let black = TeamSwissSettings { initial_colour: InitialColour::Black, ..settings(3) };
    assert_eq!(swiss::pair(&c, &black).unwrap().to_string(), "2-1 4-3");
}

#[test]
fn round_two_by_score_with_the_secondary_score_choosing_the_first_team() {
    let mut c = competition(4, TeamScoring::default());
    let r1 = swiss::pair(&c, &settings(3)).unwrap();
    // 1 beats 2 by 3-1, 3 beats 4 by 4-0.
    play(&mut c, &r1, |w, _| if w == id(1) { results(3, 0) } else { results(4, 0) });
    // Brackets {1, 3} (2 MP) and {2, 4}. 1 and 3 both had White and have no preference: the
    // first-team is 3 (more game points, 4.2.2) and alternates (4.3.8): 1 has White. In the
    // other match 2 is first-team (1 game point to 0) and had Black: 2 has White.
    assert_eq!(swiss::pair(&c, &settings(3)).unwrap().to_string(), "1-3 2-4");
}

#[test]
fn art_3_4_and_3_5_the_bye_and_the_upfloater_from_the_bottom_of_the_next_group() {
    let mut c = competition(7, TeamScoring::default());
    let r1 = swiss::pair(&c, &settings(5)).unwrap();
    // 3.4: everybody on zero with no match played: the largest pairing number has the bye.
    assert_eq!(r1.to_string(), "1-2 3-4 5-6 (bye 7)");
    // 1 beats 2 by 3-1, 3 beats 4 by 2½-1½, 5-6 is drawn 2-2.
    play(&mut c, &r1, |w, _| match w.get() {
        1 => results(3, 0),
        3 => results(2, 1),
        _ => results(1, 2),
    });
    // Scores: 1, 3, 7 have 2 MP; 5, 6 have 1; 2, 4 none. The bye (3.4): the lowest score, the
    // most matches, the largest pairing number: 4 (pairing number 7). The top bracket {1, 3, 7}
    // is odd: its upfloater (3.5) is the lowest-ranked of the next group, 6, not 5. Then
    // lexicographically (3.6) 1-3 and 7-6, and 5-2 below.
    // Colours: 1 and 3 had White: 1 is first-team (3 game points to 2½) and alternates
    // (4.3.8): 3-1. 7 (bye) against 6 (Black, CD -1): the lower difference has White (4.3.5):
    // 6-7. 5 (White) against 2 (Black): 2-5 by 4.3.5. Tables by the higher score, then the
    // smaller pairing number.
    assert_eq!(swiss::pair(&c, &settings(5)).unwrap().to_string(), "3-1 6-7 2-5 (bye 4)");
}

#[test]
fn the_rest_of_the_round_must_stay_pairable() {
    let mut c = competition(5, TeamScoring::default());
    let r1 = swiss::pair(&c, &settings(5)).unwrap();
    assert_eq!(r1.to_string(), "1-2 3-4 (bye 5)");
    play(&mut c, &r1, |w, _| if w == id(1) { results(4, 0) } else { results(0, 4) });
    // 1 and 5 on 2 MP, 3 and 4 on 1, 2 on none and the bye. 1-5 would leave 3 and 4, who have
    // met: the top bracket cannot be paired in itself, both float, and 1 meets 3, 5 meets 4.
    let r2 = swiss::pair(&c, &settings(5)).unwrap();
    assert_eq!(r2.bye, Some(id(2)));
    let mut pairs: Vec<(u32, u32)> =
        r2.matches.iter().map(|(a, b)| (a.get().min(b.get()), a.get().max(b.get()))).collect();
    pairs.sort();
    assert_eq!(pairs, [(1, 3), (4, 5)]);
}

#[test]
fn forbidden_pairs_absences_and_impossible_rounds() {
    let c = competition(4, TeamScoring::default());
    let s = TeamSwissSettings { forbidden: vec![(id(1), id(2))], ..settings(3) };
    // 1 may not meet 2, so 1-3 and 2-4; in 2-4 the first-team, 2, is even: Black (4.3.1).
    assert_eq!(swiss::pair(&c, &s).unwrap().to_string(), "1-3 4-2");
    let s = TeamSwissSettings { absent: vec![id(2)], ..settings(3) };
    assert_eq!(swiss::pair(&c, &s).unwrap().to_string(), "1-3 (bye 4)");
    let s = TeamSwissSettings { absent: vec![id(9)], ..settings(3) };
    assert_eq!(swiss::pair(&c, &s).unwrap_err().to_string(), "there is no team 9");
    // Two teams, round 2: they have met.
    let mut two = competition(2, TeamScoring::default());
    let r1 = swiss::pair(&two, &settings(2)).unwrap();
    play(&mut two, &r1, |_, _| results(2, 0));
    assert_eq!(swiss::pair(&two, &settings(2)), Err(TeamSwissError::NoPairing { round: 2 }));
    assert_eq!(
        swiss::pair(&two, &settings(1)).unwrap_err().to_string(),
        "round 2 is past the last round (1)"
    );
    // Unless the match was forfeited on every board: no meeting, so they may meet again.
    let mut two = competition(2, TeamScoring::default());
    play(&mut two, &r1, |_, _| vec![rookery_tournament::team::BoardResult::WhiteWinsByForfeit; 4]);
    assert_eq!(swiss::pair(&two, &settings(2)).unwrap().matches.len(), 1);
}
