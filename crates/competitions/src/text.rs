//! How the documents write text: HTML escapes, CSV fields, time controls as the pages write
//! them. A leaf that the exports and the printed documents both use.

/// A time control as the site's pages write it (web/js `tcLabel`): minutes and the increment
/// or delay in seconds, `180` as `3+0`, `300d5` as `5d5`, `90+30` as `1.5+30`, `30+0` as
/// `30s+0`; other controls (several periods, days a move) as they are.
pub(crate) fn tc_label(tc: &str) -> String {
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

/// `text` escaped for HTML text and attribute values.
pub(crate) fn html(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

/// `text` as one CSV field: quoted when it holds a comma, a quote or a line break (RFC 4180).
pub(crate) fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

#[cfg(test)]
mod tests {
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
}
