//! Embeds the browser UI (`web/` at the workspace root) into the server binary.
//!
//! The UI has no build step (plain ES modules, CSS and a vendored chessground; see
//! web/README.md), so embedding is a list of `include_bytes!` with what serving needs,
//! computed here once: the content type, a strong ETag (FNV-1a 64 of the bytes), and a version
//! for the whole set that names the asset URLs (`/assets/{version}/…`) so they can be cached
//! forever. `index.html` gets that prefix written into its `{{ASSETS}}` placeholders.
//! `web/tests/` (the end-to-end suite and its node_modules) and dotfiles are left out.
//!
//! Text files are also gzipped here, once, at the strongest level (issue 38: the lobby's
//! 140 KiB went over the wire as they are); `assets.rs` sends that copy to a client that
//! accepts gzip. BENCHMARKS.md ("Cold load of the UI") has the figures.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::{env, fs};

const SKIP: &[&str] = &["tests", "node_modules", "README.md", "package.json", "package-lock.json"];

fn main() {
    let manifest =
        PathBuf::from(env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let web = manifest.join("../../web");
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    println!("cargo:rerun-if-changed=build.rs");

    let mut files = Vec::new();
    if web.is_dir() {
        for entry in read_dir_sorted(&web) {
            let name = entry.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if name.starts_with('.') || SKIP.contains(&name) {
                continue;
            }
            // A directory is scanned recursively by cargo for changes.
            println!("cargo:rerun-if-changed={}", entry.display());
            collect(&web, &entry, &mut files);
        }
    } else {
        println!("cargo:warning=no web/ directory next to the workspace: the UI is not embedded");
    }

    // `assets.rs` looks files up by binary search on the path string.
    files.sort_by(|a, b| a.0.cmp(&b.0));

    let version = {
        let mut all = Vec::new();
        for (rel, bytes) in &files {
            all.extend_from_slice(rel.as_bytes());
            all.extend_from_slice(&fnv1a(bytes).to_le_bytes());
        }
        format!("{:012x}", fnv1a(&all) & 0xffff_ffff_ffff)
    };

    let mut code = String::new();
    writeln!(
        code,
        "/// The version of the embedded UI: the asset URL prefix is `/assets/{{VERSION}}`."
    )
    .unwrap();
    writeln!(code, "pub const VERSION: &str = {version:?};").unwrap();
    writeln!(code, "/// Every embedded file but `index.html`, sorted by path.").unwrap();
    writeln!(code, "pub static FILES: &[Asset] = &[").unwrap();
    let mut index = None;
    for (rel, bytes) in &files {
        if rel == "index.html" {
            let html =
                String::from_utf8_lossy(bytes).replace("{{ASSETS}}", &format!("/assets/{version}"));
            let path = out.join("index.html");
            fs::write(&path, html.as_bytes()).expect("write OUT_DIR/index.html");
            let gz = gzipped(&out, "index.html", html.as_bytes());
            index = Some((path, fnv1a(html.as_bytes()), gz));
            continue;
        }
        let gz = gzipped(&out, rel, bytes);
        let entry = asset_literal(rel, &web.join(rel), fnv1a(bytes), content_type(rel), gz);
        writeln!(code, "    {entry},").unwrap();
    }
    writeln!(code, "];").unwrap();
    writeln!(code, "/// `index.html` with the asset prefix filled in.").unwrap();
    match index {
        Some((path, hash, gz)) => {
            let entry = asset_literal("index.html", &path, hash, "text/html; charset=utf-8", gz);
            writeln!(code, "pub static INDEX: Option<Asset> = Some({entry});")
        }
        None => writeln!(code, "pub static INDEX: Option<Asset> = None;"),
    }
    .unwrap();
    fs::write(out.join("web_assets.rs"), code).expect("write OUT_DIR/web_assets.rs");
}

/// One `Asset { … }` expression of the generated file.
fn asset_literal(
    path: &str,
    file: &Path,
    hash: u64,
    content_type: &str,
    gz: Option<PathBuf>,
) -> String {
    let file = file.display().to_string();
    let etag = format!("\"{hash:016x}\"");
    let gzip = match gz {
        Some(gz) => format!("Some(include_bytes!({:?}))", gz.display().to_string()),
        None => "None".to_owned(),
    };
    format!(
        "Asset {{ path: {path:?}, body: include_bytes!({file:?}), etag: {etag:?}, \
         content_type: {content_type:?}, gzip: {gzip} }}"
    )
}

/// Writes the gzip of a text file under `OUT_DIR/gzip/` and returns its path; `None` for a
/// file that is not text or does not shrink by a tenth.
fn gzipped(out: &Path, rel: &str, bytes: &[u8]) -> Option<PathBuf> {
    let text = matches!(
        rel.rsplit_once('.').map(|(_, ext)| ext),
        Some("html" | "js" | "mjs" | "css" | "svg" | "json" | "map" | "md" | "txt")
    );
    if !text {
        return None;
    }
    let gz = gzip(bytes);
    if gz.len() * 10 > bytes.len() * 9 {
        return None;
    }
    let path = out.join("gzip").join(format!("{rel}.gz"));
    fs::create_dir_all(path.parent().expect("a parent")).expect("create OUT_DIR/gzip");
    fs::write(&path, gz).expect("write a gzipped asset");
    Some(path)
}

/// A gzip member (RFC 1952): a fixed header (no name, no time), the deflate stream at level 10,
/// the CRC-32 and the length.
fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut out = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 0xff];
    out.extend(miniz_oxide::deflate::compress_to_vec(bytes, 10));
    out.extend(crc32(bytes).to_le_bytes());
    out.extend((bytes.len() as u32).to_le_bytes());
    out
}

/// CRC-32 (IEEE, reflected), bit by bit: a few hundred KiB once per build.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xedb8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

fn read_dir_sorted(dir: &Path) -> Vec<PathBuf> {
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    entries
}

fn collect(root: &Path, path: &Path, files: &mut Vec<(String, Vec<u8>)>) {
    if path.is_dir() {
        for entry in read_dir_sorted(path) {
            let name = entry.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if !name.starts_with('.') && name != "node_modules" {
                collect(root, &entry, files);
            }
        }
    } else {
        let rel = path.strip_prefix(root).expect("under web/").to_string_lossy().replace('\\', "/");
        let bytes =
            fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
        files.push((rel, bytes));
    }
}

/// FNV-1a, 64 bits: a stable content hash for ETags without a dependency.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("webp") => "image/webp",
        Some("ico") => "image/x-icon",
        Some("json" | "map") => "application/json",
        Some("woff2") => "font/woff2",
        Some("md") => "text/markdown; charset=utf-8",
        _ => "text/plain; charset=utf-8",
    }
}
