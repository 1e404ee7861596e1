// Shared by the subtraction, k-cross and spider kernels (the host puts it before each).
//
// llvmpipe ends every loop of an invocation, silently, once all its loops together have run
// 65,535 iterations (Mesa's LP_MAX_TGSI_LOOP_ITERATIONS; measured on Mesa 22.3: one loop of
// 70,000 iterations stops at 65,535, two of 35,000 at 65,534 in all, with or without a barrier,
// for any workgroup size). A value made past that point would be wrong. So each loop checks,
// where it ends, that its own exit condition holds: one that does not was cut, and `cut` is
// reported to the host, which discards the results with an error naming the adapter.
// Hardware has no such limit: the checks never fire there.
var<private> cut: bool = false;

// Called where a loop ends, with whether its own exit condition holds.
fn ended(done: bool) {
    if !done {
        cut = true;
    }
}

// A test hook (`NIMSEQ_GPU_LOOP_SPIN`; 0, and compiled away, otherwise): each invocation first
// runs a loop of this many iterations, so that on an adapter that cuts long loops the kernel's
// own loops are cut, and the tests see the checks above catch it.
override loop_spin: u32 = 0u;

fn spin() {
    var i = 0u;
    loop {
        if i >= loop_spin {
            break;
        }
        i += 1u;
    }
    // Checked like every loop (written out, not through `ended`: the count must stay read, or
    // the compiler removes the loop, whatever `ended` does).
    cut = cut || i < loop_spin;
}
