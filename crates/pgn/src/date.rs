//! Dates for the `Date` tag (PGN standard §8.1.1.3, `YYYY.MM.DD`) and UTC times, from a Unix
//! time: the one place the programs that write PGN (the server, the terminal game, engine
//! matches) turn seconds into a calendar date.

/// A moment in UTC, split into calendar fields.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct UtcDateTime {
    /// The year (proleptic Gregorian).
    pub year: i64,
    /// 1 to 12.
    pub month: u32,
    /// 1 to 31.
    pub day: u32,
    /// 0 to 23.
    pub hour: u32,
    /// 0 to 59.
    pub minute: u32,
    /// 0 to 59.
    pub second: u32,
}

impl UtcDateTime {
    /// The UTC calendar date and time of `secs` seconds after 1970-01-01 00:00:00 UTC.
    ///
    /// ```
    /// use rookery_pgn::date::UtcDateTime;
    ///
    /// let t = UtcDateTime::from_unix_secs(1_700_000_000);
    /// assert_eq!(t.pgn_date(), "2023.11.14");
    /// assert_eq!(t.pgn_time(), "22:13:20");
    /// ```
    pub fn from_unix_secs(secs: u64) -> UtcDateTime {
        // Howard Hinnant, "chrono-Compatible Low-Level Date Algorithms", civil_from_days.
        let z = (secs / 86_400) as i64 + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        let year = yoe + era * 400 + i64::from(month <= 2);
        let s = (secs % 86_400) as u32;
        UtcDateTime { year, month, day, hour: s / 3600, minute: s / 60 % 60, second: s % 60 }
    }

    /// The moment `at` (the epoch, if `at` is before it).
    pub fn from_system_time(at: std::time::SystemTime) -> UtcDateTime {
        let secs = at.duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
        UtcDateTime::from_unix_secs(secs)
    }

    /// `YYYY.MM.DD`, as the `Date` and `UTCDate` tags write it.
    pub fn pgn_date(&self) -> String {
        format!("{:04}.{:02}.{:02}", self.year, self.month, self.day)
    }

    /// `HH:MM:SS`, as the `UTCTime` tag writes it.
    pub fn pgn_time(&self) -> String {
        format!("{:02}:{:02}:{:02}", self.hour, self.minute, self.second)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_dates() {
        let date = |secs| UtcDateTime::from_unix_secs(secs).pgn_date();
        assert_eq!(date(0), "1970.01.01");
        assert_eq!(date(19_723 * 86_400), "2024.01.01");
        assert_eq!(date(951_782_400), "2000.02.29");
        assert_eq!(date(1_764_432_000), "2025.11.29");
        assert_eq!(date(4_107_542_399), "2100.02.28");
        let t = UtcDateTime::from_unix_secs(86_399);
        assert_eq!((t.pgn_date(), t.pgn_time()), ("1970.01.01".into(), "23:59:59".into()));
    }
}
