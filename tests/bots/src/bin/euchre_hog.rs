//! A Euchre bot that tries to keep far more than its 1 KiB memory file allows: every
//! invocation it writes 2,000 bytes (which must fail with ENOSPC), reports on stderr what it
//! saw, then keeps a 100-byte file (which fits) and plays a legal, plain game, so the test can
//! check that the failed write cost it nothing but the write.

use std::io::Read;

/// The suit a card counts as: the left bower belongs to trump.
fn effective_suit(card: &str, trump: Option<char>) -> char {
    let (rank, suit) = (card.chars().next(), card.chars().nth(1).unwrap_or('?'));
    let partner = |s: char| match s {
        'c' => 's',
        's' => 'c',
        'd' => 'h',
        'h' => 'd',
        other => other,
    };
    match trump {
        Some(t) if rank == Some('j') && suit == partner(t) => t,
        _ => suit,
    }
}

fn main() {
    let mut input = String::new();
    let _ = std::io::stdin().read_to_string(&mut input);
    let lines: Vec<&str> = input.lines().collect();
    let line = |i: usize| lines.get(i).copied().unwrap_or("");
    match std::fs::write("memory", vec![b'x'; 2000]) {
        Ok(()) => eprintln!("hog: the 2000-byte write succeeded"),
        Err(e) => eprintln!(
            "hog: the 2000-byte write failed: {e} (raw {:?})",
            e.raw_os_error()
        ),
    }
    if let Err(e) = std::fs::write("memory", vec![b'y'; 100]) {
        eprintln!("hog: even 100 bytes failed: {e}");
    }
    let hand: Vec<&str> = line(0).split(',').filter(|c| !c.is_empty()).collect();
    let answer = match line(3) {
        "ordering" | "naming" => "p".to_string(),
        "alone" => "n".to_string(),
        "discard" => hand.first().copied().unwrap_or("").to_string(),
        "turn" => {
            let trump = line(4).chars().next();
            let led = line(5)
                .split(',')
                .find(|c| !c.is_empty() && *c != "p")
                .map(|c| effective_suit(c, trump));
            let follows: Vec<&str> = hand
                .iter()
                .copied()
                .filter(|c| Some(effective_suit(c, trump)) == led)
                .collect();
            follows
                .first()
                .or(hand.first())
                .copied()
                .unwrap_or("")
                .to_string()
        }
        _ => String::new(),
    };
    println!("{answer}");
}
