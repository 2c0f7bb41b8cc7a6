//! Line charts of experiment results, for `meshcast sweep`: one figure of one or more panels
//! (say one per metric), each a curve per algorithm of the mean against a swept parameter with
//! its confidence band, written as SVG or PNG.
//!
//! [`figure`] lays a figure out and draws it on any plotters backend, [`style`] holds the font,
//! text sizes, colours and markers, [`scale`] the axis ranges. Text is measured, and drawn into
//! PNG images, with an embedded copy of DejaVu Sans, so the output does not depend on the fonts
//! a machine has.

mod figure;
mod scale;
mod style;

use std::path::Path;

use anyhow::{bail, Context, Result};
use plotters::prelude::*;

use crate::output;
use figure::Figure;

/// One curve: a label (algorithm name) and points (x, mean, ci_low, ci_high); ci may be NaN when n < 2.
pub struct Curve {
    pub label: String,
    pub points: Vec<(f64, f64, f64, f64)>,
}

/// One chart: a title, a y-axis label with its unit (e.g. "one-port time (hops)"), and curves.
pub struct Panel {
    pub title: String,
    pub y_label: String,
    pub curves: Vec<Curve>,
}

/// Draw `panels` into `path`: SVG if the extension is .svg, PNG if .png (in any letter case),
/// anything else an error.
///
/// The panels stand side by side, at most three to a row (four make a 2×2 grid), each 620×440
/// pixels. `title` goes above all panels, then one legend for the whole figure (a curve label
/// keeps its colour and marker in every panel), and `x_label` goes under each x axis. A curve
/// is a line with point markers over a translucent band between `ci_low` and `ci_high` in its
/// colour (a whisker where a point's neighbours have no interval); points with a NaN interval
/// get no band, points with a NaN mean are left out and break the line. The y axis starts at 0
/// unless the data is far from it: all of one sign, and the value nearest 0 more than half as
/// far from 0 as the farthest; then it spans the data. The file is replaced atomically.
pub fn write_plot(path: &Path, title: &str, x_label: &str, panels: &[Panel]) -> Result<()> {
    let format = Format::of(path)?;
    style::load_font()?;
    let figure = Figure::new(title, x_label, panels)?;
    let bytes = match format {
        Format::Svg => svg(&figure)?,
        Format::Png => png(&figure)?,
    };
    output::write_atomically(path, &bytes)
        .with_context(|| format!("cannot write the plot '{}'", path.display()))
}

enum Format {
    Svg,
    Png,
}

impl Format {
    fn of(path: &Path) -> Result<Format> {
        let ext = path.extension().map(|e| e.to_string_lossy().to_lowercase());
        match ext.as_deref() {
            Some("svg") => Ok(Format::Svg),
            Some("png") => Ok(Format::Png),
            Some(ext) => bail!(
                "cannot plot to '{}': unknown extension '.{ext}' (use .svg or .png)",
                path.display()
            ),
            None => bail!(
                "cannot plot to '{}': no extension (use .svg or .png)",
                path.display()
            ),
        }
    }
}

fn svg(figure: &Figure) -> Result<Vec<u8>> {
    let mut text = String::new();
    figure.draw(&SVGBackend::with_string(&mut text, figure.size()).into_drawing_area())?;
    Ok(text.into_bytes())
}

fn png(figure: &Figure) -> Result<Vec<u8>> {
    let (w, h) = figure.size();
    let mut rgb = vec![0; w as usize * h as usize * 3];
    figure.draw(&BitMapBackend::with_buffer(&mut rgb, (w, h)).into_drawing_area())?;
    let mut bytes = Vec::new();
    let mut encoder = png::Encoder::new(&mut bytes, w, h);
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&rgb)?;
    writer.finish()?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAN: f64 = f64::NAN;

    /// Three algorithms over K = 2, 4, …, 64 in two panels; the last point of each has no CI.
    fn panels() -> Vec<Panel> {
        let curve = |label: &str, slope: f64| Curve {
            label: label.to_string(),
            points: (1..=6)
                .map(|i| {
                    let k = f64::from(1 << i);
                    let mean = slope * k.sqrt() + 2.0;
                    let (lo, hi) = if i == 6 {
                        (NAN, NAN)
                    } else {
                        (mean - 1.0, mean + 1.5)
                    };
                    (k, mean, lo, hi)
                })
                .collect(),
        };
        let panel = |title: &str, y_label: &str, scale: f64| Panel {
            title: title.to_string(),
            y_label: y_label.to_string(),
            curves: vec![
                curve("dual-path", 2.0 * scale),
                curve("multi-path", 1.2 * scale),
                curve("fixed-path", 3.0 * scale),
            ],
        };
        vec![
            panel("Time", "one-port time (hops)", 1.0),
            panel("Traffic", "traffic (link uses)", 6.0),
        ]
    }

    const TITLE: &str = "8×8 mesh, 20 trials";
    const X_LABEL: &str = "destinations K";

    fn write(name: &str, panels: &[Panel]) -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(name);
        write_plot(&path, TITLE, X_LABEL, panels).unwrap();
        (dir, path)
    }

    #[test]
    fn svg_has_title_labels_and_legend() {
        let (_dir, path) = write("plot.svg", &panels());
        let svg = std::fs::read_to_string(path).unwrap();
        assert!(svg.starts_with("<svg"));
        for text in [
            TITLE,
            X_LABEL,
            "one-port time (hops)",
            "traffic (link uses)",
            "Time",
            "Traffic",
            "dual-path",
            "multi-path",
            "fixed-path",
        ] {
            assert!(
                svg.contains(&format!(">\n{text}\n</text>")),
                "no text {text:?}"
            );
        }
        let legend_entries = svg.matches(">\ndual-path\n<").count();
        assert_eq!(legend_entries, 1, "one legend for the figure");
    }

    #[test]
    fn png_is_a_whole_png_image() {
        let (_dir, path) = write("plot.png", &panels());
        let png = std::fs::read(path).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
        assert!(
            (20_000..2_000_000).contains(&png.len()),
            "{} bytes",
            png.len()
        );
        let decoder = png::Decoder::new(std::io::Cursor::new(png));
        let info = decoder.read_info().unwrap().info().clone();
        let panels = panels();
        let figure = Figure::new(TITLE, X_LABEL, &panels).unwrap();
        assert_eq!((info.width, info.height), figure.size());
    }

    #[test]
    fn nan_intervals_and_means_do_not_panic() {
        let points = vec![
            (1.0, 5.0, NAN, NAN),
            (2.0, NAN, 4.0, 6.0),
            (3.0, 7.0, 6.0, 8.0),
        ];
        let panels = vec![Panel {
            title: "sparse".to_string(),
            y_label: "time (hops)".to_string(),
            curves: vec![Curve {
                label: "only".to_string(),
                points,
            }],
        }];
        write("nan.svg", &panels);
        write("nan.png", &panels);
        let all_nan = vec![Panel {
            title: "empty".to_string(),
            y_label: "time (hops)".to_string(),
            curves: vec![Curve {
                label: "none".to_string(),
                points: vec![(NAN, NAN, NAN, NAN)],
            }],
        }];
        write("all-nan.png", &all_nan);
    }

    #[test]
    fn a_bad_extension_is_named() {
        let dir = tempfile::tempdir().unwrap();
        for (name, said) in [("plot.pdf", "'.pdf'"), ("plot", "no extension")] {
            let err = write_plot(&dir.path().join(name), "t", "x", &panels()).unwrap_err();
            let msg = format!("{err:#}");
            assert!(msg.contains(said) && msg.contains(".svg or .png"), "{msg}");
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
