//! The layers the server is built in (ARCHITECTURE.md; issue 52), checked on the sources:
//! JSON is written by hand (`json!`) only at the edges, where a request is answered or a
//! wire message written; below them every value is a typed struct or enum that derives or
//! implements `Serialize`, so a view cannot drift from its type.

use std::path::{Path, PathBuf};

/// The files that may build JSON by hand: HTTP handlers answering a request and the accept
/// loop's refusal. Paths from the workspace root.
const EDGES: &[&str] = &[
    "crates/server/src/accounts.rs",
    "crates/server/src/api.rs",
    "crates/server/src/error.rs",
    "crates/listener/src/lib.rs",
];

/// The crates of tools and clients, not of the server: the load generators and the command
/// line write the requests they send however they like.
const NOT_THE_SERVER: &[&str] = &["cli", "loadgen", "match", "tune"];

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The files of modules declared `#[cfg(test)] mod name;`: tests, however they are filed.
fn test_modules(files: &[PathBuf]) -> Vec<PathBuf> {
    let mut tests = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).unwrap();
        let dir =
            if file.ends_with("lib.rs") || file.ends_with("mod.rs") || file.ends_with("main.rs") {
                file.parent().unwrap().to_path_buf()
            } else {
                file.with_extension("")
            };
        let mut lines = text.lines().map(str::trim);
        while let Some(line) = lines.next() {
            if line != "#[cfg(test)]" {
                continue;
            }
            // `mod x;`, `pub(crate) mod x;`, `pub mod x;`: a module for the tests alone.
            let next = lines.next().unwrap_or("");
            let next = next.trim_start_matches("pub(crate) ").trim_start_matches("pub ");
            if let Some(name) = next.strip_prefix("mod ").and_then(|n| n.strip_suffix(';')) {
                tests.push(dir.join(format!("{name}.rs")));
                tests.push(dir.join(name).join("mod.rs"));
            }
        }
    }
    tests
}

#[test]
fn json_is_written_by_hand_only_at_the_edges() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut offenders = Vec::new();
    for krate in std::fs::read_dir(root.join("crates")).unwrap() {
        let krate = krate.unwrap().path();
        let name = krate.file_name().unwrap().to_string_lossy().into_owned();
        if NOT_THE_SERVER.contains(&name.as_str()) || !krate.join("src").is_dir() {
            continue;
        }
        let mut files = Vec::new();
        rust_files(&krate.join("src"), &mut files);
        let tests_only = test_modules(&files);
        for file in files.iter().filter(|f| !tests_only.contains(f)) {
            let relative = file.strip_prefix(&root).unwrap().to_string_lossy().replace('\\', "/");
            if EDGES.contains(&relative.as_str()) {
                continue;
            }
            let text = std::fs::read_to_string(file).unwrap();
            // Up to the unit tests, which may write what they send.
            let code = text.split("#[cfg(test)]").next().unwrap();
            for (n, line) in code.lines().enumerate() {
                if line.contains("json!") && !line.trim_start().starts_with("//") {
                    offenders.push(format!("{relative}:{}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert!(offenders.is_empty(), "json! below the edges:\n{}", offenders.join("\n"));
}
