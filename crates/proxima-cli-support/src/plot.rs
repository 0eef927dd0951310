//! SVG charts for the demo (user command) and the experiment reports (lab): both draw
//! through this module, which holds the one plotters dependency (SVG backend only) and
//! re-exports it as [`plotters`] for figures [`line_chart`] does not cover (the demo's
//! two-panel trace, the reports' fixed-colour curves).
//!
//! [`line_chart`]: named series of (x, y) points on linear or logarithmic axes. Non-finite
//! points and, on a log axis, non-positive values are dropped (a merit that reaches exactly 0
//! cannot be drawn on a log scale); an empty chart still gets its axes and title.

use std::path::Path;

pub use plotters;

use anyhow::{Result, anyhow};
use plotters::prelude::*;

/// One named curve.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Legend label.
    pub name: String,
    /// The points, in drawing order.
    pub points: Vec<(f64, f64)>,
}

impl Series {
    /// A series from a label and points.
    pub fn new(name: impl Into<String>, points: Vec<(f64, f64)>) -> Self {
        Series { name: name.into(), points }
    }
}

/// Axis scales.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Axes {
    /// log10 x axis.
    pub log_x: bool,
    /// log10 y axis.
    pub log_y: bool,
}

const PALETTE: [RGBColor; 10] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
    RGBColor(227, 119, 194),
    RGBColor(127, 127, 127),
    RGBColor(188, 189, 34),
    RGBColor(23, 190, 207),
];

fn keep(p: &(f64, f64), axes: Axes) -> bool {
    p.0.is_finite() && p.1.is_finite() && (!axes.log_x || p.0 > 0.0) && (!axes.log_y || p.1 > 0.0)
}

fn range(values: impl Iterator<Item = f64>, log: bool) -> (f64, f64) {
    let (lo, hi) = values.fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| (a.min(v), b.max(v)));
    if !lo.is_finite() {
        return if log { (1e-1, 1e1) } else { (0.0, 1.0) };
    }
    if log {
        let (l, h) = (lo.log10().floor(), hi.log10().ceil());
        (10f64.powf(l), 10f64.powf(if h > l { h } else { l + 1.0 }))
    } else if hi > lo {
        let pad = 0.05 * (hi - lo);
        (lo - pad, hi + pad)
    } else {
        (lo - 1.0, hi + 1.0)
    }
}

/// Writes an SVG line chart (one coloured line with markers per series, legend top right).
pub fn line_chart(
    path: &Path,
    title: &str,
    x_label: &str,
    y_label: &str,
    axes: Axes,
    series: &[Series],
) -> Result<()> {
    let svg = |e: &dyn std::fmt::Display| anyhow!("cannot draw {}: {e}", path.display());
    let kept: Vec<Vec<(f64, f64)>> =
        series.iter().map(|s| s.points.iter().copied().filter(|p| keep(p, axes)).collect()).collect();
    let (x0, x1) = range(kept.iter().flatten().map(|p| p.0), axes.log_x);
    let (y0, y1) = range(kept.iter().flatten().map(|p| p.1), axes.log_y);
    let root = SVGBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| svg(&e))?;
    let mut builder = ChartBuilder::on(&root);
    builder.caption(title, ("sans-serif", 22)).margin(12).x_label_area_size(44).y_label_area_size(72);
    macro_rules! draw {
        ($chart:expr) => {{
            let mut chart = $chart.map_err(|e| svg(&e))?;
            chart
                .configure_mesh()
                .x_desc(x_label)
                .y_desc(y_label)
                .label_style(("sans-serif", 14))
                .draw()
                .map_err(|e| svg(&e))?;
            for (k, (s, pts)) in series.iter().zip(&kept).enumerate() {
                let color = PALETTE[k % PALETTE.len()];
                chart
                    .draw_series(LineSeries::new(pts.iter().copied(), color.stroke_width(2)))
                    .map_err(|e| svg(&e))?
                    .label(s.name.clone())
                    .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
                chart
                    .draw_series(pts.iter().map(|&p| Circle::new(p, 2, color.filled())))
                    .map_err(|e| svg(&e))?;
            }
            chart
                .configure_series_labels()
                .position(SeriesLabelPosition::UpperRight)
                .background_style(WHITE.mix(0.85))
                .border_style(BLACK)
                .label_font(("sans-serif", 13))
                .draw()
                .map_err(|e| svg(&e))?;
        }};
    }
    match (axes.log_x, axes.log_y) {
        (false, false) => draw!(builder.build_cartesian_2d(x0..x1, y0..y1)),
        (false, true) => draw!(builder.build_cartesian_2d(x0..x1, (y0..y1).log_scale())),
        (true, false) => draw!(builder.build_cartesian_2d((x0..x1).log_scale(), y0..y1)),
        (true, true) => draw!(builder.build_cartesian_2d((x0..x1).log_scale(), (y0..y1).log_scale())),
    }
    root.present().map_err(|e| svg(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_an_svg_with_every_series_and_survives_empty_and_zero_data() {
        let dir = std::env::temp_dir().join(format!("proxima-plot-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("chart.svg");
        let series = [
            Series::new("pgs", vec![(1.0, 1.0), (2.0, 0.1), (3.0, 0.0), (4.0, f64::NAN)]),
            Series::new("empty", vec![]),
        ];
        line_chart(&path, "t", "x", "y", Axes { log_x: false, log_y: true }, &series).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("<svg") && text.contains("pgs") && text.contains("empty"));
        line_chart(&path, "t", "x", "y", Axes { log_x: true, log_y: true }, &[]).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
    }
}
