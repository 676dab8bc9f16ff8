//! Clock behaviour under every time control, driven by a fake clock that only moves when the
//! test advances it (STYLE habit 8). RULES.md §9 and FIDE Laws article 6 throughout.

use proptest::prelude::*;
use rookery_arbiter::clock::{Clock, ClockError, ClockState, MoveReport};
use rookery_arbiter::time_control::{Bonus, TimeControl, TimeControlSpec, MS_PER_DAY};
use rookery_core::Color::{self, Black, White};
use rookery_pgn::comment::format_clock;

/// A clock on the wall that only moves when told to.
struct FakeTime {
    now: u64,
}

impl FakeTime {
    fn at(now: u64) -> FakeTime {
        FakeTime { now }
    }

    fn advance(&mut self, ms: u64) -> u64 {
        self.now += ms;
        self.now
    }
}

fn tc(text: &str) -> TimeControl {
    text.parse().unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn started(text: &str, now: u64) -> Clock {
    let mut clock = Clock::new(tc(text));
    clock.start(White, now).unwrap();
    clock
}

/// FIDE 6.3.1 / lichess: the increment is added after the move, the first move included.
#[test]
fn fischer_increment_is_added_after_each_move() {
    let mut time = FakeTime::at(0);
    let mut clock = started("180+2", time.now);
    assert_eq!(clock.remaining(White, time.advance(5_000)), Some(175_000));
    let r = clock.press(time.now).unwrap();
    assert_eq!((r.color, r.spent, r.bonus, r.remaining), (White, 5_000, 2_000, Some(177_000)));
    assert_eq!(clock.running(), Some(Black));
    assert_eq!(clock.remaining(Black, time.advance(3_000)), Some(177_000));
    assert_eq!(clock.remaining(White, time.now), Some(177_000), "the waiting side's clock stands");
    let r = clock.press(time.now).unwrap();
    assert_eq!(r.remaining, Some(179_000));
    // An instant move still earns the increment: time can grow above the base.
    assert_eq!(clock.press(time.now).unwrap().remaining, Some(179_000));
    assert_eq!(clock.remaining(White, time.now), Some(179_000));
}

/// Bronstein delay: the time used is added back, up to the delay; the flag falls when the
/// main time is gone (no extra time during the move).
#[test]
fn bronstein_adds_back_min_of_delay_and_time_spent() {
    let mut time = FakeTime::at(1_000);
    let mut clock = started("60b5", time.now);
    assert_eq!(clock.flag_deadline(White), Some(61_000));
    assert_eq!(clock.remaining(White, time.advance(3_000)), Some(57_000), "display counts down");
    let r = clock.press(time.now).unwrap();
    assert_eq!((r.spent, r.bonus, r.remaining), (3_000, 3_000, Some(60_000)));
    time.advance(8_000);
    let r = clock.press(time.now).unwrap();
    assert_eq!((r.spent, r.bonus, r.remaining), (8_000, 5_000, Some(57_000)));
    assert_eq!(clock.delay_remaining(White, time.now), None, "no display delay in Bronstein");
}

/// FIDE 6.3.2 time-delay mode: the main time only counts down after the delay, and a press
/// within the delay leaves it unchanged.
#[test]
fn simple_delay_counts_down_only_after_the_delay() {
    let mut time = FakeTime::at(0);
    let mut clock = started("60d5", time.now);
    assert_eq!(clock.flag_deadline(White), Some(65_000));
    assert_eq!(clock.remaining(White, time.advance(4_000)), Some(60_000));
    assert_eq!(clock.delay_remaining(White, time.now), Some(1_000));
    assert_eq!(clock.remaining(White, time.advance(1_000)), Some(60_000));
    assert_eq!(clock.delay_remaining(White, time.now), Some(0));
    assert_eq!(clock.remaining(White, time.advance(2_000)), Some(58_000));
    let r = clock.press(time.now).unwrap();
    assert_eq!((r.spent, r.bonus, r.remaining), (7_000, 5_000, Some(58_000)));
    assert_eq!(clock.delay_remaining(Black, time.now), Some(5_000));
    let r = clock.press(time.advance(3_000)).unwrap();
    assert_eq!((r.spent, r.bonus, r.remaining), (3_000, 3_000, Some(60_000)));
    assert_eq!(clock.flag_deadline(White), Some(time.now + 58_000 + 5_000));
}

/// RULES.md §9, FIDE 6.3.2: after the 40th move the next period's time is added, and the
/// increment applies from move 1 (`40/5400:1800+30`).
#[test]
fn period_transition_at_move_forty_adds_the_next_period() {
    let mut time = FakeTime::at(0);
    let mut clock = started("40/5400:1800+30", time.now);
    let mut expected = 5_400_000;
    for n in 1..=40 {
        assert_eq!(clock.moves_to_control(White), Some(41 - n));
        let white = clock.press(time.advance(60_000)).unwrap();
        let black = clock.press(time.advance(60_000)).unwrap();
        expected = expected - 60_000 + 30_000;
        if n < 40 {
            assert_eq!((white.period, white.period_added), (0, 0), "move {n}");
            assert_eq!(white.remaining, Some(expected), "move {n}");
        } else {
            assert_eq!((white.period, white.period_added), (1, 1_800_000));
            assert_eq!(white.remaining, Some(expected + 1_800_000));
            assert_eq!(black.remaining, Some(expected + 1_800_000));
            assert_eq!(white.added(), 1_830_000);
        }
        assert_eq!(white.moves, n);
    }
    assert_eq!(clock.moves_to_control(White), None, "sudden death now");
    assert_eq!((clock.period(White), clock.period(Black)), (1, 1));
    let r = clock.press(time.advance(1_000)).unwrap();
    assert_eq!((r.bonus, r.period_added, r.period), (30_000, 0, 1));
}

/// RULES.md §9, last sentence: a player who has not completed the required moves when the
/// period's time runs out loses on time — the next period's time does not come to the rescue.
#[test]
fn failing_to_make_forty_moves_in_time_flags() {
    for (last_move, in_time) in [(21_000, true), (21_001, false)] {
        let mut time = FakeTime::at(0);
        let mut clock = started("40/60:60", time.now);
        for _ in 0..39 {
            clock.press(time.advance(1_000)).unwrap();
            clock.press(time.advance(1)).unwrap();
        }
        assert_eq!(clock.remaining(White, time.now), Some(21_000));
        assert_eq!(clock.moves_to_control(White), Some(1));
        let deadline = clock.flag_deadline(White).unwrap();
        let result = clock.press(time.advance(last_move));
        if in_time {
            assert_eq!(result.unwrap().remaining, Some(60_000));
        } else {
            assert_eq!(clock.flagged(time.now), Some(White));
            assert_eq!(result, Err(ClockError::Flagged { color: White, deadline, now: time.now }));
        }
    }
}

/// PGN §9.6.1: the last period repeats (`40/9000` is 40 moves in 2.5 hours, again and again).
#[test]
fn last_period_with_a_move_count_repeats() {
    let mut time = FakeTime::at(0);
    let mut clock = Clock::new(tc("2/10"));
    clock.start(Black, time.now).unwrap();
    let added: Vec<u64> = (0..6)
        .map(|_| {
            let r = clock.press(time.advance(1_000)).unwrap();
            clock.press(time.now).unwrap();
            r.period_added
        })
        .collect();
    assert_eq!(added, [0, 10_000, 0, 10_000, 0, 10_000]);
    assert_eq!(clock.period(Black), 3);
    assert_eq!(clock.remaining(Black, time.now), Some(40_000 - 6_000));
}

/// RULES.md §9 multi-period controls, FIDE 6.3.1: the shorthand `2/10:5+1` gives the
/// increment from move 1; `2/10+0:5+1` only from move 3.
#[test]
fn per_period_bonuses_and_the_trailing_shorthand() {
    let run = |text: &str| {
        let mut time = FakeTime::at(0);
        let mut clock = started(text, 0);
        (0..3)
            .map(|_| {
                let r = clock.press(time.advance(1_000)).unwrap();
                clock.press(time.now).unwrap();
                r.remaining.unwrap()
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(run("2/10:5+1"), [10_000, 15_000, 15_000]);
    assert_eq!(run("2/10+1:5+1"), [10_000, 15_000, 15_000]);
    assert_eq!(run("2/10+0:5+1"), [9_000, 13_000, 13_000]);
    assert_eq!(run("2/10+1:5"), [10_000, 15_000, 14_000]);
    assert_eq!(run("2/10d2:5b2"), [10_000, 15_000, 15_000]);
}

/// RULES.md §9 correspondence: each move may take the days per move; the allowance starts
/// afresh every move.
#[test]
fn correspondence_allowance_resets_every_move() {
    let day = MS_PER_DAY;
    let mut time = FakeTime::at(0);
    let mut clock = started("1d", time.now);
    assert_eq!(clock.flag_deadline(White), Some(day));
    let r = clock.press(time.advance(day)).unwrap();
    assert_eq!((r.spent, r.bonus, r.remaining), (day, day, Some(day)));
    assert_eq!(clock.remaining(Black, time.advance(1_000)), Some(day - 1_000));
    assert_eq!(clock.flagged(time.now + day - 1_000), None);
    assert_eq!(clock.flagged(time.now + day - 999), Some(Black));
    clock.press(time.advance(12 * 3_600_000)).unwrap();
    // Time added above the allowance is kept until used.
    clock.add_time(White, 1_000);
    let r = clock.press(time.advance(400)).unwrap();
    assert_eq!((r.bonus, r.remaining), (0, Some(day + 600)));
    clock.press(time.advance(1)).unwrap();
    let r = clock.press(time.advance(2_000)).unwrap();
    assert_eq!((r.bonus, r.remaining), (1_400, Some(day)));
}

/// PGN §9.6.1 sandclock: equal halves; the opponent gains what the mover uses.
#[test]
fn sandclock_moves_time_to_the_opponent() {
    let mut time = FakeTime::at(0);
    let mut clock = started("*60", time.now);
    assert_eq!(clock.remaining(White, time.advance(10_000)), Some(20_000));
    assert_eq!(clock.remaining(Black, time.now), Some(40_000));
    let r = clock.press(time.now).unwrap();
    assert_eq!((r.spent, r.opponent_added, r.remaining), (10_000, 10_000, Some(20_000)));
    assert_eq!(clock.flag_deadline(Black), Some(50_000));
    // The upper chamber empties: the opponent cannot gain more than the mover had.
    assert_eq!(clock.remaining(White, 70_000), Some(60_000));
    assert_eq!(clock.flagged(50_000), None);
    assert_eq!(clock.flagged(50_001), Some(Black));
}

/// `-` and `?`: moves are counted, no flag ever falls.
#[test]
fn untimed_and_unknown_never_flag() {
    for text in ["-", "?"] {
        let mut time = FakeTime::at(0);
        let mut clock = started(text, time.now);
        assert_eq!(clock.flag_deadline(White), None);
        clock.add_time(White, 120_000);
        assert_eq!(clock.flagged(time.advance(10 * 365 * MS_PER_DAY)), None);
        let r = clock.press(time.now).unwrap();
        assert_eq!((r.remaining, r.moves, r.bonus), (None, 1, 0), "{text}");
        assert_eq!(clock.remaining(White, time.now), None);
        assert_eq!(clock.running(), Some(Black));
    }
}

/// FIDE 7.5.5 (RULES.md §8.4): the opponent of an illegal move gets time, also while its
/// clock runs.
#[test]
fn add_time_to_running_and_waiting_clocks() {
    let mut time = FakeTime::at(0);
    let mut clock = started("60", time.now);
    clock.add_time(White, 120_000);
    assert_eq!(clock.flag_deadline(White), Some(180_000));
    assert_eq!(clock.remaining(White, time.advance(1_000)), Some(179_000));
    clock.add_time(Black, 60_000);
    assert_eq!(clock.remaining(Black, time.now), Some(120_000));
    clock.press(time.now).unwrap();
    assert_eq!(clock.flag_deadline(Black), Some(121_000));

    // With a simple delay the deadline keeps the delay on top of the added time.
    let mut clock = started("60d5", 0);
    clock.add_time(White, 60_000);
    assert_eq!(clock.flag_deadline(White), Some(125_000));
}

/// RULES.md §5 and issue 4: a press in the deadline millisecond is in time (a move that mates
/// then wins); one millisecond later the flag has fallen and the press is refused.
#[test]
fn flag_falls_after_the_deadline_not_at_it() {
    let mut clock = started("60", 0);
    assert_eq!(clock.flagged(60_000), None);
    assert_eq!(clock.flagged(60_001), Some(White));
    let before = clock.clone();
    assert_eq!(
        clock.press(60_001),
        Err(ClockError::Flagged { color: White, deadline: 60_000, now: 60_001 })
    );
    assert_eq!(clock, before, "a refused press changes nothing");
    let r = clock.press(60_000).unwrap();
    assert_eq!(r.remaining, Some(0));
    clock.press(60_000).unwrap();
    // White is back on move with nothing left: in time only in the very same millisecond.
    assert_eq!(clock.flag_deadline(White), Some(60_000));
    assert_eq!(clock.flagged(60_001), Some(White));
    assert!(clock.press(60_000).is_ok());
}

/// RULES.md §9: flag fall exact to the millisecond, also with nothing on the clock (FIDE 6.1:
/// the flag is the end of the allotted time, however small).
#[test]
fn zero_time_edge_cases() {
    // 0+1: nothing banked, each move must be instant until increments accumulate.
    let mut clock = started("0+1", 100);
    assert_eq!(clock.flag_deadline(White), Some(100));
    assert_eq!(clock.remaining(White, 100), Some(0));
    assert_eq!(clock.press(100).unwrap().remaining, Some(1_000));
    assert!(matches!(clock.press(101), Err(ClockError::Flagged { color: Black, .. })));

    // 0d5: the delay is the whole allowance of every move.
    let mut clock = started("0d5", 0);
    assert_eq!(clock.remaining(White, 4_000), Some(0));
    let r = clock.press(5_000).unwrap();
    assert_eq!((r.bonus, r.remaining), (5_000, Some(0)));
    assert_eq!(clock.flag_deadline(Black), Some(10_000));
    assert!(clock.press(10_001).is_err());

    // 0b5: the delay is only paid back, so there is no time to spend.
    let mut clock = started("0b5", 0);
    assert_eq!(clock.flagged(1), Some(White));
    let r = clock.press(0).unwrap();
    assert_eq!((r.spent, r.bonus, r.remaining), (0, 0, Some(0)));

    // Zero-length moves and `now` at the epoch are fine.
    let mut clock = started("1", 0);
    assert_eq!(clock.press(0).unwrap().remaining, Some(1_000));
}

/// Adjournments and server restarts (RULES.md §9, the server's clock is authoritative): `stop`
/// keeps the time used, `resume` continues the move.
#[test]
fn stop_and_resume_split_one_move() {
    let mut clock = started("60d5", 0);
    assert_eq!(clock.stop(3_000), Ok(White));
    assert!(clock.is_paused());
    assert_eq!(clock.running(), None);
    assert_eq!(clock.flagged(1_000_000), None, "a paused clock does not flag");
    assert_eq!(clock.remaining(White, 1_000_000), Some(60_000));
    assert_eq!(clock.delay_remaining(White, 1_000_000), Some(2_000));
    assert_eq!(clock.resume(100_000), Ok(White));
    assert_eq!(clock.flag_deadline(White), Some(100_000 + 65_000 - 3_000));
    let r = clock.press(104_000).unwrap();
    assert_eq!((r.spent, r.bonus, r.remaining), (7_000, 5_000, Some(58_000)));

    // Bronstein pays back the whole move's time across the pause.
    let mut clock = started("60b5", 0);
    clock.stop(2_000).unwrap();
    clock.resume(50_000).unwrap();
    let r = clock.press(52_000).unwrap();
    assert_eq!((r.spent, r.bonus, r.remaining), (4_000, 4_000, Some(60_000)));
}

/// RULES.md §9: the server's clock is authoritative; an action out of order, back in time or
/// after the flag is refused and changes nothing (STYLE habit 4).
#[test]
fn refused_operations_leave_the_clock_unchanged() {
    let mut clock = Clock::new(tc("60"));
    assert_eq!(clock.press(0), Err(ClockError::NotStarted));
    assert_eq!(clock.stop(0), Err(ClockError::NotStarted));
    assert_eq!(clock.resume(0), Err(ClockError::NotStarted));
    clock.start(White, 1_000).unwrap();
    assert_eq!(clock.start(Black, 1_000), Err(ClockError::AlreadyStarted { color: White }));
    assert_eq!(clock.resume(1_000), Err(ClockError::Running { color: White }));
    assert_eq!(clock.press(999), Err(ClockError::TimeWentBackwards { since: 1_000, now: 999 }));
    assert_eq!(
        clock.stop(61_001),
        Err(ClockError::Flagged { color: White, deadline: 61_000, now: 61_001 })
    );
    let before = clock.clone();
    clock.stop(2_000).unwrap();
    assert_eq!(clock.press(3_000), Err(ClockError::Paused { color: White }));
    assert_eq!(clock.stop(3_000), Err(ClockError::Paused { color: White }));
    assert_eq!(clock.start(White, 3_000), Err(ClockError::AlreadyStarted { color: White }));
    clock.resume(2_000).unwrap();
    // A stop and a resume in the same millisecond change no reading.
    assert_eq!(clock.flag_deadline(White), before.flag_deadline(White));
    assert_eq!(clock.remaining(White, 30_000), before.remaining(White, 30_000));
}

/// A stored state rebuilds a clock that behaves identically (ARCHITECTURE.md: a restart
/// loses nothing), running or paused.
#[test]
fn snapshot_and_restore_mid_game() {
    let control = "3/10:5+1";
    let mut time = FakeTime::at(7);
    let mut clock = started(control, time.now);
    for i in 0..9u64 {
        clock.press(time.advance(300 * i + 1)).unwrap();
    }
    clock.stop(time.advance(250)).unwrap();
    let state: ClockState = clock.state();
    assert_eq!(state.active, Some(Black));
    assert_eq!(state.move_elapsed, 250);
    assert_eq!(state.running_since, None);
    let mut restored = Clock::from_state(tc(control), state).unwrap();
    assert_eq!(restored, clock);
    for c in [&mut clock, &mut restored] {
        c.resume(time.now + 1_000).unwrap();
    }
    time.advance(1_000);
    let running = Clock::from_state(tc(control), clock.state()).unwrap();
    assert_eq!(running.flag_deadline(Black), clock.flag_deadline(Black));
    for i in 0..6 {
        let now = time.advance(100 + i);
        assert_eq!(restored.press(now), clock.press(now));
    }
    assert_eq!(restored.state(), clock.state());
}

/// RULES.md §10: `[%clk]` shows the mover's time after the move, rounded down.
#[test]
fn report_feeds_the_pgn_clock_comment() {
    let mut clock = started("5400+30", 0);
    let r = clock.press(1_500).unwrap();
    assert_eq!(format_clock(r.remaining.unwrap() / 1000 * 1000), "1:30:28");
}

// ---------------------------------------------------------------------------------------
// Property tests: RULES.md §9 "millisecond arithmetic with no drift".

/// One action between presses.
#[derive(Clone, Debug)]
enum Op {
    /// The side on move presses: `pick` 0 = exactly at the deadline, 1 = one ms late (refused,
    /// then pressed at the deadline), otherwise `per_mille` of the time left. An optional
    /// pause at `pause` per mille of the move, lasting `gap` ms.
    Move { pick: u8, per_mille: u16, pause: Option<(u16, u32)> },
    /// Time added to one side between moves (FIDE 7.5.5).
    Add { white: bool, ms: u32 },
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        8 => (0u8..8, 0u16..=1000, proptest::option::of((0u16..=1000, 0u32..100_000)))
            .prop_map(|(pick, per_mille, pause)| Op::Move { pick, per_mille, pause }),
        1 => (any::<bool>(), 0u32..200_000).prop_map(|(white, ms)| Op::Add { white, ms }),
    ]
}

fn control() -> impl Strategy<Value = String> {
    let secs = |max: u64| (0..=max).prop_map(|ms| format!("{}.{:03}", ms / 1000, ms % 1000));
    prop_oneof![
        (1u64..=600_000).prop_map(|ms| format!("{}.{:03}", ms / 1000, ms % 1000)),
        (secs(300_000), secs(10_000), 0..3usize)
            .prop_map(|(base, bonus, kind)| { format!("{base}{}{bonus}", ["+", "d", "b"][kind]) }),
        (1u32..6, secs(60_000), secs(60_000), secs(3_000), 0..3usize).prop_map(
            |(moves, first, second, bonus, kind)| {
                format!("{moves}/{first}:{second}{}{bonus}", ["+", "d", "b"][kind])
            }
        ),
        (1u32..4, 1u32..4, secs(30_000), secs(30_000))
            .prop_map(|(m1, m2, t1, t2)| { format!("{m1}/{t1}+0:{m2}/{t2}+1") }),
        (1u64..=600_000).prop_map(|ms| format!("*{}.{:03}", ms / 1000, ms % 1000)),
        (1u32..3).prop_map(|days| format!("{days}d")),
    ]
    .prop_filter("a valid control", |text| text.parse::<TimeControl>().is_ok())
}

/// Time `color` can still use on its move at `now`: the display plus any simple delay left.
fn time_left(clock: &Clock, color: Color, now: u64) -> u64 {
    clock.remaining(color, now).unwrap() + clock.delay_remaining(color, now).unwrap_or(0)
}

/// What a move earns, computed from the control alone (a model independent of the clock).
/// `left` is what the mover had at the start of the move.
fn expected_bonus(control: &TimeControl, period: u32, left: u64, report: &MoveReport) -> u64 {
    let periods = control.periods();
    if periods.is_empty() {
        // Correspondence: back up to the allowance; sandclock: nothing.
        return match control.spec() {
            TimeControlSpec::Correspondence { days } => {
                let after_move = left - report.spent;
                after_move.max(u64::from(*days) * MS_PER_DAY) - after_move
            }
            _ => 0,
        };
    }
    let p = periods[(period as usize).min(periods.len() - 1)];
    let next = periods[(period as usize + 1).min(periods.len() - 1)];
    let expected_period_added = if report.period > period { next.base_ms } else { 0 };
    assert_eq!(report.period_added, expected_period_added);
    match p.bonus {
        Bonus::None => 0,
        Bonus::Increment(ms) => ms,
        Bonus::SimpleDelay(ms) | Bonus::Bronstein(ms) => ms.min(report.spent),
    }
}

/// Per side: initial + everything added, and everything spent (RULES.md §9 accounting).
#[derive(Default)]
struct Ledger {
    credit: u64,
    spent: u64,
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// No press at or before the deadline is ever refused and none after it is accepted; the
    /// deadline is exactly what the display promised; remaining time never underflows; and
    /// spent + remaining = initial + all additions, to the millisecond, for both sides.
    #[test]
    fn presses_never_flag_early_and_time_is_conserved(
        text in control(),
        ops in proptest::collection::vec(op(), 1..60),
        start in 0u64..1_000_000_000,
    ) {
        let control = tc(&text);
        let mut clock = Clock::new(control.clone());
        let mut ledger = [Ledger::default(), Ledger::default()];
        ledger[0].credit = clock.remaining(White, start).unwrap();
        ledger[1].credit = clock.remaining(Black, start).unwrap();
        let mut now = start;
        clock.start(White, now).unwrap();
        for op in ops {
            let color = clock.running().unwrap();
            match op {
                Op::Add { white, ms } => {
                    let side = if white { White } else { Black };
                    let before = clock.flag_deadline(color).unwrap();
                    clock.add_time(side, u64::from(ms));
                    ledger[side.index()].credit += u64::from(ms);
                    let shift = if side == color { u64::from(ms) } else { 0 };
                    prop_assert_eq!(clock.flag_deadline(color), Some(before + shift));
                }
                Op::Move { pick, per_mille, pause } => {
                    let left = time_left(&clock, color, now);
                    prop_assert_eq!(clock.flag_deadline(color), Some(now + left));
                    prop_assert_eq!(clock.flagged(now + left), None);
                    prop_assert_eq!(clock.flagged(now + left + 1), Some(color));
                    let total = match pick {
                        0 | 1 => left,
                        _ => left * u64::from(per_mille) / 1000,
                    };
                    let mut to_go = total;
                    if let Some((at, gap)) = pause {
                        let before_pause = total * u64::from(at) / 1000;
                        prop_assert_eq!(clock.stop(now + before_pause), Ok(color));
                        now += before_pause + u64::from(gap);
                        prop_assert_eq!(clock.resume(now), Ok(color));
                        prop_assert_eq!(time_left(&clock, color, now), left - before_pause);
                        to_go -= before_pause;
                    }
                    if pick == 1 {
                        let before = clock.clone();
                        let late = clock.press(now + to_go + 1);
                        prop_assert!(
                            matches!(late, Err(ClockError::Flagged { color: c, .. }) if c == color),
                            "late press accepted: {:?}", late
                        );
                        prop_assert_eq!(&clock, &before);
                    }
                    now += to_go;
                    let period_before = clock.period(color);
                    let report: MoveReport = clock.press(now).unwrap();
                    prop_assert_eq!(report.color, color);
                    let bonus = expected_bonus(&control, period_before, left, &report);
                    prop_assert_eq!(report.bonus, bonus);
                    // Pauses are not charged: the move took exactly the running time.
                    prop_assert_eq!(report.spent, total);
                    let mover = &mut ledger[color.index()];
                    mover.spent += total;
                    mover.credit += report.bonus + report.period_added;
                    ledger[(!color).index()].credit += report.opponent_added;
                }
            }
            // Every check point falls at the start of a move, so both displays are exact.
            for side in [White, Black] {
                let l = &ledger[side.index()];
                let shown = clock.remaining(side, now).unwrap();
                prop_assert_eq!(l.spent + shown, l.credit, "{} under {}", side, text);
            }
            // Restoring from the stored state never changes anything.
            prop_assert_eq!(&Clock::from_state(control.clone(), clock.state()).unwrap(), &clock);
        }
    }

    /// Every text the writer produces reads back to the same control.
    #[test]
    fn display_round_trips(text in control()) {
        let parsed = tc(&text);
        prop_assert_eq!(tc(&parsed.to_string()), parsed);
    }

    /// The parser never panics; whatever it accepts, it writes back readably (STYLE habit 13).
    /// A rejection names part of the input.
    #[test]
    fn parser_accepts_or_names_the_problem(text in "[0-9./:+*?bd-]{0,16}") {
        match text.parse::<TimeControl>() {
            Ok(parsed) => prop_assert_eq!(tc(&parsed.to_string()), parsed),
            Err(e) => {
                prop_assert_eq!(e.input(), text.as_str());
                prop_assert!(text.contains(e.offending()));
                let message = e.to_string();
                prop_assert!(!message.ends_with('.'));
            }
        }
    }
}

/// A server's lag allowance: the mover's clock stops `lag` before the press reaches it, the
/// opponent's starts at the press, and the gap is charged to nobody — the opponent never pays
/// for the mover's network. The stop never goes before the move began, and the flag is judged
/// at the stop: a move made in time and delivered late is in time.
#[test]
fn a_lagged_press_stops_the_mover_early_and_starts_the_opponent_on_arrival() {
    let mut time = FakeTime::at(0);
    let mut clock = started("60+0", time.now);
    let r = clock.press_after_lag(time.advance(2_000), 300).unwrap();
    assert_eq!((r.color, r.spent, r.remaining), (White, 1_700, Some(58_300)));
    assert_eq!(clock.running(), Some(Black));
    assert_eq!(
        clock.remaining(Black, time.advance(1_000)),
        Some(59_000),
        "Black's clock started on arrival"
    );
    let r = clock.press(time.now).unwrap();
    assert_eq!((r.spent, r.remaining), (1_000, Some(59_000)));

    // A credit larger than the move stops the clock where the move began, never earlier.
    let r = clock.press_after_lag(time.advance(100), 500).unwrap();
    assert_eq!((r.spent, r.remaining), (0, Some(58_300)));
    assert_eq!(clock.remaining(Black, time.now), Some(59_000));

    // Black's flag falls at 59 s past its start; a move arriving 200 ms late that left 100 ms
    // before the flag is in time, one that left after it is not.
    let start = time.now;
    let mut late = clock.clone();
    let r = clock.press_after_lag(start + 59_100, 200).unwrap();
    assert_eq!(r.remaining, Some(100));
    assert!(matches!(
        late.press_after_lag(start + 59_300, 200),
        Err(ClockError::Flagged { color: Black, .. })
    ));
    assert!(matches!(clock.press_after_lag(start, 0), Err(ClockError::TimeWentBackwards { .. })));
}
