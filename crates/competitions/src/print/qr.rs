//! The QR code of the tournament's page on a printed sheet: a player in the hall points a
//! phone at the pairings on the wall and has them, and the results as they come, in hand.
//! Drawn by the `qrcode` crate (ISO/IEC 18004, error correction M: a smudged sheet still
//! reads) as inline SVG, so that it prints as sharply as the text and needs no image file.

use qrcode::render::svg;
use qrcode::{EcLevel, QrCode};

use super::words::Words;
use crate::text::html;

/// The figure: the code and, under it, the address to type when no camera reads it. Nothing
/// when the address does not fit a QR code (longer than a code holds: 2,331 bytes at M).
pub(super) fn figure(url: &str, w: &Words) -> String {
    let Ok(code) = QrCode::with_error_correction_level(url.as_bytes(), EcLevel::M) else {
        return String::new();
    };
    let svg = code.render::<svg::Color>().quiet_zone(true).min_dimensions(120, 120).build();
    // The crate writes an XML declaration before the element; inline SVG starts at `<svg`.
    let svg = svg.find("<svg").map_or(svg.as_str(), |i| &svg[i..]);
    format!(
        "<div class=\"qr\">{svg}<br>{}<br><a href=\"{url}\">{url}</a></div>",
        w.scan,
        url = html(url)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_figure_is_inline_svg_with_the_address_under_it() {
        let f = figure(
            "http://hall.local:8080/tournaments/ab12cd34",
            super::super::words::words(super::super::Lang::En),
        );
        assert!(f.starts_with("<div class=\"qr\"><svg"), "{f}");
        assert!(f.contains(">http://hall.local:8080/tournaments/ab12cd34</a>"));
        assert!(!f.contains("<?xml"));
        // Too long for any QR code: no figure rather than an error on the page.
        assert_eq!(
            figure(&"x".repeat(3000), super::super::words::words(super::super::Lang::En)),
            ""
        );
    }
}
