//! Properties of the TRF reader and writer: any input is read or refused, never a panic;
//! whatever is read writes back and reads as itself; and tournaments with every kind of
//! record (point systems, accelerations, bans, byes, `299`, header text) survive the round
//! trip. The fuzz target `trf` checks the first two on unbounded inputs.

mod trf_support;

use std::path::Path;

use proptest::prelude::*;
use rookery_tournament::generator::{generate, GeneratorConfig};
use rookery_tournament::{
    trf, AbnormalPoints, Acceleration, AnnouncedBye, ByeKind, ForbiddenPairs, PlayerId,
    Regulations, ResultCode, Score, Scoring, Tournament,
};

/// Generated tournaments small and varied: one-sided and double forfeits, half-point byes,
/// absences, many PABs, 4 to 64 players.
const GENERATED: [&str; 16] = [
    "rtg-000001",
    "rtg-000012",
    "rtg-000072",
    "rtg-000113",
    "rtg-000139",
    "rtg-000206",
    "rtg-000224",
    "rtg-000259",
    "rtg-000269",
    "rtg-000296",
    "rtg-000303",
    "rtg-000353",
    "rtg-000379",
    "rtg-000382",
    "rtg-000385",
    "rtg-000396",
];

/// The sample files, as text.
fn samples() -> Vec<String> {
    let data = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut texts: Vec<String> = GENERATED
        .iter()
        .map(|name| {
            std::fs::read_to_string(data.join("dutch-rtg").join(format!("{name}.trf"))).unwrap()
        })
        .collect();
    let root = data.join("trf");
    for dir in ["itdx", "bad"] {
        let mut paths: Vec<_> =
            std::fs::read_dir(root.join(dir)).unwrap().map(|e| e.unwrap().path()).collect();
        paths.sort();
        for path in paths {
            if let Ok(text) = std::fs::read_to_string(&path) {
                texts.push(text);
            }
        }
    }
    texts
}

/// Whatever the reader accepts, the writer writes and the reader reads back the same; and
/// the questions a pairing engine asks are answered for every round.
fn assert_round_trip(t: &Tournament, input: &str) {
    let text = trf::write(t).unwrap_or_else(|e| panic!("{e}\n{input:?}"));
    let again = trf::read(&text).unwrap_or_else(|e| panic!("{e}\n{input:?}\n{text:?}"));
    assert_eq!(&again, t, "{input:?}");
    let played = t.rounds_played();
    for round in 1..=played + 1 {
        let byes = t.announced_byes(round);
        let before = t.before_round(round);
        assert!(before.rounds_played() < round);
        assert_eq!(before.announced_byes(round), byes, "{input:?}");
    }
    let _ = t.inferred_initial_colour();
}

#[derive(Clone, Debug)]
enum Edit {
    Replace(char),
    Insert(char),
    Delete,
    DuplicateLine,
    DeleteLine,
    /// Records may come in any order.
    SwapWithNextLine,
    /// Lines may end in CR, LF or CRLF.
    LineEnd(&'static str),
}

fn edit() -> impl Strategy<Value = Edit> {
    let c = prop::sample::select("0123456789 wb-+=.HFUZWDLXAP,\r\nézq".chars().collect::<Vec<_>>());
    prop_oneof![
        4 => c.clone().prop_map(Edit::Replace),
        2 => c.prop_map(Edit::Insert),
        2 => Just(Edit::Delete),
        1 => Just(Edit::DuplicateLine),
        1 => Just(Edit::DeleteLine),
        3 => Just(Edit::SwapWithNextLine),
        2 => prop::sample::select(vec!["\r", "\n", "\r\n"]).prop_map(Edit::LineEnd),
    ]
}

fn apply(text: &str, edits: &[(prop::sample::Index, Edit)]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for (at, edit) in edits {
        if chars.is_empty() {
            break;
        }
        let i = at.index(chars.len());
        let line_start =
            chars[..i].iter().rposition(|&c| c == '\r' || c == '\n').map_or(0, |p| p + 1);
        let line_end = chars[i..]
            .iter()
            .position(|&c| c == '\r' || c == '\n')
            .map_or(chars.len(), |p| i + p + 1);
        match edit {
            Edit::Replace(c) => chars[i] = *c,
            Edit::Insert(c) => chars.insert(i, *c),
            Edit::Delete => {
                chars.remove(i);
            }
            Edit::DuplicateLine => {
                let line: Vec<char> = chars[line_start..line_end].to_vec();
                chars.splice(line_end..line_end, line);
            }
            Edit::DeleteLine => {
                chars.drain(line_start..line_end);
            }
            Edit::SwapWithNextLine => {
                let next_end = chars[line_end..]
                    .iter()
                    .position(|&c| c == '\r' || c == '\n')
                    .map_or(chars.len(), |p| line_end + p + 1);
                let line: Vec<char> = chars.drain(line_start..line_end).collect();
                let at = next_end - line.len();
                chars.splice(at..at, line);
            }
            Edit::LineEnd(ending) => {
                if line_end > line_start && matches!(chars[line_end - 1], '\r' | '\n') {
                    chars.splice(line_end - 1..line_end, ending.chars());
                }
            }
        }
    }
    chars.into_iter().collect()
}

/// Lines that look like TRF records, to get past the record codes.
fn record_line() -> impl Strategy<Value = String> {
    let code = prop::sample::select(vec![
        "001", "012", "142", "152", "162", "202", "240", "250", "260", "299", "XXR", "XXC", "XXS",
        "XXA", "XXP", "XXZ", "BBW", "BBU", "###", "132", "ITA",
    ]);
    (code, "[0-9 wb+=.HFUZWDLAPX-]{0,110}").prop_map(|(code, rest)| format!("{code} {rest}"))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn any_bytes_are_read_or_refused(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        if let Ok(t) = trf::read_bytes(&bytes) {
            assert_round_trip(&t, &String::from_utf8_lossy(&bytes));
        }
    }

    #[test]
    fn record_like_lines_are_read_or_refused(lines in prop::collection::vec(record_line(), 0..10)) {
        let text = lines.join("\r");
        if let Ok(t) = trf::read(&text) {
            assert_round_trip(&t, &text);
        }
    }

    #[test]
    fn mutated_files_are_read_or_refused(
        file in any::<prop::sample::Index>(),
        edits in prop::collection::vec((any::<prop::sample::Index>(), edit()), 1..4),
    ) {
        let samples = samples();
        let text = apply(&samples[file.index(samples.len())], &edits);
        if let Ok(t) = trf::read(&text) {
            assert_round_trip(&t, &text);
        }
    }

    #[test]
    fn tournaments_with_every_record_round_trip(
        seed in any::<u64>(),
        players in 1u32..24,
        rounds in 1u32..8,
        extras in any::<u64>(),
    ) {
        let config: GeneratorConfig = format!("PlayersNumber={players}\nRoundsNumber={rounds}").parse().unwrap();
        let mut t = generate(&config, seed, trf_support::by_score).unwrap();
        decorate(&mut t, extras);
        assert_round_trip(&t, &format!("seed {seed}, extras {extras}"));
    }
}

/// SplitMix64, for the test's own choices.
struct Dice(u64);

impl Dice {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        (z ^ (z >> 31)) % n
    }

    fn points(&mut self, max: u64) -> Score {
        Score::from_tenths(self.next(max + 1) as u32)
    }

    fn text(&mut self, max: u64) -> String {
        let letters: Vec<char> = "abcXYZ ,.'-éß0123".chars().collect();
        let len = 1 + self.next(max) as usize;
        let s: String =
            (0..len).map(|_| letters[self.next(letters.len() as u64) as usize]).collect();
        s.trim().to_owned()
    }
}

/// Adds every kind of record the generator does not make, in the form the reader gives it
/// (one acceleration per player, bans without round 1 or 999, non-empty trimmed text), and
/// the declared points that go with it.
fn decorate(t: &mut Tournament, extras: u64) {
    let mut dice = Dice(extras);
    let n = t.players.len() as u64;
    let rounds = t.rounds.unwrap();
    let id = |i: u64| PlayerId::new(i as u32 + 1).unwrap();
    if dice.next(2) == 0 {
        t.scoring = Scoring {
            win: dice.points(30),
            draw: dice.points(20),
            loss: dice.points(5),
            forfeit_win: dice.points(30),
            forfeit_loss: dice.points(5),
            half_point_bye: dice.points(20),
            full_point_bye: dice.points(30),
            pairing_allocated_bye: dice.points(30),
            zero_point_bye: dice.points(5),
        };
        if dice.next(2) == 0 {
            // The shape `162` can say.
            let s = &mut t.scoring;
            (s.forfeit_win, s.full_point_bye, s.half_point_bye, s.forfeit_loss) =
                (s.win, s.win, s.draw, s.zero_point_bye);
        }
    }
    let mut accelerated: Vec<u64> = (0..dice.next(4)).map(|_| dice.next(n)).collect();
    accelerated.sort_unstable();
    accelerated.dedup();
    for i in accelerated {
        let mut points: Vec<Score> =
            (0..=dice.next(u64::from(rounds))).map(|_| dice.points(20)).collect();
        points.push(Score::from_tenths(1 + dice.next(20) as u32));
        t.accelerations.push(Acceleration { player: id(i), points });
    }
    if n >= 2 {
        for _ in 0..dice.next(3) {
            let mut players: Vec<PlayerId> =
                (0..2 + dice.next(3)).map(|_| id(dice.next(n))).collect();
            players.dedup();
            if players.len() < 2 {
                continue;
            }
            let first_round = Some(2 + dice.next(5) as u32).filter(|_| dice.next(2) == 0);
            let last_round =
                Some(first_round.unwrap_or(1) + dice.next(5) as u32).filter(|_| dice.next(2) == 0);
            t.forbidden_pairs.push(ForbiddenPairs { players, first_round, last_round });
        }
    }
    for _ in 0..dice.next(4) {
        let kind = [ByeKind::Half, ByeKind::Full, ByeKind::Zero][dice.next(3) as usize];
        let round = rounds + 1 + dice.next(3) as u32;
        let player = id(dice.next(n));
        if !t.byes.iter().any(|b| (b.player, b.round) == (player, round)) {
            t.byes.push(AnnouncedBye { player, round, kind });
        }
    }
    for _ in 0..dice.next(3) {
        let codes = [
            None,
            Some(ResultCode::Win),
            Some(ResultCode::Draw),
            Some(ResultCode::ForfeitWin),
            Some(ResultCode::HalfPointBye),
        ];
        t.abnormal_points.push(AbnormalPoints {
            result: codes[dice.next(5) as usize],
            points: dice.next(30) as i32,
            round: Some(1 + dice.next(u64::from(rounds)) as u32).filter(|_| dice.next(2) == 0),
            players: (0..1 + dice.next(3)).map(|_| id(dice.next(n))).collect(),
        });
    }
    t.tie_breaks = (0..dice.next(4))
        .map(|_| dice.text(6).replace([',', ' '], ""))
        .filter(|c| !c.is_empty())
        .collect();
    t.tie_break_regulations =
        [None, Some(Regulations::C07_2024), Some(Regulations::C07_2026)][dice.next(3) as usize];
    t.city = Some(dice.text(20)).filter(|s| !s.is_empty());
    t.chief_arbiter = Some(dice.text(30)).filter(|s| !s.is_empty());
    t.other_lines
        .push(("###".to_owned(), format!("  comment {}", dice.text(10)).trim_end().to_owned()));
    for player in &mut t.players {
        player.name = dice.text(33);
        player.title = Some(dice.text(3)).filter(|s| !s.is_empty());
        player.fide_id = Some(dice.next(100_000_000_000)).filter(|_| dice.next(2) == 0);
        player.sex = ['m', 'w', 'f'].get(dice.next(4) as usize).copied();
    }
    let played = t.rounds_played();
    for i in 0..t.players.len() {
        let score = t.adjusted_score_after(PlayerId::from_index(i), played);
        t.players[i].points = Score::from_tenths(score.clamp(0, 999) as u32);
    }
}
