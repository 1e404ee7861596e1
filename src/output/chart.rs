//! A chart on a [`Canvas`]: a title, a plot area framed by axes with ticks and their numbers,
//! axis labels, and a legend of coloured boxes. Enough for the period maps; the data is painted
//! in data coordinates and clipped to the plot area.

use super::image::{BLACK, Canvas, GLYPH, Rgb};

/// One axis: what it shows and the data range across the plot area.
pub struct Axis {
    pub label: String,
    pub min: f64,
    pub max: f64,
}

/// A legend entry: a box of `color`, then `text`.
pub type Entry<'a> = (Rgb, &'a str);

/// The plot area's place on the canvas and the axes it maps.
pub struct Chart {
    pub canvas: Canvas,
    left: usize,
    top: usize,
    width: usize,
    height: usize,
    x: Axis,
    y: Axis,
}

const TITLE_SCALE: usize = 2;
const GAP: usize = 8;
const TICK: usize = 5;
const BOX: usize = GLYPH + 4;

impl Chart {
    /// A `width` x `height` plot area with its frame, ticks, labels, title and legend drawn.
    pub fn new(
        title: &str,
        x: Axis,
        y: Axis,
        width: usize,
        height: usize,
        legend: &[Entry<'_>],
    ) -> Self {
        let x_ticks = ticks(x.min, x.max);
        let y_ticks = ticks(y.min, y.max);
        let y_tick_chars = y_ticks.iter().map(|(_, t)| t.len()).max().unwrap_or(1);
        let left = GAP + GLYPH + GAP + y_tick_chars * GLYPH + TICK + 3;
        let top = TITLE_HEIGHT;
        let legend_width = legend_width(legend);
        let canvas_width = (left + width + 2 * GAP + legend_width + GAP).max(title_width(title));
        let canvas_height = top + height + TICK + 3 + GLYPH + GAP + GLYPH + GAP;
        let mut chart = Chart {
            canvas: Canvas::new(canvas_width, canvas_height),
            left,
            top,
            width,
            height,
            x,
            y,
        };
        chart.draw_frame(title, &x_ticks, &y_ticks);
        draw_legend(&mut chart.canvas, left + width + 2 * GAP, top, legend);
        chart
    }

    /// The pixel column of data `x`.
    fn px(&self, x: f64) -> f64 {
        self.left as f64 + (x - self.x.min) / (self.x.max - self.x.min) * self.width as f64
    }

    /// The pixel row of data `y` (upwards).
    fn py(&self, y: f64) -> f64 {
        self.top as f64 + (self.y.max - y) / (self.y.max - self.y.min) * self.height as f64
    }

    /// Paints the data rectangle `[x0, x1) x [y0, y1)`.
    pub fn cell(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, color: Rgb) {
        let (l, r) = (self.px(x0).round() as usize, self.px(x1).round() as usize);
        let (t, b) = (self.py(y1).round() as usize, self.py(y0).round() as usize);
        self.paint(l, t, r.max(l + 1) - l, b.max(t + 1) - t, color);
    }

    /// Paints a `size`-pixel dot centred on data `(x, y)`.
    pub fn dot(&mut self, x: f64, y: f64, size: usize, color: Rgb) {
        let half = size as f64 / 2.0;
        let (l, t) = ((self.px(x) - half).max(0.0), (self.py(y) - half).max(0.0));
        self.paint(l as usize, t as usize, size, size, color);
    }

    /// Fills pixels, clipped to the plot area.
    fn paint(&mut self, x: usize, y: usize, w: usize, h: usize, color: Rgb) {
        let (x0, y0) = (x.max(self.left), y.max(self.top));
        let x1 = (x + w).min(self.left + self.width);
        let y1 = (y + h).min(self.top + self.height);
        if x1 > x0 && y1 > y0 {
            self.canvas.fill(x0, y0, x1 - x0, y1 - y0, color);
        }
    }

    fn draw_frame(&mut self, title: &str, x_ticks: &[(f64, String)], y_ticks: &[(f64, String)]) {
        let (left, top, w, h) = (self.left, self.top, self.width, self.height);
        draw_title(&mut self.canvas, left + w / 2, title);
        let c = &mut self.canvas;
        // The axes just outside the plot area, so that no data covers them.
        c.fill(left - 1, top, 1, h + 1, BLACK);
        c.fill(left - 1, top + h, w + 1, 1, BLACK);
        for (v, text) in x_ticks {
            let x = self.px(*v).round() as usize;
            let c = &mut self.canvas;
            c.fill(x, top + h + 1, 1, TICK, BLACK);
            let tx = x.saturating_sub(Canvas::text_width(text, 1) / 2);
            c.text(tx, top + h + TICK + 3, text, 1, BLACK);
        }
        for (v, text) in y_ticks {
            let y = self.py(*v).round() as usize;
            let c = &mut self.canvas;
            c.fill(left - 1 - TICK, y, TICK, 1, BLACK);
            let tx = left - 1 - TICK - 2 - Canvas::text_width(text, 1);
            c.text(tx, y.saturating_sub(GLYPH / 2), text, 1, BLACK);
        }
        let c = &mut self.canvas;
        let label = &self.x.label;
        let lx = (left + w / 2).saturating_sub(Canvas::text_width(label, 1) / 2);
        c.text(lx, top + h + TICK + 3 + GLYPH + GAP, label, 1, BLACK);
        let label = &self.y.label;
        let ly = top + h / 2 + Canvas::text_width(label, 1) / 2;
        c.text_up(GAP, ly, label, 1, BLACK);
    }
}

/// Width of the legend of `entries`, in pixels.
pub fn legend_width(entries: &[Entry<'_>]) -> usize {
    let chars = entries
        .iter()
        .map(|(_, t)| t.chars().count())
        .max()
        .unwrap_or(0);
    BOX + GAP + chars * GLYPH
}

/// Height of the legend of `entries`, in pixels.
pub fn legend_height(entries: &[Entry<'_>]) -> usize {
    entries.len() * (BOX + GAP / 2)
}

/// Draws the legend with its top-left corner at `(x, y)`: a framed box of each colour, then its
/// text.
pub fn draw_legend(canvas: &mut Canvas, x: usize, y: usize, entries: &[Entry<'_>]) {
    for (i, (color, text)) in entries.iter().enumerate() {
        let row = y + i * (BOX + GAP / 2);
        canvas.fill(x, row, BOX, BOX, BLACK);
        canvas.fill(x + 1, row + 1, BOX - 2, BOX - 2, *color);
        canvas.text(x + BOX + GAP, row + (BOX - GLYPH) / 2, text, 1, BLACK);
    }
}

/// Width a title takes, with a margin on each side: a canvas at least this wide holds it.
pub fn title_width(title: &str) -> usize {
    Canvas::text_width(title, TITLE_SCALE) + 2 * GAP
}

/// Writes `title` at the top of `canvas`, centred on column `centre` as far as the canvas
/// allows.
pub fn draw_title(canvas: &mut Canvas, centre: usize, title: &str) {
    let w = Canvas::text_width(title, TITLE_SCALE);
    let x = centre
        .saturating_sub(w / 2)
        .min(canvas.width.saturating_sub(w + GAP));
    canvas.text(x, GAP, title, TITLE_SCALE, BLACK);
}

/// Room a title takes at the top of a canvas.
pub const TITLE_HEIGHT: usize = GAP + TITLE_SCALE * GLYPH + 2 * GAP;

/// Tick marks over `[min, max]`: the multiples of a step of 1, 2 or 5 times a power of ten,
/// the least such step with at most 10 steps across, each with its number written with as
/// many decimals as the step needs.
pub fn ticks(min: f64, max: f64) -> Vec<(f64, String)> {
    let span = max - min;
    if span <= 0.0 || !span.is_finite() {
        return Vec::new();
    }
    let raw = span / 8.0;
    let power = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|m| m * power)
        .find(|&s| span / s <= 10.0)
        .unwrap_or(10.0 * power);
    let decimals = if step >= 1.0 {
        0
    } else {
        (-step.log10()).ceil() as usize
    };
    let first = (min / step).ceil() as i64;
    let last = (max / step + 1e-9).floor() as i64;
    (first..=last)
        .map(|i| {
            let v = i as f64 * step;
            (v, format!("{v:.decimals$}"))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::image::WHITE;

    #[test]
    fn ticks_are_round_numbers_within_the_range() {
        let t: Vec<String> = ticks(0.0, 1.0).into_iter().map(|(_, s)| s).collect();
        assert_eq!(t.len(), 11);
        assert_eq!((t[1].as_str(), t[10].as_str()), ("0.1", "1.0"));
        let t: Vec<String> = ticks(8.0, 201.0).into_iter().map(|(_, s)| s).collect();
        assert_eq!(
            t,
            [
                "20", "40", "60", "80", "100", "120", "140", "160", "180", "200"
            ]
        );
        let t: Vec<String> = ticks(3.0, 7.0).into_iter().map(|(_, s)| s).collect();
        assert_eq!(
            t,
            [
                "3.0", "3.5", "4.0", "4.5", "5.0", "5.5", "6.0", "6.5", "7.0"
            ]
        );
        assert!(ticks(1.0, 1.0).is_empty());
    }

    #[test]
    fn a_long_title_widens_the_canvas_and_stays_on_it() {
        let axis = || Axis {
            label: "x".into(),
            min: 0.0,
            max: 1.0,
        };
        let title = "a title far wider than the small plot area under it";
        let chart = Chart::new(title, axis(), axis(), 50, 50, &[]);
        assert!(chart.canvas.width >= title_width(title));
        // Nothing of the title was cut at the right edge: its last column of ink is inside.
        let inked = |x: usize| (0..TITLE_HEIGHT).any(|y| chart.canvas.get(x, y) == BLACK);
        let last = (0..chart.canvas.width).rev().find(|&x| inked(x)).unwrap();
        assert!(last < chart.canvas.width - GAP / 2, "{last}");
    }

    #[test]
    fn data_lands_inside_the_frame() {
        let x = Axis {
            label: "x".into(),
            min: 0.0,
            max: 10.0,
        };
        let y = Axis {
            label: "y".into(),
            min: 0.0,
            max: 10.0,
        };
        let mut chart = Chart::new("t", x, y, 100, 100, &[([1, 2, 3], "one")]);
        let red = [200, 0, 0];
        chart.cell(0.0, 0.0, 1.0, 1.0, red);
        // The bottom-left cell: 10 x 10 pixels just inside the axes.
        let (l, t) = (chart.left, chart.top + 90);
        assert_eq!(chart.canvas.get(l, t), red);
        assert_eq!(chart.canvas.get(l + 9, t + 9), red);
        assert_eq!(chart.canvas.get(l + 10, t), WHITE);
        assert_eq!(chart.canvas.get(l - 1, t), BLACK);
        // Outside the range: clipped.
        chart.cell(20.0, 20.0, 30.0, 30.0, red);
        let painted = (0..chart.canvas.height)
            .flat_map(|y| (0..chart.canvas.width).map(move |x| (x, y)))
            .filter(|&(x, y)| chart.canvas.get(x, y) == red)
            .count();
        assert_eq!(painted, 100);
    }
}
