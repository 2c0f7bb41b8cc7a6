//! The look of a plot: the embedded font, text sizes, and one colour and marker per curve label.

use std::sync::OnceLock;

use anyhow::bail;
use plotters::element::{Drawable, PointCollection};
use plotters::prelude::*;
use plotters::style::{register_font, FontDesc, FontStyle};
use plotters_backend::{BackendCoord, DrawingErrorKind};

/// DejaVu Sans 2.37 as Debian's fonts-dejavu-core ships it (licence beside it): it measures
/// every text for the layout and draws the text of PNG images, so no system font is needed.
const FONT: &[u8] = include_bytes!("../../assets/DejaVuSans.ttf");
/// The family plotters knows the embedded font by; SVG viewers draw it with their sans-serif.
const FAMILY: &str = "sans-serif";

/// Text sizes in pixels (SVG `font-size`).
pub const TITLE_PX: f64 = 24.0;
pub const PANEL_TITLE_PX: f64 = 19.0;
pub const AXIS_PX: f64 = 16.0;
pub const TICK_PX: f64 = 14.0;
pub const LEGEND_PX: f64 = 16.0;
/// plotters writes a font size `s` as SVG `font-size` `s / 1.24`, and draws it in bitmaps at
/// about that em size too.
const PLOTTERS_SIZE_PER_PX: f64 = 1.24;

/// Grid lines: light enough that bands and curves stand out.
pub const GRID: RGBColor = RGBColor(0xdd, 0xdd, 0xdd);

/// Okabe and Ito's colour-blind-safe palette, darkest and most distinct first; yellow, faint
/// on white, last.
const PALETTE: [RGBColor; 8] = [
    RGBColor(0x00, 0x72, 0xb2),
    RGBColor(0xd5, 0x5e, 0x00),
    RGBColor(0x00, 0x9e, 0x73),
    RGBColor(0xcc, 0x79, 0xa7),
    RGBColor(0x00, 0x00, 0x00),
    RGBColor(0xe6, 0x9f, 0x00),
    RGBColor(0x56, 0xb4, 0xe9),
    RGBColor(0xf0, 0xe4, 0x42),
];

/// Marker half-size in pixels.
const MARKER: i32 = 4;

/// Register the embedded font with plotters (once per process).
pub fn load_font() -> anyhow::Result<()> {
    static LOADED: OnceLock<bool> = OnceLock::new();
    if *LOADED.get_or_init(|| register_font(FAMILY, FontStyle::Normal, FONT).is_ok()) {
        Ok(())
    } else {
        bail!("the embedded font cannot be read")
    }
}

/// The embedded font at `px` pixels.
pub fn font(px: f64) -> FontDesc<'static> {
    (FAMILY, px * PLOTTERS_SIZE_PER_PX).into_font()
}

pub fn text(px: f64) -> TextStyle<'static> {
    font(px).into()
}

#[derive(Clone, Copy)]
enum Marker {
    Circle,
    Square,
    Triangle,
}

/// How one curve label is drawn, the same in every panel and in the legend.
#[derive(Clone, Copy)]
pub struct Look {
    colour: RGBColor,
    marker: Marker,
}

impl Look {
    /// The look of the `i`-th label. Colours repeat after 8 labels and markers after 3, so the
    /// first 24 labels differ in colour or marker.
    pub fn nth(i: usize) -> Look {
        let markers = [Marker::Circle, Marker::Square, Marker::Triangle];
        Look {
            colour: PALETTE[i % PALETTE.len()],
            marker: markers[i % markers.len()],
        }
    }

    pub fn line(self) -> ShapeStyle {
        self.colour.stroke_width(2)
    }

    /// The confidence band: the curve's colour, translucent.
    pub fn band(self) -> ShapeStyle {
        self.colour.mix(0.2).filled()
    }

    /// The confidence interval of a lone point: a thick translucent whisker.
    pub fn whisker(self) -> ShapeStyle {
        self.colour.mix(0.35).stroke_width(6)
    }

    pub fn marker<C>(self, at: C) -> MarkerElement<C> {
        MarkerElement { at, look: self }
    }
}

/// A point marker in a curve's look, drawn at one point whatever the coordinates.
pub struct MarkerElement<C> {
    at: C,
    look: Look,
}

impl<'a, C> PointCollection<'a, C> for &'a MarkerElement<C> {
    type Point = &'a C;
    type IntoIter = std::iter::Once<&'a C>;

    fn point_iter(self) -> Self::IntoIter {
        std::iter::once(&self.at)
    }
}

impl<DB: DrawingBackend, C> Drawable<DB> for MarkerElement<C> {
    fn draw<I: Iterator<Item = BackendCoord>>(
        &self,
        mut points: I,
        backend: &mut DB,
        _: (u32, u32),
    ) -> Result<(), DrawingErrorKind<DB::ErrorType>> {
        let Some((x, y)) = points.next() else {
            return Ok(());
        };
        let style = self.look.colour.filled();
        let r = MARKER;
        match self.look.marker {
            Marker::Circle => backend.draw_circle((x, y), r as u32, &style, true),
            Marker::Square => backend.draw_rect((x - r, y - r), (x + r, y + r), &style, true),
            Marker::Triangle => {
                let corners = [(x, y - r - 2), (x - r - 1, y + r), (x + r + 1, y + r)];
                backend.fill_polygon(corners, &style)
            }
        }
    }
}
