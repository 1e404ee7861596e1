//! Every WGSL file parses and validates, so a typo fails in milliseconds, GPU or not.

#[test]
fn every_shader_validates() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("shaders");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "wgsl") {
            let source = std::fs::read_to_string(&path).unwrap();
            let module = naga::front::wgsl::parse_str(&source)
                .unwrap_or_else(|e| panic!("{}: {}", path.display(), e.emit_to_string(&source)));
            naga::valid::Validator::new(
                naga::valid::ValidationFlags::all(),
                naga::valid::Capabilities::empty(),
            )
            .validate(&module)
            .unwrap_or_else(|e| panic!("{}: {e:?}", path.display()));
            seen += 1;
        }
    }
    assert!(seen >= 1, "no shaders found in {}", dir.display());
}

/// The subtraction shader's 64-bit form, which the host builds from the file, validates with
/// 64-bit integers (and differs from the 32-bit form).
#[test]
fn the_64_bit_subtraction_shader_validates() {
    use nimseq::subtraction::gpu::shader_source;
    let source = shader_source(true);
    assert_ne!(source, shader_source(false));
    assert!(source.contains("alias Word = u64;"));
    let module = naga::front::wgsl::parse_str(&source)
        .unwrap_or_else(|e| panic!("64-bit form: {}", e.emit_to_string(&source)));
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::SHADER_INT64,
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("64-bit form: {e:?}"));
}
