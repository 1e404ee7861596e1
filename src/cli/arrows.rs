//! `nimseq arrows`: the Game of Arrows on trees.

use std::io::{self, Write};

use anyhow::Result;

use super::arrows_args::{ArrowsCensusArgs, ArrowsCommand, ArrowsSpidersArgs};
use super::backend::choose_for_checkpoint;
use super::flags::{CpuChoice, SeriesLayout, TableFormat};
use super::print;
use nimseq::InputError;
use nimseq::arrows::census::{self, Valuer, census, count_trees};
use nimseq::arrows::forest::NormalForm;
use nimseq::arrows::spider::{self, SpiderTable, family, family_behaviour, on_deep_stack};
use nimseq::arrows::spider_gpu::{SpiderFill, SpiderGpu};
use nimseq::arrows::value::{Solver, describe_with_bar};
use nimseq::backend::Chosen;

pub fn run(command: ArrowsCommand) -> Result<()> {
    match command {
        ArrowsCommand::Census(args) => census_command(args),
        ArrowsCommand::Family(args) => {
            let (x, y, z) = (args.x as usize, args.y as usize, args.z_max as usize);
            spider::check_family(x, y, z, args.memory.budget())?;
            // The recursion follows the long leg down.
            let values = on_deep_stack(x + y + z, move || family(x, y, z));
            let mut out = io::BufWriter::new(io::stdout().lock());
            writeln!(out, "z,g")?;
            for (i, g) in values.iter().enumerate() {
                writeln!(out, "{},{g}", i + 1)?;
            }
            out.flush()?;
            eprintln!("S({x},{y},z): {}", family_behaviour(&values));
            Ok(())
        }
        ArrowsCommand::Spiders(args) => spiders(args),
        ArrowsCommand::Value(args) => {
            let reference = args.backend == CpuChoice::Reference;
            let solver = Solver::for_tree(&args.tree, reference, args.memory.budget())?;
            let report = describe_with_bar(&args.tree, solver, None)?;
            print::report(&report, args.format)
        }
    }
}

fn spiders(args: ArrowsSpidersArgs) -> Result<()> {
    let (legs, h) = (args.legs as usize, args.leg_max as usize);
    spider::check_table(legs, h, args.memory.budget())?;
    let chosen = choose_for_checkpoint(args.backend, &args.checkpoint)?.announce();
    let kernel = chosen.gpu().map(SpiderGpu::new).transpose()?;
    let fill = match (&kernel, &chosen) {
        (Some(kernel), _) => SpiderFill::Gpu(kernel),
        (None, Chosen::Reference) => SpiderFill::Recursion,
        (None, _) => SpiderFill::Cpu,
    };
    let saving = args.checkpoint.saving();
    let bar = nimseq::output::progress_bar(SpiderTable::tuples(legs, h), "leg tuples");
    let start = std::time::Instant::now();
    let spiders = fill.spiders(legs, h, saving, |done| bar.inc(done))?;
    bar.finish_and_clear();
    if let Some(plan) = &spiders.device {
        eprintln!("{plan}");
    }
    let mut out = io::BufWriter::new(io::stdout().lock());
    let header: Vec<String> = (1..=legs).map(|t| format!("x{t}")).collect();
    writeln!(out, "{},g", header.join(","))?;
    let summary = spider::summarise(legs, h, &spiders.values, |x, g| {
        for leg in x {
            write!(out, "{leg},")?;
        }
        writeln!(out, "{g}")
    })?;
    out.flush()?;
    args.checkpoint.done()?;
    eprint!("{summary}");
    eprintln!("time         {:.1} s", start.elapsed().as_secs_f64());
    Ok(())
}

fn census_command(args: ArrowsCensusArgs) -> Result<()> {
    let budget = args.memory.budget();
    let mut memo = NormalForm::default();
    let mut valuer = match args.backend {
        // Each tree's raw-rules memo gets a share of the budget per thread.
        CpuChoice::Reference => Valuer::Raw {
            budget: budget.share(rayon::current_num_threads() as u64),
        },
        CpuChoice::Cpu | CpuChoice::Auto => Valuer::NormalForm(&mut memo),
    };
    let mut rows = Vec::new();
    let sizes = 1..=args.n_max as usize;
    let total = sizes
        .clone()
        .map(|n| count_trees(n).unwrap_or(u64::MAX))
        .sum();
    let bar = nimseq::output::progress_bar(total, "trees");
    for n in sizes {
        bar.set_message(format!("n = {n}"));
        let row = census(n, &mut valuer, args.list_violators, budget, |done| {
            bar.inc(done)
        })
        .map_err(|e| InputError(format!("{e}; lower --n-max or raise --mem-budget")))?;
        rows.push(row);
    }
    bar.finish_and_clear();
    let mut out = io::BufWriter::new(io::stdout().lock());
    match args.format {
        TableFormat::Json => {
            serde_json::to_writer(&mut out, &serde_json::json!({ "rows": rows }))?;
            writeln!(out)?;
        }
        TableFormat::Csv => {
            match args.layout {
                SeriesLayout::Long => census::write_csv(&rows, &mut out)?,
                SeriesLayout::Table => census::write_table_csv(&rows, &mut out)?,
            }
            out.flush()?;
            for r in rows.iter().filter(|r| !r.violator_trees.is_empty()) {
                for t in &r.violator_trees {
                    eprintln!("violator n = {}: {t}", r.n);
                }
            }
        }
    }
    for (g, n, tree) in census::smallest_of_each_value(&rows) {
        eprintln!("g = {g} first at n = {n}: {tree}");
    }
    if let Valuer::NormalForm(memo) = valuer {
        eprintln!("distinct components valued: {}", memo.len());
    }
    Ok(())
}
