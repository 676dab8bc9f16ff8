//! Team events at the board (issue 54; RULES.md §12, *Teams*) on a real server over a real
//! SQLite file: teams registered at the desk and from a list with a team column, line-ups
//! entered by captains and at the desk, rounds paired by the team Swiss (C.04.6) or the
//! Berger tables, board results typed at the desk (`match`, `board`), team standings and the
//! board prize table; all of it the same after a restart.

mod common;

use std::collections::HashSet;

use common::tournament::{arbiter, create};
use common::{game_made, until, Client, TestServer};
use reqwest::StatusCode;
use serde_json::{json, Value};

/// The status, the error's code and its field.
async fn refused(
    c: &Client,
    path: &str,
    body: Value,
) -> (StatusCode, Option<String>, Option<String>) {
    let (status, e) = c.post(path, body).await;
    let text = |v: &Value| v.as_str().map(str::to_owned);
    (status, text(&e["error"]["code"]), text(&e["error"]["field"]))
}

/// The result the test gives a board, from its round, match and board (varied, so that
/// scores spread, some matches are drawn, and the Swiss has work to do).
fn scripted(round: u64, number: u64, board: u64) -> &'static str {
    ["1-0", "0-1", "1/2-1/2", "0-1", "1-0", "1/2-1/2", "1-0"]
        [((round * 5 + number * 3 + board) % 7) as usize]
}

/// A team's roster: four board players and one reserve, rated from `top` down.
fn roster(team: &str, top: u64) -> Vec<Value> {
    (1..=5).map(|i| json!({"name":format!("{team} {i}"),"rating":top - 20 * i})).collect()
}

/// Teams A to D at the desk, each the first `players` of its roster, rated from 2000 down.
async fn four_teams(td: &Client, id: &str, players: usize) {
    for (team, top) in [("A", 2000), ("B", 1900), ("C", 1800), ("D", 1700)] {
        let players: Vec<Value> = roster(team, top).into_iter().take(players).collect();
        arbiter(td, id, json!({"action":"team","name":team,"players":players})).await;
    }
}

fn points(text: &str) -> f64 {
    text.parse().unwrap()
}

/// Issue 54: a team Swiss of six teams of four boards played at the board to the end.
#[tokio::test]
async fn a_team_swiss_of_six_teams_at_the_board_is_played_to_the_end() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let (td, id) = create(
        &server,
        json!({"name":"School League","format":"team_swiss","rounds":5,
            "time_control":"3600+30","over_the_board":true,"boards":4,"reserves":1}),
    )
    .await;
    let path = |p: &str| format!("/api/v1/tournaments/{id}/{p}");
    // Two captains with accounts, and someone who is not one.
    let (cap, other) = (Client::new(&server).await, Client::new(&server).await);
    cap.signup("lions_captain").await;
    other.signup("stranger").await;

    // Three teams from a list with a team column (the list's order is the board order).
    let mut csv = String::from("name,rating,team\n");
    for (team, top) in [("Eagles", 2000), ("Owls", 1900), ("Hawks", 1800)] {
        for p in roster(team, top) {
            csv += &format!("{},{},{team}\n", p["name"].as_str().unwrap(), p["rating"]);
        }
    }
    let (status, v) = td.post(&path("roster"), json!({"text":csv})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // Three at the desk, one with its captain.
    arbiter(
        &td,
        &id,
        json!({"action":"team","name":"Lions","players":roster("Lions", 2100),
            "captain":"lions_captain"}),
    )
    .await;
    arbiter(&td, &id, json!({"action":"team","name":"Bears","players":roster("Bears", 1700)}))
        .await;
    let v = arbiter(
        &td,
        &id,
        json!({"action":"team","name":"Wolves","players":roster("Wolves", 1600)}),
    )
    .await;
    assert_eq!(v["teams"]["teams"].as_array().unwrap().len(), 6, "{v}");
    assert_eq!(v["players"].as_array().unwrap().len(), 0, "teams, not players");

    // Refusals before the start, each naming its field.
    let team_refusals = [
        (
            json!({"action":"team","name":"eagles","players":roster("X", 1500)}),
            "duplicate_name",
            None,
        ),
        (
            json!({"action":"team","name":"Foxes","players":["Owls 1","F2","F3","F4"]}),
            "bad_field",
            Some("players"),
        ),
        (
            json!({"action":"team","name":"Foxes","players":["F1","F2","F3"]}),
            "bad_field",
            Some("players"),
        ),
        (
            json!({"action":"team","name":"Foxes","players":["F1","F2","F3","F4","F5","F6"]}),
            "bad_field",
            Some("players"),
        ),
        (
            json!({"action":"team","name":"Foxes","players":["F1","F2","F3","F4"],
                "captain":"nobody_here"}),
            "bad_field",
            Some("account"),
        ),
        (json!({"action":"guest","name":"Solo"}), "wrong_format", None),
        (json!({"action":"publish","round":1}), "wrong_format", None),
        (
            json!({"action":"line_up","round":1,"team":"Lions",
                "players":["Lions 1","Lions 2","Lions 3","Lions 5"]}),
            "not_running",
            None,
        ),
    ];
    for (body, code, field) in team_refusals {
        let (status, c, f) = refused(&td, &path("arbiter"), body.clone()).await;
        assert_eq!((c.as_deref(), f.as_deref()), (Some(code), field), "{body} -> {status}");
    }
    let (status, c, _) = refused(&other, &path("join"), json!({})).await;
    assert_eq!((status, c.as_deref()), (StatusCode::CONFLICT, Some("wrong_format")));

    // The start puts the teams in their initial order (by rating) and pairs round 1.
    let v = arbiter(&td, &id, json!({"action":"start"})).await;
    let names: Vec<&str> = v["teams"]["teams"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Lions", "Eagles", "Owls", "Hawks", "Bears", "Wolves"]);
    assert_eq!(v["teams"]["teams"][0]["captain"], "lions_captain");
    assert_eq!(v["teams"]["teams"][0]["players"][4]["reserve"], true);
    assert_eq!(v["rounds"], 5);
    let r1 = &v["teams"]["rounds"][0];
    assert_eq!(r1["matches"].as_array().unwrap().len(), 3, "{r1}");
    // C.04.6 round 1: the top half against the bottom half, 1-4, 2-5, 3-6 in some colours.
    let m1 = &r1["matches"][0];
    let lions_white = m1["white"] == "Lions";
    assert!(lions_white || m1["black"] == "Lions", "{m1}");
    // Colours alternate by board: the first team has White on boards 1 and 3.
    let firsts: Vec<&str> = m1["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["first_team"].as_str().unwrap())
        .collect();
    assert_eq!(firsts, ["white", "black", "white", "black"]);

    // Line-ups: the Lions' captain fields the reserve on board 4; the order is kept.
    let lions_r1 =
        json!({"round":1,"team":"Lions","players":["Lions 1","Lions 2","Lions 3","Lions 5"]});
    let (status, c, f) = refused(
        &cap,
        &path("line_up"),
        json!({"round":1,"team":"Lions","players":["Lions 2","Lions 1","Lions 3","Lions 4"]}),
    )
    .await;
    assert_eq!(
        (status, c.as_deref(), f.as_deref()),
        (StatusCode::BAD_REQUEST, Some("bad_field"), Some("players"))
    );
    let (status, e) = cap
        .post(
            &path("line_up"),
            json!({"round":1,"team":"Lions","players":["Lions 2","Lions 1","Lions 3","Lions 4"]}),
        )
        .await;
    assert!(e["error"]["message"].as_str().unwrap().contains("board 2"), "{status} {e}");
    let (status, c, _) = refused(&other, &path("line_up"), lions_r1.clone()).await;
    assert_eq!((status, c.as_deref()), (StatusCode::FORBIDDEN, Some("forbidden")));
    let (status, v) = cap.post(&path("line_up"), lions_r1.clone()).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let lions_board_4 = {
        let b = &v["teams"]["rounds"][0]["matches"][0]["boards"][3];
        // Board 4: the first team has Black.
        if lions_white {
            b["black"].clone()
        } else {
            b["white"].clone()
        }
    };
    assert_eq!(lions_board_4, "Lions 5");
    // At the desk: the Wolves' reserve on board 1 is refused (it breaks the board order).
    let wolves = json!({"action":"line_up","round":1,"team":"Wolves",
        "players":["Wolves 5","Wolves 1","Wolves 2","Wolves 3"]});
    let (_, c, f) = refused(&td, &path("arbiter"), wolves).await;
    assert_eq!((c.as_deref(), f.as_deref()), (Some("bad_field"), Some("players")));
    arbiter(
        &td,
        &id,
        json!({"action":"line_up","round":1,"team":"Wolves",
            "players":["Wolves 1","Wolves 2","Wolves 4","Wolves 5"]}),
    )
    .await;

    // Every round, every board typed at the desk; the refusals of a result on the way.
    let mut met = HashSet::new();
    for round in 1..=5u64 {
        let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
        let matches =
            v["teams"]["rounds"][round as usize - 1]["matches"].as_array().unwrap().clone();
        assert_eq!(matches.len(), 3, "round {round}");
        for m in &matches {
            let pair = [m["white"].as_str().unwrap(), m["black"].as_str().unwrap()];
            let key = if pair[0] < pair[1] {
                (pair[0].to_owned(), pair[1].to_owned())
            } else {
                (pair[1].to_owned(), pair[0].to_owned())
            };
            assert!(met.insert(key.clone()), "round {round}: {key:?} meet twice");
        }
        for (n, _) in matches.iter().enumerate() {
            let number = n as u64 + 1;
            for board in 1..=4u64 {
                let body = json!({"action":"enter","round":round,"match":number,"board":board,
                    "result":scripted(round, number, board)});
                arbiter(&td, &id, body.clone()).await;
                if round == 1 && number == 1 && board == 1 {
                    // Twice: refused; a correction is a `result` with its reason.
                    let (_, c, _) = refused(&td, &path("arbiter"), body).await;
                    assert_eq!(c.as_deref(), Some("has_result"));
                    // The match has begun: its line-ups are fixed.
                    let (status, c, _) = refused(&cap, &path("line_up"), lions_r1.clone()).await;
                    assert_eq!((status, c.as_deref()), (StatusCode::CONFLICT, Some("too_late")));
                    // The round is not finished: no pairing yet.
                    let (_, c, _) = refused(&td, &path("arbiter"), json!({"action":"pair"})).await;
                    assert_eq!(c.as_deref(), Some("round_not_finished"));
                }
            }
        }
        if round == 1 {
            for bad in [
                json!({"action":"enter","round":1,"match":4,"board":1,"result":"1-0"}),
                json!({"action":"enter","round":1,"match":1,"board":5,"result":"1-0"}),
                json!({"action":"enter","round":2,"match":1,"board":1,"result":"1-0"}),
            ] {
                let (status, c, _) = refused(&td, &path("arbiter"), bad.clone()).await;
                assert_eq!(
                    (status, c.as_deref()),
                    (StatusCode::CONFLICT, Some("no_board")),
                    "{bad}"
                );
            }
            let (_, c, f) = refused(
                &td,
                &path("arbiter"),
                json!({"action":"result","round":1,"match":1,"board":1,"result":"1-0"}),
            )
            .await;
            assert_eq!((c.as_deref(), f.as_deref()), (Some("bad_field"), Some("reason")));
            // A correction with its reason: the board's result is replaced.
            let v = arbiter(
                &td,
                &id,
                json!({"action":"result","round":1,"match":1,"board":1,"result":"1/2-1/2",
                    "reason":"the scoresheets agree on a draw"}),
            )
            .await;
            assert_eq!(v["teams"]["rounds"][0]["matches"][0]["boards"][0]["result"], "1/2-1/2");
        }
        if round < 5 {
            arbiter(&td, &id, json!({"action":"pair"})).await;
        }
    }
    let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!(v["status"], "finished", "the last board ends the event");
    let (status, c, _) = refused(&td, &path("arbiter"), json!({"action":"pair"})).await;
    assert_eq!((status, c.as_deref()), (StatusCode::CONFLICT, Some("not_running")));

    // The standings: every match gives 2 match points between its teams, every board 1 game
    // point; ranked by match points, then the tie-breaks (GP, DE, SB, BH by default).
    let standings = &v["teams"]["standings"];
    assert_eq!(standings["tiebreaks"], json!(["GP", "DE", "SB", "BH"]));
    let rows = standings["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 6);
    let mp: f64 = rows.iter().map(|r| points(r["match_points"].as_str().unwrap())).sum();
    let gp: f64 = rows.iter().map(|r| points(r["game_points"].as_str().unwrap())).sum();
    assert_eq!((mp, gp), (30.0, 60.0), "{standings}");
    for pair in rows.windows(2) {
        let (a, b) = (
            points(pair[0]["match_points"].as_str().unwrap()),
            points(pair[1]["match_points"].as_str().unwrap()),
        );
        assert!(a >= b, "{standings}");
    }
    // Each match's match points follow its game points.
    for round in v["teams"]["rounds"].as_array().unwrap() {
        assert_eq!(round["finished"], true);
        for m in round["matches"].as_array().unwrap() {
            let (w, b) =
                (points(m["score"][0].as_str().unwrap()), points(m["score"][1].as_str().unwrap()));
            assert_eq!(w + b, 4.0, "{m}");
            let expected = if w > b {
                ["2.0", "0.0"]
            } else if w < b {
                ["0.0", "2.0"]
            } else {
                ["1.0", "1.0"]
            };
            assert_eq!(m["match_points"], json!(expected), "{m}");
        }
    }
    // The board prize table: four boards; the Lions' reserve played board 4 in round 1.
    let prizes = v["teams"]["board_prizes"].as_array().unwrap();
    assert_eq!(prizes.len(), 4);
    let board_4: Vec<&str> =
        prizes[3].as_array().unwrap().iter().map(|r| r["name"].as_str().unwrap()).collect();
    assert!(board_4.contains(&"Lions 5") && board_4.contains(&"Lions 4"), "{board_4:?}");
    let games: u64 = prizes
        .iter()
        .flat_map(|b| b.as_array().unwrap())
        .map(|r| r["games"].as_u64().unwrap())
        .sum();
    assert_eq!(games, 2 * 4 * 3 * 5, "every game played counts for its two players");
    let kinds: Vec<&str> =
        v["log"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(kinds.iter().filter(|k| **k == "team_result").count(), 61, "60 and a correction");
    assert_eq!(kinds.iter().filter(|k| **k == "team_paired").count(), 5);
    assert_eq!(kinds.iter().filter(|k| **k == "line_up").count(), 2);
    server.stop().await;

    // After a restart the log replays to the same teams, matches, standings and prizes.
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let td2 = Client::new(&server).await;
    let (_, after) = td2.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!(after["teams"], v["teams"]);
    assert_eq!(after["status"], "finished");
    server.stop().await;
}

/// Issue 54: a team round robin of four teams on game points, played to the end; a restart
/// in the middle loses nothing.
#[tokio::test]
async fn a_team_round_robin_on_game_points_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let (td, id) = create(
        &server,
        json!({"name":"Club Cup","format":"team_round_robin","time_control":"1800+10",
            "over_the_board":true,"boards":2,"reserves":0,"primary":"game_points"}),
    )
    .await;
    four_teams(&td, &id, 2).await;
    let v = arbiter(&td, &id, json!({"action":"start"})).await;
    assert_eq!(v["rounds"], 3);
    assert_eq!(v["teams"]["standings"]["tiebreaks"], json!(["MP", "DE", "SB", "BH"]));
    // Berger round 1 of four: 1-4, 2-3.
    let m: Vec<(&str, &str)> = v["teams"]["rounds"][0]["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["white"].as_str().unwrap(), m["black"].as_str().unwrap()))
        .collect();
    assert_eq!(m, [("A", "D"), ("B", "C")]);
    let mut before = Value::Null;
    for round in 1..=3u64 {
        for number in 1..=2u64 {
            for board in 1..=2u64 {
                arbiter(
                    &td,
                    &id,
                    json!({"action":"enter","round":round,"match":number,"board":board,
                        "result":scripted(round, number, board)}),
                )
                .await;
            }
        }
        if round == 2 {
            let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
            before = v;
            break;
        }
        arbiter(&td, &id, json!({"action":"pair"})).await;
    }
    server.stop().await;
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let td = {
        let c = Client::new(&server).await;
        let account = json!({"username":"arbiter","password":"correct horse battery"});
        assert_eq!(c.post("/api/v1/account/login", account).await.0, StatusCode::OK);
        c
    };
    let (_, after) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!(after["teams"], before["teams"]);
    arbiter(&td, &id, json!({"action":"pair"})).await;
    for number in 1..=2u64 {
        for board in 1..=2u64 {
            arbiter(
                &td,
                &id,
                json!({"action":"enter","round":3,"match":number,"board":board,
                    "result":scripted(3, number, board)}),
            )
            .await;
        }
    }
    let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!(v["status"], "finished");
    // Game points rank: the rows' game points never rise down the table.
    let rows = v["teams"]["standings"]["rows"].as_array().unwrap();
    let gp: Vec<f64> = rows.iter().map(|r| points(r["game_points"].as_str().unwrap())).collect();
    assert!(gp.windows(2).all(|w| w[0] >= w[1]), "{gp:?}");
    assert_eq!(gp.iter().sum::<f64>(), 12.0);
    server.stop().await;
}

/// Issue 54: every export of a finished team round robin of four teams at the board says
/// what an organiser and a rating officer of a team event expect: the TRF with each player's
/// games and the teams (`013`), the team standings and the board prizes as CSV, the games'
/// PGN with the teams, the match list, scoresheets and standings printed in both languages.
#[tokio::test]
async fn a_finished_team_event_exports_its_teams_games_and_standings() {
    let server = TestServer::start().await;
    let (td, id) = create(
        &server,
        json!({"name":"County Cup","format":"team_round_robin","time_control":"5400+30",
            "over_the_board":true,"boards":2,"reserves":1}),
    )
    .await;
    let path = |p: &str| format!("/api/v1/tournaments/{id}/{p}");
    four_teams(&td, &id, 3).await;
    arbiter(&td, &id, json!({"action":"start"})).await;
    // Round 1, match 2, board 2 is lost by forfeit: no game, but a result.
    let result = |round: u64, number: u64, board: u64| {
        if (round, number, board) == (1, 2, 2) {
            "+-"
        } else {
            scripted(round, number, board)
        }
    };
    for round in 1..=3u64 {
        if round > 1 {
            arbiter(&td, &id, json!({"action":"pair"})).await;
        }
        for number in 1..=2u64 {
            for board in 1..=2u64 {
                let r = result(round, number, board);
                let body = json!({"action":"enter","round":round,"match":number,"board":board,
                    "result":r});
                arbiter(&td, &id, body).await;
            }
        }
    }
    let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!(v["status"], "finished", "{v}");
    let rows = v["teams"]["standings"]["rows"].as_array().unwrap().clone();

    // TRF-2026: read back by our own reader; four teams of three, each player's games.
    let (status, trf) = td.get_text(&path("trf")).await;
    assert_eq!(status, StatusCode::OK, "{trf}");
    let t = rookery_tournament::trf::read(&trf).unwrap_or_else(|e| panic!("{e}\n{trf}"));
    let teams: Vec<(&str, usize)> =
        t.teams.iter().map(|team| (team.name.as_str(), team.players.len())).collect();
    assert_eq!(teams, [("A", 3), ("B", 3), ("C", 3), ("D", 3)], "{trf}");
    assert_eq!(t.players.len(), 12);
    // The board players have a game a round, the reserves none; the forfeit is `+`/`-`.
    let games = |n: usize| t.players[n].rounds.iter().filter(|e| e.opponent.is_some()).count();
    assert_eq!((0..12).map(games).collect::<Vec<_>>(), [3, 3, 0, 3, 3, 0, 3, 3, 0, 3, 3, 0]);
    let mut forfeits: Vec<char> = t
        .players
        .iter()
        .map(|p| p.rounds[0].result.to_char())
        .filter(|c| matches!(c, '+' | '-'))
        .collect();
    forfeits.sort();
    assert_eq!(forfeits, ['+', '-'], "one forfeit win, one forfeit loss: {trf}");
    assert!(trf.contains("092 Team: Round-Robin"), "{trf}");

    // The team standings, a line a team in rank order, the tie-breaks as the view's.
    let (status, csv) = td.get_text(&path("standings.csv")).await;
    assert_eq!(status, StatusCode::OK);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines[0], "rank,team,match_points,game_points,GP,DE,SB,BH");
    assert_eq!(lines.len(), 5, "{csv}");
    for (line, row) in lines[1..].iter().zip(&rows) {
        let mut expected = vec![
            row["rank"].to_string(),
            row["team"].as_str().unwrap().to_owned(),
            row["match_points"].as_str().unwrap().to_owned(),
            row["game_points"].as_str().unwrap().to_owned(),
        ];
        expected.extend(
            row["tiebreaks"].as_array().unwrap().iter().map(|t| t.as_str().unwrap().to_owned()),
        );
        assert_eq!(*line, expected.join(","));
    }
    // The board prizes: two boards of four players each, the forfeit not a game.
    let (status, prizes) = td.get_text(&path("board-prizes.csv")).await;
    assert_eq!(status, StatusCode::OK);
    let lines: Vec<&str> = prizes.lines().collect();
    assert_eq!(lines[0], "board,player,team,points,games,percent,eligible");
    assert_eq!(lines.iter().filter(|l| l.starts_with("1,")).count(), 4, "{prizes}");
    assert_eq!(lines.iter().filter(|l| l.starts_with("2,")).count(), 4, "{prizes}");
    let games: u32 =
        lines[1..].iter().map(|l| l.split(',').nth(4).unwrap().parse::<u32>().unwrap()).sum();
    assert_eq!(games, 2 * 11, "11 games played, two players each: {prizes}");

    // The PGN: the 11 games played, each with its teams and board.
    let (status, pgn) = td.get_text(&path("pgn")).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(pgn.matches("[Event \"County Cup\"]").count(), 11, "{pgn}");
    assert_eq!(pgn.matches("[WhiteTeam ").count(), 11, "{pgn}");
    assert!(pgn.contains("[Round \"1.1\"]\n[White \"A 1\"]\n[Black \"D 1\"]"), "{pgn}");
    assert!(pgn.contains("[WhiteTeam \"A\"]\n[BlackTeam \"D\"]\n[Board \"1\"]"), "{pgn}");

    // The documents.
    let (status, page) = td.get_text(&path("print/pairings?round=1&lang=zh")).await;
    assert_eq!(status, StatusCode::OK, "{page}");
    for words in ["团体对阵表", "1. A – D", "2. B – C", "<td class=\"n\">2.2</td>", "+-"] {
        assert!(page.contains(words), "{words}: {page}");
    }
    let (_, page) = td.get_text(&path("print/scoresheets?round=3")).await;
    assert_eq!(page.matches("<div class=\"sheet\">").count(), 4, "{page}");
    let (_, page) = td.get_text(&path("print/standings?lang=zh")).await;
    let first = rows[0]["team"].as_str().unwrap();
    for words in ["成绩排名", "交叉表", "场分", &format!("<td>{first}</td>")] {
        assert!(page.contains(words), "{words}: {page}");
    }
    let (_, html) = td.get_text(&path("standings.html")).await;
    assert!(html.contains("<h2>Crosstable</h2>") && html.contains("<th>Team</th>"), "{html}");
    let (status, v) = td.get(&path("print/wall-chart")).await;
    assert_eq!((status, v["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("wrong_format")));
    server.stop().await;
}

/// Issue 54: a team that does not turn up. The desk marks it absent: its match of the round
/// is lost by forfeit on every board (match points 0–2, game points 0–2), and the Swiss does
/// not pair it until the desk marks it present again.
#[tokio::test]
async fn an_absent_team_forfeits_its_match_and_is_not_paired() {
    let server = TestServer::start().await;
    let (td, id) = create(
        &server,
        json!({"name":"Absences","format":"team_swiss","rounds":3,"time_control":"3600+30",
            "over_the_board":true,"boards":2,"reserves":0}),
    )
    .await;
    four_teams(&td, &id, 2).await;
    arbiter(&td, &id, json!({"action":"start"})).await;
    let (_, c, f) = refused(
        &td,
        &format!("/api/v1/tournaments/{id}/arbiter"),
        json!({"action":"team_absent","team":"Nobody"}),
    )
    .await;
    assert_eq!((c.as_deref(), f.as_deref()), (Some("bad_field"), Some("team")));
    let v = arbiter(&td, &id, json!({"action":"team_absent","team":"D"})).await;
    assert_eq!(v["teams"]["absent"], json!(["D"]), "{}", v["teams"]);
    let matches = v["teams"]["rounds"][0]["matches"].as_array().unwrap().clone();
    let with_d = |m: &&Value| m["white"] == "D" || m["black"] == "D";
    let forfeited = matches.iter().find(with_d).unwrap();
    let d_white = forfeited["white"] == "D";
    // D loses every board by forfeit, whichever colour it has there.
    let results: Vec<&str> = forfeited["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["result"].as_str().unwrap())
        .collect();
    assert_eq!(results, if d_white { ["-+", "+-"] } else { ["+-", "-+"] }, "{forfeited}");
    let expected = if d_white { ["0.0", "2.0"] } else { ["2.0", "0.0"] };
    assert_eq!(forfeited["match_points"], json!(expected));
    assert_eq!(forfeited["score"], json!(if d_white { ["0.0", "2.0"] } else { ["2.0", "0.0"] }));
    // The other match is played; round 2 pairs three teams: a match and a bye, D left out.
    let other = matches.iter().position(|m| !with_d(&m)).unwrap() as u64 + 1;
    for board in 1..=2u64 {
        arbiter(
            &td,
            &id,
            json!({"action":"enter","round":1,"match":other,"board":board,"result":"1/2-1/2"}),
        )
        .await;
    }
    let v = arbiter(&td, &id, json!({"action":"pair"})).await;
    let round = &v["teams"]["rounds"][1];
    assert_eq!(round["matches"].as_array().unwrap().len(), 1, "{round}");
    assert!(round["bye"].is_string() && round["bye"] != "D", "{round}");
    assert!(!round["matches"].as_array().unwrap().iter().any(|m| with_d(&m)), "{round}");
    // Present again: paired in round 3.
    let v = arbiter(&td, &id, json!({"action":"team_absent","team":"D","absent":false})).await;
    assert!(v["teams"].get("absent").is_none(), "{}", v["teams"]);
    for board in 1..=2u64 {
        arbiter(
            &td,
            &id,
            json!({"action":"enter","round":2,"match":1,"board":board,"result":"1-0"}),
        )
        .await;
    }
    let v = arbiter(&td, &id, json!({"action":"pair"})).await;
    let round = &v["teams"]["rounds"][2];
    assert_eq!(round["matches"].as_array().unwrap().len(), 2, "{round}");
    let kinds: Vec<&str> =
        v["log"].as_array().unwrap().iter().filter_map(|e| e["action"].as_str()).collect();
    assert_eq!(kinds.iter().filter(|k| **k == "team_absent").count(), 2, "{kinds:?}");
    server.stop().await;
}

/// Issue 54: a team event's settings are checked field by field.
#[tokio::test]
async fn team_settings_are_refused_naming_the_field() {
    let server = TestServer::start().await;
    let (td, _) = create(
        &server,
        json!({"name":"L","format":"team_swiss","rounds":3,"time_control":"600+5",
            "over_the_board":true}),
    )
    .await;
    let base = json!({"name":"L","format":"team_swiss","rounds":3,"time_control":"600+5",
        "over_the_board":true});
    let with = |extra: Value| {
        let mut b = base.clone();
        b.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        b
    };
    let cases = [
        // Online a board is a game of the site, rated as the event says; at the board not yet.
        (with(json!({"boards":0})), "boards"),
        (with(json!({"boards":21})), "boards"),
        (with(json!({"reserves":-1})), "reserves"),
        (with(json!({"primary":"board_points"})), "primary"),
        (with(json!({"tiebreaks":["BH-C1"]})), "tiebreaks"),
        (with(json!({"rated":true})), "rated"),
        (with(json!({"pairing_system":"burstein"})), "pairing_system"),
        (
            json!({"name":"L","format":"team_swiss","time_control":"600+5","over_the_board":true}),
            "rounds",
        ),
        (
            json!({"name":"S","format":"swiss","rounds":3,"time_control":"600+5","boards":4}),
            "boards",
        ),
        (
            json!({"name":"S","format":"team_round_robin","rounds":3,"time_control":"600+5","over_the_board":true}),
            "rounds",
        ),
    ];
    for (body, field) in cases {
        let (status, e) = td.post("/api/v1/tournaments", body.clone()).await;
        assert_eq!(
            (status, e["error"]["field"].as_str()),
            (StatusCode::BAD_REQUEST, Some(field)),
            "{body} -> {e}"
        );
    }
    // A list without a team column is refused for a team event.
    let (_, t) = td.post("/api/v1/tournaments", base.clone()).await;
    let id = t["id"].as_str().unwrap();
    let (status, e) =
        td.post(&format!("/api/v1/tournaments/{id}/roster"), json!({"text":"name\nLi\n"})).await;
    assert_eq!(
        (status, e["error"]["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("text")),
        "{e}"
    );
    // One team is not an event.
    arbiter(&td, id, json!({"action":"team","name":"Only","players":["a","b","c","d"]})).await;
    let (status, c, _) =
        refused(&td, &format!("/api/v1/tournaments/{id}/arbiter"), json!({"action":"start"})).await;
    assert_eq!((status, c.as_deref()), (StatusCode::CONFLICT, Some("too_few_players")));
    server.stop().await;
}

/// Issue 54, online: a team round robin of four teams of two boards played on the site. Each
/// board of each match is a live game between the line-ups' players (accounts) at the event's
/// clock, created at the pairing (no line-up deadline); a captain's line-up for the next round
/// fields the reserve; each game's end is its board's result and the matches roll up; the
/// desk's `enter` is refused (the games report themselves) and a line-up for a round on is
/// too late.
#[tokio::test]
async fn an_online_team_round_robin_plays_each_board_as_a_game_of_the_site() {
    let server = TestServer::start().await;
    let (td, id) = create(
        &server,
        json!({"name":"Web League","format":"team_round_robin","time_control":"600+5",
            "boards":2,"reserves":1}),
    )
    .await;
    let path = |p: &str| format!("/api/v1/tournaments/{id}/{p}");
    let teams = ["north", "south", "east", "west"];
    let mut players = std::collections::HashMap::new();
    for team in teams {
        for i in 1..=3 {
            let c = Client::new(&server).await;
            let name = format!("{team}{i}");
            c.signup(&name).await;
            players.insert(name, c);
        }
    }
    let cap = Client::new(&server).await;
    cap.signup("north_captain").await;
    // A roster's player must be an account.
    let (status, c, f) = refused(
        &td,
        &path("arbiter"),
        json!({"action":"team","name":"Ghosts","players":["nobody1","nobody2"]}),
    )
    .await;
    assert_eq!(
        (status, c.as_deref(), f.as_deref()),
        (StatusCode::BAD_REQUEST, Some("bad_field"), Some("players"))
    );
    for team in teams {
        let roster: Vec<String> = (1..=3).map(|i| format!("{team}{i}")).collect();
        let mut body = json!({"action":"team","name":team,"players":roster});
        if team == "north" {
            body["captain"] = json!("north_captain");
        }
        arbiter(&td, &id, body).await;
    }
    // The captain fields the reserve on board 2 in round 2, before it is paired.
    let (status, v) = cap
        .post(&path("line_up"), json!({"round":2,"team":"north","players":["north1","north3"]}))
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "not before the start: {v}");
    let v = arbiter(&td, &id, json!({"action":"start"})).await;
    assert!(v.get("over_the_board").is_none() || v["over_the_board"] == false);
    let (status, v) = cap
        .post(&path("line_up"), json!({"round":2,"team":"north","players":["north1","north3"]}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    // Round 1's games are on: its line-ups are fixed, and the desk enters nothing.
    let (status, c, _) = refused(
        &cap,
        &path("line_up"),
        json!({"round":1,"team":"north","players":["north1","north3"]}),
    )
    .await;
    assert_eq!((status, c.as_deref()), (StatusCode::CONFLICT, Some("too_late")));
    let (_, c, _) = refused(
        &td,
        &path("arbiter"),
        json!({"action":"enter","round":1,"match":1,"board":1,"result":"1-0"}),
    )
    .await;
    assert_eq!(c.as_deref(), Some("played_online"));
    for round in 1..=3u64 {
        let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
        let r = v["teams"]["rounds"][round as usize - 1].clone();
        for m in r["matches"].as_array().unwrap() {
            let number = m["number"].as_u64().unwrap();
            for b in m["boards"].as_array().unwrap() {
                let board = b["board"].as_u64().unwrap();
                let game = format!("{id}t{round}m{number}b{board}");
                assert_eq!(b["game"], game.as_str(), "the view names the board's game");
                let g = game_made(&td, &game).await;
                let (white, black) = (b["white"].as_str().unwrap(), b["black"].as_str().unwrap());
                assert_eq!(
                    (
                        g["white"]["name"].as_str(),
                        g["black"]["name"].as_str(),
                        g["time_control"].as_str()
                    ),
                    (Some(white), Some(black), Some("600+5")),
                    "{g}"
                );
                if round == 2 && (white == "north3" || black == "north3") {
                    assert_eq!(board, 2, "the captain's reserve plays board 2");
                }
                // White moves, Black resigns: the colours alternate by board, so each team
                // wins one board.
                let (mut ws, hello) = players[white].game_socket(&game).await;
                assert_eq!(hello["game"]["tournament"]["round"], json!(round));
                ws.play("e2e4", 0).await;
                let (mut ls, _) = players[black].game_socket(&game).await;
                ls.send(json!({"t":"resign"})).await;
                ls.next_of("end").await;
            }
        }
        let v = until(&td, &id, "the view", |v| {
            v["teams"]["rounds"][round as usize - 1]["finished"] == true
        })
        .await;
        // Every match is drawn 1-1 on game points.
        for m in v["teams"]["rounds"][round as usize - 1]["matches"].as_array().unwrap() {
            assert_eq!(m["match_points"], json!(["1.0", "1.0"]), "{m}");
        }
        if round < 3 {
            arbiter(&td, &id, json!({"action":"pair"})).await;
        }
    }
    let v = until(&td, &id, "the view", |v| v["status"] == "finished").await;
    let rows = v["teams"]["standings"]["rows"].as_array().unwrap();
    assert!(
        rows.iter().all(|r| r["match_points"] == "3.0" && r["game_points"] == "3.0"),
        "{rows:?}"
    );
    // The PGN: each board's game of the site, with its moves, named by the event.
    let (_, pgn) = td.get_text(&path("pgn")).await;
    assert_eq!(pgn.matches("[Event \"Web League\"]").count(), 12, "{pgn}");
    assert_eq!(pgn.matches("\n1. e4 ").count(), 12, "{pgn}");
    assert_eq!(pgn.matches("[GameId ").count(), 12, "the records' own tags kept: {pgn}");
    assert!(pgn.contains("[WhiteTeam \"north\"]"), "{pgn}");
    server.stop().await;
}

/// Issue 54, online: with a line-up deadline the round's games wait for it; a captain's
/// line-up entered meanwhile is the one played, and the round's line-ups are fixed after.
#[tokio::test]
async fn an_online_round_waits_for_its_line_up_deadline() {
    let server = TestServer::start().await;
    let (td, id) = create(
        &server,
        json!({"name":"Deadline","format":"team_swiss","rounds":1,"time_control":"600+5",
            "boards":1,"reserves":1,"lineup_deadline_s":2}),
    )
    .await;
    for name in ["red1", "red2", "blue1", "blue2", "red_captain"] {
        Client::new(&server).await.signup(name).await;
    }
    let cap = Client::new(&server).await;
    let login = json!({"username":"red_captain","password":"correct horse battery"});
    assert_eq!(cap.post("/api/v1/account/login", login).await.0, StatusCode::OK);
    arbiter(
        &td,
        &id,
        json!({"action":"team","name":"Red","players":["red1","red2"],"captain":"red_captain"}),
    )
    .await;
    arbiter(&td, &id, json!({"action":"team","name":"Blue","players":["blue1","blue2"]})).await;
    arbiter(&td, &id, json!({"action":"start"})).await;
    let game = format!("{id}t1m1b1");
    let (status, _) = td.get(&format!("/api/v1/games/{game}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "no game before the deadline");
    let path = format!("/api/v1/tournaments/{id}/line_up");
    let (status, v) = cap.post(&path, json!({"round":1,"team":"Red","players":["red2"]})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let g = game_made(&td, &game).await;
    let names = [g["white"]["name"].as_str(), g["black"]["name"].as_str()];
    assert!(names.contains(&Some("red2")), "the captain's reserve plays: {g}");
    let (status, c, _) =
        refused(&cap, &path, json!({"round":1,"team":"Red","players":["red1"]})).await;
    assert_eq!((status, c.as_deref()), (StatusCode::CONFLICT, Some("too_late")));
    server.stop().await;
}

/// A round's matches, each pair of teams by name in alphabetical order.
fn pairs_of(round: &Value) -> Vec<[String; 2]> {
    round["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let mut pair =
                [m["white"].as_str().unwrap().to_owned(), m["black"].as_str().unwrap().to_owned()];
            pair.sort();
            pair
        })
        .collect()
}

/// Issue 54: two teams that must not meet (one club's, one school's). The desk forbids the
/// pair before the start and the team Swiss pairs round 1 around it; a second pair forbidden
/// after the pairing, the round is unpaired and paired again around both; the refusals name
/// their field; once a board has a result the round stays. A round robin takes no forbidden
/// pair: its tables are fixed.
#[tokio::test]
async fn forbidden_team_pairs_are_kept_apart_and_a_round_is_paired_again() {
    let server = TestServer::start().await;
    let (td, id) = create(
        &server,
        json!({"name":"Clubs","format":"team_swiss","rounds":3,"time_control":"3600+30",
            "over_the_board":true,"boards":2,"reserves":0}),
    )
    .await;
    let desk = format!("/api/v1/tournaments/{id}/arbiter");
    four_teams(&td, &id, 2).await;
    // Without it C.04.6 pairs the top half against the bottom half: A–C and B–D.
    let v = arbiter(
        &td,
        &id,
        json!({"action":"forbid_team_pair","a":"c","b":"A","reason":"one club's teams"}),
    )
    .await;
    assert_eq!(v["teams"]["forbidden_pairs"], json!([["A", "C"]]), "{}", v["teams"]);
    let refusals = [
        (json!({"action":"forbid_team_pair","a":"A","b":"Nobody"}), "bad_field", Some("b")),
        (json!({"action":"forbid_team_pair","a":"Nobody","b":"A"}), "bad_field", Some("a")),
        (json!({"action":"forbid_team_pair","a":"B","b":"b"}), "bad_field", Some("b")),
        (json!({"action":"allow_team_pair","a":"B","b":"D"}), "not_forbidden", None),
        (json!({"action":"unpair","round":1}), "not_running", None),
    ];
    for (body, code, field) in refusals {
        let (status, c, f) = refused(&td, &desk, body.clone()).await;
        assert_eq!((c.as_deref(), f.as_deref()), (Some(code), field), "{body} -> {status}");
    }
    let v = arbiter(&td, &id, json!({"action":"start"})).await;
    let first = pairs_of(&v["teams"]["rounds"][0]);
    assert_eq!(first.len(), 2, "{first:?}");
    assert!(!first.contains(&["A".into(), "C".into()]), "A and C are forbidden: {first:?}");
    // One of round 1's pairs forbidden too: one pairing of four teams is left, and the
    // round, unpaired, is paired again into it.
    let [a, b] = first[0].clone();
    arbiter(&td, &id, json!({"action":"forbid_team_pair","a":a,"b":b})).await;
    let (_, c, _) = refused(&td, &desk, json!({"action":"unpair","round":2})).await;
    assert_eq!(c.as_deref(), Some("not_paired"));
    let v = arbiter(&td, &id, json!({"action":"unpair","round":1,"reason":"club pair"})).await;
    assert_eq!(v["teams"]["rounds"], json!([]), "{}", v["teams"]);
    let v = arbiter(&td, &id, json!({"action":"pair"})).await;
    let again = pairs_of(&v["teams"]["rounds"][0]);
    assert!(!again.contains(&[a.clone(), b.clone()]) && !again.contains(&["A".into(), "C".into()]));
    assert_eq!(again.len(), 2, "{again:?}");
    assert_eq!(v["teams"]["forbidden_pairs"].as_array().unwrap().len(), 2);
    let forbids: Vec<&Value> =
        v["log"].as_array().unwrap().iter().filter(|e| e["action"] == "forbid_team_pair").collect();
    assert_eq!(forbids[0]["detail"]["a_name"], "C", "{:?}", forbids[0]);
    assert_eq!(forbids[0]["reason"], "one club's teams");
    assert!(v["log"].as_array().unwrap().iter().any(|e| e["action"] == "team_unpair"));
    // A board with a result: the round is played, not paired again.
    arbiter(&td, &id, json!({"action":"enter","round":1,"match":1,"board":1,"result":"1-0"})).await;
    let (status, c, _) = refused(&td, &desk, json!({"action":"unpair","round":1})).await;
    assert_eq!((status, c.as_deref()), (StatusCode::CONFLICT, Some("round_started")));
    let v = arbiter(&td, &id, json!({"action":"allow_team_pair","a":"A","b":"C"})).await;
    assert_eq!(v["teams"]["forbidden_pairs"], json!([[a, b]]));

    let (td, robin) = create(
        &server,
        json!({"name":"Robin","format":"team_round_robin","time_control":"3600+30",
            "over_the_board":true,"boards":2,"reserves":0}),
    )
    .await;
    four_teams(&td, &robin, 2).await;
    let (status, c, _) = refused(
        &td,
        &format!("/api/v1/tournaments/{robin}/arbiter"),
        json!({"action":"forbid_team_pair","a":"A","b":"B"}),
    )
    .await;
    assert_eq!((status, c.as_deref()), (StatusCode::CONFLICT, Some("wrong_format")));
    server.stop().await;
}

/// Issue 54, online: a team that does not turn up to a round whose games are on. Marked
/// absent, its board's game ends with the forfeit; the next round is paired without it; that
/// round unpaired before a move deletes its game, and paired again (the team present again)
/// makes the games anew under the same ids; once a move is played it is not unpaired.
#[tokio::test]
async fn an_online_absent_team_forfeits_and_its_next_round_is_paired_again() {
    let server = TestServer::start().await;
    let (td, id) = create(
        &server,
        json!({"name":"Web Swiss","format":"team_swiss","rounds":3,"time_control":"600+5",
            "boards":1,"reserves":0}),
    )
    .await;
    let desk = format!("/api/v1/tournaments/{id}/arbiter");
    let teams = ["north", "south", "east", "west"];
    let mut players = std::collections::HashMap::new();
    for team in teams {
        let c = Client::new(&server).await;
        let name = format!("{team}1");
        c.signup(&name).await;
        players.insert(name.clone(), c);
        arbiter(&td, &id, json!({"action":"team","name":team,"players":[name]})).await;
    }
    let v = arbiter(&td, &id, json!({"action":"start"})).await;
    let round1 = v["teams"]["rounds"][0].clone();
    let absent = round1["matches"][1]["white"].as_str().unwrap().to_owned();
    let absent_game = format!("{id}t1m2b1");
    assert_eq!(game_made(&td, &absent_game).await["status"], "live");
    let v = arbiter(&td, &id, json!({"action":"team_absent","team":absent})).await;
    assert_eq!(v["teams"]["rounds"][0]["matches"][1]["boards"][0]["result"], "-+");
    for _ in 0..500 {
        let (_, g) = td.get(&format!("/api/v1/games/{absent_game}")).await;
        if g["status"] != "live" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(10)).await;
    }
    let (_, g) = td.get(&format!("/api/v1/games/{absent_game}")).await;
    assert_ne!(g["status"], "live", "the forfeit ends the board's game: {g}");
    // The other match is played on the site.
    let b = &round1["matches"][0]["boards"][0];
    let (white, black) = (b["white"].as_str().unwrap(), b["black"].as_str().unwrap());
    let game = format!("{id}t1m1b1");
    game_made(&td, &game).await;
    let (mut ws, _) = players[white].game_socket(&game).await;
    ws.play("e2e4", 0).await;
    let (mut ls, _) = players[black].game_socket(&game).await;
    ls.send(json!({"t":"resign"})).await;
    ls.next_of("end").await;
    until(&td, &id, "round 1 finished", |v| v["teams"]["rounds"][0]["finished"] == true).await;

    // Round 2 without the absent team: one match and a bye.
    let v = arbiter(&td, &id, json!({"action":"pair"})).await;
    let round2 = &v["teams"]["rounds"][1];
    assert_eq!(round2["matches"].as_array().unwrap().len(), 1, "{round2}");
    assert!(!pairs_of(round2)[0].contains(&absent), "{round2}");
    let game = format!("{id}t2m1b1");
    game_made(&td, &game).await;
    // It turns up after all: round 2 unpaired (its game deleted), paired again with it.
    let v = arbiter(&td, &id, json!({"action":"unpair","round":2})).await;
    assert_eq!(v["teams"]["rounds"].as_array().unwrap().len(), 1);
    let (status, _) = td.get(&format!("/api/v1/games/{game}")).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "the unpaired round's game is deleted");
    arbiter(&td, &id, json!({"action":"team_absent","team":absent,"absent":false})).await;
    let v = arbiter(&td, &id, json!({"action":"pair"})).await;
    let round2 = &v["teams"]["rounds"][1];
    assert_eq!(round2["matches"].as_array().unwrap().len(), 2, "{round2}");
    let b = &round2["matches"][0]["boards"][0];
    let g = game_made(&td, &game).await;
    assert_eq!(g["white"]["name"], b["white"], "the game made anew: {g}");
    // A move played: the round is on, not to be unpaired.
    let (mut ws, _) = players[b["white"].as_str().unwrap()].game_socket(&game).await;
    ws.play("e2e4", 0).await;
    let (status, c, _) = refused(&td, &desk, json!({"action":"unpair","round":2})).await;
    assert_eq!((status, c.as_deref()), (StatusCode::CONFLICT, Some("round_started")));
    server.stop().await;
}
