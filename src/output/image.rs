//! A small RGB canvas written as PNG, with lines and 8x8 bitmap text (font8x8): enough for
//! period maps with axes and a legend ([`super::chart`]), no plotting library needed.

use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;

use font8x8::UnicodeFonts;

pub type Rgb = [u8; 3];

pub const WHITE: Rgb = [255, 255, 255];
pub const BLACK: Rgb = [0, 0, 0];

/// Pixels a character takes across and down at scale 1.
pub const GLYPH: usize = 8;

/// Pixels row by row, `(0, 0)` top left.
pub struct Canvas {
    pub width: usize,
    pub height: usize,
    pixels: Vec<Rgb>,
}

impl Canvas {
    pub fn new(width: usize, height: usize) -> Self {
        Canvas {
            width,
            height,
            pixels: vec![WHITE; width * height],
        }
    }

    /// Paints `(x, y)`; points outside the canvas are ignored.
    pub fn set(&mut self, x: usize, y: usize, color: Rgb) {
        if x < self.width && y < self.height {
            self.pixels[y * self.width + x] = color;
        }
    }

    /// The colour at `(x, y)`.
    pub fn get(&self, x: usize, y: usize) -> Rgb {
        self.pixels[y * self.width + x]
    }

    /// Paints the rectangle `[x, x + w) x [y, y + h)`.
    pub fn fill(&mut self, x: usize, y: usize, w: usize, h: usize, color: Rgb) {
        for dy in 0..h {
            for dx in 0..w {
                self.set(x + dx, y + dy, color);
            }
        }
    }

    /// Writes `text` with its top-left corner at `(x, y)`, each glyph pixel `scale` pixels
    /// wide; a character the font lacks is left blank.
    pub fn text(&mut self, x: usize, y: usize, text: &str, scale: usize, color: Rgb) {
        for (i, ch) in text.chars().enumerate() {
            let Some(rows) = font8x8::BASIC_FONTS.get(ch) else {
                continue;
            };
            let left = x + i * GLYPH * scale;
            for (row, bits) in rows.iter().enumerate() {
                for col in 0..GLYPH {
                    if bits >> col & 1 == 1 {
                        self.fill(left + col * scale, y + row * scale, scale, scale, color);
                    }
                }
            }
        }
    }

    /// Writes `text` upwards (rotated a quarter turn anticlockwise), its baseline on the left
    /// and its start at the bottom `(x, y)`: for a vertical axis' label.
    pub fn text_up(&mut self, x: usize, y: usize, text: &str, scale: usize, color: Rgb) {
        for (i, ch) in text.chars().enumerate() {
            let Some(rows) = font8x8::BASIC_FONTS.get(ch) else {
                continue;
            };
            let bottom = y.saturating_sub(i * GLYPH * scale);
            for (row, bits) in rows.iter().enumerate() {
                for col in 0..GLYPH {
                    if bits >> col & 1 == 1 {
                        let (px, py) = (x + row * scale, bottom.saturating_sub((col + 1) * scale));
                        self.fill(px, py, scale, scale, color);
                    }
                }
            }
        }
    }

    /// Width in pixels of `text` at `scale`.
    pub fn text_width(text: &str, scale: usize) -> usize {
        text.chars().count() * GLYPH * scale
    }

    pub fn write_png(&self, path: &Path) -> io::Result<()> {
        let file = BufWriter::new(File::create(path)?);
        let mut encoder = png::Encoder::new(file, self.width as u32, self.height as u32);
        encoder.set_color(png::ColorType::Rgb);
        encoder.set_depth(png::BitDepth::Eight);
        let mut writer = encoder.write_header().map_err(io::Error::other)?;
        writer
            .write_image_data(self.pixels.as_flattened())
            .map_err(io::Error::other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_a_png_that_decodes() {
        let mut canvas = Canvas::new(4, 3);
        canvas.set(1, 2, [10, 20, 30]);
        canvas.set(9, 9, [1, 1, 1]);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.png");
        canvas.write_png(&path).unwrap();
        let decoder = png::Decoder::new(io::BufReader::new(File::open(&path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (4, 3));
        assert_eq!(&buf[(2 * 4 + 1) * 3..(2 * 4 + 1) * 3 + 3], &[10, 20, 30]);
        assert_eq!(&buf[..3], &WHITE);
    }

    #[test]
    fn text_draws_the_fonts_glyphs() {
        let mut canvas = Canvas::new(20, 10);
        canvas.text(1, 1, "1", 1, BLACK);
        let inked = canvas.pixels.iter().filter(|&&p| p == BLACK).count();
        let glyph = font8x8::BASIC_FONTS.get('1').unwrap();
        let bits: u32 = glyph.iter().map(|b| b.count_ones()).sum();
        assert_eq!(inked, bits as usize);
        assert_eq!(Canvas::text_width("ab", 2), 32);
    }
}
