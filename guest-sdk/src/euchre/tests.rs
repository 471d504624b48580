use super::*;
use crate::Rng;

fn c(t: &str) -> Card {
    Card::parse(t).unwrap()
}

fn cards(list: &str) -> Vec<Card> {
    list.split_whitespace().map(c).collect()
}

#[test]
fn parses_every_phase_of_the_protocol() {
    let i = Input::parse("js,ah,qc,ts,jc\n2\n0\nordering\nth\np,p\n").unwrap();
    assert_eq!(i.hand, cards("js ah qc ts jc"));
    assert_eq!((i.points, i.tricks), (2, 0));
    assert_eq!(
        i.phase,
        Phase::Ordering {
            turned: c("th"),
            previous: vec![Answer::Pass, Answer::Pass]
        }
    );
    // The first player's list is an empty line (or missing altogether).
    for text in ["js\n0\n0\nordering\nth\n\n", "js\n0\n0\nordering\nth\n"] {
        let i = Input::parse(text).unwrap();
        assert!(matches!(i.phase, Phase::Ordering { ref previous, .. } if previous.is_empty()));
    }
    let i = Input::parse("js,ah\r\n1\r\n0\r\nnaming\r\np,h\r\n").unwrap();
    assert_eq!(i.seat_from_dealer(), Some(2));
    assert_eq!(
        i.phase,
        Phase::Naming {
            previous: vec![Answer::Pass, Answer::Name(Suit::Hearts)]
        }
    );
    let i = Input::parse("js,ah,qc,ts,jc\n2\n0\ndiscard\nth\n").unwrap();
    assert_eq!(i.phase, Phase::Discard { pickup: c("th") });
    assert_eq!(i.legal().len(), 6);
    assert_eq!(i.seat_from_dealer(), Some(3));
    assert_eq!(i.default_answer(), Answer::Discard(c("js")));
    let i = Input::parse("js,ah,qc,ts,jc\n2\n0\nalone\nh\nn\n").unwrap();
    assert_eq!(
        i.phase,
        Phase::Alone {
            trump: Suit::Hearts,
            previous: vec![false]
        }
    );
    let i = Input::parse("js,ah,qc,ts,jc\n2\n0\nturn\nh\ntd,9d,p\n").unwrap();
    assert_eq!(
        i.phase,
        Phase::Turn {
            trump: Suit::Hearts,
            played: vec![Some(c("td")), Some(c("9d")), None]
        }
    );
    let i = Input::parse("\n2\n1\ntrick\n0\nh\njs,tc,p,ks\n").unwrap();
    assert!(i.hand.is_empty());
    assert_eq!(
        i.phase,
        Phase::Trick {
            index: 0,
            trump: Suit::Hearts,
            cards: vec![Some(c("js")), Some(c("tc")), None, Some(c("ks"))]
        }
    );
    assert_eq!(i.legal(), vec![Answer::Nothing]);
}

#[test]
fn malformed_inputs_are_errors_not_panics() {
    for text in [
        "",
        "js\n0\n0\n",
        "js\nx\n0\nturn\nh\n\n",
        "zz\n0\n0\nturn\nh\n\n",
        "js\n0\n0\nbidding\n",
        "js\n0\n0\nturn\nhh\n\n",
        "js\n0\n0\nordering\nth\nq\n",
        "\n0\n0\ntrick\n7\nh\njs,tc,p,ks\n",
        "js\n0\n0\nalone\nh\nmaybe\n",
        "js\n-1\n0\nturn\nh\n\n",
    ] {
        assert!(Input::parse(text).is_err(), "{text:?}");
    }
    let mut rng = Rng::from_seed(3);
    let alphabet = b"jsahqct9kdnpoy,\n0123 turnickordeg";
    for _ in 0..20_000 {
        let len = rng.index(40);
        let bytes: Vec<u8> = (0..len)
            .map(|_| alphabet[rng.index(alphabet.len())])
            .collect();
        let text = String::from_utf8(bytes).unwrap();
        if let Ok(input) = Input::parse(&text) {
            // Whatever parses has a legal answer.
            let d = input.default_answer();
            assert!(input.is_legal(d) || input.hand.is_empty(), "{text:?}");
        }
    }
}

#[test]
fn bowers_and_following_suit() {
    let h = Suit::Hearts;
    assert!(c("jh").is_right_bower(h) && c("jd").is_left_bower(h));
    assert_eq!(c("jd").suit_under(h), h);
    assert_eq!(c("jd").trump_rank(h), 6);
    assert_eq!(c("jh").trump_rank(h), 7);
    assert_eq!(c("9h").trump_rank(h), 1);
    assert_eq!(c("ah").trump_rank(h), 5);
    assert_eq!(c("jc").trump_rank(h), 0);
    // Diamonds led: the left bower does not follow, the nine must.
    assert_eq!(
        legal_plays(&cards("jd 9d ac"), Some(c("ad")), h),
        cards("9d")
    );
    assert_eq!(
        legal_plays(&cards("jd ac"), Some(c("ad")), h),
        cards("jd ac")
    );
    // The left bower led asks for trump.
    assert_eq!(
        legal_plays(&cards("9d th ks"), Some(c("jd")), h),
        cards("th")
    );
    let t = |s: &str| -> Vec<Option<Card>> {
        s.split(',')
            .map(|x| if x == "p" { None } else { Some(c(x)) })
            .collect()
    };
    assert_eq!(trick_winner(&t("ah,jd,kh,9h"), h), Some(1));
    assert_eq!(trick_winner(&t("9c,ad,p,ac"), h), Some(3));
    assert_eq!(trick_winner(&t("9c,9h"), h), Some(1));
    let i = Input::parse("9c,kd,as\n0\n0\nturn\nh\nqs,ks\n").unwrap();
    assert_eq!(i.legal_plays(), cards("as"));
    assert_eq!(i.winning_position(), Some(1));
    assert!(!i.partner_winning());
    let i = Input::parse("9c,kd,as\n0\n0\nturn\nh\nks,qs\n").unwrap();
    assert!(i.partner_winning());
    assert_eq!(i.led(), Some(c("ks")));
}

#[test]
fn card_indices_and_sets() {
    let deck = Card::deck();
    assert_eq!(deck.len(), 24);
    for (i, card) in deck.iter().enumerate() {
        assert_eq!(card.index(), i);
        assert_eq!(Card::from_index(i), Some(*card));
        assert_eq!(Card::parse(&card.to_string()), Some(*card));
    }
    assert_eq!(Card::from_index(24), None);
    let set = CardSet::of(&cards("jh as 9c"));
    assert_eq!(set.len(), 3);
    assert_eq!(CardSet::from_bytes(set.to_bytes()), set);
    assert_eq!(set.cards(), cards("9c jh as"));
    let mut s = set;
    s.remove(c("jh"));
    assert!(!s.contains(c("jh")) && s.contains(c("as")));
    assert_eq!(cards_to_string(&cards("jh as")), "jh,as");
}

/// A fresh directory under the system temp dir, removed on drop.
struct TempDir(std::path::PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let dir =
            std::env::temp_dir().join(format!("koth-guest-euchre-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[test]
fn memory_round_trips_within_the_quota() {
    let dir = TempDir::new("memory");
    let path = dir.0.join(MEMORY_FILE);
    let mut m = Memory::open(&path);
    assert!(m.data().is_empty(), "no file yet");
    m.set(b"hello").unwrap();
    m.save().unwrap();
    assert_eq!(Memory::open(&path).data(), b"hello");
    // The largest memory fills the file exactly.
    let big = vec![7u8; MEMORY_CAPACITY];
    m.set(&big).unwrap();
    m.save().unwrap();
    assert_eq!(std::fs::metadata(&path).unwrap().len(), MEMORY_LIMIT as u64);
    assert_eq!(Memory::open(&path).data(), &big[..]);
    // One byte more is refused before anything is written.
    assert!(matches!(
        m.set(&vec![0u8; MEMORY_CAPACITY + 1]),
        Err(Error::TooLarge(1023))
    ));
    assert_eq!(m.data(), &big[..]);
    // Damaged, foreign or oversized files read as empty.
    std::fs::write(&path, b"\xe7hello?").unwrap();
    assert!(Memory::open(&path).data().is_empty());
    std::fs::write(&path, b"plain text").unwrap();
    assert!(Memory::open(&path).data().is_empty());
    std::fs::write(&path, vec![0xe7; 2000]).unwrap();
    assert!(Memory::open(&path).data().is_empty());
    // A full quota is its own error.
    let full = std::io::Error::from(std::io::ErrorKind::StorageFull);
    assert!(matches!(Error::from(full), Error::NoSpace));
    let mut m = Memory::in_memory(b"abc");
    m.clear();
    assert!(m.data().is_empty());
    m.save().unwrap();
}

#[test]
fn run_with_prints_the_answer_or_the_default() {
    let mut memory = Memory::in_memory(&[]);
    let mut out = Vec::new();
    let input = "9c,kd,as\n0\n0\nturn\nh\nqs,ks\n";
    run_with(input.as_bytes(), &mut out, &mut memory, |i, m| {
        m.set(&[1, 2]).unwrap();
        Answer::Play(i.legal_plays()[0])
    })
    .unwrap();
    assert_eq!(out, b"as\n");
    assert_eq!(memory.data(), &[1, 2]);
    // An illegal answer becomes the host's default.
    let mut out = Vec::new();
    run_with(input.as_bytes(), &mut out, &mut memory, |_, _| {
        Answer::Play(c("9c"))
    })
    .unwrap();
    assert_eq!(out, b"as\n");
    // A trick report prints nothing.
    let mut out = Vec::new();
    run_with(
        "\n0\n1\ntrick\n0\nh\njs,tc,p,ks\n".as_bytes(),
        &mut out,
        &mut memory,
        |_, _| Answer::Nothing,
    )
    .unwrap();
    assert!(out.is_empty());
    let mut out = Vec::new();
    assert!(run_with("junk".as_bytes(), &mut out, &mut memory, |_, _| {
        Answer::Pass
    })
    .is_err());
    assert_eq!(Answer::Name(Suit::Clubs).token(), "c");
    assert_eq!(Answer::Alone(true).token(), "y");
}

/// `/dev/full` fails every write with `ENOSPC`, as a full quota does under koth.
#[cfg(target_os = "linux")]
#[test]
fn a_full_quota_is_reported_and_the_answer_still_goes_out() {
    let full = std::path::Path::new("/dev/full");
    if !full.exists() {
        return;
    }
    let mut memory = Memory::open(full);
    assert!(memory.data().is_empty(), "zeros are not a memory file");
    memory.set(b"seen cards").unwrap();
    assert!(matches!(memory.save(), Err(Error::NoSpace)));
    let mut out = Vec::new();
    let input = "9c,kd,as\n0\n0\nturn\nh\nqs,ks\n";
    run_with(input.as_bytes(), &mut out, &mut memory, |i, _| {
        Answer::Play(i.legal_plays()[0])
    })
    .unwrap();
    assert_eq!(out, b"as\n");
}
