//! Every WGSL file parses and validates, so a typo fails in milliseconds, GPU or not.

/// Parses and validates `source` (named `what`) with 64-bit integers allowed.
fn validate(what: &str, source: &str) {
    let module = naga::front::wgsl::parse_str(source)
        .unwrap_or_else(|e| panic!("{what}: {}", e.emit_to_string(source)));
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::SHADER_INT64,
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("{what}: {e:?}"));
}

/// Every shader validates; those with a generated table block (k-cross, spiders) in the forms
/// the host makes: one segment and 32-bit indices, many segments with a uniform input and
/// 64-bit indices, and a table past 2^32 words.
fn every_shader_validates() {
    use nimseq::gpu::segments::TablePlan;
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "wgsl") {
            let mut source = std::fs::read_to_string(&path).unwrap();
            let what = path.display().to_string();
            // The kernels whose loops check for a cut come after loop_check.wgsl, as the host
            // builds them.
            if source.contains("ended(") && !source.contains("fn ended") {
                source = std::fs::read_to_string(dir.join("loop_check.wgsl")).unwrap() + &source;
            }
            if source.contains("// each move: begin") {
                // The subtraction kernel, as the host writes it for each move count.
                for k in 2..=7 {
                    for int64 in [false, true] {
                        let source = nimseq::subtraction::gpu::shader_source(int64, k);
                        validate(&format!("{what} ({k} moves, 64-bit {int64})"), &source);
                    }
                }
            } else if source.contains("// table: begin") {
                for plan in [
                    TablePlan::fixed(1000, 1 << 20, false, None),
                    TablePlan::fixed(1000, 32, true, Some(4096)),
                    TablePlan::fixed(20_000_000_000, 536_870_904, false, None),
                ] {
                    validate(&format!("{what} ({plan})"), &plan.shader(&source));
                }
            } else {
                validate(&what, &source);
            }
            seen += 1;
        }
    }
    assert!(seen >= 3, "shaders missing in {}", dir.display());
}

/// The subtraction shader's 64-bit form, which the host builds from the file, validates with
/// 64-bit integers (and differs from the 32-bit form); the moves block and the lines of each
/// move and pair sum are written out.
fn the_64_bit_subtraction_shader_validates() {
    use nimseq::subtraction::gpu::shader_source;
    let source = shader_source(true, 4);
    assert_ne!(source, shader_source(false, 4));
    assert!(source.contains("alias Word = u64;"));
    assert!(source.contains("alias Row = vec3<Word>;"));
    assert!(!source.contains("[_I_]") && !source.contains("each move: begin\n"));
    let module = naga::front::wgsl::parse_str(&source)
        .unwrap_or_else(|e| panic!("64-bit form: {}", e.emit_to_string(&source)));
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::SHADER_INT64,
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("64-bit form: {e:?}"));
}

trials!(
    every_shader_validates,
    the_64_bit_subtraction_shader_validates,
);
