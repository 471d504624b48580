//! Prints what a bot can observe of its environment (placeholder; the hostile suite extends it).
fn main() {
    for a in std::env::args() {
        println!("arg {a:?}");
    }
}
