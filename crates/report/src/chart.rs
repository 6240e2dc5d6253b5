//! Charts of the run over time, as SVG drawn by `plotters`: states and findings, and
//! JavaScript blocks covered.

use curio_record::ProgressPoint;
use plotters::prelude::*;

/// One line of a chart: its name, colour and (seconds, value) points.
type Series = (&'static str, RGBColor, Vec<(f64, f64)>);

/// The charts of the run's progress; none when fewer than two points were recorded.
pub(crate) fn progress_charts(progress: &[ProgressPoint]) -> Vec<String> {
    if progress.len() < 2 {
        return Vec::new();
    }
    let at = |f: fn(&ProgressPoint) -> u32| -> Vec<(f64, f64)> {
        progress
            .iter()
            .map(|p| (p.elapsed_ms as f64 / 1000.0, f64::from(f(p))))
            .collect()
    };
    let exploration = [
        ("states", BLUE, at(|p| p.states)),
        ("findings", RED, at(|p| p.findings)),
    ];
    let coverage = [
        ("JS blocks covered", GREEN, at(|p| p.covered_blocks)),
        (
            "JS blocks known",
            RGBColor(150, 150, 150),
            at(|p| p.total_blocks),
        ),
    ];
    [
        line_chart("States and findings over time", &exploration),
        line_chart("JavaScript coverage over time", &coverage),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// A line chart as an SVG element; `None` if plotters fails to draw it (the report
/// then goes without it).
fn line_chart(caption: &str, series: &[Series]) -> Option<String> {
    let mut svg = String::new();
    draw(&mut svg, caption, series).ok()?;
    // Inlined in HTML: no XML prolog.
    let start = svg.find("<svg")?;
    Some(svg.split_off(start))
}

fn draw(
    out: &mut String,
    caption: &str,
    series: &[Series],
) -> Result<(), Box<dyn std::error::Error>> {
    let root = SVGBackend::with_string(out, (560, 300)).into_drawing_area();
    root.fill(&WHITE)?;
    let points = || series.iter().flat_map(|(_, _, p)| p.iter());
    let x_max = points().map(|p| p.0).fold(1.0, f64::max);
    let y_max = points().map(|p| p.1).fold(1.0, f64::max);
    let mut chart = ChartBuilder::on(&root)
        .caption(caption, ("sans-serif", 16))
        .margin(10)
        .x_label_area_size(35)
        .y_label_area_size(45)
        .build_cartesian_2d(0.0..x_max, 0.0..y_max * 1.05)?;
    chart
        .configure_mesh()
        .x_desc("seconds")
        .label_style(("sans-serif", 12))
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()?;
    for (name, color, points) in series {
        let color = *color;
        chart
            .draw_series(LineSeries::new(
                points.iter().copied(),
                color.stroke_width(2),
            ))?
            .label(*name)
            .legend(move |(x, y)| {
                PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2))
            });
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperLeft)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .label_font(("sans-serif", 12))
        .draw()?;
    root.present()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_charts_from_two_points_or_more() {
        let point = |s: u64, states| ProgressPoint {
            elapsed_ms: s * 1000,
            steps: 0,
            states,
            findings: 1,
            covered_blocks: 10,
            total_blocks: 40,
        };
        assert!(progress_charts(&[point(0, 1)]).is_empty());
        let charts = progress_charts(&[point(0, 1), point(5, 4), point(10, 9)]);
        assert_eq!(charts.len(), 2);
        for chart in &charts {
            assert!(chart.starts_with("<svg"), "{chart}");
            assert!(
                chart.contains("<polyline") || chart.contains("<path"),
                "{chart}"
            );
        }
        assert!(charts[0].contains("findings"));
    }
}
