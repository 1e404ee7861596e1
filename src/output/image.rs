//! A small RGB canvas written as PNG: enough for period maps, no plotting library needed.

use std::fs::File;
use std::io::{self, BufWriter};
use std::path::Path;

pub type Rgb = [u8; 3];

pub const WHITE: Rgb = [255, 255, 255];

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

    /// Paints the `size` x `size` square with top-left corner `(x, y)`.
    pub fn square(&mut self, x: usize, y: usize, size: usize, color: Rgb) {
        for dy in 0..size {
            for dx in 0..size {
                self.set(x + dx, y + dy, color);
            }
        }
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
}
