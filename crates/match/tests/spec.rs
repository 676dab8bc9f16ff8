//! Engine specs as given on the command line.

use rookery_match::{EngineSpec, SpecError};

fn spec(text: &str) -> EngineSpec {
    text.parse().unwrap_or_else(|e| panic!("{text:?}: {e}"))
}

fn owned(words: &[&str]) -> Vec<String> {
    words.iter().map(|w| (*w).to_owned()).collect()
}

#[test]
fn words_options_and_names() {
    let s = spec("target/release/rookery uci option.Threads=1 name=rookery");
    assert_eq!(s.command, "target/release/rookery");
    assert_eq!(s.args, owned(&["uci"]));
    assert_eq!(s.options, [("Threads".to_owned(), Some("1".to_owned()))]);
    assert_eq!(s.name.as_deref(), Some("rookery"));

    let s = spec("stockfish option.UCI_LimitStrength=true option.UCI_Elo=2000");
    assert_eq!(s.args, Vec::<String>::new());
    assert_eq!(
        s.options,
        [
            ("UCI_LimitStrength".to_owned(), Some("true".to_owned())),
            ("UCI_Elo".to_owned(), Some("2000".to_owned()))
        ]
    );
    assert_eq!(s.name, None);

    // Quotes keep spaces; a button has no value; an empty value stays empty; arguments keep
    // their order around the keys.
    let s = spec(
        r#"  ./engine -x 'option.Move Overhead=20' "option.Clear Hash" option.Book= --fast  "#,
    );
    assert_eq!(s.command, "./engine");
    assert_eq!(s.args, owned(&["-x", "--fast"]));
    assert_eq!(
        s.options,
        [
            ("Move Overhead".to_owned(), Some("20".to_owned())),
            ("Clear Hash".to_owned(), None),
            ("Book".to_owned(), Some(String::new()))
        ]
    );
    // A value may hold `=` and spaces.
    let s = spec(r#"e "option.SyzygyPath=/tb/a b" name="my engine""#);
    assert_eq!(s.options, [("SyzygyPath".to_owned(), Some("/tb/a b".to_owned()))]);
    assert_eq!(s.name.as_deref(), Some("my engine"));
    // A node limit for every search.
    let s = spec("target/release/rookery uci nodes=20000 name=fixed");
    assert_eq!((s.args, s.nodes), (owned(&["uci"]), Some(20_000)));
    assert_eq!(spec("sf").nodes, None);
    // Backslashes escape outside single quotes.
    assert_eq!(spec(r"my\ engine x").command, "my engine");
    assert_eq!(spec(r"'C:\engines\sf.exe'").command, r"C:\engines\sf.exe");
}

#[test]
fn errors_name_the_problem() {
    assert_eq!("".parse::<EngineSpec>(), Err(SpecError::Empty));
    assert_eq!("   ".parse::<EngineSpec>(), Err(SpecError::Empty));
    assert_eq!(
        "sf 'option.Hash=1".parse::<EngineSpec>(),
        Err(SpecError::UnclosedQuote("sf 'option.Hash=1".to_owned()))
    );
    assert_eq!(
        "sf option.=3".parse::<EngineSpec>(),
        Err(SpecError::Missing("option.=3".to_owned()))
    );
    assert_eq!("sf name=".parse::<EngineSpec>(), Err(SpecError::Missing("name=".to_owned())));
    assert_eq!(
        "sf name=".parse::<EngineSpec>().unwrap_err().to_string(),
        "\"name=\" names nothing"
    );
    for word in ["nodes=", "nodes=0", "nodes=-5", "nodes=1e6", "nodes=many"] {
        let error = format!("sf {word}").parse::<EngineSpec>().unwrap_err();
        assert_eq!(error, SpecError::Nodes(word.to_owned()));
        assert_eq!(error.to_string(), format!("{word:?}: nodes must be a whole number from 1"));
    }
}

#[test]
fn display_round_trips() {
    for text in [
        "stockfish option.UCI_LimitStrength=true option.UCI_Elo=2000 name=sf",
        "target/release/rookery uci option.Hash=16 nodes=5000 name=fixed",
        "target/release/rookery uci 'option.Move Overhead=20' 'name=Rookery dev'",
        "'/opt/my engines/x' --flag 'it'\\''s' option.Ponder",
    ] {
        let parsed = spec(text);
        assert_eq!(parsed.to_string(), text, "{text}");
        assert_eq!(spec(&parsed.to_string()), parsed, "{text}");
    }
}
