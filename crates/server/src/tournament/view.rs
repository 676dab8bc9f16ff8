//! The tournament as JSON (docs/api.md, "Tournaments"), and its exports: TRF-2026, standings
//! as CSV and as a printable page.

use std::fmt::Write;

use rookery_tournament::competition::{EntrantId, RoundState};
use rookery_tournament::trf::{self, LineEnding, WriteOptions};
use rookery_tournament::{standings, ResultCode};
use serde_json::{json, Value};

use super::actor::Export;
use super::book::{Book, Shown, Tour};
use super::log::{bye_name, result_name};
use super::settings::{Format, Settings};
use rookery_store::TournamentStatus;
use rookery_tournament::berger::{self, Cycles};

/// One log entry as shown.
pub fn log_json(e: &Shown) -> Value {
    json!({"seq": e.seq, "at_ms": e.at_ms, "by": e.by, "action": e.kind, "detail": e.data, "reason": e.reason})
}

/// A log entry's stored detail with the players' names beside their numbers (docs/api.md,
/// `log[]`; the numbers stay, for readers written before the names): `name` beside an
/// `entrant` or an arena `player`, `a_name` and `b_name`, a pairing's `board_names` and
/// `pab_name`, an arena pairing's `names`.
pub fn with_names(book: &Book, kind: &str, mut data: Value) -> Value {
    let arena = kind.starts_with("arena_") || kind == "berserk";
    let name = |n: &Value| -> Value {
        let Some(n) = n.as_u64() else { return Value::Null };
        let name = if arena {
            (n as usize).checked_sub(1).and_then(|i| book.arena_players.get(i)).map(|p| &p.name)
        } else {
            book.comp.entrants().get(n as usize).map(|e| &e.name)
        };
        name.map_or(Value::Null, |n| json!(n))
    };
    let pairs = |v: &Value| -> Value {
        let pairs = v.as_array().into_iter().flatten();
        Value::Array(pairs.map(|p| json!([name(&p[0]), name(&p[1])])).collect())
    };
    let added = match kind {
        "withdraw" | "reinstate" | "bye" | "cancel_bye" => vec![("name", name(&data["entrant"]))],
        "forbid_pair" | "allow_pair" => {
            vec![("a_name", name(&data["a"])), ("b_name", name(&data["b"]))]
        }
        "paired" => {
            vec![("board_names", pairs(&data["boards"])), ("pab_name", name(&data["pab"]))]
        }
        "arena_leave" | "berserk" => vec![("name", name(&data["player"]))],
        "arena_pair" => vec![("names", pairs(&data["games"]))],
        _ => Vec::new(),
    };
    if let Some(d) = data.as_object_mut() {
        for (key, value) in added.into_iter().filter(|(_, v)| !v.is_null()) {
            d.insert(key.to_owned(), value);
        }
    }
    data
}

impl Tour {
    fn name_of(&self, e: EntrantId) -> &str {
        &self.book.comp.entrants()[e.0 as usize].name
    }

    /// A round as `rounds_list` shows it.
    pub fn round_json(&self, round: u32) -> Option<Value> {
        let r = self.book.comp.rounds().get((round as usize).checked_sub(1)?)?;
        let state = match r.state {
            RoundState::Paired => "paired",
            RoundState::Published => "published",
            RoundState::Finished => "finished",
        };
        let boards: Vec<Value> = r
            .boards
            .iter()
            .enumerate()
            .map(|(i, b)| {
                let board = i as u32 + 1;
                let game = (r.state != RoundState::Paired).then(|| self.board_game(round, board).to_string());
                // Started: a move was played, or a result is in (api.md, `unpair`).
                let started = b.result.is_some() || game.as_ref().is_some_and(|g| self.started.contains(g));
                json!({
                    "board": board, "white": self.name_of(b.white), "black": self.name_of(b.black),
                    "result": b.result.map(result_name), "forfeit": b.result.is_some_and(|x| !x.is_played()),
                    "game": game, "started": started,
                    "status": if r.state == RoundState::Paired { None } else if b.result.is_some() { Some("finished") } else { Some("live") },
                })
            })
            .collect();
        let mut absent: Vec<Value> = self
            .book
            .comp
            .requested_byes()
            .iter()
            .filter(|((r, _), _)| *r == round)
            .map(|((_, e), k)| json!({"player": self.name_of(*e), "kind": bye_name(*k)}))
            .collect();
        for (i, e) in self.book.comp.entrants().iter().enumerate() {
            if e.withdrawn_from.is_some_and(|w| w <= round) && e.first_round <= round {
                let id = EntrantId(i as u32);
                let paired = r.boards.iter().any(|b| b.white == id || b.black == id);
                if !paired {
                    absent.push(json!({"player": e.name, "kind": "zero"}));
                }
            }
        }
        Some(json!({
            "round": round, "state": state, "bye": r.pab.map(|p| self.name_of(p)),
            "absent": absent, "boards": boards,
        }))
    }

    /// The answer to a join: the player's entry as `players[]` shows it, without building
    /// the whole view (`score` as it stands, `rank` not computed).
    pub fn entry_json(&self, name: &str) -> Value {
        let key = name.to_lowercase();
        if self.settings.format == Format::Arena {
            let Some(p) = self.book.arena_players.iter().find(|p| p.key == key) else {
                return Value::Null;
            };
            return json!({"name": p.name, "tpn": null, "rating": p.rating, "withdrawn": !p.active,
                "first_round": null, "byes": []});
        }
        let comp = &self.book.comp;
        let Some(id) = comp.find(&key) else { return Value::Null };
        let e = &comp.entrants()[id.0 as usize];
        json!({
            "name": e.name, "tpn": comp.tpn(id).get(), "rating": e.rating,
            "withdrawn": e.withdrawn_from.is_some(), "first_round": e.first_round,
            "byes": comp.requested_byes().iter().filter(|((_, x), _)| *x == id)
                .map(|((r, _), k)| json!({"round": r, "kind": bye_name(*k)})).collect::<Vec<_>>(),
        })
    }

    /// The `clock` socket message.
    pub fn clock_message(&self) -> Value {
        let arena = self.book.arena.as_ref().map(|a| *a.settings());
        json!({
            "t": "clock", "status": self.book.status.as_str(),
            "round": (self.settings.format != Format::Arena).then(|| self.book.comp.rounds().len()),
            "starts_at_ms": self.book.started_at.or(self.settings.starts_at_ms),
            "ends_at_ms": arena.map(|a| a.ends_at()),
            "pairing_closes_at_ms": arena.map(|a| a.pairing_closes_at()),
            "server_ms": crate::state::now_ms(),
        })
    }

    fn rounds_done(&self) -> u32 {
        self.book.comp.rounds().iter().take_while(|r| r.state == RoundState::Finished).count()
            as u32
    }

    /// `rounds`: a Swiss's, a round robin's for its players, none for an arena.
    fn rounds(&self) -> Option<u32> {
        (self.settings.format != Format::Arena).then(|| self.book.comp.total_rounds())
    }

    /// The counts the list shows: players entered, rounds paired (an arena: games paired).
    pub fn counts(&self) -> (u32, u32) {
        if self.settings.format == Format::Arena {
            (self.book.arena_players.len() as u32, self.arena_games_paired())
        } else {
            (self.book.comp.entrants().len() as u32, self.book.comp.rounds().len() as u32)
        }
    }

    fn arena_games_paired(&self) -> u32 {
        self.book.arena.as_ref().map_or(0, |a| {
            let mut n = 0;
            while a.game(rookery_tournament::arena::GameId(n + 1)).is_some() {
                n += 1;
            }
            n
        })
    }

    /// The summary of `GET /api/v1/tournaments`.
    pub fn summary(&self) -> Value {
        let (players, round) = self.counts();
        let creator = self.names.get(&self.row.created_by.0).map(String::as_str);
        summary_of(&self.row.id, &self.settings, self.book.status, creator, players, round)
    }

    fn standings_json(&self) -> (Value, Value) {
        let t = self.book.comp.to_tournament();
        let order = self.book.comp.pairing_order();
        let list = self.settings.tiebreak_list();
        let table = standings(&t, self.rounds_done(), &list, self.settings.regulations());
        // A player's card shows the C.07 performance rating (10.2) whatever the tie-breaks;
        // before a round is finished there is none (and entries come in by the thousand).
        let tpr = rookery_tournament::Tiebreak::PerformanceRating;
        let perf = (self.rounds_done() > 0)
            .then(|| standings(&t, self.rounds_done(), &[tpr], self.settings.regulations()));
        let rows: Vec<Value> = table
            .rows
            .iter()
            .map(|row| {
                let e = order[row.player.index()];
                json!({
                    "rank": row.rank, "name": self.name_of(e), "tpn": row.player.get(),
                    "score": row.score.to_string(),
                    "tiebreaks": row.values.iter().map(|v| v.to_string()).collect::<Vec<_>>(),
                    "performance": perf.as_ref().and_then(|p| p.value(row.player, tpr)).and_then(|v| v.to_f64()).map(|p| p.round() as i64),
                })
            })
            .collect();
        let standings = json!({"tiebreaks": self.settings.tiebreaks, "rows": rows});
        let cross: Vec<Value> = t
            .players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let cells: Vec<String> = (1..=self.book.comp.rounds().len() as u32)
                    .map(|r| p.round(r).map(cell).unwrap_or_default())
                    .collect();
                json!({
                    "tpn": i + 1, "name": p.name, "rating": p.rating,
                    "score": table.rows.iter().find(|row| row.player.index() == i).map(|row| row.score.to_string()),
                    "rounds": cells,
                })
            })
            .collect();
        (standings, Value::Array(cross))
    }

    fn arena_json(&self) -> (Value, Value) {
        let Some(arena) = &self.book.arena else {
            return (json!({"tiebreaks": [], "rows": []}), Value::Null);
        };
        let name =
            |p: rookery_tournament::PlayerId| self.book.arena_players[p.index()].name.clone();
        let rows: Vec<Value> = arena
            .standings()
            .iter()
            .map(|s| {
                json!({"rank": s.rank, "name": name(s.player), "score": s.score.to_string(),
                    "performance": s.performance, "on_fire": s.on_fire, "active": s.active,
                    "sheet": s.sheet.to_string()})
            })
            .collect();
        let mut games = Vec::new();
        let mut n = 1;
        let mut playing = 0;
        while let Some((g, status)) = arena.game(rookery_tournament::arena::GameId(n)) {
            let result = match status {
                rookery_tournament::arena::GameStatus::Playing => {
                    playing += 1;
                    None
                }
                rookery_tournament::arena::GameStatus::Finished { winner, .. } => {
                    Some(match winner {
                        Some(rookery_core::Color::White) => "1-0",
                        Some(rookery_core::Color::Black) => "0-1",
                        None => "1/2-1/2",
                    })
                }
            };
            games.push(json!({"game": self.arena_game(n).as_str(), "white": name(g.white), "black": name(g.black),
                "result": result, "berserk": {"white": arena.is_berserk(g.id, g.white), "black": arena.is_berserk(g.id, g.black)}}));
            n += 1;
        }
        (json!({"tiebreaks": [], "rows": rows}), json!({"games": games, "now_playing": playing}))
    }

    /// Each arena player's card, by player number: `{"score":"11","games":3,"streak":3,
    /// "on_fire":true,"berserks":3,"berserk_points":3,"performance":1890,"sheet":"3+ 3+ 5*+"}`
    /// (`streak`: the wins running at the end of the sheet).
    fn arena_cards(&self) -> Vec<Value> {
        let Some(arena) = &self.book.arena else { return Vec::new() };
        let mut cards = vec![Value::Null; self.book.arena_players.len()];
        for s in arena.standings() {
            let entries = &s.sheet.0;
            let streak = entries
                .iter()
                .rev()
                .take_while(|e| e.outcome == rookery_tournament::Outcome::Win)
                .count();
            if let Some(card) = cards.get_mut(s.player.index()) {
                *card = json!({
                    "score": s.score.to_string(), "games": entries.len(), "streak": streak,
                    "on_fire": s.on_fire,
                    "berserks": entries.iter().filter(|e| e.berserk).count(),
                    "berserk_points": entries.iter().filter(|e| e.berserk_bonus).count(),
                    "performance": s.performance, "sheet": s.sheet.to_string(),
                });
            }
        }
        cards
    }

    /// `GET /api/v1/tournaments/{id}`.
    pub fn view(&self) -> Value {
        let s = &self.settings;
        let mut v = self.summary();
        let arena = self.book.arena.as_ref().map(|a| *a.settings());
        v["seq"] = json!(self.log.len());
        v["round_state"] = json!(self.book.comp.rounds().last().map(|r| match r.state {
            RoundState::Paired => "paired",
            RoundState::Published => "published",
            RoundState::Finished => "finished",
        }));
        v["settings"] = json!({
            "rules": s.rules, "time_control": s.time_control, "rated": s.rated, "rounds": self.rounds(),
            "starts_at_ms": s.starts_at_ms, "tiebreaks": s.tiebreaks, "regulations": s.regulations.to_string(),
            "forfeit_s": s.forfeit_s, "max_byes": s.max_byes, "late_join_until": s.late_join_until,
            "berserk": (s.format == Format::Arena).then_some(s.berserk),
            "streaks": (s.format == Format::Arena).then_some(s.streaks),
            "duration_s": s.duration_s, "ends_at_ms": arena.map(|a| a.ends_at()),
            "pairing_closes_at_ms": arena.map(|a| a.pairing_closes_at()),
        });
        if s.format == Format::Arena {
            let (standings, games) = self.arena_json();
            let scores: std::collections::HashMap<String, String> = standings["rows"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|r| {
                    (
                        r["name"].as_str().unwrap_or("").to_owned(),
                        r["score"].as_str().unwrap_or("0").to_owned(),
                    )
                })
                .collect();
            let cards = self.arena_cards();
            v["players"] = json!(self.book.arena_players.iter().enumerate().map(|(i, p)| json!({
                "name": p.name, "tpn": null, "rating": p.rating, "score": scores.get(&p.name).cloned().unwrap_or_else(|| "0".into()),
                "withdrawn": !p.active, "first_round": null, "byes": [],
                "arena": cards.get(i).cloned().unwrap_or(Value::Null),
            })).collect::<Vec<_>>());
            v["players_count"] = json!(self.book.arena_players.len());
            v["forbidden_pairs"] = json!([]);
            v["rounds_list"] = json!([]);
            v["standings"] = standings;
            v["crosstable"] = json!([]);
            v["arena"] = games;
            v["round"] = json!(self.arena_games_paired());
        } else {
            let (standings, cross) = self.standings_json();
            let scores: std::collections::HashMap<String, String> = cross
                .as_array()
                .into_iter()
                .flatten()
                .map(|r| {
                    (
                        r["name"].as_str().unwrap_or("").to_owned(),
                        r["score"].as_str().unwrap_or("0.0").to_owned(),
                    )
                })
                .collect();
            let comp = &self.book.comp;
            // Pairing numbers from one sort (`tpn` per player sorts each time).
            let mut tpn = vec![0u32; comp.entrants().len()];
            for (i, e) in comp.pairing_order().iter().enumerate() {
                tpn[e.0 as usize] = i as u32 + 1;
            }
            v["players"] = json!(comp.entrants().iter().enumerate().map(|(i, e)| {
                let id = EntrantId(i as u32);
                json!({
                    "name": e.name, "tpn": tpn[i], "rating": e.rating,
                    "score": scores.get(&e.name).cloned().unwrap_or_else(|| "0.0".into()),
                    "withdrawn": e.withdrawn_from.is_some(), "first_round": e.first_round,
                    "byes": comp.requested_byes().iter().filter(|((_, x), _)| *x == id)
                        .map(|((r, _), k)| json!({"round": r, "kind": bye_name(*k)})).collect::<Vec<_>>(),
                    "arena": null,
                })
            }).collect::<Vec<_>>());
            v["forbidden_pairs"] = json!(comp
                .forbidden_pairs()
                .iter()
                .map(|&(a, b)| [self.name_of(a), self.name_of(b)])
                .collect::<Vec<_>>());
            v["rounds_list"] = json!((1..=comp.rounds().len() as u32)
                .filter_map(|r| self.round_json(r))
                .collect::<Vec<_>>());
            v["standings"] = standings;
            v["crosstable"] = cross;
            v["arena"] = Value::Null;
        }
        v["log"] = json!(self.log.iter().map(log_json).collect::<Vec<_>>());
        v
    }

    /// The exports as text.
    pub fn export(&self, export: Export) -> String {
        match export {
            Export::Trf { lf } => {
                let mut t = self.book.comp.to_tournament();
                t.name = Some(self.settings.name.clone());
                t.time_control = Some(self.settings.time_control.clone());
                let ending = if lf { LineEnding::Lf } else { LineEnding::Cr };
                trf::write_with(&t, WriteOptions { line_ending: ending })
                    .unwrap_or_else(|e| format!("error: {e}"))
            }
            Export::Games => {
                let mut ids = Vec::new();
                for (i, r) in self.book.comp.rounds().iter().enumerate() {
                    if r.state == RoundState::Paired {
                        continue;
                    }
                    for b in 0..r.boards.len() {
                        ids.push(self.board_game(i as u32 + 1, b as u32 + 1).to_string());
                    }
                }
                if let Some(a) = &self.book.arena {
                    let mut n = 1;
                    while a.game(rookery_tournament::arena::GameId(n)).is_some() {
                        ids.push(self.arena_game(n).to_string());
                        n += 1;
                    }
                }
                ids.join("\n")
            }
            Export::Csv => {
                let v = self.view();
                let mut out = String::from("rank,name,tpn,rating,score");
                for code in self.settings.tiebreaks.iter() {
                    let _ = write!(out, ",{code}");
                }
                out.push('\n');
                let rating = |name: &str| {
                    v["players"]
                        .as_array()
                        .into_iter()
                        .flatten()
                        .find(|p| p["name"] == name)
                        .and_then(|p| p["rating"].as_u64())
                };
                for row in v["standings"]["rows"].as_array().into_iter().flatten() {
                    let name = row["name"].as_str().unwrap_or("");
                    let _ = write!(
                        out,
                        "{},{},{},{},{}",
                        row["rank"],
                        csv(name),
                        row["tpn"].as_u64().map(|t| t.to_string()).unwrap_or_default(),
                        rating(name).map(|r| r.to_string()).unwrap_or_default(),
                        row["score"].as_str().unwrap_or("")
                    );
                    for t in row["tiebreaks"].as_array().into_iter().flatten() {
                        let _ = write!(out, ",{}", t.as_str().unwrap_or(""));
                    }
                    out.push('\n');
                }
                out
            }
            Export::Html => {
                let v = self.view();
                let mut out = format!(
                    "<!doctype html><html><head><meta charset=\"utf-8\"><title>{0}</title>\
                     <style>body{{font-family:sans-serif}}table{{border-collapse:collapse}}td,th{{border:1px solid #999;padding:2px 6px}}@media print{{a{{color:black}}}}</style>\
                     </head><body><h1>{0}</h1><p>{1}, {2}, {3}</p><h2>Standings</h2><table><tr><th>Rk</th><th>Name</th><th>Pts</th>",
                    html(&self.settings.name), self.settings.format.as_str(), html(&tc_label(&self.settings.time_control)), self.book.status.as_str()
                );
                for code in &self.settings.tiebreaks {
                    let _ = write!(out, "<th>{}</th>", html(code));
                }
                out.push_str("</tr>");
                for row in v["standings"]["rows"].as_array().into_iter().flatten() {
                    let _ = write!(
                        out,
                        "<tr><td>{}</td><td>{}</td><td>{}</td>",
                        row["rank"],
                        html(row["name"].as_str().unwrap_or("")),
                        row["score"].as_str().unwrap_or("")
                    );
                    for t in row["tiebreaks"].as_array().into_iter().flatten() {
                        let _ = write!(out, "<td>{}</td>", t.as_str().unwrap_or(""));
                    }
                    out.push_str("</tr>");
                }
                out.push_str("</table><h2>Crosstable</h2><table><tr><th>No</th><th>Name</th>");
                for r in 1..=self.book.comp.rounds().len() {
                    let _ = write!(out, "<th>{r}</th>");
                }
                out.push_str("<th>Pts</th></tr>");
                for row in v["crosstable"].as_array().into_iter().flatten() {
                    let _ = write!(
                        out,
                        "<tr><td>{}</td><td>{}</td>",
                        row["tpn"],
                        html(row["name"].as_str().unwrap_or(""))
                    );
                    for c in row["rounds"].as_array().into_iter().flatten() {
                        let _ = write!(out, "<td>{}</td>", html(c.as_str().unwrap_or("")));
                    }
                    let _ = write!(out, "<td>{}</td></tr>", row["score"].as_str().unwrap_or(""));
                }
                out.push_str("</table></body></html>\n");
                out
            }
        }
    }
}

/// The summary's fields (docs/api.md, *Summary*) from the settings and the counts: the same
/// for a tournament's actor and for the list, which reads them from the store.
pub fn summary_of(
    id: &str,
    s: &Settings,
    status: TournamentStatus,
    created_by: Option<&str>,
    players: u32,
    round: u32,
) -> Value {
    let rounds = match s.format {
        Format::Swiss => s.rounds,
        Format::RoundRobin => berger::rounds(players.max(2), Cycles::Single).ok(),
        Format::DoubleRoundRobin => berger::rounds(players.max(2), Cycles::Double).ok(),
        Format::Arena => None,
    };
    json!({
        "id": id, "name": s.name, "format": s.format.as_str(), "rules": s.rules,
        "time_control": s.time_control, "speed": s.time_control().speed().name(), "rated": s.rated,
        "rounds": rounds, "status": status.as_str(),
        "starts_at_ms": s.starts_at_ms, "created_by": created_by,
        "players": players, "round": round,
        "conditions": {"account": true, "min_level": s.min_level, "max_level": s.max_level, "password": s.password.is_some()},
    })
}

/// chess-results' crosstable cell: opponent's number, colour, result.
fn cell(e: &rookery_tournament::RoundEntry) -> String {
    let result = match e.result {
        ResultCode::Win | ResultCode::UnratedWin => "1",
        ResultCode::Draw | ResultCode::UnratedDraw | ResultCode::HalfPointBye => "½",
        ResultCode::Loss | ResultCode::UnratedLoss => "0",
        ResultCode::ForfeitWin | ResultCode::FullPointBye | ResultCode::PairingAllocatedBye => "+",
        ResultCode::ForfeitLoss | ResultCode::ZeroPointBye => "-",
    };
    match (e.opponent, e.colour) {
        (Some(o), Some(c)) => {
            let c = if c == rookery_core::Color::White { "w" } else { "b" };
            format!("{}{c}{result}", o.get())
        }
        _ => result.to_owned(),
    }
}

fn csv(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// A time control as the site's pages write it (web/js `tcLabel`): minutes and the increment
/// or delay in seconds, `180` as `3+0`, `300d5` as `5d5`, `90+30` as `1.5+30`, `30+0` as
/// `30s+0`; other controls (several periods, days a move) as they are.
fn tc_label(tc: &str) -> String {
    let minutes = |seconds: &str| -> Option<String> {
        let s: f64 = seconds.parse().ok()?;
        let min = s / 60.0;
        Some(if min.fract() == 0.0 {
            format!("{min}")
        } else if min < 1.0 {
            format!("{seconds}s")
        } else {
            format!("{min:.1}")
        })
    };
    let simple = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    if simple(tc) {
        return minutes(tc).map_or_else(|| tc.to_owned(), |m| format!("{m}+0"));
    }
    if let Some(at) = tc.find(['+', 'd', 'b']) {
        let (base, rest) = tc.split_at(at);
        if simple(base) && simple(&rest[1..]) {
            if let Some(m) = minutes(base) {
                return format!("{m}{rest}");
            }
        }
    }
    tc.to_owned()
}

fn html(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use rookery_tournament::competition::Action;

    use super::*;

    /// Issue 51: the printable standings said "180" where the pages say "3+0".
    #[test]
    fn time_controls_read_as_the_pages_write_them() {
        let cases = [
            ("180", "3+0"),
            ("300+3", "5+3"),
            ("90+30", "1.5+30"),
            ("30", "30s+0"),
            ("300d5", "5d5"),
            ("600b2", "10b2"),
            ("40/5400:1800+30", "40/5400:1800+30"),
            ("3d", "3d"),
            ("-", "-"),
        ];
        for (tc, label) in cases {
            assert_eq!(tc_label(tc), label, "{tc}");
        }
    }

    /// Issue 51: the audit log named players only by entrant number (`{"entrant":1}`).
    #[test]
    fn log_details_name_the_players_beside_their_numbers() {
        let settings: Settings = serde_json::from_value(json!({
            "name": "Club", "format": "swiss", "rounds": 5, "duration_s": null,
            "time_control": "600+5", "rules": "seed", "rated": false, "starts_at_ms": null,
            "tiebreaks": ["BH"], "regulations": 2026, "forfeit_s": 60, "max_byes": 1,
            "late_join_until": 1, "min_level": null, "max_level": null, "password": null,
            "berserk": false, "streaks": false, "seed": 0
        }))
        .unwrap();
        let mut book = Book::new(&settings);
        for name in ["ann", "bob", "cat"] {
            let join =
                Action::Join { key: name.into(), name: name.into(), rating: None, title: None };
            book.comp.apply(&join).unwrap();
        }
        let cases = [
            (
                "withdraw",
                json!({"entrant":1,"round":3}),
                json!({"entrant":1,"round":3,"name":"bob"}),
            ),
            (
                "forbid_pair",
                json!({"a":0,"b":2}),
                json!({"a":0,"b":2,"a_name":"ann","b_name":"cat"}),
            ),
            (
                "paired",
                json!({"round":1,"boards":[[2,0]],"pab":1}),
                json!({"round":1,"boards":[[2,0]],"pab":1,"board_names":[["cat","ann"]],"pab_name":"bob"}),
            ),
            (
                "paired",
                json!({"round":1,"boards":[],"pab":null}),
                json!({"round":1,"boards":[],"pab":null,"board_names":[]}),
            ),
            (
                "result",
                json!({"round":1,"board":1,"result":"1-0"}),
                json!({"round":1,"board":1,"result":"1-0"}),
            ),
        ];
        for (kind, stored, shown) in cases {
            assert_eq!(with_names(&book, kind, stored), shown, "{kind}");
        }
    }
}
