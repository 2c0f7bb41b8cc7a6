//! One figure on any plotters backend: the title, one legend for all panels, and the panels in a
//! grid of at most three columns.

use anyhow::Result;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

use super::scale;
use super::style::{self, Look};
use super::{Curve, Panel};

/// Size of one panel, axes and panel title included.
const PANEL_W: u32 = 620;
const PANEL_H: u32 = 440;
const MAX_COLS: usize = 3;
/// Blank border around the figure.
const MARGIN: u32 = 16;
const TITLE_H: u32 = 52;
const LEGEND_ROW_H: u32 = 30;
/// Legend entry: a line sample, a gap, the label; entries apart by `ENTRY_GAP`.
const SAMPLE_W: i32 = 40;
const SAMPLE_GAP: i32 = 8;
const ENTRY_GAP: i32 = 36;

type Chart<'a, DB> = ChartContext<'a, DB, Cartesian2d<RangedCoordf64, RangedCoordf64>>;

/// One legend entry: the label's index and its left edge.
type Entry = (usize, i32);

pub struct Figure<'a> {
    width: i32,
    title: &'a str,
    x_label: &'a str,
    panels: &'a [Panel],
    /// Curve labels in order of first appearance; a label's index picks its look.
    labels: Vec<&'a str>,
    legend: Vec<Vec<Entry>>,
    rows: usize,
    cols: usize,
}

impl<'a> Figure<'a> {
    pub fn new(title: &'a str, x_label: &'a str, panels: &'a [Panel]) -> Result<Self> {
        let rows = panels.len().div_ceil(MAX_COLS).max(1);
        let cols = panels.len().div_ceil(rows).max(1);
        let labels = labels(panels);
        let width = figure_width(title, cols)?;
        let legend = legend_rows(&labels, width)?;
        Ok(Figure {
            width,
            title,
            x_label,
            panels,
            labels,
            legend,
            rows,
            cols,
        })
    }

    pub fn size(&self) -> (u32, u32) {
        (
            self.width as u32,
            self.head_height() + self.rows as u32 * PANEL_H + MARGIN,
        )
    }

    fn head_height(&self) -> u32 {
        TITLE_H + self.legend.len() as u32 * LEGEND_ROW_H + MARGIN
    }

    pub fn draw<DB>(&self, root: &DrawingArea<DB, Shift>) -> Result<()>
    where
        DB: DrawingBackend,
        DB::ErrorType: 'static,
    {
        root.fill(&WHITE)?;
        let (head, body) = root.split_vertically(self.head_height());
        self.draw_head(&head)?;
        let body = body.margin(0, MARGIN, MARGIN, MARGIN);
        for (area, panel) in body
            .split_evenly((self.rows, self.cols))
            .iter()
            .zip(self.panels)
        {
            self.draw_panel(area, panel)?;
        }
        root.present()?;
        Ok(())
    }

    fn draw_head<DB>(&self, head: &DrawingArea<DB, Shift>) -> Result<()>
    where
        DB: DrawingBackend,
        DB::ErrorType: 'static,
    {
        let centre = Pos::new(HPos::Center, VPos::Center);
        let x = head.dim_in_pixel().0 as i32 / 2;
        let title = style::text(style::TITLE_PX).pos(centre);
        head.draw_text(self.title, &title, (x, (MARGIN + TITLE_H / 2) as i32))?;
        for (row, entries) in self.legend.iter().enumerate() {
            let y = MARGIN + TITLE_H + row as u32 * LEGEND_ROW_H + LEGEND_ROW_H / 2;
            for &(label, x) in entries {
                self.draw_entry(head, label, (x, y as i32))?;
            }
        }
        Ok(())
    }

    /// A legend entry: band, line and marker samples, then the label.
    fn draw_entry<DB>(
        &self,
        head: &DrawingArea<DB, Shift>,
        label: usize,
        (x, y): (i32, i32),
    ) -> Result<()>
    where
        DB: DrawingBackend,
        DB::ErrorType: 'static,
    {
        let look = Look::nth(label);
        let band = [(x, y - 8), (x + SAMPLE_W, y + 8)];
        head.draw(&Rectangle::new(band, look.band()))?;
        head.draw(&PathElement::new([(x, y), (x + SAMPLE_W, y)], look.line()))?;
        head.draw(&look.marker((x + SAMPLE_W / 2, y)))?;
        let text = style::text(style::LEGEND_PX).pos(Pos::new(HPos::Left, VPos::Center));
        head.draw_text(self.labels[label], &text, (x + SAMPLE_W + SAMPLE_GAP, y))?;
        Ok(())
    }

    fn draw_panel<DB>(&self, area: &DrawingArea<DB, Shift>, panel: &Panel) -> Result<()>
    where
        DB: DrawingBackend,
        DB::ErrorType: 'static,
    {
        let points = || panel.curves.iter().flat_map(|c| &c.points);
        let x = scale::x_range(points().map(|p| p.0));
        let y = scale::y_range(points().flat_map(|p| [p.1, p.2, p.3]));
        let mut chart = ChartBuilder::on(area)
            .caption(&panel.title, style::text(style::PANEL_TITLE_PX))
            .margin(10)
            .x_label_area_size(56)
            .y_label_area_size(80)
            .build_cartesian_2d(x, y)?;
        chart
            .configure_mesh()
            .x_desc(self.x_label)
            .y_desc(&panel.y_label)
            .axis_desc_style(style::text(style::AXIS_PX))
            .label_style(style::text(style::TICK_PX))
            .x_label_formatter(&|v| scale::tick(*v))
            .y_label_formatter(&|v| scale::tick(*v))
            .bold_line_style(style::GRID)
            .light_line_style(TRANSPARENT)
            .draw()?;
        for curve in &panel.curves {
            let look = Look::nth(self.label_index(&curve.label));
            draw_curve(&mut chart, curve, look)?;
        }
        Ok(())
    }

    fn label_index(&self, label: &str) -> usize {
        self.labels.iter().position(|l| *l == label).unwrap_or(0)
    }
}

/// Width of a figure: `cols` panel columns, or wider if the title needs it.
fn figure_width(title: &str, cols: usize) -> Result<i32> {
    let title_w = style::font(style::TITLE_PX).box_size(title)?.0;
    Ok((title_w.max(cols as u32 * PANEL_W) + 2 * MARGIN) as i32)
}

/// The curve labels of all panels, each once, in order of first appearance.
fn labels(panels: &[Panel]) -> Vec<&str> {
    let mut labels: Vec<&str> = Vec::new();
    for curve in panels.iter().flat_map(|p| &p.curves) {
        if !labels.contains(&curve.label.as_str()) {
            labels.push(&curve.label);
        }
    }
    labels
}

/// The legend entries, filled into rows as wide as the figure's inside, each row centred.
fn legend_rows(labels: &[&str], figure_width: i32) -> Result<Vec<Vec<Entry>>> {
    let font = style::font(style::LEGEND_PX);
    let room = figure_width - 2 * MARGIN as i32;
    let mut rows: Vec<Vec<Entry>> = Vec::new();
    let mut ends = Vec::new();
    let mut next = 0;
    for (i, label) in labels.iter().enumerate() {
        let w = SAMPLE_W + SAMPLE_GAP + font.box_size(label)?.0 as i32;
        match rows.last_mut() {
            Some(row) if next + w <= room => row.push((i, next)),
            _ => {
                next = 0;
                rows.push(vec![(i, 0)]);
            }
        }
        ends.push(next + w);
        next += w + ENTRY_GAP;
    }
    centre(&mut rows, &ends, figure_width);
    Ok(rows)
}

/// Shift each legend row so that it is centred; `ends[i]` is the right edge of entry `i`.
fn centre(rows: &mut [Vec<Entry>], ends: &[i32], figure_width: i32) {
    for row in rows {
        let row_width = row.last().map_or(0, |&(i, _)| ends[i]);
        let shift = (figure_width - row_width) / 2;
        for entry in row {
            entry.1 += shift;
        }
    }
}

/// A curve: its confidence band where the interval is known, then line and markers where the
/// mean is.
fn draw_curve<DB>(chart: &mut Chart<'_, DB>, curve: &Curve, look: Look) -> Result<()>
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
{
    let mut points: Vec<_> = curve
        .points
        .iter()
        .filter(|p| p.0.is_finite())
        .copied()
        .collect();
    points.sort_by(|a, b| a.0.total_cmp(&b.0));
    let has_ci = |p: &(f64, f64, f64, f64)| p.2.is_finite() && p.3.is_finite();
    for run in points.split(|p| !has_ci(p)).filter(|r| !r.is_empty()) {
        draw_band(chart, run, look)?;
    }
    for run in points.split(|p| !p.1.is_finite()).filter(|r| !r.is_empty()) {
        let means = || run.iter().map(|p| (p.0, p.1));
        chart.draw_series(LineSeries::new(means(), look.line()))?;
        chart.draw_series(means().map(|at| look.marker(at)))?;
    }
    Ok(())
}

/// The band between `ci_low` and `ci_high` over consecutive points; a whisker for a lone point.
fn draw_band<DB>(chart: &mut Chart<'_, DB>, run: &[(f64, f64, f64, f64)], look: Look) -> Result<()>
where
    DB: DrawingBackend,
    DB::ErrorType: 'static,
{
    if let [(x, _, lo, hi)] = run {
        chart.draw_series([PathElement::new([(*x, *lo), (*x, *hi)], look.whisker())])?;
    } else {
        let lows = run.iter().map(|p| (p.0, p.2));
        let highs = run.iter().rev().map(|p| (p.0, p.3));
        chart.draw_series([Polygon::new(
            lows.chain(highs).collect::<Vec<_>>(),
            look.band(),
        )])?;
    }
    Ok(())
}
