//! Pictures of period structure: the period-class map of a slice `a` fixed, the paper's Figure 3
//! view, and the circle of `Z/(a+b)Z` for `nimseq sub theta --out`.
//!
//! Colours (as in the paper's Figure 3): blue `p = a+b`, orange `p = c+a`, green `p = c+b`,
//! purple another purely periodic `p`; pre-periodic rulesets in grey, darker for longer
//! pre-periods (log scale).

use std::f64::consts::TAU;

use super::gpu::long_cap;
use super::solution::{NotCertified, Solution};
use super::theory::predict::{ThetaReport, Zone};
use super::triple::{Triple, TripleFilter};
use super::triple_solver::solve_triples;
use crate::memory::Budget;
use crate::output::image::{Canvas, Rgb};

pub const A_PLUS_B: Rgb = [31, 119, 180];
pub const C_PLUS_A: Rgb = [255, 127, 14];
pub const C_PLUS_B: Rgb = [44, 160, 44];
pub const OTHER: Rgb = [148, 103, 189];

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
    // At most c = 2000 here: a few MiB a thread.
    solve_triples(triples, |t| long_cap(t.c), Budget::from_flag(None))
}

/// The slice `a` fixed: `b` to the right, `c` upwards, one square per ruleset.
pub fn period_map(a: u32, c_max: u32) -> Result<Canvas, NotCertified> {
    let filter = TripleFilter {
        a_min: a,
        a_max: Some(a),
        ..TripleFilter::up_to(c_max)
    };
    let triples: Vec<Triple> = filter.triples().collect();
    let solutions = solve(&triples)?;
    let q_max = solutions.iter().map(|s| s.preperiod).max().unwrap_or(0);
    let span = (c_max - a) as usize;
    let scale = (900 / span.max(1)).clamp(1, 8);
    let mut canvas = Canvas::new(span * scale, span * scale);
    for (t, s) in triples.iter().zip(&solutions) {
        let x = (t.b - a - 1) as usize * scale;
        let y = (c_max - t.c) as usize * scale;
        canvas.square(x, y, scale, class_color(*t, s, q_max));
    }
    Ok(canvas)
}

/// The paper's Figure 3: every primitive non-additive triple with `a >= 2`, `c <= c_max`, at
/// `x = rho / (a+b)` (right) and `t = a / b` (up), coloured by its computed class.
pub fn figure3(c_max: u32) -> Result<Canvas, NotCertified> {
    let filter = TripleFilter {
        a_min: 2,
        primitive: true,
        ..TripleFilter::up_to(c_max)
    };
    let triples: Vec<Triple> = filter.triples().filter(|t| t.c != t.a + t.b).collect();
    let solutions = solve(&triples)?;
    let q_max = solutions.iter().map(|s| s.preperiod).max().unwrap_or(0);
    let size = 800;
    let mut canvas = Canvas::new(size, size);
    for (t, s) in triples.iter().zip(&solutions) {
        let n = (t.a + t.b) as f64;
        let x = f64::from(t.c % (t.a + t.b)) / n;
        let up = f64::from(t.a) / f64::from(t.b);
        let (px, py) = (
            (x * size as f64) as usize,
            ((1.0 - up) * size as f64) as usize,
        );
        canvas.square(px, py, 2, class_color(*t, s, q_max));
    }
    Ok(canvas)
}

/// The circle `Z/(a+b)Z`, angle 0 at the top, clockwise: the inner ring dark on `Z`, the outer
/// ring coloured by each angle's zone (grey: uncovered, white: no primitive ruleset there).
pub fn circle(report: &ThetaReport) -> Canvas {
    let size = 600;
    let centre = size as f64 / 2.0;
    let n = report.zones.len();
    let mut canvas = Canvas::new(size, size);
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
                if report.z.contains(&rho) {
                    [60, 60, 60]
                } else {
                    [225, 225, 225]
                }
            } else if (230.0..280.0).contains(&r) {
                match report.zones[rho] {
                    _ if !report.primitive_at(rho) => [255, 255, 255],
                    Some(Zone::APlusB) => A_PLUS_B,
                    Some(Zone::CPlusA) => C_PLUS_A,
                    Some(Zone::CPlusB) => C_PLUS_B,
                    None => [160, 160, 160],
                }
            } else {
                continue;
            };
            canvas.set(x, y, if edge { [255, 255, 255] } else { color });
        }
    }
    canvas
}
