//! Bots that repeat one wasm instruction forever, each the instruction whose host work does
//! not follow the instruction count: memory and table grows (refused, accepted and empty),
//! bulk memory and table operations (empty and at their largest), and float arithmetic on
//! subnormal numbers (slow on some CPUs). They are [`crate::hostcall_loops`]' counterparts
//! for instructions: the hostile test suite runs every one and asserts `out of fuel`, never
//! the wall-clock backstop; `koth bench hostcalls` times each against a pure-wasm loop burning
//! the same fuel (goal: at most 2×).
//!
//! Each loop checks what the instruction returned every time where it returns something (a
//! grow that should be refused and was accepted traps with `unreachable`), so a loop that
//! stopped doing the expensive thing cannot pass for one that did.

use crate::hostcall_loops::HostcallLoop;

/// Pages of the bots' memory (4 MiB: room for the largest bulk operations below).
const PAGES: u32 = 64;
/// Bytes of the largest bulk memory operation (2 MiB: half the memory, so copies overlap
/// nothing and every byte is inside it).
const BULK: u32 = 2 << 20;
/// Elements of the bots' table at its largest (the default per-table limit).
const TABLE: u32 = 10_000;

fn bot(instruction: &'static str, what: &'static str, fields: &str, body: &str) -> HostcallLoop {
    HostcallLoop {
        function: instruction,
        what,
        wat: format!(
            "(module\n{fields}\n  (func $f)\n  (func (export \"_start\") (local $x f64) (local $one f64)\n    (call $setup)\n    (local.set $x (f64.load (i32.const 64)))\n    (local.set $one (f64.load (i32.const 72)))\n    (loop $l\n{body}\n      (br $l))))\n"
        ),
    }
}

/// The fields of a bot with a memory of [`PAGES`] pages (`max` pages at most, if given), a
/// funcref table of `table` elements (`table_max` at most) and a `$setup` function.
fn fields(max: Option<u32>, table: u32, table_max: Option<u32>, setup: &str) -> String {
    let max = max.map(|m| format!(" {m}")).unwrap_or_default();
    let table_max = table_max.map(|m| format!(" {m}")).unwrap_or_default();
    format!(
        "  (memory (export \"memory\") {PAGES}{max})\n  (table $t {table}{table_max} funcref)\n  (elem $e func $f $f $f $f $f $f $f $f)\n  (data $d \"0123456789abcdef0123456789abcdef\")\n  (global $zero (mut i32) (i32.const 0))\n  (func $setup\n{setup}\n  )"
    )
}

/// A grow whose result must equal `want` (a wasm expression), else `unreachable`.
fn expect(grow: &str, want: &str) -> String {
    format!("      (if (i32.ne {grow} {want}) (then unreachable))")
}

/// Every instruction loop.
pub fn loops() -> Vec<HostcallLoop> {
    let mut all = Vec::new();
    let none = "";
    let refused = "(i32.const -1)";
    // Grow to the 64 MiB limit (1024 pages) first; the setup checks the grow was accepted.
    let to_limit = format!(
        "    (if (i32.ne (memory.grow (i32.const {})) (i32.const {PAGES})) (then unreachable))",
        1024 - PAGES
    );

    // ---- memory.grow ----
    all.push(bot(
        "memory.grow",
        "one page past the 64 MiB limit, refused",
        &fields(None, 1, None, &to_limit),
        &expect("(memory.grow (i32.const 1))", refused),
    ));
    all.push(bot(
        "memory.grow",
        "65536 pages (past 4 GiB), refused",
        &fields(None, 1, None, none),
        &expect("(memory.grow (i32.const 65536))", refused),
    ));
    all.push(bot(
        "memory.grow",
        "one page past the module's declared maximum, refused",
        &fields(Some(PAGES), 1, None, none),
        &expect("(memory.grow (i32.const 1))", refused),
    ));
    all.push(bot(
        "memory.grow",
        "zero pages (accepted: returns the size)",
        &fields(None, 1, None, none),
        &expect(
            "(memory.grow (i32.const 0))",
            &format!("(i32.const {PAGES})"),
        ),
    ));
    all.push(bot(
        "memory.grow",
        "zero pages, the delta in a global",
        &fields(None, 1, None, none),
        &expect(
            "(memory.grow (global.get $zero))",
            &format!("(i32.const {PAGES})"),
        ),
    ));

    // ---- table.grow ----
    let table_to_limit = format!(
        "    (if (i32.ne (table.grow $t (ref.null func) (i32.const {})) (i32.const 1)) (then unreachable))",
        TABLE - 1
    );
    all.push(bot(
        "table.grow",
        "one element past the 10,000-element limit, refused",
        &fields(None, 1, None, &table_to_limit),
        &expect("(table.grow $t (ref.null func) (i32.const 1))", refused),
    ));
    all.push(bot(
        "table.grow",
        "2^31 elements, refused",
        &fields(None, 1, None, none),
        &expect(
            "(table.grow $t (ref.null func) (i32.const 0x7fffffff))",
            refused,
        ),
    ));
    all.push(bot(
        "table.grow",
        "one element past the module's declared maximum, refused",
        &fields(None, 1, Some(1), none),
        &expect("(table.grow $t (ref.null func) (i32.const 1))", refused),
    ));
    all.push(bot(
        "table.grow",
        "zero elements (accepted: returns the size)",
        &fields(None, 1, None, none),
        &expect(
            "(table.grow $t (ref.null func) (i32.const 0))",
            "(i32.const 1)",
        ),
    ));
    all.push(bot(
        "table.grow",
        "zero elements, the delta in a global",
        &fields(None, 1, None, none),
        &expect(
            "(table.grow $t (ref.null func) (global.get $zero))",
            "(i32.const 1)",
        ),
    ));

    // ---- bulk memory ----
    let full = fields(None, TABLE, None, none);
    for (what, body) in [
        (
            "zero bytes",
            "      (memory.fill (i32.const 0) (i32.const 0) (i32.const 0))".to_string(),
        ),
        (
            "zero bytes, the length in a global",
            "      (memory.fill (i32.const 0) (i32.const 0) (global.get $zero))".to_string(),
        ),
        (
            "2 MiB",
            format!("      (memory.fill (i32.const 0) (i32.const 7) (i32.const {BULK}))"),
        ),
    ] {
        all.push(bot("memory.fill", what, &full, &body));
    }
    for (what, body) in [
        (
            "zero bytes",
            "      (memory.copy (i32.const 0) (i32.const 0) (i32.const 0))".to_string(),
        ),
        (
            "zero bytes, the length in a global",
            "      (memory.copy (i32.const 0) (i32.const 0) (global.get $zero))".to_string(),
        ),
        (
            "2 MiB",
            format!("      (memory.copy (i32.const {BULK}) (i32.const 0) (i32.const {BULK}))"),
        ),
        (
            "2 MiB onto itself shifted by one byte (overlapping)",
            format!("      (memory.copy (i32.const 1) (i32.const 0) (i32.const {BULK}))"),
        ),
    ] {
        all.push(bot("memory.copy", what, &full, &body));
    }
    for (what, body) in [
        (
            "zero bytes",
            "      (memory.init $d (i32.const 0) (i32.const 0) (i32.const 0))",
        ),
        (
            "zero bytes, the length in a global",
            "      (memory.init $d (i32.const 0) (i32.const 0) (global.get $zero))",
        ),
        (
            "the whole 32-byte segment",
            "      (memory.init $d (i32.const 0) (i32.const 0) (i32.const 32))",
        ),
    ] {
        all.push(bot("memory.init", what, &full, body));
    }
    all.push(bot(
        "data.drop",
        "the same segment again and again",
        &full,
        "      (data.drop $d)",
    ));

    // ---- bulk table ----
    for (what, body) in [
        (
            "zero elements",
            "      (table.fill $t (i32.const 0) (ref.func $f) (i32.const 0))".to_string(),
        ),
        (
            "zero elements, the length in a global",
            "      (table.fill $t (i32.const 0) (ref.func $f) (global.get $zero))".to_string(),
        ),
        (
            "10,000 elements",
            format!("      (table.fill $t (i32.const 0) (ref.func $f) (i32.const {TABLE}))"),
        ),
    ] {
        all.push(bot("table.fill", what, &full, &body));
    }
    for (what, body) in [
        (
            "zero elements",
            "      (table.copy $t $t (i32.const 0) (i32.const 0) (i32.const 0))".to_string(),
        ),
        (
            "zero elements, the length in a global",
            "      (table.copy $t $t (i32.const 0) (i32.const 0) (global.get $zero))".to_string(),
        ),
        (
            "9,999 elements shifted by one (overlapping)",
            format!(
                "      (table.copy $t $t (i32.const 1) (i32.const 0) (i32.const {}))",
                TABLE - 1
            ),
        ),
    ] {
        all.push(bot("table.copy", what, &full, &body));
    }
    for (what, body) in [
        (
            "zero elements",
            "      (table.init $t $e (i32.const 0) (i32.const 0) (i32.const 0))",
        ),
        (
            "zero elements, the length in a global",
            "      (table.init $t $e (i32.const 0) (i32.const 0) (global.get $zero))",
        ),
        (
            "the whole 8-element segment",
            "      (table.init $t $e (i32.const 0) (i32.const 0) (i32.const 8))",
        ),
    ] {
        all.push(bot("table.init", what, &full, body));
    }
    all.push(bot(
        "elem.drop",
        "the same segment again and again",
        &full,
        "      (elem.drop $e)",
    ));
    all.push(bot(
        "call_indirect",
        "through a 10,000-element table",
        &fields(
            None,
            TABLE,
            None,
            "    (table.fill $t (i32.const 0) (ref.func $f) (i32.const 10000))",
        ),
        "      (call_indirect $t (i32.const 9999))",
    ));

    // ---- control flow ----
    // A `loop` costs wasmtime no fuel, but every loop header checks the fuel and the epoch:
    // a branch from the innermost of many nested empty loops to the outermost runs through
    // every header for one fuel (found by the fuzzer: `fuzz/corpus/sandbox/nested-loops`).
    let depth = 999;
    let mut nested = String::new();
    for _ in 0..depth {
        nested.push_str("(loop ");
    }
    nested.push_str(&format!("(br {})", depth - 1));
    nested.push_str(&")".repeat(depth));
    all.push(bot(
        "loop",
        "999 nested empty loops, the innermost branching to the outermost",
        &fields(None, 1, None, none),
        &format!("      {nested}"),
    ));

    // ---- floats on subnormal numbers (microcode assists on some Intel CPUs) ----
    // $x starts as the smallest positive subnormal double, read from memory so that the
    // compiler cannot fold it; multiplying by 1.0 keeps it subnormal forever.
    let subnormal = "    (f64.store (i32.const 64) (f64.const 0x0.0000000000001p-1022))\n    (f64.store (i32.const 72) (f64.const 1))";
    let fl = fields(None, 1, None, subnormal);
    all.push(bot(
        "f64.mul",
        "a subnormal times one",
        &fl,
        "      (local.set $x (f64.mul (f64.load (i32.const 64)) (f64.load (i32.const 72))))\n      (f64.store (i32.const 64) (local.get $x))",
    ));
    all.push(bot(
        "f64.div",
        "a subnormal over one",
        &fl,
        "      (local.set $x (f64.div (f64.load (i32.const 64)) (f64.load (i32.const 72))))\n      (f64.store (i32.const 64) (local.get $x))",
    ));
    all.push(bot(
        "f64.sqrt",
        "of a subnormal",
        &fl,
        "      (f64.store (i32.const 80) (f64.sqrt (f64.load (i32.const 64))))",
    ));
    all.push(bot(
        "f64.add",
        "a subnormal plus zero",
        &fl,
        "      (f64.store (i32.const 64) (f64.add (f64.load (i32.const 64)) (f64.const 0)))",
    ));
    all.push(bot(
        "f64.min",
        "of two subnormals",
        &fl,
        "      (f64.store (i32.const 80) (f64.min (f64.load (i32.const 64)) (f64.load (i32.const 64))))",
    ));
    all.push(bot(
        "f64.nearest",
        "of a subnormal",
        &fl,
        "      (f64.store (i32.const 80) (f64.nearest (f64.load (i32.const 64))))",
    ));
    all.push(bot(
        "f32.demote_f64",
        "a double that becomes a subnormal float",
        &fields(
            None,
            1,
            None,
            "    (f64.store (i32.const 64) (f64.const 0x1p-140))",
        ),
        "      (f32.store (i32.const 80) (f32.demote_f64 (f64.load (i32.const 64))))",
    ));
    all.push(bot(
        "f64.promote_f32",
        "of a subnormal float",
        &fields(
            None,
            1,
            None,
            "    (f32.store (i32.const 64) (f32.const 0x0.000002p-126))",
        ),
        "      (f64.store (i32.const 80) (f64.promote_f32 (f32.load (i32.const 64))))",
    ));
    all.push(bot(
        "f64.div",
        "a subnormal over one, in locals (the tightest loop)",
        &fl,
        "      (local.set $x (f64.div (local.get $x) (local.get $one)))",
    ));
    all.push(bot(
        "f64x2.mul",
        "two subnormals times one, in one SIMD operation",
        &fields(
            None,
            1,
            None,
            "    (v128.store (i32.const 64) (f64x2.splat (f64.const 0x0.0000000000001p-1022)))\n    (v128.store (i32.const 96) (f64x2.splat (f64.const 1)))",
        ),
        "      (v128.store (i32.const 64) (f64x2.mul (v128.load (i32.const 64)) (v128.load (i32.const 96))))",
    ));
    all.push(bot(
        "f32x4.mul",
        "four subnormals times one, in one SIMD operation",
        &fields(
            None,
            1,
            None,
            "    (v128.store (i32.const 64) (f32x4.splat (f32.const 0x0.000002p-126)))\n    (v128.store (i32.const 96) (f32x4.splat (f32.const 1)))",
        ),
        "      (v128.store (i32.const 64) (f32x4.mul (v128.load (i32.const 64)) (v128.load (i32.const 96))))",
    ));
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_module_parses_and_every_instruction_has_a_loop() {
        let all = loops();
        for l in &all {
            l.module().unwrap_or_else(|e| panic!("{}: {e}", l.label()));
        }
        for i in [
            "memory.grow",
            "table.grow",
            "memory.fill",
            "memory.copy",
            "memory.init",
            "table.fill",
            "table.copy",
            "table.init",
        ] {
            assert!(all.iter().any(|l| l.function == i), "no loop for {i}");
        }
    }
}
