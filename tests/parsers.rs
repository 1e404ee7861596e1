//! Every parser of user input, fed random and adversarial strings (a fresh seed each run):
//! each input parses or is refused with a message, none panics, none takes long (a parser
//! that allocated by the size it reads would).

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::{Duration, Instant};

use nimseq::arrows::Tree;
use nimseq::kcross::Board;
use nimseq::kcross::board::parse_k;
use nimseq::memory::parse_bytes;
use nimseq::output::scan::Shard;
use nimseq::subtraction::Ruleset;
use nimseq::subtraction::theory::base::parse_pair;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::common::fresh_seed;

/// A parser, reduced to "parsed" or "refused with a non-empty message".
type Parser = fn(&str) -> Result<(), String>;

fn message<T, E: ToString>(r: Result<T, E>) -> Result<(), String> {
    r.map(drop).map_err(|e| e.to_string())
}

const PARSERS: [(&str, Parser); 7] = [
    ("subtraction set", |s| message(s.parse::<Ruleset>())),
    ("k-cross board", |s| message(s.parse::<Board>())),
    ("k", |s| message(parse_k(s))),
    ("tree", |s| message(s.parse::<Tree>())),
    ("size", |s| message(parse_bytes(s))),
    ("shard", |s| message(s.parse::<Shard>())),
    ("base pair", |s| message(parse_pair(s))),
];

/// Pieces the formats are made of, and numbers at every edge of every integer type.
const PIECES: &[&str] = &[
    "0",
    "1",
    "2",
    "3",
    "7",
    "9",
    "10",
    "63",
    "64",
    "65",
    "255",
    "256",
    "4096",
    "4097",
    "65535",
    "65536",
    "65537",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "18446744073709551616",
    "99999999999999999999999",
    "1e9",
    "1.5",
    "-1",
    "-0",
    "+3",
    "NaN",
    "inf",
    ",",
    ",,",
    "-",
    "--",
    ":",
    "/",
    "|",
    "[",
    "]",
    "(",
    ")",
    "X",
    "x",
    "XX",
    " ",
    "\t",
    "path:",
    "spider:",
    "H:",
    "parents:",
    "G",
    "K",
    "M",
    "T",
    "GiB",
    "Q",
    "é",
    "∞",
    "\u{0}",
];

/// A random string: pieces glued together, or random characters.
fn random_input(rng: &mut StdRng) -> String {
    let parts = rng.random_range(0..12);
    if rng.random_bool(0.2) {
        return (0..parts * 3)
            .map(|_| char::from(rng.random_range(32u8..127)))
            .collect();
    }
    (0..parts)
        .map(|_| PIECES[rng.random_range(0..PIECES.len())])
        .collect()
}

/// Inputs built to hurt: huge counts, long lists, deep repetition.
fn adversarial() -> Vec<String> {
    let mut out: Vec<String> = [
        "path:18446744073709551615",
        "path:100000000000",
        "spider:1,1,3000000000",
        "spider:18446744073709551615,18446744073709551615,1",
        "H:18446744073709551615,1/1/1,1",
        "0-18446744073709551615",
        "parents:18446744073709551615",
        "[18446744073709551615]",
        "(99999999999999999999)",
        "[4096X]",
        "18446744073709551615,1",
        "1,18446744073709551615",
        "16E",
        "1e300G",
        "18446744073709551615T",
        "1/18446744073709551615",
        "18446744073709551615/18446744073709551615",
        "",
        " ",
    ]
    .map(String::from)
    .to_vec();
    out.push(format!("[{}]", "X".repeat(5000)));
    out.push(format!("[{}]", "1X".repeat(3000)));
    out.push(format!("parents:{}", vec!["0"; 70_000].join(",")));
    out.push(
        (0..70_000)
            .map(|v| format!("{v}-{}", v + 1))
            .collect::<Vec<_>>()
            .join(","),
    );
    out.push(format!("spider:{}", ["30000"; 3].join(",")));
    out.push(
        (1..5000)
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(","),
    );
    out.push(format!("1,{}", "0".repeat(10_000)));
    out
}

fn every_parser_answers_every_input() {
    let seed = fresh_seed();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut inputs = adversarial();
    inputs.extend((0..4000).map(|_| random_input(&mut rng)));
    let mut tried = 0;
    for (name, parse) in PARSERS {
        for input in &inputs {
            let start = Instant::now();
            let answer = catch_unwind(AssertUnwindSafe(|| parse(input)));
            let took = start.elapsed();
            match answer {
                Err(_) => panic!("the {name} parser panicked on {input:?} (seed {seed})"),
                Ok(Err(why)) => assert!(!why.is_empty(), "{name}: no message for {input:?}"),
                Ok(Ok(())) => {}
            }
            assert!(
                took < Duration::from_secs(1),
                "the {name} parser took {took:?} on {} bytes (seed {seed})",
                input.len()
            );
            tried += 1;
        }
    }
    eprintln!(
        "parsers: {tried} inputs tried ({} each over {} parsers, seed {seed}), every one parsed or refused",
        inputs.len(),
        PARSERS.len()
    );
}

trials!(every_parser_answers_every_input);
