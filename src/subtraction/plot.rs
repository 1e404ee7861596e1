//! Pictures of period structure: the period-class map of a slice `a` fixed, the paper's Figure 3
//! view, and the circle of `Z/(a+b)Z` for `nimseq sub theta --out`.
//!
//! Colours (as in the paper's Figure 3): blue `p = a+b`, orange `p = c+a`, green `p = c+b`,
//! purple another purely periodic `p`; pre-periodic rulesets in grey, darker for longer
//! pre-periods (log scale).

use std::f64::consts::TAU;

use super::gpu::long_cap;
use super::lanes::solve_sets;
use super::moveset::{MoveSet, SetFilter, Triple};
use super::solution::{NotCertified, Solution};
use super::theory::predict::{ThetaReport, Zone};
use crate::memory::Budget;
use crate::output::chart::{self, Axis, Chart, Entry};
use crate::output::image::{BLACK, Canvas, Rgb, WHITE};

pub const A_PLUS_B: Rgb = [31, 119, 180];
pub const C_PLUS_A: Rgb = [255, 127, 14];
pub const C_PLUS_B: Rgb = [44, 160, 44];
pub const OTHER: Rgb = [148, 103, 189];

/// Grey of a middling pre-period, for the legend.
const PREPERIODIC: Rgb = [128, 128, 128];

/// What each colour of a period map means.
const LEGEND: [Entry<'static>; 5] = [
    (A_PLUS_B, "p = a+b"),
    (C_PLUS_A, "p = c+a"),
    (C_PLUS_B, "p = c+b"),
    (OTHER, "other p, q = 0"),
    (PREPERIODIC, "q > 0 (darker: longer q)"),
];

/// The colour of a computed ruleset; `q_max` scales the grey of pre-periodic ones.
fn class_color(t: Triple, s: &Solution, q_max: usize) -> Rgb {
    let (a, b, c) = (t.a as usize, t.b as usize, t.c as usize);
    match (s.preperiod, s.period) {
        (0, p) if p == a + b => A_PLUS_B,
        (0, p) if p == c + a => C_PLUS_A,
        (0, p) if p == c + b => C_PLUS_B,
        (0, _) => OTHER,
        (q, _) => {
            let shade = (q as f64).ln_1p() / (q_max as f64).ln_1p().max(1.0);
            let v = (215.0 - 175.0 * shade) as u8;
            [v, v, v]
        }
    }
}

fn solve(triples: &[Triple]) -> Result<Vec<Solution>, NotCertified> {
    let sets: Vec<MoveSet> = triples.iter().map(|&t| t.into()).collect();
    // At most c = 2000 here: a few MiB a thread.
    solve_sets(&sets, long_cap, Budget::from_flag(None))
}

/// A square chart with the period classes' legend.
fn classes_chart(title: &str, x: Axis, y: Axis, size: usize) -> Chart {
    Chart::new(title, x, y, size, size, &LEGEND)
}

/// The slice `a` fixed: `b` to the right, `c` upwards, one cell per ruleset.
pub fn period_map(a: u32, c_max: u32) -> Result<Canvas, NotCertified> {
    let filter = SetFilter {
        a_min: a,
        a_max: Some(a),
        ..SetFilter::up_to(c_max)
    };
    let triples: Vec<Triple> = filter.triples().collect();
    let solutions = solve(&triples)?;
    let q_max = solutions.iter().map(|s| s.preperiod).max().unwrap_or(0);
    let span = (c_max - a) as usize;
    let scale = (800 / span.max(1)).clamp(1, 8);
    // Cell b covers [b, b + 1) across, cell c [c, c + 1) upwards.
    let (low, high) = (f64::from(a + 1), f64::from(c_max + 1));
    let mut chart = classes_chart(
        &format!("Period classes of {{{a},b,c}}, c <= {c_max}"),
        Axis {
            label: "b".into(),
            min: low,
            max: high,
        },
        Axis {
            label: "c".into(),
            min: low,
            max: high,
        },
        span * scale,
    );
    for (t, s) in triples.iter().zip(&solutions) {
        let (b, c) = (f64::from(t.b), f64::from(t.c));
        chart.cell(b, c, b + 1.0, c + 1.0, class_color(*t, s, q_max));
    }
    Ok(chart.canvas)
}

/// The paper's Figure 3: every primitive non-additive triple with `a >= 2`, `c <= c_max`, at
/// `x = rho / (a+b)` (right) and `t = a / b` (up), coloured by its computed class.
pub fn figure3(c_max: u32) -> Result<Canvas, NotCertified> {
    let filter = SetFilter {
        a_min: 2,
        primitive: true,
        ..SetFilter::up_to(c_max)
    };
    let triples: Vec<Triple> = filter.triples().filter(|t| t.c != t.a + t.b).collect();
    let solutions = solve(&triples)?;
    let q_max = solutions.iter().map(|s| s.preperiod).max().unwrap_or(0);
    let mut chart = classes_chart(
        &format!("Primitive non-additive {{a,b,c}}, 2 <= a, c <= {c_max}"),
        Axis {
            label: "x = rho / (a+b), rho = c mod (a+b)".into(),
            min: 0.0,
            max: 1.0,
        },
        Axis {
            label: "t = a / b".into(),
            min: 0.0,
            max: 1.0,
        },
        800,
    );
    for (t, s) in triples.iter().zip(&solutions) {
        let x = f64::from(t.c % (t.a + t.b)) / f64::from(t.a + t.b);
        let up = f64::from(t.a) / f64::from(t.b);
        chart.dot(x, up, 2, class_color(*t, s, q_max));
    }
    Ok(chart.canvas)
}

/// The circle `Z/(a+b)Z`, angle 0 at the top, clockwise: the inner ring dark on `Z`, the outer
/// ring coloured by each angle's zone (grey: uncovered, white: no primitive ruleset there).
pub fn circle(report: &ThetaReport) -> Canvas {
    const Z_IN: Rgb = [60, 60, 60];
    const Z_OUT: Rgb = [225, 225, 225];
    const UNCOVERED: Rgb = [160, 160, 160];
    let legend: [Entry<'_>; 6] = [
        (Z_IN, "inner ring: rho in Z"),
        (A_PLUS_B, "outer: p = a+b"),
        (C_PLUS_A, "outer: p = c+a"),
        (C_PLUS_B, "outer: p = c+b"),
        (UNCOVERED, "outer: uncovered"),
        (WHITE, "outer: no primitive c"),
    ];
    let (a, b) = (report.a, report.b);
    let title = format!("({a},{b}): rho = c mod {}, clockwise from the top", a + b);
    let size = 600;
    let top = chart::TITLE_HEIGHT;
    let width = (size + chart::legend_width(&legend) + 16).max(chart::title_width(&title));
    let height = top + size.max(chart::legend_height(&legend));
    let centre = size as f64 / 2.0;
    let n = report.zones.len();
    let mut canvas = Canvas::new(width, height);
    chart::draw_title(&mut canvas, width / 2, &title);
    for y in 0..size {
        for x in 0..size {
            let (dx, dy) = (x as f64 + 0.5 - centre, y as f64 + 0.5 - centre);
            let r = dx.hypot(dy);
            // Clockwise from the top, in turns.
            let turn = (dx.atan2(-dy) / TAU).rem_euclid(1.0);
            let rho = ((turn * n as f64) as usize).min(n - 1);
            // A thin white spoke between angles keeps them apart.
            let edge = (turn * n as f64).fract() < 0.04;
            let color = if (170.0..220.0).contains(&r) {
                if report.z.contains(&rho) { Z_IN } else { Z_OUT }
            } else if (230.0..280.0).contains(&r) {
                match report.zones[rho] {
                    _ if !report.primitive_at(rho) => WHITE,
                    Some(Zone::APlusB) => A_PLUS_B,
                    Some(Zone::CPlusA) => C_PLUS_A,
                    Some(Zone::CPlusB) => C_PLUS_B,
                    None => UNCOVERED,
                }
            } else {
                continue;
            };
            canvas.set(x, top + y, if edge { WHITE } else { color });
        }
    }
    // Each angle's number inside the inner ring (every few, when there are many).
    let every = n.div_ceil(40);
    for rho in (0..n).step_by(every) {
        let turn = (rho as f64 + 0.5) / n as f64 * TAU;
        let text = rho.to_string();
        let (x, y) = (centre + 150.0 * turn.sin(), centre - 150.0 * turn.cos());
        let half = Canvas::text_width(&text, 1) as f64 / 2.0;
        canvas.text(
            (x - half) as usize,
            top + (y - 4.0) as usize,
            &text,
            1,
            BLACK,
        );
    }
    chart::draw_legend(&mut canvas, size + 8, top + 8, &legend);
    canvas
}
