//! Calendar dates of Unix times (UTC), for what a rating officer reads as dates: the TRF's
//! start, end and round dates, a player's age in the event's year (FIDE's K, 8.3.3).

/// The UTC date `(year, month, day)` of a Unix time in ms (the civil calendar's days
/// counted from 1970-01-01, as H. Hinnant's `civil_from_days`).
pub(crate) fn date_of(ms: u64) -> (i64, u32, u32) {
    let days = (ms / 86_400_000) as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `2026/12/07`, as TRF's `042` and `052` write a date.
pub(crate) fn trf_date(ms: u64) -> String {
    let (y, m, d) = date_of(ms);
    format!("{y:04}/{m:02}/{d:02}")
}

/// `26/12/07`, as TRF's `132` writes a round's date.
pub(crate) fn trf_round_date(ms: u64) -> String {
    let (y, m, d) = date_of(ms);
    format!("{:02}/{m:02}/{d:02}", y.rem_euclid(100))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_the_civil_calendars() {
        assert_eq!(date_of(0), (1970, 1, 1));
        assert_eq!(date_of(951_782_400_000), (2000, 2, 29));
        assert_eq!(date_of(1_798_761_599_999), (2026, 12, 31));
        assert_eq!(date_of(1_798_761_600_000), (2027, 1, 1));
        assert_eq!(trf_date(1_798_761_600_000), "2027/01/01");
        assert_eq!(trf_round_date(951_782_400_000), "00/02/29");
    }
}
