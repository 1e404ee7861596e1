//! `nimseq kcross ...` as a user runs it.

use crate::common::nimseq;

#[test]
fn value_and_winning_moves() {
    let o = nimseq()
        .args(["kcross", "value", "[1X3]", "--k", "3"])
        .output()
        .unwrap();
    assert!(o.status.success());
    let text = String::from_utf8_lossy(&o.stdout);
    // The paper's Table 5.1: G([1X3]) = 3.
    assert!(text.contains("value        3"), "{text}");
    assert!(text.contains("winning      [XX3] [1X1X1]"), "{text}");
    assert!(text.contains("components   (0,1,0,0,0) = 3"), "{text}");
    let o = nimseq()
        .args(["kcross", "value", "(21)", "--k", "3"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&o.stdout).contains("value        0"));
}

#[test]
fn bad_boards_get_one_line_and_exit_code_2() {
    for args in [
        &["kcross", "value", "[3X", "--k", "3"][..],
        &["kcross", "value", "[2Y4]", "--k", "3"],
        &["kcross", "value", "[X-1]", "--k", "3"],
        &["kcross", "value", "[XXX2]", "--k", "3"],
        &["kcross", "value", "[5]", "--k", "1"],
        &["kcross", "value", "[50]", "--k", "3"],
    ] {
        let o = nimseq().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    }
}
