//! PNG plots: rank-probability heat maps and agreement-versus-rounds curves.
//!
//! Text needs a TrueType font; it is read at run time from `$ARENA_FONT` or the usual system
//! locations (DejaVu Sans, Liberation Sans), never bundled.

use std::path::Path;
use std::sync::OnceLock;

use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use plotters::style::{FontStyle, register_font};

use crate::standings::Standings;

/// Why a plot could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// No TrueType font was found for labels.
    #[error("no TrueType font found for plot labels: set ARENA_FONT to a .ttf file")]
    NoFont,
    /// Drawing or writing the file failed.
    #[error("plot {path}: {reason}")]
    Draw {
        /// The file.
        path: String,
        /// What failed.
        reason: String,
    },
}

const FONT_PATHS: &[&str] = &[
    "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans.ttf",
    "/usr/share/fonts/TTF/DejaVuSans.ttf",
    "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
    "/System/Library/Fonts/Supplemental/Arial.ttf",
];

static FONT: OnceLock<bool> = OnceLock::new();

fn ensure_font() -> Result<(), PlotError> {
    let ok = *FONT.get_or_init(|| {
        let env = std::env::var("ARENA_FONT").ok();
        let candidates = env
            .iter()
            .map(String::as_str)
            .chain(FONT_PATHS.iter().copied());
        for p in candidates {
            if let Ok(bytes) = std::fs::read(p) {
                // plotters keeps the registered bytes for the life of the process.
                let bytes: &'static [u8] = Box::leak(bytes.into_boxed_slice());
                if register_font("sans-serif", FontStyle::Normal, bytes).is_ok() {
                    return true;
                }
            }
        }
        false
    });
    if ok { Ok(()) } else { Err(PlotError::NoFont) }
}

fn draw_err(path: &Path, e: impl std::fmt::Display) -> PlotError {
    PlotError::Draw {
        path: path.display().to_string(),
        reason: e.to_string(),
    }
}

/// A heat map of `s.rank_probs`: one row per table (final order, best at the top), one column per
/// rank, each cell's probability written in it. Labels sit in the middle of their row or column.
pub fn rank_heatmap(s: &Standings, title: &str, path: &Path) -> Result<(), PlotError> {
    ensure_font()?;
    let n = s.tables.len();
    if n == 0 {
        return Err(draw_err(path, "no tables to draw"));
    }
    let w = 260 + 90 * n as u32;
    let h = 120 + 50 * n as u32;
    let root = BitMapBackend::new(path, (w, h)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| draw_err(path, e))?;
    // Segmented axes: cell k spans Exact(k)..Exact(k + 1), its label sits at CenterOf(k).
    // (An integer range a..b holds b − a + 1 values, hence 0..n − 1 for n cells.)
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(10)
        .x_label_area_size(40)
        .y_label_area_size(220)
        .build_cartesian_2d((0..n - 1).into_segmented(), (0..n - 1).into_segmented())
        .map_err(|e| draw_err(path, e))?;
    let order = s.final_order.clone();
    let names: Vec<String> = order.iter().map(|&t| s.tables[t].clone()).collect();
    chart
        .configure_mesh()
        .disable_mesh()
        .x_labels(n)
        .y_labels(n)
        .x_desc("rank")
        .x_label_formatter(&|x| match x {
            SegmentValue::CenterOf(k) => format!("#{}", k + 1),
            _ => String::new(),
        })
        .y_label_formatter(&|y| match y {
            // Row y from the bottom holds the table placed n − y.
            SegmentValue::CenterOf(y) => (n - 1)
                .checked_sub(*y)
                .and_then(|i| names.get(i))
                .cloned()
                .unwrap_or_default(),
            _ => String::new(),
        })
        .draw()
        .map_err(|e| draw_err(path, e))?;
    let centred = Pos::new(HPos::Center, VPos::Center);
    for (row, &t) in order.iter().enumerate() {
        for k in 0..n {
            let p = s.rank_probs[t][k];
            let y = n - 1 - row;
            let shade = (255.0 * (1.0 - p)).round() as u8;
            chart
                .draw_series(std::iter::once(Rectangle::new(
                    [
                        (SegmentValue::Exact(k), SegmentValue::Exact(y)),
                        (SegmentValue::Exact(k + 1), SegmentValue::Exact(y + 1)),
                    ],
                    RGBColor(shade, shade, 255).filled(),
                )))
                .map_err(|e| draw_err(path, e))?;
            let colour = if p > 0.55 { WHITE } else { BLACK };
            chart
                .draw_series(std::iter::once(Text::new(
                    format!("{p:.2}"),
                    (SegmentValue::CenterOf(k), SegmentValue::CenterOf(y)),
                    ("sans-serif", 16).into_font().color(&colour).pos(centred),
                )))
                .map_err(|e| draw_err(path, e))?;
        }
    }
    root.present().map_err(|e| draw_err(path, e))?;
    Ok(())
}

/// Line plot: for each series (label, points (x, y)), y against x.
pub fn lines(
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[(String, Vec<(f64, f64)>)],
    y_range: (f64, f64),
    path: &Path,
) -> Result<(), PlotError> {
    ensure_font()?;
    let root = BitMapBackend::new(path, (900, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| draw_err(path, e))?;
    let x_max = series
        .iter()
        .flat_map(|(_, p)| p.iter().map(|q| q.0))
        .fold(1.0, f64::max);
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..x_max * 1.02, y_range.0..y_range.1)
        .map_err(|e| draw_err(path, e))?;
    chart
        .configure_mesh()
        .x_desc(x_desc)
        .y_desc(y_desc)
        .draw()
        .map_err(|e| draw_err(path, e))?;
    for (i, (label, pts)) in series.iter().enumerate() {
        let colour = Palette99::pick(i).to_rgba();
        chart
            .draw_series(LineSeries::new(pts.iter().copied(), colour.stroke_width(2)))
            .map_err(|e| draw_err(path, e))?
            .label(label.clone())
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], colour.stroke_width(2))
            });
        chart
            .draw_series(pts.iter().map(|&p| Circle::new(p, 3, colour.filled())))
            .map_err(|e| draw_err(path, e))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .position(SeriesLabelPosition::LowerRight)
        .draw()
        .map_err(|e| draw_err(path, e))?;
    root.present().map_err(|e| draw_err(path, e))?;
    Ok(())
}

/// A histogram-like scatter of GDI vectors: g2 against g1, coloured by g3 bands, with a centre.
pub fn gdi_scatter(
    points: &[Vec<f64>],
    centre: &[f64],
    eps: f64,
    title: &str,
    path: &Path,
) -> Result<(), PlotError> {
    ensure_font()?;
    let root = BitMapBackend::new(path, (760, 700)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| draw_err(path, e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 20))
        .margin(15)
        .x_label_area_size(45)
        .y_label_area_size(55)
        .build_cartesian_2d(-0.02f64..1.02, -0.02f64..1.02)
        .map_err(|e| draw_err(path, e))?;
    chart
        .configure_mesh()
        .x_desc("g1 (reach level 2 or higher)")
        .y_desc("g2 (landlord wins)")
        .draw()
        .map_err(|e| draw_err(path, e))?;
    chart
        .draw_series(points.iter().filter(|g| g.len() >= 2).map(|g| {
            let g3 = g.get(2).copied().unwrap_or(0.0);
            let c = RGBColor((255.0 * g3) as u8, 60, (255.0 * (1.0 - g3)) as u8).mix(0.35);
            Circle::new((g[0], g[1]), 2, c.filled())
        }))
        .map_err(|e| draw_err(path, e))?;
    if centre.len() >= 2 {
        chart
            .draw_series(std::iter::once(Circle::new(
                (centre[0], centre[1]),
                6,
                BLACK.filled(),
            )))
            .map_err(|e| draw_err(path, e))?;
        let ring: Vec<(f64, f64)> = (0..=64)
            .map(|i| {
                let a = i as f64 / 64.0 * std::f64::consts::TAU;
                (centre[0] + eps * a.cos(), centre[1] + eps * a.sin())
            })
            .collect();
        chart
            .draw_series(LineSeries::new(ring, BLACK.stroke_width(2)))
            .map_err(|e| draw_err(path, e))?;
    }
    root.present().map_err(|e| draw_err(path, e))?;
    Ok(())
}
