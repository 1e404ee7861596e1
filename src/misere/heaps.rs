//! What every misère report shows of its heaps: the misère values, the misère P-positions and
//! the genera, in JSON fields and text lines of their own.

use std::fmt;

use serde::Serialize;

use super::genus::Genus;
use crate::output::values_word;

/// Longest genus list printed in full in a text report (JSON always has all of it).
const GENERA_SHOWN: usize = 200;

/// The heaps `0..len` of one game under misère play.
#[derive(Clone, Debug, Serialize)]
pub struct MisereHeaps {
    /// Always `"misere"`: which play the values are for.
    pub play: &'static str,
    /// Normal-play values `G+(0), ..., G+(len - 1)` (each genus's base).
    pub values: Vec<u32>,
    /// Misère values `G-(0), ..., G-(len - 1)`.
    pub misere_values: Vec<u32>,
    /// Misère P-positions (`G- = 0`) among them.
    pub p_positions: Vec<usize>,
    /// Each heap's genus in CGSuite's notation.
    pub genus: Vec<String>,
    /// The heaps `p_positions` covers: those of the values, or more where the outcomes come
    /// from elsewhere ([`Self::outcomes_to`]).
    #[serde(skip)]
    outcomes_len: usize,
}

impl MisereHeaps {
    /// The heaps whose genera are `genera`, from heap 0.
    pub fn new(genera: &[Genus]) -> Self {
        let misere_values: Vec<u32> = genera.iter().map(Genus::minus).collect();
        MisereHeaps {
            play: "misere",
            values: genera.iter().map(Genus::plus).collect(),
            p_positions: (0..genera.len())
                .filter(|&x| misere_values[x] == 0)
                .collect(),
            genus: genera.iter().map(Genus::to_string).collect(),
            misere_values,
            outcomes_len: genera.len(),
        }
    }

    /// The misère P-positions below `len`, found past the genera by other means (the misère
    /// quotient), in place of those of the genera.
    pub fn outcomes_to(&mut self, p_positions: Vec<usize>, len: usize) {
        self.p_positions = p_positions;
        self.outcomes_len = len;
    }
}

/// The `play`, `values`, `P-positions` and `genus` lines, each ending in a newline.
impl fmt::Display for MisereHeaps {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.misere_values.len();
        writeln!(
            f,
            "play         misère (the player who makes the last move loses)"
        )?;
        writeln!(
            f,
            "values       G-(0..{n}) = {}",
            values_word(&self.misere_values)
        )?;
        let ps: Vec<String> = self.p_positions.iter().map(usize::to_string).collect();
        writeln!(
            f,
            "P-positions  {} (below {})",
            ps.join(" "),
            self.outcomes_len
        )?;
        let more = if n > GENERA_SHOWN { " ..." } else { "" };
        writeln!(
            f,
            "genus        {}{more}",
            self.genus[..n.min(GENERA_SHOWN)].join(" ")
        )
    }
}
